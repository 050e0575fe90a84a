"""Algorithms as functions ``(instance, *, hyperparameters, seed) -> Run`` (DESIGN §3).

Loops run in private numba kernels (compiled with :func:`fedtheory._jit.njit`); the public
functions validate inputs, own the randomness and raise
:class:`~fedtheory.errors.DivergenceError` on non-finite iterates. The algorithms of one paper
live with that paper (:mod:`fedtheory.papers`).
"""

from __future__ import annotations

from fedtheory.algorithms.federated import (
    FederatedRun,
    fedavg,
    fedprox,
    fine_tune,
    local_sgd,
)
from fedtheory.algorithms.gradient_descent import (
    GDRun,
    SGDRun,
    gradient_descent,
    inexact_errors,
    sgd_projected,
)
from fedtheory.algorithms.trace import Trace, TraceRecorder

__all__ = [
    "FederatedRun",
    "GDRun",
    "SGDRun",
    "Trace",
    "TraceRecorder",
    "fedavg",
    "fedprox",
    "fine_tune",
    "gradient_descent",
    "inexact_errors",
    "local_sgd",
    "sgd_projected",
]
