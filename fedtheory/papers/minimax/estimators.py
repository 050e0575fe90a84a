"""The estimators Theorems 4 and 6 analyse, as exact ERMs, and the dichotomous strategy of §3.3.

Chen, Zheng, Long & Su analyse *exact minimizers*, not iterative algorithms: local training
(PureLocalTraining, eq. (3)) is argmin_𝒲 L_i(w, S_i) per client, FedAvg is the minimizer of
Σ_i p_i L_i(w, S_i) (eq. (8)), FedProx the joint minimizer of (20). These functions return them
for any federated problem of :mod:`fedtheory.problems` (closed forms on GM-Q and linear
regression, damped Newton with an exact treatment of the ball on the logistic models); the
iterative algorithms of the paper are :func:`~fedtheory.algorithms.fedavg` and friends.

The dichotomy (§3.3) outputs FedAvg when R² is below a threshold and local training above it
(:func:`oracle_dichotomy`); its practical version runs both and deploys the one with the lower
held-out loss (:func:`validated_dichotomy`).

Examples
--------
>>> from fedtheory.papers.minimax import quadratic_clients
>>> inst = quadratic_clients(4, 50, 3, 0.5, 1.0, seed=0)
>>> local_training(inst).shape, fedavg_erm(inst).shape
((4, 3), (3,))
>>> bool(np.allclose(fedprox_erm(inst, 1e9)[1], fedavg_erm(inst), atol=1e-6))
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from fedtheory._checks import check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.problems.dataset import FederatedDataset

__all__ = [
    "DichotomyChoice",
    "FederatedProblem",
    "fedavg_erm",
    "fedprox_erm",
    "local_training",
    "oracle_dichotomy",
    "validated_dichotomy",
]


class FederatedProblem(Protocol):
    """What the ERM functions need from a problem instance (every family of ``problems``)."""

    data: FederatedDataset
    weights: np.ndarray

    def local_erm(self) -> np.ndarray: ...

    def global_erm(self, weights: Any = None) -> np.ndarray: ...

    def fedprox_erm(self, lam: float, weights: Any = None) -> tuple[np.ndarray, np.ndarray]: ...


def _problem(instance: Any) -> FederatedProblem:
    for name in ("data", "weights", "local_erm", "global_erm", "fedprox_erm"):
        if not hasattr(instance, name):
            raise ParameterError(
                parameter="instance",
                value=type(instance).__name__,
                rule=f"must be a federated problem of fedtheory.problems (it has no {name!r})",
            )
    return instance  # type: ignore[no-any-return]


def local_training(instance: Any) -> np.ndarray:
    """PureLocalTraining (eq. (3)): each client's exact ERM over 𝒲, shape ``(m, d)``."""
    return _problem(instance).local_erm()


def fedavg_erm(instance: Any, weights: Any = None) -> np.ndarray:
    """The FedAvg estimator of Theorem 6: the exact minimizer of Σ_i p_i L_i(w, S_i) (eq. (8)).

    ``weights`` default to the instance's (sample-proportional n_i/N unless it was built with
    others); the returned model ``(d,)`` is every client's.
    """
    return _problem(instance).global_erm(weights)


def fedprox_erm(instance: Any, lam: float, weights: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The exact minimizer (w̃^g, {w̃^(i)}) of the FedProx objective (20).

    λ = 0 gives local training, λ → ∞ FedAvg; ``lam`` must be ≥ 0 (``inf`` allowed).
    """
    problem = _problem(instance)
    try:
        value = float(lam)
    except (TypeError, ValueError):
        value = float("nan")
    if not value >= 0:  # NaN fails too
        raise ParameterError(parameter="lam", value=lam, rule="must be >= 0 (inf: FedAvg)")
    return problem.fedprox_erm(value, weights)


@dataclass(frozen=True)
class DichotomyChoice:
    """The outcome of a dichotomous strategy (§3.3).

    Attributes
    ----------
    models
        The deployed personalized models, shape ``(m, d)``.
    choice
        ``"fedavg"`` or ``"local"``.
    held_out_losses
        For :func:`validated_dichotomy`: the pooled held-out losses of both candidates.
    """

    models: np.ndarray
    choice: Literal["fedavg", "local"]
    held_out_losses: dict[str, float] = dataclasses.field(default_factory=dict)


def oracle_dichotomy(instance: Any, threshold: float) -> DichotomyChoice:
    """FedAvg if R² ≤ ``threshold``, local training otherwise (§3.3, with the R of the instance).

    The paper's rule uses the threshold (‖ℓ‖∞/μ)·m/N (``minimax.dichotomy.threshold``), which
    is only an order; on GM-Q the exact switch is ds²(1/n − 1/N) (``minimax.gmq.crossing``).
    """
    problem = _problem(instance)
    threshold = check_real("threshold", threshold, nonnegative=True)
    R = float(instance.R)
    if threshold >= R * R:
        m = problem.data.m
        return DichotomyChoice(np.tile(problem.global_erm(), (m, 1)), "fedavg")
    return DichotomyChoice(problem.local_erm(), "local")


def validated_dichotomy(instance: Any, fraction: float, seed: Seed) -> DichotomyChoice:
    """The practical dichotomy of §3.3: choose by held-out loss, then refit on all the data.

    Each client holds out a random ``fraction`` of its samples; FedAvg and local training are
    fitted on the rest; the candidate with the lower pooled held-out loss (Σ_i Σ_j ℓ over all
    held-out samples — a global choice, as the text reads) is refitted on all the data and
    deployed. The paper does not analyse the split; guide V17 checks it empirically.
    """
    problem = _problem(instance)
    train, held_out = problem.data.split(fraction, generator(seed))
    fitted = dataclasses.replace(problem, data=train)  # type: ignore[type-var]
    losses = {
        "fedavg": float(held_out.counts @ held_out.empirical_risk(fitted.global_erm())),
        "local": float(held_out.counts @ held_out.empirical_risk(fitted.local_erm())),
    }
    if losses["fedavg"] <= losses["local"]:
        models = np.tile(problem.global_erm(), (problem.data.m, 1))
        return DichotomyChoice(models, "fedavg", losses)
    return DichotomyChoice(problem.local_erm(), "local", losses)
