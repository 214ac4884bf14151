"""The worst time of every reader of untrusted text on 64 KiB adversarial strings (prints figures).

    .venv/bin/python tests/benchmarks/bench_parsing.py [--size 65536]

One row per reader: its slowest input and the time it took. Target (issue 28): each linear, far
below a second; the last line is the worst of all.
"""

from __future__ import annotations

import argparse
import time

from tests.security.hostile import SIZE, adversarial
from tests.security.readers import READERS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=SIZE)
    size = parser.parse_args().size
    inputs = adversarial(size)
    overall = (0.0, "", "")
    for name, reader in READERS.items():
        worst = (0.0, "")
        for shape, text in inputs.items():
            started = time.perf_counter()
            reader(text)
            worst = max(worst, (time.perf_counter() - started, shape))
        print(f"{name:28s} {worst[0] * 1000:9.2f} ms  ({worst[1]})")
        overall = max(overall, (worst[0], name, worst[1]))
    print(f"worst reader time on {size:,} characters = {overall[0] * 1000:.2f} ms ({overall[1]}, {overall[2]})")


if __name__ == "__main__":
    main()
