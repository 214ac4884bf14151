"""How an answer was checked, in words a student understands, with how often answers checked that
way were right when it was measured.

Every figure comes from docs/results.md (the embedded 1.5B model on GSM8K); none is invented. A
level with no measurement says so instead of a number.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    words: str  # how it was checked, in plain words
    right: int = 0  # measured: answers at this level that were right …
    of: int = 0  # … of this many
    measured_on: str = ""

    @property
    def measured(self) -> str:
        """The measured accuracy as a sentence (for a tooltip or a second line)."""
        if not self.of:
            return "How often answers checked this way are right has not been measured yet."
        share = round(100 * self.right / self.of)
        return f"Answers checked this way were right {self.right} of {self.of} times ({share} %), {self.measured_on}."


_GSM8K_200 = "measured on the first 200 GSM8K questions with the built-in model (docs/results.md)"
_YES_NO_28 = "measured on the team's 28 questions asked yes or no with the built-in model (docs/results.md)"
_ALTERNATIVES_16 = (
    "measured on the team's 16 questions asking which of two or three alternatives, with the built-in model"
    " (docs/results.md)"
)
_ROWS_15 = "measured on the team's 15 questions asking for a table or a list, with the built-in model (docs/results.md)"
_GSM8K_50 = "measured on the first 50 GSM8K questions with the built-in model (docs/results.md)"
LEVELS = {
    "all": Level("three different methods agree", 63, 66, _GSM8K_200),
    # "all" and "cot+pal-pot": measured when mix asked PoT beside the other two (2026-12-02); it is
    # asked now only where they disagree, so neither happens. "cot+pal", "redone" and the second
    # round's: mix as it runs now, 2026-12-05 02:52–04:13 UTC; pal+pot, cot+pot and tie (now only
    # where the numbers are large, or a second round could not run): its first round as run
    # 2026-12-04 18:28–19:30 UTC, before the second round existed; "pal+pot, yes or no": the yes/no
    # set as the default ran it on 2026-12-07; "pal+pot, which one": the alternatives set's run
    # of 2026-12-07 17:00 (8563081); "pal+pot, rows": the rows set's run of 2026-12-07 22:05 (this level's commit)
    "cot+pal": Level("two different methods agree: a program and reasoning in words", 87, 93, _GSM8K_200),
    "cot+pal-pot": Level("two different methods agree, a third does not", 11, 13, _GSM8K_200),
    "pal+pot": Level("the two programs agree, the reasoning in words does not — compare them", 12, 26, _GSM8K_200),
    "pal+pot, yes or no": Level(
        "the two programs computed this yes or no; the reasoning in words does not agree — compare them",
        10,
        10,
        _YES_NO_28,
    ),
    "pal+pot, which one": Level(
        "the two programs computed which one it is; the reasoning in words does not agree — compare them",
        4,
        4,
        _ALTERNATIVES_16,
    ),
    "pal+pot, rows": Level(
        "the two programs computed these rows; the reasoning in words did not write them alike — compare them",
        2,
        2,
        _ROWS_15,
    ),
    "pal+pot, printed": Level(
        "the two programs printed the same text; the reasoning in words did not write it out — compare them"
    ),
    "cot+pot": Level(
        "one program agrees with the reasoning in words, the other does not — compare them", 12, 20, _GSM8K_200
    ),
    "redone": Level(
        "one program; the reasoning in words gives its answer too once its arithmetic slip is corrected — compare them",
        4,
        5,
        _GSM8K_200,
    ),
    "tie": Level("the methods disagree — compare them", 19, 55, _GSM8K_200),
    "second round": Level(
        "the methods disagreed, so the question was reasoned again: four or more answers agree", 18, 19, _GSM8K_200
    ),
    "second round, both programs": Level(
        "the methods disagreed and were asked again: both programs and one more reasoning agree, but fewer than four"
        " answers — compare them",
        6,
        10,
        _GSM8K_200,
    ),
    "second round, split": Level(
        "the methods disagreed, and so did the reasoning asked again to decide — compare them", 34, 69, _GSM8K_200
    ),
    "programs": Level("most of the sampled programs agree", 18, 23, _GSM8K_50),
    "programs, split": Level("the sampled programs disagree — compare them"),
    "one program": Level("one program, not checked by another method", 115, 200, _GSM8K_200),
    "one reasoning": Level("reasoning in words only, not checked by a program", 122, 200, _GSM8K_200),
    "wrong kind": Level("not the kind of answer the question asks for, or one it cannot have — check it"),
    "none": Level("no answer"),
}
