"""Check a student's own working, line by line, against a computation that can be trusted.

The student writes one step per line as they would on paper — "3 boxes × 6 = 18", "24 - 18 = 6",
"x = 25 - 7 = 18, so 3x = 18, x = 6", numbers with units or "$". For each line:

1. its arithmetic is checked exactly: each side of every "=" that is plain arithmetic is turned
   into an expression of numbers and operators (words and units dropped), and all of them are
   evaluated in one run **in the sandbox** — never `eval` or `sympify` here;
2. its result (the last number of the line) is matched to the quantities the solution computed —
   the worked solution's steps and the program's variables, in any order, merged or split — and
   to the numbers the question gives;
3. the numbers it starts from must come from the question, an earlier line or the solution.

The first line that fails is the one to look at: an arithmetic slip, a number no step of the
solution has (a wrong operation, a unit mix-up), or a number copied wrong. A working that takes
another route (27 / 3 = 9 packs where the solution priced one pen) and reaches the answer is right
line by line; only a route that misses the answer is pointed at where it left the solution. A working that is right
line by line but stops before the answer is missing a step. No model call is needed.

Everything read here is the student's or the program's text: lines and expressions are capped and
read by linear-time patterns.
"""

from __future__ import annotations

import ast
import collections
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.reasoning.numbers import NUMBER_WORDS, format_float, number_in
from app.reasoning.plain_math import MARKDOWN_BOLD
from app.reasoning.prompts import UNKNOWN, asks_for_equation
from app.reasoning.solution import Solution
from app.reasoning.working import WorkingStep, program_nodes, worked_solution
from sandbox import CapturedValue, Sandbox

