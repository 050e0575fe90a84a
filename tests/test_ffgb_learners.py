"""Learned weak learners, the digits substitute and FedAvg on the MLP (paper ffgb, issue 13).

Kernels against their numpy twins (``tests/reference/ffgb_learners.py``): trees with identical
structure and predictions, the MLP's initialisation, Adam loss trajectory and predictions,
random-feature ridge, the softmax view and the per-sample cross-entropy gradient. Then what the
definitions imply on their own: a tree refines as it deepens, fits a piecewise-constant target
exactly and ignores atoms of weight 0; the gradients agree with finite differences of the risk;
the s-partition deals every training point once, sorted blocks at s = 0, label skew shrinking
with s; one full-batch FedAvg round is one gradient step on Σ p_i L_i; FedAvg's iterates equal
a numpy FedAvg with the core's minibatch stream. Bad input names parameter, value and rule.
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any

import numpy as np
import pytest

from fedtheory._jit import dispatch, njit
from fedtheory.errors import DivergenceError, MissingExtraError, ParameterError
from fedtheory.papers.ffgb import _mlp_net as net
from fedtheory.papers.ffgb import digits as digits_module
from fedtheory.papers.ffgb._mlp_samples import MLPClientSamples
from fedtheory.papers.ffgb.digits import (
    DIGITS_GRADIENT_BOUND,
    DigitsFederation,
    digits_federation,
)
from fedtheory.papers.ffgb.fedavg_mlp import _mlp_samples, fedavg_digits, mlp_values
from fedtheory.papers.ffgb.learners import (
    MLPOracle,
    RandomFeatureOracle,
    TreeOracle,
    _fit_tree,
    _mlp_fit,
    fit_weak_learner,
    mlp_oracle,
    random_feature_oracle,
    tree_oracle,
)
from fedtheory.problems._oracle import (
    _minibatch_step_by_samples,
    client_samples,
    minibatch_step,
    sample_gradient,
)
from tests.reference import ffgb_learners as ref
from tests.reference.federated import ClientSampler

H1, H2, SLOPE = 32, 32, 0.01


def _problem(seed: int, P: int = 40, d: int = 3, c: int = 2, zeros: float = 0.3) -> tuple:
    """Features with ties (rounded), a query, and weights on the simplex with some zeros."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.standard_normal((P, d)), 1)
    query = rng.standard_normal((P, c))
    w = rng.random(P) + 0.05
    w[rng.random(P) < zeros] = 0.0
    w[0] = max(w[0], 0.5)
    return X, query, w / w.sum()


@pytest.fixture(scope="module")
def federation() -> DigitsFederation:
    return digits_federation(0.1, seed=0)


# ============================================================================== trees


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(("depth", "min_leaf", "c"), [(1, 1, 1), (3, 2, 2), (5, 1, 4), (4, 4, 3)])
def test_tree_kernel_matches_twin_structure_and_predictions(
    seed: int, depth: int, min_leaf: int, c: int
) -> None:
    X, query, w = _problem(seed, c=c)
    S = w > 0
    feature, threshold, left, right, value, used = _fit_tree(
        np.ascontiguousarray(X[S]), np.ascontiguousarray(query[S]), w[S], depth, min_leaf
    )
    nodes = ref.fit_tree(X[S], query[S], w[S], depth, min_leaf)
    assert used == len(nodes)
    assert feature[:used].tolist() == [n["feature"] for n in nodes]
    assert threshold[:used].tolist() == [n["threshold"] for n in nodes]
    assert left[:used].tolist() == [n["left"] for n in nodes]
    assert right[:used].tolist() == [n["right"] for n in nodes]
    np.testing.assert_allclose(value[:used], [n["value"] for n in nodes], rtol=1e-13, atol=1e-15)
    h, ratio = fit_weak_learner(tree_oracle(X, max_depth=depth, min_leaf=min_leaf), query, w)
    h_twin, ratio_twin = ref.tree_oracle(X, depth, min_leaf, query.ravel(), w)
    np.testing.assert_allclose(h, h_twin, rtol=1e-13, atol=1e-15)
    assert ratio == pytest.approx(ratio_twin, rel=1e-12)


