"""Federated mean estimation and linear regression with exact risks and exact ERMs.

Generative models of Chen, Zheng, Long & Su, *Minimax Estimation for Personalized Federated
Learning* [1]_ (the reading guide's tier 3, §4, and GM-Q, §5.1). Every instance is a frozen
dataclass holding the samples of ``m`` clients (a
:class:`~fedtheory.problems.dataset.FederatedDataset`), the population optima w⋆^(i), the client
weights **p**, and the constants of Assumption A computed from the model. Each instance solves,
exactly, the three estimators the paper analyses:

- PureLocalTraining, ŵ^(i) = argmin_{w∈𝒲} L_i(w, S_i) (Chen et al., eq. (3));
- FedAvg as the minimiser of Σ_i p_i L_i(w, S_i) over 𝒲 (Chen et al., eq. (8));
- FedProx as the minimiser of Σ_i p_i [L_i(w^(i), S_i) + (λ/2)‖w^g − w^(i)‖²] (Chen et al.,
  eq. (20)).

Families
--------
:func:`quadratic_clients` (GM-Q)
    ℓ(w; z) = ½‖w − z‖², z = w⋆^(i) + ξ with ξ_k iid Uniform[−√3 s, √3 s] (variance s²). The
    excess risk is ½‖w − w⋆^(i)‖² exactly and every expected risk has a closed form
    (:mod:`fedtheory.papers.minimax.gmq_risks`; guide V1, V11).
:func:`outlier_clients` (guide V15)
    GM-Q with m − 1 clients sharing one optimum and one outlier of weight p_o.
:func:`linear_regression_clients` (guide §4 tier 3, V13)
    y = xᵀw⋆^(i) + ε with x ∼ N(0, Σ_i), client-specific Σ_i: heterogeneous Hessians.

The optima w⋆^(i) = w_0 + R u_i use "paired antipodal" unit directions u_i by default (see
:func:`quadratic_clients`), so that with equal weights w̄_**p** = w_0 and both heterogeneity
conditions B(a) (Σ p_i‖w⋆^(i) − w̄_**p**‖² ≤ R²) and B(b) (max_i ‖w⋆^(i) − w̄_**p**‖² ≤ R²) hold
with equality.

Projection
----------
𝒲 is the ball {‖w‖ ≤ ρ} with ρ = ``data.radius`` (``inf``: unconstrained). The generators
require ρ > ‖w_0‖ + (largest distance of an optimum from w_0), so that every population optimum
is interior, as the proofs of (9) and (10) silently need (guide §6.7). On GM-Q the projected
client (pooled) mean is the exact constrained local (global) ERM. The closed-form expected risks
are those of the *unconstrained* estimators: they apply to a replicate only when
:meth:`QuadraticClients.projection_active` reports no active projection (then all client means,
hence the pooled mean and every FedProx solution, are feasible and the constrained and
unconstrained estimators coincide). The linear-regression family is unconstrained only.

References
----------
.. [1] S. Chen, Q. Zheng, Q. Long & W. J. Su (2023), Minimax Estimation for Personalized
   Federated Learning: An Alternative between FedAvg and Local Training?, JMLR 24.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.minimax._client_model import (
    _SQRT3,
    Directions,
    SizesLike,
    WeightsLike,
    _check_center,
    _check_interior,
    _check_lambda,
    _check_radius,
    _ClientModel,
    _common,
    _directions,
    _fedprox_on_ball,
    _haar_stack,
    _project_rows,
    _resolve_weights,
)
from fedtheory.problems.dataset import FederatedDataset

__all__ = [
    "LinearRegressionClients",
    "OutlierClients",
    "QuadraticClients",
    "linear_regression_clients",
    "outlier_clients",
    "quadratic_clients",
]


@dataclass(frozen=True, eq=False)
class QuadraticClients(_ClientModel):
    """GM-Q: federated mean estimation, ℓ(w; z) = ½‖w − z‖² (guide §5.1, tier 3 of §4).

    Client i draws z = w⋆^(i) + ξ with ξ_k iid Uniform[−√3 s, √3 s], so 𝓡_i(w) =
    ½‖w − w⋆^(i)‖² + d s²/2 and every risk is available in closed form.

    Attributes
    ----------
    data : FederatedDataset
        The samples z_j^(i) as feature rows, loss ``"mean"``, radius ρ of 𝒲.
    optima : numpy.ndarray
        w⋆^(i), shape (m, d).
    weights : numpy.ndarray
        The client weights **p** (default n_i/N).
    R : float
        The construction radius: ‖w⋆^(i) − w_0‖ = R for every client that is not at w_0.
        With equal weights and antipodal directions w̄_**p** = w_0 and R² is the level of both
        B(a) and B(b); otherwise :meth:`heterogeneity` reports the actual levels.
    beta, mu : float
        ∇²ℓ(·; z) = I, so ℓ is β-smooth and every L_i μ-strongly convex with β = μ = 1.
    sigma2 : float
        E‖∇ℓ(w⋆^(i); Z)‖² = E‖ξ‖² = d s² (Assumption A(c); exact, the same for all clients).
    ell_inf : float
        sup of ℓ(w; z) over w ∈ 𝒲 and z in the support of any 𝒟_i (0 ≤ ℓ ≤ ‖ℓ‖∞, Assumption
        A(b)): ½ max_i (ρ + ``‖|w⋆^(i)| + √3 s·1‖``)², attained at the box corner z farthest from
        0 and w = −ρ z/‖z‖. ``inf`` when 𝒲 is unbounded.
    noise : float
        The per-coordinate noise standard deviation s.
    """

    def client_means(self) -> np.ndarray:
        """x̄_i = (1/n_i) Σ_j z_j^(i), shape (m, d) (the unconstrained local ERMs)."""
        return np.asarray(self.data.features.sum(axis=1) / self.data.counts[:, None])

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact 𝓡_i(w_i) − 𝓡_i(w⋆^(i)) = ½‖w_i − w⋆^(i)‖², shape (m,).

        ``models`` is one model (d,) shared by all clients or one per client (m, d).
        """
        return np.asarray(0.5 * np.sum((self._models(models) - self.optima) ** 2, axis=1))

    def local_erm(self) -> np.ndarray:
        """PureLocalTraining (Chen et al., eq. (3)): 𝒫_𝒲(x̄_i), the exact constrained ERMs.

        L_i(w) = ½‖w − x̄_i‖² + const, so its minimiser over the ball is the projection of x̄_i.
        """
        return _project_rows(self.client_means(), self.data.radius)

    def global_erm(self, weights: WeightsLike = None) -> np.ndarray:
        """FedAvg ERM (Chen et al., eq. (8)): 𝒫_𝒲(x̄_**p**), x̄_**p** = Σ p_i x̄_i, shape (d,).

        Σ_i p_i L_i(w) = ½‖w − x̄_**p**‖² + const, so the projection is the exact minimiser.
        """
        p = self._weights(weights)
        return _project_rows(p @ self.client_means(), self.data.radius)

    def fedprox_erm(self, lam: float, weights: WeightsLike = None) -> tuple[np.ndarray, np.ndarray]:
        """Exact minimiser (w̃^g, {w̃^(i)}) of the FedProx objective (Chen et al., eq. (20)).

        Without an active constraint: w̃^g = x̄_**p** and w̃^(i) = (x̄_i + λ x̄_**p**)/(1 + λ)
        = (1 − θ) x̄_i + θ x̄_**p**, θ = λ/(1 + λ) (module docstring). This is the constrained
        minimiser whenever it is feasible; otherwise (some client mean outside 𝒲) the problem
        is solved as min_{w^g∈𝒲} Σ p_i F_i(w^g) over the Moreau envelopes
        F_i(w) = θ/2‖w − x̄_i‖² + (1 + λ)/2 dist²((x̄_i + λw)/(1 + λ), 𝒲) (Chen et al., eq. (36))
        by a semismooth Newton method with a one-dimensional search for the multiplier of
        ‖w^g‖ ≤ ρ (exact to rounding), and w̃^(i) = 𝒫_𝒲((x̄_i + λ w̃^g)/(1 + λ)).

        A client with p_i = 0 does not enter (20); its model is set to the same prox of w̃^g
        (Stage II of Algorithm 2). ``lam = 0`` returns the local ERMs and w^g = Σ p_i ŵ^(i)
        (any w^g minimises (20) then); ``lam = inf`` returns the global ERM for everyone.

        Returns
        -------
        tuple
            (w̃^g of shape (d,), w̃^(i) of shape (m, d)).
        """
        lam = _check_lambda(lam)
        p = self._weights(weights)
        radius = self.data.radius
        if lam == 0.0:
            local = self.local_erm()
            return np.asarray(p @ local), local
        if math.isinf(lam):
            glob = self.global_erm(p)
            return glob, np.tile(glob, (self.m, 1))
        means = self.client_means()
        pool = p @ means
        local = (means + lam * pool) / (1.0 + lam)
        if math.isinf(radius) or (
            np.linalg.norm(pool) <= radius and np.linalg.norm(local, axis=1).max() <= radius
        ):
            return np.asarray(pool), np.asarray(local)
        glob = _fedprox_on_ball(means, p, lam, radius)
        return glob, _project_rows((means + lam * glob) / (1.0 + lam), radius)

    def projection_active(self, weights: WeightsLike = None) -> tuple[np.ndarray, bool]:
        """Whether the projection onto 𝒲 moved the ERMs of this replicate.

        Returns
        -------
        tuple
            (``(m,)`` bool: ‖x̄_i‖ > ρ, i.e. the local ERM was projected; bool: ‖x̄_**p**‖ > ρ,
            i.e. the global ERM was projected). When no client flag is set, every client mean
            lies in 𝒲, hence so do x̄_**p** and every FedProx solution: all ERMs equal their
            unconstrained closed forms and the ``gmq_expected_risk_*`` formulas describe them.
        """
        p = self._weights(weights)
        means = self.client_means()
        radius = self.data.radius
        local = np.linalg.norm(means, axis=1) > radius
        return local, bool(np.linalg.norm(p @ means) > radius)


