"""The evaluator: records, resume after an interruption (in process and a killed CLI), the
reports, and `pal-studio eval --limit 3` end to end on the real model."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.evaluation.command import methods_from
from app.evaluation.datasets import Item
from app.evaluation.report import html_page, markdown, summarise
from app.evaluation.runner import RESULTS, evaluate, read_records
from app.reasoning.methods import Method, solve
from app.reasoning.solution import Solution
from models.testing import ScriptedModel
from sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[3]
GSM8K = ROOT / "tests" / "data" / "gsm8k_first12.jsonl"  # GSM8K test items 1-12
ITEMS = [Item(i, f"What is {i} + 1?", str(i + 1)) for i in range(6)]


def scripted_solver(sandbox: Sandbox, interrupt_at: int | None = None) -> tuple[object, list[int]]:
    solved: list[int] = []

    def solver(item: Item, method: Method) -> Solution:
        if item.index == interrupt_at:
            raise KeyboardInterrupt
        solved.append(item.index)
        reply = f"```python\nprint({item.index} + 1)\n```" if item.index % 3 else "no program"
        return solve(item.question, method, ScriptedModel([reply]), sandbox)

    return solver, solved


def test_records_and_summary(sandbox: Sandbox, tmp_path: Path) -> None:
    solver, _ = scripted_solver(sandbox)
    records = evaluate(ITEMS, [Method.parse("pal")], solver, tmp_path)  # type: ignore[arg-type]
    assert [r["index"] for r in records] == list(range(6))
    assert [r["correct"] for r in records] == [False, True, True, False, True, True]
    assert records[0]["status"] == "no_program" and records[0]["valid"] is False
    summary = summarise(read_records(tmp_path), "toy")["methods"][0]
    assert summary["accuracy"] == pytest.approx(4 / 6, abs=1e-4)
    assert summary["valid_program_rate"] == summary["answered_rate"]
    assert summary["calls_per_item"] == 1.0
    assert summary["statuses"] == {"answered": 4, "no_program": 2}


def test_a_mixed_vote_records_each_methods_answer_program_and_reasoning(sandbox: Sandbox, tmp_path: Path) -> None:
    replies = ["```python\nans = 3 + 1\nprint(ans)\n```", "3 + 1 = 5.\nAnswer: 5", "```python\nans = 4\n```"]

    def solver(item: Item, method: Method) -> Solution:
        return solve(item.question, method, ScriptedModel(list(replies)), sandbox)

    record = evaluate(ITEMS[3:4], [Method.parse("mix")], solver, tmp_path)[0]
    by_method = {s["method"]: s for s in record["sampled"]}
    assert by_method["pal"]["answer"] == "4" and "3 + 1" in by_method["pal"]["program"]
    assert by_method["cot"]["answer"] == "5" and "3 + 1 = 5" in by_method["cot"]["reasoning"]
    assert "program" not in by_method["cot"]


def test_resume_after_an_interruption_solves_nothing_twice(sandbox: Sandbox, tmp_path: Path) -> None:
    first, solved_first = scripted_solver(sandbox, interrupt_at=3)
    with pytest.raises(KeyboardInterrupt):
        evaluate(ITEMS, [Method.parse("pal")], first, tmp_path)  # type: ignore[arg-type]
    assert solved_first == [0, 1, 2]
    with (tmp_path / RESULTS).open("a") as results:
        results.write('{"method": "pal", "index": 3, "half a li')  # killed while writing
    second, solved_second = scripted_solver(sandbox)
    evaluate(ITEMS, [Method.parse("pal")], second, tmp_path)  # type: ignore[arg-type]
    assert solved_second == [3, 4, 5]
    indices = [r["index"] for r in read_records(tmp_path)]
    assert sorted(indices) == list(range(6))


def test_concurrent_workers_write_whole_lines(sandbox: Sandbox, tmp_path: Path) -> None:
    solver, _ = scripted_solver(sandbox)
    evaluate(ITEMS, [Method.parse("pal"), Method.parse("pot")], solver, tmp_path, workers=3)  # type: ignore[arg-type]
    lines = (tmp_path / RESULTS).read_text().splitlines()
    assert len(lines) == 12
    assert {(json.loads(line)["method"], json.loads(line)["index"]) for line in lines} == {
        (m, i) for m in ("pal", "pot") for i in range(6)
    }


def test_samples_turn_program_methods_into_votes() -> None:
    assert [m.name for m in methods_from("pal,cot,sc3-pot", 7)] == ["sc7-pal", "cot", "sc3-pot"]
    assert [m.name for m in methods_from("pal+repair", None)] == ["pal+repair"]


def test_calibration_separates_confident_answers() -> None:
    def record(correct: bool, confident: bool | None) -> dict[str, object]:
        confidence = None if confident is None else {"text": "", "value": 1.0, "confident": confident}
        return {"method": "sc-pal", "index": 0, "correct": correct, "valid": True, "answered": True,
                "seconds": 1.0, "completion_tokens": 1, "prompt_tokens": 1, "calls": 1, "status": "answered",
                "confidence": confidence}  # fmt: skip

    rows = [record(True, True), record(True, True), record(False, True), record(False, False), record(True, None)]
    figures = summarise(rows, "d")["methods"][0]
    assert (figures["confident_items"], figures["confident_accuracy"], figures["other_accuracy"]) == (3, 0.6667, 0.5)
    assert "Confident: items, accuracy" in markdown(summarise(rows, "d"))


def test_html_report_is_self_contained_and_escaped() -> None:
    records = [
        {"method": "<b>x</b>", "index": 0, "correct": True, "valid": True, "answered": True, "seconds": 1.0,
         "completion_tokens": 10, "prompt_tokens": 5, "calls": 1, "status": "answered"},
    ]  # fmt: skip
    page = html_page(summarise(records, "d"))
    assert "<svg" in page and "&lt;b&gt;x&lt;/b&gt;" in page and "<b>x</b>" not in page
    assert "http" not in page.replace("http-equiv", "")  # nothing to fetch


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_killed_evaluation_resumes_where_it_stopped(tmp_path: Path) -> None:
    """The CLI against a slow stub server: SIGKILL it mid-run, run it again, nothing twice."""
    port = _free_port()
    reply = "```python\nprint(18)\n```"
    stub = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "models" / "openai_stub.py"), str(port), reply, "0.05"]
    )
    out = tmp_path / "run"
    command = [sys.executable, "-m", "app", "eval", str(GSM8K), "--limit", "8", "--out", str(out)]
    command += ["--backend", f"http://127.0.0.1:{port}", "--workers", "1", "--method", "pal"]
    try:
        time.sleep(1.0)
        first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while len(read_records(out)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        killed_at = len(read_records(out))
        assert 3 <= killed_at < 8
        second = subprocess.run(
            [*command, "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
        )
        assert second.returncode == 0, second.stderr
        assert f"{killed_at} already in" in second.stderr
    finally:
        stub.kill()
    indices = [r["index"] for r in read_records(out)]
    assert sorted(indices) == list(range(8))  # every item once
    summary = json.loads(second.stdout)["methods"][0]
    assert summary["items"] == 8 and summary["correct"] == 1  # gold 18 is item 0's only
    assert (out / "report.html").exists() and (out / "report.md").exists()
    # Nothing left to do: the reports are rewritten without loading any model (this one is missing).
    again = [sys.executable, "-m", "app", "eval", str(GSM8K), "--limit", "8", "--out", str(out), "--method", "pal"]
    done = subprocess.run(
        [*again, "--model", str(tmp_path / "missing.gguf")], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "0 solves to do" in done.stderr, done.stderr


def test_eval_end_to_end_on_the_real_model(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "eval", str(GSM8K), "--limit", "3", "--out", str(tmp_path), "--json",
         "--method", "pal"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)["methods"][0]
    assert summary["method"] == "pal" and summary["items"] == 3
    assert summary["valid_program_rate"] is not None and summary["valid_program_rate"] > 0
    assert "item/s" in done.stderr or "s/item" in done.stderr  # the progress bar with its rate
    assert len(read_records(tmp_path)) == 3
