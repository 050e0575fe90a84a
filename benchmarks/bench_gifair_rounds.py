"""GIFAIR-FL rounds against the core FedAvg kernel on the same problem (target ≤ 1.2×).

Run from the repository root::

    .venv/bin/python benchmarks/bench_gifair_rounds.py [--repeats 7] [--rounds 200]

Workload: logistic regression, K = 20 clients × 100 samples × 10 features in 3 groups
(6/10/4 clients), full participation, E local steps of batch 10 (E = 10: one pass of gradient
work per client and round), step 0.1, ridge ρ = 1e-3 (a problem needs ρ > 0; FedAvg's data has
no ridge, so gifair's local step does one extra shrink w ← (1 − ηρ)w of d flops). Reported:

1. at E = 10: the core :func:`fedtheory.algorithms.federated.fedavg` (LocalSGD + ServerStep);
   :func:`fedtheory.papers.gifair.gifair_global` with λ = 0.5 λ_max and exact r (every client
   reports F_k(θ̄_c) every round: Algorithm 2 needs every reported loss), with stale r (the
   uploaders report F_k at their local models: the same K losses under full participation),
   and with λ = 0 (FedAvg doing the same loss reporting on the same loop: every c_k = 1);
2. the loss pass alone, K client losses at one model per round: the fused ``client_loss`` of
   the kernel view and the generic mean of per-sample losses it replaced;
3. the ratio gifair / core FedAvg and gifair / (FedAvg + the same reporting) as a function of
   the local work E (the loss pass is fixed, K·n sample losses; the gradient work is K·E·B).

Times are the median of ``--repeats`` calls after an untimed one (numba compilation never
counts); per round = total/rounds. The machine is shared: the load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms.federated import fedavg
from fedtheory.papers.gifair._samples import kernel_view
from fedtheory.papers.gifair.algorithms import gifair_global
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedClassification
from fedtheory.problems._oracle import _client_loss_by_samples, client_loss, client_samples
from fedtheory.problems.dataset import FederatedDataset

K, N, P, E, BATCH, STEP, RIDGE = 20, 100, 10, 10, 10, 0.1, 1e-3
SIZES = (6, 10, 4)
SWEEP = (1, 2, 5, 10, 20, 50)


@njit
def _loss_pass(view: Any, w: np.ndarray, rounds: int, fused: bool) -> float:
    total = 0.0
    m = view.counts.shape[0]
    for _ in range(rounds):
        for i in range(m):
            samples = client_samples(view, 0, i)
            total += client_loss(samples, w) if fused else _client_loss_by_samples(samples, w)
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
    groups = GroupStructure.from_counts(labels, counts)
    problem = GroupedClassification(groups, "logistic", X, y, counts, 2, RIDGE, X, y, counts)
    lam = 0.5 * groups.lambda_max

    def per_round(seconds: float) -> str:
        return f"{1e6 * seconds / rounds:8.1f} µs/round"

    def timings(E: int) -> dict[str, float]:
        common = {"rounds": rounds, "local_steps": E, "batch": BATCH, "seed": 0}
        return {
            "core fedavg": median_time(lambda: fedavg(data, local_step=STEP, **common), repeats),
            "gifair λ = 0.5 λ_max, exact r": median_time(
                lambda: gifair_global(problem, lam, step_size=STEP, **common), repeats
            ),
            "gifair λ = 0.5 λ_max, stale r": median_time(
                lambda: gifair_global(problem, lam, step_size=STEP, r_mode="stale", **common),
                repeats,
            ),
            "gifair λ = 0 (FedAvg + same reporting)": median_time(
                lambda: gifair_global(problem, 0.0, step_size=STEP, **common), repeats
            ),
        }

    print(f"K = {K} clients × {N} samples × {P} features, batch {BATCH}, {rounds} rounds, "
          "full participation")  # fmt: skip
    times = timings(E)
    core = times["core fedavg"]
    print(f"\nE = {E} local steps (K·E·B = {K * E * BATCH} sample gradients per round):")
    for name, seconds in times.items():
        print(f"  {name:<40} {per_round(seconds)}   ratio {seconds / core:5.2f}×")

    view = kernel_view(problem)
    w = rng.standard_normal(P) * 0.1
    fused = median_time(lambda: _loss_pass(view, w, rounds, True), repeats)
    generic = median_time(lambda: _loss_pass(view, w, rounds, False), repeats)
    print(f"\nloss pass alone (K·n = {K * N} sample losses per round):")
    print(f"  fused client_loss                        {per_round(fused)}   = "
          f"{fused / core:5.2f}× of a FedAvg round")  # fmt: skip
    print(f"  generic mean of sample_loss (before)     {per_round(generic)}   = "
          f"{generic / core:5.2f}× of a FedAvg round")  # fmt: skip
    print(f"  core fedavg + fused loss pass (sum)      {per_round(core + fused)}   gifair exact "
          f"/ that = {times['gifair λ = 0.5 λ_max, exact r'] / (core + fused):5.2f}×")  # fmt: skip

    print("\nratio as a function of the local work (gifair λ = 0.5 λ_max, exact r):")
    print(f"  {'E':>3} {'epochs':>6}  {'fedavg µs':>9}  {'gifair µs':>9}  {'/ fedavg':>8}  "
          f"{'/ (λ = 0)':>9}")  # fmt: skip
    for steps in SWEEP:
        row = times if steps == E else timings(steps)
        ours = row["gifair λ = 0.5 λ_max, exact r"]
        base = row["core fedavg"]
        same = row["gifair λ = 0 (FedAvg + same reporting)"]
        print(f"  {steps:>3} {steps * BATCH / N:>6.1f}  {1e6 * base / rounds:9.1f}  "
              f"{1e6 * ours / rounds:9.1f}  {ours / base:7.2f}×  {ours / same:8.2f}×")  # fmt: skip


if __name__ == "__main__":
    main()
