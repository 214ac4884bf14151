"""IIPC (Iteratively Improved Program Construction).

1. The model lists the problem's key propositions.
2. It writes a program from problem + propositions (arithmetic, math, fractions, sympy; no
   recursion; verbose comments; prints; a verification section).
3. The program runs in the sandbox.
4. On an error, a correction step fixes only the failing part (at most `MAX_CORRECTIONS` after
   each validation); on success, a validation step judges whether program and output really
   answer the question (at most `MAX_VALIDATIONS`); an invalid verdict leads to a refined program.
5. Every failure leaves a one-line reflection in a memory of mistakes that later prompts include,
   so a failed approach is not tried again.
6. Separately, the model reasons in words from problem + propositions only (never seeing a
   program's output).
7. An integration prompt combines the last working program, its output and that reasoning into
   the final `Answer:`.
Every step is recorded in the Solution's timeline.
"""

from __future__ import annotations

import re
from typing import Unpack

from app.reasoning import prompts
from app.reasoning.extract import answer_line, labelled
from app.reasoning.session import (
    PROGRAM_TOKENS,
    ContextOptions,
    SolveContext,
    SolveSession,
    conclude,
    context_of,
    require_question,
)
from app.reasoning.solution import Draft, Solution, SolveStatus, TimelineStep
from models.types import LanguageModel
from sandbox import RunResult, Sandbox

MAX_VALIDATIONS = 2
MAX_CORRECTIONS = 2  # after each validation
SHORT_TOKENS = 256
OUTPUT_CHARS = 2000
_REFLECTION = re.compile(r"\**Reflection\**[ \t]*:(.*)", re.IGNORECASE)  # a line's label (extract.labelled)
_VERDICT = re.compile(r"\bVerdict\**[ \t]*:[ \t*]*(VALID|INVALID)", re.IGNORECASE)  # no two parts eat the same run


def solve_iipc(question: str, model: LanguageModel, sandbox: Sandbox, **context: Unpack[ContextOptions]) -> Solution:
    return iipc(question, context_of(model, sandbox, **context))


def iipc(question: str, context: SolveContext) -> Solution:
    session = context.session()
    draft = Draft(question, "iipc")
    return conclude(session, draft, lambda: _Construction(question, session, draft).solve())


class _Construction:
    def __init__(self, question: str, session: SolveSession, draft: Draft) -> None:
        self.question, self.session, self.draft = question, session, draft
        self.memory: list[str] = []
        self.propositions = ""
        self.working: tuple[str, str] | None = None  # the last program that ran, and its output

    def step(self, kind: str, title: str, text: str, ok: bool | None = None) -> None:
        self.draft.timeline.append(TimelineStep(kind, title, text, ok))

    def solve(self) -> tuple[SolveStatus, str | None]:
        require_question(self.question)
        self.propositions = self.ask("propositions", "iipc-propositions", question=self.question).strip()
        self.step("propositions", "Key propositions", self.propositions)
        self.construct()
        reasoning = self.ask("reasoning", "iipc-cot", question=self.question, propositions=self.propositions)
        self.step(
            "reasoning", "Reasoning in words (without the program)", reasoning, answer_line(reasoning) is not None
        )
        self.draft.finish_reply = reasoning
        program, output = self.working or ("# no program ran", "(none)")
        final = self.ask(
            "integration", "iipc-integrate", question=self.question, program=program, output=output, reasoning=reasoning
        )
        answer = answer_line(final) or answer_line(reasoning)
        self.step("integration", "Integration: the final answer", final, answer is not None)
        self.draft.fallback_used = self.working is None  # no program worked: the answer is the reasoning's
        if answer is None:
            self.draft.error = "Neither the integration nor the reasoning has an 'Answer:' line."
            return SolveStatus.NO_ANSWER_LINE, None
        return SolveStatus.ANSWERED, answer

    def construct(self) -> None:
        """Programs, runs, corrections and validations, within the limits."""
        program = self.write_program("Program")
        for validation in range(1, MAX_VALIDATIONS + 1):
            if program is None:
                return
            program = self.run_and_correct(program)
            if program is None:
                return
            reply = self.ask(
                "validation", "iipc-validate", question=self.question, propositions=self.propositions,
                program=program, output=self.draft.output[:OUTPUT_CHARS],
            )  # fmt: skip
            verdict = _VERDICT.search(reply)
            valid = verdict is not None and verdict.group(1).upper() == "VALID"
            self.step("validation", f"Validation {validation}: {'valid' if valid else 'invalid'}", reply, valid)
            if valid:
                return
            self.remember(reply, "the program's answer was judged not to answer the question")
            if validation < MAX_VALIDATIONS:
                program = self.write_program(f"Refined program {validation}")

    def run_and_correct(self, program: str) -> str | None:
        """Run `program`, correcting it after errors; the program that worked, or None."""
        for correction in range(MAX_CORRECTIONS + 1):
            result = self.run(program)
            if result.ok and result.stdout.strip():
                self.working = (program, result.stdout.strip()[-OUTPUT_CHARS:])
                return program
            if correction == MAX_CORRECTIONS:
                return None
            error = result.error or "The program printed nothing; it must print the final answer."
            reply = self.ask(
                "correction", "iipc-correct", question=self.question, program=program, error=error[-OUTPUT_CHARS:],
                memory=self.memory_text(),
            )  # fmt: skip
            self.remember(reply, f"a program failed with: {error.strip().splitlines()[-1] if error.strip() else error}")
            fixed = self.session.program_from(reply, attempt=len(self.draft.programs) + 1)
            self.step("correction", f"Correction {correction + 1}", reply, fixed is not None)
            if fixed is None:
                return None
            self.draft.programs.append(fixed)
            program = fixed
        return None

    def write_program(self, title: str) -> str | None:
        reply = self.ask(
            "program", "iipc-program", question=self.question, propositions=self.propositions,
            memory=self.memory_text(),
        )  # fmt: skip
        program = self.session.program_from(reply, attempt=len(self.draft.programs) + 1)
        self.step("program", title, program or reply, program is not None)
        if program is None:
            self.remember("", "a reply contained no program")
            return None
        self.draft.programs.append(program)
        return program

    def run(self, program: str) -> RunResult:
        result = self.session.run(program, len(self.draft.programs), capture=())
        self.draft.took(result)
        text = result.stdout.strip() if result.ok else (result.error or "failed")
        self.step(
            "run", f"Run {len(self.draft.programs)}", text[-OUTPUT_CHARS:], result.ok and bool(result.stdout.strip())
        )
        return result

    def remember(self, reply: str, otherwise: str) -> None:
        """One line in the memory of mistakes: the model's reflection, or what happened."""
        found = next((said for row in reply.splitlines() if (said := labelled(row, _REFLECTION))), None)
        line = found if found and found.lower() != "none" else otherwise
        self.memory.append(line[:300])

    def memory_text(self) -> str:
        if not self.memory:
            return ""
        return "\nMistakes made before (do not repeat them):\n" + "\n".join(f"- {m}" for m in self.memory)

    def ask(self, purpose: str, template: str, *, tokens: int = SHORT_TOKENS, **values: str) -> str:
        """One model call; for a program (or a corrected one) generation stops after its code block."""
        wants_code = purpose in ("program", "correction")
        return self.session.ask(
            purpose, prompts.fill(template, **values), max_tokens=PROGRAM_TOKENS if wants_code else tokens,
            stop_after_program=wants_code,
        )  # fmt: skip
