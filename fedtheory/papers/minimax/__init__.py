"""Numerics of the minimax paper: Chen, Zheng, Long & Su, *Minimax estimation for personalized
federated learning: an alternative between FedAvg and local training?* (arXiv:2103.01901).

- the generative models of the reading guide: GM-Q (:func:`quadratic_clients`, with
  :func:`outlier_clients`), heterogeneous linear regression (:func:`linear_regression_clients`),
  GM-L (:func:`logistic_clients`), GM-P (:func:`assouad_clients`, :func:`bayes_estimate`) and
  App. D's Gaussian model GM-A (:func:`appendix_d_clients`), each with exact population risks;
- the closed forms on GM-Q that are not registered bounds (``gmq_*``);
- the estimators the theorems analyse (:func:`local_training`, :func:`fedavg_erm`,
  :func:`fedprox_erm`) and the dichotomous strategy of §3.3.

The paper's Algorithms 1 and 2 are the core's :func:`fedtheory.algorithms.fedavg` and
:func:`fedtheory.algorithms.fedprox`; its bounds are ``minimax.*`` in :mod:`fedtheory.bounds`.
"""

from __future__ import annotations

from fedtheory.papers.minimax.appendix_d import AppendixDClients, appendix_d_clients
from fedtheory.papers.minimax.clients import (
    LinearRegressionClients,
    OutlierClients,
    QuadraticClients,
    linear_regression_clients,
    outlier_clients,
    quadratic_clients,
)
from fedtheory.papers.minimax.estimators import (
    DichotomyChoice,
    fedavg_erm,
    fedprox_erm,
    local_training,
    oracle_dichotomy,
    validated_dichotomy,
)
from fedtheory.papers.minimax.gmq_risks import (
    fine_tune_equivalent_lambda,
    gmq_crossing_radius2,
    gmq_expected_risk_fedavg,
    gmq_expected_risk_fedprox,
    gmq_expected_risk_plt,
    gmq_minimax_envelope,
    gmq_tuned_fedprox_lambda,
    gmq_tuned_fedprox_risk,
)
from fedtheory.papers.minimax.logistic_models import (
    MAX_ENUMERATION_DIM,
    MAX_POSTERIOR_DIM,
    LogisticProblem,
)
from fedtheory.papers.minimax.rademacher_models import (
    AssouadClients,
    LogisticClients,
    RademacherProblem,
    assouad_clients,
    bayes_estimate,
    logistic_clients,
)

__all__ = [
    "MAX_ENUMERATION_DIM",
    "MAX_POSTERIOR_DIM",
    "AppendixDClients",
    "AssouadClients",
    "DichotomyChoice",
    "LinearRegressionClients",
    "LogisticClients",
    "LogisticProblem",
    "OutlierClients",
    "QuadraticClients",
    "RademacherProblem",
    "appendix_d_clients",
    "assouad_clients",
    "bayes_estimate",
    "fedavg_erm",
    "fedprox_erm",
    "fine_tune_equivalent_lambda",
    "gmq_crossing_radius2",
    "gmq_expected_risk_fedavg",
    "gmq_expected_risk_fedprox",
    "gmq_expected_risk_plt",
    "gmq_minimax_envelope",
    "gmq_tuned_fedprox_lambda",
    "gmq_tuned_fedprox_risk",
    "linear_regression_clients",
    "local_training",
    "logistic_clients",
    "oracle_dichotomy",
    "outlier_clients",
    "quadratic_clients",
    "validated_dichotomy",
]
