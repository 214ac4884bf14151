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


def test_a_pandas_style_row_filter_fails_with_a_clear_message_instead_of_giving_the_first_row(
    sandbox: Sandbox,
) -> None:
    # tuple == "food" is False, and table[False] was table[0]: a silently wrong answer
    code = "t = tables['expenses']\nans = t[t['category'] == 'food']['amount']"
    result = sandbox.run(code, data=DATA)
    assert result.status is Status.ERROR
    assert "not a pandas DataFrame: pick rows with [r for r in table if" in (result.error or "")
    assert sandbox.run("ans = tables['expenses'][-1]['amount']", data=DATA).values["ans"].json == 7.25


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
