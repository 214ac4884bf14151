"""A GSM-Hard-style set: GSM8K items with one of the question's numbers made large, the answer
recomputed through the item's own annotated calculation chain (`<<16-3-4=9>>`).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/make_large_numbers.py OFFSET COUNT > tests/data/large_numbers.jsonl
    PYTHONPATH=. .venv/bin/python tests/benchmarks/make_large_numbers.py 0 18 --blind --negative \
        > tests/data/large_numbers_blind.jsonl

One number of the question (one that appears exactly once in it and feeds the first calculation)
is multiplied by a factor of 1,000s; every later calculation is redone with the changed values
carried along, exactly (fractions). An item is left out when the change is ambiguous — the number
or a changed result also stands for something else — when a result that was whole is no longer
whole or a count goes negative, or when the worked answer has a calculation without its
annotation. Lines are written as the evaluator reads them: "question", and an "answer" ending in
"#### gold". The items kept were read by hand (docs/results.md says how many).

`--blind` keeps what GSM-Hard kept: a change that makes a count negative or a whole result a part
of one (GSM-Hard's first item: Janet bakes muffins with 4933828 of her 16 eggs, gold -9867630).
`--negative` writes only the items whose gold is below zero.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from fractions import Fraction
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "gsm8k_test.jsonl"
FACTORS = (1237, 2461, 3719, 4093, 5281, 6007, 7193, 8039)  # large, and no round numbers to guess
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_CALC = re.compile(r"<<([^=<>]{1,200})=([^<>]{1,60})>>")
_NUMBER = re.compile(r"(?<![\d.,])(?:\d+(?:\.\d+)?|\.\d+)(?!\d|\.\d)")


def _value(node: ast.expr) -> Fraction:
    """Arithmetic of numbers only, exactly (the dataset's own annotations; nothing else evaluates)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return Fraction(str(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand)
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div) and right != 0:
            return left / right
    raise ValueError("not plain arithmetic")


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else format(float(value), ".10g")


def scaled(question: str, solution: str, factor: int, blind: bool = False) -> tuple[str, str] | None:
    """(question, gold) with one number made `factor` times larger, or None when that is unsafe
    (or, unless `blind`, when it makes the question one no one would ask)."""
    calcs = _CALC.findall(solution.replace(",", ""))
    gold = solution.rsplit("####", 1)[-1].strip().replace(",", "")
    if not calcs:
        return None
    question = re.sub(r"(?<=\d),(?=\d{3})", "", question)  # 1,000 → 1000
    given = _NUMBER.findall(question)
    first = _NUMBER.findall(calcs[0][0])
    values = [Fraction(n) for n in given]
    chosen = next((n for n in first if n in given and values.count(Fraction(n)) == 1 and Fraction(n) >= 2), None)
    if chosen is None:
        return None
    old, new = Fraction(chosen), Fraction(chosen) * factor
    changed = {old: new}
    words = re.findall(r"[a-z]+", question.lower())
    others = {v for v in values if v != old} | {Fraction(WORDS.index(w)) for w in words if w in WORDS}
    if solution.count("=") > 2 * len(calcs):
        return None  # a calculation without its annotation ("44+4 = 48"): the chain cannot be carried
    for expression, result in calcs:
        try:
            before = _value(ast.parse(expression.replace("x", "*"), mode="eval").body)
            stated = Fraction(result.strip().rstrip("%").lstrip("$"))
        except (SyntaxError, ValueError, ZeroDivisionError):
            return None
        if before != stated:
            return None  # the annotation is not its own arithmetic: nothing to carry along
        swapped = _NUMBER.sub(lambda m: _number_text(changed.get(Fraction(m.group()), Fraction(m.group()))), expression)
        after = _value(ast.parse(swapped.replace("x", "*"), mode="eval").body)
        if after == before and before in changed:
            return None  # an unchanged result equals a changed one: later steps cannot tell them apart
        if after != before:
            if before in others or (before in changed and changed[before] != after):
                return None  # a changed result equals another quantity: which one a later step means is unknown
            if not blind and ((before.denominator == 1 and after.denominator != 1) or (before >= 0 > after)):
                return None
            changed[before] = after
    if Fraction(gold) not in changed:
        return None
    text = re.sub(rf"(?<![\d.,]){re.escape(chosen)}(?!\d|\.\d)", str(new.numerator), question, count=1)
    return text, _number_text(changed[Fraction(gold)])


def main() -> None:
    offset, count = int(sys.argv[1]), int(sys.argv[2])
    blind, negative = "--blind" in sys.argv, "--negative" in sys.argv
    made = 0
    for index, line in enumerate(DATA.read_text(encoding="utf-8").splitlines()):
        if index < offset or made >= count:
            continue
        item = json.loads(line)
        result = scaled(item["question"], item["answer"], FACTORS[index % len(FACTORS)], blind)
        if result is None or (negative and not result[1].startswith("-")):
            continue
        question, gold = result
        print(json.dumps({"question": question, "answer": f"#### {gold}", "source_index": index}))
        made += 1


if __name__ == "__main__":
    main()
