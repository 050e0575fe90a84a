"""Hölder-smooth latent variable models M_ij = g(y_i; ϑ_j) and Lemma 1's piecewise polynomials.

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* (the ``fedlrgd``
seed; reading guide §3.2.1–3.2.2 and §5.1). A latent variable model (29) is the matrix

    M ∈ ℝ^{n×k},   M_ij = g(y^{(i)}; ϑ^{(j)}),

rows indexed by data y^{(i)} ∈ [0,1]^d and columns by parameters ϑ^{(j)}. Theorem 1 says that
when every g(·; ϑ) is (η, L2)-Hölder in the ℓ1 norm (6), the tail energy of its singular values
σ_1 ≥ σ_2 ≥ … decays at least like r^{−2η/d}:

    t(r) = (1/(nk)) Σ_{j>r} σ_j² = (1/(nk))‖M − M_r‖_F² ≤ K(d, η, L2)·r^{−2η/d}   (r ≥ r_min),

with K = L2² e^{2η/d} d^{η/d} 4^η (l+d)^{2η}/(l!)², l = ⌈η⌉ − 1 and r_min = e√d 2^d (l+d)^d.
:func:`latent_matrix` draws such matrices from the generative models of the guide (§5.1) and
states each family's smoothness constants; :func:`tail_energy` and :func:`rank_at_tolerance`
read t(r) and the approximate rank off the singular values; :func:`piecewise_taylor` builds
Lemma 1's piecewise Taylor polynomial P_{q,l} (49), (43).

Families (``family=``)
----------------------
``"lvm-p"`` (ℓ1 power kernel, η ∈ (0, 1])
    g = ‖y − ϑ‖₁^η, y, ϑ ∼ U[0,1]^d. (η, L2 = 1)-Hölder with l = 0, **exactly**:
    |a^η − b^η| ≤ |a − b|^η and the reverse triangle inequality give L2 ≤ 1, and y = ϑ attains
    it.
``"lvm-p2"`` (ℓ2 power kernel, η ∈ (1, 2])
    g = ‖y − ϑ‖₂^η, l = 1, ∂_j g = η‖z‖^{η−2} z_j (z = y − ϑ). L2 = η·2^{2−η}, exact in d = 1
    (attained at z¹ = −z²). For d > 1 the same value is a *working* constant (not proved here)
    and :attr:`LatentModel.L2_estimate` holds a numerical **lower** bound on the true L2 (the
    largest ratio |∂_j g(y¹) − ∂_j g(y²)|/‖y¹ − y²‖₁^{η−1} over random pairs, guide §5.1).
``"lvm-m"`` (Matérn, ℓ2, ν ∈ {1/2, 3/2, 5/2})
    g = k_ν(‖y − ϑ‖₂/ℓ), k_{1/2}(ρ) = e^{−ρ}, k_{3/2}(ρ) = (1 + √3ρ)e^{−√3ρ},
    k_{5/2}(ρ) = (1 + √5ρ + 5ρ²/3)e^{−√5ρ}; η = 2ν ∈ {1, 3, 5}, l = 2ν − 1 and
    L2 = c_ν/ℓ^{2ν} with c_ν = sup_ρ |k_ν^{(l+1)}(ρ)| = |k_ν^{(l+1)}(0)| ∈ {1, 6√3, 200√5/3}.
    ν = 1/2: exact in every d (ℓ2-Lipschitz constant 1/ℓ, and ‖·‖₂ ≤ ‖·‖₁, approached as
    y → ϑ along an axis). ν ≥ 3/2: exact in d = 1; in d = 2 the sup over z of every (l+1)-th
    partial derivative was computed on a polar grid in 50-digit arithmetic and equals the d = 1
    value (approached as z → 0 along an axis) [derived numerically]; for d ≥ 3 the value is a
    working constant.
``"lvm-a"`` (App. A, logistic regression with soft labels; analytic)
    g_i(x, y; θ) = (σ(θᵀx) − y)x_i + μθ_i (the i-th partial derivative of (66)), rows the
    samples (x, y) ∈ [0,1]^{d−1} × [0,1] (the data dimension d includes the label, so d ≥ 2),
    columns θ ∼ U[−1,1]^{d−1}. Samples: x ∼ U[0,1]^{d−1}, y = clip(σ(a·wᵀx + ε), 0, 1) with
    w ∼ U[−1,1]^{d−1}, ε ∼ N(0, s²), a = 4, s = 0.3 (guide §5.1; w's law is our default). The
    paper's (72) states (η, L2) = (2, 1) "for illustration": a valid upper bound (l = 1).
``"lvm-q"`` (exactly rank ρ; guide §5.1 and D5)
    g_i(x; θ) = Σ_{k≤K'} φ_k(x)(H_kθ)_i + μθ_i − b_i(x) for f(x; θ) = ½θᵀ(Σ_k φ_k(x)H_k + μI)θ
    − θᵀb(x), with Gaussian bumps φ_k(x) = exp(−‖x − c_k‖²/(2w²)) (w = 0.25, c_k ∼ U[0,1]^d),
    H_k = A_kA_kᵀ/p with A_k standard Gaussian p × p, and affine b(x) = b_0 + B_1x.
    K' = ρ − 2 (ρ − 1 when μ = 0): g_i is a sum of ρ products (function of x)(function of θ),
    so M has rank exactly ρ for generic draws when n, k ≥ ρ and p ≥ ρ − 1 (default p = ρ).
    Analytic; no Hölder constant is stated (η = None).
``"indicator"`` (negative control, not Hölder for any η > 0)
    g = 1{‖y − ϑ‖₁ < 1/2}: discontinuous, so the η-slope tests of V3 must fail on it.
``"probe"`` (tightness probe, exploratory; guide §5.1)
    M_ij = Σ_ω |ω|₂^{−(η+d/2)} cos(2πωᵀy_i + φ_{ω,j}) over the ``modes`` lowest frequencies
    ω ∈ ℤ^d ∖ {0} of a half-space, with phases φ_{ω,j} i.i.d. U[0, 2π) per column ("random
    θ-dependent phases"; the column's latent variable is its phase vector). σ_j² ∝ |ω_j|^{−(2η+d)}
    with |ω_j| ≍ j^{1/d}, so t(r) ≍ r^{−2η/d}: the theorem's exponent. Hölder constants are not
    controlled (``L2 = None``).

Generation
----------
Matrices are built by numba kernels (``fedtheory._jit.njit``, one core, private and pure, each
with a plain-numpy twin in ``tests/reference/latent.py``). The power and exponential functions
are evaluated by branch-free polynomial ``exp``/``log`` written for this module (relative error
≤ 4.5e-16 against numpy, checked by the tests), because numba calls the scalar libm otherwise and
LLVM then cannot vectorise the loops: at n = k = 1200 the SIMD kernels take 0.4–2 ms, about 7×
less than the same loops with libm calls and 4× (d = 1) to 20× (d ≥ 2) less than vectorised
numpy broadcasting (``benchmarks/bench_fedlrgd_matrix.py``). The rank-structured
families (``"lvm-q"``, ``"probe"``) are matrix products and go through BLAS. Singular values are
computed by LAPACK (``scipy.linalg.svdvals``, divide and conquer).

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; eqs. (6), (29)–(31), (43), (49)–(52), (66)–(72), Lemma 1, Theorem 1,
   App. A.
.. [2] C. E. Rasmussen & C. K. I. Williams (2006), *Gaussian Processes for Machine Learning*,
   MIT Press, §4.2.1 (the Matérn kernels k_ν).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import scipy.linalg
from numba import types
from numba.extending import intrinsic

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError

__all__ = [
    "LATENT_FAMILIES",
    "MATERN_NU",
    "HolderStatus",
    "LatentKernel",
    "LatentModel",
    "PiecewiseTaylor",
    "holder_constant_estimate",
    "latent_kernel",
    "latent_matrix",
    "piecewise_taylor",
    "rank_at_tolerance",
    "tail_energy",
]

#: Every family :func:`latent_matrix` draws (see the module docstring).
LATENT_FAMILIES: tuple[str, ...] = (
    "lvm-p",
    "lvm-p2",
    "lvm-m",
    "lvm-a",
    "lvm-q",
    "indicator",
    "probe",
)
#: Families whose latent function g is deterministic (:func:`latent_kernel` builds them).
KERNEL_FAMILIES: tuple[str, ...] = ("lvm-p", "lvm-p2", "lvm-m", "lvm-a", "indicator")
#: Matérn smoothness parameters ν of ``"lvm-m"`` (η = 2ν).
MATERN_NU: tuple[float, ...] = (0.5, 1.5, 2.5)

#: How a stated Hölder constant L2 is known:
#:
#: - ``"exact"``: proved valid and the smallest valid constant (attained, or approached in a
#:   limit such as y → ϑ);
#: - ``"upper"``: proved valid, possibly loose (App. A's L2 = 1);
#: - ``"numerical"``: the supremum in (6) computed numerically (Matérn ν ≥ 3/2 in d = 2);
#: - ``"working"``: a value used without proof (see ``L2_estimate`` when present);
#: - ``"none"``: no constant (not Hölder, analytic without a stated constant, or uncontrolled).
HolderStatus = Literal["exact", "upper", "numerical", "working", "none"]

#: sup_ρ |k_ν^{(2ν)}(ρ)| = |k_ν^{(2ν)}(0)|: the ℓ1-Lipschitz constant of the (2ν−1)-th derivative
#: of k_ν(|·|) (times ℓ^{−2ν}); computed with sympy (reading guide §5.1, our derivation).
_MATERN_C: dict[float, float] = {
    0.5: 1.0,
    1.5: 6.0 * math.sqrt(3.0),
    2.5: 200.0 * math.sqrt(5.0) / 3.0,
}
_MATERN_CODE: dict[float, int] = {0.5: 0, 1.5: 1, 2.5: 2}
#: ℓ1 radius of the indicator negative control.
_INDICATOR_RADIUS = 0.5
#: LVM-A label model y = clip(σ(a·wᵀx + ε), 0, 1), ε ∼ N(0, s²) (guide §5.1).
_LABEL_SCALE = 4.0
_LABEL_NOISE = 0.3
#: LVM-Q bump width w of φ_k(x) = exp(−‖x − c_k‖²/(2w²)).
_BUMP_WIDTH = 0.25

# ----------------------------------------------------------------------------- SIMD exp and log
# numba lowers math.exp/math.log to scalar libm calls, which stop LLVM from vectorising a loop;
# these branch-free polynomial versions are plain arithmetic plus two bit casts, so the loops
# of the kernels below compile to AVX2/AVX-512 code. Accuracy: ≤ 2 ulp-ish (tests check 2e-15).

_LN2_HI = 6.93147180369123816490e-01  # ln 2 split in two for an exact k·ln 2 (fdlibm)
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.4426950408889634
_SQRT_HALF_BITS = 0x3FE6A09E667F3BCD  # bit pattern of √2/2
_MANTISSA = 0x000FFFFFFFFFFFFF


def _float_bits_typing(typingctx: Any, x: Any) -> Any:
    """Reinterpret a float64 as an int64 (an LLVM bitcast, vectorisable)."""
    if x != types.float64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], context.get_value_type(types.int64))

    return types.int64(types.float64), codegen


def _bits_float_typing(typingctx: Any, x: Any) -> Any:
    """Reinterpret an int64 as a float64 (an LLVM bitcast, vectorisable)."""
    if x != types.int64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], context.get_value_type(types.float64))

    return types.float64(types.int64), codegen


_float_bits = cast("Callable[[float], int]", intrinsic(_float_bits_typing))
_bits_float = cast("Callable[[int], float]", intrinsic(_bits_float_typing))


@njit(inline="always", error_model="numpy")
def _log(x: float) -> float:
    """ln x for a positive float64 (no checks: callers mask x ≤ 0; subnormals are rescaled).

    x = 2^e·m with m ∈ [√2/2, √2) (bit arithmetic), ln m = 2 atanh(f), f = (m − 1)/(m + 1),
    |f| ≤ 0.1716, by its odd series to f^21 (truncation < 3e-17 relative).
    """
    small = x < 2.2250738585072014e-308
    x = x * 18014398509481984.0 if small else x  # 2^54: subnormal → normal
    bits = _float_bits(x) - _SQRT_HALF_BITS
    exponent = bits >> 52
    m = _bits_float((bits & _MANTISSA) + _SQRT_HALF_BITS)
    f = (m - 1.0) / (m + 1.0)
    f2 = f * f
    p = 1.0 / 21.0
    p = p * f2 + 1.0 / 19.0
    p = p * f2 + 1.0 / 17.0
    p = p * f2 + 1.0 / 15.0
    p = p * f2 + 1.0 / 13.0
    p = p * f2 + 1.0 / 11.0
    p = p * f2 + 1.0 / 9.0
    p = p * f2 + 1.0 / 7.0
    p = p * f2 + 1.0 / 5.0
    p = p * f2 + 1.0 / 3.0
    e = float(exponent) - (54.0 if small else 0.0)
    return e * _LN2_HI + ((2.0 * f + 2.0 * f * f2 * p) + e * _LN2_LO)


@njit(inline="always", error_model="numpy")
def _exp(y: float) -> float:
    """e^y for y clamped to [−708, 709] (below: e^{−708} ≈ 3e−308 instead of a subnormal).

    y = k ln 2 + r, |r| ≤ ln 2/2, e^r by its Taylor polynomial to r^13 (truncation < 2e-17),
    2^k assembled in the exponent bits.
    """
    y = -708.0 if y < -708.0 else y
    y = 709.0 if y > 709.0 else y
    kf = math.floor(y * _INV_LN2 + 0.5)
    r = (y - kf * _LN2_HI) - kf * _LN2_LO
    p = 1.0 / 6227020800.0
    p = p * r + 1.0 / 479001600.0
    p = p * r + 1.0 / 39916800.0
    p = p * r + 1.0 / 3628800.0
    p = p * r + 1.0 / 362880.0
    p = p * r + 1.0 / 40320.0
    p = p * r + 1.0 / 5040.0
    p = p * r + 1.0 / 720.0
    p = p * r + 1.0 / 120.0
    p = p * r + 1.0 / 24.0
    p = p * r + 1.0 / 6.0
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    return p * _bits_float((int(kf) + 1023) << 52)


@njit(error_model="numpy")
def _exp_array(values: np.ndarray) -> np.ndarray:
    """e^x elementwise with :func:`_exp` (exposed for the accuracy tests)."""
    out = np.empty_like(values)
    for i in range(values.size):
        out[i] = _exp(values[i])
    return out


@njit(error_model="numpy")
def _log_array(values: np.ndarray) -> np.ndarray:
    """ln x elementwise with :func:`_log` (positive normal inputs; for the accuracy tests)."""
    out = np.empty_like(values)
    for i in range(values.size):
        out[i] = _log(values[i])
    return out


# ----------------------------------------------------------------------------- matrix kernels
# Inputs: rows (n, d) C-contiguous; the column points transposed, cols_t (d, k) C-contiguous,
# so that every inner loop runs over a contiguous row of the output.

_POW_GENERIC, _POW_ONE, _POW_HALF, _POW_TWO = 0, 1, 2, 3


def _power_mode(power: float) -> int:
    """Exact fast paths of s ↦ s^power (no transcendental function at all)."""
    return {1.0: _POW_ONE, 0.5: _POW_HALF, 2.0: _POW_TWO}.get(power, _POW_GENERIC)


@njit(inline="always", error_model="numpy")
def _power_row(row: np.ndarray, power: float, mode: int) -> None:
    """row ← row^power in place (row ≥ 0; 0^power = 0 for power > 0)."""
    k = row.shape[0]
    if mode == _POW_ONE:
        return
    if mode == _POW_HALF:
        for j in range(k):
            row[j] = math.sqrt(row[j])
        return
    if mode == _POW_TWO:
        for j in range(k):
            row[j] = row[j] * row[j]
        return
    for j in range(k):  # two passes: each vectorises better than the fused loop
        s = row[j]
        row[j] = power * _log(s) if s > 0.0 else -math.inf  # −inf marks 0^power = 0
    for j in range(k):
        row[j] = _exp(row[j]) if row[j] > -math.inf else 0.0


@njit(inline="always", error_model="numpy")
def _l1_distances(point: np.ndarray, cols_t: np.ndarray, row: np.ndarray) -> None:
    """row[j] = ‖point − cols_j‖₁, accumulated coordinate by coordinate (contiguous in j)."""
    row[:] = 0.0
    for c in range(point.shape[0]):
        yc = point[c]
        for j in range(row.shape[0]):
            row[j] += abs(yc - cols_t[c, j])


@njit(inline="always", error_model="numpy")
def _squared_l2_distances(point: np.ndarray, cols_t: np.ndarray, row: np.ndarray) -> None:
    """row[j] = ‖point − cols_j‖₂², accumulated coordinate by coordinate (contiguous in j)."""
    row[:] = 0.0
    for c in range(point.shape[0]):
        yc = point[c]
        for j in range(row.shape[0]):
            diff = yc - cols_t[c, j]
            row[j] += diff * diff


@njit(error_model="numpy")
def _l1_power_kernel(rows: np.ndarray, cols_t: np.ndarray, eta: float, mode: int) -> np.ndarray:
    """M_ij = ‖rows_i − cols_j‖₁^η (``"lvm-p"``)."""
    n = rows.shape[0]
    k = cols_t.shape[1]
    out = np.empty((n, k))
    for i in range(n):
        row = out[i]
        _l1_distances(rows[i], cols_t, row)
        _power_row(row, eta, mode)
    return out


@njit(error_model="numpy")
def _l2_power_kernel(
    rows: np.ndarray, cols_t: np.ndarray, half_eta: float, mode: int
) -> np.ndarray:
    """M_ij = ‖rows_i − cols_j‖₂^η = (‖·‖₂²)^{η/2} (``"lvm-p2"``)."""
    n = rows.shape[0]
    k = cols_t.shape[1]
    out = np.empty((n, k))
    for i in range(n):
        row = out[i]
        _squared_l2_distances(rows[i], cols_t, row)
        _power_row(row, half_eta, mode)
    return out


@njit(error_model="numpy")
def _matern_kernel(rows: np.ndarray, cols_t: np.ndarray, code: int, inv_scale: float) -> np.ndarray:
    """M_ij = k_ν(‖rows_i − cols_j‖₂/ℓ), code 0, 1, 2 for ν = 1/2, 3/2, 5/2 (``"lvm-m"``)."""
    n = rows.shape[0]
    k = cols_t.shape[1]
    out = np.empty((n, k))
    sqrt3 = math.sqrt(3.0)
    sqrt5 = math.sqrt(5.0)
    for i in range(n):
        row = out[i]
        _squared_l2_distances(rows[i], cols_t, row)
        for j in range(k):
            row[j] = math.sqrt(row[j]) * inv_scale
        if code == 0:
            for j in range(k):
                row[j] = _exp(-row[j])
        elif code == 1:
            for j in range(k):
                rho = sqrt3 * row[j]
                row[j] = (1.0 + rho) * _exp(-rho)
        else:
            for j in range(k):
                rho = sqrt5 * row[j]
                row[j] = (1.0 + rho + rho * rho / 3.0) * _exp(-rho)
    return out


@njit(error_model="numpy")
def _indicator_kernel(rows: np.ndarray, cols_t: np.ndarray, radius: float) -> np.ndarray:
    """M_ij = 1{‖rows_i − cols_j‖₁ < radius} (``"indicator"``)."""
    n = rows.shape[0]
    k = cols_t.shape[1]
    out = np.empty((n, k))
    for i in range(n):
        row = out[i]
        _l1_distances(rows[i], cols_t, row)
        for j in range(k):
            row[j] = 1.0 if row[j] < radius else 0.0
    return out


@njit(error_model="numpy")
def _logistic_gradient_kernel(
    rows: np.ndarray, thetas_t: np.ndarray, coordinate: int, mu: float
) -> np.ndarray:
    """M_ij = (σ(θ_jᵀx_i) − y_i)x_{i,c} + μθ_{j,c}, rows_i = (x_i, y_i) (``"lvm-a"``)."""
    n = rows.shape[0]
    p, k = thetas_t.shape
    out = np.empty((n, k))
    for i in range(n):
        row = out[i]
        for j in range(k):
            row[j] = 0.0
        for c in range(p):
            xc = rows[i, c]
            for j in range(k):
                row[j] += xc * thetas_t[c, j]
        label = rows[i, p]
        xi = rows[i, coordinate]
        for j in range(k):
            sigmoid = 1.0 / (1.0 + _exp(-row[j]))
            row[j] = (sigmoid - label) * xi + mu * thetas_t[coordinate, j]
    return out


# ----------------------------------------------------------------------------- the kernel g


def _sigmoid(u: np.ndarray) -> np.ndarray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * u)))


@dataclass(frozen=True)
class LatentKernel:
    """A deterministic latent function g(y; ϑ) of one family with its Hölder constants (6).

    Attributes
    ----------
    family : str
        One of :data:`KERNEL_FAMILIES`.
    d : int
        Data dimension (for ``"lvm-a"``: features plus the label).
    p : int
        Dimension of the column variable ϑ (``d`` except ``"lvm-a"``: d − 1).
    eta : float or None
        Hölder exponent η (None: not Hölder, ``"indicator"``).
    l : int or None
        ⌈η⌉ − 1, the order of the derivatives in (6).
    L2 : float or None
        Hölder constant (6) in the ℓ1 norm.
    L2_status : str
        How L2 is known (:data:`HolderStatus`).
    nu, lengthscale : float or None
        Matérn parameters (``"lvm-m"``).
    mu : float or None
        Ridge μ (``"lvm-a"``).
    coordinate : int or None
        Gradient coordinate i of g_i (``"lvm-a"``).
    """

    family: str
    d: int
    p: int
    eta: float | None
    l: int | None  # noqa: E741 (the paper's l = ⌈η⌉ − 1)
    L2: float | None
    L2_status: HolderStatus
    nu: float | None = None
    lengthscale: float | None = None
    mu: float | None = None
    coordinate: int | None = None

    def __call__(self, y: Any, theta: Any) -> np.ndarray:
        """The matrix [g(y_i; ϑ_j)]_{ij} (numba kernel), y of shape (n, d), ϑ of shape (k, p)."""
        rows = _points("y", y, self.d)
        cols_t = np.ascontiguousarray(_points("theta", theta, self.p).T)
        return _kernel_matrix(self, rows, cols_t)

    def pointwise(self, y: Any, theta: Any) -> np.ndarray:
        """g(y; ϑ) for broadcastable arrays y (..., d) and ϑ (..., p) (plain numpy).

        ``kernel.pointwise(y[:, None, :], theta[None, :, :])`` is the matrix of
        :meth:`__call__`, computed from the definition (used by tests and by the estimate of
        L2).
        """
        y = np.asarray(y, dtype=np.float64)
        theta = np.asarray(theta, dtype=np.float64)
        if self.family == "lvm-a":
            x, label = y[..., :-1], y[..., -1]
            i = self.coordinate
            assert i is not None and self.mu is not None
            sig = _sigmoid(np.sum(theta * x, axis=-1))
            return np.asarray((sig - label) * x[..., i] + self.mu * theta[..., i])
        z = y - theta
        if self.family == "lvm-p":
            assert self.eta is not None
            return np.asarray(np.sum(np.abs(z), axis=-1) ** self.eta)
        if self.family == "indicator":
            return (np.sum(np.abs(z), axis=-1) < _INDICATOR_RADIUS).astype(np.float64)
        norm = np.sqrt(np.sum(z * z, axis=-1))
        if self.family == "lvm-p2":
            assert self.eta is not None
            return np.asarray(norm**self.eta)
        assert self.nu is not None and self.lengthscale is not None
        return _matern_profile(self.nu, norm / self.lengthscale)

    def pointwise_gradient(self, y: Any, theta: Any) -> np.ndarray:
        """∇_y g(y; ϑ), shape (..., d), for the families with l = 1 (``"lvm-p2"``, ``"lvm-a"``).

        Raises
        ------
        ParameterError
            For the other families (Lemma 1 needs derivatives of order ≤ l only).
        """
        y = np.asarray(y, dtype=np.float64)
        theta = np.asarray(theta, dtype=np.float64)
        if self.family == "lvm-p2":
            assert self.eta is not None
            z = y - theta
            norm = np.sqrt(np.sum(z * z, axis=-1, keepdims=True))
            with np.errstate(divide="ignore", invalid="ignore"):
                scale = np.where(norm > 0, self.eta * norm ** (self.eta - 2.0), 0.0)
            return np.asarray(scale * z)
        if self.family == "lvm-a":
            i = self.coordinate
            assert i is not None
            x, label = y[..., :-1], y[..., -1]
            u = np.sum(theta * x, axis=-1)
            sig = _sigmoid(u)
            dsig = sig * (1.0 - sig)
            grad_x = (dsig * x[..., i])[..., None] * theta
            grad_x[..., i] += sig - label
            grad_y = np.broadcast_to(-x[..., i : i + 1], (*grad_x.shape[:-1], 1))
            return np.concatenate([grad_x, grad_y], axis=-1)
        raise ParameterError(
            parameter="family",
            value=self.family,
            rule="gradients are implemented for the l = 1 families 'lvm-p2' and 'lvm-a'",
        )

    def sample_theta(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """``size`` column points from the family's law: U[0,1]^p, or U[−1,1]^p for ``lvm-a``."""
        if self.family == "lvm-a":
            return rng.uniform(-1.0, 1.0, size=(size, self.p))
        return rng.random((size, self.p))


