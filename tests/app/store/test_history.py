"""The solve history on a real SQLite file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.reasoning import solve_pal
from app.store.history import History
from models.testing import ScriptedModel
from sandbox import Sandbox


def test_migrations_run_once(tmp_path: Path) -> None:
    History(tmp_path / "h.sqlite").close()
    history = History(tmp_path / "h.sqlite")
    assert history.applied_migrations() == ["m001_initial", "m002_listed_answer", "m003_practice"]


def test_practice_attempts_are_tallied_and_kept_across_restarts(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite")
    assert history.practice_tally() == {"right": 0, "wrong": 0, "revealed": 0}
    for outcome in ("wrong", "right", "revealed", "right"):
        history.attempted("q" * 10_000, outcome)
    with pytest.raises(ValueError):
        history.attempted("q", "'); DROP TABLE practice; --")
    history.close()
    reopened = History(tmp_path / "h.sqlite")
    assert reopened.practice_tally() == {"right": 2, "wrong": 1, "revealed": 1}


def test_the_practice_list_is_newest_first_each_try_with_the_solve_it_opens(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite")
    assert history.newest_id() == 0 and history.practice_attempts() == []
    long = "How many? " + "q" * 2_000  # stored capped: still found
    older, newer = history.start(long, "practice", {}), history.start(long, "practice", {})
    history.attempted(long, "wrong")
    history.attempted("a question never solved", "right")
    history.attempted(long, "revealed")
    attempts = history.practice_attempts()
    assert [(a.outcome, a.solve_id) for a in attempts] == [("revealed", newer), ("right", None), ("wrong", newer)]
    assert attempts[0].question.startswith("How many? qqq") and len(attempts[0].question) < 600
    assert attempts[0].created_at >= attempts[-1].created_at and older < newer == history.newest_id()
    assert len(history.practice_attempts(limit=2)) == 2


def test_a_file_from_before_the_listed_answer_keeps_its_rows(tmp_path: Path) -> None:
    """A history written before m002: its rows stay, listed by the start of their answers."""
    import sqlite3

    from app.store.history import MIGRATIONS

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0][1]:
        db.execute(statement)
    db.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    db.execute("INSERT INTO migrations VALUES ('m001_initial', 0)")
    rows = str([{"day": n, "amount": n} for n in range(99)])
    db.execute(
        "INSERT INTO solves (created_at, question, method, status, answer) VALUES (1, 'q', 'pal', 'answered', ?)",
        (rows,),
    )
    db.commit()
    db.close()
    history = History(path)
    (entry,) = history.entries()
    assert entry.answer is not None and entry.answer.endswith("…") and len(entry.answer) == 501


def test_a_solve_step_by_step(tmp_path: Path, sandbox: Sandbox) -> None:
    history = History(tmp_path / "h.sqlite")
    solve_id = history.start("What is 5 + 2 * 3?", "pal", {"repair": False})
    history.update(solve_id, program="print(5 + 2 * 3)")
    entry = history.get(solve_id)
    assert entry is not None and entry.status == "running" and entry.program == "print(5 + 2 * 3)"
    solution = solve_pal("What is 5 + 2 * 3?", ScriptedModel(["```python\nprint(5 + 2 * 3)\n```"]), sandbox)
    history.finish(solve_id, solution)
    entry = history.get(solve_id)
    assert entry is not None
    assert (entry.status, entry.answer, entry.output) == ("answered", "11", "11\n")
    assert entry.solution is not None and entry.solution.calls[0].reply.startswith("```python")


def test_search_and_delete(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite")
    first = history.start("apples and pears", "pal", {})
    history.start("trains and speed", "pot", {})
    assert [e.question for e in history.entries()] == ["trains and speed", "apples and pears"]
    assert [e.id for e in history.entries("pears")] == [first]
    history.delete(first)
    assert [e.question for e in history.entries()] == ["trains and speed"]


def test_only_known_fields_can_be_updated(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite")
    with pytest.raises(ValueError):
        history.update(history.start("q", "pal", {}), question="changed")


def test_a_killed_process_loses_no_step(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite"
    script = (
        "import os, sys\nfrom pathlib import Path\nfrom app.store.history import History\n"
        "h = History(Path(sys.argv[1]))\ni = h.start('q', 'pal', {})\nh.update(i, program='print(1)')\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], check=False)
    assert done.returncode == -9
    history = History(path)
    entries = [history.get(e.id) for e in history.entries()]  # the list itself reads only what it shows
    assert [(e.question, e.program) for e in entries if e is not None] == [("q", "print(1)")]


def test_solves_left_running_by_a_dead_process_become_interrupted(tmp_path: Path) -> None:
    history = History(tmp_path / "h.sqlite")
    cut_off = history.start("cut off mid-solve", "pal", {})
    finished = history.start("finished", "pal", {})
    history.update(finished, status="answered", answer="4")
    history.close()
    reopened = History(tmp_path / "h.sqlite")
    assert reopened.mark_interrupted() == 1
    statuses = {entry.id: entry.status for entry in reopened.entries()}
    assert statuses == {cut_off: "interrupted", finished: "answered"}


def test_a_finished_solve_comes_back_whole(tmp_path: Path, sandbox: Sandbox) -> None:
    """History keeps the whole working: a reopened solve has its votes, calls and variables."""
    from app.reasoning.methods import solve

    pens = "```python\nprice = 4\nprint(price * 3)\n```"
    model = ScriptedModel([pens, "```python\nprint(11)\n```", pens])  # 12, 11, 12: all three needed
    solution = solve("Three pens at $4?", "sc3-pal", model, sandbox)
    history = History(tmp_path / "h.sqlite")
    solve_id = history.start(solution.question, solution.method, {})
    history.finish(solve_id, solution)
    entry = history.get(solve_id)
    assert entry is not None and entry.solution is not None
    back = entry.solution
    assert back.to_json() == solution.to_json()
    assert back.votes == solution.votes and back.variables["price"].json == 4 and len(back.calls) == 3


def test_a_reopened_vote_keeps_chain_of_thoughts_answer_redone_and_its_support(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    from app.reasoning.methods import solve

    pens = "```python\nprice = 4\nprint(price * 3)\n```"
    solution = solve("Three pens at $4?", "mix", ScriptedModel([pens, "3 * 4 = 11.\nAnswer: 11"]), sandbox)
    history = History(tmp_path / "h.sqlite")
    solve_id = history.start(solution.question, solution.method, {})
    history.finish(solve_id, solution)
    entry = history.get(solve_id)
    assert entry is not None and entry.solution is not None
    assert [s.redone for s in entry.solution.sampled] == [None, "12"]
    assert entry.solution.confidence.level == "redone" == solution.confidence.level


def test_a_vote_stored_before_samples_were_records_still_loads() -> None:
    """Rows written before `sampled` held a vote's samples as three parallel lists."""
    from app.reasoning.solution import Sample, Solution

    old = {
        "question": "Three pens at $4?", "method": "mix", "status": "answered", "answer": "12", "samples": 3,
        "votes": [{"answer": "12", "count": 2}, {"answer": "11", "count": 1}],
        "sample_programs": [None, "print(12)", "ans = 11"], "sample_answers": ["12", "12", "11"],
        "sample_methods": ["cot", "pal", "pot"],
    }  # fmt: skip
    back = Solution.from_json(old)
    assert back.sampled == (
        Sample("cot", "Chain of thought", None, "12"),
        Sample("pal", "PAL", "print(12)", "12"),
        Sample("pot", "PoT", "ans = 11", "11"),
    )
    assert back.confidence.text == "2 of 3 methods agree (chain of thought and PAL)" and back.confidence.confident
    assert Solution.from_json(back.to_json()).sampled == back.sampled  # and written back as records
    programs = Solution.from_json({**old, "method": "sc-pal", "sample_methods": [], "sample_programs": ["print(12)"]})
    assert [s.label for s in programs.sampled] == ["Program 1 of 3", "Program 2 of 3", "Program 3 of 3"]
    assert [s.program for s in programs.sampled] == ["print(12)", None, None]
