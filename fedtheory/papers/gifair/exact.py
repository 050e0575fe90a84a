"""Exact optima of GIFAIR-FL's objective and of its baselines' objectives, through cvxpy.

The objective (1), H(θ) = Σ_k p_k F_k(θ) + λ Σ_{i<j} ``|L_i(θ) − L_j(θ)|``, is a max of convex
functions when λ ≤ λ_max (guide §1, D3), and by D4 it is the DCP program ::

    H(θ) = Σ_k (p_k − λ(d−1)/|𝒜_{s_k}|) F_k(θ) + 2λ Σ_{j=1}^{d−1} sum_largest([L_1..L_d], j),

valid exactly when every coefficient p_k − λ(d−1)/``|𝒜_{s_k}|`` is ≥ 0, i.e. λ ≤ λ_max. Beyond it
:func:`fair_optimum` raises :class:`~fedtheory.errors.ConditionError` before building anything.
λ and the coefficients are cvxpy Parameters (DPP), so :func:`tradeoff_curve` canonicalises the
program once for a whole λ grid.

Solvers (free ones only): Clarabel; when its status is not ``"optimal"``, SCS with
eps = 1e-9; any other final status raises :class:`~fedtheory.errors.SolverError` naming the
solver and the status (``optimal_inaccurate`` is never accepted). The solution is then
*polished* by Newton–KKT steps on the active piece (the tied group pairs, within ``tie_tol``,
kept tied by equality constraints; the piece's Hessian Σ_k w_k ∇²F_k from the problem), and the
polished point is kept only if it does not increase H. Every result carries its *stationarity*
certificate: the distance from 0 to the subdifferential ∂H(θ*) = {Σ_k q_k ∇F_k(θ*) : q ∈
argmax_{Z_λ}} (D3), computed as a box-constrained least-squares problem over the tied pairs'
signs (scipy's ``lsq_linear``). 0 ∈ ∂H is the optimality condition of a convex H.

Independent second check: :func:`epigraph_optimum`, min t s.t. t ≥ Σ_k q_k(π) F_k(θ) over all
d! strict orderings π of the groups (d ≤ 5). Baselines (guide §2.5, V18): :func:`afl_optimum`
(min max_k F_k, non-smooth: a cone program), :func:`term_optimum` and :func:`qffl_optimum`
(smooth and convex: damped Newton on the exact objective from FedAvg's optimum, certified by
‖∇f‖ ≤ 1e-10·scale; their exp/power-cone programs stalled at ``optimal_inaccurate`` too often
and are kept only as a cross-check in the tests), :func:`ditto_personal`; and
:func:`zonotope_max`, the LP max over Z_λ of Σ q_k F_k that equals H (D3).
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass
from typing import Any

import cvxpy
import numpy as np
from scipy import optimize

from fedtheory._arrays import readonly
from fedtheory._checks import check_real, check_vector
from fedtheory.errors import ConditionError, ParameterError, SolverError
from fedtheory.papers.gifair import _smooth
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics

__all__ = [
    "BaselineOptimum",
    "FairOptimum",
    "TradeoffCurve",
    "afl_optimum",
    "ditto_personal",
    "epigraph_optimum",
    "fair_optimum",
    "qffl_optimum",
    "stationarity",
    "term_optimum",
    "tradeoff_curve",
    "zonotope_max",
]

Problem = GroupedQuadratics | GroupedClassification

#: cvxpy ships without complete type information; its atoms are used through this alias.
cp: Any = cvxpy

_SCS_OPTIONS = {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200_000}


# ============================================================================== cvxpy pieces


def _check(problem: Any) -> Problem:
    if not isinstance(problem, GroupedQuadratics | GroupedClassification):
        raise ParameterError(
            parameter="problem",
            value=type(problem).__name__,
            rule="must be a GroupedQuadratics or a GroupedClassification",
        )
    return problem


def _losses(problem: Problem) -> tuple[cp.Variable, cp.Expression]:
    """θ and the vector (F_1(θ), …, F_K(θ)) as a convex cvxpy expression."""
    theta = cp.Variable(problem.dimension)
    K = problem.num_clients
    if isinstance(problem, GroupedQuadratics):
        roots = np.linalg.cholesky(problem.curvature).transpose(0, 2, 1)  # A = RᵀR
        terms = [0.5 * cp.sum_squares(roots[k] @ (theta - problem.centres[k])) for k in range(K)]
        return theta, cp.hstack(terms) + problem.offsets
    if problem.nonconvex > 0:
        raise ParameterError(
            parameter="nonconvex",
            value=problem.nonconvex,
            rule="the exact optima are convex programs: they need ν = 0 (no non-convex term)",
        )
    mask = problem.mask()
    rows = np.flatnonzero(mask.reshape(-1))
    X = problem.features.reshape(-1, problem.num_features)[rows]
    y = problem.labels.reshape(-1)[rows]
    owner = np.repeat(np.arange(K), problem.counts)
    average = np.zeros((K, rows.size))
    average[owner, np.arange(rows.size)] = 1.0 / problem.counts[owner]
    if problem.loss == "logistic":
        sample = cp.logistic(cp.multiply(-y, X @ theta))
    else:
        W = cp.reshape(theta, (problem.classes, problem.num_features), order="C")
        scores = X @ W.T
        onehot = np.eye(problem.classes)[y]
        sample = cp.log_sum_exp(scores, axis=1) - cp.sum(cp.multiply(onehot, scores), axis=1)
    ridge = 0.5 * problem.ridge * cp.sum_squares(theta)
    return theta, average @ sample + ridge


def _solve(program: cp.Problem, solver: str | None, what: str) -> str:
    """Solve with Clarabel (then SCS when Clarabel is not optimal); return the solver used."""
    tried = []
    # Clarabel's first solve of a freshly canonicalised program sometimes stalls at
    # "optimal_inaccurate" and a second call reaches "optimal" (cvxpy 1.x). TERM and q-FFL no
    # longer come here (Newton), but the retry still pays for the others: one Clarabel call
    # leaves 4/330 quadratic and 6/330 logistic GIFAIR optima and 7/30 logistic AFL programs
    # uncertified (30 seeds of verification's trade-off problems); the retry certifies a few
    # of them and the rest go to the slower SCS. The status, not the retry, is the certificate.
    default = ["CLARABEL", "CLARABEL", "SCS"]
    for name in (
        default if solver is None else [solver, solver] if solver == "CLARABEL" else [solver]
    ):
        options = _SCS_OPTIONS if name == "SCS" else {}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program.solve(solver=name, **options)
        except cp.error.SolverError as error:
            tried.append(f"{name}: {error}")
            continue
        if program.status == cp.OPTIMAL:
            return str(name)
        tried.append(f"{name}: {program.status}")
    raise SolverError(
        "/".join(t.split(":")[0] for t in tried),
        "; ".join(tried),
        hint=f"{what}: no free solver reached status 'optimal'",
    )


# ============================================================================== results


@dataclass(frozen=True)
class FairOptimum:
    """An exact minimiser of H = Σ p F + λR (eq. (1)) with its certificates.

    Attributes
    ----------
    lam : float
        λ.
    theta : ndarray
        θ*, shape (dimension,).
    value : float
        H(θ*), evaluated in numpy from the problem's own oracles.
    client_losses, group_losses : ndarray
        F_k(θ*) (K,) and L_i(θ*) (d,).
    spread, average_loss : float
        R(θ*) and Σ_k p_k F_k(θ*).
    ties : tuple of (int, int)
        Group pairs with ``|L_i − L_j|`` < tie_tol at θ* (the active kinks).
    stationarity : float
        dist(0, ∂H(θ*)) with the ties above (0 at an exact optimum).
    solver, status : str
        The solver that gave the optimum (``"+newton"`` when the polish was kept) and its status.
    """

    lam: float
    theta: np.ndarray
    value: float
    client_losses: np.ndarray
    group_losses: np.ndarray
    spread: float
    average_loss: float
    ties: tuple[tuple[int, int], ...]
    stationarity: float
    solver: str
    status: str


@dataclass(frozen=True)
class TradeoffCurve:
    """Exact optima along a λ grid (guide V4): R, Σ p F and H* non-monotone only by bugs."""

    lams: np.ndarray
    spread: np.ndarray
    average_loss: np.ndarray
    value: np.ndarray
    theta: np.ndarray
    optima: tuple[FairOptimum, ...]


def _ties(groups: GroupStructure, F: np.ndarray, tol: float) -> list[tuple[int, int]]:
    L = groups.group_losses(F)
    scale = max(1.0, float(np.abs(L).max()))
    return [(int(i), int(j)) for i, j in groups.pairs if abs(L[i] - L[j]) < tol * scale]


def _subgradient_parts(
    problem: Problem, lam: float, theta: np.ndarray, ties: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(J, q⁰, G_t): gradients (K, n), the weights with tied signs set to 0, tied generators."""
    groups = problem.groups
    F = problem.client_values(theta)
    gen = groups.zonotope_generators()
    tied = np.array([any((i, j) == t for t in ties) for i, j in groups.pairs], dtype=bool)
    signs = np.where(tied, 0.0, np.sign(gen @ F))
    q0 = groups.p + lam * signs @ gen
    return problem.client_gradients(theta), q0, gen[tied]