MAX_LINES = 60
MAX_LINE_CHARS = 300
MAX_EXPRESSIONS = 200
RELATIVE_TOLERANCE = 1e-9  # floating-point error only: 160780001 is not 160780000
_NUMBER = re.compile(r"\d+(?:\.\d+)?|\.\d+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# "5 000", as French and SI write thousands (not "2 1/2" or "3 250/5")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\d|[/.]\d|,\d{3})")
_DOTTED = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.,]\d|\d)")  # 1.250, 5.000: thousands where written so
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")  # "2,50 €" as a German or French student writes 2.50
_CLAUSES = re.compile(
    r";|,\s+(?:so|then|and)\b|\s(?:so|then|therefore|thus|hence)\s|→|=>|->|⇒|⟹|,(?=\s*[A-Za-z]\s*=)|\.\s+(?=[A-Za-z0-9$€£(])",
    re.I,
)  # a full stop before the next sentence too ("9 eggs left. 9 × 2 = $18")
# Operators in words, as a student writes them ("3 times 6 = 18", "20 divided by 4 = 5")
_WORDED_AS = {"times": "*", "multiplied by": "*", "divided by": "/", "plus": "+", "minus": "-", "take away": "-"}
_WORDED_AS |= {"mal": "*", "geteilt durch": "/", "durch": "/"}  # German ("plus", "minus" as in English)
_WORDED_AS |= {"fois": "*", "divisé par": "/", "moins": "-"}  # French
_WORDED_AS |= {"dividido por": "/", "dividido entre": "/", "menos": "-", "más": "+"}  # Spanish
_POR = re.compile(r"(?<=\d)\s+por\s+(?=\d)", re.I)  # "3 por 6" is times; "6 por caja", per box, is not
_WORDED_AS |= {"vezes": "*", "mais": "+"}  # Portuguese
_WORDED = re.compile(r"(?<!\\)\b(" + "|".join(_WORDED_AS) + r")\b", re.I)
_VULGAR = {"½": "1/2", "¼": "1/4", "¾": "3/4", "⅓": "1/3", "⅔": "2/3", "⅛": "1/8"}
_VULGAR_FRACTION = re.compile(r"(\d?)([½¼¾⅓⅔⅛])")  # "2½" is 2 + 1/2
_MIXED = re.compile(r"(?<![\d./])(\d{1,9}) (\d{1,3}/\d{1,3})(?![\d./])")  # "1 1/2" is 1 + 1/2
_ROOT_OF = re.compile(r"(?:√|\bsqrt\b)\s?(?:(\d+(?:\.\d+)?)|\((\d+(?:\.\d+)?)\))")  # "√144", "sqrt(144)"
# "2 dozen = 24": 2 × 12 where the dozens are what "=" converts (not "60 ÷ 12 = 5 dozen")
_DOZEN = re.compile(r"\b(\d+(?:\.\d+)?|an?)\s+dozens?\b(?=\s*(?:[A-Za-z]+\s*)?=)", re.I)
# "17 ÷ 5 = 3 R2", "17 : 5 = 3 Rest 2": a division with a remainder, checked as 17 = 5 × 3 + 2
_REMAINDER = re.compile(
    r"(\d{1,12})\s*[÷/:]\s*(\d{1,12})\s*=\s*(\d{1,12})\s*(?:r|rem\.?|remainder|rest|reste|resto)\s*(\d{1,12})\b", re.I
)
_DEGREES = re.compile(r"\s?°\s?[CFK]?(?![A-Za-z])")  # "−3 °C": the C is no unknown
_HOURS_MINUTES = re.compile(r"\b(\d{1,6})\s?(?:hours?|hrs?|h)\s+(?:and\s+)?(\d{1,2})\s?(?:minutes?|mins?)\b", re.I)
# "7:45 + 2 hours": hours added to a clock (read in minutes) are minutes too
_HOURS = re.compile(r"(?<![\d:.])(\d{1,6}(?:\.\d{1,3})?)\s?(?:hours?|hrs?|h)\b", re.I)
# "40 − 25% = 30", "40 + 25% = 50": a percentage added to or taken from a number is of that number,
# as a calculator takes it (not "100% − 20%", nor "25% of")
_PERCENT_ON = re.compile(r"(?<![\d.%*/×÷^)])(\d+(?:\.\d+)?)\s?([-−–+])\s?(\d+(?:\.\d+)?%)(?!\s*(?:of|von|de)\b)")
# "2:30 + 1:45 = 4:15", "5:30 pm = 17:30": times of day, in minutes
_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2}):([0-5]\d)(?![\d:])(?:\s?([AaPp])\.?[Mm]\b\.?)?")
# Cents or pence beside dollars, pounds or euros: the signs named, so that the sides' units differ
_MINOR_MONEY = re.compile(r"¢|\b(?:cents?|pence|ct)\b|(?<=\d)\s?p\b", re.I)
_MAJOR_MONEY = re.compile(r"([$€£])\s?(\d+(?:\.\d+)?)")
_MONEY_NAMES = {"$": "dollars", "€": "euros", "£": "pounds"}
_MINOR_AMOUNT = re.compile(r"(\d{1,9}(?:\.\d{1,9})?)\s?(?:¢|(?:cents?|pence|ct|p)\b)", re.I)
_PI_AFTER = re.compile(r"(?<=[\d)])\s?π")  # "2π": times
_PI_314, _PI_227 = re.compile(r"(?<![\d.])3\.14(?!\d)"), re.compile(r"\b22\s*/\s*7\b")  # "use 3.14 for pi"
_LONE_PERCENT = re.compile(r"\((\d+(?:\.\d+)?)/100\)")  # "20%" as `_expression` writes it
_CHECK = re.compile(r"\s*(?:check(?:ing)?|proof|probe|kontrolle|vérification|comprobación|verificación)\b", re.I)
_TICKED = re.compile(r"[✓✔]\s*$")  # "18 + 18 = 36 ✓" after the answer: a check too
_APPROXIMATE = re.compile(r"[≈≃]|~=?")
# "8.99 is about 9", "about $27" in a student's working: "≈" (not in reasoning whose arithmetic is redone)
_ABOUT = re.compile(r"\b(?:is\s+)?(?:about|approximately|roughly|approx\.)(?=\s*[$€£]?\s*\d)", re.I)
_RESULT = re.compile(r"(=\s?[-−–]\s?)?(\d+(?:\.\d+)?%?|\.\d+%?)")  # a line's last number, "= −3" negative
_TOKEN = re.compile(r"\d+(?:\.\d+)?%?|\.\d+%?|[A-Za-z]+|[-−–+*/×÷·⋅∙^()]|\S")
_OPERATOR = {
    "+": "+",
    "-": "-",
    "−": "-",
    "–": "-",
    "*": "*",
    "/": "/",
    "×": "*",
    "÷": "/",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "^": "**",
    "(": "(",
    ")": ")",
}  # fmt: skip  (− and – as typed or pasted from a document: minus)
_VARIABLE = re.compile(r"^[a-zA-Z]$")
_HYPHENATED = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")
_PARTS = {"half": "(1/2) * ", "a third": "(1/3) * ", "one third": "(1/3) * ", "a quarter": "(1/4) * "}
# A line written in words ("three times six is eighteen", "twenty-four minus eighteen is six"):
# its numbers, up to thousands ("one hundred and five"), and "two thirds" as 2/3.
_DENOMINATORS = {"half": 2, "halve": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "eighth": 8}
_SPELLED = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_TENS = (20, 30, 40, 50, 60, 70, 80, 90)
_SPELLED_NUMBER = re.compile(
    rf"\b(?:{_SPELLED})(?:(?:[\s-]+|(?<=hundred)\s+and\s+|(?<=thousand)\s+and\s+)(?:{_SPELLED}))*"
    rf"(?:[\s-]+({'|'.join(_DENOMINATORS)})s?)?\b",
    re.I,
)
_WORDED_EQUALS = re.compile(
    r"(\d[\d.,]*\s*(?:[-+*/×÷·x−–]|times|plus|minus|divided\s+by|multiplied\s+by|take\s+away)\s*[$€£]?\d[^=]{0,60}?)"
    r"\s+(?:is|equals|makes|leaves|gives)\s+(?=[$€£]?\d)",
    re.I,
)
_HALF_OF = re.compile(r"\b(half|a third|one third|a quarter)\s+of\s+(?=\d)", re.I)
_PART_OF = re.compile(r"(\d{1,12}\s*/\s*\d{1,12}\)?|\d{0,12}\.\d{1,12})\s+(?:of|von|de)\b")  # "(1/4) of": ¼ of
# "20 : 4" and "20:4" divide (as German and French schools write it); "2:30" is a time of day
_RATIO = re.compile(r"(?<=\d)(?:\s+:\s+|:(?!\d\d(?!\d)))(?=\d)")
# "25 m^2", "100m³": the 2 and the 3 are no result
_UNIT_POWER = re.compile(r"(?:\b|(?<=\d))([kcm]?m|ft|in|yd|mi)(?:\^|\*\*)?[23²³](?![\d.])")
_STEP_NOTE = re.compile(r"\s\|[^|=\n]{0,40}$")  # "3x = 18 | :3": what is done next, not arithmetic
_BULLET = re.compile(r"^\s*[-*•]\s+")  # "- 40% of 200 = 80": a list item, not a minus
# A value whose digits go on ("2.666...", "0.714285…"): cut off where it stops, not rounded.
_CUT_SHORT = re.compile(r"\s*[-+]?\d*\.(\d{1,12})(?:\.{2,}|…)")
# A left side ending on an operator and words: its last operand is a named quantity, not a number
# ("40% of the file size = 0.4 * 200 GB" is no calculation of 0.4).
_WORD_OPERAND = re.compile(r"[-−–+*/×÷·⋅∙^]\s*[^\W\d_][^\d=]*$")
# "She gets 29 back (50 − 21).": a result, then the calculation that gives it, in brackets
_RESULT_THEN_SUM = re.compile(
    r"(\d+(?:\.\d+)?)([^=()\d\n]{0,40}?)\(\s*([$€£]?\d[\d .,]*%?(?:(?:[-−–+*/×÷·x]|of) ?[$€£]?\d[\d .,]*%?)+)\)"
)
# "Step 1:", "1)", "(a)", "2." before a line's arithmetic: its label, not a number it starts from
_LABEL = re.compile(r"^\s*(?:(?:step|schritt|étape|paso)\s*\d{1,3}\s*[:.)–-]?|\(?(?:\d{1,3}|[a-z])[.)])\s+", re.I)
# Numbers a question may give in words (a student writes "3 + 4" for "three … four"), and the
# factors its words imply: half → 2 (or 0.5), twice → 2, a dozen → 12.
_FACTORS = {"half": (2, 0.5), "twice": (2,), "double": (2,), "triple": (3,), "dozen": (12,), "quarter": (4, 0.25)}
_GIVEN_WORD = re.compile(r"\b(" + "|".join([*NUMBER_WORDS, *_FACTORS]) + r")s?\b", re.I)
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b)", re.I)
# Numbers a question's words imply without writing them: the whole of a percentage (100 %), and
# the units' steps ("$1,200 a month … in a year": × 12; "2.5 hours" in minutes: × 60).
_IMPLIED = {
    "%": (100, 1), "percent": (100, 1), "year": (12, 52, 365), "month": (12,), "week": (7, 52), "day": (7, 24),
    "hour": (60, 24), "minute": (60,), "second": (60,), "cent": (100,), "km": (1000,), "kg": (1000,),
    "kilometre": (1000,), "kilometer": (1000,), "kilogram": (1000,), "cm": (100,), "litre": (1000,),
    "liter": (1000,),
}  # fmt: skip
_WHOLE = re.compile(r"\d\s*/\s*\d|\b(?:half|halves|thirds?|quarters?|fractions?)\b", re.I)
_IMPLYING = re.compile(r"%|\b(" + "|".join(word for word in _IMPLIED if word != "%") + r")s?\b", re.I)
_PER = re.compile(r"(?<=[\w)])/(?=[A-Za-z])")  # "700/week", "eggs/day": a unit, not a division
# "7.5 ÷ 1/2" is 15: a fraction written tight is one number (not after a power: 2^3/4 is 8/4)
_FRACTION = re.compile(r"(?<![\d./^*])(?<!\^ )(?<!\* )(\d{1,12}/\d{1,12})(?![\d./])")


