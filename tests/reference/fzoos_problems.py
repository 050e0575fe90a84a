"""Plain-numpy twins of the fzoos problem kernels (``fedtheory/papers/fzoos/_views.py``).

Written from the problems' definitions (reading guide §4.2, §4.7): coordinate-separable
functions c_i + Σ_j [q_ij t_j² + l_ij t_j + a sin(ω t_j)] with t = s·x + h, dense quadratics
½ xᵀA_i x + b_iᵀx + c_i, random-Fourier-feature functions φ(x)ᵀw_i with
φ_m(x) = √(2/M) cos(v_mᵀx + b_m), and ridge-regularised logistic risks. Vectorised numpy,
slow on purpose; each returns the values (N,) and gradients (N, d) of every client at x.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit


def separable(view, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gradients of a SeparableView at x."""
    t = view.scale * x + view.shift
    sine = view.amplitude * np.sin(view.frequency * t)
    values = view.const + (view.quad * t**2 + view.lin * t).sum(axis=1) + sine.sum()
    slope = view.amplitude * view.frequency * np.cos(view.frequency * t)
    grads = view.scale * (2.0 * view.quad * t + view.lin + slope)
    return values, grads


def dense(view, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gradients of a DenseQuadraticView at x."""
    Ax = view.curvature @ x
    return 0.5 * Ax @ x + view.lin @ x + view.const, Ax + view.lin


def fourier(view, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gradients of a FourierView at x."""
    M = view.phases.shape[0]
    arg = view.frequencies @ x + view.phases
    phi = np.sqrt(2.0 / M) * np.cos(arg)
    dphi = -np.sqrt(2.0 / M) * np.sin(arg)[:, None] * view.frequencies  # (M, d)
    return view.weights @ phi, view.weights @ dphi


def logistic(view, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gradients of a LogisticView at x."""
    values, grads = [], []
    for i in range(view.offsets.shape[0] - 1):
        rows = slice(view.offsets[i], view.offsets[i + 1])
        Z, y = view.features[rows], view.labels[rows]
        m = y * (Z @ x)
        values.append(np.mean(np.logaddexp(0.0, -m)) + 0.5 * view.ridge * x @ x)
        grads.append(-(Z.T @ (y * expit(-m))) / len(y) + view.ridge * x)
    return np.array(values), np.array(grads)
