"""IIPC with ScriptedModel and the real sandbox: the error → correction path, a failed validation
→ refinement with the reflection in the next prompt, the limits, and what integration sees."""

from __future__ import annotations

from app.reasoning.iipc import solve_iipc
from app.reasoning.solution import SolveStatus
from models.testing import ScriptedModel
from sandbox import Sandbox

PROPOSITIONS = "1. Tom has 3 boxes of 12 eggs.\n2. He breaks 5.\n3. Asked: eggs left."
FAILS = "```python\neggs = 3 * 12\nprint(eggs / 0)\n```"
WORKS = "```python\neggs = 3 * 12\n# Verification\nprint(eggs - 5)\n```"
WRONG = "```python\nprint(36)\n```"
VALID = "Verdict: VALID\nReflection: none"
REASONING = "3 * 12 = 36 eggs, 36 - 5 = 31.\nAnswer: 31"


def kinds(solution: object) -> list[str]:
    return [step.kind for step in solution.timeline]  # type: ignore[attr-defined]


def test_an_error_is_corrected(sandbox: Sandbox) -> None:
    correction = "Reflection: divided by zero instead of subtracting\n" + WORKS
    model = ScriptedModel([PROPOSITIONS, FAILS, correction, VALID, REASONING, "They agree.\nAnswer: 31"])
    solution = solve_iipc("Tom has 3 boxes of 12 eggs and breaks 5. How many are left?", model, sandbox)
    assert solution.status is SolveStatus.ANSWERED and solution.answer == "31"
    assert kinds(solution) == [
        "propositions",
        "program",
        "run",
        "correction",
        "run",
        "validation",
        "reasoning",
        "integration",
    ]
    assert [step.ok for step in solution.timeline if step.kind == "run"] == [False, True]
    assert solution.programs[-1].endswith("print(eggs - 5)") and not solution.fallback_used
    assert "ZeroDivisionError" in model.calls[2]  # the correction sees the error


def test_a_failed_validation_leads_to_a_refined_program_that_remembers(sandbox: Sandbox) -> None:
    invalid = "Verdict: INVALID\nReflection: forgot to subtract the broken eggs"
    model = ScriptedModel([PROPOSITIONS, WRONG, invalid, WORKS, VALID, REASONING, "Answer: 31"])
    solution = solve_iipc("eggs?", model, sandbox)
    assert solution.answer == "31"
    assert kinds(solution) == ["propositions", "program", "run", "validation", "program", "run", "validation",
                               "reasoning", "integration"]  # fmt: skip
    refine_prompt = model.calls[3]
    assert "Mistakes made before" in refine_prompt and "forgot to subtract the broken eggs" in refine_prompt
    assert "forgot to subtract" not in model.calls[1]


def test_corrections_stop_after_two(sandbox: Sandbox) -> None:
    correction = "Reflection: still dividing by zero\n" + FAILS
    model = ScriptedModel([PROPOSITIONS, FAILS, correction, correction, REASONING, "Answer: 31"])
    solution = solve_iipc("eggs?", model, sandbox)
    assert [c.purpose for c in solution.calls] == ["propositions", "program", "correction", "correction",
                                                    "reasoning", "integration"]  # fmt: skip
    assert solution.fallback_used  # no program worked: the answer is the reasoning's
    assert "# no program ran" in model.calls[-1]
    assert model.calls[3].count("still dividing by zero") == 1  # the first reflection is remembered


def test_validations_stop_after_two(sandbox: Sandbox) -> None:
    invalid = "Verdict: INVALID\nReflection: wrong"
    model = ScriptedModel([PROPOSITIONS, WRONG, invalid, WRONG, invalid, REASONING, "Answer: 36"])
    solution = solve_iipc("eggs?", model, sandbox)
    assert [c.purpose for c in solution.calls].count("validation") == 2
    assert solution.answer == "36"


def test_integration_sees_the_output_and_the_independent_reasoning(sandbox: Sandbox) -> None:
    model = ScriptedModel([PROPOSITIONS, WORKS, VALID, REASONING, "Answer: 31"])
    solve_iipc("eggs?", model, sandbox)
    reasoning_prompt, integration_prompt = model.calls[3], model.calls[4]
    assert "print(eggs - 5)" not in reasoning_prompt and "31" not in reasoning_prompt  # uncontaminated
    assert PROPOSITIONS in reasoning_prompt
    assert "print(eggs - 5)" in integration_prompt and "\n31\n" in integration_prompt
    assert REASONING in integration_prompt


SLOW = "```python\nimport time\ntime.sleep(2)\neggs = 3 * 12\n# Verification\nprint(eggs - 5)\n```"
GREEDY = "```python\nblock = bytearray(300 * 1024 * 1024)\neggs = 3 * 12\n# Verification\nprint(eggs - 5)\n```"


def test_the_callers_limits_reach_iipc_programs(sandbox: Sandbox) -> None:
    from app.reasoning.methods import solve
    from app.reasoning.session import Limits

    question = "Tom has 3 boxes of 12 eggs and breaks 5. How many are left?"
    for program, limits in ((SLOW, Limits(time_s=1.0)), (GREEDY, Limits(memory_mb=128))):
        replies = [PROPOSITIONS, program, "Reflection: lighter\n" + WORKS, VALID, REASONING, "Answer: 31"]
        limited = solve(question, "iipc", ScriptedModel(replies), sandbox, limits=limits)
        assert "correction" in kinds(limited) and limited.answer == "31"
        unlimited = solve(
            question, "iipc", ScriptedModel([PROPOSITIONS, program, VALID, REASONING, "Answer: 31"]), sandbox
        )
        assert "correction" not in kinds(unlimited) and unlimited.answer == "31"
