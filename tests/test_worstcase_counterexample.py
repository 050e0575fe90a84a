"""Counterexamples that run (issue 16, item 2): quadratic clients attaining a PEP worst case.

The PEP over quadratic clients is turned into explicit clients f_i(x) = ½(x − a_i)ᵀQ_i(x − a_i)
(:class:`~fedtheory.problems.FederatedQuadratic`) on which the toolkit's own round loop must
reproduce the PEP value to 1e−6 relative; the convex and quadratic worst cases are compared to
say whether quadratics attain the class worst case. Known values: GD's distance rate
max(|1−ηL|, |1−ημ|)^{2T} R² (attained by a quadratic, Taylor, Hendrickx & Glineur 2017); FedAvg
with heterogeneous clients, m = 2, K = 4, T = 3, L = 1, μ = 0.1, η = 0.5, ζ² = 1: 1.2539 over
smooth strongly convex clients, 1.1400 over quadratics (not attained).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.problems import FederatedQuadratic, check_problem, federated_quadratic
from fedtheory.worstcase import (
    Counterexample,
    PrimalInstance,
    gd_worst_case,
    quadratic_counterexample,
)
from fedtheory.worstcase import _counterexample as cx_module
from fedtheory.worstcase import _methods as methods_module
from fedtheory.worstcase._methods import setting_of, solve_setting

REL = 1e-6
GD = {"T": 3, "L": 1.0, "mu": 0.1, "eta": 1.5}


def gd_rate(T: int, L: float, mu: float, eta: float, R2: float = 1.0) -> float:
    return max(abs(1 - eta * L), abs(1 - eta * mu)) ** (2 * T) * R2


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)


def replay_fedavg(
    problem: FederatedQuadratic,
    x0: np.ndarray,
    *,
    K: int,
    T: int,
    eta: float,
    eta_g: float = 1.0,
    lam: float = 0.0,
) -> np.ndarray:
    """An independent numpy FedAvg / FedProx (gradient local steps) on the problem's oracle."""
    x = np.array(x0, dtype=float)
    for _ in range(T):
        update = np.zeros_like(x)
        for i, q in enumerate(problem.client_weights):
            y = x.copy()
            for _ in range(K):
                y = y - eta * (problem.client_gradient(i, y) + lam * (y - x))
            update += q * (y - x)
        x = x + eta_g * update
    return x


def check_instance(cx: Counterexample, *, R2: float = 1.0, zeta2: float = 0.0) -> None:
    """The clients are in the class and the start and heterogeneity constraints hold exactly."""
    p = cx.problem
    mu, L = cx.parameters["mu"], cx.parameters["L"]
    eigenvalues = np.linalg.eigvalsh(p.hessians)
    assert eigenvalues.min() >= mu * (1 - 1e-12) and eigenvalues.max() <= L * (1 + 1e-12)
    x_star = p.global_optimum()
    assert np.linalg.norm(p.global_gradient(x_star)) <= 1e-12
    assert np.sum((cx.x0 - x_star) ** 2) <= R2 * (1 + 1e-12)
    assert p.constants()["heterogeneity"] <= zeta2 * (1 + 1e-12) + 1e-24


# --------------------------------------------------------------------------- GD


def test_gd_distance_worst_case_is_a_quadratic_the_run_reproduces() -> None:
    cx = quadratic_counterexample("gd", **GD)
    exact = gd_rate(**GD)
    assert cx.attained
    assert rel(cx.class_value, exact) <= REL and rel(cx.pep_value, exact) <= REL
    assert cx.reproduced and cx.relative_difference <= REL
    assert rel(cx.measured, exact) <= REL
    # the run is the toolkit's FedAvg (one client, one local step) with T rounds
    assert cx.run.algorithm == "fedavg" and cx.run.global_iterates.shape[0] == GD["T"] + 1
    replay = replay_fedavg(cx.problem, cx.x0, K=1, T=GD["T"], eta=GD["eta"])
    np.testing.assert_allclose(cx.run.global_model, replay, rtol=0, atol=1e-12)
    check_instance(cx)
    # timings are reported for every stage
    assert set(cx.seconds) == {"solve", "fit", "refine", "run"}


