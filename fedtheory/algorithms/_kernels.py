"""numba kernels of :mod:`fedtheory.algorithms` (private; DESIGN §4).

Every kernel is compiled with :func:`fedtheory._jit.njit`, is single-threaded, pure (inputs are
never modified) and deterministic: randomness arrives pre-drawn from the Python wrapper. Each
has a plain-numpy twin in ``tests/reference/`` that the tests compare it with.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []


@njit
def _gd_quadratic(
    A: np.ndarray,
    x_star: np.ndarray,
    x0: np.ndarray,
    step: float,
    rounds: int,
    errors: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gradient descent x_{k+1} = x_k − step·(∇f(x_k) + e_k) on f(x) = ½(x − x*)ᵀA(x − x*) + f*.

    The kernel iterates the error r_k = x_k − x*, for which ∇f(x_k) = A r_k: mathematically the
    same recursion as with ∇f(x) = A x − b, but free of the cancellation in A x − b near the
    optimum, so gaps and distances stay accurate down to underflow.

    Parameters
    ----------
    A : (d, d) float64, symmetric.
    x_star : (d,) float64, the minimiser.
    x0 : (d,) float64, the start.
    step : float, the step size.
    rounds : int, number of steps.
    errors : (rounds, d) float64 gradient errors e_k, or shape (0, d) for exact gradients.

    Returns
    -------
    x : (d,) final iterate x_rounds.
    gaps : (rounds + 1,) f(x_k) − f* = ½ r_kᵀA r_k, k = 0, …, rounds.
    dist2 : (rounds + 1,) ‖x_k − x*‖².
    """
    d = x0.shape[0]
    has_errors = errors.shape[0] > 0
    r = np.empty(d)
    for i in range(d):
        r[i] = x0[i] - x_star[i]
    ar = np.empty(d)
    gaps = np.empty(rounds + 1)
    dist2 = np.empty(rounds + 1)
    for k in range(rounds + 1):
        for i in range(d):
            s = 0.0
            for j in range(d):
                s += A[i, j] * r[j]
            ar[i] = s
        quad = 0.0
        sq = 0.0
        for i in range(d):
            quad += r[i] * ar[i]
            sq += r[i] * r[i]
        gaps[k] = 0.5 * quad
        dist2[k] = sq
        if k == rounds:
            break
        if has_errors:
            for i in range(d):
                r[i] -= step * (ar[i] + errors[k, i])
        else:
            for i in range(d):
                r[i] -= step * ar[i]
    x = np.empty(d)
    for i in range(d):
        x[i] = x_star[i] + r[i]
    return x, gaps, dist2


@njit
def _sgd_ball(
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
    """Projected SGD on F(w) = (μ/2)‖w − w*‖² over the ball ‖w‖ ≤ radius, one block of steps.

    Step t = t0 + j (j = 0, …, n − 1) uses the noise row z[j]:
    g_t = μ(w_t − w*) + σ z[j], w_{t+1} = Π(w_t − η_t g_t) with η_t = step0/t when ``decaying``
    and η_t = step0 otherwise; Π rescales onto the ball when ‖·‖ > radius. Blocks chain: pass the
    returned w and t0 + n to the next call; the result does not depend on how the steps are cut.

    Parameters
    ----------
    mu, sigma : curvature and noise standard deviation.
    w_star : (d,) minimiser.
    radius : radius of the feasible ball.
    z : (n, d) standard normal noise of the block.
    w0 : (d,) iterate before the block's first step.
    t0 : index of the block's first step (t0 ≥ 1).
    step0, decaying : the step rule.
    record_at : sorted int64 array of step indices in [t0, t0 + n − 1] after which to record
        ‖w − w*‖².

    Returns
    -------
    w : (d,) iterate after the block.
    dist2 : (len(record_at),) recorded squared distances.
    max_norm2 : max of ‖w‖² over the block's iterates (after projection).
    projections : number of steps at which the projection was active.
    """
    n, d = z.shape
    w = w0.copy()
    dist2 = np.empty(record_at.shape[0])
    p = 0
    max_norm2 = 0.0
    projections = 0
    radius2 = radius * radius
    for j in range(n):
        t = t0 + j
        eta = step0 / t if decaying else step0
        norm2 = 0.0
        for i in range(d):
            w[i] -= eta * (mu * (w[i] - w_star[i]) + sigma * z[j, i])
            norm2 += w[i] * w[i]
        if norm2 > radius2:
            scale = radius / math.sqrt(norm2)
            norm2 = 0.0
            for i in range(d):
                w[i] *= scale
                norm2 += w[i] * w[i]
            projections += 1
        if norm2 > max_norm2:
            max_norm2 = norm2
        if p < record_at.shape[0] and record_at[p] == t:
            s = 0.0
            for i in range(d):
                diff = w[i] - w_star[i]
                s += diff * diff
            dist2[p] = s
            p += 1
    return w, dist2, max_norm2, projections
