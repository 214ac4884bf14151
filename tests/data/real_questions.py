# ruff: noqa: E501  (the questions and golds read best one to a line)
"""Questions over real public data files (issue 32), for `tests/benchmarks/bench_data.py --set real`.

The files are in `tests/data/real_files/` (sources in its README): as their makers publish them,
except three written in another form a user would have (a spreadsheet with dates, JSON lines, a
German `;` export with decimal commas and DD.MM.YYYY). Each gold was computed with pandas from
the original file (2026-12-03) and is written here; `golds()` computes every one again in plain
Python from the rows as PAL Studio reads them, so a misread date or gap fails
`tests/app/data/test_real_files.py`.
"""

from __future__ import annotations

import datetime
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).parent / "real_files"
Rows = Sequence[Mapping[str, Any]]

# (file, question, gold)
QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("stocks.csv", "What was IBM's average monthly price in 2005? Round to 2 decimal places.", "77.50"),
    ("stocks.csv", "What was the highest price AAPL reached?", "223.02"),
    ("stocks.csv", "In how many months was GOOG's price above 500?", "18"),
    ("seattle-temps.csv", "What was the highest temperature recorded?", "75.9"),
    ("seattle-temps.csv", "What was the average temperature in July? Round to 2 decimal places.", "64.89"),
    ("seattle-temps.csv", "How many hourly readings were below 40 degrees?", "608"),
    ("co2.csv", "What was the average CO2 level in 1990? Round to 2 decimal places.", "354.14"),
    ("co2.csv", "How many weeks have no CO2 measurement?", "59"),
    ("co2.csv", "What is the highest CO2 level measured?", "373.9"),
    ("fertility.csv", "What was Japan's fertility rate in 2000?", "1.359"),
    ("fertility.csv", "How many countries had a fertility rate above 5 in 2010?", "26"),
    ("fertility.csv", "What was the average fertility rate in 1960 over the countries with a value? Round to 2 decimal places.", "5.51"),
    ("fertility.csv", "Which country had the highest fertility rate in 2011?", "Niger"),
    ("macrodata.csv", "What was the highest unemployment rate?", "10.7"),
    ("macrodata.csv", "What was the average inflation rate from 1970 to 1979? Round to 2 decimal places.", "7.22"),
    ("macrodata.csv", "By what percentage did real GDP grow from the first to the last quarter in the data? Round to 1 decimal place.", "379.3"),
    ("scotvote.csv", "Which council district had the highest YES vote?", "Glasgow_City"),
    ("scotvote.csv", "What was the average YES vote across the council districts? Round to 2 decimal places.", "61.44"),
    ("scotvote.csv", "In how many council districts was the YES vote above 60?", "19"),
    ("barley.json", "What was the total barley yield at Waseca in 1932? Round to 2 decimal places.", "418.70"),
    ("barley.json", "Which variety had the highest total yield over both years?", "Trebi"),
    ("barley.json", "At how many sites was the total yield higher in 1932 than in 1931?", "1"),
    ("la-riots.xlsx", "What was the average age of those who died? Round to 2 decimal places.", "32.37"),
    ("la-riots.xlsx", "How many people died on April 30, 1992?", "28"),
    ("la-riots.xlsx", "How many of the deaths were homicides?", "36"),
    ("driving.jsonl", "What was the highest gas price, per gallon?", "3.31"),
    ("driving.jsonl", "What was the average miles driven per year in the 1990s (1990 to 1999)? Round to 1 decimal place.", "9052.5"),
    ("iowa-electricity-de.csv", "How much electricity came from renewables in 2016?", "21241"),
    ("iowa-electricity-de.csv", "What percentage of 2017's electricity came from renewables? Round to 2 decimal places.", "38.84"),
    ("iowa-electricity-de.csv", "How much electricity was generated in 2001 from all sources together?", "40651"),
)  # fmt: skip


def _mean(values: Sequence[float | None]) -> float:
    return statistics.fmean(v for v in values if v is not None)


