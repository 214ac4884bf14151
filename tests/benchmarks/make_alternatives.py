"""A set of questions that ask which of two or three named alternatives is larger, cheaper or
faster (issue 33, "one of given options" where the options are written in the question, not
lettered), written by the team; each gold is the alternative as the question writes it, chosen
here by computing every alternative's value rather than typed.

    PYTHONPATH=. .venv/bin/python tests/benchmarks/make_alternatives.py > tests/data/alternatives.jsonl
    pal-studio eval tests/data/alternatives.jsonl --method mix --threads 2 --out eval-results/alternatives
"""

from __future__ import annotations

import json
from fractions import Fraction

F = Fraction

# (question, {alternative as written: its value}, whether the largest value is asked for)
ITEMS: list[tuple[str, dict[str, Fraction], bool]] = [
    ("Which is larger, 2 to the power of 10 or 1000?", {"2 to the power of 10": F(2**10), "1000": F(1000)}, True),
    ("Which is larger, 3/4 or 0.7?", {"3/4": F(3, 4), "0.7": F(7, 10)}, True),
    ("Which is smaller, 5/8 or 0.6?", {"5/8": F(5, 8), "0.6": F(6, 10)}, False),
    ("Which is greater: 3 to the power of 5 or 250?", {"3 to the power of 5": F(3**5), "250": F(250)}, True),
    (
        "Which is cheaper per pen: a pack of 3 for $4.50 or a pack of 5 for $7?",
        {"a pack of 3 for $4.50": F(450, 3), "a pack of 5 for $7": F(700, 5)},
        False,
    ),
    (
        "Which is the better buy per egg: a box of 12 eggs for $3.60 or a box of 18 eggs for $5.58?",
        {"a box of 12 eggs for $3.60": F(360, 12), "a box of 18 eggs for $5.58": F(558, 18)},
        False,
    ),
    (
        "Anna drives 180 km in 2 hours and Ben drives 260 km in 3 hours. Who drives faster, Anna or Ben?",
        {"Anna": F(180, 2), "Ben": F(260, 3)},
        True,
    ),
    (
        "Tom scored 42 out of 50 and Jerry scored 51 out of 60. Who scored the higher percentage, Tom or Jerry?",
        {"Tom": F(42, 50), "Jerry": F(51, 60)},
        True,
    ),
    (
        "A red rope is 3.5 m long, a blue rope is 340 cm long and a green rope is 3,450 mm long. "
        "Which rope is the longest: the red rope, the blue rope or the green rope?",
        {"the red rope": F(3500), "the blue rope": F(3400), "the green rope": F(3450)},
        True,
    ),
    (
        "Shop A sells a $80 jacket at 25% off. Shop B sells the same jacket for $65. "
        "Which is cheaper, Shop A or Shop B?",
        {"Shop A": F(80) * F(3, 4), "Shop B": F(65)},
        False,
    ),
    (
        "Mia saves $12 a week for 15 weeks. Leo saves $40 a month for 4 months. Who saves more, Mia or Leo?",
        {"Mia": F(12 * 15), "Leo": F(40 * 4)},
        True,
    ),
    (
        "Which holds more water, a tank of 2.5 liters or a jug of 2,400 milliliters?",
        {"a tank of 2.5 liters": F(2500), "a jug of 2,400 milliliters": F(2400)},
        True,
    ),
    ("Which is larger, 7/9 or 0.78?", {"7/9": F(7, 9), "0.78": F(78, 100)}, True),
    ("Which is larger, 15% of 80 or 20% of 50?", {"15% of 80": F(12), "20% of 50": F(10)}, True),
    (
        "Train X covers 420 km in 3.5 hours, train Y covers 500 km in 4 hours. Which train is faster, X or Y?",
        {"X": F(420) / F(7, 2), "Y": F(500, 4)},
        True,
    ),
    (
        "A phone plan costs $25 a month plus $0.10 a minute; another costs $40 a month with unlimited minutes. "
        "For 120 minutes a month, which is cheaper, the first plan or the second plan?",
        {"the first plan": F(25) + F(1, 10) * 120, "the second plan": F(40)},
        False,
    ),
]

if __name__ == "__main__":
    for question, values, largest in ITEMS:
        chosen = (max if largest else min)(values, key=values.__getitem__)
        assert sorted(values.values()).count(values[chosen]) == 1, question  # one right alternative
        print(json.dumps({"question": question, "answer": chosen}))
