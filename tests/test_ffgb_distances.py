"""Exact TV and Wasserstein distances and the comparison inequalities (12), (15) (reading guide
§1, §3.1, §5 A1–A2), and the geometry of the FFGB.L data (§2.4, §3.6, C9, C10).

Theory asserted:
- TV = ½‖p − q‖₁ on known cases; (12) holds on random draws and with equality at f ≡ 1,
  g = sign(α_i − α) (a TV missing its ½ fails);
- W1 in one dimension: the CDF formula equals the transport LP (POT) and a hand computation;
  the primal LP value equals the dual potential LP value (HiGHS), the potential is 1-Lipschitz,
  and (15) holds with equality at f ≡ 1, g = φ;
- W2² in one dimension equals the sorted (monotone) coupling for equal-size clouds;
- the McShane extension interpolates, is L-Lipschitz and is the largest such extension; D and
  L_data match brute force; translated supports have ω_TV = 1 − 1/N and ω_W1 → 0 with δ; the
  stress models satisfy 0 ≤ u_i(x) − y(x) ≤ 2 L_data dist(x, supp α_i) (C10).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ffgb as ref

from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb import distances
from fedtheory.papers.ffgb.lipschitz import (
    LipschitzData,
    covering_distance,
    data_lipschitz,
    mcshane_extension,
    translated_supports,
)


def test_total_variation_known_cases() -> None:
    assert distances.total_variation([1, 0, 0], [0, 0, 1]) == 1.0
    assert distances.total_variation([0.5, 0.5], [0.5, 0.5]) == 0.0
    assert distances.total_variation([0.2, 0.3, 0.5], [0.3, 0.3, 0.4]) == pytest.approx(0.1)
    alpha = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert distances.omega_tv(alpha) == 0.5  # disjoint supports: 1 − 1/N


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_inequality_12_holds_and_is_tight(seed: int) -> None:
    rng = np.random.default_rng(seed)
    alpha = rng.dirichlet(np.ones(30) * 0.5, size=4)
    mean = alpha.mean(axis=0)
    for a in alpha:
        f, g = rng.uniform(-2, 2, 30), rng.uniform(-1, 3, 30)
        lhs = abs(f * g @ a - f * g @ mean)
        rhs = 2 * np.abs(f).max() * np.abs(g).max() * distances.total_variation(mean, a)
        assert lhs <= rhs + 1e-12
        sign = np.sign(a - mean)
        tight = abs(sign @ a - sign @ mean)
        assert tight == pytest.approx(2 * distances.total_variation(mean, a), abs=1e-10)


def test_w1_one_dimension() -> None:
    assert distances.wasserstein1([0.0, 1.0, 3.0], [1, 0, 0], [0, 0.5, 0.5]) == 2.0
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.standard_normal(15)
        p, q = rng.dirichlet(np.ones(15)), rng.dirichlet(np.ones(15))
        cdf = distances.wasserstein1(x, p, q, method="cdf")
        lp = distances.wasserstein1(x, p, q, method="emd")
        assert cdf == pytest.approx(lp, rel=1e-12, abs=1e-14)
    # translation by s moves W1 by exactly s
    x = rng.random(10)
    points = np.concatenate([x, x + 0.3])
    p = np.concatenate([np.full(10, 0.1), np.zeros(10)])
    assert distances.wasserstein1(points, p, np.roll(p, 10)) == pytest.approx(0.3, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_w1_primal_equals_the_dual_potential_and_15_is_tight(seed: int) -> None:
    """Guide A2: α_i empirical on M = 20 points in ℝ², α = the union of the clients."""
    rng = np.random.default_rng(seed)
    n, m = 3, 20
    clouds = rng.random((n, m, 2)) + np.array([0.2, 0.0]) * np.arange(n)[:, None, None]
    points = clouds.reshape(-1, 2)
    alpha = np.zeros((n, n * m))
    for i in range(n):
        alpha[i, i * m : (i + 1) * m] = 1 / m
    mean = alpha.mean(axis=0)
    for a in alpha:
        w1 = distances.wasserstein1(points, mean, a)
        potential, value = distances.kantorovich_potential(points, a, mean)
        assert value == pytest.approx(w1, rel=1e-9)
        slopes = np.abs(potential[:, None] - potential[None, :]) / np.maximum(
            np.sqrt(((points[:, None] - points[None]) ** 2).sum(-1)), 1e-300
        )
        assert slopes[~np.eye(len(points), dtype=bool)].max() <= 1 + 1e-9
        # (15) with f ≡ 1 (Lipschitz 0) and g = φ (Lipschitz 1): |⟨1, φ⟩_{α_i} − ⟨1, φ⟩_α|
        # = ξ·W1 with ξ = ‖f‖_{α,∞} = 1
        assert abs(potential @ a - potential @ mean) == pytest.approx(w1, rel=1e-6)
        # (15) on random Lipschitz f, g
        f = np.sin(points @ rng.standard_normal(2))
        g = np.cos(2 * points @ rng.standard_normal(2))
        lip_f = ref.lipschitz(f[:, None], points)
        lip_g = ref.lipschitz(g[:, None], points)
        xi = lip_f * np.abs(g).max() + lip_g * np.abs(f).max()
        assert abs(f * g @ a - f * g @ mean) <= xi * w1 + 1e-9


def test_w2_squared_one_dimension_is_the_sorted_coupling() -> None:
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(12), rng.standard_normal(12) + 1
    points = np.concatenate([x, y])
    p = np.concatenate([np.full(12, 1 / 12), np.zeros(12)])
    q = p[np.r_[12:24, 0:12]]
    expected = np.mean((np.sort(x) - np.sort(y)) ** 2)
    assert distances.wasserstein2_squared(points, p, q) == pytest.approx(expected, rel=1e-12)
    alpha = np.stack([p, q])
    assert distances.average_pairwise_w2_squared(points, alpha) == pytest.approx(expected / 2)


def test_distance_bad_input() -> None:
    with pytest.raises(ParameterError, match="probability vector"):
        distances.total_variation([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ParameterError, match="shape"):
        distances.total_variation([0.5, 0.5], [1.0])
    with pytest.raises(ParameterError, match="CDF formula is one-dimensional"):
        distances.wasserstein1(np.zeros((2, 2)), [1, 0], [0, 1], method="cdf")
    with pytest.raises(ParameterError, match="method"):
        distances.wasserstein1([0.0, 1.0], [1, 0], [0, 1], method="sinkhorn")
    with pytest.raises(ParameterError, match="points"):
        distances.wasserstein1([[np.nan]], [1.0], [1.0])
    with pytest.raises(ParameterError, match=r"alpha\[1\]"):
        distances.omega_w1([0.0, 1.0], [[1.0, 0.0], [0.7, 0.7]])


# ------------------------------------------------------------------ Lipschitz data


def test_mcshane_extension_interpolates_and_is_the_largest_extension() -> None:
    rng = np.random.default_rng(2)
    x = rng.random((8, 2))
    u = lambda z: np.sin(2 * z[:, 0]) + np.cos(z[:, 1])  # noqa: E731  (Lipschitz ≤ √5)
    y = u(x)
    L = np.sqrt(5.0)
    at = rng.random((40, 2)) * 1.5
    extension = mcshane_extension(x, y, L, at)
    np.testing.assert_allclose(extension, ref.mcshane(x, y, L, at), rtol=1e-14)
    np.testing.assert_allclose(mcshane_extension(x, y, L, x), y, rtol=1e-14, atol=1e-15)
    assert np.all(extension >= u(at) - 1e-12)  # maximal: above every L-Lipschitz interpolant
    assert ref.lipschitz(extension[:, None], at) <= L * (1 + 1e-12)


def test_covering_distance_and_data_lipschitz_brute_force() -> None:
    rng = np.random.default_rng(3)
    clouds = [rng.random((5, 2)), rng.random((7, 2)) + 0.5]
    brute = max(
        max(min(np.linalg.norm(a - b) for b in cb) for a in ca) for ca in clouds for cb in clouds
    )
    assert covering_distance(clouds) == pytest.approx(brute, rel=1e-14)
    x = rng.random((30, 1))
    y = np.sin(5 * x[:, 0])
    brute_slope = max(
        abs(y[a] - y[b]) / abs(x[a, 0] - x[b, 0]) for a in range(30) for b in range(a)
    )
    assert data_lipschitz(x, y) == pytest.approx(brute_slope, rel=1e-12)
    x2 = rng.random((20, 2))
    y2 = x2 @ np.array([3.0, -1.0])
    assert data_lipschitz(x2, y2) == pytest.approx(ref.lipschitz(y2[:, None], x2), rel=1e-12)
    assert data_lipschitz(np.array([[0.0], [0.0]]), np.array([0.0, 1.0])) == np.inf


def test_translated_supports_geometry() -> None:
    same = translated_supports(num_clients=4, points_per_client=10, delta=0.0, seed=0)
    assert same.num_points == 10 and same.omega_tv == 0.0 and same.omega_w1 == 0.0
    np.testing.assert_allclose(same.targets, np.broadcast_to(same.optimum, same.targets.shape))
    previous = 0.0
    for delta in (0.001, 0.01, 0.1):
        data = translated_supports(num_clients=4, points_per_client=10, delta=delta, seed=0)
        assert data.omega_tv == pytest.approx(1 - 1 / 4)  # TV radius vacuous (P6)
        assert data.omega_w1 > previous
        previous = data.omega_w1
        # small translations: every point is matched to its own translates,
        # W1(α, α_i) = (1/N) Σ_k |i − k| δ
        if delta == 0.001:
            expected = np.mean([np.mean(np.abs(i - np.arange(4))) for i in range(4)]) * delta
            assert data.omega_w1 == pytest.approx(expected, rel=1e-9)
            assert data.covering_distance == pytest.approx(3 * delta, rel=1e-9)
        assert data.covering_distance <= 3 * delta * (1 + 1e-12)
        assert data.data_lipschitz <= data.lipschitz
        np.testing.assert_allclose(data.alpha.sum(axis=1), 1.0)
        for i in range(4):  # u_i interpolates client i
            index = [
                np.flatnonzero((data.points == x).all(axis=1))[0] for x in data.client_points[i]
            ]
            np.testing.assert_allclose(data.targets[i, index], data.client_labels[i], atol=1e-15)


@pytest.mark.parametrize(("beta", "noise"), [(0.5, 0.0), (1.0, 0.1)])
def test_stress_models_bias_structure(beta: float, noise: float) -> None:
    """C10: 0 ≤ u_i(x) − y(x) ≤ 2·L_data·dist(x, supp α_i) ≤ 2·L_data·D at every data point."""
    data = translated_supports(
        num_clients=3, points_per_client=40, delta=0.02, beta=beta, noise=noise, seed=4
    )
    assert data.extension_lipschitz == data.data_lipschitz > data.lipschitz
    y = data.optimum  # the label at every data point (distinct points)
    seen = data.marginal > 0
    for i in range(3):
        bias = data.targets[i] - y
        reach = data.distance_to_support(i)
        assert np.all(bias[seen] >= -1e-12)
        assert np.all(bias[seen] <= 2 * data.data_lipschitz * reach[seen] + 1e-12)
    assert reach.max() <= data.covering_distance + 1e-12
    denser = translated_supports(
        num_clients=3, points_per_client=400, delta=0.02, beta=beta, noise=noise, seed=4
    )
    assert denser.data_lipschitz > data.data_lipschitz  # L_data grows with M


def test_lipschitz_data_bad_input() -> None:
    with pytest.raises(ParameterError, match="client_labels"):
        LipschitzData(np.zeros((2, 3, 1)), np.zeros((2, 4)), 1.0)
    with pytest.raises(ParameterError, match="lipschitz"):
        LipschitzData(np.zeros((2, 3, 1)), np.zeros((2, 3)), 0.0)
    with pytest.raises(ParameterError, match="two labels at one point"):
        LipschitzData(np.zeros((2, 1, 1)), np.array([[0.0], [1.0]]), 1.0)
    with pytest.raises(ParameterError, match="dim"):
        translated_supports(dim=3, seed=0)
    with pytest.raises(ParameterError, match="beta"):
        translated_supports(beta=1.5, seed=0)
    with pytest.raises(ParameterError, match="delta"):
        translated_supports(delta=-0.1, seed=0)
