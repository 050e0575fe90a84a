"""The one federated round loop, compiled with numba (private; DESIGN §3, §4).

:func:`_federated_rounds` runs, for a batch of replicates, the round loop shared by FedAvg
(Chen, Zheng, Long & Su, Algorithm 1), FedProx (Algorithm 2), FedAvg + fine-tuning and pure
local training: every algorithm of :mod:`fedtheory.algorithms.federated` is this loop with
some switches set. Its plain-numpy twin is ``tests/reference/federated.py``.

Randomness
----------
The kernel is pure: the wrapper draws one ``uint64`` seed per replicate (and the participation
masks) from a :class:`numpy.random.Generator`; minibatches are drawn inside the kernel from a
counter-based SplitMix64 stream, so the twin reproduces them exactly:

- ``mix(z)``: the SplitMix64 finaliser (Stafford's variant 13), arithmetic mod 2^64;
- client ``i`` of a replicate with seed ``s`` has the key ``key_i = mix(s + (i + 1)·γ)``,
  ``γ = 0x9E3779B97F4A7C15``; its ``c``-th draw (``c = 0, 1, …``, counted over the whole run)
  is ``u = mix(key_i + (c + 1)·γ)``;
- an index below ``n`` is ``((u >> 32)·n) >> 32`` (Lemire's multiply-shift; bias ≤ n/2^32);
- every client keeps a permutation of its rows (the identity at the start) and a cursor; a
  minibatch of ``b`` rows at cursor ``j`` is drawn by the next ``b`` steps of a forward
  Fisher–Yates shuffle, done lazily: for ``q = j, …, j + b − 1`` swap ``perm[q]`` with
  ``perm[q + index below (n − q)]``. A finished pass is therefore a uniform permutation, and
  every minibatch holds distinct rows (sampling without replacement, Lemma 19).

Units of local work: an *epoch* walks the cursor from 0 through all ``n_i`` rows in minibatches
of ``B`` (the last one partial); a *step* takes the next ``B`` rows, restarting the pass
(cursor 0) when fewer than ``B`` are left, so every step has exactly ``B`` rows. The cursor of a
client persists across rounds.
"""

from __future__ import annotations

import math

import numpy as np

from fedtheory._jit import njit

__all__: list[str] = []

LOSS_LOGISTIC = 0
LOSS_SQUARED = 1
LOSS_MEAN = 2

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64 finaliser (mod 2^64)."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit
def _draw_rows(
    perm: np.ndarray, start: int, b: int, n: int, key: np.uint64, counter: np.uint64
) -> np.uint64:
    """Lazy Fisher–Yates: fix positions start, …, start + b − 1 of ``perm``; return the counter."""
    for q in range(start, start + b):
        counter += np.uint64(1)
        u = _mix(key + counter * _GAMMA)
        pick = q + np.int64(((u >> _S32) * np.uint64(n - q)) >> _S32)
        swap = perm[pick]
        perm[pick] = perm[q]
        perm[q] = swap
    return counter


@njit
def _logistic_slope(margin: float) -> float:
    """sig(−margin) = 1/(1 + e^{margin}) without overflow and without a branch.

    With e = e^{−|margin|} ≤ 1 it is e/(1 + e) for margin ≥ 0 and 1/(1 + e) otherwise; the
    choice is a select, not a jump (the sign of the margin is unpredictable during training).
    """
    e = math.exp(-abs(margin))
    top = e if margin >= 0.0 else 1.0
    return top / (1.0 + e)


