"""`SolveController`: what the window asks for (load a model, solve, run, repair, cancel), done
off the UI thread through `Background`, each job with its own typed result callback, the results
delivered to the window as signals.

It owns no widgets; the window listens. Jobs never touch Qt objects: they report plain data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.data import DataError, DataSet, open_data
from app.reasoning import (
    CancelToken,
    ExecutionFinished,
    ExecutionStarted,
    ModelStarted,
    ProgramExtracted,
    Solution,
    TokenStreamed,
)
from app.reasoning.events import PHASES, LaneFinished, LaneStreamed, LanesWaiting, VoteStarted
from app.reasoning.extract import assigned_names
from app.reasoning.graphs import GRAPH_NAME, GRAPH_PROBE, Graph, graph_of
from app.reasoning.methods import OPTIONS, Limits, Method, solve
from app.reasoning.pal import explain_line, propose_repair
from app.reasoning.runs import solution_of_run, view_of_run
from app.reasoning.solve_log import log_solution
from app.settings import Settings
from app.store import settings as settings_store
from app.store.history import History
from app.ui.background import Background, Report
from models.types import LanguageModel
from sandbox import RunResult, Sandbox, SandboxError, Status

T = TypeVar("T")
ModelFactory = Callable[[Callable[[int, int], None]], LanguageModel]  # receives an assembly progress callback


@dataclass(frozen=True)
class SandboxReady:
    isolation: str  # "strong", "partial", "none" or "unavailable"
    problem: str | None
    layers: tuple[str, ...] = ()  # each layer in words, ✓ or ✗ first


def sandbox_ready(sandbox: Sandbox) -> SandboxReady:
    """Start the sandbox (on a worker thread: it may take minutes the first time) and describe it."""
    try:
        level = sandbox.isolation.value
        return SandboxReady(
            level, None, tuple(f"{'✓' if x.active else '✗'} {x.name}: {x.detail}" for x in sandbox.layers)
        )
    except SandboxError as exc:
        return SandboxReady("unavailable", str(exc))


@dataclass(frozen=True)
class LoadProgress:
    done: int
    total: int


class SolveController(QObject):
    """Signals: model_ready(str), model_failed(str), busy(bool), phase(str), token(str),
    program(str), solved(object: Solution), ran(object: RunResult), hand_run(object: Solution),
    repaired(object: str | None), failed(str), history_changed().

    Each solve is recorded in the history step by step (start, program, run, end) and, once it
    ends, in the solve log."""

    model_ready = Signal(str)
    model_failed = Signal(str)
    busy = Signal(bool)
    phase = Signal(str)
    token = Signal(str)  # a program as it streams (shown in the editor)
    reasoning_token = Signal(str)  # chain of thought's words as they stream (shown under Output)
    program = Signal(str)
    vote_started = Signal(object)  # tuple[str, ...]: a vote's lanes, one per solve, by name
    lane_text = Signal(int, str)  # lane, model text of that solve as it is decoded
    lane_finished = Signal(int, object, object)  # lane, its answer (None: failed), its program or None
    lanes_waiting = Signal(object, str)  # tuple[int, ...]: lanes decoded in a later turn, and why
    solved = Signal(object)
    ran = Signal(object)
    repaired = Signal(object)
    hand_run = Signal(object)  # Solution: a program run by hand, as the current solution
    failed = Signal(str)
    history_changed = Signal()
    isolation = Signal(str, object)  # level, problem text or None
    graph_ready = Signal(object)  # Graph: an equation's curves and solutions, sampled in the sandbox
    explain_token = Signal(str)  # an explanation of a line as it streams
    explained = Signal(int, str)  # line number, the explanation ("" when none came)
    repair_token = Signal(str)  # a repair the user asked for, as it streams (shown beside the program)
    run_shown = Signal(object)  # RunView: what a window shows of a run (during a solve or by hand)
    data_opened = Signal(object, object)  # DataSet, Path: a data file read and ready for questions
    data_failed = Signal(str)  # why a data file cannot be used
    load_progress = Signal(int, int)  # bytes done, bytes total while the model is prepared
    sandbox_preparing = Signal(str)  # the WebAssembly sandbox's one-time compile, how far it is

    def __init__(
        self, sandbox: Sandbox, history: History, *, solve_log: Path, settings_path: Path, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.sandbox = sandbox
        self.history = history
        self.isolation_level = "unknown"  # until the sandbox worker says
        self._vote_lanes: tuple[str, ...] = ()  # the vote in progress, if any: its phase is the vote's
        self._vote_done = 0
        self._program = ""  # the solve's program that runs next (its errors are put in words against it)
        self.sandbox_layers: tuple[str, ...] = ()
        self._solve_log = solve_log
        self._settings_path = settings_path
        self._solve_id: int | None = None
        self._closed = False
        self.model: LanguageModel | None = None
        self._cancel: CancelToken | None = None
        self._background = Background(self)
        self._background.busy_changed.connect(self.busy)
        # Called on whichever thread starts the sandbox; a signal crosses to the window's thread.
        self.sandbox.on_preparing = self.sandbox_preparing.emit
        self.sandbox_preparing.connect(self.phase)

    @property
    def is_busy(self) -> bool:
        return self._background.busy

    @property
    def needs_consent(self) -> bool:
        """Programs would run with no isolation at all and the user has not agreed to that yet."""
        return self.isolation_level == "none" and not self.sandbox.allow_unisolated

    @property
    def sandbox_name(self) -> str:
        """The running backend in words, for the status bar and the guide."""
        return "WebAssembly" if self.sandbox.backend == "wasm" else "native"

    def use_sandbox(self, choice: str) -> None:
        """Switch the sandbox backend ("auto", "native", "wasm"); the next run starts the new one,
        which is started (and reported) now, off the window's thread."""
        self.sandbox.choose(choice)

        def job(report: Report) -> None:
            report(sandbox_ready(self.sandbox))

        self._background.submit(
            job,
            on_success=lambda _none: None,
            on_failure=lambda _exc: None,
            on_progress=self._on_progress,
            name="sandbox",
        )

    def allow_unisolated(self) -> None:
        """The user agreed to run programs unprotected, for this session."""
        self.sandbox.allow_unisolated = True

    def save_settings(self, settings: Settings) -> None:
        settings_store.save(settings, self._settings_path)

    def load_model(self, factory: ModelFactory) -> None:
        def job(report: Report) -> LanguageModel:
            report(sandbox_ready(self.sandbox))  # warm the sandbox worker too, and tell how well it isolates
            return factory(lambda done, total: report(LoadProgress(done, total)))

        def loaded(model: LanguageModel) -> None:
            if self._closed:
                model.close()
                return
            previous, self.model = self.model, model
            if previous is not None and previous is not model:
                previous.close()  # a reload (other settings): the old weights are freed, not left to the collector
            self.model_ready.emit(model.name)

        self.phase.emit("Loading the model…")
        self._background.submit(
            job, on_success=loaded, on_failure=self._live(lambda exc: self.model_failed.emit(_message(exc))),
            on_progress=self._on_progress, name="model load",
        )  # fmt: skip

    def open_data(self, path: Path) -> None:
        """Read a data file off the UI thread (50,000 rows take a moment)."""

        def job(_report: Report) -> DataSet:
            return open_data(path)

        def failed(error: Exception) -> None:
            message = str(error) if isinstance(error, DataError) else f"{path.name} cannot be read: {error}"
            self.data_failed.emit(message)

        self.phase.emit(f"Reading {path.name}…")
        self._background.submit(
            job, on_success=self._live(lambda data: self.data_opened.emit(data, path)), on_failure=self._live(failed),
            name="data file",
        )  # fmt: skip

    def solve(
        self, question: str, method: str, *, repair: bool, settings: Settings, data: DataSet | None = None
    ) -> None:
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()
        self._vote_lanes, self._vote_done = (), 0
        self._solve_id = self.history.start(question, method, {"repair": repair, **asdict(settings)})
        self.history_changed.emit()
        limits, temperature = Limits(settings.time_s, settings.memory_mb), settings.temperature

        spec = Method.parse(method)
        if repair and "repair" in OPTIONS[spec.base]:
            spec = replace(spec, options=spec.options | {"repair"})

        def job(report: Report) -> Solution:
            return solve(
                question, spec, model, self.sandbox, limits=limits, temperature=temperature, on_event=report,
                cancel=token, data=data,
            )  # fmt: skip

        self._background.submit(
            job, on_success=self._live(self._on_solved), on_failure=self._live(self._on_solve_failed),
            on_progress=self._on_progress, name="solve",
        )  # fmt: skip

    def run_program(
        self,
        code: str,
        *,
        settings: Settings,
        trace: bool = False,
        question: str = "",
        edits: Solution | None = None,
        data: DataSet | None = None,
    ) -> None:
        """Run `code` by hand. The run becomes the current solution (`hand_run`), read as a solve
        reads answers, and is saved to the history, so an edit or an accepted repair is never lost;
        `edits` is the solve whose program was edited (its model calls stay with the new one);
        `data` is the open data file, which the program reads as `tables`."""
        self._cancel = None
        capture = tuple(dict.fromkeys(["ans", *assigned_names(code)]))

        def job(_report: Report) -> RunResult:
            return self.sandbox.run(
                code, time_s=settings.time_s, memory_mb=settings.memory_mb, capture=capture, trace=trace,
                data=data.wire if data is not None else None,
            )  # fmt: skip

        # Running or stepping through the solve's own program is looking at it, not editing it: only
        # a real edit (or a program typed by hand) becomes a solve of its own in the history.
        edited = edits is None or code.strip() != (edits.program or "").strip()

        def ran(run: RunResult) -> None:
            solution = solution_of_run(question, code, run, edits)
            if question.strip() and run.status is not Status.KILLED and edited:
                solve_id = self.history.start(question, solution.method, {})
                self.history.finish(solve_id, solution)
                self.history_changed.emit()
            self.ran.emit(run)
            self.run_shown.emit(view_of_run(run, code))
            self.hand_run.emit(solution)

        self.phase.emit("Running the program in the sandbox…")
        self._background.submit(
            job, on_success=self._live(ran), on_failure=self._live(self._on_job_failed), name="hand run"
        )

    def repair(self, question: str, program: str, error: str) -> None:
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()

        def job(report: Report) -> str | None:
            return propose_repair(question, program, error, model, self.sandbox, on_event=report, cancel=token)

        self._background.submit(
            job, on_success=self._live(self.repaired.emit), on_failure=self._live(self._on_job_failed),
            on_progress=self._on_repair_progress, name="repair",
        )  # fmt: skip

    def graph(self, program: str, settings: Settings) -> None:
        """Sample the program's equation in the sandbox (the program runs again with the probe)."""

        def job(_report: Report) -> Graph | None:
            result = self.sandbox.run(
                program + "\n" + GRAPH_PROBE,
                time_s=settings.time_s,
                memory_mb=settings.memory_mb,
                capture=(GRAPH_NAME,),
            )
            return graph_of(result.values.get(GRAPH_NAME)) if result.ok else None

        def drawn(graph: Graph | None) -> None:
            if graph is not None:
                self.graph_ready.emit(graph)

        self._background.submit(
            job, on_success=self._live(drawn), on_failure=self._live(self._on_job_failed), name="graph"
        )

    def explain_line(self, question: str, program: str, number: int) -> None:
        """The model explains line `number` in a sentence or two, streamed (Esc stops it)."""
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()

        def job(report: Report) -> str:
            return explain_line(question, program, number, model, self.sandbox, on_event=report, cancel=token)

        def progress(payload: object) -> None:
            if isinstance(payload, TokenStreamed) and not self._closed:
                self.explain_token.emit(payload.text)

        self._background.submit(
            job, on_success=self._live(lambda text: self.explained.emit(number, text)),
            on_failure=self._live(self._on_job_failed), on_progress=progress, name="explain line",
        )  # fmt: skip

    def cancel(self) -> None:
        """Stop whatever runs: the model within a token, a running program at once."""
        if self._cancel is not None:
            self._cancel.cancel()
        self.sandbox.cancel()

    def shutdown(self) -> None:
        self.cancel()
        self._background.shutdown()
        # Deliver what the last job reported before the history closes, so it records how it ended.
        QCoreApplication.sendPostedEvents(self._background)
        self._closed = True
        self.sandbox.close()
        self.history.close()

    def _live(self, callback: Callable[[T], None]) -> Callable[[T], None]:
        """`callback`, skipped once the controller is shut down (a late result has no window)."""

        def call(value: T) -> None:
            if not self._closed:
                callback(value)

        return call

    def _on_progress(self, payload: object) -> None:
        if self._closed:
            return
        if isinstance(payload, SandboxReady):
            self.isolation_level, self.sandbox_layers = payload.isolation, payload.layers
            self.isolation.emit(payload.isolation, payload.problem)
        elif isinstance(payload, LoadProgress) and payload.total:
            self.load_progress.emit(payload.done, payload.total)
            self.phase.emit(f"Preparing the model… {100 * payload.done // payload.total}%")
        elif isinstance(payload, TokenStreamed):  # words are no program: they never go in the editor
            (self.reasoning_token if payload.purpose == "reasoning" else self.token).emit(payload.text)
        elif isinstance(payload, LaneStreamed):
            self.lane_text.emit(payload.lane, payload.text)
        elif isinstance(payload, LaneFinished):
            self.lane_finished.emit(payload.lane, payload.answer, payload.program)
            self._vote_done += 1
            self.phase.emit(self._vote_phase())
        elif isinstance(payload, VoteStarted):
            self.vote_started.emit(payload.lanes)
            self._vote_lanes, self._vote_done = payload.lanes, 0
            self.phase.emit(self._vote_phase())
        elif isinstance(payload, LanesWaiting):
            self.lanes_waiting.emit(payload.lanes, payload.reason)
            self.phase.emit(PHASES["turns"] + "…")
        elif isinstance(payload, ModelStarted) and not self._vote_lanes:  # a vote's phase is the vote's
            self.phase.emit(PHASES.get(payload.purpose, "Writing the program") + "…")
        elif isinstance(payload, ProgramExtracted):
            self._program = payload.program
            self._record(program=payload.program)
            self.program.emit(payload.program)
        elif isinstance(payload, ExecutionStarted) and not self._vote_lanes:
            self.phase.emit("Running the program in the sandbox…")
        elif isinstance(payload, ExecutionFinished):
            self._record(output=payload.result.stdout, error=payload.result.error)
            self.ran.emit(payload.result)
            self.run_shown.emit(view_of_run(payload.result, self._program))

    def _vote_phase(self) -> str:
        """A vote's own phase: "3 methods working… 1 of 3 done", not one method's words."""
        lanes = self._vote_lanes
        programs = all(label.startswith("Program") for label in lanes)
        working = f"{len(lanes)} programs being written" if programs else f"{len(lanes)} methods working"
        return f"{working}… {self._vote_done} of {len(lanes)} done" if self._vote_done else f"{working}…"

    def _on_repair_progress(self, payload: object) -> None:
        if isinstance(payload, TokenStreamed):
            if not self._closed:
                self.repair_token.emit(payload.text)
        else:
            self._on_progress(payload)

    def _on_solved(self, solution: Solution) -> None:
        if self._solve_id is not None:
            self.history.finish(self._solve_id, solution)
            self._solve_id = None
            self.history_changed.emit()
        log_solution(solution, self._solve_log)
        self.solved.emit(solution)

    def _on_solve_failed(self, error: Exception) -> None:
        self._record(status="failed", error=_message(error))
        self._solve_id = None
        self.history_changed.emit()
        self.failed.emit(_message(error))

    def _on_job_failed(self, error: Exception) -> None:
        self.failed.emit(_message(error))

    def _record(self, **fields: str | None) -> None:
        if self._solve_id is not None:
            self.history.update(self._solve_id, **fields)


def _message(error: Exception) -> str:
    return str(error) or type(error).__name__
