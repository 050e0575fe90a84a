"""The kernel-level oracle of a finite-sum federated problem (private; DESIGN §3, §4).

Two levels, each a subclass of a :class:`typing.NamedTuple` of arrays that names its kernels (the
idiom of :func:`fedtheory._jit.dispatch`):

the problem's kernel view
    ``client_samples(problem, r, i)`` → the samples of client ``i`` of replicate ``r`` (index
    ``i = num_clients`` denotes the server's own samples, none for most problems), and
    ``max_sample_count(problem)`` → the largest sample count (for per-client buffers);
the samples of one client
    ``sample_count(samples)`` → n_i; ``sample_gradient(samples, j, w, out)`` → ∇ℓ(w; z_j) into
    ``out``; ``sample_loss(samples, j, w)`` → ℓ(w; z_j) (needed only by the steps that read loss
    values, e.g. the fairness reweighting of the gifair paper); optionally
    ``client_loss(samples, w)`` → (1/n_i) Σ_j ℓ(w; z_j), the client's empirical risk (samples
    without a fast path get :func:`_client_loss_by_samples`, the mean of ``sample_loss``); and,
    optionally, ``minibatch_step(samples, rows, w, anchor, eta, lam, scratch)``:
    w ← w − η(ĝ_B(w) + λ(w − anchor)) in place, ĝ_B the mean of the sample gradients of
    ``rows``, ``scratch`` a float64 buffer of at least ``len(rows)`` entries. Samples without a
    fast path get :func:`_minibatch_step_by_samples`, written with ``sample_gradient``; and,
    optionally, ``minibatch_steps(samples, rows, sizes, etas, w, anchor, lam, scratch)``:
    consecutive minibatch steps in one call, step j on the next ``sizes[j]`` entries of
    ``rows`` with the step ``etas[j]`` (a client's steps between two projections), so that a
    kernel can overlap one step's update with the next step's reads (``scratch``: at least
    ``2·max(sizes)`` floats). Samples without it get :func:`_minibatch_steps_by_step`, a loop
    over ``minibatch_step``.

A client step asks for a client's samples once per update and then calls the per-sample kernels
on them: the hot calls carry only that client's arrays (passing the whole problem to every
minibatch step cost the FedAvg loop ~5%). The views live with the problems
(:mod:`fedtheory.problems._linear_samples` for :class:`~fedtheory.problems.FederatedDataset`,
and in the paper packages for their own problems).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fedtheory._jit import dispatch, njit

__all__ = [
    "client_loss",
    "client_samples",
    "max_sample_count",
    "minibatch_step",
    "minibatch_steps",
    "sample_count",
    "sample_gradient",
    "sample_loss",
]


@njit
def _minibatch_step_by_samples(
    samples: tuple[Any, ...],
    rows: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    eta: float,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """The generic minibatch step: mean of ``sample_gradient`` over ``rows``, then the step."""
    d = w.shape[0]
    gradient = np.zeros(d)
    one = np.empty(d)
    for s in range(rows.shape[0]):
        sample_gradient(samples, rows[s], w, one)
        for k in range(d):
            gradient[k] += one[k]
    scale = 1.0 / rows.shape[0]
    for k in range(d):
        w[k] -= eta * (scale * gradient[k] + lam * (w[k] - anchor[k]))


@njit
def _minibatch_steps_by_step(
    samples: tuple[Any, ...],
    rows: np.ndarray,
    sizes: np.ndarray,
    etas: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """The generic run of consecutive steps: ``minibatch_step`` on each block of ``rows``."""
    start = 0
    for j in range(sizes.shape[0]):
        b = sizes[j]
        minibatch_step(samples, rows[start : start + b], w, anchor, etas[j], lam, scratch)
        start += b


@njit
def _client_loss_by_samples(samples: tuple[Any, ...], w: np.ndarray) -> float:
    """The generic client loss: (1/n) Σ_j ``sample_loss(samples, j, w)`` (NaN for n = 0)."""
    n = sample_count(samples)
    if n == 0:
        return math.nan
    total = 0.0
    for j in range(n):
        total += sample_loss(samples, j, w)
    mean: float = total / n
    return mean


client_samples = dispatch("client_samples", "r", "i")
max_sample_count = dispatch("max_sample_count")
sample_count = dispatch("sample_count")
sample_gradient = dispatch("sample_gradient", "j", "w", "out")
sample_loss = dispatch("sample_loss", "j", "w")
client_loss = dispatch("client_loss", "w", default=_client_loss_by_samples)
minibatch_step = dispatch(
    "minibatch_step",
    *("rows", "w", "anchor", "eta", "lam", "scratch"),
    default=_minibatch_step_by_samples,
)
minibatch_steps = dispatch(
    "minibatch_steps",
    *("rows", "sizes", "etas", "w", "anchor", "lam", "scratch"),
    default=_minibatch_steps_by_step,
)
