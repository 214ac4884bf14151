"""Where models live on this machine."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

DATA_DIR_ENV = "PAL_STUDIO_DATA_DIR"


def data_dir() -> Path:
    """The user data folder (`PAL_STUDIO_DATA_DIR` overrides it, e.g. for a portable install)."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("pal-studio", appauthor=False))


def models_dir() -> Path:
    """Assembled embedded models, downloads and the user's own GGUF files."""
    return data_dir() / "models"
