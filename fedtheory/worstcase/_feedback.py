"""Local steps with a relative-error oracle and error feedback, averaged by a server, as a PEP.

Private: the method ``"fedavg-ef"`` of :data:`fedtheory.worstcase.METHODS`. Client i minimises
f_i + (ρ/2)‖·‖² (ρ = ``mu`` > 0, the regulariser centred at the origin and applied exactly);
the gradient of f_i goes through an oracle that answers a query φ with any h such that

    ‖h − φ‖ ≤ (1 − γ)‖φ‖          (a relative error of at most 1 − γ, γ ∈ (0, 1]),

and the oracle's error is fed back into the next query. Round t = 0, …, T − 1, every client from
the server model (y ← x_t, residual Δ ← 0, reset every round), for k = 1, …, K:

    φ = Δ + ∇f_i(y),   h = oracle(φ),   y ← y − η_s (h + ρ y),   Δ ← φ − h,   s = tK + k;

then x_{t+1} = Σ_i q_i y_i. Without feedback (``feedback=False``) the query is ∇f_i(y) alone.
In a function space L²(α) this is federated functional gradient boosting, the oracle a weak
learner of edge γ; with γ = 1 it is FedAvg on the regularised clients.

Function class: every f_i convex with subgradients bounded by G (PEPit's
``ConvexLipschitzFunction``), in any dimension; the start satisfies ‖x_0 − x*‖² ≤ R2 (x* the
minimiser of Σ q_i f_i + (ρ/2)‖·‖²) and optionally ‖x_0‖² ≤ B2. The interpolation conditions
of convex Lipschitz functions are necessary and sufficient (Taylor, Hendrickx & Glineur 2017,
Thm 3.5) and the oracle's answer to each query is free within its ball, so the SDP is the exact
worst case over non-smooth f_i and every oracle obeying the error bound; for differentiable f_i
it is an upper bound of the worst case.

Measures: ``"distance"`` ‖x_T − x*‖²; for client 1 at the last local step of the last round:
``"residual"`` ‖Δ‖², ``"oracle"`` ‖h‖², ``"iterate"`` ‖y‖² (the model it returns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError
from fedtheory.worstcase._pep import PepModel
from fedtheory.worstcase._setting import _weights, check_schedule

__all__ = ["FEEDBACK_MEASURES", "FeedbackSetting", "build_feedback_pep", "make_feedback_setting"]

#: Measures of ``"fedavg-ef"`` (see the module docstring).
FEEDBACK_MEASURES = ("distance", "residual", "oracle", "iterate")


@dataclass(frozen=True)
class FeedbackSetting:
    """A checked ``"fedavg-ef"`` problem (see the module docstring for each field)."""

    m: int
    K: int
    T: int
    G: float
    mu: float
    gamma: float
    eta: tuple[float, ...]  # one per local step s = tK + k, over the K·T steps of a client
    feedback: bool
    R2: float
    B2: float
    weights: tuple[float, ...]
    measure: str

    @property
    def q(self) -> tuple[float, ...]:
        """Aggregation weights (uniform when none were given)."""
        return self.weights or (1.0 / self.m,) * self.m

    def parameters(self) -> dict[str, Any]:
        """The parameters as a flat dict (recorded in the :class:`WorstCase`)."""
        out: dict[str, Any] = {
            "m": self.m,
            "K": self.K,
            "T": self.T,
            "G": self.G,
            "mu": self.mu,
            "gamma": self.gamma,
            "eta": list(self.eta),
            "feedback": self.feedback,
            "R2": self.R2,
        }
        if math.isfinite(self.B2):
            out["B2"] = self.B2
        if self.weights:
            out["weights"] = list(self.weights)
        return out


def make_feedback_setting(
    *,
    m: Any = 1,
    K: Any = 1,
    T: Any,
    G: Any,
    mu: Any,
    gamma: Any,
    eta: Any,
    feedback: Any = True,
    R2: Any = 1.0,
    B2: Any = None,
    weights: Any = None,
    measure: Any = "distance",
) -> FeedbackSetting:
    """Check every parameter of a ``"fedavg-ef"`` problem (``eta``: a step, or one per local
    step over the K·T steps of a client, in the order s = tK + k).

    Raises
    ------
    ParameterError
        A count below 1, ``G``, ``mu``, ``R2`` or ``B2`` not positive, ``gamma`` outside (0, 1],
        a schedule of the wrong length or with a step that is not positive, a non-boolean
        ``feedback``, weights that are not a probability vector, an unknown measure.
    """
    m = check_int("m", m, minimum=1)
    K = check_int("K", K, minimum=1)
    T = check_int("T", T, minimum=1)
    G = check_real("G", G, positive=True)
    mu = check_real("mu", mu, positive=True)
    gamma = check_real("gamma", gamma, positive=True)
    if gamma > 1:
        raise ParameterError(parameter="gamma", value=gamma, rule="must be in (0, 1]")
    eta_values = check_schedule("eta", eta, K * T, what="one per local step, K·T in all")
    if not isinstance(feedback, bool):
        raise ParameterError(parameter="feedback", value=feedback, rule="must be True or False")
    R2 = check_real("R2", R2, positive=True)
    B2_value = math.inf if B2 is None else check_real("B2", B2, positive=True)
    if measure not in FEEDBACK_MEASURES:
        raise ParameterError(
            parameter="measure", value=measure, rule=f"must be one of {FEEDBACK_MEASURES}"
        )
    return FeedbackSetting(
        m=m,
        K=K,
        T=T,
        G=G,
        mu=mu,
        gamma=gamma,
        eta=eta_values,
        feedback=feedback,
        R2=R2,
        B2=B2_value,
        weights=_weights(weights, m),
        measure=str(measure),
    )


def _weighted_sum(terms: list[Any], weights: tuple[float, ...]) -> Any:
    total = weights[0] * terms[0]
    for weight, term in zip(weights[1:], terms[1:], strict=True):
        total = total + weight * term
    return total


def build_feedback_pep(setting: FeedbackSetting) -> PepModel:
    """The PEP of ``"fedavg-ef"`` over its class (see the module docstring)."""
    from PEPit import PEP, Expression, Point
    from PEPit.functions import ConvexLipschitzFunction

    s = setting
    q = s.q
    problem = PEP()
    functions = [problem.declare_function(ConvexLipschitzFunction, M=s.G) for _ in range(s.m)]
    # x*: Σ q_i g_i + ρ x* = 0 with g_i ∈ ∂f_i(x*)
    at_optimum = [Point() for _ in range(s.m)]
    x_star = (-1.0 / s.mu) * _weighted_sum(at_optimum, q)
    for f, g in zip(functions, at_optimum, strict=True):
        f.add_point((x_star, g, Expression()))

    named: dict[str, Any] = {}
    x = problem.set_initial_point()
    named["initial"] = (x - x_star) ** 2 <= s.R2
    problem.set_initial_condition(named["initial"])
    if math.isfinite(s.B2):
        named["start_norm"] = x**2 <= s.B2
        problem.add_constraint(named["start_norm"])

    iterates = [x]
    last: dict[str, Any] = {}
    for t in range(s.T):
        models = []
        for i, f in enumerate(functions):
            y = x
            residual: Any = None
            for k in range(s.K):
                query = f.gradient(y) if residual is None else residual + f.gradient(y)
                if s.gamma < 1:
                    error = Point()
                    problem.add_constraint(error**2 <= (1.0 - s.gamma) ** 2 * query**2)
                    answer = query + error
                else:  # an exact oracle (a zero budget would leave the SDP no interior)
                    answer = query
                y = y - s.eta[t * s.K + k] * (answer + s.mu * y)
                if s.feedback:
                    residual = query - answer
                if i == 0:
                    last = {"residual": query - answer, "oracle": answer, "iterate": y}
            models.append(y)
        x = _weighted_sum(models, q)
        iterates.append(x)

    metric = (x - x_star) ** 2 if s.measure == "distance" else last[s.measure] ** 2
    problem.set_performance_metric(metric)
    return PepModel(problem, functions, named, x_star, iterates)
