"""Per-replicate scratch states shared by several client and server steps (private; DESIGN §4).

A step's ``client_state``/``server_state`` kernel allocates, once per replicate, what its update
reuses at every call: here the common cases of one or two vectors of the model's dimension.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []


@njit
def _one_vector(
    rule: tuple[Any, ...], problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray]:
    """State: one vector of length d (a gradient buffer, a running sum)."""
    return (np.empty(d),)


@njit
def _two_vectors(
    rule: tuple[Any, ...], problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray]:
    """State: two vectors of length d."""
    return np.empty(d), np.empty(d)
