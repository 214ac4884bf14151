"""Chain of Code's interpreter: run a program statement by statement, and when a statement (or
the test of an `if`/`while`, or the iterable of a `for`) cannot run in Python, ask the host to
*emulate* it — the host's language model answers with the new values of variables (or the
expression's value) as JSON, which are put into the program's state so it runs on.

Runs inside the sandbox child, after lock-down. Loops and conditionals are walked here (so a
call that cannot execute inside a loop is emulated on every iteration); other statements
(assignments, calls, `def`, `try` …) run whole in Python. `steps` records which lines ran in
Python and which were emulated, with the values emulation set.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from sandbox.program import PROGRAM_FILENAME, Outcome, describe_exception
from sandbox.protocol import MAX_CHAIN_STEPS, MAX_CHAIN_VALUES, ChainStep, Emulate, EmulationReply
from sandbox.values import cap, safe_repr

MAX_STATE_CHARS = 16_000
VALUE_CHARS = 300
STATEMENT_CHARS = 2000

Ask = Callable[[Emulate], EmulationReply]  # an emulation request -> the host's reply


class EmulationFailed(Exception):
    """The host could not emulate a statement (the model's reply was unusable, a limit was hit)."""


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class Stepwise:
    def __init__(self, code: str, namespace: dict[str, Any], ask: Ask) -> None:
        self.code, self.namespace, self.ask = code, namespace, ask
        self.steps: list[ChainStep] = []
        self.emulations = 0
        self.emulating_line: int | None = None

    def run(self) -> Outcome:
        try:
            tree = ast.parse(self.code, PROGRAM_FILENAME)
            self._block(tree.body)
        except EmulationFailed as exc:
            return Outcome("error", f"EmulationFailed: {exc}", self.emulating_line)
        except (_Break, _Continue):
            return Outcome("error", "SyntaxError: 'break' or 'continue' outside a loop")
        except SystemExit as exc:
            return Outcome("ok") if exc.code in (None, 0) else Outcome("error", f"exited with status {exc.code!r}")
        except MemoryError:
            return Outcome("memory", "MemoryError: the program ran out of its memory limit")
        except BaseException as exc:
            return describe_exception(exc)
        return Outcome("ok")

    def _block(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self._statement(statement)

    def _statement(self, node: ast.stmt) -> None:
        if isinstance(node, ast.If):
            self._block(node.body if self._expression(node.test, node) else node.orelse)
        elif isinstance(node, ast.For):
            self._for(node)
        elif isinstance(node, ast.While):
            self._while(node)
        elif isinstance(node, ast.Break):
            raise _Break
        elif isinstance(node, ast.Continue):
            raise _Continue
        else:
            self._simple(node)

    def _for(self, node: ast.For) -> None:
        for item in self._expression(node.iter, node):
            self.namespace["__coc_item__"] = item
            self._run_python(ast.Assign(targets=[node.target], value=ast.Name("__coc_item__", ast.Load())), node)
            if self._broke(node.body):
                return
        self._block(node.orelse)

    def _while(self, node: ast.While) -> None:
        while self._expression(node.test, node):
            if self._broke(node.body):
                return
        self._block(node.orelse)

    def _broke(self, body: list[ast.stmt]) -> bool:
        """Run a loop body once; True when it ended with `break` (`continue` just ends it early)."""
        try:
            self._block(body)
        except _Break:
            return True
        except _Continue:
            pass
        return False

    def _expression(self, expression: ast.expr, owner: ast.stmt) -> Any:
        """The value of a loop's or conditional's expression; emulated when Python cannot compute it."""
        compiled = compile(ast.fix_missing_locations(ast.copy_location(ast.Expression(expression), owner)),
                           PROGRAM_FILENAME, "eval", dont_inherit=True)  # fmt: skip
        try:
            value = eval(compiled, self.namespace)  # the program's own code, in the locked-down child
        except (SystemExit, MemoryError):
            raise
        except Exception as exc:
            reply = self._emulate(owner, exc, expression)
            if reply.kind != "value":
                raise EmulationFailed("the emulation reply has no value for the expression") from exc
            self._record(owner, {"value": reply.value})
            return reply.value
        self._record(owner)
        return value

    def _simple(self, node: ast.stmt) -> None:
        try:
            self._run_python(node, node)
        except (SystemExit, MemoryError, _Break, _Continue):
            raise
        except Exception as exc:
            reply = self._emulate(node, exc)
            if reply.kind != "values":
                raise EmulationFailed("the emulation reply has no values") from exc
            self.namespace.update(reply.values)  # identifiers only: EmulationReply.from_wire checked them
            self._record(node, reply.values)
            return
        self._record(node)

    def _run_python(self, node: ast.stmt, owner: ast.stmt) -> None:
        module = ast.Module(body=[ast.copy_location(node, owner)], type_ignores=[])
        exec(compile(ast.fix_missing_locations(module), PROGRAM_FILENAME, "exec", dont_inherit=True), self.namespace)

    def _emulate(self, node: ast.stmt, error: Exception, expression: ast.expr | None = None) -> EmulationReply:
        self.emulations += 1
        self.emulating_line = node.lineno
        text = ast.get_source_segment(self.code, node) or ast.unparse(node)
        if isinstance(node, ast.If | ast.For | ast.While):  # only the header: its body runs line by line
            text = text.splitlines()[0]
        request = Emulate(
            line=node.lineno,
            statement=text[:STATEMENT_CHARS],
            expression=ast.unparse(expression) if expression is not None else None,
            concrete=cap(ast.unparse(_Concrete(self.namespace).visit(_copy(expression or node))), STATEMENT_CHARS),
            error=cap(f"{type(error).__name__}: {_message(error)}", 300),
            state=self.state(),
        )
        reply = self.ask(request)
        if reply.kind == "error":
            raise EmulationFailed(reply.error)
        return reply

    def state(self) -> dict[str, str]:
        """The program's variables as short reprs (modules, functions and dunders left out)."""
        shown: dict[str, str] = {}
        size = 0
        for name, value in self.namespace.items():
            if name.startswith("__") or callable(value) or type(value).__name__ == "module":
                continue
            text = cap(safe_repr(value), VALUE_CHARS)
            size += len(name) + len(text)
            if size > MAX_STATE_CHARS:
                break
            shown[name] = text
        return shown

    def _record(self, node: ast.stmt, emulated: dict[str, Any] | None = None) -> None:
        """A step that ran in Python, or was emulated and set these values."""
        if len(self.steps) >= MAX_CHAIN_STEPS:
            return
        shown = {
            name: cap(safe_repr(value), VALUE_CHARS)
            for name, value in list((emulated or {}).items())[:MAX_CHAIN_VALUES]
        }
        self.steps.append(ChainStep(node.lineno, emulated is not None, shown))


class _Concrete(ast.NodeTransformer):
    """Replaces names that are read by their values when those are short plain constants."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self.namespace = namespace

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.namespace.get(node.id)
        plain = isinstance(value, str | int | float | bool) and len(repr(value)) <= 100
        if isinstance(node.ctx, ast.Load) and node.id in self.namespace and plain:
            return ast.copy_location(ast.Constant(value), node)
        return node


def _copy(node: ast.AST) -> ast.AST:
    """A deep copy of a syntax tree (parsing its text again, so the original stays untouched)."""
    tree = ast.parse(ast.unparse(node))
    if isinstance(node, ast.expr):
        return tree.body[0].value  # type: ignore[attr-defined, no-any-return]
    return tree.body[0]


def _message(error: Exception) -> str:
    try:
        return str(error)
    except Exception:  # a program's own exception class may fail even at this
        return "(its message could not be shown)"
