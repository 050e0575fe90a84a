"""Tail energies, ranks at a tolerance and Hölder constants read off latent matrices (fedlrgd).

Jadbabaie, Makur & Shah, Theorem 1: the tail energy t(r) = (1/(nk)) Σ_{j>r} σ_j² of a latent
variable model's singular values (:func:`tail_energy`), the smallest r with t(r) ≤ ε
(:func:`rank_at_tolerance`, the quantity of D4), and a numerical lower bound on the Hölder
constant L2 of (6) (:func:`holder_constant_estimate`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._checks import check_int
from fedtheory._seeds import Seed, generator
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.latent_kernels import LatentKernel

__all__ = ["holder_constant_estimate", "rank_at_tolerance", "tail_energy"]


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


def holder_constant_estimate(
    kernel: LatentKernel, *, pairs: int = 20_000, seed: Seed | np.random.Generator = 0
) -> float:
    """A numerical **lower** bound on the Hölder constant L2 of (6): the largest ratio seen.

    For l = 0 the ratio is ``|g(y¹; ϑ) − g(y²; ϑ)|``/‖y¹ − y²‖₁^η, for l = 1 it is
    max_j ``|∂_j g(y¹; ϑ) − ∂_j g(y²; ϑ)|``/‖y¹ − y²‖₁^{η−1} (guide §5.1, LVM-P2), over ``pairs``
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
    >>> from fedtheory.papers.fedlrgd import latent_kernel
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
