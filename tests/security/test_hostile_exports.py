"""Exports that someone opens later run nothing: a solve whose question, program output and answer
are hostile text (real sandbox run) is exported to Markdown — rendered by a CommonMark parser —,
to a Python file — parsed —, to a notebook and to CSV, and each is checked for what a viewer, an
interpreter or a spreadsheet would do with it."""

from __future__ import annotations

import ast
import csv
import io
from dataclasses import replace

import nbformat
from markdown_it import MarkdownIt

from app.export import notebook_text, to_markdown, to_python
from app.reasoning import Solution, solve_pal
from app.reasoning.answer_table import AnswerTable
from app.reasoning.solution import Vote
from models.testing import ScriptedModel
from sandbox import Sandbox

from .hostile import HOSTILE_LINES

QUESTION = "How much?\n" + "\n".join(HOSTILE_LINES[:4])
PROGRAM = "lines = " + repr(list(HOSTILE_LINES)) + "\nfor line in lines:\n    print(line)\n"


def _solved(sandbox: Sandbox) -> Solution:
    solution = solve_pal(QUESTION, ScriptedModel([f"```python\n{PROGRAM}```"]), sandbox)
    assert solution.answer and "<b>PWNED</b>" in solution.answer  # the hostile text really is in it
    return solution


def test_markdown_shows_hostile_text_as_text(sandbox: Sandbox) -> None:
    solution = _solved(sandbox)
    trace = sandbox.run(PROGRAM, trace=True).trace
    page = MarkdownIt("commonmark").enable("table").render(to_markdown(solution, trace))
    # Raw HTML from the text would appear as tags; escaped, it appears as &lt;…
    for tag in ("<b>", "<img", "<table width", "<script"):
        assert tag not in page, tag
    assert "<a " not in page and 'src="http' not in page  # no link to click, no image that loads
    tokens = MarkdownIt("commonmark").parse(to_markdown(solution, trace))
    code = [t.content for t in tokens if t.type == "fence"]
    assert PROGRAM in code  # the program is one intact code block
    assert any("```" in block and "<script>" in block for block in code)  # output's fence did not close ours


def test_markdown_shows_a_hostile_tally_and_notes_as_text(sandbox: Sandbox) -> None:
    """How the answer was checked (the vote's tally, the notes) is exported under the answer: the
    answers in it are the program's output."""
    solution = _solved(sandbox)
    assert solution.answer is not None
    vote = replace(
        solution, samples=2, votes=(Vote(solution.answer, 1), Vote(HOSTILE_LINES[0], 1)), notes=HOSTILE_LINES[:4],
        fallback_used=True, error="\n".join(HOSTILE_LINES),  # why chain of thought's answer stands: the error
    )  # fmt: skip
    text = to_markdown(vote)
    assert "- Vote of 2 programs: " in text and "\n- Why: " in text
    page = MarkdownIt("commonmark").enable("table").render(text)
    for tag in ("<b>", "<img", "<table width", "<script"):
        assert tag not in page, tag
    assert "<a " not in page and 'src="http' not in page


def test_the_python_file_runs_only_the_program(sandbox: Sandbox) -> None:
    solution = _solved(sandbox)
    text = to_python(solution)
    assert text.startswith("# -*- coding: utf-8 -*-\n")  # a "coding: utf-7" comment cannot take over
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(PROGRAM))  # nothing but the program is code
    assert sandbox.run(text).stdout == sandbox.run(PROGRAM).stdout


def test_the_notebook_keeps_output_as_a_stream_and_markdown_inert(sandbox: Sandbox) -> None:
    solution = _solved(sandbox)
    notebook = nbformat.reads(notebook_text(solution), as_version=4)
    nbformat.validate(notebook)
    (code,) = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [output.output_type for output in code.outputs] == ["stream"]
    assert code.outputs[0].text == solution.output
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            page = MarkdownIt("commonmark").render(cell.source)
            assert "<b>" not in page and "<img" not in page and "<a " not in page


def test_csv_cells_never_start_a_formula() -> None:
    rows = tuple((line, -12.5, "-3") for line in HOSTILE_LINES)
    exported = AnswerTable(("=name", "amount", "text"), rows).to_csv()
    read = list(csv.reader(io.StringIO(exported)))
    for row in read:
        for cell in row:
            is_number = cell.lstrip("+-").replace(".", "", 1).isdigit()
            assert is_number or not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    assert read[1][1:] == ["-12.5", "-3"]  # numbers stay numbers
    assert read[0][0] == "'=name"
