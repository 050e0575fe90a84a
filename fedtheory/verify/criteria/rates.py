"""Rates: the measured quantity scales like a power of a parameter (a log-log slope)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory import stats
from fedtheory.bounds import Bound, Exponent
from fedtheory.errors import ParameterError
from fedtheory.plotting.model import FigureSpec, Series
from fedtheory.verify.criteria._base import (
    Criterion,
    _check_level,
    _check_name,
    _group_label,
)
from fedtheory.verify.criteria._pairwise import _bound_source, _BoundSource
from fedtheory.verify.measurements import Measurements
from fedtheory.verify.verdict import (
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    combine_outcomes,
)
from fedtheory.verify.verdict import format_number as _fmt

__all__ = ["RateExponent"]


# --------------------------------------------------------------------------- rate exponent


@dataclass(frozen=True)
class _RateFit:
    """A curve's exponent with its interval, and the fitted curve (for the figure)."""

    slope: float
    low: float
    high: float
    fitted: np.ndarray
    r_squared: float = math.nan
    floor: float = math.nan
    floor_low: float = math.nan
    floor_high: float = math.nan
    at_bound: bool = False


class RateExponent(Criterion):
    """The measured quantity scales like ``x**expected`` (a log-log slope).

    For each curve the slope of log(mean y) against log x is fitted by least squares over the
    points with ``x >= x_min``; its confidence interval is a stratified bootstrap (replicates
    resampled within each point, percentile interval). With ``floor=True`` the curve is instead
    fitted as ``a + b·x^k`` (a power law approaching a floor ``a``, e.g. an error floor due to
    heterogeneity or noise) and ``k`` is judged, with a bootstrap interval of the refitted
    exponents (:func:`fedtheory.stats.floor_fit_ci`).

    - *holds*: the interval lies inside ``[expected − band, expected + band]`` and excludes
      every alternative;
    - *violated*: the interval does not meet the band at all;
    - *inconclusive*: otherwise (the interval is too wide for the band, an alternative cannot be
      excluded, or — with ``floor`` — the fitted exponent sits on the edge of the searched
      range) — the reason says which.

    With several curves the per-curve level is Bonferroni-corrected. With one replicate per
    point (a deterministic experiment) the interval is the fitted exponent itself.

    Parameters
    ----------
    x, y
        Varied parameter and output.
    expected
        Predicted exponent (e.g. ``-1`` for a 1/n rate; ``Bound.exponent(x).power`` gives it
        from a bound; ``Bound.exponent(x)`` itself may be passed, and when the bound's rate
        carries a log factor, e.g. ``T^-1·log(T)``, the description says that the fit is of
        the pure power and the log factor is not divided out — the band must allow for the
        slope it adds over the swept range) — or a registered
        :class:`~fedtheory.bounds.Bound`: the claim is then
        that the data scale *like the bound* along the sweep (its rate is attained), and the
        expected exponent of each curve is the least-squares slope of log(bound) against log x
        at the curve's points, the bound evaluated there as by :class:`UpperBoundHolds`
        (``bound_args``). This reads every symbol the bound has along the sweep, including
        those that move with x (e.g. ``mu``, ``beta`` and ``ell_inf`` under a rescaled loss).
    bound_args
        With a Bound as ``expected``: ``{symbol: output, parameter or number}`` as for
        :class:`UpperBoundHolds`.
    band
        Half-width of the tolerance band, > 0.
    alternatives
        ``{name: exponent}`` of rival predictions that the interval must exclude; each must lie
        outside the band (else the criterion could not tell them apart).
    x_min
        Fit only the asymptotic part of the curve.
    floor
        Fit ``a + b·x^k`` instead of a pure power law (needs at least 4 points per curve).
    level, n_resamples
        Bootstrap settings.
    """

    min_points = 3
    bootstrap = True

    def __init__(
        self,
        x: str,
        y: str,
        *,
        expected: float | Bound | Exponent,
        bound_args: Mapping[str, str | float] | None = None,
        band: float = 0.1,
        alternatives: Mapping[str, float] | None = None,
        x_min: float | None = None,
        floor: bool = False,
        level: float = 0.95,
        n_resamples: int = 2000,
    ) -> None:
        self.x = _check_name(x, "x")
        self.y = _check_name(y, "y")
        self.source: _BoundSource | None = None
        #: The bound's rate when ``expected`` was an Exponent with a log factor ("" otherwise).
        self.log_rate = ""
        if isinstance(expected, Exponent):
            if expected.behaviour != "power" or not expected.power.is_real:
                raise ParameterError(
                    parameter="expected",
                    value=str(expected),
                    rule="must be a finite numeric power (not exponential, constant or symbolic)",
                )
            if expected.has_log_factor:
                self.log_rate = expected.rate_text()
            elif expected.has_log_factor is None:
                self.log_rate = f"{expected.rate_text()} up to log factors not determined"
            expected = float(expected.power)
        if isinstance(expected, Bound):
            self.source = _bound_source(expected, bound_args)
            self.expected = math.nan
        elif not isinstance(expected, (int, float)) or not math.isfinite(expected):
            raise ParameterError(
                parameter="expected", value=expected, rule="must be a number or a Bound"
            )
        else:
            if bound_args:
                raise ParameterError(
                    parameter="bound_args",
                    value=dict(bound_args),
                    rule="only meaningful when expected is a Bound",
                )
            self.expected = float(expected)
        if not isinstance(band, (int, float)) or not 0 < band < 10:
            raise ParameterError(parameter="band", value=band, rule="must be in (0, 10)")
        self.band = float(band)
        self.alternatives = {str(k): float(v) for k, v in (alternatives or {}).items()}
        if self.source is not None and (self.alternatives or floor):
            raise ParameterError(
                parameter="alternatives" if self.alternatives else "floor",
                value=self.alternatives or floor,
                rule="not available when expected is a Bound (its exponent varies by curve)",
            )
        for name, value in self.alternatives.items():
            if abs(value - self.expected) <= self.band:
                raise ParameterError(
                    parameter=f"alternatives[{name!r}]",
                    value=value,
                    rule=f"lies inside the band {self.expected:g} ± {self.band:g}; the criterion "
                    "could never exclude it",
                )
        self.x_min = x_min
        self.floor = bool(floor)
        self.min_points = 4 if self.floor else 3
        self.level = _check_level(level)
        if not isinstance(n_resamples, int) or n_resamples < 200:
            raise ParameterError(parameter="n_resamples", value=n_resamples, rule="must be >= 200")
        self.n_resamples = n_resamples

    def describe(self) -> str:
        alt = f", excluding {', '.join(self.alternatives)}" if self.alternatives else ""
        what = (
            f"exponent k of {self.y} ≈ a + b·{self.x}^k"
            if self.floor
            else (f"slope of {self.y} vs {self.x}")
        )
        logs = (
            f" (the bound's rate is {self.log_rate}; the fit is of a pure power)"
            if self.log_rate
            else ""
        )
        return f"{what} = {self._expected_text} ± {_fmt(self.band)}{alt}{logs}"

    @property
    def _expected_text(self) -> str:
        if self.source is None:
            return _fmt(self.expected)
        return f"slope of {self.source.label}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "RateExponent",
            "x": self.x,
            "y": self.y,
            "expected": self.expected if self.source is None else None,
            **({"expected_rate": self.log_rate} if self.log_rate else {}),
            **(self.source.to_dict() if self.source is not None else {}),
            "band": self.band,
            "alternatives": dict(self.alternatives),
            "x_min": self.x_min,
            "floor": self.floor,
            "level": self.level,
            "n_resamples": self.n_resamples,
        }

    def _fit(
        self, xs: np.ndarray, samples: list[np.ndarray], level: float, seed: np.random.SeedSequence
    ) -> _RateFit:
        if self.floor:
            fci = stats.floor_fit_ci(
                xs, samples, n_resamples=self.n_resamples, level=level, seed=seed
            )
            return _RateFit(
                slope=fci.fit.exponent,
                low=fci.exponent_low,
                high=fci.exponent_high,
                fitted=fci.fit.predict(xs),
                floor=fci.fit.floor,
                floor_low=fci.floor_low,
                floor_high=fci.floor_high,
                at_bound=fci.fit.at_bound,
            )
        sci = stats.slope_ci(xs, samples, n_resamples=self.n_resamples, level=level, seed=seed)
        return _RateFit(
            slope=sci.slope,
            low=sci.low,
            high=sci.high,
            fitted=sci.prefactor * xs**sci.slope,
            r_squared=sci.r_squared,
        )

    def _expected_slope(self, data: Measurements, points: list[Any], xs: np.ndarray) -> float:
        """The exponent a curve is held to: ``expected``, or the bound's own slope there."""
        if self.source is None:
            return self.expected
        values = np.array([float(np.mean(self.source.values(data, p))) for p in points])
        if not np.all(np.isfinite(values) & (values > 0)):
            raise ParameterError(
                parameter="expected",
                value=self.source.label,
                rule=f"must be finite and positive at every point of the curve (got {values})",
            )
        return float(np.polyfit(np.log(xs), np.log(values), 1)[0])

    def _decide(self, fit: _RateFit, expected: float) -> tuple[str, str]:
        lo_band, hi_band = expected - self.band, expected + self.band
        kept = [n for n, v in self.alternatives.items() if fit.low <= v <= fit.high]
        if fit.at_bound:
            return INCONCLUSIVE, "the fitted exponent sits on the edge of the searched range"
        if fit.high < lo_band or fit.low > hi_band:
            return VIOLATED, "the exponent's interval lies outside the band"
        if lo_band <= fit.low and fit.high <= hi_band and not kept:
            return HOLDS, "the exponent's interval lies inside the band"
        if kept:
            return INCONCLUSIVE, f"the interval still contains {', '.join(kept)}"
        return INCONCLUSIVE, "the interval is wider than the band allows"

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        x = self._required_x()
        outcomes, reasons, rows, series = [], [], [], []
        fits: list[_RateFit] = []
        expecteds: list[float] = []
        curves = self._curves(data)
        curve_level = stats.bonferroni(self.level, len(curves))
        for index, (key, curve) in enumerate(curves):
            pts = [p for p in curve.points if self.x_min is None or p.params[x] >= self.x_min]
            if len(pts) < self.min_points:
                raise ParameterError(
                    parameter="x_min",
                    value=self.x_min,
                    rule=f"leaves {len(pts)} points on curve {_group_label(key) or self.y}; "
                    f"need {self.min_points}",
                )
            xs = np.array([float(p.params[x]) for p in pts])
            samples = [np.asarray(p[self.y], dtype=float) for p in pts]
            fit = self._fit(xs, samples, curve_level, np.random.SeedSequence([seed, index]))
            fits.append(fit)
            expected = self._expected_slope(data, pts, xs)
            expecteds.append(expected)
            outcome, why = self._decide(fit, expected)
            label = _group_label(key)
            outcomes.append(outcome)
            reasons.append(
                f"{label + ': ' if label else ''}exponent {_fmt(fit.slope, 4)} "
                f"[{_fmt(fit.low, 4)}, {_fmt(fit.high, 4)}] — {why}"
            )
            row = {
                **key,
                "exponent": fit.slope,
                "ci_low": fit.low,
                "ci_high": fit.high,
                "expected": expected,
            }
            if self.floor:
                row.update(floor=fit.floor, floor_low=fit.floor_low, floor_high=fit.floor_high)
            else:
                row["r_squared"] = fit.r_squared
            rows.append({**row, "points": len(xs), "outcome": outcome})
            means = [stats.mean_ci(s, level=self.level) for s in samples]
            all_x = [float(p.params[x]) for p in curve.points]
            all_y = [float(np.mean(p[self.y])) for p in curve.points]
            series.append(
                Series(
                    f"measured {self.y}",
                    tuple(all_x),
                    tuple(all_y),
                    "measured",
                    tuple(_cat([m.low for m in means], len(all_x), len(xs))),
                    tuple(_cat([m.high for m in means], len(all_x), len(xs))),
                    label,
                )
            )
            fit_label = (
                f"fit {_fmt(fit.floor, 3)} + b·x^{_fmt(fit.slope, 3)}"
                if self.floor
                else f"fit x^{_fmt(fit.slope, 3)}"
            )
            series.append(Series(fit_label, tuple(xs), tuple(fit.fitted), "fit", group=label))
            if not self.floor:
                anchor = float(np.exp(np.mean(np.log(fit.fitted))))
                gmean_x = float(np.exp(np.mean(np.log(xs))))
                series.append(
                    Series(
                        f"predicted x^{_fmt(expected, 3)}",
                        tuple(xs),
                        tuple(anchor * (xs / gmean_x) ** expected),
                        "reference",
                        group=label,
                    )
                )
        outcome = combine_outcomes(outcomes)
        # summarise the curve that decided the outcome (the first violated / inconclusive one)
        decisive = outcomes.index(outcome)
        fit, expected = fits[decisive], expecteds[decisive]
        numbers = {
            "expected": expected,
            "exponent": fit.slope,
            "ci_low": fit.low,
            "ci_high": fit.high,
            "curves": float(len(fits)),
        }
        if self.floor:
            numbers.update(floor=fit.floor, floor_low=fit.floor_low, floor_high=fit.floor_high)
        else:
            numbers["r_squared"] = fit.r_squared
        alt = "".join(f"; not {n} ({_fmt(v)})" for n, v in self.alternatives.items())
        name = "exponent" if self.floor else "slope"
        return Verdict(
            outcome,
            "; ".join(reasons),
            predicted=f"{name} {_fmt(expected, 4)} ± {_fmt(self.band)}{alt}"
            + ("" if self.source is None else f" (of {self.source.label})"),
            measured=f"{name} {_fmt(fit.slope, 4)}",
            ci=(fit.low, fit.high),
            numbers=numbers,
            table=tuple(rows),
            figure=FigureSpec(
                x_label=x,
                y_label=self.y,
                series=tuple(series),
                x_log=True,
                y_log=True,
                title=(
                    f"{self.y} ≈ a + b·{x}^{_fmt(expected, 3)}?"
                    if self.floor
                    else f"{self.y} ∝ {x}^{_fmt(expected, 3)}?"
                ),
            ),
        )


def _cat(values: list[float], total: int, used: int) -> list[float]:
    # means over every point of the curve; the fit may skip the first ones (x_min)
    return [math.nan] * (total - used) + values if len(values) == used else values
