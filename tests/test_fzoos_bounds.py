"""The fzoos bounds: the exact facts of the guide's checks 2, 7, 22, 24, 26, 27 evaluated on the
registered expressions, Lemma C.4's value at the paper's scale, Theorem C.1 against a plain loop
over a log, and Lemma C.11 pathwise (with a mutant it must catch)."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds.fzoos import (
    EQ69_PRINTED,
    dimension_audit,
    lemma_c11_rhs,
    term_units,
    theorem_c1_sequences,
)
from fedtheory.errors import ConditionError, ParameterError


def _symbols(bound_id: str) -> dict[str, sp.Basic]:
    return {name: info.symbol for name, info in bounds.get(bound_id).info.items()}


# ---------------------------------------------------------------------------- Prop. 1, check 1
def test_prop1_gamma_star_minimises_the_registered_quadratic() -> None:
    xi = bounds.get("fzoos.prop1.disparity").expr
    s = _symbols("fzoos.prop1.disparity")
    star = bounds.get("fzoos.prop1.gamma-star").expr
    assert sp.simplify(sp.diff(xi, s["gamma"]).subs(s["gamma"], star)) == 0
    assert sp.simplify(xi.subs(s["gamma"], star) - bounds.get("fzoos.prop1.min").expr) == 0
    printed = bounds.get("fzoos.prop1.gamma-star.eq10").expr  # the (10) typo ‖c‖
    assert sp.simplify(sp.diff(xi, s["gamma"]).subs(s["gamma"], printed)) != 0


# ---------------------------------------------------------------------------- Cor. 1, check 2
def test_corollary1_is_the_minimiser_and_minimum_of_theorem1() -> None:
    thm1 = bounds.get("fzoos.thm1").expr
    gamma = _symbols("fzoos.thm1")["gamma"]
    (argmin,) = sp.solve(sp.diff(thm1, gamma), gamma)
    assert sp.simplify(argmin - bounds.get("fzoos.cor1.gamma").expr) == 0
    assert sp.simplify(thm1.subs(gamma, argmin) - bounds.get("fzoos.cor1.value").expr) == 0
    # (37)/(38b) as printed drop κ: equal only at κ = 1
    kappa = _symbols("fzoos.thm1")["kappa"]
    assert sp.simplify(argmin - bounds.get("fzoos.cor1.gamma.eq37").expr) != 0
    assert sp.simplify((argmin - bounds.get("fzoos.cor1.gamma.eq37").expr).subs(kappa, 1)) == 0


def test_corollary1_chain_38b_38c_38d_on_random_points() -> None:
    rng = np.random.default_rng(3)
    point = {
        "omega": rng.uniform(1, 400, 200),
        "kappa": rng.uniform(0.1, 3, 200),
        "rho": rng.uniform(0.3, 1, 200),
        "r": 2,
        "T": 5,
        "t": 3,
        "N": 5,
        "eps": rng.uniform(0, 1, 200),
        "G": rng.uniform(0.01, 10, 200),
    }
    b, c, d = (
        bounds.get(f"fzoos.cor1.value{suffix}").evaluate(**point)
        for suffix in ("", ".sqrt", ".split")
    )
    assert np.all(b <= c * (1 + 1e-12)) and np.all(c <= d * (1 + 1e-12))


# ---------------------------------------------------------------------------- check 7
def test_constants_of_lemma_c11_and_h_convex() -> None:
    h = bounds.get("fzoos.thmc1.h-convex")
    assert h.expr.subs(_symbols("fzoos.thmc1.h-convex")["x"], sp.Rational(1, 10)) == sp.Rational(
        68, 125
    )
    s_bound = bounds.get("fzoos.lemmac11.s")
    big_t = _symbols("fzoos.lemmac11.s")["T"]
    assert s_bound.expr.subs(big_t, 2) == sp.Rational(9, 2)
    steps = np.arange(2, 10_001)
    s = s_bound.evaluate(T=steps)
    assert np.all(np.diff(s) < 0)
    ratio = np.expm1(steps * np.log(s)) / (s - 1) / steps  # Σ_{τ<T}S^τ / T
    eleven = bounds.get("fzoos.lemmac11.geometric").evaluate(T=steps) / steps
    assert np.all(ratio < eleven)
    assert ratio.max() == pytest.approx(6.36, abs=0.01)
    assert ratio[-1] == pytest.approx((math.e**3 - 1) / 3, rel=1e-2)


# ---------------------------------------------------------------------------- check 22
def test_nonconvex_h_erratum() -> None:
    h = bounds.get("fzoos.thmc1.h-nonconvex").expr
    x = _symbols("fzoos.thmc1.h-nonconvex")["x"]
    at_007 = h.subs(x, sp.Rational(7, 100))
    assert at_007 == sp.Rational(74908, 1_000_000)  # 0.0749 < 0.08: "H > 0.08ηT" is false
    assert at_007 < sp.Rational(8, 100)
    root = sp.nsolve(h - sp.Rational(8, 100), x, 0.07)
    assert float(root) == pytest.approx(0.06963, abs=5e-6)
    thirteen = sp.nsolve(h - sp.Rational(1, 13), x, 0.07)  # where 13 ≥ ηT/H stops
    assert float(thirteen) == pytest.approx(0.069852, abs=1e-6)
    # the corrected Thm C.1(iii) constant: 1/H = 13.35 > 13 at ηβT = 0.07, ≤ 13 at 0.069
    printed = bounds.get("fzoos.thmc1.nonconvex")
    corrected = bounds.get("fzoos.thmc1.nonconvex.corrected")
    point = {**printed.example, "eta": 0.035}  # β = 1, T = 2: ηβT = 0.07
    assert corrected.evaluate(**point) / printed.evaluate(**point) == pytest.approx(
        1 / float(at_007) / 13, rel=1e-12
    )
    point["eta"] = 0.0345
    assert corrected.evaluate(**point) < printed.evaluate(**point)


# ---------------------------------------------------------------------------- check 24
def test_jensen_counterexample_theorem1_printed_is_not_implied() -> None:
    """ρ_i = (0.5, 0.99), n = (r − 1)T + t − 1 = 20: the proof's (36b) exceeds the printed
    bound (ρ = mean) — so the printed Theorem 1 does not follow — while ρ_max covers it."""
    common = {
        "omega": 1.0,
        "kappa": 1.0,
        "r": 1,
        "T": 21,
        "t": 21,
        "gamma": 0.0,
        "eps": 0.0,
        "G": 0.0,
    }
    per_client = bounds.get("fzoos.thm1.per-client").evaluate(**common, N=2, rho_i=[0.5, 0.99])
    printed = bounds.get("fzoos.thm1").evaluate(**common, N=2, rho=0.745)
    fixed = bounds.get("fzoos.thm1.rho-max").evaluate(**common, N=2, rho_max=0.99)
    assert per_client / 4 == pytest.approx(0.409, abs=1e-3)
    assert printed / 4 == pytest.approx(0.0028, abs=1e-4)
    assert printed < per_client <= fixed
    # symbolically, at exact rationals
    s = _symbols("fzoos.thm1")
    subs = {s[k]: sp.nsimplify(v) for k, v in common.items()} | {s["N"]: 2}
    mean_bound = bounds.get("fzoos.thm1").expr.subs(subs | {s["rho"]: sp.Rational(149, 200)})
    per = sp.Rational(4) * (sp.Rational(1, 2) ** 20 + sp.Rational(99, 100) ** 20) / 2
    assert sp.simplify(per - mean_bound) > 0


# ---------------------------------------------------------------------------- check 26
def test_theorem2_rounds_scale_with_one_over_alpha_eta_t() -> None:
    printed = bounds.get("fzoos.thm2.rounds.strongly-convex")
    corrected = bounds.get("fzoos.thm2.rounds.strongly-convex.corrected")
    assert "alpha" not in printed.parameters
    assert corrected.exponent("alpha", at=0).power == -1
    s = _symbols("fzoos.thm2.rounds.strongly-convex.corrected")
    terms = sp.Add.make_args(sp.expand(corrected.expr / s["C"]))
    (g_term,) = [term for term in terms if term.has(s["G"])]
    (printed_g,) = [
        term for term in sp.Add.make_args(sp.expand(printed.expr / s["C"])) if term.has(s["G"])
    ]
    factor = sp.limit(g_term / printed_g * s["alpha"], s["alpha"], 0)
    assert sp.simplify(factor - 4 / (s["eta"] * s["T"])) == 0
    values = [corrected.evaluate(**{**corrected.example, "alpha": a, "C": 1}) for a in (0.1, 0.01)]
    assert values[1] / values[0] > 5


# ---------------------------------------------------------------------------- check 27
def test_round_condition_sign_of_69() -> None:
    alpha, eta, big_t = (sp.Symbol(n, positive=True) for n in ("alpha", "eta", "T"))
    assert EQ69_PRINTED.subs({}).is_negative  # vacuous for every α, η, T > 0
    corrected = bounds.get("fzoos.thmc1.rounds")
    exact = bounds.get("fzoos.thmc1.rounds.exact")
    grid = {"alpha": np.array([0.01, 0.1, 1.0]), "eta": np.array([[0.01], [0.05]]), "T": 2}
    need = np.ceil(corrected.evaluate(**grid))
    c = 1 - grid["alpha"] * grid["eta"] * 2 / 4
    assert np.all(c**need <= 0.75)  # what (70) needs
    assert np.all(exact.evaluate(**grid) <= corrected.evaluate(**grid))
    del alpha, eta, big_t


def test_printed_strongly_convex_fails_below_the_round_condition_with_exact_gradients() -> None:
    """Two-dimensional quadratic, α = 0.01 ≪ β = 1, exact gradients (Ξ = 0), one round: the
    printed Theorem C.1(i) (no round condition) is violated; the corrected form refuses."""
    alpha, beta, big_t = 0.01, 1.0, 5
    eta = 1 / (10 * beta * big_t)
    hessian = np.diag([alpha, beta])
    x = np.array([0.0, 1.0])
    gaps = [0.5 * x @ hessian @ x]
    for _ in range(1):
        for _ in range(big_t):
            x = x - eta * hessian @ x
        gaps.append(0.5 * x @ hessian @ x)
    point = {
        "alpha": alpha,
        "beta": beta,
        "eta": eta,
        "T": big_t,
        "N": 1,
        "R": 1,
        "D0": 1.0,
        "Xi": np.zeros(2 * big_t),
    }
    assert min(gaps) > bounds.get("fzoos.thmc1.strongly-convex").evaluate(**point)
    with pytest.raises(ConditionError):
        bounds.get("fzoos.thmc1.strongly-convex.corrected").evaluate(**point)


# ---------------------------------------------------------------------------- Lemma C.4
def test_lemma_c4_is_vacuous_at_the_paper_scale() -> None:
    b = bounds.get("fzoos.lemmac4")
    value = b.evaluate(r=50, T=10, V=300, sigma2=0.01, M=10_000, delta=0.1, L=math.exp(-0.5))
    assert value == pytest.approx(2.8e8, rel=0.02)
    assert b.exponent("M").power == sp.Rational(-1, 2)


def test_prop_c1_subtracted_term_is_at_most_omega_kappa_over_e_d() -> None:
    iota, length = sp.symbols("iota l", positive=True)
    h_se = iota * sp.exp(-iota / length**2) / (4 * length**4)  # unit prior variance
    peak = sp.maximum(h_se, iota, sp.Interval(0, sp.oo))
    s = _symbols("fzoos.propc1")
    full = bounds.get("fzoos.propc1").expr
    subtracted = (s["omega"] * s["kappa"] - full).subs(
        {s["h"]: peak, s["k0"]: 1, s["sigma2"]: 0, s["kappa"]: 1 / length**2}
    )
    scale = bounds.get("fzoos.propc1.subtracted").expr.subs(
        _symbols("fzoos.propc1.subtracted")["kappa"], 1 / length**2
    )
    assert sp.simplify(subtracted - scale) == 0  # attained at ι = l², σ² → 0


# ---------------------------------------------------------------------------- Theorem C.1
def _loop_reference(case: str, log: np.ndarray, p: dict[str, float]) -> float:
    """The printed formulas of Theorem C.1, summed with plain loops over (r, i, t, τ)."""
    rounds, clients, steps = log.shape
    big_r, big_t, n = rounds - 1, steps, clients
    s = (big_t + 1) ** 2 / (big_t * (big_t - 1))
    eta = p["eta"]

    def inner(r: int) -> tuple[float, float, float]:
        plain = discounted = roots = 0.0
        for i in range(clients):
            for t in range(1, steps + 1):
                plain += log[r, i, t - 1]
                roots += math.sqrt(log[r, i, t - 1])
                for tau in range(1, t + 1):
                    discounted += s ** (t - tau) * log[r, i, tau - 1]
        return plain, discounted, roots

    if case.startswith("sc"):
        a = p["alpha"]
        c = 1 - a * eta * big_t / 4
        weights = [c ** (big_r - r) for r in range(rounds)]
        coefficient = 8 * (eta * big_t + 1 / a) / (n * big_t)
        if case == "sc-printed":
            coefficient /= a
        total = 2 * a * math.exp(-a * eta * big_t * big_r / 4) * p["D0"]
        for r in range(rounds):
            plain, discounted, _ = inner(r)
            total += (
                weights[r] / sum(weights) * (eta / (n * big_t) * discounted + coefficient * plain)
            )
        return total
    if case.startswith("cvx"):
        radius = math.sqrt(p["d"]) if case == "cvx" else p["diam"]
        total = 2 * p["D0"] / (eta * big_r * big_t)
        for r in range(rounds):
            plain, discounted, roots = inner(r)
            total += (
                eta / (n * big_t) * discounted
                + 8 * eta / n * plain
                + 4 * radius / (n * big_t) * roots
            ) / big_r
        return total
    x = eta * p["beta"] * big_t
    factor = 13 if case == "ncvx" else 1 / (1 - 13 * x - 44 * x**3)
    total = factor * p["D1"] / (eta * big_r * big_t)
    for r in range(rounds):
        plain, discounted, _ = inner(r)
        total += (
            factor
            / (eta * big_r * big_t)
            * (
                (0.14 * eta + 1 / (2 * p["beta"] * big_t)) / n * plain
                + 1.02 * eta**2 * p["beta"] / n * discounted
            )
        )
    return total


_CASES = {
    "sc-printed": ("fzoos.thmc1.strongly-convex", {"alpha": 0.5, "beta": 1.0, "eta": 0.01}),
    "sc": ("fzoos.thmc1.strongly-convex.corrected", {"alpha": 1.0, "beta": 1.0, "eta": 0.01}),
    "cvx": ("fzoos.thmc1.convex", {"beta": 1.0, "eta": 0.01, "d": 50}),
    "cvx-diam": ("fzoos.thmc1.convex.diameter", {"beta": 1.0, "eta": 0.01, "diam": 2.5}),
    "ncvx": ("fzoos.thmc1.nonconvex", {"beta": 1.0, "eta": 0.006}),
    "ncvx-corrected": ("fzoos.thmc1.nonconvex.corrected", {"beta": 1.0, "eta": 0.0069}),
}


@pytest.mark.parametrize("case", list(_CASES))
def test_theorem_c1_equals_a_plain_loop_over_the_log_and_is_fast(case: str) -> None:
    bound_id, params = _CASES[case]
    log = np.random.default_rng(7).exponential(0.3, size=(51, 5, 10))
    point = {**params, "D0": 1.3, "D1": 0.7}
    values = {**point, "T": 10, "N": 5, "R": 50, **theorem_c1_sequences(log)}
    bound = bounds.get(bound_id)
    values = {k: v for k, v in values.items() if k in bound.parameters}
    bound.evaluate(**values)  # compiles
    start = time.perf_counter()
    got = bound.evaluate(**values)
    assert time.perf_counter() - start < 0.05
    assert got == pytest.approx(_loop_reference(case, log, point), rel=1e-11)


def test_theorem_c1_sequences_refuses_bad_logs() -> None:
    for bad in (
        np.zeros((3, 2)),
        np.zeros((3, 2, 1)),
        -np.ones((2, 2, 3)),
        np.full((2, 2, 3), np.nan),
    ):
        with pytest.raises(ParameterError):
            theorem_c1_sequences(bad)


# ---------------------------------------------------------------------------- Lemma C.11
def _drift_run(scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, int, float]:
    """Local GD on a quadratic with the directions (1 + scale)∇F (Ξ = scale²‖∇F‖²)."""
    rng = np.random.default_rng(11)
    hessian = np.diag(rng.uniform(0.2, 1.0, 4))
    beta, big_t, rounds, clients = 1.0, 5, 6, 3
    eta = 0.01 / (beta * big_t)
    x_server = rng.normal(size=4)
    xi = np.empty((rounds, clients, big_t))
    drift = np.empty_like(xi)
    grads = np.empty(rounds)
    for r in range(rounds):
        grads[r] = float(np.sum((hessian @ x_server) ** 2))
        ends = []
        for i in range(clients):
            x = x_server.copy()
            for t in range(big_t):
                g = hessian @ x
                direction = (1 + scale * (i + 1) / clients) * g
                xi[r, i, t] = float(np.sum((direction - g) ** 2))
                x = x - eta * direction
                drift[r, i, t] = float(np.sum((x - x_server) ** 2))
            ends.append(x)
        x_server = np.mean(ends, axis=0)
    return xi, drift, grads, eta, big_t, beta


def test_lemma_c11_helper_equals_the_registered_bound() -> None:
    xi, _, grads, eta, big_t, beta = _drift_run(0.3)
    rhs = lemma_c11_rhs(xi, grads, eta, big_t)
    bound = bounds.get("fzoos.lemmac11")
    for r, i, t in ((0, 0, 1), (2, 1, 3), (5, 2, 5)):
        value = bound.evaluate(eta=eta, T=big_t, t=t, beta=beta, xi=xi[r, i], gradF2=grads[r])
        assert rhs[r, i, t - 1] == pytest.approx(value, rel=1e-12)


def test_lemma_c11_holds_pathwise_and_a_mutant_22_to_1_is_caught() -> None:
    xi, drift, grads, eta, big_t, _ = _drift_run(0.1)
    bound = bounds.get("fzoos.lemmac11")
    rhs = lemma_c11_rhs(xi, grads, eta, big_t)
    assert np.all(drift <= rhs * (1 + 1e-12))
    s = _symbols("fzoos.lemmac11")
    mutant = bound.expr.xreplace({sp.Integer(22): sp.Integer(1)})
    assert mutant != bound.expr
    violated = 0
    for r, i, t in np.ndindex(*xi.shape):
        subs = {s["eta"]: eta, s["T"]: big_t, s["t"]: t + 1, s["gradF2"]: grads[r]}
        value = mutant.subs(subs).doit()
        value = value.xreplace(
            {item: xi[r, i, int(item.indices[0])] for item in value.atoms(sp.Indexed)}
        )
        violated += drift[r, i, t] > float(value)
    assert violated > 0


# ---------------------------------------------------------------------------- dimensions
def test_dimension_audit_flags_the_printed_errata_only() -> None:
    flagged = {(bound_id, item.index) for bound_id, item in dimension_audit()}
    assert flagged == {
        ("fzoos.thmc1.strongly-convex", 3),
        ("fzoos.thmc1.convex", 4),
        ("fzoos.prop1.gamma-star.eq10", 1),
    }
    assert all(item.consistent for item in term_units("fzoos.thmc1.strongly-convex.corrected"))
    assert all(item.consistent for item in term_units("fzoos.thmc1.convex.diameter"))
