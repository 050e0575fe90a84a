"""Synthetic problems with known constants and optima (DESIGN §3).

Every generator returns a frozen dataclass whose constants (smoothness, strong convexity, noise
second moments) are computed from the data, and a test checks each against its definition.
"""

from __future__ import annotations

from fedtheory.problems.dataset import LOSSES, FederatedDataset, check_weights
from fedtheory.problems.latent import (
    LATENT_FAMILIES,
    LatentModel,
    approximate_rank,
    latent_kernel,
    latent_matrix,
    piecewise_taylor,
    tail_energy,
)
from fedtheory.problems.latent_erm import (
    LatentERM,
    LogisticLatentERM,
    QuadraticLatentERM,
    logistic_latent_erm,
    quadratic_latent_erm,
)
from fedtheory.problems.logistic import (
    MAX_ENUMERATION_DIM,
    MAX_POSTERIOR_DIM,
    AppendixDClients,
    AssouadClients,
    LogisticClients,
    LogisticProblem,
    RademacherProblem,
    appendix_d_clients,
    assouad_clients,
    bayes_estimate,
    logistic_clients,
)
from fedtheory.problems.mean_estimation import (
    LinearRegressionClients,
    OutlierClients,
    QuadraticClients,
    fine_tune_equivalent_lambda,
    gmq_crossing_radius2,
    gmq_expected_risk_fedavg,
    gmq_expected_risk_fedprox,
    gmq_expected_risk_plt,
    gmq_tuned_fedprox_lambda,
    gmq_tuned_fedprox_risk,
    linear_regression_clients,
    outlier_clients,
    quadratic_clients,
)
from fedtheory.problems.quadratic import (
    IsotropicQuadratic,
    QuadraticInstance,
    TwoEigenvalueQuadratic,
    haar_orthogonal,
    isotropic_quadratic,
    random_quadratic,
    two_eigenvalue_quadratic,
)

__all__ = [
    "LATENT_FAMILIES",
    "LOSSES",
    "MAX_ENUMERATION_DIM",
    "MAX_POSTERIOR_DIM",
    "AppendixDClients",
    "AssouadClients",
    "FederatedDataset",
    "IsotropicQuadratic",
    "LatentERM",
    "LatentModel",
    "LinearRegressionClients",
    "LogisticClients",
    "LogisticLatentERM",
    "LogisticProblem",
    "OutlierClients",
    "QuadraticClients",
    "QuadraticInstance",
    "QuadraticLatentERM",
    "RademacherProblem",
    "TwoEigenvalueQuadratic",
    "appendix_d_clients",
    "approximate_rank",
    "assouad_clients",
    "bayes_estimate",
    "check_weights",
    "fine_tune_equivalent_lambda",
    "gmq_crossing_radius2",
    "gmq_expected_risk_fedavg",
    "gmq_expected_risk_fedprox",
    "gmq_expected_risk_plt",
    "gmq_tuned_fedprox_lambda",
    "gmq_tuned_fedprox_risk",
    "haar_orthogonal",
    "isotropic_quadratic",
    "latent_kernel",
    "latent_matrix",
    "linear_regression_clients",
    "logistic_clients",
    "logistic_latent_erm",
    "outlier_clients",
    "piecewise_taylor",
    "quadratic_clients",
    "quadratic_latent_erm",
    "random_quadratic",
    "tail_energy",
    "two_eigenvalue_quadratic",
]
