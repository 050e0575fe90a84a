"""Kernel view of :class:`~fedtheory.problems.FederatedDataset` (private; DESIGN §3, §4).

:class:`LinearSamples` holds a batch of R datasets of the same shape — features ``(R, m, n_max,
d)``, targets ``(R, m, n_max)``, counts ``(R, m)`` — and the loss code of
:data:`~fedtheory.problems.LOSSES`; :class:`LinearClientSamples` is one client's part of it. Their
kernels implement the oracle of :mod:`fedtheory.problems._oracle` for the three per-sample losses

- logistic: ∇ℓ(w; x, y) = −y x sig(−y xᵀw),
- squared: ∇ℓ(w; x, y) = (xᵀw − y) x,
- mean: ∇ℓ(w; z) = w − z,

their values ℓ (:func:`_sample_loss`: log(1 + e^{−y xᵀw}), ½(xᵀw − y)², ½‖w − z‖², as
:func:`~fedtheory.problems.dataset.sample_losses`), with a fast minibatch step
(:func:`_minibatch_step`). There are no server samples. The plain numpy twin is
``tests/reference/federated.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._jit import njit
from fedtheory._vector_math import _exp
from fedtheory.problems.dataset import LOSSES, FederatedDataset

__all__ = [
    "LOSS_LOGISTIC",
    "LOSS_MEAN",
    "LOSS_SQUARED",
    "LinearClientSamples",
    "LinearSamples",
    "linear_samples",
]

LOSS_LOGISTIC = LOSSES["logistic"]
LOSS_SQUARED = LOSSES["squared"]
LOSS_MEAN = LOSSES["mean"]


@njit(inline="always", error_model="numpy")
def _logistic_slope(margin: float) -> float:
    """sig(−margin) = 1/(1 + e^{margin}) without overflow and without a branch.

    With e = e^{−|margin|} ≤ 1 it is e/(1 + e) for margin ≥ 0 and 1/(1 + e) otherwise; the
    choice is a select, not a jump (the sign of the margin is unpredictable during training),
    and e is the polynomial exp of :mod:`fedtheory._vector_math` (≤ 2 ulp; libm's ``exp``
    would keep a loop over a minibatch from vectorising).
    """
    e = _exp(-abs(margin))
    top = e if margin >= 0.0 else 1.0
    return top / (1.0 + e)


@njit
def _client_samples(problem: LinearSamples, r: int, i: int) -> LinearClientSamples:
    """Client ``i``'s rows of replicate ``r`` (an empty client for the server: no own data)."""
    if i >= problem.counts.shape[1]:
        return LinearClientSamples(
            problem.loss, problem.features[r, 0, :0], problem.targets[r, 0, :0]
        )
    n = problem.counts[r, i]
    return LinearClientSamples(problem.loss, problem.features[r, i, :n], problem.targets[r, i, :n])


@njit
def _max_sample_count(problem: LinearSamples) -> int:
    return int(problem.features.shape[2])


@njit
def _sample_count(samples: LinearClientSamples) -> int:
    return int(samples.features.shape[0])


@njit
def _sample_gradient(samples: LinearClientSamples, j: int, w: np.ndarray, out: np.ndarray) -> None:
    """∇ℓ(w; z_j) into ``out``."""
    x = samples.features[j]
    d = w.shape[0]
    if samples.loss == LOSS_MEAN:
        for k in range(d):
            out[k] = w[k] - x[k]
        return
    margin = 0.0
    for k in range(d):
        margin += x[k] * w[k]
    target = samples.targets[j]
    if samples.loss == LOSS_LOGISTIC:
        g = -target * _logistic_slope(target * margin)
    else:
        g = margin - target
    for k in range(d):
        out[k] = g * x[k]


@njit
def _softplus(u: float) -> float:
    """log(1 + e^u) without overflow: max(u, 0) + log1p(e^{−|u|})."""
    return max(u, 0.0) + math.log1p(math.exp(-abs(u)))


@njit
def _sample_loss(samples: LinearClientSamples, j: int, w: np.ndarray) -> float:
    """ℓ(w; z_j): log(1 + e^{−y xᵀw}) (logistic), ½(xᵀw − y)² (squared), ½‖w − z‖² (mean)."""
    x = samples.features[j]
    d = w.shape[0]
    if samples.loss == LOSS_MEAN:
        total = 0.0
        for k in range(d):
            diff = w[k] - x[k]
            total += diff * diff
        return 0.5 * total
    margin = 0.0
    for k in range(d):
        margin += x[k] * w[k]
    target = samples.targets[j]
    if samples.loss == LOSS_LOGISTIC:
        return _softplus(float(-target * margin))
    residual = margin - target
    return float(0.5 * residual * residual)


