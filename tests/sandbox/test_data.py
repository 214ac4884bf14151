"""The user's tables inside the sandbox: handed in with the request, read-only, dates as dates,
the memory limit widened for them, oversize data refused before anything runs (real sandbox)."""

from __future__ import annotations

import pytest

from sandbox import Sandbox, Status
from sandbox.data import MAX_DATA_BYTES, frozen_tables

DATA = {
    "expenses": {
        "columns": ["date", "category", "amount"],
        "types": ["date", "text", "float"],
        "rows": [["2024-01-03", "food", 12.5], ["2024-02-10", "rent", 700.0], ["2024-02-11", "food", 7.25]],
    }
}


def test_a_program_reads_the_tables(sandbox: Sandbox) -> None:
    code = (
        "rows = tables['expenses']\n"
        "ans = sum(r['amount'] for r in rows if r['category'] == 'food' and r['date'].month == 2)\n"
    )
    result = sandbox.run(code, data=DATA)
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == 7.25


@pytest.mark.parametrize(
    "attack",
    [
        "tables['expenses'][0]['amount'] = 0",
        "tables['new'] = ()",
        "tables['expenses'].append({})",
        "tables['expenses'].note = 'changed'",
        "tables['expenses']['amount'] = (0, 0, 0)",
    ],
)
def test_the_tables_cannot_be_changed(sandbox: Sandbox, attack: str) -> None:
    result = sandbox.run(attack, data=DATA)
    assert result.status is Status.ERROR
    assert "TypeError" in (result.error or "") or "AttributeError" in (result.error or "")


def test_a_column_by_its_name_as_models_write_it_and_math_and_datetime_without_imports(sandbox: Sandbox) -> None:
    code = (
        "amounts = tables['expenses']['amount']\n"
        "first = tables['expenses'][0]['date']\n"
        "ans = (round(sum(a for a in amounts if a is not None), 2), (first - datetime.date(2024, 1, 1)).days,"
        " math.isclose(1, 1), len(tables['expenses'][1:]))"
    )
    result = sandbox.run(code, data=DATA, capture=("ans",))
    assert result.ok, result.error
    assert result.values["ans"].json == [719.75, 2, True, 2]
    missing = sandbox.run("ans = tables['expenses']['price']", data=DATA)
    assert "no column 'price'; the columns are 'date', 'category', 'amount'" in (missing.error or "")
    in_a_row = sandbox.run("ans = [r['Year'] for r in tables['expenses']]", data=DATA)
    assert "KeyError: \"no column 'Year'; the columns are 'date', 'category', 'amount'\"" in (in_a_row.error or "")
    assert sandbox.run("ans = tables['expenses'][0].get('Year', 0)", data=DATA).values["ans"].json == 0


def test_an_error_in_the_data_helper_names_the_program_s_line_only(sandbox: Sandbox) -> None:
    """The traceback showed a frame of sandbox/data.py under the program's line: a student sees a
    file they never wrote. The helper's message says what the program did wrong."""
    result = sandbox.run("x = 1\nans = tables['expenses']['price']", data=DATA)
    assert result.error_line == 2
    assert "line 2" in (result.error or "") and "no column 'price'" in (result.error or "")
    assert "data.py" not in (result.error or "") and (result.error or "").count("File ") == 1


