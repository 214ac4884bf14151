"""Support in plain words, each level with the accuracy measured for it (docs/results.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.reasoning.methods import solve
from app.reasoning.solution import voters_words
from app.reasoning.support import LEVELS
from models.testing import ScriptedModel
from sandbox import Sandbox

from .test_methods import pal, pot

RESULTS = (Path(__file__).resolve().parents[3] / "docs" / "results.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("replies", "level"),
    [
        ([pal("12"), "Answer: 12"], "cot+pal"),  # PoT is not asked: it could not change the answer
        ([pal("12"), "Answer: 11", pot("12")], "pal+pot"),
        ([pal("11"), "Answer: 12", pot("12")], "cot+pot"),
        ([pal("11"), "Answer: 10", pot("12")], "tie"),
        ([pal("53"), "He buys 16 * 3 = 46. Then 46 + 5 = 51.\nAnswer: 51"], "redone"),  # 48 + 5: as PAL's
        ([pal("50"), "He buys 16 * 3 = 46. Then 46 + 5 = 51.\nAnswer: 51"], "tie"),  # 53 is not PAL's
    ],
)
def test_each_mixed_vote_says_how_it_was_checked(replies: list[str], level: str, sandbox: Sandbox) -> None:
    confidence = solve("q", "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox).confidence
    assert confidence.level == level and confidence.words == LEVELS[level].words
    assert ("compare them" in confidence.words) is not confidence.confident


def test_a_measured_figure_is_one_docs_results_reports() -> None:
    """Each level's numbers are in the results it cites: none is invented here."""
    for name, level in LEVELS.items():
        if level.of:
            assert "docs/results.md" in level.measured_on, name
            assert re.search(rf"(?<![\d/]){level.right}/{level.of}(?![\d/])", RESULTS), name


def test_who_voted_reads_as_words(sandbox: Sandbox) -> None:
    replies = [pal("14"), "Answer: 41", pot("14"), "Answer: 14", "Answer: 14"]
    solution = solve("q", "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox)
    assert voters_words(solution) == "chain of thought, PAL, PoT and 2 more chains of thought"
    assert solution.confidence.words == LEVELS["second round"].words and "reasoned again" in solution.confidence.words
