"""Theory tests of the minimax bounds (:mod:`fedtheory.bounds.minimax`).

Each test checks a mathematical fact about a registered bound, not its existence: Lemma 7's
curvature constant against the logistic function (the printed (12) is refuted), the explicit
constants against the order statements they make explicit, the Assouad algebra behind the
explicit lower bound, the exponents the paper's rates claim, the FedProx optimization lemmas
against each other, the printed/corrected pairs, and the closed-form risks of the quadratic
model GM-Q against sympy limits, a sympy minimization and a Monte Carlo simulation.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import sympy as sp
from scipy.optimize import minimize_scalar
from scipy.special import expit

from fedtheory import bounds
from fedtheory.errors import ConditionError

THM4 = bounds.get("minimax.thm4")
THM4_EXPLICIT = bounds.get("minimax.thm4.explicit")
FA_AER = bounds.get("minimax.thm6.aer")
FA_AER_WEIGHTED = bounds.get("minimax.thm6.aer.weighted")
FA_AER_EXPLICIT = bounds.get("minimax.thm6.aer.explicit")
FA_IER = bounds.get("minimax.thm6.ier")
FA_IER_WEIGHTED = bounds.get("minimax.thm6.ier.weighted")
FA_IER_EXPLICIT = bounds.get("minimax.thm6.ier.explicit")
STABILITY = bounds.get("minimax.thm6.stability")
FED_STABILITY = bounds.get("minimax.thm6.federated-stability")
MU0 = bounds.get("minimax.lemma7.mu0")
MU0_CORRECTED = bounds.get("minimax.lemma7.mu0.corrected")
LOGISTIC_BETA = bounds.get("minimax.lemma7.beta")
LOSS_BOUND = bounds.get("minimax.lemma7.loss-bound")
LOSS_BOUND_CORRECTED = bounds.get("minimax.lemma7.loss-bound.corrected")
THM8_AER = bounds.get("minimax.thm8.aer")
THM8_EXPLICIT = bounds.get("minimax.thm8.explicit")
ASSOUAD = bounds.get("minimax.thm8.assouad")
COR9_AER = bounds.get("minimax.cor9.aer")
COR9_IER = bounds.get("minimax.cor9.ier")
THM8_IER = bounds.get("minimax.thm8.ier")
RATE_AER = bounds.get("minimax.minimax-rate.aer")
RATE_AER_ATTAINED = bounds.get("minimax.minimax-rate.aer.attained")
DICHOTOMY_AER = bounds.get("minimax.dichotomy.aer")
THRESHOLD = bounds.get("minimax.dichotomy.threshold")
FP_AER = bounds.get("minimax.thm11.aer")
FP_AER_BALANCED = bounds.get("minimax.thm11.aer.balanced")
FP_IER = bounds.get("minimax.thm12.ier")
LEMMA14 = bounds.get("minimax.lemma14")
LEMMA15 = bounds.get("minimax.lemma15")
LOCAL_STEPS = bounds.get("minimax.lemma15.local-steps")
PROP16 = bounds.get("minimax.prop16")
PROP16_PRINTED = bounds.get("minimax.prop16.printed")
FISHER = bounds.get("minimax.crossing.fisher")
GMQ_PLT = bounds.get("minimax.gmq.plt")
GMQ_FA = bounds.get("minimax.gmq.fedavg")
GMQ_FA_WEIGHTED = bounds.get("minimax.gmq.fedavg.weighted")
GMQ_FP = bounds.get("minimax.gmq.fedprox")
GMQ_FP_TUNED = bounds.get("minimax.gmq.fedprox.tuned")
GMQ_CROSSING = bounds.get("minimax.gmq.crossing")

A_GRID = [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0]


def s(bound: bounds.Bound, *names: str) -> list[sp.Symbol]:
    """The sympy symbols of ``bound`` by name."""
    return [bound.symbols[name] for name in names]


def sig_prime(t: np.ndarray | float) -> np.ndarray | float:
    """Second derivative of the logistic loss log(1 + e^{−t}): sig(t)(1 − sig(t))."""
    return expit(t) * expit(-t)


# ====================================================================== Lemma 7
@pytest.mark.parametrize("a", A_GRID)
def test_mu0_corrected_is_the_least_logistic_curvature(a: float) -> None:
    """(e^{a/2} + e^{−a/2})^{−2} is min_{|t|≤a} sig'(t): attained at |t| = a, never undercut."""
    value = MU0_CORRECTED.evaluate(a=a)
    grid = np.linspace(-a, a, 20001)
    assert grid[np.argmin(sig_prime(grid))] in (-a, a)
    assert np.min(sig_prime(grid)) == pytest.approx(value, rel=1e-12)
    interior = minimize_scalar(sig_prime, bounds=(-a, a), method="bounded")
    assert interior.fun >= value * (1 - 1e-9)


