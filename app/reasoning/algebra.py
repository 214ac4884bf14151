"""The algebra a teacher writes for an equation in one unknown: 3x + 7 = 25 → 3x = 18 → x = 6, or
x² - 5x + 6 = 0 → (x - 2)(x - 3) = 0 → x = 2 or x = 3.

Read from the program's own `Eq(left, right)` (sympy, as the model wrote it) by walking its syntax
tree with exact fractions: numbers, the unknown, names the program bound to numbers, + − × ÷, whole
powers and brackets. Nothing is evaluated or sympified here; an equation beyond degree 2 in its one
unknown (x in a denominator, two unknowns, a function) has no steps, and the working shows it as
written.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from fractions import Fraction

MAX_DEPTH = 40  # of the expression's tree: anything deeper is not a textbook equation
MAX_NUMBER = Fraction(10**15)  # coefficients beyond this are no textbook's either
Poly = tuple[Fraction, Fraction, Fraction]  # c0 + c1·x + c2·x²


@dataclass(frozen=True)
class AlgebraStep:
    text: str  # what is done, in words ("Take 7 from both sides")
    latex: str  # the equation after it


def equation_steps(
    left: ast.expr, right: ast.expr, unknowns: set[str], known: dict[str, Fraction]
) -> list[AlgebraStep]:
    """From `left = right` to the unknown's value, one move per step; [] when it is not an
    equation of degree 1 or 2 in exactly one of `unknowns` (`known`: names bound to numbers)."""
    names = {n.id for side in (left, right) for n in ast.walk(side) if isinstance(n, ast.Name) and n.id in unknowns}
    if len(names) != 1:
        return []
    x = names.pop()
    lhs, rhs = _poly(left, x, known, 0), _poly(right, x, known, 0)
    if lhs is None or rhs is None or any(abs(c) > MAX_NUMBER for c in lhs + rhs):
        return []
    steps = [AlgebraStep("The equation:", f"{_form(lhs, x)} = {_form(rhs, x)}")]
    if lhs[2] or rhs[2]:
        if any(rhs):
            steps.append(AlgebraStep("Everything on one side:", f"{_form(_minus(lhs, rhs), x)} = 0"))
        return steps + _quadratic(_minus(lhs, rhs), x)
    moves = _linear(lhs, rhs, x)
    return [] if moves is None else steps + moves


def _linear(lhs: Poly, rhs: Poly, x: str) -> list[AlgebraStep] | None:
    """The moves to x = value (none for x = 5 itself); None when the unknown cancels out."""
    steps = []
    if rhs[1]:  # the unknown on both sides: gather it on the left
        moved = rhs[1]
        lhs, rhs = (lhs[0], lhs[1] - moved, lhs[2]), (rhs[0], Fraction(0), rhs[2])
        verb = f"Take {_term(moved, x)} from" if moved > 0 else f"Add {_term(-moved, x)} to"
        steps.append(AlgebraStep(f"{verb} both sides:", f"{_form(lhs, x)} = {_form(rhs, x)}"))
    if lhs[1] == 0:
        return None  # no unknown left: no solution, or every number is one
    if lhs[0]:
        moved, before = lhs[0], rhs[0]
        lhs, rhs = (Fraction(0), lhs[1], lhs[2]), (rhs[0] - moved, Fraction(0), rhs[2])
        verb = f"Take {_number(moved)} from" if moved > 0 else f"Add {_number(-moved)} to"
        arithmetic = f"{_number(before)} {'-' if moved > 0 else '+'} {_number(abs(moved))}"
        steps.append(AlgebraStep(f"{verb} both sides:", f"{_form(lhs, x)} = {arithmetic} = {_number(rhs[0])}"))
    if lhs[1] != 1:
        value = rhs[0] / lhs[1]
        divided = f"\\frac{{{_number(rhs[0])}}}{{{_number(lhs[1])}}}"
        steps.append(
            AlgebraStep(f"Divide both sides by {_number(lhs[1])}:", f"{x} = {divided}" + _unless_same(divided, value))
        )
    return steps


def _quadratic(p: Poly, x: str) -> list[AlgebraStep]:
    c, b, a = p
    if a == 0:
        return []
    steps: list[AlgebraStep] = []
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return [*steps, AlgebraStep("No real solution: b² - 4ac is below 0:", f"{_number(discriminant)} < 0")]
    root = _rational_sqrt(discriminant)
    if root is None:  # irrational roots: the formula, as it stands
        formula = f"{x} = \\frac{{{_number(-b)} \\pm \\sqrt{{{_number(discriminant)}}}}}{{{_number(2 * a)}}}"
        return [*steps, AlgebraStep("The quadratic formula:", formula)]
    first, second = (-b - root) / (2 * a), (-b + root) / (2 * a)
    factors = f"{_number(a) if a != 1 else ''}({_form((-first, Fraction(1), Fraction(0)), x)})"
    factors += f"({_form((-second, Fraction(1), Fraction(0)), x)})" if second != first else "^2"
    roots = f"{x} = {_number(first)}" + (f" \\ \\mathrm{{or}}\\ {x} = {_number(second)}" if second != first else "")
    return [*steps, AlgebraStep("Factorise:", f"{factors} = 0"), AlgebraStep("So:", roots)]


def _poly(node: ast.expr, x: str, known: dict[str, Fraction], depth: int) -> Poly | None:
    """`node` as c0 + c1·x + c2·x², or None when it is not of that form."""
    zero = Fraction(0)
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.Constant | ast.Name):
        return _leaf(node, x, known)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _poly(node.operand, x, known, depth + 1)
        return None if inner is None else _scaled(inner, Fraction(-1 if isinstance(node.op, ast.USub) else 1))
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _poly(node.left, x, known, depth + 1), _poly(node.right, x, known, depth + 1)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Add):
        return _minus(left, _scaled(right, Fraction(-1)))
    if isinstance(node.op, ast.Sub):
        return _minus(left, right)
    if isinstance(node.op, ast.Mult):
        return _times(left, right)
    if isinstance(node.op, ast.Div) and not right[1] and not right[2] and right[0]:
        return _scaled(left, 1 / right[0])
    if isinstance(node.op, ast.Pow) and right[1:] == (zero, zero) and right[0] in (0, 1, 2):
        power: Poly | None = (Fraction(1), zero, zero)
        for _ in range(int(right[0])):
            power = _times(power, left) if power is not None else None
        return power
    return None


def _leaf(node: ast.Constant | ast.Name, x: str, known: dict[str, Fraction]) -> Poly | None:
    zero = Fraction(0)
    if isinstance(node, ast.Name):
        if node.id == x:
            return (zero, Fraction(1), zero)
        return (known[node.id], zero, zero) if node.id in known else None
    if isinstance(node.value, int | float) and not isinstance(node.value, bool):
        text = str(node.value)
        return (Fraction(text), zero, zero) if len(text) <= 20 and text[-1:].isdigit() else None
    return None


def _minus(a: Poly, b: Poly) -> Poly:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _scaled(p: Poly, factor: Fraction) -> Poly:
    return (p[0] * factor, p[1] * factor, p[2] * factor)


def _times(a: Poly, b: Poly) -> Poly | None:
    if _degree(a) + _degree(b) > 2:
        return None
    return (a[0] * b[0], a[0] * b[1] + a[1] * b[0], a[0] * b[2] + a[1] * b[1] + a[2] * b[0])


def _degree(p: Poly) -> int:
    return 2 if p[2] else 1 if p[1] else 0


def _rational_sqrt(value: Fraction) -> Fraction | None:
    top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
    return Fraction(top, bottom) if top * top == value.numerator and bottom * bottom == value.denominator else None


def _form(p: Poly, x: str) -> str:
    """c2·x² + c1·x + c0 as a teacher writes it: x^2 - 5x + 6, 3x + 7, -x, 18."""
    terms = [(p[2], f"{x}^2"), (p[1], x), (p[0], "")]
    text = ""
    for coefficient, power in terms:
        if not coefficient:
            continue
        magnitude = _number(abs(coefficient)) if not power or abs(coefficient) != 1 else ""
        sign = "-" if coefficient < 0 else "+"
        text += f"{'-' if sign == '-' else ''}{magnitude}{power}" if not text else f" {sign} {magnitude}{power}"
    return text or "0"


def _term(coefficient: Fraction, x: str) -> str:
    return _form((Fraction(0), coefficient, Fraction(0)), x)


def _unless_same(shown: str, value: Fraction) -> str:
    return "" if _number(value) == shown else f" = {_number(value)}"


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
