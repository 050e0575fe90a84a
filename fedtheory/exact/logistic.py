"""Exact logistic-regression oracles: ERM over a Euclidean ball and the FedProx joint minimizer.

The minimax paper (Chen, Zheng, Long & Su) analyses *exact minimizers*, not iterative
algorithms (reading guide §2): PureLocalTraining is argmin_{w∈𝒲} L_i(w, S_i) (eq. (3)), FedAvg
is argmin_{w∈𝒲} Σ_i p_i L_i(w, S_i) (eq. (8)), and FedProx is the joint minimizer of (20),

    min_{w^g, {w^(i)}} Σ_i p_i [L_i(w^(i), S_i) + (λ/2)‖w^g − w^(i)‖²].

The statistical checks of the guide (V2–V6, V8, V11) need these to machine precision. This
module computes them with numpy and scipy only; cvxpy is used in the tests, as an independent
cross-check.

Objective and notation
----------------------
With features x_j ∈ ℝ^d, labels y_j ∈ {−1, +1} and sample weights s_j ≥ 0 (default 1/n),

    L(w) = Σ_j s_j ℓ(y_j x_jᵀw),    ℓ(t) = log(1 + e^{−t}) = logaddexp(0, −t),

    ∇L(w) = −Σ_j s_j y_j sig(−y_j x_jᵀw) x_j,    ∇²L(w) = Σ_j s_j sig'(x_jᵀw) x_j x_jᵀ,

with sig = :func:`scipy.special.expit` and sig'(t) = sig(t)sig(−t): no overflow for any margin.

Method
------
*Unconstrained phase.* Damped Newton with Armijo backtracking. It is vectorized over a batch of
independent problems, for example the m local ERMs of PureLocalTraining.

* Stopping rule: ‖∇‖ ≤ tol·(Σ_j s_j‖x_j‖sig(−y_j x_jᵀw) + size of the quadratic terms). The
  bound is relative to the size of the gradient's terms, its floating-point floor, which is at
  most Σ_j s_j‖x_j‖.
* Separable data: an iterate that classifies every sample correctly (y_j x_jᵀw > 0 ∀j)
  certifies linear separability. Then L has no minimizer: L(tw) ↓ 0 as t → ∞ while L > 0.
* Quasi-separable data: a converged point whose Hessian is nearly singular triggers a linear
  program. It searches for a direction u ≠ 0 with y_j x_jᵀu ≥ 0 ∀j along which L decreases
  forever.

*Ball phase* (when the unconstrained minimizer does not exist or lies outside {‖w‖ ≤ ρ}). By
the KKT conditions, the constrained minimizer is w(ν*) with

    w(ν) = argmin_w L(w) + (ν/2)‖w‖²,    ‖w(ν*)‖ = ρ,    ν* > 0.

Here ν ↦ ‖w(ν)‖ is non-increasing and ‖w(ν)‖ ≤ ‖∇L(0)‖/ν by monotonicity of ∇L, so
ν_hi = ‖∇L(0)‖/ρ lies on the right of the root. The 1-D root of log‖w(e^t)‖ − log ρ in
t = log ν is found by Newton's method, safeguarded by bisection on a bracket (this replaces
``brentq``: about 5 evaluations instead of about 20). The derivative is
d‖w‖/dν = −wᵀ(∇²L + νI)^{-1}w/‖w‖, and each w(ν) is a warm-started Newton solve. Lagrangian
duality makes the result the exact constrained minimizer: for every feasible w,
L(w) ≥ L(w(ν*)) + (ν*/2)(ρ² − ‖w‖²) ≥ L(w(ν*)).

*FedProx* (:func:`fedprox_logistic`): Newton on the envelope Φ(w^g) = Σ_i p_i F_i(w^g), where

    F_i(w^g) = min_{u∈𝒲} L_i(u) + (λ/2)‖w^g − u‖²

is the Moreau envelope (36). Each inner problem is an exact (ball-constrained) prox-ERM, solved
in one batch over the clients. The envelope's gradient is ∇Φ = λ Σ p_i (w^g − u_i). Its Hessian
comes from implicit differentiation of the inner KKT systems:

* inactive inner ball: λ(H_i + λI)^{-1}H_i;
* active inner ball, with the bordered correction: λA^{-1}(H_i + ν_iI) + λ² q qᵀ/(u_iᵀq), where
  A = H_i + (λ+ν_i)I and q = A^{-1}u_i.

At a stationary point w^g = Σ p_i u_i ∈ 𝒲, so the ball constraint on w^g is never active and
the outer problem is unconstrained. ∇Φ is evaluated as λ Σ p_i (w^g − u_i) when λ is below
the average curvature, and otherwise as the equal (at inner optimality) Σ p_i (∇L_i(u_i) +
ν_i u_i), whichever has the smaller rounding error. The outer Newton stops when its step is
below 100·tol·max(1, ‖w^g‖), after taking that step.

This is better conditioned than Newton on the joint variable of size d(m+1), whose Hessian has
condition number ~ λ/μ; the λ → ∞ limit (V11(a)) needs λ = 10⁸. λ = 0 gives the local ERMs and
λ = ∞ the global ERM (8).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special

from fedtheory.errors import ParameterError, SolverError

__all__ = [
    "ERMInfo",
    "FedProxInfo",
    "fedprox_logistic",
    "logistic_erm",
    "logistic_erm_batch",
    "logistic_loss_derivatives",
]

_EPS = float(np.finfo(np.float64).eps)
#: Armijo sufficient-decrease constant of the backtracking line search.
_ARMIJO = 1e-4
#: Objective values are compared with a slack of this many ulps (the floating-point floor).
_SLACK_ULPS = 64.0
_MAX_HALVINGS = 60
#: Smallest ball multiplier ν the ball phase searches.
_NU_FLOOR = 1e-300
#: An unconstrained Newton stalled at a gradient within this factor of the tolerance has
#: reached the floating-point floor and counts as converged.
_STALL_FACTOR = 1e4

# Status codes of _newton.
_CONVERGED, _SEPARATED, _ESCAPED, _MAXITER, _STALLED = range(5)
_STATUS_TEXT = {
    _SEPARATED: "separable data",
    _ESCAPED: "iterates left the ball",
    _MAXITER: "maximum number of iterations reached",
    _STALLED: "line search stalled",
}


@dataclass(frozen=True)
class ERMInfo:
    """Diagnostics of one exact ERM solve.

    Attributes
    ----------
    iterations : int
        Newton iterations, summed over every solve (the unconstrained attempt and each w(ν) of
        the ball phase).
    active : bool
        Whether the ball constraint ‖w‖ ≤ ρ is active at the solution (then ‖w‖ = ρ).
    nu : float
        KKT multiplier ν* ≥ 0 of the constraint (0 when inactive).
    gradient_norm : float
        ‖∇L(w) + ν* w‖ at the returned point (prox term included for FedProx inner problems).
    """

    iterations: int
    active: bool
    nu: float
    gradient_norm: float


@dataclass(frozen=True)
class FedProxInfo:
    """Diagnostics of the FedProx joint solve (:func:`fedprox_logistic`).

    Attributes
    ----------
    outer_iterations : int
        Newton iterations on the envelope Φ(w^g).
    inner_iterations : int
        Newton iterations of all inner prox-ERM solves, summed.
    active : numpy.ndarray
        ``(m,)`` bool: whether client i's ball constraint ‖w^(i)‖ ≤ ρ is active.
    nu : numpy.ndarray
        ``(m,)`` KKT multipliers of the clients' ball constraints.
    gradient_norm : float
        ‖∇Φ(w^g)‖ = ‖λ Σ p_i (w^g − w^(i))‖ at the returned point.
    """

    outer_iterations: int
    inner_iterations: int
    active: np.ndarray
    nu: np.ndarray
    gradient_norm: float


# ---------------------------------------------------------------------------------------------
# Batched damped Newton
# ---------------------------------------------------------------------------------------------


def _margins(X: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x_jᵀw for a batch: X ``(B, n, d)``, w ``(B, d)`` → ``(B, n)``."""
    return np.asarray(np.matmul(X, w[:, :, None])[:, :, 0])


