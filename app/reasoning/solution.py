"""What a solve returns: a frozen `Solution` with the answer, the working and every model call."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from app.reasoning.answer_kind import (
    Kind,
    alternatives_in,
    asked_kind,
    fits,
    implausible,
    one_for_rows,
    printed_text,
    rows_asked,
    several_for_one,
)
from app.reasoning.answer_table import table_of
from app.reasoning.numbers import vote_key
from app.reasoning.short_answer import shown_answers
from app.reasoning.support import LEVELS
from sandbox import CapturedValue, RunResult
from sandbox.protocol import ChainStep
from sandbox.result import parse_values


class SolveStatus(enum.StrEnum):
    ANSWERED = "answered"
    INVALID_QUESTION = "invalid_question"
    NO_PROGRAM = "no_program"
    EXECUTION_FAILED = "execution_failed"
    EMPTY_OUTPUT = "empty_output"
    NO_ANS = "no_ans"
    NO_ANSWER_LINE = "no_answer_line"
    NO_MATCHING_OPTION = "no_matching_option"
    TIMEOUT = "timeout"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    CANCELLED = "cancelled"
    MODEL_ERROR = "model_error"
    SANDBOX_UNAVAILABLE = "sandbox_unavailable"


STATUS_TEXT = {
    SolveStatus.ANSWERED: "answered",
    SolveStatus.INVALID_QUESTION: "the question cannot be used",
    SolveStatus.NO_PROGRAM: "the model wrote no program",
    SolveStatus.EXECUTION_FAILED: "the program failed",
    SolveStatus.EMPTY_OUTPUT: "the program printed nothing",
    SolveStatus.NO_ANS: "the program did not set ans",
    SolveStatus.NO_ANSWER_LINE: "the finishing step gave no 'Answer:' line",
    SolveStatus.NO_MATCHING_OPTION: "the program's ans is none of the options",
    SolveStatus.TIMEOUT: "the program ran too long",
    SolveStatus.MEMORY_LIMIT: "the program used too much memory",
    SolveStatus.OUTPUT_LIMIT: "the program printed too much",
    SolveStatus.CANCELLED: "cancelled",
    SolveStatus.MODEL_ERROR: "the model failed",
    SolveStatus.SANDBOX_UNAVAILABLE: "programs cannot be run safely here",
}


@dataclass(frozen=True)
class ModelCall:
    purpose: str  # "program", "repair" or "finish"
    prompt: str
    reply: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    tokens_per_s: float = 0.0  # decoding speed (after the prompt was read)


@dataclass(frozen=True)
class Vote:
    """One answer of a self-consistency vote and how many samples gave it."""

    answer: str
    count: int


@dataclass(frozen=True)
class Confidence:
    """How well an answer is supported, in words for the student and as a share of the samples.

    `confident` marks answers most of the samples agree on: measured with the embedded model,
    answers that independent samples agreed on were right far more often than the rest (the
    evaluator reports both groups' accuracy, so this stays a measured claim)."""

    text: str
    value: float | None  # the winner's share of the samples; None when there was nothing to compare
    confident: bool = False
    level: str = "none"  # how it was checked: a key of `support.LEVELS` (plain words, measured accuracy)

    @property
    def words(self) -> str:
        """How the answer was checked, in plain words ("two different methods agree: …")."""
        return LEVELS[self.level].words

    @property
    def measured(self) -> str:
        """How often answers checked this way were right, as measured (docs/results.md)."""
        return LEVELS[self.level].measured

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text, "value": self.value, "confident": self.confident, "level": self.level,
            "words": self.words, "measured": self.measured,
        }  # fmt: skip


CONFIDENT_SHARE = 0.6  # three of five, or every sample of a vote that ended early
# A mixed vote is confident when chain of thought and PAL's program give the answer: two
# independent ways of solving. Measured with the embedded model on GSM8K: where they agreed they
# were right 19 of 21 times (items 201-240), 18 of 19 (items 1-50) and, held out once the rule was
# fixed, 31 of 34 (items 51-130); where only PAL and PoT agreed, 15 of 23 (docs/results.md).
CROSS_CHECK = ("cot", "pal")
# After a second round an answer this many of the five or six gave is confident: on GSM8K 1-200
# such answers were right 15 of 16 and 18 of 19 times in two runs; fewer, 40 of 79 (docs/results.md).
TRUSTED_AGREE = 4
METHOD_WORDS = {"cot": "chain of thought", "pal": "PAL", "pot": "PoT"}
MIX_ORDER = tuple(METHOD_WORDS)  # a mixed vote's methods in the order they are named