@dataclass(frozen=True)
class LineVerdict:
    text: str
    ok: bool
    reason: str  # in words: what is right, or what is wrong and what the solution has
    step: str | None  # the solution's matching step ("total = 3 × 6 = 18"), if one matched
    off_route: bool = False  # right arithmetic from known numbers, but a value the solution never has
    own: float | None = None  # the number the line starts from that neither the question nor a step has

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "ok": self.ok, "reason": self.reason, "step": self.step}


@dataclass(frozen=True)
class CheckedWorking:
    answer: str | None
    lines: tuple[LineVerdict, ...]

    @property
    def first_wrong(self) -> int | None:
        return next((n for n, line in enumerate(self.lines) if not line.ok), None)

    def to_json(self) -> dict[str, object]:
        return {
            "answer": self.answer,
            "lines": [line.to_json() for line in self.lines],
            "first_wrong": self.first_wrong,
        }


@dataclass(frozen=True)
class _Quantity:
    value: float
    step: str  # how it is shown next to the student's line


@dataclass
class _Line:
    text: str
    sides: list[list[str | None]]  # each clause's sides: an expression, or None where it is not arithmetic
    units: list[list[str]]  # each side's unit word ("min"), "" when it has none
    clauses: list[str]  # the line's steps as plain text ("3x = 18" of "3x = 18, so x = 6")
    operands: list[float]  # the numbers the line starts from (left of its first "=")
    result: float | None  # the last number the line states
    percent: bool = False  # that number is written as a percentage ("= 20%")
    approximate: bool = False  # "3 × 8.99 ≈ 27": equal as far as the student rounded
    divided: tuple[float, ...] = ()  # "17 ÷ 5 = 3 R2": the quotient and the remainder, either an answer
    clock: str = ""  # a line of times of day ("7:45 + 1:50 = 9:35"): what it states last, as written
    converts: bool = False  # "3 km = 3000 m": a number changed into another unit, checked by its factor


def check_working(working: str, solution: Solution, sandbox: Sandbox) -> CheckedWorking:
    """Each non-empty line of `working` checked against `solution` (at most MAX_LINES, each cut at
    MAX_LINE_CHARS)."""
    question, answer, variables = solution.question, solution.answer, solution.variables
    steps = worked_solution(solution.program, variables, question, output=solution.output)
    solved = _quantities(steps, variables, answer)
    texts, question = _read(working, question, solved)
    pi = "3.14" if _PI_314.search(question) else "22/7" if _PI_227.search(question) else repr(math.pi)
    lines = [_parse(text, pi) for text in texts]
    asked = _roots_of(question, answer)
    roots = asked or _roots_named(texts, answer)
    at_roots = [_at_roots(line, roots) for line in lines]  # each line's sides with the unknown given its value
    expressions = [side for line in lines for clause in line.sides for side in clause]
    substituted = [side for line in at_roots for root in line for clause in root for side in clause]
    values, parts = _evaluate(expressions + substituted, solution.program, sandbox)
    values, held = values[: len(expressions)], iter(values[len(expressions) :])
    # each line's sides' values with the unknown given each of its values (none where it names none)
    rooted = [[[[next(held) for _side in clause] for clause in root] for root in line] for line in at_roots]
    first = next((sides[0] for sides in rooted if sides), None)
    if asked is None and first is not None and not _holds(first):  # the working's own unknown is the
        roots = None  # answer only where its first equation holds for the answer ("Let n be the boys")
    quantities = solved + [_Quantity(v, "a part of the program's calculation") for v in parts]
    quantities += _shares(question[:20_000])
    given, implied = _given(question[:20_000])
    clock = _CLOCK.search(answer) if answer and len(answer) <= MAX_LINE_CHARS else None
    target = _minutes(clock) if clock else number_in(answer) if answer else None
    verdicts: list[LineVerdict] = []
    # The solution's "× 2" for "there and back", and one of a unit ("1 day = 24 hours")
    known = given + implied + _literals(solution.program) + [1.0]
    rounded: list[float] = []  # results of lines that round ("8.99 ≈ 9"): what follows from them is near
    position = 0
    for number, line in enumerate(lines):
        line.approximate |= any(_close(n, r) for n in line.operands for r in rounded)
        clause_values = _clause_values(line, values, position)
        position += sum(len(clause) for clause in line.sides)
        # The line's result: its last side's value when that is arithmetic ("3/8 of the pizza"), else its last number.
        last_side = clause_values[-1][-1] if clause_values and clause_values[-1] else None
        line.result = last_side if last_side is not None else line.result
        line.result = _as_percent(line.result, quantities) if line.percent else line.result
        # A calculation ending on a number the question's words only imply is a coincidence ("12 × 2 =
        # 24" for 12 pages a day over 2 weeks: not the hours of a day); a line of one number may state it.
        verdict = _verdict(line, clause_values, quantities, known, given if len(line.operands) > 1 else given + implied)
        if roots is not None and rooted[number]:
            verdict = _algebra_verdict(verdict, rooted[number], roots)
        verdicts.append(verdict)
        known += [v for clause in clause_values for v in clause if v is not None]
        if line.result is not None:
            known.append(line.result)
            rounded += [line.result] if line.approximate else []
    last = _last_step(lines, target, timed=clock is not None)
    reaches = last is not None and target is not None and _reaches(last, target, timed=clock is not None)
    # "15 × 16 = 240" for the weeks of $15 that make $240: the answer multiplied back to a number given
    reaches |= (
        last is not None and target is not None and last.result is not None
        and any(_close(operand, target) for operand in last.operands) and any(_close(last.result, n) for n in given)
    )  # fmt: skip
    if reaches and all(v.ok or v.off_route for v in verdicts):  # another route to the answer: right too
        verdicts = [
            replace(v, ok=True, reason="right, by another route than the solution's") if v.off_route else v
            for v in verdicts
        ]
    verdicts = _rejoined(lines, _chosen(lines, verdicts, last if reaches else None, target))
    if verdicts and last is not None and all(v.ok for v in verdicts) and target is not None and not reaches:
        reason = f"right, but a step is missing after it: the answer is {format_float(target)}"  # it stops short
        verdicts[-1] = LineVerdict(verdicts[-1].text, False, reason, verdicts[-1].step)
    return CheckedWorking(answer, tuple(verdicts))


