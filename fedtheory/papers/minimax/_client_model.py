"""Machinery shared by the quadratic-loss client models of :mod:`fedtheory.papers.minimax.clients`:
argument checks, the optima's directions, the base class (weights, excess risks, the three exact
estimators) and the exact FedProx minimiser on a ball (private).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias, TypeVar

import numpy as np
from scipy.optimize import brentq

from fedtheory._checks import check_int, check_real, check_vector, check_weights
from fedtheory.errors import ParameterError
from fedtheory.problems.dataset import FederatedDataset

__all__: list[str] = []

_SQRT3 = math.sqrt(3.0)


#: Client weights: an array on the simplex, ``"sample"`` (p_i = n_i/N), ``"fair"`` (p_i = 1/m),
#: or ``None`` (the instance's weights; sample-proportional in the generators).
WeightsLike: TypeAlias = "np.ndarray | Sequence[float] | Literal['sample', 'fair'] | None"


Directions: TypeAlias = Literal["antipodal", "random"]


SizesLike: TypeAlias = "int | Sequence[int] | np.ndarray"


_I = TypeVar("_I", bound="_ClientModel")


def _check_sizes(n: Any, m: int, *, minimum: int = 1) -> np.ndarray:
    """``n`` as an int64 vector of m local sample sizes (an int means balanced data)."""
    if isinstance(n, np.ndarray) and n.ndim == 0:
        n = n.item()
    if isinstance(n, numbers.Integral) and not isinstance(n, bool):
        return np.full(m, check_int("n", n, minimum=minimum), dtype=np.int64)
    if isinstance(n, str | bytes) or not isinstance(n, Sequence | np.ndarray):
        raise ParameterError(
            parameter="n", value=n, rule="must be an integer or a sequence of m integers"
        )
    sizes = list(n)
    if len(sizes) != m:
        raise ParameterError(
            parameter="n", value=sizes, rule=f"must hold one sample size per client (m = {m})"
        )
    return np.array(
        [check_int(f"n[{i}]", size, minimum=minimum) for i, size in enumerate(sizes)],
        dtype=np.int64,
    )


def _check_lambda(lam: Any) -> float:
    if isinstance(lam, bool) or not isinstance(lam, numbers.Real) or math.isnan(float(lam)):
        raise ParameterError(parameter="lam", value=lam, rule="must be a real number in [0, inf]")
    value = float(lam)
    if value < 0:
        raise ParameterError(parameter="lam", value=value, rule="must be non-negative")
    return value


def _check_radius(radius: Any) -> float:
    if isinstance(radius, bool) or not isinstance(radius, numbers.Real):
        raise ParameterError(parameter="radius", value=radius, rule="must be a real number")
    value = float(radius)
    if not value > 0:  # also refuses NaN
        raise ParameterError(
            parameter="radius", value=value, rule="must be > 0 (inf: unconstrained)"
        )
    return value


def _check_center(center: Any, d: int) -> np.ndarray:
    return np.zeros(d) if center is None else check_vector("center", center, shape=(d,))


def _check_interior(radius: float, center: np.ndarray, reach: float) -> None:
    """Refuse a ball 𝒲 that may not contain every optimum in its interior (guide §6.7)."""
    bound = float(np.linalg.norm(center)) + reach
    if not radius > bound:
        raise ParameterError(
            parameter="radius",
            value=radius,
            rule=f"must exceed ‖center‖ + (largest distance of an optimum from the center) = "
            f"{bound:.6g}, so that every population optimum is interior to 𝒲",
        )


def _resolve_weights(weights: Any, counts: np.ndarray, default: np.ndarray | None) -> np.ndarray:
    if weights is None:
        if default is not None:
            return default
        weights = "sample"
    if isinstance(weights, str):
        if weights == "sample":
            return np.asarray(counts / counts.sum())
        if weights == "fair":
            return np.full(counts.size, 1.0 / counts.size)
        raise ParameterError(
            parameter="weights",
            value=weights,
            rule="must be 'sample', 'fair', None or an array on the simplex",
        )
    return check_weights(weights, int(counts.size))


def _project_rows(points: np.ndarray, radius: float) -> np.ndarray:
    """Euclidean projection of each row (or of the vector) onto the ball ‖w‖ ≤ radius."""
    if math.isinf(radius):
        return np.array(points, copy=True)
    norms = np.linalg.norm(points, axis=-1, keepdims=True)
    scale = np.minimum(1.0, radius / np.maximum(norms, np.finfo(float).tiny))
    return np.asarray(points * scale)


def _haar_stack(m: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """m independent Haar-random d × d orthogonal matrices, shape (m, d, d).

    Batched version of :func:`fedtheory.problems.quadratic.haar_orthogonal` (QR of a Gaussian
    matrix with the sign fix of Mezzadri 2007); it consumes the same random stream as m calls.
    """
    q, r = np.linalg.qr(rng.standard_normal((m, d, d)))
    signs = np.where(np.diagonal(r, axis1=1, axis2=2) < 0, -1.0, 1.0)
    return np.asarray(q * signs[:, None, :])


def _directions(m: int, d: int, kind: str, rng: np.random.Generator) -> np.ndarray:
    """Unit directions u_i, shape (m, d) (see :func:`quadratic_clients`)."""
    if kind == "random":
        g = rng.standard_normal((m, d))
        return np.asarray(g / np.linalg.norm(g, axis=1, keepdims=True))
    if kind != "antipodal":
        raise ParameterError(
            parameter="directions", value=kind, rule="must be 'antipodal' or 'random'"
        )
    u = np.zeros((m, d))
    triple = m % 2 == 1 and m >= 3 and d >= 2
    pairs = (m - 3) // 2 if triple else m // 2
    g = rng.standard_normal((pairs, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    u[0 : 2 * pairs : 2] = g
    u[1 : 2 * pairs : 2] = -g
    if triple:
        # Three unit vectors at 120° in a uniformly random plane ("Mercedes star"): Σ u = 0.
        a, b = rng.standard_normal((2, d))
        a /= np.linalg.norm(a)
        b -= (b @ a) * a
        b /= np.linalg.norm(b)
        half = 0.5 * _SQRT3
        u[m - 3 :] = [a, -0.5 * a + half * b, -0.5 * a - half * b]
    return u


@dataclass(frozen=True, eq=False)
class _ClientModel:
    """Fields and methods shared by the federated generative models (see the subclasses)."""

    data: FederatedDataset
    optima: np.ndarray
    weights: np.ndarray
    R: float
    beta: float
    mu: float
    sigma2: float
    ell_inf: float
    noise: float

    @property
    def m(self) -> int:
        """Number of clients."""
        return self.data.m

    @property
    def d(self) -> int:
        """Dimension."""
        return self.data.d

    @property
    def center(self) -> np.ndarray:
        """w̄_**p** = Σ_i p_i w⋆^(i), the average global model (Chen et al., eq. (7))."""
        return np.asarray(self.weights @ self.optima)

    def heterogeneity(self, weights: WeightsLike = None) -> tuple[float, float]:
        """The heterogeneity levels (B(a), B(b)) of Chen et al., Assumption B.

        Returns ``(Σ_i p_i‖w⋆^(i) − w̄_p‖², max_i ‖w⋆^(i) − w̄_p‖²)`` for the instance's weights
        (or ``weights``); the maximum runs over all clients, weightless ones included.
        """
        p = self._weights(weights)
        gaps = np.sum((self.optima - p @ self.optima) ** 2, axis=1)
        return float(p @ gaps), float(gaps.max())

    def _weights(self, weights: WeightsLike) -> np.ndarray:
        return _resolve_weights(weights, self.data.counts, self.weights)

    def _models(self, models: Any) -> np.ndarray:
        w = np.asarray(models, dtype=np.float64)
        if w.shape not in {(self.d,), (self.m, self.d)}:
            raise ParameterError(
                parameter="models",
                value=w.shape,
                rule=f"must have shape (d,) = ({self.d},) or (m, d) = ({self.m}, {self.d})",
            )
        return np.broadcast_to(w, (self.m, self.d))

    def with_sample_replaced(
        self: _I, client: int, index: int, features_row: Any, target: float = 0.0
    ) -> _I:
        """The same instance with sample ``index`` of client ``client`` replaced.

        This is the replace-one dataset **S**^{∖(i,j)} of federated stability (Chen et al.,
        Def. 5; guide V8): only the data change, the optima, weights and constants stay.

        Parameters
        ----------
        client, index
            0 ≤ client < m and 0 ≤ index < n_client.
        features_row
            The new feature row, shape (d,) (the sample z itself for mean estimation).
        target
            The new response (linear regression); must be 0 for mean estimation.
        """
        data = self.data.with_sample_replaced(client, index, features_row, target)
        if self.data.loss == "mean" and data.targets[client, index] != 0.0:
            raise ParameterError(
                parameter="target",
                value=target,
                rule="must be 0 for mean estimation (the sample is the feature row)",
            )
        return replace(self, data=data)


def _fedprox_on_ball(means: np.ndarray, p: np.ndarray, lam: float, radius: float) -> np.ndarray:
    """w̃^g of (20) for GM-Q on the ball of radius ``radius`` (0 < lam < inf).

    Minimises Φ(w) = Σ p_i F_i(w) over ‖w‖ ≤ ρ with F_i the Moreau envelope of the constrained
    local risk (see :meth:`QuadraticClients.fedprox_erm`). For a multiplier α ≥ 0 the strongly
    convex function Φ + α/2‖·‖² is minimised by semismooth Newton with backtracking; if
    the α = 0 minimiser is infeasible, α is found by Brent's method on ‖w(α)‖ = ρ (‖w(α)‖ is
    non-increasing in α), which is the KKT system of the constrained problem.
    """
    keep = p > 0
    x, q = means[keep], p[keep]
    theta = lam / (1.0 + lam)
    pool = q @ x
    d = x.shape[1]

    def parts(w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = (x + lam * w) / (1.0 + lam)
        norms = np.linalg.norm(c, axis=1)
        excess = np.maximum(norms - radius, 0.0)
        return c, norms, excess

    def value(w: np.ndarray, alpha: float) -> float:
        _, _, excess = parts(w)
        return float(
            0.5 * theta * np.sum((w - pool) ** 2)
            + 0.5 * (1.0 + lam) * (q @ excess**2)
            + 0.5 * alpha * (w @ w)
        )

    def derivatives(w: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
        c, norms, excess = parts(w)
        out = excess > 0
        ratio = np.where(out, radius / np.where(out, norms, 1.0), 0.0)
        residual = (out * (1.0 - ratio))[:, None] * c  # c − 𝒫(c)
        grad = theta * (w - pool) + lam * (q @ residual) + alpha * w
        unit = c * np.where(out, 1.0 / np.where(out, norms, 1.0), 0.0)[:, None]
        hess = (theta + alpha + lam * theta * (q @ (out * (1.0 - ratio)))) * np.eye(d)
        hess += lam * theta * np.einsum("k,kd,ke->de", q * ratio, unit, unit)
        return grad, hess

    def minimise(alpha: float, start: np.ndarray) -> np.ndarray:
        w = start.copy()
        grad, hess = derivatives(w, alpha)
        for _ in range(200):
            grad_norm = float(np.linalg.norm(grad))
            if grad_norm == 0.0:
                break
            step = np.linalg.solve(hess, grad)
            start_value = value(w, alpha)
            slope = float(grad @ step)
            # Armijo on Φ; near the minimiser, where Φ is flat to rounding, a step is also
            # accepted if it keeps Φ within rounding and reduces the gradient norm.
            flat = start_value + 8 * np.finfo(float).eps * abs(start_value)
            t = 1.0
            while t > 1e-12:
                trial = w - t * step
                trial_value = value(trial, alpha)
                trial_grad, trial_hess = derivatives(trial, alpha)
                if trial_value <= start_value - 1e-4 * t * slope or (
                    trial_value <= flat and np.linalg.norm(trial_grad) < grad_norm
                ):
                    break
                t *= 0.5
            if t <= 1e-12:
                break  # no further progress is representable
            w, grad, hess = trial, trial_grad, trial_hess
        return np.asarray(w)

    w0 = minimise(0.0, pool)
    if np.linalg.norm(w0) <= radius:
        return w0

    def gap(alpha: float) -> float:
        return float(np.linalg.norm(minimise(alpha, w0))) - radius

    high = 1.0
    while gap(high) > 0:
        high *= 4.0
    alpha = float(brentq(gap, 0.0, high, xtol=1e-300, rtol=4 * np.finfo(float).eps))
    return _project_rows(minimise(alpha, w0), radius)


def _common(
    m: Any, n: Any, d: Any, R: Any, noise: Any, *, min_n: int = 1
) -> tuple[int, np.ndarray, int, float, float]:
    m = check_int("m", m, minimum=1)
    d = check_int("d", d, minimum=1)
    counts = _check_sizes(n, m, minimum=min_n)
    R = check_real("R", R, nonnegative=True)
    noise = check_real("noise", noise, positive=True)
    return m, counts, d, R, noise
