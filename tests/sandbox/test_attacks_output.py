"""Attacks through what a run leaves behind or sends back (issue 28, third round): the shared page
cache as a channel between runs, the readable folders, forged reports and trace steps, and Chain
of Code's emulation channel. Each of these got through on the code before it."""

from __future__ import annotations

import os
import time

from sandbox import Sandbox, Status
from sandbox.protocol import MAX_EMULATE_BYTES, MAX_EMULATIONS, Emulate, EmulationReply
from sandbox.report import MAX_REPORT_ITEMS
from sandbox.tracing import MAX_STEPS

from .conftest import ESCAPE, NO_SYSCALLS, WASM, assert_contained, native_only

# A file every run can read (an allowed package's source), opened the way an attacker would.
_PROBES = """
fd = os.open(real_import("sympy").__file__, os.O_RDONLY)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
page = ctypes.c_void_p(libc.mmap(None, 4096, 1, 2, fd, 0))  # PROT_READ, MAP_PRIVATE: the file's first page
vector = ctypes.create_string_buffer(64)
def denied(label, result, error):
    print(label, "DENIED" if result != 0 and error == 1 else f"ALLOWED {result} {error}")
def raises(label, fn, *args):
    try:
        fn(*args)
        print(label, "ALLOWED")
    except OSError as exc:
        print(label, "DENIED" if exc.errno == 1 else f"errno {exc.errno}")
denied("mincore", *call(libc.mincore, page, 4096, vector))
denied("cachestat", *call(libc.syscall, 451, fd, vector, vector, 0))
denied("readahead", *call(libc.syscall, 187, fd, 0, 4096))
raises("fadvise dontneed", os.posix_fadvise, fd, 0, 0, os.POSIX_FADV_DONTNEED)
raises("fadvise willneed", os.posix_fadvise, fd, 0, 0, os.POSIX_FADV_WILLNEED)
raises("preadv2 nowait", os.preadv, fd, [bytearray(64)], 0, os.RWF_NOWAIT)
for label, advice in (("MADV_WILLNEED", 3), ("MADV_COLD", 20), ("MADV_PAGEOUT", 21), ("MADV_POPULATE_READ", 22)):
    denied(label, *call(libc.madvise, page, 4096, advice))
result, error = call(libc.madvise, page, 4096, 4)  # MADV_DONTNEED: the allocator's own advice
print("madvise dontneed", "ALLOWED" if result == 0 else f"DENIED {error}")
print("plain preadv", os.preadv(fd, [bytearray(64)], 0))
"""
_DENIED: tuple[str, ...] = ("mincore", "cachestat", "readahead", "fadvise dontneed", "fadvise willneed")
_DENIED += ("preadv2 nowait", "MADV_WILLNEED", "MADV_COLD", "MADV_PAGEOUT", "MADV_POPULATE_READ")


@native_only(NO_SYSCALLS + "; the guest's only file is the standard library zip, read by the runner")
def test_the_page_cache_can_be_neither_probed_nor_marked_nor_evicted(box: Sandbox) -> None:
    """Probes and evictions of the page cache are denied; the allocator's madvise and a plain
    preadv still work. Before: every call ALLOWED (mincore, cachestat and RWF_NOWAIT each tell
    whether an earlier run had touched a file's pages)."""
    if os.uname().machine != "x86_64":
        return  # the raw syscall numbers above are x86-64's; test_seccomp_filter covers each table
    result = box.run(ESCAPE + _PROBES)
    assert result.ok, result.error
    assert result.stdout.splitlines() == [
        *(f"{label} DENIED" for label in _DENIED),
        "madvise dontneed ALLOWED",  # the allocator's own advice
        "plain preadv 64",
    ], result.stdout
    assert_contained(box)


def test_only_importable_folders_are_readable_not_all_of_site_packages(box: Sandbox) -> None:
    """Before: the whole site-packages (the model's 1.1 GB of data packages among it) was
    readable, so any run could warm or time those files' pages for the next."""
    import sympy

    site = os.path.dirname(os.path.dirname(sympy.__file__))
    body = f"""
attempt("site-packages listing", os.listdir, {site!r})
for name in os.listdir({os.path.dirname(sympy.__file__)!r})[:1]:
    print("sympy folder READABLE")
"""
    result = box.run(ESCAPE + body)
    if WASM:  # no host folder exists in the guest's world: sympy lives in its own read-only zip
        assert result.stdout.splitlines() == ["site-packages listing DENIED FileNotFoundError"]
        assert "FileNotFoundError" in (result.error or "")
        return
    assert result.stdout.splitlines() == ["site-packages listing DENIED PermissionError", "sympy folder READABLE"]


_FORGE_TRACE = """
step = b'{{"line": {line}, "event": "{event}", "function": "<module>", "vars": {{"a": "1"}}, "output": 0}},'
body = step * {count}
to_worker(b'{{"status": "ok", "error_line": {error_line}, "values": {{}}, "trace": [' + body[:-1] + b']}}\\n')
os._exit(0)
"""


