"""What a program over data does that its question did not ask: filters it never asked for
(`unasked_filters`, mended without the model by `refiltered`), and what the question names that
the program never reads (`unused_mentions`, `unread_year`, `unread_measure`; mended by
`recolumned`, `rowpicked`, `yeared`, `measured`); `renamed` puts a misspelled name right.

The embedded model's commonest wrong answer over a data file is a filter copied from its prompt's
example or made up: "total spent in March 2023" computed for one category (`== "utilities"`), the
highest price "in March 2000", `r["category"] == r["category"]` (always true, so every row counts
for every category). Measured on the data benchmarks (docs/results.md), most programs with such a
filter were wrong and few right ones had one. What is judged unasked, in comparisons only:

- a text constant the question does not contain (folded; a plural "homicides" contains "homicide");
- a year (1800–2199) the question does not state, nor a decade of it ("the 1990s" states 1990–1999);
- a number compared with a date's `.month`, `.day` or `.year` the question does not give, a month
  being given by its name ("in March" gives 3) and any month by a quarter;
- one side compared with itself;
- a date's text (`"1992-04-30"`): a row holds the date, which never equals its text;

but never a value every row holds (a data set of 2024 alone: `.year == 2024` filters nothing).

The program is parsed (never run) with the shared caps of `working.program_nodes`; a mended
program is written back with its comment lines (`with_comments`).
"""

from __future__ import annotations

import ast
import datetime
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.reasoning.working import program_nodes

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE_PARTS = {"month", "day", "year"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_DECADE = re.compile(r"\b(\d{3})0s\b")
_YEAR = re.compile(r"(?<![\d.])(1[89]\d\d|2[01]\d\d)(?![\d.])")
_SPAN = re.compile(r"(?i)\b(since|after|before|until|till|from|between|through|by)\s+(the\s+)?(year\s+)?\d")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ANY_MONTH = re.compile(r"(?i)\b(quarter|q[1-4]|season|half)")


def unasked_filters(program: str, question: str, shared: frozenset[object] = frozenset()) -> tuple[str, ...]:
    """What `program` compares with that `question` does not ask about, in words (none: empty).
    `shared`: values every row holds (`DataSet.shared_values`): comparing with them filters nothing."""
    asked = _Asked(question, shared)
    found: list[str] = []
    for node in program_nodes(program):
        if not isinstance(node, ast.Compare):
            continue
        if _self_compared(node):
            found.append(f"{_code(node.left)} is compared with itself (line {node.lineno})")
        found.extend(f"{_brief(side.value)} (line {node.lineno})" for side in asked.unasked_sides(node))
    return tuple(dict.fromkeys(found))


def unused_mentions(
    program: str, question: str, values: Mapping[str, frozenset[str]], columns: Iterable[str]
) -> tuple[str, ...]:
    """What the question names that the program never reads: a value of a text column when the
    program reads neither that column nor any of its values ("Japan" asked, `tables["fertility"][0]`
    written), or a column named as a number that it does not read (a year's column, "2010", as
    wide statistics tables have them, where the program read "1990"). At most five, in words.
    "Reads" means the program's text constants hold it (a variable's name is not reading)."""
    texts = _texts(program)
    asked = question.casefold()
    found: list[str] = []
    for column, names in values.items():
        if column.casefold() in texts or any(name.casefold() in texts for name in names):
            continue  # the program reads the column, or filters on one of its values
        found += [
            f"{_brief(name)} (a value of the column {column!r})"
            for name in names
            if len(name) > 2 and name.casefold() in asked and _mentioned_as_word(name.casefold(), asked)
        ]
    found += [
        f"the column {column!r}"
        for column in columns
        if column.isdigit() and column not in texts and _mentioned_as_word(column, asked)
    ]
    return tuple(dict.fromkeys(found))[:5]


def recolumned(program: str, question: str, columns: Iterable[str]) -> Refiltered | None:
    """`program` reading the year's column the question names instead of the one it read, when
    there is exactly one of each (a wide table's "2010" asked, "1990" read); else None."""
    texts = _texts(program)
    asked = question.casefold()
    numbered = [column for column in dict.fromkeys(columns) if column.isdigit()]
    wanted = [c for c in numbered if c not in texts and _mentioned_as_word(c, asked)]
    read = [c for c in numbered if c in texts and not _mentioned_as_word(c, asked)]
    if len(wanted) != 1 or len(read) != 1:
        return None
    tree = ast.parse(program)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == read[0]:
            node.value = wanted[0]
    return Refiltered(with_comments(program, tree), (f"read the column {wanted[0]!r}, not {read[0]!r}",))


def rowpicked(program: str, question: str, values: Mapping[str, frozenset[str]]) -> Refiltered | None:
    """`program` reading the row the question names where it read one row by its position
    ("Japan's rate" asked, `tables["fertility"][0]` written: the first row, whoever it is), when
    the question names exactly one value of text columns the program never reads and every row
    it picks by position is the same one; else None. That row becomes `next(r for r in table if
    r[column] == value)`: the value is one of the column's own, so the row exists."""
    texts = _texts(program)
    asked = question.casefold()
    named = [
        (column, name)
        for column, names in values.items()
        if column.casefold() not in texts and not any(n.casefold() in texts for n in names)
        for name in names
        if len(name) > 2 and _mentioned_as_word(name.casefold(), asked)
    ]
    if len(named) != 1 or not program_nodes(program):
        return None
    tree = ast.parse(program)
    picked = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and _table_name(node.value, tree) and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, int) and not isinstance(node.slice.value, bool)
    ]  # fmt: skip
    if not picked or len({ast.dump(node) for node in picked}) != 1:
        return None
    (column, name), table, position = named[0], ast.unparse(picked[0].value), _code(picked[0])
    for node in picked:
        found = f"next(r for r in {table} if r[{column!r}] == {name!r})"
        _become(node, ast.parse(found, mode="eval").body)
    return Refiltered(
        with_comments(program, ast.fix_missing_locations(tree)),
        (f"the row whose {_brief(column)} is {_brief(name)}, not {position}",),
    )


