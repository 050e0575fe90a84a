"""Numerics of the gifair paper: Yue, Nouiehed & Al Kontar, *GIFAIR-FL: a framework for group
and individual fairness in federated learning*.

Placeholder of branch gifair-algo (the package's own ``__init__`` comes from branch
gifair-exact; on merge keep that one and add these imports and names):

- the kernel views of the problems (``_samples``);
- the fair aggregation step on the core round loop (:mod:`~fedtheory.papers.gifair.steps`);
- GIFAIR-FL-Global, GIFAIR-FL-Per and FedAvg as printed, with the step-size schedules
  (:mod:`~fedtheory.papers.gifair.algorithms`) and their result
  (:mod:`~fedtheory.papers.gifair.runs`).
"""

from __future__ import annotations

from fedtheory.papers.gifair.algorithms import (
    StepSchedule,
    decaying_steps,
    fedavg_printed,
    gifair_global,
    gifair_per,
    sqrt_steps,
)
from fedtheory.papers.gifair.runs import FairnessLog, GifairRun
from fedtheory.papers.gifair.steps import FairAggregation

__all__ = [
    "FairAggregation",
    "FairnessLog",
    "GifairRun",
    "StepSchedule",
    "decaying_steps",
    "fedavg_printed",
    "gifair_global",
    "gifair_per",
    "sqrt_steps",
]
