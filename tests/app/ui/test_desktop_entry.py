"""Desktop integration: the entry and metainfo validate; installing needs no root."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.ui.desktop_entry import ICON_SIZES, METAINFO, PACKAGING, install


def _tool(name: str, package: str) -> str:
    """The validator, installed from Debian's packages when missing and we may (as in CI)."""
    found = shutil.which(name)
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        for command in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", package]):
            subprocess.run(command, capture_output=True, check=False, timeout=600)
        found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} (Debian package {package}) is not available")
    return found


def test_desktop_entry_validates() -> None:
    validate = _tool("desktop-file-validate", "desktop-file-utils")
    done = subprocess.run(
        [validate, str(PACKAGING / "pal-studio.desktop")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


def test_metainfo_validates() -> None:
    appstream = _tool("appstreamcli", "appstream")
    done = subprocess.run(
        [appstream, "validate", "--no-net", "--pedantic", str(PACKAGING / METAINFO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_for_this_user(tmp_path: Path) -> None:
    written = install(tmp_path)
    entry = (tmp_path / "applications" / "pal-studio.desktop").read_text()
    assert "Exec=" in entry and "Exec=pal-studio\n" not in entry  # points at this installation
    for size in ICON_SIZES:
        png = tmp_path / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "pal-studio.png"
        assert png.read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "metainfo" / METAINFO).exists()
    assert len(written) == len(ICON_SIZES) + 3


def test_version_and_install_from_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    version = subprocess.run([sys.executable, "-m", "app", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("PAL Studio 0.1.0")
    done = subprocess.run(
        [sys.executable, "-m", "app", "--install-desktop-entry"], capture_output=True, text=True, env=env, check=True
    )
    assert "pal-studio.desktop" in done.stdout
    assert (tmp_path / "applications" / "pal-studio.desktop").exists()
