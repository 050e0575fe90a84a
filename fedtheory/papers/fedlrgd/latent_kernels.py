"""The latent functions g(y; ϑ) of the fedlrgd paper's generative models, as numba kernels.

Jadbabaie, Makur & Shah (guide §5.1): the ℓ1 and ℓ2 power kernels, the Matérn kernels, App. A's
logistic-gradient model and the indicator control, each evaluated on a rows × columns grid by a
private numba kernel (plain-numpy twins in ``tests/reference/latent.py``), and
:class:`LatentKernel` — the family, its parameters and its Hölder constants (η, l, L2) with how
exactly L2 is known (:data:`HolderStatus`). :func:`latent_kernel` builds one;
:func:`~fedtheory.papers.fedlrgd.latent_matrix` draws matrices from it. The families and their
constants are described in :mod:`fedtheory.papers.fedlrgd.latent`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._checks import check_int, check_real
from fedtheory._jit import njit
from fedtheory._vector_math import _exp
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd._vector_math import (
    _l1_distances,
    _power_mode,
    _power_row,
    _squared_l2_distances,
)

__all__ = ["LATENT_FAMILIES", "MATERN_NU", "HolderStatus", "LatentKernel", "latent_kernel"]


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
            return np.asarray(np.sum(np.abs(z), axis=-1) < _INDICATOR_RADIUS, dtype=np.float64)
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
