"""Plain-numpy twins of the gifair kernels (``fedtheory/papers/gifair/_samples.py``).

Written from the problems' definitions (reading guide §1, §4): per-sample losses and gradients of
the grouped quadratics, ½(θ − c)ᵀA(θ − c) + b + zᵀ(θ − c) with gradient A(θ − c) + z, and of
ridge-regularised logistic (labels ±1) and softmax (labels in [0, C), θ = vec of the C × p class
rows) regression, ℓ + (ρ/2)‖θ‖². Vectorised over the samples with numpy; slow on purpose.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp


def quadratic_losses(
    A: np.ndarray, c: np.ndarray, b: float, Z: np.ndarray, w: np.ndarray
) -> np.ndarray:
    """ℓ(w; z_j) for every row z_j of ``Z`` (S, n)."""
    u = w - c
    return 0.5 * u @ A @ u + b + Z @ u


def quadratic_gradients(A: np.ndarray, c: np.ndarray, Z: np.ndarray, w: np.ndarray) -> np.ndarray:
    """∇ℓ(w; z_j) = A(w − c) + z_j, shape (S, n)."""
    return (A @ (w - c))[None, :] + Z


def classification_losses(
    loss: str, X: np.ndarray, y: np.ndarray, classes: int, ridge: float, w: np.ndarray
) -> np.ndarray:
    """ℓ(w; x_j, y_j) + (ρ/2)‖w‖² for every row of ``X`` (n, p)."""
    penalty = 0.5 * ridge * float(w @ w)
    if loss == "logistic":
        return np.logaddexp(0.0, -y * (X @ w)) + penalty
    logits = X @ w.reshape(classes, -1).T
    return logsumexp(logits, axis=1) - logits[np.arange(len(y)), y.astype(int)] + penalty


def classification_gradients(
    loss: str, X: np.ndarray, y: np.ndarray, classes: int, ridge: float, w: np.ndarray
) -> np.ndarray:
    """∇ℓ(w; x_j, y_j) + ρw, shape (n, d)."""
    if loss == "logistic":
        slope = 1.0 / (1.0 + np.exp(y * (X @ w)))
        return -(y * slope)[:, None] * X + ridge * w[None, :]
    logits = X @ w.reshape(classes, -1).T
    probabilities = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
    probabilities[np.arange(len(y)), y.astype(int)] -= 1.0
    per_sample = probabilities[:, :, None] * X[:, None, :]  # (n, C, p)
    return per_sample.reshape(len(y), -1) + ridge * w[None, :]
