"""Counterexamples that run: explicit quadratic clients attaining a worst case (issue 16, item 2).

:func:`quadratic_counterexample` ties the SDP to the experiments. It solves the PEP of a method
over its class (smooth strongly convex clients) and over quadratic clients only
(``functions="quadratic"``, the interpolation conditions of Bousselmi, Hendrickx & Glineur 2023);
the two values agree exactly when quadratics attain the worst case. It then turns the quadratic
PEP's primal solution (:class:`~fedtheory.worstcase.PrimalInstance`) into explicit clients and
runs the toolkit's own numba round loop on them:

1. **Reduce.** The primal coordinates live in ℝ^N (N = the side of the Gram matrix) but span
   only its numerical rank; the instance is built in the span of the r leading right singular
   vectors of the stacked coordinates. Which r is right depends on the solver's noise (SCS's
   primal solutions are low-rank with a clear gap; Clarabel's interior-point ones mix several
   optimal instances and have no clear gap), so every r ≤ 12 whose singular value is above
   1e-6 of the largest is a candidate.
2. **Fit.** Each client's Hessian Q_i solves Q_i(x_k − a_i) = g_k over its triples (a_i: its
   own stationary point) with μI ⪯ Q_i ⪯ LI, in closed form (:func:`_fit_hessian`: least
   squares on the span of the directions, the Schur-complement midpoint on its complement,
   eigenvalues clipped into [μ, L] so that the clients are exactly in the class); directions
   below 1e-6 or 1e-3 of a client's largest count as noise (two candidates).
3. **Refine.** The primal data are accurate to the solver's tolerance only. With the Q_i fixed
   and x* moved to 0, every iterate is *linear* in z = (x_0, b), b_i = Q_i a_i (so
   ∇f_i(x) = Q_i x − b_i, Σ q_i b_i = 0), and the measure is a quadratic form zᵀHz. Its maximum
   over the initial ball ‖x_0‖² ≤ R² (or F(x_0) − F* ≤ Δ0) and the heterogeneity ball
   Σ q_i‖b_i‖² ≤ ζ² is a quadratically constrained problem with two constraints, whose SDP
   relaxation is exact (a rank-one optimum exists, Pataki 1998); its dual is the 1-D convex
   problem min_t λ_max(D_t H D_t), D_t = diag(t^{-1/2} I, (1 − t)^{-1/2} I), solved here to
   machine precision (root of the block imbalance of the top eigenvector) — the trust-region /
   eigenvalue problem of the refinement. Without heterogeneity it is the top eigenvector of H.
   Of the candidates of steps 1–2, the instance of largest refined value is kept: each is an
   exactly feasible quadratic instance, so the choice keeps a valid lower bound.
   With more than two equally weighted clients, steps 1–3 work on the two-client reduction
   (:mod:`fedtheory.worstcase._symmetry`, the same worst case) and the fitted clients are then
   lifted to m explicit quadratics whose average runs exactly as the two did.
4. **Run.** FedAvg (:func:`~fedtheory.algorithms.fedavg`; GD is FedAvg with one client and one
   local step) or FedProx's gradient local steps (:func:`~fedtheory.algorithms.federated.
   local_sgd_rounds`) on :meth:`~fedtheory.problems.federated_quadratic.FederatedQuadratic.
   dataset`, full batch (exact gradients), from the refined x_0; the measure of the run's x_T is
   compared with the quadratic PEP value.

The refined instance satisfies every constraint exactly (up to float64 rounding), so the run's
value is a *lower* bound on the quadratic-class worst case, and the PEP's dual value an upper
bound: their relative difference is the counterexample's accuracy (``relative_difference``).

References
----------
.. [1] A. Taylor, J. Hendrickx & F. Glineur (2017), Smooth strongly convex interpolation and
   exact worst-case performance of first-order methods, Math. Program. 161, 307–345.
.. [2] N. Bousselmi, J. Hendrickx & F. Glineur (2023), Interpolation conditions for linear
   operators and applications to performance estimation problems, arXiv:2302.08781.
.. [3] G. Pataki (1998), On the rank of extreme matrices in semidefinite programs and the
   multiplicity of optimal eigenvalues, Math. Oper. Res. 23(2), 339–358.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import numpy as np
from scipy import optimize

from fedtheory.algorithms.federated import FederatedRun, fedavg, local_sgd_rounds
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.problems._linear_samples import linear_samples
from fedtheory.problems.federated_quadratic import FederatedQuadratic, federated_quadratic
from fedtheory.worstcase._methods import setting_of, solve_setting
from fedtheory.worstcase._result import PrimalInstance, WorstCase
from fedtheory.worstcase._setting import Setting, make_setting
from fedtheory.worstcase._solve import check_solver
from fedtheory.worstcase._symmetry import lift_quadratics, lift_result, symmetric_reduction

__all__ = ["Counterexample", "quadratic_counterexample"]

#: Candidate dimensions: every rank r ≤ _MAX_RANK whose r-th singular value of the primal
#: coordinates is above _RANK_FLOOR of the largest.
_RANK_FLOOR = 1e-6
_MAX_RANK = 12
#: Candidate noise levels of a client's directions (relative singular values treated as 0).
_DIRECTION_TOLS = (1e-6, 1e-3)
#: The relative accuracy a run must reach (issue 16: "reproduce the PEP value to 1e−6").
_RTOL = 1e-6


@dataclass(frozen=True)
class Counterexample:
    """Explicit quadratic clients attaining a worst case, and the run that measures it.

    Attributes
    ----------
    method, measure : str
        As in :func:`~fedtheory.worstcase.worst_case`.
    parameters : dict
        The method's parameters (of the requested class).
    problem : FederatedQuadratic
        The clients f_i(x) = ½(x − a_i)ᵀQ_i(x − a_i), μI ⪯ Q_i ⪯ LI, with x* = 0.
    x0 : numpy.ndarray
        The start of the run (the refined worst-case start).
    measured : float
        The measure of the run's last server model (‖x_T − x*‖² or F(x_T) − F*).
    pep_value : float
        The worst case over quadratic clients (the PEP with ``functions="quadratic"``), which
        the run reproduces.
    class_value : float
        The worst case over the requested class (equal to ``pep_value`` for the quadratic
        class).
    attained : bool
        Whether quadratics attain the class worst case: ``class_value − max(pep_value,
        measured)`` within both PEPs' accuracies (dual–primal gaps) plus ``rtol·|class_value|``.
        ``measured`` counts because the run's instance is exactly quadratic and feasible: its
        value is a certified lower bound on the quadratic worst case (it can be the sharper one
        when the solver's value is off, as Clarabel's at 1e-7 tolerances can be by 2e-6).
    relative_difference : float
        ``|measured − pep_value|`` / ``|pep_value|``.
    unrefined_value : float
        The measure on the fitted clients from the PEP's own x_0 and minimisers (before the
        refinement).
    refined_bound : float
        The dual value of the refinement: the exact worst case over x_0 and the minimisers
        with the fitted Hessians (``measured`` equals it up to rounding).
    fit_residual : float
        max_k ‖Q_i(x_k − a_i) − g_k‖ / max_k ‖g_k‖ of the fit to the primal data.
    dimension : int
        d, the dimension of the instance (the numerical rank of the primal data).
    solver : str
        The SDP solver of the PEPs.
    seconds : dict of str to float
        Wall times: ``"solve"`` (both PEPs), ``"fit"``, ``"refine"``, ``"run"``.
    run : FederatedRun
        The toolkit's run (``record=True``: every server model).
    worst_case, class_worst_case : WorstCase
        The quadratic-class and the requested-class PEP results.
    """

    method: str
    measure: str
    parameters: dict[str, Any]
    problem: FederatedQuadratic = field(repr=False)
    x0: np.ndarray = field(repr=False)
    measured: float
    pep_value: float
    class_value: float
    attained: bool
    relative_difference: float
    unrefined_value: float
    refined_bound: float
    fit_residual: float
    dimension: int
    solver: str
    seconds: dict[str, float]
    run: FederatedRun = field(repr=False)
    worst_case: WorstCase = field(repr=False)
    class_worst_case: WorstCase = field(repr=False)

    @property
    def reproduced(self) -> bool:
        """Whether the run reproduces the quadratic PEP value to 1e-6 relative."""
        return self.relative_difference <= _RTOL


# --------------------------------------------------------------------------- the setting


def _setting(method: str | WorstCase, measure: str, parameters: dict[str, Any]) -> Setting:
    if isinstance(method, WorstCase):
        if parameters:
            raise ParameterError(
                parameter=sorted(parameters)[0],
                value=parameters[sorted(parameters)[0]],
                rule="give a WorstCase or a method with its parameters, not both",
            )
        given = dict(method.parameters)
        return make_setting(method.method, measure=method.measure, **given)
    return setting_of(method, measure=measure, **parameters)


def _check_supported(setting: Setting) -> None:
    """The settings whose worst case is a quadratic form the round loop can run."""
    rules = [
        (
            "measure",
            setting.measure,
            setting.measure in ("distance", "function"),
            "must be 'distance' or 'function' for a counterexample (the min over t of "
            "'function-min' and 'gradient' is not one quadratic form)",
        ),
        (
            "functions",
            setting.functions,
            setting.functions in ("convex", "quadratic"),
            "must be 'convex' or 'quadratic' for a quadratic counterexample",
        ),
        (
            "method",
            setting.method,
            setting.local in ("gd", "prox-gd"),
            "must run local gradient steps (gd, fedavg, fedprox): the round loop has no exact "
            "proximal or SCAFFOLD client step",
        ),
        (
            "eps2" if setting.error == "absolute" else "delta2",
            setting.eps2 if setting.error == "absolute" else setting.delta2,
            setting.error == "none",
            "gradient errors have no counterpart in the round loop's exact oracle",
        ),
        (
            "heterogeneity",
            setting.heterogeneity,
            setting.m == 1 or setting.heterogeneity in ("optimum", "identical"),
            "must be 'optimum' or 'identical' (bounded dissimilarity is a relaxation)",
        ),
        (
            "Delta0",
            setting.initial_value,
            setting.initial == "distance" or setting.mu > 0,
            "needs mu > 0 (the initial gap F(x0) − F* ≤ Δ0 is a ball only for a definite ∇²F)",
        ),
    ]
    for parameter, value, ok, rule in rules:
        if not ok:
            raise ParameterError(parameter=parameter, value=value, rule=rule)


# --------------------------------------------------------------------------- fit


def _bases(instance: PrimalInstance) -> list[np.ndarray]:
    """Orthonormal bases of the leading r-dimensional subspaces of the primal data, one per
    candidate rank r (columns: right singular vectors of the stacked coordinates)."""
    rows = [instance.x0[None, :], instance.iterates]
    rows += [np.concatenate([c.points, c.gradients]) for c in instance.clients]
    if instance.x_star is not None:
        rows.append(instance.x_star[None, :])
    _, singular, vt = np.linalg.svd(np.concatenate(rows), full_matrices=False)
    ranks = max(min(int(np.sum(singular > _RANK_FLOOR * singular[0])), _MAX_RANK), 1)
    return [np.asarray(vt[:r].T) for r in range(1, ranks + 1)]


def _clip(matrix: np.ndarray, low: float, high: float) -> np.ndarray:
    """The symmetric part of ``matrix`` with its eigenvalues clipped into [low, high]."""
    eigenvalues, vectors = np.linalg.eigh(0.5 * (matrix + matrix.T))
    return np.asarray((vectors * np.clip(eigenvalues, low, high)) @ vectors.T)


def _pinv_psd(matrix: np.ndarray) -> np.ndarray:
    """Pseudo-inverse of a PSD matrix, eigenvalues below 1e-9 of the largest (or of 1) as 0."""
    eigenvalues, vectors = np.linalg.eigh(matrix)
    keep = eigenvalues > 1e-9 * max(float(eigenvalues[-1]), 1.0)
    inverse = np.where(keep, 1.0 / np.where(keep, eigenvalues, 1.0), 0.0)
    return np.asarray((vectors * inverse) @ vectors.T)


def _fit_hessian(
    directions: np.ndarray, gradients: np.ndarray, mu: float, L: float, tol: float
) -> np.ndarray:
    """A Hessian μI ⪯ Q ⪯ LI with Q d_k = g_k (rows d_k, g_k), in closed form.

    In an orthonormal basis [U, U⊥] with U spanning the directions, the data fix the blocks
    A = UᵀQU and B = U⊥ᵀQU (least squares); the free block C = U⊥ᵀQU⊥ must satisfy the Schur
    conditions μI + B(A − μI)⁺Bᵀ ⪯ C ⪯ LI − B(LI − A)⁺Bᵀ (a non-empty interval when the data
    are interpolable, Bousselmi, Hendrickx & Glineur 2023, Theorem 3.9) and is taken at its
    midpoint. Q's eigenvalues are then clipped into [μ, L] (a move of the size of the data's
    error), so that the client is exactly in the class. Directions whose singular value is
    below ``tol`` of the largest count as noise.
    """
    d = directions.shape[1]
    _, singular, vt = np.linalg.svd(directions)
    p = int(np.sum(singular > tol * max(float(singular[0]), 1e-300))) if singular.size else 0
    if p == 0:
        return np.asarray(0.5 * (mu + L) * np.eye(d))
    U, rest = vt[:p].T, vt[p:].T
    coefficients = directions @ U  # d_k = U y_k
    image = np.linalg.lstsq(coefficients, gradients, rcond=None)[0].T  # Q U, shape (d, p)
    A = _clip(U.T @ image, mu, L)
    B = rest.T @ image
    low = mu * np.eye(d - p) + B @ _pinv_psd(A - mu * np.eye(p)) @ B.T
    high = L * np.eye(d - p) - B @ _pinv_psd(L * np.eye(p) - A) @ B.T
    C = 0.5 * (low + high)
    basis = np.concatenate([U, rest], axis=1)
    blocks = np.block([[A, B.T], [B, C]])
    return _clip(basis @ blocks @ basis.T, mu, L)


def _fit(
    instance: PrimalInstance, basis: np.ndarray, setting: Setting, tol: float
) -> tuple[list[np.ndarray], list[np.ndarray], float]:
    """Hessians and minimisers of the leaf functions in the reduced coordinates."""
    hessians, minimisers, residual = [], [], 0.0
    for client in instance.clients:
        points = client.points @ basis
        gradients = client.gradients @ basis
        own = np.flatnonzero(client.stationary)
        if own.size == 0:
            raise ParameterError(
                parameter="functions",
                value=setting.functions,
                rule="the primal data of a counterexample come from the quadratic class "
                "(every client has a stationary point)",
            )
        a = points[own[0]]
        Q = _fit_hessian(points - a, gradients, setting.mu, setting.L, tol)
        scale = max(float(np.abs(gradients).max()), 1e-300)
        residual = max(residual, float(np.abs((points - a) @ Q - gradients).max()) / scale)
        hessians.append(Q)
        minimisers.append(a)
    return hessians, minimisers, residual


# --------------------------------------------------------------------------- refinement


def _dynamics(setting: Setting, hessians: list[np.ndarray]) -> np.ndarray:
    """x_T as a linear map of z = (x_0, b_1, …, b_m) with ∇f_i(x) = Q_i x − b_i: (d, d(1 + m))."""
    d, m = hessians[0].shape[0], len(hessians)
    width = d * (1 + m)
    x = np.zeros((d, width))
    x[:, :d] = np.eye(d)
    q = np.asarray(setting.q)
    for _ in range(setting.T):
        update = np.zeros_like(x)
        for i, Q in enumerate(hessians):
            shift = np.zeros((d, width))
            shift[:, d * (1 + i) : d * (2 + i)] = np.eye(d)
            y = x.copy()
            for _ in range(setting.K):
                step = Q @ y - shift
                if setting.local == "prox-gd":
                    step = step + setting.lam * (y - x)
                y = y - setting.eta * step
            update += q[i] * (y - x)
        x = x + setting.eta_g * update
    return x


def _heterogeneity_basis(hessians: list[np.ndarray], q: np.ndarray, zeta2: float) -> np.ndarray:
    """b = P v: ζ times a Σq_i‖·‖²-orthonormal basis of {Σ q_i b_i = 0, b_i ∈ range Q_i}."""
    d, m = hessians[0].shape[0], len(hessians)
    rows = [np.concatenate([qi * np.eye(d) for qi in q], axis=1)]
    for i, Q in enumerate(hessians):
        eigenvalues, vectors = np.linalg.eigh(Q)
        null = vectors[:, eigenvalues <= 1e-12 * max(float(eigenvalues[-1]), 1e-300)]
        block = np.zeros((null.shape[1], d * m))
        block[:, d * i : d * (i + 1)] = null.T
        rows.append(block)
    constraint = np.concatenate(rows)
    _, singular, vt = np.linalg.svd(constraint)
    rank = int(np.sum(singular > 1e-12 * singular[0]))
    subspace = vt[rank:].T  # Euclidean-orthonormal basis of the subspace
    if subspace.shape[1] == 0:
        return np.zeros((d * m, 0))
    weight = np.repeat(np.sqrt(q), d)[:, None]
    _, r = np.linalg.qr(weight * subspace)
    return np.asarray(math.sqrt(zeta2) * np.linalg.solve(r.T, subspace.T).T)


def _two_ball_max(H: np.ndarray, nu: int) -> tuple[np.ndarray, float]:
    """max wᵀHw over ‖w[:nu]‖ ≤ 1, ‖w[nu:]‖ ≤ 1 (H ⪰ 0), exactly: the maximiser and the dual
    value min_t λ_max(D_t H D_t) (module docstring, step 3)."""
    n = H.shape[0]
    if nu == n:
        eigenvalues, vectors = np.linalg.eigh(H)
        return np.asarray(vectors[:, -1]), float(eigenvalues[-1])

    def top(t: float) -> tuple[np.ndarray, np.ndarray, float]:
        scale = np.concatenate([np.full(nu, t**-0.5), np.full(n - nu, (1.0 - t) ** -0.5)])
        eigenvalues, vectors = np.linalg.eigh(scale[:, None] * H * scale[None, :])
        close = eigenvalues >= eigenvalues[-1] - 1e-10 * max(abs(eigenvalues[-1]), 1e-300)
        return scale[:, None] * vectors[:, close], eigenvalues[close], float(eigenvalues[-1])

    def imbalance(t: float) -> float:
        w = top(t)[0][:, -1]
        return float(w[:nu] @ w[:nu] - w[nu:] @ w[nu:])

    lo, hi = 1e-12, 1.0 - 1e-12
    if imbalance(hi) > 0:  # the second block does not matter: t → 1
        t = hi
    elif imbalance(lo) < 0:  # the first block does not matter: t → 0
        t = lo
    else:
        t = optimize.brentq(imbalance, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    ws, _, dual = top(t)
    # the top eigenspace may be several-dimensional at a kink: mix to balance the blocks
    S = ws[:nu].T @ ws[:nu] - ws[nu:].T @ ws[nu:]
    s_values, s_vectors = np.linalg.eigh(0.5 * (S + S.T))
    if s_values[0] < 0 < s_values[-1]:
        theta = math.atan(math.sqrt(s_values[-1] / -s_values[0]))
        c = math.cos(theta) * s_vectors[:, -1] + math.sin(theta) * s_vectors[:, 0]
    else:
        c = s_vectors[:, -1] if abs(s_values[-1]) <= abs(s_values[0]) else s_vectors[:, 0]
    w = ws @ c
    for block in (slice(0, nu), slice(nu, n)):
        norm = float(np.linalg.norm(w[block]))
        if norm > 0:
            w[block] /= norm
    return w, dual


def _measure_matrix(setting: Setting, dynamics: np.ndarray, mean: np.ndarray) -> np.ndarray:
    if setting.measure == "distance":
        return np.asarray(dynamics.T @ dynamics)
    return np.asarray(0.5 * dynamics.T @ mean @ dynamics)


class _Candidate(NamedTuple):
    """One refined instance: the clients, the start and its values."""

    problem: FederatedQuadratic
    x0: np.ndarray
    unrefined: float  # the fitted clients from the PEP's own x_0 and minimisers
    value: float  # the refined instance's measure (primal, exact up to rounding)
    bound: float  # the refinement's dual value
    residual: float  # the fit's relative residual


def _refine(
    setting: Setting, hessians: list[np.ndarray], minimisers: list[np.ndarray], x0: np.ndarray
) -> tuple[FederatedQuadratic, np.ndarray, float, float, float]:
    """The exact worst case over x_0 and the minimisers for the fitted Hessians: the clients,
    the start, the unrefined value, the refined (primal) value and the dual bound."""
    d = hessians[0].shape[0]
    q = np.asarray(setting.q)
    clients = list(hessians) * (setting.m if len(hessians) == 1 else 1)
    mean = np.einsum("i,ijk->jk", q, np.array(clients))
    dynamics = _dynamics(setting, clients)
    measure = _measure_matrix(setting, dynamics, mean)

    # the fitted instance itself, from the PEP's x_0 (x* moved to the origin)
    centres = list(minimisers) * (len(clients) // len(minimisers))
    fitted = federated_quadratic(np.array(clients), np.array(centres), weights=q)
    x_star = fitted.global_optimum()
    b = np.concatenate([Q @ (a - x_star) for Q, a in zip(clients, fitted.minimisers, strict=True)])
    z = np.concatenate([x0 - x_star, b])
    unrefined = float(z @ measure @ z)

    if setting.initial == "distance":
        start = math.sqrt(setting.initial_value) * np.eye(d)
    else:  # ½ x_0ᵀ∇²F x_0 ≤ Δ0
        eigenvalues, vectors = np.linalg.eigh(mean)
        start = (vectors * np.sqrt(2 * setting.initial_value / eigenvalues)) @ vectors.T
    spread = (
        np.zeros((d * len(clients), 0))
        if setting.homogeneous
        else _heterogeneity_basis(clients, q, setting.zeta2)
    )
    lift = np.zeros((d * (1 + len(clients)), d + spread.shape[1]))
    lift[:d, :d] = start
    lift[d:, d:] = spread
    reduced = lift.T @ measure @ lift
    w, bound = _two_ball_max(reduced, d)
    value = float(w @ reduced @ w)
    z = lift @ w
    b = z[d:].reshape(len(clients), d)
    a = np.array([np.linalg.lstsq(Q, bi, rcond=None)[0] for Q, bi in zip(clients, b, strict=True)])
    problem = federated_quadratic(np.array(clients), a, weights=q)
    return problem, np.asarray(z[:d]), unrefined, value, bound


def _best_instance(
    instance: PrimalInstance, setting: Setting, seconds: dict[str, float]
) -> _Candidate:
    """Fit and refine for every candidate dimension and direction noise level; keep the
    instance of largest (exact) value — each one is a feasible quadratic instance, so the best
    is still a lower bound on the quadratic worst case."""
    best: _Candidate | None = None
    for basis in _bases(instance):
        for tol in _DIRECTION_TOLS:
            clock = time.perf_counter()
            hessians, minimisers, residual = _fit(instance, basis, setting, tol)
            fitted = time.perf_counter()
            problem, x0, unrefined, value, bound = _refine(
                setting, hessians, minimisers, instance.x0 @ basis
            )
            seconds["fit"] += fitted - clock
            seconds["refine"] += time.perf_counter() - fitted
            if best is None or value > best.value:
                best = _Candidate(problem, x0, unrefined, value, bound, residual)
    assert best is not None
    return best


# --------------------------------------------------------------------------- run


def _run(setting: Setting, problem: FederatedQuadratic, x0: np.ndarray) -> FederatedRun:
    """The toolkit's round loop, full batch (exact gradients), from ``x0``."""
    data = problem.dataset()
    d, m = problem.dimension, problem.num_clients
    if setting.local == "gd":
        return fedavg(
            data,
            rounds=setting.T,
            local_steps=setting.K,
            local_step=setting.eta,
            server_step=setting.eta_g,
            batch=d,
            weights=problem.weights,
            init=x0,
            seed=0,
            record=True,
        )
    # FedProx with gradient local steps from the server model (not the warm-started
    # Algorithm 2 of :func:`fedtheory.algorithms.fedprox`): the engine with λ > 0
    work = np.append(np.full(setting.T, setting.K), 0).astype(np.int64)
    out = local_sgd_rounds(
        linear_samples([data]),
        radius=math.inf,
        weights=problem.weights[None, :],
        masks=np.ones((1, setting.T, m), dtype=np.bool_),
        work=work,
        epochs=False,
        batch=d,
        local_steps=np.array([setting.eta]),
        server_steps=np.full(setting.T, setting.eta_g),
        lam=setting.lam,
        persistent=False,
        train_sampled=True,
        project_global=False,
        final_download=True,
        init_global=x0[None, :],
        init_local=np.broadcast_to(x0, (1, m, d)).copy(),
        seeds=np.zeros(1, dtype=np.uint64),
        record=True,
    )
    return FederatedRun(
        algorithm="fedprox-gradient",
        global_model=out[0][0],
        local_models=out[1][0],
        trace=Trace.from_counts(out[2][0], None),
        global_iterates=out[4][0],
        local_iterates=out[5][0],
        hyperparameters=setting.parameters(),
    )


