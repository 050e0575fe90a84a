"""Federated logistic-regression instances with exact population quantities (minimax paper).

Three generative models of the reading guide (§5.1) for Chen, Zheng, Long & Su, "Minimax
Estimation for Personalized Federated Learning". In each, client i draws labels
y | x ~ ±1 with P(y = +1 | x) = sig(xᵀw⋆^(i)), the model of Lemma 7.

- :func:`logistic_clients` (**GM-L**, Lemma 7, tier 2 of guide §4).
  * Rademacher features x ∈ {±1}^d, so c_X = 1.
  * w⋆^(i) = w_0 + R u_i with paired antipodal unit directions u_i.
  * Every population quantity is exact: it enumerates the 2^d feature vectors.
- :func:`appendix_d_clients` (**GM-A**, the App. D replica, tier 1).
  * Gaussian features, w⋆ ~ N(0, I_d), w⋆^(i) = w⋆ + R v_i with v_i "negatively correlated"
    with w⋆.
  * The population risk and accuracy are exact one-dimensional Gaussian integrals.
- :func:`assouad_clients` (**GM-P**, the prior in the proof of Theorem 8).
  * w⋆^(i) = δ_i v^(i) with v^(i) uniform on {±1}^d.
  * :func:`bayes_estimate` gives the exact posterior mean by enumerating the 2^d hypotheses.

Every instance is a frozen dataclass with the interface shared by the federated problems of
the toolkit (the quadratic models implement the same one).
* Attributes: ``data``, ``optima``, ``weights``, ``R``, ``beta``, ``mu``, ``sigma2``, ``ell_inf``,
  ``center``.
* Methods: ``heterogeneity()``, ``excess_risk(models)``, ``local_erm()``, ``global_erm()``,
  ``fedprox_erm(lam)``, ``with_sample_replaced(...)``.

The ERMs are exact minimizers over the ball 𝒲 = {‖w‖ ≤ ``data.radius``}, computed by
:mod:`fedtheory.exact.logistic`.

Assumption A constants (Lemma 7), as computed here
-------------------------------------------------
``beta``
    λ_max(E xxᵀ)/4. This is the exact smoothness constant of the *population* risks: their
    Hessian E[sig'(xᵀw)xxᵀ] ⪯ E[xxᵀ]/4, with equality at w = 0 ∈ 𝒲. It equals 1/4 for both
    feature laws. The per-sample constant of Lemma 7, sup_x ‖x‖²/4 = c_X²d/4, is ``beta_sample``.
``mu``
    min over w ∈ 𝒲 of λ_min(∇²𝓡_i(w)), the population strong convexity on the ball. The
    Hessian does not depend on the labels, so μ is the same for every client, and it decreases
    along rays, so the minimum is on the sphere ‖w‖ = ρ. Gaussian features give a closed form;
    Rademacher features need a numerical minimization over the sphere (see
    :attr:`RademacherProblem.mu`).
``sigma2``
    max_i E‖∇ℓ(w⋆^(i); x, y)‖² = max_i E[‖x‖² sig'(xᵀw⋆^(i))], exact. The paper's bound is
    c_X²d/4.
``ell_inf``
    sup of the loss over 𝒲 and the feature support: log(1 + e^{c_X√d·ρ}) for Rademacher
    features (attained), ∞ for Gaussian features or an unbounded 𝒲.

Departures from the paper, documented
-------------------------------------
- GM-A evaluates the *population* accuracy and logistic risk exactly, where App. D uses test
  sets. The exact value is the limit of the test-set estimate and has no Monte-Carlo noise.
- App. D does not give the feature law; we read it as x ~ N(0, I_d) (guide §2.6).
- We read "a random unit vector negatively correlated with w⋆" as the hemisphere flip:
  v = g/‖g‖, g ~ N(0, I_d), and v ↦ −v if ⟨v, w⋆⟩ > 0.
- The GM-A integrals are one-dimensional: Stein's lemma and the conditional law of xᵀw given
  xᵀw⋆ remove the second dimension. They use a graded composite Gauss–Legendre rule that
  agrees with 30-digit adaptive quadrature to ~1e-15.

Performance
-----------
Generators and ERMs run once per Monte-Carlo replicate. Rademacher instances therefore
compress each client's sample to counts on the 2^{d+1} support points (x, y) before solving.
The objective is the same, but for d = 5 the Newton iterations touch 64 rows instead of n_i.
One GM-L replicate (m = 10, n_i = 400, d = 5) takes about 2–3 ms on one core, for generation,
10 local ERMs, the global ERM and two exact excess-risk evaluations. Limit BLAS to one thread
(``OPENBLAS_NUM_THREADS=1``) on a loaded machine: competing threads make the small d × d solves
about ten times slower.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload

import numpy as np
from scipy import optimize, special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real, check_weights
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.exact.logistic import (
    ERMInfo,
    FedProxInfo,
    _check_lam,
    erm_batch_unchecked,
    fedprox_unchecked,
)
from fedtheory.problems.dataset import FederatedDataset

__all__ = [
    "MAX_ENUMERATION_DIM",
    "MAX_POSTERIOR_DIM",
    "AppendixDClients",
    "AssouadClients",
    "LogisticClients",
    "LogisticProblem",
    "RademacherProblem",
    "appendix_d_clients",
    "assouad_clients",
    "bayes_estimate",
    "logistic_clients",
]

#: Largest d for which the 2^d Rademacher feature vectors are enumerated (GM-L, GM-P).
MAX_ENUMERATION_DIM = 16
#: Largest d for the exact posterior mean of GM-P (2^d hypotheses per client).
MAX_POSTERIOR_DIM = 10

_SQRT_2PI = math.sqrt(2.0 * math.pi)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _sig_prime(t: np.ndarray) -> np.ndarray:
    """sig'(t) = sig(t) sig(−t), without overflow."""
    return np.asarray(special.expit(t) * special.expit(-t))


