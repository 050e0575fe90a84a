"""Measurements: the replicates of an experiment, read back from the store in sweep order.

Criteria (:mod:`fedtheory.verify.criteria`) judge :class:`Measurements`; the runner builds them
(DESIGN §5–§6).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError

__all__ = ["Measurements", "PointMeasurements"]


@dataclass(frozen=True)
class PointMeasurements:
    """The replicates measured at one parameter point.

    Attributes
    ----------
    params
        The full parameter dict (fixed and varied).
    replicates, seeds
        Replicate indices (sorted) and the seed each replicate ran with.
    values
        ``{output name: array of one value per replicate}``.
    """

    params: dict[str, Any]
    replicates: np.ndarray
    seeds: np.ndarray
    values: dict[str, np.ndarray]

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.values[name]
        except KeyError:
            raise ParameterError(
                parameter="output",
                value=name,
                rule=f"the experiment returned only {', '.join(sorted(self.values))}",
            ) from None

    @property
    def n(self) -> int:
        """Number of replicates."""
        return len(self.replicates)


@dataclass(frozen=True)
class Measurements:
    """Everything measured for one claim under one profile, in sweep order.

    Criteria read it; the order of points and replicates is the sweep's, never the order in
    which results arrived, so verdicts do not depend on the executor.
    """

    claim_id: str
    varied: tuple[str, ...]
    points: tuple[PointMeasurements, ...]

    def __len__(self) -> int:
        return len(self.points)

    def param(self, name: str) -> np.ndarray:
        """The value of parameter ``name`` at each point."""
        return np.array([p.params[name] for p in self.points])

    def column(self, name: str) -> list[np.ndarray]:
        """Per-point arrays of output ``name`` (one array of replicates per point)."""
        return [p[name] for p in self.points]

    def value_or_param(self, name: str, point: PointMeasurements) -> np.ndarray:
        """Per-replicate values of an output, or a parameter broadcast to the replicates."""
        if name in point.values:
            return point.values[name]
        if name in point.params:
            return np.full(point.n, point.params[name], dtype=float)
        raise ParameterError(
            parameter="name",
            value=name,
            rule=(
                f"{self.claim_id}: neither an output ({', '.join(sorted(point.values))}) nor a "
                f"parameter ({', '.join(sorted(point.params))})"
            ),
        )

    def groups(self, x: str) -> list[tuple[dict[str, Any], Measurements]]:
        """Split into curves along ``x``: one group per combination of the other varied values.

        Each group's points are sorted by ``x``. The group key holds the other varied values
        (empty when ``x`` is the only varied parameter).
        """
        others = [name for name in self.varied if name != x]
        buckets: dict[str, tuple[dict[str, Any], list[PointMeasurements]]] = {}
        for point in self.points:
            key = {name: point.params[name] for name in others}
            tag = json.dumps(key, sort_keys=True)
            buckets.setdefault(tag, (key, []))[1].append(point)
        out = []
        for key, pts in buckets.values():
            pts_sorted = tuple(sorted(pts, key=lambda p: p.params[x]))
            out.append((key, Measurements(self.claim_id, (x,), pts_sorted)))
        return out
