"""Logistic problems and exact oracles: cvxpy cross-checks, exact population quantities, Lemma 7,
the Assouad posterior, limits of FedProx, bad input."""

from __future__ import annotations

import dataclasses
import math
import warnings

import cvxpy as cp
import mpmath
import numpy as np
import pytest
from scipy import special

from fedtheory.errors import ParameterError, SolverError
from fedtheory.exact import fedprox_logistic, logistic_erm, logistic_erm_batch
from fedtheory.exact.logistic import logistic_loss_derivatives
from fedtheory.papers.minimax import (
    AppendixDClients,
    AssouadClients,
    LogisticClients,
    appendix_d_clients,
    assouad_clients,
    bayes_estimate,
    logistic_clients,
)
from fedtheory.papers.minimax.appendix_d import _gaussian_accuracy, _gaussian_risk

CLARABEL = {"solver": "CLARABEL", "tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}


def _logistic_data(n: int, d: int, seed: int, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = scale * rng.standard_normal(d)
    y = np.where(rng.random(n) < special.expit(X @ w), 1.0, -1.0)
    return X, y


def _cvx_erm(X: np.ndarray, y: np.ndarray, s: np.ndarray, radius: float | None) -> np.ndarray:
    w = cp.Variable(X.shape[1])
    objective = cp.Minimize(cp.sum(cp.multiply(s, cp.logistic(-cp.multiply(y, X @ w)))))
    constraints = [] if radius is None else [cp.norm(w) <= radius]
    _solve(cp.Problem(objective, constraints))
    return np.asarray(w.value)


def _solve(problem: cp.Problem) -> None:
    """Clarabel at 1e-12; it may warn "inaccurate" when it stops just short of that."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        problem.solve(**CLARABEL)
    assert problem.status in ("optimal", "optimal_inaccurate")


# ---------------------------------------------------------------------------------------------
# Exact solvers against cvxpy
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [None, 0.4])
def test_logistic_erm_matches_cvxpy(radius: float | None) -> None:
    X, y = _logistic_data(80, 4, seed=0)
    s = np.random.default_rng(1).uniform(0.5, 1.5, 80)
    s /= s.sum()
    w, info = logistic_erm(X, y, sample_weights=s, radius=math.inf if radius is None else radius)
    reference = _cvx_erm(X, y, s, radius)
    np.testing.assert_allclose(w, reference, atol=1e-6)
    if radius is None:
        assert not info.active and info.nu == 0.0
        _, grad, _ = logistic_loss_derivatives(X, y, w, sample_weights=s)
        assert np.linalg.norm(grad) < 1e-13  # ~1e-12 relative to Σ s‖x‖ ≈ 2
    else:
        # the unconstrained minimizer is outside: the constraint binds with ν > 0 (KKT)
        assert info.active and info.nu > 0
        assert np.linalg.norm(w) == pytest.approx(radius, rel=1e-12)
        _, grad, _ = logistic_loss_derivatives(X, y, w, sample_weights=s)
        np.testing.assert_allclose(grad + info.nu * w, 0.0, atol=1e-12)


def test_separable_data_need_a_radius() -> None:
    rng = np.random.default_rng(3)
    X = rng.standard_normal((6, 3))
    y = np.sign(X @ np.array([1.0, -2.0, 0.5]))
    with pytest.raises(SolverError, match="separable"):
        logistic_erm(X, y)
    w, info = logistic_erm(X, y, radius=2.0)
    assert info.active
    np.testing.assert_allclose(w, _cvx_erm(X, y, np.full(6, 1 / 6), 2.0), atol=1e-6)
    # quasi-separable (a duplicated point with both labels; the rest separated): no minimizer
    Xq = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    yq = np.array([1.0, -1.0, 1.0, -1.0])
    with pytest.raises(SolverError, match="separable"):
        logistic_erm(Xq, yq)
    # GM-A (d = n = 100): local data separable, the ERMs need a finite radius
    inst = appendix_d_clients(2.0, seed=0, m=3)
    with pytest.raises(SolverError, match="client 0"):
        inst.local_erm()
    bounded = appendix_d_clients(2.0, seed=0, m=3, radius=15.0)
    np.testing.assert_array_equal(bounded.data.features, inst.data.features)
    W, infos = bounded.local_erm(return_info=True)
    assert all(info.active for info in infos)
    np.testing.assert_allclose(np.linalg.norm(W, axis=1), 15.0, rtol=1e-12)


def test_batch_equals_single_solves() -> None:
    X = np.stack([_logistic_data(50, 3, seed=k)[0] for k in range(4)])
    y = np.stack([_logistic_data(50, 3, seed=k)[1] for k in range(4)])
    W, infos = logistic_erm_batch(X, y, radius=0.6)
    for k in range(4):
        w, info = logistic_erm(X[k], y[k], radius=0.6)
        np.testing.assert_allclose(W[k], w, atol=1e-12)
        assert infos[k].active == info.active


@pytest.mark.parametrize("radius", [None, 0.5])
def test_fedprox_matches_cvxpy(radius: float | None) -> None:
    rng = np.random.default_rng(5)
    m, n, d, lam = 3, 40, 3, 0.7
    X = rng.standard_normal((m, n, d))
    optima = rng.standard_normal((m, d))
    y = np.where(rng.random((m, n)) < special.expit(np.einsum("mnd,md->mn", X, optima)), 1.0, -1.0)
    p = np.array([0.2, 0.3, 0.5])
    wg, W, info = fedprox_logistic(X, y, p, lam, radius=math.inf if radius is None else radius)
    g = cp.Variable(d)
    U = cp.Variable((m, d))
    terms = [
        p[i] * (cp.sum(cp.logistic(-cp.multiply(y[i], X[i] @ U[i]))) / n
                + lam / 2 * cp.sum_squares(g - U[i]))
        for i in range(m)
    ]  # fmt: skip
    constraints = [] if radius is None else [cp.norm(U[i]) <= radius for i in range(m)]
    constraints += [] if radius is None else [cp.norm(g) <= radius]
    _solve(cp.Problem(cp.Minimize(sum(terms)), constraints))
    np.testing.assert_allclose(wg, np.asarray(g.value), atol=1e-6)
    np.testing.assert_allclose(W, np.asarray(U.value), atol=1e-6)
    if radius is not None:
        assert info.active.any()
    # stationarity in w^g: w^g = Σ p_i w^(i)
    np.testing.assert_allclose(wg, p @ W, atol=1e-11)


def test_fedprox_limits_are_local_and_global_erms() -> None:
    """Guide V11(a): λ = 1e-8 → PureLocalTraining, λ = 1e8 → FedAvg, 1e-5 relative."""
    inst = logistic_clients(4, 150, 3, 0.8, seed=2)
    local, glob = inst.local_erm(), inst.global_erm()
    _, W_small = inst.fedprox_erm(1e-8)
    wg_big, W_big = inst.fedprox_erm(1e8)
    rows = np.linalg.norm
    assert np.all(rows(W_small - local, axis=1) <= 1e-5 * rows(local, axis=1))
    assert np.all(rows(W_big - glob, axis=1) <= 1e-5 * rows(glob))
    assert rows(wg_big - glob) <= 1e-5 * rows(glob)
    wg0, W0 = inst.fedprox_erm(0.0)
    np.testing.assert_array_equal(W0, local)
    np.testing.assert_allclose(wg0, inst.weights @ local, rtol=1e-15)
    wg_inf, W_inf = inst.fedprox_erm(math.inf)
    np.testing.assert_allclose(wg_inf, glob, rtol=1e-13)
    np.testing.assert_allclose(W_inf, np.tile(glob, (4, 1)), rtol=1e-13)


def test_compressed_rademacher_erm_equals_row_by_row() -> None:
    """GM-L compresses the data to the 2^{d+1} support points: same minimizers."""
    inst = logistic_clients(3, 200, 2, 0.5, seed=4)
    W = inst.local_erm()
    for i in range(3):
        X, y = inst.data.client(i)
        np.testing.assert_allclose(W[i], logistic_erm(X, y, radius=inst.data.radius)[0], atol=1e-12)
    X = inst.data.features.reshape(-1, 2)
    y = inst.data.targets.reshape(-1)
    s = np.repeat(inst.weights / inst.data.counts, inst.data.n_max)
    np.testing.assert_allclose(
        inst.global_erm(), logistic_erm(X, y, sample_weights=s)[0], atol=1e-12
    )


# ---------------------------------------------------------------------------------------------
# GM-L: exact population quantities by enumeration
# ---------------------------------------------------------------------------------------------


def test_gm_l_construction_and_enumeration() -> None:
    inst = logistic_clients(6, 300, 4, 0.7, seed=0, center_norm=1.5)
    assert isinstance(inst, LogisticClients)
    a, b = inst.heterogeneity()
    assert a == pytest.approx(0.49, rel=1e-12) and b == pytest.approx(0.49, rel=1e-12)
    np.testing.assert_allclose(inst.center, inst.w0, atol=1e-15)
    assert np.linalg.norm(inst.w0) == pytest.approx(1.5, rel=1e-13)
    np.testing.assert_allclose(np.linalg.norm(inst.directions, axis=1), 1.0, rtol=1e-13)
    assert inst.data.radius == pytest.approx(2 * (1.5 + 0.7) + 1)
    assert set(np.unique(inst.data.features)) == {-1.0, 1.0}
    # the population optimum is w⋆^(i): zero gradient by enumeration, positive excess elsewhere
    for i in range(6):
        assert np.linalg.norm(inst.population_gradient(i, inst.optima[i])) < 1e-16
    np.testing.assert_array_equal(inst.excess_risk(inst.optima), 0.0)
    assert np.all(inst.excess_risk(inst.optima + 0.01) > 0)
    # excess risk (Bregman form) = difference of population risks
    models = inst.optima + np.random.default_rng(0).standard_normal((6, 4))
    np.testing.assert_allclose(
        inst.excess_risk(models),
        inst.population_risk(models) - inst.population_risk(inst.optima),
        rtol=1e-12,
    )
    # Hessian = derivative of the gradient (central differences)
    w, h = models[0], 1e-5
    fd = np.stack([
        (inst.population_gradient(0, w + h * e) - inst.population_gradient(0, w - h * e)) / (2 * h)
        for e in np.eye(4)
    ])  # fmt: skip
    np.testing.assert_allclose(fd, inst.population_hessian(3, w), atol=1e-9)


def test_gm_l_population_risk_against_monte_carlo() -> None:
    inst = logistic_clients(2, 10, 5, 1.0, seed=1)
    rng = np.random.default_rng(2)
    x = rng.choice([-1.0, 1.0], size=(400_000, 5))
    w = np.array([0.31, -0.23, 0.57, 0.05, 1.07])  # no ties xᵀw = 0
    for i in range(2):
        y = np.where(rng.random(x.shape[0]) < special.expit(x @ inst.optima[i]), 1.0, -1.0)
        loss = np.logaddexp(0.0, -y * (x @ w))
        se = loss.std() / math.sqrt(loss.size)
        assert abs(loss.mean() - inst.population_risk(w)[i]) < 4 * se
        correct = np.sign(x @ w) == y
        se_acc = correct.std() / math.sqrt(correct.size)
        assert abs(correct.mean() - inst.accuracy(w)[i]) < 4 * se_acc


def test_gm_l_erm_excess_risk_and_kappa() -> None:
    """n·IER_PLT ≈ d/2 on average (Thm 4 asymptotics, guide V2) and κ ≈ 0.2 (guide §3.3)."""
    values = []
    for seed in range(30):
        inst = logistic_clients(10, 800, 3, 0.2, seed=seed)
        W, infos = inst.local_erm(return_info=True)
        assert not any(info.active for info in infos)
        values.append(inst.excess_risk(W).mean() * 800)
    assert np.mean(values) == pytest.approx(1.5, rel=0.15)
    inst = logistic_clients(10, 100, 5, 0.0, seed=0)
    kappa = inst.curvature_kappa()
    H = inst.population_hessian(0, inst.center)
    assert np.linalg.eigvalsh(H)[0] <= kappa <= np.linalg.eigvalsh(H)[-1]
    assert 0.15 < kappa < 0.25
    # odd m: the 120° triple keeps Σ u_i = 0 and unit directions
    odd = logistic_clients(5, 20, 3, 1.0, seed=3)
    np.testing.assert_allclose(odd.directions.sum(axis=0), 0.0, atol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(odd.directions, axis=1), 1.0, rtol=1e-13)


def test_lemma7_constants() -> None:
    """Guide V10: λ_min(∇²L_i(w)) ≥ (e^{a/2} + e^{−a/2})^{−2} λ_min(XᵀX/n), a = c_X√d‖w‖;
    σ² ≤ c_X²d/4, β ≤ c_X²d/4; the population μ lies between the certified and any sampled
    curvature."""
    rng = np.random.default_rng(0)
    d = 4
    inst = logistic_clients(3, 60, d, 0.5, seed=7)
    for _ in range(40):
        X = rng.choice([-1.0, 1.0], size=(30, d))
        y = rng.choice([-1.0, 1.0], size=30)
        w = rng.standard_normal(d)
        w *= inst.data.radius * rng.random() / np.linalg.norm(w)
        a = math.sqrt(d) * np.linalg.norm(w)
        mu0 = (math.exp(a / 2) + math.exp(-a / 2)) ** -2
        _, _, hess = logistic_loss_derivatives(X, y, w)
        lower = mu0 * np.linalg.eigvalsh(X.T @ X / 30)[0]
        assert np.linalg.eigvalsh(hess)[0] >= lower - 1e-15
    assert inst.sigma2 <= d / 4 and inst.beta <= inst.beta_sample == d / 4
    assert inst.ell_inf == pytest.approx(math.log1p(math.exp(2 * inst.data.radius)))
    assert inst.mu_lemma7 <= inst.mu
    for _ in range(20):
        w = rng.standard_normal(d)
        w *= inst.data.radius / np.linalg.norm(w)
        assert inst.mu <= np.linalg.eigvalsh(inst.population_hessian(0, w))[0] + 1e-15
    diag = inst.data.radius * np.array([1.0, 1.0, 0.0, 0.0]) / math.sqrt(2)
    assert inst.mu <= np.linalg.eigvalsh(inst.population_hessian(0, diag))[0] + 1e-15


# ---------------------------------------------------------------------------------------------
# GM-A: exact metrics by quadrature
# ---------------------------------------------------------------------------------------------


def _reference(su: float, sv: float, rho: float) -> tuple[float, float]:
    """(risk, accuracy) by adaptive mpmath quadrature at 30 digits."""
    mpmath.mp.dps = 30
    phi = lambda z: mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
    softplus = lambda t: mpmath.log1p(mpmath.exp(-abs(t))) + max(t, 0)  # noqa: E731
    sigp = lambda t: 1 / (4 * mpmath.cosh(t / 2) ** 2)  # noqa: E731
    cuts = [-mpmath.inf, -1, -1 / su, 0, 1 / su, 1, mpmath.inf]
    risk = mpmath.quad(lambda z: softplus(su * z) * phi(z), cuts)
    risk -= rho * su * sv * mpmath.quad(lambda z: sigp(sv * z) * phi(z), cuts)
    k = rho / mpmath.sqrt(1 - rho**2)
    acc = 0.5 + mpmath.quad(
        lambda z: mpmath.tanh(sv * z / 2) * mpmath.erf(k * z / mpmath.sqrt(2)) * phi(z),
        [0, 1 / sv, 1 / abs(k), 1, mpmath.inf],
    )
    return float(risk), float(acc)


@pytest.mark.parametrize(
    ("su", "sv", "rho"),
    [
        (10.0, 12.0, 0.3),
        (0.5, 0.2, 0.9),
        (30.0, 25.0, -0.5),
        (3.0, 3.0, 0.999999),
        (80.0, 2.0, 0.1),
    ],
)
def test_gm_a_quadrature_against_high_precision(su: float, sv: float, rho: float) -> None:
    args = (np.array([su]), np.array([sv]), np.array([rho * su * sv]))
    risk, acc = _reference(su, sv, rho)
    assert _gaussian_risk(*args)[0] == pytest.approx(risk, abs=1e-12)
    assert _gaussian_accuracy(*args)[0] == pytest.approx(acc, abs=1e-12)


def test_gm_a_exact_metrics_against_monte_carlo() -> None:
    inst = appendix_d_clients(6.0, seed=1, m=3, n=20, d=30)
    assert isinstance(inst, AppendixDClients)
    assert np.all(inst.directions @ inst.w_common <= 0)
    rng = np.random.default_rng(4)
    models = inst.optima + 0.8 * rng.standard_normal(inst.optima.shape)
    x = rng.standard_normal((1_000_000, 30))
    risk, acc = inst.population_risk(models), inst.accuracy(models)
    sigma2 = []
    for i in range(3):
        t, t_star = x @ models[i], x @ inst.optima[i]
        p = special.expit(t_star)
        loss = np.logaddexp(0.0, t) - p * t  # E over y given x, exact
        correct = np.where(t > 0, p, 1 - p)
        assert abs(loss.mean() - risk[i]) < 4 * loss.std() / 1e3
        assert abs(correct.mean() - acc[i]) < 4 * correct.std() / 1e3
        grad_sq = np.einsum("nd,nd->n", x, x) * p * (1 - p)  # E‖∇ℓ(w⋆)‖² given x
        sigma2.append((grad_sq.mean(), grad_sq.std() / 1e3))
    best = max(sigma2)
    assert abs(inst.sigma2 - best[0]) < 4 * best[1]
    np.testing.assert_allclose(inst.excess_risk(inst.optima), 0.0, atol=1e-13)
    assert np.all(inst.excess_risk(models) > 0)
    bayes = inst.bayes_accuracy()
    assert np.all(bayes > acc) and np.all(bayes < 1)
    np.testing.assert_allclose(inst.accuracy(-inst.optima), 1 - bayes, rtol=1e-13)
    assert inst.beta == 0.25 and inst.ell_inf == math.inf and inst.mu == 0.0
    # μ on a ball: min over the sphere of λ_min(E[sig'(xᵀw)xxᵀ]) = E[Z² sig'(ρZ)] (closed form)
    z = np.random.default_rng(5).standard_normal(1_000_000)
    ball = appendix_d_clients(1.0, seed=1, m=2, n=5, d=3, radius=2.0)
    target = z * z * special.expit(2 * z) * special.expit(-2 * z)
    assert abs(ball.mu - target.mean()) < 4 * target.std() / 1e3
    assert inst.accuracy(np.zeros(30)) == pytest.approx(np.full(3, 0.5))
    assert inst.population_risk(np.zeros(30)) == pytest.approx(np.full(3, math.log(2.0)))


# ---------------------------------------------------------------------------------------------
# GM-P: the Assouad posterior
# ---------------------------------------------------------------------------------------------


def test_bayes_posterior_mean_against_brute_force() -> None:
    inst = assouad_clients(2, 7, 2, [0.8, 0.3], seed=3)
    assert isinstance(inst, AssouadClients)
    np.testing.assert_allclose(np.abs(inst.optima), [[0.8, 0.8], [0.3, 0.3]])
    estimate = bayes_estimate(inst)
    for i in range(2):
        X, y = inst.data.client(i)
        delta = inst.delta[i]
        hypotheses = [np.array([a, b]) for a in (-1.0, 1.0) for b in (-1.0, 1.0)]
        likelihood = [
            math.prod(
                1 / (1 + math.exp(-yj * delta * float(xj @ v))) for xj, yj in zip(X, y, strict=True)
            )
            for v in hypotheses
        ]
        mean = sum(L * delta * v for L, v in zip(likelihood, hypotheses, strict=True)) / sum(
            likelihood
        )
        np.testing.assert_allclose(estimate[i], mean, rtol=1e-12)
    np.testing.assert_allclose(inst.bayes_estimate(), estimate)
    # the realized B(a) level
    a, _ = inst.heterogeneity()
    assert math.isclose(inst.R, math.sqrt(a), rel_tol=1e-12)


def test_bayes_risk_beats_local_erm_on_the_prior() -> None:
    """Guide V9: under the prior, the posterior mean has smaller risk than the local ERM."""
    bayes, erm = [], []
    for seed in range(40):
        inst = assouad_clients(4, 40, 3, 0.25, seed=seed)
        bayes.append(np.sum((inst.bayes_estimate() - inst.optima) ** 2))
        erm.append(np.sum((inst.local_erm() - inst.optima) ** 2))
    assert np.mean(bayes) < np.mean(erm)


# ---------------------------------------------------------------------------------------------
# Interface, reproducibility, bad input
# ---------------------------------------------------------------------------------------------


def test_interface_seeds_and_replacement() -> None:
    a = logistic_clients(4, [30, 50, 70, 90], 3, 0.4, seed=9)
    b = logistic_clients(4, [30, 50, 70, 90], 3, 0.4, seed=np.random.SeedSequence(9))
    np.testing.assert_array_equal(a.data.features, b.data.features)
    np.testing.assert_array_equal(a.data.targets, b.data.targets)
    np.testing.assert_allclose(a.weights, np.array([30, 50, 70, 90]) / 240)
    assert np.all(a.data.features[0, 30:] == 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.R = 1.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        a.optima[0, 0] = 1.0
    assert a.global_erm().shape == (3,) and a.local_erm().shape == (4, 3)
    wg, W = a.fedprox_erm(0.5, weights=np.full(4, 0.25))
    assert wg.shape == (3,) and W.shape == (4, 3)
    row = -a.data.features[1, 5]
    c = a.with_sample_replaced(1, 5, row, -a.data.targets[1, 5])
    assert type(c) is type(a)
    np.testing.assert_array_equal(c.data.features[1, 5], row)
    assert np.count_nonzero(c.data.features != a.data.features) == 3
    np.testing.assert_array_equal(c.optima, a.optima)
    # only client 1's local ERM moves (federated stability, Def. 5)
    diff = np.linalg.norm(c.local_erm() - a.local_erm(), axis=1)
    assert diff[1] > 0 and np.all(diff[[0, 2, 3]] == 0)
    with pytest.raises(ParameterError, match="features_row"):
        a.with_sample_replaced(1, 5, [0.5, 1.0, 1.0], 1.0)
    with pytest.raises(ParameterError, match="index"):
        a.with_sample_replaced(0, 30, row, 1.0)
    with pytest.raises(ParameterError, match="target"):
        a.with_sample_replaced(0, 0, row, 0.0)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: logistic_clients(0, 10, 2, 0.1, seed=0), "m"),
        (lambda: logistic_clients(2, 0, 2, 0.1, seed=0), "n"),
        (lambda: logistic_clients(2, [10], 2, 0.1, seed=0), "n"),
        (lambda: logistic_clients(2, 10, 17, 0.1, seed=0), "d"),
        (lambda: logistic_clients(2, 10, 0, 0.1, seed=0), "d"),
        (lambda: logistic_clients(2, 10, 2, -0.1, seed=0), "R"),
        (lambda: logistic_clients(2, 10, 2, 0.1, seed=0, weights=[0.7, 0.7]), "weights"),
        (lambda: logistic_clients(2, 10, 2, 0.1, seed=0, radius=0.0), "radius"),
        (lambda: logistic_clients(2, 10, 2, 1.0, seed=0, radius=1.5), "radius"),
        (lambda: logistic_clients(2, 10, 2, 0.1, seed=None), "seed"),  # type: ignore[arg-type]
        (lambda: logistic_clients(3, 10, 1, 0.1, seed=0), "m"),
        (lambda: assouad_clients(2, 10, 2, -1.0, seed=0), "delta"),
        (lambda: bayes_estimate(assouad_clients(1, 5, 11, 0.1, seed=0)), "d"),
        (lambda: appendix_d_clients(-1.0, seed=0), "R"),
        (lambda: appendix_d_clients(1.0, seed=0, m=0), "m"),
        (lambda: appendix_d_clients(1.0, seed=0, radius=-2.0), "radius"),
        (lambda: logistic_erm(np.ones((3, 2)), np.array([1.0, 0.0, 1.0])), "labels"),
        (lambda: logistic_erm(np.ones((3, 2)), np.ones(3), radius=0), "radius"),
        (
            lambda: logistic_erm(np.ones((3, 2)), np.ones(3), sample_weights=-np.ones(3)),
            "sample_weights",
        ),
        (lambda: logistic_clients(2, 10, 2, 0.1, seed=0).fedprox_erm(-1.0), "lam"),
        (lambda: logistic_clients(2, 10, 2, 0.1, seed=0).excess_risk(np.ones(3)), "models"),
    ],
)
def test_bad_input_names_the_parameter(call, parameter: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
