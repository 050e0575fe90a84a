"""Run every peer comparison of ``benchmarks/`` at its documented size; print the Markdown tables.

Run from the repository root (``make bench`` does it in the project's venv)::

    .venv/bin/python benchmarks/run_all.py [--quick] [--only fedavg gifair ...] [--json DIR]

Each comparison is a script of this folder run in its own process (its own imports, BLAS
threads and memory; a crash stops only that one), in the order of :data:`COMPARISONS`, with the
arguments that give the sizes its docstring documents. ``--quick`` uses reduced sizes instead
(a few seconds to a minute each: for checking that everything runs, not for numbers). Every
script checks its outputs against its reference and fails on a mismatch; this runner prints
each script's tables as they come and exits with status 1 if any script failed.

JAX and PyTorch come with the optional extra ``pip install -e ".[bench]"``; without them the
FedAvg comparison says so in one line and runs without those rows.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Peer:
    """One comparison: its script, the arguments of its documented and its quick size."""

    key: str
    script: str
    full: tuple[str, ...] = ()
    quick: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)


COMPARISONS = (
    Peer(
        "fedavg",
        "bench_minimax_fedavg.py",
        (),
        ("--replicates", "10", "--repeats", "2", "--no-compile"),
    ),
    Peer("fedlrgd", "bench_fedlrgd_matrix.py", (), ("--n", "400", "--repeats", "5")),
    Peer("gifair", "bench_gifair_exact.py", (), ("--repeats", "1")),
    Peer("fzoos", "bench_fzoos_gp_sklearn.py", (), ("--history", "600", "--repeats", "3")),
    Peer("ffgb", "bench_ffgb_learners.py", ("--peers",), ("--peers", "--repeats", "5")),
    # one BLAS thread: the PEP budget is per core (the script's docstring)
    Peer(
        "worstcase",
        "bench_worstcase.py",
        (),
        ("--max-steps", "10"),
        {"OPENBLAS_NUM_THREADS": "1"},
    ),
)


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"
    return out.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="reduced sizes (smoke run)")
    parser.add_argument(
        "--only", nargs="+", choices=[p.key for p in COMPARISONS], help="run only these"
    )
    parser.add_argument("--json", type=Path, help="write each comparison's JSON into this folder")
    args = parser.parse_args()
    chosen = [p for p in COMPARISONS if args.only is None or p.key in args.only]
    if args.json is not None:
        args.json.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    size = "reduced sizes (--quick)" if args.quick else "documented sizes"
    print(f"# fedtheory benchmarks: {stamp}, commit {_commit()}, {size}\n", flush=True)
    failed = []
    for peer in chosen:
        script = os.path.relpath(HERE / peer.script, ROOT)
        command = [sys.executable, script, *(peer.quick if args.quick else peer.full)]
        if args.json is not None:
            command += ["--json", str(args.json / f"{peer.key}.json")]
        shown = " ".join([*(f"{k}={v}" for k, v in peer.env.items()), "python", *command[1:]])
        print(f"## {peer.key}\n\n`{shown}`\n", flush=True)
        began = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env={**os.environ, **peer.env}, check=False)
        print(f"\n({peer.key}: {time.perf_counter() - began:.0f} s)\n", flush=True)
        if done.returncode != 0:
            failed.append(f"{peer.key} (exit status {done.returncode})")
    if failed:
        print("FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
