"""A program's error in plain words, for the line above the traceback: "`totl_cost` is not defined —
did you mean `total_cost`?" rather than only "NameError: name 'totl_cost' is not defined".

Reads the traceback's last line only (capped, one pass per pattern, no backtracking over the
whole text); the suggestion comes from Python's own ("Did you mean: …?") or from the names the
program assigns. Nothing is evaluated.
"""

from __future__ import annotations

import difflib
import re

from app.reasoning.extract import assigned_names

_LAST_LINE_CHARS = 500
_NAME = re.compile(r"NameError: name '([A-Za-z_]\w{0,80})' is not defined(?:\. Did you mean: '([A-Za-z_]\w{0,80})'\?)?")
_PLAIN: tuple[tuple[str, str], ...] = (
    ("ZeroDivisionError", "The program divided by zero"),
    ("IndexError", "The program asked for an item past the end of a list"),
    ("KeyError", "The program looked up a key that is not there"),
    ("RecursionError", "The program called itself too deeply"),
    ("OverflowError", "A number grew too large for the calculation"),
    ("TypeError", "A value of the wrong kind was used (a number where text was needed, or the other way)"),
    ("ValueError", "A value was not acceptable to the operation it was given to"),
    ("AttributeError", "The program used something a value does not have"),
    ("SyntaxError", "The program is not valid Python"),
    ("IndentationError", "The program's lines are not indented consistently"),
    ("ImportError", "The program imports a module the sandbox does not offer"),
    ("ModuleNotFoundError", "The program imports a module the sandbox does not offer"),
)


def misspelled(error: str, program: str) -> tuple[str, str | None] | None:
    """A NameError's missing name and the name it was meant to be (Python's own suggestion, else the
    closest name the program assigns: "lebensmittel_spend" for "Lebensmittel_spend"; None when
    none is close); None for any other error."""
    last = error.strip().splitlines()[-1][:_LAST_LINE_CHARS] if error.strip() else ""
    name = _NAME.search(last)
    if name is None:
        return None
    if name.group(2):
        return name.group(1), name.group(2)
    close = difflib.get_close_matches(name.group(1), sorted(assigned_names(program)), n=1, cutoff=0.75)
    return name.group(1), close[0] if close else None


def plain_error(error: str | None, program: str = "", line: int | None = None) -> str | None:
    """One sentence saying what went wrong, or None when the error is not a Python exception we
    can put into words (a time limit, a crash: those have their own messages)."""
    if not error:
        return None
    last = error.strip().splitlines()[-1][:_LAST_LINE_CHARS] if error.strip() else ""
    where = f" (line {line})" if line else ""
    name = misspelled(error, program)
    if name:
        missing, suggested = name
        hint = f" — did you mean `{suggested}`?" if suggested else " — it is used before it is given a value."
        return f"`{missing}` is not defined{where}{hint}"
    kind = last.split(":", 1)[0].strip()
    for exception, words in _PLAIN:
        if kind == exception:
            return f"{words}{where}."
    return None
