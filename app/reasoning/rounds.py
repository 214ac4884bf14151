"""Votes in rounds: a round's solves decoded together, and no solve more than needed.

A vote solves the same question several times: with k seeds (self-consistency), or with several
methods (`mix`: chain of thought, PAL and PoT). Each solve asks the model through its own session,
so `RoundModel` stands in for the model during a round. Before the round, each solve's first
request is learned by a rehearsal (`first_request`: the solve runs against a model that records
what it is asked and ends the solve there), so the method itself stays the one place that knows
its prompt. The first of those requests to be asked for decodes all of them in one batch
(`models.types.generate_batch`); that solve's reply streams live, the others are kept and handed
to the round's later solves as they ask. Anything else (a repair, a finishing step, a request the
rehearsal did not foresee) goes to the model as usual.

On a model that decodes several sequences at once, a round is as many samples as it decodes
together: measured (tests/benchmarks/bench_votes.py), five samples in one batch took the same
wall time as three, so all five are drawn at once. On a model that decodes one at a time the
samples come one by one and `settled` ends the vote early: once the leading answer has more
votes than the runner-up could still reach, more samples cannot change the winner (of five:
the first three agreeing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from app.reasoning.events import EventHandler, LaneFinished, LaneStreamed, LanesWaiting
from app.reasoning.session import CancelToken
from models.types import (
    BatchSplit,
    Generation,
    GenerationRequest,
    LanguageModel,
    SequenceChunk,
    SequenceDone,
    generate_batch,
)

T = TypeVar("T")
# Batches pay where several sequences decode at least this many times one's rate in all: measured
# 2.4 for four on one 2-core development machine, 1.1 on another (docs/results.md, issue 33).
BATCH_PAYS = 1.25
# A mixed vote's PAL and chain of thought decode together where two sequences decode at least this
# many times one's rate. Together the checked answer comes sooner, PAL's first answer later: each
# step decodes two tokens. Measured on one 2-core machine, gain 1.40-1.49 for two: on GSM8K 1-100
# the median item took 2.84 × greedy PAL's time (3.2-3.7 × one after the other), and the first
# answer came at 1.18-1.39 × greedy PAL's time in all (three runs: bench_votes twice, GSM8K 1-12;
# 1.0 × one after the other), within the 1.3 × asked for (issue 33) on average, not on every
# question (the median question 1.41 ×). Below this gain the first answer would come later still.
FIRST_ROUND_PAYS = 1.4


def settled(counts: list[int], remaining: int) -> bool:
    """`counts` are the answers' votes, most first: can the remaining samples still change the winner?"""
    if not counts:
        return False
    runner_up = counts[1] if len(counts) > 1 else 0
    return counts[0] > runner_up + remaining


def measured_gain(model: LanguageModel, sequences: int | None = None) -> float | None:
    """What `model` measured its batches (of `sequences`, where it timed that many) to gain; None
    where it has not timed them or does not time batches."""
    measured = getattr(model, "batch_gain", None)
    return measured(sequences) if callable(measured) else None


