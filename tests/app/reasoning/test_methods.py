"""Method names, self-consistency voting, chain of thought and the CoT fallback
(ScriptedModel for the model, the real sandbox for the programs)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.reasoning.answer_kind import large_numbers, whole_numbers
from app.reasoning.choices import choices_in
from app.reasoning.events import FirstAnswer, LaneFinished, VoteStarted
from app.reasoning.method_table import TABLE
from app.reasoning.methods import (
    CANCELLED_VOTE_NOTE,
    Method,
    MethodError,
    as_choice,
    degenerate,
    solve,
    vote,
    wordy,
)
from app.reasoning.prompts import EQUATION_HINT, FRACTION_HINT, ROWS_HINT, asks_for_equation, messages
from app.reasoning.session import CancelToken
from app.reasoning.solution import SolveStatus, Vote
from models.testing import ScriptedModel
from sandbox import Sandbox


def pal(expression: str) -> str:
    return f"```python\nprint({expression})\n```"


def pot(expression: str) -> str:
    return f"```python\nans = {expression}\n```"


FAILS = "```python\nprint(1 / 0)\n```"
# The mixed votes below run on a batching model whose batches do not pay (gain=1.0): PoT alone,
# then the second round. Where batches pay, PoT and the chains decode together (test_rounds.py).


@pytest.mark.parametrize(
    ("name", "canonical", "samples"),
    [
        ("pal", "pal", 1),
        ("PAL+Repair", "pal+repair", 1),
        ("pal+fallback+shots", "pal+shots+fallback", 1),
        ("sc-pot", "sc-pot", 5),
        ("sc3-pal+shots", "sc3-pal+shots", 3),
        ("pot+nocomment+grammar", "pot+grammar+nocomment", 1),
        ("cot", "cot", 1),
    ],
)
def test_method_names(name: str, canonical: str, samples: int) -> None:
    method = Method.parse(name)
    assert method.name == canonical
    assert method.samples == samples
    assert Method.parse(method.name) == method


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("palx", "unknown method"),
        ("pal+finish", "pal has no option finish"),
        ("cot+repair", "cot has no option repair"),
        ("sc-cot", "votes over programs"),
        ("sc1-pal", "2 to 8 programs"),
        ("sc9-pal", "2 to 8 programs .*, not 9"),
    ],
)
def test_bad_method_names_say_why(name: str, message: str) -> None:
    with pytest.raises(MethodError, match=message):
        Method.parse(name)


def test_every_picker_entry_is_a_method() -> None:
    assert all(Method.parse(entry.name).name == entry.name for entry in TABLE)


def test_vote_counts_equal_numbers_together_and_breaks_ties_by_first_seen() -> None:
    assert vote(["18", "18.0", "$18", "20"]) == [Vote("18", 3), Vote("20", 1)]
    assert vote(["7", "9", "9", "7"]) == [Vote("7", 2), Vote("9", 2)]  # a tie: 7 came first
    assert vote([None, "5", None]) == [Vote("5", 1)]
    assert vote([None, None]) == []


@pytest.mark.parametrize("nothing", ["0", "0.0", "$0", "None", "nan", "[]", "", "0 apples"])
def test_a_tie_goes_to_a_plausible_answer_over_one_that_says_nothing(nothing: str) -> None:
    """Seen in the window: a filter copied from the prompt's example found no rows, and 0 won."""
    assert vote([nothing, "1.03"]) == [Vote("1.03", 1), Vote(nothing, 1)]
    assert vote([nothing, nothing, "1.03"])[0] == Vote(nothing, 2)  # a majority is a majority
    assert vote(["7", "9"])[0] == Vote("7", 1)  # otherwise the first seen, as before
    assert not degenerate("10") and not degenerate("health") and not degenerate("-0.5")


def test_self_consistency_votes_over_the_samples(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("3 * 4"), pal("10"), FAILS, pal("12.0"), pal("10")])
    solution = solve("q", "sc-pal", model, sandbox)
    assert solution.status is SolveStatus.ANSWERED
    assert solution.answer == "12"  # 12 and 10 tie at 2 votes; 12 was seen first; the failure does not vote
    assert solution.votes == (Vote("12", 2), Vote("10", 2))
    assert solution.samples == 5 and len(solution.calls) == 5 and len(solution.programs) == 5
    assert solution.program == "print(3 * 4)"  # the working is the first winning sample's
    temperatures = {(r.temperature, r.top_p) for r in model.requests}
    assert temperatures == {(0.7, 0.95)}
    assert [r.seed for r in model.requests] == [1, 2, 3, 4, 5]
    assert solution.to_json()["votes"] == [{"answer": "12", "count": 2}, {"answer": "10", "count": 2}]


def test_self_consistency_with_every_sample_failing(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILS, FAILS, "no code here"])
    solution = solve("q", "sc3-pot", model, sandbox)
    assert not solution.answered
    assert solution.votes == ()
    assert solution.samples == 3


def test_cancelling_a_vote_stops_sampling(sandbox: Sandbox) -> None:
    cancel = CancelToken()
    model = ScriptedModel([pal("1")] * 5)
    cancel.cancel()
    solution = solve("q", "sc-pal", model, sandbox, cancel=cancel)
    assert solution.status is SolveStatus.CANCELLED
    assert len(model.requests) <= 1


def test_a_vote_cancelled_after_answers_came_keeps_them_and_gives_no_verdict(sandbox: Sandbox) -> None:
    """Seen in the window: Esc while PoT checked a dispute left "no answers; 2 not counted, 1
    failed" and an empty editor, where PAL had said 80 and chain of thought 70."""
    cancel = CancelToken()

    def on_event(event: object) -> None:
        if isinstance(event, LaneFinished) and event.lane == 1:  # chain of thought is in: the user cancels
            cancel.cancel()

    model = ScriptedModel([pal("80"), "Answer: 70", pot("80")])
    solution = solve("How many gold coins?", "mix", model, sandbox, cancel=cancel, on_event=on_event)
    assert solution.status is SolveStatus.CANCELLED and solution.answer is None
    assert solution.votes == (Vote("70", 1), Vote("80", 1))  # what each method said, unchecked
    assert solution.program == "print(80)"  # PAL's program stays to run or edit
    assert solution.notes[-1] == CANCELLED_VOTE_NOTE  # no "the first answer … the vote gave no answer"
    before = solve("How many gold coins?", "mix", ScriptedModel([pal("80")]), sandbox, cancel=cancel)
    assert before.status is SolveStatus.CANCELLED and before.votes == () and before.program is None


