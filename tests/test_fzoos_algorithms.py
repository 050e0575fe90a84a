"""Algorithm 1 of the fzoos paper on the core round loop (guide §2.1–§2.7, check 3).

Theory asserted:
- the counter-based normals, uniforms and stream keys of the core sampler equal their twins, and
  the normals have mean 0 and variance 1;
- the FD estimator (3) equals its numpy twin; it is unbiased up to O(λ) on a quadratic with the
  exact second moment E‖Δ − ∇f‖² = ‖∇f‖²(d + 1)/Q (Gaussian u, noiseless; guide check 20);
- one FedZO, FedProx-ZO, SCAFFOLD I and SCAFFOLD II run equals a plain-numpy Algorithm 1 (x to
  1e−12, Ξ to 1e−6 relative: FD cancellation amplifies rounding by 1/λ);
- check 3 (framework reductions, exact gradients): with pure linear heterogeneity SCAFFOLD I's
  and the FZooS oracle's Ξ ≡ 0 (1e−12) and their x_r equal centralized GD on F after rT steps;
  FedZO with T = 1 is GD on F for any heterogeneity; the FZooS oracle's Prop. 1 γ* is 1;
- queries and floats are counted where they happen (FD Q + 1 per step, SCAFFOLD I + Q + 1 per
  round, exact estimates none);
- Adam's state is reset per client per round (decision A3): with T = 1 every step is a first
  Adam step, x ← x − η·mean_i sign(∇f_i) up to ε;
- same seed, same bits: a batch's replicate equals the single run with its spawned seed, and
  runs in two threads equal runs in one;
- divergence names round, client and step; bad input names the rule.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from reference import federated as sampler_twin
from reference import fzoos_algorithms as twin

from fedtheory.algorithms._sampling import _standard_normal, _stream_key, _uniform
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.papers.fzoos.algorithms import (
    corollary1_gamma,
    fedprox_zo,
    fedzo,
    fzoos,
    scaffold_zo,
)
from fedtheory.papers.fzoos.fd import finite_difference_gradient

SETTINGS = {"rounds": 3, "local_steps": 2, "step_size": 0.05, "queries": 5, "seed": 11}


# ---------------------------------------------------------------------------- sampler


def test_counter_based_draws_equal_their_twins_and_are_standard() -> None:
    key = np.uint64(0x1234_5678_9ABC_DEF0)
    for a in (0, 3, 2**20):
        assert int(_stream_key(key, a)) == sampler_twin.stream_key(int(key), a)
    for j in (0, 1, 17, 10_000):
        assert _standard_normal(key, j) == sampler_twin.standard_normal(int(key), j)
        assert _uniform(key, j) == sampler_twin.uniform(int(key), j)
    draws = np.array([_standard_normal(key, j) for j in range(20_000)])
    assert abs(draws.mean()) < 4 / np.sqrt(draws.size)
    assert abs(draws.var() - 1.0) < 4 * np.sqrt(2 / draws.size)
    assert abs(np.mean(draws**4) - 3.0) < 0.2  # Gaussian kurtosis, not a uniform's 1.8
    uniforms = np.array([_uniform(key, j) for j in range(20_000)])
    assert uniforms.min() >= 0 and uniforms.max() < 1
    assert abs(uniforms.mean() - 0.5) < 4 * np.sqrt(1 / 12 / uniforms.size)


# ---------------------------------------------------------------------------- FD estimator


def test_fd_estimate_equals_its_twin_and_has_the_exact_second_moment() -> None:
    problem = twin.heterogeneous(2, 6, seed=0)
    x = np.linspace(-0.5, 0.5, 6)
    from fedtheory._seeds import seed_entropy
    from fedtheory.algorithms._sampling import _mix

    key = int(_mix(np.uint64(seed_entropy(4))))
    expected = twin.fd_estimate(
        problem,
        1,
        x,
        7,
        1e-3,
        0.3,
        sampler_twin.stream_key(key, 0),
        sampler_twin.stream_key(key, 1),
    )
    got = finite_difference_gradient(problem, 1, x, queries=7, noise=0.3, seed=4)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)
    # noiseless: E‖Δ − ∇f‖² = ‖∇f‖²(d + 1)/Q + O(λ²) (E‖uuᵀg‖² = (d + 2)‖g‖²)
    grad = problem.gradient(1, x)
    Q, draws = 4, 3000
    errors = np.array(
        [
            np.sum((finite_difference_gradient(problem, 1, x, queries=Q, seed=s) - grad) ** 2)
            for s in range(draws)
        ]
    )
    predicted = grad @ grad * (6 + 1) / Q
    assert abs(errors.mean() - predicted) < 4 * errors.std() / np.sqrt(draws)


# ---------------------------------------------------------------------------- twins


@pytest.mark.parametrize("method", ["fedzo", "fedprox", "scaffold1", "scaffold2"])
def test_one_run_equals_the_numpy_algorithm_1(method: str) -> None:
    problem = twin.heterogeneous(3, 4, seed=1)
    kwargs = dict(SETTINGS, noise=0.1)
    if method == "fedzo":
        run = fedzo(problem, **kwargs)
    elif method == "fedprox":
        run = fedprox_zo(problem, 0.7, **kwargs)
    else:
        run = scaffold_zo(problem, variant=int(method[-1]), **kwargs)
    x, xi = twin.fd_rounds(
        problem,
        method,
        np.full(4, 0.5),
        rounds=3,
        T=2,
        eta=0.05,
        Q=5,
        lam=1e-3,
        sigma=0.1,
        seed=11,
        mu=0.7,
    )
    np.testing.assert_allclose(run.global_model, x, rtol=0, atol=1e-12)
    np.testing.assert_allclose(run.log.disparity, xi, rtol=1e-6)
    assert run.log.values[-1] == pytest.approx(np.mean([problem.value(i, x) for i in range(3)]))


# ---------------------------------------------------------------------------- check 3


def _gd(problem: twin.Quadratics, x: np.ndarray, eta: float, steps: int) -> np.ndarray:
    for _ in range(steps):
        x = x - eta * problem.global_gradient(x)
    return x


@pytest.mark.parametrize("runner", ["scaffold1", "fzoos_oracle", "fzoos_oracle_fixed"])
def test_check3_corrections_remove_linear_heterogeneity(runner: str) -> None:
    problem = twin.linear_heterogeneity(4, 5, seed=2)
    settings = {"rounds": 4, "local_steps": 3, "step_size": 0.1, "seed": 0, "record": True}
    if runner == "scaffold1":
        run = scaffold_zo(problem, variant=1, estimator="exact", **settings)
    else:
        correction = "fixed_vector" if runner.endswith("fixed") else "adaptive"
        run = fzoos(problem, estimator="exact", gamma=1.0, correction=correction, **settings)
    assert np.max(run.log.disparity) < 1e-12
    x = np.full(5, 0.5)
    for r in range(5):
        assert run.global_iterates is not None
        np.testing.assert_allclose(run.global_iterates[r], x, rtol=0, atol=1e-12)
        x = _gd(problem, x, 0.1, 3)
    assert run.queries == 0
    if runner == "fzoos_oracle":  # Prop. 1: c = ∇F − g exactly, so γ* = 1
        np.testing.assert_allclose(run.log.gamma_oracle, 1.0, rtol=1e-9)


def test_check3_corrections_have_teeth_without_them() -> None:
    """FedZO (no correction) on the same problem has Ξ = ‖b_i‖² ≫ 0 at every step (its x_r
    still follow GD: equal Hessians make the averaged affine dynamics exact)."""
    problem = twin.linear_heterogeneity(4, 5, seed=2)
    run = fedzo(problem, estimator="exact", rounds=4, local_steps=3, step_size=0.1, seed=0)
    shifts = problem.B - problem.B.mean(axis=0)
    np.testing.assert_allclose(
        run.log.disparity,
        np.broadcast_to(np.sum(shifts**2, axis=1)[None, :, None], (4, 4, 3)),
        rtol=1e-12,
    )


def test_check3_fedzo_with_one_local_step_is_gradient_descent() -> None:
    problem = twin.heterogeneous(3, 4, seed=3)
    run = fedzo(problem, estimator="exact", rounds=6, local_steps=1, step_size=0.2, seed=0)
    np.testing.assert_allclose(run.global_model, _gd(problem, np.full(4, 0.5), 0.2, 6), atol=1e-12)
    # general heterogeneity: the FZooS oracle is still exact (Ξ ≡ 0 at any iterate)
    oracle = fzoos(
        problem, estimator="exact", gamma=1.0, rounds=3, local_steps=4, step_size=0.1, seed=0
    )
    assert np.max(oracle.log.disparity) < 1e-12


# ---------------------------------------------------------------------------- counts and logs


def test_queries_and_floats_are_counted_per_client() -> None:
    problem = twin.heterogeneous(3, 4, seed=1)
    R, T, Q, m, d = 3, 2, 5, 3, 4
    runs = {
        "fedzo": fedzo(problem, **SETTINGS),
        "scaffold1": scaffold_zo(problem, variant=1, **SETTINGS),
        "scaffold2": scaffold_zo(problem, variant=2, **SETTINGS),
    }
    np.testing.assert_array_equal(runs["fedzo"].trace.function_queries, m * T * (Q + 1))
    np.testing.assert_array_equal(runs["scaffold1"].trace.function_queries, m * (T + 1) * (Q + 1))
    np.testing.assert_array_equal(runs["scaffold2"].trace.function_queries, m * T * (Q + 1))
    np.testing.assert_array_equal(runs["fedzo"].trace.floats_up, m * d)
    np.testing.assert_array_equal(runs["scaffold1"].trace.floats_up, 2 * m * d)
    np.testing.assert_array_equal(runs["scaffold1"].trace.floats_down, 2 * m * d)
    np.testing.assert_array_equal(runs["scaffold2"].trace.floats_down, [m * d] + [2 * m * d] * 2)
    np.testing.assert_array_equal(runs["fedzo"].trace.local_steps, m * T)
    assert runs["fedzo"].queries == R * m * T * (Q + 1)


def test_logs_are_consistent_with_the_iterates() -> None:
    problem = twin.heterogeneous(3, 4, seed=5)
    run = fedprox_zo(problem, 0.5, **SETTINGS, record=True)
    log = run.log
    assert log.disparity.shape == (3, 3, 2) and log.values.shape == (4,)
    assert run.global_iterates is not None
    for r in range(4):
        x = run.global_iterates[r]
        assert log.values[r] == pytest.approx(np.mean([problem.value(i, x) for i in range(3)]))
        grad = problem.global_gradient(x)
        assert log.grad_norm2[r] == pytest.approx(grad @ grad)
    assert np.all(np.abs(log.cosine) <= 1 + 1e-12)
    np.testing.assert_array_equal(log.gamma, 0.5)
    # the end-of-round drift is the distance of the upload from x_{r−1}
    assert run.local_iterates is not None
    for r in range(1, 4):
        moved = np.sum((run.local_iterates[r] - run.global_iterates[r - 1]) ** 2, axis=1)
        np.testing.assert_allclose(log.drift[r - 1, :, -1], moved, rtol=1e-12)
    view = log.for_theorem()
    assert view.rounds == 2 and view.disparity.shape == (3, 3, 2) and view.values.shape == (3,)
    np.testing.assert_array_equal(view.values, log.values[:3])


def test_problem_without_gradients_logs_nan_and_refuses_the_exact_estimator() -> None:
    problem = twin.Quadratics(np.ones((2, 3)), np.zeros((2, 3)), exact_gradients=False)
    run = fedzo(problem, **SETTINGS)
    assert np.all(np.isnan(run.log.disparity)) and np.all(np.isnan(run.log.grad_norm2))
    assert np.all(np.isfinite(run.log.values))
    with pytest.raises(ParameterError, match="exact gradients"):
        fedzo(problem, **SETTINGS, estimator="exact")


def test_adam_state_is_reset_per_client_per_round() -> None:
    problem = twin.heterogeneous(3, 4, seed=6)
    eta = 0.01
    run = fedzo(
        problem,
        estimator="exact",
        rounds=4,
        local_steps=1,
        step_size=eta,
        seed=0,
        optimizer="adam",
        record=True,
    )
    assert run.global_iterates is not None
    for r in range(4):
        x = run.global_iterates[r]
        signs = np.mean([np.sign(problem.gradient(i, x)) for i in range(3)], axis=0)
        np.testing.assert_allclose(run.global_iterates[r + 1], x - eta * signs, atol=1e-7)


def test_clipping_keeps_iterates_in_the_box_and_corollary1_gamma_is_logged() -> None:
    problem = twin.heterogeneous(3, 4, seed=7)
    rule = corollary1_gamma(G=2.0, omega=3.0, kappa=1.0, rho=0.5, epsilon=0.1)
    run = fzoos(
        problem,
        estimator="exact",
        gamma=rule,
        rounds=3,
        local_steps=2,
        step_size=2.0,
        clip=True,
        seed=0,
        record=True,
    )
    assert run.local_iterates is not None
    assert run.local_iterates.min() >= 0 and run.local_iterates.max() <= 1
    expected = 2.0 / (2.0 + 2 * 3.0 * 1.0 * 0.5 ** (2 * np.arange(3)) + 2 * 3 * 0.1)
    np.testing.assert_allclose(run.log.gamma[:, 0, 0], expected, rtol=1e-15)
    ones = fzoos(problem, estimator="exact", rounds=2, local_steps=3, step_size=0.1, seed=0)
    np.testing.assert_allclose(ones.log.gamma[0, 0], [1, 1 / 2, 1 / 3])


# ---------------------------------------------------------------------------- determinism


def test_same_seed_same_bits_on_any_executor() -> None:
    problem = twin.heterogeneous(3, 4, seed=8)
    kwargs = dict(SETTINGS, noise=0.2)
    batch = scaffold_zo(problem, variant=2, **kwargs | {"seed": 5}, replicates=3)
    for r in range(3):
        alone = scaffold_zo(
            problem, variant=2, **kwargs | {"seed": np.random.SeedSequence(5, spawn_key=(r,))}
        )
        one = batch.replicate(r)
        np.testing.assert_array_equal(one.global_model, alone.global_model)
        np.testing.assert_array_equal(one.log.disparity, alone.log.disparity)
    seeds = [np.random.SeedSequence(5, spawn_key=(r,)) for r in range(3)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(
            pool.map(lambda s: scaffold_zo(problem, variant=2, **kwargs | {"seed": s}), seeds)
        )
    for r in range(3):
        np.testing.assert_array_equal(threaded[r].global_model, batch.replicate(r).global_model)
    other = scaffold_zo(problem, variant=2, **kwargs | {"seed": 6})
    assert not np.array_equal(other.global_model, batch.replicate(0).global_model)


def test_shared_directions_are_common_to_clients() -> None:
    """Prop. D.4's shared {u_q}: Δ^{(i)}(x) = P∇f_i(x) + (λ/2Q)Σ_q (u_qᵀAu_q)u_q on a quadratic,
    P = (1/Q)Σ u_q u_qᵀ the same for every client; with linear heterogeneity SCAFFOLD I's
    ĝ = P∇F(x) + the same curvature term, so at x_0 every client has the same ĝ and Ξ."""
    problem = twin.linear_heterogeneity(3, 4, seed=9)
    run = scaffold_zo(problem, variant=1, **SETTINGS, shared_directions=True)
    free = scaffold_zo(problem, variant=1, **SETTINGS)
    first = run.log.disparity[0, :, 0]
    np.testing.assert_allclose(first, first[0], rtol=1e-6)
    spread = free.log.disparity[0, :, 0]
    assert np.ptp(spread) > 1e-3 * np.max(spread)


# ---------------------------------------------------------------------------- errors


def test_divergence_names_round_client_and_step() -> None:
    problem = twin.heterogeneous(3, 4, seed=1)
    with pytest.raises(DivergenceError, match=r"round \d+.*client \d, local step \d"):
        fedzo(problem, estimator="exact", rounds=60, local_steps=5, step_size=50.0, seed=0)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda p: fedzo(p, **SETTINGS | {"local_steps": 0}), "local_steps"),
        (lambda p: fedzo(p, **SETTINGS | {"rounds": 0}), "rounds"),
        (lambda p: fedzo(p, **SETTINGS | {"queries": 0}), "queries"),
        (lambda p: fedzo(p, **SETTINGS, noise=-1.0), "noise"),
        (lambda p: fedzo(p, **SETTINGS | {"step_size": 0.0}), "step_size"),
        (lambda p: fedzo(p, **SETTINGS, smoothing=0.0), "smoothing"),
        (lambda p: fedzo(p, **SETTINGS, optimizer="sgd"), "optimizer"),
        (lambda p: fedzo(p, **SETTINGS, estimator="gp"), "estimator"),
        (lambda p: fedzo(p, **SETTINGS, init=np.zeros(3)), "init"),
        (lambda p: fedprox_zo(p, -0.1, **SETTINGS), "mu_prox"),
        (lambda p: scaffold_zo(p, variant=3, **SETTINGS), "variant"),
        (
            lambda p: fzoos(
                p, estimator="exact", gamma=1.5, rounds=1, local_steps=1, step_size=0.1, seed=0
            ),
            "gamma",
        ),
        (
            lambda p: fzoos(
                p, estimator="exact", gamma="1/T", rounds=1, local_steps=1, step_size=0.1, seed=0
            ),
            "gamma",
        ),
        (
            lambda p: fzoos(
                p,
                estimator="exact",
                correction="fixed",
                rounds=1,
                local_steps=1,
                step_size=0.1,
                seed=0,
            ),
            "correction",
        ),
        (lambda p: corollary1_gamma(G=1, omega=1, kappa=1, rho=1.5, epsilon=0), "rho"),
        (lambda p: fedzo(object(), **SETTINGS), "problem"),
        (lambda p: fedzo(p, **SETTINGS | {"seed": -1}), "seed"),
    ],
)
def test_bad_input_is_refused_naming_the_rule(call: object, parameter: str) -> None:
    problem = twin.heterogeneous(2, 4, seed=0)
    with pytest.raises(ParameterError) as error:
        call(problem)  # type: ignore[operator]
    assert error.value.parameter == parameter


# ---------------------------------------------------------------------------- pathwise check


@pytest.mark.parametrize("runner", ["fedzo", "scaffold2"])
def test_lemma_c11_drift_holds_pathwise_on_the_logs(runner: str) -> None:
    """Guide check 10 on the synthetic quadratics (98): with GD and η ≤ 1/(βT), for every
    (r, t, i), ‖x_{r+1,t} − x_r‖² ≤ 2η²T Σ_τ S^{t−τ} Ξ_{r+1,τ} + 22η²T²‖∇F(x_r)‖², read from the
    logs in the theorem's indexing (for_theorem)."""
    from fedtheory.papers.fzoos.problems import SyntheticQuadratics

    d, T = 10, 5
    problem = SyntheticQuadratics(d, 4, 5.0, seed=1)
    beta = 80.0 / d  # F's Hessian in u-coordinates
    eta = 1.0 / (beta * T)
    kwargs = {"rounds": 6, "local_steps": T, "step_size": eta, "seed": 3, "noise": 1e-3}
    run = (
        fedzo(problem, **kwargs) if runner == "fedzo" else scaffold_zo(problem, variant=2, **kwargs)
    )
    log = run.log.for_theorem()
    S = (T + 1) ** 2 / (T * (T - 1))
    weights = np.array(
        [[S ** (t - tau) if tau <= t else 0.0 for tau in range(T)] for t in range(T)]
    )
    bound = 2 * eta**2 * T * np.einsum("tu,riu->rit", weights, log.disparity)
    bound += 22 * eta**2 * T**2 * log.grad_norm2[:, None, None]
    assert np.all(log.drift <= bound * (1 + 1e-12))
    assert np.max(log.drift / bound) > 1e-3  # the bound is not vacuous on this path