def _rownorm(a: np.ndarray) -> np.ndarray:
    """Euclidean norms of the rows of a 2-D array (cheaper than numpy.linalg.norm)."""
    return np.asarray(np.sqrt(np.einsum("bd,bd->b", a, a)))


def _data_scale(X: np.ndarray, s: np.ndarray) -> np.ndarray:
    """s_j ‖x_j‖, shape ``(B, n)``: Σ_j s_j‖x_j‖ sig(−y_j x_jᵀw) is the size of ∇L's terms."""
    return np.asarray(s * np.sqrt(np.einsum("bnd,bnd->bn", X, X)))


def _objective(
    s: np.ndarray,
    ym: np.ndarray,
    w: np.ndarray,
    lam: np.ndarray,
    center: np.ndarray,
    nu: np.ndarray,
) -> np.ndarray:
    """Σ_j s_j ℓ(y_j x_jᵀw) + (λ/2)‖w − c‖² + (ν/2)‖w‖² per problem."""
    value = np.einsum("bn,bn->b", s, np.logaddexp(0.0, -ym))
    diff = w - center
    return np.asarray(
        value
        + 0.5 * lam * np.einsum("bd,bd->b", diff, diff)
        + 0.5 * nu * np.einsum("bd,bd->b", w, w)
    )


def _hessians(X: np.ndarray, s: np.ndarray, margins: np.ndarray) -> np.ndarray:
    """∇²L = Xᵀ diag(s·sig'(Xw)) X per problem, shape ``(B, d, d)``."""
    return _weighted_gram(X, s * special.expit(margins) * special.expit(-margins))


