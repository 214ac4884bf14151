"""How a column's cells are read: numbers, dates and gaps in the forms people keep them in.

A column is read as one kind — the first of int, float, bool, date, datetime that every cell with
a value fits — else as text, cell by cell unchanged. On the way:

- Gaps: in a column of numbers or dates, an empty cell and the usual markers (`NA`, `N/A`, `-`,
  `null`, `NaN`, `#N/A`, the World Bank's `..`, Eurostat's `:` …) are missing values (None),
  counted for the model and the user; in a column of text only an empty cell is (`NA` may be
  North America there).
- Numbers: thousands separators (`1,234`, India's `12,34,567`, Switzerland's `1'234`), a currency
  sign before or after (`$1,234.50`, `12 €`), a percent sign (`12.5%` is 12.5, the column's unit
  `%`), accounting negatives (`(12.50)`, `$(300)`, `12.50-`), K, M and B where a column mixes them
  (`850K`, `1.2M`), and, in files that separate their fields with `;`, decimal commas (`1.234,56`)
  — elsewhere too where a value can be nothing else (`1.200,50`, `12,5 %`); one unit after every
  number (`12 kg`, the column's unit `kg`), where the column is not dates; in a column of rain or
  snow, the US weather service's `T` (a trace) is 0 and its `M` a gap.
- Dates: ISO with or without a time and zone, `YYYY/MM/DD`, `DD.MM.YYYY`, `DD/MM/YYYY` or
  `MM/DD/YYYY` (with a time, `2:30 PM` too) — decided for the whole column from its values, and
  said when the values cannot tell —, month names (`5 Jan 2024`, `January 5, 2024`, by python-dateutil) and, in a column
  named as a date, Excel's serial day numbers and compact `YYYYMMDD` numbers (`19580329`). Dates
  that are all 1 January (three years or more) are yearly data: read as the years.
- Months with a year of two digits (`Jan-24`, `Feb 24`, as spreadsheets write them) are the 1st of
  each month, where the column names more months than numbers (else they may be days, no year).
- Durations written with colons (`2:05:30`, `3:45`) are seconds, where the column's name or its
  values say they are not times of day (see `_durations`); written with units (`2h 22min`,
  `58 min`) minutes, or seconds where a value states seconds.
- Ticks: a column of nothing but ticks (`x`, `✓`) and empty cells — an attendance list, a
  checklist — is yes and no; elsewhere `x` is a gap (statistics offices' suppressed value).

Every pattern is anchored and linear in the cell's length; cells are at most 2,000 characters.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

Cell = int | float | bool | str | None
# ("int" or "float", the unit, a reader of each value, a note): a column read with what follows its numbers
_Reading = tuple[str, str, Callable[[Cell], Cell], str | None]

GAP_MARKERS = frozenset(
    {"na", "n/a", "n.a.", "nan", "null", "none", "nil", "-", "--", "—", "–", "?", "#n/a", "missing"}
    # statistics offices: FRED's ".", the World Bank's and OECD's "..", Eurostat's ":", the US
    # Census Bureau's "(X)" (not applicable) and "*****" (no margin of error)
    | {".", "..", "...", "…", ":", "x", "(x)", "*", "**", "***", "****", "*****"}
)
_BOOLS = {"true": True, "false": False, "yes": True, "no": False}
_INT = re.compile(r"[-+]?\d{1,18}")
_CURRENCY = "$€£¥₹"
_CODES = "USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|INR|CNY|SEK|NOK|DKK|PLN|BRL|MXN|ZAR|SGD|HKD"  # "USD 1,234.50"
_NUMBER = re.compile(
    rf"(?P<lead>[{_CURRENCY}]|(?:{_CODES})(?=[\s\d(]))?(?P<open>\()?(?P<sign>[-+−])?\s?(?P<before>[{_CURRENCY}])?\s?"
    rf"(?P<digits>[\d.,'’ \u00a0\u202f]*\d)"
    rf"(?P<exp>[eE][-+]?\d+)?\s?(?P<after>[{_CURRENCY}%])?(?P<trail>[-−])?(?P<close>\))?"
)  # "12.50-": a negative amount as accounting systems export it
_COMMA_THOUSANDS = re.compile(  # 1,234.5; India's 12,34,567; Switzerland's 1'234.5
    r"(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3}|\d{1,3}(?:['’]\d{3})+|\d+)(?:\.\d+)?|\.\d+"
)
_DOT_THOUSANDS = re.compile(r"\d{1,3}(?:[. \u00a0\u202f'’]\d{3})+(?:,\d+)?|\d+(?:,\d+)?|,\d+")
_YMD = re.compile(
    r"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?"
)
_XY = re.compile(
    r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?:[T ,]\s?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp])\.?[Mm]\.?)?)?"
)  # 12/31/2024, 31.12.24 10:15, 1/5/2024 2:30 PM (as US spreadsheets export them)
_MONTH_WORD = re.compile(r"(?i).{0,20}\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\b.{0,30}")
_YEAR = re.compile(r"\b\d{4}\b")
_SHORT_YEAR = re.compile(r"\d{1,2}[-/ ][A-Za-z]{3,9}[-/ ]\d{2}")  # 19-Sep-03, as spreadsheets export dates
_EXCEL_EPOCH = datetime.date(1899, 12, 30)  # serial 1 is 1900-01-01 (Excel's leap-year 1900 bug included)
_DATE_NAME = re.compile(r"(?i)date|day")
_COMPACT = re.compile(r"(?:1[89]|2[01])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")  # 1800–2199
_SERIALS = (20_000, 80_000)  # 1954 to 2119: a day number, not a count or an amount


@dataclass(frozen=True)
class Column:
    kind: str  # "int", "float", "bool", "date", "datetime", "text" or "empty"
    values: tuple[Cell, ...]  # dates and datetimes as ISO text
    missing: int  # cells without a value
    unit: str = ""  # "%", a currency sign every number of the column carried, or a duration's unit ("minutes")
    note: str | None = None  # how the column was read, where the user should know


def read_column(name: str, cells: Sequence[Cell], *, decimal_comma: bool = False) -> Column:
    """The column `name` read as one kind (see the module's docstring). `decimal_comma`: the file
    may write decimal commas (its fields are separated by ";"); a column decides by its values."""
    ticked = _ticks(cells)
    if ticked is not None:
        return ticked
    gaps = [None if _is_gap(cell) else cell for cell in cells]
    present = [cell for cell in gaps if cell is not None]
    missing = len(gaps) - len(present)
    if not present:
        return Column("empty", tuple(None for _ in cells), len(cells))
    if all(isinstance(v, bool) or (isinstance(v, str) and v.lower() in _BOOLS) for v in present):
        return Column("bool", tuple(_bool(v) for v in gaps), missing)
    if _serial_dates(name, present):
        days = tuple(None if v is None else _serial(v) for v in gaps)
        return Column("date", days, missing, note="numbers read as Excel serial dates (45306 is 2024-01-15)")
    compact = _compact_dates(name, present)
    if compact is not None:
        return Column("date", tuple(None if v is None else compact[str(v)] for v in gaps), missing)
    if _codes(present):  # "0123", "0456": zip codes, IDs — their leading zeros are part of them
        texts = tuple(None if cell is None else str(cell) for cell in gaps)
        return Column("text", texts, missing, note="numbers with leading zeros kept as text (0123 is a code)")
    gaps, marks = _weather_marks(name, gaps, present, decimal_comma)  # "T": a trace of rain, "M" a gap
    present = [cell for cell in gaps if cell is not None] if marks else present
    missing = len(gaps) - len(present)
    # Where the file may write decimal commas, a column that reads that way is read that way
    # ("12.500" is twelve thousand five hundred); else, or when one value cannot ("1,012.50"), not.
    numbers, note = _numbers_read(present, decimal_comma)
    if numbers is None:  # "12.5 p", "12.5*", "<5": the numbers, without their marks, as said
        gaps, marks = _without_number_marks(gaps, present, decimal_comma)
        if marks:
            present = [v for v in gaps if v is not None]
            missing = len(gaps) - len(present)
            numbers, note = _numbers_read(present, decimal_comma)
    if numbers is not None:
        kind, unit, read = numbers
        note = "; ".join(n for n in (note, marks) if n) or None
        return Column(kind, tuple(None if v is None else read(v) for v in gaps), missing, unit, note)
    timed = _timed(name, gaps, present)
    if timed is not None:
        return timed
    for reader in (_debits_and_credits, _measured, _magnitudes):  # numbers with a word or letter after them
        found = reader(present, decimal_comma)
        if found is not None:
            kind, unit, read, note = found
            return Column(kind, tuple(None if v is None else read(v) for v in gaps), missing, unit, note)
    texts = tuple(None if cell is None or cell == "" else str(cell) for cell in cells)
    return Column("text", texts, sum(value is None for value in texts))


def _timed(name: str, gaps: Sequence[Cell], present: Sequence[Cell]) -> Column | None:
    """The column as durations (seconds), dates, datetimes or years, where its values are those."""
    missing = len(gaps) - len(present)
    durations = _durations(name, present) or _spelled_durations(present)
    if durations is not None:  # the unit tells the model what the numbers count
        lengths, said, unit = durations
        kind = "float" if any(isinstance(v, float) for v in lengths.values()) else "int"
        return Column(kind, tuple(None if v is None else lengths[str(v).strip()] for v in gaps), missing, unit, said)
    months = _month_years(present)
    if months is not None:
        firsts, said = months
        return Column("date", tuple(None if v is None else firsts[str(v).strip()] for v in gaps), missing, note=said)
    dates = _dates(present)
    if dates is None:
        return None
    kind, read, note = dates
    values = tuple(None if v is None else read(v) for v in gaps)
    years = _years(kind, values)
    if years is not None:
        return Column("int", years, missing, note="dates that are all 1 January read as years (2001-01-01 is 2001)")
    return Column(kind, values, missing, note=note)


def _is_gap(cell: Cell) -> bool:
    """No value: nothing, or a marker — also with the column's unit around it ("N/A €", "n/a %"),
    or Eurostat's ":" with a flag (": c", confidential)."""
    if cell is None or cell == "":
        return True
    if not isinstance(cell, str):
        return False
    if cell.strip(f" {_CURRENCY}%\u00a0").lower() in GAP_MARKERS:
        return True
    return ":" in cell and _FLAGGED_GAP.fullmatch(cell) is not None


# Eurostat's flags after a value: b break in series, c confidential, d definition differs,
# e estimated, f forecast, n not significant, p provisional, r revised, s Eurostat estimate,
# u low reliability, z not applicable ("12.5 p", "3.1 bep", ": c").
_FLAG_LETTERS = "bcdefnprsuz"
# "12.5 p", "3.1 bep"; one letter glued on too, as NOAA's "0.05s" (suspect) — not b or d (billions, days)
_FLAGGED = re.compile(rf"(.{{0,40}}?\d)(?:\s+|(?=[cefnprsuz]\Z))([{_FLAG_LETTERS}]{{1,3}})")
_FLAGGED_GAP = re.compile(r"\s*:\s*[bcdefnprsuz]{0,3}\s*")
_FLAGS_NOTE = "flags after the numbers left out (12.5 p is 12.5: p provisional, e estimated, …)"


def _unflagged(present: Sequence[Cell]) -> list[Cell] | None:
    """The values without their flags where some carry one and all are numbers then, else None.
    One letter after every value is a unit ("3 s", "2 d"), not a flag."""
    if not any(isinstance(v, str) and _may_be_flagged(v) and _FLAGGED.fullmatch(v.strip()) for v in present):
        return None
    flags = [m.group(2) if m else None for m in (_FLAGGED.fullmatch(str(v).strip()) for v in present)]
    if len(flags) > 1 and all(flags) and len(set(flags)) == 1:
        return None
    stripped = [_without_flag(v) for v in present]
    return stripped if _numbers(stripped, comma=False) is not None else None


# Footnote marks after a number ("12.5*", "3.1†", "42¹", the Bureau of Labor Statistics'
# "310.326(P)" for preliminary, "12.3 (e)" for estimated), and bounds for counts too small to
# publish ("<5", as health statistics keep them private): a gap each, where the rest are numbers.
_MARK_SIGNS = "*†‡§¹²³⁴⁵⁶⁷⁸⁹⁰"
_MARKED = re.compile(rf"(.{{0,40}}?\d)\s?(?:[{_MARK_SIGNS}]{{1,3}}|\([A-Za-z]{{1,3}}\))")
_MARKS_NOTE = "footnote marks after the numbers left out (12.5* and 12.5(P) are 12.5)"
_BOUND = re.compile(r"[<>≤≥]=?\s?\d[\d.,]{0,20}")
_BOUNDS_NOTE = "values given only as a bound (<5, as small counts are kept private) read as missing"


def _without_number_marks(
    gaps: list[Cell], present: Sequence[Cell], decimal_comma: bool
) -> tuple[list[Cell], str | None]:
    """The cells (`present`: those with a value) without the marks on their numbers — a statistics
    office's flags, footnote marks, bounds (gaps then) — where all then read as numbers, and the
    note saying so; else as they are. Every column of text passes here: it ends at its first word."""
    for value in present:
        if isinstance(value, str) and not _may_be_marked(value) and _number(value, decimal_comma) is None:
            return gaps, None
    if _unflagged(present) is not None:
        return [_without_flag(v) for v in gaps], _FLAGS_NOTE
    if any(isinstance(v, str) and v.rstrip()[-1:] in _MARK_SIGNS + ")" for v in present):
        unmarked = [_without_mark(v) for v in gaps]
        plain = any(u == v for u, v in zip(unmarked, gaps, strict=True) if v is not None)  # "2 (S)", "4 (M)": sizes
        if plain and _numbers_read([v for v in unmarked if v is not None], decimal_comma)[0] is not None:
            return unmarked, _MARKS_NOTE
    if any(isinstance(v, str) and v.lstrip()[:1] in "<>≤≥" for v in present):
        bounded = [None if isinstance(v, str) and _BOUND.fullmatch(v.strip()) else v for v in gaps]
        rest = [v for v in bounded if v is not None]
        if rest and _numbers_read(rest, decimal_comma)[0] is not None:
            return bounded, _BOUNDS_NOTE
    return gaps, None


_WEATHER = re.compile(r"(?i)prcp|precip|rain|snow|snwd")  # columns of rain and snow


def _weather_marks(
    name: str, gaps: list[Cell], present: Sequence[Cell], decimal_comma: bool
) -> tuple[list[Cell], str | None]:
    """A rain or snow column as the US National Weather Service writes one: "T" (a trace, too
    little to measure) is 0 and "M" is missing, where the other values (`present`: the cells with
    one) are numbers; else the cells as they are, and no note."""
    marked = {v for v in present if v in ("T", "M")} if _WEATHER.search(name) else set()
    if not marked:
        return gaps, None
    rest = [v for v in present if v not in marked]
    if not rest or _numbers_read(rest, decimal_comma)[0] is None:
        return gaps, None
    read = [0.0 if v == "T" else None if v == "M" else v for v in gaps]
    said = {"T": "T (a trace, too little to measure) read as 0", "M": "M read as missing"}
    return read, "; ".join(said[mark] for mark in sorted(marked, reverse=True))


def _may_be_marked(value: str) -> bool:
    """Cheaply: a mark at its end, a bound's sign at its start, or a number and a flag's letter or
    a mark in brackets."""
    last = value[-1:] if value[-1:] != " " else value.rstrip()[-1:]
    first = value[:1]
    return bool(first) and (
        last in _MARK_SIGNS or first in "<>≤≥" or (last in _FLAG_LETTERS + ")" and first in "0123456789-.(")
    )


def _without_mark(value: Cell) -> Cell:
    marked = _MARKED.fullmatch(value.strip()) if isinstance(value, str) else None
    return marked.group(1) if marked else value


def _may_be_flagged(value: str) -> bool:
    """Cheaply: a number, then a letter at its end (every column of every file passes here)."""
    return value[:1] in "0123456789-.(" and value.rstrip()[-1:] in _FLAG_LETTERS


def _without_flag(value: Cell) -> Cell:
    flagged = _FLAGGED.fullmatch(value.strip()) if isinstance(value, str) else None
    return flagged.group(1) if flagged else value


_TICKS = frozenset({"x", "✓", "✔", "☑", "✗", "✘"})
_TICKS_NOTE = "ticks read as yes, empty cells as no"


def _ticks(cells: Sequence[Cell]) -> Column | None:
    """A column of ticks and empty cells — an attendance list's "x", a checklist's ✓ — as yes and no;
    None where it holds anything else. "x" among numbers stays a gap (a statistics office's
    suppressed value), and so does a column of nothing but "x" (none of its cells says no)."""
    ticked = [cell.strip().lower() in _TICKS if isinstance(cell, str) and cell.strip() else None for cell in cells]
    blank = [cell is None or (isinstance(cell, str) and not cell.strip()) for cell in cells]
    if not any(ticked) or not any(blank) or not all(t or b for t, b in zip(ticked, blank, strict=True)):
        return None
    return Column("bool", tuple(bool(t) for t in ticked), 0, note=_TICKS_NOTE)


def _bool(value: Cell) -> Cell:
    return value if value is None or isinstance(value, bool) else _BOOLS[str(value).lower()]


# -- numbers ----------------------------------------------------------------------------------


def _numbers_read(
    present: Sequence[Cell], decimal_comma: bool
) -> tuple[tuple[str, str, Callable[[Cell], Cell]] | None, str | None]:
    """The column's numbers and a note: with a decimal comma first where the file may write them,
    else last — where no other reading works and a value shows it (`_DECIMAL_COMMA`)."""
    note = "numbers read with a decimal comma (1.234,5 is 1234.5)"
    numbers = _numbers(present, comma=True) if decimal_comma else None
    if numbers is not None:
        return numbers, note if _separated(present) else None
    numbers = _numbers(present, comma=False)
    if numbers is not None or decimal_comma:
        return numbers, None
    numbers = _numbers(present, comma=True)  # fails at the first word of a column of text
    if numbers is None or not any(isinstance(v, str) and _DECIMAL_COMMA.search(v) for v in present):
        return None, None
    return numbers, note


# A decimal comma no other reading can have: after a thousands dot, or before a unit ("1.200,50",
# "12,5 %", "85,20 €"). A bare "1,5" in a comma-separated file may be a list; it stays text.
_DECIMAL_COMMA = re.compile(rf"\d\.\d{{3}},\d|\d,\d{{1,2}}\s?[{_CURRENCY}%]")


def _measured(present: Sequence[Cell], decimal_comma: bool) -> _Reading | None:
    """ "12 kg", "3.5 kg" ("25 °C"): 12 and 3.5, the column's unit kg, where every value carries
    one unit after its number; else None."""
    units, plain = set(), list[Cell]()
    for value in present:
        match = _MEASURED.fullmatch(value.strip()) if isinstance(value, str) else None
        if match is None:
            return None
        units.add(match[2])
        plain.append(match[1])
        if len(units) > 1:
            return None
    numbers, note = _numbers_read(plain, decimal_comma)
    if not units or numbers is None or numbers[1]:
        return None
    kind, _none, read = numbers
    return kind, units.pop(), lambda value: read(_without_unit(value)), note


def _without_unit(value: Cell) -> Cell:
    match = _MEASURED.fullmatch(value.strip()) if isinstance(value, str) else None
    return match[1] if match else value


_MEASURED = re.compile(r"(.{0,40}?\d)\s?([A-Za-zµ°][A-Za-zµ°²³/]{0,7})")


# Thousands, millions and billions as social media and finance sites abbreviate them. One letter
# after every number is read as a unit ("300K" kelvin, "12M" stays 12 with the unit M); a column
# that mixes them, or has numbers without, cannot mean a unit.
_SCALES = {"k": 10**3, "K": 10**3, "M": 10**6, "mn": 10**6, "B": 10**9, "bn": 10**9, "Bn": 10**9}
_MAGNITUDE = re.compile(rf"(.{{0,40}}?\d)\s?({'|'.join(_SCALES)})")
_MAGNITUDES_NOTE = "numbers with K, M or B after them read as thousands, millions, billions (1.2M is 1200000)"


def _magnitudes(present: Sequence[Cell], _decimal_comma: bool) -> _Reading | None:
    """ "850K", "1.2M", "950": 850000, 1200000, 950, where the numbers carry K, M or B in more than
    one way (with one of them, or none); else None."""
    split = {}
    for value in present:
        match = _MAGNITUDE.fullmatch(value.strip()) if isinstance(value, str) else None
        if match is None and isinstance(value, str) and _number(value, comma=False) is None:
            return None  # a column of text ends here, at its first word
        split[str(value)] = (match[1], _SCALES[match[2]]) if match else (value, 1)
    if len({scale for _number, scale in split.values()}) < 2:
        return None
    numbers = _numbers([number for number, _scale in split.values()], comma=False)
    if numbers is None:
        return None
    _kind, unit, read_number = numbers
    # float first: an int has no is_integer() before Python 3.12
    scaled = {
        text: round(float(cast(float, read_number(number))) * scale, 6) for text, (number, scale) in split.items()
    }
    whole = all(value.is_integer() and abs(value) < 2**53 for value in scaled.values())

    def read(value: Cell) -> Cell:
        number = scaled[str(value)]
        return int(number) if whole else number

    return "int" if whole else "float", unit, read, _MAGNITUDES_NOTE


def _codes(present: Sequence[Cell]) -> bool:
    """Every value is digits, and some start with a 0: codes, not numbers."""
    zeros = False
    for value in present:  # one pass; a column of text ends at its first word
        if not (isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18):
            return False
        zeros = zeros or (value[0] == "0" and len(value) > 1)
    return zeros


_DR_CR = re.compile(r"(.{0,40}?\d\)?)\s?([DdCc][Rr])\.?")


def _debits_and_credits(present: Sequence[Cell], decimal_comma: bool) -> _Reading | None:
    """A bank's "4.50 DR", "2,000.00 CR": -4.5 and 2000, where every value carries DR (debit:
    negative) or CR (credit) and both are used; else None."""
    signed: dict[str, Cell] = {}
    marks = set()
    for value in present:
        match = _DR_CR.fullmatch(value.strip()) if isinstance(value, str) else None
        if match is None:
            return None  # a column of text ends here, at its first word
        marks.add(match[2].lower())
        signed[str(value)] = f"-{match[1]}" if match[2].lower() == "dr" else match[1]
    if marks != {"dr", "cr"}:
        return None
    numbers, _note = _numbers_read(list(signed.values()), decimal_comma)
    if numbers is None:
        return None
    kind, unit, read = numbers
    return kind, unit, lambda value: read(signed[str(value)]), "DR (debit) read as negative, CR (credit) as positive"


def _separated(present: Sequence[Cell]) -> bool:
    return any(isinstance(v, str) and ("," in v or "." in v) for v in present)


def _numbers(present: Sequence[Cell], *, comma: bool) -> tuple[str, str, Callable[[Cell], Cell]] | None:
    """("int" or "float", the unit, a reader) when every value is a number."""
    parsed: dict[str, tuple[float, str, bool]] = {}  # text -> (value, unit, written with a fraction)
    for value in present:
        if isinstance(value, bool):
            return None
        if isinstance(value, int | float) or value in parsed:
            continue
        number = _number(str(value), comma)
        if number is None:
            return None
        parsed[str(value)] = number
    units = {unit for _value, unit, _fraction in parsed.values()} - {""}
    if len(units) > 1:
        return None  # dollars and euros in one column are not one quantity
    kind = "int" if all(_whole(v, parsed) for v in present) else "float"

    def read(value: Cell) -> Cell:
        number = value if isinstance(value, int | float) else parsed[str(value)][0]
        return int(number) if kind == "int" else float(number)

    return kind, units.pop() if units else "", read


def _whole(value: Cell, parsed: dict[str, tuple[float, str, bool]]) -> bool:
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return value.is_integer() and abs(value) < 2**53
    number, _unit, fraction = parsed[str(value)]
    return not fraction and number.is_integer() and abs(number) < 2**53


def _number(text: str, comma: bool) -> tuple[float, str, bool] | None:
    """(value, unit, written with a fraction) of a number as people write it, or None."""
    match = _NUMBER.fullmatch(text.strip())
    if match is None or bool(match["open"]) != bool(match["close"]):
        return None
    before = match["lead"] or match["before"]  # "$(300)" as "($300)"
    if (match["lead"] and match["before"]) or (before and match["after"]):
        return None
    if match["trail"] and (match["sign"] or match["open"] or ("," if comma else ".") not in match["digits"]):
        return None  # an amount has cents ("12.50-"); "2-" is a school grade
    digits = match["digits"]
    shape = _DOT_THOUSANDS if comma else _COMMA_THOUSANDS
    if not shape.fullmatch(digits):
        return None
    plain = (
        re.sub(r"[. \u00a0\u202f'’]", "", digits).replace(",", ".")
        if comma
        else digits.replace(",", "").replace("'", "").replace("’", "")
    )
    try:
        value = float(plain + (match["exp"] or ""))
    except ValueError:
        return None
    negative = match["open"] is not None or match["sign"] in ("-", "−") or match["trail"] is not None
    fraction = "." in plain or bool(match["exp"]) or match["after"] == "%"
    return -value if negative else value, before or match["after"] or "", fraction


# -- dates ------------------------------------------------------------------------------------


def _dates(present: Sequence[Cell]) -> tuple[str, Callable[[Cell], Cell], str | None] | None:
    """("date" or "datetime", a reader, a note) when every value is a date in one of the forms."""
    if not all(isinstance(v, str) for v in present):
        return None
    texts = [str(v).strip() for v in present]
    day_first, note = _order(texts)
    read: dict[str, datetime.date] = {}
    for text in dict.fromkeys(texts):
        when = _date(text, day_first)
        if when is None:
            return None
        read[text] = when
    timed = any(isinstance(when, datetime.datetime) for when in read.values())

    def iso(value: Cell) -> Cell:
        when = read[str(value).strip()]
        if timed and not isinstance(when, datetime.datetime):
            when = datetime.datetime.combine(when, datetime.time())
        return when.isoformat()

    return ("datetime" if timed else "date"), iso, note


# 1:02:33, 0:45:12.4, 45:12 — hours (or minutes), minutes (or seconds), seconds, a fraction
_CLOCKED = re.compile(r"(\d{1,3}):([0-5]\d)(?::([0-5]\d))?(?:\.(\d{1,3}))?")
# Columns of durations by their names; a bare "time" may be a time of day (a log's 08:30:00), so
# it needs hours past 23 to be one.
_DURATION_NAME = re.compile(
    r"(?i)duration|elapsed|\blaps?\b|split|\bpace|length|runtime|run time|time taken|total time|chip|gun time|"
    r"net time|finish time|moving time"
)


def _durations(name: str, present: Sequence[Cell]) -> tuple[dict[str, int | float], str, str] | None:
    """Seconds for each value and a note, where every value is a duration written with colons
    (race results' `2:05:30`, a call log's `3:45`): three parts are hours, minutes and seconds, two
    are minutes and seconds. Where nothing but the column's name says so, `08:30` may be a clock
    time: two parts need a duration's name (or minutes past 59, or a fraction), three parts a
    duration's name or hours past 23. Else None."""
    if not all(isinstance(v, str) for v in present):
        return None
    found = {text: _CLOCKED.fullmatch(text) for text in dict.fromkeys(str(v).strip() for v in present)}
    matches = [match for match in found.values() if match is not None]
    if len(matches) < len(found) or len({match.group(3) is None for match in matches}) != 1:
        return None
    hours = matches[0].group(3) is not None
    leading = max(int(match.group(1)) for match in matches)
    fraction = any(match.group(4) for match in matches)
    if not (_DURATION_NAME.search(name) or leading > (23 if hours else 59) or (fraction and not hours)):
        return None
    seconds: dict[str, int | float] = {}
    for text, match in found.items():
        assert match is not None
        first, second, third, part = match.groups()
        whole = int(first) * 3600 + int(second) * 60 + int(third) if third else int(first) * 60 + int(second)
        seconds[text] = round(whole + int(part) / 10 ** len(part), 3) if part else whole
    example = matches[0].group(0)
    how = "hours, minutes and seconds" if hours else "minutes and seconds"
    return seconds, f"durations read as seconds ({example} is {seconds[example]}: {how})", "seconds"


# 2h 22min, 1 hr 5 min, 58 min, 1.5 hours, 1h 2m 3s: a film's runtime, a run's time as apps write it
_SPELLED_DURATION = re.compile(
    r"(?i)(?:(\d{1,4}(?:\.\d{1,3})?) ?(?:h|hrs?|hours?)\.?(?:,? (?:and )?|,|(?=\d)|$))?"
    r"(?:(\d{1,4}) ?(?:m|mins?|minutes?)\.?(?:,? (?:and )?|,|(?=\d)|$))?(?:(\d{1,5}) ?(?:s|secs?|seconds?)\.?)?"
)


def _spelled_durations(present: Sequence[Cell]) -> tuple[dict[str, int | float], str, str] | None:
    """Minutes for each value (seconds where one states seconds) and a note, where every value is a
    duration written with its units and one at least has two of them or they differ ("2h 22min",
    "58min"): "45m" alone may be metres, "2 h" alone is a number with its unit. Else None."""
    if not all(isinstance(v, str) for v in present):
        return None
    found = {text: _SPELLED_DURATION.fullmatch(text) for text in dict.fromkeys(str(v).strip() for v in present)}
    matches = [match for match in found.values() if match is not None and match[0]]
    units = {tuple(part is not None for part in match.groups()) for match in matches}
    if len(matches) < len(found) or (len(units) < 2 and not any(sum(parts) > 1 for parts in units)):
        return None
    per_hour = 3600 if any(parts[2] for parts in units) else 60
    read: dict[str, int | float] = {}
    for text, match in found.items():
        assert match is not None
        hours, minutes, seconds = (float(part or 0) for part in match.groups())
        value = hours * per_hour + minutes * per_hour / 60 + seconds * per_hour / 3600
        read[text] = int(value) if value.is_integer() else round(value, 3)
    parts = {text: sum(part is not None for part in match.groups()) for text, match in found.items() if match}
    example = max(parts, key=parts.__getitem__)  # one with two units says most
    what = "seconds" if per_hour == 3600 else "minutes"
    return read, f"durations read as {what} ({example} is {read[example]})", what


# Jan-24, Feb 24, Mar '24, September-23: a month and a year of two digits, as spreadsheets write them
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH_YEAR = re.compile(rf"(?i)({'|'.join(_MONTHS)})[a-z]{{0,6}}\.?(?:[- /]|[- ]?['’])(\d{{2}})")


def _month_years(present: Sequence[Cell]) -> tuple[dict[str, str], str] | None:
    """ISO dates (the 1st of each month) and a note, where every value is a month and two digits
    and the column reads as months (at least as many months named as numbers: "Jan-24", "Feb-24";
    "Jan-05", "Jan-12" are days of a January with no year, and stay as written). Else None."""
    if len(present) < 2 or not all(isinstance(v, str) for v in present):
        return None
    found = {text: _MONTH_YEAR.fullmatch(text) for text in dict.fromkeys(str(v).strip() for v in present)}
    matches = [match for match in found.values() if match is not None]
    months, numbers = {m.group(1).lower() for m in matches}, {m.group(2) for m in matches}
    if len(matches) < len(found) or len(months) < max(2, len(numbers)):
        return None
    read: dict[str, str] = {}
    for text, match in found.items():
        assert match is not None
        year = int(match.group(2))
        month = _MONTHS.index(match.group(1).lower()) + 1
        read[text] = datetime.date(year + (2000 if year < 69 else 1900), month, 1).isoformat()
    example = next(iter(found))
    return read, f"months read as dates ({example} is {datetime.date.fromisoformat(read[example]):%B %Y})"


def _years(kind: str, values: Sequence[Cell]) -> tuple[Cell, ...] | None:
    """Yearly data written as dates (vega's iowa-electricity: `2001-01-01`, `2002-01-01`, …): when
    every date of at least three is 1 January, the years. A program then compares `r["year"] ==
    2016`, as the small model writes it, where a date never equals a year."""
    present = {value for value in values if value is not None}
    if kind != "date" or len(present) < 3 or not all(str(value).endswith("-01-01") for value in present):
        return None
    return tuple(None if value is None else int(str(value)[:4]) for value in values)


def _order(texts: list[str]) -> tuple[bool | None, str | None]:
    """Whether numeric dates such as 03/04/2024 give the day first, from the column's values:
    a first number over 12 means day first, a second over 12 month first; dots mean day first.
    When no value tells, month first (US), and a note says so."""
    firsts, seconds, dotted = set(), set(), False
    for text in texts:
        match = _XY.fullmatch(text)
        if match:
            firsts.add(int(match[1]))
            seconds.add(int(match[3]))
            dotted |= match[2] == "."
    if not firsts:
        return None, None
    if dotted or max(firsts) > 12:
        return True, None
    if max(seconds) > 12:
        return False, None
    example = next(text for text in texts if _XY.fullmatch(text))
    return (
        False,
        f"the dates could be day/month or month/day; read as month/day/year ({example} is {_spelled(example)})",
    )


def _spelled(text: str) -> str:
    when = _date(text, day_first=False)
    return f"{when.day} {when:%B %Y}" if when is not None else text


def _date(text: str, day_first: bool | None) -> datetime.date | None:
    match = _YMD.fullmatch(text)
    if match:
        return _made(int(match[1]), int(match[3]), int(match[4]), match.group(5, 6, 7, 8), match[9])
    match = _XY.fullmatch(text)
    if match and day_first is not None:
        first, second, year = int(match[1]), int(match[3]), int(match[4])
        year += (2000 if year < 69 else 1900) if len(match[4]) == 2 else 0
        day, month = (first, second) if day_first else (second, first)
        hour = match[5]
        if match[8] and hour is not None and 1 <= int(hour) <= 12:  # 12 AM is 0:00, 12 PM noon, 2 PM 14:00
            hour = str(int(hour) % 12 + (12 if match[8] in "Pp" else 0))
        elif match[8]:
            return None  # 13:00 PM
        return _made(year, month, day, (hour, match[6], match[7], None), None)
    if _MONTH_WORD.fullmatch(text) and (_YEAR.search(text) or _SHORT_YEAR.fullmatch(text)):
        return _month_named(text)
    return None


def _made(year: int, month: int, day: int, clock: Sequence[str | None], zone: str | None) -> datetime.date | None:
    hour, minute, second, fraction = clock
    try:
        if hour is None:
            return datetime.date(year, month, day)
        micro = int((fraction or ".0")[1:].ljust(6, "0"))
        when = datetime.datetime(year, month, day, int(hour), int(minute or 0), int(second or 0), micro)
    except ValueError:  # 31 February, hour 25
        return None
    if zone:
        offset = datetime.timedelta(0) if zone == "Z" else _offset(zone)
        when = when.replace(tzinfo=datetime.timezone(offset))
    return when


def _offset(zone: str) -> datetime.timedelta:
    digits = zone[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + int(digits[2:])
    return datetime.timedelta(minutes=-minutes if zone[0] == "-" else minutes)


def _month_named(text: str) -> datetime.date | None:
    from dateutil import parser  # python-dateutil (a dependency of matplotlib): month names, any order

    try:
        when = parser.parse(text, default=datetime.datetime(1, 1, 1))
    except (ValueError, OverflowError):
        return None
    return when.date() if when.time() == datetime.time() and when.tzinfo is None else when


def _serial_dates(name: str, present: Sequence[Cell]) -> bool:
    """Whether the column holds Excel's day numbers: named as a date, every value in range."""
    low, high = _SERIALS
    in_range = all(isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high for v in present)
    return in_range and _DATE_NAME.search(name) is not None


def _compact_dates(name: str, present: Sequence[Cell]) -> dict[str, str] | None:
    """ISO text for each value when a column named as a date holds `YYYYMMDD` numbers (as
    statistics exports write days), every one a real date; else None."""
    if not _DATE_NAME.search(name):
        return None
    read: dict[str, str] = {}
    for value in present:
        text = str(value)
        if isinstance(value, bool | float) or not _COMPACT.fullmatch(text):
            return None
        if text not in read:
            try:
                read[text] = datetime.date(int(text[:4]), int(text[4:6]), int(text[6:])).isoformat()
            except ValueError:
                return None
    return read


def _serial(value: Cell) -> Cell:
    assert isinstance(value, int | float)
    return (_EXCEL_EPOCH + datetime.timedelta(days=int(value))).isoformat()
