"""The vocabulary of the ``fzoos`` bounds and the bookkeeping of their dimensional audit.

Private to :mod:`fedtheory.bounds.fzoos` (which documents the notation and the ids): the symbols
of Shu, Lin, Dai & Low's paper (guide ``shared/theory/fzoos.md`` §1), the units of the
dimensional audit, the hypotheses several bounds share, the measured sequences of the pathwise
statements (Lemma C.11, Theorem C.1), and :func:`register_terms`, which registers a bound term by
term so that :func:`term_units` and :func:`dimension_audit` can give the unit of each term (as
:mod:`fedtheory.bounds._gifair_vocabulary` does for ``gifair``).
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
V = Vocabulary("fzoos", parent=COMMON)
d, delta, beta, D0, C, D_eps = (
    COMMON.symbol(s) for s in ("d", "delta", "beta", "D0", "C", "epsilon")
)

# the federation (guide §1): COMMON's N, R, T, M, kappa, L, gamma mean other things
N = V.declare("N", "number of clients i = 1, …, N", positive=True, integer=True)
R = V.declare("R", "number of communication rounds", positive=True, integer=True)
T = V.declare("T", "number of local GD steps per round", positive=True, integer=True)
t = V.declare("t", "local step t = 1, …, T of a round", positive=True, integer=True)
r = V.declare("r", "round index r ≥ 1", positive=True, integer=True)
M = V.declare("M", "number of random Fourier features", positive=True, integer=True)
Q = V.declare(
    "Q", "number of finite-difference directions u_q ~ N(0, I) (3)", positive=True, integer=True
)
eta = V.declare("eta", "local learning rate η of plain GD", latex=r"\eta", positive=True)
alpha = V.declare("alpha", "strong-convexity constant α of F", latex=r"\alpha", positive=True)
G = V.declare("G", "heterogeneity: (1/N)Σ_i‖∇f_i(x) − ∇F(x)‖² ≤ G for every x", nonnegative=True)
kappa = V.declare(
    "kappa",
    "bound κ on ‖∂_z∂_z'k(z, z')|_{z=z'=x}‖ (SE kernel: κ = σ_f²/l²)",
    latex=r"\kappa",
    positive=True,
)
L = V.declare("L", "bound L on ‖∂_z k(z, x')‖ (SE kernel: e^{−1/2}/l)", positive=True)
sigma2 = V.declare(
    "sigma2",
    "variance σ² of the observation noise (and of the GP likelihood)",
    latex=r"\sigma^{2}",
    positive=True,
)
omega = V.declare(
    "omega",
    "χ²_d quantile ω = d + 2(√d + 1)ln(1/δ) of Lemma C.1 (C.6: ln(2NRT/δ))",
    latex=r"\omega",
    positive=True,
)
rho = V.declare(
    "rho",
    "uncertainty decay ρ = (1/N)Σ_iρ_i, the mean of the per-client ratios (Thm 1)",
    latex=r"\rho",
    positive=True,
)
rho_max = V.declare(
    "rho_max",
    "uncertainty decay ρ_max = max_i ρ_i (the Jensen fix of (36c))",
    latex=r"\rho_{\max}",
    positive=True,
)
rho_i = V.declare(
    "rho_i",
    "per-client uncertainty decays ρ_i, i = 1, …, N (Lemma C.6)",
    latex=r"\rho_{i}",
    role="sequence",
    positive=True,
)
eps = V.declare(
    "eps",
    "RFF error ε: max_i‖∇μ̂_{r−1,T}^{(i)} − ∇μ_{r−1,T}^{(i)}‖² (‘O(1/M)’)",
    latex=r"\epsilon",
    nonnegative=True,
)
gamma = V.declare(
    "gamma",
    "gradient-correction length γ_{r,t−1} ∈ [0, 1] of (2), (8)",
    latex=r"\gamma",
    nonnegative=True,
)
V_rff = V.declare("V", "bound on E‖v‖² of the RFF frequencies (SE: d/l²)", positive=True)
sig = V.declare(
    "sig",
    "posterior gradient uncertainty ‖∂(σ_{r,t}^{(i)})²(x)‖ (spectral norm)",
    latex=r"\Vert\partial\sigma^{2}\Vert",
    nonnegative=True,
)
sig_others = V.declare(
    "sig_others",
    "Σ_{j≠i}‖∂(σ_{r−1,T}^{(j)})²(x_{r,t−1}^{(i)})‖, the other clients' uncertainties",
    latex=r"\sum_{j\neq i}\Vert\partial\sigma_j^{2}\Vert",
    nonnegative=True,
)
k0 = V.declare(
    "k0", "prior variance k(0) = k(x, x) of the shift-invariant kernel", latex="k(0)", positive=True
)
h = V.declare(
    "h",
    "h(ι_r) = ι_r k′(ι_r)², ι_r the mean squared distance to every client's history (Prop. C.1)",
    latex=r"\iota_r k'(\iota_r)^{2}",
    nonnegative=True,
)
eps_lm = V.declare(
    "eps_lm",
    "deviation ε > 0 of Laurent–Massart's χ² tail (Lemma C.2)",
    latex=r"\epsilon",
    positive=True,
)
a = V.declare("a", "free parameter a > 0 of Lemma C.5", positive=True)
vi2, vj2 = (
    V.declare(
        name,
        f"squared norm ‖v_{s}‖² of a vector (Lemma C.5)",
        latex=rf"\Vert v_{s}\Vert^{{2}}",
        nonnegative=True,
    )
    for name, s in (("vi2", "i"), ("vj2", "j"))
)
tau = V.declare("tau", "number τ of vectors (Lemma C.5 (29))", positive=True, integer=True)
v2 = V.declare(
    "v2",
    "squared norms ‖v_k‖², k = 1, …, τ (Lemma C.5 (29))",
    latex=r"\Vert v\Vert^{2}",
    role="sequence",
    nonnegative=True,
)
# Lemmas C.8–C.10 (points x, y, z of a β-smooth, α-strongly convex f)
fyz = V.declare("fyz", "f(y) − f(z)", latex="f(y) - f(z)", real=True)
dyz2 = V.declare("dyz2", "‖y − z‖²", latex=r"\Vert y-z\Vert^{2}", nonnegative=True)
dzx2 = V.declare("dzx2", "‖z − x‖²", latex=r"\Vert z-x\Vert^{2}", nonnegative=True)
dxy2 = V.declare("dxy2", "‖x − y‖²", latex=r"\Vert x-y\Vert^{2}", nonnegative=True)
gap = V.declare("gap", "f(x) − f(x*), the optimality gap at x", nonnegative=True)
alpha0 = V.declare(
    "alpha0",
    "strong-convexity constant α ≥ 0 (0: merely convex)",
    latex=r"\alpha",
    nonnegative=True,
)
# Proposition 1: e = ∇F(x) − g, c = the correction vector
ee = V.declare(
    "ee",
    "‖e‖², e = ∇F(x_{r,t−1}^{(i)}) − g_{r,t−1}^{(i)} (Prop. 1)",
    latex=r"\Vert e\Vert^{2}",
    nonnegative=True,
)
ec = V.declare(
    "ec",
    "eᵀc, c = g_{r−1}(x′) − g_{r−1}^{(i)}(x″) the correction vector (Prop. 1)",
    latex=r"e^{\top}c",
    real=True,
)
cc = V.declare(
    "cc", "‖c‖² > 0 of the correction vector (Prop. 1)", latex=r"\Vert c\Vert^{2}", positive=True
)
# measured per-step quantities (Lemma C.11, Theorem C.1)
gradF2 = V.declare(
    "gradF2",
    "‖∇F(x_r)‖² at the server iterate of the round",
    latex=r"\Vert\nabla F(x_r)\Vert^{2}",
    nonnegative=True,
)
D1 = V.declare("D1", "initial gap F(x_0) − F(x*)", latex="D_1", nonnegative=True)
diam = V.declare(
    "diam",
    "max_{r≤R}‖x_r − x*‖, the radius that replaces the √d of Thm C.1(ii) off the box",
    latex=r"\max_r\Vert x_r - x^{*}\Vert",
    positive=True,
)
xi = V.declare(
    "xi",
    "one client's disparities Ξ_{r+1,τ}^{(i)} = ‖ĝ_{r+1,τ−1}^{(i)} − ∇F(x_{r+1,τ−1}^{(i)})‖² "
    "of one "
    "round, entry τ − 1 for step τ = 1, …, T",
    latex=r"\Xi",
    role="sequence",
    nonnegative=True,
)
Xi = V.declare(
    "Xi",
    "client sums of the disparities, flattened: Xi[rT + t − 1] = Σ_i Ξ_{r+1,t}^{(i)} for "
    "r = 0, …, R and t = 1, …, T (Xi_log.sum(axis=1).ravel() of a log of shape (R+1, N, T))",
    latex=r"\Xi",
    role="sequence",
    nonnegative=True,
)
Xi_sqrt = V.declare(
    "Xi_sqrt",
    "client sums of the square roots, flattened: Xi_sqrt[rT + t − 1] = Σ_i (Ξ_{r+1,t}^{(i)})^{1/2} "
    "(np.sqrt(Xi_log).sum(axis=1).ravel())",
    latex=r"\sqrt{\Xi}",
    role="sequence",
    nonnegative=True,
)
x_ratio = V.declare("x", "x = ηβT, the scaled step of the constants H", positive=True)
# finite differences (Lemma D.1, App. D)
lam = V.declare("lam", "finite-difference step λ of (3)", latex=r"\lambda", positive=True)
eps_n = V.declare(
    "eps_n",
    "noise bound sup|y − f| ≤ ε_n (Lemma D.1; (85): √(2ln(2/δ))σ)",
    latex=r"\epsilon_n",
    nonnegative=True,
)
sigma = V.declare(
    "sigma", "standard deviation σ of the observation noise", latex=r"\sigma", positive=True
)
gnorm2 = V.declare(
    "gnorm2",
    "‖∇f(x)‖² at the point of the FD estimate (Lemma D.1)",
    latex=r"\Vert\nabla f(x)\Vert^{2}",
    nonnegative=True,
)
Lam = V.declare(
    "Lam", "FD bias constant Λ = βλ√d + ε_n√d/λ (86)", latex=r"\Lambda", nonnegative=True
)
drift = V.declare(
    "drift",
    "(1/N)Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖², the mean squared local drift",
    latex=r"\frac{1}{N}\sum_i\Vert x_{r,t-1}^{(i)}-x_{r-1}\Vert^{2}",
    nonnegative=True,
)
drift_sum = V.declare(
    "drift_sum",
    "Σ_i‖x_{r,t−1}^{(i)} − x_{r−1}‖², the summed squared local drift",
    latex=r"\sum_i\Vert x_{r,t-1}^{(i)}-x_{r-1}\Vert^{2}",
    nonnegative=True,
)
drift_prev = V.declare(
    "drift_prev",
    "Σ_iΣ_τ‖x_{r,t−1}^{(i)} − x_{r−1,τ−1}^{(i)}‖², the distance to last round's trajectory",
    latex=r"\sum_{i,\tau}\Vert x_{r,t-1}^{(i)}-x_{r-1,\tau-1}^{(i)}\Vert^{2}",
    nonnegative=True,
)
gamma_p = V.declare(
    "gamma_p", "FedProx proximal coefficient γ of (89)", latex=r"\gamma", nonnegative=True
)
c_lip = V.declare("c_lip", "Lipschitz constant c of the f_i (Prop. D.4)", latex="c", positive=True)

# summation indices: never free in a registered expression
k_index, r_index, t_index, s_index = sp.symbols("k r t s", integer=True, positive=True)
r0_index = sp.Symbol("r", integer=True, nonnegative=True)

# ---------------------------------------------------------------------------- units
#: Base units of the dimensional audit: an input coordinate x and a function value f.
X_UNIT, F_UNIT = sp.symbols("X F", positive=True)
ONE = sp.Integer(1)
GRAD = F_UNIT / X_UNIT
GRAD2 = GRAD**2
CURV = F_UNIT / X_UNIT**2
STEP = X_UNIT**2 / F_UNIT
#: Unit of every symbol: x ~ X and f ~ F, so a gradient ~ F/X, α, β ~ F/X², η ~ X²/F, the
#: kernel k ~ F² (a prior variance), κ ~ F²/X², L ~ F²/X, V = E‖v‖² ~ 1/X², ι ~ X².
UNITS: dict[str, sp.Expr] = {
    **dict.fromkeys(("alpha", "alpha0", "beta", "gamma_p"), CURV),
    **dict.fromkeys(("eta",), STEP),
    **dict.fromkeys(
        (
            "G",
            "kappa",
            "eps",
            "sig",
            "sig_others",
            "gradF2",
            "xi",
            "Xi",
            "gnorm2",
            "ee",
            "cc",
            "ec",
        ),
        GRAD2,
    ),
    "Xi_sqrt": GRAD,
    "Lam": GRAD,
    "c_lip": GRAD,
    **dict.fromkeys(("D0", "dyz2", "dzx2", "dxy2", "drift", "drift_sum", "drift_prev"), X_UNIT**2),
    **dict.fromkeys(("diam", "lam"), X_UNIT),
    **dict.fromkeys(("D1", "gap", "fyz", "eps_n", "sigma"), F_UNIT),
    **dict.fromkeys(("sigma2", "k0"), F_UNIT**2),
    "h": F_UNIT**4 / X_UNIT**2,
    "L": F_UNIT**2 / X_UNIT,
    "V": X_UNIT**-2,
    **dict.fromkeys(
        (
            "N",
            "R",
            "T",
            "t",
            "r",
            "M",
            "Q",
            "d",
            "delta",
            "omega",
            "rho",
            "rho_max",
            "rho_i",
            "gamma",
            "eps_lm",
            "a",
            "tau",
            "x",
            "C",
            "epsilon",
        ),
        ONE,
    ),
    **dict.fromkeys(("vi2", "vj2", "v2"), X_UNIT**2),
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

    An order statement is registered as C·(Σ terms) (the O(·) of the whole statement).
    ``unit=None`` leaves the bound out of the audit (an O(·) whose constant carries the unit,
    or a statement normalised by |f| ≤ 1 or k(x, x) = 1, such as Lemmas C.3–C.4).
    """
    total = sp.Add(*terms)
    if kind.startswith("order") and C not in total.free_symbols:
        total = C * total
    kwargs["example"] = _used(total, kwargs.get("hypotheses", ()), kwargs["example"])
    bound = register(Bound(bound_id, total, kind=kind, vocabulary=V, **kwargs))
    if unit is not None:
        _AUDITS[bound_id] = _Audit(tuple(terms), unit)
    return bound


