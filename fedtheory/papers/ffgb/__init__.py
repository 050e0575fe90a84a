"""Numerics of the ffgb paper: Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient
Boosting* (AISTATS 2022).

- learned weak learners as oracle kernels (:mod:`~fedtheory.papers.ffgb.learners`): a weighted
  regression tree, the App. B.1 MLP fitted by Adam, random-feature ridge;
- the digits substitute of the experiments (:mod:`~fedtheory.papers.ffgb.digits`): scikit-learn's
  8×8 digits with the paper's s-partition and the softmax cross-entropy view;
- FedAvg on the same MLP (:mod:`~fedtheory.papers.ffgb.fedavg_mlp`), the baseline of the figures.

Its bounds are ``ffgb.*`` in :mod:`fedtheory.bounds`.
"""

from __future__ import annotations

from fedtheory.papers.ffgb.digits import (
    DIGITS_CLASSES,
    DIGITS_GRADIENT_BOUND,
    DigitsFederation,
    DigitsView,
    digits_federation,
)
from fedtheory.papers.ffgb.fedavg_mlp import DigitsFedAvgRun, fedavg_digits, mlp_values
from fedtheory.papers.ffgb.learners import (
    MLPOracle,
    RandomFeatureOracle,
    TreeOracle,
    fit_weak_learner,
    mlp_oracle,
    random_feature_oracle,
    tree_oracle,
)

__all__ = [
    "DIGITS_CLASSES",
    "DIGITS_GRADIENT_BOUND",
    "DigitsFedAvgRun",
    "DigitsFederation",
    "DigitsView",
    "MLPOracle",
    "RandomFeatureOracle",
    "TreeOracle",
    "digits_federation",
    "fedavg_digits",
    "fit_weak_learner",
    "mlp_oracle",
    "mlp_values",
    "random_feature_oracle",
    "tree_oracle",
]
