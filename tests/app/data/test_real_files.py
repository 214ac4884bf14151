"""Real public data files read as a user keeps them: every gold of the real-file question set,
computed with pandas from the original files, comes out again from the rows as PAL Studio reads
them (so each file's dates, gaps and numbers were read right), and what each table is read as is
what its question needs."""

from __future__ import annotations

from app.data import open_data
from sandbox.data import frozen_tables
from tests.data.real_questions import FOLDER, QUESTIONS, golds


def test_every_gold_comes_out_of_the_files_as_read() -> None:
    tables = {}
    for path in sorted(FOLDER.iterdir()):
        tables.update({name: list(rows) for name, rows in frozen_tables(open_data(path).wire).items()})
    assert golds(tables) == tuple(gold for _file, _question, gold in QUESTIONS)
    assert {file for file, _q, _g in QUESTIONS} == {path.name for path in FOLDER.iterdir()}


def test_the_forms_in_the_real_files() -> None:
    kinds = {}
    for path in FOLDER.iterdir():
        for table in open_data(path).tables:
            kinds[table.name] = dict(zip(table.columns, table.types, strict=True))
            if table.name == "co2":
                assert table.missing == (0, 59)  # weeks without a measurement, told to the model
    assert kinds["stocks"]["date"] == "date"  # "Jan 1 2000"
    assert kinds["seattle_temps"]["date"] == "datetime"  # "2010/01/01 00:00"
    assert kinds["co2"]["date"] == "date"  # 19580329
    assert kinds["iowa_electricity_de"] == {"Jahr": "int", "Quelle": "text", "Nettoerzeugung_GWh": "int"}  # years
    assert kinds["deaths"]["death_date"] == "date" and kinds["deaths"]["age"] == "int"
    assert kinds["barley"] == {"yield": "float", "variety": "text", "year": "int", "site": "text"}
