"""The bounds of Yue, Nouiehed & Al Kontar (``fedtheory.bounds.gifair``) against the theory.

Paper: seed ``002_…`` (displays (1)–(5); Lemma 3.2, Theorems 3.7, 3.9, 3.11, 4.2, 8.2, 8.4,
8.6, Lemma 8.5); guide ``shared/theory/gifair.md`` for the [derived] forms (§1 D1–D4, §3 the
repair of Theorem 3.7) and the errata (§6).

- Every registered formula is pinned at a point that is not its example, against the paper's
  formula transcribed in plain Python (Theorem 8.6 step by step over t with η_t = c/√t, the
  corrected McDiarmid constant sample by sample); nothing there reads ``Bound.expr``.
- The symbolic facts of the guide's V19 are taken with sympy on the registered expressions: the
  induction slack of the recursion, ε = 1 − λ/λ_max, the non-vanishing limit of Theorem 3.7 as
  printed, the finite limit of T·Dist_fix, Σ_tη_t² = c²H_T and the K² inconsistency.
- The exact identities (Lemma 3.2, D1, D2, D4) are evaluated with vectors measured on random
  instances (ties included) and compared with objective (1) computed from its definition.
- The dimensional audit flags exactly the non-convex statements that divide by √T and the
  (2 + 4L) of Theorem 8.6.
- Bad input raises ParameterError (domains) or ConditionError (hypotheses) naming the rule.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds.gifair import UNITS, dimension_audit, term_units
from fedtheory.errors import ConditionError, ParameterError

log, sqrt = math.log, math.sqrt
REL = 1e-12
C_PIN = 1.7  # the unknown constant of the order bounds, pinned at an arbitrary value

# ---------------------------------------------------------------------------- registry
EXPECTED = {
    "gifair.lemma32": ("exact", "printed"),
    "gifair.lemma32.individual": ("exact", "printed"),
    "gifair.lemma32.individual.corrected": ("exact", "corrected"),
    "gifair.weights.sum": ("exact", "derived"),
    "gifair.weights.upper": ("upper", "derived"),
    "gifair.weights.lower": ("lower", "derived"),
    "gifair.weights.group-mass": ("exact", "derived"),
    "gifair.d4": ("exact", "derived"),
    "gifair.d4.convex-program": ("exact", "derived"),
    "gifair.lambda-max": ("exact", "printed"),
    "gifair.epsilon": ("exact", "printed"),
    "gifair.epsilon.lambda-max": ("exact", "derived"),
    "gifair.thm37": ("upper", "printed"),
    "gifair.thm37.distance": ("upper", "derived"),
    "gifair.thm37.recursion": ("upper", "printed"),
    "gifair.thm37.recursion.corrected": ("upper", "corrected"),
    "gifair.thm39": ("upper", "printed"),
    "gifair.thm84": ("upper", "printed"),
    "gifair.thm311": ("order-upper", "printed"),
    "gifair.thm86": ("upper", "printed"),
    "gifair.thm86.proof-form": ("upper", "derived"),
    "gifair.lemma85": ("upper", "printed"),
    "gifair.thm42": ("order-upper", "printed"),
    "gifair.thm42.nonconvex": ("order-upper", "printed"),
    "gifair.thm82": ("upper", "printed"),
    "gifair.thm82.corrected": ("upper", "corrected"),
}
#: Bounds that state why no claim judges them (proof steps checked here; Theorem 4.2).
STATED_UNJUDGED = {  # the recursion steps are judged against exact worst cases since issue 16
    "gifair.thm42",
    "gifair.thm42.nonconvex",
}


def test_registered_ids_kinds_and_statuses() -> None:
    assert set(bounds.ids("gifair")) == set(EXPECTED)
    for bound_id, (kind, status) in EXPECTED.items():
        bound = bounds.get(bound_id)
        assert (bound.kind, bound.status) == (kind, status), bound_id
        assert bound.source.paper == "gifair"


def test_every_correction_sits_next_to_its_printed_form() -> None:
    for bound_id in bounds.ids("gifair"):
        if bound_id.endswith(".corrected"):
            printed = bounds.get(bound_id.removesuffix(".corrected"))
            assert printed.status == "printed", bound_id


def test_unjudged_reasons() -> None:
    """Only Theorem 4.2 gives a reason of its own; Theorem 3.11 (an order
    statement) has the default one; every other bound must be judged by a claim."""
    for bound_id in bounds.ids("gifair"):
        bound = bounds.get(bound_id)
        assert (bound.unjudged is not None) == (bound_id in STATED_UNJUDGED), bound_id
        has_reason = bound.unjudged_reason is not None
        assert has_reason == (bound_id in STATED_UNJUDGED or bound_id == "gifair.thm311")


# ---------------------------------------------------------------------------- pins
@dataclass(frozen=True)
class Pin:
    bound_id: str
    formula: Callable[..., float]
    point: dict[str, Any]
    label: str = ""

    def param(self) -> Any:
        test_id = f"{self.bound_id}[{self.label}]" if self.label else self.bound_id
        return pytest.param(self, id=test_id)


def pin(bound_id: str, formula: Callable[..., float], *, label: str = "", **point: Any) -> Pin:
    return Pin(bound_id, formula, point, label)


# ---- Lemma 3.2, eq. (2); the individual-fairness display of §3.1; D1–D4 (guide §1)
def lemma32(K, p, A, r, F, lam):
    # (2): H = Σ_k p_k(1 + λr_k/(p_k|𝒜_{s_k}|))F_k
    return sum(p[k] * (1 + lam * r[k] / (p[k] * A[k])) * F[k] for k in range(K))


def individual(K, p, r, F, lam):
    # §3.1 as printed for d = K: Σ_k (1 + λr_k/p_k)F_k
    return sum((1 + lam / p[k] * r[k]) * F[k] for k in range(K))


def individual_corrected(K, p, r, F, lam):
    # (2) with |𝒜_{s_k}| = 1: Σ_k p_k(1 + λr_k/p_k)F_k
    return lemma32(K, p, [1] * K, r, F, lam)


def weights_sum(K, p):
    # D1: Σ_k q_k = Σ_k p_k
    return sum(p[:K])


def weights_upper(p_k, lam, d, A_k):
    # D2: r_k ≤ d − 1
    return p_k + lam * (d - 1) / A_k


def weights_lower(p_k, lam, d, A_k):
    # D2: r_k ≥ −(d − 1)
    return p_k - lam * (d - 1) / A_k


def group_mass(P_i, lam, r_i):
    # D2: Σ_{k∈𝒜_i} (p_k + λr_i/|𝒜_i|) = P_i + λr_i
    return P_i + lam * r_i


def d4(d, Ls):
    # D4: R = Σ_m (d − 2m + 1)L_(m), L_(1) ≥ … ≥ L_(d)
    return sum((d - 2 * m + 1) * Ls[m - 1] for m in range(1, d + 1))


def sum_largest(values, j):
    return sum(sorted(values, reverse=True)[:j])


def convex_program(K, p, A, F, lam, d, Ls):
    # guide §1: Σ_k (p_k − λ(d−1)/|𝒜_{s_k}|)F_k + 2λΣ_{j=1}^{d−1} sum_largest(L, j)
    linear = sum((p[k] - lam * (d - 1) / A[k]) * F[k] for k in range(K))
    return linear + 2 * lam * sum(sum_largest(Ls[:d], j) for j in range(1, d))


def lambda_max(pA_min, d):
    # §3.1: λ_max = min_k p_k|𝒜_{s_k}|/(d − 1)
    return pA_min / (d - 1)


def epsilon(pA_min, d, lam):
    # App. 8.3: ε = 1 − (d − 1)λ/min_k p_k|𝒜_{s_k}|
    return 1 - (d - 1) * lam / pA_min


def epsilon_lambda_max(lam_max, lam):
    # guide §1: ε = 1 − λ/λ_max
    return 1 - lam / lam_max


# ---- Theorems 3.7, 3.9, 8.4 and the repair (guide §3)
def xi_printed(L, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2):
    # Thm 3.7: ξ = 8(E − 1)²G² + 4LΓ_K + 2Γ_max/η^(t) + 4Σp_k²σ_k², at η^(T) = β/(T + γ)
    eta_T = beta / (T + gamma)
    return 8 * (E - 1) ** 2 * G2 + 4 * L * Gamma_K + 2 * Gamma_max / eta_T + 4 * sigma2_p2


def strongly_convex(L, mu, eps, gamma, T, D0, xi):
    # Thm 3.7 / 3.9 / 8.4: (L/2)(1/(γ + T)){4ξ/(ε²μ²) + (γ + 1)‖θ̄^(0) − θ*‖²}
    return L / 2 / (gamma + T) * (4 * xi / (eps**2 * mu**2) + (gamma + 1) * D0)


def thm37(L, mu, eps, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2, D0):
    xi = xi_printed(L, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2)
    return strongly_convex(L, mu, eps, gamma, T, D0, xi)


def thm39(L, mu, eps, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2, D0, Sc):
    # Thm 3.9: ξ + τ′, τ′ = 4G²E²/|𝒮_c|
    xi = xi_printed(L, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2)
    return strongly_convex(L, mu, eps, gamma, T, D0, xi + 4 * G2 * E**2 / Sc)


def thm84(L, mu, eps, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2, D0, Sc, pc2):
    # Thm 8.4: ξ + τ, τ = E²/⌈αK⌉ Σ_k p_kc_k²G²
    xi = xi_printed(L, beta, gamma, E, T, G2, Gamma_K, Gamma_max, sigma2_p2)
    return strongly_convex(L, mu, eps, gamma, T, D0, xi + E**2 / Sc * pc2 * G2)


def distance(L, mu, eps, gamma, E, T, G2, Gamma_max, sigma2_p2, D0):
    # guide §3 repair: (4ξ_fix/(ε²μ²) + (γ + 1)Δ_0)/(γ + T), ξ_fix = 32(E−1)²G² + 12LΓ_max + 4Σp²σ²
    xi_fix = 32 * (E - 1) ** 2 * G2 + 12 * L * Gamma_max + 4 * sigma2_p2
    return (4 * xi_fix / (eps**2 * mu**2) + (gamma + 1) * D0) / (gamma + T)


def recursion(K, L, mu, eps, beta, gamma, t, Delta_t, xi):
    # App. 8.3: Δ_{t+1} ≤ (1 − η^(t)εμ/K)Δ_t + η^(t)²ξ, η^(t) = β/(t + γ)
    eta = beta / (t + gamma)
    return (1 - eta * eps * mu / K) * Delta_t + eta**2 * xi


def recursion_corrected(L, mu, eps, beta, gamma, t, Delta_t, xi):
    # guide §3 repair (Jensen): no K
    return recursion(1, L, mu, eps, beta, gamma, t, Delta_t, xi)


# ---- non-convex: Theorem 3.11, Theorem 8.6 (η_t = c/√t), Lemma 8.5
def thm311(C, L, T, H0gap, Gamma_K, E, G2, sigma2_p):
    # Thm 3.11: {2(1 + 2L²log(T+1))E[H0 − H*] + 2ξ_{Γ_K}}/√T, ξ_{Γ_K} = O((2L²Γ_K + 8(E−1)LG²
    # + 10LΣp_kσ_k²)log(T + 1)) with the O's constant C
    xi = C * (2 * L**2 * Gamma_K + 8 * (E - 1) * L * G2 + 10 * L * sigma2_p) * log(T + 1)
    return (2 * (1 + 2 * L**2 * log(T + 1)) * H0gap + 2 * xi) / sqrt(T)


def thm86_parts(L, K, c, T, H0gap, Gamma_K, E, G2, sigma2_p):
    """The bracket {…} of Thm 8.6 and Σ_tη_t, summed step by step over t = 1, …, T."""
    sum_eta, sum_eta2, sum_xi = 0.0, 0.0, 0.0
    for step in range(1, T + 1):
        eta = c / sqrt(step)
        sum_eta += eta
        sum_eta2 += eta**2
        sum_xi += (
            2 * K * L**2 * eta**2 * Gamma_K
            + (
                8 * eta**3 * K * L**2 * (E - 1)
                + 8 * K * L * eta**2
                + 4 * (2 + 4 * L) * K * L * eta**4 * (E - 1)
            )
            * G2
            + (2 * L * eta**2 + 8 * K * L * eta**2) * sigma2_p
        )
    bracket = 2 * (1 + 2 * K * L**2 * sum_eta2) * H0gap + 2 * sum_xi
    return bracket, sum_eta


def thm86(**point):
    # Thm 8.6 as printed: (1/√T){…}
    bracket, _ = thm86_parts(**point)
    return bracket / sqrt(point["T"])


def thm86_proof(**point):
    # the proof's penultimate display: (1/Σ_tη_t){…}
    bracket, sum_eta = thm86_parts(**point)
    return bracket / sum_eta


# ---- Theorem 4.2
def thm42(C, E, T):
    return C * E**2 / T


def thm42_nonconvex(C, E, T):
    return C * (E - 1) * log(T + 1) / sqrt(T)


# ---- Theorem 8.2
def thm82(K, p, Nk, M, lam, d, delta, Rad):
    # Thm 8.2: √(½Σ_k(p_kM/N_k + λd(d−1)M/2)²log(1/δ_0)) + 2𝔐 + λd(d−1)M/2
    bias = lam * d * (d - 1) / 2 * M
    sq = sum((p[k] / Nk[k] * M + bias) ** 2 for k in range(K))
    return sqrt(0.5 * sq * log(1 / delta)) + 2 * Rad + bias


def thm82_corrected(K, p, Nk, A, M, lam, d, delta, Rad):
    # McDiarmid over every sample (k, n): c_{k,n} = M(p_k + λ(d − 1)/|𝒜_{s_k}|)/N_k
    sq = 0.0
    for k in range(K):
        for _ in range(int(Nk[k])):
            sq += (M * (p[k] + lam * (d - 1) / A[k]) / Nk[k]) ** 2
    return sqrt(0.5 * sq * log(1 / delta)) + 2 * Rad + lam * d * (d - 1) / 2 * M


CLIENTS = {"K": 4, "p": [0.1, 0.2, 0.3, 0.4], "A": [2, 2, 1, 1], "F": [0.7, 1.9, 0.4, 2.2]}
STRONG = {
    "L": 3.0,
    "mu": 0.7,
    "eps": 0.35,
    "beta": 2 / (0.35 * 0.7),
    "gamma": 170.0,
    "E": 4,
    "T": 777,
    "G2": 1.3,
    "Gamma_K": 0.11,
    "Gamma_max": 0.23,
    "sigma2_p2": 0.17,
    "D0": 2.1,
}
DIST = {k: v for k, v in STRONG.items() if k not in ("beta", "Gamma_K")}
REC = {"L": 3.0, "mu": 0.7, "eps": 0.35, "beta": 2.0, "gamma": 150.0, "t": 17, "Delta_t": 0.3,
       "xi": 4.2}  # fmt: skip
NONCONVEX = {"L": 1.2, "K": 3, "c": 0.25, "T": 300, "H0gap": 0.9, "Gamma_K": 0.05, "E": 3,
             "G2": 1.4, "sigma2_p": 0.2}  # fmt: skip
LEARN = {"K": 3, "p": [0.2, 0.3, 0.5], "Nk": [20, 30, 50], "M": 1.5, "lam": 0.004, "d": 2,
         "delta": 0.1, "Rad": 0.03}  # fmt: skip

# fmt: off
PINS = [
    pin("gifair.lemma32", lemma32, **CLIENTS, r=[2, 2, -1, 0], lam=0.03),
    pin("gifair.lemma32.individual", individual, K=3, p=[0.2, 0.3, 0.5], r=[2, -2, 0],
        F=[1.2, 0.3, 0.9], lam=0.02),
    pin("gifair.lemma32.individual.corrected", individual_corrected, K=3, p=[0.2, 0.3, 0.5],
        r=[2, -2, 0], F=[1.2, 0.3, 0.9], lam=0.02),
    pin("gifair.weights.sum", weights_sum, K=4, p=[0.1, 0.2, 0.3, 0.4]),
    pin("gifair.weights.upper", weights_upper, p_k=0.13, lam=0.02, d=4, A_k=3),
    pin("gifair.weights.lower", weights_lower, p_k=0.13, lam=0.02, d=4, A_k=3),
    pin("gifair.weights.group-mass", group_mass, P_i=0.42, lam=0.03, r_i=-2),
    pin("gifair.d4", d4, d=4, Ls=[2.5, 1.1, 1.1, 0.2]),
    pin("gifair.d4.convex-program", convex_program, **CLIENTS, lam=0.03, d=3,
        Ls=[2.2, 1.3, 0.4]),
    pin("gifair.lambda-max", lambda_max, pA_min=0.37, d=4),
    pin("gifair.epsilon", epsilon, pA_min=0.37, d=4, lam=0.07),
    pin("gifair.epsilon.lambda-max", epsilon_lambda_max, lam_max=0.37, lam=0.07),
    pin("gifair.thm37", thm37, **STRONG),
    pin("gifair.thm37.distance", distance, **DIST),
    pin("gifair.thm37.recursion", recursion, **REC, K=5),
    pin("gifair.thm37.recursion.corrected", recursion_corrected, **REC),
    pin("gifair.thm39", thm39, **STRONG, Sc=3),
    pin("gifair.thm84", thm84, **STRONG, Sc=3, pc2=2.7),
    pin("gifair.thm311", thm311, C=C_PIN, L=1.2, T=300, H0gap=0.9, Gamma_K=0.05, E=3, G2=1.4,
        sigma2_p=0.2),
    pin("gifair.thm86", thm86, **NONCONVEX),
    pin("gifair.thm86", thm86, label="T=1", **{**NONCONVEX, "T": 1}),
    pin("gifair.thm86.proof-form", thm86_proof, **NONCONVEX),
    pin("gifair.lemma85", lambda H0, eta, L: H0, H0=3.3, eta=0.2, L=2.5),
    pin("gifair.thm42", thm42, C=C_PIN, E=3, T=500),
    pin("gifair.thm42.nonconvex", thm42_nonconvex, C=C_PIN, E=3, T=500),
    pin("gifair.thm82", thm82, **LEARN),
    pin("gifair.thm82.corrected", thm82_corrected, **LEARN, A=[1, 1, 2]),
    pin("gifair.thm82.corrected", thm82_corrected, label="lam=0", **{**LEARN, "lam": 0},
        A=[1, 1, 2]),
]
# fmt: on


@pytest.mark.parametrize("row", [p.param() for p in PINS])
def test_registered_formula_matches_the_paper(row: Pin) -> None:
    bound = bounds.get(row.bound_id)
    assert {name: row.point.get(name) for name in bound.example} != bound.example
    assert bound.evaluate(**row.point) == pytest.approx(row.formula(**row.point), rel=REL, abs=0)


def test_every_registered_bound_is_pinned() -> None:
    assert {row.bound_id for row in PINS} == set(bounds.ids("gifair"))


# ---------------------------------------------------------------------------- V19 (sympy)
def _symbols(*bound_ids: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for bound_id in bound_ids:
        found.update(bounds.get(bound_id).symbols)
    return found


S = _symbols("gifair.thm37", "gifair.thm37.distance", "gifair.thm37.recursion", "gifair.thm86")
v = sp.Symbol("v", positive=True)


def test_recursion_induction_slack() -> None:
    """Corrected recursion with Δ_t = v/g (g = t + γ) and ξ at its largest, v(βεμ − 1)/β²:
    Δ_{t+1} − v/(g + 1) = −v/(g²(g + 1)) ≤ 0, so Δ_t ≤ v/(γ + t) propagates."""
    b, eps, mu, t, gamma = S["beta"], S["eps"], S["mu"], S["t"], S["gamma"]
    g = t + gamma
    expr = bounds.get("gifair.thm37.recursion.corrected").expr
    at_threshold = expr.subs({S["Delta_t"]: v / g, S["xi"]: v * (b * eps * mu - 1) / b**2})
    slack = sp.factor(at_threshold - v / (g + 1))
    assert sp.simplify(slack + v / (g**2 * (g + 1))) == 0
    assert slack.is_negative


def test_k_squared_inconsistency() -> None:
    """The printed recursion (1 − ηεμ/K) closes its induction at v* = β²ξ/(βεμ/K − 1); the
    proof's β = 2K/(εμ) gives 4K²ξ/(ε²μ²), K² times the 4ξ/(ε²μ²) of Theorem 3.7, whose
    constant is the corrected recursion's v* at β = 2/(εμ)."""
    b, eps, mu, t, gamma, K, xi = (S[n] for n in ("beta", "eps", "mu", "t", "gamma", "K", "xi"))
    g = t + gamma

    def threshold(bound_id: str) -> sp.Expr:
        """The v at which the induction slack is exactly −v/(g²(g + 1))."""
        expr = bounds.get(bound_id).expr.subs(S["Delta_t"], v / g)
        (solution,) = sp.solve(sp.Eq(expr - v / (g + 1), -v / (g**2 * (g + 1))), v)
        return sp.simplify(solution)

    printed = threshold("gifair.thm37.recursion")
    assert sp.simplify(printed - b**2 * xi / (b * eps * mu / K - 1)) == 0
    assert sp.simplify(printed.subs(b, 2 * K / (eps * mu)) - 4 * K**2 * xi / (eps**2 * mu**2)) == 0
    corrected = threshold("gifair.thm37.recursion.corrected").subs(b, 2 / (eps * mu))
    # Theorem 3.7: (2(γ + T)/L)·bound = 4ξ/(ε²μ²) + (γ + 1)D0, and ξ ∋ 4Σp²σ² (paper)
    thm37 = bounds.get("gifair.thm37").expr
    per_xi = sp.diff(sp.expand(thm37 * 2 * (gamma + S["T"]) / S["L"]), S["sigma2_p2"]) / 4
    assert sp.simplify(corrected - per_xi * xi) == 0
    assert sp.simplify(printed.subs(b, 2 * K / (eps * mu)) / (per_xi * xi)) == K**2


