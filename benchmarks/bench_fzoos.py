"""Algorithm 1 of the fzoos paper: one run of every method on the synthetic quadratics (98).

Run from the repository root::

    .venv/bin/python benchmarks/bench_fzoos.py [--repeats 3] [--large]

Workloads (issue 15, Speed): d = 50, N = 5, T = 10, R = 20 (targets: FZooS ≤ 5 s on one core)
and, with ``--large``, the paper's d = 300, R = 50 (FZooS ≤ 60 s). C = 5, Adam η = 0.01, x_0 ~
U[0, 1]^d (seed 0), Q = 20 for the FD methods. Reported per method: the median wall time of
``--repeats`` runs after an untimed one (numba compilation never counts), the queries, and the
gap F(x_R) − F*; for FZooS with the GP surrogate also the share of the time spent outside the
FD-free skeleton (the exact-gradient oracle run on the same loop: logs, ∇F, the optimizer).
The machine is shared: the load average is printed first; FZooS rows also give the process CPU
time (less sensitive to other jobs than the wall time).

``--gp`` runs only FZooS with the GP surrogate: the active queries unranked (5 of 5 candidates,
the guide's §4.8 prototype whose 85 s the issue quotes), ranked exactly (5 of 100, App. E) and
ranked locally (``neighbours`` 60 and 256), the
gap F(x_r) − F* at r = 0/5/10/20 for GD at η = 1/(10βT) and for Adam η = 0.01 (C = 5, d = 50;
guide §4.8), and ``--breakdown`` replays one client's per-step kernel sequence (GP append of
the iterate, lazy sync of K_σ⁻¹ and K_σ⁻¹⊙XXᵀ, trace uncertainty of 100 candidates, append of
the 5 active points, ∇μ, RFF correction, the round-end RFF solve) and times each kernel.
"""

from __future__ import annotations

import argparse
import math
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


def _gp_runs(d: int, rounds: int, optimizers: tuple[str, ...] = ("adam", "gd")) -> None:
    """FZooS (GP) wall and CPU time, exact vs local ranking, and the gaps at r = 0/5/10/20."""
    problem = SyntheticQuadratics(d, 5, 5.0, seed=0)
    x0 = np.random.default_rng(0).uniform(size=d)
    f_star = problem.optimum_value
    beta = problem.constants()["smoothness"]
    T = 10
    for extra in ({}, {"neighbours": 60}, {"n_cand": 5}):  # compile
        fzoos(problem, rounds=1, local_steps=2, step_size=0.01, init=x0, seed=0, **extra)
    marks = [r for r in (0, 5, 10, 20, rounds) if r <= rounds]
    print(f"FZooS (GP, M = 1000) d = {d}, N = 5, T = {T}, R = {rounds}, C = 5")
    settings = {
        "Adam η=0.01": {"optimizer": "adam", "step_size": 0.01},
        f"GD η=1/(10βT)={1 / (10 * beta * T):.3g}": {"step_size": 1 / (10 * beta * T)},
    }
    rankings = {  # label: the active-query settings
        "5 of 5 (no rank)": {"n_cand": 5},  # the guide's §4.8 prototype: random active points
        "5/100 exact": {},  # App. E: the top 5 of 100 candidates by the exact tr Σ
        "5/100 local 60": {"neighbours": 60},
        "5/100 local 256": {"neighbours": 256},
    }
    for name, opt in settings.items():
        if opt.get("optimizer", "gd") not in optimizers:
            continue
        for label, ranking in rankings.items():
            wall, cpu = time.perf_counter(), time.process_time()
            run = fzoos(problem, rounds=rounds, local_steps=T, init=x0, seed=0, **ranking, **opt)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            gaps = " / ".join(f"{run.log.values[r] - f_star:.3g}" for r in marks)
            print(
                f"  {name:22s} {label:12s} wall {wall:7.2f} s  cpu {cpu:7.2f} s  "
                f"queries {run.queries}  gap r={marks}: {gaps}"
            )


