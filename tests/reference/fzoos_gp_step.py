"""Plain-numpy twin of FZooS with the GP surrogate (``fedtheory/papers/fzoos/_fzoos_step.py``).

Written from Algorithm 2 as the guide's §2.6 pseudocode states it, with the GP and RFF formulas of
``reference.fzoos_gp`` (a fresh kernel matrix and solve for every ∇μ, the naive O(n²d) trace
for every candidate, the n × n ridge form of (6) — the kernel uses the M × M push-through form)
and the counter-based draws of ``reference.federated`` (Python integers). Slow on purpose.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference import fzoos_gp as gp
from reference.federated import standard_normal, uniform
from reference.fzoos_algorithms import call_keys


def fzoos_run(
    problem: Any,
    x0: np.ndarray,
    *,
    rounds: int,
    T: int,
    eta: float,
    sigma: float,
    seed: int,
    gammas: np.ndarray,
    lengthscale: float,
    noise: float,
    M: int,
    n_active: int,
    n_cand: int,
    box: float,
    history_all: bool = True,
    anchored: bool = False,
    adam: tuple[float, float, float] | None = None,
    clip: bool = False,
) -> dict[str, np.ndarray]:
    """One FZooS run; returns x_R, the uploads of the last round, ĝ's Ξ and γ (R, N, T), and
    the final weights (N, M)."""
    rng = np.random.default_rng(seed)
    s = int(rng.integers(0, 2**64, dtype=np.uint64))
    m, d = problem.num_clients, problem.dimension
    V = rng.standard_normal((M, d)) / lengthscale
    b = rng.uniform(0.0, 2.0 * np.pi, M)
    scale = np.sqrt(2.0 / M)
    X: list[list[np.ndarray]] = [[] for _ in range(m)]  # GP histories
    Y: list[list[float]] = [[] for _ in range(m)]
    WX: list[list[np.ndarray]] = [[] for _ in range(m)]  # w histories (A7)
    WY: list[list[float]] = [[] for _ in range(m)]
    w_local = np.zeros((m, M))
    w_mean = np.zeros(M)
    x = np.array(x0, dtype=float)
    xi = np.zeros((rounds, m, T))
    gam = np.zeros((rounds, m, T))
    uploads = np.zeros((m, d))
    for r in range(rounds):
        new_w = np.zeros((m, M))
        for i in range(m):
            z = x.copy()
            delta = w_mean - w_local[i]
            first = np.zeros(d)
            second = np.zeros(d)
            for t in range(T):
                dk, nk = call_keys(s, i, r, t, False)
                y0 = problem.value(i, z) + (sigma * standard_normal(nk, 0) if sigma > 0 else 0.0)
                X[i].append(z.copy())
                Y[i].append(y0)
                WX[i].append(z.copy())
                WY[i].append(y0)
                if n_active > 0:
                    cand = np.array(
                        [
                            [z[k] + box * (2.0 * uniform(dk, c * d + k) - 1.0) for k in range(d)]
                            for c in range(n_cand)
                        ]
                    )
                    if n_active == n_cand:  # every candidate is taken, in drawing order
                        order = list(range(n_cand))
                    else:
                        scores = gp.trace_uncertainty(np.array(X[i]), cand, lengthscale, noise)
                        order = sorted(range(n_cand), key=lambda c: (-scores[c], c))[:n_active]
                    for a, c in enumerate(order):
                        ya = problem.value(i, cand[c]) + (
                            sigma * standard_normal(nk, 1 + a) if sigma > 0 else 0.0
                        )
                        X[i].append(cand[c].copy())
                        Y[i].append(ya)
                        if history_all:
                            WX[i].append(cand[c].copy())
                            WY[i].append(ya)
                g = gp.mean_gradient(np.array(X[i]), np.array(Y[i]), z, lengthscale, noise)
                if r == 0:
                    corr = np.zeros(d)
                else:
                    at = x if anchored else z
                    corr = gp.rff_jacobian(V, b, scale, at).T @ delta
                gamma = gammas[r, t]
                g_hat = g + gamma * corr
                xi[r, i, t] = float(np.sum((g_hat - problem.global_gradient(z)) ** 2))
                gam[r, i, t] = gamma
                if adam is None:
                    z = z - eta * g_hat
                else:
                    b1, b2, eps = adam
                    first = b1 * first + (1 - b1) * g_hat
                    second = b2 * second + (1 - b2) * g_hat**2
                    z = z - eta * (first / (1 - b1 ** (t + 1))) / (
                        np.sqrt(second / (1 - b2 ** (t + 1))) + eps
                    )
                if clip:
                    z = np.clip(z, 0.0, 1.0)
            uploads[i] = z
            new_w[i] = gp.rff_weights(V, b, scale, np.array(WX[i]), np.array(WY[i]), noise)
        w_local = new_w
        w_mean = new_w.mean(axis=0)
        x = uploads.mean(axis=0)
    return {"x": x, "uploads": uploads.copy(), "xi": xi, "gamma": gam, "weights": w_local}
