"""A set of questions that ask for a table or a list of numbers (issue 33, "the answer is of the kind
the question asks for"), and three that name a list or a table but ask for one number; written by
the team, each gold computed here rather than typed. A list gold is met by those numbers in order,
however listed or tabled (`grader`: a table's rows are their last numbers).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/make_rows.py > tests/data/rows.jsonl
    pal-studio eval tests/data/rows.jsonl --method mix --threads 2 --out eval-results/rows

With `--languages`, the same kinds of question as a German, French or Spanish student asks them
(nine asking for rows, two for one number), for `tests/data/rows_languages.jsonl`.
"""

from __future__ import annotations

import json
import sys
from itertools import accumulate


def _fibonacci(count: int) -> list[int]:
    numbers = [0, 1]
    while len(numbers) < count:
        numbers.append(numbers[-2] + numbers[-1])
    return numbers[:count]


def _primes_below(limit: int) -> list[int]:
    return [n for n in range(2, limit) if all(n % d for d in range(2, n))]


ITEMS: list[tuple[str, list[int] | list[float] | int]] = [
    ("Print the multiplication table of 7.", [7 * n for n in range(1, 11)]),
    ("Show the times table of 9 up to 9 x 5.", [9 * n for n in range(1, 6)]),
    ("Print the multiplication table of 12 from 12 x 1 to 12 x 12.", [12 * n for n in range(1, 13)]),
    ("Write out the first 8 Fibonacci numbers, starting with 0 and 1.", _fibonacci(8)),
    ("List all the prime numbers below 30.", _primes_below(30)),
    ("List the first 6 square numbers.", [n * n for n in range(1, 7)]),
    ("List the first 5 cube numbers.", [n**3 for n in range(1, 6)]),
    ("What are the first 5 multiples of 12?", [12 * n for n in range(1, 6)]),
    ("What are the first 8 triangular numbers?", list(accumulate(range(1, 9)))),
    ("List all the even numbers between 51 and 61.", list(range(52, 61, 2))),
    ("List all the multiples of 7 between 20 and 60.", [n for n in range(20, 61) if n % 7 == 0]),
    ("List all the divisors of 36.", [d for d in range(1, 37) if 36 % d == 0]),
    ("What are the first 7 powers of 2, starting from 2 to the power of 0?", [2**n for n in range(7)]),
    (
        "A savings account starts with $1000 and earns 10% interest a year, compounded yearly. "
        "Print a table of the balance at the end of each of the first 4 years.",
        [round(1000 * 1.1**n, 2) for n in range(1, 5)],
    ),
    (
        "Tom saves $5 in the first week, and each week he saves $3 more than the week before. "
        "List how much he saves in each of the first 6 weeks.",
        [5 + 3 * n for n in range(6)],
    ),
    # They name a list or a table, and ask for one number.
    ("How many prime numbers are there below 30?", len(_primes_below(30))),
    ("What is the 10th number in the multiplication table of 6?", 6 * 10),
    ("Ann made a shopping list of 9 items and bought all but 2 of them. How many items did she buy?", 9 - 2),
]


OTHER_LANGUAGES: list[tuple[str, list[int] | list[float] | int]] = [
    ("Schreibe das Einmaleins der 7 auf.", [7 * n for n in range(1, 11)]),
    ("Schreibe die ersten 8 Fibonacci-Zahlen auf, beginnend mit 0 und 1.", _fibonacci(8)),
    ("Liste alle Primzahlen unter 20 auf.", _primes_below(20)),
    ("Affiche la table de multiplication de 6.", [6 * n for n in range(1, 11)]),
    ("Donne-moi les 10 premiers nombres premiers.", _primes_below(30)),
    ("Écris les 6 premiers nombres carrés.", [n * n for n in range(1, 7)]),
    ("Muestra la tabla de multiplicar del 8.", [8 * n for n in range(1, 11)]),
    ("Escribe los primeros 5 múltiplos de 9.", [9 * n for n in range(1, 6)]),
    ("Enumera los divisores de 24.", [d for d in range(1, 25) if 24 % d == 0]),
    # They ask for one number.
    ("Wie viele Primzahlen gibt es unter 20?", len(_primes_below(20))),
    ("¿Cuál es el décimo número de la tabla del 6?", 6 * 10),
]


def main() -> None:
    for question, gold in OTHER_LANGUAGES if "--languages" in sys.argv[1:] else ITEMS:
        answer = ", ".join(f"{value:g}" for value in gold) if isinstance(gold, list) else str(gold)
        print(json.dumps({"question": question, "answer": answer}))


if __name__ == "__main__":
    main()
