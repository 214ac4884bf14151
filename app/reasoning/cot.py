"""Chain-of-thought: the model reasons in words, worked examples first, and ends with an
`Answer:` line. No program runs; it is the baseline the program methods must beat, and the
fallback when every program fails."""

from __future__ import annotations

from app.reasoning import prompts
from app.reasoning.events import EventHandler
from app.reasoning.extract import answer_line
from app.reasoning.session import CancelToken, Sampling, SolveSession, conclude, require_question
from app.reasoning.solution import Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import Sandbox

REASONING_TOKENS = 512
# The worked examples go on with the next "Question:"; a model imitating them would too.
_STOP = ("\nQuestion:",)


def solve_cot(
    question: str,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    sampling: Sampling | None = None,
    on_event: EventHandler | None = None,
    cancel: CancelToken | None = None,
) -> Solution:
    session = SolveSession(model, sandbox, on_event=on_event, cancel=cancel, sampling=sampling)
    draft = Draft(question, "cot")
    return conclude(session, draft, lambda: reason(question, session, draft))


def reason(question: str, session: SolveSession, draft: Draft) -> tuple[SolveStatus, str | None]:
    """Ask for reasoning and read its `Answer:` line (the reasoning is kept as `finish_reply`)."""
    require_question(question)
    reply = session.ask(
        "reasoning",
        prompts.fill("cot", question=question),
        max_tokens=REASONING_TOKENS,
        stop_after_program=False,
        stop=_STOP,
    )
    draft.finish_reply = reply
    answer = answer_line(reply)
    if answer is None:
        draft.error = "The reasoning has no line starting with 'Answer:'."
        return SolveStatus.NO_ANSWER_LINE, None
    return SolveStatus.ANSWERED, answer
