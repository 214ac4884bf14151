"""How fast each model decoded on this computer, so Settings can show a measured speed.

One small JSON file (`AppPaths.speeds`): `{"version": 1, "models": {file name: [tokens/s, …]}}`,
the last `KEEP` rates of each model, shown as their median. A model is known by its file name,
so the same file found in two folders counts once. The file is the user's own, but it is read
like anything from outside: with a size cap, and a corrupt or hand-edited one reads as empty.
"""

from __future__ import annotations

import json
import logging
import statistics
from pathlib import Path

from models.catalog import Catalog

logger = logging.getLogger(__name__)
KEEP = 5  # rates kept a model: the median of the last few, so one slow solve (a busy CPU) does not stick
MAX_MODELS = 50
MAX_FILE_BYTES = 64 * 1024
NAME_CHARS = 200
MIN_TOKENS = 16  # a reply shorter than this says more about the prompt than the speed


class Speeds:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._rates = _read(path)

    def of(self, model: str) -> float | None:
        """The model's measured decoding speed here (tokens/s), or None when it has not run here."""
        rates = self._rates.get(model)
        return statistics.median(rates) if rates else None

    def record(self, model: str, tokens_per_s: float, tokens: int) -> None:
        """One reply's decoding rate; replies under `MIN_TOKENS` tokens are not counted."""
        if tokens < MIN_TOKENS or not 0 < tokens_per_s < 100_000 or not model or len(model) > NAME_CHARS:
            return
        rates = self._rates.pop(model, [])  # re-inserted last: the least recently used go first
        self._rates[model] = [*rates, round(tokens_per_s, 2)][-KEEP:]
        while len(self._rates) > MAX_MODELS:
            del self._rates[next(iter(self._rates))]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps({"version": 1, "models": self._rates}), encoding="utf-8")
        except OSError as exc:  # a read-only data folder: the speed is shown this session only
            logger.warning("could not save model speeds to %s: %s", self.path, exc)


def _read(path: Path) -> dict[str, list[float]]:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        return {}
    rates: dict[str, list[float]] = {}
    for name, values in list(models.items())[:MAX_MODELS]:
        if not isinstance(name, str) or len(name) > NAME_CHARS or not isinstance(values, list):
            continue
        kept = [float(v) for v in values[-KEEP:] if isinstance(v, int | float) and not isinstance(v, bool) and v > 0]
        if kept:
            rates[name] = kept
    return rates


def speed_text(file_name: str, size_bytes: float, speeds: Speeds, models: Catalog) -> str:
    """A model's speed as Settings shows it, said for what it is: measured on this computer when
    it has run here, else as the project measured it, else estimated from its size (decoding reads
    every weight once a token, so the rate goes inversely with the file's size)."""
    measured = speeds.of(file_name)
    if measured is not None:
        return f"{measured:.0f} tokens/s measured on this computer"
    shipped = next((m.tokens_per_s for m in models.embedded if m.file_name == file_name and m.tokens_per_s), None)
    if shipped is not None:
        return f"{shipped:.0f} tokens/s measured on {models.speeds_measured_on}"
    default = models.default
    reference = speeds.of(default.file_name) or default.tokens_per_s
    if reference is None or size_bytes <= 0:
        return "speed measured after its first use"
    return f"about {reference * default.size_bytes / size_bytes:.0f} tokens/s expected (from its size)"
