"""Bounds of Shen, Hassani, Kale & Karbasi, “Federated Functional Gradient Boosting” (paper key
``ffgb``): FFGB (Alg. 1–2), FFGB.C (Alg. 3/5, clipping), FFGB.L (Alg. 4, Lipschitz functions).

Equation numbers are the paper's own, (1)–(56). The reading guide ``shared/theory/ffgb.md`` derives
the forms registered with status ``derived`` (§3.8 exact limit points, §3.9 the explicit constant
of Theorem 3.1, §3.4 the balance of Corollary 3.1, §3.2 the crude constant of Theorem 3.2's
radius) and lists the errata (§6), whose printed forms are kept next to the corrected ones.

Notation
--------
The paper's symbols are kept; where they clash with the shared vocabulary
(:data:`~fedtheory.bounds.COMMON`) this vocabulary redeclares them:

* ``N`` is the number of **clients** and ``m`` the number sampled per round (App. F) — COMMON's
  ``N`` counts samples and its ``m`` clients;
* ``gamma`` is the weak-learning edge γ ∈ (0, 1] of the oracle conditions (9), (13), (19)–(20);
* ``L`` is the Lipschitz constant of the labels (16), ``D`` the covering distance and ``B`` the
  label bound of Assumption 3.3 — in Theorem 3.2 ``B`` is the L∞ radius of FFGB.C's feasible set
  𝒞 = B^∞(B) (each bound says which);
* ``D0`` is ‖f⁰ − f*‖²_α, ``G`` the gradient bound of Assumptions 3.1/3.2, ``omega_TV`` and
  ``omega_W1`` the heterogeneities (1/N)Σ_i TV(α, α_i) and (1/N)Σ_i W1(α, α_i), ``W2sq`` the
  average (1/N²)Σ_{i,s} W2²(α_s, α_i) of Theorem 3.3;
* ``k0`` is the offset of the step size η^{k,t} = 4/(μ(tK + k + k0)) of FFGB.C and FFGB.L: the
  paper prints k0 = 1, which gives μη = 2 at the first step (guide §6, errata D1–D2).

Order statements (≲) carry one unknown constant ``C`` in front of the paper's O(·): its terms are
recorded, so that :func:`dimension_audit` can give the unit of each (guide §5 D4).

==================================================  ================================================
id                                                  statement
==================================================  ================================================
``ffgb.eq12``                                       ``|⟨f,g⟩_{α_i} − ⟨f,g⟩_α|`` ≤ 2‖f‖_∞‖g‖_∞TV (12)
``ffgb.eq15``                                       ... ≤ (‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞})W1
``ffgb.lemma-residual`` / ``.h``                    ‖Δ‖_α ≤ (1−γ)G/γ, ‖h‖_α ≤ (2−γ)G/γ          (28)
``ffgb.lemma-iterate`` / ``.hhat``                  ‖g‖_α ≤ 2G/(γμ), ‖h + μg‖_α ≤ 4G/γ (29, fixed)
``ffgb.lemmad1.residual`` / ``.h``                  clip levels G¹_γ, G²_γ never bind on supp α_i
``ffgb.thmd1.b-min``                                the least admissible radius B = 2G/(μγ) (D.1)
``ffgb.lemmad2`` / ``.corrected``                   ‖g‖_∞ ≤ 2G/(γμ): printed steps / k0 ≥ 3
``ffgb.lemmae1.*``                                  FFGB.L sup, Lipschitz bounds (42)–(43), App. E
``ffgb.lemmae2`` / ``.corrected``                   ‖g_i‖_{α_i,∞} ≤ B/γ as printed / (LD + B)/γ
``ffgb.lemmae4`` / ``.corrected`` / ``.global``     ‖ḡ‖_{α_s} ≤ G_s²/γ² (typo) / squared / on α
``ffgb.thm31`` / ``.corrected``                     Theorem 3.1 (= C.1), printed / (1−γ)², μ² fixed
``ffgb.thm31.explicit``                             §3.9: every constant explicit (derived)
``ffgb.thm31.floor``                                its T → ∞ limit 4(1−γ)²G²/(Kμ²γ²)
``ffgb.cor31`` / ``.k-star`` / ``.balanced``        Corollary 3.1: K = √T; the balance K*; its rate
``ffgb.thm32`` / ``ffgb.thmd1``                     Theorem 3.2 (five terms) / D.1, eq. (40) (four)
``ffgb.thm32.radius``                               its T → ∞ limit at B = 2G/(μγ)
``ffgb.thm32.omega-explicit``                       the ω_TV term with the proof's constant 128
``ffgb.thm33`` / ``ffgb.thme1``                     Theorem 3.3 / E.1, eq. (41)
``ffgb.thm33.radius``                               its T → ∞ limit, (DL² + BL)ω_W1/(γ²μ)
``ffgb.thmf1`` / ``.corrected``, ``.thmf2/3``       m of N clients: + (N−m)/(N−1)·G²logT/(Tμ²mγ²)
``ffgb.limit.c-k`` / ``.mu-eff``                    c_K = Σ_k(1−γ)^k, μ_eff = μK/(K − c_K)  (§3.8)
``ffgb.limit.square-floor`` / ``.k2``               square loss: ‖m̄‖²(1/(1+μ) − 1/(1+μ_eff))²; K²·it
``ffgb.limit.no-residual``                          the no-residual limit regularises with μ/γ
``ffgb.limit.ffgbl``                                FFGB.L's limit (1 − c_K/K)·ū
``ffgb.limit.alg4-literal``                         Alg. 4 as printed: −(1/K)Σ_k((1+γ)^k − 1)·ū
``ffgb.stepsize.ffgbc`` / ``.corrected``            μη at step s: 4/(s + 1) printed, 4/(s + k0)
==================================================  ================================================

The FFGB.C pointwise limit and the logistic limits of §3.8 are not closed forms; they live with
the paper's numerics (``fedtheory.papers.ffgb``). The comparison inequalities and the lemmas are
registered by :mod:`fedtheory.bounds._ffgb_lemmas`; the symbols, the D4 units and the
audit live in :mod:`fedtheory.bounds._ffgb_vocabulary`.
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds import _ffgb_lemmas  # noqa: F401  (registers (12), (15), App. C–E lemmas)
from fedtheory.bounds._bound import Hypothesis
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._ffgb_vocabulary import (
    B_MIN,
    D0,
    ERR,
    ERR_C,
    ERR_C_TEX,
    ERR_TEX,
    F2,
    F_UNIT,
    FFGBL_G_NOTE,
    FFGBL_MEANINGS,
    FLOOR,
    FLOOR_TEX,
    G2_FFGBL,
    GAMMA_LE_1,
    GAMMA_LT_1,
    K0_GE_3,
    LOSS_UNIT,
    M_LE_N,
    N_GE_2,
    OMEGA_TV_LE_1,
    ONE,
    T_GE_2,
    UNITS,
    B,
    D,
    G,
    K,
    L,
    N,
    T,
    dimension_audit,
    f0_norm,
    f0_sup,
    gamma,
    j_index,
    k0,
    k_index,
    m,
    mbar2,
    mu,
    omega_TV,
    omega_W1,
    register_terms,
    s,
    s_index,
    t_index,
    term_units,
)

__all__ = ["UNITS", "dimension_audit", "term_units"]

# ====================================================================== Theorem 3.1 (App. C)
_init = D0 / (K * T)
_drift = K * G**2 * sp.log(K * T) / (T * gamma**2 * mu**2)
_floor_printed = (1 - gamma) * G**2 / (K * mu**2 * gamma**2)
_floor_corrected = (1 - gamma) ** 2 * G**2 / (K * mu**2 * gamma**2)
_fourth_printed = (1 - gamma) * G**2 * sp.log(K * T) / (K * T * mu * gamma**2)
_fourth_corrected = (1 - gamma) * G**2 * sp.log(K * T) / (K * T * mu**2 * gamma**2)
_THM31_PRINTED = [_init, _drift, _floor_printed, _fourth_printed]
_THM31_CORRECTED = [_init, _drift, _floor_corrected, _fourth_corrected]
_THM31_EXAMPLE = {"D0": 1, "K": 4, "T": 100, "G": 1, "gamma": 0.5, "mu": 0.1}
_THM31 = (
    "FFGB (α_i = α) with a WO² oracle of edge γ and η^{k,t} = 2/(μ(tK + k + 1)): the initial "
    "error decays like 1/(KT), a client-drift term like K log(KT)/T, and an oracle-error floor "
    "∝ 1/K does not decay in T."
)
register_terms(
    "ffgb.thm31",
    _THM31_PRINTED,
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Theorem 3.1 (= Theorem C.1)"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        _THM31 + " As printed: (1 − γ) in the third term, μ in the fourth — the proof gives "
        "(1 − γ)² and μ², and the fourth term has the unit of a loss, not of ‖f‖² (D4)."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_THM31_EXAMPLE,
)
register_terms(
    "ffgb.thm31.corrected",
    _THM31_CORRECTED,
    kind="order-upper",
    unit=F2,
    status="corrected",
    source=Citation("ffgb", "Theorem 3.1 with the proof's (1 − γ)² and μ² (guide §3.3)"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        _THM31 + " Corrected per the proof: (31) gives (1/(2μ))((1 − γ)/γ)²G² per round, so "
        "(1 − γ)² in the third term, and Σ_kη^{k,t} = (2/μ)·(log-ratio) a μ² in the fourth. "
        "Also needs ‖f⁰‖_α ≤ 2G/(γμ) (unstated)."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_THM31_EXAMPLE,
)

_F0_EXPLICIT = Hypothesis(
    sp.Le(f0_norm, (2 - gamma) * G / (gamma * mu)),
    "the iterates stay in the ball (2 − γ)G/(γμ) if f⁰ starts there",
)
# §3.9: H bounds ‖ĥ‖, D_Δ bounds ‖Δ‖, η_s = 2/(μ(s + 1)), s = tK + k
_H = 2 * (2 - gamma) * G / gamma
_DDELTA = (1 - gamma) * G / gamma
# the sums of §3.9 with η_s = 2/(μ(s + 1)) written out (μ taken outside): every step,
_steps_sum = sp.Sum(1 / (s_index + 1), (s_index, 1, K * T))
# every step but the last of each round,
_inner_sum = sp.Sum(1 / (t_index * K + k_index + 1), (k_index, 1, K - 1), (t_index, 0, T - 1))
# and the drift Σ_t Σ_k (tK + k + 1)(Σ_{κ<k} 1/(tK + κ + 1))²  (= (μ/2)²Σ(s + 1)(Σ_κ η)²)
_drift_sum = sp.Sum(
    (t_index * K + k_index + 1)
    * sp.Sum(1 / (t_index * K + j_index + 1), (j_index, 1, k_index - 1)) ** 2,
    (k_index, 2, K),
    (t_index, 0, T - 1),
)
_EXPLICIT = [
    D0,
    4 * (2 * _H**2 + G**2) / mu**2 * _steps_sum,
    2 * _H**2 * (2 / mu) ** 2 * _drift_sum,
    4 * _H * _DDELTA / mu * (2 / mu) * _inner_sum,
    4 * T * _DDELTA**2 / mu**2,
]
register_terms(
    "ffgb.thm31.explicit",
    [term / (K * T + 1) for term in _EXPLICIT],
    kind="upper",
    unit=F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.1 with explicit constants (guide §3.9)"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        "(KT + 1)‖f^T − f*‖² ≤ ‖f⁰ − f*‖² + (4(2H² + G²)/μ²)Σ_{s≤KT}1/(s + 1) + 2H²Σ_{t,k}(tK + k "
        "+ 1)(Σ_{κ<k}η_{tK+κ})² + (4HD_Δ/μ)Σ_tΣ_{k<K}η_{tK+k} + 4TD_Δ²/μ², with H = 2(2 − γ)G/γ "
        "(≥ ‖h + μg‖), D_Δ = (1 − γ)G/γ (≥ ‖Δ‖), η_s = 2/(μ(s + 1)): the proof of Thm C.1 with "
        "Young's inequality at μ/4, the drift bounded by a squared sum, and no η^κ ≤ 2η^k. The "
        "sums are evaluated term by term (O(TK²) terms, 20 ms at T = 1000, K = 16). Loose by "
        "10⁴–10¹² but a must-hold."
    ),
    hypotheses=[
        GAMMA_LE_1,
        _F0_EXPLICIT,
    ],
    meanings={"G": "bound on ‖∇R_i[g]‖_α over every iterate g (Assumption 3.1)"},
    example={"D0": 1, "K": 2, "T": 3, "G": 1, "gamma": 0.5, "mu": 0.1, "f0_norm": 5},
)
register_terms(
    "ffgb.thm31.floor",
    [4 * _DDELTA**2 / (K * mu**2)],
    kind="upper",
    unit=F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.1 explicit (guide §3.9), T → ∞"),
    quantity=FLOOR,
    quantity_latex=FLOOR_TEX,
    statement=(
        "The T → ∞ limit of ffgb.thm31.explicit: only 4TD_Δ²/μ²/(KT + 1) survives, so FFGB's "
        "error floor is at most 4(1 − γ)²G²/(Kμ²γ²) — the corrected third term of Theorem 3.1 "
        "with constant 4. It decays like 1/K; the floor measured with the residual reset decays "
        "like 1/K² (guide §3.8)."
    ),
    hypotheses=[GAMMA_LE_1, _F0_EXPLICIT],
    meanings={"G": "bound on ‖∇R_i[g]‖_α over every iterate g (Assumption 3.1)"},
    example={"K": 4, "G": 1, "gamma": 0.5, "mu": 0.1, "f0_norm": 5},
)

# Corollary 3.1
register_terms(
    "ffgb.cor31",
    [G**2 * sp.log(T) / (gamma**2 * mu**2 * sp.sqrt(T))],
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Corollary 3.1"),
    quantity=f"{ERR} with K = ⌈√T⌉ local steps",
    quantity_latex=ERR_TEX,
    statement=(
        "With γ < 1 and K = Θ(√T) (printed Ω(√T): a larger K makes the drift term dominate), "
        "Theorem 3.1 gives O(1/√T) up to logarithms: at K = √T its drift term (3/2)·G²log T/"
        "(√Tγ²μ²) dominates, so the error is ≲ G²log T/(γ²μ²√T). In total work S = KT this is "
        "S^{−1/3}."
    ),
    hypotheses=[GAMMA_LT_1],
    example={"T": 100, "G": 1, "gamma": 0.5, "mu": 0.1},
)
register_terms(
    "ffgb.cor31.k-star",
    [sp.sqrt((1 - gamma) * T / sp.log(T))],
    kind="exact",
    unit=ONE,
    status="derived",
    source=Citation("ffgb", "Corollary 3.1, the balance of Theorem 3.1's K-terms (guide §3.4)"),
    quantity="K*, the K minimising aK + b/K (Theorem 3.1's drift and floor terms)",
    quantity_latex="K^{*}",
    statement=(
        "With a = G²log T/(Tγ²μ²) (log(KT) ≈ log T) and b = (1 − γ)G²/(μ²γ²), aK + b/K is least "
        "at K* = √((1 − γ)T/log T) (with separate constants C2, C3 per term, × √(C3/C2)); the "
        "corrected third term (1 − γ)² moves it to (1 − γ)√(T/log T)."
    ),
    hypotheses=[GAMMA_LT_1, T_GE_2],
    example={"T": 100, "gamma": 0.5},
)
register_terms(
    "ffgb.cor31.balanced",
    [2 * G**2 / (mu**2 * gamma**2) * sp.sqrt((1 - gamma) * sp.log(T) / T)],
    kind="order-upper",
    unit=F2,
    status="derived",
    source=Citation("ffgb", "Corollary 3.1 at the balance K* (guide §3.4)"),
    quantity=f"{ERR} with K = K* local steps",
    quantity_latex=ERR_TEX,
    statement=(
        "At K = K*, Theorem 3.1's drift and floor terms are equal and sum to 2√(ab) = "
        "(2G²/(μ²γ²))√((1 − γ)log T/T): the O(√(log T/T)) rate of Corollary 3.1 (the other "
        "terms are O(log T/T^{3/2}))."
    ),
    hypotheses=[GAMMA_LT_1, T_GE_2],
    example={"T": 100, "G": 1, "gamma": 0.5, "mu": 0.1},
)

# ====================================================================== Theorem 3.2 / D.1 (FFGB.C)
_radius_tv = G * B * omega_TV / (mu * gamma)
_fifth = G**2 * sp.log(T * K) * omega_TV / (gamma**2 * mu**2 * T)
_THMD1_TERMS = [_init, _drift, _floor_corrected, _radius_tv]
_THM32_EXAMPLE = {**_THM31_EXAMPLE, "B": 40, "omega_TV": 0.1}
_THM32 = (
    "FFGB.C (clipping, WO^∞ oracle (13), fully heterogeneous α_i, η^{k,t} = 4/(μ(tK + k + 1))) "
    "converges to a neighbourhood of f* whose radius G·B·ω_TV/(μγ) is linear in the average "
    "TV heterogeneity and does not vanish even at γ = 1."
)
register_terms(
    "ffgb.thm32",
    [*_THMD1_TERMS, _fifth],
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Theorem 3.2"),
    quantity=ERR_C,
    quantity_latex=ERR_C_TEX,
    statement=(
        _THM32 + " Main text: five terms (the fifth, G²log(TK)ω/(γ²μ²T), is absent from D.1). "
        "The condition B ≥ 2G/(μγ) is stated only in D.1."
    ),
    hypotheses=[GAMMA_LE_1, B_MIN, OMEGA_TV_LE_1],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example=_THM32_EXAMPLE,
)
register_terms(
    "ffgb.thmd1",
    _THMD1_TERMS,
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Theorem D.1, eq. (40)"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        _THM32 + " Appendix form (40), four terms, on ‖f^T − f*‖²_α, with B ≥ 2G/(μγ). Its "
        "proof needs μη ≤ 1 (Lemma D.2), which the stated steps violate at the start (k0 ≥ 3 "
        "fixes it; the final display has an undefined k0)."
    ),
    hypotheses=[GAMMA_LE_1, B_MIN, OMEGA_TV_LE_1],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example=_THM32_EXAMPLE,
)
register_terms(
    "ffgb.thm32.radius",
    [_floor_corrected, 2 * G**2 * omega_TV / (mu**2 * gamma**2)],
    kind="order-upper",
    unit=F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.2 / D.1 as T → ∞ at B = 2G/(μγ) (guide §3.5)"),
    quantity=FLOOR,
    quantity_latex=FLOOR_TEX,
    statement=(
        "The limit T → ∞ of Theorems 3.2 and D.1 at the least admissible radius B = 2G/(μγ): the "
        "oracle floor (1 − γ)²G²/(Kμ²γ²) plus 2G²ω_TV/(μ²γ²). For disjoint supports ω_TV = "
        "1 − 1/N and the radius is vacuous (≥ 200/γ² at μ = 0.1, G = 1)."
    ),
    hypotheses=[GAMMA_LE_1, OMEGA_TV_LE_1],
    example={"K": 4, "G": 1, "gamma": 0.5, "mu": 0.1, "omega_TV": 0.1},
)
register_terms(
    "ffgb.thm32.omega-explicit",
    [128 * _radius_tv],
    kind="upper",
    unit=F2,
    status="derived",
    source=Citation("ffgb", "proof of Theorem D.1, (37)–(38) with explicit constants (guide §3.2)"),
    quantity="the ω_TV term of lim sup_T ‖f^T − f*‖²_α (all of it at γ = 1)",
    quantity_latex=FLOOR_TEX,
    statement=(
        "Each TV term of (37) is ≤ 2·(2B)·(4G/γ)·TV(α, α_i) by (12) with ‖ḡ − f*‖_∞ ≤ 2B and "
        "‖ĥ‖_∞ ≤ 4G/γ, so δ ≤ 32BGω_TV/γ and the radius gains ≤ 4δ/μ = 128GBω_TV/(μγ). At "
        "γ = 1 (no oracle floor) this bounds FFGB.C's asymptotic error, with the steps of "
        "k0 ≥ 3 that keep ‖ḡ‖_∞ ≤ 2G/(γμ) ≤ B (Lemma D.2); the private-atom "
        "construction with adversarial extension reaches ≈ 0.31·GBω/(μγ) (guide C7)."
    ),
    hypotheses=[
        GAMMA_LE_1,
        B_MIN,
        OMEGA_TV_LE_1,
        K0_GE_3,
        Hypothesis(sp.Le(f0_sup, 2 * G / (gamma * mu)), "Lemma D.2: ‖f⁰‖_∞ ≤ 2G/(γμ)"),
    ],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example={"G": 1, "B": 20, "omega_TV": 0.1, "mu": 0.1, "gamma": 1, "k0": 3, "f0_sup": 1},
)

# ====================================================================== Theorem 3.3 / E.1 (FFGB.L)
_radius_w1 = (D * L**2 + B * L) * omega_W1 / (gamma**2 * mu)
_floor_ffgbl = (1 - gamma) ** 2 * B**2 / (mu**2 * gamma**2 * K)
_drift_ffgbl = K * G2_FFGBL * sp.log(K * T) / (T * mu**2 * gamma**2)
_drift_e1 = (
    K * (L * (L * D + B) * omega_W1 + G2_FFGBL + B**2) * sp.log(K * T) / (T * mu**2 * gamma**2)
)
_THM33_EXAMPLE = {
    "D0": 1,
    "K": 4,
    "T": 100,
    "L": 2,
    "B": 1,
    "W2sq": 0.05,
    "mu": 1,
    "gamma": 0.5,
    "D": 0.1,
    "omega_W1": 0.05,
}
_THM33 = (
    "FFGB.L (square loss, noiseless L-Lipschitz labels (16), Lipschitz oracle (19)–(20), "
    "𝒞 = {‖f‖_lip ≤ L/γ}) converges to a neighbourhood of f* of radius (DL² + BL)ω_W1/(γ²μ), "
    "linear in the average W1 heterogeneity." + FFGBL_G_NOTE
)
register_terms(
    "ffgb.thm33",
    [_init, _drift_ffgbl, _floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem 3.3"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        _THM33 + " As printed with η^{k,t} = 4/(μ(tK + k + 1)), which breaks Lipschitz "
        "feasibility (guide D2); μ = 1 is undefined in the main text."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings=FFGBL_MEANINGS,
    example=_THM33_EXAMPLE,
)
register_terms(
    "ffgb.thme1",
    [_init, _drift_e1, _floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem E.1, eqs. (41) and (55)"),
    quantity=ERR,
    quantity_latex=ERR_TEX,
    statement=(
        _THM33 + " Appendix form (41): the drift term carries K(L(LD + B)ω_W1 + G² + B²); the "
        "steps are 'a certain choice' (η ≤ 1 is what the proof needs)."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings=FFGBL_MEANINGS,
    example=_THM33_EXAMPLE,
)
register_terms(
    "ffgb.thm33.radius",
    [_floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=F2,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "Theorems 3.3 / E.1 as T → ∞ (guide §3.6)"),
    quantity=FLOOR,
    quantity_latex=FLOOR_TEX,
    statement=(
        "The limit T → ∞ of Theorems 3.3 and E.1: the oracle floor (1 − γ)²B²/(μ²γ²K) plus "
        "(DL² + BL)ω_W1/(γ²μ) (μ = 1). Translated supports keep TV at 1 − 1/N while ω_W1 → 0 "
        "with the shift, and the measured error follows ω_W1 (guide C9)."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings=FFGBL_MEANINGS,
    example={k: v for k, v in _THM33_EXAMPLE.items() if k not in ("D0", "T", "W2sq")},
)

# ====================================================================== Theorems F.1–F.3 (App. F)
_sampling = (N - m) / (N - 1) * G**2 * sp.log(T) / (T * mu**2 * m * gamma**2)
_sampling_ffgbl = (N - m) / (N - 1) * G2_FFGBL * sp.log(T) / (T * mu**2 * m * gamma**2)
_PP = (
    "Partial participation: each round the server averages m of the N clients drawn uniformly "
    "without replacement; Lemma F.1's sampling variance adds (N − m)/(N − 1)·G²log T/(Tμ²mγ²), "
    "zero at m = N."
)
_PP_EXAMPLE = {"N": 10, "m": 2}
register_terms(
    "ffgb.thmf1",
    [*_THM31_PRINTED, _sampling],
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Theorem F.1"),
    quantity=f"E{ERR}",
    quantity_latex=r"\mathbb{E}" + ERR_TEX,
    statement=(
        _PP + " FFGB (Theorem 3.1 + the sampling term), as printed: the third and fourth terms "
        "repeat Theorem 3.1's (1 − γ) and μ, although the derivation above F.1 carries "
        "((1 − γ)/γ)²."
    ),
    hypotheses=[GAMMA_LE_1, M_LE_N, N_GE_2],
    example={**_THM31_EXAMPLE, **_PP_EXAMPLE},
)
register_terms(
    "ffgb.thmf1.corrected",
    [*_THM31_CORRECTED, _sampling],
    kind="order-upper",
    unit=F2,
    status="corrected",
    source=Citation("ffgb", "Theorem F.1 with Theorem 3.1's corrections (guide §3.3)"),
    quantity=f"E{ERR}",
    quantity_latex=r"\mathbb{E}" + ERR_TEX,
    statement=_PP + " ffgb.thm31.corrected plus the sampling term.",
    hypotheses=[GAMMA_LE_1, M_LE_N, N_GE_2],
    example={**_THM31_EXAMPLE, **_PP_EXAMPLE},
)
register_terms(
    "ffgb.thmf2",
    [*_THMD1_TERMS, _fifth, _sampling],
    kind="order-upper",
    unit=F2,
    source=Citation("ffgb", "Theorem F.2"),
    quantity=f"E{ERR}",
    quantity_latex=r"\mathbb{E}" + ERR_TEX,
    statement=_PP + " FFGB.C: Theorem 3.2's five terms plus the sampling term.",
    hypotheses=[GAMMA_LE_1, B_MIN, OMEGA_TV_LE_1, M_LE_N, N_GE_2],
    unjudged=(
        "order statement, not yet judged on data: its sampling term is F.1's (judged by "
        "ffgb/thmf1/*) and its other terms are Theorem 3.2's (ffgb/thm32/*); FFGB.C with m < N "
        "is not run by a claim yet"
    ),
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example={**_THM32_EXAMPLE, **_PP_EXAMPLE},
)
register_terms(
    "ffgb.thmf3",
    [_init, _drift_e1, _floor_ffgbl, _radius_w1, _sampling_ffgbl],
    kind="order-upper",
    unit=F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem F.3"),
    quantity=f"E{ERR}",
    quantity_latex=r"\mathbb{E}" + ERR_TEX,
    statement=(
        _PP + " FFGB.L: Theorem E.1's form plus the sampling term with FFGB.L's G². The "
        "theorem names the oracle WO^∞; it is WO^lip ((19)–(20))."
    ),
    hypotheses=[GAMMA_LE_1, M_LE_N, N_GE_2],
    meanings=FFGBL_MEANINGS,
    example={**_THM33_EXAMPLE, **_PP_EXAMPLE},
    unjudged=(
        "order statement, not yet judged on data: its sampling term is F.1's with FFGB.L's G² "
        "(F.1 is judged by ffgb/thmf1/*) and its other terms are Theorem E.1's (ffgb/thm33/*); "
        "FFGB.L with m < N is not run by a claim yet"
    ),
)

# ====================================================================== exact limit points (§3.8)
_c_K = (1 - gamma) * (1 - (1 - gamma) ** K) / gamma
_mu_eff = mu * K / (K - _c_K)
_SCALE = (
    "With the scale oracle h = γφ (it satisfies (9), (13), (19), (20) exactly) and steps → 0, "
    "one round of K steps with the residual reset moves f along −((K − c_K)∇R + Kμf): "
)
_LIMIT_EXAMPLE = {"gamma": 0.5, "K": 4}
register_terms(
    "ffgb.limit.c-k",
    [_c_K],
    kind="exact",
    unit=ONE,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (exact limit points, scale oracle)"),
    quantity="c_K = Σ_{k=1}^K (1 − γ)^k, the residual discarded at the end of a round / ∇R",
    quantity_latex=r"c_K",
    statement=(
        _SCALE + "the residual left at the reset is Δ^K = c_K∇R, c_K = (1 − γ)(1 − (1 − γ)^K)/γ "
        "→ (1 − γ)/γ as K → ∞."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_LIMIT_EXAMPLE,
)
register_terms(
    "ffgb.limit.mu-eff",
    [_mu_eff],
    kind="exact",
    unit=LOSS_UNIT / F_UNIT**2,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (FFGB's limit, scale oracle)"),
    quantity="μ_eff: FFGB's limit point minimises R[f] + (μ_eff/2)‖f‖²_α",
    quantity_latex=r"\mu_{\mathrm{eff}}",
    statement=(
        _SCALE + "FFGB converges to the minimiser of R + (μ_eff/2)‖f‖², μ_eff = μK/(K − c_K) > μ "
        "(= μ at γ = 1, μ/γ at K = 1: the no-residual limit). Measured/predicted 0.998–1.000."
    ),
    hypotheses=[GAMMA_LE_1],
    example={**_LIMIT_EXAMPLE, "mu": 0.1},
)
_square_floor = mbar2 * (1 / (1 + mu) - 1 / (1 + _mu_eff)) ** 2
register_terms(
    "ffgb.limit.square-floor",
    [_square_floor],
    kind="exact",
    unit=F2,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (square loss, scale oracle, α_i = α)"),
    quantity="lim_{T→∞} ‖f^T − f*‖²_α of FFGB on the square loss",
    quantity_latex=r"\lim_{T\to\infty}\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}",
    statement=(
        "Square loss ½(f − y)² with regression functions m_i and the scale oracle: f* = "
        "m̄/(1 + μ), FFGB's limit is m̄/(1 + μ_eff), so the floor is ‖m̄‖²(1/(1 + μ) − "
        "1/(1 + μ_eff))² = Θ(1/K²) — the bound's 1/K is loose."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings={"mu": "Tikhonov weight μ of (3) added to the square loss"},
    example={**_LIMIT_EXAMPLE, "mu": 0.1, "mbar2": 1},
)
register_terms(
    "ffgb.limit.square-floor.k2",
    [mbar2 * mu**2 * (1 - gamma) ** 2 / (gamma**2 * (1 + mu) ** 4)],
    kind="exact",
    unit=F2,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "guide §3.8, the 1/K² law"),
    quantity="lim_{K→∞} K²·lim_{T→∞} ‖f^T − f*‖²_α (square loss, scale oracle)",
    quantity_latex=r"\lim_{K\to\infty}K^{2}\lim_{T\to\infty}\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}",
    statement=(
        "K² times ffgb.limit.square-floor tends to ‖m̄‖²μ²(1 − γ)²/(γ²(1 + μ)⁴): the floor "
        "decays exactly like 1/K² (0.00683 at μ = 0.1, γ = 0.5, ‖m̄‖ = 1)."
    ),
    hypotheses=[GAMMA_LE_1],
    meanings={"mu": "Tikhonov weight μ of (3) added to the square loss"},
    example={"gamma": 0.5, "mu": 0.1, "mbar2": 1},
)
register_terms(
    "ffgb.limit.no-residual",
    [mu / gamma],
    kind="exact",
    unit=LOSS_UNIT / F_UNIT**2,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (no-residual variant, Fig. 2a)"),
    quantity="μ_eff of the no-residual variant (its limit minimises R + (μ_eff/2)‖f‖²_α)",
    quantity_latex=r"\mu_{\mathrm{eff}}^{\mathrm{no\ residual}}",
    statement=(
        "Without the residual the oracle sees γ∇R each step: the limit regularises with μ/γ for "
        "every K, so its floor does not shrink with K (equal to FFGB at K = 1); it is biased "
        "even on one machine, since ∇R[f*] = −μf* ≠ 0."
    ),
    hypotheses=[GAMMA_LE_1],
    example={"gamma": 0.5, "mu": 0.1},
)
register_terms(
    "ffgb.limit.ffgbl",
    [1 - _c_K / K],
    kind="exact",
    unit=ONE,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (FFGB.L's limit, scale oracle)"),
    quantity="f_∞/ū, FFGB.L's limit over the mean McShane extension ū = (1/N)Σ_i u_i",
    quantity_latex=r"f_{\infty}/\bar u",
    statement=(
        "With the corrected query WO(u_i − Δ) and h = γ(u_i − Δ), Σ_k h^k = (K − c_K)u_i, so "
        "FFGB.L converges to (1 − c_K/K)·(1/N)Σ_i u_i (= ū at γ = 1)."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_LIMIT_EXAMPLE,
)
register_terms(
    "ffgb.limit.alg4-literal",
    [((1 + gamma) * ((1 + gamma) ** K - 1) / gamma - K) / K],
    kind="exact",
    unit=ONE,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "Algorithm 4 as printed, line 4 WO(Δ − u_i) (guide D3)"),
    quantity="−f_∞/ū, minus the limit of the literal Algorithm 4 over ū",
    quantity_latex=r"-f_{\infty}/\bar u",
    statement=(
        "With the printed query h = γ(Δ^{k−1} − u_i), Δ^k = (1 + γ)(Δ^{k−1} − u_i) and h^k = "
        "−((1 + γ)^k − 1)u_i: the literal algorithm converges to the wrong point "
        "−(1/K)Σ_k((1 + γ)^k − 1)·ū, outside {‖f‖_lip ≤ L/γ} (its sign typo, erratum D3)."
    ),
    hypotheses=[GAMMA_LE_1],
    example=_LIMIT_EXAMPLE,
)

# ====================================================================== step sizes (errata D1–D2)
_STEP = "μη^{k,t} at the global step s = tK + k"
register_terms(
    "ffgb.stepsize.ffgbc",
    [4 / (s + 1)],
    kind="exact",
    unit=ONE,
    source=Citation("ffgb", "Theorems 3.2, 3.3 (η^{k,t} = 4/(μ(tK + k + 1)))"),
    quantity=_STEP,
    quantity_latex=r"\mu\eta_{s}",
    statement=(
        "FFGB.C's and FFGB.L's printed steps give μη = 4/(s + 1): 2 at s = 1 and 4/3 at s = 2, "
        "where Lemma D.2 and FFGB.L's Lipschitz induction need μη ≤ 1."
    ),
    example={"s": 1},
)
register_terms(
    "ffgb.stepsize.ffgbc.corrected",
    [4 / (s + k0)],
    kind="exact",
    unit=ONE,
    status="corrected",
    source=Citation("ffgb", "η^{k,t} = 4/(μ(tK + k + k0)), k0 ≥ 3 (guide §2.3–2.4)"),
    quantity=_STEP,
    quantity_latex=r"\mu\eta_{s}",
    statement=(
        "With the offset k0 ≥ 3, μη = 4/(s + k0) ≤ 1 from the first step on; the paper's final "
        "displays already carry an undefined k0."
    ),
    hypotheses=[K0_GE_3],
    example={"s": 1, "k0": 3},
)
