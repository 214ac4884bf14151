"""The layer rules of docs/architecture.md, checked mechanically on every module's imports.

Qt may be imported only under `app.ui`; `sandbox` and `models` never import `app`; `sandbox`
imports neither `app` nor `models`.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def violations() -> list[str]:
    found = []
    for package in ("app", "models", "sandbox"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            roots = {name.partition(".")[0] for name in imported_modules(path)}
            if not module.startswith("app.ui") and roots & set(QT):
                found.append(f"{module} imports Qt")
            if package in ("models", "sandbox") and "app" in roots:
                found.append(f"{module} imports app")
            if package == "sandbox" and "models" in roots:
                found.append(f"{module} imports models")
    return found


def test_layers_are_respected() -> None:
    assert violations() == []


def test_the_check_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtWidgets import QWidget\nimport app.ui\n")
    assert imported_modules(bad) == {"PySide6.QtWidgets", "app.ui"}
