"""Questions over data files (issue 18): accuracy and time with the embedded model, and how long
opening a large file takes (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_data.py [--methods pal,sc-pal] [--set generated|real] [--out DIR]

The generated set: 30 questions and their golds in tests/data/data_questions.py (3 generated files
of ≥ 5,000 rows). The real set: 30 questions over ten real public files, tests/data/real_questions.py.
Each answer is appended to OUT/records.jsonl as it comes, so a rerun resumes. Printed:
the time to open a 50,000-row CSV and a 10,000-row .xlsx, a sandbox run over the 6,000-row table
against one without data, then per method: right answers, median and p90 seconds per question.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import openpyxl  # noqa: E402

from app.data import open_data  # noqa: E402
from app.evaluation.grader import grade  # noqa: E402
from app.reasoning.methods import solve  # noqa: E402
from models.embedded import ensure_embedded  # noqa: E402
from models.local import LocalModel, ModelSettings  # noqa: E402
from sandbox import Sandbox  # noqa: E402
from tests.data import real_questions  # noqa: E402
from tests.data.data_questions import EXPENSES, ORDERS, QUESTIONS, write_files  # noqa: E402


def _median_time(action: object, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def opening_times(folder: Path) -> tuple[float, float]:
    big_csv = folder / "big.csv"
    lines = ["date,category,amount,payment,city"]
    for n in range(50_000):
        r = EXPENSES[n % len(EXPENSES)]
        lines.append(f"{r['date'].isoformat()},{r['category']},{r['amount']:.2f},{r['payment']},{r['city']}")
    big_csv.write_text("\n".join(lines) + "\n")
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(list(ORDERS[0]))
    for n in range(10_000):
        sheet.append(list(ORDERS[n % len(ORDERS)].values()))
    big_xlsx = folder / "big.xlsx"
    book.save(big_xlsx)
    return _median_time(lambda: open_data(big_csv)), _median_time(lambda: open_data(big_xlsx))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--methods", default="pal,sc-pal")
    parser.add_argument("--set", choices=("generated", "real"), default="generated")
    parser.add_argument("--out", type=Path, default=None, help="default eval-results/data-bench[-real]")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pal-data-bench-"))
    if args.set == "real":
        questions = list(real_questions.QUESTIONS)
        files = {path.name: open_data(path) for path in real_questions.FOLDER.iterdir()}
        args.out = args.out or ROOT / "eval-results" / "data-bench-real"
    else:
        csv_s, xlsx_s = opening_times(folder)
        print(f"open a 50,000-row CSV: {csv_s:.2f} s; a 10,000-row .xlsx: {xlsx_s:.2f} s")
        questions = QUESTIONS
        files = {name: open_data(path) for name, path in write_files(folder).items()}
        args.out = args.out or ROOT / "eval-results" / "data-bench"

    args.out.mkdir(parents=True, exist_ok=True)
    records = args.out / "records.jsonl"
    done = (
        {(r["method"], r["index"]) for r in map(json.loads, records.read_text().splitlines())}
        if records.exists()
        else set()
    )
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads))
    with Sandbox() as sandbox:
        if args.set == "generated":
            with_data = _median_time(lambda: sandbox.run("ans = len(tables['expenses'])", data=files["expenses"].wire))
            without = _median_time(lambda: sandbox.run("ans = 6000"))
            print(f"sandbox run over the 6,000-row table: {with_data * 1000:.0f} ms (without {without * 1000:.0f} ms)")
        for method in args.methods.split(","):
            for index, (file, question, gold) in enumerate(questions):
                if (method, index) in done:
                    continue
                started = time.monotonic()
                solution = solve(question, method, model, sandbox, data=files[file])
                seconds = time.monotonic() - started
                right = grade(solution.answer, gold).correct
                line = {"method": method, "index": index, "file": file, "question": question, "gold": gold,
                        "answer": solution.answer, "correct": right, "seconds": round(seconds, 2),
                        "status": solution.status.value, "program": solution.program}  # fmt: skip
                with records.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(line) + "\n")
                mark = "✓" if right else "✗"
                print(f"{method} {index:2d} {mark} {seconds:5.1f} s  {solution.answer!s:.30} (gold {gold})", flush=True)
    model.close()
    rows = [json.loads(line) for line in records.read_text().splitlines()]
    summary = []
    for method in args.methods.split(","):
        mine = [r for r in rows if r["method"] == method]
        times = sorted(r["seconds"] for r in mine)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))] if times else 0.0
        count = sum(r["correct"] for r in mine)
        print(f"{method}: {count}/{len(mine)} right, median {statistics.median(times):.1f} s, p90 {p90:.1f} s")
        summary.append(f"{method} {count}/{len(mine)}")
    print("data questions: " + ", ".join(summary))


if __name__ == "__main__":
    main()
