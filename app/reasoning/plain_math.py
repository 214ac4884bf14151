"""The LaTeX a math-trained model writes, as the plain text a student reads.

Asked to reason step by step, the embedded model writes much of its working in LaTeX
("\\[ 16 - 3 = 13 \\text{ eggs/day} \\]", "\\frac{1}{3} \\times 6"). The window shows model text
as plain text only, and the arithmetic check (`check_working.arithmetic_slips`) reads "16 - 3 = 13"
and "1/3 × 6", so the reasoning is turned into that before it is kept or shown: math delimiters
dropped, `\\text{…}` unwrapped, `\\frac{a}{b}` written a/b, operators as symbols, markdown's bold
and headings dropped. Nothing is evaluated. Every pattern is linear; the nested forms (a fraction
inside a fraction) take one pass per level, at most `_PASSES`. Whatever is not recognised is left
as it was.
"""

from __future__ import annotations

import re

MAX_CHARS = 20_000  # a reasoning reply is at most a few thousand characters; the rest is kept as is
_PASSES = 4
_DELIMITER_LINE = re.compile(r"^[ \t]*(?:\\\[|\\\]|\$\$)[ \t]*$\n?", re.M)
_DELIMITER = re.compile(r"\\\[|\\\]|\\\([ \t]?|[ \t]?\\\)|\$\$")  # "\\( S \\)," reads "S,"
_WRAPPED = re.compile(r"\\(?:text|textbf|textit|mathrm|mathbf|mbox|operatorname|boxed)\s*\{([^{}]*)\}")
_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_ROOT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_POWER = re.compile(r"\^\{([^{}]*)\}")
_SIMPLE = re.compile(r"[\w.]*")
_SYMBOLS = {
    "times": "×",
    "cdot": "·",
    "div": "÷",
    "approx": "≈",
    "neq": "≠",
    "ne": "≠",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "pm": "±",
    "implies": "⇒",
    "Rightarrow": "⇒",
    "rightarrow": "→",
    "to": "→",
    "pi": "π",
    "infty": "∞",
    "left": "",
    "right": "",
    "quad": " ",
    "qquad": " ",
}
_COMMAND = re.compile(r"\\([A-Za-z]+)\b ?")
_ESCAPED = re.compile(r"\\([%$&#_{}])")
_SPACING = re.compile(r"\\[,;:! ]")
_GROUPED_COMMA = re.compile(r"\{,\}")  # 1{,}000: LaTeX's thousands separator
_SPACES = re.compile(r"(?<=\S)[ \t]{2,}")  # "13 \text{ eggs}" left two; indentation stays


# Markdown the model writes around its working: bold ("**Step 2:** 16 - 3 = 13") and headings
# ("### Step 1"), shown as asterisks and hashes in a plain-text pane. Bold opens before a word and
# closes after one; "2**3" and "2 ** 3" stay powers.
MARKDOWN_BOLD = re.compile(r"(?<![\w)*])\*\*(?=[^\s*])|(?<=[^\s*])\*\*(?![\w(*])")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.M)


def plain_math(text: str) -> str:
    """`text` with its LaTeX math and markdown written as plain text (see the module's docstring)."""
    if "\\" not in text and "$$" not in text and "**" not in text and "#" not in text:
        return text
    head, rest = text[:MAX_CHARS], text[MAX_CHARS:]
    head = _HEADING.sub("", MARKDOWN_BOLD.sub("", head))
    head = _DELIMITER_LINE.sub("", head)
    head = _DELIMITER.sub("", head)
    head = _GROUPED_COMMA.sub(",", head)
    head = _SPACING.sub(" ", head)
    for _ in range(_PASSES):
        before = head
        head = _WRAPPED.sub(lambda m: m.group(1), head)
        head = _FRACTION.sub(lambda m: f"{_operand(m.group(1))}/{_operand(m.group(2))}", head)
        head = _ROOT.sub(lambda m: f"√{_operand(m.group(1))}", head)
        head = _POWER.sub(lambda m: f"^{_operand(m.group(1))}", head)
        if head == before:
            break
    head = _COMMAND.sub(_symbol, head)
    head = _ESCAPED.sub(r"\1", head)
    return _SPACES.sub(" ", head) + rest


def _operand(text: str) -> str:
    """A fraction's part as written on one line: in brackets unless it is one number or word."""
    text = text.strip()
    return text if _SIMPLE.fullmatch(text) else f"({text})"


def _symbol(match: re.Match[str]) -> str:
    symbol = _SYMBOLS.get(match.group(1))
    if symbol is None:
        return match.group(0)
    return symbol if symbol in ("", " ") else f"{symbol} "
