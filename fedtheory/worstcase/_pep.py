"""Build the performance-estimation problem of a federated method (PEPit, issue 16).

Private: :func:`build_pep` turns a checked :class:`~fedtheory.worstcase._setting.Setting` into a
``PEPit.PEP`` — the clients as functions of the class, x*, the initial condition, the
heterogeneity constraint, the rounds of the method (one round loop for every method; the local
step is the only thing that varies) and the performance measure. The SDP is exact for the convex
and quadratic classes with heterogeneity at the optimum (the interpolation conditions of Taylor,
Hendrickx & Glineur 2017 and Bousselmi, Hendrickx & Glineur 2023 are necessary and sufficient);
for bounded dissimilarity and for non-convex functions it is a relaxation — an upper bound on
the worst case (see ``docs/worstcase.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fedtheory.worstcase._setting import Setting

__all__ = ["PepModel", "build_pep"]


@dataclass
class PepModel:
    """A built PEP and the handles the solver and the counterexample need."""

    problem: Any
    clients: list[Any]  # the leaf functions (one per client; one in all for identical clients)
    named: dict[str, Any]  # constraints whose dual multiplier the certificate reports
    x_star: Any
    iterates: list[Any]  # server models x_0, ..., x_T


def _declare(problem: Any, setting: Setting) -> Any:
    from PEPit.functions import (
        SmoothConvexFunction,
        SmoothFunction,
        SmoothStronglyConvexFunction,
        SmoothStronglyConvexQuadraticFunction,
    )

    if setting.functions == "nonconvex":
        return problem.declare_function(SmoothFunction, L=setting.L)
    if setting.functions == "quadratic":
        return problem.declare_function(
            SmoothStronglyConvexQuadraticFunction, mu=setting.mu, L=setting.L
        )
    if setting.mu > 0:
        return problem.declare_function(SmoothStronglyConvexFunction, mu=setting.mu, L=setting.L)
    return problem.declare_function(SmoothConvexFunction, L=setting.L)


def _weighted_sum(terms: list[Any], weights: tuple[float, ...]) -> Any:
    total = weights[0] * terms[0]
    for weight, term in zip(weights[1:], terms[1:], strict=True):
        total = total + weight * term
    return total


def build_pep(setting: Setting) -> PepModel:
    """The PEP of ``setting``'s method over its function class (see the module docstring)."""
    from PEPit import PEP, Expression, Point
    from PEPit.primitive_steps import proximal_step

    problem = PEP()
    q = setting.q
    if setting.heterogeneity == "identical" or setting.m == 1:
        leaves = [_declare(problem, setting)]
        clients = leaves * setting.m
        average = leaves[0]
    else:
        leaves = [_declare(problem, setting) for _ in range(setting.m)]
        clients = leaves
        average = _weighted_sum(leaves, q)
    named: dict[str, Any] = {}

    x_star = None
    if setting.functions != "nonconvex":
        if setting.homogeneous:
            # every client is stationary at x*: stated structurally (∇f_i(x*) = 0 for each leaf)
            # rather than as Σ q_i‖∇f_i(x*)‖² ≤ 0, which has no interior point and leaves
            # interior-point solvers "optimal_inaccurate"
            x_star = Point()
            zero = Point(is_leaf=False, decomposition_dict={})
            for leaf in leaves:
                leaf.add_point((x_star, zero, Expression()))
        else:
            x_star = average.stationary_point()

    x = problem.set_initial_point()
    if setting.initial == "distance":
        named["initial"] = (x - x_star) ** 2 <= setting.initial_value
        problem.set_initial_condition(named["initial"])
    elif x_star is not None:
        named["initial"] = average(x) - average(x_star) <= setting.initial_value
        problem.set_initial_condition(named["initial"])
    if setting.heterogeneity == "optimum" and not setting.homogeneous:
        spread = _weighted_sum([client.gradient(x_star) ** 2 for client in clients], q)
        named["heterogeneity"] = spread <= setting.zeta2
        problem.add_constraint(named["heterogeneity"])

    queried: list[Any] = []  # points where some client's gradient is queried

    def direction(client: Any, y: Any, step: int) -> Any:
        gradient = client.gradient(y)
        queried.append(y)
        if (
            setting.error == "none"
            or (setting.error == "absolute" and setting.error_budget(step) == 0.0)
            or (setting.error == "relative" and setting.delta2 == 0.0)
        ):
            # a zero budget is an exact gradient: stated structurally, as ζ = 0 above (‖e‖² ≤ 0
            # has no interior point; the solvers then miss the value by ~1e-5)
            return gradient
        error = Point()
        if setting.error == "absolute":
            problem.add_constraint(error**2 <= setting.error_budget(step))
        else:
            problem.add_constraint(error**2 <= setting.delta2 * gradient**2)
        return gradient + error

    iterates = [x]
    for t in range(setting.T):
        if setting.local == "scaffold":
            controls = [client.gradient(x) for client in clients]
            queried.append(x)
            control = _weighted_sum(controls, q)
        local_models = []
        for i, client in enumerate(clients):
            y = x
            if setting.local == "prox":
                y, _, _ = proximal_step(x, client, 1.0 / setting.lam)
            for k in range(setting.K if setting.local != "prox" else 0):
                d = direction(client, y, t * setting.K + k)
                if setting.local == "gd":
                    y = y - setting.eta * d
                elif setting.local == "prox-gd":
                    y = y - setting.eta * (d + setting.lam * (y - x))
                else:  # scaffold
                    y = y - setting.eta * (d - controls[i] + control)
            local_models.append(y)
        update = _weighted_sum([y - x for y in local_models], q)
        x = x + setting.eta_g * update
        iterates.append(x)

    if setting.heterogeneity == "dissimilarity" and setting.m > 1:
        seen: set[int] = set()
        for point in [*([x_star] if x_star is not None else []), *queried, *iterates]:
            if id(point) in seen:
                continue
            seen.add(id(point))
            mean = average.gradient(point)
            spread = _weighted_sum([(c.gradient(point) - mean) ** 2 for c in clients], q)
            problem.add_constraint(spread <= setting.zeta2)

    if setting.functions == "nonconvex":
        # F(x_0) − F_* ≤ Δ0 through its consequences F(x_0) − F(x_t) ≤ Δ0 (F(x_t) ≥ F_*): a
        # relaxation, as in PEPit's non-convex examples
        named["initial"] = average(iterates[0]) - average(iterates[-1]) <= setting.initial_value
        problem.set_initial_condition(named["initial"])
        for point in iterates[1:-1]:
            problem.add_constraint(average(iterates[0]) - average(point) <= setting.initial_value)

    if setting.measure == "distance":
        metrics = [(x - x_star) ** 2]
    elif setting.measure == "function":
        metrics = [average(x) - average(x_star)]
    elif setting.measure == "function-min":
        metrics = [average(point) - average(x_star) for point in iterates]
    else:
        metrics = [average.gradient(point) ** 2 for point in iterates]
    for metric in metrics:
        problem.set_performance_metric(metric)
    return PepModel(problem, leaves, named, x_star, iterates)