def _matern_profile(nu: float, rho: np.ndarray) -> np.ndarray:
    if nu == 0.5:
        return np.asarray(np.exp(-rho))
    if nu == 1.5:
        s = math.sqrt(3.0) * rho
        return np.asarray((1.0 + s) * np.exp(-s))
    s = math.sqrt(5.0) * rho
    return np.asarray((1.0 + s + s * s / 3.0) * np.exp(-s))


def _kernel_matrix(kernel: LatentKernel, rows: np.ndarray, cols_t: np.ndarray) -> np.ndarray:
    family = kernel.family
    if family == "lvm-p":
        assert kernel.eta is not None
        return _l1_power_kernel(rows, cols_t, kernel.eta, _power_mode(kernel.eta))
    if family == "lvm-p2":
        assert kernel.eta is not None
        half = 0.5 * kernel.eta
        return _l2_power_kernel(rows, cols_t, half, _power_mode(half))
    if family == "lvm-m":
        assert kernel.nu is not None and kernel.lengthscale is not None
        return _matern_kernel(rows, cols_t, _MATERN_CODE[kernel.nu], 1.0 / kernel.lengthscale)
    if family == "lvm-a":
        assert kernel.coordinate is not None and kernel.mu is not None
        return _logistic_gradient_kernel(rows, cols_t, kernel.coordinate, kernel.mu)
    return _indicator_kernel(rows, cols_t, _INDICATOR_RADIUS)


