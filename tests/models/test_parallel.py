"""Batched decoding on the real embedded model: distinct samples per seed, each sequence ending
on its own, the prompt's cells reused, cancel mid-batch, and the model usable afterwards."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from models.parallel import batch_gain, turns
from models.types import BatchSplit, GenerationRequest, SequenceChunk, SequenceDone, complete, generate_batch

PROMPT = "Write a Python program that prints the sum of the numbers from 1 to 10. Reply with one code block."


def _request(**options: Any) -> GenerationRequest:
    settings: dict[str, Any] = {"max_tokens": 60, "stop_after_code_block": True, **options}
    return GenerationRequest.chat(PROMPT, **settings)


def _run(model: LocalModel, requests: list[GenerationRequest]) -> tuple[dict[int, str], dict[int, SequenceDone]]:
    texts: dict[int, str] = {i: "" for i in range(len(requests))}
    done: dict[int, SequenceDone] = {}
    for event in generate_batch(model, requests):
        if isinstance(event, SequenceChunk):
            assert event.index not in done, "text after the sequence ended"
            texts[event.index] += event.text
        elif isinstance(event, SequenceDone):
            done[event.index] = event
    return texts, done


def test_three_seeds_three_samples_each_ending_on_its_own(local_model: LocalModel) -> None:
    requests = [_request(temperature=1.0, top_p=0.95, seed=seed) for seed in (11, 22, 33)]
    texts, done = _run(local_model, requests)
    assert sorted(done) == [0, 1, 2]
    for index, event in done.items():
        assert event.generation.text == texts[index]  # the streamed chunks add up to the result
        # "cut": a sample rambling far past its siblings ends early (models.parallel's straggler rule)
        assert event.generation.finish_reason in ("stop", "length", "cut")
        if event.generation.finish_reason == "stop":
            assert event.generation.text.rstrip().endswith("```")  # ended at its own closing fence
    assert len(set(texts.values())) >= 2, texts  # distinct seeds, distinct samples
    _again, done_again = _run(local_model, requests[:1])
    assert done_again[0].generation.cached_prompt_tokens > 0  # the prompt's cells were kept


def test_greedy_sequences_in_one_batch_agree(local_model: LocalModel) -> None:
    texts, _done = _run(local_model, [_request(), _request()])
    assert texts[0] == texts[1] and "```" in texts[0]


def test_cancel_stops_every_sequence_and_the_model_goes_on(local_model: LocalModel) -> None:
    requests = [_request(temperature=0.8, seed=seed, max_tokens=200, stop_after_code_block=False) for seed in (1, 2, 3)]
    finishes: dict[int, str] = {}
    chunks = 0
    for event in generate_batch(local_model, requests):
        if isinstance(event, SequenceChunk):
            chunks += 1
            if chunks == 6:
                threading.Thread(target=local_model.cancel).start()
        elif isinstance(event, SequenceDone):
            finishes[event.index] = event.generation.finish_reason
    assert finishes == {0: "cancelled", 1: "cancelled", 2: "cancelled"}
    after = complete(local_model, GenerationRequest.chat("Say OK.", max_tokens=8))
    assert after.finish_reason in ("stop", "length") and after.text.strip()


def test_different_prompts_side_by_side_keep_their_prefixes_and_prose_is_not_cut_for_programs(
    local_model: LocalModel,
) -> None:
    """A mixed vote decodes chain of thought beside two programs: the prose runs longer than the
    programs, which is no reason to cut it (only samples of one prompt are compared)."""
    prose = GenerationRequest.chat("Count from one to thirty in English words, separated by commas.", max_tokens=90)
    texts, done = _run(local_model, [prose, _request(), _request()])
    program_tokens = max(done[i].generation.completion_tokens for i in (1, 2))
    assert done[0].generation.finish_reason in ("stop", "length"), texts[0]
    assert done[0].generation.completion_tokens > 1.5 * program_tokens + 16  # where a straggler would be cut
    _again, done_again = _run(local_model, [replace(prose, max_tokens=4), _request(max_tokens=4)])
    assert all(done_again[i].generation.cached_prompt_tokens > 0 for i in (0, 1))  # each prompt's cells were kept


def test_a_vote_between_two_mixed_batches_evicts_none_of_their_prompts(local_model: LocalModel) -> None:
    """Every sequence id holds an older, longer prompt; then three methods' prompts side by side,
    five samples of a fourth prompt, and the three again: each of the three finds all of itself in
    the cache (the vote's samples took the ids used longest ago, not the shortest kept prompts)."""
    older = [  # longer than the three below, so a rule that evicts the least cells would pick the three
        GenerationRequest.chat(f"Story {number}: " + "a long and winding tale about nothing much, " * 6, max_tokens=1)
        for number in range(local_model.capabilities.batch)
    ]
    mixed = [  # each past the chat template's shared opening, like the methods' few-shot prompts
        GenerationRequest.chat(f"{topic} Answer in one short sentence, plainly, for a pupil of ten.", max_tokens=4)
        for topic in ("Why is the sky blue?", "What is a prime number?", "Name a river in Europe.")
    ]
    vote = [_request(temperature=0.8, seed=seed, max_tokens=4) for seed in range(1, 6)]
    _run(local_model, older)
    _run(local_model, mixed)
    _texts, done_vote = _run(local_model, vote)
    _texts, done_mixed = _run(local_model, mixed)
    for event in done_mixed.values():
        generation = event.generation
        assert generation.cached_prompt_tokens == generation.prompt_tokens - 1, generation
    _texts, done_vote_again = _run(local_model, vote)
    assert done_vote_again[0].generation.cached_prompt_tokens == done_vote[0].generation.prompt_tokens - 1


@pytest.fixture(scope="module")
def small_model() -> Iterator[LocalModel]:
    """The embedded model in a 512-token context, where room runs out quickly."""
    model = LocalModel(ModelSettings(ensure_embedded(), n_ctx=512, n_threads=2))
    yield model
    model.close()


def test_kept_prompts_give_way_before_a_sequence_runs_out_of_room(small_model: LocalModel) -> None:
    """In a small context, three kept prompts plus a five-sample vote would not fit: the kept
    prompts are dropped rather than any sample ending early for want of room."""
    model = small_model
    _texts, first = _run(
        model, [GenerationRequest.chat(f"Say {word}.", max_tokens=2) for word in ("yes", "no", "maybe")]
    )
    kept = sum(event.generation.prompt_tokens for event in first.values())
    count = GenerationRequest.chat("Count from 1 to 300, separated by commas.", max_tokens=90)
    _texts, done = _run(model, [count] * 5)  # greedy: none stops on its own before its limit
    assert (512 - kept - done[0].generation.prompt_tokens) // 5 < 90  # with them kept, no sample could finish
    assert [event.generation.completion_tokens for event in done.values()] == [90] * 5


def test_prompts_the_context_cannot_hold_together_are_decoded_in_turns(small_model: LocalModel) -> None:
    """A long question asked by three methods: their prompts do not fit 512 tokens together, so
    they are decoded in turns, announced first, and each reply has room to its own limit."""
    requests = [
        GenerationRequest.chat(
            " ".join(f"Box {i} holds {i * k % 17} pens." for i in range(20)) + " How many pens does box 4 hold?",
            max_tokens=16,
        )
        for k in (3, 5, 7)
    ]
    events = list(generate_batch(small_model, requests))
    split = events[0]
    assert isinstance(split, BatchSplit) and split.context_tokens == 512
    assert sum(split.sizes) == 3 and len(split.sizes) > 1
    done = {event.index: event.generation for event in events if isinstance(event, SequenceDone)}
    assert sorted(done) == [0, 1, 2]
    assert sum(generation.prompt_tokens for generation in done.values()) > 512  # they could not share one batch
    for generation in done.values():  # each ends on its own or at its own limit, none for want of room
        assert generation.finish_reason == "stop" or generation.completion_tokens == 16, generation
        assert generation.text.strip()


def test_turns_hold_each_prompt_once_and_room_for_every_reply() -> None:
    same = [[1] * 100] * 5
    assert turns(same, [60] * 5, 512) == [[0, 1, 2, 3, 4]]  # one prompt, five replies of 60
    distinct = [[i] * 200 for i in range(3)]
    assert turns(distinct, [40] * 3, 512) == [[0, 1], [2]]  # 200 + 200 + 2 × 40 fits, a third does not
    assert turns(distinct, [768] * 3, 512) == [[0], [1], [2]]  # a program's limit counts as 256
    assert turns([[1] * 600, [2] * 10], [40, 40], 512) == [[0], [1]]  # too long alone: a turn of its own
    assert turns([[1] * 10] * 10, [8] * 10, 4096) == [list(range(8)), [8, 9]]  # at most 8 sequences a turn


def test_the_gain_of_a_batch_is_measured_from_its_decode_steps(local_model: LocalModel) -> None:
    """How much faster several sequences decode in all than one: it differs by computer (2.4 for
    four on one development machine, 1.1 on another), so the vote asks the model, not a constant."""
    _run(local_model, [_request(max_tokens=20, stop_after_code_block=False)])
    _run(
        local_model,
        [_request(max_tokens=20, temperature=1.0, seed=seed, stop_after_code_block=False) for seed in (1, 2)],
    )
    gain = local_model.batch_gain()
    assert gain is not None and 0.5 < gain < 4
    paired = local_model.batch_gain(2)  # two were timed just now (the most, in an earlier test, may be more)
    assert paired is not None and 0.5 < paired < 4


def test_a_gain_needs_enough_steps_of_one_and_of_several() -> None:
    assert batch_gain({1: [0.07] * 8, 4: [0.116] * 8}) == pytest.approx(4 * 0.07 / 0.116)
    most_timed_enough = {1: [0.07] * 8, 2: [0.1] * 8, 4: [0.116] * 7}
    assert batch_gain(most_timed_enough) == pytest.approx(2 * 0.07 / 0.1)
    assert batch_gain({1: [0.07] * 7, 4: [0.116] * 8}) is None and batch_gain({1: [0.07] * 8}) is None
    assert batch_gain({1: [0.06] * 4 + [5.0] * 3 + [0.06], 3: [0.15] * 8}) == pytest.approx(3 * 0.06 / 0.15)  # a median


def test_the_gain_of_so_many_sequences_where_that_many_were_timed() -> None:
    """A mixed vote's first round is two sequences: their gain, not four's, decides whether they pair."""
    steps = {1: [0.07] * 8, 2: [0.1] * 8, 4: [0.116] * 8}
    assert batch_gain(steps, 2) == pytest.approx(2 * 0.07 / 0.1)
    assert batch_gain(steps) == batch_gain(steps, 4) == pytest.approx(4 * 0.07 / 0.116)  # the most timed
    assert batch_gain(steps, 3) is None and batch_gain({1: [0.07] * 8, 2: [0.1] * 7}, 2) is None  # not timed (enough)
