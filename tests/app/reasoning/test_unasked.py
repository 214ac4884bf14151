"""Filters a data program applies that the question never asked for, as the embedded model wrote
them over the data benchmarks; and the filters a question does ask for, which stay unflagged."""

from __future__ import annotations

import pytest

from app.reasoning.unasked import (
    asked_year,
    measured,
    recolumned,
    refiltered,
    renamed,
    rowpicked,
    unasked_filters,
    unread_measure,
    unread_measures,
    unread_year,
    unused_mentions,
    yeared,
)


@pytest.mark.parametrize(
    ("question", "program", "found"),
    [
        (
            "What was the total amount spent in March 2023?",
            "print(sum(r['amount'] for r in t if r['category'] == 'utilities' and r['date'].year == 2023\n"
            " and r['date'].month == 3))",
            ("'utilities' (line 1)",),
        ),
        (
            "What was the highest price AAPL reached?",
            "print(max(r['price'] for r in t if r['symbol'] == 'AAPL' and r['date'].year == 2000\n"
            " and r['date'].month == 3))",
            ("2000 (line 1)", "3 (line 2)"),
        ),
        ("In how many months was GOOG's price above 500?", "n = [r for r in t if r['d'].month == 1]", ("1 (line 1)",)),
        (
            "Which category has the highest total amount?",
            "x = {r['c']: sum(s['a'] for s in t if r['c'] == r['c']) for r in t}",
            ("r['c'] is compared with itself (line 1)",),
        ),
        (
            "How many people died on April 30, 1992?",
            "n = [r for r in t if r['when'] == '1992-04-30']",
            ("'1992-04-30' (line 1)",),
        ),
    ],
)
def test_unasked_filters_are_named(question: str, program: str, found: tuple[str, ...]) -> None:
    assert unasked_filters(program, question) == found


@pytest.mark.parametrize(
    ("question", "program"),
    [
        (
            "How much was spent on food in March 2024?",
            "s = [r for r in t if r['c'] == 'food' and r['d'].year == 2024 and r['d'].month == 3]",
        ),
        ("How many of the deaths were homicides?", "n = sum(r['type'] == 'Homicide' for r in t)"),
        ("Average miles in the 1990s?", "m = [r for r in t if 1990 <= r['year'] <= 1999]"),
        ("Units sold in Q2?", "u = [r for r in t if 4 <= r['day'].month <= 6]"),
        ("How many visits came from /pricing?", "n = [r for r in t if r['page'] == '/pricing' and r['n'] > 0]"),
        ("How many rows have a price?", "n = [r for r in t if r['price'] is not None and r['price'] != '']"),
        ("Total of column a?", "this is not Python ("),
    ],
)
def test_asked_filters_pass(question: str, program: str) -> None:
    assert unasked_filters(program, question) == ()


def test_a_value_every_row_holds_filters_nothing() -> None:
    program = "n = [r for r in t if r['region'] == 'north' and r['day'].year == 2024 and r['kind'] == 'sale']"
    question = "How many units did the north region sell?"
    assert unasked_filters(program, question) == ("2024 (line 1)", "'sale' (line 1)")
    assert unasked_filters(program, question, frozenset({2024, "sale"})) == ()


VALUES = {"category": frozenset({"food", "rent", "utilities"}), "payment": frozenset({"cash", "card"})}