def test_gd_with_clarabel_and_from_a_worst_case() -> None:
    result = gd_worst_case(GD["T"], GD["L"], GD["mu"], GD["eta"], solver="CLARABEL")
    cx = quadratic_counterexample(result)
    assert cx.solver == "CLARABEL" and cx.class_worst_case is result
    assert cx.attained and cx.reproduced
    assert rel(cx.measured, gd_rate(**GD)) <= 1e-9  # the refined instance is exact


def test_gd_function_value_of_step_one_over_L_is_not_attained_by_quadratics() -> None:
    """THG 2017, Thm 3: the worst case L R²/(4T + 2) of step 1/L is a Huber-like function; the
    quadratic worst case max_λ λ(1 − λ/L)^{2T}/2 is smaller (0.04096 for T = 2, L = 1)."""
    cx = quadratic_counterexample("gd", measure="function", T=2, L=1.0, mu=0.0, eta=1.0)
    assert rel(cx.class_value, 1.0 / 10) <= REL
    quadratic = max(0.5 * lam * (1 - lam) ** 4 for lam in np.linspace(0, 1, 100_001))
    assert rel(cx.pep_value, quadratic) <= 1e-6
    assert not cx.attained
    assert cx.reproduced


# --------------------------------------------------------------------------- FedAvg


def test_fedavg_identical_optimum_is_attained_by_quadratics() -> None:
    params = {"m": 2, "K": 2, "T": 2, "L": 1.0, "mu": 0.1, "eta": 0.5, "zeta2": 0.0}
    cx = quadratic_counterexample("fedavg", **params)
    assert cx.attained and cx.reproduced
    assert rel(cx.measured, cx.class_value) <= REL
    check_instance(cx)
    replay = replay_fedavg(cx.problem, cx.x0, K=2, T=2, eta=0.5)
    np.testing.assert_allclose(cx.run.global_model, replay, rtol=0, atol=1e-12)


def test_heterogeneous_fedavg_is_not_attained_and_the_quadratic_value_still_runs() -> None:
    params = {"m": 2, "K": 4, "T": 3, "L": 1.0, "mu": 0.1, "eta": 0.5, "zeta2": 1.0}
    cx = quadratic_counterexample("fedavg", **params)
    assert abs(cx.class_value - 1.2539) < 1e-4 and abs(cx.pep_value - 1.1400) < 1e-4
    assert not cx.attained
    assert cx.reproduced and cx.relative_difference <= REL
    check_instance(cx, zeta2=1.0)
    replay = replay_fedavg(cx.problem, cx.x0, K=4, T=3, eta=0.5)
    np.testing.assert_allclose(cx.run.global_model, replay, rtol=0, atol=1e-12)


def test_heterogeneous_fedavg_with_clarabel_weights_and_server_step() -> None:
    params = {"m": 2, "K": 2, "T": 2, "L": 1.0, "mu": 0.1, "eta": 0.5, "zeta2": 0.5}
    cx = quadratic_counterexample(
        "fedavg", solver="CLARABEL", weights=[0.3, 0.7], eta_g=1.5, **params
    )
    assert cx.reproduced and not cx.attained
    assert cx.problem.client_weights.tolist() == [0.3, 0.7]
    check_instance(cx, zeta2=0.5)
    replay = replay_fedavg(cx.problem, cx.x0, K=2, T=2, eta=0.5, eta_g=1.5)
    np.testing.assert_allclose(cx.run.global_model, replay, rtol=0, atol=1e-12)


def test_fedprox_gradient_steps_run_on_the_engine() -> None:
    params = {"m": 2, "K": 2, "T": 2, "L": 1.0, "mu": 0.1, "eta": 0.5, "lam": 0.3, "zeta2": 0.4}
    cx = quadratic_counterexample("fedprox", solver="CLARABEL", **params)
    assert cx.reproduced
    replay = replay_fedavg(cx.problem, cx.x0, K=2, T=2, eta=0.5, lam=0.3)
    np.testing.assert_allclose(cx.run.global_model, replay, rtol=0, atol=1e-12)


