"""The log file: records at the chosen level and above, configured once per process however often
the entry point runs, and `--log-level` reaches it from the command line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app import logs
from app.cli import build_parser


def test_the_level_decides_what_is_written(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "pal-studio.log"
    handler = logs.configure(path, "warning")
    assert handler is not None
    try:
        logging.getLogger("pal_studio.test").info("an info line")
        logging.getLogger("pal_studio.test").warning("a warning line")
        handler.flush()
        text = path.read_text(encoding="utf-8")
        assert "a warning line" in text and "an info line" not in text
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()


def test_configuring_again_replaces_the_handler(tmp_path: Path) -> None:
    root = logging.getLogger()
    first = logs.configure(tmp_path / "a.log")
    second = logs.configure(tmp_path / "b.log")
    try:
        assert second is not None and second in root.handlers and first not in root.handlers
    finally:
        if second is not None:
            root.removeHandler(second)
            second.close()


def test_an_unwritable_folder_gives_no_log_and_no_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert logs.configure(blocker / "pal-studio.log") is None


def test_the_command_line_takes_a_level() -> None:
    assert build_parser().parse_args(["--log-level", "debug", "ask", "q"]).log_level == "debug"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--log-level", "loud", "ask", "q"])
