"""The one container every federated algorithm reads: client data in padded arrays.

A :class:`FederatedDataset` holds the samples of ``m`` clients with possibly different sample
sizes ``n_i`` in arrays padded to ``n_max`` rows, so that numba kernels can loop over clients
without Python lists. Rows beyond ``counts[i]`` are zero and never read.

Three losses cover the generative models of the minimax paper (Chen, Zheng, Long & Su, §2, §5):

``"logistic"``
    ℓ(w; x, y) = log(1 + exp(−y xᵀw)) with labels y ∈ {−1, +1} (Lemma 7, App. D).
``"squared"``
    ℓ(w; x, y) = ½ (xᵀw − y)² (linear regression; heterogeneous Hessians E[xxᵀ] per client).
``"mean"``
    ℓ(w; z) = ½ ‖w − z‖² (mean estimation, the quadratic model GM-Q of the reading guide);
    the sample z is stored as the feature row and ``targets`` is unused (zeros).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
from scipy import optimize
from scipy.special import expit

from fedtheory._checks import check_int, check_real, check_vector
from fedtheory.errors import ParameterError
from fedtheory.exact.logistic import logistic_erm

__all__ = ["LOSSES", "FederatedDataset", "Loss", "sample_losses"]

#: The per-sample loss of a :class:`FederatedDataset` (the three of the module docstring).
Loss: TypeAlias = Literal["logistic", "squared", "mean"]
#: The losses the federated kernels implement, with their integer codes in the kernels.
LOSSES: dict[str, int] = {"logistic": 0, "squared": 1, "mean": 2}


@dataclass(frozen=True, eq=False)
class FederatedDataset:
    """Samples of ``m`` clients, padded to a common number of rows.

    Parameters
    ----------
    features
        ``(m, n_max, d)`` float64; row ``j < counts[i]`` of client ``i`` is its j-th sample
        (the sample z itself for the ``"mean"`` loss).
    targets
        ``(m, n_max)`` float64: labels ±1 (logistic), responses (squared), zeros (mean).
    counts
        ``(m,)`` int64, the local sample sizes n_i ≥ 1.
    loss
        One of :data:`LOSSES`.
    radius
        Radius ρ of the parameter set 𝒲 = {‖w‖ ≤ ρ} onto which the algorithms project
        (``inf``: unconstrained).
    """

    features: np.ndarray
    targets: np.ndarray
    counts: np.ndarray
    loss: Loss
    radius: float = float("inf")

    def __post_init__(self) -> None:
        features = np.ascontiguousarray(self.features, dtype=np.float64)
        targets = np.ascontiguousarray(self.targets, dtype=np.float64)
        counts = np.ascontiguousarray(self.counts, dtype=np.int64)
        if features.ndim != 3:
            raise ParameterError(
                parameter="features", value=features.shape, rule="must have shape (m, n_max, d)"
            )
        m, n_max, _ = features.shape
        if m < 1 or n_max < 1:
            raise ParameterError(
                parameter="features", value=features.shape, rule="m ≥ 1, n_max ≥ 1"
            )
        if targets.shape != (m, n_max):
            raise ParameterError(
                parameter="targets",
                value=targets.shape,
                rule=f"must have shape (m, n_max) = {(m, n_max)}",
            )
        if counts.shape != (m,) or counts.min() < 1 or counts.max() > n_max:
            raise ParameterError(
                parameter="counts",
                value=counts.tolist(),
                rule=f"m = {m} sizes with 1 ≤ n_i ≤ n_max = {n_max}",
            )
        if self.loss not in LOSSES:
            raise ParameterError(parameter="loss", value=self.loss, rule=f"one of {sorted(LOSSES)}")
        if not self.radius > 0:
            raise ParameterError(
                parameter="radius", value=self.radius, rule="must be > 0 (inf: unconstrained)"
            )
        object.__setattr__(self, "features", features)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "radius", float(self.radius))

    @property
    def m(self) -> int:
        """Number of clients."""
        return int(self.features.shape[0])

    @property
    def d(self) -> int:
        """Dimension of the model."""
        return int(self.features.shape[2])

    @property
    def n_max(self) -> int:
        """Largest local sample size (the padded length)."""
        return int(self.features.shape[1])

    @property
    def N(self) -> int:
        """Total sample size N = Σ n_i."""
        return int(self.counts.sum())

    @property
    def sample_weights(self) -> np.ndarray:
        """Sample-proportional client weights p_i = n_i / N."""
        return np.asarray(self.counts / self.counts.sum())

    def client(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Features and targets of client ``i`` without the padding."""
        n_i = int(self.counts[i])
        return self.features[i, :n_i], self.targets[i, :n_i]

    def empirical_risk(self, models: np.ndarray) -> np.ndarray:
        """Local empirical risks L_i(w_i, S_i) = (1/n_i) Σ_j ℓ(w_i, z_j^(i)), shape ``(m,)``.

        ``models`` is one model ``(d,)`` shared by every client (a global algorithm) or one
        model per client ``(m, d)``.
        """
        w = np.broadcast_to(np.asarray(models, dtype=np.float64), (self.m, self.d))
        mask = np.arange(self.n_max)[None, :] < self.counts[:, None]
        features = np.where(mask[:, :, None], self.features, 0.0)  # padding is never read
        targets = np.where(mask, self.targets, 0.0)
        losses = sample_losses(self.loss, features, targets, w)
        return np.asarray(np.where(mask, losses, 0.0).sum(axis=1) / self.counts)

    def with_sample_replaced(
        self, client: int, index: int, features_row: Any, target: float
    ) -> FederatedDataset:
        """The same data with sample ``index`` of client ``client`` replaced by a new one.

        The replace-one dataset ``S^{∖(i,j)}`` of federated stability (Chen et al., Def. 5):
        the counts, the loss and the radius are unchanged.

        Parameters
        ----------
        client, index
            0 ≤ client < m and 0 ≤ index < n_client.
        features_row
            The new feature row, a finite vector of shape (d,).
        target
            The new target, a real number (the loss's own rule on it is the caller's).

        Raises
        ------
        ParameterError
            Naming ``client``, ``index``, ``features_row`` or ``target``.
        """
        client = check_int("client", client, minimum=0)
        if client >= self.m:
            raise ParameterError(
                parameter="client", value=client, rule=f"must be below m = {self.m}"
            )
        index = check_int("index", index, minimum=0)
        n_i = int(self.counts[client])
        if index >= n_i:
            raise ParameterError(
                parameter="index", value=index, rule=f"must be below n_{client} = {n_i}"
            )
        row = check_vector("features_row", features_row, shape=(self.d,))
        value = check_real("target", target)
        features = self.features.copy()
        targets = self.targets.copy()
        features[client, index] = row
        targets[client, index] = value
        return FederatedDataset(features, targets, self.counts, self.loss, self.radius)

    # ------------------------------------------------------------------ the problem protocol
    # (fedtheory.problems.protocol): client i's objective is its empirical risk L_i(w, S_i), the
    # global objective the sample-weighted F = Σ_i (n_i/N) L_i, the domain 𝒲 the ball of
    # ``radius``.

    @property
    def num_clients(self) -> int:
        """m."""
        return self.m

    @property
    def dimension(self) -> int:
        """d."""
        return self.d

    @property
    def client_weights(self) -> np.ndarray:
        """n_i/N."""
        return np.asarray(self.sample_weights)

    def _samples_of(self, client: Any) -> tuple[np.ndarray, np.ndarray]:
        client = check_int("client", client, minimum=0)
        if client >= self.m:
            raise ParameterError(parameter="client", value=client, rule=f"must be below {self.m}")
        return self.client(client)

    def _pooled(self) -> tuple[np.ndarray, np.ndarray]:
        return (
            np.concatenate([self.client(i)[0] for i in range(self.m)]),
            np.concatenate([self.client(i)[1] for i in range(self.m)]),
        )

    def constants(self) -> dict[str, float]:
        """Smoothness and strong convexity of F over ℝ^d, computed from the data.

        Mean loss: 1 and 1. Squared loss: the extreme eigenvalues of XᵀX/N. Logistic loss:
        λ_max(XᵀX)/(4N) (the Hessian Σ sig'(xᵀw)xxᵀ/N ⪯ XᵀX/(4N), with equality at w = 0) and
        0 (sig' → 0 along every ray: no strong convexity on ℝ^d).
        """
        if self.loss == "mean":
            return {"smoothness": 1.0, "strong_convexity": 1.0}
        X, _ = self._pooled()
        eigen = np.linalg.eigvalsh(X.T @ X / X.shape[0])
        if self.loss == "squared":
            return {"smoothness": float(eigen[-1]), "strong_convexity": max(float(eigen[0]), 0.0)}
        return {"smoothness": float(eigen[-1]) / 4.0, "strong_convexity": 0.0}

    def client_value(self, client: int, w: Any) -> float:
        """L_i(w, S_i)."""
        X, y = self._samples_of(client)
        model = check_vector("w", w, shape=(self.d,))
        return float(np.mean(sample_losses(self.loss, X[None], y[None], model[None])))

    def client_gradient(self, client: int, w: Any) -> np.ndarray:
        """∇L_i(w, S_i), shape (d,)."""
        X, y = self._samples_of(client)
        return _mean_gradient(self.loss, X, y, check_vector("w", w, shape=(self.d,)))

    def global_value(self, w: Any) -> float:
        """F(w) = Σ_i (n_i/N) L_i(w, S_i)."""
        model = check_vector("w", w, shape=(self.d,))
        return float(self.sample_weights @ self.empirical_risk(model))

    def global_gradient(self, w: Any) -> np.ndarray:
        """∇F(w)."""
        X, y = self._pooled()
        return _mean_gradient(self.loss, X, y, check_vector("w", w, shape=(self.d,)))

    def global_optimum(self) -> np.ndarray:
        """argmin_{‖w‖≤radius} F(w): the pooled ERM over 𝒲."""
        return _erm(self.loss, *self._pooled(), self.radius)

    def client_optima(self) -> np.ndarray:
        """argmin_{‖w‖≤radius} L_i(w, S_i) for every client, shape (m, d)."""
        return np.stack([_erm(self.loss, *self.client(i), self.radius) for i in range(self.m)])

    def split(
        self, fraction: float, rng: np.random.Generator
    ) -> tuple[FederatedDataset, FederatedDataset]:
        """Split every client's samples at random into (train, held-out) parts.

        Client i trains on ``n_i − k_i`` samples and holds out ``k_i = round(fraction·n_i)``
        (at least 1 of each). Used by the validation-based dichotomy (minimax §3.3, guide V17).
        """
        if not 0.0 < fraction < 1.0:
            raise ParameterError(parameter="fraction", value=fraction, rule="must lie in (0, 1)")
        held = np.clip(np.rint(fraction * self.counts).astype(np.int64), 1, None)
        if np.any(held >= self.counts):
            raise ParameterError(
                parameter="fraction",
                value=fraction,
                rule="must leave every client ≥ 1 training sample",
            )
        train_counts = self.counts - held
        shapes = [(int(train_counts.max()), self.d), (int(held.max()), self.d)]
        parts = [(np.zeros((self.m, *shape)), np.zeros((self.m, shape[0]))) for shape in shapes]
        for i in range(self.m):
            order = rng.permutation(int(self.counts[i]))
            for (features, targets), rows in zip(
                parts, (order[: train_counts[i]], order[train_counts[i] :]), strict=True
            ):
                features[i, : rows.size] = self.features[i, rows]
                targets[i, : rows.size] = self.targets[i, rows]
        return (
            FederatedDataset(*parts[0], train_counts, self.loss, self.radius),
            FederatedDataset(*parts[1], held, self.loss, self.radius),
        )


