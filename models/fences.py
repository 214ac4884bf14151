"""Fenced code in a model's reply, and the one rule for when a program has arrived in it: a
closed ``` block tagged python (or untagged) with code in it. Every model honours the rule for a
request's `stop_after_code_block` (in-process single and batched, a server, the scripted one), and
`app.reasoning.extract` reads programs with the same fences."""

from __future__ import annotations

import re

FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+-]*)[ \t]*$", re.MULTILINE)
PYTHON_TAGS = frozenset({"python", "py", "python3", ""})


def code_blocks(reply: str) -> list[tuple[str, str, bool]]:
    """(language tag, code, closed) for every fenced block, in order."""
    blocks: list[tuple[str, str, bool]] = []
    fences = list(FENCE.finditer(reply))
    i = 0
    while i < len(fences):
        opening = fences[i]
        start = opening.end() + 1
        if i + 1 < len(fences) and fences[i + 1].group(1) == "":
            closing = fences[i + 1]
            blocks.append((opening.group(1).lower(), reply[start : closing.start()].rstrip(), True))
            i += 2
        else:  # an unterminated fence: the model stopped mid-program
            blocks.append((opening.group(1).lower(), reply[start:].rstrip(), False))
            break
    return blocks


def program_arrived(reply: str) -> bool:
    """True once the reply holds a closed Python block with code in it (generation may stop there)."""
    return any(closed and tag in PYTHON_TAGS and code.strip() for tag, code, closed in code_blocks(reply))
