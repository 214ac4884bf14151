"""Graphs for equations: the sample points come from the sandbox (the program runs again with the
probe), and only well-formed, capped numbers are ever drawn."""

from __future__ import annotations

import pytest

from app.reasoning.graphs import GRAPH_NAME, GRAPH_PROBE, MAX_POINTS, graph_of, wants_graph
from sandbox import CapturedValue, Sandbox

EQUATION = (
    "from sympy import symbols, Eq, solve\nx = symbols('x')\nequation = Eq(3*x + 7, 25)\nans = solve(equation, x)[0]"
)


def test_the_probe_samples_both_sides_and_marks_the_solution(sandbox: Sandbox) -> None:
    result = sandbox.run(EQUATION + "\n" + GRAPH_PROBE, capture=[GRAPH_NAME], time_s=10)
    graph = graph_of(result.values.get(GRAPH_NAME))
    assert graph is not None
    assert [curve.label for curve in graph.curves] == ["y = 3*x + 7", "y = 25"]
    assert [(m.x, m.y, m.label) for m in graph.marks] == [(6.0, 25.0, "x = 6")]
    left = graph.curves[0].y
    assert left[graph.x.index(min(graph.x, key=lambda v: abs(v - 6)))] == pytest.approx(25, abs=0.5)


def test_a_program_without_an_equation_gets_no_graph(sandbox: Sandbox) -> None:
    result = sandbox.run("ans = 2 + 2\n" + GRAPH_PROBE, capture=[GRAPH_NAME])
    assert graph_of(result.values.get(GRAPH_NAME)) is None


def _value(data: object) -> CapturedValue:
    return CapturedValue(repr="…", json=data, type="dict")


@pytest.mark.parametrize(
    "data",
    [
        None,
        "a string",
        {"x": [0, 1], "curves": [], "marks": []},  # nothing to draw
        {"x": [0, 1], "curves": [{"label": "y", "y": [1]}], "marks": []},  # lengths differ
        {"x": [0, "1"], "curves": [{"label": "y", "y": [1, 2]}], "marks": []},
        {"x": [0, True], "curves": [{"label": "y", "y": [1, 2]}], "marks": []},
        {"x": list(range(MAX_POINTS + 1)), "curves": [{"label": "y", "y": [0] * (MAX_POINTS + 1)}], "marks": []},
    ],
)
def test_anything_out_of_shape_is_not_drawn(data: object) -> None:
    assert graph_of(_value(data)) is None


def test_which_solves_get_a_graph() -> None:
    assert wants_graph("Solve for x: 3x + 7 = 25.", EQUATION)
    assert not wants_graph("Solve for x: 3x + 7 = 25.", "print(6)")  # no equation object to sample
    assert not wants_graph("How many apples are left?", EQUATION)
