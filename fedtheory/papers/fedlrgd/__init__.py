"""Numerics of the fedlrgd paper: Jadbabaie, Makur & Shah, *Federated optimization of smooth loss
functions* (arXiv:2201.01954v2).

- latent variable models and their matrices (:func:`latent_matrix`, Lemma 1's
  :func:`piecewise_taylor`, :func:`tail_energy`, :func:`rank_at_tolerance`);
- the federated ERMs of (1)/(3) (:func:`logistic_latent_erm`, :func:`quadratic_latent_erm`);
- FedLRGD (Algorithm 1), FedAve as analysed in Theorem 3, federated GD and the running-time model
  of §II-D behind Definition 1;
- App. C's substitute: small networks on the 8×8 digits and the approximate rank (77) of their
  gradient slices (:func:`energy_rank`).

Its bounds are ``fedlrgd.*`` in :mod:`fedtheory.bounds`.
"""

from __future__ import annotations

from fedtheory.papers.fedlrgd._runs import LatentRun
from fedtheory.papers.fedlrgd.algorithm import FedLRGDRun, fedlrgd
from fedtheory.papers.fedlrgd.app_c import (
    APP_C_ENERGY,
    APP_C_THRESHOLD,
    GradientSlices,
    SliceRankStudy,
    app_c_perturbations,
    energy_rank,
    energy_ranks,
    gaussian_null_ranks,
    gradient_slices,
    nontrivial_coordinates,
    sample_coordinates,
    slice_rank_study,
)
from fedtheory.papers.fedlrgd.baselines import (
    FedAveRun,
    fedave,
    fedave_burn_in,
    fedgd,
    gradient_descent_exact,
)
from fedtheory.papers.fedlrgd.digits import DigitsSplit, digits_split
from fedtheory.papers.fedlrgd.epochs import EpochLog
from fedtheory.papers.fedlrgd.erm import (
    LatentERM,
    LogisticLatentERM,
    QuadraticLatentERM,
    logistic_latent_erm,
    quadratic_latent_erm,
)
from fedtheory.papers.fedlrgd.latent import (
    LatentModel,
    latent_matrix,
)
from fedtheory.papers.fedlrgd.latent_kernels import (
    LATENT_FAMILIES,
    MATERN_NU,
    HolderStatus,
    LatentKernel,
    latent_kernel,
)
from fedtheory.papers.fedlrgd.latent_ranks import (
    holder_constant_estimate,
    rank_at_tolerance,
    tail_energy,
)
from fedtheory.papers.fedlrgd.networks import (
    ACTIVATIONS,
    FiniteDifferenceCheck,
    Network,
    TrainingRun,
    finite_difference_check,
    one_hot,
    train_sgd,
)
from fedtheory.papers.fedlrgd.running_time import (
    RunningTimeSample,
    erlang_max_mean,
    running_time_monte_carlo,
)
from fedtheory.papers.fedlrgd.taylor import PiecewiseTaylor, piecewise_taylor

__all__ = [
    "ACTIVATIONS",
    "APP_C_ENERGY",
    "APP_C_THRESHOLD",
    "LATENT_FAMILIES",
    "MATERN_NU",
    "DigitsSplit",
    "EpochLog",
    "FedAveRun",
    "FedLRGDRun",
    "FiniteDifferenceCheck",
    "GradientSlices",
    "HolderStatus",
    "LatentERM",
    "LatentKernel",
    "LatentModel",
    "LatentRun",
    "LogisticLatentERM",
    "Network",
    "PiecewiseTaylor",
    "QuadraticLatentERM",
    "RunningTimeSample",
    "SliceRankStudy",
    "TrainingRun",
    "app_c_perturbations",
    "digits_split",
    "energy_rank",
    "energy_ranks",
    "erlang_max_mean",
    "fedave",
    "fedave_burn_in",
    "fedgd",
    "fedlrgd",
    "finite_difference_check",
    "gaussian_null_ranks",
    "gradient_descent_exact",
    "gradient_slices",
    "holder_constant_estimate",
    "latent_kernel",
    "latent_matrix",
    "logistic_latent_erm",
    "nontrivial_coordinates",
    "one_hot",
    "piecewise_taylor",
    "quadratic_latent_erm",
    "rank_at_tolerance",
    "running_time_monte_carlo",
    "sample_coordinates",
    "slice_rank_study",
    "tail_energy",
    "train_sgd",
]
