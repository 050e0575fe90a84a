"""Bounds of Jadbabaie, Makur & Shah, “Federated Optimization of Smooth Loss Functions” (paper key
``fedlrgd``, arXiv:2201.01954v2): FedLRGD, FedAve's oracle complexity, the running-time model.

Equation numbers are the paper's own, (1)–(90). The reading guide ``shared/theory/fedlrgd.md``
derives the forms registered with status ``derived`` (§2.5 D3, §3.3 D1/D4) and lists the errata
(§6); a printed statement that is wrong or misleading is kept as printed next to its corrected form.

Notation
--------
The paper's symbols are kept where they do not collide with the shared vocabulary
(:data:`~fedtheory.bounds.COMMON`):

* ``d`` is the paper's **data dimension** (samples x ∈ [0, 1]^d) — *not* COMMON's model dimension,
  which the paper calls ``p`` (θ ∈ ℝ^p); this vocabulary redeclares ``d`` accordingly.
* ``n`` is COMMON's *samples per client*, the paper's ``s``; the paper's n = ms + r (all samples,
  the server's included) appears only in the statement of Proposition 1.
* ``L`` is the paper's L1 (gradient Lipschitz constant in θ, (4)), ``Delta0`` is F(θ^(0)) − F_*,
  ``D0`` (Lemma 3) is E‖θ^(T0) − θ⋆‖², ``C`` is the unknown constant of an order statement.
* ``C_A`` is the problem constant C of App. D (E[F(θ^(T))] − F_* ≤ C(m²p/(T²b²) + bp/(mT))); ``k``
  is the quantile index of Proposition 2 (the paper's q there) and of (18); ``t`` is Lemma 4's
  argument; ``q`` is Lemma 1's inverse ℓ1-radius; ``tol`` a tolerance on the tail energy.
* l = ⌈η⌉ − 1 is written out (``ceiling(eta) - 1``), so that ``eta`` is the only smoothness input.

Lemma 2 (inexact GD, Friedlander–Schmidt [5, Lemma 2.1]) is the registered
``classic.inexact-gd`` with L = L1, Δ0 = F(θ^(0)) − F_* and e2[k] = ‖∇̂F(θ^(k)) − ∇F(θ^(k))‖²;
the statements coincide (the paper adds the trivial 0 ≤), so no ``fedlrgd.lemma2`` is registered.
The uniform-error consequence (63) is ``classic.inexact-gd.bounded-errors`` with
ε² = 9(B + 3)⁴δ²p.

==============================================  ===============================================
id                                              statement
==============================================  ===============================================
``fedlrgd.lemma1``                              sup|g − P_{q,l}| ≤ L2/(l!q^η)
``fedlrgd.thm1``                                (1/nk)‖M − M_r‖_F² ≤ K r^{−2η/d} for r ≥ r_min
``fedlrgd.thm1.constant`` / ``.rmin``           K = L2²e^{2η/d}d^{η/d}4^η(l+d)^{2η}/(l!)²; r_min
``fedlrgd.thm1.rank-at-tolerance``              r(tol) ≤ max{r_min, (K/tol)^{d/(2η)}} + 1 (D4)
``fedlrgd.thm2.rank``                           the approximate rank r of (47)
``fedlrgd.thm2.iterations``                     S ≥ log(X/ε)/log(κ/(κ−1)); (48) rounds it up
``fedlrgd.thm2``                                Γ(FedLRGD) = r² + rs + rS + φmr
``fedlrgd.thm2.sufficient-rank``                the proof's bound on the left side of (61)
``fedlrgd.thm2.rank-exponent``                  d log r(47)/d log(1/ε) → d/(2(η − (2α+2)d))
``fedlrgd.thm3``                                Γ(FedAve) ≲ φm(p/ε)^{3/4}
``fedlrgd.thm3.upper`` / ``.lower``             (3/4)φτm(C/ε')^{3/4} ≤ Γ ≤ 8φτm(C/ε')^{3/4}
``fedlrgd.thm3.b-star``                         Viète's root b* of the stationarity cubic (86)
``fedlrgd.thm3.b-star.lower`` / ``.upper``      (m/2)(ε'/C)^{1/4} ≤ b* ≤ 2m(ε'/C)^{1/4}   (89)
``fedlrgd.lemma3``                              FedAve convergence distilled from FedPAQ [30]
``fedlrgd.lemma4.lower`` / ``.upper``           sin(arcsin(1 − t²)/3 + 2π/3) = 1/2 + t/√6 ± 5t²/9
``fedlrgd.prop1``                               Γ(FedLRGD) ≲ φm(p/ε)^ξ in Prop. 1's regime
``fedlrgd.prop1.ratio``                         Γ(FedLRGD)/Γ+(FedAve) ≲ (p/ε)^{ξ−3/4} → 0
``fedlrgd.prop1.rank-exponent``                 the exponent of r in p/ε is ≤ 1/(2c1)   (App. E)
``fedlrgd.prop2.lower`` / ``.upper``            Erlang quantile bounds (App. B)
``fedlrgd.eq18`` / ``.corrected``               F_Y^{−1}(1 − 1/k) ≈ log k + b; + √(2b log k)
``fedlrgd.eq19`` / ``.corrected``               b + E max Y_i ≈ log(τm) + 2b; + √(2b log(τm))
``fedlrgd.fedgd``                               federated full-gradient GD: Γ (D3, derived)
``fedlrgd.d1.conditioning``                     ‖G^{−1}‖/r^α ≥ (r−1)^{η/d}/(√K r^{α+1}) (D1)
==============================================  ===============================================

:func:`assumption8_rank_limit` gives the largest rank at which the conditioning assumption (8)
is not excluded by Hölder smoothness (D1): Theorem 2 prescribes ranks (47) far beyond it.
"""

from __future__ import annotations

import math
from functools import partial

import mpmath
import sympy as sp

from fedtheory.bounds._bound import Bound, Hypothesis, register
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._symbols import COMMON, Vocabulary
from fedtheory.errors import ParameterError

__all__ = ["assumption8_rank_limit", "thm1_log_constant"]

