"""The second round (chains of thought sampled where no two of mix's methods agree) run afterwards
on the ties of a `mix` run made before the round existed, so `rescore_mix.py` can re-vote that run
as the product now decides (writes JSON lines; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_second_round.py eval-results/gsm-200c OUT.jsonl \
        [--chains 4] [--programs 0] [--threads 2]

For each tied item (no two of PAL, chain of thought and PoT agree, as `rescore_mix.py` reads them),
`--chains` chains of thought sampled with seeds 1, 2, … (the product's seeds) and, to compare,
`--programs` sampled PAL programs, decoded together in one batch through the product's rounds; none
stops early, so every sample is kept. Resumes: items already in OUT are skipped.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Callable
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


def tied(row: dict[str, Any]) -> bool:
    """No two of the first round's answers agree (as the records are re-read)."""
    same = _as_one(row["question"])
    first = [_reread(s) for s in row["sampled"] if s["method"] in FIRST][:3]
    keys = [vote_key(same(s["answer"])) for s in first if s["answer"] is not None]
    return bool(keys) and len(set(keys)) == len(keys)


def _chain(question: str, seed: int) -> Member:
    return lambda context: cot(question, replace(context, sampling=replace(SAMPLING, seed=seed)))


def _program(question: str, seed: int) -> Member:
    return lambda context: pal(question, PalOptions(), replace(context, sampling=replace(SAMPLING, seed=seed)))


def members(question: str, chains: int, programs: int) -> tuple[list[Member], tuple[str, ...]]:
    runs = [_chain(question, seed) for seed in range(1, chains + 1)]
    runs += [_program(question, seed) for seed in range(1, programs + 1)]
    return runs, ("cot",) * chains + ("pal",) * programs


def _each_its_own() -> Callable[[str], str]:
    """Every answer written apart, so the round never settles early and every sample is kept."""
    count = itertools.count()
    return lambda answer: f"{answer}#{next(count)}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("run")
    parser.add_argument("out")
    parser.add_argument("--chains", type=int, default=4)
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
            wanted = row["index"] in chosen if chosen else tied(row)
            if row["index"] in done or not row.get("sampled") or not wanted:
                continue
            runs, methods = members(row["question"], args.chains, args.programs)
            started = time.monotonic()
            solves, _notes = _in_rounds(runs, sample_labels(methods), context, same=_each_its_own())
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
