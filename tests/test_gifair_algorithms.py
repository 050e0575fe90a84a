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

from dataclasses import dataclass

import numpy as np
import pytest
from reference import gifair as twin

from fedtheory.algorithms.federated import fedavg
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.papers.gifair.algorithms import (
    decaying_steps,
    fedavg_printed,
    gifair_global,
    gifair_per,
    sqrt_steps,
)
from fedtheory.problems._oracle import (
    _minibatch_step_by_samples,
    client_loss,
    client_samples,
    minibatch_step,
    sample_count,
    sample_gradient,
    sample_loss,
)
from fedtheory.problems.dataset import FederatedDataset

# ------------------------------------------------ stand-ins for fedtheory.papers.gifair.problems
# (branch gifair-exact writes the real classes; the kernel views read exactly these attributes)


@dataclass(frozen=True)
class GroupStructure:
    labels: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class GroupedQuadratics:
    groups: GroupStructure
    curvature: np.ndarray
    centres: np.ndarray
    offsets: np.ndarray
    noise: np.ndarray


@dataclass(frozen=True)
class GroupedClassification:
    groups: GroupStructure
    loss: str
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    classes: int
    ridge: float


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
    centres = 3.0 * np.eye(n)[np.array(labels) % n] + 0.5 * rng.standard_normal((K, n))
    Z = noise * rng.standard_normal((K, rows, n))
    Z -= Z.mean(axis=1, keepdims=True)
    counts = rng.integers(20, 100, K)
    groups = GroupStructure(np.array(labels), counts / counts.sum())
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
        y = rng.integers(0, classes, (K, n_max)).astype(float)
    size = np.array(counts)
    groups = GroupStructure(np.array(labels), size / size.sum())
    return GroupedClassification(groups, loss, X, y, size, classes, ridge)


def _dimension(problem: object) -> int:
    if isinstance(problem, GroupedQuadratics):
        return problem.centres.shape[1]
    assert isinstance(problem, GroupedClassification)
    p = problem.features.shape[2]
    return p if problem.loss == "logistic" else problem.classes * p


PROBLEMS = {
    "quadratics": lambda: quadratics(),
    "logistic": lambda: classification("logistic"),
    "softmax": lambda: classification("softmax"),
    "logistic-no-ridge": lambda: classification("logistic", ridge=0.0),
}


# ---------------------------------------------------------------------------- kernel views


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_view_losses_and_gradients_match_the_twins(name: str) -> None:
    problem = PROBLEMS[name]()
    view = kernel_view(problem)
    d = _dimension(problem)
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
            args = (problem.loss, X, y, problem.classes, problem.ridge, w)
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


@pytest.mark.parametrize("lam", [0.0, 0.7])
@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_fast_minibatch_steps_equal_the_generic_step(name: str, lam: float) -> None:
    problem = PROBLEMS[name]()
    view = kernel_view(problem)
    d = _dimension(problem)
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


def test_kernel_view_refuses_other_objects_and_losses() -> None:
    with pytest.raises(ParameterError, match="GroupedQuadratics or a GroupedClassification"):
        kernel_view(np.zeros(3))
    bad = classification("logistic")
    bad = GroupedClassification(bad.groups, "hinge", *[getattr(bad, f) for f in
                                ("features", "labels", "counts", "classes", "ridge")])  # fmt: skip
    with pytest.raises(ParameterError, match="logistic' or 'softmax"):
        kernel_view(bad)


# ---------------------------------------------------------------------------- GIFAIR-FL


def lambda_max(problem: GroupedQuadratics | GroupedClassification) -> float:
    labels, p = problem.groups.labels, problem.groups.weights
    sizes = np.bincount(labels)
    return float(np.min(p * sizes[labels]) / (sizes.size - 1))


def test_lambda_zero_is_the_core_fedavg_bit_for_bit() -> None:
    problem = classification("logistic", ridge=0.0, seed=4)
    data = FederatedDataset(problem.features, problem.labels, problem.counts, "logistic")
    settings = {"rounds": 5, "local_steps": 3, "batch": 3}
    core = fedavg(data, local_step=0.4, seed=7, record=True, **settings)
    for run in (
        gifair_global(problem, 0.0, step_size=0.4, seed=7, record=True, **settings),
        gifair_global(problem, 0.0, step_size=0.4, seed=7, r_mode="stale", **settings),
        fedavg_printed(problem, step_size=0.4, seed=7, record=True, **settings),
    ):
        np.testing.assert_array_equal(run.global_model, core.global_model)
        if run.global_iterates is not None:
            np.testing.assert_array_equal(run.global_iterates, core.global_iterates)
        assert np.all(run.log.multipliers == 1.0)
    batch = fedavg([data, data], local_step=0.4, seed=7, **settings)
    ours = gifair_global(problem, 0.0, step_size=0.4, seed=7, replicates=2, **settings)
    np.testing.assert_array_equal(ours.global_model, batch.global_model)
    assert not np.array_equal(ours.global_model[0], ours.global_model[1])


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
    lam = 0.6 * lambda_max(problem)
    rounds, E, batch, seed = 6, 3, 2, 11
    schedule = decaying_steps(1.0, 6.0)
    init = 0.3 * np.random.default_rng(5).standard_normal(_dimension(problem))
    run = gifair_global(problem, lam, rounds=rounds, local_steps=E, step_size=schedule,
                        batch=batch, init=init, seed=seed, record=True, **options)  # fmt: skip
    per_round = options.get("clients_per_round")
    stream, trainers, uploaders = _replay(
        seed, len(problem.groups.labels), rounds, per_round, options["sampling"],
        problem.groups.weights,
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
    sampled = run.sampled
    np.testing.assert_allclose(run.local_models[sampled], expected["local_models"][sampled],
                               rtol=1e-10, atol=1e-12)  # fmt: skip
    assert np.any(run.log.multipliers != 1.0)


def test_multipliers_give_the_gradient_of_H_away_from_ties() -> None:
    """Lemma 3.2: H = Σ_k q_k F_k with q_k = p_k c_k frozen on the piece, so ∇H = Σ p_k c_k ∇F_k."""
    problem = quadratics(seed=3)
    A, c, b = problem.curvature, problem.centres, problem.offsets
    p, labels = problem.groups.weights, problem.groups.labels
    lam = 0.8 * lambda_max(problem)
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
    lam = 0.7 * lambda_max(problem)
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
    p, labels = problem.groups.weights, problem.groups.labels
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
    lam = 0.6 * lambda_max(problem)
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
    lam = 0.5 * lambda_max(problem)
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
    top = lambda_max(problem)
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
    with pytest.raises(DivergenceError):
        gifair_global(problem, 0.0, **(ok | {"step_size": 5.0, "rounds": 400}))
