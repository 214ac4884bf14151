"""Command line: `python -m sandbox run|doctor`.

`run` prints exactly one JSON object on one line (the contract in docs/architecture.md) and
exits 0 whenever a result was produced; the program's own failure is its status.
"""

from __future__ import annotations

import argparse
import json
import sys

from sandbox.host import MAX_CODE_CHARS, Sandbox, SandboxError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a Python program in the sandbox, print a JSON result")
    run.add_argument("file", help="the program's file, or - for standard input")
    run.add_argument("--time", type=float, default=5.0, metavar="SECONDS", help="wall-clock limit (default 5)")
    run.add_argument("--memory", type=int, default=512, metavar="MB", help="address-space limit (default 512)")
    run.add_argument("--output", type=int, default=65536, metavar="BYTES", help="stdout+stderr cap (default 65536)")
    run.add_argument("--var", action="append", metavar="NAME", help="variable to report (repeatable; default ans)")
    run.add_argument("--trace", action="store_true", help="record a line-by-line trace of the program")
    run.add_argument("--allow-unisolated", action="store_true", help="run even where no isolation layer is available")
    commands.add_parser("doctor", help="show the backend and which isolation layers work on this machine")
    args = parser.parse_args(argv)
    try:
        return _run(args) if args.command == "run" else _doctor()
    except SandboxError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            code = sys.stdin.read(MAX_CODE_CHARS + 1)
        else:
            with open(args.file, encoding="utf-8") as handle:
                code = handle.read(MAX_CODE_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"sandbox: cannot read the program: {exc}", file=sys.stderr)
        return 2
    with Sandbox() as box:
        try:
            result = box.run(
                code,
                time_s=args.time,
                memory_mb=args.memory,
                output_bytes=args.output,
                capture=args.var or ("ans",),
                trace=args.trace,
                allow_unisolated=args.allow_unisolated,
            )
        except ValueError as exc:
            print(f"sandbox: {exc}", file=sys.stderr)
            return 2
    print(json.dumps(result.to_json(), ensure_ascii=True, allow_nan=False))  # strict JSON, whatever ran
    return 0


def _doctor() -> int:
    with Sandbox() as box:
        print(f"backend: {box.backend}")
        print(f"isolation: {box.isolation.value}")
        for layer in box.layers:
            print(f"  [{'x' if layer.active else ' '}] {layer.name:<10} {layer.detail}")
        check = box.run("ans = 6 * 7", allow_unisolated=True)
        ok = check.ok and check.values.get("ans") is not None and check.values["ans"].json == 42
        print(f"test run: {'ok' if ok else 'FAILED'} ({check.duration_s * 1000:.0f} ms)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
