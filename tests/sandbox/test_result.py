"""Strict parsing of results that crossed the process boundary."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from sandbox import CapturedValue, Isolation, ProtocolError, RunResult, Status
from sandbox.protocol import MAX_LINE_BYTES, ChainStep, TraceStep, loads_line
from sandbox.result import JSON_CHARS, TYPE_CHARS, parse_values
from sandbox.values import REPR_CHARS

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
    from sandbox.protocol import loads_line

    assert loads_line(b'{"a": "\\ud800x", "\\udfff": 1}') == {"a": "\ufffdx", "\ufffd": 1}  # escapes
    assert loads_line(b'["\xed\xa0\x80"]') == ["\ufffd"]  # raw bytes json decodes with surrogatepass
    assert loads_line(b'["\\ud83d\\ude00"]') == ["\U0001f600"]  # a pair is a character, kept


FULL = RunResult(
    status=Status.TIMEOUT,
    stdout="out",
    stderr="err",
    error="boom",
    error_line=3,
    values={"x": CapturedValue("x/2", "x/2", "Mul", "\\frac{x}{2}")},
    duration_s=1.2345674,
    isolation=Isolation.PARTIAL,
    trace=(TraceStep(1, "line", "<module>", {"x": "2"}, 3), TraceStep(2, "return", "<module>", {}, 3, truncated=True)),
    steps=(ChainStep(1, emulated=False), ChainStep(2, emulated=True, values={"x": "'tomato'"})),
    backend="wasm",
)


def test_every_field_crosses_the_wire() -> None:
    wire = FULL.to_json()
    assert wire == {
        "status": "timeout",
        "stdout": "out",
        "stderr": "err",
        "error": "boom",
        "error_line": 3,
        "values": {"x": {"repr": "x/2", "json": "x/2", "type": "Mul", "latex": "\\frac{x}{2}"}},
        "duration_s": 1.234567,
        "isolation": "partial",
        "trace": [
            {"line": 1, "event": "line", "function": "<module>", "vars": {"x": "2"}, "output": 3},
            {"line": 2, "event": "return", "function": "<module>", "vars": {}, "output": 3, "truncated": True},
        ],
        "steps": [{"line": 1, "how": "python"}, {"line": 2, "how": "emulated", "values": {"x": "'tomato'"}}],
        "backend": "wasm",
    }
    assert RunResult.from_json(wire) == replace(FULL, duration_s=1.234567)
    assert RunResult.from_json({k: v for k, v in wire.items() if k != "backend"}).backend == "native"
    with pytest.raises(ProtocolError):
        RunResult.from_json({**wire, "backend": "elsewhere"})


def test_optional_fields_may_be_missing() -> None:
    minimal = {k: v for k, v in GOOD.items() if k not in ("values", "trace", "error", "error_line")}
    result = RunResult.from_json(minimal)
    assert result.values == {} and result.trace is None and result.steps is None and result.error is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"status": 5}, "status: expected str"),
        ({"stdout": None}, "stdout: expected str"),
        ({"stderr": None}, "stderr: expected str"),
        ({"error": 1}, "error: expected str"),
        ({"error_line": 1.5}, "error_line: expected int"),
        ({"duration_s": None}, "duration_s: expected a number"),
        ({"duration_s": False}, "duration_s: expected a number"),
        ({"isolation": None}, "isolation: expected str"),
        ({"values": {"a": 1}}, "value: expected dict"),
        ({"values": []}, "values: expected dict"),
        ({"values": {"a": {"repr": 1, "type": "int"}}}, "repr: expected str"),
        ({"values": {"b" * (4 * 1024 * 1024 + 1): {"repr": "", "type": ""}}}, "value name: too long"),
        ({"values": {"a": {"repr": "1", "type": 1}}}, "type: expected str"),
        ({"values": {"a": {"repr": "1", "type": "int", "latex": 1}}}, "latex: expected str"),
        ({"trace": {}}, "trace: expected list"),
        ({"steps": "lines"}, "steps: expected list"),
        ({"stdout": "x" * (4 * 1024 * 1024 + 1)}, "stdout: too long"),
    ],
)
def test_a_refusal_names_the_field(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ProtocolError, match=rf"^{message}$"):
        RunResult.from_json({**GOOD, **change})
    with pytest.raises(ProtocolError, match=r"^result: expected dict$"):
        RunResult.from_json(None)


def test_values_are_capped_field_by_field() -> None:
    long_text = {"repr": "r" * (REPR_CHARS + 5), "type": "t" * 300, "latex": "l" * (REPR_CHARS + 5)}
    raw = {"n" * 300: long_text}
    (name, value), *_ = parse_values(raw).items()
    assert name == "n" * TYPE_CHARS + "… [100 more characters]"
    assert value.repr == "r" * REPR_CHARS + "… [5 more characters]"
    assert value.type == "t" * TYPE_CHARS + "… [100 more characters]"
    assert value.latex == "l" * REPR_CHARS + "… [5 more characters]"
    assert parse_values({"a": {"repr": "", "type": "", "latex": None}})["a"].latex is None


def test_a_values_json_copy_is_kept_up_to_its_limit() -> None:
    fits = "j" * (JSON_CHARS - 2)  # json.dumps adds the two quotes
    assert parse_values({"a": {"repr": "", "type": "", "json": fits}})["a"].json == fits
    assert parse_values({"a": {"repr": "", "type": "", "json": fits + "j"}})["a"].json is None


def test_only_the_requested_names_and_at_most_256_values() -> None:
    many = {f"v{i}": {"repr": "", "type": ""} for i in range(300)}
    assert list(parse_values(many, names=["v7", "nope"])) == ["v7"]
    assert len(parse_values(dict(list(many.items())[:256]))) == 256
    with pytest.raises(ProtocolError, match=r"^too many values$"):
        parse_values(dict(list(many.items())[:257]))


def test_a_line_of_exactly_the_limit_is_read() -> None:
    line = b'"' + b"a" * (MAX_LINE_BYTES - 2) + b'"'
    assert loads_line(line) == "a" * (MAX_LINE_BYTES - 2)
    with pytest.raises(ProtocolError, match=r"^message too large$"):
        loads_line(line + b" ")
    with pytest.raises(ProtocolError, match=r"^not JSON: ValueError$"):
        loads_line(b"[NaN]")
    with pytest.raises(ProtocolError, match=r"^not JSON: JSONDecodeError$"):
        loads_line(b"{'python': 'literal'}")


def test_text_up_to_its_limit() -> None:
    limit = 4 * 1024 * 1024
    assert len(RunResult.from_json({**GOOD, "stdout": "x" * limit}).stdout) == limit


def test_a_deep_line_that_needs_cleaning_is_refused_not_crashed() -> None:
    """json.loads takes 700 levels; replacing a lone surrogate inside them recurses deeper."""
    deep = b"[" * 700 + b'"\\ud800"' + b"]" * 700
    with pytest.raises(ProtocolError, match=r"^not JSON: RecursionError$"):
        loads_line(deep)
