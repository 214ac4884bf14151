"""The user's settings: a typed, validated object stored as versioned JSON in the data folder.

Window state (geometry, splitters) is not here; the window keeps it in QSettings.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

VERSION = 1
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    model_path: str | None = None  # None: the embedded default model
    n_threads: int | None = None  # None: llama.cpp's choice
    n_ctx: int = 4096
    n_gpu_layers: int = 0
    temperature: float = 0.0
    time_s: float = 5.0
    memory_mb: int = 512
    backend_url: str | None = None  # an OpenAI-compatible server instead of a model run here

    def __post_init__(self) -> None:
        problems = []
        if self.backend_url is not None and (
            not self.backend_url.startswith(("http://", "https://")) or len(self.backend_url) > 2000
        ):
            problems.append("the server address must start with http:// or https://")
        if self.n_threads is not None and not 1 <= self.n_threads <= 256:
            problems.append("threads must be between 1 and 256")
        if not 256 <= self.n_ctx <= 131072:
            problems.append("context size must be between 256 and 131072 tokens")
        if self.n_gpu_layers < -1:
            problems.append("GPU layers must be -1 (all), 0 or more")
        if not 0.0 <= self.temperature <= 2.0:
            problems.append("temperature must be between 0 and 2")
        if not 0.1 <= self.time_s <= 600:
            problems.append("the time limit must be between 0.1 and 600 seconds")
        if not 64 <= self.memory_mb <= 65536:
            problems.append("the memory limit must be between 64 and 65536 MB")
        if problems:
            raise ValueError("; ".join(problems))

    def model_differs(self, other: Settings) -> bool:
        """Whether switching from `other` to these settings needs the model loaded again."""
        keys = ("model_path", "n_threads", "n_ctx", "n_gpu_layers", "backend_url")
        return any(getattr(self, k) != getattr(other, k) for k in keys)


def _from_unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """Version 0: the settings as a flat object (a hand-written file), without the envelope."""
    return {"version": 1, "settings": {k: v for k, v in data.items() if k != "version"}}


# MIGRATIONS[n] turns a version-n file into a version-(n + 1) one; load runs them in order.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _from_unversioned}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """`data` brought to this version. A file from a newer version is read as far as its keys
    are known (unknown ones are ignored), so going back to an older PAL Studio loses nothing."""
    version = data.get("version", 0)
    if not isinstance(version, int) or version < 0:
        raise ValueError(f"settings version {version!r} is not a version")
    while version < VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    return data


def load(path: Path) -> Settings:
    """The saved settings; defaults when there are none or they cannot be read (logged)."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("the file does not hold a JSON object")
        known = {f.name for f in fields(Settings)}
        values = {k: v for k, v in migrate(data).get("settings", {}).items() if k in known}
        return replace(Settings(), **values)
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        logger.warning("ignoring unreadable settings in %s: %s", path, exc)
        return Settings()


def save(settings: Settings, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps({"version": VERSION, "settings": asdict(settings)}, indent=2), encoding="utf-8")
    temporary.replace(path)
