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
from app.reasoning.session import PROGRAM_TOKENS, CancelToken, SolveSession, Stop
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


class _CountsCancels(ScriptedModel):
    def __init__(self, replies: list[str], chunk_size: int) -> None:
        super().__init__(replies, chunk_size=chunk_size)
        self.cancels = 0

    def cancel(self) -> None:
        self.cancels += 1
        super().cancel()

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        # Ignores cancel, as a server that finishes its stream would: the session must ask once.
        self._cancelled.clear()
        for item in super().generate(request):
            self._cancelled.clear()
            yield item


def test_a_complete_program_stops_the_model_once(sandbox: Sandbox) -> None:
    model = _CountsCancels([PROGRAM + "\nThis program multiplies." * 5], chunk_size=5)
    solution = solve_pal("q", model, sandbox)
    assert model.cancels == 1 and solution.answer == "42"


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
