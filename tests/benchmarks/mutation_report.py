"""Per-module tallies of the last mutmut run, as a Markdown table (issue 19).

    .venv/bin/mutmut run && .venv/bin/python tests/benchmarks/mutation_report.py

Reads mutmut's own result files (`mutants/**/*.py.meta`); equivalent mutants are the ones named
in `tests/benchmarks/equivalent_mutants.txt` (one mutant a line, then `#` and why it changes nothing).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

KILLED = {1, 3, 37, -9, -11}  # a test failed, pytest broke, the run crashed, or the type check caught it
TIMEOUT = {24, -24, 36, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}
EQUIVALENT_FILE = Path(__file__).with_name("equivalent_mutants.txt")


def equivalent_names() -> set[str]:
    if not EQUIVALENT_FILE.exists():
        return set()
    lines = (line.split("#", 1)[0].strip() for line in EQUIVALENT_FILE.read_text().splitlines())
    return {line for line in lines if line}


def tallies(root: Path) -> dict[str, Counter[str]]:
    equivalent = equivalent_names()
    found: dict[str, Counter[str]] = {}
    for meta in sorted(root.glob("**/*.py.meta")):
        module = str(meta.relative_to(root)).removesuffix(".meta")
        counts: Counter[str] = Counter()
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if name in equivalent:
                counts["equivalent"] += 1
            elif code in KILLED or code in TIMEOUT:
                counts["killed"] += 1
            elif code in SURVIVED:
                counts["survived"] += 1
            elif code in NO_TESTS:
                counts["no tests"] += 1
            else:
                counts["not checked"] += 1
        found[module] = counts
    return found


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("mutants")
    columns = ["module", "mutants", "killed", "survived", "no test reaches it", "equivalent", "not run"]
    print("| " + " | ".join([*columns, "killed of non-equivalent"]) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for module, c in tallies(root).items():
        total = sum(c.values())
        judged = total - c["equivalent"] - c["not checked"]
        share = f"{100 * c['killed'] / judged:.1f} %" if judged else "–"
        print(
            f"| {module} | {total} | {c['killed']} | {c['survived']} | {c['no tests']} | {c['equivalent']} "
            f"| {c['not checked']} | {share} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