def _points(name: str, value: Any, dim: int) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.float64, copy=True, order="C")
    except (TypeError, ValueError):
        raise ParameterError(
            parameter=name, value=value, rule="must be an array of reals"
        ) from None
    if array.ndim != 2 or array.shape[1] != dim:
        raise ParameterError(
            parameter=name,
            value=f"array of shape {array.shape}",
            rule=f"must have shape (m, {dim})",
        )
    if not np.isfinite(array).all():
        raise ParameterError(parameter=name, value="array with NaN or inf", rule="must be finite")
    return array


def _check_family(family: Any, allowed: tuple[str, ...]) -> str:
    if family not in allowed:
        raise ParameterError(
            parameter="family", value=family, rule=f"must be one of {', '.join(allowed)}"
        )
    return str(family)


def _unused(family: str, **given: Any) -> None:
    for name, value in given.items():
        if value is not None:
            raise ParameterError(
                parameter=name, value=value, rule=f"is not a parameter of family {family!r}"
            )


def _check_eta(eta: Any, family: str, low: float, high: float, *, low_open: bool = True) -> float:
    if eta is None:
        raise ParameterError(parameter="eta", value=None, rule=f"is required by family {family!r}")
    value = check_real("eta", eta, positive=True)
    inside = (value > low if low_open else value >= low) and value <= high
    if not inside:
        bracket = "(" if low_open else "["
        raise ParameterError(
            parameter="eta",
            value=value,
            rule=f"must lie in {bracket}{low:g}, {high:g}] for family {family!r}",
        )
    return value


