"""`SolveController`: what the window asks for (load a model, solve, run, repair, explain,
cancel), done off the UI thread through `Background`. Job results go into `Work` (the window's one
model); every progress event a job reports is published on `Events`, one typed subscription keyed
by event class, which the views (and the controller's own bookkeeping) subscribe to.

It owns no widgets and draws nothing. Jobs never touch Qt objects: they report plain data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.data import DataError, DataSet, open_data
from app.reasoning import CancelToken, ExecutionFinished, ProgramExtracted, Solution
from app.reasoning.check_working import check_working
from app.reasoning.extract import assigned_names
from app.reasoning.graphs import GRAPH_NAME, GRAPH_PROBE, Graph, graph_of, wants_graph
from app.reasoning.methods import DEFAULT_METHOD, OPTIONS, Method, solve, warm_up
from app.reasoning.pal import explain_line, propose_repair
from app.reasoning.practice import make_variants
from app.reasoning.runs import solution_of_run, view_of_run
from app.reasoning.session import Limits
from app.reasoning.solution import Sample, Vote
from app.reasoning.solve_log import log_solution
from app.settings import Settings
from app.store import settings as settings_store
from app.store.history import History
from app.store.speeds import Speeds
from app.ui.background import Background, Report
from app.ui.events import (
    DataOpened,
    DataRefused,
    Events,
    LineExplained,
    LoadProgress,
    ModelLoading,
    Phase,
    RepairProposed,
    SandboxPreparing,
    SandboxReady,
    SandboxStarting,
    Warming,
)
from app.ui.work import Work
from models import catalog
from models.types import LanguageModel
from sandbox import RunResult, Sandbox, SandboxError, Status

T = TypeVar("T")
ModelFactory = Callable[[Callable[[int, int], None]], LanguageModel]  # receives an assembly progress callback
# Why there is nothing to check a student's working against, or no program to vary (said on
# hover by the buttons that ask, which are off, and here should they ask anyway).
NOTHING_SOLVED = "Solve the question first: your working is checked against its solution."
NO_ANSWER_TO_CHECK = "This solve gave no answer to check your working against: solve it again (Ctrl+Enter)."
NOTHING_TO_VARY = "Solve a question with a program first: its numbers are what changes."
NO_PROGRAM_TO_VARY = "This answer came without a program, and a question like it is made by changing its numbers."


def sandbox_ready(sandbox: Sandbox) -> SandboxReady:
    """Start the sandbox (on a worker thread: it may take minutes the first time) and describe it."""
    backend = backend_words(sandbox)
    try:
        level = sandbox.isolation.value
        layers = tuple(f"{'✓' if x.active else '✗'} {x.name}: {x.detail}" for x in sandbox.layers)
        return SandboxReady(level, None, layers, backend)
    except SandboxError as exc:
        return SandboxReady("unavailable", str(exc), (), backend)


def backend_words(sandbox: Sandbox) -> str:
    """The sandbox's backend as the status bar and the guide name it."""
    return "WebAssembly" if sandbox.backend == "wasm" else "native"


