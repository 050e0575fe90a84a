"""Finite-atom populations of the ffgb paper (reading guide §1, §2.0, §3.5, §5).

Theory asserted:
- the population answers the problem protocol: check_problem accepts it, the Euclidean gradients
  are the derivatives of the values (finite differences) and equal α_i ⊙ the functional
  gradient, F is the mean of the F_i, f* and the client optima satisfy their optimality
  conditions, the constants bound the Hessian as documented;
- f* is pointwise: per-atom Newton equals a generic scalar root finder (logistic), the closed
  form m_w/(1 + μ) (square), and softmax's stationarity;
- the families have the advertised structure: equal α_i (semi-heterogeneous), TV(α, α_i) =
  ε(1 − 1/N) (private atoms), identical q_i (covariate shift), and a sweep in ε changes only
  the marginals;
- the kernel's ∇R_i[g] equals the numpy twin for every loss and extension convention.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import ffgb as ref
from scipy.optimize import brentq

from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb import distances
from fedtheory.papers.ffgb.populations import (
    AtomPopulation,
    covariate_shift,
    dirichlet_mixture,
    private_atoms,
    semi_heterogeneous,
)
from fedtheory.problems import FederatedProblem, check_problem

POPULATIONS = {
    "logistic": lambda: semi_heterogeneous(num_atoms=6, num_clients=3, seed=1),
    "square": lambda: dirichlet_mixture(0.5, num_atoms=5, num_clients=3, loss="square", seed=2),
    "square-c3": lambda: semi_heterogeneous(
        num_atoms=4, num_clients=2, loss="square", outputs=3, seed=3
    ),
    "softmax": lambda: covariate_shift(
        0.3, num_atoms=4, num_clients=3, loss="softmax", outputs=3, seed=4
    ),
    "private": lambda: private_atoms(0.4, num_shared=4, num_clients=3, seed=5),
}


@pytest.mark.parametrize("name", POPULATIONS)
def test_the_population_answers_the_protocol(name: str) -> None:
    pop = POPULATIONS[name]()
    assert check_problem(pop) is pop
    assert isinstance(pop, FederatedProblem)
    rng = np.random.default_rng(0)
    w = rng.standard_normal(pop.dimension)
    step = 1e-6
    for i in range(pop.num_clients):
        gradient = pop.client_gradient(i, w)
        numeric = np.array(
            [
                (pop.client_value(i, w + step * e) - pop.client_value(i, w - step * e)) / (2 * step)
                for e in np.eye(pop.dimension)
            ]
        )
        np.testing.assert_allclose(gradient, numeric, atol=1e-8)
        functional = pop.risk_gradient(i, w).reshape(pop.num_atoms, -1) + pop.mu * w.reshape(
            pop.num_atoms, -1
        )
        on = pop.supports[i]
        np.testing.assert_allclose(
            gradient.reshape(pop.num_atoms, -1)[on],
            (pop.alpha[i][:, None] * functional)[on],
            rtol=1e-13,
            atol=1e-16,
        )
    assert pop.global_value(w) == pytest.approx(
        np.mean([pop.client_value(i, w) for i in range(pop.num_clients)]), rel=1e-14
    )
    assert np.abs(pop.global_gradient(pop.global_optimum())).max() < 1e-14
    for i, optimum in enumerate(pop.client_optima()):
        assert np.abs(pop.client_gradient(i, optimum)).max() < 1e-14


@pytest.mark.parametrize("name", POPULATIONS)
def test_constants_bound_the_hessian(name: str) -> None:
    pop = POPULATIONS[name]()
    constants = pop.constants()
    rng = np.random.default_rng(1)
    step = 1e-5
    for _ in range(3):
        w = 2 * rng.standard_normal(pop.dimension)
        hessian = np.array(
            [
                (pop.global_gradient(w + step * e) - pop.global_gradient(w - step * e)) / (2 * step)
                for e in np.eye(pop.dimension)
            ]
        )
        eigenvalues = np.linalg.eigvalsh(0.5 * (hessian + hessian.T))
        assert eigenvalues.max() <= constants["smoothness"] * (1 + 1e-6)
        assert eigenvalues.min() >= constants["strong_convexity"] * (1 - 1e-6) - 1e-9
    if pop.loss == "logistic":  # attained at w = 0: σ'(0) = 1/4
        alpha = pop.marginal
        assert constants["smoothness"] == pytest.approx(alpha.max() * (0.25 + pop.mu))


def test_logistic_optimum_is_the_pointwise_root() -> None:
    pop = dirichlet_mixture(0.7, num_atoms=8, num_clients=4, seed=7)
    q_w = (pop.alpha * pop.labels).sum(axis=0) / pop.alpha.sum(axis=0)
    for x, target in enumerate(q_w):
        root = brentq(
            lambda v, q=target: 1 / (1 + np.exp(-v)) + pop.mu * v - q, -50, 50, xtol=1e-15
        )
        assert pop.optimum[x] == pytest.approx(root, abs=1e-12)


def test_square_optimum_is_the_closed_form() -> None:
    pop = dirichlet_mixture(0.5, num_atoms=6, num_clients=3, loss="square", seed=8)
    m_w = (pop.alpha * pop.labels).sum(axis=0) / pop.alpha.sum(axis=0)
    np.testing.assert_allclose(pop.optimum, m_w / (1 + pop.mu), rtol=1e-14)


def test_error_is_the_alpha_weighted_distance_to_the_optimum() -> None:
    pop = semi_heterogeneous(num_atoms=5, num_clients=2, seed=0)
    f = pop.optimum + np.arange(5.0)
    assert pop.error(f) == pytest.approx(float(pop.marginal @ np.arange(5.0) ** 2))
    np.testing.assert_allclose(pop.error(np.stack([pop.optimum, f])), [0.0, pop.error(f)])


def test_families_have_their_structure() -> None:
    semi = semi_heterogeneous(num_atoms=7, num_clients=4, seed=0)
    assert np.all(semi.alpha == semi.alpha[0]) and not np.all(semi.labels == semi.labels[0])
    assert distances.omega_tv(semi.alpha) == 0.0
    for eps in (0.0, 0.2, 1.0):
        pop = private_atoms(eps, num_shared=5, num_clients=4, seed=1)
        tv = [distances.total_variation(pop.marginal, a) for a in pop.alpha]
        np.testing.assert_allclose(tv, eps * (1 - 1 / 4), atol=1e-15)
        np.testing.assert_allclose(
            pop.labels, private_atoms(0.5, num_shared=5, num_clients=4, seed=1).labels
        )
    shift = covariate_shift(0.4, num_atoms=6, num_clients=3, seed=2)
    assert np.all(shift.labels == shift.labels[0]) and np.all(shift.alpha > 0)
    assert distances.omega_tv(shift.alpha) > 0.0
    mixture = dirichlet_mixture(0.3, num_atoms=6, num_clients=3, seed=3)
    np.testing.assert_allclose(mixture.alpha.sum(axis=1), 1.0)
    np.testing.assert_array_equal(
        mixture.labels, dirichlet_mixture(0.6, num_atoms=6, num_clients=3, seed=3).labels
    )
    assert (
        dirichlet_mixture(0.0, num_atoms=6, num_clients=3, seed=3).alpha.std(axis=0).max() < 1e-16
    )


def test_adversarial_extension_pushes_away_from_the_optimum() -> None:
    pop = private_atoms(0.3, num_shared=4, num_clients=3, extension="adversarial", seed=0)
    for i in range(3):
        gradient = pop.risk_gradient(i, np.zeros(pop.num_atoms))
        off = ~pop.supports[i]
        assert np.all(gradient[off] == -1e6 * np.sign(pop.optimum[off]))


@pytest.mark.parametrize("name", POPULATIONS)
def test_loss_gradient_kernel_matches_the_twin(name: str) -> None:
    pop = POPULATIONS[name]()
    view = pop.kernel_view()
    rng = np.random.default_rng(3)
    c = pop.outputs
    labels = pop.labels.reshape(pop.num_clients, pop.num_atoms, c)
    extension = view.extension.reshape(pop.num_clients, pop.num_atoms, c)
    for i in range(pop.num_clients):
        g = 3 * rng.standard_normal(pop.dimension)
        out = np.empty(pop.dimension)
        type(view).loss_gradient(view, i, g, out)
        twin = ref.risk_gradient(pop.loss, pop.alpha[i], labels[i], extension[i], g.reshape(-1, c))
        np.testing.assert_allclose(out, twin.reshape(-1), rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(
            pop.risk_gradient(i, g).reshape(-1), twin.reshape(-1), rtol=1e-13, atol=1e-15
        )


def test_gradient_bound() -> None:
    assert semi_heterogeneous(num_atoms=3, num_clients=2, seed=0).G == 1.0
    soft = semi_heterogeneous(num_atoms=3, num_clients=2, loss="softmax", outputs=3, seed=0)
    assert pytest.approx(np.sqrt(2)) == soft.G
    square = semi_heterogeneous(num_atoms=3, num_clients=2, loss="square", seed=0)
    label_bound = float(np.abs(square.labels).max())
    assert pytest.approx(2 * label_bound) == square.G
    assert square.gradient_bound(radius=5.0) == pytest.approx(5.0 + label_bound)
    f = np.full(3, label_bound)
    for i in range(2):
        assert np.abs(square.risk_gradient(i, f)).max() <= square.G + 1e-15


def test_population_bad_input() -> None:
    alpha = np.full((2, 3), 1 / 3)
    q = np.full((2, 3), 0.5)
    with pytest.raises(ParameterError, match=r"alpha\[1\].*probability vector"):
        AtomPopulation(np.array([[1 / 3] * 3, [0.5, 0.5, 0.5]]), q, 0.1)
    with pytest.raises(ParameterError, match=r"alpha.*non-negative"):
        AtomPopulation(np.array([[1.5, -0.5, 0.0]] * 2), q, 0.1)
    with pytest.raises(ParameterError, match="mu"):
        AtomPopulation(alpha, q, -0.1)
    with pytest.raises(ParameterError, match=r"q_i\(x\)"):
        AtomPopulation(alpha, q + 0.6, 0.1)
    with pytest.raises(ParameterError, match="labels"):
        AtomPopulation(alpha, np.full((2, 4), 0.5), 0.1)
    with pytest.raises(ParameterError, match="loss"):
        AtomPopulation(alpha, q, 0.1, loss="hinge")
    with pytest.raises(ParameterError, match="extension"):
        AtomPopulation(alpha, q, 0.1, extension="mirror")
    with pytest.raises(ParameterError, match="extension_values"):
        AtomPopulation(alpha, q, 0.1, extension="values")
    with pytest.raises(ParameterError, match="softmax"):
        AtomPopulation(alpha, q, 0.1, loss="softmax")
    with pytest.raises(ParameterError, match="eps"):
        private_atoms(1.5, seed=0)
    with pytest.raises(ParameterError, match="outputs"):
        semi_heterogeneous(loss="logistic", outputs=2, seed=0)
    with pytest.raises(ParameterError, match="seed"):
        semi_heterogeneous(seed=None)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="client"):
        semi_heterogeneous(num_atoms=3, num_clients=2, seed=0).risk_gradient(2, np.zeros(3))
    zero_mu = AtomPopulation(alpha, np.array([[0.0, 0.5, 0.5], [0.0, 0.5, 0.5]]), 0.0)
    with pytest.raises(ParameterError, match="μ = 0"):
        _ = zero_mu.optimum
