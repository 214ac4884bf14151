"""Self-consistency in rounds: a round's samples decoded together, and no sample more than needed.

A vote solves the same question with k seeds. Each solve asks the model through its own session,
so `RoundModel` stands in for the model during a round: the round's first request is sent for
every seed of the round in one batch (`models.types.generate_batch`); that solve's sample streams
live, the others are kept and handed to the round's later solves as they ask. Anything else (a
repair, a finishing step) goes to the model as usual.

On a model that decodes several sequences at once, a round is as many samples as it decodes
together: measured (tests/benchmarks/bench_votes.py), five samples in one batch took the same
wall time as three, so all five are drawn at once. On a model that decodes one at a time the
samples come one by one and `settled` ends the vote early: once the leading answer has more
votes than the runner-up could still reach, more samples cannot change the winner (of five:
the first three agreeing).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from app.reasoning.session import CancelToken
from models.types import (
    Generation,
    GenerationRequest,
    LanguageModel,
    SequenceChunk,
    generate_batch,
    parallel_capacity,
    takes_grammar,
)


def settled(counts: list[int], remaining: int) -> bool:
    """`counts` are the answers' votes, most first: can the remaining samples still change the winner?"""
    if not counts:
        return False
    runner_up = counts[1] if len(counts) > 1 else 0
    return counts[0] > runner_up + remaining


class RoundModel:
    """A `LanguageModel` that serves a round of seeded requests from one batched generation."""

    def __init__(self, model: LanguageModel, cancel: CancelToken) -> None:
        self.model = model
        self._token = cancel
        self.capacity = parallel_capacity(model)
        self.batching = self.capacity > 1
        self.grammar_supported = takes_grammar(model)
        self._round: list[int] = []
        self._template: GenerationRequest | None = None
        self._ready: dict[int, tuple[list[str], Generation]] = {}
        self._in_batch = False

    @property
    def name(self) -> str:
        return self.model.name

    def rounds(self, seeds: list[int]) -> list[list[int]]:
        """The seeds in rounds: as many as decode together, or all of them one by one."""
        if not self.batching:
            return [seeds]
        return [seeds[start : start + self.capacity] for start in range(0, len(seeds), self.capacity)]

    def start_round(self, seeds: list[int]) -> None:
        self._round = list(seeds) if self.batching else []
        self._template = None
        self._ready.clear()

    def cancel(self) -> None:
        # In a batch, a session that has its program asks to stop early; each sequence of the
        # batch stops at its own code block, so only the user's cancel may stop them all.
        if self._in_batch and not self._token.cancelled:
            return
        self.model.cancel()

    def close(self) -> None:
        """The wrapped model belongs to the caller; nothing to free here."""

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        template = replace(request, seed=None)
        if request.seed in self._ready and template == self._template:
            chunks, generation = self._ready.pop(request.seed)
            yield from chunks
            yield generation
        elif request.seed is not None and request.seed in self._round:
            yield from self._batch(request, template, request.seed)
        else:
            yield from self.model.generate(request)

    def _batch(self, request: GenerationRequest, template: GenerationRequest, seed: int) -> Iterator[str | Generation]:
        """The round's batch, `seed`'s sample streamed, the others kept for their requests."""
        seeds, self._round = self._round, []
        self._template = template
        mine = seeds.index(seed)
        kept: dict[int, list[str]] = {i: [] for i in range(len(seeds))}
        own: Generation | None = None
        self._in_batch = True
        try:
            for event in generate_batch(self.model, [replace(request, seed=seed) for seed in seeds]):
                if isinstance(event, SequenceChunk):
                    if event.index == mine:
                        yield event.text
                    else:
                        kept[event.index].append(event.text)
                elif event.index == mine:
                    own = _dropped_if_cut(event.generation)  # handed over once the whole batch has ended
                else:
                    generation = _dropped_if_cut(event.generation)
                    self._ready[seeds[event.index]] = (kept[event.index] if generation.text else [], generation)
        finally:
            self._in_batch = False
        if own is not None:
            yield own


def _dropped_if_cut(generation: Generation) -> Generation:
    """A sample the batch cut short has no program to run: the vote counts it as a failure."""
    return replace(generation, text="") if generation.finish_reason == "cut" else generation