def test_fallback_answers_by_chain_of_thought_and_says_so(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILS, "Half of 10 is 5.\nAnswer: 5"])
    solution = solve("What is half of 10?", "pal+fallback", model, sandbox)
    assert solution.answered and solution.answer == "5"
    assert solution.fallback_used
    assert solution.method == "pal+fallback"
    assert solution.program == "print(1 / 0)" and "ZeroDivisionError" in (solution.error or "")
    assert [c.purpose for c in solution.calls] == ["program", "reasoning"]


def test_no_fallback_when_the_program_answers(sandbox: Sandbox) -> None:
    model = ScriptedModel([pot("2 + 3")])
    solution = solve("q", "pot+fallback", model, sandbox)
    assert solution.answer == "5" and not solution.fallback_used and len(model.requests) == 1


def test_chain_of_thought_reads_the_answer_line(sandbox: Sandbox) -> None:
    model = ScriptedModel(["4 * 3 = 12 so the total is 12.\nAnswer: $12.00"])
    solution = solve("q", "cot", model, sandbox)
    assert solution.answer == "$12.00" and solution.status is SolveStatus.ANSWERED
    assert solution.program is None
    request = model.requests[0]
    assert request.stop == ("\nQuestion:",)
    # the system prompt the model was trained to reason with, then the question
    assert [m.role for m in request.messages] == ["system", "user"]
    assert "\\boxed{}" in request.messages[0].content and request.messages[1].content.startswith("q\n")


def test_chain_of_thought_answering_in_a_sentence_is_read_as_its_number(sandbox: Sandbox) -> None:
    """A five-way split went to "John is 315 miles from home at the end of those 4 hours." and
    the vote read it as 4; the mix now counts and shows 315 (wrong here too, but a number)."""
    question = "John drives 3 hours at 60 mph, then 4 hours home. How far is he from home at the end of those 4 hours?"
    reply = "60 + 15 + 240 = 315 miles\n\n**Answer:** John is 315 miles from home at the end of those 4 hours."
    solution = solve(question, "cot", ScriptedModel([reply]), sandbox)
    assert solution.answer == "315"


@pytest.mark.parametrize(
    ("last_line", "answer"),
    [
        ("Conclusion: The 5-pack is cheaper per pen.", "a pack of 5 for $7"),  # seen: no answer read
        ("Therefore, a pack of 5 is cheaper at 1.4 dollars a pen.", "a pack of 5 for $7"),  # not its 1.4
        ("Therefore, the cheaper one costs $1.40 a pen.", "$1.40"),  # names none: its number
    ],
)
def test_chain_of_thought_ending_on_an_alternative_answers_it(sandbox: Sandbox, last_line: str, answer: str) -> None:
    question = "Which is cheaper per pen: a pack of 3 for $4.50 or a pack of 5 for $7?"
    reply = f"Cost per pen = $4.50 / 3 = $1.50\nCost per pen = $7 / 5 = $1.40\n\n{last_line}"
    assert solve(question, "cot", ScriptedModel([reply]), sandbox).answer == answer


@pytest.mark.parametrize(
    "reply",
    [
        "The table of 7:\n```plaintext\n7 x 1 = 7\n7 x 2 = 14\n7 x 3 = 21\n```",  # seen: read as no answer
        "7 × 1 = 7 7 × 2 = 14 7 × 3 = 21",  # seen: read as 21, its last product
        "7 x 1 = 7\n7 x 2 = 14\n7 x 3 = 21\nSo \\boxed{21}",
    ],
)
def test_chain_of_thought_writing_out_the_table_asked_for_answers_it(sandbox: Sandbox, reply: str) -> None:
    question = "Print the multiplication table of 7 up to 7 x 3."
    assert solve(question, "cot", ScriptedModel([reply]), sandbox).answer == "7, 14, 21"
    assert solve("What is 7 x 3?", "cot", ScriptedModel([reply]), sandbox).answer in ("21", None)  # asks one number


def test_chain_of_thought_cut_off_by_its_token_limit_writes_no_table(sandbox: Sandbox) -> None:
    """Chains checking the numbers below 30 one by one for primes wrote a line a number and ran out
    of tokens: the lines so far are not the list asked for."""
    checks = "".join(f"{n} is prime, so we keep {n} in the list.\n" for n in (2, 3, 5, 7, 11))
    cut = checks + "word " * 512
    assert (
        solve("List all the prime numbers below 30.", "cot", ScriptedModel([checks]), sandbox).answer
        == "2, 3, 5, 7, 11"
    )
    solution = solve("List all the prime numbers below 30.", "cot", ScriptedModel([cut]), sandbox)
    assert solution.answer is None and solution.status is SolveStatus.NO_ANSWER_LINE


def test_chain_of_thought_keeps_its_reasoning_as_plain_text(sandbox: Sandbox) -> None:
    reply = "Cost:\n\\[\n4 \\times 3 = 12 \\text{ dollars}\n\\]\nSo \\boxed{12}."
    solution = solve("q", "cot", ScriptedModel([reply]), sandbox)
    assert solution.answer == "12" and solution.finish_reply == "Cost:\n4 × 3 = 12 dollars\nSo 12."


def test_chain_of_thought_without_an_answer_line(sandbox: Sandbox) -> None:
    solution = solve("q", "cot", ScriptedModel(["I think it is hard."]), sandbox)
    assert solution.status is SolveStatus.NO_ANSWER_LINE and solution.answer is None


def test_boxed_answers_count_as_the_answer_line(sandbox: Sandbox) -> None:
    solution = solve("q", "cot", ScriptedModel(["so \\boxed{42} it is"]), sandbox)
    assert solution.answer == "42"


def test_more_examples_and_grammar_reach_the_model(sandbox: Sandbox) -> None:
    model = ScriptedModel([pot("1"), pal("1")])
    solve("q", "pot+shots+grammar+nocomment", model, sandbox)
    solve("q", "pal+grammar", model, sandbox)
    shots, plain = model.requests
    assert len(shots.messages) > 2 and shots.grammar is not None and "ans-line" in shots.grammar
    assert shots.token_bias == {"#": -2.0}
    assert len(plain.messages) == 1 and plain.grammar is not None and "ans" not in plain.grammar
    assert not plain.token_bias


