"""A second look at a program over the user's data, before its answer is given.

The embedded model's commonest wrong answers over a data file come from programs that filter on
what the question never asked or never read what it names (`app.reasoning.unasked`), and from
programs that fail on a slip (a misspelled name, `datetime.date(2016)`, a pandas habit over row
dicts). Such a program is mended
without the model where that is safe, else written once more by the model, told what was wrong
(docs/results.md, issue 32).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.data import DataSet
from app.data.describe import long_measure
from app.reasoning import prompts
from app.reasoning.error_words import misspelled
from app.reasoning.events import ProgramExtracted
from app.reasoning.numbers import format_answer
from app.reasoning.session import PROGRAM_TOKENS, Decoding, SolveSession, Stop
from app.reasoning.solution import Draft, SolveStatus
from app.reasoning.unasked import (
    Refiltered,
    asked_year,
    measured,
    recolumned,
    refiltered,
    renamed,
    rowpicked,
    unasked_filters,
    unread_measures,
    unread_year,
    unused_mentions,
    yeared,
)

# What a second program, told the error, can fix (not a time limit: the data is as large as it is).
_FIXABLE = (SolveStatus.EXECUTION_FAILED, SolveStatus.EMPTY_OUTPUT)
_ERROR_CHARS = 1_500  # the end of a traceback, where the error is


@dataclass(frozen=True)
class Look:
    """What the second look knows of the solve."""

    question: str
    asked: str  # the first prompt
    data: DataSet


def second_look(
    look: Look,
    *,
    session: SolveSession,
    draft: Draft,
    decoding: Decoding,
    first: tuple[SolveStatus, str | None],
) -> tuple[SolveStatus, str | None]:
    """A program over data that filters on what the question never asked (`unasked_filters`),
    never reads what it names (`unused_mentions`), or failed, gets a second look: mended without
    the model where that is safe (`_trouble`), else written once more by the model, told what was
    wrong, going on from the first prompt and program (so its cache of them is reused). A new
    program is taken when it runs and has fewer of the faults; else the first outcome stands."""
    program = draft.programs[-1] if draft.programs else ""
    trouble = _trouble(look, draft, first, program)
    if trouble is None:
        return first
    if trouble.mended is not None:
        session.emit(ProgramExtracted(trouble.mended, len(draft.programs) + 1))
        taken = _take(session, draft, trouble.mended, trouble.note)
        if taken is not None:
            return taken
    prompt = prompts.fill(
        "pal-data-again",
        first=look.asked,
        program=program,
        trouble=trouble.words,
        problem=trouble.problem,
        question=look.question,
    )
    try:
        reply = session.ask("again", prompt, max_tokens=PROGRAM_TOKENS, stop_after_program=True, decoding=decoding)
    except Stop as stop:  # a look beyond the model's context (a 58-column table) costs the answer nothing
        if stop.status is not SolveStatus.MODEL_ERROR:
            raise
        return _doubted(draft, trouble, first)
    again = session.program_from(reply, attempt=len(draft.programs) + 1)
    if again is None or (trouble.faults and len(trouble.faults_of(look, again)) >= len(trouble.faults)):
        return _doubted(draft, trouble, first)
    if not trouble.faults and (_unasked(look, again) or _unused(look, again)):
        return first  # in place of a failure, not an answer the first checks would doubt (seen: 100 %)
    draft.repair_used = not trouble.faults
    taken = _take(session, draft, again, f"The first program {trouble.said}; it was written again.")
    return taken or _doubted(draft, trouble, first)


def _doubted(draft: Draft, trouble: _Trouble, first: tuple[SolveStatus, str | None]) -> tuple[SolveStatus, str | None]:
    """The first outcome, standing; an answer whose faults no second look put right says so (seen
    in the window: 100 % for renewables' share, the sources never read, and nothing said)."""
    if trouble.faults and first[0] is SolveStatus.ANSWERED:
        draft.notes.append(f"The program {trouble.said}, and a second try did no better: check this answer.")
    return first


@dataclass(frozen=True)
class _Trouble:
    words: str  # what the program did, for the model: "failed when it ran"
    problem: str  # the error, or the faults in words
    said: str  # what the first program did, for the solution's notes
    faults: tuple[str, ...] = ()  # unasked filters or unused mentions (none: a failure)
    faults_of: Callable[[Look, str], tuple[str, ...]] = lambda _look, _program: ()  # the same check on another program
    mended: str | None = None  # the program mended without the model, where that is safe
    note: str = ""  # what mending it changed, for the solution's notes


def _unasked(look: Look, program: str) -> tuple[str, ...]:
    return unasked_filters(program, look.question, look.data.shared_values)


def _unused(look: Look, program: str) -> tuple[str, ...]:
    unused = unused_mentions(program, look.question, look.data.text_values, _columns(look.data))
    unused += unread_measures(program, look.question, _measures(look.data))
    year = unread_year(program, look.question)
    if year is None or year in look.data.shared_values or not _dated(look.data):
        return unused
    return (*unused, f"the year {year}")


def _dated(data: DataSet) -> dict[str, tuple[str, bool]]:
    """Each table's one date column (or column of year numbers), by which a year is kept to."""
    dated = {}
    for table in data.tables:
        dates = [c for c, kind in zip(table.columns, table.types, strict=True) if kind in ("date", "datetime")]
        years = [c for c, kind in zip(table.columns, table.types, strict=True) if kind == "int" and _a_year(c)]
        if len(dates) == 1:
            dated[table.name] = (dates[0], True)
        elif not dates and len(years) == 1:
            dated[table.name] = (years[0], False)
    return dated


def _measures(data: DataSet) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each long table's measure column and its values (`describe.long_measure`), by table."""
    return {table.name: measure for table in data.tables if (measure := long_measure(table)) is not None}


def _a_year(column: str) -> bool:
    return any(word in column.casefold() for word in ("year", "jahr", "année", "año", "anno"))


def _columns(data: DataSet) -> list[str]:
    return [column for table in data.tables for column in table.columns]


def _trouble(look: Look, draft: Draft, first: tuple[SolveStatus, str | None], program: str) -> _Trouble | None:
    """What is wrong with an answered program over data (an unasked filter: the question's value
    put in, or the condition left out; something the question names and it never reads) or a
    failed one (a misspelled name put right), or one that printed nothing but None; None: nothing."""
    status, answer = first
    if status is SolveStatus.ANSWERED:
        unasked = _unasked(look, program)
        if unasked:
            mended = refiltered(program, look.question, look.data.shared_values, look.data.text_values)
            if mended and (further := _reread(look, mended.program)):  # its filters out, what it missed in
                mended = Refiltered(further.program, mended.changes + further.changes)
            changes = "; ".join(mended.changes) if mended else ""
            return _Trouble(
                "filters the data on something the question does not ask about",
                f"It compares with {'; '.join(unasked)}, which the question does not mention.",
                f"compared with {'; '.join(unasked)}, which the question does not ask about",
                unasked,
                _unasked,
                mended.program if mended else None,
                f"The program filtered on what the question does not ask about; mended: {changes}.",
            )
        unused = _unused(look, program)
        if not unused:
            return _Trouble("printed None", "It found no value.", "printed None") if _nothing(answer) else None
        swapped = _reread(look, program)
        return _Trouble(
            "does not read what the question asks about",
            f"It never reads {'; '.join(unused)}, which the question names.",
            f"never read {'; '.join(unused)}, which the question names",
            unused,
            _unused,
            swapped.program if swapped else None,
            f"The program did not read what the question names; mended: {'; '.join(swapped.changes)}."
            if swapped
            else "",
        )
    if status not in _FIXABLE or not program:
        return None
    error = draft.error or "the program printed nothing"
    missing, meant = misspelled(error, program) or ("", None)
    spelled = renamed(program, missing, meant) if meant else None
    note = f"The program misspelled `{meant}` as `{missing}`; mended." if spelled else ""
    return _Trouble("failed when it ran", error[-_ERROR_CHARS:], "failed", mended=spelled, note=note)


def _reread(look: Look, program: str) -> Refiltered | None:
    """`program` reading the year's column and the row the question names, in place of the ones
    it read, and keeping to the year and the measure it asks about (`recolumned`, `rowpicked`,
    `yeared`, `measured`), where any applies; else None."""
    mends: tuple[Callable[[str], Refiltered | None], ...] = (
        lambda p: recolumned(p, look.question, _columns(look.data)),
        lambda p: rowpicked(p, look.question, look.data.text_values),
        lambda p: (
            None
            if asked_year(look.question) in look.data.shared_values
            else yeared(p, look.question, _dated(look.data))
        ),
        lambda p: measured(p, look.question, _measures(look.data)),
    )
    mended, changes = program, tuple[str, ...]()
    for mend in mends:
        if (step := mend(mended)) is not None:
            mended, changes = step.program, changes + step.changes
    return Refiltered(mended, changes) if changes else None


def _nothing(answer: str | None) -> bool:
    """An answer that is no value: nothing printed, or None (a filter that found no row)."""
    return answer is None or answer.strip().lower() in ("", "none", "nan", "[]", "{}")


def _take(session: SolveSession, draft: Draft, program: str, note: str) -> tuple[SolveStatus, str | None] | None:
    """Run `program` as the next attempt; when it prints an answer it is the working (with `note`)."""
    result = session.run(program, len(draft.programs) + 1, capture=())
    if not result.ok or _nothing(result.stdout):
        return None  # the earlier program's working stays what is shown
    draft.programs.append(program)
    draft.took(result)
    draft.notes.append(note)
    return SolveStatus.ANSWERED, format_answer(result.stdout)
