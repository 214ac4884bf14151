"""Another one like this: a new question of the same kind with other numbers, its answer checked.

The question's numbers are the program's inputs: each number the question states once (in digits or
as a word) that the program writes once (`eggs = 16`, `sold = 3 * 6`; a percentage also as 0.25) is
given a new value of the same kind — whole where it was whole, a price keeps its cents, a
percentage stays a multiple of 5, round numbers stay round, days a week at most 7 (and "7 days a
week" stays), no two alike — and the question's text and the program are rewritten with it. The
rewritten program runs in the sandbox, drawn again until its answer is of the original's kind
(whole where it was whole, in cents where it is money, not negative where it was not). The variant
is offered only when an independent method, chain of thought on the new text, reaches the same
answer: neither alone says the program still fits.

Everything read here is the question's and the model's text: parsed with caps, never evaluated
outside the sandbox.
"""

from __future__ import annotations

import ast
import functools
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeGuard

from app.reasoning.extract import assigned_names
from app.reasoning.numbers import NUMBER_WORDS, number_in, vote_key
from app.reasoning.runs import solution_of_run
from app.reasoning.solution import Solution
from app.reasoning.working import program_nodes
from sandbox import Sandbox

MAX_QUESTION_CHARS = 4_000
TRIES_PER_VARIANT = 3  # candidates checked by the independent method for each variant asked for
DRAWS_PER_TRY = 25  # new numbers drawn (and run, cheaply) until one gives an answer of the right kind
# Numbers written as words: the program's `days = 3` is the question's "three" (not "one": "one of").
WORDS = {word: n for word, n in NUMBER_WORDS.items() if 2 <= n <= 20}
_NUMBER = re.compile(
    r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|(?<![\w.])\d+(?:\.\d+)?(?![\d])|\b(?:"
    + "|".join(WORDS)
    + r")\b(?!-)",
    re.IGNORECASE,
)  # "twenty-five" is not twenty

# Counts the calendar and the clock bound: "9 days a week" is no question to practise on.
_MOST = (
    (re.compile(r"\s*days? (?:a|each|per|every) week", re.IGNORECASE), 7),
    (re.compile(r"\s*hours? (?:a|each|per|every) day", re.IGNORECASE), 24),
    (re.compile(r"\s*months? (?:a|each|per|every) year", re.IGNORECASE), 12),
    (re.compile(r"\s*weeks? (?:a|each|per|every) year", re.IGNORECASE), 52),
    (re.compile(r"\s*days? (?:a|each|per|every) month", re.IGNORECASE), 28),
    (re.compile(r"\s*(?:minutes? (?:an|each|per|every) hour|seconds? (?:a|each|per|every) minute)", re.IGNORECASE), 60),
)

_PERCENT = re.compile(r"\s?(?:%|percent\b|per cent\b)", re.IGNORECASE)  # "25%", "20 percent": 5 to 95 in fives

Checker = Callable[[str], str | None]  # a question → an independent method's answer (chain of thought's)


@dataclass(frozen=True)
class Variant:
    question: str
    answer: str
    program: str
    agreed: bool  # the independent method reached the same answer
    check: str | None = None  # that method's answer

    def to_json(self) -> dict[str, object]:
        return {"question": self.question, "answer": self.answer, "agreed": self.agreed}


@dataclass(frozen=True)
class _Input:
    start: int  # the number's place in the question
    end: int
    text: str  # as written ("1,200", "2.50")
    value: float
    percent: bool  # written "25%": the program may hold 25 or 0.25
    line: int  # where the program writes it
    col: int
    end_col: int
    scale: float  # the program's constant is value × scale (0.01 for 25% as 0.25)
    most: float | None = None  # what the world allows: 7 for "days a week"


def inputs_of(question: str, program: str) -> list[_Input]:
    """The question's numbers that the program takes in, each as one number written in it
    (`eggs = 16`, `sold = 3 * 6`) — not a power, an index or a later argument (`round(x, 2)`)."""
    nodes = program_nodes(program) if len(question) <= MAX_QUESTION_CHARS else []
    aside = {id(n.right) for n in nodes if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow)}
    aside |= {id(arg) for n in nodes if isinstance(n, ast.Call) for arg in n.args[1:]}
    aside |= {id(n.slice) for n in nodes if isinstance(n, ast.Subscript)}
    constants = [
        (float(node.value), node)
        for node in nodes
        if isinstance(node, ast.Constant) and _is_number(node.value) and node.end_col_offset and id(node) not in aside
    ]
    found = [(m, _number_of(m.group())) for m in _NUMBER.finditer(question)]
    values = [value for _, value in found]
    inputs = []
    for match, value in found:
        if values.count(value) != 1 or value == 1:
            continue  # "3 boxes and 3 bags": which one a line means is unknown; "1 batch" is no "4 batch"
        percent = bool(_PERCENT.match(question, match.end()))
        most = next((bound for unit, bound in _MOST if unit.match(question, match.end())), None)
        if most is not None and value >= most:
            continue  # "7 days a week" is no input: it is how long a week is
        for scale in (1.0, 0.01) if percent else (1.0,):
            lines = [node for number, node in constants if math.isclose(number, value * scale, rel_tol=1e-12)]
            if len(lines) == 1:
                at = lines[0]
                place = (at.lineno, at.col_offset, at.end_col_offset or at.col_offset)
                inputs.append(_Input(match.start(), match.end(), match.group(), value, percent, *place, scale, most))
                break
    return inputs


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def new_value(given: _Input, draw: random.Random, avoid: set[float]) -> float:
    """Another value like `given`: a percentage a multiple of 5 in 5–95; a price with its cents; a
    count whole, round if it was round, between half and twice its size, and no more than the
    calendar or the clock allows (`most`)."""
    for _ in range(50):
        value = _drawn(given, draw)
        if value != given.value and value not in avoid and (given.most is None or value <= given.most):
            return value
    return given.value + 1  # below `most`: an input at it is none


