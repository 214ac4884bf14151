"""The one method table: every name parses, the picker, `--help` and docs/methods.md come from it."""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli import build_parser
from app.reasoning.method_table import PLAIN_CHOICES, RESEARCH_HEADING, TABLE, markdown_table, picker
from app.reasoning.methods import DATA_METHODS, Method

ROOT = Path(__file__).resolve().parents[3]


def test_every_entry_is_a_method_and_says_whether_it_reads_data() -> None:
    assert len({entry.name for entry in TABLE}) == len(TABLE)
    for entry in TABLE:
        assert Method.parse(entry.name).name == entry.name
        assert entry.reads_data == (Method.parse(entry.name).base in DATA_METHODS)
    assert [entry.name for entry in TABLE[:PLAIN_CHOICES]] == ["pal", "mix", "cot"]


def test_the_picker_shows_what_each_measured_and_sets_research_variants_apart() -> None:
    rows = picker()
    heading = rows.index((None, RESEARCH_HEADING))
    research = {entry.name for entry in TABLE if entry.research}
    assert {name for name, _words in rows[heading + 1 :]} == research
    assert not research & {name for name, _words in rows[:heading]}
    for name, words in rows[PLAIN_CHOICES:heading]:  # below the line: each carries its measured result
        entry = next(e for e in TABLE if e.name == name)
        assert entry.measured and words.endswith(f" — {entry.measured}")


def test_help_and_docs_are_made_from_the_table() -> None:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helped = " ".join(commands.choices["ask"].format_help().split())
    assert all(entry.name in helped for entry in TABLE)
    assert markdown_table() in (ROOT / "docs/methods.md").read_text(encoding="utf-8")