def latent_kernel(
    family: str,
    d: int,
    *,
    eta: float | None = None,
    nu: float | None = None,
    lengthscale: float | None = None,
    mu: float | None = None,
    coordinate: int | None = None,
) -> LatentKernel:
    """The latent function g of a deterministic family, with its Hölder constants (6).

    Parameters
    ----------
    family
        ``"lvm-p"``, ``"lvm-p2"``, ``"lvm-m"``, ``"lvm-a"`` or ``"indicator"`` (module
        docstring).
    d
        Data dimension, ≥ 1 (≥ 2 for ``"lvm-a"``: d − 1 features and the label).
    eta
        Hölder exponent: required in (0, 1] for ``"lvm-p"`` and in (1, 2] for ``"lvm-p2"``.
    nu
        Matérn ν ∈ {0.5, 1.5, 2.5} (required by ``"lvm-m"``; η = 2ν).
    lengthscale
        Matérn ℓ > 0 (default 0.3, guide §5.1).
    mu
        Ridge μ ≥ 0 of ``"lvm-a"`` (default 0.1).
    coordinate
        Gradient coordinate i ∈ [0, d − 2] of ``"lvm-a"`` (default 0).

    Returns
    -------
    LatentKernel

    Raises
    ------
    ParameterError
        On an unknown family, a parameter outside its range, a missing required parameter or
        a parameter the family does not have.

    Examples
    --------
    >>> g = latent_kernel("lvm-p2", 1, eta=1.5)
    >>> g.l, round(g.L2, 6), g.L2_status
    (1, 2.12132, 'exact')
    >>> latent_kernel("lvm-m", 2, nu=1.5).eta
    3.0
    """
    family = _check_family(family, KERNEL_FAMILIES)
    d = check_int("d", d, minimum=2 if family == "lvm-a" else 1)
    if family == "lvm-p":
        _unused(family, nu=nu, lengthscale=lengthscale, mu=mu, coordinate=coordinate)
        value = _check_eta(eta, family, 0.0, 1.0)
        return LatentKernel(family, d, d, value, 0, 1.0, "exact")
    if family == "lvm-p2":
        _unused(family, nu=nu, lengthscale=lengthscale, mu=mu, coordinate=coordinate)
        value = _check_eta(eta, family, 1.0, 2.0)
        status: HolderStatus = "exact" if d == 1 else "working"
        return LatentKernel(family, d, d, value, 1, value * 2.0 ** (2.0 - value), status)
    if family == "lvm-m":
        _unused(family, eta=eta, mu=mu, coordinate=coordinate)
        if isinstance(nu, bool) or not isinstance(nu, numbers.Real) or float(nu) not in MATERN_NU:
            raise ParameterError(
                parameter="nu", value=nu, rule="must be one of 0.5, 1.5, 2.5 (Matérn, η = 2ν)"
            )
        nu_value = float(nu)
        scale = check_real(
            "lengthscale", 0.3 if lengthscale is None else lengthscale, positive=True
        )
        order = round(2 * nu_value) - 1
        status = "exact" if nu_value == 0.5 or d == 1 else "numerical" if d == 2 else "working"
        L2 = _MATERN_C[nu_value] / scale ** (2 * nu_value)
        return LatentKernel(
            family, d, d, 2 * nu_value, order, L2, status, nu=nu_value, lengthscale=scale
        )
    if family == "lvm-a":
        _unused(family, eta=eta, nu=nu, lengthscale=lengthscale)
        mu_value = check_real("mu", 0.1 if mu is None else mu, nonnegative=True)
        index = check_int("coordinate", 0 if coordinate is None else coordinate, minimum=0)
        if index > d - 2:
            raise ParameterError(
                parameter="coordinate",
                value=index,
                rule=f"must be at most d − 2 = {d - 2} (θ has d − 1 = {d - 1} coordinates)",
            )
        return LatentKernel(family, d, d - 1, 2.0, 1, 1.0, "upper", mu=mu_value, coordinate=index)
    _unused(family, eta=eta, nu=nu, lengthscale=lengthscale, mu=mu, coordinate=coordinate)
    return LatentKernel(family, d, d, None, None, None, "none")


