"""The offline substitutes of the attack and metric experiments (reading guide §4.7, check 34).

Checks: the numpy softmax training converges (gradient norm), the attack margins and their
gradients against the numpy twins (tests/reference/fzoos_substitutes.py) and central
differences, the exact minimal attack radius, the targets classified correctly by every model,
identical clients at P = 1, the macro metrics against the twins and scikit-learn, bad input and
the determinism of the seeded builds.
"""

from __future__ import annotations

import numpy as np
import pytest
from reference import fzoos_substitutes as twin

from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos._oracle import zo_gradient, zo_value
from fedtheory.papers.fzoos.datasets import (
    class_subsets,
    class_templates,
    gaussian_mixture,
    train_softmax,
)
from fedtheory.papers.fzoos.substitutes import (
    METRICS,
    MetricOptimisation,
    attack_substitute,
    metric_substitute,
)


@pytest.fixture(scope="module")
def attack():
    return attack_substitute(0.3, seed=1)


def metric_problem(P: float = 0.5, metric: str = "precision", seed: int = 0):
    return metric_substitute(
        P, metric=metric, train_per_class=80, test_per_class=30, steps=150, seed=seed
    )


# ============================================================================== data


def test_train_softmax_reaches_a_stationary_point() -> None:
    rng = np.random.default_rng(0)
    X, y = gaussian_mixture(rng, 30, classes=3, features=4)
    model = train_softmax(X, y, 3, steps=5000, learning_rate=0.5, ridge=1e-2)
    logits = model.logits(X)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    residual = (prob - np.eye(3)[y]) / len(y)
    grad_W = residual.T @ X + 1e-2 * model.weights
    assert np.abs(grad_W).max() < 1e-8 and np.abs(residual.sum(axis=0)).max() < 1e-8
    assert np.mean(model.predict(X) == y) > 0.5


def test_templates_and_subsets() -> None:
    rng = np.random.default_rng(1)
    T = class_templates(rng, 10, 8)
    assert T.shape == (10, 64) and T.min() >= 0 and np.allclose(T.max(axis=1), 1.0)
    subsets = class_subsets(rng, 10, 10, 0.3)
    assert all(len(s) == 3 and len(set(s)) == 3 for s in subsets)
    assert all(len(s) == 10 for s in class_subsets(rng, 4, 10, 1.0))
    assert all(len(s) == 1 for s in class_subsets(rng, 4, 10, 0.0))
    with pytest.raises(ParameterError) as info:
        class_subsets(rng, 4, 10, 1.5)
    assert info.value.parameter == "P"


# ============================================================================== attack


def test_attack_kernels_match_twin_and_differences(attack) -> None:
    rng = np.random.default_rng(2)
    for k in (0, 7):
        p = attack.problem(k)
        view = p.kernel_view()
        assert p.dimension == 64 and p.num_clients == 10 and p.box and p.exact_gradients
        for x in rng.uniform(size=(4, 64)):
            margins, grads = twin.attack(view, x)
            out = np.empty(64)
            for i in range(10):
                assert zo_value(view, i, x) == pytest.approx(margins[i], rel=1e-12, abs=1e-12)
                zo_gradient(view, i, x, out)
                np.testing.assert_allclose(out, grads[i], rtol=1e-12, atol=1e-13)
            # piecewise linear: central differences agree away from ties
            h = 1e-7
            fd = np.array(
                [
                    (p.client_value(3, x + h * e) - p.client_value(3, x - h * e)) / (2 * h)
                    for e in np.eye(64)
                ]
            )
            np.testing.assert_allclose(p.client_gradient(3, x), fd, rtol=1e-5, atol=1e-6)


def test_attack_targets_are_correct_under_every_model(attack) -> None:
    assert attack.images.shape == (15, 64)
    for k in range(15):
        p = attack.problem(k)
        assert np.all(p.client_values(p.start) > 0)  # every model classifies z correctly
        assert not p.success(p.start)
        np.testing.assert_allclose(p.perturbation(p.start), 0.0)
        assert p.global_value(p.start) == pytest.approx(np.mean(p.client_values(p.start)))
        np.testing.assert_allclose(
            p.global_gradient(p.start), p.client_gradients(p.start).mean(axis=0), atol=1e-12
        )
        logits = np.mean([m.logits(attack.images[k][None])[0] for m in attack.models], axis=0)
        np.testing.assert_allclose(p.averaged_logits(p.start), logits, rtol=1e-12)
    assert attack.success_rate(np.full((15, 64), 0.5)) == 0.0


