"""PAL's stop rules, repair and failure statuses (ScriptedModel, real sandbox)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.data import open_data
from app.reasoning import ProgramExtracted, SolveStatus, TokenStreamed, solve_pal
from app.reasoning.pal import propose_repair
from app.reasoning.prompts import fill
from app.reasoning.solve_log import log_solution
from models.testing import ScriptedModel
from sandbox import Sandbox

FAILING = "```python\nprice = 4\nprint(price / 0)\n```"
FIXED = "```python\nprice = 4\nprint(price * 2)\n```"


def test_the_prompt_is_the_spec_prompt_with_the_question(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nprint(1)\n```"])
    solve_pal("How many legs has a {cat}?", model, sandbox)
    assert model.calls == ["[user]\n" + fill("pal", question="How many legs has a {cat}?")]
    assert model.calls[0].startswith("[user]\nSolve the problem by writing a Python program.")
    assert model.calls[0].endswith("Question: How many legs has a {cat}?")


def test_failure_without_repair_keeps_program_and_error(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILING])
    solution = solve_pal("q", model, sandbox)
    assert solution.status is SolveStatus.EXECUTION_FAILED
    assert solution.answer is None
    assert solution.program == "price = 4\nprint(price / 0)"
    assert "ZeroDivisionError" in (solution.error or "")
    assert solution.error_line == 2
    assert len(model.calls) == 1 and not solution.repair_used


def test_repair_fixes_the_program(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILING, FIXED])
    solution = solve_pal("What is twice the price?", model, sandbox, repair=True)
    assert solution.status is SolveStatus.ANSWERED
    assert solution.answer == "8"
    assert solution.repair_used and len(model.calls) == 2
    assert "<program>price = 4\nprint(price / 0)</program>" in model.calls[1]
    assert "ZeroDivisionError" in model.calls[1]
    assert solution.programs == ("price = 4\nprint(price / 0)", "price = 4\nprint(price * 2)")


def test_repair_failing_twice_is_execution_failed(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILING, FAILING])
    solution = solve_pal("q", model, sandbox, repair=True)
    assert solution.status is SolveStatus.EXECUTION_FAILED
    assert solution.answer is None and solution.repair_used and len(model.calls) == 2


def test_empty_output_is_a_failure(sandbox: Sandbox) -> None:
    solution = solve_pal("q", ScriptedModel(["```python\nx = 11\n```"]), sandbox)
    assert solution.status is SolveStatus.EMPTY_OUTPUT
    assert solution.answer is None
    assert "printed nothing" in (solution.error or "")


def test_empty_output_is_repaired_like_an_error(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nx = 11\n```", "```python\nx = 11\nprint(x)\n```"])
    solution = solve_pal("q", model, sandbox, repair=True)
    assert solution.answer == "11"
    assert "printed nothing" in model.calls[1]


def test_no_program(sandbox: Sandbox) -> None:
    solution = solve_pal("q", ScriptedModel(["The answer is 11."]), sandbox)
    assert solution.status is SolveStatus.NO_PROGRAM
    assert solution.answer is None and solution.program is None


@pytest.mark.parametrize("question", ["", "   \n", "x" * 20_001])
def test_bad_question_makes_no_model_call(sandbox: Sandbox, question: str) -> None:
    model = ScriptedModel([])
    solution = solve_pal(question, model, sandbox)
    assert solution.status is SolveStatus.INVALID_QUESTION
    assert model.calls == []
    assert solution.error


def test_timeout_status(sandbox: Sandbox) -> None:
    solution = solve_pal("q", ScriptedModel(["```python\nwhile True:\n    pass\n```"]), sandbox, time_s=0.5)
    assert solution.status is SolveStatus.TIMEOUT


def test_float_noise_is_removed_but_kept_in_the_working(sandbox: Sandbox) -> None:
    solution = solve_pal("q", ScriptedModel(["```python\nprint(0.1 + 0.2)\n```"]), sandbox)
    assert solution.answer == "0.3"
    assert solution.output == "0.30000000000000004\n"


def test_events_stream_tokens_and_program(sandbox: Sandbox) -> None:
    events: list[object] = []
    solve_pal("q", ScriptedModel([FIXED], chunk_size=4), sandbox, on_event=events.append)
    assert sum(isinstance(e, TokenStreamed) for e in events) > 3
    assert [e.program for e in events if isinstance(e, ProgramExtracted)] == ["price = 4\nprint(price * 2)"]


def test_generation_stops_after_the_program(sandbox: Sandbox) -> None:
    chatty = FIXED + "\n\nThis program doubles the price. " + "Blah " * 200
    model = ScriptedModel([chatty], chunk_size=5)
    solution = solve_pal("q", model, sandbox)
    assert solution.answer == "8"
    assert "Blah" not in solution.calls[0].reply  # the model was stopped once the block closed


def test_a_logged_solve_holds_its_working(sandbox: Sandbox, tmp_path: Path) -> None:
    log = tmp_path / "logs" / "solves.jsonl"
    log_solution(solve_pal("What is logged?", ScriptedModel([FIXED]), sandbox), log)
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["question"] == "What is logged?"
    assert last["program"] == "price = 4\nprint(price * 2)"
    assert last["output"] == "8\n"
    assert last["repair_used"] is False
    assert last["calls"] == 1


def test_a_repair_over_a_data_file_shows_the_model_its_shape(sandbox: Sandbox, tmp_path: Path) -> None:
    """Told "no column 'Ben'" without the data's shape, the model guessed
    `tables["attendance"].get("Ben", {})` (seen in the window)."""
    path = tmp_path / "attendance.csv"
    path.write_text("Name,Week 1,Week 2\nAna,x,x\nBen,x,\n", encoding="utf-8")
    model = ScriptedModel([FIXED, FIXED])
    error = "KeyError: \"no column 'Ben'\""
    assert propose_repair("Did Ben attend every week?", "print(1)", error, model, sandbox, data=open_data(path)) == (
        "price = 4\nprint(price * 2)"
    )
    assert 'tables["attendance"]: 2 rows' in model.calls[0] and "no column 'Ben'" in model.calls[0]
    propose_repair("q", "print(1)", error, model, sandbox)
    assert "tables" not in model.calls[1]
