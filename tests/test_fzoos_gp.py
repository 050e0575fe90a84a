"""The FZooS GP gradient surrogate: SE derivatives, the incremental posterior and its kernels.

Guide §2.3 and checks 8, 15, 16 of §5: derivatives against central differences, every in-loop
kernel against its plain-numpy twin (tests/reference/fzoos_gp.py), the incremental
factorisation against a fresh one, the gradient calibration s = eᵀΣ⁻¹e ~ χ²_d on exact joint
GP draws, and λ_max(Σ_n(x)) = κ for n < d while the trace decreases.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference import fzoos_gp as ref
from scipy import optimize, stats

from fedtheory._jit import njit
from fedtheory.errors import ParameterError, SolverError
from fedtheory.papers.fzoos import _gp_kernels as K
from fedtheory.papers.fzoos.gp import (
    GaussianProcessSurrogate,
    gp_state,
    se_gradient_bound,
    se_kappa,
    se_kernel,
    se_kernel_cross_hessian,
    se_kernel_gradient,
)


def _central(f, x, h=1e-5):
    """Central differences of a scalar or vector function (one column per coordinate)."""
    columns = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        columns.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * h))
    return np.stack(columns, axis=-1)


def _relative(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


# --- SE kernel (check 8) ---------------------------------------------------------------------


@pytest.mark.parametrize("lengthscale", [0.3, 1.0, 2.5])
def test_se_derivatives_match_central_differences(lengthscale):
    rng = np.random.default_rng(0)
    for _ in range(5):
        x, xp = rng.uniform(-1, 1, (2, 4)) * lengthscale
        gradient = _central(lambda z, xp=xp: se_kernel(z, xp, lengthscale), x)
        assert _relative(se_kernel_gradient(x, xp, lengthscale), gradient) < 1e-6
        cross = _central(lambda z, x=x: se_kernel_gradient(x, z, lengthscale), xp)
        assert _relative(se_kernel_cross_hessian(x, xp, lengthscale), cross) < 1e-6


@pytest.mark.parametrize("lengthscale", [0.5, 1.0, 3.0])
def test_kappa_and_gradient_bound_by_maximisation(lengthscale):
    # κ: the largest spectral norm of ∂_x∂_x′k over x − x′ (a 1-D search along a direction
    # suffices by isotropy: the norm is max(1, |1 − r²/l²|)·e^{−r²/2l²}/l²), attained at r = 0.
    def cross_norm(r):
        x = np.zeros(3)
        xp = np.array([r, 0.0, 0.0])
        return -np.linalg.norm(se_kernel_cross_hessian(x, xp, lengthscale), 2)

    grid = np.linspace(0, 6 * lengthscale, 601)
    assert -min(cross_norm(r) for r in grid) == pytest.approx(se_kappa(lengthscale), rel=1e-12)
    assert se_kappa(lengthscale) == pytest.approx(1 / lengthscale**2, rel=1e-15)

    def gradient_norm(r):
        return -np.linalg.norm(se_kernel_gradient(np.zeros(3), np.array([r, 0, 0]), lengthscale))

    best = optimize.minimize_scalar(
        gradient_norm, bounds=(0, 5 * lengthscale), method="bounded", options={"xatol": 1e-10}
    )
    assert -best.fun == pytest.approx(se_gradient_bound(lengthscale), rel=1e-9)
    assert best.x == pytest.approx(lengthscale, rel=1e-4)


# --- the posterior against its twins ---------------------------------------------------------


def _history(rng, n, d, offset=3.0, spread=0.4):
    X = offset + spread * rng.standard_normal((n, d))
    y = np.sin(X.sum(axis=1)) + 0.1 * rng.standard_normal(n)
    return X, y


def _filled(X, y, batches, lengthscale, noise, capacity=None):
    gp = GaussianProcessSurrogate(
        X.shape[1], lengthscale=lengthscale, noise=noise, capacity=capacity or len(X)
    )
    start = 0
    for size in batches:
        gp.add(X[start : start + size], y[start : start + size])
        start += size
    assert start == len(X)
    return gp


@pytest.mark.parametrize(
    ("d", "batches", "lengthscale", "noise"),
    [(1, [1, 1, 1, 5, 3], 0.7, 1e-3), (4, [6, 1, 5, 1, 5], 1.0, 1e-4), (12, [1, 5] * 6, 2.0, 0.0)],
)
def test_posterior_kernels_match_numpy_twins(d, batches, lengthscale, noise):
    rng = np.random.default_rng(d)
    X, y = _history(rng, sum(batches), d)
    gp = _filled(X, y, batches, lengthscale, noise, capacity=3)  # grows while filling
    x = X[-1] + 0.05 * rng.standard_normal(d)
    assert gp.mean(x) == pytest.approx(ref.mean(X, y, x, lengthscale, noise), rel=1e-9)
    assert _relative(gp.mean_gradient(x), ref.mean_gradient(X, y, x, lengthscale, noise)) < 1e-8
    Sigma = ref.gradient_covariance(X, x, lengthscale, noise)
    assert (
        np.max(np.abs(gp.gradient_covariance(x) - Sigma)) < 1e-9 * np.trace(np.abs(Sigma)) + 1e-12
    )
    candidates = x + rng.uniform(-0.01, 0.01, (20, d))
    twin = ref.trace_uncertainty(X, candidates, lengthscale, noise)
    assert np.max(np.abs(gp.trace_uncertainty(candidates) - twin)) < 1e-9 * d / lengthscale**2
    np.testing.assert_allclose(gp.inputs, X, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(gp.observations, y)


def test_trace_uncertainty_interleaved_with_appends():
    # The lazy sync is exercised between every append, as the FZooS client step does.
    rng = np.random.default_rng(7)
    d, lengthscale, noise = 6, 1.0, 1e-4
    gp = GaussianProcessSurrogate(d, lengthscale=lengthscale, noise=noise)
    X = np.empty((0, d))
    x = rng.uniform(0, 1, d)
    for _ in range(8):
        gp.add(x, np.sin(x.sum()))
        X = np.vstack([X, x])
        candidates = x + rng.uniform(-0.01, 0.01, (30, d))
        scores = gp.trace_uncertainty(candidates)
        np.testing.assert_allclose(
            scores, ref.trace_uncertainty(X, candidates, lengthscale, noise), rtol=0, atol=1e-9
        )
        chosen = candidates[gp.most_uncertain(candidates, 5)]
        gp.add(chosen, np.sin(chosen.sum(axis=1)))
        X = np.vstack([X, chosen])
        x = x - 0.05 * gp.mean_gradient(x)
    assert gp.size == 48


def test_mean_gradient_is_the_derivative_of_the_mean():
    rng = np.random.default_rng(3)
    X, y = _history(rng, 40, 5, offset=0.5)
    gp = _filled(X, y, [1, 5] * 6 + [4], 0.8, 1e-4)
    for _ in range(4):
        x = X[rng.integers(40)] + 0.1 * rng.standard_normal(5)
        numeric = _central(gp.mean, x, h=1e-5)
        assert _relative(gp.mean_gradient(x), numeric) < 1e-6


def test_incremental_factorisation_matches_a_fresh_one():
    rng = np.random.default_rng(11)
    d, lengthscale, noise = 5, 1.0, 1e-4
    # A trajectory with its ±0.01 active points: nearly repeated inputs, cond(K_σ) ~ n/σ².
    points = []
    x = rng.uniform(0, 1, d)
    for _ in range(40):
        points.append(x.copy())
        points.extend(x + rng.uniform(-0.01, 0.01, (5, d)))
        x = x + 0.05 * rng.standard_normal(d)
    X = np.array(points)
    y = np.cos(X).sum(axis=1)
    gp = GaussianProcessSurrogate(d, lengthscale=lengthscale, noise=noise, capacity=len(X))
    for step in range(40):
        gp.add(X[6 * step], y[6 * step])
        gp.trace_uncertainty(X[6 * step][None, :])  # sync A, H after the iterate
        gp.add(X[6 * step + 1 : 6 * step + 6], y[6 * step + 1 : 6 * step + 6])
    gp.trace_uncertainty(X[:1])
    n = len(X)
    X_rel = X - X[0]
    Kmat = ref.kernel_matrix(X, X, lengthscale) + noise * np.eye(n)
    L = np.tril(gp.state[2][:n, :n])
    assert _relative(L, np.linalg.cholesky(Kmat)) < 1e-10
    np.testing.assert_allclose(np.triu(gp.state[2][:n, :n], 1), np.triu(X_rel @ X_rel.T, 1))
    A = gp.state[3][: n * n].reshape(n, n)
    fresh = ref.inverse(X, lengthscale, noise)
    # K_σ⁻¹ itself is ill-conditioned (cond ~ 10⁷ here): compare on the scale of its entries.
    assert _relative(A, fresh) < 1e-7
    np.testing.assert_array_equal(A, A.T)
    # H = A ⊙ XXᵀ by its upper row slabs (two slabs at n = 240).
    expected = A * (X_rel @ X_rel.T)
    slabs = np.concatenate([expected[s : s + K.SLAB, s:].ravel() for s in range(0, n, K.SLAB)])
    assert n > K.SLAB
    assert _relative(gp.state[4][: slabs.size], slabs) < 1e-14
    candidates = X[-1] + rng.uniform(-0.01, 0.01, (8, d))
    np.testing.assert_allclose(
        gp.trace_uncertainty(candidates),
        ref.trace_uncertainty(X, candidates, lengthscale, noise),
        rtol=0,
        atol=1e-8,
    )
    assert gp.state[8][K.INFO_ALPHA] == 0.0  # α is stale after appends
    gp.mean(X[0])  # computes α
    assert _relative(gp.state[6][:n], np.linalg.solve(Kmat, y)) < 1e-6
    # K_σ·α = y to the accuracy of the factorisation (the residual, not the ill-posed α).
    assert np.max(np.abs(Kmat @ gp.state[6][:n] - y)) < 1e-8


# --- the in-loop interface --------------------------------------------------------------------


@njit(cache=False)
def _client_step(stack, i, points, values, candidates, x, scores, gradient):
    state = K.gp_client(stack, i)
    status = K.gp_append(state, points[:1], values[:1])
    K.gp_trace_uncertainty(state, candidates, scores)
    status += K.gp_append(state, points[1:], values[1:])
    K.gp_mean_gradient(state, x, gradient)
    return status


def test_stacked_states_drive_the_kernels_per_client():
    rng = np.random.default_rng(5)
    d, m = 3, 3
    stack = gp_state(12, d, lengthscale=0.9, noise=1e-3, clients=m)
    single = GaussianProcessSurrogate(d, lengthscale=0.9, noise=1e-3)
    scores = np.empty(10)
    gradient = np.empty(d)
    for _ in range(2):
        points = rng.uniform(0, 1, (6, d))
        values = rng.standard_normal(6)
        candidates = points[0] + rng.uniform(-0.01, 0.01, (10, d))
        assert _client_step(stack, 1, points, values, candidates, points[0], scores, gradient) == 0
        single.add(points[:1], values[:1])
        np.testing.assert_allclose(scores, single.trace_uncertainty(candidates), atol=1e-12)
        single.add(points[1:], values[1:])
        np.testing.assert_allclose(gradient, single.mean_gradient(points[0]), atol=1e-12)
    assert stack[8][:, K.INFO_N].tolist() == [0, 12, 0]
    assert not stack[2][0].any() and not stack[2][2].any()
    full = _client_step(stack, 1, points, values, candidates, points[0], scores, gradient)
    assert full == 2 * K.STATUS_FULL
    assert stack[8][1, K.INFO_N] == 12
    # A diverged (NaN) iterate is reported as such and leaves the state unchanged.
    state = K.gp_client(stack, 0)
    assert K.gp_append(state, points[:2], values[:2]) == K.STATUS_OK
    bad = points[2:4].copy()
    bad[1, 0] = np.nan
    assert K.gp_append(state, bad, values[2:4]) == K.STATUS_NOT_FINITE
    assert K.gp_append(state, points[2:4], np.array([1.0, np.inf])) == K.STATUS_NOT_FINITE
    assert K.gp_size(state) == 2


def test_not_positive_definite_raises_naming_the_jitter_and_keeps_the_state():
    gp = GaussianProcessSurrogate(2, noise=0.0)
    gp.add([[0.1, 0.2], [0.5, 0.5]], [1.0, 2.0])
    with pytest.raises(SolverError, match=r"jitter of at least .*noise variance") as caught:
        gp.add([[0.7, 0.1], [0.1, 0.2]], [0.0, 1.0])  # the second repeats the first input
    assert "not positive definite" in str(caught.value)
    assert gp.size == 2
    gp.add([[0.7, 0.1]], [0.0])
    X = np.array([[0.1, 0.2], [0.5, 0.5], [0.7, 0.1]])
    x = np.array([0.3, 0.3])
    np.testing.assert_allclose(
        gp.mean_gradient(x), ref.mean_gradient(X, np.array([1.0, 2, 0]), x, 1.0, 0.0), rtol=1e-9
    )
    # The jitter named is enough: with it the same append succeeds.
    jitter = float(str(caught.value).split("at least ")[1].split(" ")[0])
    ok = GaussianProcessSurrogate(2, noise=jitter)
    ok.add([[0.1, 0.2], [0.5, 0.5], [0.7, 0.1], [0.1, 0.2]], [1.0, 2.0, 0.0, 1.0])


def test_bad_input_is_refused():
    with pytest.raises(ParameterError, match="lengthscale"):
        GaussianProcessSurrogate(2, lengthscale=0.0)
    with pytest.raises(ParameterError, match="noise"):
        GaussianProcessSurrogate(2, noise=-1e-9)
    with pytest.raises(ParameterError, match="dimension"):
        GaussianProcessSurrogate(0)
    with pytest.raises(ParameterError, match="lengthscale"):
        se_kappa(-1.0)
    with pytest.raises(ParameterError, match="capacity"):
        gp_state(0, 2)
    gp = GaussianProcessSurrogate(2)
    with pytest.raises(ParameterError, match="points"):
        gp.add([[0.0, 0.0, 0.0]], [1.0])
    with pytest.raises(ParameterError, match="values"):
        gp.add([[0.0, 0.0]], [np.nan])
    with pytest.raises(ParameterError, match="x"):
        gp.mean_gradient([0.0])
    with pytest.raises(ParameterError, match="count"):
        gp.most_uncertain(np.zeros((3, 2)), 4)
    with pytest.raises(ParameterError, match="neighbours"):
        gp.trace_uncertainty(np.zeros((3, 2)), neighbours=0)


def test_empty_history_is_the_prior():
    gp = GaussianProcessSurrogate(3, lengthscale=2.0)
    x = np.array([0.1, 0.2, 0.3])
    assert gp.mean(x) == 0.0
    np.testing.assert_array_equal(gp.mean_gradient(x), 0.0)
    np.testing.assert_allclose(gp.gradient_covariance(x), np.eye(3) / 4)
    np.testing.assert_allclose(gp.trace_uncertainty(np.zeros((2, 3))), 0.75)


def test_top_k_matches_a_stable_sort():
    rng = np.random.default_rng(2)
    values = rng.integers(0, 6, 40).astype(float)  # many ties
    values[3] = np.nan
    out = np.empty(7, dtype=np.int64)
    K.top_k(values, 7, out)
    order = np.argsort(-np.nan_to_num(values, nan=-np.inf), kind="stable")[:7]
    np.testing.assert_array_equal(out, order)


# --- statistical checks ------------------------------------------------------------------------


def _joint_draws(rng, X, x, lengthscale, noise, draws):
    """Exact joint draws of (y at X, ∇f(x)) under f ~ GP(0, SE) and noise σ² (derivative
    covariances: Cov(∇f(x), f(x_j)) = ∂_x k(x, x_j), Cov(∇f(x)) = I/l²)."""
    n, d = X.shape
    cov = np.zeros((n + d, n + d))
    cov[:n, :n] = ref.kernel_matrix(X, X, lengthscale) + noise * np.eye(n)
    cross = ref.jacobian(X, x, lengthscale)  # (n, d): ∂_x k(x, x_j) as rows
    cov[:n, n:] = cross
    cov[n:, :n] = cross.T
    cov[n:, n:] = np.eye(d) / lengthscale**2
    factor = np.linalg.cholesky(cov + 1e-12 * np.eye(n + d))
    sample = rng.standard_normal((draws, n + d)) @ factor.T
    return sample[:, :n], sample[:, n:]


@pytest.mark.parametrize("d", [2, 5, 20])
@pytest.mark.parametrize("n", [5, 20, 100])
def test_gradient_posterior_is_calibrated(d, n):
    # Check 15: s = eᵀΣ(x)⁻¹e ~ χ²_d for e = ∇μ(x) − ∇f(x), and the Lemma C.1 tail.
    rng = np.random.default_rng(100 * d + n)
    lengthscale, noise, draws = 1.0, 1e-2, 500
    x = rng.uniform(0, 1, d)
    X = x + 0.6 * rng.standard_normal((n, d))
    Y, gradients = _joint_draws(rng, X, x, lengthscale, noise, draws)
    gp = GaussianProcessSurrogate(d, lengthscale=lengthscale, noise=noise, capacity=n)
    gp.add(X, Y[0])
    Sigma = gp.gradient_covariance(x)
    errors = np.empty((draws, d))
    for j in range(draws):
        gp.state[8][K.INFO_N] = 0.0
        gp.state[8][K.INFO_SYNC] = 0.0
        gp.add(X, Y[j])
        errors[j] = gp.mean_gradient(x) - gradients[j]
    s = np.einsum("ij,ij->i", errors, np.linalg.solve(Sigma, errors.T).T)
    assert stats.kstest(s, stats.chi2(d).cdf).pvalue > 0.01
    delta = 0.1
    omega = d + 2 * (math.sqrt(d) + 1) * math.log(1 / delta)
    exceed = np.mean(np.sum(errors**2, axis=1) > omega * np.linalg.norm(Sigma, 2))
    assert exceed <= delta + 3 * math.sqrt(delta * (1 - delta) / draws)


def test_spectral_uncertainty_is_kappa_below_d_while_the_trace_decreases():
    # Check 16: Σ_n(x) = κI − (PSD of rank ≤ n), so λ_max = κ exactly for n < d (ρ_i = 1).
    rng = np.random.default_rng(4)
    d, lengthscale = 8, 1.3
    kappa = se_kappa(lengthscale)
    gp = GaussianProcessSurrogate(d, lengthscale=lengthscale, noise=1e-2)
    x = rng.uniform(0, 1, d)
    traces = [gp.trace_uncertainty(x[None, :])[0]]
    for _ in range(d - 1):
        point = x + 0.3 * rng.standard_normal(d)
        gp.add(point, rng.standard_normal())
        for z in (x, rng.uniform(0, 1, d)):
            assert abs(np.linalg.eigvalsh(gp.gradient_covariance(z))[-1] - kappa) < 1e-8
        traces.append(gp.trace_uncertainty(x[None, :])[0])
        assert traces[-1] == pytest.approx(np.trace(gp.gradient_covariance(x)), rel=1e-10)
    assert np.all(np.diff(traces) < 0)
    assert traces[0] == pytest.approx(d * kappa)


def test_local_ranking_is_exact_below_m_and_an_upper_bound_above():
    # Conditioning on the m nearest points only can only increase Σ(c): tr Σ_S ≥ tr Σ, with
    # equality when the subset is the whole history; the twin on the chosen subset agrees.
    rng = np.random.default_rng(12)
    d, lengthscale, noise = 4, 0.7, 1e-3
    X, y = _history(rng, 60, d, offset=0.5, spread=0.5)
    gp = _filled(X, y, [1, 5] * 10, lengthscale, noise)
    center = X[-1]
    candidates = center + rng.uniform(-0.01, 0.01, (25, d))
    exact = gp.trace_uncertainty(candidates)
    local = gp.trace_uncertainty(candidates, neighbours=60, center=center)
    np.testing.assert_array_equal(local, exact)
    for m in (5, 20, 59):
        local = gp.trace_uncertainty(candidates, neighbours=m, center=center)
        nearest = np.sort(np.argsort(np.sum((X - center) ** 2, axis=1), kind="stable")[:m])
        twin = ref.trace_uncertainty(X[nearest], candidates, lengthscale, noise)
        np.testing.assert_allclose(local, twin, rtol=0, atol=1e-9)
        assert np.all(local >= exact - 1e-9)
        if m == 5:
            assert np.all(local > exact + 1e-6)  # 5 of 60 points: the bound is not tight
