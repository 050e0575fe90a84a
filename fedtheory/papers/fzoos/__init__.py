"""Numerics of the fzoos paper: Shu, Lin, Dai & Low, *Federated Zeroth-Order Optimization using
Trajectory-Informed Surrogate Gradients* (FZooS).

- problems on the core problem protocol with a zeroth-order kernel view (``_oracle``):
  the synthetic federated quadratics (98)–(99), pure linear heterogeneity and random quadratics,
  a non-convex F (:mod:`~fedtheory.papers.fzoos.problems`), GP-sample functions realised by random
  Fourier features (:mod:`~fedtheory.papers.fzoos.gp_samples`), federated logistic regression
  (:mod:`~fedtheory.papers.fzoos.logistic`) and the offline substitutes of the black-box attack
  and of non-differentiable metric optimisation (:mod:`~fedtheory.papers.fzoos.substitutes`,
  data in :mod:`~fedtheory.papers.fzoos.datasets`);
- the estimators: finite differences (3) (:mod:`~fedtheory.papers.fzoos.fd`), the SE-kernel GP
  surrogate gradient (4)–(5) with an incremental factorization
  (:mod:`~fedtheory.papers.fzoos.gp`) and random Fourier features with the √(2/M) scale
  (:mod:`~fedtheory.papers.fzoos.rff`);
- Algorithm 1 on the core round loop with the local direction (2) as its client step — FedZO,
  FedProx-ZO, SCAFFOLD I/II and FZooS (Algorithm 2) — (:mod:`~fedtheory.papers.fzoos.algorithms`,
  steps in :mod:`~fedtheory.papers.fzoos.steps`), whose result logs the gradient disparity Ξ of
  every (round, client, step) for the pathwise checks (:mod:`~fedtheory.papers.fzoos.runs`).
"""

from __future__ import annotations

from fedtheory.papers.fzoos import datasets, fd, gp, rff, substitutes
from fedtheory.papers.fzoos.algorithms import (
    Corollary1Gamma,
    CorollaryC1Gamma,
    corollary1_gamma,
    corollary_c1_gamma,
    fedprox_zo,
    fedzo,
    fzoos,
    scaffold_zo,
)
from fedtheory.papers.fzoos.fd import finite_difference_gradient
from fedtheory.papers.fzoos.gp import GaussianProcessSurrogate
from fedtheory.papers.fzoos.gp_samples import GPSampleFunctions
from fedtheory.papers.fzoos.logistic import FederatedLogistic, federated_logistic
from fedtheory.papers.fzoos.problems import (
    DenseQuadratics,
    NonconvexSines,
    SyntheticQuadratics,
    ZerothOrderProblem,
    linear_heterogeneity,
    random_quadratics,
)
from fedtheory.papers.fzoos.rff import RandomFourierFeatures
from fedtheory.papers.fzoos.runs import QueryHistory, TheoremLog, ZerothOrderLog, ZerothOrderRun
from fedtheory.papers.fzoos.substitutes import attack_substitute, metric_substitute

__all__ = [
    "Corollary1Gamma",
    "CorollaryC1Gamma",
    "DenseQuadratics",
    "FederatedLogistic",
    "GPSampleFunctions",
    "GaussianProcessSurrogate",
    "NonconvexSines",
    "QueryHistory",
    "RandomFourierFeatures",
    "SyntheticQuadratics",
    "TheoremLog",
    "ZerothOrderLog",
    "ZerothOrderProblem",
    "ZerothOrderRun",
    "attack_substitute",
    "corollary1_gamma",
    "corollary_c1_gamma",
    "datasets",
    "fd",
    "federated_logistic",
    "fedprox_zo",
    "fedzo",
    "finite_difference_gradient",
    "fzoos",
    "gp",
    "linear_heterogeneity",
    "metric_substitute",
    "random_quadratics",
    "rff",
    "scaffold_zo",
    "substitutes",
]
