"""How an answer was checked, as the window and the Markdown export both say it (real sandbox)."""

from __future__ import annotations

from app.reasoning.how_checked import how_checked, tally_line
from app.reasoning.methods import solve
from models.testing import ScriptedModel
from sandbox import Sandbox

TWELVE = "```python\nprint(3 * 4)\n```"
FAILS = "```python\nprint(1 / 0)\n```"


def test_a_vote_says_its_tally_what_failed_and_how_it_was_checked(sandbox: Sandbox) -> None:
    solution = solve("Three pens at $4: how much?", "sc3-pal", ScriptedModel([TWELVE, FAILS, TWELVE]), sandbox)
    assert tally_line(solution) == "Vote of 3 programs: 12 ×2; 1 failed"
    lines = how_checked(solution)
    assert lines[0] == tally_line(solution) and lines[1].startswith("Checked: ")


def test_one_program_has_no_tally_and_an_answer_in_words_says_why(sandbox: Sandbox) -> None:
    single = solve("Three pens at $4: how much?", "pal", ScriptedModel([TWELVE]), sandbox)
    assert tally_line(single) is None and how_checked(single) == [f"Checked: {single.confidence.words}"]
    model = ScriptedModel([FAILS, "Half of 10 is 5.\nAnswer: 5"])
    fallen = solve("What is half of 10?", "pal+fallback", model, sandbox)
    lines = how_checked(fallen)
    assert "No program gave this answer: it is chain of thought's, not a program's" in lines
    assert any(line.startswith("Why: ") and "ZeroDivisionError" in line for line in lines), lines
