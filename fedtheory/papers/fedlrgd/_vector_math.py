"""Row helpers of the latent-matrix kernels (private; DESIGN §4).

Powers of a row and ℓ1/squared-ℓ2 distance rows, vectorisable: the power goes through the
branch-free polynomial exp and log of :mod:`fedtheory._vector_math` (numba's ``math.exp`` and
``math.log`` are scalar libm calls, which stop LLVM from vectorising; with them the loops of
:mod:`fedtheory.papers.fedlrgd.latent_kernels` run about 7× slower). ``_exp``, ``_log`` and
their array forms are re-exported here for the kernels and tests of this package.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit
from fedtheory._vector_math import _exp, _log

__all__: list[str] = []

#: How :func:`_power_row` raises a row to a power: generic exp/log or a cheaper special case.
_POW_GENERIC, _POW_ONE, _POW_HALF, _POW_TWO = 0, 1, 2, 3


def _power_mode(power: float) -> int:
    """Exact fast paths of s ↦ s^power (no transcendental function at all)."""
    return {1.0: _POW_ONE, 0.5: _POW_HALF, 2.0: _POW_TWO}.get(power, _POW_GENERIC)


@njit(inline="always", error_model="numpy")
def _power_row(row: np.ndarray, power: float, mode: int) -> None:
    """row ← row^power in place (row ≥ 0; 0^power = 0 for power > 0)."""
    k = row.shape[0]
    if mode == _POW_ONE:
        return
    if mode == _POW_HALF:
        for j in range(k):
            row[j] = math.sqrt(row[j])
        return
    if mode == _POW_TWO:
        for j in range(k):
            row[j] = row[j] * row[j]
        return
    for j in range(k):  # two passes: each vectorises better than the fused loop
        s = row[j]
        row[j] = power * _log(s) if s > 0.0 else -math.inf  # −inf marks 0^power = 0
    for j in range(k):
        row[j] = _exp(row[j]) if row[j] > -math.inf else 0.0


@njit(inline="always", error_model="numpy")
def _l1_distances(point: np.ndarray, cols_t: np.ndarray, row: np.ndarray) -> None:
    """row[j] = ‖point − cols_j‖₁, accumulated coordinate by coordinate (contiguous in j)."""
    row[:] = 0.0
    for c in range(point.shape[0]):
        yc = point[c]
        for j in range(row.shape[0]):
            row[j] += abs(yc - cols_t[c, j])


@njit(inline="always", error_model="numpy")
def _squared_l2_distances(point: np.ndarray, cols_t: np.ndarray, row: np.ndarray) -> None:
    """row[j] = ‖point − cols_j‖₂², accumulated coordinate by coordinate (contiguous in j)."""
    row[:] = 0.0
    for c in range(point.shape[0]):
        yc = point[c]
        for j in range(row.shape[0]):
            diff = yc - cols_t[c, j]
            row[j] += diff * diff
