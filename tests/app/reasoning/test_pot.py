"""Program of Thoughts: `ans`, the finishing step and failures (ScriptedModel, real sandbox)."""

from __future__ import annotations

import pytest

from app.reasoning import SolveStatus, solve_pot
from app.reasoning.methods import solve
from app.reasoning.pot import ANS_LINE_NOTE
from models.testing import ScriptedModel
from sandbox import Sandbox


def test_ans_not_printed_output_is_the_answer(sandbox: Sandbox) -> None:
    solution = solve_pot("q", ScriptedModel(["```python\nans = 40 + 2\nprint('noise')\n```"]), sandbox)
    assert solution.answer == "42"
    assert solution.ans is not None and solution.ans.json == 42


def test_missing_ans_is_a_clear_failure(sandbox: Sandbox) -> None:
    solution = solve_pot("q", ScriptedModel(["```python\nresult = 42\n```"]), sandbox, ans_line=False)
    assert solution.status is SolveStatus.NO_ANS
    assert solution.answer is None
    assert "did not set a variable called ans" in (solution.error or "")


def test_failing_program(sandbox: Sandbox) -> None:
    solution = solve_pot("q", ScriptedModel(["```python\nans = undefined_name\n```"]), sandbox)
    assert solution.status is SolveStatus.EXECUTION_FAILED
    assert "NameError" in (solution.error or "")
    assert solution.program == "ans = undefined_name"


def test_float_ans_without_noise(sandbox: Sandbox) -> None:
    solution = solve_pot("q", ScriptedModel(["```python\nans = 11.0\n```"]), sandbox)
    assert solution.answer == "11"
    solution = solve_pot("q", ScriptedModel(["```python\nans = 0.1 * 3\n```"]), sandbox)
    assert solution.answer == "0.3"


def test_sympy_and_fraction_ans(sandbox: Sandbox) -> None:
    code = "```python\nfrom fractions import Fraction\nans = Fraction(3, 4)\n```"
    assert solve_pot("q", ScriptedModel([code]), sandbox).answer == "3/4"


