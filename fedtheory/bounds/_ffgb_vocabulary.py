"""The vocabulary of the ``ffgb`` bounds and the bookkeeping of their dimensional audit.

Private to :mod:`fedtheory.bounds.ffgb` (which documents the notation and the ids): the symbols
of Shen, Hassani, Kale & Karbasi's paper, the units of §5 D4 of the guide
``shared/theory/ffgb.md``, the hypotheses and quantities several bounds share, and
:func:`register_terms`, which registers a bound term by term so that :func:`term_units` and
:func:`dimension_audit` can give the unit of each term.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import sympy as sp

from fedtheory.bounds._bound import Bound, Hypothesis, Kind, get, register
from fedtheory.bounds._dimensions import TermUnit, audit_terms
from fedtheory.bounds._symbols import COMMON, Vocabulary
from fedtheory.errors import ParameterError

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
t_index, j_index = sp.symbols("t j", integer=True, nonnegative=True)
k_index, s_index = sp.symbols("k s", integer=True, positive=True)

# ---------------------------------------------------------------------------- units (D4)
#: Base units of the dimensional audit (guide §5 D4): a function value, a loss value, an input.
F_UNIT, LOSS_UNIT, X_UNIT = sp.symbols("F L0 X", positive=True)
ONE = sp.Integer(1)
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
    **dict.fromkeys(("omega_TV", "TV", "gamma", "K", "T", "N", "m", "k0", "s", "C"), ONE),
}


class _Audit:
    """What the dimensional audit needs of a bound: its terms, the unit of its quantity, and
    whether its loss is the square loss (ℓ ~ F², so that μ is dimensionless)."""

    def __init__(self, terms: tuple[sp.Expr, ...], unit: sp.Expr, square_loss: bool) -> None:
        self.terms, self.unit, self.square_loss = terms, unit, square_loss


_AUDITS: dict[str, _Audit] = {}


def register_terms(
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
    flagged: list[tuple[str, TermUnit]] = []
    for bound in chosen:
        bound_id = bound.id if isinstance(bound, Bound) else bound
        flagged.extend((bound_id, item) for item in term_units(bound) if not item.consistent)
    return flagged


#: FFGB.L redefines G: G² = (2L²/N²)Σ_{i,s}W2²(α_s, α_i) + 2B² (Theorem 3.3, Lemma E.4).
G2_FFGBL = 2 * L**2 * W2sq + 2 * B**2

# ---------------------------------------------------------------------------- hypotheses
GAMMA_LE_1 = Hypothesis(sp.Le(gamma, 1), "the weak-learning edge γ lies in (0, 1]")
GAMMA_LT_1 = Hypothesis(sp.Lt(gamma, 1), "Corollary 3.1 assumes an inexact oracle, γ < 1")
B_MIN = Hypothesis(
    sp.Ge(B, 2 * G / (mu * gamma)),
    "FFGB.C needs B ≥ 2G/(μγ) (Theorem D.1; the main text omits it)",
)
OMEGA_TV_LE_1 = Hypothesis(sp.Le(omega_TV, 1), "a total-variation distance is at most 1")
M_LE_N = Hypothesis(sp.Le(m, N), "m of the N clients are sampled (m ≤ N)")
N_GE_2 = Hypothesis(sp.Ge(N, 2), "(N − m)/(N − 1) needs N ≥ 2 clients")
K0_GE_3 = Hypothesis(
    sp.Ge(k0, 3), "μη^{k,t} ≤ 1 at every step needs k0 ≥ 3 (guide §6: k0 = 1 gives μη = 2)"
)
T_GE_2 = Hypothesis(sp.Ge(T, 2), "log T > 0 needs T ≥ 2 rounds")

# ---------------------------------------------------------------------------- quantities
ERR = "‖f^T − f*‖²_α"
ERR_TEX = r"\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}"
ERR_C = "‖Π_B(f^T) − f*‖²_α"
ERR_C_TEX = r"\Vert \Pi_B(f^{T}) - f^{*}\Vert_{\alpha}^{2}"
FLOOR = "lim sup_{T→∞} ‖f^T − f*‖²_α"
FLOOR_TEX = r"\limsup_{T\to\infty}\Vert f^{T} - f^{*}\Vert_{\alpha}^{2}"
F2 = F_UNIT**2
LOSS_GRADIENT = LOSS_UNIT / F_UNIT
FFGBL_LABEL_B = "label bound of Assumption 3.3: |y_ij| ≤ B"
FFGBL_MU = "step-size modulus μ of FFGB.L: the square loss is 1-strongly convex, μ = 1 (App. E)"
FFGBL_G_NOTE = (
    " FFGB.L's G is redefined, G² = (2L²/N²)Σ_{i,s}W2²(α_s, α_i) + 2B², and written out here."
)
FFGBL_MEANINGS = {"B": FFGBL_LABEL_B, "mu": FFGBL_MU}
