"""Plain-numpy twins of the ffgb learner kernels (:mod:`fedtheory.papers.ffgb.learners`,
:mod:`fedtheory.papers.ffgb._mlp_net`, :mod:`fedtheory.papers.ffgb._mlp_samples`) and of the
softmax view of :mod:`fedtheory.papers.ffgb.digits`.

Slow and written straight from the definitions, sharing no code with the kernels:

- the regression tree is grown breadth-first with the gains of every cut of a feature computed
  at once from cumulative sums (the kernel sweeps the cuts one by one);
- the MLP's initialisation is the SplitMix64 stream on Python integers, its forward and backward
  passes are numpy matrix products, Adam is written from Kingma & Ba's Algorithm 1;
- the cross-entropy gradient of the network is written per sample with vectors;
- ridge regression on random features is solved with :func:`numpy.linalg.lstsq` on the
  augmented system [√A Φ; √λ I] β = [√A φ; 0] (the kernel solves the normal equations).
"""

from __future__ import annotations

import math

import numpy as np

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
TOLERANCE = 1e-12


def mix(z: int) -> int:
    """SplitMix64 finaliser on Python integers (mod 2^64)."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def learner_seed(base: int, r: int, t: int, i: int, k: int) -> int:
    s = int(base)
    for v in (r, t, i, k):
        s = mix(s + (v + 1) * GAMMA)
    return s


# ----------------------------------------------------------------------------- tree


def fit_tree(
    X: np.ndarray, Y: np.ndarray, w: np.ndarray, max_depth: int, min_leaf: int
) -> list[dict[str, object]]:
    """Nodes in breadth-first order: {"feature", "threshold", "left", "right", "value"}."""
    nodes: list[dict[str, object]] = []
    queue = [(np.arange(X.shape[0]), 0)]
    while queue:
        rows, depth = queue.pop(0)
        W = w[rows].sum()
        S = (w[rows, None] * Y[rows]).sum(axis=0)
        node: dict[str, object] = {
            "feature": -1,
            "threshold": 0.0,
            "left": -1,
            "right": -1,
            "value": S / W,
        }
        nodes.append(node)
        size = rows.size
        if depth >= max_depth or size < 2 * min_leaf:
            continue
        energy = float(np.sum(w[rows, None] * Y[rows] ** 2))
        tol = TOLERANCE * energy
        parent = float(S @ S) / W
        best = (0.0, -1, 0.0)
        for f in range(X.shape[1]):
            order = np.argsort(X[rows, f], kind="stable")
            xs = X[rows[order], f]
            ws = w[rows[order]]
            WL = np.cumsum(ws)[:-1]
            SL = np.cumsum(ws[:, None] * Y[rows[order]], axis=0)[:-1]
            WR = W - WL
            SR = S - SL
            left_count = np.arange(1, size)
            ok = (
                (left_count >= min_leaf)
                & (size - left_count >= min_leaf)
                & (xs[:-1] < xs[1:])
                & (WR > 0)
            )
            with np.errstate(divide="ignore", invalid="ignore"):
                gains = (SL**2).sum(1) / WL + (SR**2).sum(1) / WR - parent
            for a in np.flatnonzero(ok):
                if gains[a] > best[0] + tol:
                    cut = xs[a] + 0.5 * (xs[a + 1] - xs[a])
                    best = (float(gains[a]), f, cut if cut < xs[a + 1] else xs[a])
        if best[1] < 0:
            continue
        _, f, threshold = best
        goes_left = X[rows, f] <= threshold
        node.update(feature=f, threshold=threshold)
        node["left"] = len(nodes) + len(queue)
        node["right"] = len(nodes) + len(queue) + 1
        queue.append((rows[goes_left], depth + 1))
        queue.append((rows[~goes_left], depth + 1))
    return nodes


def predict_tree(nodes: list[dict[str, object]], X: np.ndarray) -> np.ndarray:
    out = []
    for x in X:
        node = nodes[0]
        while int(node["feature"]) >= 0:  # type: ignore[call-overload]
            f = int(node["feature"])  # type: ignore[call-overload]
            child = node["left"] if x[f] <= float(node["threshold"]) else node["right"]  # type: ignore[arg-type]
            node = nodes[int(child)]  # type: ignore[call-overload]
        out.append(np.asarray(node["value"]))
    return np.array(out)


def tree_oracle(
    features: np.ndarray, max_depth: int, min_leaf: int, query: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, float]:
    """Twin of the TreeOracle kernel: (h (P, c), ratio)."""
    P = features.shape[0]
    phi = query.reshape(P, -1)
    S = weights > 0
    nodes = fit_tree(features[S], phi[S], weights[S], max_depth, min_leaf)
    h = predict_tree(nodes, features)
    return h, ratio(phi, h, weights)


def ratio(phi: np.ndarray, h: np.ndarray, weights: np.ndarray) -> float:
    error = float(weights @ ((h - phi) ** 2).sum(1))
    size = float(weights @ (phi**2).sum(1))
    return math.sqrt(error / size) if size > 0 else (0.0 if error == 0 else math.inf)


# ----------------------------------------------------------------------------- MLP


def mlp_init(seed: int, d_in: int, h1: int, h2: int, c: int) -> np.ndarray:
    """PyTorch's nn.Linear default on the SplitMix64 stream of ``seed``."""
    key = mix(int(seed))
    sizes = [(d_in, d_in * h1 + h1), (h1, h1 * h2 + h2), (h2, h2 * c + c)]
    theta = []
    q = 0
    for fan_in, count in sizes:
        bound = 1.0 / math.sqrt(fan_in)
        for _ in range(count):
            u = (mix(key + (q + 1) * GAMMA) >> 11) * 2.0**-53
            theta.append(bound * (2.0 * u - 1.0))
            q += 1
    return np.array(theta)


