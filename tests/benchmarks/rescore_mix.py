"""Accuracy of mix, PAL, chain of thought and other tie rules from one `mix` (or `mix+more`)
evaluation's records, with the support levels' calibration (prints tables; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/rescore_mix.py eval-results/gsm-200 [SECOND_ROUND.jsonl ...]

A record holds every solve's answer (`sampled`), each named by its method: PAL's and chain of
thought's greedy answers, PoT's where the two disagreed (mix asks PAL, then chain of thought, then
PoT), then the second round's chains of thought where no two agreed. So one run gives every method
on the same items, and the vote is redone here with this checkout's rules (chain of thought's
answer, where it had none, read from the end of its reasoning): in a tie chain of thought first,
unless its written arithmetic slips, the question's numbers are large, it names the answers (yes or
no, alternatives), it asks for a table or a list, or the programs printed text (then the programs first),
a whole number first where the question counts things, and after a slip PoT's answer is not
counted (it is not asked where PAL answered). Where chain of thought and PAL disagree (and chain
of thought, redone, does not give PAL's answer) and the numbers are not large, the second round's
first chains of thought vote too (as many as `methods.chains_needed` asks), each counted with its
slipped arithmetic redone: from the record, or from SECOND_ROUND.jsonl files (`bench_second_round.py`:
a second round run afterwards on a run made before it existed). The other rows change only the tie
order, so they say what another tie rule would have scored on the same answers.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from app.evaluation.grader import grade
from app.reasoning.answer_kind import implausible, large_numbers, named_answers, rows_asked, whole_numbers
from app.reasoning.check_working import redo_arithmetic
from app.reasoning.choices import choices_in
from app.reasoning.cot import concluded_answer
from app.reasoning.methods import (
    _as_one,
    _options_only,
    _plausible_only,
    _programs_wrote_text,
    chains_needed,
    vote,
)
from app.reasoning.numbers import format_float, vote_key
from app.reasoning.solution import TRUSTED_AGREE
from sandbox import Sandbox

FIRST = ("pal", "cot", "pot")  # the first round's methods
TIE_ORDERS = {  # a tie rule: the methods' order the vote breaks ties by
    "mix, ties to chain of thought always": ("cot", "pal", "pot"),
    "mix, ties to PAL always": ("pal", "pot", "cot"),
    "mix, ties to PoT always": ("pot", "pal", "cot"),
}


def _counted_answers(answers: list[str | None], question: str) -> list[str | None]:
    """The answers a mixed vote counts: options where the question gives them, plausible ones."""
    return _plausible_only(_options_only(answers, bool(choices_in(question))), question)


def _voted(by_method: dict[str, str | None], order: tuple[str, ...], question: str, whole: bool = False) -> str | None:
    """The vote over the methods' answers (as `_as_one` writes them), ties broken by `order`."""
    answers = _counted_answers([by_method.get(method) for method in order], question)
    votes = vote(answers, whole=whole, rows=rows_asked(question) is not None)
    return votes[0].answer if votes else None


def _counted(sample: dict[str, Any], question: str, sandbox: Sandbox) -> str | None:
    """A chain of thought's answer as the second round counts it: redone where its arithmetic slipped."""
    same = _as_one(question)
    answer = _reread(sample, question).get("answer")
    if answer is None:
        return None
    redone = redo_arithmetic(sample.get("reasoning") or "", answer, sandbox)
    return same(format_float(redone.answer)) if redone.slips and redone.answer is not None else same(answer)


def _second_round(
    row: dict[str, Any], named: dict[str, str | None], extra: list[dict[str, Any]], sandbox: Sandbox
) -> tuple[str | None, str]:
    """The second round's vote: `named` (the first round's answers by method, chain of thought's
    counted redone, in tie order) and as many chains of thought of `extra` as the product asks; its level."""
    question, head = row["question"], list(named.values())
    whole, rows = whole_numbers(question), rows_asked(question) is not None
    first = vote(_counted_answers(head, question), whole=whole, rows=rows)
    chains = chains_needed(first[0].count if first else 0)
    answers = head + [_counted(s, question, sandbox) for s in extra[:chains]]
    votes = vote(_counted_answers(answers, question), whole=whole, rows=rows)
    if not votes or (len(votes) > 1 and votes[1].count == votes[0].count):
        return (votes[0].answer if votes else None), "second round, split"
    if implausible(votes[0].answer, question):
        return votes[0].answer, "wrong kind"
    if votes[0].count >= TRUSTED_AGREE:
        return votes[0].answer, "second round"
    key = vote_key(votes[0].answer)
    agreeing = {m for m, a in named.items() if a is not None and vote_key(a) == key}
    both = {"pal", "pot"} <= agreeing and any(a is not None and vote_key(a) == key for a in answers[len(head) :])
    return votes[0].answer, "second round, both programs" if both else "second round, split"


def _level(by_method: dict[str, str | None], answer: str | None, redone: float | None) -> str:
    """Which methods gave the winning answer, as support.py names the levels (`redone`: chain of
    thought's answer with its slipped arithmetic redone)."""
    key = vote_key(answer or "")
    agreeing = [m for m in ("cot", "pal", "pot") if key is not None and vote_key(by_method.get(m) or "") == key]
    if len(agreeing) < 2:
        return "redone" if redone is not None and key is not None and vote_key(format_float(redone)) == key else "tie"
    if len(agreeing) == 3:
        return "all"
    level = "+".join(agreeing)
    return f"{level}-pot" if level == "cot+pal" and "pot" in by_method else level


