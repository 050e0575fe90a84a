"""Lipschitz latent models for FFGB.L (reading guide §2.4, §3.6, checks B3, C9, C10, D2, D3).

Client i holds M points x_{i,j} with labels y_{i,j} (problem (14), square loss). The data of the
checks are *translated supports*: x_{i,j} = z_j + δ_i with z_j ~ U[0, 1]^dim shared and
δ_i = i·δ·e₁, so every client sees the same cloud shifted (TV(α, α_i) = 1 − 1/N for δ > 0, but
W1(α, α_i) ∝ δ: guide (P6)), labelled by a latent function of the first coordinate direction:

- ``beta = 1``, ``noise = 0``: u(x) = B·sin(L⟨x, e⟩/B), L-Lipschitz and B-bounded, with
  e = e₁ in 1-D and (1, 1)/√2 in 2-D — the noiseless (16) of Theorem 3.3;
- the stress models of C10: u_β(x) = B·sign(s)|s|^β with s = sin(L⟨x, e⟩/B) (Hölder-β, not
  Lipschitz for β < 1), and Gaussian label noise y = u(x) + σε.

FFGB.L works with the McShane extension (17), u_i(x) = min_j (y_{i,j} + L′‖x − x_{i,j}‖), the
largest L′-Lipschitz function interpolating client i's data when the labels are L′-Lipschitz.
Its constant L′ (:attr:`LipschitzData.extension_lipschitz`) is the model's L for the noiseless
model and the pooled data's L_data for the stress models (so that 0 ≤ u_i(x) − y(x) ≤
2·L_data·dist(x, supp α_i) at every data point: guide C10).

Functions live on the evaluation points U: the union of the clients' points (exact duplicates
merged, so δ = 0 gives one shared cloud) followed by an optional grid. α_i is the empirical
measure of client i on U (1/M per point; 0 on the grid), α = (1/N) Σ α_i.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._norms import lipschitz_pairs
from fedtheory.papers.ffgb.distances import (
    average_pairwise_w2_squared,
    omega_tv,
    omega_w1,
)

__all__ = [
    "LipschitzData",
    "LipschitzView",
    "covering_distance",
    "data_lipschitz",
    "mcshane_extension",
    "translated_supports",
]


# ============================================================================== geometry


def mcshane_extension(
    points: np.ndarray, labels: np.ndarray, lipschitz: float, at: np.ndarray
) -> np.ndarray:
    """The McShane extension (17): u(x) = min_j (y_j + L‖x − x_j‖) at the rows of ``at``.

    Parameters
    ----------
    points
        ``(M, dim)`` the data points x_j.
    labels
        ``(M,)`` y_j.
    lipschitz
        L ≥ 0.
    at
        ``(Q, dim)`` evaluation points.

    Examples
    --------
    >>> mcshane_extension(np.array([[0.0], [1.0]]), np.array([0.0, 0.5]), 1.0,
    ...                   np.array([[0.0], [0.5], [2.0]])).tolist()
    [0.0, 0.5, 1.5]
    """
    lipschitz = check_real("lipschitz", lipschitz, nonnegative=True)
    points = np.asarray(points, dtype=np.float64)
    at = np.asarray(at, dtype=np.float64)
    distances = np.sqrt(((at[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    return np.asarray(np.min(np.asarray(labels)[None, :] + lipschitz * distances, axis=1))


def covering_distance(clouds: list[np.ndarray]) -> float:
    """D of Assumption 3.3: the least D such that every point of every client has a point of
    every other client within D (max over ordered pairs of the directed Hausdorff distance)."""
    top = 0.0
    for a in clouds:
        for b in clouds:
            distances = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2))
            top = max(top, float(distances.min(axis=1).max()))
    return top


def data_lipschitz(points: np.ndarray, labels: np.ndarray) -> float:
    """L_data: the largest slope ``|y − y′|``/‖x − x′‖ over the pooled data (guide C10).

    Pairs at one point with different labels give inf; with equal labels they are skipped.
    In one dimension the largest slope is attained by neighbours in sorted order.
    """
    points = np.asarray(points, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.float64)
    if points.shape[0] < 2:
        return 0.0
    if points.shape[1] == 1:
        order = np.lexsort((labels, points[:, 0]))
        x = points[order, 0]
        y = labels[order]
        gaps = np.diff(x)
        rises = np.abs(np.diff(y))
        same = gaps == 0.0
        if np.any(same & (rises > 0.0)):
            return math.inf
        return float(np.max(rises[~same] / gaps[~same], initial=0.0))
    top = 0.0
    for start in range(0, points.shape[0], 512):
        block = points[start : start + 512]
        distances = np.sqrt(((block[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
        rises = np.abs(labels[start : start + 512, None] - labels[None, :])
        if np.any((distances == 0.0) & (rises > 0.0)):
            return math.inf
        with np.errstate(divide="ignore", invalid="ignore"):
            slopes = np.where(distances > 0.0, rises / distances, 0.0)
        top = max(top, float(slopes.max()))
    return top


# ============================================================================== kernel view


@njit
def _marginal(view: LipschitzView, i: int) -> np.ndarray:
    row: np.ndarray = view.alpha[i]
    return row


@njit
def _target(view: LipschitzView, i: int) -> np.ndarray:
    row: np.ndarray = view.targets[i]
    return row


class _LipschitzViewFields(NamedTuple):
    alpha: np.ndarray
    targets: np.ndarray
    pairs: np.ndarray
    pair_weights: np.ndarray


class LipschitzView(_LipschitzViewFields):
    """A :class:`LipschitzData` as FFGB.L's kernels read it.

    Attributes
    ----------
    alpha : numpy.ndarray
        ``(N, P)`` α_i on the evaluation points.
    targets : numpy.ndarray
        ``(N, P)`` the McShane extensions u_i there.
    pairs, pair_weights : numpy.ndarray
        The point pairs whose slopes give the Lipschitz constant (sorted neighbours in one
        dimension, all pairs otherwise) and 1/‖x − y‖² for each.
    """

    __slots__ = ()

    client_marginal = _marginal
    client_target = _target


# ============================================================================== the data


@dataclass(frozen=True, eq=False)
class LipschitzData:
    """N clients' labelled points for FFGB.L, with the evaluation points and u_i on them.

    Parameters
    ----------
    client_points
        ``(N, M, dim)`` x_{i,j}.
    client_labels
        ``(N, M)`` y_{i,j}.
    lipschitz
        L, the latent model's Lipschitz constant (the L of (16) and of Theorem 3.3).
    extension_lipschitz
        L′ of the McShane extensions (default: L when the data satisfy (16) with L, else
        the pooled L_data).
    grid
        ``(Q, dim)`` extra evaluation points (no client mass), e.g. for Lipschitz checks.
    description
        The latent model, for reports.

    Attributes
    ----------
    points : numpy.ndarray
        ``(P, dim)`` U (merged client points) followed by the grid.
    alpha : numpy.ndarray
        ``(N, P)`` α_i.
    targets : numpy.ndarray
        ``(N, P)`` u_i on U.
    optimum : numpy.ndarray
        ``(P,)`` the pointwise label mean on supp α (0 on the grid): the minimiser of (14)
        when it is L/γ-Lipschitz, as for noiseless L-Lipschitz labels.
    """

    client_points: np.ndarray
    client_labels: np.ndarray
    lipschitz: float
    extension_lipschitz: float | None = None
    grid: np.ndarray | None = None
    description: str = "custom"

    def __post_init__(self) -> None:
        points = np.array(self.client_points, dtype=np.float64)
        if points.ndim == 2:
            points = points[:, :, None]
        if points.ndim != 3 or min(points.shape) < 1:
            raise ParameterError(
                parameter="client_points",
                value=f"array of shape {np.shape(self.client_points)}",
                rule="must have shape (N, M, dim) (or (N, M) in one dimension)",
            )
        labels = np.array(self.client_labels, dtype=np.float64)
        if labels.shape != points.shape[:2]:
            raise ParameterError(
                parameter="client_labels",
                value=f"array of shape {labels.shape}",
                rule=f"must have shape {points.shape[:2]}: one label per point",
            )
        if not (np.all(np.isfinite(points)) and np.all(np.isfinite(labels))):
            raise ParameterError(
                parameter="client_points", value="entries", rule="points and labels must be finite"
            )
        lipschitz = check_real("lipschitz", self.lipschitz, positive=True)
        grid = np.zeros((0, points.shape[2])) if self.grid is None else np.array(self.grid, float)
        if grid.ndim == 1:
            grid = grid[:, None]
        if grid.ndim != 2 or grid.shape[1] != points.shape[2] or not np.all(np.isfinite(grid)):
            raise ParameterError(
                parameter="grid",
                value=f"array of shape {grid.shape}",
                rule=f"must have shape (Q, {points.shape[2]}) with finite entries",
            )
        object.__setattr__(self, "client_points", readonly(points))
        object.__setattr__(self, "client_labels", readonly(labels))
        object.__setattr__(self, "lipschitz", lipschitz)
        object.__setattr__(self, "grid", readonly(grid))
        if self.extension_lipschitz is None:
            extension = lipschitz if self.data_lipschitz <= lipschitz else self.data_lipschitz
        else:
            extension = check_real("extension_lipschitz", self.extension_lipschitz, positive=True)
        if not math.isfinite(extension):
            raise ParameterError(
                parameter="extension_lipschitz",
                value=extension,
                rule="the data have two labels at one point: no Lipschitz extension exists",
            )
        object.__setattr__(self, "extension_lipschitz", extension)

    # ---------------------------------------------------------------- layout

    @property
    def num_clients(self) -> int:
        """N."""
        return int(self.client_points.shape[0])

    @property
    def points_per_client(self) -> int:
        """M."""
        return int(self.client_points.shape[1])

    @property
    def input_dimension(self) -> int:
        """dim."""
        return int(self.client_points.shape[2])

    @functools.cached_property
    def _union(self) -> tuple[np.ndarray, np.ndarray]:
        """The merged client points and, per client point, its index among them."""
        flat = self.client_points.reshape(-1, self.input_dimension)
        unique, inverse = np.unique(flat, axis=0, return_inverse=True)
        return unique, inverse.reshape(self.num_clients, self.points_per_client)

    @functools.cached_property
    def points(self) -> np.ndarray:
        """``(P, dim)``: U then the grid."""
        return readonly(np.concatenate([self._union[0], self.grid], axis=0))

    @property
    def num_points(self) -> int:
        """P."""
        return int(self.points.shape[0])

    @functools.cached_property
    def alpha(self) -> np.ndarray:
        """``(N, P)``: α_i, 1/M on each of client i's points (summed where they repeat)."""
        alpha = np.zeros((self.num_clients, self.num_points))
        index = self._union[1]
        for i in range(self.num_clients):
            np.add.at(alpha[i], index[i], 1.0 / self.points_per_client)
        return readonly(alpha)

    @functools.cached_property
    def marginal(self) -> np.ndarray:
        """α = (1/N) Σ α_i."""
        return readonly(self.alpha.mean(axis=0))

    @functools.cached_property
    def targets(self) -> np.ndarray:
        """``(N, P)``: the McShane extensions u_i (17) with constant L′ on the points."""
        return readonly(
            np.array(
                [
                    mcshane_extension(
                        self.client_points[i],
                        self.client_labels[i],
                        float(self.extension_lipschitz),  # type: ignore[arg-type]
                        self.points,
                    )
                    for i in range(self.num_clients)
                ]
            )
        )

    @functools.cached_property
    def optimum(self) -> np.ndarray:
        """``(P,)``: the mean label at every point of supp α (0 elsewhere)."""
        totals = np.zeros(self.num_points)
        counts = np.zeros(self.num_points)
        index = self._union[1]
        np.add.at(totals, index.reshape(-1), self.client_labels.reshape(-1))
        np.add.at(counts, index.reshape(-1), 1.0)
        seen = counts > 0
        totals[seen] /= counts[seen]
        return readonly(totals)

    def error(self, f: Any) -> np.ndarray | float:
        """‖f − f*‖²_α (leading axes kept)."""
        f = np.asarray(f, dtype=np.float64)
        if f.shape[-1:] != (self.num_points,):
            raise ParameterError(
                parameter="f",
                value=f"array of shape {f.shape}",
                rule=f"must have shape (..., {self.num_points}): values on the points",
            )
        out = (f - self.optimum) ** 2 @ self.marginal
        return float(out) if np.ndim(out) == 0 else np.asarray(out)

    # ---------------------------------------------------------------- constants

    @functools.cached_property
    def data_lipschitz(self) -> float:
        """L_data over the pooled data of all clients (guide C10)."""
        return data_lipschitz(
            self.client_points.reshape(-1, self.input_dimension), self.client_labels.reshape(-1)
        )

    @functools.cached_property
    def label_bound(self) -> float:
        """B = max ``|y_{i,j}|`` (Assumption 3.3)."""
        return float(np.max(np.abs(self.client_labels)))

    @functools.cached_property
    def covering_distance(self) -> float:
        """D of Assumption 3.3."""
        return covering_distance(list(self.client_points))

    @functools.cached_property
    def omega_w1(self) -> float:
        """ω_W1 = (1/N) Σ W1(α, α_i), exact (1-D: CDF formula; else an exact LP)."""
        return omega_w1(self.points, self.alpha)

    @functools.cached_property
    def omega_tv(self) -> float:
        """ω_TV = (1/N) Σ TV(α, α_i) (1 − 1/N for disjoint supports)."""
        return omega_tv(self.alpha)

    @functools.cached_property
    def w2_squared(self) -> float:
        """(1/N²) Σ_{i,s} W2²(α_s, α_i), the transient constant of Theorem 3.3."""
        return average_pairwise_w2_squared(self.points, self.alpha)

    def distance_to_support(self, i: int) -> np.ndarray:
        """dist(x, supp α_i) at every evaluation point."""
        i = check_int("client", i, minimum=0)
        if i >= self.num_clients:
            raise ParameterError(
                parameter="client", value=i, rule=f"must be below N = {self.num_clients}"
            )
        cloud = self.client_points[i]
        distances = np.sqrt(((self.points[:, None, :] - cloud[None, :, :]) ** 2).sum(axis=2))
        return np.asarray(distances.min(axis=1))

    def kernel_view(self) -> LipschitzView:
        """The data as FFGB.L's kernels read them (:class:`LipschitzView`)."""
        pairs, weights = lipschitz_pairs(self.points)
        return LipschitzView(
            alpha=kernel_array(self.alpha),
            targets=kernel_array(self.targets),
            pairs=kernel_array(pairs, np.int64),
            pair_weights=kernel_array(weights),
        )


