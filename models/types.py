"""What the reasoning core sees of a language model: requests, streamed text, results, errors.

`LanguageModel` is the protocol the core depends on; `models.local.LocalModel` (llama.cpp) and
`models.testing.ScriptedModel` (queued replies) implement it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]
# "cut": a batch ended this sequence because most of the others had long finished (see
# models.parallel); its text is incomplete and a caller should treat it as no reply.
FinishReason = Literal["stop", "length", "cancelled", "cut"]


class ModelError(RuntimeError):
    """A model could not be found, verified, loaded or run; the message is for the user."""


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str


@dataclass(frozen=True)
class GenerationRequest:
    """One generation. Give `messages` for an instruct model (formatted with its chat template)
    or `prompt` for raw completion; `grammar` is GBNF text; `token_bias` biases every token whose
    text, leading whitespace removed, starts with a key (e.g. {"#": -2.0} discourages comments
    whatever the tokenizer's ids)."""

    messages: tuple[ChatMessage, ...] = ()
    prompt: str | None = None
    max_tokens: int = 512
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None
    stop: tuple[str, ...] = ()
    grammar: str | None = None
    stop_after_code_block: bool = False  # end once a program has arrived (models.fences): every model honours it
    # The reply is taken to begin with this text and the model continues it (only the continuation
    # is returned): a way to ask for the rest of one line without another instruction.
    assistant_prefix: str = ""
    token_bias: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.prompt is None) == (not self.messages):
            raise ValueError("give either messages or a prompt")
        if self.max_tokens < 1:
            raise ValueError("max_tokens must be positive")

    @staticmethod
    def chat(user: str, *, system: str | None = None, **options: object) -> GenerationRequest:
        messages = ((ChatMessage("system", system),) if system else ()) + (ChatMessage("user", user),)
        return GenerationRequest(messages=messages, **options)  # type: ignore[arg-type]

    def as_text(self) -> str:
        """The request as readable text (for logs and scripted models)."""
        if self.prompt is not None:
            return self.prompt + self.assistant_prefix
        turns = "\n\n".join(f"[{m.role}]\n{m.content}" for m in self.messages)
        return turns + (f"\n\n[assistant, continued]\n{self.assistant_prefix}" if self.assistant_prefix else "")


@dataclass(frozen=True)
class Generation:
    """The finished generation: text, token counts and timings."""

    text: str
    prompt_tokens: int
    cached_prompt_tokens: int  # of prompt_tokens, how many were reused from the KV cache
    completion_tokens: int
    prompt_eval_s: float  # until the first token was sampled
    decode_s: float  # the rest
    finish_reason: FinishReason

    @property
    def evaluated_prompt_tokens(self) -> int:
        return self.prompt_tokens - self.cached_prompt_tokens

    @property
    def tokens_per_s(self) -> float:
        """Decoding speed: the first token belongs to the prompt phase, so it is not counted."""
        decoded = self.completion_tokens - 1
        return decoded / self.decode_s if decoded > 0 and self.decode_s > 0 else 0.0


@dataclass(frozen=True)
class SequenceChunk:
    """Text of sequence `index` of a batch (the request at that position)."""

    index: int
    text: str


@dataclass(frozen=True)
class SequenceDone:
    """Sequence `index` of a batch has ended; the others may go on."""

    index: int
    generation: Generation


@dataclass(frozen=True)
class BatchSplit:
    """The context could not hold the requests' sequences at once: they are decoded in turns of
    `sizes` sequences (in request order), each turn after the one before."""

    sizes: tuple[int, ...]
    context_tokens: int


BatchEvent = SequenceChunk | SequenceDone | BatchSplit


@dataclass(frozen=True)
class Capabilities:
    """What a model declares it can do beyond streaming text (callers read this, never probe)."""

    batch: int = 1  # sequences its `generate_batch` decodes together (1: requests go one after another)
    grammar: bool = False  # it samples under a GBNF grammar (llama.cpp in-process or a llama.cpp server)
    token_bias: bool = False  # it biases tokens by their text (needs the model's own tokenizer)
    prompt_cache: bool = False  # it keeps prompts it has read, so one that starts the same is read faster


class LanguageModel(Protocol):
    """A model that streams text. `generate` yields text chunks, then the `Generation` last."""

    @property
    def name(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]: ...

    def cancel(self) -> None:
        """Stop the generation in flight (callable from another thread)."""
        ...

    def close(self) -> None:
        """Free what the model holds (memory, connections); it is not used afterwards."""
        ...


@runtime_checkable
class BatchingModel(LanguageModel, Protocol):
    """A model whose `capabilities.batch` > 1: it decodes several requests together."""

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]: ...


def complete(
    model: LanguageModel, request: GenerationRequest, on_text: Callable[[str], None] | None = None
) -> Generation:
    """Run a generation to its end, passing each text chunk to `on_text`."""
    for item in model.generate(request):
        if isinstance(item, Generation):
            return item
        if on_text is not None:
            on_text(item)
    raise ModelError(f"{model.name} ended a generation without a result")


def generate_batch(model: LanguageModel, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
    """Several requests at once: decoded together where the model can (`LocalModel` batches them
    in llama.cpp, `RemoteModel` sends them concurrently), else one after another."""
    if model.capabilities.batch > 1 and isinstance(model, BatchingModel):
        yield from model.generate_batch(requests)
        return
    for index, request in enumerate(requests):
        for item in model.generate(request):
            yield SequenceDone(index, item) if isinstance(item, Generation) else SequenceChunk(index, item)
