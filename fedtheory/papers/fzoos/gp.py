"""The trajectory-informed GP gradient surrogate of FZooS (Shu et al., Sec. 4.1, eqs. (4)–(5)).

A client's query history {(x_τ, y_τ)} under a zero-mean GP prior with the squared-exponential
kernel k(x, x′) = exp(−‖x − x′‖²/(2l²)) and noise σ² gives a Gaussian posterior for ∇f(x) with

- mean ∇μ(x) = J(x)ᵀK_σ⁻¹y, J(x) = ∂_x k(x) (n × d, row τ = −(x − x_τ)ᵀk(x, x_τ)/l²), eq. (5);
- covariance Σ(x) = ∂_x∂_{x′}k(x, x) − J(x)ᵀK_σ⁻¹J(x) = I/l² − J(x)ᵀK_σ⁻¹J(x).

For the SE kernel (guide §2.3): ∂_x k(x, x′) = −(x − x′)k/l², ∂_x∂_{x′}k(x, x′) =
(I − (x − x′)(x − x′)ᵀ/l²)k/l², so κ = ‖∂_x∂_{x′}k(x, x)‖ = 1/l² and
L = sup ‖∂_x k(x, x′)‖ = e^{−1/2}/l (at ‖x − x′‖ = l).

The active queries of FZooS (App. E) are the top 5 of 100 candidates by uncertainty; the paper's
‖∂σ²(x)‖ is read as the trace (ambiguity A4, guide §2.9): the spectral norm is exactly 1/l²
for every x while n < d (check 16), so it cannot rank. :class:`GaussianProcessSurrogate` is the
user-level class; the client step of the FZooS round loop calls the same kernels
(:mod:`fedtheory.papers.fzoos._gp_kernels`) on a state built by :func:`gp_state`.

Cost per FZooS local step with a history of n points (append 1 + 5, score 100 candidates, ∇μ):
O(n²) for the incremental Cholesky and the lazy update of K_σ⁻¹, about 3·100·n² flops of BLAS
for the exact trace scores. The ranking can instead be conditioned on the m points nearest to
the iterate (``neighbours=m``): an explicit approximation, never the default, whose top-5
agreement is measured in ``benchmarks/bench_fzoos_gp.py`` and quoted in
``_gp_kernels.gp_trace_uncertainty_local``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fedtheory._checks import check_int, check_real, check_vector
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fzoos import _gp_kernels as _k

__all__ = [
    "GaussianProcessSurrogate",
    "gp_state",
    "se_gradient_bound",
    "se_kappa",
    "se_kernel",
    "se_kernel_cross_hessian",
    "se_kernel_gradient",
]

#: The GP noise variance of the guide's prototype (§4.8); the paper gives none (A8).
DEFAULT_NOISE = 1e-4


def _lengthscale(value: Any) -> float:
    return check_real("lengthscale", value, positive=True)


def _noise(value: Any) -> float:
    return check_real("noise", value, nonnegative=True)


def se_kernel(x: Any, x_prime: Any, lengthscale: float = 1.0) -> float:
    """k(x, x′) = exp(−‖x − x′‖²/(2l²)) (guide §2.3)."""
    scale = _lengthscale(lengthscale)
    a, b = _pair(x, x_prime)
    return math.exp(-float(np.sum((a - b) ** 2)) / (2.0 * scale * scale))


def se_kernel_gradient(x: Any, x_prime: Any, lengthscale: float = 1.0) -> np.ndarray:
    """∂_x k(x, x′) = −(x − x′)k(x, x′)/l² (guide §2.3), shape (d,)."""
    scale = _lengthscale(lengthscale)
    a, b = _pair(x, x_prime)
    gradient: np.ndarray = -(a - b) * se_kernel(a, b, scale) / scale**2
    return gradient


def se_kernel_cross_hessian(x: Any, x_prime: Any, lengthscale: float = 1.0) -> np.ndarray:
    """∂_x∂_{x′}k(x, x′) = (I − (x − x′)(x − x′)ᵀ/l²)k(x, x′)/l² (guide §2.3), shape (d, d)."""
    scale = _lengthscale(lengthscale)
    a, b = _pair(x, x_prime)
    u = a - b
    return (np.eye(a.size) - np.outer(u, u) / scale**2) * se_kernel(a, b, scale) / scale**2


def se_kappa(lengthscale: float = 1.0) -> float:
    """κ = ‖∂_x∂_{x′}k(x, x′)|_{x = x′}‖₂ = 1/l² for the SE kernel (guide §1)."""
    return 1.0 / _lengthscale(lengthscale) ** 2


def se_gradient_bound(lengthscale: float = 1.0) -> float:
    """L = sup_{x, x′} ‖∂_x k(x, x′)‖ = e^{−1/2}/l for the SE kernel (at ‖x − x′‖ = l)."""
    return math.exp(-0.5) / _lengthscale(lengthscale)


def _pair(x: Any, x_prime: Any) -> tuple[np.ndarray, np.ndarray]:
    a = np.atleast_1d(np.asarray(x, dtype=np.float64))
    if a.ndim != 1 or a.size < 1:
        raise ParameterError(parameter="x", value=f"shape {a.shape}", rule="must be a d-vector")
    a = check_vector("x", a, shape=a.shape)
    b = check_vector("x_prime", np.atleast_1d(x_prime), shape=a.shape)
    return a, b


def gp_state(
    capacity: int,
    dimension: int,
    *,
    lengthscale: float = 1.0,
    noise: float = DEFAULT_NOISE,
    clients: int | None = None,
) -> tuple[np.ndarray, ...]:
    """Preallocated GP state(s) for the in-loop kernels (layout in ``_gp_kernels``).

    Parameters
    ----------
    capacity
        The most points the history may hold (FZooS: (1 + n_active)·R·T per client).
    dimension
        d ≥ 1.
    lengthscale, noise
        l > 0 and σ² ≥ 0 of the SE kernel and the observation model.
    clients
        ``None``: one state ``(X, y, LG, A, H, beta, alpha, origin, info)``; an integer m:
        the same arrays with a leading axis m (take client i's views with
        ``_gp_kernels.gp_client(stack, i)`` inside a kernel).

    Memory: 3·capacity² + O(capacity·d) floats per client (72 MB per client at 3000 points).
    """
    cap = check_int("capacity", capacity, minimum=1)
    d = check_int("dimension", dimension, minimum=1)
    scale = _lengthscale(lengthscale)
    variance = _noise(noise)
    lead: tuple[int, ...] = () if clients is None else (check_int("clients", clients, minimum=1),)
    info = np.zeros((*lead, _k.INFO_SIZE))
    info[..., _k.INFO_ALPHA] = 1.0
    info[..., _k.INFO_LENGTHSCALE] = scale
    info[..., _k.INFO_NOISE] = variance
    return (
        np.zeros((*lead, cap, d)),
        np.zeros((*lead, cap)),
        np.zeros((*lead, cap, cap)),
        np.zeros((*lead, cap * cap)),
        np.zeros((*lead, cap * cap)),
        np.zeros((*lead, cap)),
        np.zeros((*lead, cap)),
        np.zeros((*lead, d)),
        info,
    )


def _raise_for_status(state: tuple[np.ndarray, ...], status: int) -> None:
    """Raise the error a non-zero status of ``gp_append`` stands for (private helper)."""
    if status == _k.STATUS_NOT_PD:
        info = state[8]
        jitter = float(info[..., _k.INFO_JITTER].max())
        raise SolverError(
            "GP Cholesky update (fzoos)",
            "not positive definite",
            hint=(
                f"the Schur pivot of a new point is {-jitter:.3g} ≤ 0 (a repeated or nearly "
                f"repeated input); add a jitter of at least {max(jitter, 1e-12):.3g} to the "
                f"noise variance σ² = {float(info[..., _k.INFO_NOISE].max()):.3g}"
            ),
        )
    if status == _k.STATUS_NOT_FINITE:
        raise SolverError(
            "GP Cholesky update (fzoos)",
            "non-finite input",
            hint="a point or value is NaN or infinite",
        )
    if status == _k.STATUS_FULL:
        raise SolverError(
            "GP history (fzoos)", "capacity exceeded", hint="allocate a larger capacity"
        )


class GaussianProcessSurrogate:
    """The exact GP posterior of one client's query history (eqs. (4)–(5); guide §2.3).

    Parameters
    ----------
    dimension
        d ≥ 1.
    lengthscale
        l > 0 of the SE kernel (the paper fixes l = 1, A11).
    noise
        σ² ≥ 0 (default 1e-4, the guide's prototype; the paper gives none, A8). With σ² = 0 a
        repeated input makes K_σ singular: :class:`~fedtheory.errors.SolverError`.
    capacity
        Initial capacity; the history doubles its buffers when full.

    Notes
    -----
    Appends extend the Cholesky factor incrementally (O(qn²) for q points); the dense K_σ⁻¹
    needed by :meth:`trace_uncertainty` is updated lazily, once per batch (see
    :mod:`fedtheory.papers.fzoos._gp_kernels`).
    """

    def __init__(
        self,
        dimension: int,
        *,
        lengthscale: float = 1.0,
        noise: float = DEFAULT_NOISE,
        capacity: int = 64,
    ) -> None:
        self.dimension = check_int("dimension", dimension, minimum=1)
        self.lengthscale = _lengthscale(lengthscale)
        self.noise = _noise(noise)
        self.state = gp_state(
            capacity, self.dimension, lengthscale=self.lengthscale, noise=self.noise
        )

    @property
    def size(self) -> int:
        """The number of points in the history."""
        return int(self.state[8][_k.INFO_N])

    @property
    def inputs(self) -> np.ndarray:
        """The history inputs x_τ (n, d) (a copy)."""
        n = self.size
        inputs: np.ndarray = self.state[0][:n] + self.state[7][None, :]
        return inputs

    @property
    def observations(self) -> np.ndarray:
        """The history observations y_τ (n,) (a copy)."""
        values: np.ndarray = self.state[1][: self.size].copy()
        return values

    def _point(self, x: Any, name: str = "x") -> np.ndarray:
        return check_vector(name, x, shape=(self.dimension,))

    def add(self, points: Any, values: Any) -> None:
        """Append points (q, d) (or one d-vector) with their observations (q,)."""
        block = np.asarray(points, dtype=np.float64)
        if block.ndim == 1:
            block = block[None, :]
        q = block.shape[0] if block.ndim == 2 else -1
        block = check_vector("points", block, shape=(max(q, 0), self.dimension))
        observed = check_vector("values", np.atleast_1d(values), shape=(block.shape[0],))
        if q == 0:
            return
        needed = self.size + q
        if needed > self.state[0].shape[0]:
            self._grow(max(needed, 2 * self.state[0].shape[0]))
        status = _k.gp_append(self.state, block, observed)
        _raise_for_status(self.state, status)

    def _grow(self, capacity: int) -> None:
        old = self.state
        new = gp_state(capacity, self.dimension, lengthscale=self.lengthscale, noise=self.noise)
        n = self.size
        synced = int(old[8][_k.INFO_SYNC])
        new[0][:n] = old[0][:n]
        new[1][:n] = old[1][:n]
        new[2][:n, :n] = old[2][:n, :n]
        new[3][: synced * synced] = old[3][: synced * synced]
        new[4][: synced * synced] = old[4][: synced * synced]
        new[5][:n] = old[5][:n]
        new[6][:n] = old[6][:n]
        new[7][:] = old[7]
        new[8][:] = old[8]
        self.state = new

    def mean(self, x: Any) -> float:
        """μ(x) = k(x)ᵀK_σ⁻¹y."""
        return float(_k.gp_mean(self.state, self._point(x)))

    def mean_gradient(self, x: Any) -> np.ndarray:
        """∇μ(x) = J(x)ᵀK_σ⁻¹y, eq. (5), shape (d,)."""
        out = np.empty(self.dimension)
        _k.gp_mean_gradient(self.state, self._point(x), out)
        return out

    def gradient_covariance(self, x: Any) -> np.ndarray:
        """Σ(x) = I/l² − J(x)ᵀK_σ⁻¹J(x), eq. (5) at x = x′, shape (d, d)."""
        out = np.empty((self.dimension, self.dimension))
        _k.gp_gradient_covariance(self.state, self._point(x), out)
        return out

    def trace_uncertainty(
        self, candidates: Any, *, neighbours: int | None = None, center: Any = None
    ) -> np.ndarray:
        """tr Σ(c) for every row of ``candidates`` (B, d), shape (B,).

        ``neighbours = None`` (default): exact. An integer m: the documented APPROXIMATION
        conditioned on the m history points nearest to ``center`` (default: the candidates'
        mean), an upper bound of the exact trace, equal to it when n ≤ m
        (``_gp_kernels.gp_trace_uncertainty_local``; agreement of its top 5 with the exact one
        is measured in ``benchmarks/bench_fzoos_gp.py``).
        """
        block = np.asarray(candidates, dtype=np.float64)
        rows = block.shape[0] if block.ndim == 2 else -1
        block = check_vector("candidates", block, shape=(max(rows, 0), self.dimension))
        out = np.empty(block.shape[0])
        if neighbours is None:
            _k.gp_trace_uncertainty(self.state, block, out)
            return out
        m = check_int("neighbours", neighbours, minimum=1)
        middle = block.mean(axis=0) if center is None else self._point(center, "center")
        _k.gp_trace_uncertainty_local(self.state, block, middle, m, out)
        return out

    def most_uncertain(self, candidates: Any, count: int) -> np.ndarray:
        """Indices of the ``count`` candidates with the largest tr Σ, largest first (App. E)."""
        scores = self.trace_uncertainty(candidates)
        k = check_int("count", count, minimum=1)
        if k > scores.size:
            raise ParameterError(
                parameter="count", value=k, rule=f"must be at most the {scores.size} candidates"
            )
        out = np.empty(k, dtype=np.int64)
        _k.top_k(scores, k, out)
        return out
