"""Contract suite run over every registered bound (adding a bound adds its tests).

Each test is parametrized over ``bounds.ids()``; the checks are the contract of DESIGN §2:
the bound is well formed, evaluates to a finite number at its example point, its compiled
(lambdify) evaluation agrees with sympy's own substitution, every hypothesis is enforced, its
LaTeX renders, and its exponents agree with numeric log-log slopes.
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib
import numpy as np
import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds import Bound
from fedtheory.bounds._bound import mathtext_latex
from fedtheory.errors import ConditionError, ParameterError

matplotlib.use("Agg")
from matplotlib.mathtext import MathTextParser

BOUND_IDS = bounds.ids()


def _values(bound: Bound) -> dict[str, Any]:
    """Example point plus unit constants (order bounds)."""
    return {**bound.example, **dict.fromkeys(bound.constants, 1)}


def _sympy_value(bound: Bound, values: dict[str, Any]) -> sp.Expr:
    """The bound's value by sympy substitution alone (no lambdify), to 30 digits."""
    info = bound.info
    substitutions = {
        info[n].symbol: sp.Rational(repr(float(v)))
        for n, v in values.items()
        if info[n].role != "sequence"
    }
    expr = bound.expr.subs(substitutions).doit()
    for name, base in bound.sequences.items():
        entries = values[name]
        expr = expr.xreplace(
            {
                item: sp.Rational(repr(float(entries[int(item.indices[0])])))
                for item in expr.atoms(sp.Indexed)
                if item.base == base
            }
        )
    return sp.N(expr, 30)


