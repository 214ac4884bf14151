"""What each platform gets: level arithmetic and the macOS profile (which cannot run here)."""

from __future__ import annotations

from pathlib import Path

from sandbox import Isolation
from sandbox.platforms import Layer, level, linux_layers, macos_profile, read_paths


def test_levels() -> None:
    assert level(linux_layers(7, True, True)) is Isolation.STRONG
    assert level(linux_layers(0, True, False)) is Isolation.PARTIAL
    assert level(linux_layers(3, False, False)) is Isolation.PARTIAL
    assert level(linux_layers(0, False, True)) is Isolation.NONE
    assert level([Layer("sandbox-exec", True, "")]) is Isolation.PARTIAL


def test_layer_details_explain_missing_parts() -> None:
    layers = {layer.name: layer for layer in linux_layers(0, False, False)}
    assert not layers["landlock"].active and "5.13" in layers["landlock"].detail
    assert "TCP denied" in {x.name: x for x in linux_layers(4, True, True)}["landlock"].detail


def test_macos_profile_denies_by_default_and_escapes_paths() -> None:
    profile = macos_profile(("/usr/lib/python3.12", '/Users/a "quoted"/venv'))
    assert profile.startswith("(version 1)\n(deny default)")
    assert '(subpath "/usr/lib/python3.12")' in profile
    assert '(subpath "/Users/a \\"quoted\\"/venv")' in profile
    assert "network" not in profile and "process-exec" not in profile


def test_read_paths_are_python_folders_only() -> None:
    paths = read_paths()
    assert paths
    assert "/" not in paths and "/etc" not in paths and "/tmp" not in paths
    # Either a Python library folder or an imported package's own folder, nothing wider.
    assert [p for p in paths if "python" not in p and not (Path(p) / "__init__.py").exists()] == []