# ============================================================================== constructors


def _latent(x: np.ndarray, lipschitz: float, bound: float, beta: float) -> np.ndarray:
    dim = x.shape[-1]
    direction = np.ones(dim) / math.sqrt(dim) if dim > 1 else np.ones(1)
    s = np.sin(lipschitz * (x @ direction) / bound)
    return np.asarray(bound * np.sign(s) * np.abs(s) ** beta)


def translated_supports(
    *,
    num_clients: int = 5,
    points_per_client: int = 30,
    delta: float = 0.1,
    lipschitz: float = 2.0,
    label_bound: float = 1.0,
    dim: int = 1,
    beta: float = 1.0,
    noise: float = 0.0,
    grid: int = 0,
    extension_lipschitz: float | None = None,
    seed: Seed,
) -> LipschitzData:
    """Translated supports x_{i,j} = z_j + i·δ·e₁ with latent labels (guide §3.6, C9, C10).

    Parameters
    ----------
    num_clients, points_per_client
        N ≥ 1 and M ≥ 1.
    delta
        δ ≥ 0 (0: every client holds the same points).
    lipschitz, label_bound
        L > 0 and B > 0 of the latent u(x) = B·sin(L⟨x, e⟩/B).
    dim
        1 or 2.
    beta
        Hölder exponent in (0, 1] of u_β = B·sign(s)|s|^β (1: the Lipschitz model).
    noise
        Standard deviation σ ≥ 0 of Gaussian label noise.
    grid
        Number of extra evaluation points per axis on [0, 1 + (N − 1)δ] (0: none).
    extension_lipschitz
        L′ of the McShane extensions (default: L if the data satisfy (16) with L, else
        L_data).
    seed
        Integer or SeedSequence (z_j, then the noise).

    Examples
    --------
    >>> data = translated_supports(num_clients=3, points_per_client=4, delta=0.0, seed=0)
    >>> data.num_points, data.omega_w1, data.covering_distance
    (4, 0.0, 0.0)
    """
    num_clients = check_int("num_clients", num_clients, minimum=1)
    points_per_client = check_int("points_per_client", points_per_client, minimum=1)
    delta = check_real("delta", delta, nonnegative=True)
    lipschitz = check_real("lipschitz", lipschitz, positive=True)
    label_bound = check_real("label_bound", label_bound, positive=True)
    dim = check_int("dim", dim, minimum=1)
    if dim > 2:
        raise ParameterError(parameter="dim", value=dim, rule="must be 1 or 2")
    beta = check_real("beta", beta, positive=True)
    if beta > 1.0:
        raise ParameterError(parameter="beta", value=beta, rule="must be in (0, 1]")
    noise = check_real("noise", noise, nonnegative=True)
    grid = check_int("grid", grid, minimum=0)
    rng = generator(seed)
    z = rng.uniform(0.0, 1.0, size=(points_per_client, dim))
    shifts = np.zeros((num_clients, dim))
    shifts[:, 0] = delta * np.arange(num_clients)
    points = z[None, :, :] + shifts[:, None, :]
    labels = _latent(points, lipschitz, label_bound, beta)
    if noise > 0.0:
        labels = labels + noise * rng.standard_normal(labels.shape)
    extra = None
    if grid:
        axis = np.linspace(0.0, 1.0 + (num_clients - 1) * delta, grid)
        extra = (
            axis[:, None]
            if dim == 1
            else np.stack(np.meshgrid(axis, axis, indexing="ij"), axis=-1).reshape(-1, 2)
        )
    kind = "sine" if beta == 1.0 else f"holder-{beta:g}"
    return LipschitzData(
        points,
        labels,
        lipschitz,
        extension_lipschitz=extension_lipschitz,
        grid=extra,
        description=f"{kind}, noise {noise:g}, delta {delta:g}, dim {dim}",
    )
