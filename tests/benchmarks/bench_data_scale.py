"""How opening a data file and a run over it grow with its rows (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_data_scale.py [--rows 10000,100000,200000] [--backend native]

For each size, a generated 6-column CSV (dates, text, numbers with gaps) is opened (`open_data`,
the cell readers included), handed to the sandbox as JSON, and read by a program that sums one
column; the run is timed against the same program over a 100-row table, so the difference is what
the rows cost (the JSON hand-over, building the row dicts, the loop). Median of 3 each.
"built MB": what building the row dicts adds to a process's resident memory, measured here.
(docs/experiments/pandas-frames.patch, which no longer applies as it is, added `--frames`: the tables
as pandas DataFrames.)
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.data import open_data  # noqa: E402
from sandbox import Sandbox  # noqa: E402
from sandbox.data import data_bytes, frozen_tables  # noqa: E402

PROGRAM = "ans = round(sum(r['amount'] for r in tables['t'] if r['amount'] is not None), 2)"


def resident_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def built_mb(data: dict[str, object]) -> float:
    gc.collect()
    before = resident_mb()
    tables = frozen_tables(data)
    after = resident_mb()
    del tables
    return after - before


def write_csv(path: Path, rows: int) -> None:
    lines = ["date,category,city,amount,units,note"]
    for n in range(rows):
        amount = "" if n % 50 == 0 else f"{(n * 37) % 1000 + 0.25:.2f}"
        lines.append(f"2024-{n % 12 + 1:02d}-{n % 28 + 1:02d},cat{n % 9},city{n % 31},{amount},{n % 7},note {n}")
    path.write_text("\n".join(lines) + "\n")


def median_s(action: Callable[[], object], rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="10000,100000,200000")
    parser.add_argument("--backend", default="native")
    args = parser.parse_args()
    program = PROGRAM
    folder = Path(tempfile.mkdtemp(prefix="pal-scale-"))
    small = folder / "small.csv"
    write_csv(small, 100)
    with Sandbox(backend=args.backend) as sandbox:
        small_data = open_data(small).wire
        baseline = median_s(lambda: sandbox.run(program, data=small_data, time_s=60, memory_mb=4096))
        print(f"backend {args.backend}; a run over 100 rows: {baseline * 1000:.0f} ms")
        print("| rows | file MB | open s | JSON MB | run s | run − 100-row run s | built MB |")
        print("|---|---|---|---|---|---|---|")
        last = 0.0
        for rows in (int(n) for n in args.rows.split(",")):
            path = folder / f"t{rows}.csv"
            write_csv(path, rows)
            opened = median_s(partial(open_data, path))
            data = open_data(path).wire
            data = {"t": next(iter(data.values()))}
            result = sandbox.run(program, data=data, time_s=60, memory_mb=4096)
            assert result.ok, result.error
            run = median_s(partial(sandbox.run, program, data=data, time_s=60, memory_mb=4096))
            last = run - baseline
            print(f"| {rows:,} | {path.stat().st_size / 2**20:.1f} | {opened:.2f} | {data_bytes(data) / 2**20:.1f} | "
                  f"{run:.2f} | {last:.2f} | {built_mb(data):.0f} |")  # fmt: skip
    print(f"largest table's run cost over a 100-row one = {last:.2f} s")


if __name__ == "__main__":
    main()
