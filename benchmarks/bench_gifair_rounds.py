"""GIFAIR-FL rounds against the core FedAvg kernel on the same problem (target ≤ 1.2×).

Run from the repository root::

    .venv/bin/python benchmarks/bench_gifair_rounds.py [--repeats 7] [--rounds 200]

Workload: logistic regression, K = 20 clients × 100 samples × 10 features in 3 groups
(6/10/4 clients), full participation, E = 10 local steps of batch 10 (one pass of gradient work
per client and round), step 0.1. The same data run by

1. the core :func:`fedtheory.algorithms.federated.fedavg` (LocalSGD + ServerStep);
2. :func:`fedtheory.papers.gifair.gifair_global` with λ = 0.5 λ_max, exact r (every client
   reports F_k(θ̄_c): K·n sample losses per round), then stale r (the uploaders report F_k at
   their local models: the same K·n losses under full participation), then λ = 0 (the same
   loss pass; the step multipliers are all 1);
3. the loss pass alone: K·n sample losses at one model, per round (``client_loss`` of every
   client), to say what the difference costs.

Times are the median of ``--repeats`` calls after an untimed one (numba compilation never
counts); per round = total/rounds. The machine is shared: the load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms.federated import fedavg
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.papers.gifair.algorithms import gifair_global
from fedtheory.problems._oracle import client_loss, client_samples
from fedtheory.problems.dataset import FederatedDataset

K, N, P, E, BATCH, STEP = 20, 100, 10, 10, 10, 0.1
SIZES = (6, 10, 4)


@dataclass(frozen=True)
class _Groups:
    labels: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class GroupedClassification:
    """The attributes the kernel view reads (fedtheory.papers.gifair.problems has the class)."""

    groups: _Groups
    loss: str
    features: np.ndarray
    labels: np.ndarray
    counts: np.ndarray
    classes: int
    ridge: float


@njit
def _loss_pass(view: Any, w: np.ndarray, rounds: int) -> float:
    total = 0.0
    m = view.counts.shape[0]
    for _ in range(rounds):
        for i in range(m):
            total += client_loss(client_samples(view, 0, i), w)
    return total


def median_time(run: Callable[[], Any], repeats: int) -> float:
    run()  # warm-up: compilation and caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=200)
    options = parser.parse_args()
    repeats, rounds = options.repeats, options.rounds
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")

    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(len(SIZES)), SIZES)
    truth = rng.standard_normal((len(SIZES), P))
    X = rng.standard_normal((K, N, P))
    margins = np.einsum("knp,kp->kn", X, truth[labels])
    y = np.where(rng.random((K, N)) < 1.0 / (1.0 + np.exp(-margins)), 1.0, -1.0)
    counts = np.full(K, N)
    data = FederatedDataset(X, y, counts, "logistic")
    groups = _Groups(labels, counts / counts.sum())
    problem = GroupedClassification(groups, "logistic", X, y, counts, 2, 0.0)
    sizes = np.bincount(labels)
    lam = 0.5 * float(np.min(groups.weights * sizes[labels]) / (len(SIZES) - 1))

    common = {"rounds": rounds, "local_steps": E, "batch": BATCH, "seed": 0}
    core = median_time(lambda: fedavg(data, local_step=STEP, **common), repeats)
    runs = {
        "gifair λ = 0.5 λ_max, exact r": lambda: gifair_global(
            problem, lam, step_size=STEP, **common
        ),
        "gifair λ = 0.5 λ_max, stale r": lambda: gifair_global(
            problem, lam, step_size=STEP, r_mode="stale", **common
        ),
        "gifair λ = 0 (FedAvg bits + loss pass)": lambda: gifair_global(
            problem, 0.0, step_size=STEP, **common
        ),
    }
    view = kernel_view(problem)
    w = rng.standard_normal(P) * 0.1
    loss_pass = median_time(lambda: _loss_pass(view, w, rounds), repeats)

    print(f"K = {K} clients × {N} samples × {P} features, E = {E} steps of batch {BATCH}, "
          f"{rounds} rounds, full participation")  # fmt: skip
    print(f"  core fedavg                               {1e6 * core / rounds:8.1f} µs/round")
    for name, run in runs.items():
        seconds = median_time(run, repeats)
        print(f"  {name:<40}  {1e6 * seconds / rounds:8.1f} µs/round   ratio "
              f"{seconds / core:5.2f}×")  # fmt: skip
    print(f"  loss pass alone (K·n = {K * N} sample losses)  {1e6 * loss_pass / rounds:8.1f} "
          f"µs/round   = {loss_pass / core:5.2f}× of a FedAvg round")  # fmt: skip
    print(f"  gradient work per round: K·E·B = {K * E * BATCH} sample gradients; "
          f"loss work: K·n = {K * N} sample losses")  # fmt: skip


if __name__ == "__main__":
    main()
