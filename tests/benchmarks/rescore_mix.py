"""Accuracy of mix+more, mix, PAL and chain of thought from one `mix+more` (or `mix`) evaluation's
records (prints a table; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/rescore_mix.py eval-results/gsm8k-more

"mix, ties to cot" is the vote before chain of thought's arithmetic was checked; "mix" checks it
(records that keep the reasoning): where its written calculations slip, or the question's numbers
are large, a tie goes to the programs.

A `mix+more` record holds every solve's answer (`sampled`): chain of thought's, PAL's and PoT's
(greedy: today's `mix` votes over them, ties to chain of thought), then the second round's four
PAL programs where the first disagreed. So one run gives all four methods on the same items, and
mix+more's answer is re-voted with the rules of this checkout (the run may be older).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from app.evaluation.grader import grade
from app.reasoning.check_working import arithmetic_slips
from app.reasoning.methods import large_numbers, vote
from app.reasoning.numbers import vote_key
from sandbox import Sandbox


def main() -> None:
    rows = [json.loads(line) for line in (Path(sys.argv[1]) / "results.jsonl").read_text().splitlines() if line]
    rows = [r for r in rows if r.get("sampled")]
    right: Counter[str] = Counter()
    levels: Counter[tuple[str, bool]] = Counter()
    slipped: Counter[bool] = Counter()  # chain of thought's answers whose arithmetic slipped: right or not
    sandbox = Sandbox()
    for row in rows:
        answers = [s["answer"] for s in row["sampled"]]
        methods = [s["method"] for s in row["sampled"]]
        first = answers[:3]
        cot, pal = first[0], first[1] if len(first) > 1 else None
        old_votes = vote(first)
        slips = arithmetic_slips(row["sampled"][0].get("reasoning") or "", sandbox) if cot is not None else ()
        if slips:
            slipped[grade(cot, row["gold"]).correct] += 1
        mix_votes = vote(first[1:] + first[:1]) if slips or large_numbers(row["question"]) else old_votes
        mix = mix_votes[0].answer if mix_votes else None
        right["mix, ties to cot"] += grade(old_votes[0].answer if old_votes else None, row["gold"]).correct
        if len(answers) > 3:  # second round: programs before chain of thought in a tie
            order = sorted(range(len(answers)), key=lambda n: methods[n] == "cot")
            more_votes = vote([answers[n] for n in order])
            more = more_votes[0].answer if more_votes else None
            confident = bool(more_votes) and more_votes[0].count / len(answers) > 0.5
            level = "second round, confident" if confident else "second round, split"
        else:
            more = mix
            confident = cot is not None and pal is not None and vote_key(cot) == vote_key(pal)
            level = "first round: chain of thought and PAL agree" if confident else "first round, other"
        for name, answer in (("mix+more", more), ("mix", mix), ("pal", pal), ("cot", cot)):
            right[name] += grade(answer, row["gold"]).correct
        levels[(level, grade(more, row["gold"]).correct)] += 1
    total = len(rows)
    print(f"{total} items (indices {rows[0]['index']}–{rows[-1]['index']})")
    sandbox.close()
    for name in ("mix+more", "mix", "mix, ties to cot", "pal", "cot"):
        print(f"{name:<17} {right[name]:>4}/{total} = {100 * right[name] / total:.1f} %")
    print(f"chain of thought's arithmetic slipped on {sum(slipped.values())} items; right on {slipped[True]}")
    print("\nmix+more by level: right / answers")
    for level in sorted({level for level, _ in levels}):
        good, bad = levels[(level, True)], levels[(level, False)]
        print(f"  {level:<45} {good}/{good + bad}")
    recorded = sum(1 for r in rows if (r.get("confidence") or {}).get("confident"))
    seconds = sorted(r["seconds"] for r in rows)
    print(f"\nconfident as recorded: {recorded} items; median s {seconds[total // 2]:.1f}")


if __name__ == "__main__":
    main()