def test_tree_fits_a_piecewise_constant_target_exactly() -> None:
    """φ constant on the four cells of (x0 ≤ 0.5, x1 ≤ 0.5) is a depth-2 tree: h = φ, ratio 0."""
    rng = np.random.default_rng(3)
    X = rng.random((60, 3))
    cells = 2 * (X[:, 0] > 0.5) + (X[:, 1] > 0.5)
    levels = np.array([[1.0, -2.0], [3.0, 0.5], [-1.0, 4.0], [2.5, 2.5]])
    query = levels[cells]
    h, ratio = fit_weak_learner(tree_oracle(X, max_depth=2), query, np.full(60, 1 / 60))
    np.testing.assert_array_equal(h, query)
    assert ratio == 0.0


def test_tree_without_a_useful_cut_predicts_the_weighted_mean_everywhere() -> None:
    """Identical features: no cut exists, so h = Σα φ / Σα at every atom, off-support too."""
    X = np.ones((5, 2))
    query = np.array([[1.0], [2.0], [4.0], [8.0], [100.0]])
    w = np.array([0.1, 0.2, 0.3, 0.4, 0.0])
    h, ratio = fit_weak_learner(tree_oracle(X, max_depth=3), query, w)
    mean = 0.1 * 1 + 0.2 * 2 + 0.3 * 4 + 0.4 * 8
    np.testing.assert_allclose(h, np.full((5, 1), mean), rtol=1e-15)
    error = sum(a * (mean - v) ** 2 for a, v in zip(w, query[:, 0], strict=True))
    size = sum(a * v**2 for a, v in zip(w, query[:, 0], strict=True))
    assert ratio == pytest.approx(math.sqrt(error / size), rel=1e-14)


def test_tree_ignores_atoms_of_weight_zero() -> None:
    X, query, w = _problem(7, P=50)
    changed = query.copy()
    changed[w == 0] = 1e6
    oracle = tree_oracle(X, max_depth=4)
    first, r1 = fit_weak_learner(oracle, query, w)
    second, r2 = fit_weak_learner(oracle, changed, w)
    np.testing.assert_array_equal(first, second)
    assert r1 == r2


def test_deeper_trees_refine_and_never_fit_worse() -> None:
    """The greedy breadth-first tree of depth D + 1 refines that of depth D: the weighted
    squared error (so the ratio) cannot increase."""
    X, query, w = _problem(11, P=80, d=4, c=3, zeros=0.0)
    ratios = [fit_weak_learner(tree_oracle(X, max_depth=D), query, w)[1] for D in range(1, 8)]
    assert all(b <= a + 1e-15 for a, b in itertools.pairwise(ratios))
    assert ratios[-1] < ratios[0]


@pytest.mark.parametrize(("depth", "min_leaf"), [(2, 1), (4, 3), (6, 5)])
def test_tree_respects_depth_and_leaf_size(depth: int, min_leaf: int) -> None:
    X, query, w = _problem(5, P=70, zeros=0.0)
    feature, threshold, left, right, _, used = _fit_tree(X, query, w, depth, min_leaf)
    leaf_sizes: dict[int, int] = {}
    depths = {0: 0}
    for node in range(used):
        if feature[node] >= 0:
            depths[left[node]] = depths[node] + 1
            depths[right[node]] = depths[node] + 1
    for x in X:
        node = 0
        while feature[node] >= 0:
            node = left[node] if x[feature[node]] <= threshold[node] else right[node]
        leaf_sizes[node] = leaf_sizes.get(node, 0) + 1
    assert max(depths.values()) <= depth
    assert min(leaf_sizes.values()) >= min_leaf
    assert sum(leaf_sizes.values()) == 70


def test_a_zero_query_gives_zero_and_ratio_zero() -> None:
    X, _, w = _problem(2)
    h, ratio = fit_weak_learner(tree_oracle(X), np.zeros((40, 2)), w)
    assert not h.any() and ratio == 0.0


# ============================================================================== MLP


