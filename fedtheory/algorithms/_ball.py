"""Euclidean projection onto a ball, for the client and server steps (private; DESIGN §4)."""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []


@njit
def _project(w: np.ndarray, radius: float) -> None:
    """Euclidean projection onto the ball {‖w‖ ≤ radius} (in place; NaN and inf propagate)."""
    d = w.shape[0]
    norm2 = 0.0
    for k in range(d):
        norm2 += w[k] * w[k]
    if not norm2 > radius * radius:
        return
    if math.isinf(norm2):  # finite entries whose squares overflow: rescale first
        top = 0.0
        for k in range(d):
            top = max(top, abs(w[k]))
        norm2 = 0.0
        for k in range(d):
            norm2 += (w[k] / top) ** 2
        factor = radius / (top * math.sqrt(norm2))
    else:
        factor = radius / math.sqrt(norm2)
    for k in range(d):
        w[k] *= factor
