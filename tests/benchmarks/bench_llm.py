"""LocalModel against raw llama_cpp.Llama, measured in one run (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_llm.py [--threads N] [--tokens N] [--rounds N]

1. Decode speed: the same greedy generation through `LocalModel` and through `Llama.generate`
   directly (same model file, same thread count); ratio target ≥ 0.97.
2. Time to first token of a question after a ≈ 600-token few-shot prefix: cold (prefix not in
   the KV cache) and cached (same prefix, new question); ratio target ≤ 0.15.
"""

from __future__ import annotations

import argparse
import statistics
import time

from llama_cpp import Llama

from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from models.types import Generation, GenerationRequest

TASK = "Write a long, well commented Python program that simulates a small bank with accounts and transfers."


def raw_decode_rate(llama: Llama, prompt: str, tokens: int) -> float:
    ids = llama.tokenize(prompt.encode(), add_bos=True, special=True)
    llama.reset()
    produced, first = 0, 0.0
    for _token in llama.generate(ids, temp=0.0):
        produced += 1
        if produced == 1:
            first = time.perf_counter()
        if produced == tokens:
            break
    return (produced - 1) / (time.perf_counter() - first)


def local_decode_rate(model: LocalModel, tokens: int) -> float:
    request = GenerationRequest.chat(TASK, max_tokens=tokens)
    model.clear_cache()  # same state as the raw run: nothing cached
    for item in model.generate(request):
        if isinstance(item, Generation):
            return item.tokens_per_s
    raise RuntimeError("no result")


def time_to_first_text(model: LocalModel, request: GenerationRequest) -> float:
    started = time.perf_counter()
    for item in model.generate(request):
        if isinstance(item, str) and item:
            elapsed = time.perf_counter() - started
            model.cancel()
            return elapsed
    raise RuntimeError("no text")


def few_shot_prefix() -> str:
    examples = []
    for i in range(12):
        examples.append(
            f"Question: A shop sells {i + 3} boxes of {i + 5} pencils and gives away {i + 2} pencils. "
            f"How many pencils are left?\n```python\nboxes = {i + 3}\nper_box = {i + 5}\n"
            f"given_away = {i + 2}\nans = boxes * per_box - given_away\nprint(ans)\n```\n"
        )
    return "Solve each problem with a Python program.\n\n" + "\n".join(examples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    path = ensure_embedded()
    model = LocalModel(ModelSettings(path, n_ctx=4096, n_threads=args.threads))
    raw = Llama(str(path), n_ctx=4096, n_threads=args.threads, verbose=False)
    raw_prompt = model.format_prompt(GenerationRequest.chat(TASK))

    local_rates, raw_rates = [], []
    for _ in range(args.rounds):  # interleaved, so machine noise hits both alike
        raw_rates.append(raw_decode_rate(raw, raw_prompt, args.tokens))
        local_rates.append(local_decode_rate(model, args.tokens))
    local_rate, raw_rate = statistics.median(local_rates), statistics.median(raw_rates)

    prefix = few_shot_prefix()
    print(f"few-shot prefix: {model.count_tokens(prefix)} tokens")
    cold, cached = [], []
    for i in range(args.rounds):
        model.clear_cache()
        cold.append(time_to_first_text(model, GenerationRequest.chat(prefix + f"\nQuestion: What is {i} + 40?")))
        cached.append(time_to_first_text(model, GenerationRequest.chat(prefix + f"\nQuestion: What is {i} * 41?")))
    cold_s, cached_s = statistics.median(cold), statistics.median(cached)

    print(f"model: {model.name}, threads: {args.threads}, {args.tokens} tokens x {args.rounds} rounds")
    print(f"decode tokens/s  LocalModel {local_rate:.1f}   raw Llama {raw_rate:.1f}")
    ratio = local_rate / raw_rate
    print(f"decode ratio LocalModel / raw = {ratio:.3f} (target >= 0.97): {'met' if ratio >= 0.97 else 'MISSED'}")
    print(f"time to first token  cold {cold_s:.2f} s   prefix cached {cached_s:.2f} s")
    ttft = cached_s / cold_s
    print(f"first-token ratio cached / cold = {ttft:.3f} (target <= 0.15): {'met' if ttft <= 0.15 else 'MISSED'}")


if __name__ == "__main__":
    main()
