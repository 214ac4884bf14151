"""Chain-of-thought: the model reasons in words, worked examples first, and ends with an
`Answer:` line. No program runs; it is the baseline the program methods must beat, and the
fallback when every program fails."""

from __future__ import annotations

from typing import Unpack

from app.reasoning import prompts
from app.reasoning.extract import answer_line
from app.reasoning.session import (
    ContextOptions,
    SolveContext,
    SolveSession,
    conclude,
    context_of,
    require_question,
)
from app.reasoning.solution import Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import Sandbox

REASONING_TOKENS = 512
# The worked examples go on with the next "Question:"; a model imitating them would too.
_STOP = ("\nQuestion:",)


def solve_cot(question: str, model: LanguageModel, sandbox: Sandbox, **context: Unpack[ContextOptions]) -> Solution:
    return cot(question, context_of(model, sandbox, **context))


def cot(question: str, context: SolveContext) -> Solution:
    session = context.session()
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
