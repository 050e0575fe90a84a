"""Numerics of the gifair paper: Yue, Nouiehed & Al Kontar, *GIFAIR-FL: a framework for group
and individual fairness in federated learning*.

- the group structure and Lemma 3.2's reweighting (:mod:`~fedtheory.papers.gifair.groups`):
  λ_max, ε, ranks, weights q, the zonotope view (D3) and the ordered-weight form (D4);
- problems on the problem protocol (:mod:`~fedtheory.papers.gifair.problems`): grouped
  quadratics with exact noise and grouped classification (logistic / softmax with ridge);
- exact optima through cvxpy (:mod:`~fedtheory.papers.gifair.exact`): the fair optimum, the
  all-orderings epigraph, the trade-off curve and the baselines' objectives;
- the metrics of Definition 2.1 and the tables (:mod:`~fedtheory.papers.gifair.metrics`).
"""

from __future__ import annotations

from fedtheory.papers.gifair.groups import Example33, GroupStructure, example_3_3

__all__ = [
    "Example33",
    "GroupStructure",
    "example_3_3",
]
