"""Networks and gradient slices of FedLRGD App. C: per-sample gradients against finite differences
and batch backpropagation, the slice tensor (75)–(76), the approximate rank (77), the rank-1 guard,
determinism and bad input."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from fedtheory.errors import DivergenceError, FedTheoryError, ParameterError
from fedtheory.papers.fedlrgd import networks
from fedtheory.papers.fedlrgd.networks import (
    MissingExtraError,
    Network,
    app_c_perturbations,
    digits_split,
    energy_rank,
    energy_ranks,
    finite_difference_check,
    gaussian_null_ranks,
    gradient_slices,
    nontrivial_coordinates,
    one_hot,
    sample_coordinates,
    slice_rank_study,
    train_sgd,
)

ARCHITECTURES = [((64, 32, 10), "sigmoid"), ((64, 32, 10), "relu"), ((64, 24, 16, 10), "sigmoid"),
                 ((64, 24, 16, 10), "relu")]  # fmt: skip


def _synthetic(n: int, seed: int, inputs: int = 64, classes: int = 10) -> tuple[np.ndarray, ...]:
    """Images in [0, 1]^64 with ~30% exact zeros (like the digits' blank pixels), random labels."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, inputs)) * (rng.random((n, inputs)) > 0.3)
    return X, one_hot(rng.integers(0, classes, size=n), classes)


@pytest.fixture(scope="module")
def digits() -> networks.DigitsSplit:
    pytest.importorskip("sklearn")
    return digits_split(0)


@pytest.fixture(scope="module")
def trained(digits: networks.DigitsSplit) -> tuple[Network, np.ndarray]:
    net = Network((64, 24, 10), "sigmoid")
    run = train_sgd(
        net, digits.X_train, digits.Y_train, epochs=40, batch_size=100, learning_rate=1.0, seed=3
    )
    return net, run.theta


# ---------------------------------------------------------------------------------------------
# Per-sample gradients
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sizes", "activation"), ARCHITECTURES)
def test_per_sample_gradients_match_central_differences(sizes, activation):
    net = Network(sizes, activation)
    X, Y = _synthetic(40, seed=1)
    rng = np.random.default_rng(2)
    for point in range(2):  # the Glorot initialisation and a generic point around it
        theta = net.initial_parameters(10 + point) + point * 0.3 * rng.standard_normal(net.n_params)
        coordinates = rng.choice(net.n_params, size=50, replace=False)
        check = finite_difference_check(net, theta, X, Y, coordinates)
        assert check.errors.shape == (50,)
        assert check.max_error < 1e-5, (activation, point, check.max_error)
        if activation == "sigmoid":
            assert not check.excluded.any()


def test_finite_differences_on_the_trained_digits_network(trained, digits):
    net, theta = trained
    coordinates = np.random.default_rng(0).choice(net.n_params, size=50, replace=False)
    check = finite_difference_check(net, theta, digits.X_test[:60], digits.Y_test[:60], coordinates)
    assert check.max_error < 1e-5


def test_relu_kinks_are_excluded_from_the_comparison():
    net = Network((2, 1, 2), "relu")
    theta = np.zeros(net.n_params)  # W1 (1×2), b1, W2 (2×1), b2
    theta[0] = 1e-7  # pre-activation of sample 0 is 1e−7: θ ± 1e−5 e_0 straddles the kink
    theta[4], theta[5] = 1.0, -1.0
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    theta[1] = 0.5  # sample 1 sits far from the kink
    Y = one_hot(np.array([0, 1]), 2)
    check = finite_difference_check(net, theta, X, Y, np.array([0, 1]))
    assert check.excluded.tolist() == [1, 0]
    assert check.max_error < 1e-8


@pytest.mark.parametrize(("sizes", "activation"), ARCHITECTURES)
def test_per_sample_gradients_average_to_the_batch_gradient(sizes, activation):
    net = Network(sizes, activation)
    X, Y = _synthetic(30, seed=4)
    theta = net.initial_parameters(5)
    per_sample = net.per_sample_gradients(theta, X, Y)
    batch = net.batch_gradient(theta, X, Y)
    assert per_sample.shape == (30, net.n_params)
    np.testing.assert_allclose(per_sample.mean(axis=0), batch, rtol=1e-12, atol=1e-15)
    # and the selected-coordinates path returns exactly the same columns
    q = np.array([0, 7, net.n_params - 1, 3, 64 * sizes[1] + 2])
    np.testing.assert_array_equal(net.per_sample_gradients(theta, X, Y, q), per_sample[:, q])


def test_layout_and_unpack_agree_with_locate():
    net = Network((3, 4, 2), "relu")
    theta = np.arange(net.n_params, dtype=float)
    assert net.n_params == 4 * 3 + 4 + 2 * 4 + 2
    (W1, b1), (W2, b2) = net.unpack(theta)
    layer, row, column = net.locate(np.arange(net.n_params))
    for q in range(net.n_params):
        if column[q] < 0:
            value = (b1, b2)[layer[q]][row[q]]
        else:
            value = (W1, W2)[layer[q]][row[q], column[q]]
        assert value == q
    assert Network((64, 64, 10)).n_params == 4810  # 75 K + 10 (guide §4.4)


def test_losses_are_the_cross_entropy():
    net = Network((4, 3, 5), "sigmoid")
    X, Y = _synthetic(6, seed=0, inputs=4, classes=5)
    theta = net.initial_parameters(1)
    (W1, b1), (W2, b2) = net.unpack(theta)
    hidden = 1 / (1 + np.exp(-(X @ W1.T + b1)))
    logits = hidden @ W2.T + b2
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(net.losses(theta, X, Y), -np.log((p * Y).sum(axis=1)), rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# Slices (75)-(76), approximate rank (77), the rank-1 guard
# ---------------------------------------------------------------------------------------------


def test_slices_hold_per_sample_gradients_at_the_perturbations(trained, digits):
    net, theta = trained
    q = sample_coordinates(theta, 40, seed=1)
    sl = gradient_slices(net, theta, digits.X_test, digits.Y_test, k=7, coordinates=q, seed=2)
    assert sl.slices.shape == (40, 7, 7)
    assert sl.perturbation_scale == pytest.approx(np.abs(theta).sum() / theta.size)
    # rebuild column j from the same streams: rows are data, columns perturbed parameters
    _, perturbation_seed = np.random.SeedSequence(networks._entropy(2)).spawn(2)
    thetas = app_c_perturbations(theta, 7, seed=perturbation_seed)
    xs, ys = digits.X_test[sl.samples], digits.Y_test[sl.samples]
    for j in (0, 6):
        np.testing.assert_array_equal(
            sl.slices[:, :, j], net.per_sample_gradients(thetas[j], xs, ys, q).T
        )


def test_perturbations_follow_eq_75():
    theta = np.array([1.0, -2.0, 0.0, 3.0])
    thetas = app_c_perturbations(theta, 20000, seed=0)
    assert thetas.shape == (20000, 4)
    noise = thetas - theta
    np.testing.assert_allclose(noise.std(axis=0), 1.5, rtol=0.03)  # ‖θ‖₁/p = 6/4
    np.testing.assert_allclose(noise.mean(axis=0), 0.0, atol=0.05)


def test_batch_averaged_gradients_give_rank_one_slices_but_real_ones_do_not(trained, digits):
    """The guide's guard (V16): averaging over samples makes every row of a slice equal."""
    net, theta = trained
    q = sample_coordinates(theta, 200, seed=3)
    sl = gradient_slices(net, theta, digits.X_test, digits.Y_test, k=30, coordinates=q, seed=4)
    real = energy_ranks(sl.slices)
    assert (real[real > 0] > 1).mean() > 0.5
    thetas = app_c_perturbations(theta, 30, seed=5)
    xs, ys = digits.X_test[sl.samples], digits.Y_test[sl.samples]
    columns = np.stack([net.batch_gradient(t, xs, ys)[q] for t in thetas], axis=1)  # (q, k)
    averaged = np.repeat(columns[:, None, :], 30, axis=1)  # every row the batch mean
    ranks = energy_ranks(averaged)
    assert set(ranks[ranks > 0].tolist()) == {1}


def test_zero_slices_are_blank_pixels(trained, digits):
    net, theta = trained
    q = sample_coordinates(theta, 400, seed=6)
    sl = gradient_slices(net, theta, digits.X_test, digits.Y_test, k=20, coordinates=q, seed=7)
    zero = energy_ranks(sl.slices) == 0
    layer, _, column = net.locate(q)
    blank = ~digits.X_test[sl.samples].any(axis=0)  # pixels 0 in every sampled image
    expected = (layer == 0) & (column >= 0) & blank[np.maximum(column, 0)]
    np.testing.assert_array_equal(zero, expected)
    assert zero.any()


def test_approximate_rank_is_eq_77():
    assert energy_rank(np.diag([3.0, 1.0, 0.1])) == 2
    assert energy_rank(np.diag([3.0, 1.0, 0.1]), energy=0.899) == 1
    assert energy_rank(np.diag([1.0, 1.0, 1.0])) == 3
    assert energy_rank(np.diag([2.0, 1.0]), energy=0.8) == 1  # 4/5 ≥ 0.8 exactly
    rng = np.random.default_rng(0)
    for trial in range(20):
        M = rng.standard_normal((8, 5)) * rng.random(5) ** 3
        s = np.linalg.svd(M, compute_uv=False)
        energy = rng.uniform(0.05, 0.99)
        brute = min(J for J in range(1, 6) if (s[:J] ** 2).sum() >= energy * (M**2).sum())
        assert energy_rank(M, energy) == brute, trial
    low = rng.standard_normal((30, 3)) @ rng.standard_normal((3, 30))
    assert energy_rank(low, energy=0.999999) <= 3


def test_approximate_ranks_marks_zero_slices():
    stack = np.stack([np.eye(4), np.zeros((4, 4)), np.outer(np.ones(4), np.arange(4.0))])
    assert energy_ranks(stack).tolist() == [4, 0, 1]
    with pytest.raises(ParameterError, match="non-zero"):
        energy_rank(np.zeros((3, 3)))


def test_gaussian_null_at_k_60_is_about_31():
    null = gaussian_null_ranks(60, 300, seed=0)
    assert np.median(null) == 31
    assert null.min() >= 28 and null.max() <= 34
    assert gaussian_null_ranks(5, 3, seed=1, columns=9).shape == (3,)


def test_nontrivial_coordinates_use_the_threshold():
    theta = np.array([0.005, -0.0049, 0.2, -0.005, 0.0])
    assert nontrivial_coordinates(theta).tolist() == [0, 2, 3]
    assert sample_coordinates(theta, 10, seed=0).tolist() == [0, 2, 3]
    picked = sample_coordinates(np.ones(100), 10, seed=0)
    assert picked.size == 10 and np.all(np.diff(picked) > 0)


# ---------------------------------------------------------------------------------------------
# Training, the whole study, determinism
# ---------------------------------------------------------------------------------------------


def test_sgd_trains_the_digits(digits):
    net = Network((64, 16, 10), "relu")
    run = train_sgd(
        net, digits.X_train, digits.Y_train, epochs=30, batch_size=64, learning_rate=0.5, seed=0
    )
    assert run.epoch_losses[-1] < 0.25 * run.epoch_losses[0]
    assert net.accuracy(run.theta, digits.X_test, digits.Y_test) > 0.9
    assert run.steps == 30 * int(np.ceil(digits.X_train.shape[0] / 64))
    assert digits.X_train.shape == (1437, 64) and digits.X_test.shape == (360, 64)
    assert digits.X_train.min() >= 0 and digits.X_train.max() <= 1


def test_determinism(digits):
    net = Network((64, 8, 10), "sigmoid")
    kwargs = {"epochs": 3, "batch_size": 50, "learning_rate": 0.5}
    a = train_sgd(net, digits.X_train, digits.Y_train, seed=np.random.SeedSequence(7), **kwargs)
    b = train_sgd(net, digits.X_train, digits.Y_train, seed=np.random.SeedSequence(7), **kwargs)
    c = train_sgd(net, digits.X_train, digits.Y_train, seed=8, **kwargs)
    np.testing.assert_array_equal(a.theta, b.theta)
    assert not np.array_equal(a.theta, c.theta)
    np.testing.assert_array_equal(digits_split(3).X_test, digits_split(3).X_test)
    study = {"hidden": (8,), "k": 10, "n_slices": 30, "epochs": 2, "batch_size": 100}
    s1 = slice_rank_study(activation="relu", seed=11, **study)
    s2 = slice_rank_study(activation="relu", seed=11, **study)
    np.testing.assert_array_equal(s1.slices.slices, s2.slices.slices)
    np.testing.assert_array_equal(s1.ranks, s2.ranks)
    np.testing.assert_array_equal(s1.null_ranks, s2.null_ranks)
    assert s1.zero_slices + s1.valid_ranks.size == 30
    s3 = slice_rank_study(activation="relu", seed=12, **study)
    assert not np.array_equal(s1.slices.slices, s3.slices.slices)


def test_divergence_is_reported():
    net = Network((64, 16, 10), "relu")
    X, Y = _synthetic(50, seed=0)
    with pytest.raises(DivergenceError, match="minibatch SGD"):
        train_sgd(net, X, Y, epochs=5, batch_size=10, learning_rate=1e100, seed=0)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: Network((64,), "relu"), "sizes"),
        (lambda: Network((64, 0, 10), "relu"), "sizes[1]"),
        (lambda: Network((64, 2.5, 10), "relu"), "sizes[1]"),
        (lambda: Network("64", "relu"), "sizes"),
        (lambda: Network((64, 8, 10), "tanh"), "activation"),
        (lambda: energy_rank(np.eye(3), energy=0.0), "energy"),
        (lambda: energy_rank(np.eye(3), energy=1.5), "energy"),
        (lambda: energy_rank(np.ones(3)), "matrix"),
        (lambda: energy_rank(np.array([[np.nan]])), "matrix"),
        (lambda: energy_ranks(np.eye(3)), "stack"),
        (lambda: gaussian_null_ranks(0, 5, seed=0), "k"),
        (lambda: gaussian_null_ranks(5, 0, seed=0), "count"),
        (lambda: gaussian_null_ranks(5, 5, seed=None), "seed"),
        (lambda: app_c_perturbations(np.ones(3), 0, seed=0), "k"),
        (lambda: sample_coordinates(np.ones(3), 0, seed=0), "count"),
        (lambda: sample_coordinates(np.zeros(3), 2, seed=0), "threshold"),
        (lambda: nontrivial_coordinates(np.ones(3), -1.0), "threshold"),
        (lambda: one_hot(np.array([0, 3]), 3), "labels"),
        (lambda: digits_split(0, test_fraction=1.0), "test_fraction"),
    ],
)
def test_bad_input_names_parameter_value_and_rule(call, parameter):
    with pytest.raises(ParameterError) as info:
        call()
    assert info.value.parameter == parameter
    assert info.value.rule


