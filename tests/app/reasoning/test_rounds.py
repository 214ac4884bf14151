"""Votes in rounds: early agreement ends a vote, a round's samples come from one batch, a batch's
sequences end on their own, cancel stops them all (ScriptedModel; the real sandbox runs programs)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest

from app.reasoning.events import FirstAnswer, LaneFinished, LaneStreamed, LanesWaiting, ModelStarted, VoteStarted
from app.reasoning.methods import solve
from app.reasoning.rounds import RoundModel, first_request, settled
from app.reasoning.session import CancelToken
from app.reasoning.solution import Solution, SolveStatus, Vote
from models.testing import ScriptedModel
from models.types import BatchEvent, Capabilities, Generation, GenerationRequest, SequenceChunk, SequenceDone
from sandbox import Sandbox

from .test_methods import FAILS, pal, pot


@pytest.mark.parametrize(
    ("counts", "remaining", "expected"),
    [
        ([3], 2, True),  # three of five agree: the other two cannot catch up
        ([2], 3, False),
        ([2, 1], 2, False),  # the runner-up can still reach 3
        ([3, 1], 1, True),
        ([2, 2], 0, False),  # a tie stays a tie
        ([], 5, False),  # nothing answered yet
        ([1], 0, True),
    ],
)
def test_settled(counts: list[int], remaining: int, expected: bool) -> None:
    assert settled(counts, remaining) is expected


def test_rounds_are_as_large_as_the_model_decodes_together() -> None:
    assert RoundModel(ScriptedModel([], parallel=8, gain=1.0), CancelToken()).rounds([1, 2, 3, 4, 5]) == [
        [1, 2, 3, 4, 5]
    ]
    assert RoundModel(ScriptedModel([], parallel=4), CancelToken()).rounds([1, 2, 3, 4, 5]) == [[1, 2, 3, 4], [5]]
    assert RoundModel(ScriptedModel([]), CancelToken()).rounds([1, 2, 3]) == [[1, 2, 3]]  # one by one


def test_three_agreeing_samples_end_a_vote_of_five(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("3 * 4"), pal("12"), pal("6 + 6"), pal("99"), pal("99")])
    solution = solve("q", "sc-pal", model, sandbox)
    assert solution.answer == "12"
    assert solution.votes == (Vote("12", 3),)
    assert solution.samples == 3 and len(model.requests) == 3  # the last two were never asked for
    assert _confidence(solution) == {
        "text": "3 of 3 programs agree",
        "value": 1.0,
        "confident": True,
        "level": "programs",
    }


def test_disagreement_draws_every_sample(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), pal("10"), pal("12"), pal("10"), pal("7")])
    solution = solve("q", "sc-pal", model, sandbox)
    assert len(model.requests) == 5
    assert solution.votes == (Vote("12", 2), Vote("10", 2), Vote("7", 1))
    assert _confidence(solution) == {
        "text": "two answers tied: 12 (2) and 10 (2)",
        "value": 0.4,
        "confident": False,
        "level": "programs, split",
    }


def test_a_vote_is_one_batch_on_a_batching_model_and_uses_every_sample(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), pal("12"), pal("12"), pal("10"), pal("7")], parallel=8, chunk_size=4)
    solution = solve("q", "sc-pal", model, sandbox)
    assert model.batches == [5]
    assert [r.seed for r in model.requests] == [1, 2, 3, 4, 5]
    assert solution.votes == (Vote("12", 3), Vote("10", 1), Vote("7", 1))  # settled after three, all five count
    assert solution.samples == 5 and len(solution.programs) == 5


def test_rounds_beyond_the_batch_size_stop_once_settled(sandbox: Sandbox) -> None:
    settles = ScriptedModel([pal("4")] * 4 + [pal("9")] * 2, parallel=2)
    solution = solve("q", "sc6-pal", settles, sandbox)
    assert settles.batches == [2, 2]  # 4 votes to none with two to go
    assert solution.samples == 4 and solution.votes == (Vote("4", 4),)
    stays_open = ScriptedModel([pal("4"), pal("4"), pal("4"), pal("5"), pal("9"), pal("9")], parallel=2)
    solution = solve("q", "sc6-pal", stays_open, sandbox)
    assert stays_open.batches == [2, 2, 2]  # 3 to 1 with two to go: the runner-up could still tie
    assert solution.votes == (Vote("4", 3), Vote("9", 2), Vote("5", 1))


def test_one_sample_stopping_early_does_not_stop_the_batch(sandbox: Sandbox) -> None:
    """A session that has its program asks the model to stop; in a batch that must not end the
    other sequences (each stops at its own closing fence)."""
    tail = "\nThis program prints its answer." * 20
    model = ScriptedModel([pal("5"), pal("6") + tail, pal("5") + tail], parallel=8, chunk_size=3, gain=1.0)
    solution = solve("q", "sc3-pal", model, sandbox)
    assert solution.votes == (Vote("5", 2), Vote("6", 1))
    # each sequence stopped at its own closing fence (within the 3-character chunk that held it), none cut short
    assert [call.reply[: len(pal(v))] for call, v in zip(solution.calls, "565", strict=True)] == [pal(v) for v in "565"]
    assert all(len(call.reply) < len(pal("5")) + 3 for call in solution.calls)


def test_cancel_during_a_batch_stops_every_sequence(sandbox: Sandbox) -> None:
    cancel = CancelToken()
    model = ScriptedModel([pal("1")] * 5, parallel=8, chunk_size=1, chunk_delay_s=0.05)
    threading.Timer(0.2, cancel.cancel).start()
    solution = solve("q", "sc-pal", model, sandbox, cancel=cancel)
    assert solution.status is SolveStatus.CANCELLED
    assert model.batches == [5]
    assert solution.answer is None


def test_every_sample_failing_says_so(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILS] * 5, parallel=8, gain=1.0)  # one batch of five, every program failing
    solution = solve("q", "sc-pal", model, sandbox)
    assert not solution.answered and solution.votes == ()
    assert _confidence(solution) == {"text": "every program failed", "value": 0.0, "confident": False, "level": "none"}


def test_a_single_program_is_not_cross_checked(sandbox: Sandbox) -> None:
    solution = solve("q", "pal", ScriptedModel([pal("2")]), sandbox)
    confidence = _confidence(solution)
    assert confidence == {
        "text": "one program, not cross-checked",
        "value": None,
        "confident": False,
        "level": "one program",
    }


def _confidence(solution: Solution) -> dict[str, object]:
    """The support as `ask --json` gives it, without the words and figure of its level (test_support)."""
    data = solution.to_json()["confidence"]
    assert set(data) == {"text", "value", "confident", "level", "words", "measured"}
    return {key: data[key] for key in ("text", "value", "confident", "level")}


class _CutsTheLast:
    """A batching model whose last sequence is cut short mid-program, as a straggler would be."""

    name = "cuts"
    capabilities = Capabilities(batch=8)

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        raise AssertionError("every request of the vote comes in the batch")

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
        for index, _request in enumerate(requests):
            text = self.replies[index]
            cut = index == len(requests) - 1
            yield SequenceChunk(index, text)
            yield SequenceDone(index, Generation(text, 1, 0, 1, 0.0, 0.0, "cut" if cut else "stop"))

    def cancel(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_sample_cut_short_counts_as_a_failure_not_a_partial_program(sandbox: Sandbox) -> None:
    partial = "```python\nx = 7\nprint(x)\ny = x * 100\n"  # cut mid-program: running it would print 7
    model = _CutsTheLast([pal("700"), pal("5"), pal("700"), pal("5"), partial])  # 2 : 2, the cut one decides
    solution = solve("q", "sc-pal", model, sandbox)
    assert solution.votes == (Vote("700", 2), Vote("5", 2))
    assert solution.samples == 5 and len(solution.programs) == 4  # the cut sample ran nothing


def test_a_vote_decoded_in_turns_says_so_and_counts_every_sample(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("3"), pal("3"), pal("4"), pal("3"), pal("5")], parallel=8, holds=4)
    events: list[object] = []
    solution = solve("q", "sc-pal", model, sandbox, on_event=events.append)
    assert solution.votes == (Vote("3", 3), Vote("4", 1), Vote("5", 1)) and model.batches == [5]
    assert solution.notes == (
        "the question is long: the model's context (4096 tokens) held 4 of the 5 solves at once, "
        "so they were decoded in 2 turns, one after another",
    )
    assert [e for e in events if isinstance(e, LanesWaiting)] == [
        LanesWaiting((4,), "waiting for room in the model's context…")
    ]
    assert solve("q", "sc-pal", ScriptedModel([pal("3")] * 5, parallel=8, gain=1.0), sandbox).notes == ()
    in_rounds = ScriptedModel([pal("3")] * 8, parallel=4, holds=3)  # two rounds of 4, each in turns of 3 and 1
    assert len(solve("q", "sc8-pal", in_rounds, sandbox).notes) == 1 and in_rounds.batches == [4, 4]


def _request(seed: int, prompt: str = "q") -> GenerationRequest:
    return GenerationRequest(prompt=prompt, max_tokens=64, seed=seed)


def _texts(stream: Iterator[str | Generation]) -> tuple[str, Generation]:
    items = list(stream)
    final = items[-1]
    assert isinstance(final, Generation) and all(isinstance(item, str) for item in items[:-1])
    return "".join(item for item in items[:-1] if isinstance(item, str)), final


def test_a_round_streams_its_own_sample_and_keeps_the_others_for_their_turn() -> None:
    model = ScriptedModel(["one", "two", "three"], parallel=8, chunk_size=1)
    rounds = RoundModel(model, CancelToken())
    rounds.start_round([_request(1), _request(2), _request(3)])
    assert _texts(rounds.generate(_request(1))) == ("one", Generation("one", 1, 0, 1, 0.0, 0.0, "stop"))
    assert _texts(rounds.generate(_request(3)))[0] == "three"
    assert _texts(rounds.generate(_request(2)))[0] == "two"
    assert model.batches == [3]


def test_a_different_request_in_a_round_goes_to_the_model() -> None:
    """A repair asked by a later sample is not served the kept program of the first request."""
    model = ScriptedModel(["one", "two", "repair"], parallel=8, gain=1.0)
    rounds = RoundModel(model, CancelToken())
    rounds.start_round([_request(1), _request(2)])
    list(rounds.generate(_request(1)))
    assert _texts(rounds.generate(_request(2, prompt="fix it")))[0] == "repair"
    assert _texts(rounds.generate(_request(2)))[0] == "two"
    rounds.start_round([_request(3)])  # a new round forgets what the last one kept
    with pytest.raises(Exception, match="no reply left"):
        list(rounds.generate(_request(2)))


def test_a_cut_sample_is_kept_without_its_text() -> None:
    model = _CutsTheLast(["first", "cut mid-program"])
    rounds = RoundModel(model, CancelToken())
    rounds.start_round([_request(1), _request(2)])
    list(rounds.generate(_request(1)))
    assert [*rounds.generate(_request(2))] == [Generation("", 1, 0, 1, 0.0, 0.0, "cut")]


class _StopsItself(ScriptedModel):
    """A batching model whose sequences ask the round model to stop as they start, as a session
    that has its program does; counts the stops that reach it."""

    def __init__(self, replies: list[str]) -> None:
        super().__init__(replies, parallel=8, gain=1.0)
        self.cancels = 0
        self.rounds: RoundModel | None = None

    def cancel(self) -> None:
        self.cancels += 1
        super().cancel()

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        if self.rounds is not None:
            self.rounds.cancel()
        yield from super().generate(request)


def _one_batch(token: CancelToken) -> tuple[_StopsItself, RoundModel]:
    model = _StopsItself(["a", "b"])
    model.rounds = rounds = RoundModel(model, token)
    rounds.start_round([_request(1), _request(2)])
    list(rounds.generate(_request(1)))
    return model, rounds


def test_only_the_users_cancel_stops_a_batch() -> None:
    fresh = _StopsItself([])
    RoundModel(fresh, CancelToken()).cancel()
    assert fresh.cancels == 1  # no batch yet: passed on
    model, rounds = _one_batch(CancelToken())
    assert model.cancels == 0  # in the batch, a session's own stop is not passed on
    rounds.cancel()
    assert model.cancels == 1  # after the batch it is
    cancelled = CancelToken()
    cancelled.cancel()
    model, _rounds = _one_batch(cancelled)
    assert model.cancels == 2  # the user's cancel reaches the model mid-batch


def test_the_round_model_says_whether_the_model_takes_a_grammar() -> None:
    assert RoundModel(ScriptedModel([], grammar=True), CancelToken()).capabilities.grammar is True
    assert RoundModel(ScriptedModel([], grammar=False), CancelToken()).capabilities.grammar is False


def test_a_rehearsal_learns_the_first_request_and_sends_nothing(sandbox: Sandbox) -> None:
    model = ScriptedModel([], grammar=False)
    asked = first_request(lambda m: solve("What is 2 + 3?", "pot+grammar", m, sandbox), model)
    assert asked is not None and "What is 2 + 3?" in asked.as_text()
    assert asked.grammar is None  # chosen as for the model it stands in for, which takes no grammar
    assert model.requests == []
    with_grammar = first_request(lambda m: solve("What is 2 + 3?", "pot+grammar", m, sandbox), ScriptedModel([]))
    assert with_grammar is not None and with_grammar.grammar
    assert first_request(lambda m: solve("   ", "pal", m, sandbox), model) is None  # an empty question asks nothing


def test_a_mixed_vote_asks_nothing_it_did_not_foresee(sandbox: Sandbox) -> None:
    """PoT without `ans` asks for the missing line: that goes to the model as a request of its own."""
    no_ans = "```python\nx = 12\nprint(x)\n```"
    model = ScriptedModel([pal("13"), "Answer: 12", no_ans, " x", "Answer: 12", "Answer: 13"], parallel=8, gain=1.0)
    solution = solve("q", "mix", model, sandbox)
    assert model.batches == [1, 1, 1, 2] and len(model.requests) == 6  # then two chains of thought, together
    assert [s.answer for s in solution.sampled] == ["13", "12", "12", "12", "13"] and solution.answer == "12"


def test_once_chain_of_thought_and_pal_agree_pot_is_not_asked(sandbox: Sandbox) -> None:
    """The vote is settled and confident: PoT (and its request for an `ans` line, 50 s on a long
    question) would only cost time, so it is not asked and its lane says it was not needed."""
    model = ScriptedModel([pal("12"), "Answer: 12", "never asked"], parallel=8, gain=1.0)
    events: list[object] = []
    solution = solve("q", "mix", model, sandbox, on_event=events.append)
    assert model.batches == [1, 1] and len(model.requests) == 2
    assert solution.answer == "12" and solution.confidence.confident and solution.samples == 2
    assert [(e.lane, e.needed) for e in events if isinstance(e, LaneFinished)] == [(0, True), (1, True), (2, False)]
    waiting = [(e.lanes, e.reason, e.for_room) for e in events if isinstance(e, LanesWaiting)]
    assert waiting == [
        ((1,), "waits for the first answer, then checks it", False),
        ((2,), "runs only if the others disagree", False),
    ]


def test_where_two_decode_fast_enough_together_pal_and_chain_of_thought_are_one_batch(sandbox: Sandbox) -> None:
    """Paired, PAL's answer is still shown first, while chain of thought writes on, and the vote
    is the one they give one after another; below FIRST_ROUND_PAYS (1.4, the least measured on a
    2-core machine, where PAL's answer came at 1.18-1.39 × its time alone in all) they take turns,
    while PoT's batch still pays."""
    long_chain = "A step of reasoning.\n" * 30 + "Answer: 13"
    replies = [pal("13"), long_chain, pot("12"), "Answer: 13", "Answer: 13", "Answer: 12"]
    paired = ScriptedModel(replies, parallel=8, chunk_size=3, gain=1.45)
    events: list[object] = []
    together = solve("q", "mix", paired, sandbox, on_event=events.append)
    assert paired.batches == [2] and together.answer == "13" and together.confidence.confident
    first = next(i for i, e in enumerate(events) if isinstance(e, FirstAnswer))
    assert events[first] == FirstAnswer(0, "PAL", "13")
    assert any(isinstance(e, LaneStreamed) and e.lane == 1 for e in events[first:])  # chain of thought goes on
    waiting = [(e.lanes, e.reason) for e in events if isinstance(e, LanesWaiting)]
    assert waiting == [((2,), "runs only if the others disagree")]
    in_turn = ScriptedModel(replies, parallel=8, gain=1.3)
    assert solve("q", "mix", in_turn, sandbox).votes == together.votes and in_turn.batches == [1, 1]
    disputed = [pal("14"), *replies[1:]]
    in_turn = ScriptedModel(disputed, parallel=8, gain=1.3)
    assert solve("q", "mix", in_turn, sandbox).samples == 6 and in_turn.batches == [1, 1, 4]


def test_where_batches_pay_the_second_rounds_chains_decode_in_pots_batch(sandbox: Sandbox) -> None:
    """A second round follows wherever PoT is asked (numbers not large): where batches pay, all
    the chains it may need decode beside PoT (four sequences for the time of 1.7 on one machine:
    docs/results.md), announced as they begin, running on although PoT settles the winner."""
    replies = [pal("13"), "Answer: 12", pot("14"), "Answer: 13", "Answer: 13", "Answer: 12"]
    model = ScriptedModel(replies, parallel=8, chunk_size=3)  # no gain measured yet: batches pay
    events: list[object] = []
    solution = solve("q", "mix", model, sandbox, on_event=events.append)
    assert model.batches == [1, 1, 4] and len(model.requests) == 6  # a three-way tie: all three count
    assert solution.answer == "13" and solution.votes[0].count == 3 and solution.samples == 6
    names, texts, _ends = _lanes(events)
    assert names[3:] == [f"Chain of thought sample {n} of 3" for n in (1, 2, 3)] and texts[5] == "Answer: 12"
    joined = next(i for i, e in enumerate(events) if isinstance(e, VoteStarted) and e.first_lane == 3)
    pot_done = next(i for i, e in enumerate(events) if isinstance(e, LaneFinished) and e.lane == 2)
    chains_streamed = [i for i, e in enumerate(events) if isinstance(e, LaneStreamed) and e.lane >= 3]
    assert joined < chains_streamed[0] < pot_done  # announced, then decoded together with PoT


def test_in_a_batch_each_solve_shows_its_answer_as_its_sequence_ends(sandbox: Sandbox) -> None:
    """Seen in the window: "PoT …" over PoT's finished program for half a minute, until the longest
    chain beside it had ended. Its answer shows (once) as its sequence ends."""
    long = "A step of reasoning.\n" * 30 + "Answer: 13"
    replies = [pal("13"), "Answer: 12", pot("14"), long, long, long.replace("13", "12")]
    events: list[object] = []
    solution = solve("q", "mix", ScriptedModel(replies, parallel=8, chunk_size=3), sandbox, on_event=events.append)
    finished = [(i, e.lane, e.answer) for i, e in enumerate(events) if isinstance(e, LaneFinished)]
    pot_done = next(i for i, lane, answer in finished if lane == 2 and answer == "14")
    last_chain_text = max(i for i, e in enumerate(events) if isinstance(e, LaneStreamed) and e.lane >= 3)
    assert pot_done < last_chain_text
    assert [lane for _i, lane, _answer in finished] == [0, 1, 2, 3, 4, 5]  # each lane once
    assert solution.answer == "13" and solution.samples == 6


def test_a_chain_decoded_with_pot_but_not_needed_is_not_counted_and_says_so(sandbox: Sandbox) -> None:
    """PoT agrees with PAL: two chains can take the answer to four votes, as where batches do not
    pay; the third, decoded beside them, is not counted (the vote is the same on every machine)."""
    replies = [pal("13"), "Answer: 12", pot("13"), "Answer: 13", "Answer: 13", "Answer: 12"]
    events: list[object] = []
    paying = solve("q", "mix", ScriptedModel(replies, parallel=8, gain=2.4), sandbox, on_event=events.append)
    assert paying.votes == (Vote("13", 4), Vote("12", 1)) and paying.confidence.confident and paying.samples == 5
    assert [s.label for s in paying.sampled][3:] == [f"Chain of thought sample {n} of 3" for n in (1, 2)]  # as shown
    assert [(e.lane, e.needed) for e in events if isinstance(e, LaneFinished)][-1] == (5, False)
    one_by_one = ScriptedModel(replies, parallel=8, gain=1.1)  # measured: batches do not pay here
    alone = solve("q", "mix", one_by_one, sandbox)
    assert one_by_one.batches == [1, 1, 1, 2] and (alone.answer, alone.votes, alone.samples) == ("13", paying.votes, 5)


def test_chains_decoded_with_pot_for_nothing_say_they_were_not_needed(sandbox: Sandbox) -> None:
    """A cancel during PoT's batch ends the vote: the chains' columns say they were not needed."""
    token = CancelToken()
    model = ScriptedModel([pal("13"), "Answer: 12", pot("13"), *["Answer: 13"] * 3], parallel=8, chunk_size=2)
    events: list[object] = []

    def heard(event: object) -> None:
        events.append(event)
        if isinstance(event, LaneStreamed) and event.lane == 4:
            token.cancel()

    solution = solve("q", "mix", model, sandbox, on_event=heard, cancel=token)
    assert solution.status is SolveStatus.CANCELLED and model.batches == [1, 1, 4]
    ends = [(e.lane, e.needed) for e in events if isinstance(e, LaneFinished)]
    assert ends[-3:] == [(3, False), (4, False), (5, False)]


def test_a_pot_lost_to_a_failed_batch_leaves_pal_and_chain_of_thought_to_vote(sandbox: Sandbox) -> None:
    """The model fails in PoT's batch (here: it has no replies for the chains): PoT's failure is
    said, PAL's and chain of thought's answers are voted on (a tie: chain of thought's)."""
    solution = solve("q", "mix", ScriptedModel([pal("13"), "Answer: 12", pot("13")], parallel=8), sandbox)
    assert solution.answer == "12" and solution.samples == 2
    assert any(note.startswith("PoT could not run (") for note in solution.notes)
    assert any("a second round could not run" in note for note in solution.notes)


def test_an_answer_already_decoded_still_counts_once_the_vote_is_settled(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), pal("12"), pal("12")], parallel=8, gain=1.0)
    solution = solve("q", "sc3-pal", model, sandbox)
    assert solution.votes == (Vote("12", 3),)