def _table_name(node: ast.expr, tree: ast.AST, seen: frozenset[str] = frozenset()) -> str | None:
    """The table `node` is: `tables["x"]`, or a name the program binds to it (`t = tables["x"]`)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "tables":
        return node.slice.value if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) else None
    if not isinstance(node, ast.Name) or node.id in seen:
        return None
    bound = [
        a.value for a in ast.walk(tree)
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.targets[0], ast.Name)
        and a.targets[0].id == node.id
    ]  # fmt: skip
    return _table_name(bound[0], tree, seen | {node.id}) if len(bound) == 1 else None


def asked_year(question: str) -> int | None:
    """The one year the question keeps to ("spent in 2024", "which month of 2024", "2017's"), when
    it names one year and no span ("since 2020", "from 2001 to 2005", "the 1990s"); else None."""
    years = set(_YEAR.findall(question))
    if len(years) != 1 or _SPAN.search(question) or _DECADE.search(question.casefold()):
        return None
    year = years.pop()
    return int(year) if re.search(rf"(?i)\b(in|of|during|for)\s+{year}\b|\b{year}'s\b", question) else None


def unread_year(program: str, question: str) -> int | None:
    """The year the question keeps to (`asked_year`) when the program never reads it; else None."""
    year = asked_year(question)
    if year is None:
        return None
    constants = [node.value for node in program_nodes(program) if isinstance(node, ast.Constant)]
    read = any(value == year or (isinstance(value, str) and str(year) in value) for value in constants)
    return None if read else year


Measures = Mapping[str, tuple[str, tuple[str, ...]]]  # a long table's name -> (its measure column, the column's values)


def yeared(program: str, question: str, dated: Mapping[str, tuple[str, bool]]) -> Refiltered | None:
    """`program` keeping to the year the question asks about (`unread_year`): each comprehension or
    `for` loop over a table gets that year's condition on the table's one date column (`dated`:
    table name -> (column, whether it holds dates, not year numbers)); else None."""
    year = unread_year(program, question)
    if year is None or not program_nodes(program):
        return None
    kept = {name: f"[{column!r}]{'.year' if is_date else ''} == {year}" for name, (column, is_date) in dated.items()}
    mended = _kept_to(program, kept)
    return Refiltered(mended, (f"only the rows of {year} kept, as the question asks",)) if mended else None


def measured(program: str, question: str, measures: Measures) -> Refiltered | None:
    """`program` keeping to the rows of what the question asks about in a long table, where it
    read every measure's rows (`unread_measure`): each comprehension or `for` loop over the table
    gets the condition on its measure column (`measures`: table name -> (column, its values)); else None."""
    asked = {
        name: (column, value)
        for name, (column, values) in measures.items()
        if (value := unread_measure(program, question, column, values)) is not None
    }
    kept = {name: f"[{column!r}] == {value!r}" for name, (column, value) in asked.items()}
    mended = _kept_to(program, kept) if kept and program_nodes(program) else None
    if mended is None:
        return None
    return Refiltered(
        mended, tuple(f"only the rows of {_brief(value)} kept, as the question asks" for _, value in asked.values())
    )


def unread_measures(program: str, question: str, measures: Measures) -> tuple[str, ...]:
    """What of `measures` (as `measured` takes them) the question names and `program` never reads, in words."""
    return tuple(
        f"the rows of {_brief(value)} (a value of the column {_brief(column)})"
        for column, values in measures.values()
        if (value := unread_measure(program, question, column, values)) is not None
    )


def unread_measure(program: str, question: str, column: str, values: Iterable[str]) -> str | None:
    """The one value of a long table's measure `column` the question names by its own words
    ("population" for "Population, total"; words two values share, as "total", name neither),
    where the program reads neither the column nor any of its values; else None."""
    texts = _texts(program)
    values = tuple(values)
    if column.casefold() in texts or any(value.casefold() in texts for value in values):
        return None
    words = [set(re.findall(r"[^\W\d_]{3,}", value.casefold())) for value in values]
    counted = Counter(word for said in words for word in said)
    asked = question.casefold()
    named = [
        value
        for value, said in zip(values, words, strict=True)
        if any(counted[word] == 1 and _mentioned_as_word(word, asked) for word in said)
    ]
    return named[0] if len(named) == 1 else None


def _kept_to(program: str, kept: Mapping[str, str]) -> str | None:
    """`program` with each comprehension or `for` loop over a table of `kept` (table name -> the
    condition on its row, without the row: `["year"] == 2024`) keeping to that condition; None where
    no loop reads such a table."""
    tree = ast.parse(program)
    changed = False
    for node in ast.walk(tree):
        loops = node.generators if isinstance(node, _COMPREHENSIONS) else [node] if isinstance(node, ast.For) else []
        for loop in loops:
            name = _table_name(loop.iter, tree)
            if name is None or name not in kept or not isinstance(loop.target, ast.Name):
                continue
            condition = ast.parse(f"{loop.target.id}{kept[name]}", mode="eval").body
            if isinstance(loop, ast.comprehension):
                loop.ifs.append(condition)
            else:
                loop.body = [ast.If(condition, loop.body, [])]
            changed = True
    return with_comments(program, ast.fix_missing_locations(tree)) if changed else None


def _texts(program: str) -> set[str]:
    """The program's text constants, folded: what it reads by name."""
    return {
        node.value.casefold()
        for node in program_nodes(program)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@dataclass(frozen=True)
class Refiltered:
    program: str
    changes: tuple[str, ...]  # in words, for the solution's notes


def refiltered(
    program: str, question: str, shared: frozenset[object], values: Mapping[str, frozenset[str]]
) -> Refiltered | None:
    """`program` without the filters the question never asked for, or None when it has none or
    they cannot be taken out safely. A text the question does not mention becomes the one value
    of the same column the question names ("utilities" → "rent"), else its condition goes; a
    year or month it does not give goes; `r["c"] == r["c"]` inside a comprehension over the rows
    nested in another over the same rows (the small model's group-by) compares the inner row with
    the outer. Only conditions joined by `and` in a comprehension, or in an `if` without `else` in
    a loop, are changed. `values`: each
    text column's values (`DataSet.text_values`)."""
    if not program_nodes(program):
        return None
    tree = ast.parse(program)
    fixer = _Fixer(_Asked(question, shared), values)
    fixer.visit(tree)
    mended = with_comments(program, ast.fix_missing_locations(tree))
    if fixer.stuck or not fixer.changes or unasked_filters(mended, question, shared):
        return None  # nothing changed, or some unasked filter is where this does not change it
    return Refiltered(mended, tuple(fixer.changes))


def renamed(program: str, missing: str, meant: str) -> str | None:
    """`program` with the name `missing` written `meant` (a NameError's misspelling), when `meant`
    is a name it assigns; else None."""
    if not program_nodes(program) or not meant.isidentifier():
        return None
    tree = ast.parse(program)
    names = [node for node in ast.walk(tree) if isinstance(node, ast.Name)]
    if not any(n.id == meant and isinstance(n.ctx, ast.Store) for n in names) or missing not in {n.id for n in names}:
        return None
    for node in names:
        if node.id == missing:
            node.id = meant
    return with_comments(program, tree)


def with_comments(original: str, tree: ast.Module) -> str:
    """`tree` (changed in place from `original`) as source, with the original's own comment lines
    back above the statements they stood above: in a PAL program they are its reasoning."""
    lines = original.splitlines()
    out: list[str] = []
    shown = 0  # original lines accounted for
    for statement in tree.body:
        out += [line for line in lines[shown : statement.lineno - 1] if line.strip().startswith("#")]
        out.append(ast.unparse(statement))
        shown = statement.end_lineno or statement.lineno
    out += [line for line in lines[shown:] if line.strip().startswith("#")]
    return "\n".join(out)


class _Asked:
    def __init__(self, question: str, shared: frozenset[object]) -> None:
        self.text = question.casefold()
        self.numbers = _numbers_in(self.text)
        self.shared = shared

    def unasked_sides(self, node: ast.Compare) -> list[ast.Constant]:
        sides = [node.left, *node.comparators]
        dated = any(isinstance(side, ast.Attribute) and side.attr in _DATE_PARTS for side in sides)
        found = []
        for side in sides:
            if not isinstance(side, ast.Constant) or isinstance(side.value, bool) or side.value is None:
                continue
            value = side.value
            if value in self.shared:
                continue
            if isinstance(value, str):
                unasked = _iso_date(value) is not None or (
                    bool(value.strip()) and not _mentioned(value.casefold(), self.text)
                )
            else:
                unasked = (
                    isinstance(value, int | float) and (dated or 1800 <= value < 2200) and value not in self.numbers
                )
            if unasked:
                found.append(side)
        return found


def _self_compared(node: ast.Compare) -> bool:
    return len(node.comparators) == 1 and ast.dump(node.left) == ast.dump(node.comparators[0])


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class _Fixer(ast.NodeTransformer):
    def __init__(self, asked: _Asked, values: Mapping[str, frozenset[str]]) -> None:
        self.asked, self.values = asked, values
        self.changes: list[str] = []
        self.stuck = False  # a change this should not make alone

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, _COMPREHENSIONS):
            self._regroup(node)
        node = super().generic_visit(node)
        if isinstance(node, ast.comprehension):
            node.ifs = [kept for condition in node.ifs if (kept := self._kept(condition)) is not None]
        if isinstance(node, ast.For):
            node.body = [kept for statement in node.body for kept in self._unwrapped(statement)]
        return node

    def _unwrapped(self, statement: ast.stmt) -> list[ast.stmt]:
        """A loop's `if` (with no `else`) without its unasked comparisons; with none left, its body."""
        if not isinstance(statement, ast.If) or statement.orelse:
            return [statement]
        kept = self._kept(statement.test)
        if kept is None:
            return statement.body
        statement.test = kept
        return [statement]

    def _kept(self, condition: ast.expr) -> ast.expr | None:
        """A comprehension's condition without its unasked comparisons (None: nothing left)."""
        if isinstance(condition, ast.BoolOp) and isinstance(condition.op, ast.And):
            kept = [part for value in condition.values if (part := self._kept(value)) is not None]
            return None if not kept else kept[0] if len(kept) == 1 else ast.BoolOp(ast.And(), kept)
        if not isinstance(condition, ast.Compare) or _self_compared(condition):
            return condition
        for side in self.asked.unasked_sides(condition):
            when = _iso_date(side.value) if isinstance(side.value, str) else None
            if when is not None:  # a row holds the date, never its text: compare with the date
                self.changes.append(f"{_brief(side.value)} read as the date {when!r} (line {condition.lineno})")
                _become(side, ast.parse(repr(when), mode="eval").body)
                continue
            named = self._named(condition, side) or self._dated(condition, side)
            if len(named) > 1:  # "food or rent": which one it meant is the model's to say
                self.stuck = True
            if len(named) != 1:
                self.changes.append(f"{_code(condition)} left out (line {condition.lineno})")
                return None
            said = f"{_brief(side.value)} read as {_brief(named[0])}"
            self.changes.append(f"{said}, named in the question (line {condition.lineno})")
            side.value = named[0]
        return condition

    def _dated(self, condition: ast.Compare, side: ast.Constant) -> list[int]:
        """The one year, or month by its name, that the question gives in place of another
        ("food in 2024" over a program filtering on 2023); more or none: an empty list."""
        if not isinstance(side.value, int) or isinstance(side.value, bool):
            return []
        parts = {other.attr for other in (condition.left, *condition.comparators) if isinstance(other, ast.Attribute)}
        if "month" in parts:
            months = [n for n, month in enumerate(_MONTHS, start=1) if re.search(rf"\b{month}", self.asked.text)]
            return months if len(months) == 1 else []
        if "year" in parts or 1800 <= side.value < 2200:
            years = {int(n) for n in self.asked.numbers if n.is_integer() and 1800 <= n < 2200}
            return list(years) if len(years) == 1 else []
        return []

    def _named(self, condition: ast.Compare, side: ast.Constant) -> list[str]:
        """The values of the compared column that the question names."""
        if not isinstance(side.value, str):
            return []
        for other in (condition.left, *condition.comparators):
            if isinstance(other, ast.Subscript) and isinstance(other.slice, ast.Constant):
                column = other.slice.value
                if isinstance(column, str) and column in self.values:
                    return [v for v in self.values[column] if _mentioned_as_word(v.casefold(), self.asked.text)]
        return []

    def _regroup(self, outer: ast.expr) -> None:
        """`{r["c"]: sum(r["x"] for r in rows if r["c"] == r["c"]) for r in rows}`: the inner loop
        reuses the outer row's name, so its condition is always true; the inner row is renamed."""
        generators = getattr(outer, "generators", [])
        names = {g.target.id for g in generators if isinstance(g.target, ast.Name)}
        for inner in ast.walk(outer):
            if inner is outer or not isinstance(inner, _COMPREHENSIONS):
                continue
            for generator in inner.generators:
                target = generator.target
                if not (isinstance(target, ast.Name) and target.id in names):
                    continue
                same = [
                    c for condition in generator.ifs for c in ast.walk(condition)
                    if isinstance(c, ast.Compare) and _self_compared(c)
                ]  # fmt: skip
                if len(same) != 1:
                    continue
                name, fresh, compared = target.id, f"{target.id}_row", same[0].comparators[0]
                for node in ast.walk(inner):
                    if isinstance(node, ast.Name) and node.id == name and not _within(node, compared):
                        node.id = fresh
                self.changes.append(
                    f"the inner loop's row renamed {fresh}, to compare it with the outer's (line {inner.lineno})"
                )


