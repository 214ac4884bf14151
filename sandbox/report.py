"""The child's report, checked field by field before the worker or the app believe any of it.

The program owns the child's descriptors, so it can write a report of its own on fd 3: a status
it did not earn, a trace of a million steps, lines that are not in the program, event names no
tracer writes, megabytes of nested lists. The report's size is bounded before it is parsed (bytes
by the worker's cap, JSON items by counting the characters that open one, so a forged report
cannot make `json.loads` build hundreds of MB), and what survives parsing is cut to the tracer's
own limits: at most `tracing.MAX_STEPS` steps, each on a line of the program, with a known event,
bounded names and values; Chain of Code's steps likewise; an `error_line` outside the program is
dropped. The host applies the same checks again (`within_program`) to what the worker sends.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from sandbox import privileges, stepwise, tracing
from sandbox.result import CapturedValue, ProtocolError, RunResult, Status, loads_line, parse_values
from sandbox.values import cap

MAX_REPORT_ITEMS = 500_000  # JSON values in one report: a legitimate one holds far fewer (≈ 40 MB to parse at most)
ERROR_CHARS = 20_000
NAME_CHARS = 200
MAX_VARS = 500  # variables shown in one trace step
TRACE_EVENTS = frozenset({"line", "call", "return", "exception"})
STEP_KINDS = frozenset({"python", "emulated"})
_TEXT_BUDGET = 2 * tracing.MAX_BYTES  # characters of names and values in a whole trace


def item_bound(line: bytes) -> int:
    """An upper bound on the JSON values in `line`, counted in one linear pass: every value but a
    container's first follows a comma, and every container opens with [ or {."""
    return line.count(b",") + line.count(b"[") + line.count(b"{") + 1


def parse_report(
    raw: bytes, wait_status: int, capture: tuple[str, ...], program_lines: int
) -> tuple[Status, str | None, int | None, dict[str, CapturedValue], list[Any] | None, list[Any] | None]:
    """(status, error, error_line, values, trace, steps) from the child's report, every field
    checked; a report that is not one reads as "ended without a result"."""
    missing = f"the program ended without a result (exit status {os.waitstatus_to_exitcode(wait_status)})"
    try:
        line = raw.split(b"\n", 1)[0]
        if item_bound(line) > MAX_REPORT_ITEMS:
            raise ProtocolError("report has too many values")
        report = loads_line(line)
        if not isinstance(report, dict):
            raise ProtocolError("report")
        status = Status(str(report.get("status")))
        if status not in (Status.OK, Status.ERROR, Status.MEMORY):
            raise ProtocolError("status")
        error = report.get("error")
        if error is not None and not isinstance(error, str):
            raise ProtocolError("error")
        if error is not None:
            error = cap(error, ERROR_CHARS)
            if "can't start new thread" in error:
                error += f" (a program may run at most {privileges.THREADS} threads in the sandbox)"
        return (
            status,
            error,
            checked_line(report.get("error_line"), program_lines),
            parse_values(report.get("values", {}), capture),
            checked_trace(report.get("trace"), program_lines),
            checked_steps(report.get("steps"), program_lines),
        )
    except (ProtocolError, ValueError):
        return Status.ERROR, missing, None, {}, None, None


def program_lines(code: str) -> int:
    return code.count("\n") + 1


def within_program(result: RunResult, code: str) -> RunResult:
    """`result` with its trace, steps and error line checked against the program that ran."""
    lines = program_lines(code)
    checked = dataclasses.replace(
        result,
        error_line=checked_line(result.error_line, lines),
        trace=checked_trace(result.trace, lines),
        steps=checked_steps(result.steps, lines),
    )
    return result if checked == result else checked


def checked_line(value: object, lines: int) -> int | None:
    """A line number of the program, or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= lines:
        return value
    return None


def checked_trace(data: object, lines: int) -> list[dict[str, Any]] | None:
    """The trace's steps that are well formed, at most the tracer's cap, their text bounded."""
    if not isinstance(data, list):
        return None
    steps: list[dict[str, Any]] = []
    budget = _TEXT_BUDGET
    for raw in data[: tracing.MAX_STEPS]:
        step = _trace_step(raw, lines)
        if step is None:
            continue
        budget -= sum(len(name) + len(value) for name, value in step["vars"].items())
        if budget < 0:
            break
        steps.append(step)
    if steps and len(data) > tracing.MAX_STEPS:
        steps[-1]["truncated"] = True
    return steps


def _trace_step(raw: object, lines: int) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    line, event, function, variables = raw.get("line"), raw.get("event"), raw.get("function"), raw.get("vars")
    if checked_line(line, lines) is None or event not in TRACE_EVENTS or not isinstance(function, str):
        return None
    if not isinstance(variables, dict):
        return None
    shown = {
        cap(name, NAME_CHARS): cap(value, tracing.VALUE_CHARS)
        for name, value in list(variables.items())[:MAX_VARS]
        if isinstance(name, str) and isinstance(value, str)
    }
    output = raw.get("output")
    step: dict[str, Any] = {
        "line": line,
        "event": event,
        "function": cap(function, NAME_CHARS),
        "vars": shown,
        "output": output if isinstance(output, int) and not isinstance(output, bool) and output > 0 else 0,
    }
    if raw.get("truncated") is True:
        step["truncated"] = True
    return step


def checked_steps(data: object, lines: int) -> list[dict[str, Any]] | None:
    """Chain of Code's steps that are well formed: a program line, how it ran, bounded values."""
    if not isinstance(data, list):
        return None
    steps: list[dict[str, Any]] = []
    for raw in data[: stepwise.MAX_STEPS_RECORDED]:
        if (
            not isinstance(raw, dict)
            or checked_line(raw.get("line"), lines) is None
            or raw.get("how") not in STEP_KINDS
        ):
            continue
        step: dict[str, Any] = {"line": raw["line"], "how": raw["how"]}
        values = raw.get("values")
        if isinstance(values, dict):
            step["values"] = {
                cap(name, NAME_CHARS): cap(value, stepwise.VALUE_CHARS)
                for name, value in list(values.items())[: stepwise.MAX_VALUES]
                if isinstance(name, str) and isinstance(value, str)
            }
        steps.append(step)
    return steps