def test_sequences_that_cannot_change_the_vote_stop_decoding(sandbox: Sandbox) -> None:
    """Two of three programs agree while the third still writes: its sequence stops there."""
    long_pal = pal("12") + "\n" + "# more words " * 200
    model = ScriptedModel([pal("12"), pal("12"), long_pal], parallel=8, chunk_size=4)
    events: list[object] = []
    solution = solve("q", "sc3-pal", model, sandbox, on_event=events.append)
    streamed = sum(len(e.text) for e in events if isinstance(e, LaneStreamed) and e.lane == 2)
    assert streamed < len(long_pal) // 2  # stopped long before its end
    assert solution.answer == "12" and solution.samples == 2
    assert [(e.lane, e.needed) for e in events if isinstance(e, LaneFinished)][-1] == (2, False)


def test_the_first_answer_is_reported_while_the_batch_still_decodes(sandbox: Sandbox) -> None:
    long_pal = pal("12").replace("print", "# a long comment " * 50 + "\nprint")
    model = ScriptedModel([pal("12"), long_pal, pal("13")], parallel=8, chunk_size=4)
    events: list[object] = []
    solve("q", "sc3-pal", model, sandbox, on_event=events.append)
    first = next(i for i, e in enumerate(events) if isinstance(e, FirstAnswer))
    assert events[first] == FirstAnswer(0, "Program 1 of 3", "12")
    assert any(isinstance(e, LaneStreamed) and e.lane == 1 for e in events[first:])  # the second was still writing
    assert sum(isinstance(e, FirstAnswer) for e in events) == 1


