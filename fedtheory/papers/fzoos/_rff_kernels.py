"""In-loop kernels of the FZooS random-Fourier-feature surrogates (private; App. B, guide §2.4).

Features φ(x) = s·cos(Vx + b) ∈ ℝ^M with V (M, d) rows v_j ~ N(0, l⁻²I), b_j ~ U[0, 2π] drawn
once from one shared seed, s = √(2/M) (the printed 2/√M is an erratum, check 23; the scale is
a parameter so the printed one can be reproduced). Jacobian ∇φ(x) = −s·diag(sin(Vx + b))V, so
∇φ(x)ᵀw = −s·Vᵀ(sin(Vx + b) ⊙ w) in O(Md) — the local surrogate (6), the global one (7) and
the correction ∇φ(x)ᵀ(w_glob − w_i) of (8).

The client weight of (6) is ridge regression in feature space, w = Φ(ΦᵀΦ + σ²I)⁻¹y (n × n
system, Φ = [φ(x_1), …, φ(x_n)] is M × n) or, by the push-through identity,
w = (ΦΦᵀ + σ²I)⁻¹Φy (M × M system); :func:`rff_weights` takes the smaller. In the round loop
the M × M moments ΦΦᵀ and Φy can instead be accumulated as the history grows
(:func:`rff_accumulate`, one rank-q product per batch of q queries) and solved once per round
(:func:`rff_solve`, O(M³) independent of n): 8M² bytes per client (8 MB at M = 1000).

Both solves use a Cholesky factorisation; a matrix that is not positive definite (σ² = 0 with
too few points) returns ``STATUS_NOT_PD`` and leaves ``out`` unchanged. Twins:
``tests/reference/fzoos_gp.py``.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

#: Systems of :func:`rff_weights`.
SYSTEM_AUTO = 0
SYSTEM_SAMPLES = 1  # n × n: Φ(ΦᵀΦ + σ²I)⁻¹y
SYSTEM_FEATURES = 2  # M × M: (ΦΦᵀ + σ²I)⁻¹Φy

STATUS_OK = 0
STATUS_NOT_PD = 1


@njit
def rff_features(
    V: np.ndarray, b: np.ndarray, scale: float, x: np.ndarray, out: np.ndarray
) -> None:
    """φ(x) = s·cos(Vx + b) into ``out`` (M,)."""
    M, d = V.shape
    for j in range(M):
        total = b[j]
        for k in range(d):
            total += V[j, k] * x[k]
        out[j] = scale * math.cos(total)


@njit
def rff_gradient(
    V: np.ndarray,
    b: np.ndarray,
    scale: float,
    x: np.ndarray,
    w: np.ndarray,
    out: np.ndarray,
) -> None:
    """∇φ(x)ᵀw = −s·Vᵀ(sin(Vx + b) ⊙ w) into ``out`` (d,). O(Md), no allocation."""
    M, d = V.shape
    for k in range(d):
        out[k] = 0.0
    for j in range(M):
        total = b[j]
        for k in range(d):
            total += V[j, k] * x[k]
        weight = -scale * math.sin(total) * w[j]
        for k in range(d):
            out[k] += weight * V[j, k]


@njit
def rff_design(V: np.ndarray, b: np.ndarray, scale: float, X: np.ndarray) -> np.ndarray:
    """Φᵀ (n, M): row τ is φ(x_τ) (one BLAS product XVᵀ)."""
    n = X.shape[0]
    M = V.shape[0]
    phases: np.ndarray = np.dot(np.ascontiguousarray(X), V.T)
    for t in range(n):
        for j in range(M):
            phases[t, j] = scale * math.cos(phases[t, j] + b[j])
    return phases


@njit
def _cholesky_solve(matrix: np.ndarray, rhs: np.ndarray, out: np.ndarray) -> int:
    """out = matrix⁻¹rhs by Cholesky (LAPACK); STATUS_NOT_PD if it is not positive definite."""
    size = rhs.shape[0]
    try:
        L = np.linalg.cholesky(matrix)
    except Exception:  # numba raises LinAlgError for a matrix that is not positive definite
        return STATUS_NOT_PD
    z = np.empty(size)
    for i in range(size):
        total = rhs[i]
        for s in range(i):
            total -= L[i, s] * z[s]
        z[i] = total / L[i, i]
    for i in range(size - 1, -1, -1):
        value = z[i] / L[i, i]
        z[i] = value
        for s in range(i):
            z[s] -= L[i, s] * value
    for i in range(size):
        out[i] = z[i]
    return STATUS_OK


@njit
def rff_weights(
    V: np.ndarray,
    b: np.ndarray,
    scale: float,
    X: np.ndarray,
    y: np.ndarray,
    noise: float,
    system: int,
    out: np.ndarray,
) -> int:
    """The client weight w of (6) from the history (X (n, d), y (n,)) into ``out`` (M,).

    ``system``: ``SYSTEM_SAMPLES`` solves (ΦᵀΦ + σ²I)c = y and takes w = Φc (O(Mn² + n³));
    ``SYSTEM_FEATURES`` solves (ΦΦᵀ + σ²I)w = Φy (O(M²n + M³)); ``SYSTEM_AUTO`` takes the
    n × n system when n ≤ M. Returns ``STATUS_OK`` or ``STATUS_NOT_PD`` (``out`` unchanged).
    """
    n = X.shape[0]
    M = V.shape[0]
    design = rff_design(V, b, scale, X)  # Φᵀ (n, M)
    if system == SYSTEM_SAMPLES or (system == SYSTEM_AUTO and n <= M):
        gram = np.dot(design, design.T)
        for t in range(n):
            gram[t, t] += noise
        coefficients = np.empty(n)
        status = _cholesky_solve(gram, y, coefficients)
        if status != STATUS_OK:
            return status
        weights = np.dot(design.T, coefficients)
        for j in range(M):
            out[j] = weights[j]
        return STATUS_OK
    gram = np.dot(design.T, design)
    for j in range(M):
        gram[j, j] += noise
    moment = np.dot(design.T, np.ascontiguousarray(y))
    return _cholesky_solve(gram, moment, out)


@njit
def rff_accumulate(
    V: np.ndarray,
    b: np.ndarray,
    scale: float,
    points: np.ndarray,
    values: np.ndarray,
    gram: np.ndarray,
    moment: np.ndarray,
) -> None:
    """ΦΦᵀ += Σ_q φ(z_q)φ(z_q)ᵀ into ``gram`` (M, M) and Φy += Σ_q φ(z_q)y_q into ``moment``."""
    design = rff_design(V, b, scale, points)  # (q, M)
    gram += np.dot(design.T, design)
    q, M = design.shape
    for t in range(q):
        for j in range(M):
            moment[j] += design[t, j] * values[t]


@njit
def rff_solve(gram: np.ndarray, moment: np.ndarray, noise: float, out: np.ndarray) -> int:
    """w = (ΦΦᵀ + σ²I)⁻¹Φy from accumulated moments into ``out`` (M,). O(M³)."""
    M = moment.shape[0]
    system = gram.copy()
    for j in range(M):
        system[j, j] += noise
    return _cholesky_solve(system, moment, out)
