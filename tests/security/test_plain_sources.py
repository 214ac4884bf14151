"""No view can quietly go back to guessing markup: every label is built as `app.ui.plain.Label`,
every question and message through `plain.message_box`, and no widget is given HTML."""

from __future__ import annotations

import re
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "app" / "ui"
FORBIDDEN = {
    "a bare QLabel (use plain.Label)": re.compile(r"\bQLabel\("),
    "a static QMessageBox helper (use plain.message_box)": re.compile(
        r"QMessageBox\.(question|warning|information|critical|about)\("
    ),
    "rich or guessed text format": re.compile(r"TextFormat\.(RichText|AutoText|MarkdownText)"),
    "HTML given to a widget": re.compile(r"\.(setHtml|insertHtml|setMarkdown)\("),
}


def test_views_show_text_only_as_text() -> None:
    found = [
        f"{path.name}:{number}: {what}"
        for path in sorted(UI.glob("*.py"))
        if path.name != "plain.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for what, pattern in FORBIDDEN.items()
        if pattern.search(line)
    ]
    assert found == []
