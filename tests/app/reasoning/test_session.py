"""One solve's session: the events it emits, the calls it records, how it stops (ScriptedModel,
the real sandbox)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from app.reasoning import SolveStatus, solve_pal
from app.reasoning.events import (
    Event,
    ExecutionFinished,
    ExecutionStarted,
    ModelStarted,
    ProgramExtracted,
    TokenStreamed,
)
from app.reasoning.session import MAX_QUESTION_CHARS, PROGRAM_TOKENS, CancelToken, SolveSession, Stop, check_question
from models.testing import ScriptedModel
from models.types import Generation, GenerationRequest
from sandbox import Sandbox, SandboxError, Status

PROGRAM = "```python\nx = 6\nprint(x * 7)\n```"


def test_a_solve_emits_its_steps_in_order(sandbox: Sandbox) -> None:
    events: list[Event] = []
    solution = solve_pal("q", ScriptedModel([PROGRAM], chunk_size=10), sandbox, on_event=events.append)
    chunks = [PROGRAM[i : i + 10] for i in range(0, len(PROGRAM), 10)]
    assert events[0] == ModelStarted("program")
    assert events[1 : 1 + len(chunks)] == [TokenStreamed("program", chunk) for chunk in chunks]
    rest = events[1 + len(chunks) :]
    assert rest[:2] == [ProgramExtracted("x = 6\nprint(x * 7)", 1), ExecutionStarted(1)]
    assert isinstance(rest[2], ExecutionFinished) and rest[2].attempt == 1 and rest[2].result.stdout == "42\n"
    assert len(rest) == 3 and solution.answer == "42"


def test_each_call_is_recorded_with_its_tokens_and_time(sandbox: Sandbox) -> None:
    model = ScriptedModel([PROGRAM])
    call = solve_pal("What is 6 * 7?", model, sandbox).calls[0]
    assert call.purpose == "program" and call.reply == PROGRAM and "What is 6 * 7?" in call.prompt
    assert call.prompt_tokens == len(model.calls[0].split()) and call.completion_tokens == len(PROGRAM.split())
    assert 0.0 <= call.seconds < 30.0
    request = model.requests[0]
    assert request.max_tokens == PROGRAM_TOKENS and request.stop_after_code_block is True


class _NoSummary(ScriptedModel):
    """Streams its reply but never sends the closing Generation (a backend that just ends)."""

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        for item in super().generate(request):
            if isinstance(item, str):
                yield item


def test_a_stream_without_its_summary_still_counts(sandbox: Sandbox) -> None:
    call = solve_pal("q", _NoSummary([PROGRAM], chunk_size=7), sandbox).calls[0]
    assert call.reply == PROGRAM
    assert (call.prompt_tokens, call.completion_tokens, call.tokens_per_s) == (0, 0, 0.0)


class _IgnoresCancel(ScriptedModel):
    """Streams its whole reply whatever it is told (a server that finishes its stream), with a
    summary whose text and speed are its own; counts the cancels it is sent."""

    def __init__(self, reply: str, final_text: str | None = None) -> None:
        super().__init__([])
        self.reply, self.final_text, self.cancels = reply, final_text, 0

    def cancel(self) -> None:
        self.cancels += 1

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        self.requests.append(request)
        for start in range(0, len(self.reply), 5):
            yield self.reply[start : start + 5]
        yield Generation(self.final_text or self.reply, 7, 0, 9, 0.5, 2.0, "stop")


def test_a_complete_program_stops_the_model_once(sandbox: Sandbox) -> None:
    model = _IgnoresCancel(PROGRAM + "\nThis program multiplies." * 5)
    solution = solve_pal("q", model, sandbox)
    assert model.cancels == 1 and solution.answer == "42"


def test_the_summary_is_the_reply_and_its_figures_are_kept(sandbox: Sandbox) -> None:
    model = _IgnoresCancel("```python\nprint(1)\n```", final_text=PROGRAM)  # e.g. a stop string trimmed
    call = solve_pal("q", model, sandbox).calls[0]
    assert call.reply == PROGRAM
    speed = Generation(PROGRAM, 7, 0, 9, 0.5, 2.0, "stop").tokens_per_s
    assert speed > 0 and (call.prompt_tokens, call.completion_tokens, call.tokens_per_s) == (7, 9, speed)


def test_cancel_reaches_a_model_that_has_not_streamed_yet(sandbox: Sandbox) -> None:
    """Reading a long prompt yields nothing for seconds: the token must stop the model itself."""
    cancel = CancelToken()
    threading.Timer(0.3, cancel.cancel).start()
    started = time.monotonic()
    model = ScriptedModel([PROGRAM], chunk_size=len(PROGRAM), chunk_delay_s=20.0)
    solution = solve_pal("q", model, sandbox, cancel=cancel)
    assert solution.status is SolveStatus.CANCELLED and time.monotonic() - started < 10.0


class _CancelsAsItStarts:
    """A sandbox wrapper: the user cancels just as the run starts (after the session's check)."""

    def __init__(self, sandbox: Sandbox, token: CancelToken) -> None:
        self.sandbox, self.token = sandbox, token

    def run(self, code: str, **kwargs: object) -> object:
        self.token.cancel()
        return self.sandbox.run(code, **kwargs)  # type: ignore[arg-type]

    def cancel(self) -> None:
        self.sandbox.cancel()


def test_a_cancel_just_before_the_run_still_stops_it(sandbox: Sandbox) -> None:
    cancel = CancelToken()
    racing = _CancelsAsItStarts(sandbox, cancel)
    started = time.monotonic()
    program = "```python\nimport time\ntime.sleep(20)\n```"
    solution = solve_pal("q", ScriptedModel([program]), racing, cancel=cancel, time_s=30.0)  # type: ignore[arg-type]
    assert solution.status is SolveStatus.CANCELLED and time.monotonic() - started < 10.0


def test_questions_refused_with_the_reason(sandbox: Sandbox) -> None:
    assert check_question("  ") == "the question is empty"
    assert check_question("x" * MAX_QUESTION_CHARS) is None
    assert check_question("x" * (MAX_QUESTION_CHARS + 1)) is not None
    solution = solve_pal("q", ScriptedModel(["I would rather not."]), sandbox)
    assert solution.status is SolveStatus.NO_PROGRAM and solution.error == "the model's reply contains no program"
    assert 0.0 <= solution.duration_s < 30.0


def test_a_new_session_has_run_nothing(sandbox: Sandbox) -> None:
    assert SolveSession(ScriptedModel([]), sandbox).last_result is None


def test_a_model_error_ends_the_solve_with_its_message(sandbox: Sandbox) -> None:
    solution = solve_pal("q", ScriptedModel([]), sandbox)
    assert solution.status is SolveStatus.MODEL_ERROR
    assert solution.error == "scripted has no reply left for call 1"


class _Unavailable:
    def run(self, *_args: object, **_kwargs: object) -> None:
        raise SandboxError("no isolation on this system")


def test_a_sandbox_that_cannot_run_ends_the_solve_with_its_message() -> None:
    solution = solve_pal("q", ScriptedModel([PROGRAM]), _Unavailable())  # type: ignore[arg-type]
    assert solution.status is SolveStatus.SANDBOX_UNAVAILABLE
    assert solution.error == "no isolation on this system"


def test_stop_messages() -> None:
    assert str(Stop(SolveStatus.NO_PROGRAM)) == "no_program"
    assert str(Stop(SolveStatus.NO_PROGRAM, "none here")) == "none here"


def test_a_cancelled_solve_says_so(sandbox: Sandbox) -> None:
    cancel = CancelToken()
    cancel.cancel()
    solution = solve_pal("q", ScriptedModel([PROGRAM]), sandbox, cancel=cancel)
    assert solution.status is SolveStatus.CANCELLED and solution.error == "cancelled"


def test_cancel_ends_a_running_program(sandbox: Sandbox) -> None:
    cancel = CancelToken()
    threading.Timer(0.5, cancel.cancel).start()
    started = time.monotonic()
    program = "```python\nimport time\ntime.sleep(20)\n```"
    solution = solve_pal("q", ScriptedModel([program]), sandbox, cancel=cancel, time_s=30.0)
    assert solution.status is SolveStatus.CANCELLED
    assert time.monotonic() - started < 10.0


@pytest.mark.parametrize(
    ("program", "limits", "status"),
    [
        ("import time\ntime.sleep(3)", {"time_s": 1.0}, Status.TIMEOUT),
        ("block = bytearray(300 * 1024 * 1024)", {"memory_mb": 128}, Status.MEMORY),
        ("import time\ntime.sleep(0.2)\nblock = bytearray(64 * 1024 * 1024)", {}, Status.OK),
    ],
)
def test_the_sessions_limits_reach_the_sandbox(
    sandbox: Sandbox, program: str, limits: dict[str, float], status: Status
) -> None:
    session = SolveSession(ScriptedModel([]), sandbox, **limits)  # type: ignore[arg-type]
    assert session.run(program, 1, capture=()).status is status


def test_every_assigned_name_is_captured(sandbox: Sandbox) -> None:
    session = SolveSession(ScriptedModel([]), sandbox)
    result = session.run("a = 1\nfor i in range(2):\n    b = i", 1, capture=("ans",))
    assert set(result.values) == {"a", "i", "b"}
    assert session.last_result is result


def test_data_reaches_the_program(sandbox: Sandbox) -> None:
    table = {"columns": ["n"], "types": ["number"], "rows": [[3]]}
    session = SolveSession(ScriptedModel([]), sandbox, data={"t": table})
    result = session.run("ans = tables['t'][0]['n']", 1, capture=("ans",))
    assert result.ok and result.values["ans"].json == 3