def _lanes(events: list[object]) -> tuple[list[str], dict[int, str], list[tuple[int, str | None]]]:
    """A vote's reported lanes: their names, each lane's text, the solves' ends in order."""
    started = [e for e in events if isinstance(e, VoteStarted)]
    assert len({e.first_lane for e in started}) == len(started)  # each round announced once
    names = [label for e in started for label in e.lanes]
    texts: dict[int, str] = {}
    for e in events:
        if isinstance(e, LaneStreamed):
            texts[e.lane] = texts.get(e.lane, "") + e.text
    ends = [(e.lane, e.answer) for e in events if isinstance(e, LaneFinished)]
    return names, texts, ends


def test_a_mixed_vote_reports_each_methods_text_in_its_own_lane_once(sandbox: Sandbox) -> None:
    """Each solve's text reaches its lane as it decodes, a reply is not reported twice, and PoT's
    request for its `ans` line lands in PoT's lane."""
    no_ans = "```python\nx = 12\nprint(x)\n```"
    replies = [pal("13"), "Twelve.\nAnswer: 12", no_ans, " x", "So 12.\nAnswer: 12", "So 13.\nAnswer: 13"]
    model = ScriptedModel(replies, parallel=8, chunk_size=3, gain=1.0)
    events: list[object] = []
    solve("q", "mix", model, sandbox, on_event=events.append)
    names, texts, ends = _lanes(events)
    assert names == [
        "PAL",
        "Chain of thought",
        "PoT",
        "Chain of thought sample 1 of 2",
        "Chain of thought sample 2 of 2",
    ]
    assert texts == {0: pal("13"), 1: "Twelve.\nAnswer: 12", 2: no_ans + " x", 3: replies[4], 4: replies[5]}
    assert ends == [(0, "13"), (1, "12"), (2, "12"), (3, "12"), (4, "13")]


