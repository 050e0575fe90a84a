"""The non-convex regulariser ν Σ_i θ_i²/(1 + θ_i²) of GroupedClassification (guide §5 V14).

Theory asserted:
- F_k, ∇F_k and the weighted Hessian include the regulariser (finite differences); its Hessian
  ν(2 − 6θ²)/(1 + θ²)³ lies in [−ν/2, 2ν], so L grows by 2ν and μ = max(ρ − ν/2, 0);
- the kernel view's sample losses, gradients, client loss and minibatch steps equal the numpy
  twins (tests/reference/gifair.py) with ν > 0, and the compiled GIFAIR-FL equals the twin's
  Algorithm 2;
- the V14 instance is non-convex: a piece of H has a negative Hessian eigenvalue at the start;
- the claim file's vectorised trajectory oracles equal the problem's oracles, and its E‖g_k‖²
  is the mean of the per-sample squared gradient norms;
- Newton and the cvxpy optima refuse a problem that is not certified convex.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from reference import gifair as twin

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair import fair_optimum
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.papers.gifair.algorithms import decaying_steps, gifair_global
from fedtheory.problems._oracle import (
    client_loss,
    client_samples,
    minibatch_step,
    sample_count,
    sample_gradient,
    sample_loss,
)
from verification.gifair import nonconvex as claim

NU = 0.1


def _fd(f, theta: np.ndarray, h: float = 1e-6) -> np.ndarray:  # type: ignore[no-untyped-def]
    cols = []
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        cols.append((np.asarray(f(theta + e)) - np.asarray(f(theta - e))) / (2 * h))
    return np.stack(cols, axis=-1)


def _softmax_problem() -> object:
    base = claim.nonconvex_instance(0)
    y = (base.labels > 0).astype(np.int64) + (base.features[:, :, 0] > 1).astype(np.int64)
    return replace(base, loss="softmax", classes=3, labels=y, test_labels=y)


PROBLEMS = {"logistic": lambda: claim.nonconvex_instance(0), "softmax": _softmax_problem}


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_oracles_include_the_regulariser(name: str) -> None:
    problem = PROBLEMS[name]()
    assert problem.nonconvex == NU
    theta = 0.8 * np.random.default_rng(1).standard_normal(problem.dimension)
    np.testing.assert_allclose(
        problem.client_gradients(theta), _fd(problem.client_values, theta), rtol=1e-6, atol=1e-7
    )
    w = np.random.default_rng(2).dirichlet(np.ones(problem.num_clients))
    np.testing.assert_allclose(
        problem.weighted_hessian(theta, w),
        _fd(lambda t: w @ problem.client_gradients(t), theta),
        atol=1e-6,
    )
    convex = replace(problem, nonconvex=0.0)
    bumps = NU * float(np.sum(theta**2 / (1 + theta**2)))
    np.testing.assert_allclose(
        problem.client_values(theta) - convex.client_values(theta), bumps, rtol=1e-12
    )
    constants, base = problem.constants(), convex.constants()
    assert constants["smoothness"] == pytest.approx(base["smoothness"] + 2 * NU, rel=1e-14)
    assert constants["strong_convexity"] == max(problem.ridge - NU / 2, 0.0) == 0.0


def test_regulariser_curvature_range() -> None:
    t = np.linspace(-5, 5, 20001)
    curvature = (2 - 6 * t**2) / (1 + t**2) ** 3
    assert curvature.max() == pytest.approx(2.0) and curvature.min() == pytest.approx(-0.5, 1e-6)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_kernel_view_matches_the_twin(name: str) -> None:
    problem = PROBLEMS[name]()
    view = kernel_view(problem)
    rng = np.random.default_rng(3)
    out = np.empty(problem.dimension)
    for k in range(problem.num_clients):
        w = 1.5 * rng.standard_normal(problem.dimension)
        samples = client_samples(view, 0, k)
        n = int(problem.counts[k])
        X, y = problem.features[k, :n], problem.labels[k, :n]
        args = (problem.loss, X, y, problem.classes, problem.ridge, w, NU)
        losses = twin.classification_losses(*args)
        gradients = twin.classification_gradients(*args)
        assert sample_count(samples) == n
        for j in range(n):
            assert sample_loss(samples, j, w) == pytest.approx(losses[j], rel=1e-12)
            sample_gradient(samples, j, w, out)
            np.testing.assert_allclose(out, gradients[j], rtol=1e-11, atol=1e-12)
        assert client_loss(samples, w) == pytest.approx(losses.mean(), rel=1e-12)
        assert client_loss(samples, w) == pytest.approx(problem.client_values(w)[k], rel=1e-12)
        rows = np.array([0, 2, 5])
        for lam in (0.0, 0.3):
            anchor = rng.standard_normal(problem.dimension)
            stepped = w.copy()
            minibatch_step(samples, rows, stepped, anchor, 0.1, lam, np.empty(64))
            expected = w - 0.1 * (gradients[rows].mean(axis=0) + lam * (w - anchor))
            np.testing.assert_allclose(stepped, expected, rtol=1e-12, atol=1e-13)


def test_gifair_kernel_matches_the_twin_with_the_regulariser() -> None:
    problem = claim.nonconvex_instance(0)
    lam = 0.5 * problem.groups.lambda_max
    rounds, E, batch, seed = 5, 3, 2, 4
    schedule = decaying_steps(1.0, 6.0)
    init = claim.start(problem)
    run = gifair_global(problem, lam, rounds=rounds, local_steps=E, step_size=schedule,
                        batch=batch, init=init, seed=seed, record=True)  # fmt: skip
    from test_gifair_algorithms import _replay

    K = problem.num_clients
    stream, trainers, uploaders = _replay(seed, K, rounds, None, "p_with_replacement",
                                          problem.groups.p)  # fmt: skip
    expected = twin.gifair_rounds(
        problem, lam, steps=schedule(np.arange(rounds * E)).reshape(rounds, E), local_steps=E,
        batch=batch, weighted=True, stale=False, trainers=trainers, uploaders=uploaders,
        init=init, stream=stream,
    )  # fmt: skip
    np.testing.assert_allclose(run.global_iterates, expected["global_iterates"], rtol=1e-10,
                               atol=1e-12)  # fmt: skip
    convex = gifair_global(replace(problem, nonconvex=0.0), lam, rounds=rounds, local_steps=E,
                           step_size=schedule, batch=batch, init=init, seed=seed)  # fmt: skip
    assert not np.allclose(convex.global_model, run.global_model)


def test_instance_is_nonconvex_at_the_start() -> None:
    problem = claim.nonconvex_instance(1)
    theta = claim.start(problem)
    for q in (problem.groups.p, problem.groups.weights(0.05, problem.client_values(theta))):
        assert np.linalg.eigvalsh(problem.weighted_hessian(theta, q)).min() < -0.4 * NU


def test_trajectory_oracles_match_the_problem() -> None:
    problem = claim.nonconvex_instance(1)
    rng = np.random.default_rng(5)
    iterates = rng.standard_normal((4, problem.dimension))
    values, gradients, moments = claim.trajectory_oracles(problem, iterates)
    for t, theta in enumerate(iterates):
        np.testing.assert_allclose(values[t], problem.client_values(theta), rtol=1e-12)
        np.testing.assert_allclose(gradients[t], problem.client_gradients(theta), atol=1e-13)
        for k in range(problem.num_clients):
            n = int(problem.counts[k])
            args = ("logistic", problem.features[k, :n], problem.labels[k, :n], 2,
                    problem.ridge, theta, problem.nonconvex)  # fmt: skip
            per_sample = twin.classification_gradients(*args)
            mean_square = float((per_sample**2).sum(axis=1).mean())
            assert moments[t, k] == pytest.approx(mean_square, rel=1e-11)


def test_certified_minima_are_below_the_objective() -> None:
    problem = claim.nonconvex_instance(1)
    clients, total = claim._certified_minima(problem)
    rng = np.random.default_rng(6)
    for theta in rng.standard_normal((20, problem.dimension)):
        assert np.all(problem.client_values(theta) >= clients)
        assert problem.groups.objective(0.05, problem.client_values(theta)) >= total


def test_convex_solvers_refuse_the_nonconvex_problem() -> None:
    problem = claim.nonconvex_instance(1)
    with pytest.raises(ParameterError, match="ν < 2ρ"):
        problem.global_optimum()
    with pytest.raises(ParameterError, match="ν = 0"):
        fair_optimum(problem, 0.0)
    with pytest.raises(ParameterError, match="nonconvex"):
        replace(problem, nonconvex=-1.0)
