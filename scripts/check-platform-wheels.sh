#!/usr/bin/env sh
# Does every runtime dependency but llama-cpp-python have a wheel for win_amd64, macOS arm64 and
# macOS x86-64? Resolves without downloading (pip --dry-run --report); needs the package index.
set -eu
cd "$(dirname "$0")/.."
exec .venv/bin/python scripts/check_platform_wheels.py "$@"
