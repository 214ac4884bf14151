"""Is a predicted answer the gold one?

Numbers compare by value after normalising ($, %, thousands separators, units words, fractions;
`18.0` == `18`; relative tolerance 1e-4, but a whole-number gold is met only by a number within
1e-4 of it: 116248 is not 116258, however large). A gold list of numbers ("2, 3, 5") is met by
those numbers in that order, however listed or tabled (`vote_key`), not by its last one.
Multiple-choice golds ("B", "(B)") compare letters.
A yes/no gold is met by an answer that says it (`said_yes_or_no`: a program's True is "Yes").
Other text compares case- and space-folded, and — only when a sandbox is given — by symbolic
equivalence computed by sympy *inside the sandbox*: model text is never parsed by sympy here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from app.reasoning.answer_kind import YES_OR_NO, said_yes_or_no
from app.reasoning.choices import stated_choice
from app.reasoning.numbers import LEADING_ARTICLE, number_in, numbers_equal, vote_key
from sandbox import Sandbox

MAX_SYMBOLIC_CHARS = 500
WHOLE_TOLERANCE = 1e-4  # floating-point noise around a whole gold (114199.99999999999)
_CHOICE = re.compile(r"^\(?([A-Ea-e])\)?$")
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?:/\d+)?")
# What a numeric gold may carry around its number (currency, percent, separators, units words).
_DECORATIONS = re.compile(r"[$%,\s]|dollars?|cents?|percent", re.IGNORECASE)
_SYMBOLIC_PROGRAM = """\
import json
import sympy
from sympy.parsing.sympy_parser import (
    convert_xor, implicit_multiplication_application, parse_expr, standard_transformations,
)
left, right = json.loads({data})
rules = standard_transformations + (implicit_multiplication_application, convert_xor)
ans = sympy.simplify(parse_expr(left, transformations=rules) - parse_expr(right, transformations=rules)) == 0
"""


@dataclass(frozen=True)
class Grade:
    correct: bool
    how: str  # "number", "numbers", "choice", "text", "symbolic" or "missing"


def _same_number(value: float, gold: float) -> bool:
    if gold.is_integer():  # a count or a whole amount: off by one is wrong at any size
        return abs(value - gold) <= WHOLE_TOLERANCE
    return numbers_equal(value, gold)


def grade(predicted: str | None, gold: str, sandbox: Sandbox | None = None) -> Grade:
    if predicted is None or not predicted.strip():
        return Grade(False, "missing")
    choice = _CHOICE.match(gold.strip())
    if choice:
        return Grade(stated_choice(predicted) == choice.group(1).upper(), "choice")
    if vote_key(gold).startswith("numbers "):  # its commas are no thousands separators: "7, 14, 21" is not 71421
        return Grade(vote_key(predicted) == vote_key(gold), "numbers")
    gold_number = number_in(gold)
    if gold_number is not None and _PLAIN_NUMBER.fullmatch(_DECORATIONS.sub("", gold)):
        value = number_in(predicted)
        return Grade(value is not None and _same_number(value, gold_number), "number")
    if vote_key(gold) in YES_OR_NO:  # a program's True is a gold "Yes", and so is "Yes, it overflows."
        return Grade(said_yes_or_no(predicted) == vote_key(gold), "text")
    if _folded(predicted) == _folded(gold):
        return Grade(True, "text")
    if sandbox is not None and max(len(predicted), len(gold)) <= MAX_SYMBOLIC_CHARS:
        return Grade(symbolically_equal(predicted, gold, sandbox), "symbolic")
    return Grade(False, "text")


def symbolically_equal(left: str, right: str, sandbox: Sandbox) -> bool:
    """sympy decides, in the sandbox, whether two expressions are equal; any failure is False."""
    data = repr(json.dumps([left, right]))  # a Python string literal, however the text is written
    result = sandbox.run(_SYMBOLIC_PROGRAM.format(data=data))  # the default limits; `ans` is captured
    value = result.values.get("ans")
    return result.ok and value is not None and value.json is True


def _folded(text: str) -> str:
    """Case, spaces, currency and a leading article do not matter: "The blue whale." == "blue whale"."""
    return _DECORATIONS.sub("", LEADING_ARTICLE.sub("", text.casefold())).rstrip(".")
