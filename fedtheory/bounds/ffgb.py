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

==============================================  ===============================================
id                                              statement
==============================================  ===============================================
``ffgb.eq12``                                   |⟨f,g⟩_{α_i} − ⟨f,g⟩_α| ≤ 2‖f‖_∞‖g‖_∞TV    (12)
``ffgb.eq15``                                   ... ≤ (‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞})W1 (15)
``ffgb.lemma-residual`` / ``.h``                ‖Δ‖_α ≤ (1−γ)G/γ, ‖h‖_α ≤ (2−γ)G/γ          (28)
``ffgb.lemma-iterate`` / ``.hhat``              ‖g‖_α ≤ 2G/(γμ), ‖h + μg‖_α ≤ 4G/γ (29, fixed)
``ffgb.lemmad1.residual`` / ``.h``              clip levels G¹_γ, G²_γ never bind on supp α_i
``ffgb.thmd1.b-min``                            the least admissible radius B = 2G/(μγ) (D.1)
``ffgb.lemmad2`` / ``.corrected``               ‖g‖_∞ ≤ 2G/(γμ): printed steps / k0 ≥ 3
``ffgb.lemmae1.*``                              FFGB.L sup and Lipschitz bounds (42)–(43), App. E
``ffgb.lemmae2`` / ``.corrected``               ‖g_i‖_{α_i,∞} ≤ B/γ as printed / (LD + B)/γ
``ffgb.lemmae4`` / ``.corrected`` / ``.global``  ‖ḡ‖_{α_s} ≤ G_s²/γ² (typo) / squared / on α
``ffgb.thm31`` / ``.corrected``                 Theorem 3.1 (= C.1), printed / (1−γ)², μ² fixed
``ffgb.thm31.explicit``                         §3.9: every constant explicit (derived)
``ffgb.thm31.floor``                            its T → ∞ limit 4(1−γ)²G²/(Kμ²γ²)
``ffgb.cor31`` / ``.k-star`` / ``.balanced``    Corollary 3.1: K = √T; the balance K*; its rate
``ffgb.thm32`` / ``ffgb.thmd1``                 Theorem 3.2 (five terms) / D.1, eq. (40) (four)
``ffgb.thm32.radius``                           its T → ∞ limit at B = 2G/(μγ)
``ffgb.thm32.omega-explicit``                   the ω_TV term with the proof's constant 128
``ffgb.thm33`` / ``ffgb.thme1``                 Theorem 3.3 / E.1, eq. (41)
``ffgb.thm33.radius``                           its T → ∞ limit, (DL² + BL)ω_W1/(γ²μ)
``ffgb.thmf1`` / ``.corrected``, ``.thmf2/3``   partial participation: + (N−m)/(N−1)·G²logT/(Tμ²mγ²)
``ffgb.limit.c-k`` / ``.mu-eff``                c_K = Σ_k(1−γ)^k, μ_eff = μK/(K − c_K)  (§3.8)
``ffgb.limit.square-floor`` / ``.k2``           square loss: ‖m̄‖²(1/(1+μ) − 1/(1+μ_eff))²; K²·it
``ffgb.limit.no-residual``                      the no-residual limit regularises with μ/γ
``ffgb.limit.ffgbl``                            FFGB.L's limit (1 − c_K/K)·ū
``ffgb.limit.alg4-literal``                     Alg. 4 as printed: −(1/K)Σ_k((1+γ)^k − 1)·ū
``ffgb.stepsize.ffgbc`` / ``.corrected``        μη at step s: 4/(s + 1) printed, 4/(s + k0)
==============================================  ===============================================

The FFGB.C pointwise limit and the logistic limits of §3.8 are not closed forms; they live with
the paper's numerics (:mod:`fedtheory.papers.ffgb`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp

from fedtheory.bounds._bound import Bound, Hypothesis, Kind, get, register
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._dimensions import TermUnit, audit_terms
from fedtheory.bounds._symbols import COMMON, Vocabulary
from fedtheory.errors import ParameterError

__all__ = ["UNITS", "dimension_audit", "term_units"]

# ---------------------------------------------------------------------------- symbols
V = Vocabulary("ffgb", parent=COMMON)
T, K, C = (COMMON.symbol(s) for s in ("T", "K", "C"))

N = V.declare("N", "number of clients (the paper's N)", positive=True, integer=True)
m = V.declare(
    "m",
    "number of clients sampled per round, uniformly without replacement (App. F)",
    positive=True,
    integer=True,
)
gamma = V.declare(
    "gamma",
    "edge γ ∈ (0, 1] of the weak-learning oracle: ‖WO(φ) − φ‖ ≤ (1 − γ)‖φ‖ (9), (13), (19)–(20)",
    latex=r"\gamma",
    positive=True,
)
mu = V.declare(
    "mu",
    "weight μ of the Tikhonov term (μ/2)‖f‖²_α of (3), (11): F is μ-strongly convex",
    latex=r"\mu",
    positive=True,
)
D0 = V.declare("D0", "initial squared distance ‖f⁰ − f*‖²_α", latex="D_0", nonnegative=True)
G = V.declare(
    "G",
    "gradient bound: ‖∇R_i[f]‖ ≤ G (Assumption 3.1 in L²(α_i), 3.2 in L∞(α_i))",
    positive=True,
)
B = V.declare(
    "B",
    "L∞ radius of FFGB.C's feasible set B^∞(B) (Thm 3.2), or FFGB.L's label bound |y| ≤ B "
    "(Assumption 3.3)",
    positive=True,
)
L = V.declare(
    "L", "Lipschitz constant of the labels: |y_ij − y_ij'| ≤ L‖x_ij − x_ij'‖ (16)", positive=True
)
D = V.declare(
    "D",
    "covering distance of Assumption 3.3: each client point has a point of every other client "
    "within D",
    positive=True,
)
omega_TV = V.declare(
    "omega_TV",
    "ω_TV = (1/N)Σ_i TV(α, α_i), the average total-variation heterogeneity (Thm 3.2)",
    latex=r"\omega_{\mathrm{TV}}",
    nonnegative=True,
)
omega_W1 = V.declare(
    "omega_W1",
    "ω_W1 = (1/N)Σ_i W1(α, α_i), the average Wasserstein-1 heterogeneity (Thm 3.3)",
    latex=r"\omega_{W_1}",
    nonnegative=True,
)
W2sq = V.declare(
    "W2sq",
    "(1/N²)Σ_{i,s} W2²(α_s, α_i), the average squared Wasserstein-2 distance (Thm 3.3)",
    latex=r"\overline{W_2^2}",
    nonnegative=True,
)
W2sq_s = V.declare(
    "W2sq_s",
    "(1/N)Σ_i W2²(α_s, α_i), client s's average squared Wasserstein-2 distance (Lemma E.4)",
    latex=r"\overline{W_2^2}_s",
    nonnegative=True,
)
TV = V.declare(
    "TV", "TV(α, α_i) = sup_A |α(A) − α_i(A)| (21)", latex=r"\mathrm{TV}", nonnegative=True
)
W1 = V.declare("W1", "W1(α, α_i), the Wasserstein-1 distance (22)", latex="W_1", nonnegative=True)
f_sup = V.declare(
    "f_sup", "‖f‖_∞ = sup_{x∈𝒳} |f(x)|", latex=r"\Vert f\Vert_{\infty}", nonnegative=True
)
g_sup = V.declare(
    "g_sup", "‖g‖_∞ = sup_{x∈𝒳} |g(x)|", latex=r"\Vert g\Vert_{\infty}", nonnegative=True
)
f_sup_alpha = V.declare(
    "f_sup_alpha",
    "‖f‖_{α,∞}, the sup of |f| on supp α",
    latex=r"\Vert f\Vert_{\alpha,\infty}",
    nonnegative=True,
)
g_sup_alpha = V.declare(
    "g_sup_alpha",
    "‖g‖_{α,∞}, the sup of |g| on supp α",
    latex=r"\Vert g\Vert_{\alpha,\infty}",
    nonnegative=True,
)
f_lip = V.declare(
    "f_lip", "‖f‖_lip, the Lipschitz constant of f", latex=r"\Vert f\Vert_{lip}", nonnegative=True
)
g_lip = V.declare(
    "g_lip", "‖g‖_lip, the Lipschitz constant of g", latex=r"\Vert g\Vert_{lip}", nonnegative=True
)
f0_norm = V.declare(
    "f0_norm",
    "‖f⁰‖_α, the norm of the initial function",
    latex=r"\Vert f^0\Vert_{\alpha}",
    nonnegative=True,
)
f0_sup = V.declare(
    "f0_sup",
    "‖f⁰‖_∞, the sup norm of the initial function",
    latex=r"\Vert f^0\Vert_{\infty}",
    nonnegative=True,
)
f0_lip = V.declare(
    "f0_lip",
    "‖f⁰‖_lip, the Lipschitz constant of the initial function",
    latex=r"\Vert f^0\Vert_{lip}",
    nonnegative=True,
)
k0 = V.declare(
    "k0",
    "offset k0 of the step size η^{k,t} = 4/(μ(tK + k + k0)) (the paper prints k0 = 1)",
    latex="k_0",
    positive=True,
    integer=True,
)
s = V.declare("s", "global step counter s = tK + k ≥ 1", positive=True, integer=True)
mbar2 = V.declare(
    "mbar2",
    "‖m̄‖²_α, m̄ = (1/N)Σ_i m_i the mean of the clients' regression functions m_i(x) = E_i[y|x]",
    latex=r"\Vert\bar m\Vert_{\alpha}^{2}",
    nonnegative=True,
)
# summation indices of the explicit constant (§3.9): never free in a registered expression
_t, _j = sp.symbols("t j", integer=True, nonnegative=True)
_k, _s = sp.symbols("k s", integer=True, positive=True)

