"""Rendering values for the wire (runs in the child; tested here as plain functions)."""

from __future__ import annotations

import datetime
import fractions
import sys
import types

import pytest
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


def test_cap_keeps_text_at_the_limit_and_counts_what_it_cut() -> None:
    assert values.cap("a" * 5, 5) == "aaaaa"
    assert values.cap("a" * 7, 5) == "aaaaa… [2 more characters]"


def test_integers_as_long_as_json_allows_and_no_longer() -> None:
    fits, too_long = 2**2999, 2**3000  # 3,000 bits is the line (≈ 900 digits)
    assert values.to_json(fits) == fits and values.to_json(-fits) == -fits
    assert values.to_json(too_long) is None
    assert values.safe_repr(too_long) == "<integer with about 904 digits>"
    assert values.safe_repr(0) == "0"


def test_a_repr_that_raises_is_described_capped() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise ValueError("x" * 300)

    assert values.safe_repr(Broken()) == "<repr failed: ValueError: " + "x" * 200 + "… [100 more characters]>"


def test_nesting_depth_limit() -> None:
    def nested(levels: int) -> list[object]:
        value: list[object] = [1]
        for _ in range(levels - 1):
            value = [value]
        return value

    assert values.to_json(nested(6)) == nested(6)  # the innermost 1 sits at depth 6, the limit
    assert values.to_json(nested(7)) is None
    assert values.to_json({"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}}) == {"a": {"b": {"c": {"d": {"e": {"f": 1}}}}}}
    assert values.to_json({"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}}) is None
    assert values.to_json({1: {2: {3: {4: {5: {6: 1}}}}}}) == {"1": {"2": {"3": {"4": {"5": {"6": 1}}}}}}
    assert values.to_json({1: {2: {3: {4: {5: {6: {7: 1}}}}}}}) is None


def test_json_of_plain_values() -> None:
    assert values.to_json(1.5) == 1.5 and values.to_json(float("nan")) is None
    assert values.to_json(datetime.date(2024, 1, 2)) == "2024-01-02"
    assert values.to_json({"k" * 300: [1, (2, 3)]}) == {"k" * 200 + "… [100 more characters]": [1, [2, 3]]}
    assert values.to_json({("a" * 300,): 1}) == {values.cap(repr(("a" * 300,)), 200): 1}
    assert values.to_json(object()) is None


def test_a_data_row_is_a_json_object() -> None:
    """Rows of the user's tables are read-only dicts (mappingproxy): a program's filtered rows
    are its table answer, and had no JSON copy before (the Table tab stayed empty)."""
    row = types.MappingProxyType({"day": datetime.date(2024, 1, 2), "amount": 3.5, "note": None})
    assert values.to_json([row]) == [{"day": "2024-01-02", "amount": 3.5, "note": None}]


def test_sympy_numbers_become_json_numbers() -> None:
    assert values.to_json(sympy.Integer(5)) == 5
    assert values.to_json(sympy.Float(2.5)) == 2.5
    assert values.to_json(sympy.Integer(2**3000)) is None
    assert values.to_json(sympy.Symbol("x") + 1) == "x + 1"
    assert values.latex(sympy.Rational(1, 2)) == "\\frac{1}{2}" and values.latex(0.5) is None


def test_without_sympy_loaded_nothing_is_taken_for_sympy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "sympy")
    assert values.to_json(object()) is None
    assert values.render(object())["latex"] is None


def test_the_item_budget_counts_the_container_and_each_item() -> None:
    assert values.to_json(list(range(999))) == list(range(999))  # 1 list + 999 items = 1,000
    assert values.to_json(list(range(1000))) is None


def test_capture_takes_the_names_asked_for_and_survives_what_they_do() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise SystemExit(1)  # not an Exception: past the repr guard, caught by capture

    class Slow:
        def __repr__(self) -> str:
            raise values.CaptureTimeout

    namespace = {"a": 1, "bad": Hostile(), "b": [2], "slow": Slow(), "c": 3}
    captured = values.capture(namespace, ("a", "missing", "bad", "b", "slow", "c"))
    assert list(captured) == ["a", "bad", "b", "slow"]  # what is missing is left out; after the clock, nothing
    assert captured["a"] == {"repr": "1", "json": 1, "type": "int", "latex": None}
    assert captured["bad"] == {
        "repr": "<could not be shown: SystemExit>",
        "json": None,
        "type": "Hostile",
        "latex": None,
    }
    assert captured["b"]["json"] == [2]
    assert captured["slow"] == {"repr": "<repr took too long>", "json": None, "type": "Slow", "latex": None}
