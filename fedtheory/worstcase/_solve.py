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
from fedtheory.worstcase._result import WorstCase

__all__ = ["SOLVERS", "check_solver", "solve_pep"]

#: Free SDP solvers reachable through cvxpy, and the other one to suggest when one fails.
SOLVERS: dict[str, str] = {"CLARABEL": "SCS", "SCS": "CLARABEL"}

#: Solver options: SCS's defaults (eps 1e-4) are far from the 1e-6 the checks need; Clarabel's
#: defaults (1e-8) end at "optimal_inaccurate" on most of these degenerate (low-rank) SDPs, while
#: 1e-7 still gives 1e-6 relative accuracy on the known closed forms (tests/test_worstcase.py).
_SOLVER_OPTIONS: dict[str, dict[str, Any]] = {
    "CLARABEL": {"tol_gap_abs": 1e-7, "tol_gap_rel": 1e-7, "tol_feas": 1e-7},
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000},
}


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
                wrapper="cvxpy", solver=solver, verbose=0, **_SOLVER_OPTIONS[solver]
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
    )
