"""FedLRGD, FedAve, FedGD and the running-time model of Jadbabaie, Makur & Shah (fedlrgd seed;
reading guide §2, V6, V7, V11, V14), and the latent-ERM instances they run on.

Theory asserted:
- FedLRGD is exact GD on an exactly low-rank model at r = ρ (V6), measurably inexact at
  r = ρ − 1, still exact with the lstsq solver at r = ρ + 2 where cond(G^(i)) > 1e12 and (7)
  fails; the transposed system G v = h (instead of Gᵀ v = h, (35)) is not exact;
- Γ = r² + rs + rS + φmr exactly with r + 2 epochs (Theorem 2; V11), T(b + φτm) for FedAve,
  T(r + s + φm) for FedGD;
- FedGD is exact GD; FedAve with one sample per client and one local step is GD on the client
  average; Lemma 2 holds on FedLRGD's measured errors;
- the M/M/1 completion time has mean τm (23) from a stationary start (Burke), the Erlang
  maximum matches its exact integral, and b = 1 gives the harmonic numbers.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference.fedlrgd_algorithms import fedave as fedave_twin
from reference.fedlrgd_algorithms import mm1_completion as mm1_twin

from fedtheory.algorithms.client_steps import PresampledSGD
from fedtheory.algorithms.server_steps import ModelAverage
from fedtheory.algorithms.trace import TraceRecorder
from fedtheory.errors import DivergenceError, ParameterError, SolverError
from fedtheory.papers.fedlrgd import EpochLog
from fedtheory.papers.fedlrgd.algorithm import _client_weights, fedlrgd
from fedtheory.papers.fedlrgd.baselines import (
    _federated_trajectory,
    fedave,
    fedave_burn_in,
    fedgd,
    gradient_descent_exact,
)
from fedtheory.papers.fedlrgd.erm import (
    LatentERM,
    _check_constants,
    logistic_latent_erm,
    quadratic_latent_erm,
)
from fedtheory.papers.fedlrgd.running_time import (
    _mm1_completion,
    erlang_max_mean,
    running_time_monte_carlo,
)

# V6 set-up: m = 50, s = 20, p = 5, K' = 2 bumps, so rank ρ = 4.
M, S_PER, P = 50, 20, 5
RHO = 4
STEPS = 100


def _lvmq(server: int, seed: int = 0) -> LatentERM:
    return quadratic_latent_erm(M, S_PER, server, P, seed=seed)


def _start(instance: LatentERM) -> np.ndarray:
    return np.random.default_rng(11).normal(size=instance.p)


def _relative_trajectory_error(r: int, solver: str = "lstsq", seed: int = 0) -> float:
    instance = _lvmq(r, seed)
    theta0 = _start(instance)
    run = fedlrgd(instance, r=r, S=STEPS, theta0=theta0, solver=solver, seed=seed + 1)
    truth = gradient_descent_exact(instance, S=STEPS, theta0=theta0)
    scale = float(np.linalg.norm(theta0 - instance.theta_star))
    return float(np.max(np.linalg.norm(run.trajectory - truth.trajectory, axis=1)) / scale)


# ------------------------------------------------------------------------------- instances


def test_lvmq_constants_and_optimum_are_exact() -> None:
    inst = _lvmq(6)
    hessian = inst.hessian()
    eig = np.linalg.eigvalsh(hessian)
    assert abs(inst.L1 - eig[-1]) <= 1e-12 * eig[-1]
    assert abs(inst.mu - eig[0]) <= 1e-12 * eig[0]
    assert inst.L1_sample >= inst.L1 > inst.mu >= inst.mu_sample >= inst.ridge - 1e-12
    assert np.linalg.norm(inst.full_gradient(inst.theta_star)) < 1e-12
    assert inst.objective(inst.theta_star) == pytest.approx(inst.F_star, abs=1e-12)
    # F is the quadratic ½θᵀĀθ − θᵀb̄: its gradient is affine with slope Ā.
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=(2, P))
    assert np.allclose(inst.full_gradient(a) - inst.full_gradient(b), hessian @ (a - b))
    # Every G^(i) has rank exactly ρ = K' + 2 (D5).
    G = inst.gradient(inst.server, rng.uniform(-1, 1, (6, P)))
    assert [int(np.linalg.matrix_rank(G[:, :, i])) for i in range(P)] == [RHO] * P


def test_lvma_constants_bound_the_curvature_and_gradient_matches_finite_differences() -> None:
    inst = logistic_latent_erm(20, 10, 6, 3, seed=2)
    assert inst.L_F <= inst.L1 < inst.L1_printed
    assert math.isclose(inst.L1, 3 / 4 + 0.1) and math.isclose(inst.L1_printed, 3 / 2 + 0.1)
    rng = np.random.default_rng(0)
    for theta in rng.uniform(-3, 3, (5, 3)):
        eig = np.linalg.eigvalsh(inst.hessian(theta))
        assert inst.mu <= eig[0] and eig[-1] <= inst.L_F + 1e-12
        h = 1e-6
        fd = [
            (inst.objective(theta + h * e) - inst.objective(theta - h * e)) / (2 * h)
            for e in np.eye(3)
        ]
        assert np.allclose(inst.full_gradient(theta), fd, atol=1e-8)
    assert np.linalg.norm(inst.full_gradient(inst.theta_star)) < 1e-13
    assert inst.hessian(np.zeros(3))[0, 0] <= inst.L_F  # L_F attained at θ = 0


def test_batched_gradient_and_loss_agree_with_single_parameter_calls() -> None:
    for inst in (_lvmq(4), logistic_latent_erm(3, 4, 5, 2, seed=1)):
        thetas = np.random.default_rng(1).normal(size=(3, inst.p))
        batched = inst.gradient(inst.server, thetas)
        losses = inst.loss(inst.server, thetas)
        for k, theta in enumerate(thetas):
            assert np.allclose(batched[:, k, :], inst.gradient(inst.server, theta))
            assert np.allclose(losses[:, k], inst.loss(inst.server, theta))
        assert np.allclose(inst.objective(thetas), [inst.objective(t) for t in thetas])
        assert inst.samples.shape == (inst.n, inst.d_x)
        assert np.array_equal(inst.samples[: inst.server_size], inst.server)


def test_server_samples_of_different_sizes_are_prefixes() -> None:
    small, large = _lvmq(3), _lvmq(6)
    assert np.array_equal(large.server[:3], small.server)
    assert np.array_equal(large.clients, small.clients)
    a, b = logistic_latent_erm(5, 4, 2, 2, seed=7), logistic_latent_erm(5, 4, 5, 2, seed=7)
    assert np.array_equal(b.server[:2], a.server) and np.array_equal(a.clients, b.clients)


# ------------------------------------------------------------------------------- FedLRGD (V6)


def test_fedlrgd_is_exact_gd_at_the_rank() -> None:
    assert _relative_trajectory_error(RHO) <= 1e-9


def test_fedlrgd_is_inexact_below_the_rank() -> None:
    assert _relative_trajectory_error(RHO - 1) >= 1e-3


def test_fedlrgd_above_the_rank_ill_conditioned_but_lstsq_and_pinv_exact() -> None:
    instance = _lvmq(RHO + 2)
    run = fedlrgd(instance, r=RHO + 2, S=5, seed=1)
    assert run.condition.min() > 1e12  # (7) fails: every G^(i) is singular
    assert _relative_trajectory_error(RHO + 2, "lstsq") <= 1e-8
    assert _relative_trajectory_error(RHO + 2, "pinv") <= 1e-8


def test_solve_and_inv_refuse_a_singular_matrix_naming_coordinate_and_condition() -> None:
    instance = _lvmq(RHO + 2)
    for solver in ("solve", "inv"):
        with pytest.raises(SolverError) as info:
            fedlrgd(instance, r=RHO + 2, S=1, solver=solver, seed=1)
        message = str(info.value)
        assert "coordinate i = 0" in message and "cond = " in message and "lstsq" in message


def test_all_solvers_agree_on_a_nonsingular_matrix() -> None:
    instance = _lvmq(RHO)
    runs = [
        fedlrgd(instance, r=RHO, S=20, solver=solver, seed=1).trajectory
        for solver in ("lstsq", "pinv", "solve", "inv")
    ]
    for other in runs[1:]:
        assert np.allclose(other, runs[0], rtol=0, atol=1e-9)


def test_transposed_weight_system_breaks_exactness() -> None:
    """(35) is v = h G^{-1}, i.e. Gᵀ v = hᵀ; solving G v = h instead is the classic bug."""
    instance = _lvmq(RHO)
    pivots = np.random.default_rng(5).uniform(-1, 1, (RHO, P))
    G = instance.gradient(instance.server, pivots)
    flat = instance.clients.reshape(-1, instance.d_x)
    H = instance.gradient(flat, pivots).reshape(M, S_PER, RHO, P).sum(axis=1)
    thetas = np.random.default_rng(6).normal(size=(10, P))
    exact = instance.full_gradient(thetas)
    grads = instance.gradient(instance.server, thetas)  # (r, q, p)
    errors = {}
    for transpose in (False, True):
        omega = 1.0 + _client_weights(G, H, "lstsq", None, transpose=transpose).sum(axis=0)
        surrogate = np.einsum("kqi,ik->qi", grads, omega) / instance.n
        errors[transpose] = np.max(np.linalg.norm(surrogate - exact, axis=1))
    scale = np.max(np.linalg.norm(exact, axis=1))
    assert errors[False] <= 1e-10 * scale
    assert errors[True] >= 1e-3 * scale


def test_surrogate_gradient_method_matches_the_recorded_errors() -> None:
    instance = logistic_latent_erm(30, 10, 5, 2, seed=4)
    run = fedlrgd(instance, r=5, S=6, seed=2)
    for gamma in range(6):
        theta = run.trajectory[gamma]
        error = np.linalg.norm(run.surrogate_gradient(theta) - instance.full_gradient(theta))
        assert error == pytest.approx(run.errors[gamma], rel=1e-12, abs=1e-15)
        assert run.gradient_norms[gamma] == pytest.approx(
            np.linalg.norm(instance.full_gradient(theta)), rel=1e-12
        )
    batch = run.surrogate_gradient(run.trajectory[:3])
    assert np.allclose(batch, [run.surrogate_gradient(t) for t in run.trajectory[:3]])


def test_lemma2_holds_on_fedlrgd_measured_errors() -> None:
    """Lemma 2: gap_S ≤ q^S gap_0 + Σ_γ q^{S−γ}‖e_{γ−1}‖²/(2L1), q = 1 − 1/κ (the registered
    ``classic.inexact-gd`` is checked on the same runs by the claims)."""
    instance = logistic_latent_erm(60, 20, 4, 2, seed=0)
    q = 1 - 1 / instance.kappa
    for S in (5, 40):
        run = fedlrgd(instance, r=4, S=S, seed=3)
        weights = q ** (S - np.arange(1, S + 1))
        rhs = q**S * run.gaps[0] + np.sum(weights * run.errors**2) / (2 * instance.L1)
        assert run.gaps[-1] <= rhs * (1 + 1e-9)


def test_pivot_designs() -> None:
    instance = logistic_latent_erm(4, 3, 6, 2, seed=0)
    lhs = fedlrgd(instance, r=6, S=0, pivots="lhs", seed=0).pivots
    strata = np.floor((lhs + 1.0) / 2.0 * 6).astype(int)  # box (−1, 1), 6 strata
    assert all(sorted(strata[:, j]) == list(range(6)) for j in range(2))
    box = fedlrgd(instance, r=6, S=0, seed=0).pivots
    assert np.all((box >= -1) & (box <= 1))
    given = np.arange(12.0).reshape(6, 2) / 10
    assert np.array_equal(fedlrgd(instance, r=6, S=0, pivots=given).pivots, given)


# ------------------------------------------------------------------------------- Γ (V11)


@pytest.mark.parametrize("r, S", [(1, 0), (3, 7), (4, 25)])
def test_fedlrgd_gamma_is_theorem2_exactly(r: int, S: int) -> None:
    instance = quadratic_latent_erm(6, 5, r, 5, seed=r)
    phi = 37.0
    run = fedlrgd(instance, r=r, S=S, phi=phi, seed=0)
    m, s = instance.m, instance.s
    assert run.gamma == r * r + r * s + r * S + phi * m * r
    assert run.log.computation == r * r + r * s + r * S and run.log.uploads == m * r
    assert run.log.epochs == r + 2
    assert run.log.kinds == ("B", "A", *("C",) * (r - 1), "B")
    assert np.array_equal(run.log.gradients, [r * r, r * s, *[0] * (r - 1), r * S])
    assert run.log.costs().sum() == pytest.approx(run.gamma, rel=1e-15)


def test_fedlrgd_gamma_with_extra_server_samples() -> None:
    instance = quadratic_latent_erm(6, 5, 7, 5, seed=0)  # R = 7 server samples, r = 4
    run = fedlrgd(instance, r=4, S=3, phi=2.0, seed=0)
    assert run.gamma == 7 * 4 + 4 * 5 + 4 * 3 + 2.0 * 6 * 4
    # The extra server rows are handled like a client: still exact at the rank.
    truth = gradient_descent_exact(instance, S=3)
    assert np.allclose(run.trajectory, truth.trajectory, rtol=0, atol=1e-10)


def test_fedave_and_fedgd_gamma() -> None:
    instance = _lvmq(3)
    ave = fedave(instance, T=4, b=3, tau=0.5, eta=0.01, phi=9.0, seed=0)
    assert ave.gamma == 4 * (3 + 9.0 * 25) and ave.log.kinds == ("A",) * 4
    assert np.all(ave.log.active == 25)
    gd = fedgd(instance, T=5, phi=9.0)
    assert gd.gamma == 5 * (3 + S_PER + 9.0 * M) and gd.log.epochs == 10
    assert gd.log.kinds == ("B", "A") * 5


def test_epoch_log_reads_definition_1_off_a_trace() -> None:
    recorder = TraceRecorder(clients=3)
    recorder.count_gradients(5, by="server")  # B: only the server computes
    recorder.end_row()
    for client in range(3):  # A: clients compute (client 2 the most), then upload
        recorder.count_gradients(2 + (client == 2), by=client)
        recorder.count_upload(client, floats=4)
    recorder.end_row()
    recorder.count_upload(1, floats=4)  # C: one client only communicates
    recorder.end_row()
    recorder.count_gradients(7, by="server")  # B then A in one row (federated GD)
    recorder.count_gradients(1, by=0)
    recorder.count_upload(0, floats=4)
    recorder.end_row()
    recorder.end_row()  # an empty row: a B epoch that computes nothing
    log = EpochLog.from_trace(recorder.freeze(), phi=0.5)
    assert log.kinds == ("B", "A", "C", "B", "A", "B")
    assert log.gradients.tolist() == [5, 3, 0, 7, 1, 0]
    assert log.active.tolist() == [0, 3, 1, 0, 1, 0]
    assert log.gamma == 16 + 0.5 * 5
    assert log.expected_times()[1] == pytest.approx(6 + math.log(3) + 1.5)


def test_epoch_log_refuses_what_definition_1_has_no_epoch_for() -> None:
    recorder = TraceRecorder(clients=2)
    recorder.count_gradients(3, by=1)  # clients compute but nobody communicates
    recorder.end_row()
    trace = recorder.freeze()
    with pytest.raises(ParameterError, match="without communicating"):
        EpochLog.from_trace(trace, phi=1.0)
    with pytest.raises(ParameterError, match="phi"):
        EpochLog.from_trace(trace, phi=-1.0)


# ------------------------------------------------------------------------------- FedGD, FedAve


def test_fedgd_is_exact_gradient_descent() -> None:
    """Up to the order of the floating-point sums: the round loop adds the per-sample gradients
    one by one, numpy's mean pairwise."""
    instance = logistic_latent_erm(10, 5, 4, 2, seed=0)
    theta0 = np.array([0.5, -0.5])
    np.testing.assert_allclose(
        fedgd(instance, T=15, theta0=theta0).trajectory,
        gradient_descent_exact(instance, S=15, theta0=theta0).trajectory,
        rtol=1e-13,
        atol=1e-15,
    )
    gaps = gradient_descent_exact(instance, S=15, theta0=theta0).gaps
    assert gaps[-1] <= (1 - 1 / instance.kappa) ** 15 * gaps[0]  # Lemma 2 with zero errors


