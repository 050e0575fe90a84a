"""Learned weak learners of FFGB's experiments, each an oracle kernel (App. B; guide §4.2).

Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient Boosting* [1]_: a client's local step
asks a weak-learning oracle for a function h close to its query φ in L²(α_i) (eq. (9),
‖h − φ‖_α ≤ (1 − γ)‖φ‖_α). The paper's experiments implement the oracle by fitting a network
to φ on the client's data (App. B.3, eq. (23): least squares over supp α, Adam, 1000 steps,
learning rate 0.005; App. B.1: an MLP 32–32 with leaky ReLU 0.01). Three learners are here:

:class:`TreeOracle`
    A multi-output weighted least-squares regression tree (CART [2]_): exact greedy splits over the
    sorted feature values, depth ≤ ``max_depth``, at least ``min_leaf`` atoms per leaf, sample
    weights α_i; the guide's cheap substitute for the network (§4.2).
:class:`MLPOracle`
    The App. B.1 MLP fitted by full-batch Adam [3]_ to the weighted squared loss
    Σ_x α_i(x)‖h_θ(x) − φ(x)‖² (eq. (23) with weights α_i; for α_i uniform on the client's
    points it is (23) divided by n_i, with the same minimiser), initialised from a seed derived
    from the call (replicate, round, client, local step).
:class:`RandomFeatureOracle`
    Ridge regression on fixed random Fourier features [4]_ (closed form; drawn once, in Python).

The kernel interface (shared with the exact oracles of :mod:`fedtheory.papers.ffgb`): an oracle
is a :class:`typing.NamedTuple` subclass whose fields hold the atoms' features X (P × d_x) and the
learner's hyperparameters, with the class attribute ``weak_learner`` naming the kernel

    weak_learner(oracle, r, t, i, k, query, weights, g, out) -> float

``query`` (the φ of the call), ``g`` (the client's current iterate, unused by learned oracles)
and ``out`` are flattened (P·c,) vectors in row-major (P, c) order, ``weights`` (P,) is the
client's α_i over all atoms; r, t, i, k are the replicate, round, client and local step. The
kernel fits the learner on the atoms with α_i(x) > 0, writes its prediction h at *every* atom
into ``out`` and returns the measured ratio ‖h − φ‖_α_i / ‖φ‖_α_i (0 when φ = h = 0 on
supp α_i). Learned oracles do not guarantee (9): their γ = 1 − ratio is measured and reported,
never asserted (issue 13, item 3). :func:`fit_weak_learner` calls a kernel from Python.

The numpy twins are in ``tests/reference/ffgb_learners.py``.

References
----------
.. [1] Z. Shen, H. Hassani, S. Kale & A. Karbasi, Federated Functional Gradient Boosting,
   AISTATS 2022; eq. (9), App. B.1, B.3 eq. (23).
.. [2] L. Breiman, J. Friedman, R. Olshen & C. Stone (1984), Classification and Regression
   Trees, Wadsworth (least-squares splits).
.. [3] D. P. Kingma & J. Ba (2015), Adam: a method for stochastic optimization, ICLR.
.. [4] A. Rahimi & B. Recht (2007), Random features for large-scale kernel machines, NIPS.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real, check_weights
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator, seed_entropy
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._mlp_net import (
    _learner_seed,
    _mlp_backward,
    _mlp_forward,
    _mlp_init,
)
from fedtheory.papers.ffgb.oracles import weak_learner

__all__ = [
    "MLPOracle",
    "RandomFeatureOracle",
    "TreeOracle",
    "fit_weak_learner",
    "mlp_oracle",
    "random_feature_oracle",
    "tree_oracle",
]


#: The largest tree depth accepted (a tree of depth D has at most 2^(D+1) − 1 nodes).
MAX_TREE_DEPTH = 16
#: Relative tolerance of the split search: a split must reduce the node's weighted squared error
#: by more than this fraction of Σ w‖y‖², and beat the best split so far by as much.
_SPLIT_TOLERANCE = 1e-12


# ============================================================================== shared parts


@njit
def _support(weights: np.ndarray) -> np.ndarray:
    """Indices of the atoms with positive weight, in increasing order."""
    count = 0
    for x in range(weights.shape[0]):
        if weights[x] > 0.0:
            count += 1
    rows = np.empty(count, dtype=np.int64)
    count = 0
    for x in range(weights.shape[0]):
        if weights[x] > 0.0:
            rows[count] = x
            count += 1
    return rows


@njit
def _gather(
    features: np.ndarray, query: np.ndarray, weights: np.ndarray, rows: np.ndarray, c: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The features (n × d_x), targets (n × c) and weights (n,) of the atoms ``rows``."""
    n = rows.shape[0]
    d = features.shape[1]
    X = np.empty((n, d))
    Y = np.empty((n, c))
    w = np.empty(n)
    for j in range(n):
        x = rows[j]
        for f in range(d):
            X[j, f] = features[x, f]
        for q in range(c):
            Y[j, q] = query[x * c + q]
        w[j] = weights[x]
    return X, Y, w


