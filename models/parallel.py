"""Several sequences decoded together in one llama.cpp batch: k samples for little more than one.

Why: a decode step on a CPU is bound by reading the weights, and one batch reads them once for
every sequence in it. Measured here (issue 15, 1.5B model, 2 threads): one sequence 13.6 tokens/s,
4 sequences together 33.3 tokens/s in total, 5 → 32.9. So five samples cost ≈ 2.1 × one.

How: a second llama.cpp context on the already loaded weights, with `n_seq_max` sequences and one
unified KV cache. Each distinct prompt is decoded once, at the sequence id that keeps most of it
from earlier calls (so a vote's second round, or the next question with the same few-shot prefix,
starts from the cache, whatever other method ran in between), and its cells are shared with
every sequence that starts from it (`llama_memory_seq_cp`: no copy of the data). Every sequence has its
own sampler chain (seed, grammar, biases) and ends on its own: end-of-generation token, a stop
string, its token limit, a full cache, or rambling far past its siblings (samples of the same
prompt); the others go on. A cancel ends all of them within one decode step.
"""

from __future__ import annotations

import codecs
import contextlib
import ctypes
import functools
import statistics
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from models.fences import program_arrived
from models.types import FinishReason, Generation, GenerationRequest, ModelError, SequenceChunk, SequenceDone

MAX_SEQUENCES = 8
_BATCH = 512
# A prompt is decoded this many tokens at a time, a cancel checked between: 0.7 s a chunk on 2
# laptop cores (512 at once took 5 s and was 2 % faster in all: tests/benchmarks/bench_prompt_read.py).
PROMPT_CHUNK = 64
# A batch waits for its longest sequence. Once most sequences have stopped, one still going past
# 1.5 × the longest of them (+ 16 tokens) is rambling (measured: one sample of five ran 2.6 × the
# others' length and doubled the batch's time), so it ends as "cut" and its caller drops it.
_STRAGGLER_FACTOR = 1.5
_STRAGGLER_SLACK = 16
# In a batch a cancel would stop every sequence, so each one applies `stop_after_code_block` (the
# rule in models.fences) on its own.
_TOP_K = 40  # the same chain llama-cpp-python's single-sequence sampling uses
# The room a sequence is counted as needing when requests are split into turns that the context
# holds: about twice the mean reply on GSM8K (programs ≈ 130 tokens, chain of thought ≈ 85;
# docs/results.md). Not each request's worst-case limit: a five-program vote would then never fit
# 4096 tokens. A longer reply still grows into whatever room the others leave.
ROOM_PER_SEQUENCE = 256
# Decode steps timed per number of sequences decoded together (the last this many of each), and
# how many of each before a rate counts: enough that one slow step (a busy CPU) does not decide.
_TIMED_STEPS = 64
_STEPS_NEEDED = 8


@dataclass
class _Sequence:
    index: int
    request: GenerationRequest
    prompt: list[int]
    sampler: Any
    decoder: Any = field(default_factory=lambda: codecs.getincrementaldecoder("utf-8")(errors="replace"))
    text: str = ""
    emitted: int = 0
    generated: int = 0
    last: int = -1
    finish: FinishReason | None = None
    started: float = 0.0
    first_at: float | None = None
    cached: int = 0
    family: int = 0  # the first sequence with the same prompt: samples of one request are siblings
    slot: int = 0  # its sequence id in the KV cache (chosen to reuse a kept prompt, see `_place`)

    @property
    def position(self) -> int:
        return len(self.prompt) + self.generated