PANDAS_DATA = {
    "expenses": {
        "columns": ["date", "category", "amount", "units"],
        "types": ["date", "text", "float", "int"],
        "rows": [
            ["2024-01-03", "food", 12.5, 2],
            ["2024-02-10", "rent", 700.0, 1],
            ["2024-02-11", "food", 7.25, None],
            ["2024-03-01", "food", None, 4],
        ],
    }
}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # a mask picks rows (it was `t[False]`, the first row, silently)
        ("t[t['category'] == 'food']['amount'].sum()", 19.75),
        ("len(t[(t['category'] == 'food') & (t['date'].dt.month == 2)])", 1),
        ("len(t[(t['amount'] > 100) | ~(t['category'] == 'food')])", 1),
        # missing values are left out, as pandas leaves out NaN
        ("round(t['amount'].mean(), 4)", 239.9167),
        ("t['amount'].count()", 3),
        ("(t['amount'].max(), t['amount'].min(), t['units'].median())", [700.0, 7.25, 2]),
        ("(t['amount'] * t['units']).sum()", 725.0),
        ("t['category'].nunique()", 2),
        ("t['category'].unique()", ["food", "rent"]),
        ("t[t['amount'] > 1000]['amount'].mean() != t[t['amount'] > 1000]['amount'].mean()", True),  # NaN
        ("[r['amount'] for r in t[1:3]]", [700.0, 7.25]),
        ("sum(t['units'].tolist()[:2])", 3),
        (
            "((t['category'] == 'rent').any(), (t['amount'] > 5).all(), (t['units'] > 3).all())",
            [True, False, False],
        ),  # NaN > 5 is False, as in pandas
    ],
)
def test_the_pandas_habits_the_model_writes_work_with_pandas_meaning(
    sandbox: Sandbox, code: str, expected: object
) -> None:
    result = sandbox.run(f"t = tables['expenses']\nans = {code}", data=PANDAS_DATA, capture=("ans",))
    assert result.ok, result.error
    assert result.values["ans"].json == expected


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("t[t['amount'].tolist()]", "not a pandas DataFrame: pick rows with [r for r in table if"),
        ("t[t['units'] == 1][t['units'] == 1]", "a mask of 4 values for a table of 1 rows"),
        ("t['amount'] + (1, 2)", "columns of 4 and 2 values cannot be paired"),
        ("t.groupby('category')", "AttributeError"),
        # a mask is no single truth: `all(mask for …)` printed True for any table, each mask non-empty
        ("all(t['category'] == 'rent' for month in range(3))", "truth value of a column is ambiguous: use .any()"),
        ("'yes' if t['amount'] > 100 else 'no'", "truth value of a column is ambiguous"),
    ],
)
def test_pandas_habits_beyond_these_fail_with_a_clear_message(sandbox: Sandbox, code: str, said: str) -> None:
    result = sandbox.run(f"t = tables['expenses']\nans = {code}", data=PANDAS_DATA)
    assert result.status is Status.ERROR
    assert said in (result.error or "")


def test_each_run_sees_the_data_it_was_given(sandbox: Sandbox) -> None:
    assert sandbox.run("ans = len(tables['expenses'])", data=DATA).values["ans"].json == 3
    assert "NameError" in (sandbox.run("ans = tables", data=None).error or "")


def test_the_memory_limit_makes_room_for_the_data(sandbox: Sandbox) -> None:
    rows = [[f"2024-01-{1 + n % 28:02d}", f"item {n}", n * 0.5] for n in range(60_000)]
    data = {"big": {"columns": ["date", "name", "value"], "types": ["date", "text", "float"], "rows": rows}}
    result = sandbox.run("ans = round(sum(r['value'] for r in tables['big']), 1)", data=data, memory_mb=128)
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == round(sum(n * 0.5 for n in range(60_000)), 1)


def test_oversize_data_is_refused_before_running(sandbox: Sandbox) -> None:
    data = {"t": {"columns": ["x"], "types": ["text"], "rows": [["x" * 1000]] * (MAX_DATA_BYTES // 1000 + 10)}}
    with pytest.raises(ValueError, match="at most"):
        sandbox.run("ans = 1", data=data)


def test_malformed_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="wrong length"):
        frozen_tables({"t": {"columns": ["a", "b"], "types": ["int", "int"], "rows": [[1]]}})
    with pytest.raises(ValueError, match="columns, types and rows"):
        frozen_tables({"t": {"columns": ["a"]}})


def test_stepping_through_a_loop_over_the_data_stays_fast(sandbox: Sandbox) -> None:
    rows = [[f"2024-01-{1 + n % 28:02d}", f"item {n}", n * 0.5] for n in range(6_000)]
    data = {"big": {"columns": ["date", "name", "value"], "types": ["date", "text", "float"], "rows": rows}}
    code = "total = 0\nrows = tables['big']\nfor r in rows[:200]:\n    total += r['value']\nans = total"
    result = sandbox.run(code, data=data, trace=True, time_s=5)
    assert result.status is Status.OK, result.error
    assert result.trace is not None
    shown = next(step.vars["rows"] for step in result.trace if "rows" in step.vars)
    assert shown.startswith("(mappingproxy({'date': datetime.date(2024, 1, 1)") and len(shown) < 1000
    assert result.duration_s < 3
