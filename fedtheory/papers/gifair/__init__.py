"""Numerics of the gifair paper: Yue, Nouiehed & Al Kontar, *GIFAIR-FL: a framework for group
and individual fairness in federated learning*.

Placeholder of branch gifair-algo (the package's own ``__init__`` comes from branch
gifair-exact; on merge keep that one and add the algorithm modules): the kernel views of the
problems (``_samples``), the fair aggregation step (:mod:`~fedtheory.papers.gifair.steps`) and
GIFAIR-FL-Global/-Per and FedAvg as printed (:mod:`~fedtheory.papers.gifair.algorithms`,
results in :mod:`~fedtheory.papers.gifair.runs`).
"""

from __future__ import annotations

__all__: list[str] = []