def test_turn_lines_split_a_prompt_into_messages() -> None:
    turns = messages("--- user ---\nhi\n--- assistant ---\nhello\n--- user ---\nQuestion: q")
    assert [(m.role, m.content) for m in turns] == [("user", "hi"), ("assistant", "hello"), ("user", "Question: q")]
    assert [(m.role, m.content) for m in messages("plain")] == [("user", "plain")]
    system = messages("--- system ---\nreason step by step\n--- user ---\nq")
    assert [(m.role, m.content) for m in system] == [("system", "reason step by step"), ("user", "q")]


def test_mix_votes_over_three_methods_and_shows_a_program(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("11"), "So 12.\nAnswer: 12", pot("12")])  # PAL first: the first answer soonest
    solution = solve("q", "mix", model, sandbox)
    assert solution.answer == "12" and solution.votes == (Vote("12", 2), Vote("11", 1))
    assert solution.program == "ans = 12" and not solution.fallback_used  # PoT's working, not CoT's words
    assert [c.purpose for c in solution.calls] == ["program", "reasoning", "program"]
    assert [s.method for s in solution.sampled] == ["pal", "cot", "pot"]
    assert [s.label for s in solution.sampled] == ["PAL", "Chain of thought", "PoT"]
    assert solution.sampled[1].reasoning and solution.sampled[1].program is None
    assert solution.to_json()["confidence"] == {
        "text": "2 of 3 methods agree (chain of thought and PoT)", "value": 0.667, "confident": False,
        "level": "cot+pot",
        "words": "one program agrees with the reasoning in words, the other does not — compare them",
        "measured": "Answers checked this way were right 12 of 20 times (60 %), measured on the first 200 GSM8K "
        "questions with the built-in model (docs/results.md).",
    }  # fmt: skip


def test_mix_asks_pal_first_then_chain_of_thought_and_pot_only_where_they_disagree(sandbox: Sandbox) -> None:
    """PAL alone first, so its answer is on screen at the speed of one program (in one batch of
    three it came at 1.5–2.2 × that: docs/results.md); then chain of thought checks it, and PoT
    is asked only when the two disagree — each alone, at a single sequence's full speed."""
    question = "A farm has 37190 acres and sells 1520 of them. How many acres are left?"  # large: no second round
    model = ScriptedModel([pal("35670"), "So 35770.\nAnswer: 35770", pot("35670")], parallel=8, gain=1.0)
    solution = solve(question, "mix", model, sandbox)
    assert model.batches == [1, 1, 1]  # one at a time, even on a model that decodes several at once
    prompts = [request.as_text() for request in model.requests]
    assert len(set(prompts)) == 3 and "boxed" in prompts[1] and "ans" in prompts[2]
    assert solution.answer == "35670" and solution.votes == (Vote("35670", 2), Vote("35770", 1))
    confidence = solution.to_json()["confidence"]
    assert {key: confidence[key] for key in ("text", "value", "confident", "level", "words")} == {
        "text": "2 of 3 methods agree (PAL and PoT)", "value": 0.667, "confident": False,
        "level": "pal+pot", "words": "the two programs agree, the reasoning in words does not — compare them",
    }  # fmt: skip
    agreed = ScriptedModel([pal("12"), "So 12.\nAnswer: 12", pot("12")], parallel=8, gain=1.0)
    assert solve("q", "mix", agreed, sandbox).samples == 2 and agreed.batches == [1, 1]  # PoT not asked


def test_mix_on_a_one_at_a_time_model_stops_once_chain_of_thought_and_pal_agree(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), "Answer: 12", pot("99")])
    solution = solve("q", "mix", model, sandbox)
    assert len(model.requests) == 2 and solution.samples == 2  # PoT could not change the winner
    assert solution.confidence.confident and solution.confidence.text == "chain of thought and PAL agree"


def test_mix_ties_go_to_chain_of_thought(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("8"), "Answer: 7", pot("9"), "Answer: 1", "Answer: 2", "Answer: 3"])
    solution = solve("q", "mix", model, sandbox)
    assert solution.answer == "7" and solution.samples == 6  # the second round did not decide either
    assert solution.fallback_used  # no program backs the answer
    assert solution.confidence.level == "second round, split"


