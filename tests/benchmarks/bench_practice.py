"""Another one like this, on GSM8K: how often a variant can be offered, and how long one takes.

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_practice.py --offset 300 --items 30 --out /tmp/variants.jsonl

Each item is solved with PAL on the embedded model, then --count variants are asked for (at most
TRIES_PER_VARIANT candidates each, each checked by chain of thought on the new text). Prints the share of
items a variant is offered for and the seconds per offered variant, and writes every candidate
(question, the program's answer, chain of thought's, agreed) to --out: whether the offered ones are
right is read by hand (docs/results.md, issue 31).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from app.reasoning.methods import solve
from app.reasoning.practice import Variant, make_variants
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "gsm8k_test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--offset", type=int, default=300)
    parser.add_argument("--items", type=int, default=30)
    parser.add_argument("--count", type=int, default=1, help="variants asked for per item")
    parser.add_argument("--out", type=Path, default=Path("/tmp/variants.jsonl"))
    args = parser.parse_args()
    lines = DATA.read_text(encoding="utf-8").splitlines()[args.offset : args.offset + args.items]
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096))
    offered = solved = 0
    seconds: list[float] = []
    with Sandbox() as sandbox, args.out.open("w", encoding="utf-8") as out:
        for number, line in enumerate(lines):
            question = json.loads(line)["question"]
            solution = solve(question, "pal", model, sandbox)
            solved += solution.answered
            tried: list[Variant] = []

            def check(text: str) -> str | None:
                reasoned = solve(text, "cot", model, sandbox)
                return reasoned.answer if reasoned.answered else None

            started = time.perf_counter()
            made = make_variants(solution, sandbox, check, args.count, seed=number, on_variant=tried.append)
            spent = time.perf_counter() - started
            if made:
                offered += 1
                seconds.append(spent / len(made))
            for variant in tried:
                record = {"index": args.offset + number, "original": question, **variant.to_json()}
                out.write(json.dumps({**record, "program": variant.program, "check": variant.check}) + "\n")
            out.flush()
            print(f"{args.offset + number}: {'offered' if made else 'none'} ({len(tried)} tried, {spent:.1f} s)")
    total = len(lines)
    median = sorted(seconds)[len(seconds) // 2] if seconds else float("nan")
    print(f"\n{total} items, {solved} solved by PAL; a variant offered for {offered} ({100 * offered / total:.0f} %)")
    print(f"median seconds per offered variant: {median:.1f}")


if __name__ == "__main__":
    main()
