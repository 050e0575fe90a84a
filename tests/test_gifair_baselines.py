"""The gifair baselines on the core round loop (reading guide §2.5, §5 V18).

Theory asserted:
- the exact projection onto simplex ∩ box equals a bisection twin; FedMGDA+'s QP solver reaches
  the optimum cvxpy (Clarabel) finds, and its direction Σλ_k ĝ_k (unique: a min-norm point);
- every server step equals its numpy twin round by round (q-FFL, q-FedSGD, TERM, AFL, FedMGDA+),
  from the recorded broadcast models and uploads;
- the limits: q-FFL at q = 0 is FedAvg with the aggregation its formula implies (the
  self-normalised mean of the uploads: uniform as printed, p-weighted with full participation
  and "weighted"), TERM as t → 0 is FedAvg, Ditto's global model *is* FedAvg (bit for bit),
  FedMGDA+ at ε = 0 is FedAvg on normalised updates; large tilt approaches min_θ max_k F_k
  within log(1/min p)/t; AFL's averaged iterate is within the regret bound of its own
  trajectory (the O(1/√T) rate, constants measured, not tuned) of min_θ max_k F_k; Ditto's
  personal models converge to (A_k + λ_D I)^{−1}(A_k c_k + λ_D w*), hence to w* as λ_D → ∞ and
  to c_k as λ_D → 0;
- bad input is refused naming the rule; same seed, same bits; replicate r of a batch is the run
  with its spawned seed.
"""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from reference import gifair_baselines as twin

from fedtheory.errors import ConditionError, ParameterError
from fedtheory.papers.gifair import baselines, exact
from fedtheory.papers.gifair._baseline_steps import (
    _min_norm_weights,
    _project_capped_simplex,
)
from fedtheory.papers.gifair.algorithms import fedavg_printed, gifair_global
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics

# ---------------------------------------------------------------------------- instances


def quadratics(noise: float = 1.0, seed: int = 0, offset: float = 1.0) -> GroupedQuadratics:
    """Six clients in three groups, n = 3, 8 centred noise rows (noise 0: exact gradients)."""
    labels = (0, 0, 1, 1, 2, 2)
    rng = np.random.default_rng(seed)
    K, n = len(labels), 3
    Q = np.linalg.qr(rng.standard_normal((K, n, n)))[0]
    eig = rng.uniform(1.0, 4.0, (K, n))
    curvature = np.einsum("kab,kb,kcb->kac", Q, eig, Q)
    curvature = 0.5 * (curvature + curvature.transpose(0, 2, 1))  # symmetric to the bit
    centres = 3.0 * np.eye(n)[np.array(labels) % n] + 0.5 * rng.standard_normal((K, n))
    Z = noise * rng.standard_normal((K, 8, n))
    Z -= Z.mean(axis=1, keepdims=True)
    groups = GroupStructure.from_counts(np.array(labels), rng.integers(20, 100, K))
    return GroupedQuadratics(groups, curvature, centres, offset * rng.uniform(0.5, 1, K), Z)


def classification(seed: int = 0) -> GroupedClassification:
    """Ridge logistic regression, five clients of 12 rows in two groups."""
    rng = np.random.default_rng(seed)
    K, n, p = 5, 12, 4
    X = rng.standard_normal((K, n, p))
    y = np.where(X @ rng.standard_normal(p) + 0.5 * rng.standard_normal((K, n)) > 0, 1.0, -1.0)
    counts = np.full(K, n)
    groups = GroupStructure(np.arange(K) % 2, np.array([0.1, 0.15, 0.2, 0.25, 0.3]))
    return GroupedClassification(groups, "logistic", X, y, counts, 2, 0.05, X, y, counts)


# ============================================================================== kernels


def test_the_capped_simplex_projection_equals_bisection_and_is_feasible() -> None:
    rng = np.random.default_rng(1)
    for _ in range(300):
        n = int(rng.integers(1, 10))
        y = rng.standard_normal(n) * rng.choice([0.01, 1.0, 30.0])
        start = rng.dirichlet(np.ones(n))
        eps = float(rng.choice([0.0, 0.05, 0.3, 1.0]))
        lo, hi = np.maximum(0.0, start - eps), np.minimum(1.0, start + eps)
        out = np.empty(n)
        _project_capped_simplex(y, lo, hi, out)
        assert np.allclose(out, twin.project_capped_simplex(y, lo, hi), rtol=0, atol=1e-12)
        assert abs(out.sum() - 1.0) < 1e-12
        assert np.all(out >= lo) and np.all(out <= hi)


