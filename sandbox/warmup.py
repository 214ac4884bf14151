"""What every worker does before its first run: import what programs may use and touch the lazily
imported corners of the common ones.

Shared by the native worker (whose children, running as `nobody`, can no longer read the
interpreter's files, so whatever a program may use must already be in memory when it forks) and
the WebAssembly guests (`sandbox.guest`), where each import costs seconds that a prepared guest
pays before the program arrives. Pure Python: it also runs inside the guest.
"""

from __future__ import annotations

import json

from sandbox import program


def warm_up() -> None:
    """Import every allowed module and touch the lazily imported corners of the common ones."""
    warm_up_standard_library()
    import sympy

    x, y = sympy.symbols("x y")
    eq = sympy.Eq(2 * x + y, 7)
    sympy.solve([eq, sympy.Eq(x - y, 2)], [x, y], dict=True)
    program.solve_it([x**2 - 4], [x])
    for expr in (sympy.sqrt(8) / 3, sympy.Rational(3, 4), sympy.Matrix([[1, 2], [3, 4]]), sympy.pi):
        sympy.latex(expr)
        str(expr)
    sympy.simplify(sympy.sin(x) ** 2 + sympy.cos(x) ** 2)
    sympy.factor(x**2 - 1)
    sympy.expand((x + 1) ** 3)
    sympy.integrate(x**2, (x, 0, 1))
    sympy.diff(sympy.exp(x) * x, x)
    sympy.limit(sympy.sin(x) / x, x, 0)
    sympy.series(sympy.cos(x), x, 0, 4)
    sympy.nsimplify(0.125)
    sympy.factorint(360)
    sympy.isprime(97)
    sympy.N(sympy.pi, 20)
    sympy.linsolve([x + y - 3, x - y - 1], x, y)
    sympy.solveset(x**2 - 1, x)
    sympy.Matrix([[1, 2], [3, 4]]).inv()


def warm_up_standard_library() -> None:
    """The standard library's part (milliseconds): also the modules that C code imports lazily
    from inside a program's frame, where the import guard would refuse them (`_strptime`)."""
    import datetime
    import decimal
    import fractions
    import statistics
    import traceback

    for name in program.ALLOWED_MODULES:
        if name not in ("sympy", "mpmath"):
            __import__(name)
    datetime.datetime.strptime("2024-01-31", "%Y-%m-%d")
    decimal.Decimal("1.10") * decimal.Decimal(3)
    fractions.Fraction("3/4") + fractions.Fraction(1, 3)
    statistics.stdev([1.0, 2.0, 4.0])
    statistics.median([3, 1, 2])
    traceback.format_exception(ValueError("warm-up"))
    json.dumps({"a": [1.5, None]})
    try:
        compile("1 +", "<warm-up>", "exec")
    except SyntaxError as exc:
        traceback.format_exception(exc)
