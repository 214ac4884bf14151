from app.reasoning.check_working import arithmetic_slips
from app.reasoning.plain_math import MAX_CHARS, plain_math
from sandbox import Sandbox

# What the embedded model wrote for GSM8K's first question, asked to reason step by step.
DISPLAYED = r"""3. Subtract the eggs eaten for breakfast:
   \[
   16 - 3 = 13 \text{ eggs/day}
   \]
7. Calculate the revenue:
   \[
   9 \text{ eggs/day} \times 2 \text{ dollars/egg} = 18 \text{ dollars/day}
   \]
Final answer: \boxed{18}"""


def test_display_math_becomes_lines_of_plain_text() -> None:
    assert plain_math(DISPLAYED) == (
        "3. Subtract the eggs eaten for breakfast:\n   16 - 3 = 13 eggs/day\n"
        "7. Calculate the revenue:\n   9 eggs/day × 2 dollars/egg = 18 dollars/day\nFinal answer: 18"
    )


def test_fractions_roots_powers_and_escapes() -> None:
    assert plain_math(r"\( \frac{1}{3} \times 6 = 2 \)") == "1/3 × 6 = 2"
    # inline math in a sentence, as the model writes it: no space left before the comma or full stop
    assert plain_math(r"Let \( S \) be the silver coins, so \(2S = 80\).") == "Let S be the silver coins, so 2S = 80."
    assert plain_math(r"\dfrac{\text{total cost}}{2 + 3}") == "(total cost)/(2 + 3)"
    assert plain_math(r"\frac{\frac{1}{2}}{4}") == "(1/2)/4"  # nested: one pass per level
    assert plain_math(r"\sqrt{16} + x^{2} \cdot 3") == "√16 + x^2 · 3"
    assert plain_math(r"\$1{,}250 is 20\% \left( of 6250 \right)") == "$1,250 is 20% ( of 6250 )"
    assert plain_math(r"a \leq b \quad c \approx d") == "a ≤ b c ≈ d"


def test_what_is_not_latex_is_left_alone() -> None:
    text = "She pays 20 - 14.50 = 5.50 dollars.\n  Indented {braces} stay.\n\\unknown{x} too"
    assert plain_math(text) == text
    assert plain_math("no backslash at all") == "no backslash at all"


def test_markdown_bold_and_headings_are_dropped() -> None:
    """The window showed chain of thought's "### Step 1" and "**Eggs left**:" as written."""
    text = "### Step 1\n1. **Eggs left**: 16 - 3 = 13\n**Answer:** 2**3 = (1+1)**3 = 8"
    assert plain_math(text) == "Step 1\n1. Eggs left: 16 - 3 = 13\nAnswer: 2**3 = (1+1)**3 = 8"
    assert plain_math("Issue #5 costs 3 and 2 ** 3 = 8") == "Issue #5 costs 3 and 2 ** 3 = 8"


def test_long_text_is_converted_up_to_its_cap_and_kept_whole() -> None:
    text = r"\times " * (MAX_CHARS // 7 + 100)
    shown = plain_math(text)
    assert shown.count("×") == MAX_CHARS // 7  # those wholly inside the cap
    assert shown.count("\\times") == 100  # the rest as they were, the one the cap cut through too


def test_unbalanced_braces_do_not_loop_or_blow_up() -> None:
    text = r"\frac{" * 2000 + "1}{2}" + "}" * 3000
    assert plain_math(text).endswith("1/2" + "}" * 3000)


def test_converted_reasoning_can_be_checked_for_slips(sandbox: Sandbox) -> None:
    slipped = r"\[ \text{Cost} = 16 \times 3 = 46 \text{ dollars} \]" + "\nSo the answer is \\boxed{46}."
    assert arithmetic_slips(slipped, sandbox) == ()  # LaTeX as written: no calculation read
    assert arithmetic_slips(plain_math(slipped), sandbox) == ("16 × 3 = 46 dollars (that is 48)",)