def method_words(method: str) -> str:
    """A mixed vote's method as the student reads it: "chain of thought", "PAL", "PoT"."""
    return METHOD_WORDS.get(method, method)


def sample_label(method: str, number: int, total: int) -> str:
    """One solve of a vote by name: its method's ("Chain of thought") in a mixed vote, else
    "Program 2 of 5" (`number` counts from 1)."""
    if not method:
        return f"Program {number} of {total}"
    words = method_words(method)
    return words[:1].upper() + words[1:]


def sample_labels(methods: tuple[str, ...]) -> list[str]:
    """A mixed vote's solves by name: each method's name, and a method's later samples (a second
    round) "PAL sample 2 of 4"."""
    labels = []
    for number, method in enumerate(methods):
        if method not in methods[:number]:
            labels.append(sample_label(method, 0, 0))
        else:
            later = [m for m in methods[methods.index(method) + 1 :] if m == method]
            labels.append(f"{sample_label(method, 0, 0)} sample {methods[:number].count(method)} of {len(later)}")
    return labels


def voters_words(solution: Solution) -> str:
    """Who voted, in words: "chain of thought, PAL and PoT", "… and 3 more chains of thought", "5 programs"."""
    methods = [sample.method for sample in solution.sampled if sample.method]
    if not methods:
        return f"{solution.samples} programs"
    names = [method_words(method) for method in MIX_ORDER if method in methods]  # named in one order, whoever ran first
    more = len(methods) - len(names)
    if more:
        return ", ".join(names) + f" and {more} more chain{'s' if more > 1 else ''} of thought"
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


@dataclass(frozen=True)
class Sample:
    """One solve of a vote: its method in a mixed vote ("cot", "pal", "pot"; "" in a vote of one
    method's programs), its name as shown, its program (None: chain of thought, or none came),
    its answer (None: it failed) and, for chain of thought, its reasoning and, where its written
    arithmetic slipped, its answer with the arithmetic redone in the sandbox (`redo_arithmetic`)."""

    method: str
    label: str
    program: str | None
    answer: str | None
    reasoning: str | None = None
    redone: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method, "label": self.label, "program": self.program, "answer": self.answer,
            "reasoning": self.reasoning, "redone": self.redone,
        }  # fmt: skip


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def samples_from_json(data: dict[str, Any]) -> tuple[Sample, ...]:
    """A stored vote's samples; a row written before they were records has three parallel lists."""
    if isinstance(data.get("sampled"), list):
        return tuple(
            Sample(str(s.get("method", "")), str(s.get("label", "")), _text_or_none(s.get("program")),
                   _text_or_none(s.get("answer")), _text_or_none(s.get("reasoning")), _text_or_none(s.get("redone")))
            for s in data["sampled"] if isinstance(s, dict)
        )  # fmt: skip
    programs, answers = list(data.get("sample_programs", ())), list(data.get("sample_answers", ()))
    methods = [m for m in data.get("sample_methods", ()) if isinstance(m, str)]
    methods += [""] * (len(answers) - len(methods))
    return tuple(
        Sample(method, sample_label(method, number + 1, len(answers)), _text_or_none(program), _text_or_none(answer))
        for number, (method, program, answer) in enumerate(
            zip(methods, programs + [None] * (len(answers) - len(programs)), answers, strict=False)
        )
    )


@dataclass(frozen=True)
class TimelineStep:
    """IIPC: one step of the construction (propositions, a program, a run, a validation …)."""

    kind: str
    title: str
    text: str
    ok: bool | None = None  # None: the step neither succeeds nor fails (e.g. propositions)


