"""Algorithm 1 of the fzoos paper: one run of every method on the synthetic quadratics (98).

Run from the repository root::

    .venv/bin/python benchmarks/bench_fzoos.py [--repeats 3] [--large]

Workloads (issue 15, Speed): d = 50, N = 5, T = 10, R = 20 (targets: FZooS ≤ 5 s on one core)
and, with ``--large``, the paper's d = 300, R = 50 (FZooS ≤ 60 s). C = 5, Adam η = 0.01, x_0 ~
U[0, 1]^d (seed 0), Q = 20 for the FD methods. Reported per method: the median wall time of
``--repeats`` runs after an untimed one (numba compilation never counts), the queries, and the
gap F(x_R) − F*; for FZooS with the GP surrogate also the share of the time spent outside the
FD-free skeleton (the exact-gradient oracle run on the same loop: logs, ∇F, the optimizer).
The machine is shared: the load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos.algorithms import fedprox_zo, fedzo, fzoos, scaffold_zo
from fedtheory.papers.fzoos.problems import SyntheticQuadratics


def _median_time(call: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    result = call()  # compile / warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def _workload(d: int, rounds: int, repeats: int) -> None:
    problem = SyntheticQuadratics(d, 5, 5.0, seed=0)
    x0 = np.random.default_rng(0).uniform(size=d)
    f_star = (1 - d / 4) / (10 * d)
    common = {
        "rounds": rounds,
        "local_steps": 10,
        "step_size": 0.01,
        "optimizer": "adam",
        "init": x0,
        "seed": 0,
    }
    methods: dict[str, Callable[[], Any]] = {
        "FedZO": lambda: fedzo(problem, **common),
        "FedProx-ZO (μ=0.1)": lambda: fedprox_zo(problem, 0.1, **common),
        "SCAFFOLD I": lambda: scaffold_zo(problem, variant=1, **common),
        "SCAFFOLD II": lambda: scaffold_zo(problem, variant=2, **common),
        "FZooS oracle (exact)": lambda: fzoos(problem, estimator="exact", **common),
        "FZooS (GP, M=1000)": lambda: fzoos(problem, **common),
    }
    print(f"d = {d}, N = 5, T = 10, R = {rounds}, C = 5, Adam η = 0.01")
    for name, call in methods.items():
        try:
            seconds, run = _median_time(call, repeats)
        except ParameterError as error:
            print(f"  {name:24s} unavailable: {error}")
            continue
        gap = float(run.log.values[-1] - f_star)
        print(f"  {name:24s} {seconds:8.3f} s  queries {run.queries:7d}  gap {gap:.3e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="also d = 300, R = 50")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    _workload(50, 20, args.repeats)
    if args.large:
        _workload(300, 50, args.repeats)


if __name__ == "__main__":
    main()
