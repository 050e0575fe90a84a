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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: Where each public name is defined: imported on first use (PEP 562), so that a light
#: module of the engine (the store, the sweep profiles) loads without the criteria, sympy,
#: scipy and matplotlib (``fedtheory --help`` and the CLI's option checks start in a tenth
#: of the time).
_EXPORTS: dict[str, str] = {
    "Claim": "fedtheory.verify.claim",
    "ClaimResult": "fedtheory.verify.claim",
    "Criterion": "fedtheory.verify.criteria",
    "Crossing": "fedtheory.verify.criteria",
    "ERROR": "fedtheory.verify.verdict",
    "FigureSpec": "fedtheory.plotting.model",
    "HOLDS": "fedtheory.verify.verdict",
    "INCONCLUSIVE": "fedtheory.verify.verdict",
    "Identity": "fedtheory.verify.criteria",
    "LowerBoundHolds": "fedtheory.verify.criteria",
    "Measurement": "fedtheory.verify.claim",
    "Measurements": "fedtheory.verify.measurements",
    "Monotone": "fedtheory.verify.criteria",
    "OUTCOMES": "fedtheory.verify.verdict",
    "PROFILES": "fedtheory.verify.sweep",
    "PointMeasurements": "fedtheory.verify.measurements",
    "RateExponent": "fedtheory.verify.criteria",
    "ResultStore": "fedtheory.verify.store",
    "Series": "fedtheory.plotting.model",
    "Sweep": "fedtheory.verify.sweep",
    "UpperBoundHolds": "fedtheory.verify.criteria",
    "VIOLATED": "fedtheory.verify.verdict",
    "Verdict": "fedtheory.verify.verdict",
    "VerifyRun": "fedtheory.verify.runner",
    "WorstCaseHolds": "fedtheory.verify.criteria",
    "discover": "fedtheory.verify.discovery",
    "verify": "fedtheory.verify.runner",
}

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once imported, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