@njit
def _minibatch_step(
    loss: int,
    X: np.ndarray,
    y: np.ndarray,
    rows: np.ndarray,
    w: np.ndarray,
    wg: np.ndarray,
    eta: float,
    lam: float,
    coef: np.ndarray,
) -> None:
    """w ← w − η(ĝ_B(w) + λ(w − w^g)) for the rows ``rows`` (in place).

    ĝ_B is the minibatch mean of the sample gradients: −y x sig(−y xᵀw) (logistic),
    (xᵀw − y) x (squared), w − z (mean). The margins xᵀw of the batch are computed first (four
    rows at a time, sharing the loads of w), then w is shrunk towards w^g and the gradient is
    added by axpys over the contiguous rows (four at a time): no temporary gradient vector.
    """
    b = rows.shape[0]
    d = w.shape[0]
    scale = eta / b
    if loss == LOSS_MEAN:
        keep = 1.0 - eta * (1.0 + lam)
        pull = eta * lam
        for k in range(d):
            w[k] = keep * w[k] + pull * wg[k]
        for s in range(b):
            coef[s] = scale
    else:
        s = 0
        while s + 4 <= b:
            x0 = X[rows[s]]
            x1 = X[rows[s + 1]]
            x2 = X[rows[s + 2]]
            x3 = X[rows[s + 3]]
            a0 = 0.0
            a1 = 0.0
            a2 = 0.0
            a3 = 0.0
            for k in range(d):
                wk = w[k]
                a0 += x0[k] * wk
                a1 += x1[k] * wk
                a2 += x2[k] * wk
                a3 += x3[k] * wk
            coef[s] = a0
            coef[s + 1] = a1
            coef[s + 2] = a2
            coef[s + 3] = a3
            s += 4
        while s < b:
            x0 = X[rows[s]]
            a0 = 0.0
            for k in range(d):
                a0 += x0[k] * w[k]
            coef[s] = a0
            s += 1
        for s in range(b):
            target = y[rows[s]]
            if loss == LOSS_LOGISTIC:
                g = -target * _logistic_slope(target * coef[s])
            else:
                g = coef[s] - target
            coef[s] = -scale * g
        if lam != 0.0:
            keep = 1.0 - eta * lam
            pull = eta * lam
            for k in range(d):
                w[k] = keep * w[k] + pull * wg[k]
    s = 0
    while s + 4 <= b:
        x0 = X[rows[s]]
        x1 = X[rows[s + 1]]
        x2 = X[rows[s + 2]]
        x3 = X[rows[s + 3]]
        c0 = coef[s]
        c1 = coef[s + 1]
        c2 = coef[s + 2]
        c3 = coef[s + 3]
        for k in range(d):
            w[k] += c0 * x0[k] + c1 * x1[k] + c2 * x2[k] + c3 * x3[k]
        s += 4
    while s < b:
        x0 = X[rows[s]]
        c0 = coef[s]
        for k in range(d):
            w[k] += c0 * x0[k]
        s += 1


@njit
def _project(w: np.ndarray, radius: float) -> None:
    """Euclidean projection onto the ball {‖w‖ ≤ radius} (in place; NaN and inf propagate)."""
    d = w.shape[0]
    norm2 = 0.0
    for k in range(d):
        norm2 += w[k] * w[k]
    if not norm2 > radius * radius:
        return
    if math.isinf(norm2):  # finite entries whose squares overflow: rescale first
        top = 0.0
        for k in range(d):
            top = max(top, abs(w[k]))
        norm2 = 0.0
        for k in range(d):
            norm2 += (w[k] / top) ** 2
        factor = radius / (top * math.sqrt(norm2))
    else:
        factor = radius / math.sqrt(norm2)
    for k in range(d):
        w[k] *= factor


