"""Vote versus greedy PAL, wall time on 5 fixed questions, in one run (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_votes.py [--threads 2]

For each question: greedy PAL, the 5-sample vote (`sc-pal`: the five samples decoded together
in one batch, each program run) and the mixed vote (`mix`: chain of thought, PAL and PoT decoded
side by side in one batch). Also the vote's decoding rate. Target (issue 15): vote/greedy ≤ 2.2
(was ≈ 5 with the samples drawn one after another).
"""

from __future__ import annotations

import argparse
import time

from app.reasoning.methods import solve
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox

QUESTIONS = (
    "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?",
    "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?",
    "A train travels 180 km in 2.5 hours. What is its average speed in km/h?",
    "Tom reads 12 pages a day for 2 weeks and then 20 pages a day for 3 days. How many pages did he read?",
    "A shirt costs $40 and is on sale for 25% off. Sales tax of 10% is added to the sale price. What is the total?",
)


def timed_solve(question: str, method: str, model: LocalModel, box: Sandbox) -> tuple[float, int, int, str | None]:
    started = time.perf_counter()
    solution = solve(question, method, model, box)
    tokens = sum(call.completion_tokens for call in solution.calls)
    return time.perf_counter() - started, tokens, solution.samples, solution.answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads))
    totals = {"greedy": 0.0, "vote": 0.0, "mix": 0.0}
    vote_tokens = 0
    with Sandbox() as box:
        solve(QUESTIONS[0], "pal", model, box)  # warm both contexts' caches on the shared prompt prefix
        solve(QUESTIONS[0], "sc3-pal", model, box)
        solve(QUESTIONS[0], "mix", model, box)  # and each of the mixed vote's three prompts
        print(f"{'question':<46} {'greedy s':>9} {'vote s':>7} {'samples':>7} {'mix s':>6}   answers (greedy/vote/mix)")
        for question in QUESTIONS:
            greedy, _tokens, _n, answer = timed_solve(question, "pal", model, box)
            vote, tokens, samples, vote_answer = timed_solve(question, "sc-pal", model, box)
            mixed, _tokens, _n, mix_answer = timed_solve(question, "mix", model, box)
            totals["greedy"] += greedy
            totals["vote"] += vote
            totals["mix"] += mixed
            vote_tokens += tokens
            print(
                f"{question[:45]:<46} {greedy:>9.1f} {vote:>7.1f} {samples:>7} {mixed:>6.1f}"
                f"   {answer} / {vote_answer} / {mix_answer}"
            )
    model.close()
    print(f"5 samples in one batch: {vote_tokens / totals['vote']:.1f} tokens/s in total (program runs included)")
    print(f"mix/greedy wall ratio = {totals['mix'] / totals['greedy']:.2f}")
    print(f"vote/greedy wall ratio = {totals['vote'] / totals['greedy']:.2f}")


if __name__ == "__main__":
    main()
