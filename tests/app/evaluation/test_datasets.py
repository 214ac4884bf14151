from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.evaluation.datasets import DatasetError, load

GSM8K = Path(__file__).resolve().parents[2] / "data" / "gsm8k_first12.jsonl"  # GSM8K test items 1-12


def _write(path: Path, *rows: object) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return path


def test_gsm8k_gold_is_the_number_after_the_marks() -> None:
    items = load(GSM8K, limit=3)
    assert [item.index for item in items] == [0, 1, 2]
    assert items[0].gold == "18"
    assert items[0].question.startswith("Janet")


def test_thousands_separators_leave_the_gold(tmp_path: Path) -> None:
    path = _write(tmp_path / "d.jsonl", {"question": "q", "answer": "so\n#### 1,250"})
    assert load(path)[0].gold == "1250"


def test_plain_and_input_target_forms(tmp_path: Path) -> None:
    path = _write(tmp_path / "d.jsonl", {"question": "q1", "answer": 7}, "", {"input": "q2", "target": "(B)"})
    items = load(path)
    assert [(i.index, i.question, i.gold) for i in items] == [(0, "q1", "7"), (2, "q2", "(B)")]


def test_aqua_and_svamp_as_published(tmp_path: Path) -> None:
    aqua = {"question": "How far? ", "options": ["A)21", "B)21.5 km", "C) 22"], "rationale": "…", "correct": "B"}
    svamp = {"ID": "x", "Body": "Tom has 5 apples. He eats 2.", "Question": "How many are left?", "Answer": 3.0}
    items = load(_write(tmp_path / "d.jsonl", aqua, svamp))
    assert items[0].question == "How far?\nAnswer Choices: (A) 21 (B) 21.5 km (C) 22"
    assert items[0].gold == "B"
    assert (items[1].question, items[1].gold) == ("Tom has 5 apples. He eats 2. How many are left?", "3.0")
    odd = {"question": "q", "options": ["21", "22"], "correct": "A"}  # options not lettered: no gold to read
    with pytest.raises(DatasetError, match="needs"):
        load(_write(tmp_path / "e.jsonl", odd))


def test_offset_and_limit_keep_file_positions() -> None:
    items = load(GSM8K, offset=10, limit=2)
    assert [item.index for item in items] == [10, 11]


@pytest.mark.parametrize(
    ("row", "message"),
    [("{not json", "line 1 is not JSON"), ("[1, 2]", "not a JSON object"), ('{"q": 1}', "needs")],
)
def test_bad_lines_are_named(tmp_path: Path, row: str, message: str) -> None:
    with pytest.raises(DatasetError, match=message):
        load(_write(tmp_path / "d.jsonl", row))


def test_missing_file_and_empty_range(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="cannot read"):
        load(tmp_path / "absent.jsonl")
    with pytest.raises(DatasetError, match="no items"):
        load(_write(tmp_path / "d.jsonl", {"question": "q", "answer": "1"}), offset=5)
