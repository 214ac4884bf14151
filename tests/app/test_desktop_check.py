"""The check before Qt loads names what is missing and how to install it."""

from __future__ import annotations

from app.desktop_check import XCB_LIBRARIES, desktop_problem


def _all_found(_name: str) -> str | None:
    return "/usr/lib/x86_64-linux-gnu/lib.so"


def test_no_display_is_said_in_words() -> None:
    problem = desktop_problem({}, _all_found, "linux")
    assert problem is not None and "no display" in problem and "pal-studio ask" in problem


def test_missing_libraries_are_named_with_the_install_command() -> None:
    def without_cursor(name: str) -> str | None:
        return None if name in ("xcb-cursor", "xcb-icccm") else "/lib/x.so"  # the C library is found

    problem = desktop_problem({"DISPLAY": ":0"}, without_cursor, "linux")
    assert problem is not None and "sudo apt-get install libxcb-cursor0 libxcb-icccm4" in problem


def test_a_complete_desktop_and_other_platforms_pass() -> None:
    assert desktop_problem({"DISPLAY": ":0"}, _all_found, "linux") is None
    assert desktop_problem({"QT_QPA_PLATFORM": "offscreen"}, lambda _n: None, "linux") is None
    assert desktop_problem({"WAYLAND_DISPLAY": "wayland-0"}, lambda _n: None, "linux") is None
    assert desktop_problem({}, lambda _n: None, "win32") is None
    assert desktop_problem({"DISPLAY": ":0"}, lambda _n: None, "linux") is None  # cannot look up: Qt decides
    assert set(XCB_LIBRARIES.values()) >= {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"}


def test_this_machine_has_what_the_tests_window_needs() -> None:
    # The suite runs offscreen, which needs no xcb library: the check must let it through.
    assert desktop_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
