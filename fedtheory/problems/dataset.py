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
from typing import Literal, TypeAlias

import numpy as np

from fedtheory.errors import ParameterError

__all__ = ["LOSSES", "FederatedDataset", "Loss", "sample_losses"]

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
        return self.counts / self.counts.sum()

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
        return np.where(mask, losses, 0.0).sum(axis=1) / self.counts

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
        return 0.5 * np.sum((features - models[:, None, :]) ** 2, axis=2)
    margins = np.einsum("mnd,md->mn", features, models)
    if loss == "logistic":
        return np.logaddexp(0.0, -targets * margins)
    if loss == "squared":
        return 0.5 * (margins - targets) ** 2
    raise ParameterError(parameter="loss", value=loss, rule=f"one of {sorted(LOSSES)}")