class SolveController(QObject):
    """Signals: model_ready(str: its name), model_failed(str: why), busy(bool), failed(str: why a
    job failed), history_changed(). Results go into `work`, progress onto `events`.

    Each solve is recorded in the history step by step (start, program, run, end) and, once it
    ends, in the solve log."""

    model_ready = Signal(str)
    model_failed = Signal(str)
    busy = Signal(bool)
    failed = Signal(str)
    history_changed = Signal()

    def __init__(
        self,
        sandbox: Sandbox,
        history: History,
        *,
        solve_log: Path,
        settings_path: Path,
        speeds: Speeds,
        settings: Settings | None = None,
        factory_for: Callable[[Settings], ModelFactory] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """`settings` are the user's (saved to `settings_path` when they change); `factory_for`
        makes the model they name, for a reload when they name another; `speeds` keeps how fast
        each model decodes here."""
        super().__init__(parent)
        self.sandbox = sandbox
        self.settings = settings or Settings()
        self._factory_for = factory_for
        self.history = history
        self.work = Work(self)
        self.events = Events(self)
        self.isolation_level = "unknown"  # until the sandbox worker says
        self._program = ""  # the solve's program that runs next (its errors are put in words against it)
        self._solve_log = solve_log
        self._settings_path = settings_path
        self.speeds = speeds
        self._solve_id: int | None = None
        self._closed = False
        self.model: LanguageModel | None = None
        self._cancel: CancelToken | None = None
        self._warming: LanguageModel | None = None  # the model reading its prompts ahead, if it is
        self.warm_method = DEFAULT_METHOD  # the method whose prompts are read ahead (the window's pick)
        self._background = Background(self)
        self._background.busy_changed.connect(self.busy)
        # Called on whichever thread starts the sandbox: posted, it reaches the views on theirs.
        self.sandbox.on_preparing = lambda text: self.events.post(SandboxPreparing(text))
        self.events.subscribe(SandboxReady, self._on_sandbox_ready)
        self.events.subscribe(ProgramExtracted, self._on_program_extracted)
        self.events.subscribe(ExecutionFinished, self._on_execution_finished)
        self.work.attempt.connect(self._on_attempt)
        self.work.tallied(history.practice_tally(), history.practice_attempts())
        # Each variant asked for has its own seed, so its numbers differ: counted on from the
        # newest solve saved, so a restarted app does not offer last session's first variant again.
        self._variants = 0

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
        return backend_words(self.sandbox)

    def use_sandbox(self, choice: str) -> None:
        """Switch the sandbox backend ("auto", "native", "wasm"); the next run starts the new one,
        which is started (and reported) now, off the window's thread."""
        self.sandbox.choose(choice)

        def job(report: Report) -> None:
            report(sandbox_ready(self.sandbox))

        self._submit(job, lambda _none: None, lambda _exc: None, name="sandbox")

    def allow_unisolated(self) -> None:
        """The user agreed to run programs unprotected, for this session."""
        self.sandbox.allow_unisolated = True

    def apply_settings(self, settings: Settings) -> None:
        """Keep `settings` (saved at once); start the other sandbox if that changed, and load the
        model again if it is a different one (not while work runs: the next change applies)."""
        previous, self.settings = self.settings, settings
        settings_store.save(settings, self._settings_path)
        if settings.sandbox != previous.sandbox and not self.is_busy:
            self.events.publish(SandboxStarting())
            self.use_sandbox(settings.sandbox)
        if settings.model_differs(previous) and self._factory_for is not None and not self.is_busy:
            self.load_model(self._factory_for(settings))

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
            self._warm_up(model)

        self.events.publish(ModelLoading())
        self._background.submit(
            job, on_success=loaded, on_failure=self._live(lambda exc: self.model_failed.emit(_message(exc))),
            on_progress=self._live(self.events.publish), name="model load",
        )  # fmt: skip

    def _warm_up(self, model: LanguageModel) -> None:
        """Read the picked method's prompts into the model's cache while the user types the first
        question, so that solve is as quick as the rest. Quiet: the window is not busy, and any
        work the user starts stops it within a chunk of a prompt (it then reads what it needs)."""
        if not model.capabilities.prompt_cache:
            return
        self._warming, method = model, self.warm_method

        def job(_report: Report) -> int:
            return warm_up(model, self.sandbox, method)

        def done(_result: object) -> None:
            self._warming = None
            self.events.publish(Warming(done=True))

        self.events.publish(Warming(done=False))
        self._background.submit(
            job, on_success=self._live(done), on_failure=self._live(done), name="warm-up", quiet=True
        )

    def _stop_warming(self) -> None:
        if self._warming is not None:
            self._warming.cancel()

    def open_data(self, path: Path) -> None:
        """Read a data file off the UI thread (50,000 rows take a moment)."""

        def job(_report: Report) -> DataSet:
            return open_data(path)

        def failed(error: Exception) -> None:
            message = str(error) if isinstance(error, DataError) else f"{path.name} cannot be read: {error}"
            self.events.publish(DataRefused(message))

        self.events.publish(Phase(f"Reading {path.name}…"))
        self._submit(job, lambda data: self.events.publish(DataOpened(data, path)), failed, name="data file")

    def solve(self, question: str, method: str, *, repair: bool, data: DataSet | None = None) -> None:
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()
        settings = self.settings
        self.work.start_over(question)
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

        self._submit(job, self._on_solved, self._on_solve_failed, name="solve")

    def run_program(
        self,
        code: str,
        *,
        trace: bool = False,
        question: str = "",
        data: DataSet | None = None,
    ) -> None:
        """Run `code` by hand. The run becomes the current solution (`Work.ran_by_hand`), read as
        a solve reads answers, and is saved to the history, so an edit or an accepted repair is
        never lost; the solve whose program was edited (`Work.solve`) keeps its model calls with
        the new one; `data` is the open data file, which the program reads as `tables`."""
        self._cancel = None
        capture = tuple(dict.fromkeys(["ans", *assigned_names(code)]))
        edits, settings = self.work.solve, self.settings

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
            self.work.ran_by_hand(view_of_run(run, code), solution)
            if run.ok and wants_graph(question, code):  # Ctrl+R on an equation draws it, as a solve does
                self.graph(code)

        self.events.publish(Phase("Running the program in the sandbox…"))
        self._submit(job, ran, self._on_job_failed, name="hand run")

    def repair(self, question: str, program: str, error: str | None, data: DataSet | None = None) -> None:
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()

        def job(report: Report) -> str | None:
            return propose_repair(
                question, program, error, model, self.sandbox, data=data, on_event=report, cancel=token
            )

        def failed(error: Exception) -> None:
            self.events.publish(RepairProposed(program, None))  # the half-written repair goes
            self._on_job_failed(error)

        proposed = lambda fixed: self.events.publish(RepairProposed(program, fixed))  # noqa: E731
        self._submit(job, proposed, failed, name="repair")

    def graph(self, program: str) -> None:
        """Sample the program's equation in the sandbox (the program runs again with the probe)."""
        settings = self.settings

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
                self.work.graphed(graph)

        self._submit(job, drawn, self._on_job_failed, name="graph")

    def check_working(self, working: str) -> None:
        """The student's working checked against the solution shown (its program's quantities)."""
        solution = self.work.solution
        if solution is None or not solution.answered:
            self.failed.emit(NOTHING_SOLVED if solution is None else NO_ANSWER_TO_CHECK)
            return
        job = lambda _report: check_working(working, solution, self.sandbox)  # noqa: E731

        def failed(error: Exception) -> None:
            self.work.working_checked(None)  # no "Checking your working…" left standing
            self._on_job_failed(error)

        self._submit(job, self.work.working_checked, failed, name="check working")

    def another_one(self) -> None:
        """A new question like the one shown, with other numbers: the program re-run on them and
        chain of thought on the new text must agree; shown with its answer hidden and saved."""
        solution, model = self.work.solution, self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        if solution is None or not solution.answered or not solution.program:
            self.failed.emit(NOTHING_TO_VARY)
            return
        token = self._cancel = CancelToken()
        seed, self._variants = self.history.newest_id() + self._variants, self._variants + 1
        limits = Limits(self.settings.time_s, self.settings.memory_mb)

        def job(report: Report) -> Solution | None:
            def check(question: str) -> str | None:
                report(Phase("Checking the new question with chain of thought…"))
                reasoned = solve(question, "cot", model, self.sandbox, limits=limits, cancel=token)
                return reasoned.answer if reasoned.answered else None

            report(Phase("Writing a question like this one, with other numbers…"))
            made = make_variants(solution, self.sandbox, check, 1, seed=seed, cancelled=lambda: token.cancelled)
            if not made:
                return None
            question, program, answer = made[0].question, made[0].program, made[0].answer
            result = self.sandbox.run(program, time_s=limits.time_s, capture=("ans", *assigned_names(program)))
            both = (Sample("pal", "PAL", program, answer), Sample("cot", "Chain of thought", None, made[0].check))
            ran = solution_of_run(question, program, result)  # its support: the program and chain of thought agree
            return replace(ran, method="practice", samples=2, votes=(Vote(answer, 2),), sampled=both)

        self._submit(job, self._on_variant, self._on_job_failed, name="another one like this")

    def _on_variant(self, variant: Solution | None) -> None:
        if variant is None and self._cancel is not None and self._cancel.cancelled:
            self.events.publish(Phase("Cancelled: no new question."))
            return
        if variant is None:
            self.failed.emit(
                "No question like this one could be checked: its numbers are not the program's inputs, or chain of "
                "thought did not reach the program's answer. Ask again for other numbers."
            )
            return
        self.history.finish(self.history.start(variant.question, variant.method, {}), variant)
        self.history_changed.emit()
        self.work.practised(variant)

    def _on_attempt(self, question: str, outcome: str) -> None:
        self.history.attempted(question, outcome)
        self.work.tallied(self.history.practice_tally(), self.history.practice_attempts())

    def reopen(self, solution: Solution) -> None:
        """A past solve (from the history), shown as any solve; not while a job runs."""
        if not self.is_busy:
            self.work.reopened(solution)

    def try_again(self, solve_id: int) -> None:
        """A question from the practice list, to work out once more: its answer hidden again."""
        entry = self.history.get(solve_id)
        if entry is not None and not self.is_busy:
            self.work.practised(entry.as_solution())

    def explain_line(self, question: str, program: str, number: int) -> None:
        """The model explains line `number` in a sentence or two, streamed (Esc stops it)."""
        model = self.model
        if model is None:
            self.failed.emit("The model is not loaded yet.")
            return
        token = self._cancel = CancelToken()

        def job(report: Report) -> str:
            return explain_line(question, program, number, model, self.sandbox, on_event=report, cancel=token)

        explained = lambda text: self.events.publish(LineExplained(number, text))  # noqa: E731
        self._submit(job, explained, self._on_job_failed, name="explain line")

    def cancel(self) -> None:
        """Stop whatever runs: the model within a token, a running program at once."""
        self._stop_warming()
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

    def _submit(
        self,
        job: Callable[[Report], T],
        on_success: Callable[[T], None],
        on_failure: Callable[[Exception], None],
        *,
        name: str,
    ) -> None:
        """`job` on the inference thread (a warm-up in its way is stopped first); its progress
        published, its outcome handled here — none of it once the controller is shut down (a late
        result has no window)."""
        self._stop_warming()
        self._background.submit(
            job, on_success=self._live(on_success), on_failure=self._live(on_failure),
            on_progress=self._live(self.events.publish), name=name,
        )  # fmt: skip

    def _live(self, callback: Callable[[T], None]) -> Callable[[T], None]:
        """`callback`, skipped once the controller is shut down."""

        def call(value: T) -> None:
            if not self._closed:
                callback(value)

        return call

    # -- the controller's own bookkeeping of published events ------------------------------

    def _on_sandbox_ready(self, ready: SandboxReady) -> None:
        self.isolation_level = ready.isolation

    def _on_program_extracted(self, event: ProgramExtracted) -> None:
        self._program = event.program
        self._record(program=event.program)

    def _on_execution_finished(self, event: ExecutionFinished) -> None:
        self._record(output=event.result.stdout, error=event.result.error)
        self.work.ran(view_of_run(event.result, self._program))

    def _on_solved(self, solution: Solution) -> None:
        if self._solve_id is not None:
            self.history.finish(self._solve_id, solution)
            self._solve_id = None
            self.history_changed.emit()
        log_solution(solution, self._solve_log)
        self._record_speed(solution)
        self.work.solved(solution)
        if solution.answered and solution.program and wants_graph(solution.question, solution.program):
            self.graph(solution.program)

    def _record_speed(self, solution: Solution) -> None:
        """Each reply's decoding rate, for the model's measured speed in Settings: one sequence at
        a time only (a vote's sequences share the computer), and not a server's."""
        if solution.samples > 1 or self.settings.backend_url:
            return
        path = self.settings.model_path
        model = Path(path).name if path else catalog.load().default.file_name
        for call in solution.calls:
            self.speeds.record(model, call.tokens_per_s, call.completion_tokens)

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
