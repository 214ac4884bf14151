"""The Program pane: the editable program, Run / Step / Repair, and a proposed repair's diff."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from app.reasoning.extract import streamed_program
from app.ui.code_editor import CodeEditor, show_growing
from app.ui.layouts import column, row
from app.ui.plain import Label, heading
from app.ui.repair_view import RepairView


class ProgramPane(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = CodeEditor()
        self.run_button = QPushButton("Run (Ctrl+R)")
        self.trace_button = QPushButton("Step (Ctrl+T)")
        self.repair_button = QPushButton("Repair")
        self.repair_button.setEnabled(False)
        self.repair_view = RepairView()
        self.explain_button = QPushButton("Explain line (Ctrl+E)")
        self.explanation = Label("")  # the model's words on one line, beside the program
        self.explanation.setWordWrap(True)
        self.explanation.setVisible(False)
        column(
            heading("Program"), self.editor, row(self.run_button, self.trace_button, self.repair_button),
            self.explain_button, self.explanation, self.repair_view, into=self,
        )  # fmt: skip
        self.repair_view.reverted.connect(self.editor.setPlainText)
        self._stream = ""  # the reply streaming in, of which the program is shown
        self._explaining = ""

    def start_over(self) -> None:
        """A new solve: no program, no marks, no repair on offer, no explanation of the old one."""
        self._stream = ""
        self.editor.clear()
        self.clear_marks()
        self.repair_view.dismiss()
        self.forget_explanation()

    def forget_explanation(self) -> None:
        self.explanation.clear()
        self.explanation.setVisible(False)

    def clear_marks(self) -> None:
        self.editor.mark_error_line(0)
        self.editor.mark_emulated_lines(frozenset())

    def current_line(self) -> int:
        return self.editor.textCursor().blockNumber() + 1

    def start_explaining(self, number: int) -> None:
        self._explaining = f"Line {number}: "
        self.explanation.setText(self._explaining + "…")
        self.explanation.setVisible(True)

    def explain_stream(self, text: str) -> None:
        self._explaining += text
        self.explanation.setText(self._explaining)

    def explained(self, number: int, text: str) -> None:
        self.explanation.setText(f"Line {number}: {text}" if text else f"Line {number}: no explanation came.")

    def append(self, text: str) -> None:
        """Streamed reply text: the editor shows the program in it as it grows, fences hidden."""
        self._stream += text
        show_growing(self.editor, streamed_program(self._stream))
