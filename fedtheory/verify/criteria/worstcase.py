"""A bound held against an exact worst case computed by an SDP (issue 16).

The data are deterministic: one replicate per point, the worst case of a method over a function
class (:func:`fedtheory.worstcase.worst_case`) and the accuracy of the SDP solution. A bound that
holds for every instance of the class must lie above the worst case; one below it is false, and
the PEP's primal solution is the instance that breaks it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from fedtheory.bounds import Bound
from fedtheory.errors import ParameterError
from fedtheory.verify.criteria._base import _check_name, _counterexample, _point_label
from fedtheory.verify.criteria._pairwise import _bound_source, _PairwiseCriterion, _PointCheck
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.verdict import HOLDS, INCONCLUSIVE, VIOLATED, Verdict, combine_outcomes
from fedtheory.verify.verdict import format_number as _fmt

__all__ = ["WorstCaseHolds"]


class WorstCaseHolds(_PairwiseCriterion):
    """A bound against the exact worst case: ``worst ≤ bound``, or ``worst = bound`` if tight.

    At each point the tolerance is ``accuracy + rtol·max(|bound|, |worst|)``, where
    ``accuracy`` is the solver's own error on that SDP (an output of the experiment: the gap
    between the dual and the primal values) and ``rtol`` the relative accuracy the known closed
    forms are reproduced to (1e-6 by default; ``tests/test_worstcase.py``).

    - ``tight=False`` (the bound is an upper bound): *holds* when the bound exceeds the worst case
      by more than the tolerance at every point, *violated* when it is below it by more than
      the tolerance at some point (that point is the counterexample: the PEP's instance breaks
      the bound), *inconclusive* when they agree within the tolerance (the bound may be exactly
      tight — claim that with ``tight=True`` — or fail by less than the solver can resolve).
    - ``tight=True`` (the bound *is* the worst case): *holds* when they agree within the
      tolerance everywhere, *violated* otherwise (a bound below the worst case is false; one
      above it is not the worst case).

    The tightness ``bound / worst`` is reported at every point (1 for a tight bound; the
    looseness of a valid one).

    Parameters
    ----------
    worst
        Output holding the worst-case value (the certified dual value).
    bound
        A :class:`~fedtheory.bounds.Bound` evaluated on each point's parameters and outputs
        (``bound_args`` renames as in :class:`UpperBoundHolds`), or the name of an output.
    accuracy
        Output holding the solver's absolute accuracy on the point's SDP.
    tight
        Whether the claim is that the bound equals the worst case.
    rtol
        Relative tolerance, in ``(0, 1e-3)``.
    x
        Axis for the figure and the curves.
    """

    def __init__(
        self,
        worst: str,
        bound: Bound | str,
        *,
        accuracy: str = "accuracy",
        tight: bool = False,
        rtol: float = 1e-6,
        x: str | None = None,
        bound_args: Mapping[str, str | float] | None = None,
    ) -> None:
        self.worst = _check_name(worst, "worst")
        self.accuracy = _check_name(accuracy, "accuracy")
        self.source = _bound_source(bound, bound_args)
        if not isinstance(tight, bool):
            raise ParameterError(parameter="tight", value=tight, rule="must be True or False")
        self.tight = tight
        if not 0 < rtol < 1e-3:
            raise ParameterError(
                parameter="rtol", value=rtol, rule="must be in (0, 1e-3) (the solver's accuracy)"
            )
        self.rtol = float(rtol)
        self.x = None if x is None else _check_name(x, "x")
        self.level = 0.95  # unused: deterministic data, no interval
        self.min_replicates = 1

    def describe(self) -> str:
        relation = "=" if self.tight else "≥"
        return f"{self.source.label} {relation} worst case {self.worst} (rtol {_fmt(self.rtol)})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "WorstCaseHolds",
            "worst": self.worst,
            **self.source.to_dict(),
            "accuracy": self.accuracy,
            "tight": self.tight,
            "rtol": self.rtol,
            "x": self.x,
        }

    def _check_point(
        self, point: PointMeasurements, worst: np.ndarray, bound: np.ndarray, level: float
    ) -> _PointCheck:
        del level
        accuracy = np.asarray(point[self.accuracy], dtype=float)
        tol = accuracy + self.rtol * np.maximum(np.abs(bound), np.abs(worst))
        gap = bound - worst  # > 0: the bound is above the worst case
        if self.tight:
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(tol > 0, np.abs(gap) / tol, np.where(gap == 0, 0.0, np.inf))
            index = int(np.argmax(ratio))
            outcome = VIOLATED if ratio[index] > 1 else HOLDS
            score = float(ratio[index])
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                score_of = np.where(tol > 0, -gap / tol, np.where(gap < 0, np.inf, -np.inf))
            index = int(np.argmax(score_of))
            if np.any(gap < -tol):
                outcome = VIOLATED
            elif np.any(gap <= tol):
                outcome = INCONCLUSIVE
            else:
                outcome = HOLDS
            score = float(score_of[index])
        w, b = float(worst[index]), float(bound[index])
        row = {
            "replicates": point.n,
            "worst": w,
            "bound": b,
            "tightness": b / w if w != 0 else math.inf,
            "tolerance": float(tol[index]),
            "outcome": outcome,
        }
        return _PointCheck(outcome, score, index, row, (w, w))

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        del seed
        comparison = self._compare(data, self.worst)
        outcomes, rows = comparison.outcomes, comparison.rows
        outcome = combine_outcomes(outcomes)
        tightness = np.array([r["tightness"] for r in rows], dtype=float)
        finite = tightness[np.isfinite(tightness)]
        numbers = {
            "min_tightness": float(finite.min()) if finite.size else math.nan,
            "max_tightness": float(finite.max()) if finite.size else math.nan,
            "points": float(len(rows)),
            "violated_points": float(sum(o == VIOLATED for o in outcomes)),
        }
        counterexample = None
        if outcome == VIOLATED:
            _, point, index, worst_value, bound_value = comparison.worst
            counterexample = _counterexample(
                data, point, index, measured=worst_value, bound=bound_value
            )
        undecided = [
            _point_label(row, data.varied) for row in rows if row["outcome"] == INCONCLUSIVE
        ]
        return Verdict(
            outcome,
            self._reason(outcome, numbers, undecided, counterexample),
            predicted=f"worst case {'=' if self.tight else '≤'} bound",
            measured=(
                f"bound/worst ∈ [{_fmt(numbers['min_tightness'])}, "
                f"{_fmt(numbers['max_tightness'])}]"
            ),
            ci=None,
            numbers=numbers,
            table=tuple(rows),
            figure=self._figure(
                data,
                comparison,
                self.worst,
                f"worst case {self.worst} vs {self.source.label}",
                "exact (SDP)",
            ),
            counterexample=counterexample,
        )

    def _reason(
        self,
        outcome: str,
        numbers: Mapping[str, float],
        undecided: list[str],
        counterexample: Mapping[str, Any] | None,
    ) -> str:
        span = f"{_fmt(numbers['min_tightness'])} to {_fmt(numbers['max_tightness'])}"
        if outcome == VIOLATED:
            assert counterexample is not None
            where = ", ".join(f"{k}={v}" for k, v in counterexample["params"].items())
            below = counterexample["bound"] < counterexample["measured"]
            what = (
                "the bound is below the exact worst case: an instance of the class breaks it"
                if below
                else "the bound is above the worst case, so it is not the worst case"
            )
            return (
                f"at {where}: worst case {_fmt(counterexample['measured'], 8)} vs bound "
                f"{_fmt(counterexample['bound'], 8)}; {what}"
            )
        if outcome == INCONCLUSIVE:
            return (
                f"the bound equals the worst case within the solver's accuracy at "
                f"{', '.join(undecided[:3])}: it may be tight there or fail by less than the "
                "SDP resolves"
            )
        if self.tight:
            return (
                f"the bound is the exact worst case at all {int(numbers['points'])} points "
                f"(bound/worst from {span})"
            )
        return (
            f"the bound is above the exact worst case at all {int(numbers['points'])} points; "
            f"bound/worst from {span}"
        )