def test_mlp_init_matches_twin_and_its_bounds() -> None:
    theta = net._mlp_init(np.uint64(12345), 64, H1, H2, 10)
    twin = ref.mlp_init(12345, 64, H1, H2, 10)
    np.testing.assert_allclose(theta, twin, rtol=0, atol=1e-16)
    W1, b1, W2, b2, W3, b3 = ref.unpack(theta, 64, H1, H2, 10)
    for block, fan_in in ((W1, 64), (b1, 64), (W2, H1), (b2, H1), (W3, H2), (b3, H2)):
        assert np.abs(block).max() <= 1 / math.sqrt(fan_in)
    assert abs(W1.mean()) < 0.05 * (1 / 8)  # uniform on ±1/8: the mean of 2048 draws is ≈ 0
    assert not np.array_equal(theta, net._mlp_init(np.uint64(12346), 64, H1, H2, 10))


def test_learner_seeds_match_twin_and_separate_calls() -> None:
    base = np.uint64(987654321)
    seeds = {int(net._learner_seed(base, r, t, i, k)) for r, t, i, k in np.ndindex(2, 3, 2, 2)}
    assert len(seeds) == 24
    assert int(net._learner_seed(base, 1, 2, 0, 1)) == ref.learner_seed(987654321, 1, 2, 0, 1)


def test_mlp_adam_loss_trajectory_matches_twin() -> None:
    X, query, w = _problem(4, P=50, d=5, c=3, zeros=0.2)
    S = w > 0
    theta0 = net._mlp_init(np.uint64(77), 5, H1, H2, 3)
    steps = 200
    losses = np.empty(steps)
    theta = theta0.copy()
    _mlp_fit(theta, np.ascontiguousarray(X[S]), np.ascontiguousarray(query[S]), w[S],
             H1, H2, SLOPE, steps, 0.005, losses)  # fmt: skip
    twin_theta, twin_losses = ref.mlp_fit(theta0, X[S], query[S], w[S], H1, H2, SLOPE, steps, 0.005)
    np.testing.assert_allclose(losses, twin_losses, rtol=0, atol=1e-10)
    np.testing.assert_allclose(theta, twin_theta, rtol=0, atol=1e-9)
    assert losses[-1] < 0.5 * losses[0]  # Adam at lr 0.005 makes progress in 200 steps


def test_mlp_oracle_matches_twin_and_is_deterministic() -> None:
    X, query, w = _problem(9, P=45, d=4, c=2)
    oracle = mlp_oracle(X, steps=150, seed=5)
    h, ratio = fit_weak_learner(oracle, query, w, call=(1, 2, 3, 0))
    twin, twin_ratio = ref.mlp_oracle(
        X, H1, H2, SLOPE, 150, 0.005, int(oracle.seed), (1, 2, 3, 0), query.ravel(), w
    )
    np.testing.assert_allclose(h, twin, rtol=0, atol=1e-9)
    assert ratio == pytest.approx(twin_ratio, abs=1e-9)
    again, _ = fit_weak_learner(oracle, query, w, call=(1, 2, 3, 0))
    np.testing.assert_array_equal(h, again)
    other, _ = fit_weak_learner(oracle, query, w, call=(1, 2, 3, 1))
    assert not np.array_equal(h, other)  # another local step: another initialisation


def test_mlp_backward_matches_finite_differences() -> None:
    rng = np.random.default_rng(8)
    X = rng.standard_normal((6, 3))
    Y = rng.standard_normal((6, 2))
    w = rng.random(6)
    theta = net._mlp_init(np.uint64(3), 3, 4, 5, 2)

    def loss(th: np.ndarray) -> float:
        out = ref.mlp_predict(th, X, 4, 5, 2, SLOPE)
        return float(np.sum(w[:, None] * (out - Y) ** 2))

    Z1, A1, Z2, A2, out = net._mlp_forward(theta, X, 4, 5, 2, SLOPE)
    dout = 2 * w[:, None] * (out - Y)
    grad = np.empty_like(theta)
    net._mlp_backward(theta, X, Z1, A1, Z2, A2, dout, 4, 5, 2, SLOPE, grad)
    eps = 1e-6
    numeric = np.array(
        [(loss(theta + eps * e) - loss(theta - eps * e)) / (2 * eps) for e in np.eye(theta.size)]
    )
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


# ============================================================================== ridge


