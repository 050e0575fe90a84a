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
- :class:`WorstCase`: the value, the solver and its status, the dual certificate and the primal
  worst-case Gram data.
"""

from __future__ import annotations

from fedtheory.worstcase._methods import (
    METHODS,
    PARAMETERS,
    Method,
    fedavg_worst_case,
    gd_worst_case,
    worst_case,
)
from fedtheory.worstcase._result import WorstCase
from fedtheory.worstcase._search import StepSearch, optimal_step
from fedtheory.worstcase._setting import FUNCTION_CLASSES, HETEROGENEITY, MEASURES
from fedtheory.worstcase._solve import SOLVERS

__all__ = [
    "FUNCTION_CLASSES",
    "HETEROGENEITY",
    "MEASURES",
    "METHODS",
    "PARAMETERS",
    "SOLVERS",
    "Method",
    "StepSearch",
    "WorstCase",
    "fedavg_worst_case",
    "gd_worst_case",
    "optimal_step",
    "worst_case",
]
