"""Cells as people keep them: dates, numbers and gaps in their common forms, each read to one
value, and a column decided as a whole."""

from __future__ import annotations

import time

import pytest

from app.data.cells import Cell, read_column


def _read(*cells: Cell, name: str = "x", decimal_comma: bool = False) -> tuple[str, tuple[Cell, ...]]:
    column = read_column(name, list(cells), decimal_comma=decimal_comma)
    return column.kind, column.values


AM_PM = ("2024-01-05T10:15:00", "2024-01-06T12:30:00", "2024-01-07T00:05:00")  # as US spreadsheets export them


@pytest.mark.parametrize(
    ("cells", "kind", "values"),
    [
        (("2012/01/01", "2012/12/31"), "date", ("2012-01-01", "2012-12-31")),
        (("2012-01-01", "2012.1.5"), "date", ("2012-01-01", "2012-01-05")),
        (("31.12.2024", "01.02.2024"), "date", ("2024-12-31", "2024-02-01")),  # dots: day first
        (("25/12/2024", "01/02/2024"), "date", ("2024-12-25", "2024-02-01")),  # 25 cannot be a month
        (("12/25/2024", "01/02/2024"), "date", ("2024-12-25", "2024-01-02")),  # 25 cannot be a month
        (("1/5/24", "12/31/99"), "date", ("2024-01-05", "1999-12-31")),
        (("5 Jan 2024", "January 17, 2024", "2024-Feb-03"), "date", ("2024-01-05", "2024-01-17", "2024-02-03")),
        (("2024-01-05T10:30:00", "2024-01-05 11:00"), "datetime", ("2024-01-05T10:30:00", "2024-01-05T11:00:00")),
        (("2024-01-05T10:30:00Z",), "datetime", ("2024-01-05T10:30:00+00:00",)),
        (("2024-01-05T10:30:00.25+02:00",), "datetime", ("2024-01-05T10:30:00.250000+02:00",)),
        (("2024-01-05", "2024-01-06 08:00"), "datetime", ("2024-01-05T00:00:00", "2024-01-06T08:00:00")),
        (("1/5/2024 10:15 AM", "1/6/2024 12:30 PM", "1/7/2024 12:05 a.m."), "datetime", AM_PM),
        (("1/5/2024 13:15 PM",), "text", ("1/5/2024 13:15 PM",)),
        (("2024-02-30",), "text", ("2024-02-30",)),  # no such day: not a date column
        (("25/13/2024",), "text", ("25/13/2024",)),  # neither order makes it a date
        (("Jan",), "text", ("Jan",)),  # a month without a year is not a date
    ],
)
def test_dates_in_every_common_form(cells: tuple[str, ...], kind: str, values: tuple[Cell, ...]) -> None:
    assert _read(*cells) == (kind, values)


def test_a_column_that_cannot_tell_day_from_month_says_how_it_was_read() -> None:
    column = read_column("when", ["01/02/2024", "03/04/2024"])
    assert column.values == ("2024-01-02", "2024-03-04")
    assert column.note is not None and column.note.startswith("the dates could be day/month or month/day")
    assert column.note.endswith("read as month/day/year (01/02/2024 is 2 January 2024)")
    assert read_column("when", ["13/02/2024", "03/04/2024"]).note is None  # the 13 told


def test_excel_serial_dates_in_a_column_named_as_a_date() -> None:
    column = read_column("Order date", [45306, 45307.0, None])
    assert (column.kind, column.values) == ("date", ("2024-01-15", "2024-01-16", None))
    assert column.note is not None and "Excel serial dates" in column.note
    assert read_column("units", [45306, 45307]).kind == "int"  # a count, not a day
    assert read_column("date", [3, 4]).kind == "int"  # out of the range of days


def test_dates_that_are_all_the_first_of_january_are_years() -> None:
    column = read_column("Jahr", ["01.01.2001", "01.01.2002", None, "01.01.2016"])
    assert (column.kind, column.values) == ("int", (2001, 2002, None, 2016))
    assert column.note == "dates that are all 1 January read as years (2001-01-01 is 2001)"
    assert read_column("d", ["2001-01-01", "2002-01-01"]).kind == "date"  # two: too few to tell
    assert read_column("d", ["2001-01-01", "2002-01-01", "2003-02-01"]).kind == "date"  # a February
    assert read_column("d", ["2001-01-01", "2002-01-01", "2003-01-01 10:00"]).kind == "datetime"


def test_a_gap_marker_formatted_with_the_columns_unit_is_a_gap() -> None:
    # a spreadsheet's currency format around "N/A" (seen in a household export)
    column = read_column("Betrag", ["237,12 €", "N/A €", "20,89 €"], decimal_comma=True)
    assert (column.kind, column.values, column.missing, column.unit) == ("float", (237.12, None, 20.89), 1, "€")
    assert read_column("rate", ["12.5%", "n/a %"]).values == (12.5, None)
    assert read_column("note", ["N/A €", "ok"]).values == ("N/A €", "ok")  # text stays text


