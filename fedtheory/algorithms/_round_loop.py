"""THE federated round loop, compiled with numba (private; DESIGN §3, §4).

:func:`_round_loop` runs every federated algorithm of the package, for a batch of replicates:
for each row t (a round) the *training* clients run the client step in the order given, then —
in rows that aggregate — the server step combines the *uploading* clients' states. What a client
and the server do is pluggable (the idiom of :func:`fedtheory._jit.dispatch`): a client step is
a subclass of a :class:`typing.NamedTuple` of its parameters that names the kernels

- ``client_state(rule, problem, r, m, d) -> state``: per-replicate client-side state (a tuple
  of arrays: sample streams, scratch buffers, control variates, query histories, ...);
- ``client_update(rule, problem, state, r, t, i, server_model, model, row)``: client ``i``'s
  work in row ``t``, in place on its ``model`` (the vector it keeps and may upload), reading the
  server's model; it adds what it does to ``row``, the row's counters
  (:mod:`fedtheory.algorithms.trace`: local steps, oracle calls, queries, floats received);

and a server step likewise names ``server_state(rule, problem, r, m, d)`` and
``server_update(rule, problem, state, r, t, uploaders, server_model, models, row)``. The
problem is the kernel view of a federated problem (:mod:`fedtheory.problems._oracle`). The loop
itself counts who took part (``participants``, ``uploads``) and the largest per-client
gradient count of the row, records the iterates when asked, and returns the squared norms of
the models after every row, which turn non-finite from the first diverging row on.

**Shared per-client arrays (server → client broadcast).** A server step may pass information
to the next rows' client steps through an array that both rules hold: the two NamedTuples are
built around *the same array object* (e.g. :class:`~fedtheory.algorithms.client_steps.LocalSGD`
``scales`` (R, m) and a server step's field holding that very array), the server step writes
row ``r`` of it in ``server_state`` (before row 0) and in ``server_update`` (after row t), and
the client steps of row t + 1 read it. Arrays are passed by reference into the kernel, so the
writes are seen; scalars and tuples are copies and are not. This is how one scalar per client
is broadcast with the model (the step multiplier c_k = 1 + λr_k/(p_k|𝒜_{s_k}|) of GIFAIR-FL,
Remark 3.5 of the gifair paper): a reweighting is a per-client weight on the one loop, not a new
loop. The wrapper that builds the two rules owns the array (fresh for every call).

The generic steps are in :mod:`fedtheory.algorithms.client_steps` and
:mod:`fedtheory.algorithms.server_steps`; ``docs/architecture.md`` shows how to write one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory._jit import dispatch, njit
from fedtheory.algorithms.trace import (
    COUNTERS,
    GRADIENT_CALLS,
    MAX_CLIENT_GRADIENT_CALLS,
    PARTICIPANTS,
    UPLOADS,
)

__all__: list[str] = []

client_state = dispatch("client_state", "problem", "r", "m", "d")
client_update = dispatch(
    "client_update", *("problem", "state", "r", "t", "i", "server_model", "model", "row")
)
server_state = dispatch("server_state", "problem", "r", "m", "d")
server_update = dispatch(
    "server_update", *("problem", "state", "r", "t", "uploaders", "server_model", "models", "row")
)

_COUNTERS = len(COUNTERS)


@njit
def _round_loop(
    problem: tuple[Any, ...],
    client_rule: tuple[Any, ...],
    server_rule: tuple[Any, ...],
    trainers: np.ndarray,
    trainer_counts: np.ndarray,
    uploaders: np.ndarray,
    uploader_counts: np.ndarray,
    aggregate: np.ndarray,
    init_server: np.ndarray,
    init_local: np.ndarray,
    record: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The federated round loop for a batch of R replicates (see the module docstring).

    Parameters
    ----------
    problem, client_rule, server_rule : the kernel view of the problem and the two steps.
    trainers : (R, rows, m) int64 — row t of replicate r trains clients
        ``trainers[r, t, :trainer_counts[r, t]]``, in that order.
    uploaders : (R, rows, m) int64 — the clients whose models the server aggregates in row t,
        ``uploaders[r, t, :uploader_counts[r, t]]``, in that order.
    aggregate : (rows,) bool — whether the server step runs after row t.
    init_server : (R, d) the server's model at the start; init_local : (R, m, d) the clients'.
    record : also return the models at the start and after every aggregating row.

    Returns
    -------
    server_model : (R, d). local_models : (R, m, d).
    counts : (R, rows, len(COUNTERS)) int64, the trace counters.
    sizes : (R, rows) ‖server model‖² (after aggregating rows) + Σ_i ‖model_i‖² after every row.
    server_iterates : (R, K, d) and local_iterates : (R, K, m, d), K = 1 + number of
        aggregating rows (K = 0 without ``record``).
    """
    reps, m, d = init_local.shape
    rows = aggregate.shape[0]
    kept = 0
    if record:
        kept = 1
        for t in range(rows):
            if aggregate[t]:
                kept += 1
    server_out = np.empty((reps, d))
    local_out = np.empty((reps, m, d))
    counts = np.zeros((reps, rows, _COUNTERS), dtype=np.int64)
    sizes = np.zeros((reps, rows))
    server_iterates = np.empty((reps, kept, d))
    local_iterates = np.empty((reps, kept, m, d))
    wg = np.empty(d)
    local = np.empty((m, d))
    for r in range(reps):
        cstate = client_state(client_rule, problem, r, m, d)
        sstate = server_state(server_rule, problem, r, m, d)
        for k in range(d):
            wg[k] = init_server[r, k]
        for i in range(m):
            for k in range(d):
                local[i, k] = init_local[r, i, k]
        stored = 0
        if record:
            for k in range(d):
                server_iterates[r, 0, k] = wg[k]
            for i in range(m):
                for k in range(d):
                    local_iterates[r, 0, i, k] = local[i, k]
            stored = 1
        for t in range(rows):
            row = counts[r, t]
            for a in range(trainer_counts[r, t]):
                i = trainers[r, t, a]
                before = row[GRADIENT_CALLS]
                client_update(client_rule, problem, cstate, r, t, i, wg, local[i], row)
                row[PARTICIPANTS] += 1
                used = row[GRADIENT_CALLS] - before
                if used > row[MAX_CLIENT_GRADIENT_CALLS]:
                    row[MAX_CLIENT_GRADIENT_CALLS] = used
            size = 0.0
            if aggregate[t]:
                sent = uploader_counts[r, t]
                row[UPLOADS] += sent
                server_update(
                    server_rule, problem, sstate, r, t, uploaders[r, t, :sent], wg, local, row
                )
                for k in range(d):
                    size += wg[k] * wg[k]
                if record:
                    for k in range(d):
                        server_iterates[r, stored, k] = wg[k]
                    for i in range(m):
                        for k in range(d):
                            local_iterates[r, stored, i, k] = local[i, k]
                    stored += 1
            for i in range(m):
                for k in range(d):
                    size += local[i, k] * local[i, k]
            sizes[r, t] = size
        for k in range(d):
            server_out[r, k] = wg[k]
        for i in range(m):
            for k in range(d):
                local_out[r, i, k] = local[i, k]
    return server_out, local_out, counts, sizes, server_iterates, local_iterates