def _iso_date(text: str) -> datetime.date | None:
    if not _ISO_DATE.fullmatch(text):
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def _become(node: ast.AST, other: ast.AST) -> None:
    """Turn `node` into `other` where it stands (a Constant into a `datetime.date(…)` call)."""
    node.__class__ = other.__class__
    node.__dict__.update(other.__dict__)


def _within(node: ast.AST, tree: ast.AST) -> bool:
    return any(child is node for child in ast.walk(tree))


_SHOWN_CHARS = 80  # of a program's or a file's text in a note or a prompt: their text is anyone's


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _code(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _mentioned(text: str, asked: str) -> bool:
    return text in asked or (len(text) > 3 and text.rstrip("s") in asked)


def _mentioned_as_word(text: str, asked: str) -> bool:
    """`text` stands in the question as a word of its own ("rent" in "spent on rent", not in "parent")."""
    return bool(text.strip()) and re.search(rf"(?<!\w){re.escape(text)}s?(?!\w)", asked) is not None


def _numbers_in(asked: str) -> set[float]:
    numbers = {float(n) for n in _NUMBER.findall(asked.replace(",", ""))}
    for decade in _DECADE.findall(asked):
        numbers.update(float(int(decade) * 10 + year) for year in range(10))
    for number, month in enumerate(_MONTHS, start=1):
        if re.search(rf"\b{month}", asked):
            numbers.add(float(number))
    if _ANY_MONTH.search(asked):
        numbers.update(float(month) for month in range(1, 13))
    return numbers