def test_mu0_corrected_symbolically() -> None:
    (a,) = s(MU0_CORRECTED, "a")
    t = sp.Symbol("t", real=True)
    sig = 1 / (1 + sp.exp(-t))
    curvature = sp.diff(sp.log(1 + sp.exp(-t)), t, 2)
    assert sp.simplify(curvature - sig * (1 - sig)) == 0
    # even and decreasing in |t|: the minimum over |t| ≤ a is at t = a
    assert sp.simplify(curvature - curvature.subs(t, -t)) == 0
    slope = sp.simplify(sp.diff(curvature, t))
    assert sp.simplify(slope - curvature * (1 - 2 * sig)) == 0  # < 0 for t > 0 since sig > 1/2
    expr = MU0_CORRECTED.expr
    assert sp.simplify((expr - curvature.subs(t, a)).rewrite(sp.exp)) == 0
    assert sp.simplify((expr - 1 / (4 * sp.cosh(a / 2) ** 2)).rewrite(sp.exp)) == 0


def test_printed_mu0_is_not_a_curvature_lower_bound() -> None:
    """(12) as printed exceeds 1/4 = max sig' at a = 0.5 and the true minimum at every a."""
    assert MU0.kind == "lower" and MU0.status == "printed"
    assert MU0.evaluate(a=0.5) == pytest.approx(0.2798, abs=1e-4)
    assert MU0_CORRECTED.evaluate(a=0.5) == pytest.approx(0.2350, abs=1e-4)
    assert MU0.evaluate(a=0.5) > 0.25 >= float(np.max(sig_prime(np.linspace(-5, 5, 1001))))
    for a in A_GRID:
        assert MU0.evaluate(a=a) > MU0_CORRECTED.evaluate(a=a) == pytest.approx(sig_prime(a))
    # a minimum over a growing interval cannot increase, but the printed form does near 0
    (a,) = s(MU0, "a")
    assert sp.diff(MU0.expr, a).subs(a, 0) == sp.Rational(1, 8)
    assert MU0.exponent("a", at=0).power == 1
    assert MU0_CORRECTED.exponent("a", at=0).power == 2  # 1/4 − a²/16 + …
    assert MU0_CORRECTED.exponent("a").behaviour == "exponential"  # ~ e^{−a}


def test_printed_loss_bound_misses_log_two() -> None:
    for a in A_GRID:
        grid = np.linspace(-a, a, 2001)
        supremum = float(np.max(np.log1p(np.exp(-grid))))
        assert LOSS_BOUND_CORRECTED.evaluate(a=a) == pytest.approx(supremum, rel=1e-12)
        assert LOSS_BOUND.evaluate(a=a) < supremum <= a + math.log(2)
    (a,) = s(LOSS_BOUND_CORRECTED, "a")
    assert sp.limit(LOSS_BOUND_CORRECTED.expr - LOSS_BOUND.expr, a, sp.oo) == 0
    assert sp.limit(LOSS_BOUND_CORRECTED.expr - LOSS_BOUND.expr, a, 0) == sp.log(2)


def test_logistic_smoothness_is_attained() -> None:
    """∇²ℓ = sig'(yxᵀw)xxᵀ has top eigenvalue sig'(yxᵀw)‖x‖² ≤ c_X²d/4, attained at w = 0."""
    rng = np.random.default_rng(7)
    c_x, d = 1.5, 6
    bound = LOGISTIC_BETA.evaluate(c_X=c_x, d=d)
    for _ in range(200):
        x = rng.uniform(-c_x, c_x, d)
        w = rng.normal(size=d)
        hessian = sig_prime(x @ w) * np.outer(x, x)
        assert np.linalg.eigvalsh(hessian)[-1] <= bound * (1 + 1e-12)
    corner = np.full(d, c_x)
    assert sig_prime(0.0) * corner @ corner == pytest.approx(bound, rel=1e-12)


