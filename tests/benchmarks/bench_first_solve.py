"""The first solve of a session, with and without the warm-up that reads the default method's
prompts into the model's cache after it loads (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_first_solve.py

Each case loads the embedded model afresh, then (warmed) runs `warm_up` and times it, then times
the first `mix` solve and a second one on another question. Target (issue 29): the first solve is
not 3× slower than the rest.
"""

from __future__ import annotations

import time

from app.reasoning.methods import DEFAULT_METHOD, solve, warm_up
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox

FIRST = "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?"
SECOND = "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"


def case(sandbox: Sandbox, *, warmed: bool) -> None:
    model = LocalModel(ModelSettings(ensure_embedded(), n_threads=2))
    warm_s = 0.0
    if warmed:
        started = time.perf_counter()
        warm_up(model, sandbox, DEFAULT_METHOD)
        warm_s = time.perf_counter() - started
    times = []
    for question in (FIRST, SECOND):
        started = time.perf_counter()
        solution = solve(question, DEFAULT_METHOD, model, sandbox)
        times.append(time.perf_counter() - started)
        assert solution.answered, solution.message
    model.close()
    label = f"warmed ({warm_s:.1f} s ahead)" if warmed else "not warmed"
    print(f"{label:>24}: first solve {times[0]:5.1f} s, second {times[1]:5.1f} s, ratio {times[0] / times[1]:.2f}")


def main() -> None:
    with Sandbox() as sandbox:
        case(sandbox, warmed=False)
        case(sandbox, warmed=True)


if __name__ == "__main__":
    main()
