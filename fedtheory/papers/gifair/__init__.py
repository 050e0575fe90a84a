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
- GIFAIR-FL-Global, GIFAIR-FL-Per and FedAvg as printed on the core round loop, with the
  fair aggregation server step (:mod:`~fedtheory.papers.gifair.steps`), the step-size
  schedules (:mod:`~fedtheory.papers.gifair.algorithms`), their result
  (:mod:`~fedtheory.papers.gifair.runs`) and the kernel views of the problems (``_samples``);
- the fairness baselines q-FFL / q-FedSGD, TERM, AFL, Ditto and FedMGDA+ on the same round loop
  (:mod:`~fedtheory.papers.gifair.baselines`, result :class:`BaselineRun`).
"""

from __future__ import annotations

from fedtheory.papers.gifair import baselines, datasets, exact, metrics
from fedtheory.papers.gifair.algorithms import (
    StepSchedule,
    decaying_steps,
    fedavg_printed,
    gifair_global,
    gifair_per,
    sqrt_steps,
)
from fedtheory.papers.gifair.baselines import afl, ditto, fedmgda_plus, qfedsgd, qffl, term
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
from fedtheory.papers.gifair.runs import BaselineRun, FairnessLog, GifairRun
from fedtheory.papers.gifair.steps import FairAggregation

__all__ = [
    "BaselineRun",
    "Example33",
    "FairAggregation",
    "FairOptimum",
    "FairnessLog",
    "GifairRun",
    "GroupStructure",
    "GroupedClassification",
    "GroupedQuadratics",
    "StepSchedule",
    "TradeoffCurve",
    "afl",
    "baselines",
    "datasets",
    "decaying_steps",
    "digits_groups",
    "ditto",
    "epigraph_optimum",
    "exact",
    "example_3_3",
    "fair_optimum",
    "fedavg_printed",
    "fedmgda_plus",
    "femnist_groups_like",
    "femnist_skewed_like",
    "gifair_global",
    "gifair_per",
    "grouped_logistic",
    "grouped_quadratics",
    "grouped_synthetic",
    "metrics",
    "qfedsgd",
    "qffl",
    "shakespeare_gender_like",
    "sqrt_steps",
    "term",
    "tradeoff_curve",
]
