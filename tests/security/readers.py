"""Every function that reads an answer, a number, an option, a vote key or a label from untrusted
text, by name: the hostile-output tests and `bench_parsing` run each on the same inputs."""

from __future__ import annotations

from collections.abc import Callable

from app.evaluation import grader
from app.reasoning import choices, extract, numbers, working
from models import fences
from sandbox.display import display_text

READERS: dict[str, Callable[[str], object]] = {
    "numbers.format_answer": numbers.format_answer,
    "numbers.number_in": numbers.number_in,
    "numbers.vote_key": numbers.vote_key,
    "numbers.one_number": numbers.one_number,
    "numbers.last_rows": numbers.last_rows,
    "choices.choices_in": choices.choices_in,
    "choices.plain_number": choices.plain_number,
    "choices.stated_choice": choices.stated_choice,
    "extract.answer_line": extract.answer_line,
    "extract.extract_program": extract.extract_program,
    "fences.program_arrived": fences.program_arrived,
    "extract.streamed_program": extract.streamed_program,
    "extract.labelled": lambda text: extract.labelled(text, extract._ANSWER_LINE),
    "grader.grade (number)": lambda text: grader.grade(text, "18"),
    "grader.grade (choice)": lambda text: grader.grade(text, "B"),
    "grader.grade (text)": lambda text: grader.grade(text, "blue whale"),
    "working.worked_solution": lambda text: working.worked_solution(f"ans = {text[:2000]!r}\nprint(ans)", {}, text),
    "display.display_text": display_text,
}
