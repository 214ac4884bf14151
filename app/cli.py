"""`pal-studio` on the command line.

    pal-studio ask [--method METHOD] [--repair] [--finish] [--data FILE] [--model PATH] [--json] [--working] QUESTION
    pal-studio eval DATASET.jsonl [--method M[,M...]] [--limit N] [--offset K] [--samples K]
                    [--out DIR] [--backend URL] [--json]

Exit status: 0 answered, 1 not answered (the reason is printed), 2 unusable input or model,
130 interrupted. With `--json` one JSON object goes to stdout (contract: docs/architecture.md)
and nothing else is printed; otherwise progress goes to stderr and the answer to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from app import logs, model_loading
from app.check_command import add_check_command, run_check
from app.data import DataError, DataSet, open_data
from app.desktop_check import desktop_problem
from app.paths import AppPaths
from app.practice_command import add_practice_command, run_practice
from app.reasoning import CancelToken, Event, ExecutionStarted, ModelStarted, Solution, TokenStreamed
from app.reasoning.answer_table import table_of
from app.reasoning.events import PHASES, FirstAnswer, LanesWaiting
from app.reasoning.method_table import methods_help
from app.reasoning.methods import (
    DATA_DEFAULT,
    DATA_METHODS,
    DEFAULT_METHOD,
    FIRST_ANSWER_NOTE,
    PROGRAM_DEFAULT,
    Method,
    MethodError,
    solve,
)
from app.reasoning.session import Limits
from app.reasoning.short_answer import shown_answer
from app.reasoning.solve_log import log_solution
from app.reasoning.working import worked_solution
from app.store import settings as settings_store
from models.types import LanguageModel, ModelError
from sandbox import Sandbox
from sandbox.display import display_text


class Progress:
    """One status line on stderr: rewritten in place on a terminal, phase by phase otherwise."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self._stream, self._enabled = stream, enabled
        self._tty = enabled and stream.isatty()
        self._phase, self._tokens = "", 0

    def phase(self, text: str) -> None:
        if not self._enabled:
            return
        self._phase, self._tokens = text, 0
        if self._tty:
            self._stream.write(f"\r\x1b[K{text}…")
        else:
            self._stream.write(f"{text}…\n")
        self._stream.flush()

    def fraction(self, done: int, total: int) -> None:
        if self._tty and total:
            self._stream.write(f"\r\x1b[K{self._phase}… {100 * done // total}%")
            self._stream.flush()

    def token(self) -> None:
        self._tokens += 1
        if self._tty:
            self._stream.write(f"\r\x1b[K{self._phase}… {self._tokens} chunks")
            self._stream.flush()

    def done(self) -> None:
        if self._tty:
            self._stream.write("\r\x1b[K")
            self._stream.flush()

    def on_event(self, event: Event) -> None:
        if isinstance(event, ModelStarted):
            self.phase(PHASES.get(event.purpose, event.purpose))
        elif isinstance(event, TokenStreamed):
            self.token()
        elif isinstance(event, ExecutionStarted):
            self.phase("Running the program in the sandbox")
        elif isinstance(event, LanesWaiting) and event.for_room:  # not PoT waiting for PAL's answer
            self.phase(PHASES["turns"])
        elif isinstance(event, FirstAnswer):
            self.first_answer(event)

    def first_answer(self, event: FirstAnswer) -> None:
        """A vote's first answer, on a line of its own while the others finish."""
        if self._enabled:
            said = display_text(shown_answer(event.answer))
            clear = "\r\x1b[K" if self._tty else ""
            self._stream.write(f"{clear}First answer ({event.label}): {said} — checking with the other methods…\n")
            self._stream.flush()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pal-studio",
        description="Answer questions that need calculation: a local model writes a Python program, "
        "a sandbox runs it. Without a command, the desktop window opens.",
    )
    parser.add_argument("--version", action="version", version=f"PAL Studio {_version()}")
    parser.add_argument(
        "--log-level", choices=logs.LEVELS, default="info", help="what goes to the log file (default info)"
    )
    parser.add_argument(
        "--install-desktop-entry", action="store_true", help="add PAL Studio to this user's desktop menu and exit"
    )
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="render the window offscreen to a PNG and exit")
    parser.add_argument("--question", help="with --screenshot: the question to show")
    parser.add_argument("--solve", action="store_true", help="with --screenshot and --question: solve it first")
    parser.add_argument("--step-through", action="store_true", help="with --solve: show the stepper half way")
    commands = parser.add_subparsers(dest="command")
    ask = commands.add_parser("ask", help="answer one question from the command line")
    ask.add_argument("question", help="the question (quote it)")
    ask.add_argument(
        "--method",
        help=f"{methods_help()} (default {DEFAULT_METHOD}; with --data {DATA_DEFAULT}, with --repair "
        f"{PROGRAM_DEFAULT}, with --finish pot)",
    )
    ask.add_argument("--repair", action="store_true", help="PAL: on an error, ask the model once to fix the program")
    ask.add_argument("--finish", action="store_true", help="PoT: reason one step further from ans (units, options)")
    ask.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ask.add_argument(
        "--working", action="store_true", help="add the worked solution: each step as prose and LaTeX, with its value"
    )
    ask.add_argument(
        "--data", type=Path, metavar="FILE",
        help="a CSV/TSV, .xlsx or JSON-lines file the question is about: the model sees its columns and a few rows, "
        "the program computes over all of it in the sandbox",
    )  # fmt: skip
    _model_arguments(ask)
    evaluate = commands.add_parser(
        "eval",
        help="measure methods on a dataset: accuracy, valid programs, time (resumable)",
        description="Solve every item of a JSON-lines dataset with each method, append one line per item "
        "to DIR/results.jsonl (rerun the same command to resume), and write DIR/summary.json, "
        "report.md and report.html.",
    )
    evaluate.add_argument("dataset", type=Path, help="JSON lines: GSM8K's form, question/answer or input/target")
    evaluate.add_argument("--method", default=DEFAULT_METHOD, help=f"comma-separated: {methods_help()}")
    evaluate.add_argument("--limit", type=int, default=None, help="at most N items")
    evaluate.add_argument("--offset", type=int, default=0, help="skip the first K items")
    evaluate.add_argument("--samples", type=int, default=None, help="self-consistency: K samples for program methods")
    evaluate.add_argument("--out", type=Path, default=None, help="results folder (default eval-results/DATASET)")
    evaluate.add_argument("--json", action="store_true", help="print the summary as JSON")
    evaluate.add_argument("--workers", type=int, default=None, help="concurrent solves (default 1; 4 with --backend)")
    _model_arguments(evaluate)
    _model_arguments(add_check_command(commands))
    _model_arguments(add_practice_command(commands))
    return parser