def _weighted_gram(X: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Xᵀ diag(h) X per problem, shape ``(B, d, d)``."""
    return np.asarray(np.matmul(X.transpose(0, 2, 1) * h[:, None, :], X))


def _solve_spd(H: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """Solve H x = rhs for a batch of symmetric positive semi-definite H (tiny ridge if needed)."""
    d = H.shape[-1]
    eye = np.eye(d)
    trace = np.einsum("bii->b", H)
    H = H + (_EPS * trace + 1e-300)[:, None, None] * eye
    try:
        return np.asarray(np.linalg.solve(H, rhs[:, :, None])[:, :, 0])
    except np.linalg.LinAlgError:
        return np.stack(
            [np.linalg.lstsq(Hb, rb, rcond=None)[0] for Hb, rb in zip(H, rhs, strict=True)]
        )


def _newton(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    scale: np.ndarray,
    w0: np.ndarray,
    lam: np.ndarray,
    center: np.ndarray,
    nu: np.ndarray,
    *,
    tol: float,
    max_iter: int,
    escape: float = math.inf,
    certify: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Damped Newton on Σ s ℓ + (λ/2)‖w − c‖² + (ν/2)‖w‖² for a batch of problems.

    Returns ``(w, status, iterations, gradient_norm)``, each of leading size B. ``certify``
    stops a problem with λ = ν = 0 as soon as an iterate separates its data (status
    ``_SEPARATED``); ``escape`` stops a problem whose iterate norm exceeds it (``_ESCAPED``).
    """
    B = X.shape[0]
    w = np.array(w0, dtype=np.float64, copy=True)
    positive = s > 0
    status = np.full(B, -1, dtype=np.int64)
    iterations = np.zeros(B, dtype=np.int64)
    active = np.ones(B, dtype=bool)
    gnorm = np.zeros(B)
    center_norm = _rownorm(center)
    plain = (lam == 0) & (nu == 0)
    ridge = (lam + nu)[:, None, None] * np.eye(X.shape[2])
    ym = y * _margins(X, w)
    f = _objective(s, ym, w, lam, center, nu)
    for it in range(max_iter + 1):
        slack = special.expit(-ym)
        q = s * y * slack
        g = -np.matmul(q[:, None, :], X)[:, 0, :] + lam[:, None] * (w - center) + nu[:, None] * w
        gnorm = _rownorm(g)
        wnorm = _rownorm(w)
        # Relative to the size of the gradient's terms (its floating-point floor), so that the
        # test stays meaningful when every margin is large (separable data, tiny ν).
        terms = np.einsum("bn,bn->b", scale, slack)
        bound = tol * (terms + lam * (wnorm + center_norm) + nu * wnorm)
        done = active & (gnorm <= bound)
        status[done] = _CONVERGED
        active &= ~done
        if certify:
            separated = active & plain & np.all((ym > 0) | ~positive, axis=1)
            status[separated] = _SEPARATED
            active &= ~separated
        escaped = active & (wnorm > escape)
        status[escaped] = _ESCAPED
        active &= ~escaped
        if not active.any():
            break
        if it == max_iter:
            status[active] = _MAXITER
            break
        # sig'(m) = sig(−ym)(1 − sig(−ym)): one transcendental pass serves ∇ and ∇² (the
        # cancellation in 1 − sig(−ym) for ym ≪ 0 costs only absolute accuracy ε in ∇²).
        h = s * slack * (1.0 - slack)
        H = _weighted_gram(X, h) + ridge
        step = np.zeros_like(w)
        step[active] = _solve_spd(H[active], -g[active])
        yXp = y * _margins(X, step)
        slope = np.einsum("bd,bd->b", g, step)
        t = np.ones(B)
        pending = active.copy()
        for _ in range(_MAX_HALVINGS):
            w_t = w + t[:, None] * step
            ym_t = ym + t[:, None] * yXp
            f_t = _objective(s, ym_t, w_t, lam, center, nu)
            ok = pending & (f_t <= f + _ARMIJO * t * slope + _SLACK_ULPS * _EPS * np.abs(f))
            w[ok] = w_t[ok]
            ym[ok] = ym_t[ok]
            f[ok] = f_t[ok]
            pending &= ~ok
            if not pending.any():
                break
            t[pending] *= 0.5
        iterations[active] += 1
        if pending.any():
            floor = pending & (gnorm <= _STALL_FACTOR * bound)
            status[floor] = _CONVERGED
            status[pending & ~floor] = _STALLED
            active &= ~pending
        # Re-synchronise the margins with w (the line search updates them incrementally).
        ym = y * _margins(X, w)
    return w, status, iterations, gnorm


# ---------------------------------------------------------------------------------------------
# Ball-constrained solves
# ---------------------------------------------------------------------------------------------


def _has_recession_direction(X: np.ndarray, y: np.ndarray, s: np.ndarray) -> bool:
    """Whether some u has y_j x_jᵀu ≥ 0 ∀j (s_j > 0) with Σ_j y_j x_jᵀu = 1 (an LP).

    Along such a u every loss term is non-increasing and one strictly decreasing, so
    L(w + tu) < L(w) for all w and t > 0: the logistic risk has no minimizer (the data are
    separable or quasi-separable).
    """
    rows = (y[:, None] * X)[s > 0]
    if rows.size == 0:
        return False
    result = optimize.linprog(
        np.zeros(X.shape[1]),
        A_ub=-rows,
        b_ub=np.zeros(rows.shape[0]),
        A_eq=rows.sum(axis=0)[None, :],
        b_eq=np.ones(1),
        bounds=[(None, None)] * X.shape[1],
        method="highs",
    )
    return bool(result.status == 0)


def _no_minimizer(
    solver: str, what: str, status: int, X: np.ndarray, y: np.ndarray, s: np.ndarray
) -> SolverError:
    """The SolverError for an unconstrained problem whose Newton iterates did not converge."""
    if status == _SEPARATED or _has_recession_direction(X, y, s):
        return SolverError(
            solver,
            "no minimizer",
            hint=f"the data of {what} are linearly (quasi-)separable: some direction u has "
            "y_j x_jᵀu ≥ 0 for every sample, so the logistic risk decreases along tu forever "
            "and has no minimizer on ℝ^d; pass a finite radius to minimize over the ball "
            "‖w‖ ≤ radius",
        )
    return SolverError(
        solver,
        _STATUS_TEXT.get(status, "not converged"),
        hint=f"Newton did not converge on {what}; raise max_iter or loosen tol",
    )


def _flag_quasi_separable(
    X: np.ndarray, y: np.ndarray, s: np.ndarray, W: np.ndarray, status: np.ndarray, lam: np.ndarray
) -> None:
    """Mark converged plain problems with no true minimizer as ``_SEPARATED`` (in place).

    On quasi-separable data (some u ≠ 0 with y_j x_jᵀu ≥ 0 ∀j, not all zero) L decreases
    along u forever but flattens exponentially. Newton then meets the relative gradient test at
    a finite point whose Hessian is nearly singular along u. So a Hessian with
    λ_min ≤ 1e-9·λ_max triggers the linear program of :func:`_has_recession_direction`.
    Well-conditioned problems never pay for it.
    """
    candidates = np.flatnonzero((status == _CONVERGED) & (lam == 0))
    if candidates.size == 0:
        return
    Xc = X[candidates]
    evals = np.linalg.eigvalsh(_hessians(Xc, s[candidates], _margins(Xc, W[candidates])))
    for k in np.flatnonzero(evals[:, 0] <= 1e-9 * evals[:, -1]):
        b = candidates[k]
        if _has_recession_direction(X[b], y[b], s[b]):
            status[b] = _SEPARATED


def _ball_phase(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    scale: np.ndarray,
    lam: np.ndarray,
    center: np.ndarray,
    radius: float,
    *,
    tol: float,
    max_iter: int,
    solver: str,
    what: str,
    w_start: np.ndarray | None = None,
    nu_start: float = 0.0,
) -> tuple[np.ndarray, float, int, float, bool]:
    """Exact minimizer over ‖w‖ ≤ radius of one problem (batch of size 1): KKT root in ν.

    Solves φ(t) = log(‖w(e^t)‖/ρ) = 0 for t = log ν by Newton's method, safeguarded by a
    bracket [lo, hi] with φ(lo) > 0 ≥ φ(hi). The derivative comes from
    dw/dν = −(∇²L + (λ+ν)I)^{-1} w. On separable data ‖w(ν)‖ ≈ a − b log ν, so φ is concave and
    the iteration converges monotonically from ν_hi. A step that leaves the bracket is replaced
    by bisection, and a step is limited to a factor e^{20} in ν.

    ``w_start`` and ``nu_start`` (if > 0) warm-start the Newton solves and the root find (the
    FedProx inner problems change little between outer iterations).

    Returns ``(w, nu, iterations, gradient_norm, active)``.
    """
    d = X.shape[2]
    eye = np.eye(d)
    start = np.zeros((1, d)) if w_start is None else np.asarray(w_start).reshape(1, d)
    state: dict[str, Any] = {"w": start, "iterations": 0, "gnorm": 0.0}

    def solve_at(nu: float, *, certify: bool = False) -> tuple[np.ndarray, int]:
        w, status, its, gnorm = _newton(
            X, y, s, scale, state["w"], lam, center, np.array([nu]),
            tol=tol, max_iter=max_iter, certify=certify,
        )  # fmt: skip
        state["iterations"] += int(its[0])
        if status[0] == _CONVERGED:
            state["w"] = w
            state["gnorm"] = float(gnorm[0])
        return w[0], int(status[0])

    def evaluate(t: float) -> tuple[float, float, np.ndarray]:
        """φ(t), φ'(t) and w(e^t)."""
        nu = math.exp(t)
        w, status = solve_at(nu)
        if status != _CONVERGED:
            raise SolverError(
                solver,
                _STATUS_TEXT.get(status, "not converged"),
                hint=f"{what}: Newton failed on the regularized problem at nu={nu:.3g}",
            )
        norm = float(np.linalg.norm(w))
        H = _hessians(X, s, _margins(X, w[None]))[0] + (float(lam[0]) + nu) * eye
        slope = -nu * float(w @ np.linalg.solve(H, w)) / norm**2
        return math.log(norm / radius), slope, w

    # ∇(L + λ/2‖· − c‖²)(0) bounds ‖w(ν)‖ ≤ ‖∇Q(0)‖/(ν + λ): ν_hi has φ ≤ 0.
    g0 = -0.5 * np.matmul((s * y)[:, None, :], X)[0, 0] - lam[0] * center[0]
    nu_hi = float(np.linalg.norm(g0)) / radius - float(lam[0])
    t_floor = math.log(_NU_FLOOR)
    found = False
    if nu_hi > 0:
        t = math.log(nu_start if nu_start > 0 else nu_hi)
        lo, hi = -math.inf, math.inf
        for _ in range(200):
            phi, slope, w = evaluate(t)
            if abs(phi) <= 1e-13:  # ‖w‖ = ρ to 1e-13: one more Newton step reaches rounding level
                if slope < 0:
                    t -= phi / slope
                    phi, slope, w = evaluate(t)
                found = True
                break
            if phi > 0:
                lo = t
            else:
                hi = t
            if hi - lo <= 4 * _EPS * max(1.0, abs(t)):
                found = True
                break
            step = -phi / slope if slope < 0 else -math.inf
            if abs(step) <= 4 * _EPS * max(1.0, abs(t)):
                found = True
                break
            t_new = t + min(max(step, -20.0), 20.0)
            if not lo < t_new < hi:
                t_new = 0.5 * (lo + hi) if math.isfinite(lo) else t - 20.0
            if t_new < t_floor:
                break  # ‖w(ν)‖ ≤ ρ down to the floor: see below
            t = t_new
    if found:
        nu = math.exp(t)
        norm = float(np.linalg.norm(w))
        if norm > radius:
            w = w * (radius / norm)
        return w, nu, state["iterations"], state["gnorm"], True
    # ‖w(ν)‖ ≤ ρ down to ν ≈ 0: the unconstrained minimizer exists inside the ball, or the root
    # lies below the floor (separable data and a huge radius).
    w, status = solve_at(0.0, certify=True)
    if status == _CONVERGED and np.linalg.norm(w) <= radius:
        return w, 0.0, state["iterations"], state["gnorm"], False
    raise SolverError(
        solver,
        "ball multiplier out of range",
        hint=f"{what}: the constrained minimizer has a KKT multiplier below {_NU_FLOOR:.3g} "
        f"(separable data and a radius {radius:.6g} too large for float64); use a smaller radius",
    )


def _solve_batch(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    lam: np.ndarray,
    center: np.ndarray,
    radius: float,
    *,
    tol: float,
    max_iter: int,
    w0: np.ndarray | None = None,
    nu0: np.ndarray | None = None,
    solver: str = "logistic_erm",
    what: str = "problem",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exact minimizers over ‖w‖ ≤ radius of Σ s ℓ + (λ/2)‖w − c‖² for a batch (no checks).

    Returns ``(W, nu, active, iterations, gradient_norm)``.
    """
    B, _, d = X.shape
    scale = _data_scale(X, s)
    finite = math.isfinite(radius)
    start = np.zeros((B, d)) if w0 is None else w0
    W, status, iterations, gnorm = _newton(
        X, y, s, scale, start, lam, center, np.zeros(B),
        tol=tol, max_iter=max_iter,
        escape=max(4.0 * radius, radius + 10.0) if finite else math.inf,
        certify=True,
    )  # fmt: skip
    _flag_quasi_separable(X, y, s, W, status, lam)
    nu = np.zeros(B)
    active = np.zeros(B, dtype=bool)
    for b in np.flatnonzero((status != _CONVERGED) | (np.linalg.norm(W, axis=1) > radius)):
        label = f"{what} {b}" if B > 1 else what
        if not finite:
            raise _no_minimizer(solver, label, int(status[b]), X[b], y[b], s[b])
        sl = slice(b, b + 1)
        w, nu_b, its, gn, act = _ball_phase(
            X[sl], y[sl], s[sl], scale[sl], lam[sl], center[sl], radius,
            tol=tol, max_iter=max_iter, solver=solver, what=label, w_start=start[b],
            nu_start=0.0 if nu0 is None else float(nu0[b]),
        )  # fmt: skip
        W[b], nu[b], active[b], gnorm[b] = w, nu_b, act, gn
        iterations[b] += its
    return W, nu, active, iterations, gnorm


# ---------------------------------------------------------------------------------------------
# Input checks
# ---------------------------------------------------------------------------------------------


def _check_array(name: str, value: Any, ndim: int) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter=name, value=value, rule="must be an array of real numbers"
        ) from None
    if array.ndim != ndim:
        raise ParameterError(parameter=name, value=array.shape, rule=f"must have {ndim} dimensions")
    if not np.isfinite(array).all():
        raise ParameterError(
            parameter=name, value="array with NaN or inf", rule="must hold finite numbers"
        )
    return np.ascontiguousarray(array)


def _check_problem(
    features: Any, labels: Any, sample_weights: Any, *, batch: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate (features, labels, sample weights); return them with a leading batch axis."""
    ndim = 3 if batch else 2
    X = _check_array("features", features, ndim)
    y = _check_array("labels", labels, ndim - 1)
    if y.shape != X.shape[:-1]:
        raise ParameterError(
            parameter="labels", value=y.shape, rule=f"must have shape {X.shape[:-1]}"
        )
    if X.shape[-2] < 1 or X.shape[-1] < 1 or (batch and X.shape[0] < 1):
        raise ParameterError(
            parameter="features", value=X.shape, rule="needs n ≥ 1 samples of dimension d ≥ 1"
        )
    if not np.all(np.abs(y) == 1.0):
        raise ParameterError(parameter="labels", value="array", rule="labels must be −1 or +1")
    if sample_weights is None:
        s = np.full(y.shape, 1.0 / y.shape[-1])
    else:
        s = _check_array("sample_weights", sample_weights, ndim - 1)
        if s.shape != y.shape:
            raise ParameterError(
                parameter="sample_weights", value=s.shape, rule=f"must have shape {y.shape}"
            )
        if s.min() < 0 or not np.all(s.sum(axis=-1) > 0):
            raise ParameterError(
                parameter="sample_weights",
                value="array",
                rule="must be ≥ 0 with a positive sum per problem",
            )
    if not batch:
        X, y, s = X[None], y[None], s[None]
    return X, y, s


def _check_radius(radius: Any) -> float:
    if isinstance(radius, bool) or not isinstance(radius, int | float | np.floating | np.integer):
        raise ParameterError(parameter="radius", value=radius, rule="must be a real number")
    radius = float(radius)
    if not radius > 0:  # also rejects NaN
        raise ParameterError(
            parameter="radius", value=radius, rule="must be > 0 (inf: unconstrained)"
        )
    return float(radius)


def _check_tol(tol: Any, max_iter: Any) -> tuple[float, int]:
    if (
        isinstance(tol, bool)
        or not isinstance(tol, int | float | np.floating)
        or not 0 < float(tol) < 1
    ):
        raise ParameterError(parameter="tol", value=tol, rule="must lie in (0, 1)")
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, int | np.integer)
        or int(max_iter) < 1
    ):
        raise ParameterError(parameter="max_iter", value=max_iter, rule="must be an integer ≥ 1")
    return float(tol), int(max_iter)


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