def test_a_batched_vote_reports_each_samples_text_in_its_own_lane_once(sandbox: Sandbox) -> None:
    """Every sequence of a batch reaches its lane as it decodes: no lane waits for the one streaming."""
    model = ScriptedModel([pal("12"), pal("13"), pal("14")], parallel=8, chunk_size=3, gain=1.0)
    events: list[object] = []
    solve("q", "sc3-pal", model, sandbox, on_event=events.append)
    _names, texts, ends = _lanes(events)
    assert texts == {0: pal("12"), 1: pal("13"), 2: pal("14")}
    first_end = next(i for i, e in enumerate(events) if isinstance(e, LaneFinished))
    assert {e.lane for e in events[:first_end] if isinstance(e, LaneStreamed)} == {0, 1, 2}
    assert ends == [(0, "12"), (1, "13"), (2, "14")]


def test_a_vote_one_at_a_time_reports_its_lanes_in_turn(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("3 * 4"), pal("1 / 0"), pal("12"), pal("12")])
    events: list[object] = []
    solution = solve("q", "sc-pal", model, sandbox, on_event=events.append)
    names, texts, ends = _lanes(events)
    assert names == [f"Program {n} of 5" for n in range(1, 6)]
    assert texts == {0: pal("3 * 4"), 1: pal("1 / 0"), 2: pal("12"), 3: pal("12")}
    assert ends == [(0, "12"), (1, None), (2, "12"), (3, "12"), (4, None)]  # settled after four: the fifth never ran
    assert not [e for e in events if isinstance(e, LaneFinished)][-1].needed
    finished = [e for e in events if isinstance(e, LaneFinished)]
    assert finished[1].program == "print(1 / 0)" and solution.samples == 4


