"""FZooS with the GP surrogate (Algorithm 2) on the core round loop (guide §2.3–§2.6, §2.9).

Theory asserted:
- a whole FZooS run (R = 3 rounds, so the RFF correction acts in rounds 2–3) equals the plain
  numpy Algorithm 2 written from the guide's pseudocode — fresh GP solves, naive traces, the
  n × n ridge form of (6) — to 1e−10 (GD and Adam+clip, adaptive and fixed-vector corrections,
  w from all queries or the trajectory only);
- A1/A2: the first local step of round 1 moves along ∇μ only (the correction is zero, so the
  logged correction error is ‖∇F − ∇f_i‖² and γ* is undefined), and ∇μ ≠ 0 there because the
  current point and its active queries are in the history;
- with γ = 0 FZooS is local GP descent: the RFF (M, its draws) does not matter at all;
- queries are 1 + n_active per local step, floats down d + M per client from round 2;
- Cor. C.1's distance rule gives γ ∈ (0, 1) that matches its formula recomputed from the
  logged iterates' histories; the fixed rules are logged as given;
- same seed, same bits: a batch replicate equals the single run, threads equal one thread;
- bad input names the parameter; divergence names round, client and step; a failed GP update
  raises SolverError naming the solver.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from reference import fzoos_algorithms as problems
from reference import fzoos_gp_step as twin

from fedtheory.errors import DivergenceError, ParameterError, SolverError
from fedtheory.papers.fzoos.algorithms import corollary1_gamma, corollary_c1_gamma, fzoos

SMALL = {
    "rounds": 3,
    "local_steps": 3,
    "step_size": 0.05,
    "num_features": 40,
    "n_active": 3,
    "n_cand": 12,
    "box": 0.05,
    "seed": 4,
}


def _problem(m: int = 2, d: int = 4, seed: int = 3) -> problems.Quadratics:
    return problems.heterogeneous(m, d, seed=seed)


@pytest.mark.parametrize(
    "variant",
    [
        {},
        {"correction": "fixed_vector", "history": "trajectory", "noise": 0.1},
        {"optimizer": "adam", "clip": True, "gamma": 1.0, "gp_noise": 1e-3},
        {"n_cand": 3},  # every candidate taken: no ranking (the guide's §4.8 prototype)
    ],
)
def test_one_run_equals_the_numpy_algorithm_2(variant: dict[str, object]) -> None:
    problem = _problem()
    x0 = np.array([0.2, 0.7, 0.4, 0.55])
    run = fzoos(problem, init=x0, **SMALL | variant)  # type: ignore[arg-type]
    R, T = SMALL["rounds"], SMALL["local_steps"]
    gamma = variant.get("gamma", "1/t")
    gammas = np.full((R, T), gamma) if gamma == 1.0 else np.tile(1.0 / np.arange(1, T + 1), (R, 1))
    noise = float(variant.get("noise", 0.0))  # type: ignore[arg-type]
    candidates = int(variant.get("n_cand", SMALL["n_cand"]))  # type: ignore[call-overload]
    expected = twin.fzoos_run(
        problem, x0, rounds=R, T=T, eta=SMALL["step_size"], sigma=noise, seed=SMALL["seed"],
        gammas=gammas, lengthscale=1.0,
        noise=float(variant.get("gp_noise", max(1e-4, noise**2))),  # type: ignore[arg-type]
        M=SMALL["num_features"], n_active=SMALL["n_active"], n_cand=candidates,
        box=SMALL["box"], history_all=variant.get("history", "all") == "all",
        anchored=variant.get("correction") == "fixed_vector",
        adam=(0.9, 0.999, 1e-8) if variant.get("optimizer") == "adam" else None,
        clip=bool(variant.get("clip", False)),
    )  # fmt: skip
    np.testing.assert_allclose(run.global_model, expected["x"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.local_models, expected["uploads"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(run.log.disparity, expected["xi"], rtol=1e-9, atol=1e-10)
    np.testing.assert_array_equal(run.log.gamma, expected["gamma"])
    # the correction acts: rounds ≥ 2 have a non-zero correction (γ* defined), round 1 none
    assert np.all(np.isnan(run.log.gamma_oracle[0]))
    assert np.all(np.isfinite(run.log.gamma_oracle[1:]))


def test_first_step_of_round_one_is_the_gp_gradient_only() -> None:
    problem = _problem(m=3, d=5, seed=1)
    x0 = np.full(5, 0.3)
    eta = 0.02
    run = fzoos(problem, **SMALL | {"rounds": 1, "local_steps": 1, "step_size": eta}, init=x0)
    grad_f = problem.global_gradient(x0)
    for i in range(3):
        g = (x0 - run.local_models[i]) / eta  # the step taken, GD: ĝ = (x_0 − x_{1,1})/η
        grad_i = problem.gradient(i, x0)
        assert np.linalg.norm(g) > 1e-2  # A2: ∇μ ≠ 0 at the very first step
        # ĝ is ∇μ: the logged local error ‖∇μ − ∇f_i‖² is that of the step taken ...
        np.testing.assert_allclose(run.log.local_error[0, i, 0], np.sum((g - grad_i) ** 2))
        # ... the correction is zero (A1): its error is the whole ∇F − ∇f_i, and γ* undefined
        np.testing.assert_allclose(
            run.log.correction_error[0, i, 0], np.sum((grad_f - grad_i) ** 2), rtol=1e-12
        )
        assert np.isnan(run.log.gamma_oracle[0, i, 0])
        assert run.log.gamma[0, i, 0] == 1.0


def test_gamma_zero_is_local_gp_descent_independent_of_the_features() -> None:
    problem = _problem()
    plain = fzoos(problem, **SMALL, gamma=0.0)
    other = fzoos(problem, **SMALL | {"num_features": 7}, gamma=0.0)
    np.testing.assert_array_equal(plain.global_model, other.global_model)
    np.testing.assert_array_equal(plain.log.disparity, other.log.disparity)
    corrected = fzoos(problem, **SMALL)
    assert not np.allclose(corrected.global_model, plain.global_model, rtol=0, atol=1e-9)
    # the correction moves Ξ towards ∇F: the RFF correction error is below ‖∇F − ∇f_i‖²
    # (its value at c = 0, which round 1's log holds) on average over rounds 2–3
    assert np.mean(corrected.log.correction_error[1:]) < np.mean(corrected.log.correction_error[0])


def test_queries_and_floats_are_counted() -> None:
    problem = _problem(m=3, d=4)
    R, T, m, d, M, a = 3, 3, 3, 4, 40, 3
    run = fzoos(problem, **SMALL)
    np.testing.assert_array_equal(run.trace.function_queries, m * T * (1 + a))
    assert run.queries == R * m * T * (1 + a)
    np.testing.assert_array_equal(run.trace.floats_down, [m * d] + [m * (d + M)] * (R - 1))
    np.testing.assert_array_equal(run.trace.floats_up, m * (d + M))
    none = fzoos(problem, **SMALL | {"n_active": 0})
    assert none.queries == R * m * T


def test_distance_rule_matches_its_formula() -> None:
    problem = _problem(m=2, d=4)
    G, omega, eps = 2.0, 3.0, 0.01
    run = fzoos(
        problem, **SMALL | {"rounds": 2, "local_steps": 1}, gamma=corollary_c1_gamma(
            G=G, omega=omega, epsilon=eps), history="trajectory", record=True,
    )  # fmt: skip
    d, sigma2, m = 4, 1e-4, 2
    # round 1: no history, γ = G/(G + 2(ωκ + Nε)) with κ = 1
    np.testing.assert_allclose(run.log.gamma[0], G / (G + 2 * (omega + m * eps)), rtol=1e-14)
    # round 2 (T = 1, trajectory history): every client's history is {x_0}, so ι = ‖x_1 − x_0‖²
    x0, x1 = run.global_iterates[0], run.global_iterates[1]
    iota = float(np.sum((x1 - x0) ** 2))
    h = iota * np.exp(-iota) / 4.0
    expected = G / (G + 2 * (omega - 4 * omega * h / (d + sigma2 * d / 1.0) + m * eps))
    np.testing.assert_allclose(run.log.gamma[1], expected, rtol=1e-12)
    assert np.all((run.log.gamma > 0) & (run.log.gamma < 1))
    table = fzoos(
        problem, **SMALL, gamma=corollary1_gamma(G=1, omega=1, kappa=1, rho=0.5, epsilon=0)
    )
    assert table.log.gamma[0, 0, 0] == pytest.approx(1 / 3)
    assert table.log.gamma[1, 0, 0] == pytest.approx(1 / (1 + 2 * 0.5**3))


def test_same_seed_same_bits_on_any_executor() -> None:
    problem = _problem()
    kwargs = SMALL | {"rounds": 2, "noise": 0.1}
    batch = fzoos(problem, **kwargs, replicates=2)
    seeds = [np.random.SeedSequence(4, spawn_key=(r,)) for r in range(2)]
    for r in range(2):
        alone = fzoos(problem, **kwargs | {"seed": seeds[r]})
        np.testing.assert_array_equal(batch.replicate(r).global_model, alone.global_model)
        np.testing.assert_array_equal(batch.replicate(r).log.disparity, alone.log.disparity)
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(pool.map(lambda s: fzoos(problem, **kwargs | {"seed": s}), seeds))
    for r in range(2):
        np.testing.assert_array_equal(threaded[r].global_model, batch.replicate(r).global_model)
    assert not np.array_equal(batch.replicate(0).global_model, batch.replicate(1).global_model)


def test_divergence_names_round_client_and_step() -> None:
    problem = _problem(m=2, d=4, seed=1)
    with pytest.raises(DivergenceError, match=r"round \d+.*client \d, local step \d"):
        fzoos(problem, **SMALL | {"rounds": 30, "step_size": 1e3})


def test_failed_gp_update_raises_solver_error() -> None:
    # σ² = 0 and noiseless queries: the second step repeats no point, but a zero-width box
    # makes the active queries repeat the iterate exactly — a singular K.
    problem = _problem()
    with pytest.raises(SolverError, match="GP Cholesky"):
        fzoos(problem, **SMALL | {"box": 1e-300}, gp_noise=0.0)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"lengthscale": 0.0}, "lengthscale"),
        ({"gp_noise": -1e-3}, "gp_noise"),
        ({"num_features": 0}, "num_features"),
        ({"n_active": 13}, "n_active"),
        ({"n_active": -1}, "n_active"),
        ({"n_cand": 0}, "n_cand"),
        ({"box": 0.0}, "box"),
        ({"history": "active"}, "history"),
        ({"noise": -0.1}, "noise"),
        ({"gamma": 1.5}, "gamma"),
        ({"estimator": "exact", "gamma": corollary_c1_gamma(G=1, omega=1, epsilon=0)}, "gamma"),
    ],
)
def test_bad_input_is_refused_naming_the_rule(kwargs: dict[str, object], parameter: str) -> None:
    settings = SMALL | kwargs
    if settings.get("estimator") == "exact":
        for name in ("num_features", "n_active", "n_cand", "box"):
            settings.pop(name)
    with pytest.raises(ParameterError) as error:
        fzoos(_problem(), **settings)  # type: ignore[arg-type]
    assert error.value.parameter == parameter


def test_query_history_is_the_queries_made() -> None:
    # record=True keeps every client's queries: per local step the iterate then the n_active
    # active points; the first query of each round is the round's server model, every value is
    # f_i at its point (noiseless), and the RFF draw has the run's shape. A batch keeps none.
    problem = _problem()
    R, T, active = SMALL["rounds"], SMALL["local_steps"], SMALL["n_active"]
    run = fzoos(problem, **SMALL | {"record": True})
    history = run.history
    assert history is not None and run.global_iterates is not None
    m, d = problem.num_clients, problem.dimension
    assert history.per_step == 1 + active
    assert history.points.shape == (m, R * T * (1 + active), d)
    assert history.frequencies.shape == (SMALL["num_features"], d)
    for i in range(m):
        for r in range(R):
            first = history.points[i, r * T * (1 + active)]
            np.testing.assert_array_equal(first, run.global_iterates[r])
        expected = [problem.value(i, x) for x in history.points[i]]
        np.testing.assert_allclose(history.values[i], expected, rtol=1e-13, atol=1e-15)
    trajectory = fzoos(problem, **SMALL | {"record": True, "history": "trajectory"})
    assert trajectory.history is not None and trajectory.history.per_step == 1
    assert fzoos(problem, **SMALL).history is None
    assert fzoos(problem, **SMALL | {"record": True, "replicates": 2}).history is None
