"""Answers read at a glance: containers counted, short answers and sentences untouched."""

from __future__ import annotations

import time

import pytest

from app.reasoning.short_answer import shown_answer
from sandbox.values import cap


@pytest.mark.parametrize(
    ("printed", "shown"),
    [
        (str([{"date": "2024-03-01", "amount": n} for n in range(30)]), "30 rows — see Table"),
        ("[{'date': datetime.date(2024, 3, 1), 'x': 1}]", "1 row — see Table"),
        ("mappingproxy({'a': 1, 'b': 2})", "2 entries — see Variables"),
        (str(list(range(40))), "40 items — see Variables"),
        (str({n: n * n for n in range(30)}), "30 entries — see Variables"),
        (str(["it's, a", 'b"]', "c"] * 20), "60 items — see Variables"),
        (str([{"a": n} for n in range(99)])[:500] + "…", "47+ rows — see Table"),  # the history list's start
        ("[" + "'x', " * 30 + "…", "30+ items — see Variables"),
        ("\n".join(f"{n} | {n * n} | {n**3}" for n in range(1, 26)), "25 lines — see Output"),  # seen in the window
        ("1\n2\n3\n4", "4 lines — see Output"),
        ("1\n2\n3", "1\n2\n3"),
        (
            "Distance on day 1: 80 miles\nDistance on day 2: 150 miles",
            "Distance on day 1: 80 miles\nDistance on day 2: 150 miles",
        ),
        (str(3**2000), "1.747… × 10^954 (955 digits)"),  # seen cut off at the pane's edge
        (str(-(2**100)), "-1.267… × 10^30 (31 digits)"),
        ("123456789012345678901", "1.234… × 10^20 (21 digits)"),
        ("12345678901234567890", "12345678901234567890"),
        ("[2, 3]", "[2, 3]"),
        ("12", "12"),
        ("The answer is " + "twelve " * 20, "The answer is " + "twelve " * 20),
        ("x" * 3000, "3000 characters — see Output"),  # seen in a tie's words
        (cap("x" * 3000, 500), "3000 characters — see Output"),  # as the history keeps it
        ("banana " * 44 + "banana", "314 characters — see Output"),
        ("[1, 2] [3]" + " " * 60 + "x", "[1, 2] [3]" + " " * 60 + "x"),
        ("['unclosed" + "x" * 70 + "]", "['unclosed" + "x" * 70 + "]"),
        ("[" * 50 + "]" * 49 + " " * 20, "[" * 50 + "]" * 49 + " " * 20),
    ],
)
def test_shown_answer(printed: str, shown: str) -> None:
    assert shown_answer(printed) == shown


def test_it_reads_a_long_hostile_text_in_linear_time() -> None:
    for text in ("[" + "'\\'" * 300_000, "[" * 600_000 + "]" * 600_000, "[" + "1, " * 300_000 + "1]"):
        started = time.perf_counter()
        shown_answer(text)
        assert time.perf_counter() - started < 1.0


def test_different_answers_that_read_the_same_are_told_apart() -> None:
    from app.reasoning.short_answer import shown_answers

    a, b = str([{"n": n} for n in range(30)]), str([{"n": n + 1} for n in range(30)])
    assert shown_answers([a, b, a, "12"]) == ["30 rows, version A", "30 rows, version B", "30 rows, version A", "12"]
    assert shown_answers([a, "12"]) == ["30 rows — see Table", "12"]
