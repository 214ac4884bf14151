"""The wire protocol: every message survives its own encoding, and whatever else arrives is refused
with a ProtocolError (the sides act only on checked, typed messages)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox import protocol
from sandbox.protocol import (
    MAX_TRACE_STEPS,
    NAME_CHARS,
    TRACE_VALUE_CHARS,
    Cancel,
    ChainStep,
    ChildRequest,
    Emulate,
    Emulated,
    EmulateRequest,
    EmulationReply,
    Exited,
    Kill,
    LayerInfo,
    Message,
    ProtocolError,
    Ready,
    Refused,
    Result,
    RunRequest,
    Spawn,
    Spawned,
    TraceStep,
    decode_as,
    encode,
    from_object,
    parse_chain,
    parse_trace,
)

EXAMPLES: list[Message] = [
    RunRequest(7, "print(1)", 5.0, 512, 65536, ("ans", "x"), trace=True, emulate=False),
    Cancel(7),
    Emulated(7, EmulationReply.of_value(3)),
    Emulated(7, EmulationReply.of_values({"x": [1, None], "y": {"a": "b"}})),
    Emulated(7, EmulationReply.failed("no")),
    Ready("strong", (LayerInfo("landlock", True, "ABI 4"),), 1234),
    Result(7, {"status": "ok"}),
    Refused(None, "malformed", fatal=False),
    EmulateRequest(7, Emulate(2, "y = f(x)", None, "f(2)", "NameError: f", {"x": "2"})),
    ChildRequest("ans = 1", 1.5, 256, ("ans",), trace=False, emulate=True),
    Emulate(3, "y = f(x)", "f(x)", "f(2)", "NameError: f", {"x": "2"}),
    Spawn(),
    Spawned(99),
    Kill(99),
    Exited(99, 0, 0.25),
]


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_every_message_survives_its_encoding(message: Message) -> None:
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1 and line.isascii()
    assert decode_as(line, type(message)) == message


RUN = {"op": "run", "id": 1, "code": "x", "time_s": 5, "memory_mb": 1, "output_bytes": 1, "capture": []}
REPLY = {"kind": "values", "value": None, "values": {"x": 1}, "error": ""}
EMULATE = {"op": "emulate", "line": 1, "statement": "", "expression": None, "concrete": "", "error": "", "state": {}}


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ([1, 2], "JSON object"),
        ({"op": "launch-missiles"}, "unexpected message"),
        ({"op": "cancel"}, "id is missing"),
        ({"op": "cancel", "id": True}, "id is not int"),  # JSON true is not the integer 1
        ({"op": "cancel", "id": "7"}, "id is not int"),
        ({"op": "kill", "pid": 1.5}, "pid is not int"),
        ({**RUN, "time_s": "5"}, "time_s"),
        ({**RUN, "capture": [1]}, "capture"),
        ({**EMULATE, "state": {"x": 1}}, "state"),
        ({"op": "ready", "isolation": "strong", "layers": [{"name": "x"}]}, "layers"),
        ({"op": "emulated", "id": 1, "reply": {"value": 3}}, "must have kind"),
        ({"op": "emulated", "id": 1, "reply": {**REPLY, "kind": "launch"}}, "wrong type"),
        ({"op": "emulated", "id": 1, "reply": {**REPLY, "values": {"1x": 1}}}, "invalid variable"),
        ({"op": "emulated", "id": 1, "reply": "values"}, "reply is not EmulationReply"),
        ({"op": "emulate-request", "id": 1, "request": {**EMULATE, "line": "2"}}, "line is not int"),
        ({"op": "emulate-request", "id": 1, "request": []}, "request is not Emulate"),
    ],
)
def test_anything_else_is_refused(data: object, why: str) -> None:
    with pytest.raises(ProtocolError, match=why):
        from_object(data)


def test_a_side_takes_only_the_kinds_it_expects() -> None:
    line = encode(Kill(1))  # a zygote command arriving where the host expects a run's reply
    with pytest.raises(ProtocolError, match="unexpected message 'kill'"):
        from_object(json.loads(line), Result, Refused, EmulateRequest)


def test_optional_fields_may_be_left_out() -> None:
    ready = from_object({"op": "ready", "isolation": "none", "layers": []})
    assert ready == Ready("none", (), None)


def test_message_names_appear_in_the_protocol_module_only() -> None:
    folder = Path(protocol.__file__).parent
    for path in folder.glob("*.py"):
        if path.name != "protocol.py":
            assert '"op"' not in path.read_text(encoding="utf-8"), path.name


def test_a_trace_arrives_as_typed_steps_cut_to_its_caps() -> None:
    good = {"line": 2, "event": "line", "function": "<module>", "vars": {"x": "1"}, "output": 4}
    data = [
        good,
        {**good, "line": 0},  # not a line of any program
        {**good, "line": 9},  # past the program's 3 lines
        {**good, "line": True},  # JSON true is not a line
        {**good, "event": "teleport"},
        {**good, "vars": ["x"]},
        {**good, "vars": {"n" * 500: "v" * 5000, "y": 7}, "output": -3},  # capped; a number is no repr
        "step",
    ]
    steps = parse_trace(data, lines=3)
    assert steps is not None and len(steps) == 2
    assert steps[0] == TraceStep(2, "line", "<module>", {"x": "1"}, 4)
    ((name, value),) = steps[1].vars.items()
    assert len(name) < NAME_CHARS + 40 and len(value) < TRACE_VALUE_CHARS + 40  # each cap says how much is cut
    assert steps[1].output == 0
    assert parse_trace(data)[1].line == 9  # type: ignore[index]  # without a program: any positive line
    assert parse_trace({"line": 1}) is None
    long = parse_trace([good] * (MAX_TRACE_STEPS + 5))
    assert long is not None and len(long) == MAX_TRACE_STEPS and long[-1].truncated and not long[0].truncated


def test_chain_of_code_steps_arrive_typed() -> None:
    data = [{"line": 1, "how": "python"}, {"line": 2, "how": "emulated", "values": {"x": "3", "y": 4}}]
    data += [{"line": 3, "how": "teleported"}, {"line": "4", "how": "python"}]
    assert parse_chain(data) == (ChainStep(1, emulated=False), ChainStep(2, emulated=True, values={"x": "3"}))
    assert [step.to_json() for step in parse_chain(data) or ()] == [*data[:1], {**data[1], "values": {"x": "3"}}]