@njit
def _local_training(
    loss: int,
    X: np.ndarray,
    y: np.ndarray,
    n: int,
    perm: np.ndarray,
    cursor: int,
    key: np.uint64,
    counter: np.uint64,
    work: int,
    epochs: bool,
    batch: int,
    steps: np.ndarray,
    lam: float,
    radius: float,
    w: np.ndarray,
    wg: np.ndarray,
    coef: np.ndarray,
) -> tuple[int, np.uint64, int, int]:
    """``work`` epochs or steps of projected (proximal) minibatch SGD on one client, in place.

    Local iteration k (restarting at 0 for every call) uses the step ``steps[min(k, L − 1)]``.
    Returns the new cursor and counter, the number of local iterations and of sample gradients.
    """
    last = steps.shape[0] - 1
    project = radius < math.inf
    iterations = 0
    gradients = 0
    if epochs:
        for _ in range(work):
            cursor = 0
            while cursor < n:
                b = min(batch, n - cursor)
                counter = _draw_rows(perm, cursor, b, n, key, counter)
                eta = steps[min(iterations, last)]
                _minibatch_step(loss, X, y, perm[cursor : cursor + b], w, wg, eta, lam, coef)
                if project:
                    _project(w, radius)
                cursor += b
                iterations += 1
                gradients += b
    else:
        for _ in range(work):
            if n - cursor < batch:
                cursor = 0
            counter = _draw_rows(perm, cursor, batch, n, key, counter)
            eta = steps[min(iterations, last)]
            _minibatch_step(loss, X, y, perm[cursor : cursor + batch], w, wg, eta, lam, coef)
            if project:
                _project(w, radius)
            cursor += batch
            iterations += 1
            gradients += batch
    return cursor, counter, iterations, gradients


