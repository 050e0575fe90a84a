"""The finite-difference gradient estimator (3) of the FD baselines (guide §2.2; Lemma D.1).

Δ^{(i)}(x) = (1/Q) Σ_{q=1}^{Q} [(y_i(x + λu_q) − y_i(x))/λ] u_q,  u_q ~ N(0, I_d),

with noisy queries y_i(z) = f_i(z) + σ·ζ, ζ ~ N(0, 1). One call costs Q + 1 queries (the base
value y_i(x) is queried once and reused for the Q differences). The directions are Gaussian, as
Lemma D.1 assumes (FedZO's original uses the sphere with a factor d; guide A10); λ is not given by
the paper (B1), the default 10⁻³ is the guide's.

**Randomness** (counter-based, :mod:`fedtheory.algorithms._sampling`). A call reads two streams:
the directions u_q are the normals ``q·d + k`` of the stream ``directions``, the noises ζ the
normals ``0`` (the base point) and ``q + 1`` of the stream ``noise``. The runners key them by
(seed, replicate, client, round, call); with ``shared_directions`` the direction stream is one
per replicate, shared by every client, step and round (the device of Prop. D.4).

:func:`finite_difference_gradient` is the Python-level estimator (for checks 20–21); the kernel
:func:`_fd_estimate` is what the client steps call.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._jit import njit
from fedtheory._seeds import Seed, seed_entropy
from fedtheory.algorithms._sampling import _mix, _standard_normal, _stream_key
from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos._oracle import zo_value

__all__ = ["finite_difference_gradient"]


@njit(inline="always")
def _fd_estimate(
    view: tuple[Any, ...],
    i: int,
    x: np.ndarray,
    queries: int,
    smoothing: float,
    noise: float,
    directions: np.uint64,
    noise_key: np.uint64,
    out: np.ndarray,
    u: np.ndarray,
    point: np.ndarray,
) -> None:
    """Δ^{(i)}(x) of (3) into ``out`` (Q + 1 queries of client ``i``; see the module docstring).

    ``u`` and ``point`` are (d,) scratch buffers; ``x`` is not modified.
    """
    d = x.shape[0]
    y0 = zo_value(view, i, x)
    if noise > 0.0:
        y0 += noise * _standard_normal(noise_key, 0)
    for k in range(d):
        out[k] = 0.0
    for q in range(queries):
        for k in range(d):
            u[k] = _standard_normal(directions, q * d + k)
            point[k] = x[k] + smoothing * u[k]
        y = zo_value(view, i, point)
        if noise > 0.0:
            y += noise * _standard_normal(noise_key, q + 1)
        coefficient = (y - y0) / (smoothing * queries)
        for k in range(d):
            out[k] += coefficient * u[k]


def finite_difference_gradient(
    problem: Any,
    client: int,
    x: Any,
    *,
    queries: int = 20,
    smoothing: float = 1e-3,
    noise: float = 0.0,
    seed: Seed,
) -> np.ndarray:
    """The finite-difference estimate Δ^{(i)}(x) of eq. (3) (guide §2.2), Q + 1 queries.

    Parameters
    ----------
    problem
        A fzoos problem: ``num_clients``, ``dimension`` and ``kernel_view()`` (its view
        implements :mod:`fedtheory.papers.fzoos._oracle`).
    client
        i ∈ [0, N).
    x
        The point, shape (d,).
    queries
        Q ≥ 1 directions u_q ~ N(0, I_d).
    smoothing
        λ > 0.
    noise
        σ ≥ 0, the standard deviation of the query noise.
    seed
        The seed of the call's two streams (directions and noise).

    Returns
    -------
    numpy.ndarray
        Δ^{(i)}(x), shape (d,).

    Raises
    ------
    ParameterError
        On a bad client, point, Q, λ or σ.

    Notes
    -----
    For a noiseless quadratic E‖Δ − ∇f‖² = ‖∇f‖²(d + 1)/Q + O(λ²) (guide check 20), from
    E‖uuᵀg‖² = (d + 2)‖g‖².
    """
    view = problem.kernel_view()
    m, d = int(problem.num_clients), int(problem.dimension)
    client = check_int("client", client, minimum=0)
    if client >= m:
        raise ParameterError(parameter="client", value=client, rule=f"must be below N = {m}")
    point = check_vector("x", x, shape=(d,))
    queries = check_int("queries", queries, minimum=1)
    smoothing = check_real("smoothing", smoothing, positive=True)
    noise = check_real("noise", noise, nonnegative=True)
    key = np.uint64(_mix(np.uint64(seed_entropy(seed))))  # uint64 between calls from Python
    directions, noise_key = np.uint64(_stream_key(key, 0)), np.uint64(_stream_key(key, 1))
    out = np.empty(d)
    _fd_estimate(
        view, client, point, queries, smoothing, noise, directions, noise_key, out, np.empty(d),
        np.empty(d),
    )  # fmt: skip
    return out
