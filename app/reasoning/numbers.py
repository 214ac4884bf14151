"""How answers are shown.

Rule: a number is shown without float noise and without a needless ".0": floats are rounded to
12 significant digits (2.0500000000000003 → 2.05, 11.0 → 11); integers, fractions and other text
are shown as they are. The raw value stays in the working (output, `ans`).
"""

from __future__ import annotations

import collections
import math
import re
from collections.abc import Iterable

from sandbox import CapturedValue

# Numbers a question may write as words, one to twenty, the tens, a hundred and a thousand.
_ONES = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen"
NUMBER_WORDS = {word: n for n, word in enumerate([*_ONES.split(), "eighteen", "nineteen", "twenty"], start=1)}
NUMBER_WORDS |= {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
NUMBER_WORDS |= {"hundred": 100, "thousand": 1000}

RELATIVE_TOLERANCE = 1e-4  # answers are equal numbers when they differ by less than this share
# Numbers are read only from answers this short: a program's output may be 64 KiB of anything, and
# no answer that long states one number. Every reader below is linear in its input besides.
MAX_NUMBER_TEXT = 1000
# A sentence that denies its number is not that number: a PoT program's `ans` "The sum of their
# ages does not equal 28." counted as agreeing with chain of thought's 28 (GSM8K item 167).
_NEGATED = re.compile(r"\b(?:not|never|cannot)\b|n't\b", re.IGNORECASE)
_OPTION = re.compile(r"\(([A-E])\)(?: |$)")  # "(C) 75 km/h": how `as_choice` writes an option
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def format_float(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    rounded = float(f"{value:.12g}")
    if rounded.is_integer() and abs(rounded) < 1e16:
        return str(int(rounded))
    return repr(rounded)


def value_text(value: CapturedValue) -> str:
    """A program's value as the user reads it — the one formatter for answers, the working and the
    stepper: numbers without float noise, text without quotes, anything else as its repr."""
    data = value.json
    if isinstance(data, bool) or data is None:
        return value.repr
    if isinstance(data, float):
        return format_float(data)
    if isinstance(data, int):
        return str(data)
    if isinstance(data, str):
        return format_answer(data)
    return value.repr


def format_answer(text: str) -> str:
    """Trimmed `text`; when it is a single number, that number without noise."""
    stripped = text.strip()
    short = len(stripped) <= MAX_NUMBER_TEXT
    if short and _NUMBER.fullmatch(stripped) and ("." in stripped or "e" in stripped.lower()):
        return format_float(float(stripped))
    return stripped


# What may surround a number in an answer without changing it: currency, percent, units words.
# Every alternative needs a digit, so a match cannot start at each of a long run of spaces and
# scan it again (the old all-optional pattern was quadratic on whitespace).
_NUMERIC = re.compile(
    r"(?<![\w.])[-+]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?(?:[ \t]?/[ \t]?\d+)?"
)
_FRACTION = re.compile(r"([-+]?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)")
# A scale after the number: "2.05M" and chain of thought's "1.2 million" are 2050000 and 1200000
# (they counted as 2.05 and 1.2 against a program's 2050000). A letter only when written on the
# number ("5 m" is five metres, "5kg" five kilograms).
_SCALE_AFTER = re.compile(r"(?:(K|k|M|B|bn|mn)|[ \t]?((?i:thousand|million|billion|trillion))s?)\b")
_SCALES = {"k": 1e3, "m": 1e6, "b": 1e9, "bn": 1e9, "mn": 1e6}
_SCALES |= {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def number_in(text: str) -> float | None:
    """The number an answer states: the last number in it, with $, %, thousands separators and
    words ignored, and a fraction such as 3/4 read as its value; None when there is none (or when
    the text is longer than MAX_NUMBER_TEXT: not an answer that states a number)."""
    if len(text) > MAX_NUMBER_TEXT:
        return None
    matches = collections.deque(_NUMERIC.finditer(text), maxlen=1)  # the last match, in one pass
    if not matches:
        return None
    found = matches[0]
    last = found.group().replace(",", "")  # "3 / 4" keeps its spaces: _FRACTION allows them
    fraction = _FRACTION.fullmatch(last)
    try:
        if fraction:
            denominator = float(fraction.group(2))
            return float(fraction.group(1)) / denominator if denominator else None
        scale = _SCALE_AFTER.match(text, found.end())
        return round(float(last) * _SCALES[(scale.group(1) or scale.group(2)).lower()], 6) if scale else float(last)
    except ValueError:
        return None


def numbers_equal(a: float, b: float) -> bool:
    """Equal within RELATIVE_TOLERANCE (and anything below 1e-16 is 0: float noise)."""
    return abs(a - b) <= RELATIVE_TOLERANCE * max(abs(a), abs(b), 1e-12) or a == b


def vote_key(answer: str) -> str:
    """Answers that mean the same number share a key (for voting); other text compares folded,
    and so do lists and tables: two of them are not one answer because their last numbers match.
    An option as the vote writes it ("(C) 5 times every 18 years") is its letter: not the number
    18 (AQuA dev: a program's 18 and that option counted as agreeing). A sentence that says "not"
    is its text, not its number. A program's True is chain of thought's "Yes", its False "No"; a
    leading article and a closing full stop do not count ("The blue whale." is "blue whale"). A
    list of numbers is its numbers, however written: "[0, 1, 1, 2]" is "0, 1, 1, 2" (seen: the first
    Fibonacci numbers from two programs and two chains of thought counted as two answers, 2 to 2),
    and so is a table printed a row a line: not its last number (seen: PAL's multiplication table of
    7 and PoT's 70 counted as agreeing)."""
    option = _OPTION.match(answer)
    if option:
        return f"option {option.group(1)}"
    said = answer[:_KEY_CHARS]
    listed = listed_values(said)
    if listed is not None:
        return "numbers " + written_list(listed)
    value = None if said.lstrip()[:1] in ("[", "{") or _NEGATED.search(said) else number_in(answer)
    if value is not None and math.isfinite(value):
        return format_float(value)
    folded = LEADING_ARTICLE.sub("", " ".join(answer.casefold().split())[:_KEY_CHARS]).rstrip(".!")
    return _YES_NO.get(folded, folded)


def written_list(values: Iterable[float]) -> str:
    """Numbers as a list is written: "7, 14, 21"."""
    return ", ".join(map(format_float, values))


def listed_values(answer: str) -> tuple[float, ...] | None:
    """The numbers of a list or a table (`vote_key`'s "numbers …"), read from its first
    `_KEY_CHARS`; None for any other answer."""
    said = answer[:_KEY_CHARS]
    listed = _listed_numbers(said)
    return _rows_of_numbers(said) if listed is None else listed


def _listed_numbers(text: str) -> tuple[float, ...] | None:
    """The numbers of a list written out ("[0, 1, 1, 2]", "(3, 4)", "0, 1, 1, 2."); None for other
    text, and for "1,024": outside brackets a list's commas are followed by a space."""
    inner = text.strip().rstrip(".")
    bracketed = inner[:1] + inner[-1:] in ("[]", "()")
    parts = (inner[1:-1] if bracketed else inner).split(",")
    if len(parts) < 2 or not (bracketed or all(part[:1].isspace() for part in parts[1:])):
        return None
    parts = [part.strip() for part in parts]
    if not all(_NUMBER.fullmatch(part) for part in parts):
        return None
    values = tuple(float(part) for part in parts)
    return values if all(map(math.isfinite, values)) else None


def _rows_of_numbers(text: str) -> tuple[float, ...] | None:
    """The values of a table printed a row a line, each row's last number ("7 x 1 = 7" to "7 x 10
    = 70" is 7, 14, … 70, as chain of thought lists them): of the lines written like the last line
    holding a number, where three or more are. None for other text: for lines of working closed by
    a line of another shape ("Total: 21" after three "Day 1: 5" rows: that line is the answer, and
    its number the key), and for bare numbers a line (a program's values printed on its way)."""
    lines = [line for line in map(str.strip, text.splitlines()) if line]
    if len(lines) == 1:
        return _rows_on_one_line(lines[0])
    shapes = [_NUMERIC.sub("#", line) for line in lines]
    row = next((shape for shape in reversed(shapes) if "#" in shape), "#")
    if row == "#" or shapes.count(row) < 3:
        return None
    return _values(line for line, shape in zip(lines, shapes, strict=True) if shape == row)


def last_rows(text: str) -> tuple[float, ...] | None:
    """The values of the last table in `text` (reasoning that wrote one out): three or more lines
    in a row written alike, or one line of three or more rows (`_rows_on_one_line`), each row's
    last number. Code fences and blank lines between rows do not count. None where there is none."""
    lines = [line for line in map(str.strip, text[-_KEY_CHARS:].splitlines()) if line and not line.startswith("```")]
    shapes = [_NUMERIC.sub("#", line) for line in lines]
    end = len(lines)
    while end:
        start = end - 1
        while start and shapes[start - 1] == shapes[end - 1]:
            start -= 1
        if "#" in shapes[end - 1] and end - start >= 3:
            return _values(lines[start:end])
        one_line = _rows_on_one_line(lines[end - 1])
        if one_line is not None:
            return one_line
        end = start
    return None


# Rows written on one line ("7 × 1 = 7, 7 × 2 = 14, 7 × 3 = 21"): each "= number" ends a row.
_ROW_END = re.compile(r"=[ \t]*#")
_ROW_VALUE = re.compile(r"=[ \t]*(" + _NUMERIC.pattern + ")")
_BETWEEN_ROWS = " \t,;|"


def _rows_on_one_line(line: str) -> tuple[float, ...] | None:
    """The values of three or more rows on one line, each "left side = number" with the same left
    side but for its numbers, joined by spaces, commas or semicolons, the first perhaps after words
    (chain of thought wrote the table of 7 as "7 × 1 = 7 7 × 2 = 14 …" on one line); None for other
    text ("2 × 3 = 6, 6 + 4 = 10")."""
    if len(line) > MAX_NUMBER_TEXT:
        return None
    pieces = _ROW_END.split(_NUMERIC.sub("#", line))
    if len(pieces) < 4:
        return None
    first, *others, rest = pieces
    left = others[0].strip(_BETWEEN_ROWS)  # the first row may follow words ("Table: 7 × 1 = 7, …")
    if (
        not first.rstrip().endswith(left)
        or "#" not in left
        or rest.strip(" .…")
        or any(o.strip(_BETWEEN_ROWS) != left for o in others)
    ):
        return None
    return _values(match.group(1) for match in _ROW_VALUE.finditer(line))


def _values(rows: Iterable[str]) -> tuple[float, ...]:
    values = (number_in(row) for row in rows)
    return tuple(value for value in values if value is not None)


def one_number(answer: str) -> bool:
    """The answer states one number on one line (its vote key is that number): not a list, a table,
    text, or lines of printed output (a grid of products is keyed by its last, but is no one number)."""
    return "\n" not in answer.strip() and _NUMBER.fullmatch(vote_key(answer)) is not None


_KEY_CHARS = 4096  # answers that agree on this much text are one answer
LEADING_ARTICLE = re.compile(r"^\s*(?:the|a|an)\s+")  # of casefolded text: "the blue whale" is "blue whale"
_YES_NO = {"yes": "yes", "true": "yes", "no": "no", "false": "no"}