def _drawn(given: _Input, draw: random.Random) -> float:
    value = given.value
    if given.percent:  # near the original, a multiple of 5
        return float(draw.randrange(max(5, int(value / 2) // 5 * 5), min(95, max(10, int(value * 2) // 5 * 5)) + 1, 5))
    decimals = len(given.text.split(".")[1]) if "." in given.text else 0
    if decimals:
        cents = 0.25 if (value * 4).is_integer() else 10.0**-decimals
        return round(round(draw.uniform(max(cents, value / 2), value * 2) / cents) * cents, decimals)
    if value <= 10:  # a small count stays small: 3 → 2–6, 8 → 4–16
        return float(draw.randint(max(2, round(value / 2)), max(round(value) + 3, round(value * 2))))
    step = next((s for s in (1000, 100, 10, 5) if value % s == 0 and value >= 2 * s), 1)
    low, high = max(step, int(value / 2) // step * step), int(value * 2) // step * step
    return float(draw.randrange(low, high + 1, step))  # whole: `value` was


def rewritten(question: str, program: str, inputs: list[_Input], values: list[float]) -> tuple[str, str]:
    """The question and the program with each input's new value, written as the original was."""
    text = question
    for given, value in sorted(zip(inputs, values, strict=True), key=lambda pair: -pair[0].start):
        text = text[: given.start] + _written(value, given.text) + text[given.end :]
    lines = program.split("\n")
    for given, value in sorted(zip(inputs, values, strict=True), key=lambda pair: (-pair[0].line, -pair[0].col)):
        line = lines[given.line - 1].encode()  # the syntax tree's columns count bytes
        constant = value * given.scale
        code = repr(round(constant, 10)) if given.scale != 1.0 or not value.is_integer() else str(int(value))
        lines[given.line - 1] = (line[: given.col] + code.encode() + line[given.end_col :]).decode()
    # The comments name the numbers too ("# Annika starts with $50"): they say the new ones, or
    # the working, whose prose is the comments, would contradict its own mathematics.
    said = {given.value: _written(value, given.text) for given, value in zip(inputs, values, strict=True)}
    renamed = _renamed(program, said)
    lines = [_commented(line, said) for line in lines]
    if renamed:  # names say the numbers too ("tables_4_legs = 30" beside "30 tables with 2 legs")
        lines = [_NAME.sub(lambda m: renamed.get(m.group(), m.group()), line) for line in lines]
    return text, "\n".join(lines)


_NAME = re.compile(r"\b[A-Za-z_]\w*\b")


@functools.lru_cache(maxsize=4)
def _names(program: str) -> frozenset[str]:
    """The program's names: read once for all the draws of one variant, not once per draw."""
    return frozenset(node.id for node in program_nodes(program) if isinstance(node, ast.Name))


def _renamed(program: str, said: dict[float, str]) -> dict[str, str]:
    """Each name of the program with a whole number of the question as one of its parts
    (`tables_4_legs`, `legs4`), that number's new value in its place; a name that would become
    one the program has already is left alone."""
    wholes = {str(int(old)): new for old, new in said.items() if old.is_integer() and new.isdigit()}
    names = _names(program)
    renamed: dict[str, str] = {}
    for name in names:
        new = re.sub(r"(?<![0-9])[0-9]+(?![0-9])", lambda m: wholes.get(m.group(), m.group()), name)
        if new != name and new not in names and new not in renamed.values():
            renamed[name] = new
    return renamed


def _commented(line: str, said: dict[float, str]) -> str:
    code, hash_, comment = line.partition("#")
    if not hash_ or code.count("'") % 2 or code.count('"') % 2:  # no comment, or a "#" inside a string
        return line
    swap = lambda match: said.get(_number_of(match.group()), match.group())  # noqa: E731
    return code + hash_ + _NUMBER.sub(swap, comment)


def _written(value: float, like: str) -> str:
    decimals = len(like.split(".")[1]) if "." in like else 0
    text = f"{value:,.{decimals}f}" if "," in like else f"{value:.{decimals}f}"
    return text


def make_variants(
    solution: Solution,
    sandbox: Sandbox,
    check: Checker,
    count: int = 3,
    *,
    seed: int = 0,
    on_variant: Callable[[Variant], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> list[Variant]:
    """Up to `count` variants of the solved `solution` that `check` agreed with, trying at most
    TRIES_PER_VARIANT × count candidates; `on_variant` hears each one tried (agreed or not). None
    when the program is not known to be right about the original question: chain of thought
    (in the solve's vote, or asked here) must give its answer too — a program that misread the
    question misreads every variant, and a variant's check can share the misreading."""
    program = solution.program
    if not solution.answered or program is None or solution.answer is None:
        return []
    inputs = inputs_of(solution.question, program)
    original = number_in(solution.answer)
    if not inputs or original is None or not _confirmed(solution, check):
        return []
    draw = random.Random(seed)
    avoid = {_number_of(m.group()) for m in _NUMBER.finditer(solution.question)}
    money = "$" in solution.question
    offered: list[Variant] = []
    seen: set[str] = set()
    for _ in range(TRIES_PER_VARIANT * count):
        if len(offered) >= count or cancelled():
            break
        found = None
        for _ in range(DRAWS_PER_TRY):  # runs are cheap: draw until the answer is of the right kind
            values: list[float] = []
            for given in inputs:  # each new value unlike the question's and the others drawn ("$17 … at $17")
                values.append(new_value(given, draw, avoid | set(values)))
            question, changed = rewritten(solution.question, program, inputs, values)
            answer = None if question in seen else _answer(question, changed, sandbox, original, money=money)
            seen.add(question)
            if answer is not None:
                found = (question, changed, answer)
                break
        if found is None:
            break
        question, changed, answer = found
        checked = check(question)
        agreed = checked is not None and vote_key(checked) == vote_key(answer)
        variant = Variant(question, answer, changed, agreed, checked)
        if on_variant is not None:
            on_variant(variant)
        if agreed:
            offered.append(variant)
    return offered


def _confirmed(solution: Solution, check: Checker) -> bool:
    """Chain of thought gave the program's answer to the original: in the vote, or asked now."""
    answer = vote_key(solution.answer or "")
    reasoned = [s.answer for s in solution.sampled if s.method == "cot" and s.answer is not None]
    said = reasoned[0] if reasoned else check(solution.question)
    return said is not None and vote_key(said) == answer


def _number_of(text: str) -> float:
    return float(WORDS[text.lower()]) if text.lower() in WORDS else float(text.replace(",", ""))


def _answer(question: str, program: str, sandbox: Sandbox, original: float, *, money: bool) -> str | None:
    """The rewritten program's answer, when it is of the original's kind: whole where it was
    whole (in dollars and cents where the question is about money), not negative where it was
    not, not zero where it was not."""
    result = sandbox.run(program, time_s=5.0, capture=("ans", *assigned_names(program)))
    solved = solution_of_run(question, program, result)
    value = number_in(solved.answer) if solved.answered and solved.answer else None
    if value is None or not math.isfinite(value):
        return None
    whole = value.is_integer() or (money and abs(value * 100 - round(value * 100)) < 1e-6)
    if (original.is_integer() and not whole) or (original >= 0 > value) or value == 0 != original:
        return None
    return solved.answer
