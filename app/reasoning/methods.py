"""The methods a user can pick, by name, and one `solve` that runs any of them.

A method name is a base — `pal`, `pot` or `cot` — with options joined by `+`, and an `sc-` (or
`scK-`) prefix for self-consistency:

    pal+repair   PAL; one repair call when the program fails
    pal+shots    PAL with the longer prompt of worked examples (also pot+shots)
    pal+grammar  the reply is forced to be exactly one fenced Python block (pot: one assigning ans)
    pot+free     PoT exactly as specified: a program without `ans` fails (by default the model
                 is asked for the missing last line, `ans = …`, before it runs)
    pot+nocomment  tokens starting with `#` biased by -2 (the PoT paper's zero-shot setting)
    pot+finish   PoT with the finishing step; options (A)–(E) are matched to `ans` by value, and an
                 `ans` that is none of them is answered by chain of thought, labelled
                 (pot+finish+free: the finishing call exactly as specified)
    +fallback    when every program fails, answer by chain of thought (labelled as such)
    sc-pal       k sampled programs (temperature 0.7, top-p 0.95), majority vote over answers; decoded
                 together where the model can, else one by one until the winner cannot change
    coc          Chain of Code: lines that cannot run are emulated by the model
    iipc         Iteratively Improved Program Construction
    mix          chain of thought, PAL and PoT once each (greedy), majority vote, ties to chain of thought;
                 one by one (PAL and chain of thought together where two sequences decode fast
                 enough together) until the winner cannot change (chain of thought and PAL
                 agreeing: PoT is not asked); where chain of thought and PAL disagree (and the
                 numbers are not large), a second round of two or three sampled chains of
                 thought (decoded with PoT where batches pay), each counted with its arithmetic
                 redone; four answers agreeing is confident
    mix+more     mix with the second round where the numbers are large too
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from app.data import DataSet
from app.reasoning.answer_kind import (
    Kind,
    asked_kind,
    implausible,
    in_asked_form,
    in_order,
    large_numbers,
    named_answers,
    percent_as_fraction,
    printed_text,
    rows_asked,
    whole_numbers,
)
from app.reasoning.check_working import RedoneArithmetic, redo_arithmetic
from app.reasoning.choices import Choice, choice_written, choices_in, matching_choice, stated_choice
from app.reasoning.coc import coc
from app.reasoning.cot import cot
from app.reasoning.events import Event, EventHandler, FirstAnswer, LaneFinished, LanesWaiting, VoteStarted
from app.reasoning.iipc import iipc
from app.reasoning.numbers import format_float, number_in, vote_key
from app.reasoning.pal import PalOptions, pal
from app.reasoning.pot import PotOptions, pot
from app.reasoning.prompts import asks_for_equation
from app.reasoning.rounds import Replay, RoundModel, first_request, measured_gain, replayed, settled
from app.reasoning.session import DEFAULT_LIMITS, CancelToken, Limits, Sampling, SolveContext
from app.reasoning.short_answer import shown_answer
from app.reasoning.solution import (
    CROSS_CHECK,
    TRUSTED_AGREE,
    Sample,
    Solution,
    SolveStatus,
    Vote,
    sample_label,
    sample_labels,
)
from models.parallel import MAX_SEQUENCES
from models.types import Generation, GenerationRequest, LanguageModel, SequenceDone, complete, generate_batch
from sandbox import Sandbox

BASES = ("pal", "pot", "cot", "coc", "iipc", "mix")
MIX = ("pal", "cot", "pot")  # mix: one greedy solve each, majority vote, ties to chain of thought
# One at a time: PAL first, so its answer is on screen at the speed of one program; then chain of
# thought; PoT only where the two disagree. Each decodes at a single sequence's full speed: in one
# batch of three each got a third of it, and the first answer came at 2.16 × greedy PAL's time on
# the development machine (docs/results.md, issue 33).
MIX_ROUNDS = (1, 1, 1)
# Where two sequences decode together fast enough (`rounds.FIRST_ROUND_PAYS`): PAL and chain of
# thought in one batch, then PoT. PAL's answer comes a little later, the checked answer sooner.
MIX_ROUNDS_PAIRED = (2, 1)
OPTIONS = {
    "pal": ("repair", "shots", "grammar", "fallback"),
    "pot": ("finish", "shots", "grammar", "free", "nocomment", "fallback"),
    "cot": (),
    "coc": (),  # falls back to chain of thought by itself, as in the paper
    "iipc": (),
    "mix": ("more",),
}
DATA_METHODS = ("pal", "pot")  # the ones that can read `tables` (votes over them too)
DEFAULT_SAMPLES = 5
MAX_SAMPLES = MAX_SEQUENCES  # what the embedded model decodes in one batch; more would only wait
# The most accurate measured with the embedded model on GSM8K (66 % on the first 50 items where
# the five-program vote had 56 %, in less time; 61 % on 80 held out, PAL 60 %), and its support is
# the best measured signal of a right answer: chain of thought and PAL agreeing, right 91 % of the
# time held out (docs/results.md). PAL alone is faster.
DEFAULT_METHOD = "mix"
# Where programs are needed (a data file, a repair): the most accurate measured of the program
# methods, on GSM8K and on the data questions (docs/results.md).
PROGRAM_DEFAULT = "sc-pal"
# Over a data file: greedy PAL with its second look (app/reasoning/second_look.py). It scored above
# the vote of five on both data sets (issue 18: 22/30 against 20/30; issue 32, docs/results.md) in a
# fraction of the time: the samples share one misreading of the data, and each reads a wide table.
DATA_DEFAULT = "pal"
SAMPLING = Sampling(temperature=0.7, top_p=0.95)
# The second round where chain of thought and PAL disagree (unless chain of thought, redone, gives
# PAL's answer, or the numbers are large): chains of thought sampled afresh in one batch, each
# counted with its written arithmetic redone where it slipped — as many as it takes for one answer
# to reach TRUSTED_AGREE votes, at most this many. On GSM8K 1-200 it lifted mix from 67 % to 72 %;
# on three-way ties it picked the right answer more often than the tie rule and than sampled
# programs did (docs/results.md, issue 33).
SECOND_ROUND = 3
_NAME = re.compile(r"^(?:sc(\d*)-)?([a-z]+)((?:\+[a-z]+)*)$")
# Statuses after which trying again (another sample, the fallback) makes no sense.
_FINAL = {SolveStatus.CANCELLED, SolveStatus.INVALID_QUESTION, SolveStatus.SANDBOX_UNAVAILABLE, SolveStatus.MODEL_ERROR}


class MethodError(ValueError):
    """A method name that does not exist; the message lists what does."""


@dataclass(frozen=True)
class Method:
    base: str
    options: frozenset[str] = frozenset()
    samples: int = 1  # more than 1: self-consistency

    @staticmethod
    def parse(name: str) -> Method:
        match = _NAME.match(name.strip().lower())
        if not match or match.group(2) not in BASES:
            raise MethodError(f"unknown method {name!r}: a base ({', '.join(BASES)}) with options, see --help")
        count, base, tail = match.groups()
        options = frozenset(option for option in tail.split("+") if option)
        unknown = options - set(OPTIONS[base])
        if unknown:
            allowed = ", ".join(OPTIONS[base]) or "none"
            raise MethodError(f"{base} has no option {', '.join(sorted(unknown))} (its options: {allowed})")
        if count is not None and base not in ("pal", "pot"):
            raise MethodError("self-consistency votes over programs: use sc-pal or sc-pot")
        samples = int(count) if count else DEFAULT_SAMPLES if count is not None else 1
        if count is not None and not 2 <= samples <= MAX_SAMPLES:
            raise MethodError(f"a vote takes 2 to {MAX_SAMPLES} programs (sc2- … sc{MAX_SAMPLES}-), not {samples}")
        return Method(base, options, samples)

    @property
    def name(self) -> str:
        prefix = "" if self.samples == 1 else "sc-" if self.samples == DEFAULT_SAMPLES else f"sc{self.samples}-"
        ordered = [option for option in OPTIONS[self.base] if option in self.options]
        return prefix + "+".join([self.base, *ordered])

    @property
    def uses_programs(self) -> bool:
        return self.base != "cot"


# Every single-solve method by base name, given its options by name; `mix`, votes and the
# fallback are built on these.
REGISTRY: dict[str, Callable[[str, frozenset[str], SolveContext], Solution]] = {
    "pal": lambda question, names, context: pal(question, PalOptions.named(names), context),
    "pot": lambda question, names, context: pot(question, PotOptions.named(names), context),
    "cot": lambda question, _names, context: cot(question, context),
    "coc": lambda question, _names, context: coc(question, context),
    "iipc": lambda question, _names, context: iipc(question, context),
}
Member = Callable[[SolveContext], Solution]  # one solve of a vote, run in the context it is given


def solve(
    question: str,
    method: Method | str,
    model: LanguageModel,
    sandbox: Sandbox,
    *,
    limits: Limits | None = None,
    temperature: float = 0.0,
    on_event: EventHandler | None = None,
    cancel: CancelToken | None = None,
    data: DataSet | None = None,
) -> Solution:
    """Answer `question` with `method`; the `Solution` carries its name, votes and fallback.
    With `data`, the programs compute over the user's tables (pal and pot only). The caller logs
    the solution (`solve_log`) if it wants it logged."""
    spec = Method.parse(method) if isinstance(method, str) else method
    if data is not None and spec.base not in DATA_METHODS:
        raise MethodError(
            f"questions about a data file need a program method ({', '.join(DATA_METHODS)}), not {spec.base}"
        )
    sampling = Sampling(temperature)
    first_heard = _FirstHeard(on_event, _as_one(question))
    context = SolveContext(
        model, sandbox, limits or DEFAULT_LIMITS, sampling, first_heard, cancel or CancelToken(), data
    )

    def once(spec: Method, sampling: Sampling) -> Member:
        return lambda c: REGISTRY[spec.base](question, spec.options, replace(c, sampling=sampling))

    if spec.base == "mix":
        members = [once(Method(part), context.sampling) for part in MIX]
        chains = [once(Method("cot"), replace(SAMPLING, seed=seed)) for seed in range(1, SECOND_ROUND + 1)]
        slipped = _Slips(context)
        shared = RoundModel(context.model, context.cancel, context.on_event)
        # Where PoT is asked a second round follows (unless the numbers are large, or PoT's yes or
        # no is PAL's). Where batches pay, its chains (as many as it may need) decode in PoT's
        # batch: on one development machine four sequences took the time of 1.7 (docs/results.md,
        # "PoT and the second round"); asked yes or no or which of some, the programs mostly agree
        # and they are not needed (in the window they ran on for 20 s); nor asked for a table or list,
        # nor after PAL printed a long text (3000 x's: PoT agrees, and the chains wrote x's for 35 s).
        ahead = "more" in spec.options or not (
            large_numbers(question) or named_answers(question) or rows_asked(question)
        )
        first, notes = _in_rounds(
            members, sample_labels(MIX), context, needed=len(CROSS_CHECK), same=_settling(question),
            sizes=MIX_ROUNDS_PAIRED if shared.pairs() else MIX_ROUNDS,
            enough=slipped.decided, shared=shared, ahead=(chains, _chain_labels(SECOND_ROUND)) if ahead else ([], []),
            carry=lambda done: not any(s.program and printed_text(s.answer or "") for s in done),
        )  # fmt: skip
        if len(first) == len(MIX) and first[-1].status is SolveStatus.MODEL_ERROR:  # its batch failed
            notes = [*notes, _lost_note(first.pop())]  # PAL and chain of thought still answered
        redone = next((slipped(s) for s in first if s.method == "cot"), _NOT_REDONE)
        slip_note = [_slip_note(redone)] if redone.slips else []
        solution = _vote(first, notes + slip_note, question, MIX[: len(first)], redone=[slipped(s) for s in first])
        if _disputed(solution, first) and ("more" in spec.options or _unsettled(solution, question)):
            fitting = solution.votes and solution.confidence.level != "wrong kind"  # else no answer counts yet
            needed = chains_needed(solution.votes[0].count if fitting else 0)
            labels = _chain_labels(SECOND_ROUND if shared.ahead_lanes else needed)  # as announced
            # Every chain runs to its end: each can change whether an answer reaches TRUSTED_AGREE,
            # and a chain's vote is known only once its arithmetic is redone.
            second, more_notes = _in_rounds(
                chains[:needed], labels[:needed], context, first_lane=len(MIX), needed=needed, same=_as_one(question),
                shared=shared,
            )  # fmt: skip
            both, methods = first + second, MIX[: len(first)] + ("cot",) * len(second)
            redone_all = [slipped(s) for s in both]
            said = notes + more_notes + [_second_round_note(len(second), sum(bool(r.slips) for r in redone_all))]
            if _broke(second):  # the model failed mid-round: the first round's answer stands, and says so
                solution = replace(solution, notes=(*solution.notes, _broken_note(second[-1])))
            else:
                named = sample_labels(MIX)[: len(first)] + labels[: len(second)]  # as the columns say
                solution = _vote(both, said, question, methods, redone=redone_all, recount=True, labels=named)
        shared.forget_ahead()  # chains decoded with PoT that are not counted say so
    elif spec.samples == 1:
        solution = once(spec, context.sampling)(context)
    else:  # each sample its own seed: a vote is repeatable
        seeds = range(1, spec.samples + 1)
        labels = [sample_label("", seed, spec.samples) for seed in seeds]
        members = [once(spec, replace(SAMPLING, seed=seed)) for seed in seeds]
        solution = _vote(*_in_rounds(members, labels, context), question)

    # A program whose ans is none of the question's options has failed even without "+fallback":
    # chain of thought answers those better than a finishing call anchored on a wrong ans
    # (AQuA dev, docs/results.md), and the solution says it was used.
    falls_back = "fallback" in spec.options or solution.status is SolveStatus.NO_MATCHING_OPTION
    if falls_back and data is None and not solution.answered and solution.status not in _FINAL:
        solution = _fall_back(solution, cot(question, context))
    if solution.answered and solution.answer is not None:  # 7/12 where a fraction is asked, not 0.5833333333
        kind = asked_kind(question)
        votes = tuple(replace(v, answer=in_asked_form(v.answer, kind, question)) for v in solution.votes)  # the tally
        solution = replace(solution, answer=in_asked_form(solution.answer, kind, question), votes=votes)
    if solution.answered and solution.answer and asks_for_equation(question):  # sympy's [6] is x = 6
        solution = replace(solution, answer=_roots(solution.answer))
    return replace(solution, method=spec.name, notes=solution.notes + first_heard.changed(solution))


def _as_one(question: str) -> Callable[[str], str]:
    """Answers written as one: an option named by its letter or its value ("C", 75 → "(C) 75
    km/h"), sympy's [6] as chain of thought's 6 where an equation is solved, a percentage or a
    decimal as the fraction it is where a fraction is asked (58.33% and 0.5833333333 → 7/12), a
    program's True as the Yes asked for, an answer naming one of the alternatives asked about
    as that alternative ("Mercury is closest to the Sun." and a program's "Mercury"), and the
    divisors of a number in any order as those in ascending order (`in_order`)."""
    choices, equation, kind = choices_in(question), asks_for_equation(question), asked_kind(question)

    def as_one(answer: str) -> str:
        read = (percent_as_fraction(answer) or answer) if kind is Kind.FRACTION else answer
        chosen = (_roots if equation else str)(as_choice(in_asked_form(read, kind, question), choices))
        return in_order(chosen, question)

    return as_one


def _settling(question: str) -> Callable[[str], str | None]:
    """Answers as `_as_one` writes them, an implausible one as none: chain of thought and PAL
    agreeing on -160 candles' profit do not end the first round, PoT is asked too."""
    as_one = _as_one(question)
    return lambda answer: None if implausible(answer, question) else as_one(answer)


def _plausible_only(answers: list[str | None], question: str) -> list[str | None]:
    """Where some answer is plausible (`implausible`), the implausible ones are not counted: two
    programs agreeing on -40 dollars did not outvote chain of thought's 40 (GSM8K, docs/results.md)."""
    fitting = [answer if answer is not None and not implausible(answer, question) else None for answer in answers]
    return fitting if any(answer is not None for answer in fitting) else answers


def _roots(answer: str) -> str:
    """sympy's list of solutions as the solutions: "[6]" → "6", "[2, 3]" → "2, 3"."""
    inner = answer.strip()[1:-1] if answer.strip().startswith("[") and answer.strip().endswith("]") else None
    return inner.strip() if inner and "[" not in inner and "{" not in inner else answer


FIRST_ANSWER_NOTE = "The first answer shown,"
CANCELLED_VOTE_NOTE = (
    "Cancelled before the vote ended: no answer is given; each method's answer so far is in the tally, unchecked."
)


class _FirstHeard:
    """Passes a solve's events on, its methods' answers written as the vote counts them (sympy's
    [6] as 6, a program's 75 as the option "(C) 75 km/h"), keeping the first answer a vote showed
    (`FirstAnswer`) so the solution can say when the finished vote changed it."""

    def __init__(self, forward: EventHandler | None, as_one: Callable[[str], str] = str) -> None:
        self._forward, self._as_one = forward, as_one
        self.first: FirstAnswer | None = None

    def __call__(self, event: Event) -> None:
        if isinstance(event, LaneFinished | FirstAnswer) and event.answer is not None:
            # As the vote counts it: a column said "PAL: [6]" where the vote's answer was 6.
            event = replace(event, answer=self._as_one(event.answer))
        if isinstance(event, FirstAnswer) and self.first is None:
            self.first = event
        if self._forward is not None:
            self._forward(event)

    def changed(self, solution: Solution) -> tuple[str, ...]:
        """A note when the answer shown first is not the vote's ("" when it is, or none was shown)."""
        first, one = self.first, self._as_one
        if (
            first is None
            or solution.status is SolveStatus.CANCELLED
            or (solution.answer is not None and vote_key(one(first.answer)) == vote_key(one(solution.answer)))
        ):
            return ()
        final = "gave no answer" if solution.answer is None else "changed it"
        shown = shown_answer(first.answer)
        return (f"{FIRST_ANSWER_NOTE} {shown} ({first.label}), was only a first answer: the vote {final}",)


WARM_QUESTION = "How many?"  # a stand-in: only what comes before the question is kept
# Tokens a warm-up decodes alone and then two together, a step or two past what a rate needs
# (`models.parallel`): a mixed vote pairs PAL and chain of thought only where two sequences were
# timed to pay (`RoundModel.pairs`), and otherwise they are first timed in a second round, so a
# session of easy questions never paired. About 1.5 s on 2 laptop cores, in the background.
TIMING_TOKENS = 10
# Timed on PAL's program for this (to "How many?" it says "The final answer is 1." and stops).
TIMING_QUESTION = "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?"


def warm_up(model: LanguageModel, sandbox: Sandbox, method: str = DEFAULT_METHOD) -> int:
    """Read the prompts `method` starts with (their instructions and worked examples) into the
    model's cache, the way the method will ask them — a mixed vote's together — so the first
    solve of a session reads only its question, as the later ones do (the first was 3× slower).
    For a mixed vote it then times one sequence and two decoding together (`TIMING_TOKENS`).
    A model without a prompt cache is left alone. Returns how many prompts were read; the
    model's `cancel` stops it within a chunk of a prompt."""
    spec = Method.parse(method)
    if not model.capabilities.prompt_cache:
        return 0
    context = SolveContext(model, sandbox)
    parts = MIX if spec.base == "mix" else (spec.base,)

    def asks(part: str, question: str = WARM_QUESTION) -> GenerationRequest | None:
        return first_request(lambda m: REGISTRY[part](question, spec.options, replace(context, model=m)), model)

    requests = [asks(part) for part in parts]
    asked = [replace(r, max_tokens=1, stop_after_code_block=False) for r in requests if r is not None]
    if spec.base == "mix" or spec.samples > 1:
        read = _ran(generate_batch(model, asked))
        untimed = spec.base == "mix" and model.capabilities.batch > 1 and measured_gain(model, 2) is None
        program = asks("pal", TIMING_QUESTION) if read and untimed else None
        if program is not None:
            timed = replace(program, max_tokens=TIMING_TOKENS, stop=())  # alone, then twice together
            if _ran(generate_batch(model, [timed])):
                _ran(generate_batch(model, [timed, timed]))
    else:
        for request in asked:
            complete(model, request)
    return len(asked)


def _ran(events: Iterator[object]) -> bool:
    """A batch decoded to its end: False where a cancel (the user's own work) stopped it."""
    return not [e for e in events if isinstance(e, SequenceDone) and e.generation.finish_reason == "cancelled"]


def _disputed(solution: Solution, first: list[Solution]) -> bool:
    """Worth a second round (in mix also `_unsettled`): the first did not end in an answer chain of
    thought and PAL agree on, and nothing stopped it (a cancel, a sandbox that cannot run)."""
    return not solution.confidence.confident and not any(s.status in _FINAL for s in first)


def _unsettled(solution: Solution, question: str) -> bool:
    """Worth a second round in mix: chain of thought's answer, its slipped arithmetic redone, is not
    PAL's, and the question's numbers are not large: there the programs decide a tie, and chains of
    thought, weak at such arithmetic, sharing one misreading outvoted PAL (docs/results.md). Nor
    where both programs computed one yes or no, or one of the alternatives asked about: chains
    agreeing on another is little evidence (one of two answers), and three of them outvoted two
    programs' True for "Is 1001 divisible by 7?"; nor where they printed one table or list asked
    for, or one long text."""
    decided = large_numbers(question) or _programs_decide(solution, question)
    return solution.confidence.level != "redone" and not decided


def _programs_decide(solution: Solution, question: str) -> bool:
    """Both programs of a mixed vote gave one of the answers the question names (`named_answers`),
    the same rows of numbers where it asks for a table or a list and chain of thought wrote none, or
    the same long printed text: chains of thought ran out of words listing the primes below 30
    (three of three, 72 s), write tables less surely, and do not write out 3000 x's (the second
    round took 35 s of 60). A list chain of thought wrote is heard out: for "Donne-moi les 10
    premiers nombres premiers." both programs listed the primes up to 10, and it the first ten."""
    same, named = _as_one(question), {vote_key(answer) for answer in named_answers(question)}
    printed = [same(s.answer) for s in solution.sampled if s.method in ("pal", "pot") and s.answer is not None]
    said = [vote_key(answer) for answer in printed]
    if len(said) != 2 or said[0] != said[1]:
        return False
    chains = [vote_key(same(s.answer)) for s in solution.sampled if s.method == "cot" and s.answer is not None]
    listed = any(key.startswith("numbers ") for key in chains)
    rows = rows_asked(question) is not None and said[0].startswith("numbers ") and not listed
    return said[0] in named or rows or printed_text(printed[0])


def chains_needed(top: int) -> int:
    """Chains of thought for the second round after a first round whose leading answer had `top`
    votes: enough for it to reach TRUSTED_AGREE if they all agree with it (two where two methods
    agreed, three after a three-way tie)."""
    return max(1, min(SECOND_ROUND, TRUSTED_AGREE - top))


def _chain_labels(count: int) -> list[str]:
    return sample_labels(MIX + ("cot",) * count)[len(MIX) :]


def _in_rounds(
    members: list[Member],
    labels: list[str],
    context: SolveContext,
    *,
    first_lane: int = 0,
    needed: int = 0,
    sizes: tuple[int, ...] = (),
    same: Callable[[str], str | None] = str,
    enough: Callable[[list[Solution]], bool] = lambda _done: False,
    shared: RoundModel | None = None,
    ahead: tuple[list[Member], list[str]] = ([], []),
    carry: Callable[[list[Solution]], bool] = lambda _done: True,
) -> tuple[list[Solution], list[str]]:
    """A vote's solves, a round at a time (of `sizes`, else as many as decode together), until the
    winner is settled (or the solves in hand are `enough`) or all are in, and notes on how they
    were decoded (see `_Rounds`); `same` writes answers that are one alike (the option "C" and its
    75) before they are compared, and None for one that may not settle the vote. `shared`: the
    round model of a vote's rounds, which keeps what `ahead` decoded for the next call: the next
    round's solves (and their labels), decoded in the batch of this call's last round if it runs
    and `carry` says so of the solves done before it."""
    rounds = _Rounds(members, labels, context, first_lane, needed, same=same, enough=enough, shared=shared)
    return rounds.run(sizes, ahead, carry)


class _Rounds:
    """A vote's solves in rounds. A batched round is decoded together: as each sequence ends its
    solve is run quietly to its answer (a `Replay`), the first answer is reported at once
    (`FirstAnswer`) and, once the answers in hand settle the vote, the sequences still decoding
    stop. `needed`: the first solves that must be in before the vote may end early (a mixed vote's
    chain of thought and PAL, whose agreement is its confidence). Reports the vote's lanes
    (`labels`, numbered from `first_lane` when they join a vote's earlier lanes), each solve's
    text in its lane and each solve's result."""

    def __init__(
        self,
        members: list[Member],
        labels: list[str],
        context: SolveContext,
        first_lane: int,
        needed: int,
        *,
        same: Callable[[str], str | None] = str,
        enough: Callable[[list[Solution]], bool] = lambda _done: False,
        shared: RoundModel | None = None,
    ):
        self.members, self.labels, self.first_lane, self.needed, self.same = members, labels, first_lane, needed, same
        self.enough = enough
        self.report = context.on_event or (lambda _event: None)
        self.shared = shared or RoundModel(context.model, context.cancel, self.report)
        self.shared.on_sequence_done = self._sequence_done
        self.noted = len(self.shared.notes)  # an earlier call's notes on the shared model are its own
        self.carrying = False  # the round decoding now carries the next call's solves (`ahead`)
        self.live = replace(context, model=self.shared)
        self.quiet = replace(context, on_event=None, cancel=CancelToken())  # a rehearsal or replay reports nothing
        self.done: list[Solution] = []
        self.known: dict[int, str | None] = {}  # a solve's answer by position, as soon as it is known
        self.previews: dict[int, Solution] = {}  # a batch's solves run quietly as their sequences ended
        self.reported: set[int] = set()  # positions whose result its lane showed as its sequence ended
        self.first_shown = first_lane > 0  # a second round's answers are not the first
        self.position = 0  # the solves dealt with so far

    def run(
        self,
        sizes: tuple[int, ...] = (),
        ahead: tuple[list[Member], list[str]] = ([], []),
        carry: Callable[[list[Solution]], bool] = lambda _done: True,
    ) -> tuple[list[Solution], list[str]]:
        shared, ended = self.shared, False
        decoded = shared.ahead_lanes  # the lanes decoded ahead for this call, announced as they began
        if decoded[:1] != (self.first_lane,):
            self.report(VoteStarted(tuple(self.labels), self.first_lane))
        shared.ahead_lanes = decoded[len(self.members) :]  # those it does not count
        rounds = shared.rounds(self.members, sizes)
        later = range(self.first_lane + len(rounds[0]), self.first_lane + len(self.members)) if sizes else range(0)
        for lane in later:  # a column that waits says for what
            checks = lane - self.first_lane < self.needed
            reason = "waits for the first answer, then checks it" if checks else "runs only if the others disagree"
            self.report(LanesWaiting((lane,), reason, for_room=False))
        for number, members_now in enumerate(rounds):
            if shared.batching:
                last = number == len(rounds) - 1
                self.carrying = last and bool(ahead[0]) and shared.batches_pay() and carry(self.done)
                rehearsed = [_rehearsed(run, self.quiet, shared) for run in members_now]
                if self.carrying:
                    next_lane = self.first_lane + len(self.members)
                    self.report(VoteStarted(tuple(ahead[1]), next_lane))
                    shared.ahead_lanes = tuple(range(next_lane, next_lane + len(ahead[0])))
                    rehearsed += [_rehearsed(run, self.quiet, shared) for run in ahead[0]]
                shared.start_round(rehearsed, first_lane=self.first_lane + self.position)
            for run in members_now:
                position, shared.lane = self.position, self.first_lane + self.position
                self.position += 1
                result = self._solved(run, position, settled=ended)
                if result is None:  # stopped in the batch, or not needed
                    self.report(LaneFinished(shared.lane, None, None, needed=False))
                    continue
                self.done.append(result)
                answer = result.answer if result.answered else None
                self._learned(position, answer)
                if position not in self.reported:
                    self.report(LaneFinished(shared.lane, answer, result.program))
                if result.status in _FINAL:  # cancelled: the lanes not run were not "not needed"
                    return self.done, shared.notes[self.noted :]
                # One at a time, no solve more than needed; in a batch no request more than needed
                # (a PoT program without `ans` would ask for its last line).
                ended = ended or self._may_end()
                if ended and not shared.batching:
                    return self._finished()
            if ended or self._may_end():
                return self._finished()
        return self._finished()

    def _solved(self, run: Member, position: int, *, settled: bool) -> Solution | None:
        """The solve at `position`; once the vote is settled only an answer already in hand (it
        costs nothing), and None for a solve whose sequence was stopped as not needed."""
        if settled:
            return self.previews.get(position)
        lane = self.first_lane + position
        result = run(self.live) if lane not in self.shared.stopped else None
        return None if lane in self.shared.stopped else result  # its own sequence may stop while it runs

    def _learned(self, position: int, answer: str | None) -> None:
        """A solve's answer is known: the first one is reported at once."""
        self.known.setdefault(position, answer)
        if answer is not None and not self.first_shown:
            self.first_shown = True
            self.report(FirstAnswer(self.first_lane + position, self.labels[position], answer))

    def _sequence_done(self, lane: int, request: GenerationRequest, generation: Generation) -> bool:
        """A batch's sequence ended: its solve's answer, and whether the others may stop."""
        position = lane - self.first_lane
        ahead = lane in self.shared.ahead_lanes  # the next round's: it is voted on there
        if generation.finish_reason in ("cut", "cancelled") or position in self.known or ahead:
            return False
        run = self.members[position]
        result = replayed(lambda model: run(replace(self.quiet, model=model)), Replay(self.shared, request, generation))
        if result is None:  # it needs another request (PoT's `ans =` line): known once it has run
            return False
        self.previews[position] = result
        answer = result.answer if result.answered else None
        self._learned(position, answer)
        if result.status not in _FINAL:  # its column shows it now, not once the whole batch has ended
            self.reported.add(position)
            self.report(LaneFinished(lane, answer, result.program))
        needed_in = all(p in self.known for p in range(self.needed)) and not self.carrying  # the next round goes on
        return needed_in and self._settles(list(self.known.values()), len(self.members) - len(self.known))

    def _may_end(self) -> bool:
        """The solves run so far settle the vote."""
        answers = [s.answer if s.answered else None for s in self.done]
        settled = self._settles(answers, len(self.members) - self.position)
        return self.position >= self.needed and (settled or self.enough(self.done))

    def _settles(self, answers: list[str | None], remaining: int) -> bool:
        """The rest cannot change the winner."""
        alike = [self.same(answer) if answer is not None else None for answer in answers]
        return settled([v.count for v in vote(alike)], remaining)

    def _finished(self) -> tuple[list[Solution], list[str]]:
        for lane in range(self.first_lane + self.position, self.first_lane + len(self.members)):  # never run
            self.report(LaneFinished(lane, None, None, needed=False))
        return self.done, self.shared.notes[self.noted :]


def _rehearsed(run: Member, quiet: SolveContext, like: LanguageModel) -> GenerationRequest | None:
    return first_request(lambda model: run(replace(quiet, model=model)), like)


def vote(answers: list[str | None], *, whole: bool = False, rows: bool = False) -> list[Vote]:
    """Answers by count, most first; in a tie a plausible answer before one that says nothing
    (`degenerate`), with `whole` (the question counts things: `whole_numbers`) a whole number
    before one with a fractional part, a single value before lines of printed output (`wordy`)
    unless `rows` (the question asks for a table or a list: lines are its answer), then the order
    first seen; None (failures) not counted. Answers meaning the same number (18, 18.0, $18) share
    a vote under the first one's text."""
    keys = [vote_key(a) if a is not None else None for a in answers]
    first_text: dict[str, str] = {}
    for answer, key in zip(answers, keys, strict=True):
        if answer is not None and key is not None:
            first_text.setdefault(key, answer)
    counts = Counter(key for key in keys if key is not None)
    order = list(first_text)  # dicts keep insertion order: first seen first
    ranked = sorted(
        order,
        key=lambda key: (
            -counts[key], degenerate(first_text[key]), whole and fractional(first_text[key]),
            not rows and wordy(first_text[key]), order.index(key),
        ),
    )  # fmt: skip
    return [Vote(first_text[key], counts[key]) for key in ranked]


def wordy(answer: str) -> bool:
    """Several lines of a program's printed output ("Distance on day 1: 80 miles\nDistance on day
    2: …") rather than one value: seen in a second round, such an answer won a tie over "230" and
    was wrong. Tables and lists are not wordy: they are the answer some questions ask for."""
    text = answer.strip()
    return "\n" in text and text[:1] not in ("[", "{", "(")


def degenerate(answer: str) -> bool:
    """An answer that says nothing — empty, None, NaN, an empty list, or zero (a program that
    found no rows, a filter copied from an example): a tie never goes to it over a plausible one."""
    text = answer.strip().lower()
    return text in ("", "none", "nan", "[]", "{}", "()") or number_in(text) == 0


def fractional(answer: str) -> bool:
    """A number with a fractional part (14.67, 37.5)."""
    value = number_in(answer.strip())
    return value is not None and value != int(value)


_NOT_REDONE = RedoneArithmetic()


def _redone(reasoning: Solution, context: SolveContext) -> RedoneArithmetic:
    """Chain of thought's written calculations that are wrong, checked in the sandbox: its answer
    is then the last a tie goes to (the programs' arithmetic ran; its own did not), and its answer
    with the arithmetic redone says whether the reasoning, corrected, is a program's."""
    if reasoning.method != "cot" or not reasoning.answered or not reasoning.finish_reply:
        return _NOT_REDONE
    return redo_arithmetic(reasoning.finish_reply, reasoning.answer, context.sandbox)


def _slip_note(redone: RedoneArithmetic) -> str:
    again = f" Redone, its answer is {format_float(redone.answer)}." if redone.answer is not None else ""
    return f"Chain of thought's arithmetic has a slip: {redone.slips[0]}; its answer counts last in a tie.{again}"


def _broke(second: list[Solution]) -> bool:
    """The second round ended in something other than a cancel that stops it (the model failed)."""
    return bool(second) and second[-1].status in _FINAL and second[-1].status is not SolveStatus.CANCELLED


def _broken_note(failed: Solution) -> str:
    return f"The methods disagreed; a second round could not run ({failed.message}), so the first round's vote stands."


def _lost_note(failed: Solution) -> str:
    return f"PoT could not run ({failed.message}); PAL's and chain of thought's answers are voted on."


def _second_round_note(asked: int, slipped: int) -> str:
    redone = f"; {slipped} of the chains slipped in their arithmetic and count with it redone" if slipped else ""
    return f"The methods disagreed, so chain of thought reasoned {asked} more times{redone}."


class _Slips:
    """Chain of thought's arithmetic slips (`_redone`), checked once per solve. A mixed vote whose
    first two solves are a program's answer and a chain of thought that slipped is decided: in a
    tie the program wins, so PoT could change the winner only by agreeing with the slipped
    reasoning, whose answer was right 0 times in 20 (docs/results.md) — it is not asked."""

    def __init__(self, context: SolveContext) -> None:
        self.context = context
        self.found: dict[int, RedoneArithmetic] = {}

    def __call__(self, solution: Solution) -> RedoneArithmetic:
        key = id(solution)
        if key not in self.found:
            self.found[key] = _redone(solution, self.context)
        return self.found[key]

    def decided(self, done: list[Solution]) -> bool:
        programs = [s for s in done if s.method != "cot" and s.answered]
        reasoning = [s for s in done if s.method == "cot"]
        return len(done) == len(CROSS_CHECK) and bool(programs) and bool(reasoning) and bool(self(reasoning[0]).slips)


def _vote(
    samples: list[Solution],
    notes: list[str],
    question: str,
    methods: tuple[str, ...] = (),
    *,
    redone: list[RedoneArithmetic] | None = None,
    recount: bool = False,
    labels: list[str] | None = None,
) -> Solution:
    """The samples combined: the winner's working, everyone's calls and programs, the tally, and
    `notes` on how they were decoded. `methods`: a mixed vote's method of each sample (a
    three-way tie goes to chain of thought; when its written arithmetic slipped (`redone`: each
    sample's arithmetic redone, kept with it), the question's numbers are large, it asks for a
    table or list, or the programs printed text, to the answer programs gave first: chain of
    thought is the weakest at arithmetic).
    After a second round (`recount`) a chain of thought that slipped counts with its arithmetic
    redone, so its slip no longer decides the order. The working shown is a program's when one
    gave the winning answer. Answers naming one of the question's options count as that option.
    `labels`: the samples' names as their columns showed them, where those are not the methods'
    own (chains announced)."""
    same = _as_one(question)
    again = redone or [_NOT_REDONE] * len(samples)
    answers = [same(s.answer) if s.answered and s.answer is not None else None for s in samples]
    redone_as = [same(format_float(r.answer)) if r.answer is not None else None for r in again]
    tallied = [r if recount and r is not None and a is not None else a for a, r in zip(answers, redone_as, strict=True)]
    counted = _options_only(tallied, bool(choices_in(question)))
    if methods:  # a mixed vote: a word problem (a data file's answer may be anything)
        plausible = _plausible_only(counted, question)
        dropped = next((a for a, p in zip(counted, plausible, strict=True) if a is not None and p is None), None)
        if dropped is not None:
            notes = [*notes, f"{shown_answer(dropped)} is not counted: {implausible(dropped, question)}."]
        counted = plausible
    order = list(range(len(samples)))
    slipped = not recount and any(r.slips for r in again)
    rows = rows_asked(question) is not None  # lines of printed output are its answer
    programs_first = (  # their choice is computed, or is text the chains do not write
        slipped
        or large_numbers(question)
        or bool(named_answers(question))
        or rows
        or _programs_wrote_text(counted, methods)
    )
    if methods and programs_first:  # programs first in a tie
        order.sort(key=lambda number: methods[number] == "cot")
    elif methods:  # else chain of thought first, whichever ran first (measured best on GSM8K: docs/results.md)
        order.sort(key=lambda number: methods[number] != "cot")
    votes = vote([counted[number] for number in order], whole=whole_numbers(question), rows=rows)
    backed, in_hand = True, [s for s in samples if s.answered]
    cancelled = samples[-1].status is SolveStatus.CANCELLED and bool(in_hand)
    if cancelled:  # no verdict, but nothing lost: the tally in hand, a program to run, and why
        chosen = next((s for s in in_hand if s.program is not None), in_hand[0])
        chosen = replace(chosen, status=SolveStatus.CANCELLED, error=None)  # its program did not fail
        notes = [*notes, CANCELLED_VOTE_NOTE]
    elif samples[-1].status in _FINAL:  # cannot go on: no answer, whatever was voted
        chosen, votes = samples[-1], []
    elif votes:
        winner_key = vote_key(votes[0].answer)
        winners = [s for s, a in zip(samples, tallied, strict=True) if a is not None and vote_key(a) == winner_key]
        with_program = [s for s in winners if s.program is not None]
        chosen = with_program[0] if methods and with_program else winners[0]
        backed = bool(with_program)
    else:
        chosen = samples[-1]
    total = len(samples)
    if labels is None:
        labels = sample_labels(methods) if methods else [sample_label("", n, total) for n in range(1, total + 1)]
    return replace(
        chosen,
        answer=votes[0].answer if votes and not cancelled else None,
        calls=tuple(call for s in samples for call in s.calls),
        programs=tuple(program for s in samples for program in s.programs),
        duration_s=sum(s.duration_s for s in samples),
        votes=tuple(votes),
        samples=len(samples),
        fallback_used=not backed,  # mixed: no program gave the winning answer, only chain of thought
        sampled=tuple(
            _sample(s, methods[number] if methods else "", labels[number], answers[number], redone_as[number])
            for number, s in enumerate(samples)
        ),
        notes=chosen.notes + tuple(notes),
    )


def _programs_wrote_text(answers: list[str | None], methods: tuple[str, ...]) -> bool:
    """The programs that answered printed text, no number: asked to print the word banana 500
    times, PAL and PoT printed it, two chains of thought said 6000 and 500, and the tie went to 6000."""
    written = [answer for answer, method in zip(answers, methods, strict=False) if method != "cot" and answer]
    return bool(written) and all(number_in(answer) is None for answer in written)


def _options_only(answers: list[str | None], choices: bool) -> list[str | None]:
    """Where the question gives options and an answer names one, answers that name none are not
    counted: two programs agreeing on -800 did not outvote chain of thought's "(B) $400" (AQuA
    dev, where B was right); an answer of the wrong kind never wins over one of the right kind."""
    named = [answer is not None and vote_key(answer).startswith("option ") for answer in answers]
    if not choices or not any(named):
        return answers
    return [answer if is_option else None for answer, is_option in zip(answers, named, strict=True)]


def as_choice(answer: str, choices: tuple[Choice, ...]) -> str:
    """An answer as the option it names or whose number it is ("C", "75" → "(C) 75 km/h"), so that
    a program's 75 and chain of thought's "C" are one answer; itself when it is neither."""
    if not choices:
        return answer
    letter = stated_choice(answer)
    named = next((c for c in choices if c.letter == letter), None) or choice_written(answer, choices)
    value = number_in(answer)
    matched = named or (matching_choice(value, choices) if value is not None else None)
    return str(matched) if matched else answer


def _sample(solution: Solution, method: str, label: str, answer: str | None, redone: str | None) -> Sample:
    if method != "cot":
        return Sample(method, label, solution.program, answer)
    return Sample(method, label, solution.program, answer, solution.finish_reply, redone)


def _fall_back(failed: Solution, reasoning: Solution) -> Solution:
    """Chain of thought's answer after every program failed; the programs stay as the working."""
    return replace(
        failed,
        status=reasoning.status,
        answer=reasoning.answer,
        error=failed.error if reasoning.answered else reasoning.error,
        calls=failed.calls + reasoning.calls,
        finish_reply=reasoning.finish_reply,
        duration_s=failed.duration_s + reasoning.duration_s,
        fallback_used=True,
    )
