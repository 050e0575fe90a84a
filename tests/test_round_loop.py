"""The one federated round loop: pluggable client and server steps, the trace counted where the
work happens, the static-dispatch idiom and the package-wide numba cache stamp (DESIGN §3–§4).

Theory asserted:
- a client step defined outside the package (a GIFAIR-like per-client scaling of the local
  gradient step, written in this file) runs on the core loop and reproduces plain numpy;
- the generic minibatch step (per-sample gradients) equals the fast linear-loss kernel;
- federated GD on a FederatedDataset is full-batch GD on the p = n_i/N objective;
- the loop counts participants, uploads and the per-client maximum of gradient calls itself;
- the per-sample loss kernel ℓ(w; z_j) and the client loss (1/n_i) Σ_j ℓ equal numpy;
- LocalSGD with a (rows, L) step table and per-client multipliers η·scales[r, i] equals the twin,
  and unit multipliers change no bit.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np
import pytest
from reference.federated import federated_rounds
from reference.federated import sample_gradient as sample_gradient_twin
from reference.federated import sample_loss as sample_loss_twin

from fedtheory import _jit
from fedtheory._jit import dispatch, njit
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.client_steps import FullGradientSum, LocalSGD
from fedtheory.algorithms.server_steps import GradientStep, ModelAverage, ServerStep
from fedtheory.algorithms.trace import (
    COUNTERS,
    FLOATS_DOWN,
    GRADIENT_CALLS,
    LOCAL_STEPS,
    Trace,
    TraceRecorder,
)
from fedtheory.errors import ParameterError
from fedtheory.problems._linear_samples import (
    LinearSamples,
    _client_samples,
    _max_sample_count,
    _sample_count,
    _sample_gradient,
    linear_samples,
)
from fedtheory.problems._oracle import (
    client_loss,
    client_samples,
    minibatch_step,
    minibatch_steps,
    sample_count,
    sample_gradient,
    sample_loss,
)
from fedtheory.problems.dataset import LOSSES, FederatedDataset, sample_losses


def _dataset(loss: str, m: int = 3, n: int = 6, d: int = 3, seed: int = 0) -> FederatedDataset:
    rng = np.random.default_rng(seed)
    features = rng.standard_normal((m, n, d))
    targets = (
        np.where(rng.random((m, n)) < 0.5, 1.0, -1.0)
        if loss == "logistic"
        else rng.standard_normal((m, n))
        if loss == "squared"
        else np.zeros((m, n))
    )
    return FederatedDataset(features, targets, [n] * m, loss)


def _everyone(rows: int, m: int) -> tuple[np.ndarray, ...]:
    """Every client trains and uploads in every row, in increasing order."""
    order = np.tile(np.arange(m), (1, rows, 1)).astype(np.int64)
    counts = np.full((1, rows), m, dtype=np.int64)
    return order, counts, order, counts, np.ones(rows, dtype=np.bool_)


# ---------------------------------------------------------------- a client step from outside


@njit
def _scaled_state(rule, problem, r, m, d):  # type: ignore[no-untyped-def]
    return (np.empty(d),)


@njit
def _scaled_update(rule, problem, state, r, t, i, server_model, w, row):  # type: ignore[no-untyped-def]
    """One full-batch gradient step from w^g, scaled per client: w ← w^g − η s_i ∇L_i(w^g)."""
    (one,) = state
    d = w.shape[0]
    samples = client_samples(problem, r, i)
    n = sample_count(samples)
    total = np.zeros(d)
    for j in range(n):
        sample_gradient(samples, j, server_model, one)
        total += one
    for k in range(d):
        w[k] = server_model[k] - rule.eta * rule.scales[i] * total[k] / n
    row[GRADIENT_CALLS] += n  # counted where the oracle is called
    row[LOCAL_STEPS] += 1
    row[FLOATS_DOWN] += d  # the client received w^g


class _ScaledGradientStepFields(NamedTuple):
    eta: float
    scales: np.ndarray


class ScaledGradientStep(_ScaledGradientStepFields):
    """A reweighted client step (the shape of GIFAIR's): client i's step is scaled by s_i."""

    __slots__ = ()

    client_state = _scaled_state
    client_update = _scaled_update


def test_a_client_step_written_outside_the_package_runs_on_the_loop() -> None:
    data = _dataset("squared", seed=1)
    problem = linear_samples([data])
    scales = np.array([0.5, 1.0, 2.0])
    rows, eta = 4, 0.1
    out = _round_loop(
        problem,
        ScaledGradientStep(eta, scales),
        ModelAverage(),
        *_everyone(rows, data.m),
        np.zeros((1, data.d)),
        np.zeros((1, data.m, data.d)),
        True,
    )
    server, _, counts, _, iterates, _ = out
    w = np.zeros(data.d)
    for t in range(rows):
        updates = []
        for i in range(data.m):
            X, y = data.client(i)
            gradient = X.T @ (X @ w - y) / X.shape[0]
            updates.append(w - eta * scales[i] * gradient)
        w = np.mean(updates, axis=0)
        np.testing.assert_allclose(iterates[0, t + 1], w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(server[0], w, rtol=1e-12)
    trace = Trace.from_counts(counts[0])
    assert trace.participants.tolist() == [3] * rows and trace.uploads.tolist() == [3] * rows
    assert trace.gradient_calls.tolist() == [18] * rows
    assert trace.max_client_gradient_calls.tolist() == [6] * rows
    assert trace.floats_up.tolist() == [9] * rows and trace.floats_down.tolist() == [9] * rows
    # The specialisation for a class of this test module is not written to the package's cache
    # index, which every process reads (another process could not import this module).
    indexes = Path(_jit.__file__).parent.rglob("_round_loop*.nbi")
    assert not any(b"test_round_loop" in index.read_bytes() for index in indexes)


# ---------------------------------------------------------------- the oracle kernels


@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_sample_gradient_matches_twin(loss: str) -> None:
    data = _dataset(loss, seed=2)
    problem = linear_samples([data])
    w = np.array([0.3, -1.2, 0.7])
    out = np.empty(3)
    for i in range(data.m):
        samples = client_samples(problem, 0, i)
        assert sample_count(samples) == data.counts[i]
        for j in range(data.counts[i]):
            sample_gradient(samples, j, w, out)
            twin = sample_gradient_twin(LOSSES[loss], data.features[i, j], data.targets[i, j], w)
            np.testing.assert_allclose(out, twin, rtol=1e-13, atol=1e-15)


class _SlowClientSamplesFields(NamedTuple):
    loss: int
    features: np.ndarray
    targets: np.ndarray


class _SlowClientSamples(_SlowClientSamplesFields):
    """A client's linear-loss samples without their minibatch kernel: LocalSGD then takes the
    generic step written with per-sample gradients."""

    __slots__ = ()

    sample_count = _sample_count
    sample_gradient = _sample_gradient


@njit
def _slow_client_samples(problem, r, i):  # type: ignore[no-untyped-def]
    fast = _client_samples(problem, r, i)
    return _SlowClientSamples(fast.loss, fast.features, fast.targets)


class _LinearSamplesWithoutFastPath(LinearSamples):
    __slots__ = ()

    client_samples = _slow_client_samples
    max_sample_count = _max_sample_count


@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_generic_minibatch_step_equals_the_fast_kernel(loss: str) -> None:
    data = _dataset(loss, m=2, n=9, seed=3)
    fast = linear_samples([data])
    slow = _LinearSamplesWithoutFastPath(*fast)
    rule = LocalSGD(
        work=np.array([2, 1, 0], dtype=np.int64),
        epochs=True,
        batch=4,
        steps=np.array([[0.2, 0.1]]),
        scales=np.ones((1, 2)),
        lam=0.3,
        radius=np.inf,
        warm_start=True,
        receives_server_model=True,
        seeds=np.array([12345], dtype=np.uint64),
    )
    server = ServerStep(np.array([1.0, 1.0, 0.0]), np.full((1, 2), 0.5), False, np.inf)
    schedule = _everyone(3, 2)
    start = (np.full((1, 3), 0.1), np.zeros((1, 2, 3)), False)
    with np.errstate(over="ignore"):
        a = _round_loop(fast, rule, server, *schedule, *start)
        b = _round_loop(slow, rule, server, *schedule, *start)
    np.testing.assert_allclose(a[1], b[1], rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(a[2], b[2])


@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
@pytest.mark.parametrize("lam", [0.0, 0.3])
def test_consecutive_steps_in_one_call_equal_one_call_per_step(loss: str, lam: float) -> None:
    """``minibatch_steps`` (the fast kernel of a block of steps, drawn ahead) gives the bits of
    ``minibatch_step`` called once per block, for full and partial blocks."""
    data = _dataset(loss, m=1, n=23, seed=5)
    samples = client_samples(linear_samples([data]), 0, 0)
    rng = np.random.default_rng(6)
    sizes = np.array([8, 8, 7, 5, 1, 3], dtype=np.int64)
    rows = rng.integers(0, 23, sizes.sum())
    etas = rng.uniform(0.05, 0.2, sizes.size)
    anchor = rng.standard_normal(3)
    start = rng.standard_normal(3)
    together, apart = start.copy(), start.copy()
    minibatch_steps(samples, rows, sizes, etas, together, anchor, lam, np.empty(16))
    offset = 0
    for size, eta in zip(sizes, etas, strict=True):
        minibatch_step(samples, rows[offset : offset + size], apart, anchor, eta, lam, np.empty(8))
        offset += size
    np.testing.assert_array_equal(together, apart)
    assert not np.array_equal(together, start)


def test_federated_gd_on_a_dataset_is_full_batch_gd() -> None:
    data = _dataset("logistic", m=3, n=5, seed=4)
    X = data.features.reshape(-1, 3)
    y = data.targets.reshape(-1)
    eta, rows = 0.5, 6
    out = _round_loop(
        linear_samples([data]),
        FullGradientSum(),
        GradientStep(step=eta, samples=float(data.N)),
        *_everyone(rows, 3),
        np.zeros((1, 3)),
        np.zeros((1, 3, 3)),
        False,
    )
    w = np.zeros(3)
    for _ in range(rows):
        gradient = -(X.T @ (y / (1.0 + np.exp(y * (X @ w))))) / data.N
        w = w - eta * gradient
    np.testing.assert_allclose(out[0][0], w, rtol=1e-12)
    trace = Trace.from_counts(out[2][0])
    assert trace.server_gradient_calls.tolist() == [0] * rows  # no server samples
    assert trace.max_client_gradient_calls.tolist() == [5] * rows


# ---------------------------------------------------------------- the trace


def test_trace_from_counts_checks_shapes_and_slices_replicates() -> None:
    counts = np.arange(2 * 3 * len(COUNTERS)).reshape(2, 3, len(COUNTERS))
    trace = Trace.from_counts(counts)
    assert trace.rows == 3 and np.isnan(trace.losses).all()
    one = trace.replicate(1)
    assert one.uploads.tolist() == counts[1, :, 1].tolist()
    assert trace.total("gradient_calls") == int(counts[..., GRADIENT_CALLS].sum())
    assert (one.floats_communicated == one.floats_up + one.floats_down).all()
    with pytest.raises(ParameterError, match="counts"):
        Trace.from_counts(np.zeros((3, 2)))
    with pytest.raises(ParameterError, match="losses"):
        Trace.from_counts(np.zeros((3, len(COUNTERS))), np.zeros(4))
    with pytest.raises(ParameterError, match="single run"):
        one.replicate(0)
    with pytest.raises(ParameterError, match="below 2"):
        trace.replicate(2)
    with pytest.raises(ParameterError, match="counter"):
        trace.total("bits")


def test_trace_recorder_refuses_an_open_row_and_unknown_clients() -> None:
    recorder = TraceRecorder(clients=2)
    recorder.count_upload(1, floats=3)
    with pytest.raises(ParameterError, match="end_row"):
        recorder.freeze()
    with pytest.raises(ParameterError, match="client"):
        recorder.count_gradients(1, by=2)
    with pytest.raises(ParameterError, match="calls"):
        recorder.count_gradients(-1, by="server")
    recorder.end_row(loss=0.25)
    trace = recorder.freeze()
    assert trace.participants.tolist() == [1] and trace.losses.tolist() == [0.25]


# ---------------------------------------------------------------- the numba idioms


class _NoKernel(NamedTuple):
    value: float


def test_dispatch_names_the_missing_kernel() -> None:
    missing = dispatch("missing_kernel")
    with pytest.raises(TypeError, match="_NoKernel has no kernel 'missing_kernel'"):
        missing(_NoKernel(1.0))

    @njit(cache=False)
    def call(obj):  # type: ignore[no-untyped-def]
        return missing(obj)

    if not _jit.jit_disabled():
        with pytest.raises(numba.core.errors.TypingError, match="has no kernel 'missing_kernel'"):
            call(_NoKernel(1.0))


def test_dispatch_falls_back_to_the_default() -> None:
    @njit(cache=False)
    def half(obj, x):  # type: ignore[no-untyped-def]
        return 0.5 * x

    halve = dispatch("halve", "x", default=half)

    @njit(cache=False)
    def call(obj, x):  # type: ignore[no-untyped-def]
        return halve(obj, x)

    assert halve(_NoKernel(1.0), 3.0) == 1.5
    assert call(_NoKernel(1.0), 3.0) == 1.5


def test_cache_stamp_covers_every_kernel_module(tmp_path: Path) -> None:
    """Editing any kernel module (one that imports fedtheory._jit) changes the stamp of every
    cached kernel; other modules do not."""
    (tmp_path / "a.py").write_text("from fedtheory._jit import njit\nX = 1\n")
    (tmp_path / "b.py").write_text("X = 1\n")
    before = _jit.kernel_sources_digest(tmp_path)
    (tmp_path / "b.py").write_text("X = 2\n")
    assert _jit.kernel_sources_digest(tmp_path) == before
    (tmp_path / "a.py").write_text("from fedtheory._jit import njit\nX = 2\n")
    assert _jit.kernel_sources_digest(tmp_path) != before


def test_cacheable_types_are_numba_and_package_types() -> None:
    from numba import typeof

    assert _jit._cacheable(typeof(np.zeros((2, 3))))
    assert _jit._cacheable(typeof(ModelAverage()))
    assert _jit._cacheable(typeof((1.0, np.zeros(2))))
    assert not _jit._cacheable(typeof(ScaledGradientStep(0.1, np.ones(2))))
    assert not _jit._cacheable(typeof((1.0, _NoKernel(2.0))))


def test_package_kernels_use_the_package_cache_stamp() -> None:
    from numba.core import caching

    from fedtheory.algorithms._round_loop import _round_loop as loop

    assert caching.CacheImpl._locator_classes[0] is _jit._PackageKernelLocator
    function = getattr(loop, "py_func", loop)  # a plain function under NUMBA_DISABLE_JIT
    locator = _jit._PackageKernelLocator.from_function(function, function.__code__.co_filename)
    assert locator is not None
    assert locator.get_source_stamp()[1] == _jit.kernel_sources_digest()
    outside = _jit._PackageKernelLocator.from_function(
        test_dispatch_falls_back_to_the_default, __file__
    )
    assert outside is None


def test_linear_samples_of_one_dataset_are_views() -> None:
    data = _dataset("mean")
    problem = linear_samples([data])
    assert isinstance(problem, LinearSamples) and np.shares_memory(problem.features, data.features)


# ---------------------------------------------------------------- losses, step tables, scales


@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_sample_loss_and_client_loss_match_numpy(loss: str) -> None:
    data = _dataset(loss, m=3, n=7, d=4, seed=8)
    problem = linear_samples([data])
    rng = np.random.default_rng(2)
    models = rng.standard_normal((3, 4)) * 3.0  # large margins: the softplus must not overflow
    expected = sample_losses(loss, data.features, data.targets, models)
    for i in range(3):
        samples = client_samples(problem, 0, i)
        for j in range(7):
            value = sample_loss(samples, j, models[i])
            twin = sample_loss_twin(
                LOSSES[loss], data.features[i, j], data.targets[i, j], models[i]
            )
            assert value == pytest.approx(expected[i, j], rel=1e-13, abs=1e-15)
            assert value == pytest.approx(twin, rel=1e-13, abs=1e-15)
        assert client_loss(samples, models[i]) == pytest.approx(
            data.empirical_risk(models)[i], rel=1e-13
        )
    # the server's (empty) samples have no loss: NaN, not a division error
    assert np.isnan(client_loss(client_samples(problem, 0, 3), models[0]))


def _local_sgd(
    steps: np.ndarray, scales: np.ndarray, seeds: np.ndarray, epochs: bool = False
) -> LocalSGD:
    return LocalSGD(
        work=np.array([3, 2, 4, 0], dtype=np.int64),
        epochs=epochs,
        batch=2,
        steps=steps,
        scales=scales,
        lam=0.0,
        radius=np.inf,
        warm_start=False,
        receives_server_model=True,
        seeds=seeds,
    )


@pytest.mark.parametrize("epochs", [False, True])
@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_step_table_and_client_scales_match_the_twin(loss: str, epochs: bool) -> None:
    data = [_dataset(loss, m=3, n=6, d=3, seed=s) for s in (5, 6)]
    problem = linear_samples(data)
    rng = np.random.default_rng(3)
    steps = rng.uniform(0.05, 0.3, size=(2, 3))  # rows 0, 1; rows 2, 3 reuse row 1
    scales = rng.uniform(0.2, 1.8, size=(2, 3))
    seeds = np.array([17, 2**63 + 5], dtype=np.uint64)
    weights = np.full((2, 3), 1.0 / 3.0)
    order = np.tile(np.arange(3), (2, 4, 1)).astype(np.int64)
    count = np.full((2, 4), 3, dtype=np.int64)
    aggregate = np.array([True, True, True, False])
    init = rng.standard_normal((2, 3))
    with np.errstate(over="ignore"):
        out = _round_loop(
            problem,
            _local_sgd(steps, scales, seeds, epochs),
            ServerStep(np.array([1.0, 1.0, 1.0, 0.0]), weights, False, np.inf),
            order,
            count,
            order,
            count,
            aggregate,
            init,
            np.repeat(init[:, None, :], 3, axis=1),
            True,
        )
    twin = federated_rounds(
        problem.features,
        problem.targets,
        problem.counts,
        LOSSES[loss],
        np.inf,
        weights,
        np.ones((2, 3, 3), dtype=bool),
        np.array([3, 2, 4, 0]),
        epochs,
        2,
        steps,
        np.ones(3),
        0.0,
        False,
        True,
        False,
        init,
        np.repeat(init[:, None, :], 3, axis=1),
        seeds,
        True,
        scales=scales,
    )
    np.testing.assert_allclose(out[0], twin[0], rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(out[4], twin[5], rtol=1e-12, atol=1e-13)
    # the table row and the scale matter: the twin with the first row everywhere differs
    other = federated_rounds(
        problem.features, problem.targets, problem.counts, LOSSES[loss], np.inf, weights,
        np.ones((2, 3, 3), dtype=bool), np.array([3, 2, 4, 0]), epochs, 2, steps[:1],
        np.ones(3), 0.0, False, True, False, init, np.repeat(init[:, None, :], 3, axis=1),
        seeds, True, scales=scales,
    )  # fmt: skip
    assert not np.allclose(out[0], other[0], rtol=1e-6)


def test_unit_scales_and_a_one_row_table_change_no_bit() -> None:
    data = _dataset("logistic", m=3, n=8, d=4, seed=9)
    problem = linear_samples([data])
    seeds = np.array([99], dtype=np.uint64)
    steps = np.array([0.3, 0.2, 0.1])
    schedule = _everyone(4, 3)
    start = (np.full((1, 4), 0.1), np.zeros((1, 3, 4)), True)
    server = ServerStep(np.ones(4), np.full((1, 3), 1 / 3), False, np.inf)
    with np.errstate(over="ignore"):
        a = _round_loop(problem, _local_sgd(steps[None, :], np.ones((1, 3)), seeds), server,
                        *schedule, *start)  # fmt: skip
        b = _round_loop(problem, _local_sgd(np.tile(steps, (4, 1)), np.ones((1, 3)), seeds),
                        server, *schedule, *start)  # fmt: skip
        c = _round_loop(problem, _local_sgd(steps[None, :], np.full((1, 3), 0.5), seeds),
                        server, *schedule, *start)  # fmt: skip
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], c[0])