def test_the_projection_of_a_feasible_point_is_itself() -> None:
    x = np.array([0.2, 0.5, 0.3])
    out = np.empty(3)
    _project_capped_simplex(x, np.zeros(3), np.ones(3), out)
    assert np.allclose(out, x, atol=1e-15)


@pytest.mark.parametrize("eps", [0.0, 0.05, 0.3, 1.0])
def test_the_fedmgda_qp_reaches_the_cvxpy_optimum(eps: float) -> None:
    rng = np.random.default_rng(int(eps * 100))
    for _ in range(8):
        n, d = int(rng.integers(2, 9)), int(rng.integers(1, 6))
        G = rng.standard_normal((n, d))
        G /= np.linalg.norm(G, axis=1, keepdims=True)
        start = rng.dirichlet(np.ones(n))
        lo, hi = np.maximum(0.0, start - eps), np.minimum(1.0, start + eps)
        out = np.empty(n)
        _, residual = _min_norm_weights(G @ G.T, lo, hi, start, out, 1e-12, 100_000)
        assert residual <= 1e-12
        assert abs(out.sum() - 1.0) < 1e-12 and np.all(out >= lo - 1e-15) and np.all(out <= hi)
        x = cp.Variable(n)
        cp.Problem(cp.Minimize(cp.sum_squares(G.T @ x)), [cp.sum(x) == 1, x >= lo, x <= hi]).solve(
            solver="CLARABEL"
        )
        ours, theirs = float(np.sum((G.T @ out) ** 2)), float(np.sum((G.T @ x.value) ** 2))
        assert ours <= theirs + 1e-8  # Clarabel's own accuracy; ours is KKT-exact
        # the min-norm vector is unique: ‖v − v*‖² ≤ f(v) − f(v*)
        assert np.linalg.norm(G.T @ out - G.T @ x.value) <= 1e-4
        reference = twin.min_norm_weights(G, lo, hi, start, 5000)
        assert ours <= float(np.sum((G.T @ reference) ** 2)) + 1e-12


# ============================================================================== server twins


def _rounds(run: baselines.BaselineRun) -> range:
    return range(run.rounds)


def _uploaders(run: baselines.BaselineRun, c: int) -> np.ndarray:
    """The uploading clients of round c (full participation: everyone, in order)."""
    return np.flatnonzero(np.isfinite(run.logs["losses"][c]))


@pytest.mark.parametrize("q", [0.0, 0.5, 2.0])
@pytest.mark.parametrize("aggregation", ["uniform", "weighted"])
def test_qffl_server_equals_its_twin_every_round(q: float, aggregation: str) -> None:
    problem = quadratics()
    p = problem.groups.p
    run = baselines.qffl(
        problem, q, rounds=6, local_steps=3, step_size=0.05, batch=2,
        aggregation=aggregation, seed=3, record=True,
    )  # fmt: skip
    a = p if aggregation == "weighted" else np.full(6, 1 / 6)
    for c in _rounds(run):
        w = run.global_iterates[c]
        assert np.allclose(run.logs["losses"][c], problem.client_values(w), rtol=1e-13)
        expected = twin.qffl_server(
            q, 1 / 0.05, w, run.local_iterates[c + 1], np.arange(6), run.logs["losses"][c], a
        )
        assert np.allclose(run.global_iterates[c + 1], expected, rtol=1e-12, atol=1e-13)


def test_qfedsgd_server_equals_its_twin_and_uses_exact_gradients() -> None:
    problem = quadratics()
    run = baselines.qfedsgd(problem, 1.0, rounds=5, step_size=0.05, seed=0, record=True)
    counts = np.full(6, 8)
    for c in _rounds(run):
        w = run.global_iterates[c]
        assert np.allclose(run.local_iterates[c + 1] / 8, problem.client_gradients(w), atol=1e-12)
        expected = twin.qffl_server(
            1.0, 20.0, w, run.local_iterates[c + 1], np.arange(6),
            run.logs["losses"][c], np.full(6, 1 / 6), counts,
        )  # fmt: skip
        assert np.allclose(run.global_iterates[c + 1], expected, rtol=1e-12, atol=1e-13)