def stationarity(problem: Problem, lam: float, theta: Any, *, tie_tol: float = 1e-6) -> float:
    """dist(0, ∂H(θ)): min ‖Σ_k q_k ∇F_k(θ)‖ over q ∈ Z_λ active at θ (D3; pairs within
    ``tie_tol``·max(1, max|L|) count as tied, their sign free in [−1, 1]).
    """
    problem = _check(problem)
    theta = check_vector("theta", theta, shape=(problem.dimension,))
    ties = _ties(problem.groups, problem.client_values(theta), tie_tol)
    J, q0, gen_t = _subgradient_parts(problem, lam, theta, ties)
    a = J.T @ q0
    if not ties or lam == 0:
        return float(np.linalg.norm(a))
    B = lam * J.T @ gen_t.T
    fit = optimize.lsq_linear(B, -a, bounds=(-1.0, 1.0), lsmr_tol="auto", tol=1e-14)
    return float(np.linalg.norm(a + B @ fit.x))


def _polish(
    problem: Problem, lam: float, theta: np.ndarray, tie_tol: float, steps: int = 20
) -> np.ndarray:
    """Newton–KKT steps on the active piece (ties kept as equality constraints)."""
    groups = problem.groups
    ties = _ties(groups, problem.client_values(theta), tie_tol)
    _, q0, gen_t = _subgradient_parts(problem, lam, theta, ties)
    m = gen_t.shape[0]
    s = np.zeros(m)
    n = problem.dimension
    for _ in range(steps):
        F = problem.client_values(theta)
        J = problem.client_gradients(theta)
        w = q0 + lam * s @ gen_t
        residual = np.concatenate([J.T @ w, gen_t @ F])
        if np.linalg.norm(residual) <= 1e-13 * max(1.0, float(np.abs(F).max())):
            break
        kkt = np.zeros((n + m, n + m))
        kkt[:n, :n] = problem.weighted_hessian(theta, np.clip(w, 0.0, None))
        kkt[:n, n:] = lam * J.T @ gen_t.T
        kkt[n:, :n] = gen_t @ J
        step = np.linalg.lstsq(kkt, -residual, rcond=None)[0]
        theta = theta + step[:n]
        s = s + step[n:]
    return theta


