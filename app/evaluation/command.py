"""`pal-studio eval`: the evaluator on the command line (progress bar, resume, reports)."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from app.evaluation.datasets import DatasetError, Item, load
from app.evaluation.report import markdown, summarise, write_reports
from app.evaluation.runner import Progress, evaluate, read_records
from app.reasoning.methods import DEFAULT_SAMPLES, Method, MethodError, solve, warm_up
from app.reasoning.session import CancelToken, Limits
from app.reasoning.solution import Solution
from models.types import LanguageModel, ModelError
from sandbox import Sandbox

REMOTE_WORKERS = 4


def methods_from(text: str, samples: int | None) -> list[Method]:
    """The methods named (comma-separated); `samples` makes program methods vote over K samples."""
    methods = [Method.parse(name) for name in text.split(",") if name.strip()]
    if not methods:
        raise MethodError("name at least one method")
    if samples is not None:
        if samples < 1:
            raise MethodError("--samples must be at least 1")
        methods = [
            Method(m.base, m.options, samples if m.samples in (1, DEFAULT_SAMPLES) else m.samples)
            if m.uses_programs
            else m
            for m in methods
        ]
    return list(dict.fromkeys(methods))


def run_eval(args: argparse.Namespace, load_model: Callable[[], LanguageModel]) -> int:
    try:
        items = load(args.dataset, offset=max(args.offset, 0), limit=args.limit)
        methods = methods_from(args.method, args.samples)
    except (DatasetError, MethodError) as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    out_dir: Path = args.out or Path("eval-results") / args.dataset.stem
    if _announce(out_dir, items, methods):
        code = _solve_all(args, load_model, out_dir, items, methods)
        if code is not None:
            return code
    wanted = {m.name for m in methods}
    indices = {item.index for item in items}
    records = [r for r in read_records(out_dir) if r["method"] in wanted and r["index"] in indices]
    summary = summarise(records, args.dataset.name)
    write_reports(out_dir, summary)
    print(json.dumps(summary, indent=2) if args.json else markdown(summary), end="\n" if args.json else "")
    print(f"results: {out_dir / 'results.jsonl'}; reports: {out_dir / 'report.html'}", file=sys.stderr)
    return 0


def _solve_all(
    args: argparse.Namespace,
    load_model: Callable[[], LanguageModel],
    out_dir: Path,
    items: list[Item],
    methods: list[Method],
) -> int | None:
    """Solve what is not yet in `out_dir`; an exit status when the run cannot go on, else None."""
    try:
        model = load_model()
    except ModelError as exc:
        print(f"pal-studio: {exc}", file=sys.stderr)
        return 2
    workers = args.workers or (REMOTE_WORKERS if args.backend else 1)
    cancel, stop = CancelToken(), threading.Event()
    bars: dict[str, Any] = {}  # a tqdm bar per method

    def show(progress: Progress) -> None:
        bar = bars.get(progress.method)
        if bar is None:  # the method starts
            for old in bars.values():
                old.close()
            bars[progress.method] = tqdm(
                total=progress.total, initial=progress.done, desc=progress.method, unit="item", file=sys.stderr
            )
            return
        bar.update(1)
        bar.set_postfix_str(f"{progress.correct} right this run")

    try:
        with Sandbox() as sandbox:

            def solver(item: Item, method: Method) -> Solution:
                return solve(item.question, method, model, sandbox, limits=Limits(time_s=args.time), cancel=cancel)

            for method in methods:  # as the window does at start-up, so the first item is timed like the rest
                warm_up(model, sandbox, method.name)
            evaluate(
                items, methods, solver, out_dir, grading_sandbox=sandbox, workers=workers, on_progress=show,
                stop=stop, abort=cancel.cancel,
            )  # fmt: skip
    except KeyboardInterrupt:
        print(f"\npal-studio: interrupted; run the same command again to resume ({out_dir})", file=sys.stderr)
        return 130
    except ModelError as exc:
        print(f"\npal-studio: {exc}", file=sys.stderr)
        return 2
    finally:
        for bar in bars.values():
            bar.close()
        model.close()
    return None


def _announce(out_dir: Path, items: list[Item], methods: list[Method]) -> int:
    """Say what is to be done (and what is already done); the number of solves to do."""
    done = {(r["method"], r["index"]) for r in read_records(out_dir)}
    todo = sum((m.name, item.index) not in done for m in methods for item in items)
    resumed = len(items) * len(methods) - todo
    note = f", {resumed} already in {out_dir} (resuming)" if resumed else ""
    names = ", ".join(m.name for m in methods)
    print(f"Evaluating {names} on {len(items)} items: {todo} solves to do{note}", file=sys.stderr)
    return todo
