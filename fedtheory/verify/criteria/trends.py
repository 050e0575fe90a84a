"""Trends: the mean of the measured quantity moves in one direction along a parameter."""

from __future__ import annotations

import itertools
import math
from typing import Any, Literal

import numpy as np
from scipy import special

from fedtheory import stats
from fedtheory.errors import ParameterError
from fedtheory.plotting.model import FigureSpec, Series
from fedtheory.verify.criteria._base import (
    Criterion,
    _check_level,
    _check_name,
    _group_label,
    _log_friendly,
)
from fedtheory.verify.measurements import Measurements
from fedtheory.verify.verdict import (
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    combine_outcomes,
)

__all__ = ["Monotone"]


# --------------------------------------------------------------------------- monotone


class Monotone(Criterion):
    """The mean of ``y`` moves in one direction along ``x``.

    Consecutive points are compared by a Welch interval of the difference of their means, at the
    Bonferroni level over the steps of all curves (deterministic points: the exact difference).
    A step is *against* the direction when its whole interval lies on the wrong side of 0.

    - *violated*: some step goes against the direction;
    - *holds*: no step goes against it and the change from the first to the last point is in the
      direction, beyond its interval;
    - *inconclusive*: otherwise (the curve is flat within Monte-Carlo error).
    """

    min_points = 2

    def __init__(
        self,
        x: str,
        y: str,
        *,
        direction: Literal["increasing", "decreasing"],
        level: float = 0.95,
    ) -> None:
        self.x = _check_name(x, "x")
        self.y = _check_name(y, "y")
        if direction not in ("increasing", "decreasing"):
            raise ParameterError(
                parameter="direction",
                value=direction,
                rule="must be 'increasing' or 'decreasing'",
            )
        self.direction = direction
        self.level = _check_level(level)

    def describe(self) -> str:
        return f"{self.y} {self.direction} in {self.x}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "Monotone",
            "x": self.x,
            "y": self.y,
            "direction": self.direction,
            "level": self.level,
        }

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        x = self._required_x()
        sign = 1.0 if self.direction == "increasing" else -1.0
        curves = self._curves(data)
        n_steps = sum(len(c.points) - 1 for _, c in curves) + len(curves)
        step_level = stats.bonferroni(self.level, n_steps)
        outcomes, rows, series, reasons = [], [], [], []
        for key, curve in curves:
            pts = curve.points
            against, undecided = [], 0
            for left, right in itertools.pairwise(pts):
                low, high = _diff_ci(right[self.y], left[self.y], step_level)
                if (sign > 0 and high < 0) or (sign < 0 and low > 0):
                    against.append((left.params[x], right.params[x]))
                elif low <= 0 <= high:
                    undecided += 1
            low, high = _diff_ci(pts[-1][self.y], pts[0][self.y], step_level)
            overall_ok = low > 0 if sign > 0 else high < 0
            if against:
                outcome = VIOLATED
                why = "goes against the direction between " + ", ".join(
                    f"{x}={a}→{b}" for a, b in against[:3]
                )
            elif overall_ok:
                outcome, why = HOLDS, f"{self.direction} ({undecided} flat step(s))"
            else:
                outcome, why = INCONCLUSIVE, "first and last points are not distinguishable"
            label = _group_label(key)
            outcomes.append(outcome)
            reasons.append(f"{label + ': ' if label else ''}{why}")
            rows.append(
                {
                    **key,
                    "steps_against": len(against),
                    "flat_steps": undecided,
                    "change": float(np.mean(pts[-1][self.y]) - np.mean(pts[0][self.y])),
                    "outcome": outcome,
                }
            )
            cis = [stats.mean_ci(p[self.y], level=self.level) for p in pts]
            series.append(
                Series(
                    self.y,
                    tuple(float(p.params[x]) for p in pts),
                    tuple(c.mean for c in cis),
                    "measured",
                    tuple(c.low for c in cis),
                    tuple(c.high for c in cis),
                    label,
                )
            )
        outcome = combine_outcomes(outcomes)
        return Verdict(
            outcome,
            "; ".join(reasons),
            predicted=f"{self.direction} in {x}",
            measured="; ".join(str(r["outcome"]) for r in rows),
            numbers={"curves": float(len(rows))},
            table=tuple(rows),
            figure=FigureSpec(
                x_label=x,
                y_label=self.y,
                series=tuple(series),
                x_log=_log_friendly(data.param(x).astype(float).tolist()),
                y_log=all(v > 0 for s in series for v in (*s.y, *(s.low or ()))),
                title=f"{self.y} {self.direction} in {x}?",
            ),
        )


def _diff_ci(a: np.ndarray, b: np.ndarray, level: float) -> tuple[float, float]:
    """Welch interval of mean(a) − mean(b); exact when both are single (deterministic) values."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    diff = float(a.mean() - b.mean())
    var = (a.var(ddof=1) / a.size if a.size > 1 else 0.0) + (
        b.var(ddof=1) / b.size if b.size > 1 else 0.0
    )
    if var == 0:
        return diff, diff
    va = a.var(ddof=1) / a.size if a.size > 1 else 0.0
    vb = b.var(ddof=1) / b.size if b.size > 1 else 0.0
    df_terms = (va**2 / (a.size - 1) if a.size > 1 else 0.0) + (
        vb**2 / (b.size - 1) if b.size > 1 else 0.0
    )
    dof = var**2 / df_terms if df_terms > 0 else math.inf
    # Student's t quantile: scipy.stats.t.ppf is this function (and importing scipy.stats
    # costs every process that loads a claim ~0.3 s)
    half = float(special.stdtrit(dof, 0.5 + level / 2)) * math.sqrt(var)
    return diff - half, diff + half
