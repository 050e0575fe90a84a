"""Paper-free federated problems with known constants and optima (DESIGN §3).

Every generator returns a frozen dataclass whose constants (smoothness, strong convexity, noise
second moments) are computed from the data, and a test checks each against its definition.
Every problem answers one protocol (:class:`FederatedProblem`: constants, optima, per-client
value and gradient oracles). The generative models of one paper live with that paper
(:mod:`fedtheory.papers`).
"""

from __future__ import annotations

from fedtheory.problems.dataset import LOSSES, FederatedDataset
from fedtheory.problems.federated_quadratic import FederatedQuadratic, federated_quadratic
from fedtheory.problems.protocol import FederatedProblem, SingleClientProblem, check_problem
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
    "LOSSES",
    "FederatedDataset",
    "FederatedProblem",
    "FederatedQuadratic",
    "IsotropicQuadratic",
    "QuadraticInstance",
    "SingleClientProblem",
    "TwoEigenvalueQuadratic",
    "check_problem",
    "federated_quadratic",
    "haar_orthogonal",
    "isotropic_quadratic",
    "random_quadratic",
    "two_eigenvalue_quadratic",
]
