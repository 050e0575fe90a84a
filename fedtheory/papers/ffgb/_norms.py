"""Norms of functions on atoms, radial clipping and the Lipschitz constant (private kernels).

A function on P atoms with c outputs is a flat float64 vector of length P·c, the row-major
flattening of its (P, c) values (the round loop's model vector). ``weights`` is a measure on the
atoms, shape (P,): the client's α_i. The norms of the ffgb paper (reading guide §1):

- ``NORM_L2``: ‖f‖_α = (Σ_x α(x)‖f(x)‖²)^{1/2}, the norm of (9);
- ``NORM_SUP``: ‖f‖_{α,∞} = max_{x ∈ supp α} ‖f(x)‖, the norm of (13) and (19) (on the support
  only: atoms of weight 0 are ignored);
- ``NORM_LIP``: the pair of (19)–(20), ‖f‖_{α,∞} and ‖f‖_lip, where ‖f‖_lip is the largest slope
  ‖f(x) − f(y)‖/‖x − y‖ over the atoms' coordinates (P, dim): over *all* atoms, as the paper's
  ‖·‖_lip is over all of 𝒳 — on a finite set of points it is the Lipschitz constant of the
  function restricted to them. The slopes are taken over precomputed ``pairs`` with weights
  1/‖x − y‖² (:func:`lipschitz_pairs`): in one dimension the neighbours in sorted order suffice
  (a slope between x_a < x_b is a weighted average of the slopes in between), O(P); otherwise
  all pairs, O(P²).

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


def lipschitz_pairs(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of atoms whose slopes give the Lipschitz constant, and 1/‖x − y‖² for each.

    One dimension: the neighbours in sorted order (P − 1 pairs); otherwise all P(P − 1)/2
    pairs. Coincident points get weight inf (a function with two values there has Lipschitz
    constant inf). Computed once per run, in numpy.
    """
    points = np.asarray(points, dtype=np.float64)
    if points.ndim == 1:
        points = points[:, None]
    if points.shape[1] == 1:
        order = np.argsort(points[:, 0], kind="stable")
        pairs = np.stack([order[:-1], order[1:]], axis=1)
    else:
        first, second = np.triu_indices(points.shape[0], k=1)
        pairs = np.stack([first, second], axis=1)
    gaps = ((points[pairs[:, 0]] - points[pairs[:, 1]]) ** 2).sum(axis=1)
    with np.errstate(divide="ignore"):
        weights = np.where(gaps > 0.0, 1.0 / np.where(gaps > 0.0, gaps, 1.0), np.inf)
    return np.ascontiguousarray(pairs, dtype=np.int64), np.ascontiguousarray(weights)


@njit
def _lipschitz(a: np.ndarray, pairs: np.ndarray, pair_weights: np.ndarray, atoms: int) -> float:
    """‖a‖_lip: the largest ‖a(x) − a(y)‖/‖x − y‖ over ``pairs``."""
    c = a.shape[0] // atoms
    top = 0.0
    for p in range(pairs.shape[0]):
        x = pairs[p, 0] * c
        y = pairs[p, 1] * c
        value = 0.0
        for j in range(c):
            diff = a[x + j] - a[y + j]
            value += diff * diff
        if value > 0.0:
            top = max(top, value * pair_weights[p])
    return math.sqrt(top)


@njit
def _lipschitz_of_call(
    query: np.ndarray, out: np.ndarray, pairs: np.ndarray, pair_weights: np.ndarray, atoms: int
) -> tuple[float, float, float]:
    """(‖φ‖_lip, ‖h − φ‖_lip, ‖h‖_lip) in one pass over the pairs."""
    c = query.shape[0] // atoms
    top_query = 0.0
    top_spread = 0.0
    top_out = 0.0
    for p in range(pairs.shape[0]):
        x = pairs[p, 0] * c
        y = pairs[p, 1] * c
        weight = pair_weights[p]
        dq = 0.0
        ds = 0.0
        do = 0.0
        for j in range(c):
            q = query[x + j] - query[y + j]
            o = out[x + j] - out[y + j]
            dq += q * q
            ds += (o - q) * (o - q)
            do += o * o
        if dq > 0.0:
            top_query = max(top_query, dq * weight)
        if ds > 0.0:
            top_spread = max(top_spread, ds * weight)
        if do > 0.0:
            top_out = max(top_out, do * weight)
    return math.sqrt(top_query), math.sqrt(top_spread), math.sqrt(top_out)


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
    pairs: np.ndarray,
    pair_weights: np.ndarray,
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
        slope, spread, size = _lipschitz_of_call(query, out, pairs, pair_weights, weights.shape[0])
        ratio = max(ratio, _quotient(spread, slope))
        if gamma < 1.0:
            growth = _quotient(size, slope)
            ratio = max(ratio, (1.0 - gamma) * growth)
    return ratio


@njit
def _norm(norm: int, a: np.ndarray, weights: np.ndarray) -> float:
    """‖a‖ in the L²(α) or the sup-on-support norm (``NORM_LIP`` uses the sup part)."""
    if norm == NORM_L2:
        return _l2(a, weights)
    return _sup(a, weights)
