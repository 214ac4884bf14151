"""PAL (Program-aided Language models), as the user's spec states it.

1. Fill the Program-aided prompt with the question; call the model once.
2. Extract the program; none → no answer, status no_program.
3. Run it in the sandbox (default 5 s) and capture what it prints.
4. The printed output, trimmed, is the answer; the program is kept as the working.
5. With repair on and a failed run, call the model once with the Repair prompt (program + error)
   and run the corrected program the same way.
Stop rule: stop when a program runs and prints an answer. Repair off and a failed run: no answer,
with the program and the error. Repair on: one attempt; if it fails too, status execution_failed.
Empty output is a failure, the same as an exception.
Over a data file the prompt holds the data's shape (`pal-data`), and in place of the repair the
program gets one second look (`second_look`): when it failed, filters on what the question never
asked, or never reads what it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from app.data import DataSet
from app.data.describe import describe
from app.reasoning import prompts
from app.reasoning.events import EventHandler
from app.reasoning.grammars import ONE_PYTHON_BLOCK
from app.reasoning.numbers import format_answer
from app.reasoning.second_look import Look, second_look
from app.reasoning.session import (
    PROGRAM_TOKENS,
    CancelToken,
    ContextOptions,
    Decoding,
    SolveContext,
    SolveSession,
    Stop,
    conclude,
    context_of,
    failure_status,
    first_program,
)
from app.reasoning.solution import Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import RunResult, Sandbox

EMPTY_OUTPUT_ERROR = "The program ran but printed nothing; it must print the final answer."


@dataclass(frozen=True)
class PalOptions:
    repair: bool = False  # one repair call when the program fails
    shots: bool = False  # the prompt with more worked examples
    grammar: bool = False  # the reply is forced to be one fenced Python block

    @staticmethod
    def named(names: frozenset[str]) -> PalOptions:
        """From a method name's options (`pal+repair+shots`)."""
        return PalOptions("repair" in names, "shots" in names, "grammar" in names)


def solve_pal(
    question: str,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    repair: bool = False,
    shots: bool = False,
    grammar: bool = False,
    **context: Unpack[ContextOptions],
) -> Solution:
    """PAL, as the seed contract calls it (`pal` with loose parameters); `sampling` (else
    `temperature`) sets how the model samples."""
    return pal(question, PalOptions(repair, shots, grammar), context_of(model, sandbox, **context))


def pal(question: str, options: PalOptions, context: SolveContext) -> Solution:
    session, data = context.session(), context.data
    draft = Draft(question, "pal")
    decoding = Decoding(grammar=ONE_PYTHON_BLOCK if options.grammar else None)
    if data is not None:  # the model sees the data's shape; the program reads the data from `tables`
        prompt = prompts.fill("pal-data", schema=describe(data), question=question)

        def over_data() -> tuple[SolveStatus, str | None]:
            first = _solve(question, session, draft, prompt=prompt, decoding=decoding, repair=False)
            look = Look(question, prompt, data)
            return second_look(look, session=session, draft=draft, decoding=decoding, first=first)

        return conclude(session, draft, over_data)
    prompt = prompts.fill("pal-shots" if options.shots else "pal", question=prompts.with_hints(question))
    solve = lambda: _solve(question, session, draft, prompt=prompt, decoding=decoding, repair=options.repair)  # noqa: E731
    return conclude(session, draft, solve)


def _solve(
    question: str, session: SolveSession, draft: Draft, *, prompt: str, decoding: Decoding, repair: bool
) -> tuple[SolveStatus, str | None]:
    program = first_program(session, draft, prompt, decoding)
    result = _run(session, draft, program, 1)
    if result is not None:
        return SolveStatus.ANSWERED, format_answer(result.stdout)
    if not repair:
        return _first_failure(session, draft), None

    draft.repair_used = True
    error = draft.error or EMPTY_OUTPUT_ERROR
    repair_prompt = prompts.fill("repair", question=question, program=program, error=error)
    reply = session.ask("repair", repair_prompt, max_tokens=PROGRAM_TOKENS, stop_after_program=True, decoding=decoding)
    fixed = session.program_from(reply, attempt=2)
    if fixed is None:
        draft.error = f"the repair reply contains no program (the first program failed with: {error})"
        return SolveStatus.EXECUTION_FAILED, None
    draft.programs.append(fixed)
    result = _run(session, draft, fixed, 2)
    if result is not None:
        return SolveStatus.ANSWERED, format_answer(result.stdout)
    return SolveStatus.EXECUTION_FAILED, None


def _run(session: SolveSession, draft: Draft, program: str, attempt: int) -> RunResult | None:
    """Run one program; the result when it printed an answer, else None (draft holds the error)."""
    result = session.run(program, attempt, capture=())
    draft.took(result)
    if result.ok and result.stdout.strip():
        return result
    if result.ok:
        draft.error = EMPTY_OUTPUT_ERROR
    return None


def _first_failure(session: SolveSession, draft: Draft) -> SolveStatus:
    result = session.last_result
    assert result is not None
    if result.ok:
        return SolveStatus.EMPTY_OUTPUT
    return failure_status(result)


def propose_repair(
    question: str,
    program: str,
    error: str | None,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    data: DataSet | None = None,
    on_event: EventHandler | None = None,
    cancel: CancelToken | None = None,
) -> str | None:
    """One Repair-prompt call for a program the user is looking at; the corrected program or None.
    Over a data file the model is shown its shape, as when it wrote the program: without it, told
    "no column 'Ben'", it guessed `tables["attendance"].get("Ben", {})` (seen in the window).

    The caller decides whether to accept it (the desktop app shows a diff first).
    """
    session = SolveSession(model, sandbox, on_event=on_event, cancel=cancel)
    failed = {"question": question, "program": program, "error": error or EMPTY_OUTPUT_ERROR}
    prompt = prompts.fill("repair-data", schema=describe(data), **failed) if data else prompts.fill("repair", **failed)
    try:
        reply = session.ask("repair", prompt, max_tokens=PROGRAM_TOKENS, stop_after_program=True)
    except Stop:
        return None
    return session.program_from(reply, attempt=2)


EXPLAIN_TOKENS = 120


def explain_line(
    question: str,
    program: str,
    number: int,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    on_event: EventHandler | None = None,
    cancel: CancelToken | None = None,
) -> str:
    """One or two sentences on what line `number` of `program` does for the question ("" when
    cancelled or the model fails; nothing is run)."""
    lines = program.splitlines()
    if not 0 < number <= len(lines) or not lines[number - 1].strip():
        return ""
    session = SolveSession(model, sandbox, on_event=on_event, cancel=cancel)
    prompt = prompts.fill(
        "explain-line",
        question=question or "(none)",
        program=program,
        number=str(number),
        line=lines[number - 1].strip(),
    )
    try:
        reply = session.ask("explain", prompt, max_tokens=EXPLAIN_TOKENS, stop_after_program=False)
    except Stop:
        return ""
    return reply.strip()