def test_a_three_way_tie_is_decided_by_three_more_chains_of_thought(sandbox: Sandbox) -> None:
    replies = [pal("8"), "Answer: 7", pot("9"), "Answer: 9", "Answer: 5", "Answer: 9"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    events: list[object] = []
    solution = solve("q", "mix", model, sandbox, on_event=events.append)
    assert model.batches == [1, 1, 1, 3]  # one at a time, then the second round in one batch
    assert model.requests[3].temperature > 0 and len({r.seed for r in model.requests[3:]}) == 3
    assert [e.first_lane for e in events if isinstance(e, VoteStarted)] == [0, 3]
    assert [s.label for s in solution.sampled][3:] == [f"Chain of thought sample {n} of 3" for n in (1, 2, 3)]
    assert solution.answer == "9" and solution.votes[0] == Vote("9", 3) and solution.samples == 6
    assert solution.confidence.text == "3 of 6 answers agree, PoT among them"
    assert not solution.confidence.confident and solution.confidence.level == "second round, split"
    assert any("reasoned 3 more times" in note for note in solution.notes)


def test_in_the_second_round_a_slipped_chain_counts_with_its_arithmetic_redone(sandbox: Sandbox) -> None:
    """Checked in the sandbox: 1234 × 56 is 69104, so the chain that wrote 69004 counts for PAL's
    69104; its own answer is still shown as it wrote it."""
    slipped = "Each box holds 1234 × 56 = 69004 beads.\nAnswer: 69004"
    replies = [pal("69104"), "Answer: 7", pot("9"), slipped, "Answer: 5", "Answer: 6"]
    solution = solve("q", "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox)
    assert solution.answer == "69104" and solution.votes[0].count == 2
    assert (solution.sampled[3].answer, solution.sampled[3].redone) == ("69004", "69104")
    assert any("1 of the chains slipped" in note for note in solution.notes)
    clean = [pal("69104"), "Answer: 7", pot("9"), "Answer: 69004", "Answer: 5", "Answer: 6"]
    tied = solve("q", "mix", ScriptedModel(clean, parallel=8, gain=1.0), sandbox)
    assert tied.answer == "7"  # no slip to redo: a tie


def test_where_the_question_counts_things_a_tie_goes_to_a_whole_number(sandbox: Sandbox) -> None:
    """GSM8K item 101: six answers, 6 and 11.75 twice each; pages a day on average are 6."""
    question = (
        "Solo has to read 4 pages from his Science textbook, 20 pages from his Social Studies textbook, 7 pages "
        "from his History textbook and 8 pages from his Geography textbook. Solo read 15 pages on Monday. If he "
        "has 4 more days to complete all his reading, how many pages does he need to read, on average, in one day?"
    )
    replies = [pal("6"), "Answer: 11.75", pot("-9.5"), "Answer: 36.5625", "Answer: 6", "Answer: 11.75"]
    solution = solve(question, "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox)
    assert solution.answer == "6" and [v.count for v in solution.votes][:2] == [2, 2]
    assert vote(["14.6666666667", "15"], whole=True)[0].answer == "15"
    assert vote(["14.6666666667", "15"])[0].answer == "14.6666666667"  # else the order first seen
    assert vote(["2.5", "3", "3"], whole=True)[0].answer == "3" and vote(["2.5", "2.5", "3"], whole=True)[0].count == 2


@pytest.mark.parametrize(
    ("question", "whole"),
    [
        ("Tom has 4 apples and buys 7 more. How many apples does he have?", True),
        ("Yogurts are 4 for $5.00. How much does he spend over 30 days?", False),  # a price in cents
        ("What fraction of the 12 slices is left after 5 are eaten?", False),
        ("What percentage of the 40 students passed if 30 did?", False),
        ("A farm has 37190 acres and sells 2 of them. How many are left?", False),  # large: programs decide
    ],
)
def test_a_question_counts_things_when_it_states_whole_numbers_only(question: str, whole: bool) -> None:
    assert whole_numbers(question) is whole


def test_where_numbers_are_large_a_tie_goes_to_the_programs_without_a_second_round(sandbox: Sandbox) -> None:
    question = "A farm has 37190 acres and sells 1520 of them. How many acres are left?"
    replies = [pal("35670"), "Answer: 35770", pot("35600"), "Answer: 35770", "Answer: 35770", "Answer: 35770"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    solution = solve(question, "mix", model, sandbox)
    assert model.batches == [1, 1, 1] and solution.answer == "35670" and solution.samples == 3


def test_where_two_methods_agree_two_more_chains_agreeing_make_the_answer_confident(sandbox: Sandbox) -> None:
    """Two chains are enough for the pair's answer to reach TRUSTED_AGREE (4) votes; both run to
    their end even once the first has settled the winner, since the second decides the support."""
    replies = [pal("14"), "Answer: 41", pot("14"), "Answer: 14", "Answer: 14"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    solution = solve("q", "mix", model, sandbox)
    assert model.batches == [1, 1, 1, 2] and solution.answer == "14" and solution.votes[0].count == 4
    assert solution.samples == 5 and solution.confidence.level == "second round" and solution.confidence.confident
    assert solution.confidence.text == "4 of 5 answers agree, PAL and PoT among them"
    both = solve("q", "mix", ScriptedModel([*replies[:4], "Answer: 41"], parallel=8, gain=1.0), sandbox)
    assert both.answer == "14" and both.votes[0].count == 3 and not both.confidence.confident
    assert both.confidence.level == "second round, both programs"  # PAL, PoT and a chain: a level of its own
    without_pal = [pal("41"), "Answer: 14", pot("14"), "Answer: 14", "Answer: 41"]
    split = solve("q", "mix", ScriptedModel(without_pal, parallel=8, gain=1.0), sandbox)
    assert split.answer == "14" and split.votes[0].count == 3 and split.confidence.level == "second round, split"
    assert not split.confidence.confident and split.confidence.text == "3 of 5 answers agree, PoT among them"


def test_an_answer_the_question_cannot_have_is_not_counted_where_another_is_plausible(sandbox: Sandbox) -> None:
    """GSM8K: both programs said -40 dollars, chain of thought 40 (right); chain of thought and PAL
    agreed on -160 for a candle-maker's profit (wrong) and were shown as confident."""
    question = "A mechanic repairs 6 truck tires at $60 each and 4 car tires at $40 each. How much more did he earn?"
    replies = [pal("-40"), "Answer: 40", pot("-40"), "Answer: 40", "Answer: 40", "Answer: 7"]
    solution = solve(question, "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox)
    assert solution.answer == "40" and solution.votes == (Vote("40", 3), Vote("7", 1))
    assert "-40 is not counted: it is negative, and the question names nothing below zero." in solution.notes
    assert [s.answer for s in solution.sampled][:3] == ["-40", "40", "-40"]  # shown as they were
    agreed = ScriptedModel([pal("-160"), "Answer: -160", pot("-160"), *["Answer: -160"] * 3], parallel=8, gain=1.0)
    wrong = solve("What is his net profit if he sells 20 candles at $2 and pays $10 a pound?", "mix", agreed, sandbox)
    assert agreed.batches == [1, 1, 1, 3]  # the agreement did not end the first round: PoT, then three chains
    assert wrong.answer == "-160" and not wrong.confidence.confident and wrong.confidence.level == "wrong kind"
    assert wrong.confidence.text.endswith("; but it is negative, and the question names nothing below zero")
    halves = ScriptedModel([pal("27 / 2"), "Answer: 13.5", pot("27 / 2"), *["Answer: 13"] * 3], parallel=8, gain=1.0)
    cookies = solve("Tim bakes 27 cookies for 2 boxes. How many cookies go in a box?", "mix", halves, sandbox)
    assert halves.batches == [1, 1, 1, 3] and cookies.answer == "13"  # an agreement on 13.5 cookies settles nothing
    assert "13.5 is not counted: it is not a whole number, and the question counts cookies." in cookies.notes
    colder = ScriptedModel([pal("-3"), "Answer: -3", pot("9")], parallel=8, gain=1.0)
    weather = solve("The temperature was 2 degrees and dropped 5. What is it now?", "mix", colder, sandbox)
    assert weather.confidence.confident and colder.batches == [1, 1]


def test_an_answer_not_of_the_kind_asked_is_not_counted_where_another_is(sandbox: Sandbox) -> None:
    """Seen in the window: "Welcher Anteil der Pizza bleibt übrig?" — chain of thought and two more
    chains said 7, PAL and PoT 7/12; 7 won, marked "not the kind of answer the question asks for"."""
    question = "Eine Pizza hat 12 Stücke. Tom isst 5 Stücke. Welcher Anteil der Pizza bleibt übrig?"
    replies = [pal("7 / 12"), "Answer: 7", pot("7 / 12"), "Answer: 7", "Answer: 7"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    solution = solve(question, "mix", model, sandbox)
    assert model.batches == [1, 1, 1, 2]  # 7 cannot settle the first round: PoT, then the chains
    assert solution.answer == "7/12" and [v.count for v in solution.votes] == [2]
    assert "7 is not counted: it is a whole number, and the question asks for a fraction." in solution.notes
    assert not solution.confidence.confident
    percent = [pal("30 / 40"), "Answer: 75%", pot("30 / 40 * 100"), "Answer: 75", "Answer: 75"]
    asked = ScriptedModel(percent, parallel=8, gain=1.0)
    passed = solve("What percent of the 40 students passed if 30 did?", "mix", asked, sandbox)
    assert asked.batches == [1, 1, 1, 2] and passed.answer == "75%" and [v.count for v in passed.votes] == [4]
    assert "0.75 is not counted: it is a share of one, and the question asks for a percentage." in passed.notes


def test_a_fraction_in_latex_and_a_programs_decimal_are_one_answer_shown_as_the_fraction(sandbox: Sandbox) -> None:
    """Seen in the window: "What fraction of the pizza is left?" — chain of thought's
    \\boxed{\\frac{7}{12}} counted as failed (three times), PAL's column said 0.5833333333."""
    question = "A pizza has 12 slices. Tom eats 3 and Ann eats 2. What fraction of the pizza is left?"
    model = ScriptedModel([pal("7 / 12"), "7 slices of 12 are left: \\boxed{\\frac{7}{12}}"], parallel=8, gain=1.0)
    events: list[object] = []
    solution = solve(question, "mix", model, sandbox, on_event=events.append)
    assert solution.answer == "7/12" and solution.confidence.confident and model.batches == [1, 1]
    assert [s.answer for s in solution.sampled] == ["7/12", "7/12"]
    assert [e.answer for e in events if isinstance(e, LaneFinished) and e.needed] == ["7/12", "7/12"]


def test_where_numbers_are_large_only_mix_more_asks_a_second_round(sandbox: Sandbox) -> None:
    question = "A farm has 37190 acres and sells 1520 of them. How many acres are left?"
    replies = [pal("35670"), "Answer: 35770", pot("35670"), "Answer: 35670", "Answer: 35670"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    assert solve(question, "mix", model, sandbox).samples == 3 and model.batches == [1, 1, 1]
    more = ScriptedModel(replies, parallel=8, gain=1.0)
    solution = solve(question, "mix+more", more, sandbox)
    assert more.batches == [1, 1, 1, 2] and solution.confidence.confident and solution.votes[0].count == 4


def test_a_second_round_the_model_cannot_run_leaves_the_first_rounds_answer(sandbox: Sandbox) -> None:
    solution = solve("q", "mix", ScriptedModel([pal("8"), "Answer: 7", pot("9")]), sandbox)
    assert solution.answered and solution.answer == "7" and solution.samples == 3
    assert any("could not run" in note for note in solution.notes)


def test_a_tie_goes_to_a_program_when_chain_of_thoughts_arithmetic_slipped(sandbox: Sandbox) -> None:
    """Checked in the sandbox: 1234 × 56 is 69104; the reasoning that wrote 69004 loses the tie and
    the solution says why. Its arithmetic right, the tie is still chain of thought's."""
    slipped = "Each box holds 1234 × 56 = 69004 beads.\nAnswer: 69004"
    model = ScriptedModel([pal("69104"), slipped, pot("69004")])
    solution = solve("q", "mix", model, sandbox)
    assert solution.answer == "69104" and not solution.fallback_used
    # PoT could change the winner only by agreeing with the slip (right 0 times in 20): not asked
    assert len(model.requests) == 2 and solution.samples == 2
    assert solution.confidence.level == "redone"  # redone, the reasoning's answer is PAL's 69104
    assert not solution.confidence.confident and solution.samples == 2  # no second round: PAL decides the tie
    failed = ScriptedModel(["```python\nprint(1 / 0)\n```", slipped, pot("69104")])
    assert solve("q", "mix", failed, sandbox).answer == "69104" and len(failed.requests) == 3  # no program yet: asked
    assert (
        "Chain of thought's arithmetic has a slip: Each box holds 1234 × 56 = 69004 beads (that is 69104); its"
        " answer counts last in a tie. Redone, its answer is 69104."
    ) in solution.notes
    right = "Each box holds 1234 × 56 = 69104 beads, so 2 boxes hold 69104 × 2 = 138208.\nAnswer: 138208"
    kept = solve("q", "mix", ScriptedModel([pal("69104"), right, pot("70000")]), sandbox)
    assert kept.answer == "138208" and not any("slip" in note for note in kept.notes)


def test_where_the_questions_numbers_are_large_a_tie_goes_to_the_programs(sandbox: Sandbox) -> None:
    """Measured on the large-number set (docs/results.md): chain of thought is the weakest at
    arithmetic, so a three-way tie over 35965 rides a week goes to PAL; over small numbers, to it."""
    large = "He rode 35,965 times a week for 4 weeks. How many rides?"
    assert solve(large, "mix", ScriptedModel([pal("143860"), "Answer: 143850", pot("9")]), sandbox).answer == "143860"
    small = "He rode 5 times a week for 4 weeks. How many rides?"
    assert solve(small, "mix", ScriptedModel([pal("21"), "Answer: 20", pot("9")]), sandbox).answer == "20"
    assert large_numbers("a $4,922,000 salary") and not large_numbers("in 2012, 9999 people")
    assert large_numbers("1.2M views, $3B, 4 million people") and not large_numbers("class 3B, a 5m rope")
    views = "One video has 1.2M views and another 850K. How many views in all?"
    tied = solve(views, "mix", ScriptedModel([pal("2050000"), "Answer: 2.06M", pot("9")]), sandbox)
    assert tied.answer == "2050000"  # a tie over large numbers goes to the program, not to 2.06M
    programs = solve(large, "sc3-pal", ScriptedModel([pal("1"), pal("2"), pal("3")]), sandbox)
    assert programs.answer == "1"  # a vote of one method's programs: ties to the first, as before


def test_an_equation_question_asks_for_sympy_and_answers_with_its_roots(sandbox: Sandbox) -> None:
    program = "```python\nfrom sympy import *\nx = symbols('x')\nprint(solve(Eq(x**2 - 5*x + 6, 0), x))\n```"
    model = ScriptedModel([program, pal("18")])
    solution = solve("What are the roots of x^2 - 5x + 6 = 0?", "pal", model, sandbox)
    assert solution.answer == "2, 3" and EQUATION_HINT in model.requests[0].as_text()
    plain = solve("Janet sells 16 - 3 - 4 eggs at $2 each. How much does she make?", "pal", model, sandbox)
    assert plain.answer == "18" and EQUATION_HINT not in model.requests[1].as_text()
    vote = solve("Solve 3x + 7 = 25", "mix", ScriptedModel([pal("[6]"), "Answer: 6"]), sandbox)
    assert vote.answer == "6" and vote.votes == (Vote("6", 2),)  # seen in the window: [6] and 6 were two answers
    fraction = ScriptedModel([pal("Fraction(17, 12)").replace("print(", "from fractions import Fraction\nprint(")])
    assert solve("What is 2/3 + 3/4 as a fraction?", "pal", fraction, sandbox).answer == "17/12"
    assert FRACTION_HINT in fraction.requests[0].as_text()


def test_pot_is_told_a_table_or_list_is_asked_for_and_pal_is_not(sandbox: Sandbox) -> None:
    """PoT's `ans` was one number of the table asked for (35280, the product of the table of 7); told,
    it listed the values (16 → 23 right of 29 such questions). PAL prints rows untold, and told once
    wrote the table in words, no program."""
    question = "Print the multiplication table of 7."
    model = ScriptedModel([pot("[7 * n for n in range(1, 11)]"), pal("7")])
    assert solve(question, "pot", model, sandbox).answer == "[7, 14, 21, 28, 35, 42, 49, 56, 63, 70]"
    solve(question, "pal", model, sandbox)
    assert ROWS_HINT in model.requests[0].as_text() and ROWS_HINT not in model.requests[1].as_text()
    model = ScriptedModel([pot("7 * 10")])
    solve("A printer prints 7 pages a minute. How many pages in 10 minutes?", "pot", model, sandbox)
    assert ROWS_HINT not in model.requests[0].as_text()


@pytest.mark.parametrize(
    "question",
    ["Solve 3x + 7 = 25", "Find x if 2(x - 3) = x + 10", "Solve for y: 4y - 2 = 10", "Löse 2x = 8",
     "What are the roots of x^2 - 5x + 6 = 0?"],
)  # fmt: skip
def test_equations_to_solve_are_recognised(question: str) -> None:
    assert asks_for_equation(question)


def test_word_problems_are_not_equations() -> None:
    """None of the GSM8K questions in tests/data asks for an equation to be solved (nor does any of
    GSM8K's 1,319 test questions: checked once against the shared file)."""
    lines = (Path(__file__).resolve().parents[2] / "data" / "large_numbers.jsonl").read_text().splitlines()
    assert [q for q in (json.loads(line)["question"] for line in lines) if asks_for_equation(q)] == []
    assert not asks_for_equation("What is 5 + 2 * 3?")


def test_the_fallback_keeps_its_reasoning_and_time(sandbox: Sandbox) -> None:
    reasoning = "Half of 10 is 5.\nAnswer: 5"
    model = ScriptedModel([FAILS, reasoning], chunk_size=2, chunk_delay_s=0.02)
    solution = solve("What is half of 10?", "pal+fallback", model, sandbox)
    assert solution.finish_reply == reasoning
    assert solution.duration_s >= sum(call.seconds for call in solution.calls)  # both parts counted
    unanswered = solve("q", "pal+fallback", ScriptedModel([FAILS, "no idea"]), sandbox)
    assert unanswered.fallback_used and not unanswered.answered
    assert unanswered.error and unanswered.error.startswith("The reasoning states no final answer")


def test_a_single_solve_is_not_a_vote(sandbox: Sandbox) -> None:
    solution = solve("q", "pal", ScriptedModel([pal("2")]), sandbox)
    assert solution.votes == () and solution.sampled == ()


def test_a_vote_keeps_every_sample_and_the_total_time(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), FAILS, pal("12")], chunk_size=8, chunk_delay_s=0.01)
    solution = solve("q", "sc3-pal", model, sandbox)
    assert [s.answer for s in solution.sampled] == ["12", None, "12"]
    assert [s.program for s in solution.sampled] == ["print(12)", "print(1 / 0)", "print(12)"]
    assert [s.label for s in solution.sampled] == ["Program 1 of 3", "Program 2 of 3", "Program 3 of 3"]
    assert solution.duration_s >= sum(call.seconds for call in solution.calls)


def test_when_every_sample_fails_the_last_failure_is_shown_and_no_fallback_claimed(sandbox: Sandbox) -> None:
    model = ScriptedModel([FAILS, FAILS, "```python\nprint(undefined)\n```"])
    solution = solve("q", "sc3-pal", model, sandbox)
    assert not solution.answered and "NameError" in (solution.error or "")
    assert not solution.fallback_used


def test_a_mixed_vote_answers_with_the_first_wording_of_the_winner(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), "So 12.\nAnswer: 12 eggs"])
    solution = solve("q", "mix", model, sandbox)
    assert solution.answer == "12 eggs" and solution.program == "print(12)"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("xyz", "unknown method 'xyz': a base (pal, pot, cot, coc, iipc, mix) with options, see --help"),
        ("cot+finish", "cot has no option finish (its options: none)"),
        ("pal+zzz+finish", "pal has no option finish, zzz (its options: repair, shots, grammar, fallback)"),
        ("sc-cot", "self-consistency votes over programs: use sc-pal or sc-pot"),
        ("sc1-pal", "a vote takes 2 to 8 programs (sc2- … sc8-), not 1"),
    ],
)
def test_method_names_refused_with_the_reason(name: str, message: str) -> None:
    with pytest.raises(MethodError) as caught:
        Method.parse(name)
    assert str(caught.value) == message


def test_two_samples_are_a_vote() -> None:
    assert Method.parse("sc2-pal").samples == 2 and Method.parse("sc2-pal").name == "sc2-pal"


def test_solve_takes_a_parsed_method_and_decodes_greedily_by_default(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("2")])
    assert solve("q", Method.parse("pal"), model, sandbox).answer == "2"
    assert model.requests[0].temperature == 0.0


def test_a_mixed_vote_samples_as_asked(sandbox: Sandbox) -> None:
    model = ScriptedModel(["Answer: 12", pal("13"), pot("12")])
    solve("q", "mix", model, sandbox, temperature=0.7)
    assert [request.temperature for request in model.requests][:3] == [0.7, 0.7, 0.7]


def test_data_questions_name_the_methods_that_take_them(sandbox: Sandbox, tmp_path: Path) -> None:
    from app.data.files import open_data

    path = tmp_path / "t.csv"
    path.write_text("a\n1\n")
    with pytest.raises(MethodError) as caught:
        solve("q", "cot", ScriptedModel([]), sandbox, data=open_data(path))
    assert str(caught.value) == "questions about a data file need a program method (pal, pot), not cot"


def test_warm_up_reads_the_default_methods_prompts_the_way_they_are_asked(sandbox: Sandbox) -> None:
    from dataclasses import replace as replaced

    from app.reasoning.methods import warm_up

    cached = ScriptedModel(["a", "b", "c"], parallel=8, gain=1.0)
    cached.capabilities = replaced(cached.capabilities, prompt_cache=True)
    assert warm_up(cached, sandbox, "mix") == 3
    assert cached.batches == [3] and all(r.max_tokens == 1 for r in cached.requests)  # together, as mix asks
    later = ScriptedModel(["Answer: 1", "```python\nprint(1)\n```", "```python\nans = 1\n```"], parallel=8, gain=1.0)
    solve("How many apples?", "mix", later, sandbox)
    for warm, real in zip(cached.requests, later.requests[:3], strict=True):  # the same prompts up to the question
        shared = len(warm.messages[:-1])
        assert warm.messages[:shared] == real.messages[:shared]
        assert warm.messages[-1].content.split("How many?")[0] == real.messages[-1].content.split("How many")[0]
    plain = ScriptedModel([], parallel=8, gain=1.0)
    assert not plain.capabilities.prompt_cache
    assert warm_up(plain, sandbox, "mix") == 0 and plain.requests == []  # no cache to fill: left alone


def test_a_mixed_warm_up_times_one_sequence_and_two_where_the_model_has_not(sandbox: Sandbox) -> None:
    """Else a mixed vote pairs PAL and chain of thought only after a second round first timed two."""
    from dataclasses import replace as replaced

    from app.reasoning.methods import TIMING_QUESTION, TIMING_TOKENS, WARM_QUESTION, warm_up

    def cached(gain: float | None) -> ScriptedModel:
        model = ScriptedModel(["a", "b", "c", "d", "e", "f"], parallel=8, gain=gain)
        model.capabilities = replaced(model.capabilities, prompt_cache=True)
        return model

    untimed = cached(None)
    assert warm_up(untimed, sandbox, "mix") == 3
    assert untimed.batches == [3, 1, 2]  # the prompts, then PAL's alone and twice together
    first, *timed = untimed.requests[3:]
    assert timed == [first, first] and first.max_tokens == TIMING_TOKENS and not first.stop
    pal_prompt = untimed.requests[0].messages[-1].content
    assert first.messages[-1].content.split(TIMING_QUESTION)[0] == pal_prompt.split(WARM_QUESTION)[0]  # already read
    timed_before = cached(1.45)
    warm_up(timed_before, sandbox, "mix")
    assert timed_before.batches == [3]
    program = cached(None)
    warm_up(program, sandbox, "sc-pal")
    assert program.batches == [1]  # only a mixed vote pairs
    stopped = ScriptedModel(["a" * 200] * 6, parallel=8, chunk_size=1, chunk_delay_s=0.005)
    stopped.capabilities = replaced(stopped.capabilities, prompt_cache=True)
    threading.Timer(0.1, stopped.cancel).start()  # the user's first solve stops the warm-up
    warm_up(stopped, sandbox, "mix")
    assert stopped.batches == [3]  # and nothing is timed after it


def test_mix_more_is_plain_mix_where_chain_of_thought_and_pal_agree(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("12"), "Answer: 12", pot("12")], parallel=8, gain=1.0)
    solution = solve("q", "mix+more", model, sandbox)
    assert model.batches == [1, 1] and solution.samples == 2 and solution.method == "mix+more"