@functools.lru_cache(maxsize=MAX_ENUMERATION_DIM + 1)
def _hypercube(d: int) -> np.ndarray:
    """The 2^d vectors of {±1}^d as rows; row k has +1 in coordinate j iff bit j of k is set."""
    bits = (np.arange(2**d)[:, None] >> np.arange(d)[None, :]) & 1
    return readonly(2.0 * bits - 1.0)


def _softplus_bregman(t: np.ndarray, t_star: np.ndarray) -> np.ndarray:
    """sp(t) − sp(t⋆) − sig(t⋆)(t − t⋆) with sp(t) = log(1 + e^t), accurately for t ≈ t⋆.

    This is KL(Bern(sig(t⋆)) ‖ Bern(sig(t))): the excess logistic risk at a feature vector
    with margin t against the optimal margin t⋆. Using B(t, t⋆) = B(−t, −t⋆), we make t⋆ ≤ 0
    and use log1p(p·expm1(δ)) − pδ for |δ| ≤ 1, where p = sig(t⋆) ≤ ½ and δ = t − t⋆. This
    form has relative error ~ε/|δ| instead of ~ε/δ².
    """
    flip = t_star > 0
    ts = np.where(flip, -t_star, t_star)
    tt = np.where(flip, -t, t)
    delta = tt - ts
    p = special.expit(ts)
    small = np.abs(delta) <= 1.0
    d_small = np.where(small, delta, 0.0)
    near = np.log1p(p * np.expm1(d_small)) - p * d_small
    far = np.logaddexp(0.0, tt) - np.logaddexp(0.0, ts) - p * delta
    return np.maximum(np.where(small, near, far), 0.0)


def _check_counts(n: Any, m: int) -> np.ndarray:
    """``n`` (an int or a length-m sequence of ints ≥ 1) as an int64 vector of sample sizes."""
    if isinstance(n, numbers.Integral) and not isinstance(n, bool):
        return np.full(m, check_int("n", n, minimum=1), dtype=np.int64)
    try:
        values = [check_int("n", v, minimum=1) for v in n]
    except TypeError:
        raise ParameterError(
            parameter="n", value=n, rule="must be an integer or a sequence of m integers"
        ) from None
    if len(values) != m:
        raise ParameterError(
            parameter="n",
            value=len(values),
            rule=f"a sequence of sample sizes needs m = {m} entries",
        )
    return np.asarray(values, dtype=np.int64)


def _check_radius(radius: Any, default: float, optima: np.ndarray, *, strict: bool) -> float:
    """The radius of 𝒲 (default if None); with ``strict``, the optima must lie inside."""
    if radius is None:
        return default
    if isinstance(radius, bool) or not isinstance(radius, numbers.Real):
        raise ParameterError(parameter="radius", value=radius, rule="must be a real number")
    rho = float(radius)
    if not rho > 0:
        raise ParameterError(parameter="radius", value=rho, rule="must be > 0 (inf: unconstrained)")
    largest = float(np.linalg.norm(optima, axis=1).max())
    if strict and not largest < rho:
        raise ParameterError(
            parameter="radius",
            value=rho,
            rule=f"must exceed max_i ‖w⋆^(i)‖ = {largest:.6g} (the population optima must be "
            "interior to 𝒲, guide §6.7)",
        )
    return rho