def test_function_measure_from_an_initial_gap() -> None:
    """F(x_0) − F* ≤ Δ0, measure F(x_T) − F*: GD with η = 1/L contracts the gap by (1 − ημ)^{2T}
    on the μ-direction of a quadratic (attained)."""
    cx = quadratic_counterexample("gd", measure="function", T=3, L=1.0, mu=0.1, eta=1.0, Delta0=2.0)
    assert cx.attained and cx.reproduced
    assert rel(cx.measured, 2.0 * 0.9**6) <= 1e-9
    assert cx.problem.gap(cx.x0) <= 2.0 * (1 + 1e-12)


# --------------------------------------------------------------------------- pieces


def test_primal_instance_holds_the_worst_case_coordinates() -> None:
    setting = setting_of("gd", functions="quadratic", **GD)
    result = solve_setting(setting, solver="SCS")
    instance = result.instance
    assert isinstance(instance, PrimalInstance) and "instance" not in repr(result)
    assert instance.x_star is not None and instance.iterates.shape == (
        GD["T"] + 1,
        result.gram_size,
    )
    assert math.isclose(np.sum((instance.x0 - instance.x_star) ** 2), 1.0, rel_tol=1e-6)
    assert rel(np.sum((instance.iterates[-1] - instance.x_star) ** 2), result.value) <= REL
    (client,) = instance.clients
    assert client.stationary[0] and np.allclose(client.gradients[client.stationary], 0)
    # x_{t+1} = x_t − η g_t on the queried points
    queried = ~client.stationary
    steps = instance.iterates[:-1] - GD["eta"] * client.gradients[queried]
    np.testing.assert_allclose(steps, instance.iterates[1:], atol=1e-6)


def test_two_ball_maximum_against_a_grid() -> None:
    rng = np.random.default_rng(0)
    matrices = [(lambda M: M @ M.T)(rng.standard_normal((4, 4))) for _ in range(3)]
    lone = (lambda M: M @ M.T)(rng.standard_normal((2, 2)))
    zero = np.zeros((2, 2))
    matrices += [np.block([[lone, zero], [zero, zero]]), np.block([[zero, zero], [zero, lone]])]
    for H in matrices:
        w, dual = cx_module._two_ball_max(H, 2)
        assert max(np.linalg.norm(w[:2]), np.linalg.norm(w[2:])) <= 1 + 1e-12
        value = float(w @ H @ w)
        angles = np.linspace(0, 2 * np.pi, 1441)
        circle = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        grid = float(
            np.max(
                np.einsum("aj,jk,ak->a", circle, H[:2, :2], circle)[:, None]
                + 2 * circle @ H[:2, 2:] @ circle.T
                + np.einsum("bj,jk,bk->b", circle, H[2:, 2:], circle)[None, :]
            )
        )
        assert grid <= value * (1 + 1e-12) and value >= grid
        assert abs(dual - value) <= 1e-10 * value


def test_federated_quadratic_problem_and_its_dataset() -> None:
    rng = np.random.default_rng(1)
    m, d = 3, 4
    hessians = []
    for _ in range(m):
        M = rng.standard_normal((d, d))
        hessians.append(M @ M.T + 0.1 * np.eye(d))
    minimisers = rng.standard_normal((m, d))
    problem = federated_quadratic(
        hessians, minimisers, offsets=[1.0, 2.0, 3.0], weights=[0.2, 0.3, 0.5]
    )
    check_problem(problem)
    w = rng.standard_normal(d)
    x_star = problem.global_optimum()
    assert np.linalg.norm(problem.global_gradient(x_star)) <= 1e-10
    assert math.isclose(problem.gap(w), problem.global_value(w) - problem.global_value(x_star))
    data = problem.dataset()
    for i in range(m):
        np.testing.assert_allclose(
            data.client_gradient(i, w), problem.client_gradient(i, w), atol=1e-10
        )
        assert math.isclose(
            data.client_value(i, w) + problem.offsets[i], problem.client_value(i, w), rel_tol=1e-10
        )
    np.testing.assert_allclose(problem.client_optima(), minimisers)
    constants = problem.constants()
    assert constants["client_strong_convexity"] >= 0.1 - 1e-12


