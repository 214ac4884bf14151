#!/usr/bin/env bash
# Answer one question end to end with a scripted model: a scripted OpenAI-compatible server
# (scripts/scripted_server.py) writes the program, the real sandbox runs it. Works on every
# platform the hosted CI matrix has (bash: Git Bash on Windows) and for a frozen build.
#   scripts/smoke-ask.sh [PAL_STUDIO_COMMAND]   (default .venv/bin/pal-studio)
set -euo pipefail
cd "$(dirname "$0")/.."
app="${1:-.venv/bin/pal-studio}"
python_bin="${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python )}"
port="${SMOKE_PORT:-8765}"
"$python_bin" scripts/scripted_server.py --port "$port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 2
answer="$("$app" ask --backend "http://127.0.0.1:$port" --json \
  'A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?' \
  | "$python_bin" -c 'import json, sys; d = json.load(sys.stdin); print(d["answer"], d["isolation"])')"
echo "answer: $answer"
[ "${answer%% *}" = "6" ]
