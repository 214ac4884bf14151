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

import json
from typing import Any, Unpack

from app.reasoning import prompts
from app.reasoning.cot import reason
from app.reasoning.grammars import JSON_OBJECT
from app.reasoning.pot import ans_text
from app.reasoning.session import (
    ContextOptions,
    Decoding,
    SolveContext,
    SolveSession,
    conclude,
    context_of,
    first_program,
)
from app.reasoning.solution import CodeStep, Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import Sandbox

MAX_EMULATIONS = 24
EMULATION_BUDGET_S = 300.0
EMULATION_TOKENS = 160
MAX_EMULATION_REPLY_CHARS = 4000
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
    draft.code_steps = [_code_step(step) for step in result.steps or [] if isinstance(step, dict)]
    if result.ok and draft.ans is not None:
        return SolveStatus.ANSWERED, ans_text(draft.ans)
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

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        self.count += 1
        if self.count > MAX_EMULATIONS:
            return {"error": f"more than {MAX_EMULATIONS} lines needed emulating; the step limit stopped the program"}
        if self.session.elapsed() - self.started > EMULATION_BUDGET_S:
            return {"error": f"emulation took more than {EMULATION_BUDGET_S:g} s of model time"}
        expression = request.get("expression")
        concrete = str(request.get("concrete") or request.get("statement", ""))[:2000]
        line = request.get("line", "?")
        ask = (_ASK_VALUE if isinstance(expression, str) else _ASK_VALUES).format(concrete=concrete, line=line)
        state = request.get("state")
        shown = ", ".join(f"{k} = {v}" for k, v in state.items()) if isinstance(state, dict) else ""
        prompt = prompts.fill("lmulator", program=self.program, state=shown[:8000] or "(none)", request=ask)
        reply = self.session.ask(
            "emulate", prompt, max_tokens=EMULATION_TOKENS, stop_after_program=False, decoding=Decoding(JSON_OBJECT)
        )
        try:
            return parse_emulation(reply, want_value=isinstance(expression, str))
        except EmulationError as exc:
            return {"error": str(exc)}


def parse_emulation(reply: str, *, want_value: bool) -> dict[str, Any]:
    """The sandbox's reply from the model's: `{"value": v}` or `{"values": {...}}` (JSON only)."""
    text = reply.strip()
    if len(text) > MAX_EMULATION_REPLY_CHARS:
        raise EmulationError(f"the model's emulation reply is longer than {MAX_EMULATION_REPLY_CHARS} characters")
    start, end = text.find("{"), text.rfind("}")
    try:
        data = json.loads(text[start : end + 1]) if start >= 0 and end > start else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise EmulationError(f"the model's emulation reply is not a JSON object: {text[:200]!r}")
    if want_value:
        if "value" not in data:
            raise EmulationError("the model's emulation reply has no value")
        return {"value": data["value"]}
    bad = [name for name in data if not name.isidentifier()]
    if bad:
        raise EmulationError(f"the model's emulation reply names invalid variables: {bad[:5]}")
    return {"values": data}


def _code_step(step: dict[str, Any]) -> CodeStep:
    values = step.get("values")
    shown = {str(k): str(v) for k, v in values.items()} if isinstance(values, dict) else {}
    line = step.get("line")
    return CodeStep(line if isinstance(line, int) else 0, step.get("how") == "emulated", shown)
