"""Small fully connected networks and the approximate rank of their gradient slices (App. C).

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* [1]_ (FedLRGD), App. C,
Figures 1–2, give empirical evidence that per-sample gradients of trained neural networks are
approximately low rank when read as a "data × parameter" kernel. The procedure (reading guide
§4.1) is:

1. train a network; θ* ∈ ℝ^p are its final weights;
2. draw k *test* samples x^(1), …, x^(k) uniformly among k-subsets;
3. draw k perturbations θ^(j) = θ* + (‖θ*‖₁/p)·g_j, g_j ~ N(0, I_p) i.i.d. (eq. (75));
4. form the tensor ℳ_{i,j,q} = ∂f/∂θ_q(x^(i); θ^(j)) (eq. (76)), f the cross-entropy loss of
   the network on one sample;
5. for every weight with ``|θ*_q|`` ≥ ε = 0.005 ("non-trivial"), the slice ℳ_q ∈ ℝ^{k×k} (rows:
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
- :func:`~fedtheory.papers.fedlrgd.digits.digits_split`: the 8×8 digits, intensities divided by
  16, one-hot labels, a seeded train/test split (scikit-learn is imported lazily: it is the
  optional ``data`` extra).
- :mod:`fedtheory.papers.fedlrgd.app_c`: steps 2–6, the approximate rank (77), a Gaussian null
  and the whole pipeline for one seed.

Departures from the paper (documented where they occur): the digits and the smaller network
above; plain minibatch SGD instead of Adam (the paper's optimizer; Keras defaults presumed by
the guide; Keras' Glorot-uniform initial weights [2]_); all-zero slices, whose approximate
rank (77) is undefined, are counted and excluded (the paper does not mention them; with digits
they come from border pixels that are 0 in all k sampled images).

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah (2022), Federated Optimization of Smooth Loss Functions,
   arXiv:2201.01954v2, App. C, eqs. (75)–(77), Figures 1–2.
.. [2] X. Glorot & Y. Bengio (2010), Understanding the difficulty of training deep feedforward
   neural networks, AISTATS (the "Glorot-uniform" initialisation, Keras' default).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy.special import expit, log_softmax, softmax

from fedtheory._arrays import readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator, seed_entropy
from fedtheory.errors import ParameterError

__all__ = [
    "ACTIVATIONS",
    "Activation",
    "FiniteDifferenceCheck",
    "Network",
    "TrainingRun",
    "finite_difference_check",
    "one_hot",
    "train_sgd",
]


#: Hidden-layer activations: the logistic sigmoid (App. C's default) and ReLU (Fig. 1(i), 2(d)).
ACTIVATIONS: tuple[str, ...] = ("sigmoid", "relu")


#: The hidden layers' activation function.
Activation = Literal["sigmoid", "relu"]


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
        """Glorot-uniform weights U(±√(6/(in + out))) and zero biases (Keras' defaults).

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
        return np.asarray(expit(h) if self.activation == "sigmoid" else np.maximum(h, 0.0))

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
        return np.asarray(-np.sum(Y * log_softmax(logits, axis=1), axis=1))

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
        return np.asarray(np.argmax(self._forward(theta, X)[0][-1], axis=1))

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
    θ ← θ − λ ∇(1/``|b|``) Σ_{i∈b} f(x^(i); θ) over consecutive batches b (the last one may be
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
    init_seed, shuffle_seed = np.random.SeedSequence(seed_entropy(seed)).spawn(2)
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
