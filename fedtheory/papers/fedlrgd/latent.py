"""Hölder-smooth latent variable models M_ij = g(y_i; ϑ_j) and Lemma 1's piecewise polynomials.

Jadbabaie, Makur & Shah, *Federated Optimization of Smooth Loss Functions* [1]_ (the
``fedlrgd`` seed; reading guide §3.2.1–3.2.2 and §5.1). A latent variable model (29) is the
matrix::

    M ∈ ℝ^{n×k},   M_ij = g(y^{(i)}; ϑ^{(j)}),

rows indexed by data y^{(i)} ∈ [0,1]^d and columns by parameters ϑ^{(j)}. Theorem 1 says that
when every g(·; ϑ) is (η, L2)-Hölder in the ℓ1 norm (6), the tail energy of its singular values
σ_1 ≥ σ_2 ≥ … decays at least like r^{−2η/d}::

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
    ``|a^η − b^η| ≤ |a − b|^η`` and the reverse triangle inequality give L2 ≤ 1, and y = ϑ
    attains it.
``"lvm-p2"`` (ℓ2 power kernel, η ∈ (1, 2])
    g = ‖y − ϑ‖₂^η, l = 1, ∂_j g = η‖z‖^{η−2} z_j (z = y − ϑ). L2 = η·2^{2−η}, exact in d = 1
    (attained at z¹ = −z²). For d > 1 the same value is a *working* constant (not proved here)
    and :attr:`LatentModel.L2_estimate` holds a numerical **lower** bound on the true L2 (the
    largest ratio ``|∂_j g(y¹) − ∂_j g(y²)|/‖y¹ − y²‖₁^{η−1}`` over random pairs, guide §5.1).
``"lvm-m"`` (Matérn, ℓ2, ν ∈ {1/2, 3/2, 5/2})
    g = k_ν(‖y − ϑ‖₂/ℓ), k_{1/2}(ρ) = e^{−ρ}, k_{3/2}(ρ) = (1 + √3ρ)e^{−√3ρ},
    k_{5/2}(ρ) = (1 + √5ρ + 5ρ²/3)e^{−√5ρ} [2]_; η = 2ν ∈ {1, 3, 5}, l = 2ν − 1 and
    L2 = c_ν/ℓ^{2ν} with c_ν = ``sup_ρ |k_ν^{(l+1)}(ρ)| = |k_ν^{(l+1)}(0)|`` ∈
    {1, 6√3, 200√5/3}.
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
    M_ij = ``Σ_ω |ω|₂^{−(η+d/2)} cos(2πωᵀy_i + φ_{ω,j})`` over the ``modes`` lowest frequencies
    ω ∈ ℤ^d ∖ {0} of a half-space, with phases φ_{ω,j} i.i.d. U[0, 2π) per column ("random
    θ-dependent phases"; the column's latent variable is its phase vector).
    σ_j² ∝ ``|ω_j|^{−(2η+d)}`` with ``|ω_j|`` ≍ j^{1/d}, so t(r) ≍ r^{−2η/d}: the theorem's
    exponent. Hölder constants are not controlled (``L2 = None``).

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
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg

from fedtheory._arrays import readonly
from fedtheory._checks import check_int, check_real
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.latent_kernels import (
    _BUMP_WIDTH,
    _LABEL_NOISE,
    _LABEL_SCALE,
    KERNEL_FAMILIES,
    LATENT_FAMILIES,
    HolderStatus,
    LatentKernel,
    _check_family,
    _kernel_matrix,
    _sigmoid,
    _unused,
    latent_kernel,
)
from fedtheory.papers.fedlrgd.latent_ranks import holder_constant_estimate, tail_energy

__all__ = ["LatentModel", "latent_matrix"]


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
        η > 0 of ``"probe"`` (amplitudes ``|ω|^{−(η+d/2)}``).
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
