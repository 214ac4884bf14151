"""Decode speed and memory of GGUF models on this computer (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_model_speed.py [--threads N] [--tokens N] [--rounds N] [FILE ...]

Without files: the embedded default model. For each file, in a fresh process so its memory is its
own: the resident memory once loaded and after generating, and the median decode rate of greedy
replies of `--tokens` tokens (the prompt read first, not counted). These are the figures the
catalog's `tokens_per_s` and `ram_gb` carry (models/catalog.json).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

TASK = "Write a long, well commented Python program that simulates a small bank with accounts and transfers."


def resident_gb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):  # the peak resident set
            return int(line.split()[1]) / 2**20
    return 0.0


def measure(path: str, threads: int, tokens: int, rounds: int) -> dict[str, float]:
    from models.local import LocalModel, ModelSettings
    from models.types import Generation, GenerationRequest

    model = LocalModel(ModelSettings(Path(path), n_ctx=4096, n_threads=threads))
    loaded = resident_gb()
    rates = []
    for _ in range(rounds):
        model.clear_cache()
        for item in model.generate(GenerationRequest.chat(TASK, max_tokens=tokens)):
            if isinstance(item, Generation):
                rates.append(item.tokens_per_s)
    return {"tokens_per_s": statistics.median(rates), "loaded_gb": loaded, "peak_gb": resident_gb()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.files[0], args.threads, args.tokens, args.rounds)))
        return
    if not args.files:
        from models.embedded import ensure_embedded

        args.files = [str(ensure_embedded())]
    print(f"threads {args.threads}, {args.tokens} tokens x {args.rounds} rounds")
    print("| model | size | tokens/s | memory loaded | memory peak |\n|---|---|---|---|---|")
    rates = []
    for path in args.files:
        command = [sys.executable, __file__, "--child", "--threads", str(args.threads),
                   "--tokens", str(args.tokens), "--rounds", str(args.rounds), path]  # fmt: skip
        figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
        size = Path(path).stat().st_size / 2**30
        print(f"| {Path(path).name} | {size:.2f} GiB | {figures['tokens_per_s']:.1f} | "
              f"{figures['loaded_gb']:.2f} GiB | {figures['peak_gb']:.2f} GiB |")  # fmt: skip
        rates.append(figures["tokens_per_s"])
    print(f"decode tokens/s (first model) = {rates[0]:.1f}")


if __name__ == "__main__":
    main()
