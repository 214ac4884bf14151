"""Fuzz the sandbox with generated programs through one `Sandbox` (prints figures; not a test).

    .venv/bin/python tests/benchmarks/bench_fuzz.py [--programs 10000] [--seed 1]

Programs: token soup, mutations of valid programs, huge literals, infinite loops, deep
recursion and nesting, escape sequences and bidi controls, bad UTF-8 and lone surrogates.
Each runs with time_s=1. Targets (issue 16): no exception from `run()`, no run over
time_s + 1 s, parent RSS growth < 5 MB, no process left behind.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from sandbox import Sandbox

TIME_S = 1.0
VALID = (
    "total = 0\nfor week in range(4):\n    total = total + 12\nprint(total)",
    "from sympy import symbols, solve\nx = symbols('x')\nans = solve(3*x + 7 - 25, x)[0]\nprint(ans)",
    "money = 23\nbagels = 5\ncost = 3\nans = money - bagels * cost\nprint(ans)",
    "def f(n):\n    return 1 if n < 2 else n * f(n - 1)\nans = f(20)\nprint(ans)",
    "import fractions\nans = fractions.Fraction(3, 4) + fractions.Fraction(1, 3)\nprint(ans)",
    "items = {'a': 1, 'b': 2}\nans = sorted(items.items(), key=lambda kv: -kv[1])\nprint(ans)",
)
TOKENS = (
    "(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+", "-", "*", "**", "/", "//", "%", "<", ">", "==",
    "\n", "    ", " ", "if", "else", "for", "in", "while", "def", "return", "lambda", "import", "yield",
    "x", "y", "ans", "print", "range", "len", "0", "1", "9" * 30, "'s'", '"""', "#", "\\", "@", "not",
    "None", "True", "async", "await", "class", "try", "except", "raise", "global", "del", "with",
)  # fmt: skip
ESCAPES = ("\x1b[31m", "\x1b]0;title\x07", "\u202e", "\u200f", "\x00", "\r", "\x08", "\x9b", "\ufeff")


def token_soup(rng: random.Random) -> str:
    return "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 80)))


def mutation(rng: random.Random) -> str:
    code = list(rng.choice(VALID))
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(code) + 1)
        action = rng.random()
        if action < 0.4 and code:
            del code[min(at, len(code) - 1)]
        elif action < 0.8:
            code.insert(at, rng.choice("()[]:=+-*/ \n'\"x01#\\"))
        elif code:
            code[min(at, len(code) - 1)] = chr(rng.randrange(32, 0x2FFF))
    return "".join(code)


def huge_literal(rng: random.Random) -> str:
    size = rng.choice((10**4, 10**5, 5 * 10**5))
    return rng.choice(
        (f"ans = {'9' * size}", f"s = '{'a' * size}'\nprint(len(s))", f"x = [{'1,' * (size // 2)}]\nans = len(x)",
         f"ans = 10 ** {size}", f"print('x' * {size * 100})")
    )  # fmt: skip


def endless(rng: random.Random) -> str:
    return rng.choice(
        ("while True:\n    pass", "import time\ntime.sleep(60)", "x = 0\nwhile x >= 0:\n    x += 1",
         "def g():\n    while True:\n        yield 1\nans = sum(g())")
    )  # fmt: skip


def deep(rng: random.Random) -> str:
    depth = rng.choice((100, 1000, 10_000, 100_000))
    return rng.choice(
        ("def f(n):\n    return f(n + 1)\nf(0)", "(" * depth + "1" + ")" * depth, "[" * depth + "]" * depth,
         f"x = 1\nfor _ in range({depth}):\n    x = [x]\nans = x", "-" * depth + "1",
         f"import sys\nsys.setrecursionlimit({depth})\ndef f(n):\n    return f(n + 1)\nf(0)")
    )  # fmt: skip


def escapes(rng: random.Random) -> str:
    text = "".join(rng.choice(ESCAPES) + "text" for _ in range(rng.randint(1, 20)))
    return f"ans = {text!r}\nprint(ans)"


def bad_text(rng: random.Random) -> str:
    junk = "".join(
        chr(rng.choice((0xD800, 0xDFFF, 0xFFFE, 0x10FFFF, 0x80, 0xFF, 0))) for _ in range(rng.randint(1, 10))
    )
    return rng.choice((junk, f"ans = '{junk}'", f"# {junk}\nprint(1)", f"print({junk!r})"))


KINDS = (
    (token_soup, 0.30),
    (mutation, 0.35),
    (huge_literal, 0.08),
    (endless, 0.01),
    (deep, 0.08),
    (escapes, 0.09),
    (bad_text, 0.09),
)


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def leftovers(box: Sandbox) -> list[int]:
    worker = box.worker_pid
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (worker, box.zygote_pid):
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if worker is not None and int(fields[3]) == worker:  # in the worker's session
            found.append(int(entry))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--programs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers, weights = zip(*KINDS, strict=True)
    exceptions, over, slowest, slowest_kind = 0, 0, 0.0, ""
    statuses: dict[str, int] = {}
    with Sandbox() as box:
        box.run("print(1)")  # the worker's start is not the programs' time
        rss_before = rss_mb()
        started = time.monotonic()
        for i in range(args.programs):
            maker = rng.choices(makers, weights)[0]
            code = maker(rng)
            began = time.monotonic()
            try:
                result = box.run(code, time_s=TIME_S, output_bytes=65536)
                statuses[result.status.value] = statuses.get(result.status.value, 0) + 1
            except Exception as exc:
                exceptions += 1
                print(f"run {i} ({maker.__name__}) raised {type(exc).__name__}: {exc}")
            took = time.monotonic() - began
            if took > TIME_S + 1:
                over += 1
                print(f"run {i} ({maker.__name__}) took {took:.2f} s")
            if took > slowest:
                slowest, slowest_kind = took, maker.__name__
        elapsed = time.monotonic() - started
        growth = rss_mb() - rss_before
        left = leftovers(box)
    print(f"programs: {args.programs}, statuses: {dict(sorted(statuses.items()))}")
    print(f"runs/s: {args.programs / elapsed:.1f} ({elapsed:.0f} s)")
    print(f"slowest run: {slowest:.2f} s ({slowest_kind})")
    print(f"exceptions from run(): {exceptions}")
    print(f"runs over time_s + 1 s: {over}")
    print(f"parent RSS growth: {growth:.1f} MB")
    print(f"leftover processes: {len(left)}")
    print(f"fuzz exceptions/over-time/leftovers = {exceptions}/{over}/{len(left)}")


if __name__ == "__main__":
    main()
