"""The path an ordinary desktop user takes: no root to drop, so Landlock alone guards the files.

CI runs as root, where the child also becomes `nobody` and cannot read the interpreter's files at
all. Here the worker is told it is not root (its uid check is replaced), so the child keeps this
uid and relies on Landlock and seccomp, exactly as on a user's laptop.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import Isolation, Sandbox, Status

from .conftest import ESCAPE, assert_contained

_AS_ORDINARY_USER = (
    "import sys; sys.path.insert(0, sys.argv[1]); import os; os.geteuid = lambda: 1000; "
    "from sandbox.worker import main; main()"
)


@pytest.fixture(scope="module")
def user_box() -> Iterator[Sandbox]:
    package_parent = str(Path(__file__).resolve().parents[2])
    with Sandbox(command=[sys.executable, "-I", "-c", _AS_ORDINARY_USER, package_parent]) as box:
        assert {layer.name: layer.active for layer in box.layers}["root drop"] is False
        yield box


def test_still_strong(user_box: Sandbox) -> None:
    assert user_box.isolation is Isolation.STRONG


def test_lazy_imports_of_allowed_packages_work(user_box: Sandbox) -> None:
    result = user_box.run("from sympy.physics import units\nans = str(units.meter)")
    assert result.status is Status.OK, result.error
    assert result.values["ans"].json == "meter"


def test_files_outside_python_are_unreadable_and_nothing_is_writable(user_box: Sandbox, tmp_path: Path) -> None:
    body = (
        "attempt('passwd', os.open, '/etc/passwd', os.O_RDONLY)\n"
        f"attempt('list', os.listdir, {str(tmp_path)!r})\n"
        f"attempt('write', os.open, {str(tmp_path / 'x')!r}, os.O_WRONLY | os.O_CREAT)\n"
        "attempt('write-python', os.open, os.__file__ + '.owned', os.O_WRONLY | os.O_CREAT)\n"
    )
    result = user_box.run(ESCAPE + body)
    assert result.stdout.count("DENIED PermissionError") == 4, result.stdout
    assert list(tmp_path.iterdir()) == []
    assert_contained(user_box)


def test_network_is_closed_even_with_the_socket_module(user_box: Sandbox) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        body = f"attempt('connect', real_import('socket').create_connection, ('127.0.0.1', {port}))"
        assert "connect DENIED PermissionError" in user_box.run(ESCAPE + body).stdout
        listener.settimeout(0.3)
        with pytest.raises(TimeoutError):
            listener.accept()
