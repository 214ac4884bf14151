"""The child's report, checked field by field before the worker or the app believe any of it.

The program owns the child's descriptors, so it can write a report of its own on fd 3: a status
it did not earn, a trace of a million steps, lines that are not in the program, event names no
tracer writes, megabytes of nested lists. The report's size is bounded before it is parsed (bytes
by the worker's cap, JSON items by counting the characters that open one, so a forged report
cannot make `json.loads` build hundreds of MB), and what survives parsing is cut to the tracer's
own limits (`sandbox.protocol.parse_trace`): at most `MAX_TRACE_STEPS` steps, each on a line of
the program, with a known event, bounded names and values; Chain of Code's steps likewise; an
`error_line` outside the program is dropped. The host applies the same checks again
(`RunResult.from_json`, `within_program`) to what the worker sends.
"""

from __future__ import annotations

import dataclasses
import os

from sandbox import privileges
from sandbox.protocol import ChainStep, ProtocolError, TraceStep, loads_line, parse_chain, parse_trace
from sandbox.result import CapturedValue, RunResult, Status, parse_values
from sandbox.values import cap

MAX_REPORT_ITEMS = 500_000  # JSON values in one report: a legitimate one holds far fewer (≈ 40 MB to parse at most)
ERROR_CHARS = 20_000


def item_bound(line: bytes) -> int:
    """An upper bound on the JSON values in `line`, counted in one linear pass: every value but a
    container's first follows a comma, and every container opens with [ or {."""
    return line.count(b",") + line.count(b"[") + line.count(b"{") + 1


def parse_report(
    raw: bytes, wait_status: int, capture: tuple[str, ...], program_lines: int
) -> tuple[
    Status, str | None, int | None, dict[str, CapturedValue], tuple[TraceStep, ...] | None, tuple[ChainStep, ...] | None
]:
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
            parse_trace(report.get("trace"), program_lines),
            parse_chain(report.get("steps"), program_lines),
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
        trace=None if result.trace is None else tuple(step for step in result.trace if step.line <= lines),
        steps=None if result.steps is None else tuple(step for step in result.steps if step.line <= lines),
    )
    return result if checked == result else checked


def checked_line(value: object, lines: int) -> int | None:
    """A line number of the program, or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= lines:
        return value
    return None