def test_federated_quadratic_bad_input() -> None:
    with pytest.raises(ParameterError, match="hessians"):
        federated_quadratic(np.eye(2), [[0.0, 0.0]])
    with pytest.raises(ParameterError, match="symmetric"):
        federated_quadratic([[[1.0, 1.0], [0.0, 1.0]]], [[0.0, 0.0]])
    with pytest.raises(ParameterError, match="semidefinite"):
        federated_quadratic([[[1.0, 0.0], [0.0, -1.0]]], [[0.0, 0.0]])
    with pytest.raises(ParameterError, match="minimisers"):
        federated_quadratic([np.eye(2)], [[0.0, 0.0, 0.0]])
    with pytest.raises(ParameterError, match="weights"):
        federated_quadratic([np.eye(2)] * 2, [[0.0, 0.0]] * 2, weights=[0.5, 0.6])
    with pytest.raises(ParameterError, match="client"):
        federated_quadratic([np.eye(2)], [[0.0, 0.0]]).client_gradient(1, [0.0, 0.0])


@pytest.mark.parametrize(
    ("method", "kwargs", "parameter"),
    [
        ("gd", {**GD, "measure": "gradient"}, "measure"),
        ("scaffold", {"m": 2, "K": 2, "T": 1, "L": 1.0, "eta": 0.5}, "method"),
        ("fedprox-exact", {"m": 2, "T": 1, "L": 1.0, "lam": 1.0}, "method"),
        ("gd", {**GD, "eps2": 0.1}, "eps2"),
        (
            "fedavg",
            {
                "m": 2,
                "K": 2,
                "T": 1,
                "L": 1.0,
                "eta": 0.5,
                "zeta2": 1.0,
                "heterogeneity": "dissimilarity",
            },
            "heterogeneity",
        ),
        ("gd", {"T": 2, "L": 1.0, "eta": 1.0, "Delta0": 1.0}, "Delta0"),
        (
            "gd",
            {"T": 2, "L": 1.0, "eta": 1.0, "functions": "nonconvex", "measure": "gradient"},
            "measure",
        ),
        ("gd", {**GD, "mu": 2.0}, "mu"),
        ("gd", {**GD, "rtol": -1.0}, "rtol"),
        ("gd", {**GD, "solver": "MOSEK"}, "solver"),
        ("nope", GD, "method"),
    ],
)
def test_bad_input(method: str, kwargs: dict, parameter: str) -> None:
    with pytest.raises(ParameterError) as caught:
        quadratic_counterexample(method, **kwargs)
    assert caught.value.parameter == parameter


def test_a_worst_case_and_parameters_together_are_refused() -> None:
    result = gd_worst_case(GD["T"], GD["L"], GD["mu"], GD["eta"])
    with pytest.raises(ParameterError, match="not both"):
        quadratic_counterexample(result, T=4)


# --------------------------------------------------------------------------- planted bugs


def test_planted_bug_in_the_run_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hessians off by 1e-4 in the data the round loop reads: the run no longer reproduces."""
    original = FederatedQuadratic.dataset

    def wrong(self: FederatedQuadratic):  # type: ignore[no-untyped-def]
        data = original(self)
        return type(data)(data.features * math.sqrt(1 + 1e-4), data.targets, data.counts, data.loss)

    monkeypatch.setattr(FederatedQuadratic, "dataset", wrong)
    cx = quadratic_counterexample("gd", **GD)
    assert not cx.reproduced and cx.relative_difference > 10 * REL


def test_planted_bug_in_the_pep_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PEP built with a wrong local step (η·1.001): the toolkit's run disagrees with it."""
    from dataclasses import replace

    original = methods_module.build_pep
    monkeypatch.setattr(
        methods_module,
        "build_pep",
        lambda setting: original(replace(setting, eta=setting.eta * 1.001)),
    )
    cx = quadratic_counterexample("gd", **GD)
    assert not cx.reproduced and cx.relative_difference > 10 * REL
