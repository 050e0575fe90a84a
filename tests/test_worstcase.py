"""Tests of fedtheory.worstcase: PEPs of GD and FedAvg against known exact worst cases (issue 16).

Closed forms: GD's distance rate max(|1−ηL|, |1−ημ|)^{2T} R² and the Drori–Teboulle /
Taylor–Hendrickx–Glineur function-value worst case L R²/(4T+2) of step 1/L (THG 2017, Thm 3);
reductions: FedAvg with K = 1 is GD on the average; ζ = 0 makes FedAvg GD with K·T steps.
"""

from __future__ import annotations

import math

import pytest

from fedtheory.errors import ParameterError, SolverError
from fedtheory.worstcase import WorstCase, _solve, fedavg_worst_case, gd_worst_case

REL = 1e-6


def gd_rate(T: int, L: float, mu: float, eta: float, R2: float = 1.0) -> float:
    return max(abs(1 - eta * L), abs(1 - eta * mu)) ** (2 * T) * R2


def close(a: float, b: float, rel: float = REL) -> bool:
    return abs(a - b) <= rel * abs(b)


@pytest.mark.parametrize(
    ("T", "L", "mu", "eta", "R2"),
    [
        (1, 1.0, 0.1, 0.5, 1.0),
        (3, 1.0, 0.1, 0.5, 1.0),
        (2, 2.0, 0.5, 0.3, 2.5),
        (2, 1.0, 0.5, 1.6, 1.0),
    ],
)
def test_gd_distance_rate(T: int, L: float, mu: float, eta: float, R2: float) -> None:
    result = gd_worst_case(T, L, mu, eta, R2)
    assert isinstance(result, WorstCase)
    assert result.status == "optimal" and result.solver == "SCS"
    clarabel = gd_worst_case(T, L, mu, eta, R2, solver="CLARABEL")
    assert clarabel.solver == "CLARABEL" and close(clarabel.value, result.value)
    assert close(result.value, gd_rate(T, L, mu, eta, R2))
    # m = 1 FedAvg with K = 1 is the same PEP
    assert close(fedavg_worst_case(1, 1, T, L, mu, eta, 0.0, R2).value, result.value)
    # the dual certificate: the worst case is τ·R² with τ the initial condition's multiplier
    assert close(result.dual["initial"] * R2, result.value, 1e-5)


@pytest.mark.parametrize("T", [1, 2, 4])
def test_gd_function_value_step_one_over_L(T: int) -> None:
    """Taylor, Hendrickx & Glineur (2017), Theorem 3: L R² / (4T + 2) for η = 1/L, μ = 0."""
    L, R2 = 2.0, 1.5
    result = gd_worst_case(T, L, 0.0, 1.0 / L, R2, measure="function")
    assert close(result.value, L * R2 / (4 * T + 2))


def test_one_local_step_one_round_is_one_minus_eta_mu_squared() -> None:
    result = fedavg_worst_case(2, 1, 1, 1.0, 0.1, 0.5, 0.0, 1.0)
    assert close(result.value, (1 - 0.5 * 0.1) ** 2)
    assert close(result.value, 0.9025)


@pytest.mark.parametrize("zeta2", [0.0, 1.0])
def test_fedavg_one_local_step_is_gd_on_the_average(zeta2: float) -> None:
    """K = 1: x_{t+1} = x_t − η ∇F(x_t), and F ranges over the whole class whatever ζ."""
    fed = fedavg_worst_case(2, 1, 2, 1.0, 0.1, 0.5, zeta2, 1.0)
    gd = gd_worst_case(2, 1.0, 0.1, 0.5, 1.0)
    assert close(fed.value, gd.value)
    assert close(fed.value, gd_rate(2, 1.0, 0.1, 0.5))


@pytest.mark.parametrize(("m", "K", "T"), [(2, 3, 2), (3, 2, 1)])
def test_zero_heterogeneity_is_gd_with_KT_steps(m: int, K: int, T: int) -> None:
    fed = fedavg_worst_case(m, K, T, 1.0, 0.1, 0.5, 0.0, 1.0)
    gd = gd_worst_case(K * T, 1.0, 0.1, 0.5, 1.0)
    assert close(fed.value, gd.value)
    assert close(fed.value, gd_rate(K * T, 1.0, 0.1, 0.5))


def test_issue_prototype_numbers() -> None:
    """Issue 16's prototype: m=2, K=4, T=3, L=1, μ=0.1, η=0.5, R²=1."""
    homogeneous = fedavg_worst_case(2, 4, 3, 1.0, 0.1, 0.5, 0.0, 1.0)
    assert close(homogeneous.value, 0.95**24)  # = 0.29199, the issue's 0.292
    heterogeneous = fedavg_worst_case(2, 4, 3, 1.0, 0.1, 0.5, 1.0, 1.0)
    # the issue prints 3 digits (1.254); the ζ² = 1 worst case has no closed form
    assert math.isclose(heterogeneous.value, 1.254, abs_tol=5e-4)
    assert heterogeneous.value > homogeneous.value
    assert heterogeneous.dual["heterogeneity"] > 0  # the budget binds
    assert heterogeneous.gap < 1e-6
    # an independent solver (interior point vs first order) agrees to 1e-6 relative
    clarabel = fedavg_worst_case(2, 4, 3, 1.0, 0.1, 0.5, 1.0, 1.0, solver="CLARABEL")
    assert close(clarabel.value, heterogeneous.value)


def test_measures_run_and_are_ordered() -> None:
    dist = fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0, measure="distance")
    func = fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0, measure="function")
    grad = fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0, measure="gradient")
    # ζ = 0 is GD with 2 steps: F − F* ≤ (L/2)‖x − x*‖², ‖∇F‖² ≤ L²‖x − x*‖², min over t ≤ t = T
    assert 0 < func.value <= 0.5 * dist.value * (1 + 1e-6)
    assert 0 < grad.value <= dist.value * (1 + 1e-6)
    assert grad.dual.keys() >= {"initial"}


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"m": 0}, "m"),
        ({"K": 0}, "K"),
        ({"T": 0}, "T"),
        ({"K": 1.0}, "K"),
        ({"L": 0.0}, "L"),
        ({"mu": 2.0}, "mu"),
        ({"mu": -0.1}, "mu"),
        ({"eta": 0.0}, "eta"),
        ({"zeta2": -1.0}, "zeta2"),
        ({"R2": 0.0}, "R2"),
        ({"R2": math.inf}, "R2"),
        ({"measure": "loss"}, "measure"),
        ({"solver": "MOSEK"}, "solver"),
    ],
)
def test_bad_input(kwargs: dict[str, object], parameter: str) -> None:
    base: dict[str, object] = {
        "m": 2,
        "K": 2,
        "T": 1,
        "L": 1.0,
        "mu": 0.1,
        "eta": 0.5,
        "zeta2": 0.0,
        "R2": 1.0,
    }
    base.update(kwargs)
    with pytest.raises(ParameterError) as info:
        fedavg_worst_case(**base)  # type: ignore[arg-type]
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


def test_solver_failure_names_solver_status_size_and_alternative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(_solve._SOLVER_OPTIONS, "SCS", {"max_iters": 5})
    with pytest.raises(SolverError) as info:
        fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0)
    message = str(info.value)
    assert info.value.solver == "SCS"
    assert info.value.status != "optimal"
    assert "Gram matrix" in message and "scalar constraints" in message and "CLARABEL" in message
