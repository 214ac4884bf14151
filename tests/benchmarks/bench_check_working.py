"""Checking a student's working: planted errors found at the right line, correct lines flagged,
time per check, over the labelled set in tests/data/workings.jsonl (prints the table; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_check_working.py

Each item is a question, the program it is checked against (written by hand and right), and a
working: correct, or with one planted error (arithmetic slip, wrong operation, skipped step, wrong
number copied, unit mix-up) at a known line. Targets (issue 31): planted errors found at the right
line ≥ 90 %, correct lines flagged ≤ 5 %, ≤ 1 s per check.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from app.reasoning.check_working import check_working
from app.reasoning.extract import assigned_names
from app.reasoning.runs import solution_of_run
from sandbox import Sandbox

SET = Path(__file__).resolve().parents[1] / "data" / "workings.jsonl"


def main() -> None:
    items = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    found: Counter[str] = Counter()
    planted: Counter[str] = Counter()
    correct_lines = flagged = 0
    seconds: list[float] = []
    with Sandbox() as sandbox:
        for item in items:
            program = item["program"]
            run = sandbox.run(program, capture=("ans", *assigned_names(program)))
            solution = solution_of_run(item["question"], program, run)
            started = time.perf_counter()
            checked = check_working("\n".join(item["working"]), solution, sandbox)
            seconds.append(time.perf_counter() - started)
            wrong = item["wrong_line"]
            good = range(len(item["working"])) if wrong is None else range(wrong)  # lines before the error are right
            correct_lines += len(good)
            flagged += sum(1 for n in good if not checked.lines[n].ok)
            if wrong is not None:
                planted[item["error"]] += 1
                found[item["error"]] += checked.first_wrong == wrong
                if checked.first_wrong != wrong:
                    print(f"missed: {item['working']} (planted at {wrong}, said {checked.first_wrong})")
            elif checked.first_wrong is not None:
                print(f"flagged a correct working: {item['working']} -> {checked.lines[checked.first_wrong]}")
    print(f"\n{'planted error':<22} {'found at its line':>18}")
    for kind, count in sorted(planted.items()):
        print(f"{kind:<22} {found[kind]:>8} of {count:<3}")
    total = sum(planted.values())
    print(f"{'all':<22} {sum(found.values()):>8} of {total:<3} = {100 * sum(found.values()) / total:.0f} %")
    print(f"correct lines flagged: {flagged} of {correct_lines} = {100 * flagged / correct_lines:.1f} %")
    seconds.sort()
    print(f"seconds per check: median {seconds[len(seconds) // 2]:.3f}, max {seconds[-1]:.3f} ({len(items)} workings)")


if __name__ == "__main__":
    main()
