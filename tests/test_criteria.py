"""Tests of the pass criteria (``fedtheory.verify.criteria``) on synthetic data of known truth.

Every test builds :class:`Measurements` directly (no experiment runs) and checks the outcome and
the numbers behind it against values computed independently here. Noise is *standardised*
(sample mean exactly 0, sample standard deviation exactly 1), so a Student-t interval of a noisy
point is known in closed form and a decision can be put at a crafted distance from its
threshold.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats

from fedtheory import bounds
from fedtheory.errors import ConditionError, ParameterError
from fedtheory.verify import report
from fedtheory.verify.criteria import (
    MIN_BOOTSTRAP_REPLICATES,
    Crossing,
    Identity,
    LowerBoundHolds,
    Monotone,
    RateExponent,
    UpperBoundHolds,
)
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.sweep import Sweep
from fedtheory.verify.verdict import (
    ERROR,
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    combine_outcomes,
)

CLAIM = "classic/test/synthetic"
SGD_DISTANCE = bounds.get("classic.sgd.strongly-convex.distance")  # 4 G2 / (mu^2 T)
SGD_GAP = bounds.get("classic.sgd.strongly-convex.gap")  # 2 L G2 / (mu^2 T), needs mu <= L


def seeds_of(point_index: int, n: int) -> np.ndarray:
    """Seeds that identify a point and a replicate (checked in counterexamples)."""
    return 1000 + 100 * point_index + np.arange(n)


def make_measurements(
    claim_id: str,
    varied: Sequence[str],
    rows: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
) -> Measurements:
    """Measurements from ``(params, {output: values})`` rows, in the given (sweep) order."""
    points = []
    for i, (params, values) in enumerate(rows):
        arrays = {k: np.atleast_1d(np.asarray(v, dtype=float)) for k, v in values.items()}
        sizes = {a.size for a in arrays.values()}
        assert len(sizes) == 1, "every output needs one value per replicate"
        n = sizes.pop()
        points.append(
            PointMeasurements(
                params=dict(params),
                replicates=np.arange(n),
                seeds=seeds_of(i, n),
                values=arrays,
            )
        )
    return Measurements(claim_id, tuple(varied), tuple(points))


def standardized(n: int, seed: int) -> np.ndarray:
    """n normal draws shifted and scaled to sample mean 0 and sample std (ddof=1) 1."""
    z = np.random.default_rng(seed).standard_normal(n)
    z = z - z.mean()
    return z / z.std(ddof=1)


def t_quantile(level: float, n: int) -> float:
    """Two-sided Student-t quantile of a mean of n values at ``level`` (computed with scipy)."""
    return float(scipy_stats.t.ppf(1 - (1 - level) / 2, n - 1))


def strict_json(verdict: Verdict) -> str:
    return json.dumps(verdict.to_dict(), allow_nan=False)


# ============================================================================ UpperBoundHolds


T_GRID = (10, 100, 1000)


def upper_every_data(measured: Sequence[Sequence[float]], bound: Sequence[float]) -> Measurements:
    return make_measurements(
        CLAIM,
        ["T"],
        [
            ({"d": 3, "T": t}, {"y": m, "bound": [b] * len(m)})
            for t, m, b in zip(T_GRID, measured, bound, strict=True)
        ],
    )


def test_upper_every_deterministic_below_holds_with_exact_ratios():
    bound = [5.0 / t for t in T_GRID]
    measured = [[0.5 * bound[0]], [0.25 * bound[1]], [0.8 * bound[2]]]
    verdict = UpperBoundHolds("y", "bound", over="every").judge(upper_every_data(measured, bound))
    assert verdict.outcome == HOLDS
    ratios = [b / m[0] for b, m in zip(bound, measured, strict=True)]
    assert verdict.numbers["min_ratio"] == min(ratios)
    assert verdict.numbers["max_ratio"] == max(ratios)
    assert verdict.numbers["median_ratio"] == sorted(ratios)[1]
    assert verdict.numbers["min_ratio"] == pytest.approx(1.25, rel=1e-14)
    assert verdict.numbers["max_ratio"] == pytest.approx(4.0, rel=1e-14)
    assert verdict.numbers["points"] == 3
    assert verdict.numbers["violated_points"] == 0
    assert verdict.counterexample is None
    assert [row["outcome"] for row in verdict.table] == [HOLDS] * 3
    assert [row["T"] for row in verdict.table] == list(T_GRID)
    assert [row["ratio"] for row in verdict.table] == ratios
    assert "all 3 points" in verdict.reason
    strict_json(verdict)


def test_upper_every_one_replicate_above_is_a_counterexample():
    bound = [1.0, 1.0, 1.0]
    measured = [[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 1.25, 0.7], [0.9, 0.99, 1.0, 0.2]]
    data = upper_every_data(measured, bound)
    verdict = UpperBoundHolds("y", "bound", over="every").judge(data)
    assert verdict.outcome == VIOLATED
    assert verdict.numbers["violated_points"] == 1
    assert [row["outcome"] for row in verdict.table] == [HOLDS, VIOLATED, HOLDS]
    cx = verdict.counterexample
    assert cx == {
        "claim": CLAIM,
        "params": {"d": 3, "T": 100},
        "replicate": 2,
        "seed": int(seeds_of(1, 4)[2]),
        "measured": 1.25,
        "bound": 1.0,
    }
    assert "replicate 2" in verdict.reason
    assert f"seed {seeds_of(1, 4)[2]}" in verdict.reason
    strict_json(verdict)


def test_upper_every_rtol_is_floating_point_slack_only():
    bound = 0.3
    ok = upper_every_data([[bound * (1 + 1e-12)]] * 3, [bound] * 3)
    bad = upper_every_data([[bound], [bound * (1 + 1e-6)], [bound]], [bound] * 3)
    assert UpperBoundHolds("y", "bound", over="every").judge(ok).outcome == HOLDS
    assert UpperBoundHolds("y", "bound", over="every", rtol=0.0).judge(ok).outcome == VIOLATED
    verdict = UpperBoundHolds("y", "bound", over="every").judge(bad)
    assert verdict.outcome == VIOLATED
    assert verdict.counterexample is not None
    assert verdict.counterexample["params"]["T"] == 100
    assert verdict.counterexample["measured"] == bound * (1 + 1e-6)
    # equality is not a violation, even with rtol = 0
    exact = upper_every_data([[bound]] * 3, [bound] * 3)
    assert UpperBoundHolds("y", "bound", over="every", rtol=0.0).judge(exact).outcome == HOLDS
    for rtol in (-1e-9, 1e-3, 0.5):
        with pytest.raises(ParameterError, match="rtol"):
            UpperBoundHolds("y", "bound", rtol=rtol)


def test_upper_every_bound_may_be_a_parameter():
    data = make_measurements(
        CLAIM, ["T"], [({"B": 2.0, "T": t}, {"y": [1.0, 1.5]}) for t in T_GRID]
    )
    verdict = UpperBoundHolds("y", "B", over="every").judge(data)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["min_ratio"] == verdict.numbers["max_ratio"] == 2.0 / 1.25
    low = UpperBoundHolds("y", "B", over="every").judge(
        make_measurements(CLAIM, ["T"], [({"B": 1.2, "T": t}, {"y": [1.0, 1.5]}) for t in T_GRID])
    )
    assert low.outcome == VIOLATED
    assert low.counterexample is not None
    assert low.counterexample["replicate"] == 1
    assert low.counterexample["bound"] == 1.2


def test_upper_every_unknown_name_is_refused():
    data = upper_every_data([[0.1]] * 3, [1.0] * 3)
    with pytest.raises(ParameterError, match="missing"):
        UpperBoundHolds("y", "missing", over="every").judge(data)
    with pytest.raises(ParameterError, match="output"):
        UpperBoundHolds("nope", "bound", over="every").judge(data)


def sgd_data(dist: Sequence[Sequence[float]], g2: Sequence[Sequence[float]]) -> Measurements:
    return make_measurements(
        CLAIM,
        ["T"],
        [({"T": t}, {"dist": d, "G2_est": g}) for t, d, g in zip(T_GRID, dist, g2, strict=True)],
    )


def test_upper_every_bound_object_per_replicate_with_bound_args():
    # 4 G2 / (mu^2 T) with mu = 0.5 and G2 per replicate: 16 G2_est / T
    g2 = [[1.0, 2.0], [1.0, 0.5], [3.0, 1.0]]
    bound_of = [[16 * g / t for g in row] for t, row in zip(T_GRID, g2, strict=True)]
    dist = [[0.5 * b for b in row] for row in bound_of]
    crit = UpperBoundHolds(
        "dist", SGD_DISTANCE, over="every", bound_args={"G2": "G2_est", "mu": 0.5}
    )
    verdict = crit.judge(sgd_data(dist, g2))
    assert verdict.outcome == HOLDS
    for row, bounds_row, dist_row in zip(verdict.table, bound_of, dist, strict=True):
        assert row["bound"] == pytest.approx(np.mean(bounds_row), rel=1e-12)
        assert row["ratio"] == pytest.approx(np.mean(bounds_row) / np.mean(dist_row), rel=1e-12)
    assert verdict.numbers["min_ratio"] == pytest.approx(2.0, rel=1e-12)
    assert crit.to_dict()["bound"] == SGD_DISTANCE.id
    assert crit.to_dict()["bound_args"] == {"G2": "G2_est", "mu": 0.5}

    # replicate 1 at T=100 has a small G2 estimate: its own bound 16·0.01/100 is exceeded,
    # though the bound at the mean G2 would not be
    g2[1] = [1.0, 0.01]
    dist[1] = [0.1, 0.1]
    verdict = crit.judge(sgd_data(dist, g2))
    assert verdict.outcome == VIOLATED
    cx = verdict.counterexample
    assert cx is not None
    assert (cx["params"], cx["replicate"], cx["seed"]) == ({"T": 100}, 1, int(seeds_of(1, 2)[1]))
    assert cx["measured"] == 0.1
    assert cx["bound"] == pytest.approx(16 * 0.01 / 100, rel=1e-12)


def test_bound_hypothesis_failure_propagates():
    data = make_measurements(
        CLAIM, ["T"], [({"T": t, "L": 1.0}, {"gap": [0.001], "G2": [1.0]}) for t in T_GRID]
    )
    crit = UpperBoundHolds("gap", SGD_GAP, over="every", bound_args={"mu": 2.0})
    with pytest.raises(ConditionError, match="mu"):
        crit.judge(data)
    fine = UpperBoundHolds("gap", SGD_GAP, over="every", bound_args={"mu": 0.5})
    verdict = fine.judge(data)  # 2·L·G2/(mu²T) = 8/T ≥ 0.008
    assert verdict.outcome == HOLDS
    assert verdict.numbers["min_ratio"] == pytest.approx(8.0, rel=1e-12)


def test_bound_source_validation():
    with pytest.raises(ParameterError, match="bound_args"):
        UpperBoundHolds("y", SGD_DISTANCE, bound_args={"sigma": 1.0})
    with pytest.raises(ParameterError, match="bound_args"):
        UpperBoundHolds("y", "bound", bound_args={"G2": "x"})
    with pytest.raises(ParameterError, match="bound"):
        UpperBoundHolds("y", 1.0)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="over"):
        UpperBoundHolds("y", "bound", over="max")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="level"):
        UpperBoundHolds("y", "bound", level=0.2)
    with pytest.raises(ParameterError, match="y"):
        UpperBoundHolds("", "bound")


# --------------------------------------------------------------------------- over="mean"


def mean_data(
    means: Sequence[float], n: int, sd: float, *, bound: float = 1.0, side: float = 1.0
) -> Measurements:
    """Points whose excess ``side·(y − bound)`` has exactly the given sample means and sd."""
    rows = []
    for i, m in enumerate(means):
        y = bound + side * (m + sd * standardized(n, seed=10 + i))
        rows.append(({"T": 10 * 2**i}, {"y": y, "bound": np.full(n, bound)}))
    return make_measurements(CLAIM, ["T"], rows)


def test_upper_mean_well_below_holds():
    data = mean_data([-0.5, -0.4, -0.6], n=20, sd=0.1)
    verdict = UpperBoundHolds("y", "bound").judge(data)
    assert verdict.outcome == HOLDS
    assert verdict.counterexample is None
    assert verdict.numbers["min_ratio"] == pytest.approx(1 / 0.6, rel=1e-12)
    assert verdict.numbers["max_ratio"] == pytest.approx(1 / 0.4, rel=1e-12)


def test_upper_mean_far_above_is_violated():
    n, sd = 10, 0.1
    se = sd / math.sqrt(n)
    data = mean_data([-0.5, 10 * se, -0.5], n=n, sd=sd)
    verdict = UpperBoundHolds("y", "bound").judge(data)
    assert verdict.outcome == VIOLATED
    assert verdict.numbers["violated_points"] == 1
    assert [row["outcome"] for row in verdict.table] == [HOLDS, VIOLATED, HOLDS]
    cx = verdict.counterexample
    assert cx is not None and cx["params"] == {"T": 20}
    y = data.points[1]["y"]
    assert cx["replicate"] == int(np.argmax(y))
    assert cx["measured"] == float(y.max())
    assert "1 point(s)" in verdict.reason


def test_upper_mean_slightly_above_within_noise_is_inconclusive():
    n, sd = 3, 0.2
    se = sd / math.sqrt(n)
    verdict = UpperBoundHolds("y", "bound").judge(mean_data([-0.5, se, -0.5], n=n, sd=sd))
    assert verdict.outcome == INCONCLUSIVE
    assert verdict.counterexample is None
    assert "T=20" in verdict.reason
    assert [row["outcome"] for row in verdict.table] == [HOLDS, INCONCLUSIVE, HOLDS]


@pytest.mark.parametrize(
    ("criterion", "side"), [(UpperBoundHolds, 1.0), (LowerBoundHolds, -1.0)], ids=["upper", "lower"]
)
@pytest.mark.parametrize(
    ("factor", "use_bonferroni", "expected"),
    [
        (1.02, True, VIOLATED),  # just beyond the corrected threshold
        (0.98, True, INCONCLUSIVE),  # just inside it
        (1.5, False, INCONCLUSIVE),  # beyond the uncorrected 95% interval only
    ],
)
def test_bound_mean_uses_bonferroni_level(criterion, side, factor, use_bonferroni, expected):
    n_points, n, sd, level = 5, 4, 0.1, 0.95
    per_point = 1 - (1 - level) / n_points
    t = t_quantile(per_point if use_bonferroni else level, n)
    assert t_quantile(per_point, n) / t_quantile(level, n) > 1.5  # the crafted cases differ
    borderline = factor * t * sd / math.sqrt(n)
    means = [-0.3, -0.3, borderline, -0.3, -0.3]
    verdict = criterion("y", "bound", level=level).judge(mean_data(means, n=n, sd=sd, side=side))
    assert verdict.outcome == expected
    assert verdict.table[2]["outcome"] == expected
    if expected == VIOLATED:
        assert "99.00% CI" in verdict.reason
        assert verdict.counterexample is not None
        assert verdict.counterexample["params"] == {"T": 40}


def test_bound_mean_needs_two_replicates():
    crit = UpperBoundHolds("y", "bound", x="T")
    with pytest.raises(ParameterError, match="at least 2 replicates"):
        crit.check_sweep(Sweep(grid={"T": [1, 2, 3]}, replicates=1))
    crit.check_sweep(Sweep(grid={"T": [1, 2, 3]}, replicates=2))
    UpperBoundHolds("y", "bound", over="every").check_sweep(Sweep(grid={"T": [1]}, replicates=1))
    with pytest.raises(ParameterError, match="must be varied"):
        crit.check_sweep(Sweep(grid={"n": [1, 2]}, replicates=2))


# --------------------------------------------------------------------------- LowerBoundHolds


def test_lower_every_holds_and_violated():
    bound = [0.5, 0.25, 0.125]
    above = upper_every_data([[1.0], [1.0], [0.5]], bound)
    verdict = LowerBoundHolds("y", "bound", over="every").judge(above)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["min_ratio"] == 0.25
    assert verdict.numbers["max_ratio"] == 0.5
    below = upper_every_data([[1.0, 0.6], [0.3, 0.2], [0.5, 0.5]], bound)
    verdict = LowerBoundHolds("y", "bound", over="every").judge(below)
    assert verdict.outcome == VIOLATED
    cx = verdict.counterexample
    assert cx is not None
    assert (cx["params"]["T"], cx["replicate"], cx["seed"]) == (100, 1, int(seeds_of(1, 2)[1]))
    assert (cx["measured"], cx["bound"]) == (0.2, 0.25)
    edge = upper_every_data([[b * (1 - 1e-12)] for b in bound], bound)
    assert LowerBoundHolds("y", "bound", over="every").judge(edge).outcome == HOLDS
    edge = upper_every_data([[b * (1 - 1e-6)] for b in bound], bound)
    assert LowerBoundHolds("y", "bound", over="every").judge(edge).outcome == VIOLATED


def test_lower_mean_outcomes():
    n, sd = 10, 0.1
    se = sd / math.sqrt(n)
    crit = LowerBoundHolds("y", "bound")
    assert crit.judge(mean_data([-0.5] * 3, n=n, sd=sd, side=-1)).outcome == HOLDS
    far = crit.judge(mean_data([-0.5, 10 * se, -0.5], n=n, sd=sd, side=-1))
    assert far.outcome == VIOLATED
    assert far.counterexample is not None and far.counterexample["params"] == {"T": 20}
    assert far.counterexample["measured"] == float(far_min(n, sd, se))
    near = crit.judge(mean_data([-0.5, 0.5 * se, -0.5], n=3, sd=sd, side=-1))
    assert near.outcome == INCONCLUSIVE
    assert crit.describe() == "y ≥ bound (mean (95% CI))"


def far_min(n: int, sd: float, se: float) -> float:
    """The smallest replicate of point 1 of the 'far below' lower-bound data (the worst one)."""
    return float((1.0 - (10 * se + sd * standardized(n, seed=11))).min())


# --------------------------------------------------------------------------- resolving power


def test_upper_every_resolving_power_is_the_tightest_replicate():
    # bound 1 everywhere; per-replicate slack 1/y: 10⁴, 5·10³, 8·10³, 3200, 10⁴, 2·10⁴
    measured = [[1e-4, 2e-4], [1.25e-4, 1 / 3200], [1e-4, 5e-5]]
    verdict = UpperBoundHolds("y", "bound", over="every").judge(
        upper_every_data(measured, [1.0] * 3)
    )
    assert verdict.outcome == HOLDS
    assert verdict.numbers["resolving_power"] == pytest.approx(3200 * (1 + 1e-9), rel=1e-14)
    # per point: the tightest replicate there, not the ratio of the means
    assert [row["resolving_power"] for row in verdict.table] == pytest.approx(
        [5000, 3200, 10000], rel=1e-8
    )
    assert verdict.table[1]["ratio"] == pytest.approx(1 / np.mean(measured[1]), rel=1e-14)
    assert verdict.numbers["min_ratio"] > verdict.numbers["resolving_power"]
    assert json.loads(strict_json(verdict))["numbers"]["resolving_power"] == pytest.approx(3200)
    assert report.resolving_power_note(verdict) == (
        "cannot see constant errors below ×3.2·10³ (slack at the tightest point)"
    )


def test_lower_and_mean_resolving_power_use_the_decision_statistic():
    # LowerBoundHolds, every replicate: the smallest y/bound
    bound = [0.5, 0.25, 0.125]
    above = upper_every_data([[1.0, 2.0], [1.0, 0.5], [0.5, 4.0]], bound)
    verdict = LowerBoundHolds("y", "bound", over="every").judge(above)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["resolving_power"] == pytest.approx(2.0 / (1 - 1e-9), rel=1e-14)
    assert report.resolving_power_note(verdict) is None  # below 10²: no warning
    # over="mean": the smallest mean(bound)/mean(y) (upper) and mean(y)/mean(bound) (lower)
    data = mean_data([-0.5, -0.4, -0.6], n=20, sd=0.1)
    assert UpperBoundHolds("y", "bound").judge(data).numbers["resolving_power"] == (
        pytest.approx(1 / 0.6, rel=1e-8)
    )
    data = mean_data([-0.5, -0.4, -0.6], n=20, sd=0.1, side=-1)
    assert LowerBoundHolds("y", "bound").judge(data).numbers["resolving_power"] == (
        pytest.approx(1.4, rel=1e-8)
    )


CRITERIA = [(UpperBoundHolds, 1.0), (LowerBoundHolds, -1.0)]


@pytest.mark.parametrize(("criterion", "side"), CRITERIA, ids=["upper", "lower"])
@pytest.mark.parametrize("over", ["every", "mean"])
@pytest.mark.parametrize("scale", ["linear", "log", "exponent"])
def test_resolving_power_is_the_largest_planted_error_the_claim_cannot_see(
    criterion, side, over, scale
):
    """Plant the error just below and just above the resolving power: holds, then not."""
    rng = np.random.default_rng(7)
    rows = []
    for t in T_GRID:
        if scale == "linear":
            y = rng.uniform(0.5, 2.0, 5)
            b = y * rng.uniform(3.0, 50.0, 5) ** side
        else:
            y = rng.normal(0.0, 5.0, 5)
            b = y + side * rng.uniform(1.0, 4.0, 5)
        rows.append(({"T": t}, {"y": y, "b": b}))
    data = make_measurements(CLAIM, ["T"], rows)
    crit = criterion("y", "b", over=over, scale=scale)
    verdict = crit.judge(data)
    assert verdict.outcome == HOLDS
    key = "exponent_margin" if scale == "exponent" else "resolving_power"
    power = verdict.numbers[key]
    assert power > (0 if scale == "exponent" else 1)
    assert power == min(row[key] for row in verdict.table)

    def planted(error: float) -> str:
        """Outcome when the bound's constant (exponent) is wrong by ``error``."""
        changed = []
        for params, point in zip([{"T": t} for t in T_GRID], data.points, strict=True):
            b = np.asarray(point["b"])
            if scale == "linear":
                b = b / error if side > 0 else b * error
            elif scale == "log":
                b = b - side * math.log(error)
            else:
                b = b - side * error
            changed.append((params, {"y": point["y"], "b": b}))
        return crit.judge(make_measurements(CLAIM, ["T"], changed)).outcome

    assert planted(power * (1 - 1e-6)) == HOLDS
    assert planted(power * (1 + 1e-6)) != HOLDS


