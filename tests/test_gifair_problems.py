"""GIFAIR-FL's problems and metrics (guide §4 substitutes, §7 instance, Def. 2.1).

Theory asserted:
- grouped quadratics: the oracles agree with the formula, ∇ with finite differences; the noise
  rows are centred and σ_k² = mean_j ‖z_{k,j}‖² = σ² exactly; L and μ are the extreme
  eigenvalues; FedAvg's optimum (Σ p A)^{-1} Σ p A c has zero gradient; guide §7's centres;
- grouped classification (every generator): gradients and Hessians agree with finite
  differences; L bounds the Hessian's top eigenvalue (logistic ¼, softmax ½); Newton's optimum
  has ‖∇F‖ ≤ 1e-10; the generators respect their class / group / size structure;
- metrics: population variance, group variance over group means, discrepancy.
"""

from __future__ import annotations

import numpy as np
import pytest

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair import datasets, metrics
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import (
    GUIDE_GROUP_CENTRES,
    GroupedClassification,
    grouped_quadratics,
)
from fedtheory.problems.protocol import check_problem


def _fd_gradient(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:  # type: ignore[no-untyped-def]
    out = np.empty((*np.shape(f(x)), x.size))
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        out[..., i] = (f(x + e) - f(x - e)) / (2 * h)
    return out


def test_grouped_quadratics_guide_instance() -> None:
    problem = check_problem(grouped_quadratics(seed=0))
    assert problem.num_clients == 9 and problem.dimension == 4
    assert problem.groups.group_sizes.tolist() == [3, 3, 3]
    centres_by_group = problem.centres.reshape(3, 3, 4).mean(axis=1)
    assert np.abs(centres_by_group - np.array(GUIDE_GROUP_CENTRES)).max() < 1.0  # 3 × N(0, .25²)
    np.testing.assert_allclose(problem.noise.mean(axis=1), 0.0, atol=1e-15)
    np.testing.assert_allclose(problem.noise_variance, 1.0, rtol=1e-13)
    np.testing.assert_allclose(
        problem.noise_variance, (problem.noise**2).sum(axis=2).mean(axis=1), rtol=1e-15
    )
    eig = np.linalg.eigvalsh(problem.curvature)
    constants = problem.constants()
    assert constants["smoothness"] == eig.max() and constants["strong_convexity"] == eig.min()
    assert eig.min() >= 1.0 and eig.max() <= 4.0
    counts = np.rint(problem.groups.p / problem.groups.p.min() * 1e6)
    assert counts.size == 9
    rng = np.random.default_rng(0)
    theta = rng.standard_normal(4)
    values = problem.client_values(theta)
    for k in range(9):
        diff = theta - problem.centres[k]
        assert values[k] == pytest.approx(
            0.5 * diff @ problem.curvature[k] @ diff + problem.offsets[k], rel=1e-14
        )
        assert problem.client_value(k, theta) == pytest.approx(values[k], rel=1e-14)
    np.testing.assert_allclose(
        problem.client_gradients(theta), _fd_gradient(problem.client_values, theta), atol=1e-6
    )
    optimum = problem.global_optimum()
    assert np.linalg.norm(problem.global_gradient(optimum)) < 1e-12
    np.testing.assert_array_equal(problem.client_optima(), problem.centres)
    again = grouped_quadratics(seed=0)
    np.testing.assert_array_equal(again.noise, problem.noise)
    assert not np.array_equal(grouped_quadratics(seed=1).centres, problem.centres)


def test_grouped_quadratics_variants_and_errors() -> None:
    problem = grouped_quadratics((2, 5), 3, noise=0.0, noise_rows=1, offset_range=(1, 2), seed=4)
    assert problem.groups.num_groups == 2 and problem.dimension == 3
    assert problem.constants()["noise_variance_max"] == 0.0
    assert np.all((problem.offsets >= 1) & (problem.offsets <= 2))
    np.testing.assert_allclose(problem.client_values(problem.centres[3])[3], problem.offsets[3])
    with pytest.raises(ParameterError, match="noise_rows"):
        grouped_quadratics(noise_rows=1)
    with pytest.raises(ParameterError, match="group_sizes"):
        grouped_quadratics((3,))
    with pytest.raises(ParameterError, match="centred"):
        bad = problem.noise.copy() + 1.0
        type(problem)(problem.groups, problem.curvature, problem.centres, problem.offsets, bad)


SMALL = {
    "logistic": lambda: datasets.grouped_logistic((2, 3), 4, sample_range=(15, 25), seed=1),
    "synthetic": lambda: datasets.grouped_synthetic(
        0.5, 0.5, group_sizes=(2, 2), classes=3, features=4, sample_range=(20, 40), seed=1
    ),
    "femnist3": lambda: datasets.femnist_groups_like((2, 2, 2), (20, 25, 15), features=3, seed=1),
    "skewed": lambda: datasets.femnist_skewed_like(
        4, classes=4, classes_per_client=2, samples=20, features=3, seed=1
    ),
    "shakespeare": lambda: datasets.shakespeare_gender_like(
        3, 2, vocabulary=4, male_length=40, female_length=15, seed=1
    ),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_classification_oracles(name: str) -> None:
    problem = check_problem(SMALL[name]())
    assert isinstance(problem, GroupedClassification)
    rng = np.random.default_rng(2)
    theta = 0.5 * rng.standard_normal(problem.dimension)
    np.testing.assert_allclose(
        problem.client_gradients(theta),
        _fd_gradient(problem.client_values, theta),
        rtol=1e-6,
        atol=1e-7,
    )
    w = rng.dirichlet(np.ones(problem.num_clients))
    hessian = problem.weighted_hessian(theta, w)
    np.testing.assert_allclose(
        hessian, _fd_gradient(lambda t: w @ problem.client_gradients(t), theta), atol=1e-6
    )
    top = max(
        np.linalg.eigvalsh(problem.weighted_hessian(theta, np.eye(problem.num_clients)[k])).max()
        for k in range(problem.num_clients)
    )
    assert top <= problem.constants()["smoothness"] + 1e-12
    assert np.linalg.eigvalsh(hessian).min() >= problem.ridge - 1e-10
    optimum = problem.global_optimum()
    assert np.linalg.norm(problem.global_gradient(optimum)) <= 1e-10
    accuracy = problem.accuracy(optimum)
    assert accuracy.shape == (problem.num_clients,)
    assert np.all((accuracy >= 0) & (accuracy <= 1))
    assert problem.accuracy(optimum, split="train").mean() > 1 / problem.classes


def test_generator_structure() -> None:
    femnist = datasets.femnist_groups_like(seed=3)
    assert femnist.groups.group_sizes.tolist() == [6, 10, 4]
    assert femnist.counts.tolist() == [80] * 6 + [100] * 10 + [60] * 4
    lower = set(datasets.FEMNIST_LOWER)
    capitals = set(datasets.FEMNIST_CAPITALS)
    for k, g in enumerate(femnist.groups.labels):
        seen = set(femnist.labels[k, : femnist.counts[k]].tolist())
        assert not (g == 0 and seen & lower) and not (g == 1 and seen & capitals)
    skewed = datasets.femnist_skewed_like(seed=3)
    assert skewed.groups.num_groups == 20
    assert skewed.groups.lambda_max == pytest.approx(1 / (20 * 19), rel=1e-12)
    for k in range(20):
        assert len(set(skewed.labels[k, :100].tolist())) <= 5
    play = datasets.shakespeare_gender_like(seed=3)
    assert play.groups.group_sizes.tolist() == [25, 10]
    assert play.counts[:25].mean() > 1.5 * play.counts[25:].mean()
    assert play.dimension == 20 * 20
    np.testing.assert_array_equal(play.features[0, : play.counts[0]].sum(axis=1), 1.0)
    pilot = datasets.grouped_logistic(seed=3)
    assert pilot.groups.group_sizes.tolist() == [6, 10, 4] and pilot.dimension == 10
    synthetic = datasets.grouped_synthetic(seed=3)
    assert synthetic.dimension == 10 * 61


def test_digits_groups() -> None:
    pytest.importorskip("sklearn")
    problem = datasets.digits_groups(seed=0)
    assert problem.groups.group_sizes.tolist() == [7, 7, 6] and problem.dimension == 650
    for k, g in enumerate(problem.groups.labels):
        seen = set(problem.labels[k, :60].tolist()) | set(problem.test_labels[k].tolist())
        assert seen <= set(datasets.DIGITS_GROUP_LABELS[g])
    with pytest.raises(ParameterError, match="too many images"):
        datasets.digits_groups(samples=200)


def test_classification_validation() -> None:
    problem = SMALL["logistic"]()
    fields = {
        name: getattr(problem, name)
        for name in (
            "groups",
            "loss",
            "features",
            "labels",
            "counts",
            "classes",
            "ridge",
            "test_features",
            "test_labels",
            "test_counts",
        )
    }
    bad_labels = np.array(problem.labels) * 2
    with pytest.raises(ParameterError, match="±1"):
        GroupedClassification(**{**fields, "labels": bad_labels})
    with pytest.raises(ParameterError, match="positive"):
        GroupedClassification(**{**fields, "ridge": 0.0})
    with pytest.raises(ParameterError, match="n_max"):
        GroupedClassification(**{**fields, "counts": problem.counts + 1000})
    with pytest.raises(ParameterError, match="'logistic' or 'softmax'"):
        GroupedClassification(**{**fields, "loss": "hinge"})
    with pytest.raises(ParameterError, match="split"):
        problem.accuracy(np.zeros(problem.dimension), split="validation")


def test_metrics() -> None:
    groups = GroupStructure(np.array([0, 0, 1, 2]), np.full(4, 0.25))
    a = np.array([0.9, 0.7, 0.6, 0.2])
    mean, var = metrics.mean_and_variance(a)
    assert mean == pytest.approx(0.6) and var == pytest.approx(np.var(a), rel=1e-14)
    assert var == pytest.approx(((a - 0.6) ** 2).sum() / 4)  # population (1/K), not 1/(K−1)
    np.testing.assert_allclose(metrics.group_means(groups, a), [0.8, 0.6, 0.2])
    assert metrics.group_variance(groups, a) == pytest.approx(np.var([0.8, 0.6, 0.2]))
    assert metrics.discrepancy(groups, a) == pytest.approx(0.6)
    summary = metrics.fairness_summary(groups, a)
    assert summary.std == pytest.approx(np.std(a)) and summary.discrepancy == pytest.approx(0.6)
    batch = np.stack([a, a[::-1]])
    np.testing.assert_allclose(metrics.discrepancy(groups, batch)[1], 0.9 - (0.2 + 0.6) / 2)
    with pytest.raises(ParameterError, match="K = 4"):
        metrics.group_means(groups, a[:3])
