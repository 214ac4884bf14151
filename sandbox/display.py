"""Make program output safe to show: no terminal escapes, no control or bidi characters.

Programs may print ANSI/OSC escape sequences (retitling a terminal, hiding text) or bidi
overrides (making text read differently from what it is). Results keep the raw text; whatever
shows it to a person passes it through `display_text` first.
"""

from __future__ import annotations

import re

# CSI … final byte, OSC … BEL/ST, other two-byte ESC sequences.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def display_text(text: str) -> str:
    """`text` without escape sequences and control characters; tabs and newlines stay."""
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))