# ---------------------------------------------------------------------------- units (D4)
#: Base units of the dimensional audit (guide §5 D4): a function value, a loss value, an input.
F_UNIT, LOSS_UNIT, X_UNIT = sp.symbols("F L0 X", positive=True)
_ONE = sp.Integer(1)
#: Unit of every symbol of the vocabulary: f ~ F, ℓ ~ L0, so G ~ L0/F and μ ~ L0/F²; B ~ F, L ~ F/X,
#: D ~ X, ω_W1 ~ X, ω_TV, γ, K, T, N, m dimensionless. In (12) and (15) f ~ F and g ~ L0/F (the
#: proofs take f = ḡ − f*, g = ĥ, a gradient).
UNITS: dict[str, sp.Expr] = {
    "D0": F_UNIT**2,
    "G": LOSS_UNIT / F_UNIT,
    "mu": LOSS_UNIT / F_UNIT**2,
    "B": F_UNIT,
    "L": F_UNIT / X_UNIT,
    "D": X_UNIT,
    "omega_W1": X_UNIT,
    "W1": X_UNIT,
    "W2sq": X_UNIT**2,
    "W2sq_s": X_UNIT**2,
    "f_sup": F_UNIT,
    "f_sup_alpha": F_UNIT,
    "g_sup": LOSS_UNIT / F_UNIT,
    "g_sup_alpha": LOSS_UNIT / F_UNIT,
    "f_lip": F_UNIT / X_UNIT,
    "g_lip": LOSS_UNIT / (F_UNIT * X_UNIT),
    "f0_norm": F_UNIT,
    "f0_sup": F_UNIT,
    "f0_lip": F_UNIT / X_UNIT,
    "mbar2": F_UNIT**2,
    **dict.fromkeys(("omega_TV", "TV", "gamma", "K", "T", "N", "m", "k0", "s", "C"), _ONE),
}


class _Audit:
    """What the dimensional audit needs of a bound: its terms, the unit of its quantity, and
    whether its loss is the square loss (ℓ ~ F², so that μ is dimensionless)."""

    def __init__(self, terms: tuple[sp.Expr, ...], unit: sp.Expr, square_loss: bool) -> None:
        self.terms, self.unit, self.square_loss = terms, unit, square_loss


_AUDITS: dict[str, _Audit] = {}


def _register(
    bound_id: str,
    terms: Sequence[sp.Expr],
    *,
    kind: Kind,
    unit: sp.Expr,
    square_loss: bool = False,
    **kwargs: Any,
) -> Bound:
    """Register the bound C·(Σ terms) (order kinds) or Σ terms, recording its terms for D4."""
    total = sp.Add(*terms)
    expr = C * total if kind.startswith("order") else total
    bound = register(Bound(bound_id, expr, kind=kind, vocabulary=V, **kwargs))
    _AUDITS[bound_id] = _Audit(tuple(terms), unit, square_loss)
    return bound


def term_units(bound: Bound | str) -> list[TermUnit]:
    """The unit of every term of a registered ``ffgb`` bound (guide §5 D4).

    The terms are those of the paper's display (the unknown constant ``C`` of an order bound is
    dimensionless); units follow :data:`UNITS`, with ℓ ~ F² (μ dimensionless) for the square-loss
    statements (FFGB.L, the square-loss limits).

    Raises
    ------
    ParameterError
        If ``bound`` is not a registered ``ffgb`` bound.
    """
    bound_id = bound.id if isinstance(bound, Bound) else get(bound).id
    audit = _AUDITS.get(bound_id)
    if audit is None:
        raise ParameterError(
            parameter="bound", value=bound_id, rule="must be a registered ffgb bound"
        )
    loss = F_UNIT**2 if audit.square_loss else LOSS_UNIT
    table = {V.symbol(name): unit.subs(LOSS_UNIT, loss) for name, unit in UNITS.items()}
    return audit_terms(audit.terms, table, audit.unit.subs(LOSS_UNIT, loss))


def dimension_audit(
    bounds: Bound | str | Iterable[Bound | str] | None = None,
) -> list[tuple[str, TermUnit]]:
    """The terms whose unit is not that of the bounded quantity (guide §5 D4).

    Parameters
    ----------
    bounds
        A bound, an id, several, or ``None`` for every registered ``ffgb`` bound.

    Returns
    -------
    list of (bound id, TermUnit)
        Only the inconsistent terms. On the registry: the 4th term of ``ffgb.thm31`` (and of
        ``ffgb.thmf1``, which repeats it) has unit L0 instead of F² — the μ that should be μ² —
        and ``ffgb.lemmae4`` as printed bounds a norm (F) by a squared norm (F²).

    Examples
    --------
    >>> [(i, t.index) for i, t in dimension_audit(["ffgb.thm31", "ffgb.thm31.corrected"])]
    [('ffgb.thm31', 4)]
    """
    if bounds is None:
        chosen: list[Bound | str] = list(_AUDITS)
    elif isinstance(bounds, (Bound, str)):
        chosen = [bounds]
    else:
        chosen = list(bounds)
    flagged = []
    for bound in chosen:
        bound_id = bound.id if isinstance(bound, Bound) else bound
        flagged.extend((bound_id, item) for item in term_units(bound) if not item.consistent)
    return flagged


