"""The FZooS GP estimator per local step: time vs history size n, exact vs local ranking.

Run from the repository root::

    .venv/bin/python benchmarks/bench_fzoos_gp.py [--dimension 50] [--steps 200]
        [--neighbours 256] [--rff 1000]

Workload: one client's FZooS local steps (guide §2.6 with the A2 order): append the iterate x
and its value, score 100 candidates x + U[−0.01, 0.01]^d by tr Σ, append the top 5, take
∇μ(x), move x by a sign step of 0.01 (Adam's first steps); every T = 10 steps x is pulled
half-way back to the round's start (a stand-in for the server average). The objective is
f(x) = ‖x − ½‖² + sin(3·x₁). The history grows by 6 points per step to n = 6·steps
(d = 50, 200 steps: the issue's R = 20, T = 10; d = 300, 500 steps: R = 50).

Every step is scored twice on the same state: exactly (:func:`gp_trace_uncertainty`, which
drives the trajectory) and with the local approximation on the ``--neighbours`` nearest
points (:func:`gp_trace_uncertainty_local`); the table gives both times per step and their
top-5 agreement (mean overlap of the two index sets, share of steps with the same set, and the
exact-score regret of the local choice: 1 − Σ_exact(local top-5)/Σ_exact(exact top-5) of the
uncertainty *above the smallest candidate's*). Last: the per-round RFF weight solve at the final
history (n = 6·steps) with M = ``--rff`` features, by the n × n / M × M direct solve and by the
accumulated M × M moments. The machine is shared: the load average is printed first; single
BLAS thread. Times are CPU seconds of this process (``time.process_time``): the shared machine
is often oversubscribed, which inflates wall times; memory-bound passes still slow down under
load. A reference product (100, n)·(n, n) is timed at the end as a yardstick.
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time
import warnings

import numba
import numpy as np

from fedtheory._jit import njit
from fedtheory.papers.fzoos import _gp_kernels as K
from fedtheory.papers.fzoos import _rff_kernels as RK
from fedtheory.papers.fzoos.gp import gp_state
from fedtheory.papers.fzoos.rff import RandomFourierFeatures

# objmode timers inside a nogil kernel: numba warns that they hold the GIL (harmless here).
warnings.filterwarnings("ignore", category=numba.NumbaWarning)


@njit(cache=False)
def _objective(x: np.ndarray) -> float:
    return float(np.sum((x - 0.5) ** 2) + np.sin(3.0 * x[0]))


@njit(cache=False)
def _steps(state, x0, steps, neighbours, offsets, t_exact, t_local, t_rest, overlap, regret):
    d = x0.shape[0]
    x = x0.copy()
    start = x0.copy()
    g = np.empty(d)
    exact = np.empty(100)
    local = np.empty(100)
    top = np.empty(5, dtype=np.int64)
    top_local = np.empty(5, dtype=np.int64)
    one = np.empty((1, d))
    five = np.empty((5, d))
    v1 = np.empty(1)
    v5 = np.empty(5)
    cand = np.empty((100, d))
    for s in range(steps):
        if s % 10 == 0:
            for k in range(d):
                x[k] = 0.5 * (x[k] + start[k])
                start[k] = x[k]
        with numba.objmode(t0="f8"):
            t0 = time.process_time()
        one[0] = x
        v1[0] = _objective(x)
        K.gp_append(state, one, v1)
        for b in range(100):
            for k in range(d):
                cand[b, k] = x[k] + offsets[s, b, k]
        with numba.objmode(t1="f8"):
            t1 = time.process_time()
        K.gp_trace_uncertainty(state, cand, exact)
        with numba.objmode(t2="f8"):
            t2 = time.process_time()
        K.gp_trace_uncertainty_local(state, cand, x, neighbours, local)
        with numba.objmode(t3="f8"):
            t3 = time.process_time()
        K.top_k(exact, 5, top)
        K.top_k(local, 5, top_local)
        for j in range(5):
            five[j] = cand[top[j]]
            v5[j] = _objective(five[j])
        K.gp_append(state, five, v5)
        K.gp_mean_gradient(state, x, g)
        for k in range(d):
            x[k] -= 0.01 * np.sign(g[k])
        with numba.objmode(t4="f8"):
            t4 = time.process_time()
        t_exact[s] = t2 - t1
        t_local[s] = t3 - t2
        t_rest[s] = (t1 - t0) + (t4 - t3)
        common = 0
        best = 0.0
        got = 0.0
        floor = np.min(exact)
        for j in range(5):
            best += exact[top[j]] - floor
            got += exact[top_local[j]] - floor
            for jj in range(5):
                if top[j] == top_local[jj]:
                    common += 1
        overlap[s] = common
        regret[s] = 1.0 - got / best if best > 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dimension", type=int, default=50)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--neighbours", type=int, default=256)
    parser.add_argument("--rff", type=int, default=1000)
    args = parser.parse_args()
    d, steps, m = args.dimension, args.steps, args.neighbours
    print(f"load average {os.getloadavg()[0]:.2f}; d = {d}, steps = {steps}, m = {m} (CPU times)")
    rng = np.random.default_rng(0)
    x0 = rng.uniform(0, 1, d)
    arrays = [np.zeros(steps) for _ in range(5)]
    offsets = rng.uniform(-0.01, 0.01, (steps, 100, d))
    _steps(gp_state(60, d), x0, 8, 4, offsets, *[a[:8] for a in arrays])  # compile
    state = gp_state(6 * steps, d, noise=1e-4)
    began = time.process_time()
    _steps(state, x0, steps, m, offsets, *arrays)
    total = time.process_time() - began
    t_exact, t_local, t_rest, overlap, regret = arrays
    print(
        f"total {total:.2f} s (both rankings); exact-only step sum {np.sum(t_exact + t_rest):.2f} s"
    )
    print("     n   exact ms   local ms   rest ms   overlap/5   same set   regret")
    marks = sorted({max(steps // 8, 1), steps // 4, steps // 2, 3 * steps // 4, steps})
    for mark in marks:
        part = slice(max(mark - 10, 0), mark)
        print(
            f"{6 * mark:6d} {1e3 * t_exact[part].mean():10.2f} {1e3 * t_local[part].mean():10.2f}"
            f" {1e3 * t_rest[part].mean():9.2f} {overlap[part].mean():11.2f}"
            f" {np.mean(overlap[part] == 5):10.2f} {regret[part].mean():8.4f}"
        )
    beyond = slice(m // 6, steps)
    print(
        f"steps with n > m: mean overlap {overlap[beyond].mean():.2f}/5, same set "
        f"{np.mean(overlap[beyond] == 5):.2f}, mean regret {regret[beyond].mean():.4f}, "
        f"max regret {regret[beyond].max():.4f}"
    )
    n = 6 * steps
    X = state[0][:n] + state[7][None, :]
    y = state[1][:n]
    rff = RandomFourierFeatures(d, args.rff, seed=0)
    V, b, s = rff.frequencies, rff.phases, rff.scale
    out = np.empty(args.rff)
    RK.rff_weights(V, b, s, X[:10], y[:10], 1e-4, RK.SYSTEM_AUTO, out)
    began = time.process_time()
    RK.rff_weights(V, b, s, X, y, 1e-4, RK.SYSTEM_AUTO, out)
    direct = time.process_time() - began
    gram = np.zeros((args.rff, args.rff))
    moment = np.zeros(args.rff)
    RK.rff_accumulate(V, b, s, X[:6], y[:6], gram, moment)
    RK.rff_solve(gram, moment, 1e-4, out)
    gram[:] = 0.0
    moment[:] = 0.0
    began = time.process_time()
    for start in range(0, n, 6):
        RK.rff_accumulate(V, b, s, X[start : start + 6], y[start : start + 6], gram, moment)
    accumulate = time.process_time() - began
    began = time.process_time()
    RK.rff_solve(gram, moment, 1e-4, out)
    solve = time.process_time() - began
    for size in (600, 1200, 3000):
        left = rng.random((100, size))
        right = rng.random((size, size))
        began = time.process_time()
        np.dot(left, right)
        spent = time.process_time() - began
        print(f"yardstick (100, {size})·({size}, {size}): {1e3 * spent:.1f} ms")
    print(
        f"RFF M = {args.rff}, n = {n}: direct solve {1e3 * direct:.1f} ms; accumulating all "
        f"{n // 6} batches of 6 {1e3 * accumulate:.1f} ms, solve {1e3 * solve:.1f} ms"
    )


if __name__ == "__main__":
    main()
