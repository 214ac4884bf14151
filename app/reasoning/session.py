"""The steps PAL and PoT share: call the model, extract the program, run it, report progress.

A `SolveSession` lives for one solve. It records every model call, forwards progress events,
turns model and sandbox failures into statuses, and honours a `CancelToken` that another thread
may trigger at any time (it stops the model between tokens and kills a running program).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from app.data import DataSet
from app.reasoning import prompts
from app.reasoning.events import (
    Event,
    EventHandler,
    ExecutionFinished,
    ExecutionStarted,
    ModelStarted,
    ProgramExtracted,
    TokenStreamed,
)
from app.reasoning.extract import assigned_names, extract_program
from app.reasoning.solution import Draft, ModelCall, Solution, SolveStatus
from models.fences import program_arrived
from models.types import Generation, GenerationRequest, LanguageModel, ModelError
from sandbox import RunResult, Sandbox, SandboxError, Status
from sandbox.host import Emulator

MAX_QUESTION_CHARS = 20_000
PROGRAM_TOKENS = 768
FINISH_TOKENS = 512


@dataclass(frozen=True)
class Sampling:
    """How a solve samples from the model: greedy by default; self-consistency samples."""

    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None


@dataclass(frozen=True)
class Decoding:
    """Constraints on one model call: a GBNF grammar, and biases on tokens by their text."""

    grammar: str | None = None
    token_bias: Mapping[str, float] = field(default_factory=dict)


class CancelToken:
    """Cancels one solve from any thread: stops the model and the running program."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._model: LanguageModel | None = None
        self._sandbox: Sandbox | None = None

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    @property
    def event(self) -> threading.Event:
        return self._event

    def cancel(self) -> None:
        with self._lock:
            self._event.set()
            if self._model is not None:
                self._model.cancel()
            if self._sandbox is not None:
                self._sandbox.cancel()

    def bind(self, model: LanguageModel, sandbox: Sandbox) -> None:
        with self._lock:
            self._model, self._sandbox = model, sandbox


class Stop(Exception):
    """Ends a solve early with a status (raised inside a session, caught by the method)."""

    def __init__(self, status: SolveStatus, error: str | None = None) -> None:
        super().__init__(error or status.value)
        self.status, self.error = status, error


@dataclass(frozen=True)
class Limits:
    """What one program may use in the sandbox: the one place the 5 s / 512 MB defaults live."""

    time_s: float = 5.0
    memory_mb: int = 512


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class SolveContext:
    """Everything a method needs for one solve besides the question and its own options; a
    vote runs its solves in copies of it (another model, sampling or cancel)."""

    model: LanguageModel
    sandbox: Sandbox
    limits: Limits = DEFAULT_LIMITS
    sampling: Sampling = field(default_factory=Sampling)
    on_event: EventHandler | None = None
    cancel: CancelToken = field(default_factory=CancelToken)
    data: DataSet | None = None  # the user's tables: pal and pot (and their votes) compute over them

    def session(self) -> SolveSession:
        return SolveSession(
            self.model, self.sandbox, on_event=self.on_event, cancel=self.cancel, time_s=self.limits.time_s,
            memory_mb=self.limits.memory_mb, sampling=self.sampling,
            data=self.data.wire if self.data is not None else None,
        )  # fmt: skip


class ContextOptions(TypedDict, total=False):
    """The loose parameters of the seed contract (`solve_pal(question, model, sandbox, ...)`)."""

    time_s: float
    memory_mb: int
    temperature: float  # greedy (0) unless `sampling` says otherwise
    sampling: Sampling | None
    on_event: EventHandler | None
    cancel: CancelToken | None
    data: DataSet | None


def context_of(model: LanguageModel, sandbox: Sandbox, **options: Unpack[ContextOptions]) -> SolveContext:
    limits = Limits(options.get("time_s", DEFAULT_LIMITS.time_s), options.get("memory_mb", DEFAULT_LIMITS.memory_mb))
    sampling = options.get("sampling") or Sampling(options.get("temperature", 0.0))
    cancel = options.get("cancel") or CancelToken()
    return SolveContext(model, sandbox, limits, sampling, options.get("on_event"), cancel, options.get("data"))