def _result(
    problem: Problem, lam: float, theta: np.ndarray, solver: str, status: str, tie_tol: float
) -> FairOptimum:
    groups = problem.groups
    F = problem.client_values(theta)
    ties = _ties(groups, F, tie_tol)
    return FairOptimum(
        lam=lam,
        theta=readonly(theta),
        value=float(groups.objective(lam, F)),
        client_losses=readonly(F),
        group_losses=readonly(groups.group_losses(F)),
        spread=float(groups.spread(F)),
        average_loss=float(F @ groups.p),
        ties=tuple(ties),
        stationarity=stationarity(problem, lam, theta, tie_tol=tie_tol),
        solver=solver,
        status=status,
    )


def _check_lam(groups: GroupStructure, lam: Any, where: str) -> float:
    value = check_real("lam", lam)
    if value < 0:
        raise ParameterError(parameter="lam", value=value, rule="must be non-negative")
    if value > groups.lambda_max:
        raise ConditionError(
            f"gifair.{where}",
            "λ ≤ λ_max",
            {"lam": value, "lambda_max": groups.lambda_max},
            note=f"λ_max = min_k p_k|A_(s_k)|/(d−1) = {groups.lambda_max:.6g}; beyond it H is "
            "not convex in general (guide §1, D3) and the sum_largest program is not DCP",
        )
    return value


