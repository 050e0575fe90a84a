"""Tests of fedtheory.worstcase: PEPs of GD and FedAvg against known exact worst cases (issue 16).

Closed forms: GD's distance rate max(|1−ηL|, |1−ημ|)^{2T} R² and the Drori–Teboulle /
Taylor–Hendrickx–Glineur function-value worst case L R²/(4T+2) of step 1/L (THG 2017, Thm 3);
reductions: FedAvg with K = 1 is GD on the average; ζ = 0 makes FedAvg GD with K·T steps.
"""

from __future__ import annotations

import math

import pytest

from fedtheory.errors import ParameterError, SolverError
from fedtheory.worstcase import (
    WorstCase,
    _solve,
    fedavg_worst_case,
    gd_worst_case,
    worst_case,
)

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
    assert result.status == "optimal" and result.solver in ("CLARABEL", "SCS")
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
        fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0, solver="SCS")
    message = str(info.value)
    assert info.value.solver == "SCS"
    assert info.value.status != "optimal"
    assert "Gram matrix" in message and "scalar constraints" in message and "CLARABEL" in message


def test_auto_falls_back_to_scs_and_names_both_solvers_when_both_fail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(_solve._SOLVER_OPTIONS, "CLARABEL", {"max_iter": 1})
    result = fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0)  # SCS after Clarabel
    assert result.solver == "SCS"
    monkeypatch.setitem(_solve._SOLVER_OPTIONS, "SCS", {"max_iters": 5})
    with pytest.raises(SolverError) as info:
        fedavg_worst_case(2, 2, 1, 1.0, 0.1, 0.5, 0.0, 1.0)
    assert "CLARABEL" in info.value.solver and "SCS" in info.value.solver


# ------------------------------------------------------------------ the other methods


def test_scaffold_with_one_local_step_is_gd_on_the_average() -> None:
    gd = gd_worst_case(3, 1.0, 0.1, 0.5)
    scaffold = worst_case("scaffold", m=2, K=1, T=3, L=1.0, mu=0.1, eta=0.5, zeta2=1.0)
    assert close(scaffold.value, gd.value)


def test_scaffold_removes_the_heterogeneity_from_the_worst_case() -> None:
    """Fresh control variates make x* a fixed point for any ζ: the worst case does not grow
    with ζ² (FedAvg's does: the issue's prototype 0.292 → 1.254)."""
    base = {"m": 2, "K": 4, "T": 3, "L": 1.0, "mu": 0.1, "eta": 0.5}
    homogeneous = worst_case("scaffold", zeta2=0.0, **base).value
    heterogeneous = worst_case("scaffold", zeta2=1.0, **base).value
    assert close(heterogeneous, homogeneous, 1e-5)
    assert worst_case("fedavg", zeta2=1.0, **base).value > 4 * heterogeneous


def test_exact_fedprox_on_one_client_is_the_proximal_point_method() -> None:
    """prox_{f/λ} contracts by 1/(1 + μ/λ) on μ-strongly convex f (tight on x ↦ μ‖x‖²/2)."""
    result = worst_case("fedprox-exact", m=1, T=3, L=1.0, mu=0.1, lam=1.0)
    assert close(result.value, (1 / (1 + 0.1 / 1.0)) ** 6)


def test_fedprox_with_a_vanishing_proximal_term_tends_to_fedavg() -> None:
    base = {"m": 2, "K": 2, "T": 2, "L": 1.0, "mu": 0.1, "eta": 0.5, "zeta2": 1.0}
    fedavg = worst_case("fedavg", **base).value
    fedprox = worst_case("fedprox", lam=1e-6, **base).value
    assert close(fedprox, fedavg, 1e-4)


def test_identical_clients_are_gd_with_KT_steps_and_weights_do_not_matter() -> None:
    gd = gd_worst_case(6, 1.0, 0.1, 0.5)
    for weights in (None, (0.2, 0.3, 0.5)):
        result = worst_case(
            "fedavg",
            m=3,
            K=3,
            T=2,
            L=1.0,
            mu=0.1,
            eta=0.5,
            heterogeneity="identical",
            weights=weights,
        )
        assert close(result.value, gd.value)


