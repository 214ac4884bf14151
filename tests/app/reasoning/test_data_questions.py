"""Questions over a data file: the model gets the shape and a few rows, the program gets every row
as `tables` in the real sandbox, votes work over data, and an answer that is rows becomes a table."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.data import open_data
from app.reasoning import solve_pal, solve_pot
from app.reasoning.answer_table import table_of, wants_chart
from app.reasoning.methods import MethodError, solve
from app.reasoning.solution import Solution
from models.testing import ScriptedModel
from sandbox import Sandbox


@pytest.fixture
def expenses(tmp_path: Path) -> Path:
    lines = ["date,category,amount"]
    for n in range(300):
        lines.append(f"2024-{1 + n % 12:02d}-{1 + n % 28:02d},{('food', 'rent', 'travel')[n % 3]},{n % 40 + 0.5}")
    path = tmp_path / "expenses.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


FOOD_TOTAL = round(sum(n % 40 + 0.5 for n in range(300) if n % 3 == 0), 2)
PROGRAM = (
    "```python\nrows = tables['expenses']\n"
    "print(round(sum(r['amount'] for r in rows if r['category'] == 'food'), 2))\n```"
)


def _ask(question: str, replies: list[str], sandbox: Sandbox, expenses: Path) -> tuple[Solution, ScriptedModel]:
    """PAL over the expenses file on a model that gives `replies`; the solution and the model."""
    model = ScriptedModel(replies)
    return solve_pal(question, model, sandbox, data=open_data(expenses)), model


def test_the_program_computes_over_every_row(sandbox: Sandbox, expenses: Path) -> None:
    solution, model = _ask("How much was spent on food?", [PROGRAM], sandbox, expenses)
    assert solution.answer == f"{FOOD_TOTAL:g}"
    prompt = model.calls[0]
    assert 'tables["expenses"]: 300 rows' in prompt and "amount (number)" in prompt
    assert prompt.count("'category'") == 3  # three sample rows (and none of the other 297)


def test_two_numbers_for_one_total_are_not_taken_on_trust(sandbox: Sandbox, expenses: Path) -> None:
    # as the embedded model did over a weather file: a column added to itself, element by element
    both = "```python\nrows = tables['expenses']\nprint((rows[0]['amount'], rows[1]['amount']))\n```"
    solution, _model = _ask("What is the total amount spent?", [both], sandbox, expenses)
    assert solution.answer == "(0.5, 1.5)" and solution.confidence.level == "wrong kind"
    assert solution.confidence.text.endswith("; but it is 2 numbers, and the question asks for one total")
    right, _model = _ask("What is the total amount spent on food?", [PROGRAM], sandbox, expenses)
    assert right.confidence.level != "wrong kind"


def test_a_program_that_filters_on_what_was_not_asked_is_mended_or_written_again(
    sandbox: Sandbox, expenses: Path
) -> None:
    # as the embedded model did: "total spent in March" computed for one category it made up
    copied = (
        "```python\nrows = tables['expenses']\nprint(sum(r['amount'] for r in rows\n"
        "    if r['category'] == 'rent' and r['date'].month == 3))\n```"
    )
    march = sum(n % 40 + 0.5 for n in range(300) if n % 12 == 2)
    solution, model = _ask("How much was spent in March?", [copied], sandbox, expenses)
    assert solution.answer == f"{march:g}" and len(model.calls) == 1  # mended without the model
    assert solution.program is not None and "'rent'" not in solution.program and len(solution.programs) == 2
    assert "mended: r['category'] == 'rent' left out (line 3)." in solution.notes[-1]
    # where it cannot be mended (an `if` with an `else`), the model writes it again, told what
    in_a_loop = (
        "```python\ns = 0\nfor r in tables['expenses']:\n    if r['category'] == 'rent' and r['date'].month == 3:\n"
        "        s += r['amount']\n    else:\n        continue\nprint(s)\n```"
    )
    fixed = "```python\nprint(sum(r['amount'] for r in tables['expenses'] if r['date'].month == 3))\n```"
    solution, model = _ask("How much was spent in March?", [in_a_loop, fixed], sandbox, expenses)
    assert solution.answer == f"{march:g}" and len(model.calls) == 2
    assert "It compares with 'rent' (line 3), which the question does not mention." in model.calls[1]
    assert model.calls[1].startswith(model.calls[0])  # the same conversation, going on
    assert "The first program compared with 'rent' (line 3)" in solution.notes[-1]
    # a second program that fails (or filters on as much) leaves the first answer standing
    rent_march = sum(n % 40 + 0.5 for n in range(300) if n % 12 == 2 and n % 3 == 1)
    for second in ("```python\nprint(tables['nope'])\n```", in_a_loop):
        kept, model = _ask("How much was spent in March?", [in_a_loop, second], sandbox, expenses)
        assert kept.answer == f"{rent_march:g}"
        assert kept.notes == (
            "The program compared with 'rent' (line 3), which the question does not ask about, "
            "and a second try did no better: check this answer.",
        )
    # nothing unasked: one call
    model = ScriptedModel([PROGRAM])
    assert solve_pal("How much was spent on food?", model, sandbox, data=open_data(expenses)).answer
    assert len(model.calls) == 1


def test_a_program_over_data_that_fails_is_written_again_told_the_error(sandbox: Sandbox, expenses: Path) -> None:
    # a pandas habit the tables do not take: the error is the model's to read
    failing = "```python\nt = tables['expenses']\nprint(t.groupby('category')['amount'].sum()['food'])\n```"
    solution, model = _ask("How much was spent on food?", [failing, PROGRAM], sandbox, expenses)
    assert solution.answer == f"{FOOD_TOTAL:g}" and solution.repair_used
    assert "failed when it ran." in model.calls[1] and "no attribute 'groupby'" in model.calls[1]
    assert 'tables["expenses"]: 300 rows' in model.calls[1]
    assert "The first program failed; it was written again." in solution.notes
    # a misspelled name is put right without the model
    typo = (
        "```python\n# food only\nfood = [r for r in tables['expenses'] if r['category'] == 'food']\n"
        "print(round(sum(r['amount'] for r in Food), 2))\n```"
    )
    spelled, model = _ask("How much was spent on food?", [typo], sandbox, expenses)
    assert spelled.answer == f"{FOOD_TOTAL:g}" and len(model.calls) == 1
    assert spelled.program is not None and spelled.program.startswith("# food only\n")
    assert "The program misspelled `food` as `Food`; mended." in spelled.notes
    # a model error on the second look (a prompt beyond its context) leaves the first failure as it was
    beyond, model = _ask("How much was spent on food?", [failing], sandbox, expenses)
    assert beyond.status.value == "execution_failed" and "no attribute 'groupby'" in (beyond.error or "")
    # a rewrite that runs but never reads what the question names is not taken in place of a failure
    everything = "```python\nprint(sum(r['amount'] for r in tables['expenses']))\n```"
    doubted, model = _ask("How much was spent on food?", [failing, everything], sandbox, expenses)
    assert doubted.status.value == "execution_failed" and doubted.answer is None and len(model.calls) == 2
    # failing twice: the first failure is what is shown
    failed, model = _ask("How much was spent on food?", [failing, failing], sandbox, expenses)
    assert failed.answer is None and failed.status.value == "execution_failed"
    assert len(failed.programs) == 1 and "no attribute 'groupby'" in (failed.error or "")


def test_a_program_that_never_reads_what_the_question_names_is_mended_or_written_again(
    sandbox: Sandbox, expenses: Path
) -> None:
    # as over the fertility file: "Japan" asked, the first row read; the row named is read instead
    first_row = "```python\n# the travel expense\nprint(tables['expenses'][0]['amount'])\n```"
    picked, model = _ask("How much was the travel expense on March 3?", [first_row], sandbox, expenses)
    assert picked.answer == "2.5" and len(model.calls) == 1  # row 2: 2024-03-03, travel, 2.5 (row 0 is food)
    assert picked.program == (
        "# the travel expense\nprint(next((r for r in tables['expenses'] if r['category'] == 'travel'))['amount'])"
    )
    assert "mended: the row whose 'category' is 'travel', not tables['expenses'][0]." in picked.notes[-1]
    # not a row by its position: the model writes it again, told what
    every_row = "```python\nprint(sum(r['amount'] for r in tables['expenses']))\n```"
    solution, model = _ask("How much was spent on food?", [every_row, PROGRAM], sandbox, expenses)
    assert solution.answer == f"{FOOD_TOTAL:g}" and len(model.calls) == 2
    assert "It never reads 'food' (a value of the column 'category'), which the question names." in model.calls[1]
    assert "The first program never read 'food' (a value of the column 'category')" in solution.notes[-1]
    # the same again: the first answer stands, and says it is doubtful
    kept, model = _ask("How much was spent on food?", [every_row, every_row], sandbox, expenses)
    assert kept.answer == f"{sum(n % 40 + 0.5 for n in range(300)):g}"
    assert kept.notes[-1].endswith("which the question names, and a second try did no better: check this answer.")


def test_a_program_over_a_long_table_keeps_to_the_measure_asked(sandbox: Sandbox, tmp_path: Path) -> None:
    """World Bank's long export: "Germany's population" was answered with Germany's GDP, the rows
    of every indicator read; "the total GDP" added populations and life expectancies to it."""
    indicators = {"GDP (current US$)": 3.9e12, "Population, total": 83.2e6, "Life expectancy, total (years)": 81.0}
    rows = [
        f'{country},"{name}",{year},{value * (1 + 0.01 * (year - 2020)) + n}'
        for n, country in enumerate(("France", "Germany"))
        for name, value in indicators.items()
        for year in (2020, 2021)
    ]
    path = tmp_path / "wdi.csv"
    path.write_text("Country Name,Indicator Name,Year,Value\n" + "\n".join(rows) + "\n")
    germany = "r['Country Name'] == 'Germany' and r['Year'] == 2021"
    every = f"```python\nprint(next(r['Value'] for r in tables['wdi'] if {germany}))\n```"
    model = ScriptedModel([every])
    solution = solve_pal("What was Germany's population in 2021?", model, sandbox, data=open_data(path))
    assert solution.answer == str(round(83.2e6 * 1.01 + 1)) and len(model.calls) == 1
    assert "mended: only the rows of 'Population, total' kept, as the question asks." in solution.notes[-1]
    assert "Indicator Name (text; its values: 'GDP (current US$)', 'Population, total'," in model.calls[0]


def test_a_program_that_never_keeps_to_the_year_asked_is_mended(
    sandbox: Sandbox, tmp_path: Path, expenses: Path
) -> None:
    # seen on the data benchmark: "spent on food in 2024" summed over both years
    rows = [f"{2023 + n % 2}-{1 + n % 12:02d}-01,{('food', 'rent')[n % 3 % 2]},{n}" for n in range(60)]
    path = tmp_path / "two_years.csv"
    path.write_text("date,category,amount\n" + "\n".join(rows) + "\n")
    every_year = "```python\nprint(sum(r['amount'] for r in tables['two_years'] if r['category'] == 'food'))\n```"
    model = ScriptedModel([every_year])
    solution = solve_pal("How much was spent on food in 2024?", model, sandbox, data=open_data(path))
    food_2024 = sum(n for n in range(60) if n % 2 == 1 and n % 3 % 2 == 0)
    assert solution.answer == str(food_2024) and len(model.calls) == 1
    assert "mended: only the rows of 2024 kept, as the question asks." in solution.notes[-1]
    # with a filter it never asked for: that goes, and the year comes in
    march = "```python\nprint(sum(r['amount'] for r in tables['two_years'] if r['date'].month == 3))\n```"
    solution = solve_pal("How much was spent in 2024?", ScriptedModel([march]), sandbox, data=open_data(path))
    assert solution.answer == str(sum(n for n in range(60) if n % 2 == 1))
    assert "r['date'].month == 3 left out (line 1); only the rows of 2024 kept" in solution.notes[-1]
    # a file of 2024 alone: nothing to keep to, nothing said
    model = ScriptedModel([PROGRAM])
    assert solve_pal("How much was spent on food in 2024?", model, sandbox, data=open_data(expenses)).notes == ()
    march = march.replace("two_years", "expenses")
    mended = solve_pal("How much was spent in 2024?", ScriptedModel([march]), sandbox, data=open_data(expenses))
    assert mended.notes[-1].endswith("mended: r['date'].month == 3 left out (line 1).")


def test_a_program_that_printed_none_is_written_again(sandbox: Sandbox, expenses: Path) -> None:
    # as over the fertility file: a test on the first row alone, which is not the one asked for
    nothing = "```python\nrow = tables['expenses'][0]\nprint(row['amount'] if row['category'] == 'rent' else None)\n```"
    solution, model = _ask("How much was spent on rent or food?", [nothing, PROGRAM], sandbox, expenses)
    assert solution.answer == f"{FOOD_TOTAL:g}" and len(model.calls) == 2
    assert "That program printed None.\nIt found no value." in model.calls[1]
    assert "The first program printed None; it was written again." in solution.notes


def test_a_vote_over_data(sandbox: Sandbox, expenses: Path) -> None:
    model = ScriptedModel([PROGRAM, PROGRAM, "```python\nprint(1)\n```"])
    solution = solve("How much was spent on food?", "sc3-pal", model, sandbox, data=open_data(expenses))
    # two agreeing samples of three settle it: the third is never asked for
    assert solution.answer == f"{FOOD_TOTAL:g}" and [v.count for v in solution.votes] == [2]
    assert solution.samples == 2 and len(model.calls) == 2


def test_methods_without_programs_refuse_data(sandbox: Sandbox, expenses: Path) -> None:
    with pytest.raises(MethodError, match="need a program method"):
        solve("How much?", "cot", ScriptedModel(["Answer: 1"]), sandbox, data=open_data(expenses))


def test_rows_as_the_answer_become_a_table(sandbox: Sandbox, expenses: Path) -> None:
    program = (
        "```python\ntotals = {}\nfor r in tables['expenses']:\n"
        "    totals[r['category']] = totals.get(r['category'], 0) + r['amount']\n"
        "ans = [{'category': c, 'total': round(t, 2)} for c, t in sorted(totals.items())]\n```"
    )
    solution = solve_pot(
        "Total per category as a bar chart", ScriptedModel([program]), sandbox, data=open_data(expenses)
    )
    table = table_of(solution.variables)
    assert table is not None and table.columns == ("category", "total")
    assert [row[0] for row in table.rows] == ["food", "rent", "travel"]
    assert table.rows[0][1] == FOOD_TOTAL
    assert table.to_csv().splitlines()[0] == "category,total"
    series = table.series()
    assert series is not None and series[0] == ["food", "rent", "travel"] and series[2] == "total"
    assert wants_chart("Total per category as a bar chart") and not wants_chart("What is the total?")
    assert solution.to_json()["table"]["columns"] == ["category", "total"]


def test_rows_a_program_printed_from_a_variable_of_its_own_are_the_table(sandbox: Sandbox, expenses: Path) -> None:
    # seen in the window: the answer read "5 rows — see Table" and there was no Table
    program = (
        "```python\nfood = [r for r in tables['expenses'] if r['category'] == 'food']\nn = len(food)\nprint(food)\n```"
    )
    solution = solve_pal("List the food purchases", ScriptedModel([program]), sandbox, data=open_data(expenses))
    table = table_of(solution.variables, solution.answer)
    assert table is not None and table.columns == ("date", "category", "amount") and len(table.rows) == 100
    assert table_of(solution.variables, "100") is None  # a number's working rows are not its table


def test_a_dict_a_program_printed_is_the_table(sandbox: Sandbox, expenses: Path) -> None:
    # seen in the window: "as a table" answered {'North': 160, 'South': 150, …} and no Table
    program = (
        "```python\ntotals = {}\nfor r in tables['expenses']:\n"
        "    totals[r['category']] = totals.get(r['category'], 0) + r['amount']\nprint(totals)\n```"
    )
    solution = solve_pal("Total per category as a table", ScriptedModel([program]), sandbox, data=open_data(expenses))
    table = table_of(solution.variables, solution.answer)
    assert table is not None and [row[0] for row in table.rows] == ["food", "rent", "travel"]
    assert table.rows[0][1] == FOOD_TOTAL and table.columns == ("key", "value")
    assert table_of(solution.variables, "3") is None
    named = solve_pal(
        "q", ScriptedModel([program.replace("totals", "amount_by_category")]), sandbox, data=open_data(expenses)
    )
    by_category = table_of(named.variables, named.answer)
    assert by_category is not None and by_category.columns == ("category", "amount")


def test_a_program_cannot_change_the_data_for_the_next_sample(sandbox: Sandbox, expenses: Path) -> None:
    vandal = "```python\ntry:\n    tables['expenses'][0]['amount'] = 10**9\nexcept TypeError:\n    pass\nprint(1)\n```"
    model = ScriptedModel([vandal, PROGRAM])
    data = open_data(expenses)
    solve_pal("q", model, sandbox, data=data)
    assert solve_pal("How much was spent on food?", model, sandbox, data=data).answer == f"{FOOD_TOTAL:g}"
