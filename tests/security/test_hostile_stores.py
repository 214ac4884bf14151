"""Stores that a program cannot grow: a solve whose program binds seven lists of about a megabyte
each (real sandbox) adds a bounded row to the history (real SQLite file) and a bounded line to the
solve log, which rotates; the history list reads only what it lists."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.reasoning import solve_log, solve_pal
from app.reasoning.solve_log import log_solution
from app.reasoning.stored import VALUES_BUDGET
from app.store.history import LISTED_CHARS, History
from models.testing import ScriptedModel
from sandbox import Sandbox

HEAVY = "\n".join(f"list_{n} = ['{n}' * 900 for _ in range(999)]" for n in range(7)) + "\nprint(len(list_0))"
ROW_BUDGET = 1_000_000  # bytes a stored solve may take (before: 7.1 MB for this program)


def _row_bytes(path: Path, solve_id: int) -> int:
    with sqlite3.connect(path) as db:
        columns = "question, answer, program, output, error, solution"
        row = db.execute(f"SELECT {columns} FROM solves WHERE id = ?", (solve_id,)).fetchone()
    return sum(len((value or "").encode()) for value in row)


def test_a_solve_that_binds_megabytes_stores_a_bounded_row_and_log_line(sandbox: Sandbox, tmp_path: Path) -> None:
    solution = solve_pal("How many?", ScriptedModel([f"```python\n{HEAVY}\n```"]), sandbox)
    assert solution.answer == "999"
    assert sum(len(str(v.json)) for v in solution.variables.values()) > 5_000_000  # the window still gets it all
    history = History(tmp_path / "history.sqlite3")
    solve_id = history.start(solution.question, "pal", {})
    history.finish(solve_id, solution)
    assert _row_bytes(tmp_path / "history.sqlite3", solve_id) < ROW_BUDGET
    reopened = history.get(solve_id)
    assert reopened is not None and reopened.solution is not None
    assert set(reopened.solution.variables) == set(solution.variables)  # every name kept, values capped
    assert sum(len(str(v.json)) for v in reopened.solution.variables.values() if v.json) <= VALUES_BUDGET
    history.close()
    log = tmp_path / "solves.jsonl"
    log_solution(solution, log)
    assert log.stat().st_size < ROW_BUDGET


def test_the_history_list_reads_only_what_it_lists(sandbox: Sandbox, tmp_path: Path) -> None:
    solution = solve_pal("q" * 5000, ScriptedModel(["```python\nprint(8)\n```"]), sandbox)
    history = History(tmp_path / "history.sqlite3")
    solve_id = history.start(solution.question, "pal", {})
    history.finish(solve_id, solution)
    (listed,) = history.entries()
    assert listed.solution is None and listed.program is None and len(listed.question) == LISTED_CHARS
    assert listed.answer == "8" and listed.status == "answered"
    opened = history.get(solve_id)
    assert opened is not None and opened.solution is not None and opened.program == "print(8)"
    history.close()


def test_the_solve_log_rotates(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solve_log, "MAX_BYTES", 20_000)
    solution = solve_pal("Eight?", ScriptedModel(["```python\nprint(8)\n```"] * 1), sandbox)
    log = tmp_path / "solves.jsonl"
    for _ in range(60):
        log_solution(solution, log)
    assert log.with_name("solves.jsonl.1").exists()
    assert log.stat().st_size < 20_000 + 5_000 and log.with_name("solves.jsonl.2").exists() is False
