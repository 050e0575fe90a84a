"""Point-by-point comparison of an output with a reference (a bound, another output).

The machinery behind :class:`~fedtheory.verify.criteria.UpperBoundHolds`,
:class:`~fedtheory.verify.criteria.LowerBoundHolds` and
:class:`~fedtheory.verify.criteria.Identity`: the reference's per-replicate values, one check
per grid point at the Bonferroni level, the curves of the figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory import stats
from fedtheory.bounds import Bound
from fedtheory.errors import ParameterError
from fedtheory.plotting.model import FigureSpec, Series
from fedtheory.verify.criteria._base import Criterion, _group_label, _log_friendly
from fedtheory.verify.measurements import Measurements, PointMeasurements

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
