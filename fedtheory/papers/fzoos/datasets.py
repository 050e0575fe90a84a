"""Synthetic data and numpy-trained classifiers for the offline substitutes (reading guide §4.7).

The black-box attack (Sec. 6.2, App. E.2) and the metric optimisation (Sec. 6.3, App. E.3) need
CIFAR-10/MNIST, Covertype and torch; offline they are replaced by small synthetic data sets and
softmax-regression models trained here with plain numpy gradient descent (deterministic: the
models start at 0 and full-batch GD has no randomness):

- :func:`class_templates` and :func:`template_images`: 10-class "images", a smooth template per
  class on a side × side grid plus Gaussian pixel noise;
- :func:`gaussian_mixture`: a Covertype-like data set (7 classes, 54 features, class means plus
  correlated noise);
- :func:`train_softmax`: multinomial logistic regression by full-batch GD;
- :func:`class_subsets`: the P × K classes sampled for every client (App. E.2–E.3).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError

__all__ = [
    "SoftmaxModel",
    "class_subsets",
    "class_templates",
    "gaussian_mixture",
    "template_images",
    "train_softmax",
]


class SoftmaxModel(NamedTuple):
    """A softmax-regression model: logits = W z + b with ``weights`` W (K, p), ``bias`` b (K,)."""

    weights: np.ndarray
    bias: np.ndarray

    def logits(self, features: np.ndarray) -> np.ndarray:
        """W z + b for every row z of ``features`` (n, p), shape (n, K)."""
        return np.asarray(features @ self.weights.T + self.bias)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """argmax of the logits, shape (n,)."""
        return np.asarray(self.logits(features).argmax(axis=1))

    @property
    def flat(self) -> np.ndarray:
        """θ = (vec W, b), shape (K·p + K,): the parameter vector of the metric problem."""
        return np.concatenate([self.weights.ravel(), self.bias])


def class_templates(rng: np.random.Generator, classes: int = 10, side: int = 8) -> np.ndarray:
    """One template per class, shape (classes, side²), values in [0, 1].

    Each template is the maximum of three Gaussian bumps with random centres in the grid and
    widths in [0.8, 2] pixels, scaled to a peak of 1.
    """
    K = check_int("classes", classes, minimum=2)
    s = check_int("side", side, minimum=2)
    grid = np.stack(np.meshgrid(np.arange(s), np.arange(s), indexing="ij"), axis=-1).reshape(-1, 2)
    out = np.empty((K, s * s))
    for c in range(K):
        centres = rng.uniform(0, s - 1, size=(3, 2))
        widths = rng.uniform(0.8, 2.0, size=3)
        dist2 = ((grid[None, :, :] - centres[:, None, :]) ** 2).sum(axis=2)
        bumps = np.exp(-dist2 / (2.0 * widths[:, None] ** 2))
        template = bumps.max(axis=0)
        out[c] = template / template.max()
    return out


def template_images(
    rng: np.random.Generator, templates: np.ndarray, per_class: int, noise: float
) -> tuple[np.ndarray, np.ndarray]:
    """``per_class`` noisy copies (template + N(0, noise²) per pixel) of every template.

    Returns the images (K·per_class, p) and their labels (K·per_class,) as int64, class-major.
    """
    n = check_int("per_class", per_class, minimum=1)
    sigma = check_real("noise", noise, nonnegative=True)
    K, p = templates.shape
    labels = np.repeat(np.arange(K, dtype=np.int64), n)
    images = templates[labels] + sigma * rng.standard_normal((K * n, p))
    return images, labels


def gaussian_mixture(
    rng: np.random.Generator,
    samples: int,
    *,
    classes: int = 7,
    features: int = 54,
    separation: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """A Covertype-like Gaussian mixture: ``samples`` points per class.

    Class means μ_c = separation·N(0, I)/√(p/4) (the classes overlap at separation ≈ 1); every
    point is μ_y + Lε with ε ~ N(0, I) and a shared correlation factor L = I + 0.5·Γ/√p, Γ a
    Gaussian matrix. Draw order: means, Γ, then the noise. Returns (X (K·samples, p),
    y (K·samples,) int64), class-major.
    """
    n = check_int("samples", samples, minimum=1)
    K = check_int("classes", classes, minimum=2)
    p = check_int("features", features, minimum=1)
    sep = check_real("separation", separation, positive=True)
    means = sep * rng.standard_normal((K, p)) / math.sqrt(max(p / 4.0, 1.0))
    factor = np.eye(p) + 0.5 * rng.standard_normal((p, p)) / math.sqrt(p)
    labels = np.repeat(np.arange(K, dtype=np.int64), n)
    X = means[labels] + rng.standard_normal((K * n, p)) @ factor.T
    return X, labels


def train_softmax(
    features: Any,
    labels: Any,
    classes: int,
    *,
    steps: int = 500,
    learning_rate: float = 0.5,
    ridge: float = 1e-3,
) -> SoftmaxModel:
    """Multinomial logistic regression by full-batch gradient descent from W = 0, b = 0.

    Minimises (1/n) Σ_j [log Σ_c e^{l_c(z_j)} − l_{y_j}(z_j)] + (ridge/2)‖W‖² with
    l(z) = Wz + b, by ``steps`` GD steps of size ``learning_rate`` (numpy; deterministic).

    Raises
    ------
    ParameterError
        If the shapes disagree, a label is outside [0, classes) or a setting is out of range.
    """
    X = np.asarray(features, dtype=np.float64)
    y = np.asarray(labels)
    K = check_int("classes", classes, minimum=2)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] < 1:
        raise ParameterError(
            parameter="features", value=f"shapes {X.shape}, {y.shape}", rule="must be (n, p), (n,)"
        )
    if y.min() < 0 or y.max() >= K:
        raise ParameterError(parameter="labels", value=y.max(), rule=f"must lie in [0, {K})")
    T = check_int("steps", steps, minimum=1)
    eta = check_real("learning_rate", learning_rate, positive=True)
    lam = check_real("ridge", ridge, nonnegative=True)
    n, p = X.shape
    W = np.zeros((K, p))
    b = np.zeros(K)
    onehot = np.eye(K)[y]
    for _ in range(T):
        logits = X @ W.T + b
        logits -= logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(axis=1, keepdims=True)
        residual = (prob - onehot) / n
        W -= eta * (residual.T @ X + lam * W)
        b -= eta * residual.sum(axis=0)
    return SoftmaxModel(W, b)


def class_subsets(
    rng: np.random.Generator, clients: int, classes: int, P: float
) -> list[np.ndarray]:
    """The classes of every client: ``max(1, round(P·classes))`` of them, sampled without
    replacement, independently per client (App. E.2: "each time we sample P×10 classes").

    Raises
    ------
    ParameterError
        If P ∉ [0, 1].
    """
    N = check_int("clients", clients, minimum=1)
    K = check_int("classes", classes, minimum=1)
    share = check_real("P", P, nonnegative=True)
    if share > 1.0:
        raise ParameterError(parameter="P", value=share, rule="must lie in [0, 1]")
    k = max(1, round(share * K))
    return [np.sort(rng.choice(K, size=k, replace=False)) for _ in range(N)]
