"""Worst-case certification by performance estimation (PEP) of federated methods (issue 16).

A PEP computes the exact worst case of a method over a whole function class as a semidefinite
program (Drori & Teboulle 2014; Taylor, Hendrickx & Glineur 2017), here written with PEPit and
solved by a free cvxpy solver (Clarabel or SCS). Paper-free core: it imports only
:mod:`fedtheory.errors` and :mod:`fedtheory._checks`.

- :func:`worst_case`: any method of :data:`METHODS` (GD, FedAvg / local GD with a server step,
  FedProx with gradient or exact local steps, SCAFFOLD), optionally with an absolute or relative
  gradient-error budget, over L-smooth μ-strongly convex, quadratic or non-convex clients, with
  heterogeneity at the optimum, bounded dissimilarity or identical clients, and the measures
  :data:`MEASURES`;
- :func:`fedavg_worst_case`, :func:`gd_worst_case`: the two most used, parameters spelled out;
- :func:`optimal_step`: the worst-case-optimal local step (a 1-D search, each point a PEP);
- :class:`WorstCase`: the value, the solver and its status, the dual certificate, the primal
  worst-case Gram data and the primal instance (:class:`PrimalInstance`: the coordinates of every
  point, gradient and function value, :class:`ClientPoints` per client);
- :func:`quadratic_counterexample`: whether quadratics attain a worst case, and explicit
  quadratic clients on which the toolkit's own round loop reproduces the PEP value
  (:class:`Counterexample`). It runs numba code, so it is imported on first access: importing
  this package loads neither numba nor the algorithms.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from fedtheory.worstcase._methods import (
    METHODS,
    PARAMETERS,
    Method,
    fedavg_worst_case,
    gd_worst_case,
    with_solver_fallback,
    worst_case,
)
from fedtheory.worstcase._result import ClientPoints, PrimalInstance, WorstCase
from fedtheory.worstcase._search import StepSearch, optimal_step
from fedtheory.worstcase._setting import FUNCTION_CLASSES, HETEROGENEITY, MEASURES
from fedtheory.worstcase._solve import SOLVERS

if TYPE_CHECKING:
    from fedtheory.worstcase._counterexample import Counterexample, quadratic_counterexample

__all__ = [
    "FUNCTION_CLASSES",
    "HETEROGENEITY",
    "MEASURES",
    "METHODS",
    "PARAMETERS",
    "SOLVERS",
    "ClientPoints",
    "Counterexample",
    "Method",
    "PrimalInstance",
    "StepSearch",
    "WorstCase",
    "fedavg_worst_case",
    "gd_worst_case",
    "optimal_step",
    "quadratic_counterexample",
    "with_solver_fallback",
    "worst_case",
]

_LAZY = {"Counterexample", "quadratic_counterexample"}


def __getattr__(name: str) -> Any:
    """The counterexample names, imported on first access (they load the numba round loop)."""
    if name in _LAZY:
        return getattr(importlib.import_module("fedtheory.worstcase._counterexample"), name)
    raise AttributeError(f"module 'fedtheory.worstcase' has no attribute {name!r}")
