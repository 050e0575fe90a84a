"""Quadratic problems: computed constants against their definitions, seeds, Haar, bad input."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy import stats

from fedtheory.errors import ParameterError
from fedtheory.problems import (
    IsotropicQuadratic,
    QuadraticInstance,
    haar_orthogonal,
    isotropic_quadratic,
    random_quadratic,
    two_eigenvalue_quadratic,
)

CASES = [(2, 1.0, 1.0), (2, 10.0, 0.1), (7, 4.0, 1.0), (30, 100.0, 0.01), (1, 3.0, 3.0)]


@pytest.mark.parametrize(("d", "L", "mu"), CASES)
def test_computed_constants_match_the_definitions(d: int, L: float, mu: float) -> None:
    q = random_quadratic(d, L=L, mu=mu, seed=7, x_star_norm=2.5)
    assert isinstance(q, QuadraticInstance)
    assert q.d == d and q.A.shape == (d, d)
    # The requested extreme eigenvalues are attained (computed, not copied): equal up to the
    # rounding of A, which is of order ε·L in absolute terms.
    np.testing.assert_allclose([q.L, q.mu], [L, mu], rtol=0, atol=1e-12 * L)
    assert q.eigenvalues.min() == q.mu and q.eigenvalues.max() == q.L
    # Independent computations: spectral norm of A and of its inverse (SVD, not eigh).
    np.testing.assert_allclose(q.L, np.linalg.norm(q.A, 2), rtol=1e-12)
    mu_svd = 1.0 / np.linalg.norm(np.linalg.inv(q.A), 2)
    np.testing.assert_allclose(q.mu, mu_svd, rtol=0, atol=1e-12 * L)
    np.testing.assert_allclose(q.A, q.A.T, rtol=0, atol=0)
    np.testing.assert_allclose(q.b, q.A @ q.x_star, rtol=1e-13)
    assert np.linalg.norm(q.x_star) == pytest.approx(2.5, rel=1e-13)
    assert q.f_star == 0.0 and q.value(q.x_star) == pytest.approx(q.f_star, abs=1e-15)
    np.testing.assert_allclose(q.gradient(q.x_star), 0.0, atol=1e-12 * L)

    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 50, d))
    # L-smoothness: ‖∇f(x) − ∇f(y)‖ ≤ L‖x − y‖, with equality along the top eigenvector.
    lhs = np.linalg.norm(x @ q.A - y @ q.A, axis=1)
    assert np.all(lhs <= q.L * np.linalg.norm(x - y, axis=1) * (1 + 1e-12))
    top, bottom = q.eigenvectors[:, -1], q.eigenvectors[:, 0]
    assert np.linalg.norm(q.gradient(top) - q.gradient(0 * top)) == pytest.approx(q.L, rel=1e-12)
    # μ-strong convexity: f(y) ≥ f(x) + ∇f(x)ᵀ(y − x) + μ/2‖y − x‖², equality along the bottom one.
    for xi, yi in zip(x, y, strict=True):
        model = q.value(xi) + q.gradient(xi) @ (yi - xi) + 0.5 * q.mu * (yi - xi) @ (yi - xi)
        assert q.value(yi) >= model - 1e-12 * abs(model)
    xi = x[0]
    exact = q.value(xi) + q.gradient(xi) @ bottom + 0.5 * q.mu
    assert q.value(xi + bottom) == pytest.approx(exact, rel=1e-12)


def test_eigenvalues_are_inside_the_interval_and_spread() -> None:
    q = random_quadratic(200, L=5.0, mu=1.0, seed=3)
    inner = q.eigenvalues[1:-1]
    assert np.all((inner >= 1.0 - 1e-12) & (inner <= 5.0 + 1e-12))
    # uniform on [1, 5]: a KS test against the uniform law (deterministic seed).
    assert stats.kstest(inner, stats.uniform(loc=1.0, scale=4.0).cdf).pvalue > 1e-3


def test_same_seed_same_instance_and_seed_sequence_accepted() -> None:
    a = random_quadratic(6, L=3.0, mu=0.5, seed=11)
    b = random_quadratic(6, L=3.0, mu=0.5, seed=11)
    c = random_quadratic(6, L=3.0, mu=0.5, seed=np.random.SeedSequence(11))
    other = random_quadratic(6, L=3.0, mu=0.5, seed=12)
    for field in ("A", "b", "x_star", "eigenvalues"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
        np.testing.assert_array_equal(getattr(a, field), getattr(c, field))
    assert not np.array_equal(a.A, other.A)
    p1 = isotropic_quadratic(4, mu=1.0, sigma=1.0, radius=3.0, x_star_norm=1.0, seed=5)
    p2 = isotropic_quadratic(4, mu=1.0, sigma=1.0, radius=3.0, x_star_norm=1.0, seed=5)
    np.testing.assert_array_equal(p1.w_star, p2.w_star)


def test_instances_are_immutable() -> None:
    q = random_quadratic(3, L=2.0, mu=1.0, seed=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.L = 3.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        q.A[0, 0] = 1.0


def test_haar_orthogonal_is_orthogonal_and_haar() -> None:
    q = haar_orthogonal(12, seed=0)
    np.testing.assert_allclose(q.T @ q, np.eye(12), atol=1e-13)
    np.testing.assert_array_equal(q, haar_orthogonal(12, seed=0))
    # Every entry of a Haar matrix of O(3) is uniform on [−1, 1] (Archimedes). Without the sign
    # fix, numpy's QR gives diagonal entries of one sign and the KS test fails.
    draws = np.array([haar_orthogonal(3, seed=s) for s in range(2000)])
    uniform = stats.uniform(loc=-1.0, scale=2.0).cdf
    for i, j in [(0, 0), (1, 1), (2, 1)]:
        assert stats.kstest(draws[:, i, j], uniform).pvalue > 1e-3
    assert abs(np.linalg.det(draws).mean()) < 0.1  # both components of O(3), evenly


def test_two_eigenvalue_quadratic_and_exact_gd_iterates() -> None:
    q = two_eigenvalue_quadratic(4.0, 1.0, x0_scale=3.0)
    np.testing.assert_array_equal(q.A, np.diag([1.0, 4.0]))
    np.testing.assert_array_equal(q.x0, [3.0, 3.0])
    assert (q.L, q.mu, q.f_star) == (4.0, 1.0, 0.0)
    np.testing.assert_array_equal(q.x_star, 0.0)
    iterates = q.exact_gd_iterates(q.x0, step=0.25, rounds=3)
    expected = np.array([[3.0 * 0.75**k, 0.0 if k else 3.0] for k in range(4)])
    np.testing.assert_allclose(iterates, expected, rtol=1e-15, atol=0)
    # exact iterates of a random quadratic satisfy the GD recursion
    r = random_quadratic(5, L=3.0, mu=0.2, seed=1)
    xs = r.exact_gd_iterates(np.ones(5), step=0.3, rounds=4)
    for k in range(4):
        np.testing.assert_allclose(xs[k + 1], xs[k] - 0.3 * r.gradient(xs[k]), rtol=1e-12)


def test_isotropic_quadratic_constants() -> None:
    p = isotropic_quadratic(6, mu=0.5, sigma=2.0, radius=3.0, x_star_norm=1.2, seed=4)
    assert isinstance(p, IsotropicQuadratic)
    assert p.L == p.mu == 0.5 and p.f_star == 0.0
    assert np.linalg.norm(p.w_star) == pytest.approx(1.2, rel=1e-13)
    np.testing.assert_allclose(p.G2, 0.25 * (3.0 + 1.2) ** 2 + 6 * 4.0, rtol=1e-13)
    worst = p.worst_point
    assert np.linalg.norm(worst) == pytest.approx(p.radius, rel=1e-13)
    assert p.second_moment(worst) == pytest.approx(p.G2, rel=1e-13)
    # G² is the supremum over the ball: no random feasible point exceeds it.
    rng = np.random.default_rng(0)
    points = rng.standard_normal((2000, 6))
    points *= (p.radius * rng.random(2000) ** (1 / 6) / np.linalg.norm(points, axis=1))[:, None]
    assert max(p.second_moment(w) for w in points) < p.G2
    np.testing.assert_allclose(p.gradient(p.w_star), 0.0)
    assert p.value(p.w_star) == 0.0
    np.testing.assert_allclose(p.project(3 * worst), worst, rtol=1e-15)


@pytest.mark.parametrize("at_worst", [True, False])
def test_second_moment_by_monte_carlo(at_worst: bool) -> None:
    """E‖g(w)‖² estimated from 200 000 oracle calls is within 3 standard errors of the formula;
    at the maximiser the formula is G²."""
    p = isotropic_quadratic(5, mu=2.0, sigma=1.5, radius=2.0, x_star_norm=0.7, seed=9)
    w = p.worst_point if at_worst else 0.3 * p.w_star
    target = p.G2 if at_worst else p.second_moment(w)
    squares = np.sum(p.stochastic_gradients(w, 200_000, seed=21) ** 2, axis=1)
    standard_error = squares.std(ddof=1) / np.sqrt(squares.size)
    assert abs(squares.mean() - target) < 3 * standard_error
    np.testing.assert_allclose(
        p.stochastic_gradients(w, 1000, seed=1).mean(axis=0),
        p.gradient(w),
        atol=4 * 1.5 / np.sqrt(1000),
    )


def test_isotropic_without_noise_and_centred_minimiser() -> None:
    p = isotropic_quadratic(3, mu=1.0, sigma=0.0, radius=1.0, x_star_norm=0.0, seed=0)
    assert p.G2 == 1.0
    np.testing.assert_array_equal(p.worst_point, [1.0, 0.0, 0.0])


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"d": 0}, "d"),
        ({"d": 2.0}, "d"),
        ({"d": True}, "d"),
        ({"L": -1.0}, "L"),
        ({"L": float("inf")}, "L"),
        ({"mu": 0.0}, "mu"),
        ({"mu": 5.0}, "mu"),
        ({"d": 1}, "mu"),
        ({"x_star_norm": -1.0}, "x_star_norm"),
        ({"seed": None}, "seed"),
        ({"seed": -3}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"L": 1.0, "mu": 1e-300}, "mu"),
    ],
)
def test_random_quadratic_bad_input(kwargs: dict, parameter: str) -> None:
    arguments = {"d": 4, "L": 2.0, "mu": 1.0, "seed": 0} | kwargs
    d = arguments.pop("d")
    with pytest.raises(ParameterError) as info:
        random_quadratic(d, **arguments)
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"x_star_norm": 2.0}, "x_star_norm"),
        ({"x_star_norm": 3.0}, "x_star_norm"),
        ({"sigma": -1.0}, "sigma"),
        ({"mu": 0.0}, "mu"),
        ({"radius": 0.0}, "radius"),
        ({"d": 0}, "d"),
    ],
)
def test_isotropic_quadratic_bad_input(kwargs: dict, parameter: str) -> None:
    arguments = {"d": 2, "mu": 1.0, "sigma": 1.0, "radius": 2.0, "x_star_norm": 1.0} | kwargs
    d = arguments.pop("d")
    with pytest.raises(ParameterError) as info:
        isotropic_quadratic(d, seed=0, **arguments)
    assert info.value.parameter == parameter


def test_two_eigenvalue_and_haar_bad_input() -> None:
    with pytest.raises(ParameterError, match="mu=3"):
        two_eigenvalue_quadratic(1.0, 3.0)
    with pytest.raises(ParameterError, match="x0_scale"):
        two_eigenvalue_quadratic(2.0, 1.0, x0_scale=0.0)
    with pytest.raises(ParameterError, match="d=0"):
        haar_orthogonal(0, seed=0)
    with pytest.raises(ParameterError, match="seed"):
        haar_orthogonal(2, seed=None)  # type: ignore[arg-type]
