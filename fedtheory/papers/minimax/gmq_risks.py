"""Closed forms on the quadratic model GM-Q that are not registered bounds (guide V1, V11, V16).

The expected risks of the estimators of [1]_ on GM-Q whose balanced forms are registered bounds
(``minimax.gmq.plt``, ``minimax.gmq.fedavg``, ``minimax.gmq.fedprox``,
``minimax.gmq.fedprox.tuned``, ``minimax.gmq.crossing``) evaluate those bounds; the per-client
forms for general weights and sample sizes, the tuned weight λ* and the fine-tuning equivalence
live here, once.

The FedProx risk on GM-Q for general weights and sample sizes [derived]
------------------------------------------------------------------------
Let x̄_i be the mean of client i's samples, x̄_**p** = Σ_j p_j x̄_j and θ = λ/(1 + λ). The
minimiser of (20) without constraint is w̃^g = x̄_**p**, w̃^(i) = (1 − θ) x̄_i + θ x̄_**p**
(the w^(i)-block gives w^(i) = (x̄_i + λ w^g)/(1 + λ), and the w^g-block w^g = Σ p_i w^(i)).
With x̄_j = w⋆^(j) + ē_j, E ē_j = 0, Cov ē_j = (s²/n_j) I independent,

    w̃^(i) − w⋆^(i) = θ (w̄_**p** − w⋆^(i)) + (1 − θ + θ p_i) ē_i + θ Σ_{j≠i} p_j ē_j,

so, with Q = Σ_j p_j²/n_j,

    E[IER_i] = ½ [ θ² ‖w̄_**p** − w⋆^(i)‖² + d s² ( θ² Q + (1 − θ)(1 − θ + 2θ p_i)/n_i ) ].

θ = 0 gives PureLocalTraining, d s²/(2n_i); θ = 1 gives FedAvg,
½(‖w̄_**p** − w⋆^(i)‖² + d s² Q). For equal n_i = n and p_i = 1/m (v = s²/n) it reduces to the
guide's V1 formula ½[dv((1 − θ)² + (1 − (1 − θ)²)/m) + θ²‖w̄ − w⋆^(i)‖²].

References
----------
.. [1] S. Chen, Q. Zheng, Q. Long & W. J. Su (2023), Minimax Estimation for Personalized
   Federated Learning: An Alternative between FedAvg and Local Training?, JMLR 24.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from fedtheory import bounds
from fedtheory._checks import check_int, check_real
from fedtheory.errors import ParameterError
from fedtheory.papers.minimax._client_model import WeightsLike, _check_lambda, _check_sizes
from fedtheory.papers.minimax.clients import QuadraticClients

__all__ = [
    "fine_tune_equivalent_lambda",
    "gmq_crossing_radius2",
    "gmq_expected_risk_fedavg",
    "gmq_expected_risk_fedprox",
    "gmq_expected_risk_plt",
    "gmq_minimax_envelope",
    "gmq_tuned_fedprox_lambda",
    "gmq_tuned_fedprox_risk",
]

#: The registered closed forms these functions evaluate (one source of truth per formula).
_PLT = bounds.get("minimax.gmq.plt")
_TUNED = bounds.get("minimax.gmq.fedprox.tuned")
_CROSSING = bounds.get("minimax.gmq.crossing")


@overload
def gmq_expected_risk_plt(d: int, noise: float, n: int) -> float: ...


@overload
def gmq_expected_risk_plt(d: int, noise: float, n: Sequence[int] | np.ndarray) -> np.ndarray: ...


def gmq_expected_risk_plt(d: int, noise: float, n: Any) -> float | np.ndarray:
    """E[IER_i] of PureLocalTraining on GM-Q: d s²/(2 n_i) (guide V1; Chen et al., Thm 4).

    Evaluates the registered bound ``minimax.gmq.plt``.

    Exact for the unconstrained local ERM x̄_i (E‖x̄_i − w⋆^(i)‖² = d s²/n_i), whatever R is.
    ``n`` is one sample size (returns a float) or a sequence of them (returns an array).

    Examples
    --------
    >>> gmq_expected_risk_plt(4, 0.5, 10)
    0.05
    """
    d = check_int("d", d, minimum=1)
    noise = check_real("noise", noise, positive=True)
    if isinstance(n, numbers.Integral) and not isinstance(n, bool):
        return float(_PLT.evaluate(d=d, s2=noise**2, n=check_int("n", n, minimum=1)))
    sizes = _check_sizes(n, len(n) if isinstance(n, Sequence | np.ndarray) else -1)
    return np.asarray(_PLT.evaluate(d=d, s2=noise**2, n=sizes), dtype=np.float64)


def _gmq(instance: Any) -> QuadraticClients:
    if not isinstance(instance, QuadraticClients):
        raise ParameterError(
            parameter="instance",
            value=type(instance).__name__,
            rule="must be a QuadraticClients (GM-Q) instance",
        )
    return instance


def gmq_expected_risk_fedprox(
    instance: QuadraticClients, lam: float, weights: WeightsLike = None
) -> np.ndarray:
    """E[IER_i] of the exact FedProx minimiser of (20) on GM-Q, per client, shape (m,).

    With θ = λ/(1 + λ), Q = Σ_j p_j²/n_j and w̄_**p** = Σ_j p_j w⋆^(j) ([derived], module
    docstring):

        E[IER_i] = ½ [ θ²‖w̄_**p** − w⋆^(i)‖² + d s² ( θ² Q + (1 − θ)(1 − θ + 2θ p_i)/n_i ) ].

    The expectation is over the samples given the optima of ``instance``, for the
    unconstrained estimator (the instance's ERMs on replicates without an active projection,
    :meth:`QuadraticClients.projection_active`). λ = 0 gives :func:`gmq_expected_risk_plt`,
    λ = inf :func:`gmq_expected_risk_fedavg`.
    """
    inst = _gmq(instance)
    lam = _check_lambda(lam)
    p = inst._weights(weights)
    theta = 1.0 if math.isinf(lam) else lam / (1.0 + lam)
    counts = inst.data.counts
    bias = np.sum((p @ inst.optima - inst.optima) ** 2, axis=1)
    q = float(np.sum(p**2 / counts))
    variance = theta**2 * q + (1.0 - theta) * (1.0 - theta + 2.0 * theta * p) / counts
    return np.asarray(0.5 * (theta**2 * bias + inst.d * inst.noise**2 * variance))


def gmq_expected_risk_fedavg(instance: QuadraticClients, weights: WeightsLike = None) -> np.ndarray:
    """E[IER_i] of the FedAvg ERM (8) on GM-Q: ½(‖w̄_**p** − w⋆^(i)‖² + d s² Σ_j p_j²/n_j).

    Per client, shape (m,), for the unconstrained ERM x̄_**p** (guide V1, V15, V16). The
    **p**-average Σ p_i E[IER_i] is ½(B(a) + d s² Σ p_j²/n_j). At R = 0 the ratio of the
    fair-weight to the sample-weight risk is (N/m²) Σ 1/n_i (guide V16).
    """
    return gmq_expected_risk_fedprox(instance, math.inf, weights)


def _balanced(d: Any, noise: Any, n: Any, m: Any) -> tuple[int, float, int, int]:
    return (
        check_int("d", d, minimum=1),
        check_real("noise", noise, positive=True),
        check_int("n", n, minimum=1),
        check_int("m", m, minimum=1),
    )


def gmq_tuned_fedprox_risk(d: int, noise: float, n: int, m: int, R: float) -> float:
    """min_λ E[IER_i] of FedProx on balanced GM-Q: ½[dv/m + R²V/(R² + V)] (guide V11(b)).

    Evaluates the registered bound ``minimax.gmq.fedprox.tuned`` (and its limit ½dv at
    m = 1, R = 0, where the bound reads 0/0).

    v = s²/n, V = dv(1 − 1/m), for equal n_i = n, p_i = 1/m and ‖w̄ − w⋆^(i)‖ = R (antipodal
    directions). The risk ½[dv/m + V(1 − θ)² + θ²R²] is minimised at θ* = V/(V + R²), i.e.
    λ* = V/R² (:func:`gmq_tuned_fedprox_lambda`): a harmonic combination of FedAvg's bias R²
    and local training's excess variance V, below both endpoints.

    Examples
    --------
    >>> round(gmq_tuned_fedprox_risk(2, 1.0, 10, 2, 0.0), 12)
    0.05
    """
    d, noise, n, m = _balanced(d, noise, n, m)
    R = check_real("R", R, nonnegative=True)
    if m == 1 and R == 0.0:  # V = R² = 0: the bound's R²V/(R² + V) is 0/0, its limit 0
        return 0.5 * d * noise**2 / n
    return float(_TUNED.evaluate(d=d, s2=noise**2, n=n, m=m, R=R))


def gmq_tuned_fedprox_lambda(d: int, noise: float, n: int, m: int, R: float) -> float:
    """The optimal FedProx weight λ* = V/R² on balanced GM-Q (guide V11(b)); inf at R = 0."""
    d, noise, n, m = _balanced(d, noise, n, m)
    R = check_real("R", R, nonnegative=True)
    if R == 0.0:
        return math.inf
    return d * noise**2 / n * (1.0 - 1.0 / m) / R**2


def gmq_crossing_radius2(d: int, noise: float, n: int, N: int) -> float:
    """R*² = d s²(1/n − 1/N): where FedAvg and PureLocalTraining have equal risk on GM-Q.

    Evaluates the registered bound ``minimax.gmq.crossing``.

    Balanced data (n_i = n, N = mn, p_i = 1/m): d s²/(2n) = ½(R² + d s²/N) at R² = R*²
    (guide §3.3, V6).

    Examples
    --------
    >>> round(gmq_crossing_radius2(3, 1.0, 10, 40), 12)
    0.225
    """
    d = check_int("d", d, minimum=1)
    noise = check_real("noise", noise, positive=True)
    n = check_int("n", n, minimum=1)
    N = check_int("N", N, minimum=n)
    return float(_CROSSING.evaluate(d=d, s2=noise**2, n=n, N=N))


def gmq_minimax_envelope(d: int, noise: float, n: int, m: int, R: Any) -> float | np.ndarray:
    """min(ds²/n, R²) + ds²/N: the minimax rate of Theorem 8 / Corollary 9 on balanced GM-Q.

    With N = mn. The better of local training and FedAvg has expected risk between ½·m/(m + 1)
    and ½ times this envelope (guide V5(c) [ours]): the oracle dichotomy is minimax optimal up
    to that constant. ``R`` is one radius or an array of them.

    Examples
    --------
    >>> round(gmq_minimax_envelope(2, 1.0, 10, 4, 0.1), 12)
    0.06
    """
    d, noise, n, m = _balanced(d, noise, n, m)
    radius = np.asarray(R, dtype=np.float64)
    if radius.ndim == 0:
        radius = np.asarray(check_real("R", float(radius), nonnegative=True))
    elif not np.all(np.isfinite(radius)) or np.any(radius < 0):
        raise ParameterError(parameter="R", value="array", rule="must be finite and ≥ 0")
    variance = d * noise**2
    envelope = np.minimum(variance / n, radius**2) + variance / (m * n)
    return float(envelope) if envelope.ndim == 0 else np.asarray(envelope)


def fine_tune_equivalent_lambda(step: float, k: int) -> float:
    """λ_k = (1 − η)^k/(1 − (1 − η)^k): fine-tuning ≡ FedProx on GM-Q (guide V11(d)).

    k full-batch gradient steps of size η on L_i(w) = ½‖w − x̄_i‖² + const from x̄_**p** give
    w_k = (1 − θ) x̄_i + θ x̄_**p** with θ = (1 − η)^k, the FedProx solution (20) with
    θ = λ/(1 + λ), i.e. λ = θ/(1 − θ). k = 0 gives inf (FedAvg), η = 1 gives 0 (local ERM).

    Parameters
    ----------
    step
        η in (0, 1] (larger steps would make θ negative for odd k: not a FedProx solution).
    k
        Number of steps, ≥ 0.

    Examples
    --------
    >>> fine_tune_equivalent_lambda(0.5, 1)
    1.0
    """
    step = check_real("step", step, positive=True)
    if step > 1.0:
        raise ParameterError(parameter="step", value=step, rule="must lie in (0, 1]")
    k = check_int("k", k, minimum=0)
    if k == 0:
        return math.inf
    if step == 1.0:
        return 0.0
    log_theta = k * math.log1p(-step)
    return math.exp(log_theta) / -math.expm1(log_theta)