# ---------------------------------------------------------------------------- hypotheses
_gamma_le_1 = Hypothesis(sp.Le(gamma, 1), "the weak-learning edge γ lies in (0, 1]")
_gamma_lt_1 = Hypothesis(sp.Lt(gamma, 1), "Corollary 3.1 assumes an inexact oracle, γ < 1")
_b_min = Hypothesis(
    sp.Ge(B, 2 * G / (mu * gamma)),
    "FFGB.C needs B ≥ 2G/(μγ) (Theorem D.1; the main text omits it)",
)
_omega_tv_le_1 = Hypothesis(sp.Le(omega_TV, 1), "a total-variation distance is at most 1")
_m_le_N = Hypothesis(sp.Le(m, N), "m of the N clients are sampled (m ≤ N)")
_N_ge_2 = Hypothesis(sp.Ge(N, 2), "(N − m)/(N − 1) needs N ≥ 2 clients")
_k0_ge_3 = Hypothesis(
    sp.Ge(k0, 3), "μη^{k,t} ≤ 1 at every step needs k0 ≥ 3 (guide §6: k0 = 1 gives μη = 2)"
)
_T_ge_2 = Hypothesis(sp.Ge(T, 2), "log T > 0 needs T ≥ 2 rounds")

# ---------------------------------------------------------------------------- quantities
_ERR = "‖f^T − f*‖²_α"
_ERR_TEX = r"\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}"
_ERR_C = "‖Π_B(f^T) − f*‖²_α"
_ERR_C_TEX = r"\Vert \Pi_B(f^{T}) - f^{*}\Vert_{\alpha}^{2}"
_FLOOR = "lim sup_{T→∞} ‖f^T − f*‖²_α"
_FLOOR_TEX = r"\limsup_{T\to\infty}\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}"
_F2 = F_UNIT**2
_LOSS_GRADIENT = LOSS_UNIT / F_UNIT
_FFGBL_LABEL_B = "label bound of Assumption 3.3: |y_ij| ≤ B"
_FFGBL_MU = "step-size modulus μ of FFGB.L: the square loss is 1-strongly convex, μ = 1 (App. E)"
_FFGBL_G_NOTE = (
    " FFGB.L's G is redefined, G² = (2L²/N²)Σ_{i,s}W2²(α_s, α_i) + 2B², and written out here."
)
_FFGBL_MEANINGS = {"B": _FFGBL_LABEL_B, "mu": _FFGBL_MU}

# ====================================================================== (12), (15)
_register(
    "ffgb.eq12",
    [2 * f_sup * g_sup * TV],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("ffgb", "eq. (12)"),
    quantity="|⟨f, g⟩_{α_i} − ⟨f, g⟩_α|",
    quantity_latex=r"|\langle f, g\rangle_{\alpha_i} - \langle f, g\rangle_{\alpha}|",
    statement=(
        "The TV comparison inequality: two inner products under α_i and α differ by at most "
        "2‖f‖_∞‖g‖_∞TV(α, α_i); equality for f ≡ 1, g = sign(α_i − α) on finite atoms."
    ),
    hypotheses=[Hypothesis(sp.Le(TV, 1), "a total-variation distance is at most 1")],
    example={"f_sup": 1, "g_sup": 2, "TV": 0.25},
)
_register(
    "ffgb.eq15",
    [(f_lip * g_sup_alpha + g_lip * f_sup_alpha) * W1],
    kind="upper",
    unit=LOSS_UNIT,
    source=Citation("ffgb", "eq. (15), proved in App. E"),
    quantity="|⟨f, g⟩_{α_i} − ⟨f, g⟩_α|",
    quantity_latex=r"|\langle f, g\rangle_{\alpha_i} - \langle f, g\rangle_{\alpha}|",
    statement=(
        "The W1 comparison inequality: with ξ = ‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞}, the "
        "inner products differ by at most ξ·W1(α, α_i) (Kantorovich duality, for empirical "
        "measures with supp α_i ⊆ supp α); equality for f ≡ 1 and g the dual potential."
    ),
    example={"f_lip": 1, "g_sup_alpha": 2, "g_lip": 0.5, "f_sup_alpha": 3, "W1": 0.1},
)

