"""The criterion interface and the helpers every family of criteria shares."""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.sweep import Sweep
from fedtheory.verify.verdict import Verdict

__all__ = ["MIN_BOOTSTRAP_REPLICATES", "Criterion"]


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
    """Base class: turns :class:`~fedtheory.verify.measurements.Measurements` into a Verdict.

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


def _log_friendly(values: Sequence[float]) -> bool:
    arr = np.asarray(values, dtype=float)
    return bool(arr.size > 1 and (arr > 0).all() and arr.max() / arr.min() >= 20)