def test_epsilon_is_one_minus_lambda_over_lambda_max() -> None:
    appendix = bounds.get("gifair.epsilon")
    lam_max_form = bounds.get("gifair.epsilon.lambda-max")
    lam_max, pA_min = lam_max_form.symbols["lam_max"], appendix.symbols["pA_min"]
    (pA,) = sp.solve(sp.Eq(lam_max, bounds.get("gifair.lambda-max").expr), pA_min)
    assert sp.simplify(appendix.expr.subs(pA_min, pA) - lam_max_form.expr) == 0


@pytest.mark.parametrize("bound_id", ["gifair.thm37", "gifair.thm39", "gifair.thm84"])
def test_printed_strongly_convex_bounds_do_not_decay(bound_id: str) -> None:
    """guide §6.2: 2Γ_max/η^(T) grows like T, the bound tends to 4LΓ_max/(βε²μ²) ≠ 0."""
    limit = sp.limit(bounds.get(bound_id).expr, S["T"], sp.oo)
    expected = 4 * S["L"] * S["Gamma_max"] / (S["beta"] * S["eps"] ** 2 * S["mu"] ** 2)
    assert sp.simplify(limit - expected) == 0
    assert limit.subs(S["Gamma_max"], 1).is_positive
    assert limit.subs(S["Gamma_max"], 0) == 0  # iid (Γ_max = 0): O(1/T) again


