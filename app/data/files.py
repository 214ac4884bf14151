"""Open a data file the user chose — CSV/TSV, Excel .xlsx, JSON lines or a JSON list of records —
as typed tables.

Nothing in a file is executed or rendered: cells are read as text or as the values the format
stores (an .xlsx formula as its cached value), every read is capped (bytes, rows, columns, cells,
characters per cell), and what was changed on the way in (renamed columns, error cells, lines in
another encoding) is said in `Table.notes`. Problems the user must fix raise `DataError` with a
message that says what and where.
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import datetime
import io
import itertools
import json
import math
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from app.data.cells import GAP_MARKERS, Cell, Column, read_column

MAX_FILE_BYTES = 50 * 1024 * 1024
MAX_UNPACKED_BYTES = 400 * 1024 * 1024  # an .xlsx is a zip: its parts together, unpacked
MAX_ROWS = 200_000
MAX_COLUMNS = 200
MAX_WIDE_COLUMNS = 5_000  # a column per date: read as rows (`_long`)
MAX_CELLS = 2_000_000
MAX_CELL_CHARS = 2_000
MAX_SHEETS = 20
MAX_NAME_CHARS = 60
_FEW_VALUES = 1_000  # a column with more distinct texts holds names or notes, not categories


class DataError(ValueError):
    """The file cannot be used as data; the message says why, for the user."""


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    types: tuple[str, ...]  # per column: "int", "float", "bool", "date", "datetime", "text" or "empty"
    rows: tuple[tuple[Cell, ...], ...]  # dates as ISO text
    notes: tuple[str, ...] = ()
    missing: tuple[int, ...] = ()  # per column: cells without a value (empty, NA, -, …)
    units: tuple[str, ...] = ()  # per column: `cells.Column.unit` ("%", "$", "minutes"), else ""

    def to_wire(self) -> dict[str, Any]:
        return {"columns": list(self.columns), "types": list(self.types), "rows": [list(row) for row in self.rows]}


@dataclass(frozen=True)
class DataSet:
    source: str  # the file's name, for the user
    tables: tuple[Table, ...]
    notes: tuple[str, ...] = field(default=())

    @cached_property
    def wire(self) -> dict[str, Any]:
        """What the sandbox gets (sandbox.data's form); built once, shared by every run."""
        return {table.name: table.to_wire() for table in self.tables}

    @cached_property
    def shared_values(self) -> frozenset[Cell]:
        """Values every row of a table holds in some column, and the year (or month) every date of
        a date column has: comparing with one of them keeps every row, so it filters nothing."""
        shared: set[Cell] = set()
        for table in self.tables:
            for index, kind in enumerate(table.types):
                values = {row[index] for row in table.rows} - {None}
                if kind in ("date", "datetime"):
                    for part in (slice(0, 4), slice(5, 7)):  # ISO text: the year, the month
                        parts = {str(value)[part] for value in values}
                        shared.update(int(p) for p in parts if len(parts) == 1 and p.isdigit())
                elif len(values) == 1:
                    shared.update(values)
        return frozenset(shared)

    @cached_property
    def text_values(self) -> dict[str, frozenset[str]]:
        """Each text column's values (a category's names), where it has at most 1,000 of them."""
        found: dict[str, set[str]] = {}
        for table in self.tables:
            for index, kind in enumerate(table.types):
                if kind == "text":
                    found.setdefault(table.columns[index], set()).update(
                        value for row in table.rows if isinstance(value := row[index], str)
                    )
        return {column: frozenset(values) for column, values in found.items() if len(values) <= _FEW_VALUES}

    @property
    def summary(self) -> str:
        """One line for the window: the file and the size of each table."""
        parts = [f"{t.name}: {len(t.rows):,} rows × {len(t.columns)} columns" for t in self.tables]
        return f"{self.source} — " + "; ".join(parts)


def open_data(path: Path) -> DataSet:
    """The tables in `path`, by its suffix (.csv, .tsv, .txt, .data, .xlsx/.xlsm, .jsonl/.ndjson, .json/.geojson)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DataError(f"{path.name} cannot be read: {exc.strerror or exc}") from exc
    if size == 0:
        raise DataError(f"{path.name} is empty")
    if size > MAX_FILE_BYTES:
        raise DataError(
            f"{path.name} is {size / 2**20:.0f} MB; PAL Studio reads files up to {MAX_FILE_BYTES // 2**20} MB"
        )
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):  # .xlsm: a workbook with macros; its values are read, its macros never run
        return DataSet(path.name, _xlsx_tables(path))
    if suffix in OTHER_FORMATS:
        raise DataError(f"{path.name} is {OTHER_FORMATS[suffix]}; save it as .xlsx or CSV first")
    data = path.read_bytes()
    if suffix == ".xls" and data.startswith(_OLE):
        raise DataError(f"{path.name} is an old Excel file (.xls); save it as .xlsx or CSV first")
    if suffix == ".xls" and data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<":
        raise DataError(
            f"{path.name} is a web page saved with an Excel name (as bank exports often are); "
            "open it in a spreadsheet and save it as .xlsx or CSV"
        )
    if suffix in (".jsonl", ".ndjson"):
        return DataSet(path.name, (_records_table(_name(path.stem), _json_lines(_name(path.stem), data)),))
    if suffix in (".json", ".geojson"):
        blocks = _json_records(_name(path.stem), data)
        return DataSet(path.name, tuple(_records_table(name, records) for name, records in blocks.items()))
    return DataSet(path.name, _csv_tables(_name(path.stem), data, tab=suffix == ".tsv"))


# The suffixes `open_data` reads (an .xls where it is text, as the IMF's and banks' are), and the files
# people keep data in that only other programs read: what each is, for the message.
READ_SUFFIXES = (
    ".csv", ".tsv", ".txt", ".data", ".dat", ".xlsx", ".xlsm", ".xls", ".jsonl", ".ndjson", ".json", ".geojson",
)  # fmt: skip
OTHER_FORMATS = {
    ".ods": "an OpenDocument spreadsheet (LibreOffice, OpenOffice)",
    ".numbers": "an Apple Numbers file",
    ".xlsb": "an Excel binary workbook",
    ".parquet": "a Parquet file",
    ".feather": "a Feather file",
    ".sav": "an SPSS data file",
    ".dta": "a Stata data file",
    ".sas7bdat": "a SAS data file",
    ".rds": "an R data file",
    ".rdata": "an R data file",
    ".pdf": "a PDF document",
    ".docx": "a Word document",
}


# An .xls that does not begin so is text (the IMF's World Economic Outlook, many banks): read as CSV.
_OLE = b"\xd0\xcf\x11\xe0"  # a compound file (OLE2), as Excel 97–2003 writes one


# -- CSV ------------------------------------------------------------------------------------


def _csv_tables(name: str, data: bytes, *, tab: bool) -> tuple[Table, ...]:
    text, notes = _text(name, data)
    comments = _LEADING_COMMENTS.match(text)
    if comments:  # "# Data source: …" above the column names, as exported data often begins
        text = text[comments.end() :]
        lines = comments.group().count("\n")
        notes.append(f"{lines} comment line{'s' if lines > 1 else ''} above the column names left out")
    sample = text[:65536]
    if tab:
        delimiter = "\t"
    else:
        try:
            delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","  # one column, or nothing to tell by
    try:
        rows = list(_capped_rows(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), name))
        if all(len(row) < 2 for row in rows[:_SPACED_LINES]):  # one column: perhaps columns set apart by spaces
            spaced = _spaced(text, name)
            rows, delimiter = (spaced, " ") if spaced else (rows, delimiter)
    except csv.Error as exc:
        raise DataError(f"{name} is not readable as CSV: {exc}") from exc
    rows, wide = _long(name, rows)  # a column per date
    notes += [wide] if wide else []
    if delimiter in "\t " and _named_rows(rows):  # R's write.table: no column name over the rows' names
        rows = [["row_name", *rows[0]], *rows[1:]]
        notes.append("the first column has no name in the file (row names, as R writes them): called row_name")
    details = _series_details(rows)
    if details:
        return _series_tables(name, [row for row in rows if _filled(row)], details, notes)
    # A file whose fields are separated by ";" comes from a spreadsheet where "," is the decimal mark.
    comma = delimiter == ";"
    (first, *more), repeated = _stacked(rows)
    if repeated:
        notes.append(f"the column names repeated {repeated:,} time{'s' if repeated > 1 else ''} further down left out")
    return (
        _table(name, first, notes, decimal_comma=comma),
        *(_table(f"{name}_{number}", block, [], decimal_comma=comma) for number, block in enumerate(more, start=2)),
    )


_SPACED_LINES = 50


def _spaced(text: str, name: str) -> list[Sequence[Any]] | None:
    """The rows of a file whose columns are set apart by spaces or tabs (R's `write.table`, the
    UCI repository's `.data` files, aligned text), where its first lines split so into the same
    number of fields, two or more — the names' line one fewer where rows have names (R) —; else
    None. Quoted fields keep their spaces ("Mazda RX4")."""
    lines = (line.strip().replace("\t", " ") for line in io.StringIO(text))
    reader = csv.reader(lines, delimiter=" ", skipinitialspace=True)
    head = [row for row in itertools.islice(reader, _SPACED_LINES) if row]
    counts = [len(row) for row in head]
    if len(counts) < 2 or counts[0] < 2 or len(set(counts[1:])) > 1 or counts[1] - counts[0] not in (0, 1):
        return None
    return head + [row for row in _capped_rows(reader, name) if row]


def _named_rows(rows: Sequence[Sequence[Any]]) -> bool:
    """Every row holds one field more than the names' line (blank lines aside), not a separator
    after its last field (as some exports end each row)."""
    if len(rows) < 2 or not all(len(row) == len(rows[0]) + 1 or not _filled(row) for row in rows[1:]):
        return False
    return any(not _blank(row[-1]) for row in rows[1:] if row)


def _stacked(rows: Sequence[Sequence[Any]]) -> tuple[list[list[Sequence[Any]]], int]:
    """The tables of a file that holds several, one under another (UNdata's footnotes under its
    data): after an empty line, a row of two names or more, no numbers in it, starts a table of
    its own where the table above has rows of three cells or more — unless that table is text only
    and as wide (a blank line in a list of names and places); the first table's names again
    (exports joined into one file), wherever they stand, are left out, and counted. Empty lines
    are dropped."""
    blocks: list[list[Sequence[Any]]] = [[]]
    after_blank, repeated = False, 0
    text_only = 0  # how many of the last block's rows are known to hold no number (scanned once)
    for row in rows:
        if not any(map(str.strip, map(str, row))):  # an empty line (this loop sees every row: kept fast)
            after_blank = True
            continue
        names = after_blank and _filled(row) >= 2 and not any(_data_like(cell) for cell in row)
        after_blank = False
        if len(blocks[0]) > 1 and row[0] == blocks[0][0][0] and _same(row, blocks[0][0]):
            repeated += 1
            continue
        if names and sum(_filled(above) >= 3 for above in blocks[-1]) >= 2:
            block = blocks[-1]
            while text_only < len(block) and not any(_data_like(cell) for cell in block[text_only]):
                text_only += 1
            if text_only < len(block) or _filled(row) != _filled(block[0]):
                blocks.append([])
                text_only = 0
        blocks[-1].append(row)
    return [block for number, block in enumerate(blocks) if number == 0 or len(block) > 1], repeated


def _same(row: Sequence[Any], header: Sequence[Any]) -> bool:
    """`row` repeats the column names (a row of data like the first is data)."""
    same = _filled(row) >= 2 and [str(cell).strip() for cell in row] == [str(cell).strip() for cell in header]
    return same and not any(_data_like(cell) for cell in header)


def _series_tables(name: str, rows: Sequence[Sequence[Any]], details: int, notes: list[str]) -> tuple[Table, ...]:
    """A series under lines of details, as the ONS writes one: its years, quarters and months —
    one after another in the file — a table each, so that a sum over years is over years only;
    the series' title names the values."""
    notes = [*notes, f"{details} lines of details above the series left out; its title names the values"]
    kinds: dict[str, list[Sequence[Any]]] = {}
    for row in rows[details:]:
        period = _PERIOD.fullmatch(str(row[0]).strip())
        part = period.group(1) if period else None
        kind = "period" if period is None else "year" if part is None else "quarter" if "Q" in part else "month"
        kinds.setdefault(kind, []).append(row)
    if len(kinds) == 1:
        ((kind, series),) = kinds.items()
        return (_table(name, [[kind, rows[0][1]], *series], notes),)
    return tuple(  # the note is the file's: said once, with its first table
        _table(f"{name}_{kind}s", [[kind, rows[0][1]], *series], notes if number == 0 else [])
        for number, (kind, series) in enumerate(kinds.items())
    )


_LEADING_COMMENTS = re.compile(r"(?:[ \t]*#[^\n]*\n){1,10}")


def _text(name: str, data: bytes) -> tuple[str, list[str]]:
    """A text file's text, and a note where some lines were not UTF-8; a binary file is refused."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # Excel's "Unicode Text" (tab-separated)
        return data.decode("utf-16", errors="replace"), []
    wide = _utf16_without_mark(data[:65536])  # as some tools write it: no mark
    if wide is not None:
        return data.decode(wide, errors="replace"), []
    if b"\x00" in data[:65536]:
        raise DataError(f"{name} looks like a binary file, not text")
    return _decode(data)


def _utf16_without_mark(head: bytes) -> str | None:
    """ "utf-16-le" or "utf-16-be" where text of Latin letters is written so without a byte-order
    mark (every other byte zero, the others not), else None."""
    even, odd = head[0::2], head[1::2]
    if len(head) < 8 or not head.count(0):
        return None
    if odd.count(0) > 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def _decode(data: bytes) -> tuple[str, list[str]]:
    """UTF-8 (with or without a byte-order mark); lines that are not UTF-8 are read as
    Windows-1252, the usual other encoding of spreadsheet exports, and counted in a note."""
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    lines, other = [], 0
    for line in data.removeprefix(b"\xef\xbb\xbf").splitlines(keepends=True):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("cp1252", errors="replace"))
            other += 1
    said = f"{other:,} lines were not UTF-8 and were" if other > 1 else "1 line was not UTF-8 and was"
    return "".join(lines), [f"{said} read as Windows-1252"]


# -- JSON lines -----------------------------------------------------------------------------


def _json_lines(name: str, data: bytes) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise DataError(f"{name}, line {number}, is not JSON ({type(exc).__name__})") from exc
        if not isinstance(record, dict):
            raise DataError(f"{name}, line {number}, is not a JSON object")
        records.append(record)
        if len(records) > MAX_ROWS:
            raise DataError(f"{name} has more than {MAX_ROWS:,} rows")
    return records


def _json_records(name: str, data: bytes) -> dict[str, list[dict[str, Any]]]:
    """A .json file's records, by table name, in the shapes exports write them: a list of
    objects, an object holding one such list (`{"data": [...]}`), GeoJSON's features (their
    properties), pandas' `to_json` (a column of values by row, "split": columns and rows of
    values, or "list": a list of values per column), a list of rows under a row of names, the
    World Bank API's page of them after its details, an API's records in its envelope (`{"data":
    {"items": [...]}}`), an API's blocks of columns (Open-Meteo's
    "hourly" and "daily": a table each), or JSON lines under a .json name."""
    try:
        whole = json.loads(data)
    except RecursionError as exc:
        raise DataError(f"{name} is nested too deeply to read as data") from exc
    except ValueError:
        return {name: _json_lines(name, data)}  # several objects, one per line
    blocks = _columns_of_rows(whole)
    if blocks is not None:
        named = {name if len(blocks) == 1 else _name(f"{name}_{key}"): records for key, records in blocks.items()}
    else:
        records = _records_in(whole)
        if records is None:
            raise DataError(f"{name} is JSON but not a list of records (objects with the same keys)")
        named = {name: records}
    if any(len(records) > MAX_ROWS for records in named.values()):
        raise DataError(f"{name} has more than {MAX_ROWS:,} rows")
    return named


def _columns_of_rows(whole: Any) -> dict[str, list[dict[str, Any]]] | None:
    """Columns as lists of one length (`{"name": [...], "score": [...]}`), in the object or in
    objects inside it (Open-Meteo's `"hourly": {"time": [...], "temperature_2m": [...]}`): the
    rows of each such block by its key, else None."""
    if not isinstance(whole, dict) or isinstance(whole.get("data"), list):  # pandas' "split", or records
        return None
    blocks: dict[str, list[dict[str, Any]]] = {}
    for key, block in [("", whole), *((key, value) for key, value in whole.items() if isinstance(value, dict))]:
        columns = {
            str(name): values
            for name, values in block.items()
            if isinstance(values, list) and values and not any(isinstance(v, dict | list) for v in values)
        }
        if len(columns) >= 2 and len({len(values) for values in columns.values()}) == 1:
            blocks[str(key)] = [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]
    return blocks or None


def _records_in(whole: Any) -> list[dict[str, Any]] | None:
    """The records of parsed JSON in any of `_json_records`' shapes, else None."""
    if isinstance(whole, dict):
        whole = _object_records(whole)
    if isinstance(whole, list) and len(whole) == 2 and isinstance(whole[0], dict) and isinstance(whole[1], list):
        whole = whole[1]  # the World Bank's API: a page's details, then its records
    if isinstance(whole, list) and whole and all(isinstance(row, list) for row in whole):
        if all(isinstance(cell, str) for cell in whole[0]) and len(whole) > 1:  # rows of values under a row of names
            header, rows = [str(cell) for cell in whole[0]], whole[1:]
        else:  # rows of values alone ([[2020, 5], [2021, 6]])
            header, rows = [f"column_{n}" for n in range(1, max(map(len, whole)) + 1)], whole
        if len(set(header)) == len(header) and all(len(row) <= len(header) for row in rows):
            whole = [dict(zip(header, row, strict=False)) for row in rows]
    if not isinstance(whole, list) or not whole or not all(isinstance(record, dict) for record in whole):
        return None
    if all(record.get("type") == "Feature" and isinstance(record.get("properties"), dict) for record in whole):
        return [record["properties"] for record in whole]  # GeoJSON: each place's properties
    return whole


def _object_records(whole: dict[str, Any]) -> Any:
    """The records, or rows under names, of a JSON object in `_json_records`' shapes."""
    if isinstance(whole.get("columns"), list) and isinstance(whole.get("data"), list):
        return [whole["columns"], *whole["data"]]  # pandas' "split"
    if isinstance(whole.get("data"), list) and (socrata := _socrata(whole)):
        return socrata
    if not _has_records(whole) and (inner := _enveloped(whole)) is not None:
        return inner  # an API's records inside its envelope: {"data": {"items": [...]}, "meta": …}
    if whole and all(isinstance(value, dict) for value in whole.values()):
        return _by_row(whole)
    if _named_numbers(whole):  # {"Alice": 3, "Bob": 5, "Cara": 7}
        return [{"key": key, "value": value} for key, value in whole.items()]
    lists = [value for value in whole.values() if isinstance(value, list) and value]
    return lists[0] if len(lists) == 1 else [whole]  # one record, or its one list of records


def _enveloped(whole: dict[str, Any], depth: int = 3) -> list[dict[str, Any]] | None:
    """The longest list of objects in the objects nested in `whole` (down to `depth` levels); else None."""
    found: list[list[dict[str, Any]]] = []
    level = [value for value in whole.values() if isinstance(value, dict)]
    for _ in range(depth):
        found += [v for inner in level for v in inner.values() if isinstance(v, list) and v and _all_objects(v)]
        level = [v for inner in level for v in inner.values() if isinstance(v, dict)]
    return max(found, key=len) if found else None


def _all_objects(values: list[Any]) -> bool:
    return all(isinstance(value, dict) for value in values)


def _has_records(whole: dict[str, Any]) -> bool:
    """A list of objects at the top (pandas' "table" form: its "data" beside its "schema")."""
    return any(isinstance(value, list) and value and _all_objects(value) for value in whole.values())


def _socrata(whole: dict[str, Any]) -> list[list[Any]] | None:
    """A Socrata portal's `rows.json` (the open data of many US cities and states): the names under
    meta.view.columns, rows of values under data, the portal's own columns (":sid", ":created_at"
    …) left out; else None."""
    meta = whole.get("meta")
    view = meta.get("view") if isinstance(meta, dict) else None
    columns = view.get("columns") if isinstance(view, dict) else None
    if not isinstance(columns, list) or not columns or not all(isinstance(c, dict) and "name" in c for c in columns):
        return None
    kept = [i for i, column in enumerate(columns) if not str(column.get("fieldName", "")).startswith(":")]
    rows = [[row[i] if i < len(row) else None for i in kept] for row in whole["data"] if isinstance(row, list)]
    return [[str(columns[i]["name"]) for i in kept], *rows]


def _records_table(name: str, records: list[dict[str, Any]]) -> Table:
    columns: dict[str, None] = {}
    flat = [_flat(record) for record in records]
    for record in flat:
        columns.update(dict.fromkeys(record))
        if len(columns) > MAX_COLUMNS:
            raise DataError(_too_many_columns(name, len(columns)))
    header = list(columns)
    rows: list[list[Any]] = [header]
    for record in flat:
        rows.append([_json_cell(record.get(column)) for column in header])
    return _table(name, rows, [], named=True)


def _named_numbers(whole: dict[str, Any]) -> bool:
    """An object of three or more numbers by name (a count per person, a total per year): a table
    of keys and values, not one record of many columns."""
    numbers = [value for value in whole.values() if value is not None]
    numeric = all(isinstance(value, int | float) and not isinstance(value, bool) for value in numbers)
    return len(whole) >= 3 and bool(numbers) and numeric


def _by_row(whole: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """An object of objects as records: pandas' default `to_json` (each column's values by row,
    `{"score": {"0": 1, "1": 2}}`; rows named otherwise than by number keep their names as a
    column), else one record per key (its "index" form, the key kept as a column). Named rows and
    columns tell which is which by their values' kinds: a column's are one kind, a row's mix kinds
    (`{"age": {"Ann": 31, "Bo": 45}, "city": {"Ann": "Oslo", …}}`); where nothing tells, there are
    more rows than columns (a table is most often longer than it is wide)."""
    inner = {str(key) for values in whole.values() for key in values}
    told = _columns_by_kind(whole)
    if all(key.isdigit() for key in inner) or (told if told is not None else len(inner) > len(whole)):
        named = not all(key.isdigit() for key in inner)  # {"counts": {"apples": 3, "pears": 5}}
        key = next(candidate for candidate in ("key", "key_", "key__", "") if candidate not in whole)
        by_row: dict[str, dict[str, Any]] = {}
        for column, values in whole.items():
            for row, value in values.items():
                by_row.setdefault(str(row), {key: str(row)} if named else {})[str(column)] = value
        return list(by_row.values())
    name = next(candidate for candidate in ("key", "key_", "key__", "") if candidate not in inner)
    return [{name: key, **values} for key, values in whole.items()]


def _columns_by_kind(whole: dict[str, dict[str, Any]]) -> bool | None:
    """True where each inner object holds one kind of value and they differ (each is a column),
    False where one mixes kinds (each is a row), None where all hold one kind (nothing tells)."""
    kinds = [{_kind(value) for value in values.values() if value is not None} for values in whole.values()]
    if any(len(held) > 1 for held in kinds):
        return False
    return True if len({kind for held in kinds for kind in held}) > 1 else None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    return "number" if isinstance(value, int | float) else type(value).__name__


def _flat(record: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """A record's nested objects as columns of their own, named by their path ("price.amount")."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict) and value and depth:
            out.update({f"{key}.{inner}": v for inner, v in _flat(value, depth - 1).items()})
        else:
            out[str(key)] = value
    return out


def _json_cell(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)  # nested values stay text
    return value


# -- Excel ----------------------------------------------------------------------------------


def _xlsx_tables(path: Path) -> tuple[Table, ...]:
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise DataError(f"{path.name} is not a readable .xlsx file") from exc
    if unpacked > MAX_UNPACKED_BYTES:
        raise DataError(
            f"{path.name} unpacks to {unpacked / 2**20:.0f} MB; PAL Studio reads up to {MAX_UNPACKED_BYTES // 2**20} MB"
        )
    import openpyxl  # here: a second of imports that only .xlsx needs

    try:
        # read_only streams the rows; data_only gives each formula's cached value, never the formula.
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file
        raise DataError(f"{path.name} is not a readable .xlsx file ({type(exc).__name__})") from exc
    try:
        sheets = book.worksheets
        if len(sheets) > MAX_SHEETS:
            raise DataError(f"{path.name} has {len(sheets)} sheets; PAL Studio reads at most {MAX_SHEETS}")
        tables = []
        names: set[str] = set()
        lines: list[str] = []  # sheets of text lines (a cover sheet, a source): said, not tables
        for sheet in sheets:
            name = _unique(_name(sheet.title), names)
            notes: list[str] = []
            percent = _percent_columns(sheet)
            values = (_xlsx_row(row, notes, percent) for row in sheet.iter_rows(values_only=True))
            rows, wide = _long(name, [row for row in _capped_rows(values, name) if not all(_blank(c) for c in row)])
            notes += [wide] if wide else []
            if len(sheets) > 1 and _prose(rows):
                filled = " ".join(str(cell) for cell in rows[0] if not _blank(cell))
                line = " ".join(_CONTROL.sub("", filled).split())[:200]
                more = f" and {len(rows) - 1} more" if len(rows) > 1 else ""
                lines.append(f'the sheet "{sheet.title[:40]}" holds lines of text, not a table: "{line}"{more}')
            elif rows:  # an empty sheet is not a table
                errors = notes.count("error")
                said = [f"{errors:,} error cells (#DIV/0!, #N/A, …) were read as empty"] if errors else []
                if "duration" in notes:
                    said.append("durations read as seconds (0:45:12 is 2712)")
                notes = [note for note in notes if note not in ("error", "duration")] + said
                tables.append(_table(name, rows, notes))
    finally:
        book.close()
    if not tables:
        raise DataError(f"{path.name} has no table in any sheet" + (f": {lines[0]}" if lines else ""))
    return (dataclasses.replace(tables[0], notes=(*tables[0].notes, *lines)), *tables[1:])


def _prose(rows: Sequence[Sequence[Any]]) -> bool:
    """A sheet of lines to read, not a table: one line, or a cover sheet's lines of text (a cell a
    line, one of them a sentence), no number among them; a list of names is a table."""
    if len(rows) == 1:
        return True
    if not rows or any(_filled(row) != 1 or any(_data_like(cell) for cell in row) for row in rows):
        return False
    return any(len(str(cell).split()) >= 5 for row in rows for cell in row if not _blank(cell))


_EXCEL_ERRORS = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"}


def _percent_columns(sheet: Any) -> frozenset[int]:
    """The columns whose numbers Excel shows as percentages (0.125 shown as 12.5%), judged by the
    first rows' formats: read as the user sees them, 12.5 with the unit %, as a CSV's "12.5%" is."""
    found = set()
    for row in sheet.iter_rows(max_row=_FORMAT_ROWS):
        for index, cell in enumerate(row[:MAX_COLUMNS]):
            number = isinstance(cell.value, int | float) and not isinstance(cell.value, bool)
            if number and "%" in str(getattr(cell, "number_format", "") or ""):
                found.add(index)
    return frozenset(found)


_FORMAT_ROWS = 20


def _xlsx_row(row: Sequence[Any], notes: list[str], percent: frozenset[int] = frozenset()) -> list[Any]:
    cells = [_as_percent(value) if i in percent else _xlsx_cell(value) for i, value in enumerate(row)]
    notes.extend("error" for cell in cells if cell is _ERROR)
    if notes[:1] != ["duration"] and any(isinstance(value, datetime.timedelta) for value in row):
        notes.insert(0, "duration")  # said once, first: found without a search of the errors counted
    return [None if cell is _ERROR else cell for cell in cells]


_ERROR = object()  # an error cell (#DIV/0!): read as empty, and counted


def _as_percent(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return f"{round(value * 100, 10)!r}%"
    return _xlsx_cell(value)


def _xlsx_cell(value: Any) -> Any:
    if isinstance(value, str) and value in _EXCEL_ERRORS:
        return _ERROR
    if isinstance(value, datetime.datetime):
        return value.date().isoformat() if value.time() == datetime.time() else value.isoformat()
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if value is not None and not isinstance(value, int | float | str | bool):
        return str(value)
    return value


# -- shared ---------------------------------------------------------------------------------


def _capped_rows(rows: Iterable[Sequence[Any]], name: str) -> Iterator[Sequence[Any]]:
    """The rows, within the caps; a table wider than MAX_COLUMNS only where its names are dates
    (`_long` makes it rows)."""
    cells, widest = 0, MAX_COLUMNS
    for number, row in enumerate(rows, start=1):
        if number > MAX_ROWS + 1:
            raise DataError(f"{name} has more than {MAX_ROWS:,} rows")
        if len(row) > widest and not all(_blank(cell) for cell in row[widest:]):
            if number > 1 or len(row) > MAX_WIDE_COLUMNS or _dated_from(row) is None:
                raise DataError(_too_many_columns(name, len(row)))
            widest = MAX_WIDE_COLUMNS
        cells += len(row)
        if cells > MAX_CELLS + MAX_COLUMNS:
            raise DataError(f"{name} has more than {MAX_CELLS:,} cells")
        yield row


def _dated_from(header: Sequence[Any]) -> int | None:
    """Where the names of a table with a column per date (JHU's COVID-19 series: "1/22/20", …;
    Zillow's "2000-01-31", …) start being dates, after at most 20 others; else None."""
    start = next((i for i, cell in enumerate(header[:21]) if _PERIOD_NAME.fullmatch(str(cell).strip())), None)
    if start is None or not all(_PERIOD_NAME.fullmatch(str(cell).strip()) for cell in header[start:]):
        return None
    return start


# A date or a period as a column's name: 1/22/20, 2000-01-31, 31.01.2000, 2020, 2020-01, 2020 Q1, 2020M01
_PERIOD_NAME = re.compile(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}(?:[-/]\d{1,2}(?:[-/]\d{1,2})?| ?Q[1-4]|M\d{2})?")


def _long(name: str, rows: list[Sequence[Any]]) -> tuple[list[Sequence[Any]], str | None]:
    """A table with a column per date, wider than MAX_COLUMNS (`_capped_rows` let it through), as
    rows: one per row of the file and date, with the file's other columns, the date and its value
    (what pandas' `melt` makes), within MAX_CELLS, and the note saying so; else `rows` as they are."""
    header = rows[0] if rows else []
    start = _dated_from(header) if len(header) > MAX_COLUMNS else None
    if start is None:
        return rows, None
    periods = list(header[start:])
    yearly = all(re.fullmatch(r"\d{4}", str(period).strip()) for period in periods)
    long: list[Sequence[Any]] = [[*header[:start], "year" if yearly else "date", "value"]]
    for row in rows[1:]:
        ids, values = list(row[:start]), list(row[start:])
        long += ([*ids, period, values[j] if j < len(values) else None] for j, period in enumerate(periods))
        if len(long) * len(long[0]) > MAX_CELLS:
            raise DataError(
                f"{name} has {len(periods):,} columns of dates; as rows, one per row of the file and date, it "
                f"holds more than {MAX_CELLS:,} cells, which is what PAL Studio reads"
            )
    first, last = str(periods[0]).strip(), str(periods[-1]).strip()
    said = f"{len(periods):,} columns of dates ({first} … {last}) made rows: one per row of the file and date"
    return long, f'{said}, its number in "value"'


def _too_many_columns(name: str, count: int) -> str:
    return f"{name} has {count:,} columns; PAL Studio reads at most {MAX_COLUMNS}"


def _table(
    name: str, rows: Sequence[Sequence[Any]], notes: list[str], *, decimal_comma: bool = False, named: bool = False
) -> Table:
    """`rows`, the column names first (`named`: known to be names, as a JSON file's keys are)."""
    rows, notes = _framed([list(row[:MAX_COLUMNS]) for row in rows if not all(_blank(cell) for cell in row)], notes)
    if not rows:
        raise DataError(f"{name} holds no data")
    if len(rows) == 1:
        raise DataError(f"{name} holds a header line but no rows of data")
    width = max(len(row) for row in rows)
    header, data, note = (rows[0], rows[1:], None) if named else _header(rows, width)
    body = [[*row, *[None] * (width - len(row))] for row in data]
    columns, renamed = _column_names([header[i] if i < len(header) else None for i in range(width)])
    named_none = all(cell is None for cell in header)  # a file without names: column_1 … is no renaming
    notes = notes + [n for n in (note, None if named_none else renamed) if n]
    cut = marks = 0
    cleaned: list[list[Cell]] = []
    for row in body:
        out: list[Cell] = []
        for cell in row[:width]:
            value = _plain(cell)
            if isinstance(value, str) and value.endswith("]"):  # "1,425,775,850[3]", "India[b]"
                marks += (unmarked := _without_footnote_marks(value)) != value
                value = unmarked or None
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                value, cut = value[:MAX_CELL_CHARS], cut + 1
            out.append(value)
        cleaned.append(out)
    if cut:
        notes.append(f"{cut:,} {'cells' if cut > 1 else 'cell'} longer than {MAX_CELL_CHARS:,} characters cut")
    if marks:
        notes.append(f"footnote marks after {marks:,} value{'s' if marks > 1 else ''} left out (1,234[3] is 1,234)")
    read = [read_column(columns[i], [row[i] for row in cleaned], decimal_comma=decimal_comma) for i in range(width)]
    subtotals = _subtotals(cleaned, read)
    if subtotals:  # a pivot table's layout: "North Total" under North's rows, North said once
        cleaned = _filled_down([row for i, row in enumerate(cleaned) if i not in subtotals])
        read = [read_column(columns[i], [row[i] for row in cleaned], decimal_comma=decimal_comma) for i in range(width)]
        notes.append(
            f"{len(subtotals)} subtotal row{'s' if len(subtotals) > 1 else ''} left out (each the sum of its group's "
            f"rows), and each group's name written on all its rows"
        )
    total = _total_row(cleaned, read)
    if total:  # a sum a program would count twice (and take for the largest row); it is the rows' own
        cleaned = cleaned[:-1]
        read = [read_column(columns[i], [row[i] for row in cleaned], decimal_comma=decimal_comma) for i in range(width)]
        notes.append(f"the last row, {total}")
    read_as: dict[str, list[str]] = {}  # a note, and the columns it is about: one line for them all
    for column, reading in zip(columns, read, strict=True):
        if reading.note:
            read_as.setdefault(reading.note, []).append(column)
    notes += [f"{', '.join(named)}: {note}" for note, named in read_as.items()]
    typed = tuple(zip(*(c.values for c in read), strict=True)) if read else ()
    return Table(
        name, columns, tuple(c.kind for c in read), typed, tuple(notes),
        tuple(c.missing for c in read), tuple(c.unit for c in read),
    )  # fmt: skip


_TOTAL = re.compile(r"(?:grand\s+)?totals?|sum|summe|gesamt|insgesamt|total général|totaux|totale", re.I)
_MEAN = re.compile(r"average|avg\.?|mean|durchschnitt|mittelwert|moyenne|media|promedio", re.I)


def _total_row(cleaned: list[list[Cell]], read: Sequence[Column]) -> str | None:
    """What a last row that sums or averages the rows above is ("the sum", "the average": each
    number of it the sum or the mean of its column above, by its name "Total" or "Average"), else None."""
    if len(cleaned) < 3:
        return None
    last = [cell.strip() for cell in cleaned[-1] if isinstance(cell, str)]
    name = next((cell for cell in last if _TOTAL.fullmatch(cell) or _MEAN.fullmatch(cell)), None)
    numbers = [c for c in read if c.kind in ("int", "float")]
    if name is None or not numbers:
        return None
    mean = _MEAN.fullmatch(name) is not None
    for column in numbers:
        total, above = column.values[-1], [v for v in column.values[:-1] if isinstance(v, int | float)]
        expected = math.fsum(above) / max(len(above), 1) if mean else math.fsum(above)
        near = (5e-3, 0.05) if mean else (1e-6, 0.01)  # an average is mostly written rounded
        if total is not None and not math.isclose(float(total), expected, rel_tol=near[0], abs_tol=near[1]):
            return None
    return f'"{name}", left out: it is the {"average" if mean else "sum"} of the rows above'


_TOTAL_WORDS = ("total", "summe", "ergebnis", "total général")
_GROUP_TOTAL = re.compile(rf"(.{{1,200}}?)\s+(?:{'|'.join(_TOTAL_WORDS)})", re.I)


def _subtotals(cleaned: list[list[Cell]], read: Sequence[Column]) -> set[int]:
    """The indexes of a pivot table's subtotal rows: "North Total", its other names empty, each
    number the sum of the rows since the group's name — written only on its group's first row.
    Empty unless every such row adds up."""
    numbers = [i for i, column in enumerate(read) if column.kind in ("int", "float")]
    if not numbers or read[0].kind != "text" or len(cleaned) < 3:
        return set()
    if not any(isinstance(v, str) and v.rstrip().lower().endswith(_TOTAL_WORDS) for v in read[0].values):
        return set()  # no group's total: the usual table, looked at no further
    found: set[int] = set()
    group, sums = None, [0.0] * len(numbers)
    for index, row in enumerate(cleaned):
        label = row[0]
        named = _GROUP_TOTAL.fullmatch(label.strip()) if isinstance(label, str) else None
        if named and group is not None and named[1] == group:
            others = all(_blank(cell) for i, cell in enumerate(row[1:], start=1) if read[i].kind == "text")
            values = [read[i].values[index] for i in numbers]
            if not others or not all(
                isinstance(v, int | float) and math.isclose(v, total, rel_tol=1e-6, abs_tol=0.01)
                for v, total in zip(values, sums, strict=True)
            ):
                return set()
            found.add(index)
            group = None
            continue
        if isinstance(label, str) and label.strip():
            group, sums = label.strip(), [0.0] * len(numbers)
        elif label is not None and not _blank(label):
            return set()
        for n, i in enumerate(numbers):
            value = read[i].values[index]
            sums[n] += value if isinstance(value, int | float) else 0.0
    return found


def _filled_down(rows: list[list[Cell]]) -> list[list[Cell]]:
    """The group's name on each of its rows (it stood on the first only)."""
    group: Cell = None
    for row in rows:
        if _blank(row[0]):
            row[0] = group
        else:
            group = row[0]
    return rows


def _framed(rows: list[list[Any]], notes: list[str]) -> tuple[list[list[Any]], list[str]]:
    """The table inside what frames it, as reports and sheets come: without the title above the
    column names, the notes under it and empty columns before and after it, with a two-line
    header joined into one and Eurostat's codes in a column each; each change said in a note.
    `rows` has no blank lines."""
    above = _above_header(rows)
    if above:
        rows = rows[above:]
        notes = [*notes, f"{above} line{'s' if above > 1 else ''} above the column names left out (a title or comment)"]
    width = max((len(row) for row in rows), default=0)
    while width and all(len(row) < width or _blank(row[width - 1]) for row in rows):
        width -= 1  # trailing empty columns (a spreadsheet's formatting, not data)
    below = _notes_below(rows, width)
    if below:
        rows = rows[:-below]
        notes = [*notes, f"{below} note line{'s' if below > 1 else ''} under the table left out"]
    start = 0
    while start < width - 1 and all(start >= len(row) or _blank(row[start]) for row in rows):
        start += 1  # leading empty columns (a sheet that starts at B2)
    rows = [row[start:width] for row in rows]
    if _two_level(rows):  # "Sales" over "Q1" and "Q2": one header, "Sales Q1" and "Sales Q2"
        rows = [_joined_header(rows[0], rows[1], width - start), *rows[2:]]
        notes = [*notes, "two header lines joined into one (Sales over Q1 is Sales Q1)"]
    elif _labels_under(rows):
        rows = [_joined_header(rows[0], rows[1], width - start), *rows[2:]]
        notes = [*notes, "two header lines joined into one (each name with the label or unit under it)"]
    if _keys_joined(rows):
        rows = [[*str(row[0]).split("\\")[0].split(","), *row[1:]] for row in rows]
        notes = [*notes, "the first column's codes, joined by commas as Eurostat writes them, split into a column each"]
    return rows, notes


def _header(rows: Sequence[Sequence[Any]], width: int) -> tuple[Sequence[Any], Sequence[Sequence[Any]], str | None]:
    """The column names, the rows of data, and a note where the names are not the first row as it
    is: none at all where that row holds values (the UCI repository's .data files, a logger's
    output), "row_name" where only the first is missing (R's write.csv, pandas' to_csv)."""
    first = rows[0]
    if _headerless(rows):
        names = f"columns called column_1 … column_{width}" if width > 1 else "a column called column_1"
        return [None] * width, rows, f"the first line holds values, not column names: {names}"
    if width >= 2 and _blank(first[0]) and all(not _blank(cell) for cell in first[1:]):
        note = "the first column has no name in the file (row names, as R and pandas write them): called row_name"
        return ["row_name", *first[1:]], rows[1:], note
    return first, rows[1:], None


def _headerless(rows: Sequence[Sequence[Any]]) -> bool:
    """The first row is data, not column names: each of its cells a value — a number or date over
    a column that has numbers or dates in it, or a text that its column repeats further down
    ("Iris-setosa") — and one of them no name can be: a number with a fractional part or a date
    ("5.1", "2024-01-05"), a number the row has twice, or a repeated text. A row of whole numbers
    alone stays the column names where they are years or count evenly ("2019,2020,2021", "0,5,10");
    other whole numbers are values ("10" over a column of numbers, "12,7,30")."""
    below, seen = rows[1:51], set[str]()
    telling = False
    for i, cell in enumerate(rows[0]):
        if _blank(cell):
            continue
        column = [str(row[i]).strip() for row in below if i < len(row) and not _blank(row[i])]
        text = str(cell).strip()
        if _data_like(cell):
            if not any(_data_like(value) for value in column):
                return False
            telling = telling or not _WHOLE.fullmatch(text) or text in seen
            seen.add(text)
        elif text in column:
            telling = True
        else:
            return False
    return telling or _counted_values(rows[0])


_WHOLE = re.compile(r"\d{1,9}")


def _counted_values(row: Sequence[Any]) -> bool:
    """A row of whole numbers only that no one names columns by: neither years nor numbers
    counting evenly (1, 2, 3; 0, 5, 10)."""
    texts = [str(cell).strip() for cell in row if not _blank(cell)]
    if not texts or not all(_WHOLE.fullmatch(text) for text in texts):
        return False
    numbers = [int(text) for text in texts]
    steps = {b - a for a, b in itertools.pairwise(numbers)}
    return not all(1800 <= n <= 2199 for n in numbers) and not (len(steps) == 1 and steps != {0})


def _above_header(rows: Sequence[Sequence[Any]]) -> int:
    """How many title lines stand above the column names (a report's title): leading rows of one
    filled cell — or of a few, with a number in them ("Population by county, 2020"), narrower than
    what follows — when a wider row of names, no numbers or dates in it, follows within 10; or
    leading rows of at most two ("Last Updated Date","2024-06-28", as the World Bank's files
    begin) over a row of three names or more, years among them. A header with one name ("Date,,")
    over rows of data stays the header."""
    for index, row in enumerate(rows[:11]):
        if _filled(row) >= 3:
            if index and all(_blank(cell) or not _data_like(cell) or _YEAR.fullmatch(str(cell)) for cell in row):
                return index
            break
    wide = [(index, _filled(row)) for index, row in enumerate(rows[:11]) if _filled(row) >= 2]
    for (index, filled), after in zip(wide, [*wide[1:], (0, 0)], strict=False):
        if not any(_data_like(cell) for cell in rows[index]):
            return index
        if filled >= after[1]:
            return 0  # data as wide as what follows: there is no title
    return 0


_YEAR = re.compile(r"\s*(?:1[89]|20)\d\d\s*")  # a column name as the World Bank's are: "1960" … "2023"


def _keys_joined(rows: Sequence[Sequence[Any]]) -> bool:
    """Eurostat's first column: "freq,unit,geo\\TIME_PERIOD" over "A,PC,DE" — as many codes in
    each row as names in the header."""
    if not rows or not rows[0] or not isinstance(rows[0][0], str) or _KEYS.fullmatch(rows[0][0]) is None:
        return False
    count = rows[0][0].count(",")
    return all(len(row) > 0 and isinstance(row[0], str) and row[0].count(",") == count for row in rows[1:])


_KEYS = re.compile(r"\w{1,40}(?:,\w{1,40}){1,10}\\\w{1,40}")


def _two_level(rows: Sequence[Sequence[Any]]) -> bool:
    """A header over a second header line: names over a line of names (no numbers or dates) that
    fills cells the first left blank (merged cells), and data under them."""
    if len(rows) < 3:
        return False
    top, sub, data = rows[0], rows[1], rows[2]
    gaps = any(_blank(top[i]) if i < len(top) else True for i, cell in enumerate(sub) if not _blank(cell))
    names = _filled(sub) >= 2 and not any(_data_like(cell) for cell in sub)
    return gaps and names and any(_data_like(cell) for cell in data) and not _blank(top[0] if top else None)


def _labels_under(rows: Sequence[Sequence[Any]]) -> bool:
    """Names over a line of labels or units (the Census Bureau's "B01003_001E" over "Estimate!!Total",
    "weight" over "kg"): a label of text under every name over numbers — over text it may be
    missing ("name" over nothing) — and in two columns at least, numbers follow it in every row
    (up to 20)."""
    if len(rows) < 4 or _filled(rows[0]) < 2:
        return False
    top, sub, data = rows[0], rows[1], rows[2:22]
    if any(_data_like(cell) or str(cell).strip().lower() in GAP_MARKERS for cell in sub if not _blank(cell)):
        return False
    numbers = [all(i < len(row) and _data_like(row[i]) and not _blank(row[i]) for row in data) for i in range(len(top))]
    labelled = [i < len(sub) and not _blank(sub[i]) for i in range(len(top))]
    if any(not _blank(cell) and not labelled[i] and numbers[i] for i, cell in enumerate(top)):
        return False
    return sum(n and label for n, label in zip(numbers, labelled, strict=True)) >= 2


def _series_details(rows: Sequence[Sequence[Any]]) -> int:
    """How many lines of details ("Title","CPIH …", "Unit","%") stand over a series of two columns
    with no column names, as the Office for National Statistics writes one: 2–20 leading lines of
    a name, no number in it, and a value, not all numbers, before rows that are numbers only
    ("1989","6.3"; "2020 Q1","1.6")."""
    if not rows or max(map(len, rows)) != 2:
        return 0
    rows = list(itertools.islice((row for row in rows if _filled(row)), 21))
    if not rows or len(rows[0]) < 2 or _blank(rows[0][1]):
        return 0
    for index, row in enumerate(rows):
        if all(_data_like(cell) or _PERIOD.fullmatch(str(cell)) for cell in row) and len(row) == 2:
            details = rows[:index]
            valued = [row[1] for row in details if len(row) > 1 and not _blank(row[1])]
            if index >= 2 and not all(_data_like(value) for value in valued):
                return index if all(_named(row[0]) for row in details) else 0
            return 0
    return 0


_PERIOD = re.compile(r"\d{4}( Q[1-4]| [A-Z]{3})?")  # ONS's periods: 2020, 2020 Q1, 2020 JAN


def _named(cell: Any) -> bool:
    """A line of details' name: "Title", "Release date" — no digit (a "2023-Q1" is a row of data)."""
    return not any(char.isdigit() for char in str(cell))


def _joined_header(top: Sequence[Any], sub: Sequence[Any], width: int) -> list[Any]:
    """Each column's name: the name above it (carried across merged cells) and its own."""
    joined, above = [], None
    for i in range(width):
        own = top[i] if i < len(top) and not _blank(top[i]) else None
        above = own if own is not None else above
        below = sub[i] if i < len(sub) and not _blank(sub[i]) else None
        joined.append(own if below is None else " ".join(str(part).strip() for part in (above, below) if part))
    return joined


def _filled(row: Sequence[Any]) -> int:
    return sum(not _blank(cell) for cell in row)


# A note under a table: a marker ("* unaudited", "¹ estimated", "[2] …"), a note's word ("Source: …") or
# an export's footer ("Data from database: World Development Indicators", "Last Updated: 12/16/2024").
_NOTE = re.compile(
    r"\s*(?:[*†‡¹²³©]|\[\d{1,2}\]|\(\d{1,2}\)\s|(?:notes?|sources?|footnotes?|quelle|anmerkung|hinweis|fuente|nota)\b"
    r"|(?:last\s+updated|data\s+from|retrieved|downloaded|copyright)\b|(?:updated|extracted|stand)\s*:)",
    re.I,
)
_SENTENCE = re.compile(r"\s*(?:\S+\s+){5}")  # six words or more


def _notes_below(rows: Sequence[Sequence[Any]], width: int) -> int:
    """How many lines under a table of several columns are notes ("Note: figures are estimates",
    "* unaudited", "Data for 2021 are provisional."): trailing rows of one filled cell that reads
    as a note, at most 10. A row with only its name filled is data, and so is a sentence under a
    table whose column of it holds sentences (answers to a survey)."""
    count = 0
    while width >= 2 and count < min(10, len(rows) - 2) and _filled(rows[-1 - count]) == 1:
        row = rows[-1 - count]
        column, cell = next((i, cell) for i, cell in enumerate(row) if not _blank(cell))
        if not isinstance(cell, str) or not (_NOTE.match(cell) or _lone_sentence(rows, column, cell)):
            break
        count += 1
    return count


def _lone_sentence(rows: Sequence[Sequence[Any]], column: int, cell: str) -> bool:
    """`cell` is a sentence, and no other cell of its column is one."""
    above = (row[column] for row in rows[1:] if column < len(row) and isinstance(row[column], str))
    return bool(_SENTENCE.match(cell)) and not any(_SENTENCE.match(text) for text in above if text != cell)


_DATA_LIKE = re.compile(r"[\d\s.,:/$€£%()+-]+")


def _data_like(cell: Any) -> bool:
    return isinstance(cell, int | float) or (isinstance(cell, str) and _DATA_LIKE.fullmatch(cell) is not None)


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _plain(cell: Any) -> Cell:
    if cell is None or isinstance(cell, bool | int | float):
        if isinstance(cell, float) and math.isnan(cell):  # no value
            return None
        return cell
    text = _CONTROL.sub("", str(cell)).strip()
    forced = _FORCED_TEXT.fullmatch(text)  # ="0123": Excel's way to keep a code's leading zero
    return (forced.group(1) if forced else text) or None


_FORCED_TEXT = re.compile(r'="([^"]{0,200})"')


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Footnote marks as Wikipedia's tables carry them after a value: [3], [b], [note 1], [citation needed].
# "[3]", "[b]", "[note 1]", "[citation needed]"; the World Bank DataBank's "2020 [YR2020]"
_MARKS = re.compile(r"(?:\[(?:\d{1,3}|[A-Za-z]{1,2}|(?:note|nb|n) ?\d{1,3}|[a-z]{1,15} needed|YR\d{4})\])+\Z")
_MARKS_TAIL = 60  # the marks are looked for in a value's last characters only: linear, however long it is


def _without_footnote_marks(text: str) -> str:
    """`text` without the footnote marks at its end (nothing where it is only marks)."""
    tail = text[-_MARKS_TAIL:]
    found = _MARKS.search(tail)
    return text if found is None else text[: len(text) - len(tail) + found.start()].rstrip()


def _column_names(header: Sequence[Any]) -> tuple[tuple[str, ...], str | None]:
    """Names as the program will use them: text, unique, never empty; a note if any changed."""
    seen: set[str] = set()
    names, changed = [], []
    for position, raw in enumerate(header, start=1):
        # one line: a name is written into the model's prompt, where a line break could start a turn
        text = (
            " ".join(_without_footnote_marks(_CONTROL.sub("", str(raw))).split())[:MAX_NAME_CHARS]
            if raw not in (None, "")
            else ""
        )
        name = _unique(text or f"column_{position}", seen)
        if name != (str(raw).strip() if raw is not None else ""):
            changed.append(f"{raw!s:.20} → {name}" if text else f"(empty) → {name}")
        names.append(name)
    note = f"column names changed: {', '.join(changed[:8])}" + (" …" if len(changed) > 8 else "") if changed else None
    return tuple(names), note


def _unique(name: str, seen: set[str]) -> str:
    candidate, number = name, 2
    while candidate in seen:
        candidate, number = f"{name}_{number}", number + 1
    seen.add(candidate)
    return candidate


def _name(stem: str) -> str:
    """A table name a program can write: letters, digits and underscores."""
    name = re.sub(r"\W+", "_", stem.strip().lower()).strip("_")[:MAX_NAME_CHARS]
    return name if name and not name[0].isdigit() else f"table_{name}"