def _breakdown(d: int, rounds: int, T: int = 10, M: int = 1000, active: int = 5) -> None:
    """Time each kernel of one client's FZooS steps (a random-walk trajectory, d-dim)."""
    from fedtheory.papers.fzoos import _gp_kernels as G
    from fedtheory.papers.fzoos import _rff_kernels as F
    from fedtheory.papers.fzoos.gp import gp_state

    rng = np.random.default_rng(0)
    state = gp_state(rounds * T * (1 + active), d, noise=1e-4)
    V, b, s = rng.standard_normal((M, d)), rng.uniform(0, 2 * math.pi, M), math.sqrt(2 / M)
    x, g, out = rng.uniform(size=d), np.empty(d), np.empty(d)
    scores, w = np.empty(100), np.zeros(M)
    names = ("append x", "sync A,H", "tr Σ (100)", "append 5", "∇μ", "RFF corr", "RFF w")
    spent = dict.fromkeys(names, 0.0)
    history: list[np.ndarray] = []
    gram, moment, done = np.zeros((M, M)), np.zeros(M), 0
    small = rng.uniform(size=(3, d))  # compile the RFF kernels outside the timings
    F.rff_weights(V, b, s, small, np.ones(3), 1e-4, F.SYSTEM_SAMPLES, w)
    F.rff_accumulate(V, b, s, small, np.ones(3), np.zeros((M, M)), np.zeros(M))
    F.rff_solve(np.eye(M), np.zeros(M), 1e-4, w)
    for step in range(-2, rounds * T):  # two warm-up steps (compilation)
        x = x + 0.01 * rng.standard_normal(d)
        cand = x + rng.uniform(-0.01, 0.01, (100, d))
        one, ones = x[None, :], np.ones(active)
        calls = (
            ("append x", lambda: G.gp_append(state, one, np.ones(1))),  # noqa: B023
            ("sync A,H", lambda: G.gp_sync(state)),
            ("tr Σ (100)", lambda: G.gp_trace_uncertainty(state, cand, scores)),  # noqa: B023
            ("append 5", lambda: G.gp_append(state, cand[:active], ones)),  # noqa: B023
            ("∇μ", lambda: G.gp_mean_gradient(state, one[0], g)),  # noqa: B023
            ("RFF corr", lambda: F.rff_gradient(V, b, s, one[0], w, out)),  # noqa: B023
        )
        for name, call in calls:
            start = time.perf_counter()
            call()
            if step >= 0:
                spent[name] += time.perf_counter() - start
        history.extend([x, *cand[:active]])
        if step >= 0 and step % T == T - 1:
            n = len(history)
            X = np.array(history)
            start = time.perf_counter()
            if n * n * (M + n / 3) < M**3 / 3:  # the step's cheaper exact form
                F.rff_weights(V, b, s, X, np.ones(n), 1e-4, F.SYSTEM_SAMPLES, w)
            else:  # the round's points into the M × M moments, then the solve
                F.rff_accumulate(V, b, s, X[done:], np.ones(n - done), gram, moment)
                done = n
                F.rff_solve(gram, moment, 1e-4, w)
            spent["RFF w"] += time.perf_counter() - start
    total = sum(spent.values())
    parts = ", ".join(f"{k} {v:.2f} s ({100 * v / total:.0f}%)" for k, v in spent.items())
    print(f"  one client, d = {d}, R = {rounds}: {total:.2f} s — {parts}")


def _workload(d: int, rounds: int, repeats: int) -> None:
    problem = SyntheticQuadratics(d, 5, 5.0, seed=0)
    x0 = np.random.default_rng(0).uniform(size=d)
    f_star = problem.optimum_value
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
    parser.add_argument("--gp", action="store_true", help="FZooS (GP) timings and gaps only")
    parser.add_argument("--breakdown", action="store_true", help="per-kernel time of FZooS")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    if args.breakdown:
        _breakdown(50, 20)
        if args.large:
            _breakdown(300, 50)
        return
    if args.gp:
        _gp_runs(50, 20)
        if args.large:
            _gp_runs(300, 50, optimizers=("adam",))  # GD's rows at d = 300 add minutes, no insight
        return
    _workload(50, 20, args.repeats)
    if args.large:
        _workload(300, 50, args.repeats)


if __name__ == "__main__":
    main()