def test_compact_dates_in_a_column_named_as_a_date() -> None:
    # statsmodels' co2.csv: "19580329" for 29 March 1958, with weeks missing
    column = read_column("date", ["19580329", "19580405", 19600101])
    assert (column.kind, column.values) == ("date", ("1958-03-29", "1958-04-05", "1960-01-01"))
    assert read_column("amount", ["19580329", "19580405"]).kind == "int"  # not named as a date
    assert read_column("date", ["19581329"]).kind == "int"  # month 13: a number after all
    assert read_column("date", ["19580230"]).kind == "int"  # 30 February
    assert read_column("date", [19580329.5]).kind == "float"  # a fraction: a measurement


@pytest.mark.parametrize(
    ("cells", "kind", "unit", "values"),
    [
        (("1,234", "5"), "int", "", (1234, 5)),
        (("$1,234.50", "$3"), "float", "$", (1234.5, 3.0)),
        (("12 €", "€ 7.5"), "float", "€", (12.0, 7.5)),
        (("12.5%", "3%"), "float", "%", (12.5, 3.0)),
        (("(12.50)", "4"), "float", "", (-12.5, 4.0)),
        (("($1,000)", "$20"), "int", "$", (-1000, 20)),
        (("-3", "+4", "−2"), "int", "", (-3, 4, -2)),
        (("1e3", "2.5E-1"), "float", "", (1000.0, 0.25)),
        (("1,5", "2,25"), "text", "", ("1,5", "2,25")),  # a comma file: not numbers (a list?)
        (("12,5 %", "3,1 %"), "float", "%", (12.5, 3.1)),  # but a decimal comma nothing else can be
        (("1.200,50 €", "85,20 €"), "float", "€", (1200.5, 85.2)),
        (("12 kg", "3.5 kg"), "float", "kg", (12.0, 3.5)),  # a unit after every number
        (("25 °C", "-3 °C", "30km/h"), "text", "", ("25 °C", "-3 °C", "30km/h")),  # two units: text
        (("25 °C", "-3 °C"), "int", "°C", (25, -3)),
        (("$5", "€5"), "text", "", ("$5", "€5")),  # two currencies are not one quantity
        (("12,34,567", "1,234"), "int", "", (1234567, 1234)),  # India's lakh and crore groups
        (("1'234.50", "1’000"), "float", "", (1234.5, 1000.0)),  # Switzerland's thousands
        (("12.50-", "3.00"), "float", "", (-12.5, 3.0)),  # an accounting system's negative amount
        (("2-", "3"), "text", "", ("2-", "3")),  # a school grade, not -2
        (("850K", "1.2M", "950"), "int", "", (850_000, 1_200_000, 950)),  # as social media counts
        (("$1.5bn", "$800mn"), "int", "$", (1_500_000_000, 800_000_000)),
        (("12M", "3M"), "int", "M", (12, 3)),  # one letter after every number: a unit
        (("12..5",), "text", "", ("12..5",)),
        (("(12",), "text", "", ("(12",)),
    ],
)
def test_numbers_as_people_write_them(cells: tuple[str, ...], kind: str, unit: str, values: tuple[Cell, ...]) -> None:
    column = read_column("x", list(cells))
    assert (column.kind, column.unit, column.values) == (kind, unit, values)


def test_decimal_commas_where_the_file_separates_fields_with_semicolons() -> None:
    column = read_column("x", ["1.234,56", "12,5", "7"], decimal_comma=True)
    assert (column.kind, column.values) == ("float", (1234.56, 12.5, 7.0))
    assert column.note is not None and "decimal comma" in column.note
    assert read_column("x", ["€12.500"], decimal_comma=True).values == (12500,)  # a thousands dot
    assert read_column("x", ["$1,012.50", "700"], decimal_comma=True).values == (1012.5, 700.0)  # one cannot
    assert read_column("x", ["1.5", "2.25"], decimal_comma=True).values == (1.5, 2.25)
    assert read_column("x", ["3", "4"], decimal_comma=True).note is None  # nothing to tell


@pytest.mark.parametrize("marker", ["", "NA", "N/A", "n/a", "-", "null", "NULL", "NaN", "None", "#N/A", "—", "?"])
def test_gaps_in_numbers_and_dates_are_missing_values(marker: str) -> None:
    numbers = read_column("mpg", ["21.5", marker, "30"])
    assert (numbers.kind, numbers.values, numbers.missing) == ("float", (21.5, None, 30.0), 1)
    dates = read_column("when", ["2024-01-02", marker])
    assert (dates.kind, dates.values, dates.missing) == ("date", ("2024-01-02", None), 1)