# ----------------------------------------------------------------------------- the sample


@dataclass(frozen=True, eq=False)
class LatentModel:
    """A latent variable model (29) M_ij = g(y^{(i)}; ϑ^{(j)}) with its smoothness stated.

    Attributes
    ----------
    family : str
        One of :data:`LATENT_FAMILIES`.
    matrix : numpy.ndarray
        M, shape (n, k), read-only.
    rows : numpy.ndarray
        Latent data points y^{(i)}, shape (n, d) (``"lvm-a"``: (x_i, y_i)).
    cols : numpy.ndarray
        Latent parameters ϑ^{(j)}, shape (k, p) (``"probe"``: the phase vectors, (k, modes)).
    d : int
        Data dimension.
    eta, l, L2, L2_status
        Hölder exponent η, l = ⌈η⌉ − 1, constant L2 in the ℓ1 norm (6) and how it is known
        (:data:`HolderStatus`); None where the family states none.
    L2_estimate : float or None
        A numerical lower bound on the true L2 (``"lvm-p2"`` in d > 1; see
        :func:`holder_constant_estimate`).
    rank : int or None
        The exact rank ρ (``"lvm-q"``).
    kernel : LatentKernel or None
        The latent function (None for the random functions of ``"lvm-q"`` and ``"probe"``).
    params : dict
        The family's parameters (ν, ℓ, μ, coordinate, K', p, modes, …).
    """

    family: str
    matrix: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    d: int
    eta: float | None
    l: int | None  # noqa: E741 (the paper's l = ⌈η⌉ − 1)
    L2: float | None
    L2_status: HolderStatus
    L2_estimate: float | None
    rank: int | None
    kernel: LatentKernel | None
    params: dict[str, Any]

    @property
    def n(self) -> int:
        """Number of rows (data points)."""
        return int(self.matrix.shape[0])

    @property
    def k(self) -> int:
        """Number of columns (parameters)."""
        return int(self.matrix.shape[1])

    def singular_values(self) -> np.ndarray:
        """σ_1 ≥ … ≥ σ_min(n,k) of M (LAPACK divide and conquer, ``scipy.linalg.svdvals``)."""
        return np.asarray(scipy.linalg.svdvals(self.matrix, check_finite=False))

    def tail_energy(self) -> np.ndarray:
        """t(r) = (1/(nk))‖M − M_r‖_F² for r = 0, …, min(n, k) (:func:`tail_energy`)."""
        return tail_energy(self.singular_values(), self.n, self.k)


