"""GIFAIR-FL on the core round loop: the kernel views of the gifair problems (guide §1, §4).

Theory asserted:
- the per-sample losses and gradients of the grouped quadratics (½(θ−c)ᵀA(θ−c) + b + zᵀ(θ−c),
  gradient A(θ−c) + z) and of ridge logistic/softmax regression equal their numpy twins;
- a uniformly drawn noise row is unbiased: the mean of the sample gradients is ∇F_k, and the
  client loss is F_k;
- every fast minibatch step equals the generic one written with per-sample gradients;
- λ = 0 is the core FedAvg bit for bit (weighted aggregation, full participation);
- the compiled GIFAIR-FL (fair aggregation composed on the core loop) equals a plain-numpy
  Algorithm 2 for every aggregation, sampling and r mode;
- Lemma 3.2: away from ties Σ_k p_k c_k ∇F_k = ∇H with the logged multipliers;
- Algorithm 3 trains as Algorithm 2 as printed: the same θ̄ sequence, bit for bit (V11);
- deterministic GIFAIR-FL with E = 1 and exact r converges to the exact fair optimum (found by
  an independent solver: a fixed point of the sign pattern with its closed-form minimiser);
- the trace counts the loss evaluations; bad input is refused naming the rule (λ_max stated).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from reference import gifair as twin

from fedtheory._seeds import generator
from fedtheory.algorithms.federated import fedavg, local_sgd_rounds
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.papers.gifair.algorithms import (
    decaying_steps,
    fedavg_printed,
    gifair_global,
    gifair_per,
    sqrt_steps,
)
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics
from fedtheory.problems._oracle import (
    _client_loss_by_samples,
    _minibatch_step_by_samples,
    client_loss,
    client_samples,
    minibatch_step,
    minibatch_steps,
    sample_count,
    sample_gradient,
    sample_loss,
)
from fedtheory.problems.dataset import FederatedDataset

# ---------------------------------------------------------------------------- instances


def quadratics(
    labels: tuple[int, ...] = (0, 0, 1, 1, 2, 2),
    n: int = 3,
    rows: int = 8,
    noise: float = 1.0,
    seed: int = 0,
) -> GroupedQuadratics:
    rng = np.random.default_rng(seed)
    K = len(labels)
    Q = np.linalg.qr(rng.standard_normal((K, n, n)))[0]
    eig = rng.uniform(1.0, 4.0, (K, n))
    curvature = np.einsum("kab,kb,kcb->kac", Q, eig, Q)
    curvature = 0.5 * (curvature + curvature.transpose(0, 2, 1))  # symmetric to the bit
    centres = 3.0 * np.eye(n)[np.array(labels) % n] + 0.5 * rng.standard_normal((K, n))
    Z = noise * rng.standard_normal((K, rows, n))
    Z -= Z.mean(axis=1, keepdims=True)
    groups = GroupStructure.from_counts(np.array(labels), rng.integers(20, 100, K))
    return GroupedQuadratics(groups, curvature, centres, rng.uniform(0, 1, K), Z)


def classification(
    loss: str = "logistic",
    labels: tuple[int, ...] = (0, 0, 0, 1, 1, 2),
    counts: tuple[int, ...] = (9, 7, 12, 8, 10, 6),
    p: int = 3,
    classes: int = 3,
    ridge: float = 0.1,
    seed: int = 0,
) -> GroupedClassification:
    rng = np.random.default_rng(seed)
    K, n_max = len(labels), max(counts)
    X = rng.standard_normal((K, n_max, p)) + np.array(labels)[:, None, None] * 0.3
    if loss == "logistic":
        y = np.where(rng.random((K, n_max)) < 0.5, 1.0, -1.0)
        classes = 2
    else:
        y = rng.integers(0, classes, (K, n_max))
    size = np.array(counts)
    groups = GroupStructure.from_counts(np.array(labels), size)
    return GroupedClassification(groups, loss, X, y, size, classes, ridge, X, y, size)  # type: ignore[arg-type]


PROBLEMS = {
    "quadratics": lambda: quadratics(),
    "logistic": lambda: classification("logistic"),
    "softmax": lambda: classification("softmax"),
}
#: The kernel views under test: the problems', and a ridge-free logistic view (no valid problem,
#: which needs ρ > 0, but the path of the core FedAvg arithmetic; see the λ = 0 test).
VIEWS = (*sorted(PROBLEMS), "logistic-no-ridge")


def view_of(name: str) -> tuple[GroupedQuadratics | GroupedClassification, Any, float]:
    """(problem, its kernel view, the view's ridge ρ)."""
    if name == "logistic-no-ridge":
        problem = classification("logistic")
        return problem, kernel_view(problem)._replace(ridge=0.0), 0.0
    problem = PROBLEMS[name]()
    return problem, kernel_view(problem), float(getattr(problem, "ridge", 0.0))


# ---------------------------------------------------------------------------- kernel views


@pytest.mark.parametrize("name", VIEWS)
@pytest.mark.parametrize("lam", [0.0, 0.3])
def test_consecutive_steps_in_one_call_equal_one_call_per_step(name: str, lam: float) -> None:
    """``minibatch_steps`` of every view (the core linear kernel's run of steps for the logistic
    loss at λ = 0, a loop over ``minibatch_step`` otherwise) gives the bits of one
    ``minibatch_step`` call per block, for full and partial blocks (issue 19)."""
    _, view, _ = view_of(name)
    samples = client_samples(view, 0, 2)  # 12 rows
    d = view.zeros.shape[0] if hasattr(view, "zeros") else view.centres.shape[1]  # w's size
    rng = np.random.default_rng(7)
    sizes = np.array([8, 8, 7, 5, 1, 3], dtype=np.int64)
    rows = rng.integers(0, sample_count(samples), sizes.sum())
    etas = rng.uniform(0.05, 0.2, sizes.size)
    anchor = rng.standard_normal(d)
    start = rng.standard_normal(d)
    together, apart = start.copy(), start.copy()
    minibatch_steps(samples, rows, sizes, etas, together, anchor, lam, np.empty(16))
    offset = 0
    for size, eta in zip(sizes, etas, strict=True):
        minibatch_step(samples, rows[offset : offset + size], apart, anchor, eta, lam, np.empty(8))
        offset += size
    np.testing.assert_array_equal(together, apart)
    assert not np.array_equal(together, start)


@pytest.mark.parametrize("name", VIEWS)
def test_view_losses_and_gradients_match_the_twins(name: str) -> None:
    problem, view, ridge = view_of(name)
    d = problem.dimension
    rng = np.random.default_rng(1)
    out = np.empty(d)
    for k in range(len(problem.groups.labels)):
        w = 2.0 * rng.standard_normal(d)
        samples = client_samples(view, 0, k)
        n = sample_count(samples)
        if isinstance(problem, GroupedQuadratics):
            Z = problem.noise[k]
            A, c, b = problem.curvature[k], problem.centres[k], problem.offsets[k]
            losses = twin.quadratic_losses(A, c, b, Z, w)
            gradients = twin.quadratic_gradients(A, c, Z, w)
            exact = 0.5 * (w - c) @ A @ (w - c) + b
            assert n == Z.shape[0]
            # the rows are centred: the sample mean is F_k and ∇F_k exactly (up to rounding)
            np.testing.assert_allclose(gradients.mean(axis=0), A @ (w - c), rtol=1e-12, atol=1e-12)
        else:
            nk = int(problem.counts[k])
            X, y = problem.features[k, :nk], problem.labels[k, :nk]
            args = (problem.loss, X, y, problem.classes, ridge, w)
            losses = twin.classification_losses(*args)
            gradients = twin.classification_gradients(*args)
            exact = float(losses.mean())
            assert n == nk
        for j in range(n):
            assert sample_loss(samples, j, w) == pytest.approx(losses[j], rel=1e-12, abs=1e-13)
            sample_gradient(samples, j, w, out)
            np.testing.assert_allclose(out, gradients[j], rtol=1e-11, atol=1e-12)
        assert client_loss(samples, w) == pytest.approx(exact, rel=1e-12)
        assert client_loss(samples, w) == pytest.approx(losses.mean(), rel=1e-10)
    # the server (index K) has no samples
    assert sample_count(client_samples(view, 0, len(problem.groups.labels))) == 0


@pytest.mark.parametrize("loss", ["logistic", "softmax"])
def test_fast_client_loss_is_accurate_in_every_regime(loss: str) -> None:
    """The one-pass F_k (one log of a product of 1 + e^{−|u|}, a Taylor polynomial for tiny
    terms, folded before overflow) equals the numpy twin and the generic mean of sample_loss:
    at w = 0 over 3000 samples (the product 2³⁰⁰⁰ must be folded), at large margins (losses
    near 1e-20: no digit may be lost to 1 + e) and at moderate ones."""
    rng = np.random.default_rng(8)
    n, p = 3000, 4
    X = rng.standard_normal((2, n, p))
    if loss == "logistic":
        truth = rng.standard_normal(p)
        y = np.sign(X @ truth)  # separable: a large multiple of truth classifies every sample
        directions = [np.zeros(p), 0.7 * truth, 40.0 * truth / np.abs(X @ truth).min()]
    else:
        W = rng.standard_normal((3, p))
        y = np.argmax(X @ W.T, axis=2)
        top2 = np.sort(X @ W.T, axis=2)[..., -2:]
        gap = (top2[..., 1] - top2[..., 0]).min()  # every sample's margin over its runner-up
        directions = [np.zeros(3 * p), 0.7 * W.ravel(), 40.0 * W.ravel() / gap]
    y = y.astype(np.float64 if loss == "logistic" else np.int64)
    counts = np.array([n, n - 7])
    groups = GroupStructure(np.array([0, 1]), [0.5, 0.5])
    problem = GroupedClassification(groups, loss, X, y, counts, 2 if loss == "logistic" else 3,
                                    1e-3, X, y, counts)  # type: ignore[arg-type]  # fmt: skip
    view = kernel_view(problem)._replace(ridge=0.0)  # no ridge: the data term alone
    for w in directions:
        for k in range(2):
            samples = client_samples(view, 0, k)
            nk = int(counts[k])
            args = (loss, X[k, :nk], y[k, :nk], problem.classes, 0.0, w)
            expected = float(twin.classification_losses(*args).mean())
            fast = client_loss(samples, w)
            assert fast == pytest.approx(expected, rel=1e-12, abs=0.0)
            assert fast == pytest.approx(_client_loss_by_samples(samples, w), rel=1e-12, abs=0.0)
    if loss == "logistic":  # the last direction is the tiny-loss regime
        assert 0.0 < fast < 1e-12
    # (softmax's per-sample log Σ_c e^{W_c x − top} rounds 1 + e^{−40} to 1 there, in the
    # kernel as in the twin: its tiny losses are 0 on both sides)
    if loss == "logistic":  # margins 7..9: every e^{−|u|} < 2⁻¹⁰ takes the Taylor polynomial,
        # which is log1p to rounding (a wrong e⁵ coefficient is off by ~1e-13 at u = 7)
        t = np.linspace(7.0, 9.0, 64)
        series = view._replace(features=t[None, :, None], labels=np.ones((1, 64)),
                               counts=np.array([64]), zeros=np.zeros(1))  # fmt: skip
        value = client_loss(client_samples(series, 0, 0), np.ones(1))
        assert value == pytest.approx(np.logaddexp(0.0, -t).mean(), rel=1e-15, abs=0.0)
    # the ridge is added once: (ρ/2)‖w‖² on top of the data term
    ridged = client_samples(kernel_view(problem), 0, 0)
    w = directions[1]
    difference = client_loss(ridged, w) - client_loss(client_samples(view, 0, 0), w)
    assert difference == pytest.approx(0.5e-3 * w @ w, rel=1e-9)


@pytest.mark.parametrize("lam", [0.0, 0.7])
@pytest.mark.parametrize("name", VIEWS)
def test_fast_minibatch_steps_equal_the_generic_step(name: str, lam: float) -> None:
    problem, view, _ = view_of(name)
    d = problem.dimension
    rng = np.random.default_rng(2)
    for k in range(len(problem.groups.labels)):
        samples = client_samples(view, 0, k)
        rows = rng.permutation(sample_count(samples))[:5].astype(np.int64)
        w0, anchor = rng.standard_normal(d), rng.standard_normal(d)
        fast, slow = w0.copy(), w0.copy()
        scratch = np.empty(5)
        for _ in range(3):  # repeated: the softmax accumulator must be left at zero
            minibatch_step(samples, rows, fast, anchor, 0.3, lam, scratch)
            _minibatch_step_by_samples(samples, rows, slow, anchor, 0.3, lam, scratch)
        np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-13)
        assert not np.allclose(fast, w0)