def _chosen(
    lines: list[_Line], verdicts: list[LineVerdict], last: _Line | None, target: float | None
) -> list[LineVerdict]:
    """In a working whose `last` step reaches the answer (None: none does), a number the student
    chose is no misreading: a part used again below ("15 × 10 = 150, 15 × 6 = 90, … 10 + 6 = 16"
    for the weeks of $15 that make $240), or a try of the step that then reaches it ("15 × 20 =
    300 … 15 × 16 = 240")."""
    if last is None or target is None:
        return verdicts
    reaching = [o for o in last.operands if not _close(o, target)]
    tries = len(reaching) < len(last.operands)  # the answer is one of the last step's numbers

    def chosen(number: int, own: float) -> str | None:
        if any(_close(own, operand) for line in lines[number + 1 :] for operand in line.operands):
            return f"right: {format_float(own)} is a part you chose, used again below"
        others = [o for o in lines[number].operands if not _close(o, own)]
        if tries and reaching and len(others) == len(reaching) and all(map(_close, sorted(others), sorted(reaching))):
            return f"right: a try with {format_float(own)}; the working then finds the answer"
        return None

    out = []
    for number, verdict in enumerate(verdicts):
        why = chosen(number, verdict.own) if verdict.own is not None and lines[number] is not last else None
        out.append(replace(verdict, ok=True, reason=why) if why else verdict)
    return out


def _as_percent(result: float | None, quantities: list[_Quantity]) -> float | None:
    """A result written as a percentage ("= 20%") as the solution has it: 20 where it has 20, not 0.2."""
    if result is None:
        return None
    hundredfold = result * 100
    has = any(_close(hundredfold, q.value) for q in quantities) and not any(_close(result, q.value) for q in quantities)
    return hundredfold if has else result


def _read(working: str, question: str, solved: list[_Quantity]) -> tuple[list[str], str]:
    """The working's non-empty lines (capped) and the question, their numbers as the solution's:
    "1.250 × 4 = 5.000" is a German student's 1250; "450¢ + 325¢" where the question prices in
    dollars is $4.50 and $3.25."""
    texts = [line.strip()[:MAX_LINE_CHARS] for line in working.splitlines() if line.strip()][:MAX_LINES]
    question = question[:20_000]
    if _dot_thousands([*texts, question], solved):
        texts, question = [_undotted(text) for text in texts], _undotted(question)
    major = _MAJOR_MONEY.search(question) if not _MINOR_MONEY.search(question) else None
    if major:
        texts = [_MINOR_AMOUNT.sub(lambda m: f"{major.group(1)}{float(m.group(1)) / 100:g}", text) for text in texts]
    return texts, question


def _clause_values(line: _Line, values: Sequence[float | None], position: int) -> list[list[float | None]]:
    """The values of `line`'s sides, clause by clause (its first side's at `values[position]`). Sides in
    different units ("2 h = 120 min") are a conversion, not arithmetic to compare: none, unless it
    is one of known factor ("10 km = 1000 m": 10 × 1000 against 1000, `_Line.converts`)."""
    found: list[list[float | None]] = []
    for clause, units in zip(line.sides, line.units, strict=True):
        same = len({unit for unit in units if unit}) <= 1
        converted = None if same else _conversion(line.clauses[len(found)], units)
        if converted is not None:
            line.converts = True
        found.append(
            list(converted) if converted else [values[position + n] if same else None for n in range(len(clause))]
        )
        position += len(clause)
    return found


def _last_step(lines: list[_Line], target: float | None, *, timed: bool) -> _Line | None:
    """The line that should reach the answer: the last one that is no check of it ("Check: 6 + 18
    = 24", or a ticked line after one that reached it)."""

    def checks(number: int) -> bool:
        text = lines[number].text
        if _CHECK.match(text):
            return True
        if target is None or not _TICKED.search(text):
            return False
        return any(_reaches(earlier, target, timed=timed) for earlier in lines[:number])

    return next((lines[n] for n in range(len(lines) - 1, -1, -1) if not checks(n)), lines[-1] if lines else None)


def _reaches(line: _Line, target: float, *, timed: bool = False) -> bool:
    """The line ends at the answer: its last number, or that number as a percentage where it is
    written as one ("0.2 = 20%" for the answer 20); a time of day without its am or pm where the
    answer is one (`timed`: 9:35 for 9:35 pm)."""
    result = line.result
    near = line.approximate
    if any(_close(value, target) for value in line.divided):
        return True
    if result is not None and timed and line.clock and _close(result % 720, target % 720):
        return True
    return result is not None and (_close(result, target, near) or (line.percent and _close(result * 100, target)))


@dataclass(frozen=True)
class _Roots:
    letter: str  # the unknown ("x")
    values: tuple[str, ...]  # the solution's values of it, as written ("6", "-2", "4/3")


_ROOT = re.compile(r"-?\d{1,12}(?:\.\d{1,12})?(?:/\d{1,12})?")


def _roots_of(question: str, answer: str | None) -> _Roots | None:
    """The unknown of an equation the question asks to solve, and the answer's values of it."""
    found = UNKNOWN.search(question) if answer and asks_for_equation(question) else None
    letter = re.search(r"[a-z]", found.group()) if found else None
    if answer is None or letter is None:
        return None
    values = tuple(_ROOT.findall(re.sub(rf"\b{letter.group()}\s*=", "", answer[:200])))[:4]
    return _Roots(letter.group(), values) if values else None


# "x = 9", "Let n be the number": a working that names its own unknown (the question writes none)
_NAMED = re.compile(r"^\s*(?:(?i:let)\s+)?([A-Za-z])\s*(?:=|(?i:be)\b)")


def _roots_named(texts: list[str], answer: str | None) -> _Roots | None:
    """The unknown a working names ("3x = x + 18", "2x = 18", "x = 9"), with the solution's answer
    as its value, where that answer is one number."""
    value = answer.strip() if answer else ""
    named = next((found.group(1) for text in texts if (found := _NAMED.match(text))), None)
    return _Roots(named, (value,)) if named and _ROOT.fullmatch(value) else None


def _holds(clauses: list[list[float | None]]) -> bool:
    """Every clause's sides are one value (and some clause has two sides to compare)."""
    known = [[v for v in clause if v is not None] for clause in clauses]
    return any(len(c) >= 2 for c in known) and all(all(_close(v, c[0]) for v in c[1:]) for c in known)


def _at_roots(line: _Line, roots: _Roots | None) -> list[list[list[str | None]]]:
    """The line's sides, clause by clause, with the unknown given each of its values ([] when the
    line does not name the unknown)."""
    if roots is None or not any(re.search(rf"(?<![A-Za-z]){roots.letter}(?![A-Za-z])", c) for c in line.clauses):
        return []
    return [
        [[_expression(side, (roots.letter, value)) for side in clause.split("=")] for clause in line.clauses]
        for value in roots.values
    ]


def _algebra_verdict(verdict: LineVerdict, sides: list[list[list[float | None]]], roots: _Roots) -> LineVerdict:
    """A line of algebra ("3x = 18") is right where it holds for a value of the solution's, wrong
    where it holds for none (its written arithmetic judged as before)."""
    for value, clauses in zip(roots.values, sides, strict=True):
        if _holds(clauses):
            return LineVerdict(verdict.text, True, f"true for {roots.letter} = {value}, the solution", None)
    if verdict.reason.startswith("arithmetic slip"):
        return verdict
    values = " or ".join(roots.values)
    return LineVerdict(verdict.text, False, f"not true for {roots.letter} = {values}, the solution", None)


