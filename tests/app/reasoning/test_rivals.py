"""A vote's competing answers with the work behind each (ScriptedModel, the real sandbox)."""

from __future__ import annotations

from app.reasoning.methods import solve
from app.reasoning.rivals import Rival, rivals
from models.testing import ScriptedModel
from sandbox import Sandbox

from .test_methods import pal, pot


def test_the_leading_answers_with_the_first_program_behind_each(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("10"), pal("12"), pal("5 + 5"), pal("12"), pal("7")])
    solution = solve("q", "sc-pal", model, sandbox)
    assert rivals(solution) == [Rival("10", 2, "program 1", "print(10)"), Rival("12", 2, "program 2", "print(12)")]
    assert [r.answer for r in rivals(solution, limit=3)] == ["10", "12", "7"]


def test_a_mixed_vote_shows_chain_of_thoughts_reasoning_for_its_answer(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("11"), "Four threes are 12.\nAnswer: 12", pot("11")], parallel=8, gain=1.0)
    solution = solve("q", "mix", model, sandbox)
    assert rivals(solution) == [
        Rival("11", 2, "PAL", "print(11)"),
        Rival("12", 1, "chain of thought", "Four threes are 12.\nAnswer: 12"),
    ]


def test_no_rivals_when_every_sample_agrees(sandbox: Sandbox) -> None:
    assert rivals(solve("q", "sc3-pal", ScriptedModel([pal("3")] * 3), sandbox)) == []
    assert rivals(solve("q", "pal", ScriptedModel([pal("3")]), sandbox)) == []
