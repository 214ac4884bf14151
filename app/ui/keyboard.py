"""Every keyboard shortcut in one table: the window binds them from it, the Help → Keyboard dialog
(F1) lists them from it, and a test checks that the README lists the same ones.

Also the focus ring: a visible frame around whatever has the keyboard focus, so a keyboard user
can always see where they are (some platform styles draw none, or a faint dotted line).
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

# (keys as Qt reads them, what they do); the window binds each to a slot of the same name.
SHORTCUTS: tuple[tuple[str, str, str], ...] = (
    ("Ctrl+Return", "solve", "Solve the question"),
    ("Ctrl+R", "run_program", "Run the program (as edited)"),
    ("Ctrl+T", "trace_program", "Step through the program"),
    ("Escape", "cancel", "Cancel what is running"),
    ("Ctrl+E", "explain_line", "Explain the program's line under the cursor"),
    ("Ctrl+O", "open_data", "Open a data file (CSV, .xlsx, JSON lines)"),
    ("Ctrl+F", "search_history", "Search past solves"),
    ("Ctrl+H", "toggle_history", "Show or hide the history"),
    ("Alt+1", "focus_question", "Go to the question"),
    ("Alt+2", "focus_program", "Go to the program"),
    ("Alt+3", "focus_output", "Go to the output"),
    ("Alt+Left", "step_back", "Step back"),
    ("Alt+Right", "step_forward", "Step forward"),
    ("Alt+Home", "step_first", "First step"),
    ("Alt+End", "step_last", "Last step"),
    ("Ctrl+,", "open_settings", "Settings"),
    ("F1", "show_keyboard", "These shortcuts"),
)

FOCUS_RING = (
    "QPushButton:focus, QLineEdit:focus, QPlainTextEdit:focus, QComboBox:focus, QListWidget:focus,"
    " QTableWidget:focus, QTreeWidget:focus, QSpinBox:focus, QDoubleSpinBox:focus, QSlider:focus"
    " { border: 2px solid palette(highlight); }"
)


def shown_keys(keys: str) -> str:
    """Keys as a person reads them."""
    return keys.replace("Return", "Enter").replace("Escape", "Esc").replace("Left", "←").replace("Right", "→")


class KeyboardDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(len(SHORTCUTS), 2)
        self.table.setHorizontalHeaderLabels(["Keys", "What they do"])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        for row, (keys, _slot, words) in enumerate(SHORTCUTS):
            self.table.setItem(row, 0, QTableWidgetItem(shown_keys(keys)))
            self.table.setItem(row, 1, QTableWidgetItem(words))
        self.table.resizeColumnToContents(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(460, 520)