# --------------------------------------------------------------------------- entry point


def quadratic_counterexample(
    method: str | WorstCase,
    *,
    measure: str = "distance",
    solver: str | None = None,
    rtol: float = _RTOL,
    **parameters: Any,
) -> Counterexample:
    """Explicit quadratic clients attaining a method's worst case, run by the toolkit.

    Solves the PEP over the requested class and over quadratic clients, builds the quadratic
    clients from the latter's primal solution, refines the start and the minimisers exactly
    for the fitted Hessians, and runs the toolkit's round loop on them (module docstring).

    Parameters
    ----------
    method
        A method of :data:`~fedtheory.worstcase.METHODS` with local gradient steps (``"gd"``,
        ``"fedavg"``, ``"fedprox"``), or a solved :class:`WorstCase` (its value is reused as
        the class value; no parameters then).
    measure
        ``"distance"`` or ``"function"`` (ignored for a WorstCase).
    solver
        ``"SCS"`` or ``"CLARABEL"`` (default: the WorstCase's solver, else SCS).
    rtol
        Relative tolerance (beyond both solvers' accuracies) within which the class and the
        quadratic worst cases count as equal (``attained``).
    **parameters
        The method's parameters (as :func:`~fedtheory.worstcase.worst_case`).

    Returns
    -------
    Counterexample
        The clients, the run's value, both PEP values, their relative difference and whether
        quadratics attain the class worst case.

    Raises
    ------
    ParameterError
        Invalid parameters (as :func:`~fedtheory.worstcase.worst_case`), or a setting without
        a quadratic counterexample the round loop can run: a measure other than distance or
        function, gradient errors, exact proximal or SCAFFOLD steps, bounded dissimilarity,
        non-convex clients, or Δ0 with mu = 0.
    SolverError
        When an SDP does not solve.

    Examples
    --------
    GD's distance worst case ``max(|1 − ηL|, |1 − ημ|)^{2T}`` = 0.85⁴ is attained by a
    quadratic:

    >>> cx = quadratic_counterexample("gd", T=2, L=1.0, mu=0.1, eta=1.5)
    >>> cx.attained, cx.reproduced, round(cx.measured, 9)
    (True, True, 0.52200625)
    """
    given = method if isinstance(method, WorstCase) else None
    setting = _setting(method, measure, parameters)
    _check_supported(setting)
    if not (isinstance(rtol, (int, float)) and not isinstance(rtol, bool) and rtol >= 0):
        raise ParameterError(parameter="rtol", value=rtol, rule="must be a non-negative number")
    solver = check_solver(solver if solver is not None else (given.solver if given else "SCS"))

    start = time.perf_counter()
    # more than two equally weighted clients: solve and fit two, lift the clients to m
    reduced = symmetric_reduction(setting)
    quadratic = replace(setting if reduced is None else reduced, functions="quadratic")
    solved = solve_setting(quadratic, solver=solver)  # the fit needs the solved clients
    lifted = replace(setting, functions="quadratic")  # all m clients: what the run runs
    worst = solved if reduced is None else lift_result(solved, lifted)
    if setting.functions == "quadratic":
        reference = worst
    elif given is not None and given.solver == solver:
        reference = given
    else:
        reference = solve_setting(setting, solver=solver)  # reduces and lifts on its own

    seconds = {"solve": time.perf_counter() - start, "fit": 0.0, "refine": 0.0}
    instance = solved.instance
    assert instance is not None  # solve_pep always extracts it
    best = _best_instance(instance, quadratic, seconds)
    problem, x0 = best.problem, best.x0
    if reduced is not None:
        hessians, minimisers, x0 = lift_quadratics(
            problem.hessians, problem.minimisers, x0, setting.m
        )
        problem = federated_quadratic(hessians, minimisers)

    clock = time.perf_counter()
    run = _run(lifted, problem, x0)
    x_T = run.global_model
    if setting.measure == "distance":
        measured = float(np.sum((x_T - problem.global_optimum()) ** 2))
    else:
        measured = problem.gap(x_T)
    seconds["run"] = time.perf_counter() - clock

    tolerance = reference.gap + worst.gap + rtol * abs(reference.value)
    return Counterexample(
        method=setting.method,
        measure=setting.measure,
        parameters=setting.parameters(),
        problem=problem,
        x0=x0,
        measured=measured,
        pep_value=worst.value,
        class_value=reference.value,
        attained=reference.value - max(worst.value, measured) <= tolerance,
        relative_difference=abs(measured - worst.value) / max(abs(worst.value), 1e-300),
        unrefined_value=best.unrefined,
        refined_bound=best.bound,
        fit_residual=best.residual,
        dimension=problem.dimension,
        solver=solver,
        seconds=seconds,
        run=run,
        worst_case=worst,
        class_worst_case=reference,
    )
