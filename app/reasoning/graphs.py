"""A graph for an equation in one unknown ("Solve 3x + 7 = 25"): both sides as curves and the
solutions marked where they meet.

The sample points are computed inside the sandbox: the program runs again there with
`GRAPH_PROBE` after it — fixed code of ours that finds the sympy equation (or expression) the
program built, solves it and samples it — and only the capped JSON it leaves in `_pal_graph`
comes back. `graph_of` checks that JSON (numbers only, sizes capped) before anything draws it; no
image or code crosses from the child.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from sandbox import CapturedValue

GRAPH_NAME = "_pal_graph"
MAX_POINTS = 400
MAX_CURVES = 4
MAX_MARKS = 6
_EQUATION_WORDS = re.compile(r"\b(solve|equation|root|intersect|graph|plot)\b|[a-z]\s*=|=\s*\d", re.IGNORECASE)

# Runs after the program in the sandbox (a fresh child: the program's own state, nothing else).
GRAPH_PROBE = """
def _pal_probe():
    import sympy
    found = [v for v in list(globals().values()) if isinstance(v, sympy.Equality) and len(v.free_symbols) == 1]
    if not found:
        found = [
            sympy.Eq(v, 0) for v in list(globals().values())
            if isinstance(v, sympy.Expr) and not v.is_Symbol and len(v.free_symbols) == 1
        ]
    if not found:
        return None
    equation = found[-1]
    symbol = next(iter(equation.free_symbols))
    roots = []
    for root in sympy.solve(equation, symbol)[:6]:
        try:
            value = complex(root)
        except (TypeError, ValueError):
            continue
        if abs(value.imag) < 1e-9:
            roots.append(value.real)
    centre = sum(roots) / len(roots) if roots else 0.0
    half = max(5.0, max((abs(r - centre) for r in roots), default=0.0) * 1.5 + 2.0)
    xs = [centre - half + 2 * half * i / 120 for i in range(121)]
    curves = []
    for side in (equation.lhs, equation.rhs):
        f = sympy.lambdify(symbol, side, "math")
        ys = []
        for x in xs:
            try:
                y = float(f(x))
                ys.append(y if abs(y) < 1e12 else None)
            except Exception:
                ys.append(None)
        curves.append({"label": "y = " + str(side)[:60], "y": ys})
    rhs = sympy.lambdify(symbol, equation.rhs, "math")
    marks = []
    for r in roots:
        try:
            marks.append({"x": r, "y": float(rhs(r)), "label": str(symbol) + " = " + format(r, ".6g")})
        except Exception:
            pass
    return {"x": xs, "curves": curves, "marks": marks, "symbol": str(symbol)}


_pal_graph = _pal_probe()
"""


@dataclass(frozen=True)
class Curve:
    label: str
    y: tuple[float | None, ...]


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Graph:
    x: tuple[float, ...]
    curves: tuple[Curve, ...]
    marks: tuple[Mark, ...]
    symbol: str


def wants_graph(question: str, program: str | None) -> bool:
    """Whether the solve is about an equation in one unknown (worth a graph)."""
    uses_sympy = program is not None and any(word in program for word in ("sympy", "solve_it", "Eq(", "symbols("))
    return uses_sympy and bool(_EQUATION_WORDS.search(question))


def graph_of(value: CapturedValue | None) -> Graph | None:
    """The probe's JSON as a `Graph`, or None when it is missing or anything is out of shape."""
    data = value.json if value is not None else None
    if not isinstance(data, dict):
        return None
    xs, curves, marks = data.get("x"), data.get("curves"), data.get("marks")
    if not (isinstance(xs, list) and isinstance(curves, list) and isinstance(marks, list)):
        return None
    if not (2 <= len(xs) <= MAX_POINTS and all(_finite(v) for v in xs)) or not 1 <= len(curves) <= MAX_CURVES:
        return None
    parsed: list[Curve] = []
    for curve in curves:
        ys = curve.get("y") if isinstance(curve, dict) else None
        if not isinstance(ys, list) or len(ys) != len(xs) or not all(v is None or _finite(v) for v in ys):
            return None
        parsed.append(Curve(_label(curve.get("label")), tuple(None if v is None else float(v) for v in ys)))
    points = [
        Mark(float(m["x"]), float(m["y"]), _label(m.get("label")))
        for m in marks[:MAX_MARKS]
        if isinstance(m, dict) and _finite(m.get("x")) and _finite(m.get("y"))
    ]
    return Graph(tuple(float(v) for v in xs), tuple(parsed), tuple(points), _label(data.get("symbol")) or "x")


def _finite(value: Any) -> bool:
    """A number an axis can show: finite and within ±1e12 (the probe drops larger ones itself)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and math.isfinite(value) and abs(value) <= 1e12


def _label(value: Any) -> str:
    return value[:80] if isinstance(value, str) else ""
