"""The wire protocol: every message survives its own encoding, and whatever else arrives is refused
with a ProtocolError (the sides act only on checked, typed messages)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from sandbox import protocol
from sandbox.protocol import (
    CHAIN_VALUE_CHARS,
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
    Fetch,
    Kill,
    LayerInfo,
    Message,
    Preparing,
    ProtocolError,
    Ready,
    Refused,
    Result,
    RunRequest,
    Spawn,
    Spawned,
    TraceStep,
    decode_as,
    emulation_request,
    encode,
    expect,
    from_object,
    is_message,
    opens_as,
    parse_chain,
    parse_trace,
    report_frame,
    report_of,
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


def _refusal(data: object, *expected: type[Message]) -> str:
    with pytest.raises(ProtocolError) as refused:
        from_object(data, *expected)
    return str(refused.value)


def test_refusals_say_exactly_what_was_wrong() -> None:
    assert _refusal([1]) == "a message must be a JSON object"
    assert _refusal({"op": ["run"]}) == "unexpected message \"['run']\""  # not hashable: refused, not a crash
    assert _refusal({"op": "x" * 60}) == f"unexpected message {'x' * 40!r}"
    with pytest.raises(ProtocolError) as refused:
        expect({"op": "cancel", "id": 1}, RunRequest)
    assert str(refused.value) == "unexpected message 'cancel'"
    # A field with a default may be left out; one given is still checked, whatever comes before it.
    assert "emulate is not bool" in _refusal({k: v for k, v in RUN.items() if k != "trace"} | {"emulate": "yes"})
    assert "layers" in _refusal({"op": "ready", "isolation": "x", "layers": [{"name": "x", "active": 1, "detail": ""}]})


def test_lines_are_ascii_and_never_nan() -> None:
    line = encode(Refused(1, "naïve ☃"))
    assert line.isascii() and decode_as(line, Refused).error == "naïve ☃"
    with pytest.raises(ValueError):
        encode(Preparing("compiling", float("nan")))
    reply = EmulationReply.of_value("é")
    assert reply.line() == b'{"kind": "value", "value": "\\u00e9", "values": {}, "error": ""}\n'
    with pytest.raises(ValueError):
        EmulationReply.of_value(float("inf")).line()


def test_an_emulation_reply_is_checked_field_by_field() -> None:
    def why(data: object) -> str:
        with pytest.raises(ProtocolError) as refused:
            EmulationReply.from_wire(data)
        return str(refused.value)

    assert why({"value": 1}) == "an emulation reply must have kind, value, values and error"
    assert why({**REPLY, "values": []}) == "an emulation reply's kind, values or error has the wrong type"
    assert why({**REPLY, "error": 5}) == "an emulation reply's kind, values or error has the wrong type"
    assert why({**REPLY, "values": {"no name": 1}}) == "an emulation reply names an invalid variable"
    assert EmulationReply.from_wire({**REPLY, "kind": "error", "error": "e" * 600}).error == "e" * 500
    assert EmulationReply.failed("f" * 600) == EmulationReply("error", error="f" * 500)


def test_the_lines_a_worker_tells_apart() -> None:
    request = Emulate(2, "y = f(x)", None, "f(2)", "NameError: f", {"x": "2"})
    line = encode(request).rstrip(b"\n")
    assert emulation_request(line) == request
    assert emulation_request(encode(Cancel(1)).rstrip(b"\n")) is None  # another message
    assert emulation_request(b'{"status": "ok"}') is None  # a report, not a message
    assert emulation_request(b'{"op": "emulate", "line": "2"}') is None  # malformed
    assert emulation_request(b"not json") is None
    assert opens_as(line, Emulate) and not opens_as(line, Cancel) and not opens_as(b' {"op": "emulate",', Emulate)
    assert is_message({"op": "x"}) and not is_message({"status": "ok"}) and not is_message(["op"])
    frame = report_frame(b'{"status": "ok"}')
    assert frame == b'{"op": "report", "report": {"status": "ok"}}' and report_of(frame) == b'{"status": "ok"}'
    assert report_of(encode(Fetch()).rstrip(b"\n")) is None
    assert report_of(b'{"op": "report", "report": {"status": "ok"') is None  # cut off


def test_a_trace_keeps_its_text_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "TRACE_BYTES", 10)  # 20 characters of names and values in all
    step = {"line": 1, "event": "line", "function": "<module>", "vars": {"a": "123456789"}, "output": 1}
    kept = parse_trace([step, {**step, "line": 2}, {**step, "line": 3}, {**step, "line": 4}])
    assert kept is not None and [s.line for s in kept] == [1, 2]  # 10 + 10 fit, the third does not
    assert kept[0].output == 1


def test_the_last_step_of_a_cut_trace_is_marked_and_otherwise_kept() -> None:
    made = [TraceStep(n % 7 + 1, "line", f"f{n}", {"n": str(n)}, n) for n in range(MAX_TRACE_STEPS + 1)]
    steps = [step.to_json() for step in made]
    kept = parse_trace(steps)
    assert kept is not None and len(kept) == MAX_TRACE_STEPS
    assert kept[-1] == replace(made[MAX_TRACE_STEPS - 1], truncated=True) and kept[0] == made[0]
    assert not any(step.truncated for step in kept[:-1])
    assert not parse_trace(steps[:MAX_TRACE_STEPS])[-1].truncated  # type: ignore[index]  # nothing was cut


def test_steps_on_the_programs_last_line_count_and_names_are_capped() -> None:
    step = {"line": 3, "event": "call", "function": "f" * 500, "vars": {}, "output": 0}
    (kept,) = parse_trace([step], lines=3) or ()
    assert kept.line == 3 and len(kept.function) < NAME_CHARS + 40
    chain = [{"line": 9, "how": "python"}, {"line": 1, "how": "x"}, {"line": 3, "how": "emulated", "values": {}}]
    chain += [{"line": 2, "how": "emulated", "values": {"n" * 500: "v" * 5000}}]
    kept_chain = parse_chain(chain, lines=3)
    assert kept_chain is not None and [s.line for s in kept_chain] == [3, 2]  # bad steps skipped, not the rest
    ((name, value),) = kept_chain[1].values.items()
    assert len(name) < NAME_CHARS + 40 and len(value) < CHAIN_VALUE_CHARS + 40