class RoundModel:
    """A `LanguageModel` that serves a round of foreseen requests from one batched generation."""

    def __init__(self, model: LanguageModel, cancel: CancelToken, report: EventHandler | None = None) -> None:
        self.model = model
        self._token = cancel
        self.capacity = model.capabilities.batch
        self.batching = self.capacity > 1
        self.capabilities = replace(model.capabilities, batch=1)  # it serves one request at a time
        # Every model text of the round is reported once as `LaneStreamed` with its solve's lane: a
        # batch's sequences as they decode, a request outside the batch under the lane of the solve asking.
        self._report = report or (lambda _event: None)
        self.lane = 0  # the solve that asks now (the caller sets it before running each solve)
        self._pending: list[tuple[int, GenerationRequest]] = []  # (lane, request)
        self._ready: list[tuple[GenerationRequest, list[str], Generation]] = []
        self._in_batch = False
        self._stopping = False  # the vote said the batch's other sequences are not needed
        self.notes: list[str] = []  # what the user should know about how the round was decoded
        # Told of each sequence of a batch as it ends (its lane, request and generation), while the
        # others still decode; returns True when the rest cannot change the vote and may stop.
        self.on_sequence_done: Callable[[int, GenerationRequest, Generation], bool] | None = None
        self.stopped: set[int] = set()  # lanes whose sequences were stopped as not needed
        # Lanes of the next call's solves decoded in this round's batch, kept for it (see
        # `methods._in_rounds`'s `ahead`) — or, if it does not run, `forget_ahead`.
        self.ahead_lanes: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        return self.model.name

    def rounds(self, solves: Sequence[T], sizes: Sequence[int] = ()) -> list[list[T]]:
        """The solves in rounds: of `sizes` (the rest in a last round), else as many as decode
        together; all of them one by one on a model that decodes one sequence at a time."""
        if not self.batching:
            return [list(solves)]
        rounds, start = [], 0
        for size in (*sizes, *[self.capacity] * len(solves)):  # then as many as decode together
            if start < len(solves):
                rounds.append(list(solves[start : start + min(size, self.capacity)]))
                start += min(size, self.capacity)
        return rounds

    def batches_pay(self) -> bool:
        """Whether a bigger batch is worth it here: on a model that says how much its batches
        gained so far (`LocalModel.batch_gain`) at least BATCH_PAYS; until it knows, they do."""
        gain = self.gain()
        return self.batching and (gain is None or gain >= BATCH_PAYS)

    def pairs(self) -> bool:
        """Whether a mixed vote's PAL and chain of thought decode together: only where two
        sequences were measured to decode at FIRST_ROUND_PAYS × one's rate (until then PAL's
        answer comes first at its own speed)."""
        gain = self.gain(2)
        return self.batching and gain is not None and gain >= FIRST_ROUND_PAYS

    def gain(self, sequences: int | None = None) -> float | None:
        return measured_gain(self.model, sequences)

    def start_round(self, requests: Sequence[GenerationRequest | None], first_lane: int = 0) -> None:
        """The first requests of the round's solves (None: a solve that will ask nothing), the
        first of them in lane `first_lane`."""
        asked = [request for request in requests if request is not None]
        self._ready = [kept for kept in self._ready if kept[0] in asked]  # decoded ahead for this round
        ready = [kept[0] for kept in self._ready]
        lanes = enumerate(requests, start=first_lane)
        fresh = [(lane, request) for lane, request in lanes if request is not None and request not in ready]
        self._pending = fresh if self.batching else []
        self.stopped.clear()

    def forget_ahead(self) -> None:
        """The solves decoded ahead are not needed after all: their columns say so."""
        self._ready.clear()
        for lane in self.ahead_lanes:
            self._report(LaneFinished(lane, None, None, needed=False))
        self.ahead_lanes = ()

    def cancel(self) -> None:
        # In a batch, a session that has its program asks to stop early; each sequence of the
        # batch stops at its own code block, so only the user's cancel may stop them all.
        if self._in_batch and not self._token.cancelled:
            return
        self.model.cancel()

    def close(self) -> None:
        """The wrapped model belongs to the caller; nothing to free here."""

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        for position, (kept, chunks, generation) in enumerate(self._ready):
            if kept == request:
                del self._ready[position]
                yield from chunks
                yield generation
                return
        if any(request == pending for _lane, pending in self._pending):
            yield from self._batch(request)
        else:
            for item in self.model.generate(request):
                if isinstance(item, str):
                    self._report(LaneStreamed(self.lane, item))
                yield item

    def _batch(self, request: GenerationRequest) -> Iterator[str | Generation]:
        """The round's batch, `request`'s reply streamed, the others kept for their solves."""
        lanes, requests = zip(*self._pending, strict=True)
        self._pending = []
        mine = requests.index(request)
        kept: dict[int, list[str]] = {i: [] for i in range(len(requests))}
        own: Generation | None = None
        ended: list[int] = []
        self._in_batch, self._stopping = True, False
        try:
            for event in generate_batch(self.model, requests):
                if isinstance(event, SequenceDone):
                    ended.append(event.index)
                    self._ended(lanes[event.index], requests[event.index], event.generation, len(ended) < len(requests))
                if isinstance(event, BatchSplit):
                    note = _split_note(event)
                    if note not in self.notes:  # said once, however many rounds split
                        self.notes.append(note)
                    self._report(LanesWaiting(lanes[event.sizes[0] :], "waiting for room in the model's context…"))
                elif isinstance(event, SequenceChunk):
                    self._report(LaneStreamed(lanes[event.index], event.text))
                    if event.index == mine:
                        yield event.text
                    else:
                        kept[event.index].append(event.text)
                elif event.index == mine:
                    own = _dropped_if_cut(event.generation)  # handed over once the whole batch has ended
                else:
                    generation = _dropped_if_cut(event.generation)
                    chunks = kept[event.index] if generation.text else []
                    self._ready.append((requests[event.index], chunks, generation))
        finally:
            self._in_batch = False
        if own is not None:
            yield own

    def _ended(self, lane: int, request: GenerationRequest, generation: Generation, others_going: bool) -> None:
        """A sequence ended: one stopped as not needed is marked so; when the vote says the rest
        cannot change it, every other sequence stops now."""
        if self._stopping and generation.finish_reason == "cancelled":
            self.stopped.add(lane)
            return
        needless = self.on_sequence_done is not None and self.on_sequence_done(lane, request, generation)
        if needless and others_going and not self._stopping:
            self._stopping = True  # the lanes that end cancelled from here were stopped, not failed
            self.model.cancel()


