"""Textbook results the five papers lean on (paper key ``classic``).

=========================================  =====================================================
id                                         statement
=========================================  =====================================================
``classic.gd.strongly-convex``             GD, step 1/L: f(x_T) − f* ≤ (1 − μ/L)^T Δ0
``classic.gd.strongly-convex.distance``    GD, step 2/(μ+L): ‖x_T − x*‖² ≤ ((L−μ)/(L+μ))^{2T} D0
``classic.gd.distance.exact``              GD's exact worst case ``max(|1−ηL|, |1−ημ|)^{2T} D0``
``classic.gd.optimal-step``                the step minimising it: η* = 2/(μ + L)
``classic.gd.smooth-convex``               GD, step 1/L, smooth convex: f(x_T) − f* ≤ 2L D0/(T + 4)
``classic.gd.smooth-convex.exact``         its exact worst case L D0/(4T + 2) (Drori–Teboulle; THG)
``classic.inexact-gd``                     GD with gradient errors e_k (Friedlander–Schmidt)
``classic.inexact-gd.bounded-errors``      the same with ‖e_k‖² ≤ ε² for every k (derived)
``classic.sgd.strongly-convex.distance``   SGD, step 1/(μt): E‖w_T − w*‖² ≤ 4G²/(μ²T)
``classic.sgd.strongly-convex.gap``        SGD, step 1/(μt), L-smooth: E[F(w_T) − F*] ≤ 2LG²/(μ²T)
``classic.stability.expectation``          γ-uniform stability ⇒ E[generalization gap] ≤ γ
``classic.stability.high-probability``     Bousquet–Elisseeff: gap ≤ 2γ + (4nγ + M)√(ln(1/δ)/2n)
``classic.stability.regularized-erm``      RLM with λ‖w‖², ρ-Lipschitz convex loss: 2ρ²/(λn)
=========================================  =====================================================
"""

from __future__ import annotations

from functools import partial

import sympy as sp

from fedtheory.bounds._bound import Bound, register
from fedtheory.bounds._citation import Citation
from fedtheory.bounds._symbols import COMMON, Vocabulary

__all__: list[str] = []

V = Vocabulary("classic", parent=COMMON)
L, mu, T, S = (COMMON.symbol(n) for n in ("L", "mu", "T", "S"))
Delta0, D0, G2, M = (COMMON.symbol(n) for n in ("Delta0", "D0", "G2", "M"))
n, gamma, delta, rho = (COMMON.symbol(n) for n in ("n", "gamma", "delta", "rho"))
e2 = V.declare(
    "e2",
    "squared norms ‖e_k‖² of the gradient errors, k = 0, …, S−1",
    latex=r"\Vert e\Vert^{2}",
    role="sequence",
    nonnegative=True,
)
eps2 = V.declare(
    "eps2",
    "uniform bound ε² on the squared gradient errors ‖e_k‖²",
    latex=r"\varepsilon^{2}",
    nonnegative=True,
)
lam = V.declare("lam", "Tikhonov regularization weight λ in λ‖w‖²", latex=r"\lambda", positive=True)
_k = sp.Symbol("k", integer=True, positive=True)
_bound = partial(Bound, vocabulary=V)
_INGREDIENT = (
    "metadata: a textbook ingredient of the minimax paper's proofs (Theorems 4 and 6), judged "
    "through the rates those theorems predict, not a prediction about data of its own"
)

_KARIMI = (
    "Karimi, Nutini & Schmidt (2016), Linear convergence of gradient and proximal-gradient "
    "methods under the Polyak-Łojasiewicz condition, Theorem 1 (μ-strong convexity implies PL)"
)
_NESTEROV = "Nesterov (2004), Introductory Lectures on Convex Optimization, Theorem 2.1.15"
_FRIEDLANDER = (
    "Friedlander & Schmidt (2012), Hybrid deterministic-stochastic methods for data fitting, "
    "SIAM J. Sci. Comput. 34(3), Lemma 2.1; restated as Lemma 2 of the FedLRGD paper"
)
_THG = (
    "Taylor, Hendrickx & Glineur (2017), Smooth strongly convex interpolation and exact "
    "worst-case performance of first-order methods, Math. Program. 161, Theorem 3 (conjectured "
    "by Drori & Teboulle 2014, who proved it for step 1/L)"
)
_RAKHLIN = (
    "Rakhlin, Shamir & Sridharan (2012), Making gradient descent optimal for strongly convex "
    "stochastic optimization, ICML (arXiv:1109.5647)"
)
_BOUSQUET = "Bousquet & Elisseeff (2002), Stability and generalization, JMLR 2:499–526"
_SSBD = "Shalev-Shwartz & Ben-David (2014), Understanding Machine Learning"

_q = 1 - mu / L  # contraction factor of GD with step 1/L
_valid_condition = sp.Le(mu, L)
_condition_note = "strong convexity cannot exceed smoothness"

