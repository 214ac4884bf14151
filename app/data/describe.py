"""What the model sees of the user's data: the shape, never the data.

Each table's name, how the program reaches it, its row count, its columns with their types (and
a long table's measure column, its values), and a few sample rows, written as the program will
get them (a Python dict: dates as `datetime.date` values, so the model compares dates, not their
text; text quoted and escaped, so nothing in a cell can read as an instruction's markup). The
full table stays on this machine and reaches only the sandboxed program.
"""

from __future__ import annotations

import datetime
import re

from app.data.files import DataSet, Table

DEFAULT_SAMPLE_ROWS = 3
# The values of a long table's measure column are listed, where it has at most this many: beyond
# the sample rows the model guessed them ("Life expectancy at birth (years)" for "Life expectancy
# at birth, total (years)"). Listed for every text column of a few values they cost 4 of 60 data
# questions: the model filtered on them unasked (docs/results.md).
_LISTED_VALUES = 12
# A long table (World Bank's and OECD's exports, FAOSTAT's, pandas' `melt`): one column of numbers
# named as such, and a column saying what each number measures, of at most _MEASURES values. The
# model summed every indicator's numbers for "the total GDP" and read Germany's GDP for its
# population (mended by `unasked.measured`).
_MEASURES = 200
_VALUE_NAME = re.compile(r"(?i)(?:obs_?)?value|val")
_MEASURE_NAME = re.compile(r"(?i).*\b(?:indicator|measure|variable|metric|series|subject|element|item|indic)")
_SAMPLE_CELL_CHARS = 60
_SAMPLE_CHARS = 2_400  # the sample rows together (≈ 800 tokens); the first row is always shown
_YEAR = re.compile(r"(1[89]|2[01])\d\d")
_WIDE_YEARS = 3  # year columns from which a table is "wide" (World Bank, OECD exports)
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
    measure = long_measure(table)
    listed = {table.columns.index(measure[0]): measure[1]} if measure and len(measure[1]) <= _LISTED_VALUES else {}
    columns = ", ".join(_column(table, i, listed.get(i, ())) for i in range(len(table.columns)))
    lines = [f'tables["{table.name}"]: {len(table.rows):,} rows; each row is a dict with the keys {columns}.']
    if any(table.missing):
        lines.append(
            "Missing values are None: leave them out of sums, counts and averages "
            '(e.g. [r["x"] for r in rows if r["x"] is not None]); never count them as 0.'
        )
    years = [column for column in table.columns if _YEAR.fullmatch(column)]
    if len(years) >= _WIDE_YEARS and not any(column.casefold() == "year" for column in table.columns):
        lines.append(
            f'Each year is a column of its own: a row\'s value for {years[-1]} is r["{years[-1]}"]; '
            "there is no year column."
        )
    if table.columns[-2:] in (("date", "value"), ("year", "value")):  # a column per date, made rows (files._long)
        when = table.columns[-2]
        lines.append(
            f'Each row holds the number of one {when}: r["value"] on r["{when}"]. A "how many" on one {when} '
            "is that number, not a count of rows."
        )
    shown: list[str] = []
    for row in table.rows[:sample_rows]:
        cells = zip(table.columns, table.types, row, strict=True)
        line = "{" + ", ".join(f"{name!r}: {_literal(kind, value)}" for name, kind, value in cells) + "}"
        if shown and sum(map(len, shown)) + len(line) > _SAMPLE_CHARS:
            break  # a wide table: fewer rows, so the prompt stays quick to read on a laptop
        shown.append(line)
    if shown:
        lines.append(f"The first {len(shown)} rows:" if len(shown) > 1 else "The first row:")
        lines.extend(shown)
    return "\n".join(lines)


def long_measure(table: Table) -> tuple[str, tuple[str, ...]] | None:
    """In a long table, the column that says what each row's number measures, and its values; else None."""
    kinds = dict(zip(table.columns, table.types, strict=True))
    if not table.rows or not any(_VALUE_NAME.fullmatch(c) and k in ("int", "float") for c, k in kinds.items()):
        return None
    measures = [c for c, k in kinds.items() if k == "text" and _MEASURE_NAME.match(c)]
    values = _few_values(table, table.columns.index(measures[0])) if len(measures) == 1 else ()
    return (measures[0], tuple(str(value) for value in values)) if len(values) >= 2 else None


def _few_values(table: Table, index: int) -> tuple[object, ...]:
    """The values of column `index`, where it has at most _MEASURES and repeats them; else ()."""
    values: dict[object, None] = {}
    for row in table.rows:
        if row[index] is not None:
            values[row[index]] = None
            if len(values) > _MEASURES:
                return ()
    return tuple(values) if len(values) < len(table.rows) else ()


def _column(table: Table, index: int, listed: tuple[str, ...] = ()) -> str:
    """`name (type)`, with the unit its numbers carried, how many cells have no value and the
    values `listed`."""
    words = [_TYPE_WORDS[table.types[index]]]
    unit = table.units[index] if table.units else ""
    if unit:
        words.append("in percent: 12.5 means 12.5 %" if unit == "%" else f"amounts in {unit}")
    missing = table.missing[index] if table.missing else 0
    if missing and table.types[index] != "empty":
        words.append(f"{missing:,} of {len(table.rows):,} missing")
    if listed:
        words.append(f"its values: {', '.join(repr(_short(value)) for value in listed)}")
    return f"{table.columns[index]} ({'; '.join(words)})"


def _literal(kind: str, value: object) -> str:
    """The cell as Python source, as the program's row dict holds it."""
    if kind in ("date", "datetime") and isinstance(value, str):
        try:
            when = datetime.datetime.fromisoformat(value) if kind == "datetime" else datetime.date.fromisoformat(value)
        except ValueError:
            return repr(value)
        return repr(when)
    return repr(_short(value))


def _short(value: object) -> object:
    if isinstance(value, str) and len(value) > _SAMPLE_CELL_CHARS:
        return value[: _SAMPLE_CELL_CHARS - 1] + "…"
    return value