@dataclass(frozen=True)
class Solution:
    question: str
    method: str
    status: SolveStatus
    answer: str | None
    program: str | None  # the last program that ran (the working)
    programs: tuple[str, ...]  # every program, in order (the first, then a repaired one)
    output: str
    error: str | None
    error_line: int | None
    ans: CapturedValue | None
    calls: tuple[ModelCall, ...]
    repair_used: bool
    finish_reply: str | None
    duration_s: float
    isolation: str | None = None
    variables: dict[str, CapturedValue] = field(default_factory=dict)  # every quantity the program bound
    votes: tuple[Vote, ...] = ()  # self-consistency: answers by count, the winner first
    samples: int = 1  # self-consistency: how many programs were sampled
    fallback_used: bool = False  # every program failed and the answer is chain-of-thought's
    code_steps: tuple[ChainStep, ...] = ()  # Chain of Code: which lines ran in Python, which were emulated
    timeline: tuple[TimelineStep, ...] = ()  # IIPC: every step, in order
    # PoT without `ans`: what PAL would have read from the output, offered to the user, never
    # taken silently (the spec's PoT answers from `ans` only).
    alternative: str | None = None
    notes: tuple[str, ...] = ()  # how this answer was made that the user should know (a fallback in decoding)
    sampled: tuple[Sample, ...] = ()  # a vote: each solve, in the order they ran

    @property
    def answered(self) -> bool:
        return self.status is SolveStatus.ANSWERED

    @property
    def message(self) -> str:
        return STATUS_TEXT[self.status]

    @property
    def confidence(self) -> Confidence:
        """How well the answer is supported (`_support`); an answer not of the kind the question asks
        for (a whole number where it asks what fraction; two numbers where it asks for one total, one
        where it asks for a table), or in a mixed vote one it cannot be (`implausible`: -160 candles'
        profit), is never confident, and says so."""
        support = self._support()
        if not self.answered or self.answer is None:
            return support
        kind = asked_kind(self.question)
        mixed = any(sample.method for sample in self.sampled)  # a word problem's vote: no data file
        if not fits(self.answer, kind, self.question):
            why: str | None = f"the question asks for {kind.value}, and this is not one"
        else:
            why = several_for_one(self.answer, self.question) or one_for_rows(self.answer, self.question)
            why = why or (implausible(self.answer, self.question) if mixed else None)
        return Confidence(f"{support.text}; but {why}", support.value, level="wrong kind") if why else support

    def _support(self) -> Confidence:
        what = "methods" if self.method.startswith("mix") else "programs"
        if self.samples < 2:
            if not self.answered:
                return Confidence("no answer", None)
            in_words = self.program is None or self.fallback_used
            single = "one chain of thought" if in_words else "one program"
            level = "one reasoning" if in_words else "one program"
            return Confidence(f"{single}, not cross-checked", None, level=level)
        if not self.votes or not self.answered:
            return Confidence(f"every {what[:-1]} failed" if not self.votes else "no answer", 0.0)
        mixed = any(sample.method for sample in self.sampled)
        second_round = mixed and self._second_round_ran
        top = self.votes[0].count
        share = round(top / self.samples, 3)
        tied = [v for v in self.votes if v.count == top]
        if len(tied) > 1:
            names = [
                f"{shown} ({v.count})" for v, shown in zip(tied, shown_answers([v.answer for v in tied]), strict=True)
            ]
            listed = " and ".join(names) if len(names) == 2 else ", ".join(names)
            count = "two" if len(tied) == 2 else str(len(tied))
            level = "second round, split" if second_round else "tie" if mixed else "programs, split"
            if level == "tie" and self._redone_agrees(vote_key(self.answer or "")):
                text = f"{count} answers tied: {listed}; chain of thought, redone, agrees"
                return Confidence(text, share, level="redone")
            return Confidence(f"{count} answers tied: {listed}", share, level=level)
        if mixed:
            return self._cross_checked(share)
        confident = share >= CONFIDENT_SHARE
        level = "programs" if confident else "programs, split"
        return Confidence(f"{top} of {self.samples} {what} agree", share, confident, level)

    def _cross_checked(self, share: float) -> Confidence:
        """A mixed vote's support: which methods gave the answer, not only how many."""
        winner = vote_key(self.answer or "")
        if self._second_round_ran:  # each chain of thought counted with its slipped arithmetic redone
            counted = [(sample.method, sample.redone or sample.answer) for sample in self.sampled]
            agree = [m for m, a in counted if a is not None and winner is not None and vote_key(a) == winner]
            return self._second_round(agree, share)
        agreeing = [
            sample.method
            for sample in self.sampled
            if sample.answer is not None and winner is not None and vote_key(sample.answer) == winner
        ]
        names = [method_words(method) for method in MIX_ORDER if method in agreeing]  # the same words whoever ran first
        ran = {sample.method for sample in self.sampled}
        level = "+".join(m for m in MIX_ORDER if m in agreeing) if len(agreeing) > 1 else "tie"
        if level == "cot+pal+pot":
            level = "all"
        elif level == "cot+pal" and "pot" in ran:
            level = "cot+pal-pot"
        elif level == "pal+pot" and asked_kind(self.question) is Kind.YES_NO:  # computed, where words often slip
            level = "pal+pot, yes or no"
        elif level == "pal+pot" and alternatives_in(self.question):
            level = "pal+pot, which one"
        elif level == "pal+pot" and rows_asked(self.question):  # chains of thought run out of words listing
            level = "pal+pot, rows"
        elif level == "pal+pot" and printed_text(self.answer or ""):  # no chain of thought writes it out
            level = "pal+pot, printed"
        if len(agreeing) == len(self.sampled) > 2:
            text = f"all {len(agreeing)} methods agree ({', '.join(names)})"
        elif len(agreeing) == len(self.sampled):  # the vote ended early: the rest could not change it
            text = f"{' and '.join(names)} agree"
        elif len(agreeing) > 1:
            text = f"{len(agreeing)} of {self.samples} methods agree ({' and '.join(names)})"
        else:
            text = f"only {names[0] if names else 'one method'} gave this answer"
        return Confidence(text, share, all(method in agreeing for method in CROSS_CHECK), level)

    def _redone_agrees(self, winner: str | None) -> bool:
        """Chain of thought's arithmetic slipped, and redone in the sandbox it gives the winner."""
        return winner is not None and any(
            sample.method == "cot" and sample.redone is not None and vote_key(sample.redone) == winner
            for sample in self.sampled
        )

    @property
    def _second_round_ran(self) -> bool:
        """A mixed vote asked a method again (chains of thought sampled where the methods disagreed)."""
        methods = [sample.method for sample in self.sampled if sample.method]
        return len(methods) > len(set(methods))

    def _second_round(self, agreeing: list[str], share: float) -> Confidence:
        """Support after the second round: how many of all the answers agree, and whether a program
        is among them; TRUSTED_AGREE of them agreeing is confident (measured: support.py)."""
        programs = [method for method in agreeing if method != "cot"]
        words = f", {' and '.join(method_words(m) for m in programs)} among them" if programs else ", no program"
        text = f"{len(agreeing)} of {self.samples} answers agree{words}"
        if len(agreeing) >= TRUSTED_AGREE:
            return Confidence(text, share, True, "second round")
        # Both programs and a chain of thought, fewer than four: right 20 of 26 times, not confident.
        level = "second round, both programs" if {"pal", "pot", "cot"} <= set(agreeing) else "second round, split"
        return Confidence(text, share, False, level)

    def to_json(self) -> dict[str, Any]:
        """The CLI's `--json` object and the log line (contract: docs/architecture.md)."""
        return {
            "question": self.question,
            "method": self.method,
            "answer": self.answer,
            "status": self.status.value,
            "message": self.message,
            "program": self.program,
            "programs": list(self.programs),
            "output": self.output,
            "error": self.error,
            "error_line": self.error_line,
            "ans": self.ans.to_json() if self.ans else None,
            "calls": len(self.calls),
            "model_calls": [
                {
                    "purpose": c.purpose,
                    "prompt": c.prompt,
                    "reply": c.reply,
                    "prompt_tokens": c.prompt_tokens,
                    "completion_tokens": c.completion_tokens,
                    "seconds": round(c.seconds, 3),
                    "tokens_per_s": round(c.tokens_per_s, 2),
                }
                for c in self.calls
            ],
            "repair_used": self.repair_used,
            "finish_reply": self.finish_reply,
            "duration_s": round(self.duration_s, 3),
            "isolation": self.isolation,
            "variables": {name: value.to_json() for name, value in self.variables.items()},
            "votes": [{"answer": v.answer, "count": v.count} for v in self.votes],
            "samples": self.samples,
            "confidence": self.confidence.to_json(),
            "fallback_used": self.fallback_used,
            "code_steps": [{"line": c.line, "emulated": c.emulated, "values": c.values} for c in self.code_steps],
            "timeline": [{"kind": t.kind, "title": t.title, "text": t.text, "ok": t.ok} for t in self.timeline],
            "alternative": self.alternative,
            "notes": list(self.notes),
            "sampled": [sample.to_json() for sample in self.sampled],
            "table": _table_json(self.variables, self.answer),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Solution:
        """The inverse of `to_json` (a history row back to a `Solution`); fields an older row lacks
        take their defaults. The row is the app's own, written by `to_json`."""
        ans = data.get("ans")
        return cls(
            question=str(data.get("question", "")),
            method=str(data.get("method", "")),
            status=SolveStatus(data.get("status", SolveStatus.EXECUTION_FAILED.value)),
            answer=data.get("answer"),
            program=data.get("program"),
            programs=tuple(data.get("programs", ())),
            output=str(data.get("output", "")),
            error=data.get("error"),
            error_line=data.get("error_line"),
            ans=parse_values({"ans": ans})["ans"] if isinstance(ans, dict) else None,
            calls=tuple(
                ModelCall(
                    purpose=c["purpose"],
                    prompt=c["prompt"],
                    reply=c["reply"],
                    prompt_tokens=c["prompt_tokens"],
                    completion_tokens=c["completion_tokens"],
                    seconds=c["seconds"],
                    tokens_per_s=c.get("tokens_per_s", 0.0),
                )
                for c in data.get("model_calls", ())
            ),
            repair_used=bool(data.get("repair_used", False)),
            finish_reply=data.get("finish_reply"),
            duration_s=float(data.get("duration_s", 0.0)),
            isolation=data.get("isolation"),
            variables=parse_values(data.get("variables", {})),
            votes=tuple(Vote(v["answer"], v["count"]) for v in data.get("votes", ())),
            samples=int(data.get("samples", 1)),
            fallback_used=bool(data.get("fallback_used", False)),
            code_steps=tuple(
                ChainStep(c["line"], c["emulated"], c.get("values", {})) for c in data.get("code_steps", ())
            ),
            timeline=tuple(
                TimelineStep(t["kind"], t["title"], t["text"], t.get("ok")) for t in data.get("timeline", ())
            ),
            alternative=data.get("alternative"),
            notes=tuple(str(note) for note in data.get("notes", ())),
            sampled=samples_from_json(data),
        )


@dataclass
class Draft:
    """The working of a solve in progress; `build` freezes it into a `Solution`."""

    question: str
    method: str
    programs: list[str] = field(default_factory=list)
    output: str = ""
    error: str | None = None
    error_line: int | None = None
    ans: CapturedValue | None = None
    repair_used: bool = False
    finish_reply: str | None = None
    isolation: str | None = None
    variables: dict[str, CapturedValue] = field(default_factory=dict)
    code_steps: list[ChainStep] = field(default_factory=list)
    timeline: list[TimelineStep] = field(default_factory=list)
    fallback_used: bool = False
    alternative: str | None = None
    notes: list[str] = field(default_factory=list)

    def took(self, result: RunResult) -> None:
        """A program's run is the working now: what it printed, its error, its variables."""
        self.output, self.isolation = result.stdout, result.isolation.value
        self.error, self.error_line = result.error, result.error_line
        self.variables = dict(result.values)

    def build(self, status: SolveStatus, answer: str | None, calls: list[ModelCall], duration_s: float) -> Solution:
        return Solution(
            question=self.question,
            method=self.method,
            status=status,
            answer=answer if status is SolveStatus.ANSWERED else None,
            program=self.programs[-1] if self.programs else None,
            programs=tuple(self.programs),
            output=self.output,
            error=self.error,
            error_line=self.error_line,
            ans=self.ans,
            calls=tuple(calls),
            repair_used=self.repair_used,
            finish_reply=self.finish_reply,
            duration_s=duration_s,
            isolation=self.isolation,
            variables=dict(self.variables),
            code_steps=tuple(self.code_steps),
            timeline=tuple(self.timeline),
            fallback_used=self.fallback_used,
            alternative=self.alternative,
            notes=tuple(self.notes),
        )


def _table_json(variables: dict[str, CapturedValue], answer: str | None) -> dict[str, Any] | None:
    """The answer as a table (rows a program over data returned), for `ask --json`."""
    table = table_of(variables, answer)
    if table is None:
        return None
    return {"columns": list(table.columns), "rows": [list(row) for row in table.rows], "truncated": table.truncated}
