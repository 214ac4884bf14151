"""The grader: numbers however they are written, choices, fractions, and symbolic equivalence
decided in the real sandbox (never by sympy in this process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.evaluation.grader import MAX_SYMBOLIC_CHARS, Grade, grade
from sandbox import Sandbox


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("18", "18"),
        ("18.0", "18"),
        ("$18.00", "18"),
        ("18 dollars", "18"),
        ("The answer is 18.", "18"),
        ("1,234", "1234"),
        ("$1,234.50", "1234.5"),
        ("75%", "75"),
        ("3/4", "0.75"),
        ("0.75", "3/4"),
        ("-5", "-5"),
        ("100000.00001", "100000"),  # floating-point noise around a whole gold
        ("114199.99999999999", "114200"),
        ("2.0500000000000003", "2.05"),
        ("(B) 42", "B"),
        ("B", "(B)"),
        ("The answer is C", "C"),
        ("Paris", "paris"),
        ("The blue whale.", "blue whale"),
        ("True", "Yes"),  # a program's True is the yes asked for
        ("False", "No"),
        ("no.", "No"),
        ("No, they cannot be split evenly.", "No"),
        ("[2, 3, 5]", "2, 3, 5"),
        ("7 x 1 = 7\n7 x 2 = 14\n7 x 3 = 21", "7, 14, 21"),  # a table's rows are its values
    ],
)
def test_equal(predicted: str, gold: str) -> None:
    assert grade(predicted, gold).correct


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        ("17", "18"),
        ("18.01", "18"),  # 5.6e-4 relative: outside the tolerance
        ("1,235", "1234"),
        ("116248", "116258"),  # 8.6e-5 relative, but a whole gold is met exactly
        ("2.68746e+08", "268746200"),
        (None, "18"),
        ("", "18"),
        ("no idea", "18"),
        ("12 apples and 5 pears", "12"),  # the last number is the one stated
        ("(A) 42", "B"),
        ("London", "Paris"),
        ("x + 1", "1 + x"),  # without a sandbox, text is only compared as text
        ("True", "No"),
        ("391", "No"),
        ("3/7 is smaller than 0.43", "No"),  # says neither
        ("21", "7, 14, 21"),  # a list's last number is not the list
        ("71421", "7, 14, 21"),
        ("[2, 5, 3]", "2, 3, 5"),
    ],
)
def test_not_equal(predicted: str | None, gold: str) -> None:
    assert not grade(predicted, gold).correct


def test_missing_answer_is_said() -> None:
    assert grade(None, "3").how == "missing"
    assert grade("3", "3").how == "number"


def test_a_chosen_option_grades_by_its_letter() -> None:
    assert grade("(C) 24", "C").correct
    assert not grade("24", "C").correct  # a value alone names no option
    assert grade("The answer is b", "(B)").how == "choice"


def test_symbolic_equivalence_runs_in_the_sandbox(sandbox: Sandbox) -> None:
    assert grade("(x+1)^2", "x^2 + 2x + 1", sandbox) == grade("sqrt(2)/2", "1/sqrt(2)", sandbox)
    assert grade("(x+1)^2", "x^2 + 2x + 1", sandbox).how == "symbolic"
    assert grade("(x+1)^2", "x^2 + 2x + 1", sandbox).correct
    assert not grade("x^2", "x^3", sandbox).correct


def test_hostile_text_is_only_ever_parsed_in_the_sandbox(sandbox: Sandbox, tmp_path: Path) -> None:
    marker = f"{tmp_path}/pwned"
    attack = f"__import__('os').system('touch {marker}')"
    assert not grade(attack, "x", sandbox).correct
    assert not grade('"); import os; os.system("id"); ("', "x", sandbox).correct
    import os

    assert not os.path.exists(marker)


def test_how_each_grade_was_reached() -> None:
    assert grade(None, "3") == Grade(False, "missing")
    assert grade("1000", "$1,000") == Grade(True, "number")
    assert grade("The Blue  whale.", "blue whale") == Grade(True, "text")
    assert grade("x", "y") == Grade(False, "text")


def test_symbolic_only_up_to_its_length_limit(sandbox: Sandbox) -> None:
    long = "a" * MAX_SYMBOLIC_CHARS
    assert grade(long, "z", sandbox) == Grade(False, "symbolic")
    assert grade(long + "a", "z", sandbox) == Grade(False, "text")