def _used(expr: sp.Expr, hypotheses: Iterable[Any], example: dict[str, Any]) -> dict[str, Any]:
    """The entries of a shared example point that the bound uses (its symbols and sequences)."""
    relations = [getattr(h, "relation", h) for h in hypotheses]
    names = {str(s) for s in expr.free_symbols} | {
        str(i.base.label) for i in expr.atoms(sp.Indexed)
    }
    for relation in relations:
        names |= {str(s) for s in relation.free_symbols}
    return {key: value for key, value in example.items() if key in names}


def _plain(expr: sp.Expr) -> sp.Expr:
    """``expr`` with every sequence entry Xi[k] replaced by its label Xi (same unit)."""
    return expr.xreplace({item: item.base.label for item in expr.atoms(sp.Indexed)})


def term_units(bound: Bound | str) -> list[TermUnit]:
    """The unit of every term of a registered ``fzoos`` bound.

    Units follow :data:`UNITS` (x ~ X, f ~ F). A sequence entry has the unit of its sequence.

    Raises
    ------
    ParameterError
        If ``bound`` is not an audited ``fzoos`` bound.
    """
    bound_id = bound.id if isinstance(bound, Bound) else get(bound).id
    audit = _AUDITS.get(bound_id)
    if audit is None:
        raise ParameterError(
            parameter="bound", value=bound_id, rule="must be an audited fzoos bound"
        )
    table: dict[sp.Symbol, sp.Expr] = dict.fromkeys(
        (k_index, r_index, t_index, s_index, r0_index), ONE
    )
    for name, unit in UNITS.items():
        info = V.get(name)
        if info is None:
            continue
        symbol = info.symbol
        table[symbol.label if isinstance(symbol, sp.IndexedBase) else symbol] = unit
    return audit_terms([_plain(term) for term in audit.terms], table, audit.unit)


