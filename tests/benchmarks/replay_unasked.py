"""Replay the mending of unasked filters over the records of earlier data-benchmark runs (prints
figures; not a test): each answered program that `unasked_filters` flags is mended by `refiltered`,
run in the sandbox over its file and graded, beside whether the program was right before.

    PYTHONPATH=. .venv/bin/python tests/benchmarks/replay_unasked.py eval-results/data-bench-real/records.jsonl ...
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from app.data import open_data
from app.evaluation.grader import grade
from app.reasoning.unasked import refiltered, unasked_filters
from sandbox import Sandbox
from tests.data import real_questions
from tests.data.data_questions import write_files


def main() -> None:
    files = {path.name: open_data(path) for path in real_questions.FOLDER.iterdir()}
    files.update({name: open_data(path) for name, path in write_files(Path(tempfile.mkdtemp())).items()})
    tally: Counter[str] = Counter()
    with Sandbox() as sandbox:
        for records in sys.argv[1:]:
            for line in Path(records).read_text().splitlines():
                record = json.loads(line)
                data = files[record["file"]]
                if record["status"] != "answered" or not record["program"]:
                    continue
                if not unasked_filters(record["program"], record["question"], data.shared_values):
                    continue
                mended = refiltered(record["program"], record["question"], data.shared_values, data.text_values)
                answer = None
                if mended is not None:
                    result = sandbox.run(mended.program, data=data.wire)
                    answer = result.stdout.strip() if result.ok else None
                after = "right" if answer and grade(answer, record["gold"]).correct else "wrong" if mended else "kept"
                before = "right" if record["correct"] else "wrong"
                tally[f"{before} → {after}"] += 1
                print(records, record["index"], before, "→", after, mended.changes if mended else "")
    print(dict(tally))


if __name__ == "__main__":
    main()
