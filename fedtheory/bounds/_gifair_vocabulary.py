"""The vocabulary of the ``gifair`` bounds and the bookkeeping of their dimensional audit.

Private to :mod:`fedtheory.bounds.gifair` (which documents the notation and the ids): the symbols
of Yue, Nouiehed & Al Kontar's paper (guide ``shared/theory/gifair.md`` §1), the units of the
dimensional audit, the hypotheses several bounds share, and :func:`register_terms`, which
registers a bound term by term so that :func:`term_units` and :func:`dimension_audit` can give
the unit of each term (as :mod:`fedtheory.bounds._ffgb_vocabulary` does for ``ffgb``).
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
V = Vocabulary("gifair", parent=COMMON)
L, mu, G2, D0, M, delta, C = (COMMON.symbol(s) for s in ("L", "mu", "G2", "D0", "M", "delta", "C"))

# the federation (guide §1): the paper's K counts clients, E local steps — COMMON's K counts
# local steps and its d is a model dimension, so both are redeclared here
K = V.declare("K", "number of clients (devices) k = 1, …, K", positive=True, integer=True)
d = V.declare(
    "d",
    "number of groups of clients, d ∈ [2, K] (d = K: individual fairness)",
    positive=True,
    integer=True,
)
E = V.declare("E", "number of local SGD steps per communication round", positive=True, integer=True)
T = V.declare(
    "T",
    "total number of local iterations T = CE (C rounds of E steps)",
    nonnegative=True,
    integer=True,
)
t = V.declare("t", "global iteration index t ≥ 0", nonnegative=True, integer=True)
Sc = V.declare(
    "Sc",
    "|𝒮_c|, the number of clients sampled per round (App.: ⌈αK⌉ i.i.d. draws from p)",
    latex=r"|\mathcal{S}_c|",
    positive=True,
    integer=True,
)
# fairness weight and the constants it fixes
lam = V.declare("lam", "fairness weight λ ≥ 0 of objective (1)", latex=r"\lambda", nonnegative=True)
lam_max = V.declare(
    "lam_max",
    "λ_max = min_k p_k|𝒜_{s_k}|/(d − 1), the largest λ keeping every client weight ≥ 0",
    latex=r"\lambda_{\max}",
    positive=True,
)
pA_min = V.declare(
    "pA_min",
    "min_k p_k|𝒜_{s_k}|, the least data share times group size over the clients",
    latex=r"\min_k p_k|\mathcal{A}_{s_k}|",
    positive=True,
)
eps = V.declare(
    "eps",
    "ε = 1 − (d − 1)λ/min_k p_k|𝒜_{s_k}| = 1 − λ/λ_max ∈ (0, 1], the appendix's constant",
    latex=r"\epsilon",
    positive=True,
)
# step sizes
beta = V.declare(
    "beta", "numerator β of the step size η^(t) = β/(t + γ)", latex=r"\beta", positive=True
)
gamma = V.declare(
    "gamma", "offset γ of the step size η^(t) = β/(t + γ)", latex=r"\gamma", positive=True
)
eta = V.declare("eta", "step size η^(t) of the local steps", latex=r"\eta", positive=True)
c = V.declare("c", "scale c of the non-convex step size η_t = c/√t", positive=True)
# problem constants
Gamma_K = V.declare(
    "Gamma_K",
    "Γ_K = H* − Σ_k p_kH_k* = Σ_k p_k(H* − H_k*), the non-iid measure (Li et al. 2019b)",
    latex=r"\Gamma_K",
    nonnegative=True,
)
Gamma_max = V.declare(
    "Gamma_max",
    "Γ_max = Σ_k p_k|H* − H_k*| ≥ |Γ_K|, the second non-iid measure of ξ",
    latex=r"\Gamma_{\max}",
    nonnegative=True,
)
sigma2_p2 = V.declare(
    "sigma2_p2",
    "Σ_k p_k²σ_k², the p²-weighted gradient-noise variances (Assumption 2)",
    latex=r"\sum_k p_k^2\sigma_k^2",
    nonnegative=True,
)
sigma2_p = V.declare(
    "sigma2_p",
    "Σ_k p_kσ_k², the p-weighted gradient-noise variances (Assumption 2)",
    latex=r"\sum_k p_k\sigma_k^2",
    nonnegative=True,
)
pc2 = V.declare(
    "pc2",
    "Σ_k p_kc_k², c_k = 1 + λr_k/(p_k|𝒜_{s_k}|) the gradient multipliers (≤ 4 when λ ≤ λ_max)",
    latex=r"\sum_k p_kc_k^2",
    positive=True,
)
H0gap = V.declare(
    "H0gap",
    "E[H(θ̄^(0))] − H*, the initial optimality gap of objective (1)",
    latex=r"H(\bar\theta^{(0)}) - H^{*}",
    nonnegative=True,
)
H0 = V.declare(
    "H0",
    "E[H(θ̄^(0))], objective (1) at the initial model",
    latex=r"H(\bar\theta^{(0)})",
    nonnegative=True,
)
xi = V.declare("xi", "the constant ξ of the recursion (see the bound)", latex=r"\xi", positive=True)
Delta_t = V.declare(
    "Delta_t",
    "Δ_t = E‖θ̄^(t) − θ*‖², the squared distance at step t",
    latex=r"\Delta_t",
    nonnegative=True,
)
Rad = V.declare(
    "Rad",
    "𝔐_m(𝒢, p) = E_σ sup_h Σ_k (p_k/N_k)Σ_n σ_{k,n}ℓ(h(x_{k,n}), y_{k,n}), the weighted "
    "Rademacher complexity (Mohri et al. 2019)",
    latex=r"\mathfrak{R}_{m}(\mathcal{G},p)",
    nonnegative=True,
)
# one client / one group (the weight facts D2)
p_k = V.declare("p_k", "data share p_k = N_k/Σ_j N_j of client k", latex="p_k", positive=True)
A_k = V.declare(
    "A_k",
    "|𝒜_{s_k}|, the number of clients in client k's group",
    latex=r"|\mathcal{A}_{s_k}|",
    positive=True,
    integer=True,
)
P_i = V.declare("P_i", "P_i = Σ_{k∈𝒜_i} p_k, the data share of group i", latex="P_i", positive=True)
r_i = V.declare(
    "r_i",
    "r_i = Σ_{j≠i} sign(L_i − L_j), group i's signed rank (d − 1, d − 3, …, 1 − d without ties)",
    latex="r_i",
    integer=True,
)
# measured vectors (sequences, entry k − 1 for client k; entry m − 1 for the m-th group loss)
p = V.declare("p", "data shares p_k of the clients, k = 1, …, K", role="sequence", positive=True)
Nk = V.declare(
    "Nk",
    "sample counts N_k of the clients, k = 1, …, K",
    latex="N",
    role="sequence",
    positive=True,
    integer=True,
)
A = V.declare(
    "A",
    "|𝒜_{s_k}|, the size of client k's group, k = 1, …, K",
    latex=r"|\mathcal{A}|",
    role="sequence",
    positive=True,
    integer=True,
)
r = V.declare(
    "r",
    "signed ranks r_k(θ) = Σ_{j≠s_k} sign(L_{s_k}(θ) − L_j(θ)) of the clients (sign(0) = 0)",
    role="sequence",
    integer=True,
)
F = V.declare(
    "F", "local losses F_k(θ) of the clients, k = 1, …, K", role="sequence", nonnegative=True
)
Ls = V.declare(
    "Ls",
    "group losses L_i(θ) = (1/|𝒜_i|)Σ_{k∈𝒜_i}F_k(θ) sorted in decreasing order L_(1) ≥ … ≥ L_(d)",
    latex=r"L_{()}",
    role="sequence",
    nonnegative=True,
)
# summation indices: never free in a registered expression
k_index, m_index, j_index, s_index = sp.symbols("k m j s", integer=True, positive=True)

# ---------------------------------------------------------------------------- units
#: Base units of the dimensional audit: a model parameter θ and a loss value.
X_UNIT, LOSS_UNIT = sp.symbols("X L0", positive=True)
ONE = sp.Integer(1)
GRAD2 = LOSS_UNIT**2 / X_UNIT**2
STEP = X_UNIT**2 / LOSS_UNIT
#: Unit of every symbol: θ ~ X and ℓ ~ L0, so a gradient ~ L0/X, the smoothness L and μ ~ L0/X²,
#: a step size η (θ − η∇F) ~ X²/L0; λ is dimensionless (H = Σ p_kF_k + λR); counts, shares,
#: ranks and probabilities are dimensionless.
UNITS: dict[str, sp.Expr] = {
    "L": LOSS_UNIT / X_UNIT**2,
    "mu": LOSS_UNIT / X_UNIT**2,
    "G2": GRAD2,
    "sigma2_p2": GRAD2,
    "sigma2_p": GRAD2,
    "xi": GRAD2,
    "beta": STEP,
    "eta": STEP,
    "c": STEP,
    "D0": X_UNIT**2,
    "Delta_t": X_UNIT**2,
    **dict.fromkeys(("Gamma_K", "Gamma_max", "H0gap", "H0", "M", "Rad", "F", "Ls"), LOSS_UNIT),
    **dict.fromkeys(
        (
            "K",
            "d",
            "E",
            "T",
            "t",
            "Sc",
            "lam",
            "lam_max",
            "pA_min",
            "eps",
            "gamma",
            "pc2",
            "delta",
            "p_k",
            "A_k",
            "P_i",
            "r_i",
            "p",
            "Nk",
            "A",
            "r",
            "C",
        ),
        ONE,
    ),
}


class _Audit:
    """The terms of a registered bound and the unit of the quantity it bounds."""

    def __init__(self, terms: tuple[sp.Expr, ...], unit: sp.Expr) -> None:
        self.terms, self.unit = terms, unit


_AUDITS: dict[str, _Audit] = {}


def register_terms(
    bound_id: str,
    terms: Sequence[sp.Expr],
    *,
    kind: Kind,
    unit: sp.Expr | None,
    **kwargs: Any,
) -> Bound:
    """Register the bound Σ terms, recording its terms for the audit.

    An order statement whose terms do not contain the unknown constant ``C`` is registered as
    C·(Σ terms); one that does (Theorem 3.11: only ξ_{Γ_K} is an O(·)) is registered as it is.
    ``unit=None`` leaves the bound out of the audit (an O(·) whose constant carries the unit).
    """
    total = sp.Add(*terms)
    if kind.startswith("order") and C not in total.free_symbols:
        total = C * total  # the O(·) of the whole statement; else C sits where the paper's O is
    expr = total
    bound = register(Bound(bound_id, expr, kind=kind, vocabulary=V, **kwargs))
    if unit is not None:
        _AUDITS[bound_id] = _Audit(tuple(terms), unit)
    return bound


def _plain(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every sequence entry p[k − 1] replaced by its label p (same unit)."""
    return expr.xreplace({item: item.base.label for item in expr.atoms(sp.Indexed)})


