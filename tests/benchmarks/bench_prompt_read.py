"""How fast Esc stops a solve while the model is still reading the prompt, and what reading it in
chunks costs (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_prompt_read.py [--tokens 768]

Reads one long prompt with llama.cpp at several chunk sizes (tokens per second, the longest chunk:
a cancel waits at most that long), then cancels `LocalModel.generate` 0.3 s into reading a prompt
and times how long the cancel took to end it. Target (issue 29): Esc ends the work within 1 s.
"""

from __future__ import annotations

import argparse
import threading
import time

from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from models.types import Generation, GenerationRequest

QUESTION = "Olivia has $23. She bought five bagels for $3 each. How much money does she have left? "


def chunk_speeds(model: LocalModel, tokens: list[int]) -> None:
    llama = model._llama  # the raw reader, to compare chunk sizes
    for chunk in (512, 128, 64, 32):
        llama.reset()
        started, longest = time.perf_counter(), 0.0
        for start in range(0, len(tokens), chunk):
            before = time.perf_counter()
            llama.eval(tokens[start : start + chunk])
            longest = max(longest, time.perf_counter() - before)
        total = time.perf_counter() - started
        print(f"chunk {chunk:>3}: {len(tokens) / total:5.0f} tokens/s, longest chunk {longest:.2f} s")


def cancel_latency(model: LocalModel, prompt: str) -> None:
    model.clear_cache()
    request = GenerationRequest.chat(prompt, max_tokens=16)
    timer = threading.Timer(0.3, model.cancel)
    timer.start()
    cancelled_at = time.perf_counter() + 0.3
    result = next(item for item in model.generate(request) if isinstance(item, Generation))
    print(f"cancel 0.3 s into reading: ended {time.perf_counter() - cancelled_at:.2f} s later ({result.finish_reason})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=768)
    args = parser.parse_args()
    model = LocalModel(ModelSettings(ensure_embedded(), n_threads=2))
    prompt = QUESTION * (args.tokens // 20)
    tokens = model._llama.tokenize(prompt.encode(), add_bos=True)[: args.tokens]
    chunk_speeds(model, tokens)
    cancel_latency(model, prompt)
    model.close()


if __name__ == "__main__":
    main()
