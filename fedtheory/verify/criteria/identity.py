"""Identities: two quantities are equal to a tolerance (e.g. a bound that is attained)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from fedtheory import stats
from fedtheory.bounds import Bound
from fedtheory.errors import ParameterError
from fedtheory.verify.criteria._base import (
    _check_level,
    _check_name,
    _counterexample,
    _point_label,
)
from fedtheory.verify.criteria._pairwise import (
    _bound_source,
    _PairwiseCriterion,
    _PointCheck,
)
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.verdict import (
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    combine_outcomes,
)
from fedtheory.verify.verdict import format_number as _fmt

__all__ = ["Identity"]


# --------------------------------------------------------------------------- identity


class Identity(_PairwiseCriterion):
    """Two quantities are equal: ``|a − b| ≤ atol + rtol·|b|``.

    ``b`` may be an output, a parameter or a :class:`~fedtheory.bounds.Bound` (with
    ``bound_args`` as in :class:`UpperBoundHolds`), e.g. to show that a bound is attained.

    - ``over="every"`` (deterministic identities): *violated* as soon as one replicate breaks the
      tolerance (that replicate is the counterexample); *holds* otherwise.
    - ``over="mean"`` (an identity in expectation): at each point a Student-t interval of the
      mean of ``a − b`` at the Bonferroni level; *holds* if every interval lies inside the
      tolerance, *violated* if one lies entirely outside it, *inconclusive* otherwise.
    """

    def __init__(
        self,
        a: str,
        b: str | Bound,
        *,
        rtol: float = 1e-9,
        atol: float = 0.0,
        over: Literal["mean", "every"] = "every",
        bound_args: Mapping[str, str | float] | None = None,
        x: str | None = None,
        level: float = 0.95,
    ) -> None:
        self.a = _check_name(a, "a")
        self.source = _bound_source(b, bound_args)
        if not (rtol >= 0 and atol >= 0 and (rtol > 0 or atol > 0)):
            raise ParameterError(
                parameter="rtol", value=(rtol, atol), rule="rtol, atol >= 0 and not both 0"
            )
        self.rtol, self.atol = float(rtol), float(atol)
        if over not in ("mean", "every"):
            raise ParameterError(parameter="over", value=over, rule="must be 'mean' or 'every'")
        self.over = over
        self.min_replicates = 2 if over == "mean" else 1
        self.x = None if x is None else _check_name(x, "x")
        self.level = _check_level(level)

    def describe(self) -> str:
        tol = f"rtol {_fmt(self.rtol)}" + (f", atol {_fmt(self.atol)}" if self.atol else "")
        return f"{self.a} = {self.source.label} ({tol}, {self.over})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "Identity",
            "a": self.a,
            **self.source.to_dict(),
            "rtol": self.rtol,
            "atol": self.atol,
            "over": self.over,
            "x": self.x,
            "level": self.level,
        }

    def _check_point(
        self, point: PointMeasurements, a: np.ndarray, b: np.ndarray, level: float
    ) -> _PointCheck:
        diff = a - b
        tol = self.atol + self.rtol * np.abs(b)
        if self.over == "every":
            # |diff| / tol, with 0/0 = 0 (exact equality, zero tolerance) and x/0 = inf
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(tol > 0, np.abs(diff) / tol, np.where(diff == 0, 0.0, np.inf))
            index = int(np.argmax(ratio))
            outcome = VIOLATED if ratio[index] > 1 else HOLDS
            score = float(ratio[index])
        else:
            ci = stats.mean_ci(diff, level=level)
            t = float(tol.mean())
            if ci.low > t or ci.high < -t:
                outcome = VIOLATED
            elif -t <= ci.low and ci.high <= t:
                outcome = HOLDS
            else:
                outcome = INCONCLUSIVE
            index = int(np.argmax(np.abs(diff)))
            reach = max(abs(ci.low), abs(ci.high))
            score = reach / t if t > 0 else (0.0 if reach == 0 else math.inf)
        row = {
            "a": float(a.mean()),
            "b": float(b.mean()),
            "max_abs_diff": float(np.abs(diff).max()),
            # every: the worst replicate; mean: the difference of the means (one replicate's
            # difference is Monte-Carlo noise, not a property of the identity)
            "max_rel_diff": float((np.abs(diff) / np.maximum(np.abs(b), 1e-300)).max())
            if self.over == "every"
            else float(abs(diff.mean()) / max(abs(float(b.mean())), 1e-300)),
            "outcome": outcome,
        }
        if not np.any(b):  # a relative difference to 0 says nothing: only the absolute one
            row["max_rel_diff"] = None
        return _PointCheck(outcome, score, index, row, (float(a.min()), float(a.max())))

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        comparison = self._compare(data, self.a)
        rows = comparison.rows
        outcome = combine_outcomes(comparison.outcomes)
        score, point, index, a_value, b_value = comparison.worst
        relative = [r["max_rel_diff"] for r in rows if r["max_rel_diff"] is not None]
        max_rel = max(relative) if relative else None
        max_abs = max(r["max_abs_diff"] for r in rows)
        if max_rel is None:  # the reference is 0 at every point
            what, size = "abs. diff", max_abs
        else:
            what, size = "rel. diff", max_rel
        counterexample = None
        if outcome == VIOLATED:
            counterexample = _counterexample(data, point, index, a=a_value, b=b_value)
            reason = (
                f"{self.a} = {_fmt(a_value, 8)} but {self.source.label} = {_fmt(b_value, 8)} at "
                f"{_point_label(point.params, data.varied)} (replicate "
                f"{int(point.replicates[index])})"
            )
        elif outcome == INCONCLUSIVE:
            reason = "the mean difference is within Monte-Carlo error of the tolerance"
        else:
            means = "" if self.over == "every" else " of the means"
            reason = (
                f"equal within tolerance at all {len(rows)} points (max {what}{means} {size:.2g})"
            )
        return Verdict(
            outcome,
            reason,
            predicted=f"{self.a} = {self.source.label}",
            measured=f"max {what} {size:.2g}" + ("" if self.over == "every" else " (of the means)"),
            numbers={
                "max_abs_diff": max_abs,
                "worst_tolerance_ratio": score,
                **({} if max_rel is None else {"max_rel_diff": max_rel}),
            },
            table=tuple(rows),
            figure=self._figure(
                data,
                comparison,
                self.a,
                f"{self.a} = {self.source.label}?",
                "range of the replicates",
            ),
            counterexample=counterexample,
        )
