"""Plain-numpy twins of the kernels in :mod:`fedtheory.algorithms._kernels`.

Slow and written straight from the definitions: the twin of the GD kernel iterates x itself with
∇f(x) = A x − b (the kernel iterates the error x − x*), the twin of the SGD kernel projects with
:func:`numpy.linalg.norm`. Same inputs, same outputs, same order of random inputs.
"""

from __future__ import annotations

import numpy as np


def gd_quadratic(
    A: np.ndarray,
    b: np.ndarray,
    x_star: np.ndarray,
    x0: np.ndarray,
    step: float,
    rounds: int,
    errors: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Twin of ``_gd_quadratic``: x_{k+1} = x_k − step (A x_k − b + e_k).

    Returns the final iterate, f(x_k) − f* = ½(x_k − x*)ᵀA(x_k − x*) and ‖x_k − x*‖² for
    k = 0, …, rounds. ``errors`` has shape (rounds, d), or (0, d) for exact gradients.
    """
    x = np.array(x0, dtype=float)
    gaps = []
    dist2 = []
    for k in range(rounds + 1):
        r = x - x_star
        gaps.append(0.5 * r @ A @ r)
        dist2.append(r @ r)
        if k == rounds:
            break
        gradient = A @ x - b
        if errors.shape[0] > 0:
            gradient = gradient + errors[k]
        x = x - step * gradient
    return x, np.array(gaps), np.array(dist2)


def sgd_ball(
    mu: float,
    sigma: float,
    w_star: np.ndarray,
    radius: float,
    z: np.ndarray,
    w0: np.ndarray,
    t0: int,
    step0: float,
    decaying: bool,
    record_at: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, float, int]:
    """Twin of ``_sgd_ball``: projected SGD steps t0, …, t0 + len(z) − 1 on (μ/2)‖w − w*‖².

    Returns the last iterate, ‖w − w*‖² after each step listed in ``record_at``, the largest
    squared norm of an iterate and the number of steps where the projection was active.
    """
    w = np.array(w0, dtype=float)
    recorded = {}
    max_norm2 = 0.0
    projections = 0
    for j in range(z.shape[0]):
        t = t0 + j
        eta = step0 / t if decaying else step0
        g = mu * (w - w_star) + sigma * z[j]
        w = w - eta * g
        if np.linalg.norm(w) > radius:
            w = w * (radius / np.linalg.norm(w))
            projections += 1
        max_norm2 = max(max_norm2, float(w @ w))
        recorded[t] = float((w - w_star) @ (w - w_star))
    dist2 = np.array([recorded[int(t)] for t in record_at])
    return w, dist2, max_norm2, projections