def _model_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--model", type=Path, metavar="PATH", help="a GGUF model file (default: the embedded model)")
    command.add_argument(
        "--backend", metavar="URL", help="an OpenAI-compatible server (llama.cpp, vLLM, Ollama) instead of --model"
    )
    command.add_argument("--time", type=float, default=5.0, metavar="SECONDS", help="program time limit (default 5)")
    command.add_argument("--threads", type=int, default=None, help="CPU threads for the model (default: one per core)")
    command.add_argument("--ctx", type=int, default=4096, help="model context size in tokens (default 4096)")
    command.add_argument("--gpu-layers", type=int, default=0, help="layers to offload to a GPU build (-1: all)")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    paths = AppPaths.for_user()
    logs.configure(paths.app_log, args.log_level)
    if args.install_desktop_entry:
        from app.ui.desktop_entry import install

        for path in install():
            print(f"installed {path}")
        return 0
    if args.command == "eval":
        from app.evaluation.command import run_eval

        return run_eval(args, lambda: load_model(args, Progress(sys.stderr, enabled=True)))
    if args.command == "check":
        return run_check(args, lambda: load_model(args, Progress(sys.stderr, enabled=not args.json)))
    if args.command == "practice":
        return run_practice(args, lambda: load_model(args, Progress(sys.stderr, enabled=not args.json)))
    if args.command != "ask":
        if args.screenshot is not None:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        problem = desktop_problem()
        if problem:  # before Qt loads: its own message for this is a crash without a cause
            print(f"pal-studio: {problem}", file=sys.stderr)
            return 2
        from app.ui.app import run  # Qt is loaded only for the window

        return run(
            paths, screenshot=args.screenshot, question=args.question, solve=args.solve, step_through=args.step_through
        )
    return _ask(args, paths)