def test_resolving_power_absent_or_infinite():
    # the claim does not hold: no resolving power
    violated = UpperBoundHolds("y", "bound", over="every").judge(
        upper_every_data([[2.0], [0.5], [0.5]], [1.0] * 3)
    )
    assert violated.outcome == VIOLATED
    assert "resolving_power" not in violated.numbers
    assert report.resolving_power_note(violated) is None
    # a non-positive bound has no constant to rescale: left out, absent when it is everywhere
    verdict = LowerBoundHolds("y", "bound", over="every").judge(
        upper_every_data([[-0.5], [0.0], [2.0]], [-1.0, -1.0, 0.5])
    )
    assert verdict.numbers["resolving_power"] == pytest.approx(4.0, rel=1e-8)
    verdict = LowerBoundHolds("y", "bound", over="every").judge(
        upper_every_data([[-0.5], [0.0], [2.0]], [-1.0] * 3)
    )
    assert verdict.outcome == HOLDS
    assert "resolving_power" not in verdict.numbers
    assert [row["resolving_power"] for row in verdict.table] == [
        pytest.approx(math.nan, nan_ok=True)
    ] * 3
    # measured ≤ 0 under a positive upper bound: no constant error is visible
    verdict = UpperBoundHolds("y", "bound", over="every").judge(
        upper_every_data([[0.0], [-1.0], [0.0]], [1.0] * 3)
    )
    assert verdict.numbers["resolving_power"] == math.inf
    assert json.loads(strict_json(verdict))["numbers"]["resolving_power"] is None
    assert report.resolving_power_note(verdict) == (
        "cannot see constant errors of any size (infinite slack at the tightest point)"
    )