def _client_weights(weights: Any, counts: np.ndarray) -> np.ndarray:
    if weights is None:
        return readonly(counts / counts.sum())
    return readonly(check_weights(weights, counts.size))


def _padding_mask(counts: np.ndarray) -> np.ndarray:
    return np.arange(int(counts.max()))[None, :] < counts[:, None]


def _draw_labels(margins: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """±1 labels with P(y = +1) = sig(margin); 0 in the padding."""
    y = np.where(rng.random(margins.shape) < special.expit(margins), 1.0, -1.0)
    return np.where(mask, y, 0.0)


_P = TypeVar("_P", bound="LogisticProblem")


# ---------------------------------------------------------------------------------------------
# Base class: the shared interface
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LogisticProblem:
    """A federated logistic-regression instance: data, optima, weights and exact oracles.

    Attributes
    ----------
    data : FederatedDataset
        The samples (loss ``"logistic"``). ``data.radius`` is the radius ρ of 𝒲, the ball of
        the ERMs.
    optima : numpy.ndarray
        ``(m, d)``, the population optima w⋆^(i) = argmin 𝓡_i (1).
    weights : numpy.ndarray
        ``(m,)`` client weights **p** (default n_i/N), used by ``center``, ``heterogeneity``,
        ``global_erm`` and ``fedprox_erm``.
    R : float
        The heterogeneity level of the construction (see each generator). The realized B(a)
        and B(b) levels are given by :meth:`heterogeneity`.
    """

    data: FederatedDataset
    optima: np.ndarray
    weights: np.ndarray
    R: float

    # -- geometry ---------------------------------------------------------------------------

    @property
    def m(self) -> int:
        """Number of clients."""
        return int(self.optima.shape[0])

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.optima.shape[1])

    @property
    def center(self) -> np.ndarray:
        """w̄_p = Σ_i p_i w⋆^(i), the "average global model" (7)."""
        return np.asarray(self.weights @ self.optima)

    def heterogeneity(self) -> tuple[float, float]:
        """Realized (Σ_i p_i‖w⋆^(i) − w̄_p‖², max_i ‖w⋆^(i) − w̄_p‖²): the B(a) and B(b) levels."""
        sq = np.sum((self.optima - self.center) ** 2, axis=1)
        return float(self.weights @ sq), float(sq.max())

    def _models(self, models: Any) -> np.ndarray:
        """``models`` as ``(m, d)``: one shared model ``(d,)`` or one per client."""
        try:
            w = np.asarray(models, dtype=np.float64)
        except (TypeError, ValueError):
            raise ParameterError(parameter="models", value=models, rule="must be numeric") from None
        if w.shape == (self.d,):
            w = np.broadcast_to(w, (self.m, self.d))
        if w.shape != (self.m, self.d):
            raise ParameterError(
                parameter="models",
                value=w.shape,
                rule=f"must have shape ({self.d},) or {(self.m, self.d)}",
            )
        if not np.isfinite(w).all():
            raise ParameterError(
                parameter="models", value="array with NaN or inf", rule="must be finite"
            )
        return w

    # -- population quantities (per family) ---------------------------------------------------

    def population_risk(self, models: Any) -> np.ndarray:
        """𝓡_i(w_i) = E ℓ(w_i; x, y) under client i's distribution, shape ``(m,)``."""
        raise NotImplementedError

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact population excess risk 𝓡_i(w_i) − 𝓡_i(w⋆^(i)), shape ``(m,)`` (IER_i, (5))."""
        raise NotImplementedError

    def accuracy(self, models: Any) -> np.ndarray:
        """Exact population accuracy P(y = sign(xᵀw_i)) per client (ties count ½)."""
        raise NotImplementedError

    def bayes_accuracy(self) -> np.ndarray:
        """Accuracy of the population optima w⋆^(i) themselves, shape ``(m,)``."""
        return self.accuracy(self.optima)

    # -- exact ERMs ----------------------------------------------------------------------------

    @functools.cached_property
    def _problem(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(X, y, s) with s = 1/n_i on the samples and 0 on the padding."""
        counts = self.data.counts
        s = _padding_mask(counts) / counts[:, None]
        return self.data.features, self.data.targets, s

    def _pooled(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pooled FedAvg problem (8): every sample, weighted p_i/n_i, as one batch row."""
        X, y, s = self._problem
        m, n, d = X.shape
        return X.reshape(1, m * n, d), y.reshape(1, m * n), (p[:, None] * s).reshape(1, m * n)

    def _p(self, weights: Any) -> np.ndarray:
        return self.weights if weights is None else check_weights(weights, self.m)

    @overload
    def local_erm(self, *, return_info: Literal[False] = ...) -> np.ndarray: ...

    @overload
    def local_erm(self, *, return_info: Literal[True]) -> tuple[np.ndarray, list[ERMInfo]]: ...

    def local_erm(
        self, *, return_info: bool = False
    ) -> np.ndarray | tuple[np.ndarray, list[ERMInfo]]:
        """PureLocalTraining (3): ŵ^(i) = argmin_{w∈𝒲} L_i(w, S_i) for every client, ``(m, d)``.

        Exact (Newton, vectorized over clients; :mod:`fedtheory.exact.logistic`). With
        ``return_info`` also returns one :class:`~fedtheory.exact.logistic.ERMInfo` per client,
        whose ``active`` says whether the ball 𝒲 was active.

        Raises
        ------
        SolverError
            If 𝒲 is unbounded and some client's data are separable (no minimizer).
        """
        X, y, s = self._problem
        W, infos = erm_batch_unchecked(X, y, s, self.data.radius, what="client")
        return (W, infos) if return_info else W

    @overload
    def global_erm(
        self, weights: Any = ..., *, return_info: Literal[False] = ...
    ) -> np.ndarray: ...

    @overload
    def global_erm(
        self, weights: Any = ..., *, return_info: Literal[True]
    ) -> tuple[np.ndarray, ERMInfo]: ...

    def global_erm(
        self, weights: Any = None, *, return_info: bool = False
    ) -> np.ndarray | tuple[np.ndarray, ERMInfo]:
        """FedAvg as analysed (8): argmin_{w∈𝒲} Σ_i p_i L_i(w, S_i), shape ``(d,)``.

        ``weights`` defaults to ``self.weights``. Exact; ``return_info`` adds the
        :class:`~fedtheory.exact.logistic.ERMInfo`.
        """
        X, y, s = self._pooled(self._p(weights))
        W, infos = erm_batch_unchecked(X, y, s, self.data.radius, what="the pooled data")
        return (W[0], infos[0]) if return_info else W[0]

    @overload
    def fedprox_erm(
        self, lam: float, weights: Any = ..., *, return_info: Literal[False] = ...
    ) -> tuple[np.ndarray, np.ndarray]: ...

    @overload
    def fedprox_erm(
        self, lam: float, weights: Any = ..., *, return_info: Literal[True]
    ) -> tuple[np.ndarray, np.ndarray, FedProxInfo]: ...

    def fedprox_erm(
        self, lam: float, weights: Any = None, *, return_info: bool = False
    ) -> tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, FedProxInfo]:
        """Exact minimizer (w̃^g, {w̃^(i)}) of the FedProx objective (20) over 𝒲.

        λ = 0 gives the local ERMs, with w̃^g = Σ p_i w̃^(i) (the λ → 0⁺ limit); λ = ∞ gives the
        global ERM for every client. Returns ``(w_global (d,), w_local (m, d))``, plus a
        :class:`~fedtheory.exact.logistic.FedProxInfo` with ``return_info``.
        """
        lam_value = _check_lam(lam)
        p = self._p(weights)
        X, y, s = self._problem
        wg, W, info = fedprox_unchecked(X, y, s, p, lam_value, self.data.radius)
        return (wg, W, info) if return_info else (wg, W)

    # -- perturbation (federated stability, Def. 5) -------------------------------------------

    def _check_row(self, row: np.ndarray) -> None:
        """Hook: raise ParameterError if ``row`` is outside the feature support."""

    def with_sample_replaced(
        self: _P, client: int, index: int, features_row: Any, target: float
    ) -> _P:
        """The same instance with sample z_index^(client) replaced by (features_row, target).

        This is the perturbation 𝐒^{∖(i,j)} of federated stability (Def. 5, guide V8). The
        optima, weights and constants are unchanged. Returns an instance of the same class.
        """
        client = check_int("client", client, minimum=0)
        if client >= self.m:
            raise ParameterError(
                parameter="client", value=client, rule=f"must be below m = {self.m}"
            )
        index = check_int("index", index, minimum=0)
        n_i = int(self.data.counts[client])
        if index >= n_i:
            raise ParameterError(
                parameter="index", value=index, rule=f"must be below n_{client} = {n_i}"
            )
        row = np.asarray(features_row, dtype=np.float64)
        if row.shape != (self.d,) or not np.isfinite(row).all():
            raise ParameterError(
                parameter="features_row",
                value=row.shape,
                rule=f"must be a finite vector of shape ({self.d},)",
            )
        self._check_row(row)
        if target not in (-1, 1, -1.0, 1.0):
            raise ParameterError(parameter="target", value=target, rule="must be −1 or +1")
        features = self.data.features.copy()
        targets = self.data.targets.copy()
        features[client, index] = row
        targets[client, index] = float(target)
        data = FederatedDataset(features, targets, self.data.counts, "logistic", self.data.radius)
        return dataclasses.replace(self, data=data)


# ---------------------------------------------------------------------------------------------
# Rademacher features: exact enumeration (GM-L, GM-P)
# ---------------------------------------------------------------------------------------------


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
        return i

    def _point(self, w: Any) -> np.ndarray:
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (self.d,) or not np.isfinite(w).all():
            raise ParameterError(
                parameter="w", value=w.shape, rule=f"must be a finite vector ({self.d},)"
            )
        return w

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
    d = check_int("d", d, minimum=1)
    if d > MAX_ENUMERATION_DIM:
        raise ParameterError(
            parameter="d",
            value=d,
            rule=f"must be at most {MAX_ENUMERATION_DIM} (exact risks enumerate 2^d features)",
        )
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


# ---------------------------------------------------------------------------------------------
# GM-P: the Assouad prior of Theorem 8
# ---------------------------------------------------------------------------------------------


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
    d = check_int("d", d, minimum=1)
    if d > MAX_ENUMERATION_DIM:
        raise ParameterError(
            parameter="d",
            value=d,
            rule=f"must be at most {MAX_ENUMERATION_DIM} (exact risks enumerate 2^d features)",
        )
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


# ---------------------------------------------------------------------------------------------
# GM-A: the App. D replica with Gaussian features, exact by 1-D quadrature
# ---------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _half_line_rule() -> tuple[np.ndarray, np.ndarray]:
    """Nodes z_k > 0 and weights ω_k with Σ_k ω_k g(z_k) ≈ ∫_0^∞ g(z) φ(z) dz.

    The rule is composite 16-point Gauss–Legendre. Panels are geometric [2^{−k−1}, 2^{−k}]
    from 2^{−40} up to 1, then of width ½ up to 12, where φ(12) ~ 1e-32. The grading resolves
    integrands that vary on the scale 1/σ near 0, for any σ up to ~10^{12}. Examples are
    softplus(−σz), sig'(σz) and erf(kz/√2) with large σ or k. The tests compare it with an
    adaptive high-precision reference.
    """
    x, w = np.polynomial.legendre.leggauss(16)
    edges = np.concatenate(([0.0], 2.0 ** np.arange(-40.0, 0.0), np.arange(1.0, 12.25, 0.5)))
    a, b = edges[:-1, None], edges[1:, None]
    nodes = (0.5 * (b - a) * x + 0.5 * (a + b)).ravel()
    weights = (0.5 * (b - a) * w).ravel() * np.exp(-0.5 * nodes**2) / _SQRT_2PI
    return readonly(nodes), readonly(weights)


def _gauss_expect_even(fun: Any, *params: np.ndarray) -> np.ndarray:
    """E[g(|Z|)] = 2∫_0^∞ g(z)φ(z)dz, Z ~ N(0,1), vectorized over parameter arrays ``(M,)``."""
    z, w = _half_line_rule()
    cols = [np.asarray(q, dtype=np.float64)[:, None] for q in params]
    return np.asarray(2.0 * (fun(z[None, :], *cols) @ w))


def _j_softplus(sigma: np.ndarray) -> np.ndarray:
    """E[softplus(−σ|Z|)]."""
    return _gauss_expect_even(lambda z, s: np.logaddexp(0.0, -s * z), sigma)


def _j_sigprime(sigma: np.ndarray) -> np.ndarray:
    """E[sig'(σZ)]."""
    return _gauss_expect_even(lambda z, s: _sig_prime(s * z), sigma)


def _j_z2_sigprime(sigma: np.ndarray) -> np.ndarray:
    """E[Z² sig'(σZ)]."""
    return _gauss_expect_even(lambda z, s: z * z * _sig_prime(s * z), sigma)


def _gaussian_risk(norm_w: np.ndarray, norm_star: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """𝓡(w) for x ~ N(0, I) and labels from w⋆: u = xᵀw, v = xᵀw⋆ bivariate normal.

    𝓡(w) = E[softplus(u)] − E[sig(v)u]. E[softplus(u)] = σ_u/√(2π) + E[softplus(−|u|)], since
    softplus(u) = max(u, 0) + softplus(−|u|). By Stein's lemma,
    E[sig(v)u] = (c/σ_v²)E[v sig(v)] = c·E[sig'(v)] with c = wᵀw⋆. All three terms are 1-D
    integrals.
    """
    return np.asarray(norm_w / _SQRT_2PI + _j_softplus(norm_w) - inner * _j_sigprime(norm_star))


def _gaussian_accuracy(norm_w: np.ndarray, norm_star: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """P(y = sign(xᵀw)) for x ~ N(0, I), as a 1-D integral.

    With v = σ_v Z, the conditional law of u given Z gives P(u > 0 | Z) = Φ(kZ), where
    k = ρ/√(1 − ρ²) and ρ = corr(u, v). Since E[sig(−v)] = ½,

        accuracy = ½ + E[tanh(v/2)(Φ(kZ) − ½)] = ½ + ∫_0^∞ tanh(σ_v z/2) erf(kz/√2) φ(z) dz,

    an even and smooth integrand (k = ±∞ when w ∥ w⋆). The model w = 0 has accuracy ½.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = np.clip(inner / (norm_w * norm_star), -1.0, 1.0)
        k = rho / np.sqrt(1.0 - rho**2)
    k = np.where(np.isnan(k), 0.0, k)
    half = _gauss_expect_even(
        lambda z, s, kk: np.tanh(0.5 * s * z) * special.erf(kk * z / math.sqrt(2.0)), norm_star, k
    )
    return np.asarray(0.5 + 0.5 * half)


@dataclass(frozen=True, eq=False)
class AppendixDClients(LogisticProblem):
    """GM-A: the App. D replica (see :func:`appendix_d_clients`), with exact population metrics.

    Attributes
    ----------
    w_common : numpy.ndarray
        ``(d,)``, the common model w⋆ ~ N(0, I_d) of App. D.
    directions : numpy.ndarray
        ``(m, d)``, the unit v_i with ⟨v_i, w⋆⟩ ≤ 0.
    """

    w_common: np.ndarray
    directions: np.ndarray

    @functools.cached_property
    def _norms(self) -> np.ndarray:
        return np.asarray(np.linalg.norm(self.optima, axis=1))

    @functools.cached_property
    def _bayes_risk(self) -> np.ndarray:
        n = self._norms
        return _gaussian_risk(n, n, n**2)

    def _moments(self, models: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        W = self._models(models)
        return np.linalg.norm(W, axis=1), self._norms, np.einsum("id,id->i", W, self.optima)

    def population_risk(self, models: Any) -> np.ndarray:
        """𝓡_i(w_i), exact: three 1-D Gaussian integrals (:func:`_gaussian_risk`)."""
        return _gaussian_risk(*self._moments(models))

    def excess_risk(self, models: Any) -> np.ndarray:
        """Exact 𝓡_i(w_i) − 𝓡_i(w⋆^(i)), the theory's metric (App. D reports test accuracy)."""
        return np.maximum(self.population_risk(models) - self._bayes_risk, 0.0)

    def accuracy(self, models: Any) -> np.ndarray:
        """Exact population accuracy (the limit of App. D's test accuracy), shape ``(m,)``."""
        return _gaussian_accuracy(*self._moments(models))

    @property
    def beta(self) -> float:
        """λ_max(E xxᵀ)/4 = 1/4 for x ~ N(0, I)."""
        return 0.25

    @property
    def beta_sample(self) -> float:
        """Per-sample smoothness sup_x ‖x‖²/4 = ∞: Gaussian features violate Lemma 7."""
        return math.inf

    @property
    def ell_inf(self) -> float:
        """sup ℓ = ∞: Gaussian features are unbounded (guide §4)."""
        return math.inf

    @functools.cached_property
    def sigma2(self) -> float:
        """max_i E[‖x‖² sig'(xᵀw⋆_i)] = max_i E[Z² sig'(σ_iZ)] + (d − 1)E[sig'(σ_iZ)], exact.

        Here σ_i = ‖w⋆_i‖; decompose x along w⋆_i and its orthogonal complement.
        """
        n = self._norms
        return float(np.max(_j_z2_sigprime(n) + (self.d - 1) * _j_sigprime(n)))

    @functools.cached_property
    def mu(self) -> float:
        """min over ‖w‖ ≤ ρ of λ_min(∇²𝓡(w)), exact: ∇²𝓡(w) = a(I − ŵŵᵀ) + bŵŵᵀ.

        Here a = E[sig'(‖w‖Z)] and b = E[Z² sig'(‖w‖Z)] ≤ a. Both decrease in ‖w‖, so μ = b(ρ)
        (= 0 when 𝒲 is unbounded).
        """
        rho = self.data.radius
        if not math.isfinite(rho):
            return 0.0
        b = float(_j_z2_sigprime(np.array([rho]))[0])
        return b if self.d == 1 else min(b, float(_j_sigprime(np.array([rho]))[0]))


def appendix_d_clients(
    R: float,
    seed: Seed,
    *,
    m: int = 5,
    n: Any = 100,
    d: int = 100,
    radius: float = math.inf,
    weights: Any = None,
) -> AppendixDClients:
    """GM-A (guide §2.6, §4 tier 1): the App. D experiment's data, with exact metrics.

    * w⋆ ~ N(0, I_d); w⋆^(i) = w⋆ + R v_i, where v_i = g/‖g‖ (g ~ N(0, I_d)) is flipped to −v_i
      if ⟨v_i, w⋆⟩ > 0. This is our reading of "negatively correlated".
    * Features x ~ N(0, I_d); the paper does not say.
    * Labels P(y = +1 | x) = sig(xᵀw⋆^(i)).
    * App. D's defaults are m = 5, n_i = 100, d = 100, with R varied over [0, 20].

    :meth:`~AppendixDClients.excess_risk` and :meth:`~AppendixDClients.accuracy` are *exact*
    population quantities (1-D quadrature), not test-set estimates as in the paper.

    With d = n_i = 100 the local data are separable, so the ERMs do not exist unless a finite
    ``radius`` is given. ``local_erm``, ``global_erm`` and ``fedprox_erm`` then raise
    :class:`~fedtheory.errors.SolverError`. App. D itself runs SGD.

    Random draws, in order: w⋆; the m directions; the features (m·n_max·d normals); the label
    uniforms.

    Parameters
    ----------
    R
        Heterogeneity level ≥ 0.
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    m, n, d
        Clients (≥ 1), samples per client (int or length-m sequence), dimension (≥ 1).
    radius
        ρ of 𝒲 for the ERMs; default ∞. The optima need not lie inside.
    weights
        Client weights; default n_i/N.

    Examples
    --------
    >>> inst = appendix_d_clients(5.0, seed=0)
    >>> inst.data.features.shape, bool(np.all(inst.directions @ inst.w_common <= 0))
    ((5, 100, 100), True)
    """
    R = check_real("R", R, nonnegative=True)
    m = check_int("m", m, minimum=1)
    d = check_int("d", d, minimum=1)
    counts = _check_counts(n, m)
    p = _client_weights(weights, counts)
    rng = generator(seed)
    w_star = rng.standard_normal(d)
    V = rng.standard_normal((m, d))
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    V *= np.where(V @ w_star > 0, -1.0, 1.0)[:, None]
    optima = w_star + R * V
    rho = _check_radius(radius, math.inf, optima, strict=False)
    mask = _padding_mask(counts)
    features = rng.standard_normal((m, mask.shape[1], d)) * mask[:, :, None]
    margins = np.einsum("mnd,md->mn", features, optima)
    targets = _draw_labels(margins, mask, rng)
    data = FederatedDataset(features, targets, counts, "logistic", rho)
    return AppendixDClients(
        data=data,
        optima=readonly(optima),
        weights=p,
        R=R,
        w_common=readonly(w_star),
        directions=readonly(V),
    )