# ---------------------------------------------------------------------------- symbols
V = Vocabulary("fedlrgd", parent=COMMON)
m, n, S, T = (COMMON.symbol(s) for s in ("m", "n", "S", "T"))
L, mu, kappa, sigma2 = (COMMON.symbol(s) for s in ("L", "mu", "kappa", "sigma2"))
Delta0, D0, epsilon, C = (COMMON.symbol(s) for s in ("Delta0", "D0", "epsilon", "C"))

d = V.declare(
    "d",
    "data dimension: samples x lie in [0, 1]^d (the paper's d; the model dimension is p)",
    positive=True,
    integer=True,
)
p = V.declare("p", "parameter (model) dimension: θ ∈ ℝ^p", positive=True, integer=True)
eta = V.declare(
    "eta",
    "Hölder smoothness of the partial derivatives g_i(·; ϑ) in the data (6), l = ⌈η⌉ − 1",
    latex=r"\eta",
    positive=True,
)
L2 = V.declare(
    "L2", "Hölder constant of the g_i(·; ϑ) in the ℓ1 norm (6)", latex="L_2", positive=True
)
alpha = V.declare(
    "alpha",
    "conditioning exponent of (8): ‖(G^{(i)})^{−1}‖_op ≤ r^α, α ≥ 1",
    latex=r"\alpha",
    positive=True,
)
B = V.declare("B", "bound on the partial derivatives: sup |g_i(x; ϑ)| ≤ B (9)", positive=True)
r = V.declare(
    "r",
    "approximate rank of FedLRGD = number of server samples (also the matrix rank in Thm. 1)",
    positive=True,
    integer=True,
)
q = V.declare(
    "q",
    "inverse radius of the ℓ1 balls of the covering of [0, 1]^d in Lemma 1 (q > 0)",
    positive=True,
)
phi = V.declare(
    "phi", "communication-to-computation time ratio φ (Def. 1)", latex=r"\phi", positive=True
)
tau = V.declare(
    "tau", "fraction τ ∈ (0, 1] of clients active in an epoch", latex=r"\tau", positive=True
)
b = V.declare(
    "b",
    "gradient computations per active client in an epoch (FedAve's local steps; Erlang shape)",
    positive=True,
    integer=True,
)
k = V.declare(
    "k",
    "quantile index: the (1 − 1/k)-quantile of Erlang(b, 1) (Prop. 2's q, (18)'s k)",
    positive=True,
    integer=True,
)
C_A = V.declare(
    "C_A",
    "problem constant C of App. D: E[F(θ^(T))] − F_* ≤ C(m²p/(T²b²) + bp/(mT))",
    latex="C",
    positive=True,
)
t = V.declare("t", "argument t ∈ [0, 1] of Lemma 4", nonnegative=True)
xi = V.declare(
    "xi",
    "exponent ξ ∈ (0, 3/4) of Proposition 1: Γ(FedLRGD) = O(φm(p/ε)^ξ)",
    latex=r"\xi",
    positive=True,
)
c1 = V.declare(
    "c1",
    "constant c1 ≥ 2/ξ of Proposition 1's smoothness regime η ≥ (c1 + 2α + 2)d",
    latex="c_1",
    positive=True,
)
tol = V.declare(
    "tol",
    "tolerance on the tail energy (1/nk)‖M − M_r‖_F² (approximate rank at tolerance)",
    latex=r"\mathrm{tol}",
    positive=True,
)

_bound = partial(Bound, vocabulary=V)
_D0_MEANING = "E‖θ^(T0) − θ⋆‖², FedAve's squared distance after the T0 burn-in epochs (Lemma 3)"
_L_MEANING = "smoothness constant L1 of (4): every ∇_θ f(x; ·) is L1-Lipschitz"
_DELTA0_MEANING = "initial optimality gap F(θ^(0)) − F_* of the empirical risk (3)"
_KAPPA_MEANING = "condition number κ = L1/μ (must exceed 1)"
_N_MEANING = "number of samples per client (the paper's s)"
_BLM = (
    "Boucheron, Lugosi & Massart (2013), Concentration Inequalities, §2.4 (a Gamma(b, 1) "
    "variable is sub-gamma with variance factor b and scale 1) and Corollary 2.6"
)

# ---------------------------------------------------------------------------- expressions
_l = sp.ceiling(eta) - 1
#: l! written with the paper's l = ⌈η⌉ − 1.
_lfact = sp.factorial(_l)
#: Theorem 1's threshold r_min = e√d 2^d (l + d)^d.
_rmin = sp.E * sp.sqrt(d) * 2**d * (_l + d) ** d
#: Theorem 1's constant K(d, η, L2).
_K = L2**2 * sp.exp(2 * eta / d) * d ** (eta / d) * 4**eta * (_l + d) ** (2 * eta) / _lfact**2
#: X = F(θ^(0)) − F_* + 9(B + 3)⁴p/(2μ) of (47)–(48).
_X = Delta0 + 9 * (B + 3) ** 4 * p / (2 * mu)
_A47 = L2**d * eta**d * sp.exp(eta * (d + 1)) * d ** (eta / 2) * (2 * eta + 2 * d) ** (eta * d)
_A47 = _A47 / (eta - 1) ** (eta * d)
_gap_exponent = eta - (2 * alpha + 2) * d
_branch1 = sp.E * sp.sqrt(d) * 2**d * (eta + d) ** d
_branch2 = (_A47 * (kappa * _X / ((kappa - 1) * epsilon)) ** (d / 2)) ** (1 / _gap_exponent)
_eps_prime = epsilon / p  # App. D's ε = ϵ/p

