"""Find the program in a model's reply.

Handles ```python and bare ``` fences, several blocks (the one that is a program wins), a reply
that is nothing but code, and a fence left open when generation hit its token limit.
"""

from __future__ import annotations

import ast
import re

from app.reasoning.numbers import format_answer
from app.reasoning.plain_math import plain_math
from models.fences import PYTHON_TAGS, code_blocks

# What ast.parse raises on text that is not a program; deep nesting ("((((…") raises MemoryError.
_UNPARSABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def _tree(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except _UNPARSABLE:
        return None


def _parses(code: str) -> bool:
    return _tree(code) is not None


def _program_score(code: str) -> tuple[int, int, int]:
    """Higher is more program-like: parses, computes or prints something, length."""
    tree = _tree(code)
    does_something = tree is not None and any(
        isinstance(node, ast.Assign | ast.AugAssign | ast.Call | ast.FunctionDef) for node in ast.walk(tree)
    )
    return int(tree is not None), int(does_something), len(code)


def extract_program(reply: str) -> str | None:
    """The program in `reply`, or None when there is none."""
    blocks = [(tag, code) for tag, code, _closed in code_blocks(reply) if tag in PYTHON_TAGS and code.strip()]
    if blocks:
        tagged = [code for tag, code in blocks if tag] or [code for _tag, code in blocks]
        return max(tagged, key=_program_score)
    text = reply.strip()
    if text and "```" not in text and _parses(text) and _program_score(text)[1]:
        return text  # the whole reply is code without fences
    return None


def assigned_names(program: str, limit: int = 100) -> list[str]:
    """Module-level names the program binds, in order — in `if`, `for`, `while`, `with` and `try`
    blocks too (still module scope), not inside functions (for showing every quantity after a run)."""
    tree = _tree(program)
    if tree is None:
        return []
    names: list[str] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending and len(names) < limit:
        node = pending.pop(0)
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign | ast.For):
            targets = [node.target]
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name) and leaf.id not in names:
                    names.append(leaf.id)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            nested = [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)]
            handlers = [s for h in getattr(node, "handlers", []) for s in h.body]
            pending[:0] = nested + handlers  # in program order, before what follows the block
    return names[:limit]


# Matched line by line against a stripped line, from its start: no pattern re-scans a long run of
# blank lines or spaces from every position (the old MULTILINE pattern was quadratic on them).
_ANSWER_LINE = re.compile(r"\**Answer\**[ \t]*:(.*)", re.IGNORECASE)


# The box may hold one level of braces (\boxed{\frac{7}{12}}, \boxed{18 \text{ dollars}}): the
# alternatives start differently, so the match stays linear.
_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")


def answer_line(reply: str) -> str | None:
    """What the last `Answer:` line of a reply says (trimmed, numbers without noise), or None.

    Instruct models trained on math often write `\\boxed{18}` instead; that counts as the line.
    LaTeX in the answer is read as plain text (`\\frac{7}{12}` is 7/12).
    """
    answers = [said for line in reply.splitlines() if (said := labelled(line, _ANSWER_LINE))]
    answers = answers or _BOXED.findall(reply)
    if not answers:
        return None
    boxed = _BOXED.findall(answers[-1])  # "Answer: \boxed{180} grams" (GSM8K, a second round's chain)
    return format_answer(plain_math(boxed[-1] if boxed else answers[-1]))


# A last line that states a result: "So, their average guess is 80.", "Therefore, Peter can go 3
# times.", "Final answer: 366", or a calculation "60 + 180 + 126 = 366".
_CONCLUDING = re.compile(r"(?:so|thus|therefore|hence|in total|final answer|the answer)\b|.*[=≈]", re.IGNORECASE)
_STATED_NUMBER = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?%?")
_LIST_MARK = re.compile(r"^(?:[-*•]|\d{1,2}[.)]|step \d{1,2}:)\s*", re.IGNORECASE)
MAX_CONCLUDING_CHARS = 300


def concluded(reasoning: str) -> str | None:
    """The number reasoning ends on when it states no answer line: its last line, if that line
    concludes (above), says it — after its last "=" or "≈", else as its only number (a line with
    two numbers and no "=" names no single answer). None otherwise. Asked to write plain text, the
    embedded model left out `\\boxed{}` on 18 of 200 GSM8K replies; read this way, 10 of them
    were right (docs/results.md, issue 33)."""
    lines = [line.strip() for line in reasoning[-4 * MAX_CONCLUDING_CHARS :].splitlines() if line.strip()]
    last = _LIST_MARK.sub("", lines[-1]) if lines else ""
    if len(last) > MAX_CONCLUDING_CHARS or not _CONCLUDING.match(last):
        return None
    *calculation, result = re.split(r"[=≈]", last)
    numbers = _STATED_NUMBER.findall(result)
    if not calculation and len(set(numbers)) != 1:
        return None
    return format_answer(numbers[0].rstrip(".,").replace(",", "")) if numbers else None


# A question that asks for an amount, and an answer that is a sentence (three words or more).
_AMOUNT_ASKED = re.compile(r"\bhow (?:many|much|far|long|old|fast|tall|heavy)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}")
_SENTENCE_WORDS = 3
# A time, a fraction, or amounts joined ("2 dozens and 4 eggs"): no one number to read.
_NO_ONE_NUMBER = re.compile(r"\d\s*[:/]\s*\d|\d[^\d.]{0,30}\b(?:and|plus)\b[^\d.]{0,30}\d", re.IGNORECASE)


def sentence_number(answer: str, question: str) -> str:
    """An answer line that is a sentence ("John is 315 miles from home at the end of those 4
    hours."), where the question asks how many or how much, as the number it states: its only
    number, else its only number the question does not give. Else the answer as it is (two new
    numbers, a time or a fraction name no single number). A vote reads an answer by its last
    number — 4 there — and the window showed the sentence as the answer (GSM8K item 9, issue 33).
    Amounts joined ("2 dozens and 4 eggs") stay as they are."""
    if (
        len(answer) > MAX_CONCLUDING_CHARS
        or len(_WORD.findall(answer)) < _SENTENCE_WORDS
        or _NO_ONE_NUMBER.search(answer)
        or not _AMOUNT_ASKED.search(question)
    ):
        return answer
    stated = {_value(number): number.rstrip(",") for number in _STATED_NUMBER.findall(answer)}
    given = {_value(number) for number in _STATED_NUMBER.findall(question)}
    new = [number for value, number in stated.items() if value not in given]
    chosen = list(stated.values()) if len(stated) == 1 else new
    return format_answer(chosen[0].replace(",", "")) if len(chosen) == 1 else answer


def _value(number: str) -> float:
    return float(number.strip("$%,").replace(",", ""))


def labelled(line: str, label: re.Pattern[str]) -> str | None:
    """What a "Label: text" line says after its label (bold marks and spaces trimmed), or None."""
    match = label.match(line.strip())
    said = match.group(1).strip(" \t*") if match else ""
    return said or None


def streamed_program(stream: str) -> str:
    """What to show of a reply while it streams: the code of its latest fenced block, fences
    hidden (a fence still being typed is hidden too); the text itself until a fence has come."""
    complete, _, partial = stream.rpartition("\n")
    if partial.lstrip().startswith("`"):
        stream = complete + "\n" if complete else ""  # half a fence: wait for the rest of the line
    blocks = code_blocks(stream)
    if not blocks:
        return "" if stream.lstrip().startswith("`") else stream
    _tag, code, closed = blocks[-1]
    return code if closed or not code or not stream.endswith("\n") else code + "\n"