def test_term_server_equals_its_twin_every_round() -> None:
    problem = quadratics()
    run = baselines.term(
        problem, 2.0, rounds=6, local_steps=2, step_size=0.05, batch=2, seed=1, record=True
    )
    p = problem.groups.p
    for c in _rounds(run):
        w, losses = run.global_iterates[c], run.logs["losses"][c]
        expected = twin.term_server(2.0, w, run.local_iterates[c + 1], np.arange(6), losses, p)
        assert np.allclose(run.global_iterates[c + 1], expected, rtol=1e-12, atol=1e-13)
        assert np.allclose(run.logs["weights"][c], twin.term_weights(2.0, losses, p), rtol=1e-12)


def test_afl_server_equals_its_twin_every_round_with_sampling() -> None:
    problem = quadratics()
    run = baselines.afl(
        problem, rounds=8, step_size=0.05, mixture_step=0.1, batch=2,
        clients_per_round=3, seed=2, record=True,
    )  # fmt: skip
    mixtures = run.logs["mixtures"]
    for c in _rounds(run):
        clients = _uploaders(run, c)
        assert clients.size == 3
        w, new_mixture = twin.afl_server(
            0.1, run.global_iterates[c], mixtures[c], run.local_iterates[c + 1], clients,
            run.logs["losses"][c], np.full(3, 6 / 3),
        )  # fmt: skip
        assert np.allclose(run.global_iterates[c + 1], w, rtol=1e-12, atol=1e-13)
        if c + 1 < run.rounds:
            assert np.allclose(mixtures[c + 1], new_mixture, atol=1e-12)
    assert np.allclose(run.averaged_model, run.global_iterates[:-1].mean(axis=0), atol=1e-13)
    assert np.allclose(run.averaged_mixture, mixtures.mean(axis=0), atol=1e-13)


@pytest.mark.parametrize("eps", [0.0, 0.2, 1.0])
def test_fedmgda_server_equals_its_twin_every_round(eps: float) -> None:
    problem = quadratics()
    run = baselines.fedmgda_plus(
        problem, eps, rounds=5, local_steps=3, step_size=0.05, global_step=0.2, batch=2,
        seed=4, record=True,
    )  # fmt: skip
    for c in _rounds(run):
        w, _ = twin.fedmgda_server(
            eps, 0.2, run.global_iterates[c], run.local_iterates[c + 1], np.arange(6),
            np.full(6, 1 / 6),
        )  # fmt: skip
        assert np.allclose(run.global_iterates[c + 1], w, atol=1e-7)
        if eps == 0.0:  # FedAvg on normalised updates: λ = λ_0 exactly
            assert np.allclose(run.logs["weights"][c], np.full(6, 1 / 6), rtol=1e-15, atol=0)
            assert np.allclose(run.global_iterates[c + 1], w, rtol=1e-13, atol=1e-14)
    assert run.logs["solver"][0] <= 1e-12


# ============================================================================== limits

#: Participation and aggregation under which q-FFL's q = 0 mean Σ a_a w̄_a / Σ a_a (module
#: docstring [derived]) is GIFAIR-FL's aggregation of the same uploads: p-weighted (full
#: participation), the plain mean, the mean of the p-draws (scheme I).
MATCHING = {
    "full-weighted": {"aggregation": "weighted"},
    "full-uniform": {"aggregation": "uniform"},
    "p-sampling": {"aggregation": "uniform", "clients_per_round": 3},
    "uniform-sampling": {"aggregation": "uniform", "clients_per_round": 3, "sampling": "uniform"},
}
SETTINGS = {"rounds": 10, "local_steps": 3, "step_size": 0.3, "batch": 4, "seed": 7}


@pytest.mark.parametrize("mode", sorted(MATCHING))
def test_qffl_at_q_zero_is_gifair_at_lambda_zero_with_the_matching_aggregation(mode: str) -> None:
    problem = classification()
    settings = {**SETTINGS, **MATCHING[mode], "record": True}
    ours = baselines.qffl(problem, 0.0, **settings)  # type: ignore[arg-type]
    fair = gifair_global(problem, 0.0, **settings)  # type: ignore[arg-type]
    # the same draws: the same clients train on the same minibatches from the same model
    np.testing.assert_array_equal(ours.local_iterates[1], fair.local_iterates[1])
    # w − Σ a L̂(w − w̄)/(L̂ Σ a) is the mean up to rounding, round after round
    assert np.allclose(ours.global_iterates, fair.global_iterates, rtol=1e-12, atol=1e-13)
    other = "uniform" if settings["aggregation"] == "weighted" else "weighted"
    moved = gifair_global(problem, 0.0, **{**settings, "aggregation": other})  # type: ignore[arg-type]
    if mode != "p-sampling":  # under p-sampling both of GIFAIR's aggregations are scheme I
        assert not np.allclose(moved.global_model, ours.global_model, rtol=1e-6)


