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
