"""``Bound._repr_latex_`` renders in matplotlib's mathtext (and stays plain LaTeX for Jupyter)."""

from __future__ import annotations

import pytest
import sympy as sp
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.mathtext import MathTextParser

from fedtheory import bounds
from fedtheory.bounds import Bound, Citation
from fedtheory.bounds._bound import mathtext_latex

PARSER = MathTextParser("agg")


# Every registered bound's _repr_latex_ is rendered by mathtext in
# tests/test_bound_contract.py::test_latex_renders (one test per bound).


@pytest.mark.parametrize("bound_id", ["classic.gd.strongly-convex", "minimax.prop16"])
def test_repr_latex_draws_on_a_figure(bound_id: str) -> None:
    fig = Figure()
    FigureCanvasAgg(fig)
    fig.text(0, 0, bounds.get(bound_id)._repr_latex_())
    fig.canvas.draw()


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\displaystyle x", " x"),
        (r"\tfrac{1}{2}", r"\frac{1}{2}"),
        (r"\sum\limits_{i=1}^{n} i", r"\sum_{i=1}^{n} i"),
        (r"\lVert x \rVert + \lvert y \rvert", r"\Vert x \Vert + | y |"),
        (r"\textrm{ab}", r"\text{ab}"),
        (
            r"\begin{cases} x & \text{for}\: x > 1 \\y & \text{otherwise} \end{cases}",
            r"\left\{ x\quad \text{for}\: x > 1;\quad y\quad \text{otherwise} \right.",
        ),
    ],
)
def test_mathtext_latex_maps_what_mathtext_rejects(latex: str, expected: str) -> None:
    with pytest.raises(ValueError):
        PARSER.parse(f"${latex}$")  # the construct really is rejected by mathtext
    assert mathtext_latex(latex) == expected
    PARSER.parse(f"${expected}$")


def test_piecewise_bound_renders() -> None:
    # a Piecewise prints as a cases environment, which mathtext does not know
    t = sp.Symbol("t", positive=True, integer=True)
    rule = sp.Piecewise((1 / t, t > 10), (sp.Rational(1, 10), True))
    bound = Bound(
        "classic.unit-piecewise",
        rule,
        source=Citation("classic", "unit test"),
        quantity="q",
        kind="upper",
        example={"t": 5},
        meanings={"t": "iteration"},
    )
    assert r"\begin{cases}" in bound.statement_latex()
    PARSER.parse(bound._repr_latex_())
