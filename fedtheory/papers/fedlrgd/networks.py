"""Small fully connected networks and the approximate rank of their gradient slices (App. C).

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* (FedLRGD), App. C,
Figures 1–2, give empirical evidence that per-sample gradients of trained neural networks are
approximately low rank when read as a "data × parameter" kernel. The procedure (reading guide
§4.1) is:

1. train a network; θ* ∈ ℝ^p are its final weights;
2. draw k *test* samples x^(1), …, x^(k) uniformly among k-subsets;
3. draw k perturbations θ^(j) = θ* + (‖θ*‖₁/p)·g_j, g_j ~ N(0, I_p) i.i.d. (eq. (75));
4. form the tensor ℳ_{i,j,q} = ∂f/∂θ_q(x^(i); θ^(j)) (eq. (76)), f the cross-entropy loss of
   the network on one sample;
5. for every weight with |θ*_q| ≥ ε = 0.005 ("non-trivial"), the slice ℳ_q ∈ ℝ^{k×k} (rows:
   data, columns: perturbed parameters) has approximate rank (eq. (77))
   min{J ∈ [k] : Σ_{i≤J} σ_i(ℳ_q)² ≥ 0.9‖ℳ_q‖_F²}, defined for non-zero ℳ_q;
6. plot a histogram of about 500 approximate ranks sampled uniformly among the non-trivial q
   (footnote 12).

This module makes that procedure executable with numpy only, on the reading guide's substitute
(§4.4): scikit-learn's bundled 8×8 digits instead of MNIST/CIFAR-10 (no download), and an MLP
64 → K → 10 instead of 784 → 784 → 10 (p = 75K + 10, so 4810 for K = 64).

What is here
------------
- :class:`Network`: a fully connected network (sigmoid or ReLU hidden layers, softmax output,
  cross-entropy loss per sample) with a flat parameter vector, exact per-sample gradients by
  backpropagation vectorised over samples (:meth:`Network.per_sample_gradients`), the gradient
  of the mean loss by ordinary batch backpropagation (:meth:`Network.batch_gradient`, an
  independent code path) and central finite differences (:func:`finite_difference_check`).
- :func:`train_sgd`: plain minibatch SGD, deterministic given a seed.
- :func:`digits_split`: the 8×8 digits, intensities divided by 16, one-hot labels, a seeded
  train/test split (scikit-learn is imported lazily: it is the optional ``data`` extra).
- :func:`app_c_perturbations`, :func:`gradient_slices`: steps 2–4; :func:`nontrivial_coordinates`
  and :func:`sample_coordinates`: steps 5–6.
- :func:`energy_rank`, :func:`energy_ranks`: eq. (77);
  :func:`gaussian_null_ranks`: the same statistic on i.i.d. Gaussian matrices of the same shape
  (a null the paper does not show; guide §6.13).
- :func:`slice_rank_study`: the whole pipeline for one seed.

Departures from the paper (documented where they occur): the digits and the smaller network
above; plain minibatch SGD instead of Adam (the paper's optimizer; Keras defaults presumed by
the guide); all-zero slices, whose approximate rank (77) is undefined, are counted and excluded
(the paper does not mention them; with digits they come from border pixels that are 0 in all
k sampled images).

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah (2022), Federated Optimization of Smooth Loss Functions,
   arXiv:2201.01954v2, App. C, eqs. (75)–(77), Figures 1–2.
.. [2] X. Glorot & Y. Bengio (2010), Understanding the difficulty of training deep feedforward
   neural networks, AISTATS (the "Glorot-uniform" initialisation, Keras' default).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy.special import expit, log_softmax, softmax

from fedtheory._arrays import readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.errors import FedTheoryError, ParameterError

__all__ = [
    "ACTIVATIONS",
    "APP_C_ENERGY",
    "APP_C_THRESHOLD",
    "DigitsSplit",
    "FiniteDifferenceCheck",
    "GradientSlices",
    "MissingExtraError",
    "Network",
    "SliceRankStudy",
    "TrainingRun",
    "app_c_perturbations",
    "digits_split",
    "energy_rank",
    "energy_ranks",
    "finite_difference_check",
    "gaussian_null_ranks",
    "gradient_slices",
    "nontrivial_coordinates",
    "one_hot",
    "sample_coordinates",
    "slice_rank_study",
    "train_sgd",
]

#: Hidden-layer activations: the logistic sigmoid (App. C's default) and ReLU (Fig. 1(i), 2(d)).
ACTIVATIONS: tuple[str, ...] = ("sigmoid", "relu")
#: Fraction of the squared Frobenius norm the approximate rank must capture (eq. (77)).
APP_C_ENERGY = 0.9
#: Weights with |θ*_q| ≥ this are "non-trivial" (App. C, ε = 0.005).
APP_C_THRESHOLD = 0.005

Activation = Literal["sigmoid", "relu"]


class MissingExtraError(FedTheoryError, ImportError):
    """An optional dependency is not installed (the message names the extra to install)."""


# --------------------------------------------------------------------------- the network


@dataclass(frozen=True)
class Network:
    """A fully connected network with softmax output and per-sample cross-entropy loss (App. C).

    Layer ``l`` maps a_{l−1} to h_l = W_l a_{l−1} + b_l; hidden layers apply the activation
    (a_l = σ(h_l) or max(h_l, 0)), the output layer the softmax. The loss of one sample
    x = (y, z), with y the image and z the one-hot label, is the cross-entropy
    f(x; θ) = −Σ_c z_c log softmax(h_L)_c, as in App. C (MNIST: 784 → K → 10, sigmoid or ReLU).

    The parameter vector θ ∈ ℝ^p concatenates, layer by layer, W_l (shape out × in, row-major)
    then b_l, so p = Σ_l out_l (in_l + 1).

    Parameters
    ----------
    sizes
        Layer widths (inputs, hidden…, classes): at least 2 entries, each ≥ 1. The digits
        substitute of App. C is ``(64, K, 10)``.
    activation
        ``"sigmoid"`` (App. C's default, "logistic") or ``"relu"`` (Fig. 1(i)). The derivative
        of ReLU at 0 is taken as 0.

    Examples
    --------
    >>> net = Network((64, 64, 10), "sigmoid")
    >>> net.n_params  # 75 K + 10 with K = 64 (reading guide §4.4)
    4810
    """

    sizes: tuple[int, ...]
    activation: Activation = "sigmoid"

    def __post_init__(self) -> None:
        if isinstance(self.sizes, (str, bytes)) or not hasattr(self.sizes, "__len__"):
            raise ParameterError(
                parameter="sizes", value=self.sizes, rule="must be a sequence of layer widths"
            )
        sizes = tuple(check_int(f"sizes[{i}]", s, minimum=1) for i, s in enumerate(self.sizes))
        if len(sizes) < 2:
            raise ParameterError(
                parameter="sizes",
                value=list(sizes),
                rule="needs at least an input and an output width",
            )
        if self.activation not in ACTIVATIONS:
            raise ParameterError(
                parameter="activation",
                value=self.activation,
                rule=f"must be one of {', '.join(repr(a) for a in ACTIVATIONS)}",
            )
        object.__setattr__(self, "sizes", sizes)

    # ----------------------------------------------------------------- layout

    @property
    def inputs(self) -> int:
        """Input dimension (64 for the 8×8 digits)."""
        return self.sizes[0]

    @property
    def classes(self) -> int:
        """Number of classes (width of the softmax layer)."""
        return self.sizes[-1]

    @property
    def n_layers(self) -> int:
        """Number of affine layers (hidden layers + 1)."""
        return len(self.sizes) - 1

    @functools.cached_property
    def _offsets(self) -> tuple[tuple[int, int, int], ...]:
        """Per layer: (start of W, start of b, end of b) in θ."""
        out = []
        start = 0
        for fan_in, fan_out in zip(self.sizes[:-1], self.sizes[1:], strict=True):
            w_end = start + fan_out * fan_in
            out.append((start, w_end, w_end + fan_out))
            start = w_end + fan_out
        return tuple(out)

    @property
    def n_params(self) -> int:
        """p, the number of weights and biases."""
        return self._offsets[-1][2]

    def unpack(self, theta: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Views (W_l, b_l) into ``theta``; W_l has shape (out_l, in_l)."""
        theta = self._check_theta(theta)
        return self._unpack(theta)

    def _unpack(self, theta: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        layers = []
        for (w0, b0, b1), fan_in, fan_out in zip(
            self._offsets, self.sizes[:-1], self.sizes[1:], strict=True
        ):
            layers.append((theta[w0:b0].reshape(fan_out, fan_in), theta[b0:b1]))
        return layers

    def locate(self, coordinates: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Decode flat indices q into (layer, row, column); column −1 marks a bias.

        Parameters
        ----------
        coordinates
            Integer indices in [0, p).

        Returns
        -------
        tuple of numpy.ndarray
            ``layer`` (0-based), ``row`` (output unit) and ``column`` (input unit, −1 for b).

        Examples
        --------
        >>> net = Network((3, 2, 2), "relu")
        >>> [a.tolist() for a in net.locate(np.array([0, 5, 6, 8, 13]))]
        [[0, 0, 0, 1, 1], [0, 1, 0, 0, 1], [0, 2, -1, 0, -1]]
        """
        q = self._check_coordinates(coordinates)
        layer = np.zeros(q.shape, dtype=np.int64)
        row = np.zeros(q.shape, dtype=np.int64)
        column = np.zeros(q.shape, dtype=np.int64)
        for index, (w0, b0, b1) in enumerate(self._offsets):
            fan_in = self.sizes[index]
            in_w = (q >= w0) & (q < b0)
            in_b = (q >= b0) & (q < b1)
            layer[in_w | in_b] = index
            row[in_w] = (q[in_w] - w0) // fan_in
            column[in_w] = (q[in_w] - w0) % fan_in
            row[in_b] = q[in_b] - b0
            column[in_b] = -1
        return layer, row, column

    # ----------------------------------------------------------------- checks

    def _check_theta(self, theta: Any, name: str = "theta") -> np.ndarray:
        return check_vector(name, theta, shape=(self.n_params,))

    def _check_data(self, X: Any, Y: Any) -> tuple[np.ndarray, np.ndarray]:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.inputs or X.shape[0] < 1:
            raise ParameterError(
                parameter="X",
                value=f"array of shape {X.shape}",
                rule=f"must have shape (n, {self.inputs}) with n ≥ 1",
            )
        X = check_vector("X", X, shape=X.shape)
        Y = np.asarray(Y, dtype=np.float64)
        if Y.shape != (X.shape[0], self.classes):
            raise ParameterError(
                parameter="Y",
                value=f"array of shape {Y.shape}",
                rule=f"must be one-hot labels of shape ({X.shape[0]}, {self.classes})",
            )
        Y = check_vector("Y", Y, shape=Y.shape)
        return X, Y

    def _check_coordinates(self, coordinates: Any) -> np.ndarray:
        q = np.asarray(coordinates)
        if q.ndim != 1 or not np.issubdtype(q.dtype, np.integer):
            raise ParameterError(
                parameter="coordinates",
                value=f"array of shape {q.shape} and dtype {q.dtype}",
                rule="must be a one-dimensional integer array",
            )
        if q.size and (q.min() < 0 or q.max() >= self.n_params):
            raise ParameterError(
                parameter="coordinates",
                value=f"indices in [{q.min()}, {q.max()}]",
                rule=f"must lie in [0, {self.n_params})",
            )
        return q.astype(np.int64)

    # ----------------------------------------------------------------- initialisation

    def initial_parameters(self, seed: Seed) -> np.ndarray:
        """Glorot-uniform weights U(±√(6/(in + out))) and zero biases (Keras' defaults [2]_).

        The paper does not give its initialisation; the reading guide (§4.2) presumes Keras'
        defaults, used here for both activations.
        """
        rng = generator(seed)
        theta = np.zeros(self.n_params)
        for (w0, b0, _), fan_in, fan_out in zip(
            self._offsets, self.sizes[:-1], self.sizes[1:], strict=True
        ):
            limit = np.sqrt(6.0 / (fan_in + fan_out))
            theta[w0:b0] = rng.uniform(-limit, limit, size=fan_out * fan_in)
        return theta

    # ----------------------------------------------------------------- forward / backward

    def _act(self, h: np.ndarray) -> np.ndarray:
        return expit(h) if self.activation == "sigmoid" else np.maximum(h, 0.0)

    def _act_derivative(self, h: np.ndarray, a: np.ndarray) -> np.ndarray:
        if self.activation == "sigmoid":
            return a * (1.0 - a)
        return (h > 0).astype(np.float64)

    def _forward(self, theta: np.ndarray, X: np.ndarray) -> tuple[list[np.ndarray], ...]:
        """Pre-activations h_l and activations a_l (a_0 = X; the last h are the logits)."""
        pre: list[np.ndarray] = []
        post: list[np.ndarray] = [X]
        layers = self._unpack(theta)
        for index, (W, b) in enumerate(layers):
            h = post[-1] @ W.T + b
            pre.append(h)
            if index < len(layers) - 1:
                post.append(self._act(h))
        return pre, post

    def _deltas(
        self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray
    ) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per-sample ∂f/∂h_l (shape (n, out_l)) and the layer inputs a_{l−1} (backprop)."""
        deltas, post, _ = self._backward(theta, X, Y)
        return deltas, post

    def _backward(
        self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray
    ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
        """:meth:`_deltas` plus the logits."""
        pre, post = self._forward(theta, X)
        layers = self._unpack(theta)
        delta = softmax(pre[-1], axis=1) - Y  # ∂f/∂logits for softmax + cross-entropy
        deltas = [delta]
        for index in range(self.n_layers - 1, 0, -1):
            W = layers[index][0]
            delta = (delta @ W) * self._act_derivative(pre[index - 1], post[index])
            deltas.append(delta)
        deltas.reverse()
        return deltas, post, pre[-1]

    def losses(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """Per-sample cross-entropy f(x^(i); θ), shape (n,) (computed with a stable log-softmax).

        Parameters
        ----------
        theta
            Parameters, shape (p,).
        X
            Inputs, shape (n, inputs).
        Y
            One-hot labels, shape (n, classes) (rows may also be probability vectors).
        """
        theta = self._check_theta(theta)
        X, Y = self._check_data(X, Y)
        return self._losses(theta, X, Y)

    def _losses(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        logits = self._forward(theta, X)[0][-1]
        return -np.sum(Y * log_softmax(logits, axis=1), axis=1)

    def _losses_and_pattern(
        self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Per-sample losses and, for ReLU, the hidden activation pattern (n, Σ hidden)."""
        pre, _ = self._forward(theta, X)
        losses = -np.sum(Y * log_softmax(pre[-1], axis=1), axis=1)
        if self.activation != "relu" or len(pre) == 1:
            return losses, None
        return losses, np.concatenate([h > 0 for h in pre[:-1]], axis=1)

    def loss(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> float:
        """Mean cross-entropy over the samples (the empirical risk)."""
        return float(self.losses(theta, X, Y).mean())

    def predict(self, theta: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Predicted class (argmax of the logits) of every row of ``X``."""
        theta = self._check_theta(theta)
        X, _ = self._check_data(X, np.zeros((np.shape(X)[0], self.classes)))
        return np.argmax(self._forward(theta, X)[0][-1], axis=1)

    def accuracy(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> float:
        """Fraction of rows whose predicted class is the argmax of the label row."""
        X, Y = self._check_data(X, Y)
        return float(np.mean(self.predict(theta, X) == np.argmax(Y, axis=1)))

    def batch_gradient(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        """Gradient of the *mean* loss (1/n) Σ_i f(x^(i); θ), shape (p,).

        Ordinary batch backpropagation (∂/∂W_l = δ_lᵀ a_{l−1}/n): a code path independent of
        :meth:`per_sample_gradients`, whose rows must average to it (a test checks this).
        """
        theta = self._check_theta(theta)
        X, Y = self._check_data(X, Y)
        return self._batch_gradient(theta, X, Y)

    def _batch_gradient(self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        return self._loss_and_gradient(theta, X, Y)[1]

    def _loss_and_gradient(
        self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray
    ) -> tuple[float, np.ndarray]:
        """Mean loss and its gradient from one forward and one backward pass."""
        deltas, post, logits = self._backward(theta, X, Y)
        n = X.shape[0]
        grad = np.empty(self.n_params)
        for (w0, b0, b1), delta, a in zip(self._offsets, deltas, post, strict=True):
            grad[w0:b0] = (delta.T @ a).ravel() / n
            grad[b0:b1] = delta.sum(axis=0) / n
        loss = float(-np.sum(Y * log_softmax(logits, axis=1)) / n)
        return loss, grad

    def per_sample_gradients(
        self,
        theta: np.ndarray,
        X: np.ndarray,
        Y: np.ndarray,
        coordinates: np.ndarray | None = None,
    ) -> np.ndarray:
        """Exact per-sample gradients G[i, q] = ∂f/∂θ_q(x^(i); θ) by backpropagation.

        This is the quantity of eq. (76) (App. C computes it with "one iteration of a standard
        GD procedure in Keras with a single data sample"). Vectorised over samples: one
        forward and one backward pass for all rows, then ∂f/∂(W_l)_{uv} = δ_{l,u} a_{l−1,v}
        and ∂f/∂(b_l)_u = δ_{l,u} per sample.

        Parameters
        ----------
        theta
            Parameters, shape (p,).
        X, Y
            Inputs (n, inputs) and one-hot labels (n, classes).
        coordinates
            Optional integer indices q; only those columns are formed (cheap for App. C's
            ~500 sampled coordinates). Default: all p.

        Returns
        -------
        numpy.ndarray
            Shape (n, p), or (n, len(coordinates)).
        """
        theta = self._check_theta(theta)
        X, Y = self._check_data(X, Y)
        q = None if coordinates is None else self._check_coordinates(coordinates)
        return self._per_sample(theta, X, Y, q)

    def _per_sample(
        self, theta: np.ndarray, X: np.ndarray, Y: np.ndarray, q: np.ndarray | None
    ) -> np.ndarray:
        deltas, post = self._deltas(theta, X, Y)
        n = X.shape[0]
        if q is None:
            grad = np.empty((n, self.n_params))
            for (w0, b0, b1), delta, a in zip(self._offsets, deltas, post, strict=True):
                grad[:, w0:b0] = np.einsum("nu,nv->nuv", delta, a).reshape(n, -1)
                grad[:, b0:b1] = delta
            return grad
        layer, row, column = self.locate(q)
        out = np.empty((n, q.size))
        for index, (delta, a) in enumerate(zip(deltas, post, strict=True)):
            weights = (layer == index) & (column >= 0)
            biases = (layer == index) & (column < 0)
            out[:, weights] = delta[:, row[weights]] * a[:, column[weights]]
            out[:, biases] = delta[:, row[biases]]
        return out


def one_hot(labels: np.ndarray, classes: int) -> np.ndarray:
    """One-hot rows z ∈ {0, 1}^classes (App. C's label encoding).

    >>> one_hot(np.array([2, 0]), 3).tolist()
    [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    classes = check_int("classes", classes, minimum=1)
    labels = np.asarray(labels)
    if labels.ndim != 1 or not np.issubdtype(labels.dtype, np.integer):
        raise ParameterError(
            parameter="labels", value=f"array of shape {labels.shape}", rule="must be 1-D ints"
        )
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        raise ParameterError(
            parameter="labels",
            value=f"values in [{labels.min()}, {labels.max()}]",
            rule=f"must lie in [0, {classes})",
        )
    out = np.zeros((labels.size, classes))
    out[np.arange(labels.size), labels] = 1.0
    return out


# --------------------------------------------------------------------------- finite differences


@dataclass(frozen=True, eq=False)
class FiniteDifferenceCheck:
    """Result of :func:`finite_difference_check`.

    Attributes
    ----------
    coordinates : numpy.ndarray
        The checked q's.
    errors : numpy.ndarray
        Relative error err_q per coordinate (see :func:`finite_difference_check`).
    excluded : numpy.ndarray
        Per coordinate, the number of samples left out because θ ± h e_q straddles a ReLU kink
        (always 0 for sigmoid networks).
    """

    coordinates: np.ndarray
    errors: np.ndarray
    excluded: np.ndarray

    @property
    def max_error(self) -> float:
        """The largest relative error."""
        return float(self.errors.max())


def finite_difference_check(
    network: Network,
    theta: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    coordinates: np.ndarray,
    *,
    step: float = 1e-5,
) -> FiniteDifferenceCheck:
    """Per-sample gradients against central differences in float64, coordinate by coordinate.

    For coordinate q, the central difference
    d_q(i) = (f(x^(i); θ + h e_q) − f(x^(i); θ − h e_q))/(2h) is formed for every sample i at
    once and compared with the backpropagated column g_q(i) = ∂f/∂θ_q(x^(i); θ):

        err_q = ‖d_q − g_q‖₂ / max(‖d_q‖₂, ‖g_q‖₂)   (0 when both vanish),

    the norms being over the samples. The reading guide's check V16 asks err_q < 1e−5.

    For ReLU networks a sample whose hidden activation pattern (h > 0) differs between θ + h e_q
    and θ − h e_q is left out of coordinate q's comparison (and counted): there the central
    difference averages two one-sided slopes and says nothing about the code.

    Parameters
    ----------
    network, theta, X, Y
        The network, parameters (p,), inputs and one-hot labels.
    coordinates
        Integer indices q to check.
    step
        h > 0. Truncation error is O(h²); rounding is about u·max|logit|/h with u = 2^−53
        (the loss is a difference of logits), so gradients much smaller than ~1e−10 cannot be
        resolved at h = 1e−5 and the check is meaningful only where the loss is not saturated
        (e.g. at initialisation, not at a fully trained θ*).
    """
    theta = network._check_theta(theta)
    X, Y = network._check_data(X, Y)
    q = network._check_coordinates(coordinates)
    h = check_real("step", step, positive=True)
    exact = network._per_sample(theta, X, Y, q)
    errors = np.empty(q.size)
    excluded = np.zeros(q.size, dtype=np.int64)
    for index, coordinate in enumerate(q):
        plus = theta.copy()
        minus = theta.copy()
        plus[coordinate] += h
        minus[coordinate] -= h
        f_plus, pattern_plus = network._losses_and_pattern(plus, X, Y)
        f_minus, pattern_minus = network._losses_and_pattern(minus, X, Y)
        keep = np.ones(X.shape[0], dtype=bool)
        if pattern_plus is not None and pattern_minus is not None:
            keep = (pattern_plus == pattern_minus).all(axis=1)
        excluded[index] = int(np.count_nonzero(~keep))
        fd = (f_plus[keep] - f_minus[keep]) / (2.0 * h)
        g = exact[keep, index]
        scale = max(float(np.linalg.norm(fd)), float(np.linalg.norm(g)))
        errors[index] = 0.0 if scale == 0.0 else float(np.linalg.norm(fd - g)) / scale
    return FiniteDifferenceCheck(q, errors, excluded)


# --------------------------------------------------------------------------- training


@dataclass(frozen=True, eq=False)
class TrainingRun:
    """Result of :func:`train_sgd`.

    Attributes
    ----------
    theta : numpy.ndarray
        Final parameters θ* (read-only).
    theta0 : numpy.ndarray
        Initial parameters (read-only).
    epoch_losses : numpy.ndarray
        Per epoch, the training loss averaged over the samples, each minibatch's loss taken at
        the parameters just before its update (the usual running training loss).
    steps : int
        Number of SGD updates.
    """

    theta: np.ndarray
    theta0: np.ndarray
    epoch_losses: np.ndarray
    steps: int


def train_sgd(
    network: Network,
    X: np.ndarray,
    Y: np.ndarray,
    *,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    seed: Seed,
    theta0: np.ndarray | None = None,
) -> TrainingRun:
    """Plain minibatch SGD on the mean cross-entropy, deterministic given ``seed``.

    Every epoch draws a fresh permutation of the training set and takes ⌈n/B⌉ steps
    θ ← θ − λ ∇(1/|b|) Σ_{i∈b} f(x^(i); θ) over consecutive batches b (the last one may be
    smaller). App. C trains with Adam (batch 200, 25 epochs on MNIST); plain SGD is this
    toolkit's substitute (no optimizer state, fully specified by λ, B and the epochs).

    Parameters
    ----------
    network
        The architecture.
    X, Y
        Training inputs and one-hot labels.
    epochs, batch_size
        Passes over the data (≥ 1) and minibatch size (≥ 1; clipped to n).
    learning_rate
        λ > 0.
    seed
        Seeds the initialisation (unless ``theta0`` is given) and the shuffles.
    theta0
        Initial parameters (default: :meth:`Network.initial_parameters`).

    Raises
    ------
    DivergenceError
        If an epoch's loss is not finite.
    """
    X, Y = network._check_data(X, Y)
    epochs = check_int("epochs", epochs, minimum=1)
    batch_size = check_int("batch_size", batch_size, minimum=1)
    rate = check_real("learning_rate", learning_rate, positive=True)
    init_seed, shuffle_seed = np.random.SeedSequence(_entropy(seed)).spawn(2)
    theta = (
        network.initial_parameters(init_seed)
        if theta0 is None
        else network._check_theta(theta0, "theta0")
    )
    start_theta = readonly(theta)
    rng = np.random.default_rng(shuffle_seed)
    n = X.shape[0]
    batch = min(batch_size, n)
    epoch_losses = np.empty(epochs)
    steps = 0
    epoch = 0
    # overflow is not an error here: a non-finite loss is reported as a DivergenceError below
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for epoch in range(epochs):
            order = rng.permutation(n)
            total = 0.0
            for start in range(0, n, batch):
                rows = order[start : start + batch]
                loss, gradient = network._loss_and_gradient(theta, X[rows], Y[rows])
                total += loss * rows.size
                theta -= rate * gradient
                steps += 1
            epoch_losses[epoch] = total / n
            if not np.isfinite(epoch_losses[epoch]):
                break
    check_finite_trace(
        "minibatch SGD", (epoch_losses[: epoch + 1],), hint=f"learning rate {rate:.3g}"
    )
    return TrainingRun(readonly(theta), start_theta, readonly(epoch_losses), steps)


def _entropy(seed: Seed) -> int:
    """Validate a seed and turn it into an integer to spawn independent streams from.

    Spawning from a caller's :class:`numpy.random.SeedSequence` would change its state (its
    child counter), so the same object passed twice would give different streams; drawing one
    integer from ``default_rng(seed)`` keeps the result a function of the seed alone.
    """
    return int(generator(seed).integers(2**63))


# --------------------------------------------------------------------------- digits


@dataclass(frozen=True, eq=False)
class DigitsSplit:
    """scikit-learn's 8×8 digits, split into training and test sets (guide §4.4).

    Images are flattened to y ∈ [0, 1]^64 (intensities 0..16 divided by 16) and labels one-hot
    encoded, z ∈ {0, 1}^10, so a data sample x = (y, z) has d = 74 (App. C: d = 794 on MNIST).

    Attributes
    ----------
    X_train, Y_train, X_test, Y_test : numpy.ndarray
        Inputs (n, 64) and one-hot labels (n, 10), read-only.
    """

    X_train: np.ndarray
    Y_train: np.ndarray
    X_test: np.ndarray
    Y_test: np.ndarray


@functools.lru_cache(maxsize=1)
def _load_digits() -> tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise MissingExtraError(
            "the 8×8 digits of App. C's substitute need scikit-learn: "
            "pip install 'fedtheory[data]' (the optional 'data' extra)"
        ) from None
    bunch = load_digits()
    X = readonly(np.asarray(bunch.data, dtype=np.float64) / 16.0)
    labels = np.asarray(bunch.target, dtype=np.int64)
    labels.setflags(write=False)
    return X, labels


def digits_split(seed: Seed, *, test_fraction: float = 0.2) -> DigitsSplit:
    """The 1797 digits, shuffled with ``seed`` and split (default 1437 train / 360 test).

    Parameters
    ----------
    seed
        Seeds the permutation.
    test_fraction
        Fraction in (0, 1) of the samples held out (rounded up, as scikit-learn's
        ``train_test_split`` does; at least 1 sample on either side).

    Raises
    ------
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.
    """
    fraction = check_real("test_fraction", test_fraction, positive=True, below=1.0)
    rng = generator(seed)
    X, labels = _load_digits()
    n = X.shape[0]
    n_test = min(max(math.ceil(fraction * n), 1), n - 1)  # as sklearn's train_test_split
    order = rng.permutation(n)
    test, train = order[:n_test], order[n_test:]
    return DigitsSplit(
        readonly(X[train]),
        readonly(one_hot(labels[train], 10)),
        readonly(X[test]),
        readonly(one_hot(labels[test], 10)),
    )


# --------------------------------------------------------------------------- slices and ranks


def nontrivial_coordinates(theta: np.ndarray, threshold: float = APP_C_THRESHOLD) -> np.ndarray:
    """Indices q with |θ*_q| ≥ ``threshold`` (App. C's "non-trivial" weights, ε = 0.005).

    >>> nontrivial_coordinates(np.array([0.1, -0.001, -0.2, 0.005])).tolist()
    [0, 2, 3]
    """
    theta = np.asarray(theta, dtype=np.float64)
    if theta.ndim != 1:
        raise ParameterError(
            parameter="theta", value=f"array of shape {theta.shape}", rule="must be 1-D"
        )
    eps = check_real("threshold", threshold, nonnegative=True)
    return np.flatnonzero(np.abs(theta) >= eps)


def sample_coordinates(
    theta: np.ndarray,
    count: int,
    *,
    seed: Seed,
    threshold: float = APP_C_THRESHOLD,
) -> np.ndarray:
    """``count`` non-trivial coordinates drawn uniformly without replacement, sorted (fn. 12).

    All non-trivial coordinates are returned when there are at most ``count`` of them.

    Raises
    ------
    ParameterError
        If ``count < 1`` or no coordinate is non-trivial.
    """
    count = check_int("count", count, minimum=1)
    candidates = nontrivial_coordinates(theta, threshold)
    if candidates.size == 0:
        raise ParameterError(
            parameter="threshold",
            value=threshold,
            rule="leaves no non-trivial coordinate (|θ_q| ≥ threshold)",
        )
    if candidates.size <= count:
        return candidates
    return np.sort(generator(seed).choice(candidates, size=count, replace=False))


def app_c_perturbations(theta: np.ndarray, k: int, *, seed: Seed) -> np.ndarray:
    """k perturbed parameter vectors θ^(j) = θ* + (‖θ*‖₁/p)·g_j, g_j ~ N(0, I_p) (eq. (75)).

    Returns
    -------
    numpy.ndarray
        Shape (k, p); row j is θ^(j). The per-coordinate noise scale is the mean |θ*_q|.
    """
    theta = np.asarray(theta, dtype=np.float64)
    if theta.ndim != 1 or theta.size < 1:
        raise ParameterError(
            parameter="theta", value=f"array of shape {theta.shape}", rule="must be 1-D, p ≥ 1"
        )
    theta = check_vector("theta", theta, shape=theta.shape)
    k = check_int("k", k, minimum=1)
    scale = float(np.abs(theta).sum()) / theta.size
    noise = generator(seed).standard_normal((k, theta.size))
    return theta[None, :] + scale * noise


@dataclass(frozen=True, eq=False)
class GradientSlices:
    """Slices ℳ_q of the App. C tensor (eq. (76)) for selected coordinates q.

    Attributes
    ----------
    slices : numpy.ndarray
        Shape (len(coordinates), k, k): ``slices[c, i, j] = ∂f/∂θ_q(x^(i); θ^(j))`` with
        q = coordinates[c]; rows index data, columns perturbed parameters (as in App. C).
    coordinates : numpy.ndarray
        The q's.
    samples : numpy.ndarray
        Indices of the k data samples in the pool they were drawn from.
    perturbation_scale : float
        ‖θ*‖₁/p, the standard deviation of the perturbation per coordinate.
    """

    slices: np.ndarray
    coordinates: np.ndarray
    samples: np.ndarray
    perturbation_scale: float


def gradient_slices(
    network: Network,
    theta: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    *,
    k: int,
    coordinates: np.ndarray,
    seed: Seed,
) -> GradientSlices:
    """Steps 2–4 of App. C: k samples, k perturbations (75), the slices ℳ_q of (76).

    Parameters
    ----------
    network
        The architecture.
    theta
        Trained parameters θ*.
    X, Y
        The pool the k samples are drawn from uniformly among k-subsets (App. C: the test
        set).
    k
        Number of samples and of perturbations, 1 ≤ k ≤ len(X).
    coordinates
        The q's whose slices are formed (e.g. :func:`sample_coordinates`).
    seed
        Seeds the sample choice and the perturbations.

    Returns
    -------
    GradientSlices
        Column j of every slice holds the per-sample gradients at θ^(j), so the whole tensor
        costs k backpropagations over k samples.
    """
    theta = network._check_theta(theta)
    X, Y = network._check_data(X, Y)
    k = check_int("k", k, minimum=1)
    if k > X.shape[0]:
        raise ParameterError(
            parameter="k", value=k, rule=f"must be at most the pool size {X.shape[0]}"
        )
    q = network._check_coordinates(coordinates)
    sample_seed, perturbation_seed = np.random.SeedSequence(_entropy(seed)).spawn(2)
    samples = np.sort(generator(sample_seed).choice(X.shape[0], size=k, replace=False))
    thetas = app_c_perturbations(theta, k, seed=perturbation_seed)
    xs, ys = X[samples], Y[samples]
    slices = np.empty((q.size, k, k))
    for j in range(k):
        slices[:, :, j] = network._per_sample(thetas[j], xs, ys, q).T
    scale = float(np.abs(theta).sum()) / theta.size
    return GradientSlices(readonly(slices), q, samples, scale)


def _check_energy(energy: float) -> float:
    value = check_real("energy", energy, positive=True)
    if value > 1.0:
        raise ParameterError(parameter="energy", value=value, rule="must be in (0, 1]")
    return value


def _ranks_from_singular_values(sigma: np.ndarray, energy: float) -> np.ndarray:
    """min{J : Σ_{i≤J} σ_i² ≥ energy·Σ_i σ_i²} along the last axis (σ sorted decreasingly)."""
    cumulative = np.cumsum(sigma**2, axis=-1)
    total = cumulative[..., -1:]
    return np.argmax(cumulative >= energy * total, axis=-1) + 1


def energy_rank(matrix: np.ndarray, energy: float = APP_C_ENERGY) -> int:
    """Approximate rank of eq. (77): min{J ∈ [k] : Σ_{i≤J} σ_i² ≥ 0.9‖M‖_F²}.

    Parameters
    ----------
    matrix
        A non-zero finite two-dimensional array (any shape; App. C's slices are k × k).
    energy
        The captured fraction, in (0, 1] (0.9 in App. C, "arbitrary").

    Raises
    ------
    ParameterError
        If the matrix is not 2-D, not finite, or zero (eq. (77) is defined for non-zero
        matrices only).

    Examples
    --------
    >>> energy_rank(np.diag([3.0, 1.0, 0.1]))  # 9/10.01 < 0.9 ≤ 10/10.01
    2
    >>> energy_rank(np.outer([1.0, 2.0], [3.0, 4.0, 5.0]))
    1
    """
    M = np.asarray(matrix, dtype=np.float64)
    if M.ndim != 2 or M.size == 0:
        raise ParameterError(
            parameter="matrix", value=f"array of shape {M.shape}", rule="must be a 2-D matrix"
        )
    M = check_vector("matrix", M, shape=M.shape)
    fraction = _check_energy(energy)
    if not M.any():
        raise ParameterError(
            parameter="matrix",
            value="the zero matrix",
            rule="the approximate rank (77) is defined for non-zero matrices only",
        )
    sigma = np.linalg.svd(M, compute_uv=False)
    return int(_ranks_from_singular_values(sigma, fraction))


def energy_ranks(stack: np.ndarray, energy: float = APP_C_ENERGY) -> np.ndarray:
    """Approximate rank (77) of every matrix of a stack; 0 marks an all-zero matrix.

    Parameters
    ----------
    stack
        Shape (n, rows, cols), finite.
    energy
        The captured fraction, in (0, 1].

    Returns
    -------
    numpy.ndarray
        Integer ranks in [1, min(rows, cols)], or 0 where the matrix is exactly zero (its
        approximate rank is undefined: count these and exclude them).

    Examples
    --------
    >>> stack = np.stack([np.eye(3), np.zeros((3, 3)), np.ones((3, 3))])
    >>> energy_ranks(stack).tolist()
    [3, 0, 1]
    """
    S = np.asarray(stack, dtype=np.float64)
    if S.ndim != 3 or 0 in S.shape[1:]:
        raise ParameterError(
            parameter="stack",
            value=f"array of shape {S.shape}",
            rule="must have shape (n, rows, cols) with rows, cols ≥ 1",
        )
    S = check_vector("stack", S, shape=S.shape)
    fraction = _check_energy(energy)
    ranks = np.zeros(S.shape[0], dtype=np.int64)
    nonzero = S.reshape(S.shape[0], -1).any(axis=1)
    if nonzero.any():
        sigma = np.linalg.svd(S[nonzero], compute_uv=False)
        ranks[nonzero] = _ranks_from_singular_values(sigma, fraction)
    return ranks


def gaussian_null_ranks(
    k: int,
    count: int,
    *,
    seed: Seed,
    columns: int | None = None,
    energy: float = APP_C_ENERGY,
) -> np.ndarray:
    """Approximate ranks (77) of ``count`` i.i.d. standard Gaussian k × k matrices.

    The null against which App. C's ranks are compared here (the paper shows none; guide
    §6.13): a matrix of the same shape with no structure. Its 90%-energy rank concentrates
    (Marchenko–Pastur) near 0.52 k for square matrices — 31 at k = 60.

    Parameters
    ----------
    k
        Rows (≥ 1).
    count
        Number of matrices (≥ 1).
    seed
        Seeds the draws.
    columns
        Columns (default ``k``).
    energy
        The captured fraction, in (0, 1].
    """
    k = check_int("k", k, minimum=1)
    count = check_int("count", count, minimum=1)
    cols = k if columns is None else check_int("columns", columns, minimum=1)
    fraction = _check_energy(energy)
    draws = generator(seed).standard_normal((count, k, cols))
    sigma = np.linalg.svd(draws, compute_uv=False)
    return _ranks_from_singular_values(sigma, fraction).astype(np.int64)


# --------------------------------------------------------------------------- the whole study


@dataclass(frozen=True, eq=False)
class SliceRankStudy:
    """One run of App. C's procedure on the digits substitute (:func:`slice_rank_study`).

    Attributes
    ----------
    network : Network
        The architecture.
    data : DigitsSplit
        The training/test split used.
    training : TrainingRun
        θ* and the training trace.
    train_accuracy, test_accuracy : float
        Accuracies of θ*.
    slices : GradientSlices
        The sampled slices (coordinates, samples, perturbation scale).
    ranks : numpy.ndarray
        Approximate rank (77) of every sampled slice, 0 for an all-zero slice.
    null_ranks : numpy.ndarray
        Approximate ranks of as many i.i.d. Gaussian k × k matrices.
    nontrivial : int
        Number of non-trivial coordinates (|θ*_q| ≥ threshold) the slices were sampled from.
    """

    network: Network
    data: DigitsSplit
    training: TrainingRun
    train_accuracy: float
    test_accuracy: float
    slices: GradientSlices
    ranks: np.ndarray
    null_ranks: np.ndarray
    nontrivial: int

    @property
    def zero_slices(self) -> int:
        """Number of sampled slices that are exactly zero (rank undefined, excluded)."""
        return int(np.count_nonzero(self.ranks == 0))

    @property
    def valid_ranks(self) -> np.ndarray:
        """Ranks of the non-zero slices (the histogram of App. C)."""
        return self.ranks[self.ranks > 0]


def slice_rank_study(
    *,
    hidden: tuple[int, ...] = (64,),
    activation: Activation = "sigmoid",
    k: int = 60,
    n_slices: int = 500,
    epochs: int = 100,
    batch_size: int = 32,
    learning_rate: float = 0.5,
    seed: Seed,
    energy: float = APP_C_ENERGY,
    threshold: float = APP_C_THRESHOLD,
) -> SliceRankStudy:
    """App. C's procedure end to end on the 8×8 digits (reading guide §4.1 and §4.4).

    Train ``Network((64, *hidden, 10), activation)`` with :func:`train_sgd` on the training
    split, sample ``n_slices`` non-trivial coordinates, build their slices at ``k`` test samples
    and ``k`` perturbations (75)–(76), and compute their approximate ranks (77) and those of as
    many Gaussian k × k matrices.

    Parameters
    ----------
    hidden
        Hidden widths (App. C: one layer of K = input dimension; here K = 64 by default).
    activation
        ``"sigmoid"`` or ``"relu"``.
    k
        Samples and perturbations per slice (App. C: 30, 60, 90).
    n_slices
        Coordinates sampled (App. C, footnote 12: about 500).
    epochs, batch_size, learning_rate
        Plain minibatch SGD (the paper uses Adam; see :func:`train_sgd`).
    seed
        Seeds the split, the training, the coordinates, the slices and the null.
    energy, threshold
        The 90% of eq. (77) and App. C's ε = 0.005.

    Raises
    ------
    MissingExtraError
        If scikit-learn (the ``data`` extra) is not installed.
    """
    hidden = tuple(hidden)
    network = Network((64, *hidden, 10), activation)
    k = check_int("k", k, minimum=1)
    n_slices = check_int("n_slices", n_slices, minimum=1)
    fraction = _check_energy(energy)
    split_seed, train_seed, coordinate_seed, slice_seed, null_seed = np.random.SeedSequence(
        _entropy(seed)
    ).spawn(5)
    data = digits_split(split_seed)
    run = train_sgd(
        network,
        data.X_train,
        data.Y_train,
        epochs=epochs,
        batch_size=batch_size,
        learning_rate=learning_rate,
        seed=train_seed,
    )
    coordinates = sample_coordinates(run.theta, n_slices, seed=coordinate_seed, threshold=threshold)
    slices = gradient_slices(
        network,
        run.theta,
        data.X_test,
        data.Y_test,
        k=k,
        coordinates=coordinates,
        seed=slice_seed,
    )
    ranks = energy_ranks(slices.slices, fraction)
    null = gaussian_null_ranks(k, coordinates.size, seed=null_seed, energy=fraction)
    return SliceRankStudy(
        network=network,
        data=data,
        training=run,
        train_accuracy=network.accuracy(run.theta, data.X_train, data.Y_train),
        test_accuracy=network.accuracy(run.theta, data.X_test, data.Y_test),
        slices=slices,
        ranks=ranks,
        null_ranks=null,
        nontrivial=int(nontrivial_coordinates(run.theta, threshold).size),
    )
