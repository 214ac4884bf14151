"""`pal-studio check QUESTION --working FILE`: a student's working checked line by line.

Solves the question (or runs the program given with `--program`, no model needed), then prints
each line's verdict and the first wrong line; `--json` prints
`{"answer", "lines": [{"text", "ok", "reason", "step"}], "first_wrong"}` (a contract other tools
rely on: docs/architecture.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.reasoning.check_working import MAX_LINE_CHARS, MAX_LINES, check_working
from app.reasoning.extract import assigned_names
from app.reasoning.methods import DEFAULT_METHOD, MethodError, solve
from app.reasoning.runs import solution_of_run
from app.reasoning.session import Limits
from app.reasoning.solution import Solution
from models.types import LanguageModel, ModelError
from sandbox import Sandbox
from sandbox.display import display_text

MAX_FILE_BYTES = MAX_LINES * MAX_LINE_CHARS * 4


def add_check_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    check = commands.add_parser(
        "check", help="check a student's working line by line against a solved program",
        description="Each line of the working (one step per line, as written on paper) is checked: its "
        "arithmetic exactly, in the sandbox, and its result against the quantities the solution computed.",
    )  # fmt: skip
    check.add_argument("question", help="the question (quote it)")
    check.add_argument("--working", type=Path, required=True, metavar="FILE", help="the working, one step per line")
    check.add_argument("--program", type=Path, metavar="FILE", help="a program to check against (no model is used)")
    check.add_argument(
        "--method", default=DEFAULT_METHOD, help=f"how to solve without --program (default {DEFAULT_METHOD})"
    )
    check.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return check


def run_check(args: argparse.Namespace, load_model: Callable[[], LanguageModel]) -> int:
    try:
        working = _read(args.working)
        program = _read(args.program) if args.program else None
    except (OSError, ValueError) as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    with Sandbox() as sandbox:
        try:
            solution = _solution(args, program, sandbox, load_model)
        except (MethodError, ModelError) as exc:
            print(f"pal-studio: {exc}", file=sys.stderr)
            return 2
        checked = check_working(working, solution, sandbox)
    if args.json:
        print(json.dumps(checked.to_json(), ensure_ascii=True))
        return 0
    print(f"Answer: {display_text(solution.answer or '—')}")
    for number, line in enumerate(checked.lines, start=1):
        mark = "✓" if line.ok else "✗"
        step = f" [{display_text(line.step)}]" if line.step else ""
        print(f"{mark} {number}. {display_text(line.text)} — {display_text(line.reason)}{step}")
    first = checked.first_wrong
    print("Every line is right." if first is None else f"First wrong line: {first + 1}")
    return 0


def _solution(
    args: argparse.Namespace, program: str | None, sandbox: Sandbox, load_model: Callable[[], LanguageModel]
) -> Solution:
    if program is not None:
        result = sandbox.run(program, time_s=args.time, capture=("ans", *assigned_names(program)))
        return solution_of_run(args.question, program, result)
    model = load_model()
    try:
        return solve(args.question, args.method, model, sandbox, limits=Limits(time_s=args.time))
    finally:
        model.close()


def _read(path: Path) -> str:
    data = path.read_bytes()[: MAX_FILE_BYTES + 1]
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path} is longer than a working can be ({MAX_FILE_BYTES} bytes)")
    return data.decode("utf-8", errors="replace")
