"""Wall times of the minimax catalog and of the Figure 1 replica, on 2 cores.

Run from the repository root (ideally on an otherwise idle machine)::

    .venv/bin/python benchmarks/bench_minimax_catalog.py

Two measurements, each on an empty temporary result store (nothing cached) with the numba
kernels compiled beforehand (one untimed replicate of every kernel-using experiment, so the
on-disk numba cache is warm and compile time is excluded):

1. **Figure 1 replica** — ``fedtheory figures make minimax_fig1`` through the library: the
   ``full`` profile of the six ``minimax/fig1/*`` claims, which share one measurement of
   100 replicates × 21 values of R, each replicate running all six methods of the paper's
   Figure 1 (FedAvg, local training, fine-tuning, FedProx λ ∈ {0, 0.44, 4}) on a fresh App. D
   dataset with exact accuracies; plus drawing the PNG. Goal ≤ 60 s.
2. **The minimax catalog** — ``fedtheory verify --claims 'minimax/*'`` in the quick profile
   (46 claims). Goal ≤ 3 minutes, every outcome as expected, none inconclusive.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import time
from pathlib import Path

from fedtheory.figures import discover_figures, make_figure
from fedtheory.verify import verify

WORKERS = 2


def _warm_kernels() -> None:
    """Compile (or load from the numba cache) every kernel the minimax experiments use."""
    spec = importlib.util.spec_from_file_location("_fig1", "verification/minimax/figure1.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.appendix_d_replica({"R": 1.0}, 0)


def main() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    load_before = os.getloadavg()
    _warm_kernels()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        script = discover_figures("figures")["minimax_fig1"]
        start = time.perf_counter()
        make_figure(script, output=root / "fig1.png", store=root / "fig1.sqlite", workers=WORKERS)
        figure_seconds = time.perf_counter() - start

        start = time.perf_counter()
        run = verify(
            ["verification"],
            profile="quick",
            claims="minimax/*",
            store=root / "catalog.sqlite",
            workers=WORKERS,
        )
        catalog_seconds = time.perf_counter() - start
    statuses: dict[str, int] = {}
    for result in run.results:
        statuses[result.status] = statuses.get(result.status, 0) + 1
    load_after = os.getloadavg()
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; {WORKERS} workers")
    print(
        f"Figure 1 replica (full: 100 replicates x 21 R x 6 methods, + drawing): "
        f"{figure_seconds:.1f} s (goal <= 60 s)"
    )
    print(
        f"fedtheory verify --claims 'minimax/*' --profile quick: {catalog_seconds:.1f} s "
        f"(goal <= 180 s); {len(run.results)} claims: {statuses}; exit code {run.exit_code}"
    )


if __name__ == "__main__":
    main()
