"""Worst-case FedAvg (and centralized GD) as performance-estimation problems (issue 16).

FedAvg with ``m`` clients, ``K`` local gradient steps and server averaging, on clients
``f_1, ..., f_m`` that are L-smooth and μ-strongly convex (μ = 0: smooth convex), with
``x*`` the minimiser of ``F = (1/m) Σ f_i``, heterogeneity at the optimum
``(1/m) Σ ‖∇f_i(x*)‖² ≤ ζ²`` and initial distance ``‖x_0 − x*‖² ≤ R²``. The worst case over that
class is an SDP (Drori & Teboulle 2014; Taylor, Hendrickx & Glineur 2017, "Smooth strongly
convex interpolation and exact worst-case performance of first-order methods"), written with
PEPit (Goujaud et al. 2024) and solved by a free cvxpy solver.
"""

from __future__ import annotations

from typing import Any

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError
from fedtheory.worstcase._result import WorstCase
from fedtheory.worstcase._solve import check_solver, solve_pep

__all__ = ["MEASURES", "fedavg_worst_case", "gd_worst_case"]

#: Performance measures: ‖x_T − x*‖², F(x_T) − F*, min_{0≤t≤T} ‖∇F(x_t)‖².
MEASURES = ("distance", "function", "gradient")


def _check_class(L: Any, mu: Any, eta: Any, R2: Any) -> tuple[float, float, float, float]:
    L = check_real("L", L, positive=True)
    mu = check_real("mu", mu, nonnegative=True)
    if mu > L:
        raise ParameterError(parameter="mu", value=mu, rule=f"must not exceed L={L:.6g}")
    eta = check_real("eta", eta, positive=True)
    R2 = check_real("R2", R2, positive=True)
    return L, mu, eta, R2


def _check_measure(measure: Any) -> str:
    if measure not in MEASURES:
        raise ParameterError(parameter="measure", value=measure, rule=f"must be one of {MEASURES}")
    return str(measure)


def fedavg_worst_case(
    m: int,
    K: int,
    T: int,
    L: float,
    mu: float,
    eta: float,
    zeta2: float,
    R2: float = 1.0,
    *,
    measure: str = "distance",
    solver: str = "SCS",
) -> WorstCase:
    r"""Exact worst case of FedAvg with ``K`` local GD steps over heterogeneous smooth clients.

    The method, for rounds :math:`t = 0, \dots, T-1`: every client starts from the server model,
    :math:`y_{i,0} = x_t`, takes ``K`` gradient steps :math:`y_{i,k+1} = y_{i,k} - \eta
    \nabla f_i(y_{i,k})`, and the server averages, :math:`x_{t+1} = \frac1m \sum_i y_{i,K}`.
    The worst case is the maximum of the measure over every ``m``-tuple of clients with

    - each :math:`f_i` L-smooth and μ-strongly convex (μ = 0: smooth convex);
    - :math:`x^\star` a minimiser of :math:`F = \frac1m\sum_i f_i`;
    - :math:`\frac1m \sum_i \|\nabla f_i(x^\star)\|^2 \le \zeta^2` (heterogeneity at the
      optimum, issue 16);
    - :math:`\|x_0 - x^\star\|^2 \le R^2`;

    in any dimension. The PEP is exact: its value is attained (up to the solver's accuracy) by
    some instance, described by the primal Gram matrix. Known reductions (checked in
    ``tests/test_worstcase.py``): ``K = 1`` is GD on ``F``; ``ζ = 0`` with ``m = 1`` is GD with
    ``K·T`` steps, whose distance worst case is
    :math:`\max(|1-\eta L|, |1-\eta\mu|)^{2KT} R^2` (Taylor, Hendrickx & Glineur 2017).

    Parameters
    ----------
    m, K, T
        Clients, local steps per round, rounds (each at least 1).
    L, mu
        Smoothness and strong convexity of every client, ``0 ≤ mu ≤ L``, ``L > 0``.
    eta
        Local step size (positive; any value is accepted: large steps give large worst cases).
    zeta2
        Heterogeneity budget ζ² ≥ 0 (ignored when ``m = 1``: then ∇f_1(x*) = 0).
    R2
        Initial squared distance R² > 0.
    measure
        ``"distance"``: ‖x_T − x*‖²; ``"function"``: F(x_T) − F(x*); ``"gradient"``:
        min over t = 0..T of ‖∇F(x_t)‖².
    solver
        ``"SCS"`` (first order, run to eps 1e-9; default) or ``"CLARABEL"`` (interior point:
        faster, but it often stops at ``"optimal_inaccurate"`` on these degenerate SDPs, which
        raises :class:`~fedtheory.errors.SolverError`).

    Returns
    -------
    WorstCase
        Value, solver and status, dual certificate (multipliers of ``"initial"``,
        ``"heterogeneity"`` and ``"metric_<t>"``), primal Gram matrix and function values.

    Raises
    ------
    ParameterError
        For a count below 1, ``L ≤ 0``, ``mu`` negative or above ``L``, ``eta`` or ``R2`` not
        positive, a negative ``zeta2``, an unknown measure or solver.
    SolverError
        When the SDP solver does not report ``"optimal"`` (names solver, status and PEP size).
    """
    m = check_int("m", m, minimum=1)
    K = check_int("K", K, minimum=1)
    T = check_int("T", T, minimum=1)
    L, mu, eta, R2 = _check_class(L, mu, eta, R2)
    zeta2 = check_real("zeta2", zeta2, nonnegative=True)
    measure = _check_measure(measure)
    solver = check_solver(solver)
    parameters = {"m": m, "K": K, "T": T, "L": L, "mu": mu, "eta": eta, "zeta2": zeta2, "R2": R2}
    return _solve_fedavg(parameters, measure=measure, solver=solver, method="fedavg")


