"""GP-sample local functions realised by random Fourier features (reading guide §4.7, check 14).

The theory of the fzoos paper assumes every f_i is a sample of GP(0, k) with a shift-invariant
kernel (Sec. 4.1, Lemma C.1); the experiments use the squared-exponential (SE) kernel
k(x, x′) = exp(−‖x − x′‖²/(2l²)). :class:`GPSampleFunctions` builds such functions,

    f_i = (g_0 + C·g_i)/√(1 + C²),   i = 1, …, N,

with g_0, …, g_N independent GP(0, SE(l)) samples, so that every f_i is itself a GP(0, SE(l))
sample (the surrogate's own prior) and C tunes the heterogeneity (G grows like C²/(1 + C²)).
Each g_k is realised by M_true random Fourier features (App. B with the corrected scale
√(2/M), guide §0 item 8),

    g_k(x) = φ(x)ᵀθ_k,  φ_m(x) = √(2/M) cos(v_mᵀx + b_m),  v_m ~ N(0, l⁻²I),  b_m ~ U[0, 2π],
    θ_k ~ N(0, I_M),

with the features shared by the N + 1 samples (given the features the θ_k are independent, so
the g_k are independent Gaussian processes with the RFF kernel φ(x)ᵀφ(x′) → k(x, x′)). Then
f_i = φᵀw_i with w_i = (θ_0 + Cθ_i)/√(1 + C²), and the gradients are exact.

Use a seed for the problem that no algorithm uses for its own RFF (the algorithm's M and
features must be independent of the test function's; guide §4.7).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.papers.fzoos._views import FourierView
from fedtheory.papers.fzoos.problems import ZerothOrderProblem

__all__ = ["GPSampleFunctions", "gp_expected_heterogeneity"]


def gp_expected_heterogeneity(d: int, N: int, C: float, lengthscale: float = 1.0) -> float:
    """E[G(x)] = C²/(1 + C²)·(1 − 1/N)·d/l² at every x (over the features and the weights).

    ∇f_i − ∇F = ∇φ(x)ᵀ(w_i − w̄) with w_i − w̄ = C(θ_i − θ̄)/√(1 + C²) and E‖θ_i − θ̄‖² = (1 − 1/N)
    per feature; E‖∇φ(x)ᵀu‖² = ‖∇φ(x)‖_F² for u ~ N(0, I), whose mean is E‖v‖² = d/l² (the
    κ = 1/l² per coordinate of guide §1).
    """
    d = check_int("d", d, minimum=1)
    N = check_int("N", N, minimum=1)
    C = check_real("C", C, nonnegative=True)
    l2 = check_real("lengthscale", lengthscale, positive=True) ** 2
    return C**2 / (1.0 + C**2) * (1.0 - 1.0 / N) * d / l2


class GPSampleFunctions(ZerothOrderProblem):
    """N local functions f_i = (g_0 + C g_i)/√(1 + C²) with g_k ~ GP(0, SE(l)) (module docstring).

    Parameters
    ----------
    d, N
        Dimension and number of clients (≥ 1).
    C
        Heterogeneity (≥ 0); C = 0 gives identical clients.
    lengthscale
        l > 0 of the SE kernel (the paper's experiments use 1).
    features
        M_true ≥ 1, the number of random Fourier features of the realisation (default 20 000;
        one query costs O(M_true·d)).
    seed
        Seed of the realisation: the frequencies v (M, d), the phases b (M,), then θ (N + 1, M),
        in that order from one generator.

    Raises
    ------
    ParameterError
        If d < 1, N < 1, C < 0, l ≤ 0, M < 1 or the seed is not reproducible.
    """

    box = True

    def __init__(
        self,
        d: int = 10,
        N: int = 5,
        C: float = 1.0,
        *,
        lengthscale: float = 1.0,
        features: int = 20_000,
        seed: Seed = 0,
    ) -> None:
        self._d = check_int("d", d, minimum=1)
        self._N = check_int("N", N, minimum=1)
        self.C = check_real("C", C, nonnegative=True)
        self.lengthscale = check_real("lengthscale", lengthscale, positive=True)
        M = check_int("features", features, minimum=1)
        rng = generator(seed)
        frequencies = rng.standard_normal((M, self._d)) / self.lengthscale
        phases = rng.uniform(0.0, 2.0 * math.pi, size=M)
        theta = rng.standard_normal((self._N + 1, M))
        #: θ_0, …, θ_N: the weights of g_0, …, g_N, shape (N + 1, M).
        self.sample_weights = readonly(theta)
        weights = (theta[0][None, :] + self.C * theta[1:]) / math.sqrt(1.0 + self.C**2)
        self._view = FourierView(
            kernel_array(frequencies), kernel_array(phases), kernel_array(weights)
        )

    @property
    def features(self) -> int:
        """M_true, the number of random Fourier features."""
        return int(self._view.phases.shape[0])

    def feature_map(self, x: Any) -> np.ndarray:
        """φ(x) = √(2/M) cos(v_mᵀx + b_m), shape (M,)."""
        point = self._point(x)
        M = self.features
        return np.asarray(
            math.sqrt(2.0 / M) * np.cos(self._view.frequencies @ point + self._view.phases)
        )

    def kernel(self, x: Any, y: Any) -> float:
        """The SE kernel exp(−‖x − y‖²/(2l²)) that the realisation approximates."""
        a, b = self._point(x), self._point(y, "y")
        return math.exp(-float(np.sum((a - b) ** 2)) / (2.0 * self.lengthscale**2))

    def expected_heterogeneity(self, x: Any) -> float:
        """E_θ[G(x)] = C²/(1 + C²)·(1 − 1/N)·‖∇φ(x)‖_F², given this realisation's features."""
        point = self._point(x)
        M = self.features
        s = np.sin(self._view.frequencies @ point + self._view.phases)
        frob = 2.0 / M * float(np.sum(s**2 * np.sum(self._view.frequencies**2, axis=1)))
        return self.C**2 / (1.0 + self.C**2) * (1.0 - 1.0 / self._N) * frob

    def heterogeneity_estimate(self, num_points: int = 256, *, seed: Seed = 0) -> float:
        """An estimate of G = sup_{x ∈ [0,1]^d} G(x): the maximum of the exact G(x) over a dense
        sample (``num_points`` uniform points of the box, the centre and, for d ≤ 10, the 2^d
        corners). A lower bound of the supremum; the Theorem 1 checks use it as G."""
        n = check_int("num_points", num_points, minimum=1)
        points = [np.full(self._d, 0.5)]
        points.extend(generator(seed).uniform(size=(n, self._d)))
        if self._d <= 10:
            grid = np.indices((2,) * self._d).reshape(self._d, -1).T
            points.extend(grid.astype(np.float64))
        return max(self.heterogeneity(p) for p in points)

    def constants(self) -> dict[str, float]:
        """``smoothness``: the valid but loose bound β ≤ √(2/M) Σ_m ``|w̄_m|`` ‖v_m‖² on
        ‖∇²F(x)‖₂ (every x); ``strong_convexity`` 0 (F is a GP sample, not convex);
        ``kappa`` = 1/l² and ``lipschitz_kernel`` = e^{−1/2}/l (guide §1, SE kernel)."""
        M = self.features
        wbar = self._view.weights.mean(axis=0)
        norms = np.sum(self._view.frequencies**2, axis=1)
        return {
            "smoothness": math.sqrt(2.0 / M) * float(np.abs(wbar) @ norms),
            "strong_convexity": 0.0,
            "kappa": 1.0 / self.lengthscale**2,
            "lipschitz_kernel": math.exp(-0.5) / self.lengthscale,
        }
