from __future__ import annotations

import pytest

from app.reasoning.extract import concluded, extract_program
from app.reasoning.numbers import format_answer, format_float
from models.fences import program_arrived as complete_program


@pytest.mark.parametrize(
    ("reply", "program"),
    [
        ("```python\nprint(1)\n```", "print(1)"),
        ("Here you go:\n```\nx = 2\nprint(x)\n```\nDone.", "x = 2\nprint(x)"),
        ("```py\nprint(3)\n```", "print(3)"),
        # several blocks: the output sample is not the program
        ("```python\nn = 4\nprint(n * 2)\n```\nOutput:\n```\n8\n```", "n = 4\nprint(n * 2)"),
        ("First:\n```text\nnot code\n```\n```python\nprint(5)\n```", "print(5)"),
        # only code, no fences
        ("total = 3 + 4\nprint(total)", "total = 3 + 4\nprint(total)"),
        # the fence never closed: generation hit its token limit
        ("```python\na = 1\nb = 2\nprint(a + b", "a = 1\nb = 2\nprint(a + b"),
        ("   ```python  \nprint(6)\n   ```", "print(6)"),
    ],
)
def test_extracts_the_program(reply: str, program: str) -> None:
    assert extract_program(reply) == program


@pytest.mark.parametrize("reply", ["The answer is 11.", "", "11", "```python\n\n```"])
def test_no_program(reply: str) -> None:
    assert extract_program(reply) is None


def test_complete_program_detection() -> None:
    assert not complete_program("```python\nprint(1)\n")
    assert complete_program("```python\nprint(1)\n```")
    assert complete_program("Intro\n```\nprint(1)\n```\nmore")


@pytest.mark.parametrize(
    ("text", "shown"),
    [("11", "11"), ("11.0\n", "11"), ("2.0500000000000003", "2.05"), (" 3/4 ", "3/4"), ("1e21", "1e+21"),
     ("The answer is 5.0", "The answer is 5.0"), ("-0.5", "-0.5"), ("0.30000000000000004", "0.3")],
)  # fmt: skip
def test_answers_are_shown_without_float_noise(text: str, shown: str) -> None:
    assert format_answer(text) == shown


def test_format_float() -> None:
    assert format_float(7.0) == "7"
    assert format_float(float("inf")) == "inf"
    assert format_float(1 / 3) == "0.333333333333"


def test_a_streaming_reply_shows_its_code_without_fences() -> None:
    from app.reasoning.extract import streamed_program

    assert streamed_program("``") == ""
    assert streamed_program("```pyt") == ""
    assert streamed_program("```python\n") == ""
    assert streamed_program("```python\nx = 1\nprint(x") == "x = 1\nprint(x"
    assert streamed_program("```python\nx = 1\n`") == "x = 1\n"
    assert streamed_program("```python\nx = 1\n```\n") == "x = 1"
    assert streamed_program("```python\nx = 1\n```\nThis program adds.") == "x = 1"
    assert streamed_program("```python\nx = 1\n```\n```python\ny = 2\n") == "y = 2\n"  # the next sample
    assert streamed_program("Hamlet was written by") == "Hamlet was written by"  # no fence yet: as it comes


def test_the_most_program_like_block_wins_not_the_last_in_order() -> None:
    reply = "```python\na = 1\nprint(a)\n```\nor\n```python\nthe output is 5\n```"
    assert extract_program(reply) == "a = 1\nprint(a)"


def test_a_reply_with_stray_fences_is_not_bare_code() -> None:
    assert extract_program('s = "```"\nprint(s)') is None
    assert extract_program("x = 2\nprint(x)") == "x = 2\nprint(x)"


def test_names_bound_in_blocks_but_not_in_functions() -> None:
    from app.reasoning.extract import assigned_names

    program = (
        "total = 0\nfor i in range(3):\n    total += i\nif total:\n    big: int = 1\n"
        "try:\n    a = 1\nexcept ValueError:\n    b = 2\ndef f():\n    inner = 1\nclass C:\n    field = 1\n"
        "x, (y, z) = 1, (2, 3)\n"
    )
    assert assigned_names(program) == ["total", "i", "big", "a", "b", "x", "y", "z"]
    assert assigned_names("x = (") == []