@pytest.mark.parametrize(
    "options",
    [
        "Answer Choices: (A) 60 km/h (B) 70 km/h (C) 75 km/h (D) 80 km/h",
        "A) 60 km/h B) 70 km/h C) 75 km/h D) 80 km/h",  # as a student pastes a quiz
        "\na. 60 km/h\nb. 70 km/h\nc. 75 km/h\nd. 80 km/h",
    ],
)
def test_options_are_matched_before_the_vote_counts(sandbox: Sandbox, options: str) -> None:
    """A program's 75 and chain of thought's "C" for "(C) 75 km/h" are one answer, not a split."""
    question = f"How fast? {options}"
    model = ScriptedModel([pal("75"), "So it is C.\nAnswer: C", pot("75.0")], parallel=8, gain=1.0)
    heard: list[object] = []
    solution = solve(question, "mix", model, sandbox, on_event=heard.append)
    assert solution.votes == (Vote("(C) 75 km/h", 2),) and solution.confidence.confident  # PoT not needed
    # each column says it as the vote counts it (it said "PAL: 75" beside "Chain of thought: C")
    said = [(e.lane, e.answer) for e in heard if isinstance(e, LaneFinished) and e.needed]
    assert said == [(0, "(C) 75 km/h"), (1, "(C) 75 km/h")], said


