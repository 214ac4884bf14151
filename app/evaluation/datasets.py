"""Dataset files: JSON lines in GSM8K's form (`question`, `answer` with the gold after `#### `),
plain `{"question", "answer"}` / `{"input", "target"}` objects, or as AQuA and SVAMP publish them
(`question`, `options` ["A)21", …], `correct`; `Body`, `Question`, `Answer`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

MAX_LINE_CHARS = 1_000_000
_OPTION = re.compile(r"\s*\(?([A-Ea-e])\)\s*(.*)", re.DOTALL)  # AQuA's "A)21"


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
    data = _as_published(data)
    for question_key, answer_key in (("question", "answer"), ("input", "target")):
        question, answer = data.get(question_key), data.get(answer_key)
        if isinstance(question, str) and isinstance(answer, str | int | float) and not isinstance(answer, bool):
            return Item(index, question, gold_of(str(answer)))
    raise DatasetError(f'{where} needs "question" and "answer" (or "input" and "target")')


def _as_published(data: dict[str, object]) -> dict[str, object]:
    """AQuA's item as a question that ends with its options, its gold the letter; SVAMP's body and
    question as one text. Anything else as it is."""
    question, options, correct = data.get("question"), data.get("options"), data.get("correct")
    if isinstance(question, str) and isinstance(options, list) and isinstance(correct, str):
        written = [_OPTION.match(option) for option in options if isinstance(option, str)]
        if written and len(written) == len(options) and all(written):
            listed = " ".join(f"({m.group(1).upper()}) {m.group(2).strip()}" for m in written if m)
            return {"question": f"{question.rstrip()}\nAnswer Choices: {listed}", "answer": correct.strip()}
    body, asked, answer = data.get("Body"), data.get("Question"), data.get("Answer")
    if isinstance(body, str) and isinstance(asked, str) and "question" not in data:
        return {"question": f"{body.strip()} {asked.strip()}".strip(), "answer": answer}
    return data
