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
program gets one second look with that shape in the prompt (`_second_look`): when it failed, or
when it filters on what the question never asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Unpack

from app.data.describe import describe
from app.reasoning import prompts
from app.reasoning.error_words import misspelled
from app.reasoning.events import EventHandler, ProgramExtracted
from app.reasoning.grammars import ONE_PYTHON_BLOCK
from app.reasoning.numbers import format_answer
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
from app.reasoning.unasked import refiltered, renamed, unasked_filters
from models.types import LanguageModel
from sandbox import RunResult, Sandbox

EMPTY_OUTPUT_ERROR = "The program ran but printed nothing; it must print the final answer."
# Over data, what a second program told the error can fix (not a timeout: the data is as large as it is).
_FIXABLE = (SolveStatus.EXECUTION_FAILED, SolveStatus.EMPTY_OUTPUT)
_ERROR_CHARS = 1_500  # the end of a traceback, where the error is


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
            look = _Look(question, prompt, data.shared_values, data.text_values)
            return _second_look(look, session=session, draft=draft, decoding=decoding, first=first)

        return conclude(session, draft, over_data)
    prompt = prompts.fill("pal-shots" if options.shots else "pal", question=prompts.with_hints(question))
    solve = lambda: _solve(question, session, draft, prompt=prompt, decoding=decoding, repair=options.repair)  # noqa: E731
    return conclude(session, draft, solve)


@dataclass(frozen=True)
class _Look:
    question: str
    asked: str  # the first prompt
    shared: frozenset[object]  # values every row holds (`DataSet.shared_values`)
    values: Mapping[str, frozenset[str]]  # each text column's values (`DataSet.text_values`)


def _second_look(
    look: _Look,
    *,
    session: SolveSession,
    draft: Draft,
    decoding: Decoding,
    first: tuple[SolveStatus, str | None],
) -> tuple[SolveStatus, str | None]:
    """A program over data that filters on what the question never asked (`unasked_filters`), or
    that failed, gets a second look: mended without the model where that is safe (`_trouble`),
    else written once more by the model, told what was wrong, going on from the first prompt and
    program (so its cache of them is reused). A new program is taken when it runs (and filters on
    less); else the first outcome stands."""
    program = draft.programs[-1] if draft.programs else ""
    trouble = _trouble(look, draft, first[0], program)
    if trouble is None:
        return first
    if trouble.mended is not None:
        session.emit(ProgramExtracted(trouble.mended, len(draft.programs) + 1))
        taken = _take(session, draft, trouble.mended, trouble.note)
        if taken is not None:
            return taken
    prompt = prompts.fill(
        "pal-data-again", first=look.asked, program=program, trouble=trouble.words, problem=trouble.problem
    )
    try:
        reply = session.ask("again", prompt, max_tokens=PROGRAM_TOKENS, stop_after_program=True, decoding=decoding)
    except Stop as stop:  # a look beyond the model's context (a 58-column table) costs the answer nothing
        if stop.status is not SolveStatus.MODEL_ERROR:
            raise
        return first
    again = session.program_from(reply, attempt=len(draft.programs) + 1)
    unasked = trouble.unasked
    if again is None or (unasked and len(unasked_filters(again, look.question, look.shared)) >= len(unasked)):
        return first
    said = f"compared with {'; '.join(unasked)}, which the question does not ask about" if unasked else "failed"
    draft.repair_used = not unasked
    return _take(session, draft, again, f"The first program {said}; it was written again.") or first


@dataclass(frozen=True)
class _Trouble:
    words: str  # what the program did, for the model: "failed when it ran"
    problem: str  # the error, or the unasked filters in words
    unasked: tuple[str, ...] = ()
    mended: str | None = None  # the program mended without the model, where that is safe
    note: str = ""  # what mending it changed, for the solution's notes


def _trouble(look: _Look, draft: Draft, status: SolveStatus, program: str) -> _Trouble | None:
    """What is wrong with an answered program over data (an unasked filter: the question's value
    put in, or the condition left out) or a failed one (a misspelled name put right); None: nothing."""
    if status is SolveStatus.ANSWERED:
        unasked = unasked_filters(program, look.question, look.shared)
        if not unasked:
            return None
        mended = refiltered(program, look.question, look.shared, look.values)
        return _Trouble(
            "filters the data on something the question does not ask about",
            f"It compares with {'; '.join(unasked)}, which the question does not mention.",
            unasked,
            mended.program if mended else None,
            f"The program filtered on what the question does not ask about; mended: {'; '.join(mended.changes)}."
            if mended
            else "",
        )
    if status not in _FIXABLE or not program:
        return None
    error = draft.error or EMPTY_OUTPUT_ERROR
    missing, meant = _missing_name(error), misspelled(error, program)
    spelled = renamed(program, missing, meant) if missing and meant else None
    return _Trouble(
        "failed when it ran",
        error[-_ERROR_CHARS:],
        (),
        spelled,
        f"The program misspelled `{meant}` as `{missing}`; mended.",
    )


def _missing_name(error: str) -> str | None:
    found = re.search(r"NameError: name '(\w{1,80})' is not defined", error[-_ERROR_CHARS:])
    return found.group(1) if found else None


def _take(session: SolveSession, draft: Draft, program: str, note: str) -> tuple[SolveStatus, str | None] | None:
    """Run `program` as the next attempt; when it prints an answer it is the working (with `note`)."""
    result = session.run(program, len(draft.programs) + 1, capture=())
    if not (result.ok and result.stdout.strip()):
        return None  # the earlier program's working stays what is shown
    draft.programs.append(program)
    draft.took(result)
    draft.notes.append(note)
    return SolveStatus.ANSWERED, format_answer(result.stdout)


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
    error: str,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    on_event: EventHandler | None = None,
    cancel: CancelToken | None = None,
) -> str | None:
    """One Repair-prompt call for a program the user is looking at; the corrected program or None.

    The caller decides whether to accept it (the desktop app shows a diff first).
    """
    session = SolveSession(model, sandbox, on_event=on_event, cancel=cancel)
    prompt = prompts.fill("repair", question=question, program=program, error=error or EMPTY_OUTPUT_ERROR)
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
