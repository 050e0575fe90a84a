"""Solve time of FedAvg's worst-case PEP against its size, Clarabel vs SCS (issue 16 speed).

Run from the repository root (one BLAS thread: the issue's budget is per core)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_worstcase.py [--max-steps 20]

Workload: :func:`fedtheory.worstcase.worst_case` for FedAvg over L-smooth μ-strongly convex
clients (L = 1, μ = 0.1, η = 0.5, ζ² = 1, R² = 1, distance measure) with m clients, K local steps
and T rounds, for growing m·K·T, with each free solver alone. Target: m ≤ 4 with K·T ≤ 20 in
≤ 30 s per PEP. The first call (untimed) loads PEPit and cvxpy. A solve that does not reach
"optimal" is reported as such with its time, never as a value; ``--time-limit`` skips the
remaining sizes of a solver once one solve took longer.

Uniform weights are solved, by default, as two clients: the client-symmetric reduction of
:mod:`fedtheory.worstcase._symmetry` (exact). ``--full`` also times the PEP of all m clients
(``exploit_symmetry=False``) and a row with non-uniform weights, which has no reduction.
"""

from __future__ import annotations

import argparse
import os
import time

from fedtheory.errors import SolverError
from fedtheory.worstcase import worst_case

SIZES = (
    (2, 2, 2),
    (2, 4, 3),
    (3, 4, 3),
    (4, 3, 3),
    (2, 5, 4),
    (4, 5, 2),
    (4, 5, 4),
    (4, 4, 5),
    (4, 20, 1),
    (4, 1, 20),
)
#: Non-uniform weights (``--full`` only): no client symmetry to exploit.
SKEWED = (0.4, 0.3, 0.2, 0.1)


def _row(m: int, K: int, T: int, solver: str, variant: str, **extra: object) -> float:
    start = time.perf_counter()
    try:
        result = worst_case(
            "fedavg", m=m, K=K, T=T, L=1.0, mu=0.1, eta=0.5, zeta2=1.0, solver=solver, **extra
        )
        seconds = time.perf_counter() - start
        size, constraints = result.gram_size, result.n_constraints
        outcome = f"{result.value:.8g}"
    except SolverError as exc:
        seconds = time.perf_counter() - start
        size, constraints, outcome = 0, 0, f"not optimal ({exc.status})"
    print(
        f"{m:>3}{K:>3}{T:>3}{m * K * T:>7}  {variant:<9}{size or '':>6}{constraints or '':>9}  "
        f"{solver:<9}{seconds:>9.2f}  {outcome}",
        flush=True,
    )
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-steps", type=int, default=20, help="largest K·T")
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument(
        "--full", action="store_true", help="also the PEP of all m clients and skewed weights"
    )
    args = parser.parse_args()
    worst_case("gd", T=1, L=1.0, mu=0.1, eta=0.5)  # warm-up: imports
    print(f"load average {os.getloadavg()[0]:.2f}; FedAvg, L=1, mu=0.1, eta=0.5, zeta2=1")
    print(
        f"{'m':>3}{'K':>3}{'T':>3}{'m·K·T':>7}  {'PEP':<9}{'Gram':>6}{'constr.':>9}  "
        f"{'solver':<9}{'seconds':>9}  value / status"
    )
    variants: list[tuple[str, dict[str, object]]] = [("default", {})]
    if args.full:
        variants += [("all m", {"exploit_symmetry": False}), ("skewed q", {})]
    skip: set[tuple[str, str]] = set()
    for m, K, T in SIZES:
        if args.max_steps < K * T:
            continue
        for variant, extra in variants:
            if variant != "default" and m <= 2:
                continue  # two clients: nothing to reduce
            if variant == "skewed q":
                extra = {"weights": SKEWED[:m] if m == 4 else (1 / m,) * m}
                if m != 4:
                    continue
            for solver in ("CLARABEL", "SCS"):
                if (variant, solver) in skip:
                    print(f"{m:>3}{K:>3}{T:>3}{m * K * T:>7}  {variant:<9}  {solver}: skipped")
                    continue
                if _row(m, K, T, solver, variant, **extra) > args.time_limit:
                    skip.add((variant, solver))


if __name__ == "__main__":
    main()
