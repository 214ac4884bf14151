"""A set of questions answered yes or no (divisibility, primes, comparisons, enough money or time),
written by the team, each gold computed here in Python rather than typed (issue 33).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/make_yes_no.py > tests/data/yes_no.jsonl
    pal-studio eval tests/data/yes_no.jsonl --method mix --threads 2 --out eval-results/yes-no
"""

from __future__ import annotations

import json
from fractions import Fraction


def _prime(n: int) -> bool:
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


ITEMS: list[tuple[str, bool]] = [
    ("Is 1001 divisible by 7?", 1001 % 7 == 0),
    ("Is 391 a prime number?", _prime(391)),
    ("Is 2 to the power of 10 greater than 1000?", 2**10 > 1000),
    ("Is 17 times 23 equal to 391?", 17 * 23 == 391),
    ("Tom has $50. He buys 3 books at $14 each and a pen for $9. Does he have enough money?", 3 * 14 + 9 <= 50),
    (
        "A tank holds 500 liters. 12 buckets of 45 liters each are poured into the empty tank. Does the tank overflow?",
        12 * 45 > 500,
    ),
    ("Is 0.3 + 0.6 greater than 0.85?", 0.3 + 0.6 > 0.85),
    ("Is 3/7 larger than 0.43?", Fraction(3, 7) > Fraction(43, 100)),
    ("Is 1000001 divisible by 101?", 1000001 % 101 == 0),
    ("Is 221 a prime number?", _prime(221)),
    ("Is 97 a prime number?", _prime(97)),
    ("Is the sum of the first 20 positive whole numbers more than 200?", sum(range(1, 21)) > 200),
    ("Sara reads 25 pages a day. Will she finish a 380-page book in 15 days?", 25 * 15 >= 380),
    ("A car travels at 65 km/h for 3.5 hours. Does it cover more than 230 km?", 65 * 3.5 > 230),
    ("Is 12 cubed less than 1700?", 12**3 < 1700),
    ("Is 4096 a perfect square?", round(4096**0.5) ** 2 == 4096),
    ("Is 7777 divisible by 11?", 7777 % 11 == 0),
    ("Is 123456 divisible by 8?", 123456 % 8 == 0),
    ("A class has 28 students. Can they be split into teams of 6 with nobody left over?", 28 % 6 == 0),
    ("Is 15% of 240 more than 35?", Fraction(15, 100) * 240 > 35),
    ("Is two thirds of 45 equal to 30?", Fraction(2, 3) * 45 == 30),
    ("Is 999 divisible by 27?", 999 % 27 == 0),
    ("A box of 12 eggs costs $3.60. Does one egg cost less than 31 cents?", Fraction(360, 12) < 31),
    ("Is 1001 divisible by 13?", 1001 % 13 == 0),
    ("Mia saves $35 a week. After 9 weeks, does she have enough to buy a $320 bike?", 35 * 9 >= 320),
    ("Is 2024 a leap year?", 2024 % 4 == 0 and (2024 % 100 != 0 or 2024 % 400 == 0)),
    ("A garden is 18 m long and 12 m wide. Is its area more than 200 square meters?", 18 * 12 > 200),
    ("Is 5/8 equal to 0.625?", Fraction(5, 8) == Fraction(625, 1000)),
]

if __name__ == "__main__":
    for question, yes in ITEMS:
        print(json.dumps({"question": question, "answer": "Yes" if yes else "No"}))
