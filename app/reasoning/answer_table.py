"""An answer that is a table: rows the program returned (`ans`, or `result` under PAL) shown as
a table, exportable as CSV, and — when the question asks for a chart — the numbers to draw.

Read only from the captured JSON value of the variable (capped by the sandbox); nothing from the
child is evaluated, and cells are plain text.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

from sandbox import CapturedValue

MAX_ROWS = 1_000
MAX_COLUMNS = 50
MAX_CELL_CHARS = 200
_KEYS_LOOKED_AT = 50  # of a printed dict's, to find the variable it was
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_CHART_WORDS = re.compile(r"\b(chart|plot|graph|bar|histogram|visuali[sz]e)\b", re.IGNORECASE)


@dataclass(frozen=True)
class AnswerTable:
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]  # JSON scalars (numbers stay numbers, for a chart)
    truncated: bool = False

    def to_csv(self) -> str:
        """The table as CSV that a spreadsheet opens as data: no cell is read as a formula."""
        out = io.StringIO()
        # RFC 4180's line ends: a cell holding a carriage return or a newline is quoted (with "\n"
        # alone as the terminator, a "\r" inside a cell was written bare and ended the row).
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow([inert_cell(name) for name in self.columns])
        writer.writerows([inert_cell(cell) for cell in row] for row in self.rows)
        return out.getvalue()

    def series(self) -> tuple[list[str], list[float], str] | None:
        """Labels, values and the value column's name for a bar chart: the first column as
        labels and the first numeric column after it; None when there is no such pair."""
        if len(self.columns) < 2 or not self.rows:
            return None
        for index in range(1, len(self.columns)):
            values = [row[index] for row in self.rows]
            if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                return [_text(row[0]) for row in self.rows], [float(v) for v in values], self.columns[index]
        return None


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(cell: Any) -> Any:
    """A cell a spreadsheet shows as written (OWASP's CSV-injection rule): text that starts like a
    formula gets a leading apostrophe; numbers stay numbers, and text that is just a number
    ("-12.50") stays as it is."""
    if cell is None:
        return ""
    if not isinstance(cell, str) or not cell.startswith(_FORMULA_START) or _PLAIN_NUMBER.fullmatch(cell):
        return cell
    return "'" + cell


def table_of(variables: dict[str, CapturedValue], answer: str | None = None) -> AnswerTable | None:
    """The answer as a table, from `ans` or else `result`, when one of them holds rows; else, when
    the `answer` printed is a list, from the last variable that holds rows (dicts): PAL printed
    `food_purchases`, the answer read "5 rows — see Table", and there was no Table (seen in the
    window); where it is a dict, from the last variable that is a dict of the keys printed (units
    per region, printed as `{'North': 160, …}` for "as a table", seen in the window; not a loop's
    last row). A number's working rows are not its table."""
    for name in ("ans", "result"):
        value = variables.get(name)
        table = _table(value.json) if value is not None else None
        if table is not None:
            return table
    text = answer or ""
    printed = text.lstrip()[:1]
    for name, value in reversed(variables.items()) if printed in ("[", "{") else ():
        data = value.json
        if printed == "[" and isinstance(data, list) and data and all(isinstance(row, dict) for row in data):
            return _table(data)
        printed_dict = printed == "{" and isinstance(data, dict) and len(data) > 1
        shown = printed_dict and all(str(key) in text for key in list(data)[:_KEYS_LOOKED_AT])  # not a loop's row
        table = _table(data, name) if shown else None
        if table is not None:  # {'North': 160, 'South': 150, …}
            return table
    return None


def wants_chart(question: str) -> bool:
    return bool(_CHART_WORDS.search(question))


def _table(data: Any, name: str = "") -> AnswerTable | None:
    if isinstance(data, dict) and data and all(_scalar(v) for v in data.values()):
        pairs: list[tuple[Any, ...]] = [(_cell(k), _cell(v)) for k, v in list(data.items())[: MAX_ROWS + 1]]
        return _finish(_pair_columns(name), pairs)
    if not isinstance(data, list) or not data:
        return None
    if all(isinstance(row, dict) for row in data):
        columns: dict[str, None] = {}
        for row in data[:MAX_ROWS]:
            columns.update(dict.fromkeys(str(key)[:MAX_CELL_CHARS] for key in row))
        names = tuple(list(columns)[:MAX_COLUMNS])
        records = [tuple(_cell(row.get(name)) for name in names) for row in data[: MAX_ROWS + 1]]
        return _finish(names, records) if names else None  # nested cells are shown as their text
    if all(isinstance(row, list) and row and all(_scalar(c) for c in row) for row in data):
        width = min(max(len(row) for row in data), MAX_COLUMNS)
        names = tuple(f"column {n}" for n in range(1, width + 1))
        rows = [tuple(_cell(row[i]) if i < len(row) else None for i in range(width)) for row in data[: MAX_ROWS + 1]]
        return _finish(names, rows)
    return None


def _pair_columns(name: str) -> tuple[str, str]:
    """A dict's columns, named from its variable where that says them: `units_per_region` and
    `units_by_region` → region, units; else key, value."""
    value, _, key = name.partition("_per_") if "_per_" in name else name.partition("_by_")
    return (key.replace("_", " "), value.replace("_", " ")) if key and value else ("key", "value")


def _finish(columns: tuple[str, ...], rows: list[tuple[Any, ...]]) -> AnswerTable:
    return AnswerTable(columns, tuple(rows[:MAX_ROWS]), truncated=len(rows) > MAX_ROWS)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _cell(value: Any) -> Any:
    if isinstance(value, str):
        return value[:MAX_CELL_CHARS]
    return value if _scalar(value) else str(value)[:MAX_CELL_CHARS]


def _text(value: Any) -> str:
    return "" if value is None else str(value)
