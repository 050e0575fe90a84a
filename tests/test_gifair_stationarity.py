"""Pieces of H and the Goldstein stationarity at kinks (fedtheory.papers.gifair.stationarity)."""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair import fair_optimum, grouped_quadratics
from fedtheory.papers.gifair.stationarity import (
    active_piece_gradient,
    goldstein_stationarity,
    piece_gradients,
    piece_weights,
)


@pytest.fixture(scope="module")
def problem():
    return grouped_quadratics(seed=0, noise=0.0)


def _segment_min(a: np.ndarray, b: np.ndarray) -> float:
    """min_{s∈[0,1]} ‖(1 − s)a + sb‖ in closed form."""
    diff = b - a
    s = float(np.clip(-(a @ diff) / (diff @ diff), 0.0, 1.0))
    return float(np.linalg.norm(a + s * diff))


def test_pieces_are_the_max_form_of_h(problem):
    """D3: H = max_π f_π, every q(π) sums to 1 and is ≥ 0 below λ_max, d! pieces."""
    lam = 0.7 * problem.groups.lambda_max
    Q = piece_weights(problem, lam)
    assert Q.shape == (6, problem.num_clients)
    np.testing.assert_allclose(Q.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    assert Q.min() >= 0
    rng = np.random.default_rng(1)
    for _ in range(5):
        theta = rng.normal(size=problem.dimension) * 2
        F = problem.client_values(theta)
        H = float(problem.groups.objective(lam, F))
        assert np.max(Q @ F) == pytest.approx(H, rel=1e-13)
        # the rows are distinct orderings: every value is attained by exactly one row off ties
        assert np.unique(np.round(Q @ F, 12)).size == 6


def test_smooth_point_gives_the_gradient_of_h(problem):
    """Off ties and with δ = 0 the one active piece is ∇H (checked by central differences)."""
    lam = 0.5 * problem.groups.lambda_max
    theta = np.array([1.0, 0.5, -0.3, 0.2])
    G, _ = piece_gradients(problem, lam, theta, delta=0.0)
    assert G.shape[0] == 1

    def H(x):
        return float(problem.groups.objective(lam, problem.client_values(x)))

    h = 1e-6
    fd = np.array([(H(theta + h * e) - H(theta - h * e)) / (2 * h) for e in np.eye(4)])
    np.testing.assert_allclose(G[0], fd, rtol=1e-6, atol=1e-7)
    assert goldstein_stationarity(problem, lam, theta, delta=0.0) == pytest.approx(
        np.linalg.norm(fd), rel=1e-6
    )
    assert active_piece_gradient(problem, lam, theta) == pytest.approx(np.linalg.norm(fd), rel=1e-6)


def test_tie_goldstein_zero_active_piece_not(problem):
    """At the tied optimum (λ = 0.9λ_max) 0 is in the hull of the two active pieces' gradients
    while every single piece's gradient, hence the active-piece direction, is far from 0."""
    lam = 0.9 * problem.groups.lambda_max
    opt = fair_optimum(problem, lam)
    assert opt.ties
    G, _ = piece_gradients(problem, lam, opt.theta, delta=1e-9)
    assert G.shape[0] == 2
    assert np.linalg.norm(G, axis=1).min() > 0.05
    assert goldstein_stationarity(problem, lam, opt.theta, delta=1e-9) < 1e-6
    assert active_piece_gradient(problem, lam, opt.theta) > 0.05


def test_goldstein_matches_the_segment_closed_form(problem):
    """Two active pieces: the QP equals the closed-form min over the segment."""
    lam = 0.9 * problem.groups.lambda_max
    opt = fair_optimum(problem, lam)
    theta = opt.theta + np.array([0.01, -0.02, 0.005, 0.0])
    G, _ = piece_gradients(problem, lam, theta, delta=0.1)
    assert G.shape[0] == 2
    assert goldstein_stationarity(problem, lam, theta, delta=0.1) == pytest.approx(
        _segment_min(G[0], G[1]), rel=1e-5, abs=1e-8
    )
    # and with δ = 0 only the maximal piece remains
    G0, _ = piece_gradients(problem, lam, theta, delta=0.0)
    assert G0.shape[0] == 1
    assert goldstein_stationarity(problem, lam, theta, delta=0.0) == pytest.approx(
        np.linalg.norm(G0[0])
    )


def test_bad_input(problem):
    with pytest.raises(ParameterError, match="problem"):
        piece_weights(object(), 0.1)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="delta"):
        goldstein_stationarity(problem, 0.01, np.zeros(4), delta=-1.0)
    with pytest.raises(ParameterError, match="theta"):
        active_piece_gradient(problem, 0.01, np.zeros(3))