def test_fedave_one_sample_per_client_one_step_is_gd_on_the_client_average() -> None:
    instance = logistic_latent_erm(8, 1, 2, 3, seed=1)  # s = 1
    theta0 = np.array([0.3, -0.2, 0.1])
    eta = 0.7
    run = fedave(instance, T=5, b=1, eta=eta, theta0=theta0, seed=0)
    theta = theta0.copy()
    x = instance.clients[:, 0, :]
    for t in range(5):
        theta = theta - eta * instance.gradient(x, theta).mean(axis=0)
        assert np.allclose(run.trajectory[t + 1], theta, rtol=0, atol=1e-13)


def test_fedave_fedpaq_schedule() -> None:
    instance = _lvmq(3)
    burn_in = fedave_burn_in(instance, b=5)
    kappa, mu = instance.kappa, instance.mu
    assert burn_in == math.ceil(4 * max(kappa, 4.0, 4 * M / (mu * mu * 5)))
    run = fedave(instance, T=6, b=5, seed=0)
    t = np.arange(6)
    assert np.allclose(run.steps, 4 / (mu * ((t + burn_in) * 5 + 1)))
    assert run.steps.max() <= 1 / (instance.L1 * 5)  # T0 ≥ 4κ keeps the steps stable
    assert run.hyperparameters["eta_offset"] == burn_in
    offset = fedave(instance, T=2, b=5, eta_offset=0, seed=0)
    assert offset.steps[0] == pytest.approx(4 / mu)


