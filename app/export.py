"""Export a solve as the worked solution: Markdown, a Python file, or a Jupyter notebook.

Qt-free. The notebook (nbformat 4) has the question as Markdown and the program as a code cell
that reruns in Jupyter; the Python file carries the question as its docstring.
"""

from __future__ import annotations

from typing import Any

from app.reasoning import Solution
from app.reasoning.working import worked_solution

_FENCE = "```"


def to_markdown(solution: Solution, trace: list[dict[str, Any]] | None = None) -> str:
    parts = [f"# {_title(solution.question)}", "", "## Question", "", solution.question.strip(), ""]
    if solution.program:
        parts += ["## Program", "", f"{_FENCE}python", solution.program.rstrip(), _FENCE, ""]
    if solution.output:
        parts += ["## Output", "", _FENCE, solution.output.rstrip(), _FENCE, ""]
    if solution.error:
        parts += ["## Error", "", _FENCE, solution.error.rstrip(), _FENCE, ""]
    working = working_markdown(solution, trace)
    if working:
        parts += ["## Working", "", working, ""]
    parts += ["## Answer", "", f"**{solution.answer}**" if solution.answer else f"No answer: {solution.message}.", ""]
    if trace:
        parts += ["## Step by step", "", "| step | line | variables |", "|---|---|---|"]
        for number, step in enumerate(trace, 1):
            variables = ", ".join(f"`{k} = {v}`" for k, v in step.get("vars", {}).items()) or "—"
            escaped = variables.replace("|", "\\|")
            parts.append(f"| {number} | {step.get('line')} | {escaped} |")
        parts.append("")
    parts.append(f"_Method: {solution.method}; {len(solution.calls)} model call(s); solved with PAL Studio._")
    return "\n".join(parts) + "\n"


def to_python(solution: Solution) -> str:
    question = solution.question.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    answer = f"\n\nAnswer: {solution.answer}" if solution.answer else ""
    return f'"""{question}{answer}\n"""\n\n{(solution.program or "").rstrip()}\n'


def to_notebook(solution: Solution) -> Any:
    """An nbformat 4 notebook node (validated)."""
    import nbformat  # loaded on first export: it takes a tenth of a second

    cells = [nbformat.v4.new_markdown_cell(f"## Question\n\n{solution.question.strip()}")]
    if solution.program:
        cells.append(nbformat.v4.new_code_cell(solution.program.rstrip()))
    working = working_markdown(solution)
    if working:
        cells.append(nbformat.v4.new_markdown_cell(f"## Working\n\n{working}"))
    cells.append(nbformat.v4.new_markdown_cell(f"**Answer:** {solution.answer}" if solution.answer else "No answer."))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.validate(notebook)
    return notebook


def notebook_text(solution: Solution) -> str:
    import nbformat

    return str(nbformat.writes(to_notebook(solution)))


def working_markdown(solution: Solution, trace: list[dict[str, Any]] | None = None) -> str:
    """The worked solution as Markdown: each step's prose, then its mathematics in $…$."""
    steps = worked_solution(solution.program, solution.variables, solution.question, trace)
    return "\n".join(f"- {step.text} ${step.latex}$" for step in steps)


def _title(question: str) -> str:
    first = question.strip().splitlines()[0] if question.strip() else "Solution"
    return first if len(first) <= 80 else first[:77] + "…"


def export_text(solution: Solution, suffix: str, trace: list[dict[str, Any]] | None = None) -> str:
    """The solve in the format a file name's suffix asks for: a notebook (.ipynb), a Python
    script (.py), else Markdown (with the step-through table when there is a trace)."""
    if suffix == ".ipynb":
        return notebook_text(solution)
    if suffix == ".py":
        return to_python(solution)
    return to_markdown(solution, trace)
