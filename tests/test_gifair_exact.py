"""Exact optima of GIFAIR-FL and of its baselines (guide §1 convex program, V3, V4, V18).

Theory asserted:
- the sum_largest program equals the all-orderings epigraph (D3/D4): |ΔH| ≤ 1e-7·H and
  ‖Δθ‖ ≤ √(2ΔH/μ) + 1e-6 (μ-strong convexity of H); 0 ∈ ∂H(θ*) to 1e-9 (KKT);
- λ = 0 gives FedAvg's optimum; beyond λ_max our ConditionError (stating λ_max) is raised
  before any cvxpy problem is built;
- the trade-off on {0, .1, …, 1}·λ_max: R non-increasing, Σ p F and H* non-decreasing (V4);
- AFL = min max_k F_k; TERM t → 0 → FedAvg and large t → AFL; q-FFL q = 0 → FedAvg;
  Ditto λ_D → ∞ → w and λ_D → 0 → client optima; the LP max over Z_λ equals H (D3);
- a non-optimal solver status raises SolverError naming the solver and the status.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fedtheory.errors import ConditionError, ParameterError, SolverError
from fedtheory.papers.gifair import datasets, exact
from fedtheory.papers.gifair.problems import grouped_quadratics


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


def test_baselines(quadratics) -> None:  # type: ignore[no-untyped-def]
    fedavg = quadratics.global_optimum()
    afl = exact.afl_optimum(quadratics)
    assert afl.value == pytest.approx(afl.client_losses.max(), rel=1e-7)
    rng = np.random.default_rng(0)
    for theta in [fedavg, *rng.normal(size=(20, 4)) + afl.theta]:
        assert quadratics.client_values(theta).max() >= afl.value - 1e-7
    fair = exact.fair_optimum(quadratics, quadratics.groups.lambda_max)
    assert fair.client_losses.max() >= afl.value - 1e-7
    mu = quadratics.constants()["strong_convexity"]
    best = quadratics.global_value(fedavg)

    def near_fedavg(theta: np.ndarray, slack: float) -> None:
        # F is μ-strongly convex: ‖θ − θ_FedAvg‖² ≤ 2(F(θ) − F*)/μ, and the gap must be tiny
        gap = quadratics.global_value(theta) - best
        assert -1e-12 <= gap <= slack
        assert np.linalg.norm(theta - fedavg) <= math.sqrt(2 * gap / mu) + 1e-9

    small = exact.term_optimum(quadratics, 1e-4)
    near_fedavg(small.theta, 1e-6)  # t → 0: the tilt changes F by O(t·Var_p F)
    large = exact.term_optimum(quadratics, 50.0)
    # (1/t) log Σ p e^{tF} ∈ [max F + log(p_min)/t, max F]
    slack = -math.log(quadratics.groups.p.min()) / 50.0
    assert afl.value - 1e-6 <= large.client_losses.max() <= afl.value + slack
    qffl = exact.qffl_optimum(quadratics, 0.0)
    near_fedavg(qffl.theta, 1e-7)
    q2 = exact.qffl_optimum(quadratics, 2.0)
    assert q2.client_losses.max() < qffl.client_losses.max()  # q > 0 moves towards min max
    with pytest.raises(ParameterError, match="positive"):
        exact.term_optimum(quadratics, 0.0)
    with pytest.raises(ParameterError, match="non-negative"):
        exact.qffl_optimum(quadratics, -0.5)


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
