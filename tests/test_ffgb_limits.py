"""Exact limit points of guide §3.8, and the norm kernels the diagnostics use.

Theory asserted:
- c_K is the geometric sum Σ_{k ≤ K}(1 − γ)^k; μ_eff = μ/γ at K = 1 (the no-residual value),
  μ at γ = 1, and → μ as K → ∞ with (μ_eff − μ)·K → μ(1 − γ)/γ (the Θ(1/K) regularisation
  gap behind the Θ(1/K²) floor);
- the FFGB limit with γ = 1 (or a persistent residual) is f*; the square-loss limit is
  m̄/(1 + μ_eff); the FFGB.C limit satisfies its pointwise equation with n_x clients per atom;
- the FFGB.L limits are (1 − c_K/K)ū and −(1/K)Σ((1 + γ)^k − 1)ū, the one-shot recursion's
  fixed point as the steps vanish;
- the L², sup and Lipschitz kernels equal numpy (all pairs, coincident points give inf).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import ffgb as ref

from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb import limits, oracles
from fedtheory.papers.ffgb._norms import _l2, _lipschitz, _sup, lipschitz_pairs
from fedtheory.papers.ffgb.lipschitz import translated_supports
from fedtheory.papers.ffgb.populations import (
    dirichlet_mixture,
    private_atoms,
    semi_heterogeneous,
)
from fedtheory.papers.ffgb.steps import QUANTITIES, _track


@pytest.mark.parametrize("gamma", [1.0, 0.8, 0.5, 0.1])
def test_c_k_and_mu_eff(gamma: float) -> None:
    for K in (1, 2, 7, 40):
        assert limits.c_k(gamma, K) == pytest.approx(
            sum((1 - gamma) ** k for k in range(1, K + 1)), rel=1e-13, abs=1e-16
        )
    mu = 0.1
    assert limits.mu_eff(mu, gamma, 1) == pytest.approx(mu / gamma, rel=1e-14)
    assert limits.mu_eff(mu, gamma, 9, residual="none") == pytest.approx(mu / gamma)
    assert limits.mu_eff(mu, gamma, 9, residual="persistent") == mu
    big = 10**6
    assert (limits.mu_eff(mu, gamma, big) - mu) * big == pytest.approx(
        mu * (1 - gamma) / gamma, rel=1e-5, abs=1e-12
    )


def test_ffgb_limits_reduce_to_the_optimum() -> None:
    pop = semi_heterogeneous(seed=3)
    np.testing.assert_allclose(limits.ffgb_limit(pop, 1.0, 4), pop.optimum, rtol=1e-12)
    np.testing.assert_allclose(
        limits.ffgb_limit(pop, 0.3, 4, residual="persistent"), pop.optimum, rtol=1e-12
    )
    square = semi_heterogeneous(loss="square", outputs=2, seed=3)
    effective = limits.mu_eff(square.mu, 0.5, 3)
    np.testing.assert_allclose(
        limits.ffgb_limit(square, 0.5, 3), square.labels.mean(axis=0) / (1 + effective), rtol=1e-14
    )
    # the floor shrinks like 1/K² (guide §3.8): K²·floor converges
    floors = [square.error(limits.ffgb_limit(square, 0.5, K)) * K**2 for K in (100, 1000, 10000)]
    assert floors[2] == pytest.approx(floors[1], rel=2e-3)


def test_ffgb_c_limit_solves_its_pointwise_equation() -> None:
    pop = private_atoms(0.3, num_shared=6, num_clients=4, seed=4)
    gamma, K = 0.5, 4
    v = limits.ffgb_c_limit(pop, gamma, K)
    effective = limits.mu_eff(pop.mu, gamma, K)
    sigma = 1 / (1 + np.exp(-v))
    residual = (np.where(pop.supports, sigma - pop.labels, 0.0)).sum(axis=0) / 4 + effective * v
    assert np.abs(residual).max() < 1e-13
    mixture = dirichlet_mixture(0.4, num_atoms=8, num_clients=3, seed=5)  # full supports
    np.testing.assert_allclose(
        limits.ffgb_c_limit(mixture, gamma, K), limits.ffgb_limit(mixture, gamma, K), rtol=1e-14
    )
    with pytest.raises(ParameterError, match="zero extension"):
        limits.ffgb_c_limit(private_atoms(0.3, extension="adversarial", seed=0), 0.5, 4)


def test_ffgb_l_limits() -> None:
    data = translated_supports(num_clients=3, points_per_client=5, delta=0.1, seed=6)
    mean = data.targets.mean(axis=0)
    np.testing.assert_allclose(
        limits.ffgb_l_limit(data, 0.5, 3), (1 - (0.5 + 0.25 + 0.125) / 3) * mean, rtol=1e-14
    )
    np.testing.assert_allclose(
        limits.ffgb_l_limit(data, 1.0, 3, query="printed"), -(1 + 3 + 7) / 3 * mean, rtol=1e-14
    )
    # Remark 3.1's recursion with vanishing steps lands on the mean learner (= the limit)
    learners = limits.ffgb_l_learners(data, oracles.scale(0.5, norm="lip"), 3)
    far = limits.one_shot_ffgb_l(learners, rounds=4000)[-1]
    limit = limits.ffgb_l_limit(data, 0.5, 3)
    assert np.abs(far - limit).max() < 2e-3 * np.abs(limit).max()


def test_limits_bad_input() -> None:
    pop = semi_heterogeneous(num_atoms=3, num_clients=2, seed=0)
    with pytest.raises(ParameterError, match="gamma"):
        limits.c_k(0.0, 3)
    with pytest.raises(ParameterError, match="K=0"):
        limits.c_k(0.5, 0)
    with pytest.raises(ParameterError, match="residual"):
        limits.mu_eff(0.1, 0.5, 2, residual="sometimes")
    with pytest.raises(ParameterError, match="mu"):
        limits.mu_eff(0.0, 0.5, 2)
    with pytest.raises(ParameterError, match="population"):
        limits.ffgb_limit("population", 0.5, 2)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="data"):
        limits.ffgb_l_limit(pop, 0.5, 2)  # type: ignore[arg-type]
    data = translated_supports(num_clients=2, points_per_client=3, seed=0)
    with pytest.raises(ParameterError, match="query"):
        limits.ffgb_l_limit(data, 0.5, 2, query="sign")
    with pytest.raises(ParameterError, match=r"Remark 3\.1"):
        limits.ffgb_l_learners(data, oracles.random_direction(0.5), 2)
    with pytest.raises(ParameterError, match="learners"):
        limits.one_shot_ffgb_l(np.zeros((2, 3)), rounds=2)
    with pytest.raises(ParameterError, match="rounds"):
        limits.one_shot_ffgb_l(np.zeros((2, 3, 4)), rounds=0)


# ------------------------------------------------------------------ norm kernels


@pytest.mark.parametrize("dim", [1, 2])
@pytest.mark.parametrize("outputs", [1, 3])
def test_norm_kernels_match_numpy(dim: int, outputs: int) -> None:
    rng = np.random.default_rng(dim * 10 + outputs)
    atoms = 11
    points = rng.random((atoms, dim))
    v = rng.standard_normal((atoms, outputs))
    w = rng.random(atoms)
    w[[2, 5]] = 0.0
    w /= w.sum()
    flat = np.ascontiguousarray(v.reshape(-1))
    assert _l2(flat, w) == pytest.approx(ref.l2(v, w), rel=1e-13)
    assert _sup(flat, w) == pytest.approx(ref.sup(v, w), rel=1e-13)
    pairs, weights = lipschitz_pairs(points)
    assert pairs.shape[0] == (atoms - 1 if dim == 1 else atoms * (atoms - 1) // 2)
    assert _lipschitz(flat, pairs, weights, atoms) == pytest.approx(
        ref.lipschitz(v, points), rel=1e-12
    )
    doubled = np.concatenate([points, points[:1]])
    pairs, weights = lipschitz_pairs(doubled)
    values = np.concatenate([flat, flat[:outputs] + 1.0])
    assert _lipschitz(values, pairs, weights, atoms + 1) == math.inf
    same = np.concatenate([flat, flat[:outputs]])
    assert _lipschitz(same, pairs, weights, atoms + 1) == pytest.approx(
        ref.lipschitz(v, points), rel=1e-12
    )


def test_diagnostics_track_the_three_norms() -> None:
    rng = np.random.default_rng(0)
    v = rng.standard_normal((6, 2))
    w = np.array([0.5, 0.0, 0.25, 0.25, 0.0, 0.0])
    diagnostics = np.zeros(13 + 4 * len(QUANTITIES))
    _track(diagnostics, 2, np.ascontiguousarray(v.reshape(-1)), w)
    base = 13 + 2 * 4
    np.testing.assert_allclose(
        diagnostics[base : base + 3],
        [ref.l2(v, w), ref.sup(v, w), np.sqrt((v**2).sum(axis=1)).max()],
        rtol=1e-13,
    )
