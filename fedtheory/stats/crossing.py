"""Where two noisy curves measured on the same grid cross, with a bootstrap CI.

:func:`find_crossing` locates the first sign change of the difference of the per-point means
(interpolated in log x or x) and its stratified-bootstrap percentile interval;
:func:`crossing_draws` returns the bootstrap distribution behind that interval, to propagate the
uncertainty of several crossings into a derived quantity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.stats._checks import (
    FloatArray,
    as_samples,
    as_vector,
    check_count,
    check_level,
    check_positive,
)
from fedtheory.stats._resampling import percentile_interval, resampled_means

__all__ = ["CrossingEstimate", "crossing_draws", "find_crossing"]

#: Direction labels of :class:`CrossingEstimate`.
_BELOW_AFTER = "a-below-b-after"
_ABOVE_AFTER = "a-above-b-after"


@dataclass(frozen=True)
class CrossingEstimate:
    """Where two noisy curves cross, with a bootstrap CI (see :func:`find_crossing`).

    Attributes
    ----------
    x : float
        First crossing of the curves of means; NaN when they do not cross.
    low, high : float
        Bootstrap percentile interval of the first crossing over the resamples that have one;
        NaN when ``ci_open``.
    level : float
        Confidence level.
    found : bool
        Whether the curves of means cross.
    direction : str
        ``"a-below-b-after"`` if a − b changes from positive to negative at the first crossing,
        ``"a-above-b-after"`` if from negative to positive, ``""`` when there is none.
    fraction_without_crossing : float
        Fraction of the resamples in which the curves do not cross.
    n_crossings : int
        Number of sign changes of the difference of means (> 1: the curves cross several times;
        the first crossing is reported).
    ci_open : bool
        True when ``fraction_without_crossing > 1 − level``: the data cannot locate the crossing
        at that level and no interval is reported.
    n_resamples : int
        Number of bootstrap resamples.
    """

    x: float
    low: float
    high: float
    level: float
    found: bool
    direction: str
    fraction_without_crossing: float
    n_crossings: int
    ci_open: bool
    n_resamples: int

    def __str__(self) -> str:
        ci = (
            "CI open"
            if self.ci_open
            else f"[{self.low:.6g}, {self.high:.6g}] ({100 * self.level:g}% bootstrap CI)"
        )
        head = f"crossing at x = {self.x:.6g}, {self.direction}" if self.found else "no crossing"
        return (
            f"{head}; {ci}; {self.n_crossings} sign change(s), "
            f"{100 * self.fraction_without_crossing:.3g}% of resamples without crossing"
        )


def _first_crossings(
    t: FloatArray, d: FloatArray
) -> tuple[FloatArray, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """First sign change of every row of ``d`` (B, P) along the abscissa ``t`` (P,).

    A sign change is a pair of nonzero entries i < j of opposite signs with only zeros between
    them. When j = i + 1 the crossing is interpolated linearly in t; otherwise it is the first
    zero, t_{i+1}. Returns the location (NaN without a sign change), the number of sign changes
    and the sign of d before the first one (0 without a sign change).
    """
    n_rows, n_cols = d.shape
    s = np.sign(d).astype(np.int64)
    cols = np.arange(n_cols)
    last_nonzero = np.maximum.accumulate(np.where(s != 0, cols, -1), axis=1)
    prev = np.full((n_rows, n_cols), -1, dtype=np.int64)
    prev[:, 1:] = last_nonzero[:, :-1]
    prev_sign = np.where(prev >= 0, np.take_along_axis(s, np.maximum(prev, 0), axis=1), 0)
    event = (s * prev_sign) < 0
    count = event.sum(axis=1).astype(np.int64)
    has = count > 0
    rows = np.arange(n_rows)
    j = np.argmax(event, axis=1)
    i = np.maximum(prev[rows, j], 0)
    di = d[rows, i]
    dj = d[rows, j]
    adjacent = has & (i == j - 1)
    frac = di / np.where(adjacent, di - dj, 1.0)
    interpolated = t[i] + (t[j] - t[i]) * frac
    at_zero = t[np.minimum(i + 1, n_cols - 1)]
    location = np.where(has, np.where(adjacent, interpolated, at_zero), np.nan)
    sign_before = np.where(has, s[rows, i], 0).astype(np.int64)
    return location, count, sign_before


def _crossing_resamples(
    t: FloatArray,
    a: list[FloatArray],
    b: list[FloatArray],
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, npt.NDArray[np.int64]]:
    """First crossing (in t) and number of sign changes of every bootstrap resample."""
    d_boot = resampled_means(a, n_resamples, rng) - resampled_means(b, n_resamples, rng)
    location, count, _ = _first_crossings(t, d_boot)
    return location, count


def _crossing_inputs(
    x: npt.ArrayLike,
    a_samples: Sequence[npt.ArrayLike],
    b_samples: Sequence[npt.ArrayLike],
    log_x: bool,
) -> tuple[FloatArray, list[FloatArray], list[FloatArray]]:
    xv = as_vector(x, "x", min_size=2)
    steps = np.flatnonzero(np.diff(xv) <= 0)
    if steps.size:
        p = int(steps[0]) + 1
        raise ParameterError(
            parameter=f"x[{p}]", value=float(xv[p]), rule="x must be strictly increasing"
        )
    if log_x:
        check_positive(xv, "x", "when log_x=True")
    a = as_samples(a_samples, "a_samples", int(xv.size))
    b = as_samples(b_samples, "b_samples", int(xv.size))
    return (np.log(xv) if log_x else xv), a, b


def crossing_draws(
    x: npt.ArrayLike,
    a_samples: Sequence[npt.ArrayLike],
    b_samples: Sequence[npt.ArrayLike],
    *,
    log_x: bool = True,
    n_resamples: int = 2000,
    seed: Seed = 0,
) -> FloatArray:
    """Bootstrap distribution of the first crossing of two noisy curves.

    The resamples are exactly those :func:`find_crossing` draws for the same seed, so its
    interval is the percentile interval of these values. Returns an array of ``n_resamples``
    crossing locations in x units, NaN for a resample without a crossing. Used to propagate
    the uncertainty of several crossings into a derived quantity (e.g. how the crossing
    scales with a parameter).

    Examples
    --------
    >>> draws = crossing_draws([1, 10, 100], [[3.0], [1.0], [0.0]], [[1.0], [1.5], [2.0]],
    ...                        n_resamples=4)
    >>> [round(float(v), 6) for v in draws]
    [6.309573, 6.309573, 6.309573, 6.309573]
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    t, a, b = _crossing_inputs(x, a_samples, b_samples, log_x)
    location, _ = _crossing_resamples(t, a, b, n_resamples, generator(seed))
    return np.exp(location) if log_x else location


