"""Leading terms at ∞ (``fedtheory.bounds._leading``): hand-derived monomials and rates, the
refusals that keep the route exact, and agreement with sympy's limit route on the catalog.

Every expected value below is derived by hand in the comment beside it (asymptotics of
elementary functions), not read off the code.
"""

from __future__ import annotations

import pytest
import sympy as sp
from test_bound_contract import exponent_cases

from fedtheory import bounds
from fedtheory.bounds import _analysis
from fedtheory.bounds._leading import Unsupported, leading_term, rate
from fedtheory.errors import ParameterError

t = sp.Symbol("t", positive=True)
x = sp.Symbol("x", positive=True)
R = sp.Rational


@pytest.mark.parametrize(
    ("expr", "coefficient", "scale"),
    [
        (3 * t**2 + t * sp.log(t), 3, (2, 0, 0)),  # t² beats t·log t
        (sp.harmonic(t) / sp.sqrt(t), 1, (R(-1, 2), 1, 0)),  # H_t = log t + γ + o(1)
        (sp.harmonic(t, 2), sp.pi**2 / 6, (0, 0, 0)),  # H_t^(2) → ζ(2)
        (sp.harmonic(t, R(1, 2)), 2, (R(1, 2), 0, 0)),  # Σ k^(−1/2) ~ t^(1/2)/(1/2)
        (sp.zeta(3, t + 1), R(1, 2), (-2, 0, 0)),  # Hurwitz ζ(3, t+1) ~ t^(−2)/2
        (sp.log(sp.log(t)), 1, (0, 0, 1)),
        (t ** R(3, 2) * sp.sqrt(sp.log(3000 * t)), 1, (R(3, 2), R(1, 2), 0)),  # log(3000t) ~ log t
        (sp.log(t**2 + 1) / sp.log(t), 2, (0, 0, 0)),  # log(t² + 1) ~ 2·log t
        (sp.atan(t), sp.pi / 2, (0, 0, 0)),
        (sp.exp(1 / t) * t, 1, (1, 0, 0)),  # exp(1/t) → e⁰
        (sp.cos(1 / t) - 3 * t**-2, 1, (0, 0, 0)),  # cos → 1, the t⁻² term is smaller
        (sp.log(2 + 1 / t), sp.log(2), (0, 0, 0)),
        ((1 - 3 / t) ** -2, 1, (0, 0, 0)),
        (-5 * t / sp.log(t) + sp.sqrt(t), -5, (1, -1, 0)),  # t/log t beats √t
        (sp.Abs(1 - t**2), 1, (2, 0, 0)),
        (sp.asin(1 - 1 / t**2) * t, sp.pi / 2, (1, 0, 0)),  # tends to 1 from inside: π/2
    ],
)
def test_leading_term_of_elementary_expressions(
    expr: sp.Expr, coefficient: sp.Expr, scale: tuple[int, int, int]
) -> None:
    lead = leading_term(expr, t)
    assert lead is not None
    assert sp.simplify(lead.coefficient - coefficient) == 0
    assert lead.scale == tuple(sp.sympify(s) for s in scale)


def test_a_float_zero_has_no_sign() -> None:
    """A float 0 (sympy ≥ 1.13 does not call it == 0) is not a leading coefficient."""
    zero = sp.Float("0.0", 60)
    with pytest.raises(Unsupported):
        leading_term(sp.Mul(zero, sp.sqrt(t), evaluate=False), t)
    with pytest.raises(Unsupported):
        leading_term(sp.log(sp.Add(sp.Float("1.0", 60), 1 / t, evaluate=False)), t)


def test_zero_is_none_and_a_constant_is_itself() -> None:
    assert leading_term(sp.Integer(0), t) is None
    assert leading_term(0 * t, t) is None
    lead = leading_term(sp.sqrt(2) * sp.pi, t)
    assert lead is not None and lead.coefficient == sp.sqrt(2) * sp.pi and lead.direction == 0


@pytest.mark.parametrize(
    "expr",
    [
        (t + 1) ** 2 - t**2,  # the t² terms cancel: the leading term is further down
        sp.log(4) - 2 * sp.log(2) + 1 / t,  # a constant evalf cannot prove nonzero
        sp.exp(t),  # faster than any power: outside the scale
        sp.exp(-t),
        sp.log(1 + 1 / t),  # log of something tending to 1: the next term decides
        sp.sin(1 / t),  # tends to 0: the next term decides
        t ** sp.sqrt(2),  # an irrational exponent
        t * sp.Symbol("y", positive=True),  # a free symbol
        sp.gamma(t),  # no rule
        sp.log(-t - 1),  # not positive
        sp.asin(2 + 1 / t),  # outside asin's domain
        sp.acos(1 + 1 / t),  # tends to 1 from outside: not real
        sp.harmonic(1 / t),  # harmonic numbers are understood at ∞ only
        (-t) ** R(1, 2),  # not real
        sp.Add(sp.Float("0.1") * t**2, sp.Float("-0.1") * t**2, t, evaluate=False),  # they cancel
    ],
)
def test_what_the_rules_cannot_decide_is_refused(expr: sp.Expr) -> None:
    with pytest.raises(Unsupported):
        leading_term(expr, t)


