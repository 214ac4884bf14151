"""An answer as a person reads it at a glance: a program that printed a list of 30 row dicts
answered "30 rows — see Table", not a 4,000-character Python repr with `datetime.date(…)` and
`mappingproxy(…)` inside; 25 printed lines ("1 | 1 | 1", …) are "25 lines — see Output" (in the
window's large answer font they made it taller than the screen), 3000 x's "3000 characters — see
Output". Short answers ("[2, 3]", "12") stay as they are.

Reads the printed text only, in one linear pass (it came from the program): brackets and quotes
are followed, nothing is parsed or evaluated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sandbox.values import capped_length

SHORT_CHARS = 60  # a container this long or shorter is readable as it is
MAX_LINES = 3  # more lines than this are read in the output, not as the answer
LONG_CHARS = 300  # text longer than this is read in the output, not as the answer
_SCAN_CHARS = 1_000_000
_LONG_WHOLE = re.compile(r"-?[1-9]\d{20,}")  # 2 ** 1000 printed: more digits than the answer's line holds
_OPENERS = {"[": "]", "(": ")", "{": "}"}
_NOISE = ("datetime.", "mappingproxy(", "Decimal(", "Fraction(")


def shown_answer(text: str) -> str:
    """`text`, or its one-line summary when it is a long container or holds Python reprs. A text
    ending in "…" is the start of a longer one (the history list's): its count is a lower bound."""
    stripped = text.strip()
    if _LONG_WHOLE.fullmatch(stripped):  # one unbreakable run of digits: cut off at the pane's edge, unmarked
        sign, digits = ("-", stripped[1:]) if stripped[0] == "-" else ("", stripped)
        return f"{sign}{digits[0]}.{digits[1:4]}… × 10^{len(digits) - 1} ({len(digits)} digits)"
    lines = stripped.count("\n") + 1
    short = len(stripped) <= SHORT_CHARS and lines <= MAX_LINES
    if not stripped or (short and not any(noise in stripped for noise in _NOISE)):
        return text
    cut = stripped.endswith("…")
    counted = _top_level(stripped.removesuffix("…"), cut=cut)
    if counted is None and lines > MAX_LINES:
        return f"{lines}{'+' if cut else ''} lines — see Output"
    if counted is None:  # "Print the letter x 3000 times.": in the tie's words, 3000 x's made the note that long
        length = capped_length(stripped)  # the history keeps the first 500 and "… [2500 more characters]"
        return f"{length}{'+' if cut else ''} characters — see Output" if length > LONG_CHARS else text
    elements, rows, mapping = counted
    count = f"{elements}{'+' if cut else ''}"
    if rows and rows == elements:
        return f"{count} row{'s' if elements != 1 or cut else ''} — see Table"
    if mapping:
        return f"{count} entr{'ies' if elements != 1 or cut else 'y'} — see Variables"
    return f"{count} item{'s' if elements != 1 or cut else ''} — see Variables"


def _top_level(text: str, *, cut: bool = False) -> tuple[int, int, bool] | None:
    """(elements, of them dicts, whether it is a dict) of the container `text` is, or None when it
    is not one container (a sentence, two lists, an unclosed bracket unless the text was `cut`)."""
    if text.startswith("mappingproxy(") and (text.endswith(")") or cut):
        text = text[len("mappingproxy(") : -1]
    if not text or text[0] not in _OPENERS or len(text) > _SCAN_CHARS:
        return None
    closers: list[str] = []
    elements, rows = 0, 0
    expecting = True  # the next character at depth 1 starts an element
    for index, char in _outside_quotes(text):
        if expecting and len(closers) == 1 and not char.isspace() and char not in "]})":
            elements += 1
            rows += char == "{" or text.startswith("mappingproxy(", index)
            expecting = False
        if char in _OPENERS:
            closers.append(_OPENERS[char])
        elif char in "]})":
            if not closers or closers.pop() != char or (not closers and index != len(text) - 1):
                return None  # a stray closer, or more after the container closed
        elif char == "," and len(closers) == 1:
            expecting = True
    return None if closers and not cut else (elements, rows, text[0] == "{")


def _outside_quotes(text: str) -> Iterator[tuple[int, str]]:
    """Each character outside string literals with its index; the opening quote counts (it starts
    an element), the literal's inside does not. An unclosed literal ends the text."""
    quote, escaped = "", False
    for index, char in enumerate(text):
        if not quote:
            quote = char if char in "'\"" else ""
            yield index, char
        elif escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == quote:
            quote = ""
    if quote:
        yield len(text), "("  # unclosed: leaves a bracket open (the text is not one container, or was cut)


def shown_answers(answers: list[str]) -> list[str]:
    """Each answer's short form, told apart when two different answers would read the same ("30
    rows — see Table" for two different tables): "30 rows, version A", "30 rows, version B"."""
    shorts = [shown_answer(answer) for answer in answers]
    versions: dict[str, dict[str, str]] = {}  # short form -> {answer: its letter}
    for answer, short in zip(answers, shorts, strict=True):
        if short != answer:
            letters = versions.setdefault(short, {})
            letters.setdefault(answer, chr(ord("A") + min(len(letters), 25)))
    out = []
    for answer, short in zip(answers, shorts, strict=True):
        letters = versions.get(short, {})
        if len(letters) > 1:
            out.append(f"{short.split(' — ')[0]}, version {letters[answer]}")
        else:
            out.append(short)
    return out
