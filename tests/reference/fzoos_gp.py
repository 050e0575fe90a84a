"""Plain-numpy twins of the fzoos GP and RFF kernels (``fedtheory/papers/fzoos/_gp_kernels.py``,
``_rff_kernels.py``).

Written from the definitions (guide §2.3, §2.4): a fresh kernel matrix, a fresh Cholesky
solve, the Jacobian J(x) built row by row, Σ(x) = I/l² − JᵀK_σ⁻¹J and tr Σ by the naive
O(n²d) product; RFF features √(2/M)cos(Vx + b) and their Jacobian. Slow on purpose.
"""

from __future__ import annotations

import numpy as np


def kernel_matrix(A: np.ndarray, B: np.ndarray, lengthscale: float) -> np.ndarray:
    """k(a_i, b_j) = exp(−‖a_i − b_j‖²/(2l²)), shape (len(A), len(B))."""
    diff = A[:, None, :] - B[None, :, :]
    return np.exp(-np.sum(diff**2, axis=2) / (2.0 * lengthscale**2))


def jacobian(X: np.ndarray, x: np.ndarray, lengthscale: float) -> np.ndarray:
    """J(x) = ∂_x k(x) (n, d): row τ = −(x − x_τ)k(x, x_τ)/l²."""
    k = kernel_matrix(x[None, :], X, lengthscale)[0]
    return -(x[None, :] - X) * k[:, None] / lengthscale**2


def inverse(X: np.ndarray, lengthscale: float, noise: float) -> np.ndarray:
    """K_σ⁻¹ from a fresh Cholesky factorisation."""
    K = kernel_matrix(X, X, lengthscale) + noise * np.eye(len(X))
    L = np.linalg.cholesky(K)
    Linv = np.linalg.inv(L)
    return Linv.T @ Linv


def alpha(X: np.ndarray, y: np.ndarray, lengthscale: float, noise: float) -> np.ndarray:
    """K_σ⁻¹y by a fresh solve."""
    K = kernel_matrix(X, X, lengthscale) + noise * np.eye(len(X))
    return np.linalg.solve(K, y)


def mean(X: np.ndarray, y: np.ndarray, x: np.ndarray, lengthscale: float, noise: float) -> float:
    """μ(x) = k(x)ᵀK_σ⁻¹y."""
    k = kernel_matrix(x[None, :], X, lengthscale)[0]
    return float(k @ alpha(X, y, lengthscale, noise))


def mean_gradient(
    X: np.ndarray, y: np.ndarray, x: np.ndarray, lengthscale: float, noise: float
) -> np.ndarray:
    """∇μ(x) = J(x)ᵀK_σ⁻¹y, eq. (5)."""
    return jacobian(X, x, lengthscale).T @ alpha(X, y, lengthscale, noise)


def gradient_covariance(
    X: np.ndarray, x: np.ndarray, lengthscale: float, noise: float
) -> np.ndarray:
    """Σ(x) = I/l² − J(x)ᵀK_σ⁻¹J(x), eq. (5)."""
    J = jacobian(X, x, lengthscale)
    K = kernel_matrix(X, X, lengthscale) + noise * np.eye(len(X))
    return np.eye(len(x)) / lengthscale**2 - J.T @ np.linalg.solve(K, J)


def trace_uncertainty(
    X: np.ndarray, candidates: np.ndarray, lengthscale: float, noise: float
) -> np.ndarray:
    """tr Σ(c) for every candidate, by the naive product (O(n²d) each)."""
    return np.array([np.trace(gradient_covariance(X, c, lengthscale, noise)) for c in candidates])


def rff_features(V: np.ndarray, b: np.ndarray, scale: float, x: np.ndarray) -> np.ndarray:
    """φ(x) = scale·cos(Vx + b) (scale √(2/M) corrected, 2/√M printed)."""
    return scale * np.cos(V @ x + b)


def rff_jacobian(V: np.ndarray, b: np.ndarray, scale: float, x: np.ndarray) -> np.ndarray:
    """∇φ(x) = −scale·diag(sin(Vx + b))V, shape (M, d)."""
    return -scale * np.sin(V @ x + b)[:, None] * V


def rff_weights(
    V: np.ndarray, b: np.ndarray, scale: float, X: np.ndarray, y: np.ndarray, noise: float
) -> np.ndarray:
    """w = Φ(ΦᵀΦ + σ²I)⁻¹y (the n × n form of (6)), Φ = [φ(x_1), …, φ(x_n)] (M × n)."""
    Phi = np.stack([rff_features(V, b, scale, x) for x in X], axis=1)
    return Phi @ np.linalg.solve(Phi.T @ Phi + noise * np.eye(len(X)), y)