def test_kernel_view_refuses_other_objects_even_with_the_same_name() -> None:
    with pytest.raises(ParameterError, match="GroupedQuadratics or a GroupedClassification"):
        kernel_view(np.zeros(3))
    real = quadratics()
    # a look-alike of the right name and attributes is not the validated problem
    look_alike = type("GroupedQuadratics", (), dict(vars(real)))()
    with pytest.raises(ParameterError, match="GroupedQuadratics or a GroupedClassification"):
        kernel_view(look_alike)
    with pytest.raises(ParameterError, match="GroupedQuadratics"):
        gifair_global(look_alike, 0.0, rounds=1, local_steps=1, step_size=0.1, seed=0)


# ---------------------------------------------------------------------------- GIFAIR-FL


def core_rounds(view: Any, problem: GroupedClassification, seeds: list[Any], *, rounds: int,
                local_steps: int, batch: int, eta: float, record: bool) -> tuple:  # fmt: skip
    """The core FedAvg engine (LocalSGD + ServerStep, full participation, p-weighted) on a
    kernel view, with the minibatch streams that gifair and fedavg draw from each seed."""
    K, d, R = problem.num_clients, problem.dimension, len(seeds)
    streams = np.array([generator(seed).integers(0, 2**64, dtype=np.uint64) for seed in seeds])
    return local_sgd_rounds(
        view, radius=np.inf, weights=np.tile(problem.groups.p, (R, 1)),
        masks=np.ones((R, rounds, K), dtype=bool), work=np.append(np.full(rounds, local_steps), 0),
        epochs=False, batch=batch, local_steps=np.array([eta]), server_steps=np.ones(rounds),
        lam=0.0, persistent=False, train_sampled=True, project_global=False, final_download=True,
        init_global=np.zeros((R, d)), init_local=np.zeros((R, K, d)), seeds=streams, record=record,
    )  # fmt: skip


