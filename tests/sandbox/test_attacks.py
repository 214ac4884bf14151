"""The attack suite: each hostile program is contained, with its specific safe outcome asserted.

Most programs first escape the import guard (see conftest.ESCAPE), so what stops them is the
isolation itself: natively the kernel layers (Landlock, seccomp, rlimits, the dropped privileges)
and the worker's deadlines; in WebAssembly (`PAL_STUDIO_SANDBOX=wasm`) the guest, which has no
files, sockets or processes to reach, and the same deadlines. There a denial reads differently
(a file that is not there, a function WASI lacks) and counts the same; attacks that need ctypes
or a system call say why they cannot apply (`native_only`), and `-ra` lists them.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import RunResult, Sandbox, Status
from sandbox.display import display_text

from .conftest import ESCAPE, NO_SYSCALLS, WASM, assert_contained, native_only

SECRET = "pal-canary-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def canary() -> Iterator[Path]:
    """A world-writable folder with a world-readable secret: only the sandbox stands in the way."""
    folder = Path(tempfile.mkdtemp(prefix="pal-canary-"))
    folder.chmod(0o777)
    secret = folder / "secret.txt"
    secret.write_text(SECRET)
    secret.chmod(0o666)
    yield secret
    shutil.rmtree(folder)


def attack(box: Sandbox, body: str, *, time_s: float = 2.0, **options: object) -> RunResult:
    result = box.run(ESCAPE + body, time_s=time_s, **options)  # type: ignore[arg-type]
    assert result.duration_s < time_s + 1.5, "the run was not bounded by its time limit"
    assert_contained(box)
    return result


# What a denial looks like in the WebAssembly guest: the path is not in its world, the call does
# not exist in WASI, or WASI refuses it. Each counts as the native PermissionError does.
_WASM_DENIALS = {"FileNotFoundError", "PermissionError", "OSError", "AttributeError", "NotImplementedError"}


def denied_lines(result: RunResult) -> list[str]:
    assert "ALLOWED" not in result.stdout, result.stdout
    lines = [line for line in result.stdout.splitlines() if "DENIED" in line]
    if WASM:
        lines = [
            line.rsplit(" ", 1)[0] + " PermissionError" if line.rsplit(" ", 1)[-1] in _WASM_DENIALS else line
            for line in lines
        ]
    return lines


# -- files --------------------------------------------------------------------------------------


def test_read_etc_passwd(box: Sandbox) -> None:
    result = attack(box, "attempt('passwd', os.open, '/etc/passwd', os.O_RDONLY)")
    assert denied_lines(result) == ["passwd DENIED PermissionError"]


def test_read_canary_by_absolute_path(box: Sandbox, canary: Path) -> None:
    body = f"fd = os.open({str(canary)!r}, os.O_RDONLY)\nprint(os.read(fd, 100))"
    result = attack(box, body)
    assert SECRET not in result.stdout
    assert ("FileNotFoundError" if WASM else "PermissionError") in (result.error or "")


def test_list_home_directories(box: Sandbox, canary: Path) -> None:
    homes = ["/root", "/home", str(Path.home()), str(canary.parent), "/"]
    body = "\n".join(f"attempt({p!r}, os.listdir, {p!r})" for p in homes)
    assert len(denied_lines(attack(box, body))) == len(homes)


def test_write_files_in_tmp_and_canary_dir(box: Sandbox, canary: Path) -> None:
    targets = [f"/tmp/pal-owned-{uuid.uuid4().hex}", str(canary.parent / "owned.txt")]
    body = "\n".join(f"attempt('write', os.open, {t!r}, os.O_WRONLY | os.O_CREAT, 0o666)" for t in targets)
    body += f"\nattempt('overwrite', os.open, {str(canary)!r}, os.O_WRONLY | os.O_TRUNC)"
    assert len(denied_lines(attack(box, body))) == 3
    assert not any(os.path.exists(t) for t in targets)
    assert canary.read_text() == SECRET


def test_chmod_and_utime_canary(box: Sandbox, canary: Path) -> None:
    before = canary.stat()
    body = f"attempt('chmod', os.chmod, {str(canary)!r}, 0o777)\nattempt('utime', os.utime, {str(canary)!r}, (0, 0))"
    result = attack(box, body)
    if WASM:  # WASI's chmod does nothing and says so by returning: what matters is the file below
        assert "utime DENIED" in result.stdout
    else:
        assert len(denied_lines(result)) == 2
    after = canary.stat()
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)


def test_create_symlink(box: Sandbox, canary: Path) -> None:
    link = canary.parent / "link"
    result = attack(box, f"attempt('symlink', os.symlink, '/etc/passwd', {str(link)!r})")
    assert denied_lines(result) == ["symlink DENIED PermissionError"]
    assert not os.path.lexists(link)


# -- network ------------------------------------------------------------------------------------


def _assert_no_connection(listener: socket.socket) -> None:
    listener.settimeout(0.3)
    with pytest.raises(TimeoutError):
        listener.accept()


def test_tcp_connect_to_loopback_listener(box: Sandbox) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        body = f"attempt('socket-module', lambda: real_import('socket').create_connection(('127.0.0.1', {port})))\n"
        if not WASM:  # no system calls in the guest to try
            body += "fd, err = call(libc.socket, 2, 1, 0)\nprint('libc socket', fd, err)\n"
        result = attack(box, body)
        assert WASM or "libc socket -1 1" in result.stdout  # EPERM from seccomp
        assert "socket-module DENIED" in result.stdout
        _assert_no_connection(listener)


def test_udp_sendto(box: Sandbox) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as receiver:
        receiver.bind(("127.0.0.1", 0))
        port = receiver.getsockname()[1]
        body = "" if WASM else "fd, err = call(libc.socket, 2, 2, 0)\nprint('udp', fd, err)\n"
        body += (
            f"attempt('udp-module', lambda: real_import('socket').socket(2, 2).sendto(b'x', ('127.0.0.1', {port})))\n"
        )
        result = attack(box, body)
        assert "udp-module DENIED" in result.stdout
        assert WASM or "udp -1 1" in result.stdout
        receiver.settimeout(0.3)
        with pytest.raises(TimeoutError):
            receiver.recv(16)


def test_dns_lookup(box: Sandbox) -> None:
    body = "attempt('socket-module', lambda: real_import('socket').getaddrinfo('localhost', 80))\n"
    if not WASM:
        body += (
            "res = ctypes.c_void_p()\n"
            "rc = libc.getaddrinfo(b'localhost', b'80', None, ctypes.byref(res))\n"
            "print('getaddrinfo', 'FAILED' if rc != 0 else 'RESOLVED')\n"
        )
    result = attack(box, body)
    assert WASM or "getaddrinfo FAILED" in result.stdout
    assert "socket-module DENIED" in result.stdout


@native_only(NO_SYSCALLS)
def test_raw_socket_via_ctypes(box: Sandbox) -> None:
    result = attack(box, "fd, err = call(libc.socket, 2, 3, 1)\nprint('raw', fd, err)")
    assert "raw -1 1" in result.stdout


@native_only(NO_SYSCALLS + "; the socket module's AF_UNIX is refused like every socket (test_tcp_…)")
def test_abstract_unix_socket(box: Sandbox) -> None:
    name = "\0pal-test-" + uuid.uuid4().hex
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(name)
        listener.listen()
        body = "fd, err = call(libc.socket, 1, 1, 0)\nprint('unix', fd, err)"
        assert "unix -1 1" in attack(box, body).stdout
        _assert_no_connection(listener)


# -- processes ----------------------------------------------------------------------------------


def test_os_system(box: Sandbox) -> None:
    marker = f"/tmp/pal-owned-{uuid.uuid4().hex}"
    # glibc's system() reports a spawn it could not make as exit status 127.
    result = attack(box, f"print('system', os.system('touch {marker}'))")
    if WASM:  # WASI has no processes: os.system does not exist
        assert "AttributeError" in (result.error or "") and result.stdout == ""
    else:
        assert result.stdout in ("system -1\n", "system 32512\n")
    assert not os.path.exists(marker)


def test_subprocess_run(box: Sandbox) -> None:
    marker = f"/tmp/pal-owned-{uuid.uuid4().hex}"
    body = f"attempt('subprocess', real_import('subprocess').run, ['touch', {marker!r}])"
    assert denied_lines(attack(box, body)) == ["subprocess DENIED PermissionError"]
    assert not os.path.exists(marker)


def test_os_fork(box: Sandbox) -> None:
    assert denied_lines(attack(box, "attempt('fork', lambda: os.fork())")) == ["fork DENIED PermissionError"]


def test_fork_bomb(box: Sandbox) -> None:
    result = attack(box, "while True:\n    os.fork()")
    assert result.status is Status.ERROR
    assert ("AttributeError" if WASM else "PermissionError") in (result.error or "")


def test_multiprocessing_process(box: Sandbox) -> None:
    body = "mp = real_import('multiprocessing')\np = mp.Process(target=print, args=('child',))\np.start()"
    result = attack(box, body)
    assert result.status is Status.ERROR
    assert "child" not in result.stdout


@native_only(NO_SYSCALLS + "; os.exec* do not exist in WASI")
def test_ctypes_execve(box: Sandbox) -> None:
    body = (
        "argv = (ctypes.c_char_p * 3)(b'/bin/sh', b'-c', None)\n"
        "rc, err = call(libc.execve, b'/bin/sh', argv, None)\nprint('execve', rc, err)"
    )
    assert "execve -1 1" in attack(box, body).stdout


def test_thread_bomb(box: Sandbox) -> None:
    body = (
        "threading = sys.modules['threading']\ntime = sys.modules['time']\n"
        "while True:\n    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()"
    )
    result = attack(box, body)
    assert result.status in (Status.ERROR, Status.MEMORY, Status.TIMEOUT)


# -- memory and time ----------------------------------------------------------------------------


def test_huge_bytearray(box: Sandbox) -> None:
    assert attack(box, "x = bytearray(10**9)").status is Status.MEMORY
    beyond = attack(box, "x = bytearray(10**10)")  # past a 32-bit guest's whole address space
    assert beyond.status is Status.MEMORY or (WASM and "OverflowError" in (beyond.error or ""))


def test_gradual_list_growth(box: Sandbox) -> None:
    result = attack(box, "chunks = []\nwhile True:\n    chunks.append(bytearray(10**6))", time_s=5)
    assert result.status is Status.MEMORY


@native_only(NO_SYSCALLS + "; the guest's memory grows only within its store's cap (test_huge_bytearray)")
def test_mmap_10_gb(box: Sandbox) -> None:
    body = (
        "libc.mmap.restype = ctypes.c_void_p\n"
        "addr = libc.mmap(None, ctypes.c_size_t(10 << 30), 3, 0x22, -1, ctypes.c_long(0))\n"
        "print('mmap', 'FAILED' if addr in (None, 2**64 - 1) else 'MAPPED')"
    )
    assert "mmap FAILED" in attack(box, body).stdout


@pytest.mark.parametrize(
    "body",
    [
        "while True:\n    pass",
        "sys.modules['time'].sleep(3600)",
        "x = 7 ** (10**9)",
        "import sympy\nsympy.factorint(2**1021 - 1)",
        "signal = real_import('signal')\nfor s in (signal.SIGXCPU, signal.SIGTERM):\n"
        "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    pass",
    ],
    ids=["spin", "sleep", "c-level-power", "factorint", "ignore-signals"],
)
def test_hangs_time_out(box: Sandbox, body: str) -> None:
    result = attack(box, body, time_s=1.0)
    assert result.status is Status.TIMEOUT
    assert 0.9 < result.duration_s < 2.0


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_output_flood(box: Sandbox, stream: str) -> None:
    body = f"out = sys.{stream}\nwhile True:\n    out.write('flood' * 1000 + '\\n')"
    result = attack(box, body, output_bytes=10_000)
    assert result.status is Status.OUTPUT_LIMIT
    assert len(result.stdout) + len(result.stderr) <= 10_000
    assert len(getattr(result, stream)) > 0


def test_unbounded_recursion(box: Sandbox) -> None:
    body = "sys.setrecursionlimit(10**9)\ndef down(n):\n    return down(n + 1)\ndown(0)"
    result = attack(box, body, time_s=5)
    assert result.status in (Status.ERROR, Status.MEMORY, Status.KILLED, Status.TIMEOUT)


@native_only(NO_SYSCALLS + "; a guest fault is a WebAssembly trap, which ends only the guest")
def test_segfault(box: Sandbox) -> None:
    result = attack(box, "ctypes.string_at(0)")
    assert result.status is Status.KILLED
    assert "SIGSEGV" in (result.error or "")


# -- the app's environment and processes --------------------------------------------------------


@pytest.fixture(scope="module")
def secret_env_box() -> Iterator[Sandbox]:
    os.environ["PAL_FAKE_API_KEY"] = SECRET
    try:
        with Sandbox() as sandbox:
            sandbox.start()
            yield sandbox
    finally:
        del os.environ["PAL_FAKE_API_KEY"]


def test_environment_is_empty(secret_env_box: Sandbox) -> None:
    result = attack(secret_env_box, "print(dict(os.environ))")
    assert SECRET not in result.stdout
    # The WebAssembly runner sets three of its own, none from the app: an empty HOME of the guest's,
    # its TMPDIR and an empty PYTHONTZPATH.
    allowed = {"HOME", "TMPDIR", "PYTHONTZPATH"} if WASM else {"LANG", "LC_ALL"}
    assert set(eval_free_keys(result.stdout)) <= allowed


def eval_free_keys(text: str) -> list[str]:
    return [part.split("'")[1] for part in text.strip("{}\n").split(", ") if part]


def test_proc_environ_files(secret_env_box: Sandbox) -> None:
    body = (
        "parent = getattr(os, 'getppid', lambda: 1)()\n"  # WASI has no getppid
        f"for path in ('/proc/self/environ', f'/proc/{{parent}}/environ', '/proc/{os.getpid()}/environ'):\n"
        "    attempt(path, os.open, path, os.O_RDONLY)\n"
    )
    result = attack(secret_env_box, body)
    assert SECRET not in result.stdout
    assert len(denied_lines(result)) == 3


def test_kill_the_worker(box: Sandbox) -> None:
    worker = box.worker_pid
    result = attack(box, "attempt('kill-parent', lambda: os.kill(os.getppid(), 9))")
    assert denied_lines(result) == ["kill-parent DENIED PermissionError"]
    assert box.worker_pid == worker
    assert box.run("ans = 1").values["ans"].json == 1


def test_kill_every_process(box: Sandbox) -> None:
    # A bystander running as the same unprivileged user the child runs as.
    ids = {"user": 65534, "group": 65534} if os.geteuid() == 0 else {}
    bystander = subprocess.Popen(["sleep", "30"], **ids)  # type: ignore[call-overload]
    try:
        result = attack(box, "attempt('kill-all', lambda: os.kill(-1, 9))")
        assert denied_lines(result) == ["kill-all DENIED PermissionError"]
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


@native_only(NO_SYSCALLS + "; the store's memory cap and the worker's clock are outside the guest")
def test_raise_rlimits(box: Sandbox) -> None:
    body = (
        "class Limit(ctypes.Structure):\n    _fields_ = [('cur', ctypes.c_ulong), ('max', ctypes.c_ulong)]\n"
        "big = Limit(2**62, 2**62)\n"
        "rc, err = call(libc.setrlimit, 9, ctypes.byref(big))\nprint('setrlimit', rc, err)\n"
        "rc, err = call(libc.prlimit, 0, 9, ctypes.byref(big), None)\nprint('prlimit', rc, err)\n"
        "attempt('resource-module', real_import, 'resource')\n"
    )
    result = attack(box, body)
    assert "setrlimit -1 1" in result.stdout
    assert "prlimit -1 1" in result.stdout


@native_only(NO_SYSCALLS + "; the guest has no terminal")
def test_tiocsti_ioctl(box: Sandbox) -> None:
    body = "rc, err = call(libc.ioctl, 0, 0x5412, ctypes.c_char_p(b'x'))\nprint('tiocsti', rc, err)"
    assert "tiocsti -1 1" in attack(box, body).stdout


def test_subclasses_escape_to_os_system(box: Sandbox) -> None:
    marker = f"/tmp/pal-owned-{uuid.uuid4().hex}"
    body = (
        "for cls in ().__class__.__bases__[0].__subclasses__():\n"
        "    if cls.__name__ == '_wrap_close':\n"
        f"        print('system', cls.__init__.__globals__['system']('touch {marker}'))\n"
    )
    result = box.run(body)
    # WASI's os has no system(), so no `_wrap_close` class exists to find it through.
    assert result.stdout in (("",) if WASM else ("system -1\n", "system 32512\n"))
    assert not os.path.exists(marker)
    assert_contained(box)


# -- what comes back ----------------------------------------------------------------------------


def test_fake_result_on_stdout_is_just_output(box: Sandbox) -> None:
    fake = json.dumps({"status": "ok", "values": {"ans": {"repr": "666", "json": 666, "type": "int"}}})
    result = box.run(f"ans = 1\nprint({fake!r})")
    assert result.values["ans"].json == 1
    assert result.stdout == fake + "\n"


def test_ans_whose_repr_raises(box: Sandbox) -> None:
    code = "class Bad:\n    def __repr__(self):\n        raise RuntimeError('no')\nans = Bad()"
    result = box.run(code)
    assert result.status is Status.OK
    assert result.values["ans"].repr.startswith("<repr failed: RuntimeError")


def test_ans_whose_repr_loops_forever(box: Sandbox) -> None:
    code = "class Slow:\n    def __repr__(self):\n        while True:\n            pass\nans = Slow()\nprint('done')"
    result = box.run(code, time_s=3)
    assert result.status is Status.OK
    assert result.stdout == "done\n"
    assert result.values["ans"].repr == "<repr took too long>"
    assert_contained(box)


def test_ans_whose_repr_is_100_mb(box: Sandbox) -> None:
    code = "class Huge:\n    def __repr__(self):\n        return 'x' * 10**8\nans = Huge()"
    result = box.run(code, time_s=5)
    assert result.status is Status.OK
    assert len(result.values["ans"].repr) < 10_100


def test_ans_with_a_million_digits(box: Sandbox) -> None:
    result = box.run("ans = 10 ** (10**6)")
    assert result.status is Status.OK
    assert result.values["ans"].json is None
    assert result.values["ans"].repr == "<integer with about 1000001 digits>"


def test_escape_sequences_in_output(box: Sandbox) -> None:
    code = r"print('\x1b]0;pwned\x07\x1b[31mred\x1b[0m \u202eevil')"
    result = box.run(code)
    assert "\x1b" in result.stdout  # the result keeps the raw text …
    assert display_text(result.stdout) == "red evil\n"  # … and display strips it
    line = subprocess.run(
        [sys.executable, "-m", "sandbox", "run", "-"], input=code, capture_output=True, text=True, check=True
    ).stdout
    assert "\x1b" not in line and "\u202e" not in line  # the CLI's JSON escapes them
