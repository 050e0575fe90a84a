"""The one problem protocol (DESIGN §3): every input type answers it, and its answers are the
theory's — gradients are the derivatives of the values, F is the p-weighted sum of the clients'
objectives (plus the server's share), the optima are minimisers over the domain (KKT on a ball),
and the constants bound the Hessian as their definitions say.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd import logistic_latent_erm, quadratic_latent_erm
from fedtheory.problems import (
    FederatedDataset,
    FederatedProblem,
    check_problem,
    isotropic_quadratic,
    random_quadratic,
    two_eigenvalue_quadratic,
)


def _dataset(loss: str, radius: float = np.inf, n: int = 40, seed: int = 0) -> FederatedDataset:
    """Noisy labels on 35–40 samples in d = 3: the logistic ERMs exist (not separable)."""
    rng = np.random.default_rng(seed)
    m, d = 3, 3
    features = rng.standard_normal((m, n, d))
    if loss == "logistic":
        targets = np.where(
            features @ np.array([0.3, -0.2, 0.1]) + rng.standard_normal((m, n)) > 0, 1.0, -1.0
        )
    elif loss == "squared":
        targets = features @ np.array([1.0, -2.0, 0.5]) + 0.3 * rng.standard_normal((m, n))
    else:
        targets = np.zeros((m, n))
    counts = [n, n - 2, n - 5]
    for i, c in enumerate(counts):
        features[i, c:] = 0.0
        targets[i, c:] = 0.0
    return FederatedDataset(features, targets, counts, loss, radius)


PROBLEMS = {
    "dataset-mean": lambda: _dataset("mean"),
    "dataset-squared": lambda: _dataset("squared"),
    "dataset-logistic": lambda: _dataset("logistic"),
    "dataset-squared-ball": lambda: _dataset("squared", radius=0.5),
    "dataset-logistic-ball": lambda: _dataset("logistic", radius=0.2),
    "dataset-mean-ball": lambda: _dataset("mean", radius=0.05),
    "quadratic": lambda: random_quadratic(4, L=10.0, mu=1.0, seed=1),
    "two-eigenvalue": lambda: two_eigenvalue_quadratic(L=3.0, mu=1.0),
    "isotropic": lambda: isotropic_quadratic(
        3, mu=2.0, sigma=1.0, radius=5.0, x_star_norm=1.0, seed=2
    ),
    "lvm-a": lambda: logistic_latent_erm(4, 6, 5, 3, seed=3),
    "lvm-q": lambda: quadratic_latent_erm(4, 6, 5, 4, seed=4),
}


def _radius(problem: Any) -> float:
    return float(getattr(problem, "radius", np.inf))


def _fd_gradient(f: Any, w: np.ndarray, h: float = 1e-6) -> np.ndarray:
    out = np.empty_like(w)
    for k in range(w.size):
        e = np.zeros_like(w)
        e[k] = h
        out[k] = (f(w + e) - f(w - e)) / (2 * h)
    return out


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_input_type_answers_the_protocol(name: str) -> None:
    problem = PROBLEMS[name]()
    assert isinstance(problem, FederatedProblem)
    assert check_problem(problem) is problem
    m, d = problem.num_clients, problem.dimension
    p = problem.client_weights
    assert p.shape == (m,) and np.all(p > 0) and p.sum() <= 1 + 1e-12
    constants = problem.constants()
    assert constants["smoothness"] >= constants["strong_convexity"] >= 0
    assert problem.global_optimum().shape == (d,)
    assert problem.client_optima().shape == (m, d)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_gradients_are_derivatives_of_the_values(name: str) -> None:
    problem = PROBLEMS[name]()
    rng = np.random.default_rng(5)
    w = 0.3 * rng.standard_normal(problem.dimension)
    np.testing.assert_allclose(
        problem.global_gradient(w), _fd_gradient(problem.global_value, w), rtol=1e-6, atol=1e-8
    )
    for i in range(problem.num_clients):
        np.testing.assert_allclose(
            problem.client_gradient(i, w),
            _fd_gradient(lambda v, i=i: problem.client_value(i, v), w),
            rtol=1e-6,
            atol=1e-8,
        )


@pytest.mark.parametrize("name", [n for n in sorted(PROBLEMS) if n.startswith("dataset")])
def test_global_objective_is_the_weighted_sum_of_the_clients(name: str) -> None:
    problem = PROBLEMS[name]()
    w = np.array([0.2, -0.1, 0.4])
    values = [problem.client_value(i, w) for i in range(problem.num_clients)]
    assert problem.global_value(w) == pytest.approx(
        float(problem.client_weights @ values), rel=1e-13
    )


def test_latent_erm_global_objective_adds_the_server_share() -> None:
    problem = PROBLEMS["lvm-a"]()
    w = np.array([0.2, -0.1, 0.4])
    clients = float(problem.client_weights @ [problem.client_value(i, w) for i in range(problem.m)])
    server = problem.server_size / problem.n * float(np.mean(problem.loss(problem.server, w)))
    assert problem.global_value(w) == pytest.approx(clients + server, rel=1e-13)


def _kkt(gradient: np.ndarray, w: np.ndarray, radius: float) -> None:
    """Stationary inside the ball; on its sphere, −∇ points outwards (∇ = −νw, ν ≥ 0)."""
    scale = max(1.0, float(np.linalg.norm(gradient)))
    if np.linalg.norm(w) < radius * (1 - 1e-9):
        assert np.linalg.norm(gradient) <= 1e-7 * scale
        return
    nu = -float(gradient @ w) / float(w @ w)
    assert nu >= -1e-9
    assert np.linalg.norm(gradient + nu * w) <= 1e-7 * scale


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_optima_satisfy_the_optimality_conditions(name: str) -> None:
    problem = PROBLEMS[name]()
    radius = _radius(problem)
    w_star = problem.global_optimum()
    _kkt(problem.global_gradient(w_star), w_star, radius)
    for i, w_i in enumerate(problem.client_optima()):
        _kkt(problem.client_gradient(i, w_i), w_i, radius)
    rng = np.random.default_rng(6)
    for _ in range(20):  # no feasible point does better
        w = rng.standard_normal(problem.dimension)
        if np.linalg.norm(w) > radius:
            w *= radius / np.linalg.norm(w)
        assert problem.global_value(w) >= problem.global_value(w_star) - 1e-12


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_constants_bound_the_hessian(name: str) -> None:
    """μ ≤ λ_min(∇²F(w)) and λ_max(∇²F(w)) ≤ L at random points (Hessian by differences)."""
    problem = PROBLEMS[name]()
    constants = problem.constants()
    rng = np.random.default_rng(7)
    for _ in range(5):
        w = rng.standard_normal(problem.dimension)
        hessian = np.array(
            [
                _fd_gradient(lambda v, k=k: problem.global_gradient(v)[k], w, 1e-5)
                for k in range(w.size)
            ]
        )
        eigen = np.linalg.eigvalsh(0.5 * (hessian + hessian.T))
        assert eigen[-1] <= constants["smoothness"] * (1 + 1e-6) + 1e-8
        assert eigen[0] >= constants["strong_convexity"] * (1 - 1e-6) - 1e-8


def test_check_problem_names_the_missing_member() -> None:
    class Half:
        num_clients = 1
        dimension = 2

    with pytest.raises(ParameterError, match="client_weights"):
        check_problem(Half())
    assert not isinstance(Half(), FederatedProblem)


def test_client_indices_are_checked() -> None:
    for name in ("dataset-mean", "quadratic", "lvm-q"):
        problem = PROBLEMS[name]()
        with pytest.raises(ParameterError, match="client"):
            problem.client_value(problem.num_clients, np.zeros(problem.dimension))
        with pytest.raises(ParameterError, match="w"):
            problem.client_gradient(0, np.zeros(problem.dimension + 1))
