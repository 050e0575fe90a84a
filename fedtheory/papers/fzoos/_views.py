"""Kernel views of the fzoos analytic problems (private; DESIGN §3, §4; reading guide §4.2, §4.7).

Each view is a subclass of a :class:`typing.NamedTuple` of arrays that names the two kernels of
the zeroth-order oracle (:mod:`fedtheory.papers.fzoos._oracle`): ``zo_value(view, i, x)`` → f_i(x)
and ``zo_gradient(view, i, x, out)`` → ∇f_i(x) into ``out``. The kernels are pure, allocate
nothing and never check their input (the Python problems do).

:class:`SeparableView` — coordinate-separable functions
    With t_j = s·x_j + h (an affine change of coordinates, the same for every coordinate),
    f_i(x) = c_i + Σ_j [q_ij t_j² + l_ij t_j + a·sin(ω t_j)],
    ∂f_i/∂x_j = s·(2 q_ij t_j + l_ij + a ω cos(ω t_j)).
    The synthetic quadratics (98) are s = 20, h = −10, a = 0 (x ∈ [0, 1]^d is the paper's
    normalised input u, t the original input in [−10, 10]); the non-convex problem is s = 1,
    h = 0, a > 0.
:class:`DenseQuadraticView` — f_i(x) = ½ xᵀA_i x + b_iᵀx + c_i, ∇f_i(x) = A_i x + b_i
    (A_i symmetric).
:class:`FourierView` — f_i(x) = φ(x)ᵀw_i with the random Fourier features
    φ_m(x) = √(2/M) cos(v_mᵀx + b_m) (App. B with the corrected scale √(2/M), guide §0 item 8),
    ∇f_i(x) = −√(2/M) Σ_m w_im sin(v_mᵀx + b_m) v_m.
:class:`LogisticView` — f_i(x) = (1/n_i) Σ_j log(1 + exp(−y_j z_jᵀx)) + (λ/2)‖x‖² over the rows
    j of client i (rows ``offsets[i]:offsets[i+1]`` of the pooled data),
    ∇f_i(x) = −(1/n_i) Σ_j y_j sig(−y_j z_jᵀx) z_j + λx.

The plain numpy twins are in ``tests/reference/fzoos_problems.py``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []


# ============================================================================== separable


@njit
def _separable_value(view: SeparableView, i: int, x: np.ndarray) -> float:
    """f_i(x) of a :class:`SeparableView`."""
    total = view.const[i]
    s = view.scale
    h = view.shift
    a = view.amplitude
    w = view.frequency
    for j in range(x.shape[0]):
        t = s * x[j] + h
        total += (view.quad[i, j] * t + view.lin[i, j]) * t
        if a != 0.0:
            total += a * math.sin(w * t)
    value: float = total
    return value


@njit
def _separable_gradient(view: SeparableView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """∇f_i(x) of a :class:`SeparableView` into ``out``."""
    s = view.scale
    h = view.shift
    a = view.amplitude
    w = view.frequency
    for j in range(x.shape[0]):
        t = s * x[j] + h
        g = 2.0 * view.quad[i, j] * t + view.lin[i, j]
        if a != 0.0:
            g += a * w * math.cos(w * t)
        out[j] = s * g


class _SeparableFields(NamedTuple):
    quad: np.ndarray
    lin: np.ndarray
    const: np.ndarray
    scale: float
    shift: float
    amplitude: float
    frequency: float


class SeparableView(_SeparableFields):
    """Coordinate-separable f_i: ``quad``, ``lin`` (N, d), ``const`` (N,), the coordinate map
    t = ``scale``·x + ``shift`` and the shared sine term ``amplitude``·sin(``frequency``·t)."""

    __slots__ = ()

    zo_value = _separable_value
    zo_gradient = _separable_gradient


# ============================================================================== dense quadratics


@njit
def _dense_value(view: DenseQuadraticView, i: int, x: np.ndarray) -> float:
    """½ xᵀA_i x + b_iᵀx + c_i."""
    d = x.shape[0]
    A = view.curvature[i]
    total = 0.0
    for j in range(d):
        row = 0.0
        for k in range(d):
            row += A[j, k] * x[k]
        total += x[j] * (0.5 * row + view.lin[i, j])
    value: float = total + view.const[i]
    return value


@njit
def _dense_gradient(view: DenseQuadraticView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """A_i x + b_i into ``out``."""
    d = x.shape[0]
    A = view.curvature[i]
    for j in range(d):
        row = view.lin[i, j]
        for k in range(d):
            row += A[j, k] * x[k]
        out[j] = row


class _DenseFields(NamedTuple):
    curvature: np.ndarray
    lin: np.ndarray
    const: np.ndarray


class DenseQuadraticView(_DenseFields):
    """f_i(x) = ½ xᵀA_i x + b_iᵀx + c_i: ``curvature`` (N, d, d), ``lin`` (N, d), ``const`` (N,)."""

    __slots__ = ()

    zo_value = _dense_value
    zo_gradient = _dense_gradient


# ============================================================================== Fourier features


@njit
def _fourier_value(view: FourierView, i: int, x: np.ndarray) -> float:
    """φ(x)ᵀw_i with φ_m(x) = √(2/M) cos(v_mᵀx + b_m)."""
    M = view.phases.shape[0]
    d = x.shape[0]
    total = 0.0
    for m in range(M):
        arg = view.phases[m]
        for k in range(d):
            arg += view.frequencies[m, k] * x[k]
        total += view.weights[i, m] * math.cos(arg)
    value: float = total * math.sqrt(2.0 / M)
    return value


@njit
def _fourier_gradient(view: FourierView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """∇(φ(x)ᵀw_i) = −√(2/M) Σ_m w_im sin(v_mᵀx + b_m) v_m into ``out``."""
    M = view.phases.shape[0]
    d = x.shape[0]
    for k in range(d):
        out[k] = 0.0
    for m in range(M):
        arg = view.phases[m]
        for k in range(d):
            arg += view.frequencies[m, k] * x[k]
        c = view.weights[i, m] * math.sin(arg)
        for k in range(d):
            out[k] -= c * view.frequencies[m, k]
    scale = math.sqrt(2.0 / M)
    for k in range(d):
        out[k] *= scale


class _FourierFields(NamedTuple):
    frequencies: np.ndarray
    phases: np.ndarray
    weights: np.ndarray


class FourierView(_FourierFields):
    """f_i = φᵀw_i: ``frequencies`` v (M, d), ``phases`` b (M,), ``weights`` w (N, M)."""

    __slots__ = ()

    zo_value = _fourier_value
    zo_gradient = _fourier_gradient


# ============================================================================== logistic


@njit
def _softplus(t: float) -> float:
    """log(1 + e^t) without overflow."""
    if t > 0.0:
        value: float = t + math.log1p(math.exp(-t))
        return value
    return math.log1p(math.exp(t))


@njit
def _sigmoid(t: float) -> float:
    """1 / (1 + e^{−t}) without overflow."""
    if t >= 0.0:
        return 1.0 / (1.0 + math.exp(-t))
    e = math.exp(t)
    return e / (1.0 + e)


@njit
def _logistic_value(view: LogisticView, i: int, x: np.ndarray) -> float:
    """(1/n_i) Σ_j softplus(−y_j z_jᵀx) + (λ/2)‖x‖²."""
    d = x.shape[0]
    start = view.offsets[i]
    stop = view.offsets[i + 1]
    total = 0.0
    for j in range(start, stop):
        margin = 0.0
        for k in range(d):
            margin += view.features[j, k] * x[k]
        total += _softplus(-view.labels[j] * margin)
    norm2 = 0.0
    for k in range(d):
        norm2 += x[k] * x[k]
    value: float = total / (stop - start) + 0.5 * view.ridge * norm2
    return value


@njit
def _logistic_gradient(view: LogisticView, i: int, x: np.ndarray, out: np.ndarray) -> None:
    """−(1/n_i) Σ_j y_j sig(−y_j z_jᵀx) z_j + λx into ``out``."""
    d = x.shape[0]
    start = view.offsets[i]
    stop = view.offsets[i + 1]
    for k in range(d):
        out[k] = 0.0
    for j in range(start, stop):
        margin = 0.0
        for k in range(d):
            margin += view.features[j, k] * x[k]
        y = view.labels[j]
        c = -y * _sigmoid(-y * margin)
        for k in range(d):
            out[k] += c * view.features[j, k]
    n = stop - start
    for k in range(d):
        out[k] = out[k] / n + view.ridge * x[k]


class _LogisticFields(NamedTuple):
    features: np.ndarray
    labels: np.ndarray
    offsets: np.ndarray
    ridge: float


class LogisticView(_LogisticFields):
    """Pooled ``features`` (n, d), ``labels`` ±1 (n,), client row ``offsets`` (N + 1,) int64 and
    the ridge weight λ."""

    __slots__ = ()

    zo_value = _logistic_value
    zo_gradient = _logistic_gradient
