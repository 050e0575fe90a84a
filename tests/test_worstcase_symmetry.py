"""The client-symmetric reduction (fedtheory.worstcase._symmetry): m equally weighted clients
solved as two give the worst case of the PEP of all m, and the lifted instances are instances
of m clients."""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.worstcase import quadratic_counterexample, worst_case
from fedtheory.worstcase._methods import setting_of
from fedtheory.worstcase._symmetry import (
    lift_instance,
    lift_quadratics,
    simplex,
    symmetric_reduction,
)

BASE = {"T": 2, "L": 1.0, "mu": 0.1, "zeta2": 1.0}

CASES = [
    ("fedavg", {"m": 3, "K": 2, "eta": 0.5}, "distance"),
    ("fedavg", {"m": 4, "K": 1, "eta": 0.9, "eta_g": 1.5}, "function"),
    ("scaffold", {"m": 3, "K": 2, "eta": 0.5}, "distance"),
    ("fedprox", {"m": 3, "K": 2, "eta": 0.5, "lam": 0.3}, "function"),
    ("fedprox-exact", {"m": 3, "lam": 0.5}, "distance"),
    ("fedavg", {"m": 3, "K": 2, "eta": 0.5, "eps2": 0.01}, "distance"),
    ("fedavg", {"m": 3, "K": 2, "eta": 0.5, "delta2": 0.04}, "function-min"),
    ("fedavg", {"m": 3, "K": 2, "eta": 0.5, "heterogeneity": "dissimilarity"}, "distance"),
]


def _accuracy(*results):
    return sum(r.as_measurement()["accuracy"] for r in results)


@pytest.mark.parametrize(("method", "extra", "measure"), CASES)
def test_two_clients_give_the_worst_case_of_m(method, extra, measure):
    parameters = {**BASE, **extra}
    reduced = worst_case(method, measure=measure, **parameters)
    full = worst_case(method, measure=measure, exploit_symmetry=False, **parameters)
    assert reduced.solved_clients == 2
    assert full.solved_clients is None
    assert reduced.parameters == full.parameters
    assert reduced.gram_size < full.gram_size
    # both are the same SDP up to the solvers' accuracy (a relative 1e-6 of the value)
    assert abs(reduced.value - full.value) <= _accuracy(reduced, full) + 1e-6 * full.value


def test_reduction_applies_only_to_equal_weights_and_distinct_clients():
    def reduce(**extra):
        return symmetric_reduction(setting_of("fedavg", K=2, eta=0.5, **{**BASE, "m": 3, **extra}))

    two = reduce()
    assert two is not None and two.m == 2 and two.q == (0.5, 0.5)
    assert reduce(weights=(1 / 3, 1 / 3, 1 / 3)) is not None
    assert reduce(weights=(0.5, 0.25, 0.25)) is None
    assert reduce(heterogeneity="identical") is None
    assert reduce(m=2) is None
    skewed = worst_case("fedavg", K=1, eta=0.5, **{**BASE, "m": 3}, weights=(0.5, 0.3, 0.2))
    assert skewed.solved_clients is None


@pytest.mark.parametrize("m", [2, 3, 5])
def test_simplex_rows_are_unit_and_sum_to_zero(m):
    u = simplex(m)
    np.testing.assert_allclose(np.sum(u, axis=0), 0.0, atol=1e-15)
    gram = u @ u.T
    expected = np.where(np.eye(m, dtype=bool), 1.0, -1.0 / (m - 1))
    np.testing.assert_allclose(gram, expected, atol=1e-14)


