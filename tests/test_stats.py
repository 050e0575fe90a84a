"""Tests of :mod:`fedtheory.stats` against known answers.

Exact cases (exact power laws, lines crossing at a known point, exact floor-plus-power-law data)
pin the estimators to floating-point accuracy; independent reference implementations (scipy's
``linregress`` and ``t.interval``, ``numpy.polyfit``) pin the formulas on noisy data; coverage
experiments over hundreds of independent synthetic data sets check that the nominal 95 %
intervals cover the known truth at about the nominal rate. Every random input is generated from
a fixed seed, so each test is deterministic.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, is_dataclass
from typing import Any

import numpy as np
import pytest
from scipy import stats as sps

from fedtheory import stats
from fedtheory.errors import ParameterError
from fedtheory.stats import (
    BootstrapCI,
    CrossingEstimate,
    FloorFit,
    FloorFitCI,
    MeanCI,
    PowerLawFit,
    SlopeCI,
    bonferroni,
    bootstrap_ci,
    bootstrap_means,
    find_crossing,
    fit_power_law,
    fit_power_law_with_floor,
    floor_fit_ci,
    mean_ci,
    slope_ci,
)

EXACT = 1e-12


def _spawn(seed: int, n: int) -> list[tuple[np.random.Generator, np.random.SeedSequence]]:
    """n independent data sets: a generator for the data and a seed for the bootstrap of each
    (stats refuses generators as seeds, so the bootstrap draws its own stream)."""
    children = np.random.SeedSequence(seed).spawn(n)
    return [(np.random.default_rng(child), child.spawn(1)[0]) for child in children]


# --------------------------------------------------------------------------------------------
# fit_power_law
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("exponent", [-2.0, -1.0, -0.5, -1 / 3, 0.37, 1.0, 2.5])
@pytest.mark.parametrize("prefactor", [2.0, 0.013, 7.5e3])
def test_fit_power_law_exact(exponent: float, prefactor: float) -> None:
    x = np.logspace(-1, 4, 9)
    fit = fit_power_law(x, prefactor * x**exponent)
    assert fit.exponent == pytest.approx(exponent, rel=EXACT, abs=EXACT)
    assert fit.prefactor == pytest.approx(prefactor, rel=EXACT)
    assert fit.r_squared == pytest.approx(1.0, abs=EXACT)
    assert fit.residual_std < EXACT
    assert fit.n_points == 9


def test_fit_power_law_constant_is_exponent_zero() -> None:
    fit = fit_power_law([1.0, 2.0, 5.0], [4.0, 4.0, 4.0])
    assert fit.exponent == 0.0
    assert fit.prefactor == pytest.approx(4.0, rel=EXACT)
    assert fit.r_squared == 1.0


def test_fit_power_law_two_points_has_no_residual_dof() -> None:
    fit = fit_power_law([2.0, 8.0], [1.0, 0.25])
    assert fit.exponent == pytest.approx(-1.0, rel=EXACT)
    assert fit.prefactor == pytest.approx(2.0, rel=EXACT)
    assert math.isnan(fit.residual_std)


def test_fit_power_law_matches_linregress_on_noisy_data() -> None:
    rng = np.random.default_rng(11)
    x = np.logspace(0, 3, 15)
    y = 5.0 * x**-0.8 * rng.lognormal(0.0, 0.3, x.size)
    fit = fit_power_law(x, y)
    ref = sps.linregress(np.log(x), np.log(y))
    assert fit.exponent == pytest.approx(ref.slope, rel=EXACT)
    assert fit.prefactor == pytest.approx(math.exp(ref.intercept), rel=EXACT)
    assert fit.r_squared == pytest.approx(ref.rvalue**2, rel=EXACT)
    resid = np.log(y) - ref.intercept - ref.slope * np.log(x)
    assert fit.residual_std == pytest.approx(math.sqrt(resid @ resid / (x.size - 2)), rel=1e-10)


@pytest.mark.parametrize("seed", range(5))
def test_fit_power_law_noise_within_derived_tolerance(seed: int) -> None:
    # log y = log c + k log x + ε, ε ~ N(0, σ²): the OLS slope has standard error
    # σ / sqrt(Sxx) and the intercept σ·sqrt(1/n + ū²/Sxx); allow 4 standard errors.
    rng = np.random.default_rng(seed)
    sigma, c, k = 0.2, 3.0, -1.5
    x = np.logspace(0, 4, 20)
    y = c * x**k * np.exp(sigma * rng.standard_normal(x.size))
    fit = fit_power_law(x, y)
    u = np.log(x)
    sxx = float(((u - u.mean()) ** 2).sum())
    se_slope = sigma / math.sqrt(sxx)
    se_intercept = sigma * math.sqrt(1 / x.size + u.mean() ** 2 / sxx)
    assert abs(fit.exponent - k) <= 4 * se_slope
    assert abs(math.log(fit.prefactor) - math.log(c)) <= 4 * se_intercept
    assert fit.residual_std == pytest.approx(sigma, rel=0.5)


def test_fit_power_law_zero_weight_ignores_outlier() -> None:
    x = np.logspace(0, 2, 6)
    y = 4.0 * x**-0.5
    y[3] *= 100.0  # corrupted point
    weights = np.ones(x.size)
    weights[3] = 0.0
    fit = fit_power_law(x, y, weights=weights)
    assert fit.exponent == pytest.approx(-0.5, rel=EXACT)
    assert fit.prefactor == pytest.approx(4.0, rel=EXACT)
    assert fit_power_law(x, y).exponent > -0.45  # unweighted fit is pulled by the outlier


def test_fit_power_law_weights_match_polyfit() -> None:
    rng = np.random.default_rng(5)
    x = np.logspace(0, 3, 10)
    y = 2.0 * x**0.7 * rng.lognormal(0.0, 0.4, x.size)
    weights = rng.uniform(0.1, 5.0, x.size)
    fit = fit_power_law(x, y, weights=weights)
    # polyfit's w multiplies the residuals, i.e. w = sqrt(weights of the squared residuals)
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1, w=np.sqrt(weights))
    assert fit.exponent == pytest.approx(slope, rel=1e-10)
    assert fit.prefactor == pytest.approx(math.exp(intercept), rel=1e-10)
    assert fit.exponent != pytest.approx(fit_power_law(x, y).exponent, rel=1e-3)


@pytest.mark.parametrize(
    ("x", "y", "weights", "parameter"),
    [
        ([1.0, 0.0, 2.0], [1.0, 2.0, 3.0], None, "x[1]"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, -3.0], None, "y[2]"),
        ([1.0, 2.0, 3.0], [1.0, 2.0], None, "y"),
        ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0], None, "x"),
        ([1.0, 2.0], [math.nan, 1.0], None, "y[0]"),
        ([1.0, math.inf], [1.0, 1.0], None, "x[1]"),
        ([1.0], [1.0], None, "x"),
        ([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], None, "x"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, -1.0, 1.0], "weights[1]"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 1.0], "weights"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 0.0, 0.0], "x"),
    ],
)
def test_fit_power_law_bad_input(x: Any, y: Any, weights: Any, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        fit_power_law(x, y, weights=weights)
    assert info.value.parameter == parameter
    assert str(info.value).startswith(f"{parameter}=")


# --------------------------------------------------------------------------------------------
# bootstrap
# --------------------------------------------------------------------------------------------


def _noisy_curve(
    rng: np.random.Generator, x: np.ndarray, n: int | list[int], sigma: float = 0.5
) -> list[np.ndarray]:
    sizes = [n] * x.size if isinstance(n, int) else n
    return [2.0 / xi * rng.lognormal(0.0, sigma, m) for xi, m in zip(x, sizes, strict=True)]


def test_bootstrap_means_resample_within_points() -> None:
    samples = [np.array([1.0, 2.0]), np.array([7.0]), np.array([10.0, 20.0, 30.0])]
    means = bootstrap_means(samples, n_resamples=400, seed=3)
    assert means.shape == (400, 3)
    assert np.all(means[:, 1] == 7.0)  # one replicate: no sampling variability
    assert set(np.round(means[:, 0], 12)) == {1.0, 1.5, 2.0}
    assert np.all((means[:, 2] >= 10.0) & (means[:, 2] <= 30.0))
    # E[resampled mean] = sample mean; sd of the resampled mean of [1, 2] is 0.5/sqrt(2)
    assert means[:, 0].mean() == pytest.approx(1.5, abs=4 * 0.5 / math.sqrt(2 * 400))


def test_bootstrap_ci_equals_vectorised_slope_ci() -> None:
    rng = np.random.default_rng(21)
    x = np.logspace(0, 3, 6)
    samples = _noisy_curve(rng, x, [40, 3, 17, 1, 40, 25])
    generic = bootstrap_ci(
        samples,
        lambda s: fit_power_law(x, [a.mean() for a in s]).exponent,
        n_resamples=700,
        level=0.9,
        seed=8,
    )
    fast = slope_ci(x, samples, n_resamples=700, level=0.9, seed=8)
    assert fast.slope == pytest.approx(generic.estimate, rel=EXACT)
    assert fast.low == pytest.approx(generic.low, rel=EXACT)
    assert fast.high == pytest.approx(generic.high, rel=EXACT)
    assert fast.std == pytest.approx(generic.std, rel=1e-10)
    assert generic.n_failed == fast.n_failed == 0
    assert fast.low < fast.slope < fast.high


def test_bootstrap_ci_is_percentile_interval_of_bootstrap_means() -> None:
    samples = [np.arange(1.0, 11.0) ** 2, np.array([3.0, 4.0])]
    ci = bootstrap_ci(samples, lambda s: s[0].mean(), n_resamples=999, level=0.8, seed=4)
    means = bootstrap_means(samples, n_resamples=999, seed=4)[:, 0]
    assert ci.estimate == pytest.approx(38.5, rel=EXACT)
    assert ci.low == pytest.approx(np.quantile(means, 0.1), rel=EXACT)
    assert ci.high == pytest.approx(np.quantile(means, 0.9), rel=EXACT)
    assert ci.std == pytest.approx(np.std(means, ddof=1), rel=1e-10)


def test_bootstrap_is_deterministic_and_seed_dependent() -> None:
    rng = np.random.default_rng(2)
    x = np.logspace(0, 2, 5)
    samples = _noisy_curve(rng, x, 20)
    first = slope_ci(x, samples, n_resamples=300, seed=17)
    assert slope_ci(x, samples, n_resamples=300, seed=17) == first
    other = slope_ci(x, samples, n_resamples=300, seed=18)
    assert (other.low, other.high) != (first.low, first.high)
    assert other.slope == first.slope
    # int, numpy int and SeedSequence seeds are the same stream
    by_sequence = slope_ci(x, samples, n_resamples=300, seed=np.random.SeedSequence(17))
    by_numpy_int = slope_ci(x, samples, n_resamples=300, seed=np.int64(17))
    assert by_sequence == first == by_numpy_int


def test_int_seed_draws_are_those_of_default_rng() -> None:
    """Seed s resamples with numpy.random.default_rng(s): grid points in order, each drawing
    (B, n_p) indices; a point with one replicate draws nothing."""
    samples = [np.array([1.0, 2.0, 4.0]), np.array([7.0]), np.array([10.0, 20.0, 30.0, 50.0])]
    rng = np.random.default_rng(17)
    expected = np.column_stack(
        [
            s[rng.integers(0, s.size, size=(50, s.size))].mean(axis=1)
            if s.size > 1
            else np.full(50, s[0])
            for s in samples
        ]
    )
    np.testing.assert_array_equal(bootstrap_means(samples, n_resamples=50, seed=17), expected)


@pytest.mark.parametrize(
    "draw",
    [
        lambda s, seed: bootstrap_means(s, n_resamples=20, seed=seed),
        lambda s, seed: bootstrap_ci(s, lambda r: r[0].mean(), n_resamples=20, seed=seed),
        lambda s, seed: slope_ci([1.0, 2.0, 4.0], s, n_resamples=20, seed=seed),
        lambda s, seed: floor_fit_ci([1.0, 2.0, 4.0], s, n_resamples=4, seed=seed),
        lambda s, seed: find_crossing([1.0, 2.0, 4.0], s, s[::-1], n_resamples=20, seed=seed),
        lambda s, seed: stats.crossing_draws(
            [1.0, 2.0, 4.0], s, s[::-1], n_resamples=20, seed=seed
        ),
    ],
    ids=["bootstrap_means", "bootstrap_ci", "slope_ci", "floor_fit_ci", "find_crossing", "draws"],
)
def test_a_generator_is_refused_as_seed(draw: Any) -> None:
    """The seed is the package's Seed: the same seed must give the same bits, which a generator
    (whose draws depend on its history) cannot promise. Nothing is drawn from it."""
    samples = [np.array([3.0, 3.5]), np.array([2.0, 2.2]), np.array([1.0, 1.1])]
    rng = np.random.default_rng(17)
    state = rng.bit_generator.state
    with pytest.raises(ParameterError) as info:
        draw(samples, rng)
    assert info.value.parameter == "seed"
    assert "Generator" in str(info.value)
    assert rng.bit_generator.state == state
    by_int, by_sequence = draw(samples, 17), draw(samples, np.random.SeedSequence(17))
    plain = [asdict(r) if is_dataclass(r) else r for r in (by_int, by_sequence)]
    np.testing.assert_equal(*plain)


def test_public_names_live_in_the_family_modules_and_seed_is_the_package_type() -> None:
    """(The names themselves are pinned by tests/test_public_api.py.)"""
    assert all(
        getattr(stats, name).__module__.startswith("fedtheory.stats.") for name in stats.__all__
    )
    assert not hasattr(stats, "Seed")


def test_deterministic_points_give_degenerate_slope_interval() -> None:
    x = np.array([1.0, 3.0, 9.0, 27.0])
    samples = [np.array([5.0 * xi**-2]) for xi in x]
    ci = slope_ci(x, samples, n_resamples=50)
    assert ci.slope == pytest.approx(-2.0, rel=EXACT)
    assert ci.low == ci.high == pytest.approx(-2.0, rel=EXACT)
    assert ci.prefactor == pytest.approx(5.0, rel=EXACT)
    assert ci.std == pytest.approx(0.0, abs=EXACT)


def test_slope_ci_linear() -> None:
    x = np.array([0.0, 1.0, 2.0, 3.0])
    samples = [np.array([1.0 + 2.0 * xi - 0.5, 1.0 + 2.0 * xi + 0.5]) for xi in x]
    ci = slope_ci(x, samples, n_resamples=400, log=False, seed=1)
    assert ci.slope == pytest.approx(2.0, rel=EXACT)
    assert ci.prefactor == pytest.approx(1.0, rel=EXACT)  # the intercept when log=False
    assert ci.low < 2.0 < ci.high
    assert not ci.log


def test_bootstrap_ci_counts_failed_resamples() -> None:
    samples = [np.array([-3.0, 1.0, 2.0, 4.0])]

    def log_mean(s: list[np.ndarray]) -> float:
        return fit_power_law([1.0, 2.0], [s[0].mean(), s[0].mean()]).prefactor

    ci = bootstrap_ci(samples, log_mean, n_resamples=1000, seed=6)
    means = bootstrap_means(samples, n_resamples=1000, seed=6)[:, 0]
    assert ci.n_failed == int(np.count_nonzero(means <= 0)) > 0
    assert ci.low == pytest.approx(np.quantile(means[means > 0], 0.025), rel=EXACT)


def test_bootstrap_ci_raises_when_most_resamples_fail() -> None:
    def fragile(s: list[np.ndarray]) -> float:
        return math.nan if s[0].mean() >= 0.5 else 0.0

    # P(resampled mean of [0, 1, 0, 0] >= 1/2) = 1 − (3/4)^4 − 4 (1/4)(3/4)^3 ≈ 0.26
    samples = [np.array([0.0, 1.0, 0.0, 0.0])]
    ci = bootstrap_ci(samples, fragile, n_resamples=400, seed=2)
    means = bootstrap_means(samples, n_resamples=400, seed=2)[:, 0]
    assert ci.n_failed == int(np.count_nonzero(means >= 0.5))
    assert 0.15 < ci.n_failed / 400 < 0.4

    def only_original(s: list[np.ndarray]) -> float:
        if abs(s[0].mean() - 4.5) > 1e-9:
            raise ParameterError(parameter="s", value=s[0].mean(), rule="must be 4.5")
        return 1.0

    with pytest.raises(ParameterError, match="statistic") as info:
        bootstrap_ci([np.arange(10.0)], only_original, n_resamples=200)
    assert info.value.parameter == "statistic"
    with pytest.raises(ParameterError, match="statistic"):
        bootstrap_ci([np.array([1.0, 2.0])], lambda s: math.nan)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"level": 1.0}, "level"),
        ({"level": 0.0}, "level"),
        ({"level": math.nan}, "level"),
        ({"n_resamples": 1}, "n_resamples"),
        ({"n_resamples": 10.5}, "n_resamples"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
    ],
)
def test_bootstrap_bad_options(kwargs: dict[str, Any], parameter: str) -> None:
    samples = [np.array([1.0, 2.0]), np.array([3.0, 1.0])]
    with pytest.raises(ParameterError) as info:
        slope_ci([1.0, 2.0], samples, **kwargs)
    assert info.value.parameter == parameter
    with pytest.raises(ParameterError) as info:
        bootstrap_ci(samples, lambda s: s[0].mean(), **kwargs)
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    ("x", "samples", "parameter"),
    [
        ([1.0, 2.0], [[1.0]], "samples"),
        ([1.0, 2.0], [[1.0], []], "samples[1]"),
        ([1.0, 2.0], [[1.0], [2.0, math.inf]], "samples[1][1]"),
        ([1.0, 2.0], [[1.0], [-2.0, 1.0]], "samples[1]"),
        ([1.0, 1.0], [[1.0], [2.0]], "x"),
        ([0.0, 1.0], [[1.0], [2.0]], "x[0]"),
    ],
)
def test_slope_ci_bad_input(x: Any, samples: Any, parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        slope_ci(x, samples)
    assert info.value.parameter == parameter


def test_slope_ci_coverage() -> None:
    # y = 2 x^-1 · L, L lognormal: the population means are 2 E[L] x^-1, true log-log slope -1.
    x = np.logspace(0, 3, 6)
    n_sets = 300
    covered = 0
    for rng, seed in _spawn(2024, n_sets):
        ci = slope_ci(x, _noisy_curve(rng, x, 40), n_resamples=1000, seed=seed)
        covered += ci.low <= -1.0 <= ci.high
    assert 0.90 <= covered / n_sets <= 0.985


# --------------------------------------------------------------------------------------------
# mean_ci, bonferroni
# --------------------------------------------------------------------------------------------


def test_mean_ci_matches_scipy_t_interval() -> None:
    values = np.array([2.1, 3.4, 1.9, 5.0, 4.2, 3.3])
    ci = mean_ci(values, level=0.9)
    low, high = sps.t.interval(0.9, values.size - 1, loc=values.mean(), scale=sps.sem(values))
    assert (ci.low, ci.high) == pytest.approx((low, high), rel=EXACT)
    assert ci.mean == pytest.approx(values.mean(), rel=EXACT)
    assert ci.std_error == pytest.approx(sps.sem(values), rel=EXACT)
    assert ci.n == 6
    assert not ci.degenerate


def test_mean_ci_degenerate() -> None:
    single = mean_ci([0.37])
    assert single == MeanCI(0.37, 0.37, 0.37, 0.95, 0.0, 1, degenerate=True)
    identical = mean_ci([0.1] * 10)
    assert identical.degenerate
    assert identical.low == identical.high == identical.mean == 0.1


def test_mean_ci_coverage() -> None:
    rng = np.random.default_rng(99)
    n_sets = 2000
    data = rng.normal(1.5, 2.0, size=(n_sets, 10))
    covered = sum(ci.low <= 1.5 <= ci.high for ci in (mean_ci(row) for row in data))
    assert 0.92 <= covered / n_sets <= 0.975


@pytest.mark.parametrize(("values", "level"), [([], 0.95), ([1.0, math.nan], 0.95), ([1.0], 1.2)])
def test_mean_ci_bad_input(values: list[float], level: float) -> None:
    with pytest.raises(ParameterError):
        mean_ci(values, level=level)


def test_bonferroni() -> None:
    assert bonferroni(0.95, 1) == pytest.approx(0.95, rel=EXACT)
    assert bonferroni(0.95, 5) == pytest.approx(0.99, rel=EXACT)
    assert bonferroni(0.9, 4) == pytest.approx(0.975, rel=EXACT)
    assert bonferroni(0.99, 100) == pytest.approx(0.9999, rel=EXACT)
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ParameterError, match="m="):
            bonferroni(0.95, bad)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="level="):
        bonferroni(1.0, 3)


# --------------------------------------------------------------------------------------------
# find_crossing
# --------------------------------------------------------------------------------------------


def _deterministic(values: np.ndarray) -> list[np.ndarray]:
    return [np.array([v]) for v in values]


def test_crossing_of_lines_in_log_x_is_exact() -> None:
    # a = 1 + 0.5 log10 x and b = 2 − 0.25 log10 x cross at log10 x = 4/3
    x = np.logspace(0, 3, 7)
    a = 1 + 0.5 * np.log10(x)
    b = 2 - 0.25 * np.log10(x)
    est = find_crossing(x, _deterministic(a), _deterministic(b), n_resamples=20)
    assert est.found
    assert est.x == pytest.approx(10 ** (4 / 3), rel=EXACT)
    assert est.low == pytest.approx(est.x, rel=EXACT)
    assert est.high == pytest.approx(est.x, rel=EXACT)
    assert est.direction == "a-above-b-after"
    assert est.n_crossings == 1
    assert est.fraction_without_crossing == 0.0
    assert not est.ci_open
    swapped = find_crossing(x, _deterministic(b), _deterministic(a), n_resamples=20)
    assert swapped.direction == "a-below-b-after"
    assert swapped.x == pytest.approx(est.x, rel=EXACT)


def test_crossing_of_lines_in_x_is_exact() -> None:
    x = np.array([0.0, 1.0, 2.5, 4.0])
    a = 3.0 - 1.2 * x
    b = 0.5 + 0.3 * x  # equal at x = 2.5/1.5
    est = find_crossing(x, _deterministic(a), _deterministic(b), log_x=False, n_resamples=20)
    assert est.x == pytest.approx(2.5 / 1.5, rel=EXACT)
    assert est.direction == "a-below-b-after"
    # in log x the same data give a different (interpolated) point
    est_log = find_crossing(x[1:], _deterministic(a[1:]), _deterministic(b[1:]), n_resamples=20)
    assert est_log.x != pytest.approx(2.5 / 1.5, rel=1e-3)
    assert 1.0 < est_log.x < 2.5


def test_crossing_at_grid_point_and_touch() -> None:
    x = np.array([1.0, 2.0, 4.0, 8.0])
    b = _deterministic(np.full(4, 2.0))
    through = find_crossing(x, _deterministic(np.array([1.0, 2.0, 2.0, 3.0])), b, n_resamples=20)
    assert through.x == 2.0  # first zero of a sign change through zeros
    assert through.direction == "a-above-b-after"
    assert through.n_crossings == 1
    touch = find_crossing(x, _deterministic(np.array([1.0, 2.0, 1.0, 1.5])), b, n_resamples=20)
    assert not touch.found
    assert touch.n_crossings == 0


def test_no_crossing() -> None:
    rng = np.random.default_rng(3)
    x = np.logspace(0, 2, 5)
    a = [5.0 + rng.normal(0, 0.1, 10) for _ in x]
    b = [1.0 + rng.normal(0, 0.1, 10) for _ in x]
    est = find_crossing(x, a, b, n_resamples=200)
    assert not est.found
    assert math.isnan(est.x)
    assert est.direction == ""
    assert est.n_crossings == 0
    assert est.fraction_without_crossing == 1.0
    assert est.ci_open
    assert math.isnan(est.low)
    assert math.isnan(est.high)


def test_multiple_crossings_report_the_first() -> None:
    x = np.logspace(0, 4, 5)
    est = find_crossing(
        x,
        _deterministic(np.array([1.0, 3.0, 1.0, 3.0, 1.0])),
        _deterministic(np.full(5, 2.0)),
        n_resamples=20,
    )
    assert est.n_crossings == 4
    assert est.x == pytest.approx(math.sqrt(10.0), rel=EXACT)  # halfway between 1 and 10 in log
    assert est.direction == "a-above-b-after"


def test_noisy_crossing_ci_covers_truth() -> None:
    x = np.logspace(0, 3, 7)
    truth = 10 ** (4 / 3)
    n_sets, covered = 150, 0
    for rng, seed in _spawn(77, n_sets):
        a = [1 + 0.5 * lx + rng.normal(0.0, 0.3, 30) for lx in np.log10(x)]
        b = [2 - 0.25 * lx + rng.normal(0.0, 0.3, 30) for lx in np.log10(x)]
        est = find_crossing(x, a, b, n_resamples=500, seed=seed)
        assert est.found
        assert est.direction == "a-above-b-after"
        assert est.low < est.x < est.high
        covered += est.low <= truth <= est.high
    assert 0.88 <= covered / n_sets <= 0.99


def test_crossing_ci_open_when_data_cannot_locate_it() -> None:
    # a − b is ≈ 1 except at the last point, where both curves share the same replicates:
    # d = 0 exactly there (no crossing in the point estimate), but about half of the resamples
    # cross between the last two points.
    rng = np.random.default_rng(12)
    x = np.arange(1.0, 7.0)
    shared = rng.normal(0.0, 0.3, 25)
    a = [1.0 + rng.normal(0.0, 0.1, 25) for _ in range(5)] + [shared]
    b = [rng.normal(0.0, 0.1, 25) for _ in range(5)] + [shared.copy()]
    est = find_crossing(x, a, b, n_resamples=400, seed=5)
    assert not est.found
    assert 0.3 < est.fraction_without_crossing < 0.7
    assert est.ci_open
    assert math.isnan(est.low)
    assert math.isnan(est.high)
    # at level 0.2 the same resamples locate it: a crossing between x = 5 and x = 6
    loose = find_crossing(x, a, b, n_resamples=400, seed=5, level=0.2)
    assert not loose.ci_open
    assert 5.0 < loose.low <= loose.high < 6.0


@pytest.mark.parametrize(
    ("x", "log_x", "parameter"),
    [
        ([1.0, 3.0, 2.0], True, "x[2]"),
        ([1.0, 1.0, 2.0], True, "x[1]"),
        ([0.0, 1.0, 2.0], True, "x[0]"),
        ([1.0, 2.0], True, "a_samples"),
    ],
)
def test_find_crossing_bad_input(x: list[float], log_x: bool, parameter: str) -> None:
    samples = [[1.0], [2.0], [3.0]]
    with pytest.raises(ParameterError) as info:
        find_crossing(x, samples, samples, log_x=log_x)
    assert info.value.parameter == parameter


def test_find_crossing_accepts_zero_in_linear_x() -> None:
    est = find_crossing([0.0, 1.0], [[1.0], [0.0]], [[0.0], [1.0]], log_x=False, n_resamples=4)
    assert est.x == pytest.approx(0.5, rel=EXACT)


# --------------------------------------------------------------------------------------------
# floor + power law
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("floor", "coefficient", "exponent"),
    [
        (0.01, 3.0, -1.0),
        (0.05, 2.0, -0.7),
        (1e-4, 1.0, -2.0),
        (0.2, 5.0, -3.5),
        (0.02, 1.7, -2 / 3),
        (1.0, 0.5, 0.5),  # growth
        (-2.0, 3.0, 0.3),  # growth from a negative constant
        (0.3, 1e-3, 2.5),
    ],
)
def test_floor_fit_exact(floor: float, coefficient: float, exponent: float) -> None:
    x = np.logspace(0, 4, 12)
    fit = fit_power_law_with_floor(x, floor + coefficient * x**exponent)
    assert fit.floor == pytest.approx(floor, rel=1e-6)
    assert fit.coefficient == pytest.approx(coefficient, rel=1e-6)
    assert fit.exponent == pytest.approx(exponent, rel=1e-6)
    assert fit.rss < 1e-20
    assert not fit.at_bound
    assert fit.n_points == 12
    assert fit.predict(x) == pytest.approx(floor + coefficient * x**exponent, rel=1e-9)


def test_floor_fit_without_floor_and_with_absolute_weights() -> None:
    x = np.logspace(0, 3, 8)
    fit = fit_power_law_with_floor(x, 4.0 * x**-1.5)
    assert fit.floor == pytest.approx(0.0, abs=1e-12)
    assert fit.exponent == pytest.approx(-1.5, rel=1e-6)
    absolute = fit_power_law_with_floor(x, 1.0 + 2.0 * x**-0.5, weights=np.ones(x.size))
    assert (absolute.floor, absolute.coefficient, absolute.exponent) == pytest.approx(
        (1.0, 2.0, -0.5), rel=1e-6
    )


def test_floor_fit_flags_exponent_at_search_bound() -> None:
    x = np.logspace(0, 4, 12)
    fit = fit_power_law_with_floor(x, 1.0 + x**-7.0)
    assert fit.at_bound
    assert fit.exponent == pytest.approx(-5.0, abs=1e-6)
    wide = fit_power_law_with_floor(x, 1.0 + x**-7.0, k_bounds=(-10.0, 2.0))
    assert not wide.at_bound
    assert wide.exponent == pytest.approx(-7.0, rel=1e-6)


@pytest.mark.parametrize(
    ("x", "y", "kwargs", "parameter"),
    [
        ([1.0, 2.0, 3.0], [1.0, 0.0, 2.0], {}, "y[1]"),
        ([1.0, -2.0, 3.0], [1.0, 1.0, 2.0], {}, "x[1]"),
        ([1.0, 2.0, 2.0], [1.0, 1.5, 2.0], {}, "x"),
        ([1.0, 2.0], [1.0, 1.5], {}, "x"),
        ([1.0, 2.0, 3.0], [1.0, 2.0], {}, "y"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], {"k_bounds": (1.0, -1.0)}, "k_bounds"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], {"k_bounds": (-0.1, 0.1), "k_gap": 0.5}, "k_bounds"),
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], {"k_gap": -1.0}, "k_gap"),
    ],
)
def test_floor_fit_bad_input(x: Any, y: Any, kwargs: dict[str, Any], parameter: str) -> None:
    with pytest.raises(ParameterError) as info:
        fit_power_law_with_floor(x, y, **kwargs)
    assert info.value.parameter == parameter


def test_floor_fit_with_negative_y_needs_weights() -> None:
    x = np.logspace(0, 2, 6)
    y = -1.0 + 3.0 * x**-0.5
    fit = fit_power_law_with_floor(x, y, weights=np.ones(x.size))
    assert (fit.floor, fit.coefficient, fit.exponent) == pytest.approx((-1.0, 3.0, -0.5), rel=1e-6)


def test_floor_fit_ci_covers_truth_on_noisy_data() -> None:
    floor, coefficient, exponent = 0.05, 2.0, -0.7
    rng = np.random.default_rng(3)
    x = np.logspace(0, 4, 10)
    sigma = 0.1  # mean-one lognormal noise: the population means are the exact curve
    samples = [
        (floor + coefficient * xi**exponent) * np.exp(sigma * rng.normal(size=30) - sigma**2 / 2)
        for xi in x
    ]
    ci = floor_fit_ci(x, samples, n_resamples=200, seed=1)
    assert ci.exponent_low < exponent < ci.exponent_high
    assert ci.floor_low < floor < ci.floor_high
    assert ci.exponent_low < ci.fit.exponent < ci.exponent_high
    assert ci.exponent_high - ci.exponent_low < 0.1  # informative, not vacuous
    assert ci.n_failed == 0
    assert floor_fit_ci(x, samples, n_resamples=200, seed=1) == ci


# --------------------------------------------------------------------------------------------
# result objects
# --------------------------------------------------------------------------------------------


def test_results_are_json_able_with_one_line_str() -> None:
    x = np.logspace(0, 2, 4)
    samples = [np.array([1.0, 1.2]) / xi for xi in x]
    results: list[Any] = [
        fit_power_law(x, [s.mean() for s in samples]),
        bootstrap_ci(samples, lambda s: s[0].mean(), n_resamples=20),
        slope_ci(x, samples, n_resamples=20),
        mean_ci([1.0, 2.0]),
        find_crossing(x, samples, samples[::-1], n_resamples=20),
        fit_power_law_with_floor(x, 0.1 + 1 / x),
        floor_fit_ci(x, samples, n_resamples=4),
    ]
    types = (PowerLawFit, BootstrapCI, SlopeCI, MeanCI, CrossingEstimate, FloorFit, FloorFitCI)
    assert [type(result) for result in results] == list(types)
    for result in results:
        text = str(result)
        assert text and "\n" not in text
        fields = asdict(result)
        nested = fields.pop("fit", {})
        for value in [*fields.values(), *nested.values()]:
            assert type(value) in (float, int, bool, str)  # plain Python scalars, no numpy
        encoded = json.loads(json.dumps(asdict(result)))
        assert set(encoded) == set(asdict(result))
        with pytest.raises(AttributeError):
            result.level = 0.5


def test_crossing_draws_are_the_resamples_behind_find_crossing() -> None:
    rng = np.random.default_rng(5)
    x = np.logspace(0, 2, 7)
    a = [3.0 - np.log(xi) + 0.3 * rng.standard_normal(30) for xi in x]
    b = [np.full(30, 1.0) + 0.3 * rng.standard_normal(30) for _ in x]
    est = stats.find_crossing(x, a, b, n_resamples=500, level=0.9, seed=11)
    draws = stats.crossing_draws(x, a, b, n_resamples=500, seed=11)
    assert draws.shape == (500,) and np.isfinite(draws).all()
    low, high = np.exp(np.quantile(np.log(draws), [0.05, 0.95]))
    assert (low, high) == pytest.approx((est.low, est.high), rel=1e-12)
    assert not np.array_equal(draws, stats.crossing_draws(x, a, b, n_resamples=500, seed=12))
