"""A vote's competing answers, each with the work behind it, for a student to compare.

When support is weak (a tie, or a winner few samples back) an answer should not be trusted
without looking at why the others differ. For each of the leading answers this finds the first
sample that gave it: its program, or chain of thought's reasoning when that gave it (a mixed vote).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reasoning.numbers import vote_key
from app.reasoning.solution import Solution, method_words


@dataclass(frozen=True)
class Rival:
    answer: str
    count: int  # how many samples gave it
    by: str  # the sample shown: "PAL", "chain of thought", "program 3"
    work: str  # its program, or the reasoning in words


def rivals(solution: Solution, limit: int = 2) -> list[Rival]:
    """The `limit` leading answers of a vote with at least two answers, the winner first."""
    if len(solution.votes) < 2:
        return []
    reasoning = next((call.reply for call in solution.calls if call.purpose == "reasoning"), "")
    found = []
    for voted in solution.votes[:limit]:
        key = vote_key(voted.answer)
        for index, sample in enumerate(solution.sampled):
            if sample.answer is None or vote_key(sample.answer) != key:
                continue
            by = method_words(sample.method) if sample.method else f"program {index + 1}"
            work = sample.program or sample.reasoning or (reasoning if sample.method == "cot" else "")
            found.append(Rival(voted.answer, voted.count, by, work))
            break
    return found
