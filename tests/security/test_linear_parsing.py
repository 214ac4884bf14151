"""Readers of untrusted text run in linear time: each reader, each 64 KiB adversarial string, under
a budget that a quadratic pattern misses by orders of magnitude (before: `plain_number` took 4.3 s
on 8 KiB of newlines, minutes on 64 KiB; the budget is generous for a shared, noisy machine)."""

from __future__ import annotations

import time

import pytest

from app.reasoning.choices import plain_number, stated_choice
from app.reasoning.extract import answer_line
from app.reasoning.numbers import MAX_NUMBER_TEXT, number_in, vote_key

from .hostile import adversarial
from .readers import READERS

BUDGET_S = 0.5


@pytest.mark.parametrize("name", sorted(READERS))
def test_each_reader_is_fast_on_every_adversarial_string(name: str) -> None:
    reader = READERS[name]
    slow = {}
    for shape, text in adversarial().items():
        started = time.perf_counter()
        reader(text)
        took = time.perf_counter() - started
        if took > BUDGET_S:
            slow[shape] = round(took, 2)
    assert not slow, f"{name} is slow on {slow}"


def test_numbers_are_read_only_from_answers_of_bounded_length() -> None:
    assert number_in("x" * MAX_NUMBER_TEXT + " 18") is None
    assert number_in("The total is 18 dollars") == 18
    assert plain_number(" " * MAX_NUMBER_TEXT + "18") is None
    assert vote_key("x " * 5000) == vote_key("X  " * 5000)  # long text still folds into one key


def test_the_linear_patterns_still_read_what_the_old_ones_did() -> None:
    assert number_in("3 / 4 of a cup") == 0.75
    assert number_in("$1,234.50") == 1234.5
    assert plain_number("\n  $68.00 \n") == 68.0
    assert plain_number("36   km") == 36.0
    assert stated_choice("The answer   is\n (C)") == "C"
    assert answer_line("work\n\n  **Answer:**   **42**  \n") == "42"
    assert answer_line("Answer: 7\nmore words\nAnswer: 8") == "8"
    assert answer_line("no label here") is None
