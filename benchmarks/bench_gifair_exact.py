"""Exact GIFAIR-FL optima through cvxpy at the issue's size: the speed targets.

Run from the repository root::

    .venv/bin/python benchmarks/bench_gifair_exact.py [--repeats 3]

Workload: :func:`fedtheory.papers.gifair.datasets.grouped_logistic` with 20 clients split
6/10/4 (d = 3), exactly 100 training samples each, 10 features (the last one the intercept),
ridge 1e-2. Targets: ≤ 5 s for one optimum (:func:`~fedtheory.papers.gifair.exact.fair_optimum`
at λ = 0.5·λ_max, Clarabel + Newton polish) and ≤ 30 s for 10 λ values
(:func:`~fedtheory.papers.gifair.exact.tradeoff_curve` on {0, .1, …, .9}·λ_max, one DPP
program for the grid). One untimed call first warms up the imports and cvxpy's caches. The
table also reports the all-orderings epigraph (:func:`~fedtheory.papers.gifair.exact.
epigraph_optimum`) and its differences from the fair optimum in H and θ.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fedtheory.papers.gifair import datasets, exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    problem = datasets.grouped_logistic((6, 10, 4), 10, sample_range=(100, 100), seed=0)
    lam_max = problem.groups.lambda_max
    lam = 0.5 * lam_max
    exact.fair_optimum(problem, lam)  # warm-up
    rows = []
    for label, call in (
        ("fair_optimum (1 λ)", lambda: exact.fair_optimum(problem, lam)),
        ("fair_optimum, no polish", lambda: exact.fair_optimum(problem, lam, polish=False)),
        ("epigraph_optimum (1 λ)", lambda: exact.epigraph_optimum(problem, lam)),
        (
            "tradeoff_curve (10 λ)",
            lambda: exact.tradeoff_curve(problem, np.arange(10) / 10 * lam_max),
        ),
    ):
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        rows.append((label, min(times), float(np.median(times))))
    print(f"K = 20 (6/10/4), n_k = 100, p = 10, logistic; λ_max = {lam_max:.4g}")
    print(f"{'call':<28}{'best s':>10}{'median s':>10}")
    for label, best, median in rows:
        print(f"{label:<28}{best:>10.3f}{median:>10.3f}")
    for fraction in (0.0, 0.5, 0.9):
        fair = exact.fair_optimum(problem, fraction * lam_max)
        epi = exact.epigraph_optimum(problem, fraction * lam_max)
        shift = np.abs(epi.theta - fair.theta).max()
        print(
            f"λ = {fraction:.1f}·λ_max: H* = {fair.value:.10f}, H_epi − H* = "
            f"{epi.value - fair.value:.2e}, ‖θ_epi − θ*‖∞ = {shift:.2e}, "
            f"stationarity {fair.stationarity:.1e}, ties {fair.ties}"
        )


if __name__ == "__main__":
    main()