def test_lifted_instance_has_the_average_client_gram_and_the_same_server_models():
    result = worst_case("fedavg", K=2, eta=0.5, **{**BASE, "m": 2})
    two = result.instance
    lifted = lift_instance(two, 5)
    assert len(lifted.clients) == 5
    first, second = two.clients
    stacked = [np.concatenate([c.points, c.gradients]) for c in (first, second)]
    average_gram = 0.5 * (stacked[0] @ stacked[0].T + stacked[1] @ stacked[1].T)
    for client in lifted.clients:
        rows = np.concatenate([client.points, client.gradients])
        np.testing.assert_allclose(rows @ rows.T, average_gram, atol=1e-12)
        np.testing.assert_allclose(client.values, 0.5 * (first.values + second.values))
    # the average over the m clients is the average over the two
    mean_points = np.mean([c.points for c in lifted.clients], axis=0)
    n = two.ambient_dimension
    np.testing.assert_allclose(mean_points[:, :n], 0.5 * (first.points + second.points))
    np.testing.assert_allclose(mean_points[:, n:], 0.0, atol=1e-14)
    # server models and x* are shared points: no deviation part
    np.testing.assert_allclose(lifted.iterates[:, :n], two.iterates)
    np.testing.assert_allclose(lifted.iterates[:, n:], 0.0)
    np.testing.assert_allclose(lifted.x_star[:n], two.x_star)


def _fedavg(hessians, minimisers, x0, *, K, T, eta):
    """Plain FedAvg with exact gradients on quadratic clients (uniform weights)."""
    x = x0
    for _ in range(T):
        local = []
        for Q, a in zip(hessians, minimisers, strict=True):
            y = x
            for _ in range(K):
                y = y - eta * Q @ (y - a)
            local.append(y)
        x = np.mean(local, axis=0)
    return x


@pytest.mark.parametrize("m", [3, 4])
def test_lifted_quadratics_run_as_the_two_clients(m):
    rng = np.random.default_rng(7)
    d, mu, L = 3, 0.1, 1.0
    hessians = []
    for _ in range(2):
        basis = np.linalg.qr(rng.standard_normal((d, d)))[0]
        hessians.append((basis * rng.uniform(mu, L, d)) @ basis.T)
    minimisers = rng.standard_normal((2, d))
    x0 = rng.standard_normal(d)
    lifted_q, lifted_a, lifted_x0 = lift_quadratics(np.array(hessians), minimisers, x0, m)
    assert lifted_q.shape == (m, d * (1 + m), d * (1 + m))
    for Q in lifted_q:
        eigenvalues = np.linalg.eigvalsh(Q)
        assert eigenvalues.min() >= mu - 1e-12 and eigenvalues.max() <= L + 1e-12
    two = _fedavg(hessians, minimisers, x0, K=3, T=4, eta=0.7)
    many = _fedavg(lifted_q, lifted_a, lifted_x0, K=3, T=4, eta=0.7)
    np.testing.assert_allclose(many[:d], two, atol=1e-13)
    np.testing.assert_allclose(many[d:], 0.0, atol=1e-13)
    # heterogeneity at the optimum is the two clients' average
    x_star = np.linalg.solve(
        sum(hessians), sum(Q @ a for Q, a in zip(hessians, minimisers, strict=True))
    )
    spread_two = np.mean(
        [np.sum((Q @ (x_star - a)) ** 2) for Q, a in zip(hessians, minimisers, strict=True)]
    )
    lifted_star = np.concatenate([x_star, np.zeros(d * m)])
    spread_m = np.mean(
        [np.sum((Q @ (lifted_star - a)) ** 2) for Q, a in zip(lifted_q, lifted_a, strict=True)]
    )
    np.testing.assert_allclose(spread_m, spread_two, rtol=1e-12)


def test_counterexample_of_three_clients_runs_on_three_lifted_clients():
    cx = quadratic_counterexample("fedavg", m=3, K=2, eta=0.5, **BASE)
    assert cx.problem.num_clients == 3
    assert cx.worst_case.solved_clients == 2
    assert cx.reproduced
    two = quadratic_counterexample("fedavg", m=2, K=2, eta=0.5, **BASE)
    assert abs(cx.measured - two.measured) <= 1e-12 * two.measured


def test_exploit_symmetry_must_be_a_bool():
    with pytest.raises(ParameterError, match="exploit_symmetry"):
        worst_case("fedavg", K=1, eta=0.5, exploit_symmetry="yes", **{**BASE, "m": 3})
