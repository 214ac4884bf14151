"""Prompt templates: one file per prompt in `resources/prompts`, `{{name}}` placeholders.

Filled by plain substitution (never str.format), so braces in questions or programs are safe.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


@cache
def template(name: str) -> str:
    return (RESOURCES / "prompts" / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")


def fill(name: str, **values: str) -> str:
    """The prompt `name` with each `{{key}}` replaced by `values[key]` (all must be given)."""
    text = template(name)
    wanted = set(_PLACEHOLDER.findall(text))
    if wanted != set(values):
        raise KeyError(f"prompt {name} takes {sorted(wanted)}, got {sorted(values)}")
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], text)
