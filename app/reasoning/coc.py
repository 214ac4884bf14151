"""Chain of Code (Li et al., 2023): the model writes code in which semantic steps are calls that
cannot run (`is_fruit("tomato")`); the sandbox runs it statement by statement and, where a line
cannot execute, the model *emulates* it ("LMulator"): from the question, the program and the
current variables it gives the variables' new values (or the expression's value) as JSON, which
go back into the running program. The answer is the variable `answer`; when the program cannot
finish, the model answers directly by chain of thought (labelled as a fallback).

Limits: at most `MAX_EMULATIONS` emulated steps and `EMULATION_BUDGET_S` seconds of model time for
them per solve; a reply that is not a JSON object, or is too large, fails the program cleanly.
"""

from __future__ import annotations

from typing import Unpack

from app.reasoning import prompts
from app.reasoning.cot import reason
from app.reasoning.grammars import JSON_OBJECT
from app.reasoning.numbers import value_text
from app.reasoning.session import (
    ContextOptions,
    Decoding,
    SolveContext,
    SolveSession,
    conclude,
    context_of,
    first_program,
)
from app.reasoning.solution import Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import Sandbox
from sandbox.protocol import MAX_EMULATION_REPLY_BYTES, Emulate, EmulationReply, ProtocolError, loads_line

MAX_EMULATIONS = 24
EMULATION_BUDGET_S = 300.0
EMULATION_TOKENS = 160
# Measured on the embedded model: asked like this (the program, the variables, the call with its
# values written in) it judged is_fruit for lemon, cabbage and plum right; with the question in
# the prompt as well it called a lemon no fruit. So the question is left out.
_ASK_VALUE = 'What does {concrete} return? Reply with only a JSON object {{"value": V}}.'
_ASK_VALUES = (
    "Line {line} cannot run: {concrete}\nReply with only a JSON object that maps each variable this line "
    "assigns or changes to its new value."
)


class EmulationError(ValueError):
    """The model's emulation reply cannot be used."""


def solve_coc(question: str, model: LanguageModel, sandbox: Sandbox, **context: Unpack[ContextOptions]) -> Solution:
    return coc(question, context_of(model, sandbox, **context))


def coc(question: str, context: SolveContext) -> Solution:
    session = context.session()
    draft = Draft(question, "coc")
    return conclude(session, draft, lambda: _solve(question, session, draft))


def _solve(question: str, session: SolveSession, draft: Draft) -> tuple[SolveStatus, str | None]:
    program = first_program(session, draft, prompts.fill("coc", question=question))
    emulator = _LMulator(program, session)
    result = session.run(program, 1, capture=("answer",), emulate=emulator)
    draft.took(result)
    draft.ans = result.values.get("answer")
    draft.code_steps = list(result.steps or ())
    if result.ok and draft.ans is not None:
        return SolveStatus.ANSWERED, value_text(draft.ans)
    if result.ok:
        draft.error = "The program ran but did not set a variable called answer."
    # An irrecoverable error: the model answers directly.
    failed_error = draft.error
    status, answer = reason(question, session, draft)
    draft.fallback_used = True
    draft.error = failed_error if status is SolveStatus.ANSWERED else draft.error
    return status, answer


class _LMulator:
    """Answers the sandbox's emulation requests with the model (one call per request)."""

    def __init__(self, program: str, session: SolveSession) -> None:
        self.program, self.session = program, session
        self.count = 0
        self.started = session.elapsed()

    def __call__(self, request: Emulate) -> EmulationReply:
        self.count += 1
        if self.count > MAX_EMULATIONS:
            return EmulationReply.failed(
                f"more than {MAX_EMULATIONS} lines needed emulating; the step limit stopped the program"
            )
        if self.session.elapsed() - self.started > EMULATION_BUDGET_S:
            return EmulationReply.failed(f"emulation took more than {EMULATION_BUDGET_S:g} s of model time")
        concrete = (request.concrete or request.statement)[:2000]
        template = _ASK_VALUE if request.expression is not None else _ASK_VALUES
        ask = template.format(concrete=concrete, line=request.line)
        shown = ", ".join(f"{k} = {v}" for k, v in request.state.items())
        prompt = prompts.fill("lmulator", program=self.program, state=shown[:8000] or "(none)", request=ask)
        reply = self.session.ask(
            "emulate", prompt, max_tokens=EMULATION_TOKENS, stop_after_program=False, decoding=Decoding(JSON_OBJECT)
        )
        try:
            return parse_emulation(reply, want_value=request.expression is not None)
        except EmulationError as exc:
            return EmulationReply.failed(str(exc))


def parse_emulation(reply: str, *, want_value: bool) -> EmulationReply:
    """The sandbox's reply from the model's: the expression's value or the variables' new values."""
    text = reply.strip()
    if len(text) > MAX_EMULATION_REPLY_BYTES:
        raise EmulationError(f"the model's emulation reply is longer than {MAX_EMULATION_REPLY_BYTES:,} characters")
    start, end = text.find("{"), text.rfind("}")
    try:
        data = loads_line(text[start : end + 1].encode()) if start >= 0 and end > start else None
    except ProtocolError:
        data = None
    if not isinstance(data, dict):
        raise EmulationError(f"the model's emulation reply is not a JSON object: {text[:200]!r}")
    if want_value:
        if "value" not in data:
            raise EmulationError("the model's emulation reply has no value")
        return EmulationReply.of_value(data["value"])
    bad = [name for name in data if not name.isidentifier()]
    if bad:
        raise EmulationError(f"the model's emulation reply names invalid variables: {bad[:5]}")
    return EmulationReply.of_values(data)
