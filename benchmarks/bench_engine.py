"""Engine benchmarks of issue 3: per-task overhead, core utilisation, smoke time of the catalog.

Run from the repository root::

    .venv/bin/python benchmarks/bench_engine.py            # all three
    .venv/bin/python benchmarks/bench_engine.py overhead   # one of: overhead, cpu, smoke

- **overhead** — a claim with a no-op experiment, one replicate per point, so one task per
  point. The per-task cost of runner + store + executor is the slope of wall time against the
  number of tasks (two sizes, so pool start-up and discovery cancel out). Goal: ≤ 5 ms.
- **cpu** — a CPU-bound experiment (a numba-free numpy loop of ~40 ms) on the local executor
  with 2 workers; utilisation = CPU time of the workers / (wall time × workers). Goal: both
  cores busy.
- **smoke** — ``fedtheory verify verification/classic --profile smoke`` in a fresh process with
  an empty numba cache and an empty store (compilation included), then again with a warm numba
  cache (``--no-cache``: results recomputed, kernels not recompiled). Goal: ≤ 20 s cold.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from fedtheory.verify import verify

NOOP_CLAIMS = """
from __future__ import annotations
from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Monotone, Sweep

def noop(params, seed):
    return {"y": float(params["i"])}

def busy(params, seed):
    import numpy as np
    x = np.random.default_rng(seed).standard_normal(200)
    start = __import__("time").process_time()
    while __import__("time").process_time() - start < 0.04:
        x = np.sin(x) + 1.0
    return {"y": float(params["i"]) + 0.0 * float(x.sum())}

def _claim(name, fn, n):
    sweep = Sweep(grid={"i": list(range(n))})
    return Claim(id=f"classic/bench/{name}", source=Citation("classic", "benchmark"),
                 statement="benchmark", experiment=fn, sweeps={"smoke": sweep, "quick": sweep},
                 criterion=Monotone("i", "y", direction="increasing"))

SMALL = _claim("noop-small", noop, 200)
LARGE = _claim("noop-large", noop, 2200)
BUSY = _claim("busy", busy, 80)
"""


def _claims_folder(root: Path) -> Path:
    folder = root / "claims"
    folder.mkdir()
    (folder / "bench_claims.py").write_text(textwrap.dedent(NOOP_CLAIMS))
    return folder


def overhead(root: Path) -> float:
    folder = _claims_folder(root)
    times = {}
    for name, n in (("noop-small", 200), ("noop-large", 2200)):
        store = root / f"{name}.sqlite"
        start = time.perf_counter()
        run = verify([folder], profile="smoke", claims=f"*/{name}", store=store, workers=2)
        times[n] = time.perf_counter() - start
        assert run.results[0].verdict.outcome == "holds"
        assert run.results[0].n_computed == n
    per_task = (times[2200] - times[200]) / 2000
    print(
        f"overhead: {times[200]:.2f} s for 200 tasks, {times[2200]:.2f} s for 2200 tasks "
        f"-> {1000 * per_task:.2f} ms per task (goal <= 5 ms)"
    )
    return per_task


def cpu(root: Path) -> float:
    folder = _claims_folder(root)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    verify([folder], profile="smoke", claims="*/busy", store=root / "busy.sqlite", workers=2)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_time = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    utilisation = cpu_time / (2 * wall)
    print(
        f"cpu: 80 tasks x 40 ms on 2 workers in {wall:.2f} s wall, {cpu_time:.2f} s CPU in "
        f"workers -> utilisation {100 * utilisation:.0f}% of 2 cores "
        f"(ideal wall {80 * 0.04 / 2:.2f} s)"
    )
    return utilisation


def smoke(root: Path) -> tuple[float, float]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(root / "numba-cache")}
    command = [
        sys.executable,
        "-m",
        "fedtheory.cli",
        "verify",
        "verification/classic",
        "--profile",
        "smoke",
        "--store",
        str(root / "smoke.sqlite"),
        "--report",
        str(root / "report"),
    ]
    timings = []
    for extra in ([], ["--no-cache"]):
        start = time.perf_counter()
        done = subprocess.run(command + extra, env=env, capture_output=True, text=True)
        timings.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(done.stdout[-3000:], done.stderr[-3000:])
            raise SystemExit(f"smoke run failed with exit code {done.returncode}")
    summary = [line for line in done.stdout.splitlines() if " claims: " in line]
    print(
        f"smoke: verification/classic cold (empty numba cache, empty store) {timings[0]:.1f} s "
        f"(goal <= 20 s); warm numba cache, results recomputed {timings[1]:.1f} s; "
        f"{summary[-1].strip() if summary else ''}"
    )
    return timings[0], timings[1]


def main() -> None:
    which = sys.argv[1:] or ["overhead", "cpu", "smoke"]
    for name in which:
        with tempfile.TemporaryDirectory() as tmp:
            {"overhead": overhead, "cpu": cpu, "smoke": smoke}[name](Path(tmp))


if __name__ == "__main__":
    main()