def test_repaired_distance_bound_decays_like_one_over_t() -> None:
    dist = bounds.get("gifair.thm37.distance").expr
    limit = sp.limit(S["T"] * dist, S["T"], sp.oo)
    assert limit.is_finite
    assert sp.simplify(limit - dist * (S["gamma"] + S["T"])) == 0
    assert bounds.get("gifair.thm37.distance").exponent("T").power == -1


def test_sum_of_squared_steps_is_c_squared_harmonic() -> None:
    """Theorem 8.6 with η_t = c/√t: the coefficient of E[H0 − H*] is 2(1 + 2KL²Σ_tη_t²)/√T,
    and Σ_tη_t² = c²H_T."""
    expr = bounds.get("gifair.thm86").expr
    K, L, T, c = S["K"], S["L"], S["T"], S["c"]
    coefficient = sp.expand(expr).coeff(S["H0gap"])
    sum_eta2 = (coefficient * sp.sqrt(T) / 2 - 1) / (2 * K * L**2)
    assert sp.simplify(sum_eta2.doit() - c**2 * sp.harmonic(T)) == 0


def test_proof_form_is_the_printed_bound_times_root_t_over_sum_eta() -> None:
    printed = bounds.get("gifair.thm86").expr
    proof = bounds.get("gifair.thm86.proof-form").expr
    T, c, s = S["T"], S["c"], sp.Symbol("s", integer=True, positive=True)
    sum_eta = sp.Sum(c / sp.sqrt(s), (s, 1, T))
    ratio = sp.simplify(proof / printed)
    assert sp.simplify(ratio - sp.sqrt(T) / (c * sp.harmonic(T, sp.Rational(1, 2)))) == 0
    # Σ_{t≤T} c/√t = c·H_T^{(1/2)}, exactly at small T
    for horizon in (1, 2, 9):
        assert (
            sp.simplify(
                sum_eta.subs(T, horizon).doit() - c * sp.harmonic(horizon, sp.Rational(1, 2))
            )
            == 0
        )
    # c < 1/2: the printed 1/√T is below what the proof shows (Σ_tη_t ≈ 2c√T < √T)
    point = bounds.get("gifair.thm86").example
    assert float(sum_eta.subs({c: point["c"], T: 10**4}).doit()) < 100


