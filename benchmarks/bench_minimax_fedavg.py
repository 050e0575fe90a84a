"""FedAvg at the App. D sizes of the minimax paper: numba kernel vs numpy, on 2 cores.

Run from the repository root (ideally on an otherwise idle machine)::

    .venv/bin/python benchmarks/bench_minimax_fedavg.py [--replicates 100]

Workload (Chen, Zheng, Long & Su, App. D; reading guide §2.6): FedAvg with local minibatch SGD
on logistic regression, m = 5 clients, n_i = 100, d = 100, T = 20 rounds, 5 local epochs per
round at step 0.2, batch 16 (last partial batch kept), server step 0.8, full participation,
p_i = n_i/N; 100 replicates, each with its own data (w_⋆ ~ N(0, I), client optima
w_⋆ + R v_i with R = 4 and v_i a unit vector negatively correlated with w_⋆, features
x ~ N(0, I), logistic labels).

Three implementations, measured in one run:

(a) **numba via the executor** — the toolkit's own path: a tiny claim module (written to a
    temporary folder, like ``bench_engine.py``) whose experiment runs one replicate, i.e. one
    :func:`fedtheory.algorithms.federated.fedavg` call on that replicate's data;
    ``fedtheory.verify.verify`` runs the 100 replicates (4 tasks of 25) on the local executor
    with 2 worker processes, ``no_cache=True`` and a temporary store. Wall time of the whole
    ``verify`` call: discovery, tasks, store writes, judging. The kernel is compiled in the
    parent first (the forked workers inherit it) and one untimed ``verify`` call starts the
    pool (reused by the timed calls, as a long run reuses it) and warms up the runner's
    imports, so compilation and process start are excluded. Two more rows separate
    the kernel from the executor: the same kernel in this process on one core (one batched
    call over the 100 replicates), and on two processes forked by a plain
    ``multiprocessing.Pool`` (50 replicates each, one batched call per process; pool start
    included) without runner and store.
(b) **numpy loop** — per replicate, per round, per client, per minibatch: gather the rows,
    margins ``X_B w``, slopes, gradient ``X_Bᵀ c / b``, step; the server average.
(c) **numpy vectorised** — the same arithmetic batched over the 100 replicates and 5 clients:
    one gather, one batched matmul for the margins and one for the gradients per minibatch step.

All three use the *same random streams*: the minibatch order is the kernel's documented
counter-based stream (SplitMix64 + Fisher–Yates, ``_federated_kernels`` docstring), which (b)
and (c) rebuild in vectorised numpy from the same seeds; so the three results must agree to
rounding (the table reports the largest difference), not just statistically.

Data generation is *excluded from every timing*: each replicate's data is drawn from its seed
before the clock starts (1–3 ms per replicate, as much as the kernel's ~1.5 ms, so including
it would largely time ``standard_normal``). The executor's experiment gets it from a dict in the
claim module that the benchmark fills before ``verify`` runs; the forked workers inherit it
(copy-on-write), and a seed missing from it would be generated on the spot, as a real claim
would. Flops are counted as 4·d per sample gradient (margin dot product 2d, gradient axpy 2d;
the sigmoid, the step and the server average are not counted). The matmul rate is ``np.dot``
of two 2000×2000 float64 matrices with OpenBLAS on both cores, measured in the same run. Every
row is the median of ``--repeats`` timings (default 3).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from fedtheory._seeds import generator
from fedtheory.algorithms.federated import fedavg
from fedtheory.problems.dataset import FederatedDataset
from fedtheory.verify import verify
from fedtheory.verify.discovery import load_claim_file
from fedtheory.verify.executors import LocalExecutor
from fedtheory.verify.runner import VerifyRun, replicate_seed

CLAIM_ID = "minimax/bench/fedavg-app-d"
M, N, D = 5, 100, 100
ROUNDS, EPOCHS, LOCAL_STEP, SERVER_STEP, BATCH = 20, 5, 0.2, 0.8, 16
HETEROGENEITY = 4.0

CLAIM_MODULE = f'''
"""Benchmark claim: one FedAvg replicate at the App. D sizes per experiment call."""

from __future__ import annotations

import numpy as np

from fedtheory.algorithms.federated import fedavg
from fedtheory.bounds import Citation
from fedtheory.problems.dataset import FederatedDataset
from fedtheory.verify import Claim, Sweep, Verdict
from fedtheory.verify.criteria import Criterion

M, N, D = {M}, {N}, {D}


def app_d_data(seed: int) -> FederatedDataset:
    """App. D data of one replicate, from its own stream (spawn key 1: apart from FedAvg's)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    w_star = rng.standard_normal(D)
    v = rng.standard_normal((M, D))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    v *= np.where(v @ w_star > 0, -1.0, 1.0)[:, None]
    optima = w_star + {HETEROGENEITY} * v
    features = rng.standard_normal((M, N, D))
    margins = np.einsum("mnd,md->mn", features, optima)
    labels = np.where(rng.random((M, N)) < 1.0 / (1.0 + np.exp(-margins)), 1.0, -1.0)
    return FederatedDataset(features, labels, np.full(M, N), "logistic")


#: Data generated beforehand by the benchmark, by seed (the forked workers inherit it); a
#: seed that is not here has its data generated on the spot.
DATA: dict[int, FederatedDataset] = {{}}


def fedavg_replicate(params: dict, seed: int) -> dict[str, float]:
    data = DATA.get(seed)
    run = fedavg(
        app_d_data(seed) if data is None else data,
        rounds={ROUNDS},
        local_epochs={EPOCHS},
        local_step={LOCAL_STEP},
        server_step={SERVER_STEP},
        batch={BATCH},
        seed=seed,
    )
    return {{f"w{{k:03d}}": float(value) for k, value in enumerate(run.global_model)}}


class Finite(Criterion):
    """Holds when every replicate returned (finite values are enforced by the executor)."""

    def judge(self, data, *, seed=0):
        count = sum(len(point.replicates) for point in data.points)
        return Verdict("holds", "benchmark", measured=f"{{count}} replicates")

    def describe(self) -> str:
        return "benchmark (always holds)"

    def to_dict(self) -> dict:
        return {{"criterion": "Finite"}}


def _sweep(replicates: int) -> Sweep:
    return Sweep(replicates=replicates)


BENCH = Claim(
    id="{CLAIM_ID}",
    source=Citation("minimax", "Appendix D (benchmark)"),
    statement="FedAvg at the App. D sizes (benchmark, not a prediction).",
    experiment=fedavg_replicate,
    sweeps={{"smoke": _sweep(REPLICATES), "quick": _sweep(REPLICATES)}},
    criterion=Finite(),
)
'''


# --------------------------------------------------------------------------- the random streams

GAMMA = np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on uint64 arrays (numpy array arithmetic wraps mod 2^64)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def stream_seed(seed: int) -> np.uint64:
    """The kernel seed fedavg draws from ``seed`` (first draw of its Generator)."""
    return np.uint64(generator(seed).integers(0, 2**64, dtype=np.uint64))


class EpochOrders:
    """The kernel's minibatch order, epoch after epoch, for many (replicate, client) streams.

    In epochs mode with equal n_i the kernel's client i draws counters e·n + 1, …, e·n + n in
    epoch e and permutes its running order P by a forward Fisher–Yates shuffle with those
    draws; applied to P that is P[σ_e], σ_e the same shuffle of the identity. σ_e is computed
    here for all streams at once (uint64 arrays), then composed.
    """

    def __init__(self, seeds: np.ndarray, m: int, n: int) -> None:
        clients = np.arange(1, m + 1, dtype=np.uint64)
        with np.errstate(over="ignore"):
            self.keys = _mix(seeds[:, None] + clients[None, :] * GAMMA).reshape(-1)  # (S,)
        self.n = n
        self.order = np.tile(np.arange(n), (self.keys.size, 1))
        self.epoch = 0

    def next(self, epochs: int) -> np.ndarray:
        """The orders of the next ``epochs`` epochs, shape (S, epochs, n)."""
        n, streams = self.n, self.keys.size
        counters = np.arange(self.epoch * n + 1, (self.epoch + epochs) * n + 1, dtype=np.uint64)
        with np.errstate(over="ignore"):
            draws = _mix(self.keys[:, None] + counters[None, :] * GAMMA)
        positions = np.tile(np.arange(n), epochs)  # q, for every draw
        spans = (n - positions).astype(np.uint64)  # the draw at q picks in [q, n)
        offsets = ((draws >> np.uint64(32)) * spans) >> np.uint64(32)
        picks = (positions + offsets.astype(np.int64)).reshape(streams * epochs, n)
        sigma = np.tile(np.arange(n), (streams * epochs, 1))
        rows = np.arange(streams * epochs)
        for q in range(n):
            held = sigma[:, q].copy()
            sigma[:, q] = sigma[rows, picks[:, q]]
            sigma[rows, picks[:, q]] = held
        sigma = sigma.reshape(streams, epochs, n)
        out = np.empty((streams, epochs, n), dtype=np.int64)
        for e in range(epochs):
            self.order = np.take_along_axis(self.order, sigma[:, e], axis=1)
            out[:, e] = self.order
        self.epoch += epochs
        return out


# --------------------------------------------------------------------------- (b) and (c)


def _slopes(margins: np.ndarray) -> np.ndarray:
    """sig(−margin), stably."""
    return np.exp(-np.logaddexp(0.0, margins))


def numpy_loop(seeds: list[int], datasets: list[FederatedDataset]) -> np.ndarray:
    """(b): per replicate, round, client and minibatch."""
    out = []
    for seed, data in zip(seeds, datasets, strict=True):
        X, y = data.features, data.targets
        p = data.sample_weights
        orders = EpochOrders(np.array([stream_seed(seed)]), M, N)
        wg = np.zeros(D)
        for _ in range(ROUNDS):
            epoch_orders = orders.next(EPOCHS)  # (M, EPOCHS, N)
            pull = np.zeros(D)
            for i in range(M):
                w = wg.copy()
                for e in range(EPOCHS):
                    order = epoch_orders[i, e]
                    for start in range(0, N, BATCH):
                        rows = order[start : start + BATCH]
                        Xb, yb = X[i, rows], y[i, rows]
                        coef = -yb * _slopes(yb * (Xb @ w))
                        w -= LOCAL_STEP * (Xb.T @ coef) / rows.size
                pull += p[i] * (wg - w)
            wg = wg - SERVER_STEP * pull
        out.append(wg)
    return np.array(out)


def numpy_vectorised(seeds: list[int], datasets: list[FederatedDataset]) -> np.ndarray:
    """(c): the same arithmetic batched over replicates × clients (S = R·m streams)."""
    reps = len(seeds)
    X = np.stack([x.features for x in datasets]).reshape(reps * M * N, D)
    y = np.stack([x.targets for x in datasets]).reshape(reps * M * N)
    p = np.stack([x.sample_weights for x in datasets])  # (R, M)
    offsets = (np.arange(reps * M) * N)[:, None]
    orders = EpochOrders(np.array([stream_seed(s) for s in seeds]), M, N)
    wg = np.zeros((reps, D))
    for _ in range(ROUNDS):
        epoch_orders = orders.next(EPOCHS)  # (S, EPOCHS, N)
        W = np.repeat(wg, M, axis=0)  # (S, D): every client starts from w^g
        for e in range(EPOCHS):
            for start in range(0, N, BATCH):
                rows = epoch_orders[:, e, start : start + BATCH] + offsets  # (S, b)
                Xb, yb = X[rows], y[rows]  # (S, b, D), (S, b)
                margins = yb * np.matmul(Xb, W[:, :, None])[:, :, 0]
                coef = -yb * _slopes(margins)
                W -= (LOCAL_STEP / rows.shape[1]) * np.matmul(coef[:, None, :], Xb)[:, 0, :]
        pull = np.einsum("rm,rmd->rd", p, wg[:, None, :] - W.reshape(reps, M, D))
        wg = wg - SERVER_STEP * pull
    return wg


# --------------------------------------------------------------------------- numba, 2 processes

#: Set before forking: the worker processes of :func:`numba_two_processes` inherit it.
_SHARED: dict[str, list] = {}


def _numba_part(part: int) -> np.ndarray:
    """One process's share of the replicates (every other one), in one batched kernel call."""
    datasets, seeds = _SHARED["datasets"][part::2], _SHARED["seeds"][part::2]
    run = fedavg(
        datasets,
        rounds=ROUNDS,
        local_epochs=EPOCHS,
        local_step=LOCAL_STEP,
        server_step=SERVER_STEP,
        batch=BATCH,
        seed=seeds,
    )
    return run.global_model


def numba_two_processes() -> np.ndarray:
    """The kernel on 2 forked processes without the runner (pool start included)."""
    with multiprocessing.get_context("fork").Pool(2) as pool:
        even, odd = pool.map(_numba_part, [0, 1])
    models = np.empty((len(_SHARED["seeds"]), D))
    models[0::2], models[1::2] = even, odd
    return models


# --------------------------------------------------------------------------- timing helpers


def _timed(function: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def _median_time(function: Callable[[], object], repeats: int) -> tuple[float, float, object]:
    """Median and spread (max − min) of the wall time over ``repeats`` calls, and a result."""
    timings = []
    result: object = None
    for _ in range(repeats):
        seconds, result = _timed(function)
        timings.append(seconds)
    return float(np.median(timings)), max(timings) - min(timings), result


def matmul_rate(repeats: int) -> float:
    """float64 GFLOP/s of a 2000×2000 matrix product (OpenBLAS, all cores), median."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2000, 2000)), rng.standard_normal((2000, 2000))
    np.dot(a, b)
    seconds, _, _ = _median_time(lambda: np.dot(a, b), max(repeats, 5))
    return 2 * 2000**3 / seconds / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3, help="timings per row (median)")
    arguments = parser.parse_args()
    replicates, repeats = arguments.replicates, arguments.repeats
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        folder = root / "claims"
        folder.mkdir()
        claim_file = folder / "bench_fedavg.py"
        claim_file.write_text(textwrap.dedent(CLAIM_MODULE).replace("REPLICATES", str(replicates)))
        # the claim module, loaded (and cached) the way the runner loads it
        claim_module = load_claim_file(claim_file)[0].claim.experiment.__globals__
        params: dict[str, object] = {}
        seeds = [replicate_seed(0, CLAIM_ID, params, r) for r in range(replicates)]
        generation, datasets = _timed(lambda: [claim_module["app_d_data"](s) for s in seeds])
        claim_module["DATA"].update(zip(seeds, datasets, strict=True))
        # warm-up: compile the kernel (workers fork from this process and inherit it)
        claim_module["fedavg_replicate"]({}, seeds[0])

        # one pool for every timed run, started by the warm-up: starting processes is setup,
        # like compiling, and a long verification run pays it once
        pool = LocalExecutor(2)

        def through_executor() -> object:
            return verify(
                [folder],
                profile="smoke",
                claims=CLAIM_ID,
                no_cache=True,
                store=root / "bench.sqlite",
                executor=pool,
            )

        through_executor()  # warm-up: starts the workers, first-call imports, the store file
        executor_seconds, executor_spread, run = _median_time(through_executor, repeats)
        assert isinstance(run, VerifyRun)
        result = run.results[0]
        assert result.verdict.outcome == "holds", result.verdict.reason
        assert result.measurements is not None
        point = result.measurements.points[0]
        by_seed = dict(zip(point.seeds.tolist(), range(len(point.seeds)), strict=True))
        order = [by_seed[s] for s in seeds]
        executor_models = np.stack([point.values[f"w{k:03d}"][order] for k in range(D)], axis=1)
        in_tasks = result.compute_seconds

        def numba_in_process() -> np.ndarray:
            batch_run = fedavg(
                datasets,
                rounds=ROUNDS,
                local_epochs=EPOCHS,
                local_step=LOCAL_STEP,
                server_step=SERVER_STEP,
                batch=BATCH,
                seed=seeds,
            )
            return batch_run.global_model

        kernel = _median_time(numba_in_process, repeats)
        _SHARED.update(datasets=datasets, seeds=seeds)
        forked = _median_time(numba_two_processes, repeats)
        vector = _median_time(lambda: numpy_vectorised(seeds, datasets), repeats)
        loop = _median_time(lambda: numpy_loop(seeds, datasets), repeats)
        pool.close()
        rate = matmul_rate(repeats)

    load_after = os.getloadavg()
    gradients = replicates * M * ROUNDS * EPOCHS * N
    flops = 4 * D * gradients
    loop_seconds, vector_seconds = loop[0], vector[0]
    loop_models = np.asarray(loop[2])
    scale = float(np.max(np.abs(loop_models)))

    def difference(models: object) -> str:
        return f"{float(np.max(np.abs(np.asarray(models) - loop_models))) / scale:.1e}"

    rows = [
        (
            "(a) numba, executor, 2 workers",
            executor_seconds,
            executor_spread,
            difference(executor_models),
        ),
        ("    numba kernel, 1 process, 1 core", kernel[0], kernel[1], difference(kernel[2])),
        ("    numba kernel, 2 forked processes", forked[0], forked[1], difference(forked[2])),
        ("(b) numpy loop", loop[0], loop[1], "(reference)"),
        ("(c) numpy vectorised", vector[0], vector[1], difference(vector[2])),
    ]
    print(
        f"FedAvg, App. D sizes: m={M}, n_i={N}, d={D}, T={ROUNDS}, {EPOCHS} local epochs, "
        f"batch {BATCH}, {replicates} replicates = {gradients:.3g} sample gradients "
        f"({flops / 1e9:.3g} GFLOP at 4·d per sample gradient); data generated beforehand "
        f"({generation:.3f} s), excluded from every timing"
    )
    print(
        f"machine: {os.cpu_count()} cores, float64 matmul (2000², OpenBLAS, both cores) "
        f"{rate:.1f} GFLOP/s; load average {load_before[0]:.2f} before, {load_after[0]:.2f} "
        f"after; seconds = median of {repeats} runs (spread = max − min)"
    )
    header = (
        f"{'implementation':<36} {'seconds':>8} {'spread':>7} {'vs loop':>8} {'vs vec':>7} "
        f"{'Mgrad/s':>8} {'GFLOP/s':>8} {'% matmul':>9} {'max rel diff':>13}"
    )
    print(header)
    print("-" * len(header))
    for name, seconds, spread, diff in rows:
        gflops = flops / seconds / 1e9
        print(
            f"{name:<36} {seconds:8.3f} {spread:7.3f} {loop_seconds / seconds:7.1f}x "
            f"{vector_seconds / seconds:6.1f}x {gradients / seconds / 1e6:8.2f} "
            f"{gflops:8.2f} {100 * gflops / rate:8.1f}% {diff:>13}"
        )
    print(
        f"executor (last run): {in_tasks:.3f} s of experiment time inside the tasks (both "
        f"workers together); wall time minus half of it: {executor_seconds - in_tasks / 2:.3f} s "
        "(discovery, store, judging, imbalance; the pool is started before timing)"
    )
    print(
        "targets: numba (a) >= 20x the loop and >= 5x the vectorised numpy; "
        "aim for 20% of the matmul rate"
    )


if __name__ == "__main__":
    main()
