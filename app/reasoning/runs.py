"""A program the user ran by hand (Ctrl+R), read as a `Solution` the way solves read answers.

Why: the window, history and exports all work from one `Solution`; an edited program that runs
must replace what the model's program gave, everywhere, with its answer read by the same rule as
a solve: `ans` when the program set it (numbers without float noise: 0.1 + 0.2 is 0.3), else the
printed output, trimmed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.reasoning.error_words import plain_error
from app.reasoning.numbers import format_answer, value_text
from app.reasoning.session import failure_status
from app.reasoning.solution import Solution, SolveStatus
from sandbox import CapturedValue, RunResult, Status, TraceStep
from sandbox.display import display_text


def solution_of_run(question: str, program: str, result: RunResult, before: Solution | None = None) -> Solution:
    """The run as the current solution; `before` (the solve it edits) keeps its model calls."""
    ans = result.values.get("ans")
    answer: str | None = None
    if result.status is Status.OK:
        answer = value_text(ans) if ans is not None else format_answer(result.stdout) or None
        status = SolveStatus.ANSWERED if answer else SolveStatus.EMPTY_OUTPUT
    elif result.status is Status.KILLED and result.error == "cancelled":
        status = SolveStatus.CANCELLED
    else:
        status = failure_status(result)
    edited = before is None or program.strip() != (before.program or "").strip()
    solution = Solution(
        question=question,
        method="edited program" if before is None else f"{before.method}, program edited" if edited else before.method,
        status=status,
        answer=answer,
        program=program,
        programs=(program,),
        output=result.stdout,
        error=result.error,
        error_line=result.error_line,
        ans=ans,
        calls=(),
        repair_used=False,
        finish_reply=None,
        duration_s=result.duration_s,
        isolation=result.isolation.value,
        variables=dict(result.values),
    )
    if before is None:
        return solution
    if not edited and status is SolveStatus.ANSWERED and result.stdout == before.output:
        # The solve's own program run again to what it printed then (Step through): the solve's
        # answer and support stand — a cross-check's 6 does not become the program's raw [6].
        return replace(before, variables=solution.variables, isolation=solution.isolation)
    return replace(solution, calls=before.calls, programs=(*before.programs, program), repair_used=before.repair_used)


@dataclass(frozen=True)
class RunView:
    """What a window shows of one run (during a solve or by hand): views read this, not a `RunResult`."""

    text: str  # printed output, then what went to stderr, then the error
    stdout: str
    error: str | None
    error_line: int | None
    isolation: str
    values: dict[str, CapturedValue]
    trace: tuple[TraceStep, ...] | None
    ok: bool
    summary: str  # e.g. "ok (12 ms)"
    program: str = ""  # the program that ran (the stepper shows its lines)
    duration_s: float = 0.0
    backend: str = "native"  # the sandbox that ran it: "native" or "wasm"


def view_of_run(result: RunResult, program: str = "") -> RunView:
    text = result.stdout + (f"\n{result.stderr}" if result.stderr else "")
    if result.error:
        text += ("\n" if text else "") + error_text(result.error, program, result.error_line)
    return RunView(
        text=text,
        stdout=result.stdout,
        error=result.error,
        error_line=result.error_line,
        isolation=result.isolation.value,
        values=dict(result.values),
        trace=result.trace,
        ok=result.ok,
        summary=f"{result.status.value} ({result.duration_s * 1000:.0f} ms)",
        program=program,
        duration_s=result.duration_s,
        backend=result.backend,
    )


def error_text(error: str, program: str = "", line: int | None = None) -> str:
    """The error as Output shows it: in plain words first, when it can be put in words, then as Python said it."""
    words = plain_error(error, program, line)
    return f"{words}\n\n{error}" if words else error


_STATUS_ERROR_CHARS = 300


def status_detail(solution: Solution) -> str:
    """The status line for a finished solve: its message, time and, when it failed, why — in one
    line: a traceback's last line and the program's line (the whole traceback made the status bar
    three lines high and ran past the answer pane; Output shows it)."""
    error = solution.error if not solution.answered and solution.error != solution.message else None
    lines = error.strip().splitlines() if error else []
    where = f" (line {solution.error_line})" if solution.error_line and len(lines) > 1 else ""
    detail = f" — {display_text(lines[-1][:_STATUS_ERROR_CHARS])}{where}" if lines else ""  # not "cancelled — …"
    return f"{solution.message} ({solution.duration_s:.1f} s){detail}"


def speed_text(solution: Solution, n_ctx: int) -> str:
    """The status bar's speed: one call's decoding rate and context; for a vote, the programs'
    tokens over the vote's time (per-sequence rates in a batch would read as a slow model)."""
    if not solution.calls:
        return ""
    last = solution.calls[-1]
    used = last.prompt_tokens + last.completion_tokens
    if solution.samples > 1:
        tokens = sum(call.completion_tokens for call in solution.calls)
        voters = "methods" if any(sample.method for sample in solution.sampled) else "programs"
        rate = tokens / solution.duration_s if solution.duration_s > 0 else 0.0
        return f"{solution.samples} {voters}, {rate:.1f} tokens/s, context {used}/{n_ctx}"
    return f"{last.tokens_per_s:.1f} tokens/s, context {used}/{n_ctx}"