def _ask(args: argparse.Namespace, paths: AppPaths) -> int:
    if not args.question.strip():
        print("pal-studio: the question is empty", file=sys.stderr)
        return 2
    try:
        method = _ask_method(args)
        data = _ask_data(args.data, method)
    except (MethodError, DataError) as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    progress = Progress(sys.stderr, enabled=not args.json)
    if data is not None:
        progress.phase(f"Data: {data.summary}")
    try:
        model = load_model(args, progress)
    except ModelError as exc:
        progress.done()
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    cancel = CancelToken()
    try:
        choice = settings_store.load(paths.settings).sandbox
        preparing = lambda text: progress.phase(text.rstrip("…"))  # noqa: E731
        with Sandbox(backend=choice, cache_dir=str(paths.wasm_cache), on_preparing=preparing) as sandbox:
            solution = solve(
                args.question, method, model, sandbox, limits=Limits(time_s=args.time), on_event=progress.on_event,
                cancel=cancel, data=data,
            )  # fmt: skip
    except KeyboardInterrupt:
        cancel.cancel()
        progress.done()
        print("pal-studio: interrupted", file=sys.stderr)
        return 130
    finally:
        model.close()
    progress.done()
    log_solution(solution, paths.solve_log)
    _report(solution, args.json, working=args.working)
    return 0 if solution.answered else 1


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pal-studio")
    except PackageNotFoundError:
        return "unknown"


def _ask_data(path: Path | None, method: Method) -> DataSet | None:
    """The data file `--data` names, opened (None without one)."""
    if path is None:
        return None
    if method.base not in DATA_METHODS:
        raise MethodError(f"--data needs a program method ({', '.join(DATA_METHODS)}), not {method.base}")
    return open_data(path)


def _ask_method(args: argparse.Namespace) -> Method:
    """The method asked for; unnamed, the default for what the other options need (a data file
    or a repair needs programs, the finishing step is PoT's)."""
    unnamed = (
        "pot" if args.finish else DATA_DEFAULT if args.data else PROGRAM_DEFAULT if args.repair else DEFAULT_METHOD
    )
    method = Method.parse(args.method or unnamed)
    extra = {"repair"} if args.repair else set()
    extra |= {"finish"} if args.finish else set()
    return Method.parse("+".join([method.name, *sorted(extra - method.options)])) if extra else method


def load_model(args: argparse.Namespace, progress: Progress) -> LanguageModel:
    """The model the arguments name: a server (`--backend`), a GGUF file, or the embedded one."""
    return model_loading.load_model(
        backend_url=args.backend, model_path=args.model, n_ctx=args.ctx, n_threads=args.threads,
        n_gpu_layers=args.gpu_layers, progress=progress.fraction, phase=progress.phase,
        warn=lambda warning: print(f"pal-studio: warning: {warning}", file=sys.stderr),
    )  # fmt: skip


def _print_answer(solution: Solution) -> None:
    """The answer with its support and where it came from, or why there is none."""
    if not solution.answered:
        print(f"No answer: {solution.message}.")
        if solution.error:
            print(display_text(solution.error).rstrip())
        return
    print(f"Answer: {display_text(solution.answer or '')}")
    confidence = solution.confidence
    print(f"Checked: {confidence.words}")
    print(f"  {display_text(confidence.text[:1].upper() + confidence.text[1:])}. {confidence.measured}")
    if solution.samples > 1 and not confidence.confident:
        print("  Compare the answers with --json before trusting this one.")
    if solution.fallback_used:  # never silently: the answer is not a program's
        print("Note: no program gave this answer; it is chain of thought's")
        if solution.error:
            print(f"Why: {display_text(solution.error).rstrip()}")
    for note in solution.notes:
        if note.startswith(FIRST_ANSWER_NOTE):  # the first answer printed was replaced: said on stdout too
            print(f"Note: {display_text(note)}")


def _report(solution: Solution, as_json: bool, *, working: bool = False) -> None:
    program, variables, answered = solution.program, solution.variables, solution.answered
    steps = (
        worked_solution(program, variables, solution.question, output=solution.output, answered=answered)
        if working
        else []
    )
    if as_json:
        data = solution.to_json()
        if working:
            data["working"] = [step.to_json() for step in steps]
        print(json.dumps(data, ensure_ascii=True))  # escaped: no control or bidi character reaches the terminal
        return
    calls = f"{len(solution.calls)} model call{'s' if len(solution.calls) != 1 else ''}"
    _print_answer(solution)
    for note in solution.notes:
        print(f"Note: {display_text(note)}")
    table = table_of(solution.variables, solution.answer)
    if table is not None:
        print("\nTable:\n" + display_text(table.to_csv()).rstrip() + ("\n…" if table.truncated else ""))
    if steps:
        print("\nWorking:")
        for step in steps:
            print(f"  {display_text(step.text)}  {display_text(step.latex)}")
    if solution.program:
        print("\nProgram:\n" + display_text(solution.program))
    print(f"\n({solution.method}, {calls}, {solution.duration_s:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
