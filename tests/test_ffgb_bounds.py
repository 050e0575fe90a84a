"""The bounds of Shen, Hassani, Kale & Karbasi (``fedtheory.bounds.ffgb``) against the theory.

Paper: seed ``000_…`` (equations (1)–(56)); guide ``shared/theory/ffgb.md`` for the [derived]
forms: §3.8 (exact limit points), §3.9 (Theorem 3.1 with explicit constants), §3.4 (Corollary 3.1's
balance), §5 D4 (dimensional audit) and the errata of §6.

- Every registered formula is pinned at a point that is not its example, against the paper's
  formula transcribed in plain Python (``fractions`` where the value is rational, the sums of §3.9
  written out step by step with η_s); nothing there reads ``Bound.expr``.
- The limits the guide states are taken with sympy (the floor is Theorem 3.1 at T → ∞, K² times
  the square-loss floor tends to μ²(1−γ)²/(γ²(1+μ)⁴), Corollary 3.1 at K = √T, the radii).
- The exact limit points are checked against small plain-numpy runs of FFGB and FFGB.L with the
  scale oracle (Richardson extrapolation in T removes the O(1/T) transient), and the explicit
  Theorem 3.1 against logistic FFGB runs with three oracles of edge exactly γ.
- The D4 audit flags exactly the 4th term of Theorem 3.1 as printed (and of F.1, which repeats
  it) among the theorems, and Lemma E.4's printed norm among the lemmas.
- Bad input raises ParameterError (domains) or ConditionError (hypotheses) naming the rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds._dimensions import DimensionError, unit_of
from fedtheory.bounds.ffgb import UNITS, dimension_audit, term_units
from fedtheory.errors import ConditionError, ParameterError

log, sqrt = math.log, math.sqrt
REL = 1e-12
C_PIN = 1.7  # the unknown constant of the order bounds, pinned at an arbitrary value

# ---------------------------------------------------------------------------- registry
EXPECTED = {
    "ffgb.eq12": ("upper", "printed"),
    "ffgb.eq15": ("upper", "printed"),
    "ffgb.lemma-residual": ("upper", "printed"),
    "ffgb.lemma-residual.h": ("upper", "printed"),
    "ffgb.lemma-iterate": ("upper", "corrected"),
    "ffgb.lemma-iterate.hhat": ("upper", "printed"),
    "ffgb.lemmad1.residual": ("upper", "printed"),
    "ffgb.lemmad1.h": ("upper", "printed"),
    "ffgb.thmd1.b-min": ("lower", "printed"),
    "ffgb.lemmad2": ("upper", "printed"),
    "ffgb.lemmad2.corrected": ("upper", "corrected"),
    "ffgb.lemmae1.residual": ("upper", "printed"),
    "ffgb.lemmae1.h": ("upper", "printed"),
    "ffgb.lemmae1.residual-lip": ("upper", "printed"),
    "ffgb.lemmae1.h-lip": ("upper", "printed"),
    "ffgb.lemmae1.g-lip": ("upper", "printed"),
    "ffgb.lemmae1.g-lip.corrected": ("upper", "corrected"),
    "ffgb.lemmae2": ("upper", "printed"),
    "ffgb.lemmae2.corrected": ("upper", "corrected"),
    "ffgb.lemmae4": ("upper", "printed"),
    "ffgb.lemmae4.corrected": ("upper", "corrected"),
    "ffgb.lemmae4.global": ("upper", "corrected"),
    "ffgb.thm31": ("order-upper", "printed"),
    "ffgb.thm31.corrected": ("order-upper", "corrected"),
    "ffgb.thm31.explicit": ("upper", "derived"),
    "ffgb.thm31.floor": ("upper", "derived"),
    "ffgb.cor31": ("order-upper", "printed"),
    "ffgb.cor31.k-star": ("exact", "derived"),
    "ffgb.cor31.balanced": ("order-upper", "derived"),
    "ffgb.thm32": ("order-upper", "printed"),
    "ffgb.thmd1": ("order-upper", "printed"),
    "ffgb.thm32.radius": ("order-upper", "derived"),
    "ffgb.thm32.omega-explicit": ("upper", "derived"),
    "ffgb.thm33": ("order-upper", "printed"),
    "ffgb.thme1": ("order-upper", "printed"),
    "ffgb.thm33.radius": ("order-upper", "derived"),
    "ffgb.thmf1": ("order-upper", "printed"),
    "ffgb.thmf1.corrected": ("order-upper", "corrected"),
    "ffgb.thmf2": ("order-upper", "printed"),
    "ffgb.thmf3": ("order-upper", "printed"),
    "ffgb.limit.c-k": ("exact", "derived"),
    "ffgb.limit.mu-eff": ("exact", "derived"),
    "ffgb.limit.square-floor": ("exact", "derived"),
    "ffgb.limit.square-floor.k2": ("exact", "derived"),
    "ffgb.limit.no-residual": ("exact", "derived"),
    "ffgb.limit.ffgbl": ("exact", "derived"),
    "ffgb.limit.alg4-literal": ("exact", "derived"),
    "ffgb.stepsize.ffgbc": ("exact", "printed"),
    "ffgb.stepsize.ffgbc.corrected": ("exact", "corrected"),
}

#: The theorems (the statements on ‖f^T − f*‖² of the paper and their corrections).
THEOREMS = (
    "ffgb.thm31",
    "ffgb.thm31.corrected",
    "ffgb.thm32",
    "ffgb.thmd1",
    "ffgb.thm33",
    "ffgb.thme1",
    "ffgb.thmf1",
    "ffgb.thmf1.corrected",
    "ffgb.thmf2",
    "ffgb.thmf3",
)


def test_registered_ids_kinds_and_statuses() -> None:
    assert set(bounds.ids("ffgb")) == set(EXPECTED)
    for bound_id, (kind, status) in EXPECTED.items():
        bound = bounds.get(bound_id)
        assert (bound.kind, bound.status) == (kind, status), bound_id
        assert bound.source.paper == "ffgb"


def test_every_printed_erratum_has_its_correction_next_to_it() -> None:
    for bound_id in bounds.ids("ffgb"):
        if bound_id.endswith(".corrected"):
            printed = bounds.get(bound_id.removesuffix(".corrected"))
            assert printed.status == "printed", bound_id


def test_only_order_statements_are_unjudged_by_default() -> None:
    """The coverage mechanism: an order statement (unknown constant) carries a reason (the
    default one, or — F.2 and F.3, whose own data no claim runs yet — a stated one); every bound
    with a value must be judged by a claim (none gives a reason of its own)."""
    stated = {"ffgb.thmf2", "ffgb.thmf3"}
    for bound_id in bounds.ids("ffgb"):
        bound = bounds.get(bound_id)
        assert (bound.unjudged is not None) == (bound_id in stated), bound_id
        assert (bound.unjudged_reason is not None) == bound.is_order, bound_id


# ---------------------------------------------------------------------------- pins
@dataclass(frozen=True)
class Pin:
    bound_id: str
    formula: Callable[..., float]
    point: dict[str, Any]
    label: str = ""

    def param(self) -> Any:
        return pytest.param(
            self, id=f"{self.bound_id}[{self.label}]" if self.label else self.bound_id
        )


def pin(bound_id: str, formula: Callable[..., float], *, label: str = "", **point: Any) -> Pin:
    return Pin(bound_id, formula, point, label)


# (12), (15)
def eq12(f_sup, g_sup, TV):
    # (12): 2‖f‖_∞‖g‖_∞TV(α, α_i)
    return 2 * f_sup * g_sup * TV


def eq15(f_lip, g_sup_alpha, g_lip, f_sup_alpha, W1):
    # (15): ξ·W1 with ξ = ‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞}
    return (f_lip * g_sup_alpha + g_lip * f_sup_alpha) * W1


# App. C: (28), (29)
def residual_28(G, gamma):
    # (28): the fixed point of x ↦ (1 − γ)(x + G)
    return (1 - gamma) * G / gamma


def h_28(G, gamma):
    # after (28): ‖φ‖ ≤ G + (1 − γ)G/γ = G/γ, ‖h‖ ≤ (2 − γ)‖φ‖
    return (2 - gamma) * (G / gamma)


def iterate_29(G, gamma, mu, f0_norm):
    # (29) corrected: the invariant ball of g ↦ (1 − μη)g + ηh with ‖h‖ ≤ 2G/γ
    return (2 * G / gamma) / mu


def hhat_29(G, gamma, mu, f0_norm):
    # after (29): ‖h‖ + μ‖g‖ ≤ 2G/γ + μ·2G/(γμ)
    return 2 * G / gamma + mu * (2 * G / (gamma * mu))


def b_min(G, mu, gamma):
    # Theorem D.1: B ≥ 2G/(μγ)
    return 2 * G / (mu * gamma)


def lemma_d2(G, mu, gamma, f0_sup, k0=None):
    # Lemma D.2: ‖g‖_∞ ≤ 2G/(γμ)
    return 2 * G / (gamma * mu)


# App. E
def e1_residual(B, gamma):
    # (42)–(43): the fixed point of x ↦ (1 − γ)(x + B)
    return (1 - gamma) * B / gamma


def e1_h(B, gamma):
    # Lemma E.1: ‖u_i‖ + ‖Δ‖ ≤ B + (1 − γ)B/γ
    return B + (1 - gamma) * B / gamma


def e1_residual_lip(L, gamma):
    return (1 - gamma) * L / gamma


def e1_lip(L, gamma, f0_lip=None, k0=None):
    # App. E: ‖h‖_lip ≤ ‖u − Δ‖_lip ≤ L + (1 − γ)L/γ = L/γ; ‖g‖_lip ≤ L/γ
    return L + (1 - gamma) * L / gamma


def e2(B, gamma):
    # (44): B/γ as printed
    return B / gamma


def e2_corrected(L, D, B, gamma, k0, f0_sup):
    # guide §3.2: B/γ on the own support plus (L/γ)·D to reach another client's points
    return B / gamma + L * D / gamma


def g_s2(L, W2sq_s, B, gamma, k0=None):
    # Lemma E.4: G_s²/γ², G_s² = (2L²/N)Σ_iW2²(α_s, α_i) + 2B²
    return (2 * L**2 * W2sq_s + 2 * B**2) / gamma**2


def g2_global(L, W2sq, B, gamma, k0):
    # Lemma E.4 averaged over s: G²/γ², G² = (2L²/N²)Σ_{i,s}W2² + 2B²
    return (2 * L**2 * W2sq + 2 * B**2) / gamma**2


# Theorem 3.1 and Corollary 3.1
def thm31(C, D0, K, T, G, gamma, mu):
    # Theorem 3.1 / C.1 as printed
    return C * (
        D0 / (K * T)
        + K * G**2 * log(K * T) / (T * gamma**2 * mu**2)
        + (1 - gamma) * G**2 / (K * mu**2 * gamma**2)
        + (1 - gamma) * G**2 * log(K * T) / (K * T * mu * gamma**2)
    )


def thm31_corrected(C, D0, K, T, G, gamma, mu):
    # guide §3.3: (1 − γ)² in the third term, μ² in the fourth
    return C * (
        D0 / (K * T)
        + K * G**2 * log(K * T) / (T * gamma**2 * mu**2)
        + (1 - gamma) ** 2 * G**2 / (K * mu**2 * gamma**2)
        + (1 - gamma) * G**2 * log(K * T) / (K * T * mu**2 * gamma**2)
    )


def thm31_explicit(D0, K, T, G, gamma, mu, f0_norm):
    # guide §3.9, the sums written out with η_s = 2/(μ(s + 1)), s = tK + k
    H = 2 * (2 - gamma) * G / gamma
    D_delta = (1 - gamma) * G / gamma

    def eta(step):
        return 2 / (mu * (step + 1))

    every = sum(1 / (step + 1) for step in range(1, K * T + 1))
    drift = sum(
        (t * K + k + 1) * sum(eta(t * K + kappa) for kappa in range(1, k)) ** 2
        for t in range(T)
        for k in range(1, K + 1)
    )
    inner = sum(eta(t * K + k) for t in range(T) for k in range(1, K))
    total = (
        D0
        + 4 * (2 * H**2 + G**2) / mu**2 * every
        + 2 * H**2 * drift
        + 4 * H * D_delta / mu * inner
        + 4 * T * D_delta**2 / mu**2
    )
    return total / (K * T + 1)


def thm31_floor(K, G, gamma, mu, f0_norm):
    # guide §3.9: the last term 4TD_Δ²/μ² over KT + 1, T → ∞
    return 4 * ((1 - gamma) * G / gamma) ** 2 / (K * mu**2)


def cor31(C, T, G, gamma, mu):
    # Corollary 3.1: O(log T/√T) at K = √T
    return C * G**2 * log(T) / (gamma**2 * mu**2 * sqrt(T))


def k_star(T, gamma):
    # minimiser of aK + b/K, a = G²log T/(Tγ²μ²), b = (1 − γ)G²/(μ²γ²): √(b/a)
    a = log(T) / T
    b = 1 - gamma
    return sqrt(b / a)


def balanced(C, T, G, gamma, mu):
    # aK* + b/K* = 2√(ab)
    a = G**2 * log(T) / (T * gamma**2 * mu**2)
    b = (1 - gamma) * G**2 / (mu**2 * gamma**2)
    return C * 2 * sqrt(a * b)


# Theorem 3.2 / D.1
def thm32_terms(D0, K, T, G, gamma, mu, B, omega_TV):
    return [
        D0 / (K * T),
        K * G**2 * log(K * T) / (T * mu**2 * gamma**2),
        (1 - gamma) ** 2 * G**2 / (K * mu**2 * gamma**2),
        G * B * omega_TV / (mu * gamma),
        G**2 * log(T * K) * omega_TV / (gamma**2 * mu**2 * T),
    ]


def thm32(C, **point):
    # Theorem 3.2, five terms
    return C * sum(thm32_terms(**point))


def thmd1(C, **point):
    # Theorem D.1, eq. (40): the first four
    return C * sum(thm32_terms(**point)[:4])


def thm32_radius(C, K, G, gamma, mu, omega_TV):
    # T → ∞ at B = 2G/(μγ)
    B = 2 * G / (mu * gamma)
    return C * ((1 - gamma) ** 2 * G**2 / (K * mu**2 * gamma**2) + G * B * omega_TV / (mu * gamma))


def omega_explicit(G, B, omega_TV, mu, gamma, k0, f0_sup):
    # guide §3.2: 4δ/μ with δ = 2·(2·(2B)·(4G/γ))·ω
    delta = 2 * (2 * (2 * B) * (4 * G / gamma)) * omega_TV
    return 4 * delta / mu


# Theorem 3.3 / E.1
def thm33_terms(D0, K, T, L, B, W2sq, mu, gamma, D, omega_W1, appendix):
    G2 = 2 * L**2 * W2sq + 2 * B**2  # Theorem 3.3's G²
    drift_factor = L * (L * D + B) * omega_W1 + G2 + B**2 if appendix else G2
    return [
        D0 / (K * T),
        K * drift_factor * log(K * T) / (T * mu**2 * gamma**2),
        (1 - gamma) ** 2 * B**2 / (mu**2 * gamma**2 * K),
        (D * L**2 + B * L) * omega_W1 / (gamma**2 * mu),
    ]


def thm33(C, **point):
    return C * sum(thm33_terms(**point, appendix=False))


def thme1(C, **point):
    # (41): K(L(LD + B)ω + G² + B²) in the drift term
    return C * sum(thm33_terms(**point, appendix=True))


def thm33_radius(C, K, L, B, mu, gamma, D, omega_W1):
    return C * (
        (1 - gamma) ** 2 * B**2 / (mu**2 * gamma**2 * K)
        + (D * L**2 + B * L) * omega_W1 / (gamma**2 * mu)
    )


# Theorems F.1–F.3
def sampling(N, m, G2, T, mu, gamma):
    # App. F: (N − m)/(N − 1)·G²log T/(Tμ²mγ²)
    return (N - m) / (N - 1) * G2 * log(T) / (T * mu**2 * m * gamma**2)


def thmf1(C, N, m, **point):
    return thm31(C, **point) + C * sampling(
        N, m, point["G"] ** 2, point["T"], point["mu"], point["gamma"]
    )


def thmf1_corrected(C, N, m, **point):
    return thm31_corrected(C, **point) + C * sampling(
        N, m, point["G"] ** 2, point["T"], point["mu"], point["gamma"]
    )


def thmf2(C, N, m, **point):
    return thm32(C, **point) + C * sampling(
        N, m, point["G"] ** 2, point["T"], point["mu"], point["gamma"]
    )


def thmf3(C, N, m, **point):
    G2 = 2 * point["L"] ** 2 * point["W2sq"] + 2 * point["B"] ** 2
    return thme1(C, **point) + C * sampling(N, m, G2, point["T"], point["mu"], point["gamma"])


# §3.8, from the sums that define them
def _c_k(gamma, K):
    # c_K = Σ_{k=1}^K (1 − γ)^k
    return sum((1 - gamma) ** k for k in range(1, K + 1))


def c_k(gamma, K):
    return _c_k(gamma, K)


def mu_eff(gamma, K, mu):
    # one round moves f along −((K − c_K)∇R + Kμf): R + (μK/(K − c_K))/2‖f‖²
    return mu * K / (K - _c_k(gamma, K))


def square_floor(gamma, K, mu, mbar2):
    # f* = m̄/(1 + μ), f_∞ = m̄/(1 + μ_eff)
    return mbar2 * (1 / (1 + mu) - 1 / (1 + mu_eff(gamma, K, mu))) ** 2


def square_floor_k2(gamma, mu, mbar2):
    return mbar2 * mu**2 * (1 - gamma) ** 2 / (gamma**2 * (1 + mu) ** 4)


def no_residual(gamma, mu):
    # the oracle sees γ∇R: γ∇R + μf = 0
    return mu / gamma


def ffgbl_factor(gamma, K):
    return 1 - _c_k(gamma, K) / K


def alg4_literal(gamma, K):
    # −f_∞/ū = (1/K)Σ_k((1 + γ)^k − 1)
    return sum((1 + gamma) ** k - 1 for k in range(1, K + 1)) / K


THM31_POINT = {"D0": 2.5, "K": 6, "T": 37, "G": 1.3, "gamma": 0.35, "mu": 0.2}
THM32_POINT = {**THM31_POINT, "B": 45.0, "omega_TV": 0.23}  # B ≥ 2G/(μγ) = 37.14
THM33_POINT = {"D0": 2.5, "K": 6, "T": 37, "L": 1.7, "B": 0.8, "W2sq": 0.12, "mu": 1.3,
               "gamma": 0.35, "D": 0.21, "omega_W1": 0.07}  # fmt: skip
PP = {"N": 12, "m": 5}

# fmt: off
PINS = [
    pin("ffgb.eq12", eq12, f_sup=1.5, g_sup=0.7, TV=0.3),
    pin("ffgb.eq15", eq15, f_lip=2.1, g_sup_alpha=0.4, g_lip=1.3, f_sup_alpha=0.9, W1=0.17),
    pin("ffgb.lemma-residual", residual_28, G=1.3, gamma=0.35),
    pin("ffgb.lemma-residual.h", h_28, G=1.3, gamma=0.35),
    pin("ffgb.lemma-iterate", iterate_29, G=1.3, gamma=0.35, mu=0.2, f0_norm=3.0),
    pin("ffgb.lemma-iterate.hhat", hhat_29, G=1.3, gamma=0.35, mu=0.2, f0_norm=3.0),
    pin("ffgb.lemmad1.residual", residual_28, G=1.3, gamma=0.7),
    pin("ffgb.lemmad1.h", h_28, G=1.3, gamma=0.7),
    pin("ffgb.thmd1.b-min", b_min, G=1.3, mu=0.2, gamma=0.35),
    pin("ffgb.lemmad2", lemma_d2, G=1.3, mu=0.2, gamma=0.35, f0_sup=2.0),
    pin("ffgb.lemmad2.corrected", lemma_d2, G=1.3, mu=0.2, gamma=0.35, f0_sup=2.0, k0=5),
    pin("ffgb.lemmae1.residual", e1_residual, B=0.8, gamma=0.35),
    pin("ffgb.lemmae1.h", e1_h, B=0.8, gamma=0.35),
    pin("ffgb.lemmae1.residual-lip", e1_residual_lip, L=1.7, gamma=0.35),
    pin("ffgb.lemmae1.h-lip", e1_lip, L=1.7, gamma=0.35),
    pin("ffgb.lemmae1.g-lip", e1_lip, L=1.7, gamma=0.35, f0_lip=0.5),
    pin("ffgb.lemmae1.g-lip.corrected", e1_lip, L=1.7, gamma=0.35, f0_lip=0.5, k0=4),
    pin("ffgb.lemmae2", e2, B=0.8, gamma=0.35),
    pin("ffgb.lemmae2.corrected", e2_corrected, L=1.7, D=0.21, B=0.8, gamma=0.35, k0=4,
        f0_sup=0.5),
    pin("ffgb.lemmae4", g_s2, L=1.7, W2sq_s=0.12, B=0.8, gamma=0.35),
    pin("ffgb.lemmae4.corrected", g_s2, L=1.7, W2sq_s=0.12, B=0.8, gamma=0.35, k0=4),
    pin("ffgb.lemmae4.global", g2_global, L=1.7, W2sq=0.12, B=0.8, gamma=0.35, k0=4),
    pin("ffgb.thm31", thm31, C=C_PIN, **THM31_POINT),
    pin("ffgb.thm31.corrected", thm31_corrected, C=C_PIN, **THM31_POINT),
    pin("ffgb.thm31.explicit", thm31_explicit, **THM31_POINT, f0_norm=10.0),
    pin("ffgb.thm31.explicit", thm31_explicit, label="K=1", **{**THM31_POINT, "K": 1},
        f0_norm=0.0),
    pin("ffgb.thm31.explicit", thm31_explicit, label="T=0", **{**THM31_POINT, "T": 0},
        f0_norm=0.0),
    pin("ffgb.thm31.floor", thm31_floor, K=6, G=1.3, gamma=0.35, mu=0.2, f0_norm=10.0),
    pin("ffgb.cor31", cor31, C=C_PIN, T=400, G=1.3, gamma=0.35, mu=0.2),
    pin("ffgb.cor31.k-star", k_star, T=400, gamma=0.35),
    pin("ffgb.cor31.balanced", balanced, C=C_PIN, T=400, G=1.3, gamma=0.35, mu=0.2),
    pin("ffgb.thm32", thm32, C=C_PIN, **THM32_POINT),
    pin("ffgb.thmd1", thmd1, C=C_PIN, **THM32_POINT),
    pin("ffgb.thm32.radius", thm32_radius, C=C_PIN, K=6, G=1.3, gamma=0.35, mu=0.2,
        omega_TV=0.23),
    pin("ffgb.thm32.omega-explicit", omega_explicit, G=1.3, B=45.0, omega_TV=0.23, mu=0.2,
        gamma=0.35, k0=5, f0_sup=2.0),
    pin("ffgb.thm33", thm33, C=C_PIN, **THM33_POINT),
    pin("ffgb.thme1", thme1, C=C_PIN, **THM33_POINT),
    pin("ffgb.thm33.radius", thm33_radius, C=C_PIN, K=6, L=1.7, B=0.8, mu=1.3, gamma=0.35,
        D=0.21, omega_W1=0.07),
    pin("ffgb.thmf1", thmf1, C=C_PIN, **THM31_POINT, **PP),
    pin("ffgb.thmf1.corrected", thmf1_corrected, C=C_PIN, **THM31_POINT, **PP),
    pin("ffgb.thmf2", thmf2, C=C_PIN, **THM32_POINT, **PP),
    pin("ffgb.thmf3", thmf3, C=C_PIN, **THM33_POINT, **PP),
    pin("ffgb.limit.c-k", c_k, gamma=0.35, K=6),
    pin("ffgb.limit.mu-eff", mu_eff, gamma=0.35, K=6, mu=0.2),
    pin("ffgb.limit.square-floor", square_floor, gamma=0.35, K=6, mu=0.2, mbar2=1.9),
    pin("ffgb.limit.square-floor.k2", square_floor_k2, gamma=0.35, mu=0.2, mbar2=1.9),
    pin("ffgb.limit.no-residual", no_residual, gamma=0.35, mu=0.2),
    pin("ffgb.limit.ffgbl", ffgbl_factor, gamma=0.35, K=6),
    pin("ffgb.limit.alg4-literal", alg4_literal, gamma=0.35, K=6),
    pin("ffgb.stepsize.ffgbc", lambda s: 4 / (s + 1), s=7),
    pin("ffgb.stepsize.ffgbc.corrected", lambda s, k0: 4 / (s + k0), s=7, k0=5),
]
# fmt: on


@pytest.mark.parametrize("row", [p.param() for p in PINS])
def test_registered_formula_matches_the_paper(row: Pin) -> None:
    bound = bounds.get(row.bound_id)
    assert {name: row.point[name] for name in bound.example} != bound.example
    assert bound.evaluate(**row.point) == pytest.approx(row.formula(**row.point), rel=REL, abs=0)


def test_every_registered_bound_is_pinned() -> None:
    assert {row.bound_id for row in PINS} == set(bounds.ids("ffgb"))


# ---------------------------------------------------------------------------- sympy limits
def _sym(name: str) -> sp.Symbol:
    return bounds.get("ffgb.thm31").symbols.get(name) or bounds.get("ffgb.thm33").symbols[name]


T, K, G, gamma, mu, C = (_sym(n) for n in ("T", "K", "G", "gamma", "mu", "C"))


def test_thm31_floor_is_the_limit_in_T() -> None:
    """guide §3.3: the printed floor C(1 − γ)G²/(Kγ²μ²), the corrected one with (1 − γ)²."""
    printed = sp.limit(bounds.get("ffgb.thm31").expr, T, sp.oo)
    corrected = sp.limit(bounds.get("ffgb.thm31.corrected").expr, T, sp.oo)
    assert sp.simplify(printed - C * (1 - gamma) * G**2 / (K * gamma**2 * mu**2)) == 0
    assert sp.simplify(corrected - C * (1 - gamma) ** 2 * G**2 / (K * gamma**2 * mu**2)) == 0
    # the explicit floor is the corrected one at C = 4
    floor = bounds.get("ffgb.thm31.floor").expr
    assert sp.simplify(floor - (corrected / C) * 4) == 0


def test_explicit_bound_tends_to_its_floor() -> None:
    """ffgb.thm31.explicit → ffgb.thm31.floor as T → ∞: every other term is O(log T/T) after
    the division by KT + 1, so the excess times T/log T stays bounded."""
    explicit = bounds.get("ffgb.thm31.explicit")
    point = {"D0": 1.0, "K": 2, "G": 1.0, "gamma": 0.5, "mu": 0.5, "f0_norm": 0.0}
    floor = bounds.get("ffgb.thm31.floor").evaluate(K=2, G=1.0, gamma=0.5, mu=0.5, f0_norm=0)
    excess = []
    for horizon in (100, 1000, 10000, 100000):
        value = explicit.evaluate(**point, T=horizon)
        assert value > floor * (2 * horizon) / (2 * horizon + 1)  # the other terms are ≥ 0
        excess.append((value - floor) * horizon / log(horizon))
    assert excess == sorted(excess, reverse=True)  # ~ c + c'/log T
    assert excess[-1] < 1.1 * excess[-2]
    # 1.4% above the floor at T = 10⁵: the approach is slow, like log T/T
    assert (explicit.evaluate(**point, T=100000) - floor) / floor < 0.02


def test_explicit_bound_at_gamma_one_decays_like_log_t_over_t() -> None:
    explicit = bounds.get("ffgb.thm31.explicit")
    point = {"D0": 1.0, "K": 3, "G": 1.0, "gamma": 1.0, "mu": 0.5, "f0_norm": 0.0}
    assert bounds.get("ffgb.thm31.floor").evaluate(K=3, G=1.0, gamma=1.0, mu=0.5, f0_norm=0) == 0
    ratios = [explicit.evaluate(**point, T=t) * t / log(t) for t in (1000, 10000, 100000)]
    assert ratios == sorted(ratios, reverse=True) and ratios[-1] > 0.8 * ratios[0]


def test_corollary_31_is_theorem_31_at_k_equal_root_t() -> None:
    """guide §3.4: thm31(K = √T)·√T/log T → 3C G²/(2γ²μ²) (the drift term with log(T^{3/2}))."""
    at_root = bounds.get("ffgb.thm31").expr.subs(K, sp.sqrt(T))
    assert sp.limit(at_root * sp.sqrt(T) / sp.log(T), T, sp.oo) == sp.Rational(3, 2) * C * G**2 / (
        gamma**2 * mu**2
    )
    assert sp.limit(at_root / bounds.get("ffgb.cor31").expr, T, sp.oo) == sp.Rational(3, 2)
    assert bounds.get("ffgb.cor31").exponent("T").power == sp.Rational(-1, 2)


def test_k_star_balances_the_drift_and_floor_terms() -> None:
    a = G**2 * sp.log(T) / (T * gamma**2 * mu**2)
    b = (1 - gamma) * G**2 / (mu**2 * gamma**2)
    k_star_expr = bounds.get("ffgb.cor31.k-star").expr
    objective = a * K + b / K
    assert sp.simplify(sp.diff(objective, K).subs(K, k_star_expr)) == 0
    balanced_expr = bounds.get("ffgb.cor31.balanced").expr
    # sympy needs log T > 0 and 1 − γ > 0 (T ≥ 2, γ < 1) to take the square roots apart
    ell, gap = sp.symbols("ell gap", positive=True)
    difference = (C * objective.subs(K, k_star_expr) - balanced_expr).subs(sp.log(T), ell)
    assert sp.simplify(difference.subs(gamma, 1 - gap)) == 0
    assert bounds.get("ffgb.cor31.balanced").exponent("T").power == sp.Rational(-1, 2)


def test_radii_are_the_limits_in_T() -> None:
    B, omega = bounds.get("ffgb.thm32").symbols["B"], bounds.get("ffgb.thm32").symbols["omega_TV"]
    radius = bounds.get("ffgb.thm32.radius").expr
    for bound_id in ("ffgb.thm32", "ffgb.thmd1"):
        limit = sp.limit(bounds.get(bound_id).expr.subs(B, 2 * G / (mu * gamma)), T, sp.oo)
        assert sp.simplify(limit - radius) == 0, bound_id
    # the explicit ω term is the radius term at C = 128 (with B kept)
    explicit = bounds.get("ffgb.thm32.omega-explicit").expr
    assert sp.simplify(explicit - 128 * G * B * omega / (mu * gamma)) == 0
    radius33 = bounds.get("ffgb.thm33.radius").expr
    for bound_id in ("ffgb.thm33", "ffgb.thme1"):
        assert sp.simplify(sp.limit(bounds.get(bound_id).expr, T, sp.oo) - radius33) == 0


@pytest.mark.parametrize(
    ("partial", "full"),
    [
        ("ffgb.thmf1", "ffgb.thm31"),
        ("ffgb.thmf1.corrected", "ffgb.thm31.corrected"),
        ("ffgb.thmf2", "ffgb.thm32"),
        ("ffgb.thmf3", "ffgb.thme1"),
    ],
)
def test_partial_participation_adds_the_sampling_term(partial: str, full: str) -> None:
    extra = sp.simplify(bounds.get(partial).expr - bounds.get(full).expr)
    symbols = bounds.get(partial).symbols
    N, m = symbols["N"], symbols["m"]
    if partial == "ffgb.thmf3":
        L, B, W2sq = symbols["L"], symbols["B"], symbols["W2sq"]
        g2 = 2 * L**2 * W2sq + 2 * B**2
    else:
        g2 = G**2
    assert (
        sp.simplify(extra - C * (N - m) / (N - 1) * g2 * sp.log(T) / (T * mu**2 * m * gamma**2))
        == 0
    )
    assert sp.simplify(extra.subs(m, N)) == 0


def test_square_floor_times_k_squared_tends_to_the_1_over_k2_constant() -> None:
    """guide §3.8: K²·floor → ‖m̄‖²μ²(1 − γ)²/(γ²(1 + μ)⁴), both at a rational γ (where sympy
    takes the limit through (1 − γ)^K) and symbolically with c_K at its limit (1 − γ)/γ."""
    floor = bounds.get("ffgb.limit.square-floor").expr
    k2 = bounds.get("ffgb.limit.square-floor.k2").expr
    half = sp.Rational(1, 2)
    assert (
        sp.simplify(sp.limit(K**2 * floor.subs(gamma, half), K, sp.oo) - k2.subs(gamma, half)) == 0
    )
    c_inf = (1 - gamma) / gamma
    mbar2 = bounds.get("ffgb.limit.square-floor").symbols["mbar2"]
    tail = mbar2 * (1 / (1 + mu) - 1 / (1 + mu * K / (K - c_inf))) ** 2
    assert sp.simplify(sp.limit(K**2 * tail, K, sp.oo) - k2) == 0
    # the guide's numbers (μ = 0.1, γ = 0.5, ‖m̄‖ = 1): 0.00825, 0.00696, 0.00684 → 0.00683
    square = bounds.get("ffgb.limit.square-floor")
    values = [k**2 * square.evaluate(gamma=0.5, K=k, mu=0.1, mbar2=1) for k in (10, 100, 1000)]
    assert [round(v, 5) for v in values] == [0.00825, 0.00696, 0.00684]
    limit = bounds.get("ffgb.limit.square-floor.k2").evaluate(gamma=0.5, mu=0.1, mbar2=1)
    assert round(limit, 5) == 0.00683
    assert square.exponent("K", mu=0.1, gamma=0.5, mbar2=1).power == -2


def test_limit_constants_are_the_sums_they_name() -> None:
    k = sp.Symbol("k", integer=True, positive=True)
    c_k = bounds.get("ffgb.limit.c-k").expr
    assert sp.simplify(sp.summation((1 - gamma) ** k, (k, 1, K)) - c_k) == 0
    alg4 = bounds.get("ffgb.limit.alg4-literal").expr
    assert sp.simplify(sp.summation((1 + gamma) ** k - 1, (k, 1, K)) / K - alg4) == 0
    mu_eff = bounds.get("ffgb.limit.mu-eff").expr
    no_residual = bounds.get("ffgb.limit.no-residual").expr
    assert sp.simplify(mu_eff.subs(K, 1) - no_residual) == 0  # K = 1 is the no-residual variant
    assert sp.simplify(mu_eff.subs(gamma, 1) - mu) == 0  # an exact oracle has no bias
    assert sp.simplify(bounds.get("ffgb.limit.ffgbl").expr - (1 - c_k / K)) == 0
    assert sp.limit(c_k.subs(gamma, sp.Rational(1, 3)), K, sp.oo) == 2  # (1 − γ)/γ


def test_step_size_erratum() -> None:
    printed = bounds.get("ffgb.stepsize.ffgbc")
    corrected = bounds.get("ffgb.stepsize.ffgbc.corrected")
    assert printed.evaluate(s=1) == 2 and printed.evaluate(s=2) == pytest.approx(4 / 3)
    assert printed.evaluate(s=3) == 1
    steps = np.arange(1, 200)
    assert np.all(corrected.evaluate(s=steps, k0=3) <= 1)
    with pytest.raises(ConditionError, match="k0"):
        corrected.evaluate(s=1, k0=1)


# ---------------------------------------------------------------------------- against runs
def _ffgb_square(
    m_i: np.ndarray, mu_: float, gamma_: float, K_: int, T_: int, residual: bool
) -> np.ndarray:
    """FFGB (Alg. 2) on the square loss with the scale oracle h = γφ, α uniform on the atoms."""
    N_, P = m_i.shape
    f = np.zeros(P)
    for t in range(T_):
        g = np.repeat(f[None], N_, axis=0)
        delta = np.zeros((N_, P))
        for k in range(1, K_ + 1):
            eta = 2 / (mu_ * (t * K_ + k + 1))
            phi = (delta if residual else 0) + (g - m_i)
            h = gamma_ * phi
            if residual:
                delta = phi - h
            g = g - eta * (h + mu_ * g)
        f = g.mean(axis=0)
    return f


@pytest.mark.parametrize(("mu_", "gamma_", "K_"), [(0.5, 0.5, 4), (1.0, 0.3, 2), (2.0, 0.7, 8)])
def test_square_floor_is_the_limit_of_ffgb(mu_: float, gamma_: float, K_: int) -> None:
    """B1 (quadratic version): the error after T rounds is the floor + c/T; the Richardson
    combination (4·err(4T₀) − err(T₀))/3 removes the 1/T term and matches to 1e-4."""
    rng = np.random.default_rng(7)
    m_i = rng.normal(size=(3, 5))
    mbar = m_i.mean(axis=0)
    fstar = mbar / (1 + mu_)
    errors = [
        np.mean((_ffgb_square(m_i, mu_, gamma_, K_, horizon, True) - fstar) ** 2)
        for horizon in (300, 1200)
    ]
    extrapolated = (4 * errors[1] - errors[0]) / 3
    predicted = bounds.get("ffgb.limit.square-floor").evaluate(
        gamma=gamma_, K=K_, mu=mu_, mbar2=float(np.mean(mbar**2))
    )
    assert extrapolated == pytest.approx(predicted, rel=1e-4)
    assert abs(errors[1] - predicted) < abs(errors[0] - predicted) / 3  # the transient is O(1/T)


def test_no_residual_limit_regularises_with_mu_over_gamma() -> None:
    rng = np.random.default_rng(8)
    m_i = rng.normal(size=(3, 5))
    mu_eff = bounds.get("ffgb.limit.no-residual").evaluate(gamma=0.4, mu=0.5)
    for K_ in (1, 6):  # the transient decays like s^(−2(γ+μ)/μ) = s^(−3.6)
        f = _ffgb_square(m_i, 0.5, 0.4, K_, 2000, residual=False)
        assert np.max(np.abs(f - m_i.mean(axis=0) / (1 + mu_eff))) < 1e-12
    # with the residual and K = 1 the iterates are those of the no-residual variant (A5)
    assert np.array_equal(
        _ffgb_square(m_i, 0.5, 0.4, 1, 50, residual=True),
        _ffgb_square(m_i, 0.5, 0.4, 1, 50, residual=False),
    )


def _ffgbl(u: np.ndarray, gamma_: float, K_: int, T_: int, literal: bool) -> np.ndarray:
    """FFGB.L (Alg. 4) with the scale oracle and steps 4/(tK + k + 3): the corrected query
    WO(u_i − Δ) or the printed WO(Δ − u_i)."""
    N_, P = u.shape
    f = np.zeros(P)
    for t in range(T_):
        g = np.repeat(f[None], N_, axis=0)
        delta = np.zeros((N_, P))
        for k in range(1, K_ + 1):
            eta = 4 / (t * K_ + k + 3)
            h = gamma_ * ((delta - u) if literal else (u - delta))
            delta = delta - u + h
            g = (1 - eta) * g + eta * h
        f = g.mean(axis=0)
    return f


@pytest.mark.parametrize(("gamma_", "K_"), [(0.5, 4), (0.3, 2)])
def test_ffgbl_limits_corrected_and_literal(gamma_: float, K_: int) -> None:
    """B3 and D3: FFGB.L converges to (1 − c_K/K)ū, the literal Alg. 4 to −(1/K)Σ((1+γ)^k−1)ū
    (Richardson in T as above)."""
    rng = np.random.default_rng(9)
    u = rng.normal(size=(3, 5))
    ubar = u.mean(axis=0)
    for literal, bound_id, sign in (
        (False, "ffgb.limit.ffgbl", 1),
        (True, "ffgb.limit.alg4-literal", -1),
    ):
        factor = sign * bounds.get(bound_id).evaluate(gamma=gamma_, K=K_)
        runs = [_ffgbl(u, gamma_, K_, horizon, literal) for horizon in (300, 1200)]
        extrapolated = (4 * runs[1] - runs[0]) / 3
        assert np.max(np.abs(extrapolated - factor * ubar)) < 1e-5 * np.max(np.abs(ubar))


def _logistic_fstar(qbar: np.ndarray, mu_: float) -> np.ndarray:
    v = np.zeros_like(qbar)
    for _ in range(100):
        sig = 1 / (1 + np.exp(-v))
        v = v - (sig + mu_ * v - qbar) / (sig * (1 - sig) + mu_)
    return v


def _ffgb_logistic(
    q: np.ndarray, mu_: float, gamma_: float, K_: int, T_: int, oracle: str
) -> np.ndarray:
    """FFGB on binary logistic with α uniform; the oracles attain (9) with equality:
    scale h = γφ, biased h = φ − (1 − γ)‖φ‖v (v a fixed unit vector), adversarial
    h = φ − (1 − γ)‖φ‖(g − f*)/‖g − f*‖."""
    N_, P = q.shape
    fstar = _logistic_fstar(q.mean(axis=0), mu_)
    direction = np.ones(P)  # unit in L²(α), α uniform

    def norm(x: np.ndarray) -> np.ndarray:
        return np.sqrt(np.mean(x**2, axis=-1, keepdims=True))

    f = np.zeros(P)
    for t in range(T_):
        g = np.repeat(f[None], N_, axis=0)
        delta = np.zeros((N_, P))
        for k in range(1, K_ + 1):
            eta = 2 / (mu_ * (t * K_ + k + 1))
            phi = delta + 1 / (1 + np.exp(-g)) - q
            if oracle == "scale":
                h = gamma_ * phi
            else:
                v = (
                    direction
                    if oracle == "biased"
                    else (g - fstar) / np.maximum(norm(g - fstar), 1e-300)
                )
                h = phi - (1 - gamma_) * norm(phi) * v
            assert np.all(norm(h - phi) <= (1 - gamma_) * norm(phi) * (1 + 1e-12) + 1e-300)
            delta = phi - h
            g = g - eta * (h + mu_ * g)
        f = g.mean(axis=0)
    return float(np.mean((f - fstar) ** 2))


@pytest.mark.parametrize("oracle", ["scale", "biased", "adversarial"])
@pytest.mark.parametrize(("gamma_", "K_"), [(0.3, 1), (0.7, 4)])
def test_explicit_theorem_31_holds_on_logistic_runs(oracle: str, gamma_: float, K_: int) -> None:
    """C1 in miniature: binary logistic (G = 1), f⁰ = 0, error ≤ the explicit bound at every
    T checked, and the long-run error ≤ the explicit floor."""
    rng = np.random.default_rng(10)
    q = np.clip(rng.uniform(0.2, 0.8, size=8)[None] + rng.uniform(-0.5, 0.5, size=(4, 8)), 0, 1)
    explicit = bounds.get("ffgb.thm31.explicit")
    mu_ = 0.1
    d0 = float(np.mean(_logistic_fstar(q.mean(axis=0), mu_) ** 2))
    for horizon in (5, 40):
        error = _ffgb_logistic(q, mu_, gamma_, K_, horizon, oracle)
        bound = explicit.evaluate(D0=d0, K=K_, T=horizon, G=1, gamma=gamma_, mu=mu_, f0_norm=0)
        assert 0 < error <= bound
    floor = bounds.get("ffgb.thm31.floor").evaluate(K=K_, G=1, gamma=gamma_, mu=mu_, f0_norm=0)
    assert _ffgb_logistic(q, mu_, gamma_, K_, 300, oracle) <= floor


# ---------------------------------------------------------------------------- D4
def test_dimension_audit_flags_exactly_the_printed_fourth_term_of_theorem_31() -> None:
    flagged = {(bound_id, item.index) for bound_id, item in dimension_audit(THEOREMS)}
    # F.1 repeats Theorem 3.1's fourth term verbatim
    assert flagged == {("ffgb.thm31", 4), ("ffgb.thmf1", 4)}
    [(_, fourth)] = dimension_audit("ffgb.thm31")
    F, L0 = sp.symbols("F L0", positive=True)
    assert fourth.unit == L0 and fourth.expected == F**2
    corrected = term_units("ffgb.thm31.corrected")
    assert [item.unit for item in corrected] == [F**2] * 4
    assert all(item.consistent for item in corrected)


def test_dimension_audit_of_every_ffgb_bound() -> None:
    """Among all bounds only one more is flagged: Lemma E.4 as printed bounds a norm (F) by a
    squared norm (F²); its correction passes. The square-loss statements need ℓ ~ F²."""
    flagged = {(bound_id, item.index) for bound_id, item in dimension_audit()}
    assert flagged == {("ffgb.thm31", 4), ("ffgb.thmf1", 4), ("ffgb.lemmae4", 1)}
    F = sp.symbols("F", positive=True)
    assert [item.unit for item in term_units("ffgb.lemmae4")] == [F**2]
    assert all(item.consistent for item in term_units("ffgb.lemmae4.corrected"))
    # every registered expression is the sum of its audited terms (times C for order bounds)
    for bound_id in bounds.ids("ffgb"):
        bound = bounds.get(bound_id)
        total = sp.Add(*(item.term for item in term_units(bound_id)))
        assert bound.expr == (C * total if bound.is_order else total), bound_id


def test_units_table_follows_d4() -> None:
    F, L0, X = sp.symbols("F L0 X", positive=True)
    assert UNITS["G"] == L0 / F and UNITS["mu"] == L0 / F**2
    assert (UNITS["B"], UNITS["L"], UNITS["D"], UNITS["omega_W1"]) == (F, F / X, X, X)
    assert all(UNITS[n] == 1 for n in ("omega_TV", "gamma", "K", "T", "N", "m"))


def test_unit_of_catches_inconsistent_expressions() -> None:
    F, L0 = sp.symbols("F L0", positive=True)
    G_, mu_, K_ = sp.symbols("G mu K", positive=True)
    units = {G_: L0 / F, mu_: L0 / F**2, K_: sp.Integer(1)}
    assert unit_of(G_**2 / mu_**2 * sp.log(K_), units) == F**2
    with pytest.raises(DimensionError, match="adds"):
        unit_of(G_ + mu_, units)
    with pytest.raises(DimensionError, match="log"):
        unit_of(sp.log(G_), units)
    with pytest.raises(DimensionError, match="no unit"):
        unit_of(G_ * sp.Symbol("z"), units)
    with pytest.raises(ParameterError, match="registered ffgb bound"):
        term_units("classic.gd.strongly-convex")


# ---------------------------------------------------------------------------- bad input
THM31 = bounds.get("ffgb.thm31")
THM31_VALUES = {**THM31.example, "C": 1}


@pytest.mark.parametrize(
    ("changes", "parameter", "rule"),
    [
        ({"gamma": 0}, "gamma", "positive"),
        ({"gamma": -0.5}, "gamma", "positive"),
        ({"mu": 0}, "mu", "positive"),
        ({"mu": -1}, "mu", "positive"),
        ({"K": 0}, "K", "positive"),
        ({"K": 2.5}, "K", "integer"),
        ({"T": -1}, "T", "nonnegative"),
    ],
)
def test_domains_are_refused_with_parameter_error(changes: dict, parameter: str, rule: str) -> None:
    with pytest.raises(ParameterError) as raised:
        THM31.evaluate(**{**THM31_VALUES, **changes})
    assert raised.value.parameter == parameter
    assert rule in str(raised.value)


@pytest.mark.parametrize(
    ("bound_id", "changes", "fragment"),
    [
        ("ffgb.thm31", {"gamma": 1.5}, "gamma ≤ 1"),
        ("ffgb.thm31.explicit", {"gamma": 1.01}, "gamma ≤ 1"),
        ("ffgb.thm31.explicit", {"f0_norm": 31.0}, "f0_norm"),
        ("ffgb.thmd1", {"B": 39.0}, "B ≥"),
        ("ffgb.thm32.omega-explicit", {"B": 19.0}, "B ≥"),
        ("ffgb.thm32", {"omega_TV": 1.2}, "omega_TV ≤ 1"),
        ("ffgb.thmf1", {"m": 11}, "m ≤ N"),
        ("ffgb.thmf2", {"N": 1, "m": 1}, "N ≥ 2"),
        ("ffgb.lemmad2.corrected", {"k0": 2}, "k0 ≥ 3"),
        ("ffgb.lemmad2", {"f0_sup": 41.0}, "f0_sup"),
        ("ffgb.cor31", {"gamma": 1}, "gamma < 1"),
        ("ffgb.cor31.k-star", {"T": 1}, "T ≥ 2"),
        ("ffgb.eq12", {"TV": 1.5}, "TV ≤ 1"),
    ],
)
def test_hypotheses_are_enforced(bound_id: str, changes: dict, fragment: str) -> None:
    bound = bounds.get(bound_id)
    values = {**bound.example, **dict.fromkeys(bound.constants, 1), **changes}
    with pytest.raises(ConditionError) as raised:
        bound.evaluate(**values)
    assert raised.value.bound_id == bound_id
    assert fragment in raised.value.hypothesis
    assert str(changes[next(iter(changes))]).rstrip("0").rstrip(".") in str(raised.value)
    try:  # outside the hypotheses the formula is evaluated where it is defined
        value = bound.evaluate(**values, check=False)
    except ParameterError as error:  # (N − m)/(N − 1) at N = 1, 1/log T at T = 1
        assert "undefined" in str(error) and changes in ({"N": 1, "m": 1}, {"T": 1})
    else:
        assert math.isfinite(value)


def test_bad_input_message_names_value_and_rule() -> None:
    with pytest.raises(ConditionError) as raised:
        bounds.get("ffgb.thmd1").evaluate(**{**bounds.get("ffgb.thmd1").example, "C": 1, "B": 10})
    message = str(raised.value)
    assert "B" in message and "10" in message and "2*G/(gamma*mu)" in message
    assert "Theorem D.1" in message
