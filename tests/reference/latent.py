"""Plain-numpy twins of the kernels in :mod:`fedtheory.papers.fedlrgd.latent`.

Written straight from the definitions of the latent functions g (module docstring of
``fedtheory.papers.fedlrgd.latent``) by broadcasting, with numpy's own ``exp``, ``log`` and ``**``.
Same inputs as the kernels: ``rows`` (n, d) and the column points transposed, ``cols_t`` (p, k).
"""

from __future__ import annotations

import numpy as np


def _differences(rows: np.ndarray, cols_t: np.ndarray) -> np.ndarray:
    return np.asarray(rows[:, None, :] - cols_t.T[None, :, :])


def l1_power(rows: np.ndarray, cols_t: np.ndarray, eta: float, mode: int) -> np.ndarray:
    """Twin of ``_l1_power_kernel``: ‖y − ϑ‖₁^η (``mode`` selects a fast path there only)."""
    del mode
    return np.asarray(np.sum(np.abs(_differences(rows, cols_t)), axis=-1) ** eta)


def l2_power(rows: np.ndarray, cols_t: np.ndarray, half_eta: float, mode: int) -> np.ndarray:
    """Twin of ``_l2_power_kernel``: (‖y − ϑ‖₂²)^{η/2}."""
    del mode
    return np.asarray(np.sum(_differences(rows, cols_t) ** 2, axis=-1) ** half_eta)


def matern(rows: np.ndarray, cols_t: np.ndarray, code: int, inv_scale: float) -> np.ndarray:
    """Twin of ``_matern_kernel``: k_ν(‖y − ϑ‖₂/ℓ), code 0, 1, 2 for ν = 1/2, 3/2, 5/2."""
    rho = np.sqrt(np.sum(_differences(rows, cols_t) ** 2, axis=-1)) * inv_scale
    if code == 0:
        return np.asarray(np.exp(-rho))
    if code == 1:
        return np.asarray((1.0 + np.sqrt(3.0) * rho) * np.exp(-np.sqrt(3.0) * rho))
    s = np.sqrt(5.0) * rho
    return np.asarray((1.0 + s + s**2 / 3.0) * np.exp(-s))


def indicator(rows: np.ndarray, cols_t: np.ndarray, radius: float) -> np.ndarray:
    """Twin of ``_indicator_kernel``: 1{‖y − ϑ‖₁ < radius}."""
    distance = np.sum(np.abs(_differences(rows, cols_t)), axis=-1)
    return (distance < radius).astype(np.float64)


def logistic_gradient(
    rows: np.ndarray, thetas_t: np.ndarray, coordinate: int, mu: float
) -> np.ndarray:
    """Twin of ``_logistic_gradient_kernel``: (σ(θᵀx) − y)x_i + μθ_i, rows = (x, y)."""
    p = thetas_t.shape[0]
    x, label = rows[:, :p], rows[:, p]
    sigmoid = 1.0 / (1.0 + np.exp(-(x @ thetas_t)))
    return np.asarray(
        (sigmoid - label[:, None]) * x[:, coordinate][:, None] + mu * thetas_t[coordinate][None, :]
    )
