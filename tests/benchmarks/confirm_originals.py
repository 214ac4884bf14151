"""For bench_practice's items: does chain of thought confirm PAL's answer to the original question?
(practice offers variants only of a program it confirms; this replays that rule over a run made
before it, on the same items and the same greedy solves; prints one JSON line per item.)

    PYTHONPATH=. .venv/bin/python tests/benchmarks/confirm_originals.py --offset 300 --items 30
"""

from __future__ import annotations

import argparse
import json

from app.reasoning.methods import solve
from app.reasoning.numbers import vote_key
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox
from tests.benchmarks.bench_practice import DATA


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--offset", type=int, default=300)
    parser.add_argument("--items", type=int, default=30)
    args = parser.parse_args()
    lines = DATA.read_text(encoding="utf-8").splitlines()[args.offset : args.offset + args.items]
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096))
    with Sandbox() as sandbox:
        for number, line in enumerate(lines):
            question = json.loads(line)["question"]
            pal, cot = (solve(question, method, model, sandbox) for method in ("pal", "cot"))
            agree = bool(pal.answer and cot.answer and vote_key(pal.answer) == vote_key(cot.answer))
            print(json.dumps({"index": args.offset + number, "pal": pal.answer, "cot": cot.answer, "confirmed": agree}))


if __name__ == "__main__":
    main()
