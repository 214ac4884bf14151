"""Statement-by-statement runs with emulation (Chain of Code's interpreter) in the real sandbox:
loops and conditionals walk line by line, emulated values go back into the state, the time limit
stops while the host thinks, and bad replies fail cleanly."""

from __future__ import annotations

import time

from sandbox import Sandbox, Status
from sandbox.protocol import Emulate, EmulationReply

FRUITS = """\
fruits = ["apple", "tomato", "carrot", "banana"]
count = 0
for f in fruits:
    if is_fruit(f):
        count += 1
    else:
        continue
kind = describe(count)
answer = count
"""


def test_calls_that_cannot_run_are_emulated_each_time(sandbox: Sandbox) -> None:
    requests: list[Emulate] = []

    def emulate(request: Emulate) -> EmulationReply:
        requests.append(request)
        if request.expression:
            return EmulationReply.of_value(request.concrete != "is_fruit('carrot')")
        return EmulationReply.of_values({"kind": f"{request.state['count']} fruits"})

    result = sandbox.run(FRUITS, capture=("answer", "kind"), emulate=emulate)
    assert result.ok, result.error
    assert result.values["answer"].json == 3
    assert result.values["kind"].json == "3 fruits"
    assert [r.concrete for r in requests[:4]] == [f"is_fruit({f!r})" for f in ["apple", "tomato", "carrot", "banana"]]
    assert requests[0].statement == "if is_fruit(f):" and requests[0].line == 4
    assert requests[0].state == {"fruits": "['apple', 'tomato', 'carrot', 'banana']", "count": "0", "f": "'apple'"}
    assert "NameError" in requests[0].error
    assert requests[4].expression is None and requests[4].statement == "kind = describe(count)"
    steps = result.steps or ()
    emulated = [s for s in steps if s.emulated]
    assert [s.line for s in emulated] == [4, 4, 4, 4, 8]
    assert emulated[2].values == {"value": "False"}
    assert {s.line for s in steps if not s.emulated} == {1, 2, 3, 5, 9}


def test_while_break_and_plain_programs(sandbox: Sandbox) -> None:
    code = "n = 0\nwhile True:\n    n += 1\n    if n == 3:\n        break\nanswer = n * 10\n"
    result = sandbox.run(code, capture=("answer",), emulate=lambda _r: EmulationReply.failed("not needed"))
    assert result.ok and result.values["answer"].json == 30
    assert result.steps and not any(step.emulated for step in result.steps)


def test_the_time_limit_stops_while_the_host_thinks(sandbox: Sandbox) -> None:
    def slow(_request: Emulate) -> EmulationReply:
        time.sleep(1.5)
        return EmulationReply.of_values({"x": 2})

    result = sandbox.run("x = unknown()\nanswer = x + 1", time_s=1.0, capture=("answer",), emulate=slow)
    assert result.ok, result.error
    assert result.values["answer"].json == 3


def test_bad_replies_fail_the_program_cleanly(sandbox: Sandbox) -> None:
    code = "x = unknown()\nanswer = x"
    for reply, message in (
        (EmulationReply.failed("the reply was not JSON"), "the reply was not JSON"),
        (EmulationReply.of_values({"not a name": 1}), "invalid variable"),
        (EmulationReply.of_values({"x": "y" * 70_000}), "longer than 64,000"),
        (EmulationReply.of_value(1), "no values"),
        (EmulationReply.of_values({"x": float("nan")}), "ValueError"),
    ):
        result = sandbox.run(code, capture=("answer",), emulate=lambda _r, reply=reply: reply)  # type: ignore[misc]
        assert result.status is Status.ERROR and message in (result.error or ""), result.error
        assert result.error_line == 1


def test_a_failing_callback_is_an_error_not_a_crash(sandbox: Sandbox) -> None:
    def broken(_request: Emulate) -> EmulationReply:
        raise RuntimeError("model went away")

    result = sandbox.run("x = unknown()", emulate=broken)
    assert result.status is Status.ERROR and "model went away" in (result.error or "")
    assert sandbox.run("print(1)").stdout == "1\n"  # the worker is fine afterwards


def test_without_emulation_nothing_is_asked(sandbox: Sandbox) -> None:
    result = sandbox.run("x = unknown()")
    assert result.status is Status.ERROR and "NameError" in (result.error or "")
    assert result.steps is None