def test_qffl_at_q_zero_under_uniform_sampling_is_self_normalised_not_scheme_ii() -> None:
    problem = classification()
    settings = {**SETTINGS, "aggregation": "weighted", "clients_per_round": 3}
    settings |= {"sampling": "uniform", "record": True, "rounds": 1}
    ours = baselines.qffl(problem, 0.0, **settings)  # type: ignore[arg-type]
    fair = gifair_global(problem, 0.0, **settings)  # type: ignore[arg-type]
    S = _uploaders(ours, 0)
    p, uploads, w = problem.groups.p[S], ours.local_iterates[1][S], ours.global_iterates[0]
    assert np.allclose(ours.global_model, p @ uploads / p.sum(), rtol=1e-12, atol=1e-14)
    K = problem.num_clients
    scheme_ii = w - (K / 3) * p @ (w[None, :] - uploads)
    assert np.allclose(fair.global_model, scheme_ii, rtol=1e-12, atol=1e-14)
    assert not np.allclose(ours.global_model, fair.global_model, rtol=1e-6)


def test_term_as_the_tilt_vanishes_is_fedavg() -> None:
    problem = classification()
    core = fedavg_printed(problem, **SETTINGS)  # type: ignore[arg-type]
    ours = baselines.term(problem, 1e-10, **SETTINGS)  # type: ignore[arg-type]
    assert np.allclose(ours.global_model, core.global_model, rtol=1e-8, atol=1e-10)
    tilted = baselines.term(problem, 5.0, **SETTINGS)  # type: ignore[arg-type]
    assert not np.allclose(tilted.global_model, core.global_model, rtol=1e-4)


def test_term_gives_the_same_bits_wherever_its_buffers_are_allocated() -> None:
    """The same seed, the same bits, call after call, while the heap changes between calls.

    TERM's server step summed its tilted weights in the loop that wrote them; LLVM vectorised
    that (reassociated) sum behind a run-time check that the weights do not overlap the
    losses, and the scalar fallback summed in another order: which one ran depended on where
    the two buffers were allocated, and about one call in eight came out 1 ulp apart."""
    problem = classification()
    rng = np.random.default_rng(0)
    kept = []  # allocations of assorted sizes left between the calls: a heap that moves
    results = set()
    for _ in range(40):
        kept.append(np.empty(int(rng.integers(1, 50))))
        run = baselines.term(problem, 1e-10, **SETTINGS)  # type: ignore[arg-type]
        results.add(run.global_model.tobytes() + run.logs["weights"].tobytes())
    assert len(results) == 1


@pytest.mark.parametrize("mode", [*sorted(MATCHING), "uniform-sampling-weighted"])
def test_dittos_global_model_is_fedavg_bit_for_bit(mode: str) -> None:
    problem = classification()
    extra = MATCHING.get(mode, {"clients_per_round": 3, "sampling": "uniform"})
    settings = {**SETTINGS, **extra, "rounds": 8, "record": True}
    core = fedavg_printed(problem, **settings)  # type: ignore[arg-type]
    ours = baselines.ditto(problem, 0.5, **settings)  # type: ignore[arg-type]
    np.testing.assert_array_equal(ours.global_iterates, core.global_iterates)
    assert not np.allclose(ours.personal_models, ours.global_model[None, :], rtol=1e-3)


def _tilted_risk(problem: GroupedQuadratics, tilt: float, theta: np.ndarray) -> float:
    F = problem.client_values(theta)
    top = float(F.max())
    return top + math.log(float(problem.groups.p @ np.exp(tilt * (F - top)))) / tilt


