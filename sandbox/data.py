"""Tables a program may read: the user's data, handed in with the run request, never as a path.

On the wire (and in `Sandbox.run(data=...)`) a data set is a JSON object
`{table name: {"columns": [...], "types": [...], "rows": [[cell, ...], ...]}}` with cells that are
numbers, text, booleans or null; a "date" or "datetime" column holds ISO text. In the child it
becomes `tables`: a read-only mapping of name to a tuple of read-only row dicts, date columns as
`datetime.date` / `datetime.datetime` values, so a program can filter, sum and group without
copying a number by hand and without any way to change what the next run sees. A table also
gives a column by its name, as pandas does (`tables["cars"]["mpg"]`, a tuple of the values):
models reach for that.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

MAX_DATA_BYTES = 24 * 1024 * 1024  # as JSON: a 100,000-row table of ten columns fits
# Python objects for a table take ≈ 10× its JSON (dicts per row, boxed numbers): the memory limit
# of a run with data grows by this much per byte, so the limit the user set is left to the program.
MEMORY_PER_DATA_BYTE = 12
_PARSERS = {"date": datetime.date.fromisoformat, "datetime": datetime.datetime.fromisoformat}


class _Row(dict[str, Any]):
    """A row's cells; a column it lacks is named with the ones it has (the model misspells them)."""

    __slots__ = ()

    def __missing__(self, key: Any) -> Any:
        names = ", ".join(map(repr, self))
        raise KeyError(f"no column {key!r}; the columns are {names[:600]}")


class Table(tuple[Mapping[str, Any], ...]):
    """A table's rows; `table["column"]` is that column's values, in row order."""

    __slots__ = ()  # no attributes: nothing a program could set for a later reader

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, bool) or not isinstance(key, str | int | slice):
            # `table[table["x"] == v]`, as in pandas, would be `table[False]`: the first row, silently
            raise TypeError(
                "a table is a tuple of row dicts, not a pandas DataFrame: pick rows with "
                '[r for r in table if r["column"] == value], a column with table["column"]'
            )
        if not isinstance(key, str):
            return super().__getitem__(key)
        names = tuple(self[0]) if self else ()
        if key not in names:
            raise KeyError(f"no column {key!r}; the columns are {', '.join(map(repr, names))}")
        return tuple(row[key] for row in self)


Tables = Mapping[str, Table]


def data_bytes(data: Mapping[str, Any] | None) -> int:
    """The size of `data` as it travels (0 without data)."""
    return len(json.dumps(data, ensure_ascii=True, allow_nan=False)) if data else 0


def extra_memory_mb(data: Mapping[str, Any] | None) -> int:
    return -(-data_bytes(data) * MEMORY_PER_DATA_BYTE // (1024 * 1024))


def frozen_tables(data: Mapping[str, Any]) -> Tables:
    """`data` (checked: any other shape raises ValueError) as read-only tables of row dicts."""
    tables: dict[str, Table] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise ValueError(f"table {name!r} is not an object")
        columns, types, rows = table.get("columns"), table.get("types"), table.get("rows")
        if not (isinstance(columns, list) and isinstance(types, list) and isinstance(rows, list)):
            raise ValueError(f"table {name!r} needs columns, types and rows")
        if len(columns) != len(types) or not all(isinstance(c, str) for c in columns):
            raise ValueError(f"table {name!r} has malformed columns")
        parsers = [_PARSERS.get(kind) for kind in types]
        frozen = []
        for row in rows:
            if not isinstance(row, list) or len(row) != len(columns):
                raise ValueError(f"table {name!r} has a row of the wrong length")
            cells = [_cell(value, parse) for value, parse in zip(row, parsers, strict=True)]
            frozen.append(MappingProxyType(_Row(zip(columns, cells, strict=True))))
        tables[str(name)] = Table(frozen)
    return MappingProxyType(tables)


def _cell(value: Any, parse: Any) -> Any:
    if parse is None or not isinstance(value, str):
        return value
    try:
        return parse(value)
    except ValueError:
        return value
