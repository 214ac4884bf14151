"""The wire protocol: every message survives its own encoding, and whatever else arrives is refused
with a ProtocolError (the sides act only on checked, typed messages)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sandbox import protocol
from sandbox.protocol import (
    Cancel,
    ChildRequest,
    Emulate,
    Emulated,
    EmulateRequest,
    Exited,
    Kill,
    LayerInfo,
    Message,
    Ready,
    Refused,
    Result,
    RunRequest,
    Spawn,
    Spawned,
    decode_as,
    encode,
    from_object,
)
from sandbox.result import ProtocolError

EXAMPLES: list[Message] = [
    RunRequest(7, "print(1)", 5.0, 512, 65536, ("ans", "x"), trace=True, emulate=False),
    Cancel(7),
    Emulated(7, {"value": 3}),
    Ready("strong", (LayerInfo("landlock", True, "ABI 4"),), 1234),
    Result(7, {"status": "ok"}),
    Refused(None, "malformed", fatal=False),
    EmulateRequest(7, {"line": 2}),
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