def test_random_feature_ridge_matches_twin() -> None:
    X, query, w = _problem(6, P=60, d=3, c=3)
    oracle = random_feature_oracle(X, count=25, bandwidth=0.7, ridge=1e-2, seed=1)
    h, ratio = fit_weak_learner(oracle, query, w)
    twin, twin_ratio = ref.ridge_oracle(oracle.features, oracle.ridge, query.ravel(), w)
    np.testing.assert_allclose(h, twin, rtol=1e-9, atol=1e-11)
    assert ratio == pytest.approx(twin_ratio, rel=1e-9)
    assert oracle.features.shape == (60, 25)
    assert np.abs(oracle.features).max() <= math.sqrt(2 / 25)


def test_random_features_are_drawn_from_the_seed() -> None:
    X, _, _ = _problem(6)
    a = random_feature_oracle(X, count=10, seed=4).features
    np.testing.assert_array_equal(a, random_feature_oracle(X, count=10, seed=4).features)
    assert not np.array_equal(a, random_feature_oracle(X, count=10, seed=5).features)


# ============================================================================== kernel interface


_weak_learner = dispatch("weak_learner", *("r", "t", "i", "k", "query", "weights", "g", "out"))
_loss_gradient = dispatch("loss_gradient", "i", "g", "out")
_client_marginal = dispatch("client_marginal", "i")


@njit(cache=False)
def _boosting_client(
    view: Any, oracle: Any, i: int, f: np.ndarray, K: int, eta: float, mu: float
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2's client as a kernel on the two interfaces: K steps, residual reset."""
    g = f.copy()
    residual = np.zeros_like(f)
    gradient = np.empty_like(f)
    h = np.empty_like(f)
    ratios = np.empty(K)
    for k in range(K):
        _loss_gradient(view, i, g, gradient)
        phi = residual + gradient
        ratios[k] = _weak_learner(oracle, 0, 0, i, k, phi, _client_marginal(view, i), g, h)
        g = g - eta * (h + mu * g)
        residual = phi - h
    return g, ratios


def test_oracles_and_view_compose_inside_a_kernel(federation: DigitsFederation) -> None:
    """A learned oracle and the softmax view are callable from a client-step kernel through
    the documented ``weak_learner``, ``loss_gradient`` and ``client_marginal`` interfaces; the
    kernel's client loop equals the same loop on the numpy twins. (The tree stands for the
    three learners: their kernels share the signature; compiling this loop for the ridge or
    the MLP as well costs ~10 s per test run, the kernel is uncached outside the package.)"""
    view = federation.view()
    X = federation.features
    oracle = tree_oracle(X, max_depth=3)
    f = np.zeros(federation.atoms * 10)
    g, ratios = _boosting_client(view, oracle, 2, f, 3, 0.5, 0.1)
    twin_g = f.copy()
    residual = np.zeros_like(f)
    alpha = federation.alpha[2]
    for k in range(3):
        phi = residual + ref.softmax_loss_gradient(federation.labels, federation.alpha, 2, twin_g)
        h, ratio = ref.tree_oracle(X, 3, 1, phi, alpha)
        assert ratios[k] == pytest.approx(ratio, rel=1e-9)
        twin_g = twin_g - 0.5 * (h.ravel() + 0.1 * twin_g)
        residual = phi - h.ravel()
    np.testing.assert_allclose(g, twin_g, rtol=1e-9, atol=1e-12)
    assert ratios.min() > 0.0 and ratios.max() < 1.0  # a useful, imperfect learner: γ ∈ (0, 1)


# ============================================================================== digits


def test_partition_deals_every_training_point_to_exactly_one_client() -> None:
    for s in (0.0, 0.1, 0.3, 1.0):
        fed = digits_federation(s, seed=3)
        train, test = fed.train_atoms, fed.test_atoms
        assert train.size == 1437 and test.size == 360
        assert np.intersect1d(train, test).size == 0
        support = fed.alpha > 0
        assert np.array_equal(support.sum(axis=0), (fed.owners >= 0).astype(int))
        assert not support[:, test].any()
        np.testing.assert_allclose(fed.alpha.sum(axis=1), 1.0, rtol=1e-14)
        for i in range(fed.clients):
            values = fed.alpha[i, support[i]]
            assert np.all(values == values[0])  # uniform on its points
        sizes = fed.client_sizes
        assert sizes.sum() == 1437 and sizes.max() - sizes.min() <= 1


def test_partition_without_random_share_deals_sorted_label_blocks() -> None:
    """s = 0: client i holds a contiguous run of the label-sorted training points."""
    fed = digits_federation(0.0, seed=1)
    ranges = []
    for i in range(fed.clients):
        labels = np.unique(fed.labels[fed.client_atoms(i)])
        assert labels.size == labels.max() - labels.min() + 1
        ranges.append((labels.min(), labels.max()))
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges))


