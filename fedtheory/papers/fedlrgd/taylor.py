"""Lemma 1's piecewise Taylor polynomial P_{q,l} of a latent function (fedlrgd, (43), (49)).

Jadbabaie, Makur & Shah, Lemma 1: on a grid of cells of side 1/q, g(·; ϑ) is approximated by its
Taylor polynomial of degree l at each cell's centre, with sup error ≤ L2·(d/(2q))^η/l!
(registered as ``fedlrgd.lemma1``). :func:`piecewise_taylor` builds it for a
:class:`~fedtheory.papers.fedlrgd.latent_kernels.LatentKernel`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_real
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.latent_kernels import LatentKernel, _points

__all__ = ["PiecewiseTaylor", "piecewise_taylor"]


@dataclass(frozen=True, eq=False)
class PiecewiseTaylor:
    """Lemma 1's piecewise Taylor polynomial P_{q,l}(y; ϑ) = Σ_I P_I(y; ϑ)1{y ∈ I} (43), (49).

    The cells I are the cubes of a grid with ``cells_per_axis`` = ⌈qd/2⌉ cubes per axis, of
    side 1/⌈qd/2⌉ ≤ 2/(qd): every point is within ℓ1 distance d/(2⌈qd/2⌉) ≤ 1/q of its cube's
    centre z_I, which is all the proof of Lemma 1 uses (ℓ1 balls of radius 1/q around the
    centres cover [0,1]^d). In d = 1 the ⌈q/2⌉ intervals of length ≤ 2/q are a *minimal*
    ℓ1 covering, exactly the paper's construction (27)–(28); for d ≥ 2 the grid is the guide's
    ℓ∞-grid covering (§3.2.1), not a minimal one, so its cell count ⌈qd/2⌉^d replaces ``|𝒩|``.
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
        Lemma 1's sup_y ``|g(y; ϑ) − P_{q,l}(y; ϑ)|`` ≤ L2/(l!·q^η).
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
    >>> from fedtheory.papers.fedlrgd import latent_kernel
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