@pytest.mark.parametrize(
    ("question", "program", "mended", "change"),
    [
        (  # the made-up category goes where the question names none
            "What was the total amount spent in March 2023?",
            "print(sum(r['amount'] for r in t if r['category'] == 'utilities' and r['date'].year == 2023))",
            "print(sum((r['amount'] for r in t if r['date'].year == 2023)))",
            "r['category'] == 'utilities' left out (line 1)",
        ),
        (  # and becomes the value of its column that the question names
            "How many expenses were paid in cash?",
            "n = len([r for r in t if r['payment'] == 'card'])",
            "n = len([r for r in t if r['payment'] == 'cash'])",
            "'card' read as 'cash', named in the question (line 1)",
        ),
        (  # a year the question does not give becomes the one it gives
            "How much was spent on food in 2024 in total?",
            "print(sum(r['amount'] for r in t if r['category'] == 'food' and r['date'].year == 2023))",
            "print(sum((r['amount'] for r in t if r['category'] == 'food' and r['date'].year == 2024)))",
            "2023 read as 2024, named in the question (line 1)",
        ),
        (  # and a month, given by its name
            "How many orders were there in July 2024?",
            "n = len([r for r in t if r['day'].year == 2024 and r['day'].month == 3])",
            "n = len([r for r in t if r['day'].year == 2024 and r['day'].month == 7])",
            "3 read as 7, named in the question (line 1)",
        ),
        (  # the example's month and year, copied, go
            "What was the highest price AAPL reached?",
            "p = max((r['price'] for r in t if r['symbol'] == 'AAPL' and r['date'].month == 3))",
            "p = max((r['price'] for r in t if r['symbol'] == 'AAPL'))",
            "r['date'].month == 3 left out (line 1)",
        ),
        (  # a date's text becomes the date the rows hold
            "How many people died on April 30, 1992?",
            "n = len([r for r in t if r['when'] == '1992-04-30'])",
            "n = len([r for r in t if r['when'] == datetime.date(1992, 4, 30)])",
            "'1992-04-30' read as the date datetime.date(1992, 4, 30) (line 1)",
        ),
        (  # a loop's `if`, as the model writes a group-by: the made-up filters go, the asked stay
            "Which month of 2024 had the highest total spending?",
            "totals = {}\nfor r in t:\n    if r['payment'] == 'card' and r['date'].year == 2024:\n"
            "        totals[r['date'].month] = totals.get(r['date'].month, 0) + r['amount']",
            "totals = {}\nfor r in t:\n    if r['date'].year == 2024:\n"
            "        totals[r['date'].month] = totals.get(r['date'].month, 0) + r['amount']",
            "r['payment'] == 'card' left out (line 3)",
        ),
        (  # and with nothing asked left in it, the `if` goes
            "How much was spent in total?",
            "s = 0\nfor r in t:\n    if r['category'] == 'utilities':\n        s += r['amount']",
            "s = 0\nfor r in t:\n    s += r['amount']",
            "r['category'] == 'utilities' left out (line 3)",
        ),
        (  # the group-by whose inner loop reused the outer row's name
            "Which category has the highest total?",
            "x = {r['category']: sum(r['amount'] for r in t if r['category'] == r['category']) for r in t}",
            "x = {r['category']: sum((r_row['amount'] for r_row in t if r_row['category'] == r['category']))"
            " for r in t}",
            "the inner loop's row renamed r_row, to compare it with the outer's (line 1)",
        ),
    ],
)
def test_unasked_filters_are_mended_without_the_model(question: str, program: str, mended: str, change: str) -> None:
    fixed = refiltered(program, question, frozenset(), VALUES)
    assert fixed is not None and fixed.program == mended and fixed.changes == (change,)
    assert not unasked_filters(fixed.program, question)


def test_what_cannot_be_mended_safely_is_left_to_the_model() -> None:
    question = "What was the total amount spent in March 2023?"
    # an `if` with an `else`: leaving its condition out changes what the `else` does
    loop = "s = 0\nfor r in t:\n    if r['category'] == 'utilities':\n        s += r['amount']\n"
    loop += "    else:\n        s = 0"
    assert refiltered(loop, question, frozenset(), VALUES) is None
    assert refiltered("s = sum(r['a'] for r in t)", question, frozenset(), VALUES) is None  # nothing to mend
    made_up = "n = [r for r in t if r['category'] == 'utilities']"  # the question names two: which?
    assert unasked_filters(made_up, "Spent on food or rent?")
    assert refiltered(made_up, "Spent on food or rent?", frozenset(), VALUES) is None


def test_a_mended_program_keeps_its_comment_lines() -> None:
    program = (
        "# every expense in March 2023\n"
        "march = [r for r in t if r['category'] == 'utilities' and r['date'].month == 3]  # inline: dropped\n"
        "\n# the total\nprint(sum(r['amount'] for r in march))\n# done"
    )
    fixed = refiltered(program, "Total spent in March 2023?", frozenset(), VALUES)
    assert fixed is not None
    assert fixed.program == (
        "# every expense in March 2023\nmarch = [r for r in t if r['date'].month == 3]\n"
        "# the total\nprint(sum((r['amount'] for r in march)))\n# done"
    )


