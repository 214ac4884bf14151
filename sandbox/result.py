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
import re
from dataclasses import dataclass
from typing import Any

from sandbox.values import REPR_CHARS, cap

MAX_LINE_BYTES = 32 * 1024 * 1024
_MAX_VALUES = 256
_MAX_TEXT = 4 * 1024 * 1024
TYPE_CHARS = 200
JSON_CHARS = 1_000_000  # a value's JSON copy; the child's own renderer stays far below this
_SURROGATE = re.compile("[\ud800-\udfff]")  # after json.loads a pair is one character: these are lone
# How a surrogate can reach json.loads: a \uD8xx–\uDFxx escape, or raw bytes ED A0–BF (json
# decodes bytes with "surrogatepass"). Lines without either need no walk.
_MAY_HOLD_SURROGATE = re.compile(rb"\\[uU][dD][89abcdefABCDEF]|\xed[\xa0-\xbf]")


BACKENDS = ("native", "wasm")


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
            "trace": self.trace,
            "steps": self.steps,
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
                trace=_optional_list(obj.get("trace"), "trace"),
                steps=_optional_list(obj.get("steps"), "steps"),
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


def loads_line(line: bytes) -> object:
    """Parse one JSON line strictly, with a size cap; malformed or hostile input raises ProtocolError."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError("message too large")
    try:
        value = json.loads(line, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {type(exc).__name__}") from exc
    if not _MAY_HOLD_SURROGATE.search(line):  # the common case: nothing to walk
        return value
    try:
        return _clean(value)
    except RecursionError as exc:
        raise ProtocolError(f"not JSON: {type(exc).__name__}") from exc


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _clean(value: Any) -> Any:
    """`value` with every lone surrogate in its strings (keys included) replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean(item) for item in value]
    if isinstance(value, dict):
        return {_clean(key): _clean(item) for key, item in value.items()}
    return value


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