def term_units(bound: Bound | str) -> list[TermUnit]:
    """The unit of every term of a registered ``gifair`` bound.

    Units follow :data:`UNITS` (θ ~ X, ℓ ~ L0). A sequence entry has the unit of its sequence.

    Raises
    ------
    ParameterError
        If ``bound`` is not an audited ``gifair`` bound (the order statements of Theorem 4.2
        are not: their O(·) hides a constant with a unit).
    """
    bound_id = bound.id if isinstance(bound, Bound) else get(bound).id
    audit = _AUDITS.get(bound_id)
    if audit is None:
        raise ParameterError(
            parameter="bound", value=bound_id, rule="must be an audited gifair bound"
        )
    # summation indices are dimensionless (also where an inner limit uses an outer index)
    table: dict[sp.Symbol, sp.Expr] = dict.fromkeys((k_index, m_index, j_index, s_index), ONE)
    for name, unit in UNITS.items():
        symbol = V.symbol(name)
        table[symbol.label if isinstance(symbol, sp.IndexedBase) else symbol] = unit
    return audit_terms([_plain(term) for term in audit.terms], table, audit.unit)


def dimension_audit(
    bounds: Bound | str | Iterable[Bound | str] | None = None,
) -> list[tuple[str, TermUnit]]:
    """The terms whose unit is not that of the bounded quantity.

    Parameters
    ----------
    bounds
        A bound, an id, several, or ``None`` for every audited ``gifair`` bound.

    Returns
    -------
    list of (bound id, TermUnit)
        Only the inconsistent terms. On the registry: the non-convex statements that divide by
        √T instead of Σ_tη_t (Theorem 3.11 and Theorem 8.6 as printed take η_t = 1/√t, a
        dimensionless step), and the factor (2 + 4L) of ξ^(t) in Theorem 8.6 (a number plus a
        smoothness constant), also in the form the proof establishes.

    Examples
    --------
    >>> sorted({i for i, _ in dimension_audit()})  # doctest: +NORMALIZE_WHITESPACE
    ['gifair.thm311', 'gifair.thm86', 'gifair.thm86.proof-form']
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


# ---------------------------------------------------------------------------- hypotheses
EPS_LE_1 = Hypothesis(sp.Le(eps, 1), "ε = 1 − λ/λ_max lies in (0, 1] for 0 ≤ λ < λ_max")
MU_LE_L = Hypothesis(sp.Le(mu, L), "an L-smooth μ-strongly convex F_k has μ ≤ L")
D_GE_2 = Hypothesis(sp.Ge(d, 2), "fairness needs at least d = 2 groups")
GAMMA_GE_E = Hypothesis(
    sp.Ge(gamma, E), "η^(t) ≤ 2η^(t+E) for every t ≥ 0 (App. 8.3) holds iff γ ≥ E"
)
STEP_0 = Hypothesis(
    sp.Le(beta, gamma / (4 * (2 - eps) * L)),
    "the largest step η^(0) = β/γ is ≤ 1/(4(1 + (d − 1)λ/min_k p_k|𝒜_{s_k}|)L) = "
    "1/(4(2 − ε)L) (App. 8.3)",
)
GAMMA_FIX = Hypothesis(
    sp.Ge(gamma, 8 * (2 - eps) * L / (eps * mu)),
    "with β = 2/(εμ), η^(0) ≤ 1/(4(2 − ε)L) needs γ ≥ 8(2 − ε)L/(εμ) (guide §3, repair)",
)
GAMMA_K_LE_MAX = Hypothesis(sp.Le(Gamma_K, Gamma_max), "Γ_max ≥ |Γ_K| by definition")
T_GE_1 = Hypothesis(sp.Ge(T, 1), "the minimum over t = 1, …, T needs T ≥ 1")
C_NONCONVEX = Hypothesis(
    sp.Le(c, 1 / (sp.sqrt(2 * K) * L)),
    "the proof of Thm 8.6 needs η^(t) ≤ 1/(√(2K)L): η_t = c/√t with c ≤ 1/(√(2K)L)",
)
DELTA_LT_1 = Hypothesis(sp.Lt(delta, 1), "a failure probability δ_0 < 1 (log(1/δ_0) > 0)")
PC2_LE_4 = Hypothesis(sp.Le(pc2, 4), "c_k ∈ [0, 2] for λ ≤ λ_max, so Σ_k p_kc_k² ≤ 4 (guide D2)")

# ---------------------------------------------------------------------------- quantities
GAP = "E[H(θ̄_C)] − H*"
GAP_TEX = r"\mathbb{E}[H(\bar\theta_C)] - H^{*}"
DIST = "E‖θ̄^(T) − θ*‖²"
DIST_TEX = r"\mathbb{E}\Vert\bar\theta^{(T)} - \theta^{*}\Vert^{2}"
GRAD = "min_{t=1,…,T} E‖∇H(θ̄^(t))‖²"
GRAD_TEX = r"\min_{t\leq T}\mathbb{E}\Vert\nabla H(\bar\theta^{(t)})\Vert^{2}"
H_DEF = "H(θ) = Σ_k p_kF_k(θ) + λΣ_{i<j}|L_i(θ) − L_j(θ)|, objective (1)"
H_DEF_TEX = r"H(\theta)"
