"""The structured solve log: one JSON line per solve in the user log folder, plus `logging`.

Logging must never cost the user an answer: a log that cannot be written is reported through
`logging` and otherwise ignored.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

import platformdirs

from app.reasoning.solution import Solution

LOG_DIR_ENV = "PAL_STUDIO_LOG_DIR"
logger = logging.getLogger("pal_studio.solve")
_write_lock = threading.Lock()


def log_dir() -> Path:
    override = os.environ.get(LOG_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_log_dir("pal-studio", appauthor=False))


def log_path() -> Path:
    return log_dir() / "solves.jsonl"


def log_solution(solution: Solution) -> None:
    logger.info(
        "%s solve: %s (answer %r, %d model calls, repair %s, %.1f s)",
        solution.method,
        solution.status.value,
        solution.answer,
        len(solution.calls),
        "used" if solution.repair_used else "not used",
        solution.duration_s,
    )
    line = json.dumps(solution.to_json(), ensure_ascii=False) + "\n"
    try:
        path = log_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with _write_lock, path.open("a", encoding="utf-8") as handle:
            handle.write(line)
    except OSError as exc:
        logger.warning("could not write the solve log: %s", exc)