def latent_matrix(
    family: str,
    n: int,
    k: int,
    d: int,
    seed: Seed,
    *,
    eta: float | None = None,
    nu: float | None = None,
    lengthscale: float | None = None,
    mu: float | None = None,
    coordinate: int | None = None,
    rank: int | None = None,
    p: int | None = None,
    modes: int | None = None,
) -> LatentModel:
    """Draw a latent variable model M ∈ ℝ^{n×k}, M_ij = g(y^{(i)}; ϑ^{(j)}) (29).

    Rows y^{(i)} and columns ϑ^{(j)} are i.i.d. from the family's laws (U[0,1]^d unless the
    module docstring says otherwise); the family's smoothness (η, l, L2) is stated with how it
    is known. Random draws, in order, from ``numpy.random.default_rng(seed)``: the rows, the
    columns, then the family's own draws (labels, bumps, phases, …).

    Parameters
    ----------
    family
        One of :data:`LATENT_FAMILIES` (``"lvm-p"``, ``"lvm-p2"``, ``"lvm-m"``, ``"lvm-a"``,
        ``"lvm-q"``, ``"indicator"``, ``"probe"``).
    n, k
        Numbers of rows and columns, ≥ 1.
    d
        Data dimension, ≥ 1 (≥ 2 for ``"lvm-a"``, whose last data coordinate is the label).
    seed
        Integer or :class:`numpy.random.SeedSequence`.
    eta
        Hölder exponent: required in (0, 1] (``"lvm-p"``), (1, 2] (``"lvm-p2"``); the nominal
        η > 0 of ``"probe"`` (amplitudes |ω|^{−(η+d/2)}).
    nu, lengthscale
        Matérn ν ∈ {0.5, 1.5, 2.5} and ℓ > 0 (default 0.3) of ``"lvm-m"``.
    mu
        Ridge μ ≥ 0 of ``"lvm-a"`` and ``"lvm-q"`` (default 0.1).
    coordinate
        Gradient coordinate i of ``"lvm-a"`` (≤ d − 2) and ``"lvm-q"`` (≤ p − 1); default 0.
    rank
        ρ of ``"lvm-q"`` (required; ≥ 2 when μ > 0, ≥ 1 when μ = 0).
    p
        Parameter dimension of ``"lvm-q"``, ≥ ρ − 1 (default ρ).
    modes
        Number of Fourier modes of ``"probe"`` (default 2·max(n, k); at least max(n, k) so
        that the truncation does not cap the rank).

    Returns
    -------
    LatentModel

    Raises
    ------
    ParameterError
        On an unknown family, a size below 1, a parameter outside its range (η outside the
        family's interval, ν not in {1/2, 3/2, 5/2}, ℓ ≤ 0, μ < 0, …), a missing required
        parameter or one the family does not have, or an invalid seed.

    Examples
    --------
    >>> model = latent_matrix("lvm-p", 50, 40, 1, seed=0, eta=0.5)
    >>> model.matrix.shape, model.L2, model.L2_status
    ((50, 40), 1.0, 'exact')
    >>> q = latent_matrix("lvm-q", 60, 60, 2, seed=1, rank=4)
    >>> int(np.linalg.matrix_rank(q.matrix)), q.rank
    (4, 4)
    """
    family = _check_family(family, LATENT_FAMILIES)
    n = check_int("n", n, minimum=1)
    k = check_int("k", k, minimum=1)
    if family in KERNEL_FAMILIES:
        _unused(family, rank=rank, p=p, modes=modes)
        kernel = latent_kernel(
            family, d, eta=eta, nu=nu, lengthscale=lengthscale, mu=mu, coordinate=coordinate
        )
        rng = generator(seed)
        return _kernel_model(kernel, n, k, rng)
    if family == "lvm-q":
        _unused(family, eta=eta, nu=nu, lengthscale=lengthscale, modes=modes)
        return _quadratic_model(n, k, d, seed, mu=mu, coordinate=coordinate, rank=rank, p=p)
    _unused(family, nu=nu, lengthscale=lengthscale, mu=mu, coordinate=coordinate, rank=rank, p=p)
    return _probe_model(n, k, d, seed, eta=eta, modes=modes)


def _kernel_model(kernel: LatentKernel, n: int, k: int, rng: np.random.Generator) -> LatentModel:
    d = kernel.d
    params: dict[str, Any] = {}
    if kernel.family == "lvm-a":
        features = rng.random((n, d - 1))
        thetas = rng.uniform(-1.0, 1.0, size=(k, d - 1))
        w = rng.uniform(-1.0, 1.0, size=d - 1)
        noise = rng.standard_normal(n)
        labels = np.clip(_sigmoid(_LABEL_SCALE * features @ w + _LABEL_NOISE * noise), 0.0, 1.0)
        rows = np.column_stack([features, labels])
        params = {
            "mu": kernel.mu,
            "coordinate": kernel.coordinate,
            "w": w,
            "label_scale": _LABEL_SCALE,
            "label_noise": _LABEL_NOISE,
        }
    else:
        rows = rng.random((n, d))
        thetas = rng.random((k, d))
        if kernel.family == "lvm-m":
            params = {"nu": kernel.nu, "lengthscale": kernel.lengthscale}
    matrix = _kernel_matrix(kernel, rows, np.ascontiguousarray(thetas.T))
    estimate = None
    if kernel.L2_status == "working" and kernel.family == "lvm-p2":
        estimate = holder_constant_estimate(kernel, pairs=20_000, seed=rng)
    return LatentModel(
        family=kernel.family,
        matrix=readonly(matrix, copy=False),
        rows=readonly(rows, copy=False),
        cols=readonly(thetas, copy=False),
        d=d,
        eta=kernel.eta,
        l=kernel.l,
        L2=kernel.L2,
        L2_status=kernel.L2_status,
        L2_estimate=estimate,
        rank=None,
        kernel=kernel,
        params=params,
    )


def _quadratic_model(
    n: int,
    k: int,
    d: int,
    seed: Seed,
    *,
    mu: float | None,
    coordinate: int | None,
    rank: int | None,
    p: int | None,
) -> LatentModel:
    d = check_int("d", d, minimum=1)
    mu_value = check_real("mu", 0.1 if mu is None else mu, nonnegative=True)
    if rank is None:
        raise ParameterError(parameter="rank", value=None, rule="is required by family 'lvm-q'")
    rho = check_int("rank", rank, minimum=2 if mu_value > 0 else 1)
    bumps = rho - 2 if mu_value > 0 else rho - 1
    dim = check_int("p", rho if p is None else p, minimum=max(rho - 1, 1))
    index = check_int("coordinate", 0 if coordinate is None else coordinate, minimum=0)
    if index > dim - 1:
        raise ParameterError(
            parameter="coordinate", value=index, rule=f"must be at most p − 1 = {dim - 1}"
        )
    rng = generator(seed)
    rows = rng.random((n, d))
    thetas = rng.uniform(-1.0, 1.0, size=(k, dim))
    centres = rng.random((bumps, d))
    factors = rng.standard_normal((bumps, dim, dim))
    b0 = rng.standard_normal(dim)
    b1 = rng.standard_normal((dim, d))
    hessians = np.einsum("kab,kcb->kac", factors, factors) / dim  # H_k = A_k A_kᵀ / p
    sq = np.sum((rows[:, None, :] - centres[None, :, :]) ** 2, axis=-1)
    phi = np.exp(-sq / (2.0 * _BUMP_WIDTH**2))  # (n, K')
    h_rows = hessians[:, index, :]  # (K', p): (H_k θ)_i = h_k · θ
    matrix = phi @ (h_rows @ thetas.T) + mu_value * thetas[:, index][None, :]
    matrix = matrix - (b0[index] + rows @ b1[index])[:, None]
    return LatentModel(
        family="lvm-q",
        matrix=readonly(matrix, copy=False),
        rows=readonly(rows, copy=False),
        cols=readonly(thetas, copy=False),
        d=d,
        eta=None,
        l=None,
        L2=None,
        L2_status="none",
        L2_estimate=None,
        rank=rho,
        kernel=None,
        params={
            "mu": mu_value,
            "coordinate": index,
            "bumps": bumps,
            "p": dim,
            "bump_width": _BUMP_WIDTH,
            "centres": centres,
            "hessians": hessians,
            "b0": b0,
            "b1": b1,
        },
    )


