"""The numerics of one paper each: ``fedtheory.papers.<key>`` (DESIGN §1).

A paper lives in three places that say so: its bounds in :mod:`fedtheory.bounds` (``<key>.py``),
its numerics here (the models, the closed forms that are not bounds, the algorithms that only it
uses) and its claims in ``verification/<key>/``. A paper module imports the paper-free core
(:mod:`~fedtheory.bounds`, :mod:`~fedtheory.problems`, :mod:`~fedtheory.algorithms`,
:mod:`~fedtheory.exact`, :mod:`~fedtheory.stats`) and never another paper; a module moves into
the core when a second paper needs it. See ``docs/architecture.md``.

==========  ====================================================================================
key         paper
==========  ====================================================================================
minimax     Chen, Zheng, Long & Su — minimax personalized FL, FedAvg vs local training
fedlrgd     Jadbabaie, Makur & Shah — federated optimization of smooth losses, FedLRGD
ffgb        Shen, Hassani, Kale & Karbasi — federated functional gradient boosting
gifair      Yue, Nouiehed & Al Kontar — GIFAIR-FL, group and individual fairness in FL
fzoos       Shu, Lin, Dai & Low — FZooS, federated zeroth-order optimization with GP surrogates
==========  ====================================================================================

The subpackages are imported on first use::

    >>> from fedtheory.papers import minimax
    >>> minimax.quadratic_clients(2, 10, 3, 0.5, 1.0, seed=0).data.m
    2
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["fedlrgd", "ffgb", "fzoos", "gifair", "minimax"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return importlib.import_module(f"fedtheory.papers.{name}")
    raise AttributeError(f"module 'fedtheory.papers' has no attribute {name!r}")