class ParallelDecoder:
    """A multi-sequence context beside a loaded `llama_cpp.Llama` (same weights, own KV cache).

    Not thread-safe: the owner (`LocalModel`) serialises every use with its model lock.
    """

    def __init__(self, llama: Any, *, n_ctx: int, n_threads: int | None = None, sequences: int = MAX_SEQUENCES):
        import llama_cpp

        self._lib = llama_cpp
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = n_ctx
        params.n_batch = _BATCH
        params.n_ubatch = _BATCH
        params.n_seq_max = sequences
        params.kv_unified = True  # one pool of cells: a shared prompt is stored once
        threads = n_threads or int(llama.context_params.n_threads)
        params.n_threads = threads
        params.n_threads_batch = threads
        self._model = llama._model.model
        self._ctx = llama_cpp.llama_init_from_model(self._model, params)
        if not self._ctx:
            raise ModelError("llama.cpp could not create a context for parallel sampling")
        self._vocab = llama_cpp.llama_model_get_vocab(self._model)
        self._memory = llama_cpp.llama_get_memory(self._ctx)
        self._batch = llama_cpp.llama_batch_init(max(_BATCH, sequences), 0, 1)
        self.n_ctx = n_ctx
        self.sequences = sequences
        # The prompt whose cells each sequence id keeps between calls: a vote's next round, or
        # the next question of a mixed vote (chain of thought, PAL and PoT side by side, each at
        # its own id), starts from its few-shot prefix in the cache. A call's prompts take the ids
        # holding their prefixes and leave the others' alone, so a five-program vote between two
        # mixed votes does not evict the mixed vote's three prefixes (or the other way round).
        self._held: dict[int, list[int]] = {}
        # When each id's kept prompt was last decoded or reused (a call count): when every id holds
        # something, the one used longest ago gives way, not the one just used by another method.
        self._used_at: dict[int, int] = {}
        self._calls = 0
        self._step_seconds: dict[int, list[float]] = {}  # decode steps' wall time by sequences decoded

    def gain(self, sequences: int | None = None) -> float | None:
        """See `batch_gain`, over this context's decode steps so far."""
        return batch_gain(self._step_seconds, sequences)

    def close(self) -> None:
        if self._ctx:
            self._lib.llama_batch_free(self._batch)
            self._lib.llama_free(self._ctx)
            self._ctx = None

    def run(
        self,
        prompts: Sequence[list[int]],
        requests: Sequence[GenerationRequest],
        cancel: threading.Event,
        logit_bias: Sequence[Mapping[int, float]],
    ) -> Iterator[SequenceChunk | SequenceDone]:
        """Decode one sequence per request (`prompts[i]` its tokens); yield text and endings."""
        if not 1 <= len(requests) <= self.sequences:
            raise ModelError(f"parallel sampling takes 1 to {self.sequences} sequences, not {len(requests)}")
        started = time.perf_counter()
        self._calls += 1
        first_with: dict[tuple[int, ...], int] = {}
        seqs = [
            _Sequence(
                i, request, list(prompt), self._sampler(request, logit_bias[i]), started=started,
                family=first_with.setdefault(tuple(prompt), i),
            )
            for i, (prompt, request) in enumerate(zip(prompts, requests, strict=True))
        ]  # fmt: skip
        self._place(seqs)
        try:
            with contextlib.suppress(_Cancelled):  # then the loop below ends every sequence as cancelled
                yield from self._prefill(seqs, cancel)
            while any(s.finish is None for s in seqs):
                if cancel.is_set():
                    for seq in seqs:
                        if seq.finish is None:
                            seq.finish = "cancelled"
                            yield from self._done(seq)
                    break
                yield from self._step(seqs)
        finally:
            for seq in seqs:
                self._lib.llama_sampler_free(seq.sampler)
            self._forget_generated()

    # -- where each sequence lives in the cache ---------------------------------------------

    def _place(self, seqs: list[_Sequence]) -> None:
        """Give each sequence a sequence id: a distinct prompt the id whose kept prompt it shares
        most of (when that saves more than it evicts), any other sequence an empty id, else the id
        used longest ago. Ids this call does not use keep their prompts unless its prompts need the room."""
        free = list(range(self.sequences))
        for seq in sorted(seqs, key=lambda s: s.family != s.index):  # leaders first (a stable sort)
            seq.slot = max(free, key=functools.partial(self._worth, seq))
            free.remove(seq.slot)
        prompts = sum(len(seq.prompt) for seq in seqs if seq.family == seq.index)
        if prompts + len(seqs) + self._kept_elsewhere(seqs) > self.n_ctx:
            self._evict_unused(seqs)

    def _evict_unused(self, seqs: list[_Sequence]) -> None:
        """Empty the ids this call does not use: their kept prompts give way to its tokens."""
        used = {seq.slot for seq in seqs}
        for slot in range(self.sequences):
            if slot not in used and self._held.get(slot):
                self._lib.llama_memory_seq_rm(self._memory, slot, -1, -1)
                self._held[slot] = []

    def _worth(self, seq: _Sequence, slot: int) -> tuple[int, bool, int]:
        """How good `slot` is for `seq`: the prompt tokens it saves less those it evicts (when
        positive), then whether it is empty, then how long ago it was used."""
        held = self._held.get(slot, [])
        shared = _shared(held, seq.prompt) if seq.family == seq.index else 0
        return max(0, 2 * shared - len(held)), not held, -self._used_at.get(slot, 0)

    def _kept_elsewhere(self, seqs: list[_Sequence]) -> int:
        """Cells held by sequence ids this call does not use (other methods' prompts)."""
        used = {seq.slot for seq in seqs}
        return sum(len(held) for slot, held in self._held.items() if slot not in used)

    # -- decoding ---------------------------------------------------------------------------

    def _prefill(self, seqs: list[_Sequence], cancel: threading.Event) -> Iterator[SequenceChunk | SequenceDone]:
        """Decode each distinct prompt once, share its cells, sample every sequence's first token."""
        lib = self._lib
        leaders = [seq for seq in seqs if seq.family == seq.index]
        starts = {seq.slot: self._reusable(seq) for seq in leaders}
        for seq in seqs:  # a leader keeps what it can reuse; a follower starts empty
            lib.llama_memory_seq_rm(self._memory, seq.slot, starts.get(seq.slot, 0), -1)
            self._held[seq.slot] = self._held.get(seq.slot, [])[: starts.get(seq.slot, 0)]
        for seq in leaders:
            start = starts[seq.slot]
            last_index = self._decode_prompt(seq.prompt, start, seq.slot, cancel)
            self._held[seq.slot] = list(seq.prompt)
            self._used_at[seq.slot] = self._calls
            for follower in seqs:  # every sequence of this prompt samples from its last logits
                if follower.family == seq.index:
                    if follower is not seq:
                        lib.llama_memory_seq_cp(self._memory, seq.slot, follower.slot, -1, -1)
                    follower.cached = start
                    yield from self._accept(follower, lib.llama_sampler_sample(follower.sampler, self._ctx, last_index))

    def _reusable(self, seq: _Sequence) -> int:
        # the last prompt token is decoded again for its logits
        return min(_shared(self._held.get(seq.slot, []), seq.prompt), len(seq.prompt) - 1)

    def _decode_prompt(self, tokens: list[int], start: int, seq_id: int, cancel: threading.Event) -> int:
        """Decode tokens[start:] into `seq_id` in chunks; return the batch index of the last logits."""
        index = 0
        for chunk_start in range(start, len(tokens), PROMPT_CHUNK):
            if cancel.is_set():
                raise _Cancelled
            chunk = tokens[chunk_start : chunk_start + PROMPT_CHUNK]
            last = len(tokens) - 1
            self._fill([(token, chunk_start + i, seq_id, chunk_start + i == last) for i, token in enumerate(chunk)])
            self._decode()
            index = len(chunk) - 1
        return index

    def _step(self, seqs: list[_Sequence]) -> Iterator[SequenceChunk | SequenceDone]:
        for family in {s.family for s in seqs}:  # a straggler is judged against its siblings only
            siblings = [s for s in seqs if s.family == family]
            stopped = [s.generated for s in siblings if s.finish == "stop"]
            if len(stopped) * 2 > len(siblings) >= 3:
                limit = _STRAGGLER_FACTOR * max(stopped) + _STRAGGLER_SLACK
                for seq in siblings:
                    if seq.finish is None and seq.generated > limit:
                        seq.finish = "cut"
                        yield from self._done(seq)
        active = [s for s in seqs if s.finish is None]
        room = self.n_ctx - self._cells_used(seqs) - self._kept_elsewhere(seqs)
        if room < len(active) and self._kept_elsewhere(seqs):  # other methods' prompts give way first
            self._evict_unused(seqs)
            room = self.n_ctx - self._cells_used(seqs)
        for seq in active[room:] if room < len(active) else []:
            seq.finish = "length"  # the shared cache is full
            yield from self._done(seq)
        active = [s for s in active if s.finish is None]
        if not active:
            return
        self._fill([(s.last, s.position - 1, s.slot, True) for s in active])
        started = time.perf_counter()
        self._decode()
        steps = self._step_seconds.setdefault(len(active), [])
        steps.append(time.perf_counter() - started)
        del steps[:-_TIMED_STEPS]
        for batch_index, seq in enumerate(active):
            yield from self._accept(seq, self._lib.llama_sampler_sample(seq.sampler, self._ctx, batch_index))

    def _cells_used(self, seqs: list[_Sequence]) -> int:
        prompts = {tuple(s.prompt) for s in seqs}
        return sum(len(p) for p in prompts) + sum(s.generated for s in seqs)

    def _fill(self, entries: list[tuple[int, int, int, bool]]) -> None:
        batch = self._batch
        for i, (token, position, seq_id, logits) in enumerate(entries):
            batch.token[i] = token
            batch.pos[i] = position
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = seq_id
            batch.logits[i] = int(logits)
        batch.n_tokens = len(entries)

    def _decode(self) -> None:
        status = self._lib.llama_decode(self._ctx, self._batch)
        if status != 0:
            raise ModelError(f"llama.cpp could not decode the batch (status {status})")

    # -- one sampled token ------------------------------------------------------------------

    def _accept(self, seq: _Sequence, token: int) -> Iterator[SequenceChunk | SequenceDone]:
        if seq.first_at is None:
            seq.first_at = time.perf_counter()
        if self._lib.llama_vocab_is_eog(self._vocab, token):
            seq.finish = "stop"
            yield from self._done(seq)
            return
        seq.generated += 1
        seq.last = token
        seq.text += seq.decoder.decode(self._piece(token))
        stops = seq.request.stop
        for stop in stops:
            at = seq.text.find(stop, max(0, seq.emitted - len(stop)))
            if at >= 0:
                seq.text = seq.text[:at]
                seq.finish = "stop"
        if seq.finish is None and seq.request.stop_after_code_block and program_arrived(seq.text):
            seq.finish = "stop"
        if seq.finish is None and seq.generated >= seq.request.max_tokens:
            seq.finish = "length"
        if seq.finish is not None:
            yield from self._done(seq)
            return
        hold = max((len(stop) - 1 for stop in stops), default=0)  # a stop string may be starting
        if len(seq.text) - hold > seq.emitted:
            yield SequenceChunk(seq.index, seq.text[seq.emitted : len(seq.text) - hold])
            seq.emitted = len(seq.text) - hold

    def _done(self, seq: _Sequence) -> Iterator[SequenceChunk | SequenceDone]:
        if len(seq.text) > seq.emitted:
            yield SequenceChunk(seq.index, seq.text[seq.emitted :])
            seq.emitted = len(seq.text)
        ended = time.perf_counter()
        first = seq.first_at or ended
        assert seq.finish is not None
        yield SequenceDone(
            seq.index,
            Generation(
                text=seq.text,
                prompt_tokens=len(seq.prompt),
                cached_prompt_tokens=seq.cached,
                completion_tokens=seq.generated,
                prompt_eval_s=first - seq.started,
                decode_s=ended - first,
                finish_reason=seq.finish,
            ),
        )

    def _piece(self, token: int) -> bytes:
        buffer = ctypes.create_string_buffer(64)
        size = self._lib.llama_token_to_piece(self._vocab, token, buffer, len(buffer), 0, False)
        if size < 0:
            buffer = ctypes.create_string_buffer(-size)
            size = self._lib.llama_token_to_piece(self._vocab, token, buffer, len(buffer), 0, False)
        return buffer.raw[: max(size, 0)]

    def _sampler(self, request: GenerationRequest, bias: Mapping[int, float]) -> Any:
        lib = self._lib
        chain = lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params())
        if bias:
            entries = (lib.llama_logit_bias * len(bias))(*(lib.llama_logit_bias(t, b) for t, b in bias.items()))
            lib.llama_sampler_chain_add(
                chain, lib.llama_sampler_init_logit_bias(lib.llama_vocab_n_tokens(self._vocab), len(bias), entries)
            )
        if request.grammar:
            grammar = lib.llama_sampler_init_grammar(self._vocab, request.grammar.encode(), b"root")
            if not grammar:
                lib.llama_sampler_free(chain)
                raise ModelError("llama.cpp could not parse the grammar")
            lib.llama_sampler_chain_add(chain, grammar)
        if request.temperature <= 0:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_greedy())
        else:
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_k(_TOP_K))
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_top_p(request.top_p, 1))
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_temp(request.temperature))
            seed = request.seed if request.seed is not None else 0xFFFFFFFF  # LLAMA_DEFAULT_SEED: random
            lib.llama_sampler_chain_add(chain, lib.llama_sampler_init_dist(seed & 0xFFFFFFFF))
        return chain

    def _forget_generated(self) -> None:
        """Keep only the leading sequences' prompt cells (the prefixes the next call may reuse)."""
        for seq_id in range(self.sequences):
            held = self._held.get(seq_id, [])
            if not self._lib.llama_memory_seq_rm(self._memory, seq_id, len(held), -1):
                self._lib.llama_memory_seq_rm(self._memory, seq_id, -1, -1)
                self._held[seq_id] = []


