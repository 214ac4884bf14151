"""Decode speed by the number of sequences decoded together, on this computer (prints a table; not
a test). Whether batches pay differs by machine (docs/results.md, "PoT and the second round in one
batch"): the mixed vote decodes the second round's chains in PoT's batch only where they do.

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_batch_gain.py [--threads 2] [--tokens 64]

Mix's own prompts for GSM8K-like item 1 (PAL, chain of thought, PoT), each sequence sampled for
exactly `--tokens` tokens; prompt reading is not counted; the best of three runs of each batch.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from app.reasoning.methods import REGISTRY
from app.reasoning.rounds import first_request
from app.reasoning.session import SolveContext
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from models.types import GenerationRequest, LanguageModel, SequenceDone, generate_batch
from sandbox import Sandbox

QUESTION = (
    "Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her "
    "friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck "
    "egg. How much in dollars does she make every day at the farmers' market?"
)


def decode_seconds(model: LocalModel, requests: list[GenerationRequest]) -> tuple[int, float]:
    """Tokens decoded and seconds spent decoding them (the prompts' reading left out), best of 3."""
    best: tuple[float, int] | None = None
    for _ in range(3):
        started, tokens, reading = time.perf_counter(), 0, 0.0
        for event in generate_batch(model, requests):
            if isinstance(event, SequenceDone):
                tokens += event.generation.completion_tokens
                reading = max(reading, event.generation.prompt_eval_s)
        took = time.perf_counter() - started - reading
        best = min(best, (took, tokens)) if best else (took, tokens)
    assert best is not None
    return best[1], best[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=64)
    args = parser.parse_args()
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads))
    context = SolveContext(model, Sandbox())

    def asked(method: str) -> GenerationRequest:
        def solve(m: LanguageModel) -> object:
            return REGISTRY[method](QUESTION, frozenset(), replace(context, model=m))

        request = first_request(solve, model)
        assert request is not None
        return request

    prompts = {method: asked(method) for method in ("pal", "cot", "pot")}

    def sampled(method: str, seed: int) -> GenerationRequest:
        return replace(
            prompts[method], max_tokens=args.tokens, stop=(), stop_after_code_block=False, temperature=0.8, seed=seed
        )

    decode_seconds(model, [sampled(m, 1) for m in prompts])  # the prompts into the cache
    batches = {f"{n} chains": [sampled("cot", seed) for seed in range(1, n + 1)] for n in (1, 2, 3, 4, 5, 6, 8)}
    batches["PoT + 3 chains"] = [sampled("pot", 1)] + [sampled("cot", seed) for seed in (1, 2, 3)]
    one = None
    print("| sequences | ms per decode step | tokens/s in all | × one's rate |\n|---|---|---|---|")
    for label, requests in batches.items():
        tokens, seconds = decode_seconds(model, requests)
        rate = tokens / seconds
        one = one or rate
        print(f"| {label} | {seconds / (tokens / len(requests)) * 1000:.0f} | {rate:.1f} | {rate / one:.2f} |")
    print(f"batch_gain as the vote sees it: {model.batch_gain()}")


if __name__ == "__main__":
    main()
