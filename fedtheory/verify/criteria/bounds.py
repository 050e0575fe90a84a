"""Bound checks: the measured quantity stays below (or above) a bound at every point."""

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

__all__ = ["LowerBoundHolds", "UpperBoundHolds"]

#: What the compared quantities are, for the resolving power only (never for the decision).
_SCALES = ("linear", "log", "exponent")


# --------------------------------------------------------------------------- upper/lower bounds


class _BoundHolds(_PairwiseCriterion):
    side: float = 1.0  # +1: measured <= bound; -1: measured >= bound
    relation = "≤"

    def __init__(
        self,
        y: str,
        bound: Bound | str,
        *,
        x: str | None = None,
        over: Literal["mean", "every"] = "mean",
        bound_args: Mapping[str, str | float] | None = None,
        level: float = 0.95,
        rtol: float = 1e-9,
        scale: Literal["linear", "log", "exponent"] = "linear",
    ) -> None:
        self.y = _check_name(y, "y")
        self.source = _bound_source(bound, bound_args)
        self.x = None if x is None else _check_name(x, "x")
        if over not in ("mean", "every"):
            raise ParameterError(parameter="over", value=over, rule="must be 'mean' or 'every'")
        self.over = over
        self.min_replicates = 2 if over == "mean" else 1
        self.level = _check_level(level)
        if not 0 <= rtol < 1e-3:
            raise ParameterError(
                parameter="rtol", value=rtol, rule="must be in [0, 1e-3) (floating-point slack)"
            )
        self.rtol = float(rtol)
        if scale not in _SCALES:
            raise ParameterError(
                parameter="scale", value=scale, rule=f"must be one of {', '.join(_SCALES)}"
            )
        self.scale = scale

    @property
    def _power_key(self) -> str:
        """Key of the resolving power in the verdict's numbers and per-point rows."""
        return "exponent_margin" if self.scale == "exponent" else "resolving_power"

    def describe(self) -> str:
        what = "every replicate" if self.over == "every" else f"mean ({self.level:.0%} CI)"
        return f"{self.y} {self.relation} {self.source.label} ({what})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": type(self).__name__,
            "y": self.y,
            **self.source.to_dict(),
            "x": self.x,
            "over": self.over,
            "level": self.level,
            "rtol": self.rtol,
            "scale": self.scale,
        }

    def _check_point(
        self, point: PointMeasurements, measured: np.ndarray, bound: np.ndarray, level: float
    ) -> _PointCheck:
        excess = self.side * (measured - bound)  # > 0 means the statement fails
        mean_ci = stats.mean_ci(measured, level=self.level)
        if self.over == "every":
            slack = excess - self.rtol * np.abs(bound)
            index = int(np.argmax(slack))
            outcome = VIOLATED if slack[index] > 0 else HOLDS
            score = float(slack[index])
            decision = (math.nan, math.nan)
            band = (float(measured.min()), float(measured.max()))
        else:
            ci = stats.mean_ci(excess, level=level)
            tol = float(self.rtol * np.abs(bound).mean())
            outcome = VIOLATED if ci.low > tol else INCONCLUSIVE if ci.mean > tol else HOLDS
            index = int(np.argmax(excess))
            score = float(ci.low)
            decision = (self.side * ci.low, self.side * ci.high)
            band = (mean_ci.low, mean_ci.high)
        bound_mean = float(bound.mean())
        row = {
            "replicates": point.n,
            "measured": mean_ci.mean,
            "ci_low": mean_ci.low,
            "ci_high": mean_ci.high,
            "min": float(measured.min()),
            "max": float(measured.max()),
            "bound": bound_mean,
            "ratio": bound_mean / mean_ci.mean if mean_ci.mean != 0 else math.inf,
            # the interval the decision used: mean of y − bound at the Bonferroni level
            # (over="mean" only)
            "excess_ci_low": min(decision),
            "excess_ci_high": max(decision),
            self._power_key: self._resolving_power(measured, bound),
            "outcome": outcome,
        }
        return _PointCheck(outcome, score, index, row, band)

    def _resolving_power(self, measured: np.ndarray, bound: np.ndarray) -> float:
        """At one point: the largest error of the bound's constant (or exponent) that keeps it
        on the *holds* side of the decision (see the class docstring; NaN when undefined)."""
        if self.scale != "linear":
            # y and bound are logs (natural) or exponents: an error is an additive shift δ;
            # the check allows y − bound ≤ rtol·|bound| (taken at the unshifted bound)
            gap = self.side * (bound - measured)
            if self.over == "every":
                delta = float((gap + self.rtol * np.abs(bound)).min())
            else:
                delta = float(gap.mean() + self.rtol * np.abs(bound).mean())
            if self.scale == "exponent":
                return delta
            return math.exp(delta) if delta < _MAX_EXP else math.inf
        if self.over == "every":
            # a replicate with bound <= 0 gives no constraint: no c > 1 makes bound/c (upper)
            # or c·bound (lower) stricter there
            positive = bound > 0
            b, y = bound[positive], measured[positive]
            if b.size == 0:
                return math.nan
            if self.side > 0:  # y <= (bound/c)·(1 + rtol)
                with np.errstate(divide="ignore"):
                    factors = np.where(y > 0, b * (1 + self.rtol) / np.where(y > 0, y, 1), np.inf)
            else:  # y >= c·bound·(1 − rtol)
                factors = y / (b * (1 - self.rtol))
            return float(factors.min())
        # over="mean": holds while mean(y − bound/c) <= rtol·mean|bound/c| (mirror for lower)
        mean_y, mean_b = float(measured.mean()), float(bound.mean())
        tol = self.rtol * float(np.abs(bound).mean())
        if self.side > 0:
            if mean_b + tol <= 0:
                return math.nan
            return (mean_b + tol) / mean_y if mean_y > 0 else math.inf
        if mean_b - tol <= 0:
            return math.nan
        return mean_y / (mean_b - tol)

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        comparison = self._compare(data, self.y)
        outcomes, rows = comparison.outcomes, comparison.rows
        outcome = combine_outcomes(outcomes)
        ratios = np.array([r["ratio"] for r in rows], dtype=float)
        finite = ratios[np.isfinite(ratios)]
        numbers = {
            "min_ratio": float(finite.min()) if finite.size else math.nan,
            "max_ratio": float(finite.max()) if finite.size else math.nan,
            "median_ratio": float(np.median(finite)) if finite.size else math.nan,
            "points": float(len(rows)),
            "violated_points": float(sum(o == VIOLATED for o in outcomes)),
        }
        if outcome == HOLDS:
            powers = [float(r[self._power_key]) for r in rows]
            defined = [p for p in powers if not math.isnan(p)]
            if defined:
                numbers[self._power_key] = min(defined)
        undecided = [
            _point_label(row, data.varied) for row in rows if row["outcome"] == INCONCLUSIVE
        ]
        counterexample = None
        if outcome == VIOLATED:
            _, point, index, measured_value, bound_value = comparison.worst
            counterexample = _counterexample(
                data, point, index, measured=measured_value, bound=bound_value
            )
        per_point_level = stats.bonferroni(self.level, len(data.points))
        band_label = (
            "range of the replicates"
            if self.over == "every"
            else f"{self.level:.0%} CI of the mean"
        )
        return Verdict(
            outcome,
            self._reason(outcome, numbers, undecided, counterexample, per_point_level),
            predicted=f"{self.y} {self.relation} bound",
            measured=(
                f"bound/measured ∈ [{_fmt(numbers['min_ratio'])}, {_fmt(numbers['max_ratio'])}]"
            ),
            ci=None,
            numbers=numbers,
            table=tuple(rows),
            figure=self._figure(
                data,
                comparison,
                self.y,
                f"{self.y} {self.relation} {self.source.label}",
                band_label,
            ),
            counterexample=counterexample,
        )

    def _reason(
        self,
        outcome: str,
        numbers: Mapping[str, float],
        undecided: list[str],
        counterexample: Mapping[str, Any] | None,
        per_point_level: float,
    ) -> str:
        if outcome == VIOLATED:
            assert counterexample is not None
            where = ", ".join(f"{k}={v}" for k, v in counterexample["params"].items())
            if self.over == "every":
                return (
                    f"replicate {counterexample['replicate']} (seed {counterexample['seed']}) at "
                    f"{where}: measured {_fmt(counterexample['measured'], 6)} vs bound "
                    f"{_fmt(counterexample['bound'], 6)}"
                )
            return (
                f"at {int(numbers['violated_points'])} point(s) the mean of {self.y} is "
                f"beyond the bound outside its {per_point_level:.2%} CI (e.g. {where})"
            )
        if outcome == INCONCLUSIVE:
            return (
                f"the mean of {self.y} crosses the bound at {', '.join(undecided[:3])} but within "
                f"Monte-Carlo error; more replicates would decide"
            )
        side = "above" if self.side > 0 else "below"
        return (
            f"{self.y} stays {'below' if self.side > 0 else 'above'} the bound at all "
            f"{int(numbers['points'])} points; bound/measured from {_fmt(numbers['min_ratio'])} "
            f"to {_fmt(numbers['max_ratio'])} (bound {side})"
        )


