"""How numbers in answers are read, shown and grouped for a vote."""

from __future__ import annotations

import pytest

from app.reasoning.numbers import format_answer, format_float, last_rows, number_in, numbers_equal, vote_key


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (11.0, "11"),
        (2.0500000000000003, "2.05"),
        (-3.0, "-3"),
        (1e16, "1e+16"),
        (9999999999999998.0, "1e+16"),
        (123456789012.0, "123456789012"),
        (123456789012345.0, "123456789012000"),  # 12 significant digits
        (float("inf"), "inf"),
        (0.1 + 0.2, "0.3"),
    ],
)
def test_format_float(value: float, shown: str) -> None:
    assert format_float(value) == shown


@pytest.mark.parametrize(
    ("text", "shown"), [(" 11.0 ", "11"), ("2.0500000000000003", "2.05"), ("1E3", "1000"), ("42", "42"), ("x", "x")]
)
def test_format_answer(text: str, shown: str) -> None:
    assert format_answer(text) == shown


@pytest.mark.parametrize(
    ("text", "value"),
    [("$1,234.50", 1234.5), ("3 / 4", 0.75), ("3/4", 0.75), ("from 2 to -7", -7.0), ("25%", 25.0), ("1e3", 1000.0)],
)
def test_number_in(text: str, value: float) -> None:
    assert number_in(text) == value


@pytest.mark.parametrize("text", ["5/0", "no number", "", "-", "."])
def test_no_number(text: str) -> None:
    assert number_in(text) is None


def test_vote_keys() -> None:
    assert vote_key("$18.00") == vote_key("18") == "18"
    assert vote_key("(C) 5 times every 18 years") == vote_key("(C) 5") == "option C" != vote_key("18")
    assert vote_key("  Blue   Whale ") == vote_key("The blue whale.") == vote_key("a blue whale") == "blue whale"
    assert vote_key("Theresa") == "theresa" and vote_key("Anna") == "anna"  # an article only as a word
    assert vote_key("True") == vote_key("Yes.") == vote_key("yes") != vote_key("False") == vote_key("No")
    assert vote_key("Yes, 7 divides it") != vote_key("yes")  # a sentence stays its text
    assert vote_key("The sum of their ages in 2 years does not equal 28.") != vote_key("28")
    assert vote_key("It can't be 28") != vote_key("28") == vote_key("The answer is 28.")
    assert vote_key("1e999") == "1e999"  # not a finite number: kept as text
    # Seen in the window: 3 rows and a 2-row subset ending in the same amount counted as one answer.
    three = "[{'category': 'food', 'amount': 12.5}, {'category': 'rent', 'amount': 8.25}]"
    assert vote_key(three) != vote_key("[{'category': 'food', 'amount': 8.25}]")
    assert vote_key(" {'a': 1}") == "{'a': 1}" and vote_key("[1, 2]") == vote_key("[1,  2]")


def test_a_list_of_numbers_is_one_answer_however_written() -> None:
    """Seen: "Write out the first 8 Fibonacci numbers.": two programs printed [0, 1, 1, 2, 3, 5, 8,
    13], two chains of thought wrote 0, 1, 1, 2, 3, 5, 8, 13, and the vote counted a 2-2 tie."""
    fibonacci = vote_key("[0, 1, 1, 2, 3, 5, 8, 13]")
    assert fibonacci == vote_key("0, 1, 1, 2, 3, 5, 8, 13") == vote_key("(0, 1, 1, 2, 3, 5, 8, 13.0).")
    assert fibonacci != vote_key("1, 1, 2, 3, 5, 8, 13, 21") and fibonacci != vote_key("13")
    assert vote_key("[2, 1]") != vote_key("[1, 2]")  # a list's order is part of it
    assert vote_key("1,024") == vote_key("1024") == "1024"  # a thousands separator, not a list
    assert vote_key("[1,2]") == vote_key("1, 2") and vote_key("[1, 'a']") != vote_key("1")