def unpack(theta: np.ndarray, d_in: int, h1: int, h2: int, c: int) -> list[np.ndarray]:
    shapes = [(d_in, h1), (h1,), (h1, h2), (h2,), (h2, c), (c,)]
    out, o = [], 0
    for shape in shapes:
        size = int(np.prod(shape))
        out.append(theta[o : o + size].reshape(shape))
        o += size
    return out


def leaky(z: np.ndarray, slope: float) -> np.ndarray:
    return np.where(z > 0, z, slope * z)


def mlp_predict(theta: np.ndarray, X: np.ndarray, h1: int, h2: int, c: int, slope: float):
    W1, b1, W2, b2, W3, b3 = unpack(theta, X.shape[1], h1, h2, c)
    A1 = leaky(X @ W1 + b1, slope)
    A2 = leaky(A1 @ W2 + b2, slope)
    return A2 @ W3 + b3


def mlp_gradient(
    theta: np.ndarray,
    X: np.ndarray,
    dloss,
    h1: int,
    h2: int,
    c: int,
    slope: float,
) -> tuple[float, np.ndarray]:
    """Loss and ∂L/∂θ by backpropagation; ``dloss(out) -> (L, ∂L/∂out)``."""
    W1, b1, W2, b2, W3, b3 = unpack(theta, X.shape[1], h1, h2, c)
    Z1 = X @ W1 + b1
    A1 = leaky(Z1, slope)
    Z2 = A1 @ W2 + b2
    A2 = leaky(Z2, slope)
    out = A2 @ W3 + b3
    loss, dout = dloss(out)
    dZ2 = (dout @ W3.T) * np.where(Z2 > 0, 1.0, slope)
    dZ1 = (dZ2 @ W2.T) * np.where(Z1 > 0, 1.0, slope)
    grads = [X.T @ dZ1, dZ1.sum(0), A1.T @ dZ2, dZ2.sum(0), A2.T @ dout, dout.sum(0)]
    return loss, np.concatenate([g.ravel() for g in grads])


