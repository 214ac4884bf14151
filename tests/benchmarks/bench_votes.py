"""Vote versus greedy PAL, wall time on 5 fixed questions, in one run (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_votes.py [--threads 2] [--interleaved]

Each method on the five questions in turn: greedy PAL, the 5-sample vote (`sc-pal`: the five
samples decoded together in one batch, each program run), the mixed vote (`mix`: PAL, chain of
thought, PoT where they disagree, and three more chains of thought in one batch where all three
do), `mix+more` (that second round wherever chain of thought and PAL disagree) and `mix` with
PAL and chain of thought one after the other ("turns": where two sequences decode fast enough
together, `mix` pairs them, `rounds.FIRST_ROUND_PAYS`). Also the
vote's decoding rate, and the time to the first answer on screen (a vote's `FirstAnswer`; greedy
PAL's answer is its first).
Targets: vote/greedy ≤ 2.2 (issue 15); first answer ≤ 1.3 × greedy PAL's time (issue 33).
"""

from __future__ import annotations

import argparse
import time
from contextlib import nullcontext
from unittest import mock

from app.reasoning import rounds
from app.reasoning.events import FirstAnswer
from app.reasoning.methods import solve, warm_up
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


def timed_solve(
    question: str, method: str, model: LocalModel, box: Sandbox
) -> tuple[float, int, int, str | None, float]:
    """Seconds, tokens, samples, answer, and seconds to the first answer."""
    started = time.perf_counter()
    first: list[float] = []

    def heard(event: object) -> None:
        if isinstance(event, FirstAnswer) and not first:
            first.append(time.perf_counter() - started)

    solution = solve(question, method, model, box, on_event=heard)
    took = time.perf_counter() - started
    tokens = sum(call.completion_tokens for call in solution.calls)
    return took, tokens, solution.samples, solution.answer, first[0] if first else took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--interleaved", action="store_true", help="all three methods on each question before the next one"
    )
    args = parser.parse_args()
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads))
    methods = {"greedy": "pal", "vote": "sc-pal", "mix": "mix", "more": "mix+more", "turns": "mix"}
    results: dict[str, list[tuple[float, int, int, str | None, float]]] = {kind: [] for kind in methods}
    with Sandbox() as box:
        # Each method is warmed once on a question outside the timed ones. By default one method
        # at a time; --interleaved switches method at every question, which once evicted the other
        # methods' prompt prefixes from the batch context (mix measured 4.5 × instead of 2.7 ×).
        warm_up(model, box, "mix")  # as the window starts: it times two sequences, so mix pairs where they pay
        for method in methods.values():
            solve("What is 7 + 8?", method, model, box)
        order = (
            [(kind, q) for q in QUESTIONS for kind in methods]
            if args.interleaved
            else [(kind, q) for kind in methods for q in QUESTIONS]
        )
        for kind, question in order:
            never_paired = mock.patch.object(rounds, "FIRST_ROUND_PAYS", float("inf"))
            with never_paired if kind == "turns" else nullcontext():
                results[kind].append(timed_solve(question, methods[kind], model, box))
    totals = {kind: sum(r[0] for r in rows) for kind, rows in results.items()}
    print(
        f"{'question':<46} {'greedy s':>9} {'vote s':>7} {'samples':>7} {'mix s':>6} {'first s':>7} {'more s':>7}"
        f" {'turns s':>7} {'first s':>7}   answers (greedy/vote/mix/more/turns)"
    )
    for n, question in enumerate(QUESTIONS):
        greedy, vote, mixed, more, turns = (results[kind][n] for kind in methods)
        print(
            f"{question[:45]:<46} {greedy[0]:>9.1f} {vote[0]:>7.1f} {vote[2]:>7} {mixed[0]:>6.1f} {mixed[4]:>7.1f}"
            f" {more[0]:>7.1f} {turns[0]:>7.1f} {turns[4]:>7.1f}"
            f"   {greedy[3]} / {vote[3]} / {mixed[3]} / {more[3]} / {turns[3]}"
        )
    vote_tokens = sum(r[1] for r in results["vote"])
    gain = model.batch_gain(2)
    model.close()
    print(f"two sequences decoded together: {gain or 0:.2f} × one's rate (mix pairs from {rounds.FIRST_ROUND_PAYS})")
    print(f"5 samples in one batch: {vote_tokens / totals['vote']:.1f} tokens/s in total (program runs included)")
    print(f"mix/greedy wall ratio = {totals['mix'] / totals['greedy']:.2f}")
    print(f"vote/greedy wall ratio = {totals['vote'] / totals['greedy']:.2f}")
    print(f"mix+more/greedy wall ratio = {totals['more'] / totals['greedy']:.2f}")
    print(f"mix, one after the other/greedy wall ratio = {totals['turns'] / totals['greedy']:.2f}")
    for kind, name in (("mix", "mix's"), ("turns", "mix's one after the other")):
        first = sum(r[4] for r in results[kind])
        print(f"{name} first answer / greedy PAL's answer = {first / totals['greedy']:.2f} (on screen)")


if __name__ == "__main__":
    main()
