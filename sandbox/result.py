"""The typed result of one sandboxed run, and its strict JSON (de)serialisation.

Everything parsed here came from an untrusted process: `from_json` accepts only the documented
fields with the documented types and raises `ProtocolError` for anything else. Nothing is ever
evaluated. The program can write its own report line (it owns the child's descriptors), so the
caps are applied here, whatever the child claims: NaN and Infinity are refused (they are not
JSON), lone surrogates become U+FFFD (they make `.encode()` raise later), and each field of a
value is cut to its size.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

from sandbox.protocol import ChainStep, ProtocolError, TraceStep, parse_chain, parse_trace
from sandbox.values import REPR_CHARS, cap

_MAX_VALUES = 256
_MAX_TEXT = 4 * 1024 * 1024
TYPE_CHARS = 200
JSON_CHARS = 1_000_000  # a value's JSON copy; the child's own renderer stays far below this


BACKENDS = ("native", "wasm")


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
    trace: tuple[TraceStep, ...] | None = None
    steps: tuple[ChainStep, ...] | None = None  # Chain of Code
    backend: str = "native"  # which sandbox ran it: "native" (kernel layers) or "wasm" (WebAssembly)

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
            "trace": None if self.trace is None else [step.to_json() for step in self.trace],
            "steps": None if self.steps is None else [step.to_json() for step in self.steps],
            "backend": self.backend,
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
                trace=parse_trace(_optional_list(obj.get("trace"), "trace")),
                steps=parse_chain(_optional_list(obj.get("steps"), "steps")),
                backend=_backend(obj.get("backend", "native")),
            )
        except ValueError as exc:  # an unknown enum member
            raise ProtocolError(str(exc)) from exc


def _backend(value: object) -> str:
    if value not in BACKENDS:
        raise ProtocolError("backend")
    return str(value)


def parse_values(data: object, names: tuple[str, ...] | list[str] | None = None) -> dict[str, CapturedValue]:
    """The captured variables, each field capped; with `names`, those not asked for are dropped."""
    obj = _expect(data, dict, "values")
    if names is not None:
        obj = {name: raw for name, raw in obj.items() if name in names}
    if len(obj) > _MAX_VALUES:
        raise ProtocolError("too many values")
    values = {}
    for name, raw in obj.items():
        entry = _expect(raw, dict, "value")
        plain = entry.get("json")  # already plain JSON data: json.loads builds nothing else
        if plain is not None and len(json.dumps(plain)) > JSON_CHARS:
            plain = None
        values[cap(_text(name, "value name"), TYPE_CHARS)] = CapturedValue(
            repr=cap(_text(entry.get("repr"), "repr"), REPR_CHARS),
            json=plain,
            type=cap(_text(entry.get("type"), "type"), TYPE_CHARS),
            latex=None if entry.get("latex") is None else cap(_text(entry.get("latex"), "latex"), REPR_CHARS),
        )
    return values


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
