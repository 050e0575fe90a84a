"""FedAvg, FedProx, fine-tuning and local SGD: the one round-loop kernel against its numpy twin,
and the theory it must reproduce (minimax seed, Algorithms 1 and 2; reading guide §2, V12–V13).

Reductions checked exactly: one local full-batch step with server step 1 is one GD step on the
p-weighted objective (8); identical clients make FedAvg centralized GD; one client makes it
centralized SGD; FedProx with λ = 0 is local training; SGD with η_k = 1/(k + 1) on the mean loss
lands on the client mean after whole epochs (V13); the literal Algorithm 2 branch trains nobody
in Stage I under full participation (erratum); constant-step FedAvg with K > 1 local steps and
heterogeneous Hessians converges to its own fixed point, not to the ERM of (8) (client drift, V13).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from reference.federated import ClientSampler, federated_rounds

from fedtheory.algorithms.client_steps import _ROWS_AHEAD
from fedtheory.algorithms.federated import (
    FederatedRun,
    fedavg,
    fedprox,
    fine_tune,
    local_sgd,
    local_sgd_rounds,
)
from fedtheory.algorithms.trace import GRADIENT_CALLS, LOCAL_STEPS
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.problems._linear_samples import LinearSamples
from fedtheory.problems.dataset import LOSSES, FederatedDataset


def _dataset(
    loss: str,
    *,
    m: int = 3,
    n: int = 7,
    d: int = 4,
    counts: list[int] | None = None,
    radius: float = np.inf,
    seed: int = 0,
) -> FederatedDataset:
    rng = np.random.default_rng(seed)
    features = rng.standard_normal((m, n, d))
    if loss == "logistic":
        targets = np.where(rng.random((m, n)) < 0.5, 1.0, -1.0)
    elif loss == "squared":
        targets = features @ rng.standard_normal(d) + 0.1 * rng.standard_normal((m, n))
    else:
        targets = np.zeros((m, n))
    counts = counts if counts is not None else [n] * m
    for i, n_i in enumerate(counts):  # padding rows are never read: make that visible
        features[i, n_i:] = np.nan
        targets[i, n_i:] = np.nan
    return FederatedDataset(features, targets, counts, loss, radius)


def _kernel_arguments(
    data: list[FederatedDataset], rng: np.random.Generator, **overrides: Any
) -> dict[str, Any]:
    reps = len(data)
    m, d = data[0].m, data[0].d
    rounds = 3
    masks = rng.random((reps, rounds, m)) < 0.6
    masks[:, :, 0] = True  # at least one sampled client per round
    arguments: dict[str, Any] = {
        "features": np.stack([x.features for x in data]),
        "targets": np.stack([x.targets for x in data]),
        "counts": np.stack([x.counts for x in data]),
        "loss": LOSSES[data[0].loss],
        "radius": data[0].radius,
        "weights": np.tile(rng.dirichlet(np.ones(m)), (reps, 1)),
        "masks": masks,
        "local_work": np.array([2, 1, 3, 2], dtype=np.int64),
        "epochs": True,
        "batch": 3,
        "local_steps": np.array([0.3, 0.2, 0.1]),
        "server_steps": np.array([0.8, 1.0, 0.5]),
        "lam": 0.0,
        "persistent": False,
        "train_sampled": True,
        "project_global": False,
        "init_global": rng.standard_normal((reps, d)) * 0.3,
        "init_local": rng.standard_normal((reps, m, d)) * 0.3,
        "seeds": rng.integers(0, 2**63, reps).astype(np.uint64) * np.uint64(2),
        "record": True,
    }
    return arguments | overrides


def _kernel(arguments: dict[str, Any]) -> tuple:
    """The round loop composed as FedAvg/FedProx compose it (LocalSGD + ServerStep), on the
    twin's keyword arguments, with the outputs in the twin's order (global, local, sizes, local
    iterations, sample gradients, recorded iterates). The final row receives w^g (FedAvg's
    output, FedProx's Stage II)."""
    arguments = dict(arguments)
    samples = LinearSamples(
        arguments.pop("features"),
        arguments.pop("targets"),
        arguments.pop("counts").astype(np.int64),
        arguments.pop("loss"),
    )
    arguments["work"] = arguments.pop("local_work")
    out = local_sgd_rounds(samples, final_download=True, **arguments)
    global_model, local_models, counts, sizes, global_its, local_its = out
    return (
        global_model,
        local_models,
        sizes,
        counts[..., LOCAL_STEPS],
        counts[..., GRADIENT_CALLS],
        global_its,
        local_its,
    )


def _assert_same(kernel_out: tuple, twin_out: tuple) -> None:
    names = ["global", "local", "sizes", "iterations", "gradients", "rec_global", "rec_local"]
    for name, a, b in zip(names, kernel_out, twin_out, strict=True):
        assert a.shape == b.shape, name
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=name)