def _year(row: Mapping[str, Any], key: str, year: int) -> bool:
    when = row[key]
    return isinstance(when, datetime.date) and when.year == year


def golds(tables: Mapping[str, Rows]) -> tuple[str, ...]:
    """Every gold again, from `tables` (name -> row dicts, as the sandbox's `tables` hold them)."""
    stocks, temps, co2 = tables["stocks"], tables["seattle_temps"], tables["co2"]
    fertility, macro, scot = tables["fertility"], tables["macrodata"], tables["scotvote"]
    barley, riots, driving, iowa = tables["barley"], tables["deaths"], tables["driving"], tables["iowa_electricity_de"]

    def price(symbol: str, keep: Callable[[Mapping[str, Any]], bool] = lambda r: True) -> list[float]:
        return [r["price"] for r in stocks if r["symbol"] == symbol and keep(r)]

    def site_year(year: int) -> Counter[str]:
        totals: Counter[str] = Counter()
        for r in barley:
            if r["year"] == year:
                totals[r["site"]] += r["yield"]
        return totals

    by_variety: Counter[str] = Counter()
    for r in barley:
        by_variety[r["variety"]] += r["yield"]
    year_2017 = [r for r in iowa if r["Jahr"] == 2017]  # 01.01.2017: read as the year
    last, first = macro[-1]["realgdp"], macro[0]["realgdp"]
    with_2011 = [r for r in fertility if r["2011"] is not None]
    return (
        f"{_mean(price('IBM', lambda r: r['date'].year == 2005)):.2f}",
        f"{max(price('AAPL'))}",
        f"{sum(p > 500 for p in price('GOOG'))}",
        f"{max(r['temp'] for r in temps)}",
        f"{_mean([r['temp'] for r in temps if r['date'].month == 7]):.2f}",
        f"{sum(r['temp'] < 40 for r in temps)}",
        f"{_mean([r['co2'] for r in co2 if _year(r, 'date', 1990)]):.2f}",
        f"{sum(r['co2'] is None for r in co2)}",
        f"{max(r['co2'] for r in co2 if r['co2'] is not None)}",
        f"{next(r['2000'] for r in fertility if r['Country Name'] == 'Japan')}",
        f"{sum(r['2010'] is not None and r['2010'] > 5 for r in fertility)}",
        f"{_mean([r['1960'] for r in fertility]):.2f}",
        max(with_2011, key=lambda r: r["2011"])["Country Name"],
        f"{max(r['unemp'] for r in macro)}",
        f"{_mean([r['infl'] for r in macro if 1970 <= r['year'] <= 1979]):.2f}",
        f"{(last / first - 1) * 100:.1f}",
        max(scot, key=lambda r: r["YES"])["COUNCILDIST"],
        f"{_mean([r['YES'] for r in scot]):.2f}",
        f"{sum(r['YES'] > 60 for r in scot)}",
        f"{site_year(1932)['Waseca']:.2f}",
        by_variety.most_common(1)[0][0],
        f"{sum(site_year(1932)[site] > site_year(1931)[site] for site in site_year(1931))}",
        f"{_mean([r['age'] for r in riots]):.2f}",
        f"{sum(r['death_date'] == datetime.date(1992, 4, 30) for r in riots)}",
        f"{sum(r['type'] == 'Homicide' for r in riots)}",
        f"{max(r['gas'] for r in driving)}",
        f"{_mean([r['miles'] for r in driving if 1990 <= r['year'] <= 1999]):.1f}",
        f"{next(r['Nettoerzeugung_GWh'] for r in iowa if r['Jahr'] == 2016 and r['Quelle'] == 'Renewables')}",
        f"{sum(r['Nettoerzeugung_GWh'] for r in year_2017 if r['Quelle'] == 'Renewables') / sum(r['Nettoerzeugung_GWh'] for r in year_2017) * 100:.2f}",
        f"{sum(r['Nettoerzeugung_GWh'] for r in iowa if r['Jahr'] == 2001)}",
    )  # fmt: skip
