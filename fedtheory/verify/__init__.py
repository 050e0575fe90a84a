"""The verification engine: claims, criteria, runner, executors, store and report (DESIGN §5–§6).

Write claims with :class:`Claim` (or :meth:`Measurement.claim` when several claims judge one
experiment), :class:`Sweep` and a criterion; run them with :func:`verify` (or
``fedtheory verify`` on the command line). See ``docs/verification.md``.

Modules, from the bottom up: :mod:`~fedtheory.verify.sweep`,
:mod:`~fedtheory.verify.measurements` and :mod:`~fedtheory.verify.verdict` (plain data),
:mod:`~fedtheory.verify.criteria` (one module per family), :mod:`~fedtheory.verify.claim`
(measurements and claims), then :mod:`~fedtheory.verify.discovery`,
:mod:`~fedtheory.verify.store`, :mod:`~fedtheory.verify.executors`,
:mod:`~fedtheory.verify.runner` and :mod:`~fedtheory.verify.report`. The figure data model
(:class:`FigureSpec`, :class:`Series`) lives in :mod:`fedtheory.plotting.model` and is re-exported
here for claim authors.
"""

from __future__ import annotations

from fedtheory.plotting.model import FigureSpec, Series
from fedtheory.verify.claim import Claim, ClaimResult, Measurement
from fedtheory.verify.criteria import (
    Criterion,
    Crossing,
    Identity,
    LowerBoundHolds,
    Monotone,
    RateExponent,
    UpperBoundHolds,
    WorstCaseHolds,
)
from fedtheory.verify.discovery import discover
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.runner import VerifyRun, verify
from fedtheory.verify.store import ResultStore
from fedtheory.verify.sweep import PROFILES, Sweep
from fedtheory.verify.verdict import ERROR, HOLDS, INCONCLUSIVE, OUTCOMES, VIOLATED, Verdict

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
    "Measurement",
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
    "WorstCaseHolds",
    "discover",
    "verify",
]
