"""A question's multiple-choice options, and which of them a computed number is.

Questions in the AQuA style end with "Answer Choices: (A) 6 (B) 18 (C) 24 …"; people also write
"A) 6 B) 18", "a) 6 b) 18" or one option a line ("A. 6", "B: 18"). PoT's finishing
step is there to turn `ans` into one of them; when `ans` is a number equal to exactly one
option's number, the match needs no model — measured on AQuA dev, the embedded model picked a
wrong letter for a value the program had right (docs/results.md, "PoT that binds ans").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from app.reasoning.numbers import MAX_NUMBER_TEXT, numbers_equal

# An option's letter as people write it: "(A)" or "(a)"; "A)" or "a)" after a space or a sign;
# "A." or "A:" starting a line. One pass over the question finds them all (linear).
_MARKER = re.compile(r"\(([A-Ea-e])\)|(?<![^\s:?.,;])([A-Ea-e])\)|^[ \t]*([A-Ea-e])[.:](?=[ \t])", re.MULTILINE)
# Before options written other than "(A)": the question's end ("?", ":", a new line) or their name;
# "find (a) the area and (b) the perimeter" asks two things, it offers no options.
_OFFERED = re.compile(r"(?:[?:\n]|\b(?:options?|choices?|answers?|choose|pick|select|one))\Z", re.IGNORECASE)
_LETTERS = "ABCDE"
_CHOICES_CHARS = 20_000  # options end a question: the end of a longer text is read
# An option (or an `ans` string) that is one number: "$68.00", "25%", "1,200", "36 km", "-3.5".
# Matched against text whose whitespace is already folded to single spaces and trimmed, so no two
# space-eating parts stand side by side (that was quadratic on a long run of spaces or newlines).
_ONE_NUMBER = re.compile(
    r"[$£€]? ?([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+) ?(?:%|[A-Za-z][A-Za-z ./]{0,24})? ?\.?"
)
_STATED = re.compile(
    r"^\(?([A-E])\)?(?:$|[ .:)])|(?:answer|option|choice) ?(?:is)? ?:? ?\(?([A-E])\)?\b", re.IGNORECASE
)


@dataclass(frozen=True)
class Choice:
    letter: str
    text: str

    def __str__(self) -> str:
        return f"({self.letter}) {self.text}".rstrip()

    @property
    def number(self) -> float | None:
        return plain_number(self.text)


def choices_in(question: str) -> tuple[Choice, ...]:
    """The options the question ends with, (A), (B), … in order from the last list's (A), or ()
    when it offers fewer than two. Options on lines of their own end with their line."""
    text = question[-_CHOICES_CHARS:]
    found: list[re.Match[str]] = []
    last: list[re.Match[str]] = []
    for marker in _MARKER.finditer(text):
        letter = _letter(marker)
        if letter.upper() == "A":
            found = [marker]
        elif found and marker.lastindex == found[0].lastindex and letter == _next(found[-1]):
            found.append(marker)
        elif found and marker.lastindex == found[0].lastindex:
            found = []  # a letter out of order: not a list of options
        if len(found) >= 2:
            last = found
    if not last:
        return ()
    before = text[: last[0].start()].rstrip(" \t")[-10:]
    if (last[0].lastindex, _letter(last[0])) != (1, "A") and not _OFFERED.search(before):
        return ()
    ends = [marker.start() for marker in last[1:]] + [len(text)]
    texts = [text[marker.end() : end] for marker, end in zip(last, ends, strict=True)]
    if last[0].lastindex == 3:  # one option a line: the last ends with its line
        texts[-1] = texts[-1].split("\n", 1)[0]
    return tuple(Choice(_LETTERS[n], " ".join(t.split())) for n, t in enumerate(texts))


def _letter(marker: re.Match[str]) -> str:
    return marker.group(marker.lastindex or 0)


def _next(marker: re.Match[str]) -> str:
    """The letter after `marker`'s, in its case ("" after E)."""
    letter = _letter(marker)
    following = _LETTERS[_LETTERS.index(letter.upper()) + 1 :][:1]
    return following.lower() if letter.islower() else following


def plain_number(text: str) -> float | None:
    """The value of a text that is a single number, perhaps with a currency sign, a percent sign
    or a unit word; None for anything else ("16:5", "(1,1)", "x + 2")."""
    if len(text) > MAX_NUMBER_TEXT:
        return None
    match = _ONE_NUMBER.fullmatch(_folded(text))
    if not match:
        return None
    value = float(match.group(1).replace(",", ""))
    return value if math.isfinite(value) else None


def number_of(value: object) -> float | None:
    """A computed value (`ans` as JSON) as one number: a number, or a text that is one; else None."""
    if isinstance(value, str):
        return plain_number(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # an integer of hundreds of digits is no option's number
            return None
    return None


def matching_choice(value: float, choices: tuple[Choice, ...]) -> Choice | None:
    """The one option whose number is `value` (to the option's own decimals when it states some),
    or None when none or several are."""
    found = [c for c in choices if (n := c.number) is not None and _same(value, n, c.text)]
    return found[0] if len(found) == 1 else None


def choice_written(text: str, choices: tuple[Choice, ...]) -> Choice | None:
    """The option whose text `text` is, spaces and case aside: a program's printed (0, 3) is the
    option "(B) (0,3)" (AQuA dev: it was no option, so not the kind of answer asked for)."""
    if len(text) > MAX_NUMBER_TEXT:
        return None
    written = "".join(text.split()).lower().rstrip(".")
    return next((c for c in choices if "".join(c.text.split()).lower().rstrip(".") == written and written), None)


def stated_choice(text: str) -> str | None:
    """The option letter an answer names: "B", "(B) 42", "The answer is B"."""
    match = _STATED.search(_folded(text[:MAX_NUMBER_TEXT]))
    if not match:
        return None
    return (match.group(1) or match.group(2)).upper()


def _folded(text: str) -> str:
    """Runs of whitespace as one space, ends trimmed (linear, and what the patterns above expect)."""
    return " ".join(text.split())


def _same(value: float, option: float, text: str) -> bool:
    if numbers_equal(value, option):
        return True
    decimals = re.search(r"\.(\d+)", text)  # "8.25" stands for anything that rounds to it
    return decimals is not None and abs(value - option) <= 0.5 * 10 ** -len(decimals.group(1))
