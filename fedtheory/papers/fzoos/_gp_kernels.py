"""In-loop kernels of the FZooS GP gradient surrogate (private; guide §2.3, §2.10; DESIGN §4).

The exact GP posterior of a client's query history under the squared-exponential (SE) kernel
k(x, x′) = exp(−‖x − x′‖²/(2l²)) with noise σ² (Shu et al., eqs. (4)–(5)):

- ∇μ(x) = J(x)ᵀα with α = K_σ⁻¹y and row τ of J(x) equal to −(x − x_τ)ᵀk(x, x_τ)/l²;
- Σ(x) = I/l² − J(x)ᵀAJ(x) with A = K_σ⁻¹ (the posterior covariance of ∇f(x), d × d);
- tr Σ(c) for a batch of candidates c (the active-query score, ambiguity A4: trace, not the
  spectral norm, which is 1/l² for every x while n < d), by the structured form
  tr(JᵀAJ) = l⁻⁴[‖c‖²kᵀAk − 2(k⊙p)ᵀAk + kᵀ(A⊙XXᵀ)k], p = Xc (guide §2.3): two matrix
  products of the (B, n) candidate kernel matrix with A and with the upper slabs of
  H = A⊙XXᵀ, about 3Bn² flops for B candidates instead of the naive O(Bn²d).

State of one client (a tuple of arrays, preallocated for ``capacity`` points; build it with
:func:`fedtheory.papers.fzoos.gp.gp_state`, ``m`` clients stacked on a leading axis and
:func:`gp_client` taking client ``i``'s views):

``X (cap, d)``
    the inputs x_τ − o relative to the origin o (the first input): relative coordinates keep
    the expanded trace formula free of the ‖c‖² ≈ d cancellation of absolute ones;
``y (cap,)``
    the observations;
``LG (cap, cap)``
    lower triangle (with the diagonal): L, the Cholesky factor of K_σ = K + σ²I; strict upper
    triangle: the Gram matrix G = XXᵀ of the relative inputs (G[τ, σ] at [τ, σ], τ < σ);
``A (cap², )``, ``H (cap², )``
    K_σ⁻¹ and K_σ⁻¹ ⊙ G for the first ``n_sync`` points. A is stored packed: the first n_sync²
    entries are the C-ordered n_sync × n_sync matrix (contiguous, so the products call BLAS);
    H by its upper row slabs (:func:`_slab_offsets`, ~n²/2 entries, half the flops of kᵀHk);
``beta (cap,)``
    L⁻¹y (extended by each append); ``alpha (cap,)``: K_σ⁻¹y = L⁻ᵀβ (computed lazily);
``origin (d,)``
    o; ``info (8,)``: n, n_sync, α valid, l, σ², status, jitter, spare (see the ``INFO_*``
    indices).

Appending q points (:func:`gp_append`) extends L row by row (forward substitution, O(qn²)) —
the incremental Cholesky of guide §2.10 — and β; it never touches A and H. They are brought up
to date lazily, once per batch of appends, by :func:`gp_sync` when an uncertainty is asked: the
bordered inverse of a block append, A ← [[A + VVᵀ, −VL₂₂⁻¹], [·, L₂₂⁻ᵀL₂₂⁻¹]] with
V = L₁₁⁻ᵀL₂₁ᵀL₂₂⁻ᵀ, computed from L (so every update is a Cholesky solve, not a product with
an inverse that would accumulate its own errors), in one pass that also moves the packed layout
from n_sync² to n² entries and rewrites H = A ⊙ G. Why Cholesky plus a maintained inverse:
L alone gives stable solves (α, the positive-definiteness test with the exact pivot), while the
batch of 100 candidates needs A (and H) as dense matrices for two BLAS products; a
non-positive pivot s = k(z, z) + σ² − ‖L⁻¹k‖² leaves the state unchanged and returns
``STATUS_NOT_PD`` with the jitter to add to σ² (adding j to the diagonal raises the pivot by at
least j) in ``info[INFO_JITTER]``.

The plain numpy twins are in ``tests/reference/fzoos_gp.py``.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

#: ``info`` indices of a GP state.
INFO_N = 0
INFO_SYNC = 1
INFO_ALPHA = 2
INFO_LENGTHSCALE = 3
INFO_NOISE = 4
INFO_STATUS = 5
INFO_JITTER = 6
INFO_SIZE = 8

#: Row-slab height of the packed upper triangle of H (see :func:`_slab_offsets`).
SLAB = 128

#: Return codes of :func:`gp_append`.
STATUS_OK = 0
STATUS_NOT_PD = 1
STATUS_FULL = 2
STATUS_NOT_FINITE = 3


@njit
def gp_client(
    stack: tuple[np.ndarray, ...], i: int
) -> tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
]:
    """Client ``i``'s GP state: the views ``array[i]`` of a stacked state (leading axis m)."""
    return (
        stack[0][i],
        stack[1][i],
        stack[2][i],
        stack[3][i],
        stack[4][i],
        stack[5][i],
        stack[6][i],
        stack[7][i],
        stack[8][i],
    )


