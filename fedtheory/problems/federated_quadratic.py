"""Federated quadratic clients with exact gradients: f_i(x) = ½(x − a_i)ᵀQ_i(x − a_i) + c_i.

The clients of a worst-case counterexample (issue 16: the explicit quadratic instance that
attains a performance-estimation worst case, :func:`fedtheory.worstcase.quadratic_counterexample`)
and, generally, any heterogeneous quadratic problem: client i has Hessian Q_i (symmetric,
positive semidefinite) and minimiser a_i, and the global objective is F = Σ_i q_i f_i.

The numba round loop runs it without a new kernel: :meth:`FederatedQuadratic.dataset` is the
squared-loss :class:`~fedtheory.problems.FederatedDataset` whose client empirical risks *are*
f_i − c_i — client i holds n = d samples, the rows of X_i = √d·Q_i^{1/2}, with targets
y_i = X_i a_i, so that (1/2d)‖X_i w − y_i‖² = ½(w − a_i)ᵀQ_i(w − a_i) — and a full-batch step
(``batch = d``) takes the exact gradient Q_i(w − a_i) (up to the summation order of rounding).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_vector, check_weights
from fedtheory.errors import ParameterError
from fedtheory.problems.dataset import FederatedDataset

__all__ = ["FederatedQuadratic", "federated_quadratic"]


def _psd_root(Q: np.ndarray) -> np.ndarray:
    """The symmetric square root Q^{1/2} (eigenvalues clipped at 0 against rounding)."""
    eigenvalues, vectors = np.linalg.eigh(Q)
    return np.asarray((vectors * np.sqrt(np.maximum(eigenvalues, 0.0))) @ vectors.T)


@dataclass(frozen=True, eq=False)
class FederatedQuadratic:
    """m quadratic clients f_i(x) = ½(x − a_i)ᵀQ_i(x − a_i) + c_i and F = Σ_i q_i f_i.

    Implements the problem protocol (:class:`~fedtheory.problems.FederatedProblem`). Build it
    with :func:`federated_quadratic` (which checks the arrays).

    Attributes
    ----------
    hessians : numpy.ndarray
        Q_i, shape (m, d, d), symmetric positive semidefinite.
    minimisers : numpy.ndarray
        a_i, shape (m, d): a minimiser of f_i.
    offsets : numpy.ndarray
        c_i = min f_i, shape (m,).
    weights : numpy.ndarray
        q, shape (m,), on the simplex.
    """

    hessians: np.ndarray
    minimisers: np.ndarray
    offsets: np.ndarray
    weights: np.ndarray

    @property
    def num_clients(self) -> int:
        """m."""
        return int(self.hessians.shape[0])

    @property
    def dimension(self) -> int:
        """d."""
        return int(self.hessians.shape[1])

    @property
    def client_weights(self) -> np.ndarray:
        """q."""
        return self.weights

    @property
    def mean_hessian(self) -> np.ndarray:
        """∇²F = Σ_i q_i Q_i, shape (d, d)."""
        return np.asarray(np.einsum("i,ijk->jk", self.weights, self.hessians))

    def constants(self) -> dict[str, float]:
        """Exact constants, from the eigenvalues of the Hessians.

        ``smoothness`` and ``strong_convexity``: λ_max and λ_min of ∇²F; ``client_smoothness``
        and ``client_strong_convexity``: max_i λ_max(Q_i) and min_i λ_min(Q_i) (the class every
        client belongs to); ``heterogeneity``: Σ_i q_i‖∇f_i(x*)‖² at x* =
        :meth:`global_optimum`.
        """
        mean = np.linalg.eigvalsh(self.mean_hessian)
        clients = np.linalg.eigvalsh(self.hessians)
        x_star = self.global_optimum()
        spread = sum(
            float(q) * float(np.sum(self.client_gradient(i, x_star) ** 2))
            for i, q in enumerate(self.weights)
        )
        return {
            "smoothness": float(mean[-1]),
            "strong_convexity": max(float(mean[0]), 0.0),
            "client_smoothness": float(clients[:, -1].max()),
            "client_strong_convexity": max(float(clients[:, 0].min()), 0.0),
            "heterogeneity": spread,
        }

    def _client(self, client: Any) -> int:
        index = check_int("client", client, minimum=0)
        if index >= self.num_clients:
            raise ParameterError(
                parameter="client", value=client, rule=f"must be below m = {self.num_clients}"
            )
        return index

    def _point(self, w: Any) -> np.ndarray:
        return check_vector("w", w, shape=(self.dimension,))

    def client_value(self, client: int, w: Any) -> float:
        """f_i(w)."""
        i = self._client(client)
        r = self._point(w) - self.minimisers[i]
        return float(0.5 * r @ (self.hessians[i] @ r) + self.offsets[i])

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇f_i(w) = Q_i(w − a_i)."""
        i = self._client(client)
        return np.asarray(self.hessians[i] @ (self._point(w) - self.minimisers[i]))

    def global_value(self, w: Any) -> float:
        """F(w) = Σ_i q_i f_i(w)."""
        point = self._point(w)
        return float(sum(q * self.client_value(i, point) for i, q in enumerate(self.weights)))

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w) = Σ_i q_i Q_i(w − a_i)."""
        point = self._point(w)
        return np.asarray(
            sum(q * self.client_gradient(i, point) for i, q in enumerate(self.weights))
        )

    def global_optimum(self) -> np.ndarray:
        """argmin F: the solution of (Σ q_i Q_i) x = Σ q_i Q_i a_i (the minimum-norm one when
        ∇²F is singular)."""
        rhs = np.einsum("i,ijk,ik->j", self.weights, self.hessians, self.minimisers)
        solution, *_ = np.linalg.lstsq(self.mean_hessian, rhs, rcond=None)
        return np.asarray(solution)

    def client_optima(self) -> np.ndarray:
        """a_i, shape (m, d)."""
        return np.array(self.minimisers)

    def gap(self, w: Any) -> float:
        """F(w) − F* = ½(w − x*)ᵀ∇²F(w − x*), computed without cancellation."""
        r = self._point(w) - self.global_optimum()
        return float(0.5 * r @ (self.mean_hessian @ r))

    def dataset(self) -> FederatedDataset:
        """The squared-loss dataset whose client empirical risks are f_i − c_i exactly.

        Client i holds d samples, the rows of X_i = √d·Q_i^{1/2}, with targets y_i = X_i a_i
        (see the module docstring). Its ``sample_weights`` are uniform: pass :attr:`weights`
        to the algorithm.
        """
        m, d = self.num_clients, self.dimension
        features = np.empty((m, d, d))
        targets = np.empty((m, d))
        for i in range(m):
            features[i] = np.sqrt(d) * _psd_root(self.hessians[i])
            targets[i] = features[i] @ self.minimisers[i]
        return FederatedDataset(features, targets, np.full(m, d), "squared")


def federated_quadratic(
    hessians: Any, minimisers: Any, *, offsets: Any = None, weights: Any = None
) -> FederatedQuadratic:
    """Check and build the quadratic clients f_i(x) = ½(x − a_i)ᵀQ_i(x − a_i) + c_i.

    Parameters
    ----------
    hessians
        Q_i, shape (m, d, d): symmetric (to 1e-12 relative; symmetrised) and positive
        semidefinite (eigenvalues above −1e-12·max|Q|).
    minimisers
        a_i, shape (m, d).
    offsets
        c_i, shape (m,); default 0.
    weights
        q on the simplex, shape (m,); default uniform.

    Raises
    ------
    ParameterError
        On a wrong shape, a non-finite entry, a non-symmetric or indefinite Hessian, or
        weights off the simplex.

    Examples
    --------
    >>> p = federated_quadratic([[[2.0]], [[4.0]]], [[1.0], [-1.0]])
    >>> p.global_optimum().round(12).tolist(), p.constants()["smoothness"]
    ([-0.333333333333], 3.0)
    """
    Q = np.array(hessians, dtype=np.float64)
    if Q.ndim != 3 or Q.shape[1] != Q.shape[2] or Q.shape[0] < 1 or Q.shape[1] < 1:
        raise ParameterError(
            parameter="hessians",
            value=f"array of shape {Q.shape}",
            rule="must have shape (m, d, d)",
        )
    m, d, _ = Q.shape
    Q = check_vector("hessians", Q, shape=(m, d, d))
    scale = max(float(np.abs(Q).max()), np.finfo(float).tiny)
    if float(np.abs(Q - Q.transpose(0, 2, 1)).max()) > 1e-12 * scale:
        raise ParameterError(parameter="hessians", value="non-symmetric", rule="must be symmetric")
    Q = 0.5 * (Q + Q.transpose(0, 2, 1))
    lowest = float(np.linalg.eigvalsh(Q)[:, 0].min())
    if lowest < -1e-12 * scale:
        raise ParameterError(
            parameter="hessians",
            value=f"smallest eigenvalue {lowest:.3g}",
            rule="must be positive semidefinite (convex clients)",
        )
    a = check_vector("minimisers", minimisers, shape=(m, d))
    c = np.zeros(m) if offsets is None else check_vector("offsets", offsets, shape=(m,))
    q = np.full(m, 1.0 / m) if weights is None else check_weights(weights, m)
    return FederatedQuadratic(
        hessians=readonly(Q), minimisers=readonly(a), offsets=readonly(c), weights=readonly(q)
    )
