"""The worked solution: each computed quantity as prose and mathematics with its values
substituted, loops summarised, the branch that held shown, typeset by mathtext; made from what the
real sandbox captured, never by running the program here."""

from __future__ import annotations

import io

import pytest
from matplotlib import mathtext

from app.reasoning.working import MAX_PROGRAM_CHARS, WorkingStep, worked_solution
from sandbox import Sandbox

BAGELS = (
    "# Olivia starts with $23\nmoney_initial = 23\n# she buys 5 bagels at $3 each\nbagels = 5\nbagel_cost = 3\n"
    "money_spent = bagels * bagel_cost\n# what is left\nmoney_left = money_initial - money_spent\nprint(money_left)"
)
QUESTION = "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"


def _steps(sandbox: Sandbox, code: str, question: str = "", *, trace: bool = False) -> list[WorkingStep]:
    from app.reasoning.extract import assigned_names

    result = sandbox.run(code, capture=["ans", *assigned_names(code)], trace=trace)
    assert result.ok, result.error
    return worked_solution(code, result.values, question, result.trace)


def test_each_quantity_becomes_a_line_of_mathematics(sandbox: Sandbox) -> None:
    steps = _steps(sandbox, BAGELS, QUESTION)
    spent = next(s for s in steps if s.latex.startswith(r"\mathrm{money\ spent}"))
    assert spent.text == "Money spent."  # no comment right above it: prose from the name
    assert spent.latex == r"\mathrm{money\ spent} = \mathrm{bagels} \times \mathrm{bagel\ cost} = 5 \times 3 = \$15"
    assert spent.value == "$15"  # the question is about dollars
    left = next(s for s in steps if s.latex.startswith(r"\mathrm{money\ left}") and s.line == 8)
    assert left.text == "What is left" and left.latex.endswith("= 23 - 15 = \\$8")
    assert steps[-1].text == "The answer:" and steps[-1].value == "$8"  # the last line is the answer


def test_a_printed_expression_is_a_step_with_its_values_and_what_it_printed(sandbox: Sandbox) -> None:
    """The seed's own example ends in print(money_initial - money_spent): shown with 23 - 15 and 8."""
    code = BAGELS.replace("# what is left\nmoney_left = money_initial - money_spent\nprint(money_left)", "")
    code += "print(money_initial - money_spent)"
    result = sandbox.run(code, capture=["money_initial", "bagels", "bagel_cost", "money_spent"])
    last = worked_solution(code, result.values, QUESTION, output=result.stdout)[-1]
    assert last.latex == r"\mathrm{money\ initial} - \mathrm{money\ spent} = 23 - 15 = 8" and last.value == "8"
    looped = "total = 0\nfor n in range(3):\n    print(n * 2)\n"  # which print made which line is not certain
    ran = sandbox.run(looped, capture=["total"])
    assert not {step.value for step in worked_solution(looped, ran.values, output=ran.stdout)} & {"2", "4"}
    twice = "a = 2\nb = 3\nprint(a + b)\nprint(a * b)"
    run = sandbox.run(twice, capture=["a", "b"])
    assert [s.value for s in worked_solution(twice, run.values, output=run.stdout)][-2:] == ["5", "6"]


def test_a_loop_is_summarised_with_its_result(sandbox: Sandbox) -> None:
    steps = _steps(
        sandbox, "# 12 a week for 4 weeks\ntotal = 0\nfor week in range(4):\n    total = total + 12\nans = total"
    )
    loop = next(s for s in steps if "for" in s.latex)
    assert r"\mathrm{total} = \mathrm{total} + 12" in loop.latex and loop.latex.endswith(r"\mathrm{total} = 48")
    assert loop.value == "total = 48"
    first = steps[0]
    assert first.latex == r"\mathrm{total} = 0"  # not "= 48": that is its value after the loop
    assert steps[-1].latex == r"\mathrm{ans} = \mathrm{total} = 48"


@pytest.mark.parametrize(
    ("code", "header"),
    [
        ("x = 0\nwhile 3 * x + 7 != 25:\n    x += 1\nans = x", r"\mathrm{until}\ 3 \times \mathrm{x} + 7 = 25:"),
        ("n = 5\ns = 0\nfor k in range(1, n + 1):\n    s += k\nans = s", r"\mathrm{from}\ 1\ \mathrm{to}\ \mathrm{n}:"),
        ("s = 0\nfor k in range(2 * 3):\n    s += k\nans = s", r"\mathrm{to}\ 2 \times 3 - 1:"),
        (
            "prices = [2, 3]\nt = 0\nfor i, price in enumerate(prices):\n    t += price\nans = t",
            r"\mathrm{for\ each}\ \mathrm{price}\ \mathrm{in}\ \mathrm{prices}:",
        ),
    ],
)
def test_a_loop_says_what_it_goes_over_in_words_never_its_code(sandbox: Sandbox, code: str, header: str) -> None:
    """Issue 31: a brute-force search or a loop was typeset as its header's code ("while
    equation_left != …"); the working says what a teacher would."""
    loop = next(s for s in _steps(sandbox, code) if s.text.startswith("Repeated"))
    assert header in loop.latex, loop.latex
    assert "range" not in loop.latex and "!=" not in loop.latex and "enumerate" not in loop.latex
    mathtext.math_to_image(f"${loop.latex}$", io.BytesIO(), dpi=72, format="png")  # mathtext can typeset it