def test_a_programs_true_is_chain_of_thoughts_yes(sandbox: Sandbox) -> None:
    """ "Is 1001 divisible by 7?": PAL's True and chain of thought's "Yes" were a split, and PoT and
    three more chains of thought ran."""
    model = ScriptedModel([pal("1001 % 7 == 0"), "1001 = 7 x 143.\nAnswer: Yes", pot("False")], parallel=8, gain=1.0)
    solution = solve("Is 1001 divisible by 7?", "mix", model, sandbox)
    assert solution.votes == (Vote("Yes", 2),) and solution.confidence.confident and len(model.calls) == 2


def test_answers_that_name_no_option_do_not_outvote_one_that_does(sandbox: Sandbox) -> None:
    """AQuA dev: both programs printed -800, chain of thought chose (B) $400 (right); and a
    program's 18 was counted as agreeing with "(C) 5 times every 18 years"."""
    question = "How much is left? Answer Choices: (A) $200 (B) $400 (C) $300 (D) $500 (E) $800"
    solution = solve(question, "mix", ScriptedModel([pal("-800"), "Answer: B", pot("-800")]), sandbox)
    assert solution.answer == "(B) $400" and not solution.confidence.confident
    assert [s.answer for s in solution.sampled] == ["-800", "(B) $400", "-800"]  # shown as they were
    neither = solve(question, "mix", ScriptedModel([pal("900"), "Answer: 700", pot("900")]), sandbox)
    assert neither.answer == "900"  # no answer names an option: counted as before
    often = "How often? Answer Choices: (A) 2 times per year (B) once every 15 years (C) 5 times every 18 years"
    model = ScriptedModel([pal("18"), "Answer: C", pot("7.2")])
    assert solve(often, "mix", model, sandbox).confidence.level != "cot+pal"


