"""Federated logistic regression: the convex F of the Theorem C.1(ii) checks (guide §4.7, check 12).

Client i holds samples (z_j, y_j), y_j ∈ {−1, +1}, and

    f_i(x) = (1/n_i) Σ_j log(1 + exp(−y_j z_jᵀx)) + (λ/2)‖x‖²,   F = (1/N) Σ_i f_i,

a smooth convex F (strongly convex when λ > 0) on ℝ^d (``box`` is False). The exact minimiser
comes from the core's damped-Newton solver (:func:`fedtheory.exact.logistic_erm`, with sample
weights 1/(N n_i)). :func:`federated_logistic` draws heterogeneous synthetic clients with
covariate shift (client-specific mean shifts) and label shift (Dirichlet class proportions).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.exact import logistic_erm
from fedtheory.papers.fzoos._views import LogisticView
from fedtheory.papers.fzoos.problems import ZerothOrderProblem

__all__ = ["FederatedLogistic", "federated_logistic"]


class FederatedLogistic(ZerothOrderProblem):
    """Federated (ridge-regularised) logistic regression (module docstring).

    Parameters
    ----------
    features
        One (n_i, d) array per client (n_i ≥ 1, the same d).
    labels
        One (n_i,) array of ±1 labels per client.
    ridge
        λ ≥ 0 (default 0: F convex, α = 0).

    Raises
    ------
    ParameterError
        If there is no client, a shape disagrees, a label is not ±1 or λ < 0.
    """

    box = False

    def __init__(self, features: Any, labels: Any, *, ridge: float = 0.0) -> None:
        if len(features) < 1 or len(features) != len(labels):
            raise ParameterError(
                parameter="features",
                value=f"{len(features)} clients, {len(labels)} label arrays",
                rule="must be one non-empty list per client, of equal lengths",
            )
        Z = [np.asarray(f, dtype=np.float64) for f in features]
        Y = [np.asarray(y, dtype=np.float64) for y in labels]
        d = Z[0].shape[1] if Z[0].ndim == 2 else 0
        for i, (z, y) in enumerate(zip(Z, Y, strict=True)):
            if z.ndim != 2 or z.shape[1] != d or d < 1 or z.shape[0] < 1:
                raise ParameterError(
                    parameter="features",
                    value=f"client {i}: shape {z.shape}",
                    rule="must be (n_i ≥ 1, d)",
                )
            if y.shape != (z.shape[0],) or not np.all(np.abs(y) == 1.0):
                raise ParameterError(
                    parameter="labels", value=f"client {i}", rule="must be n_i labels in {−1, +1}"
                )
            if not np.all(np.isfinite(z)):
                raise ParameterError(
                    parameter="features", value=f"client {i}", rule="must be finite"
                )
        self.ridge = check_real("ridge", ridge, nonnegative=True)
        self._N, self._d = len(Z), d
        offsets = np.concatenate([[0], np.cumsum([z.shape[0] for z in Z])]).astype(np.int64)
        self._view = LogisticView(
            kernel_array(np.concatenate(Z)), kernel_array(np.concatenate(Y)), offsets, self.ridge
        )
        self._solution: tuple[np.ndarray, float] | None = None

    @property
    def sample_weights(self) -> np.ndarray:
        """1/(N n_i) for every pooled sample: F is the weighted pooled risk."""
        counts = np.diff(self._view.offsets)
        return readonly(np.repeat(1.0 / (self._N * counts), counts))

    def constants(self) -> dict[str, float]:
        """``smoothness`` β = λ_max(Σ_j s_j z_j z_jᵀ)/4 + λ (sig′ ≤ 1/4; a valid bound, the
        pooled form of λ_max(XᵀX)/(4n)); ``strong_convexity`` α = λ (valid; 0 when λ = 0)."""
        Z = self._view.features
        gram = (Z * self.sample_weights[:, None]).T @ Z
        beta = float(np.linalg.eigvalsh(gram)[-1]) / 4.0 + self.ridge
        return {"smoothness": beta, "strong_convexity": self.ridge}

    def _solve(self) -> tuple[np.ndarray, float]:
        if self._solution is None:
            w, _ = logistic_erm(
                self._view.features, self._view.labels,
                sample_weights=self.sample_weights, ridge=self.ridge,
            )  # fmt: skip
            self._solution = (readonly(w), self.global_value(w))
        return self._solution

    def global_optimum(self) -> np.ndarray:
        """x* = argmin F by damped Newton (:func:`fedtheory.exact.logistic_erm`).

        Raises
        ------
        SolverError
            If λ = 0 and the pooled data are (quasi-)separable (no minimiser exists).
        """
        return np.array(self._solve()[0])

    @property
    def optimum_value(self) -> float:
        """F* = F(x*)."""
        return self._solve()[1]

    def client_optima(self) -> np.ndarray:
        """argmin f_i for every client (exact Newton; ``SolverError`` for separable clients
        when λ = 0)."""
        out = np.empty((self._N, self._d))
        o = self._view.offsets
        for i in range(self._N):
            rows = slice(o[i], o[i + 1])
            out[i], _ = logistic_erm(
                self._view.features[rows], self._view.labels[rows], ridge=self.ridge
            )
        return out


def federated_logistic(
    d: int = 10,
    N: int = 5,
    *,
    samples: int = 100,
    covariate_shift: float = 1.0,
    label_concentration: float = 0.5,
    flip: float = 0.1,
    ridge: float = 0.0,
    seed: Seed = 0,
) -> FederatedLogistic:
    """Heterogeneous synthetic clients for :class:`FederatedLogistic`.

    Client i draws its class proportions (π_i, 1 − π_i) from Dirichlet(c, c) (label shift,
    c = ``label_concentration``; small c, strong shift) and a mean shift m_i ~ N(0, s²I)
    (covariate shift, s = ``covariate_shift``). Each of its ``samples`` points has a class
    y ∈ {−1, +1} (probability π_i for +1), features y·μ + m_i + N(0, I) in the first d − 1
    coordinates (μ ~ N(0, I/(d − 1)) shared) and a constant 1 in the last (the intercept);
    a fraction ``flip`` of the labels is flipped at random, so the pooled data are not
    separable and x* exists even with λ = 0. Draw order: μ, then per client π_i, m_i,
    labels, noise, flips.

    Raises
    ------
    ParameterError
        If d < 2, N < 1, samples < 1, s < 0, c ≤ 0, flip ∉ [0, 1/2) or λ < 0.
    """
    d = check_int("d", d, minimum=2)
    N = check_int("N", N, minimum=1)
    n = check_int("samples", samples, minimum=1)
    s = check_real("covariate_shift", covariate_shift, nonnegative=True)
    c = check_real("label_concentration", label_concentration, positive=True)
    flip = check_real("flip", flip, nonnegative=True, below=0.5)
    rng = generator(seed)
    mu = rng.standard_normal(d - 1) / math.sqrt(d - 1)
    features, labels = [], []
    for _ in range(N):
        pi = rng.dirichlet([c, c])[0]
        shift = s * rng.standard_normal(d - 1)
        y = np.where(rng.uniform(size=n) < pi, 1.0, -1.0)
        z = y[:, None] * mu + shift + rng.standard_normal((n, d - 1))
        y = np.where(rng.uniform(size=n) < flip, -y, y)
        features.append(np.column_stack([z, np.ones(n)]))
        labels.append(y)
    return FederatedLogistic(features, labels, ridge=ridge)