def test_attack_required_epsilon_is_exact(attack) -> None:
    for k in range(4):
        p = attack.problem(k)
        need = p.required_epsilon()
        assert 0 < need < p.epsilon
        W = p.kernel_view().weights.mean(axis=0)
        y = int(p.kernel_view().label)
        logits = p.averaged_logits(p.start)
        ratios = [
            (logits[y] - logits[c]) / np.abs(W[y] - W[c]).sum() if c != y else np.inf
            for c in range(10)
        ]
        c = int(np.argmin(ratios))
        # the worst-case vertex against class c: δ = −ε sign(w̄_y − w̄_c)
        for factor, expected in ((1.001, True), (0.999, False)):
            radius = factor * need
            x = 0.5 - 0.5 * (radius / p.epsilon) * np.sign(W[y] - W[c])
            assert p.success(x) == expected
        # below the radius, no perturbation succeeds: random points of the smaller box fail
        rng = np.random.default_rng(k)
        shrink = 0.99 * need / p.epsilon
        assert not any(p.success(0.5 + 0.5 * shrink * rng.uniform(-1, 1, 64)) for _ in range(200))


def test_attack_identical_clients_at_P_one() -> None:
    same = attack_substitute(1.0, seed=2, targets=3)
    p = same.problem(0)
    for m in same.models[1:]:
        np.testing.assert_array_equal(m.weights, same.models[0].weights)
    x = np.random.default_rng(0).uniform(size=64)
    assert np.all(p.client_values(x) == p.client_values(x)[0])
    assert p.heterogeneity(x) < 1e-25  # the mean of equal gradients, up to rounding


def test_attack_bad_input_and_determinism(attack) -> None:
    with pytest.raises(ParameterError) as info:
        attack_substitute(0.1, minority=0.0, seed=0)
    assert info.value.parameter == "P" and "classified correctly" in str(info.value)
    with pytest.raises(ParameterError) as info:
        attack_substitute(0.5, epsilon=0.0)
    assert info.value.parameter == "epsilon"
    with pytest.raises(ParameterError):
        attack.problem(15)
    with pytest.raises(ParameterError):
        attack.problem(0).client_value(0, np.full(64, 1.5))
    again = attack_substitute(0.3, seed=1)
    np.testing.assert_array_equal(again.images, attack.images)
    np.testing.assert_array_equal(again.models[4].weights, attack.models[4].weights)


# ============================================================================== metric


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_metric_kernel_matches_twin(metric: str) -> None:
    p = metric_problem(0.5, metric)
    assert p.dimension == 7 * 54 + 7 and p.num_clients == 7 and not p.exact_gradients
    rng = np.random.default_rng(3)
    view = p.kernel_view()
    for x in [p.start, *rng.uniform(size=(3, p.dimension))]:
        np.testing.assert_allclose(p.client_values(x), twin.metric_values(view, x), rtol=1e-12)
    np.testing.assert_array_equal(p.client_gradient(0, p.start), np.zeros(p.dimension))


def test_metric_agrees_with_scikit_learn() -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    scorers = {
        "precision": metrics.precision_score,
        "recall": metrics.recall_score,
        "f1": metrics.f1_score,
        "jaccard": metrics.jaccard_score,
    }
    rng = np.random.default_rng(4)
    for name, scorer in scorers.items():
        p = metric_problem(0.4, name, seed=1)
        x = rng.uniform(size=p.dimension)
        model = p.parameters(x)
        view = p.kernel_view()
        for i in range(p.num_clients):
            rows = slice(view.offsets[i], view.offsets[i + 1])
            truth = view.labels[rows]
            pred = model.predict(view.features[rows])
            score = scorer(truth, pred, average="macro", zero_division=0)
            assert p.client_value(i, x) == pytest.approx(1.0 - score, abs=1e-12)


def test_metric_start_is_theta_star_and_P_one_is_homogeneous() -> None:
    p = metric_problem(1.0)
    values = p.client_values(p.start)
    np.testing.assert_allclose(values, values[0])
    view = p.kernel_view()
    pred = p.model.predict(view.features[view.offsets[0] : view.offsets[1]])
    truth = view.labels[view.offsets[0] : view.offsets[1]]
    assert values[0] == pytest.approx(1.0 - twin.macro_metric(truth, pred, 7, "precision"))
    assert values[0] < 0.6  # θ* is a trained model, far better than chance (1 − 1/7)


def test_metric_bad_input_and_determinism() -> None:
    p = metric_problem(0.5)
    with pytest.raises(ParameterError) as info:
        MetricOptimisation(p.model, [np.ones((2, 54))], [np.array([0, 1])], metric="accuracy")
    assert info.value.parameter == "metric"
    with pytest.raises(ParameterError) as info:
        MetricOptimisation(p.model, [np.ones((2, 54))], [np.array([0, 9])])
    assert info.value.parameter == "labels"
    with pytest.raises(ParameterError):
        MetricOptimisation(p.model, [np.ones((2, 54))], [np.array([0, 1])], scale=0.0)
    with pytest.raises(ParameterError) as info:
        metric_problem(1.2)
    assert info.value.parameter == "P"
    q = metric_problem(0.5)
    x = np.random.default_rng(5).uniform(size=p.dimension)
    assert p.global_value(x) == q.global_value(x)
    np.testing.assert_array_equal(p.model.weights, q.model.weights)
