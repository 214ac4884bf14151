"""`pal-studio practice QUESTION`: new questions of the same kind with other numbers, answers checked.

Solves the question (or runs the program given with `--program`), rewrites it with other numbers,
re-runs the program on them and asks chain of thought about the new text; only variants both
agree on are printed. `--json` prints one line per variant, `{"question", "answer", "agreed"}` (a
contract other tools rely on: docs/architecture.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.check_command import MAX_FILE_BYTES
from app.reasoning.extract import assigned_names
from app.reasoning.methods import DEFAULT_METHOD, MethodError, solve
from app.reasoning.practice import Variant, make_variants
from app.reasoning.runs import solution_of_run
from app.reasoning.session import Limits
from models.types import LanguageModel, ModelError
from sandbox import Sandbox
from sandbox.display import display_text

MAX_COUNT = 20


def add_practice_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    practice = commands.add_parser(
        "practice", help="new questions like this one, with other numbers and checked answers",
        description="The question's numbers become the program's inputs; new values are chosen, the question is "
        "rewritten, the program re-run and chain of thought asked about the new text. A variant is printed only "
        "when both agree on its answer.",
    )  # fmt: skip
    practice.add_argument("question", help="the question (quote it)")
    practice.add_argument("--count", type=int, default=3, help=f"how many variants (default 3, at most {MAX_COUNT})")
    practice.add_argument("--program", type=Path, metavar="FILE", help="the question's program (no solve needed)")
    practice.add_argument(
        "--method", default=DEFAULT_METHOD, help=f"how to solve without --program (default {DEFAULT_METHOD})"
    )
    practice.add_argument("--seed", type=int, default=0, help="another seed gives other numbers (default 0)")
    practice.add_argument("--json", action="store_true", help="one JSON object per variant, one per line")
    return practice


def run_practice(args: argparse.Namespace, load_model: Callable[[], LanguageModel]) -> int:
    count = max(1, min(args.count, MAX_COUNT))
    try:
        program = _read(args.program) if args.program else None
    except (OSError, ValueError) as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    try:
        model = load_model()
    except ModelError as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    with Sandbox() as sandbox:
        try:
            if program is not None:
                result = sandbox.run(program, time_s=args.time, capture=("ans", *assigned_names(program)))
                solution = solution_of_run(args.question, program, result)
            else:
                solution = solve(args.question, args.method, model, sandbox, limits=Limits(time_s=args.time))

            def check(question: str) -> str | None:
                reasoned = solve(question, "cot", model, sandbox, limits=Limits(time_s=args.time))
                return reasoned.answer if reasoned.answered else None

            if not args.json:
                print(f"Answer to the question: {display_text(solution.answer or '—')}", flush=True)
            variants = make_variants(solution, sandbox, check, count, seed=args.seed, on_variant=_heard(args.json))
        except (MethodError, ModelError) as exc:
            print(f"pal-studio: {exc}", file=sys.stderr)
            return 2
        finally:
            model.close()
    if not solution.answered or solution.program is None:
        print("pal-studio: the question was not solved by a program, so there is nothing to vary", file=sys.stderr)
        return 1
    for variant in variants:
        if args.json:
            print(json.dumps(variant.to_json(), ensure_ascii=True))
    if len(variants) < count:
        print(f"{len(variants)} of {count} variants could be checked", file=sys.stderr)
    return 0 if variants else 1


def _heard(quiet: bool) -> Callable[[Variant], None]:
    def heard(variant: Variant) -> None:
        if quiet:
            return
        if variant.agreed:
            print(f"\n{display_text(variant.question)}\nAnswer: {display_text(variant.answer)}", flush=True)
        else:
            said = display_text(variant.check or "no answer")
            print(f"(left out: the program says {display_text(variant.answer)}, chain of thought {said})", flush=True)

    return heard


def _read(path: Path) -> str:
    data = path.read_bytes()[: MAX_FILE_BYTES + 1]
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path} is longer than a program can be here ({MAX_FILE_BYTES} bytes)")
    return data.decode("utf-8", errors="replace")