def test_to_threshold_counts_rounds_and_queries_and_censors() -> None:
    # Exact-gradient FZooS with γ = 1 on pure linear heterogeneity is GD on F: the gap falls
    # every round, so the first round below a fraction is where the normalised gap says, and
    # the queries are those of the rounds before it; a fraction never met is censored at R + 1.
    problem = twin.linear_heterogeneity(3, 4, seed=2)
    run = fzoos(
        problem, rounds=8, local_steps=2, step_size=0.2, gamma=1.0, estimator="exact", seed=0
    )
    x_star = -problem.B.mean(axis=0) / problem.A.mean(axis=0)  # diagonal curvatures
    optimum = float(np.mean([problem.value(i, x_star) for i in range(3)]))
    rounds, queries, gap = run.to_threshold(optimum, 0.5)
    assert gap[0] == pytest.approx(1.0)
    first = int(np.flatnonzero(gap <= 0.5)[0])
    assert rounds == first and 0 < first <= 8
    assert queries == np.sum(run.trace.function_queries[:first])
    censored, spent, _ = run.to_threshold(optimum, 1e-300)
    assert censored == 9 and spent == pytest.approx(run.queries * 9 / 8)
    with pytest.raises(ParameterError, match="fraction"):
        run.to_threshold(optimum, 1.5)