def batch_gain(step_seconds: Mapping[int, Sequence[float]], sequences: int | None = None) -> float | None:
    """How many times one sequence's rate of tokens `sequences` decoded together reached (by
    default the most that were timed), from decode steps timed by the number of sequences in
    them; None until both were timed. It differs by computer: 2.4 for four on one 2-core machine
    here, about 1.1 on another; 1.42-1.46 for two on the first (docs/results.md). Two gain less
    than four: a gain of four does not stand in for two's."""
    timed = {n: times for n, times in step_seconds.items() if len(times) >= _STEPS_NEEDED}
    most = sequences if sequences is not None else max((n for n in timed if n > 1), default=None)
    if 1 not in timed or most not in timed:
        return None
    return most * statistics.median(timed[1]) / max(statistics.median(timed[most]), 1e-9)


def _shared(held: list[int], prompt: list[int]) -> int:
    """How many leading tokens `prompt` has in common with the prompt kept at a sequence id."""
    same = 0
    for a, b in zip(held, prompt, strict=False):
        if a != b:
            break
        same += 1
    return same


class _Cancelled(Exception):
    """A cancel arrived while a prompt was being decoded."""


def turns(prompts: Sequence[Sequence[int]], max_tokens: Sequence[int], n_ctx: int) -> list[list[int]]:
    """The requests (by index, in order) in consecutive turns that one context holds together:
    a turn's distinct prompts once, plus room for each sequence's reply (`ROOM_PER_SEQUENCE` or
    less). A request that does not fit even alone is a turn of its own."""
    keys = [tuple(prompt) for prompt in prompts]
    split: list[list[int]] = []
    for index in range(len(prompts)):
        if split and len(split[-1]) < MAX_SEQUENCES:
            together = [*split[-1], index]
            distinct = {keys[i] for i in together}
            need = sum(map(len, distinct)) + sum(min(max_tokens[i], ROOM_PER_SEQUENCE) for i in together)
            if need <= n_ctx:
                split[-1] = together
                continue
        split.append([index])
    return split
