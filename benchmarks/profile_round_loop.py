"""Sampling profile of the round loop's machine code: App. D FedAvg (docs/performance.md).

numba's compiled kernels have no symbols that ``perf`` can read, and this 2-core VM exposes no
hardware counters. So the profile is taken in two steps: ``perf`` samples the instruction
pointer on a software clock while the kernel runs, and the process writes its anonymous
executable memory (the loaded kernels) to files before it exits; ``objdump`` disassembles the
dumps at their addresses, and the samples are summed per 128-byte chunk of code and shown with
the chunk's hottest instructions (the margins loop, the updates, numba's reference counting,
the vectorised slopes, the draws: each is recognisable by its instructions).

Usage (``perf`` and ``objdump`` installed)::

    perf record -e cpu-clock -F 10000 -o /tmp/fedavg.perf \\
        .venv/bin/python benchmarks/profile_round_loop.py run /tmp/fedavg-code
    .venv/bin/python benchmarks/profile_round_loop.py report /tmp/fedavg.perf /tmp/fedavg-code

``run`` compiles the kernel (or loads it from the cache), then calls it ``--calls`` times on the
100 replicates of the FedAvg benchmark (``bench_minimax_fedavg.py``) and prints the median CPU
time of a call; ``report`` prints the share of the kernels' samples of the hottest chunks.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench_minimax_fedavg as bench
import numpy as np

from fedtheory.algorithms.federated import fedavg
from fedtheory.problems.dataset import FederatedDataset

REPLICATES = 100


def app_d_generator() -> Callable[[int], FederatedDataset]:
    """The App. D data of one replicate by seed: the benchmark claim's own generator."""
    namespace: dict[str, Any] = {}
    source = textwrap.dedent(bench.CLAIM_MODULE).replace("REPLICATES", str(REPLICATES))
    exec(source, namespace)  # the benchmark claim module, as its own main() writes it
    generate: Callable[[int], FederatedDataset] = namespace["app_d_data"]
    return generate


def run(code_dir: Path, calls: int) -> None:
    seeds = list(range(REPLICATES))
    generate = app_d_generator()
    datasets = [generate(seed) for seed in seeds]

    def call() -> np.ndarray:
        return fedavg(
            datasets,
            rounds=bench.ROUNDS,
            local_epochs=bench.EPOCHS,
            local_step=bench.LOCAL_STEP,
            server_step=bench.SERVER_STEP,
            batch=bench.BATCH,
            seed=seeds,
        ).global_model

    call()  # compiles, or loads from the cache
    times = []
    for _ in range(calls):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    print(
        f"{calls} calls: median {1e3 * np.median(times):.1f} ms of CPU, best {1e3 * min(times):.1f}"
    )
    code_dir.mkdir(parents=True, exist_ok=True)
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split()
        if "x" in fields[1] and len(fields) < 6:  # executable and anonymous: JIT code
            low, high = (int(value, 16) for value in fields[0].split("-"))
            (code_dir / f"{low:x}.bin").write_bytes(ctypes.string_at(low, high - low))


def report(perf_data: Path, code_dir: Path, top: int) -> None:
    listing = subprocess.run(
        ["perf", "report", "-i", str(perf_data), "--sort=dso,sym", "--stdio"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    samples: dict[int, float] = {}
    for match in re.finditer(r"([\d.]+)%\s+\[JIT\] tid \d+\s+\[\.\]\s+0x([0-9a-f]+)", listing):
        samples[int(match.group(2), 16)] = float(match.group(1))
    instructions: dict[int, str] = {}
    for dump in sorted(code_dir.glob("*.bin")):
        disassembly = subprocess.run(
            [
                "objdump",
                "-D",
                "-b",
                "binary",
                "-m",
                "i386:x86-64",
                f"--adjust-vma=0x{dump.stem}",
                str(dump),
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for match in re.finditer(r"^\s*([0-9a-f]+):\t(?:[0-9a-f ]+\t)?(.*)$", disassembly, re.M):
            instructions[int(match.group(1), 16)] = match.group(2).strip()
    total = sum(samples.values())
    if not total:
        sys.exit("no samples in JIT code: was the kernel run under perf record?")
    chunks: dict[int, list[tuple[float, int]]] = collections.defaultdict(list)
    for address, share in samples.items():
        chunks[address >> 7].append((share, address))
    print(f"JIT code: {total:.1f}% of the samples; hottest 128-byte chunks, % of the JIT samples:")
    ranked = sorted(chunks.items(), key=lambda item: -sum(share for share, _ in item[1]))
    for chunk, hits in ranked[:top]:
        hits.sort(reverse=True)
        shown = " | ".join(instructions.get(address, "?")[:34] for _, address in hits[:3])
        print(f"{chunk << 7:x} {100 * sum(s for s, _ in hits) / total:5.1f}%  {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="run the kernel and dump its code")
    run_parser.add_argument("code_dir", type=Path)
    run_parser.add_argument("--calls", type=int, default=25)
    report_parser = commands.add_parser("report", help="samples per chunk of kernel code")
    report_parser.add_argument("perf_data", type=Path)
    report_parser.add_argument("code_dir", type=Path)
    report_parser.add_argument("--top", type=int, default=25)
    arguments = parser.parse_args()
    if arguments.command == "run":
        run(arguments.code_dir, arguments.calls)
    else:
        report(arguments.perf_data, arguments.code_dir, arguments.top)


if __name__ == "__main__":
    main()
