"""The convergence statements of ``fzoos``: Lemma C.11, Theorem C.1 and Theorem 2.

Private to :mod:`fedtheory.bounds.fzoos`, which documents the notation and what the caller of
the pathwise bounds measures (module docstring, "Pathwise statements").

==================================================  =============================================
id                                                  statement
==================================================  =============================================
``fzoos.lemmac11``                                  client drift ≤ 2η²TΣS^{t−τ}Ξ + 22η²T²‖∇F‖²
``fzoos.lemmac11.s`` / ``.geometric``               S = (T+1)²/(T(T−1)) / Σ_{τ<T}S^τ < 11T (62)
``fzoos.thmc1.h-convex`` / ``.h-nonconvex``         H/(ηT) of (68b) / of (75)–(76)
``fzoos.thmc1.rounds`` / ``.exact``                 R + 1 ≥ 4ln(4/3)/(αηT) / ln(4/3)/(−ln c)
``fzoos.thmc1.strongly-convex`` / ``.corrected``    Thm C.1(i) printed / (68a) fix + rounds
``fzoos.thmc1.convex`` / ``.diameter``              Thm C.1(ii) with √d / with max_r‖x_r − x*‖
``fzoos.thmc1.nonconvex`` / ``.corrected``          Thm C.1(iii) with 13 / with 1/H_ncvx(ηβT)
``fzoos.thm2.<case>``                               endpoints (82c), (83c) with √d, (84c)
``fzoos.thm2.rounds.<case>`` (+ ``.corrected``)     R requirements; (i) with 1/(−ln c)
``fzoos.thm2.features`` / ``.convex``               M = O(NG/ε²) / O(NG/ε² + d²NG/ε⁴)
==================================================  =============================================
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from fedtheory.bounds._citation import Citation
from fedtheory.bounds._fzoos_vocabulary import (
    ALPHA_LE_BETA,
    D0,
    D1,
    EPS_LT_D0,
    EPS_LT_G,
    ETA_DRIFT,
    ETA_NONCONVEX,
    ETA_SMOOTH,
    F_UNIT,
    GAP_MIN,
    GAP_MIN_TEX,
    GRAD2,
    GRAD_MIN,
    GRAD_MIN_TEX,
    ONE,
    ROUNDS,
    T_GE_2,
    T_LE,
    X_UNIT,
    D_eps,
    G,
    M,
    N,
    R,
    T,
    Xi,
    Xi_sqrt,
    alpha,
    beta,
    d,
    diam,
    eta,
    gradF2,
    r0_index,
    register_terms,
    s_index,
    t,
    t_index,
    x_ratio,
    xi,
)
from fedtheory.errors import ParameterError

__all__ = ["EQ69_PRINTED", "lemma_c11_rhs", "theorem_c1_sequences"]

_cite = Citation
S = (T + 1) ** 2 / (T * (T - 1))  # Lemma C.11
_c = 1 - alpha * eta * T / 4  # App. C.4–C.5
_j, _k, _s = r0_index, t_index, s_index

#: The round condition of (69)–(70) as printed, R + 1 ≥ 4ln(3/4)/(αηT): its right side is
#: negative for every α, η, T > 0, so the printed condition is vacuous (guide §6.16, check 27);
#: ``fzoos.thmc1.rounds`` registers the corrected ln(4/3).
EQ69_PRINTED: sp.Expr = 4 * sp.log(sp.Rational(3, 4)) / (alpha * eta * T)


# ---------------------------------------------------------------------------- sums over a log
def _plain(j: sp.Expr) -> sp.Expr:
    """Σ_{t≤T}Σ_iΞ_{j+1,t}^{(i)} = Σ_t Xi[jT + t − 1]."""
    return sp.Sum(Xi[j * T + _k - 1], (_k, 1, T))


def _discounted(j: sp.Expr) -> sp.Expr:
    """Σ_{t≤T}Σ_{τ≤t}S^{t−τ}Σ_iΞ_{j+1,τ}^{(i)}, summed over τ first: the weight of step τ is
    Σ_{t=τ}^{T}S^{t−τ} = (S^{T−τ+1} − 1)/(S − 1) (one sum per round, and sympy expands it)."""
    weight = (S ** (T - _s + 1) - 1) / (S - 1)
    return sp.Sum(weight * Xi[j * T + _s - 1], (_s, 1, T))


def _roots(j: sp.Expr) -> sp.Expr:
    """Σ_{t≤T}Σ_i(Ξ_{j+1,t}^{(i)})^{1/2} = Σ_t Xi_sqrt[jT + t − 1]."""
    return sp.Sum(Xi_sqrt[j * T + _k - 1], (_k, 1, T))


def _over_rounds(term: sp.Expr) -> sp.Expr:
    return sp.Sum(term, (_j, 0, R))


def theorem_c1_sequences(xi_log: Any) -> dict[str, np.ndarray]:
    """The measured sequences of Theorem C.1 from a log of disparities.

    Parameters
    ----------
    xi_log
        Array of shape (R + 1, N, T): ``xi_log[r, i, t − 1]`` = Ξ_{r+1,t}^{(i)} =
        ‖ĝ_{r+1,t−1}^{(i)} − ∇F(x_{r+1,t−1}^{(i)})‖², the squared distance between the direction
        client i used at step t of round r + 1 and the exact global gradient at the point where
        it used it (guide §3, Theorem C.1; round r + 1 at index r, r = 0, …, R).

    Returns
    -------
    dict
        ``Xi`` (Σ_iΞ, flattened to length (R + 1)T, entry rT + t − 1) and ``Xi_sqrt``
        (Σ_i√Ξ, same layout): the keyword arguments the ``fzoos.thmc1.*`` bounds take.

    Raises
    ------
    ParameterError
        If the log is not a finite, nonnegative array of three dimensions with T ≥ 2.
    """
    array = np.asarray(xi_log, dtype=float)
    if array.ndim != 3 or array.size == 0:
        raise ParameterError(
            parameter="xi_log", value=array.shape, rule="must have shape (R + 1, N, T)"
        )
    if array.shape[2] < 2:
        raise ParameterError(
            parameter="xi_log", value=array.shape, rule="needs T ≥ 2 local steps (S of Lemma C.11)"
        )
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ParameterError(
            parameter="xi_log",
            value="non-finite or negative entries",
            rule="squared norms are finite and ≥ 0",
        )
    return {"Xi": array.sum(axis=1).ravel(), "Xi_sqrt": np.sqrt(array).sum(axis=1).ravel()}


def lemma_c11_rhs(xi_log: Any, grad_sq: Any, eta: float, T: int) -> np.ndarray:
    """The right side of Lemma C.11 at every (round, client, step) of a log, vectorised.

    ``out[r, i, t − 1]`` = 2η²TΣ_{τ≤t}S^{t−τ}Ξ_{r+1,τ}^{(i)} + 22η²T²‖∇F(x_r)‖², the bound on
    ‖x_{r+1,t}^{(i)} − x_r‖² — the same formula as the registered ``fzoos.lemmac11`` (one client,
    one round), for a whole run at once. The hypotheses (T ≥ 2, η ≤ 1/(βT)) are the caller's.

    Parameters
    ----------
    xi_log
        Disparities of shape (R + 1, N, T), as in :func:`theorem_c1_sequences`.
    grad_sq
        ‖∇F(x_r)‖² for r = 0, …, R, shape (R + 1,).
    eta
        The local learning rate η.
    T
        Local steps per round (must equal ``xi_log.shape[2]``).

    Raises
    ------
    ParameterError
        On shapes that do not match, T < 2 or η ≤ 0.
    """
    array = np.asarray(xi_log, dtype=float)
    grads = np.asarray(grad_sq, dtype=float)
    if array.ndim != 3 or array.shape[2] != T:
        raise ParameterError(parameter="xi_log", value=array.shape, rule=f"must be (R + 1, N, {T})")
    if grads.shape != (array.shape[0],):
        raise ParameterError(
            parameter="grad_sq", value=grads.shape, rule=f"must have shape ({array.shape[0]},)"
        )
    if T < 2 or not eta > 0:
        raise ParameterError(parameter="T, eta", value=(T, eta), rule="T ≥ 2 and η > 0")
    s_value = (T + 1) ** 2 / (T * (T - 1))
    discounted = np.zeros_like(array)
    running = np.zeros(array.shape[:2])
    for step in range(T):  # D_t = S·D_{t−1} + Ξ_t: Σ_{τ≤t}S^{t−τ}Ξ_τ
        running = s_value * running + array[:, :, step]
        discounted[:, :, step] = running
    result: np.ndarray = 2 * eta**2 * T * discounted + 22 * eta**2 * T**2 * grads[:, None, None]
    return result


# ====================================================================== Lemma C.11 and constants
register_terms(
    "fzoos.lemmac11",
    [
        2 * eta**2 * T * sp.Sum(S ** (t - _s) * xi[_s - 1], (_s, 1, t)),
        22 * eta**2 * T**2 * gradF2,
    ],
    kind="upper",
    unit=X_UNIT**2,
    source=_cite("fzoos", "Lemma C.11, (60)–(62)"),
    quantity="‖x_{r+1,t}^{(i)} − x_r‖², client i's drift after t local steps of round r + 1",
    quantity_latex=r"\Vert x_{r+1,t}^{(i)}-x_r\Vert^{2}",
    statement=(
        "Deterministic, any local directions: for β-smooth F, T ≥ 2 and η ≤ 1/(βT), "
        "‖x_{r+1,t}^{(i)} − x_r‖² ≤ 2η²TΣ_{τ≤t}S^{t−τ}Ξ_{r+1,τ}^{(i)} + 22η²T²‖∇F(x_r)‖², "
        "S = (T + 1)²/(T(T − 1)); xi[τ − 1] = Ξ_{r+1,τ}^{(i)} of the client and round "
        "(lemma_c11_rhs evaluates a whole log). The 22 is 2·11 from Σ_{τ<T}S^τ < 11T (62)."
    ),
    hypotheses=[T_GE_2, T_LE, ETA_DRIFT],
    example={"eta": 0.05, "T": 2, "t": 2, "beta": 1.0, "xi": [0.5, 0.2], "gradF2": 1.0},
)
register_terms(
    "fzoos.lemmac11.s",
    [S],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "Lemma C.11, definition of S"),
    quantity="S, the per-step growth factor of the drift recursion (61)",
    quantity_latex="S",
    statement=(
        "S = (T + 1)²/(T(T − 1)) ≥ T(1 + ηβ)²/(T − 1) for η ≤ 1/(βT); S(2) = 4.5, decreasing in T."
    ),
    hypotheses=[T_GE_2],
    example={"T": 10},
    unjudged="a constant of Lemma C.11: checked exactly in tests/test_fzoos_bounds.py (check 7)",
)
register_terms(
    "fzoos.lemmac11.geometric",
    [11 * T],
    kind="upper",
    unit=ONE,
    source=_cite("fzoos", "Lemma C.11, (62)"),
    quantity="Σ_{τ=0}^{T−1}S^τ",
    quantity_latex=r"\sum_{\tau<T}S^{\tau}",
    statement=(
        "(62): Σ_{τ<T}S^τ = (S^T − 1)/(S − 1) < 11T. True (the maximum ratio is 6.36 → "
        "(e³ − 1)/3 as T → ∞), though the intermediate exponent (3T + 1)/T should be "
        "(3T + 1)/(T − 1) (guide §6.18)."
    ),
    hypotheses=[T_GE_2],
    example={"T": 10},
    unjudged="a constant of Lemma C.11: checked for T = 2, …, 10⁴ in tests/test_fzoos_bounds.py",
)
_H_NOTE = "checked exactly in tests/test_fzoos_bounds.py (checks 7, 22)"
register_terms(
    "fzoos.thmc1.h-convex",
    [2 * (1 - 2 * x_ratio * (44 * x_ratio**2 + 22 * x_ratio + 1))],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "proof of Theorem C.1, (68b)"),
    quantity="H/(ηT), H = 2ηT(1 − 2ηTβ(44η²T²β² + 22ηTβ + 1)) of the convex cases",
    quantity_latex=r"H/(\eta T)",
    statement=(
        "With x = ηβT: H/(ηT) = 2(1 − 2x(44x² + 22x + 1)), decreasing, = 68/125 = 0.544 at "
        "x = 1/10 (the paper's H ≥ 0.544ηT for η ≤ 1/(10βT))."
    ),
    hypotheses=[sp.Le(x_ratio, sp.Rational(1, 10))],
    example={"x": 0.1},
    unjudged="a constant inside the proof of Theorem C.1(i)–(ii): " + _H_NOTE,
)
_h_ncvx = 1 - 13 * x_ratio - 44 * x_ratio**3
register_terms(
    "fzoos.thmc1.h-nonconvex",
    [_h_ncvx],
    kind="exact",
    unit=ONE,
    source=_cite("fzoos", "proof of Theorem C.1(iii), (75)–(76)"),
    quantity="H/(ηT), H = ηT − 44η⁴T⁴β³ − 13η²T²β of the non-convex case",
    quantity_latex=r"H/(\eta T)",
    statement=(
        "With x = ηβT: H/(ηT) = 1 − 13x − 44x³. The proof claims H > 0.08ηT for x ≤ 0.07; "
        "at x = 0.07 it is 0.0749 (guide §6.15, check 22): H ≥ 0.08ηT needs x ≤ 0.06963, and "
        "the printed constant 13 (≥ 1/H·ηT) needs x ≤ 0.06985."
    ),
    hypotheses=[sp.Le(x_ratio, sp.Rational(7, 100))],
    example={"x": 0.07},
    unjudged="a constant inside the proof of Theorem C.1(iii): " + _H_NOTE,
)
_ROUNDS_Q = "R + 1, the rounds after which (70) gives p_r ≤ αηTc^{R−r}"
register_terms(
    "fzoos.thmc1.rounds",
    [4 * sp.log(sp.Rational(4, 3)) / (alpha * eta * T)],
    kind="lower",
    unit=None,
    status="corrected",
    source=_cite("fzoos", "proof of Theorem C.1(i), (69)–(70) (guide §6.16, check 27)"),
    quantity=_ROUNDS_Q,
    quantity_latex="R+1",
    statement=(
        "(70) needs 1 − c^{R+1} ≥ 1/4, c = 1 − αηT/4; with 1 − y ≤ e^{−y} this holds once "
        "R + 1 ≥ 4ln(4/3)/(αηT). Printed with ln(3/4) < 0 (EQ69_PRINTED), a condition every R "
        "meets; with η ≤ 1/(10βT) the corrected one asks R + 1 ≥ 11.5 at least."
    ),
    example={"alpha": 0.5, "eta": 0.05, "T": 2},
    unjudged=(
        "the round condition of Theorem C.1(i): a hypothesis of fzoos.thmc1.strongly-convex."
        "corrected, whose claims judge it; the sign erratum is checked in "
        "tests/test_fzoos_bounds.py (check 27)"
    ),
)
register_terms(
    "fzoos.thmc1.rounds.exact",
    [sp.log(sp.Rational(4, 3)) / (-sp.log(1 - alpha * eta * T / 4))],
    kind="lower",
    unit=None,
    status="derived",
    source=_cite("fzoos", "proof of Theorem C.1(i), (70) solved exactly"),
    quantity=_ROUNDS_Q,
    quantity_latex="R+1",
    statement=(
        "c^{R+1} ≤ 3/4 exactly when R + 1 ≥ ln(4/3)/(−ln(1 − αηT/4)), which is ≤ 4ln(4/3)/(αηT) "
        "(−ln(1 − y) ≥ y): the corrected condition is sufficient."
    ),
    hypotheses=[sp.Lt(alpha * eta * T, 4)],
    example={"alpha": 0.5, "eta": 0.05, "T": 2},
    unjudged="the exact form of fzoos.thmc1.rounds, compared with it in tests/test_fzoos_bounds.py",
)

# ====================================================================== Theorem C.1
_p = _c ** (R - _j) * (1 - _c) / (1 - _c ** (R + 1))  # p_r in closed form
_MEASURED = (
    " Measured: Xi[rT + t − 1] = Σ_iΞ_{r+1,t}^{(i)} (and Xi_sqrt with √Ξ), r = 0, …, R, from "
    "theorem_c1_sequences(log of shape (R + 1, N, T))."
)
_SC = "Algorithm 1 with any local directions, F β-smooth and α-strongly convex, η ≤ 1/(10βT)"
_SC_HYPOTHESES = [ETA_SMOOTH, ALPHA_LE_BETA, T_GE_2]


def _xi_example(rounds: int, steps: int) -> list[float]:
    return [round(0.5 * 0.8**k, 6) for k in range(rounds * steps)]


_SC_EXAMPLE = {
    "alpha": 1.0,
    "beta": 1.0,
    "eta": 0.05,
    "T": 2,
    "N": 3,
    "R": 2,
    "D0": 1.0,
    "Xi": _xi_example(3, 2),
}
_SC_EXAMPLE_ROUNDS = {**_SC_EXAMPLE, "R": 11, "Xi": _xi_example(12, 2)}
register_terms(
    "fzoos.thmc1.strongly-convex",
    [
        2 * alpha * sp.exp(-alpha * eta * T * R / 4) * D0,
        _over_rounds(_p * eta / (N * T) * _discounted(_j)),
        _over_rounds(_p * 8 * (eta * T + 1 / alpha) / (alpha * N * T) * _plain(_j)),
    ],
    kind="upper",
    unit=F_UNIT,
    source=_cite("fzoos", "Theorem C.1(i)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=(
        _SC + ", p_r = c^{R−r}/Σ_{r′}c^{R−r′}, c = 1 − αηT/4: min_r F(x_r) − F* ≤ "
        "2αe^{−αηTR/4}D_0 + Σ_rp_rΣ_{i,t}[(η/(NT))Σ_τS^{t−τ}Ξ_{r+1,τ}^{(i)} + (8(ηT + 1/α)/"
        "(αNT))Ξ_{r+1,t}^{(i)}], as printed: without the round condition its proof needs "
        "(fails even for Ξ = 0 below it, guide check 27) and with the stray 1/α of (68a) in the "
        "Ξ coefficient (dimensionally wrong; larger than the fix when α < 1)." + _MEASURED
    ),
    hypotheses=_SC_HYPOTHESES,
    example=_SC_EXAMPLE,
)
register_terms(
    "fzoos.thmc1.strongly-convex.corrected",
    [
        2 * alpha * sp.exp(-alpha * eta * T * R / 4) * D0,
        _over_rounds(_p * eta / (N * T) * _discounted(_j)),
        _over_rounds(_p * 8 * (eta * T + 1 / alpha) / (N * T) * _plain(_j)),
    ],
    kind="upper",
    unit=F_UNIT,
    status="corrected",
    source=_cite("fzoos", "Theorem C.1(i) with (68a) fixed and the round condition (guide §3)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=(
        _SC + " and R + 1 ≥ 4ln(4/3)/(αηT): the printed bound with the Ξ coefficient "
        "4η(ηT + 1/α)/N of (68a) (no 1/α), i.e. 8(ηT + 1/α)/(NT) after dividing by H ≥ "
        "0.544ηT." + _MEASURED
    ),
    hypotheses=[*_SC_HYPOTHESES, ROUNDS],
    example=_SC_EXAMPLE_ROUNDS,
)
_CVX = "Algorithm 1 with any local directions, F β-smooth and convex, η ≤ 1/(10βT)"
_CVX_EXAMPLE = {
    "beta": 1.0,
    "eta": 0.05,
    "T": 2,
    "N": 3,
    "R": 2,
    "D0": 1.0,
    "Xi": _xi_example(3, 2),
    "Xi_sqrt": [round(1.2 * 0.9**k, 6) for k in range(6)],
}


def _convex_terms(radius: sp.Expr) -> list[sp.Expr]:
    return [
        2 * D0 / (eta * R * T),
        _over_rounds(eta / (N * T) * _discounted(_j)) / R,
        _over_rounds(8 * eta / N * _plain(_j)) / R,
        _over_rounds(4 * radius / (N * T) * _roots(_j)) / R,
    ]


register_terms(
    "fzoos.thmc1.convex",
    _convex_terms(sp.sqrt(d)),
    kind="upper",
    unit=F_UNIT,
    source=_cite("fzoos", "Theorem C.1(ii)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=(
        _CVX + ": min_r F(x_r) − F* ≤ 2D_0/(ηRT) + (1/R)Σ_{r,i,t}[(η/(NT))Σ_τS^{t−τ}Ξ + "
        "(8η/N)Ξ + (4√d/(NT))√Ξ], √d the diameter of [0, 1]^d: valid only while every x_r "
        "stays in the box (no projection exists in Algorithm 1)." + _MEASURED
    ),
    hypotheses=[ETA_SMOOTH, T_GE_2],
    example={**_CVX_EXAMPLE, "d": 4},
)
register_terms(
    "fzoos.thmc1.convex.diameter",
    _convex_terms(diam),
    kind="upper",
    unit=F_UNIT,
    status="derived",
    source=_cite("fzoos", "Theorem C.1(ii), (71b) with the measured radius (guide §3, note A5)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=(
        _CVX + ": the bound with √d replaced by max_r‖x_r − x*‖, which is how the diameter "
        "enters (71b); valid for unconstrained runs." + _MEASURED
    ),
    hypotheses=[ETA_SMOOTH, T_GE_2],
    example={**_CVX_EXAMPLE, "diam": 1.5},
)
_NCVX = "Algorithm 1 with any local directions, F β-smooth, η ≤ 7/(100βT)"
_ncvx_inner = _over_rounds(
    (sp.Rational(7, 50) * eta + 1 / (2 * beta * T)) / N * _plain(_j)
    + sp.Rational(51, 50) * eta**2 * beta / N * _discounted(_j)
)
_NCVX_EXAMPLE = {
    "beta": 1.0,
    "eta": 0.03,
    "T": 2,
    "N": 3,
    "R": 2,
    "D1": 1.0,
    "Xi": _xi_example(3, 2),
}
register_terms(
    "fzoos.thmc1.nonconvex",
    [13 * D1 / (eta * R * T), 13 / (eta * R * T) * _ncvx_inner],
    kind="upper",
    unit=GRAD2,
    source=_cite("fzoos", "Theorem C.1(iii)"),
    quantity=GRAD_MIN,
    quantity_latex=GRAD_MIN_TEX,
    statement=(
        _NCVX + ": min_r‖∇F(x_r)‖² ≤ 13D_1/(ηRT) + (13/(ηRT))Σ_{r,i,t}[((0.14η + 1/(2βT))/N)Ξ "
        "+ (1.02η²β/N)Σ_τS^{t−τ}Ξ], as printed: 13 stands for ηT/H with H > 0.08ηT, false "
        "for ηβT ∈ (0.06985, 0.07] (H = 0.0749ηT at 0.07, guide §6.15)." + _MEASURED
    ),
    hypotheses=[ETA_NONCONVEX, T_GE_2],
    example=_NCVX_EXAMPLE,
)
_inv_h = 1 / (1 - 13 * eta * beta * T - 44 * (eta * beta * T) ** 3)
register_terms(
    "fzoos.thmc1.nonconvex.corrected",
    [_inv_h * D1 / (eta * R * T), _inv_h / (eta * R * T) * _ncvx_inner],
    kind="upper",
    unit=GRAD2,
    status="corrected",
    source=_cite("fzoos", "Theorem C.1(iii) with the exact H of (76) (guide §3, check 22)"),
    quantity=GRAD_MIN,
    quantity_latex=GRAD_MIN_TEX,
    statement=(
        _NCVX + ": the printed bound with 13 replaced by ηT/H = 1/(1 − 13x − 44x³), x = ηβT "
        "(≤ 13 exactly when x ≤ 0.06985; 13.35 at x = 0.07)." + _MEASURED
    ),
    hypotheses=[ETA_NONCONVEX, T_GE_2],
    example=_NCVX_EXAMPLE,
)

# ====================================================================== Theorem 2 (order)
_THM2 = "FZooS (Algorithm 2) with ρ < 1, constant probability; the O(·) hides ω, κ, 1/(1 − ρ)"
_ORDER_NOTE = (
    "order statement of an O(·) endpoint: its constant hides ω ≈ d, κ and 1/(1 − ρ), which "
    "is infinite for the SE kernel while a client has fewer than d queries (ρ = 1); judged "
    "through its rates (trends in G, M, T)"
)
_T2 = {"eta": 0.05, "R": 50, "T": 10, "G": 1.0, "N": 5, "M": 10000}
register_terms(
    "fzoos.thm2.strongly-convex",
    [sp.exp(-eta * R * T) * D0, _c**R * sp.sqrt(G), sp.sqrt(N * G / M)],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(i), endpoint (82c)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=_THM2 + ", F α-strongly convex, η ≤ 1/(10βT): O(e^{−ηRT}D_0 + c^R√G + √(NG/M)), "
    "c = 1 − αηT/4.",
    hypotheses=[sp.Lt(alpha * eta * T, 4)],
    example={**_T2, "alpha": 4.0, "D0": 1.0},
    unjudged=_ORDER_NOTE,
)
register_terms(
    "fzoos.thm2.convex",
    [
        D0 / (eta * R * T),
        (sp.sqrt(G) + (d**2 * G) ** sp.Rational(1, 4)) / R,
        sp.sqrt(N * G / M),
        sp.sqrt(d) * (N * G / M) ** sp.Rational(1, 4),
    ],
    kind="order-upper",
    unit=None,
    status="corrected",
    source=_cite("fzoos", "Theorem 2(ii), endpoint (83c) with √d kept (guide §3)"),
    quantity=GAP_MIN,
    quantity_latex=GAP_MIN_TEX,
    statement=_THM2 + ", F convex, η ≤ 1/(10βT): O(D_0/(ηRT) + (√G + (d²G)^{1/4})/R + √(NG/M) "
    "+ √d(NG/M)^{1/4}); (83c) prints (NG/M)^{1/4} without the √d that the M requirement "
    "d²NG/ε⁴ needs.",
    example={**_T2, "D0": 1.0, "d": 10},
)
register_terms(
    "fzoos.thm2.nonconvex",
    [D1 / (eta * R * T), sp.sqrt(G) / R, sp.sqrt(N * G / M)],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(iii), endpoint (84c)"),
    quantity=GRAD_MIN,
    quantity_latex=GRAD_MIN_TEX,
    statement=_THM2 + ", F β-smooth, η ≤ 7/(100βT): O(D_1/(ηRT) + √G/R + √(NG/M)); the step "
    "from (84b) treats 1/(ηβT) as O(1), i.e. η = Θ(1/(βT)).",
    example={**_T2, "D1": 1.0},
)
_RND = "R, the rounds FZooS needs to reach error ε (Theorem 2)"
_RND_EX = {"eta": 0.05, "T": 10, "D0": 1.0, "G": 1.0, "epsilon": 0.01}
register_terms(
    "fzoos.thm2.rounds.strongly-convex",
    [sp.log(D0 / D_eps) / (eta * T), sp.log(sp.sqrt(G) / D_eps)],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(i), R requirement"),
    quantity=_RND,
    quantity_latex="R",
    statement=(
        _THM2 + ": R = O((1/(ηT))ln(D_0/ε) + ln(√G/ε)) as printed; c^R√G ≤ ε/4 in (82c) "
        "needs R ≥ ln(4√G/ε)/(−ln c) ≈ (4/(αηT))ln(4√G/ε): the factor 1/(αηT) is dropped "
        "(guide §6.5, check 26)."
    ),
    hypotheses=[EPS_LT_D0, EPS_LT_G],
    example=_RND_EX,
)
register_terms(
    "fzoos.thm2.rounds.strongly-convex.corrected",
    [sp.log(D0 / D_eps) / (eta * T), 4 * sp.log(sp.sqrt(G) / D_eps) / (alpha * eta * T)],
    kind="order-upper",
    unit=None,
    status="corrected",
    source=_cite("fzoos", "Theorem 2(i), R solved from (82c) (guide §3, check 26)"),
    quantity=_RND,
    quantity_latex="R",
    statement=(
        _THM2 + ": each term of (82c) below ε/4 needs R ≳ ln(D_0/ε)/(ηT) + ln(√G/ε)/(−ln c), "
        "c = 1 − αηT/4; 1/(−ln c) ∈ [(1 − y)/y, 1/y], y = αηT/4 ≤ 1/40, so up to the O(·) "
        "constant the requirement is ln(D_0/ε)/(ηT) + 4ln(√G/ε)/(αηT) (≥ 40·ln(√G/ε) for "
        "η ≤ 1/(10βT))."
    ),
    hypotheses=[EPS_LT_D0, EPS_LT_G, sp.Lt(alpha * eta * T, 4)],
    example={**_RND_EX, "alpha": 0.1},
)
register_terms(
    "fzoos.thm2.rounds.convex",
    [D0 / (eta * T * D_eps), (sp.sqrt(G) + (d**2 * G) ** sp.Rational(1, 4)) / D_eps],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(ii), R requirement"),
    quantity=_RND,
    quantity_latex="R",
    statement=_THM2 + ", F convex: R = O(D_0/(ηTε) + (√G + (d²G)^{1/4})/ε).",
    example={**_RND_EX, "d": 10},
)
register_terms(
    "fzoos.thm2.rounds.nonconvex",
    [D1 / (eta * T * D_eps), sp.sqrt(G) / D_eps],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(iii), R requirement"),
    quantity=_RND,
    quantity_latex="R",
    statement=_THM2 + ", F β-smooth: R = O(D_1/(ηTε) + √G/ε).",
    example={k: v for k, v in {**_RND_EX, "D1": 1.0}.items() if k != "D0"},
)
_FEAT = "M, the random features FZooS needs to reach error ε (Theorem 2)"
register_terms(
    "fzoos.thm2.features",
    [N * G / D_eps**2],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(i), (iii), M requirement"),
    quantity=_FEAT,
    quantity_latex="M",
    statement=(
        _THM2 + ": M = O(NG/ε²) — from ε_RFF = O(1/M), whose constant grows like (RT)⁴ "
        "(Lemma C.4), so the true requirement grows with R and T."
    ),
    example={"N": 5, "G": 1.0, "epsilon": 0.1},
)
register_terms(
    "fzoos.thm2.features.convex",
    [N * G / D_eps**2, d**2 * N * G / D_eps**4],
    kind="order-upper",
    unit=None,
    source=_cite("fzoos", "Theorem 2(ii), M requirement"),
    quantity=_FEAT,
    quantity_latex="M",
    statement=_THM2 + ", F convex: M = O(NG/ε² + d²NG/ε⁴).",
    example={"N": 5, "G": 1.0, "epsilon": 0.1, "d": 10},
)
