"""Exact optima of GIFAIR-FL and of its baselines (guide §1 convex program, V3, V4, V18).

Theory asserted:
- the sum_largest program equals the all-orderings epigraph (D3/D4): |ΔH| ≤ 1e-7·H and
  ‖Δθ‖ ≤ √(2ΔH/μ) + 1e-6 (μ-strong convexity of H); 0 ∈ ∂H(θ*) to 1e-9 (KKT);
- λ = 0 gives FedAvg's optimum; beyond λ_max our ConditionError (stating λ_max) is raised
  before any cvxpy problem is built;
- the trade-off on {0, .1, …, 1}·λ_max: R non-increasing, Σ p F and H* non-decreasing (V4);
- TERM and q-FFL by Newton agree with independent cvxpy cone programs (Newton's value never
  worse; θ within the strong-convexity bound) for t ∈ {1e-3, 1, 10, 100}, q ∈ {0, …, 5};
  stationarity ‖∇f‖ ≤ 1e-10·scale; a zero loss at the q-FFL optimum (q < 1) is handled;
- AFL = min max_k F_k; TERM t → 0 → FedAvg (Hoeffding) and large t → AFL within
  log(1/p_min)/t; q-FFL q = 0 → FedAvg;
  Ditto λ_D → ∞ → w and λ_D → 0 → client optima; the LP max over Z_λ equals H (D3);
- a non-optimal solver status raises SolverError naming the solver and the status.
"""

from __future__ import annotations

import math
import time
import warnings

import cvxpy
import numpy as np
import pytest
from scipy import special

from fedtheory.errors import ConditionError, ParameterError, SolverError
from fedtheory.papers.gifair import datasets, exact
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedQuadratics, grouped_quadratics


@pytest.fixture(scope="module")
def quadratics():  # type: ignore[no-untyped-def]
    return grouped_quadratics(seed=0)


@pytest.fixture(scope="module")
def logistic():  # type: ignore[no-untyped-def]
    return datasets.grouped_logistic((3, 4, 3), 5, sample_range=(30, 60), seed=2)


@pytest.mark.parametrize("name", ["quadratics", "logistic"])
@pytest.mark.parametrize("fraction", [0.0, 0.5, 0.9, 1.0])
def test_fair_optimum_equals_epigraph(name: str, fraction: float, request) -> None:  # type: ignore[no-untyped-def]
    problem = request.getfixturevalue(name)
    lam = fraction * problem.groups.lambda_max
    fair = exact.fair_optimum(problem, lam)
    epi = exact.epigraph_optimum(problem, lam)
    assert fair.status == "optimal" and fair.solver.startswith("CLARABEL")
    gap = epi.value - fair.value
    assert gap >= -1e-12 * fair.value  # the polished optimum is at least as good
    assert abs(gap) <= 1e-7 * fair.value
    mu = problem.constants()["strong_convexity"]
    assert np.linalg.norm(epi.theta - fair.theta) <= math.sqrt(2 * max(gap, 0) / mu) + 1e-6
    assert fair.stationarity <= 1e-9
    # the cvxpy program alone (no Newton polish, which would repair a wrong program) agrees too
    raw = exact.fair_optimum(problem, lam, polish=False)
    assert abs(raw.value - epi.value) <= 1e-6 * fair.value
    groups = problem.groups
    assert fair.value == pytest.approx(groups.objective(lam, fair.client_losses), rel=1e-15)
    assert fair.spread == pytest.approx(groups.spread(fair.client_losses), rel=1e-15)
    if lam == 0:
        np.testing.assert_allclose(fair.theta, problem.global_optimum(), atol=1e-8)


def test_ties_are_reported_and_certified(quadratics) -> None:  # type: ignore[no-untyped-def]
    fair = exact.fair_optimum(quadratics, 0.9 * quadratics.groups.lambda_max)
    assert fair.ties  # guide §7: a tie is active at 0.9 λ_max
    for i, j in fair.ties:
        assert abs(fair.group_losses[i] - fair.group_losses[j]) < 1e-9
    # at a tie the gradient of any single piece is not 0: the certificate needs the free sign
    J = quadratics.client_gradients(fair.theta)
    weights = quadratics.groups.weights(fair.lam, fair.client_losses)
    assert np.linalg.norm(weights @ J) > 1e-3
    unpolished = exact.fair_optimum(quadratics, fair.lam, polish=False)
    assert unpolished.stationarity > fair.stationarity