register(
    _bound(
        "classic.gd.strongly-convex",
        _q**T * Delta0,
        kind="upper",
        source=Citation("classic", "GD, linear rate in function value", reference=_KARIMI),
        quantity="f(x_T) − f*",
        quantity_latex="f(x_T) - f^\\star",
        statement=(
            "Gradient descent with step 1/L on an L-smooth, μ-strongly convex f contracts the "
            "optimality gap by (1 − μ/L) per iteration."
        ),
        hypotheses=[(_valid_condition)],
        example={"L": 10, "mu": 1, "T": 20, "Delta0": 1},
    )
)

register(
    _bound(
        "classic.gd.strongly-convex.distance",
        ((L - mu) / (L + mu)) ** (2 * T) * D0,
        kind="upper",
        source=Citation("classic", "GD, linear rate in distance", reference=_NESTEROV),
        quantity="‖x_T − x*‖²",
        quantity_latex="\\Vert x_T - x^\\star\\Vert^2",
        statement=(
            "Gradient descent with step 2/(μ + L) on an L-smooth, μ-strongly convex f contracts "
            "the distance to the minimizer by (L − μ)/(L + μ) per iteration."
        ),
        hypotheses=[_valid_condition],
        example={"L": 10, "mu": 1, "T": 20, "D0": 1},
    )
)

_eta = V.declare("eta", "step size η of gradient descent", latex=r"\eta", positive=True)

register(
    _bound(
        "classic.gd.distance.exact",
        sp.Max(sp.Abs(1 - _eta * L), sp.Abs(1 - _eta * mu)) ** (2 * T) * D0,
        kind="exact",
        source=Citation("classic", "GD, exact worst case in distance", reference=_THG),
        quantity="max ‖x_T − x*‖² over L-smooth μ-strongly convex f with ‖x_0 − x*‖² ≤ D0",
        quantity_latex="\\max \\Vert x_T - x^\\star\\Vert^2",
        statement=(
            "The worst case of T steps of gradient descent with any step η over L-smooth, "
            "μ-strongly convex functions with ‖x_0 − x*‖² ≤ D0 is max(|1 − ηL|, |1 − ημ|)^{2T} "
            "D0, attained by a quadratic with eigenvalues μ and L; at η = 2/(μ + L) it is "
            "classic.gd.strongly-convex.distance."
        ),
        hypotheses=[_valid_condition],
        example={"L": 1, "mu": 0.1, "eta": 0.5, "T": 3, "D0": 1},
    )
)

register(
    _bound(
        "classic.gd.optimal-step",
        2 / (mu + L),
        kind="exact",
        source=Citation("classic", "GD, the step of the best linear rate", reference=_NESTEROV),
        quantity="argmin over η of GD's worst-case ‖x_T − x*‖²",
        quantity_latex="\\eta^\\star",
        statement=(
            "The step minimising GD's exact worst case max(|1 − ηL|, |1 − ημ|)^{2T} D0 is "
            "η* = 2/(μ + L), where both branches are equal (the rate of "
            "classic.gd.strongly-convex.distance), for every T."
        ),
        hypotheses=[_valid_condition],
        example={"L": 1, "mu": 0.1},
    )
)

register(
    _bound(
        "classic.gd.smooth-convex",
        2 * L * D0 / (T + 4),
        kind="upper",
        source=Citation("classic", "GD on smooth convex f, Corollary 2.1.2", reference=_NESTEROV),
        quantity="f(x_T) − f*",
        quantity_latex="f(x_T) - f^\\star",
        statement=(
            "Gradient descent with step 1/L on an L-smooth convex f: f(x_T) − f* ≤ "
            "2L‖x_0 − x*‖²/(T + 4)."
        ),
        example={"L": 1, "T": 10, "D0": 1},
    )
)

register(
    _bound(
        "classic.gd.smooth-convex.exact",
        L * D0 / (4 * T + 2),
        kind="exact",
        source=Citation("classic", "GD on smooth convex f, exact worst case", reference=_THG),
        quantity="max f(x_T) − f* over L-smooth convex f with ‖x_0 − x*‖² ≤ D0",
        quantity_latex="\\max f(x_T) - f^\\star",
        statement=(
            "The worst case of T steps of gradient descent with step 1/L over L-smooth convex "
            "functions with ‖x_0 − x*‖² ≤ D0 is exactly L D0/(4T + 2) (a Huber-like function "
            "attains it): about 4× smaller than Nesterov's 2L D0/(T + 4) for large T."
        ),
        example={"L": 1, "T": 10, "D0": 1},
    )
)

register(
    _bound(
        "classic.inexact-gd",
        _q**S * Delta0 + sp.Sum(_q ** (S - _k) * e2[_k - 1], (_k, 1, S)) / (2 * L),
        kind="upper",
        source=Citation("classic", "inexact GD with step 1/L", reference=_FRIEDLANDER),
        quantity="f(x_S) − f*",
        quantity_latex="f(x_S) - f^\\star",
        statement=(
            "Gradient descent with step 1/L and gradient errors e_k (x_{k+1} = x_k − (∇f(x_k) + "
            "e_k)/L) on an L-smooth, μ-strongly convex f: the gap contracts by (1 − μ/L) per "
            "step and each error adds ‖e_k‖²/(2L), discounted geometrically."
        ),
        hypotheses=[_valid_condition],
        example={"L": 4, "mu": 1, "S": 5, "Delta0": 1, "e2": [0.1, 0.05, 0.02, 0.01, 0.005]},
    )
)