def test_the_branch_that_held_is_shown(sandbox: Sandbox) -> None:
    code = "x = 7\nif x > 5:\n    bonus = 10\nelse:\n    bonus = 0\nans = x + bonus / 2"
    steps = _steps(sandbox, code, trace=True)
    texts = [(s.text, s.latex) for s in steps]
    assert ("The condition holds:", r"\mathrm{x} > 5") in texts
    assert ("Bonus.", r"\mathrm{bonus} = 10") in texts and all("= 0" not in latex for _t, latex in texts)
    assert steps[-1].latex == r"\mathrm{ans} = \mathrm{x} + \frac{\mathrm{bonus}}{2} = 7 + \frac{10}{2} = 12"


def test_an_equation_shows_its_algebra_and_its_roots(sandbox: Sandbox) -> None:
    """The program as the embedded model writes it for "Solve 3x + 7 = 25" (seen in the window)."""
    code = (
        "from sympy import symbols, Eq, solve\n# Define the variable\nx = symbols('x')\n"
        "# Define the equation\nequation = Eq(3*x + 7, 25)\n# Solve the equation\nsolution = solve(equation, x)\n"
        "print(solution)"
    )
    steps = [(s.text, s.latex) for s in _steps(sandbox, code, "Solve 3x + 7 = 25")]
    assert steps[:5] == [
        ("Let the unknown be:", r"\mathrm{x}"),
        ("Define the equation", "3x + 7 = 25"),
        ("Take 7 from both sides:", "3x = 25 - 7 = 18"),
        ("Divide both sides by 3:", r"x = \frac{18}{3} = 6"),
        ("Solve the equation", r"\mathrm{x} = 6"),
    ]
    assert steps[5] == ("The answer:", r"\mathrm{x} = 6")  # print(solution) said "solution = [6]"
    for _text, latex in steps:
        mathtext.math_to_image(f"${latex}$", io.BytesIO(), format="png")


def test_exact_fractions_stay_fractions_in_the_working(sandbox: Sandbox) -> None:
    """A fraction asked for is computed with Fraction (the prompt asks): the working writes 2/3, not
    Fraction(2, 3), and ends in 17/12."""
    code = "from fractions import Fraction\na = Fraction(2, 3)\nb = Fraction(3, 4)\nresult = a + b\nprint(result)"
    steps = _steps(sandbox, code, "What is 2/3 + 3/4 as a fraction?")
    assert steps[0].latex == r"\mathrm{a} = \frac{2}{3}" and steps[0].value == "2/3"
    assert steps[2].latex == r"\mathrm{result} = \mathrm{a} + \mathrm{b} = \frac{2}{3} + \frac{3}{4} = \frac{17}{12}"
    for step in steps:
        mathtext.math_to_image(f"${step.latex}$", io.BytesIO(), format="png")


def test_every_step_typesets(sandbox: Sandbox) -> None:
    code = (
        "from math import sqrt\nside = 3\narea = side ** 2\nhalf = (area - 1) // 2\nrest = area % 4\n"
        "root = round(sqrt(area), 2)\nlabel = 'big' if area > 5 else 'small'\nneg = -(side + 1) * 2\nans = root"
    )
    steps = _steps(sandbox, code)
    assert len(steps) >= 7
    for step in steps:
        mathtext.math_to_image(f"${step.latex}$", io.BytesIO(), dpi=60, format="png")  # raises if it cannot


@pytest.mark.parametrize(
    "program", ["x = (", "x = 1\n" * (MAX_PROGRAM_CHARS // 6 + 1), None, "x = " + "(" * 500 + "1" + ")" * 500]
)
def test_what_cannot_be_read_has_no_working(program: str | None) -> None:
    assert worked_solution(program, {}) == []


def test_code_without_mathematics_is_shown_as_code_with_its_spaces(sandbox: Sandbox) -> None:
    """A data program's comprehension: mathtext dropped the spaces ("forrintables") and typeset the
    quotes as primes; a double quote made the whole step fail to typeset."""
    code = 'rows = [{"year": 2020}, {"year": 2021}]\nyears = [r["year"] for r in rows if r["year"] > 2020]\nans = years'
    steps = _steps(sandbox, code)
    years = next(step for step in steps if step.line == 2)
    assert r"\ for\ r\ in\ rows\ if\ " in years.latex and "‘year’" in years.latex and "'" not in years.latex
    for step in steps:
        mathtext.math_to_image(f"${step.latex}$", io.BytesIO(), dpi=60, format="png")  # raises if it cannot
