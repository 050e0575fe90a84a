"""Symbolic layer: theorems as :class:`Bound` objects in a registry (DESIGN §2).

>>> from fedtheory import bounds
>>> b = bounds.get("classic.gd.strongly-convex")
>>> round(b.evaluate(L=10, mu=1, T=20, Delta0=1), 6)
0.121577
>>> str(b.exponent("T"))   # linear rate: faster than any power of T
'decays faster than any power of T as T → ∞'
>>> b.exponent("Delta0").power
1

Importing this package registers the bounds of every paper module.
"""

from __future__ import annotations

# paper modules register their bounds on import
from fedtheory.bounds import classic, fedlrgd, ffgb, fzoos, gifair, minimax
from fedtheory.bounds._analysis import Crossover, Exponent
from fedtheory.bounds._bound import (
    KINDS,
    STATUSES,
    Bound,
    Hypothesis,
    Kind,
    Status,
    get,
    ids,
    iter_bounds,
    register,
)
from fedtheory.bounds._citation import BUILTIN_PAPERS, PAPERS, Citation, Paper, register_paper
from fedtheory.bounds._symbols import COMMON, SymbolInfo, Vocabulary

__all__ = [
    "BUILTIN_PAPERS",
    "COMMON",
    "KINDS",
    "PAPERS",
    "STATUSES",
    "Bound",
    "Citation",
    "Crossover",
    "Exponent",
    "Hypothesis",
    "Kind",
    "Paper",
    "Status",
    "SymbolInfo",
    "Vocabulary",
    "classic",
    "fedlrgd",
    "ffgb",
    "fzoos",
    "get",
    "gifair",
    "ids",
    "iter_bounds",
    "minimax",
    "register",
    "register_paper",
]