# ---------------------------------------------------------------------------- hypotheses
_eta_thm2 = Hypothesis(
    sp.Gt(eta, (2 * alpha + 2) * d), "Theorem 2 needs η > (2α + 2)d (hence η > 4d)"
)
_alpha_ge_1 = Hypothesis(sp.Ge(alpha, 1), "(8) assumes an absolute α ≥ 1")
_kappa_gt_1 = Hypothesis(
    sp.Gt(kappa, 1),
    "κ = L1/μ > 1 is needed by (48) and (64) (log(κ/(κ−1)) = ∞ at κ = 1); Thm 2 omits it",
)
_eps_thm2 = Hypothesis(
    sp.Le(epsilon, 9 * (B + 3) ** 4 * p / (8 * mu)), "Theorem 2: 0 < ε ≤ 9(B + 3)⁴p/(8μ)"
)
_r_thm1 = Hypothesis(sp.Ge(r, _rmin), "Theorem 1 holds for r ≥ e√d 2^d (l + d)^d")
_phi_88 = Hypothesis(sp.Ge(phi, 40 / (C_A ** sp.Rational(1, 4) * tau)), "(88): φ ≥ 40/(C^{1/4}τ)")
_tau_le_1 = Hypothesis(sp.Le(tau, 1), "τ is a fraction of the clients")
_eps_prime_le_1 = Hypothesis(sp.Le(epsilon, p), "App. D: ε' = ε/p ∈ (0, 1]")
_t_le_1 = Hypothesis(sp.Le(t, 1), "Lemma 4 holds for t ∈ [0, 1]")
_prop2_range = Hypothesis(sp.Ge((k - 1) * b, 55), "Proposition 2 assumes (q − 1)b ≥ 55")
_k_ge_2 = Hypothesis(sp.Ge(k, 2), "the (1 − 1/k)-quantile with k ≥ 2 i.i.d. running times")
_tau_m_ge_2 = Hypothesis(sp.Ge(tau * m, 2), "a maximum over τm ≥ 2 active clients")
_xi_range = Hypothesis(sp.Lt(xi, sp.Rational(3, 4)), "Proposition 1: ξ ∈ (0, 3/4)")
_c1_range = Hypothesis(sp.Ge(c1, 2 / xi), "Proposition 1: c1 ≥ 2/ξ")
_eta_prop1 = Hypothesis(sp.Ge(eta, (c1 + 2 * alpha + 2) * d), "Proposition 1: η ≥ (c1 + 2α + 2)d")

# d = 1, η = 20: the first branch of (47) is active (r = 115), so that every limit of the contract
# suite is well defined despite the rounding (the 422 point, η = 10, is in the statement and tests)
_THM2_RANK_EXAMPLE = {
    "d": 1,
    "eta": 20,
    "alpha": 1,
    "L2": 1,
    "kappa": 2,
    "B": 1,
    "mu": 1,
    "p": 1,
    "Delta0": 1,
    "epsilon": 0.1,
}
_THM3_EXAMPLE = {"phi": 100, "tau": 1, "m": 1000, "C_A": 1, "epsilon": 0.01, "p": 1}

# ====================================================================== Lemma 1, Theorem 1
register(
    _bound(
        "fedlrgd.lemma1",
        L2 / (_lfact * q**eta),
        kind="upper",
        source=Citation("fedlrgd", "Lemma 1 (uniform piecewise polynomial approximation)"),
        quantity="sup_y |g(y; ϑ) − P_{q,l}(y; ϑ)|",
        quantity_latex=r"\sup_{y}\,|g(y;\vartheta) - P_{q,l}(y;\vartheta)|",
        statement=(
            "The piecewise degree-l Taylor polynomial P_{q,l} of an (η, L2)-Hölder g on the cells "
            "of a minimal covering of [0, 1]^d by ℓ1 balls of radius 1/q approximates g "
            "uniformly within L2/(l! q^η), l = ⌈η⌉ − 1."
        ),
        example={"L2": 1, "eta": 2.5, "q": 4},
    )
)

register(
    _bound(
        "fedlrgd.thm1",
        _K * r ** (-2 * eta / d),
        kind="upper",
        source=Citation("fedlrgd", "Theorem 1 (low rank approximation)"),
        quantity="(1/(nk))‖M − M_r‖_F²",
        quantity_latex=r"\frac{1}{nk}\Vert M - M_r\Vert_F^2",
        statement=(
            "The latent variable model M_ij = g(y_i; ϑ_j) of an (η, L2)-Hölder g (in the data, ℓ1 "
            "norm) is within K(d, η, L2)·r^{−2η/d} of its best rank-r approximation in normalized "
            "squared Frobenius norm, for every r ≥ r_min = e√d 2^d (l + d)^d (and r ≤ min(n, k); "
            "the tail is 0 beyond). The rate 2η/d is minimax-order, the constant very loose."
        ),
        hypotheses=[_r_thm1],
        example={"L2": 1, "eta": 1.5, "d": 1, "r": 32},
    )
)

register(
    _bound(
        "fedlrgd.thm1.constant",
        _K,
        kind="exact",
        source=Citation("fedlrgd", "Theorem 1, the constant of the bound"),
        quantity="K(d, η, L2)",
        quantity_latex=r"K(d, \eta, L_2)",
        statement=(
            "Theorem 1's constant K = L2² e^{2η/d} d^{η/d} 4^η (l + d)^{2η}/(l!)², l = ⌈η⌉ − 1; "
            "for typical kernels it overstates the tail energy by 10³–10⁹ (guide §3.2.2)."
        ),
        example={"L2": 1, "eta": 1.5, "d": 1},
    )
)

register(
    _bound(
        "fedlrgd.thm1.rmin",
        _rmin,
        kind="exact",
        source=Citation("fedlrgd", "Theorem 1, the range r ≥ e√d 2^d (l + d)^d"),
        quantity="r_min(d, η), the smallest rank covered by Theorem 1",
        quantity_latex=r"r_{\min}(d, \eta)",
        statement=(
            "Theorem 1 applies from r_min = e√d 2^d (l + d)^d on: the condition x − 1 ≥ x/2 of "
            "step 6 of its proof. It is 4.7·10³ for d = 3, l = 2 and ≈ 9·10²⁰ for d = 10, l = 40, "
            "which makes the theorem vacuous for moderate d."
        ),
        example={"eta": 1.5, "d": 1},
    )
)

register(
    _bound(
        "fedlrgd.thm1.rank-at-tolerance",
        sp.Max(_rmin, (_K / tol) ** (d / (2 * eta))) + 1,
        kind="upper",
        status="derived",
        source=Citation("fedlrgd", "Theorem 1 solved for r (guide §3.3 D4)"),
        quantity="r(tol) = min{r : (1/(nk))‖M − M_r‖_F² ≤ tol}",
        quantity_latex=r"r(\mathrm{tol})",
        statement=(
            "The approximate rank at tolerance tol of an (η, L2)-Hölder latent variable model is "
            "at most max{r_min, (K/tol)^{d/(2η)}} + 1 (the + 1 for rounding up to an integer "
            "rank; the guide's D4 omits it)."
        ),
        example={"L2": 1, "eta": 1.5, "d": 1, "tol": 1e-3},
    )
)

