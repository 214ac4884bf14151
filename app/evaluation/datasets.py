"""Dataset files: JSON lines in GSM8K's form (`question`, `answer` with the gold after `#### `)
or plain `{"question", "answer"}` / `{"input", "target"}` objects."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MAX_LINE_CHARS = 1_000_000


class DatasetError(ValueError):
    """The file cannot be read as a dataset; the message names the line."""


@dataclass(frozen=True)
class Item:
    index: int  # 0-based position in the file: the key results are stored under
    question: str
    gold: str


def gold_of(answer: str) -> str:
    """GSM8K's gold is the text after the last `####`, thousands separators removed."""
    if "####" in answer:
        return answer.rsplit("####", maxsplit=1)[1].strip().replace(",", "")
    return answer.strip()


def load(path: Path, *, offset: int = 0, limit: int | None = None) -> list[Item]:
    """Items `offset` … `offset + limit - 1` of the file (all from `offset` without a limit)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc
    end = len(lines) if limit is None else min(len(lines), offset + limit)
    items: list[Item] = []
    for number in range(offset, end):
        line = lines[number]
        if not line.strip():
            continue
        items.append(_item(number, line, path))
    if not items:
        raise DatasetError(f"{path} has no items from position {offset}")
    return items


def _item(index: int, line: str, path: Path) -> Item:
    where = f"{path.name}, line {index + 1}"
    if len(line) > MAX_LINE_CHARS:
        raise DatasetError(f"{where} is longer than {MAX_LINE_CHARS:,} characters")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{where} is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise DatasetError(f"{where} is not a JSON object")
    for question_key, answer_key in (("question", "answer"), ("input", "target")):
        question, answer = data.get(question_key), data.get(answer_key)
        if isinstance(question, str) and isinstance(answer, str | int | float) and not isinstance(answer, bool):
            return Item(index, question, gold_of(str(answer)))
    raise DatasetError(f'{where} needs "question" and "answer" (or "input" and "target")')