def test_e_enters_theorem_86_only_through_summable_terms() -> None:
    """guide §3: (E − 1) multiplies Σ_tη_t³ and Σ_tη_t⁴ only, which converge — the bound at
    E = 5 minus the bound at E = 1, times √T, tends to a constant (Remark 3.12's (E − 1)log T/√T
    does not follow from the appendix)."""
    bound = bounds.get("gifair.thm86")
    point = {**bound.example, "c": 0.3, "K": 4, "L": 0.5}
    scaled = [
        (bound.evaluate(**{**point, "T": n, "E": 5}) - bound.evaluate(**{**point, "T": n, "E": 1}))
        * sqrt(n)
        for n in (1000, 4000, 16000)
    ]
    assert scaled == sorted(scaled) and scaled[-1] < 1.01 * scaled[-2]


def test_learning_bound_printed_is_root_n_too_small_at_lambda_zero() -> None:
    """guide §6.11: at λ = 0 the printed ε_0 is ∝ 1/N, the corrected one ∝ 1/√N (AFL's
    M√(Σp_k²/(2N_k)log(1/δ)))."""
    printed, corrected = bounds.get("gifair.thm82"), bounds.get("gifair.thm82.corrected")
    base = {"K": 2, "p": [0.5, 0.5], "M": 1, "lam": 0, "d": 2, "delta": 0.05, "Rad": 0}
    for n in (100, 400, 1600):
        values = {**base, "Nk": [n, n]}
        eps_printed = printed.evaluate(**values)
        eps_corrected = corrected.evaluate(**values, A=[1, 1])
        assert eps_printed * n == pytest.approx(0.5 * sqrt(log(20)), rel=1e-12)
        assert eps_corrected == pytest.approx(sqrt(2 * 0.25 / (2 * n) * log(20)), rel=1e-12)
        assert eps_corrected / eps_printed == pytest.approx(sqrt(n), rel=1e-12)