def test_registry_is_not_empty() -> None:
    assert len(BOUND_IDS) >= 9
    assert all(bounds.get(i).id == i for i in BOUND_IDS)


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_well_formed(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    assert bound.kind in bounds.KINDS
    assert bound.status in bounds.STATUSES
    assert bound.source.paper == bound.paper == bound_id.split(".")[0]
    assert bound.quantity.strip() and bound.statement.strip()
    for name, info in bound.info.items():
        assert info.meaning.strip(), f"{name} has no meaning"
        assert name.isidentifier()
    assert set(bound.example) == set(bound.parameters)
    assert bound.relation in str(bound)
    assert bound.is_order == bool(bound.constants)


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_evaluates_finite_at_example(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    value = bound.evaluate(**_values(bound))
    assert isinstance(value, float)
    assert math.isfinite(value)
    assert bound.log_evaluate(**_values(bound)) == pytest.approx(math.log(value), rel=1e-12)


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_lambdify_agrees_with_sympy_substitution(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    values = _values(bound)
    compiled = bound.evaluate(**values)
    exact = _sympy_value(bound, values)
    assert exact.is_real
    assert compiled == pytest.approx(float(exact), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_broadcasting_matches_pointwise(bound_id: str) -> None:
    """An array in one parameter gives the pointwise values, in the broadcast shape."""
    bound = bounds.get(bound_id)
    values = _values(bound)
    for name in bound.parameters:
        if name in bound.sequences:
            continue
        base = float(values[name])
        grid = np.array([base, base])
        result = bound.evaluate(**{**values, name: grid})
        assert result.shape == (2,)
        assert np.all(result == bound.evaluate(**values))


def _violations(bound: Bound, hypothesis: bounds.Hypothesis) -> list[dict[str, Any]]:
    """Perturbations of the example point (one symbol scaled) that break ``hypothesis``."""
    found = []
    symbols = {n: bound.info[n].symbol for n in hypothesis.names if n in bound.symbols}
    for name, symbol in symbols.items():
        if bound.info[name].role == "constant":
            continue
        base = float(bound.example[name])
        candidates = [base * 10.0**k for k in (1, 2, 3, 6, -1, -2, -3, -6)]
        candidates += [0.0, base + 1, base - 1]
        for candidate in candidates:
            if symbol.is_integer:
                candidate = float(round(candidate))
            if (symbol.is_positive and candidate <= 0) or (symbol.is_nonnegative and candidate < 0):
                continue
            point = {**_values(bound), name: candidate}
            subs = {bound.info[n].symbol: sp.Rational(repr(float(point[n]))) for n in symbols}
            if hypothesis.relation.subs(subs) == sp.false:
                found.append(point)
                break
    return found


@pytest.mark.parametrize(
    ("bound_id", "index"),
    [(i, k) for i in BOUND_IDS for k in range(len(bounds.get(i).hypotheses))],
)
def test_each_hypothesis_is_enforced(bound_id: str, index: int) -> None:
    """Perturb the example until the hypothesis fails: evaluate must raise ConditionError
    naming it, and ``check=False`` must still evaluate. A hypothesis that no scaling of its
    symbols can break is a defect (it cannot fail)."""
    bound = bounds.get(bound_id)
    hypothesis = bound.hypotheses[index]
    violations = _violations(bound, hypothesis)
    assert violations, f"no perturbation of the example violates {hypothesis}"
    for point in violations:
        with pytest.raises(ConditionError) as raised:
            bound.evaluate(**point)
        assert str(hypothesis) in raised.value.failed
        assert raised.value.bound_id == bound_id


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_example_satisfies_hypotheses(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    info = bound.info
    subs = {
        info[n].symbol: sp.Rational(repr(float(v)))
        for n, v in _values(bound).items()
        if info[n].role != "sequence"
    }
    for hypothesis in bound.hypotheses:
        assert hypothesis.relation.subs(subs) == sp.true, str(hypothesis)


#: One mathtext parser (Agg output) for every bound: its cache is keyed by the text.
_MATHTEXT = MathTextParser("agg")


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_latex_renders(bound_id: str) -> None:
    """LaTeX of the expression and the notebook representation of the statement render with
    matplotlib's mathtext (the figures overlay them): ``_repr_latex_`` is ``$…$`` without
    ``\\displaystyle``, the statement and then every hypothesis through ``mathtext_latex``."""
    bound = bounds.get(bound_id)
    notebook = bound._repr_latex_()
    assert notebook.startswith(f"${mathtext_latex(bound.statement_latex())}")
    assert notebook.endswith("$") and notebook.count("$") == 2
    for hypothesis in bound.hypotheses_latex():
        assert mathtext_latex(hypothesis) in notebook
    assert (r"\text{if }" in notebook) == bool(bound.hypotheses)
    assert r"\displaystyle" not in notebook
    for text in (f"${bound.latex()}$", notebook):
        assert text.strip("$ ")
        # parsed, laid out and rasterised as Agg draws it (math_to_image does the same and
        # then builds a figure and encodes a PNG around it: twice the time, nothing more checked)
        image = _MATHTEXT.parse(text, dpi=72).image
        assert image.ndim == 2 and image.any()  # some ink


def exponent_cases() -> list[tuple[str, str, str]]:
    cases = []
    for bound_id in BOUND_IDS:
        bound = bounds.get(bound_id)
        for name in bound.parameters:
            if name in bound.sequences:
                continue
            for at in ("oo", "0"):
                if at == "0" and bound.info[name].symbol.is_integer:
                    continue
                cases.append((bound_id, name, at))
    return cases


@pytest.mark.parametrize(("bound_id", "name", "at"), exponent_cases())
def test_exponent_agrees_with_numeric_slope(bound_id: str, name: str, at: str) -> None:
    """The exponent (symbolic where sympy can) equals the numeric log-log slope far out; both
    paths refuse the same limits (those leaving the hypotheses or indexing a sequence)."""
    bound = bounds.get(bound_id)
    try:
        symbolic = bound.exponent(name, at=at)
    except ParameterError as error:
        with pytest.raises(ParameterError):
            bound.exponent(name, at=at, method="numeric")
        assert "hypothes" in str(error) or "sequence" in str(error)
        return
    # where sympy gave up, ``auto`` already is the numeric path: the same deterministic
    # computation, not repeated (it took up to 6 s per case, on top of sympy's time limit)
    numeric = (
        symbolic if symbolic.method == "numeric" else bound.exponent(name, at=at, method="numeric")
    )
    assert numeric.method == "numeric"
    assert symbolic.behaviour == numeric.behaviour
    if symbolic.behaviour == "power":
        assert float(numeric.power) == pytest.approx(float(symbolic.power), abs=2e-3)
    elif symbolic.behaviour == "exponential":
        assert symbolic.power == numeric.power


@pytest.mark.parametrize("bound_id", BOUND_IDS)
def test_subs_all_parameters_gives_the_value(bound_id: str) -> None:
    bound = bounds.get(bound_id)
    scalars = {n: v for n, v in _values(bound).items() if n not in bound.sequences}
    reduced = bound.subs(**scalars)
    assert not reduced.symbols
    rest = {n: v for n, v in _values(bound).items() if n in bound.sequences}
    assert reduced.evaluate(**rest) == pytest.approx(bound.evaluate(**_values(bound)), rel=1e-12)