def test_as_choice_names_the_option_by_letter_or_value_and_leaves_the_rest() -> None:
    choices = choices_in("Answer Choices: (A) 6 (B) 18 (C) 24")
    assert as_choice("The answer is B", choices) == "(B) 18"
    assert as_choice("24.0", choices) == "(C) 24"
    assert as_choice("25", choices) == "25" and as_choice("25", ()) == "25"
    points = choices_in("Answer Choices: (A) (1,1) (B) (0,3) (C) (2,0)")
    assert as_choice("(0, 3)", points) == "(B) (0,3)"  # AQuA dev: a point, not its first number 0
    assert as_choice("(3, 0)", points) == "(3, 0)"


def test_a_first_answer_the_vote_overturns_is_noted(sandbox: Sandbox) -> None:
    model = ScriptedModel([pal("41"), "Answer: 14", pot("14")], parallel=8, gain=1.0)
    events: list[object] = []
    solution = solve("q", "mix", model, sandbox, on_event=events.append)
    assert [e for e in events if isinstance(e, FirstAnswer)] == [FirstAnswer(0, "PAL", "41")]
    assert solution.answer == "14"
    assert solution.notes[-1] == "The first answer shown, 41 (PAL), was only a first answer: the vote changed it"
    same = solve("q", "mix", ScriptedModel([pal("14"), "Answer: 14", pot("14")], parallel=8, gain=1.0), sandbox)
    assert not any(note.startswith("The first answer") for note in same.notes)
    # seen in the window: PAL's 75 and the vote's option "(C) 75 km/h" are one answer, not a change
    question = "How fast? Answer Choices: (A) 60 km/h (B) 70 km/h (C) 75 km/h (D) 80 km/h"
    named = solve(question, "mix", ScriptedModel([pal("75"), "Answer: C"], parallel=8, gain=1.0), sandbox)
    assert named.answer == "(C) 75 km/h"
    assert not any(note.startswith("The first answer") for note in named.notes)


