"""GM-L and GM-P: logistic clients with Rademacher features and exact population quantities.

:func:`logistic_clients` (GM-L, Lemma 7 of Chen, Zheng, Long & Su) and :func:`assouad_clients`
(GM-P, the prior in the proof of Theorem 8, with the exact posterior mean :func:`bayes_estimate`)
draw x ∈ {±1}^d, so every population quantity is an exact sum over the 2^d feature vectors.
The shared model (labels, constants, exact ERMs) is
:class:`~fedtheory.papers.minimax.logistic_models.LogisticProblem`; see
:mod:`fedtheory.papers.minimax.logistic_models`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import optimize, special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.minimax.logistic_models import (
    MAX_POSTERIOR_DIM,
    LogisticProblem,
    _check_counts,
    _check_enumeration_dim,
    _check_radius,
    _client_weights,
    _draw_labels,
    _hypercube,
    _padding_mask,
    _sig_prime,
    _softplus_bregman,
)
from fedtheory.problems.dataset import FederatedDataset

__all__ = [
    "AssouadClients",
    "LogisticClients",
    "RademacherProblem",
    "assouad_clients",
    "bayes_estimate",
    "logistic_clients",
]


@functools.lru_cache(maxsize=256)
def _rademacher_mu(d: int, radius: float) -> float:
    """min over ‖w‖ = ρ of λ_min(E[sig'(xᵀw)xxᵀ]) for x uniform on {±1}^d (numerical).

    Candidates: the symmetric directions 1_k/√k (k = 1..d), where the first k coordinates
    are 1. Each is compared in closed form by enumeration. Then L-BFGS-B polishes the two
    best candidates, perturbed slightly, and three fixed random starts; w = ρθ/‖θ‖ and the
    gradient of λ_min is E[sig''(xᵀw)(xᵀv)²x] for the bottom eigenvector v.
    """
    if not math.isfinite(radius):
        return 0.0
    C = _hypercube(d)
    size = C.shape[0]

    def value_and_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        norm = float(np.linalg.norm(theta))
        unit = theta / norm
        t = C @ (radius * unit)
        h = _sig_prime(t)
        evals, evecs = np.linalg.eigh((C * h[:, None]).T @ C / size)
        v = evecs[:, 0]
        h2 = h * (1.0 - 2.0 * special.expit(t))
        grad_w = C.T @ (h2 * (C @ v) ** 2) / size
        grad_theta = radius / norm * (grad_w - (grad_w @ unit) * unit)
        return float(evals[0]), grad_theta

    candidates = [np.concatenate((np.ones(k), np.zeros(d - k))) for k in range(1, d + 1)]
    values = [value_and_grad(c)[0] for c in candidates]
    best = float(min(values))
    if d == 1:
        return best
    rng = np.random.default_rng(20240601)
    order = np.argsort(values)[:2]
    starts = [candidates[k] + 1e-3 * rng.standard_normal(d) for k in order]
    starts += [rng.standard_normal(d) for _ in range(3)]
    for start in starts:
        result = optimize.minimize(value_and_grad, start, jac=True, method="L-BFGS-B")
        best = min(best, float(result.fun))
    return best


@dataclass(frozen=True, eq=False)
class RademacherProblem(LogisticProblem):
    """Logistic clients with Rademacher features x ~ Unif{±1}^d (Lemma 7 with c_X = 1).

    Population quantities are exact sums over the 2^d feature vectors (d ≤ 16), for example

        𝓡_i(w) = 2^{−d} Σ_x [sig(xᵀw⋆_i) log(1 + e^{−xᵀw}) + sig(−xᵀw⋆_i) log(1 + e^{xᵀw})].
    """

    @functools.cached_property
    def _table(self) -> np.ndarray:
        return _hypercube(self.d)

    @functools.cached_property
    def _problem(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ERM data compressed to the 2^{d+1} support points (x, y), weighted by counts.

        L_i(w) = Σ_k (c_ik/n_i) ℓ(y_k x_kᵀw), where c_ik counts client i's samples equal to
        support point k. This is the same objective with far fewer rows when 2^{d+1} ≤ n_max.
        For d = 5 and n_i = 1600 it makes the ERMs about 25 times faster.
        """
        d, m, counts = self.d, self.m, self.data.counts
        size = 2 ** (d + 1)
        if size > self.data.n_max:
            return LogisticProblem._problem.func(self)  # type: ignore[attr-defined,no-any-return]
        support = np.concatenate((self._table, self._table))
        labels = np.repeat([-1.0, 1.0], 2**d)
        mask = _padding_mask(counts)
        # x ∈ {±1}^d ↦ Σ_j 2^j [x_j = 1] = (xᵀ2^{0..d−1} + 2^d − 1)/2, by a float matmul.
        bits = (self.data.features @ 2.0 ** np.arange(d) + (2**d - 1)) / 2
        code = bits + 2**d * (self.data.targets > 0) + size * np.arange(m)[:, None]
        code = np.rint(code[mask]).astype(np.int64)
        s = np.bincount(code, minlength=m * size).reshape(m, size) / counts[:, None]
        return (
            np.broadcast_to(support, (m, size, d)),
            np.broadcast_to(labels, (m, size)),
            s,
        )

    def _pooled(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        X, y, s = self._problem
        if X.strides[0] != 0:  # not compressed
            return super()._pooled(p)
        return X[:1], y[:1], (p @ s)[None, :]

    @functools.cached_property
    def _optimal_margins(self) -> np.ndarray:
        """(xᵀw⋆^(i)) for every feature vector x and client i, shape ``(2^d, m)``."""
        return np.asarray(self._table @ self.optima.T)

    def population_risk(self, models: Any) -> np.ndarray:
        """𝓡_i(w_i) = E[log(1 + e^{xᵀw_i}) − sig(xᵀw⋆_i) xᵀw_i], exact by enumeration."""
        t = self._table @ self._models(models).T
        p = special.expit(self._optimal_margins)
        return np.asarray(np.mean(np.logaddexp(0.0, t) - p * t, axis=0))

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact 𝓡_i(w_i) − 𝓡_i(w⋆^(i)) = E_x KL(Bern(sig(xᵀw⋆_i)) ‖ Bern(sig(xᵀw_i))).

        Computed term by term as a Bregman divergence of softplus (no cancellation between two
        risks of size ~log 2).
        """
        t = self._table @ self._models(models).T
        return np.asarray(np.mean(_softplus_bregman(t, self._optimal_margins), axis=0))

    def accuracy(self, models: Any) -> np.ndarray:
        """Exact P(y = sign(xᵀw_i)): E[sig(t⋆)1{t > 0} + sig(−t⋆)1{t < 0} + ½·1{t = 0}]."""
        t = self._table @ self._models(models).T
        p = special.expit(self._optimal_margins)
        correct = np.where(t > 0, p, np.where(t < 0, 1.0 - p, 0.5))
        return np.asarray(np.mean(correct, axis=0))

    def _client_index(self, i: Any) -> int:
        i = check_int("i", i, minimum=0)
        if i >= self.m:
            raise ParameterError(parameter="i", value=i, rule=f"must be below m = {self.m}")
        return int(i)

    def _point(self, w: Any) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (self.d,) or not np.isfinite(w).all():
            raise ParameterError(
                parameter="w", value=w.shape, rule=f"must be a finite vector ({self.d},)"
            )
        return np.asarray(w)

    def population_gradient(self, i: int, w: Any) -> np.ndarray:
        """∇𝓡_i(w) = E[(sig(xᵀw) − sig(xᵀw⋆_i)) x], exact; it vanishes at w = w⋆^(i)."""
        i = self._client_index(i)
        t = self._table @ self._point(w)
        r = special.expit(t) - special.expit(self._optimal_margins[:, i])
        return np.asarray(self._table.T @ r / self._table.shape[0])

    def population_hessian(self, i: int, w: Any) -> np.ndarray:
        """∇²𝓡_i(w) = E[sig'(xᵀw) xxᵀ], exact (the same for every client: labels do not enter)."""
        self._client_index(i)
        C = self._table
        h = _sig_prime(C @ self._point(w))
        return np.asarray((C * h[:, None]).T @ C / C.shape[0])

    @property
    def beta(self) -> float:
        """λ_max(E xxᵀ)/4 = 1/4: exact smoothness of the population risks (E xxᵀ = I)."""
        return 0.25

    @property
    def beta_sample(self) -> float:
        """sup_x ‖x‖²/4 = c_X²d/4 = d/4: per-sample smoothness of Lemma 7 (13)."""
        return self.d / 4.0

    @property
    def ell_inf(self) -> float:
        """sup over 𝒲 and x ∈ {±1}^d of ℓ = log(1 + e^{√d·ρ}) (attained at w ∥ x)."""
        return float(np.logaddexp(0.0, math.sqrt(self.d) * self.data.radius))

    @functools.cached_property
    def sigma2(self) -> float:
        """max_i E‖∇ℓ(w⋆^(i))‖² = max_i d·E[sig'(xᵀw⋆^(i))], exact (Lemma 7 bound: d/4)."""
        return float(self.d * np.mean(_sig_prime(self._optimal_margins), axis=0).max())

    @property
    def mu(self) -> float:
        """Population strong convexity on 𝒲: min_{‖w‖≤ρ} λ_min(E[sig'(xᵀw)xxᵀ]).

        It is attained on the sphere ‖w‖ = ρ. It is computed by multistart numerical
        minimization (symmetric candidate directions + L-BFGS-B), so it is not a certified global
        minimum; :attr:`mu_lemma7` is a certified lower bound. It is cached per (d, ρ). It is 0
        when 𝒲 is unbounded.
        """
        return _rademacher_mu(self.d, self.data.radius)

    @property
    def mu_lemma7(self) -> float:
        """Corrected (12) of Lemma 7: (e^{a/2} + e^{−a/2})^{−2}·λ_min(E xxᵀ) with a = √d·ρ.

        This is a certified lower bound on :attr:`mu` (guide §6.1: the printed (12) is wrong).
        """
        a = math.sqrt(self.d) * self.data.radius
        return 0.0 if not math.isfinite(a) else float(_sig_prime(np.asarray(a)))

    def _check_row(self, row: np.ndarray) -> None:
        if not np.all(np.abs(row) == 1.0):
            raise ParameterError(
                parameter="features_row", value=row.tolist(), rule="must lie in the support {±1}^d"
            )


def _balanced_directions(m: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """Unit u_i with Σ u_i = 0: antipodal pairs (u, −u), plus a 120° triple when m is odd."""
    U = np.zeros((m, d))
    pairs = m // 2 if m % 2 == 0 else max((m - 3) // 2, 0)
    g = rng.standard_normal((pairs, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    U[0 : 2 * pairs : 2] = g
    U[1 : 2 * pairs : 2] = -g
    if m % 2 == 1 and m >= 3:
        a, b = rng.standard_normal((2, d))
        a /= np.linalg.norm(a)
        b -= (b @ a) * a
        b /= np.linalg.norm(b)
        angles = 2.0 * np.pi * np.arange(3) / 3.0
        U[m - 3 :] = np.cos(angles)[:, None] * a + np.sin(angles)[:, None] * b
    return U


@dataclass(frozen=True, eq=False)
class LogisticClients(RademacherProblem):
    """GM-L: Rademacher features, w⋆^(i) = w_0 + R u_i (see :func:`logistic_clients`).

    Attributes
    ----------
    w0 : numpy.ndarray
        ``(d,)``, the base model (norm ``center_norm``); w̄_p = w_0 when Σ p_i u_i = 0.
    directions : numpy.ndarray
        ``(m, d)``, the unit directions u_i.
    """

    w0: np.ndarray
    directions: np.ndarray

    def curvature_kappa(self) -> float:
        """κ = Σ_i p_i ũ_iᵀ H ũ_i with H = ∇²𝓡(w̄_p) and ũ_i = u_i − Σ_k p_k u_k (guide §3.3).

        ũ_i = (w⋆^(i) − w̄_p)/R are the *unit-scale* directions (for R > 0; for R = 0 they are
        still defined by the construction), so κ does not depend on R. The heterogeneity bias of
        FedAvg is then ½R²κ + O(R³), which gives the Fisher prediction R*² ≈ d(1 − 1/m)/(κn) of
        the crossing. With the balanced antipodal design and equal weights, ũ_i = u_i are
        unit vectors and κ is the average curvature along them. The population Hessian is the
        same for every client, so H needs no client index.
        """
        U = self.directions - self.weights @ self.directions
        H = self.population_hessian(0, self.center)
        return float(self.weights @ np.einsum("id,de,ie->i", U, H, U))


def _rademacher_data(
    optima: np.ndarray, counts: np.ndarray, radius: float, rng: np.random.Generator
) -> FederatedDataset:
    """Rademacher features (drawn as indices into the hypercube table) and logistic labels."""
    d = optima.shape[1]
    mask = _padding_mask(counts)
    table = _hypercube(d)
    index = rng.integers(0, 2**d, size=mask.shape)
    features = table[index] * mask[:, :, None]
    margins = np.take_along_axis((table @ optima.T).T, index, axis=1)
    targets = _draw_labels(margins, mask, rng)
    return FederatedDataset(features, targets, counts, "logistic", radius)


def logistic_clients(
    m: int,
    n: Any,
    d: int,
    R: float,
    seed: Seed,
    *,
    center_norm: float = 1.0,
    radius: float | None = None,
    weights: Any = None,
    directions: Literal["antipodal", "random"] = "antipodal",
    population_seed: Seed | None = None,
) -> LogisticClients:
    """GM-L (guide §5.1): the theory-faithful logistic model of Lemma 7 with exact risks.

    * Features: x ~ Unif{±1}^d (c_X = 1).
    * Labels: y | x = +1 with probability sig(xᵀw⋆^(i)).
    * Optima: w⋆^(i) = w_0 + R u_i, with ‖w_0‖ = ``center_norm`` in a uniformly random
      direction.

    With ``directions="antipodal"`` the u_i come in pairs u_{2k−1} = g_k, u_{2k} = −g_k, with
    g_k uniform on the sphere. For odd m ≥ 3 the last three clients instead get a 120° triple
    in a random plane, which needs d ≥ 2. A single client gets u_1 = 0. Then Σ u_i = 0 and
    ‖u_i‖ = 1, so with equal weights w̄_p = w_0 and B(a), B(b) are both tight at R.
    ``"random"`` draws independent uniform u_i (Σ u_i ≠ 0).

    Random draws, in order: the direction of w_0; the directions; the feature vectors (m·n_max
    indices into {±1}^d); the label uniforms.

    Parameters
    ----------
    m
        Number of clients, ≥ 1.
    n
        Sample size per client: an int, or a length-m sequence (imbalanced n_i).
    d
        Dimension, 1 ≤ d ≤ 16 (the population risk enumerates the 2^d feature vectors).
    R
        Heterogeneity level, ≥ 0.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    center_norm
        ‖w_0‖ ≥ 0.
    radius
        Radius ρ of 𝒲 = {‖w‖ ≤ ρ}. The default is 2(center_norm + R) + 1. It contains every
        optimum with room to spare, so it is inactive for the ERMs w.h.p. once n_i ≳ 20d.
        Check ``local_erm(return_info=True)`` to see whether it was active; at tiny n_i it
        makes the ERM exist on separable data. It must exceed max_i ‖w⋆^(i)‖; ``inf`` is
        allowed (ERMs may then not exist).
    weights
        Client weights **p** on the simplex; default n_i/N.
    directions
        ``"antipodal"`` (default) or ``"random"``.
    population_seed
        When given, w_0 and the directions are drawn from this seed and only the samples from
        ``seed``: a fixed population (fixed curvature κ, fixed crossing location) observed
        through independent datasets.

    Returns
    -------
    LogisticClients

    Raises
    ------
    ParameterError
        On invalid arguments, naming the parameter.

    Examples
    --------
    >>> inst = logistic_clients(4, 200, 3, 0.5, seed=0)
    >>> [round(v, 12) for v in inst.heterogeneity()]
    [0.25, 0.25]
    >>> bool(np.all(inst.excess_risk(inst.optima) == 0.0))
    True
    """
    m = check_int("m", m, minimum=1)
    d = _check_enumeration_dim(d)
    counts = _check_counts(n, m)
    R = check_real("R", R, nonnegative=True)
    center_norm = check_real("center_norm", center_norm, nonnegative=True)
    if directions not in ("antipodal", "random"):
        raise ParameterError(
            parameter="directions", value=directions, rule="'antipodal' or 'random'"
        )
    if directions == "antipodal" and m % 2 == 1 and m >= 3 and d == 1:
        raise ParameterError(
            parameter="m",
            value=m,
            rule="odd m ≥ 3 with antipodal directions needs d ≥ 2 (a 120° triple)",
        )
    p = _client_weights(weights, counts)
    rng = generator(seed)
    population = (
        rng if population_seed is None else generator(population_seed, parameter="population_seed")
    )
    w0 = population.standard_normal(d)
    w0 *= center_norm / np.linalg.norm(w0)
    if directions == "antipodal":
        U = _balanced_directions(m, d, population)
    else:
        U = population.standard_normal((m, d))
        U /= np.linalg.norm(U, axis=1, keepdims=True)
    optima = w0 + R * U
    rho = _check_radius(radius, 2.0 * (center_norm + R) + 1.0, optima, strict=True)
    data = _rademacher_data(optima, counts, rho, rng)
    return LogisticClients(
        data=data, optima=readonly(optima), weights=p, R=R, w0=readonly(w0), directions=readonly(U)
    )


@dataclass(frozen=True, eq=False)
class AssouadClients(RademacherProblem):
    """GM-P: w⋆^(i) = δ_i v^(i), v^(i) ~ Unif{±1}^d, Rademacher features (Thm 8 proof).

    ``R`` is the realized B(a) level √(Σ p_i‖w⋆^(i) − w̄_p‖²), the constraint (32) of the
    proof.

    Attributes
    ----------
    delta : numpy.ndarray
        ``(m,)``, the scales δ_i ≥ 0.
    signs : numpy.ndarray
        ``(m, d)``, the hypotheses v^(i) ∈ {±1}^d.
    """

    delta: np.ndarray
    signs: np.ndarray

    def bayes_estimate(self) -> np.ndarray:
        """Exact posterior means E[w⋆^(i) | S_i], ``(m, d)``; see :func:`bayes_estimate`."""
        return bayes_estimate(self)


def assouad_clients(
    m: int,
    n: Any,
    d: int,
    delta: Any,
    seed: Seed,
    *,
    radius: float | None = None,
    weights: Any = None,
) -> AssouadClients:
    """GM-P (guide §5.1): the multi-dataset Assouad prior of the proof of Theorem 8.

    * v^(i) iid uniform on {±1}^d; w⋆^(i) = δ_i v^(i).
    * Rademacher features; labels P(y = +1 | x) = sig(xᵀw⋆^(i)).
    * The clients' parameters are independent, so the Bayes estimator of client i uses S_i
      only (guide §6.10).
    * Random draws, in order: the signs (m·d), the feature vectors, the label uniforms.

    Parameters
    ----------
    m, n, d
        As in :func:`logistic_clients` (d ≤ 16; :func:`bayes_estimate` needs d ≤ 10).
    delta
        δ ≥ 0, a scalar or a length-m vector. The proof uses δ_i = c/√n_i when R² ≥ dm/N and
        δ = cR/√d otherwise.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    radius
        ρ of 𝒲; default 2·max_i δ_i√d + 1. It must exceed max_i ‖w⋆^(i)‖ = max_i δ_i√d.
    weights
        Client weights; default n_i/N (the theorem's choice).

    Examples
    --------
    >>> inst = assouad_clients(3, 50, 4, 0.3, seed=1)
    >>> bool(np.allclose(np.abs(inst.optima), 0.3)), inst.bayes_estimate().shape
    (True, (3, 4))
    """
    m = check_int("m", m, minimum=1)
    d = _check_enumeration_dim(d)
    counts = _check_counts(n, m)
    try:
        deltas = np.broadcast_to(np.asarray(delta, dtype=np.float64), (m,)).copy()
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="delta", value=delta, rule=f"must be a number or a vector of length m = {m}"
        ) from None
    if not np.all(np.isfinite(deltas)) or deltas.min() < 0:
        raise ParameterError(
            parameter="delta", value=deltas.tolist(), rule="must be finite and ≥ 0"
        )
    p = _client_weights(weights, counts)
    rng = generator(seed)
    signs = 2.0 * rng.integers(0, 2, size=(m, d)) - 1.0
    optima = deltas[:, None] * signs
    rho = _check_radius(radius, 2.0 * float(deltas.max()) * math.sqrt(d) + 1.0, optima, strict=True)
    data = _rademacher_data(optima, counts, rho, rng)
    centered = optima - p @ optima
    R = math.sqrt(float(p @ np.sum(centered**2, axis=1)))
    return AssouadClients(
        data=data,
        optima=readonly(optima),
        weights=p,
        R=R,
        delta=readonly(deltas),
        signs=readonly(signs),
    )


def bayes_estimate(instance: AssouadClients) -> np.ndarray:
    """Exact posterior mean of w⋆^(i) = δ_i v^(i) given S_i, under v^(i) ~ Unif{±1}^d (GM-P).

    The prior is uniform and independent across clients, and the data of client i depend on
    v^(i) only, so the posterior factorizes over clients (not over coordinates: the features
    couple them). For each of the 2^d hypotheses v,

        log π(v | S_i) = −Σ_j log(1 + exp(−y_j δ_i x_jᵀv)) + const,

    normalized with a log-sum-exp. Repeated samples (x, y) are grouped, so the cost is
    (number of distinct samples) × 2^d. The Bayes risk E‖ŵ − w⋆‖² of this estimator lower
    bounds that of every estimator under the prior (Thm 8, guide V9).

    Parameters
    ----------
    instance
        A GM-P instance with d ≤ 10.

    Returns
    -------
    numpy.ndarray
        ``(m, d)`` posterior means.
    """
    if not isinstance(instance, AssouadClients):
        raise ParameterError(
            parameter="instance",
            value=type(instance).__name__,
            rule="must be an AssouadClients (GM-P)",
        )
    d = instance.d
    if d > MAX_POSTERIOR_DIM:
        raise ParameterError(
            parameter="d",
            value=d,
            rule=f"must be at most {MAX_POSTERIOR_DIM} for the exact posterior (2^d hypotheses)",
        )
    V = _hypercube(d)
    out = np.zeros((instance.m, d))
    for i in range(instance.m):
        delta = float(instance.delta[i])
        if delta == 0.0:
            continue
        X, y = instance.data.client(i)
        rows, counts = np.unique(y[:, None] * X, axis=0, return_counts=True)
        loglik = -(counts @ np.logaddexp(0.0, -delta * (rows @ V.T)))
        post = np.exp(loglik - special.logsumexp(loglik))
        out[i] = delta * (post @ V)
    return out
