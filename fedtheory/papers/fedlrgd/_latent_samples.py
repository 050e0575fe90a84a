"""Kernel view of a :class:`~fedtheory.papers.fedlrgd.erm.LatentERM` (private; DESIGN §3, §4).

:class:`LatentSamples` holds the per-sample data of the clients (indices 0, …, m − 1) and of the
server (index m) in arrays padded to the largest sample count, and implements the oracle of
:mod:`fedtheory.problems._oracle`, so that the core round loop's client and server steps run on
it (FedAve and federated GD, :mod:`fedtheory.papers.fedlrgd.baselines`). The per-sample gradient
is written by hand for the two families:

- LVM-A (family 0): ∇_θ f(x, y; θ) = (σ(θᵀx) − y)x + μθ;
- LVM-Q (family 1): ∇_θ f(x; θ) = Σ_k φ_k(x) H_kθ + μθ − b(x).

``tests/reference/fedlrgd_algorithms.py`` checks it against the instance's vectorised
:meth:`~fedtheory.papers.fedlrgd.erm.LatentERM.gradient`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._jit import njit
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.erm import LatentERM, LogisticLatentERM, QuadraticLatentERM

__all__ = ["LatentClientSamples", "LatentSamples", "latent_samples"]

_LOGISTIC = 0
_QUADRATIC = 1


@njit
def _client_samples(problem: LatentSamples, r: int, c: int) -> LatentClientSamples:
    """The samples of client ``c`` (c = m: the server's)."""
    n = problem.counts[c]
    return LatentClientSamples(
        problem.family,
        problem.features[c, :n] if problem.family == _LOGISTIC else problem.features[0, :0],
        problem.labels[c, :n] if problem.family == _LOGISTIC else problem.labels[0, :0],
        problem.bumps[c, :n] if problem.family == _QUADRATIC else problem.bumps[0, :0],
        problem.linear[c, :n] if problem.family == _QUADRATIC else problem.linear[0, :0],
        problem.curvatures,
        problem.ridge,
        n,
    )


@njit
def _max_sample_count(problem: LatentSamples) -> int:
    return int(problem.counts.max())


@njit
def _sample_count(samples: LatentClientSamples) -> int:
    return int(samples.size)


@njit
def _sample_gradient(
    samples: LatentClientSamples, j: int, theta: np.ndarray, out: np.ndarray
) -> None:
    """∇_θ f(x_j; θ) into ``out`` for LVM-A (family 0) or LVM-Q (family 1)."""
    p = theta.shape[0]
    ridge = samples.ridge
    if samples.family == _LOGISTIC:
        features = samples.features
        z = 0.0
        for i in range(p):
            z += features[j, i] * theta[i]
        if z >= 0.0:
            sig = 1.0 / (1.0 + math.exp(-z))
        else:
            ez = math.exp(z)
            sig = ez / (1.0 + ez)
        residual = sig - samples.labels[j]
        for i in range(p):
            out[i] = residual * features[j, i] + ridge * theta[i]
    else:
        linear = samples.linear
        bumps = samples.bumps
        curvatures = samples.curvatures
        for i in range(p):
            out[i] = ridge * theta[i] - linear[j, i]
        for k in range(curvatures.shape[0]):
            weight = bumps[j, k]
            for i in range(p):
                acc = 0.0
                for q in range(p):
                    acc += curvatures[k, i, q] * theta[q]
                out[i] += weight * acc


class _LatentSamplesFields(NamedTuple):
    family: int
    features: np.ndarray
    labels: np.ndarray
    bumps: np.ndarray
    linear: np.ndarray
    curvatures: np.ndarray
    ridge: float
    counts: np.ndarray


class LatentSamples(_LatentSamplesFields):
    """The samples of a LatentERM as the kernels read them (client c < m, server c = m).

    Attributes
    ----------
    family : int
        0 for LVM-A (logistic), 1 for LVM-Q (quadratic).
    features, labels : numpy.ndarray
        LVM-A: x, shape ``(m + 1, n_max, p)``, and the soft labels y, ``(m + 1, n_max)``.
    bumps, linear, curvatures : numpy.ndarray
        LVM-Q: φ_k(x) ``(m + 1, n_max, K)``, b(x) ``(m + 1, n_max, p)`` and H_k ``(K, p, p)``.
    ridge : float
        μ.
    counts : numpy.ndarray
        ``(m + 1,)`` int64: s for every client, the server's sample count last.
    """

    __slots__ = ()

    client_samples = _client_samples
    max_sample_count = _max_sample_count


class _LatentClientSamplesFields(NamedTuple):
    family: int
    features: np.ndarray
    labels: np.ndarray
    bumps: np.ndarray
    linear: np.ndarray
    curvatures: np.ndarray
    ridge: float
    size: int


class LatentClientSamples(_LatentClientSamplesFields):
    """The samples of one party (a client, or the server): the arrays of :class:`LatentSamples`
    at its index (rows ``:size``; the other family's arrays empty)."""

    __slots__ = ()

    sample_count = _sample_count
    sample_gradient = _sample_gradient


def _with_server(clients: np.ndarray, server: np.ndarray) -> np.ndarray:
    """Client rows (m, s, ...) and server rows (R, ...) in one array (m + 1, max(s, R), ...)."""
    m, s = clients.shape[:2]
    rows = max(s, server.shape[0])
    out = np.zeros((m + 1, rows, *clients.shape[2:]))
    out[:m, :s] = clients
    out[m, : server.shape[0]] = server
    return kernel_array(out)


def latent_samples(instance: LatentERM) -> LatentSamples:
    """The kernel view of ``instance``."""
    m, s, p = instance.m, instance.s, instance.p
    counts = np.append(np.full(m, s, dtype=np.int64), instance.server_size)
    if isinstance(instance, LogisticLatentERM):
        return LatentSamples(
            family=_LOGISTIC,
            features=_with_server(instance.clients[:, :, :-1], instance.server[:, :-1]),
            labels=_with_server(instance.clients[:, :, -1], instance.server[:, -1]),
            bumps=np.zeros((1, 1, 1)),
            linear=np.zeros((1, 1, 1)),
            curvatures=np.zeros((0, p, p)),
            ridge=float(instance.ridge),
            counts=counts,
        )
    if isinstance(instance, QuadraticLatentERM):
        flat = instance.clients.reshape(-1, instance.d_x)
        return LatentSamples(
            family=_QUADRATIC,
            features=np.zeros((1, 1, 1)),
            labels=np.zeros((1, 1)),
            bumps=_with_server(
                instance._bumps(flat).reshape(m, s, -1), instance._bumps(instance.server)
            ),
            linear=_with_server(
                instance._linear(flat).reshape(m, s, p), instance._linear(instance.server)
            ),
            curvatures=kernel_array(instance.curvatures),
            ridge=float(instance.ridge),
            counts=counts,
        )
    raise ParameterError(
        parameter="instance",
        value=type(instance).__name__,
        rule="the kernels support LogisticLatentERM and QuadraticLatentERM",
    )