def _frequencies(d: int, count: int) -> np.ndarray:
    """The ``count`` lowest-norm ω ∈ ℤ^d ∖ {0} with first nonzero coordinate positive."""
    radius = 1
    while True:
        axis = np.arange(-radius, radius + 1)
        grid = np.stack(np.meshgrid(*([axis] * d), indexing="ij"), axis=-1).reshape(-1, d)
        nonzero = grid != 0
        first = np.argmax(nonzero, axis=1)
        lead = grid[np.arange(grid.shape[0]), first]
        keep = nonzero.any(axis=1) & (lead > 0)
        grid = grid[keep]
        norms = np.sqrt(np.sum(grid * grid, axis=1))
        inside = norms <= radius  # complete up to this norm
        if inside.sum() >= count:
            order = np.lexsort((*grid.T[::-1], norms))
            return np.asarray(grid[order][:count], dtype=np.float64)
        radius *= 2


def _probe_model(
    n: int, k: int, d: int, seed: Seed, *, eta: float | None, modes: int | None
) -> LatentModel:
    d = check_int("d", d, minimum=1)
    if eta is None:
        raise ParameterError(parameter="eta", value=None, rule="is required by family 'probe'")
    eta_value = check_real("eta", eta, positive=True)
    count = check_int("modes", 2 * max(n, k) if modes is None else modes, minimum=max(n, k))
    rng = generator(seed)
    rows = rng.random((n, d))
    phases = rng.uniform(0.0, 2.0 * math.pi, size=(k, count))
    omega = _frequencies(d, count)
    amplitude = np.sqrt(np.sum(omega * omega, axis=1)) ** (-(eta_value + d / 2.0))
    angle = 2.0 * math.pi * rows @ omega.T  # (n, modes)
    # cos(a + φ) = cos a cos φ − sin a sin φ: a product of an n × 2W and a 2W × k matrix
    left = np.concatenate([np.cos(angle), np.sin(angle)], axis=1)
    right = np.concatenate(
        [amplitude[:, None] * np.cos(phases.T), -amplitude[:, None] * np.sin(phases.T)]
    )
    matrix = left @ right
    return LatentModel(
        family="probe",
        matrix=readonly(matrix, copy=False),
        rows=readonly(rows, copy=False),
        cols=readonly(phases, copy=False),
        d=d,
        eta=eta_value,
        l=math.ceil(eta_value) - 1,
        L2=None,
        L2_status="none",
        L2_estimate=None,
        rank=None,
        kernel=None,
        params={"modes": count, "frequencies": omega, "amplitudes": amplitude},
    )


# ----------------------------------------------------------------------------- tail and rank


def tail_energy(singular_values: Any, n: int, k: int | None = None) -> np.ndarray:
    """Normalised tail energies t(r) = (1/(nk)) Σ_{j>r} σ_j² = (1/(nk))‖M − M_r‖_F².

    The left side of Theorem 1 (by Eckart–Young–Mirsky (31), ‖M − M_r‖_F² = Σ_{j>r} σ_j²).

    Parameters
    ----------
    singular_values
        σ_1, σ_2, … of M (any order; sorted here), non-negative.
    n, k
        Shape of M (k defaults to n: t(r) = (1/n²)Σ_{j>r}σ_j²).

    Returns
    -------
    numpy.ndarray
        Length len(σ) + 1; entry r is t(r) for r = 0, …, len(σ) (t(0) = ‖M‖_F²/(nk), the last
        entry 0). Non-increasing.

    Examples
    --------
    >>> tail_energy([3.0, 2.0, 1.0], 2).tolist()
    [3.5, 1.25, 0.25, 0.0]
    """
    sigma = np.asarray(singular_values, dtype=np.float64)
    if sigma.ndim != 1 or not np.isfinite(sigma).all() or (sigma < 0).any():
        raise ParameterError(
            parameter="singular_values",
            value="...",
            rule="must be a one-dimensional array of finite non-negative numbers",
        )
    n = check_int("n", n, minimum=1)
    k = n if k is None else check_int("k", k, minimum=1)
    squares = np.sort(sigma)[::-1] ** 2
    tails = np.concatenate([np.cumsum(squares[::-1])[::-1], [0.0]])
    return np.asarray(tails / (float(n) * float(k)))


def rank_at_tolerance(t_values: Any, tolerance: Any) -> Any:
    """r(t) = min{r ≥ 0 : t(r) ≤ t}, the approximate rank at tolerance t (guide D4).

    Parameters
    ----------
    t_values
        t(0), t(1), … as returned by :func:`tail_energy` (non-increasing, ending at 0).
    tolerance
        t > 0, a number or an array of numbers.

    Returns
    -------
    int or numpy.ndarray
        The smallest r with t(r) ≤ t (an int for a scalar tolerance).

    Examples
    --------
    >>> t = tail_energy([3.0, 2.0, 1.0], 2)
    >>> rank_at_tolerance(t, 1.0), rank_at_tolerance(t, [2.0, 0.1]).tolist()
    (2, [1, 3])
    """
    t = np.asarray(t_values, dtype=np.float64)
    if t.ndim != 1 or t.size == 0 or not np.isfinite(t).all() or (np.diff(t) > 0).any():
        raise ParameterError(
            parameter="t_values", value="...", rule="must be a finite non-increasing 1-D array"
        )
    tol = np.asarray(tolerance, dtype=np.float64)
    if not np.isfinite(tol).all() or (tol <= 0).any():
        raise ParameterError(parameter="tolerance", value=tolerance, rule="must be positive")
    if tol.min() < t[-1]:
        raise ParameterError(
            parameter="tolerance",
            value=float(tol.min()),
            rule=f"is below the last tail value {t[-1]:.3g}: no r reaches it",
        )
    # t is non-increasing: count the entries strictly above each tolerance
    ranks = np.searchsorted(-t, -tol, side="left")
    return int(ranks) if ranks.ndim == 0 else ranks.astype(np.int64)


# ----------------------------------------------------------------------------- Hölder estimate


def holder_constant_estimate(
    kernel: LatentKernel, *, pairs: int = 20_000, seed: Seed | np.random.Generator = 0
) -> float:
    """A numerical **lower** bound on the Hölder constant L2 of (6): the largest ratio seen.

    For l = 0 the ratio is |g(y¹; ϑ) − g(y²; ϑ)|/‖y¹ − y²‖₁^η, for l = 1 it is
    max_j |∂_j g(y¹; ϑ) − ∂_j g(y²; ϑ)|/‖y¹ − y²‖₁^{η−1} (guide §5.1, LVM-P2), over ``pairs``
    random pairs in [0,1]^d and random ϑ: a third of the pairs uniform, a third close pairs
    (‖y¹ − y²‖ from 1e−1 to 1e−4), a third nearly symmetric about ϑ (where the power kernels
    attain their constants). The true L2 is at least the returned value, so a bound check that
    passes with it is conservative and a failure is inconclusive.

    Parameters
    ----------
    kernel
        A Hölder family with l ≤ 1 (``"lvm-p"``, ``"lvm-p2"``, ``"lvm-m"`` with ν = 1/2,
        ``"lvm-a"``).
    pairs
        Number of random pairs, ≥ 3.
    seed
        Integer, SeedSequence or a Generator (used as is).

    Examples
    --------
    >>> g = latent_kernel("lvm-p2", 1, eta=1.5)
    >>> estimate = holder_constant_estimate(g, pairs=3000, seed=0)
    >>> bool(0.9 * g.L2 < estimate <= g.L2 * (1 + 1e-12))
    True
    """
    if kernel.eta is None or kernel.l is None or kernel.l > 1:
        raise ParameterError(
            parameter="kernel",
            value=kernel.family,
            rule="must be Hölder with l ≤ 1 (lvm-p, lvm-p2, lvm-m with nu = 0.5, lvm-a)",
        )
    count = check_int("pairs", pairs, minimum=3)
    rng = seed if isinstance(seed, np.random.Generator) else generator(seed)
    d = kernel.d
    theta = kernel.sample_theta(count, rng)
    y1 = rng.random((count, d))
    y2 = rng.random((count, d))
    third = count // 3
    scales = 10.0 ** rng.uniform(-4.0, -1.0, size=(third, 1))
    y2[:third] = y1[:third] + scales * rng.standard_normal((third, d))
    if kernel.family != "lvm-a":  # reflect about ϑ: z² ≈ −z¹
        sym = slice(third, 2 * third)
        jitter = 1e-3 * rng.standard_normal((third, d)) * rng.random((third, 1))
        y2[sym] = 2.0 * theta[sym] - y1[sym] + jitter
    y2 = np.clip(y2, 0.0, 1.0)
    distance = np.sum(np.abs(y1 - y2), axis=-1)
    keep = distance > 1e-6  # clipping can leave near-coincident pairs: all rounding, no signal
    exponent = kernel.eta - kernel.l
    if kernel.l == 0:
        change = np.abs(kernel.pointwise(y1, theta) - kernel.pointwise(y2, theta))
    else:
        gradients = kernel.pointwise_gradient(y1, theta) - kernel.pointwise_gradient(y2, theta)
        change = np.max(np.abs(gradients), axis=-1)
    ratios = change[keep] / distance[keep] ** exponent
    return float(ratios.max()) if ratios.size else 0.0