def _reread(sample: dict[str, Any], question: str) -> dict[str, Any]:
    """Chain of thought's answer as this checkout reads it: where the record has none, what its
    kept reasoning concludes with (`cot.concluded_answer`)."""
    if sample["method"] != "cot" or sample.get("answer") is not None:
        return sample
    return {**sample, "answer": concluded_answer(sample.get("reasoning") or "", question)}


def _second_rounds(paths: list[Path]) -> dict[int, list[dict[str, Any]]]:
    """The chains of thought of second rounds run afterwards (`bench_second_round.py`), by item."""
    records = [json.loads(line) for path in paths for line in path.read_text().splitlines() if line]
    return {r["index"]: [s for s in r["samples"] if s["method"] == "cot"] for r in records}


def main() -> None:
    rows = [json.loads(line) for line in (Path(sys.argv[1]) / "results.jsonl").read_text().splitlines() if line]
    rows = [r for r in rows if r.get("sampled")]
    later = _second_rounds([Path(arg) for arg in sys.argv[2:]])
    right: Counter[str] = Counter()
    solved: Counter[str] = Counter()
    levels: Counter[tuple[str, bool]] = Counter()
    slipped: Counter[bool] = Counter()  # chain of thought's answers whose arithmetic slipped: right or not
    sandbox = Sandbox()
    for row in rows:
        first = [_reread(s, row["question"]) for s in row["sampled"] if s["method"] in FIRST][:3]
        same, question = _as_one(row["question"]), row["question"]
        by_method = {s["method"]: same(s["answer"]) if s["answer"] is not None else None for s in first}
        reasoned = by_method.get("cot")
        if reasoned is not None and vote_key(reasoned) == vote_key(by_method.get("pal") or ""):
            by_method.pop("pot", None)  # re-read, chain of thought agrees with PAL: PoT would not be asked
        cot: dict[str, str] = next((s for s in first if s["method"] == "cot"), {})
        redone = redo_arithmetic(cot.get("reasoning", ""), cot.get("answer"), sandbox) if by_method.get("cot") else None
        slips, again = (redone.slips, redone.answer) if redone else ((), None)
        if slips:
            slipped[grade(by_method["cot"], row["gold"]).correct] += 1
        programs_first = bool(slips) or large_numbers(question) or bool(named_answers(question))
        programs_first = programs_first or rows_asked(question) is not None
        programs_first = programs_first or _programs_wrote_text([by_method.get(m) for m in FIRST], FIRST)
        asked = dict(by_method)
        if slips and by_method.get("pal") is not None:  # PoT is not asked after a slip (methods._Slips)
            asked.pop("pot", None)
        order = ("pal", "pot", "cot") if programs_first else ("cot", "pal", "pot")
        mix = _voted(asked, order, question, whole_numbers(question))
        level = "wrong kind" if mix is not None and implausible(mix, question) else _level(asked, mix, again)
        chain_listed = vote_key(asked.get("cot") or "").startswith("numbers ")  # then the second round hears it out
        listed = level == "pal+pot" and rows_asked(question) is not None and not chain_listed
        listed = listed and vote_key(mix or "").startswith("numbers ")
        level = "pal+pot, rows" if listed else level  # both programs print the rows asked for: they decide
        extra = row["sampled"][len(first) :] or later.get(row["index"], [])
        disputed = level in ("tie", "pal+pot", "cot+pot", "wrong kind") and not large_numbers(question)
        if disputed and extra:  # chain of thought and PAL disagree: the second round decides
            head = {**asked, "cot": _counted(cot, question, sandbox) if asked.get("cot") else None}
            mix, level = _second_round(row, {m: head[m] for m in order if m in head}, extra, sandbox)
        elif disputed:
            level = f"{level}, no second round in the records"
        good = grade(mix, row["gold"]).correct
        right["mix"] += good
        levels[(level + (", chain of thought slipped" if slips else ""), good)] += 1
        for name, order in TIE_ORDERS.items():
            right[name] += grade(_voted(by_method, order, question), row["gold"]).correct
        for method in FIRST:
            if method in by_method:
                solved[method] += 1
                right[method] += grade(by_method[method], row["gold"]).correct
        right["recorded"] += bool(row["correct"])
    total = len(rows)
    sandbox.close()
    print(f"{total} items (indices {rows[0]['index']}–{rows[-1]['index']})")
    for name in ("recorded", "mix", *TIE_ORDERS, *FIRST):
        of = solved[name] if name in FIRST else total
        print(f"{name:<40} {right[name]:>4}/{of} = {100 * right[name] / max(of, 1):.1f} %")
    print(f"chain of thought's arithmetic slipped on {sum(slipped.values())} items; right on {slipped[True]}")
    print("\nmix by level (support.py's names): right / answers")
    for level in sorted({level for level, _ in levels}):
        hits, misses = levels[(level, True)], levels[(level, False)]
        print(f"  {level:<40} {hits}/{hits + misses}")
    confident = [r for r in rows if (r.get("confidence") or {}).get("confident")]
    seconds = sorted(r["seconds"] for r in rows)
    print(
        f"\nconfident as recorded: {sum(bool(r['correct']) for r in confident)}/{len(confident)} right, covering "
        f"{100 * len(confident) / total:.0f} %; median s {seconds[total // 2]:.1f}"
    )


if __name__ == "__main__":
    main()
