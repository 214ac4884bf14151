"""Exported worked solutions: Markdown, .py and a notebook that validates and reruns."""

from __future__ import annotations

import json
from dataclasses import replace

import nbformat

from app.export import notebook_text, to_markdown, to_python
from app.reasoning import solve_pal, solve_pot
from app.reasoning.events import LaneFinished
from app.reasoning.methods import solve
from app.reasoning.session import CancelToken
from models.testing import ScriptedModel
from sandbox import Sandbox

PROGRAM = "```python\n# money left\nmoney = 23\nspent = 5 * 3\nprint(money - spent)\n```"


def test_notebook_validates_and_reruns_to_the_answer(sandbox: Sandbox) -> None:
    solution = solve_pal("Olivia has $23 and buys 5 bagels at $3. Left?", ScriptedModel([PROGRAM]), sandbox)
    notebook = nbformat.reads(notebook_text(solution), as_version=4)
    nbformat.validate(notebook)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) == 1
    assert sandbox.run(code[0]).stdout.strip() == solution.answer == "8"


def test_python_file_has_the_question_and_answer_as_comments_and_runs(sandbox: Sandbox) -> None:
    question = 'Tricky """quotes""" and a C:\\path?\nSecond line'
    solution = solve_pot(question, ScriptedModel(["```python\nans = 6 * 7\n```"]), sandbox)
    text = to_python(solution)
    result = sandbox.run(text, capture=("ans",))
    assert result.ok and result.values["ans"].json == 42
    assert '# Tricky """quotes""" and a C:\\path?\n# Second line\n' in text and "# Answer:\n# 42\n" in text


def test_markdown_has_every_part_and_a_trace_table(sandbox: Sandbox) -> None:
    solution = solve_pal("Money left?", ScriptedModel([PROGRAM]), sandbox)
    trace = sandbox.run(solution.program or "", trace=True).trace
    text = to_markdown(solution, trace)
    for heading in ("## Question", "## Program", "## Output", "## Answer", "## Step by step"):
        assert heading in text
    assert "**8**" in text and "| money = 23, spent = 15 |" in text
    assert json.dumps(text)  # plain text, nothing exotic


def test_markdown_says_how_the_answer_was_checked(sandbox: Sandbox) -> None:
    """The window says under the answer how it was checked; the export said only the answer."""
    vote = solve(
        "Three pens at $4: how much?", "mix", ScriptedModel(["```python\nprint(3 * 4)\n```", "Answer: 12"]), sandbox
    )
    text = to_markdown(vote)
    answer = text.index("## Answer")
    assert text.index("- Vote of chain of thought and PAL: 12 ×2") > answer
    assert "- Checked: two different methods agree: a program and reasoning in words" in text
    hostile = replace(vote, notes=("[a link](http://example.com) <img src=x>\n# heading",))
    assert "- \\[a link\\](http://example.com) &lt;img src=x&gt; \\# heading" in to_markdown(hostile)
    single = to_markdown(solve_pal("Money left?", ScriptedModel([PROGRAM]), sandbox))
    assert "Vote of" not in single and "- Checked: one program" in single


def test_a_cancelled_vote_exports_no_answer_and_does_not_call_its_program_s_result_one(sandbox: Sandbox) -> None:
    """Seen in the window: Esc during the cross-check left "No answer: cancelled" in the export,
    and PAL's program worked through above it still ended "The answer: 80"."""
    cancel = CancelToken()

    def on_event(event: object) -> None:
        if isinstance(event, LaneFinished) and event.lane == 1:  # chain of thought is in: the user cancels
            cancel.cancel()

    model = ScriptedModel(["```python\nprint(80)\n```", "Answer: 70", "```python\nans = 80\n```"])
    vote = solve("How many gold coins?", "mix", model, sandbox, cancel=cancel, on_event=on_event)
    text = to_markdown(vote)
    assert "No answer: cancelled" in text
    assert "- Vote of chain of thought, PAL and PoT: 70 ×1, 80 ×1; 0 failed, 1 cancelled" in text  # as the window
    assert "The answer" not in text and "- This program's result, not the answer: $80$" in text
    answered = to_markdown(solve_pal("Money left?", ScriptedModel([PROGRAM]), sandbox))
    assert "- The answer: $" in answered
