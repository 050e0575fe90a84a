"""The verification engine: claims, criteria, runner, executors, store and report (DESIGN §5–§6).

Write claims with :class:`Claim`, :class:`Sweep` and a criterion; run them with :func:`verify`
(or ``fedtheory verify`` on the command line). See ``docs/verification.md``.
"""

from __future__ import annotations

from fedtheory.verify.claim import (
    ERROR,
    HOLDS,
    INCONCLUSIVE,
    OUTCOMES,
    PROFILES,
    VIOLATED,
    Claim,
    ClaimResult,
    FigureSpec,
    Measurements,
    PointMeasurements,
    Series,
    Sweep,
    Verdict,
)
from fedtheory.verify.criteria import (
    Criterion,
    Crossing,
    Identity,
    LowerBoundHolds,
    Monotone,
    RateExponent,
    UpperBoundHolds,
)
from fedtheory.verify.discovery import discover
from fedtheory.verify.runner import VerifyRun, verify
from fedtheory.verify.store import ResultStore

__all__ = [
    "ERROR",
    "HOLDS",
    "INCONCLUSIVE",
    "OUTCOMES",
    "PROFILES",
    "VIOLATED",
    "Claim",
    "ClaimResult",
    "Criterion",
    "Crossing",
    "FigureSpec",
    "Identity",
    "LowerBoundHolds",
    "Measurements",
    "Monotone",
    "PointMeasurements",
    "RateExponent",
    "ResultStore",
    "Series",
    "Sweep",
    "UpperBoundHolds",
    "Verdict",
    "VerifyRun",
    "discover",
    "verify",
]
