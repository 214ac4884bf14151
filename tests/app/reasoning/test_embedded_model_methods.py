"""The newer methods once each on the real embedded model (short questions: it decodes about
10 tokens a second here): the grammar, Chain of Code's emulation, IIPC's whole construction, the
missing `ans` line, the mixed vote in one batch."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from app.reasoning.events import FirstAnswer, LaneStreamed
from app.reasoning.methods import solve
from app.reasoning.solution import SolveStatus
from app.reasoning.working import worked_solution
from models.local import LocalModel
from models.types import BatchEvent, Generation, GenerationRequest
from sandbox import Sandbox


def test_the_grammar_forces_exactly_one_fenced_block(local_model: LocalModel, sandbox: Sandbox) -> None:
    solution = solve("Say hello, then compute 6 * 7.", "pal+grammar", local_model, sandbox)
    reply = solution.calls[0].reply
    assert reply.startswith("```python\n") and reply.endswith("```")
    assert reply.count("```") == 2
    assert (solution.answer or "").splitlines()[-1] == "42"  # it may print the hello too, inside the program


def test_chain_of_code_emulates_a_judgement(local_model: LocalModel, sandbox: Sandbox) -> None:
    question = "I have a lemon, a cabbage, two plums and an onion. How many fruits do I have?"
    solution = solve(question, "coc", local_model, sandbox)
    assert solution.status is SolveStatus.ANSWERED, solution.error
    assert not solution.fallback_used
    assert any(step.emulated for step in solution.code_steps)
    assert "emulate" in [call.purpose for call in solution.calls]
    assert solution.answer is not None and solution.answer.isdigit()


def test_iipc_runs_its_whole_construction(local_model: LocalModel, sandbox: Sandbox) -> None:
    question = "Tom has 3 boxes of 12 eggs and breaks 5. How many eggs are left?"
    solution = solve(question, "iipc", local_model, sandbox)
    kinds = [step.kind for step in solution.timeline]
    assert kinds[0] == "propositions" and kinds[-2:] == ["reasoning", "integration"]
    assert {"program", "run", "validation"} <= set(kinds)
    assert solution.answer == "31"


def test_the_model_writes_the_missing_ans_line(local_model: LocalModel, sandbox: Sandbox) -> None:
    """PoT's default on the real model: a program that prints instead of setting `ans` is
    continued from `ans =` (the chat template, then the program, then the open line)."""
    from app.reasoning import prompts
    from app.reasoning.pot import _with_ans_line
    from app.reasoning.session import SolveSession
    from app.reasoning.solution import Draft

    question = "Tom has 5 apples and buys 7 more. How many apples does he have?"
    program = "apples = 5\nbought = 7\ntotal = apples + bought\nprint(total)"
    session, draft = SolveSession(local_model, sandbox), Draft(question, "pot")
    draft.programs.append(program)
    completed = _with_ans_line(session, draft, prompts.fill("pot", question=question), program)
    assert completed.startswith(program + "\nans =") and completed.count("\n") == program.count("\n") + 1
    result = sandbox.run(completed)
    assert result.ok and result.values["ans"].json == 12, completed
    assert session.calls[0].purpose == "ans line" and session.calls[0].completion_tokens < 20


class _Counting:
    """The real model, counting how its requests arrive (one batch, or one at a time)."""

    def __init__(self, model: LocalModel) -> None:
        self.model, self.name = model, model.name
        self.capabilities = model.capabilities
        self.batches: list[int] = []
        self.single = 0

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        self.single += 1
        return self.model.generate(request)

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
        self.batches.append(len(requests))
        return self.model.generate_batch(requests)

    def cancel(self) -> None:
        self.model.cancel()

    def close(self) -> None:
        """The fixture's model is closed by the fixture."""


def test_a_mixed_vote_asks_pal_first_and_pot_only_if_needed(local_model: LocalModel, sandbox: Sandbox) -> None:
    """The rehearsed first requests are exactly those the methods send: nothing is decoded twice.
    PAL first (its answer is the first on screen), then chain of thought; their agreeing settles
    it, so PoT is not asked. Each method's reply reaches its own lane, whole and once."""
    model = _Counting(local_model)
    events: list[object] = []
    question = "A box holds 6 rows of 7 eggs. How many eggs are in the box?"
    solution = solve(question, "mix", model, sandbox, on_event=events.append)
    assert model.batches == [1, 1] and model.single == 0, (model.batches, model.single)
    assert [s.method for s in solution.sampled] == ["pal", "cot"] and solution.answer == "42", solution.sampled
    assert [e.label for e in events if isinstance(e, FirstAnswer)] == ["PAL"]
    lanes: dict[int, str] = {}
    for event in events:
        if isinstance(event, LaneStreamed):
            lanes[event.lane] = lanes.get(event.lane, "") + event.text
    assert [lanes.get(lane) for lane in range(len(solution.calls))] == [call.reply for call in solution.calls]


def test_a_warm_up_times_two_sequences_together(local_model: LocalModel, sandbox: Sandbox) -> None:
    """So a session's first mixed vote knows whether pairing PAL and chain of thought pays."""
    from app.reasoning.methods import warm_up

    if local_model._parallel is not None:  # steps earlier tests timed: this warm-up must time its own
        local_model._parallel._step_seconds.clear()
    assert local_model.batch_gain(2) is None
    assert warm_up(local_model, sandbox, "mix") == 3
    gain = local_model.batch_gain(2)
    assert gain is not None and 0.5 < gain < 2.5, gain  # two at most twice one's rate (a noisy step aside)


def test_an_equation_is_solved_with_sympy_and_its_algebra_shown(local_model: LocalModel, sandbox: Sandbox) -> None:
    """The prompt asks for sympy when the question gives an equation: the working then shows the
    moves a teacher writes, and the answer is the root, not sympy's list of them."""
    solution = solve("Solve 3x + 7 = 25", "pal", local_model, sandbox)
    assert solution.answer == "6", solution.program
    steps = worked_solution(solution.program, solution.variables, solution.question, output=solution.output)
    assert "3x + 7 = 25" in [step.latex for step in steps] and "Take 7 from both sides:" in [s.text for s in steps]
