"""The structured solve log: one JSON line per solve, plus a line through `logging`.

Written by whoever asked for the solve (the window's controller, `pal-studio ask`), not by the
methods, so a vote's samples are never logged one by one and the evaluator logs nothing twice.
Logging must never cost the user an answer: a log that cannot be written is reported through
`logging` and otherwise ignored. Each line is the solve as stored (capped, app.reasoning.stored),
and the log rotates: past MAX_BYTES it moves aside to `<name>.1`, so it never holds twice that.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

from app.reasoning.solution import Solution
from app.reasoning.stored import stored

logger = logging.getLogger("pal_studio.solve")
_write_lock = threading.Lock()
MAX_BYTES = 5_000_000  # then the log moves to <name>.1 (the one before that is dropped): ≤ 10 MB in all


def _rotate(path: Path) -> None:
    if path.exists() and path.stat().st_size >= MAX_BYTES:
        path.replace(path.with_name(path.name + ".1"))


def log_solution(solution: Solution, path: Path) -> None:
    logger.info(
        "%s solve: %s (answer %r, %d model calls, repair %s, %.1f s)",
        solution.method,
        solution.status.value,
        solution.answer,
        len(solution.calls),
        "used" if solution.repair_used else "not used",
        solution.duration_s,
    )
    line = json.dumps(stored(solution).to_json(), ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _write_lock:
            _rotate(path)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(line)
    except OSError as exc:
        logger.warning("could not write the solve log: %s", exc)
