"""Bounds of Yue, Nouiehed & Al Kontar, “GIFAIR-FL: A Framework for Group and Individual Fairness
in Federated Learning” (paper key ``gifair``).

The paper numbers its displays (1)–(5) only; the rest is cited by theorem or lemma number (main
text §3–§4, appendix §8). The reading guide ``shared/theory/gifair.md`` derives the forms
registered with status ``derived`` (§1 D1–D4, §3 "Repair sketch for Thm 3.7") and lists the
errata (§6), whose printed forms are kept next to the corrected ones.

Notation
--------
The paper's symbols are kept; where they clash with the shared vocabulary
(:data:`~fedtheory.bounds.COMMON`) this vocabulary redeclares them: ``K`` is the number of
**clients** (COMMON's ``K`` counts local steps: here ``E``), ``d`` the number of **groups**,
``T = CE`` the total number of local iterations, ``beta`` and ``gamma`` the numerator and offset
of the step size η^(t) = β/(t + γ), ``eps`` the constant ε = 1 − λ/λ_max of the appendix.
``G2`` is G² of Assumption 3 (E‖g_k‖² ≤ G²) and ``D0`` = ‖θ̄^(0) − θ*‖².

Per-client sums are written over measured vectors (sequences, passed as lists or arrays whose
entry k − 1 belongs to client k): ``p`` (p_k), ``Nk`` (N_k), ``A`` (``|𝒜_{s_k}|``), ``r`` (r_k(θ)),
``F`` (F_k(θ)), and ``Ls``, the d group losses sorted in decreasing order. The sums of
Theorem 8.6 with η_t = c/√t are written out, Σ_{t≤T}η_t^j = c^jH_T^{(j/2)} (generalized
harmonic numbers), and evaluated in closed form (ψ and ζ).

==============================================  ===================================================
id                                              statement
==============================================  ===================================================
``gifair.lemma32``                              H(θ) = Σ_k p_k(1 + λr_k/(p_k|𝒜_{s_k}|))F_k   (2)
``gifair.lemma32.individual`` / ``.corrected``  d = K: Σ(1 + λr_k/p_k)F_k / Σ(p_k + λr_k)F_k
``gifair.weights.sum``                          D1: Σ_k q_k = Σ_k p_k (= 1)
``gifair.weights.upper`` / ``.lower``           D2: p_k − λ(d−1)/#𝒜 ≤ q_k ≤ p_k + λ(d−1)/#𝒜
``gifair.weights.group-mass``                   D2: Σ_{k∈𝒜_i} q_k = P_i + λr_i
``gifair.d4``                                   D4: R = Σ_m (d − 2m + 1)L_(m)
``gifair.d4.convex-program``                    D4: H = Σ(p_k − λ(d−1)/#𝒜)F_k + 2λΣ_j sum_largest
``gifair.lambda-max``                           λ_max = min_k p_k|𝒜_{s_k}|/(d − 1)
``gifair.epsilon`` / ``.lambda-max``            ε = 1 − (d−1)λ/min_k p_k|𝒜_{s_k}| / = 1 − λ/λ_max
``gifair.thm37``                                Theorem 3.7 as printed (ξ ∋ 2Γ_max/η^(T))
``gifair.thm37.distance``                       the repaired bound E‖θ̄^(T) − θ*‖² ≤ v/(γ + T)
``gifair.thm37.recursion`` / ``.corrected``     its one-step recursion: (1 − ηεμ/K) / (1 − ηεμ)
``gifair.thm39`` / ``gifair.thm84``             partial participation: + τ′ = 4G²E²/``|𝒮_c|`` / + τ
``gifair.thm311``                               non-convex, main text: log(T + 1)/√T
``gifair.thm86`` / ``.proof-form``              non-convex, App.: 1/√T as printed / 1/Σ_tη_t
``gifair.lemma85``                              E H(θ̄^(t)) ≤ E H(θ̄^(0)) — false (erratum)
``gifair.thm42`` / ``.nonconvex``               GIFAIR-FL-Per: O(E²/T), O((E − 1)log(T + 1)/√T)
``gifair.thm82`` / ``.corrected``               learning bound: printed ε_0 / McDiarmid over ΣN_k
==============================================  ===================================================

Not registered: D3 (H as a max over the zonotope Z_λ) is a maximisation, checked by an LP, not
an expression; the Table 4/6 discrepancy arithmetic is data, judged by its own claims. The
symbols, units, shared hypotheses and the dimensional audit live in
:mod:`fedtheory.bounds._gifair_vocabulary`.
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds._bound import Hypothesis
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._gifair_vocabulary import (
    C_NONCONVEX,
    D0,
    D_GE_2,
    DELTA_LT_1,
    DIST,
    DIST_TEX,
    EPS_LE_1,
    G2,
    GAMMA_FIX,
    GAMMA_GE_E,
    GAMMA_K_LE_MAX,
    GAP,
    GAP_TEX,
    GRAD,
    GRAD2,
    GRAD_TEX,
    H0,
    H_DEF,
    H_DEF_TEX,
    LOSS_UNIT,
    MU_LE_L,
    ONE,
    PC2_LE_4,
    STEP_0,
    T_GE_1,
    UNITS,
    X_UNIT,
    A,
    A_k,
    C,
    Delta_t,
    E,
    F,
    Gamma_K,
    Gamma_max,
    H0gap,
    K,
    L,
    Ls,
    M,
    Nk,
    P_i,
    Rad,
    Sc,
    T,
    beta,
    c,
    d,
    delta,
    dimension_audit,
    eps,
    eta,
    gamma,
    k_index,
    lam,
    lam_max,
    m_index,
    mu,
    p,
    p_k,
    pA_min,
    pc2,
    r,
    r_i,
    register_terms,
    sigma2_p,
    sigma2_p2,
    t,
    term_units,
    xi,
)

__all__ = ["UNITS", "dimension_audit", "term_units"]

_k = k_index


def _over_clients(term: sp.Expr) -> sp.Expr:
    """Σ_{k=1}^K term (term written with the entries p[k − 1], F[k − 1], ...)."""
    return sp.Sum(term, (_k, 1, K))


_p, _A, _r, _F, _N = p[_k - 1], A[_k - 1], r[_k - 1], F[_k - 1], Nk[_k - 1]

# ====================================================================== Lemma 3.2, D1–D4 (§1, §3)
_CLIENTS = {"K": 3, "p": [0.5, 0.3, 0.2], "A": [2, 2, 1], "r": [1, 1, -1], "F": [1.0, 2.0, 0.5]}
_LEMMA32 = (
    "The regulariser is a reweighting: expanding |L_i − L_j| = sign(L_i − L_j)(L_i − L_j) and "
    "regrouping by group label gives H = Σ_k q_kF_k with q_k = p_k + λr_k/|𝒜_{s_k}|, at every "
    "θ and for every λ, ties included (sign(0) = 0)."
)
register_terms(
    "gifair.lemma32",
    [_over_clients(_p * (1 + lam * _r / (_p * _A)) * _F)],
    kind="exact",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Lemma 3.2 (= Lemma 8.1), eq. (2)"),
    quantity=H_DEF,
    quantity_latex=H_DEF_TEX,
    statement=_LEMMA32 + " Hence H = Σ_k p_kH_k with the local surrogates H_k of (3).",
    example={**_CLIENTS, "lam": 0.1},
)
_INDIVIDUAL = {"K": 3, "p": [0.5, 0.3, 0.2], "r": [2, 0, -2], "F": [1.0, 2.0, 0.5], "lam": 0.05}
register_terms(
    "gifair.lemma32.individual",
    [_over_clients((1 + lam * _r / _p) * _F)],
    kind="exact",
    unit=LOSS_UNIT,
    source=Citation("gifair", "§3.1, the display after Example 3.3 (individual fairness)"),
    quantity=H_DEF + " with d = K (each client its own group)",
    quantity_latex=H_DEF_TEX,
    statement=(
        "As printed for individual fairness: H = Σ_k (1 + λr_k/p_k)F_k. Wrong (guide §6.10): "
        "the p_k of (2) is dropped, so the weights sum to K, not 1; at λ = 0 it gives ΣF_k, "
        "not FedAvg's Σp_kF_k."
    ),
    example=_INDIVIDUAL,
)
register_terms(
    "gifair.lemma32.individual.corrected",
    [_over_clients((_p + lam * _r) * _F)],
    kind="exact",
    unit=LOSS_UNIT,
    status="corrected",
    source=Citation("gifair", "Lemma 3.2 at d = K, |𝒜_{s_k}| = 1 (guide §2.2, §6.10)"),
    quantity=H_DEF + " with d = K (each client its own group)",
    quantity_latex=H_DEF_TEX,
    statement=(
        "Lemma 3.2 with each client its own group (|𝒜_{s_k}| = 1): H = Σ_k (p_k + λr_k)F_k, "
        "r_k = #{j: F_k > F_j} − #{j: F_k < F_j}."
    ),
    example=_INDIVIDUAL,
)
register_terms(
    "gifair.weights.sum",
    [_over_clients(_p)],
    kind="exact",
    unit=ONE,
    status="derived",
    source=Citation("gifair", "Lemma 3.2, weights q_k (guide §1 D1)"),
    quantity="Σ_k q_k(θ), q_k = p_k + λr_k(θ)/|𝒜_{s_k}|",
    quantity_latex=r"\sum_k q_k(\theta)",
    statement=(
        "D1: Σ_k λr_k/|𝒜_{s_k}| = λΣ_i r_i = 0 because the signs are antisymmetric, so the "
        "weights sum to Σ_k p_k = 1 for every θ and λ, ties included: the reweighting moves "
        "mass between clients and adds none."
    ),
    example={"K": 3, "p": [0.5, 0.3, 0.2]},
)
_WEIGHT = "q_k = p_k + λr_k(θ)/|𝒜_{s_k}|, client k's weight in H = Σ_k q_kF_k (Lemma 3.2)"
_WEIGHT_EXAMPLE = {"p_k": 0.2, "lam": 0.05, "d": 3, "A_k": 2}
register_terms(
    "gifair.weights.upper",
    [p_k + lam * (d - 1) / A_k],
    kind="upper",
    unit=ONE,
    status="derived",
    source=Citation("gifair", "Lemma 3.2, weights q_k (guide §1 D2)"),
    quantity=_WEIGHT,
    quantity_latex="q_k",
    statement=(
        "D2: |r_k| ≤ d − 1, so q_k ≤ p_k + λ(d − 1)/|𝒜_{s_k}|, attained when client k's group "
        "has the largest loss and no ties; for λ ≤ λ_max this is ≤ 2p_k: GIFAIR at most doubles "
        "a client's weight."
    ),
    example=_WEIGHT_EXAMPLE,
)
register_terms(
    "gifair.weights.lower",
    [p_k - lam * (d - 1) / A_k],
    kind="lower",
    unit=ONE,
    status="derived",
    source=Citation("gifair", "Lemma 3.2, weights q_k (guide §1 D2)"),
    quantity=_WEIGHT,
    quantity_latex="q_k",
    statement=(
        "D2: q_k ≥ p_k − λ(d − 1)/|𝒜_{s_k}|, attained when client k's group has the smallest "
        "loss and no ties; it is ≥ 0 for every k exactly when λ ≤ λ_max."
    ),
    example=_WEIGHT_EXAMPLE,
)
register_terms(
    "gifair.weights.group-mass",
    [P_i + lam * r_i],
    kind="exact",
    unit=ONE,
    status="derived",
    source=Citation("gifair", "Lemma 3.2, weights q_k (guide §1 D2)"),
    quantity="Σ_{k∈𝒜_i} q_k(θ), the total weight of group i",
    quantity_latex=r"\sum_{k\in\mathcal{A}_i} q_k",
    statement=(
        "D2: the |𝒜_i| clients of group i share r_k = r_i, so the group's weight is P_i + λr_i "
        "(P_i its data share): λ moves mass (λ per rank step) from the groups with small "
        "losses to those with large ones."
    ),
    example={"P_i": 0.3, "lam": 0.05, "r_i": -1},
)
register_terms(
    "gifair.d4",
    [sp.Sum((d - 2 * m_index + 1) * Ls[m_index - 1], (m_index, 1, d))],
    kind="exact",
    unit=LOSS_UNIT,
    status="derived",
    source=Citation("gifair", "regulariser of (1), ordered-weight form (guide §1 D4)"),
    quantity="R(θ) = Σ_{1≤i<j≤d} |L_i(θ) − L_j(θ)|",
    quantity_latex=r"\sum_{i<j}|L_i - L_j|",
    statement=(
        "D4: with the group losses sorted, L_(1) ≥ … ≥ L_(d), the m-th largest appears d − m "
        "times with + and m − 1 times with −, so R = Σ_m (d − 2m + 1)L_(m) (ties included)."
    ),
    example={"d": 3, "Ls": [3.0, 2.0, 0.5]},
)
register_terms(
    "gifair.d4.convex-program",
    [
        _over_clients((_p - lam * (d - 1) / _A) * _F),
        2 * lam * sp.Sum((d - m_index) * Ls[m_index - 1], (m_index, 1, d - 1)),
    ],
    kind="exact",
    unit=LOSS_UNIT,
    status="derived",
    source=Citation("gifair", "objective (1) as a convex program (guide §1 D4)"),
    quantity=H_DEF,
    quantity_latex=H_DEF_TEX,
    statement=(
        "D4: R = −(d − 1)Σ_iL_i + 2Σ_{j=1}^{d−1} sum_largest(L, j), and Σ_iL_i = "
        "Σ_kF_k/|𝒜_{s_k}|, so H = Σ_k (p_k − λ(d − 1)/|𝒜_{s_k}|)F_k + 2λΣ_{j<d} "
        "sum_largest(L, j) — DCP-valid (every coefficient ≥ 0, hence H convex when the F_k are) "
        "exactly when λ ≤ λ_max. Written out with sum_largest(L, j) = L_(1) + … + L_(j): "
        "Σ_{j<d} sum_largest(L, j) = Σ_{m<d} (d − m)L_(m)."
    ),
    example={
        **{k: v for k, v in _CLIENTS.items() if k != "r"},
        "lam": 0.1,
        "d": 2,
        "Ls": [1.5, 0.5],
    },
)
register_terms(
    "gifair.lambda-max",
    [pA_min / (d - 1)],
    kind="exact",
    unit=ONE,
    source=Citation("gifair", "§3.1, the condition after eq. (3)"),
    quantity="λ_max, the supremum of the admissible fairness weights 0 ≤ λ < λ_max",
    quantity_latex=r"\lambda_{\max}",
    statement=(
        "Every weight q_k stays positive for 0 ≤ λ < λ_max = min_k p_k|𝒜_{s_k}|/(d − 1) "
        "(min_k p_k/(K − 1) for individual fairness): set by the smallest client, so tiny under "
        "power-law sizes or for large K (guide §6)."
    ),
    hypotheses=[D_GE_2],
    example={"pA_min": 0.2, "d": 2},
)
_EPS = (
    "The strong-convexity modulus of the weighted surrogate in the proofs: min_k c_k ≥ ε, "
    "c_k = 1 + λr_k/(p_k|𝒜_{s_k}|)."
)
register_terms(
    "gifair.epsilon",
    [1 - (d - 1) * lam / pA_min],
    kind="exact",
    unit=ONE,
    source=Citation("gifair", "App. 8.3, proof of Theorem 8.3"),
    quantity="ε, the constant of Theorems 3.7 and 3.9",
    quantity_latex=r"\epsilon",
    statement=_EPS + " As printed: ε = 1 − (d − 1)λ/min_k p_k|𝒜_{s_k}|.",
    hypotheses=[D_GE_2, Hypothesis(sp.Lt((d - 1) * lam, pA_min), "λ < λ_max (so ε > 0)")],
    example={"pA_min": 0.2, "d": 2, "lam": 0.1},
)
register_terms(
    "gifair.epsilon.lambda-max",
    [1 - lam / lam_max],
    kind="exact",
    unit=ONE,
    status="derived",
    source=Citation("gifair", "App. 8.3 with λ_max of §3.1 (guide §1)"),
    quantity="ε, the constant of Theorems 3.7 and 3.9",
    quantity_latex=r"\epsilon",
    statement=_EPS + " With λ_max = min_k p_k|𝒜_{s_k}|/(d − 1) it is exactly 1 − λ/λ_max.",
    hypotheses=[Hypothesis(sp.Lt(lam, lam_max), "0 ≤ λ < λ_max (so ε > 0)")],
    example={"lam_max": 0.1, "lam": 0.05},
)

# ====================================================================== Theorems 3.7, 3.9, 8.4
_eta_T = beta / (T + gamma)
_xi_terms = [8 * (E - 1) ** 2 * G2, 4 * L * Gamma_K, 2 * Gamma_max / _eta_T, 4 * sigma2_p2]
_pref = L / (2 * (gamma + T)) * 4 / (eps**2 * mu**2)
_init = L / (2 * (gamma + T)) * (gamma + 1) * D0
_STRONG = (
    "GIFAIR-FL-Global, F_k L-smooth and μ-strongly convex (A1), noise σ_k² (A2), E‖g_k‖² ≤ G² "
    "(A3), η^(t) = β/(t + γ) with η^(0) ≤ 1/(4(2 − ε)L) and γ ≥ E (App. 8.3)"
)
_STRONG_HYPOTHESES = [EPS_LE_1, MU_LE_L, GAMMA_GE_E, STEP_0, GAMMA_K_LE_MAX]
_STRONG_EXAMPLE = {
    "L": 4,
    "mu": 1,
    "eps": 0.5,
    "beta": 4,
    "gamma": 96,
    "E": 5,
    "T": 1000,
    "G2": 1,
    "Gamma_K": 0.1,
    "Gamma_max": 0.2,
    "sigma2_p2": 0.1,
    "D0": 1,
}
_XI_MEANING = "ξ of Theorem 3.7, 8(E−1)²G² + 4LΓ_K + 2Γ_max/η^(t) + 4Σ_kp_k²σ_k² (a constant)"
register_terms(
    "gifair.thm37",
    [*(_pref * term for term in _xi_terms), _init],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Theorem 3.7 (= Theorem 8.3)"),
    quantity=GAP,
    quantity_latex=GAP_TEX,
    statement=(
        _STRONG + ", full participation: E[H(θ̄_C)] − H* ≤ (L/2)(γ + T)^{−1}{4ξ/(ε²μ²) + "
        "(γ + 1)‖θ̄^(0) − θ*‖²}, ξ = 8(E − 1)²G² + 4LΓ_K + 2Γ_max/η^(t) + 4Σ_kp_k²σ_k², "
        "evaluated at η^(T) = β/(T + γ). As printed it does not decay (guide §6.2): "
        "2Γ_max/η^(T) grows like T and the bound tends to 4LΓ_max/(βε²μ²) > 0 when Γ_max > 0."
    ),
    hypotheses=_STRONG_HYPOTHESES,
    example=_STRONG_EXAMPLE,
)
_xi_fix_terms = [32 * (E - 1) ** 2 * G2, 12 * L * Gamma_max, 4 * sigma2_p2]
register_terms(
    "gifair.thm37.distance",
    [
        *(4 * term / (eps**2 * mu**2 * (gamma + T)) for term in _xi_fix_terms),
        (gamma + 1) * D0 / (gamma + T),
    ],
    kind="upper",
    unit=X_UNIT**2,
    status="derived",
    source=Citation("gifair", "Theorem 3.7 repaired (guide §3, 'Repair sketch for Thm 3.7')"),
    quantity=DIST,
    quantity_latex=DIST_TEX,
    statement=(
        "Full participation, p-weighted aggregation, exact r at the start of each round, "
        "η^(t) = β/(t + γ) with β = 2/(εμ): the G-term is O(η²) (2η − γ_k = 4c_kLη²), Γ_max "
        "replaces Γ_K, the drift carries c_k² ≤ 4 and Jensen removes the stray K, so "
        "Δ_{t+1} ≤ (1 − ηεμ)Δ_t + η²ξ_fix with ξ_fix = 32(E − 1)²G² + 12LΓ_max + 4Σp_k²σ_k² "
        "and E‖θ̄^(T) − θ*‖² ≤ (4ξ_fix/(ε²μ²) + (γ + 1)‖θ̄^(0) − θ*‖²)/(γ + T). A hypothesis "
        "to test (weights frozen within a round may add O(η²E)), not a proven theorem."
    ),
    hypotheses=[EPS_LE_1, MU_LE_L, GAMMA_FIX, GAMMA_GE_E],
    example={k: v for k, v in _STRONG_EXAMPLE.items() if k not in ("beta", "Gamma_K")},
)
_RECURSION = "Δ_{t+1} = E‖θ̄^(t+1) − θ*‖², given Δ_t"
_RECURSION_TEX = r"\Delta_{t+1}"
_RECURSION_EXAMPLE = {
    "L": 4,
    "mu": 1,
    "eps": 0.5,
    "beta": 4,
    "gamma": 96,
    "t": 10,
    "Delta_t": 0.5,
    "xi": 20,
}
register_terms(
    "gifair.thm37.recursion",
    [(1 - beta * eps * mu / (K * (t + gamma))) * Delta_t, beta**2 * xi / (t + gamma) ** 2],
    kind="upper",
    unit=X_UNIT**2,
    source=Citation("gifair", "proof of Theorem 8.3 (App. 8.3), the one-step recursion"),
    quantity=_RECURSION,
    quantity_latex=_RECURSION_TEX,
    statement=(
        "The proof's recursion Δ_{t+1} ≤ (1 − η^(t)εμ/K)Δ_t + η^(t)²ξ with η^(t) = β/(t + γ); "
        "its induction Δ_t ≤ v/(γ + t) needs v ≥ β²ξ/(βεμ/K − 1), and the proof's choice "
        "β = 2K/(εμ) makes that 4K²ξ/(ε²μ²), not the 4ξ/(ε²μ²) of Theorem 3.7 (stray K, guide "
        "§6.3)."
    ),
    hypotheses=[EPS_LE_1, MU_LE_L, STEP_0],
    meanings={"xi": _XI_MEANING},
    example={**_RECURSION_EXAMPLE, "K": 4},
)
register_terms(
    "gifair.thm37.recursion.corrected",
    [(1 - beta * eps * mu / (t + gamma)) * Delta_t, beta**2 * xi / (t + gamma) ** 2],
    kind="upper",
    unit=X_UNIT**2,
    status="corrected",
    source=Citation("gifair", "proof of Theorem 8.3 with Jensen's contraction (guide §3 repair)"),
    quantity=_RECURSION,
    quantity_latex=_RECURSION_TEX,
    statement=(
        "Jensen gives Σ_kp_kc_k‖θ_k − θ*‖² ≥ ε‖θ̄ − θ*‖², so the contraction is (1 − η^(t)εμ) "
        "with no K: Δ_{t+1} ≤ (1 − η^(t)εμ)Δ_t + η^(t)²ξ, and Δ_t ≤ v/(γ + t) follows by "
        "induction for v ≥ β²ξ/(βεμ − 1) (= 4ξ/(ε²μ²) at β = 2/(εμ)), the slack being "
        "−v/((t + γ)²(t + γ + 1)) at equality."
    ),
    hypotheses=[EPS_LE_1, MU_LE_L, STEP_0],
    meanings={"xi": "ξ_fix = 32(E−1)²G² + 12LΓ_max + 4Σ_kp_k²σ_k² of the repair (guide §3)"},
    example=_RECURSION_EXAMPLE,
)
register_terms(
    "gifair.thm39",
    [*(_pref * term for term in _xi_terms), _pref * 4 * G2 * E**2 / Sc, _init],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Theorem 3.9"),
    quantity=GAP,
    quantity_latex=GAP_TEX,
    statement=(
        _STRONG + ", |𝒮_c| clients sampled per round with probabilities p_k: Theorem 3.7 with "
        "ξ + τ′, τ′ = 4G²E²/|𝒮_c| (Remark 3.10: slower when |𝒮_c| is small). Inherits the "
        "non-decaying 2Γ_max/η^(T) term of Theorem 3.7."
    ),
    hypotheses=_STRONG_HYPOTHESES,
    example={**_STRONG_EXAMPLE, "Sc": 4},
)
register_terms(
    "gifair.thm84",
    [*(_pref * term for term in _xi_terms), _pref * E**2 * pc2 * G2 / Sc, _init],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Theorem 8.4 (appendix form of Theorem 3.9)"),
    quantity="E[H(θ̄^(T))] − H*",
    quantity_latex=r"\mathbb{E}[H(\bar\theta^{(T)})] - H^{*}",
    statement=(
        _STRONG + ", ⌈αK⌉ clients drawn i.i.d. from p (with replacement) and averaged "
        "uniformly: Theorem 3.7 with ξ + τ, τ = (E²/⌈αK⌉)Σ_kp_kc_k²G² ≤ 4E²G²/⌈αK⌉ = τ′ "
        "(c_k ≤ 2)."
    ),
    hypotheses=[*_STRONG_HYPOTHESES, PC2_LE_4],
    meanings={"Sc": "⌈αK⌉, the number of clients drawn i.i.d. from p per round"},
    example={**_STRONG_EXAMPLE, "Sc": 4, "pc2": 1.5},
)

# ====================================================================== non-convex (§3.2.2, §8.4)
_NONCONVEX = "GIFAIR-FL-Global, F_k L-smooth (A1′), A2, A3, full participation, η^(t) = O(1/√t)"
register_terms(
    "gifair.thm311",
    [
        2 * (1 + 2 * L**2 * sp.log(T + 1)) * H0gap / sp.sqrt(T),
        2
        * C
        * (2 * L**2 * Gamma_K + 8 * (E - 1) * L * G2 + 10 * L * sigma2_p)
        * sp.log(T + 1)
        / sp.sqrt(T),
    ],
    kind="order-upper",
    unit=GRAD2,
    source=Citation("gifair", "Theorem 3.11"),
    quantity=GRAD,
    quantity_latex=GRAD_TEX,
    statement=(
        _NONCONVEX + ": min_t E‖∇H(θ̄^(t))‖² ≤ {2(1 + 2L²log(T + 1))E[H(θ̄^(0)) − H*] + "
        "2ξ_{Γ_K}}/√T with ξ_{Γ_K} = O((2L²Γ_K + 8(E − 1)LG² + 10LΣ_kp_kσ_k²)log(T + 1)) (the "
        "unknown constant C sits on ξ_{Γ_K} only). Differs from the appendix's Theorem 8.6 "
        "(K factors dropped, E − 1 in a non-summable term, guide §6.8); ∇H does not exist at "
        "ties (§6.5)."
    ),
    hypotheses=[T_GE_1],
    example={"L": 1, "T": 1000, "H0gap": 1, "Gamma_K": 0.1, "E": 5, "G2": 1, "sigma2_p": 0.1},
)
_sum_eta = {j: c**j * sp.harmonic(T, sp.Rational(j, 2)) for j in (1, 2, 3, 4)}


def _thm86_terms(prefactor: sp.Expr) -> list[sp.Expr]:
    """The terms of Theorem 8.6 with η_t = c/√t, divided by ``prefactor``."""
    s2, s3, s4 = (_sum_eta[j] for j in (2, 3, 4))
    return [
        2 * (1 + 2 * K * L**2 * s2) * H0gap / prefactor,
        2 * 2 * K * L**2 * Gamma_K * s2 / prefactor,
        2 * 8 * K * L**2 * (E - 1) * G2 * s3 / prefactor,
        2 * 8 * K * L * G2 * s2 / prefactor,
        2 * 4 * (2 + 4 * L) * K * L * (E - 1) * G2 * s4 / prefactor,
        2 * (2 * L + 8 * K * L) * sigma2_p * s2 / prefactor,
    ]


_THM86 = (
    _NONCONVEX + ", η_t = c/√t ≤ 1/(√(2K)L): with Σ_tη_t² = c²H_T, Σ_tη_t³ = c³H_T^{(3/2)}, "
    "Σ_tη_t⁴ = c⁴H_T^{(2)} and ξ^(t) = 2KL²η_t²Γ_K + (8η_t³KL²(E − 1) + 8KLη_t² + 4(2 + 4L)"
    "KLη_t⁴(E − 1))G² + (2L + 8KL)η_t²Σ_kp_kσ_k², "
)
_THM86_EXAMPLE = {
    "L": 1,
    "K": 4,
    "c": 0.3,
    "T": 100,
    "H0gap": 1,
    "Gamma_K": 0.1,
    "E": 5,
    "G2": 1,
    "sigma2_p": 0.1,
}
register_terms(
    "gifair.thm86",
    _thm86_terms(sp.sqrt(T)),
    kind="upper",
    unit=GRAD2,
    source=Citation("gifair", "Theorem 8.6 (appendix form of Theorem 3.11)"),
    quantity=GRAD,
    quantity_latex=GRAD_TEX,
    statement=(
        _THM86 + "min_t E‖∇H(θ̄^(t))‖² ≤ (1/√T){2(1 + 2KL²Σ_tη_t²)E[H(θ̄^(0)) − H*] + "
        "2Σ_tξ^(t)} as printed: the proof gives 1/Σ_tη_t ≈ 1/(2c√T) (gifair.thm86.proof-form), "
        "and 1/√T is its form at c = 1, outside c ≤ 1/(√(2K)L). E − 1 multiplies only summable "
        "terms. Rests on the false Lemma 8.5."
    ),
    hypotheses=[C_NONCONVEX, T_GE_1],
    example=_THM86_EXAMPLE,
)
register_terms(
    "gifair.thm86.proof-form",
    _thm86_terms(_sum_eta[1]),
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=Citation("gifair", "proof of Theorem 8.6, its penultimate display"),
    quantity=GRAD,
    quantity_latex=GRAD_TEX,
    statement=(
        _THM86 + "the proof's penultimate display: min_t E‖∇H(θ̄^(t))‖² ≤ (1/Σ_tη_t)"
        "{2(1 + 2KL²Σ_tη_t²)E[H(θ̄^(0)) − H*] + 2Σ_tξ^(t)}, Σ_tη_t = cH_T^{(1/2)} ≈ 2c√T. "
        "Rests on the false Lemma 8.5 and on ∇H existing (no tie active)."
    ),
    hypotheses=[C_NONCONVEX, T_GE_1],
    example=_THM86_EXAMPLE,
)
register_terms(
    "gifair.lemma85",
    [H0],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Lemma 8.5"),
    quantity="E[H(θ̄^(t))] at every step t",
    quantity_latex=r"\mathbb{E}[H(\bar\theta^{(t)})]",
    statement=(
        "As printed: if η^(t) ≤ 2/L then E H(θ̄^(t)) ≤ E H(θ̄^(0)). False in general (guide §3, "
        "§6.8): the proof uses ‖g‖² where ⟨∇H, g⟩ belongs, assumes θ̄^(t) = θ_k^(t) (true only "
        "at the start of a round), ignores the noise and the change of H's weights between "
        "rounds; H increased in 45% of rounds in the pilot (σ = 1, E = 5)."
    ),
    hypotheses=[Hypothesis(sp.Le(eta, 2 / L), "the step condition of Lemma 8.5")],
    example={"H0": 2.0, "eta": 0.1, "L": 4},
)

# ====================================================================== Theorem 4.2 (GIFAIR-FL-Per)
_PER_UNJUDGED = (
    "order statement without a proof ('follows a similar scheme') and with an ill-posed H* "
    "(H(θ*, {θ_k}) for any θ_k averaging to θ*, guide §6.9): only the weak sense that θ̄ "
    "converges is testable, and GIFAIR-FL-Per trains exactly like GIFAIR-FL-Global as printed "
    "(judged through gifair.thm37 / gifair.thm86)"
)
register_terms(
    "gifair.thm42",
    [E**2 / T],
    kind="order-upper",
    unit=None,
    source=Citation("gifair", "Theorem 4.2, strongly convex part"),
    quantity="E[H(θ̄_C, {θ_k^(T)})] − H* of objective (4)",
    quantity_latex=r"\mathbb{E}[H(\bar\theta_C,\{\theta_k^{(T)}\})] - H^{*}",
    statement=(
        "GIFAIR-FL-Per, A1–A3, full (or partial) participation, η^(t) = O(1/t), η ≤ O(1/L): "
        "objective (4) at the aggregated model and the personalised models converges like "
        "O(E²/T)."
    ),
    hypotheses=[T_GE_1],
    example={"E": 5, "T": 1000},
    unjudged=_PER_UNJUDGED,
)
register_terms(
    "gifair.thm42.nonconvex",
    [(E - 1) * sp.log(T + 1) / sp.sqrt(T)],
    kind="order-upper",
    unit=None,
    source=Citation("gifair", "Theorem 4.2, non-convex part"),
    quantity=GRAD + " (GIFAIR-FL-Per)",
    quantity_latex=GRAD_TEX,
    statement=(
        "GIFAIR-FL-Per with F_k L-smooth, η^(t) = O(1/√t): min_t E‖∇H(θ̄^(t))‖² ≤ "
        "O((E − 1)log(T + 1)/√T) — as printed, zero at E = 1."
    ),
    hypotheses=[T_GE_1],
    example={"E": 5, "T": 1000},
    unjudged=_PER_UNJUDGED,
)

# ====================================================================== Theorem 8.2 (learning)
_bias = lam * d * (d - 1) * M / 2
_LEARNING = (
    "Losses 0 ≤ ℓ ≤ M, samples D_k ~ 𝒟_k of sizes N_k: with probability ≥ 1 − δ_0, for every "
    "h, 𝓛(h) ≤ 𝓛̂(h) + ε_0 + 2𝔐_m(𝒢, p) + λd(d − 1)M/2, 𝓛 and 𝓛̂ objective (1) with "
    "population and empirical risks (𝔐 the weighted Rademacher complexity)."
)
_LEARNING_EXAMPLE = {
    "K": 2,
    "p": [0.5, 0.5],
    "Nk": [100, 100],
    "A": [1, 1],
    "M": 1,
    "lam": 0.01,
    "d": 2,
    "delta": 0.05,
    "Rad": 0,
}
_QUANTITY_82 = "sup_h (𝓛_{𝒟_p^λ}(h) − 𝓛̂_{𝒟_p^λ}(h)), with probability ≥ 1 − δ_0"
_QUANTITY_82_TEX = r"\sup_h(\mathcal{L}(h) - \hat{\mathcal{L}}(h))"
register_terms(
    "gifair.thm82",
    [
        sp.sqrt(sp.Rational(1, 2) * _over_clients((_p * M / _N + _bias) ** 2) * sp.log(1 / delta)),
        2 * Rad,
        _bias,
    ],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("gifair", "Theorem 8.2 (App. 8.2)"),
    quantity=_QUANTITY_82,
    quantity_latex=_QUANTITY_82_TEX,
    statement=(
        _LEARNING + " As printed, ε_0 = √(½Σ_k(p_kM/N_k + λd(d − 1)M/2)²log(1/δ_0)): "
        "McDiarmid summed over K clients instead of the ΣN_k samples, so at λ = 0 it is √N too "
        "small and fails (guide §6.11, V16: violated at frequency 0.42 for δ_0 = 0.05)."
    ),
    hypotheses=[DELTA_LT_1, D_GE_2],
    example={k: v for k, v in _LEARNING_EXAMPLE.items() if k != "A"},
)
register_terms(
    "gifair.thm82.corrected",
    [
        M
        * sp.sqrt(
            sp.Rational(1, 2)
            * _over_clients((_p + lam * (d - 1) / _A) ** 2 / _N)
            * sp.log(1 / delta)
        ),
        2 * Rad,
        _bias,
    ],
    kind="upper",
    unit=LOSS_UNIT,
    status="corrected",
    source=Citation("gifair", "Theorem 8.2 with McDiarmid over every sample (guide §3, §6.11)"),
    quantity=_QUANTITY_82,
    quantity_latex=_QUANTITY_82_TEX,
    statement=(
        _LEARNING + " Corrected: one sample of client k moves p_kF̂_k by ≤ p_kM/N_k and each "
        "of the d − 1 terms |L̂_{s_k} − L̂_j| by ≤ M/(N_k|𝒜_{s_k}|), so c_{k,n} = M(p_k + "
        "λ(d − 1)/|𝒜_{s_k}|)/N_k over all ΣN_k samples and ε_0 = M√(½Σ_k(p_k + λ(d − 1)/"
        "|𝒜_{s_k}|)²/N_k·log(1/δ_0)) (AFL's M√(Σp_k²/(2N_k)log(1/δ)) at λ = 0); E sup(λ(R − "
        "R̂)) ≤ λd(d − 1)M/2 keeps the printed bias, which vanishes only at λ = 0."
    ),
    hypotheses=[DELTA_LT_1, D_GE_2],
    example=_LEARNING_EXAMPLE,
)