# ====================================================================== Theorem 2
register(
    _bound(
        "fedlrgd.thm2.rank",
        sp.ceiling(sp.Max(_branch1, _branch2)),
        kind="exact",
        source=Citation("fedlrgd", "Theorem 2, eq. (47)"),
        quantity="r, the approximate rank (number of server samples) of FedLRGD",
        quantity_latex="r",
        statement=(
            "Theorem 2 runs FedLRGD with approximate rank r = ⌈max{e√d 2^d (η + d)^d, "
            "(A·(κX/((κ−1)ε))^{d/2})^{1/(η−(2α+2)d)}}⌉, X = F(θ^(0)) − F_* + 9(B+3)⁴p/(2μ), "
            "A = L2^d η^d e^{η(d+1)} d^{η/2} (2η+2d)^{ηd}/(η−1)^{ηd}: 422 at d = 1, η = 10, "
            "α = L2 = B = μ = p = F(θ^(0)) − F_* = 1, κ = 2, ε = 0.1, and astronomically large "
            "near η = (2α+2)d (≈ 9·10¹⁷ at d = 1, η = 4.5). evaluate gives r exactly (a Python "
            "int above 2^53) at the exact binary values of the inputs — 1508389598809018 at "
            "η = 4.6, 1508389598808990 at η = Fraction(23, 5) — and raises beyond float64: "
            "use log_evaluate there."
        ),
        hypotheses=[_eta_thm2, _alpha_ge_1, _kappa_gt_1, _eps_thm2],
        meanings={"Delta0": _DELTA0_MEANING, "kappa": _KAPPA_MEANING},
        example=_THM2_RANK_EXAMPLE,
    )
)

register(
    _bound(
        "fedlrgd.thm2.iterations",
        sp.log(_X / epsilon) / sp.log(kappa / (kappa - 1)),
        kind="lower",
        source=Citation("fedlrgd", "Theorem 2, eq. (48) and the line before it in the proof"),
        quantity="S, the number of inexact-GD iterations of Algorithm 1",
        quantity_latex="S",
        statement=(
            "Algorithm 1 is ε-accurate once (1 − 1/κ)^S X ≤ ε, i.e. for every S ≥ "
            "log(X/ε)/log(κ/(κ−1)), X = F(θ^(0)) − F_* + 9(B+3)⁴p/(2μ); (48) takes S as the "
            "ceiling of this (14 at the example point). The rounding is left out here so that "
            "scaling questions have smooth answers."
        ),
        hypotheses=[_kappa_gt_1, _eps_thm2],
        meanings={"Delta0": _DELTA0_MEANING, "kappa": _KAPPA_MEANING},
        example={"kappa": 2, "B": 1, "mu": 1, "p": 1, "Delta0": 1, "epsilon": 0.1},
    )
)

register(
    _bound(
        "fedlrgd.thm2",
        r**2 + r * n + r * S + phi * m * r,
        kind="exact",
        source=Citation("fedlrgd", "Theorem 2 (federated oracle complexity of FedLRGD)"),
        quantity="Γ(FedLRGD)",
        quantity_latex=r"\Gamma(\mathsf{FedLRGD})",
        statement=(
            "With r from (47) and S from (48), FedLRGD (τ = 1) is ε-accurate and costs "
            "r² (server Gram matrices) + rs + φm (client weights) + (r − 1)φm (uploads) + rS "
            "(server inexact GD) = r² + rs + rS + φmr in Definition 1's units."
        ),
        meanings={"n": _N_MEANING, "S": "number of inexact-GD iterations of Algorithm 1 (48)"},
        example={"r": 422, "n": 100, "S": 14, "phi": 50, "m": 1000},
    )
)

register(
    _bound(
        "fedlrgd.thm2.sufficient-rank",
        L2
        * eta
        * 2**eta
        * sp.exp(eta * (d + 1) / d)
        * d ** (eta / (2 * d))
        * (eta + d) ** eta
        / ((eta - 1) ** eta * r ** (eta / d - 2 * alpha - 2)),
        kind="upper",
        source=Citation("fedlrgd", "proof of Theorem 2, the displays leading to (47)"),
        quantity="L2 r^{2α+2}/(l! q^η), the left side of condition (61)",
        quantity_latex=r"\frac{L_2 r^{2\alpha+2}}{l!\,q^{\eta}}",
        statement=(
            "With q chosen so that r = D|S_{d,q}| and r ≥ e√d 2^d (η + d)^d, the left side of "
            "(61) is at most L2 η 2^η e^{η(d+1)/d} d^{η/(2d)} (η + d)^η/((η − 1)^η "
            "r^{η/d − 2α − 2}) (Stirling: 1/l! ≤ ηe^η/(η − 1)^η). (47) makes this at most "
            "√((κ − 1)ε/(κX)) ≤ δ = (1 − 1/κ)^{S/2}."
        ),
        hypotheses=[
            Hypothesis(sp.Ge(r, _branch1), "the proof's q ≥ 1 needs r ≥ e√d 2^d (η + d)^d"),
            Hypothesis(sp.Gt(eta, 1), "Stirling's bound 1/l! ≤ ηe^η/(η − 1)^η needs η > 1"),
        ],
        example={"L2": 1, "eta": 10, "d": 1, "alpha": 1, "r": 422},
    )
)

register(
    _bound(
        "fedlrgd.thm2.rank-exponent",
        d / (2 * _gap_exponent),
        kind="exact",
        status="derived",
        source=Citation("fedlrgd", "Theorem 2, eq. (47) as ε → 0 (guide §3.2.3)"),
        quantity="lim_{ε→0} d log r(47)/d log(1/ε)",
        quantity_latex=r"\lim_{\epsilon\to 0}\frac{d\log r}{d\log(1/\epsilon)}",
        statement=(
            "As ε → 0 the second branch of (47) dominates and r grows like ε^{−d/(2(η−(2α+2)d))}: "
            "Γ(FedLRGD) ≈ φm(p/ε)^{Θ(d/η)}; the exponent blows up as η ↓ (2α + 2)d."
        ),
        hypotheses=[_eta_thm2],
        example={"d": 1, "eta": 10, "alpha": 1},
    )
)

