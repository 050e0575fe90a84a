"""Solve a PEPit problem with a free cvxpy solver and package the result (issue 16).

Private: :func:`solve_pep` is the one place that calls PEPit's ``solve``, checks cvxpy's status
and turns anything other than ``"optimal"`` into :class:`~fedtheory.errors.SolverError`.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError, SolverError
from fedtheory.worstcase._result import ClientPoints, PrimalInstance, WorstCase

__all__ = ["SOLVERS", "check_solver", "solve_pep"]

#: Free SDP solvers reachable through cvxpy, and the other one to suggest when one fails.
SOLVERS: dict[str, str] = {"CLARABEL": "SCS", "SCS": "CLARABEL"}

#: Solver options: SCS's defaults (eps 1e-4) are far from the 1e-6 the checks need; Clarabel's
#: defaults (1e-8) end at "optimal_inaccurate" on most of these degenerate (low-rank) SDPs, while
#: 1e-7 still gives 1e-6 relative accuracy on the known closed forms (tests/test_worstcase.py).
#: Clarabel's static regularisation 1e-7 (default 1e-8) for every class: with 1e-8 FedAvg at
#: m = 3, K = 4, T = 3 ended "optimal_inaccurate" after 12 s, with 1e-7 it is optimal in 6 s
#: (1.2539434, as SCS); see also _QUADRATIC_CLARABEL.
_SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "CLARABEL": {
        "tol_gap_abs": 1e-7,
        "tol_gap_rel": 1e-7,
        "tol_feas": 1e-7,
        "static_regularization_constant": 1e-7,
    },
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
}

#: Extra Clarabel option for the quadratic class: PEPit's quadratic interpolation conditions
#: (Bousselmi, Hendrickx & Glineur 2023) hold trivial rows (0 = 0 at a function's own stationary
#: point, whose gradient is the zero vector) on which Clarabel's KKT factorisation fails at the
#: first iteration ("NumericalError") with its default static regularisation 1e-8; 1e-7 solves
#: them (values within 2e-6 relative of SCS's; tests/test_worstcase_counterexample.py).
_QUADRATIC_CLARABEL = {"static_regularization_constant": 1e-7}


def _options(solver: str, leaf_functions: Sequence[Any]) -> dict[str, Any]:
    from PEPit.functions import SmoothStronglyConvexQuadraticFunction

    options = dict(_SOLVER_OPTIONS[solver])
    if solver == "CLARABEL" and any(
        isinstance(f, SmoothStronglyConvexQuadraticFunction) for f in leaf_functions
    ):
        options.update(_QUADRATIC_CLARABEL)
    return options


def _vector(point: Any, size: int) -> np.ndarray:
    return np.asarray(point.eval(), dtype=np.float64).reshape(size)


def _extract(
    problem: Any, leaf_functions: Sequence[Any], x_star: Any, iterates: Sequence[Any]
) -> PrimalInstance:
    """The coordinates of every point of the solved PEP (PEPit's ``eval`` after the solve)."""
    size = int(np.asarray(problem.G_value).shape[0])
    clients = []
    for function in leaf_functions:
        triples = function.list_of_points
        stationary = {id(t[0]) for t in function.list_of_stationary_points}
        clients.append(
            ClientPoints(
                points=np.array([_vector(x, size) for x, _, _ in triples]).reshape(-1, size),
                gradients=np.array([_vector(g, size) for _, g, _ in triples]).reshape(-1, size),
                values=np.array([float(f.eval()) for _, _, f in triples]),
                stationary=np.array([id(x) in stationary for x, _, _ in triples], dtype=bool),
            )
        )
    return PrimalInstance(
        clients=tuple(clients),
        x0=_vector(iterates[0] if iterates else problem.list_of_points[0], size),
        x_star=None if x_star is None else _vector(x_star, size),
        iterates=np.array([_vector(x, size) for x in iterates]).reshape(-1, size),
    )


def check_solver(solver: Any) -> str:
    """Return ``solver`` upper-cased after checking it is a free solver we support."""
    if not isinstance(solver, str) or solver.upper() not in SOLVERS:
        raise ParameterError(
            parameter="solver", value=solver, rule=f"must be one of {sorted(SOLVERS)}"
        )
    return solver.upper()


def solve_pep(
    problem: Any,
    *,
    leaf_functions: Sequence[Any],
    named: Mapping[str, Any],
    solver: str,
    method: str,
    measure: str,
    parameters: dict[str, Any],
    x_star: Any = None,
    iterates: Sequence[Any] = (),
) -> WorstCase:
    """Solve a prepared ``PEPit.PEP`` and return its :class:`WorstCase`.

    Parameters
    ----------
    problem
        A ``PEPit.PEP`` with its initial condition(s), constraints and performance metric(s) set.
    leaf_functions
        The functions declared on it (to count the interpolation constraints).
    named
        Constraints (``PEPit.Constraint``) whose dual multiplier the certificate reports, by name.
    solver
        ``"CLARABEL"`` or ``"SCS"`` (checked by :func:`check_solver`).
    method, measure, parameters
        Recorded in the result.
    x_star, iterates
        The PEP's x* and server models x_0, …, x_T (``PepModel.x_star``, ``PepModel.iterates``):
        their coordinates are kept in the result's :class:`PrimalInstance` (without them it has
        the functions' triples and x_0, the PEP's first point, only).

    Raises
    ------
    SolverError
        When cvxpy reports a status other than ``"optimal"`` or the solver raises; the message
        names the solver, the status and the PEP's size, and suggests the other free solver.
    """
    import cvxpy as cp
    from PEPit.point import Point

    start = time.perf_counter()
    status = "not solved"
    try:
        with warnings.catch_warnings():
            # cvxpy warns "Solution may be inaccurate"; the status check below raises instead.
            warnings.simplefilter("ignore", UserWarning)
            value = problem.solve(
                wrapper="cvxpy", solver=solver, verbose=0, **_options(solver, leaf_functions)
            )
        status = str(problem.wrapper.prob.status)
    except cp.error.SolverError as exc:
        status = f"solver error ({exc})"
        value = None
    seconds = time.perf_counter() - start
    gram_size = int(Point.counter)
    n_constraints = len(problem.list_of_constraints) + len(problem.list_of_performance_metrics)
    n_constraints += sum(len(f.list_of_class_constraints) for f in leaf_functions)
    if status != cp.OPTIMAL or value is None:
        raise SolverError(
            solver,
            status,
            hint=(
                f"PEP of {method} with a {gram_size}x{gram_size} Gram matrix and {n_constraints}"
                f" scalar constraints; try solver={SOLVERS[solver]!r}"
            ),
        )
    dual = {name: float(constraint.eval_dual()) for name, constraint in named.items()}
    dual["class_constraints_active"] = float(
        sum(
            1
            for f in leaf_functions
            for c in f.list_of_class_constraints
            if abs(float(c.eval_dual())) > 1e-7
        )
    )
    return WorstCase(
        value=float(value),
        primal_value=float(problem.wrapper.prob.value),
        solver=solver,
        status=status,
        method=method,
        measure=measure,
        parameters=dict(parameters),
        dual=dual,
        gram=np.asarray(problem.G_value, dtype=np.float64),
        function_values=np.asarray(problem.F_value, dtype=np.float64).reshape(-1),
        gram_size=gram_size,
        n_constraints=n_constraints,
        residual=(float(np.max(np.abs(problem.residual))) if problem.residual is not None else 0.0),
        solve_seconds=seconds,
        instance=_extract(problem, leaf_functions, x_star, list(iterates)),
    )
