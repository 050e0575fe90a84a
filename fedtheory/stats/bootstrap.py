"""Stratified-bootstrap intervals of functionals of a curve (see :mod:`fedtheory.stats`).

- :func:`bootstrap_means`: the per-point means of the resamples;
- :func:`bootstrap_ci`: the percentile interval of any statistic of a curve;
- :func:`slope_ci`: the log-log (or linear) slope of the per-point means, all resamples at once;
- :func:`floor_fit_ci`: the exponent and the floor of :func:`~fedtheory.stats.fits.
  fit_power_law_with_floor`.

For the same seed and data all four see the same resamples (:mod:`fedtheory.stats._resampling`).
Intervals are percentile intervals ([ET93]_, ch. 13), standard errors bootstrap standard errors
([ET93]_, ch. 6).

References
----------
.. [ET93] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*. Chapman & Hall,
   1993.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import SupportsFloat, TypeAlias

import numpy as np
import numpy.typing as npt

from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.stats._checks import (
    FloatArray,
    as_samples,
    as_vector,
    check_count,
    check_distinct,
    check_level,
    check_positive,
    grid_size,
)
from fedtheory.stats._least_squares import ols_slopes, wls_line
from fedtheory.stats._resampling import (
    bootstrap_std,
    check_failures,
    percentile_interval,
    resample_blocks,
    resampled_means,
)
from fedtheory.stats.fits import FloorFit, fit_power_law_with_floor

__all__ = [
    "BootstrapCI",
    "FloorFitCI",
    "SlopeCI",
    "bootstrap_ci",
    "bootstrap_means",
    "floor_fit_ci",
    "slope_ci",
]

#: A bootstrap statistic: maps the P per-point arrays of a (resampled) curve to a number.
Statistic: TypeAlias = Callable[[list[FloatArray]], SupportsFloat]


# --------------------------------------------------------------------------------------------
# result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BootstrapCI:
    """Bootstrap percentile interval of a statistic (see :func:`bootstrap_ci`).

    Attributes
    ----------
    estimate : float
        The statistic on the original data.
    low, high : float
        Percentile interval at ``level``.
    level : float
        Confidence level.
    n_resamples : int
        Number of bootstrap resamples drawn (including failed ones).
    std : float
        Bootstrap standard error (standard deviation of the successful resampled statistics,
        ``ddof=1``; NaN with a single successful resample).
    n_failed : int
        Resamples whose statistic was not finite or raised ParameterError (dropped).
    """

    estimate: float
    low: float
    high: float
    level: float
    n_resamples: int
    std: float
    n_failed: int

    def __str__(self) -> str:
        return (
            f"{self.estimate:.6g} [{self.low:.6g}, {self.high:.6g}] "
            f"({100 * self.level:g}% bootstrap percentile CI, se {self.std:.3g}, "
            f"{self.n_resamples} resamples, {self.n_failed} failed)"
        )


@dataclass(frozen=True)
class SlopeCI:
    """Slope of the per-point means of a curve with its bootstrap CI (see :func:`slope_ci`).

    Attributes
    ----------
    slope : float
        Log-log slope (``log=True``, :func:`~fedtheory.stats.fit_power_law` of the means) or
        linear slope.
    low, high : float
        Bootstrap percentile interval at ``level``.
    level : float
        Confidence level.
    prefactor : float
        exp(intercept) for ``log=True``; the intercept itself for ``log=False``.
    r_squared : float
        R² of the fit of the means.
    n_points : int
        Number of grid points P.
    n_resamples : int
        Number of bootstrap resamples.
    std : float
        Bootstrap standard error of the slope.
    n_failed : int
        Resamples dropped because a resampled mean was ≤ 0 (``log=True`` only).
    log : bool
        Whether the slope is log-log.
    """

    slope: float
    low: float
    high: float
    level: float
    prefactor: float
    r_squared: float
    n_points: int
    n_resamples: int
    std: float
    n_failed: int
    log: bool

    def __str__(self) -> str:
        kind = "log-log slope" if self.log else "slope"
        return (
            f"{kind} {self.slope:.6g} [{self.low:.6g}, {self.high:.6g}] "
            f"({100 * self.level:g}% bootstrap CI, R² = {self.r_squared:.4f}, "
            f"{self.n_points} points, {self.n_resamples} resamples)"
        )


@dataclass(frozen=True)
class FloorFitCI:
    """Bootstrap CIs of the exponent and the floor of a floor-plus-power-law fit (see
    :func:`floor_fit_ci`).

    Attributes
    ----------
    fit : FloorFit
        Fit of the per-point means.
    exponent_low, exponent_high : float
        Percentile interval of the exponent.
    floor_low, floor_high : float
        Percentile interval of the floor.
    level : float
        Confidence level.
    n_resamples : int
        Number of bootstrap resamples.
    n_failed : int
        Resamples whose fit raised ParameterError (e.g. a resampled mean ≤ 0), dropped.
    """

    fit: FloorFit
    exponent_low: float
    exponent_high: float
    floor_low: float
    floor_high: float
    level: float
    n_resamples: int
    n_failed: int

    def __str__(self) -> str:
        return (
            f"{self.fit}; exponent [{self.exponent_low:.6g}, {self.exponent_high:.6g}], "
            f"floor [{self.floor_low:.6g}, {self.floor_high:.6g}] "
            f"({100 * self.level:g}% bootstrap CI, {self.n_resamples} resamples)"
        )


# --------------------------------------------------------------------------------------------
# resampled means and any statistic
# --------------------------------------------------------------------------------------------


def bootstrap_means(
    samples: Sequence[npt.ArrayLike], *, n_resamples: int = 2000, seed: Seed = 0
) -> FloatArray:
    """Per-point means of stratified bootstrap resamples of a curve.

    Resample b draws, independently at every grid point p, n_p = len(samples[p]) replicates
    with replacement from ``samples[p]`` and records their mean ȳ*_{b,p}. The draws are made by
    one generator in a fixed order (the same as :func:`bootstrap_ci`'s), so the result is a
    deterministic function of ``seed``.

    Parameters
    ----------
    samples : sequence of P 1-D arrays
        Replicates per grid point (finite, non-empty).
    n_resamples : int
        Number of resamples B (≥ 2).
    seed : int or SeedSequence
        Seed of the resamples (:data:`fedtheory._seeds.Seed`; a Generator is refused).

    Returns
    -------
    ndarray, shape (B, P)
        Row b holds the resampled means of resample b. A point with one replicate has a constant
        column.

    Examples
    --------
    >>> m = bootstrap_means([[1.0, 2.0, 3.0], [5.0]], n_resamples=4, seed=0)
    >>> m.shape, bool((m[:, 1] == 5.0).all()), bool(((1 <= m[:, 0]) & (m[:, 0] <= 3)).all())
    ((4, 2), True, True)
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    data = as_samples(samples, "samples", grid_size(samples, "samples"))
    return resampled_means(data, n_resamples, generator(seed))


def bootstrap_ci(
    samples: Sequence[npt.ArrayLike],
    statistic: Statistic,
    *,
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: Seed = 0,
) -> BootstrapCI:
    """Stratified bootstrap percentile interval of a statistic of a curve.

    Each of the B resamples draws, independently within every grid point p, len(y_p) replicates
    with replacement from y_p, and evaluates ``statistic`` on the resampled list of P arrays.
    The interval is the percentile interval (Efron & Tibshirani 1993, ch. 13)
    [θ*_{((1−level)/2)}, θ*_{((1+level)/2)}] of the successful resampled values (empirical
    quantiles, linear interpolation) and ``std`` their standard deviation, the bootstrap
    standard error (Efron & Tibshirani 1993, ch. 6).

    Resamples on which the statistic returns a non-finite value or raises
    :class:`~fedtheory.errors.ParameterError` (e.g. a log fit of a resampled non-positive mean)
    are dropped and counted in ``n_failed``.

    Parameters
    ----------
    samples : sequence of P 1-D arrays
        Replicates per grid point.
    statistic : callable
        Maps a list of P 1-D arrays to a number.
    n_resamples : int
        Number of resamples B (≥ 2).
    level : float
        Confidence level in (0, 1).
    seed : int or SeedSequence
        Seed of the resamples (:data:`fedtheory._seeds.Seed`; a Generator is refused). Same
        draws as :func:`bootstrap_means` and :func:`slope_ci` for the same seed.

    Returns
    -------
    BootstrapCI

    Raises
    ------
    ParameterError
        On invalid input, if the statistic is not finite on the original data, or if more than
        half of the resamples fail.

    Examples
    --------
    >>> ci = bootstrap_ci([[1.0, 2.0, 3.0, 4.0]], lambda s: s[0].mean(), n_resamples=500)
    >>> ci.estimate, bool(1.0 <= ci.low < 2.5 < ci.high <= 4.0), ci.n_failed
    (2.5, True, 0)
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    level = check_level(level)
    data = as_samples(samples, "samples", grid_size(samples, "samples"))
    if not callable(statistic):
        raise ParameterError(
            parameter="statistic", value=type(statistic).__name__, rule="must be callable"
        )
    rng = generator(seed)
    estimate = float(statistic([arr.copy() for arr in data]))
    if not math.isfinite(estimate):
        raise ParameterError(
            parameter="statistic", value=estimate, rule="must be finite on the original data"
        )
    values = np.empty(n_resamples)
    row = 0
    for block in resample_blocks(data, n_resamples, rng):
        for r in range(block[0].shape[0]):
            try:
                values[row] = float(statistic([arr[r] for arr in block]))
            except ParameterError:
                values[row] = math.nan
            row += 1
    ok = np.isfinite(values)
    n_failed = int(n_resamples - np.count_nonzero(ok))
    check_failures(n_failed, n_resamples, "statistic")
    low, high = percentile_interval(values[ok], level)
    return BootstrapCI(
        estimate=estimate,
        low=low,
        high=high,
        level=level,
        n_resamples=n_resamples,
        std=bootstrap_std(values[ok]),
        n_failed=n_failed,
    )


# --------------------------------------------------------------------------------------------
# slope of the means
# --------------------------------------------------------------------------------------------


def slope_ci(
    x: npt.ArrayLike,
    samples: Sequence[npt.ArrayLike],
    *,
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: Seed = 0,
    log: bool = True,
) -> SlopeCI:
    r"""Slope of a curve's per-point means with a stratified-bootstrap percentile CI.

    The point estimate is the OLS slope of log ȳ_p on log x_p (``log=True``; the exponent of
    :func:`~fedtheory.stats.fit_power_law` of the means) or of ȳ_p on x_p (``log=False``). The
    interval is the percentile interval of the same slope over the resampled means of
    :func:`bootstrap_means`, computed for all resamples at once with the closed form

    .. math:: β^*_b = \frac{Σ_p (u_p − ū)(v^*_{b,p} − \bar v^*_b)}{Σ_p (u_p − ū)^2},

    u_p = log x_p, v*_{b,p} = log ȳ*_{b,p}. For the same seed it equals
    ``bootstrap_ci(samples, lambda s: fit_power_law(x, [a.mean() for a in s]).exponent)`` up to
    rounding. With ``log=True`` a resample with a mean ≤ 0 is dropped (``n_failed``).

    Parameters
    ----------
    x : array_like, shape (P,)
        Grid (positive for ``log=True``), at least 2 distinct values.
    samples : sequence of P 1-D arrays
        Replicates per grid point.
    n_resamples, level, seed
        As in :func:`bootstrap_ci`.
    log : bool
        Log-log slope (default) or linear slope.

    Returns
    -------
    SlopeCI

    Examples
    --------
    >>> ci = slope_ci([1, 10, 100], [[2.0], [0.2], [0.02]], n_resamples=100)
    >>> round(ci.slope, 12), round(ci.low, 12), round(ci.high, 12), round(ci.prefactor, 12)
    (-1.0, -1.0, -1.0, 2.0)
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    level = check_level(level)
    xv = as_vector(x, "x", min_size=2)
    data = as_samples(samples, "samples", int(xv.size))
    check_distinct(xv, np.ones(xv.size, dtype=bool), 2, "")
    means = np.array([arr.mean() for arr in data])
    if log:
        check_positive(xv, "x", "for a log-log slope")
        bad = np.flatnonzero(means <= 0)
        if bad.size:
            p = int(bad[0])
            raise ParameterError(
                parameter=f"samples[{p}]",
                value=float(means[p]),
                rule="the mean of the replicates must be > 0 for a log-log slope",
            )
        u = np.log(xv)
        slope, intercept, r_squared, _ = wls_line(u, np.log(means), np.ones(xv.size))
        prefactor = math.exp(intercept)
    else:
        u = xv
        slope, prefactor, r_squared, _ = wls_line(u, means, np.ones(xv.size))
    boot = resampled_means(data, n_resamples, generator(seed))
    if log:
        ok = np.all(boot > 0, axis=1)
        boot = np.log(np.where(boot > 0, boot, 1.0))
    else:
        ok = np.ones(n_resamples, dtype=bool)
    slopes = ols_slopes(u, boot)[ok]
    n_failed = int(n_resamples - np.count_nonzero(ok))
    check_failures(n_failed, n_resamples, "samples")
    low, high = percentile_interval(slopes, level)
    return SlopeCI(
        slope=slope,
        low=low,
        high=high,
        level=level,
        prefactor=prefactor,
        r_squared=r_squared,
        n_points=int(xv.size),
        n_resamples=n_resamples,
        std=bootstrap_std(slopes),
        n_failed=n_failed,
        log=bool(log),
    )


# --------------------------------------------------------------------------------------------
# floor + power law
# --------------------------------------------------------------------------------------------


def floor_fit_ci(
    x: npt.ArrayLike,
    samples: Sequence[npt.ArrayLike],
    *,
    n_resamples: int = 500,
    level: float = 0.95,
    seed: Seed = 0,
    k_bounds: tuple[float, float] = (-5.0, 5.0),
    k_gap: float = 1e-3,
) -> FloorFitCI:
    """Bootstrap CIs of the exponent and the floor of
    :func:`~fedtheory.stats.fit_power_law_with_floor`.

    The point fit is that of the per-point means (default relative weights); each of the B
    stratified resamples of :func:`bootstrap_means` is refitted, and the intervals are the
    percentile intervals (Efron & Tibshirani 1993, ch. 13) of the refitted exponents and floors.
    Resamples whose fit raises ParameterError (e.g. a resampled mean ≤ 0) are dropped
    (``n_failed``).

    Parameters
    ----------
    x : array_like, shape (P,)
        Positive grid with at least 3 distinct values.
    samples : sequence of P 1-D arrays
        Replicates per grid point (means must be > 0).
    n_resamples, level, seed
        As in :func:`bootstrap_ci`.
    k_bounds, k_gap
        As in :func:`~fedtheory.stats.fit_power_law_with_floor`.

    Returns
    -------
    FloorFitCI
    """
    n_resamples = check_count(n_resamples, "n_resamples", 2)
    level = check_level(level)
    xv = as_vector(x, "x", min_size=3)
    data = as_samples(samples, "samples", int(xv.size))
    means = np.array([arr.mean() for arr in data])
    bad = np.flatnonzero(means <= 0)
    if bad.size:
        p = int(bad[0])
        raise ParameterError(
            parameter=f"samples[{p}]",
            value=float(means[p]),
            rule="the mean of the replicates must be > 0 (relative weights 1/y²)",
        )
    fit = fit_power_law_with_floor(xv, means, k_bounds=k_bounds, k_gap=k_gap)
    boot = resampled_means(data, n_resamples, generator(seed))
    exponents = np.full(n_resamples, np.nan)
    floors = np.full(n_resamples, np.nan)
    for r in range(n_resamples):
        try:
            refit = fit_power_law_with_floor(xv, boot[r], k_bounds=k_bounds, k_gap=k_gap)
        except ParameterError:
            continue
        exponents[r], floors[r] = refit.exponent, refit.floor
    ok = np.isfinite(exponents) & np.isfinite(floors)
    n_failed = int(n_resamples - np.count_nonzero(ok))
    check_failures(n_failed, n_resamples, "samples")
    exponent_low, exponent_high = percentile_interval(exponents[ok], level)
    floor_low, floor_high = percentile_interval(floors[ok], level)
    return FloorFitCI(
        fit=fit,
        exponent_low=exponent_low,
        exponent_high=exponent_high,
        floor_low=floor_low,
        floor_high=floor_high,
        level=level,
        n_resamples=n_resamples,
        n_failed=n_failed,
    )
