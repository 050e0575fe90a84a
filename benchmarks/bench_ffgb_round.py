"""One FFGB round on the digits substitute through the public ``ffgb()`` (issue 13, "Speed").

Run from the repository root::

    .venv/bin/python benchmarks/bench_ffgb_round.py [--repeats 7]

Workload: scikit-learn's 8×8 digits dealt to N = 10 clients by the s-partition (s = 0.1,
:func:`fedtheory.papers.ffgb.digits_federation`), as the finite-atom population
:meth:`~fedtheory.papers.ffgb.DigitsFederation.population` (P = 1797 atoms, c = 10, μ = 10⁻⁴),
FFGB (Algorithms 1–2) with K = 4 local steps and the tree oracle (depth 4) — exactly what the
claims ``ffgb/fig*`` (``verification/ffgb/experiments.py``) run. The issue's budget: ≤ 1 s per
round. Every time is the median of ``--repeats`` runs after an untimed call (numba compilation
never counts); the machine is shared, the load average printed first says how busy it was.

1. ``ffgb(rounds=1)`` end to end (validation, f*, the kernel view, the round, the result), and
   the marginal cost of a round: (time of 6 rounds − time of 1 round)/5.
2. The share of the round spent in the weak learner, two ways: (a) the same call with the exact
   ``scale`` oracle (h = γφ, no fitting) in place of the tree — the difference is the tree's
   cost; (b) the N·K tree calls of round 0 re-timed alone on the logged queries φ = Δ + ∇R_i[g],
   split into fitting (gathering the support and growing the tree) and predicting at all atoms.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from fedtheory.papers.ffgb import digits_federation, ffgb, oracles, tree_oracle
from fedtheory.papers.ffgb.learners import _fit_tree, _gather, _predict_tree, _support

N, K, DEPTH, MU, ETA0 = 10, 4, 4, 1e-4, 10.0


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
    repeats = parser.parse_args().repeats
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    federation = digits_federation(0.1, clients=N, seed=0)
    population = federation.population(MU)
    tree = tree_oracle(federation.features, max_depth=DEPTH)
    scale = oracles.scale(0.5)

    def run(oracle: Any, rounds: int, **options: Any) -> Any:
        return ffgb(
            population, oracle, rounds=rounds, local_steps=K, eta0=ETA0 * MU, k0=1.0, **options
        )

    one = median_time(lambda: run(tree, 1), repeats)
    six = median_time(lambda: run(tree, 6), repeats)
    marginal = (six - one) / 5
    exact = median_time(lambda: run(scale, 1), repeats)
    print(f"1. one FFGB round, N = {N}, K = {K}, tree oracle depth {DEPTH} (budget 1 s)")
    print(f"   ffgb(rounds=1) end to end       {1e3 * one:8.1f} ms")
    print(f"   marginal cost of a round        {1e3 * marginal:8.1f} ms")
    print(f"   ffgb(rounds=1), scale oracle    {1e3 * exact:8.1f} ms")
    print(
        f"2. (a) weak learner share of ffgb(rounds=1): (tree − scale)/tree = "
        f"{100 * (one - exact) / one:.1f}%"
    )

    logged = run(tree, 1, log_round=0)
    log = logged.log
    assert log is not None and log.gradients is not None
    P, c = federation.atoms, federation.classes
    queries = [
        (i, np.ascontiguousarray((log.residuals[i, k] + log.gradients[i, k]).reshape(P * c)))
        for i in range(N)
        for k in range(K)
    ]
    out = np.empty(P * c)
    X = tree.features

    def fit_all() -> list[Any]:
        trees = []
        for i, phi in queries:
            weights = federation.alpha[i]
            rows = _support(weights)
            Xs, Ys, ws = _gather(X, phi, weights, rows, c)
            trees.append(_fit_tree(Xs, Ys, ws, DEPTH, 1))
        return trees

    fitted = fit_all()

    def predict_all() -> None:
        for grown in fitted:
            _predict_tree(*grown[:5], X, out)  # type: ignore[call-arg]

    fit = median_time(fit_all, repeats)
    predict = median_time(predict_all, repeats)
    print(
        f"   (b) the round's {N * K} tree calls alone: fitting {1e3 * fit:.1f} ms "
        f"({100 * fit / one:.1f}% of the round), predicting {1e3 * predict:.1f} ms "
        f"({100 * predict / one:.1f}%)"
    )
    print(f"   measured γ of the round's tree calls: {logged.diagnostics.measured_gamma:.3f}")


if __name__ == "__main__":
    main()
