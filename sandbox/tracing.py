"""A line-by-line trace of the program, recorded in the child when asked (`trace=True`).

One step per executed line of the user's program (library code is not traced), with the event
(line, call, return, exception), the variables of that frame as capped reprs, and how much output
had been printed by then. As in Python Tutor, a "line" step shows the state just before that line
runs; the final "return" step of the module shows the state at the end. After `MAX_STEPS` steps,
or `MAX_BYTES` of snapshots, recording stops and the last step says so, while the program runs on
to its end.
"""

from __future__ import annotations

import dataclasses
import reprlib
import sys
import types
from typing import Any

from sandbox import protocol
from sandbox.program import PROGRAM_FILENAME
from sandbox.protocol import TraceStep
from sandbox.values import cap, safe_repr

MAX_STEPS = protocol.MAX_TRACE_STEPS
MAX_BYTES = protocol.TRACE_BYTES
VALUE_CHARS = protocol.TRACE_VALUE_CHARS
_HIDDEN = (types.ModuleType, types.BuiltinFunctionType)
_CONTAINERS = (list, tuple, dict, set, frozenset, types.MappingProxyType)


class _StepRepr(reprlib.Repr):
    """Containers shown to a bounded depth and length: a step's repr of a 6,000-row table (the
    user's data) must not cost more than the program; mappingproxy (the data's rows) included."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxdict, self.maxlist, self.maxtuple = 3, 8, 8, 8
        self.maxset, self.maxfrozenset, self.maxstring, self.maxother = 8, 8, 80, 80

    def repr_mappingproxy(self, value: types.MappingProxyType[Any, Any], level: int) -> str:
        return "mappingproxy(" + self.repr_dict(dict(value), level) + ")"

    def repr_Table(self, value: tuple[Any, ...], level: int) -> str:  # noqa: N802 (reprlib's naming: repr_ + type name)
        return self.repr_tuple(value, level)  # sandbox.data.Table: the user's rows, bounded like any tuple


_STEP_REPR = _StepRepr()


class Tracer:
    """Install with `start()`; `steps` holds the steps; `output_chars` reads the stdout count."""

    def __init__(self, output_chars: Any) -> None:
        self.steps: list[TraceStep] = []
        self.truncated = False
        self._size = 0
        self._output_chars = output_chars

    def start(self) -> None:
        sys.settrace(self._global)

    def stop(self) -> None:
        sys.settrace(None)

    def _global(self, frame: types.FrameType, event: str, _arg: Any) -> Any:
        if frame.f_code.co_filename != PROGRAM_FILENAME or self.truncated:
            return None  # library code, or recording is over: no line events there
        if event == "call" and frame.f_code.co_name != "<module>":
            self._record(frame, "call")
        return self._local

    def _local(self, frame: types.FrameType, event: str, _arg: Any) -> Any:
        if self.truncated:
            return None
        if event in ("line", "return", "exception"):
            self._record(frame, event)
        return self._local

    def _record(self, frame: types.FrameType, event: str) -> None:
        if len(self.steps) >= MAX_STEPS or self._size >= MAX_BYTES:
            self.truncated = True
            self.steps[-1] = dataclasses.replace(self.steps[-1], truncated=True)
            return
        names = frame.f_locals
        snapshot = {
            name: _step_repr(value)
            for name, value in list(names.items())
            if not name.startswith("__") and name != "solve_it" and not isinstance(value, _HIDDEN)
        }
        step = TraceStep(frame.f_lineno, event, frame.f_code.co_name, snapshot, self._output_chars())
        self._size += sum(len(k) + len(v) for k, v in snapshot.items()) + 64
        self.steps.append(step)


def _step_repr(value: Any) -> str:
    """A value as one step shows it (containers bounded, see `_StepRepr`)."""
    if isinstance(value, _CONTAINERS):
        try:
            return cap(_STEP_REPR.repr(value), VALUE_CHARS)
        except Exception:  # an element's __repr__ may raise anything
            return f"<{type(value).__name__} of {len(value):,} items>"
    return cap(safe_repr(value), VALUE_CHARS)
