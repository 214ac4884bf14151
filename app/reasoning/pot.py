"""Program of Thoughts, as the user's spec states it.

1. Call the model with the Program of Thoughts prompt and the question.
2. Run the program in the sandbox with time and memory limits, and read the value of `ans`.
3. Without a finishing step, `ans` is the answer (one model call).
4. With the finishing step (a per-task setting, off by default), call the model with the
   Finish-from-ans prompt, passing the question and `ans`.
5. Parse the finishing reply's `Answer:` line and return it; program and `ans` are the working.
   With `choose` (`pot+finish` but not `+free`), a question with options (A)–(E) is finished
   without the model: `ans` equal to exactly one option's number is that option; `ans` that is
   none of them is a failed program (NO_MATCHING_OPTION), which `methods.solve` hands to chain
   of thought, labelled.
Stop rule: stop when `ans` has been read, or after the one finishing call. A failing program or
one that never sets `ans` gives no answer, with the program and the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from app.data.describe import describe
from app.reasoning import prompts
from app.reasoning.choices import Choice, choices_in, matching_choice, number_of
from app.reasoning.events import ProgramExtracted
from app.reasoning.extract import answer_line, assigned_names
from app.reasoning.grammars import PYTHON_BLOCK_WITH_ANS
from app.reasoning.numbers import format_answer, value_text
from app.reasoning.session import (
    FINISH_TOKENS,
    ContextOptions,
    Decoding,
    SolveContext,
    SolveSession,
    conclude,
    context_of,
    failure_status,
    first_program,
)
from app.reasoning.solution import Draft, Solution, SolveStatus
from models.types import LanguageModel
from sandbox import Sandbox

COMMENT_BIAS = -2.0
ANS_LINE_TOKENS = 64
ANS_LINE_NOTE = "the program did not set ans, so its last line `ans =` was asked of the model separately"


@dataclass(frozen=True)
class PotOptions:
    """`shots`: the prompt with more worked examples; `grammar`: one fenced block that assigns
    `ans` (where the model takes a grammar); `nocomment`: tokens starting with `#` biased by -2
    (the PoT paper's zero-shot setting).

    `ans_line` (the default): a program that never assigns `ans` is continued by the model from
    `ans =` on a new line, one line long, before it runs — the spec's prompt and stop rule stay;
    measured in docs/results.md ("PoT that binds ans") against the grammar, which let the model
    write on to its token limit instead.

    `choose` (the `pot+finish` method sets it; off in the seed contract, the spec's call): with
    `finish`, a question's options are matched to `ans` by value instead of by the finishing
    call (see the module's docstring)."""

    finish: bool = False
    shots: bool = False
    grammar: bool = False
    nocomment: bool = False
    ans_line: bool = True
    choose: bool = False

    @staticmethod
    def named(names: frozenset[str]) -> PotOptions:
        """From a method name's options: `+free` is the spec exactly (no `ans =` line asked for,
        the finishing call even for options)."""
        free = "free" in names
        return PotOptions(
            "finish" in names, "shots" in names, "grammar" in names, "nocomment" in names, not free, not free
        )


def solve_pot(
    question: str,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    finish: bool = False,
    shots: bool = False,
    grammar: bool = False,
    nocomment: bool = False,
    ans_line: bool = True,
    choose: bool = False,
    **context: Unpack[ContextOptions],
) -> Solution:
    """PoT, as the seed contract calls it (`pot` with loose parameters; `PotOptions` says what
    each does); `sampling` (else `temperature`) sets how the model samples."""
    options = PotOptions(finish, shots, grammar, nocomment, ans_line, choose)
    return pot(question, options, context_of(model, sandbox, **context))


def pot(question: str, options: PotOptions, context: SolveContext) -> Solution:
    session, data, grammar = context.session(), context.data, options.grammar
    draft = Draft(question, "pot+finish" if options.finish else "pot")
    capable, nocomment = context.model.capabilities, options.nocomment
    if grammar and not capable.grammar:  # said with the answer, in the window and in --json
        grammar = False
        draft.notes.append("decoded without PoT's grammar: this model server takes none")
    if nocomment and not capable.token_bias:
        nocomment = False
        draft.notes.append("decoded without PoT's # bias: this model server does not share its tokenizer")
    if data is not None:  # the model sees the data's shape; the program reads the data from `tables`
        prompt = prompts.fill("pot-data", schema=describe(data), question=question)
    else:
        prompt = prompts.fill("pot-shots" if options.shots else "pot", question=prompts.with_hints(question, rows=True))
    decoding = Decoding(
        grammar=PYTHON_BLOCK_WITH_ANS if grammar else None,
        token_bias={"#": COMMENT_BIAS} if nocomment else {},
    )
    return conclude(
        session, draft, lambda: _solve(question, session, draft, prompt=prompt, decoding=decoding, options=options)
    )


def _with_ans_line(session: SolveSession, draft: Draft, prompt: str, program: str) -> str:
    """The program with the line `ans = …` the model writes when its reply is continued from there
    (the same prompt; the reply so far is the program and `ans =`). Unchanged if nothing comes."""
    prefix = f"```python\n{program}\nans ="
    line = session.ask(
        "ans line", prompt, max_tokens=ANS_LINE_TOKENS, stop_after_program=False, stop=("\n", "```"),
        assistant_prefix=prefix,
    )  # fmt: skip
    line = line.split("\n", 1)[0].rstrip()
    if not line.strip():
        return program
    completed = f"{program}\nans ={line}"
    draft.programs[-1] = completed
    draft.notes.append(ANS_LINE_NOTE)
    session.emit(ProgramExtracted(completed, 1))
    return completed


def _chosen(draft: Draft, value: str, choices: tuple[Choice, ...]) -> tuple[SolveStatus, str | None]:
    """The option `ans` is, found by value; a failure when it is none (or several) of them."""
    number = number_of(draft.ans.json) if draft.ans is not None else None
    chosen = matching_choice(number, choices) if number is not None else None
    if chosen is None:
        listed = " ".join(str(c) for c in choices)
        draft.error = f"ans = {value} is not one of the options ({listed}), so the program's answer is not used."
        return SolveStatus.NO_MATCHING_OPTION, None
    draft.notes.append(f"ans = {value} is option {chosen}, so no finishing call was needed")
    return SolveStatus.ANSWERED, str(chosen)


def _solve(
    question: str, session: SolveSession, draft: Draft, *, prompt: str, decoding: Decoding, options: PotOptions
) -> tuple[SolveStatus, str | None]:
    program = first_program(session, draft, prompt, decoding)
    if options.ans_line and "ans" not in assigned_names(program):
        program = _with_ans_line(session, draft, prompt, program)
    result = session.run(program, 1, capture=("ans",))
    draft.took(result)
    draft.ans = result.values.get("ans")
    if not result.ok:
        return failure_status(result), None
    if draft.ans is None:
        printed = format_answer(result.stdout)
        draft.error = "The program ran but did not set a variable called ans, which Program of Thoughts reads."
        if printed:
            shown = printed if len(printed) <= 200 else printed[:199] + "…"
            draft.error += f" It printed {shown!r}; PAL would read that as the answer (offered, not taken)."
            draft.alternative = printed
        return SolveStatus.NO_ANS, None
    value = value_text(draft.ans)
    if not options.finish:
        return SolveStatus.ANSWERED, value
    if options.choose and (choices := choices_in(question)):
        return _chosen(draft, value, choices)

    finish_prompt = prompts.fill("finish", question=question, ans=value)
    draft.finish_reply = session.ask("finish", finish_prompt, max_tokens=FINISH_TOKENS, stop_after_program=False)
    answer = answer_line(draft.finish_reply)
    if answer is None:
        draft.error = "The finishing reply has no line starting with 'Answer:'."
        return SolveStatus.NO_ANSWER_LINE, None
    return SolveStatus.ANSWERED, answer
