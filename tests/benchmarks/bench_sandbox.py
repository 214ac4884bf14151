"""Sandbox speed, measured in one run (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_sandbox.py [--runs N]

Warm runs go through the real API (fork of the warm worker, full lockdown, JSON both ways);
the cold reference is a fresh interpreter that imports sympy, which is what a design without a
warm worker would pay for every run. Targets (issue 2): warm print(1) p50 ≤ 25 ms and ≤ 0.1 × cold.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from sandbox import Sandbox, Status

PROGRAMS = {
    "print(1)": "print(1)",
    "sympy solve": "from sympy import symbols, solve\nx = symbols('x')\nans = solve(x**2 - 5*x + 6, x)",
    "sum(range(10**6))": "ans = sum(range(10**6))",
}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    figures: dict[str, tuple[float, float]] = {}
    with Sandbox() as box:
        started = time.perf_counter()
        box.start()
        print(f"worker start (imports + warm-up): {(time.perf_counter() - started) * 1000:.0f} ms")
        print(f"isolation: {box.isolation.value}")
        for name, code in PROGRAMS.items():
            assert box.run(code).status is Status.OK
            figures[name] = percentiles(timed(lambda code=code: box.run(code), runs))  # type: ignore[misc]
    cold = [sys.executable, "-I", "-c", "import sympy"]
    figures["cold spawn + import sympy"] = percentiles(timed(lambda: subprocess.run(cold, check=True), runs))
    print(f"\n{'program':<28}{'p50 ms':>9}{'p95 ms':>9}   ({runs} runs each)")
    for name, (p50, p95) in figures.items():
        print(f"{name:<28}{p50:>9.1f}{p95:>9.1f}")
    warm = figures["print(1)"][0]
    ratio = warm / figures["cold spawn + import sympy"][0]
    print(f"\nwarm print(1) p50 = {warm:.1f} ms (target <= 25): {'met' if warm <= 25 else 'MISSED'}")
    print(f"warm / cold p50 = {ratio:.3f} (target <= 0.1): {'met' if ratio <= 0.1 else 'MISSED'}")


if __name__ == "__main__":
    main()
