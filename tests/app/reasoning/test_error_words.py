"""Errors in plain words, above the traceback."""

from __future__ import annotations

import time

import pytest

from app.reasoning.error_words import plain_error

PROGRAM = "total_cost = 3 * 4\nprint(totl_cost)\n"


@pytest.mark.parametrize(
    ("error", "line", "words"),
    [
        (
            "Traceback …\nNameError: name 'totl_cost' is not defined",
            2,
            "`totl_cost` is not defined (line 2) — did you mean `total_cost`?",
        ),
        (
            "NameError: name 'totl_cost' is not defined. Did you mean: 'total_cost'?",
            None,
            "`totl_cost` is not defined — did you mean `total_cost`?",
        ),
        (
            "NameError: name 'speed' is not defined",
            5,
            "`speed` is not defined (line 5) — it is used before it is given a value.",
        ),
        ("Traceback …\nZeroDivisionError: division by zero", 3, "The program divided by zero (line 3)."),
        ("KeyError: 'price'", None, "The program looked up a key that is not there."),
        ("the program ran longer than its time limit of 5 s and was stopped", None, None),
        ("", None, None),
    ],
)
def test_plain_error(error: str, line: int | None, words: str | None) -> None:
    assert plain_error(error, PROGRAM, line) == words


def test_a_hostile_error_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    plain_error("NameError: name '" + "a" * 1_000_000 + "' is not defined" + "\n" * 10, "x = 1")
    assert time.perf_counter() - started < 0.5