# ============================================================================== fair optimum


class _FairProgram:
    """The DPP program of the module docstring, built once per problem."""

    def __init__(self, problem: Problem) -> None:
        groups = problem.groups
        self.problem = problem
        self.theta, F = _losses(problem)
        d = groups.num_groups
        L = (groups.membership / groups.group_sizes).T @ F
        self.coefficients = cp.Parameter(groups.num_clients, nonneg=True)
        self.twice_lam = cp.Parameter(nonneg=True)
        largest = sum(cp.sum_largest(L, j) for j in range(1, d))
        objective = self.coefficients @ F + self.twice_lam * largest
        self.program = cp.Problem(cp.Minimize(objective))

    def solve(self, lam: float, solver: str | None) -> tuple[np.ndarray, str]:
        groups = self.problem.groups
        coefficients = groups.p - lam * (groups.num_groups - 1) / groups.client_group_sizes
        self.coefficients.value = np.clip(coefficients, 0.0, None)  # −1e-17 at λ = λ_max
        self.twice_lam.value = 2.0 * lam
        name = _solve(self.program, solver, f"fair optimum at λ = {lam:.6g}")
        return np.asarray(self.theta.value, dtype=np.float64), name


def _finish(
    problem: Problem, lam: float, theta: np.ndarray, name: str, polish: bool, tie_tol: float
) -> FairOptimum:
    if polish:
        polished = _polish(problem, lam, theta, tie_tol)
        groups = problem.groups
        before = float(groups.objective(lam, problem.client_values(theta)))
        after = float(groups.objective(lam, problem.client_values(polished)))
        if np.isfinite(after) and after <= before + 1e-12 * max(1.0, abs(before)):
            candidate = _result(problem, lam, polished, name + "+newton", "optimal", tie_tol)
            plain = _result(problem, lam, theta, name, "optimal", tie_tol)
            return candidate if candidate.stationarity <= plain.stationarity else plain
    return _result(problem, lam, theta, name, "optimal", tie_tol)


def fair_optimum(
    problem: Problem,
    lam: float,
    *,
    solver: str | None = None,
    polish: bool = True,
    tie_tol: float = 1e-6,
) -> FairOptimum:
    """argmin_θ H(θ) = Σ_k p_k F_k(θ) + λR(θ) exactly (eq. (1); guide §1's convex program).

    Parameters
    ----------
    problem
        A :class:`GroupedQuadratics` or :class:`GroupedClassification`.
    lam
        0 ≤ λ ≤ λ_max.
    solver
        ``"CLARABEL"`` or ``"SCS"`` (no fallback), or None: Clarabel, then SCS (eps 1e-9).
    polish
        Newton–KKT polish on the active piece (kept only if H does not increase and the
        stationarity certificate does not get worse).
    tie_tol
        Relative tolerance under which two group losses count as tied.

    Raises
    ------
    ConditionError
        If λ > λ_max (the message states λ_max); raised before any cvxpy object is built.
    SolverError
        If no solver reaches status ``"optimal"``.
    """
    problem = _check(problem)
    lam = _check_lam(problem.groups, lam, "fair_optimum")
    theta, name = _FairProgram(problem).solve(lam, solver)
    return _finish(problem, lam, theta, name, polish, tie_tol)


def tradeoff_curve(
    problem: Problem,
    lams: Any,
    *,
    solver: str | None = None,
    polish: bool = True,
    tie_tol: float = 1e-6,
) -> TradeoffCurve:
    """Exact optima on a λ grid in [0, λ_max] (guide V4), one DPP program for the whole grid.

    Raises
    ------
    ConditionError
        If some λ > λ_max (before any solve).
    """
    problem = _check(problem)
    grid = np.atleast_1d(np.asarray(lams, dtype=np.float64))
    if grid.ndim != 1 or grid.size == 0:
        raise ParameterError(parameter="lams", value=lams, rule="must be a non-empty 1-D grid")
    values = [_check_lam(problem.groups, float(lam), "tradeoff_curve") for lam in grid]
    program = _FairProgram(problem)
    optima = []
    for lam in values:
        theta, name = program.solve(lam, solver)
        optima.append(_finish(problem, lam, theta, name, polish, tie_tol))
    return TradeoffCurve(
        lams=readonly(grid),
        spread=readonly([o.spread for o in optima]),
        average_loss=readonly([o.average_loss for o in optima]),
        value=readonly([o.value for o in optima]),
        theta=readonly(np.stack([o.theta for o in optima])),
        optima=tuple(optima),
    )


