"""The hostile-output suite reuses the window fixtures of the UI tests (real widgets, offscreen)."""

from tests.app.ui.conftest import make_window

__all__ = ["make_window"]