@pytest.mark.parametrize("family", ["logistic", "quadratic"])
def test_fedave_on_the_round_loop_matches_twin(family: str) -> None:
    if family == "logistic":
        instance = logistic_latent_erm(5, 4, 2, 3, seed=3)
    else:
        instance = quadratic_latent_erm(5, 4, 2, 4, d=3, bumps=3, seed=3)
    rng = np.random.default_rng(0)
    T, A, b = 4, 3, 5
    clients = np.stack([rng.choice(5, A, replace=False) for _ in range(T)])
    samples = rng.integers(0, 4, (T, A, b))
    steps = rng.uniform(0.05, 0.2, T)
    theta0 = rng.normal(size=instance.p)
    by_client = np.zeros((T, 5, b), dtype=np.int64)
    for t in range(T):
        by_client[t, clients[t]] = samples[t]
    step = PresampledSGD(steps=steps, samples=by_client)
    kernel, trace = _federated_trajectory(instance, step, ModelAverage(), clients, theta0)
    twin = fedave_twin(instance, theta0, clients, samples, steps)
    assert trace.gradient_calls.tolist() == [A * b] * T
    assert trace.max_client_gradient_calls.tolist() == [b] * T
    assert np.allclose(kernel, twin, rtol=1e-12, atol=1e-13)


