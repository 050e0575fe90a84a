"""fedtheory: federated-learning theory made executable.

A theorem becomes a symbolic :class:`~fedtheory.bounds.Bound` you can evaluate, differentiate,
take rates from and intersect with another bound; a prediction of a theorem becomes a falsifiable
claim checked on synthetic federated problems.

The paper-free core — ``bounds``, ``stats``, ``exact``, ``plotting``, ``problems``,
``algorithms``, ``verify`` — and ``papers`` (the numerics of one paper each,
``fedtheory.papers.<key>``) are imported on first use (``fedtheory.bounds`` pulls in sympy,
``fedtheory.algorithms`` numba); ``docs/architecture.md`` draws the rooms::

    >>> from fedtheory import bounds
    >>> bounds.get("classic.gd.strongly-convex").evaluate(L=10, mu=1, T=1, Delta0=1)
    0.9
"""

from __future__ import annotations

import importlib
from typing import Any

from fedtheory import errors
from fedtheory._version import __version__

__all__ = [
    "__version__",
    "algorithms",
    "bounds",
    "errors",
    "exact",
    "explore",
    "papers",
    "plotting",
    "problems",
    "stats",
    "verify",
]

_LAZY_SUBMODULES = {
    "algorithms",
    "bounds",
    "exact",
    "explore",
    "papers",
    "plotting",
    "problems",
    "stats",
    "verify",
}


def __getattr__(name: str) -> Any:
    """Import a subpackage on first access (``fedtheory.exact``, ``fedtheory.papers``, ...)."""
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"fedtheory.{name}")
    raise AttributeError(f"module 'fedtheory' has no attribute {name!r}")
