"""The data-question benchmark set (issue 18): three generated files of ≥ 5,000 rows and 30
questions over them, each gold answer computed here in plain Python from the generated rows.

    expenses.csv   6,000 household expenses (date, category, amount, payment, city)
    sales.xlsx     5,000 orders (sheet "orders") and monthly targets per region (sheet "targets")
    visits.jsonl   5,000 web visits (ts, page, seconds, device, country, converted)

`write_files(folder)` writes the files (deterministic: the same bytes every time);
`QUESTIONS` holds (file, question, gold) with golds as text, graded by the evaluator's grader.
"""

from __future__ import annotations

import datetime
import json
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

Row = dict[str, Any]
_RNG_SEED = 2026
_CATEGORIES = ("food", "rent", "transport", "utilities", "health", "leisure", "clothing", "education")
_CITIES = ("Lyon", "Porto", "Graz", "Turku", "Gent")
_REGIONS = ("north", "south", "east", "west")
_PRODUCTS = {"pen": 1.5, "notebook": 3.25, "stapler": 7.9, "folder": 2.4, "marker": 1.95, "lamp": 24.0}
_PAGES = ("/", "/pricing", "/docs", "/blog", "/signup", "/about")
_COUNTRIES = ("DE", "FR", "IN", "BR", "US", "JP", "NG")


def _expenses() -> list[Row]:
    rng = random.Random(_RNG_SEED)
    start = datetime.date(2023, 1, 1)
    rows = []
    for _ in range(6_000):
        rows.append({
            "date": start + datetime.timedelta(days=rng.randrange(730)),
            "category": rng.choice(_CATEGORIES),
            "amount": round(rng.uniform(2, 400), 2),
            "payment": rng.choice(("card", "card", "cash", "transfer")),
            "city": rng.choice(_CITIES),
        })  # fmt: skip
    return rows


def _orders() -> list[Row]:
    rng = random.Random(_RNG_SEED + 1)
    rows = []
    for number in range(1, 5_001):
        product = rng.choice(list(_PRODUCTS))
        rows.append({
            "order_id": number,
            "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randrange(366)),
            "region": rng.choice(_REGIONS),
            "product": product,
            "units": rng.randint(1, 20),
            "unit_price": _PRODUCTS[product],
        })  # fmt: skip
    return rows


def _targets() -> list[Row]:
    rng = random.Random(_RNG_SEED + 2)
    return [
        {"region": region, "month": month, "target": rng.randrange(400, 900, 10)}
        for region in _REGIONS
        for month in range(1, 13)
    ]


def _visits() -> list[Row]:
    rng = random.Random(_RNG_SEED + 3)
    start = datetime.datetime(2024, 6, 1)
    rows = []
    for number in range(5_000):
        page = rng.choice(_PAGES)
        rows.append({
            "visit_id": number + 1,
            "ts": start + datetime.timedelta(seconds=rng.randrange(30 * 24 * 3600)),
            "page": page,
            "seconds": rng.randint(3, 600),
            "device": rng.choice(("mobile", "mobile", "desktop", "tablet")),
            "country": rng.choice(_COUNTRIES),
            "converted": rng.random() < (0.2 if page in ("/pricing", "/signup") else 0.04),
        })  # fmt: skip
    return rows


EXPENSES, ORDERS, TARGETS, VISITS = _expenses(), _orders(), _targets(), _visits()


