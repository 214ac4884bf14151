"""`pal-studio --install-desktop-entry`: register the app with the desktop, for this user only.

Writes the freedesktop `.desktop` entry (its Exec pointing at this installation), the icon as SVG
and PNGs in the standard sizes, and the AppStream metainfo under `$XDG_DATA_HOME` (default
`~/.local/share`). No root needed.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"
ICON_SIZES = (16, 32, 48, 64, 128, 256)
METAINFO = "io.github.pal_studio.PALStudio.metainfo.xml"


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launcher() -> str:
    """The command that starts this installation's app."""
    script = Path(sys.executable).with_name("pal-studio")
    return str(script) if script.exists() else f"{sys.executable} -m app"


def install(home: Path | None = None) -> list[Path]:
    """Install the entry, icons and metainfo; returns the files written."""
    home = home or data_home()
    written: list[Path] = []
    entry = (PACKAGING / "pal-studio.desktop").read_text(encoding="utf-8")
    entry = entry.replace("Exec=pal-studio", f"Exec={launcher()}")
    target = home / "applications" / "pal-studio.desktop"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(entry, encoding="utf-8")
    written.append(target)
    svg = home / "icons" / "hicolor" / "scalable" / "apps" / "pal-studio.svg"
    svg.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PACKAGING / "pal-studio.svg", svg)
    written.append(svg)
    written += _render_pngs(PACKAGING / "pal-studio.svg", home / "icons" / "hicolor")
    metainfo = home / "metainfo" / METAINFO
    metainfo.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PACKAGING / METAINFO, metainfo)
    written.append(metainfo)
    return written


def _render_pngs(svg: Path, hicolor: Path) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer
    from PySide6.QtWidgets import QApplication

    # A full QApplication (not QGuiApplication): widgets created later in the process need one.
    _app = QApplication.instance() or QApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(svg))
    written = []
    for size in ICON_SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        target = hicolor / f"{size}x{size}" / "apps" / "pal-studio.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        image.save(str(target))
        written.append(target)
    return written