def dimension_audit(
    bounds: Bound | str | Iterable[Bound | str] | None = None,
) -> list[tuple[str, TermUnit]]:
    """The terms whose unit is not that of the bounded quantity.

    Parameters
    ----------
    bounds
        A bound, an id, several, or ``None`` for every audited ``fzoos`` bound.

    Returns
    -------
    list of (bound id, TermUnit)
        Only the inconsistent terms. On the registry: the Ξ term of Theorem C.1(i) as printed
        (the stray 1/α of (68a), guide §6.17) and the 4√d√Ξ/(NT) term of Theorem C.1(ii) as
        printed (√d is the diameter of [0, 1]^d, a length, written as a count), and γ* of (10) as
        printed (eᵀc/‖c‖ has the unit of a gradient, not a number).
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
ETA_SMOOTH = Hypothesis(sp.Le(eta, 1 / (10 * beta * T)), "Thm C.1(i)–(ii): η ≤ 1/(10βT)")
ETA_NONCONVEX = Hypothesis(
    sp.Le(eta, sp.Rational(7, 100) / (beta * T)), "Thm C.1(iii): η ≤ 7/(100βT)"
)
ETA_DRIFT = Hypothesis(sp.Le(eta, 1 / (beta * T)), "Lemma C.11: η ≤ 1/(βT)")
T_GE_2 = Hypothesis(sp.Ge(T, 2), "S = (T + 1)²/(T(T − 1)) needs T ≥ 2 (Lemma C.11)")
T_LE = Hypothesis(sp.Le(t, T), "a local step t ≤ T")
ALPHA_LE_BETA = Hypothesis(sp.Le(alpha, beta), "an α-strongly convex β-smooth F has α ≤ β")
ROUNDS = Hypothesis(
    sp.Ge(R + 1, 4 * sp.log(sp.Rational(4, 3)) / (alpha * eta * T)),
    "(69)–(70): Σ_r c^r ≥ 1/(αηT)·… needs c^{R+1} ≤ 3/4, i.e. R + 1 ≥ 4ln(4/3)/(αηT) "
    "(printed ln(3/4): vacuous)",
)
RHO_LE_1 = Hypothesis(sp.Le(rho, 1), "ρ ∈ [1/(1 + 1/σ²), 1]")
RHO_MAX_LE_1 = Hypothesis(sp.Le(rho_max, 1), "ρ_max ∈ [1/(1 + 1/σ²), 1]")
GAMMA_LE_1 = Hypothesis(sp.Le(gamma, 1), "a correction length γ ∈ [0, 1]")
DELTA_LT_1 = Hypothesis(sp.Lt(delta, 1), "a failure probability δ ∈ (0, 1)")
EPS_LT_D0 = Hypothesis(sp.Lt(D_eps, D0), "a target below the initial distance (ln(D_0/ε) > 0)")
EPS_LT_D1 = Hypothesis(sp.Lt(D_eps, D1), "a target below the initial gap (D_1/ε > 1)")
EPS_LT_G = Hypothesis(sp.Lt(D_eps**2, G), "a target below the heterogeneity floor (ln(√G/ε) > 0)")

# ---------------------------------------------------------------------------- quantities
DISPARITY = "(1/N)Σ_iΞ_{r,t}^{(i)}, the mean gradient disparity of step t of round r"
DISPARITY_TEX = r"\frac{1}{N}\sum_i\Xi_{r,t}^{(i)}"
GAP_MIN = "min_{r ≤ R} F(x_r) − F(x*)"
GAP_MIN_TEX = r"\min_{r\leq R}F(x_r) - F(x^{*})"
GRAD_MIN = "min_{r ≤ R}‖∇F(x_r)‖²"
GRAD_MIN_TEX = r"\min_{r\leq R}\Vert\nabla F(x_r)\Vert^{2}"