class SolveSession:
    def __init__(
        self,
        model: LanguageModel,
        sandbox: Sandbox,
        *,
        on_event: EventHandler | None = None,
        cancel: CancelToken | None = None,
        time_s: float = DEFAULT_LIMITS.time_s,
        memory_mb: int = DEFAULT_LIMITS.memory_mb,
        sampling: Sampling | None = None,
        data: dict[str, Any] | None = None,
    ) -> None:
        """`data`: the user's tables (sandbox.data's form), given to every program as `tables`."""
        self.model, self.sandbox = model, sandbox
        self.data = data
        self.time_s, self.memory_mb = time_s, memory_mb
        self.sampling = sampling or Sampling()
        self.calls: list[ModelCall] = []
        self.last_result: RunResult | None = None
        self.started = time.monotonic()
        self._on_event = on_event
        self.cancel = cancel or CancelToken()
        self.cancel.bind(model, sandbox)

    def emit(self, event: Event) -> None:
        if self._on_event is not None:
            self._on_event(event)

    def check_cancelled(self) -> None:
        if self.cancel.cancelled:
            raise Stop(SolveStatus.CANCELLED, "cancelled")

    def ask(
        self,
        purpose: str,
        prompt: str,
        *,
        max_tokens: int,
        stop_after_program: bool,
        decoding: Decoding | None = None,
        stop: tuple[str, ...] = (),
        assistant_prefix: str = "",
    ) -> str:
        """One model call with `prompt` as the user message; returns the reply text.

        With `stop_after_program`, generation ends as soon as a complete code block has arrived
        (whatever the model would chat about afterwards is not needed).
        """
        self.check_cancelled()
        self.emit(ModelStarted(purpose))
        decoding = decoding or Decoding()
        request = GenerationRequest(
            messages=prompts.messages(prompt),
            max_tokens=max_tokens,
            temperature=self.sampling.temperature,
            top_p=self.sampling.top_p,
            seed=self.sampling.seed,
            stop=stop,
            stop_after_code_block=stop_after_program,
            grammar=decoding.grammar,
            token_bias=decoding.token_bias,
            assistant_prefix=assistant_prefix,
        )
        parts: list[str] = []
        started = time.monotonic()
        stopped_early = False
        result: Generation | None = None
        try:
            for item in self.model.generate(request):
                if isinstance(item, Generation):
                    result = item
                    break
                parts.append(item)
                self.emit(TokenStreamed(purpose, item))
                if self.cancel.cancelled:  # a cancel that came before generate() began listening
                    self.model.cancel()
                elif stop_after_program and not stopped_early and program_arrived("".join(parts)):
                    stopped_early = True  # the model stops itself (the request says so); one that does not is stopped
                    self.model.cancel()
        except ModelError as exc:
            raise Stop(SolveStatus.MODEL_ERROR, str(exc)) from exc
        reply = result.text if result else "".join(parts)
        self.calls.append(
            ModelCall(
                purpose=purpose,
                prompt=prompt,
                reply=reply,
                prompt_tokens=result.prompt_tokens if result else 0,
                completion_tokens=result.completion_tokens if result else 0,
                seconds=time.monotonic() - started,
                tokens_per_s=result.tokens_per_s if result else 0.0,
            )
        )
        self.check_cancelled()
        return reply

    def program_from(self, reply: str, attempt: int) -> str | None:
        program = extract_program(reply)
        if program is not None:
            self.emit(ProgramExtracted(program, attempt))
        return program

    def run(self, program: str, attempt: int, *, capture: Iterable[str], emulate: Emulator | None = None) -> RunResult:
        self.check_cancelled()
        self.emit(ExecutionStarted(attempt))
        try:
            result = self.sandbox.run(
                program,
                time_s=self.time_s,
                memory_mb=self.memory_mb,
                capture=tuple(dict.fromkeys([*capture, *assigned_names(program)])),
                cancel_event=self.cancel.event,
                emulate=emulate,
                data=self.data,
            )
        except SandboxError as exc:
            raise Stop(SolveStatus.SANDBOX_UNAVAILABLE, str(exc)) from exc
        self.last_result = result
        self.emit(ExecutionFinished(attempt, result))
        self.check_cancelled()
        return result

    def elapsed(self) -> float:
        return time.monotonic() - self.started


def conclude(session: SolveSession, draft: Draft, steps: Callable[[], tuple[SolveStatus, str | None]]) -> Solution:
    """Run a method's `steps`, turn an early `Stop` into its status and return the Solution."""
    try:
        status, answer = steps()
    except Stop as stop:
        status, answer = stop.status, None
        draft.error = stop.error
    return draft.build(status, answer, session.calls, session.elapsed())


def first_program(session: SolveSession, draft: Draft, prompt: str, decoding: Decoding | None = None) -> str:
    """Check the question, ask for a program with `prompt`, and extract it (or stop)."""
    require_question(draft.question)
    reply = session.ask("program", prompt, max_tokens=PROGRAM_TOKENS, stop_after_program=True, decoding=decoding)
    program = session.program_from(reply, attempt=1)
    if program is None:
        raise Stop(SolveStatus.NO_PROGRAM, "the model's reply contains no program")
    draft.programs.append(program)
    return program


def require_question(question: str) -> None:
    problem = check_question(question)
    if problem:
        raise Stop(SolveStatus.INVALID_QUESTION, problem)


def check_question(question: str) -> str | None:
    """Why `question` cannot be solved, or None when it is fine."""
    if not question.strip():
        return "the question is empty"
    if len(question) > MAX_QUESTION_CHARS:
        return f"the question is {len(question):,} characters long; the limit is {MAX_QUESTION_CHARS:,}"
    return None


def failure_status(result: RunResult) -> SolveStatus:
    """The solve status for a run that did not succeed."""
    return {
        Status.TIMEOUT: SolveStatus.TIMEOUT,
        Status.MEMORY: SolveStatus.MEMORY_LIMIT,
        Status.OUTPUT_LIMIT: SolveStatus.OUTPUT_LIMIT,
    }.get(result.status, SolveStatus.EXECUTION_FAILED)