# ====================================================================== Theorem 3 (FedAve)
register(
    _bound(
        "fedlrgd.thm3",
        C * phi * m * (p / epsilon) ** sp.Rational(3, 4),
        kind="order-upper",
        source=Citation("fedlrgd", "Theorem 3 (federated oracle complexity of FedAve)"),
        quantity="Γ(FedAve)",
        quantity_latex=r"\Gamma(\mathsf{FedAve})",
        statement=(
            "FedAve (FedPAQ [30] without quantization) with the best b and T reaches "
            "E[F] − F_* ≤ ε at federated oracle complexity O(φm(p/ε)^{3/4}) for ε ∈ (0, 1], φ "
            "above a constant and m large, under unbiased stochastic gradients of variance O(p). "
            "What is "
            "optimized is an upper bound (App. D, footnote 14)."
        ),
        hypotheses=[Hypothesis(sp.Le(epsilon, 1), "Theorem 3: ε ∈ (0, 1]")],
        example={"phi": 100, "m": 1000, "p": 1, "epsilon": 0.01},
    )
)

_fedave_scale = phi * tau * m * (C_A * p / epsilon) ** sp.Rational(3, 4)
register(
    _bound(
        "fedlrgd.thm3.upper",
        8 * _fedave_scale,
        kind="upper",
        source=Citation("fedlrgd", "Theorem 3, proof (App. D, last display)"),
        quantity="Γ(FedAve) = min over b, T of T(b + φτm) subject to (78)",
        quantity_latex=r"\Gamma(\mathsf{FedAve})",
        statement=(
            "Under (88), the optimized bound (79) — the least T(b + φτm) such that C(m²/(T²b²) + "
            "b/(mT)) ≤ ε/p — is at most 8φτm(C/ε')^{3/4}, ε' = ε/p: the Γ+(FedAve) of Prop. 1."
        ),
        hypotheses=[_phi_88, _tau_le_1, _eps_prime_le_1],
        example=_THM3_EXAMPLE,
    )
)

register(
    _bound(
        "fedlrgd.thm3.lower",
        sp.Rational(3, 4) * _fedave_scale,
        kind="lower",
        source=Citation("fedlrgd", "Theorem 3, proof (App. D, last display)"),
        quantity="Γ(FedAve) = min over b, T of T(b + φτm) subject to (78)",
        quantity_latex=r"\Gamma(\mathsf{FedAve})",
        statement=(
            "Under (88), the optimized bound (79) is at least (3/4)φτm(C/ε')^{3/4}: a lower bound "
            "on the optimized *bound*, not on FedAve's actual cost (guide §6.4)."
        ),
        hypotheses=[_phi_88, _tau_le_1, _eps_prime_le_1],
        example=_THM3_EXAMPLE,
    )
)

# C1 = C/(2mε'), C2 = m√(C/ε'), C3 = φτm of (82)–(84); 54·C2/(C1·C3²) = 108√(ε'/C)/(φτ)².
_C3 = phi * tau * m
_arcsin_argument = 1 - 108 * sp.sqrt(_eps_prime / C_A) / (phi * tau) ** 2
_b_star = _C3 / 3 * (sp.sin(sp.asin(_arcsin_argument) / 3 + 2 * sp.pi / 3) - sp.Rational(1, 2))
register(
    _bound(
        "fedlrgd.thm3.b-star",
        _b_star,
        kind="exact",
        source=Citation("fedlrgd", "proof of Theorem 3 (App. D), Viète's formula after (87)"),
        quantity="b*, the positive root of the stationarity condition (86)",
        quantity_latex="b^{*}",
        statement=(
            "The minimizer of g(b) = (C1 b + C2/b)(b + C3) is b* = (C3/3)(sin(arcsin(1 − "
            "54C2/(C1C3²))/3 + 2π/3) − 1/2) with C1 = C/(2mε'), C2 = m√(C/ε'), C3 = φτm; the "
            "arcsin argument 1 − 108√(ε'/C)/(φτ)² stays in [−1, 1] under (88)."
        ),
        hypotheses=[_phi_88, _tau_le_1, _eps_prime_le_1],
        example=_THM3_EXAMPLE,
    )
)

register(
    _bound(
        "fedlrgd.thm3.b-star.lower",
        m / 2 * (_eps_prime / C_A) ** sp.Rational(1, 4),
        kind="lower",
        source=Citation("fedlrgd", "proof of Theorem 3 (App. D), eq. (89)"),
        quantity="b*, the positive root of (86)",
        quantity_latex="b^{*}",
        statement="Under (88) and ε' ∈ (0, 1], b* ≥ (m/2)(ε'/C)^{1/4}: b* = Θ(mε'^{1/4}).",
        hypotheses=[_phi_88, _tau_le_1, _eps_prime_le_1],
        example=_THM3_EXAMPLE,
    )
)

register(
    _bound(
        "fedlrgd.thm3.b-star.upper",
        2 * m * (_eps_prime / C_A) ** sp.Rational(1, 4),
        kind="upper",
        source=Citation("fedlrgd", "proof of Theorem 3 (App. D), eq. (89)"),
        quantity="b*, the positive root of (86)",
        quantity_latex="b^{*}",
        statement="Under (88) and ε' ∈ (0, 1], b* ≤ 2m(ε'/C)^{1/4}.",
        hypotheses=[_phi_88, _tau_le_1, _eps_prime_le_1],
        example=_THM3_EXAMPLE,
    )
)