# ---------------------------------------------------------------------------- identities
def _instance(rng: np.random.Generator, d: int, tie: bool) -> dict[str, Any]:
    sizes = rng.integers(1, 4, size=d)
    groups = np.repeat(np.arange(d), sizes)
    K = groups.size
    counts = rng.integers(10, 100, size=K)
    p = counts / counts.sum()
    F = rng.uniform(0.0, 3.0, size=K)
    if tie:  # two groups with equal losses: copy one group's clients' mean onto the other
        mean0 = F[groups == 0].mean()
        F[groups == 1] += mean0 - F[groups == 1].mean()
        F = np.abs(F)
    group_loss = np.array([F[groups == i].mean() for i in range(d)])
    r_group = np.array([np.sign(group_loss[i] - np.delete(group_loss, i)).sum() for i in range(d)])
    return {
        "K": K,
        "d": d,
        "groups": groups,
        "p": p,
        "F": F,
        "A": sizes[groups],
        "r": r_group[groups].astype(int),
        "group_loss": group_loss,
        "r_group": r_group,
    }


def _objective(instance: dict[str, Any], lam: float) -> float:
    """Objective (1) from its definition: Σ_k p_kF_k + λΣ_{i<j}|L_i − L_j|."""
    losses = instance["group_loss"]
    spread = sum(abs(a - b) for a, b in itertools.combinations(losses, 2))
    return float(instance["p"] @ instance["F"] + lam * spread)


