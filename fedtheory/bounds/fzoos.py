"""Bounds of Shu, Lin, Dai & Low, “Federated Zeroth-Order Optimization using Trajectory-Informed
Surrogate Gradients” (FZooS, paper key ``fzoos``).

Equation numbers are the paper's, (1)–(99); the reading guide ``shared/theory/fzoos.md`` (§3,
§5 checks, §6 errata) derives the forms registered with status ``corrected`` or ``derived``,
whose printed forms are kept next to them.

Notation
--------
The paper's symbols are kept; where they clash with :data:`~fedtheory.bounds.COMMON` this
vocabulary redeclares them: ``N`` clients, ``R`` rounds, ``T`` local steps per round, ``M``
random features, ``kappa`` the kernel-gradient bound κ, ``L`` the kernel bound of Lemma C.4,
``gamma`` the correction length. ``eps`` is the RFF error ε of Theorem 1, ``epsilon`` the
target accuracy of Theorem 2, ``eps_n`` the noise bound of Lemma D.1 (the paper's three ε).

Pathwise statements (what the caller measures)
----------------------------------------------
Lemma C.11 and Theorem C.1 are deterministic given the disparities
Ξ_{r+1,t}^{(i)} = ‖ĝ_{r+1,t−1}^{(i)} − ∇F(x_{r+1,t−1}^{(i)})‖² of every step of every client
(the direction actually used at step t of round r + 1 against the exact global gradient at the
point where it was used). A run logs them as an array ``Xi_log`` of shape (R + 1, N, T), round
r + 1 at index r (r = 0, …, R). The bounds read two flattened client sums, whose definition
depends on the log alone (no symbol of the bound):

- ``Xi[r·T + t − 1] = Σ_i Ξ_{r+1,t}^{(i)}`` — ``Xi_log.sum(axis=1).ravel()``;
- ``Xi_sqrt[r·T + t − 1] = Σ_i (Ξ_{r+1,t}^{(i)})^{1/2}`` — ``np.sqrt(Xi_log).sum(axis=1).ravel()``;

:func:`theorem_c1_sequences` makes both from the log. The discounted drift sums
Σ_tΣ_{τ≤t}S^{t−τ}Ξ_{r+1,τ} are written in the expressions (S depends on T). Evaluating
Theorem C.1 on a (51, 5, 10) log takes 1–6 ms after the first call (Python sums over 510 entries).
Lemma C.11 is registered for one client and one round (``xi[τ − 1] = Ξ_{r+1,τ}^{(i)}``);
:func:`lemma_c11_rhs` evaluates it at every (r, i, t) of a log at once (vectorised numpy,
the same formula; tests/test_fzoos_bounds.py checks the two agree).

==================================================  =============================================
id                                                  statement
==================================================  =============================================
``fzoos.prop1.disparity``                           Ξ(γ) = ‖e‖² − 2γeᵀc + γ²‖c‖²  (9)
``fzoos.prop1.gamma-star`` / ``.eq10``              γ* = eᵀc/‖c‖² / (10) as printed: eᵀc/‖c‖
``fzoos.prop1.min``                                 Ξ(γ*) = ‖e‖² − (eᵀc)²/‖c‖²  (11)
``fzoos.thm1`` / ``.rho-max`` / ``.per-client``     Thm 1 with ρ = mean ρ_i / ρ_max / (36b)
``fzoos.cor1.gamma`` / ``.eq37``                    γ = G/(G + 2ωκρ^{(r−1)T} + 2Nε) / no κ
``fzoos.cor1.value`` / ``.eq38b``                   (38b) with κ / as printed (no κ)
``fzoos.cor1.value.sqrt`` / ``.split``              (38c) / (38d)
``fzoos.lemmac1`` / ``.omega``                      ‖∇μ − ∇f‖² ≤ ω‖∂σ²‖, ω = d + 2(√d+1)ln(1/δ)
``fzoos.lemmac2``                                   Laurent–Massart χ² tail
``fzoos.lemmac3.kernel`` / ``.gradient``            RFF: √(8ln(2/δ)/M), √(4V/(Mδ))
``fzoos.lemmac4`` / ``.squared``                    explicit (25) / (26) “O(1/M)”
``fzoos.lemmac5.young`` / ``.sum`` / ``.jensen``    (27) / (28) / (29)
``fzoos.lemmac6.decay`` / ``.rho-lower``            ‖∂σ²‖ ≤ κρ_i^{(r−1)T+t} / ρ_i ≥ σ²/(1+σ²)
``fzoos.lemmac6.omega`` / ``.others`` / ``.own``    ω with ln(2NRT/δ) / (33) / (34)
``fzoos.propc1`` / ``.subtracted``                  Prop. C.1 (47) / its subtracted term ≤ ωκ/(e·d)
``fzoos.corc1.gamma``                               Cor. C.1's γ
``fzoos.lemmac8``, ``c9``, ``c9.strongly-convex``   perturbed strong convexity / (1+ηβ)² / (54)
``fzoos.lemmac10``                                  ‖∇f‖² ≤ 2β(f − f*)
==================================================  =============================================

Lemma C.11, Theorem C.1 and Theorem 2 live in :mod:`fedtheory.bounds._fzoos_convergence`,
Appendix D (Lemma D.1, Propositions D.1–D.4, Theorem D.1) in
:mod:`fedtheory.bounds._fzoos_baselines` (both registered on import of this module). Not
registered: Lemma C.7 (AᵀA and AAᵀ share non-zero eigenvalues: a fact, not a bound).
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds import _fzoos_baselines  # noqa: F401  (registers Appendix D)
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._fzoos_convergence import (
    EQ69_PRINTED,
    lemma_c11_rhs,
    theorem_c1_sequences,
)
from fedtheory.bounds._fzoos_vocabulary import (
    DELTA_LT_1,
    DISPARITY,
    DISPARITY_TEX,
    F_UNIT,
    GAMMA_LE_1,
    GRAD2,
    ONE,
    RHO_LE_1,
    RHO_MAX_LE_1,
    T_LE,
    UNITS,
    X_UNIT,
    G,
    L,
    M,
    N,
    R,
    T,
    V_rff,
    a,
    alpha,
    alpha0,
    beta,
    cc,
    d,
    delta,
    dimension_audit,
    dxy2,
    dyz2,
    dzx2,
    ec,
    ee,
    eps,
    eps_lm,
    eta,
    fyz,
    gamma,
    gap,
    h,
    k0,
    k_index,
    kappa,
    omega,
    r,
    register_terms,
    rho,
    rho_i,
    rho_max,
    sig,
    sig_others,
    sigma2,
    t,
    tau,
    term_units,
    v2,
    vi2,
    vj2,
)

__all__ = [
    "EQ69_PRINTED",
    "UNITS",
    "dimension_audit",
    "lemma_c11_rhs",
    "term_units",
    "theorem_c1_sequences",
]

_cite = Citation

# ====================================================================== Proposition 1 (C.1)
_PROP1 = (
    "With e = ∇F(x_{r,t−1}^{(i)}) − g_{r,t−1}^{(i)} and the correction vector c = g_{r−1}(x′) − "
    "g_{r−1}^{(i)}(x″) ≠ 0, the disparity of (2) is Ξ(γ) = ‖e − γc‖²"
)
_PROP1_EXAMPLE = {"ee": 2.0, "ec": 0.8, "cc": 1.0}
register_terms(
    "fzoos.prop1.disparity",
    [ee, -2 * gamma * ec, gamma**2 * cc],
    kind="exact",
    unit=GRAD2,
    source=_cite("fzoos", "App. C.1, eq. (9)"),
    quantity="Ξ_{r,t}^{(i)}(γ) = ‖ĝ_{r,t−1}^{(i)} − ∇F(x_{r,t−1}^{(i)})‖² as a function of γ",
    quantity_latex=r"\Xi(\gamma)",
    statement=_PROP1 + " = ‖e‖² − 2γeᵀc + γ²‖c‖², a quadratic in γ (9).",
    example={**_PROP1_EXAMPLE, "gamma": 0.5},
)
register_terms(
    "fzoos.prop1.gamma-star",
    [ec / cc],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Proposition 1 (main text)"),
    quantity="γ* = argmin_γ Ξ(γ)",
    quantity_latex=r"\gamma^{*}",
    statement=_PROP1 + ", minimised at γ* = eᵀc/‖c‖² (main text, ‖c‖^{−2}).",
    example=_PROP1_EXAMPLE,
)
register_terms(
    "fzoos.prop1.gamma-star.eq10",
    [ec / sp.sqrt(cc)],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "App. C.1, eq. (10)"),
    quantity="γ* = argmin_γ Ξ(γ)",
    quantity_latex=r"\gamma^{*}",
    statement=(
        _PROP1 + ". As printed in (10): γ* = eᵀc/‖c‖, the square of the denominator lost "
        "(guide §6.11); wrong unless ‖c‖ = 1 (and dimensionally inconsistent)."
    ),
    example=_PROP1_EXAMPLE,
)
register_terms(
    "fzoos.prop1.min",
    [ee, -(ec**2) / cc],
    kind="exact",
    unit=GRAD2,
    source=_cite("fzoos", "App. C.1, eq. (11)"),
    quantity="min_γ Ξ(γ) = Ξ(γ*)",
    quantity_latex=r"\Xi(\gamma^{*})",
    statement=(
        _PROP1 + "; its minimum is ‖e‖² − (eᵀc)²/‖c‖² (11), zero iff e ∥ c (and for γ* = 1 "
        "iff c = e)."
    ),
    example=_PROP1_EXAMPLE,
)

# ====================================================================== Theorem 1, Corollary 1
_n_local = (r - 1) * T + t - 1
_n_round = (r - 1) * T
_THM1 = (
    "FZooS direction (8), f_i ~ GP with kernel-gradient bound κ, heterogeneity G, RFF error ε "
    "(‘O(1/M)’), ω of Lemma C.6; with constant probability the mean disparity is at most "
    "term ① 4ωκρ^{(r−1)T+t−1} (local GP error) + γ²(8ωκρ^{(r−1)T} + 8Nε) (correction error) "
    "+ (1 − γ)²·4G (heterogeneity)"
)
_THM1_EXAMPLE = {
    "omega": 10.0,
    "kappa": 1.0,
    "r": 2,
    "T": 5,
    "t": 3,
    "gamma": 0.5,
    "N": 5,
    "eps": 0.01,
    "G": 1.0,
}


def _thm1_terms(decay: sp.Expr) -> list[sp.Expr]:
    return [
        4 * omega * kappa * decay**_n_local,
        gamma**2 * (8 * omega * kappa * decay**_n_round + 8 * N * eps),
        (1 - gamma) ** 2 * 4 * G,
    ]


register_terms(
    "fzoos.thm1",
    _thm1_terms(rho),
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Theorem 1 (proof App. C.2, (35)–(36))"),
    quantity=DISPARITY,
    quantity_latex=DISPARITY_TEX,
    statement=(
        _THM1 + ", as printed with ρ = (1/N)Σ_iρ_i. Not implied by its proof (guide §6.2, "
        "check 24): (36c) applies Jensen in the wrong direction — mean_i ρ_i^n ≥ (mean_i ρ_i)^n "
        "— so the claim that one client with ρ_i < 1 suffices is unsupported."
    ),
    hypotheses=[RHO_LE_1, GAMMA_LE_1, T_LE],
    example={**_THM1_EXAMPLE, "rho": 0.9},
)
register_terms(
    "fzoos.thm1.rho-max",
    _thm1_terms(rho_max),
    kind="upper",
    unit=GRAD2,
    status="corrected",
    source=_cite("fzoos", "Theorem 1 with ρ_max = max_iρ_i (guide §3, §6.2)"),
    quantity=DISPARITY,
    quantity_latex=DISPARITY_TEX,
    statement=(
        _THM1 + ", with ρ replaced by ρ_max = max_iρ_i: (36b) ≤ this because ρ_i^n ≤ ρ_max^n "
        "for every client. ρ_max = 1 for the SE kernel whenever a client has fewer than d "
        "queries (guide §0.4), which makes terms ① and ② constant."
    ),
    hypotheses=[RHO_MAX_LE_1, GAMMA_LE_1, T_LE],
    example={**_THM1_EXAMPLE, "rho_max": 0.95},
)
register_terms(
    "fzoos.thm1.per-client",
    [
        4 * omega * kappa * sp.Sum(rho_i[k_index - 1] ** _n_local, (k_index, 1, N)) / N,
        gamma**2
        * (
            8 * omega * kappa * sp.Sum(rho_i[k_index - 1] ** _n_round, (k_index, 1, N)) / N
            + 8 * N * eps
        ),
        (1 - gamma) ** 2 * 4 * G,
    ],
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=_cite("fzoos", "proof of Theorem 1, (36b) (before Jensen)"),
    quantity=DISPARITY,
    quantity_latex=DISPARITY_TEX,
    statement=(
        _THM1.replace("ρ^{(r−1)T+t−1}", "(1/N)Σ_iρ_i^{(r−1)T+t−1}")
        + ", the form (36b) that the proof establishes, with the clients' own decays ρ_i "
        "(entry i − 1 of rho_i)."
    ),
    hypotheses=[GAMMA_LE_1, T_LE],
    example={**_THM1_EXAMPLE, "N": 2, "rho_i": [0.5, 0.99]},
)

_a_cor = 2 * omega * kappa * rho**_n_round + 2 * N * eps
_COR1_EXAMPLE = {k: v for k, v in _THM1_EXAMPLE.items() if k not in ("gamma",)}
_COR1_EXAMPLE["rho"] = 0.9
_COR1 = "γ_{r,t−1} minimising the bound of Theorem 1 (a quadratic in γ)"
register_terms(
    "fzoos.cor1.gamma",
    [G / (G + _a_cor)],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Corollary 1"),
    quantity=_COR1,
    quantity_latex=r"\gamma_{r,t-1}",
    statement="Corollary 1: γ_{r,t−1} = G/(G + 2ωκρ^{(r−1)T} + 2Nε) minimises Theorem 1's bound.",
    hypotheses=[RHO_LE_1],
    example={k: v for k, v in _COR1_EXAMPLE.items() if k != "t"},
)
register_terms(
    "fzoos.cor1.gamma.eq37",
    [G / (G + 2 * omega * rho**_n_round + 2 * N * eps)],
    kind="exact",
    unit=None,
    source=_cite("fzoos", "App. C.2, eq. (37)"),
    quantity=_COR1,
    quantity_latex=r"\gamma_{r,t-1}",
    statement=(
        "As printed in (37): γ = G/(G + 2ωρ^{(r−1)T} + 2Nε), κ dropped (guide §6.14); equal "
        "to Corollary 1 only when κ = 1 (e.g. the SE kernel with l = 1)."
    ),
    hypotheses=[RHO_LE_1],
    example={k: v for k, v in _COR1_EXAMPLE.items() if k not in ("t", "kappa")},
)
_decay_local = 4 * omega * kappa * rho**_n_local
register_terms(
    "fzoos.cor1.value",
    [_decay_local, 4 * G * _a_cor / (G + _a_cor)],
    kind="upper",
    unit=GRAD2,
    status="corrected",
    source=_cite("fzoos", "App. C.2, eq. (38b) with κ (guide §3, check 2)"),
    quantity=DISPARITY + " at the γ of Corollary 1",
    quantity_latex=DISPARITY_TEX,
    statement=(
        "Theorem 1 at its minimiser: 4ωκρ^{(r−1)T+t−1} + 4Ga/(G + a), a = 2ωκρ^{(r−1)T} + 2Nε "
        "(the exact minimum of the quadratic; (38b) as printed drops κ)."
    ),
    hypotheses=[RHO_LE_1, T_LE],
    example=_COR1_EXAMPLE,
)
_a_printed = 2 * omega * rho**_n_round + 2 * N * eps
register_terms(
    "fzoos.cor1.value.eq38b",
    [_decay_local, 4 * G * _a_printed / (G + _a_printed)],
    kind="upper",
    unit=None,
    source=_cite("fzoos", "App. C.2, eq. (38b)"),
    quantity=DISPARITY + " at the γ of (37)",
    quantity_latex=DISPARITY_TEX,
    statement=(
        "As printed in (38b): 4ωκρ^{(r−1)T+t−1} + 4Ga/(G + a) with a = 2ωρ^{(r−1)T} + 2Nε, "
        "κ dropped from a (guide §6.14)."
    ),
    hypotheses=[RHO_LE_1, T_LE],
    example=_COR1_EXAMPLE,
)
register_terms(
    "fzoos.cor1.value.sqrt",
    [_decay_local, 2 * sp.sqrt(2 * G * (omega * kappa * rho**_n_round + N * eps))],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "App. C.2, eq. (38c)"),
    quantity=DISPARITY + " at the γ of Corollary 1",
    quantity_latex=DISPARITY_TEX,
    statement=(
        "(38c): 4Ga/(G + a) ≤ 2√(2G(ωκρ^{(r−1)T} + Nε)) (AM–GM: 4Ga/(G + a) ≤ 2√(Ga)·… with "
        "a = 2ωκρ^{(r−1)T} + 2Nε), so the disparity is ≤ 4ωκρ^{(r−1)T+t−1} + 2√(2G(ωκρ^{(r−1)T} "
        "+ Nε))."
    ),
    hypotheses=[RHO_LE_1, T_LE],
    example=_COR1_EXAMPLE,
)
register_terms(
    "fzoos.cor1.value.split",
    [
        _decay_local,
        2 * sp.sqrt(2 * omega * kappa * rho**_n_round * G),
        2 * sp.sqrt(2 * N * G * eps),
    ],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "App. C.2, eq. (38d)"),
    quantity=DISPARITY + " at the γ of Corollary 1",
    quantity_latex=DISPARITY_TEX,
    statement=(
        "(38d): √(u + v) ≤ √u + √v splits (38c) into 4ωκρ^{(r−1)T+t−1} + 2√(2ωκρ^{(r−1)T}G) + "
        "2√(2NGε), the form Theorem 2's proof sums (77)–(81)."
    ),
    hypotheses=[RHO_LE_1, T_LE],
    example=_COR1_EXAMPLE,
)

# ====================================================================== Lemmas C.1–C.7
_omega_c1 = d + 2 * (sp.sqrt(d) + 1) * sp.log(1 / delta)
register_terms(
    "fzoos.lemmac1.omega",
    [_omega_c1],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Lemma C.1"),
    quantity="ω, the χ²_d quantile of Lemma C.1",
    quantity_latex=r"\omega",
    statement="ω = d + 2(√d + 1)ln(1/δ) (≈ d for large d: 300 + 36.6·ln(1/δ) at d = 300).",
    hypotheses=[DELTA_LT_1],
    example={"d": 10, "delta": 0.1},
)
register_terms(
    "fzoos.lemmac1",
    [_omega_c1 * sig],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Lemma C.1 (adapted from ZoRD [6])"),
    quantity="‖∇μ_{r,t}^{(i)}(x) − ∇f_i(x)‖², with probability ≥ 1 − δ",
    quantity_latex=r"\Vert\nabla\mu_{r,t}^{(i)}(x)-\nabla f_i(x)\Vert^{2}",
    statement=(
        "Bayesian: for f_i ~ GP with the surrogate's kernel, ∇f_i − ∇μ | 𝒟 ~ N(0, ∂σ²(x)), so "
        "by Lemma C.2 ‖∇μ − ∇f_i‖² ≤ ω‖∂σ²(x)‖ with probability ≥ 1 − δ, ω = d + 2(√d + 1)"
        "ln(1/δ), for one x (pointwise)."
    ),
    hypotheses=[DELTA_LT_1],
    example={"d": 10, "delta": 0.1, "sig": 0.5},
)
register_terms(
    "fzoos.lemmac2",
    [sp.exp(-eps_lm)],
    kind="upper",
    unit=ONE,
    source=_cite("fzoos", "Lemma C.2 (Laurent & Massart)"),
    quantity="P(y − k ≥ 2√(kε) + 2ε) for y ~ χ²_k",
    quantity_latex=r"P(y-k\geq 2\sqrt{k\epsilon}+2\epsilon)",
    statement="For y = Σ_{i≤k} x_i², x_i iid N(0, 1): P(y − k ≥ 2√(kε) + 2ε) ≤ e^{−ε}.",
    example={"eps_lm": 2.0},
)
_RFF = "M random Fourier features φ(x) = √(2/M)cos(v_jᵀx + b_j) of a shift-invariant kernel"
register_terms(
    "fzoos.lemmac3.kernel",
    [sp.sqrt(8 * sp.log(2 / delta) / M)],
    kind="upper",
    unit=None,
    source=_cite("fzoos", "Lemma C.3, Hoeffding (15)–(16)"),
    quantity="|φ(x)ᵀφ(x′) − k(x, x′)|, with probability ≥ 1 − δ",
    quantity_latex=r"|\phi(x)^{\top}\phi(x')-k(x,x')|",
    statement=(
        _RFF + " with k(x, x) = 1: Hoeffding on terms in [−2, 2] gives ≤ √(8ln(2/δ)/M) for one "
        "pair (x, x′) (the printed choice δ = 2exp(Mε²) should read 2exp(−Mε²/8))."
    ),
    hypotheses=[DELTA_LT_1],
    example={"M": 1000, "delta": 0.05},
)
register_terms(
    "fzoos.lemmac3.gradient",
    [sp.sqrt(4 * V_rff / (M * delta))],
    kind="upper",
    unit=None,
    source=_cite("fzoos", "Lemma C.3, Chebyshev (18)–(20)"),
    quantity="‖∇φ(x)ᵀφ(x′) − ∇_x k(x, x′)‖, with probability ≥ 1 − δ",
    quantity_latex=r"\Vert\nabla\phi(x)^{\top}\phi(x')-\nabla_x k(x,x')\Vert",
    statement=(
        _RFF + ", E‖v‖² ≤ V (SE: V = d/l²): the variance is ≤ 4V/M, so by Chebyshev the "
        "gradient error is ≤ √(4V/(Mδ)) for one pair (x, x′)."
    ),
    hypotheses=[DELTA_LT_1],
    example={"M": 1000, "delta": 0.05, "V": 10},
)
_n = r * T
_c4_bracket = (_n / sigma2) * sp.sqrt(12 * V_rff / (M * delta)) + 4 * L * _n ** sp.Rational(
    3, 2
) / sigma2**2 * sp.sqrt(sp.log(6 * _n / delta) / M)
_c4_y = sp.sqrt(
    2 * _n
    + 2 * sigma2 * (_n + 2 * sp.sqrt(_n * sp.log(3 * _n / delta)) + 2 * sp.log(3 * _n / delta))
)
_C4_EXAMPLE = {
    "r": 50,
    "T": 10,
    "sigma2": 0.01,
    "V": 300,
    "M": 10000,
    "delta": 0.1,
    "L": float(sp.exp(-sp.Rational(1, 2))),
}
register_terms(
    "fzoos.lemmac4",
    [_c4_bracket * _c4_y],
    kind="upper",
    unit=None,
    source=_cite("fzoos", "Lemma C.4, explicit form (25)"),
    quantity="‖∇μ̂_{r,T}^{(i)}(x) − ∇μ_{r,T}^{(i)}(x)‖, with probability ≥ 1 − δ",
    quantity_latex=r"\Vert\nabla\hat\mu_{r,T}^{(i)}(x)-\nabla\mu_{r,T}^{(i)}(x)\Vert",
    statement=(
        "E‖v‖² ≤ V, ‖∇_x k‖ ≤ L, |f_i| ≤ 1 (normalised, hence no unit audit): the RFF surrogate "
        "(6) is within [(rT/σ²)√(12V/(Mδ)) + (4L(rT)^{3/2}/σ⁴)√(ln(6rT/δ)/M)]·√(2rT + 2σ²(rT + "
        "2√(rT·ln(3rT/δ)) + 2ln(3rT/δ))) of the exact one, for one x. Vacuous at the paper's "
        "scale (guide §6.3): ≈ 2.8×10⁸ at rT = 500, V = d = 300, σ² = 0.01, M = 10⁴, δ = 0.1, "
        "L = e^{−1/2}, against O(1) gradients."
    ),
    hypotheses=[DELTA_LT_1],
    example=_C4_EXAMPLE,
)
register_terms(
    "fzoos.lemmac4.squared",
    [1 / M],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Lemma C.4, eq. (26)"),
    quantity="‖∇μ̂_{r,T}^{(i)}(x) − ∇μ_{r,T}^{(i)}(x)‖² for all r ≤ R, with constant probability",
    quantity_latex=r"\Vert\nabla\hat\mu_{r,T}^{(i)}(x)-\nabla\mu_{r,T}^{(i)}(x)\Vert^{2}",
    statement=(
        "(26): the squared RFF error is O(1/M) ‘with constant probability for all r ∈ [R]’ — "
        "the constant hides (RT)³V/σ⁴ + L²(RT)⁴ln(RT)/σ⁸ (guide §6.3), so M must grow like "
        "(RT)⁴ for a fixed error."
    ),
    example={"M": 10000},
)
register_terms(
    "fzoos.lemmac5.young",
    [a * vi2 / 2, vj2 / (2 * a)],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.5, (27)"),
    quantity="‖v_i‖‖v_j‖",
    quantity_latex=r"\Vert v_i\Vert\Vert v_j\Vert",
    statement="(27): ‖v_i‖‖v_j‖ ≤ (a/2)‖v_i‖² + ‖v_j‖²/(2a) for any a > 0 (AM–GM).",
    example={"a": 2.0, "vi2": 1.0, "vj2": 4.0},
)
register_terms(
    "fzoos.lemmac5.sum",
    [(1 + a) * vi2, (1 + 1 / a) * vj2],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.5, (28)"),
    quantity="‖v_i + v_j‖²",
    quantity_latex=r"\Vert v_i+v_j\Vert^{2}",
    statement="(28): ‖v_i + v_j‖² ≤ (1 + a)‖v_i‖² + (1 + 1/a)‖v_j‖² for any a > 0.",
    example={"a": 2.0, "vi2": 1.0, "vj2": 4.0},
)
register_terms(
    "fzoos.lemmac5.jensen",
    [tau * sp.Sum(v2[k_index - 1], (k_index, 1, tau))],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.5, (29)"),
    quantity="‖Σ_{k≤τ} v_k‖²",
    quantity_latex=r"\Vert\sum_{k\leq\tau}v_k\Vert^{2}",
    statement="(29): ‖Σ_{k=1}^τ v_k‖² ≤ τΣ_k‖v_k‖² (Jensen), with v2[k − 1] = ‖v_k‖².",
    example={"tau": 3, "v2": [1.0, 2.0, 0.5]},
)
register_terms(
    "fzoos.lemmac6.decay",
    [kappa * rho_max ** ((r - 1) * T + t)],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Lemma C.6, first part"),
    quantity="‖∂(σ_{r,t}^{(i)})²(x)‖",
    quantity_latex=r"\Vert\partial(\sigma_{r,t}^{(i)})^{2}(x)\Vert",
    statement=(
        "By the definition of ρ_i (a max of ratios over x, r ≥ 1, t ≥ 1) and ‖∂σ_0²‖ ≤ κ: "
        "‖∂(σ_{r,t}^{(i)})²(x)‖ ≤ κρ_i^{(r−1)T+t} (here ρ_max = ρ_i of the client)."
    ),
    meanings={"rho_max": "ρ_i = max_{x, r, t}‖∂σ²_{r,t}(x)‖/‖∂σ²_{r,t−1}(x)‖ of client i"},
    hypotheses=[RHO_MAX_LE_1, T_LE],
    example={"kappa": 1.0, "rho_max": 0.95, "r": 2, "T": 5, "t": 3},
)
register_terms(
    "fzoos.lemmac6.rho-lower",
    [1 / (1 + 1 / sigma2)],
    kind="lower",
    unit=None,
    source=_cite("fzoos", "Lemma C.6 (and Theorem 1)"),
    quantity="ρ_i, the worst one-query ratio of posterior gradient uncertainties",
    quantity_latex=r"\rho_i",
    statement=(
        "ρ_i ≥ 1/(1 + 1/σ²) for a kernel with k(x, x) = 1 (one query is a rank-one downdate ≽ "
        "σ²/(k(0) + σ²) times the prior; guide §3). The matching upper end ρ_i ≤ 1 is attained "
        "for the SE kernel with fewer queries than d (guide §0.4)."
    ),
    example={"sigma2": 0.01},
)
_omega_c6 = d + 2 * (sp.sqrt(d) + 1) * sp.log(2 * N * R * T / delta)
register_terms(
    "fzoos.lemmac6.omega",
    [_omega_c6],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Lemma C.6, second part"),
    quantity="ω, the χ²_d quantile of Lemma C.6 (union bound over i, r, t)",
    quantity_latex=r"\omega",
    statement="ω = d + 2(√d + 1)ln(2NRT/δ): Lemma C.1's ω with δ/(2NRT).",
    hypotheses=[DELTA_LT_1],
    example={"d": 10, "N": 5, "R": 20, "T": 10, "delta": 0.1},
)
register_terms(
    "fzoos.lemmac6.others",
    [omega * sig_others / N, (N - 1) ** 2 * eps / N],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Lemma C.6, (33)"),
    quantity="‖(1/N)Σ_{j≠i}(∇μ̂_{r−1,T}^{(j)} − ∇f_j)(x_{r,t−1}^{(i)})‖²",
    quantity_latex=r"\Vert\frac{1}{N}\sum_{j\neq i}(\nabla\hat\mu^{(j)}-\nabla f_j)\Vert^{2}",
    statement=(
        "(33): the other clients' surrogate errors at client i's iterate are ≤ (ω/N)Σ_{j≠i}"
        "‖∂σ_j²‖ + ((N − 1)²/N)ε, with probability ≥ 1 − δ (ω of Lemma C.6)."
    ),
    example={"omega": 20.0, "sig_others": 2.0, "N": 5, "eps": 0.01},
)
register_terms(
    "fzoos.lemmac6.own",
    [omega * (N - 1) * sig / N, (N - 1) ** 2 * eps / N],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Lemma C.6, (34)"),
    quantity="((N − 1)²/N²)‖∇f_i − ∇μ̂_{r−1,T}^{(i)}‖² at x_{r,t−1}^{(i)}",
    quantity_latex=r"\frac{(N-1)^{2}}{N^{2}}\Vert\nabla f_i-\nabla\hat\mu_{r-1,T}^{(i)}\Vert^{2}",
    statement=(
        "(34): client i's own surrogate error, weighted (N − 1)²/N², is ≤ (ω(N − 1)/N)‖∂σ_i²‖ "
        "+ ((N − 1)²/N)ε, with probability ≥ 1 − δ."
    ),
    example={"omega": 20.0, "sig": 0.5, "N": 5, "eps": 0.01},
)

# ====================================================================== Prop. C.1, Cor. C.1
_subtracted = 4 * omega * h / (k0 * d + sigma2 * d / (r * T))
_PROPC1_EXAMPLE = {
    "omega": 20.0,
    "kappa": 1.0,
    "h": 0.05,
    "k0": 1.0,
    "d": 10,
    "sigma2": 0.01,
    "r": 2,
    "T": 10,
}
register_terms(
    "fzoos.propc1",
    [omega * kappa, -_subtracted],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Proposition C.1, (47)"),
    quantity="‖∇μ_r(x) − ∇F(x)‖², ∇μ_r = (1/N)Σ_i∇μ_{r,T}^{(i)}, with probability ≥ 1 − δ",
    quantity_latex=r"\Vert\nabla\mu_r(x)-\nabla F(x)\Vert^{2}",
    statement=(
        "k(x, x′) = k(‖x − x′‖²), k(·) non-increasing, h(ι) = ιk′(ι)² convex: ≤ ωκ − "
        "4ωι_rk′(ι_r)²/(k(0)d + σ²d/(rT)). The proof bounds ‖κI − cB‖ by κ − cλ_max(B) where "
        "λ_min(B) belongs (= 0 when rT < d, guide §6.4), so the bound on the spectral norm "
        "fails there; and the subtracted term is at most ωκ/(e·d) (fzoos.propc1.subtracted)."
    ),
    example=_PROPC1_EXAMPLE,
)
register_terms(
    "fzoos.propc1.subtracted",
    [omega * kappa / (sp.E * d)],
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=_cite("fzoos", "Proposition C.1, scale of the subtracted term (guide §3, check 25)"),
    quantity="4ωι_rk′(ι_r)²/(k(0)d + σ²d/(rT)) for the SE kernel k(ι) = σ_f²e^{−ι/(2l²)}",
    quantity_latex=r"\frac{4\omega\iota_r k'(\iota_r)^{2}}{k(0)d+\sigma^{2}d/(rT)}",
    statement=(
        "For the SE kernel h(ι) = σ_f⁴ιe^{−ι/l²}/(4l⁴) ≤ σ_f⁴/(4el²) (at ι = l²) and κ = "
        "σ_f²/l², k(0) = σ_f², so the subtracted term is ≤ ω·σ_f⁴/(el²·σ_f²d) = ωκ/(e·d): a "
        "fraction ≤ 1/(e·d) of ωκ, i.e. Prop. C.1 improves on ωκ by at most 0.12% at d = 300."
    ),
    example={"omega": 20.0, "kappa": 1.0, "d": 10},
)
register_terms(
    "fzoos.corc1.gamma",
    [G / (G + 2 * (omega * kappa - _subtracted + N * eps))],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Corollary C.1"),
    quantity="γ_{r,t−1} of Corollary C.1",
    quantity_latex=r"\gamma_{r,t-1}",
    statement=(
        "Corollary 1 with Prop. C.1's error in place of ωκρ^{(r−1)T}: γ = G/(G + 2(ωκ − "
        "4ωι_rk′(ι_r)²/(k(0)d + σ²d/(rT)) + Nε)). It moves only between G/(G + C_0 − C_1) and "
        "G/(G + C_0) with C_1/C_0 ≤ 1/(ed): the experiments' γ = 1/t (→ 0) is a heuristic, not "
        "this rule (guide §6.4)."
    ),
    example={**_PROPC1_EXAMPLE, "G": 1.0, "N": 5, "eps": 0.01},
)

# ====================================================================== Lemmas C.8–C.10
_NESTEROV = "Nesterov (2004), Introductory Lectures on Convex Optimization, §2.1"
register_terms(
    "fzoos.lemmac8",
    [fyz, -alpha0 * dyz2 / 4, beta * dzx2],
    kind="upper",
    unit=F_UNIT,
    source=_cite("fzoos", "Lemma C.8 (perturbed strong convexity, SCAFFOLD Lemma 5)"),
    quantity="∇f(x)ᵀ(y − z)",
    quantity_latex=r"\nabla f(x)^{\top}(y-z)",
    statement=(
        "For α-strongly convex (α ≥ 0) and β-smooth f and any x, y, z: ∇f(x)ᵀ(y − z) ≤ f(y) − "
        "f(z) − (α/4)‖y − z‖² + β‖z − x‖² (Karimireddy et al. 2020)."
    ),
    hypotheses=[sp.Le(alpha0, beta)],
    example={"fyz": 1.0, "alpha0": 0.5, "dyz2": 1.0, "beta": 1.0, "dzx2": 0.5},
)
register_terms(
    "fzoos.lemmac9",
    [(1 + eta * beta) ** 2 * dxy2],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.9"),
    quantity="‖x − η∇f(x) − y + η∇f(y)‖²",
    quantity_latex=r"\Vert x-\eta\nabla f(x)-y+\eta\nabla f(y)\Vert^{2}",
    statement=(
        "For β-smooth f and η > 0 the gradient step is (1 + ηβ)-Lipschitz: ‖x − η∇f(x) − y + "
        "η∇f(y)‖² ≤ (1 + ηβ)²‖x − y‖² (via (28) with a = 1/(ηβ))."
    ),
    example={"eta": 0.1, "beta": 1.0, "dxy2": 1.0},
)
register_terms(
    "fzoos.lemmac9.strongly-convex",
    [(1 - eta * alpha) * dxy2],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.9, (54)"),
    quantity="‖x − η∇f(x) − y + η∇f(y)‖²",
    quantity_latex=r"\Vert x-\eta\nabla f(x)-y+\eta\nabla f(y)\Vert^{2}",
    statement=(
        "(54): if f is also α-strongly convex and η ≤ α/β², the factor is 1 + η²β² − 2ηα ≤ "
        "1 − ηα (not used by Theorem 2)."
    ),
    hypotheses=[sp.Le(eta, alpha / beta**2)],
    example={"eta": 0.1, "alpha": 0.5, "beta": 1.0, "dxy2": 1.0},
)
register_terms(
    "fzoos.lemmac10",
    [2 * beta * gap],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Lemma C.10", reference=_NESTEROV),
    quantity="‖∇f(x)‖²",
    quantity_latex=r"\Vert\nabla f(x)\Vert^{2}",
    statement=(
        "For β-smooth f with a minimiser x*: ‖∇f(x)‖² ≤ 2β(f(x) − f(x*)) (descent lemma at "
        "y = x − ∇f(x)/β)."
    ),
    example={"beta": 1.0, "gap": 0.5},
)