register(
    _bound(
        "classic.inexact-gd.bounded-errors",
        _q**S * Delta0 + eps2 * (1 - _q**S) / (2 * mu),
        kind="upper",
        status="derived",
        source=Citation(
            "classic",
            "inexact GD with ‖e_k‖² ≤ ε²: geometric sum of classic.inexact-gd",
            reference=_FRIEDLANDER,
        ),
        quantity="f(x_S) − f*",
        quantity_latex="f(x_S) - f^\\star",
        statement=(
            "With every squared gradient error at most ε², the inexact-GD bound sums to "
            "(1 − μ/L)^S Δ0 + ε²(1 − (1 − μ/L)^S)/(2μ): linear convergence to the floor ε²/(2μ)."
        ),
        hypotheses=[_valid_condition],
        example={"L": 4, "mu": 1, "S": 5, "Delta0": 1, "eps2": 0.1},
    )
)

_T_positive = sp.Ge(T, 1)
register(
    _bound(
        "classic.sgd.strongly-convex.distance",
        4 * G2 / (mu**2 * T),
        kind="upper",
        source=Citation("classic", "SGD with step 1/(μt), Lemma 1", reference=_RAKHLIN),
        quantity="E‖w_T − w*‖²",
        quantity_latex="\\mathbb{E}\\Vert w_T - w^\\star\\Vert^2",
        statement=(
            "SGD with step 1/(μt) on a μ-strongly convex F with E‖g_t‖² ≤ G² reaches squared "
            "distance 4G²/(μ²T) after T steps."
        ),
        hypotheses=[_T_positive],
        example={"G2": 1, "mu": 1, "T": 100},
    )
)

register(
    _bound(
        "classic.sgd.strongly-convex.gap",
        2 * L * G2 / (mu**2 * T),
        kind="upper",
        source=Citation("classic", "SGD with step 1/(μt), Theorem 1", reference=_RAKHLIN),
        quantity="E[F(w_T) − F*]",
        quantity_latex="\\mathbb{E}[F(w_T) - F^\\star]",
        statement=(
            "If F is also L-smooth, the last SGD iterate has expected optimality gap at most "
            "2LG²/(μ²T): the O(1/T) rate."
        ),
        hypotheses=[_T_positive, _valid_condition],
        example={"G2": 1, "mu": 1, "L": 4, "T": 100},
    )
)

register(
    _bound(
        "classic.stability.expectation",
        gamma,
        kind="upper",
        source=Citation(
            "classic",
            "uniform stability bounds the expected generalization gap",
            reference=f"{_BOUSQUET}, Lemma 7; {_SSBD}, Theorem 13.2",
        ),
        quantity="E_S[R(A(S)) − R_S(A(S))]",
        quantity_latex="\\mathbb{E}_S[R(A(S)) - \\widehat R_S(A(S))]",
        statement=(
            "An algorithm whose loss changes by at most γ when one training point is replaced "
            "has expected generalization gap at most γ (the form used for local training in the "
            "minimax paper, Theorem 4)."
        ),
        example={"gamma": 0.01},
        unjudged=_INGREDIENT,
    )
)

register(
    _bound(
        "classic.stability.high-probability",
        2 * gamma + (4 * n * gamma + M) * sp.sqrt(sp.log(1 / delta) / (2 * n)),
        kind="upper",
        source=Citation("classic", "Theorem 12", reference=_BOUSQUET),
        quantity="R(A(S)) − R_S(A(S))",
        quantity_latex="R(A(S)) - \\widehat R_S(A(S))",
        statement=(
            "For a γ-uniformly stable algorithm with loss in [0, M], with probability at least "
            "1 − δ over the n samples the generalization gap is at most "
            "2γ + (4nγ + M)√(ln(1/δ)/(2n)); informative only when γ = o(1/√n)."
        ),
        hypotheses=[sp.Lt(delta, 1)],
        example={"gamma": 0.001, "n": 1000, "M": 1, "delta": 0.05},
        unjudged=_INGREDIENT,
    )
)

register(
    _bound(
        "classic.stability.regularized-erm",
        2 * rho**2 / (lam * n),
        kind="upper",
        source=Citation("classic", "Corollary 13.6", reference=_SSBD),
        quantity="E_S[R(A(S)) − R_S(A(S))]",
        quantity_latex="\\mathbb{E}_S[R(A(S)) - \\widehat R_S(A(S))]",
        statement=(
            "Regularized loss minimization with λ‖w‖² and a convex ρ-Lipschitz loss is "
            "on-average-replace-one stable with rate 2ρ²/(λn), hence its expected "
            "generalization gap is at most 2ρ²/(λn)."
        ),
        example={"rho": 1, "lam": 0.1, "n": 100},
        unjudged=_INGREDIENT,
    )
)