def test_an_absolute_error_budget_raises_the_worst_case_and_zero_budget_is_exact_gd() -> None:
    exact = worst_case("gd", T=4, L=1.0, mu=0.1, eta=1.0, Delta0=1.0, measure="function")
    zero = worst_case("gd", T=4, L=1.0, mu=0.1, eta=1.0, Delta0=1.0, measure="function", eps2=0)
    noisy = worst_case("gd", T=4, L=1.0, mu=0.1, eta=1.0, Delta0=1.0, measure="function", eps2=0.01)
    assert close(zero.value, exact.value, 1e-5)
    assert close(exact.value, (1 - 0.1) ** 8)  # (1 − μ/L)^{2T}: step 1/L, function value
    assert noisy.value > exact.value


def test_relative_errors_slow_gd_down() -> None:
    exact = worst_case("gd", T=3, L=1.0, mu=0.1, eta=1.0)
    relative = worst_case("gd", T=3, L=1.0, mu=0.1, eta=1.0, delta2=0.25)
    assert relative.value > exact.value


def test_nonconvex_gd_stays_below_the_descent_lemma_bound() -> None:
    """min_t ‖∇f(x_t)‖² ≤ 2L(f(x_0) − f*)/(T + 1) for step 1/L (sum of descent lemmas)."""
    for T in (1, 3):
        result = worst_case(
            "gd", T=T, L=1.0, eta=1.0, functions="nonconvex", Delta0=1.0, measure="gradient"
        )
        assert 0 < result.value <= 2.0 / T * (1 + REL)


def test_quadratic_clients_do_not_attain_fedavgs_heterogeneous_worst_case() -> None:
    """The issue's prototype: 1.2539 over smooth strongly convex clients, less over quadratics;
    with ζ = 0 quadratics attain it (both equal GD with K·T steps)."""
    base = {"m": 2, "K": 4, "T": 3, "L": 1.0, "mu": 0.1, "eta": 0.5}
    assert worst_case("fedavg", zeta2=1.0, functions="quadratic", **base).value < 0.95 * (
        worst_case("fedavg", zeta2=1.0, **base).value
    )


@pytest.mark.parametrize(
    ("method", "kwargs", "parameter"),
    [
        ("nope", {}, "method"),
        ("fedavg", {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5, "lam": 1.0}, "lam"),
        ("fedprox", {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5}, "lam"),
        ("fedprox", {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5, "lam": -1.0}, "lam"),
        (
            "fedavg",
            {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5, "weights": (0.5, 0.6)},
            "weights",
        ),
        ("fedavg", {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5, "weights": (1.0,)}, "weights"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "eps2": [0.1]}, "eps2"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "eps2": -0.1}, "eps2"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "eps2": 0.1, "delta2": 0.1}, "delta2"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "R2": 1.0, "Delta0": 1.0}, "Delta0"),
        ("gd", {"T": 2, "L": 1.0, "mu": 0.1, "eta": 0.5, "functions": "nonconvex"}, "mu"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "functions": "nonconvex"}, "measure"),
        ("gd", {"T": 2, "L": 1.0, "eta": 0.5, "functions": "cubic"}, "functions"),
        (
            "fedavg",
            {"m": 2, "K": 1, "T": 1, "L": 1.0, "eta": 0.5, "heterogeneity": "x"},
            "heterogeneity",
        ),
        ("gd", {"L": 1.0, "eta": 0.5}, "T"),
    ],
)
def test_bad_method_input(method: str, kwargs: dict, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        worst_case(method, **kwargs)
    assert info.value.parameter == parameter


def test_cli_prints_the_worst_case_and_exits_2_on_bad_input() -> None:
    from click.testing import CliRunner

    from fedtheory.cli import cli

    runner = CliRunner()
    ok = runner.invoke(cli, ["worstcase", "gd", "T=2", "L=1", "mu=0.1", "eta=0.5"])
    assert ok.exit_code == 0, ok.output
    assert f"{gd_rate(2, 1.0, 0.1, 0.5):.6f}"[:7] in ok.output
    listing = runner.invoke(cli, ["worstcase", "list"])
    assert listing.exit_code == 0 and "scaffold" in listing.output and "fedprox" in listing.output
    bad = runner.invoke(cli, ["worstcase", "fedavg", "m=2", "K=0", "T=1", "L=1", "eta=1"])
    assert bad.exit_code == 2
    assert "K=0" in bad.output and "at least 1" in bad.output
