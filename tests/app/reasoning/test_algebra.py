"""The moves a teacher writes for an equation the program wrote with sympy, read from its syntax
tree with exact fractions (nothing evaluated or sympified here)."""

from __future__ import annotations

import ast
from fractions import Fraction

import pytest

from app.reasoning.algebra import equation_steps


def steps(equation: str, known: dict[str, Fraction] | None = None) -> list[tuple[str, str]]:
    call = ast.parse(equation, mode="eval").body
    assert isinstance(call, ast.Call)
    return [(s.text, s.latex) for s in equation_steps(call.args[0], call.args[1], {"x", "y"}, known or {})]


def test_a_linear_equation_is_solved_in_the_moves_a_teacher_writes() -> None:
    assert steps("Eq(3*x + 7, 25)") == [
        ("The equation:", "3x + 7 = 25"),
        ("Take 7 from both sides:", "3x = 25 - 7 = 18"),
        ("Divide both sides by 3:", r"x = \frac{18}{3} = 6"),
    ]
    assert steps("Eq(2*(x - 3), x + 10)") == [
        ("The equation:", "2x - 6 = x + 10"),
        ("Take x from both sides:", "x - 6 = 10"),
        ("Add 6 to both sides:", "x = 10 + 6 = 16"),
    ]
    assert steps("Eq(price*x/2 + 1, 8)", {"price": Fraction(4)})[-1] == ("Divide both sides by 2:", r"x = \frac{7}{2}")
    assert steps("Eq(x, 5)") == [("The equation:", "x = 5")]


def test_a_quadratic_is_factorised_or_given_the_formula() -> None:
    assert steps("Eq(x**2 - 5*x + 6, 0)") == [
        ("The equation:", "x^2 - 5x + 6 = 0"),
        ("Factorise:", "(x - 2)(x - 3) = 0"),
        ("So:", r"x = 2 \ \mathrm{or}\ x = 3"),
    ]
    assert steps("Eq(x**2, 2*x - 1)")[1:] == [
        ("Everything on one side:", "x^2 - 2x + 1 = 0"),
        ("Factorise:", "(x - 1)^2 = 0"),
        ("So:", "x = 1"),
    ]
    assert steps("Eq(x**2 - 2, 0)")[-1] == ("The quadratic formula:", r"x = \frac{0 \pm \sqrt{8}}{2}")
    assert steps("Eq(x**2 + 1, 0)")[-1][0].startswith("No real solution")


@pytest.mark.parametrize(
    "equation",
    ["Eq(x**3, 8)", "Eq(1/x, 2)", "Eq(x + y, 3)", "Eq(sqrt(x), 3)", "Eq(x + unknown_name, 3)", "Eq(2, 3)",
     "Eq(x - x, 3)", "Eq(" + "-" * 60 + "x, 1)", "Eq(x * 10**40, 1)"],
)  # fmt: skip
def test_what_is_not_a_textbook_equation_has_no_steps(equation: str) -> None:
    assert steps(equation) == []