def test_in_text_only_an_empty_cell_is_missing() -> None:
    column = read_column("region", ["NA", "EU", "", None])  # NA is North America here
    assert (column.kind, column.values, column.missing) == ("text", ("NA", "EU", None, None), 2)


def test_reading_is_linear_in_hostile_cells() -> None:
    hostile = ["1" * 1999 + "x", "1," * 999 + "x", "(" + "1 " * 999, "12/" * 600, "Jan " * 490 + "2024"]
    started = time.perf_counter()
    for cell in hostile:
        assert read_column("date", [cell, cell]).kind == "text"
    assert time.perf_counter() - started < 1.0


def test_numbers_abbreviated_with_k_m_b_are_read_and_said() -> None:
    column = read_column("views", ["850K", "1.2M", "12", "N/A"])
    assert (column.kind, column.values, column.missing) == ("int", (850_000, 1_200_000, 12, None), 1)
    assert column.note is not None and "1.2M is 1200000" in column.note
    assert read_column("likes", ["45K", "12"]).values == (45_000, 12)
    assert read_column("views", ["1.25K", "3"]).values == (1250, 3)  # no float noise (1.25 × 1000)
    assert read_column("views", ["1.2345K", "3"]).values == (1234.5, 3.0)
    assert read_column("size", ["3 K", "12 kg"]).kind == "text"  # a unit is no magnitude


def test_footnote_marks_after_numbers_and_bounds_for_small_counts() -> None:
    marked = read_column("rate", ["12.5*", "13", "3.1†", "42¹", "0.52**"])
    assert (marked.kind, marked.values) == ("float", (12.5, 13.0, 3.1, 42.0, 0.52))
    assert marked.note == "footnote marks after the numbers left out (12.5* and 12.5(P) are 12.5)"
    # The Bureau of Labor Statistics' (P) for preliminary, an (e) for estimated: the column was text
    lettered = read_column("Feb", ["300.840", "310.326(P)", "12.3 (e)", "(4.5)"])
    assert lettered.values == (300.84, 310.326, 12.3, -4.5) and lettered.note == marked.note
    assert read_column("score", ["12 (3)", "10 (1)", "7"]).kind == "text"  # a number in brackets may be data
    assert read_column("size", ["2 (S)", "4 (M)", "6 (L)"]).kind == "text"  # marks on every value: data
    bounded = read_column("cases", ["<5", "12", "N/A", "≤5", "7"])  # health statistics keep small counts private
    assert (bounded.kind, bounded.values, bounded.missing) == ("int", (None, 12, None, None, 7), 3)
    assert bounded.note is not None and "bound" in bounded.note
    assert read_column("grade", ["A*", "B", "C"]).kind == "text"  # an A-star is a grade, not A
    assert read_column("x", ["<5", "<10"]).kind == "text"  # nothing but bounds: nothing to read
    assert read_column("x", ["<b>", "12"]).kind == "text"


def test_bank_statements_codes_and_currency_codes() -> None:
    """A bank's "4.50 DR" / "2,000.00 CR" were text (one mark on every value: DR read as a unit, the
    debits positive); "0123" zip codes lost their leading zero; "USD 1,234.50" was text."""
    amounts = read_column("Amount", ["4.50 DR", "2,000.00 CR", "1,200.00 Dr.", None])
    assert amounts.values == (-4.5, 2000.0, -1200.0, None) and amounts.note is not None and "DR" in amounts.note
    assert read_column("Balance", ["4.50 CR", "12.00 CR"]).values == (4.5, 12.0)  # CR alone: a unit as before
    assert read_column("name", ["Dr", "Cr"]).kind == "text"
    zips = read_column("zip", ["0123", "1234", "0456"])
    assert (
        zips.values == ("0123", "1234", "0456")
        and zips.note == "numbers with leading zeros kept as text (0123 is a code)"
    )
    assert read_column("n", ["0", "10", "7"]).values == (0, 10, 7)  # a lone 0 is a number
    assert read_column("n", ["0.5", "10"]).kind == "float"
    priced = read_column("Price", ["USD 1,234.50", "USD 12.00"])
    assert priced.values == (1234.5, 12.0) and priced.unit == "USD"
    assert read_column("code", ["USDA1", "EUR"]).kind == "text"


def test_a_flag_letter_glued_to_its_number() -> None:
    """NOAA's daily summaries glue their flag on ("0.05s", suspect): the column was text."""
    precipitation = read_column("PRCP", ["0.12", "0.00", "0.05s", "1.2p"])
    assert precipitation.values == (0.12, 0.0, 0.05, 1.2) and precipitation.note is not None
    assert read_column("t", ["5s", "3s"]).unit == "s"  # one letter on every value: a unit
    assert read_column("views", ["1.2b", "950"]).kind == "text"  # b: billions, perhaps — not a flag
    assert read_column("wait", ["3d", "4"]).kind == "text"  # d: days, perhaps


