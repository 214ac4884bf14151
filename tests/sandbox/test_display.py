from __future__ import annotations

from sandbox.display import display_text


def test_escape_sequences_and_controls_are_removed() -> None:
    raw = "\x1b]0;title\x07\x1b[1;31mbold red\x1b[0m\tok\r\nnext\x00\x08 \u202egnp.exe\u2066x\u2069"
    assert display_text(raw) == "bold red\tok\nnext gnp.exex"


def test_plain_text_is_unchanged() -> None:
    text = "ans = 11\nπ ≈ 3.14 — 数学\n"
    assert display_text(text) == text