def test_label_skew_shrinks_as_s_grows() -> None:
    """Mean TV between a client's label law and the training set's: (1 − s)·TV(0) + O(s)."""

    def skew(fed: DigitsFederation) -> float:
        total = np.bincount(fed.labels[fed.train_atoms], minlength=10) / 1437
        client_laws = [
            np.bincount(fed.labels[fed.client_atoms(i)], minlength=10) / fed.client_sizes[i]
            for i in range(fed.clients)
        ]
        return float(np.mean([0.5 * np.abs(law - total).sum() for law in client_laws]))

    skews = [skew(digits_federation(s, seed=2)) for s in (0.0, 0.1, 0.3, 0.6, 1.0)]
    assert all(b < a for a, b in itertools.pairwise(skews))
    assert skews[0] > 0.75  # a sorted block holds 1–2 of the 10 labels
    assert skews[-1] < 0.2  # i.i.d. shares: sampling noise only


def test_partition_is_a_function_of_the_seed() -> None:
    a = digits_federation(0.3, seed=4)
    np.testing.assert_array_equal(a.owners, digits_federation(0.3, seed=4).owners)
    assert not np.array_equal(a.owners, digits_federation(0.3, seed=5).owners)


def test_softmax_gradient_matches_twin_bound_and_support(federation: DigitsFederation) -> None:
    view = federation.view()
    rng = np.random.default_rng(0)
    g = 30.0 * rng.standard_normal(federation.atoms * 10)  # large: norms approach √2
    out = np.empty_like(g)
    for i in (0, 7):
        _loss_gradient(view, i, g, out)
        np.testing.assert_allclose(
            out, ref.softmax_loss_gradient(federation.labels, federation.alpha, i, g),
            rtol=1e-13, atol=1e-15,
        )  # fmt: skip
        per_atom = out.reshape(-1, 10)
        assert np.linalg.norm(per_atom, axis=1).max() <= DIGITS_GRADIENT_BOUND
        assert np.linalg.norm(per_atom, axis=1).max() > 1.4
        assert not per_atom[federation.alpha[i] == 0].any()


def test_softmax_gradient_is_the_l2_alpha_gradient_of_the_risk(
    federation: DigitsFederation,
) -> None:
    """⟨∇R_i[g], δ⟩_{α_i} = d/dε R_i[g + εδ] at ε = 0 (central differences of the risk)."""
    view = federation.view()
    rng = np.random.default_rng(1)
    g = rng.standard_normal(federation.atoms * 10)
    out = np.empty_like(g)
    i = 4
    _loss_gradient(view, i, g, out)
    alpha = np.repeat(federation.alpha[i], 10)
    for _ in range(3):
        delta = rng.standard_normal(g.size)
        eps = 1e-5
        numeric = (
            federation.risk(g + eps * delta, client=i) - federation.risk(g - eps * delta, client=i)
        ) / (2 * eps)
        assert float(np.sum(alpha * out * delta)) == pytest.approx(numeric, rel=1e-7)


def test_accuracy_and_risk_closed_forms(federation: DigitsFederation) -> None:
    perfect = np.eye(10)[federation.labels]
    assert federation.accuracy(perfect, "train") == 1.0
    assert federation.accuracy(perfect.ravel(), "test") == 1.0
    zero = np.zeros((federation.atoms, 10))
    test_labels = federation.labels[federation.test_atoms]
    assert federation.accuracy(zero) == float(np.mean(test_labels == 0))  # argmax ties → 0
    assert federation.risk(zero) == pytest.approx(math.log(10), rel=1e-15)
    assert federation.risk(zero, client=3) == pytest.approx(math.log(10), rel=1e-15)


