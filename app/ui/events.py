"""`Events`: the one typed subscription between the work that runs off the window's thread and
the views that show its progress, keyed by event class — `events.subscribe(LaneFinished, view.on)`
lets mypy check that `view.on` takes a `LaneFinished`. The controller publishes every progress
event a job reports (the reasoning library's, in `app.reasoning.events`, and the window's own,
below); a view subscribes to the kinds it shows. A new event touches its definition, its emitter
and the views that show it, never a relay in between.

Handlers run on the window's thread: `publish` is called there (a job's reports arrive there
through `Background`), and `post` carries an event from any other thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal

from app.data import DataSet

E = TypeVar("E")


class Events(QObject):
    """Signals: published(object) — every event, after its handlers (for tests and logs)."""

    published = Signal(object)
    _posted = Signal(object)  # an event from another thread, delivered on this object's thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._handlers: dict[type, list[Callable[[Any], None]]] = {}
        self._posted.connect(self.publish)

    def subscribe(self, kind: type[E], handler: Callable[[E], None], *, owner: QObject | None = None) -> None:
        """Call `handler` with each published `kind` event; with `owner`, only while it exists
        (a dialog closed and deleted before the work ends hears nothing more)."""
        handlers = self._handlers.setdefault(kind, [])
        handlers.append(handler)
        if owner is not None:
            owner.destroyed.connect(lambda: handlers.remove(handler) if handler in handlers else None)

    def publish(self, event: object) -> None:
        for handler in tuple(self._handlers.get(type(event), ())):
            handler(event)
        self.published.emit(event)

    def post(self, event: object) -> None:
        """Publish `event` from any thread: its handlers run on the window's thread."""
        self._posted.emit(event)


# -- the window's own events (the reasoning library's are in app.reasoning.events) ------------


@dataclass(frozen=True)
class Phase:
    """What runs now, in words ("Loading the model…"); the status bar adds the seconds."""

    text: str


@dataclass(frozen=True)
class ModelLoading:
    """A model is being loaded (at the start, or again for other settings)."""


@dataclass(frozen=True)
class SandboxStarting:
    """The sandbox is being started again (another backend was chosen)."""


@dataclass(frozen=True)
class Warming:
    """The default method's worked examples are being read into the model ahead of the first
    solve (`done`: finished or stopped by the user's own work)."""

    done: bool


@dataclass(frozen=True)
class SandboxReady:
    isolation: str  # "strong", "partial", "none" or "unavailable"
    problem: str | None
    layers: tuple[str, ...] = ()  # each layer in words, ✓ or ✗ first
    backend: str = "native"  # "native" or "WebAssembly"


@dataclass(frozen=True)
class SandboxPreparing:
    """The WebAssembly sandbox's one-time compile, how far it is (in words)."""

    text: str


@dataclass(frozen=True)
class LoadProgress:
    done: int  # bytes of the model prepared so far
    total: int


@dataclass(frozen=True)
class DataOpened:
    data: DataSet
    path: Path


@dataclass(frozen=True)
class DataRefused:
    message: str  # why the data file cannot be used


@dataclass(frozen=True)
class RepairProposed:
    before: str  # the program the repair would replace
    program: str | None  # None: the model proposed no corrected program

    @property
    def changes(self) -> bool:
        return self.program is not None and self.program.strip() != self.before.strip()


@dataclass(frozen=True)
class LineExplained:
    number: int
    text: str  # "" when no explanation came
