"""Latent-model matrices of FedLRGD's Theorem 1: generation and SVD speed at n = k = 1200.

Run from the repository root::

    .venv/bin/python benchmarks/bench_fedlrgd_matrix.py [--n 1200] [--repeats 15]

For each family of :func:`fedtheory.papers.fedlrgd.latent_matrix` (the 1200 × 1200 matrices of
the V3–V5 claims) the table gives, in milliseconds (best of ``--repeats``, numba compilation
excluded by a warm-up call):

- **numba**: the generation kernel (what ``latent_matrix`` runs; one core, SIMD exp/log);
- **numpy**: the same matrix by vectorised numpy broadcasting (the plain-numpy twin of
  ``tests/reference/latent.py``), to justify the choice of numba;
- **read×2 warm / cold**: reading the finished matrix twice (``M.sum()`` twice) with the matrix
  in cache, and after evicting the caches by streaming a 96 MB buffer — the yardstick of the
  speed goal "generation within 3× of the time to read the matrix from memory twice";
- **ratio warm / cold**: numba time over the read×2 time;
- **svdvals** (singular values only, LAPACK gesdd) and **full SVD** (U, Σ, Vᵀ), and
  **build + full SVD** against the goal of 2 s on 2 cores.

A last table compares the LVM-P kernel with the same loops calling libm's scalar ``pow``
(numba's default), which LLVM cannot vectorise. The machine is shared: the load average printed
at the top says how busy it was.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np
import scipy.linalg

from fedtheory._jit import njit
from fedtheory.papers.fedlrgd import latent_matrix

#: (label, family, d, keyword arguments) of the benchmarked matrices.
CASES: tuple[tuple[str, str, int, dict[str, float]], ...] = (
    ("LVM-P η=0.9 d=1", "lvm-p", 1, {"eta": 0.9}),
    ("LVM-P η=0.3 d=2", "lvm-p", 2, {"eta": 0.3}),
    ("LVM-P η=0.5 d=2 (√)", "lvm-p", 2, {"eta": 0.5}),
    ("LVM-P2 η=1.5 d=2", "lvm-p2", 2, {"eta": 1.5}),
    ("LVM-M ν=3/2 d=2", "lvm-m", 2, {"nu": 1.5}),
    ("LVM-A d=3 (gradient)", "lvm-a", 3, {}),
    ("indicator d=2", "indicator", 2, {}),
)


@njit
def _l1_power_libm(rows: np.ndarray, cols_t: np.ndarray, eta: float) -> np.ndarray:
    """The LVM-P kernel with numba's default ``**`` (a scalar libm ``pow`` per entry)."""
    n, d = rows.shape
    k = cols_t.shape[1]
    out = np.empty((n, k))
    for i in range(n):
        row = out[i]
        for j in range(k):
            row[j] = 0.0
        for c in range(d):
            yc = rows[i, c]
            for j in range(k):
                row[j] += abs(yc - cols_t[c, j])
        for j in range(k):
            row[j] = row[j] ** eta
    return out


def best_of(function: Callable[[], object], repeats: int) -> float:
    """Best wall time in milliseconds (after one warm-up call)."""
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return 1e3 * min(times)


def read_twice_cold(matrix: np.ndarray, repeats: int) -> float:
    """Read the matrix twice after evicting the caches (best of ``repeats``, ms)."""
    evict = np.ones(12 * 1024 * 1024)  # 96 MB > L2 + L3
    times = []
    for _ in range(repeats):
        evict += 1.0
        start = time.perf_counter()
        matrix.sum()
        matrix.sum()
        times.append(time.perf_counter() - start)
    return 1e3 * min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1200)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    n, repeats = args.n, args.repeats
    print(f"n = k = {n}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    header = (
        f"{'matrix':24s} {'numba':>7s} {'numpy':>7s} {'read×2':>7s} {'cold':>7s} "
        f"{'ratio':>6s} {'cold':>6s} {'svdvals':>8s} {'fullSVD':>8s} {'build+SVD':>10s}"
    )
    print(header)
    print("-" * len(header))
    for label, family, d, kwargs in CASES:
        model = latent_matrix(family, n, n, d, seed=0, **kwargs)  # compiles (or loads) the kernel
        kernel = model.kernel
        assert kernel is not None
        rows, cols = np.asarray(model.rows), np.asarray(model.cols)
        generate = best_of(lambda: kernel(rows, cols), repeats)  # noqa: B023
        numpy_twin = best_of(
            lambda: kernel.pointwise(rows[:, None, :], cols[None, :, :]),  # noqa: B023
            max(3, repeats // 3),
        )
        matrix = np.array(model.matrix)
        read_warm = best_of(lambda: (matrix.sum(), matrix.sum()), repeats)  # noqa: B023
        read_cold = read_twice_cold(matrix, repeats)
        svdvals = best_of(lambda: scipy.linalg.svdvals(matrix), 3)  # noqa: B023
        full = best_of(lambda: scipy.linalg.svd(matrix), 3)  # noqa: B023
        total = best_of(
            lambda: scipy.linalg.svd(latent_matrix(family, n, n, d, seed=1, **kwargs).matrix),  # noqa: B023
            3,
        )
        print(
            f"{label:24s} {generate:7.2f} {numpy_twin:7.2f} {read_warm:7.2f} {read_cold:7.2f} "
            f"{generate / read_warm:6.2f} {generate / read_cold:6.2f} {svdvals:8.1f} "
            f"{full:8.1f} {total:10.1f}"
        )
    for d, eta in ((1, 0.9), (2, 0.3)):
        model = latent_matrix("lvm-p", n, n, d, seed=0, eta=eta)
        rows = np.asarray(model.rows)
        cols_t = np.ascontiguousarray(np.asarray(model.cols).T)
        libm = best_of(lambda: _l1_power_libm(rows, cols_t, eta), repeats)  # noqa: B023
        assert model.kernel is not None
        simd = best_of(lambda: model.kernel(rows, model.cols), repeats)  # noqa: B023
        print(
            f"LVM-P η={eta} d={d}: numba with libm pow {libm:.2f} ms, with the SIMD exp/log "
            f"{simd:.2f} ms ({libm / simd:.1f}× faster)"
        )
    print(
        "\nmilliseconds, best of the repeats; ratio = numba / read×2 (warm: matrix in cache; "
        "cold: caches evicted first). Goals: ratio ≤ 3, build + full SVD ≤ 2000 ms."
    )
    print(f"(float64 matrix of {n * n * 8 / 2**20:.1f} MiB, {n * n / 1e6:.2f}M entries)")


if __name__ == "__main__":
    main()
