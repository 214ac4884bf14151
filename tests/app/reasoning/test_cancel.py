"""A CancelToken stops a solve from another thread: during generation and during execution."""

from __future__ import annotations

import threading
import time

from app.reasoning import CancelToken, Event, SolveStatus, TokenStreamed, solve_pal, solve_pot
from models.testing import ScriptedModel
from sandbox import Sandbox


def test_cancel_during_generation(sandbox: Sandbox) -> None:
    token = CancelToken()
    seen: list[Event] = []

    def on_event(event: Event) -> None:
        seen.append(event)
        if sum(isinstance(e, TokenStreamed) for e in seen) == 3:
            threading.Thread(target=token.cancel).start()
            time.sleep(0.05)  # the cancel lands while the stream is still going

    model = ScriptedModel(["```python\nprint(" + "1 + " * 500 + "1)\n```"], chunk_size=2)
    solution = solve_pal("q", model, sandbox, on_event=on_event, cancel=token)
    assert solution.status is SolveStatus.CANCELLED
    assert solution.answer is None
    assert len(solution.calls) == 1 and len(solution.calls[0].reply) < 20
    assert solution.program is None  # nothing ran


def test_cancel_during_execution(sandbox: Sandbox) -> None:
    token = CancelToken()
    timer = threading.Timer(0.5, token.cancel)
    timer.start()
    started = time.monotonic()
    solution = solve_pot(
        "q", ScriptedModel(["```python\nwhile True:\n    pass\nans = 1\n```"]), sandbox, time_s=20, cancel=token
    )
    timer.join()
    assert solution.status is SolveStatus.CANCELLED
    assert time.monotonic() - started < 5
    assert solution.program == "while True:\n    pass\nans = 1"
    assert sandbox.run("ans = 1").ok  # the sandbox is fine afterwards