def _rejoined(lines: list[_Line], verdicts: list[LineVerdict]) -> list[LineVerdict]:
    """A step off the solution's route that a later line on it builds on is right (3 + 4 = 7 eggs
    used, then 16 - 7 = 9 left, the solution's value): a slip after it is the line to look at —
    also where the slip is in that later line (60 × 2 = 120, 60 × 0.5 = 30, then 120 + 30 = 160
    where 150 is the answer)."""
    on_route = [v.step is not None for v in verdicts]  # the line's own arithmetic lands on the solution
    for n in reversed(range(len(verdicts))):
        result = lines[n].result
        if verdicts[n].off_route and result is not None:
            used = any(
                on_route[j] and any(_close(result, op) for op in lines[j].operands) for j in range(n + 1, len(lines))
            )
            if used:
                verdicts[n] = replace(verdicts[n], ok=True, reason="right, by another route than the solution's")
                on_route[n] = True
    return verdicts


@dataclass(frozen=True)
class RedoneArithmetic:
    """Reasoning's written calculations, checked: the ones that are wrong ("16 × 3 = 46 (that is
    48)"), and its answer with every calculation redone and each corrected value carried into the
    later lines that used the wrong one (None: no slip, or the answer is not a value it calculated)."""

    slips: tuple[str, ...] = ()
    answer: float | None = None


def arithmetic_slips(reasoning: str, sandbox: Sandbox) -> tuple[str, ...]:
    """The statements of `reasoning` whose written arithmetic is wrong (`redo_arithmetic`)."""
    return redo_arithmetic(reasoning, None, sandbox).slips