def test_a_vote_in_two_batches_numbers_its_lanes_on_and_reports_each_solve_once(sandbox: Sandbox) -> None:
    """Five samples on a model that decodes four together: the fifth, in a round of its own, has
    lane 4 (not lane 0 again); the quiet first pass that learns each round's requests reports nothing."""
    model = ScriptedModel([pal("12"), pal("10"), pal("12"), pal("10"), pal("7")], parallel=4)
    events: list[object] = []
    solve("q", "sc-pal", model, sandbox, on_event=events.append)
    _names, texts, ends = _lanes(events)
    assert model.batches == [4, 1]
    assert texts == {0: pal("12"), 1: pal("10"), 2: pal("12"), 3: pal("10"), 4: pal("7")}
    assert ends == [(0, "12"), (1, "10"), (2, "12"), (3, "10"), (4, "7")]
    assert sum(isinstance(e, ModelStarted) for e in events) == len(model.requests) == 5


def test_the_tally_names_the_chains_as_their_columns_do(sandbox: Sandbox) -> None:
    """Seen in the window: columns "Chain of thought sample 1 of 3" (three decoded beside PoT, the
    third not needed) and the tally under them "Chain of thought sample 1 of 2"."""
    replies = [pal("13"), "Answer: 12", pot("12"), "Answer: 12", "Answer: 12", "Answer: 13"]
    events: list[object] = []
    solution = solve("q", "mix", ScriptedModel(replies, parallel=8, chunk_size=3), sandbox, on_event=events.append)
    names, _texts, ends = _lanes(events)
    assert solution.samples == 5 and ends[-1] == (5, None)  # two chains counted, the third not needed
    assert [s.label for s in solution.sampled] == names[:5]
