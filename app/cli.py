"""`pal-studio` on the command line.

    pal-studio ask [--method pal|pot] [--repair] [--finish] [--model PATH] [--json] QUESTION

Exit status: 0 answered, 1 not answered (the reason is printed), 2 unusable input or model,
130 interrupted. With `--json` one JSON object goes to stdout (contract: docs/architecture.md)
and nothing else is printed; otherwise progress goes to stderr and the answer to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from app.reasoning import (
    CancelToken,
    Event,
    ExecutionStarted,
    ModelStarted,
    Solution,
    TokenStreamed,
    solve_pal,
    solve_pot,
)
from models.embedded import ensure_embedded, is_ready
from models.local import LocalModel, ModelSettings
from models.types import ModelError
from sandbox import Sandbox
from sandbox.display import display_text

_PHASES = {"program": "Writing the program", "repair": "Repairing the program", "finish": "Finishing from ans"}


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
            self.phase(_PHASES.get(event.purpose, event.purpose))
        elif isinstance(event, TokenStreamed):
            self.token()
        elif isinstance(event, ExecutionStarted):
            self.phase("Running the program in the sandbox")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pal-studio",
        description="Answer questions that need calculation: a local model writes a Python program, "
        "a sandbox runs it. Without a command, the desktop window opens.",
    )
    parser.add_argument("--version", action="version", version=f"PAL Studio {_version()}")
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
        "--method", choices=("pal", "pot"), default="pal", help="PAL (prints) or Program of Thoughts (ans)"
    )
    ask.add_argument("--repair", action="store_true", help="PAL: on an error, ask the model once to fix the program")
    ask.add_argument("--finish", action="store_true", help="PoT: reason one step further from ans (units, options)")
    ask.add_argument("--model", type=Path, metavar="PATH", help="a GGUF model file (default: the embedded model)")
    ask.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ask.add_argument("--time", type=float, default=5.0, metavar="SECONDS", help="program time limit (default 5)")
    ask.add_argument("--threads", type=int, default=None, help="CPU threads for the model (default: llama.cpp's)")
    ask.add_argument("--ctx", type=int, default=4096, help="model context size in tokens (default 4096)")
    ask.add_argument("--gpu-layers", type=int, default=0, help="layers to offload to a GPU build (-1: all)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.install_desktop_entry:
        from app.ui.desktop_entry import install

        for path in install():
            print(f"installed {path}")
        return 0
    if args.command != "ask":
        if args.screenshot is not None:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from app.ui.app import run  # Qt is loaded only for the window

        return run(screenshot=args.screenshot, question=args.question, solve=args.solve, step_through=args.step_through)
    if not args.question.strip():
        print("pal-studio: the question is empty", file=sys.stderr)
        return 2
    progress = Progress(sys.stderr, enabled=not args.json)
    try:
        model = _load_model(args, progress)
    except ModelError as exc:
        progress.done()
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    cancel = CancelToken()
    try:
        with Sandbox() as sandbox:
            solution = _solve(args, model, sandbox, progress.on_event, cancel)
    except KeyboardInterrupt:
        cancel.cancel()
        progress.done()
        print("pal-studio: interrupted", file=sys.stderr)
        return 130
    finally:
        model.close()
    progress.done()
    _report(solution, args.json)
    return 0 if solution.answered else 1


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pal-studio")
    except PackageNotFoundError:
        return "unknown"


def _load_model(args: argparse.Namespace, progress: Progress) -> LocalModel:
    path = args.model
    if path is None:
        if not is_ready():
            progress.phase("Preparing the embedded model (first run only)")
        path = ensure_embedded(progress=progress.fraction)
    progress.phase(f"Loading {path.name}")
    return LocalModel(ModelSettings(path, n_ctx=args.ctx, n_threads=args.threads, n_gpu_layers=args.gpu_layers))


def _solve(
    args: argparse.Namespace,
    model: LocalModel,
    sandbox: Sandbox,
    on_event: Callable[[Event], None],
    cancel: CancelToken,
) -> Solution:
    if args.method == "pot":
        return solve_pot(
            args.question, model, sandbox, finish=args.finish, time_s=args.time, on_event=on_event, cancel=cancel
        )
    return solve_pal(
        args.question, model, sandbox, repair=args.repair, time_s=args.time, on_event=on_event, cancel=cancel
    )


def _report(solution: Solution, as_json: bool) -> None:
    if as_json:
        print(json.dumps(solution.to_json(), ensure_ascii=False))
        return
    calls = f"{len(solution.calls)} model call{'s' if len(solution.calls) != 1 else ''}"
    if solution.answered:
        print(f"Answer: {display_text(solution.answer or '')}")
    else:
        print(f"No answer: {solution.message}.")
        if solution.error:
            print(display_text(solution.error).rstrip())
    if solution.program:
        print("\nProgram:\n" + display_text(solution.program))
    print(f"\n({solution.method}, {calls}, {solution.duration_s:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