@pytest.mark.parametrize(
    ("expr", "at", "power", "log_power", "loglog_power", "limit"),
    [
        (1 + 1 / x, "oo", -1, 0, 0, 1),
        (2 + sp.log(x) / x, "oo", -1, 1, 0, 2),  # B − 2 = log x / x
        (5 + 1 / sp.log(x), "oo", 0, -1, 0, 5),  # B' ~ −1/(x·log²x): q = −1, a = −2 → log^−1
        (7 + 1 / sp.log(sp.log(x)), "oo", 0, 0, -1, 7),  # a = −1 as well: (log log x)^−1
        (3 + 1 / (x * sp.log(x) ** 2), "oo", -1, -2, 0, 3),
        (sp.harmonic(x, 2), "oo", -1, 0, 0, sp.pi**2 / 6),  # ζ(2) − H_x^(2) ~ 1/x
        (sp.harmonic(x) / sp.sqrt(x), "oo", R(-1, 2), 1, 0, 0),
        (sp.log(sp.log(x)), "oo", 0, 0, 1, sp.oo),
        (-(x**2) + x, "oo", 2, 0, 0, -sp.oo),
        (sp.sqrt(x) + x, "0", R(1, 2), 0, 0, 0),
        (1 / x + sp.log(1 / x), "0", -1, 0, 0, sp.oo),
        (3 - x * sp.log(1 / x), "0", 1, 1, 0, 3),  # at 0 the log factor is log(1/x)
        (1 / sp.log(1 / x), "0", 0, -1, 0, 0),
    ],
)
def test_rate_of_hand_derived_expressions(
    expr: sp.Expr, at: str, power: int, log_power: int, loglog_power: int, limit: sp.Expr
) -> None:
    found = rate(expr, x, at)
    assert found is not None
    assert (found.power, found.log_power, found.loglog_power) == (power, log_power, loglog_power)
    assert found.limit == limit or sp.simplify(found.limit - limit) == 0


def test_a_constant_has_no_rate_and_an_exponential_is_refused() -> None:
    assert rate(sp.Integer(3) + 0 * x, x, "oo") is None
    with pytest.raises(Unsupported):
        rate(sp.exp(-x) + 1, x, "oo")


def _sampled_cases() -> list[tuple[str, str, str]]:
    """Every 30th case of the bound contract's exponent cases (the registry's bounds when the
    contract is collected, each scalar parameter at ∞ and, where allowed, at 0): ~60 cases
    across the six papers."""
    return exponent_cases()[::30]


def _same_number(a: sp.Expr | None, b: sp.Expr | None) -> bool:
    if a is None or b is None or a in (sp.oo, -sp.oo) or b in (sp.oo, -sp.oo):
        return a == b
    return abs(sp.N(a - b, 40)) <= 1e-30 * max(1, abs(sp.N(b, 40)))


def test_leading_terms_give_sympys_answer_on_the_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a sample of the catalog's exponent cases, the exponent from leading terms equals the
    one sympy's limits give (the route before leading terms existed) wherever sympy answers
    exactly. The power may be a simplified form of sympy's: sympy's limit returned, e.g.,
    25/(25 + 64·log 20) + 64·log 20/(25 + 64·log 20) + 1 where the leading terms give 2."""
    decided = []
    structural_rate = _analysis._structural_rate

    def spy(*args: object) -> object:
        answer = structural_rate(*args)  # type: ignore[arg-type]
        decided.append(answer is not None)
        return answer

    compared = 0
    for bound_id, name, at in _sampled_cases():
        bound = bounds.get(bound_id)
        decided.clear()
        with monkeypatch.context() as patched:
            patched.setattr(_analysis, "_structural_rate", spy)
            try:
                ours = bound.exponent(name, at=at)
            except ParameterError:
                continue  # refused (hypotheses, a sequence): not a question of either route
        if not any(decided):
            continue
        with monkeypatch.context() as patched:
            patched.setattr(_analysis, "_structural_rate", lambda *args: None)
            patched.setattr(_analysis, "_structural_sign", lambda *args: None)
            _analysis._cached_sign_near.cache_clear()
            try:
                theirs = bound.exponent(name, at=at)
            finally:
                _analysis._cached_sign_near.cache_clear()
        case = f"{bound_id} in {name} at {at}"
        assert ours.method == "symbolic", case
        assert str(ours.regime) == str(theirs.regime), case
        if theirs.method != "symbolic":
            continue  # sympy gave up (its time limit): nothing exact to compare with
        compared += 1
        assert ours.behaviour == theirs.behaviour, case
        for mine, sympys in (
            (ours.power, theirs.power),
            (ours.log_power, theirs.log_power),
            (ours.loglog_power, theirs.loglog_power),
            (ours.limit, theirs.limit),
        ):
            if sympys is not None:
                assert _same_number(mine, sympys), (case, mine, sympys)
    assert compared >= 30  # the sample exercises the route on most of its cases