@dataclass(frozen=True, eq=False)
class OutlierClients(QuadraticClients):
    """GM-Q with one outlier client (guide V15, the AER/IER remark after Chen et al., Def. 2).

    Attributes
    ----------
    outlier : int
        Index of the outlier client (m − 1).
    outlier_weight : float
        Its weight p_o.
    distance : float
        Δ = R/√(p_o(1 − p_o)), its distance from the shared optimum of the others.
    """

    outlier: int
    outlier_weight: float
    distance: float


@dataclass(frozen=True, eq=False)
class LinearRegressionClients(_ClientModel):
    """Linear regression with heterogeneous Hessians (guide §4 tier 3, V13).

    Client i draws x ∼ N(0, Σ_i) and y = xᵀw⋆^(i) + ε, ε ∼ N(0, s²); ℓ(w; x, y) = ½(xᵀw − y)²
    (loss ``"squared"``). Then 𝓡_i(w) = ½(w − w⋆^(i))ᵀΣ_i(w − w⋆^(i)) + s²/2 exactly.

    Attributes
    ----------
    covariances : numpy.ndarray
        Σ_i = E[xxᵀ], the population Hessians, shape (m, d, d).
    beta, mu : float
        The extreme eigenvalues of the population Hessians over all clients, computed with
        :func:`numpy.linalg.eigvalsh`: each 𝓡_i is β-smooth and μ-strongly convex. These are
        population constants: with Gaussian features the per-sample Hessian xxᵀ is unbounded
        and L_i(·, S_i) is only strongly convex w.h.p., so Assumption A(b) holds in this
        population sense, not almost surely.
    sigma2 : float
        max_i E‖∇ℓ(w⋆^(i); x, y)‖² = max_i E[ε²]E‖x‖² = s² max_i tr Σ_i (exact).
    ell_inf : float
        ``inf`` (Gaussian data: the loss is unbounded).
    noise : float
        The response-noise standard deviation s.
    """

    covariances: np.ndarray

    def moments(self) -> tuple[np.ndarray, np.ndarray]:
        """H_i = X_iᵀX_i/n_i (m, d, d) and b_i = X_iᵀy_i/n_i (m, d): L_i = ½wᵀH_iw − b_iᵀw + c."""
        x, y, n = self.data.features, self.data.targets, self.data.counts
        hessians = np.einsum("mnd,mne->mde", x, x) / n[:, None, None]
        return hessians, np.einsum("mnd,mn->md", x, y) / n[:, None]

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact 𝓡_i(w_i) − 𝓡_i(w⋆^(i)) = ½(w_i − w⋆^(i))ᵀΣ_i(w_i − w⋆^(i)), shape (m,)."""
        gap = self._models(models) - self.optima
        return np.asarray(0.5 * np.einsum("md,mde,me->m", gap, self.covariances, gap))

    def local_erm(self) -> np.ndarray:
        """PureLocalTraining: the least-squares solutions ŵ^(i) = H_i⁻¹ b_i, shape (m, d)."""
        hessians, b = self.moments()
        return np.asarray(np.linalg.solve(hessians, b[..., None])[..., 0])

    def global_erm(self, weights: WeightsLike = None) -> np.ndarray:
        """FedAvg ERM (Chen et al., eq. (8)): the solution of (Σ p_i H_i) w = Σ p_i b_i."""
        p = self._weights(weights)
        hessians, b = self.moments()
        return np.asarray(np.linalg.solve(np.einsum("m,mde->de", p, hessians), p @ b))

    def fedprox_erm(self, lam: float, weights: WeightsLike = None) -> tuple[np.ndarray, np.ndarray]:
        """Exact minimiser of the FedProx objective (Chen et al., eq. (20)), unconstrained.

        Given w^g, the w^(i)-block is minimised by w^(i) = M_i(b_i + λ w^g) with
        M_i = (H_i + λI)⁻¹. Stationarity in w^g, λ Σ p_i (w^g − w^(i)) = 0, and
        I − λM_i = M_iH_i give the d × d system

            (Σ_i p_i M_i H_i) w^g = Σ_i p_i M_i b_i,

        solved in the eigenbases of the H_i after scaling both sides by (1 + λ), which keeps
        them O(1) from λ → 0 (Σ p_i ŵ^(i)) to λ → ∞ (the global ERM). Weightless clients get
        w^(i) = M_i(b_i + λ w̃^g). ``lam = 0`` and ``lam = inf`` return the limits exactly.

        Returns
        -------
        tuple
            (w̃^g of shape (d,), w̃^(i) of shape (m, d)).
        """
        lam = _check_lambda(lam)
        p = self._weights(weights)
        if lam == 0.0:
            local = self.local_erm()
            return np.asarray(p @ local), local
        if math.isinf(lam):
            glob = self.global_erm(p)
            return glob, np.tile(glob, (self.m, 1))
        hessians, b = self.moments()
        h, v = np.linalg.eigh(hessians)
        shrink = (1.0 + lam) / (h + lam)  # (1 + λ)·eigenvalues of M_i
        b_eig = np.einsum("mdk,md->mk", v, b)
        matrix = np.einsum("m,mdk,mk,mek->de", p, v, h * shrink, v)
        rhs = np.einsum("m,mdk,mk->d", p, v, shrink * b_eig)
        glob = np.linalg.solve(0.5 * (matrix + matrix.T), rhs)
        local = np.einsum(
            "mdk,mk->md", v, (b_eig + lam * np.einsum("mdk,d->mk", v, glob)) / (h + lam)
        )
        return np.asarray(glob), np.asarray(local)

    def projection_active(self, weights: WeightsLike = None) -> tuple[np.ndarray, bool]:
        """Never active: this family is unconstrained (same signature as GM-Q's)."""
        self._weights(weights)
        return np.zeros(self.m, dtype=bool), False


def _gmq_instance(
    cls: type[QuadraticClients],
    optima: np.ndarray,
    counts: np.ndarray,
    weights: np.ndarray,
    R: float,
    noise: float,
    radius: float,
    rng: np.random.Generator,
    **extra: Any,
) -> Any:
    """Draw the GM-Q samples around ``optima`` and compute the constants."""
    m, d = optima.shape
    n_max = int(counts.max())
    half_width = _SQRT3 * noise
    features = optima[:, None, :] + rng.uniform(-half_width, half_width, size=(m, n_max, d))
    features[np.arange(n_max)[None, :] >= counts[:, None]] = 0.0
    data = FederatedDataset(features, np.zeros((m, n_max)), counts, "mean", radius)
    if math.isinf(radius):
        ell_inf = math.inf
    else:
        farthest = np.linalg.norm(np.abs(optima) + half_width, axis=1).max()
        ell_inf = 0.5 * (radius + float(farthest)) ** 2
    return cls(
        data=data,
        optima=readonly(optima),
        weights=readonly(weights),
        R=R,
        beta=1.0,
        mu=1.0,
        sigma2=d * noise**2,
        ell_inf=ell_inf,
        noise=noise,
        **extra,
    )


def quadratic_clients(
    m: int,
    n: SizesLike,
    d: int,
    R: float,
    noise: float,
    seed: Seed,
    *,
    weights: WeightsLike = None,
    center: Any = None,
    radius: float = math.inf,
    directions: Directions = "antipodal",
) -> QuadraticClients:
    """GM-Q, federated mean estimation with bounded noise (guide §5.1, V1).

    Client i has optimum w⋆^(i) = w_0 + R u_i and samples z = w⋆^(i) + ξ, ξ_k iid
    Uniform[−√3 s, √3 s] (per-coordinate variance s², s = ``noise``); ℓ(w; z) = ½‖w − z‖².

    Directions ``"antipodal"`` (default, "paired antipodal"): u_{2k−1} = g_k, u_{2k} = −g_k with
    g_k uniform on the sphere. For odd m ≥ 3 and d ≥ 2 the last three clients instead get three
    unit vectors at 120° in a uniformly random plane, so that still ‖u_i‖ = 1 and Σ u_i = 0:
    with equal weights, w̄_**p** = w_0 and B(a) and B(b) both hold with equality at R. For odd
    m with d = 1 (or m = 1) no such unit vectors exist; the last client sits at w_0 (u_m = 0),
    which keeps Σ u_i = 0 and B(b) tight, while B(a) = (1 − 1/m) R². Directions ``"random"``:
    independent uniform unit vectors.

    With non-uniform weights the pairing does not centre w̄_**p** on w_0: R is then the
    construction radius and :meth:`~QuadraticClients.heterogeneity` reports the actual B(a)
    and B(b) levels around w̄_**p** = Σ p_i w⋆^(i) (:attr:`~QuadraticClients.center`).

    Random draws, in order, from ``numpy.random.default_rng(seed)``: the directions, then the
    noise array of shape (m, max n_i, d) (rows beyond n_i are drawn and zeroed).

    Parameters
    ----------
    m
        Number of clients, at least 1.
    n
        Local sample size (int, balanced) or one size per client (imbalanced, V16), each ≥ 1.
    d
        Dimension, at least 1.
    R
        Construction radius, ≥ 0.
    noise
        Noise scale s > 0.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    weights
        Client weights **p** stored on the instance: ``None``/``"sample"`` (n_i/N), ``"fair"``
        (1/m) or an array on the simplex.
    center
        w_0, shape (d,) (default 0).
    radius
        Radius ρ of 𝒲 = {‖w‖ ≤ ρ}; ``inf`` (default) for no constraint. Must exceed ‖w_0‖ + R.

    Returns
    -------
    QuadraticClients

    Raises
    ------
    ParameterError
        On any invalid argument (the message names it).

    Examples
    --------
    >>> inst = quadratic_clients(4, 10, 3, 0.5, 1.0, seed=0, weights="fair")
    >>> [round(level, 12) for level in inst.heterogeneity()]
    [0.25, 0.25]
    >>> inst.local_erm().shape, inst.global_erm().shape
    ((4, 3), (3,))
    """
    m, counts, d, R, noise = _common(m, n, d, R, noise)
    radius = _check_radius(radius)
    w0 = _check_center(center, d)
    p = _resolve_weights(weights, counts, None)
    if directions not in ("antipodal", "random"):
        raise ParameterError(
            parameter="directions", value=directions, rule="must be 'antipodal' or 'random'"
        )
    _check_interior(radius, w0, R)
    rng = generator(seed)
    optima = w0 + R * _directions(m, d, directions, rng)
    result: QuadraticClients = _gmq_instance(
        QuadraticClients, optima, counts, p, R, noise, radius, rng
    )
    return result


def outlier_clients(
    m: int,
    n: SizesLike,
    d: int,
    R: float,
    noise: float,
    outlier_weight: float,
    seed: Seed,
    *,
    center: Any = None,
    radius: float = math.inf,
) -> OutlierClients:
    """GM-Q with m − 1 clients at one optimum and one outlier (guide V15).

    Client m − 1 is the outlier, with weight p_o = ``outlier_weight``; the others share
    1 − p_o equally (whatever the sample sizes: choose n so that n_o/N = p_o for
    sample-proportional weights). Along a uniformly random unit vector e,

        w⋆^(i) = w_0 − p_o Δ e (i < m − 1),   w⋆^(m−1) = w_0 + (1 − p_o) Δ e,
        Δ = R/√(p_o(1 − p_o)),

    so w̄_**p** = w_0 exactly, B(a) = p_o(1 − p_o)Δ² = R² holds with equality, and the outlier
    sits at (1 − p_o)Δ = R√((1 − p_o)/p_o) from w̄_**p**. For FedAvg the heterogeneity parts of
    the risks are IER_o = ½(1 − p_o)²Δ² and AER = ½R², whose ratio is (1 − p_o)/p_o: an AER
    bound does not control the IER.

    Random draws: e, then the noise (as :func:`quadratic_clients`).

    Parameters
    ----------
    m
        Number of clients, at least 2.
    n, d, R, noise, seed, center, radius
        As in :func:`quadratic_clients`; ρ must exceed ‖w_0‖ + max(p_o, 1 − p_o)Δ.
    outlier_weight
        p_o, in (0, 1).

    Returns
    -------
    OutlierClients
    """
    m = check_int("m", m, minimum=2)
    m, counts, d, R, noise = _common(m, n, d, R, noise)
    p_o = check_real("outlier_weight", outlier_weight, positive=True, below=1.0)
    radius = _check_radius(radius)
    w0 = _check_center(center, d)
    distance = R / math.sqrt(p_o * (1.0 - p_o))
    _check_interior(radius, w0, max(p_o, 1.0 - p_o) * distance)
    p = np.full(m, (1.0 - p_o) / (m - 1))
    p[-1] = p_o
    rng = generator(seed)
    e = _directions(1, d, "random", rng)[0]
    optima = np.tile(w0 - p_o * distance * e, (m, 1))
    optima[-1] = w0 + (1.0 - p_o) * distance * e
    result: OutlierClients = _gmq_instance(
        OutlierClients,
        optima,
        counts,
        p,
        R,
        noise,
        radius,
        rng,
        outlier=m - 1,
        outlier_weight=p_o,
        distance=distance,
    )
    return result


def linear_regression_clients(
    m: int,
    n: SizesLike,
    d: int,
    R: float,
    noise: float,
    seed: Seed,
    *,
    spread: float = 10.0,
    weights: WeightsLike = None,
    center: Any = None,
    radius: float = math.inf,
    directions: Directions = "antipodal",
) -> LinearRegressionClients:
    """Linear regression with client-specific feature covariances (guide §4 tier 3, V13).

    Client i draws x ∼ N(0, Σ_i) and y = xᵀw⋆^(i) + ε with ε ∼ N(0, s²); ℓ = ½(xᵀw − y)².
    The optima are built exactly as in :func:`quadratic_clients`. For d ≥ 2,
    Σ_i = Q_i diag(λ) Q_iᵀ with one spectrum λ_k = spread^{t_k}, t_k evenly spaced in
    [−½, ½] (condition number ``spread`` in every client), and independent Haar rotations Q_i:
    the population Hessians differ across clients (which drives FedAvg's client drift, V13).
    For d = 1 client i has the variance spread^{t_i}, t_i evenly spaced in [−½, ½] over the
    clients. ``spread = 1`` gives Σ_i = I. β and μ are the computed extreme eigenvalues over
    clients (population constants; see :class:`LinearRegressionClients`).

    Random draws, in order: the directions, the m Haar matrices (d ≥ 2), the standard normal
    features (m, max n_i, d), the response noise (m, max n_i).

    Parameters
    ----------
    m, d, R, noise, seed, weights, center, directions
        As in :func:`quadratic_clients` (noise = standard deviation s of ε).
    n
        Local sample size(s), each at least d, so that every local least-squares problem has
        a unique solution almost surely.
    spread
        Condition number of each Σ_i (d ≥ 2) or ratio of the largest to the smallest client
        variance (d = 1), at least 1.
    radius
        Must be ``inf``: the ERMs of this family are unconstrained.

    Returns
    -------
    LinearRegressionClients
    """
    m = check_int("m", m, minimum=1)
    d = check_int("d", d, minimum=1)
    m, counts, d, R, noise = _common(m, n, d, R, noise, min_n=d)
    spread = check_real("spread", spread, positive=True)
    if spread < 1.0:
        raise ParameterError(parameter="spread", value=spread, rule="must be at least 1")
    radius = _check_radius(radius)
    if not math.isinf(radius):
        raise ParameterError(
            parameter="radius",
            value=radius,
            rule="must be inf: the linear-regression family has no constrained ERMs",
        )
    w0 = _check_center(center, d)
    p = _resolve_weights(weights, counts, None)
    rng = generator(seed)
    optima = w0 + R * _directions(m, d, directions, rng)
    if d == 1:
        variances = spread ** np.linspace(-0.5, 0.5, m) if m > 1 else np.ones(1)
        factors = np.sqrt(variances)[:, None, None]
    else:
        spectrum = spread ** np.linspace(-0.5, 0.5, d)
        rotations = _haar_stack(m, d, rng)
        factors = rotations * np.sqrt(spectrum)  # A_i = Q_i diag(√λ), Σ_i = A_i A_iᵀ
    covariances = factors @ np.swapaxes(factors, 1, 2)
    covariances = 0.5 * (covariances + np.swapaxes(covariances, 1, 2))
    n_max = int(counts.max())
    features = np.einsum("mnk,mdk->mnd", rng.standard_normal((m, n_max, d)), factors)
    targets = np.einsum("mnd,md->mn", features, optima) + noise * rng.standard_normal((m, n_max))
    padding = np.arange(n_max)[None, :] >= counts[:, None]
    features[padding] = 0.0
    targets[padding] = 0.0
    eigenvalues = np.linalg.eigvalsh(covariances)
    return LinearRegressionClients(
        data=FederatedDataset(features, targets, counts, "squared", radius),
        optima=readonly(optima),
        weights=readonly(p),
        R=R,
        beta=float(eigenvalues.max()),
        mu=float(eigenvalues.min()),
        sigma2=float(noise**2 * np.trace(covariances, axis1=1, axis2=2).max()),
        ell_inf=math.inf,
        noise=noise,
        covariances=readonly(covariances),
    )
