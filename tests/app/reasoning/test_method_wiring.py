"""`methods.solve` hands each method what the caller gave it: events, cancel, sampling, limits,
options and data (ScriptedModel, the real sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.data.files import open_data
from app.reasoning.events import Event, ModelStarted
from app.reasoning.methods import solve
from app.reasoning.session import CancelToken, Limits
from app.reasoning.solution import SolveStatus
from models.testing import ScriptedModel
from models.types import Capabilities
from sandbox import Sandbox

PAL = "```python\nprint(6 * 7)\n```"
POT = "```python\nans = 6 * 7\n```"
COT = "6 times 7 is 42.\nAnswer: 42"
IIPC = [
    "1. Six boxes of seven.\n2. Asked: how many.",
    "```python\nboxes = 6 * 7\n# Verification\nprint(boxes)\n```",
    "Verdict: VALID\nReflection: none",
    COT,
    "They agree.\nAnswer: 42",
]
COC = "```python\nanswer = 6 * 7\n```"
HAPPY = {"pal": [PAL], "pot": [POT], "cot": [COT], "coc": [COC], "iipc": IIPC}
QUESTION = "There are 6 boxes of 7 eggs. How many eggs?"


@pytest.mark.parametrize("base", sorted(HAPPY))
def test_every_method_answers_and_reports_its_steps(sandbox: Sandbox, base: str) -> None:
    events: list[Event] = []
    model = ScriptedModel(HAPPY[base])
    solution = solve(QUESTION, base, model, sandbox, temperature=0.7, on_event=events.append)
    assert solution.answer == "42" and solution.method == base
    assert events and isinstance(events[0], ModelStarted)
    assert model.requests and all(request.temperature == 0.7 for request in model.requests)


@pytest.mark.parametrize("base", sorted(HAPPY))
def test_every_method_honours_a_cancel(sandbox: Sandbox, base: str) -> None:
    cancel = CancelToken()
    cancel.cancel()
    solution = solve(QUESTION, base, ScriptedModel(HAPPY[base]), sandbox, cancel=cancel)
    assert solution.status is SolveStatus.CANCELLED


SLOW = "```python\nimport time\ntime.sleep(2)\nans = answer = 42\nprint(ans)\n```"
GREEDY = "```python\nblock = bytearray(300 * 1024 * 1024)\nans = answer = 42\nprint(ans)\n```"


@pytest.mark.parametrize("base", ["pal", "pot"])
def test_limits_reach_every_program_method(sandbox: Sandbox, base: str) -> None:
    timed = solve(QUESTION, base, ScriptedModel([SLOW]), sandbox, limits=Limits(time_s=1.0))
    assert timed.status is SolveStatus.TIMEOUT
    greedy = solve(QUESTION, base, ScriptedModel([GREEDY]), sandbox, limits=Limits(memory_mb=128))
    assert greedy.status is SolveStatus.MEMORY_LIMIT


def test_limits_reach_chain_of_code(sandbox: Sandbox) -> None:
    """Chain of Code answers by chain of thought when its program cannot finish."""
    for program, limits in ((SLOW, Limits(time_s=1.0)), (GREEDY, Limits(memory_mb=128))):
        assert solve(QUESTION, "coc", ScriptedModel([program, COT]), sandbox, limits=limits).fallback_used
        assert not solve(QUESTION, "coc", ScriptedModel([program, COT]), sandbox).fallback_used


def test_pal_options_reach_pal(sandbox: Sandbox) -> None:
    repaired = ScriptedModel(["```python\nprint(1 / 0)\n```", PAL])
    assert solve(QUESTION, "pal+repair", repaired, sandbox).answer == "42" and len(repaired.calls) == 2
    plain, shots = ScriptedModel([PAL]), ScriptedModel([PAL])
    solve(QUESTION, "pal", plain, sandbox)
    solve(QUESTION, "pal+shots", shots, sandbox)
    assert len(shots.calls[0]) > len(plain.calls[0])  # the longer prompt of worked examples
    grammar = ScriptedModel([PAL])
    solve(QUESTION, "pal+grammar", grammar, sandbox)
    assert grammar.requests[0].grammar and not plain.requests[0].grammar


def test_pot_options_reach_pot(sandbox: Sandbox) -> None:
    plain, shots, grammar, nocomment = (ScriptedModel([POT]) for _ in range(4))
    solve(QUESTION, "pot", plain, sandbox)
    solve(QUESTION, "pot+shots", shots, sandbox)
    solve(QUESTION, "pot+grammar", grammar, sandbox)
    solve(QUESTION, "pot+nocomment", nocomment, sandbox)
    assert len(shots.calls[0]) > len(plain.calls[0])
    assert grammar.requests[0].grammar and not plain.requests[0].grammar
    assert nocomment.requests[0].token_bias and not plain.requests[0].token_bias
    server = ScriptedModel([POT])
    server.capabilities = Capabilities(batch=8, grammar=False, token_bias=False)  # as a server declares
    noted = solve(QUESTION, "pot+nocomment", server, sandbox)
    assert not server.requests[0].token_bias and any("# bias" in note for note in noted.notes)
    free = ScriptedModel(["```python\nresult = 42\n```"])
    assert solve(QUESTION, "pot+free", free, sandbox).status is SolveStatus.NO_ANS and len(free.calls) == 1
    asked = ScriptedModel(["```python\nresult = 42\n```", " result"])
    assert solve(QUESTION, "pot", asked, sandbox).answer == "42" and len(asked.calls) == 2


@pytest.mark.parametrize("base", ["pal", "pot"])
def test_data_reaches_the_program(sandbox: Sandbox, tmp_path: Path, base: str) -> None:
    path = tmp_path / "eggs.csv"
    path.write_text("box,eggs\na,6\nb,7\n")
    program = "```python\nans = sum(row['eggs'] for row in tables['eggs'])\nprint(ans)\n```"
    solution = solve("How many eggs?", base, ScriptedModel([program]), sandbox, data=open_data(path))
    assert solution.answer == "13"