_T0 = 4 * sp.Max(
    L / mu,
    4 + 32 * (L / mu) ** 2 * (1 - tau) / (tau * (m - 1)),
    4 * m / (mu**2 * b),
)
_lemma3 = (
    L * (_T0 * b + 1) ** 2 / (2 * (T * b + 1) ** 2) * D0
    + 8 * (L / mu) * sigma2 / (mu * m) * (1 + 8 * (1 - tau) * m / (tau * (m - 1))) * b / (T * b + 1)
    + 8 * sp.E * L * (L / mu) ** 2 * sigma2 / m * (b - 1) ** 2 / (T * b + 1)
    + 128
    * sp.E
    * (L / mu) ** 3
    * sigma2
    / mu
    * (1 + 8 * (1 - tau) / (tau * (m - 1)))
    * (b - 1)
    / (T * b + 1) ** 2
)
register(
    _bound(
        "fedlrgd.lemma3",
        _lemma3,
        kind="upper",
        source=Citation("fedlrgd", "Lemma 3 (App. D), distilled from FedPAQ [30, Theorem 1]"),
        quantity="E[F(θ^(T))] − F_*",
        quantity_latex=r"\mathbb{E}[F(\theta^{(T)})] - F_{*}",
        statement=(
            "FedAve with b local SGD steps per epoch, τm active clients and stochastic-gradient "
            "variance σ², after T ≥ T0 = 4max{κ, 4 + 32κ²(1−τ)/(τ(m−1)), 4m/(μ²b)} epochs: the "
            "gap is O(m²p/(T²b²)) + O(p/(mT)) + O(bp/(mT)) + O(p/(T²b)) with the printed constants "
            "(κ = L1/μ). The second term's factor 8(1−τ)m/(τ(m−1)) and the fourth's "
            "8(1−τ)/(τ(m−1)) differ by m as printed (guide §6.12)."
        ),
        hypotheses=[
            Hypothesis(sp.Ge(T, _T0), "Lemma 3 holds after the burn-in T ≥ T0"),
            Hypothesis(sp.Lt(mu, L), "Theorem 3 assumes L1 > μ"),
            Hypothesis(sp.Ge(m, 2), "the factors 1/(m − 1) need m ≥ 2"),
            _tau_le_1,
        ],
        meanings={"L": _L_MEANING, "D0": _D0_MEANING, "T": "number of FedAve epochs"},
        example={
            "L": 2,
            "mu": 1,
            "m": 100,
            "tau": 1,
            "b": 10,
            "T": 200,
            "D0": 1,
            "sigma2": 1,
        },
        unjudged=(
            "used only inside the FedAve oracle complexity (Theorem 3, judged through "
            "fedlrgd.thm3.lower/.upper and its exponent): the catalog runs no local-SGD FedAve "
            "whose optimality gap it could bound"
        ),
    )
)

# ====================================================================== Lemma 4
_h_center = sp.Rational(1, 2) + t / sp.sqrt(6)
register(
    _bound(
        "fedlrgd.lemma4.lower",
        _h_center - 5 * t**2 / 9,
        kind="lower",
        source=Citation("fedlrgd", "Lemma 4 (Taylor approximation of root, App. D)"),
        quantity="h(t) = sin(arcsin(1 − t²)/3 + 2π/3)",
        quantity_latex=r"\sin\left(\frac{1}{3}\arcsin(1 - t^2) + \frac{2\pi}{3}\right)",
        statement=(
            "For t ∈ [0, 1], h(t) ≥ 1/2 + t/√6 − 5t²/9 (h(0) = 1/2, h'(0) = 1/√6, |h''| ≤ 10/9)."
        ),
        hypotheses=[_t_le_1],
        example={"t": 0.5},
    )
)

register(
    _bound(
        "fedlrgd.lemma4.upper",
        _h_center + 5 * t**2 / 9,
        kind="upper",
        source=Citation("fedlrgd", "Lemma 4 (Taylor approximation of root, App. D)"),
        quantity="h(t) = sin(arcsin(1 − t²)/3 + 2π/3)",
        quantity_latex=r"\sin\left(\frac{1}{3}\arcsin(1 - t^2) + \frac{2\pi}{3}\right)",
        statement="For t ∈ [0, 1], h(t) ≤ 1/2 + t/√6 + 5t²/9.",
        hypotheses=[_t_le_1],
        example={"t": 0.5},
    )
)

# ====================================================================== Proposition 1
register(
    _bound(
        "fedlrgd.prop1",
        C * phi * m * (p / epsilon) ** xi,
        kind="order-upper",
        source=Citation("fedlrgd", "Proposition 1 (comparison between FedLRGD and FedAve)"),
        quantity="Γ(FedLRGD)",
        quantity_latex=r"\Gamma(\mathsf{FedLRGD})",
        statement=(
            "As m → ∞ with s = O(φm), d = O(log(n)^λ) (λ < 1), ε = Θ(n^{−β}) (β ≤ 1/2), "
            "(c1 + 2α + 2)d ≤ η ≤ (c2 + 2α + 2)d, c2 > c1 ≥ 2/ξ and F(θ^(0)) − F_* = O(p) (τ, L1, "
            "L2, μ, α, B constant), FedLRGD's complexity is O(φm(p/ε)^ξ). Only the regime "
            "conditions on ξ, c1 and η are checked."
        ),
        hypotheses=[_xi_range, _c1_range, _eta_prop1],
        example={
            "phi": 50,
            "m": 1000,
            "p": 1,
            "epsilon": 0.01,
            "xi": 0.5,
            "c1": 4,
            "eta": 8,
            "alpha": 1,
            "d": 1,
        },
    )
)

register(
    _bound(
        "fedlrgd.prop1.ratio",
        C * (p / epsilon) ** (xi - sp.Rational(3, 4)),
        kind="order-upper",
        status="derived",
        source=Citation("fedlrgd", "Proposition 1: Γ(FedLRGD)/Γ+(FedAve) → 0 (App. E)"),
        quantity="Γ(FedLRGD)/Γ+(FedAve)",
        quantity_latex=r"\Gamma(\mathsf{FedLRGD})/\Gamma_{+}(\mathsf{FedAve})",
        statement=(
            "The two displays of Proposition 1 give Γ(FedLRGD)/Γ+(FedAve) = O((p/ε)^{ξ − 3/4}) → 0 "
            "in its regime — a comparison of an upper bound with an upper bound (guide §6.4). "
            "Along the regime the measured exponent is 1/(2c1) − 3/4 ≤ ξ/4 − 3/4."
        ),
        hypotheses=[_xi_range, _c1_range, _eta_prop1],
        example={"p": 1, "epsilon": 0.01, "xi": 0.5, "c1": 4, "eta": 8, "alpha": 1, "d": 1},
    )
)