def test_a_table_printed_a_row_a_line_is_its_rows_not_its_last_number() -> None:
    """Seen: "Print the multiplication table of 7.": PAL printed the ten rows, PoT's ans was 70, and
    the vote counted them as agreeing (both keyed by the last number)."""
    table = "\n".join(f"7 x {n} = {7 * n}" for n in range(1, 11))
    assert vote_key(table) != vote_key("70") and vote_key("Table of 7:\n" + table) == vote_key(table)
    assert vote_key(table) == vote_key(table.replace(" x ", " × ")) != vote_key(table.replace("= 70", "= 71"))
    assert vote_key(table) == vote_key("7, 14, 21, 28, 35, 42, 49, 56, 63, 70")  # a row's value is its last number
    latex = "\\begin{array}{cc}\n" + table.replace(" x ", " & ").replace(" = ", " & ") + "\n\\end{array}"
    assert vote_key(latex) == vote_key(table)  # lines without a number after the rows do not count
    # Working closed by its answer keeps the answer's number; so do bare numbers a line (values
    # printed on the way) and two lines of anything.
    assert vote_key("16\n9\n18") == "18"
    assert vote_key("Day 1: 5\nDay 2: 7\nDay 3: 9\nTotal: 21") == vote_key("21") == "21"
    assert vote_key("Eggs left: 9\nDollars: 18") == "18" and vote_key("x\ny\nz") == "x y z"


def test_rows_written_on_one_line_are_rows() -> None:
    """Seen: a chain of thought wrote the table of 7 as "7 × 1 = 7 7 × 2 = 14 …" on one line; it was
    read as its last product, and the grader did not read it as the table either."""
    table = "\n".join(f"7 x {n} = {7 * n}" for n in range(1, 6))
    assert vote_key("7 × 1 = 7 7 × 2 = 14 7 × 3 = 21 7 × 4 = 28 7 × 5 = 35") == vote_key(table)
    assert vote_key("7 x 1 = 7, 7 x 2 = 14, 7 x 3 = 21, 7 x 4 = 28, 7 x 5 = 35.") == vote_key(table)
    assert vote_key("1^2 = 1; 2^2 = 4; 3^2 = 9") == vote_key("1, 4, 9")
    # One calculation or working of different steps is its result, as before.
    assert vote_key("2 × 3 = 6, 6 + 4 = 10, 10 - 1 = 9") == "9" and vote_key("7 x 2 = 14 = 14") == "14"
    assert vote_key("7 x 1 = 7 7 x 2 = 14") == "14"  # two are no table
    assert vote_key("7 x 1 = 7, 7 x 2 = 14, 7 x 3 = 21 and so on") != vote_key("7, 14, 21")


def test_the_last_table_written_out_in_reasoning_is_read() -> None:
    """Seen: a chain of thought wrote the multiplication table of 7 in a ```plaintext block and no
    answer line, and was read as no answer."""
    reasoning = "The table of 7:\n```plaintext\n7 x 1 = 7\n7 x 2 = 14\n\n7 x 3 = 21\n```\nThat is the table."
    assert last_rows(reasoning) == (7, 14, 21)
    assert last_rows("Primes:\n2\n3\n5\nSo \\boxed{3}") == (2, 3, 5)  # below it, a line of another shape
    assert last_rows("Steps:\n1. 2 + 2 = 4\n2. 4 + 2 = 6\nTable: 7 × 1 = 7, 7 × 2 = 14, 7 × 3 = 21") == (7, 14, 21)
    assert last_rows("a = 1\nb = 2\nSo the answer is 3.") is None and last_rows("") is None


def test_a_scale_after_the_number_is_part_of_it() -> None:
    """Seen in the window: chain of thought's 2.05M and PAL's 2050000 counted as two answers, and
    chain of thought's 5.4M won the vote as 5.4."""
    assert vote_key("2.05M") == vote_key("2050000") == vote_key("2.05 million views") == "2050000"
    assert number_in("$1.5 billion") == 1.5e9 and number_in("850k") == 850_000 and number_in("3 Thousand") == 3000
    assert number_in("2.5 m") == 2.5 and number_in("5kg") == 5 and number_in("12 km") == 12  # units, not scales
    assert number_in("3 thousandths") == 3 and number_in("3/4 million") == 0.75


def test_numbers_equal_within_a_relative_tolerance_both_ways() -> None:
    assert numbers_equal(1, 1.0001) and numbers_equal(1.0001, 1)
    # within 1e-4 of the larger, not of the smaller: the tolerance is relative to the larger
    assert numbers_equal(10000, 10001.00005) and numbers_equal(10001.00005, 10000)
    assert not numbers_equal(1, 1.0002) and not numbers_equal(1.0002, 1)
    assert numbers_equal(1e-17, 0) and not numbers_equal(0.00005, 0)
    assert numbers_equal(float("inf"), float("inf")) and not numbers_equal(float("nan"), float("nan"))