def test_exponent_margin_and_its_sentence():
    # slope ≤ −2η/d + 0.1: slopes far steeper than the bound at every point
    rows = [
        ({"eta": eta}, {"slope": [s], "slope_bound": [-2 * eta + 0.1]})
        for eta, s in ((0.5, -1.8), (1.0, -2.8), (1.5, -4.0))
    ]
    data = make_measurements(CLAIM, ["eta"], rows)
    verdict = UpperBoundHolds("slope", "slope_bound", over="every", scale="exponent").judge(data)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["exponent_margin"] == pytest.approx(0.9, rel=1e-8)
    assert "resolving_power" not in verdict.numbers
    assert report.resolving_power_note(verdict) == (
        "cannot see exponent errors below Δ=0.9 (margin at the tightest point)"
    )
    rows[0] = ({"eta": 0.5}, {"slope": [-1.2], "slope_bound": [-0.9]})
    verdict = UpperBoundHolds("slope", "slope_bound", over="every", scale="exponent").judge(
        make_measurements(CLAIM, ["eta"], rows)
    )
    assert verdict.numbers["exponent_margin"] == pytest.approx(0.3, rel=1e-8)
    assert report.resolving_power_note(verdict) is None
    # the decision never depends on the scale; a wrong scale is refused
    linear = UpperBoundHolds("slope", "slope_bound", over="every").judge(data)
    assert linear.outcome == verdict.outcome == HOLDS
    assert UpperBoundHolds("y", "b", scale="log").to_dict()["scale"] == "log"
    with pytest.raises(ParameterError, match="scale"):
        UpperBoundHolds("y", "b", scale="log10")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("power", "sentence"),
    [
        (100.0, "cannot see constant errors below ×1.0·10² (slack at the tightest point)"),
        (9996.0, "cannot see constant errors below ×1.0·10⁴ (slack at the tightest point)"),
        (3.77e31, "cannot see constant errors below ×3.8·10³¹ (slack at the tightest point)"),
        (99.9, None),
    ],
)
def test_resolving_power_note_formats_the_factor(power, sentence):
    verdict = Verdict(HOLDS, "", numbers={"resolving_power": power})
    assert report.resolving_power_note(verdict) == sentence