def test_missing_scikit_learn_raises_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    digits_module._load_digits.cache_clear()
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    try:
        with pytest.raises(MissingExtraError, match="fedtheory\\[data\\]"):
            digits_federation(0.1, seed=0)
    finally:
        digits_module._load_digits.cache_clear()


# ============================================================================== FedAvg on the MLP


def test_per_sample_cross_entropy_gradient_matches_twin_and_differences(
    federation: DigitsFederation,
) -> None:
    samples = _mlp_samples(federation, H1, H2, SLOPE)
    client = client_samples(samples, 0, 2)
    theta = net._mlp_init(np.uint64(11), 64, H1, H2, 10)
    out = np.empty_like(theta)
    for j in (0, 17):
        sample_gradient(client, j, theta, out)
        x, y = client.features[j], int(client.labels[j])
        twin = ref.cross_entropy_sample_gradient(theta, x, y, H1, H2, 10, SLOPE)
        np.testing.assert_allclose(out, twin, rtol=1e-12, atol=1e-15)

    def loss(th: np.ndarray) -> float:
        values = ref.mlp_predict(th, x[None, :], H1, H2, 10, SLOPE)[0]
        return float(np.log(np.exp(values - values.max()).sum()) + values.max() - values[y])

    for q in np.random.default_rng(0).choice(theta.size, 12, replace=False):
        e = np.zeros_like(theta)
        e[q] = 1e-6
        assert out[q] == pytest.approx((loss(theta + e) - loss(theta - e)) / 2e-6, abs=1e-7)


def test_batched_minibatch_step_equals_the_mean_of_sample_gradients(
    federation: DigitsFederation,
) -> None:
    samples = _mlp_samples(federation, H1, H2, SLOPE)
    client: MLPClientSamples = client_samples(samples, 0, 5)
    theta = net._mlp_init(np.uint64(2), 64, H1, H2, 10)
    anchor = net._mlp_init(np.uint64(3), 64, H1, H2, 10)
    rows = np.array([4, 0, 31, 7, 99], dtype=np.int64)
    fast, generic = theta.copy(), theta.copy()
    minibatch_step(client, rows, fast, anchor, 0.3, 0.2, np.empty(5))
    _minibatch_step_by_samples(client, rows, generic, anchor, 0.3, 0.2, np.empty(5))
    np.testing.assert_allclose(fast, generic, rtol=1e-13, atol=1e-15)
    assert not np.array_equal(fast, theta)


def _twin_fedavg(
    federation: DigitsFederation, rounds: int, K: int, eta: float, batch: int, seed: int
) -> np.ndarray:
    """FedAvg with the core's documented minibatch stream (ClientSampler) and the twin's
    per-sample gradients; the seed's generator draws the stream seed, then the init seed."""
    rng = np.random.default_rng(seed)
    stream = int(rng.integers(0, 2**64, dtype=np.uint64))
    init = int(rng.integers(0, 2**64, dtype=np.uint64))
    theta = ref.mlp_init(init, 64, H1, H2, 10)
    sizes = federation.client_sizes
    p = sizes / sizes.sum()
    clients = [federation.client_atoms(i) for i in range(federation.clients)]
    samplers = [ClientSampler(stream, i, int(n)) for i, n in enumerate(sizes)]
    iterates = [theta]
    for _ in range(rounds):
        models = []
        for i, atoms in enumerate(clients):
            local = theta.copy()
            sampler = samplers[i]
            for _ in range(K):
                if sampler.n - sampler.cursor < batch:
                    sampler.cursor = 0
                rows = sampler.rows(sampler.cursor, batch)
                sampler.cursor += batch
                grads = [
                    ref.cross_entropy_sample_gradient(
                        local, federation.features[atoms[j]], int(federation.labels[atoms[j]]),
                        H1, H2, 10, SLOPE,
                    )
                    for j in rows
                ]  # fmt: skip
                local = local - eta * np.mean(grads, axis=0)
            models.append(local)
        theta = theta - sum(p[i] * (theta - models[i]) for i in range(len(models)))
        iterates.append(theta)
    return np.array(iterates)


