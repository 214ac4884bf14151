"""The user's settings (`app.settings.Settings`) stored as versioned JSON in the data folder,
migrated on load.

Window state (geometry, splitters) is not here; the window keeps it in QSettings.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import Any

from app.settings import Settings

VERSION = 1
logger = logging.getLogger(__name__)


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