# ====================================================================== FFGB lemmas (App. C)
_residual = (1 - gamma) * G / gamma
_h_bound = (2 - gamma) * G / gamma
_FFGB_LEMMA_EXAMPLE = {"G": 1, "gamma": 0.5}
_register(
    "ffgb.lemma-residual",
    [_residual],
    kind="upper",
    unit=_LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, eq. (28)"),
    quantity="‖Δ_i^{k,t}‖_α",
    quantity_latex=r"\Vert\Delta_i^{k,t}\Vert_{\alpha}",
    statement=(
        "FFGB's residual obeys ‖Δ^k‖ ≤ (1 − γ)(‖Δ^{k−1}‖ + G) from Δ⁰ = 0, hence ‖Δ^{k,t}‖_α ≤ "
        "(1 − γ)G/γ for every k, t."
    ),
    hypotheses=[_gamma_le_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
_register(
    "ffgb.lemma-residual.h",
    [_h_bound],
    kind="upper",
    unit=_LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, after (28)"),
    quantity="‖h_i^{k,t}‖_α",
    quantity_latex=r"\Vert h_i^{k,t}\Vert_{\alpha}",
    statement=(
        "The oracle's query φ = Δ^{k−1} + ∇R_i[g^k] has norm ≤ G/γ, so its output has norm ≤ "
        "(2 − γ)G/γ (printed for h̄; the proof of (29) uses the weaker 2G/γ)."
    ),
    hypotheses=[_gamma_le_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
_register(
    "ffgb.lemma-iterate",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    status="corrected",
    source=Citation("ffgb", "proof of Theorem 3.1, eq. (29) with its typo fixed"),
    quantity="‖g_i^{k,t}‖_α",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha}",
    statement=(
        "(29) corrected: ‖g^{k+1}‖ − 2G/(γμ) ≤ (1 − μη)(‖g^k‖ − 2G/(γμ)) (printed with g^{k+1} on "
        "both sides), valid as μη = 2/(tK + k + 1) ≤ 1; so every iterate stays in the ball "
        "2G/(γμ) if f⁰ does — a condition Theorem 3.1 uses but does not state."
    ),
    hypotheses=[
        _gamma_le_1,
        Hypothesis(sp.Le(f0_norm, 2 * G / (gamma * mu)), "the proof starts in the ball 2G/(γμ)"),
    ],
    example={**_FFGB_LEMMA_EXAMPLE, "mu": 0.1, "f0_norm": 5},
)
_register(
    "ffgb.lemma-iterate.hhat",
    [4 * G / gamma],
    kind="upper",
    unit=_LOSS_GRADIENT,
    source=Citation("ffgb", "proof of Theorem 3.1, after (29)"),
    quantity="‖ĥ_i^{k,t}‖_α = ‖h_i^{k,t} + μg_i^{k,t}‖_α",
    quantity_latex=r"\Vert h_i^{k,t} + \mu g_i^{k,t}\Vert_{\alpha}",
    statement="With ‖h‖ ≤ 2G/γ and μ‖g‖ ≤ 2G/γ, the full step direction ĥ = h + μg is ≤ 4G/γ.",
    hypotheses=[
        _gamma_le_1,
        Hypothesis(sp.Le(f0_norm, 2 * G / (gamma * mu)), "the proof starts in the ball 2G/(γμ)"),
    ],
    example={**_FFGB_LEMMA_EXAMPLE, "mu": 0.1, "f0_norm": 5},
)

# ====================================================================== FFGB.C lemmas (App. D)
_register(
    "ffgb.lemmad1.residual",
    [_residual],
    kind="upper",
    unit=_LOSS_GRADIENT,
    source=Citation("ffgb", "Lemma D.1, eq. (34)"),
    quantity="‖Δ_i^{k,t}‖_{α_i,∞} before clipping",
    quantity_latex=r"\Vert\Delta_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "On supp α_i the unclipped residual of FFGB.C is ≤ G¹_γ = (1 − γ)G/γ: the clip Π_{G¹_γ} "
        "of line 6 never changes a value there."
    ),
    hypotheses=[_gamma_le_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
_register(
    "ffgb.lemmad1.h",
    [_h_bound],
    kind="upper",
    unit=_LOSS_GRADIENT,
    source=Citation("ffgb", "Lemma D.1, eq. (35)"),
    quantity="‖h_i^{k,t}‖_{α_i,∞} before clipping",
    quantity_latex=r"\Vert h_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "On supp α_i the oracle output of FFGB.C is ≤ G²_γ = (2 − γ)G/γ: the clip Π_{G²_γ} of "
        "line 5 never changes a value there."
    ),
    hypotheses=[_gamma_le_1],
    example=_FFGB_LEMMA_EXAMPLE,
)
_register(
    "ffgb.thmd1.b-min",
    [2 * G / (mu * gamma)],
    kind="lower",
    unit=F_UNIT,
    source=Citation("ffgb", "Theorem D.1 (the condition B ≥ 2G/(μγ))"),
    quantity="B, the L∞ radius of FFGB.C's feasible set",
    quantity_latex="B",
    statement=(
        "Theorem D.1 needs B ≥ 2G/(μγ), the radius of the ball the regularised iterates stay in "
        "(Lemma D.2); the main text's Theorem 3.2 omits it. B cannot be small: the radius term "
        "G·B·ω/(μγ) is then ≥ 2G²ω/(μ²γ²)."
    ),
    hypotheses=[_gamma_le_1],
    example={"G": 1, "mu": 0.1, "gamma": 0.5},
)
_LEMMA_D2 = (
    "If ‖f⁰‖_∞ ≤ 2G/(γμ), the iterates of FFGB.C satisfy ‖g^{k,t}‖_∞ ≤ 2G/(γμ) on all of 𝒳, "
    "by ‖g^{k+1}‖ − 2G/(γμ) ≤ (1 − μη)(‖g^k‖ − 2G/(γμ))."
)
_f0_sup_d2 = Hypothesis(sp.Le(f0_sup, 2 * G / (gamma * mu)), "Lemma D.2: ‖f⁰‖_∞ ≤ 2G/(γμ)")
_register(
    "ffgb.lemmad2",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    source=Citation("ffgb", "Lemma D.2"),
    quantity="‖ḡ^{k,t}‖_∞",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\infty}",
    statement=(
        _LEMMA_D2 + " As printed, with η = 4/(μ(tK + k + 1)): the induction needs μη ≤ 1, which "
        "fails at the first two steps (μη = 2, 4/3), and the bound fails (guide D1: 49.6 > 40 "
        "at γ = 0.5, μ = 0.1, f⁰ = −2G/(γμ))."
    ),
    hypotheses=[_gamma_le_1, _f0_sup_d2],
    example={"G": 1, "mu": 0.1, "gamma": 0.5, "f0_sup": 1},
)
_register(
    "ffgb.lemmad2.corrected",
    [2 * G / (gamma * mu)],
    kind="upper",
    unit=F_UNIT,
    status="corrected",
    source=Citation("ffgb", "Lemma D.2 with η = 4/(μ(tK + k + k0)), k0 ≥ 3 (guide §2.3)"),
    quantity="‖g_i^{k,t}‖_∞ for every client i",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\infty}",
    statement=(
        _LEMMA_D2 + " With the step offset k0 ≥ 3 (μη ≤ 1 at every step) the induction holds, "
        "per client (the proof treats only ḡ, but the g_i are what the analysis uses)."
    ),
    hypotheses=[_gamma_le_1, _f0_sup_d2, _k0_ge_3],
    example={"G": 1, "mu": 0.1, "gamma": 0.5, "f0_sup": 1, "k0": 3},
)

# ====================================================================== FFGB.L lemmas (App. E)
_LIP_EXAMPLE = {"L": 2, "gamma": 0.5}
_SUP_EXAMPLE = {"B": 1, "gamma": 0.5}
_register(
    "ffgb.lemmae1.residual",
    [(1 - gamma) * B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.1, eqs. (42)–(43)"),
    quantity="‖Δ_i^k‖_{α_i,∞}",
    quantity_latex=r"\Vert\Delta_i^{k}\Vert_{\alpha_i,\infty}",
    statement="FFGB.L's residual is ≤ (1 − γ)B/γ on supp α_i, by (19) and |u_i| ≤ B there.",
    hypotheses=[_gamma_le_1],
    meanings={"B": _FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
_register(
    "ffgb.lemmae1.h",
    [B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.1"),
    quantity="‖h_i^k‖_{α_i,∞}",
    quantity_latex=r"\Vert h_i^{k}\Vert_{\alpha_i,\infty}",
    statement="FFGB.L's oracle outputs are ≤ ‖u_i‖ + ‖Δ^k‖ ≤ B/γ on supp α_i.",
    hypotheses=[_gamma_le_1],
    meanings={"B": _FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
_register(
    "ffgb.lemmae1.residual-lip",
    [(1 - gamma) * L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1 (induction with (20))"),
    quantity="‖Δ_i^k‖_lip",
    quantity_latex=r"\Vert\Delta_i^{k}\Vert_{\mathrm{lip}}",
    statement=(
        "By (20) and ‖u_i‖_lip ≤ L, ‖Δ^k‖_lip ≤ (1 − γ)(‖Δ^{k−1}‖_lip + L), hence ≤ (1 − γ)L/γ."
    ),
    hypotheses=[_gamma_le_1],
    example=_LIP_EXAMPLE,
)
_register(
    "ffgb.lemmae1.h-lip",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1"),
    quantity="‖h_i^k‖_lip",
    quantity_latex=r"\Vert h_i^{k}\Vert_{\mathrm{lip}}",
    statement="The query u_i − Δ^{k−1} is L/γ-Lipschitz, and so is the oracle's output.",
    hypotheses=[_gamma_le_1],
    example=_LIP_EXAMPLE,
)
_f0_lip_hyp = Hypothesis(sp.Le(f0_lip, L / gamma), "the induction starts from ‖f⁰‖_lip ≤ L/γ")
_G_LIP = (
    "‖g^{k+1}‖_lip ≤ (1 − η)‖g^k‖_lip + ηL/γ keeps FFGB.L's iterates in the feasible set "
    "{‖f‖_lip ≤ L/γ} of (14) — if η ≤ 1, the 'sufficiently small η' of App. E."
)
_register(
    "ffgb.lemmae1.g-lip",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    source=Citation("ffgb", "App. E, before Lemma E.1, with Theorem 3.3's steps 4/(μ(tK + k + 1))"),
    quantity="‖g_i^{k,t}‖_lip",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\mathrm{lip}}",
    statement=(
        _G_LIP + " Theorem 3.3's η = 4/(tK + k + 1) (μ = 1) is 2 and 4/3 at the first two "
        "steps: extrapolation, and the bound fails (guide D2: Lip(f¹) = 2L at K = 1, γ = 1)."
    ),
    hypotheses=[_gamma_le_1, _f0_lip_hyp],
    example={**_LIP_EXAMPLE, "f0_lip": 1},
)
_register(
    "ffgb.lemmae1.g-lip.corrected",
    [L / gamma],
    kind="upper",
    unit=F_UNIT / X_UNIT,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "App. E with η = 4/(tK + k + k0), k0 ≥ 3 (guide §2.4)"),
    quantity="‖g_i^{k,t}‖_lip",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\mathrm{lip}}",
    statement=_G_LIP + " With k0 ≥ 3 every η ≤ 1: each iterate is a convex combination.",
    hypotheses=[_gamma_le_1, _f0_lip_hyp, _k0_ge_3],
    example={**_LIP_EXAMPLE, "f0_lip": 1, "k0": 3},
)
_register(
    "ffgb.lemmae2",
    [B / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.2, eq. (44)"),
    quantity="‖g_i^{k,t}‖_{α_i,∞}",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha_i,\infty}",
    statement=(
        "As printed: FFGB.L's local iterates are ≤ B/γ on supp α_i. The induction's base "
        "‖f^t‖_{α_i,∞} ≤ B/γ is wrong: f^t averages the other clients' functions, bounded on "
        "supp α_i only by (LD + B)/γ (guide §3.2)."
    ),
    hypotheses=[_gamma_le_1],
    meanings={"B": _FFGBL_LABEL_B},
    example=_SUP_EXAMPLE,
)
_register(
    "ffgb.lemmae2.corrected",
    [(L * D + B) / gamma],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemmas E.2–E.3 corrected (guide §3.2), steps with k0 ≥ 3"),
    quantity="‖g_i^{k,t}‖_{α,∞}",
    quantity_latex=r"\Vert g_i^{k,t}\Vert_{\alpha,\infty}",
    statement=(
        "Every oracle output h_j is ≤ B/γ on supp α_j and L/γ-Lipschitz, hence ≤ (LD + B)/γ on "
        "supp α (Assumption 3.3); with η ≤ 1 each iterate is a convex combination of f⁰ and such "
        "outputs, so it is ≤ (LD + B)/γ on supp α (Lemma E.3's bound) and on every supp α_i."
    ),
    hypotheses=[
        _gamma_le_1,
        _k0_ge_3,
        Hypothesis(sp.Le(f0_sup, (L * D + B) / gamma), "start inside: ‖f⁰‖_{α,∞} ≤ (LD + B)/γ"),
    ],
    meanings={"B": _FFGBL_LABEL_B, "f0_sup": "‖f⁰‖_{α,∞}, the sup of |f⁰| on supp α"},
    example={"L": 2, "D": 0.1, "B": 1, "gamma": 0.5, "k0": 3, "f0_sup": 1},
)
_G_S2 = 2 * L**2 * W2sq_s + 2 * B**2
_E4 = (
    "Transporting α_s onto α_i (W2 plan) and the L/γ-Lipschitz continuity bound the average "
    "iterate on client s's points: G_s² = (2L²/N)Σ_i W2²(α_s, α_i) + 2B², independent of D."
)
_register(
    "ffgb.lemmae4",
    [_G_S2 / gamma**2],
    kind="upper",
    unit=F_UNIT,
    square_loss=True,
    source=Citation("ffgb", "Lemma E.4"),
    quantity="‖ḡ^{k,t}‖_{α_s}",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha_s}",
    statement=(
        _E4 + " As printed the norm is not squared: a norm (unit F) bounded by a squared norm "
        "(F²) — the dimensional audit (D4) flags it."
    ),
    hypotheses=[_gamma_le_1],
    meanings={"B": _FFGBL_LABEL_B},
    example={"L": 2, "W2sq_s": 0.05, "B": 1, "gamma": 0.5},
)
_register(
    "ffgb.lemmae4.corrected",
    [_G_S2 / gamma**2],
    kind="upper",
    unit=F_UNIT**2,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemma E.4, (46)–(47) with the squared norm; steps with k0 ≥ 3"),
    quantity="‖ḡ^{k,t}‖²_{α_s} (also ‖h̄^{k,t}‖²_{α_s})",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha_s}^{2}",
    statement=(
        _E4 + " The statement needs the squared norm (the proof bounds ‖·‖²), η ≤ 1 (iterates "
        "are convex combinations of f⁰ = 0 and oracle outputs) and f⁰ inside the bound."
    ),
    hypotheses=[_gamma_le_1, _k0_ge_3],
    meanings={"B": _FFGBL_LABEL_B},
    example={"L": 2, "W2sq_s": 0.05, "B": 1, "gamma": 0.5, "k0": 3},
)
_G2_FFGBL = 2 * L**2 * W2sq + 2 * B**2
_register(
    "ffgb.lemmae4.global",
    [_G2_FFGBL / gamma**2],
    kind="upper",
    unit=F_UNIT**2,
    square_loss=True,
    status="corrected",
    source=Citation("ffgb", "Lemma E.4, last sentence (G-bounded → G/γ-bounded)"),
    quantity="‖ḡ^{k,t}‖²_α",
    quantity_latex=r"\Vert\bar g^{k,t}\Vert_{\alpha}^{2}",
    statement=(
        "Averaging Lemma E.4 over s (α = (1/N)Σ_s α_s): ‖ḡ‖²_α ≤ G²/γ² with FFGB.L's G² = "
        "(2L²/N²)Σ_{i,s}W2²(α_s, α_i) + 2B² (printed: 'G-bounded')."
    ),
    hypotheses=[_gamma_le_1, _k0_ge_3],
    meanings={"B": _FFGBL_LABEL_B},
    example={"L": 2, "W2sq": 0.05, "B": 1, "gamma": 0.5, "k0": 3},
)

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
_register(
    "ffgb.thm31",
    _THM31_PRINTED,
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Theorem 3.1 (= Theorem C.1)"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        _THM31 + " As printed: (1 − γ) in the third term, μ in the fourth — the proof gives "
        "(1 − γ)² and μ², and the fourth term has the unit of a loss, not of ‖f‖² (D4)."
    ),
    hypotheses=[_gamma_le_1],
    example=_THM31_EXAMPLE,
)
_register(
    "ffgb.thm31.corrected",
    _THM31_CORRECTED,
    kind="order-upper",
    unit=_F2,
    status="corrected",
    source=Citation("ffgb", "Theorem 3.1 with the proof's (1 − γ)² and μ² (guide §3.3)"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        _THM31 + " Corrected per the proof: (31) gives (1/(2μ))((1 − γ)/γ)²G² per round, so "
        "(1 − γ)² in the third term, and Σ_kη^{k,t} = (2/μ)·(log-ratio) a μ² in the fourth. "
        "Also needs ‖f⁰‖_α ≤ 2G/(γμ) (unstated)."
    ),
    hypotheses=[_gamma_le_1],
    example=_THM31_EXAMPLE,
)

# §3.9: H bounds ‖ĥ‖, D_Δ bounds ‖Δ‖, η_s = 2/(μ(s + 1)), s = tK + k
_H = 2 * (2 - gamma) * G / gamma
_DDELTA = (1 - gamma) * G / gamma
# the sums of §3.9 with η_s = 2/(μ(s + 1)) written out (μ taken outside): every step,
_steps_sum = sp.Sum(1 / (_s + 1), (_s, 1, K * T))
# every step but the last of each round,
_inner_sum = sp.Sum(1 / (_t * K + _k + 1), (_k, 1, K - 1), (_t, 0, T - 1))
# and the drift Σ_t Σ_k (tK + k + 1)(Σ_{κ<k} 1/(tK + κ + 1))²  (= (μ/2)²Σ(s + 1)(Σ_κ η)²)
_drift_sum = sp.Sum(
    (_t * K + _k + 1) * sp.Sum(1 / (_t * K + _j + 1), (_j, 1, _k - 1)) ** 2,
    (_k, 2, K),
    (_t, 0, T - 1),
)
_EXPLICIT = [
    D0,
    4 * (2 * _H**2 + G**2) / mu**2 * _steps_sum,
    2 * _H**2 * (2 / mu) ** 2 * _drift_sum,
    4 * _H * _DDELTA / mu * (2 / mu) * _inner_sum,
    4 * T * _DDELTA**2 / mu**2,
]
_register(
    "ffgb.thm31.explicit",
    [term / (K * T + 1) for term in _EXPLICIT],
    kind="upper",
    unit=_F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.1 with explicit constants (guide §3.9)"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        "(KT + 1)‖f^T − f*‖² ≤ ‖f⁰ − f*‖² + (4(2H² + G²)/μ²)Σ_{s≤KT}1/(s + 1) + 2H²Σ_{t,k}(tK + k "
        "+ 1)(Σ_{κ<k}η_{tK+κ})² + (4HD_Δ/μ)Σ_tΣ_{k<K}η_{tK+k} + 4TD_Δ²/μ², with H = 2(2 − γ)G/γ "
        "(≥ ‖h + μg‖), D_Δ = (1 − γ)G/γ (≥ ‖Δ‖), η_s = 2/(μ(s + 1)): the proof of Thm C.1 with "
        "Young's inequality at μ/4, the drift bounded by a squared sum, and no η^κ ≤ 2η^k. The "
        "sums are evaluated term by term (O(TK²) terms, 20 ms at T = 1000, K = 16). Loose by "
        "10⁴–10¹² but a must-hold."
    ),
    hypotheses=[
        _gamma_le_1,
        Hypothesis(
            sp.Le(f0_norm, (2 - gamma) * G / (gamma * mu)),
            "the iterates stay in the ball (2 − γ)G/(γμ) if f⁰ starts there",
        ),
    ],
    meanings={"G": "bound on ‖∇R_i[g]‖_α over every iterate g (Assumption 3.1)"},
    example={"D0": 1, "K": 2, "T": 3, "G": 1, "gamma": 0.5, "mu": 0.1, "f0_norm": 5},
)
_register(
    "ffgb.thm31.floor",
    [4 * _DDELTA**2 / (K * mu**2)],
    kind="upper",
    unit=_F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.1 explicit (guide §3.9), T → ∞"),
    quantity=_FLOOR,
    quantity_latex=_FLOOR_TEX,
    statement=(
        "The T → ∞ limit of ffgb.thm31.explicit: only 4TD_Δ²/μ²/(KT + 1) survives, so FFGB's "
        "error floor is at most 4(1 − γ)²G²/(Kμ²γ²) — the corrected third term of Theorem 3.1 "
        "with constant 4. It decays like 1/K; the floor measured with the residual reset decays "
        "like 1/K² (guide §3.8)."
    ),
    hypotheses=[_gamma_le_1],
    meanings={"G": "bound on ‖∇R_i[g]‖_α over every iterate g (Assumption 3.1)"},
    example={"K": 4, "G": 1, "gamma": 0.5, "mu": 0.1},
)

# Corollary 3.1
_register(
    "ffgb.cor31",
    [G**2 * sp.log(T) / (gamma**2 * mu**2 * sp.sqrt(T))],
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Corollary 3.1"),
    quantity=f"{_ERR} with K = ⌈√T⌉ local steps",
    quantity_latex=_ERR_TEX,
    statement=(
        "With γ < 1 and K = Θ(√T) (printed Ω(√T): a larger K makes the drift term dominate), "
        "Theorem 3.1 gives O(1/√T) up to logarithms: at K = √T its drift term (3/2)·G²log T/"
        "(√Tγ²μ²) dominates, so the error is ≲ G²log T/(γ²μ²√T). In total work S = KT this is "
        "S^{−1/3}."
    ),
    hypotheses=[_gamma_lt_1],
    example={"T": 100, "G": 1, "gamma": 0.5, "mu": 0.1},
)
_register(
    "ffgb.cor31.k-star",
    [sp.sqrt((1 - gamma) * T / sp.log(T))],
    kind="exact",
    unit=_ONE,
    status="derived",
    source=Citation("ffgb", "Corollary 3.1, the balance of Theorem 3.1's K-terms (guide §3.4)"),
    quantity="K*, the K minimising aK + b/K (Theorem 3.1's drift and floor terms)",
    quantity_latex="K^{*}",
    statement=(
        "With a = G²log T/(Tγ²μ²) (log(KT) ≈ log T) and b = (1 − γ)G²/(μ²γ²), aK + b/K is least "
        "at K* = √((1 − γ)T/log T) (with separate constants C2, C3 per term, × √(C3/C2)); the "
        "corrected third term (1 − γ)² moves it to (1 − γ)√(T/log T)."
    ),
    hypotheses=[_gamma_lt_1, _T_ge_2],
    example={"T": 100, "gamma": 0.5},
)
_register(
    "ffgb.cor31.balanced",
    [2 * G**2 / (mu**2 * gamma**2) * sp.sqrt((1 - gamma) * sp.log(T) / T)],
    kind="order-upper",
    unit=_F2,
    status="derived",
    source=Citation("ffgb", "Corollary 3.1 at the balance K* (guide §3.4)"),
    quantity=f"{_ERR} with K = K* local steps",
    quantity_latex=_ERR_TEX,
    statement=(
        "At K = K*, Theorem 3.1's drift and floor terms are equal and sum to 2√(ab) = "
        "(2G²/(μ²γ²))√((1 − γ)log T/T): the O(√(log T/T)) rate of Corollary 3.1 (the other "
        "terms are O(log T/T^{3/2}))."
    ),
    hypotheses=[_gamma_lt_1, _T_ge_2],
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
_register(
    "ffgb.thm32",
    [*_THMD1_TERMS, _fifth],
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Theorem 3.2"),
    quantity=_ERR_C,
    quantity_latex=_ERR_C_TEX,
    statement=(
        _THM32 + " Main text: five terms (the fifth, G²log(TK)ω/(γ²μ²T), is absent from D.1). "
        "The condition B ≥ 2G/(μγ) is stated only in D.1."
    ),
    hypotheses=[_gamma_le_1, _b_min, _omega_tv_le_1],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example=_THM32_EXAMPLE,
)
_register(
    "ffgb.thmd1",
    _THMD1_TERMS,
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Theorem D.1, eq. (40)"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        _THM32 + " Appendix form (40), four terms, on ‖f^T − f*‖²_α, with B ≥ 2G/(μγ). Its "
        "proof needs μη ≤ 1 (Lemma D.2), which the stated steps violate at the start (k0 ≥ 3 "
        "fixes it; the final display has an undefined k0)."
    ),
    hypotheses=[_gamma_le_1, _b_min, _omega_tv_le_1],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example=_THM32_EXAMPLE,
)
_register(
    "ffgb.thm32.radius",
    [_floor_corrected, 2 * G**2 * omega_TV / (mu**2 * gamma**2)],
    kind="order-upper",
    unit=_F2,
    status="derived",
    source=Citation("ffgb", "Theorem 3.2 / D.1 as T → ∞ at B = 2G/(μγ) (guide §3.5)"),
    quantity=_FLOOR,
    quantity_latex=_FLOOR_TEX,
    statement=(
        "The limit T → ∞ of Theorems 3.2 and D.1 at the least admissible radius B = 2G/(μγ): the "
        "oracle floor (1 − γ)²G²/(Kμ²γ²) plus 2G²ω_TV/(μ²γ²). For disjoint supports ω_TV = "
        "1 − 1/N and the radius is vacuous (≥ 200/γ² at μ = 0.1, G = 1)."
    ),
    hypotheses=[_gamma_le_1, _omega_tv_le_1],
    example={"K": 4, "G": 1, "gamma": 0.5, "mu": 0.1, "omega_TV": 0.1},
)
_register(
    "ffgb.thm32.omega-explicit",
    [128 * _radius_tv],
    kind="upper",
    unit=_F2,
    status="derived",
    source=Citation("ffgb", "proof of Theorem D.1, (37)–(38) with explicit constants (guide §3.2)"),
    quantity="the ω_TV term of lim sup_T ‖f^T − f*‖²_α (all of it at γ = 1)",
    quantity_latex=_FLOOR_TEX,
    statement=(
        "Each TV term of (37) is ≤ 2·(2B)·(4G/γ)·TV(α, α_i) by (12) with ‖ḡ − f*‖_∞ ≤ 2B and "
        "‖ĥ‖_∞ ≤ 4G/γ, so δ ≤ 32BGω_TV/γ and the radius gains ≤ 4δ/μ = 128GBω_TV/(μγ). At "
        "γ = 1 (no oracle floor) this bounds FFGB.C's asymptotic error; the private-atom "
        "construction with adversarial extension reaches ≈ 0.31·GBω/(μγ) (guide C7)."
    ),
    hypotheses=[_gamma_le_1, _b_min, _omega_tv_le_1],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example={"G": 1, "B": 20, "omega_TV": 0.1, "mu": 0.1, "gamma": 1},
)

# ====================================================================== Theorem 3.3 / E.1 (FFGB.L)
_radius_w1 = (D * L**2 + B * L) * omega_W1 / (gamma**2 * mu)
_floor_ffgbl = (1 - gamma) ** 2 * B**2 / (mu**2 * gamma**2 * K)
_drift_ffgbl = K * _G2_FFGBL * sp.log(K * T) / (T * mu**2 * gamma**2)
_drift_e1 = (
    K * (L * (L * D + B) * omega_W1 + _G2_FFGBL + B**2) * sp.log(K * T) / (T * mu**2 * gamma**2)
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
    "linear in the average W1 heterogeneity." + _FFGBL_G_NOTE
)
_register(
    "ffgb.thm33",
    [_init, _drift_ffgbl, _floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=_F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem 3.3"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        _THM33 + " As printed with η^{k,t} = 4/(μ(tK + k + 1)), which breaks Lipschitz "
        "feasibility (guide D2); μ = 1 is undefined in the main text."
    ),
    hypotheses=[_gamma_le_1],
    meanings=_FFGBL_MEANINGS,
    example=_THM33_EXAMPLE,
)
_register(
    "ffgb.thme1",
    [_init, _drift_e1, _floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=_F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem E.1, eqs. (41) and (55)"),
    quantity=_ERR,
    quantity_latex=_ERR_TEX,
    statement=(
        _THM33 + " Appendix form (41): the drift term carries K(L(LD + B)ω_W1 + G² + B²); the "
        "steps are 'a certain choice' (η ≤ 1 is what the proof needs)."
    ),
    hypotheses=[_gamma_le_1],
    meanings=_FFGBL_MEANINGS,
    example=_THM33_EXAMPLE,
)
_register(
    "ffgb.thm33.radius",
    [_floor_ffgbl, _radius_w1],
    kind="order-upper",
    unit=_F2,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "Theorems 3.3 / E.1 as T → ∞ (guide §3.6)"),
    quantity=_FLOOR,
    quantity_latex=_FLOOR_TEX,
    statement=(
        "The limit T → ∞ of Theorems 3.3 and E.1: the oracle floor (1 − γ)²B²/(μ²γ²K) plus "
        "(DL² + BL)ω_W1/(γ²μ) (μ = 1). Translated supports keep TV at 1 − 1/N while ω_W1 → 0 "
        "with the shift, and the measured error follows ω_W1 (guide C9)."
    ),
    hypotheses=[_gamma_le_1],
    meanings=_FFGBL_MEANINGS,
    example={k: v for k, v in _THM33_EXAMPLE.items() if k not in ("D0", "T", "W2sq")},
)

# ====================================================================== Theorems F.1–F.3 (App. F)
_sampling = (N - m) / (N - 1) * G**2 * sp.log(T) / (T * mu**2 * m * gamma**2)
_sampling_ffgbl = (N - m) / (N - 1) * _G2_FFGBL * sp.log(T) / (T * mu**2 * m * gamma**2)
_PP = (
    "Partial participation: each round the server averages m of the N clients drawn uniformly "
    "without replacement; Lemma F.1's sampling variance adds (N − m)/(N − 1)·G²log T/(Tμ²mγ²), "
    "zero at m = N."
)
_PP_EXAMPLE = {"N": 10, "m": 2}
_register(
    "ffgb.thmf1",
    [*_THM31_PRINTED, _sampling],
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Theorem F.1"),
    quantity=f"E{_ERR}",
    quantity_latex=r"\mathbb{E}" + _ERR_TEX,
    statement=(
        _PP + " FFGB (Theorem 3.1 + the sampling term), as printed: the third and fourth terms "
        "repeat Theorem 3.1's (1 − γ) and μ, although the derivation above F.1 carries "
        "((1 − γ)/γ)²."
    ),
    hypotheses=[_gamma_le_1, _m_le_N, _N_ge_2],
    example={**_THM31_EXAMPLE, **_PP_EXAMPLE},
)
_register(
    "ffgb.thmf1.corrected",
    [*_THM31_CORRECTED, _sampling],
    kind="order-upper",
    unit=_F2,
    status="corrected",
    source=Citation("ffgb", "Theorem F.1 with Theorem 3.1's corrections (guide §3.3)"),
    quantity=f"E{_ERR}",
    quantity_latex=r"\mathbb{E}" + _ERR_TEX,
    statement=_PP + " ffgb.thm31.corrected plus the sampling term.",
    hypotheses=[_gamma_le_1, _m_le_N, _N_ge_2],
    example={**_THM31_EXAMPLE, **_PP_EXAMPLE},
)
_register(
    "ffgb.thmf2",
    [*_THMD1_TERMS, _fifth, _sampling],
    kind="order-upper",
    unit=_F2,
    source=Citation("ffgb", "Theorem F.2"),
    quantity=f"E{_ERR}",
    quantity_latex=r"\mathbb{E}" + _ERR_TEX,
    statement=_PP + " FFGB.C: Theorem 3.2's five terms plus the sampling term.",
    hypotheses=[_gamma_le_1, _b_min, _omega_tv_le_1, _m_le_N, _N_ge_2],
    meanings={"B": "L∞ radius of FFGB.C's feasible set 𝒞 = B^∞(B)"},
    example={**_THM32_EXAMPLE, **_PP_EXAMPLE},
)
_register(
    "ffgb.thmf3",
    [_init, _drift_e1, _floor_ffgbl, _radius_w1, _sampling_ffgbl],
    kind="order-upper",
    unit=_F2,
    square_loss=True,
    source=Citation("ffgb", "Theorem F.3"),
    quantity=f"E{_ERR}",
    quantity_latex=r"\mathbb{E}" + _ERR_TEX,
    statement=(
        _PP + " FFGB.L: Theorem E.1's form plus the sampling term with FFGB.L's G². The "
        "theorem names the oracle WO^∞; it is WO^lip ((19)–(20))."
    ),
    hypotheses=[_gamma_le_1, _m_le_N, _N_ge_2],
    meanings=_FFGBL_MEANINGS,
    example={**_THM33_EXAMPLE, **_PP_EXAMPLE},
)

# ====================================================================== exact limit points (§3.8)
_c_K = (1 - gamma) * (1 - (1 - gamma) ** K) / gamma
_mu_eff = mu * K / (K - _c_K)
_SCALE = (
    "With the scale oracle h = γφ (it satisfies (9), (13), (19), (20) exactly) and steps → 0, "
    "one round of K steps with the residual reset moves f along −((K − c_K)∇R + Kμf): "
)
_LIMIT_EXAMPLE = {"gamma": 0.5, "K": 4}
_register(
    "ffgb.limit.c-k",
    [_c_K],
    kind="exact",
    unit=_ONE,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (exact limit points, scale oracle)"),
    quantity="c_K = Σ_{k=1}^K (1 − γ)^k, the residual discarded at the end of a round / ∇R",
    quantity_latex=r"c_K",
    statement=(
        _SCALE + "the residual left at the reset is Δ^K = c_K∇R, c_K = (1 − γ)(1 − (1 − γ)^K)/γ "
        "→ (1 − γ)/γ as K → ∞."
    ),
    hypotheses=[_gamma_le_1],
    example=_LIMIT_EXAMPLE,
)
_register(
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
    hypotheses=[_gamma_le_1],
    example={**_LIMIT_EXAMPLE, "mu": 0.1},
)
_square_floor = mbar2 * (1 / (1 + mu) - 1 / (1 + _mu_eff)) ** 2
_register(
    "ffgb.limit.square-floor",
    [_square_floor],
    kind="exact",
    unit=_F2,
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
    hypotheses=[_gamma_le_1],
    meanings={"mu": "Tikhonov weight μ of (3) added to the square loss"},
    example={**_LIMIT_EXAMPLE, "mu": 0.1, "mbar2": 1},
)
_register(
    "ffgb.limit.square-floor.k2",
    [mbar2 * mu**2 * (1 - gamma) ** 2 / (gamma**2 * (1 + mu) ** 4)],
    kind="exact",
    unit=_F2,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "guide §3.8, the 1/K² law"),
    quantity="lim_{K→∞} K²·lim_{T→∞} ‖f^T − f*‖²_α (square loss, scale oracle)",
    quantity_latex=r"\lim_{K\to\infty}K^{2}\lim_{T\to\infty}\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}",
    statement=(
        "K² times ffgb.limit.square-floor tends to ‖m̄‖²μ²(1 − γ)²/(γ²(1 + μ)⁴): the floor "
        "decays exactly like 1/K² (0.00683 at μ = 0.1, γ = 0.5, ‖m̄‖ = 1)."
    ),
    hypotheses=[_gamma_le_1],
    meanings={"mu": "Tikhonov weight μ of (3) added to the square loss"},
    example={"gamma": 0.5, "mu": 0.1, "mbar2": 1},
)
_register(
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
    hypotheses=[_gamma_le_1],
    example={"gamma": 0.5, "mu": 0.1},
)
_register(
    "ffgb.limit.ffgbl",
    [1 - _c_K / K],
    kind="exact",
    unit=_ONE,
    square_loss=True,
    status="derived",
    source=Citation("ffgb", "guide §3.8 (FFGB.L's limit, scale oracle)"),
    quantity="f_∞/ū, FFGB.L's limit over the mean McShane extension ū = (1/N)Σ_i u_i",
    quantity_latex=r"f_{\infty}/\bar u",
    statement=(
        "With the corrected query WO(u_i − Δ) and h = γ(u_i − Δ), Σ_k h^k = (K − c_K)u_i, so "
        "FFGB.L converges to (1 − c_K/K)·(1/N)Σ_i u_i (= ū at γ = 1)."
    ),
    hypotheses=[_gamma_le_1],
    example=_LIMIT_EXAMPLE,
)
_register(
    "ffgb.limit.alg4-literal",
    [((1 + gamma) * ((1 + gamma) ** K - 1) / gamma - K) / K],
    kind="exact",
    unit=_ONE,
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
    hypotheses=[_gamma_le_1],
    example=_LIMIT_EXAMPLE,
)

# ====================================================================== step sizes (errata D1–D2)
_STEP = "μη^{k,t} at the global step s = tK + k"
_register(
    "ffgb.stepsize.ffgbc",
    [4 / (s + 1)],
    kind="exact",
    unit=_ONE,
    source=Citation("ffgb", "Theorems 3.2, 3.3 (η^{k,t} = 4/(μ(tK + k + 1)))"),
    quantity=_STEP,
    quantity_latex=r"\mu\eta_{s}",
    statement=(
        "FFGB.C's and FFGB.L's printed steps give μη = 4/(s + 1): 2 at s = 1 and 4/3 at s = 2, "
        "where Lemma D.2 and FFGB.L's Lipschitz induction need μη ≤ 1."
    ),
    example={"s": 1},
)
_register(
    "ffgb.stepsize.ffgbc.corrected",
    [4 / (s + k0)],
    kind="exact",
    unit=_ONE,
    status="corrected",
    source=Citation("ffgb", "η^{k,t} = 4/(μ(tK + k + k0)), k0 ≥ 3 (guide §2.3–2.4)"),
    quantity=_STEP,
    quantity_latex=r"\mu\eta_{s}",
    statement=(
        "With the offset k0 ≥ 3, μη = 4/(s + k0) ≤ 1 from the first step on; the paper's final "
        "displays already carry an undefined k0."
    ),
    hypotheses=[_k0_ge_3],
    example={"s": 1, "k0": 3},
)