# ============================================================================ RateExponent


X_GRID = (10, 20, 40, 80, 160, 320)


def curve(
    fn, n: int = 1, sigma: float = 0.0, seed: int = 0, x_grid: Sequence[float] = X_GRID
) -> Measurements:
    """y = fn(x) times log-normal noise of log-sd sigma (positive, mean ∝ fn(x))."""
    rng = np.random.default_rng(seed)
    rows = []
    for x in x_grid:
        noise = np.exp(sigma * rng.standard_normal(n)) if sigma else np.ones(n)
        rows.append(({"x": x}, {"y": fn(x) * noise}))
    return make_measurements(CLAIM, ["x"], rows)


def test_rate_exact_power_law_is_exact():
    verdict = RateExponent("x", "y", expected=-1, n_resamples=400).judge(curve(lambda x: 3 / x))
    assert verdict.outcome == HOLDS
    assert verdict.numbers["exponent"] == pytest.approx(-1.0, abs=1e-12)
    assert verdict.numbers["ci_low"] == verdict.numbers["ci_high"] == verdict.numbers["exponent"]
    assert verdict.ci == (verdict.numbers["exponent"], verdict.numbers["exponent"])
    assert verdict.numbers["r_squared"] == pytest.approx(1.0, abs=1e-12)
    assert verdict.numbers["curves"] == 1
    fit = [s for s in verdict.figure.series if s.role == "fit"]  # type: ignore[union-attr]
    np.testing.assert_allclose(fit[0].y, [3 / x for x in X_GRID], rtol=1e-10)
    strict_json(verdict)


def test_rate_noisy_inverse_with_many_replicates_holds():
    data = curve(lambda x: 1 / x, n=40, sigma=0.05, seed=1)
    verdict = RateExponent("x", "y", expected=-1, n_resamples=600).judge(data)
    assert verdict.outcome == HOLDS
    assert -1.1 <= verdict.numbers["ci_low"] < verdict.numbers["ci_high"] <= -0.9
    assert verdict.numbers["ci_low"] < -1 < verdict.numbers["ci_high"]


def test_rate_wrong_exponent_is_violated():
    data = curve(lambda x: x**-0.5, n=20, sigma=0.05, seed=2)
    verdict = RateExponent("x", "y", expected=-1, n_resamples=600).judge(data)
    assert verdict.outcome == VIOLATED
    assert verdict.numbers["exponent"] == pytest.approx(-0.5, abs=0.05)
    assert verdict.numbers["ci_low"] > -0.9
    assert "outside the band" in verdict.reason


def test_rate_very_noisy_few_replicates_is_inconclusive():
    data = curve(lambda x: 1 / x, n=3, sigma=0.8, seed=3)
    verdict = RateExponent("x", "y", expected=-1, band=0.1, n_resamples=600).judge(data)
    low, high = verdict.numbers["ci_low"], verdict.numbers["ci_high"]
    assert high - low > 0.2  # wider than the band: it can neither fit inside nor miss it
    assert low <= -0.9 and high >= -1.1
    assert verdict.outcome == INCONCLUSIVE
    assert "wider than the band" in verdict.reason


def test_rate_alternatives_inside_band_refused():
    with pytest.raises(ParameterError, match="alternatives\\['close'\\]"):
        RateExponent("x", "y", expected=-1, band=0.1, alternatives={"close": -1.05})
    with pytest.raises(ParameterError, match="alternatives"):
        RateExponent("x", "y", expected=-1, band=0.1, alternatives={"edge": -0.9})
    RateExponent("x", "y", expected=-1, band=0.1, alternatives={"sqrt": -0.5})
    with pytest.raises(ParameterError, match="band"):
        RateExponent("x", "y", expected=-1, band=0)
    with pytest.raises(ParameterError, match="expected"):
        RateExponent("x", "y", expected=math.nan)
    with pytest.raises(ParameterError, match="n_resamples"):
        RateExponent("x", "y", expected=-1, n_resamples=100)