@njit(inline="always")
def _margins(
    X: np.ndarray, rows: np.ndarray, start: int, b: int, w: np.ndarray, out: np.ndarray
) -> None:
    """out[s] = x_{rows[start + s]}ᵀw for s < b: eight rows at a time, sharing the loads of w.

    (An offset and a count rather than a slice of ``rows``: a slice is a new array view, with
    reference counting, at every minibatch step.)
    """
    d = w.shape[0]
    s = 0
    while s + 8 <= b:
        r0 = rows[start + s]
        r1 = rows[start + s + 1]
        r2 = rows[start + s + 2]
        r3 = rows[start + s + 3]
        r4 = rows[start + s + 4]
        r5 = rows[start + s + 5]
        r6 = rows[start + s + 6]
        r7 = rows[start + s + 7]
        a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = 0.0
        for k in range(d):
            wk = w[k]
            a0 += X[r0, k] * wk
            a1 += X[r1, k] * wk
            a2 += X[r2, k] * wk
            a3 += X[r3, k] * wk
            a4 += X[r4, k] * wk
            a5 += X[r5, k] * wk
            a6 += X[r6, k] * wk
            a7 += X[r7, k] * wk
        out[s] = a0
        out[s + 1] = a1
        out[s + 2] = a2
        out[s + 3] = a3
        out[s + 4] = a4
        out[s + 5] = a5
        out[s + 6] = a6
        out[s + 7] = a7
        s += 8
    while s + 4 <= b:
        r0 = rows[start + s]
        r1 = rows[start + s + 1]
        r2 = rows[start + s + 2]
        r3 = rows[start + s + 3]
        a0 = a1 = a2 = a3 = 0.0
        for k in range(d):
            wk = w[k]
            a0 += X[r0, k] * wk
            a1 += X[r1, k] * wk
            a2 += X[r2, k] * wk
            a3 += X[r3, k] * wk
        out[s] = a0
        out[s + 1] = a1
        out[s + 2] = a2
        out[s + 3] = a3
        s += 4
    while s < b:
        r0 = rows[start + s]
        a0 = 0.0
        for k in range(d):
            a0 += X[r0, k] * w[k]
        out[s] = a0
        s += 1


@njit(inline="always")
def _add_rows(
    X: np.ndarray, rows: np.ndarray, start: int, b: int, coef: np.ndarray, w: np.ndarray
) -> None:
    """w += Σ_{s < b} coef[s]·x_{rows[start + s]}: axpys over the contiguous rows, eight at a
    time."""
    d = w.shape[0]
    s = 0
    while s + 8 <= b:
        r0 = rows[start + s]
        r1 = rows[start + s + 1]
        r2 = rows[start + s + 2]
        r3 = rows[start + s + 3]
        r4 = rows[start + s + 4]
        r5 = rows[start + s + 5]
        r6 = rows[start + s + 6]
        r7 = rows[start + s + 7]
        c0 = coef[s]
        c1 = coef[s + 1]
        c2 = coef[s + 2]
        c3 = coef[s + 3]
        c4 = coef[s + 4]
        c5 = coef[s + 5]
        c6 = coef[s + 6]
        c7 = coef[s + 7]
        for k in range(d):
            w[k] += (c0 * X[r0, k] + c1 * X[r1, k] + c2 * X[r2, k] + c3 * X[r3, k]) + (
                c4 * X[r4, k] + c5 * X[r5, k] + c6 * X[r6, k] + c7 * X[r7, k]
            )
        s += 8
    while s + 4 <= b:
        r0 = rows[start + s]
        r1 = rows[start + s + 1]
        r2 = rows[start + s + 2]
        r3 = rows[start + s + 3]
        c0 = coef[s]
        c1 = coef[s + 1]
        c2 = coef[s + 2]
        c3 = coef[s + 3]
        for k in range(d):
            w[k] += c0 * X[r0, k] + c1 * X[r1, k] + c2 * X[r2, k] + c3 * X[r3, k]
        s += 4
    while s < b:
        r0 = rows[start + s]
        c0 = coef[s]
        for k in range(d):
            w[k] += c0 * X[r0, k]
        s += 1


@njit(error_model="numpy")
def _coefficients(
    loss: int, y: np.ndarray, rows: np.ndarray, start: int, b: int, scale: float, c: np.ndarray
) -> None:
    """c[s] ← −scale·g_s in place (s < b), g_s = ∂ℓ/∂margin at the margin c[s] of the row
    rows[start + s].

    Logistic: g = −y·sig(−y·margin), as scale·sig(−y·margin)·y: the slopes in a loop over
    contiguous values without a branch or a libm call, which LLVM vectorises (the labels are
    gathered in separate scalar loops); squared: g = margin − y.
    """
    if loss == LOSS_LOGISTIC:
        for s in range(b):
            c[s] *= y[rows[start + s]]
        for s in range(b):
            c[s] = scale * _logistic_slope(c[s])
        for s in range(b):
            c[s] *= y[rows[start + s]]
    else:
        for s in range(b):
            c[s] = scale * (y[rows[start + s]] - c[s])


