"""`LocalModel`: a GGUF model run in-process by llama.cpp (llama-cpp-python).

One lock serialises generations (llama.cpp contexts are not re-entrant); `cancel()` may be called
from any thread and takes effect at the next sampled token, or within one chunk while a prompt is
read (`PROMPT_CHUNK`). The KV cache is kept between generations, so a prompt that starts like the
previous one (the few-shot examples) is only evaluated from where it differs.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from models.fences import program_arrived
from models.gguf_info import GGUFInfo, check_loadable, inspect
from models.parallel import MAX_SEQUENCES, PROMPT_CHUNK, ParallelDecoder, turns
from models.threads import automatic_threads
from models.types import (
    BatchEvent,
    BatchSplit,
    Capabilities,
    FinishReason,
    Generation,
    GenerationRequest,
    ModelError,
    SequenceDone,
)


@dataclass(frozen=True)
class ModelSettings:
    path: Path
    n_ctx: int = 4096
    n_threads: int | None = None  # None: one per physical core (models.threads)
    n_gpu_layers: int = 0  # -1 offloads every layer (needs a GPU build: docs/models.md)
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # passed to llama_cpp.Llama as is


def gpu_offload_supported() -> bool:
    """Whether this llama-cpp-python build can offload layers to a GPU (CUDA, Metal, Vulkan …)."""
    import llama_cpp

    return bool(llama_cpp.llama_supports_gpu_offload())


class LocalModel:
    """A loaded GGUF model. Implements `models.types.LanguageModel`."""

    def __init__(self, settings: ModelSettings) -> None:
        self.settings = settings
        self.info: GGUFInfo = inspect(settings.path)
        check_loadable(self.info, settings.n_ctx)
        self._llama = _load(settings, self.info)
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._formatter = self._chat_formatter()
        self._prefixed: dict[str, list[int]] = {}
        self._parallel: ParallelDecoder | None = None  # made on the first batch (its KV cache costs memory)
        self.capabilities = Capabilities(batch=MAX_SEQUENCES, grammar=True, token_bias=True, prompt_cache=True)

    @property
    def name(self) -> str:
        return self.info.description

    @property
    def n_ctx(self) -> int:
        return int(self._llama.n_ctx())

    def count_tokens(self, text: str) -> int:
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=True, special=True))

    def format_prompt(self, request: GenerationRequest) -> str:
        """The exact text the model sees: the chat template applied, or the raw prompt."""
        if request.prompt is not None:
            return request.prompt + request.assistant_prefix
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        if self._formatter is None:  # a base model: plain turns
            return "\n\n".join(m["content"] for m in messages) + "\n\n" + request.assistant_prefix
        return str(self._formatter(messages=messages).prompt) + request.assistant_prefix

    def cancel(self) -> None:
        self._cancel.set()

    def clear_cache(self) -> None:
        """Forget the KV cache, so the next prompt is evaluated from its first token."""
        with self._lock:
            self._llama.reset()

    def close(self) -> None:
        with self._lock:
            if self._parallel is not None:
                self._parallel.close()
                self._parallel = None
            self._llama.close()

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
        """Decode the requests together in one llama.cpp batch (see `models.parallel`). When the
        context cannot hold them all (a long question asked by several methods), they are decoded
        in turns that fit, announced by a `BatchSplit` first; a prompt longer than the context
        fails before anything is decoded. A sequence that finds the shared cache full later ends
        with finish reason "length" while the others go on."""
        with self._lock:
            self._cancel.clear()
            prompts = [
                self._llama.tokenize(self.format_prompt(r).encode("utf-8"), add_bos=True, special=True)
                for r in requests
            ]
            longest = max(map(len, prompts), default=0)
            if longest >= self.n_ctx:
                raise ModelError(
                    f"the prompt is {longest} tokens long but the model's context holds {self.n_ctx}; "
                    "shorten the question or raise the context size"
                )
            split = turns(prompts, [r.max_tokens for r in requests], self.n_ctx)
            if len(split) > 1:
                yield BatchSplit(tuple(map(len, split)), self.n_ctx)
            if self._parallel is None:
                self._parallel = ParallelDecoder(self._llama, n_ctx=self.n_ctx, n_threads=self.settings.n_threads)
            biases = [self._logit_bias(r) for r in requests]
            for turn in split:
                if self._cancel.is_set():  # a cancelled batch ends every sequence not yet decoded
                    for index in turn:
                        yield SequenceDone(index, Generation("", len(prompts[index]), 0, 0, 0.0, 0.0, "cancelled"))
                    continue
                try:
                    for event in self._parallel.run(
                        [prompts[i] for i in turn], [requests[i] for i in turn], self._cancel, [biases[i] for i in turn]
                    ):
                        yield replace(event, index=turn[event.index])
                except (RuntimeError, ValueError) as exc:
                    raise ModelError(f"{self.name} failed while decoding in parallel: {exc}") from exc

    def batch_gain(self, sequences: int | None = None) -> float | None:
        """How much faster in all several sequences (the most timed, or `sequences`) decode
        together than one does, as measured here so far (`parallel.batch_gain`); None before
        both were decoded."""
        return self._parallel.gain(sequences) if self._parallel is not None else None

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        with self._lock:
            self._cancel.clear()
            yield from self._generate(request)

    def _generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        from llama_cpp.llama import StoppingCriteriaList
        from llama_cpp.llama_grammar import LlamaGrammar

        prompt = self.format_prompt(request)
        tokens = self._llama.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
        room = self.n_ctx - len(tokens)
        if room < 1:
            raise ModelError(
                f"the prompt is {len(tokens)} tokens long but the model's context holds {self.n_ctx}; "
                "shorten the question or raise the context size"
            )
        cached = self._cached_prefix(tokens)
        started = time.perf_counter()
        first_token_at: float | None = None
        longest = 0
        arrived = False  # the program has arrived (models.fences): decoding stops at the next token
        try:
            read = self._read_prompt(tokens, cached)
        except (RuntimeError, ValueError) as exc:
            raise ModelError(f"{self.name} failed while reading the prompt: {exc}") from exc
        if not read:  # Esc while the prompt was being read
            yield Generation("", len(tokens), cached, 0, time.perf_counter() - started, 0.0, "cancelled")
            return

        def stop_when_cancelled(input_ids: Any, _logits: Any) -> bool:
            nonlocal first_token_at, longest
            if first_token_at is None:
                first_token_at = time.perf_counter()
            longest = max(longest, len(input_ids))
            return self._cancel.is_set() or arrived

        try:
            stream = self._llama.create_completion(
                prompt,
                max_tokens=min(request.max_tokens, room),
                temperature=request.temperature,
                top_p=request.top_p,
                seed=request.seed if request.seed is not None else self.settings.seed,
                stop=list(request.stop),
                stream=True,
                stopping_criteria=StoppingCriteriaList([stop_when_cancelled]),
                grammar=LlamaGrammar.from_string(request.grammar, verbose=False) if request.grammar else None,
                logit_bias=self._logit_bias(request) or None,
            )
            parts: list[str] = []
            finish: FinishReason = "stop"
            for chunk in stream:
                choice = chunk["choices"][0]
                if choice["text"]:
                    parts.append(choice["text"])
                    yield choice["text"]
                    arrived = request.stop_after_code_block and program_arrived("".join(parts))
                if choice.get("finish_reason") == "length":
                    finish = "length"
        except (RuntimeError, ValueError) as exc:
            raise ModelError(f"{self.name} failed while generating: {exc}") from exc
        ended = time.perf_counter()
        if self._cancel.is_set():
            finish = "cancelled"
        first = first_token_at or ended
        yield Generation(
            text="".join(parts),
            prompt_tokens=len(tokens),
            cached_prompt_tokens=cached,
            completion_tokens=max(longest - len(tokens), 0),
            prompt_eval_s=first - started,
            decode_s=ended - first,
            finish_reason=finish,
        )

    def _read_prompt(self, tokens: list[int], cached: int) -> bool:
        """Evaluate the prompt's part the cache lacks, PROMPT_CHUNK tokens at a time, before
        decoding starts: a cancel ends it within one chunk (well under a second), where llama.cpp
        reads a whole prompt at once (5 s for 512 tokens here). The last token is left to the
        completion, which evaluates it for fresh logits and reuses the rest. False: cancelled."""
        llama, end = self._llama, len(tokens) - 1
        llama.n_tokens = cached  # what the cache holds beyond the shared prefix is dropped by eval
        for start in range(cached, end, PROMPT_CHUNK):
            if self._cancel.is_set():
                return False
            llama.eval(tokens[start : min(start + PROMPT_CHUNK, end)])
        return not self._cancel.is_set()

    def _logit_bias(self, request: GenerationRequest) -> dict[int, float]:
        bias: dict[int, float] = {}
        for prefix, value in request.token_bias.items():
            for token in self._tokens_starting_with(prefix):
                bias[token] = bias.get(token, 0.0) + value
        return bias

    def _tokens_starting_with(self, prefix: str) -> list[int]:
        """Ids of the tokens whose text, leading whitespace removed, starts with `prefix`
        (one pass over the vocabulary, remembered)."""
        if prefix not in self._prefixed:
            vocab = self._llama._model
            self._prefixed[prefix] = [
                token
                for token in range(self._llama.n_vocab())
                if vocab.token_get_text(token).lstrip(" \t\n\u0120\u010a").startswith(prefix)
            ]
        return self._prefixed[prefix]

    def _cached_prefix(self, tokens: list[int]) -> int:
        """How many leading prompt tokens the KV cache already holds (llama.cpp re-evaluates the
        last one of a fully cached prompt to get fresh logits)."""
        held = self._llama.input_ids[: self._llama.n_tokens]
        same = 0
        for a, b in zip(held, tokens, strict=False):
            if a != b:
                break
            same += 1
        return min(same, len(tokens) - 1)

    def _chat_formatter(self) -> Any:
        template = self._llama.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        def token_text(token: int) -> str:
            return self._llama._model.token_get_text(token) if token >= 0 else ""

        return Jinja2ChatFormatter(
            template=template,
            eos_token=token_text(self._llama.token_eos()),
            bos_token=token_text(self._llama.token_bos()),
        )


def _load(settings: ModelSettings, info: GGUFInfo) -> Any:
    import llama_cpp

    options: dict[str, Any] = {
        "model_path": str(settings.path),
        "n_ctx": settings.n_ctx,
        "n_gpu_layers": settings.n_gpu_layers,
        "seed": settings.seed,
        "n_threads": settings.n_threads or automatic_threads(),
        "verbose": False,
        **settings.extra,
    }
    try:
        # llama.cpp reports loading problems on stderr; keep the terminal clean and say it ourselves.
        with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):
            return llama_cpp.Llama(**options)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelError(
            f"llama.cpp could not load {info.path.name} ({info.description}): {exc}. "
            "The file may be damaged or use a variant this llama.cpp does not support."
        ) from exc
