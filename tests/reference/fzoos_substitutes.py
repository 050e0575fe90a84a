"""Plain-numpy twins of the substitute kernels (``fedtheory/papers/fzoos/_substitute_views.py``).

Written from the definitions (reading guide §4.4, §4.5, §4.7): the attack margin
l_y − max_{c≠y} l_c of a softmax model at z + ε(2x − 1) with its gradient 2ε(W_y − W_{c*}),
and 1 − a macro metric (precision, recall, F1, Jaccard over the classes present in the true or
predicted labels, 0 for an empty denominator) of θ* + s(2x − 1) from a confusion matrix.
"""

from __future__ import annotations

import numpy as np

METRIC_NAMES = ("precision", "recall", "f1", "jaccard")


def attack(view, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins (N,) and their gradients (N, d) of every client at x."""
    image = view.image + view.epsilon * (2 * x - 1)
    logits = view.weights @ image + view.bias  # (N, K)
    others = logits.copy()
    others[:, view.label] = -np.inf
    c = others.argmax(axis=1)
    rows = np.arange(logits.shape[0])
    margins = logits[:, view.label] - logits[rows, c]
    grads = 2 * view.epsilon * (view.weights[:, view.label, :] - view.weights[rows, c, :])
    return margins, grads


def macro_metric(truth: np.ndarray, pred: np.ndarray, classes: int, metric: str) -> float:
    """The macro average of ``metric`` over the labels present in ``truth`` or ``pred``."""
    confusion = np.zeros((classes, classes))
    np.add.at(confusion, (truth, pred), 1.0)
    tp = np.diag(confusion)
    fp = confusion.sum(axis=0) - tp
    fn = confusion.sum(axis=1) - tp
    present = (tp + fp + fn) > 0
    num = {"precision": tp, "recall": tp, "f1": 2 * tp, "jaccard": tp}[metric]
    den = {
        "precision": tp + fp,
        "recall": tp + fn,
        "f1": 2 * tp + fp + fn,
        "jaccard": tp + fp + fn,
    }[metric]
    scores = np.divide(num, den, out=np.zeros(classes), where=den > 0)
    return float(scores[present].mean())


def metric_values(view, x: np.ndarray) -> np.ndarray:
    """1 − the macro metric of θ* + s(2x − 1) for every client, shape (N,)."""
    K, p = view.weights.shape
    theta = np.concatenate([view.weights.ravel(), view.bias]) + view.scale * (2 * x - 1)
    W, b = theta[: K * p].reshape(K, p), theta[K * p :]
    out = []
    for i in range(view.offsets.shape[0] - 1):
        rows = slice(view.offsets[i], view.offsets[i + 1])
        pred = (view.features[rows] @ W.T + b).argmax(axis=1)
        out.append(1.0 - macro_metric(view.labels[rows], pred, K, METRIC_NAMES[view.metric]))
    return np.array(out)
