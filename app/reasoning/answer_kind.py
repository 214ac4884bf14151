"""The kind of answer a question asks for — a fraction, a percentage, one of its options — and
whether an answer is of that kind.

Seen in the window: "Welcher Anteil der Pizza bleibt übrig?" (7 of 12 slices left) was answered 7
by all three methods and shown as confident. An answer of the wrong kind is never confident
(`Solution.confidence`), and a fraction asked for is given as one (7/12, not 0.5833333333).

The question is the user's own text: the patterns are anchored on words and read a capped prefix
once; answers are read only when short (MAX_NUMBER_TEXT).
"""

from __future__ import annotations

import collections
import enum
import math
import re
from fractions import Fraction

from app.reasoning.choices import choices_in, matching_choice, stated_choice
from app.reasoning.numbers import (
    LEADING_ARTICLE,
    MAX_NUMBER_TEXT,
    NUMBER_WORDS,
    listed_values,
    number_in,
    one_number,
    vote_key,
    written_list,
)
from app.reasoning.short_answer import LONG_CHARS

_QUESTION_CHARS = MAX_NUMBER_TEXT * 20
_FRACTION = re.compile(
    r"\bwhat\s+(?:fraction|part|portion|share)\b(?!-)|\bwhich\s+(?:fraction|part|share)\b(?!-)|\bas\s+an?\s+(?:fraction|ratio)\b"
    r"|\bin\s+(?:simplest|lowest)\s+(?:form|terms)\b|\bwhat\s+fractional\b"
    r"|\bwelche[rnms]?\s+(?:anteil|bruchteil|teil)\b|\bals\s+bruch\b|\bquelle\s+fraction\b|\bqu[ée]\s+fracci[óo]n\b",
    re.IGNORECASE,
)
PERCENT_ASKED = re.compile(  # also the big answer's "%" (answer_units)
    r"\b(?:what|which)\s+percent(?:age)?\b|\bas\s+a\s+percent(?:age)?\b|\bin\s+percent\b|\bhow\s+many\s+percent\b"
    r"|\bwie\s*viel(?:e)?\s+prozent\b|\bquel\s+pourcentage\b|\bqu[ée]\s+porcentaje\b",
    re.IGNORECASE,
)
# A question answered yes or no: its last question opens with a verb, or a clause then one ("Is
# 1001 divisible by 7?", "Does he have enough money?", "Ist 97 eine Primzahl?") and asks for no
# quantity or alternative ("Can you find how many …?", "Is it red or blue?"); or it asks
# "whether". Not "was": German's "Was kostet …?" asks what.
_YES_NO_OPENS = re.compile(
    r"(?:^|,\s*)(?:is|are|were|do|does|did|can|could|will|would|should|shall|has|have|had|must|may|might"
    r"|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|can't|won't|hasn't|haven't"
    r"|ist|sind|hat|haben|kann|können|reicht|reichen|passt|passen)\b",
    re.IGNORECASE,
)
_WHETHER = re.compile(r"\b(?:whether|ob)\b", re.IGNORECASE)
_NOT_YES_NO = re.compile(
    r"\b(?:how|what|which|who|whom|whose|when|where|why|or(?!\s+equal)|oder|wie|welche[rnms]?|wer|wann|wo)\b",
    re.IGNORECASE,
)
_SAID_CHARS = 300
_SAID_LINES = 12  # a program's printed working, then its verdict
_BARE_VERDICT = re.compile(r"\s*(?:true|false|yes|no)\s*[.!]?\s*", re.IGNORECASE)
_SAYS_YES_OR_NO = re.compile(r"\s*(yes|no)\b(?![-'])", re.IGNORECASE)  # "No, …", not "no-one", "no'"
_SAYS_NOT = re.compile(r"\b(?:not|cannot|never|isn't|aren't|doesn't|don't|won't|can't|wasn't|weren't)\b", re.IGNORECASE)
_WORD = re.compile(r"\d+(?:[.,/]\d+)*|[^\W\d_]{3,}")  # numbers ("3/7", "0.43"), words of three letters or more
_STEM = 5  # "overflows" says "overflow", "divisible" "divisibility"
_NOT_ASKED = frozenset(
    {"are", "were", "does", "did", "can", "could", "will", "would", "should", "shall", "has", "have", "had"}
    | {"must", "may", "might", "the", "and", "for", "with", "its", "this", "that", "there", "than", "whether"}
    | {"ist", "sind", "hat", "haben", "kann", "können", "reicht", "reichen", "passt", "passen"}
)  # a yes-or-no question's own words: an answer need not repeat them
# "Which is heavier, a blue whale or an elephant?", "Which planet is closest to the Sun: Mars,
# Venus or Mercury?", "Who ran farther, Tom or Jerry?": the alternatives after the comma or colon.
_ALTERNATIVES = re.compile(  # after a clause too ("For 120 minutes, which is cheaper, …"); "2,400 ml" is one
    r"(?:^|,\s*)(?:which|who)\b[^,:]{0,200}?[,:]\s*(?P<listed>(?:[^,]|,(?=\d{3})){1,100}"
    r"(?:,\s*(?:[^,]|,(?=\d{3})){1,100}){0,8}?),?\s+or\s+(?P<last>(?:[^,]|,(?=\d{3})){1,100})",
    re.IGNORECASE,
)
_BETWEEN_ALTERNATIVES = re.compile(r",(?!\d{3})")
_ALTERNATIVES_CHARS = 2000
_WRITTEN_VALUE = re.compile(
    r"\s*\$?\s*(-?\d{1,15}(?:,\d{3})*(?:\.\d{1,12})?)\s*(?:/\s*(\d{1,12}(?:\.\d{1,12})?)"
    r"|(?:\^|\*\*|to\s+the\s+power\s+of)\s*(\d{1,2}))?\s*(%)?\s*\.?\s*"
)
_PERCENT_OF = re.compile(r"\s*(\d{1,9}(?:\.\d{1,9})?)\s*%\s*of\s*\$?\s*(\d{1,12}(?:,\d{3})*(?:\.\d{1,9})?)\s*")
_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?|[^\W\d_]{3,}")
_LINKING = frozenset({"the", "and", "than", "one", "that", "this", "with"})  # name no alternative
_FULL_STOP = re.compile(r"[.!?](?=\s)|\n")
_SENTENCE_END = re.compile(r"[.!?:;](?=\s)|\n")  # not a decimal point
_DECIMAL_ASKED = re.compile(
    r"\bdecimal\s+places?\b|\bas\s+a\s+decimal\b|\bnearest\s+(?:tenth|hundredth)", re.IGNORECASE
)
# Signs that a question has quantities below zero: a negative number, a temperature, a debt.
_BELOW_ZERO = re.compile(
    r"(?<![\w.)])[-−]\s?\d|\b(?:minus|negative|below\s+zero|temperatures?|degrees|debts?|deficit|owes?|owed|overdrawn)\b",
    re.IGNORECASE,
)
# Signs that a question's answer may be a part of one: a decimal, a fraction, a percentage, a share.
_PARTS = re.compile(
    r"\d\.\d|\d\s*/\s*\d|%|\b(?:percent|half|halves|quarters?|thirds?|fifths?|tenths?|fractions?|probability"
    r"|chance|likelihood|odds|ratio|proportion)\b",
    re.IGNORECASE,
)
# A question that gathers its numbers into one: "the total …", "altogether", "in all", "combined";
# and signs that it wants one per group after all ("each", "per", "by region", "respectively").
_ONE_TOTAL = re.compile(
    r"\b(?:total|sum|altogether|in\s+all|combined|overall|insgesamt|zusammen|au\s+total|en\s+total)\b", re.IGNORECASE
)
_PER_GROUP = re.compile(
    r"\b(?:each|every|per|respectively|separately|by\s+(?!the\s+end\b)\w+|list|jede[rnms]?|pro|chaque|cada)\b",
    re.IGNORECASE,
)
_SEVERAL_NUMBERS = re.compile(r"\s*[(\[]\s*[-+]?\d[\d.eE+-]*(?:\s*,\s*[-+]?\d[\d.eE+-]*)+\s*,?\s*[)\]]\s*")
# A question that asks for rows of numbers: a table ("Print the multiplication table of 7.", "Print
# a table of the balance …") or a list ("Write out the first 8 Fibonacci numbers.", "List how much
# he saves in each week.": a sentence that opens with "List the", "List how" … asks for one; "List
# price is $20." does not; "Give me a list of …", "Find all the divisors of 36."); in German, French
# and Spanish as a student asks it ("Schreibe das Einmaleins der 7 auf.", "Donne les 8 premiers
# nombres de Fibonacci.", "Enumera los números primos menores que 30.").
# German, French and Spanish verbs ask only where they open a sentence (imperative): "Il donne les 3
# premiers livres à Paul." tells.
_OPENS = r"(?:^|[.!?:;]\s+|[¿¡]\s*)"
_TABLE_ASKED = re.compile(  # not "What is the 10th number in the multiplication table of 6?"
    r"\b(?:print|show|make|give|write|display|create|draw)\s+(?:out\s+)?(?:me\s+)?(?:(?:a|an|the)\s+)?"
    r"(?:(?:multiplication|times|full|complete)\s+)?table\b"
    rf"|{_OPENS}(?:zeige?|erstelle|gib|schreibe?|drucke|mache?|notiere)\s+(?:mir\s+)?(?:(?:eine|die|das|den)\s+)?"
    r"(?:(?:ganze|vollständige)\s+)?(?:multiplikations|werte|mal)?(?:tabelle|einmaleins)\b"
    rf"|{_OPENS}(?:affiche|écris|ecris|donne|montre|fais|dresse|imprime|construis|crée|cree)(?:-moi|\s+moi)?\s+"
    r"(?:(?:la|le|une|un)\s+)?(?:table|tableau)\b"
    rf"|{_OPENS}(?:muestra|escribe|imprime|haz|dame|crea|dibuja|elabora)\s+(?:(?:la|el|una|un)\s+)?(?:tabla|cuadro)\b",
    re.IGNORECASE,
)
_FIRST_FEW = rf"(?:\d{{1,4}}|{'|'.join(NUMBER_WORDS)})"  # "the first 8", "the first eight"
_LIST_ASKED = re.compile(
    r"(?:^|[.!?:]\s+)list\s+(?:the|how|what|which|them|those|these|its|his|her|their|\d)\b|\blist\s+(?:all|every|each)\b"
    r"|\b(?:write\s+out|print|show|give|name|what\s+are|find)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?first\s+"
    rf"{_FIRST_FEW}\b"
    r"|(?:^|[.!?:]\s+)(?:make|give|write|print|show|create)\s+(?:me\s+)?a\s+list\b"
    r"|\b(?:print|display|write\s+out|find|name)\s+all\s+(?:of\s+)?(?:the\s+)?(?:[a-z-]+\s+){0,3}?"
    r"(?:numbers|primes|multiples|divisors|factors|squares|cubes)\b"
    rf"|{_OPENS}(?:liste|nenne|notiere)\s+(?:alle|die|jede[ns]?)\b"
    rf"|{_OPENS}(?:schreibe?|nenne|gib|zeige?|was\s+sind|finde|bestimme|berechne)\s+(?:mir\s+)?(?:alle\s+)?(?:die\s+)?"
    r"ersten\s+(?:\d{1,4}|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|zwölf|zwanzig)\b"
    rf"|{_OPENS}(?:liste|énumère|enumere|lista|enumera)\s+(?:les|tous|toutes|chaque|los|las|todos|todas|cada)\b"
    rf"|{_OPENS}(?:écris|ecris|donne|affiche|cite|nomme|trouve|calcule|quels\s+sont|quelles\s+sont)(?:-moi|\s+moi)?\s+"
    r"(?:tous\s+|toutes\s+)?les\s+\d{1,4}\s+premi(?:er|ère)s\b"
    rf"|{_OPENS}(?:escribe|dame|muestra|imprime|nombra|encuentra|calcula|cu[áa]les\s+son)\s+(?:todos\s+|todas\s+)?(?:los|las)\s+"
    r"(?:\d{1,4}\s+primer[oa]s|primer[oa]s\s+\d{1,4})\b",
    re.IGNORECASE,
)
_WRITTEN_FRACTION = re.compile(r"^\s*[-+]?\d+\s*/\s*\d+\s*$")
_PERCENTAGE = re.compile(r"\s*([-+]?\d{1,9}(?:\.(\d{1,9}))?)\s*%\s*")
_DECIMAL = re.compile(r"^\s*[-+]?\d*\.\d+\s*$")
MAX_DENOMINATOR = 1000  # 7/12, 5/8, 333/1000: a fraction a person writes
YES_OR_NO = ("yes", "no")  # their `vote_key`s: a program's True and False are these too


