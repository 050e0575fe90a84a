"""FZooS's GP surrogate vs scikit-learn's GaussianProcessRegressor on the same kernel and history.

Run from the repository root::

    .venv/bin/python benchmarks/bench_fzoos_gp_sklearn.py [--dimension 50] [--history 1200]
        [--test 100] [--repeats 5]

Workload: the posterior of one client's query history as FZooS builds it (Shu et al.,
Sec. 4.1, eqs. (4)–(5); :mod:`fedtheory.papers.fzoos.gp`): SE kernel with l = 1, noise
σ² = 1e-4 (the toolkit's default), zero prior mean. The history imitates the FZooS local steps
of ``bench_fzoos_gp.py``: iterates x_{s+1} = x_s − 0.01·sign(g_s) (g_s Gaussian, a stand-in
for ∇μ), each followed by 5 points x_s + U[−0.01, 0.01]^d; values f(x) = ‖x − ½‖² + sin(3x₁);
``--history`` points in all (1200 at d = 50: the issue's R = 20, T = 10). The test points are
``--test`` candidates x + U[−0.01, 0.01]^d around the last iterate (what a step scores).

Each contender fits the posterior from scratch on the same history and returns the posterior
means at the test points (one harness, ``benchmarks/_harness.py``: untimed warm-up call each,
``--repeats`` interleaved rounds, medians, outputs checked):

- **fedtheory**: :class:`~fedtheory.papers.fzoos.gp.GaussianProcessSurrogate` — one ``add`` of
  the whole history (incremental Cholesky, numba), then ``mean`` at each test point (the
  Python-level API; FZooS's own loop calls the same kernels without the Python layer);
- **scikit-learn**: ``GaussianProcessRegressor(kernel=RBF(1.0), alpha=σ², optimizer=None,
  normalize_y=False)``: ``fit`` then ``predict`` (fixed hyperparameters: no likelihood
  optimisation, the same kernel and noise);
- **numpy + LAPACK**: the textbook K_σ = K + σ²I, ``scipy.linalg.cho_factor``/``cho_solve``,
  means k(X*, X) α.

Outputs checked: max |μ − μ_sklearn| / max |μ_sklearn| ≤ 1e-8 (tolerance explained at
``TOLERANCE``). Under the table, an untimed check of the *gradient* of the mean (eq. (5), what
FZooS's step uses): fedtheory's ``mean_gradient`` against J(x)ᵀα from scikit-learn's fitted α,
same tolerance; it raises on a mismatch too.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import numpy as np
import scipy.linalg
from _harness import Contender, compare, max_relative
from scipy.spatial.distance import cdist
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF

from fedtheory.papers.fzoos.gp import DEFAULT_NOISE, GaussianProcessSurrogate

#: SE kernel lengthscale (the paper fixes l = 1, A11).
LENGTHSCALE = 1.0
#: FZooS's local moves: sign steps of 0.01 and candidates within ±0.01 (App. E).
STEP, SPREAD = 0.01, 0.01
#: Active queries appended after each iterate (top 5 of 100 candidates, App. E).
ACTIVE = 5
#: Tolerance of the mean check. With points 0.01 apart K is nearly the all-ones matrix and the
#: noise 1e-4 sets cond(K_σ) ≈ n/σ² ≈ 1e7 at n = 1200, so two correct solvers (incremental
#: Cholesky vs LAPACK's blocked one) agree to at worst cond·ε ≈ 1e-9 relative; measured far
#: less (means 4e-13 at n = 600, 8e-13 at n = 1200; gradients 1e-11). Planted errors, measured
#: at n = 600: the lengthscale 1.001 for 1 in scikit-learn moves the means by 1e-5, the noise
#: 2e-4 for 1e-4 by 8e-4.
TOLERANCE = 1e-8
WHY = "cond(K_σ) ≈ n/σ² ≈ 1e7: two correct solvers agree to ~cond·ε ≈ 1e-9"


def objective(x: np.ndarray) -> np.ndarray:
    """f(x) = ‖x − ½‖² + sin(3x₁) for each row of x (bench_fzoos_gp.py's objective)."""
    return np.asarray(np.sum((x - 0.5) ** 2, axis=-1) + np.sin(3.0 * x[..., 0]))


def history(dimension: int, size: int, tests: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Points (size, d), values (size,) and test points (tests, d) along a FZooS-like path."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 1.0, dimension)
    points = []
    while len(points) < size:
        points.append(x.copy())
        points.extend(x + rng.uniform(-SPREAD, SPREAD, (ACTIVE, dimension)))
        x = x - STEP * np.sign(rng.standard_normal(dimension))
    X = np.array(points[:size])
    test = x + rng.uniform(-SPREAD, SPREAD, (tests, dimension))
    return X, objective(X), test


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dimension", type=int, default=50)
    parser.add_argument("--history", type=int, default=1200)
    parser.add_argument("--test", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the comparison as JSON here")
    args = parser.parse_args()
    d, n = args.dimension, args.history
    X, y, test = history(d, n, args.test)
    noise = DEFAULT_NOISE

    def fedtheory_fit() -> GaussianProcessSurrogate:
        surrogate = GaussianProcessSurrogate(d, lengthscale=LENGTHSCALE, noise=noise, capacity=n)
        surrogate.add(X, y)
        return surrogate

    def fedtheory_means() -> np.ndarray:
        surrogate = fedtheory_fit()
        return np.array([surrogate.mean(point) for point in test])

    def sklearn_fit() -> GaussianProcessRegressor:
        regressor = GaussianProcessRegressor(
            kernel=RBF(length_scale=LENGTHSCALE), alpha=noise, optimizer=None, normalize_y=False
        )
        return regressor.fit(X, y)

    def sklearn_means() -> np.ndarray:
        return np.asarray(sklearn_fit().predict(test))

    def textbook_means() -> np.ndarray:
        gram = np.exp(-cdist(X, X, "sqeuclidean") / (2.0 * LENGTHSCALE**2))
        gram[np.diag_indices_from(gram)] += noise
        alpha = scipy.linalg.cho_solve(scipy.linalg.cho_factor(gram, lower=True), y)
        return np.exp(-cdist(test, X, "sqeuclidean") / (2.0 * LENGTHSCALE**2)) @ alpha

    check = max_relative(TOLERANCE, WHY)
    result = compare(
        f"GP posterior mean, SE kernel l = {LENGTHSCALE}, σ² = {noise}: history n = {n}, "
        f"d = {d}, {args.test} test points (fit from scratch + predict)",
        [
            Contender("fedtheory GaussianProcessSurrogate", fedtheory_means, "numba, 1 core"),
            Contender("scikit-learn GaussianProcessRegressor", sklearn_means, "optimizer=None"),
            Contender("numpy + LAPACK Cholesky", textbook_means, "cdist, cho_solve"),
        ],
        reference="scikit-learn GaussianProcessRegressor",
        repeats=args.repeats,
        check=check,
        libraries=("scikit-learn",),
    )
    # the gradient of the mean, eq. (5): fedtheory's kernel against J(x)ᵀα from sklearn's α
    surrogate, regressor = fedtheory_fit(), sklearn_fit()
    ours = np.array([surrogate.mean_gradient(point) for point in test])
    weights = np.exp(-cdist(test, X, "sqeuclidean") / (2.0 * LENGTHSCALE**2)) * regressor.alpha_
    theirs = (weights @ X - weights.sum(axis=1, keepdims=True) * test) / LENGTHSCALE**2
    gradient = check.verify("fedtheory mean_gradient", ours, "J(x)ᵀα of scikit-learn", theirs)
    note = (
        f"∇μ at the {args.test} test points (eq. (5)): fedtheory's mean_gradient vs J(x)ᵀα "
        f"with scikit-learn's α: {check.description} = {gradient:.1e} (≤ {TOLERANCE:.0e})"
    )
    result = dataclasses.replace(result, notes=(*result.notes, note))
    print(result.markdown())
    if args.json is not None:
        args.json.write_text(json.dumps(result.to_dict(), indent=1))


if __name__ == "__main__":
    main()