# ====================================================================== Theorems 4 and 6
def test_thm4_hypothesis_is_enforced() -> None:
    point: dict[str, Any] = {"beta": 1.0, "mu": 0.5, "ell_inf": 1.0, "C": 1.0}
    with pytest.raises(ConditionError) as raised:
        THM4.evaluate(n_i=5, **point)  # 5 < 4β/μ = 8
    assert raised.value.hypothesis == "n_i ≥ 4*beta/mu"
    assert "n_i ≥ 4*beta/mu" in str(raised.value)
    assert raised.value.bound_id == "minimax.thm4"
    assert THM4.evaluate(n_i=5, check=False, **point) == pytest.approx(0.4)
    assert THM4.evaluate(n_i=8, **point) == pytest.approx(0.25)  # the boundary is allowed


def test_rates_of_local_training_and_fedavg() -> None:
    assert THM4.exponent("n_i").power == -1
    assert THM4_EXPLICIT.exponent("n_i").power == -1
    aer_in_n = FA_AER.exponent("N")
    assert aer_in_n.power == -1  # the rate at which E[AER] reaches its floor βR²
    assert aer_in_n.limit == sp.Rational(1, 100)  # C·βR² at the example (C = 1, β = 1, R = 0.1)
    assert FA_AER.exponent("R", at=0).power == 2
    assert FA_AER.exponent("R").power == 2
    assert FA_IER.exponent("N").power == -1
    assert FA_IER.exponent("R", at=0).power == 2
    assert FA_AER_WEIGHTED.exponent("B_q", at=0).power == 1


def test_explicit_constants_instantiate_the_order_bounds() -> None:
    (c,) = s(THM4, "C")
    assert sp.simplify(THM4_EXPLICIT.expr - THM4.expr.subs(c, 32)) == 0
    beta, ell, mu, b_q, r = s(FA_AER_EXPLICIT, "beta", "ell_inf", "mu", "B_q", "R")
    weighted = FA_AER_WEIGHTED.expr
    # 32(β‖ℓ‖∞/μ)B + 4βR² lies between the order bound at C = 4 and at C = 32
    assert sp.simplify(weighted.subs(c, 32) - FA_AER_EXPLICIT.expr - 28 * beta * r**2) == 0
    assert sp.simplify(FA_AER_EXPLICIT.expr - weighted.subs(c, 4) - 28 * beta * ell * b_q / mu) == 0
    sigma2 = FA_IER_EXPLICIT.symbols["sigma2"]
    ier = FA_IER_WEIGHTED.expr.subs(c, 8)
    assert sp.simplify(FA_IER_EXPLICIT.expr - ier - beta * r**2) == 0
    assert sigma2 in FA_IER_EXPLICIT.expr.free_symbols


