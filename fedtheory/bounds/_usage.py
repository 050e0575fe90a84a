"""Which registered bounds a piece of code evaluates (the catalog's bound coverage).

Every :class:`~fedtheory.bounds.Bound` method that reads the bound's expression — evaluation,
exponents, crossovers, substitution — calls :func:`record` with the id of the registered bound
it comes from (a substituted bound records its origin). :func:`recording` collects those ids
while a block runs; the runner uses it to check that a claim declares every bound its
experiment, its criterion and its claim file evaluate (``uses=``), which is what
``fedtheory catalog --coverage`` and ``fedtheory mutate`` rely on.

Recording is per execution context (:mod:`contextvars`): threads of one worker process do not
see each other's records.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

__all__ = ["not_recording", "record", "recording"]

_ACTIVE: contextvars.ContextVar[tuple[set[str], ...]] = contextvars.ContextVar(
    "fedtheory_bound_recorders", default=()
)


def record(bound_id: str) -> None:
    """Note that the registered bound ``bound_id`` was evaluated (no-op when nothing records)."""
    for used in _ACTIVE.get():
        used.add(bound_id)


@contextlib.contextmanager
def recording() -> Iterator[set[str]]:
    """Collect the ids of the registered bounds evaluated inside the block (nested blocks too).

    >>> from fedtheory import bounds
    >>> with recording() as used:
    ...     _ = bounds.get("classic.gd.strongly-convex").evaluate(L=10, mu=1, T=20, Delta0=1)
    >>> sorted(used)
    ['classic.gd.strongly-convex']
    """
    used: set[str] = set()
    token = _ACTIVE.set((*_ACTIVE.get(), used))
    try:
        yield used
    finally:
        _ACTIVE.reset(token)


@contextlib.contextmanager
def not_recording() -> Iterator[None]:
    """Record nothing inside the block (nor in blocks nested in it).

    The module of a built-in paper is imported in such a block (see
    :mod:`fedtheory.bounds._bound`): it evaluates its bounds to check them, which is not a use
    by the claim file or the experiment that happened to ask for the first of them.
    """
    token = _ACTIVE.set(())
    try:
        yield
    finally:
        _ACTIVE.reset(token)
