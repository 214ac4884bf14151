"""The second round (chains of thought sampled where mix's chain of thought and PAL disagree) run
afterwards on a `mix` run made before the round existed, so `rescore_mix.py` can re-vote that run
as the product now decides (writes JSON lines; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_second_round.py eval-results/gsm-200c OUT.jsonl \
        [--chains 3] [--programs 0] [--threads 2] [--items 5,18,…]

For each item where chain of thought and PAL disagree (as `rescore_mix.py` reads them; `--items`:
those items instead), `--chains` chains of thought sampled with seeds 1, 2, … (the product's
seeds) and, to compare, `--programs` sampled PAL programs, decoded together in one batch through
the product's rounds; as in the product none stops early, so every sample is kept. Resumes: items
already in OUT are skipped.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.reasoning.cot import cot
from app.reasoning.methods import SAMPLING, Member, _as_one, _in_rounds
from app.reasoning.numbers import vote_key
from app.reasoning.pal import PalOptions, pal
from app.reasoning.session import SolveContext
from app.reasoning.solution import sample_labels
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox
from tests.benchmarks.rescore_mix import FIRST, _reread


def disputed(row: dict[str, Any]) -> bool:
    """The first round's chain of thought and PAL disagree (as the records are re-read)."""
    same = _as_one(row["question"])
    first_round = [s for s in row["sampled"] if s["method"] in FIRST][:3]  # not a second round's chains
    first = {s["method"]: _reread(s, row["question"])["answer"] for s in first_round}
    keys = [vote_key(same(first[m])) if first.get(m) is not None else None for m in ("cot", "pal")]
    return keys[0] is None or keys[0] != keys[1]


def _chain(question: str, seed: int) -> Member:
    return lambda context: cot(question, replace(context, sampling=replace(SAMPLING, seed=seed)))


def _program(question: str, seed: int) -> Member:
    return lambda context: pal(question, PalOptions(), replace(context, sampling=replace(SAMPLING, seed=seed)))


def members(question: str, chains: int, programs: int) -> tuple[list[Member], tuple[str, ...]]:
    runs = [_chain(question, seed) for seed in range(1, chains + 1)]
    runs += [_program(question, seed) for seed in range(1, programs + 1)]
    return runs, ("cot",) * chains + ("pal",) * programs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("out")
    parser.add_argument("--chains", type=int, default=3)
    parser.add_argument("--programs", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--items", help="only these indices (comma-separated), tied or not")
    args = parser.parse_args()
    rows = [json.loads(line) for line in (Path(args.run) / "results.jsonl").read_text().splitlines() if line]
    out = Path(args.out)
    chosen = {int(index) for index in args.items.split(",")} if args.items else set()
    done = {json.loads(line)["index"] for line in out.read_text().splitlines()} if out.exists() else set()
    model = LocalModel(ModelSettings(ensure_embedded(), n_threads=args.threads))
    sandbox = Sandbox()
    context = SolveContext(model, sandbox)
    with out.open("a", encoding="utf-8") as file:
        for row in rows:
            wanted = row["index"] in chosen if chosen else disputed(row)
            if row["index"] in done or not row.get("sampled") or not wanted:
                continue
            runs, methods = members(row["question"], args.chains, args.programs)
            started = time.monotonic()
            solves, _notes = _in_rounds(runs, sample_labels(methods), context, needed=len(runs))
            samples = [
                {"method": m, "answer": s.answer if s.answered else None, "reasoning": s.finish_reply}
                | {"program": s.program}
                for m, s in zip(methods, solves, strict=True)
            ]
            record = {"index": row["index"], "gold": row["gold"], "s": round(time.monotonic() - started, 1)}
            file.write(json.dumps({**record, "samples": samples}) + "\n")
            file.flush()
    sandbox.close()


if __name__ == "__main__":
    main()