def test_lambda_zero_is_the_core_fedavg_round_loop_bit_for_bit() -> None:
    """λ = 0: FairAggregation adds nothing to the core step (every c_k is exactly 1).

    A problem needs ρ > 0 and the core FedAvg has no ridge, so the chain is in two links, each
    bit for bit: (1) gifair at λ = 0 is the core engine (LocalSGD + ServerStep) run on the same
    kernel view; (2) on the ridge-free view that engine is the core :func:`fedavg` of the same
    data as a :class:`FederatedDataset` (the view's logistic step is the core linear kernel).
    """
    problem = classification("logistic", seed=4)
    settings = {"rounds": 5, "local_steps": 3, "batch": 3}
    view = kernel_view(problem)
    core = core_rounds(view, problem, [7], eta=0.4, record=True, **settings)
    for run in (
        gifair_global(problem, 0.0, step_size=0.4, seed=7, record=True, **settings),
        gifair_global(problem, 0.0, step_size=0.4, seed=7, r_mode="stale", **settings),
        fedavg_printed(problem, step_size=0.4, seed=7, record=True, **settings),
    ):
        np.testing.assert_array_equal(run.global_model, core[0][0])
        if run.global_iterates is not None:
            np.testing.assert_array_equal(run.global_iterates, core[4][0])
        assert np.all(run.log.multipliers == 1.0)
    spawned = [np.random.SeedSequence(7, spawn_key=(r,)) for r in range(2)]
    batch = core_rounds(view, problem, spawned, eta=0.4, record=False, **settings)
    ours = gifair_global(problem, 0.0, step_size=0.4, seed=7, replicates=2, **settings)
    np.testing.assert_array_equal(ours.global_model, batch[0])
    assert not np.array_equal(ours.global_model[0], ours.global_model[1])
    # the ridge pulls: ρ > 0 is not the ridge-free run
    free = core_rounds(view._replace(ridge=0.0), problem, [7], eta=0.4, record=True, **settings)
    assert not np.array_equal(free[0], core[0])
    data = FederatedDataset(problem.features, problem.labels, problem.counts, "logistic")
    fed = fedavg(data, local_step=0.4, seed=7, record=True, **settings)
    np.testing.assert_array_equal(fed.global_model, free[0][0])
    np.testing.assert_array_equal(fed.global_iterates, free[4][0])