@njit
def _federated_rounds(
    features: np.ndarray,
    targets: np.ndarray,
    counts: np.ndarray,
    loss: int,
    radius: float,
    weights: np.ndarray,
    masks: np.ndarray,
    local_work: np.ndarray,
    epochs: bool,
    batch: int,
    local_steps: np.ndarray,
    server_steps: np.ndarray,
    lam: float,
    persistent: bool,
    train_sampled: bool,
    project_global: bool,
    init_global: np.ndarray,
    init_local: np.ndarray,
    seeds: np.ndarray,
    record: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The federated round loop (Algorithms 1 and 2 of Chen et al.), for a batch of replicates.

    For each replicate and each round t = 0, …, T − 1, with C_t the clients marked in
    ``masks[r, t]``:

    1. the *training* clients — C_t (``train_sampled``) or its complement (the literal branch
       of Algorithm 2) — run ``local_work[t]`` units of local SGD, starting from their own
       model w_t^(i) (``persistent``, FedProx) or from w_t^g (FedAvg), with steps
       w ← P_𝒲[w − η_k(ĝ + λ(w − w_t^g))];
    2. the server sets w_{t+1}^g = w_t^g − s_t (m/|C_t|) Σ_{i∈C_t} p_i (w_t^g − w_{t+1}^(i)),
       then projects w^g onto 𝒲 if ``project_global``.

    A final local stage (round T) trains every client for ``local_work[T]`` units from the same
    start rule, towards w_T^g (Stage II of Algorithm 2; fine-tuning with λ = 0; nothing when
    ``local_work[T] = 0``).

    Parameters
    ----------
    features, targets, counts : (r, m, n_max, d), (r, m, n_max), (r, m) — the data.
    loss : 0 logistic, 1 squared, 2 mean (``fedtheory.problems.dataset.LOSSES``).
    radius : radius of 𝒲 (inf: no projection).
    weights : (r, m) client weights p on the simplex.
    masks : (r, T, m) bool, the sampled clients C_t.
    local_work : (T + 1,) int64, K_t for t < T and the final stage K_T.
    epochs : unit of local work (True: epochs, False: steps).
    batch : minibatch size B ≤ min n_i.
    local_steps : (L,) local steps η_k by local iteration k (clamped to the last entry).
    server_steps : (T,) server multipliers s_t (η_t for FedAvg, λη_t^g for FedProx).
    lam : proximal weight λ ≥ 0.
    persistent, train_sampled, project_global : the switches above.
    init_global : (r, d) w_0^g. init_local : (r, m, d) w_0^(i).
    seeds : (r,) uint64 stream seeds.
    record : also return the iterates after every round.

    Returns
    -------
    global_model : (r, d) w_T^g.
    local_models : (r, m, d) the local models after the final stage.
    sizes : (r, T + 1) ‖w_{t+1}^g‖² + Σ_i ‖w_{t+1}^(i)‖² after round t < T, and Σ_i ‖·‖² of the
        final local models at T; non-finite from the first diverging round on.
    iterations, gradients : (r, T + 1) int64 local iterations and sample gradients per round.
    global_iterates : (r, T + 1, d) w_t^g, t = 0, …, T (shape (r, 0, d) without ``record``).
    local_iterates : (r, T + 1, m, d) w_t^(i) (shape (r, 0, m, d) without ``record``).
    """
    reps, m, n_max, d = features.shape
    rounds = masks.shape[1]
    kept = rounds + 1 if record else 0
    global_out = np.empty((reps, d))
    local_out = np.empty((reps, m, d))
    sizes = np.zeros((reps, rounds + 1))
    iterations = np.zeros((reps, rounds + 1), dtype=np.int64)
    gradients = np.zeros((reps, rounds + 1), dtype=np.int64)
    global_iterates = np.empty((reps, kept, d))
    local_iterates = np.empty((reps, kept, m, d))
    wg = np.empty(d)
    local = np.empty((m, d))
    step_sum = np.empty(d)
    coef = np.empty(batch)
    perm = np.empty((m, n_max), dtype=np.int64)
    cursors = np.zeros(m, dtype=np.int64)
    counters = np.zeros(m, dtype=np.uint64)
    keys = np.empty(m, dtype=np.uint64)
    project_server = project_global and radius < math.inf
    for r in range(reps):
        X = features[r]
        Y = targets[r]
        for i in range(m):
            keys[i] = _mix(seeds[r] + np.uint64(i + 1) * _GAMMA)
            counters[i] = np.uint64(0)
            cursors[i] = 0
            for j in range(n_max):
                perm[i, j] = j
        for k in range(d):
            wg[k] = init_global[r, k]
        for i in range(m):
            for k in range(d):
                local[i, k] = init_local[r, i, k]
        if record:
            for k in range(d):
                global_iterates[r, 0, k] = wg[k]
            for i in range(m):
                for k in range(d):
                    local_iterates[r, 0, i, k] = local[i, k]
        for t in range(rounds + 1):
            final = t == rounds
            for i in range(m):
                trains = final or masks[r, t, i] == train_sampled
                if not trains:
                    continue
                w = local[i]
                if not persistent:
                    for k in range(d):
                        w[k] = wg[k]
                n = counts[r, i]
                cursor, counter, its, grads = _local_training(
                    loss,
                    X[i],
                    Y[i],
                    n,
                    perm[i],
                    cursors[i],
                    keys[i],
                    counters[i],
                    local_work[t],
                    epochs,
                    batch,
                    local_steps,
                    lam,
                    radius,
                    w,
                    wg,
                    coef,
                )
                cursors[i] = cursor
                counters[i] = counter
                iterations[r, t] += its
                gradients[r, t] += grads
            size = 0.0
            if not final:
                sampled = 0
                for k in range(d):
                    step_sum[k] = 0.0
                for i in range(m):
                    if masks[r, t, i]:
                        sampled += 1
                        p = weights[r, i]
                        for k in range(d):
                            step_sum[k] += p * (wg[k] - local[i, k])
                factor = server_steps[t] * m / sampled
                for k in range(d):
                    wg[k] -= factor * step_sum[k]
                if project_server:
                    _project(wg, radius)
                for k in range(d):
                    size += wg[k] * wg[k]
                if record:
                    for k in range(d):
                        global_iterates[r, t + 1, k] = wg[k]
                    for i in range(m):
                        for k in range(d):
                            local_iterates[r, t + 1, i, k] = local[i, k]
            for i in range(m):
                for k in range(d):
                    size += local[i, k] * local[i, k]
            sizes[r, t] = size
        for k in range(d):
            global_out[r, k] = wg[k]
        for i in range(m):
            for k in range(d):
                local_out[r, i, k] = local[i, k]
    return global_out, local_out, sizes, iterations, gradients, global_iterates, local_iterates