# ---------------------------------------------------------------------------- kernel vs twin

VARIANTS = {
    "fedavg": {},
    "fedprox": {"lam": 0.7, "persistent": True, "project_global": True},
    "fedprox-printed": {"lam": 0.7, "persistent": True, "train_sampled": False},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("epochs", [True, False])
@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_kernel_matches_twin(loss: str, epochs: bool, variant: str) -> None:
    rng = np.random.default_rng(len(loss) + 10 * epochs)
    data = [
        _dataset(loss, counts=[7, 5, 6], seed=1),
        _dataset(loss, counts=[4, 7, 7], seed=2),
    ]
    arguments = _kernel_arguments(data, rng, epochs=epochs, **VARIANTS[variant])
    copies = {k: v.copy() for k, v in arguments.items() if isinstance(v, np.ndarray)}
    out = _kernel(arguments)
    for name, value in copies.items():  # pure: no input is modified
        np.testing.assert_array_equal(arguments[name], value, err_msg=name)
    _assert_same(out, federated_rounds(**arguments))
    assert out[3][:, :3].sum() > 0  # stage I trained somebody


@pytest.mark.parametrize("epochs", [True, False])
def test_a_round_longer_than_the_block_drawn_ahead_matches_twin(epochs: bool) -> None:
    """A client draws a round's minibatches ahead into a block of at most ``_ROWS_AHEAD`` rows
    (unless one pass is longer): a round of 700 passes over 7 rows (4900 rows), or of 1500
    batches of 3, fills the block and runs it in the middle of the round; the models, counts and
    iterates still equal the twin's, which draws and steps one batch at a time."""
    rng = np.random.default_rng(11)
    data = [_dataset("logistic", seed=4)]
    work = [700, 1, 2, 1] if epochs else [1500, 2, 3, 1]
    arguments = _kernel_arguments(
        data, rng, epochs=epochs, local_work=np.array(work, dtype=np.int64)
    )
    assert work[0] * (7 if epochs else 3) > _ROWS_AHEAD > 7  # the block splits the first round
    _assert_same(_kernel(arguments), federated_rounds(**arguments))


@pytest.mark.parametrize("loss", ["logistic", "squared", "mean"])
def test_kernel_matches_twin_with_active_projection(loss: str) -> None:
    rng = np.random.default_rng(5)
    data = [_dataset(loss, radius=0.4, seed=3)]
    arguments = _kernel_arguments(
        data, rng, lam=0.5, persistent=True, project_global=True, epochs=False
    )
    arguments["local_steps"] = np.array([0.9])
    arguments["init_global"] = np.full((1, 4), 2.0)  # outside the ball: the server projects
    out = _kernel(arguments)
    _assert_same(out, federated_rounds(**arguments))
    norms = np.linalg.norm(out[1], axis=-1)
    assert np.all(norms <= 0.4 * (1 + 1e-12))
    assert np.any(np.isclose(norms, 0.4, rtol=1e-12))  # the projection was active
    global_norms = np.linalg.norm(out[5][0, 1:], axis=-1)
    assert np.all(global_norms <= 0.4 * (1 + 1e-12))


def test_public_api_follows_the_documented_random_protocol() -> None:
    """seed → Generator → one uint64 stream seed, then B^g clients per round without
    replacement: replaying that protocol into the twin reproduces fedprox exactly."""
    data = _dataset("logistic", m=4, n=6, d=2, seed=4)
    run = fedprox(
        data,
        lam=0.3,
        rounds=3,
        local_steps=[2, 1, 2, 3],
        local_step=0.2,
        server_step=0.5,
        batch=2,
        clients_per_round=2,
        seed=11,
        record=True,
    )
    rng = np.random.default_rng(11)
    seeds = np.array([rng.integers(0, 2**64, dtype=np.uint64)])
    masks = np.zeros((1, 3, 4), dtype=bool)
    for t in range(3):
        masks[0, t, rng.choice(4, size=2, replace=False)] = True
    twin = federated_rounds(
        data.features[None],
        data.targets[None],
        data.counts[None],
        LOSSES["logistic"],
        np.inf,
        np.full((1, 4), 0.25),
        masks,
        np.array([2, 1, 2, 3]),
        False,
        2,
        np.array([0.2]),
        np.full(3, 0.3 * 0.5),
        0.3,
        True,
        True,
        True,
        np.zeros((1, 2)),
        np.zeros((1, 4, 2)),
        seeds,
        True,
    )
    np.testing.assert_allclose(run.local_models, twin[1][0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(run.global_iterates, twin[5][0], rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(run.trace.participants, [2, 2, 2, 4])
    np.testing.assert_array_equal(run.trace.local_steps, [4, 2, 4, 12])
    np.testing.assert_array_equal(run.trace.gradient_calls, [8, 4, 8, 24])
    np.testing.assert_array_equal(run.trace.floats_communicated, [8, 8, 8, 8])


def test_client_sampler_epochs_are_uniform_permutations() -> None:
    """An epoch of the stream visits every row once, and its first row is uniform
    (chi-square over 3000 client keys, 4 degrees of freedom, p ≈ 1e-4 cut)."""
    firsts = np.zeros(5)
    for key in range(3000):
        sampler = ClientSampler(key, 0, 5)
        epoch = np.concatenate([sampler.rows(0, 2), sampler.rows(2, 2), sampler.rows(4, 1)])
        assert sorted(epoch.tolist()) == [0, 1, 2, 3, 4]
        firsts[epoch[0]] += 1
    chi2 = float(np.sum((firsts - 600) ** 2 / 600))
    assert chi2 < 23.5


# ---------------------------------------------------------------------------- reductions


def test_one_full_batch_step_is_one_gd_step_on_the_weighted_objective() -> None:
    """K = 1 full-batch step, server step 1, full participation, mean loss:
    Σ p_i (w − η(w − z̄_i)) = w − η(w − Σ p_i z̄_i), one GD step on Σ p_i L_i."""
    data = _dataset("mean", m=4, n=5, d=3, seed=7)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    w0 = np.array([0.5, -1.0, 2.0])
    for unit in ("local_steps", "local_epochs"):
        run = fedavg(
            data, rounds=1, local_step=0.3, batch=5, weights=p, init=w0, seed=0, **{unit: 1}
        )
        means = data.features.mean(axis=1)
        expected = w0 - 0.3 * (w0 - p @ means)
        np.testing.assert_allclose(run.global_model, expected, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(run.local_models, np.tile(run.global_model, (4, 1)))


def test_identical_clients_make_fedavg_centralized_gd() -> None:
    """Every client holds the same sample: K full-batch local steps per round and T rounds
    of averaging are T·K steps of gradient descent on the (common) least-squares risk."""
    base = _dataset("squared", m=1, n=6, d=3, seed=8)
    data = FederatedDataset(
        np.repeat(base.features, 4, axis=0), np.repeat(base.targets, 4, axis=0), [6] * 4, "squared"
    )
    run = fedavg(data, rounds=5, local_steps=3, local_step=0.05, batch=6, seed=1)
    X, y = base.client(0)
    w = np.zeros(3)
    for _ in range(15):
        w = w - 0.05 * X.T @ (X @ w - y) / 6
    np.testing.assert_allclose(run.global_model, w, rtol=1e-12)


def test_one_client_makes_fedavg_centralized_sgd() -> None:
    """m = 1, server step 1: w^g is the client's iterate, and the client's minibatch stream
    runs on across rounds, so T rounds of K steps are local SGD for T·K steps."""
    data = _dataset("logistic", m=1, n=9, d=3, seed=9)
    for unit, per_round in (("local_steps", 4), ("local_epochs", 2)):
        run = fedavg(data, rounds=6, local_step=0.2, batch=2, seed=3, **{unit: per_round})
        solo = local_sgd(data, local_step=0.2, batch=2, seed=3, **{unit: 6 * per_round})
        np.testing.assert_allclose(run.global_model, solo.local_models[0], rtol=1e-12)


def test_fedprox_with_lambda_zero_is_local_training() -> None:
    data = _dataset("squared", counts=[7, 4, 6], seed=10)
    init = np.array([0.3, -0.2, 0.1, 0.0])
    for unit in ("local_epochs", "local_steps"):
        prox = fedprox(
            data,
            lam=0.0,
            rounds=4,
            local_step=0.05,
            server_step=0.8,
            batch=3,
            init_global=init,
            seed=5,
            **{unit: 2},
        )
        local = local_sgd(data, local_step=0.05, batch=3, init=init, seed=5, **{unit: 10})
        np.testing.assert_array_equal(prox.local_models, local.local_models)
        np.testing.assert_array_equal(prox.global_model, init)  # λ η^g = 0: the server rests
    assert not np.allclose(local.local_models, init)


def test_printed_branch_trains_nobody_in_stage_one_under_full_participation() -> None:
    """Algorithm 2 as printed: sampled clients keep their model. With B^g = m every client is
    sampled, so Stage I never trains (reading guide §6, item 2); the corrected branch does."""
    data = _dataset("logistic", m=3, n=8, seed=11)
    init_local = np.random.default_rng(0).standard_normal((3, 4))
    common = {
        "lam": 1.0,
        "rounds": 5,
        "local_epochs": 1,
        "local_step": 0.2,
        "server_step": 0.5,
        "batch": 4,
        "init_local": init_local,
        "seed": 2,
        "record": True,
    }
    printed = fedprox(data, participation="printed", **common)
    assert printed.local_iterates is not None
    np.testing.assert_array_equal(printed.local_iterates, np.tile(init_local, (6, 1, 1)))
    np.testing.assert_array_equal(printed.trace.local_steps[:5], 0)
    np.testing.assert_array_equal(printed.trace.participants, [0, 0, 0, 0, 0, 3])
    assert not np.allclose(printed.local_models, init_local)  # Stage II does train
    corrected = fedprox(data, participation="corrected", **common)
    assert corrected.local_iterates is not None
    assert not np.allclose(corrected.local_iterates[1], init_local)
    np.testing.assert_array_equal(corrected.trace.local_steps, [6] * 6)


@pytest.mark.parametrize(("batch", "unit", "work"), [(1, "local_epochs", 3), (4, "local_steps", 6)])
def test_local_sgd_with_harmonic_steps_lands_on_the_client_mean(
    batch: int, unit: str, work: int
) -> None:
    """Mean loss, η_k = 1/(k + 1): w_{k+1} is the running mean of the minibatch means, so after
    whole epochs (B | n_i) the iterate is the client mean exactly (guide V13: PLT-SGD reaches
    the local ERM); with a constant step it is not."""
    data = _dataset("mean", m=3, n=8, d=3, seed=12)
    iterations = work * 8 // batch if unit == "local_epochs" else work  # whole passes either way
    harmonic = 1.0 / np.arange(1, iterations + 1)
    run = local_sgd(
        data, local_step=harmonic, batch=batch, init=np.full(3, 5.0), seed=4, **{unit: work}
    )
    means = data.features.mean(axis=1)
    np.testing.assert_allclose(run.local_models, means, rtol=1e-12, atol=1e-13)
    constant = local_sgd(data, local_step=0.3, batch=batch, seed=4, **{unit: work})
    assert np.max(np.abs(constant.local_models - means)) > 1e-3


def _drift_dataset() -> tuple[FederatedDataset, np.ndarray, list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(13)
    n = 20
    scales = [np.array([1.0, 0.3]), np.array([0.4, 1.5])]  # heterogeneous Hessians
    optima = [np.array([1.0, -1.0]), np.array([-0.5, 2.0])]
    features = np.stack([rng.standard_normal((n, 2)) * s for s in scales])
    targets = np.stack([features[i] @ optima[i] + 0.1 * rng.standard_normal(n) for i in range(2)])
    data = FederatedDataset(features, targets, [n, n], "squared")
    hessians = [features[i].T @ features[i] / n for i in range(2)]
    local_optima = [np.linalg.solve(hessians[i], features[i].T @ targets[i] / n) for i in range(2)]
    pooled = sum(h @ w for h, w in zip(hessians, local_optima, strict=True)) / 2
    erm = np.linalg.solve(sum(hessians) / 2, pooled)
    return data, erm, hessians, local_optima


def test_constant_step_fedavg_drifts_away_from_the_erm() -> None:
    """Full-batch local GD is affine: w ↦ A_i^K w + (I − A_i^K) w_i*, A_i = I − ηH_i, so FedAvg
    converges to w_K = [Σ p_i (I − A_i^K)]⁻¹ Σ p_i (I − A_i^K) w_i*, which is the ERM of (8)
    only for K = 1 (or equal Hessians): client drift (guide V13)."""
    data, erm, hessians, local_optima = _drift_dataset()
    eta = 0.3
    drifts = {}
    for K in (1, 5):
        run = fedavg(
            data, rounds=1500, local_steps=K, local_step=eta, batch=20, seed=0, record=True
        )
        assert run.global_iterates is not None
        np.testing.assert_allclose(run.global_iterates[-1], run.global_iterates[-2], atol=1e-13)
        powers = [np.linalg.matrix_power(np.eye(2) - eta * h, K) for h in hessians]
        left = sum(np.eye(2) - a for a in powers) / 2
        right = sum((np.eye(2) - a) @ w for a, w in zip(powers, local_optima, strict=True)) / 2
        np.testing.assert_allclose(run.global_model, np.linalg.solve(left, right), atol=1e-10)
        drifts[K] = float(np.linalg.norm(run.global_model - erm))
    assert drifts[1] < 1e-10
    assert drifts[5] > 0.05


# ---------------------------------------------------------------------------- determinism


def test_same_seed_same_bits_and_batches_equal_single_runs() -> None:
    data = [_dataset("logistic", counts=[7, 5, 6], seed=s) for s in (20, 21, 22)]
    settings: dict[str, Any] = {
        "rounds": 4,
        "local_epochs": 2,
        "local_step": 0.2,
        "server_step": 0.8,
        "batch": 3,
        "clients_per_round": 2,
        "record": True,
    }
    batch = fedavg(data, seed=7, **settings)
    again = fedavg(data, seed=7, **settings)
    np.testing.assert_array_equal(batch.global_model, again.global_model)
    assert batch.replicates == 3 and batch.global_model.shape == (3, 4)
    for r in range(3):
        alone = fedavg(data[r], seed=np.random.SeedSequence(7, spawn_key=(r,)), **settings)
        one = batch.replicate(r)
        np.testing.assert_array_equal(one.global_model, alone.global_model)
        np.testing.assert_array_equal(one.global_iterates, alone.global_iterates)
        np.testing.assert_array_equal(one.trace.local_steps, alone.trace.local_steps)
    seeds = [3, 1, 4]
    prox = fedprox(data, lam=0.5, seed=seeds, **settings)
    for r, seed in enumerate(seeds):
        alone = fedprox(data[r], lam=0.5, seed=seed, **settings)
        np.testing.assert_array_equal(prox.local_models[r], alone.local_models)
    other = fedavg(data, seed=8, **settings)
    assert not np.array_equal(other.global_model, batch.global_model)


def test_fine_tune_starts_from_the_fedavg_model() -> None:
    data = _dataset("logistic", m=3, n=8, seed=23)
    run = fedavg(data, rounds=3, local_epochs=1, local_step=0.2, batch=4, seed=1)
    tuned = fine_tune(data, start=run, local_epochs=0, local_step=0.2, batch=4, seed=2)
    np.testing.assert_array_equal(tuned.local_models, np.tile(run.global_model, (3, 1)))
    tuned = fine_tune(data, start=run, local_epochs=2, local_step=0.2, batch=4, seed=2)
    plt = local_sgd(data, init=run.global_model, local_epochs=2, local_step=0.2, batch=4, seed=2)
    np.testing.assert_array_equal(tuned.local_models, plt.local_models)
    assert isinstance(tuned, FederatedRun) and tuned.algorithm == "fine_tune"
    np.testing.assert_array_equal(tuned.trace.gradient_calls, [48])
    np.testing.assert_array_equal(tuned.trace.floats_communicated, [0])
    assert run.trace.floats_communicated.tolist() == [24, 24, 24, 12]


# ---------------------------------------------------------------------------- errors


def test_huge_step_raises_divergence_error() -> None:
    data = _dataset("squared", m=2, n=6, d=3, seed=14)
    with pytest.raises(DivergenceError) as info:
        fedavg(data, rounds=300, local_steps=5, local_step=50.0, batch=3, seed=0)
    assert info.value.algorithm == "fedavg"
    assert 0 <= info.value.round < 300
    tame = FederatedDataset(data.features * 1e-3, data.targets, data.counts, "squared")
    with pytest.raises(DivergenceError, match="replicate 1") as info:
        fedprox(
            [tame, data],
            lam=0.0,
            rounds=200,
            local_steps=5,
            local_step=[0.01] * 4 + [80.0],
            server_step=0.5,
            batch=3,
            seed=[0, 0],
        )
    assert info.value.algorithm == "fedprox"


BAD_FEDAVG: list[tuple[dict[str, Any], str]] = [
    ({"rounds": -1}, "rounds"),
    ({"rounds": 2.0}, "rounds"),
    ({"local_steps": 3}, "local_epochs"),  # both given
    ({"local_epochs": None}, "local_epochs"),  # neither given
    ({"local_epochs": -1}, "local_epochs"),
    ({"local_epochs": [1, 2]}, "local_epochs"),  # needs one per round
    ({"local_step": 0.0}, "local_step"),
    ({"local_step": [0.1, -0.1]}, "local_step"),
    ({"local_step": [0.1]}, "local_step"),  # shorter than a round
    ({"local_step": "theory"}, "local_step"),
    ({"server_step": -1.0}, "server_step"),
    ({"server_step": [1.0, 1.0]}, "server_step"),
    ({"batch": 0}, "batch"),
    ({"batch": 6}, "batch"),  # min n_i = 5
    ({"weights": [0.5, 0.5, 0.5]}, "weights"),
    ({"weights": [0.5, 0.5]}, "weights"),
    ({"clients_per_round": 0}, "clients_per_round"),
    ({"clients_per_round": 4}, "clients_per_round"),
    ({"init": np.zeros(3)}, "init"),
    ({"init": [np.nan] * 4}, "init"),
    ({"seed": None}, "seed"),
    ({"seed": -3}, "seed"),
    ({"record": "yes"}, "record"),
]


@pytest.mark.parametrize(("kwargs", "parameter"), BAD_FEDAVG)
def test_fedavg_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    data = _dataset("logistic", counts=[7, 5, 6], seed=16)
    arguments = {
        "rounds": 3,
        "local_epochs": 2,
        "local_step": [0.1] * 6,
        "batch": 3,
        "seed": 0,
    } | kwargs
    with pytest.raises(ParameterError) as info:
        fedavg(data, **arguments)
    assert info.value.parameter == parameter


BAD_FEDPROX: list[tuple[dict[str, Any], str]] = [
    ({"lam": -0.1}, "lam"),
    ({"lam": np.inf}, "lam"),
    ({"participation": "literal"}, "participation"),
    ({"project_global": 1}, "project_global"),
    ({"local_step": "theory"}, "mu"),
    ({"server_step": "theory", "mu": 0.0}, "mu"),
    ({"server_step": "auto"}, "server_step"),
    ({"local_epochs": [1, 1, 1]}, "local_epochs"),  # needs rounds + 1 values
    ({"init_local": np.zeros((2, 4))}, "init_local"),
    ({"init_global": np.zeros((3, 4))}, "init_global"),
]


@pytest.mark.parametrize(("kwargs", "parameter"), BAD_FEDPROX)
def test_fedprox_bad_input(kwargs: dict[str, Any], parameter: str) -> None:
    data = _dataset("squared", seed=17)
    arguments = {
        "lam": 0.5,
        "rounds": 3,
        "local_epochs": 1,
        "local_step": 0.1,
        "server_step": 0.5,
        "batch": 2,
        "seed": 0,
    } | kwargs
    with pytest.raises(ParameterError) as info:
        fedprox(data, **arguments)
    assert info.value.parameter == parameter


def test_bad_data_and_starts() -> None:
    data = _dataset("mean", seed=18)
    other = _dataset("mean", m=2, seed=19)
    cases: list[tuple[Any, dict[str, Any], str]] = [
        ("data", {}, "data"),
        ([], {}, "data"),
        ([data, other], {}, "data"),
        ([data, _dataset("squared", seed=18)], {}, "data"),
        ([data, data], {"seed": [1, 2, 3]}, "seed"),
        (data, {"local_epochs": [1]}, "local_epochs"),  # an int for a single stage
    ]
    for value, kwargs, parameter in cases:
        arguments = {"local_epochs": 1, "local_step": 0.1, "batch": 2, "seed": 0} | kwargs
        with pytest.raises(ParameterError) as info:
            local_sgd(value, **arguments)
        assert info.value.parameter == parameter
    with pytest.raises(ParameterError) as info:
        fine_tune(data, start=np.zeros(5), local_epochs=1, local_step=0.1, batch=2, seed=0)
    assert info.value.parameter == "start"
    run = fedavg(data, rounds=1, local_epochs=1, local_step=0.1, batch=2, seed=0)
    with pytest.raises(ParameterError, match="single replicate"):
        run.replicate(0)


def test_theory_steps_follow_theorem_11() -> None:
    """Theorem 11, (26): η_{t,k} = 1/((μ + λ)(k + 1)) and λη_t^g = 2(μ + λ)/(μ(t + 1)).
    On the mean loss (μ = 1) one full-batch step of size 1/(μ + λ) from w = w^g lands exactly
    on the proximal point argmin_w ½‖w − z̄_i‖² + (λ/2)‖w − w^g‖² = (z̄_i + λw^g)/(1 + λ)."""
    data = _dataset("mean", m=2, n=4, d=2, seed=24)
    lam, mu = 3.0, 1.0
    run = fedprox(
        data,
        lam=lam,
        rounds=2,
        local_steps=1,
        local_step="theory",
        server_step="theory",
        mu=mu,
        batch=4,
        seed=0,
        record=True,
    )
    means = data.features.mean(axis=1)
    assert run.local_iterates is not None and run.global_iterates is not None
    # round 0: from w = w^g = 0, one step with η = 1/(μ + λ): w = (z̄ + λ·0)/(1 + λ)
    np.testing.assert_allclose(run.local_iterates[1], means / (1 + lam), rtol=1e-13)
    # server: s_0 = 2(μ + λ)/μ = 8 with p = ½: w^g = 0 − 8·(0 − mean of locals)
    np.testing.assert_allclose(
        run.global_iterates[1], 8.0 * run.local_iterates[1].mean(axis=0), rtol=1e-13
    )
    assert run.hyperparameters["local_step"] == "theory"