def test_a_misspelled_name_is_put_right_only_to_a_name_the_program_gives() -> None:
    program = "# food\nlebensmittel = [r for r in t]\ntotal = sum(r['x'] for r in Lebensmittel)\nprint(total)"
    assert renamed(program, "Lebensmittel", "lebensmittel") == (
        "# food\nlebensmittel = [r for r in t]\ntotal = sum((r['x'] for r in lebensmittel))\nprint(total)"
    )
    assert renamed(program, "Lebensmittel", "nowhere") is None  # not a name it assigns
    assert renamed(program, "absent", "lebensmittel") is None  # nothing to rename


COUNTRIES = {"Country Name": frozenset({"Japan", "Niger", "Chad"}), "type": frozenset({"Homicide", "Death"})}
YEARS = ("Country Name", "1990", "2000", "2010")


@pytest.mark.parametrize(
    ("question", "program", "found"),
    [
        (  # the first row, whoever it is (a variable named after Japan reads nothing)
            "What was Japan's fertility rate in 2000?",
            "japan_2000 = tables['f'][0]['2000']",
            ("'Japan' (a value of the column 'Country Name')",),
        ),
        (  # the year's column the question names, not the one read
            "How many countries had a rate above 5 in 2010?",
            "n = len([r for r in t if r['1990'] is not None and r['1990'] > 5])",
            ("the column '2010'",),
        ),
        ("What was Japan's rate in 2000?", "x = [r['2000'] for r in t if r['Country Name'] == 'Japan']", ()),
        # the column is read (the model chose the value): not this check's to judge
        ("What was Japan's rate in 2000?", "x = [r['2000'] for r in t if r['Country Name'] == 'Chad']", ()),
        # "deaths" names a value of `type`, but the program filters on another of its values
        ("How many of the deaths were homicides?", "n = sum(r['type'] == 'Homicide' for r in t)", ()),
    ],
)
def test_what_the_question_names_and_the_program_never_reads(
    question: str, program: str, found: tuple[str, ...]
) -> None:
    assert unused_mentions(program, question, COUNTRIES, YEARS) == found


def test_the_year_column_the_question_names_is_read_instead_of_another() -> None:
    program = "# above 5\nn = len([r for r in t if r['1990'] is not None and r['1990'] > 5])"
    fixed = recolumned(program, "How many countries had a rate above 5 in 2010?", YEARS)
    assert fixed is not None and fixed.changes == ("read the column '2010', not '1990'",)
    assert fixed.program == "# above 5\nn = len([r for r in t if r['2010'] is not None and r['2010'] > 5])"
    assert recolumned(program, "Above 5 in 1990?", YEARS) is None  # it reads the year asked
    assert recolumned(program, "Above 5 in 2000 or 2010?", YEARS) is None  # which of the two?


def test_the_row_the_question_names_is_read_instead_of_one_picked_by_its_position() -> None:
    asked = "What was Japan's fertility rate in 2000?"
    program = "# Japan in 2000\nt = tables['f']\nrate = t[0]['2000'] if t[0]['2000'] is not None else 0\nprint(rate)"
    fixed = rowpicked(program, asked, COUNTRIES)
    assert fixed is not None and fixed.changes == ("the row whose 'Country Name' is 'Japan', not t[0]",)
    row = "next((r for r in t if r['Country Name'] == 'Japan'))"
    assert fixed.program.splitlines()[2] == f"rate = {row}['2000'] if {row}['2000'] is not None else 0"
    assert rowpicked("x = tables['f'][0]['2000']", "What was Chad's or Niger's rate?", COUNTRIES) is None  # which?
    assert rowpicked("x = tables['f'][0]['2000'] + tables['f'][1]['2000']", asked, COUNTRIES) is None  # two rows
    assert rowpicked("x = rows[0]['2000']", asked, COUNTRIES) is None  # not a table it knows
    assert rowpicked("t = t\nx = t[0]['2000']", asked, COUNTRIES) is None  # a name bound to itself
    # the column is read already: which row it chose is not this check's to judge
    assert rowpicked("x = [r for r in tables['f'] if r['Country Name'] == 'Chad'][0]", asked, COUNTRIES) is None


@pytest.mark.parametrize(
    ("question", "year"),
    [
        ("How much was spent on food in 2024 in total?", 2024),
        ("Which month of 2024 had the highest total spending?", 2024),
        ("What percentage of 2017's electricity came from renewables?", 2017),
        ("How much was spent since 2020?", None),  # a span, not one year
        ("What was the average from 1970 to 1979?", None),
        ("How many in the 1990s?", None),
        ("Did 2023 or 2024 have more?", None),  # two years
        ("How many orders had 2024 units?", None),  # a number, not a year kept to
        ("What is 2024.5 times 2?", None),
    ],
)
def test_the_year_a_question_keeps_to(question: str, year: int | None) -> None:
    assert asked_year(question) == year


