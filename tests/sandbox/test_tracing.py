"""Line-by-line traces recorded in the real sandbox child."""

from __future__ import annotations

from typing import Any

from sandbox import Sandbox, Status, TraceStep
from sandbox.tracing import MAX_STEPS


def steps(box: Sandbox, code: str, **options: Any) -> tuple[TraceStep, ...]:
    result = box.run(code, trace=True, **options)
    assert result.trace is not None
    return result.trace


def test_a_loop_shows_each_iteration(box: Sandbox) -> None:
    code = "total = 0\nfor i in range(3):\n    total += i\n    print(total)\nans = total\n"
    trace = steps(box, code)
    assert [s.line for s in trace if s.event == "line"] == [1, 2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 5]
    # before line 3 runs in each iteration, i has its new value and total the previous sum
    assert [(s.vars["i"], s.vars["total"]) for s in trace if s.line == 3] == [
        ("0", "0"),
        ("1", "0"),
        ("2", "1"),
    ]
    assert trace[-1].event == "return" and trace[-1].vars["ans"] == "3"
    assert [s.output for s in trace if s.line == 2] == [0, 2, 4, 6]  # characters printed so far


def test_function_calls_are_traced(box: Sandbox) -> None:
    trace = steps(box, "def double(x):\n    return x * 2\nans = double(21)\n")
    call = next(s for s in trace if s.event == "call")
    assert call.function == "double" and call.vars == {"x": "21"}
    assert any(s.event == "return" and s.function == "double" for s in trace)


def test_library_code_is_not_traced(box: Sandbox) -> None:
    trace = steps(box, "import sympy\nans = sympy.factorint(360)\n")
    assert {s.function for s in trace} == {"<module>"}
    assert trace[-1].vars["ans"] == "{2: 3, 3: 2, 5: 1}"


def test_step_cap_truncates_and_the_program_still_finishes(box: Sandbox) -> None:
    result = box.run("for i in range(5000):\n    x = i\nans = x\n", trace=True)
    assert result.status is Status.OK
    assert result.values["ans"].json == 4999
    assert result.trace is not None and len(result.trace) == MAX_STEPS
    assert result.trace[-1].truncated is True


def test_a_program_that_raises_ends_at_the_exception(box: Sandbox) -> None:
    result = box.run("a = 1\nb = a / 0\nc = 3\n", trace=True)
    assert result.status is Status.ERROR
    assert result.trace is not None
    exception = [s for s in result.trace if s.event == "exception"]
    assert exception and exception[0].line == 2
    assert all(s.line != 3 for s in result.trace)


def test_no_trace_unless_asked(box: Sandbox) -> None:
    assert box.run("x = 1").trace is None
