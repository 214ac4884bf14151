"""The layer rules of docs/architecture.md, checked mechanically on every module's imports.

Qt may be imported only under `app.ui`; `sandbox` and `models` never import `app`; `sandbox`
imports neither `app` nor `models`; inside `app`, nothing but `app.ui` and the entry points
(`app.cli`, `app.__main__`, which open the window) imports `app.ui`, so the reasoning core, the
store and the evaluator stay usable without a window; the reasoning core imports neither the store
nor the evaluator (they build on it); the main window is views only: it reaches the sandbox and the
store through the controller, never by import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENTRY_POINTS = ("app.cli", "app.__main__")
VIEWS_ONLY = ("app.ui.main_window",)
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def violations(root: Path = ROOT) -> list[str]:
    found = []
    for package in ("app", "models", "sandbox"):
        for path in sorted((root / package).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            imported = imported_modules(path)
            roots = {name.partition(".")[0] for name in imported}
            in_ui = module == "app.ui" or module.startswith("app.ui.")
            if not in_ui and roots & set(QT):
                found.append(f"{module} imports Qt")
            if package in ("models", "sandbox") and "app" in roots:
                found.append(f"{module} imports app")
            if package == "sandbox" and "models" in roots:
                found.append(f"{module} imports models")
            if (
                package == "app"
                and not in_ui
                and module not in ENTRY_POINTS
                and any(_under(n, "app.ui") for n in imported)
            ):
                found.append(f"{module} imports app.ui")
            if _under(module, "app.reasoning"):
                found += [
                    f"{module} imports {p}"
                    for p in ("app.store", "app.evaluation")
                    if any(_under(n, p) for n in imported)
                ]
            if module in VIEWS_ONLY:
                found += [
                    f"{module} imports {p}" for p in ("sandbox", "app.store") if any(_under(n, p) for n in imported)
                ]
    return found


def test_layers_are_respected() -> None:
    assert violations() == []


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("app/reasoning/bad.py", "from PySide6.QtWidgets import QWidget\n", "app.reasoning.bad imports Qt"),
        ("models/bad.py", "import app.reasoning\n", "models.bad imports app"),
        ("sandbox/bad.py", "from models.types import LanguageModel\n", "sandbox.bad imports models"),
        ("sandbox/bad.py", "import app\n", "sandbox.bad imports app"),
        ("app/store/bad.py", "from app.ui.main_window import MainWindow\n", "app.store.bad imports app.ui"),
        ("app/reasoning/bad.py", "from app.store.history import History\n", "app.reasoning.bad imports app.store"),
        ("app/reasoning/bad.py", "import app.evaluation.grader\n", "app.reasoning.bad imports app.evaluation"),
        ("app/ui/main_window.py", "from sandbox import Sandbox\n", "app.ui.main_window imports sandbox"),
        ("app/ui/main_window.py", "from app.store import settings\n", "app.ui.main_window imports app.store"),
    ],
)
def test_each_rule_catches_its_violation(tmp_path: Path, path: str, source: str, expected: str) -> None:
    (tmp_path / path).parent.mkdir(parents=True)
    (tmp_path / path).write_text(source)
    (tmp_path / "app" / "ui").mkdir(parents=True, exist_ok=True)
    (tmp_path / "app" / "ui" / "fine.py").write_text("from PySide6.QtWidgets import QWidget\nimport app.reasoning\n")
    assert violations(tmp_path) == [expected]
