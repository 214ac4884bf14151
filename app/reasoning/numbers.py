"""How answers are shown.

Rule: a number is shown without float noise and without a needless ".0": floats are rounded to
12 significant digits (2.0500000000000003 → 2.05, 11.0 → 11); integers, fractions and other text
are shown as they are. The raw value stays in the working (output, `ans`).
"""

from __future__ import annotations

import math
import re

_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


def format_float(value: float) -> str:
    if not math.isfinite(value):
        return str(value)
    rounded = float(f"{value:.12g}")
    if rounded.is_integer() and abs(rounded) < 1e16:
        return str(int(rounded))
    return repr(rounded)


def format_answer(text: str) -> str:
    """Trimmed `text`; when it is a single number, that number without noise."""
    stripped = text.strip()
    if _NUMBER.fullmatch(stripped) and ("." in stripped or "e" in stripped.lower()):
        return format_float(float(stripped))
    return stripped