def test_a_trace_of_rain_and_missing_days_as_the_weather_service_writes_them() -> None:
    """The National Weather Service's "T" (a trace) and "M" (missing): the column was text, so a
    month's rain could not be summed."""
    rain = read_column("Precipitation", ["0.12", "T", "0.00", "M", "1.05"])
    assert rain.kind == "float" and rain.values == (0.12, 0.0, 0.0, None, 1.05) and rain.missing == 1
    assert rain.note is not None and "trace" in rain.note and "M" in rain.note
    assert read_column("SNWD", ["0", "M", "3"]).values == (0, None, 3)
    assert read_column("size", ["T", "M", "3"]).kind == "text"  # elsewhere T and M are what they say
    assert read_column("rain", ["T", "M"]).kind == "text"  # no number to read them beside


def test_durations_with_units_are_minutes() -> None:
    """A film list's "Runtime" of `2h 22min` was text: no longest film, no average."""
    films = read_column("Runtime", ["2h 22min", "1h 45min", "", "58min", "2 hours, 5 minutes", "1 hr"])
    assert films.kind == "int" and films.values == (142, 105, None, 58, 125, 60) and films.missing == 1
    assert films.note == "durations read as minutes (2h 22min is 142)" and films.unit == "minutes"
    assert read_column("time", ["1h 2m 3s", "45s"]).values == (3723, 45)  # a value with seconds: seconds
    assert read_column("time", ["1.5 hours", "30 minutes"]).values == (90, 30)
    assert read_column("distance", ["45m", "30m"]).note is None  # metres or minutes? one unit does not say
    assert read_column("hours", ["2 h", "3.5 h"]).values == (2, 3.5)  # a number with its unit, as before
    assert read_column("name", ["Sam", "Hm"]).kind == "text"


def test_months_with_two_digit_years_are_the_first_of_each_month() -> None:
    """Spreadsheets' `mmm-yy` (`Jan-24`) was text: no total for 2024."""
    sales = read_column("Month", ["Nov-23", "Dec-23", "Jan-24", None, "Feb '24"])
    assert sales.kind == "date" and sales.values == ("2023-11-01", "2023-12-01", "2024-01-01", None, "2024-02-01")
    assert sales.note == "months read as dates (Nov-23 is November 2023)"
    assert read_column("Month", ["September 99", "October 99"]).values == ("1999-09-01", "1999-10-01")
    assert read_column("Week", ["Jan-05", "Jan-12", "Jan-19"]).kind == "text"  # days of a January, no year
    assert read_column("Month", ["Jan-24"]).kind == "text"  # one value cannot tell


def test_durations_with_colons_are_seconds_where_they_cannot_be_times_of_day() -> None:
    """Race results' `2:05:30` and a call log's `3:45` were text: no mean time, no total. A log's
    `08:30:00` in a column called "time" stays a time of day."""
    race = read_column("Chip time", ["2:05:30", "1:58:02", "", "3:10:45.5"])
    assert race.kind == "float" and race.values == (7530, 7082, None, 11445.5) and race.missing == 1
    assert race.note == "durations read as seconds (2:05:30 is 7530: hours, minutes and seconds)"
    assert race.unit == "seconds"  # the model is told what the numbers count
    calls = read_column("Call length", ["3:45", "12:03", "0:59"])
    assert calls.kind == "int" and calls.values == (225, 723, 59) and calls.note is not None
    assert read_column("time", ["26:15:00", "8:00:00"]).values == (94500, 28800)  # past 23 hours: a duration
    assert read_column("lap", ["1:02.5", "0:59.9"]).values == (62.5, 59.9)
    assert read_column("time", ["08:30:00", "17:45:00"]).kind == "text"  # a time of day
    assert read_column("departs", ["08:30", "17:45"]).kind == "text"
    assert read_column("duration", ["3:45", "1:02:33"]).kind == "text"  # minutes or hours? not one form
    assert read_column("score", ["3:1", "2:0"]).kind == "text"  # a score, not a time


def test_a_column_of_ticks_and_empty_cells_is_yes_and_no() -> None:
    """An attendance list's "x" (or a checklist's ✓) beside empty cells was read as all gaps: an
    empty column, and "how many attended?" could not be answered."""
    column = read_column("attended", ["x", "", "X ", None, "✓"])
    assert (column.kind, column.values, column.missing) == ("bool", (True, False, True, False, True), 0)
    assert column.note and "ticks" in column.note
    assert read_column("n", ["x", "", "12"]).values == (None, None, 12)  # among numbers, a suppressed value
    assert read_column("n", ["x", "x"]).kind == "empty"  # nothing says no: not a checklist
    assert read_column("n", ["", None]).kind == "empty"
    assert read_column("n", ["x", "", "maybe"]).kind == "text"