def _replay(seed: int, m: int, rounds: int, per_round: int | None, sampling: str, p: np.ndarray):
    """The documented random protocol: stream seed, then the clients of every round."""
    rng = np.random.default_rng(seed)
    stream = int(rng.integers(0, 2**64, dtype=np.uint64))
    trainers, uploaders = [], []
    for _ in range(rounds):
        if per_round is None:
            drawn = np.arange(m)
        elif sampling == "p_with_replacement":
            drawn = np.sort(rng.choice(m, size=per_round, replace=True, p=p))
        else:
            drawn = np.sort(rng.choice(m, size=per_round, replace=False))
        uploaders.append(drawn)
        trainers.append(np.unique(drawn))
    return stream, trainers, uploaders


MODES = {
    "exact-full-weighted": {"r_mode": "exact", "aggregation": "weighted"},
    "stale-full-uniform": {"r_mode": "stale", "aggregation": "uniform"},
    "stale-p-sampling": {"r_mode": "stale", "clients_per_round": 4},
    "exact-p-sampling": {"r_mode": "exact", "clients_per_round": 3},
    "stale-uniform-weighted": {
        "r_mode": "stale",
        "clients_per_round": 3,
        "sampling": "uniform",
        "aggregation": "weighted",
    },
    "exact-uniform-uniform": {
        "r_mode": "exact",
        "clients_per_round": 2,
        "sampling": "uniform",
        "aggregation": "uniform",
    },
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", ["quadratics", "logistic", "softmax"])
def test_kernel_matches_the_numpy_twin(name: str, mode: str) -> None:
    problem = PROBLEMS[name]()
    options = {"aggregation": "weighted", "sampling": "p_with_replacement"} | MODES[mode]
    lam = 0.6 * problem.groups.lambda_max
    rounds, E, batch, seed = 6, 3, 2, 11
    schedule = decaying_steps(1.0, 6.0)
    init = 0.3 * np.random.default_rng(5).standard_normal(problem.dimension)
    run = gifair_global(problem, lam, rounds=rounds, local_steps=E, step_size=schedule,
                        batch=batch, init=init, seed=seed, record=True, **options)  # fmt: skip
    per_round = options.get("clients_per_round")
    stream, trainers, uploaders = _replay(
        seed, len(problem.groups.labels), rounds, per_round, options["sampling"],
        problem.groups.p,
    )  # fmt: skip
    weighted = options["aggregation"] == "weighted" and not (
        per_round is not None and options["sampling"] == "p_with_replacement"
    )
    expected = twin.gifair_rounds(
        problem, lam, steps=schedule(np.arange(rounds * E)).reshape(rounds, E), local_steps=E,
        batch=batch, weighted=weighted, stale=options["r_mode"] == "stale", trainers=trainers,
        uploaders=uploaders, init=init, stream=stream,
    )  # fmt: skip
    np.testing.assert_allclose(run.global_iterates, expected["global_iterates"], rtol=1e-10,
                               atol=1e-12)  # fmt: skip
    np.testing.assert_allclose(run.log.reported, expected["reported"], rtol=1e-10)
    np.testing.assert_array_equal(run.log.ranks, expected["ranks"])
    # the kernel's ranks and multipliers are the group structure's (Lemma 3.2, numpy)
    np.testing.assert_array_equal(run.log.ranks, problem.groups.group_ranks(run.log.reported))
    multipliers = problem.groups.multipliers(lam, run.log.reported)
    np.testing.assert_allclose(run.log.multipliers, multipliers, rtol=1e-14)
    sampled = run.sampled
    np.testing.assert_allclose(run.local_models[sampled], expected["local_models"][sampled],
                               rtol=1e-10, atol=1e-12)  # fmt: skip
    assert np.any(run.log.multipliers != 1.0)


def test_multipliers_give_the_gradient_of_H_away_from_ties() -> None:
    """Lemma 3.2: H = Σ_k q_k F_k with q_k = p_k c_k frozen on the piece, so ∇H = Σ p_k c_k ∇F_k."""
    problem = quadratics(seed=3)
    A, c, b = problem.curvature, problem.centres, problem.offsets
    p, labels = problem.groups.p, problem.groups.labels
    lam = 0.8 * problem.groups.lambda_max
    theta = np.array([0.4, -0.2, 0.7])

    def H(x: np.ndarray) -> float:
        F = np.array([0.5 * (x - c[k]) @ A[k] @ (x - c[k]) + b[k] for k in range(len(b))])
        L = np.bincount(labels, weights=F) / np.bincount(labels)
        return float(p @ F + lam * 0.5 * np.abs(L[:, None] - L[None, :]).sum())

    run = gifair_global(problem, lam, rounds=1, local_steps=1, step_size=0.1, init=theta, seed=0)
    L0 = run.log.group_losses[0]
    assert np.min(np.abs(L0[:, None] - L0[None, :]) + np.eye(L0.size)) > 1e-3  # no tie at θ
    c0 = run.log.multipliers[0]
    grads = np.einsum("kab,kb->ka", A, theta - c)
    assert not np.allclose(c0, 1.0)
    h = 1e-5  # H is quadratic on the piece: central differences are exact up to rounding
    numeric = np.array([(H(theta + h * e) - H(theta - h * e)) / (2 * h) for e in np.eye(3)])
    np.testing.assert_allclose((p * c0) @ grads, numeric, rtol=1e-7, atol=1e-8)
    # with the unweighted multipliers (p dropped) it is not the gradient of H
    assert not np.allclose((c0 / len(p)) @ grads, numeric, rtol=1e-3)


def test_per_trains_as_global_printed_bit_for_bit() -> None:
    problem = quadratics(seed=6)
    lam = 0.7 * problem.groups.lambda_max
    settings = {
        "rounds": 4, "local_steps": 2, "step_size": sqrt_steps(0.2), "batch": 8,
        "aggregation": "uniform", "clients_per_round": 1, "seed": 3, "record": True,
    }  # fmt: skip
    per = gifair_per(problem, lam, **settings)
    printed = gifair_global(problem, lam, r_mode="stale", **settings)
    np.testing.assert_array_equal(per.global_iterates, printed.global_iterates)
    np.testing.assert_array_equal(per.log.reported, printed.log.reported)
    assert per.sampled.any() and not per.sampled.all()
    np.testing.assert_array_equal(per.local_models[per.sampled], printed.local_models[per.sampled])
    for k in np.flatnonzero(~per.sampled):  # never sampled: the global model (our assumption)
        np.testing.assert_array_equal(per.local_models[k], per.global_model)
    exact = gifair_global(problem, lam, r_mode="exact", **settings)
    assert not np.array_equal(exact.global_iterates, printed.global_iterates)


def _fair_optimum(problem: GroupedQuadratics, lam: float) -> np.ndarray:
    """Independent solver: iterate the sign pattern π ← ranks(θ), θ ← argmin Σ_k q_k(π) F_k
    (closed form (Σ q A)⁻¹ Σ q A c) to a fixed point. H is convex (λ < λ_max) and smooth at a
    tie-free fixed point with ∇H = 0 there, so the fixed point is the minimiser."""
    A, c, b = problem.curvature, problem.centres, problem.offsets
    p, labels = problem.groups.p, problem.groups.labels
    sizes = np.bincount(labels)
    theta = np.linalg.solve(np.einsum("k,kab->ab", p, A), np.einsum("k,kab,kb->a", p, A, c))
    for _ in range(50):
        F = np.array([0.5 * (theta - c[k]) @ A[k] @ (theta - c[k]) + b[k] for k in range(len(b))])
        L = np.bincount(labels, weights=F) / sizes
        q = p + lam * twin.signed_ranks(L)[labels] / sizes[labels]
        new = np.linalg.solve(np.einsum("k,kab->ab", q, A), np.einsum("k,kab,kb->a", q, A, c))
        if np.array_equal(new, theta):
            break
        theta = new
    else:
        raise AssertionError("no fixed point: the optimum sits on a tie (pick another instance)")
    F = np.array([0.5 * (theta - c[k]) @ A[k] @ (theta - c[k]) + b[k] for k in range(len(b))])
    L = np.bincount(labels, weights=F) / sizes
    assert np.min(np.abs(L[:, None] - L[None, :]) + np.eye(L.size)) > 1e-4  # smooth there
    return theta


def test_deterministic_gifair_converges_to_the_exact_fair_optimum() -> None:
    problem = quadratics(seed=1, noise=0.0)  # zero noise rows: every step is a full gradient
    lam = 0.6 * problem.groups.lambda_max
    target = _fair_optimum(problem, lam)
    fedavg_target = _fair_optimum(problem, 0.0)
    assert np.linalg.norm(target - fedavg_target) > 1e-2  # the fairness term moves the optimum
    run = gifair_global(problem, lam, rounds=400, local_steps=1, step_size=0.2, seed=0)
    np.testing.assert_allclose(run.global_model, target, rtol=0, atol=1e-10)
    spread = run.log.spread
    assert spread[-1] < spread[0]
    # E > 1 with decaying steps: the distance to θ* keeps shrinking (local drift vanishes)
    schedule = decaying_steps(1.0, 8.0)
    long = gifair_global(problem, lam, rounds=800, local_steps=3, step_size=schedule, seed=0,
                         record=True)  # fmt: skip
    distance = np.linalg.norm(long.global_iterates - target, axis=1)
    assert distance[800] < 0.5 * distance[200] < 0.5 * distance[50]


def test_trace_counts_the_loss_evaluations() -> None:
    problem = classification("logistic", seed=1)
    K, n, N = 6, 3, int(problem.counts.sum())
    exact = gifair_global(problem, 0.0, rounds=3, local_steps=2, step_size=0.1, batch=2, seed=0)
    trace = exact.trace
    assert trace.function_queries.tolist() == [2 * N, N, N]  # F_k(θ_0) counted in row 0
    assert trace.floats_up.tolist() == [K * n + 2 * K, K * n + K, K * n + K]
    assert trace.floats_down.tolist() == [2 * K * n + K] * 3  # θ̄, c_k; θ̄_c again for the reports
    assert trace.gradient_calls.tolist() == [K * 2 * 2] * 3
    assert np.isfinite(trace.losses).all()
    stale = gifair_global(problem, 0.0, rounds=3, local_steps=2, step_size=0.1, batch=2, seed=0,
                          r_mode="stale", clients_per_round=4)  # fmt: skip
    assert np.isnan(stale.trace.losses).all()
    for t in range(3):
        distinct = int(stale.trace.participants[t])
        assert stale.trace.floats_up[t] == 4 * n + distinct + (K if t == 0 else 0)
        assert stale.trace.function_queries[t] >= distinct * int(problem.counts.min())


def test_same_seed_same_bits_and_replicates_are_spawned_runs() -> None:
    problem = quadratics(seed=1)
    lam = 0.5 * problem.groups.lambda_max
    settings = {"rounds": 3, "local_steps": 2, "step_size": 0.1, "batch": 2,
                "clients_per_round": 3}  # fmt: skip
    a = gifair_global(problem, lam, seed=5, **settings)
    b = gifair_global(problem, lam, seed=5, **settings)
    np.testing.assert_array_equal(a.global_model, b.global_model)
    batch = gifair_global(problem, lam, seed=5, replicates=3, **settings)
    for r in range(3):
        alone = gifair_global(problem, lam, seed=np.random.SeedSequence(5, spawn_key=(r,)),
                              **settings)  # fmt: skip
        one = batch.replicate(r)
        np.testing.assert_array_equal(one.global_model, alone.global_model)
        np.testing.assert_array_equal(one.log.reported, alone.log.reported)
        np.testing.assert_array_equal(one.trace.floats_up, alone.trace.floats_up)


def test_bad_input_is_refused_naming_the_rule() -> None:
    problem = quadratics()
    top = problem.groups.lambda_max
    ok = {"rounds": 2, "local_steps": 1, "step_size": 0.1, "seed": 0}
    with pytest.raises(ParameterError, match="λ_max") as error:
        gifair_global(problem, top, **ok)
    assert f"{top:.6g}" in str(error.value)
    with pytest.raises(ParameterError, match="lam"):
        gifair_global(problem, -0.01, **ok)
    for key, value in [
        ("r_mode", "local"),
        ("aggregation", "median"),
        ("sampling", "poisson"),
        ("clients_per_round", 7),
        ("batch", 9),
        ("step_size", -1.0),
        ("step_size", "fast"),
        ("step_size", lambda t: 0.1 - 0.1 * t),  # reaches 0
        ("local_steps", 0),
        ("rounds", 0),
        ("init", np.zeros(4)),
        ("record", "yes"),
    ]:
        with pytest.raises(ParameterError, match=key.split("_")[0]):
            gifair_global(problem, 0.0, **(ok | {key: value}))
    with pytest.raises(ParameterError, match="GroupedQuadratics"):
        gifair_global(np.zeros(3), 0.0, **ok)
    zero = GroupStructure(problem.groups.labels, [0.0, 0.2, 0.2, 0.2, 0.2, 0.2])
    with pytest.raises(ParameterError, match="p_k > 0"):  # c_k = 1 + λr_k/(p_k|𝒜|) undefined
        fedavg_printed(replace(problem, groups=zero), **ok)
    with pytest.raises(DivergenceError):
        gifair_global(problem, 0.0, **(ok | {"step_size": 5.0, "rounds": 400}))
