"""Crossings: where two measured curves meet, and how that location scales."""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

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
from fedtheory.verify.sweep import Sweep
from fedtheory.verify.verdict import (
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    combine_outcomes,
)
from fedtheory.verify.verdict import format_number as _fmt

__all__ = ["Crossing"]


# --------------------------------------------------------------------------- crossing


class Crossing(Criterion):
    """Two measured curves cross along ``x``, optionally at a predicted location.

    At each point the difference of the means of ``a`` and ``b`` is formed; the crossing is its
    first sign change, interpolated linearly in log x (in x when the grid contains 0); its
    interval comes from a stratified bootstrap (:func:`fedtheory.stats.find_crossing`).

    - Without ``expected``: *holds* when the curves cross in the grid in all but at most
      ``1 − level`` of the resamples; *violated* when they do not cross in at least ``level`` of
      them (confidently no crossing in the grid), or cross in the wrong ``direction``.
    - With ``expected`` (a location, or the name of a parameter holding it): *holds* when the
      crossing's interval lies inside ``[expected / factor, expected · factor]``; *violated* when
      it is confidently absent or its interval misses that band; *inconclusive* otherwise.

    Parameters
    ----------
    x, a, b
        Axis and the two outputs.
    expected
        Predicted location (number, or a parameter name), optional.
    factor
        Multiplicative tolerance of the location (> 1).
    direction
        ``"a-below-b-after"`` (a starts above b and ends below) or ``"a-above-b-after"``;
        optional.
    scaling
        ``(name, exponent)``: the prediction that the crossing scales like ``name**exponent``
        across the curves (the sweep must vary exactly ``x`` and ``name``, with at least three
        values of ``name``). The log-log slope of the crossings against ``name`` gets a
        bootstrap interval (each curve's crossing resampled as in ``find_crossing``; a
        resample counts only if every curve crosses in it). *Holds* when the interval lies in
        ``exponent ± scaling_band``, *violated* when it misses that band, *inconclusive*
        otherwise or when the crossings cannot all be located. Combined with the per-curve
        checks above.
    scaling_band
        Half-width of the tolerance band of the scaling exponent.
    """

    min_points = 3
    bootstrap = True

    def __init__(
        self,
        x: str,
        a: str,
        b: str,
        *,
        expected: float | str | None = None,
        factor: float = 2.0,
        direction: Literal["a-below-b-after", "a-above-b-after"] | None = None,
        scaling: tuple[str, float] | None = None,
        scaling_band: float = 0.1,
        level: float = 0.95,
        n_resamples: int = 2000,
    ) -> None:
        self.x = _check_name(x, "x")
        self.a = _check_name(a, "a")
        self.b = _check_name(b, "b")
        if scaling is not None:
            if (
                not isinstance(scaling, tuple)
                or len(scaling) != 2
                or not isinstance(scaling[1], (int, float))
                or not math.isfinite(scaling[1])
            ):
                raise ParameterError(
                    parameter="scaling", value=scaling, rule="must be (parameter name, exponent)"
                )
            scaling = (_check_name(scaling[0], "scaling"), float(scaling[1]))
            if scaling[0] == self.x:
                raise ParameterError(
                    parameter="scaling",
                    value=scaling,
                    rule=f"must name a parameter other than {x!r}",
                )
        self.scaling = scaling
        if not isinstance(scaling_band, (int, float)) or not 0 < scaling_band < 10:
            raise ParameterError(
                parameter="scaling_band", value=scaling_band, rule="must be in (0, 10)"
            )
        self.scaling_band = float(scaling_band)
        if expected is not None and not isinstance(expected, (str, int, float)):
            raise ParameterError(parameter="expected", value=expected, rule="number or name")
        if isinstance(expected, (int, float)) and not expected > 0:
            raise ParameterError(parameter="expected", value=expected, rule="must be > 0")
        self.expected = expected
        if not isinstance(factor, (int, float)) or not factor > 1:
            raise ParameterError(parameter="factor", value=factor, rule="must be > 1")
        self.factor = float(factor)
        if direction not in (None, "a-below-b-after", "a-above-b-after"):
            raise ParameterError(
                parameter="direction",
                value=direction,
                rule="must be 'a-below-b-after' or 'a-above-b-after'",
            )
        self.direction = direction
        self.level = _check_level(level)
        if not isinstance(n_resamples, int) or n_resamples < 200:
            raise ParameterError(parameter="n_resamples", value=n_resamples, rule="must be >= 200")
        self.n_resamples = n_resamples

    def describe(self) -> str:
        where = (
            ""
            if self.expected is None
            else f" at {self._expected_text()} (×/÷ {_fmt(self.factor)})"
        )
        scaling = (
            ""
            if self.scaling is None
            else f", crossing ∝ {self.scaling[0]}^{_fmt(self.scaling[1])} ± "
            f"{_fmt(self.scaling_band)}"
        )
        return f"{self.a} and {self.b} cross along {self.x}{where}{scaling}"

    def check_sweep(self, sweep: Sweep, *, where: str = "sweep") -> None:
        super().check_sweep(sweep, where=where)
        if self.scaling is None:
            return
        by = self.scaling[0]
        if set(sweep.varied) != {self.x, by}:
            raise ParameterError(
                parameter=where,
                value=list(sweep.varied),
                rule=f"Crossing with scaling needs exactly {self.x!r} and {by!r} varied",
            )
        values = {p[by] for p in sweep.points()}
        if len(values) < 3 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in values
        ):
            raise ParameterError(
                parameter=where,
                value=sorted(values, key=str),
                rule=f"the scaling parameter {by!r} needs at least 3 positive numeric values",
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "Crossing",
            "x": self.x,
            "a": self.a,
            "b": self.b,
            "expected": self.expected,
            "factor": self.factor,
            "direction": self.direction,
            "scaling": None if self.scaling is None else list(self.scaling),
            "scaling_band": self.scaling_band,
            "level": self.level,
            "n_resamples": self.n_resamples,
        }

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        x = self._required_x()
        outcomes, reasons, rows, series = [], [], [], []
        estimates: list[stats.CrossingEstimate] = []
        draws: list[np.ndarray] = []
        by_values: list[float] = []
        curves = self._curves(data)
        curve_level = stats.bonferroni(self.level, len(curves))
        for index, (key, curve) in enumerate(curves):
            xs = curve.param(x).astype(float)
            a = [np.asarray(p[self.a], dtype=float) for p in curve.points]
            b = [np.asarray(p[self.b], dtype=float) for p in curve.points]
            curve_seed = np.random.SeedSequence([seed, index])
            log_x = bool(np.all(xs > 0))  # a grid starting at 0 is interpolated linearly
            est = stats.find_crossing(
                xs,
                a,
                b,
                log_x=log_x,
                n_resamples=self.n_resamples,
                level=curve_level,
                seed=curve_seed,
            )
            estimates.append(est)
            if self.scaling is not None:
                draws.append(
                    stats.crossing_draws(
                        xs,
                        a,
                        b,
                        log_x=log_x,
                        n_resamples=self.n_resamples,
                        seed=np.random.SeedSequence([seed, index]),
                    )
                )
                by_values.append(float(key[self.scaling[0]]))
            expected = self._expected(curve)
            label = _group_label(key)
            if est.fraction_without_crossing >= curve_level:
                outcome, why = VIOLATED, "the curves do not cross in the grid"
            elif (
                self.direction and est.found and not est.ci_open and est.direction != self.direction
            ):
                outcome, why = VIOLATED, f"they cross the other way ({est.direction})"
            elif not est.found or est.ci_open:
                outcome, why = INCONCLUSIVE, "the data cannot locate the crossing"
            elif expected is None:
                outcome, why = HOLDS, "the curves cross"
            else:
                lo, hi = expected / self.factor, expected * self.factor
                if est.high < lo or est.low > hi:
                    outcome, why = VIOLATED, f"the crossing misses [{_fmt(lo)}, {_fmt(hi)}]"
                elif lo <= est.low and est.high <= hi:
                    outcome, why = HOLDS, f"the crossing lies in [{_fmt(lo)}, {_fmt(hi)}]"
                else:
                    outcome, why = INCONCLUSIVE, "the crossing's interval is too wide"
            outcomes.append(outcome)
            reasons.append(
                f"{label + ': ' if label else ''}crossing at {_fmt(est.x)} "
                f"[{_fmt(est.low)}, {_fmt(est.high)}] — {why}"
            )
            rows.append(
                {
                    **key,
                    "crossing": est.x,
                    "ci_low": est.low,
                    "ci_high": est.high,
                    "expected": expected,
                    "no_crossing_fraction": est.fraction_without_crossing,
                    "crossings": est.n_crossings,
                    "outcome": outcome,
                }
            )
            for name, samples in ((self.a, a), (self.b, b)):
                cis = [stats.mean_ci(s, level=self.level) for s in samples]
                series.append(
                    Series(
                        name,
                        tuple(xs),
                        tuple(c.mean for c in cis),
                        "measured",
                        tuple(c.low for c in cis),
                        tuple(c.high for c in cis),
                        f"{label} {name}".strip(),
                    )
                )
            span = [v for c in (a, b) for v in (min(map(np.mean, c)), max(map(np.mean, c)))]
            y_span = (float(min(span)), float(max(span)))
            if math.isfinite(est.x):
                series.append(
                    Series(
                        f"measured crossing {_fmt(est.x)}",
                        (est.x, est.x),
                        y_span,
                        "fit",
                        group=label,
                    )
                )
            if expected is not None:
                series.append(
                    Series(
                        f"predicted crossing {_fmt(expected)}",
                        (expected, expected),
                        y_span,
                        "reference",
                        group=label,
                    )
                )
        numbers: dict[str, float] = {}
        scaling_ci = None
        if self.scaling is not None:
            scaling_outcome, why, slope, scaling_ci = self._judge_scaling(
                estimates, draws, by_values
            )
            outcomes.append(scaling_outcome)
            reasons.append(why)
            numbers.update(
                {
                    "scaling_slope": slope,
                    "scaling_ci_low": scaling_ci[0],
                    "scaling_ci_high": scaling_ci[1],
                }
            )
        outcome = combine_outcomes(outcomes)
        # summarise the curve that decided the outcome (the first violated / inconclusive one)
        deciding = outcomes.index(outcome)
        first = estimates[deciding] if deciding < len(estimates) else estimates[0]
        numbers = {"crossing": first.x, "ci_low": first.low, "ci_high": first.high, **numbers}
        return Verdict(
            outcome,
            "; ".join(reasons),
            predicted="crossing"
            + ("" if self.expected is None else f" at {self._expected_text()}"),
            measured=f"crossing at {_fmt(first.x)}",
            ci=None if first.ci_open else (first.low, first.high),
            numbers=numbers,
            table=tuple(rows),
            figure=FigureSpec(
                x_label=x,
                y_label=f"{self.a}, {self.b}",
                series=tuple(series),
                x_log=_log_friendly(data.param(x).astype(float).tolist()),
                y_log=all(v > 0 for s in series for v in s.y),
                title=f"{self.a} vs {self.b}",
            ),
        )

    def _judge_scaling(
        self,
        estimates: list[stats.CrossingEstimate],
        draws: list[np.ndarray],
        by_values: list[float],
    ) -> tuple[str, str, float, tuple[float, float]]:
        assert self.scaling is not None
        name, expected = self.scaling
        lo_band, hi_band = expected - self.scaling_band, expected + self.scaling_band
        u = np.log(np.asarray(by_values))
        prefix = f"crossing ∝ {name}^{_fmt(expected)}: "
        if not all(e.found for e in estimates):
            return INCONCLUSIVE, prefix + "not every curve crosses", math.nan, (math.nan, math.nan)
        slope = stats.fit_power_law(by_values, [e.x for e in estimates]).exponent
        table = np.log(np.column_stack(draws))  # (resamples, curves); NaN: no crossing
        complete = np.isfinite(table).all(axis=1)
        if complete.mean() < self.level:
            return (
                INCONCLUSIVE,
                prefix + f"only {complete.mean():.0%} of the resamples locate every crossing",
                slope,
                (math.nan, math.nan),
            )
        v = table[complete]
        uc = u - u.mean()
        slopes = (v - v.mean(axis=1, keepdims=True)) @ uc / (uc @ uc)
        tail = (1 - self.level) / 2
        low, high = (float(q) for q in np.quantile(slopes, [tail, 1 - tail]))
        text = f"slope {_fmt(slope, 4)} [{_fmt(low, 4)}, {_fmt(high, 4)}]"
        if high < lo_band or low > hi_band:
            return VIOLATED, prefix + text + " — outside the band", slope, (low, high)
        if lo_band <= low and high <= hi_band:
            return HOLDS, prefix + text + " — inside the band", slope, (low, high)
        return INCONCLUSIVE, prefix + text + " — wider than the band", slope, (low, high)

    def _expected_text(self) -> str:
        return (
            _fmt(self.expected) if isinstance(self.expected, (int, float)) else str(self.expected)
        )

    def _expected(self, curve: Measurements) -> float | None:
        if self.expected is None or isinstance(self.expected, (int, float)):
            return None if self.expected is None else float(self.expected)
        values = {float(p.params[self.expected]) for p in curve.points}
        if len(values) != 1:
            raise ParameterError(
                parameter="expected",
                value=self.expected,
                rule="must name a parameter constant along each curve",
            )
        return values.pop()
