"""Algorithms as functions ``(instance, *, hyperparameters, seed) -> Run`` (DESIGN §3).

Loops run in private numba kernels (``_kernels.py``, compiled with :func:`fedtheory._jit.njit`);
the public functions validate inputs, own the randomness and raise
:class:`~fedtheory.errors.DivergenceError` on non-finite iterates.
"""

from __future__ import annotations

from fedtheory.algorithms.erm import (
    DichotomyChoice,
    fedavg_erm,
    fedprox_erm,
    local_training,
    oracle_dichotomy,
    validated_dichotomy,
)
from fedtheory.algorithms.federated import (
    FederatedRun,
    RoundTrace,
    fedavg,
    fedprox,
    fine_tune,
    local_sgd,
)
from fedtheory.algorithms.fedlrgd import (
    EpochLog,
    FedAveRun,
    FedLRGDRun,
    LatentRun,
    RunningTimeSample,
    erlang_max_mean,
    fedave,
    fedgd,
    fedlrgd,
    gradient_descent_exact,
    running_time_monte_carlo,
)
from fedtheory.algorithms.gradient_descent import (
    GDRun,
    SGDRun,
    gradient_descent,
    inexact_errors,
    sgd_projected,
)

__all__ = [
    "DichotomyChoice",
    "EpochLog",
    "FedAveRun",
    "FedLRGDRun",
    "FederatedRun",
    "GDRun",
    "LatentRun",
    "RoundTrace",
    "RunningTimeSample",
    "SGDRun",
    "erlang_max_mean",
    "fedave",
    "fedavg",
    "fedavg_erm",
    "fedgd",
    "fedlrgd",
    "fedprox",
    "fedprox_erm",
    "fine_tune",
    "gradient_descent",
    "gradient_descent_exact",
    "inexact_errors",
    "local_sgd",
    "local_training",
    "oracle_dichotomy",
    "running_time_monte_carlo",
    "sgd_projected",
    "validated_dichotomy",
]
