"""Kernel view of the digits clients for FedAvg on the App. B.1 MLP (private; DESIGN §3, §4).

:class:`MLPSamples` holds the training points of the N clients (padded to the largest count)
and the network's shape, and implements the sample oracle of :mod:`fedtheory.problems._oracle`,
so that the core round loop's FedAvg steps (:class:`~fedtheory.algorithms.client_steps.LocalSGD`
and :class:`~fedtheory.algorithms.server_steps.ServerStep`) train the same MLP that FFGB's
weak learner uses (guide §4.1: "FedAvg on the same architecture"). The model w is the flat
parameter vector θ of :mod:`fedtheory.papers.ffgb._mlp_net`; the per-sample loss is the
cross-entropy (1) of the network's output, ℓ(θ; x, y) = −log softmax(h_θ(x))_y, whose gradient
is backpropagated from ∂ℓ/∂out = softmax(h_θ(x)) − e_y:

- ``sample_gradient(samples, j, w, out)``: ∇_θ ℓ(θ; x_j, y_j);
- ``minibatch_step(samples, rows, w, anchor, eta, lam, scratch)``: one batched forward and
  backward pass over the rows (the mean of the sample gradients, computed as one matrix
  product per layer), then w ← w − η(ĝ_B + λ(w − anchor)).

There are no server samples (index N gives an empty client). The numpy twin of the per-sample
gradient is ``tests/reference/ffgb_learners.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.papers.ffgb._mlp_net import _mlp_backward, _mlp_forward

__all__: list[str] = []


@njit
def _client_samples(problem: MLPSamples, r: int, i: int) -> MLPClientSamples:
    """Client ``i``'s points (every replicate shares them); an empty client for i ≥ N."""
    n = problem.counts[i] if i < problem.counts.shape[0] else 0
    row = min(i, problem.counts.shape[0] - 1)
    return MLPClientSamples(
        problem.features[row, :n],
        problem.labels[row, :n],
        problem.hidden1,
        problem.hidden2,
        problem.classes,
        problem.slope,
    )


@njit
def _max_sample_count(problem: MLPSamples) -> int:
    return int(problem.features.shape[1])


@njit
def _sample_count(samples: MLPClientSamples) -> int:
    return int(samples.features.shape[0])


@njit
def _cross_entropy_gradient(
    samples: MLPClientSamples, rows: np.ndarray, w: np.ndarray, grad: np.ndarray
) -> None:
    """(1/|rows|) Σ_{j ∈ rows} ∇_θ ℓ(θ; x_j, y_j) into ``grad``: one batched pass."""
    b = rows.shape[0]
    d_in = samples.features.shape[1]
    c = samples.classes
    X = np.empty((b, d_in))
    for a in range(b):
        for f in range(d_in):
            X[a, f] = samples.features[rows[a], f]
    Z1, A1, Z2, A2, out = _mlp_forward(w, X, samples.hidden1, samples.hidden2, c, samples.slope)
    dout = np.empty((b, c))
    scale = 1.0 / b
    for a in range(b):
        top = out[a, 0]
        for q in range(1, c):
            top = max(top, out[a, q])
        total = 0.0
        for q in range(c):
            e = math.exp(out[a, q] - top)
            dout[a, q] = e
            total += e
        for q in range(c):
            dout[a, q] *= scale / total
        dout[a, samples.labels[rows[a]]] -= scale
    _mlp_backward(
        w, X, Z1, A1, Z2, A2, dout, samples.hidden1, samples.hidden2, c, samples.slope, grad
    )


@njit
def _sample_gradient(samples: MLPClientSamples, j: int, w: np.ndarray, out: np.ndarray) -> None:
    """∇_θ ℓ(θ; x_j, y_j) into ``out``."""
    rows = np.empty(1, dtype=np.int64)
    rows[0] = j
    _cross_entropy_gradient(samples, rows, w, out)


@njit
def _minibatch_step(
    samples: MLPClientSamples,
    rows: np.ndarray,
    w: np.ndarray,
    anchor: np.ndarray,
    eta: float,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """w ← w − η(ĝ_B(w) + λ(w − anchor)), ĝ_B the mean gradient of ``rows`` (one pass)."""
    p = w.shape[0]
    grad = np.empty(p)
    _cross_entropy_gradient(samples, rows, w, grad)
    for q in range(p):
        w[q] -= eta * (grad[q] + lam * (w[q] - anchor[q]))


class _MLPSamplesFields(NamedTuple):
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    hidden1: int
    hidden2: int
    classes: int
    slope: float


class MLPSamples(_MLPSamplesFields):
    """The clients' points and the network's shape, as the kernels read them.

    Attributes
    ----------
    features : numpy.ndarray
        ``(N, n_max, d_in)`` float64, client i's points in rows ``:counts[i]``.
    labels : numpy.ndarray
        ``(N, n_max)`` int64 labels in 0..classes − 1.
    counts : numpy.ndarray
        ``(N,)`` int64, n_i.
    hidden1, hidden2, classes : int
        The MLP's hidden widths and output size c.
    slope : float
        Leaky-ReLU negative slope.
    """

    __slots__ = ()

    client_samples = _client_samples
    max_sample_count = _max_sample_count


class _MLPClientSamplesFields(NamedTuple):
    features: np.ndarray
    labels: np.ndarray
    hidden1: int
    hidden2: int
    classes: int
    slope: float


class MLPClientSamples(_MLPClientSamplesFields):
    """One client's points (features ``(n_i, d_in)``, labels ``(n_i,)``) and the network's shape."""

    __slots__ = ()

    sample_count = _sample_count
    sample_gradient = _sample_gradient
    minibatch_step = _minibatch_step
