"""Pass criteria: how measurements become a verdict (DESIGN §5).

Every criterion says ``holds``, ``violated`` or ``inconclusive`` and reports the numbers behind
the decision. The rules, common to all criteria:

- **Monte-Carlo error is accounted for.** A statement about an expectation is judged on a
  confidence interval of the mean, never on the point estimate alone. Intervals that are checked
  simultaneously at several grid points use a Bonferroni-corrected level, so the family-wise
  chance of a false "violated" stays at ``1 - level``.
- **Deterministic data is exact.** A point with a single replicate (a deterministic experiment)
  contributes its value with no interval; statements about every replicate (``over="every"``)
  are checked replicate by replicate and a failure is a reproducible counterexample.
- **Curves.** When a sweep varies more than the criterion's axis ``x``, the criterion is applied
  to each curve (one per combination of the other varied parameters) and the outcomes are
  combined: violated if any curve is violated, else inconclusive if any is, else holds.
- **Inconclusive** always says why (interval too wide, an alternative not excluded, ...).

A criterion that cannot fail is a defect: every class here validates its thresholds at
construction (e.g. an alternative exponent inside the tolerance band is refused).
"""

from __future__ import annotations

import abc
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from scipy import stats as scipy_stats

from fedtheory import stats
from fedtheory.errors import ParameterError
from fedtheory.verify.claim import (
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    FigureSpec,
    Measurements,
    PointMeasurements,
    Series,
    Sweep,
    Verdict,
    combine_outcomes,
)
from fedtheory.verify.claim import format_number as _fmt

if TYPE_CHECKING:  # pragma: no cover
    from fedtheory.bounds import Bound

__all__ = [
    "Criterion",
    "Crossing",
    "Identity",
    "LowerBoundHolds",
    "Monotone",
    "RateExponent",
    "UpperBoundHolds",
]


#: Fewest replicates per point a bootstrap criterion accepts (besides 1, a deterministic point):
#: with 2–7 replicates the percentile bootstrap under-covers badly.
MIN_BOOTSTRAP_REPLICATES = 8


def _check_level(level: float) -> float:
    if not isinstance(level, (int, float)) or not 0.5 <= level < 1:
        raise ParameterError(parameter="level", value=level, rule="must be in [0.5, 1)")
    return float(level)


def _check_name(name: Any, parameter: str) -> str:
    if not isinstance(name, str) or not name:
        raise ParameterError(parameter=parameter, value=name, rule="must be a non-empty name")
    return name


