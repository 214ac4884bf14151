"""The worked solution a teacher would write, made from the program and what it computed.

Each computed quantity becomes one step: the program's comment above it as prose, then
mathematics — readable name = expression = the expression with its values substituted = value —
with numbers shown without float noise. A loop is summarised in one step ("for each of 4 weeks:
total = total + 12 → 48"), a branch shows its condition, and the last step is the answer. A
linear equation the program writes with sympy (`Eq(3*x + 7, 25)`) is shown as the moves a teacher
writes — 3x + 7 = 25, take 7 from both sides: 3x = 18, divide by 3: x = 6 (`app.reasoning.algebra`).

The program is never run here: values come from the sandbox (the captured variables, and the
trace when one was recorded). It is parsed with caps (size, node count, nesting); a program
beyond them, or one that does not parse, has no worked solution.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from app.reasoning.algebra import equation_steps
from app.reasoning.numbers import format_float, value_text
from sandbox import CapturedValue, TraceStep

_FRACTION_REPR = re.compile(r"Fraction\((-?\d{1,30}), (\d{1,30})\)")
MAX_PROGRAM_CHARS = 20_000
MAX_NODES = 5_000
MAX_STEPS = 60
_MONEY_WORDS = re.compile(
    r"cost|price|money|spent|paid|pay|earn|income|salary|dollar|budget|left|change|profit|revenue"
)


@dataclass(frozen=True)
class WorkingStep:
    line: int
    text: str  # prose: the program's comment, else generated from the line
    latex: str  # mathtext-safe LaTeX, without $ signs
    value: str  # the value as shown

    def to_json(self) -> dict[str, int | str]:
        return {"line": self.line, "text": self.text, "latex": self.latex, "value": self.value}


def worked_solution(
    program: str | None,
    variables: dict[str, CapturedValue],
    question: str = "",
    trace: tuple[TraceStep, ...] | None = None,
    output: str = "",
    *,
    answered: bool = True,
) -> list[WorkingStep]:
    """The steps of `program` with the values the sandbox captured; [] when it cannot be read.
    `output`, what the program printed, gives each print its result when every print ran once.
    Without `answered` (a vote cancelled before its verdict keeps a program to show), the line
    that gives the program's result is not called the answer."""
    nodes = program_nodes(program)
    tree = nodes[0] if nodes else None  # ast.walk starts at the module
    if not program or not isinstance(tree, ast.Module):
        return []
    try:
        writer = _Writer(tree, program, variables, question, trace, output=output, answered=answered)
        return writer.steps(tree.body)[:MAX_STEPS]
    except RecursionError:
        return []


