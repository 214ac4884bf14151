"""Export a solve as the worked solution: Markdown, a Python file, or a Jupyter notebook.

Qt-free. The notebook (nbformat 4) has the question as Markdown and the program as a code cell
that reruns in Jupyter, with what it printed as that cell's stream output; the Python file carries
the question and the answer as comments.

Opening an export must run nothing the program printed or the model wrote (issue 28): in Markdown
every text outside a code block has its HTML and Markdown characters escaped (no raw HTML, no
images or links that load when the file is viewed) and every code block's fence is longer than
any run of backticks inside it; in the Python file the only code is the program itself — question
and answer are `#` comments, after a fixed first line that declares UTF-8 (a comment such as
"coding: utf-7" on the first two lines would otherwise change how Python reads the file).
"""

from __future__ import annotations

import html
import re
from typing import Any

from app.reasoning import Solution
from app.reasoning.check_working import CheckedWorking
from app.reasoning.how_checked import how_checked
from app.reasoning.working import worked_solution
from sandbox import TraceStep

_BACKTICKS = re.compile(r"`+")
# What can start markup in Markdown text: code spans, emphasis, links and images ([…](…)), tables,
# strike-through, headings; HTML's < > & are escaped as entities.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|~#$])")
_HEADER = "# -*- coding: utf-8 -*-\n# The worked solution, exported by PAL Studio.\n"


def fenced(text: str, language: str = "") -> list[str]:
    """`text` as a Markdown code block whose fence no line of `text` can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + language, text, fence]


def markdown_text(text: str) -> str:
    """`text` shown literally in Markdown: HTML escaped, Markdown's punctuation backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def table_cell(text: str) -> str:
    return markdown_text(" ".join(text.split()))


def _math(latex: str) -> str:
    """Our own LaTeX (working.py escapes what it quotes) between $ signs: no $, backtick or tag can end it."""
    return html.escape(latex.replace("$", "").replace("`", ""), quote=False)


def to_markdown(
    solution: Solution, trace: tuple[TraceStep, ...] | None = None, checked: CheckedWorking | None = None
) -> str:
    question = markdown_text(solution.question.strip())
    parts = [f"# {markdown_text(_title(solution.question))}", "", "## Question", "", question, ""]
    if solution.program:
        parts += ["## Program", "", *fenced(solution.program.rstrip(), "python"), ""]
    if solution.output:
        parts += ["## Output", "", *fenced(solution.output.rstrip()), ""]
    if solution.error:
        parts += ["## Error", "", *fenced(solution.error.rstrip()), ""]
    working = working_markdown(solution, trace)
    if working:
        parts += ["## Working", "", working, ""]
    answer = (
        f"**{markdown_text(solution.answer)}**" if solution.answer else f"No answer: {markdown_text(solution.message)}."
    )
    checks = [f"- {table_cell(line)}" for line in how_checked(solution)]  # answers in them are untrusted
    parts += ["## Answer", "", answer, "", *checks, *([""] if checks else [])]
    if checked is not None:
        parts += ["## Your working, checked", "", checked_markdown(checked), ""]
    if trace:
        parts += ["## Step by step", "", "| step | line | variables |", "|---|---|---|"]
        for number, step in enumerate(trace, 1):
            variables = ", ".join(f"{k} = {v}" for k, v in step.vars.items()) or "—"
            parts.append(f"| {number} | {step.line} | {table_cell(variables)} |")
        parts.append("")
    parts.append(
        f"_Method: {markdown_text(solution.method)}; {len(solution.calls)} model call(s); solved with PAL Studio._"
    )
    return "\n".join(parts) + "\n"


def to_python(solution: Solution) -> str:
    """The program, runnable; question and answer above it as comments (never as code or a string)."""
    said = ["Question:", *solution.question.strip().splitlines()]
    if solution.answer:
        said += ["", "Answer:", *solution.answer.splitlines()]
    comments = "".join(f"# {line}".rstrip() + "\n" for line in said)
    return f"{_HEADER}#\n{comments}\n{(solution.program or '').rstrip()}\n"


def to_notebook(solution: Solution) -> Any:
    """An nbformat 4 notebook node (validated)."""
    import nbformat  # loaded on first export: it takes a tenth of a second

    cells = [nbformat.v4.new_markdown_cell(f"## Question\n\n{markdown_text(solution.question.strip())}")]
    if solution.program:
        # What the program printed is its cell's stream output: text, which Jupyter never renders.
        printed = [nbformat.v4.new_output("stream", name="stdout", text=solution.output)] if solution.output else []
        cells.append(nbformat.v4.new_code_cell(solution.program.rstrip(), outputs=printed))
    working = working_markdown(solution)
    if working:
        cells.append(nbformat.v4.new_markdown_cell(f"## Working\n\n{working}"))
    answer = f"**Answer:** {markdown_text(solution.answer)}" if solution.answer else "No answer."
    cells.append(nbformat.v4.new_markdown_cell(answer))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.validate(notebook)
    return notebook


def notebook_text(solution: Solution) -> str:
    import nbformat

    return str(nbformat.writes(to_notebook(solution)))


def working_markdown(solution: Solution, trace: tuple[TraceStep, ...] | None = None) -> str:
    """The worked solution as Markdown: each step's prose, then its mathematics in $…$."""
    steps = worked_solution(
        solution.program, solution.variables, solution.question, trace, solution.output,
        answered=solution.answered,
    )  # fmt: skip
    return "\n".join(f"- {markdown_text(step.text)} ${_math(step.latex)}$" for step in steps)


def checked_markdown(checked: CheckedWorking) -> str:
    """The student's working as checked: each line marked, why, and the solution's step."""
    rows = []
    for line in checked.lines:
        step = f" (the solution: {table_cell(line.step)})" if line.step and not line.ok else ""
        rows.append(f"- {'✓' if line.ok else '✗'} {table_cell(line.text)} — {table_cell(line.reason)}{step}")
    return "\n".join(rows)


def _title(question: str) -> str:
    first = question.strip().splitlines()[0] if question.strip() else "Solution"
    return first if len(first) <= 80 else first[:77] + "…"


def export_text(
    solution: Solution, suffix: str, trace: tuple[TraceStep, ...] | None = None, checked: CheckedWorking | None = None
) -> str:
    """The solve in the format a file name's suffix asks for: a notebook (.ipynb), a Python
    script (.py), else Markdown (with the step-through table when there is a trace, and the
    student's working as checked)."""
    if suffix == ".ipynb":
        return notebook_text(solution)
    if suffix == ".py":
        return to_python(solution)
    return to_markdown(solution, trace, checked)
