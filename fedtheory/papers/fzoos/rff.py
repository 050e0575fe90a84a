"""Random Fourier features of the SE kernel and the transferable surrogates of FZooS (App. B).

φ(x) = √(2/M)[cos(v_jᵀx + b_j)]_{j=1..M} with v_j ~ N(0, l⁻²I) and b_j ~ U[0, 2π], sampled once
from one seed shared by every client and the server (guide §2.4), so that
E[φ(x)ᵀφ(x′)] = k(x, x′). App. B prints the scale 2/√M; the proof of Lemma C.3 uses
(1/M)Σ2cos·cos, i.e. √(2/M) — the printed scale doubles the kernel (check 23) and is kept only
as the explicit option ``scaling="printed"``.

The local surrogate (6) is ∇μ̂^{(i)}(x) = ∇φ(x)ᵀw^{(i)} with w^{(i)} = Φ(ΦᵀΦ + σ²I)⁻¹y =
(ΦΦᵀ + σ²I)⁻¹Φy (push-through), the global one (7) is ∇φ(x)ᵀw with w the mean of the clients'
weights, and the FZooS correction of (8) is ∇φ(x)ᵀ(w_glob − w_i). The in-loop kernels are in
:mod:`fedtheory.papers.fzoos._rff_kernels`.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from fedtheory._checks import check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fzoos import _rff_kernels as _k

__all__ = ["RandomFourierFeatures", "rff_scale"]

Scaling = Literal["corrected", "printed"]
System = Literal["auto", "samples", "features"]

_SYSTEMS = {
    "auto": _k.SYSTEM_AUTO,
    "samples": _k.SYSTEM_SAMPLES,
    "features": _k.SYSTEM_FEATURES,
}


def rff_scale(num_features: int, scaling: Scaling = "corrected") -> float:
    """The feature scale: √(2/M) (``"corrected"``) or App. B's printed 2/√M (``"printed"``)."""
    M = check_int("num_features", num_features, minimum=1)
    if scaling == "corrected":
        return math.sqrt(2.0 / M)
    if scaling == "printed":
        return 2.0 / math.sqrt(M)
    raise ParameterError(
        parameter="scaling", value=scaling, rule="must be 'corrected' or 'printed'"
    )


class RandomFourierFeatures:
    """RFF map of the SE kernel, shared by every party (App. B; guide §2.4).

    Parameters
    ----------
    dimension
        d ≥ 1.
    num_features
        M ≥ 1 (default 1000, Fig. 6; the paper's 10 000 works, slowly).
    lengthscale
        l > 0 of the SE kernel.
    seed
        The one shared seed of the frequencies V (M, d) and phases b (M,).
    scaling
        ``"corrected"`` √(2/M) (default) or ``"printed"`` 2/√M (the App. B erratum).

    Attributes
    ----------
    frequencies, phases, scale
        V, b and s; the in-loop kernels take these three arrays/numbers.
    """

    def __init__(
        self,
        dimension: int,
        num_features: int = 1000,
        *,
        lengthscale: float = 1.0,
        seed: Seed = 0,
        scaling: Scaling = "corrected",
    ) -> None:
        self.dimension = check_int("dimension", dimension, minimum=1)
        self.num_features = check_int("num_features", num_features, minimum=1)
        self.lengthscale = check_real("lengthscale", lengthscale, positive=True)
        self.scaling = scaling
        self.scale = rff_scale(self.num_features, scaling)
        rng = generator(seed)
        self.frequencies = np.ascontiguousarray(
            rng.standard_normal((self.num_features, self.dimension)) / self.lengthscale
        )
        self.phases = rng.uniform(0.0, 2.0 * math.pi, self.num_features)

    def _point(self, x: Any) -> np.ndarray:
        return check_vector("x", x, shape=(self.dimension,))

    def _points(self, X: Any, name: str) -> np.ndarray:
        block = np.asarray(X, dtype=np.float64)
        rows = block.shape[0] if block.ndim == 2 else -1
        return check_vector(name, block, shape=(max(rows, 0), self.dimension))

    def features(self, x: Any) -> np.ndarray:
        """φ(x), shape (M,)."""
        out = np.empty(self.num_features)
        _k.rff_features(self.frequencies, self.phases, self.scale, self._point(x), out)
        return out

    def jacobian(self, x: Any) -> np.ndarray:
        """∇φ(x) = −s·diag(sin(Vx + b))V, shape (M, d)."""
        point = self._point(x)
        sines = np.sin(self.frequencies @ point + self.phases)
        jacobian: np.ndarray = -self.scale * sines[:, None] * self.frequencies
        return jacobian

    def kernel(self, x: Any, x_prime: Any) -> float:
        """φ(x)ᵀφ(x′) ≈ k(x, x′) (Lemma C.3)."""
        return float(self.features(x) @ self.features(x_prime))

    def gradient(self, x: Any, weights: Any) -> np.ndarray:
        """∇φ(x)ᵀw, shape (d,): a surrogate gradient (6)/(7), or the correction of (8) with
        w = w_glob − w_i."""
        w = check_vector("weights", weights, shape=(self.num_features,))
        out = np.empty(self.dimension)
        _k.rff_gradient(self.frequencies, self.phases, self.scale, self._point(x), w, out)
        return out

    def weights(
        self, inputs: Any, values: Any, noise: float, system: System = "auto"
    ) -> np.ndarray:
        """The client weight w = Φ(ΦᵀΦ + σ²I)⁻¹y of (6), shape (M,).

        ``system``: ``"samples"`` (n × n), ``"features"`` (M × M, push-through) or ``"auto"``
        (the smaller). Raises :class:`~fedtheory.errors.SolverError` when the system is not
        positive definite (σ² = 0 with rank-deficient features).
        """
        X = self._points(inputs, "inputs")
        y = check_vector("values", np.atleast_1d(values), shape=(X.shape[0],))
        variance = check_real("noise", noise, nonnegative=True)
        if system not in _SYSTEMS:
            raise ParameterError(
                parameter="system", value=system, rule="must be 'auto', 'samples' or 'features'"
            )
        out = np.zeros(self.num_features)
        if X.shape[0] == 0:
            return out
        status = _k.rff_weights(
            self.frequencies, self.phases, self.scale, X, y, variance, _SYSTEMS[system], out
        )
        if status != _k.STATUS_OK:
            raise SolverError(
                f"RFF ridge solve ({system} system, Cholesky)",
                "not positive definite",
                hint=f"σ² = {variance:.3g}; use a positive noise variance",
            )
        return out