# ----------------------------------------------------------------------------- Lemma 1


@dataclass(frozen=True, eq=False)
class PiecewiseTaylor:
    """Lemma 1's piecewise Taylor polynomial P_{q,l}(y; ϑ) = Σ_I P_I(y; ϑ)1{y ∈ I} (43), (49).

    The cells I are the cubes of a grid with ``cells_per_axis`` = ⌈qd/2⌉ cubes per axis, of
    side 1/⌈qd/2⌉ ≤ 2/(qd): every point is within ℓ1 distance d/(2⌈qd/2⌉) ≤ 1/q of its cube's
    centre z_I, which is all the proof of Lemma 1 uses (ℓ1 balls of radius 1/q around the
    centres cover [0,1]^d). In d = 1 the ⌈q/2⌉ intervals of length ≤ 2/q are a *minimal*
    ℓ1 covering, exactly the paper's construction (27)–(28); for d ≥ 2 the grid is the guide's
    ℓ∞-grid covering (§3.2.1), not a minimal one, so its cell count ⌈qd/2⌉^d replaces |𝒩|.
    P_I is the degree-l Taylor polynomial of g(·; ϑ) at z_I (49).

    Attributes
    ----------
    q : float
        Inverse covering radius q > 0.
    l : int
        Polynomial degree ⌈η⌉ − 1.
    d : int
        Data dimension.
    cells_per_axis : int
        ⌈qd/2⌉.
    n_cells : int
        Number of cells, ⌈qd/2⌉^d.
    monomials : int
        D = C(l + d, d), the number of monomials of degree ≤ l.
    centres : numpy.ndarray
        Cell centres z_I, shape (n_cells, d).
    cell_index : numpy.ndarray
        Cell of each evaluation point y_i, shape (n,).
    values : numpy.ndarray
        N_ij = P_{q,l}(y_i; ϑ_j), shape (n, k).
    error_bound : float
        Lemma 1's sup_y |g(y; ϑ) − P_{q,l}(y; ϑ)| ≤ L2/(l!·q^η).
    """

    q: float
    l: int  # noqa: E741 (the paper's l = ⌈η⌉ − 1)
    d: int
    cells_per_axis: int
    n_cells: int
    monomials: int
    centres: np.ndarray
    cell_index: np.ndarray
    values: np.ndarray
    error_bound: float

    @property
    def rank_bound(self) -> int:
        """rank N ≤ (number of cells)·D, step 2 of the proof of Theorem 1."""
        return self.n_cells * self.monomials


def piecewise_taylor(kernel: LatentKernel, q: float, y: Any, theta: Any) -> PiecewiseTaylor:
    """Evaluate Lemma 1's P_{q,l}(y_i; ϑ_j) at data points y and parameters ϑ.

    Parameters
    ----------
    kernel
        A Hölder family with l ≤ 1 and an implemented gradient when l = 1: ``"lvm-p"``,
        ``"lvm-m"`` with ν = 1/2 (l = 0), ``"lvm-p2"``, ``"lvm-a"`` (l = 1).
    q
        Inverse covering radius, q > 0.
    y
        Evaluation points in [0,1]^d, shape (n, d).
    theta
        Parameters, shape (k, p).

    Returns
    -------
    PiecewiseTaylor
        With ``values`` N (n × k) and Lemma 1's ``error_bound`` L2/(l!q^η).

    Examples
    --------
    >>> g = latent_kernel("lvm-p", 1, eta=0.5)
    >>> y = np.linspace(0, 1, 2001)[:, None]
    >>> theta = np.array([[0.3], [0.71]])
    >>> P = piecewise_taylor(g, 8.0, y, theta)
    >>> P.n_cells, bool(np.abs(g(y, theta) - P.values).max() <= P.error_bound)
    (4, True)
    """
    if kernel.eta is None or kernel.l is None or kernel.L2 is None or kernel.l > 1:
        raise ParameterError(
            parameter="kernel",
            value=kernel.family,
            rule="Lemma 1 is built for Hölder families with l ≤ 1 "
            "(lvm-p, lvm-p2, lvm-m with nu = 0.5, lvm-a)",
        )
    q_value = check_real("q", q, positive=True)
    points = _points("y", y, kernel.d)
    if (points < 0).any() or (points > 1).any():
        raise ParameterError(parameter="y", value="...", rule="must lie in [0, 1]^d")
    thetas = _points("theta", theta, kernel.p)
    d = kernel.d
    per_axis = math.ceil(q_value * d / 2.0 - 1e-12)
    per_axis = max(per_axis, 1)
    axis_index = np.minimum(np.floor(points * per_axis), per_axis - 1).astype(np.int64)
    cell = np.ravel_multi_index(tuple(axis_index.T), (per_axis,) * d)
    used, inverse = np.unique(cell, return_inverse=True)
    used_axes = np.stack(np.unravel_index(used, (per_axis,) * d), axis=-1)
    centres_used = (used_axes + 0.5) / per_axis
    values = kernel(centres_used, thetas)[inverse]  # g(z_I; ϑ_j), the l = 0 term
    if kernel.l == 1:
        gradient = kernel.pointwise_gradient(centres_used[:, None, :], thetas[None, :, :])
        offset = points - centres_used[inverse]  # y − z_I
        values = values + np.einsum("ikc,ic->ik", gradient[inverse], offset)
    all_axes = np.stack(np.unravel_index(np.arange(per_axis**d), (per_axis,) * d), axis=-1)
    return PiecewiseTaylor(
        q=q_value,
        l=kernel.l,
        d=d,
        cells_per_axis=per_axis,
        n_cells=per_axis**d,
        monomials=math.comb(kernel.l + d, d),
        centres=readonly((all_axes + 0.5) / per_axis, copy=False),
        cell_index=np.asarray(cell),
        values=readonly(values, copy=False),
        error_bound=kernel.L2 / (math.factorial(kernel.l) * q_value**kernel.eta),
    )