def test_at_most_limit_names() -> None:
    from app.reasoning.extract import assigned_names

    program = "\n".join(f"v{k} = {k}" for k in range(150))
    assert assigned_names(program) == [f"v{k}" for k in range(100)]
    assert len(assigned_names(program, limit=3)) == 3


def test_answer_lines() -> None:
    from app.reasoning.extract import answer_line

    assert answer_line("so 3.0 each\n**Answer:** 18.0\n") == "18"
    assert answer_line("Answer: 1\nthen\nanswer : 2") == "2"
    assert answer_line("it is \\boxed{42}") == "42"
    assert answer_line("Answer: \\boxed{180} grams") == "180"  # the box in the line is the answer
    assert answer_line("no line here") is None


def test_a_boxed_answer_written_in_latex_reads_as_plain_text() -> None:
    """Seen in the window: "What fraction of the pizza is left?" — chain of thought and two more
    chains wrote \\boxed{\\frac{7}{12}} and each counted as "failed" (the box held braces)."""
    from app.reasoning.extract import answer_line

    assert answer_line("The fraction left is \\boxed{\\frac{7}{12}}.") == "7/12"
    assert answer_line("so \\boxed{\\dfrac{3}{4}}") == "3/4"
    assert answer_line("\\boxed{18 \\text{ dollars}}") == "18 dollars"
    assert answer_line("Answer: \\(\\frac{1}{2}\\)") == "1/2"
    assert answer_line("\\boxed{\\text{(C)}}") == "(C)"
    assert answer_line("\\boxed{1" + "{" * 5000) is None  # unclosed: no answer, at once


def test_a_fence_being_typed_is_hidden_even_when_indented() -> None:
    from app.reasoning.extract import streamed_program

    assert streamed_program("x = 1\n  ``") == "x = 1\n"
    assert streamed_program("``x\ny") == ""  # a reply opening with backticks waits for its fence
    assert streamed_program("  ``x\ny") == ""


def test_the_number_a_reasoning_concludes_with() -> None:
    """Endings the embedded model wrote without \\boxed{} (GSM8K items 10, 31, 47 and 56)."""
    assert concluded("...\n4. Total downloads over three months: 60 + 180 + 126 = 366") == "366"
    assert concluded("(80 + 60 + 100) / 3 = 80\nSo, their average guess is 80.") == "80"
    assert concluded("8. Therefore, John spent $320 on ties.") == "$320"
    assert concluded("4. Therefore, Peter can go to the movies 3 times.") == "3"
    assert concluded("Speed = 60 miles / 13.5 hours ≈ 4.44 miles per hour") == "4.44"
    assert concluded("So the total is 1,250 dollars.") == "1250"


def test_no_number_is_read_from_an_ending_that_names_none_or_several() -> None:
    assert concluded("Final answer: 80 miles and 150 miles") is None  # two numbers: which?
    assert concluded("He buys 3 apples.\nThe apples are red.") is None  # the last line concludes nothing
    assert concluded("He has 3 apples.") is None
    assert concluded("So x = y") is None and concluded("") is None
    assert concluded("So it is " + "1" * 400) is None  # longer than a concluding line


def test_an_answer_line_that_is_a_sentence_is_the_number_it_states() -> None:
    """Seen in a GSM8K run: "**Answer:** John is 315 miles from home at the end of those 4 hours."
    won a tie shown as that sentence, and counted as 4 (its last number) in the vote."""
    from app.reasoning.extract import sentence_number

    question = "He drives 3 hours at 60 mph, then 4 hours back. How far is he from home at the end of those 4 hours?"
    assert sentence_number("John is 315 miles from home at the end of those 4 hours.", question) == "315"
    assert sentence_number("So she pays $1,250 in all.", "How much does she pay?") == "$1250"
    assert sentence_number("He is 12 years old.", "How old is he?") == "12"  # its only number
    kept = (
        ("She has 3 apples and 2 pears left.", "How many fruits does she have?"),  # two new numbers
        ("The train arrives at 9:15 pm.", "It leaves at 8:15 pm. How long until it arrives?"),  # a time
        ("She has 2 dozens and 4 eggs", "She buys 4 eggs. How many eggs does she have?"),  # amounts joined
        ("Alice has 5 more than Bob.", "Who has more, Alice or Bob?"),  # no amount asked
        ("18 dollars", "How much does she make?"),  # a number and its unit, not a sentence
    )
    for answer, asked in kept:
        assert sentence_number(answer, asked) == answer