def test_a_forged_trace_is_cut_to_the_tracer_cap_and_to_lines_of_the_program(box: Sandbox) -> None:
    """Before: an 8 MiB forged trace arrived whole (79,136 steps, 72 MB in the app)."""
    program = ESCAPE + _FORGE_TRACE.format(line=1, event="line", count=70_000, error_line=1)
    started = time.monotonic()
    result = box.run(program, trace=True, time_s=5)
    assert time.monotonic() - started < 5
    assert result.trace is not None and len(result.trace) == MAX_STEPS
    assert result.trace[-1].truncated is True
    beyond = box.run(ESCAPE + _FORGE_TRACE.format(line=99_999, event="line", count=10, error_line=99_999), trace=True)
    assert beyond.trace == () and beyond.error_line is None
    unknown = box.run(ESCAPE + _FORGE_TRACE.format(line=1, event="rm -rf", count=10, error_line=0), trace=True)
    assert unknown.trace == () and unknown.error_line is None


def test_a_report_with_more_values_than_any_real_one_is_refused_before_it_is_parsed(box: Sandbox) -> None:
    count = MAX_REPORT_ITEMS // 2
    head = b'{"status": "ok", "values": {}, "trace": ['
    program = ESCAPE + f"to_worker({head!r} + b'[],' * {count} + b'[]]}}\\n')\nos._exit(0)"
    result = box.run(program, trace=True, output_bytes=64)
    assert result.status is Status.ERROR and "without a result" in (result.error or "")


def test_forged_chain_of_code_steps_are_bounded_like_real_ones(box: Sandbox) -> None:
    big = "{'line': 1, 'how': 'emulated', 'values': {('v%d' % i): 'x' * 5000 for i in range(200)}}"
    program = ESCAPE + (
        "import json\n"
        f"steps = [{big}] * 3 + [{{'line': 7777, 'how': 'python'}}, {{'line': 1, 'how': 'teleported'}}]\n"
        "to_worker((json.dumps({'status': 'ok', 'values': {}, 'steps': steps}) + '\\n').encode())\n"
        "os._exit(0)"
    )
    result = box.run(program, emulate=lambda _request: EmulationReply.failed("unused"))
    assert result.steps is not None and len(result.steps) == 3
    for step in result.steps:
        assert len(step.values) == 50 and all(len(v) < 400 for v in step.values.values())


def _answer(_request: Emulate) -> EmulationReply:
    return EmulationReply.of_values({"x": 1})


def test_an_emulation_flood_fails_the_run_with_a_clear_status(box: Sandbox) -> None:
    """Before: every request was sent to the model, however many (one model call each)."""
    asked: list[int] = []

    def emulate(request: Emulate) -> EmulationReply:
        asked.append(1)
        return _answer(request)

    result = box.run("for i in range(1000):\n    x = is_fruit(i)", emulate=emulate, time_s=20)
    assert result.status is Status.ERROR
    assert f"more than {MAX_EMULATIONS} emulations" in (result.error or "")
    assert len(asked) == MAX_EMULATIONS


def test_an_oversized_emulation_request_fails_the_run(box: Sandbox) -> None:
    size = MAX_EMULATE_BYTES + 10
    program = ESCAPE + (
        f'to_worker(b\'{{"op": "emulate", "line": 1, "statement": "\' + b\'x\' * {size} + b\'"}}\\n\')\n'
        "import time\ntime.sleep(3)"
    )
    result = box.run(program, emulate=_answer, time_s=5)
    assert result.status is Status.ERROR and "emulation request over" in (result.error or "")


@native_only("the door is synchronous: a guest cannot compute while its request waits, so the pause is the wait")
def test_the_clock_pauses_only_while_the_program_really_waits_for_the_reply(box: Sandbox) -> None:
    """A program that asks for an emulation and computes instead of waiting, then sleeps: before,
    the whole pause was added to its deadline (killed after time_s + pause); now the CPU it used
    while "waiting" counts (killed after time_s)."""
    pause_s, time_s = 2.0, 3.0

    def slow(_request: Emulate) -> EmulationReply:
        time.sleep(pause_s)
        return EmulationReply.of_values({"x": 1})

    program = ESCAPE + (
        "import json, time\n"
        "request = {'op': 'emulate', 'line': 1, 'statement': 's', 'expression': None, 'concrete': 's',"
        " 'error': 'e', 'state': {}}\n"
        "os.write(3, (json.dumps(request) + '\\n').encode())\n"
        f"end = time.monotonic() + {pause_s}\n"
        "while time.monotonic() < end:\n    pass\n"
        "time.sleep(60)"
    )
    started = time.monotonic()
    result = box.run(program, emulate=slow, time_s=time_s)
    took = time.monotonic() - started
    assert result.status is Status.TIMEOUT
    assert took < time_s + pause_s / 2, f"the pause was credited although the program computed ({took:.1f} s)"