def test_large_tilt_approaches_the_minimax_optimum() -> None:
    problem = quadratics(noise=0.0)
    value = exact.afl_optimum(problem).value
    p_min = float(problem.groups.p.min())
    fedavg_worst = float(problem.client_values(problem.global_optimum()).max())
    gaps = []
    # E = 1 with exact gradients: gradient descent on the tilted risk, whose smoothness grows
    # with t (≈ L + t max‖∇F_k‖²), hence the smaller steps
    for tilt, step in ((2.0, 0.01), (20.0, 0.002), (50.0, 0.0005)):
        run = baselines.term(
            problem, tilt, rounds=10_000, local_steps=1, step_size=step, batch=8, seed=0
        )
        # it is the tilted optimum (cvxpy): the tilted risk there, to the solver's accuracy
        optimum = exact.term_optimum(problem, tilt)
        assert _tilted_risk(problem, tilt, run.global_model) <= optimum.value + 1e-7
        worst = float(problem.client_values(run.global_model).max())
        # max_k F_k(θ_t) ≤ min max + log(1/p_min)/t at the tilted optimum θ_t
        assert value - 1e-7 <= worst <= value + math.log(1 / p_min) / tilt + 1e-6
        gaps.append(worst - value)
    assert gaps[0] > gaps[1] > gaps[2]
    assert gaps[0] < fedavg_worst - value


@pytest.mark.parametrize("q", [0.0, 1.0, 3.0])
def test_qffl_reaches_the_exact_qffl_optimum(q: float) -> None:
    """E = 1, exact gradients, p-weighted: the fixed point of w − Σ p F^q ∇F / Σ p h is
    Σ p F^q ∇F = 0, the stationarity of Σ p F^{q+1}/(q + 1)."""
    problem = quadratics(noise=0.0)
    run = baselines.qffl(
        problem, q, rounds=3000, local_steps=1, step_size=0.05, batch=8,
        aggregation="weighted", seed=0,
    )  # fmt: skip
    p, w = problem.groups.p, run.global_model

    def objective(theta: np.ndarray) -> float:
        return float(p @ problem.client_values(theta) ** (q + 1)) / (q + 1)

    # stationary (the exact criterion), and no worse than cvxpy's point (Clarabel's accuracy
    # is ~1e-9 relative: its reported value is not a bound to 1e-7 at F^4 ≈ 10^4)
    gradient = (p * problem.client_values(w) ** q) @ problem.client_gradients(w)
    assert np.linalg.norm(gradient) <= 1e-9
    optimum = exact.qffl_optimum(problem, q)
    assert objective(w) <= objective(optimum.theta) + 1e-12 * objective(w)
    assert np.linalg.norm(w - optimum.theta) <= 1e-4


def test_afl_converges_to_the_minimax_optimum_within_its_regret_bound() -> None:
    problem = quadratics(noise=0.0)
    optimum = exact.afl_optimum(problem)
    value, theta = optimum.value, optimum.theta
    rounds = 4000
    gamma = 0.5 / math.sqrt(rounds)
    run = baselines.afl(
        problem, rounds=rounds, step_size=gamma, mixture_step=gamma, batch=8, seed=0,
        record=True,
    )  # fmt: skip
    gap = float(problem.client_values(run.averaged_model).max()) - value
    # regret of both players (deterministic gradients, comparators θ* and any λ ∈ Δ):
    # gap ≤ ‖w0 − θ*‖²/(2γT) + γ·mean‖Σλ∇F‖²/2 + 2/(2γT) + γ·mean‖F‖²/2
    ws, lams = run.global_iterates[:-1], run.logs["mixtures"]
    g_w = np.mean(
        [np.sum((lam @ problem.client_gradients(w)) ** 2) for w, lam in zip(ws, lams, strict=True)]
    )
    g_l = np.mean([np.sum(problem.client_values(w) ** 2) for w in ws])
    bound = (float(theta @ theta) + 2.0) / (2 * gamma * rounds) + gamma * (g_w + g_l) / 2
    assert -1e-7 <= gap <= bound
    assert gap < 0.1 * (float(problem.client_values(np.zeros(3)).max()) - value)


@pytest.mark.parametrize("lam_d", [0.0, 0.3, 3.0, 300.0])
def test_dittos_personal_models_reach_their_closed_form(lam_d: float) -> None:
    problem = quadratics(noise=0.0)
    step = 0.1 if lam_d < 100 else 0.003
    run = baselines.ditto(
        problem, lam_d, rounds=800, local_steps=1, step_size=0.1, batch=8,
        personal_steps=10, personal_step_size=step, seed=0,
    )  # fmt: skip
    w = run.global_model  # E = 1, exact gradients: gradient descent on Σ p_k F_k
    assert np.allclose(w, problem.global_optimum(), atol=1e-10)
    v = run.personal_models
    assert np.allclose(v, exact.ditto_personal(problem, w, lam_d), atol=1e-8)
    spread = np.max(np.linalg.norm(problem.centres - w, axis=1))
    if lam_d == 0.0:
        assert np.allclose(v, problem.centres, atol=1e-8)
    if lam_d == 300.0:  # ‖v_k − w‖ ≤ ‖A_k‖‖c_k − w‖/λ_D
        assert np.max(np.linalg.norm(v - w, axis=1)) <= 4.0 * spread / lam_d