def redo_arithmetic(reasoning: str, answer: str | None, sandbox: Sandbox) -> RedoneArithmetic:
    """The statements of `reasoning` (chain of thought's, or anyone's prose) whose written
    arithmetic is wrong, and its `answer` with the arithmetic redone — evaluated in the sandbox in
    one run. Only a calculation is judged: an operator on the left of "=", a value or a calculation
    on its right ("2 hours 30 minutes = 150 minutes" and "x = 5" are not calculations); a whole
    number for a division that is not whole is a count, not a slip. Small models slip most on large
    numbers, where programs do not; redone, their reasoning is often a program's (docs/results.md)."""
    texts = [line.strip()[:MAX_LINE_CHARS] for line in reasoning.splitlines() if "=" in line][:MAX_LINES]
    claims: list[tuple[str, str, str, int]] = []  # (the calculation as written, its left, its right, decimals cut)
    for text in texts:
        for clause in _CLAUSES.split(_plain(text)):
            sides = clause.split("=")
            for left, right in itertools.pairwise(sides):
                calculation, value = _written_out(left, left=True), _written_out(right, left=False)
                if calculation is not None and value is not None:
                    written = _SENTENCE_END.split(right, maxsplit=1)[0].strip()
                    said = f"{_SENTENCE_START.split(left)[-1].strip()} = {written}"
                    going_on = _CUT_SHORT.match(right)
                    claims.append((said, calculation, value, len(going_on.group(1)) if going_on else -1))
    claims = claims[: MAX_EXPRESSIONS // 2]
    if not claims:
        return RedoneArithmetic()
    code = _REDO + f"redone = _redo({[(left, right) for _, left, right, _ in claims]!r})\n"
    found = sandbox.run(code, time_s=5.0, capture=("redone",)).values.get("redone")
    rows = found.json if found is not None and isinstance(found.json, list) else []
    slips, redone = [], None
    stated = number_in(answer) if answer else None
    for (text, _, _, cut), row in zip(claims, rows, strict=False):
        written, exact, carried = (_finite(v) for v in (row if isinstance(row, list) and len(row) == 3 else [None] * 3))
        if written is None or exact is None:
            continue
        if stated is not None and carried is not None and _close(written, stated):
            redone = carried  # the last calculation that wrote the answer
        if _close(written, exact) or (written.is_integer() and not exact.is_integer() and abs(written - exact) < 1):
            continue  # right, or 17 / 5 = 3 full boxes
        if cut >= 0 and abs(written - exact) < 10**-cut:
            continue  # "8 / 3 = 2.666...": its digits, cut off rather than rounded
        slips.append(f"{text} (that is {format_float(exact)})")
    return RedoneArithmetic(tuple(dict.fromkeys(slips)), redone if slips else None)


# Run in the sandbox: each claim's written value, its calculation as written, and its calculation
# with the corrected value of every earlier wrong result in place of the wrong one. The closeness
# rule is `_close`'s (the sandbox cannot import the app); the claims hold only digits, operators
# and brackets.
_REDO = """
import re
def _close(a, b):
    if abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12):
        return True
    text = repr(a)
    decimals = len(text.split('.')[1]) if '.' in text and 'e' not in text and not a.is_integer() else 0
    return decimals > 0 and abs(a - b) <= 0.5 * 10 ** -decimals + 1e-12
def _value(text):
    try:
        return float(eval(text, {'__builtins__': {}}))
    except Exception:
        return None
def _redo(claims):
    fixes, out = [], []
    def fixed(match):
        number = float(match.group())
        return next(('(' + repr(right) + ')' for wrong, right in fixes if _close(number, wrong)), match.group())
    for left, right in claims:
        written, exact = _value(right), _value(left)
        carried = _value(re.sub(r'\\d+(?:\\.\\d+)?|\\.\\d+', fixed, left)) if fixes else exact
        if None in (written, exact, carried):
            out.append([written, exact, None])
            continue
        if written.is_integer() and not exact.is_integer() and abs(written - exact) < 1:
            carried = carried // 1 if written < exact else -(-carried // 1)  # counted as it counted: 17 / 5 = 3 boxes
        out.append([written, exact, carried])
        if not _close(written, carried):
            fixes.append((written, carried))
    return out
"""


def _finite(value: object) -> float | None:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if number and math.isfinite(value) else None  # type: ignore[arg-type]


_SENTENCE_START = re.compile(r"[.;:!?]\s")
_SENTENCE_END = re.compile(r"[,;:!?](?:\s|$)|\.(?:\s|$)|\s(?:and|so|which|because|for|per|each)\s", re.I)


def _written_out(side: str, *, left: bool) -> str | None:
    """One side of "=" as arithmetic. Of a left side its end ("She sells 16 - 3 - 4"), which must
    calculate; of a right side its first phrase ("9 duck eggs. She makes …"), every number in it."""
    text = side if left else _SENTENCE_END.split(side, maxsplit=1)[0]
    expression = _expression(text)
    if expression is None or (left and _WORD_OPERAND.search(text)):
        return None
    if left:
        return expression if any(op in expression.lstrip("(-") for op in "+-*/") else None
    return expression if len(_NUMBER.findall(expression)) == len(_NUMBER.findall(text)) else None


def _digits(text: str) -> str:
    """Numbers as Python writes them: 80,000 and 80 000 → 80000, 2,50 → 2.50."""
    grouped = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\s", "", m.group()), text)
    return _DECIMAL_COMMA.sub(".", _THOUSANDS.sub("", grouped))


def _plain(text: str, pi: str = repr(math.pi)) -> str:
    # Markdown bold is not a power: "**Step 2:** 16 - 3 = 13" was read as 2**16 - 3, "2. **12 x 2 = 24**"
    # as 2.**12 * 2 (a slip, "that is 8192"), and "**Divisor 1**: 24" is not "1 : 24", a ratio.
    plain = _digits(_BULLET.sub("", MARKDOWN_BOLD.sub("", text)))
    if _MINOR_MONEY.search(plain):  # "$3 = 300 cents", "270¢ = $2.70": a conversion of units
        plain = _MAJOR_MONEY.sub(lambda m: f"{m.group(2)} {_MONEY_NAMES[m.group(1)]}", plain).replace("¢", " cents")
    plain = plain.replace("$", "").replace("€", "").replace("£", "")
    plain = _APPROXIMATE.sub("=", plain)  # "≈": an "=" that `_Line.approximate` loosens
    plain = _HYPHENATED.sub(" ", plain)  # "one-third", "x-ray": a word, not a minus
    plain = _UNIT_POWER.sub(r"\1", _RATIO.sub(" / ", _STEP_NOTE.sub("", plain)))
    plain = _REMAINDER.sub(r"\1 = \2 * \3 + \4", plain)
    plain = _POR.sub(" * ", _WORDED.sub(lambda m: _WORDED_AS[m.group(1).lower()], plain))
    plain = _VULGAR_FRACTION.sub(lambda m: f"({m.group(1) and m.group(1) + '+'}{_VULGAR[m.group(2)]})", plain)
    plain = _MIXED.sub(r"(\1+\2)", plain)
    plain = _ROOT_OF.sub(lambda m: f"({m.group(1) or m.group(2)})^0.5", plain)
    plain = _DOZEN.sub(lambda m: "(12)" if m.group(1).isalpha() else f"({m.group(1)}*12)", plain)
    plain = _HOURS_MINUTES.sub(r"(\1*60+\2) min", _DEGREES.sub(" ", plain))
    if _CLOCK.search(plain):  # a clock is read in minutes, so are the hours added to it
        plain = _HOURS.sub(r"(\1*60) min", plain)
    plain = _CLOCK.sub(lambda m: f"({_minutes(m):g})", plain)
    plain = _PERCENT_ON.sub(r"(\1 \2 \1 * \3)", plain)
    plain = _PI_AFTER.sub(" * π", plain).replace("π", f"({pi})")  # "2π", "π × 9"
    plain = _PER.sub(" per ", plain)
    plain = _PART_OF.sub(r"(\1) *", plain)  # "1/4 of 20", "0.25 of 80": times
    plain = _FRACTION.sub(r"(\1)", plain)
    plain = _HALF_OF.sub(lambda m: _PARTS[m.group(1).lower()], plain)  # "half of 20 = 10"
    plain = re.sub(r"(?<=\d) %", "%", plain)  # "25 %", as German and French write it
    return re.sub(r"%\s*(?:of|von|de)\b", "% *", plain)


def _dot_thousands(texts: list[str], solved: list[_Quantity]) -> bool:
    """The texts write thousands with dots (1.250, 5.000): a number so written is, without its
    dots, a number the solution has, and is not one as a decimal."""
    dotted = {found.group() for text in texts for found in _DOTTED.finditer(text)}
    values = [q.value for q in solved]
    return any(
        any(_close(float(d.replace(".", "")), v) for v in values) and not any(_close(float(d), v) for v in values)
        for d in dotted
    )


def _undotted(text: str) -> str:
    return _DOTTED.sub(lambda found: found.group().replace(".", ""), text)


def _minutes(clock: re.Match[str]) -> float:
    hour, half = int(clock.group(1)), (clock.group(3) or "").lower()
    if half and 1 <= hour <= 12:  # 12:15 am is 0:15, 2:30 pm 14:30
        hour = hour % 12 + (12 if half == "p" else 0)
    return hour * 60 + int(clock.group(2))


def _shares(question: str) -> list[_Quantity]:
    """A percentage of the question of each of its other numbers ("rises by 25%" of $120: 30), a
    step a student takes where the solution multiplies by 1.25 at once."""
    text = _digits(question)
    percents = [float(p) for p in _PERCENT.findall(text)][:5]
    numbers = [float(n) for n in _NUMBER.findall(_PERCENT.sub(" ", text))][:20]
    return [_Quantity(n * p / 100, f"{format_float(p)}% of {format_float(n)}") for p in percents for n in numbers]


def _given(question: str) -> tuple[list[float], list[float]]:
    """The numbers `question` gives: in digits, a percentage also as its share (150% → 1.5), a
    number with a fraction also as its whole and its part (2.5 hours: 2 hours and 0.5), in words
    ("three", "a dozen", "half"); and apart, those its words imply (`_IMPLIED`: 24 for "a day")."""
    text = _digits(question)
    written = [float(n) for n in _NUMBER.findall(text)]
    parts = [p for n in written if not n.is_integer() for p in (float(int(n)), round(n - int(n), 9))]
    numbers = written + parts + [float(n) / 100 for n in _PERCENT.findall(text)]
    for word in (found.lower() for found in _GIVEN_WORD.findall(text)):
        numbers += [float(NUMBER_WORDS[word])] if word in NUMBER_WORDS else [float(f) for f in _FACTORS[word]]
    implied = {(found.group(1) or "%").lower() for found in _IMPLYING.finditer(text)}
    whole = [1.0] if _WHOLE.search(text) else []  # "1 - 3/4 = 1/4": what a part is a part of
    for clock in _CLOCK.finditer(text):  # 5:30 pm as 17:30 or 5:30, 2:30 as 14:30 too: said either way
        numbers += [_minutes(clock) % 720, _minutes(clock) % 720 + 720]
    numbers += [int(h) * 60 + int(m) for h, m in _HOURS_MINUTES.findall(text)]  # 1 hour 50 minutes: 110, "1:50"
    return numbers + whole, [float(n) for word in implied for n in _IMPLIED[word]]


def _literals(program: str | None) -> list[float]:
    """The numbers the solution's program writes (`* 2`, `/ 100`): a student may use them too."""
    nodes = program_nodes(program)
    return [
        float(node.value)
        for node in nodes
        if isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
        and abs(node.value) < 1e15
    ]


def _spelled_out(text: str) -> str:
    """A line without a digit with its numbers in digits ("twenty-four minus eighteen is six" →
    "24 minus 18 is 6", "two thirds of thirty" → "(2/3) of 30"); any other line as it is."""
    if any(c.isdigit() for c in text):
        return text

    def digits(found: re.Match[str]) -> str:
        total = current = last = 0
        for word in re.split(r"[\s-]+", found.group().lower()):
            if word == "hundred":
                current, last = max(current, 1) * 100, 0
            elif word == "thousand":
                total, current, last = total + max(current, 1) * 1000, 0, 0
            elif word in NUMBER_WORDS:
                if last and not (last in _TENS and NUMBER_WORDS[word] < 10):
                    return found.group()  # "fifty-fifty", "six eighteen": not one number
                current, last = current + NUMBER_WORDS[word], NUMBER_WORDS[word]
        part = found.group(1)
        return f"({total + current}/{_DENOMINATORS[part.lower()]})" if part else str(total + current)

    return _SPELLED_NUMBER.sub(digits, text)


def _parse(line: str, pi: str = repr(math.pi)) -> _Line:
    spelled = _spelled_out(line)
    if "=" not in spelled:  # "24 minus 18 is 6": the "is" of a calculation is its "="
        spelled = _WORDED_EQUALS.sub(r"\1 = ", spelled, count=1)
    head, equals, tail = spelled.rpartition("=")  # "She gets 29 back (50 − 21).", "price = $60 ($80 − $20)"
    spelled = head + equals + _RESULT_THEN_SUM.sub(r"\2 \3 = \1", tail)
    text = _ABOUT.sub("≈", _LABEL.sub("", spelled, count=1))
    plain = _plain(text, pi)
    clauses = [
        part for c in _CLAUSES.split(plain) if c.strip() for step in _and_split(c) for part in _comma_split(step)
    ]
    sides = [_percent_as_written([_expression(side) for side in clause.split("=")]) for clause in clauses]
    units = [[_unit(side) for side in clause.split("=")] for clause in clauses]
    timed = _CLOCK.sub(lambda m: f"{_minutes(m):g}", _digits(text))  # 17:30 is 1050 minutes
    written = [c for c in _CLAUSES.split(timed) if c.strip()]  # not "half of" as (1/2) *
    first = _APPROXIMATE.sub("=", written[0]).split("=")[0] if written else ""
    operands = [_value(n) for n in re.findall(r"\d+(?:\.\d+)?%?|\.\d+%?", first)]
    stated = collections.deque(_RESULT.finditer(plain), maxlen=1)
    result = (-1 if stated[0].group(1) else 1) * _value(stated[0].group(2)) if stated else None
    percent = bool(stated) and stated[0].group(2).endswith("%")
    approximate = _APPROXIMATE.search(text) is not None
    remainder = _REMAINDER.search(_digits(text))
    divided = (float(remainder[3]), float(remainder[4])) if remainder else ()
    clock = text.rsplit("=", 1)[-1].strip()[:20] if "=" in text and _CLOCK.search(text) else ""
    return _Line(
        line, sides, units, clauses, operands if "=" in plain else [], result, percent, approximate, divided, clock
    )


def _percent_as_written(sides: list[str | None]) -> list[str | None]:
    """A clause's sides, a lone percentage as its number where another side is times 100
    ("(60 − 50) / 50 × 100 = 20%": the % names the 20, it does not divide it)."""
    if not any(side is not None and side.endswith("*100") for side in sides):
        return sides
    return [lone.group(1) if side and (lone := _LONE_PERCENT.fullmatch(side)) else side for side in sides]


_AND = re.compile(r"\s(?:and|und|et|y|e)\s", re.I)


def _and_split(clause: str) -> list[str]:
    """Two steps joined by "and" ("3 × 6 = 18 and 24 − 18 = 6"), where each part has its "=";
    else the clause as it is ("3 and 4 = 7" is one sum)."""
    parts = _AND.split(clause)
    return parts if len(parts) > 1 and all("=" in part for part in parts) else [clause]


# Units a student converts between, each in a base unit of its kind (metres, grams, millilitres,
# seconds, cents): "3 km = 3000 m" is checked as 3 × 1000 = 3000
_IN_BASE: dict[str, tuple[str, float]] = {
    **dict.fromkeys(("km", "kilometer", "kilometers", "kilometre", "kilometres"), ("m", 1000.0)),
    **dict.fromkeys(("m", "meter", "meters", "metre", "metres"), ("m", 1.0)),
    **dict.fromkeys(("cm", "centimeter", "centimeters", "centimetre", "centimetres"), ("m", 0.01)),
    **dict.fromkeys(("mm", "millimeter", "millimeters", "millimetre", "millimetres"), ("m", 0.001)),
    **dict.fromkeys(("kg", "kilogram", "kilograms", "kilo", "kilos"), ("g", 1000.0)),
    **dict.fromkeys(("g", "gram", "grams"), ("g", 1.0)),
    **dict.fromkeys(("l", "liter", "liters", "litre", "litres"), ("ml", 1000.0)),
    **dict.fromkeys(("ml", "milliliter", "milliliters", "millilitre", "millilitres"), ("ml", 1.0)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("s", 3600.0)),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), ("s", 60.0)),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("s", 1.0)),
    **dict.fromkeys(("day", "days"), ("s", 86400.0)),
    **dict.fromkeys(("week", "weeks"), ("s", 604800.0)),
    **dict.fromkeys(("dollars", "euros", "pounds"), ("cents", 100.0)),
    **dict.fromkeys(("cents", "p", "pence"), ("cents", 1.0)),
}
_MEASURE = re.compile(r"\s*\(?(\d+(?:\.\d+)?)\)?\s*[A-Za-z]{1,20}\s*")  # one number and its unit: "3 km"


