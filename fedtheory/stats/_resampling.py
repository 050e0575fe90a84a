"""The stratified bootstrap engine of :mod:`fedtheory.stats`: resamples and their summaries.

Every bootstrap of the package draws its resamples here, from one generator in one fixed order
(resamples in blocks, grid points in order within a block), so that the functions of
:mod:`fedtheory.stats.bootstrap` and :mod:`fedtheory.stats.crossing` see the same resamples for
the same seed and data. The percentile interval and the bootstrap standard error follow [ET93]_
(ch. 13 and ch. 6).

References
----------
.. [ET93] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*. Chapman & Hall,
   1993.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.stats._checks import FloatArray

__all__ = [
    "BLOCK_ELEMENTS",
    "bootstrap_std",
    "check_failures",
    "percentile_interval",
    "resample_blocks",
    "resampled_means",
]

#: Upper bound on the number of resampled values held in memory at once (per block).
BLOCK_ELEMENTS = 1 << 22


def resample_blocks(
    data: list[FloatArray], n_resamples: int, rng: np.random.Generator
) -> Iterator[list[FloatArray]]:
    """Yield the stratified resamples in blocks.

    Each block is a list of P arrays of shape (b, n_p): row r of array p holds the n_p replicates
    drawn with replacement from ``data[p]`` for one resample. Within a block the grid points are
    drawn in order; a point with one replicate consumes no random numbers. The block size only
    depends on the data sizes and ``n_resamples``, so the draws are a deterministic function of
    the generator state.
    """
    total = sum(int(arr.size) for arr in data)
    block = max(1, min(n_resamples, BLOCK_ELEMENTS // max(total, 1)))
    for start in range(0, n_resamples, block):
        b = min(block, n_resamples - start)
        out: list[FloatArray] = []
        for arr in data:
            n = int(arr.size)
            if n == 1:
                out.append(np.full((b, 1), arr[0]))
            else:
                out.append(arr[rng.integers(0, n, size=(b, n))])
        yield out


def resampled_means(
    data: list[FloatArray], n_resamples: int, rng: np.random.Generator
) -> FloatArray:
    """Per-point means of the resamples of :func:`resample_blocks`, shape ``(n_resamples, P)``."""
    out = np.empty((n_resamples, len(data)))
    row = 0
    for block in resample_blocks(data, n_resamples, rng):
        b = block[0].shape[0]
        for p, values in enumerate(block):
            out[row : row + b, p] = values.mean(axis=1)
        row += b
    return out


def percentile_interval(values: FloatArray, level: float) -> tuple[float, float]:
    """The (1 − level)/2 and (1 + level)/2 empirical quantiles of ``values`` ([ET93]_, ch. 13)."""
    low, high = np.quantile(values, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return float(low), float(high)


def bootstrap_std(values: FloatArray) -> float:
    """Bootstrap standard error ([ET93]_, ch. 6): the ``ddof=1`` standard deviation; NaN for one
    value."""
    return float(np.std(values, ddof=1)) if values.size > 1 else math.nan


def check_failures(n_failed: int, n_resamples: int, what: str) -> None:
    """Refuse a statistic that failed on more than half of the resamples."""
    if 2 * n_failed > n_resamples:
        raise ParameterError(
            parameter=what,
            value=n_failed,
            rule=f"failed on more than half of the {n_resamples} bootstrap resamples "
            "(non-finite value or ParameterError); the data do not support this statistic",
        )
