"""The data-question benchmark set holds what issue 18 asks (3 files of ≥ 5,000 rows, ≥ 30
questions), and its golds survive the trip through the files: computed again from the rows as
PAL Studio reads them back (typed cells, dates as dates, what the sandbox's `tables` hold), every
gold is the same as computed from the generated rows."""

from __future__ import annotations

from pathlib import Path

from app.data import open_data
from sandbox.data import frozen_tables
from tests.data.data_questions import QUESTIONS, questions, write_files


def test_the_files_and_golds_round_trip(tmp_path: Path) -> None:
    paths = write_files(tmp_path)
    tables = {}
    for path in paths.values():
        data = open_data(path)
        tables.update({name: [dict(row) for row in rows] for name, rows in frozen_tables(data.wire).items()})
    assert {name: len(rows) for name, rows in tables.items()} == {
        "expenses": 6_000, "orders": 5_000, "targets": 48, "visits": 5_000,
    }  # fmt: skip
    assert len(QUESTIONS) >= 30 and {file for file, _q, _gold in QUESTIONS} == {"expenses", "sales", "visits"}
    again = questions(tables["expenses"], tables["orders"], tables["targets"], tables["visits"])
    assert again == QUESTIONS