@pytest.mark.parametrize("seed", range(6))
def test_reweighting_identities_on_random_instances(seed: int) -> None:
    """V1/V2/D4 on measured vectors, ties included: Lemma 3.2 and the convex program give (1),
    D4 gives R, the weights sum to 1, lie within D2's interval, and each group's weight is
    P_i + λr_i; the printed individual-fairness display does not give (1)."""
    rng = np.random.default_rng(seed)
    d = int(rng.integers(2, 6))
    inst = _instance(rng, d, tie=seed % 2 == 1)
    lam = float(rng.uniform(0, 1)) * inst["p"].min() * inst["A"].min() / (d - 1)
    vectors = {"K": inst["K"], "p": inst["p"], "A": inst["A"], "r": inst["r"], "F": inst["F"]}
    H = _objective(inst, lam)
    assert bounds.get("gifair.lemma32").evaluate(**vectors, lam=lam) == pytest.approx(H, rel=1e-12)
    ordered = np.sort(inst["group_loss"])[::-1]
    convex = {k: v for k, v in vectors.items() if k != "r"}
    value = bounds.get("gifair.d4.convex-program").evaluate(**convex, lam=lam, d=d, Ls=ordered)
    assert value == pytest.approx(H, rel=1e-12)
    spread = sum(abs(a - b) for a, b in itertools.combinations(inst["group_loss"], 2))
    assert bounds.get("gifair.d4").evaluate(d=d, Ls=ordered) == pytest.approx(spread, rel=1e-12)
    q = inst["p"] + lam * inst["r"] / inst["A"]
    assert q.sum() == pytest.approx(
        bounds.get("gifair.weights.sum").evaluate(K=inst["K"], p=inst["p"]), abs=1e-14
    )
    assert q.sum() == pytest.approx(1, abs=1e-14)
    upper = bounds.get("gifair.weights.upper").evaluate(p_k=inst["p"], lam=lam, d=d, A_k=inst["A"])
    lower = bounds.get("gifair.weights.lower").evaluate(p_k=inst["p"], lam=lam, d=d, A_k=inst["A"])
    assert np.all(lower <= q + 1e-15) and np.all(q <= upper + 1e-15) and np.all(q >= 0)
    for i in range(d):
        members = inst["groups"] == i
        mass = bounds.get("gifair.weights.group-mass").evaluate(
            P_i=inst["p"][members].sum(), lam=lam, r_i=int(inst["r_group"][i])
        )
        assert q[members].sum() == pytest.approx(mass, rel=1e-12)


