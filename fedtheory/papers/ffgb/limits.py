"""Exact limit points and identities of the ffgb algorithms (reading guide §3.2, §3.8, §5).

With the scale oracle h = γφ every client round is linear in φ, and as the steps vanish one
round moves the iterate by −η[(K − c_K)·(1/N)Σ_i ∇R_i[f] + Kμf] [ours, §3.8], where

    c_K = Σ_{k=1}^K (1 − γ)^k = (1 − γ)(1 − (1 − γ)^K)/γ

is what the residual reset throws away each round. Hence the limit points:

- FFGB (Algorithm 2): the pointwise solution of (1/N)Σ_i ∇R_i[f](x) + μ_eff f(x) = 0 with
  μ_eff = μK/(K − c_K) (:func:`ffgb_limit`); for α_i = α it is argmin R + (μ_eff/2)‖f‖²_α,
  f* with μ replaced by μ_eff. The no-residual variant has μ_eff = μ/γ for every K (its floor
  does not shrink), and a persistent residual has μ_eff = μ (the limit is f* when α_i = α).
- FFGB.C with the zero extension (clipping inactive, Lemma D.1): at every atom,
  (1/N)Σ_{i: x ∈ supp α_i} E_{β_i^x}∇ℓ(v) + μ_eff v = 0 (:func:`ffgb_c_limit`) — it ignores the
  density ratios α_i(x)/α(x) that f* weighs by: the source of FFGB.C's bias.
- FFGB.L: (1 − c_K/K)·ū with ū = (1/N)Σ u_i (:func:`ffgb_l_limit`); the literal query of
  Algorithm 4, WO(Δ − u_i), converges (the residual is reset every round) to the wrong point
  −(1/K)Σ_k((1 + γ)^k − 1)·ū [ours, revised D3].

Remark 3.1 (FFGB.L in one shot): the learners h_i^k do not depend on t or g for a deterministic
oracle that ignores them, so with π_t = Π_k(1 − η^{k,t}) and w_{k,t} = η^{k,t}Π_{k′>k}(1 −
η^{k′,t}), f^{t+1} = π_t f^t + (1/N)Σ_iΣ_k w_{k,t} h_i^k (:func:`ffgb_l_learners`,
:func:`one_shot_ffgb_l`).

The error-feedback telescoping identity (§3.2, used in (31)): with Δ^0 = 0 and
ĥ^k = h^k + μg^k, Σ_{k=1}^K ⟨f* − g^k, h^k − ∇R[g^k]⟩ = ⟨g^K − f*, Δ^K⟩ +
Σ_{k=1}^{K−1} η^k⟨ĥ^k, Δ^k⟩ in L²(α_i) (:func:`telescoping_sides`).

c_K and μ_eff are also registered as exact bounds (``ffgb.limit.c-k``, ``ffgb.limit.mu-eff``
in :mod:`fedtheory.bounds`); these numerics do not import the bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._pointwise import solve_pointwise
from fedtheory.papers.ffgb.lipschitz import LipschitzData
from fedtheory.papers.ffgb.oracles import weak_learner
from fedtheory.papers.ffgb.populations import AtomPopulation

__all__ = [
    "c_k",
    "ffgb_c_limit",
    "ffgb_l_learners",
    "ffgb_l_limit",
    "ffgb_limit",
    "mu_eff",
    "one_shot_ffgb_l",
    "telescoping_sides",
]


def _gamma(gamma: Any) -> float:
    value = check_real("gamma", gamma, positive=True)
    if value > 1.0:
        raise ParameterError(parameter="gamma", value=value, rule="must be in (0, 1]")
    return value


def c_k(gamma: float, K: int) -> float:
    """c_K = (1 − γ)(1 − (1 − γ)^K)/γ = Σ_{k=1}^K (1 − γ)^k (guide §3.8).

    Examples
    --------
    >>> c_k(0.5, 2)   # 1/2 + 1/4
    0.75
    """
    gamma = _gamma(gamma)
    K = check_int("K", K, minimum=1)
    return (1.0 - gamma) * (1.0 - (1.0 - gamma) ** K) / gamma


def mu_eff(mu: float, gamma: float, K: int, *, residual: str = "reset") -> float:
    """The effective regularisation of the scale-oracle limit (guide §3.8).

    ``"reset"`` (Algorithm 2): μK/(K − c_K); ``"none"``: μ/γ; ``"persistent"``: μ.

    Examples
    --------
    >>> mu_eff(0.1, 0.5, 1) == mu_eff(0.1, 0.5, 7, residual="none") == 0.2
    True
    """
    mu = check_real("mu", mu, positive=True)
    gamma = _gamma(gamma)
    K = check_int("K", K, minimum=1)
    if residual == "reset":
        return mu * K / (K - c_k(gamma, K))
    if residual == "none":
        return mu / gamma
    if residual == "persistent":
        return mu
    raise ParameterError(
        parameter="residual", value=residual, rule="must be 'reset', 'none' or 'persistent'"
    )


def _scale_limit(population: AtomPopulation, effective: float) -> np.ndarray:
    """Per atom: (1/N)Σ_i ∇R_i[v](x) (the extension off supp α_i) + μ_eff v = 0."""
    n, atoms, outputs = population.num_clients, population.num_atoms, population.outputs
    supports = population.supports
    labels = population.labels.reshape(n, atoms, outputs)
    extension = population.kernel_view().extension.reshape(n, atoms, outputs)
    a = supports.sum(axis=0) / n
    c = (
        np.where(supports[..., None], labels, 0.0).sum(axis=0)
        - np.where(supports[..., None], 0.0, extension).sum(axis=0)
    ) / n
    rhs = c[:, 0] if outputs == 1 else c
    value = solve_pointwise(population.loss, a, np.full(atoms, effective), rhs)
    return readonly(np.asarray(value).reshape(population.function_shape))


def ffgb_limit(
    population: AtomPopulation, gamma: float, K: int, *, residual: str = "reset"
) -> np.ndarray:
    """f_∞ of FFGB with the scale oracle: (1/N)Σ_i ∇R_i[f](x) + μ_eff f(x) = 0 at every atom.

    For α_i = α this is argmin R + (μ_eff/2)‖f‖²_α (logistic: per-atom Newton on
    σ(v) + μ_eff v = q̄(x); square: m̄/(1 + μ_eff)). Off supp α_i a client contributes its
    extension value.
    """
    if not isinstance(population, AtomPopulation):
        raise ParameterError(
            parameter="population",
            value=type(population).__name__,
            rule="must be an AtomPopulation",
        )
    return _scale_limit(population, mu_eff(population.mu, gamma, K, residual=residual))


def ffgb_c_limit(population: AtomPopulation, gamma: float, K: int) -> np.ndarray:
    """f_∞ of FFGB.C (Algorithm 5) with the scale oracle and the zero extension (§3.8):
    (1/N)Σ_{i: x ∈ supp α_i} E_{β_i^x}∇ℓ(v) + μ_eff v = 0 at every atom (clipping inactive:
    Lemma D.1 on the supports, and off them the zero extension keeps h = 0)."""
    if not isinstance(population, AtomPopulation) or population.extension != "zero":
        raise ParameterError(
            parameter="population",
            value=getattr(population, "extension", type(population).__name__),
            rule="must be an AtomPopulation with the zero extension (otherwise the clip is active)",
        )
    return _scale_limit(population, mu_eff(population.mu, gamma, K))


def ffgb_l_limit(
    data: LipschitzData, gamma: float, K: int, *, query: str = "corrected"
) -> np.ndarray:
    """f_∞ of FFGB.L with the scale oracle on the data's points (§3.8, D3).

    ``query="corrected"``: (1 − c_K/K)·ū; ``"printed"`` (WO(Δ − u_i)):
    −(1/K)Σ_{k=1}^K((1 + γ)^k − 1)·ū, with ū = (1/N)Σ_i u_i.
    """
    if not isinstance(data, LipschitzData):
        raise ParameterError(
            parameter="data", value=type(data).__name__, rule="must be a LipschitzData"
        )
    gamma = _gamma(gamma)
    K = check_int("K", K, minimum=1)
    mean = data.targets.mean(axis=0)
    if query == "corrected":
        return readonly((1.0 - c_k(gamma, K) / K) * mean)
    if query == "printed":
        k = np.arange(1, K + 1)
        return readonly(-np.mean((1.0 + gamma) ** k - 1.0) * mean)
    raise ParameterError(parameter="query", value=query, rule="must be 'corrected' or 'printed'")


def ffgb_l_learners(
    data: LipschitzData, oracle: Any, K: int, *, query: str = "corrected"
) -> np.ndarray:
    """Every client's K learners h_i^1..h_i^K of FFGB.L, computed once (Remark 3.1).

    Runs the recursion h = WO(±(u_i − Δ)), Δ ← Δ − u_i + h with the oracle's kernel (round 0,
    g = 0). Valid for oracles that depend on neither the round nor the iterate (the
    ``random`` and ``adv`` oracles are refused).

    Returns
    -------
    numpy.ndarray
        ``(N, K, P)``.
    """
    if getattr(type(oracle), "kind", None) in ("random", "adv"):
        raise ParameterError(
            parameter="oracle",
            value=type(oracle).__name__,
            rule="Remark 3.1 needs learners that depend on neither the round nor the iterate",
        )
    K = check_int("K", K, minimum=1)
    sign = {"corrected": 1.0, "printed": -1.0}.get(query)
    if sign is None:
        raise ParameterError(
            parameter="query", value=query, rule="must be 'corrected' or 'printed'"
        )
    bind = getattr(oracle, "bind", None)
    d = data.num_points
    if callable(bind):
        oracle = bind(
            dimension=d, points=data.points, target=data.optimum, seeds=np.zeros(1, np.uint64)
        )
    out = np.empty((data.num_clients, K, d))
    g = np.zeros(d)
    for i in range(data.num_clients):
        weights = kernel_array(data.alpha[i])
        target = data.targets[i]
        delta = np.zeros(d)
        for k in range(1, K + 1):
            phi = kernel_array(sign * (target - delta))
            h = np.empty(d)
            weak_learner(oracle, 0, 0, i, k, phi, weights, g, h)
            delta = delta - target + h
            out[i, k - 1] = h
    return readonly(out)


def one_shot_ffgb_l(
    learners: Any,
    *,
    rounds: int,
    eta0: float = 4.0,
    k0: float = 3.0,
    init: Any = None,
) -> np.ndarray:
    """f^T of FFGB.L by Remark 3.1's closed form: f^{t+1} = π_t f^t + (1/N)Σ_iΣ_k w_{k,t}h_i^k.

    Parameters
    ----------
    learners
        ``(N, K, P)`` the learners of :func:`ffgb_l_learners`.
    rounds
        T ≥ 1.
    eta0, k0
        η^{k,t} = η0/(tK + k + k0).
    init
        f^0 (default 0).

    Returns
    -------
    numpy.ndarray
        ``(T + 1, P)``: f^0, …, f^T.
    """
    h = np.asarray(learners, dtype=np.float64)
    if h.ndim != 3:
        raise ParameterError(
            parameter="learners",
            value=f"array of shape {h.shape}",
            rule="must have shape (N, K, P)",
        )
    rounds = check_int("rounds", rounds, minimum=1)
    eta0 = check_real("eta0", eta0, positive=True)
    k0 = check_real("k0", k0, nonnegative=True)
    K, d = h.shape[1], h.shape[2]
    mean = h.mean(axis=0)
    f = np.zeros(d) if init is None else np.asarray(init, dtype=np.float64).reshape(d)
    out = np.empty((rounds + 1, d))
    out[0] = f
    k = np.arange(1, K + 1)
    for t in range(rounds):
        eta = eta0 / (t * K + k + k0)
        keep = 1.0 - eta
        after = np.append(np.cumprod(keep[::-1])[::-1][1:], 1.0)  # Π_{k′>k}(1 − η^{k′})
        weights = eta * after
        f = np.prod(keep) * f + weights @ mean
        out[t + 1] = f
    return readonly(out)


def telescoping_sides(population: AtomPopulation, log: Any, client: int) -> tuple[float, float]:
    """Both sides of the error-feedback telescoping identity (guide §3.2, check A3).

    LHS = Σ_{k=1}^K ⟨f* − g^k, h^k − ∇R_i[g^k]⟩_{α_i}, with ∇R_i[g^k] recomputed by the
    population (numpy, not read from the log); RHS = ⟨g^K − f*, Δ^K⟩_{α_i} +
    Σ_{k=1}^{K−1} η^k⟨h^k + μg^k, Δ^k⟩_{α_i}, from one logged FFGB round (Δ^0 = 0: residual
    ``"reset"``, no clipping).

    Parameters
    ----------
    population
        The run's population.
    log
        The run's :class:`~fedtheory.papers.ffgb.algorithms.RoundLog` (one replicate).
    client
        i, a client that took part in the logged round.
    """
    i = check_int("client", client, minimum=0)
    iterates = np.asarray(log.iterates[i])
    if not np.all(np.isfinite(iterates)):
        raise ParameterError(
            parameter="client", value=i, rule="did not take part in the logged round"
        )
    weights = population.alpha[i]
    f_star = population.optimum

    def inner(a: np.ndarray, b: np.ndarray) -> float:
        products = a * b if a.ndim == 1 else np.sum(a * b, axis=-1)
        return float(weights @ products)

    K = log.steps.shape[0]
    g = iterates
    h = np.asarray(log.learners[i])
    delta = np.asarray(log.residuals[i])
    lhs = sum(inner(f_star - g[k], h[k] - population.risk_gradient(i, g[k])) for k in range(K))
    rhs = inner(g[K - 1] - f_star, delta[K])
    for k in range(K - 1):
        rhs += float(log.steps[k]) * inner(h[k] + population.mu * g[k], delta[k + 1])
    return float(lhs), float(rhs)
