"""How an answer was checked, in the lines the window shows under it and the Markdown export
writes after it: the vote's tally with what failed or was not counted, the support in words, why
chain of thought's answer stands where no program gave it, and the notes. Raw text: each caller
makes it safe for where it goes (`display_text` in the window, `table_cell` in Markdown).
"""

from __future__ import annotations

from app.reasoning.short_answer import shown_answers
from app.reasoning.solution import Solution, SolveStatus, voters_words


def tally_line(solution: Solution) -> str | None:
    """ "Vote of chain of thought, PAL and PoT: 70 ×1, 80 ×1; 0 failed, 1 cancelled" (None: no vote)."""
    if solution.samples <= 1:
        return None
    shown = shown_answers([v.answer for v in solution.votes])
    tally = ", ".join(f"{text} ×{v.count}" for v, text in zip(solution.votes, shown, strict=True))
    left_out = solution.samples - sum(v.count for v in solution.votes)
    failed = sum(s.answer is None for s in solution.sampled) if solution.sampled else left_out
    # An answer the vote did not count (one the question cannot have, one naming no option) did not fail.
    uncounted = f"{left_out - failed} not counted, " if left_out > failed else ""
    cut = int(solution.status is SolveStatus.CANCELLED and failed > 0)  # the solve the cancel stopped
    ends = f"{uncounted}{failed - cut} failed" + (", 1 cancelled" if cut else "")
    return f"Vote of {voters_words(solution)}: {tally or 'no answers'}; {ends}"


def how_checked(solution: Solution) -> list[str]:
    """Every line, in the window's order."""
    lines = [line] if (line := tally_line(solution)) else []
    if solution.answered:
        lines.append(f"Checked: {solution.confidence.words}")
    if solution.fallback_used:
        lines.append("No program gave this answer: it is chain of thought's, not a program's")
        if solution.error:  # why the program's answer was not used
            lines.append(f"Why: {solution.error.strip()}")
    return lines + list(solution.notes)