def first_request(solve: Callable[[LanguageModel], object], like: LanguageModel) -> GenerationRequest | None:
    """The request `solve` sends first when given a model like `like`; None if it asks nothing
    (an empty question, say). `solve` must not report events or bind the caller's cancel."""
    try:
        solve(_Rehearsal(like))
    except _Asked as asked:
        return asked.request
    return None


class _Asked(Exception):
    def __init__(self, request: GenerationRequest) -> None:
        super().__init__("rehearsal")
        self.request = request


class Replay:
    """A model that answers one request with a generation already made (a batch's finished
    sequence), so its solve can run to an answer while the batch goes on; any other request ends
    the solve as a rehearsal does (`replayed` returns None then)."""

    def __init__(self, like: LanguageModel, request: GenerationRequest, generation: Generation) -> None:
        self.name = like.name
        self.capabilities = like.capabilities
        self._request, self._generation = request, generation

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        if request != self._request:
            raise _Asked(request)
        yield self._generation

    def cancel(self) -> None:
        """Nothing is running."""

    def close(self) -> None:
        """Nothing to free."""


def replayed(solve: Callable[[LanguageModel], T], model: Replay) -> T | None:
    """What `solve` returns given `model`; None when it needs a request the replay does not hold."""
    try:
        return solve(model)
    except _Asked:
        return None


class _Rehearsal:
    """A model that ends a solve at its first request, carrying the request out."""

    def __init__(self, like: LanguageModel) -> None:
        self.name = like.name
        self.capabilities = like.capabilities  # a method may choose its request by this

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        raise _Asked(request)

    def cancel(self) -> None:
        """Nothing is running."""

    def close(self) -> None:
        """Nothing to free."""


def _split_note(split: BatchSplit) -> str:
    total = sum(split.sizes)
    return (
        f"the question is long: the model's context ({split.context_tokens} tokens) held {max(split.sizes)} of "
        f"the {total} solves at once, so they were decoded in {len(split.sizes)} turns, one after another"
    )


def _dropped_if_cut(generation: Generation) -> Generation:
    """A sample the batch cut short has no program to run: the vote counts it as a failure."""
    return replace(generation, text="") if generation.finish_reason == "cut" else generation