# ============================================================================== inputs, seeds


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda P: baselines.qffl(P, -0.5, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  seed=0), "q"),
        (lambda P: baselines.term(P, 0.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  seed=0), "tilt"),
        (lambda P: baselines.term(P, -1.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  seed=0), "tilt"),
        (lambda P: baselines.fedmgda_plus(P, 1.5, rounds=1, local_steps=1, step_size=0.1,
                                          global_step=0.1, batch=1, seed=0), "eps"),
        (lambda P: baselines.ditto(P, -1.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                   seed=0), "lam_d"),
        (lambda P: baselines.qffl(P, 1.0, rounds=1, local_steps=1, step_size=0.1, batch=9,
                                  seed=0), "batch"),
        (lambda P: baselines.qffl(P, 1.0, rounds=1, local_steps=1, step_size=-0.1, batch=1,
                                  seed=0), "step_size"),
        (lambda P: baselines.qffl(P, 1.0, rounds=3, local_steps=2, step_size=lambda t: 1 - t,
                                  batch=1, seed=0), "step_size"),
        (lambda P: baselines.qffl(P, 1.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  clients_per_round=7, seed=0), "clients_per_round"),
        (lambda P: baselines.qffl(P, 1.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  aggregation="mean", seed=0), "aggregation"),
        (lambda P: baselines.afl(P, rounds=1, step_size=0.1, mixture_step=0.1, batch=1,
                                 mixture_init=[1.0, 0, 0, 0, 0, 0.5], seed=0), "mixture_init"),
        (lambda P: baselines.qffl(P, 1.0, rounds=1, local_steps=1, step_size=0.1, batch=1,
                                  seed=None), "seed"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_naming_the_parameter(call: object, parameter: str) -> None:
    with pytest.raises(ParameterError) as error:
        call(quadratics())  # type: ignore[operator]
    assert error.value.parameter == parameter


def test_negative_losses_are_refused_by_qffl() -> None:
    problem = quadratics(offset=-50.0)
    with pytest.raises(ConditionError, match="F_k"):
        baselines.qffl(problem, 0.5, rounds=2, local_steps=1, step_size=0.1, batch=1, seed=0)
    baselines.qffl(problem, 0.0, rounds=2, local_steps=1, step_size=0.1, batch=1, seed=0)


@pytest.mark.parametrize("sampling", ["p_with_replacement", "uniform"])
def test_same_seed_same_bits_and_replicates_are_spawned_runs(sampling: str) -> None:
    problem = quadratics()
    settings = {
        "rounds": 6,
        "local_steps": 2,
        "step_size": 0.05,
        "batch": 2,
        "clients_per_round": 3,
        "sampling": sampling,
    }
    batch = baselines.ditto(problem, 0.5, seed=9, replicates=3, **settings)  # type: ignore[arg-type]
    for r in range(3):
        alone = baselines.ditto(
            problem, 0.5, seed=np.random.SeedSequence(9, spawn_key=(r,)), **settings
        )  # type: ignore[arg-type]
        assert np.array_equal(batch.replicate(r).global_model, alone.global_model)
        assert np.array_equal(batch.replicate(r).personal_models, alone.personal_models)
    again = baselines.term(problem, 1.0, seed=9, **settings)  # type: ignore[arg-type]
    same = baselines.term(problem, 1.0, seed=9, **settings)  # type: ignore[arg-type]
    assert np.array_equal(again.global_model, same.global_model)
    assert np.array_equal(again.logs["weights"], same.logs["weights"], equal_nan=True)


def test_p_sampling_with_replacement_uploads_every_draw() -> None:
    problem = quadratics()
    run = baselines.term(
        problem, 1.0, rounds=40, local_steps=1, step_size=0.05, batch=2,
        clients_per_round=4, seed=3,
    )  # fmt: skip
    assert np.all(run.trace.uploads == 4)
    assert np.all(run.trace.participants <= 4)
    assert np.any(run.trace.participants < 4)  # a repeated draw trains once, uploads twice
    # the loss reports: n_k = 8 evaluations and one float per upload
    assert np.all(run.trace.function_queries == 8 * run.trace.uploads)
