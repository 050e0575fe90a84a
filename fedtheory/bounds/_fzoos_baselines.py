"""The finite-difference statements of ``fzoos`` (Appendix D): Lemma D.1, Propositions D.1–D.4
and Theorem D.1.

Private to :mod:`fedtheory.bounds.fzoos` (which documents the notation).

==================================================  =============================================
id                                                  statement
==================================================  =============================================
``fzoos.lemmad1`` / ``.noise`` / ``.bias``          FD error (3n → d) / (85) / (86)
``fzoos.propd1`` … ``fzoos.propd4``                 baseline disparities, printed O(1/Q)
``fzoos.propd3.corrected``                          D.3 with 6β²Σ_i (no 1/N)
``fzoos.propd1.explicit`` … ``propd3.explicit``     O(1/Q) as Lemma D.1's variance term
``fzoos.thmd1``                                     FedZO: O(D_1/(ηRT) + Λ² + G + 1/Q)
==================================================  =============================================
"""

from __future__ import annotations

import sympy as sp

from fedtheory.bounds._citation import Citation
from fedtheory.bounds._fzoos_vocabulary import (
    D1,
    DELTA_LT_1,
    DISPARITY,
    DISPARITY_TEX,
    ETA_NONCONVEX,
    F_UNIT,
    GRAD,
    GRAD2,
    GRAD_MIN,
    GRAD_MIN_TEX,
    C,
    G,
    Lam,
    N,
    Q,
    R,
    T,
    beta,
    c_lip,
    d,
    delta,
    drift,
    drift_prev,
    drift_sum,
    eps_n,
    eta,
    gamma_p,
    gnorm2,
    lam,
    register_terms,
    sigma,
)

__all__: list[str] = []

_cite = Citation