def find_crossing(
    x: npt.ArrayLike,
    a_samples: Sequence[npt.ArrayLike],
    b_samples: Sequence[npt.ArrayLike],
    *,
    log_x: bool = True,
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: Seed = 0,
) -> CrossingEstimate:
    """Locate where two noisy curves measured on the same grid cross.

    With d_p = mean(a_p) − mean(b_p), a crossing is a sign change of d along x: two nonzero
    values d_i, d_j (i < j) of opposite signs with only zeros between them. If j = i + 1 the
    crossing is the zero of the linear interpolation of d in t = log x (``log_x=True``) or x,

        t* = t_i + (t_{i+1} − t_i) · d_i / (d_i − d_{i+1}),

    which is exact when both curves are linear in t; otherwise d is exactly 0 at grid point
    i + 1, which is the crossing. A touch without a sign change (d = +, 0, +) and zeros at the
    ends of the grid are not crossings. The first crossing is reported.

    The CI comes from the stratified bootstrap (a and b resampled independently within every
    grid point, a first): the percentile interval, taken in t, of the first crossing over the
    resamples that have one. When more than a fraction 1 − level of the resamples have no
    crossing the data cannot locate it at that level: ``ci_open`` is True and low = high = NaN.

    Parameters
    ----------
    x : array_like, shape (P,)
        Strictly increasing grid (positive when ``log_x``), P ≥ 2.
    a_samples, b_samples : sequence of P 1-D arrays
        Replicates of the two curves per grid point.
    log_x : bool
        Interpolate in log x (default) or x.
    n_resamples, level, seed
        As in :func:`~fedtheory.stats.bootstrap_ci`.

    Returns
    -------
    CrossingEstimate

    Examples
    --------
    >>> est = find_crossing([1, 10, 100], [[3.0], [1.0], [0.0]], [[1.0], [1.5], [2.0]])
    >>> round(est.x, 9), est.direction, est.n_crossings, round(est.low, 9), round(est.high, 9)
    (6.309573445, 'a-below-b-after', 1, 6.309573445, 6.309573445)
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    level = check_level(level)
    t, a, b = _crossing_inputs(x, a_samples, b_samples, log_x)

    d = np.array([[pa.mean() - pb.mean() for pa, pb in zip(a, b, strict=True)]])
    location, count, sign_before = _first_crossings(t, d)
    found = bool(count[0] > 0)
    t_cross = float(location[0])
    x_cross = (math.exp(t_cross) if log_x else t_cross) if found else math.nan
    direction = "" if not found else (_BELOW_AFTER if sign_before[0] > 0 else _ABOVE_AFTER)

    loc_boot, count_boot = _crossing_resamples(t, a, b, n_resamples, generator(seed))
    has = count_boot > 0
    fraction_without = float(np.count_nonzero(~has)) / n_resamples
    ci_open = fraction_without > 1.0 - level
    if ci_open:
        low = high = math.nan
    else:
        t_low, t_high = percentile_interval(loc_boot[has], level)
        low, high = (math.exp(t_low), math.exp(t_high)) if log_x else (t_low, t_high)
    return CrossingEstimate(
        x=x_cross,
        low=low,
        high=high,
        level=level,
        found=found,
        direction=direction,
        fraction_without_crossing=fraction_without,
        n_crossings=int(count[0]),
        ci_open=bool(ci_open),
        n_resamples=n_resamples,
    )