def test_finish_without_answer_line(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 2\n```", "It is probably B."])
    solution = solve_pot("q", model, sandbox, finish=True)
    assert solution.status is SolveStatus.NO_ANSWER_LINE
    assert solution.finish_reply == "It is probably B."


def test_finish_takes_the_last_answer_line(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 120\n```", "ans is 120 minutes.\nAnswer: 2 hours"])
    solution = solve_pot("How many hours is 120 minutes?", model, sandbox, finish=True)
    assert solution.answer == "2 hours"
    assert solution.method == "pot+finish"
    assert "<ans>120</ans>" in model.calls[1]


def test_without_ans_the_printed_output_is_offered_not_taken(sandbox: Sandbox) -> None:
    model = ScriptedModel(['```python\nprint("5/12")\n```', ""])  # and no line `ans =` either
    solution = solve_pot("What fraction is left?", model, sandbox)
    assert solution.status is SolveStatus.NO_ANS and solution.answer is None
    assert solution.alternative == "5/12"
    assert "did not set a variable called ans" in (solution.error or "")
    assert "It printed '5/12'" in (solution.error or "")
    assert solution.to_json()["alternative"] == "5/12"


def test_without_ans_and_without_output_nothing_is_offered(sandbox: Sandbox) -> None:
    solution = solve_pot("q", ScriptedModel(["```python\nx = 3\n```"]), sandbox, ans_line=False)
    assert solution.status is SolveStatus.NO_ANS and solution.alternative is None


def test_a_program_without_ans_gets_its_last_line_from_the_model(sandbox: Sandbox) -> None:
    model = ScriptedModel(
        ["```python\nper_box = 6\nboxes = 3\nsold = per_box * boxes\nprint(24 - sold)\n```", " 24 - sold\n"]
    )
    solution = solve_pot("A baker made 24 muffins and sold 3 boxes of 6. How many are left?", model, sandbox)
    assert solution.answer == "6" and solution.status is SolveStatus.ANSWERED
    assert solution.program is not None and solution.program.endswith("print(24 - sold)\nans = 24 - sold")
    continued = model.requests[1]
    assert continued.assistant_prefix.endswith("print(24 - sold)\nans =") and continued.stop == ("\n", "```")
    assert [call.purpose for call in solution.calls] == ["program", "ans line"]
    assert solution.notes == (ANS_LINE_NOTE,)


def test_a_program_with_ans_needs_no_second_call(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 6\n```"])
    assert solve_pot("q", model, sandbox).answer == "6" and len(model.calls) == 1


def test_pot_free_is_the_spec_exactly(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nprint(6)\n```", " 6"])
    solution = solve("q", "pot+free", model, sandbox)
    assert solution.status is SolveStatus.NO_ANS and len(model.calls) == 1


def test_a_server_without_grammars_falls_back_and_says_so(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 5\n```"], grammar=False)
    solution = solve("What is 2 + 3?", "pot+grammar", model, sandbox)
    assert model.requests[0].grammar is None and solution.answer == "5"
    assert solution.notes and "takes none" in solution.notes[0]
    assert solution.to_json()["notes"] == list(solution.notes)
    grammar_model = ScriptedModel(["```python\nans = 5\n```"])
    solve("What is 2 + 3?", "pot+grammar", grammar_model, sandbox)
    assert grammar_model.requests[0].grammar is not None


AQUA = "A cloth is cut in three. How long was it?\nAnswer Choices: (A) 6 (B) 18 (C) 24 (D) 36 (E) 48"


def test_finish_matches_ans_to_its_option_without_a_model_call(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 8 * 3\n```", "Answer: (A)"])
    solution = solve(AQUA, "pot+finish", model, sandbox)
    assert solution.answer == "(C) 24"
    assert len(model.calls) == 1
    assert any("option (C) 24" in note for note in solution.notes)
    assert not solution.fallback_used


def test_ans_that_is_no_option_goes_to_chain_of_thought_labelled(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 7\n```", "Three pieces of 12 make 36.\nAnswer: D"])
    solution = solve(AQUA, "pot+finish", model, sandbox)
    assert solution.answer == "D" and solution.fallback_used
    assert "step by step" in model.calls[1] and "<ans>" not in model.calls[1]  # chain of thought, not finishing
    assert solution.program == "ans = 7"  # the program stays as the working


def test_without_choose_the_spec_finishing_call_is_made(sandbox: Sandbox) -> None:
    for method_or_call in ("free", "direct"):
        model = ScriptedModel(["```python\nans = 8 * 3\n```", "Answer: (A)"])
        if method_or_call == "free":
            solution = solve(AQUA, "pot+finish+free", model, sandbox)
        else:
            solution = solve_pot(AQUA, model, sandbox, finish=True)
        assert solution.answer == "(A)"  # what the finishing reply said, however wrong
        assert "<ans>24</ans>" in model.calls[1]


def test_no_matching_option_is_a_clear_failure_without_the_method(sandbox: Sandbox) -> None:
    solution = solve_pot(AQUA, ScriptedModel(["```python\nans = 7\n```"]), sandbox, finish=True, choose=True)
    assert solution.status is SolveStatus.NO_MATCHING_OPTION
    assert "ans = 7 is not one of the options" in (solution.error or "")


@pytest.mark.parametrize("program", ["ans = '$24'", "ans = 24.0000001", "ans = 24"])
def test_ans_read_as_a_number_however_written(sandbox: Sandbox, program: str) -> None:
    model = ScriptedModel([f"```python\n{program}\n```"])
    assert solve_pot(AQUA, model, sandbox, finish=True, choose=True).answer == "(C) 24"


@pytest.mark.parametrize(
    "program", ["ans = [24, 36]", "ans = True", "ans = '16:5'", "ans = float('nan')", "ans = 10**400"]
)
def test_ans_that_is_not_one_number_matches_nothing(sandbox: Sandbox, program: str) -> None:
    model = ScriptedModel([f"```python\n{program}\n```"])
    solution = solve_pot(AQUA, model, sandbox, finish=True, choose=True)
    assert solution.status is SolveStatus.NO_MATCHING_OPTION
