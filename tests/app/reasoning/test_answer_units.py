"""The big answer dressed as the question asks: money, percent, units; counts and text untouched."""

from __future__ import annotations

import pytest

from app.reasoning.answer_units import dressed


@pytest.mark.parametrize(
    ("answer", "question", "shown"),
    [
        ("66", "Olivia has $23 and buys five bagels. How much money does she have left?", "$66.00"),
        ("1234.5", "How many dollars did he earn?", "$1,234.50"),
        ("18", "A book costs $12 and a pen $6. What is the total cost?", "$18.00"),
        ("-4", "He had $10 and spent $14. How much money does he have?", "-$4.00"),
        ("8", "Janet has $5. Apples cost $0.5 each. How many apples can she buy?", "8"),
        ("160.02", "How tall is she in cm?", "160.02 cm"),
        ("12", "How many minutes does the trip take?", "12 minutes"),
        ("25", "What percent of the class passed?", "25%"),
        ("6", "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?", "6"),
        ("3/4", "What fraction of the $12 did she spend?", "3/4"),
        ("C", "Which option costs $3? (A) pen (B) cup (C) hat", "C"),
    ],
)
def test_dressed(answer: str, question: str, shown: str) -> None:
    assert dressed(answer, question) == shown


@pytest.mark.parametrize(
    ("question", "needs"),
    [
        ("Who wrote Hamlet?", False),
        ("What is the capital of France?", False),
        ("A baker made 24 muffins and sold 3 boxes of 6. How many are left?", True),
        ("Solve 3x + 7 = 25", True),
        ("How many legs does a spider have?", True),
        ("What is six times seven?", True),
    ],
)
def test_needs_calculation(question: str, needs: bool) -> None:
    from app.reasoning.answer_units import needs_calculation

    assert needs_calculation(question) is needs
