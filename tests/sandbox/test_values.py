"""Rendering values for the wire (runs in the child; tested here as plain functions)."""

from __future__ import annotations

import fractions

import sympy

from sandbox import values


def test_plain_values() -> None:
    assert values.render(42) == {"repr": "42", "json": 42, "type": "int", "latex": None}
    assert values.render(True)["json"] is True
    assert values.render(float("inf"))["json"] is None


def test_huge_integer_is_summarised() -> None:
    rendered = values.render(-(10**5000))
    assert rendered["json"] is None
    assert rendered["repr"] == "<-integer with about 5001 digits>"


def test_long_text_is_capped() -> None:
    rendered = values.render("y" * 50_000)
    assert len(rendered["repr"]) < values.REPR_CHARS + 50
    assert len(rendered["json"]) < values.REPR_CHARS + 50


def test_containers_beyond_the_budget_have_no_json() -> None:
    assert values.render(list(range(5000)))["json"] is None
    nested: list[object] = []
    for _ in range(20):
        nested = [nested]
    assert values.render(nested)["json"] is None
    assert values.render({1: "a"})["json"] == {"1": "a"}


def test_sympy_and_fractions() -> None:
    x = sympy.Symbol("x")
    rendered = values.render(x**2 / 2)
    assert rendered["json"] == "x**2/2"
    assert rendered["latex"] == "\\frac{x^{2}}{2}"
    assert values.render(sympy.Integer(7))["json"] == 7
    assert values.render(sympy.Rational(1, 3))["json"] == "1/3"
    assert values.render(fractions.Fraction(2, 4))["json"] == "1/2"
    assert values.render(sympy.Matrix([[1, 2]]))["latex"] is not None