@njit
def gp_reset(state: tuple[np.ndarray, ...]) -> None:
    """Empty the history (keeps l and σ²; the buffers are reused)."""
    info = state[8]
    info[INFO_N] = 0.0
    info[INFO_SYNC] = 0.0
    info[INFO_ALPHA] = 1.0
    info[INFO_STATUS] = 0.0
    info[INFO_JITTER] = 0.0


@njit
def gp_size(state: tuple[np.ndarray, ...]) -> int:
    """The number of points in the history."""
    return int(state[8][INFO_N])


@njit
def gp_append(state: tuple[np.ndarray, ...], points: np.ndarray, values: np.ndarray) -> int:
    """Append q points (rows of ``points`` (q, d)) with observations ``values`` (q,).

    Extends the Cholesky factor L of K_σ by q rows (forward substitution, O(qn²)), the Gram
    entries of the new inputs and β = L⁻¹y. Returns ``STATUS_OK``; ``STATUS_FULL`` (nothing
    changed) when n + q exceeds the capacity; ``STATUS_NOT_PD`` (nothing changed; the jitter to
    add to σ² in ``info[INFO_JITTER]``) when a pivot is not positive; ``STATUS_NOT_FINITE``
    (nothing changed) when an input or observation is NaN or infinite (or a pivot is) — a
    diverged iterate: the caller lets the NaN reach its model, as the round loop expects.
    """
    X, y, LG, _, _, beta, _, origin, info = state
    n = int(info[INFO_N])
    q = points.shape[0]
    d = X.shape[1]
    if n + q > X.shape[0]:
        info[INFO_STATUS] = STATUS_FULL
        return STATUS_FULL
    for j in range(q):
        finite = math.isfinite(values[j])
        for k in range(d):
            finite = finite and math.isfinite(points[j, k])
        if not finite:
            info[INFO_STATUS] = STATUS_NOT_FINITE
            return STATUS_NOT_FINITE
    lengthscale = info[INFO_LENGTHSCALE]
    noise = info[INFO_NOISE]
    half_inv = 0.5 / (lengthscale * lengthscale)
    if n == 0:
        for k in range(d):
            origin[k] = points[0, k]
    # New inputs (relative) and their kernel rows against every earlier point.
    for j in range(q):
        row = n + j
        for k in range(d):
            X[row, k] = points[j, k] - origin[k]
        y[row] = values[j]
        for t in range(row):
            dist = 0.0
            for k in range(d):
                diff = X[row, k] - X[t, k]
                dist += diff * diff
            LG[row, t] = math.exp(-dist * half_inv)
    # Forward substitution of the q new rows, column by column: row t of L is read once for
    # all of them; a new row's pivot is taken as soon as its columns < t are done.
    for t in range(n + q):
        if t >= n:
            norm = 0.0
            for s in range(t):
                norm += LG[t, s] * LG[t, s]
            schur = 1.0 + noise - norm
            if schur != schur or abs(schur) == math.inf:
                info[INFO_STATUS] = STATUS_NOT_FINITE
                return STATUS_NOT_FINITE
            if not schur > 0.0:
                info[INFO_STATUS] = STATUS_NOT_PD
                info[INFO_JITTER] = -schur
                return STATUS_NOT_PD
            LG[t, t] = math.sqrt(schur)
        pivot = LG[t, t]
        for row in range(max(t + 1, n), n + q):
            total = LG[row, t]
            for s in range(t):
                total -= LG[t, s] * LG[row, s]
            LG[row, t] = total / pivot
    # Gram entries G[t, row] = x_t·x_row (strict upper triangle) and β = L⁻¹y.
    for j in range(q):
        row = n + j
        for t in range(row):
            dot = 0.0
            for k in range(d):
                dot += X[t, k] * X[row, k]
            LG[t, row] = dot
        total = y[row]
        for s in range(row):
            total -= LG[row, s] * beta[s]
        beta[row] = total / LG[row, row]
    info[INFO_N] = n + q
    info[INFO_ALPHA] = 0.0
    info[INFO_STATUS] = STATUS_OK
    return STATUS_OK


