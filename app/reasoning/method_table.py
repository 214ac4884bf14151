"""The one table of the methods a user can pick: name, the picker's words, a line of help, and
what each measured with the embedded model (docs/results.md, same wording). The window's
picker, `pal-studio --help` and the table in docs/methods.md are all made from it.

The first `PLAIN_CHOICES` are the plain choices most people need; then the methods whose
measured result holds up, each with it; then, under "Research variants", the ones measured worse
than PAL or on too few items to say, kept for study.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reasoning.methods import DATA_METHODS, Method


@dataclass(frozen=True)
class Entry:
    name: str  # as `--method` takes it
    label: str  # the picker's words
    help: str  # one line: what it does
    measured: str  # what it scored here ("" where not measured)
    research: bool = False  # below "Research variants" in the picker

    @property
    def reads_data(self) -> bool:
        """Whether it can answer questions about a data file (programs read `tables`)."""
        return Method.parse(self.name).base in DATA_METHODS

    @property
    def shown(self) -> str:
        """The picker's entry: the words, and below the plain choices what it measured."""
        return self.label if not self.measured else f"{self.label} — {self.measured}"


PLAIN_CHOICES = 3
TABLE = (
    Entry("pal", "Fast — one program (≈ 9 s)", "PAL: the model writes a program that prints the answer", ""),
    Entry(
        "mix", "Cross-checked — PAL first, then checked (≈ 20–60 s)",
        "PAL answers first; chain of thought checks it, PoT votes where the two disagree, and chain of thought "
        "reasons two or three times more to decide; the support says how far to trust it",
        "",
    ),
    Entry("cot", "Explain in words — no program (≈ 10 s)", "chain of thought: reasoning in words, no program", ""),
    Entry("sc-pal", "PAL × 5, majority vote (≈ 28 s)", "five sampled programs, majority vote", "GSM8K 1–50: 56 %"),
    Entry(
        "pal+grammar", "PAL, reply forced to one code block", "a grammar forces one fenced Python block",
        "GSM8K 15: 60 %",
    ),
    Entry(
        "pot", "Program of Thoughts — the program sets ans", "PoT: the program stores the answer in ans",
        "GSM8K 1–50: 50 %",
    ),
    Entry(
        "pot+finish", "PoT + finishing step (units, multiple choice)",
        "PoT, then one call reasons from ans to the final answer; options matched by value", "AQuA dev 50: 48 %",
    ),
    Entry("sc-pot", "PoT × 5, majority vote", "five sampled PoT programs, majority vote", "GSM8K 10: 50 %"),
    Entry("pal+shots", "PAL, more worked examples", "PAL with four worked examples", "GSM8K 1–50: 46 %", True),
    Entry("pot+shots", "PoT, more worked examples", "PoT with four worked examples", "GSM8K 15: 33 %", True),
    Entry(
        "pot+nocomment", "PoT, comments discouraged (zero-shot, as in the paper)",
        "PoT with tokens starting with # biased by -2", "GSM8K 15: 27 %", True,
    ),
    Entry(
        "pal+fallback", "PAL, chain of thought if the program fails", "PAL; chain of thought when it fails", "", True
    ),
    Entry(
        "sc-pal+shots+fallback", "PAL × 5 with examples, vote, CoT fallback",
        "five sampled programs with examples, vote, chain of thought when all fail", "", True,
    ),
    Entry(
        "mix+more", "Cross-checked, reasoned again even where numbers are large",
        "mix, with its second round also where the question's numbers are large (mix lets the programs decide there)",
        "", True,
    ),
    Entry(
        "coc", "Chain of Code — the model emulates what cannot run",
        "lines that cannot run are emulated by the model", "GSM8K 4: 3 of 4", True,
    ),
    Entry(
        "iipc", "IIPC — propositions, program, validation, integration",
        "Iteratively Improved Program Construction", "GSM8K 4: 3 of 4, 77 s each", True,
    ),
)  # fmt: skip
RESEARCH_HEADING = "Research variants"


def picker() -> list[tuple[str | None, str]]:
    """The picker's rows in order, (method name, words); None: the "Research variants" heading."""
    rows: list[tuple[str | None, str]] = [(e.name, e.label) for e in TABLE[:PLAIN_CHOICES]]
    rows += [(e.name, e.shown) for e in TABLE[PLAIN_CHOICES:] if not e.research]
    rows.append((None, RESEARCH_HEADING))
    return rows + [(e.name, e.shown) for e in TABLE if e.research]


def methods_help() -> str:
    """The methods in one line for `--help`: every name, then how options and votes are formed."""
    return (
        ", ".join(entry.name for entry in TABLE)
        + "; or any base (pal, pot, cot, coc, iipc, mix) with +options (repair, shots, grammar, fallback;"
        " pot: finish, free, nocomment), sc-/scK- for a vote of K programs"
    )


def markdown_table() -> str:
    """The table docs/methods.md shows (a test keeps the two equal)."""
    rows = ["| method | what it does | reads data files | measured with the embedded model |", "|---|---|---|---|"]
    for entry in TABLE:
        research = " (research variant)" if entry.research else ""
        data = "yes" if entry.reads_data else "no"
        rows.append(f"| `{entry.name}`{research} | {entry.help} | {data} | {entry.measured or 'see results.md'} |")
    return "\n".join(rows) + "\n"