def sample_losses(
    loss: Loss, features: np.ndarray, targets: np.ndarray, models: np.ndarray
) -> np.ndarray:
    """Per-sample losses ℓ(w_i, z_j^(i)) for models ``(m, d)``, data ``(m, n, d)``/``(m, n)``.

    Logistic losses use ``logaddexp`` so that large margins neither overflow nor lose digits.
    """
    if loss == "mean":
        return np.asarray(0.5 * np.sum((features - models[:, None, :]) ** 2, axis=2))
    margins = np.einsum("mnd,md->mn", features, models)
    if loss == "logistic":
        return np.asarray(np.logaddexp(0.0, -targets * margins))
    if loss == "squared":
        return np.asarray(0.5 * (margins - targets) ** 2)
    raise ParameterError(parameter="loss", value=loss, rule=f"one of {sorted(LOSSES)}")


def _mean_gradient(loss: str, X: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """(1/n) Σ_j ∇ℓ(w; x_j, y_j)."""
    if loss == "mean":
        return np.asarray(w - X.mean(axis=0))
    margins = X @ w
    if loss == "logistic":
        return np.asarray(-(y * expit(-y * margins)) @ X / X.shape[0])
    return np.asarray((margins - y) @ X / X.shape[0])


def _erm(loss: str, X: np.ndarray, y: np.ndarray, radius: float) -> np.ndarray:
    """argmin over ‖w‖ ≤ radius of the mean loss over the samples (X, y), exactly.

    Mean loss: the projected sample mean. Squared loss: least squares on the ball
    (:func:`_ball_least_squares`). Logistic loss: :func:`fedtheory.exact.logistic.logistic_erm`
    (raises :class:`~fedtheory.errors.SolverError` on separable data with an infinite radius).
    """
    if loss == "mean":
        mean = X.mean(axis=0)
        norm = float(np.linalg.norm(mean))
        return np.asarray(mean * (radius / norm) if norm > radius else mean)
    if loss == "squared":
        n = X.shape[0]
        return _ball_least_squares(X.T @ X / n, X.T @ y / n, radius)
    w, _ = logistic_erm(X, y, radius=radius)
    return np.asarray(w)


def _ball_least_squares(H: np.ndarray, g: np.ndarray, radius: float) -> np.ndarray:
    """argmin over ‖w‖ ≤ radius of ½wᵀHw − gᵀw for a PSD H (the minimum-norm one when several).

    The unconstrained minimum-norm minimiser H⁺g when it is feasible; otherwise w(ν) =
    (H + νI)⁻¹g on the sphere, with ν > 0 the root of ‖w(ν)‖ = radius (‖w(ν)‖ decreases in ν,
    and ‖w(ν)‖ ≤ ‖g‖/ν puts the root below ‖g‖/radius): the KKT conditions of the ball.
    """
    eigenvalues, vectors = np.linalg.eigh(0.5 * (H + H.T))
    eigenvalues = np.maximum(eigenvalues, 0.0)
    c = vectors.T @ g
    keep = eigenvalues > eigenvalues[-1] * H.shape[0] * np.finfo(float).eps
    free = np.where(keep, c / np.where(keep, eigenvalues, 1.0), 0.0)
    if float(np.linalg.norm(free)) <= radius:
        return np.asarray(vectors @ free)

    def excess(nu: float) -> float:
        with np.errstate(over="ignore"):  # inf: far outside, as it should read
            return float(np.linalg.norm(c / (eigenvalues + nu))) - radius

    top = float(np.linalg.norm(g)) / radius
    nu = optimize.brentq(
        excess, top * 1e-300 + 1e-300, top, xtol=1e-300, rtol=4 * np.finfo(float).eps
    )
    return np.asarray(vectors @ (c / (eigenvalues + nu)))
