"""Plain-numpy twins of the fzoos algorithm kernels (:mod:`fedtheory.papers.fzoos.fd`,
:mod:`fedtheory.papers.fzoos.steps`) and a small quadratic test problem.

The problem: f_i(x) = ½ Σ_k A[i, k] x_k² + Σ_k B[i, k] x_k + c_i (separable quadratics; with equal
rows of A and Σ_i B[i] = N·b̄ it is the pure linear heterogeneity f_i = F + ⟨b_i − b̄, x⟩ of check 3).
The twins redo one FedZO round and one SCAFFOLD round from eq. (3), (87), (91), (93) with the
draws of :mod:`tests.reference.federated` (Python integers), slow on purpose.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory.papers.fzoos._views import SeparableView
from reference.federated import mix, standard_normal, stream_key

GAMMA = 0x9E3779B97F4A7C15


class Quadratics:
    """A fzoos-style problem object around :class:`QuadraticView`."""

    def __init__(self, A: Any, B: Any, c: Any = None, *, exact_gradients: bool = True) -> None:
        self.A = np.ascontiguousarray(A, dtype=np.float64)
        self.B = np.ascontiguousarray(B, dtype=np.float64)
        m = self.A.shape[0]
        self.c = np.zeros(m) if c is None else np.asarray(c, dtype=np.float64)
        self.exact_gradients = exact_gradients
        self.box = False

    @property
    def num_clients(self) -> int:
        return int(self.A.shape[0])

    @property
    def dimension(self) -> int:
        return int(self.A.shape[1])

    def kernel_view(self) -> SeparableView:
        # The package's separable view (t = x): a package view shares the runners' one compiled
        # kernel type (fzoos._union_view) instead of compiling the loops again for a test type
        # in every pytest worker; the kernels themselves are tested against
        # reference/fzoos_problems.py.
        return SeparableView(
            np.ascontiguousarray(0.5 * self.A), self.B, self.c.copy(), 1.0, 0.0, 0.0, 0.0
        )

    def value(self, i: int, x: np.ndarray) -> float:
        return float(self.c[i] + 0.5 * self.A[i] @ (x * x) + self.B[i] @ x)

    def gradient(self, i: int, x: np.ndarray) -> np.ndarray:
        return self.A[i] * x + self.B[i]

    def global_gradient(self, x: np.ndarray) -> np.ndarray:
        return np.mean([self.gradient(i, x) for i in range(self.num_clients)], axis=0)


def linear_heterogeneity(m: int, d: int, seed: int) -> Quadratics:
    """f_i = F + ⟨b_i, x⟩ with Σ_i b_i = 0 and F a diagonal quadratic (check 3)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.5, 2.0, d)
    b = rng.normal(size=d)
    shifts = rng.normal(size=(m, d))
    shifts -= shifts.mean(axis=0)
    return Quadratics(np.tile(a, (m, 1)), b + shifts)


def heterogeneous(m: int, d: int, seed: int) -> Quadratics:
    """Heterogeneous curvatures and centres (positive curvature)."""
    rng = np.random.default_rng(seed)
    return Quadratics(rng.uniform(0.2, 3.0, (m, d)), rng.normal(size=(m, d)), rng.normal(size=m))


# ---------------------------------------------------------------------------- twins


def stream_seed(seed: int) -> int:
    """The replicate's stream seed: the first uint64 of default_rng(seed) (as the runners)."""
    return int(np.random.default_rng(seed).integers(0, 2**64, dtype=np.uint64))


def call_keys(seed: int, client: int, round_index: int, call: int, shared: bool) -> tuple[int, int]:
    """(directions, noise) keys of one call: (seed, client, round, call)."""
    key = stream_key(stream_key(mix(seed + (client + 1) * GAMMA), round_index), call)
    directions = stream_key(mix(seed), 0) if shared else stream_key(key, 0)
    return directions, stream_key(key, 1)


def fd_estimate(
    problem: Quadratics, i: int, x: np.ndarray, Q: int, lam: float, sigma: float,
    directions: int, noise: int,
) -> np.ndarray:  # fmt: skip
    """Δ^{(i)}(x) of eq. (3) with the given streams."""
    d = x.size
    y0 = problem.value(i, x) + (sigma * standard_normal(noise, 0) if sigma > 0 else 0.0)
    out = np.zeros(d)
    for q in range(Q):
        u = np.array([standard_normal(directions, q * d + k) for k in range(d)])
        y = problem.value(i, x + lam * u) + (
            sigma * standard_normal(noise, q + 1) if sigma > 0 else 0.0
        )
        out += (y - y0) / (lam * Q) * u
    return out


def fd_rounds(
    problem: Quadratics, method: str, x0: np.ndarray, *, rounds: int, T: int, eta: float,
    Q: int, lam: float, sigma: float, seed: int, mu: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """FedZO / FedProx-ZO / SCAFFOLD I / II with GD from eq. (2); returns (x_R, Ξ (R, N, T))."""
    s = stream_seed(seed)
    m, d = problem.num_clients, problem.dimension
    x = x0.copy()
    xi = np.zeros((rounds, m, T))
    c_local = np.zeros((m, d))
    c_mean = np.zeros(d)
    for r in range(rounds):
        if method == "scaffold1":
            for i in range(m):
                dk, nk = call_keys(s, i, r, T, False)
                c_local[i] = fd_estimate(problem, i, x, Q, lam, sigma, dk, nk)
            c_mean = c_local.mean(axis=0)
        uploads = np.zeros((m, d))
        pending = np.zeros((m, d))
        for i in range(m):
            z = x.copy()
            for t in range(T):
                dk, nk = call_keys(s, i, r, t, False)
                g = fd_estimate(problem, i, z, Q, lam, sigma, dk, nk)
                if method == "fedprox":
                    g_hat = g + mu * (z - x)
                elif method in ("scaffold1", "scaffold2"):
                    g_hat = g + (c_mean - c_local[i])
                else:
                    g_hat = g
                xi[r, i, t] = float(np.sum((g_hat - problem.global_gradient(z)) ** 2))
                pending[i] += g / T
                z = z - eta * g_hat
            uploads[i] = z
        if method == "scaffold2":
            c_local = pending
            c_mean = pending.mean(axis=0)
        x = uploads.mean(axis=0)
    return x, xi
