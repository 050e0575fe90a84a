"""Sweeps: the parameter points at which an experiment runs, one per profile (DESIGN §5–§6).

A :class:`Sweep` is plain data: a Cartesian ``grid`` (or explicit ``points``) of varied
parameters, the ``fixed`` ones and the number of replicates per point. Parameter values are JSON
scalars, so that tasks and store keys are plain data.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError

__all__ = ["PROFILES", "Sweep"]

#: Profiles, from the fastest to the most thorough (DESIGN §6).
PROFILES: tuple[str, ...] = ("smoke", "quick", "full")

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_scalar(value: Any, where: str) -> Any:
    """Parameters must be plain JSON scalars so that tasks and store keys are plain data."""
    if isinstance(value, np.generic):  # before the float test: np.float64 subclasses float
        return _check_scalar(value.item(), where)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParameterError(parameter=where, value=value, rule="must be finite")
        return value
    raise ParameterError(
        parameter=where,
        value=value,
        rule=f"sweep values must be int, float, str or bool (got {type(value).__name__})",
    )


@dataclass(frozen=True, init=False)
class Sweep:
    """The parameter points at which a claim's experiment runs, for one profile.

    Parameters
    ----------
    grid
        Varied parameters: ``{name: values}``; the sweep runs the Cartesian product, in the
        order given (the last name varies fastest).
    fixed
        Parameters held constant at every point.
    replicates
        Independent repetitions per point, each with its own seed (DESIGN §4).
    block
        Replicates per task (a scheduling choice only: results are stored per replicate, so it
        never changes a number). Default: all replicates of a point in one task.
    points
        Explicit list of varied-parameter dicts, instead of a Cartesian ``grid`` (e.g. to vary
        two parameters together). All dicts must have the same keys.

    Examples
    --------
    >>> s = Sweep(grid={"T": [10, 100]}, fixed={"d": 5}, replicates=3)
    >>> s.points()
    ({'d': 5, 'T': 10}, {'d': 5, 'T': 100})
    >>> s.varied
    ('T',)
    """

    grid: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    replicates: int = 1
    block: int | None = None
    points_: Sequence[Mapping[str, Any]] | None = field(default=None, repr=False)

    def __init__(
        self,
        grid: Mapping[str, Sequence[Any]] | None = None,
        fixed: Mapping[str, Any] | None = None,
        replicates: int = 1,
        block: int | None = None,
        points: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        grid = dict(grid or {})
        fixed = dict(fixed or {})
        if grid and points is not None:
            raise ParameterError(
                parameter="points", value="...", rule="give either grid or points, not both"
            )
        if not isinstance(replicates, (int, np.integer)) or isinstance(replicates, bool):
            raise ParameterError(parameter="replicates", value=replicates, rule="must be an int")
        if replicates < 1:
            raise ParameterError(parameter="replicates", value=replicates, rule="must be >= 1")
        if block is not None and (not isinstance(block, (int, np.integer)) or block < 1):
            raise ParameterError(parameter="block", value=block, rule="must be an int >= 1")
        for name, value in fixed.items():
            self._check_name(name, "fixed")
            fixed[name] = _check_scalar(value, f"fixed[{name!r}]")
        clean_grid: dict[str, tuple[Any, ...]] = {}
        for name, values in grid.items():
            self._check_name(name, "grid")
            if name in fixed:
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=name, rule="is also in fixed"
                )
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | np.ndarray):
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=values, rule="must be a list of values"
                )
            vals = tuple(_check_scalar(v, f"grid[{name!r}]") for v in values)
            if not vals:
                raise ParameterError(parameter=f"grid[{name!r}]", value=[], rule="is empty")
            if len(set(vals)) != len(vals):
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=list(vals), rule="has repeated values"
                )
            clean_grid[name] = vals
        clean_points: tuple[dict[str, Any], ...] | None = None
        if points is not None:
            if not points:
                raise ParameterError(parameter="points", value=[], rule="is empty")
            keys = set(points[0])
            rows = []
            for i, point in enumerate(points):
                if set(point) != keys:
                    raise ParameterError(
                        parameter=f"points[{i}]",
                        value=sorted(point),
                        rule=f"every point needs the same keys {sorted(keys)}",
                    )
                row = {}
                for name, value in point.items():
                    self._check_name(name, f"points[{i}]")
                    if name in fixed:
                        raise ParameterError(
                            parameter=f"points[{i}]", value=name, rule="is also in fixed"
                        )
                    row[name] = _check_scalar(value, f"points[{i}][{name!r}]")
                rows.append(row)
            canon = [json.dumps(r, sort_keys=True) for r in rows]
            if len(set(canon)) != len(canon):
                raise ParameterError(parameter="points", value="...", rule="has repeated points")
            clean_points = tuple(rows)
        object.__setattr__(self, "grid", clean_grid)
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "replicates", int(replicates))
        object.__setattr__(self, "block", None if block is None else int(block))
        object.__setattr__(self, "points_", clean_points)

    @staticmethod
    def _check_name(name: Any, where: str) -> None:
        if not isinstance(name, str) or not _NAME.match(name):
            raise ParameterError(
                parameter=where, value=name, rule="parameter names must be Python identifiers"
            )

    @property
    def varied(self) -> tuple[str, ...]:
        """Names of the parameters that change across points."""
        if self.points_ is not None:
            return tuple(self.points_[0])
        return tuple(self.grid)

    def points(self) -> tuple[dict[str, Any], ...]:
        """Every parameter point (fixed and varied values merged), in a deterministic order."""
        if self.points_ is not None:
            varied: Iterator[Mapping[str, Any]] = iter(self.points_)
        else:
            names = list(self.grid)
            varied = (
                dict(zip(names, combo, strict=True))
                for combo in itertools.product(*self.grid.values())
            )
        return tuple({**self.fixed, **v} for v in varied)

    def to_dict(self) -> dict[str, Any]:
        """Plain-data description (for the catalog and verdicts.json)."""
        out: dict[str, Any] = {"fixed": dict(self.fixed), "replicates": self.replicates}
        if self.points_ is not None:
            out["points"] = [dict(p) for p in self.points_]
        else:
            out["grid"] = {k: list(v) for k, v in self.grid.items()}
        if self.block is not None:
            out["block"] = self.block
        return out
