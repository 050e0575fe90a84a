"""Worst-case certification by performance estimation (PEP) of federated methods (issue 16).

A PEP computes the exact worst case of a method over a whole function class as a semidefinite
program (Drori & Teboulle 2014; Taylor, Hendrickx & Glineur 2017), here written with PEPit and
solved by a free cvxpy solver (Clarabel or SCS). Paper-free core: it imports only
:mod:`fedtheory.errors` and :mod:`fedtheory._checks`.

- :func:`fedavg_worst_case`: FedAvg with ``m`` clients, ``K`` local GD steps, server averaging,
  heterogeneity at the optimum ``(1/m) Σ ‖∇f_i(x*)‖² ≤ ζ²``;
- :func:`gd_worst_case`: centralized gradient descent (the classic results);
- :class:`WorstCase`: the value, the solver and its status, the dual certificate and the primal
  worst-case Gram data.
"""

from __future__ import annotations

from fedtheory.worstcase._fedavg import MEASURES, fedavg_worst_case, gd_worst_case
from fedtheory.worstcase._result import WorstCase
from fedtheory.worstcase._solve import SOLVERS

__all__ = ["MEASURES", "SOLVERS", "WorstCase", "fedavg_worst_case", "gd_worst_case"]
