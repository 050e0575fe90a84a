"""Solve time of FedAvg's worst-case PEP against its size, Clarabel vs SCS (issue 16 speed).

Run from the repository root (one BLAS thread: the issue's budget is per core)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_worstcase.py [--max-steps 20]

Workload: :func:`fedtheory.worstcase.worst_case` for FedAvg over L-smooth μ-strongly convex
clients (L = 1, μ = 0.1, η = 0.5, ζ² = 1, R² = 1, distance measure) with m clients, K local steps
and T rounds, for growing m·K·T, with each free solver alone (``solver="CLARABEL"`` or
``"SCS"``; the solver options are the module's: Clarabel with gaps and feasibility 1e-7, SCS
with eps 1e-9). Target: m ≤ 4 with K·T ≤ 20 in ≤ 30 s per PEP.

Each size is one comparison of the harness (``benchmarks/_harness.py``): ``--repeats`` rounds
(default 1) alternating the solvers, medians, and the worst-case values checked equal within
1e-6 relative (``TOLERANCE``). Each call builds and solves a new PEP, so there is nothing for a
per-size warm-up call to cache: the first call of the script (``worst_case("gd", T=1)``,
untimed) loads PEPit and cvxpy, and the comparisons run without the harness's warm-up call
(``warmup=False``). A solve that does not reach "optimal" is reported as such with its time,
never as a value; ``--time-limit`` skips the remaining sizes of a solver once one solve took
longer.

Uniform weights are solved, by default, as two clients: the client-symmetric reduction of
:mod:`fedtheory.worstcase._symmetry` (exact). ``--full`` also times the PEP of all m clients
(``exploit_symmetry=False``) and a row with non-uniform weights, which has no reduction.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from _harness import Comparison, Contender, compare, machine, markdown_table, objective_values

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
SOLVERS = ("CLARABEL", "SCS")
#: Tolerance on |v − v_Clarabel| / max(1, |v_Clarabel|). Clarabel stops at duality gap and
#: feasibility 1e-7 (with static regularisation 1e-7: these SDPs are degenerate), SCS at 1e-9;
#: the toolkit's tests hold both to 1e-6 relative of the known closed forms
#: (tests/test_worstcase.py). Measured here: 3e-8 to 2e-7. Planted error: SCS solving the PEP
#: with η = 0.51 for 0.5 (m = K = T = 2) differs by 8e-5.
TOLERANCE = 1e-6
WHY = "Clarabel's gap and feasibility tolerance 1e-7, SCS's 1e-9; measured ≤ 2e-7"


def solve(m: int, K: int, T: int, solver: str, extra: dict[str, Any]) -> Any:
    """One worst-case PEP of FedAvg (the module docstring's parameters)."""
    return worst_case(
        "fedavg", m=m, K=K, T=T, L=1.0, mu=0.1, eta=0.5, zeta2=1.0, solver=solver, **extra
    )


def alone(m: int, K: int, T: int, solver: str, extra: dict[str, Any]) -> tuple[float, str]:
    """Time one solve that may fail: seconds and the value or the status."""
    start = time.perf_counter()
    try:
        result = solve(m, K, T, solver, extra)
    except SolverError as exc:
        return time.perf_counter() - start, f"not optimal ({exc.status})"
    return time.perf_counter() - start, f"{result.value:.8g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-steps", type=int, default=20, help="largest K·T")
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--repeats", type=int, default=1, help="timed rounds per size")
    parser.add_argument(
        "--full", action="store_true", help="also the PEP of all m clients and skewed weights"
    )
    parser.add_argument("--json", type=Path, help="also write every comparison as JSON here")
    args = parser.parse_args()
    worst_case("gd", T=1, L=1.0, mu=0.1, eta=0.5)  # warm-up: imports
    load_before = os.getloadavg()[0]
    check = objective_values(TOLERANCE, WHY, value=lambda result: result.value)
    variants: list[tuple[str, dict[str, object]]] = [("default", {})]
    if args.full:
        variants += [("all m", {"exploit_symmetry": False}), ("skewed q", {})]
    skip: set[tuple[str, str]] = set()
    rows: list[list[str]] = []
    results: list[Comparison] = []
    for m, K, T in SIZES:
        if args.max_steps < K * T:
            continue
        for variant, given in variants:
            if variant != "default" and m <= 2:
                continue  # two clients: nothing to reduce
            extra: dict[str, Any] = dict(given)
            if variant == "skewed q":
                if m != 4:
                    continue
                extra = {"weights": SKEWED}
            size = [str(m), str(K), str(T), str(m * K * T), variant]
            active = [s for s in SOLVERS if (variant, s) not in skip]
            result = None
            if len(active) == len(SOLVERS):
                try:
                    result = compare(
                        f"FedAvg PEP m={m} K={K} T={T} ({variant})",
                        [
                            Contender(s, lambda s=s, e=extra, c=(m, K, T): solve(*c, s, e), s)
                            for s in SOLVERS
                        ],
                        reference="CLARABEL",
                        repeats=args.repeats,
                        check=check,
                        libraries=("cvxpy", "clarabel", "scs", "pepit"),
                        warmup=False,
                    )
                except SolverError:
                    result = None  # a solver did not reach "optimal": time each alone below
            cells: dict[str, tuple[float, str]] = {}
            shape = ("", "")
            difference = "—"
            if result is None:
                for s in active:
                    cells[s] = alone(m, K, T, s, extra)
            else:
                results.append(result)
                for s in SOLVERS:
                    timing = result.row(s)
                    cells[s] = (timing.median, f"{timing.sample.output.value:.8g}")
                pep = result.row("CLARABEL").sample.output
                shape = (str(pep.gram_size), str(pep.n_constraints))
                difference = f"{result.row('SCS').difference:.1e}"
            line = [*size, *shape]
            for s in SOLVERS:
                if s in cells:
                    seconds, outcome = cells[s]
                    line += [f"{seconds:.2f}", outcome]
                    if seconds > args.time_limit:
                        skip.add((variant, s))
                else:
                    line += ["skipped", ""]
            rows.append([*line, difference])
            print("| " + " | ".join(rows[-1]) + " |", file=sys.stderr)  # progress: sizes take long
    load_after = os.getloadavg()[0]
    print("\n### FedAvg worst-case PEP (L=1, μ=0.1, η=0.5, ζ²=1): Clarabel vs SCS\n")
    print(machine(("cvxpy", "clarabel", "scs", "pepit")).line(load_before, load_after) + "\n")
    print(
        f"Seconds, median of {args.repeats} round(s) alternating the solvers (no warm-up call: "
        "each call builds a new PEP). Values checked: "
        f"{check.description} ≤ {TOLERANCE:.0e} ({WHY}); 'diff' is SCS's.\n"
    )
    header = ["m", "K", "T", "m·K·T", "PEP", "Gram", "constr."]
    header += ["Clarabel s", "Clarabel value", "SCS s", "SCS value", "diff"]
    print(markdown_table(header, rows))
    if args.json is not None:
        args.json.write_text(json.dumps([r.to_dict() for r in results], indent=1))


if __name__ == "__main__":
    main()