def _conversion(clause: str, units: list[str]) -> tuple[float, float] | None:
    """Where a clause converts one number between two units of a kind ("3 km = 3000 m"): the first
    number in the second's unit (3000) and the second number; else None."""
    sides = clause.split("=")
    measures = [_MEASURE.fullmatch(side) for side in sides]
    if len(sides) != 2 or len(units) != 2 or not all(measures):
        return None
    left, right = _IN_BASE.get(units[0]), _IN_BASE.get(units[1])
    if left is None or right is None or left[0] != right[0]:
        return None
    first, second = (float(measure.group(1)) for measure in measures if measure)
    return first * left[1] / right[1], second


def _comma_split(clause: str) -> list[str]:
    """Two steps after a number and a comma ("2 * 3 = 6, 4 * 5 = 20"), where each part has its "=";
    else the clause as it is ("add 4, 6 and 8 = 18" is one sum)."""
    parts = _STEP_COMMA.split(clause)
    return parts if len(parts) > 1 and all("=" in part for part in parts) else [clause]


_STEP_COMMA = re.compile(r"(?<=\d),\s+")


def _unit(side: str) -> str:
    """The side's last word, taken as its unit ("2 h" → "h", "3 boxes × 6" → "boxes")."""
    words = re.findall(r"[A-Za-z]{1,20}", side[-40:])
    return words[-1].lower() if words else ""


def _value(number: str) -> float:
    return float(number.rstrip("%")) / (100 if number.endswith("%") else 1)