def logistic_loss_derivatives(
    features: Any, labels: Any, w: Any, *, sample_weights: Any = None
) -> tuple[float, np.ndarray, np.ndarray]:
    """Value, gradient and Hessian of L(w) = Σ_j s_j log(1 + exp(−y_j x_jᵀw)).

    Parameters
    ----------
    features
        ``(n, d)`` features.
    labels
        ``(n,)`` labels ±1.
    w
        ``(d,)`` model.
    sample_weights
        ``(n,)`` weights s_j ≥ 0; default 1/n (the empirical risk L_i of the paper).

    Returns
    -------
    tuple
        ``(L(w), ∇L(w) (d,), ∇²L(w) (d, d))``. The Hessian Σ s_j sig'(x_jᵀw) x_j x_jᵀ is the one
        bounded in Lemma 7 (13).

    Examples
    --------
    >>> import numpy as np
    >>> value, grad, hess = logistic_loss_derivatives(np.eye(2), np.array([1.0, -1.0]), np.zeros(2))
    >>> round(value, 12) == round(float(np.log(2.0)), 12), hess.tolist()
    (True, [[0.125, 0.0], [0.0, 0.125]])
    """
    X, y, s = _check_problem(features, labels, sample_weights, batch=False)
    wv = _check_array("w", w, 1)
    if wv.shape != (X.shape[2],):
        raise ParameterError(parameter="w", value=wv.shape, rule=f"must have shape ({X.shape[2]},)")
    margins = _margins(X, wv[None])
    ym = y * margins
    value = float(np.dot(s[0], np.logaddexp(0.0, -ym[0])))
    grad = -(s[0] * y[0] * special.expit(-ym[0])) @ X[0]
    return value, np.asarray(grad), _hessians(X, s, margins)[0]


