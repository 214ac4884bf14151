"""The solve history: one SQLite file, versioned by named migrations (m001_initial, …).

Each solve is written step by step — a row when it starts, updated when the program arrives, when
it has run, and when it ends — each step its own commit in WAL mode, so a crash or kill -9 loses
nothing the window already showed.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.reasoning import Solution, SolveStatus
from app.reasoning.short_answer import shown_answer
from app.reasoning.stored import stored
from sandbox.values import cap

logger = logging.getLogger(__name__)
LISTED_CHARS = 500  # of the question and the answer, for the list (the whole solve is read when opened)
COLUMN_CHARS = 256 * 1024  # any plain column of a solve in progress (program, output, error, answer)

# Each migration is its statements, in order, run in one transaction (never a script split on ";",
# which would cut a statement holding one).
MIGRATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "m001_initial",
        (
            """
        CREATE TABLE solves (
            id INTEGER PRIMARY KEY,
            created_at REAL NOT NULL,
            question TEXT NOT NULL,
            method TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL DEFAULT 'running',
            answer TEXT,
            program TEXT,
            output TEXT NOT NULL DEFAULT '',
            error TEXT,
            solution TEXT
        )
        """,
            "CREATE INDEX solves_created ON solves (created_at DESC)",
        ),
    ),
    # The answer as the list shows it ("30 rows — see Table"), written when a solve finishes: the
    # list reads only the start of `answer`, too little to count a long table's rows.
    ("m002_listed_answer", ("ALTER TABLE solves ADD COLUMN listed_answer TEXT",)),
    # Try it yourself: each answer the student entered or gave up on, for the practice tally.
    (
        "m003_practice",
        (
            "CREATE TABLE practice (id INTEGER PRIMARY KEY, created_at REAL NOT NULL, question TEXT NOT NULL, "
            "outcome TEXT NOT NULL)",
        ),
    ),
)
OUTCOMES = ("right", "wrong", "revealed")  # of a practice attempt


@dataclass(frozen=True)
class PracticeAttempt:
    """One try of Try it yourself: how it ended, and the solve it was a try at."""

    created_at: float
    question: str  # its start (LISTED_CHARS)
    outcome: str  # one of OUTCOMES
    solve_id: int | None


@dataclass(frozen=True)
class HistoryEntry:
    id: int
    created_at: float
    question: str
    method: str
    status: str
    answer: str | None
    program: str | None
    output: str
    error: str | None
    solution: Solution | None  # the full working (every program, call, vote, variable) once finished

    def as_solution(self) -> Solution:
        """The entry as a `Solution`: its full working once finished; else what its columns hold
        (a solve cut off by a cancel, a crash or a failure has a program and output but no end)."""
        if self.solution is not None:
            return self.solution
        ended = self.status in ("cancelled", "interrupted")
        return Solution(
            question=self.question,
            method=self.method,
            status=SolveStatus.CANCELLED if ended else SolveStatus.EXECUTION_FAILED,
            answer=None,
            program=self.program,
            programs=(self.program,) if self.program else (),
            output=self.output,
            error=self.error or f"this solve was {self.status}",
            error_line=None,
            ans=None,
            calls=(),
            repair_used=False,
            finish_reply=None,
            duration_s=0.0,
        )


class History:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)  # autocommit: every statement commits
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._migrate()

    def close(self) -> None:
        self._db.close()

    def applied_migrations(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM migrations ORDER BY name")]

    def start(self, question: str, method: str, settings: dict[str, Any]) -> int:
        cursor = self._db.execute(
            "INSERT INTO solves (created_at, question, method, settings) VALUES (?, ?, ?, ?)",
            (time.time(), question, method, json.dumps(settings)),
        )
        return int(cursor.lastrowid or 0)

    def update(self, solve_id: int, **fields: str | None) -> None:
        """Record a step: any of program, output, error, status, answer (each capped)."""
        allowed = {"program", "output", "error", "status", "answer"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"can only update {sorted(allowed)}")
        fields = {name: cap(value, COLUMN_CHARS) if value is not None else None for name, value in fields.items()}
        # Column names come from the fixed set above, never from the caller's data.
        assignments = ", ".join(f"{name} = ?" for name in fields)
        self._db.execute(f"UPDATE solves SET {assignments} WHERE id = ?", (*fields.values(), solve_id))

    def finish(self, solve_id: int, solution: Solution) -> None:
        """The solve's end: its columns and its whole working, capped (app.reasoning.stored)."""
        solution = stored(solution)
        self._db.execute(
            "UPDATE solves SET status = ?, answer = ?, listed_answer = ?, program = ?, output = ?, error = ?, "
            "solution = ? WHERE id = ?",
            (
                solution.status.value,
                solution.answer,
                cap(shown_answer(solution.answer), LISTED_CHARS) if solution.answer is not None else None,
                solution.program,
                solution.output,
                solution.error,
                json.dumps(solution.to_json(), ensure_ascii=False),
                solve_id,
            ),
        )

    def attempted(self, question: str, outcome: str) -> None:
        """A practice attempt: the student's answer was right or wrong, or they revealed it."""
        if outcome not in OUTCOMES:
            raise ValueError(f"an attempt is one of {OUTCOMES}")
        self._db.execute(
            "INSERT INTO practice (created_at, question, outcome) VALUES (?, ?, ?)",
            (time.time(), cap(question, LISTED_CHARS), outcome),
        )

    def practice_tally(self) -> dict[str, int]:
        """How many attempts ended each way, every outcome named (0 when none)."""
        counts = dict(self._db.execute("SELECT outcome, COUNT(*) FROM practice GROUP BY outcome").fetchall())
        return {outcome: int(counts.get(outcome, 0)) for outcome in OUTCOMES}

    def practice_attempts(self, limit: int = 100) -> list[PracticeAttempt]:
        """The newest attempts first, each with the solve of its question to open again (the
        newest solve of that question; None once it was deleted)."""
        rows = self._db.execute(
            f"SELECT p.created_at, p.question, p.outcome, (SELECT s.id FROM solves s WHERE substr(s.question, 1, "
            f"{LISTED_CHARS}) = substr(p.question, 1, {LISTED_CHARS}) ORDER BY s.id DESC LIMIT 1) "
            "FROM practice p ORDER BY p.id DESC LIMIT ?",
            (limit,),
        )
        return [PracticeAttempt(float(row[0]), str(row[1]), str(row[2]), row[3]) for row in rows]

    def newest_id(self) -> int:
        """The id of the newest solve ever saved (0 for none): grows with every solve, so it tells
        one session's practice from the last's."""
        return int(self._db.execute("SELECT COALESCE(MAX(id), 0) FROM solves").fetchone()[0])

    def mark_interrupted(self) -> int:
        """Solves left "running" by a process that died (crash, kill -9) become "interrupted"."""
        cursor = self._db.execute("UPDATE solves SET status = 'interrupted' WHERE status = 'running'")
        return cursor.rowcount

    def entries(self, search: str = "", limit: int = 200) -> list[HistoryEntry]:
        """Newest first; `search` matches the question, program or answer. Only what the list
        shows is read — the start of the question and of the answer (ending in "…" when there is
        more); `get` reads a whole solve
        (its program, output and working) when it is opened."""
        pattern = f"%{search}%"
        rows = self._db.execute(
            f"SELECT id, created_at, substr(question, 1, {LISTED_CHARS}) AS question, method, status, "
            f"COALESCE(listed_answer, CASE WHEN length(answer) > {LISTED_CHARS} "
            f"THEN substr(answer, 1, {LISTED_CHARS}) || '…' ELSE answer END) AS answer, "
            "NULL AS program, '' AS output, NULL AS error, NULL AS solution "
            "FROM solves WHERE question LIKE ? OR program LIKE ? OR answer LIKE ? "
            "ORDER BY created_at DESC, id DESC LIMIT ?",
            (pattern, pattern, pattern, limit),
        )
        return [_entry(row) for row in rows]

    def get(self, solve_id: int) -> HistoryEntry | None:
        row = self._db.execute("SELECT * FROM solves WHERE id = ?", (solve_id,)).fetchone()
        return _entry(row) if row else None

    def delete(self, solve_id: int) -> None:
        self._db.execute("DELETE FROM solves WHERE id = ?", (solve_id,))

    def _migrate(self) -> None:
        self._db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
        done = set(self.applied_migrations())
        for name, statements in MIGRATIONS:
            if name in done:
                continue
            self._db.execute("BEGIN")
            try:
                for statement in statements:
                    self._db.execute(statement)
                self._db.execute("INSERT INTO migrations VALUES (?, ?)", (name, time.time()))
                self._db.execute("COMMIT")
            except sqlite3.Error:
                self._db.execute("ROLLBACK")
                raise


def _entry(row: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        id=row["id"],
        created_at=row["created_at"],
        question=row["question"],
        method=row["method"],
        status=row["status"],
        answer=row["answer"],
        program=row["program"],
        output=row["output"],
        error=row["error"],
        solution=_solution(row["solution"]),
    )


def _solution(text: str | None) -> Solution | None:
    """The stored working back as a `Solution`; None for a solve that never finished or a row this
    version cannot read (the entry's plain columns still show it)."""
    if not text:
        return None
    try:
        return Solution.from_json(json.loads(text))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        logger.warning("history row cannot be read back as a solution: %s", exc)
        return None