register(
    _bound(
        "fedlrgd.prop1.rank-exponent",
        1 / (2 * c1),
        kind="upper",
        source=Citation("fedlrgd", "proof of Proposition 1 (App. E), the accuracy factor"),
        quantity="lim_{ε→0} d log r(47)/d log(1/ε)",
        quantity_latex=r"\lim_{\epsilon\to 0}\frac{d\log r}{d\log(1/\epsilon)}",
        statement=(
            "In Proposition 1's regime η ≥ (c1 + 2α + 2)d, the accuracy factor of (47) is "
            "O((p/ε)^{1/(2c1)}): r = O(subpoly(n)·(p/ε)^{1/(2c1)}) (90), so Γ = O(φmr²) is "
            "O(φm(p/ε)^{1/c1}) up to sub-polynomial factors."
        ),
        hypotheses=[_eta_prop1, _alpha_ge_1],
        example={"c1": 4, "eta": 8, "alpha": 1, "d": 1},
    )
)

# ====================================================================== running time (App. B)
register(
    _bound(
        "fedlrgd.prop2.lower",
        sp.log(k - 1) / 2 + sp.log(b) / 2,
        kind="lower",
        source=Citation("fedlrgd", "Proposition 2 (quantile function of the Erlang distribution)"),
        quantity="F_Y^{−1}(1 − 1/k), Y ~ Erlang(b, 1)",
        quantity_latex=r"F_Y^{-1}(1 - 1/k)",
        statement=(
            "For (k − 1)b ≥ 55 the (1 − 1/k)-quantile of Erlang(b, 1) is ≥ (log(k − 1) + log b)/2."
        ),
        hypotheses=[_prop2_range],
        example={"k": 1000, "b": 20},
    )
)

register(
    _bound(
        "fedlrgd.prop2.upper",
        2 * sp.log(k - 1) + 2 * b * sp.log(2 * b),
        kind="upper",
        source=Citation("fedlrgd", "Proposition 2 (quantile function of the Erlang distribution)"),
        quantity="F_Y^{−1}(1 − 1/k), Y ~ Erlang(b, 1)",
        quantity_latex=r"F_Y^{-1}(1 - 1/k)",
        statement=(
            "For (k − 1)b ≥ 55 the (1 − 1/k)-quantile of Erlang(b, 1) is ≤ "
            "2log(k − 1) + 2b log(2b)."
        ),
        hypotheses=[_prop2_range],
        example={"k": 1000, "b": 20},
    )
)

register(
    _bound(
        "fedlrgd.eq18",
        sp.log(k) + b,
        kind="exact",
        source=Citation("fedlrgd", "§II-D1, eq. (18)"),
        quantity="F_Y^{−1}(1 − 1/k), Y ~ Erlang(b, 1) (approximated, printed as ≈)",
        quantity_latex=r"F_Y^{-1}(1 - 1/k)",
        statement=(
            "The running-time model estimates the Erlang(b, 1) quantile by log k + b ('for "
            "simplicity', printed as ≈). It understates the quantile once b ≳ 3: the true quantile "
            "carries a √(2b log k) term (48.8 against 33.8 at b = 20, k = 10⁶); see "
            "fedlrgd.eq18.corrected."
        ),
        hypotheses=[_k_ge_2],
        example={"k": 1000, "b": 20},
    )
)

register(
    _bound(
        "fedlrgd.eq18.corrected",
        sp.log(k) + b + sp.sqrt(2 * b * sp.log(k)),
        kind="upper",
        status="derived",
        source=Citation("fedlrgd", "eq. (18) with the sub-gamma deviation term", reference=_BLM),
        quantity="F_Y^{−1}(1 − 1/k), Y ~ Erlang(b, 1)",
        quantity_latex=r"F_Y^{-1}(1 - 1/k)",
        statement=(
            "Erlang(b, 1) is sub-gamma (variance b, scale 1): P(Y ≥ b + √(2bx) + x) ≤ e^{−x}; "
            "x = log k gives F_Y^{−1}(1 − 1/k) ≤ log k + b + √(2b log k) — (18) plus the "
            "missing √(2b log k)."
        ),
        hypotheses=[_k_ge_2],
        example={"k": 1000, "b": 20},
    )
)

register(
    _bound(
        "fedlrgd.eq19",
        sp.log(tau * m) + 2 * b,
        kind="exact",
        source=Citation("fedlrgd", "§II-D1, eq. (19)"),
        quantity="b + E[max_{i≤τm} Y_i], Y_i ~ Erlang(b, 1) i.i.d. (approximated, printed as ≈)",
        quantity_latex=r"b + \mathbb{E}[\max_{i\leq\tau m} Y_i]",
        statement=(
            "The expected computation time of an epoch in which τm clients compute b gradients "
            "each is estimated by log(τm) + 2b, via the Gumbel limit and (18); it understates the "
            "exact value for b ≳ 3 (by 19% at b = 20, τm = 10³)."
        ),
        hypotheses=[_tau_m_ge_2, _tau_le_1],
        example={"tau": 1, "m": 1000, "b": 20},
    )
)

register(
    _bound(
        "fedlrgd.eq19.corrected",
        sp.log(tau * m) + 2 * b + sp.sqrt(2 * b * sp.log(tau * m)),
        kind="upper",
        status="derived",
        source=Citation(
            "fedlrgd", "eq. (19) with the sub-gamma maximal inequality", reference=_BLM
        ),
        quantity="b + E[max_{i≤τm} Y_i], Y_i ~ Erlang(b, 1) i.i.d.",
        quantity_latex=r"b + \mathbb{E}[\max_{i\leq\tau m} Y_i]",
        statement=(
            "For centred sub-gamma variables (variance b, scale 1), E max_{i≤N} (Y_i − b) ≤ "
            "√(2b log N) + log N, so b + E max ≤ log(τm) + 2b + √(2b log(τm))."
        ),
        hypotheses=[_tau_m_ge_2, _tau_le_1],
        example={"tau": 1, "m": 1000, "b": 20},
    )
)

