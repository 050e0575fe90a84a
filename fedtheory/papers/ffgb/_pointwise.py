"""Per-atom solvers of the pointwise optimality conditions (private; reading guide §1, §3.8).

On a finite set of atoms every minimiser the ffgb paper needs is pointwise: at atom x the value
v = f(x) solves

    a(x) · ∇ℓ̄(v) + b(x) · v = c(x),

where a(x) ≥ 0 is the total weight of the clients that see x, b(x) > 0 the regularisation and
c(x) the weighted label average (minus the constant gradients of the clients whose extension
convention applies at x). ∇ℓ̄(v) is the loss gradient with its label part moved to c:

- ``"logistic"`` (c = 1): σ(v), so a·σ(v) + b·v = c, solved by safeguarded Newton on the bracket
  [(c − a)/b, c/b] (σ ∈ (0, 1) puts the root there);
- ``"square"``: v, so v = c/(a + b) in closed form;
- ``"softmax"`` (c ≥ 2 outputs): softmax(v), the gradient of the strictly convex
  a·logsumexp(v) + (b/2)‖v‖² − ⟨c, v⟩, minimised by damped Newton (Armijo backtracking).

Examples: f* of problem (11) has a = α(x), b = μα(x), c = (1/N)Σ_i α_i(x) q_i(x) (guide §1); the
scale-oracle limit of §3.8 has a = n_x/N, b = μ_eff, c = (1/N)Σ_{i: x ∈ supp α_i} q_i(x).
"""

from __future__ import annotations

import numpy as np

from fedtheory.errors import SolverError

__all__: list[str] = []

_MAX_ITERATIONS = 200


def _sigmoid(v: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * v))
    return out


def solve_pointwise(loss: str, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The v with a·∇ℓ̄(v) + b·v = c at every atom (see the module docstring).

    Parameters
    ----------
    loss
        ``"logistic"``, ``"square"`` or ``"softmax"``.
    a, b
        ``(P,)`` weights, a ≥ 0 and b > 0.
    c
        ``(P,)`` (logistic, square with one output) or ``(P, c)`` right-hand sides.

    Returns
    -------
    numpy.ndarray
        The solution, shaped like ``c``.

    Raises
    ------
    SolverError
        If Newton's method does not reach the root to rounding (it always should).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    if loss == "square":
        scale = a + b
        return np.asarray(c / (scale if c.ndim == 1 else scale[:, None]))
    if loss == "logistic":
        return _solve_logistic(a, b, c)
    return _solve_softmax(a, b, c)


def _solve_logistic(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    low = (c - a) / b
    high = c / b
    v = np.clip(np.zeros_like(c), low, high)
    for _ in range(_MAX_ITERATIONS):
        s = _sigmoid(v)
        residual = a * s + b * v - c
        low = np.where(residual < 0, v, low)
        high = np.where(residual > 0, v, high)
        step = residual / (a * s * (1.0 - s) + b)
        candidate = v - step
        outside = (candidate <= low) | (candidate >= high)
        candidate = np.where(outside, 0.5 * (low + high), candidate)
        moved = np.abs(candidate - v)
        v = candidate
        if np.all(moved <= 4e-16 * (1.0 + np.abs(v))):
            break
    residual = a * _sigmoid(v) + b * v - c
    if not np.all(np.abs(residual) <= 1e-12 * (1.0 + np.abs(c) + a)):
        raise SolverError(
            "per-atom Newton (logistic)",
            "not converged",
            hint=f"largest residual {float(np.max(np.abs(residual))):.3g}",
        )
    return np.asarray(v)


def _softmax(v: np.ndarray) -> np.ndarray:
    shifted = v - v.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def _logsumexp(v: np.ndarray) -> np.ndarray:
    top = v.max(axis=-1)
    out: np.ndarray = top + np.log(np.exp(v - top[:, None]).sum(axis=-1))
    return out


def _solve_softmax(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Damped Newton on softmax(v) + (b/a)v = c/a (the problem divided by a > 0; a = 0 gives
    v = c/b directly)."""
    atoms, outputs = c.shape
    seen = a > 0.0
    v = np.zeros((atoms, outputs))
    v[~seen] = c[~seen] / b[~seen, None]
    if not seen.any():
        return v
    ratio = b[seen] / a[seen]
    target = c[seen] / a[seen, None]
    x = np.zeros((int(seen.sum()), outputs))

    def objective(x: np.ndarray) -> np.ndarray:
        out: np.ndarray = (
            _logsumexp(x)
            + 0.5 * ratio * np.einsum("pc,pc->p", x, x)
            - np.einsum("pc,pc->p", target, x)
        )
        return out

    eye = np.eye(outputs)
    tolerance = 1e-13 * (1.0 + np.abs(target))
    for _ in range(_MAX_ITERATIONS):
        p = _softmax(x)
        gradient = p + ratio[:, None] * x - target
        if np.all(np.abs(gradient) <= tolerance):
            break
        hessian = p[:, :, None] * eye - p[:, :, None] * p[:, None, :] + ratio[:, None, None] * eye
        direction = np.linalg.solve(hessian, gradient[:, :, None])[:, :, 0]
        slope = np.einsum("pc,pc->p", gradient, direction)
        value = objective(x)
        step = np.ones(x.shape[0])
        for _ in range(60):
            worse = objective(x - step[:, None] * direction) > value - 1e-4 * step * slope + (
                1e-15 * np.abs(value)
            )
            if not worse.any():
                break
            step = np.where(worse, 0.5 * step, step)
        x = x - step[:, None] * direction
    gradient = _softmax(x) + ratio[:, None] * x - target
    if not np.all(np.abs(gradient) <= 1e-11 * (1.0 + np.abs(target))):
        raise SolverError(
            "per-atom Newton (softmax)",
            "not converged",
            hint=f"largest residual {float(np.max(np.abs(gradient))):.3g}",
        )
    v[seen] = x
    return v
