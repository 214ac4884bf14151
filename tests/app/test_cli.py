"""`pal-studio ask` end to end: the real command, the embedded model, the sandbox."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli import _ask_method, build_parser
from app.reasoning.methods import DATA_DEFAULT, DEFAULT_METHOD, PROGRAM_DEFAULT


def pal_studio(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=os.environ,
    )


def contract(stdout: str) -> dict[str, Any]:
    data = json.loads(stdout)
    assert {"answer", "status", "program", "output", "error", "calls", "repair_used", "duration_s"} <= set(data)
    return dict(data)


@pytest.mark.parametrize("method", ["pal", "pot"])
def test_ask_answers_with_the_embedded_model(method: str) -> None:
    done = pal_studio("ask", "--json", "--method", method, "What is 5 + 2 * 3?")
    assert done.returncode == 0, done.stdout + done.stderr
    data = contract(done.stdout)
    assert data["answer"] == "11", data
    assert data["status"] == "answered"
    assert data["calls"] == 1
    assert done.stderr == ""  # --json prints nothing else


def test_text_output_and_progress(tmp_path: Path) -> None:
    done = pal_studio("ask", "What is 6 times 7?")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Answer: 42")
    assert "Writing the program" in done.stderr and "Running the program" in done.stderr


def test_question_longer_than_the_context() -> None:
    done = pal_studio("ask", "--json", "How many? " + "apples and pears " * 1100)
    assert done.returncode == 1
    data = contract(done.stdout)
    assert data["status"] == "model_error"
    assert "context holds 4096" in data["error"]
    assert data["calls"] == 0


def test_empty_question_needs_no_model() -> None:
    done = pal_studio("ask", "  ")
    assert done.returncode == 2
    assert "the question is empty" in done.stderr


def test_a_bad_model_file_is_named(tmp_path: Path) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model")
    done = pal_studio("ask", "--model", str(notes), "What is 1 + 1?")
    assert done.returncode == 2
    assert "notes.gguf is not a GGUF model file" in done.stderr


def test_screenshot_of_the_window(tmp_path: Path) -> None:
    shot = tmp_path / "window.png"
    done = pal_studio("--screenshot", str(shot))
    assert done.returncode == 0, done.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ask_about_a_data_file_with_the_embedded_model(tmp_path: Path) -> None:
    """The model sees the columns and three rows; its program sums all 60 rows in the sandbox."""
    rows = [(("food", "rent", "travel")[n % 3], n % 17 + 1) for n in range(60)]
    path = tmp_path / "spending.csv"
    path.write_text("category,amount\n" + "".join(f"{c},{a}\n" for c, a in rows))
    done = pal_studio("ask", "--json", "--method", "pal", "--data", str(path), "What is the total amount for food?")
    assert done.returncode == 0, done.stdout + done.stderr
    data = contract(done.stdout)
    assert data["answer"] == str(sum(a for c, a in rows if c == "food")), data["program"]
    assert "tables" in data["program"]


def test_a_bad_data_file_is_refused_before_the_model_loads(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_bytes(b"\x00\x01binary")
    done = pal_studio("ask", "--data", str(tmp_path / "x.csv"), "What is the total?")
    assert done.returncode == 2 and "looks like a binary file" in done.stderr
    done = pal_studio("ask", "--method", "cot", "--data", str(tmp_path / "x.csv"), "What is the total?")
    assert done.returncode == 2 and "needs a program method" in done.stderr


def test_ask_with_the_worked_solution_on_the_embedded_model() -> None:
    question = "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"
    done = pal_studio("ask", "--json", "--working", "--method", "pal", question)
    assert done.returncode == 0, done.stdout + done.stderr
    data = contract(done.stdout)
    working = data["working"]
    assert working and all(set(step) == {"line", "text", "latex", "value"} for step in working)
    assert any(step["value"] in ("$15", "15") for step in working), working  # the money spent, substituted
    assert data["answer"] == "8"


def test_an_answer_by_chain_of_thought_says_so_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import _report
    from app.reasoning.methods import solve
    from models.testing import ScriptedModel
    from sandbox import Sandbox

    question = "How long was it?\nAnswer Choices: (A) 6 (B) 18 (C) 24"
    model = ScriptedModel(["```python\nans = 7\n```", "Three pieces of 6.\nAnswer: B"])
    with Sandbox() as sandbox:
        solution = solve(question, "pot+finish", model, sandbox)
    _report(solution, as_json=False)
    printed = capsys.readouterr().out
    assert printed.startswith("Answer: B\nChecked: reasoning in words only, not checked by a program")
    assert "\nNote: no program gave this answer; it is chain of thought's\n" in printed
    assert "Why: ans = 7 is not one of the options ((A) 6 (B) 18 (C) 24)" in printed


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ([], DEFAULT_METHOD),
        (["--data", "x.csv"], DATA_DEFAULT),  # chain of thought cannot read a data file
        (["--repair"], f"{PROGRAM_DEFAULT}+repair"),
        (["--finish"], "pot+finish"),
        (["--method", "pal", "--repair"], "pal+repair"),  # a named method is kept
    ],
)
def test_ask_without_a_method_picks_one_that_fits_its_options(options: list[str], expected: str) -> None:
    args = build_parser().parse_args(["ask", *options, "q"])
    assert _ask_method(args).name == expected


def test_ask_prints_a_votes_first_answer_at_once_and_says_when_the_vote_changed_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    from app.cli import Progress, _report
    from app.reasoning.methods import solve
    from models.testing import ScriptedModel
    from sandbox import Sandbox

    stderr = io.StringIO()
    model = ScriptedModel(["```python\nprint(41)\n```", "Answer: 14", "```python\nans = 14\n```"], parallel=8)
    with Sandbox() as sandbox:
        solution = solve("Change from $50?", "mix", model, sandbox, on_event=Progress(stderr, enabled=True).on_event)
    assert "First answer (PAL): 41 — checking with the other methods…\n" in stderr.getvalue()
    assert "Long question" not in stderr.getvalue()  # a short one: the later solves wait for PAL, not for room
    _report(solution, as_json=False)
    printed = capsys.readouterr().out
    assert printed.startswith("Answer: 14\n")
    assert "Note: The first answer shown, 41 (PAL), was only a first answer: the vote changed it" in printed


def test_check_prints_each_lines_verdict_and_the_first_wrong_line(tmp_path: Path) -> None:
    """The contract of `check --json`, against a given program: no model is loaded."""
    working, program = tmp_path / "working.txt", tmp_path / "program.py"
    working.write_text("5 × $3 = $15\n$23 - $15 = $9\n", encoding="utf-8")
    program.write_text("spent = 5 * 3\nleft = 23 - spent\nprint(left)\n", encoding="utf-8")
    question = "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"
    done = pal_studio("check", question, "--working", str(working), "--program", str(program), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["answer"] == "8" and data["first_wrong"] == 1
    assert [line["ok"] for line in data["lines"]] == [True, False]
    assert data["lines"][1] == {
        "text": "$23 - $15 = $9", "ok": False, "reason": "arithmetic slip: that is 8, not 9", "step": "the answer, 8",
    }  # fmt: skip
    text = pal_studio("check", question, "--working", str(working), "--program", str(program))
    assert "✗ 2. $23 - $15 = $9 — arithmetic slip: that is 8, not 9" in text.stdout
    assert text.stdout.rstrip().endswith("First wrong line: 2")
    missing = pal_studio("check", question, "--working", str(tmp_path / "none.txt"), "--program", str(program))
    assert missing.returncode == 2 and "none.txt" in missing.stderr


def test_practice_prints_variants_checked_by_chain_of_thought_on_the_embedded_model(tmp_path: Path) -> None:
    """The contract of `practice --json`: one object per line, each confirmed by the model's own
    chain of thought on the new text."""
    program = tmp_path / "program.py"
    program.write_text("money = 23\nbagels = 5\nprice = 3\nprint(money - bagels * price)\n", encoding="utf-8")
    question = "Olivia has $23. She bought 5 bagels for $3 each. How much money does she have left?"
    done = pal_studio("practice", question, "--program", str(program), "--count", "1", "--json")
    assert done.returncode in (0, 1), done.stderr
    variants = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(variants) <= 1 and (variants or "0 of 1 variants could be checked" in done.stderr)
    for variant in variants:
        assert set(variant) == {"question", "answer", "agreed"} and variant["agreed"] is True
        money, bagels, price = (int(n) for n in re.findall(r"\d+", variant["question"]))
        assert variant["question"] != question and float(variant["answer"]) == money - bagels * price
