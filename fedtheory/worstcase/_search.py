"""The worst-case-optimal step size of a method: a 1-D search, each point a PEP (issue 16).

:func:`optimal_step` minimises the exact worst case over the local step η. The worst case of a
first-order method is not guaranteed to be unimodal in η, so the search first evaluates a
coarse grid over the whole interval and then refines around its best point with a bounded
Brent search (scipy); both the grid and the refinement are reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError, SolverError
from fedtheory.worstcase._methods import setting_of, solve_setting
from fedtheory.worstcase._result import WorstCase

__all__ = ["StepSearch", "optimal_step"]


@dataclass(frozen=True)
class StepSearch:
    """The result of :func:`optimal_step`.

    Attributes
    ----------
    eta : float
        The step with the least worst case found.
    worst_case : WorstCase
        The PEP at that step.
    grid : tuple of (float, float)
        The coarse grid ``(η, worst case)`` the refinement started from.
    evaluations : int
        PEPs solved in all.
    failed : tuple of float
        Steps whose PEP no free solver solved to optimal (left out of the search, never
        reported as values).
    xatol : float
        Absolute accuracy of ``eta`` (the refinement's tolerance).
    """

    eta: float
    worst_case: WorstCase
    grid: tuple[tuple[float, float], ...]
    evaluations: int
    xatol: float
    failed: tuple[float, ...] = ()


def optimal_step(
    method: str,
    *,
    low: float,
    high: float,
    measure: str = "distance",
    solver: str = "auto",
    grid: int = 9,
    xatol: float = 1e-3,
    **parameters: Any,
) -> StepSearch:
    """The local step η in ``[low, high]`` with the least exact worst case of ``method``.

    Parameters
    ----------
    method, measure, solver, **parameters
        As in :func:`~fedtheory.worstcase.worst_case` (without ``eta``).
    low, high
        The interval searched, ``0 < low < high``.
    grid
        Points of the coarse grid (≥ 3), evenly spaced including both ends.
    xatol
        Absolute tolerance of the refinement on η (> 0).

    Returns
    -------
    StepSearch

    Raises
    ------
    ParameterError
        ``eta`` among the parameters, a bad interval, grid or tolerance, or any parameter the
        method refuses (checked before any PEP is solved).
    SolverError
        When no point of the coarse grid could be solved. Single failed steps are left out of
        the search and listed in :attr:`StepSearch.failed`.
    """
    from scipy.optimize import minimize_scalar

    if "eta" in parameters:
        raise ParameterError(parameter="eta", value=parameters["eta"], rule="is what is searched")
    low = check_real("low", low, positive=True)
    high = check_real("high", high, positive=True)
    if high <= low:
        raise ParameterError(parameter="high", value=high, rule=f"must exceed low={low:.6g}")
    grid = check_int("grid", grid, minimum=3)
    xatol = check_real("xatol", xatol, positive=True)
    setting_of(method, measure=measure, eta=low, **parameters)  # bad input fails before solving

    solved: dict[float, WorstCase] = {}
    failed: list[float] = []

    def value(eta: float) -> float:
        if eta in failed:
            return math.inf
        if eta not in solved:
            setting = setting_of(method, measure=measure, eta=eta, **parameters)
            try:
                solved[eta] = solve_setting(setting, solver=solver)
            except SolverError:
                failed.append(eta)
                return math.inf
        return solved[eta].value

    etas = np.linspace(low, high, grid)
    values = [value(float(eta)) for eta in etas]
    if not solved:
        raise SolverError(
            "CLARABEL and SCS" if solver == "auto" else solver,
            "not optimal",
            hint=f"no PEP of the {grid}-point grid on [{low:.6g}, {high:.6g}] was solved",
        )
    best = int(np.argmin(values))
    bracket = (float(etas[max(best - 1, 0)]), float(etas[min(best + 1, grid - 1)]))
    refined = minimize_scalar(value, bounds=bracket, method="bounded", options={"xatol": xatol})
    eta_star = min(solved, key=lambda eta: solved[eta].value)
    del refined  # every evaluation is in ``solved``; the least one wins (grid or refinement)
    return StepSearch(
        eta=float(eta_star),
        worst_case=solved[eta_star],
        grid=tuple(
            (float(e), float(v)) for e, v in zip(etas, values, strict=True) if math.isfinite(v)
        ),
        evaluations=len(solved) + len(failed),
        xatol=xatol,
        failed=tuple(failed),
    )
