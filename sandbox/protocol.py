"""The sandbox's wire protocol: every message between the app (host), the warm worker, its zygote
and each child, as frozen dataclasses — the one file where message names appear.

Each message travels as one line of JSON (`encode`), with its name under "op". Whatever arrives is
untrusted until `decode` has checked it: the line is parsed strictly and capped (`loads_line`), the
name must be one this side expects, and every field must have its type; anything else is a
`ProtocolError`. What a run recorded crosses as typed records too: a traced run's `TraceStep`s,
Chain of Code's `ChainStep`s and the model's `EmulationReply`, each parsed here with its caps. A run's
result stays one JSON object here: `RunResult.from_json` parses it with its own caps.

    host -> worker    RunRequest, Cancel, Emulated (the model's reply to an emulation)
    worker -> host    Preparing, Ready, Result, Refused, EmulateRequest
    worker -> child   ChildRequest (through the child's own pipe, once)
    child -> worker   Emulate (Chain of Code: a statement that cannot run; its reply is raw JSON)
    guest -> worker   Fetch, Emulate, Report, OutputLimit (WebAssembly: through the door, one each call)
    worker <-> zygote Spawn, Spawned, Kill, Exited
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import MISSING, asdict, dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar, TypeVar

from sandbox.values import cap

MAX_LINE_BYTES = 32 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")  # after json.loads a pair is one character: these are lone
# How a surrogate can reach json.loads: a \uD8xx–\uDFxx escape, or raw bytes ED A0–BF (json
# decodes bytes with "surrogatepass"). Lines without either need no walk.
_MAY_HOLD_SURROGATE = re.compile(rb"\\[uU][dD][89abcdefABCDEF]|\xed[\xa0-\xbf]")


class ProtocolError(ValueError):
    """A message across the process boundary was malformed, too large or of the wrong shape."""


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
    reply: EmulationReply


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
    request: Emulate  # the child's, as checked


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
# both workers (sandbox.worker, sandbox.wasm) enforce them. A reply is capped once, here: the host
# refuses to send a longer one and the program refuses to read one.
MAX_EMULATIONS = 100
MAX_EMULATE_BYTES = 256 * 1024
MAX_EMULATION_REPLY_BYTES = 64_000


def emulation_request(line: bytes) -> Emulate | None:
    """A line from the program that asks for an emulation, checked; None for any other line."""
    try:
        data = loads_line(line)
        return expect(data, Emulate) if is_message(data) else None
    except ProtocolError:
        return None


@dataclass(frozen=True)
class EmulationReply:
    """The host's answer to an `Emulate`: the expression's `value`, the variables' new `values`, or
    why neither (`error`) — which one is `kind`."""

    kind: str  # "value", "values" or "error"
    value: Any = None  # JSON data (a value may be null)
    values: dict[str, Any] = field(default_factory=dict)  # identifier -> JSON data
    error: str = ""

    @classmethod
    def of_value(cls, value: Any) -> EmulationReply:
        return cls("value", value=value)

    @classmethod
    def of_values(cls, values: dict[str, Any]) -> EmulationReply:
        return cls("values", values=values)

    @classmethod
    def failed(cls, why: str) -> EmulationReply:
        return cls("error", error=why[:500])

    def line(self) -> bytes:
        """The reply as sent to the program: one JSON line."""
        return json.dumps(asdict(self), ensure_ascii=True, allow_nan=False).encode() + b"\n"

    @classmethod
    def from_wire(cls, data: object) -> EmulationReply:
        """The reply in `data` (parsed JSON), every field checked, or a ProtocolError."""
        if not isinstance(data, dict) or set(data) != {"kind", "value", "values", "error"}:
            raise ProtocolError("an emulation reply must have kind, value, values and error")
        kind, values, error = data["kind"], data["values"], data["error"]
        if kind not in ("value", "values", "error") or not isinstance(error, str) or not isinstance(values, dict):
            raise ProtocolError("an emulation reply's kind, values or error has the wrong type")
        if not all(isinstance(name, str) and name.isidentifier() for name in values):
            raise ProtocolError("an emulation reply names an invalid variable")
        return cls(kind, data["value"], values, error[:500])


TRACE_EVENTS = frozenset({"line", "call", "return", "exception"})
MAX_TRACE_STEPS = 1000  # steps a trace records (sandbox.tracing); a longer trace says where it stopped
TRACE_VALUE_CHARS = 200  # a variable's repr in one step
TRACE_BYTES = 1_000_000  # names and values the tracer records in all; the reader allows twice this
MAX_STEP_VARS = 500  # variables shown in one step
MAX_CHAIN_STEPS = 500  # Chain of Code steps recorded (sandbox.stepwise)
CHAIN_VALUE_CHARS = 300
MAX_CHAIN_VALUES = 50  # variables an emulated step may set and show
NAME_CHARS = 200


@dataclass(frozen=True)
class TraceStep:
    """One step of a traced run (sandbox.tracing): as in Python Tutor, a "line" step is the state
    just before `line` runs; "call", "return" and "exception" are events of `function`. `output`:
    characters printed by then; `truncated`: the trace stops here."""

    line: int
    event: str
    function: str
    vars: dict[str, str]
    output: int = 0
    truncated: bool = False

    def to_json(self) -> dict[str, Any]:
        data = {
            "line": self.line,
            "event": self.event,
            "function": self.function,
            "vars": self.vars,
            "output": self.output,
        }
        return data | {"truncated": True} if self.truncated else data


@dataclass(frozen=True)
class ChainStep:
    """One statement of a Chain of Code run (sandbox.stepwise): run in Python, or `emulated` by
    the model with the `values` that set (reprs)."""

    line: int
    emulated: bool
    values: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"line": self.line, "how": "emulated" if self.emulated else "python"}
        return data | {"values": self.values} if self.values else data


def parse_trace(data: object, lines: int | None = None) -> tuple[TraceStep, ...] | None:
    """A trace's well-formed steps (on lines 1…`lines` when given), at most `MAX_TRACE_STEPS`, their
    text bounded; ill-formed steps are dropped. None when `data` is not a list."""
    if not isinstance(data, list):
        return None
    steps: list[TraceStep] = []
    budget = 2 * TRACE_BYTES
    for raw in data[:MAX_TRACE_STEPS]:
        step = _trace_step(raw, lines)
        if step is None:
            continue
        budget -= sum(len(name) + len(value) for name, value in step.vars.items())
        if budget < 0:
            break
        steps.append(step)
    if steps and len(data) > MAX_TRACE_STEPS:
        steps[-1] = replace(steps[-1], truncated=True)
    return tuple(steps)


def _trace_step(raw: object, lines: int | None) -> TraceStep | None:
    if not isinstance(raw, dict):
        return None
    line, event, function, variables = raw.get("line"), raw.get("event"), raw.get("function"), raw.get("vars")
    if not _on_a_line(line, lines) or event not in TRACE_EVENTS or not isinstance(function, str):
        return None
    if not isinstance(line, int) or not isinstance(variables, dict):
        return None
    shown = {
        cap(name, NAME_CHARS): cap(value, TRACE_VALUE_CHARS)
        for name, value in list(variables.items())[:MAX_STEP_VARS]
        if isinstance(name, str) and isinstance(value, str)
    }
    output = raw.get("output")
    printed = output if isinstance(output, int) and not isinstance(output, bool) and output > 0 else 0
    return TraceStep(line, event, cap(function, NAME_CHARS), shown, printed, raw.get("truncated") is True)


def parse_chain(data: object, lines: int | None = None) -> tuple[ChainStep, ...] | None:
    """Chain of Code's well-formed steps (on lines 1…`lines` when given), their values bounded."""
    if not isinstance(data, list):
        return None
    steps: list[ChainStep] = []
    for raw in data[:MAX_CHAIN_STEPS]:
        if not isinstance(raw, dict) or not _on_a_line(raw.get("line"), lines):
            continue
        how, values = raw.get("how"), raw.get("values")
        if how not in ("python", "emulated"):
            continue
        shown = {
            cap(name, NAME_CHARS): cap(value, CHAIN_VALUE_CHARS)
            for name, value in list(values.items() if isinstance(values, dict) else ())[:MAX_CHAIN_VALUES]
            if isinstance(name, str) and isinstance(value, str)
        }
        steps.append(ChainStep(raw["line"], how == "emulated", shown))
    return tuple(steps)


