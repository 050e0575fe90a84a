"""GD, inexact GD and projected SGD: kernels against their numpy twins, and the classic bounds.

The theory checked here: the exact GD trajectory on the two-eigenvalue quadratic (one step and
the attained rate of ``classic.gd.strongly-convex.distance``), ``classic.gd.strongly-convex`` and
``classic.inexact-gd`` on random quadratics, divergence beyond step 2/L, and the Rakhlin–Shamir–
Sridharan SGD bounds by Monte Carlo.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from reference.gradient_descent import gd_quadratic, sgd_ball

from fedtheory import bounds
from fedtheory.algorithms import (
    GDRun,
    SGDRun,
    gradient_descent,
    inexact_errors,
    sgd_projected,
)
from fedtheory.algorithms._kernels import _gd_quadratic, _sgd_ball
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.problems import isotropic_quadratic, random_quadratic, two_eigenvalue_quadratic

# ---------------------------------------------------------------------------- kernels vs twins


@pytest.mark.parametrize("with_errors", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gd_kernel_matches_twin(seed: int, with_errors: bool) -> None:
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 7))
    L = float(rng.uniform(1.0, 5.0))
    mu = L if d == 1 else float(rng.uniform(0.2, 1.0))
    q = random_quadratic(d, L=L, mu=mu, seed=seed, x_star_norm=1.5)
    x0 = rng.standard_normal(d)
    step = float(rng.uniform(0.1, 1.9)) / L
    rounds = 12
    errors = rng.standard_normal((rounds, d)) * 0.1 if with_errors else np.zeros((0, d))
    x0_copy = x0.copy()
    x, gaps, dist2 = _gd_quadratic(q.A, q.x_star, x0, step, rounds, errors)
    np.testing.assert_array_equal(x0, x0_copy)  # pure: the start is not modified
    x_ref, gaps_ref, dist2_ref = gd_quadratic(q.A, q.b, q.x_star, x0, step, rounds, errors)
    np.testing.assert_allclose(x, x_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(gaps, gaps_ref, rtol=1e-12)
    np.testing.assert_allclose(dist2, dist2_ref, rtol=1e-12)
    run = gradient_descent(
        q, step=step, rounds=rounds, x0=x0, errors=errors if with_errors else None
    )
    np.testing.assert_array_equal(run.gaps, gaps)


@pytest.mark.parametrize("decaying", [True, False])
@pytest.mark.parametrize("seed", [0, 1])
def test_sgd_kernel_matches_twin(seed: int, decaying: bool) -> None:
    rng = np.random.default_rng(seed)
    d, n, t0 = 3, 60, 5
    w_star = rng.standard_normal(d) * 0.3
    z = rng.standard_normal((n, d))
    w0 = rng.standard_normal(d) * 0.2
    record_at = np.array([5, 6, 20, 64], dtype=np.int64)
    step0 = 1.0 / 0.8 if decaying else 0.3
    args = (0.8, 2.0, w_star, 1.0, z, w0, t0, step0, decaying, record_at)
    w0_copy = w0.copy()
    w, dist2, max_norm2, projections = _sgd_ball(*args)
    w_ref, dist2_ref, max_norm2_ref, projections_ref = sgd_ball(*args)
    np.testing.assert_array_equal(w0, w0_copy)  # pure: the start is not modified
    np.testing.assert_allclose(w, w_ref, rtol=1e-12)
    np.testing.assert_allclose(dist2, dist2_ref, rtol=1e-12)
    assert max_norm2 == pytest.approx(max_norm2_ref, rel=1e-12)
    assert projections == projections_ref > 0


# ---------------------------------------------------------------------------- GD theory


def test_one_step_with_step_one_over_L_matches_closed_form() -> None:
    L, mu = 5.0, 0.5
    q = two_eigenvalue_quadratic(L, mu, x0_scale=2.0)
    run = gradient_descent(q, step=1 / L, rounds=1, x0=q.x0)
    # x_1 = diag(1 − μ/L, 1 − L/L) x_0: the L-direction is solved in one step.
    np.testing.assert_allclose(run.x, [2.0 * (1 - mu / L), 0.0], rtol=1e-15, atol=1e-15)
    assert run.gaps[0] == pytest.approx(0.5 * (mu + L) * 4.0, rel=1e-15)
    assert run.gaps[1] == pytest.approx(0.5 * mu * (2.0 * (1 - mu / L)) ** 2, rel=1e-14)
    assert run.distances2[1] == pytest.approx((2.0 * (1 - mu / L)) ** 2, rel=1e-14)
    assert isinstance(run, GDRun) and run.rounds == 1 and run.step == 1 / L
    np.testing.assert_array_equal(run.error_norms2, [0.0])


@pytest.mark.parametrize(("L", "mu", "scale"), [(10.0, 1.0, 1.0), (3.0, 2.0, 0.1), (1e3, 1.0, 7.0)])
def test_distance_bound_is_attained_on_two_eigenvalue_quadratic(
    L: float, mu: float, scale: float
) -> None:
    """Step 2/(μ+L): ‖x_T − x*‖² = ((L−μ)/(L+μ))^{2T} D0 exactly, i.e. the bound
    classic.gd.strongly-convex.distance holds with equality (it is tight)."""
    q = two_eigenvalue_quadratic(L, mu, x0_scale=scale)
    rounds = 40
    run = gradient_descent(q, step=2 / (mu + L), rounds=rounds, x0=q.x0)
    T = np.arange(rounds + 1)
    closed_form = ((L - mu) / (L + mu)) ** (2 * T) * run.distances2[0]
    np.testing.assert_allclose(run.distances2, closed_form, rtol=1e-12)
    bound = bounds.get("classic.gd.strongly-convex.distance").evaluate(
        L=q.L, mu=q.mu, T=T, D0=run.distances2[0]
    )
    np.testing.assert_allclose(run.distances2, bound, rtol=1e-12)
    np.testing.assert_allclose(
        run.x, q.exact_gd_iterates(q.x0, step=2 / (mu + L), rounds=rounds)[-1], rtol=1e-12
    )


@pytest.mark.parametrize("seed", range(8))
def test_gd_with_step_one_over_L_obeys_the_linear_rate(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    d = int(rng.integers(2, 40))
    kappa = float(10 ** rng.uniform(0, 3))
    q = random_quadratic(d, L=kappa, mu=1.0, seed=seed, x_star_norm=float(rng.uniform(0, 3)))
    rounds = 60
    run = gradient_descent(q, step=1 / q.L, rounds=rounds, x0=rng.standard_normal(d) * 3)
    bound = bounds.get("classic.gd.strongly-convex").evaluate(
        L=q.L, mu=q.mu, T=np.arange(rounds + 1), Delta0=run.gaps[0]
    )
    assert np.all(run.gaps <= bound * (1 + 1e-12))
    exact = q.exact_gd_iterates(rng.standard_normal(d), step=1 / q.L, rounds=3)
    replay = gradient_descent(q, step=1 / q.L, rounds=3, x0=exact[0])
    np.testing.assert_allclose(replay.x, exact[-1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("decay", "seed"), [(0.7, 0), (1.0, 1), (1.0, 2), (0.95, 3)])
def test_inexact_gd_obeys_friedlander_schmidt(decay: float, seed: int) -> None:
    d, rounds = 8, 30
    q = random_quadratic(d, L=4.0, mu=0.5, seed=seed)
    errors = inexact_errors(d, rounds, scale=0.3, decay=decay, seed=seed)
    np.testing.assert_allclose(
        np.linalg.norm(errors, axis=1), 0.3 * decay ** np.arange(rounds), rtol=1e-13
    )
    run = gradient_descent(q, step=1 / q.L, rounds=rounds, x0=np.ones(d), errors=errors)
    np.testing.assert_allclose(
        run.error_norms2, 0.09 * decay ** (2 * np.arange(rounds)), rtol=1e-12
    )
    inexact = bounds.get("classic.inexact-gd")
    final = inexact.evaluate(
        L=q.L, mu=q.mu, S=rounds, Delta0=run.gaps[0], e2=list(run.error_norms2)
    )
    assert run.gaps[-1] <= final
    # every prefix S = 1, …, rounds, with the same error sequence
    per_round = inexact.evaluate(
        L=q.L, mu=q.mu, S=np.arange(1, rounds + 1), Delta0=run.gaps[0], e2=run.error_norms2
    )
    assert np.all(run.gaps[1:] <= per_round)
    np.testing.assert_allclose(final, per_round[-1], rtol=1e-12)
    if decay == 1.0:
        uniform = bounds.get("classic.inexact-gd.bounded-errors").evaluate(
            L=q.L, mu=q.mu, S=np.arange(1, rounds + 1), Delta0=run.gaps[0], eps2=0.09
        )
        np.testing.assert_allclose(per_round, uniform, rtol=1e-12)  # the derived form sums it
        assert np.all(run.gaps[1:] <= uniform)


def test_inexact_gd_bound_is_violated_without_the_error_term() -> None:
    """The error term matters: with constant errors GD stalls above the exact-GD rate, so the
    check above could fail if the errors were not applied."""
    d, rounds = 8, 60
    q = random_quadratic(d, L=4.0, mu=0.5, seed=0)
    errors = inexact_errors(d, rounds, scale=0.3, seed=1)
    run = gradient_descent(q, step=1 / q.L, rounds=rounds, x0=np.ones(d), errors=errors)
    exact_rate = bounds.get("classic.gd.strongly-convex").evaluate(
        L=q.L, mu=q.mu, T=rounds, Delta0=run.gaps[0]
    )
    assert run.gaps[-1] > exact_rate


def test_divergence_beyond_two_over_L_names_the_round() -> None:
    q = two_eigenvalue_quadratic(1.0, 0.1)
    step, rounds = 2.5, 3000  # |1 − step·L| = 1.5: the L-coordinate grows by 1.5 per step
    with pytest.raises(DivergenceError) as info:
        gradient_descent(q, step=step, rounds=rounds, x0=q.x0)
    with np.errstate(all="ignore"):
        _, gaps, dist2 = gd_quadratic(q.A, q.b, q.x_star, q.x0, step, rounds, np.zeros((0, 2)))
    first_bad = int(np.argmax(~np.isfinite(gaps) | ~np.isfinite(dist2)))
    assert info.value.round == first_bad
    assert info.value.algorithm == "gradient_descent"
    # ‖x_k‖² ≈ 1.5^{2k} overflows float64 (≈ 1.8e308) near k = log(1.8e308)/log(2.25) ≈ 875
    assert abs(first_bad - np.log(np.finfo(float).max) / np.log(2.25)) < 3
    assert f"round {first_bad}" in str(info.value) and "exceeds 2/L = 2" in str(info.value)
    # just below 2/L it converges (slowly): no error, and the gap decreases
    run = gradient_descent(q, step=1.99, rounds=rounds, x0=q.x0)
    assert run.gaps[-1] < run.gaps[0]


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"step": 0.0}, "step"),
        ({"step": -1.0}, "step"),
        ({"step": float("nan")}, "step"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 2.0}, "rounds"),
        ({"x0": np.ones(3)}, "x0"),
        ({"x0": np.array([1.0, np.nan])}, "x0"),
        ({"x0": "ab"}, "x0"),
        ({"errors": np.ones((4, 2))}, "errors"),
        ({"errors": np.full((5, 2), np.inf)}, "errors"),
    ],
)
def test_gradient_descent_bad_input(kwargs: dict, parameter: str) -> None:
    q = two_eigenvalue_quadratic(2.0, 1.0)
    arguments = {"step": 0.5, "rounds": 5, "x0": q.x0} | kwargs
    with pytest.raises(ParameterError) as info:
        gradient_descent(q, **arguments)
    assert info.value.parameter == parameter


def test_wrong_problem_types_and_inexact_errors_bad_input() -> None:
    q = two_eigenvalue_quadratic(2.0, 1.0)
    p = isotropic_quadratic(2, mu=1.0, sigma=1.0, radius=2.0, x_star_norm=1.0, seed=0)
    with pytest.raises(ParameterError, match="instance"):
        gradient_descent(p, step=0.5, rounds=5, x0=q.x0)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="problem"):
        sgd_projected(q, rounds=5, seed=0)  # type: ignore[arg-type]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"scale": -1.0}, "scale"),
        ({"decay": 0.0}, "decay"),
        ({"decay": 1e10}, "decay"),  # 1e10^49 overflows float64
        ({"seed": None}, "seed"),
    ]
    for kwargs, parameter in cases:
        arguments: dict[str, Any] = {"scale": 1.0, "decay": 0.5, "seed": 0} | kwargs
        with pytest.raises(ParameterError) as info:
            inexact_errors(2, 50, **arguments)
        assert info.value.parameter == parameter
    np.testing.assert_array_equal(inexact_errors(3, 5, scale=0.0, seed=0), 0.0)


# ---------------------------------------------------------------------------- SGD


def test_sgd_result_does_not_depend_on_chunking() -> None:
    p = isotropic_quadratic(4, mu=0.7, sigma=2.0, radius=1.5, x_star_norm=0.5, seed=1)
    record = [0, 1, 7, 333, 334, 999, 1000]
    runs = [
        sgd_projected(p, rounds=1000, seed=42, record=record, chunk_rows=rows)
        for rows in (1, 7, 333, 1000, 5000, None)
    ]
    for run in runs[1:]:
        np.testing.assert_array_equal(run.w, runs[0].w)
        np.testing.assert_array_equal(run.distances2, runs[0].distances2)
        assert (run.max_norm, run.projections) == (runs[0].max_norm, runs[0].projections)
    np.testing.assert_array_equal(runs[0].record_rounds, record)
    assert runs[0].projections > 0  # the projection was exercised across chunk boundaries


def test_sgd_without_projection_is_the_running_mean_of_the_noise() -> None:
    """With η_t = 1/(μt) and an inactive projection, t·r_{t+1} = (t − 1)·r_t − ξ_t/μ, hence
    w_{T+1} − w* = −σ·mean(z_1..z_T)/μ exactly: this pins the noise stream and the step rule."""
    p = isotropic_quadratic(3, mu=2.0, sigma=0.5, radius=1e6, x_star_norm=1.0, seed=0)
    run = sgd_projected(p, rounds=500, seed=7, chunk_rows=64)
    z = np.random.default_rng(7).standard_normal((500, 3))
    np.testing.assert_allclose(run.w - p.w_star, -0.5 * z.mean(axis=0) / 2.0, rtol=1e-10)
    assert run.projections == 0
    np.testing.assert_allclose(run.gaps, 0.5 * p.mu * run.distances2, rtol=1e-15)


def test_projection_keeps_iterates_in_the_ball() -> None:
    p = isotropic_quadratic(3, mu=1.0, sigma=5.0, radius=1.0, x_star_norm=0.5, seed=2)
    run = sgd_projected(p, rounds=2000, seed=0, record=np.arange(2001))
    assert run.projections > 10
    assert run.max_norm <= p.radius * (1 + 1e-12)
    assert np.all(np.sqrt(run.distances2) <= p.radius + 0.5 + 1e-12)
    assert np.linalg.norm(run.w) <= p.radius * (1 + 1e-12)


def test_sgd_constant_step_and_start_options() -> None:
    p = isotropic_quadratic(2, mu=1.0, sigma=0.0, radius=5.0, x_star_norm=1.0, seed=0)
    w0 = np.array([3.0, -1.0])
    run = sgd_projected(p, rounds=10, seed=0, step_rule=0.5, w0=w0, record=np.arange(11))
    expected = 0.25 ** np.arange(11) * np.sum((w0 - p.w_star) ** 2)  # (1 − ημ)^{2k}
    np.testing.assert_allclose(run.distances2, expected, rtol=1e-12)
    assert isinstance(run, SGDRun) and run.rounds == 10


def test_sgd_meets_rakhlin_shamir_sridharan_in_expectation() -> None:
    """Monte Carlo over 200 seeds, T = 1000: E‖w_T − w*‖² ≤ 4G²/(μ²T) (Lemma 1) and
    E[F(w_T) − F*] ≤ 2LG²/(μ²T) (Theorem 1), at every recorded T; and the mean matches the
    exact value dσ²/(μ²T) of the unprojected recursion within 4 standard errors."""
    p = isotropic_quadratic(5, mu=1.0, sigma=1.0, radius=2.0, x_star_norm=1.0, seed=3)
    record = np.array([1, 10, 100, 1000])
    runs = [sgd_projected(p, rounds=1000, seed=s, record=record) for s in range(200)]
    dist2 = np.array([run.distances2 for run in runs])
    gaps = np.array([run.gaps for run in runs])
    mean = dist2.mean(axis=0)
    distance_bound = bounds.get("classic.sgd.strongly-convex.distance").evaluate(
        G2=p.G2, mu=p.mu, T=record
    )
    gap_bound = bounds.get("classic.sgd.strongly-convex.gap").evaluate(
        G2=p.G2, mu=p.mu, L=p.L, T=record
    )
    assert np.all(mean <= distance_bound)
    assert np.all(gaps.mean(axis=0) <= gap_bound)
    standard_error = dist2.std(axis=0, ddof=1) / np.sqrt(len(runs))
    exact = p.d * p.sigma**2 / (p.mu**2 * record)
    assert np.all(np.abs(mean[1:] - exact[1:]) < 4 * standard_error[1:])


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"rounds": 0}, "rounds"),
        ({"seed": None}, "seed"),
        ({"step_rule": "1/t"}, "step_rule"),
        ({"step_rule": -0.1}, "step_rule"),
        ({"record": [5, 3]}, "record"),
        ({"record": [0, 11]}, "record"),
        ({"record": [-1]}, "record"),
        ({"record": [1.5]}, "record"),
        ({"record": []}, "record"),
        ({"w0": np.full(2, 5.0)}, "w0"),
        ({"w0": np.ones(3)}, "w0"),
        ({"chunk_rows": 0}, "chunk_rows"),
    ],
)
def test_sgd_bad_input(kwargs: dict, parameter: str) -> None:
    p = isotropic_quadratic(2, mu=1.0, sigma=1.0, radius=2.0, x_star_norm=1.0, seed=0)
    arguments = {"rounds": 10, "seed": 0} | kwargs
    with pytest.raises(ParameterError) as info:
        sgd_projected(p, **arguments)
    assert info.value.parameter == parameter
