"""What the model sees of the user's data: the shape, never the data.

Each table's name, how the program reaches it, its row count, its columns with their types, and
a few sample rows (as JSON, so nothing in a cell can read as an instruction's markup). The full
table stays on this machine and reaches only the sandboxed program.
"""

from __future__ import annotations

import json

from app.data.files import DataSet, Table

DEFAULT_SAMPLE_ROWS = 3
_SAMPLE_CELL_CHARS = 60
_TYPE_WORDS = {
    "int": "integer",
    "float": "number",
    "bool": "True/False",
    "date": "datetime.date",
    "datetime": "datetime.datetime",
    "text": "text",
    "empty": "always None",
}


def describe(data: DataSet, sample_rows: int = DEFAULT_SAMPLE_ROWS) -> str:
    return "\n\n".join(_table(table, sample_rows) for table in data.tables)


def _table(table: Table, sample_rows: int) -> str:
    columns = ", ".join(f"{name} ({_TYPE_WORDS[kind]})" for name, kind in zip(table.columns, table.types, strict=True))
    lines = [
        f'tables["{table.name}"]: {len(table.rows):,} rows; each row is a dict with the keys {columns}.',
        "Empty cells are None.",
    ]
    if sample_rows and table.rows:
        lines.append(f"The first {min(sample_rows, len(table.rows))} rows:")
        for row in table.rows[:sample_rows]:
            shown = {name: _short(value) for name, value in zip(table.columns, row, strict=True)}
            lines.append(json.dumps(shown, ensure_ascii=False))
    return "\n".join(lines)


def _short(value: object) -> object:
    if isinstance(value, str) and len(value) > _SAMPLE_CELL_CHARS:
        return value[: _SAMPLE_CELL_CHARS - 1] + "…"
    return value
