"""Widgets that show text as text: whatever a program printed, the model wrote or a file held is
never read as markup.

A `QLabel` guesses "rich text" from anything tag-like, and so does a tooltip — so one printed line
such as `<table width=99999>` or `<img width=30000 …>` froze the window. Every label in the window
is a `Label` (plain text, always); dynamic tooltips pass through `tip`; questions and messages go
through `message_box`. tests/security/test_hostile_window.py walks the built window and
tests/security/test_plain_sources.py the sources to keep it so.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QResizeEvent, Qt  # QtGui's Qt: the QtCore namespace with mightBeRichText
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

TIP_CHARS = 2000  # a tooltip is a glance: the full text is in Copy


class Label(QLabel):
    """A QLabel whose text is always plain text (set before any text arrives, never changed), and
    whose text can never make the window wider: its minimum width is at most `MIN_WIDTH`, so a
    long unbreakable answer, vote line or file name is cut at the pane's edge (the full text is in
    the tooltip or Copy) instead of forcing every ancestor wider — a 30-row answer made the window
    3,785 px wide through one word-wrapped label."""

    MIN_WIDTH = 80
    # A label shows at most this much: more does not fit a pane, and laying out a word-wrapped
    # label of 3,500 characters (a vote line of hostile program output) blocked the window for
    # tens of milliseconds on every relayout. The full text is in the tooltip.
    SHOWN_CHARS = 500

    def __init__(self, text: str = "", parent: QWidget | None = None, *, wrap: bool = False) -> None:
        super().__init__(parent)
        self._cut_tip = ""  # the tooltip this label gave itself for a text it cut
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(wrap)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        cut = len(text) > self.SHOWN_CHARS
        super().setText(text[: self.SHOWN_CHARS - 1] + "…" if cut else text)
        if cut:
            self._cut_tip = tip(text)
            self.setToolTip(self._cut_tip)
        elif self._cut_tip and self.toolTip() == self._cut_tip:
            self.setToolTip("")  # the last cut text's: not this one's

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.MIN_WIDTH), hint.height())


class CutLabel(Label):
    """One line that, given less width than its text needs, shows it cut with "…" (`mode`: where)
    and whole in its tooltip, rather than clipped mid-word: the status bar's labels at 150 % read
    "context 285/" with nothing to say more was there. A tooltip its owner gave is kept."""

    def __init__(self, text: str = "", *, mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> None:
        self._whole, self._mode, self._given_tip = text, mode, ""
        super().__init__(text)

    def text(self) -> str:
        return self._whole

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._whole = text
        self._fit()
        self.updateGeometry()  # its size hint is the whole text's, whatever is shown

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name): the room the whole text wants
        hint = super().sizeHint()
        margins = self.contentsMargins().left() + self.contentsMargins().right() + 2 * self.margin()
        # + 2: advances are rounded, and a text a pixel too wide would be cut for nothing
        width = self.fontMetrics().horizontalAdvance(self._whole) + margins + 2 if self._whole else 0
        return QSize(width, hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """The shown text's would shrink with every cut, down to nothing: the whole text's, capped."""
        return QSize(min(self.sizeHint().width(), self.MIN_WIDTH), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = self.fontMetrics().elidedText(self._whole, self._mode, self.contentsRect().width())
        super().setText(shown)
        if self.toolTip() != self._given_tip:  # its owner's own: kept
            return
        self._given_tip = tip(self._whole) if shown != self._whole else ""
        self.setToolTip(self._given_tip)


def heading(text: str) -> Label:
    """A section's title, bold by its font rather than by markup."""
    label = Label(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


def tip(text: str) -> str:
    """`text` as a tooltip that shows it literally: tooltips read anything Qt takes for markup
    (`Qt.mightBeRichText`) as rich text, so such text is escaped; other text stays as it is."""
    shown = text if len(text) <= TIP_CHARS else text[: TIP_CHARS - 1] + "…"
    if not Qt.mightBeRichText(shown):
        return shown
    return f"<p style='white-space:pre-wrap'>{html.escape(shown)}</p>"


def message_box(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    *,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton,
) -> QMessageBox:
    """A message box whose text is plain text (the static QMessageBox helpers guess markup)."""
    box = QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return box