def _expression(side: str, unknown: tuple[str, str] | None = None) -> str | None:
    """One side of an "=" as arithmetic ("3 boxes × 6" → "3*6", "25%" → "(25/100)"); None when it
    holds an unknown ("3x", "x") or no number at all. `unknown`: a letter and the value it is
    given ("3x" with ("x", "6") → "3*(6)")."""
    parts: list[str] = []
    tokens = _TOKEN.findall(side)
    worded = False  # words since the last operator: a number after them starts a new sum
    for n, token in enumerate(tokens):
        following = tokens[n + 1] if n + 1 < len(tokens) else ""
        if token[0].isdigit() or token[:2].lstrip(".")[:1].isdigit():  # "12", ".5"; not a full stop
            if parts and (worded or parts[-1][-1:].isdigit() or parts[-1] == ")"):
                # "5 bagels cost 5 * 3", "at 3 miles/hour, he spends 15 / 3": the sum starts here
                parts = []
            parts.append(f"({token[:-1]}/100)" if token.endswith("%") else token)
            worded = False
        elif token in _OPERATOR:
            parts.append(_OPERATOR[token])
            worded = False
        elif token in ("x", "X") and parts and _numeric(parts[-1][-1:]) and (_numeric(following) or following == "("):
            parts.append("*")  # "3 x 6", "3 boxes x 6": times (a student's keyboard has no ×)
            worded = False
        elif unknown is not None and token == unknown[0]:
            parts += ["*", f"({unknown[1]})"] if parts and _numeric(parts[-1][-1:]) else [f"({unknown[1]})"]
            worded = False
        elif _VARIABLE.match(token):
            return None  # an unknown: algebra, not arithmetic
        elif token[0].isalpha():
            worded = True
    expression = "".join(parts).strip("*/+")
    if not any(ch.isdigit() for ch in expression) or "***" in expression or expression.count("**") > 1:
        return None
    return expression


def _numeric(token: str) -> bool:
    return token[:1].isdigit() or token[:1] in (".", ")")


def _evaluate(
    expressions: list[str | None], program: str | None, sandbox: Sandbox
) -> tuple[list[float | None], list[float]]:
    """Each expression's value (None: not arithmetic, or it did not evaluate), and the values of
    the program's own sub-expressions (2 * 60 in `minutes = 2 * 60 + 15`), computed in the sandbox
    in one run. The student's expressions hold only digits, operators and brackets."""
    wanted = [e for e in expressions if e is not None][:MAX_EXPRESSIONS]
    parts = _parts(program)
    if not wanted and not parts:
        return [None] * len(expressions), []
    code = (
        (program + "\n" if parts and program else "") + "def _values(texts, names):\n"
        "    out = []\n"
        "    for text in texts:\n"
        "        try:\n"
        "            out.append(float(eval(text, names)))\n"
        "        except Exception:\n"
        "            out.append(None)\n"
        "    return out\n"
        f"checked = _values({wanted!r}, {{'__builtins__': {{}}}})\n"
        f"parts = _values({parts!r}, dict(globals()))\n"
    )
    result = sandbox.run(code, time_s=5.0, capture=("checked", "parts"))
    found = [result.values.get(name) for name in ("checked", "parts")]
    lists = [v.json if v is not None and isinstance(v.json, list) else [] for v in found]
    numbers = iter(v if isinstance(v, int | float) and math.isfinite(v) else None for v in lists[0])
    values = [next(numbers, None) if expression is not None else None for expression in expressions]
    return values, [float(v) for v in lists[1] if isinstance(v, int | float) and math.isfinite(v)]


def _parts(program: str | None) -> list[str]:
    """The program's arithmetic sub-expressions as source text (parsed with working's caps)."""
    nodes = program_nodes(program)
    texts = (ast.get_source_segment(program or "", node) for node in nodes if isinstance(node, ast.BinOp))
    return list(dict.fromkeys(t for t in texts if t and len(t) <= 200))[:MAX_EXPRESSIONS]


def _quantities(
    steps: Sequence[WorkingStep], variables: dict[str, CapturedValue], answer: str | None
) -> list[_Quantity]:
    """What the solution computed, the answer and the later steps first: a value a given number
    also has (6 boxes, 6 muffins left) matches the step that computed it."""
    found = []
    value = number_in(answer) if answer else None
    if value is not None:
        found.append(_Quantity(value, f"the answer, {format_float(value)}"))
    for step in reversed(steps):
        value = number_in(step.value) if len(step.value) < 100 else None
        if value is not None:
            found.append(_Quantity(value, f"program line {step.line}: {step.text} → {step.value}"))
    for name, captured in reversed(variables.items()):
        data = captured.json
        if isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data):
            found.append(_Quantity(float(data), f"{name} = {format_float(float(data))}"))
    return found


def _verdict(
    line: _Line,
    clause_values: list[list[float | None]],
    quantities: list[_Quantity],
    known: list[float],
    given: list[float],
) -> LineVerdict:
    for clause in clause_values:
        numbers = [v for v in clause if v is not None]
        if any(not _close(v, numbers[0], line.approximate) for v in numbers[1:]):
            left, right = numbers[0], numbers[-1]
            meant = next((q.step for q in quantities if _close(left, q.value)), None)
            reason = f"arithmetic slip: that is {format_float(left)}, not {format_float(right)}"
            if line.converts:
                reason = f"unit slip: that is {format_float(left)}, not {format_float(right)}"
            if line.clock:  # "7:45 + 1:50 = 8:95": in minutes, said as a time
                reason = f"arithmetic slip: that is {int(left // 60)}:{int(left % 60):02d}, not {line.clock}"
            return LineVerdict(line.text, False, reason, meant)
    result = line.result
    if result is None:
        return LineVerdict(line.text, True, "no number to check", None)
    copied = [n for n in line.operands if not any(_close(n, k) for k in known + [q.value for q in quantities])]
    match = next((q for q in quantities if _close(result, q.value, line.approximate)), None)
    if copied and match is None:
        why = f"{format_float(copied[0])} is not a number of the question or of an earlier step"
        return LineVerdict(line.text, False, why, None, own=copied[0])
    if match is not None:
        return LineVerdict(line.text, True, "right", match.step)
    if any(_close(result, g, line.approximate) for g in given):
        return LineVerdict(line.text, True, "a number the question gives", None)
    return LineVerdict(line.text, False, f"no step of the solution has {format_float(result)}", None, off_route=True)


def _close(student: float, exact: float, approximate: bool = False) -> bool:
    """Equal, or equal to the decimals the student wrote (3.33 for 10/3); `approximate` ("≈ 27" for
    26.97): equal rounded to the student's last digit, whole numbers too."""
    if abs(student - exact) <= RELATIVE_TOLERANCE * max(abs(student), abs(exact), 1e-12):
        return True
    text = repr(student)
    decimals = len(text.split(".")[1]) if "." in text and "e" not in text and not student.is_integer() else 0
    return (decimals > 0 or approximate) and abs(student - exact) <= 0.5 * 10**-decimals + 1e-12