def program_nodes(program: str | None) -> list[ast.AST]:
    """Every syntax node of `program` within the working's caps (size, node count, nesting); []
    when it is beyond them or does not parse."""
    if not program or len(program) > MAX_PROGRAM_CHARS:
        return []
    try:
        nodes = list(ast.walk(ast.parse(program)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return nodes if len(nodes) <= MAX_NODES else []


class _Writer:
    def __init__(
        self,
        tree: ast.Module,
        program: str,
        variables: dict[str, CapturedValue],
        question: str,
        trace: tuple[TraceStep, ...] | None,
        *,
        output: str = "",
        answered: bool = True,
    ) -> None:
        self.conclusion = "The answer" if answered else "This program's result, not the answer"
        self.lines = program.splitlines()
        self.printed_lines = _printed_lines(tree, output)
        self.unknowns = _unknowns(tree)
        self.numbers = {name: number for name, value in variables.items() if (number := _fraction(value)) is not None}
        self.values = {name: _shown(value) for name, value in variables.items()}
        self.money = "$" in question
        self.ran = {step.line for step in trace or ()}
        self.roots: dict[str, str] = {}  # a solve's result by name, as its roots read: x = 6
        lines, self.looped = _assignments(tree)
        # The lines that bound each name: those that ran, when a trace says which did.
        self.bound = {name: [n for n in found if not self.ran or n in self.ran] for name, found in lines.items()}

    def steps(self, body: list[ast.stmt]) -> list[WorkingStep]:
        steps: list[WorkingStep] = []
        for node in body:
            steps += self.step(node)
        return steps

    def step(self, node: ast.stmt) -> list[WorkingStep]:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            return self.algebra(node, node.value) or [self.assignment(node, node.targets[0].id, node.value)]
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
            return self.algebra(node, node.value)  # x, y = symbols('x y')
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            return [self.assignment(node, node.target.id, node.value)]
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            expression = ast.BinOp(left=ast.Name(id=name), op=node.op, right=node.value)
            return [self.assignment(node, name, expression)]
        if isinstance(node, ast.For | ast.While):
            return [self.loop(node)]
        if isinstance(node, ast.If):
            return self.branch(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and _is_print(node.value):
            return self.printed(node, node.value)
        if isinstance(node, ast.FunctionDef):  # PAL's `def solution(): ... return x`: its body is the working
            return self.steps(node.body)
        if isinstance(node, ast.Return) and node.value is not None:
            returned = _latex(node.value, readable=True)
            return [WorkingStep(node.lineno, self.comment(node) or self.conclusion, returned, "")]
        return []

    def assignment(self, node: ast.stmt, name: str, expression: ast.expr) -> WorkingStep:
        final = name not in self.looped and node.lineno == max(self.bound.get(name) or [node.lineno])
        value = self.values.get(name, "") if final else ""  # an earlier value of a name bound again is unknown
        parts = [_readable(name), _latex(expression, readable=True)]
        substituted = _latex(expression, values=self.usable_values())
        if substituted not in parts:
            parts.append(substituted)
        shown = self.with_unit(name, value)
        if value and _latex_value(shown) not in parts:
            parts.append(_latex_value(shown))
        prose = self.comment(node) or (
            f"{self.conclusion}." if name == "ans" else f"{_readable(name, plain=True).capitalize()}."
        )
        return WorkingStep(node.lineno, prose, " = ".join(parts), shown)

    def algebra(self, node: ast.stmt, value: ast.expr) -> list[WorkingStep]:
        """Sympy lines as a teacher writes them: `x = symbols('x')` names the unknown, an
        `Eq(3*x + 7, 25)` (alone or in a `solve`) becomes its moves, and a solve's result is
        stated; [] for any other line, or an equation with no steps (`app.reasoning.algebra`)."""
        if not isinstance(value, ast.Call) or not isinstance(node, ast.Assign):
            return []
        called, target = _called(value), node.targets[0]
        if called in ("symbols", "Symbol"):
            return [WorkingStep(node.lineno, "Let the unknown be:", _latex(target, readable=True), "")]
        solving = called == "solve" and bool(value.args)
        equation = value.args[0] if solving else value
        if isinstance(equation, ast.Name) and solving and isinstance(target, ast.Name):  # solve(equation, x)
            return [self.solved(node, target.id, value)]
        if not (isinstance(equation, ast.Call) and _called(equation) == "Eq" and len(equation.args) == 2):
            return []
        found = equation_steps(equation.args[0], equation.args[1], self.unknowns, self.numbers)
        comment = self.comment(node)
        steps = [
            WorkingStep(node.lineno, comment if n == 0 and comment else step.text, step.latex, "")
            for n, step in enumerate(found)
        ]
        if steps and solving and isinstance(target, ast.Name):
            steps.append(self.solved(node, target.id, value))
        return steps

    def solved(self, node: ast.stmt, name: str, call: ast.Call) -> WorkingStep:
        """`solution = solve(…, x)` as the roots it found: x = 6 (x = 2 or x = 3), not [6]."""
        shown = self.values.get(name, "")
        unknown = call.args[1] if len(call.args) > 1 else None
        roots = re.fullmatch(r"\[([^\[\]]{1,120})\]", shown)
        if roots and isinstance(unknown, ast.Name) and roots.group(1).strip():
            each = [_latex_value(root.strip()) for root in roots.group(1).split(",")]
            latex = self.roots[name] = r"\ \mathrm{or}\ ".join(f"{_readable(unknown.id)} = {root}" for root in each)
        else:
            latex = f"{_readable(name)} = {_latex_value(shown)}" if shown else _readable(name)
        return WorkingStep(node.lineno, self.comment(node) or "So:", latex, shown)

    def printed(self, node: ast.stmt, call: ast.Call) -> list[WorkingStep]:
        """A print: what it shows, with its value when it prints one quantity."""
        if not call.args:
            return []
        shown = ", ".join(_latex(arg, readable=True) for arg in call.args)
        only = call.args[0]
        if len(call.args) == 1 and isinstance(only, ast.Name) and only.id in self.roots:  # print(solution)
            value = self.values.get(only.id, "")
            return [WorkingStep(node.lineno, self.comment(node) or f"{self.conclusion}:", self.roots[only.id], value)]
        value = self.values.get(only.id, "") if len(call.args) == 1 and isinstance(only, ast.Name) else ""
        if value and isinstance(only, ast.Name):
            value = self.with_unit(only.id, value)
            shown += " = " + _latex_value(value)
        elif len(call.args) == 1 and not isinstance(only, ast.Constant):
            # print(money_initial - money_spent): its values substituted, then what it printed
            substituted = _latex(only, values=self.usable_values())
            shown += f" = {substituted}" if substituted != shown else ""
            value = self.printed_lines.get(node.lineno, "")
            shown += f" = {_latex_value(value)}" if value else ""
        return [WorkingStep(node.lineno, self.comment(node) or f"{self.conclusion}:", shown, value)]

    def loop(self, node: ast.For | ast.While) -> WorkingStep:
        inside = [s for s in self.steps(node.body) if s.latex]
        changed = [_assigned_name(s) for s in ast.walk(node) if isinstance(s, ast.Assign | ast.AugAssign)]
        finals = [(n, self.with_unit(n, self.values[n])) for n in dict.fromkeys(changed) if n and self.values.get(n)]
        results = ", ".join(f"{_readable(n)} = {_latex_value(v)}" for n, v in finals)
        each = "; ".join(" = ".join(s.latex.split(" = ")[:2]) for s in inside[:3])
        latex = _loop_words(node) + r":\ " + each
        if results:
            latex += r"\ \rightarrow\ " + results
        plain = ", ".join(f"{_readable(n, plain=True)} = {v}" for n, v in finals)
        gloss = "Repeated until it holds:" if isinstance(node, ast.While) else "Repeated for each item:"
        return WorkingStep(node.lineno, self.comment(node) or gloss, latex, plain)

    def branch(self, node: ast.If) -> list[WorkingStep]:
        condition = _latex(node.test, readable=True)
        first_body_line = node.body[0].lineno if node.body else 0
        if not self.ran or first_body_line in self.ran:
            held = "holds" if self.ran else "is checked"
            steps = [WorkingStep(node.lineno, self.comment(node) or f"The condition {held}:", condition, "")]
            return steps + self.steps(node.body)
        steps = [WorkingStep(node.lineno, self.comment(node) or "The condition does not hold:", condition, "")]
        return steps + self.steps(node.orelse)

    def usable_values(self) -> dict[str, str]:
        """Values that may be written into an expression: names bound once (a name changed in a
        loop or later has another value at this line than at the end)."""
        return {
            name: value
            for name, value in self.values.items()
            if value and "(" not in value and name not in self.looped and len(self.bound.get(name, [])) <= 1
        }  # a value like Eq(x**2 - 5*x + 6, 0) is code, not a number to write in

    def with_unit(self, name: str, value: str) -> str:
        if self.money and value and _is_number(value) and _MONEY_WORDS.search(name.lower()):
            return f"${value}"
        return value

    def comment(self, node: ast.stmt) -> str:
        """The comment lines right above `node` (or at the end of its line), as prose."""
        index = node.lineno - 2
        found: list[str] = []
        while 0 <= index < len(self.lines) and self.lines[index].strip().startswith("#"):
            found.insert(0, self.lines[index].strip().lstrip("#").strip())
            index -= 1
        if not found and node.lineno <= len(self.lines) and "#" in self.lines[node.lineno - 1]:
            tail = self.lines[node.lineno - 1].split("#", 1)[1].strip()
            found = [tail] if tail else []
        text = " ".join(found)
        return text[:1].upper() + text[1:] if text else ""


def _unknowns(tree: ast.Module) -> set[str]:
    """Names the program made sympy symbols: `x = symbols('x')`, `x, y = symbols('x y')`."""
    found: set[str] = set()
    for node in ast.walk(tree):
        call = node.value if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.Assign) and isinstance(call, ast.Call) and _called(call) in ("symbols", "Symbol"):
            for target in node.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                found |= {name.id for name in names if isinstance(name, ast.Name)}
    return found


def _called(call: ast.Call) -> str:
    """The name a call calls: `Eq` for Eq(…) and sympy.Eq(…)."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _fraction(value: CapturedValue) -> Fraction | None:
    data = value.json
    if isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data) and abs(data) < 1e15:
        return Fraction(str(data))
    return None


def _printed_lines(tree: ast.Module, output: str) -> dict[int, str]:
    """Each print statement's line → the line of output it printed, when that is certain: every
    print is a statement of the program, or of the one function it defines (none in a loop or a branch),
    their number is the number of lines printed, and each printed line is short."""
    printed = [line for line in output.splitlines() if line.strip()]
    if not printed or len(printed) > MAX_STEPS or any(len(line) > 80 for line in printed):
        return {}
    functions = [node.body for node in tree.body if isinstance(node, ast.FunctionDef)]
    direct = {node.lineno for node in tree.body if isinstance(node, ast.Expr) and _is_print(node.value)}
    if not direct and len(functions) == 1:  # PAL's `def solution(): … print(…)`, called once
        direct = {node.lineno for node in functions[0] if isinstance(node, ast.Expr) and _is_print(node.value)}
    everywhere = {node.lineno for node in ast.walk(tree) if isinstance(node, ast.Expr) and _is_print(node.value)}
    if direct != everywhere or len(direct) != len(printed):
        return {}
    return dict(zip(sorted(direct), (line.strip() for line in printed), strict=True))


def _assignments(tree: ast.Module) -> tuple[dict[str, list[int]], set[str]]:
    """Each name's assignment lines, and the names a loop changes (they have many values)."""
    lines: dict[str, list[int]] = {}
    looped: set[str] = set()
    for node in ast.walk(tree):
        name = _assigned_name(node)
        if name and isinstance(node, ast.stmt):
            lines.setdefault(name, []).append(node.lineno)
        if isinstance(node, ast.For | ast.While):
            looped.update(n for inner in ast.walk(node) if (n := _assigned_name(inner)))
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                looped.add(node.target.id)
    return lines, looped


def _assigned_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AugAssign | ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _is_print(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"


def _shown(value: CapturedValue) -> str:
    """A short value as a step shows it (text keeps its quotes); nothing for code or a long value."""
    if value.type in ("module", "function", "type", "builtin_function_or_method"):
        return ""
    text = value.repr if isinstance(value.json, str) else value_text(value)
    exact = _FRACTION_REPR.fullmatch(text)
    if exact:  # Fraction(17, 12): the fraction it is
        return f"{exact.group(1)}/{exact.group(2)}"
    return text if len(text) <= 60 else ""


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", text))


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: r"\times", ast.Mod: r"\ \mathrm{mod}\ "}


def _latex(node: ast.expr, *, readable: bool = False, values: dict[str, str] | None = None) -> str:
    """`node` as mathtext LaTeX: names readable, or replaced by their values when given."""

    def walk(n: ast.expr) -> str:
        if isinstance(n, ast.Name):
            if values is not None and n.id in values:
                return _latex_value(values[n.id])
            return _readable(n.id)
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or n.value is None:
                return r"\mathrm{" + str(n.value) + "}"
            if isinstance(n.value, int | float):
                return _latex_value(format_float(n.value) if isinstance(n.value, float) else str(n.value))
            return r"\mathrm{“" + _escape(str(n.value)[:30]) + "”}"
        if isinstance(n, ast.BinOp):
            left, right = walk(n.left), walk(n.right)
            if isinstance(n.op, ast.Div):
                return r"\frac{" + left + "}{" + right + "}"
            if isinstance(n.op, ast.FloorDiv):
                return r"\lfloor \frac{" + left + "}{" + right + r"} \rfloor"
            if isinstance(n.op, ast.Pow):
                return _paren(n.left, left) + "^{" + right + "}"
            op = _OPS.get(type(n.op))
            if op is None:
                return _code(n)
            return f"{_paren(n.left, left, n.op)} {op} {_paren(n.right, right, n.op, right_side=True)}"
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return "-" + _paren(n.operand, walk(n.operand))
        return _call_or_compare(n, walk)

    return walk(node)


_COMPARE = {ast.Gt: ">", ast.Lt: "<", ast.GtE: r"\geq", ast.LtE: r"\leq", ast.Eq: "=", ast.NotEq: r"\neq"}


def _call_or_compare(n: ast.expr, walk: Callable[[ast.expr], str]) -> str:
    if isinstance(n, ast.Call) and _called(n) == "Fraction" and len(n.args) == 2 and not n.keywords:
        return r"\frac{" + walk(n.args[0]) + "}{" + walk(n.args[1]) + "}"  # Fraction(2, 3) is 2/3 on paper
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and not n.keywords and len(n.args) <= 3:
        args = ", ".join(walk(a) for a in n.args)
        return r"\mathrm{" + _escape(n.func.id) + r"}\left(" + args + r"\right)"
    if isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _COMPARE:
        return f"{walk(n.left)} {_COMPARE[type(n.ops[0])]} {walk(n.comparators[0])}"
    return _code(n)


def _loop_words(node: ast.For | ast.While) -> str:
    """What a loop goes over, in words and mathematics, never its code: "for each week from 0 to
    3", "for each price in prices", "while 3x + 7 ≠ 25"."""
    if isinstance(node, ast.While):  # a search: "until 3x + 7 = 25"
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
            return r"\mathrm{until}\ " + _latex(ast.Compare(test.left, [ast.Eq()], test.comparators), readable=True)
        return r"\mathrm{while}\ " + _latex(test, readable=True)
    target, over = node.target, node.iter
    if isinstance(over, ast.Call) and _called(over) in ("enumerate", "sorted", "reversed", "list") and over.args:
        if _called(over) == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[1]  # the item, not its number
        over = over.args[0]  # each row of rows, whether numbered, sorted or not
    names = [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    each = r"\mathrm{for\ each}\ " + r",\ ".join(_readable(name) for name in names[:3])
    if isinstance(over, ast.Call) and _called(over) == "range" and 1 <= len(over.args) <= 2 and not over.keywords:
        start = _latex(over.args[0], readable=True) if len(over.args) == 2 else "0"
        return each + r"\ \mathrm{from}\ " + start + r"\ \mathrm{to}\ " + _one_less(over.args[-1])
    if isinstance(over, ast.Name | ast.Attribute | ast.Subscript | ast.List | ast.Tuple):
        return each + r"\ \mathrm{in}\ " + (_readable(over.id) if isinstance(over, ast.Name) else r"\mathrm{the\ list}")
    return each


def _one_less(stop: ast.expr) -> str:
    """The last value of range(…, stop): 4 for 5, n for n + 1, n − 1 for n."""
    if isinstance(stop, ast.Constant) and type(stop.value) is int:
        return str(stop.value - 1)
    right = stop.right if isinstance(stop, ast.BinOp) and isinstance(stop.op, ast.Add) else None
    if isinstance(stop, ast.BinOp) and isinstance(right, ast.Constant) and right.value == 1:
        return _latex(stop.left, readable=True)
    return _paren(stop, _latex(stop, readable=True), ast.Sub(), right_side=True) + " - 1"


def _paren(node: ast.expr, text: str, parent: ast.operator | None = None, *, right_side: bool = False) -> str:
    """Brackets where Python's precedence needs them in writing."""
    if not isinstance(node, ast.BinOp) or isinstance(node.op, ast.Div | ast.Pow):
        return text
    low = isinstance(node.op, ast.Add | ast.Sub)
    if (
        parent is None
        or (low and isinstance(parent, ast.Mult | ast.Mod))
        or (right_side and isinstance(parent, ast.Sub) and low)
    ):
        return r"\left(" + text + r"\right)"
    return text


def _code(node: ast.expr) -> str:
    """Code that has no mathematics (`[r['year'] for r in rows]`) as code: mathtext drops its
    spaces ("forrin") and reads a ' as a prime and a " as an error, so each is written out."""
    text = _QUOTED.sub(r"‘\1’", ast.unparse(node)[:60]).replace("'", "’").replace('"', "”")
    return r"\mathtt{" + _escape(text).replace(" ", r"\ ") + "}"


_QUOTED = re.compile(r"'([^'\n]{0,60})'")


def _readable(name: str, *, plain: bool = False) -> str:
    words = name.replace("_", " ").strip() or name
    return words if plain else r"\mathrm{" + _escape(words).replace(" ", r"\ ") + "}"


def _latex_value(text: str) -> str:
    if _is_number(text.removeprefix("$")):
        return text.replace("$", r"\$")
    exact = re.fullmatch(r"(-?\d{1,30})/(\d{1,30})", text)
    if exact:
        return r"\frac{" + exact.group(1) + "}{" + exact.group(2) + "}"
    return r"\mathrm{" + _escape(text).replace(" ", r"\ ") + "}"


def _escape(text: str) -> str:
    """Text that mathtext shows literally (its special characters escaped, control characters dropped)."""
    text = re.sub(r"[\x00-\x1f\x7f]", "", text)
    for char in "\\{}$&#^_%~":
        text = text.replace(char, "\\" + char if char not in "\\^~" else " ")
    return text