def test_individual_fairness_display_is_an_erratum() -> None:
    rng = np.random.default_rng(7)
    K = 5
    p = rng.dirichlet(np.ones(K))
    F = rng.uniform(0.5, 2.0, size=K)
    r = np.array([np.sign(F[k] - np.delete(F, k)).sum() for k in range(K)]).astype(int)
    lam = 0.5 * p.min() / (K - 1)
    groups = {"K": K, "d": K, "groups": np.arange(K), "p": p, "F": F, "group_loss": F}
    H = _objective(groups, lam)
    values = {"K": K, "p": p, "r": r, "F": F, "lam": lam}
    corrected = bounds.get("gifair.lemma32.individual.corrected").evaluate(**values)
    printed = bounds.get("gifair.lemma32.individual").evaluate(**values)
    assert corrected == pytest.approx(H, rel=1e-12)
    assert printed == pytest.approx(F.sum() + lam * (r / p) @ F, rel=1e-12)
    assert abs(printed - H) > 0.5 * H  # weights summing to K, not 1


# ---------------------------------------------------------------------------- dimensions
def test_dimension_audit_flags_the_root_t_statements_and_the_two_plus_four_l() -> None:
    flagged = {(bound_id, item.index) for bound_id, item in dimension_audit()}
    assert flagged == {
        ("gifair.thm311", 1),
        ("gifair.thm311", 2),
        *(("gifair.thm86", i) for i in range(1, 7)),
        ("gifair.thm86.proof-form", 5),
    }
    fifth = term_units("gifair.thm86.proof-form")[4]
    assert fifth.unit is None and "32*L + 16" in fifth.problem