def test_rate_alternative_inside_interval_is_inconclusive():
    data = curve(lambda x: 1 / x, n=3, sigma=0.8, seed=3)
    crit = RateExponent(
        "x", "y", expected=-1, band=0.1, alternatives={"slow": -0.75}, n_resamples=600
    )
    verdict = crit.judge(data)
    assert verdict.numbers["ci_low"] <= -0.75 <= verdict.numbers["ci_high"]
    assert verdict.outcome == INCONCLUSIVE
    assert "still contains slow" in verdict.reason
    # an excluded alternative does not stand in the way of "holds"
    exact = crit.judge(curve(lambda x: 1 / x))
    assert exact.outcome == HOLDS
    assert "not slow" in exact.predicted


def test_rate_x_min_drops_pre_asymptotic_points():
    grid = tuple(2.0**k for k in range(11))  # 1 … 1024
    data = curve(lambda x: 1 / x + 1 / x**2, x_grid=grid)
    whole = RateExponent("x", "y", expected=-1, band=0.05, n_resamples=400).judge(data)
    assert whole.outcome == VIOLATED
    assert whole.numbers["exponent"] < -1.05
    tail = RateExponent("x", "y", expected=-1, band=0.05, x_min=64, n_resamples=400).judge(data)
    assert tail.outcome == HOLDS
    xs = np.array(grid[6:])
    expected_slope = np.polyfit(np.log(xs), np.log(1 / xs + 1 / xs**2), 1)[0]
    assert tail.numbers["exponent"] == pytest.approx(expected_slope, abs=1e-10)
    assert tail.table[0]["points"] == 5
    with pytest.raises(ParameterError, match="x_min"):
        RateExponent("x", "y", expected=-1, x_min=512, n_resamples=400).judge(data)


def test_rate_one_violating_curve_violates():
    rows = []
    for x in X_GRID:  # sweep order: x outer, c inner
        for c, power in ((1, -1.0), (2, -0.5)):
            rows.append(({"x": x, "c": c}, {"y": [2.0 * x**power]}))
    data = make_measurements(CLAIM, ["x", "c"], rows)
    verdict = RateExponent("x", "y", expected=-1, n_resamples=400).judge(data)
    assert verdict.outcome == VIOLATED
    assert [(row["c"], row["outcome"]) for row in verdict.table] == [(1, HOLDS), (2, VIOLATED)]
    assert verdict.table[0]["exponent"] == pytest.approx(-1.0, abs=1e-12)
    assert verdict.numbers["exponent"] == pytest.approx(-0.5, abs=1e-12)  # the deciding curve
    assert verdict.numbers["curves"] == 2
    assert "c=2: exponent" in verdict.reason


def test_rate_is_deterministic_given_the_seed():
    data = curve(lambda x: 1 / x, n=8, sigma=0.2, seed=4)
    crit = RateExponent("x", "y", expected=-1, band=0.3, n_resamples=500)
    first, again = crit.judge(data, seed=7), crit.judge(data, seed=7)
    assert first.numbers == again.numbers
    assert first.to_dict() == again.to_dict()
    other = crit.judge(data, seed=8)
    assert other.numbers["exponent"] == first.numbers["exponent"]
    assert other.ci != first.ci
    assert other.ci == pytest.approx(first.ci, abs=0.05)


def test_rate_needs_three_values_of_x():
    crit = RateExponent("x", "y", expected=-1)
    with pytest.raises(ParameterError, match="at least 3 values"):
        crit.check_sweep(Sweep(grid={"x": [1, 2]}))
    with pytest.raises(ParameterError, match="numeric"):
        crit.check_sweep(Sweep(grid={"x": ["a", "b", "c"]}))
    crit.check_sweep(Sweep(grid={"x": [1, 2, 4], "c": [1, 2]}))


def test_rate_held_to_a_bound_reads_its_slope_along_the_sweep():
    # y = 4/(mu² x): the registered SGD distance bound 4 G2/(mu² T) with G2 = 1 and mu moving
    # with the swept x (mu = x^0.25), so the bound's slope in x is −1 − 2·0.25 = −1.5
    rows = [({"x": x}, {"y": [4.0 / (x**0.5 * x)], "mu": [x**0.25]}) for x in X_GRID]
    data = make_measurements(CLAIM, ["x"], rows)
    args = {"T": "x", "G2": 1.0, "mu": "mu"}
    crit = RateExponent("x", "y", expected=SGD_DISTANCE, bound_args=args, n_resamples=400)
    verdict = crit.judge(data)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["expected"] == pytest.approx(-1.5, abs=1e-12)
    assert verdict.table[0]["expected"] == pytest.approx(-1.5, abs=1e-12)
    assert "of classic.sgd.strongly-convex.distance" in verdict.predicted
    assert crit.to_dict()["bound"] == SGD_DISTANCE.id
    # data that do not scale like the bound (mu held at 1 in the bound) are a violation
    fixed = RateExponent("x", "y", expected=SGD_DISTANCE, bound_args={"T": "x", "G2": 1, "mu": 1})
    assert fixed.judge(data).outcome == VIOLATED
    strict_json(verdict)


def test_rate_held_to_a_bound_refuses_what_cannot_apply():
    with pytest.raises(ParameterError, match="bound_args"):
        RateExponent("x", "y", expected=-1, bound_args={"T": "x"})
    with pytest.raises(ParameterError, match="alternatives"):
        RateExponent("x", "y", expected=SGD_DISTANCE, alternatives={"a": 2.0})
    with pytest.raises(ParameterError, match="floor"):
        RateExponent("x", "y", expected=SGD_DISTANCE, floor=True)
    with pytest.raises(ParameterError, match="bound_args"):
        RateExponent("x", "y", expected=SGD_DISTANCE, bound_args={"nope": "x"})


# ============================================================================ Crossing


CROSS_X = (1, 10, 100, 1000)
A_LINE = (3.0, 2.0, 1.0, 0.0)  # 3 − log10 x
B_LINE = (0.5, 1.0, 1.5, 2.0)  # 0.5 + 0.5 log10 x
CROSS_AT = 10 ** (2.5 / 1.5)  # 3 − u = 0.5 + 0.5 u


def crossing_data(a, b, *, n: int = 1, sd: float = 0.0, extra=None) -> Measurements:
    rows = []
    for i, (x, ma, mb) in enumerate(zip(CROSS_X, a, b, strict=True)):
        noise_a = sd * standardized(n, 100 + i) if n > 1 else np.zeros(1)
        noise_b = sd * standardized(n, 200 + i) if n > 1 else np.zeros(1)
        rows.append(({"x": x, **(extra or {})}, {"a": ma + noise_a, "b": mb + noise_b}))
    return make_measurements(CLAIM, ["x"], rows)


def test_crossing_deterministic_lines_hold_at_the_analytic_point():
    verdict = Crossing("x", "a", "b", n_resamples=400).judge(crossing_data(A_LINE, B_LINE))
    assert verdict.outcome == HOLDS
    assert verdict.numbers["crossing"] == pytest.approx(CROSS_AT, rel=1e-12)
    assert verdict.numbers["ci_low"] == pytest.approx(CROSS_AT, rel=1e-12)
    assert verdict.numbers["ci_high"] == pytest.approx(CROSS_AT, rel=1e-12)
    assert verdict.table[0]["no_crossing_fraction"] == 0
    assert verdict.table[0]["crossings"] == 1
    directed = Crossing("x", "a", "b", direction="a-below-b-after", n_resamples=400)
    assert directed.judge(crossing_data(A_LINE, B_LINE)).outcome == HOLDS
    strict_json(verdict)