class Kind(enum.StrEnum):
    ANY = "any"
    FRACTION = "a fraction"
    PERCENT = "a percentage"
    CHOICE = "one of the options"
    YES_NO = "yes or no"


def asked_kind(question: str) -> Kind:
    """What the question asks for: one of its options, a fraction, a percentage, or anything."""
    text = question[:_QUESTION_CHARS]
    if choices_in(text):
        return Kind.CHOICE
    if _asks_yes_or_no(text):
        return Kind.YES_NO
    if PERCENT_ASKED.search(text):  # "what share …, in percent?": the percentage is the form asked
        return Kind.PERCENT
    if _FRACTION.search(text) and not _DECIMAL_ASKED.search(text):
        return Kind.FRACTION
    return Kind.ANY


def named_answers(question: str) -> tuple[str, ...]:
    """The few answers a question names, where it asks for one of them: Yes and No, or its
    alternatives; () for others. Chains of thought agreeing on one of two answers is little
    evidence (half would by chance); two programs computing it is more (docs/results.md)."""
    return ("Yes", "No") if asked_kind(question) is Kind.YES_NO else alternatives_in(question)


def said_yes_or_no(answer: str, question: str = "") -> str | None:
    """ "yes" or "no" where a short one-line answer says it: Yes, No, a program's True or False, a
    sentence opening with one ("No, they cannot be split …"), one that says not ("Not a prime
    number", "391 is not a prime number because …": programs print these), or one that says what
    the `question` asks without a not ("7777 is divisible by 11" to "Is 7777 divisible by 11?":
    each of its words and numbers); else None. "3/7 is smaller than 0.43" answers "Is 3/7 larger
    than 0.43?" with neither. A program's output of several lines says what its last line says
    ("1001 / 7 = 143.0" then "True"), unless an earlier line is a bare yes or no that differs:
    several checks printed are no one answer."""
    lines = [line for line in answer[: _SAID_CHARS * _SAID_LINES].splitlines() if line.strip()]
    if len(answer) > _SAID_CHARS * _SAID_LINES or not 0 < len(lines) <= _SAID_LINES:
        return None
    if len(lines) > 1:
        last = said_yes_or_no(lines[-1], question)
        bare = {vote_key(line) for line in lines[:-1]} & set(YES_OR_NO)
        return last if bare <= {last} else None
    if len(answer) > _SAID_CHARS:
        return None
    key = vote_key(answer)
    if key in YES_OR_NO:
        return key
    opening = _SAYS_YES_OR_NO.match(answer)
    if opening:
        return opening.group(1).lower()
    if _SAYS_NOT.search(answer):
        return "no"
    asked = _words(_last_sentence(question[:_QUESTION_CHARS])[1]) - _NOT_ASKED
    said = _words(answer)
    return "yes" if len(asked) >= 2 and asked <= said else None


