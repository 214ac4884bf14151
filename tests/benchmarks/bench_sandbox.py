"""Sandbox speed, both backends side by side, measured in one run (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_sandbox.py [--runs N] [--backends native,wasm]

Warm runs go through the real API (native: fork of the warm worker, full lockdown, JSON both ways;
WebAssembly: a guest from the pool, prepared ahead with sympy imported, used once). The WebAssembly
pool refills on a thread of its own, so its warm figures wait for the refill before each run (the
wait is not timed), and a back-to-back series shows what runs cost when the pool is empty. The cold
reference is a fresh interpreter that imports sympy, what a design without a warm worker would pay.
Targets: native warm print(1) p50 ≤ 25 ms and ≤ 0.1 × cold (issue 2); WebAssembly warm print(1)
p50 ≤ 50 ms and a sympy program ≤ 300 ms (issue 34).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from sandbox import Sandbox, Status

PROGRAMS = {
    "print(1)": "print(1)",
    "sympy solve": "from sympy import symbols, solve\nx = symbols('x')\nans = solve(x**2 - 5*x + 6, x)",
    "sum(range(10**6))": "ans = sum(range(10**6))",
}


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def measure(backend: str, runs: int, refill_s: float) -> dict[str, tuple[float, float]]:
    figures: dict[str, tuple[float, float]] = {}
    with Sandbox(backend=backend) as box:
        started = time.perf_counter()
        box.start()
        print(
            f"{backend}: worker start {(time.perf_counter() - started) * 1000:.0f} ms, isolation {box.isolation.value}"
        )
        for name, code in PROGRAMS.items():
            assert box.run(code).status is Status.OK
            samples: list[float] = []
            for _ in range(runs):
                if refill_s:
                    time.sleep(refill_s)  # the pool prepares the next guest meanwhile (not timed)
                samples.append(_timed_ms(lambda code=code: box.run(code)))  # type: ignore[misc]
            figures[f"{backend} {name}"] = percentiles(samples)
            if backend == "wasm":
                drained = timed(lambda code=code: box.run(code), max(runs // 3, 3))  # type: ignore[misc]
                figures[f"{backend} {name}, pool empty"] = percentiles(drained)
    return figures


def _timed_ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--backends", default="native,wasm")
    parser.add_argument("--refill", type=float, default=6.0, help="seconds the WebAssembly pool gets before a warm run")
    args = parser.parse_args()
    runs = args.runs
    figures: dict[str, tuple[float, float]] = {}
    for backend in args.backends.split(","):
        figures.update(
            measure(
                backend, runs if backend == "native" else max(runs // 3, 5), args.refill if backend == "wasm" else 0.0
            )
        )
    cold = [sys.executable, "-I", "-c", "import sympy"]
    figures["cold spawn + import sympy"] = percentiles(timed(lambda: subprocess.run(cold, check=True), runs))
    print(f"\n{'program':<40}{'p50 ms':>9}{'p95 ms':>9}")
    for name, (p50, p95) in figures.items():
        print(f"{name:<40}{p50:>9.1f}{p95:>9.1f}")
    cold_p50 = figures["cold spawn + import sympy"][0]
    if "native print(1)" in figures:
        warm = figures["native print(1)"][0]
        print(f"\nnative warm print(1) p50 = {warm:.1f} ms (target <= 25): {'met' if warm <= 25 else 'MISSED'}")
        ratio = warm / cold_p50
        print(f"native warm / cold p50 = {ratio:.3f} (target <= 0.1): {'met' if ratio <= 0.1 else 'MISSED'}")
    if "wasm print(1)" in figures:
        warm, solve = figures["wasm print(1)"][0], figures["wasm sympy solve"][0]
        print(f"wasm warm print(1) p50 = {warm:.1f} ms (target <= 50): {'met' if warm <= 50 else 'MISSED'}")
        print(f"wasm warm sympy solve p50 = {solve:.1f} ms (target <= 300): {'met' if solve <= 300 else 'MISSED'}")


if __name__ == "__main__":
    main()