@pytest.mark.parametrize(
    ("expected", "outcome"),
    [(40.0, HOLDS), (CROSS_AT * 1.9, HOLDS), (200.0, VIOLATED), (CROSS_AT / 2.1, VIOLATED)],
)
def test_crossing_expected_location(expected, outcome):
    crit = Crossing("x", "a", "b", expected=expected, factor=2.0, n_resamples=400)
    verdict = crit.judge(crossing_data(A_LINE, B_LINE))
    assert verdict.outcome == outcome
    assert verdict.table[0]["expected"] == expected
    if outcome == VIOLATED:
        assert "misses" in verdict.reason


def test_crossing_expected_from_a_parameter():
    crit = Crossing("x", "a", "b", expected="x_star", n_resamples=400)
    assert crit.judge(crossing_data(A_LINE, B_LINE, extra={"x_star": 50})).outcome == HOLDS
    assert crit.judge(crossing_data(A_LINE, B_LINE, extra={"x_star": 500})).outcome == VIOLATED


def test_crossing_absent_is_violated():
    above = tuple(v + 5 for v in B_LINE)
    verdict = Crossing("x", "a", "b", n_resamples=400).judge(crossing_data(above, B_LINE))
    assert verdict.outcome == VIOLATED
    assert "do not cross" in verdict.reason
    assert verdict.table[0]["no_crossing_fraction"] == 1.0
    assert math.isnan(verdict.numbers["crossing"])
    assert verdict.ci is None
    strict_json(verdict)


def test_crossing_in_the_wrong_direction_is_violated():
    crit = Crossing("x", "a", "b", direction="a-above-b-after", n_resamples=400)
    verdict = crit.judge(crossing_data(A_LINE, B_LINE))
    assert verdict.outcome == VIOLATED
    assert "a-below-b-after" in verdict.reason
    assert crit.judge(crossing_data(B_LINE, A_LINE)).outcome == HOLDS


def test_crossing_that_noise_hides_is_inconclusive():
    data = crossing_data((0.3, 0.1, -0.1, -0.3), (0.0,) * 4, n=3, sd=1.0)
    verdict = Crossing("x", "a", "b", n_resamples=1000).judge(data)
    fraction = verdict.table[0]["no_crossing_fraction"]
    assert 0.05 < fraction < 0.95  # neither located nor confidently absent
    assert verdict.outcome == INCONCLUSIVE
    assert "cannot locate" in verdict.reason
    assert verdict.ci is None
    strict_json(verdict)


def test_crossing_interval_wider_than_the_factor_is_inconclusive():
    data = crossing_data(A_LINE, B_LINE, n=5, sd=0.6)
    verdict = Crossing("x", "a", "b", expected=CROSS_AT, n_resamples=1000).judge(data)
    low, high = verdict.numbers["ci_low"], verdict.numbers["ci_high"]
    assert low < CROSS_AT / 2 < CROSS_AT < high or low < CROSS_AT < CROSS_AT * 2 < high
    assert verdict.outcome == INCONCLUSIVE
    assert "too wide" in verdict.reason
    assert verdict.numbers["crossing"] == pytest.approx(CROSS_AT, rel=1e-9)  # exact means


def test_crossing_validation():
    with pytest.raises(ParameterError, match="factor"):
        Crossing("x", "a", "b", factor=1.0)
    with pytest.raises(ParameterError, match="expected"):
        Crossing("x", "a", "b", expected=-3.0)
    with pytest.raises(ParameterError, match="direction"):
        Crossing("x", "a", "b", direction="up")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="at least 3 values"):
        Crossing("x", "a", "b").check_sweep(Sweep(grid={"x": [1, 2]}))


# ============================================================================ Identity


