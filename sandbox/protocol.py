"""The sandbox's wire protocol: every message between the app (host), the warm worker, its zygote
and each child, as frozen dataclasses — the one file where message names appear.

Each message travels as one line of JSON (`encode`), with its name under "op". Whatever arrives is
untrusted until `decode` has checked it: the line is parsed strictly and capped (`loads_line`), the
name must be one this side expects, and every field must have its type; anything else is a
`ProtocolError`. A run's result and its trace stay JSON objects here: `RunResult.from_json` parses
them with their own caps.

    host -> worker    RunRequest, Cancel, Emulated (the model's reply to an emulation)
    worker -> host    Preparing, Ready, Result, Refused, EmulateRequest
    worker -> child   ChildRequest (through the child's own pipe, once)
    child -> worker   Emulate (Chain of Code: a statement that cannot run; its reply is raw JSON)
    guest -> worker   Fetch, Emulate, Report, OutputLimit (WebAssembly: through the door, one each call)
    worker <-> zygote Spawn, Spawned, Kill, Exited
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, ClassVar, TypeVar

from sandbox.result import ProtocolError, loads_line


@dataclass(frozen=True)
class Message:
    OP: ClassVar[str] = ""


@dataclass(frozen=True)
class RunRequest(Message):
    OP: ClassVar[str] = "run"
    id: int
    code: str
    time_s: float
    memory_mb: int
    output_bytes: int
    capture: tuple[str, ...]
    trace: bool = False
    emulate: bool = False  # Chain of Code: run statement by statement, emulating what cannot run
    data: dict[str, Any] | None = None  # the user's tables (sandbox.data), given to the program as `tables`


@dataclass(frozen=True)
class Cancel(Message):
    OP: ClassVar[str] = "cancel"
    id: int


@dataclass(frozen=True)
class Emulated(Message):
    OP: ClassVar[str] = "emulated"
    id: int
    reply: dict[str, Any]


@dataclass(frozen=True)
class LayerInfo:
    name: str
    active: bool
    detail: str


@dataclass(frozen=True)
class Ready(Message):
    OP: ClassVar[str] = "ready"
    isolation: str
    layers: tuple[LayerInfo, ...]
    zygote: int | None = None  # the worker's forker (absent: a worker without one)
    backend: str = "native"  # "native" (sandbox.worker) or "wasm" (sandbox.wasm)


@dataclass(frozen=True)
class Preparing(Message):
    """Before Ready, while a worker does a long one-time job (the WebAssembly module's compile)."""

    OP: ClassVar[str] = "preparing"
    text: str
    elapsed_s: float


@dataclass(frozen=True)
class Result(Message):
    OP: ClassVar[str] = "result"
    id: int
    result: dict[str, Any]  # RunResult.to_json(); parsed by RunResult.from_json


@dataclass(frozen=True)
class Refused(Message):
    """The worker could not run a request; `fatal`: it is ending, the next run starts a new one."""

    OP: ClassVar[str] = "error"
    id: int | None
    error: str
    fatal: bool = False


@dataclass(frozen=True)
class EmulateRequest(Message):
    OP: ClassVar[str] = "emulate-request"
    id: int
    request: dict[str, Any]  # the child's `Emulate`, as sent


@dataclass(frozen=True)
class ChildRequest(Message):
    OP: ClassVar[str] = "child-run"
    code: str
    time_s: float
    memory_mb: int
    capture: tuple[str, ...]
    trace: bool
    emulate: bool = False
    data: dict[str, Any] | None = None
    output_bytes: int = 65536  # the WebAssembly guest stops its own printing there (sandbox.guest)


@dataclass(frozen=True)
class Emulate(Message):
    OP: ClassVar[str] = "emulate"
    line: int
    statement: str
    expression: str | None
    concrete: str  # the failing code with the simple values it reads written in: is_fruit('lemon')
    error: str
    state: dict[str, str]


@dataclass(frozen=True)
class Fetch(Message):
    """The WebAssembly guest asks the worker for its ChildRequest (sandbox.guest, through the door)."""

    OP: ClassVar[str] = "fetch"


@dataclass(frozen=True)
class OutputLimit(Message):
    """The WebAssembly guest printed past its cap: the worker stops the run."""

    OP: ClassVar[str] = "output-limit"


@dataclass(frozen=True)
class Report(Message):
    """The WebAssembly guest's report (what the native child writes on fd 3), spliced as raw JSON
    so that it is parsed once, by `sandbox.report.parse_report`, with its caps."""

    OP: ClassVar[str] = "report"
    report: dict[str, Any]


_REPORT_HEAD = b'{"op": "report", "report": '


def report_frame(report_json: bytes) -> bytes:
    return _REPORT_HEAD + report_json + b"}"


def report_of(frame: bytes) -> bytes | None:
    """The raw report inside a `Report` frame, or None for any other frame."""
    return frame[len(_REPORT_HEAD) : -1] if frame.startswith(_REPORT_HEAD) and frame.endswith(b"}") else None


@dataclass(frozen=True)
class Spawn(Message):
    OP: ClassVar[str] = "spawn"


@dataclass(frozen=True)
class Spawned(Message):
    OP: ClassVar[str] = "spawned"
    pid: int


@dataclass(frozen=True)
class Kill(Message):
    OP: ClassVar[str] = "kill"
    pid: int


@dataclass(frozen=True)
class Exited(Message):
    OP: ClassVar[str] = "exited"
    pid: int
    wait_status: int
    cpu_s: float


# Chain of Code: a program may ask this many emulations of one run, each request this long at most
# (a real request is a statement, its concrete form, an error and ≤ 16,000 characters of state);
# both workers (sandbox.worker, sandbox.wasm) enforce them.
MAX_EMULATIONS = 100
MAX_EMULATE_BYTES = 256 * 1024

M = TypeVar("M", bound=Message)

_KINDS: tuple[type[Message], ...] = (RunRequest, Cancel, Emulated, Preparing, Ready, Result, Refused, EmulateRequest)
_KINDS += (ChildRequest, Emulate, Fetch, OutputLimit, Report, Spawn, Spawned, Kill, Exited)
_BY_OP = {kind.OP: kind for kind in _KINDS}


def encode(message: Message) -> bytes:
    """One JSON line (ASCII only, so a line is never split inside a character)."""
    return json.dumps({"op": message.OP, **asdict(message)}, ensure_ascii=True, allow_nan=False).encode() + b"\n"


def opens_as(line: bytes, kind: type[Message]) -> bool:
    """Whether `line` begins the way `encode` begins a message of `kind` (checked before parsing)."""
    return line.startswith(b'{"op": ' + json.dumps(kind.OP).encode() + b",")


def is_message(data: object) -> bool:
    """Whether a parsed line claims to be a message (a child's report line is not one)."""
    return isinstance(data, dict) and "op" in data


def decode_as(line: bytes, kind: type[M]) -> M:
    """The message of `kind` on `line`, or a ProtocolError."""
    return expect(loads_line(line), kind)


def expect(data: object, kind: type[M]) -> M:
    """The parsed `data` as a message of `kind`, or a ProtocolError."""
    message = from_object(data, kind)
    if not isinstance(message, kind):  # pragma: no cover -- from_object returns only expected kinds
        raise ProtocolError(f"expected {kind.OP}")
    return message


def from_object(data: object, *expected: type[Message]) -> Message:
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    op = data.get("op")
    kind = _BY_OP.get(op) if isinstance(op, str) else None
    if kind is None or (expected and kind not in expected):
        raise ProtocolError(f"unexpected message {str(op)[:40]!r}")
    values: dict[str, Any] = {}
    for field in fields(kind):
        if field.name not in data:
            if field.default is not MISSING:  # has a default: optional on the wire
                continue
            raise ProtocolError(f"{kind.OP}: {field.name} is missing")
        value = data[field.name]
        declared = str(field.type)
        if declared.endswith(" | None") and value is None:
            values[field.name] = None
            continue
        check = _CHECKS[declared.removesuffix(" | None")]
        if not check(value):
            raise ProtocolError(f"{kind.OP}: {field.name} is not {declared}")
        values[field.name] = _CONVERT.get(declared, _same)(value)
    return kind(**values)


def _same(value: Any) -> Any:
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # JSON true is not the integer 1


def _is_layer(value: object) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and isinstance(value.get("active"), bool)
        and isinstance(value.get("detail"), str)
    )


_CHECKS: dict[str, Callable[[object], bool]] = {
    "int": _is_int,
    "float": lambda v: _is_int(v) or isinstance(v, float),
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: isinstance(v, str),
    "tuple[str, ...]": lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
    "dict[str, Any]": lambda v: isinstance(v, dict),
    "dict[str, str]": lambda v: isinstance(v, dict) and all(isinstance(item, str) for item in v.values()),
    "tuple[LayerInfo, ...]": lambda v: isinstance(v, list) and all(_is_layer(item) for item in v),
}
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "float": float,
    "tuple[str, ...]": tuple,
    "tuple[LayerInfo, ...]": lambda v: tuple(LayerInfo(item["name"], item["active"], item["detail"]) for item in v),
}