@njit
def gp_sync(state: tuple[np.ndarray, ...]) -> None:
    """Fold the points appended since the last sync into A = K_σ⁻¹ and H = A ⊙ G (one pass).

    With L = [[L₁₁, 0], [L₂₁, L₂₂]] (old n₀ points, q new ones): V = L₁₁⁻ᵀL₂₁ᵀL₂₂⁻ᵀ, and
    A ← [[A + VVᵀ, −VL₂₂⁻¹], [−L₂₂⁻ᵀVᵀ, L₂₂⁻ᵀL₂₂⁻¹]] (the bordered inverse of a block append).
    The packed layout moves from n₀ × n₀ to n × n in place (rows last to first), and H is
    rewritten from the new A and G. Cost O(qn² + n²).
    """
    info = state[8]
    n = int(info[INFO_N])
    n0 = int(info[INFO_SYNC])
    if n == n0:
        return
    V, border, corner = _sync_factors(state[2], n0, n)
    _sync_pass(state, n0, n, V, border, corner)
    info[INFO_SYNC] = n


@njit
def _sync_factors(LG: np.ndarray, n0: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """V = L₁₁⁻ᵀL₂₁ᵀL₂₂⁻ᵀ (rows k), the border −VL₂₂⁻¹ (rows k) and the corner L₂₂⁻ᵀL₂₂⁻¹."""
    q = n - n0
    # W = L₂₂⁻¹ (q × q, lower).
    W = np.zeros((q, q))
    for k in range(q):
        W[k, k] = 1.0 / LG[n0 + k, n0 + k]
        for j in range(k + 1, q):
            total = 0.0
            for s in range(k, j):
                total -= LG[n0 + j, n0 + s] * W[s, k]
            W[j, k] = total / LG[n0 + j, n0 + j]
    # V (rows k): first L₂₂⁻¹L₂₁, then the back substitution with L₁₁ᵀ (column-oriented, row i
    # of L read once for the q right-hand sides).
    V = np.dot(W, np.ascontiguousarray(LG[n0:n, :n0]))
    for i in range(n0 - 1, -1, -1):
        pivot = LG[i, i]
        for k in range(q):
            value = V[k, i] / pivot
            V[k, i] = value
            for j in range(i):
                V[k, j] -= LG[i, j] * value
    # Border −VL₂₂⁻¹ (rows k) and corner S⁻¹ = L₂₂⁻ᵀL₂₂⁻¹.
    border = -np.dot(np.ascontiguousarray(W.T), V)
    corner = np.dot(np.ascontiguousarray(W.T), W)
    return V, border, corner


@njit
def _sync_pass(
    state: tuple[np.ndarray, ...],
    n0: int,
    n: int,
    V: np.ndarray,
    border: np.ndarray,
    corner: np.ndarray,
) -> None:
    """The pass of :func:`gp_sync` over A (packed n₀² → n²) and H (upper slabs)."""
    X, _, LG, A, H, _, _, _, _ = state
    q = n - n0
    d = X.shape[1]
    # One pass, rows from last to first: row i of the new A is assembled in a buffer (from the
    # old row i, read before anything overwrites it: the new row starts at i·n ≥ i·n₀ and the
    # old rows below it were consumed already), written at i·n, and multiplied by row i of G
    # into H (G[i, j] = LG[min, max] off the diagonal, ‖x_i‖² on it).
    row = np.empty(n)
    offsets = _slab_offsets(n)
    for i in range(n - 1, -1, -1):
        if i >= n0:
            for t in range(n0):
                row[t] = border[i - n0, t]
            for j in range(q):
                row[n0 + j] = corner[i - n0, j]
        else:
            start = i * n0
            for t in range(n0):
                row[t] = A[start + t]
            for k in range(q):
                weight = V[k, i]
                for t in range(n0):
                    row[t] += weight * V[k, t]
            for k in range(q):
                row[n0 + k] = border[k, i]
        base = i * n
        for t in range(n):
            A[base + t] = row[t]
        # H: the upper slab of row i (columns ≥ its slab's first row), see _slab_offsets.
        slab = i // SLAB
        first = slab * SLAB
        at = offsets[slab] + (i - first) * (n - first) - first
        for t in range(first, i):
            H[at + t] = row[t] * LG[t, i]
        norm = 0.0
        for k in range(d):
            norm += X[i, k] * X[i, k]
        H[at + i] = row[i] * norm
        for t in range(i + 1, n):
            H[at + t] = row[t] * LG[i, t]


@njit
def _slab_offsets(n: int) -> np.ndarray:
    """Offsets of the row slabs of a symmetric n × n matrix stored by its upper slabs.

    Slab s holds rows sP … min((s + 1)P, n) − 1 (P = ``SLAB``) and, of each, the columns
    sP … n − 1 (the diagonal block in full, then everything right of it), C-ordered and
    contiguous at ``offsets[s]``: about n(n + P)/2 entries in all. A quadratic form kᵀHk is
    Σ_s [k_sᵀH_ss k_s + 2k_sᵀH_{s,>s}k_{>s}], one BLAS product per slab: Bn² flops for B
    vectors instead of the 2Bn² of the full matrix.
    """
    count = (n + SLAB - 1) // SLAB
    offsets = np.zeros(count + 1, dtype=np.int64)
    for slab in range(count):
        first = slab * SLAB
        rows = min(SLAB, n - first)
        offsets[slab + 1] = offsets[slab] + rows * (n - first)
    return offsets


@njit
def _slab_pack(matrix: np.ndarray) -> np.ndarray:
    """The upper slabs of a symmetric (n, n) matrix, flat (the layout of :func:`_slab_offsets`)."""
    n = matrix.shape[0]
    offsets = _slab_offsets(n)
    packed = np.empty(offsets[-1])
    for i in range(n):
        slab = i // SLAB
        first = slab * SLAB
        at = offsets[slab] + (i - first) * (n - first) - first
        for t in range(first, n):
            packed[at + t] = matrix[i, t]
    return packed


@njit
def gp_alpha(state: tuple[np.ndarray, ...]) -> None:
    """α = K_σ⁻¹y = L⁻ᵀβ into the state (back substitution, O(n²); only when stale)."""
    _, _, LG, _, _, beta, alpha, _, info = state
    if info[INFO_ALPHA] != 0.0:
        return
    n = int(info[INFO_N])
    for i in range(n):
        alpha[i] = beta[i]
    for i in range(n - 1, -1, -1):
        value = alpha[i] / LG[i, i]
        alpha[i] = value
        for j in range(i):
            alpha[j] -= LG[i, j] * value
    info[INFO_ALPHA] = 1.0


@njit
def _kernel_row(state: tuple[np.ndarray, ...], x: np.ndarray, shifted: np.ndarray) -> np.ndarray:
    """k(x, x_τ) for the n history points; ``shifted`` receives x − o."""
    X, _, _, _, _, _, _, origin, info = state
    n = int(info[INFO_N])
    d = X.shape[1]
    half_inv = 0.5 / (info[INFO_LENGTHSCALE] * info[INFO_LENGTHSCALE])
    for k in range(d):
        shifted[k] = x[k] - origin[k]
    row = np.empty(n)
    for t in range(n):
        dist = 0.0
        for k in range(d):
            diff = shifted[k] - X[t, k]
            dist += diff * diff
        row[t] = math.exp(-dist * half_inv)
    return row


@njit
def gp_mean(state: tuple[np.ndarray, ...], x: np.ndarray) -> float:
    """The posterior mean μ(x) = k(x)ᵀα."""
    gp_alpha(state)
    alpha = state[6]
    shifted = np.empty(x.shape[0])
    row = _kernel_row(state, x, shifted)
    total = 0.0
    for t in range(row.shape[0]):
        total += alpha[t] * row[t]
    return total


@njit
def gp_mean_gradient(state: tuple[np.ndarray, ...], x: np.ndarray, out: np.ndarray) -> None:
    """∇μ(x) = J(x)ᵀα into ``out`` (d,), eq. (5): Σ_τ α_τ k(x, x_τ)(x_τ − x)/l². O(nd)."""
    gp_alpha(state)
    X = state[0]
    alpha = state[6]
    info = state[8]
    d = X.shape[1]
    inv_sq = 1.0 / (info[INFO_LENGTHSCALE] * info[INFO_LENGTHSCALE])
    shifted = np.empty(d)
    row = _kernel_row(state, x, shifted)
    for k in range(d):
        out[k] = 0.0
    for t in range(row.shape[0]):
        weight = alpha[t] * row[t] * inv_sq
        for k in range(d):
            out[k] += weight * (X[t, k] - shifted[k])


@njit
def gp_gradient_covariance(state: tuple[np.ndarray, ...], x: np.ndarray, out: np.ndarray) -> None:
    """Σ(x) = I/l² − J(x)ᵀK_σ⁻¹J(x) into ``out`` (d, d), eq. (5) at x = x′. O(n²d)."""
    gp_sync(state)
    X = state[0]
    A = state[3]
    info = state[8]
    n = int(info[INFO_N])
    d = X.shape[1]
    inv_sq = 1.0 / (info[INFO_LENGTHSCALE] * info[INFO_LENGTHSCALE])
    shifted = np.empty(d)
    row = _kernel_row(state, x, shifted)
    J = np.empty((n, d))
    for t in range(n):
        for k in range(d):
            J[t, k] = (X[t, k] - shifted[k]) * row[t] * inv_sq
    inner = np.dot(J.T, np.dot(A[: n * n].reshape((n, n)), J))
    for i in range(d):
        for j in range(d):
            out[i, j] = -inner[i, j]
        out[i, i] += inv_sq


@njit
def gp_trace_uncertainty(
    state: tuple[np.ndarray, ...], candidates: np.ndarray, out: np.ndarray
) -> None:
    """tr Σ(c) for every row c of ``candidates`` (B, d) into ``out`` (B,), exactly.

    tr Σ(c) = d/l² − l⁻⁴[‖c‖²kᵀAk − 2(k⊙p)ᵀAk + kᵀHk] with k = k(c), p = Xc, A = K_σ⁻¹,
    H = A ⊙ XXᵀ (guide §2.3; c and X relative to the origin). Syncs A and H first; then BLAS
    products: 2Bn² (with A) + about Bn² (with the slabs of H) + 2Bnd flops.
    """
    gp_sync(state)
    X, _, _, A, H, _, _, origin, info = state
    n = int(info[INFO_N])
    count = candidates.shape[0]
    d = X.shape[1]
    shifted = np.empty((count, d))
    for b in range(count):
        for k in range(d):
            shifted[b, k] = candidates[b, k] - origin[k]
    _structured_trace(
        X[:n],
        A[: n * n].reshape((n, n)),
        H,
        shifted,
        info[INFO_LENGTHSCALE],
        out,
    )


@njit
def _structured_trace(
    history: np.ndarray,
    inverse: np.ndarray,
    weighted_gram: np.ndarray,
    shifted: np.ndarray,
    lengthscale: float,
    out: np.ndarray,
) -> None:
    """tr Σ(c) = d/l² − l⁻⁴[‖c‖²kᵀAk − 2(k⊙p)ᵀAk + kᵀHk] for the rows c of ``shifted``, given
    the history (n, d) in the same coordinates, A = K_σ⁻¹ (n, n) and H = A ⊙ XXᵀ by its upper
    slabs (flat, :func:`_slab_offsets`): 2Bn² flops for kᵀA, about Bn² for kᵀHk."""
    n, d = history.shape
    count = shifted.shape[0]
    inv_sq = 1.0 / (lengthscale * lengthscale)
    half_inv = 0.5 * inv_sq
    prior = d * inv_sq
    if n == 0:
        for b in range(count):
            out[b] = prior
        return
    norms = np.empty(count)
    for b in range(count):
        total = 0.0
        for k in range(d):
            total += shifted[b, k] * shifted[b, k]
        norms[b] = total
    squares = np.empty(n)
    for t in range(n):
        total = 0.0
        for k in range(d):
            total += history[t, k] * history[t, k]
        squares[t] = total
    products = np.dot(shifted, history.T)
    kernel = np.empty((count, n))
    for b in range(count):
        for t in range(n):
            dist = norms[b] - 2.0 * products[b, t] + squares[t]
            kernel[b, t] = math.exp(-max(dist, 0.0) * half_inv)
    weighted = np.dot(kernel, inverse)
    totals = np.zeros(count)
    for b in range(count):
        total = 0.0
        for t in range(n):
            total += kernel[b, t] * (norms[b] - 2.0 * products[b, t]) * weighted[b, t]
        totals[b] = total
    offsets = _slab_offsets(n)
    for slab in range(offsets.shape[0] - 1):
        first = slab * SLAB
        rows = min(SLAB, n - first)
        width = n - first
        block = weighted_gram[offsets[slab] : offsets[slab + 1]].reshape((rows, width))
        left = np.ascontiguousarray(kernel[:, first : first + rows])
        product = np.dot(left, block)
        for b in range(count):
            total = 0.0
            for t in range(rows):
                total += product[b, t] * kernel[b, first + t]
            for t in range(rows, width):
                total += 2.0 * product[b, t] * kernel[b, first + t]
            totals[b] += total
    for b in range(count):
        out[b] = prior - totals[b] * inv_sq * inv_sq


@njit
def gp_trace_uncertainty_local(
    state: tuple[np.ndarray, ...],
    candidates: np.ndarray,
    center: np.ndarray,
    neighbours: int,
    out: np.ndarray,
) -> None:
    """tr Σ_S(c) conditioned on the ``neighbours`` history points nearest to ``center`` only
    (an APPROXIMATION of :func:`gp_trace_uncertainty`, for the active-query ranking).

    Conditioning on a subset S can only increase the posterior covariance, so the score is an
    upper bound of the exact tr Σ(c); it equals it when n ≤ ``neighbours``. Cost per call
    O(nd + m²d + m³ + Bm²) with m = ``neighbours`` (a fresh factorisation of the m × m kernel
    matrix, coordinates centred at ``center``), independent of the history length n. The
    posterior-mean gradient is never approximated (use :func:`gp_mean_gradient`).

    Measured agreement of its top 5 of 100 with the exact top 5 on a synthetic FZooS trajectory
    (``benchmarks/bench_fzoos_gp.py``, steps with n > m): d = 50, n ≤ 1200: m = 256 mean overlap
    4.25/5, regret 1.1 % of the exact selected uncertainty; m = 512: 4.58/5, 0.4 %. d = 300,
    n ≤ 3000: m = 256: 3.94/5, 1.4 %; m = 512: 4.81/5, 0.04 %.
    """
    X, _, _, _, _, _, _, origin, info = state
    n = int(info[INFO_N])
    if n <= neighbours:
        gp_trace_uncertainty(state, candidates, out)
        return
    d = X.shape[1]
    count = candidates.shape[0]
    lengthscale = info[INFO_LENGTHSCALE]
    noise = info[INFO_NOISE]
    half_inv = 0.5 / (lengthscale * lengthscale)
    middle = np.empty(d)
    for k in range(d):
        middle[k] = center[k] - origin[k]
    distances = np.empty(n)
    for t in range(n):
        total = 0.0
        for k in range(d):
            diff = X[t, k] - middle[k]
            total += diff * diff
        distances[t] = total
    # the nearest ``neighbours`` (stable ties), in index order: a mask, not np.sort (numba's
    # quicksort is a library of its own, compiled and linked into every caller)
    nearest = np.argsort(distances, kind="mergesort")
    picked = np.zeros(n, dtype=np.bool_)
    for j in range(neighbours):
        picked[nearest[j]] = True
    chosen = np.empty(neighbours, dtype=np.int64)
    kept = 0
    for t in range(n):
        if picked[t]:
            chosen[kept] = t
            kept += 1
    subset = np.empty((neighbours, d))
    for j in range(neighbours):
        for k in range(d):
            subset[j, k] = X[chosen[j], k] - middle[k]
    gram = np.dot(subset, subset.T)
    matrix = np.empty((neighbours, neighbours))
    for i in range(neighbours):
        for j in range(neighbours):
            dist = gram[i, i] + gram[j, j] - 2.0 * gram[i, j]
            matrix[i, j] = math.exp(-max(dist, 0.0) * half_inv)
        matrix[i, i] += noise
    inverse = np.linalg.inv(matrix)
    weighted_gram = _slab_pack(inverse * gram)
    shifted = np.empty((count, d))
    for b in range(count):
        for k in range(d):
            shifted[b, k] = candidates[b, k] - center[k]
    _structured_trace(subset, inverse, weighted_gram, shifted, lengthscale, out)


@njit
def top_k(values: np.ndarray, k: int, out: np.ndarray) -> None:
    """Indices of the k largest ``values`` into ``out`` (k,), largest first; ties and NaN go to
    the lowest index (a NaN is never preferred to a number)."""
    count = values.shape[0]
    taken = np.zeros(count, dtype=np.bool_)
    for j in range(k):
        best = -1
        for b in range(count):
            if taken[b]:
                continue
            if (
                best < 0
                or values[b] > values[best]
                or (values[best] != values[best] and values[b] == values[b])
            ):
                best = b
        taken[best] = True
        out[j] = best
