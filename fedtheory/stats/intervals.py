"""Confidence intervals without resampling: the Student-t interval of a mean, Bonferroni levels."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.special import stdtrit

from fedtheory.stats._checks import as_vector, check_count, check_level

__all__ = ["MeanCI", "bonferroni", "mean_ci"]


@dataclass(frozen=True)
class MeanCI:
    """Student-t confidence interval of a mean (see :func:`mean_ci`).

    Attributes
    ----------
    mean : float
        Sample mean.
    low, high : float
        ``mean ∓ t_{n−1, (1+level)/2} · std_error``.
    level : float
        Confidence level.
    std_error : float
        ``s / sqrt(n)`` with s the sample standard deviation (``ddof=1``); 0 when degenerate.
    n : int
        Number of values.
    degenerate : bool
        True when the interval has zero width because n = 1 or all values are equal: the
        measurement is deterministic and the caller may treat ``mean`` as exact.
    """

    mean: float
    low: float
    high: float
    level: float
    std_error: float
    n: int
    degenerate: bool = False

    def __str__(self) -> str:
        if self.degenerate:
            return f"{self.mean:.6g} (exact: {self.n} identical value(s))"
        return (
            f"{self.mean:.6g} [{self.low:.6g}, {self.high:.6g}] "
            f"({100 * self.level:g}% t interval, se {self.std_error:.3g}, n = {self.n})"
        )


def mean_ci(values: npt.ArrayLike, *, level: float = 0.95) -> MeanCI:
    """Student-t confidence interval of a mean.

    With sample mean x̄, sample standard deviation s (``ddof=1``) and n values,

        x̄ ± t_{n−1, (1+level)/2} · s / √n,

    exact for normal data. With n = 1 (a deterministic measurement) or identical values the
    interval is [x̄, x̄] and ``degenerate`` is True.

    Parameters
    ----------
    values : array_like, shape (n,)
        Finite values, n ≥ 1.
    level : float
        Confidence level in (0, 1).

    Returns
    -------
    MeanCI

    Examples
    --------
    >>> ci = mean_ci([1.0, 2.0, 3.0])
    >>> round(ci.low, 6), round(ci.high, 6), ci.degenerate
    (-0.484138, 4.484138, False)
    >>> mean_ci([0.7]).degenerate
    True
    """
    v = as_vector(values, "values")
    level = check_level(level)
    n = int(v.size)
    if n == 1 or float(np.ptp(v)) == 0.0:
        mean = float(v[0])
        return MeanCI(mean, mean, mean, level, 0.0, n, degenerate=True)
    mean = float(v.mean())
    se = float(v.std(ddof=1)) / math.sqrt(n)
    half = float(stdtrit(n - 1, 0.5 + level / 2.0)) * se
    return MeanCI(mean, mean - half, mean + half, level, se, n, degenerate=False)


def bonferroni(level: float, m: int) -> float:
    """Per-comparison level for m simultaneous intervals: 1 − (1 − level)/m.

    By the Bonferroni (union) bound, m intervals each at this level hold simultaneously with
    probability at least ``level``.

    Examples
    --------
    >>> bonferroni(0.95, 5)
    0.99
    >>> bonferroni(0.9, 1)
    0.9
    """
    level = check_level(level)
    m = check_count(m, "m", 1)
    return 1.0 - (1.0 - level) / m