# ------------------------------------------------------------------------------- running time


def test_mm1_kernel_matches_event_driven_twin() -> None:
    rng = np.random.default_rng(0)
    R, k = 40, 7
    initial = rng.geometric(0.5, R).astype(np.int64) - 1
    services = rng.exponential(0.5, (R, k))
    interarrivals = rng.exponential(1.0, (R, k))
    assert np.allclose(
        _mm1_completion(initial, services, interarrivals),
        mm1_twin(initial, services, interarrivals),
        rtol=1e-13,
    )


def test_completion_time_has_mean_tau_m_from_a_stationary_start() -> None:
    for active, nu in ((20, 1.5), (200, 3.0)):
        sample = running_time_monte_carlo(2, active, 10.0, nu, 4000, seed=active)
        se = sample.completion.std(ddof=1) / math.sqrt(4000)
        assert abs(sample.completion.mean() - active) <= 3 * se
        assert sample.approx_23 == active
    empty = running_time_monte_carlo(2, 100, 10.0, 1.2, 4000, seed=1, start="empty")
    se = empty.completion.std(ddof=1) / math.sqrt(4000)
    assert empty.completion.mean() - 100 > 3 * se  # Burke's theorem needs the steady state


def test_erlang_maximum_matches_exact_integral_and_harmonic_numbers() -> None:
    for k in (1, 10, 1000):
        assert erlang_max_mean(1, k) == pytest.approx(sum(1 / j for j in range(1, k + 1)))
    assert erlang_max_mean(7, 1) == pytest.approx(7.0)
    sample = running_time_monte_carlo(5, 100, 2.0, 2.0, 4000, seed=3)
    se = sample.compute_clients.std(ddof=1) / math.sqrt(4000)
    assert abs(sample.compute_clients.mean() - sample.exact_compute_clients) <= 4 * se
    se_b = sample.compute_server.std(ddof=1) / math.sqrt(4000)
    assert abs(sample.compute_server.mean() - sample.approx_20) <= 4 * se_b
    # (19) understates b + E max at b = 5, τm = 100 (the missing √(2b log τm)-type term).
    assert sample.exact_compute_clients / sample.approx_19 > 1.15
    assert np.allclose(sample.epoch_A, sample.compute_clients + 2.0 * sample.completion)