def test_a_program_that_never_keeps_to_the_year_asked_is_given_its_condition() -> None:
    asked = "Which month of 2024 had the highest total spending?"
    dated = {"expenses": ("date", True), "targets": ("year", False)}
    loop = (
        "# each month's total\ntotals = {}\nfor r in tables['expenses']:\n"
        "    totals[r['date'].month] = totals.get(r['date'].month, 0) + r['amount']\nprint(max(totals, key=totals.get))"
    )
    fixed = yeared(loop, asked, dated)
    assert fixed is not None and fixed.changes == ("only the rows of 2024 kept, as the question asks",)
    assert fixed.program.splitlines()[:4] == [
        "# each month's total",
        "totals = {}",
        "for r in tables['expenses']:",
        "    if r['date'].year == 2024:",
    ]
    t = "t = tables['targets']\nprint(sum(x['units'] for x in t) / len([x for x in t]))"
    fixed = yeared(t, "What was the average target in 2024?", dated)
    assert fixed is not None and fixed.program == (
        "t = tables['targets']\n"
        "print(sum((x['units'] for x in t if x['year'] == 2024)) / len([x for x in t if x['year'] == 2024]))"
    )
    assert unread_year(fixed.program, "What was the average target in 2024?") is None
    # it reads the year already (as a number or in a text), or loops over no table it knows
    assert yeared("n = [r for r in tables['expenses'] if r['date'].year == 2024]", asked, dated) is None
    assert yeared("n = [r for r in tables['expenses'] if str(r['date']).startswith('2024')]", asked, dated) is None
    assert yeared("n = [r for r in rows]", asked, dated) is None
    assert yeared("n = [r for r in tables['other']]", asked, dated) is None


def test_the_measure_a_question_names_in_a_long_table() -> None:
    values = ("GDP (current US$)", "Population, total", "Life expectancy at birth, total (years)")
    every = "print(sum(r['Value'] for r in tables['wdi'] if r['Year'] == 2019))"
    assert unread_measure(every, "What was the total GDP in 2019?", "Indicator Name", values) == values[0]
    assert unread_measure(every, "Germany's population in 2019?", "Indicator Name", values) == values[1]
    assert unread_measure(every, "Where was life expectancy highest?", "Indicator Name", values) == values[2]
    assert unread_measure(every, "What was the total in 2019?", "Indicator Name", values) is None  # "total": two
    assert unread_measure(every, "How many rows are there?", "Indicator Name", values) is None
    read = "print(sum(r['Value'] for r in tables['wdi'] if r['Indicator Name'] == 'GDP'))"
    assert unread_measure(read, "What was the total GDP?", "Indicator Name", values) is None  # it reads the column
    fixed = measured(every, "What was the total GDP in 2019?", {"wdi": ("Indicator Name", values)})
    assert fixed is not None and fixed.changes == ("only the rows of 'GDP (current US$)' kept, as the question asks",)
    assert fixed.program == (
        "print(sum((r['Value'] for r in tables['wdi'] if r['Year'] == 2019"
        " if r['Indicator Name'] == 'GDP (current US$)')))"
    )
    assert measured(every, "What was the total GDP in 2019?", {"other": ("Indicator Name", values)}) is None
    # what is said of a value from the file stays short, however long the value
    long = ("Population, total " + "x" * 2000, "GDP")
    (said,) = unread_measures(every, "What was the population?", {"wdi": ("Indicator Name", long)})
    assert said.startswith("the rows of 'Population, total x") and len(said) < 200


def test_what_is_said_of_a_program_is_short_however_long_its_text() -> None:
    program = f"n = [r for r in t if r['c'] == '{'x' * 5000}' and r['{'k' * 3000}'] == r['{'k' * 3000}']]"
    found = unasked_filters(program, "How many?")
    assert len(found) == 2 and all(len(item) < 120 for item in found), [len(item) for item in found]
    fixed = refiltered(f"n = [r for r in t if r['d'] == '{'y' * 5000}']", "How many?", frozenset(), {})
    assert fixed is not None and len(fixed.changes[0]) < 120
