"""Logging for a PAL Studio process: one rotating text file in the log folder.

Configured once by the entry point (`pal-studio`, `--log-level`); modules only ask
`logging.getLogger(__name__)`. Background jobs that fail land here with their traceback.
"""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler
from pathlib import Path

LEVELS = ("debug", "info", "warning", "error")
_MAX_BYTES = 1_000_000
_BACKUPS = 3  # at most ≈ 4 MB of text, the newest first
_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"
_configured: list[logging.Handler] = []  # ours, so configuring again (tests call main() often) replaces it


def configure(path: Path, level: str = "info") -> logging.Handler | None:
    """Send this process's log records at `level` and above to `path` (rotated); the handler, or
    None when the folder cannot be written (the app runs on without a log file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(
            path, maxBytes=_MAX_BYTES, backupCount=_BACKUPS, encoding="utf-8", delay=True
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(_FORMAT))
    root = logging.getLogger()
    while _configured:
        old = _configured.pop()
        root.removeHandler(old)
        old.close()
    root.setLevel(getattr(logging, level.upper()))
    root.addHandler(handler)
    _configured.append(handler)
    return handler
