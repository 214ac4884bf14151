"""Prompt-lookup decoding (llama.cpp's `draft_model`) against plain decoding, greedy PAL and chain
of thought on the first GSM8K items, one model per process (prints figures; not a test).

    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_prompt_lookup.py plain [--items 6]
    PYTHONPATH=. .venv/bin/python tests/benchmarks/bench_prompt_lookup.py draft --draft-tokens 3

Tried for issue 33 (docs/results.md, "Prompt-lookup decoding"): each method's seconds, tokens,
tokens per second and answers, and the process's peak memory (a draft keeps every position's logits).
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from app.reasoning.methods import solve
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from sandbox import Sandbox

ITEMS = Path(__file__).resolve().parents[3] / "shared" / "data" / "gsm8k_test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=("plain", "draft"))
    parser.add_argument("--items", type=int, default=6)
    parser.add_argument("--draft-tokens", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    extra: dict[str, object] = {}
    if args.kind == "draft":
        from llama_cpp.llama_speculative import LlamaPromptLookupDecoding

        extra = {"draft_model": LlamaPromptLookupDecoding(max_ngram_size=2, num_pred_tokens=args.draft_tokens)}
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=4096, n_threads=args.threads, extra=extra))
    lines = ITEMS.read_text(encoding="utf-8").splitlines()[: args.items]
    questions = [json.loads(line)["question"] for line in lines]
    with Sandbox() as box:
        for method in ("pal", "cot"):
            solve("What is 7 + 8?", method, model, box)  # each method's prompt read once, untimed
            seconds, tokens, answers = 0.0, 0, []
            for question in questions:
                started = time.perf_counter()
                solution = solve(question, method, model, box)
                seconds += time.perf_counter() - started
                tokens += sum(call.completion_tokens for call in solution.calls)
                answers.append(solution.answer)
            print(json.dumps({"kind": args.kind, "method": method, "seconds": round(seconds, 1), "tokens": tokens,
                              "tokens_per_s": round(tokens / seconds, 1), "answers": answers}))  # fmt: skip
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GB")


if __name__ == "__main__":
    main()
