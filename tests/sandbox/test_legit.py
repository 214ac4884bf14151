"""Ordinary programs run correctly in the real sandbox child."""

from __future__ import annotations

from sandbox import Isolation, Sandbox, Status


def test_print_and_ans(box: Sandbox) -> None:
    result = box.run("ans = 5 + 2 * 3\nprint(ans)")
    assert result.status is Status.OK
    assert result.stdout == "11\n"
    assert result.values["ans"].json == 11
    assert result.values["ans"].type == "int"
    assert result.isolation is Isolation.STRONG


def test_unicode_output(box: Sandbox) -> None:
    text = "π ≈ 3.14159 — ünïcödé, 数学, 🙂"
    result = box.run(f"print({text!r})")
    assert result.stdout == text + "\n"


def test_ans_of_many_types(box: Sandbox) -> None:
    cases = {
        "3.5": (3.5, "float"),
        "'seven'": ("seven", "str"),
        "[1, 2.5, 'x', None, True]": ([1, 2.5, "x", None, True], "list"),
        "{'a': (1, 2)}": ({"a": [1, 2]}, "dict"),
        "None": (None, "NoneType"),
        "False": (False, "bool"),
        "__import__('fractions').Fraction(6, 8)": ("3/4", "Fraction"),
        "__import__('decimal').Decimal('1.10')": ("1.10", "Decimal"),
        "float('nan')": (None, "float"),
        "2 + 3j": ("(2+3j)", "complex"),
    }
    for expression, (expected, type_name) in cases.items():
        result = box.run(f"ans = {expression}")
        assert result.status is Status.OK, result.error
        assert result.values["ans"].json == expected, expression
        assert result.values["ans"].type == type_name


def test_sympy_solve_with_latex(box: Sandbox) -> None:
    code = "from sympy import symbols, solve, sqrt\nx = symbols('x')\nans = solve(x**2 - 2, x)\nroot = sqrt(8) / 3"
    result = box.run(code, capture=("ans", "root"))
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == ["-sqrt(2)", "sqrt(2)"]
    assert result.values["root"].json == "2*sqrt(2)/3"
    assert result.values["root"].latex == "\\frac{2 \\sqrt{2}}{3}"


def test_solve_it_helper(box: Sandbox) -> None:
    code = (
        "from sympy import symbols, Eq\n"
        "apples, pears = symbols('apples pears')\n"
        "solution = solve_it([Eq(apples + pears, 10), Eq(apples - pears, 4)], [apples, pears])\n"
        "ans = solution[apples]\n"
    )
    result = box.run(code)
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == 7


def test_fraction_arithmetic(box: Sandbox) -> None:
    result = box.run("from fractions import Fraction\nans = Fraction(1, 3) + Fraction(1, 6)\nprint(ans)")
    assert result.stdout == "1/2\n"
    assert result.values["ans"].json == "1/2"


def test_recursion_500_deep(box: Sandbox) -> None:
    code = "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nans = depth(500)"
    assert box.run(code).values["ans"].json == 500


def test_output_just_under_the_cap(box: Sandbox) -> None:
    result = box.run("print('x' * 1000)", output_bytes=1001)
    assert result.status is Status.OK
    assert len(result.stdout) == 1001


def test_datetime_arithmetic(box: Sandbox) -> None:
    code = (
        "import datetime\n"
        "start = datetime.date(2024, 2, 27)\n"
        "ans = (start + datetime.timedelta(days=3)).isoformat()\n"
        "weekday = datetime.datetime.strptime('2024-03-01', '%Y-%m-%d').strftime('%A')\n"
    )
    result = box.run(code, capture=("ans", "weekday"))
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == "2024-03-01"
    assert result.values["weekday"].json == "Friday"


def test_error_names_the_program_line(box: Sandbox) -> None:
    result = box.run("a = 1\nb = 0\nc = a / b\n")
    assert result.status is Status.ERROR
    assert result.error_line == 3
    assert 'File "<program>", line 3' in (result.error or "")
    assert "ZeroDivisionError" in (result.error or "")
    assert "sandbox" not in (result.error or "")  # no frames of the sandbox's own machinery


def test_syntax_error_line(box: Sandbox) -> None:
    result = box.run("x = 1\ny = (2 +\n")
    assert result.status is Status.ERROR
    assert result.error_line == 2
    assert "SyntaxError" in (result.error or "")


def test_disallowed_import_is_explained(box: Sandbox) -> None:
    result = box.run("import os\nprint(os.listdir('/'))")
    assert result.status is Status.ERROR
    assert "module 'os' is not available in the sandbox" in (result.error or "")
    assert result.error_line == 1


def test_open_is_explained(box: Sandbox) -> None:
    result = box.run("open('/etc/hostname')")
    assert "cannot open files" in (result.error or "")


def test_output_before_a_timeout_is_kept(box: Sandbox) -> None:
    result = box.run("print('started')\nwhile True:\n    pass", time_s=0.5)
    assert result.status is Status.TIMEOUT
    assert result.stdout == "started\n"


def test_values_are_captured_after_an_error(box: Sandbox) -> None:
    result = box.run("ans = 41\nraise ValueError('late')")
    assert result.status is Status.ERROR
    assert result.values["ans"].json == 41


def test_each_run_gets_fresh_random_numbers(box: Sandbox) -> None:
    code = "import random\nans = random.random()"
    first, second = (box.run(code).values["ans"].json for _ in range(2))
    assert first != second


def test_each_run_starts_from_a_clean_slate(box: Sandbox) -> None:
    box.run("import math\nmath.pi = 3")
    assert box.run("import math\nans = math.pi").values["ans"].json == 3.141592653589793


def test_program_exit_zero_is_ok(box: Sandbox) -> None:
    assert box.run("print('bye')\nraise SystemExit(0)").status is Status.OK
    assert box.run("raise SystemExit(3)").status is Status.ERROR