def logistic_erm(
    features: Any,
    labels: Any,
    *,
    sample_weights: Any = None,
    ridge: float = 0.0,
    radius: float = math.inf,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> tuple[np.ndarray, ERMInfo]:
    """Exact minimizer of the weighted (ridge-regularised) logistic risk over the ball ‖w‖ ≤ ρ.

    Solves min_{‖w‖≤ρ} Σ_j s_j log(1 + exp(−y_j x_jᵀw)) + (ridge/2)‖w‖²: PureLocalTraining (3)
    for one client, or FedAvg (8) with the pooled samples weighted s = p_i/n_i. A soft label
    y ∈ [0, 1] (cross-entropy y·ℓ(xᵀw) + (1 − y)·ℓ(−xᵀw), as in App. A of the fedlrgd paper) is
    two samples: (x, +1) with weight y·s and (x, −1) with weight (1 − y)·s. The method is damped
    Newton on the unconstrained problem, then an exact KKT root find in the ball multiplier ν
    when needed (module docstring).

    Parameters
    ----------
    features
        ``(n, d)`` features x_j.
    labels
        ``(n,)`` labels y_j ∈ {−1, +1}.
    sample_weights
        ``(n,)`` weights s_j ≥ 0 with a positive sum; default 1/n. Not normalized.
    ridge
        Weight μ ≥ 0 of the ridge term (μ/2)‖w‖² (then a minimizer exists for any data).
    radius
        ρ > 0; ``inf`` (default) minimizes over ℝ^d.
    tol
        Relative gradient tolerance: ‖∇L(w) + (μ + ν)w‖ ≤ tol·(Σ_j s_j‖x_j‖ + (μ + ν)‖w‖) for
        every Newton solve.
    max_iter
        Newton iterations per solve.

    Returns
    -------
    tuple
        ``(w, info)`` with w of shape ``(d,)`` and an :class:`ERMInfo`.

    Raises
    ------
    ParameterError
        On malformed inputs.
    SolverError
        If ``radius`` is infinite and the data are (quasi-)separable, so that no minimizer
        exists; or if Newton fails to converge.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [1.0], [1.0]])
    >>> w, info = logistic_erm(X, np.array([1.0, 1.0, -1.0]))
    >>> round(float(w[0]), 12) == round(float(np.log(2.0)), 12), info.active
    (True, False)
    """
    X, y, s = _check_problem(features, labels, sample_weights, batch=False)
    ridge = _check_lam(ridge, parameter="ridge")
    if math.isinf(ridge):
        raise ParameterError(parameter="ridge", value=ridge, rule="must be finite")
    rho = _check_radius(radius)
    tol, max_iter = _check_tol(tol, max_iter)
    W, nu, active, its, gnorm = _solve_batch(
        X, y, s, np.full(1, ridge), np.zeros((1, X.shape[2])), rho, tol=tol, max_iter=max_iter,
        what="the sample",
    )  # fmt: skip
    return W[0], ERMInfo(int(its[0]), bool(active[0]), float(nu[0]), float(gnorm[0]))


def logistic_erm_batch(
    features: Any,
    labels: Any,
    *,
    sample_weights: Any = None,
    radius: float = math.inf,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> tuple[np.ndarray, list[ERMInfo]]:
    """:func:`logistic_erm` for B independent problems at once (Newton vectorized over B).

    Parameters
    ----------
    features
        ``(B, n, d)``; padding rows are allowed if their sample weight is 0.
    labels
        ``(B, n)`` labels ±1.
    sample_weights
        ``(B, n)``; default 1/n.
    radius, tol, max_iter
        As in :func:`logistic_erm` (one radius for all problems).

    Returns
    -------
    tuple
        ``(W, infos)``: W of shape ``(B, d)`` and one :class:`ERMInfo` per problem.
    """
    X, y, s = _check_problem(features, labels, sample_weights, batch=True)
    rho = _check_radius(radius)
    tol, max_iter = _check_tol(tol, max_iter)
    return erm_batch_unchecked(X, y, s, rho, tol=tol, max_iter=max_iter)


def erm_batch_unchecked(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    radius: float,
    *,
    tol: float = 1e-12,
    max_iter: int = 100,
    what: str = "problem",
) -> tuple[np.ndarray, list[ERMInfo]]:
    """:func:`logistic_erm_batch` without input checks (for generators calling it per replicate)."""
    B, _, d = X.shape
    W, nu, active, its, gnorm = _solve_batch(
        X, y, s, np.zeros(B), np.zeros((B, d)), radius, tol=tol, max_iter=max_iter, what=what
    )
    infos = [ERMInfo(int(its[b]), bool(active[b]), float(nu[b]), float(gnorm[b])) for b in range(B)]
    return W, infos


def _check_lam(lam: Any, *, parameter: str = "lam") -> float:
    if isinstance(lam, bool) or not isinstance(lam, int | float | np.floating | np.integer):
        raise ParameterError(
            parameter=parameter, value=lam, rule="must be a real number ≥ 0 (inf allowed)"
        )
    value = float(lam)
    if not value >= 0:
        raise ParameterError(parameter=parameter, value=value, rule="must be ≥ 0 (inf: FedAvg)")
    return value


def fedprox_logistic(
    features: Any,
    labels: Any,
    client_weights: Any,
    lam: float,
    *,
    sample_weights: Any = None,
    radius: float = math.inf,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> tuple[np.ndarray, np.ndarray, FedProxInfo]:
    """Exact joint minimizer of the FedProx objective (20) with logistic local risks.

    min over w^g ∈ 𝒲 and w^(1..m) ∈ 𝒲 of Σ_i p_i [L_i(w^(i)) + (λ/2)‖w^g − w^(i)‖²], with
    L_i(w) = Σ_j s_ij ℓ(y_ij x_ijᵀw) and 𝒲 = {‖w‖ ≤ radius}. Solved by Newton on the Moreau
    envelope Φ(w^g) = Σ p_i F_i(w^g) with exact inner prox-ERMs (module docstring).

    Parameters
    ----------
    features
        ``(m, n, d)`` client features (pad with zero-weight rows for unequal n_i).
    labels
        ``(m, n)`` labels ±1.
    client_weights
        ``(m,)`` weights p on the simplex.
    lam
        λ ≥ 0. ``0`` returns the local ERMs and w^g = Σ p_i w^(i), the limit λ → 0⁺ of the
        minimizer. ``inf`` returns the global ERM (8) for w^g and for every w^(i).
    sample_weights
        ``(m, n)``; default 1/n, so that L_i is the empirical risk.
    radius, tol, max_iter
        As in :func:`logistic_erm`. The outer Newton stops when its step is below
        100·tol·max(1, ‖w^g‖); one more step then follows (quadratic convergence).

    Returns
    -------
    tuple
        ``(w_global (d,), w_local (m, d), info)`` with a :class:`FedProxInfo`.

    Raises
    ------
    ParameterError
        On malformed inputs.
    SolverError
        If the objective has no minimizer (unconstrained and the pooled data are separable),
        or Newton fails.
    """
    X, y, s = _check_problem(features, labels, sample_weights, batch=True)
    m = X.shape[0]
    p = _check_array("client_weights", client_weights, 1)
    if p.shape != (m,) or p.min() < 0 or abs(p.sum() - 1.0) > 1e-9:
        raise ParameterError(
            parameter="client_weights",
            value=np.round(p, 6).tolist(),
            rule=f"must lie on the simplex of ℝ^{m}",
        )
    lam_value = _check_lam(lam)
    rho = _check_radius(radius)
    tol, max_iter = _check_tol(tol, max_iter)
    return fedprox_unchecked(X, y, s, p, lam_value, rho, tol=tol, max_iter=max_iter)


def fedprox_unchecked(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    p: np.ndarray,
    lam: float,
    radius: float,
    *,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> tuple[np.ndarray, np.ndarray, FedProxInfo]:
    """:func:`fedprox_logistic` without input checks."""
    m, n, d = X.shape
    solver = "fedprox_logistic"
    if lam == 0.0:
        W, nu, active, its, _ = _solve_batch(
            X, y, s, np.zeros(m), np.zeros((m, d)), radius, tol=tol, max_iter=max_iter,
            solver=solver, what="client",
        )  # fmt: skip
        return p @ W, W, FedProxInfo(0, int(its.sum()), active, nu, 0.0)
    if math.isinf(lam):
        pooled_s = (p[:, None] * s).reshape(1, m * n)
        W, nu, active, its, gnorm = _solve_batch(
            X.reshape(1, m * n, d), y.reshape(1, m * n), pooled_s, np.zeros(1), np.zeros((1, d)),
            radius, tol=tol, max_iter=max_iter, solver=solver, what="the pooled data",
        )  # fmt: skip
        return (
            W[0],
            np.tile(W[0], (m, 1)),
            FedProxInfo(
                0, int(its[0]), np.full(m, bool(active[0])), np.full(m, nu[0]), float(gnorm[0])
            ),
        )
    return _fedprox_envelope(X, y, s, p, lam, radius, tol=tol, max_iter=max_iter)


def _fedprox_envelope(
    X: np.ndarray,
    y: np.ndarray,
    s: np.ndarray,
    p: np.ndarray,
    lam: float,
    radius: float,
    *,
    tol: float,
    max_iter: int,
) -> tuple[np.ndarray, np.ndarray, FedProxInfo]:
    """Newton on Φ(w^g) = Σ p_i min_{u∈𝒲} [L_i(u) + (λ/2)‖w^g − u‖²] for 0 < λ < ∞."""
    m, _, d = X.shape
    solver = "fedprox_logistic"
    lam_vec = np.full(m, lam)
    eye = np.eye(d)
    inner_iterations = 0

    def inner(
        wg: np.ndarray, U0: np.ndarray, nu0: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        nonlocal inner_iterations
        U, nu, active, its, _ = _solve_batch(
            X, y, s, lam_vec, np.broadcast_to(wg, (m, d)), radius, tol=tol, max_iter=max_iter,
            w0=U0, nu0=nu0, solver=solver, what="client",
        )  # fmt: skip
        inner_iterations += int(its.sum())
        return U, nu, active

    def envelope(wg: np.ndarray, U: np.ndarray) -> tuple[float, np.ndarray]:
        margins = _margins(X, U)
        losses = np.einsum("bn,bn->b", s, np.logaddexp(0.0, -y * margins))
        diff = wg[None, :] - U
        return float(p @ (losses + 0.5 * lam * np.einsum("bd,bd->b", diff, diff))), margins

    def gradient(
        wg: np.ndarray, U: np.ndarray, nu: np.ndarray, margins: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """∇Φ in its better-conditioned form, and the per-client Hessians ∇²L_i(u_i)."""
        H = _hessians(X, s, margins)
        curvature = float(p @ np.einsum("bii->b", H)) / d
        if lam <= curvature:
            # λ Σ p_i (w^g − u_i): rounding error ~ λ·ε‖w‖, small for small λ.
            return lam * (p @ (wg[None, :] - U)), H
        # Σ p_i (∇L_i(u_i) + ν_i u_i), equal at inner optimality: error ~ β·ε, small for large λ.
        q = s * y * special.expit(-y * margins)
        grads = -np.matmul(q[:, None, :], X)[:, 0, :] + nu[:, None] * U
        return p @ grads, H

    def hessian(U: np.ndarray, nu: np.ndarray, active: np.ndarray, H: np.ndarray) -> np.ndarray:
        A = H + (lam + nu)[:, None, None] * eye
        M = lam * np.linalg.solve(A, H + nu[:, None, None] * eye)
        if active.any():
            q = np.linalg.solve(A[active], U[active][:, :, None])[:, :, 0]
            denom = np.einsum("bd,bd->b", U[active], q)
            M[active] += lam**2 * q[:, :, None] * q[:, None, :] / denom[:, None, None]
        M = 0.5 * (M + M.transpose(0, 2, 1))
        return np.asarray(np.einsum("b,bij->ij", p, M))

    wg = np.zeros(d)
    U, nu, active = inner(wg, np.zeros((m, d)), np.zeros(m))
    phi, margins = envelope(wg, U)
    G, H = gradient(wg, U, nu, margins)
    converged = False
    outer = 0
    while outer < max_iter:
        outer += 1
        step = _solve_spd(hessian(U, nu, active, H)[None], -G[None])[0]
        small = float(np.linalg.norm(step)) <= 100.0 * tol * max(1.0, float(np.linalg.norm(wg)))
        slope = float(G @ step)
        t = 1.0
        for _ in range(_MAX_HALVINGS):
            wg_t = wg + t * step
            U_t, nu_t, active_t = inner(wg_t, U, nu)
            phi_t, margins_t = envelope(wg_t, U_t)
            G_t, H_t = gradient(wg_t, U_t, nu_t, margins_t)
            armijo = phi_t <= phi + _ARMIJO * t * slope + _SLACK_ULPS * _EPS * abs(phi)
            if small or armijo or np.linalg.norm(G_t) <= 0.5 * np.linalg.norm(G):
                break
            t *= 0.5
        else:
            raise SolverError(
                solver,
                "line search failed",
                hint=f"lam={lam:.6g}: the envelope Φ does not decrease",
            )
        wg, U, nu, active, phi, G, H = wg_t, U_t, nu_t, active_t, phi_t, G_t, H_t
        if small:
            converged = True
            break
        if not math.isfinite(radius) and np.linalg.norm(wg) > 1e8:
            break
    if not converged:
        if not math.isfinite(radius):
            pooled_s = (p[:, None] * s).reshape(1, -1)
            raise _no_minimizer(
                solver, "the pooled data", _MAXITER, X.reshape(-1, d), y.reshape(-1), pooled_s[0]
            )
        raise SolverError(
            solver, "not converged", hint=f"outer Newton did not converge in {max_iter} iterations"
        )
    return wg, U, FedProxInfo(outer, inner_iterations, active, nu, float(np.linalg.norm(G)))
