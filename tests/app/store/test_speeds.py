"""Model speeds measured on this computer: kept as a median of the last few, capped, read safely."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.store.speeds import KEEP, MAX_MODELS, Speeds, speed_text
from models import catalog


def test_a_speed_is_the_median_of_the_last_few_and_survives_a_restart(tmp_path: Path) -> None:
    speeds = Speeds(tmp_path / "model-speeds.json")
    assert speeds.of("a.gguf") is None
    for rate in (10.0, 30.0, 12.0):
        speeds.record("a.gguf", rate, tokens=40)
    assert speeds.of("a.gguf") == 12.0  # one fast reply does not make the model fast
    speeds.record("a.gguf", 99.0, tokens=3)  # too short a reply to say anything
    assert speeds.of("a.gguf") == 12.0
    for rate in [1.0] * KEEP:
        speeds.record("a.gguf", rate, tokens=40)
    assert Speeds(tmp_path / "model-speeds.json").of("a.gguf") == 1.0  # only the last KEEP count


def test_the_file_keeps_the_most_recently_used_models(tmp_path: Path) -> None:
    speeds = Speeds(tmp_path / "model-speeds.json")
    for n in range(MAX_MODELS + 5):
        speeds.record(f"m{n}.gguf", 10.0, tokens=40)
    again = Speeds(tmp_path / "model-speeds.json")
    assert again.of("m0.gguf") is None and again.of(f"m{MAX_MODELS + 4}.gguf") == 10.0


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"models": []}',
        '{"models": {"a.gguf": "fast"}}',
        '{"models": {"a.gguf": [true, -1, "9"]}}',
        "[" * 60_000,  # nested past the parser's depth
        "[" + "1," * 40_000 + "1]",  # past the size cap
    ],
)
def test_a_corrupt_file_reads_as_nothing_measured(tmp_path: Path, text: str) -> None:
    path = tmp_path / "model-speeds.json"
    path.write_text(text)
    speeds = Speeds(path)
    assert speeds.of("a.gguf") is None
    speeds.record("a.gguf", 5.0, tokens=40)  # and is replaced by a good one
    assert Speeds(path).of("a.gguf") == 5.0


def test_the_speed_shown_says_where_it_comes_from(tmp_path: Path) -> None:
    models = catalog.load()
    default, download = models.default, models.downloads[0]
    speeds = Speeds(tmp_path / "model-speeds.json")
    assert default.tokens_per_s is not None
    shipped = speed_text(default.file_name, default.size_bytes, speeds, models)
    assert shipped == f"{default.tokens_per_s:.0f} tokens/s measured on {models.speeds_measured_on}"
    expected = default.tokens_per_s * default.size_bytes / (download.approx_size_gb * 1e9)
    estimate = speed_text(download.file_name, download.approx_size_gb * 1e9, speeds, models)
    assert estimate == f"about {expected:.0f} tokens/s expected (from its size)"
    speeds.record(default.file_name, 7.0, tokens=40)  # slower here: the estimate follows
    assert speed_text(default.file_name, default.size_bytes, speeds, models) == "7 tokens/s measured on this computer"
    half = speed_text("half.gguf", default.size_bytes / 2, speeds, models)
    assert half == "about 14 tokens/s expected (from its size)"
    assert speed_text("empty.gguf", 0, speeds, models) == "speed measured after its first use"