def epigraph_optimum(
    problem: Problem, lam: float, *, solver: str | None = None, tie_tol: float = 1e-6
) -> FairOptimum:
    """min t s.t. t ≥ Σ_k q_k(π) F_k(θ) for every strict ordering π of the d groups (D3).

    q_k(π) = p_k + λ r_k(π)/``|𝒜_{s_k}|`` with r = d − 2m + 1 for the group ranked m-th; the max
    over the d! orderings is H (Lemma 3.2 without ties, and the max of the linear function
    over Z_λ is attained at a vertex). An independent check of :func:`fair_optimum`; no polish.

    Raises
    ------
    ParameterError
        If d > 5 (d! pieces).
    ConditionError
        If λ > λ_max.
    """
    problem = _check(problem)
    groups = problem.groups
    d = groups.num_groups
    if d > 5:
        raise ParameterError(
            parameter="problem", value=f"d = {d}", rule="the epigraph has d! pieces: d ≤ 5"
        )
    lam = _check_lam(groups, lam, "epigraph_optimum")
    theta, F = _losses(problem)
    t = cp.Variable()
    constraints = []
    for order in itertools.permutations(range(d)):
        ranks = np.empty(d)
        ranks[list(order)] = d - 2 * np.arange(1, d + 1) + 1
        q = groups.p + lam * ranks[groups.labels] / groups.client_group_sizes
        constraints.append(t >= np.clip(q, 0.0, None) @ F)
    program = cp.Problem(cp.Minimize(t), constraints)
    name = _solve(program, solver, f"epigraph at λ = {lam:.6g}")
    return _result(
        problem, lam, np.asarray(theta.value, dtype=np.float64), name, "optimal", tie_tol
    )


# ============================================================================== baselines


@dataclass(frozen=True)
class BaselineOptimum:
    """A baseline's exact minimiser with its certificate.

    Attributes
    ----------
    theta : ndarray
        θ*, shape (dimension,).
    value : float
        The baseline's objective at θ*, evaluated in numpy from the problem's oracles.
    client_losses : ndarray
        F_k(θ*), shape (K,).
    solver : str
        ``"newton"`` (TERM, q-FFL) or the cone solver (AFL).
    stationarity : float
        The optimality certificate: ‖∇f(θ*)‖ for the smooth TERM and q-FFL objectives; for AFL
        dist(0, conv{∇F_k(θ*) : F_k(θ*) ≥ max_j F_j(θ*) − 1e-6·max(1, ``|max_j F_j|``)}), the
        distance from 0 to ∂(max_k F_k) with the clients active within that tolerance.
    iterations : int
        Newton steps taken (0 for AFL).
    """

    theta: np.ndarray
    value: float
    client_losses: np.ndarray
    solver: str
    stationarity: float
    iterations: int = 0


def _hull_distance(gradients: np.ndarray) -> float:
    """min ‖Σ_k α_k g_k‖ over the simplex (rows g_k), as a non-negative least-squares fit."""
    m = gradients.shape[0]
    if m == 1:
        return float(np.linalg.norm(gradients[0]))
    big = 1e3 * max(1.0, float(np.abs(gradients).max()))
    design = np.vstack([gradients.T, np.full((1, m), big)])
    target = np.concatenate([np.zeros(gradients.shape[1]), [big]])
    alpha = optimize.nnls(design, target)[0]
    alpha /= alpha.sum()
    return float(np.linalg.norm(alpha @ gradients))


def afl_optimum(problem: Problem, *, solver: str | None = None) -> BaselineOptimum:
    """AFL over the simplex: min_θ max_k F_k(θ) (Mohri et al. 2019; guide §2.5, V18).

    Non-smooth, so a cone program (Clarabel, then SCS; see :func:`fair_optimum`). The
    certificate is the distance from 0 to the convex hull of the active clients' gradients.

    Raises
    ------
    SolverError
        If no solver reaches status ``"optimal"``.
    """
    problem = _check(problem)
    theta, F = _losses(problem)
    program = cp.Problem(cp.Minimize(cp.max(F)))
    name = _solve(program, solver, "AFL")
    point = np.asarray(theta.value, dtype=np.float64)
    losses = problem.client_values(point)
    top = float(losses.max())
    active = losses >= top - 1e-6 * max(1.0, abs(top))
    return BaselineOptimum(
        theta=readonly(point),
        value=top,
        client_losses=readonly(losses),
        solver=name,
        stationarity=_hull_distance(problem.client_gradients(point)[active]),
    )


