"""Render the program's variables as data that is safe to send across the process boundary.

Runs in the child. Every value becomes a repr string, a JSON-safe value (or None) and a type
name, plus a LaTeX string for sympy objects; all are capped so no value can flood the channel.
"""

from __future__ import annotations

import datetime
import decimal
import fractions
import math
import re
import sys
import types
from typing import Any

REPR_CHARS = 10_000
JSON_INT_DIGITS = 1_000
_MAX_ITEMS = 1_000
_MAX_DEPTH = 6
_LOG10_2 = math.log10(2)


class _TooBig(Exception):
    """A container exceeds the item or depth budget: its JSON form is dropped."""


_CAPPED = re.compile(r"… \[(\d{1,15}) more characters\]\Z")  # how `cap` ends a text it cut


def cap(text: str, limit: int = REPR_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"… [{len(text) - limit} more characters]"


def capped_length(text: str) -> int:
    """The length of the text `text` was before `cap` cut it (its own where it was not cut)."""
    cut = _CAPPED.search(text[-40:])
    return len(text) - len(cut.group()) + int(cut.group(1)) if cut else len(text)


def _int_summary(value: int) -> str:
    digits = int(abs(value).bit_length() * _LOG10_2) + 1
    sign = "-" if value < 0 else ""
    return f"<{sign}integer with about {digits} digits>"


def _too_long_for_str(value: int) -> bool:
    return abs(value).bit_length() > 3 * JSON_INT_DIGITS  # ≈ 900 digits, well below Python's cap


def safe_repr(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and _too_long_for_str(value):
        return _int_summary(value)
    try:
        text = repr(value)
    except Exception as exc:  # a user-defined __repr__ may raise anything
        return f"<repr failed: {type(exc).__name__}: {cap(str(exc), 200)}>"
    return cap(text)


def _sympy() -> Any:
    return sys.modules.get("sympy")


def _is_sympy(value: Any) -> bool:
    sp = _sympy()
    if sp is None:
        return False
    return isinstance(value, sp.Basic | sp.MatrixBase)


def to_json(value: Any) -> Any:
    """A JSON-safe copy of `value`, or None when it has none (or is too large)."""
    budget = [_MAX_ITEMS]
    try:
        return _to_json(value, 0, budget)
    except _TooBig:
        return None


def _to_json(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_DEPTH:
        raise _TooBig
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return None if _too_long_for_str(value) else int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        return cap(str(value))
    if isinstance(value, fractions.Fraction | decimal.Decimal | complex):
        return cap(str(value))
    if isinstance(value, datetime.date | datetime.time | datetime.timedelta):
        return str(value)
    if _is_sympy(value):
        return _sympy_json(value)
    if isinstance(value, list | tuple | set | frozenset):
        return [_to_json(item, depth + 1, budget) for item in value]
    if isinstance(value, dict | types.MappingProxyType):  # a data row (sandbox.data) is a read-only dict
        if not all(isinstance(key, str) for key in value):
            return {cap(safe_repr(k), 200): _to_json(v, depth + 1, budget) for k, v in value.items()}
        return {cap(k, 200): _to_json(v, depth + 1, budget) for k, v in value.items()}
    return None


def _sympy_json(value: Any) -> Any:
    sp = _sympy()
    if isinstance(value, sp.Integer):
        return to_json(int(value))
    if isinstance(value, sp.Float):
        return to_json(float(value))
    return cap(str(value))


def latex(value: Any) -> str | None:
    if not _is_sympy(value):
        return None
    try:
        return cap(str(_sympy().latex(value)))
    except Exception:
        return None


def render(value: Any) -> dict[str, Any]:
    """The wire form of one captured variable."""
    return {
        "repr": safe_repr(value),
        "json": to_json(value),
        "type": type(value).__name__,
        "latex": latex(value),
    }


class CaptureTimeout(BaseException):  # not Exception: the repr guards above must not swallow it
    """Raised by the caller's clock (an alarm natively, a trace function in WebAssembly) when
    rendering the captured variables took its whole budget."""


def capture(namespace: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """Render the requested variables that exist; a hostile __repr__ costs only its own entry, and
    once `CaptureTimeout` arrives the rest are left out."""
    captured: dict[str, Any] = {}
    try:
        for name in names:
            if name not in namespace:
                continue
            try:
                captured[name] = render(namespace[name])
            except CaptureTimeout:
                captured[name] = _unshowable(namespace[name], "<repr took too long>")
                break
            except BaseException as exc:
                captured[name] = _unshowable(namespace[name], f"<could not be shown: {type(exc).__name__}>")
    except CaptureTimeout:
        pass
    return captured


def _unshowable(value: Any, text: str) -> dict[str, Any]:
    return {"repr": text, "json": None, "type": type(value).__name__, "latex": None}
