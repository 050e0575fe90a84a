"""Federated logistic-regression instances with exact population quantities: the shared model.

Three generative models of the reading guide (§5.1) for Chen, Zheng, Long & Su, "Minimax
Estimation for Personalized Federated Learning". In each, client i draws labels
y | x ~ ±1 with P(y = +1 | x) = sig(xᵀw⋆^(i)), the model of Lemma 7.

- :func:`~fedtheory.papers.minimax.logistic_clients` (**GM-L**, Lemma 7, tier 2 of guide §4).

  * Rademacher features x ∈ {±1}^d, so c_X = 1.
  * w⋆^(i) = w_0 + R u_i with paired antipodal unit directions u_i.
  * Every population quantity is exact: it enumerates the 2^d feature vectors.

- :func:`~fedtheory.papers.minimax.appendix_d_clients` (**GM-A**, the App. D replica, tier 1).

  * Gaussian features, w⋆ ~ N(0, I_d), w⋆^(i) = w⋆ + R v_i with v_i "negatively correlated"
    with w⋆.
  * The population risk and accuracy are exact one-dimensional Gaussian integrals.

- :func:`~fedtheory.papers.minimax.assouad_clients` (**GM-P**, the prior in the proof of Theorem 8).

  * w⋆^(i) = δ_i v^(i) with v^(i) uniform on {±1}^d.
  * :func:`~fedtheory.papers.minimax.bayes_estimate` gives the exact posterior mean by
    enumerating the 2^d hypotheses.

Every instance is a frozen dataclass with the interface shared by the federated problems of
the toolkit (the quadratic models implement the same one).

* Attributes: ``data``, ``optima``, ``weights``, ``R``, ``beta``, ``mu``, ``sigma2``, ``ell_inf``,
  ``center``.
* Methods: ``heterogeneity()``, ``excess_risk(models)``, ``local_erm()``, ``global_erm()``,
  ``fedprox_erm(lam)``, ``with_sample_replaced(...)``.

The ERMs are exact minimizers over the ball 𝒲 = {‖w‖ ≤ ``data.radius``}, computed by
:mod:`fedtheory.exact.logistic`.

Assumption A constants (Lemma 7), as computed here
--------------------------------------------------
``beta``
    λ_max(E xxᵀ)/4. This is the exact smoothness constant of the *population* risks: their
    Hessian E[sig'(xᵀw)xxᵀ] ⪯ E[xxᵀ]/4, with equality at w = 0 ∈ 𝒲. It equals 1/4 for both
    feature laws. The per-sample constant of Lemma 7, sup_x ‖x‖²/4 = c_X²d/4, is ``beta_sample``.
``mu``
    min over w ∈ 𝒲 of λ_min(∇²𝓡_i(w)), the population strong convexity on the ball. The
    Hessian does not depend on the labels, so μ is the same for every client, and it decreases
    along rays, so the minimum is on the sphere ‖w‖ = ρ. Gaussian features give a closed form;
    Rademacher features need a numerical minimization over the sphere (see
    :attr:`~fedtheory.papers.minimax.RademacherProblem.mu`).
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
from scipy import special

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_weights
from fedtheory.errors import ParameterError
from fedtheory.exact.logistic import (
    ERMInfo,
    FedProxInfo,
    _check_lam,
    erm_batch_unchecked,
    fedprox_unchecked,
)
from fedtheory.problems.dataset import FederatedDataset

__all__ = ["MAX_ENUMERATION_DIM", "MAX_POSTERIOR_DIM", "LogisticProblem"]


#: Largest d for which the 2^d Rademacher feature vectors are enumerated (GM-L, GM-P).
MAX_ENUMERATION_DIM = 16


#: Largest d for the exact posterior mean of GM-P (2^d hypotheses per client).
MAX_POSTERIOR_DIM = 10


_SQRT_2PI = math.sqrt(2.0 * math.pi)


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
    return np.asarray(np.maximum(np.where(small, near, far), 0.0))


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


def _check_enumeration_dim(d: Any) -> int:
    """``d`` ≥ 1 and small enough for the exact risks, which enumerate the 2^d features."""
    dim = check_int("d", d, minimum=1)
    if dim > MAX_ENUMERATION_DIM:
        raise ParameterError(
            parameter="d",
            value=dim,
            rule=f"must be at most {MAX_ENUMERATION_DIM} (exact risks enumerate 2^d features)",
        )
    return dim


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
        data = self.data.with_sample_replaced(client, index, features_row, target)
        self._check_row(data.features[client, index])
        if target not in (-1, 1, -1.0, 1.0):
            raise ParameterError(parameter="target", value=target, rule="must be −1 or +1")
        return dataclasses.replace(self, data=data)
