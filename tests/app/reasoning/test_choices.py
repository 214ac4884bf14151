"""Multiple-choice options: read from the question, matched to a computed number."""

from __future__ import annotations

import pytest

from app.reasoning.choices import Choice, choices_in, matching_choice, number_of, plain_number, stated_choice

AQUA = "How long is the cloth?\nAnswer Choices: (A) 6 (B) 18 (C) 24 (D) 36 (E) 48"


def test_options_are_read_in_order() -> None:
    choices = choices_in(AQUA)
    assert [str(c) for c in choices] == ["(A) 6", "(B) 18", "(C) 24", "(D) 36", "(E) 48"]


def test_the_last_list_counts_and_letters_must_run_in_order() -> None:
    question = "Step (A) happens first. Which? (A) $68.00 (B) $69.00 (C) 70%"
    assert [c.text for c in choices_in(question)] == ["$68.00", "$69.00", "70%"]
    assert choices_in("Pick (A) 1 (C) 3") == ()  # (B) missing: not a list of options
    assert choices_in("Only (A) 1") == ()
    assert choices_in("What is 2 + 2?") == ()


@pytest.mark.parametrize(
    "question",
    [
        "How fast? Options: A)70 km/h B)75 km/h C)80 km/h",  # AQuA's own way
        "How fast? (a) 70 km/h (b) 75 km/h (c) 80 km/h",
        "How fast?\na) 70 km/h\nb) 75 km/h\nc) 80 km/h",
        "How fast?\nA. 70 km/h\nB. 75 km/h\nC. 80 km/h\nShow your work.",  # one a line: the line ends it
        "Choose one:\n  A: 70 km/h\n  B: 75 km/h\n  C: 80 km/h",
    ],
)
def test_options_as_people_write_them(question: str) -> None:
    assert [str(c) for c in choices_in(question)] == ["(A) 70 km/h", "(B) 75 km/h", "(C) 80 km/h"]


@pytest.mark.parametrize(
    "question",
    [
        "Find (a) the area and (b) the perimeter of a 3 by 4 rectangle.",  # two questions, no options
        "Plan A) costs $5. Plan B) costs $6. Which is cheaper?",
        "Vitamin A. is good.\nB. is not a letter here",
        "Which? a) 1 c) 3",
        "Which? A) 1 b) 2",  # not one way of writing them
    ],
)
def test_letters_that_offer_no_options(question: str) -> None:
    assert choices_in(question) == ()


def test_reading_options_stays_linear() -> None:
    assert choices_in("A) " * 50_000) == ()
    assert len(choices_in("x" * 100_000 + "? a) 1 b) 2")) == 2  # the end of a long text is read


@pytest.mark.parametrize(
    ("text", "value"),
    [("6", 6.0), ("$68.00", 68.0), ("25%", 25.0), ("1,200", 1200.0), ("36 km", 36.0), ("-3.5", -3.5), (".5", 0.5)],
)
def test_plain_numbers(text: str, value: float) -> None:
    assert plain_number(text) == value


@pytest.mark.parametrize("text", ["16:5", "(1,1)", "x + 2", "2 h 3 min", "", "1e999", "nan"])
def test_not_one_number(text: str) -> None:
    assert plain_number(text) is None


def test_a_value_matches_the_one_option_that_is_it() -> None:
    choices = choices_in(AQUA)
    assert matching_choice(24.0, choices) == Choice("C", "24")
    assert matching_choice(24.000001, choices) == Choice("C", "24")  # float noise
    assert matching_choice(24.01, choices) is None
    assert matching_choice(7.0, choices) is None


def test_stated_decimals_stand_for_what_rounds_to_them() -> None:
    choices = choices_in("(A) 5.5 (B) 6 (C) 8.25")
    assert matching_choice(8.2549, choices) == Choice("C", "8.25")
    assert matching_choice(8.256, choices) is None
    assert matching_choice(5.96, choices) is None  # "6" states no decimals: exact only


def test_several_matching_options_are_no_match() -> None:
    assert matching_choice(3.0, choices_in("(A) 3 (B) 3.0 (C) 4")) is None


def test_stated_choice() -> None:
    assert stated_choice("(D)") == "D"
    assert stated_choice("(B) 42") == "B"
    assert stated_choice("option b, because") == "B"
    assert stated_choice("The answer is C") == "C"
    assert stated_choice("42") is None


def test_option_text_is_tidied() -> None:
    assert [c.text for c in choices_in("(A) two\n  words (B) x")] == ["two words", "x"]
    assert str(Choice("A", "")) == "(A)"
    assert len(choices_in("Yes or no? (A) yes (B) no")) == 2


def test_a_number_too_large_for_a_float_is_no_number() -> None:
    assert plain_number("9" * 400) is None


def test_a_computed_value_as_a_number() -> None:
    assert number_of(24) == 24.0 and number_of(2.5) == 2.5 and number_of("$24") == 24.0
    assert number_of(True) is None and number_of([24]) is None and number_of(None) is None
    assert number_of(10**400) is None  # too large for a float: no option's number
