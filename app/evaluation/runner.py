"""Run methods over dataset items, one JSON line per item appended to `results.jsonl` as it goes.

A run that is interrupted (Ctrl-C, a crash, a killed process) resumes where it stopped: items
already in the file are skipped, a half-written last line is dropped, and a cancelled item is
never recorded. Several workers may solve at once (a server backend); lines are written under a
lock, each one whole.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.evaluation.datasets import Item
from app.evaluation.grader import grade
from app.reasoning.methods import Method
from app.reasoning.solution import Solution, SolveStatus
from sandbox import Sandbox

RESULTS = "results.jsonl"
MAX_RECORD_CHARS = 200_000

Solver = Callable[[Item, Method], Solution]


@dataclass(frozen=True)
class Progress:
    """What a progress display is told after each item."""

    method: str
    done: int
    total: int
    correct: int


def record_of(item: Item, method: Method, solution: Solution, sandbox: Sandbox | None) -> dict[str, Any]:
    marks = grade(solution.answer, item.gold, sandbox)
    return {
        "method": method.name,
        "index": item.index,
        "question": item.question,
        "gold": item.gold,
        "answer": solution.answer,
        "correct": marks.correct,
        "graded_as": marks.how,
        "status": solution.status.value,
        "answered": solution.answered,
        # a program ran and produced the answer (chain of thought has no program: null)
        "valid": (solution.answered and not solution.fallback_used) if method.uses_programs else None,
        "fallback_used": solution.fallback_used,
        "repair_used": solution.repair_used,
        "seconds": round(solution.duration_s, 3),
        "calls": len(solution.calls),
        "prompt_tokens": sum(c.prompt_tokens for c in solution.calls),
        "completion_tokens": sum(c.completion_tokens for c in solution.calls),
        "votes": [{"answer": v.answer, "count": v.count} for v in solution.votes],
        "samples": solution.samples,
        "confidence": solution.confidence.to_json(),
        "program": solution.program,
        "error": solution.error,
        # each solve of a vote (a mixed vote's methods): what each method alone would have answered,
        # its program and chain of thought's reasoning, which a rescoring may check by running them
        "sampled": [
            {
                "method": s.method,
                "answer": s.answer,
                **({"program": s.program} if s.program else {}),
                **({"reasoning": s.reasoning} if s.reasoning else {}),
            }
            for s in solution.sampled
        ],
    }


def read_records(out_dir: Path) -> list[dict[str, Any]]:
    """The records so far; a damaged last line (the run was killed while writing) is cut off."""
    path = out_dir / RESULTS
    if not path.exists():
        return []
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
        path.write_bytes(data)
    records = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("method"), str) and isinstance(record.get("index"), int):
            records.append(record)
    return records


def evaluate(
    items: list[Item],
    methods: Iterable[Method],
    solver: Solver,
    out_dir: Path,
    *,
    grading_sandbox: Sandbox | None = None,
    workers: int = 1,
    on_progress: Callable[[Progress], None] | None = None,
    stop: threading.Event | None = None,
    abort: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Solve every item not yet in `out_dir` with each method; returns this run's records.

    Stops early (without recording the item in flight) when `stop` is set. On an interruption
    (Ctrl-C) `abort` is called first, to stop the solves in flight, and the interruption goes on.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    done = {(r["method"], r["index"]) for r in read_records(out_dir)}
    stop = stop or threading.Event()
    lock = threading.Lock()
    new: list[dict[str, Any]] = []
    with (out_dir / RESULTS).open("a", encoding="utf-8") as results:
        for method in methods:
            todo = [item for item in items if (method.name, item.index) not in done]
            counts = {"done": len(items) - len(todo), "correct": 0}
            if on_progress is not None:  # the method starts: a display can open its bar
                on_progress(Progress(method.name, counts["done"], len(items), 0))

            def one(item: Item, method: Method = method, counts: dict[str, int] = counts) -> None:
                if stop.is_set():
                    return
                solution = solver(item, method)
                if solution.status is SolveStatus.CANCELLED or stop.is_set():
                    return
                record = record_of(item, method, solution, grading_sandbox)
                line = json.dumps(record, ensure_ascii=False)
                if len(line) > MAX_RECORD_CHARS:  # a flood of output must not bloat the file
                    record["program"], record["error"] = None, (record["error"] or "")[:2000]
                    line = json.dumps(record, ensure_ascii=False)
                with lock:
                    results.write(line + "\n")
                    results.flush()
                    os.fsync(results.fileno())
                    new.append(record)
                    counts["done"] += 1
                    counts["correct"] += record["correct"]
                    if on_progress is not None:
                        on_progress(Progress(method.name, counts["done"], len(items), counts["correct"]))

            try:
                _run_all(one, todo, workers, stop, abort)
            except BaseException:
                stop.set()
                if abort is not None:
                    abort()
                raise
            if stop.is_set():
                break
    return new


def _run_all(
    one: Callable[[Item], None],
    todo: list[Item],
    workers: int,
    stop: threading.Event,
    abort: Callable[[], None] | None,
) -> None:
    if workers <= 1:
        for item in todo:
            if stop.is_set():
                return
            one(item)
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval") as pool:
        pending: set[Future[None]] = set()
        queue = list(reversed(todo))
        try:
            while queue or pending:
                while queue and len(pending) < workers and not stop.is_set():
                    pending.add(pool.submit(one, queue.pop()))
                if not pending:
                    return
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)  # Ctrl-C lands here
                for future in finished:
                    future.result()  # a worker's exception ends the run
        except BaseException:  # stop the solves in flight before the pool waits for them
            stop.set()
            if abort is not None:
                abort()
            raise