def test_fedavg_digits_matches_a_numpy_fedavg_with_the_same_streams(
    federation: DigitsFederation,
) -> None:
    run = fedavg_digits(
        federation, rounds=3, local_step=0.1, local_steps=4, batch_fraction=0.1, seed=8
    )
    batch = round(0.1 * int(federation.client_sizes.min()))
    assert run.hyperparameters["batch"] == batch
    twin = _twin_fedavg(federation, 3, 4, 0.1, batch, 8)
    np.testing.assert_allclose(run.iterates, twin, rtol=0, atol=1e-11)


def test_one_full_batch_round_is_one_gradient_step_on_the_weighted_risk() -> None:
    """K = 1 step on all of a client's points from θ_0, averaged with p_i = n_i/n: θ_1 =
    θ_0 − η Σ_i p_i ∇L_i(θ_0), the mean gradient over all training points (3 clients of
    1437/3 = 479 points each, so that batch_fraction 1 is every client's full batch)."""
    equal = digits_federation(0.3, clients=3, seed=0)
    assert equal.client_sizes.tolist() == [479, 479, 479]
    run = fedavg_digits(equal, rounds=1, local_step=0.5, local_steps=1, batch_fraction=1.0, seed=1)
    theta0 = run.iterates[0]
    grads = [
        ref.cross_entropy_sample_gradient(
            theta0, equal.features[x], int(equal.labels[x]), H1, H2, 10, SLOPE
        )
        for x in equal.train_atoms
    ]
    expected = theta0 - 0.5 * np.mean(grads, axis=0)
    np.testing.assert_allclose(run.iterates[1], expected, rtol=0, atol=1e-13)


def test_fedavg_digits_counts_two_models_per_round_and_learns(
    federation: DigitsFederation,
) -> None:
    run = fedavg_digits(federation, rounds=30, local_step=0.1, seed=0)
    np.testing.assert_array_equal(run.models_exchanged, 2.0 * np.arange(31))
    assert run.trace.participants[:30].tolist() == [10] * 30
    assert run.trace.local_steps[:30].tolist() == [250] * 30
    assert run.test_accuracy[0] < 0.3 < 0.6 < run.test_accuracy[-1]
    assert run.rounds == 30
    np.testing.assert_allclose(
        mlp_values(run.global_model, federation.features),
        ref.mlp_predict(run.global_model, federation.features, H1, H2, 10, SLOPE),
        rtol=1e-12, atol=1e-12,
    )  # fmt: skip


def test_fedavg_digits_partial_participation_and_determinism(
    federation: DigitsFederation,
) -> None:
    run = fedavg_digits(federation, rounds=4, local_step=0.1, clients_per_round=3, seed=2)
    assert run.trace.participants[:4].tolist() == [3] * 4
    assert run.trace.uploads[:4].tolist() == [3] * 4
    again = fedavg_digits(federation, rounds=4, local_step=0.1, clients_per_round=3, seed=2)
    np.testing.assert_array_equal(run.iterates, again.iterates)


def test_fedavg_digits_divergence_raises(federation: DigitsFederation) -> None:
    with pytest.raises(DivergenceError, match="fedavg_digits diverged at round 0"):
        fedavg_digits(federation, rounds=3, local_step=100.0, seed=0)


# ============================================================================== bad input


