"""The namespace a program runs in, and how its outcome is described.

The import guard and the missing `open` are conveniences that give clear messages for the
common cases ("import os" in a model's program); they are not the security boundary — the
kernel layers applied in `sandbox.child` are.
"""

from __future__ import annotations

import builtins
import datetime
import linecache
import math
import traceback
from dataclasses import dataclass
from typing import Any, Protocol

PROGRAM_FILENAME = "<program>"

# Modules a program may import: the standard library's math-ish modules, sympy, and a few
# harmless pure-computation helpers. The worker imports all of them before any child starts.
ALLOWED_MODULES = (
    "math", "cmath", "fractions", "decimal", "statistics", "itertools", "functools",
    "collections", "datetime", "re", "random", "string", "sympy", "mpmath", "operator", "heapq",
    "bisect", "numbers", "copy", "typing", "json", "enum", "dataclasses", "textwrap", "calendar",
    "time",
)  # fmt: skip
# Modules that C code of an allowed module imports on first use from inside the program's frame, so
# through this guard (CPython 3.15's datetime.strptime does, in the WebAssembly guest); not advertised.
_LAZY_HELPERS = ("_strptime",)
_ALLOWED_ROOTS = frozenset(ALLOWED_MODULES + _LAZY_HELPERS)


def _guarded_import(
    name: str,
    globals: dict[str, Any] | None = None,
    locals: dict[str, Any] | None = None,
    fromlist: Any = (),
    level: int = 0,
) -> Any:
    if level != 0 or name.partition(".")[0] not in _ALLOWED_ROOTS:
        raise ImportError(
            f"module '{name}' is not available in the sandbox; programs may import " + ", ".join(ALLOWED_MODULES)
        )
    return builtins.__import__(name, globals, locals, fromlist, level)


def _no_files(*_args: Any, **_kwargs: Any) -> Any:
    raise PermissionError("programs cannot open files in the sandbox")


def _no_input(*_args: Any, **_kwargs: Any) -> Any:
    raise EOFError("programs cannot read input in the sandbox")


def solve_it(equations: Any, variables: Any) -> dict[Any, Any]:
    """Solve equations for variables with sympy and return {symbol: value} (Program of Thoughts).

    Returns the first solution, or an empty dict when there is none.
    """
    import sympy

    if not isinstance(variables, list | tuple):
        variables = [variables]
    if not isinstance(equations, list | tuple):
        equations = [equations]
    solutions = sympy.solve(list(equations), list(variables), dict=True)
    return dict(solutions[0]) if solutions else {}


def make_namespace() -> dict[str, Any]:
    safe_builtins = dict(vars(builtins))
    safe_builtins.update(__import__=_guarded_import, open=_no_files, input=_no_input)
    # Programs often use math and datetime without importing them (datetime.date(...) over a
    # table's dates): both are given, as modules, so the program's own import changes nothing.
    return {
        "__name__": "__main__",
        "__builtins__": safe_builtins,
        "solve_it": solve_it,
        "math": math,
        "datetime": datetime,
    }


@dataclass(frozen=True)
class Outcome:
    status: str  # "ok", "error" or "memory"
    error: str | None = None
    error_line: int | None = None


class Tracing(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...


def execute(code: str, namespace: dict[str, Any], tracer: Tracing | None = None) -> Outcome:
    """Run `code` in `namespace`; tracebacks name lines of the program, not of this module."""
    linecache.cache[PROGRAM_FILENAME] = (len(code), None, code.splitlines(True), PROGRAM_FILENAME)
    try:
        compiled = compile(code, PROGRAM_FILENAME, "exec", dont_inherit=True)
        if tracer is not None:
            tracer.start()
        try:
            exec(compiled, namespace)
        finally:
            if tracer is not None:
                tracer.stop()
    except SystemExit as exc:
        if exc.code in (None, 0):
            return Outcome("ok")
        return Outcome("error", f"the program exited with status {exc.code!r}")
    except MemoryError:
        return Outcome("memory", "MemoryError: the program ran out of its memory limit")
    except BaseException as exc:
        return describe_exception(exc)
    return Outcome("ok")


# Modules whose frames a traceback leaves out beside this one's: the data helper's message says what
# the program did wrong ("no column 'Nmae'"). Found by module name, not imported: the WebAssembly
# guest installs its modules after what they import, and the helper comes later.
_HELPERS = frozenset({"sandbox.data"})


def _machinery(exc: BaseException) -> set[str]:
    files, tb = {__file__}, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__") in _HELPERS:
            files.add(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return files


def describe_exception(exc: BaseException) -> Outcome:
    if isinstance(exc, OSError) and exc.errno == 12:  # ENOMEM, e.g. a huge mmap
        return Outcome("memory", f"{type(exc).__name__}: {exc}")
    try:
        tb = traceback.TracebackException.from_exception(exc, capture_locals=False)
        # Show the program's frames and the libraries it called, not this module's machinery nor
        # the data helper's (`_HELPERS`).
        machinery = _machinery(exc)
        frames = [f for f in tb.stack if f.filename not in machinery]
        first = next((i for i, f in enumerate(frames) if f.filename == PROGRAM_FILENAME), len(frames))
        tb.stack = traceback.StackSummary.from_list(frames[first:])
        text = "".join(tb.format())
        line = _error_line(exc, frames)
    except MemoryError:
        return Outcome("memory", "MemoryError while describing an error")
    except Exception:  # an exception whose __str__ itself fails
        text, line = f"{type(exc).__name__} (its message could not be shown)", None
    return Outcome("error", text, line)


def _error_line(exc: BaseException, frames: list[traceback.FrameSummary]) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == PROGRAM_FILENAME:
        return exc.lineno
    program_frames = [f for f in frames if f.filename == PROGRAM_FILENAME]
    return program_frames[-1].lineno if program_frames else None
