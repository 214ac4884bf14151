"""The llama.cpp client on the real embedded model (short prompts, greedy)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from models.local import LocalModel, ModelSettings, gpu_offload_supported
from models.parallel import PROMPT_CHUNK
from models.types import Generation, GenerationRequest, ModelError, complete

from .test_gguf_info import write_gguf


def test_streams_more_than_one_chunk(local_model: LocalModel) -> None:
    chunks: list[str] = []
    result = complete(local_model, GenerationRequest.chat("Count from 1 to 5.", max_tokens=24), chunks.append)
    assert len(chunks) > 1
    assert "".join(chunks) == result.text
    assert result.completion_tokens >= len(chunks) - 1
    assert result.prompt_tokens > 10 and result.decode_s > 0


def test_a_long_prompt_is_read_in_chunks_and_a_cancel_ends_the_reading(
    local_model: LocalModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Esc while the prompt is read: llama.cpp read a whole prompt at once (5 s for 512 tokens on
    2 cores); now it reads PROMPT_CHUNK tokens at a time and stops at the next chunk."""
    llama = local_model._llama
    read: list[int] = []
    evaluate = llama.eval

    def eval_and_cancel(tokens: list[int]) -> None:
        read.append(len(tokens))
        evaluate(tokens)
        if len(read) == 2:
            local_model.cancel()

    monkeypatch.setattr(llama, "eval", eval_and_cancel)
    local_model.clear_cache()
    question = "Olivia has $23 and buys five bagels for $3 each. " * 30
    result = complete(local_model, GenerationRequest.chat(question + "How much is left?", max_tokens=20))
    assert result.finish_reason == "cancelled" and result.text == ""
    assert read == [PROMPT_CHUNK, PROMPT_CHUNK] and result.prompt_tokens > 4 * PROMPT_CHUNK
    monkeypatch.undo()
    again = complete(local_model, GenerationRequest.chat("Say OK.", max_tokens=4))  # usable straight away
    assert again.finish_reason != "cancelled" and again.text


def test_chat_prompt_gets_a_fenced_program(local_model: LocalModel) -> None:
    result = complete(
        local_model, GenerationRequest.chat("Write a Python program that prints 5 + 2 * 3", max_tokens=70)
    )
    assert "```" in result.text
    assert "print" in result.text


def test_cancel_from_another_thread_stops_within_a_few_tokens(local_model: LocalModel) -> None:
    chunks: list[str] = []
    at_cancel: list[int] = []
    started = threading.Event()

    def on_text(text: str) -> None:
        chunks.append(text)
        if len(chunks) == 5:
            started.set()

    def cancel_later() -> None:
        started.wait(60)
        at_cancel.append(len(chunks))
        local_model.cancel()

    canceller = threading.Thread(target=cancel_later)
    canceller.start()
    request = GenerationRequest.chat("List the numbers from 1 to 300, one per line.", max_tokens=600)
    result = complete(local_model, request, on_text)
    canceller.join()
    assert result.finish_reason == "cancelled"
    assert len(chunks) - at_cancel[0] <= 3
    assert result.completion_tokens < 100
    # the model is usable straight away afterwards
    assert complete(local_model, GenerationRequest.chat("Say OK.", max_tokens=4)).finish_reason != "cancelled"


def test_shared_prefix_is_not_evaluated_again(local_model: LocalModel) -> None:
    facts = " ".join(f"Shelf {i} holds {i * 7 % 23} jars." for i in range(60))
    first = complete(local_model, GenerationRequest.chat(facts + "\nHow many jars does shelf 3 hold?", max_tokens=8))
    second = complete(local_model, GenerationRequest.chat(facts + "\nHow many jars does shelf 9 hold?", max_tokens=8))
    assert first.prompt_tokens > 600
    assert second.evaluated_prompt_tokens < 0.1 * first.evaluated_prompt_tokens
    assert second.prompt_eval_s < first.prompt_eval_s


def test_grammar_constrains_the_reply(local_model: LocalModel) -> None:
    request = GenerationRequest.chat("Is 7 a prime number?", grammar='root ::= "yes" | "no"', max_tokens=4)
    assert complete(local_model, request).text in ("yes", "no")


def test_raw_completion(local_model: LocalModel) -> None:
    result = complete(local_model, GenerationRequest(prompt="def add(a, b):\n    return", max_tokens=6, stop=("\n",)))
    assert "a + b" in result.text


def test_prompt_longer_than_the_context_is_refused(local_model: LocalModel) -> None:
    with pytest.raises(ModelError, match="context holds 4096"):
        complete(local_model, GenerationRequest.chat("word " * 5000, max_tokens=4))


def test_a_file_llama_cpp_cannot_load_gives_a_clear_error(tmp_path: Path) -> None:
    broken = write_gguf(tmp_path / "hollow.gguf")  # a known architecture but no real weights
    with pytest.raises(ModelError, match=r"llama\.cpp could not load hollow\.gguf"):
        LocalModel(ModelSettings(broken, n_ctx=256))


def test_reports_whether_gpu_offload_is_built_in() -> None:
    assert gpu_offload_supported() in (True, False)


def test_generation_result_fields() -> None:
    generation = Generation("x", 10, 4, 5, 0.5, 1.0, "stop")
    assert generation.evaluated_prompt_tokens == 6
    assert generation.tokens_per_s == 4.0


def test_the_model_stops_itself_once_the_program_has_arrived(local_model: LocalModel) -> None:
    request = GenerationRequest.chat(
        "Write a Python program that prints 5 + 2 * 3, then explain it in three paragraphs.",
        max_tokens=300, stop_after_code_block=True,
    )  # fmt: skip
    result = complete(local_model, request)
    assert "```" in result.text and result.text.rstrip().endswith("```"), result.text
    assert result.finish_reason == "stop" and result.completion_tokens < 120