def mlp_fit(
    theta: np.ndarray,
    X: np.ndarray,
    Y: np.ndarray,
    w: np.ndarray,
    h1: int,
    h2: int,
    slope: float,
    steps: int,
    lr: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Adam (Kingma & Ba, Algorithm 1) on Σ_j w_j‖h(x_j) − y_j‖²: (θ, losses before each step)."""
    c = Y.shape[1]

    def dloss(out: np.ndarray) -> tuple[float, np.ndarray]:
        e = out - Y
        return float(np.sum(w[:, None] * e * e)), 2.0 * w[:, None] * e

    theta = theta.copy()
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    losses = []
    b1, b2, eps = 0.9, 0.999, 1e-8
    for s in range(1, steps + 1):
        loss, g = mlp_gradient(theta, X, dloss, h1, h2, c, slope)
        losses.append(loss)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1**s)
        v_hat = v / (1 - b2**s)
        theta = theta - lr * m_hat / (np.sqrt(v_hat) + eps)
    return theta, np.array(losses)


def mlp_oracle(
    features: np.ndarray,
    h1: int,
    h2: int,
    slope: float,
    steps: int,
    lr: float,
    seed: int,
    call: tuple[int, int, int, int],
    query: np.ndarray,
    weights: np.ndarray,
) -> tuple[np.ndarray, float]:
    """Twin of the MLPOracle kernel: (h (P, c), ratio)."""
    P, d_in = features.shape
    phi = query.reshape(P, -1)
    c = phi.shape[1]
    theta = mlp_init(learner_seed(seed, *call), d_in, h1, h2, c)
    S = weights > 0
    theta, _ = mlp_fit(theta, features[S], phi[S], weights[S], h1, h2, slope, steps, lr)
    h = mlp_predict(theta, features, h1, h2, c, slope)
    return h, ratio(phi, h, weights)


def cross_entropy_sample_gradient(
    theta: np.ndarray, x: np.ndarray, y: int, h1: int, h2: int, c: int, slope: float
) -> np.ndarray:
    """∇_θ of −log softmax(h_θ(x))_y for one sample, written with vectors."""
    W1, b1, W2, b2, W3, b3 = unpack(theta, x.shape[0], h1, h2, c)
    z1 = x @ W1 + b1
    a1 = leaky(z1, slope)
    z2 = a1 @ W2 + b2
    a2 = leaky(z2, slope)
    out = a2 @ W3 + b3
    p = np.exp(out - out.max())
    p /= p.sum()
    d_out = p - np.eye(c)[y]
    d_z2 = (W3 @ d_out) * np.where(z2 > 0, 1.0, slope)
    d_z1 = (W2 @ d_z2) * np.where(z1 > 0, 1.0, slope)
    parts = [np.outer(x, d_z1), d_z1, np.outer(a1, d_z2), d_z2, np.outer(a2, d_out), d_out]
    return np.concatenate([g.ravel() for g in parts])


# ----------------------------------------------------------------------------- ridge


def ridge_oracle(
    phi_atoms: np.ndarray, ridge: float, query: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, float]:
    """Twin of the RandomFeatureOracle kernel: weighted ridge by least squares."""
    P, D = phi_atoms.shape
    phi = query.reshape(P, -1)
    S = weights > 0
    root = np.sqrt(weights[S])[:, None]
    A = np.vstack([root * phi_atoms[S], math.sqrt(ridge) * np.eye(D)])
    B = np.vstack([root * phi[S], np.zeros((D, phi.shape[1]))])
    beta = np.linalg.lstsq(A, B, rcond=None)[0]
    h = phi_atoms @ beta
    return h, ratio(phi, h, weights)


# ----------------------------------------------------------------------------- softmax view


def softmax_loss_gradient(
    labels: np.ndarray, weights: np.ndarray, i: int, g: np.ndarray
) -> np.ndarray:
    """∇R_i[g] = softmax(g(x)) − e_y on supp α_i, 0 elsewhere; flat (P·c,)."""
    P = labels.shape[0]
    G = g.reshape(P, -1)
    c = G.shape[1]
    e = np.exp(G - G.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    out = p - np.eye(c)[labels]
    out[weights[i] <= 0] = 0.0
    return out.ravel()
