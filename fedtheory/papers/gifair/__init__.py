"""Numerics of the gifair paper: Yue, Nouiehed & Al Kontar, *GIFAIR-FL: a framework for group
and individual fairness in federated learning*.

- the group structure and Lemma 3.2's reweighting (:mod:`~fedtheory.papers.gifair.groups`):
  λ_max, ε, ranks, weights q, the zonotope view (D3) and the ordered-weight form (D4);
- problems on the problem protocol (:mod:`~fedtheory.papers.gifair.problems`): grouped
  quadratics with an exact noise table and grouped classification (logistic / softmax + ridge);
- the offline substitutes of the experiments (:mod:`~fedtheory.papers.gifair.datasets`);
- exact optima through cvxpy (:mod:`~fedtheory.papers.gifair.exact`): the fair optimum, the
  all-orderings epigraph, the trade-off curve and the baselines' objectives;
- the metrics of Definition 2.1 and the tables (:mod:`~fedtheory.papers.gifair.metrics`).
"""

from __future__ import annotations

from fedtheory.papers.gifair import datasets, exact, metrics
from fedtheory.papers.gifair.datasets import (
    digits_groups,
    femnist_groups_like,
    femnist_skewed_like,
    grouped_logistic,
    grouped_synthetic,
    shakespeare_gender_like,
)
from fedtheory.papers.gifair.exact import (
    FairOptimum,
    TradeoffCurve,
    epigraph_optimum,
    fair_optimum,
    tradeoff_curve,
)
from fedtheory.papers.gifair.groups import Example33, GroupStructure, example_3_3
from fedtheory.papers.gifair.problems import (
    GroupedClassification,
    GroupedQuadratics,
    grouped_quadratics,
)

__all__ = [
    "Example33",
    "FairOptimum",
    "GroupStructure",
    "GroupedClassification",
    "GroupedQuadratics",
    "TradeoffCurve",
    "datasets",
    "digits_groups",
    "epigraph_optimum",
    "exact",
    "example_3_3",
    "fair_optimum",
    "femnist_groups_like",
    "femnist_skewed_like",
    "grouped_logistic",
    "grouped_quadratics",
    "grouped_synthetic",
    "metrics",
    "shakespeare_gender_like",
    "tradeoff_curve",
]
