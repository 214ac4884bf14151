"""Chain of Code with ScriptedModel and the real sandbox: emulated values applied inside a loop,
unusable emulation replies, the step limit, and the fallback to answering directly."""

from __future__ import annotations

import pytest

from app.reasoning import coc
from app.reasoning.coc import parse_emulation, solve_coc
from app.reasoning.solution import SolveStatus
from models.testing import ScriptedModel
from sandbox import Sandbox
from sandbox.protocol import EmulationReply

PROGRAM = """```python
items = {"lemon": 1, "cabbage": 1, "plum": 2}
answer = 0
for name, count in items.items():
    if is_fruit(name):
        answer += count
```"""


def test_a_call_inside_a_loop_is_emulated_each_iteration(sandbox: Sandbox) -> None:
    model = ScriptedModel([PROGRAM, '{"value": true}', '{"value": false}', '{"value": true}'])
    solution = solve_coc("How many fruits?", model, sandbox)
    assert solution.status is SolveStatus.ANSWERED and solution.answer == "3"
    assert not solution.fallback_used
    emulated = [step for step in solution.code_steps if step.emulated]
    assert [(s.line, s.values) for s in emulated] == [
        (4, {"value": "True"}),
        (4, {"value": "False"}),
        (4, {"value": "True"}),
    ]
    assert {s.line for s in solution.code_steps if not s.emulated} == {1, 2, 3, 5}
    assert [c.purpose for c in solution.calls] == ["program", "emulate", "emulate", "emulate"]
    first, second = model.requests[1], model.requests[2]
    assert "is_fruit('lemon')" in first.messages[-1].content and "is_fruit('cabbage')" in second.messages[-1].content
    assert "answer = 0" in first.messages[-1].content  # the variables go with the question
    assert first.grammar is not None and "object" in first.grammar


def test_a_statement_gets_its_new_values(sandbox: Sandbox) -> None:
    program = "```python\nweights = {}\nweights['cat'] = weight_of('cat')\nanswer = weights['cat'] * 2\n```"
    model = ScriptedModel([program, '{"weights": {"cat": 4}}'])
    solution = solve_coc("q", model, sandbox)
    assert solution.answer == "8"
    assert "weights['cat'] = weight_of('cat')" in model.calls[1]


@pytest.mark.parametrize(
    ("reply", "message"),
    [("cat weighs 4 kg", "not a JSON object"), ('{"value": "' + "x" * 70_000 + '"}', "longer than 64,000")],
)
def test_unusable_emulation_replies_fail_cleanly_and_the_model_answers(
    sandbox: Sandbox, reply: str, message: str
) -> None:
    model = ScriptedModel([PROGRAM, reply, "Lemons and plums are fruits: 1 + 2 = 3.\nAnswer: 3"])
    solution = solve_coc("How many fruits?", model, sandbox)
    assert solution.fallback_used and solution.answer == "3"
    assert message in (solution.error or "") and solution.error_line == 4
    assert [c.purpose for c in solution.calls] == ["program", "emulate", "reasoning"]


def test_the_step_limit_holds(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(coc, "MAX_EMULATIONS", 3)
    program = "```python\nanswer = 0\nwhile keep_going(answer):\n    answer += 1\n```"
    model = ScriptedModel([program] + ['{"value": true}'] * 3 + ["Answer: 0"])
    solution = solve_coc("q", model, sandbox)
    assert [c.purpose for c in solution.calls].count("emulate") == 3
    assert "step limit" in (solution.error or "")
    assert solution.fallback_used


def test_parse_emulation() -> None:
    assert parse_emulation(' {"value": [1, 2]} ', want_value=True) == EmulationReply.of_value([1, 2])
    assert parse_emulation('Sure: {"x": 1}', want_value=False) == EmulationReply.of_values({"x": 1})
    with pytest.raises(ValueError, match="no value"):
        parse_emulation('{"x": 1}', want_value=True)
    with pytest.raises(ValueError, match="invalid variables"):
        parse_emulation('{"1x": 1}', want_value=False)