def _words(text: str) -> set[str]:
    """Its numbers, and its words by their first letters (`_STEM`)."""
    return {word if word[0].isdigit() else word[:_STEM] for word in _WORD.findall(text.casefold())}


def _last_sentence(text: str) -> tuple[bool, str]:
    """Whether the text ends in a question mark, and its last sentence."""
    tail = text[-_QUESTION_CHARS // 4 :].rstrip()
    asked = tail.endswith("?")
    tail = tail.rstrip("?.! ")
    ends = [match.end() for match in _SENTENCE_END.finditer(tail)]
    return asked, tail[ends[-1] if ends else 0 :]


def alternatives_in(question: str) -> tuple[str, ...]:
    """The alternatives a question's last sentence asks to choose between ("Which is heavier, a blue
    whale or an elephant?" → "a blue whale", "an elephant"), as written; () where it names none."""
    text = question[:_QUESTION_CHARS]
    end = text.rfind("?")  # the last question, whatever follows it ("… Answer with the animal.")
    head = text[max(0, end - _ALTERNATIVES_CHARS) : max(0, end)]
    starts = [match.end() for match in _FULL_STOP.finditer(head)]
    found = _ALTERNATIVES.search(head[starts[-1] if starts else 0 :].strip()) if end > 0 else None
    if found is None:
        return ()
    named = [*_BETWEEN_ALTERNATIVES.split(found.group("listed")), found.group("last")]
    return tuple(dict.fromkeys(name.strip() for name in named if name.strip()))


def named_alternative(answer: str, alternatives: tuple[str, ...]) -> str | None:
    """The one alternative a short answer names ("Mercury is closest to the Sun." → "Mercury";
    "the blue whale" → "a blue whale"), as the question writes it; None where it names none or
    several ("Tom ran farther than Jerry")."""
    if not alternatives or len(answer) > _SAID_CHARS:
        return None
    answer = answer.strip().rsplit("\n", 1)[-1]  # a program's working, then its conclusion
    text = " ".join(answer.casefold().split())
    named = [name for name in alternatives if _names(text, name)]
    value = _value_of(answer)
    if not named and value is not None:  # a program's 1024 for "2 to the power of 10"
        named = [name for name in alternatives if _value_of(name) == value]
    if not named:  # "The pack of 5 is cheaper." or a program's 5: what only one alternative says
        said = _tokens(text)
        named = [name for name in alternatives if said & _own_tokens(name, alternatives)]
    return named[0] if len(named) == 1 else None


def _tokens(text: str) -> set[str | Fraction]:
    """Its numbers by value ("4.50" is 4.5) and its words of three letters or more, folded."""
    return {
        Fraction(token.rstrip(",").replace(",", "")) if token[0].isdigit() else token
        for token in _TOKEN.findall(text.casefold())
        if token not in _LINKING
    }


def _own_tokens(name: str, alternatives: tuple[str, ...]) -> set[str | Fraction]:
    """What an alternative says that no other does: "3" and "4.50" of "a pack of 3 for $4.50"
    beside "a pack of 5 for $7"."""
    others = set().union(*(_tokens(other) for other in alternatives if other != name))
    return _tokens(name) - others


def _value_of(text: str) -> Fraction | None:
    """The value a short text writes as a number, a fraction, a percentage, a power or a share of a
    number ("1,024", "3/4", "75%", "2^10", "2 to the power of 10", "15% of 80"); None for anything else."""
    if len(text) > MAX_NUMBER_TEXT:
        return None
    if share := _PERCENT_OF.fullmatch(text.casefold()):  # "15% of 80" is 12
        return Fraction(share.group(1)) * Fraction(share.group(2).replace(",", "")) / 100
    written = _WRITTEN_VALUE.fullmatch(text.casefold())
    if written is None:
        return None
    number, over, power, percent = written.groups()
    value = Fraction(number.replace(",", ""))
    if over:
        value = value / Fraction(over) if Fraction(over) else value
    elif power:
        value = value ** int(power)
    return value / 100 if percent else value


def _names(text: str, alternative: str) -> bool:
    core = LEADING_ARTICLE.sub("", " ".join(alternative.casefold().split()))
    return bool(core) and re.search(rf"(?<!\w){re.escape(core)}(?!\w)", text) is not None


def _asks_yes_or_no(text: str) -> bool:
    """The question's last sentence asks yes or no (`_YES_NO_OPENS`, `_WHETHER`)."""
    asked, last = _last_sentence(text)
    opens = asked and bool(_YES_NO_OPENS.search(last.strip()))  # "Is …?", or after a clause: "After 9 weeks, does …?"
    return (opens or bool(_WHETHER.search(last))) and not _NOT_YES_NO.search(last)


def fits(answer: str, kind: Kind, question: str = "") -> bool:
    """Whether `answer` is of the kind asked: a fraction is a written fraction or a number that is
    not whole; a percentage is not a share between 0 and 1 (0.25 where 25 % was asked); an option
    is named or matched by its value."""
    if kind is Kind.ANY:
        return True
    if len(answer) > MAX_NUMBER_TEXT:
        return False
    if kind is Kind.YES_NO:
        return said_yes_or_no(answer, question) is not None
    if kind is Kind.CHOICE:
        choices = choices_in(question[:_QUESTION_CHARS])
        value = number_in(answer)
        return stated_choice(answer) is not None or (value is not None and matching_choice(value, choices) is not None)
    value = number_in(answer)
    if value is None or not math.isfinite(value):
        return False
    if kind is Kind.FRACTION:
        return bool(_WRITTEN_FRACTION.match(answer)) or not value.is_integer()
    return "%" in answer or not 0 < abs(value) < 1


def implausible(answer: str, question: str) -> str | None:
    """Why `answer` cannot be what the question asks for, in words, or None: a negative number where
    the question names nothing below zero, a part of one where it counts whole things (no decimal,
    fraction, percentage or share in it), or not the fraction or percentage it asks for. Chain of
    thought and PAL agreed on -160 for a candle-maker's profit and on 0.8 for the grams of chips one
    may eat, both wrong; no GSM8K test answer is a part of one, its two negative ones are
    temperatures, and each of its 17 answers to a percentage asked for is one (docs/results.md). In
    the window, chain of thought's 7 for the share of a pizza left outvoted two programs' 7/12.

    A question asked yes or no is answered yes or no (a program's True and False are): chain of
    thought's 391 and PAL's sentence for "Is 391 a prime number?" are not its answer. One asking
    which of some alternatives is not: PAL's True for "Which is smaller, 5/8 or 0.6?" names none.
    One asking for a table or a list is not answered by one number (`one_for_rows`).

    A question stating a large number is not judged by its answer's sign or size: its numbers may
    not fit each other (GSM-Hard made its questions so: Janet bakes muffins with 4933828 of her 16
    eggs, gold -9867630), and then the program that does its arithmetic as written is the one right."""
    text = question[:_QUESTION_CHARS]
    if asked_kind(text) is Kind.YES_NO and not fits(answer, Kind.YES_NO, text):
        return "the question asks yes or no, and this is neither"
    if rows := one_for_rows(answer, text):
        return rows
    alternatives = alternatives_in(text)  # a program's True for "Which is smaller, 5/8 or 0.6?"
    if alternatives and (verdict := _BARE_VERDICT.fullmatch(answer.rsplit("\n", 1)[-1][:_SAID_CHARS])):
        return f"the question asks which of {' or '.join(alternatives)}, and {verdict.group().strip()} names none"
    value = number_in(answer) if len(answer) <= MAX_NUMBER_TEXT else None
    if value is None or not math.isfinite(value):
        return None
    if value < 0 and not _BELOW_ZERO.search(text) and not large_numbers(text):
        return "it is negative, and the question names nothing below zero"
    kind = asked_kind(text)
    if 0 < abs(value) < 1 and kind is Kind.ANY and not _PARTS.search(text) and not large_numbers(text):
        return "it is a part of one, and the question counts whole things"
    counted = None if value.is_integer() else _counted(text)  # the question is read only for a part of a number
    if counted and not _PARTS.search(text) and whole_numbers(text):
        return f"it is not a whole number, and the question counts {counted}"
    if kind is Kind.FRACTION and not fits(answer, kind):
        return "it is a whole number, and the question asks for a fraction"
    if kind is Kind.PERCENT and not fits(answer, kind):
        return "it is a share of one, and the question asks for a percentage"
    return None


def whole_numbers(question: str) -> bool:
    """The question states only whole numbers, none of them large, and asks for no fraction or
    percentage: its answer counts things, so in a tie a whole number goes before 14.666666 (on
    GSM8K's ties the whole number was right where either was; docs/results.md)."""
    text = question[:20_000]
    return asked_kind(text) is Kind.ANY and not re.search(r"\d\.\d", text) and not large_numbers(text)


LARGE = 10_000  # a question with a number this large is arithmetic chain of thought gets wrong (docs/results.md)


def large_numbers(question: str) -> bool:
    """The question states a number of LARGE or more (4,922,000 a week; 37190 acres; 1.2M views)."""
    text = question[:20_000]
    return _SCALED.search(text) is not None or any(
        float(n) >= LARGE for n in re.findall(r"\d{5,}", re.sub(r"(?<=\d),(?=\d{3})", "", text))
    )


# "1.2M", "$3B", "4 million"; not "5m" (five metres) or "class 3B"
_SCALED = re.compile(r"(?:[$€£]\d+(?:\.\d+)?|\d\.\d+)(?:M|B|bn)\b|\d[ \t]?(?i:million|billion|trillion)s?\b")


# What a question asks to count: "how many (more) cookies" — a plural noun that is not a measure
# (2.5 hours, miles, dollars or cups is an answer; 2.5 cookies or students is not). The question's
# last "how many" is the one it asks.
_HOW_MANY = re.compile(
    r"\bhow\s+many\s+(?:(?:more|fewer|less|total|additional|extra|whole|full|of|the|her|his|their|its|our|your|my)\s+){0,3}"
    r"([a-z]{3,20})\b",
    re.IGNORECASE,
)
_MEASURE = re.compile(
    r"hours|minutes|seconds|days|weeks|months|years|decades|miles|kilometers|meters|metres|centimeters|inches|feet"
    r"|yards|dollars|cents|euros|pounds|ounces|grams|kilograms|tons|tonnes|cups|liters|litres|milliliters|gallons"
    r"|quarts|pints|tablespoons|teaspoons|calories|degrees|times|percent|points|acres|dozens|servings|laps|units"
    r"|loads|batches|rounds|trips|steps"
)
_PLURAL = re.compile(r"people|children|sheep|fish|women|men|geese|mice|deer|teeth|[a-z]+[^s]s")
_NOT_NOUN = re.compile(r"does|was|has|this|his|hers|yours|ours|theirs|its")
_AVERAGE = re.compile(r"\b(?:average|mean|median|expected|estimate)", re.IGNORECASE)


def _counted(question: str) -> str | None:
    """The things a question asks how many of, where they come whole ("cookies", "students"); None
    where it asks for a measure, an average, or nothing counted."""
    found = collections.deque(_HOW_MANY.finditer(question), maxlen=1)
    if not found or _AVERAGE.search(question):
        return None
    noun = found[0].group(1).lower()
    whole = _PLURAL.fullmatch(noun) and not _NOT_NOUN.fullmatch(noun) and not _MEASURE.fullmatch(noun)
    return noun if whole else None


def several_for_one(answer: str, question: str) -> str | None:
    """Why a list of numbers cannot answer a question that asks for one total, in words, or None.
    Seen with a weather file: "the total precipitation over the two days" was answered (0.8, 4.4),
    the program having added the column to itself."""
    if len(answer) > MAX_NUMBER_TEXT * 4 or not _SEVERAL_NUMBERS.fullmatch(answer):
        return None
    text = question[:_QUESTION_CHARS]
    if not _ONE_TOTAL.search(text) or _PER_GROUP.search(text):
        return None
    count = sum(1 for part in answer.strip(" ()[]").split(",") if part.strip())
    return f"it is {count} numbers, and the question asks for one total"


def rows_asked(question: str) -> str | None:
    """ "a table" or "a list" where the question asks for rows of numbers; else None."""
    text = question[:_QUESTION_CHARS]
    return "a table" if _TABLE_ASKED.search(text) else "a list" if _LIST_ASKED.search(text) else None


def one_for_rows(answer: str, question: str) -> str | None:
    """Why one number cannot answer a question that asks for a table or a list, in words, or None.
    Seen: PoT's 70 (the table's last product) for "Print the multiplication table of 7.", where PAL
    printed the table, won the tie as a single value."""
    rows = rows_asked(question)
    return f"it is one number, and the question asks for {rows}" if rows and one_number(answer) else None


# What a list asks for where its order means nothing: the divisors, factors or primes of a number.
_SET_ASKED = re.compile(
    r"\b(?:divisors?|factors?|primes|prime\s+numbers|teiler|primzahlen|diviseurs|facteurs|nombres\s+premiers"
    r"|divisores|factores|n[úu]meros\s+primos)\b",
    re.IGNORECASE,
)


def in_order(answer: str, question: str) -> str:
    """A list of numbers on one line in ascending order where the question asks for the divisors,
    factors or primes of something (`rows_asked`, `_SET_ASKED`), else the answer as it is. Seen:
    "Enumera los divisores de 24." — PAL's [1, 24, 2, 12, 3, 8, 4, 6] (found in pairs) and PoT's
    [1, 2, 3, 4, 6, 8, 12, 24] were two answers, and the tie went to PAL's, after 70 s."""
    text, one_line = question[:_QUESTION_CHARS], "\n" not in answer.strip()  # a table keeps its rows' order
    values = listed_values(answer) if one_line and rows_asked(text) and _SET_ASKED.search(text) else None
    if not values or list(values) == sorted(values):
        return answer
    return written_list(sorted(values))


def printed_text(answer: str) -> bool:
    """Text a program printed that no chain of thought writes out ("Print the letter x 3000
    times."): longer than an answer is read at a glance (`short_answer.LONG_CHARS`), stating no number."""
    return len(answer) > LONG_CHARS and number_in(answer) is None


def in_asked_form(answer: str, kind: Kind, question: str = "") -> str:
    """A number given as the fraction the question asks for (0.5833333333 → 7/12) when it is one
    with a denominator a person writes, a program's True or False (or a sentence that says it,
    `said_yes_or_no`) as the Yes or No asked for, an answer that names one of the alternatives
    the question asks between as that alternative (`named_alternative`); any other as it is."""
    said = said_yes_or_no(answer, question) if kind is Kind.YES_NO else None
    if said is not None:
        return said.capitalize()
    named = named_alternative(answer, alternatives_in(question))
    if named is not None:
        return named
    if kind is not Kind.FRACTION or len(answer) > MAX_NUMBER_TEXT or not _DECIMAL.match(answer):
        return answer
    value = float(answer)
    if value.is_integer():
        return answer
    fraction = Fraction(value).limit_denominator(MAX_DENOMINATOR)
    if abs(float(fraction) - value) > 1e-9 * max(1.0, abs(value)):
        return answer
    return f"{fraction.numerator}/{fraction.denominator}"


def percent_as_fraction(answer: str) -> str | None:
    """A percentage given where a fraction is asked, as a fraction, so that it and a program's
    fraction are one answer. A rounded one is the simplest fraction that rounds to it as written
    (58.33 % → 7/12, 14.29 % → 1/7); it counts as rounded where that fraction's denominator squared
    is at most its written value's (5833/10000), else it stands as written (58 % → 29/50, 0.5 % →
    1/200). None for an answer that is no percentage. Seen in the window: PAL's 7/12 and chain of
    thought's 58.33% for the share of a pizza left were two answers, and four more methods ran."""
    written = _PERCENTAGE.fullmatch(answer) if len(answer) <= MAX_NUMBER_TEXT else None
    if written is None:
        return None
    share = Fraction(written.group(1)) / 100
    tolerance = Fraction(1, 2 * 100 * 10 ** len(written.group(2) or ""))  # half its last written digit
    for denominator in range(1, min(math.isqrt(share.denominator), MAX_DENOMINATOR) + 1):
        simpler = Fraction(round(share * denominator), denominator)
        if abs(simpler - share) <= tolerance:
            return str(simpler)
    return str(share)