def identity_data(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> Measurements:
    return make_measurements(
        CLAIM,
        ["T"],
        [({"T": t}, {"a": ra, "b": rb}) for t, ra, rb in zip(T_GRID, a, b, strict=True)],
    )


def test_identity_every_exact_holds():
    b = [[0.1, 0.2], [1.0 / 3.0, 2.0 / 3.0], [5.0, 7.0]]
    verdict = Identity("a", "b").judge(identity_data(b, b))
    assert verdict.outcome == HOLDS
    assert verdict.numbers == {
        "max_abs_diff": 0.0,
        "max_rel_diff": 0.0,
        "worst_tolerance_ratio": 0.0,
    }
    assert verdict.counterexample is None


def test_identity_against_zero_reports_the_absolute_difference():
    """A relative difference to a reference of 0 is meaningless (it read 8.9e+284 for a 9e-16
    gap): the verdict then gives the absolute one."""
    zero = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    near = [[2e-16, 0.0], [0.0, -9e-16], [0.0, 0.0]]
    verdict = Identity("a", "b", atol=1e-12).judge(identity_data(near, zero))
    assert verdict.outcome == HOLDS
    assert verdict.measured == "max abs. diff 9e-16"
    assert "max_rel_diff" not in verdict.numbers
    assert verdict.numbers["max_abs_diff"] == pytest.approx(9e-16)
    assert all(row["max_rel_diff"] is None for row in verdict.table)


def test_identity_every_perturbed_replicate_is_violated():
    b = [[0.1, 0.2], [1.0, 2.0], [5.0, 7.0]]
    a = [list(r) for r in b]
    a[2][1] = 7.0 * (1 + 1e-6)
    verdict = Identity("a", "b").judge(identity_data(a, b))
    assert verdict.outcome == VIOLATED
    cx = verdict.counterexample
    assert cx is not None
    assert (cx["params"], cx["replicate"], cx["seed"]) == ({"T": 1000}, 1, int(seeds_of(2, 2)[1]))
    assert (cx["a"], cx["b"]) == (7.0 * (1 + 1e-6), 7.0)
    assert verdict.numbers["max_rel_diff"] == pytest.approx(1e-6, rel=1e-6)
    assert verdict.numbers["worst_tolerance_ratio"] == pytest.approx(1e3, rel=1e-6)
    assert "replicate 1" in verdict.reason
    # within rtol: fine
    a[2][1] = 7.0 * (1 + 1e-12)
    assert Identity("a", "b").judge(identity_data(a, b)).outcome == HOLDS
    # atol covers a zero reference value
    zero = identity_data([[1e-12]] * 3, [[0.0]] * 3)
    assert Identity("a", "b", rtol=0, atol=1e-9).judge(zero).outcome == HOLDS
    assert Identity("a", "b", rtol=0, atol=1e-13).judge(zero).outcome == VIOLATED


def test_identity_of_zeros_with_relative_tolerance_only():
    # |a − b| = 0 ≤ rtol·|b| = 0: equality holds, and the tolerance ratio is 0, not NaN
    zeros = identity_data([[0.0, 0.0]] * 3, [[0.0, 0.0]] * 3)
    verdict = Identity("a", "b").judge(zeros)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["worst_tolerance_ratio"] == 0.0
    off = identity_data([[0.0, 1e-300]] * 3, [[0.0, 0.0]] * 3)
    assert Identity("a", "b").judge(off).outcome == VIOLATED
    mean = Identity("a", "b", over="mean").judge(zeros)
    assert mean.outcome == HOLDS


def identity_mean_data(m: float, sd: float, n: int = 10) -> Measurements:
    rows = []
    for i, t in enumerate(T_GRID):
        b = np.full(n, 2.0)
        rows.append(({"T": t}, {"a": b + m + sd * standardized(n, 30 + i), "b": b}))
    return make_measurements(CLAIM, ["T"], rows)


@pytest.mark.parametrize(
    ("m", "sd", "outcome"),
    [
        (0.0, 0.01, HOLDS),
        (0.05, 0.01, HOLDS),
        (1.0, 0.01, VIOLATED),
        (-1.0, 0.01, VIOLATED),
        (0.1, 0.05, INCONCLUSIVE),
        (-0.1, 0.05, INCONCLUSIVE),
    ],
)
def test_identity_mean_outcomes(m, sd, outcome):
    n, tol = 10, 0.1
    crit = Identity("a", "b", rtol=0.0, atol=tol, over="mean")
    verdict = crit.judge(identity_mean_data(m, sd, n))
    assert verdict.outcome == outcome
    half = t_quantile(1 - 0.05 / 3, n) * sd / math.sqrt(n)
    # the relative difference of the *means* (b = 2, the noise is exactly centred)
    assert verdict.numbers["max_rel_diff"] == pytest.approx(abs(m) / 2.0, abs=1e-12)
    assert verdict.numbers["worst_tolerance_ratio"] == pytest.approx(
        (abs(m) + half) / tol, rel=1e-9
    )
    if outcome == VIOLATED:
        assert verdict.counterexample is not None
        assert verdict.counterexample["params"] == {"T": 10}


def test_identity_mean_needs_replicates_and_validates_tolerances():
    with pytest.raises(ParameterError, match="at least 2 replicates"):
        Identity("a", "b", over="mean").check_sweep(Sweep(grid={"T": [1, 2]}))
    Identity("a", "b").check_sweep(Sweep(grid={"T": [1, 2]}))
    with pytest.raises(ParameterError, match="rtol"):
        Identity("a", "b", rtol=0, atol=0)
    with pytest.raises(ParameterError, match="rtol"):
        Identity("a", "b", rtol=-1e-9)


def test_identity_with_a_bound():
    # the SGD distance bound attained exactly: dist = 16 G2 / T (mu = 0.5)
    g2 = [[1.0, 2.0], [0.5, 0.25], [3.0, 1.0]]
    dist = [[16 * g / t for g in row] for t, row in zip(T_GRID, g2, strict=True)]
    crit = Identity("dist", SGD_DISTANCE, bound_args={"G2": "G2_est", "mu": 0.5})
    verdict = crit.judge(sgd_data(dist, g2))
    assert verdict.outcome == HOLDS
    assert verdict.numbers["max_rel_diff"] < 1e-14
    dist[0][1] *= 1.01
    verdict = crit.judge(sgd_data(dist, g2))
    assert verdict.outcome == VIOLATED
    assert verdict.counterexample is not None
    assert verdict.counterexample["b"] == pytest.approx(16 * 2.0 / 10, rel=1e-12)
    assert SGD_DISTANCE.id in verdict.reason


# ============================================================================ Monotone


def monotone_data(means, *, n: int = 1, sd: float = 0.0, x=None) -> Measurements:
    x = x or [1, 2, 4, 8, 16][: len(means)]
    rows = []
    for i, (xi, m) in enumerate(zip(x, means, strict=True)):
        y = m + sd * standardized(n, 50 + i) if n > 1 else [m]
        rows.append(({"x": xi}, {"y": y}))
    return make_measurements(CLAIM, ["x"], rows)


def test_monotone_exact_increasing_holds():
    verdict = Monotone("x", "y", direction="increasing").judge(monotone_data([1, 2, 3, 5]))
    assert verdict.outcome == HOLDS
    assert verdict.table[0]["steps_against"] == 0
    assert verdict.table[0]["flat_steps"] == 0
    assert verdict.table[0]["change"] == 4.0
    decreasing = Monotone("x", "y", direction="decreasing").judge(monotone_data([1, 2, 3, 5]))
    assert decreasing.outcome == VIOLATED


def test_monotone_exact_decreasing_holds():
    crit = Monotone("x", "y", direction="decreasing")
    assert crit.judge(monotone_data([5.0, 3.0, 3.0, 1.0])).outcome == HOLDS
    assert crit.judge(monotone_data([5.0, 3.0, 3.5, 1.0])).outcome == VIOLATED
    # a deterministic constant curve is not decreasing
    assert crit.judge(monotone_data([2.0, 2.0, 2.0])).outcome == INCONCLUSIVE


def test_monotone_significant_dip_is_violated_and_named():
    verdict = Monotone("x", "y", direction="increasing").judge(
        monotone_data([1.0, 2.0, 1.2, 3.0], n=10, sd=0.05)
    )
    assert verdict.outcome == VIOLATED
    assert "x=2→4" in verdict.reason
    assert verdict.table[0]["steps_against"] == 1


def test_monotone_flat_noisy_is_inconclusive():
    verdict = Monotone("x", "y", direction="increasing").judge(
        monotone_data([1.0, 1.0, 1.0, 1.0], n=5, sd=0.1)
    )
    assert verdict.outcome == INCONCLUSIVE
    assert "not distinguishable" in verdict.reason
    assert verdict.table[0]["flat_steps"] == 3


@pytest.mark.parametrize(("factor", "outcome"), [(0.97, HOLDS), (1.03, VIOLATED)])
def test_monotone_steps_use_bonferroni_welch_intervals(factor, outcome):
    # 3 points: 2 steps + the first-to-last comparison → level 1 − 0.05/3 per comparison
    n, sd = 5, 1.0
    se = math.sqrt(2 * sd**2 / n)  # Welch, equal sizes and variances: 2(n − 1) dof
    t_bonf = float(scipy_stats.t.ppf(1 - 0.05 / 3 / 2, 2 * (n - 1)))
    t_plain = float(scipy_stats.t.ppf(1 - 0.05 / 2, 2 * (n - 1)))
    assert t_bonf * 0.97 > t_plain  # the HOLDS case is a significant dip without correction
    dip = factor * t_bonf * se
    rows = [
        ({"x": 1}, {"y": 0.0 + sd * standardized(n, 1)}),
        ({"x": 2}, {"y": -dip + sd * standardized(n, 2)}),
        ({"x": 3}, {"y": [10.0]}),
    ]
    verdict = Monotone("x", "y", direction="increasing").judge(
        make_measurements(CLAIM, ["x"], rows)
    )
    assert verdict.outcome == outcome
    assert verdict.table[0]["flat_steps"] == (1 if outcome == HOLDS else 0)


def test_monotone_one_bad_curve_violates():
    rows = []
    for x in (1, 2, 3):
        rows.append(({"x": x, "c": "up"}, {"y": [float(x)]}))
        rows.append(({"x": x, "c": "down"}, {"y": [-float(x)]}))
    verdict = Monotone("x", "y", direction="increasing").judge(
        make_measurements(CLAIM, ["x", "c"], rows)
    )
    assert verdict.outcome == VIOLATED
    assert verdict.numbers["curves"] == 2
    assert [(r["c"], r["outcome"]) for r in verdict.table] == [("up", HOLDS), ("down", VIOLATED)]
    assert "c=down: goes against" in verdict.reason


def test_monotone_validation():
    with pytest.raises(ParameterError, match="direction"):
        Monotone("x", "y", direction="up")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="at least 2 values"):
        Monotone("x", "y", direction="increasing").check_sweep(Sweep(grid={"x": [1]}))


# ============================================================================ verdicts


def test_combine_outcomes_precedence():
    assert combine_outcomes([HOLDS]) == HOLDS
    assert combine_outcomes([HOLDS, HOLDS]) == HOLDS
    assert combine_outcomes([HOLDS, INCONCLUSIVE]) == INCONCLUSIVE
    assert combine_outcomes([INCONCLUSIVE, VIOLATED, HOLDS]) == VIOLATED
    assert combine_outcomes([VIOLATED, ERROR, INCONCLUSIVE]) == ERROR
    with pytest.raises(ParameterError, match="outcomes"):
        combine_outcomes([])