def test_beyond_lambda_max_raises_before_cvxpy(quadratics, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("a cvxpy problem was built")

    monkeypatch.setattr(exact.cp, "Problem", refuse)
    lam_max = quadratics.groups.lambda_max
    for call in (exact.fair_optimum, exact.epigraph_optimum):
        with pytest.raises(ConditionError, match=f"{lam_max:.6g}"):
            call(quadratics, 1.001 * lam_max)
    with pytest.raises(ConditionError, match="λ_max"):
        exact.tradeoff_curve(quadratics, [0.0, 2 * lam_max])
    with pytest.raises(ParameterError, match="non-negative"):
        exact.fair_optimum(quadratics, -1e-3)


def test_tradeoff_is_monotone(quadratics, logistic) -> None:  # type: ignore[no-untyped-def]
    for problem in (quadratics, logistic):
        grid = np.linspace(0, 1, 11) * problem.groups.lambda_max
        curve = exact.tradeoff_curve(problem, grid)
        assert np.all(np.diff(curve.spread) <= 1e-7)
        assert np.all(np.diff(curve.average_loss) >= -1e-7)
        assert np.all(np.diff(curve.value) >= -1e-7)
        assert curve.spread[-1] < curve.spread[0]
        assert curve.theta.shape == (11, problem.dimension)
        single = exact.fair_optimum(problem, grid[6])
        assert curve.value[6] == pytest.approx(single.value, rel=1e-10)


# ---------------------------------------------------------------- baselines: cvxpy cross-checks


def _cvxpy_solve(program) -> bool:  # type: ignore[no-untyped-def]
    """Clarabel then SCS (eps 1e-9); True when one of them certifies 'optimal'."""
    for name, options in (("CLARABEL", {}), ("SCS", {"eps_abs": 1e-9, "eps_rel": 1e-9})):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                program.solve(solver=name, **options)
        except cvxpy.error.SolverError:
            continue
        if program.status == cvxpy.OPTIMAL:
            return True
    return False


def _cvxpy_term(problem, t: float):  # type: ignore[no-untyped-def]
    """The independent cone program: (1/t) log_sum_exp(tF + log p) (exponential cones)."""
    theta, F = exact._losses(problem)
    objective = cvxpy.log_sum_exp(t * F + np.log(problem.groups.p)) / t
    return theta, cvxpy.Problem(cvxpy.Minimize(objective))


def _cvxpy_qffl(problem, q: float):  # type: ignore[no-untyped-def]
    """Σ p u^{q+1}/(q+1) with u ≥ F/s, u ≥ 0 (power cones; tight since F ≥ 0).

    s = max_k F_k at FedAvg's optimum does not change the argmin; without it F^{q+1} ~ 1e6 at
    q = 5 on the quadratics and neither Clarabel nor SCS certifies the program.
    """
    theta, F = exact._losses(problem)
    F = F / float(problem.client_values(problem.global_optimum()).max())
    u = cvxpy.Variable(problem.num_clients, nonneg=True)
    power = u if q == 0 else cvxpy.power(u, q + 1)
    program = cvxpy.Problem(cvxpy.Minimize(problem.groups.p @ power / (q + 1)), [u >= F])
    return theta, program


def _term_value(problem, t: float, theta: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    return float(special.logsumexp(t * problem.client_values(theta), b=problem.groups.p)) / t


def _qffl_value(problem, q: float, theta: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    return float(problem.groups.p @ problem.client_values(theta) ** (q + 1)) / (q + 1)


def _agrees_with_cvxpy(problem, newton, value, build) -> None:  # type: ignore[no-untyped-def]
    """Newton's θ is at least as good as the cone program's (to rounding) and near it.

    ‖θ_N − θ_c‖ ≤ ‖θ_N − θ*‖ + ‖θ* − θ_c‖ ≤ ‖∇f(θ_N)‖/μ + √(2(f(θ_c) − f(θ_N) + ε)/μ)
    for μ-strongly convex f (μ = the problem's, valid for TERM; q-FFL uses atol below).
    """
    theta, program = build()
    if not _cvxpy_solve(program):
        pytest.skip("no cone solver certified this instance (the reason for Newton)")
    cone = np.asarray(theta.value)
    f_newton, f_cone = value(newton.theta), value(cone)
    assert newton.value == pytest.approx(f_newton, rel=1e-12)
    rounding = 1e-12 * max(1.0, abs(f_newton))
    assert f_newton <= f_cone + rounding  # Newton never worse than the cone solver
    assert f_cone - f_newton <= 1e-6 * max(1.0, abs(f_newton))  # and the cone solver close
    return cone, f_cone - f_newton + rounding


TILTS = (1e-3, 1.0, 10.0, 100.0)
QS = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)


@pytest.mark.parametrize("name", ["quadratics", "logistic"])
@pytest.mark.parametrize("t", TILTS)
def test_term_newton_matches_cvxpy(name: str, t: float, request) -> None:  # type: ignore[no-untyped-def]
    problem = request.getfixturevalue(name)
    term = exact.term_optimum(problem, t)
    assert term.solver == "newton" and term.iterations <= 40
    grad = special.softmax(t * term.client_losses + np.log(problem.groups.p)) @ (
        problem.client_gradients(term.theta)
    )
    scale = max(1.0, float(np.linalg.norm(problem.client_gradients(term.theta), axis=1).max()))
    assert np.linalg.norm(grad) <= 1e-10 * scale  # the certificate, recomputed independently
    assert abs(np.linalg.norm(grad) - term.stationarity) <= 1e-12 * scale
    cone, gap = _agrees_with_cvxpy(
        problem, term, lambda x: _term_value(problem, t, x), lambda: _cvxpy_term(problem, t)
    )
    mu = problem.constants()["strong_convexity"]
    bound = term.stationarity / mu + math.sqrt(2 * gap / mu)
    assert np.linalg.norm(cone - term.theta) <= bound


@pytest.mark.parametrize("name", ["quadratics", "logistic"])
@pytest.mark.parametrize("q", QS)
def test_qffl_newton_matches_cvxpy(name: str, q: float, request) -> None:  # type: ignore[no-untyped-def]
    problem = request.getfixturevalue(name)
    qffl = exact.qffl_optimum(problem, q)
    assert qffl.solver == "newton" and qffl.iterations <= 20
    F = qffl.client_losses
    terms = (problem.groups.p * F**q)[:, None] * problem.client_gradients(qffl.theta)
    scale = max(1.0, float(np.linalg.norm(terms, axis=1).max()))
    assert np.linalg.norm(terms.sum(axis=0)) <= 1e-10 * scale
    assert abs(np.linalg.norm(terms.sum(axis=0)) - qffl.stationarity) <= 1e-12 * scale
    cone, gap = _agrees_with_cvxpy(
        problem, qffl, lambda x: _qffl_value(problem, q, x), lambda: _cvxpy_qffl(problem, q)
    )
    # ∇²f ⪰ μ Σ_k p_kF_k^q I: the modulus from the smallest losses on the (short) segment
    segment = qffl.theta + np.linspace(0, 1, 21)[:, None] * (cone - qffl.theta)
    lowest = np.min([problem.client_values(x) for x in segment], axis=0)
    modulus = problem.constants()["strong_convexity"] * float(problem.groups.p @ lowest**q)
    bound = qffl.stationarity / modulus + math.sqrt(2 * gap / modulus)
    assert np.linalg.norm(cone - qffl.theta) <= bound


# ---------------------------------------------------------------- baselines: limits


@pytest.mark.parametrize("name", ["quadratics", "logistic"])
def test_baseline_limits(name: str, request) -> None:  # type: ignore[no-untyped-def]
    problem = request.getfixturevalue(name)
    fedavg = problem.global_optimum()
    best = problem.global_value(fedavg)
    mu = problem.constants()["strong_convexity"]
    losses = problem.client_values(fedavg)

    # q = 0 is FedAvg's objective exactly
    qffl = exact.qffl_optimum(problem, 0.0)
    assert qffl.value == pytest.approx(best, rel=1e-14)
    np.testing.assert_allclose(qffl.theta, fedavg, atol=1e-9)
    # t → 0: Σp F(θ_t) − F* ≤ t·range(F(θ_FedAvg))²/8 (Jensen + Hoeffding's lemma) and
    # ‖θ_t − θ_FedAvg‖ ≤ √(2·gap/μ)
    for t in (1e-6, 1e-3):
        term = exact.term_optimum(problem, t)
        gap = problem.global_value(term.theta) - best
        assert -1e-12 * best <= gap <= t * float(np.ptp(losses)) ** 2 / 8
        assert np.linalg.norm(term.theta - fedavg) <= math.sqrt(2 * max(gap, 0) / mu) + 1e-9
    # t → ∞: max_k F_k(θ_t) − min max ∈ [−ε, log(1/p_min)/t], min max from the AFL program
    afl = exact.afl_optimum(problem)
    assert afl.stationarity <= 1e-4  # interior-point accuracy, active set within 1e-6
    assert afl.value == pytest.approx(afl.client_losses.max(), rel=1e-15)
    rng = np.random.default_rng(0)
    for theta in [fedavg, *rng.normal(size=(20, problem.dimension)) + afl.theta]:
        assert problem.client_values(theta).max() >= afl.value - 1e-7
    slack = -math.log(problem.groups.p.min())
    previous = math.inf
    for t in (10.0, 100.0, 1000.0, 1e4):
        term = exact.term_optimum(problem, t)
        worst = float(term.client_losses.max())
        assert afl.value - 1e-7 * afl.value <= worst <= afl.value + slack / t
        # (1/t) log Σ p e^{tF} ∈ [max F − log(1/p_min)/t, max F]
        assert worst - slack / t <= term.value <= worst + 1e-15 * worst
        assert worst <= previous + 1e-9  # max F_k(θ_t) non-increasing in t
        previous = worst
    # q > 0 moves towards min max
    assert exact.qffl_optimum(problem, 2.0).client_losses.max() < losses.max()


def test_qffl_with_a_zero_loss_at_the_optimum() -> None:
    """1-D clients ½(θ+1)², ½θ², ½(θ−1)² with equal weights: by symmetry every q-FFL optimum is
    θ = 0, where F_2 = 0 and F_2^{q−1}F_2'² is 0/0 for q < 1 (taken as its limit 0)."""
    groups = GroupStructure.from_counts(np.array([0, 1, 0]), np.array([5, 5, 5]))
    problem = GroupedQuadratics(
        groups,
        np.ones((3, 1, 1)),
        np.array([[-1.0], [0.0], [1.0]]),
        np.zeros(3),
        np.zeros((3, 1, 1)),
    )
    for q in (0.0, 0.25, 0.5, 1.0, 3.0):
        qffl = exact.qffl_optimum(problem, q)
        assert abs(qffl.theta[0]) <= 1e-12 and qffl.client_losses[1] <= 1e-24
        assert qffl.value == pytest.approx(2 * 0.5**q / 3 / (q + 1) * 0.5, rel=1e-12)
    shifted = GroupedQuadratics(
        groups,
        np.ones((3, 1, 1)),
        np.array([[-1.0], [0.0], [2.0]]),
        np.zeros(3),
        np.zeros((3, 1, 1)),
    )  # FedAvg's optimum 1/3; q-FFL moves to the worse-off client 3
    for q in (0.5, 2.0):
        qffl = exact.qffl_optimum(shifted, q)
        theta, program = _cvxpy_qffl(shifted, q)
        assert _cvxpy_solve(program)
        assert qffl.theta[0] == pytest.approx(float(theta.value[0]), abs=1e-5)
        assert qffl.theta[0] > 1 / 3
    # FedAvg's optimum (Newton's start) is c_2 = 0 with F_2 = 0 but ∇f ≠ 0 for q > 0: the first
    # Hessian meets F_2^{q−1}·0 (F_1(0) = ½ > F_3(0) = ¼ pulls θ below 0)
    start_at_zero = GroupedQuadratics(
        groups,
        np.array([[[1.0]], [[1.0]], [[2.0]]]),
        np.array([[-1.0], [0.0], [0.5]]),
        np.zeros(3),
        np.zeros((3, 1, 1)),
    )
    assert start_at_zero.global_optimum()[0] == 0.0
    for q in (0.25, 0.5, 2.0):
        qffl = exact.qffl_optimum(start_at_zero, q)
        assert qffl.iterations >= 1 and qffl.theta[0] < 0
        theta, program = _cvxpy_qffl(start_at_zero, q)
        assert _cvxpy_solve(program)
        assert qffl.theta[0] == pytest.approx(float(theta.value[0]), abs=1e-5)
    negative = GroupedQuadratics(
        groups,
        np.ones((3, 1, 1)),
        np.zeros((3, 1)),
        np.array([0.0, -1.0, 0.0]),
        np.zeros((3, 1, 1)),
    )
    with pytest.raises(ConditionError, match="F_k ≥ 0"):
        exact.qffl_optimum(negative, 1.0)
    assert exact.qffl_optimum(negative, 0.0).theta[0] == pytest.approx(0.0, abs=1e-12)


def test_newton_failure_and_bad_input(quadratics, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError, match="positive"):
        exact.term_optimum(quadratics, 0.0)
    with pytest.raises(ParameterError, match="non-negative"):
        exact.qffl_optimum(quadratics, -0.5)
    monkeypatch.setattr(exact._smooth, "NEWTON_STEPS", 2)
    with pytest.raises(SolverError, match="newton") as info:
        exact.term_optimum(quadratics, 100.0)
    assert "gradient norm" in str(info.value) and info.value.solver == "newton"


def test_newton_is_fast(quadratics, logistic) -> None:  # type: ignore[no-untyped-def]
    """All 2 × (4 tilts + 6 powers) baseline optima: well under a second in total on one core
    (measured ≈ 0.1 s; the cone programs took up to 30 s when SCS was needed)."""
    start = time.perf_counter()
    steps = 0
    for problem in (quadratics, logistic):
        for t in TILTS:
            steps += exact.term_optimum(problem, t).iterations
        for q in QS:
            steps += exact.qffl_optimum(problem, q).iterations
    assert time.perf_counter() - start < 5.0
    assert steps <= 200


@pytest.mark.parametrize("name", ["quadratics", "logistic"])
def test_ditto_limits(name: str, request) -> None:  # type: ignore[no-untyped-def]
    problem = request.getfixturevalue(name)
    w = problem.global_optimum()
    np.testing.assert_allclose(
        exact.ditto_personal(problem, w, 1e9), np.tile(w, (problem.num_clients, 1)), atol=1e-7
    )
    np.testing.assert_allclose(
        exact.ditto_personal(problem, w, 0.0), problem.client_optima(), atol=1e-8
    )
    personal = exact.ditto_personal(problem, w, 0.7)
    grads = problem.client_gradients(personal[0])[0] + 0.7 * (personal[0] - w)
    assert np.linalg.norm(grads) < 1e-9
    with pytest.raises(ParameterError, match="non-negative"):
        exact.ditto_personal(problem, w, -1.0)


def test_zonotope_max_equals_H() -> None:
    rng = np.random.default_rng(5)
    problem = grouped_quadratics((2, 3, 1, 4), 3, seed=5)
    groups = problem.groups
    for _ in range(10):
        F = problem.client_values(rng.normal(size=3))
        for lam in (0.0, 0.5 * groups.lambda_max, groups.lambda_max):
            value, q = exact.zonotope_max(groups, F, lam)
            assert value == pytest.approx(groups.objective(lam, F), rel=1e-12)
            assert q.sum() == pytest.approx(1.0, abs=1e-12) and q.min() >= -1e-15


def test_solver_failure_is_reported(quadratics, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(exact, "_SCS_OPTIONS", {"max_iters": 2})
    with pytest.raises(SolverError, match="SCS") as info:
        exact.fair_optimum(quadratics, 0.5 * quadratics.groups.lambda_max, solver="SCS")
    assert "optimal" in str(info.value)  # the status, e.g. optimal_inaccurate / user_limit
    with pytest.raises(ParameterError, match="d ≤ 5"):
        exact.epigraph_optimum(datasets.femnist_skewed_like(6, samples=5, seed=0), 0.0)
