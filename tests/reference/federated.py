"""Plain-numpy twin of ``_federated_rounds`` (:mod:`fedtheory.algorithms._federated_kernels`).

Written straight from Algorithms 1 and 2 of Chen, Zheng, Long & Su, with the same random
streams as the kernel (SplitMix64 draws computed with Python integers, lazy Fisher–Yates on a
Python list) and the sample gradients written as vectors: −y x sig(−y xᵀw) (logistic),
(xᵀw − y) x (squared), w − z (mean); the minibatch gradient is their mean and the step is
w ← P_𝒲[w − η(ĝ + λ(w − w^g))] with P_𝒲 computed by :func:`numpy.linalg.norm`; η is the local step
of the row and the local iteration (``local_steps`` (L,) for every row, or (S, L) with row
min(t, S − 1) for row t) times the client's multiplier ``scales[r, i]`` (default 1). The per-sample
losses ℓ(w; z) are :func:`sample_loss`. Slow on purpose.
"""

from __future__ import annotations

import numpy as np

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    """SplitMix64 finaliser on Python integers (mod 2^64)."""
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream_key(key: int, a: int) -> int:
    """Sub-stream key mix(key + (a + 1)·γ) (twin of ``_sampling._stream_key``)."""
    return mix(int(key) + (a + 1) * GAMMA)


def uniform(key: int, j: int) -> float:
    """The j-th 53-bit uniform of a stream (twin of ``_sampling._uniform``)."""
    return (mix(int(key) + (j + 1) * GAMMA) >> 11) / 2.0**53


def standard_normal(key: int, j: int) -> float:
    """The j-th normal of a stream, Box–Muller written from its definition (twin of
    ``_sampling._standard_normal``)."""
    a = ((mix(int(key) + (2 * j + 1) * GAMMA) >> 11) + 0.5) / 2.0**53
    b = (mix(int(key) + (2 * j + 2) * GAMMA) >> 11) / 2.0**53
    return float(np.sqrt(-2.0 * np.log(a)) * np.cos(2.0 * np.pi * b))


class ClientSampler:
    """The minibatch stream of one client: a permutation, a cursor and a draw counter."""

    def __init__(self, seed: int, client: int, n: int) -> None:
        self.key = mix(int(seed) + (client + 1) * GAMMA)
        self.counter = 0
        self.n = n
        self.perm = list(range(n))
        self.cursor = 0

    def below(self, bound: int) -> int:
        """The next draw, as an integer in [0, bound)."""
        self.counter += 1
        u = mix(self.key + self.counter * GAMMA)
        return ((u >> 32) * bound) >> 32

    def rows(self, start: int, size: int) -> np.ndarray:
        """Fix positions start, …, start + size − 1 by Fisher–Yates; return those rows."""
        for q in range(start, start + size):
            pick = q + self.below(self.n - q)
            self.perm[q], self.perm[pick] = self.perm[pick], self.perm[q]
        return np.array(self.perm[start : start + size])


def sample_gradient(loss: int, x: np.ndarray, y: float, w: np.ndarray) -> np.ndarray:
    """∇ℓ(w; x, y) for loss codes 0 logistic, 1 squared, 2 mean (z = x)."""
    if loss == 0:
        margin = y * float(x @ w)
        slope = float(np.exp(-np.logaddexp(0.0, margin)))  # sig(−margin)
        return -y * slope * x
    if loss == 1:
        return (float(x @ w) - y) * x
    return w - x


def sample_loss(loss: int, x: np.ndarray, y: float, w: np.ndarray) -> float:
    """ℓ(w; x, y): log(1 + e^{−y xᵀw}), ½(xᵀw − y)², ½‖w − z‖² (codes 0, 1, 2)."""
    if loss == 0:
        return float(np.logaddexp(0.0, -y * float(x @ w)))
    if loss == 1:
        return 0.5 * (float(x @ w) - y) ** 2
    return 0.5 * float((w - x) @ (w - x))


def project(w: np.ndarray, radius: float) -> np.ndarray:
    norm = float(np.linalg.norm(w))
    return w * (radius / norm) if norm > radius else w


