"""Chain-of-thought: the model reasons in words and ends with its answer in `\\boxed{}` (or an
`Answer:` line). No program runs; it is the baseline the program methods must beat, and the
fallback when every program fails.

The prompt is the one the Qwen2.5 models were trained to reason with ("Please reason step by
step, and put your final answer within \\boxed{}") and no worked examples: on GSM8K items 1–200 it
was right 61 % of the time where four worked examples in a short style were right 50 % (docs/results.md,
issue 33), writing about 2.5 × the tokens. Asked for plain text it still writes LaTeX about half the
time; that is turned into plain text (`plain_math`) before the reasoning is kept, shown or its
arithmetic checked."""

from __future__ import annotations

from typing import Unpack

from app.reasoning import prompts
from app.reasoning.answer_kind import alternatives_in, named_alternative, rows_asked
from app.reasoning.extract import MAX_CONCLUDING_CHARS, answer_line, concluded, sentence_number
from app.reasoning.numbers import last_rows, one_number, written_list
from app.reasoning.plain_math import plain_math
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
# A model imitating a question-and-answer page goes on with the next "Question:".
_STOP = ("\nQuestion:",)


def solve_cot(question: str, model: LanguageModel, sandbox: Sandbox, **context: Unpack[ContextOptions]) -> Solution:
    return cot(question, context_of(model, sandbox, **context))


def cot(question: str, context: SolveContext) -> Solution:
    session = context.session()
    draft = Draft(question, "cot")
    return conclude(session, draft, lambda: reason(question, session, draft))


def reason(question: str, session: SolveSession, draft: Draft) -> tuple[SolveStatus, str | None]:
    """Ask for reasoning and read its answer: the boxed one or its `Answer:` line, else the number
    its last line concludes with (the reasoning is kept, as plain text, as `finish_reply`)."""
    require_question(question)
    reply = session.ask(
        "reasoning",
        prompts.fill("cot", question=question),
        max_tokens=REASONING_TOKENS,
        stop_after_program=False,
        stop=_STOP,
    )
    draft.finish_reply = plain_math(reply)
    said = answer_line(reply)  # a sentence there is read as the number it states
    answer = sentence_number(said, question) if said else concluded_answer(draft.finish_reply, question)
    ran_out = session.calls[-1].completion_tokens >= REASONING_TOKENS  # its table may stop halfway
    if rows_asked(question) and (answer is None or one_number(answer)) and not ran_out:
        answer = written_rows(draft.finish_reply) or answer
    if answer is None:
        draft.error = "The reasoning states no final answer (no \\boxed{…} and no line starting with 'Answer:')."
        return SolveStatus.NO_ANSWER_LINE, None
    return SolveStatus.ANSWERED, answer


def written_rows(reasoning: str) -> str | None:
    """The table or list reasoning wrote out, as the list of its rows' numbers ("7, 14, … 70"), for
    a question asking for rows: a chain wrote the multiplication table of 7 in a ```plaintext block
    and no answer line (read as no answer), another on one line and concluded on its last product.
    Not of reasoning cut off by its token limit: checking the numbers below 30 one by one for
    primes, chains wrote a line a number and ran out."""
    rows = last_rows(reasoning)
    return written_list(rows) if rows else None


def concluded_answer(reasoning: str, question: str) -> str | None:
    """What reasoning without an answer line ends on: the one alternative its last line names
    where the question asks which of some ("Conclusion: The 5-pack is cheaper per pen." for "…, a
    pack of 3 for $4.50 or a pack of 5 for $7?": not read, or read as its 5), else its number."""
    lines = reasoning[-4 * MAX_CONCLUDING_CHARS :].strip().splitlines()
    named = named_alternative(lines[-1], alternatives_in(question)) if lines else None
    return named or concluded(reasoning)
