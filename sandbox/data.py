"""Tables a program may read: the user's data, handed in with the run request, never as a path.

On the wire (and in `Sandbox.run(data=...)`) a data set is a JSON object
`{table name: {"columns": [...], "types": [...], "rows": [[cell, ...], ...]}}` with cells that are
numbers, text, booleans or null; a "date" or "datetime" column holds ISO text. In the child it
becomes `tables`: a read-only mapping of name to a tuple of read-only row dicts, date columns as
`datetime.date` / `datetime.datetime` values, so a program can filter, sum and group without
copying a number by hand and without any way to change what the next run sees.

The embedded model writes pandas over them as often as plain Python (issue 32: 4 of 5 failed data
programs in the window). A table therefore also takes the commonest pandas habits, with pandas'
meaning: `t["mpg"]` is the column (a `Column`, a tuple of the values); comparing a column gives a
mask (`t["mpg"] > 30`, joined with `&`, `|`, `~`) and `t[mask]` the rows it keeps; columns add,
multiply and divide value by value; `.sum()`, `.mean()`, `.median()`, `.max()`, `.min()`,
`.count()`, `.nunique()`, `.any()`, `.all()` leave missing values (None) out, as pandas leaves out
NaN; a column is no single truth (`if t["mpg"] > 30:` raises, as in pandas); a date column's
`.dt.year`, `.dt.month`, `.dt.day`. Anything further is an AttributeError, which the app's second
look reads.
"""

from __future__ import annotations

import datetime
import json
import math
import operator
from collections.abc import Callable, Iterable, Mapping
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


def _each_with(op: Callable[[Any, Any], Any], missing: Any) -> Callable[[Column, Any], Column]:
    """A `Column` operator: `op` value by value (`Column._each`)."""
    return lambda column, other: column._each(other, op, missing)


class Column(tuple[Any, ...]):
    """A column's values in row order, with the pandas habits the model reaches for (module doc)."""

    __slots__ = ()
    __hash__ = tuple.__hash__

    def _each(self, other: Any, op: Callable[[Any, Any], Any], missing: Any) -> Column:
        """`op` value by value, with another column of the same length or with one value; a
        missing value (None) gives `missing` (a comparison: False, as NaN compares in pandas)."""
        if isinstance(other, tuple):
            if len(other) != len(self):
                raise ValueError(f"columns of {len(self)} and {len(other)} values cannot be paired")
            pairs: Iterable[tuple[Any, Any]] = zip(self, other, strict=True)
        else:
            pairs = ((value, other) for value in self)
        return Column(missing if a is None or b is None else op(a, b) for a, b in pairs)

    # value by value, as pandas: a comparison with a missing value is False (NaN's), != True
    __eq__ = _each_with(operator.eq, False)  # type: ignore[assignment]
    __ne__ = _each_with(operator.ne, True)  # type: ignore[assignment]
    __lt__ = _each_with(operator.lt, False)  # type: ignore[assignment]
    __le__ = _each_with(operator.le, False)  # type: ignore[assignment]
    __gt__ = _each_with(operator.gt, False)  # type: ignore[assignment]
    __ge__ = _each_with(operator.ge, False)  # type: ignore[assignment]
    __and__ = _each_with(lambda a, b: bool(a) and bool(b), False)
    __or__ = _each_with(lambda a, b: bool(a) or bool(b), False)
    __add__ = __radd__ = _each_with(operator.add, None)
    __mul__ = __rmul__ = _each_with(operator.mul, None)
    __sub__ = _each_with(operator.sub, None)
    __truediv__ = _each_with(lambda a, b: a / b if b else None, None)

    def __invert__(self) -> Column:
        return Column(not value for value in self)

    def __bool__(self) -> bool:
        """As pandas: a column (a mask most often) is no single truth. `all(t["Name"] == "Ana" for
        …)` printed True for any table, each mask a non-empty tuple; now it says what to write."""
        raise ValueError(
            "the truth value of a column is ambiguous: use .any() or .all() on it, or compare one row's value"
        )

    def any(self) -> bool:
        return any(self._values())

    def all(self) -> bool:
        return all(self._values())

    def _values(self) -> list[Any]:
        return [value for value in self if value is not None]

    def sum(self) -> Any:
        return sum(self._values())

    def mean(self) -> Any:
        values = self._values()
        return math.fsum(values) / len(values) if values else float("nan")

    def median(self) -> Any:
        values = self._values()
        if not values:
            return float("nan")
        ordered, middle = sorted(values), len(values) // 2
        return ordered[middle] if len(values) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    def max(self) -> Any:
        values = self._values()
        return max(values) if values else float("nan")

    def min(self) -> Any:
        values = self._values()
        return min(values) if values else float("nan")

    def count(self, *value: Any) -> int:
        return super().count(*value) if value else len(self._values())

    def nunique(self) -> int:
        return len(set(self._values()))

    def unique(self) -> list[Any]:
        return list(dict.fromkeys(self._values()))

    def tolist(self) -> list[Any]:
        return list(self)

    @property
    def dt(self) -> _DateParts:
        return _DateParts(self)


class _DateParts:
    """A date column's `.dt.year`, `.dt.month`, `.dt.day`, as pandas gives them."""

    __slots__ = ("_column",)

    def __init__(self, column: Column) -> None:
        self._column = column

    def _part(self, name: str) -> Column:
        return Column(None if value is None else getattr(value, name) for value in self._column)

    year = property(lambda self: self._part("year"))
    month = property(lambda self: self._part("month"))
    day = property(lambda self: self._part("day"))


class Table(tuple[Mapping[str, Any], ...]):
    """A table's rows; `table["column"]` is that column, `table[mask]` the rows a mask keeps."""

    __slots__ = ()  # no attributes: nothing a program could set for a later reader

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, Column):
            if len(key) != len(self):
                raise ValueError(f"a mask of {len(key)} values for a table of {len(self)} rows")
            return Table(row for row, keep in zip(self, key, strict=True) if keep is True)
        if isinstance(key, bool) or not isinstance(key, str | int | slice):
            raise TypeError(
                "a table is a tuple of row dicts, not a pandas DataFrame: pick rows with "
                '[r for r in table if r["column"] == value] or table[table["column"] == value], '
                'a column with table["column"]'
            )
        if isinstance(key, slice):
            return Table(super().__getitem__(key))
        if not isinstance(key, str):
            return super().__getitem__(key)
        names = tuple(self[0]) if self else ()
        if key not in names and self:
            raise KeyError(f"no column {key!r}; the columns are {', '.join(map(repr, names))}")
        return Column(row[key] for row in self)


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