def test_a_tie_goes_to_one_value_over_lines_of_printed_output() -> None:
    lines = "Distance on day 1: 80 miles\nDistance on day 2: 150 miles"
    assert vote([lines, "230", lines, "230 miles"])[0] == Vote("230", 2)
    assert vote([lines, lines, "230"])[0] == Vote(lines, 2)  # more votes still win
    assert not wordy("[1, 2]\n") and not wordy("230") and wordy(lines)
    table = "Year 1: 1100\nYear 2: 1210\nYear 3: 1331"  # where the question asks for rows, lines are its answer
    assert vote([table, "1000, 1100, 1210, 1331"], rows=True)[0].answer == table


def test_chain_of_thought_without_a_boxed_answer_is_read_from_its_conclusion(sandbox: Sandbox) -> None:
    solution = solve("q", "cot", ScriptedModel(["40 + 26 = 66 pens.\nSo, Tom has 66 pens."]), sandbox)
    assert solution.answer == "66" and solution.status is SolveStatus.ANSWERED


def test_two_programs_printing_one_long_text_decide_it(sandbox: Sandbox) -> None:
    """Seen in the window: "Print the letter x 3000 times with no spaces." — PAL and PoT printed the
    same 3000 x's, chain of thought wrote none, and a second round of chains ran (35 s of 60)."""
    replies = [pal("'x' * 400"), "The word has 11 letters.", pot("'x' * 400"), *["Answer: 11"] * 3]
    model = ScriptedModel(replies, parallel=8, chunk_size=3)  # no gain measured yet: batches pay
    solution = solve("Print the letter x 400 times with no spaces.", "mix", model, sandbox)
    assert solution.answer == "x" * 400 and len(model.requests) == 3
    assert model.batches == [1, 1, 1]  # no chains decoded beside PoT after PAL's long text
    assert solution.confidence.level == "pal+pot, printed" and not solution.confidence.confident
    short = [pal("'x' * 4"), "Answer: xxx", pot("'x' * 4"), *["Answer: xxxx"] * 3]  # a short text: chains can write it
    model = ScriptedModel(short, parallel=8, gain=1.0)
    assert solve("Print the letter x 4 times.", "mix", model, sandbox).answer == "xxxx" and len(model.requests) > 3


def test_a_tie_goes_to_the_programs_where_they_printed_text(sandbox: Sandbox) -> None:
    """Seen: "Print the word banana 500 times." PAL and PoT printed it (one with line breaks), the
    chains of thought said 6000 and 500, and the four-way tie went to chain of thought's 6000."""
    replies = [pal("'banana ' * 5"), "Answer: 30", pot("'banana' * 5"), "Answer: 25", "Answer: 6", "Answer: 11"]
    solution = solve("Print the word banana 5 times.", "mix", ScriptedModel(replies, parallel=8, gain=1.0), sandbox)
    assert solution.answer == "banana banana banana banana banana"
    assert not solution.confidence.confident
