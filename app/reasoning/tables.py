"""A table pasted beside a question, written into the prompt as plain rows the model can read."""

from __future__ import annotations


def linearise_table(text: str) -> str:
    """A pasted table (CSV, tab- or |-separated) as rows on lines with cells joined by ' | '."""
    rows = []
    for line in text.strip().splitlines():
        separator = "\t" if "\t" in line else ("|" if "|" in line else ",")
        cells = [cell.strip() for cell in line.strip().strip("|").split(separator)]
        rows.append(" | ".join(cells))
    return "\n".join(rows)


def with_table(question: str, table: str) -> str:
    """The question as the model sees it: the table's rows first, when there is a table."""
    question, table = question.strip(), table.strip()
    return f"{linearise_table(table)}\n{question}" if table else question


def without_table(question: str) -> tuple[str, int]:
    """The question a user typed, and the number of table rows `with_table` put before it (0 when
    none): for a list of past questions, where the rows' first line would hide the question."""
    lines = question.split("\n")
    rows = next((n for n, line in enumerate(lines) if " | " not in line), len(lines))
    asked = "\n".join(lines[rows:]).strip()
    return (asked, rows) if rows and asked else (question, 0)
