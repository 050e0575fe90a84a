"""Bound coverage: which claims judge each registered bound on data (``catalog --coverage``).

A claim *judges* a bound when it evaluates it on data: its criterion holds the bound, its
experiment evaluates it (the measurement's ``uses``), or its claim file computes an expected
value from it (the claim's ``uses``) — :attr:`fedtheory.verify.claim.Claim.bounds`. Naming a
bound only with ``bound=`` *cites* it. A bound that no claim judges must say why
(:attr:`fedtheory.bounds.Bound.unjudged_reason`): otherwise a wrong formula would pass the whole
catalog, and :mod:`fedtheory.verify.mutate` could not even try.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from fedtheory.bounds import Bound, iter_bounds
from fedtheory.verify.discovery import LoadedClaim

__all__ = ["BoundCoverage", "CoverageStatus", "coverage"]

#: ``judged`` (by at least one claim), ``reason`` (by none, with a stated reason),
#: ``unexercised`` (by none, without a reason), ``stale-reason`` (judged, yet a reason says it
#: is not — the reason is out of date).
CoverageStatus = Literal["judged", "reason", "unexercised", "stale-reason"]


@dataclass(frozen=True)
class BoundCoverage:
    """How one registered bound is exercised by a catalog."""

    bound: Bound
    judged_by: tuple[str, ...]
    cited_by: tuple[str, ...]

    @property
    def reason(self) -> str | None:
        """Why no claim judges the bound (stated on the bound, or by default for orders)."""
        return self.bound.unjudged_reason

    @property
    def status(self) -> CoverageStatus:
        if self.judged_by:
            return "stale-reason" if self.bound.unjudged is not None else "judged"
        return "reason" if self.reason is not None else "unexercised"

    @property
    def ok(self) -> bool:
        """Judged, or not judged for a stated reason."""
        return self.status in ("judged", "reason")

    def to_dict(self) -> dict[str, object]:
        return {
            "bound": self.bound.id,
            "paper": self.bound.paper,
            "kind": self.bound.kind,
            "status": self.status,
            "judged_by": list(self.judged_by),
            "cited_by": list(self.cited_by),
            "reason": self.reason,
        }


def coverage(claims: Sequence[LoadedClaim], paper: str | None = None) -> list[BoundCoverage]:
    """Coverage of every registered bound (of ``paper``, or all) by ``claims``, in id order.

    Examples
    --------
    >>> from fedtheory.verify.discovery import discover
    >>> rows = coverage(discover("verification"), paper="classic")
    >>> rows[0].bound.id, rows[0].status
    ('classic.gd.distance.exact', 'judged')
    """
    judged: dict[str, list[str]] = {}
    cited: dict[str, list[str]] = {}
    for loaded in claims:
        claim = loaded.claim
        for bound_id in claim.bounds:
            judged.setdefault(bound_id, []).append(claim.id)
        if claim.bound is not None and claim.bound.origin not in claim.bounds:
            cited.setdefault(claim.bound.origin, []).append(claim.id)
    return [
        BoundCoverage(bound, tuple(judged.get(bound.id, ())), tuple(cited.get(bound.id, ())))
        for bound in iter_bounds(paper)
    ]
