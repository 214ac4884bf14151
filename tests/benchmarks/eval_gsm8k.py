"""Accuracy of PAL and PoT (greedy) on the first N GSM8K test items with the embedded model.

    .venv/bin/python tests/benchmarks/eval_gsm8k.py [--limit 50] [--methods pal,pot] [--threads 2]

Prints one line per item and a summary: accuracy, the rate of programs that ran and produced an
answer, seconds per item. A quick check for the reasoning core; the full evaluator (resumable
runs, reports, more methods) is a separate piece of work.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

from app.reasoning import Solution, solve_pal, solve_pot
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "gsm8k_test.jsonl"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def gold(answer: str) -> float:
    return float(answer.rsplit("####", maxsplit=1)[-1].strip().replace(",", ""))


def predicted(answer: str | None) -> float | None:
    if answer is None:
        return None
    numbers = _NUMBER.findall(answer.replace(",", "").replace("$", ""))
    return float(numbers[-1]) if numbers else None


def correct(solution: Solution, expected: float) -> bool:
    value = predicted(solution.answer)
    return value is not None and abs(value - expected) <= 1e-4 * max(1.0, abs(expected))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--methods", default="pal,pot")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    items = [json.loads(line) for line in args.data.read_text().splitlines()[: args.limit]]
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads))
    with Sandbox() as sandbox:
        for method in args.methods.split(","):
            right = ran = 0
            seconds = []
            for i, item in enumerate(items, 1):
                started = time.monotonic()
                if method == "pal":
                    solution = solve_pal(item["question"], model, sandbox)
                else:
                    solution = solve_pot(item["question"], model, sandbox)
                seconds.append(time.monotonic() - started)
                ok = correct(solution, gold(item["answer"]))
                right += ok
                ran += solution.answered
                print(f"{method} {i:3d} {'✓' if ok else '✗'} {solution.status.value:<16} {solution.answer!r:>14}"
                      f"  gold {gold(item['answer']):g}  {seconds[-1]:.1f} s", flush=True)  # fmt: skip
            n = len(items)
            print(
                f"\n{method}: accuracy {right}/{n} = {right / n:.1%}; programs that ran and answered {ran}/{n} = "
                f"{ran / n:.1%}; median {statistics.median(seconds):.1f} s per item\n",
                flush=True,
            )


if __name__ == "__main__":
    main()