# ====================================================================== Appendix D
_lam_expr = beta * lam * sp.sqrt(d) + eps_n * sp.sqrt(d) / lam
_fd_var = (
    3
    * d
    / (delta * Q)
    * (3 * gnorm2 + beta**2 * lam**2 * (d + 2) * (d + 4) / 4 + 4 * eps_n**2 / lam**2)
)
_FD_EX = {"beta": 1.0, "lam": 0.01, "d": 10, "eps_n": 0.001, "delta": 0.1, "Q": 20, "gnorm2": 1.0}
register_terms(
    "fzoos.lemmad1",
    [beta * lam * sp.sqrt(d), eps_n * sp.sqrt(d) / lam, sp.sqrt(_fd_var)],
    kind="upper",
    unit=GRAD,
    status="corrected",
    source=_cite("fzoos", "Lemma D.1 (Berahas et al. 2022, Thm 2.6) with “3n” read as d"),
    quantity="‖Δ(x) − ∇f(x)‖ of the FD estimator (3), with probability ≥ 1 − δ",
    quantity_latex=r"\Vert\Delta(x)-\nabla f(x)\Vert",
    statement=(
        "f β-smooth, u_q ~ N(0, I), sup|y − f| ≤ ε_n: ‖Δ − ∇f‖ ≤ βλ√d + ε_n√d/λ + √((3d/(δQ))"
        "(3‖∇f(x)‖² + β²λ²(d + 2)(d + 4)/4 + 4ε_n²/λ²)); the paper's “3n” is d."
    ),
    hypotheses=[DELTA_LT_1],
    example=_FD_EX,
)
register_terms(
    "fzoos.lemmad1.noise",
    [sp.sqrt(2 * sp.log(2 / delta)) * sigma],
    kind="upper",
    unit=F_UNIT,
    source=_cite("fzoos", "Lemma D.1, remark (85)"),
    quantity="|ζ| = |y − f| of one Gaussian observation, with probability ≥ 1 − δ",
    quantity_latex=r"|y(x)-f(x)|",
    statement=(
        "(85): for ζ ~ N(0, σ²), |ζ| ≤ √(2ln(2/δ))σ with probability ≥ 1 − δ (the paper's ε, "
        "taken as sup|y − f|: per query, not uniform over queries)."
    ),
    hypotheses=[DELTA_LT_1],
    example={"delta": 0.1, "sigma": 0.01},
)
register_terms(
    "fzoos.lemmad1.bias",
    [_lam_expr, C / sp.sqrt(Q)],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Lemma D.1, remark (86)"),
    quantity="‖Δ(x) − ∇f(x)‖ with bounded gradients",
    quantity_latex=r"\Vert\Delta(x)-\nabla f(x)\Vert",
    statement=(
        "(86): ‖Δ − ∇f‖ ≤ Λ + O(1/√Q), Λ = βλ√d + ε_n√d/λ — an error floor that no Q removes "
        "(minimised at λ = √(ε_n/β), Λ = 2√(dβε_n))."
    ),
    example={k: v for k, v in _FD_EX.items() if k not in ("delta", "gnorm2")},
)
_PROPD = "with constant probability (FD estimates (3)), f_i β-smooth with bounded gradients"
_C = C
_PD_EX = {"Lam": 0.1, "G": 1.0, "Q": 20}
register_terms(
    "fzoos.propd1",
    [4 * Lam**2, 2 * G, 4 * _C / Q],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Proposition D.1 (FedZO)"),
    quantity=DISPARITY + " of FedZO (87)",
    quantity_latex=DISPARITY_TEX,
    statement="FedZO, " + _PROPD + ": (1/N)ΣΞ ≤ 4Λ² + 2G + 4·O(1/Q).",
    example=_PD_EX,
)
register_terms(
    "fzoos.propd2",
    [6 * Lam**2, 3 * G, 3 * gamma_p**2 * drift, 6 * _C / Q],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Proposition D.2 (FedProx-ZO)"),
    quantity=DISPARITY + " of FedProx-ZO (89)",
    quantity_latex=DISPARITY_TEX,
    statement="FedProx-ZO, " + _PROPD + ": ≤ 6Λ² + 3G + (3γ²/N)Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖² + "
    "6·O(1/Q).",
    example={**_PD_EX, "gamma_p": 0.1, "drift": 0.5},
)
register_terms(
    "fzoos.propd3",
    [18 * Lam**2, 6 * beta**2 * drift_sum / N, 18 * _C / Q],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Proposition D.3 (SCAFFOLD I)"),
    quantity=DISPARITY + " of SCAFFOLD I (91)",
    quantity_latex=DISPARITY_TEX,
    statement="SCAFFOLD I, " + _PROPD + ": ≤ 18Λ² + (6β²/N)Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖² + "
    "18·O(1/Q) as printed; its proof ends with 6β²Σ_i (no 1/N, guide §6.22). No G: the γ = 1 "
    "correction cancels heterogeneity at the anchor.",
    example={"Lam": 0.1, "Q": 20, "beta": 1.0, "N": 5, "drift_sum": 0.5},
)
register_terms(
    "fzoos.propd3.corrected",
    [18 * Lam**2, 6 * beta**2 * drift_sum, 18 * _C / Q],
    kind="order-upper",
    unit=None,
    status="corrected",
    source=_cite("fzoos", "Proposition D.3 as its proof (92) ends (guide §6.22)"),
    quantity=DISPARITY + " of SCAFFOLD I (91)",
    quantity_latex=DISPARITY_TEX,
    statement="SCAFFOLD I, " + _PROPD + ": ≤ 18Λ² + 6β²Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖² + "
    "18·O(1/Q), the drift summed, not averaged.",
    example={"Lam": 0.1, "Q": 20, "beta": 1.0, "drift_sum": 0.5},
)
_a_d4 = d + 2 * sp.sqrt(d * sp.log(1 / delta) / Q) + 2 * sp.log(1 / delta) / Q
register_terms(
    "fzoos.propd4",
    [18 * Lam**2, 24 * _a_d4 * c_lip**2 / (lam**2 * T) * drift_prev, 6 * _C / Q, 12 * _C / (T * Q)],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Proposition D.4 (SCAFFOLD II)"),
    quantity=DISPARITY + " of SCAFFOLD II",
    quantity_latex=DISPARITY_TEX,
    statement=(
        "SCAFFOLD II with the directions u_q shared by every iteration and round and f_i "
        "c-Lipschitz (printed ‘c-continuous’), " + _PROPD + ": ≤ 18Λ² + (24ac²/(λ²T))Σ_iΣ_τ"
        "‖x_{r,t−1}^{(i)} − x_{r−1,τ−1}^{(i)}‖² + 6·O(1/Q) + 12·O(1/(TQ)), a = d + "
        "2√(d ln(1/δ)/Q) + 2ln(1/δ)/Q."
    ),
    hypotheses=[DELTA_LT_1],
    example={
        "Lam": 0.1,
        "Q": 20,
        "d": 10,
        "delta": 0.1,
        "c_lip": 1.0,
        "lam": 0.01,
        "T": 10,
        "drift_prev": 0.001,
    },
)
_EXPLICIT = (
    " The O(1/Q) is Lemma D.1's variance term (3d/(δQ))(3‖∇f‖² + β²λ²(d + 2)(d + 4)/4 + "
    "4ε_n²/λ²) with ‖∇f‖² ≤ gnorm2 at every FD point and Λ = βλ√d + ε_n√d/λ (guide check 21); "
    "each of the N FD estimates holds with probability ≥ 1 − δ."
)
_EX_EX = {**_FD_EX, "G": 1.0}
register_terms(
    "fzoos.propd1.explicit",
    [4 * _lam_expr**2, 2 * G, 4 * _fd_var],
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=_cite("fzoos", "Proposition D.1 with Lemma D.1's explicit terms (guide check 21)"),
    quantity=DISPARITY + " of FedZO (87)",
    quantity_latex=DISPARITY_TEX,
    statement="FedZO: (1/N)ΣΞ ≤ 4Λ² + 2G + 4·var." + _EXPLICIT,
    hypotheses=[DELTA_LT_1],
    example=_EX_EX,
)
register_terms(
    "fzoos.propd2.explicit",
    [6 * _lam_expr**2, 3 * G, 3 * gamma_p**2 * drift, 6 * _fd_var],
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=_cite("fzoos", "Proposition D.2 with Lemma D.1's explicit terms (guide check 21)"),
    quantity=DISPARITY + " of FedProx-ZO (89)",
    quantity_latex=DISPARITY_TEX,
    statement="FedProx-ZO: ≤ 6Λ² + 3G + 3γ²·drift + 6·var." + _EXPLICIT,
    hypotheses=[DELTA_LT_1],
    example={**_EX_EX, "gamma_p": 0.1, "drift": 0.5},
)
register_terms(
    "fzoos.propd3.explicit",
    [18 * _lam_expr**2, 6 * beta**2 * drift_sum, 18 * _fd_var],
    kind="upper",
    unit=GRAD2,
    status="derived",
    source=_cite("fzoos", "Proposition D.3 (proof form) with Lemma D.1's terms (check 21)"),
    quantity=DISPARITY + " of SCAFFOLD I (91)",
    quantity_latex=DISPARITY_TEX,
    statement="SCAFFOLD I: ≤ 18Λ² + 6β²Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖² + 18·var." + _EXPLICIT,
    hypotheses=[DELTA_LT_1],
    example={k: v for k, v in {**_EX_EX, "drift_sum": 0.5}.items() if k != "G"},
)
register_terms(
    "fzoos.thmd1",
    [D1 / (eta * R * T), Lam**2, G, 1 / Q],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem D.1 (FedZO, non-convex)"),
    quantity=GRAD_MIN + " of FedZO",
    quantity_latex=GRAD_MIN_TEX,
    statement=(
        "FedZO, F β-smooth, η ≤ 7/(100βT), constant probability: min_r‖∇F(x_r)‖² ≤ "
        "O(D_1/(ηRT) + Λ² + G + 1/Q) — a floor Λ² + G + 1/Q that no number of rounds removes."
    ),
    hypotheses=[ETA_NONCONVEX],
    example={"D1": 1.0, "eta": 0.005, "beta": 1.0, "R": 50, "T": 10, "Lam": 0.1, "G": 1.0, "Q": 20},
)