# ====================================================================== derived: FedGD, D1
register(
    _bound(
        "fedlrgd.fedgd",
        (r + n + phi * m) * (1 + sp.log(Delta0 / epsilon) / sp.log(kappa / (kappa - 1))),
        kind="upper",
        status="derived",
        source=Citation("fedlrgd", "federated full-gradient GD, omitted by the paper (guide D3)"),
        quantity="Γ(FedGD)",
        quantity_latex=r"\Gamma(\mathsf{FedGD})",
        statement=(
            "Exact GD with step 1/L1 run federatedly — per iteration the server computes its r "
            "gradients (b = r, no upload) and every client its s gradients and uploads their sum "
            "(b = s, φm) — needs ⌈log(Δ0/ε)/log(κ/(κ−1))⌉ iterations (Lemma 2 with zero error), "
            "so Γ(FedGD) ≤ (r + s + φm)(1 + log(Δ0/ε)/log(κ/(κ−1))) = O(φmκ log(p/ε)) in "
            "Proposition 1's regime: below both Γ(FedLRGD) and Γ+(FedAve)."
        ),
        hypotheses=[_kappa_gt_1, Hypothesis(sp.Le(epsilon, Delta0), "otherwise nothing to do")],
        meanings={"Delta0": _DELTA0_MEANING, "kappa": _KAPPA_MEANING, "n": _N_MEANING},
        example={
            "r": 422,
            "n": 100,
            "phi": 50,
            "m": 1000,
            "Delta0": 1,
            "epsilon": 0.01,
            "kappa": 2,
        },
    )
)

register(
    _bound(
        "fedlrgd.d1.conditioning",
        (r - 1) ** (eta / d) / (sp.sqrt(_K) * r ** (alpha + 1)),
        kind="lower",
        status="derived",
        source=Citation("fedlrgd", "assumption (8) against Theorem 1 (guide §3.3 D1(b))"),
        quantity="‖(G^{(i)})^{−1}‖_op / r^α",
        quantity_latex=r"\Vert (G^{(i)})^{-1}\Vert_{\mathrm{op}} / r^{\alpha}",
        statement=(
            "Theorem 1 applied to the r × r matrix G^{(i)} itself (rank r − 1) gives σ_r(G) ≤ "
            "r√K (r − 1)^{−η/d}, hence ‖G^{−1}‖_op/r^α ≥ (r − 1)^{η/d}/(√K r^{α+1}) whenever "
            "r − 1 ≥ r_min. Where this exceeds 1, assumption (8) ‖G^{−1}‖_op ≤ r^α cannot hold: "
            "at Theorem 2's own r (e.g. 1.6·10⁹ at r = 422, d = 1, η = 10)."
        ),
        hypotheses=[Hypothesis(sp.Ge(r - 1, _rmin), "Theorem 1 applied with rank r − 1")],
        example={"r": 422, "eta": 10, "d": 1, "alpha": 1, "L2": 1},
    )
)


# ---------------------------------------------------------------------------- helpers
def thm1_log_constant(d: int, eta: float, L2: float) -> float:
    """Natural logarithm of Theorem 1's constant K(d, η, L2), in floating point.

    log K = 2 log L2 + 2η/d + (η/d) log d + η log 4 + 2η log(l + d) − 2 log l!, l = ⌈η⌉ − 1.

    Parameters
    ----------
    d
        Data dimension (positive integer).
    eta
        Hölder smoothness η > 0.
    L2
        Hölder constant L2 > 0.
    """
    if not (int(d) == d and d >= 1 and eta > 0 and L2 > 0):
        raise ParameterError(
            parameter="(d, eta, L2)",
            value=(d, eta, L2),
            rule="need a positive integer d and positive eta, L2",
        )
    level = int(mpmath.ceil(eta)) - 1
    with mpmath.workdps(30):
        value = (
            2 * mpmath.log(L2)
            + 2 * mpmath.mpf(eta) / d
            + mpmath.mpf(eta) / d * mpmath.log(d)
            + eta * mpmath.log(4)
            + 2 * eta * mpmath.log(level + d)
            - 2 * mpmath.loggamma(level + 1)
        )
    return float(value)


def assumption8_rank_limit(d: int, eta: float, alpha: float, L2: float) -> float:
    """Natural logarithm of the largest rank at which assumption (8) is not excluded (D1).

    By ``fedlrgd.d1.conditioning``, (8) ‖(G^{(i)})^{−1}‖_op ≤ r^α fails at every r with
    r − 1 ≥ r_min (Theorem 1's threshold) and (r − 1)^{η/d} > √K r^{α+1}. The left side grows
    faster than the right when η/d > α + 1 (implied by Theorem 2's η > (2α + 2)d), so the
    second condition holds exactly beyond the root r* of (r − 1)^{η/d} = √K r^{α+1}. The largest
    rank where (8) may hold is therefore r_max = max{r*, r_min + 1}; this returns log r_max.

    Parameters
    ----------
    d, eta, alpha, L2
        Data dimension, Hölder smoothness and constant, conditioning exponent of (8).

    Raises
    ------
    ParameterError
        If η ≤ (α + 1)d (then the Hölder bound never excludes (8) for large r) or the values are
        outside their domains.
    """
    if not eta > (alpha + 1) * d:
        raise ParameterError(
            parameter="eta",
            value=eta,
            rule=f"must exceed (α + 1)d = {(alpha + 1) * d:g} for (8) to be excluded at large r",
        )
    log_k = thm1_log_constant(d, eta, L2)
    level = math.ceil(eta) - 1
    ratio = eta / d

    def excess(rho: float) -> float:
        # log((r − 1)^{η/d}) − log(√K r^{α+1}) at r = e^ρ; increasing in ρ since η/d > α + 1
        return ratio * (rho + math.log(-math.expm1(-rho))) - log_k / 2 - (alpha + 1) * rho

    low, high = 1e-300, 1.0
    while excess(high) < 0:
        low, high = high, 2 * high
    for _ in range(200):  # bisection on a continuous increasing function
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if excess(middle) < 0:
            low = middle
        else:
            high = middle
    log_threshold = math.log(math.e * math.sqrt(d) * 2.0**d * float(level + d) ** d + 1)
    return max(high, log_threshold)
