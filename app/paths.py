"""`AppPaths`: every file PAL Studio reads or writes for the user, in one place.

Built once by the composition root (`app.ui.app.compose`, the CLI) and handed down; nothing else
asks platformdirs or the environment where a file lives, so a test that passes `AppPaths(tmp_path)`
cannot touch the user's history, settings, autosave or logs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from models.paths import data_dir

LOG_DIR_ENV = "PAL_STUDIO_LOG_DIR"
WASM_CACHE_ENV = "PAL_STUDIO_WASM_CACHE"  # as sandbox.wasm.CACHE_ENV (app.paths does not import the sandbox)


@dataclass(frozen=True)
class AppPaths:
    data: Path
    logs: Path | None = None  # None: a `logs` folder inside `data`

    @classmethod
    def for_user(cls) -> AppPaths:
        """The user's folders (`PAL_STUDIO_DATA_DIR` and `PAL_STUDIO_LOG_DIR` override them)."""
        override = os.environ.get(LOG_DIR_ENV)
        logs = Path(override) if override else Path(platformdirs.user_log_dir("pal-studio", appauthor=False))
        return cls(data_dir(), logs)

    @property
    def log_folder(self) -> Path:
        return self.logs if self.logs is not None else self.data / "logs"

    @property
    def settings(self) -> Path:
        return self.data / "settings.json"

    @property
    def history(self) -> Path:
        return self.data / "history.sqlite"

    @property
    def recovery(self) -> Path:
        """The autosaved work a crash or kill leaves for the next start."""
        return self.data / "recovery.json"

    @property
    def window_state(self) -> Path:
        """Window geometry, splitter sizes and the last method (Qt's INI format)."""
        return self.data / "window.ini"

    @property
    def speeds(self) -> Path:
        """Each model's decoding speed measured on this computer (app.store.speeds)."""
        return self.data / "model-speeds.json"

    @property
    def first_run_marker(self) -> Path:
        return self.data / "first-run-done"

    @property
    def wasm_cache(self) -> Path:
        """The WebAssembly sandbox's compiled module (≈ 280 MB, made once); `PAL_STUDIO_WASM_CACHE`
        overrides it, so every copy of the app (and the tests) can share one."""
        override = os.environ.get(WASM_CACHE_ENV)
        return Path(override) if override else self.data / "wasm"

    @property
    def solve_log(self) -> Path:
        """One JSON line per solve."""
        return self.log_folder / "solves.jsonl"

    @property
    def app_log(self) -> Path:
        """The rotating text log (`--log-level`), background failures included."""
        return self.log_folder / "pal-studio.log"
