"""FZooS random Fourier features: Jacobian, push-through, the shared seed, the App. B scale.

Guide §2.4 and checks 9, 18, 23 of §5; every kernel of ``_rff_kernels`` against its twin in
tests/reference/fzoos_gp.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import fzoos_gp as ref

from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fzoos import _rff_kernels as K
from fedtheory.papers.fzoos.gp import se_kernel, se_kernel_gradient
from fedtheory.papers.fzoos.rff import RandomFourierFeatures, rff_scale


def _relative(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def test_gradient_matches_central_differences_of_the_surrogate():
    # Check 9: ∇φ(x)ᵀw against central differences of φ(x)ᵀw.
    rng = np.random.default_rng(0)
    rff = RandomFourierFeatures(6, 300, lengthscale=0.8, seed=1)
    w = rng.standard_normal(300)
    for _ in range(5):
        x = rng.uniform(0, 1, 6)
        h = 1e-5
        numeric = np.array(
            [
                (rff.features(x + h * e) @ w - rff.features(x - h * e) @ w) / (2 * h)
                for e in np.eye(6)
            ]
        )
        assert _relative(rff.gradient(x, w), numeric) < 1e-6
        np.testing.assert_allclose(rff.jacobian(x).T @ w, rff.gradient(x, w), rtol=1e-12)


@pytest.mark.parametrize("n", [20, 150])
def test_push_through_systems_agree(n):
    # Check 9: Φ(ΦᵀΦ + σ²I)⁻¹y = (ΦΦᵀ + σ²I)⁻¹Φy, with n below and above M = 60.
    rng = np.random.default_rng(n)
    rff = RandomFourierFeatures(4, 60, seed=2)
    X = rng.uniform(0, 1, (n, 4))
    y = np.sin(3 * X).sum(axis=1)
    samples = rff.weights(X, y, 1e-3, system="samples")
    features = rff.weights(X, y, 1e-3, system="features")
    assert _relative(samples, features) < 1e-8
    auto = rff.weights(X, y, 1e-3)
    np.testing.assert_array_equal(auto, samples if n <= 60 else features)
    twin = ref.rff_weights(rff.frequencies, rff.phases, rff.scale, X, y, 1e-3)
    assert _relative(samples, twin) < 1e-8


def test_kernels_match_numpy_twins():
    rng = np.random.default_rng(3)
    rff = RandomFourierFeatures(5, 40, lengthscale=1.7, seed=4)
    V, b, s = rff.frequencies, rff.phases, rff.scale
    x = rng.uniform(0, 1, 5)
    w = rng.standard_normal(40)
    np.testing.assert_allclose(rff.features(x), ref.rff_features(V, b, s, x), atol=1e-15)
    np.testing.assert_allclose(rff.jacobian(x), ref.rff_jacobian(V, b, s, x), atol=1e-15)
    np.testing.assert_allclose(
        rff.gradient(x, w), ref.rff_jacobian(V, b, s, x).T @ w, rtol=1e-12, atol=1e-14
    )
    X = rng.uniform(0, 1, (25, 5))
    y = rng.standard_normal(25)
    np.testing.assert_allclose(
        K.rff_design(V, b, s, X), np.stack([ref.rff_features(V, b, s, z) for z in X]), atol=1e-15
    )
    # Accumulated moments in batches of 1 and 5, solved once, equal the direct M × M weight.
    gram = np.zeros((40, 40))
    moment = np.zeros(40)
    for start, stop in [(0, 1), (1, 6), (6, 7), (7, 12), (12, 25)]:
        K.rff_accumulate(V, b, s, X[start:stop], y[start:stop], gram, moment)
    Phi = np.stack([ref.rff_features(V, b, s, z) for z in X], axis=1)
    np.testing.assert_allclose(gram, Phi @ Phi.T, atol=1e-13)
    np.testing.assert_allclose(moment, Phi @ y, atol=1e-13)
    out = np.empty(40)
    assert K.rff_solve(gram, moment, 1e-2, out) == K.STATUS_OK
    assert _relative(out, ref.rff_weights(V, b, s, X, y, 1e-2)) < 1e-8


def test_shared_seed_gives_the_same_features():
    a = RandomFourierFeatures(3, 50, seed=9)
    b = RandomFourierFeatures(3, 50, seed=9)
    c = RandomFourierFeatures(3, 50, seed=10)
    np.testing.assert_array_equal(a.frequencies, b.frequencies)
    np.testing.assert_array_equal(a.phases, b.phases)
    assert not np.array_equal(a.frequencies, c.frequencies)
    assert np.all((a.phases >= 0) & (a.phases < 2 * math.pi))


def test_frequencies_have_the_se_spectral_density():
    rff = RandomFourierFeatures(4, 20_000, lengthscale=0.5, seed=0)
    # v ~ N(0, l⁻²I): sample variance 4 per coordinate, within 4 standard errors.
    var = rff.frequencies.var(axis=0)
    assert np.all(np.abs(var - 4.0) < 4 * 4.0 * math.sqrt(2 / 20_000))


def test_printed_scale_doubles_the_kernel_and_the_corrected_one_does_not():
    # Check 23: E[φᵀφ] = k with √(2/M); App. B's 2/√M gives 2k.
    x = np.array([0.1, 0.4, 0.3])
    xp = np.array([0.5, 0.2, 0.9])
    M = 20_000
    corrected = RandomFourierFeatures(3, M, seed=5)
    printed = RandomFourierFeatures(3, M, seed=5, scaling="printed")
    k = se_kernel(x, xp)
    bound = math.sqrt(8 * math.log(2 / 1e-6) / M)  # Lemma C.3 (Hoeffding) at δ = 10⁻⁶
    assert abs(corrected.kernel(x, xp) - k) < bound
    assert printed.kernel(x, xp) == pytest.approx(2 * corrected.kernel(x, xp), rel=1e-12)
    assert abs(printed.kernel(x, xp) - k) > k - 2 * bound
    assert rff_scale(M) == pytest.approx(math.sqrt(2 / M))
    assert rff_scale(M, "printed") == pytest.approx(2 / math.sqrt(M))


def test_lemma_c3_exceedances_are_rare():
    # Check 18 (small): over random pairs and feature draws (SE, d = 10), the Hoeffding bound on
    # the kernel error and the Chebyshev bound on the kernel-gradient error are exceeded with
    # frequency ≤ δ.
    rng = np.random.default_rng(6)
    d, M, delta = 10, 400, 0.05
    V_bound = d  # E‖v‖² = d/l², l = 1
    k_bound = math.sqrt(8 * math.log(2 / delta) / M)
    dk_bound = math.sqrt(4 * V_bound / (M * delta))
    k_exceed = dk_exceed = total = 0
    for draw in range(20):
        rff = RandomFourierFeatures(d, M, seed=draw)
        for _ in range(50):
            x, xp = rng.uniform(0, 1, (2, d))
            phi_p = rff.features(xp)
            k_exceed += abs(rff.features(x) @ phi_p - se_kernel(x, xp)) > k_bound
            error = rff.jacobian(x).T @ phi_p - se_kernel_gradient(x, xp)
            dk_exceed += np.linalg.norm(error) > dk_bound
            total += 1
    assert k_exceed / total <= delta
    assert dk_exceed / total <= delta


def test_ten_thousand_features_still_work():
    rng = np.random.default_rng(8)
    rff = RandomFourierFeatures(5, 10_000, seed=0)
    X = rng.uniform(0, 1, (40, 5))
    y = np.cos(X).sum(axis=1)
    w = rff.weights(X, y, 1e-2)
    # The RFF local surrogate tracks the exact kernel regression's mean at a history point.
    Kmat = ref.kernel_matrix(X, X, 1.0) + 1e-2 * np.eye(40)
    exact = ref.kernel_matrix(X[:1], X, 1.0)[0] @ np.linalg.solve(Kmat, y)
    assert abs(rff.features(X[0]) @ w - exact) < 0.2 * abs(exact)


def test_bad_input_is_refused():
    with pytest.raises(ParameterError, match="num_features"):
        RandomFourierFeatures(2, 0)
    with pytest.raises(ParameterError, match="lengthscale"):
        RandomFourierFeatures(2, 5, lengthscale=-1.0)
    with pytest.raises(ParameterError, match="dimension"):
        RandomFourierFeatures(0, 5)
    with pytest.raises(ParameterError, match="scaling"):
        RandomFourierFeatures(2, 5, scaling="2/sqrt(M)")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="seed"):
        RandomFourierFeatures(2, 5, seed=-1)
    rff = RandomFourierFeatures(2, 5)
    with pytest.raises(ParameterError, match="noise"):
        rff.weights(np.zeros((3, 2)), np.zeros(3), -1.0)
    with pytest.raises(ParameterError, match="system"):
        rff.weights(np.zeros((3, 2)), np.zeros(3), 1.0, system="dual")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="weights"):
        rff.gradient(np.zeros(2), np.zeros(4))
    with pytest.raises(SolverError, match="not positive definite"):
        rff.weights(np.zeros((3, 2)), np.ones(3), 0.0, system="samples")  # repeated inputs
