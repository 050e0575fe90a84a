"""Numerics of the ffgb paper: Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient
Boosting* (AISTATS 2022, arXiv:2103.06972).

- finite-atom populations (:mod:`~fedtheory.papers.ffgb.populations`): binary logistic, square
  and softmax losses on P atoms, the semi-heterogeneous, Dirichlet-mixture, private-atom and
  covariate-shift families, f* by per-atom Newton;
- Lipschitz latent models with translated supports for FFGB.L
  (:mod:`~fedtheory.papers.ffgb.lipschitz`), the McShane extension (17), the covering distance D
  and the pooled L_data;
- exact TV, W1 (CDF formula, POT's transport LP), the Kantorovich potential and W2²
  (:mod:`~fedtheory.papers.ffgb.distances`);
- the exact weak-learner oracles of the checks (:mod:`~fedtheory.papers.ffgb.oracles`) and the
  learned ones of the experiments (:mod:`~fedtheory.papers.ffgb.learners`): a weighted
  regression tree, the App. B.1 MLP fitted by Adam, random-feature ridge;
- FFGB, FFGB.C and FFGB.L as client steps on the core round loop
  (:mod:`~fedtheory.papers.ffgb.steps`, :mod:`~fedtheory.papers.ffgb.algorithms`);
- the exact limit points of guide §3.8, Remark 3.1's one-shot FFGB.L and the error-feedback
  telescoping identity (:mod:`~fedtheory.papers.ffgb.limits`);
- the digits substitute of the experiments (:mod:`~fedtheory.papers.ffgb.digits`): scikit-learn's
  8×8 digits with the paper's s-partition and the softmax cross-entropy view;
- FedAvg on the same MLP (:mod:`~fedtheory.papers.ffgb.fedavg_mlp`), the baseline of the figures.

Its bounds are ``ffgb.*`` in :mod:`fedtheory.bounds`.
"""

from __future__ import annotations

from fedtheory.papers.ffgb import distances, limits, lipschitz, oracles, populations
from fedtheory.papers.ffgb.algorithms import ffgb, ffgb_c, ffgb_l
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
from fedtheory.papers.ffgb.lipschitz import LipschitzData, translated_supports
from fedtheory.papers.ffgb.populations import (
    AtomPopulation,
    covariate_shift,
    dirichlet_mixture,
    private_atoms,
    semi_heterogeneous,
)
from fedtheory.papers.ffgb.runs import BoostingDiagnostics, FFGBRun, RoundLog

__all__ = [
    "DIGITS_CLASSES",
    "DIGITS_GRADIENT_BOUND",
    "AtomPopulation",
    "BoostingDiagnostics",
    "DigitsFedAvgRun",
    "DigitsFederation",
    "DigitsView",
    "FFGBRun",
    "LipschitzData",
    "MLPOracle",
    "RandomFeatureOracle",
    "RoundLog",
    "TreeOracle",
    "covariate_shift",
    "digits_federation",
    "dirichlet_mixture",
    "distances",
    "fedavg_digits",
    "ffgb",
    "ffgb_c",
    "ffgb_l",
    "fit_weak_learner",
    "limits",
    "lipschitz",
    "mlp_oracle",
    "mlp_values",
    "oracles",
    "populations",
    "private_atoms",
    "random_feature_oracle",
    "semi_heterogeneous",
    "translated_supports",
    "tree_oracle",
]
