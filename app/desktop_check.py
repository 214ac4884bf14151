"""Before Qt loads: can this Linux session show a window at all?

Qt's xcb platform plugin aborts the process with a terse "could not load the Qt platform plugin"
when a system library is missing, and a session without a display fails the same way. Checked
here first, so the user gets the missing package names and the command that installs them.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping

# The libraries Qt 6's xcb plugin needs beyond a desktop's usual set, with their Debian/Ubuntu packages.
XCB_LIBRARIES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-xkb": "libxcb-xkb1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
    "xcb-shape": "libxcb-shape0",
    "xcb-randr": "libxcb-randr0",
    "EGL": "libegl1",
    "fontconfig": "libfontconfig1",
}


def desktop_problem(
    env: Mapping[str, str] | None = None,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
    platform: str = sys.platform,
) -> str | None:
    """Why the window cannot open here, in words with the fix; None when nothing is known to be wrong."""
    env = os.environ if env is None else env
    chosen = env.get("QT_QPA_PLATFORM", "")
    if not platform.startswith("linux") or chosen not in ("", "xcb"):
        return None  # another platform (offscreen, wayland, Windows, macOS) checks itself
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return (
            "there is no display to open a window on (DISPLAY is not set). Run PAL Studio in a desktop "
            "session, or use `pal-studio ask QUESTION` on the command line."
        )
    if chosen == "" and env.get("WAYLAND_DISPLAY"):
        return None  # Qt prefers Wayland there and needs none of the xcb libraries
    if find_library("c") is None:
        return None  # no way to look libraries up here (no ldconfig): let Qt try
    missing = [package for name, package in XCB_LIBRARIES.items() if find_library(name) is None]
    if not missing:
        return None
    return (
        f"the window needs system libraries that are missing: {', '.join(missing)}. "
        f"On Debian or Ubuntu: sudo apt-get install {' '.join(missing)}"
    )
