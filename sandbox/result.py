"""The typed result of one sandboxed run, and its strict JSON (de)serialisation.

Everything parsed here came from an untrusted process: `from_json` accepts only the documented
fields with the documented types and raises `ProtocolError` for anything else. Nothing is ever
evaluated.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

MAX_LINE_BYTES = 32 * 1024 * 1024
_MAX_VALUES = 256
_MAX_TEXT = 4 * 1024 * 1024


class ProtocolError(ValueError):
    """A message across the process boundary was malformed, too large or of the wrong shape."""


class Status(enum.StrEnum):
    OK = "ok"
    ERROR = "error"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    OUTPUT_LIMIT = "output_limit"
    KILLED = "killed"


class Isolation(enum.StrEnum):
    STRONG = "strong"
    PARTIAL = "partial"
    NONE = "none"


@dataclass(frozen=True)
class CapturedValue:
    """One variable of the finished program, rendered in the child.

    `json` is a JSON-safe copy (None when the value has none); sympy objects and Fractions arrive
    as strings, sympy objects also as LaTeX.
    """

    repr: str
    json: Any
    type: str
    latex: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"repr": self.repr, "json": self.json, "type": self.type, "latex": self.latex}


@dataclass(frozen=True)
class RunResult:
    status: Status
    stdout: str
    stderr: str
    error: str | None
    error_line: int | None
    values: dict[str, CapturedValue]
    duration_s: float
    isolation: Isolation
    trace: list[Any] | None = None
    steps: list[Any] | None = None  # Chain of Code: {"line", "how": "python"|"emulated", "values"?} per step

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "error": self.error,
            "error_line": self.error_line,
            "values": {name: value.to_json() for name, value in self.values.items()},
            "duration_s": round(self.duration_s, 6),
            "isolation": self.isolation.value,
            "trace": self.trace,
            "steps": self.steps,
        }

    @classmethod
    def from_json(cls, data: object) -> RunResult:
        obj = _expect(data, dict, "result")
        try:
            return cls(
                status=Status(_expect(obj.get("status"), str, "status")),
                stdout=_text(obj.get("stdout"), "stdout"),
                stderr=_text(obj.get("stderr"), "stderr"),
                error=_optional_text(obj.get("error"), "error"),
                error_line=_optional_int(obj.get("error_line"), "error_line"),
                values=parse_values(obj.get("values", {})),
                duration_s=_number(obj.get("duration_s"), "duration_s"),
                isolation=Isolation(_expect(obj.get("isolation"), str, "isolation")),
                trace=_optional_list(obj.get("trace"), "trace"),
                steps=_optional_list(obj.get("steps"), "steps"),
            )
        except ValueError as exc:  # an unknown enum member
            raise ProtocolError(str(exc)) from exc


def parse_values(data: object) -> dict[str, CapturedValue]:
    obj = _expect(data, dict, "values")
    if len(obj) > _MAX_VALUES:
        raise ProtocolError("too many values")
    values = {}
    for name, raw in obj.items():
        entry = _expect(raw, dict, "value")
        values[_text(name, "value name")] = CapturedValue(
            repr=_text(entry.get("repr"), "repr"),
            json=entry.get("json"),  # already plain JSON data: json.loads builds nothing else
            type=_text(entry.get("type"), "type"),
            latex=_optional_text(entry.get("latex"), "latex"),
        )
    return values


def loads_line(line: bytes) -> object:
    """Parse one JSON line with a size cap; malformed or hostile input raises ProtocolError."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError("message too large")
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {type(exc).__name__}") from exc


def _expect(value: object, kind: type, what: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ProtocolError(f"{what}: expected {kind.__name__}")
    return value


def _text(value: object, what: str) -> str:
    text = _expect(value, str, what)
    if len(text) > _MAX_TEXT:
        raise ProtocolError(f"{what}: too long")
    return str(text)


def _optional_text(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _optional_int(value: object, what: str) -> int | None:
    return None if value is None else int(_expect(value, int, what))


def _optional_list(value: object, what: str) -> list[Any] | None:
    return None if value is None else list(_expect(value, list, what))


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(f"{what}: expected a number")
    return float(value)