def _baseline(solution: _smooth.Solution) -> BaselineOptimum:
    return BaselineOptimum(
        theta=readonly(solution.theta),
        value=solution.value,
        client_losses=readonly(solution.client_losses),
        solver="newton",
        stationarity=solution.gradient_norm,
        iterations=solution.steps,
    )


def term_optimum(problem: Problem, t: float) -> BaselineOptimum:
    """TERM: min_θ (1/t) log Σ_k p_k e^{t F_k(θ)}, t > 0 (Li et al. 2021; guide §2.5).

    Solved by damped Newton (``_smooth.newton``), warm-started at FedAvg's optimum. With
    w = softmax(tF + log p), ∇f = Σ_k w_k∇F_k and ∇²f = Σ_k w_k∇²F_k + t·Cov_w(∇F_k), so f is
    μ-strongly convex when every F_k is (Σ w = 1) and L + t·max‖∇F_k‖²-smooth on bounded sets.
    Clients with p_k = 0 get weight 0. t → 0 gives FedAvg's argmin Σ p F; t → ∞ gives
    min max_k F_k over the p_k > 0, with max_k F_k(θ_t) − min max ≤ log(1/p_min)/t.

    Raises
    ------
    ParameterError
        If t ≤ 0.
    SolverError
        If Newton does not reach ‖∇f‖ ≤ 1e-10·scale (message: ``newton`` and the norm).
    """
    problem = _check(problem)
    t = check_real("t", t, positive=True)
    return _baseline(_smooth.newton(_smooth.Tilted(problem, t), f"TERM at t = {t:g}"))


def qffl_optimum(problem: Problem, q: float) -> BaselineOptimum:
    """q-FFL: min_θ Σ_k p_k F_k^{q+1}(θ)/(q+1), q ≥ 0 (Li et al. 2020; guide §2.5).

    Solved by damped Newton (``_smooth.newton``), warm-started at FedAvg's optimum (q = 0 is
    FedAvg). With F_k ≥ 0 the map u ↦ u^{q+1}/(q+1) is convex, non-decreasing and C¹ on
    [0, ∞), so f is convex and C¹ (C² where every F_k > 0); ∇f = Σ_k p_kF_k^q∇F_k and
    ∇²f = Σ_k p_kF_k^q∇²F_k + q Σ_k p_kF_k^{q−1}∇F_k∇F_kᵀ ⪰ μ Σ_k p_kF_k^q I, hence strongly
    convex on every bounded set on which the F_k have no common zero. F_k = 0 can happen
    (quadratics with b_k = 0 at c_k); there the rank-one term is taken as 0 (see
    ``_smooth.Power``).

    Raises
    ------
    ParameterError
        If q < 0.
    ConditionError
        If q > 0 and some quadratic offset b_k = min F_k is negative (F_k^{q+1} undefined).
    SolverError
        If Newton does not reach ‖∇f‖ ≤ 1e-10·scale (message: ``newton`` and the norm).
    """
    problem = _check(problem)
    q = check_real("q", q, nonnegative=True)
    if q > 0 and isinstance(problem, GroupedQuadratics) and problem.offsets.min() < 0:
        raise ConditionError(
            "gifair.qffl_optimum",
            "F_k ≥ 0",
            {"min_offset": float(problem.offsets.min()), "q": q},
            note="q-FFL raises the losses to the power q + 1: it needs F_k ≥ 0, i.e. b_k ≥ 0",
        )
    return _baseline(_smooth.newton(_smooth.Power(problem, q), f"q-FFL at q = {q:g}"))