def test_sample_weights_minimize_the_variance_factor() -> None:
    """Σp_i²/n_i ≥ 1/N with equality at p_i = n_i/N: the weighted (9), (10) reduce to (11)."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        sizes = rng.integers(5, 500, size=rng.integers(2, 20))
        total = sizes.sum()
        p = rng.dirichlet(np.ones(sizes.size))
        assert np.sum(p**2 / sizes) >= 1 / total * (1 - 1e-12)
        assert np.sum((sizes / total) ** 2 / sizes) == pytest.approx(1 / total, rel=1e-12)
    n_total, b_q = FA_AER.symbols["N"], FA_AER_WEIGHTED.symbols["B_q"]
    assert sp.simplify(FA_AER_WEIGHTED.expr.subs(b_q, 1 / n_total) - FA_AER.expr) == 0
    assert sp.simplify(FA_IER_WEIGHTED.expr.subs(b_q, 1 / n_total) - FA_IER.expr) == 0


def test_federated_stability_from_parameter_stability() -> None:
    """|Δℓ| ≤ √(2β‖ℓ‖∞)‖Δŵ‖ + (β/2)‖Δŵ‖² turns the parameter bound into γ_i ≤ 32β‖ℓ‖∞p/(μn)."""
    beta, ell, mu, p, n = s(STABILITY, "beta", "ell_inf", "mu", "p_i", "n_i")
    shift = STABILITY.expr
    loss_change = sp.sqrt(2 * beta * ell) * shift + beta / 2 * shift**2
    printed = 16 * beta * ell * p / (mu * n) * (1 + 4 * beta * p / (mu * n))
    assert sp.simplify(loss_change - printed) == 0
    # n ≥ 4βp/μ means u = 4βp/(μn) ≤ 1, and then the ratio (1 + u)/2 is at most 1
    assert sp.simplify(printed / FED_STABILITY.expr - (1 + 4 * beta * p / (mu * n)) / 2) == 0
    # with p_i = n_i/N every client has the same stability 8√(2β‖ℓ‖∞)/(μN)
    n_total = sp.Symbol("N", positive=True)
    same = shift.subs(p, n / n_total)
    assert sp.simplify(same - 8 * sp.sqrt(2 * beta * ell) / (mu * n_total)) == 0
    with pytest.raises(ConditionError, match="n_i ≥ 4\\*beta\\*p_i/mu"):
        STABILITY.evaluate(beta=1, mu=0.5, ell_inf=1, p_i=1, n_i=7)


# ============================================================ where FedAvg stops being optimal
def test_fedavg_meets_local_training_at_the_predicted_radius() -> None:
    crossings = FA_AER.crossover(THM4, "R", beta=1, mu=1, ell_inf=1, N=1000, n_i=100)
    assert len(crossings) == 1
    (crossing,) = crossings
    assert crossing.value is not None
    assert crossing.value == pytest.approx(math.sqrt(1 / 100 - 1 / 1000), rel=1e-12)
    assert crossing.lower_before == "minimax.thm6.aer"
    assert crossing.lower_after == "minimax.thm4"
    assert crossing.within_hypotheses
    # closed form: R² = (‖ℓ‖∞/μ)(1/n_i − 1/N), whatever the constant C
    ell, mu, n_i, n_total = [*s(THM4, "ell_inf", "mu", "n_i"), FA_AER.symbols["N"]]
    target = ell / mu * (1 / n_i - 1 / n_total)
    closed = [c.exact for c in FA_AER.crossover(THM4, "R") if c.exact is not None]
    assert len(closed) == 1  # of ±√, only the nonnegative root is a radius
    assert sp.simplify(closed[0] ** 2 - target) == 0
    assert not closed[0].could_extract_minus_sign()
    # balanced n_i = N/m: the crossing is the dichotomy's switch up to the factor 1 − 1/m
    m = THRESHOLD.symbols["m"]
    ratio = target.subs(n_i, n_total / m) / THRESHOLD.expr
    assert sp.simplify(ratio - (1 - 1 / m)) == 0


@pytest.mark.parametrize("m", [2, 10, 100])
def test_dichotomy_is_within_a_factor_two_of_the_better_algorithm(m: int) -> None:
    point: dict[str, Any] = {"beta": 2.0, "mu": 0.5, "ell_inf": 3.0, "C": 1.0}
    n_total = 1000.0 * m
    radii = np.geomspace(1e-4, 10, 200)
    fedavg = FA_AER.evaluate(N=n_total, R=radii, **point)
    local = THM4.evaluate(n_i=n_total / m, **point)
    dichotomy = DICHOTOMY_AER.evaluate(N=n_total, R=radii, m=m, **point)
    better = np.minimum(fedavg, local)
    assert np.all(better <= dichotomy * (1 + 1e-12))
    assert np.all(dichotomy <= 2 * better * (1 + 1e-12))
    threshold = THRESHOLD.evaluate(ell_inf=point["ell_inf"], mu=point["mu"], m=m, N=n_total)
    below = radii**2 <= threshold
    assert np.allclose(dichotomy[below], fedavg[below], rtol=1e-12)


def test_minimax_rate_forms() -> None:
    beta, mu, ell = sp.symbols("beta mu ell_inf", positive=True)
    assert (
        sp.simplify(DICHOTOMY_AER.expr.subs({beta: 1, mu: 1, ell: 1}) - RATE_AER_ATTAINED.expr) == 0
    )
    assert sp.simplify(COR9_AER.expr.subs({beta: 1, mu: 1}) - RATE_AER.expr) == 0
    # Corollary 9 is Theorem 8 times μ with d replaced by β ≍ d
    d = THM8_AER.symbols["d"]
    assert sp.simplify(COR9_AER.expr - mu * THM8_AER.expr.subs(d, beta)) == 0
    assert sp.simplify(COR9_IER.expr - mu * THM8_IER.expr.subs(d, beta)) == 0
    # the dichotomy: R² below the kink, flat above it, 1/N from the pooled data
    assert RATE_AER.exponent("R", at=0).power == 2
    assert RATE_AER.exponent("R").behaviour == "constant"
    assert RATE_AER.exponent("N").power == -1


# ====================================================================== Theorem 8: Assouad
def test_assouad_prior_choices_give_the_explicit_bound() -> None:
    d, delta, c_x, n = s(ASSOUAD, "d", "delta_i", "c_X", "n_i")
    m, n_total, r = s(THM8_EXPLICIT, "m", "N", "R")
    c = 1 / (2 * sp.sqrt(2) * c_x)
    # R² ≥ dm/N: δ = c/√n with n = N/m gives dm/(32c_X²N) exactly
    case1 = ASSOUAD.expr.subs(delta, c / sp.sqrt(n)).subs(n, n_total / m)
    assert sp.simplify(case1 - d * m / (32 * c_x**2 * n_total)) == 0
    # R² ≤ dm/N: δ = cR/√d gives (R²/(16c_X²))(1 − R√(n/d)/2) ≥ R²/(32c_X²)
    case2 = ASSOUAD.expr.subs(delta, c * r / sp.sqrt(d))
    form = r**2 / (16 * c_x**2) * (1 - r * sp.sqrt(n) / (2 * sp.sqrt(d)))
    assert sp.simplify(case2 - form) == 0
    assert sp.simplify(form.subs(r, sp.sqrt(d / n)) - d / (n * 32 * c_x**2)) == 0
    # the prior satisfies B(a) (dδ² ≤ R²) iff c ≤ 1 iff c_X ≥ 1/(2√2)
    assert sp.solve(sp.Eq(c, 1), c_x) == [sp.sqrt(2) / 4]
    with pytest.raises(ConditionError, match="c_X"):
        THM8_EXPLICIT.evaluate(d=4, m=4, N=400, R=0.1, c_X=0.3)


def test_explicit_lower_bound_is_a_feasible_bayes_risk() -> None:
    """At random points the prior of the proof is feasible (dδ² ≤ R²) and its Bayes-risk bound
    is at least min(dm/N, R²)/(32c_X²)."""
    rng = np.random.default_rng(11)
    for _ in range(300):
        d, m = int(rng.integers(1, 50)), int(rng.integers(2, 50))
        n = int(rng.integers(1, 2000))
        n_total = m * n
        c_x = float(rng.uniform(1 / (2 * math.sqrt(2)), 5))
        r = float(np.exp(rng.uniform(np.log(1e-3), np.log(10))))
        c = 1 / (2 * math.sqrt(2) * c_x)
        delta = c / math.sqrt(n) if r**2 >= d * m / n_total else c * r / math.sqrt(d)
        assert d * delta**2 <= r**2 * (1 + 1e-12)
        risk = ASSOUAD.evaluate(d=d, delta_i=delta, c_X=c_x, n_i=n)
        explicit = THM8_EXPLICIT.evaluate(d=d, m=m, N=n_total, R=r, c_X=c_x)
        assert risk >= explicit * (1 - 1e-12)
    # the best δ gives d/(27c_X²n): the explicit constant 1/32 leaves little on the table
    deltas = np.geomspace(1e-4, 1, 200001)
    best = float(np.max(ASSOUAD.evaluate(d=8, delta_i=deltas, c_X=1, n_i=100)))
    assert best == pytest.approx(8 / (27 * 100), rel=1e-8)


# ====================================================================== FedProx
def test_thm11_general_form_reduces_to_the_balanced_form() -> None:
    a_p, b_q, c_p = s(FP_AER, "A", "B_q", "C_p")
    m, n_total = s(FP_AER_BALANCED, "m", "N")
    reduced = FP_AER.expr.subs({a_p: m / n_total, b_q: 1 / n_total, c_p: 1})
    assert sp.simplify(reduced - FP_AER_BALANCED.expr) == 0
    with pytest.raises(ConditionError, match="C_p ≥ 1"):  # (25) forces C_p ≥ 1
        FP_AER.evaluate(**{**FP_AER.example, "C_p": 0.5, "C": 1})


def test_fedprox_bounds_are_linear_in_r_in_the_middle_regime() -> None:
    """(30) and (29) grow like R near 0 where the minimax rate grows like R² (guide §6.4)."""
    assert FP_AER_BALANCED.exponent("R", at=0).power == 1
    assert FP_IER.exponent("R", at=0).power == 1
    assert RATE_AER.exponent("R", at=0).power == 2
    # at R² = 1/N, inside 1/(mN) < R² < m/N, (30)'s bracket is (√m + 1)/N, not of order m/N
    for m in (4, 100, 10_000):
        n_total = 1e6
        value = FP_AER_BALANCED.evaluate(
            mu=1, beta=1, ell_inf=1, m=m, N=n_total, R=1 / math.sqrt(n_total), C=1
        )
        assert value == pytest.approx(2 * (math.sqrt(m) + 1) / n_total, rel=1e-12)


def test_fedprox_bound_across_the_middle_regime() -> None:
    """The sentence after (30): "if 1/mN ≲ R² ≲ m/N, then (30) becomes O(m/N), whereas the lower
    bound reads Ω(R² + 1/N), and thus (30) is suboptimal unless R² ≍ m/N". Literally true: (30)
    is at most (μ + β‖ℓ‖∞/μ)(m/N + 1/N) there. Its actual size is Θ(R√(m/N)), linear in R (the
    former claims minimax/thm11/middle-regime-printed/-corrected: algebra on the registered
    bound, moved here), so it is suboptimal against R² + 1/N in either reading."""
    m, n_total = 1000, 1e8
    radii = np.geomspace(10 / math.sqrt(m * n_total), 0.3 * math.sqrt(m / n_total), 12)
    point = {"mu": 1, "beta": 1, "ell_inf": 1, "m": m, "N": n_total, "C": 1}
    bound = FP_AER_BALANCED.evaluate(R=radii, **point)
    assert np.all(bound <= 2 * (m / n_total + 1 / n_total) * (1 + 1e-12))  # O(m/N), literally
    slope = np.polyfit(np.log(radii), np.log(bound), 1)[0]
    assert 0.9 <= slope <= 1.1  # Θ(R√(m/N)): 0.976 here, not the flat m/N
    np.testing.assert_allclose(bound, 2 * (radii * math.sqrt(m / n_total) + 1 / n_total))
    lower = RATE_AER.evaluate(R=radii, m=m, N=n_total, C=1)
    assert np.all(bound / lower > 3)  # suboptimal inside the regime …
    at_kink = {**point, "R": math.sqrt(m / n_total)}
    assert FP_AER_BALANCED.evaluate(**at_kink) / RATE_AER.evaluate(
        R=at_kink["R"], m=m, N=n_total, C=1
    ) == pytest.approx(2, rel=1e-12)  # … and optimal at its edge R² = m/N


def test_lemma15_gradient_bound_is_a_three_way_minimum() -> None:
    beta, d_w, lam, ell = s(LEMMA15, "beta", "D", "lam", "ell_inf")
    (minimum,) = LEMMA15.expr.atoms(sp.Min)
    assert set(minimum.args) == {beta**2 * d_w**2, 2 * lam * ell, lam**2 * d_w**2}
    point: dict[str, Any] = {
        "beta": 2.0,
        "D": 1.0,
        "ell_inf": 0.1,
        "mu": 0.5,
        "m": 10,
        "p_norm2": 0.2,
        "T": 9,
    }

    def with_g(lam_value: float, g: float) -> float:
        return 12 * (lam_value + 0.5) ** 2 * 10 * 0.2 * g / (lam_value**2 * 0.25 * 10)

    for lam_value, branch in ((0.1, 0.1**2), (1.0, 2 * 1.0 * 0.1), (50.0, 2.0**2)):
        value = LEMMA15.evaluate(lam=lam_value, **point)
        assert value == pytest.approx(with_g(lam_value, branch), rel=1e-12)
    assert LEMMA15.exponent("T").power == -1
    assert LEMMA15.exponent("lam").power == -1  # to the floor 12m‖p‖²β²D²/(μ²(T + 1))
    assert LEMMA14.exponent("k").power == -1


def test_local_steps_requirement_grows_linearly() -> None:
    """(38) asks for K_τ ≥ 4τ + 19 at least (G_λ ≤ λ²D², β ≥ μ), with equality when β = μ and
    G_λ = λ²D²; the total local work over T rounds is therefore Θ(T²)."""
    taus = np.arange(0, 50)
    tight = LOCAL_STEPS.evaluate(tau=taus, beta=1, mu=1, lam=0.01, D=1, ell_inf=1)
    assert np.allclose(tight, 4 * taus + 19, rtol=1e-12)
    rng = np.random.default_rng(5)
    for _ in range(200):
        mu = float(rng.uniform(0.01, 2))
        point: dict[str, Any] = {
            "beta": mu * float(rng.uniform(1, 20)),
            "mu": mu,
            "lam": float(np.exp(rng.normal(0, 2))),
            "D": float(rng.uniform(0.1, 10)),
            "ell_inf": float(rng.uniform(0.01, 10)),
        }
        assert np.all(LOCAL_STEPS.evaluate(tau=taus, **point) >= (4 * taus + 19) * (1 - 1e-12))
    assert LOCAL_STEPS.exponent("tau").power == 1


def test_prop16_combines_lemmas_14_and_15() -> None:
    beta, lam, k_t = s(PROP16, "beta", "lam", "K_T")
    k = LEMMA14.symbols["k"]
    combined = (beta + lam) / 2 * LEMMA14.expr.subs(k, k_t) + lam / 2 * LEMMA15.expr
    assert sp.simplify(combined - PROP16.expr) == 0
    assert PROP16.exponent("T").power == -1
    assert PROP16.exponent("K_T").power == -1


def test_printed_prop16_depends_on_an_undefined_loop_index() -> None:
    (t,) = s(PROP16_PRINTED, "t")
    (big_t,) = s(PROP16, "T")
    assert "T" not in PROP16_PRINTED.parameters  # no dependence on the number of rounds at all
    assert "t" not in PROP16.parameters
    assert sp.simplify(PROP16_PRINTED.expr.subs(t, big_t) - PROP16.expr) == 0
    point = {k: v for k, v in PROP16.example.items() if k != "T"}
    corrected = PROP16.evaluate(T=20, **point)
    printed = PROP16_PRINTED.evaluate(t=np.arange(1, 200), **point)
    assert np.all(printed[19:] <= corrected * (1 + 1e-12))  # t ≥ T: smaller than the bound
    assert np.all(printed[:19] > corrected)
    beta, lam, k_t = s(PROP16, "beta", "lam", "K_T")
    inner = (beta + lam) / 2 * LEMMA14.expr.subs(LEMMA14.symbols["k"], k_t)
    assert sp.simplify(sp.limit(PROP16_PRINTED.expr, t, sp.oo) - inner) == 0  # t → ∞: no outer loop


# ====================================================================== GM-Q closed forms
def test_gmq_fedprox_interpolates_local_training_and_fedavg() -> None:
    lam, m, n = s(GMQ_FP, "lam", "m", "n")
    n_total = GMQ_FA.symbols["N"]
    assert sp.simplify(sp.limit(GMQ_FP.expr, lam, 0) - GMQ_PLT.expr) == 0
    fedavg = GMQ_FA.expr.subs(n_total, m * n)
    assert sp.simplify(sp.limit(GMQ_FP.expr, lam, sp.oo) - fedavg) == 0


def test_gmq_tuned_fedprox_is_the_minimum_over_lambda() -> None:
    lam, d, s2, n, m, r = s(GMQ_FP, "lam", "d", "s2", "n", "m", "R")
    theta = sp.Symbol("theta", positive=True)
    in_theta = sp.simplify(GMQ_FP.expr.subs(lam, theta / (1 - theta)))
    (best,) = sp.solve(sp.diff(in_theta, theta), theta)
    curvature = d * s2 / n * (1 - 1 / m) + r**2  # convex in θ
    assert sp.simplify(sp.diff(in_theta, theta, 2) - curvature) == 0
    assert sp.simplify(in_theta.subs(theta, best) - GMQ_FP_TUNED.expr) == 0
    v_total = d * s2 / n * (1 - 1 / m)
    assert sp.simplify(best / (1 - best) - v_total / r**2) == 0  # λ* = V/R²
    # within a factor 2 of the better endpoint (and never worse than it)
    rng = np.random.default_rng(1)
    for _ in range(200):
        point: dict[str, Any] = {
            "d": int(rng.integers(1, 50)),
            "s2": float(rng.uniform(0.1, 5)),
            "n": int(rng.integers(1, 500)),
            "m": int(rng.integers(2, 50)),
        }
        radius = float(np.exp(rng.uniform(-6, 2)))
        tuned = GMQ_FP_TUNED.evaluate(R=radius, **point)
        local = GMQ_PLT.evaluate(d=point["d"], s2=point["s2"], n=point["n"])
        fedavg = GMQ_FA.evaluate(d=point["d"], s2=point["s2"], N=point["m"] * point["n"], R=radius)
        better = min(local, fedavg)
        assert better / 2 * (1 - 1e-12) <= tuned <= better * (1 + 1e-12)


def test_gmq_crossing_solves_local_equals_fedavg() -> None:
    r2 = sp.Symbol("r2", positive=True)
    r = GMQ_FA.symbols["R"]
    (solution,) = sp.solve(sp.Eq(GMQ_PLT.expr, GMQ_FA.expr.subs(r, sp.sqrt(r2))), r2)
    assert sp.simplify(solution - GMQ_CROSSING.expr) == 0
    point: dict[str, Any] = {"d": 10, "s2": 2.0, "n": 100, "N": 1000}
    (crossing,) = GMQ_PLT.crossover(GMQ_FA, "R", **point)
    assert crossing.value is not None
    assert crossing.value**2 == pytest.approx(GMQ_CROSSING.evaluate(**point), rel=1e-12)
    assert crossing.lower_before == "minimax.gmq.fedavg"
    # the Fisher location is the same formula with ds² → d and κ_u = 1
    d, m, kappa, n = s(FISHER, "d", "m", "kappa_u", "n")
    s2, n_total = GMQ_CROSSING.symbols["s2"], GMQ_CROSSING.symbols["N"]
    exact = GMQ_CROSSING.expr.subs(n_total, m * n)
    assert sp.simplify(FISHER.expr.subs({kappa: 1, d: d * s2}) - exact) == 0


def test_gmq_weighted_fedavg_reduces_to_the_balanced_form() -> None:
    b_q, r2_p = s(GMQ_FA_WEIGHTED, "B_q", "R2_p")
    n_total, r = GMQ_FA.symbols["N"], GMQ_FA.symbols["R"]
    assert sp.simplify(GMQ_FA_WEIGHTED.expr.subs({b_q: 1 / n_total, r2_p: r**2}) - GMQ_FA.expr) == 0


def test_gmq_closed_forms_match_monte_carlo() -> None:
    """Simulate GM-Q (client means x̄_i = w⋆^(i) + N(0, s²/n)) and compare the mean excess risks
    of local training, FedAvg, FedProx and imbalanced weighted FedAvg with their formulas."""
    rng = np.random.default_rng(2024)
    d, m, n, s2, radius, lam, reps = 3, 4, 5, 1.5, 0.8, 0.7, 40_000
    g = rng.normal(size=(m // 2, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    optima = radius * np.concatenate([g, -g])  # paired antipodal: mean 0, ‖w⋆^(i)‖ = R
    means = optima + rng.normal(scale=math.sqrt(s2 / n), size=(reps, m, d))
    pooled = means.mean(axis=1, keepdims=True)
    theta = lam / (1 + lam)
    estimates = {
        "plt": means,
        "fedavg": np.broadcast_to(pooled, means.shape),
        "fedprox": (1 - theta) * means + theta * pooled,
    }
    formulas = {
        "plt": GMQ_PLT.evaluate(d=d, s2=s2, n=n),
        "fedavg": GMQ_FA.evaluate(d=d, s2=s2, N=m * n, R=radius),
        "fedprox": GMQ_FP.evaluate(d=d, s2=s2, n=n, m=m, R=radius, lam=lam),
    }
    for name, estimate in estimates.items():
        risk = 0.5 * np.sum((estimate - optima) ** 2, axis=2).mean(axis=1)
        error = risk.std(ddof=1) / math.sqrt(reps)
        assert abs(risk.mean() - formulas[name]) <= 5 * error, name
    sizes = np.array([3, 8, 20, 50])
    p = np.array([0.1, 0.2, 0.3, 0.4])
    noisy = optima + rng.normal(size=(reps, m, d)) * np.sqrt(s2 / sizes)[None, :, None]
    weighted = np.einsum("i,rid->rd", p, noisy)[:, None, :]
    centre = p @ optima
    risk = 0.5 * (np.sum((weighted - optima) ** 2, axis=2) @ p)
    formula = GMQ_FA_WEIGHTED.evaluate(
        d=d,
        s2=s2,
        B_q=float(np.sum(p**2 / sizes)),
        R2_p=float(p @ np.sum((optima - centre) ** 2, axis=1)),
    )
    assert abs(risk.mean() - formula) <= 5 * risk.std(ddof=1) / math.sqrt(reps)


def test_explicit_fedavg_bounds_hold_on_gmq() -> None:
    """On GM-Q (β = μ = 1, σ² = ds²) the exact FedAvg risk is below the explicit bound (10)."""
    for d, s2, n, m, radius in [(3, 1.0, 10, 4, 0.0), (10, 2.0, 50, 8, 0.3), (5, 0.5, 5, 2, 3.0)]:
        exact = GMQ_FA.evaluate(d=d, s2=s2, N=m * n, R=radius)
        bound = FA_IER_EXPLICIT.evaluate(beta=1, mu=1, sigma2=d * s2, B_q=1 / (m * n), R=radius)
        assert exact <= bound
