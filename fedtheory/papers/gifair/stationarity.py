"""Stationarity measures of the non-smooth objective H at its kinks (guide §5 V12, §6.5).

By D3 (guide §1), H(θ) = Σ_k p_k F_k(θ) + λR(θ) is the maximum of the d! smooth *pieces*

    f_π(θ) = Σ_k q_k(π) F_k(θ),   q(π) = p + λ Σ_{i<j} s_ij(π) g_ij,

one per strict ordering π of the groups (s_ij(π) = +1 when π ranks group i above group j, −1
otherwise; g_ij = 1_{𝒜_i}/``|𝒜_i|`` − 1_{𝒜_j}/``|𝒜_j|``, Lemma 3.2). Each piece is L-smooth when
every F_k is (Σ_k q_k(π) = 1 and q(π) ≥ 0 for λ ≤ λ_max, D1–D2). Where a tie between groups is
active ∇H does not exist, and ‖Σ_k q_k(θ)∇F_k(θ)‖ (the gradient of the piece GIFAIR-FL follows,
Algorithm 2) need not go to 0 at a minimiser; the right measure is the distance from 0 to the convex
hull of the gradients of the pieces that are (nearly) active — a Goldstein-type δ-stationarity:

    S_δ(θ) = min_{α ∈ Δ(P_δ(θ))} ‖Σ_{π∈P_δ(θ)} α_π ∇f_π(θ)‖,
    P_δ(θ) = {π : f_π(θ) ≥ H(θ) − δ},

computed as a cvxpy QP over the simplex (Clarabel, then SCS). With δ = 0 and no tie it is ‖∇H(θ)‖;
at a minimiser θ* with its tied pieces in P_δ it is 0, and since every ∇f_π is L-Lipschitz,
S_δ(θ) ≤ L‖θ − θ*‖ whenever P_δ(θ) contains the pieces active at θ* [derived].
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import cvxpy
import numpy as np

from fedtheory._checks import check_real, check_vector
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics

__all__ = ["active_piece_gradient", "goldstein_stationarity", "piece_gradients", "piece_weights"]

Problem = GroupedQuadratics | GroupedClassification

#: cvxpy ships without complete type information; its atoms are used through this alias.
cp: Any = cvxpy


def _check(problem: Any) -> Problem:
    if not isinstance(problem, GroupedQuadratics | GroupedClassification):
        raise ParameterError(
            parameter="problem",
            value=type(problem).__name__,
            rule="must be a GroupedQuadratics or a GroupedClassification",
        )
    return problem


def piece_weights(problem: Problem, lam: float) -> np.ndarray:
    """q(π) for every strict ordering π of the groups, shape (d!, K) (D3, Lemma 3.2).

    Row m belongs to the m-th permutation of ``itertools.permutations(range(d))`` read as a
    ranking from the largest group loss to the smallest.

    Raises
    ------
    ParameterError
        For a negative λ, d > 6 (720 pieces) or an unsupported problem.
    """
    groups = _check(problem).groups
    lam = check_real("lam", lam, nonnegative=True)
    d = groups.num_groups
    if d > 6:
        raise ParameterError(parameter="d", value=d, rule="piece enumeration needs d ≤ 6")
    gen = groups.zonotope_generators()
    pairs = groups.pairs
    rows = []
    for order in itertools.permutations(range(d)):
        rank = np.empty(d, dtype=np.int64)
        rank[list(order)] = np.arange(d)  # 0 = largest loss
        signs = np.where(rank[pairs[:, 0]] < rank[pairs[:, 1]], 1.0, -1.0)
        rows.append(groups.p + lam * signs @ gen)
    return np.asarray(rows)


def piece_gradients(
    problem: Problem, lam: float, theta: Any, *, delta: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """(∇f_π(θ), f_π(θ)) of the pieces with f_π(θ) ≥ H(θ) − δ, shapes (P, n) and (P,)."""
    problem = _check(problem)
    theta = check_vector("theta", theta, shape=(problem.dimension,))
    delta = check_real("delta", delta, nonnegative=True)
    Q = piece_weights(problem, lam)
    F = problem.client_values(theta)
    values = Q @ F
    H = float(problem.groups.objective(lam, F))
    slack = 1e-12 * max(1.0, abs(H))
    active = values >= H - delta - slack
    J = problem.client_gradients(theta)
    return Q[active] @ J, values[active]


def active_piece_gradient(problem: Problem, lam: float, theta: Any) -> float:
    """‖Σ_k q_k(θ)∇F_k(θ)‖ with q(θ) = p + λ r(θ)/``|𝒜|`` and sign(0) = 0 (the direction
    GIFAIR-FL follows with exact ranks; ‖∇H(θ)‖ wherever no tie is active)."""
    problem = _check(problem)
    theta = check_vector("theta", theta, shape=(problem.dimension,))
    lam = check_real("lam", lam, nonnegative=True)
    F = problem.client_values(theta)
    q = problem.groups.weights(lam, F)
    return float(np.linalg.norm(problem.client_gradients(theta).T @ q))


def goldstein_stationarity(
    problem: Problem, lam: float, theta: Any, *, delta: float, solver: str | None = None
) -> float:
    """S_δ(θ) = min over the simplex of ‖Σ_π α_π∇f_π(θ)‖, π over the pieces active within δ
    (module docstring; guide §5 V12).

    Parameters
    ----------
    problem
        A :class:`GroupedQuadratics` or :class:`GroupedClassification`.
    lam
        λ ≥ 0 (the pieces are L-smooth and convex combinations of the F_k for λ ≤ λ_max).
    theta
        The point, shape (n,).
    delta
        Activity tolerance δ ≥ 0 in units of H.
    solver
        ``"CLARABEL"`` or ``"SCS"``; None: Clarabel, then SCS.

    Raises
    ------
    SolverError
        If no solver reaches status ``"optimal"``.
    """
    G, _ = piece_gradients(problem, lam, theta, delta=delta)
    if G.shape[0] == 1:
        return float(np.linalg.norm(G[0]))
    alpha = cp.Variable(G.shape[0], nonneg=True)
    program = cp.Problem(cp.Minimize(cp.sum_squares(G.T @ alpha)), [cp.sum(alpha) == 1])
    tried = []
    for name in [solver] if solver is not None else ["CLARABEL", "SCS"]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program.solve(solver=name)
        except cp.error.SolverError as error:
            tried.append(f"{name}: {error}")
            continue
        if program.status == cp.OPTIMAL:
            a = np.clip(np.asarray(alpha.value, dtype=np.float64), 0.0, None)
            return float(np.linalg.norm(G.T @ (a / a.sum())))
        tried.append(f"{name}: {program.status}")
    raise SolverError(
        "/".join(t.split(":")[0] for t in tried),
        "; ".join(tried),
        hint="Goldstein stationarity QP: no free solver reached status 'optimal'",
    )