def ditto_personal(problem: Problem, w: Any, lam_d: float) -> np.ndarray:
    """Ditto's personal models v_k = argmin_v F_k(v) + (λ_D/2)‖v − w‖² (guide §2.5), (K, n).

    Closed form (A_k + λ_D I)^{-1}(A_k c_k + λ_D w) for quadratics, damped Newton to
    ‖∇‖ ≤ 1e-10·(1 + λ_D) for classification. λ_D = 0 gives the client optima; λ_D → ∞ gives w.

    Raises
    ------
    ParameterError
        If λ_D < 0 or w has the wrong shape.
    """
    problem = _check(problem)
    lam_d = check_real("lam_d", lam_d, nonnegative=True)
    w = check_vector("w", w, shape=(problem.dimension,))
    n, K = problem.dimension, problem.num_clients
    if isinstance(problem, GroupedQuadratics):
        A = problem.curvature
        rhs = np.einsum("kij,kj->ki", A, problem.centres) + lam_d * w
        return np.asarray(np.linalg.solve(A + lam_d * np.eye(n), rhs[:, :, None])[:, :, 0])
    if lam_d == 0:
        return problem.client_optima()
    eye = np.eye(K)
    out = np.empty((K, n))
    rounding = 8 * np.finfo(float).eps

    def objective(k: int, v: np.ndarray) -> tuple[float, np.ndarray, float]:
        """Value, gradient and the gradient's scale: ≥ 1, ‖∇F_k(v)‖ and λ_D·max(‖v‖, ‖w‖) —
        rounding in ∇F_k(v) + λ_D(v − w) is relative to its largest term, and v − w alone
        carries eps·max(‖v‖, ‖w‖), multiplied by λ_D."""
        pull = v - w
        client = problem.client_gradients(v)[k]
        value = problem.client_values(v)[k] + 0.5 * lam_d * float(pull @ pull)
        size = max(float(np.linalg.norm(v)), float(np.linalg.norm(w)))
        scale = max(1.0, float(np.linalg.norm(client)), lam_d * size)
        return value, client + lam_d * pull, scale

    for k in range(K):
        v = w.copy()
        value, grad, scale = objective(k, v)
        norm = float(np.linalg.norm(grad))
        for _ in range(_smooth.NEWTON_STEPS):
            if norm <= _smooth.NEWTON_TOL * scale:
                break
            hess = problem.weighted_hessian(v, eye[k]) + lam_d * np.eye(n)
            step = np.linalg.solve(hess, grad)
            decrement = float(grad @ step)
            size = 1.0
            while size >= 1e-12:
                trial = v - size * step
                new_value, new_grad, new_scale = objective(k, trial)
                new_norm = float(np.linalg.norm(new_grad))
                # Armijo, or — below the objective's rounding near the optimum — no rise
                # beyond rounding and a smaller gradient
                if new_value <= value - 1e-4 * size * decrement or (
                    new_value <= value + rounding * max(1.0, abs(value)) and new_norm < norm
                ):
                    break
                size *= 0.5
            else:
                break
            v, value, grad, scale, norm = trial, new_value, new_grad, new_scale, new_norm
        if norm > _smooth.NEWTON_TOL * scale:
            raise SolverError(
                "newton",
                f"gradient norm {norm:.3g} > {_smooth.NEWTON_TOL:g}·{scale:.3g}",
                hint=f"Ditto's personal model of client {k} (λ_D = {lam_d:g})",
            )
        out[k] = v
    return out


def zonotope_max(
    groups: GroupStructure, client_losses: Any, lam: float
) -> tuple[float, np.ndarray]:
    """max_{q∈Z_λ} Σ_k q_k F_k as a linear program (HiGHS), and its maximiser q (D3, V18).

    Z_λ = {p + λ Σ_{i<j} s_ij g_ij : s ∈ [−1, 1]^{pairs}}; the LP is over s. Its value equals
    H = Σ p F + λR (D3), which the tests assert.

    Raises
    ------
    SolverError
        If HiGHS does not report success.
    """
    lam = check_real("lam", lam, nonnegative=True)
    F = check_vector("client_losses", client_losses, shape=(groups.num_clients,))
    gen = groups.zonotope_generators()
    result = optimize.linprog(-lam * (gen @ F), bounds=[(-1.0, 1.0)] * gen.shape[0], method="highs")
    if not result.success:
        raise SolverError("highs", str(result.status), hint=str(result.message))
    q = groups.p + lam * result.x @ gen
    return float(q @ F), readonly(q)
