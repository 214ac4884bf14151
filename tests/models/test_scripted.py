from __future__ import annotations

import pytest

from models.testing import ScriptedModel
from models.types import Generation, GenerationRequest, ModelError, complete


def test_replies_in_order_and_records_prompts() -> None:
    model = ScriptedModel(["first", "second"])
    assert complete(model, GenerationRequest.chat("one")).text == "first"
    assert complete(model, GenerationRequest(prompt="two")).text == "second"
    assert model.calls == ["[user]\none", "two"]
    with pytest.raises(ModelError, match="no reply left"):
        complete(model, GenerationRequest.chat("three"))


def test_streams_in_chunks() -> None:
    chunks: list[str] = []
    result = complete(ScriptedModel(["abcdefg"], chunk_size=3), GenerationRequest.chat("q"), chunks.append)
    assert chunks == ["abc", "def", "g"]
    assert result.text == "abcdefg" and result.finish_reason == "stop"


def test_cancel_stops_the_stream() -> None:
    model = ScriptedModel(["abcdefg"], chunk_size=2)
    stream = model.generate(GenerationRequest.chat("q"))
    assert next(stream) == "ab"
    model.cancel()
    final = next(item for item in stream if isinstance(item, Generation))
    assert final.text == "ab" and final.finish_reason == "cancelled"


def test_request_validation() -> None:
    with pytest.raises(ValueError):
        GenerationRequest()
    with pytest.raises(ValueError):
        GenerationRequest(prompt="x", max_tokens=0)


def test_every_model_stops_once_a_program_has_arrived() -> None:
    """The one rule (models.fences) as the scripted model honours it: not at a text block, not at
    an empty one, at the first closed Python block with code."""
    from models.fences import program_arrived

    assert not program_arrived("```text\nhello\n```\n") and not program_arrived("```python\n\n```")
    assert not program_arrived("```python\nprint(1)\n") and program_arrived("Here:\n```\nprint(1)\n```")
    reply = "```python\nprint(1)\n```\nThis prints one. " + "More words. " * 40
    model = ScriptedModel([reply, reply], chunk_size=4)
    stopped = complete(model, GenerationRequest.chat("q", stop_after_code_block=True))
    assert stopped.text.startswith("```python\nprint(1)\n```") and len(stopped.text) < 30
    assert stopped.finish_reason == "stop"
    assert complete(model, GenerationRequest.chat("q")).text == reply  # not asked: the whole reply
