"""Questions the user answers before something that cannot be undone (No is the default)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def confirmed(parent: QWidget, title: str, text: str) -> bool:
    buttons = QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
    answer = QMessageBox.question(parent, title, text, buttons, QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes
