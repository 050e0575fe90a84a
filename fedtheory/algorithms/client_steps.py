"""Generic client steps of the round loop (DESIGN §3).

A client step is a subclass of a :class:`typing.NamedTuple` of its parameters that names two
kernels, ``client_state`` and ``client_update`` (:mod:`fedtheory.algorithms._round_loop` states
their contract). The steps here are paper-free; a paper adds its own in ``fedtheory/papers/<key>/``.

:class:`LocalSGD`
    Local (proximal, projected) minibatch SGD from the server's model or warm-started from the
    client's own model, on minibatches drawn without replacement from a counter-based stream
    (:mod:`fedtheory.algorithms._sampling`): the local work of FedAvg (Algorithm 1 of the minimax
    paper), FedProx's SoftLocalSGD (its Algorithm 2), fine-tuning and pure local training.
:class:`PresampledSGD`
    Single-sample SGD from the server's model on sample indices drawn in advance (uniformly with
    replacement, as FedPAQ's local SGD): the local work of FedAve.
:class:`FullGradientSum`
    The client's full gradient sum Σ_j ∇ℓ(w^g; z_j) at the server's model, kept as the vector
    the client uploads: the client side of federated gradient descent.

Every update counts its own work into the row (local steps, gradient calls, floats received).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._ball import _project
from fedtheory.algorithms._buffers import _one_vector
from fedtheory.algorithms._sampling import _client_key, _draw_rows
from fedtheory.algorithms.trace import FLOATS_DOWN, GRADIENT_CALLS, LOCAL_STEPS
from fedtheory.problems._oracle import (
    client_samples,
    max_sample_count,
    minibatch_step,
    minibatch_steps,
    sample_count,
    sample_gradient,
)

__all__ = ["FullGradientSum", "LocalSGD", "PresampledSGD"]

#: A client's minibatches are drawn ahead, up to a round's worth of them but at most this many
#: rows unless one pass over the largest client is more, and run in one ``minibatch_steps`` call.
_ROWS_AHEAD = 4096


# ============================================================================== LocalSGD


@njit
def _local_sgd_state(
    rule: LocalSGD,
    problem: tuple[Any, ...],
    r: int,
    m: int,
    d: int,
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
    """Per replicate: every client's row permutation (the identity), cursor, draw counter and
    stream key; and scratch: ``2·batch`` floats for the minibatch kernels, ``batch`` draws and
    a block of minibatches drawn ahead (their rows, sizes and steps): room for the most local
    work of a round (``max(rule.work)`` passes, or batches), capped at :data:`_ROWS_AHEAD`
    sample rows, but never less than one pass over the largest client or one batch."""
    n_max = max_sample_count(problem)
    perm = np.empty((m, n_max), dtype=np.int64)
    for i in range(m):
        for j in range(n_max):
            perm[i, j] = j
    cursors = np.zeros(m, dtype=np.int64)
    counters = np.zeros(m, dtype=np.uint64)
    keys = np.empty(m, dtype=np.uint64)
    for i in range(m):
        keys[i] = _client_key(rule.seeds[r], i)
    one_pass = max(n_max, rule.batch)
    most_work = 1
    for work in rule.work:
        most_work = max(most_work, work)
    ahead = max(one_pass, min(one_pass * most_work, _ROWS_AHEAD))
    rows = np.empty(ahead, dtype=np.int64)
    sizes = np.empty(ahead, dtype=np.int64)
    etas = np.empty(ahead)
    picks = np.empty(rule.batch, dtype=np.int64)
    return perm, cursors, counters, keys, np.empty(2 * rule.batch), picks, rows, sizes, etas


@njit(inline="always")
def _run_block(
    rule: LocalSGD,
    samples: tuple[Any, ...],
    rows: np.ndarray,
    sizes: np.ndarray,
    etas: np.ndarray,
    count: int,
    used: int,
    w: np.ndarray,
    server_model: np.ndarray,
    scratch: np.ndarray,
) -> None:
    """Run the ``count`` minibatch steps drawn ahead (their rows: ``rows[:used]``).

    Inlined into the client update (numba IR): a call would pass about ninety words (a dozen
    arrays) and count the references of every array, which cost a client that takes one step
    of 10 rows a round 15% of its time (App. D FedAvg at E = 1, ``benchmarks/bench_gifair_rounds``).
    """
    if count == 0:
        return
    if rule.radius < math.inf:  # a projection after every step: one step at a time
        start = 0
        for j in range(count):
            b = sizes[j]
            minibatch_step(
                samples, rows[start : start + b], w, server_model, etas[j], rule.lam, scratch
            )
            _project(w, rule.radius)
            start += b
    else:
        minibatch_steps(
            samples, rows[:used], sizes[:count], etas[:count], w, server_model, rule.lam, scratch
        )


@njit
def _local_sgd_update(
    rule: LocalSGD,
    problem: tuple[Any, ...],
    state: tuple[
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
    ],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    w: np.ndarray,
    row: np.ndarray,
) -> None:
    """``rule.work[t]`` epochs or steps of w ← P_𝒲[w − η_k(ĝ + λ(w − w^g))] on client ``i``.

    Local iteration k (restarting at 0 every row) of row t uses
    η = ``steps[min(t, S − 1), min(k, L − 1)] * scales[r, i]`` (a product with 1.0 is exact, so
    unit scales change no bit). An *epoch*
    walks the cursor from 0 through all n_i rows in minibatches of ``batch`` (the last one
    partial); a *step* takes the next ``batch`` rows, restarting the pass (cursor 0) when fewer
    are left. The cursor and the draw counter of a client persist across rows.

    The minibatches do not depend on the model, so they are drawn ahead — a whole round's as a
    rule (see :func:`_local_sgd_state`) — and each block runs in one ``minibatch_steps`` call (a
    kernel can then overlap consecutive steps, and the call's reference counting is paid once:
    App. D FedAvg, 5 epochs a round, was 4–5% faster than with one block per epoch, the same
    bits); with a projection, step by step.
    """
    perm, cursors, counters, keys, scratch, picks, rows, sizes, etas = state
    d = w.shape[0]
    if not rule.warm_start:
        for k in range(d):
            w[k] = server_model[k]
    if rule.receives_server_model:
        row[FLOATS_DOWN] += d
    samples = client_samples(problem, r, i)
    n = sample_count(samples)
    order = perm[i]
    cursor = cursors[i]
    counter = counters[i]
    key = keys[i]
    steps = rule.steps[min(t, rule.steps.shape[0] - 1)]
    last = steps.shape[0] - 1
    scale = rule.scales[r, i]
    batch = rule.batch
    capacity = rows.shape[0]
    iterations = 0
    gradients = 0
    count = 0
    used = 0
    if rule.epochs:
        for _ in range(rule.work[t]):
            cursor = 0
            while cursor < n:
                b = min(batch, n - cursor)
                if used + b > capacity:
                    _run_block(
                        rule, samples, rows, sizes, etas, count, used, w, server_model, scratch
                    )
                    count = 0
                    used = 0
                counter = _draw_rows(order, cursor, b, n, key, counter, picks)
                for s in range(b):
                    rows[used + s] = order[cursor + s]
                sizes[count] = b
                etas[count] = steps[min(iterations, last)] * scale
                used += b
                count += 1
                cursor += b
                iterations += 1
                gradients += b
    else:
        for _ in range(rule.work[t]):
            if n - cursor < batch:
                cursor = 0
            if used + batch > capacity:
                _run_block(rule, samples, rows, sizes, etas, count, used, w, server_model, scratch)
                count = 0
                used = 0
            counter = _draw_rows(order, cursor, batch, n, key, counter, picks)
            for s in range(batch):
                rows[used + s] = order[cursor + s]
            sizes[count] = batch
            etas[count] = steps[min(iterations, last)] * scale
            used += batch
            count += 1
            cursor += batch
            iterations += 1
            gradients += batch
    _run_block(rule, samples, rows, sizes, etas, count, used, w, server_model, scratch)
    cursors[i] = cursor
    counters[i] = counter
    row[LOCAL_STEPS] += iterations
    row[GRADIENT_CALLS] += gradients


class _LocalSGDFields(NamedTuple):
    work: np.ndarray
    epochs: bool
    batch: int
    steps: np.ndarray
    scales: np.ndarray
    lam: float
    radius: float
    warm_start: bool
    receives_server_model: bool
    seeds: np.ndarray


class LocalSGD(_LocalSGDFields):
    """Local projected (proximal) minibatch SGD, sampling without replacement.

    In row t the client runs ``work[t]`` units (epochs or steps) of
    w ← P_𝒲[w − η_k(ĝ_B(w) + λ(w − w^g))], where ĝ_B is the minibatch mean of the sample
    gradients, starting from the server's model w^g (FedAvg, fine-tuning, local training from a
    given start) or from its own model (``warm_start``, FedProx's SoftLocalSGD).

    Attributes
    ----------
    work : numpy.ndarray
        ``(rows,)`` int64, units of local work per row.
    epochs : bool
        Unit of work: epochs (True) or steps.
    batch : int
        Minibatch size B ≤ min n_i.
    steps : numpy.ndarray
        ``(S, L)`` local steps: row t, local iteration k uses ``steps[min(t, S − 1),
        min(k, L − 1)]`` (both indices clamped to the last entry). A schedule that restarts
        every round is one row (``steps[None, :]``); a global schedule η^(t) over the global
        step t = cE + k (GIFAIR's β/(t + γ)) has one row per round.
    scales : numpy.ndarray
        ``(R, m)`` float64 multipliers of the step: client i of replicate r steps with
        η·scales[r, i] (ones for FedAvg: exact, bit for bit). A server step may write this
        array between rows (the broadcast of one scalar per client; see
        :mod:`fedtheory.algorithms._round_loop`).
    lam : float
        Proximal weight λ ≥ 0 (0: plain SGD).
    radius : float
        Radius of 𝒲 (inf: no projection).
    warm_start : bool
        Start from the client's own model instead of the server's.
    receives_server_model : bool
        Whether the client receives w^g in the row (d floats); False when there is no server
        (local training and fine-tuning start from a given model).
    seeds : numpy.ndarray
        ``(R,)`` uint64 stream seed of each replicate.
    """

    __slots__ = ()

    client_state = _local_sgd_state
    client_update = _local_sgd_update


# ============================================================================== PresampledSGD


@njit
def _presampled_update(
    rule: PresampledSGD,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    w: np.ndarray,
    row: np.ndarray,
) -> None:
    """w ← w^g, then w ← w − η_t ∇ℓ(w; z_{i, samples[t, i, k]}) for k = 0, …, b − 1."""
    (gradient,) = state
    d = w.shape[0]
    for k in range(d):
        w[k] = server_model[k]
    row[FLOATS_DOWN] += d
    eta = rule.steps[t]
    b = rule.samples.shape[2]
    samples = client_samples(problem, r, i)
    for step in range(b):
        sample_gradient(samples, rule.samples[t, i, step], w, gradient)
        for k in range(d):
            w[k] -= eta * gradient[k]
    row[LOCAL_STEPS] += b
    row[GRADIENT_CALLS] += b


class _PresampledSGDFields(NamedTuple):
    steps: np.ndarray
    samples: np.ndarray


class PresampledSGD(_PresampledSGDFields):
    """Single-sample SGD from the server's model on pre-drawn sample indices.

    In row t client i sets w ← w^g and takes b steps w ← w − η_t ∇ℓ(w; z_{i,j_k}) with
    j_k = ``samples[t, i, k]`` (drawn by the Python wrapper; uniformly with replacement for
    FedPAQ's local SGD).

    Attributes
    ----------
    steps : numpy.ndarray
        ``(rows,)`` step η_t of each row.
    samples : numpy.ndarray
        ``(rows, m, b)`` int64 sample indices (entries of clients that do not train are unused).
    """

    __slots__ = ()

    client_state = _one_vector
    client_update = _presampled_update


# ============================================================================== FullGradientSum


@njit
def _gradient_sum_update(
    rule: FullGradientSum,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    w: np.ndarray,
    row: np.ndarray,
) -> None:
    """w ← Σ_{j < n_i} ∇ℓ(w^g; z_ij): the client's gradient sum, to upload."""
    (gradient,) = state
    d = w.shape[0]
    row[FLOATS_DOWN] += d
    for k in range(d):
        w[k] = 0.0
    samples = client_samples(problem, r, i)
    n = sample_count(samples)
    for j in range(n):
        sample_gradient(samples, j, server_model, gradient)
        for k in range(d):
            w[k] += gradient[k]
    row[GRADIENT_CALLS] += n


class _FullGradientSumFields(NamedTuple):
    pass


class FullGradientSum(_FullGradientSumFields):
    """The client's exact gradient sum at the server's model, kept as its upload.

    No parameters: a client with n_i samples makes n_i gradient calls and receives w^g.
    """

    __slots__ = ()

    client_state = _one_vector
    client_update = _gradient_sum_update
