"""The reasoning methods (Qt-free): each turns a question into a typed `Solution`."""

from app.reasoning.events import (
    Event,
    EventHandler,
    ExecutionFinished,
    ExecutionStarted,
    ModelStarted,
    ProgramExtracted,
    TokenStreamed,
)
from app.reasoning.pal import solve_pal
from app.reasoning.pot import solve_pot
from app.reasoning.session import CancelToken
from app.reasoning.solution import ModelCall, Solution, SolveStatus

__all__ = [
    "CancelToken",
    "Event",
    "EventHandler",
    "ExecutionFinished",
    "ExecutionStarted",
    "ModelCall",
    "ModelStarted",
    "ProgramExtracted",
    "Solution",
    "SolveStatus",
    "TokenStreamed",
    "solve_pal",
    "solve_pot",
]