_MAX_EXP = math.log(np.finfo(float).max)


class UpperBoundHolds(_BoundHolds):
    """The measured quantity never exceeds the bound.

    Parameters
    ----------
    y
        Output of the experiment holding the measured quantity.
    bound
        A :class:`~fedtheory.bounds.Bound`, evaluated at every replicate with its symbols taken
        from the experiment's outputs or the parameters (by name, or as renamed in
        ``bound_args``; a number in ``bound_args`` fixes a constant), or the name of an output
        the experiment computed itself (e.g. a bound on a measured error sequence).
    x
        Axis of the figure (default: the first varied parameter).
    over
        ``"mean"``: a statement about an expectation — at each point a Student-t interval of
        the mean of ``y − bound`` is computed at the Bonferroni level ``1 − (1 − level)/P``
        (``P`` points). *Violated* if at some point the whole interval lies above 0;
        *inconclusive* if the mean is above 0 somewhere but its interval reaches 0;
        *holds* otherwise. Needs ≥ 2 replicates. ``"every"``: a deterministic statement —
        *violated* as soon as one replicate has ``y > bound·(1 + rtol)``, and that replicate
        (parameters and seed) is reported as the counterexample; *holds* otherwise.
    level
        Family-wise confidence level.
    rtol
        Relative floating-point tolerance (not a statistical one): at most 1e-3.
    scale
        What ``y`` and the bound are, for the resolving power only (the decision never depends
        on it): ``"linear"`` (the quantity itself, the default), ``"log"`` (natural logarithms
        of it: a constant factor of the bound is a shift of its log) or ``"exponent"`` (a
        rate exponent, e.g. a fitted log-log slope against the predicted one plus a tolerance).

    Notes
    -----
    The report gives ``bound / measured`` (the slack ratio) at every point and its range.

    **Resolving power.** When the claim holds, ``verdict.numbers["resolving_power"]`` is the
    largest factor ``c`` by which the bound's constant could be too large — the bound divided
    by ``c`` — with the claim still holding: *a constant error smaller than this factor is
    invisible to this claim*. It is the slack at the tightest point, computed on the statistic
    the decision uses: with ``over="every"`` the smallest ``bound·(1 + rtol) / y`` over every
    replicate of every point; with ``over="mean"`` the smallest ``mean(bound) / mean(y)`` over
    the points (with the ``rtol`` term; beyond it the mean of ``y`` exceeds the scaled bound and
    the outcome becomes *inconclusive* — a *violated* verdict needs a somewhat larger factor,
    which clears the Monte-Carlo interval). Replicates (points) where the bound is ≤ 0 are left
    out (no rescaling of its constant makes it stricter there); ``∞`` when ``y`` ≤ 0 wherever
    the bound is positive. With ``scale="log"`` the same factor is ``exp`` of the smallest
    ``bound − y`` (plus the ``rtol`` term at the unshifted bound; the mean of it for
    ``over="mean"``); with ``scale="exponent"`` the number is
    ``verdict.numbers["exponent_margin"]`` instead: the smallest ``bound − y``, the largest
    exponent error the claim cannot see. The per-point rows carry the same number under the
    same key (at a point that does not hold it is < 1, resp. < 0). Absent when the outcome is
    not *holds* or no point defines it. The report warns from 10² (resp. an exponent margin
    above 0.5).
    """

    side = 1.0
    relation = "≤"


class LowerBoundHolds(_BoundHolds):
    """The measured quantity is never below the bound (mirror of :class:`UpperBoundHolds`).

    ``bound / measured`` ≤ 1 then measures how tight the lower bound is. The resolving power
    is the largest factor ``c`` by which the bound's constant could be too small — the bound
    multiplied by ``c`` — with the claim still holding: the smallest ``y / (bound·(1 − rtol))``
    (``over="every"``, over every replicate) or ``mean(y) / mean(bound)`` (``over="mean"``);
    for ``scale="log"`` or ``"exponent"`` the smallest ``y − bound`` (exponentiated for logs).
    A constant error smaller than this factor is invisible to this claim.
    """

    side = -1.0
    relation = "≥"