def _point_label(params: Mapping[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{n}={params[n]}" for n in names)


def _group_label(key: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in key.items())


def _counterexample(
    data: Measurements, point: PointMeasurements, index: int, **numbers: float
) -> dict[str, Any]:
    return {
        "claim": data.claim_id,
        "params": dict(point.params),
        "replicate": int(point.replicates[index]),
        "seed": int(point.seeds[index]),
        **{k: float(v) for k, v in numbers.items()},
    }


class Criterion(abc.ABC):
    """Base class: turns :class:`~fedtheory.verify.claim.Measurements` into a Verdict.

    Subclasses implement :meth:`judge`, :meth:`describe` and :meth:`to_dict`, and declare the
    axis parameter they need varied (``x``) and the minimum number of points along it.
    """

    #: Name of the varied parameter the criterion reads along (None: any point set).
    x: str | None = None
    #: Minimum number of distinct values of ``x`` per curve.
    min_points: int = 1
    #: Minimum replicates per point (e.g. 2 for statements about an expectation).
    min_replicates: int = 1
    #: True for criteria whose interval is a bootstrap over replicates.
    bootstrap: bool = False

    def check_sweep(self, sweep: Sweep, *, where: str = "sweep") -> None:
        """Refuse a sweep this criterion cannot judge (raises ParameterError)."""
        if self.x is not None:
            if self.x not in sweep.varied:
                raise ParameterError(
                    parameter=where,
                    value=list(sweep.varied),
                    rule=f"{type(self).__name__} reads along {self.x!r}, which must be varied",
                )
            n_values = len({p[self.x] for p in sweep.points()})
            if n_values < self.min_points:
                raise ParameterError(
                    parameter=where,
                    value=n_values,
                    rule=f"{type(self).__name__} needs at least {self.min_points} values of "
                    f"{self.x!r}",
                )
            if not all(isinstance(p[self.x], (int, float)) for p in sweep.points()):
                raise ParameterError(
                    parameter=where, value=self.x, rule="the axis parameter must be numeric"
                )
        if sweep.replicates < self.min_replicates:
            raise ParameterError(
                parameter=where,
                value=sweep.replicates,
                rule=f"{type(self).__name__} needs at least {self.min_replicates} replicates",
            )
        if self.bootstrap and 1 < sweep.replicates < MIN_BOOTSTRAP_REPLICATES:
            raise ParameterError(
                parameter=where,
                value=sweep.replicates,
                rule=f"{type(self).__name__} resamples replicates: use 1 (a deterministic "
                f"experiment) or at least {MIN_BOOTSTRAP_REPLICATES} (fewer make the percentile "
                "bootstrap interval too narrow)",
            )

    @abc.abstractmethod
    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        """The verdict on the measurements; ``seed`` drives any resampling."""

    @abc.abstractmethod
    def describe(self) -> str:
        """One line: what is checked (shown in the catalog and the verdict table)."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Plain-data description (name and parameters) for verdicts.json."""

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if k != "criterion")
        return f"{type(self).__name__}({args})"

    def _required_x(self) -> str:
        if self.x is None:  # pragma: no cover - constructors of axis criteria set it
            raise ParameterError(parameter="x", value=None, rule="this criterion needs an axis")
        return self.x

    def _axis(self, data: Measurements) -> str:
        return self.x if self.x is not None else (data.varied[0] if data.varied else "")

    def _curves(self, data: Measurements) -> list[tuple[dict[str, Any], Measurements]]:
        axis = self._axis(data)
        if not axis:
            return [({}, data)]
        return data.groups(axis)


# --------------------------------------------------------------------------- bound values


@dataclass(frozen=True)
class _BoundSource:
    """Per-replicate values of a bound: an output column or a Bound evaluated on the data."""

    bound: Bound | str
    args: Mapping[str, str | float]

    @property
    def label(self) -> str:
        return self.bound if isinstance(self.bound, str) else self.bound.id

    def values(self, data: Measurements, point: PointMeasurements) -> np.ndarray:
        if isinstance(self.bound, str):
            return np.asarray(data.value_or_param(self.bound, point), dtype=float)
        kwargs: dict[str, Any] = {}
        for name in self.bound.symbols:
            source = self.args.get(name, name)
            if isinstance(source, (int, float)):
                kwargs[name] = float(source)
            else:
                kwargs[name] = data.value_or_param(source, point)
        values = np.asarray(self.bound.evaluate(**kwargs), dtype=float)
        return np.broadcast_to(values, (point.n,)).astype(float)

    def to_dict(self) -> dict[str, Any]:
        return {"bound": self.label, "bound_args": dict(self.args)}


def _bound_source(bound: Any, bound_args: Mapping[str, str | float] | None) -> _BoundSource:
    from fedtheory.bounds import Bound

    if not isinstance(bound, (str, Bound)):
        raise ParameterError(
            parameter="bound", value=bound, rule="must be a Bound or the name of an output"
        )
    args = dict(bound_args or {})
    if isinstance(bound, Bound):
        unknown = sorted(set(args) - set(bound.symbols))
        if unknown:
            raise ParameterError(
                parameter="bound_args",
                value=unknown,
                rule=f"{bound.id} has symbols {', '.join(sorted(bound.symbols))}",
            )
    elif args:
        raise ParameterError(
            parameter="bound_args", value=args, rule="only meaningful when bound is a Bound"
        )
    return _BoundSource(bound, args)


# --------------------------------------------------------------------------- pointwise comparison


@dataclass(frozen=True)
class _PointCheck:
    """A comparison at one grid point: its outcome, how bad its worst replicate is, its row."""

    outcome: str
    score: float  # larger is worse; the worst point supplies the counterexample
    index: int  # the replicate behind ``score``
    row: dict[str, Any]
    band: tuple[float, float]  # shaded around the measured mean on the figure


@dataclass(frozen=True)
class _Comparison:
    outcomes: list[str]
    rows: list[dict[str, Any]]
    series: list[Series]
    worst: tuple[float, PointMeasurements, int, float, float]  # score, point, index, y, ref
    axis: str


class _PairwiseCriterion(Criterion):
    """Criteria comparing an output with a reference (a bound, another output) point by point."""

    source: _BoundSource
    level: float

    def _check_point(
        self, point: PointMeasurements, measured: np.ndarray, reference: np.ndarray, level: float
    ) -> _PointCheck:
        raise NotImplementedError

    def _compare(self, data: Measurements, measured_name: str) -> _Comparison:
        """Check every point (at the Bonferroni level over points) and collect the curves."""
        axis = self._axis(data)
        level = stats.bonferroni(self.level, len(data.points))
        outcomes: list[str] = []
        rows: list[dict[str, Any]] = []
        series: list[Series] = []
        worst: tuple[float, PointMeasurements, int, float, float] | None = None
        for key, curve in self._curves(data):
            xs, means, lows, highs, references = [], [], [], [], []
            for point in curve.points:
                measured = np.asarray(point[measured_name], dtype=float)
                reference = self.source.values(data, point)
                check = self._check_point(point, measured, reference, level)
                outcomes.append(check.outcome)
                rows.append({**{n: point.params[n] for n in data.varied}, **check.row})
                i = check.index
                if worst is None or check.score > worst[0]:
                    worst = (check.score, point, i, float(measured[i]), float(reference[i]))
                if axis:
                    xs.append(float(point.params[axis]))
                    means.append(float(measured.mean()))
                    lows.append(check.band[0])
                    highs.append(check.band[1])
                    references.append(float(reference.mean()))
            if axis:
                group = _group_label(key)
                series.append(
                    Series(
                        f"measured {measured_name}",
                        tuple(xs),
                        tuple(means),
                        "measured",
                        tuple(lows),
                        tuple(highs),
                        group,
                    )
                )
                series.append(
                    Series(self.source.label, tuple(xs), tuple(references), "bound", group=group)
                )
        assert worst is not None
        return _Comparison(outcomes, rows, series, worst, axis)

    def _figure(
        self,
        data: Measurements,
        comparison: _Comparison,
        y_label: str,
        title: str,
        band_label: str,
    ) -> FigureSpec | None:
        if not comparison.axis:
            return None
        values = [v for s in comparison.series for v in (*s.y, *(s.low or ()))]
        return FigureSpec(
            x_label=comparison.axis,
            y_label=y_label,
            series=tuple(comparison.series),
            x_log=_log_friendly(data.param(comparison.axis).astype(float).tolist()),
            y_log=all(v > 0 for v in values if math.isfinite(v)),
            title=title,
            band_label=band_label,
        )


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
            "outcome": outcome,
        }
        return _PointCheck(outcome, score, index, row, band)

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

    Notes
    -----
    The report gives ``bound / measured`` (the slack ratio) at every point and its range.
    """

    side = 1.0
    relation = "≤"


class LowerBoundHolds(_BoundHolds):
    """The measured quantity is never below the bound (mirror of :class:`UpperBoundHolds`).

    ``bound / measured`` ≤ 1 then measures how tight the lower bound is.
    """

    side = -1.0
    relation = "≥"


def _log_friendly(values: Sequence[float]) -> bool:
    arr = np.asarray(values, dtype=float)
    return bool(arr.size > 1 and (arr > 0).all() and arr.max() / arr.min() >= 20)


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
        from a bound).
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
        expected: float,
        band: float = 0.1,
        alternatives: Mapping[str, float] | None = None,
        x_min: float | None = None,
        floor: bool = False,
        level: float = 0.95,
        n_resamples: int = 2000,
    ) -> None:
        self.x = _check_name(x, "x")
        self.y = _check_name(y, "y")
        if not isinstance(expected, (int, float)) or not math.isfinite(expected):
            raise ParameterError(parameter="expected", value=expected, rule="must be a number")
        self.expected = float(expected)
        if not isinstance(band, (int, float)) or not 0 < band < 10:
            raise ParameterError(parameter="band", value=band, rule="must be in (0, 10)")
        self.band = float(band)
        self.alternatives = {str(k): float(v) for k, v in (alternatives or {}).items()}
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
        return f"{what} = {_fmt(self.expected)} ± {_fmt(self.band)}{alt}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "criterion": "RateExponent",
            "x": self.x,
            "y": self.y,
            "expected": self.expected,
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

    def _decide(self, fit: _RateFit) -> tuple[str, str]:
        lo_band, hi_band = self.expected - self.band, self.expected + self.band
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
            outcome, why = self._decide(fit)
            label = _group_label(key)
            outcomes.append(outcome)
            reasons.append(
                f"{label + ': ' if label else ''}exponent {_fmt(fit.slope, 4)} "
                f"[{_fmt(fit.low, 4)}, {_fmt(fit.high, 4)}] — {why}"
            )
            row = {**key, "exponent": fit.slope, "ci_low": fit.low, "ci_high": fit.high}
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
                        f"predicted x^{_fmt(self.expected)}",
                        tuple(xs),
                        tuple(anchor * (xs / gmean_x) ** self.expected),
                        "reference",
                        group=label,
                    )
                )
        outcome = combine_outcomes(outcomes)
        # summarise the curve that decided the outcome (the first violated / inconclusive one)
        fit = fits[outcomes.index(outcome)]
        numbers = {
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
            predicted=f"{name} {_fmt(self.expected)} ± {_fmt(self.band)}{alt}",
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
                    f"{self.y} ≈ a + b·{x}^{_fmt(self.expected)}?"
                    if self.floor
                    else f"{self.y} ∝ {x}^{_fmt(self.expected)}?"
                ),
            ),
        )


def _cat(values: list[float], total: int, used: int) -> list[float]:
    # means over every point of the curve; the fit may skip the first ones (x_min)
    return [math.nan] * (total - used) + values if len(values) == used else values


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
        return _PointCheck(outcome, score, index, row, (float(a.min()), float(a.max())))

    def judge(self, data: Measurements, *, seed: int = 0) -> Verdict:
        comparison = self._compare(data, self.a)
        rows = comparison.rows
        outcome = combine_outcomes(comparison.outcomes)
        score, point, index, a_value, b_value = comparison.worst
        max_rel = max(r["max_rel_diff"] for r in rows)
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
            what = "rel. diff" if self.over == "every" else "rel. diff of the means"
            reason = f"equal within tolerance at all {len(rows)} points (max {what} {max_rel:.2g})"
        return Verdict(
            outcome,
            reason,
            predicted=f"{self.a} = {self.source.label}",
            measured=f"max rel. diff {max_rel:.2g}"
            + ("" if self.over == "every" else " (of the means)"),
            numbers={"max_rel_diff": max_rel, "worst_tolerance_ratio": score},
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
    half = float(scipy_stats.t.ppf(0.5 + level / 2, dof)) * math.sqrt(var)
    return diff - half, diff + half
