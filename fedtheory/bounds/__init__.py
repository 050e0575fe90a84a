"""Symbolic layer: theorems as :class:`Bound` objects in a registry (DESIGN §2).

>>> from fedtheory import bounds
>>> b = bounds.get("classic.gd.strongly-convex")
>>> round(b.evaluate(L=10, mu=1, T=20, Delta0=1), 6)
0.121577
>>> str(b.exponent("T"))   # linear rate: faster than any power of T
'decays faster than any power of T as T → ∞'
>>> b.exponent("Delta0").power
1

The bounds of a paper fedtheory ships are registered by its module, ``fedtheory.bounds.<key>``,
which is imported on first need: by :func:`get` of one of its ids, by :func:`ids` and
:func:`iter_bounds`, or by naming the module (``bounds.minimax``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from fedtheory.bounds._analysis import Exponent
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
from fedtheory.bounds._crossover import Crossover
from fedtheory.bounds._symbols import COMMON, SymbolInfo, Vocabulary

if TYPE_CHECKING:  # imported on first use, by __getattr__ below
    from fedtheory.bounds import classic, fedlrgd, ffgb, fzoos, gifair, minimax

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


def __getattr__(name: str) -> ModuleType:
    """The module of a built-in paper (``bounds.minimax``), imported on first use (PEP 562)."""
    if name in BUILTIN_PAPERS:
        return importlib.import_module(f"fedtheory.bounds.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
