"""Strict parsing of results that crossed the process boundary."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox import CapturedValue, Isolation, ProtocolError, RunResult, Status
from sandbox.result import MAX_LINE_BYTES, loads_line

GOOD: dict[str, Any] = {
    "status": "ok",
    "stdout": "11\n",
    "stderr": "",
    "error": None,
    "error_line": None,
    "values": {"ans": {"repr": "11", "json": 11, "type": "int", "latex": None}},
    "duration_s": 0.01,
    "isolation": "strong",
    "trace": None,
}


def test_round_trip() -> None:
    result = RunResult.from_json(GOOD)
    assert result.status is Status.OK
    assert result.isolation is Isolation.STRONG
    assert result.values == {"ans": CapturedValue("11", 11, "int", None)}
    assert RunResult.from_json(result.to_json()) == result


@pytest.mark.parametrize(
    "change",
    [
        {"status": "pwned"},
        {"stdout": 5},
        {"error_line": "3"},
        {"error_line": True},
        {"duration_s": "fast"},
        {"isolation": "total"},
        {"values": []},
        {"values": {"ans": {"repr": 1, "type": "int"}}},
        {"values": {f"v{i}": {"repr": "", "type": ""} for i in range(300)}},
        {"trace": "lines"},
    ],
)
def test_wrong_shapes_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError):
        RunResult.from_json({**GOOD, **change})


def test_not_an_object() -> None:
    with pytest.raises(ProtocolError):
        RunResult.from_json(["ok"])


def test_loads_line_caps_and_survives_hostile_json() -> None:
    with pytest.raises(ProtocolError):
        loads_line(b"[" * 200_000 + b"]" * 200_000)
    with pytest.raises(ProtocolError):
        loads_line(b" " * (MAX_LINE_BYTES + 1))
    with pytest.raises(ProtocolError):
        loads_line(b"{'python': 'literal'}")


def test_lone_surrogates_are_replaced_whichever_way_they_arrive() -> None:
    from sandbox.result import loads_line

    assert loads_line(b'{"a": "\\ud800x", "\\udfff": 1}') == {"a": "\ufffdx", "\ufffd": 1}  # escapes
    assert loads_line(b'["\xed\xa0\x80"]') == ["\ufffd"]  # raw bytes json decodes with surrogatepass
    assert loads_line(b'["\\ud83d\\ude00"]') == ["\U0001f600"]  # a pair is a character, kept