@njit(inline="always")
def _shrink(w: np.ndarray, wg: np.ndarray, eta: float, lam: float) -> None:
    """The proximal part of a step: w ← (1 − ηλ)w + ηλ w^g."""
    keep = 1.0 - eta * lam
    pull = eta * lam
    for k in range(w.shape[0]):
        w[k] = keep * w[k] + pull * wg[k]


@njit
def _minibatch_step(
    samples: LinearClientSamples,
    rows: np.ndarray,
    w: np.ndarray,
    wg: np.ndarray,
    eta: float,
    lam: float,
    coef: np.ndarray,
) -> None:
    """w ← w − η(ĝ_B(w) + λ(w − w^g)) for the rows ``rows`` of a client's samples (in place).

    ĝ_B is the minibatch mean of the sample gradients: −y x sig(−y xᵀw) (logistic),
    (xᵀw − y) x (squared), w − z (mean). The margins xᵀw of the batch are computed first
    (:func:`_margins`), turned into coefficients in a vectorised loop, then w is shrunk
    towards w^g and the gradient is added by axpys over the contiguous rows
    (:func:`_add_rows`): no temporary gradient vector.
    """
    loss = samples.loss
    X = samples.features
    b = rows.shape[0]
    scale = eta / b
    if loss == LOSS_MEAN:
        keep = 1.0 - eta * (1.0 + lam)
        pull = eta * lam
        for k in range(w.shape[0]):
            w[k] = keep * w[k] + pull * wg[k]
        for s in range(b):
            coef[s] = scale
    else:
        _margins(X, rows, 0, b, w, coef)
        _coefficients(loss, samples.targets, rows, 0, b, scale, coef)
        if lam != 0.0:
            _shrink(w, wg, eta, lam)
    _add_rows(X, rows, 0, b, coef, w)


@njit
def _minibatch_steps(
    samples: LinearClientSamples,
    rows: np.ndarray,
    sizes: np.ndarray,
    etas: np.ndarray,
    w: np.ndarray,
    wg: np.ndarray,
    lam: float,
    scratch: np.ndarray,
) -> None:
    """Consecutive minibatch steps (:data:`fedtheory.problems._oracle.minibatch_steps`).

    Step j takes the next ``sizes[j]`` entries of ``rows`` and the step ``etas[j]``.

    The arrays are read off ``samples`` once, before the loop: a field read inside it is a new
    reference, counted up and down (two atomic operations) around the call of
    :func:`_coefficients` at every step (about 1% of App. D FedAvg's time).
    """
    loss = samples.loss
    X = samples.features
    y = samples.targets
    start = 0
    for j in range(sizes.shape[0]):
        b = sizes[j]
        if loss == LOSS_MEAN:
            _minibatch_step(samples, rows[start : start + b], w, wg, etas[j], lam, scratch)
        else:
            _margins(X, rows, start, b, w, scratch)
            _coefficients(loss, y, rows, start, b, etas[j] / b, scratch)
            if lam != 0.0:
                _shrink(w, wg, etas[j], lam)
            _add_rows(X, rows, start, b, scratch, w)
        start += b


class _LinearSamplesFields(NamedTuple):
    features: np.ndarray
    targets: np.ndarray
    counts: np.ndarray
    loss: int


class LinearSamples(_LinearSamplesFields):
    """R federated datasets of one shape, as the kernels read them.

    Attributes
    ----------
    features : numpy.ndarray
        ``(R, m, n_max, d)`` float64 (the sample z itself for the mean loss).
    targets : numpy.ndarray
        ``(R, m, n_max)`` float64.
    counts : numpy.ndarray
        ``(R, m)`` int64, the sample sizes n_i.
    loss : int
        Loss code (:data:`~fedtheory.problems.LOSSES`).
    """

    __slots__ = ()

    client_samples = _client_samples
    max_sample_count = _max_sample_count


class _LinearClientSamplesFields(NamedTuple):
    loss: int
    features: np.ndarray
    targets: np.ndarray


class LinearClientSamples(_LinearClientSamplesFields):
    """One client's samples: features ``(n_i, d)``, targets ``(n_i,)`` and the loss code."""

    __slots__ = ()

    sample_count = _sample_count
    sample_gradient = _sample_gradient
    sample_loss = _sample_loss
    minibatch_step = _minibatch_step
    minibatch_steps = _minibatch_steps


def linear_samples(datasets: Sequence[FederatedDataset]) -> LinearSamples:
    """Stack datasets of one shape and loss (the caller checks that they agree).

    A single dataset is viewed, not copied.
    """
    if len(datasets) == 1:
        only = datasets[0]
        return LinearSamples(
            kernel_array(only.features[None]),
            kernel_array(only.targets[None]),
            kernel_array(only.counts[None], np.int64),
            int(LOSSES[only.loss]),
        )
    return LinearSamples(
        kernel_array(np.stack([item.features for item in datasets])),
        kernel_array(np.stack([item.targets for item in datasets])),
        kernel_array(np.stack([item.counts for item in datasets]), np.int64),
        int(LOSSES[datasets[0].loss]),
    )
