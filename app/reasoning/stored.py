"""What a solve keeps when it is stored (the history's row, the solve log's line): the same
`Solution`, with what the program produced capped.

A program decides how big its variables are: seven lists of a megabyte each once added 7 MB to a
history row and to the log. Stored, each variable keeps a short repr and its JSON copy only while
that is small — the answer's own (`ans`, `result`: a table to show again) up to a larger cap, all of
them together up to a budget; the answer and each sample's answer are cut. The window and the
CLI's `--json` still get the whole solve; only what is written down is capped.
"""

from __future__ import annotations

import dataclasses
import json

from app.reasoning.solution import Solution
from sandbox import CapturedValue
from sandbox.values import cap

REPR_CHARS = 2_000
JSON_CHARS = 32 * 1024  # a variable's JSON copy
ANSWER_JSON_CHARS = 256 * 1024  # `ans` / `result`: the rows a table answer is drawn from
VALUES_BUDGET = 320 * 1024  # every variable's JSON copy together
ANSWER_CHARS = 16 * 1024
_ANSWER_NAMES = ("ans", "result")


def stored(solution: Solution) -> Solution:
    """`solution` as it is written to the history and the solve log (see the module's docstring)."""
    budget = VALUES_BUDGET
    variables: dict[str, CapturedValue] = {}
    for name in sorted(solution.variables, key=lambda n: n not in _ANSWER_NAMES):  # the answer's first
        value = solution.variables[name]
        size = len(json.dumps(value.json)) if value.json is not None else 0
        limit = min(ANSWER_JSON_CHARS if name in _ANSWER_NAMES else JSON_CHARS, budget)
        keep = value.json is not None and size <= limit
        budget -= size if keep else 0
        variables[name] = _capped(value, keep=keep)
    order = list(solution.variables)  # the program's own order, as shown
    ans = solution.ans
    if ans is not None:
        ans = _capped(ans, keep=len(json.dumps(ans.json)) <= ANSWER_JSON_CHARS)
    return dataclasses.replace(
        solution,
        answer=_text(solution.answer),
        variables={name: variables[name] for name in order},
        ans=ans,
        sampled=tuple(
            dataclasses.replace(sample, answer=_text(sample.answer), redone=_text(sample.redone))
            for sample in solution.sampled
        ),
    )


def _capped(value: CapturedValue, *, keep: bool) -> CapturedValue:
    latex = cap(value.latex, REPR_CHARS) if value.latex is not None else None
    return CapturedValue(cap(value.repr, REPR_CHARS), value.json if keep else None, value.type, latex)


def _text(text: str | None) -> str | None:
    return cap(text, ANSWER_CHARS) if text is not None else None