# ------------------------------------------------------------------------------- bad input


def test_bad_inputs_are_refused() -> None:
    instance = _lvmq(4)
    cases = [
        {"r": 0, "S": 1},
        {"r": 5, "S": 1},
        {"r": 4, "S": -1},
        {"r": 2, "S": 1, "pivots": np.zeros((2, P))},
        {"r": 2, "S": 1, "pivots": np.zeros((3, P))},
        {"r": 4, "S": 1, "pivots": "grid", "seed": 0},
        {"r": 4, "S": 1, "pivots": "box"},  # random design needs a seed
        {"r": 4, "S": 1, "solver": "qr", "seed": 0},
        {"r": 4, "S": 1, "theta0": np.zeros(3), "seed": 0},
        {"r": 4, "S": 1, "rcond": 2.0, "seed": 0},
        {"r": 4, "S": 1, "phi": -1.0, "seed": 0},
        {"r": 4, "S": 1, "step": 0.0, "seed": 0},
    ]
    for kwargs in cases:
        with pytest.raises(ParameterError):
            fedlrgd(instance, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ParameterError):
        fedlrgd("not an instance", r=1, S=1, seed=0)  # type: ignore[arg-type]
    for kwargs in (
        {"T": 2, "b": 0, "seed": 0},
        {"T": -1, "b": 1, "seed": 0},
        {"T": 2, "b": 1, "tau": 0.33, "seed": 0},
        {"T": 2, "b": 1, "tau": 1.5, "seed": 0},
        {"T": 2, "b": 1, "eta": "adam", "seed": 0},
        {"T": 2, "b": 1, "eta": [0.1], "seed": 0},
        {"T": 2, "b": 1, "eta": 0.1, "eta_offset": 3, "seed": 0},
        {"T": 2, "b": 1, "seed": None},
    ):
        with pytest.raises(ParameterError):
            fedave(instance, **kwargs)  # type: ignore[arg-type]
    for args in ((0, 10, 1.0, 2.0, 10, 0), (1, 10, 1.0, 1.0, 10, 0), (1, 0, 1.0, 2.0, 10, 0)):
        with pytest.raises(ParameterError):
            running_time_monte_carlo(*args)  # type: ignore[arg-type]
    with pytest.raises(ParameterError):
        fedgd(instance, T=-1)
    with pytest.raises(ParameterError):
        gradient_descent_exact(instance, S=3, theta0=np.zeros(2))
    for kwargs in (
        {"m": 0, "s": 2, "r": 2, "p": 5},
        {"m": 2, "s": 2, "r": 2, "p": 2},  # p < bumps + 1
        {"m": 2, "s": 2, "r": 2, "p": 5, "mu": 0.0},
        {"m": 2, "s": 2, "r": 2, "p": 5, "width": -1.0},
        {"m": 2, "s": 2, "r": 2, "p": 5, "theta_box": (1.0, -1.0)},
    ):
        with pytest.raises(ParameterError):
            quadratic_latent_erm(**kwargs, seed=0)  # type: ignore[arg-type]
    with pytest.raises(ParameterError):
        logistic_latent_erm(2, 2, 2, 2, mu=-0.1, seed=0)
    with pytest.raises(ParameterError):
        logistic_latent_erm(2, 2, 2, 2, seed=None)  # type: ignore[arg-type]
    with pytest.raises(ParameterError):
        instance.gradient(np.zeros((3, 5)), np.zeros(P))
    with pytest.raises(ParameterError):
        instance.objective(np.zeros(P + 1))


def test_divergence_is_reported_not_returned() -> None:
    instance = _lvmq(4)
    with pytest.raises(DivergenceError):
        fedlrgd(instance, r=4, S=400, step=100 / instance.L1, seed=0)
    with pytest.raises(DivergenceError):
        gradient_descent_exact(instance, S=400, step=100 / instance.L1)
    with pytest.raises(DivergenceError, match="exceeds 2/L1"):
        fedave(instance, T=400, b=2, eta=100 / instance.L1, seed=0)


def test_degenerate_condition_number_is_refused() -> None:
    """Theorem 2 needs κ > 1 (silently) and Theorem 3 assumes L1 > μ > 0."""
    for smoothness, mu in ((1.0, 1.0), (0.5, 1.0), (1.0, 0.0)):
        with pytest.raises(ParameterError):
            _check_constants(smoothness, mu)
