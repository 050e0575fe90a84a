"""Federated mean estimation (GM-Q), outlier and linear-regression models against the theory.

Exact ERMs against their optimality conditions, computed constants against their definitions,
Monte-Carlo risks against the closed forms of the reading guide (V1, V8, V11, V15, V16), and
cvxpy (Clarabel) cross-checks of the FedProx minimisers of Chen et al., eq. (20).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.papers.minimax import (
    LinearRegressionClients,
    OutlierClients,
    QuadraticClients,
    fine_tune_equivalent_lambda,
    gmq_crossing_radius2,
    gmq_expected_risk_fedavg,
    gmq_expected_risk_fedprox,
    gmq_expected_risk_plt,
    gmq_minimax_envelope,
    gmq_tuned_fedprox_lambda,
    gmq_tuned_fedprox_risk,
    linear_regression_clients,
    outlier_clients,
    quadratic_clients,
)

SQRT3 = math.sqrt(3.0)


def fedprox_objective(means: np.ndarray, p: np.ndarray, lam: float, g: np.ndarray, w: np.ndarray):
    """(20) on GM-Q up to a constant: Σ p_i [½‖w_i − x̄_i‖² + λ/2‖g − w_i‖²]."""
    return float(p @ (0.5 * np.sum((w - means) ** 2, axis=1) + 0.5 * lam * np.sum((g - w) ** 2, 1)))


# ---------------------------------------------------------------------------------------------
# construction, constants, layout
# ---------------------------------------------------------------------------------------------


def test_gmq_layout_padding_and_noise_support() -> None:
    inst = quadratic_clients(4, [3, 5, 8, 2], 3, 0.7, 0.5, seed=1, radius=5.0)
    assert isinstance(inst, QuadraticClients)
    data = inst.data
    assert data.loss == "mean" and data.radius == 5.0 and data.features.shape == (4, 8, 3)
    np.testing.assert_array_equal(data.counts, [3, 5, 8, 2])
    np.testing.assert_array_equal(data.targets, 0.0)
    np.testing.assert_allclose(inst.weights, np.array([3, 5, 8, 2]) / 18, rtol=1e-15)
    for i in range(4):
        z, _ = data.client(i)
        noise = z - inst.optima[i]
        assert np.all(np.abs(noise) <= SQRT3 * 0.5)
        np.testing.assert_array_equal(data.features[i, data.counts[i] :], 0.0)
        np.testing.assert_allclose(inst.client_means()[i], z.mean(axis=0), rtol=1e-14)


def test_gmq_constants_match_their_definitions() -> None:
    s, d, radius = 0.8, 3, 4.0
    inst = quadratic_clients(3, 4, d, 1.0, s, seed=2, radius=radius, center=[0.5, 0.0, 0.0])
    # β = μ = 1: the empirical risks are quadratics with Hessian I (exact second differences).
    w, e, t = np.array([0.3, -0.2, 0.1]), np.eye(d)[1], 0.7
    second = (
        inst.data.empirical_risk(w + t * e)
        - 2 * inst.data.empirical_risk(w)
        + inst.data.empirical_risk(w - t * e)
    ) / t**2
    np.testing.assert_allclose(second, 1.0, rtol=1e-12)
    assert inst.beta == inst.mu == 1.0
    assert inst.sigma2 == pytest.approx(d * s**2, rel=1e-15)
    # σ² = E‖∇ℓ(w⋆; Z)‖² = E‖ξ‖² by Monte Carlo (one client, many samples, R = 0).
    big = quadratic_clients(1, 100_000, d, 0.0, s, seed=3)
    squares = np.sum((big.data.features[0] - big.optima[0]) ** 2, axis=1)
    assert abs(squares.mean() - big.sigma2) < 4 * squares.std(ddof=1) / math.sqrt(squares.size)
    # ‖ℓ‖∞: no loss on 𝒲 × support exceeds it, and the explicit maximiser attains it.
    rng = np.random.default_rng(0)
    points = rng.standard_normal((4000, d))
    points *= (radius * rng.random(4000) ** (1 / d) / np.linalg.norm(points, axis=1))[:, None]
    for i in range(3):
        z = inst.optima[i] + rng.uniform(-SQRT3 * s, SQRT3 * s, size=(4000, d))
        assert np.max(0.5 * np.sum((points - z) ** 2, axis=1)) <= inst.ell_inf
    corners = inst.optima + SQRT3 * s * np.where(inst.optima >= 0, 1.0, -1.0)
    far = corners[np.argmax(np.linalg.norm(corners, axis=1))]
    worst_w = -radius * far / np.linalg.norm(far)
    assert 0.5 * np.sum((worst_w - far) ** 2) == pytest.approx(inst.ell_inf, rel=1e-14)
    assert quadratic_clients(2, 3, 2, 0.5, 1.0, seed=0).ell_inf == math.inf


def test_gmq_excess_risk_is_the_population_excess_risk() -> None:
    # 𝓡_i(w) − 𝓡_i(w⋆) estimated by the empirical risks of a large sample.
    inst = quadratic_clients(2, 200_000, 2, 1.0, 1.0, seed=4)
    w = np.array([[0.3, -0.4], [1.0, 1.0]])
    empirical = inst.data.empirical_risk(w) - inst.data.empirical_risk(inst.optima)
    np.testing.assert_allclose(inst.excess_risk(w), empirical, atol=0.01)
    np.testing.assert_allclose(inst.excess_risk(w), 0.5 * np.sum((w - inst.optima) ** 2, 1))
    np.testing.assert_array_equal(inst.excess_risk(inst.optima), 0.0)
    shared = inst.excess_risk(w[0])
    assert shared.shape == (2,)
    np.testing.assert_allclose(shared, 0.5 * np.sum((w[0] - inst.optima) ** 2, axis=1))


@pytest.mark.parametrize(
    ("m", "d", "levels"),
    [
        (4, 3, (1.0, 1.0)),
        (6, 1, (1.0, 1.0)),
        (5, 3, (1.0, 1.0)),  # odd m, d ≥ 2: a triple at 120° keeps both levels tight
        (7, 2, (1.0, 1.0)),
        (3, 2, (1.0, 1.0)),
        (5, 1, (0.8, 1.0)),  # odd m in d = 1: the last client at the center
        (1, 2, (0.0, 0.0)),
    ],
)
def test_antipodal_directions_make_both_heterogeneity_levels_tight(m, d, levels) -> None:
    R = 0.7
    w0 = np.linspace(-0.3, 0.3, d)
    inst = quadratic_clients(m, 5, d, R, 1.0, seed=m + d, center=w0, weights="fair")
    u = (inst.optima - w0) / R
    norms = np.linalg.norm(u, axis=1)
    np.testing.assert_allclose(np.sort(norms)[-1], 1.0 if m > 1 else 0.0, rtol=1e-14)
    np.testing.assert_allclose(u.sum(axis=0), 0.0, atol=1e-14)
    np.testing.assert_allclose(inst.center, w0, atol=1e-15)
    np.testing.assert_allclose(inst.heterogeneity(), np.array(levels) * R**2, rtol=1e-13)
    assert inst.R == R


def test_random_directions_and_nonuniform_weights_report_actual_levels() -> None:
    inst = quadratic_clients(5, [2, 3, 4, 5, 6], 3, 0.5, 1.0, seed=5, directions="random")
    np.testing.assert_allclose(np.linalg.norm(inst.optima, axis=1), 0.5, rtol=1e-14)
    p = np.array([2, 3, 4, 5, 6]) / 20
    center = p @ inst.optima
    np.testing.assert_allclose(inst.center, center, rtol=1e-15)
    gaps = np.sum((inst.optima - center) ** 2, axis=1)
    np.testing.assert_allclose(inst.heterogeneity(), (p @ gaps, gaps.max()), rtol=1e-14)
    fair = np.full(5, 0.2)
    fair_gaps = np.sum((inst.optima - fair @ inst.optima) ** 2, axis=1)
    np.testing.assert_allclose(
        inst.heterogeneity("fair"), (fair_gaps.mean(), fair_gaps.max()), rtol=1e-14
    )
    # Antipodal pairs with sample weights: w̄_p moves off w_0 and B(a) < R².
    anti = quadratic_clients(4, [2, 4, 6, 8], 2, 1.0, 1.0, seed=6)
    assert np.linalg.norm(anti.center) > 0.01
    level_a, level_b = anti.heterogeneity()
    assert level_a < 1.0 < level_b


def test_seeds_are_reproducible_and_instances_immutable() -> None:
    a = quadratic_clients(3, 4, 2, 0.5, 1.0, seed=9)
    b = quadratic_clients(3, 4, 2, 0.5, 1.0, seed=np.random.SeedSequence(9))
    c = quadratic_clients(3, 4, 2, 0.5, 1.0, seed=10)
    np.testing.assert_array_equal(a.data.features, b.data.features)
    np.testing.assert_array_equal(a.optima, b.optima)
    assert not np.array_equal(a.data.features, c.data.features)
    r1 = linear_regression_clients(3, 5, 2, 0.5, 1.0, seed=9)
    r2 = linear_regression_clients(3, 5, 2, 0.5, 1.0, seed=9)
    np.testing.assert_array_equal(r1.data.targets, r2.data.targets)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.R = 2.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        a.optima[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        r1.covariances[0, 0, 0] = 1.0


# ---------------------------------------------------------------------------------------------
# exact ERMs on GM-Q
# ---------------------------------------------------------------------------------------------


def test_gmq_erms_are_exact_minimisers() -> None:
    inst = quadratic_clients(4, [3, 5, 8, 2], 3, 0.7, 0.5, seed=1)
    means = np.array([inst.data.client(i)[0].mean(axis=0) for i in range(4)])
    np.testing.assert_allclose(inst.local_erm(), means, rtol=1e-14)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    glob = inst.global_erm(p)
    # ∇ Σ p_i L_i(w) = Σ p_i (w − x̄_i) vanishes at the global ERM (8).
    np.testing.assert_allclose(p @ (glob - means), 0.0, atol=1e-14)
    np.testing.assert_allclose(inst.global_erm(), inst.weights @ means, rtol=1e-14)
    np.testing.assert_allclose(inst.global_erm("fair"), means.mean(axis=0), rtol=1e-14)
    local, global_active = inst.projection_active()
    assert not local.any() and not global_active


def test_gmq_projected_erms_on_an_active_ball() -> None:
    # Large noise, few samples and a tight ball: some client means fall outside 𝒲.
    inst = quadratic_clients(6, 2, 2, 0.2, 3.0, seed=3, radius=1.0, weights="fair")
    means = inst.client_means()
    local_active, global_active = inst.projection_active()
    outside = np.linalg.norm(means, axis=1) > 1.0
    assert outside.any()
    np.testing.assert_array_equal(local_active, outside)
    local = inst.local_erm()
    np.testing.assert_allclose(np.linalg.norm(local[outside], axis=1), 1.0, rtol=1e-14)
    np.testing.assert_allclose(local[~outside], means[~outside], rtol=1e-15)
    # KKT of min ½‖w − x̄‖² on the ball: x̄ − w is a non-negative multiple of w on the sphere.
    for w, x in zip(local[outside], means[outside], strict=True):
        coef = (x - w) @ w
        assert coef > 0
        np.testing.assert_allclose(x - w, coef * w, atol=1e-14)
    pool = means.mean(axis=0)
    assert global_active == bool(np.linalg.norm(pool) > 1.0)
    np.testing.assert_allclose(inst.global_erm(), pool * min(1.0, 1.0 / np.linalg.norm(pool)))


def test_gmq_fedprox_closed_form_stationarity_and_limits() -> None:
    inst = quadratic_clients(5, [2, 4, 6, 3, 9], 3, 0.6, 1.0, seed=7)
    means = inst.client_means()
    for weights in (None, "fair", [0.4, 0.0, 0.3, 0.2, 0.1]):
        p = inst._weights(weights)
        for lam in (0.1, 1.0, 30.0):
            g, w = inst.fedprox_erm(lam, weights)
            theta = lam / (1 + lam)
            np.testing.assert_allclose(g, p @ means, rtol=1e-13)
            np.testing.assert_allclose(w, (1 - theta) * means + theta * (p @ means), rtol=1e-13)
            # gradients of (20): p_i[(w_i − x̄_i) + λ(w_i − g)] and λ Σ p_i (g − w_i).
            np.testing.assert_allclose(w - means + lam * (w - g), 0.0, atol=1e-13)
            np.testing.assert_allclose(lam * p @ (g - w), 0.0, atol=1e-13)
        g0, w0 = inst.fedprox_erm(0.0, weights)
        np.testing.assert_array_equal(w0, inst.local_erm())
        np.testing.assert_allclose(g0, p @ inst.local_erm(), rtol=1e-15)
        g_inf, w_inf = inst.fedprox_erm(math.inf, weights)
        np.testing.assert_array_equal(g_inf, inst.global_erm(weights))
        np.testing.assert_array_equal(w_inf, np.tile(inst.global_erm(weights), (5, 1)))
        # guide V11(a): λ → 0 gives PureLocalTraining, λ → ∞ FedAvg (relative 1e-6).
        local, glob = inst.local_erm(), inst.global_erm(weights)
        np.testing.assert_allclose(inst.fedprox_erm(1e-8, weights)[1], local, rtol=1e-6)
        np.testing.assert_allclose(inst.fedprox_erm(1e8, weights)[1], np.tile(glob, (5, 1)), 1e-6)
        np.testing.assert_allclose(inst.fedprox_erm(1e8, weights)[0], glob, rtol=1e-6)


@pytest.mark.parametrize("weights", ["fair", [0.5, 0.3, 0.2]])
def test_fine_tuning_equals_fedprox(weights) -> None:
    """Guide V11(d): k full-batch GD steps of size η from x̄_p ≡ FedProx with λ_k."""
    inst = quadratic_clients(3, [4, 7, 5], 2, 0.8, 1.0, seed=11, weights=weights)
    means = inst.client_means()
    for step in (0.05, 0.3, 0.5, 1.0):
        for k in (1, 2, 5, 20):
            w = np.tile(inst.global_erm(), (3, 1))
            for _ in range(k):
                w = w - step * (w - means)  # ∇L_i(w) = w − x̄_i
            lam = fine_tune_equivalent_lambda(step, k)
            np.testing.assert_allclose(inst.fedprox_erm(lam)[1], w, rtol=1e-10, atol=1e-12)
    assert fine_tune_equivalent_lambda(0.3, 0) == math.inf
    assert fine_tune_equivalent_lambda(1.0, 3) == 0.0
    assert fine_tune_equivalent_lambda(0.5, 2) == pytest.approx(0.25 / 0.75, rel=1e-15)


def _check_ball_kkt(inst: QuadraticClients, lam: float, g: np.ndarray, w: np.ndarray) -> None:
    """Solver-free optimality of a FedProx solution on the ball (reduced problem in w^g)."""
    rho, p, means = inst.data.radius, inst.weights, inst.client_means()
    c = (means + lam * g) / (1 + lam)
    projected = c * np.minimum(1.0, rho / np.linalg.norm(c, axis=1))[:, None]
    np.testing.assert_allclose(w, projected, atol=1e-14)
    theta = lam / (1 + lam)
    grad = theta * (g - p @ means) + lam * p @ (c - projected)  # ∇Σ p_i F_i(g)
    scale = 1e-10 * max(1.0, lam)
    assert np.linalg.norm(g) <= rho * (1 + 1e-14)
    if np.linalg.norm(g) < rho * (1 - 1e-12):
        assert np.linalg.norm(grad) <= scale
    else:
        alpha = -(grad @ g) / rho**2
        assert alpha >= -scale
        assert np.linalg.norm(grad + alpha * g) <= scale


def test_gmq_constrained_fedprox_against_kkt_and_cvxpy() -> None:
    cp = pytest.importorskip("cvxpy")
    cases: dict[str, QuadraticClients | None] = {"global active": None, "local only": None}
    for seed in range(60):
        inst = quadratic_clients(
            3, 2, 2, 0.1, 2.0, seed, center=[1.0, 0.0], radius=1.2, weights=[0.5, 0.3, 0.2]
        )
        local, glob = inst.projection_active()
        key = "global active" if glob else "local only" if local.any() else None
        if key and cases[key] is None:
            cases[key] = inst
    assert all(case is not None for case in cases.values())
    for case in cases.values():
        assert isinstance(case, QuadraticClients)
        inst = case
        means, p, rho = inst.client_means(), inst.weights, inst.data.radius
        for lam in (0.3, 5.0, 100.0):
            g, w = inst.fedprox_erm(lam)
            _check_ball_kkt(inst, lam, g, w)
            wg, wl = cp.Variable(2), cp.Variable((3, 2))
            objective = sum(
                p[i]
                * (0.5 * cp.sum_squares(wl[i] - means[i]) + lam / 2 * cp.sum_squares(wg - wl[i]))
                for i in range(3)
            )
            constraints = [cp.norm(wg) <= rho] + [cp.norm(wl[i]) <= rho for i in range(3)]
            cp.Problem(cp.Minimize(objective), constraints).solve(solver="CLARABEL")
            g_cvx = wg.value * min(1.0, rho / np.linalg.norm(wg.value))
            w_cvx = wl.value * np.minimum(1.0, rho / np.linalg.norm(wl.value, axis=1))[:, None]
            ours = fedprox_objective(means, p, lam, g, w)
            assert ours <= fedprox_objective(means, p, lam, g_cvx, w_cvx) + 1e-12
            np.testing.assert_allclose(w, w_cvx, atol=1e-5)


def test_gmq_constrained_fedprox_kkt_sweep_and_limits() -> None:
    checked = 0
    for seed in range(40):
        inst = quadratic_clients(
            4, 2, 3, 0.3, 2.0, seed, center=[0.8, 0.0, 0.0], radius=1.2, weights="fair"
        )
        if not inst.projection_active()[0].any():
            continue
        checked += 1
        for lam in (1e-8, 1e-2, 0.5, 10.0, 1e3, 1e8):
            _check_ball_kkt(inst, lam, *inst.fedprox_erm(lam))
        # λ → 0 and λ → ∞ reach the projected local and global ERMs (guide V11(a)).
        glob = inst.global_erm()
        np.testing.assert_allclose(inst.fedprox_erm(1e-8)[1], inst.local_erm(), atol=1e-6)
        np.testing.assert_allclose(inst.fedprox_erm(1e8)[0], glob, atol=1e-6)
        np.testing.assert_allclose(inst.fedprox_erm(1e8)[1], np.tile(glob, (4, 1)), atol=1e-6)
        if checked == 6:
            break
    assert checked == 6


# ---------------------------------------------------------------------------------------------
# closed forms (guide V1, V11(b), V15, V16, §3.3)
# ---------------------------------------------------------------------------------------------


def test_general_fedprox_risk_reduces_to_the_guide_formulas() -> None:
    m, n, d, s, R = 6, 8, 3, 0.7, 0.45
    inst = quadratic_clients(m, n, d, R, s, seed=12, weights="fair")
    v = s**2 / n
    for lam in (0.0, 0.2, 1.0, 7.5, math.inf):
        theta = 1.0 if math.isinf(lam) else lam / (1 + lam)
        guide = 0.5 * (d * v * ((1 - theta) ** 2 + (1 - (1 - theta) ** 2) / m) + theta**2 * R**2)
        np.testing.assert_allclose(gmq_expected_risk_fedprox(inst, lam), guide, rtol=1e-13)
    np.testing.assert_allclose(
        gmq_expected_risk_fedprox(inst, 0.0), gmq_expected_risk_plt(d, s, n), rtol=1e-14
    )
    np.testing.assert_allclose(
        gmq_expected_risk_fedavg(inst), 0.5 * (R**2 + d * s**2 / (m * n)), rtol=1e-13
    )
    assert gmq_expected_risk_plt(d, s, n) == pytest.approx(d * s**2 / (2 * n), rel=1e-15)
    sizes = gmq_expected_risk_plt(d, s, [2, 4])
    np.testing.assert_allclose(sizes, [d * s**2 / 4, d * s**2 / 8], rtol=1e-15)
    # Imbalanced, general p: θ = 0 and θ = 1 give PLT and FedAvg client by client.
    imb = quadratic_clients(4, [2, 5, 9, 3], 2, 0.6, 1.3, seed=13, directions="random")
    p = imb.weights
    np.testing.assert_allclose(
        gmq_expected_risk_fedprox(imb, 0.0), gmq_expected_risk_plt(2, 1.3, [2, 5, 9, 3])
    )
    bias = np.sum((p @ imb.optima - imb.optima) ** 2, axis=1)
    fedavg = 0.5 * (bias + 2 * 1.3**2 * np.sum(p**2 / np.array([2, 5, 9, 3])))
    np.testing.assert_allclose(gmq_expected_risk_fedavg(imb), fedavg, rtol=1e-14)
    np.testing.assert_allclose(gmq_expected_risk_fedprox(imb, 1e12), fedavg, rtol=1e-10)


CONFIGS = [
    # balanced, fair weights, antipodal: the guide's V1 setting
    {"m": 4, "n": 6, "d": 2, "R": 0.6, "noise": 1.0, "weights": "fair", "lam": 0.7},
    # imbalanced n, general weights, random directions
    {
        "m": 5,
        "n": [2, 4, 7, 11, 20],
        "d": 3,
        "R": 0.4,
        "noise": 0.5,
        "weights": [0.1, 0.3, 0.2, 0.25, 0.15],
        "directions": "random",
        "lam": 2.0,
    },
    # odd m (120° triple), sample-proportional weights on imbalanced data
    {"m": 3, "n": [3, 9, 5], "d": 2, "R": 0.8, "noise": 1.5, "weights": None, "lam": 0.25},
]


@pytest.mark.parametrize("config", CONFIGS)
def test_monte_carlo_risks_match_the_closed_forms(config) -> None:
    """Guide V1: the mean excess risk of each exact ERM is within 4 SE of its formula."""
    config = dict(config)
    lam = config.pop("lam")
    m, d, noise = config["m"], config["d"], config["noise"]
    reps = 400
    risks = np.empty((3, reps, m))
    formulas = np.empty((3, reps, m))
    for r in range(reps):
        inst = quadratic_clients(seed=1000 + r, **config)
        risks[0, r] = inst.excess_risk(inst.local_erm())
        risks[1, r] = inst.excess_risk(inst.global_erm())
        risks[2, r] = inst.excess_risk(inst.fedprox_erm(lam)[1])
        formulas[0, r] = gmq_expected_risk_plt(d, noise, inst.data.counts)
        formulas[1, r] = gmq_expected_risk_fedavg(inst)
        formulas[2, r] = gmq_expected_risk_fedprox(inst, lam)
    gaps = risks - formulas  # E[risk | optima] = formula, so each gap has mean 0
    mean = gaps.mean(axis=1)
    se = gaps.std(axis=1, ddof=1) / math.sqrt(reps)
    assert np.all(np.abs(mean) < 4 * se), (mean / se).round(2)
    # The test has power: a 25% error in any formula would be more than 4 SE away.
    assert np.all(4 * se < 0.25 * formulas.mean(axis=1))


def test_tuned_fedprox_and_crossing_radius() -> None:
    m, n, d, s = 5, 10, 3, 1.0
    v, big_v = s**2 / n, d * s**2 / n * (1 - 1 / m)
    grid = np.concatenate(([0.0], np.geomspace(1e-4, 1e4, 4001)))
    for R in (0.0, 0.05, 0.3, 1.0, 3.0):
        inst = quadratic_clients(m, n, d, R, s, seed=1, weights="fair")
        tuned = gmq_tuned_fedprox_risk(d, s, n, m, R)
        risks = np.array([gmq_expected_risk_fedprox(inst, lam)[0] for lam in grid])
        assert tuned <= risks.min() * (1 + 1e-12)
        assert tuned >= risks.min() * (1 - 1e-5)
        lam_star = gmq_tuned_fedprox_lambda(d, s, n, m, R)
        np.testing.assert_allclose(gmq_expected_risk_fedprox(inst, lam_star), tuned, rtol=1e-12)
        if R > 0:
            assert lam_star == pytest.approx(big_v / R**2, rel=1e-14)
        plt, fedavg = gmq_expected_risk_plt(d, s, n), gmq_expected_risk_fedavg(inst)[0]
        # guide V11(b): ½ ≤ tuned / min(FA, PLT) ≤ 1
        assert 0.5 <= tuned / min(plt, fedavg) <= 1.0 + 1e-14
    assert gmq_tuned_fedprox_risk(d, s, n, m, 0.0) == pytest.approx(0.5 * d * v / m, rel=1e-14)
    assert gmq_tuned_fedprox_lambda(d, s, n, m, 0.0) == math.inf
    # §3.3: PLT and FedAvg have equal risk at R*² = d s²(1/n − 1/N).
    r2 = gmq_crossing_radius2(d, s, n, m * n)
    assert r2 == pytest.approx(d * s**2 * (1 / n - 1 / (m * n)), rel=1e-15)
    at_crossing = quadratic_clients(m, n, d, math.sqrt(r2), s, seed=2, weights="fair")
    np.testing.assert_allclose(
        gmq_expected_risk_fedavg(at_crossing), gmq_expected_risk_plt(d, s, n), rtol=1e-13
    )


@pytest.mark.parametrize("m", [2, 4, 16, 64])
def test_oracle_dichotomy_is_within_its_exact_band_of_the_envelope(m: int) -> None:
    """Guide V5(c) on GM-Q, exact: the better of local training and FedAvg lies between
    ½·m/(m + 1) and ½ of min(ds²/n, R²) + ds²/N, both ends attained (½ while FedAvg is chosen,
    ½·m/(m + 1) once R² ≥ ds²/n). Algebra on the closed forms, moved here from the claims
    minimax/cor9/oracle-*-envelope, which now judge the simulated dichotomy against the rate."""
    d, s = 8, 1.0
    radii = np.geomspace(0.003, 10.0, 120)
    for n in (10, 40, 160, 640):
        plt = gmq_expected_risk_plt(d, s, n)
        fedavg = np.array(
            [
                gmq_expected_risk_fedavg(quadratic_clients(m, n, d, r, s, 0, weights="fair"))
                for r in radii
            ]
        )
        assert np.allclose(fedavg, fedavg[:, :1], rtol=1e-12)  # every client has bias R²
        oracle = np.where(radii**2 <= gmq_crossing_radius2(d, s, n, m * n), fedavg[:, 0], plt)
        ratio = oracle / gmq_minimax_envelope(d, s, n, m, radii)
        low, high = 0.5 * m / (m + 1), 0.5
        assert np.all(ratio >= low * (1 - 1e-12))
        assert np.all(ratio <= high * (1 + 1e-12))
        assert ratio[0] == pytest.approx(high, rel=1e-12)
        assert ratio[-1] == pytest.approx(low, rel=1e-12)


@pytest.mark.parametrize("p_o", [0.1, 0.25, 0.7])
def test_outlier_aer_versus_ier(p_o: float) -> None:
    """Guide V15: B(a) = R² exactly, and the outlier's FedAvg bias is (1 − p_o)/p_o × AER's."""
    m, R, w0 = 6, 0.5, np.array([0.2, -0.1])
    inst = outlier_clients(m, 10, 2, R, 1.0, p_o, seed=3, center=w0)
    assert isinstance(inst, OutlierClients) and inst.outlier == m - 1
    assert inst.outlier_weight == p_o
    np.testing.assert_allclose(inst.weights[:-1], (1 - p_o) / (m - 1), rtol=1e-15)
    assert inst.weights[-1] == p_o
    np.testing.assert_allclose(inst.center, w0, atol=1e-15)
    delta = R / math.sqrt(p_o * (1 - p_o))
    assert inst.distance == pytest.approx(delta, rel=1e-15)
    np.testing.assert_allclose(np.linalg.norm(inst.optima[-1] - inst.optima[0]), delta, 1e-14)
    level_a, level_b = inst.heterogeneity()
    assert level_a == pytest.approx(R**2, rel=1e-13)
    assert level_b == pytest.approx(R**2 * max((1 - p_o) / p_o, p_o / (1 - p_o)), rel=1e-13)
    # Bias parts: closed form minus its variance term, and the population FedAvg limit w̄_p.
    fedavg = gmq_expected_risk_fedavg(inst)
    variance = 0.5 * 2 * np.sum(inst.weights**2 / inst.data.counts)
    bias = fedavg - variance
    ratio = (1 - p_o) / p_o
    assert bias[-1] / (inst.weights @ bias) == pytest.approx(ratio, rel=1e-12)
    limit = inst.excess_risk(inst.center)
    assert limit[-1] / (inst.weights @ limit) == pytest.approx(ratio, rel=1e-12)
    assert inst.weights @ limit == pytest.approx(0.5 * R**2, rel=1e-13)


def test_weighting_ratio_at_zero_heterogeneity() -> None:
    """Guide V16: AER_FA(p = 1/m)/AER_FA(p = n/N) = (N/m²) Σ 1/n_i at R = 0."""
    sizes = np.array([2, 3, 5, 10, 20])
    m, N, d, s = 5, int(sizes.sum()), 2, 1.0
    inst = quadratic_clients(m, sizes, d, 0.0, s, seed=0)
    fair = gmq_expected_risk_fedavg(inst, "fair")
    sample = gmq_expected_risk_fedavg(inst, "sample")
    expected = N / m**2 * np.sum(1.0 / sizes)
    np.testing.assert_allclose(fair / sample, expected, rtol=1e-13)
    assert sample[0] == pytest.approx(d * s**2 / (2 * N), rel=1e-14)
    # ... and in expectation, by Monte Carlo (AER weighted with the instance's p = n/N).
    reps = 400
    aer = np.empty((2, reps))
    for r in range(reps):
        rep = quadratic_clients(m, sizes, d, 0.0, s, seed=2000 + r)
        aer[0, r] = rep.weights @ rep.excess_risk(rep.global_erm("fair"))
        aer[1, r] = rep.weights @ rep.excess_risk(rep.global_erm("sample"))
    for row, target in zip(aer, (fair[0], sample[0]), strict=True):
        assert abs(row.mean() - target) < 4 * row.std(ddof=1) / math.sqrt(reps)


# ---------------------------------------------------------------------------------------------
# federated stability (guide V8)
# ---------------------------------------------------------------------------------------------


def test_replace_one_moves_the_global_erm_by_p_over_n() -> None:
    sizes = [3, 6, 4, 10]
    inst = quadratic_clients(4, sizes, 3, 0.5, 1.0, seed=21)
    p = inst.weights
    rng = np.random.default_rng(0)
    for client, index in [(0, 2), (1, 0), (3, 9)]:
        z = inst.data.features[client, index].copy()
        z_new = rng.standard_normal(3)
        other = inst.with_sample_replaced(client, index, z_new)
        assert type(other) is QuadraticClients
        shift = np.linalg.norm(other.global_erm() - inst.global_erm())
        expected = p[client] * np.linalg.norm(z - z_new) / sizes[client]
        assert shift == pytest.approx(expected, rel=1e-10)
        local_shift = np.linalg.norm(other.local_erm() - inst.local_erm(), axis=1)
        assert local_shift[client] == pytest.approx(expected / p[client], rel=1e-10)
        assert np.all(np.delete(local_shift, client) == 0.0)
        np.testing.assert_array_equal(inst.data.features[client, index], z)  # original intact
        np.testing.assert_array_equal(other.optima, inst.optima)
    out = outlier_clients(3, 4, 2, 0.5, 1.0, 0.2, seed=0)
    assert type(out.with_sample_replaced(2, 1, [0.0, 0.0])) is OutlierClients
    with pytest.raises(ParameterError, match="target"):
        inst.with_sample_replaced(0, 0, np.zeros(3), target=1.0)


# ---------------------------------------------------------------------------------------------
# linear regression with heterogeneous Hessians (guide §4 tier 3, V13)
# ---------------------------------------------------------------------------------------------


def test_linear_regression_constants_and_population_risk() -> None:
    m, d, spread, s = 3, 3, 9.0, 0.5
    inst = linear_regression_clients(m, 20, d, 0.4, s, seed=5, spread=spread)
    assert isinstance(inst, LinearRegressionClients)
    assert inst.data.loss == "squared" and inst.data.radius == math.inf
    cov = inst.covariances
    np.testing.assert_allclose(cov, np.swapaxes(cov, 1, 2), atol=0)
    spectra = np.linalg.eigvalsh(cov)
    np.testing.assert_allclose(spectra, np.tile(spread ** np.linspace(-0.5, 0.5, d), (m, 1)))
    assert inst.beta == pytest.approx(max(np.linalg.norm(c, 2) for c in cov), rel=1e-13)
    assert inst.mu == pytest.approx(min(1 / np.linalg.norm(np.linalg.inv(c), 2) for c in cov))
    assert inst.beta / inst.mu == pytest.approx(spread, rel=1e-12)
    assert not np.allclose(cov[0], cov[1])  # heterogeneous Hessians
    assert inst.sigma2 == pytest.approx(s**2 * np.trace(cov, axis1=1, axis2=2).max(), 1e-14)
    assert inst.ell_inf == math.inf
    # Population quantities from a large sample: E[xxᵀ] = Σ_i, the excess risk, and σ².
    big = linear_regression_clients(2, 100_000, 2, 1.0, s, seed=6, spread=4.0)
    hessians, _ = big.moments()
    np.testing.assert_allclose(hessians, big.covariances, atol=0.03)
    w = np.array([[0.5, -0.5], [0.0, 2.0]])
    empirical = big.data.empirical_risk(w) - big.data.empirical_risk(big.optima)
    np.testing.assert_allclose(big.excess_risk(w), empirical, rtol=0.03)
    x, y = big.data.client(0)
    grads = (x @ big.optima[0] - y)[:, None] * x
    sq = np.sum(grads**2, axis=1)
    assert abs(sq.mean() - s**2 * np.trace(big.covariances[0])) < 4 * sq.std() / math.sqrt(sq.size)
    # d = 1: client-specific variances spread over the clients.
    one = linear_regression_clients(3, 5, 1, 0.2, 1.0, seed=0, spread=4.0)
    np.testing.assert_allclose(one.covariances[:, 0, 0], [0.5, 1.0, 2.0], rtol=1e-14)
    assert (one.beta, one.mu) == pytest.approx((2.0, 0.5), rel=1e-14)


def test_linear_regression_erms_and_fedprox() -> None:
    inst = linear_regression_clients(4, [6, 9, 5, 12], 3, 0.5, 0.8, seed=8, spread=5.0)
    local = inst.local_erm()
    for i in range(4):
        x, y = inst.data.client(i)
        np.testing.assert_allclose(local[i], np.linalg.lstsq(x, y, rcond=None)[0], rtol=1e-10)
    hessians, b = inst.moments()
    p = np.array([0.1, 0.4, 0.3, 0.2])
    glob = inst.global_erm(p)
    np.testing.assert_allclose(
        np.einsum("m,mde,e->d", p, hessians, glob), p @ b, rtol=1e-12, atol=1e-13
    )
    for weights in (None, p, [0.5, 0.0, 0.5, 0.0]):
        q = inst._weights(weights)
        for lam in (0.05, 1.0, 20.0):
            g, w = inst.fedprox_erm(lam, weights)
            # gradients of (20): p_i[H_i w_i − b_i + λ(w_i − g)] and λ Σ p_i (g − w_i)
            residual = np.einsum("mde,me->md", hessians, w) - b + lam * (w - g)
            np.testing.assert_allclose(residual, 0.0, atol=1e-12)
            np.testing.assert_allclose(lam * q @ (g - w), 0.0, atol=1e-12)
        # guide V11(a) limits
        np.testing.assert_allclose(inst.fedprox_erm(1e-8, weights)[1], local, rtol=1e-6)
        glob_q = inst.global_erm(weights)
        np.testing.assert_allclose(inst.fedprox_erm(1e8, weights)[0], glob_q, rtol=1e-6)
        np.testing.assert_allclose(inst.fedprox_erm(1e8, weights)[1], np.tile(glob_q, (4, 1)), 1e-6)
        np.testing.assert_array_equal(inst.fedprox_erm(0.0, weights)[1], local)
        np.testing.assert_array_equal(inst.fedprox_erm(math.inf, weights)[0], glob_q)
    local_flags, global_flag = inst.projection_active()
    assert not local_flags.any() and not global_flag
    replaced = inst.with_sample_replaced(1, 3, [1.0, 2.0, 3.0], target=-4.0)
    assert type(replaced) is LinearRegressionClients
    assert replaced.data.targets[1, 3] == -4.0
    np.testing.assert_array_equal(replaced.data.features[1, 3], [1.0, 2.0, 3.0])


def test_linear_regression_fedprox_against_cvxpy() -> None:
    cp = pytest.importorskip("cvxpy")
    inst = linear_regression_clients(3, [4, 6, 5], 2, 0.7, 0.5, seed=4, spread=6.0)
    p, lam = np.array([0.5, 0.2, 0.3]), 0.7
    wg, wl = cp.Variable(2), cp.Variable((3, 2))
    terms = []
    for i in range(3):
        x, y = inst.data.client(i)
        terms.append(
            p[i]
            * (cp.sum_squares(x @ wl[i] - y) / (2 * len(y)) + lam / 2 * cp.sum_squares(wg - wl[i]))
        )
    cp.Problem(cp.Minimize(sum(terms))).solve(solver="CLARABEL")
    g, w = inst.fedprox_erm(lam, p)
    np.testing.assert_allclose(g, wg.value, atol=1e-6)
    np.testing.assert_allclose(w, wl.value, atol=1e-6)


def test_linear_regression_local_risk_matches_the_gaussian_design_formula() -> None:
    """E[IER_PLT] = ½ s² d/(n − d − 1) for Gaussian design (E(XᵀX)⁻¹ = Σ⁻¹/(n − d − 1))."""
    m, n, d, s, reps = 3, 12, 2, 0.7, 300
    risks = np.array(
        [
            (inst := linear_regression_clients(m, n, d, 0.5, s, seed=r)).excess_risk(
                inst.local_erm()
            )
            for r in range(reps)
        ]
    )
    target = 0.5 * s**2 * d / (n - d - 1)
    mean, se = risks.mean(axis=0), risks.std(axis=0, ddof=1) / math.sqrt(reps)
    assert np.all(np.abs(mean - target) < 4 * se)
    assert np.all(4 * se < 0.3 * target)


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------

GMQ: dict[str, Any] = {"m": 4, "n": 5, "d": 2, "R": 0.5, "noise": 1.0, "seed": 0}


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"m": 0}, "m"),
        ({"m": 2.0}, "m"),
        ({"n": 0}, "n"),
        ({"n": [3, 4, 5]}, "n"),
        ({"n": [3, 0, 5, 2]}, "n[1]"),
        ({"n": [3, 2.5, 5, 2]}, "n[1]"),
        ({"n": "five"}, "n"),
        ({"d": 0}, "d"),
        ({"R": -0.1}, "R"),
        ({"R": math.inf}, "R"),
        ({"noise": 0.0}, "noise"),
        ({"seed": None}, "seed"),
        ({"weights": [0.5, 0.5, 0.5, -0.5]}, "weights"),
        ({"weights": [0.5, 0.5]}, "weights"),
        ({"weights": "equal"}, "weights"),
        ({"center": [1.0, 2.0, 3.0]}, "center"),
        ({"radius": 0.0}, "radius"),
        ({"radius": float("nan")}, "radius"),
        ({"radius": 0.5}, "radius"),
        ({"radius": 1.0, "center": [0.6, 0.0]}, "radius"),
        ({"directions": "orthogonal"}, "directions"),
    ],
)
def test_quadratic_clients_bad_input(kwargs: dict, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        quadratic_clients(**(GMQ | kwargs))
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: outlier_clients(1, 5, 2, 0.5, 1.0, 0.2, seed=0), "m"),
        (lambda: outlier_clients(3, 5, 2, 0.5, 1.0, 0.0, seed=0), "outlier_weight"),
        (lambda: outlier_clients(3, 5, 2, 0.5, 1.0, 1.0, seed=0), "outlier_weight"),
        (lambda: outlier_clients(3, 5, 2, 0.5, 1.0, 0.1, seed=0, radius=1.5), "radius"),
        (lambda: linear_regression_clients(3, 2, 3, 0.5, 1.0, seed=0), "n"),
        (lambda: linear_regression_clients(3, [5, 2, 5], 3, 0.5, 1.0, seed=0), "n[1]"),
        (lambda: linear_regression_clients(3, 5, 2, 0.5, 1.0, seed=0, spread=0.5), "spread"),
        (lambda: linear_regression_clients(3, 5, 2, 0.5, 1.0, seed=0, radius=3.0), "radius"),
        (lambda: gmq_expected_risk_plt(0, 1.0, 5), "d"),
        (lambda: gmq_expected_risk_plt(2, -1.0, 5), "noise"),
        (lambda: gmq_expected_risk_plt(2, 1.0, [3, 0]), "n[1]"),
        (lambda: gmq_crossing_radius2(2, 1.0, 10, 5), "N"),
        (lambda: gmq_tuned_fedprox_risk(2, 1.0, 10, 0, 0.5), "m"),
        (lambda: gmq_tuned_fedprox_lambda(2, 1.0, 10, 3, -0.5), "R"),
        (lambda: fine_tune_equivalent_lambda(0.0, 3), "step"),
        (lambda: fine_tune_equivalent_lambda(1.5, 3), "step"),
        (lambda: fine_tune_equivalent_lambda(0.5, -1), "k"),
        (
            lambda: gmq_expected_risk_fedavg(linear_regression_clients(2, 3, 2, 0.1, 1.0, 0)),  # type: ignore[arg-type]
            "instance",
        ),
    ],
)
def test_other_bad_input(call, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
    assert parameter in str(info.value)


@pytest.mark.parametrize(
    ("method", "args", "parameter"),
    [
        ("fedprox_erm", (-1.0,), "lam"),
        ("fedprox_erm", (float("nan"),), "lam"),
        ("fedprox_erm", (True,), "lam"),
        ("fedprox_erm", (1.0, [0.2, 0.2]), "weights"),
        ("global_erm", ([0.3, 0.3, 0.3, 0.3],), "weights"),
        ("excess_risk", (np.zeros(3),), "models"),
        ("excess_risk", (np.zeros((3, 2)),), "models"),
        ("with_sample_replaced", (4, 0, [0.0, 0.0]), "client"),
        ("with_sample_replaced", (0, 5, [0.0, 0.0]), "index"),
        ("with_sample_replaced", (0, -1, [0.0, 0.0]), "index"),
        ("with_sample_replaced", (0, 0, [0.0]), "features_row"),
        ("with_sample_replaced", (0, 0, [0.0, math.nan]), "features_row"),
    ],
)
def test_method_bad_input(method: str, args: tuple, parameter: str) -> None:
    for inst in (quadratic_clients(**GMQ), linear_regression_clients(**GMQ)):
        with pytest.raises(ParameterError) as info:
            getattr(inst, method)(*args)
        assert info.value.parameter == parameter
        assert parameter in str(info.value)
