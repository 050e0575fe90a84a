"""Validation of the inputs of :mod:`fedtheory.stats` (DESIGN §7).

Each helper raises :class:`~fedtheory.errors.ParameterError` naming the parameter, its value and
the rule, and returns the value in canonical form (a finite float64 copy, a plain ``int`` or
``float``). Curves are validated as the data model of :mod:`fedtheory.stats` describes them:
``x`` of shape ``(P,)`` and ``samples``, a sequence of P non-empty 1-D arrays of replicates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from fedtheory.errors import ParameterError

__all__ = [
    "FloatArray",
    "as_samples",
    "as_vector",
    "check_count",
    "check_distinct",
    "check_level",
    "check_positive",
    "check_same_length",
    "grid_size",
    "weight_vector",
]

#: A float64 numpy array, the type of every validated input.
FloatArray: TypeAlias = npt.NDArray[np.float64]


def as_vector(values: npt.ArrayLike, name: str, *, min_size: int = 1) -> FloatArray:
    """Copy ``values`` into a finite 1-D float64 array of at least ``min_size`` entries."""
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            parameter=name, value=type(values).__name__, rule="must be a 1-D array of real numbers"
        ) from exc
    if arr.ndim != 1:
        raise ParameterError(
            parameter=name, value=arr.shape, rule="must be a 1-D array (got this shape)"
        )
    if arr.size < min_size:
        raise ParameterError(
            parameter=name,
            value=arr.size,
            rule=f"needs at least {min_size} entries",
        )
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        i = int(bad[0])
        raise ParameterError(
            parameter=f"{name}[{i}]", value=float(arr[i]), rule="must be finite (no NaN or inf)"
        )
    return arr


def as_samples(samples: Sequence[npt.ArrayLike], name: str, n_points: int) -> list[FloatArray]:
    """Validate a curve's replicates: ``n_points`` finite non-empty 1-D arrays."""
    try:
        items = list(samples)
    except TypeError as exc:
        raise ParameterError(
            parameter=name,
            value=type(samples).__name__,
            rule="must be a sequence of 1-D arrays (one per grid point)",
        ) from exc
    if len(items) != n_points:
        raise ParameterError(
            parameter=name,
            value=f"{len(items)} arrays",
            rule=f"must hold one array of replicates per grid point ({n_points})",
        )
    return [as_vector(item, f"{name}[{p}]") for p, item in enumerate(items)]


def grid_size(samples: Sequence[Any], name: str) -> int:
    """The number P ≥ 1 of grid points of a curve given as a sequence of replicate arrays."""
    try:
        n = len(samples)
    except TypeError as exc:
        raise ParameterError(
            parameter=name, value=type(samples).__name__, rule="must be a sequence of 1-D arrays"
        ) from exc
    if n < 1:
        raise ParameterError(parameter=name, value=n, rule="needs at least 1 grid point")
    return n


def check_positive(arr: FloatArray, name: str, why: str) -> None:
    """Refuse the first entry of ``arr`` that is not > 0 (``why`` completes the rule)."""
    bad = np.flatnonzero(arr <= 0)
    if bad.size:
        i = int(bad[0])
        raise ParameterError(
            parameter=f"{name}[{i}]", value=float(arr[i]), rule=f"must be > 0 {why}"
        )


def check_same_length(a: FloatArray, b: FloatArray, name_a: str, name_b: str) -> None:
    """Refuse ``b`` when its length differs from that of ``a``."""
    if a.size != b.size:
        raise ParameterError(
            parameter=name_b,
            value=f"{b.size} entries",
            rule=f"must have the same length as {name_a} ({a.size})",
        )


def check_distinct(x: FloatArray, active: npt.NDArray[np.bool_], needed: int, what: str) -> None:
    """Require ``needed`` distinct values among the ``active`` entries of the grid ``x``."""
    n_distinct = int(np.unique(x[active]).size)
    if n_distinct < needed:
        raise ParameterError(
            parameter="x",
            value=f"{n_distinct} distinct values",
            rule=f"needs at least {needed} distinct values{what}",
        )


def check_level(level: float, name: str = "level") -> float:
    """Return a confidence level as a ``float`` strictly between 0 and 1."""
    try:
        value = float(level)
    except (TypeError, ValueError) as exc:
        raise ParameterError(
            parameter=name, value=level, rule="must be a number in (0, 1)"
        ) from exc
    if not 0.0 < value < 1.0:
        raise ParameterError(parameter=name, value=level, rule="must lie strictly between 0 and 1")
    return value


def check_count(value: int, name: str, minimum: int) -> int:
    """Return an integer count ≥ ``minimum`` as an ``int`` (booleans are refused)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ParameterError(parameter=name, value=value, rule=f"must be an integer >= {minimum}")
    return int(value)


def weight_vector(weights: npt.ArrayLike | None, n: int) -> FloatArray:
    """Non-negative weights of ``n`` points as a float64 array (all ones when ``None``)."""
    if weights is None:
        return np.ones(n)
    w = as_vector(weights, "weights")
    if w.size != n:
        raise ParameterError(
            parameter="weights",
            value=f"{w.size} entries",
            rule=f"must have one entry per point ({n})",
        )
    bad = np.flatnonzero(w < 0)
    if bad.size:
        i = int(bad[0])
        raise ParameterError(parameter=f"weights[{i}]", value=float(w[i]), rule="must be >= 0")
    return w
