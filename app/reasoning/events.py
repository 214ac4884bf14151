"""Progress events a solve reports while it works (the GUI shows them live; the CLI on stderr).

They are delivered on the solving thread through the `on_event` callback; a GUI forwards them to
its own thread (see the background-work helper) rather than touching widgets here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sandbox import RunResult


@dataclass(frozen=True)
class ModelStarted:
    purpose: str  # "program", "repair", "finish"


@dataclass(frozen=True)
class TokenStreamed:
    purpose: str
    text: str


@dataclass(frozen=True)
class ProgramExtracted:
    program: str
    attempt: int  # 1 for the first program, 2 for a repaired one


@dataclass(frozen=True)
class ExecutionStarted:
    attempt: int


@dataclass(frozen=True)
class ExecutionFinished:
    attempt: int
    result: RunResult


@dataclass(frozen=True)
class VoteStarted:
    """A vote begins: one lane per solve, named ("Program 2 of 5", "Chain of thought"); with
    `first_lane` > 0, a second round's lanes join the vote's first ones, numbered from there."""

    lanes: tuple[str, ...]
    first_lane: int = 0


@dataclass(frozen=True)
class LaneStreamed:
    """Model text of one solve of a vote, as it is decoded (a batch's solves side by side)."""

    lane: int
    text: str


@dataclass(frozen=True)
class LaneFinished:
    """One solve of a vote is done: its answer (None: it failed) and its program, if it wrote one."""

    lane: int
    answer: str | None
    program: str | None
    needed: bool = True  # False: stopped unfinished, the others had settled the vote


@dataclass(frozen=True)
class FirstAnswer:
    """The first answer a vote has, shown while the rest of the vote goes on ("checking…"): the
    first solve to finish with an answer, by its lane and name."""

    lane: int
    label: str
    answer: str


@dataclass(frozen=True)
class LanesWaiting:
    """Solves of a vote that wait for a later turn: the model's context cannot hold all of the
    vote's prompts at once (a long question, `for_room`), or they run after the answers before
    them (a mixed vote's PAL comes first), so their sequences are decoded after the others."""

    lanes: tuple[int, ...]
    reason: str
    for_room: bool = True


VoteEvent = VoteStarted | LaneStreamed | LaneFinished | LanesWaiting | FirstAnswer
Event = ModelStarted | TokenStreamed | ProgramExtracted | ExecutionStarted | ExecutionFinished | VoteEvent
EventHandler = Callable[[Event], None]


# What the model is doing during a call, by the call's purpose (for status lines).
PHASES = {
    "program": "Writing the program",
    "repair": "Repairing the program",
    "finish": "Finishing from ans",
    "ans line": "Asking for the line that sets ans",
    "explain": "Explaining the line",
    "reasoning": "Reasoning in words",
    "emulate": "Emulating a line the program cannot run",
    "propositions": "Listing the key propositions",
    "correction": "Correcting the program",
    "validation": "Validating the program",
    "integration": "Integrating program and reasoning",
    "turns": "Long question: the solves take turns",  # LanesWaiting: not a model call's purpose
}