def gd_worst_case(
    T: int,
    L: float,
    mu: float,
    eta: float,
    R2: float = 1.0,
    *,
    measure: str = "distance",
    solver: str = "SCS",
) -> WorstCase:
    r"""Exact worst case of ``T`` steps of gradient descent on one L-smooth μ-strongly convex f.

    :math:`x_{t+1} = x_t - \eta \nabla f(x_t)`, :math:`\|x_0 - x^\star\|^2 \le R^2`. This is
    FedAvg with one client and one local step; kept as its own entry for the classic results:
    the distance worst case :math:`\max(|1-\eta L|, |1-\eta\mu|)^{2T} R^2` and, for μ = 0 and
    η = 1/L, the function-value worst case :math:`L R^2 / (4T + 2)` (Drori & Teboulle 2014;
    Taylor, Hendrickx & Glineur 2017, Theorem 3). Parameters as in :func:`fedavg_worst_case`.
    """
    T = check_int("T", T, minimum=1)
    L, mu, eta, R2 = _check_class(L, mu, eta, R2)
    measure = _check_measure(measure)
    solver = check_solver(solver)
    parameters = {"m": 1, "K": 1, "T": T, "L": L, "mu": mu, "eta": eta, "zeta2": 0.0, "R2": R2}
    return _solve_fedavg(parameters, measure=measure, solver=solver, method="gd")


def _solve_fedavg(
    parameters: dict[str, Any], *, measure: str, solver: str, method: str
) -> WorstCase:
    """Build the FedAvg PEP for checked ``parameters`` and solve it."""
    from PEPit import PEP, Expression, Point
    from PEPit.functions import SmoothConvexFunction, SmoothStronglyConvexFunction

    m, K, T = parameters["m"], parameters["K"], parameters["T"]
    L, mu, eta = parameters["L"], parameters["mu"], parameters["eta"]
    problem = PEP()
    if mu > 0:
        clients = [
            problem.declare_function(SmoothStronglyConvexFunction, mu=mu, L=L) for _ in range(m)
        ]
    else:
        clients = [problem.declare_function(SmoothConvexFunction, L=L) for _ in range(m)]
    average = clients[0]
    for client in clients[1:]:
        average = average + client
    if m > 1:
        average = average / m
    homogeneous = m == 1 or parameters["zeta2"] == 0.0
    if homogeneous:
        # ζ = 0 forces ∇f_i(x*) = 0 for every client: state it structurally (x* is a stationary
        # point of each client) rather than as Σ‖∇f_i(x*)‖² ≤ 0, which has no interior point and
        # leaves interior-point solvers "optimal_inaccurate".
        x_star = Point()
        for client in clients:
            client.add_point((x_star, Point(is_leaf=False, decomposition_dict={}), Expression()))
    else:
        x_star = average.stationary_point()
    named: dict[str, Any] = {}

    x = problem.set_initial_point()
    named["initial"] = (x - x_star) ** 2 <= parameters["R2"]
    problem.set_initial_condition(named["initial"])
    if not homogeneous:
        spread = clients[0].gradient(x_star) ** 2
        for client in clients[1:]:
            spread = spread + client.gradient(x_star) ** 2
        named["heterogeneity"] = spread / m <= parameters["zeta2"]
        problem.add_constraint(named["heterogeneity"])

    iterates = [x]
    for _ in range(T):
        local = []
        for client in clients:
            y = x
            for _ in range(K):
                y = y - eta * client.gradient(y)
            local.append(y)
        x = local[0]
        for y in local[1:]:
            x = x + y
        x = x / m if m > 1 else x
        iterates.append(x)

    if measure == "distance":
        metrics = [(x - x_star) ** 2]
    elif measure == "function":
        metrics = [average(x) - average(x_star)]
    else:
        metrics = [average.gradient(point) ** 2 for point in iterates]
    for metric in metrics:
        problem.set_performance_metric(metric)
    return solve_pep(
        problem,
        leaf_functions=clients,
        named=named,
        solver=solver,
        method=method,
        measure=measure,
        parameters=parameters,
    )