def test_every_audited_bound_has_units_for_its_symbols() -> None:
    for bound_id in bounds.ids("gifair"):
        bound = bounds.get(bound_id)
        assert set(bound.info) <= set(UNITS), bound_id
        if bound_id.startswith("gifair.thm42"):
            with pytest.raises(ParameterError, match="audited"):
                term_units(bound_id)
        else:
            assert term_units(bound_id)


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("bound_id", "changes", "fragment"),
    [
        ("gifair.epsilon", {"lam": 0.2}, "lam"),
        ("gifair.epsilon.lambda-max", {"lam": 0.1}, "lam < lam_max"),
        ("gifair.lambda-max", {"d": 1}, "d ≥ 2"),
        ("gifair.thm37", {"eps": 1.5}, "eps ≤ 1"),
        ("gifair.thm37", {"gamma": 4}, "gamma ≥ E"),
        ("gifair.thm37", {"beta": 5}, "beta ≤"),
        ("gifair.thm37", {"Gamma_K": 0.3}, "Gamma_K ≤ Gamma_max"),
        ("gifair.thm37.distance", {"gamma": 50}, "gamma ≥"),
        ("gifair.thm84", {"pc2": 4.5}, "pc2 ≤ 4"),
        ("gifair.thm86", {"c": 0.5}, "c ≤"),
        ("gifair.lemma85", {"eta": 0.6}, "eta ≤"),
        ("gifair.thm82", {"delta": 1}, "delta < 1"),
    ],
)
def test_hypotheses_are_enforced(bound_id: str, changes: dict, fragment: str) -> None:
    bound = bounds.get(bound_id)
    values = {**bound.example, **dict.fromkeys(bound.constants, 1), **changes}
    with pytest.raises(ConditionError) as raised:
        bound.evaluate(**values)
    assert raised.value.bound_id == bound_id
    assert fragment in raised.value.hypothesis
    try:  # outside the hypotheses the formula is evaluated where it is defined
        value = bound.evaluate(**values, check=False)
    except ParameterError as error:  # λ_max = min p|𝒜|/(d − 1) at d = 1
        assert "undefined" in str(error) and changes == {"d": 1}
    else:
        assert math.isfinite(value)


@pytest.mark.parametrize(
    ("bound_id", "changes", "parameter"),
    [
        ("gifair.lemma32", {"p": [0.5, -0.3, 0.8]}, "p"),
        ("gifair.lemma32", {"r": [1, 0.5, -1]}, "r"),
        ("gifair.thm82.corrected", {"Nk": [100, 0]}, "Nk"),
        ("gifair.thm37", {"E": 2.5}, "E"),
        ("gifair.weights.group-mass", {"r_i": 0.5}, "r_i"),
    ],
)
def test_domains_are_refused_with_parameter_error(
    bound_id: str, changes: dict, parameter: str
) -> None:
    bound = bounds.get(bound_id)
    with pytest.raises(ParameterError) as raised:
        bound.evaluate(**{**bound.example, **changes})
    assert raised.value.parameter == parameter


def test_a_short_vector_is_refused() -> None:
    bound = bounds.get("gifair.lemma32")
    with pytest.raises(ParameterError, match="too short"):
        bound.evaluate(**{**bound.example, "K": 4})
