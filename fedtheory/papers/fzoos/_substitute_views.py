"""Kernel views of the offline substitutes (private; DESIGN §3, §4; reading guide §4.7).

:class:`AttackView` — the black-box attack margin (App. E.2)
    Client i's softmax model (W_i, b_i) at the perturbed image z + δ(x), δ(x) = ε(2x − 1):
    f_i(x) = l_y − max_{c ≠ y} l_c with l = W_i(z + δ(x)) + b_i (the true-class logit minus
    the highest other logit). Its gradient, where the other argmax c* is unique (almost
    everywhere), is 2ε(W_i[y] − W_i[c*]); at a tie the smallest such c* is used.
:class:`MetricView` — 1 − a macro metric of perturbed softmax parameters (App. E.3)
    θ = θ* + s(2x − 1) with x = (vec W, b) ∈ [0, 1]^{K·p + K}; client i's rows of the pooled
    held-out data are ``offsets[i]:offsets[i+1]``. The predictions argmax_c (Wz + b)_c (ties:
    the smallest c) give per-class counts TP, FP, FN; the metric is the mean over the classes
    present in the true or the predicted labels (scikit-learn's ``average="macro"``, with a
    zero for an empty denominator) of precision TP/(TP + FP), recall TP/(TP + FN),
    F1 2TP/(2TP + FP + FN) or Jaccard TP/(TP + FP + FN) (``metric`` 0, 1, 2, 3). f_i is
    piecewise constant in x: ``zo_gradient`` writes its almost-everywhere gradient 0.

The plain numpy twins are in ``tests/reference/fzoos_substitutes.py``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

PRECISION, RECALL, F1, JACCARD = 0, 1, 2, 3


# ============================================================================== attack


@njit
def _attack_other(view: AttackView, i: int, x: np.ndarray) -> tuple[float, float, int]:
    """(true logit, highest other logit, its class) of client i at z + ε(2x − 1)."""
    W = view.weights[i]
    K = W.shape[0]
    p = x.shape[0]
    y = view.label
    eps = view.epsilon
    true_logit = 0.0
    best = -np.inf
    best_c = 0
    for c in range(K):
        logit = view.bias[i, c]
        for k in range(p):
            logit += W[c, k] * (view.image[k] + eps * (2.0 * x[k] - 1.0))
        if c == y:
            true_logit = logit
        elif logit > best:
            best = logit
            best_c = c
    return true_logit, best, best_c


@njit
def _attack_value(view: AttackView, i: int, x: np.ndarray) -> float:
    """The margin l_y − max_{c≠y} l_c of client i."""
    true_logit, best, _ = _attack_other(view, i, x)
    margin: float = true_logit - best
    return margin


@njit
def _attack_gradient(view: AttackView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """2ε(W_i[y] − W_i[c*]) into ``out``."""
    _, _, c = _attack_other(view, i, x)
    W = view.weights[i]
    y = view.label
    scale = 2.0 * view.epsilon
    for k in range(x.shape[0]):
        out[k] = scale * (W[y, k] - W[c, k])


class _AttackFields(NamedTuple):
    weights: np.ndarray
    bias: np.ndarray
    image: np.ndarray
    label: int
    epsilon: float


class AttackView(_AttackFields):
    """``weights`` (N, K, p), ``bias`` (N, K), the target ``image`` z (p,), its ``label`` y and
    the perturbation radius ``epsilon`` ε."""

    __slots__ = ()

    zo_value = _attack_value
    zo_gradient = _attack_gradient


# ============================================================================== metric


@njit
def _metric_value(view: MetricView, i: int, x: np.ndarray) -> float:
    """1 − the macro metric of θ* + s(2x − 1) on client i's rows."""
    K, p = view.weights.shape
    s = view.scale
    W = np.empty((K, p))
    b = np.empty(K)
    for c in range(K):
        for k in range(p):
            W[c, k] = view.weights[c, k] + s * (2.0 * x[c * p + k] - 1.0)
        b[c] = view.bias[c] + s * (2.0 * x[K * p + c] - 1.0)
    tp = np.zeros(K)
    fp = np.zeros(K)
    fn = np.zeros(K)
    for j in range(view.offsets[i], view.offsets[i + 1]):
        best = -np.inf
        pred = 0
        for c in range(K):
            logit = b[c]
            for k in range(p):
                logit += W[c, k] * view.features[j, k]
            if logit > best:
                best = logit
                pred = c
        truth = view.labels[j]
        if pred == truth:
            tp[truth] += 1.0
        else:
            fp[pred] += 1.0
            fn[truth] += 1.0
    total = 0.0
    present = 0
    metric = view.metric
    for c in range(K):
        if tp[c] + fp[c] + fn[c] == 0.0:
            continue
        present += 1
        if metric == PRECISION:
            den = tp[c] + fp[c]
            num = tp[c]
        elif metric == RECALL:
            den = tp[c] + fn[c]
            num = tp[c]
        elif metric == F1:
            den = 2.0 * tp[c] + fp[c] + fn[c]
            num = 2.0 * tp[c]
        else:
            den = tp[c] + fp[c] + fn[c]
            num = tp[c]
        if den > 0.0:
            total += num / den
    value: float = 1.0 - total / present
    return value


@njit
def _metric_gradient(view: MetricView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """The almost-everywhere gradient of a piecewise-constant f_i: 0."""
    for k in range(x.shape[0]):
        out[k] = 0.0


class _MetricFields(NamedTuple):
    weights: np.ndarray
    bias: np.ndarray
    features: np.ndarray
    labels: np.ndarray
    offsets: np.ndarray
    scale: float
    metric: int


class MetricView(_MetricFields):
    """θ* as ``weights`` (K, p) and ``bias`` (K,), the pooled client ``features`` (n, p) and
    int64 ``labels`` (n,), client row ``offsets`` (N + 1,), the scale s and the metric code."""

    __slots__ = ()

    zo_value = _metric_value
    zo_gradient = _metric_gradient
