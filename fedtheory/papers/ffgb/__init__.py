"""Numerics of the ffgb paper: Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient
Boosting* (AISTATS 2022, arXiv:2103.06972).

- finite-atom populations (:mod:`~.populations`): binary logistic, square and softmax losses on P
  atoms, the semi-heterogeneous, Dirichlet-mixture, private-atom and covariate-shift families,
  f* by per-atom Newton;
- Lipschitz latent models with translated supports for FFGB.L (:mod:`~.lipschitz`), the McShane
  extension (17), the covering distance D and the pooled L_data;
- exact TV, W1 (CDF formula, POT's transport LP), the Kantorovich potential and W2²
  (:mod:`~.distances`);
- the exact weak-learner oracles of the checks (:mod:`~.oracles`);
- FFGB, FFGB.C and FFGB.L as client steps on the core round loop (:mod:`~.steps`,
  :mod:`~.algorithms`);
- the exact limit points of guide §3.8, Remark 3.1's one-shot FFGB.L and the error-feedback
  telescoping identity (:mod:`~.limits`).

Its bounds are ``ffgb.*`` in :mod:`fedtheory.bounds`.
"""

from __future__ import annotations

from fedtheory.papers.ffgb import distances, limits, lipschitz, oracles, populations
from fedtheory.papers.ffgb.algorithms import (
    BoostingDiagnostics,
    FFGBRun,
    RoundLog,
    ffgb,
    ffgb_c,
    ffgb_l,
)
from fedtheory.papers.ffgb.lipschitz import LipschitzData, translated_supports
from fedtheory.papers.ffgb.populations import (
    AtomPopulation,
    covariate_shift,
    dirichlet_mixture,
    private_atoms,
    semi_heterogeneous,
)

__all__ = [
    "AtomPopulation",
    "BoostingDiagnostics",
    "FFGBRun",
    "LipschitzData",
    "RoundLog",
    "covariate_shift",
    "dirichlet_mixture",
    "distances",
    "ffgb",
    "ffgb_c",
    "ffgb_l",
    "limits",
    "lipschitz",
    "oracles",
    "populations",
    "private_atoms",
    "semi_heterogeneous",
    "translated_supports",
]