def _on_a_line(value: object, lines: int | None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1 and (lines is None or value <= lines)


M = TypeVar("M", bound=Message)

_KINDS: tuple[type[Message], ...] = (RunRequest, Cancel, Emulated, Preparing, Ready, Result, Refused, EmulateRequest)
_KINDS += (ChildRequest, Emulate, Fetch, OutputLimit, Report, Spawn, Spawned, Kill, Exited)
_BY_OP = {kind.OP: kind for kind in _KINDS}


def encode(message: Message) -> bytes:
    """One JSON line (ASCII only, so a line is never split inside a character).

    Fields are taken as they are, records among them turned into objects: `asdict` would copy
    every list of the user's tables first (1.2 s of a 200,000-row run's 4.4 s)."""
    body = {spec.name: _wire(getattr(message, spec.name)) for spec in fields(message)}
    return json.dumps({"op": message.OP, **body}, ensure_ascii=True, allow_nan=False).encode() + b"\n"


def _wire(value: Any) -> Any:
    if isinstance(value, tuple) and value and is_dataclass(value[0]):
        return [asdict(item) for item in value]
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else value


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
    for spec in fields(kind):
        if spec.name not in data:
            if spec.default is not MISSING:  # has a default: optional on the wire
                continue
            raise ProtocolError(f"{kind.OP}: {spec.name} is missing")
        value = data[spec.name]
        declared = str(spec.type)
        if declared.endswith(" | None") and value is None:
            values[spec.name] = None
            continue
        check = _CHECKS[declared.removesuffix(" | None")]
        if not check(value):
            raise ProtocolError(f"{kind.OP}: {spec.name} is not {declared}")
        values[spec.name] = _CONVERT.get(declared, _same)(value)
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
    "Emulate": lambda v: isinstance(v, dict),
    "EmulationReply": lambda v: isinstance(v, dict),
}
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "float": float,
    "tuple[str, ...]": tuple,
    "tuple[LayerInfo, ...]": lambda v: tuple(LayerInfo(item["name"], item["active"], item["detail"]) for item in v),
    "Emulate": lambda v: expect(v | {"op": Emulate.OP}, Emulate),
    "EmulationReply": EmulationReply.from_wire,
}
