"""Norms of functions on atoms, radial clipping and the Lipschitz constant (private kernels).

A function on P atoms with c outputs is a flat float64 vector of length P·c, the row-major
flattening of its (P, c) values (the round loop's model vector). ``weights`` is a measure on the
atoms, shape (P,): the client's α_i. The norms of the ffgb paper (reading guide §1):

- ``NORM_L2``: ‖f‖_α = (Σ_x α(x)‖f(x)‖²)^{1/2}, the norm of (9);
- ``NORM_SUP``: ‖f‖_{α,∞} = max_{x ∈ supp α} ‖f(x)‖, the norm of (13) and (19) (on the support
  only: atoms of weight 0 are ignored);
- ``NORM_LIP``: the pair of (19)–(20), ‖f‖_{α,∞} and ‖f‖_lip, where ‖f‖_lip is the largest slope
  ‖f(x) − f(y)‖/‖x − y‖ over the atoms' coordinates ``points`` (P, dim): over *all* atoms, as the
  paper's ‖·‖_lip is over all of 𝒳 — on a finite set of points it is the Lipschitz constant of
  the function restricted to them. In one dimension the largest slope over all pairs is attained
  by neighbours in sorted order (a slope between x_a < x_b is a weighted average of the slopes in
  between), so with ``order`` = argsort(points) it costs O(P); otherwise all pairs, O(P²).

‖·‖ of a value f(x) ∈ ℝ^c is Euclidean; clipping Π_R is radial, f(x)·min(1, R/‖f(x)‖) (the
projection onto the ball of radius R at every atom; for c = 1 the paper's max{min{f, R}, −R}).
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

NORM_L2 = 0
NORM_SUP = 1
NORM_LIP = 2
NORM_NAMES = ("l2", "sup", "lip")


@njit
def _atom_square(v: np.ndarray, x: int, c: int) -> float:
    """‖v(x)‖²."""
    total = 0.0
    for j in range(x * c, x * c + c):
        total += v[j] * v[j]
    return total


@njit
def _atom_distance_square(a: np.ndarray, b: np.ndarray, x: int, c: int) -> float:
    """‖a(x) − b(x)‖²."""
    total = 0.0
    for j in range(x * c, x * c + c):
        diff = a[j] - b[j]
        total += diff * diff
    return total


@njit
def _l2_distance(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> float:
    """‖a − b‖_α."""
    atoms = weights.shape[0]
    c = a.shape[0] // atoms
    total = 0.0
    for x in range(atoms):
        if weights[x] > 0.0:
            total += weights[x] * _atom_distance_square(a, b, x, c)
    return math.sqrt(total)


@njit
def _l2(a: np.ndarray, weights: np.ndarray) -> float:
    """‖a‖_α."""
    atoms = weights.shape[0]
    c = a.shape[0] // atoms
    total = 0.0
    for x in range(atoms):
        if weights[x] > 0.0:
            total += weights[x] * _atom_square(a, x, c)
    return math.sqrt(total)


@njit
def _sup_distance(a: np.ndarray, b: np.ndarray, weights: np.ndarray) -> float:
    """max_{x ∈ supp α} ‖a(x) − b(x)‖."""
    atoms = weights.shape[0]
    c = a.shape[0] // atoms
    top = 0.0
    for x in range(atoms):
        if weights[x] > 0.0:
            value = _atom_distance_square(a, b, x, c)
            if value > top:
                top = value
    return math.sqrt(top)


@njit
def _sup(a: np.ndarray, weights: np.ndarray) -> float:
    """max_{x ∈ supp α} ‖a(x)‖."""
    atoms = weights.shape[0]
    c = a.shape[0] // atoms
    top = 0.0
    for x in range(atoms):
        if weights[x] > 0.0:
            value = _atom_square(a, x, c)
            if value > top:
                top = value
    return math.sqrt(top)


@njit
def _pair_slope_square(
    a: np.ndarray, b: np.ndarray, scale: float, points: np.ndarray, x: int, y: int, c: int
) -> float:
    """‖(a + scale·b)(x) − (a + scale·b)(y)‖² / ‖x − y‖² (inf for distinct values at one point,
    0 for equal ones)."""
    value = 0.0
    for j in range(c):
        diff = (a[x * c + j] + scale * b[x * c + j]) - (a[y * c + j] + scale * b[y * c + j])
        value += diff * diff
    gap = 0.0
    for q in range(points.shape[1]):
        diff = points[x, q] - points[y, q]
        gap += diff * diff
    if gap == 0.0:
        return math.inf if value > 0.0 else 0.0
    return value / gap


@njit
def _lipschitz_combination(
    a: np.ndarray, b: np.ndarray, scale: float, points: np.ndarray, order: np.ndarray
) -> float:
    """‖a + scale·b‖_lip over ``points`` (neighbours in ``order`` when it is given, all pairs
    otherwise)."""
    atoms = points.shape[0]
    c = a.shape[0] // atoms
    top = 0.0
    if order.shape[0] == atoms:
        for s in range(atoms - 1):
            value = _pair_slope_square(a, b, scale, points, order[s], order[s + 1], c)
            if value > top:
                top = value
    else:
        for x in range(atoms):
            for y in range(x + 1, atoms):
                value = _pair_slope_square(a, b, scale, points, x, y, c)
                if value > top:
                    top = value
    return math.sqrt(top)


@njit
def _lipschitz(a: np.ndarray, points: np.ndarray, order: np.ndarray) -> float:
    """‖a‖_lip over ``points``."""
    return _lipschitz_combination(a, a, 0.0, points, order)


@njit
def _lipschitz_distance(
    a: np.ndarray, b: np.ndarray, points: np.ndarray, order: np.ndarray
) -> float:
    """‖a − b‖_lip over ``points``."""
    return _lipschitz_combination(a, b, -1.0, points, order)


@njit
def _quotient(top: float, bottom: float) -> float:
    """top/bottom with 0/0 = 0 and (positive)/0 = inf."""
    if bottom > 0.0:
        return top / bottom
    return 0.0 if top == 0.0 else math.inf


@njit
def _measured_ratio(
    norm: int,
    gamma: float,
    query: np.ndarray,
    out: np.ndarray,
    weights: np.ndarray,
    points: np.ndarray,
    order: np.ndarray,
) -> float:
    """The ratio ‖h − φ‖/‖φ‖ of one oracle call in the oracle's norm, to compare with 1 − γ.

    ``NORM_LIP`` returns the largest of the three ratios of the Lipschitz oracle, each scaled so
    that its condition reads "ratio ≤ 1 − γ": ‖h − φ‖_{α,∞}/‖φ‖_{α,∞} (19),
    ‖h − φ‖_lip/‖φ‖_lip (20) and (1 − γ)‖h‖_lip/‖φ‖_lip (‖h‖_lip ≤ ‖φ‖_lip).
    """
    if norm == NORM_L2:
        return _quotient(_l2_distance(out, query, weights), _l2(query, weights))
    ratio = _quotient(_sup_distance(out, query, weights), _sup(query, weights))
    if norm == NORM_LIP:
        slope = _lipschitz(query, points, order)
        ratio = max(ratio, _quotient(_lipschitz_distance(out, query, points, order), slope))
        if gamma < 1.0:
            growth = _quotient(_lipschitz(out, points, order), slope)
            ratio = max(ratio, (1.0 - gamma) * growth)
    return ratio


@njit
def _norm(norm: int, a: np.ndarray, weights: np.ndarray) -> float:
    """‖a‖ in the L²(α) or the sup-on-support norm (``NORM_LIP`` uses the sup part)."""
    if norm == NORM_L2:
        return _l2(a, weights)
    return _sup(a, weights)
