"""The big answer as a person writes it: "$66.00" when the question is about dollars, "160.02 cm" when
it asks for centimetres, "25%" when it asks what percent. Only the display: the answer itself (what
is graded, stored and copied as the number) stays a number.

The question is the user's own text; the patterns are anchored on words and read it once.
"""

from __future__ import annotations

import re

from app.reasoning.answer_kind import PERCENT_ASKED
from app.reasoning.numbers import MAX_NUMBER_TEXT

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_MONEY = re.compile(r"\$\s?\d|\bdollars?\b|\bUSD\b", re.IGNORECASE)
# What the question asks (its last sentence) is about money: "how much did she spend", "what is
# the total cost" — not "how many apples can she buy" in a question that mentions $5.
_ASKS_MONEY = re.compile(
    r"\bhow\s+much\b|\bcosts?\b|\bprice\b|\bearn|\bspen[dt]|\bpa(?:y|id)\b|\bprofit|\bmoney\b|\bdollars?\b"
    r"|\bsav(?:e|ed|ings)\b|\bchange\b|\bworth\b|\bbudget\b|\bfee\b|\bwage|\bsalary\b",
    re.IGNORECASE,
)
_COUNT = re.compile(r"\bhow\s+many\b(?!\s+dollars)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)")
# Units a measurement is asked in: "how many cm", "in kilometers", "how tall … in centimetres".
_UNITS = {
    "mm": "mm", "millimeters": "mm", "millimetres": "mm",
    "cm": "cm", "centimeters": "cm", "centimetres": "cm",
    "m": "m", "meters": "m", "metres": "m",
    "km": "km", "kilometers": "km", "kilometres": "km",
    "inches": "inches", "feet": "feet", "yards": "yards", "miles": "miles",
    "g": "g", "grams": "g", "kg": "kg", "kilograms": "kg", "pounds": "pounds", "ounces": "ounces",
    "ml": "ml", "milliliters": "ml", "millilitres": "ml", "liters": "liters", "litres": "litres",
    "gallons": "gallons", "seconds": "seconds", "minutes": "minutes", "hours": "hours", "days": "days",
    "weeks": "weeks", "years": "years", "mph": "mph", "km/h": "km/h",
}  # fmt: skip
_ASKED_UNIT = re.compile(
    r"\b(?:how\s+many|in)\s+(" + "|".join(re.escape(unit) for unit in sorted(_UNITS, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def dressed(answer: str, question: str) -> str:
    """`answer` with the money sign, percent sign or unit the question asks for; any other answer
    (text, a fraction, a list) as it is."""
    number = answer.strip()
    if not _NUMBER.fullmatch(number) or len(question) > MAX_NUMBER_TEXT * 20:
        return answer
    if PERCENT_ASKED.search(question):
        return f"{number}%"
    unit = _ASKED_UNIT.search(question)
    if unit:
        return f"{number} {_UNITS[unit.group(1).lower()]}"
    asked = _SENTENCE_END.split(question.strip())[-1] if question.strip() else ""
    if _MONEY.search(question) and _ASKS_MONEY.search(asked) and not _COUNT.search(asked):
        value = float(number)
        sign = "-" if value < 0 else ""
        return f"{sign}${abs(value):,.2f}"
    return answer


# Anything a calculation needs: a digit, a number word, or the words of a quantity or an equation.
_CALCULATION = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty"
    r"|hundred|thousand|million|half|twice|double|triple|dozen|percent|quarter|third)\b"
    r"|\b(?:how\s+many|how\s+much|how\s+long|how\s+far|how\s+old|calculate|compute|solve|equation|sum|product"
    r"|average|mean|median|ratio|fraction|probability|area|volume|perimeter|speed|rate|total|difference"
    r"|multiply|divide|plus|minus|times|squared|root|derivative|integral|factor|prime|percentage)\b|[=+*/^]",
    re.IGNORECASE,
)


def needs_calculation(question: str) -> bool:
    """Whether the question has anything to calculate with ("Who wrote Hamlet?" has not)."""
    return bool(_CALCULATION.search(question[: MAX_NUMBER_TEXT * 20]))