def local_training(
    loss: int,
    X: np.ndarray,
    y: np.ndarray,
    sampler: ClientSampler,
    work: int,
    epochs: bool,
    batch: int,
    steps: np.ndarray,
    lam: float,
    radius: float,
    w: np.ndarray,
    wg: np.ndarray,
    scale: float = 1.0,
) -> tuple[np.ndarray, int, int]:
    """SoftLocalSGD: ``work`` epochs or steps with η_k = steps[k]·scale (k clamped); returns w,
    iterations, sample gradients."""
    n = sampler.n
    iterations = 0
    gradients = 0

    def step(rows: np.ndarray) -> np.ndarray:
        g = np.mean([sample_gradient(loss, X[j], y[j], w) for j in rows], axis=0)
        eta = steps[min(iterations, len(steps) - 1)] * scale
        updated = w - eta * (g + lam * (w - wg))
        return project(updated, radius) if radius < np.inf else updated

    if epochs:
        for _ in range(work):
            sampler.cursor = 0
            while sampler.cursor < n:
                size = min(batch, n - sampler.cursor)
                w = step(sampler.rows(sampler.cursor, size))
                sampler.cursor += size
                iterations += 1
                gradients += size
    else:
        for _ in range(work):
            if n - sampler.cursor < batch:
                sampler.cursor = 0
            w = step(sampler.rows(sampler.cursor, batch))
            sampler.cursor += batch
            iterations += 1
            gradients += batch
    return w, iterations, gradients


def federated_rounds(
    features: np.ndarray,
    targets: np.ndarray,
    counts: np.ndarray,
    loss: int,
    radius: float,
    weights: np.ndarray,
    masks: np.ndarray,
    local_work: np.ndarray,
    epochs: bool,
    batch: int,
    local_steps: np.ndarray,
    server_steps: np.ndarray,
    lam: float,
    persistent: bool,
    train_sampled: bool,
    project_global: bool,
    init_global: np.ndarray,
    init_local: np.ndarray,
    seeds: np.ndarray,
    record: bool,
    scales: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Twin of ``_federated_rounds``: same arguments, same outputs (see its docstring)."""
    reps, m, _, d = features.shape
    table = np.atleast_2d(local_steps)
    rounds = masks.shape[1]
    out_global, out_local, sizes, iterations, gradients, rec_global, rec_local = (
        [],
        [],
        [],
        [],
        [],
        [],
        [],
    )
    for r in range(reps):
        samplers = [ClientSampler(int(seeds[r]), i, int(counts[r, i])) for i in range(m)]
        wg = np.array(init_global[r], dtype=float)
        local = [np.array(init_local[r, i], dtype=float) for i in range(m)]
        g_hist, l_hist = [wg.copy()], [np.array(local)]
        size_r, its_r, grads_r = [], [], []
        for t in range(rounds + 1):
            final = t == rounds
            its = grads = 0
            for i in range(m):
                trains = final or (bool(masks[r, t, i]) == train_sampled)
                if not trains:
                    continue
                start = local[i] if persistent else wg
                n_i = int(counts[r, i])
                local[i], k, g = local_training(
                    loss,
                    features[r, i, :n_i],
                    targets[r, i, :n_i],
                    samplers[i],
                    int(local_work[t]),
                    epochs,
                    batch,
                    table[min(t, table.shape[0] - 1)],
                    lam,
                    radius,
                    start.copy(),
                    wg,
                    1.0 if scales is None else float(scales[r, i]),
                )
                its += k
                grads += g
            its_r.append(its)
            grads_r.append(grads)
            if final:
                size_r.append(sum(float(w @ w) for w in local))
                break
            sampled = [i for i in range(m) if masks[r, t, i]]
            pull = sum(weights[r, i] * (wg - local[i]) for i in sampled)
            wg = wg - server_steps[t] * (m / len(sampled)) * pull
            if project_global and radius < np.inf:
                wg = project(wg, radius)
            size_r.append(float(wg @ wg) + sum(float(w @ w) for w in local))
            g_hist.append(wg.copy())
            l_hist.append(np.array(local))
        out_global.append(wg)
        out_local.append(np.array(local))
        sizes.append(size_r)
        iterations.append(its_r)
        gradients.append(grads_r)
        rec_global.append(np.array(g_hist) if record else np.zeros((0, d)))
        rec_local.append(np.array(l_hist) if record else np.zeros((0, m, d)))
    return (
        np.array(out_global),
        np.array(out_local),
        np.array(sizes),
        np.array(iterations, dtype=np.int64),
        np.array(gradients, dtype=np.int64),
        np.array(rec_global),
        np.array(rec_local),
    )
