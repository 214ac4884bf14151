"""Prompt templates: one file per prompt in `resources/prompts`, `{{name}}` placeholders.

The folder is package data installed as `app.resources` (pyproject maps it), so a wheel, an editable
install and the frozen build all read it through `importlib.resources`, never a path beside the source.

Filled by plain substitution (never str.format), so braces in questions or programs are safe.
A template with worked examples may be written as chat turns: lines `--- user ---` and
`--- assistant ---` start each turn, so an instruct model sees the examples as earlier replies of
its own (it imitates those far more faithfully than examples quoted inside one message); a
`--- system ---` turn gives the system prompt a model was trained with (chain of thought's).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import cast

from app.reasoning.answer_kind import Kind, asked_kind, rows_asked
from models.types import ChatMessage, Role

RESOURCES = "app.resources"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_TURN = re.compile(r"^--- (system|user|assistant) ---$", re.MULTILINE)


# An equation to solve ("Solve 3x + 7 = 25", "roots of x^2 - 5x + 6 = 0"): an unknown beside a
# number or an operator, an "=", and a word that asks for it. None of GSM8K's 1,319 items match.
UNKNOWN = re.compile(r"\d\s*[a-z]\b|\b[a-z]\s*(?:\^|\*\*|²)|\b[a-z]\s*[-+*/=]\s*[-\d(]|[-+*/=(]\s*[a-z]\b(?!')")
_ASKED = re.compile(r"\b(solve|equation|roots?|find|value of|for [a-z]\b|l(?:ö|oe)s|gleichung|résou|resuelv)", re.I)
EQUATION_HINT = "\n(An equation to solve: write it with sympy — symbols, Eq and solve — so the algebra can be shown.)"
FRACTION_HINT = "\n(A fraction is asked for: compute with fractions.Fraction so every step stays exact.)"
ROWS_HINT = "\n(A table or a list is asked for: the answer is all of its values, in order, not one number.)"


def asks_for_equation(question: str) -> bool:
    return "=" in question and len(question) <= 600 and bool(UNKNOWN.search(question) and _ASKED.search(question))


def with_hints(question: str, *, rows: bool = False) -> str:
    """The question as a program prompt gets it: an equation to solve asks for sympy, so the
    working shows its algebra (3x + 7 = 25 → 3x = 18 → x = 6) and the graph can be drawn; a
    fraction asked for asks for exact fractions, so the program, its output and the working end in
    17/12, not 1.4166666666666667. With `rows` (PoT's prompt), a table or list asked for asks for
    all its values: PoT's `ans` was one number of it (35280 for the table of 7; 16 → 23 right of
    29 such questions with the hint); PAL prints the rows anyway, and with the hint once wrote the
    table in words, no program (27 of 29 either way; docs/results.md)."""
    if asks_for_equation(question):
        return question + EQUATION_HINT
    if rows and rows_asked(question):
        return question + ROWS_HINT
    return question + FRACTION_HINT if asked_kind(question) is Kind.FRACTION else question


@cache
def template(name: str) -> str:
    return resources.files(RESOURCES).joinpath("prompts", f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")


def fill(name: str, **values: str) -> str:
    """The prompt `name` with each `{{key}}` replaced by `values[key]` (all must be given)."""
    text = template(name)
    wanted = set(_PLACEHOLDER.findall(text))
    if wanted != set(values):
        raise KeyError(f"prompt {name} takes {sorted(wanted)}, got {sorted(values)}")
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], text)


def messages(prompt: str) -> tuple[ChatMessage, ...]:
    """The chat turns of a filled prompt (one user message when it has no turn lines)."""
    parts = _TURN.split(prompt)
    if len(parts) == 1:
        return (ChatMessage("user", prompt),)
    # split() gives [text before the first turn, role, text, role, text, ...]
    return tuple(
        ChatMessage(cast(Role, role), text.strip("\n")) for role, text in zip(parts[1::2], parts[2::2], strict=True)
    )