def write_files(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"expenses": folder / "expenses.csv", "sales": folder / "sales.xlsx", "visits": folder / "visits.jsonl"}
    lines = ["date,category,amount,payment,city"]
    lines += [f"{r['date'].isoformat()},{r['category']},{r['amount']:.2f},{r['payment']},{r['city']}" for r in EXPENSES]
    paths["expenses"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    book = openpyxl.Workbook()
    orders = book.active
    assert orders is not None
    orders.title = "orders"
    orders.append(list(ORDERS[0]))
    for row in ORDERS:
        orders.append(list(row.values()))
    targets = book.create_sheet("targets")
    targets.append(list(TARGETS[0]))
    for row in TARGETS:
        targets.append(list(row.values()))
    book.save(paths["sales"])
    with paths["visits"].open("w", encoding="utf-8") as handle:
        for row in VISITS:
            handle.write(json.dumps({**row, "ts": row["ts"].isoformat()}) + "\n")
    return paths


def _money(value: float) -> str:
    return f"{value:.2f}"


def _top(counter: dict[str, float]) -> str:
    return max(counter.items(), key=lambda item: item[1])[0]


def _by(rows: list[Row], key: str, value: Callable[[Row], float]) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(float)
    for row in rows:
        totals[row[key]] += value(row)
    return totals


def _revenue(row: Row) -> float:
    return float(row["units"] * row["unit_price"])


def questions(e: list[Row], o: list[Row], targets: list[Row], v: list[Row]) -> list[tuple[str, str, str]]:
    """(file, question, gold) for rows as dicts (dates as `datetime.date`, times as `datetime`)."""
    food_2024 = sum(r["amount"] for r in e if r["category"] == "food" and r["date"].year == 2024)
    cash = [r for r in e if r["payment"] == "cash"]
    by_category = _by(e, "category", lambda r: r["amount"])
    march_2023 = sum(r["amount"] for r in e if r["date"].year == 2023 and r["date"].month == 3)
    biggest = max(e, key=lambda r: r["amount"])
    in_2024 = [r for r in e if r["date"].year == 2024]
    by_month_2024 = {m: sum(r["amount"] for r in in_2024 if r["date"].month == m) for m in range(1, 13)}
    average_amount = sum(r["amount"] for r in e) / len(e)
    revenue = sum(_revenue(r) for r in o)
    by_region = _by(o, "region", _revenue)
    units_by_product = _by(o, "product", lambda r: r["units"])
    q2 = [r for r in o if 4 <= r["day"].month <= 6]
    north_jan_units = sum(r["units"] for r in o if r["region"] == "north" and r["day"].month == 1)
    north_jan_target = next(t["target"] for t in targets if t["region"] == "north" and t["month"] == 1)
    regions_months_met = sum(
        1
        for t in targets
        if sum(r["units"] for r in o if r["region"] == t["region"] and r["day"].month == t["month"]) >= t["target"]
    )
    converted = [r for r in v if r["converted"]]
    by_page = Counter(r["page"] for r in v)
    mobile = [r for r in v if r["device"] == "mobile"]
    pricing = [r for r in v if r["page"] == "/pricing"]
    by_country_seconds = _by(v, "country", lambda r: r["seconds"])
    busiest_day = Counter(r["ts"].date() for r in v).most_common(1)[0]
    return [
        ("expenses", "How much was spent on food in 2024 in total? Round to 2 decimal places.", _money(food_2024)),
        ("expenses", "How many expenses were paid in cash?", str(len(cash))),
        ("expenses", "Which category has the highest total amount?", _top(by_category)),
        ("expenses", "What was the total amount spent in March 2023? Round to 2 decimal places.", _money(march_2023)),
        ("expenses", "What is the average expense amount? Round to 2 decimal places.", _money(average_amount)),
        ("expenses", "In which city was the single largest expense made?", biggest["city"]),
        ("expenses", "What percentage of all expenses (by count) were paid by transfer? Round to 2 decimal places.",
         _money(100 * sum(r["payment"] == "transfer" for r in e) / len(e))),
        ("expenses", "Which month of 2024 had the highest total spending? Answer with the month number.",
         str(max(by_month_2024, key=lambda m: by_month_2024[m]))),
        ("expenses", "How many expenses were over 300?", str(sum(r["amount"] > 300 for r in e))),
        ("expenses", "What is the total amount spent on rent in Porto? Round to 2 decimal places.",
         _money(sum(r["amount"] for r in e if r["category"] == "rent" and r["city"] == "Porto"))),
        ("sales", "What is the total revenue (units times unit price) of all orders? Round to 2 decimal places.",
         _money(revenue)),
        ("sales", "Which region has the highest revenue?", _top(by_region)),
        ("sales", "How many units of lamps were sold in total?", str(int(units_by_product["lamp"]))),
        ("sales", "How many orders were placed in the second quarter (April to June)?", str(len(q2))),
        ("sales", "What is the average number of units per order? Round to 2 decimal places.",
         _money(sum(r["units"] for r in o) / len(o))),
        ("sales", "Which product sold the most units?", _top(units_by_product)),
        ("sales", "How many units did the north region sell in January?", str(north_jan_units)),
        ("sales", "By how many units did the north region's January sales exceed or fall short of its January target? "
         "Give sales minus target.", str(north_jan_units - north_jan_target)),
        ("sales", "For how many (region, month) pairs did the units sold reach the target?", str(regions_months_met)),
        ("sales", "What share of total revenue came from the west region, in percent? Round to 2 decimal places.",
         _money(100 * by_region["west"] / revenue)),
        ("visits", "How many visits converted?", str(len(converted))),
        ("visits", "What is the conversion rate of all visits in percent? Round to 2 decimal places.",
         _money(100 * len(converted) / len(v))),
        ("visits", "Which page was visited most often?", by_page.most_common(1)[0][0]),
        ("visits", "What is the average visit length in seconds on mobile? Round to 2 decimal places.",
         _money(sum(r["seconds"] for r in mobile) / len(mobile))),
        ("visits", "What is the conversion rate of visits to /pricing in percent? Round to 2 decimal places.",
         _money(100 * sum(r["converted"] for r in pricing) / len(pricing))),
        ("visits", "Which country spent the most total seconds on the site?", _top(by_country_seconds)),
        ("visits", "How many visits lasted longer than 5 minutes?", str(sum(r["seconds"] > 300 for r in v))),
        ("visits", "How many visits came from tablets in Japan (country JP)?",
         str(sum(r["device"] == "tablet" and r["country"] == "JP" for r in v))),
        ("visits", "On which date (YYYY-MM-DD) were there the most visits?", busiest_day[0].isoformat()),
        ("visits", "How many visits happened on weekends (Saturday or Sunday)?",
         str(sum(r["ts"].weekday() >= 5 for r in v))),
    ]  # fmt: skip


QUESTIONS = questions(EXPENSES, ORDERS, TARGETS, VISITS)