def test_bad_data_and_training_arguments():
    net = Network((4, 3, 2), "sigmoid")
    X, Y = _synthetic(5, seed=0, inputs=4, classes=2)
    theta = net.initial_parameters(0)
    cases = [
        (lambda: net.losses(theta[:-1], X, Y), "theta"),
        (lambda: net.losses(theta, X[:, :3], Y), "X"),
        (lambda: net.losses(theta, X, Y[:, :1]), "Y"),
        (lambda: net.per_sample_gradients(theta, X, Y, np.array([net.n_params])), "coordinates"),
        (lambda: net.per_sample_gradients(theta, X, Y, np.array([0.5])), "coordinates"),
        (lambda: train_sgd(net, X, Y, epochs=0, batch_size=2, learning_rate=0.1, seed=0), "epochs"),
        (lambda: train_sgd(net, X, Y, epochs=1, batch_size=0, learning_rate=0.1, seed=0),
         "batch_size"),
        (lambda: train_sgd(net, X, Y, epochs=1, batch_size=2, learning_rate=-1.0, seed=0),
         "learning_rate"),
        (lambda: gradient_slices(net, theta, X, Y, k=6, coordinates=np.array([0]), seed=0), "k"),
        (lambda: gradient_slices(net, theta, X, Y, k=0, coordinates=np.array([0]), seed=0), "k"),
        (lambda: finite_difference_check(net, theta, X, Y, np.array([0]), step=0.0), "step"),
    ]  # fmt: skip
    for call, parameter in cases:
        with pytest.raises(ParameterError) as info:
            call()
        assert info.value.parameter == parameter, parameter


def test_missing_scikit_learn_names_the_data_extra(monkeypatch):
    networks._load_digits.cache_clear()
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    try:
        with pytest.raises(MissingExtraError, match=r"fedtheory\[data\]") as info:
            digits_split(0)
        assert isinstance(info.value, FedTheoryError) and isinstance(info.value, ImportError)
    finally:
        networks._load_digits.cache_clear()