def test_verdict_rejects_unknown_outcome():
    with pytest.raises(ParameterError, match="outcome"):
        Verdict("passed", "nope")
    assert Verdict.error("boom").outcome == ERROR


def test_verdict_to_dict_is_strict_json_with_non_finite_numbers():
    verdict = Verdict(
        VIOLATED,
        "because",
        ci=(np.float64(0.5), math.inf),
        numbers={"inf": math.inf, "ninf": -math.inf, "nan": math.nan, "ok": np.float64(1.5)},
        table=({"x": np.int64(3), "r": np.float64(math.inf), "flag": np.bool_(True)},),
        counterexample={"params": {"x": 3}, "replicate": 0, "seed": 7, "measured": 2.0},
    )
    doc = json.loads(strict_json(verdict))
    assert doc["numbers"] == {"inf": None, "ninf": None, "nan": None, "ok": 1.5}
    assert doc["table"] == [{"x": 3, "r": None, "flag": True}]
    assert doc["ci"] == [0.5, None]
    assert doc["outcome"] == VIOLATED
    assert doc["counterexample"]["seed"] == 7


def test_real_verdicts_are_strict_json():
    # a fit that skips points pads the figure's intervals with NaN; to_dict must still be strict
    grid = tuple(2.0**k for k in range(8))
    data = curve(lambda x: 1 / x, n=4, sigma=0.1, seed=9, x_grid=grid)
    verdict = RateExponent("x", "y", expected=-1, x_min=8, n_resamples=400).judge(data)
    doc = json.loads(strict_json(verdict))
    measured = next(s for s in doc["figure"]["series"] if s["role"] == "measured")
    assert measured["x"] == list(grid)
    assert measured["low"][:3] == [None] * 3  # x = 1, 2, 4 are below x_min
    assert all(isinstance(v, float) for v in measured["low"][3:])
    above = UpperBoundHolds("y", "bound", over="every").judge(
        upper_every_data([[0.0], [1.0], [2.0]], [1.0, 1.0, 1.0])
    )
    doc = json.loads(strict_json(above))
    assert doc["table"][0]["ratio"] is None  # bound / 0
    assert doc["counterexample"]["measured"] == 2.0


def test_bootstrap_criteria_refuse_too_few_replicates():
    rate = RateExponent("T", "y", expected=-1, band=0.1)
    cross = Crossing("T", "a", "b")
    for crit in (rate, cross):
        crit.check_sweep(Sweep(grid={"T": [1, 2, 3]}, replicates=1))  # deterministic: exact
        crit.check_sweep(Sweep(grid={"T": [1, 2, 3]}, replicates=MIN_BOOTSTRAP_REPLICATES))
        with pytest.raises(ParameterError, match="at least 8"):
            crit.check_sweep(Sweep(grid={"T": [1, 2, 3]}, replicates=3))


# --------------------------------------------------------------------------- Crossing scaling


def scaling_rows(ns, *, replicates=1, noise=0.0, seed=0):
    """a = log x − ½ log n, b = 0: the curves cross exactly at x* = √n (linear in log x)."""
    rng = np.random.default_rng(seed)
    rows = []
    for n in ns:
        for x in np.logspace(-1, 3, 9):
            a = np.log(x) - 0.5 * np.log(n) + noise * rng.standard_normal(replicates)
            rows.append(({"n": n, "x": float(x)}, {"a": a, "b": np.zeros(replicates)}))
    return make_measurements("classic/t/scaling", ("n", "x"), rows)


def test_crossing_scaling_exact_power_law_holds_and_a_wrong_exponent_is_violated():
    data = scaling_rows([1, 100, 10000])
    verdict = Crossing("x", "a", "b", scaling=("n", 0.5), n_resamples=400).judge(data)
    assert verdict.outcome == HOLDS
    assert verdict.numbers["scaling_slope"] == pytest.approx(0.5, abs=1e-12)
    assert verdict.numbers["scaling_ci_low"] == pytest.approx(0.5, abs=1e-12)
    wrong = Crossing("x", "a", "b", scaling=("n", 1.0), n_resamples=400).judge(data)
    assert wrong.outcome == VIOLATED and "outside the band" in wrong.reason


def test_crossing_scaling_with_noise_covers_the_true_exponent():
    data = scaling_rows([1, 10, 100, 1000], replicates=40, noise=0.3, seed=1)
    crit = Crossing("x", "a", "b", scaling=("n", 0.5), scaling_band=0.15, n_resamples=600)
    verdict = crit.judge(data, seed=3)
    low, high = verdict.numbers["scaling_ci_low"], verdict.numbers["scaling_ci_high"]
    assert low < 0.5 < high and high - low < 0.3
    assert verdict.outcome == HOLDS
    tight = Crossing("x", "a", "b", scaling=("n", 0.5), scaling_band=0.001, n_resamples=600)
    assert tight.judge(data, seed=3).outcome == INCONCLUSIVE


def test_crossing_scaling_needs_the_right_sweep():
    crit = Crossing("x", "a", "b", scaling=("n", 0.5))
    crit.check_sweep(Sweep(grid={"n": [1, 10, 100], "x": [1, 2, 3]}))
    with pytest.raises(ParameterError, match="exactly 'x' and 'n' varied"):
        crit.check_sweep(Sweep(grid={"x": [1, 2, 3]}, fixed={"n": 1}))
    with pytest.raises(ParameterError, match="at least 3 positive"):
        crit.check_sweep(Sweep(grid={"n": [1, 10], "x": [1, 2, 3]}))
    with pytest.raises(ParameterError, match="scaling"):
        Crossing("x", "a", "b", scaling=("x", 0.5))
    with pytest.raises(ParameterError, match="scaling"):
        Crossing("x", "a", "b", scaling="n")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- RateExponent floor


def floor_rows(power, floor, *, replicates=1, noise=0.0, seed=0):
    rng = np.random.default_rng(seed)
    return make_measurements(
        "classic/t/floor",
        ["n"],
        [
            (
                {"n": float(n)},
                {"err": (floor + 3.0 * n**power) * (1 + noise * rng.standard_normal(replicates))},
            )
            for n in np.logspace(0, 4, 10)
        ],
    )


def test_rate_with_floor_recovers_the_exponent_a_pure_power_law_misses():
    data = floor_rows(-1.0, 0.01)
    with_floor = RateExponent("n", "err", expected=-1, floor=True, n_resamples=200).judge(data)
    assert with_floor.outcome == HOLDS
    assert with_floor.numbers["exponent"] == pytest.approx(-1.0, abs=1e-6)
    assert with_floor.numbers["floor"] == pytest.approx(0.01, rel=1e-6)
    pure = RateExponent("n", "err", expected=-1, n_resamples=200).judge(data)
    assert pure.outcome == VIOLATED  # the floor flattens the log-log slope
    wrong = RateExponent("n", "err", expected=-2, floor=True, n_resamples=200).judge(data)
    assert wrong.outcome == VIOLATED


def test_rate_with_floor_on_noisy_data_and_its_requirements():
    data = floor_rows(-0.5, 0.05, replicates=40, noise=0.1, seed=2)
    verdict = RateExponent("n", "err", expected=-0.5, band=0.2, floor=True, n_resamples=300).judge(
        data, seed=1
    )
    assert verdict.numbers["ci_low"] < -0.5 < verdict.numbers["ci_high"]
    assert verdict.outcome == HOLDS
    assert "a + b·n^k" in RateExponent("n", "err", expected=-1, floor=True).describe()
    with pytest.raises(ParameterError, match="at least 4 values"):
        RateExponent("n", "err", expected=-1, floor=True).check_sweep(
            Sweep(grid={"n": [1, 10, 100]})
        )