@njit
def _weighted_ratio(query: np.ndarray, out: np.ndarray, weights: np.ndarray, c: int) -> float:
    """‖h − φ‖_α / ‖φ‖_α with the weights α (0 when both norms vanish, inf when only ‖φ‖ does)."""
    error = 0.0
    size = 0.0
    for x in range(weights.shape[0]):
        a = weights[x]
        if a > 0.0:
            for q in range(c):
                v = query[x * c + q]
                e = out[x * c + q] - v
                error += a * e * e
                size += a * v * v
    if size > 0.0:
        return math.sqrt(error / size)
    return 0.0 if error == 0.0 else math.inf


# ============================================================================== TreeOracle


@njit
def _fit_tree(
    X: np.ndarray, Y: np.ndarray, w: np.ndarray, max_depth: int, min_leaf: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """A weighted least-squares regression tree on (X, Y, w), built breadth-first.

    A node holding rows S predicts the weighted mean Σ_S w y / Σ_S w. It is split unless it is
    at ``max_depth`` or holds fewer than 2·``min_leaf`` rows: for every feature f in turn
    (0, 1, …) the rows are sorted by x_f (stably) and every cut between two distinct
    consecutive values that leaves at least ``min_leaf`` rows on each side is scored by the
    reduction of the weighted squared error

        gain = Σ_q [ S_L,q²/W_L + S_R,q²/W_R − S_q²/W ],   S = Σ w y, W = Σ w;

    the first cut whose gain exceeds the best so far by more than τ = 1e-12·Σ_S w‖y‖² wins, and
    the node is split at the midpoint of the two values (x ≤ threshold goes left) if the best
    gain exceeds τ. Children are appended left, then right.

    Returns
    -------
    feature : (nodes,) int64, the split feature (−1 for a leaf); threshold : (nodes,);
    left, right : (nodes,) int64 child indices; value : (nodes, c) node means; used : the number
    of nodes built (node 0 is the root).
    """
    n, d = X.shape
    c = Y.shape[1]
    capacity = 2 ** (max_depth + 1) - 1
    feature = np.full(capacity, -1, dtype=np.int64)
    threshold = np.zeros(capacity)
    left = np.full(capacity, -1, dtype=np.int64)
    right = np.full(capacity, -1, dtype=np.int64)
    value = np.zeros((capacity, c))
    starts = np.zeros(capacity, dtype=np.int64)
    ends = np.zeros(capacity, dtype=np.int64)
    depths = np.zeros(capacity, dtype=np.int64)
    rows = np.arange(n)
    scratch = np.empty(n, dtype=np.int64)
    total = np.empty(c)
    running = np.empty(c)
    column = np.empty(n)
    ends[0] = n
    used = 1
    node = 0
    while node < used:
        start = starts[node]
        end = ends[node]
        size = end - start
        weight = 0.0
        energy = 0.0
        for q in range(c):
            total[q] = 0.0
        for a in range(start, end):
            j = rows[a]
            weight += w[j]
            for q in range(c):
                total[q] += w[j] * Y[j, q]
                energy += w[j] * Y[j, q] * Y[j, q]
        for q in range(c):
            value[node, q] = total[q] / weight
        if depths[node] >= max_depth or size < 2 * min_leaf:
            node += 1
            continue
        parent = 0.0
        for q in range(c):
            parent += total[q] * total[q]
        parent /= weight
        tolerance = _SPLIT_TOLERANCE * energy
        best_gain = 0.0
        best_feature = -1
        best_threshold = 0.0
        for f in range(d):
            for a in range(size):
                column[a] = X[rows[start + a], f]
            order = np.argsort(column[:size], kind="mergesort")
            left_weight = 0.0
            for q in range(c):
                running[q] = 0.0
            for a in range(size - 1):
                j = rows[start + order[a]]
                left_weight += w[j]
                for q in range(c):
                    running[q] += w[j] * Y[j, q]
                if a + 1 < min_leaf or size - a - 1 < min_leaf:
                    continue
                here = column[order[a]]
                after = column[order[a + 1]]
                if not here < after:
                    continue
                right_weight = weight - left_weight
                if not right_weight > 0.0:
                    continue
                gain = -parent
                for q in range(c):
                    rest = total[q] - running[q]
                    gain += running[q] * running[q] / left_weight + rest * rest / right_weight
                if gain > best_gain + tolerance:
                    best_gain = gain
                    best_feature = f
                    cut = here + 0.5 * (after - here)
                    best_threshold = cut if cut < after else here
        if best_feature < 0:  # no cut reduces the error by more than τ: a leaf
            node += 1
            continue
        # stable partition of the node's rows: x_f ≤ threshold first
        low = 0
        for a in range(start, end):
            j = rows[a]
            if X[j, best_feature] <= best_threshold:
                scratch[low] = j
                low += 1
        high = low
        for a in range(start, end):
            j = rows[a]
            if not X[j, best_feature] <= best_threshold:
                scratch[high] = j
                high += 1
        for a in range(size):
            rows[start + a] = scratch[a]
        feature[node] = best_feature
        threshold[node] = best_threshold
        left[node] = used
        right[node] = used + 1
        starts[used] = start
        ends[used] = start + low
        starts[used + 1] = start + low
        ends[used + 1] = end
        depths[used] = depths[node] + 1
        depths[used + 1] = depths[node] + 1
        used += 2
        node += 1
    return feature, threshold, left, right, value, used


@njit
def _predict_tree(
    feature: np.ndarray,
    threshold: np.ndarray,
    left: np.ndarray,
    right: np.ndarray,
    value: np.ndarray,
    features: np.ndarray,
    out: np.ndarray,
) -> None:
    """The tree's value at every row of ``features`` into the flat (P·c,) vector ``out``."""
    c = value.shape[1]
    for x in range(features.shape[0]):
        node = 0
        while feature[node] >= 0:
            node = left[node] if features[x, feature[node]] <= threshold[node] else right[node]
        for q in range(c):
            out[x * c + q] = value[node, q]


@njit
def _tree_kernel(
    oracle: TreeOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """Fit a tree to φ = ``query`` on supp α_i, predict it at every atom; ‖h − φ‖/‖φ‖ in α_i."""
    features = oracle.features
    c = query.shape[0] // features.shape[0]
    rows = _support(weights)
    X, Y, w = _gather(features, query, weights, rows, c)
    feature, threshold, left, right, value, _ = _fit_tree(
        X, Y, w, oracle.max_depth, oracle.min_leaf
    )
    _predict_tree(feature, threshold, left, right, value, features, out)
    return _weighted_ratio(query, out, weights, c)


class _TreeOracleFields(NamedTuple):
    features: np.ndarray
    max_depth: int
    min_leaf: int


class TreeOracle(_TreeOracleFields):
    """A weighted least-squares regression tree as FFGB's weak learner (guide §4.2).

    Build it with :func:`tree_oracle`. Each call fits a fresh tree to the query on the client's
    support (weights α_i) and predicts at every atom (kernel ``weak_learner``, module
    docstring); the tree is deterministic, so r, t, i, k and g are unused.

    Attributes
    ----------
    features : numpy.ndarray
        ``(P, d_x)`` float64, the atoms' features.
    max_depth : int
        Largest depth of a leaf (the root has depth 0).
    min_leaf : int
        Fewest atoms in a leaf.
    """

    __slots__ = ()

    weak_learner = _tree_kernel


# ============================================================================== MLPOracle


@njit
def _squared_loss_gradient(
    out: np.ndarray, Y: np.ndarray, w: np.ndarray, dout: np.ndarray
) -> float:
    """L = Σ_j w_j ‖out_j − y_j‖² and ∂L/∂out = 2 w_j (out_j − y_j) into ``dout``."""
    loss = 0.0
    for j in range(out.shape[0]):
        for q in range(out.shape[1]):
            e = out[j, q] - Y[j, q]
            loss += w[j] * e * e
            dout[j, q] = 2.0 * w[j] * e
    return loss


@njit(inline="always")  # one call site: no code library of its own to optimise again above it
def _mlp_fit(
    theta: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    w: np.ndarray,
    h1: int,
    h2: int,
    slope: float,
    steps: int,
    learning_rate: float,
    losses: np.ndarray,
) -> None:
    """``steps`` full-batch Adam steps on L(θ) = Σ_j w_j‖h_θ(x_j) − y_j‖², θ in place.

    Adam with β1 = 0.9, β2 = 0.999, ε = 1e-8 (Kingma & Ba; PyTorch's defaults):
    m ← β1 m + (1 − β1)∇L, v ← β2 v + (1 − β2)∇L², θ ← θ − lr·m̂/(√v̂ + ε) with the bias
    corrections m̂ = m/(1 − β1^s), v̂ = v/(1 − β2^s) at step s = 1, 2, …. ``losses[s − 1]`` is
    L(θ) before step s (``losses`` may be shorter than ``steps``: the rest is not recorded).
    """
    beta1 = 0.9
    beta2 = 0.999
    eps = 1e-8
    c = Y.shape[1]
    p = theta.shape[0]
    m = np.zeros(p)
    v = np.zeros(p)
    grad = np.empty(p)
    dout = np.empty((X.shape[0], c))
    power1 = 1.0
    power2 = 1.0
    for s in range(steps):
        Z1, A1, Z2, A2, out = _mlp_forward(theta, X, h1, h2, c, slope)
        loss = _squared_loss_gradient(out, Y, w, dout)
        if s < losses.shape[0]:
            losses[s] = loss
        _mlp_backward(theta, X, Z1, A1, Z2, A2, dout, h1, h2, c, slope, grad)
        power1 *= beta1
        power2 *= beta2
        step = learning_rate / (1.0 - power1)
        root = 1.0 / math.sqrt(1.0 - power2)
        for q in range(p):
            gq = grad[q]
            m[q] = beta1 * m[q] + (1.0 - beta1) * gq
            v[q] = beta2 * v[q] + (1.0 - beta2) * gq * gq
            theta[q] -= step * m[q] / (math.sqrt(v[q]) * root + eps)


@njit
def _mlp_kernel(
    oracle: MLPOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """Fit the MLP to φ = ``query`` on supp α_i from the init of call (r, t, i, k); predict."""
    features = oracle.features
    d_in = features.shape[1]
    c = query.shape[0] // features.shape[0]
    rows = _support(weights)
    X, Y, w = _gather(features, query, weights, rows, c)
    seed = _learner_seed(oracle.seed, r, t, i, k)
    theta = _mlp_init(seed, d_in, oracle.hidden1, oracle.hidden2, c)
    _mlp_fit(
        theta,
        X,
        Y,
        w,
        oracle.hidden1,
        oracle.hidden2,
        oracle.slope,
        oracle.steps,
        oracle.learning_rate,
        np.empty(0),
    )
    _, _, _, _, prediction = _mlp_forward(
        theta, features, oracle.hidden1, oracle.hidden2, c, oracle.slope
    )
    flat = prediction.reshape(-1)
    for q in range(flat.shape[0]):
        out[q] = flat[q]
    return _weighted_ratio(query, out, weights, c)


class _MLPOracleFields(NamedTuple):
    features: np.ndarray
    hidden1: int
    hidden2: int
    slope: float
    steps: int
    learning_rate: float
    seed: np.uint64


class MLPOracle(_MLPOracleFields):
    """The App. B.1 MLP fitted by Adam as FFGB's weak learner (App. B.3, eq. (23)).

    Build it with :func:`mlp_oracle`. Call (r, t, i, k) initialises the network from the seed
    ``mix``-derived from ``seed`` and (r, t, i, k) (so a run is reproducible and two calls do
    not share an init), runs ``steps`` full-batch Adam steps on Σ_x α_i(x)‖h_θ(x) − φ(x)‖²
    and predicts at every atom. ``g`` is unused.

    Attributes
    ----------
    features : numpy.ndarray
        ``(P, d_x)`` float64, the atoms' features (the network's inputs).
    hidden1, hidden2 : int
        Hidden widths (App. B.1: 32, 32).
    slope : float
        Negative slope of the leaky ReLU (App. B.1: 0.01).
    steps : int
        Adam steps per call (App. B.3: 1000).
    learning_rate : float
        Adam's step (App. B.3: 0.005).
    seed : numpy.uint64
        Base seed of the initialisations.
    """

    __slots__ = ()

    weak_learner = _mlp_kernel


# ============================================================================== RandomFeatureOracle


@njit
def _ridge_kernel(
    oracle: RandomFeatureOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = Φβ with β = (Φ_Sᵀ A Φ_S + λI)⁻¹ Φ_Sᵀ A φ_S, S = supp α_i, A = diag(α_i)."""
    phi = oracle.features
    P, D = phi.shape
    c = query.shape[0] // P
    rows = _support(weights)
    F, Y, w = _gather(phi, query, weights, rows, c)
    weighted = F * w.reshape((-1, 1))
    gram = weighted.T @ F
    for a in range(D):
        gram[a, a] += oracle.ridge
    coefficients = np.linalg.solve(gram, weighted.T @ Y)
    prediction = phi @ coefficients
    flat = prediction.reshape(-1)
    for q in range(flat.shape[0]):
        out[q] = flat[q]
    return _weighted_ratio(query, out, weights, c)


class _RandomFeatureOracleFields(NamedTuple):
    features: np.ndarray
    ridge: float


class RandomFeatureOracle(_RandomFeatureOracleFields):
    """Ridge regression on fixed random features as FFGB's weak learner (guide §4.2).

    Build it with :func:`random_feature_oracle`. The features at the atoms are drawn once (so
    the learner's class is a fixed D-dimensional span: no such class satisfies (9) for every
    query — guide §1 — and the measured γ shows by how much it misses).

    Attributes
    ----------
    features : numpy.ndarray
        ``(P, D)`` float64, the random features Φ(x) at the atoms.
    ridge : float
        Ridge weight λ > 0.
    """

    __slots__ = ()

    weak_learner = _ridge_kernel


# ============================================================================== constructors


def _atom_features(features: Any) -> np.ndarray:
    try:
        array = np.array(features, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="features", value=type(features).__name__, rule="must be a real array"
        ) from None
    if array.ndim != 2 or array.shape[0] < 1 or array.shape[1] < 1:
        raise ParameterError(
            parameter="features",
            value=f"array of shape {array.shape}",
            rule="must have shape (P, d_x) with P ≥ 1 atoms and d_x ≥ 1 features",
        )
    if not np.all(np.isfinite(array)):
        raise ParameterError(
            parameter="features", value="array with NaN or inf", rule="must hold finite numbers"
        )
    return kernel_array(array)


def tree_oracle(features: Any, *, max_depth: int = 4, min_leaf: int = 1) -> TreeOracle:
    """A :class:`TreeOracle` on the atoms ``features`` (guide §4.2: depth 3–4).

    Parameters
    ----------
    features
        ``(P, d_x)`` features of the atoms.
    max_depth
        Largest leaf depth, 1 ≤ max_depth ≤ 16.
    min_leaf
        Fewest atoms in a leaf, ≥ 1.

    Raises
    ------
    ParameterError
        On bad features, depth or leaf size (the message names the parameter, value and rule).

    Examples
    --------
    >>> oracle = tree_oracle([[0.0], [1.0], [2.0], [3.0]], max_depth=1)
    >>> h, ratio = fit_weak_learner(oracle, [1.0, 1.0, 5.0, 5.0], [0.25] * 4)
    >>> h.ravel().tolist(), ratio
    ([1.0, 1.0, 5.0, 5.0], 0.0)
    """
    depth = check_int("max_depth", max_depth, minimum=1)
    if depth > MAX_TREE_DEPTH:
        raise ParameterError(
            parameter="max_depth", value=depth, rule=f"must be at most {MAX_TREE_DEPTH}"
        )
    return TreeOracle(_atom_features(features), depth, check_int("min_leaf", min_leaf, minimum=1))


def mlp_oracle(
    features: Any,
    *,
    hidden: tuple[int, int] = (32, 32),
    slope: float = 0.01,
    steps: int = 1000,
    learning_rate: float = 0.005,
    seed: Seed,
) -> MLPOracle:
    """An :class:`MLPOracle` on the atoms ``features`` with App. B's defaults.

    Parameters
    ----------
    features
        ``(P, d_x)`` features of the atoms (the network's inputs).
    hidden
        The two hidden widths (App. B.1: 32, 32).
    slope
        Leaky-ReLU negative slope in [0, 1) (App. B.1: 0.01).
    steps
        Full-batch Adam steps per call, ≥ 1 (App. B.3: 1000; the guide's CPU budget: 200–1000).
    learning_rate
        Adam's step > 0 (App. B.3: 0.005).
    seed
        Base seed of the per-call initialisations.

    Raises
    ------
    ParameterError
        On any bad argument.
    """
    if not isinstance(hidden, tuple | list) or len(hidden) != 2:
        raise ParameterError(
            parameter="hidden", value=hidden, rule="must be a pair of widths (h1, h2)"
        )
    h1 = check_int("hidden[0]", hidden[0], minimum=1)
    h2 = check_int("hidden[1]", hidden[1], minimum=1)
    slope = check_real("slope", slope, nonnegative=True, below=1.0)
    return MLPOracle(
        _atom_features(features),
        h1,
        h2,
        slope,
        check_int("steps", steps, minimum=1),
        check_real("learning_rate", learning_rate, positive=True),
        np.uint64(seed_entropy(seed)),
    )


def random_feature_oracle(
    features: Any,
    *,
    count: int = 200,
    bandwidth: float = 1.0,
    ridge: float = 1e-3,
    seed: Seed,
) -> RandomFeatureOracle:
    """A :class:`RandomFeatureOracle` with random Fourier features of a Gaussian kernel.

    Φ(x) = √(2/D)·cos(Ωᵀx + b) with Ω ∈ ℝ^{d_x×D} i.i.d. N(0, 1/bandwidth²) and b i.i.d.
    uniform on [0, 2π) (Rahimi & Recht), drawn once from ``seed``.

    Parameters
    ----------
    features
        ``(P, d_x)`` features of the atoms.
    count
        Number D ≥ 1 of random features.
    bandwidth
        Length scale > 0 of the Gaussian kernel.
    ridge
        Ridge weight λ > 0.
    seed
        Seed of Ω and b.

    Raises
    ------
    ParameterError
        On any bad argument.
    """
    X = _atom_features(features)
    count = check_int("count", count, minimum=1)
    bandwidth = check_real("bandwidth", bandwidth, positive=True)
    ridge = check_real("ridge", ridge, positive=True)
    rng = generator(seed)
    omega = rng.standard_normal((X.shape[1], count)) / bandwidth
    offset = rng.uniform(0.0, 2.0 * np.pi, count)
    phi = math.sqrt(2.0 / count) * np.cos(X @ omega + offset)
    return RandomFeatureOracle(kernel_array(phi), ridge)


# ============================================================================== Python entry


_ORACLES = (TreeOracle, MLPOracle, RandomFeatureOracle)


def fit_weak_learner(
    oracle: TreeOracle | MLPOracle | RandomFeatureOracle,
    query: Any,
    weights: Any,
    *,
    call: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> tuple[np.ndarray, float]:
    """Run the oracle's kernel once from Python: the prediction h and ‖h − φ‖_α/‖φ‖_α.

    Parameters
    ----------
    oracle
        A learned oracle of this module.
    query
        φ at the P atoms, shape ``(P,)``, ``(P, c)`` or flat ``(P·c,)`` read as (P, c).
    weights
        α_i, a probability vector over the P atoms.
    call
        (r, t, i, k) of the call (they seed the MLP's initialisation).

    Returns
    -------
    (numpy.ndarray, float)
        h with shape ``(P, c)`` (read-only) and the measured ratio (γ = 1 − ratio).

    Raises
    ------
    ParameterError
        If the oracle is of another type, φ is not finite or of the wrong size, α is not a
        probability vector over the atoms, or ``call`` is not four non-negative integers.
    """
    if not isinstance(oracle, _ORACLES):
        raise ParameterError(
            parameter="oracle",
            value=type(oracle).__name__,
            rule="must be a TreeOracle, MLPOracle or RandomFeatureOracle",
        )
    P = oracle.features.shape[0]
    phi = np.array(query, dtype=np.float64)
    if phi.size == 0 or phi.size % P != 0 or phi.ndim > 2 or phi.shape[0] not in (P, phi.size):
        raise ParameterError(
            parameter="query",
            value=f"array of shape {phi.shape}",
            rule=f"must have shape (P,), (P, c) or (P·c,) with P = {P} atoms",
        )
    if not np.all(np.isfinite(phi)):
        raise ParameterError(
            parameter="query", value="array with NaN or inf", rule="must hold finite numbers"
        )
    alpha = check_weights(weights, P, parameter="weights")
    if (
        not isinstance(call, tuple)
        or len(call) != 4
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in call)
    ):
        raise ParameterError(
            parameter="call", value=call, rule="must be (r, t, i, k), non-negative integers"
        )
    c = phi.size // P
    flat = kernel_array(phi.reshape(-1))
    out = np.empty(P * c)
    r, t, i, k = call
    ratio = weak_learner(oracle, r, t, i, k, flat, kernel_array(alpha), flat.copy(), out)
    return readonly(out.reshape(P, c), copy=False), float(ratio)