def _assert_parameter_error(error: pytest.ExceptionInfo[ParameterError], parameter: str) -> None:
    assert error.value.parameter == parameter
    assert error.value.rule
    assert str(error.value).startswith(f"{parameter}=")


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"features": [1.0, 2.0]}, "features"),
        ({"features": [[np.nan]]}, "features"),
        ({"max_depth": 0}, "max_depth"),
        ({"max_depth": 17}, "max_depth"),
        ({"max_depth": 2.0}, "max_depth"),
        ({"min_leaf": 0}, "min_leaf"),
    ],
)
def test_tree_oracle_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    arguments = {"features": [[0.0], [1.0]], **kwargs}
    with pytest.raises(ParameterError) as error:
        tree_oracle(**arguments)
    _assert_parameter_error(error, parameter)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"hidden": (32,)}, "hidden"),
        ({"hidden": (32, 0)}, "hidden[1]"),
        ({"slope": 1.0}, "slope"),
        ({"steps": 0}, "steps"),
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"seed": -1}, "seed"),
    ],
)
def test_mlp_oracle_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    arguments = {"features": [[0.0], [1.0]], "seed": 0, **kwargs}
    with pytest.raises(ParameterError) as error:
        mlp_oracle(**arguments)
    _assert_parameter_error(error, parameter)


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [({"count": 0}, "count"), ({"bandwidth": 0.0}, "bandwidth"), ({"ridge": -1.0}, "ridge")],
)
def test_random_feature_oracle_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    arguments = {"features": [[0.0], [1.0]], "seed": 0, **kwargs}
    with pytest.raises(ParameterError) as error:
        random_feature_oracle(**arguments)
    _assert_parameter_error(error, parameter)


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        (("oracle", [1.0, 2.0], [0.5, 0.5]), "oracle"),
        ((None, [1.0, 2.0, 3.0], [0.5, 0.5]), "query"),
        ((None, [1.0, np.inf], [0.5, 0.5]), "query"),
        ((None, [1.0, 2.0], [0.5, 0.4]), "weights"),
        ((None, [1.0, 2.0], [1.5, -0.5]), "weights"),
    ],
)
def test_fit_weak_learner_bad_input(arguments: tuple, parameter: str) -> None:
    oracle, query, weights = arguments
    with pytest.raises(ParameterError) as error:
        fit_weak_learner(tree_oracle([[0.0], [1.0]]) if oracle is None else oracle, query, weights)
    _assert_parameter_error(error, parameter)
    with pytest.raises(ParameterError) as error:
        fit_weak_learner(tree_oracle([[0.0], [1.0]]), [1.0, 2.0], [0.5, 0.5], call=(0, 0, -1, 0))
    _assert_parameter_error(error, "call")


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"s": -0.1}, "s"),
        ({"s": 1.5}, "s"),
        ({"clients": 0}, "clients"),
        ({"clients": 1438}, "clients"),
        ({"test_fraction": 0.0}, "test_fraction"),
        ({"test_fraction": 1.0}, "test_fraction"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_digits_federation_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    arguments = {"s": 0.1, "seed": 0, **kwargs}
    with pytest.raises(ParameterError) as error:
        digits_federation(**arguments)
    _assert_parameter_error(error, parameter)


def test_federation_methods_bad_input(federation: DigitsFederation) -> None:
    with pytest.raises(ParameterError) as error:
        federation.accuracy(np.zeros(10))
    _assert_parameter_error(error, "f")
    with pytest.raises(ParameterError) as error:
        federation.accuracy(np.zeros((federation.atoms, 10)), "validation")  # type: ignore[arg-type]
    _assert_parameter_error(error, "split")
    with pytest.raises(ParameterError) as error:
        federation.risk(np.zeros((federation.atoms, 10)), client=10)
    _assert_parameter_error(error, "client")


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"federation": "digits"}, "federation"),
        ({"rounds": -1}, "rounds"),
        ({"local_step": 0.0}, "local_step"),
        ({"local_steps": 0}, "local_steps"),
        ({"batch_fraction": 1.5}, "batch_fraction"),
        ({"clients_per_round": 11}, "clients_per_round"),
        ({"hidden": (32, 32, 32)}, "hidden"),
    ],
)
def test_fedavg_digits_bad_input(
    federation: DigitsFederation, kwargs: dict[str, Any], parameter: str
) -> None:
    arguments = {"federation": federation, "rounds": 1, "local_step": 0.1, "seed": 0, **kwargs}
    with pytest.raises(ParameterError) as error:
        fedavg_digits(**arguments)
    _assert_parameter_error(error, parameter)


def test_mlp_values_bad_input() -> None:
    with pytest.raises(ParameterError) as error:
        mlp_values(np.zeros(5), np.zeros((3, 64)))
    _assert_parameter_error(error, "theta")


def test_oracle_types_are_named_tuples_with_the_kernel() -> None:
    for kind in (TreeOracle, MLPOracle, RandomFeatureOracle):
        assert hasattr(kind, "weak_learner") and issubclass(kind, tuple)
