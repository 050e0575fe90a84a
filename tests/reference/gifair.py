"""Plain-numpy twins of the gifair kernels (``fedtheory/papers/gifair/_samples.py``).

Written from the problems' definitions (reading guide §1, §4): per-sample losses and gradients of
the grouped quadratics, ½(θ − c)ᵀA(θ − c) + b + zᵀ(θ − c) with gradient A(θ − c) + z, and of
ridge-regularised logistic (labels ±1) and softmax (labels in [0, C), θ = vec of the C × p class
rows) regression, ℓ + (ρ/2)‖θ‖² + ν Σ_i θ_i²/(1 + θ_i²) (the optional non-convex regulariser,
guide §5 V14). Vectorised over the samples with numpy; slow on purpose.
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
    loss: str,
    X: np.ndarray,
    y: np.ndarray,
    classes: int,
    ridge: float,
    w: np.ndarray,
    nonconvex: float = 0.0,
) -> np.ndarray:
    """ℓ(w; x_j, y_j) + (ρ/2)‖w‖² + ν Σ_i w_i²/(1 + w_i²) for every row of ``X`` (n, p)."""
    penalty = 0.5 * ridge * float(w @ w) + nonconvex * float(np.sum(w**2 / (1.0 + w**2)))
    if loss == "logistic":
        return np.logaddexp(0.0, -y * (X @ w)) + penalty
    logits = X @ w.reshape(classes, -1).T
    return logsumexp(logits, axis=1) - logits[np.arange(len(y)), y.astype(int)] + penalty


def classification_gradients(
    loss: str,
    X: np.ndarray,
    y: np.ndarray,
    classes: int,
    ridge: float,
    w: np.ndarray,
    nonconvex: float = 0.0,
) -> np.ndarray:
    """∇ℓ(w; x_j, y_j) + ρw + ν·2w/(1 + w²)² (elementwise), shape (n, d)."""
    regular = ridge * w + nonconvex * 2.0 * w / (1.0 + w**2) ** 2
    if loss == "logistic":
        slope = 1.0 / (1.0 + np.exp(y * (X @ w)))
        return -(y * slope)[:, None] * X + regular[None, :]
    logits = X @ w.reshape(classes, -1).T
    probabilities = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
    probabilities[np.arange(len(y)), y.astype(int)] -= 1.0
    per_sample = probabilities[:, :, None] * X[:, None, :]  # (n, C, p)
    return per_sample.reshape(len(y), -1) + regular[None, :]


# ---------------------------------------------------------------- the GIFAIR-FL round loop


def client_oracles(problem: object) -> tuple[object, object, np.ndarray]:
    """(gradient(k, w, rows) = mean sample gradient over ``rows``, loss(k, w) = F_k(w), n_k)."""
    if hasattr(problem, "curvature"):
        A, c, b, Z = problem.curvature, problem.centres, problem.offsets, problem.noise

        def gradient(k: int, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
            return quadratic_gradients(A[k], c[k], Z[k][rows], w).mean(axis=0)

        def loss(k: int, w: np.ndarray) -> float:
            return float(0.5 * (w - c[k]) @ A[k] @ (w - c[k]) + b[k])

        return gradient, loss, np.full(len(b), Z.shape[1])
    counts = np.asarray(problem.counts)
    nu = float(getattr(problem, "nonconvex", 0.0))

    def data(k: int) -> tuple:
        n = int(counts[k])
        return problem.features[k, :n], problem.labels[k, :n]

    def gradient(k: int, w: np.ndarray, rows: np.ndarray) -> np.ndarray:
        X, y = data(k)
        args = (problem.loss, X[rows], y[rows], problem.classes, problem.ridge, w, nu)
        return classification_gradients(*args).mean(axis=0)

    def loss(k: int, w: np.ndarray) -> float:
        X, y = data(k)
        return float(
            classification_losses(problem.loss, X, y, problem.classes, problem.ridge, w, nu).mean()
        )

    return gradient, loss, counts


def signed_ranks(group_losses: np.ndarray) -> np.ndarray:
    """r_i = Σ_{j≠i} sign(L_i − L_j), sign(0) = 0."""
    return np.sign(group_losses[:, None] - group_losses[None, :]).sum(axis=1)


def gifair_rounds(
    problem: object,
    lam: float,
    *,
    steps: np.ndarray,
    local_steps: int,
    batch: int,
    weighted: bool,
    stale: bool,
    trainers: list[np.ndarray],
    uploaders: list[np.ndarray],
    init: np.ndarray,
    stream: int,
) -> dict[str, np.ndarray]:
    """Algorithm 2 in plain numpy, with the kernel's minibatch stream (reference.federated).

    Round c: c_k = 1 + λ r_{s_k}/(p_k|A_{s_k}|) from the reported losses; every trainer runs E
    steps w ← w − η^(c,e) c_k ĝ from θ̄; the server sets θ̄ ← θ̄ − (K/|S|) Σ_{k∈S} p_k (θ̄ − θ_k)
    (``weighted``) or the mean of the uploaded models (repeats counted); then the reports
    (stale: each distinct uploader at its local model; exact: every client at θ̄).
    """
    from reference.federated import ClientSampler

    gradient, loss, counts = client_oracles(problem)
    labels = np.asarray(problem.groups.labels)
    p = np.asarray(problem.groups.p, dtype=float)
    sizes = np.bincount(labels).astype(float)
    K = labels.size
    samplers = [ClientSampler(stream, k, int(counts[k])) for k in range(K)]
    theta = np.array(init, dtype=float)
    local = np.tile(theta, (K, 1))
    reported = np.array([loss(k, theta) for k in range(K)])
    history, reports, ranks_log = [theta.copy()], [reported.copy()], []
    table = np.atleast_2d(steps)
    for c in range(len(trainers)):
        group = np.bincount(labels, weights=reported) / sizes
        ranks = signed_ranks(group)
        ranks_log.append(ranks)
        multipliers = 1.0 + lam * ranks[labels] / (p * sizes[labels])
        for k in trainers[c]:
            w = theta.copy()
            sampler = samplers[k]
            for e in range(local_steps):
                if sampler.n - sampler.cursor < batch:
                    sampler.cursor = 0
                rows = sampler.rows(sampler.cursor, batch)
                sampler.cursor += batch
                row = table[min(c, table.shape[0] - 1)]
                eta = row[min(e, row.size - 1)] * multipliers[k]
                w = w - eta * gradient(k, w, rows)
            local[k] = w
        sent = uploaders[c]
        if weighted:
            pull = sum(p[k] * (theta - local[k]) for k in sent)
            theta = theta - (K / len(sent)) * pull
        else:
            theta = np.mean([local[k] for k in sent], axis=0)
        if stale:
            for k in np.unique(sent):
                reported[k] = loss(k, local[k])
        else:
            reported = np.array([loss(k, theta) for k in range(K)])
        history.append(theta.copy())
        reports.append(reported.copy())
    group = np.bincount(labels, weights=reported) / sizes
    ranks_log.append(signed_ranks(group))
    return {
        "global_iterates": np.array(history),
        "local_models": local,
        "reported": np.array(reports),
        "ranks": np.array(ranks_log),
    }
