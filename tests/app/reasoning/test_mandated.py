"""The spec's mandated tests, exactly as written: a stub model and the real sandbox."""

from __future__ import annotations

from app.reasoning import solve_pal, solve_pot
from models.testing import ScriptedModel
from sandbox import Sandbox


def test_pal_prints_5_plus_2_times_3(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nprint(5 + 2 * 3)\n```"])
    solution = solve_pal("What is 5 + 2 * 3?", model, sandbox)
    assert len(model.calls) == 1
    assert solution.answer == "11"


def test_pot_without_finishing(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 5 + 2 * 3\n```"])
    solution = solve_pot("What is 5 + 2 * 3?", model, sandbox, finish=False)
    assert len(model.calls) == 1
    assert solution.answer == "11"


def test_pot_with_finishing(sandbox: Sandbox) -> None:
    model = ScriptedModel(["```python\nans = 123 / 60\n```", "Answer: (B)"])
    # The options do not contain 2.05: only the value of `ans` can put it into the finishing prompt.
    question = "123 minutes in hours? (A) 2.5 h (B) 2 h 3 min (C) 2.3 h"
    solution = solve_pot(question, model, sandbox, finish=True)
    assert len(model.calls) == 2
    assert "2.05" not in model.calls[0] and "2.05" in model.calls[1]
    assert solution.answer == "(B)"
