"""GIFAIR-FL's server step on the core round loop (reading guide §2.2–§2.3; DESIGN §3).

GIFAIR-FL is FedAvg whose local step of client k is scaled by c_k = 1 + λ r_k/(p_k ``|𝒜_{s_k}|``)
(Algorithm 2, red text): "reweighting is a weight, not a new loop". The client step is the core
:class:`~fedtheory.algorithms.client_steps.LocalSGD` with its per-client multipliers ``scales``;
the server step :class:`FairAggregation` composes a core aggregation step and, after it, sets the
multipliers of the next round — it writes them into the very ``scales`` array that the client step
reads (the shared-array broadcast of :mod:`fedtheory.algorithms._round_loop`: one scalar per
client, Remark 3.5). In every aggregating row t (round c = t):

1. the aggregation step, through the core dispatch functions (``server_update``): the p-weighted
   :class:`~fedtheory.algorithms.server_steps.ServerStep` (Σ_k p_k θ_k with full participation;
   θ̄ − (K/``|S|``) Σ_{k∈S} p_k(θ̄ − θ_k) under uniform sampling, Li et al.'s scheme II in difference
   form) or :class:`~fedtheory.algorithms.server_steps.ModelAverage` ((1/``|S|``) Σ_{k∈S} θ_k, the
   printed mean; with p-sampling with replacement the uploaders repeat, Li et al.'s scheme I);
2. the reported client losses F_k: ``stale`` (Algorithm 2 as printed) — every uploader reports
   F_k at its local end-of-round model θ_k^{((c+1)E)}, the others keep their last report;
   ``exact`` (the §3.3 remedy, the r the theorems assume) — every client reports F_k(θ̄_c) at the
   new global model;
3. the group losses L_i = (1/``|𝒜_i|``) Σ_{k∈𝒜_i} F_k (unweighted), the signed ranks
   r_i = Σ_{j≠i} sign(L_i − L_j) with sign(0) = 0 (ties), and the multipliers
   c_k = 1 + λ r_{s_k}/(p_k ``|𝒜_{s_k}|``) of round c + 1, written into ``scales[r]``.

Before round 0 (``server_state``) every client reports F_k(θ_0) (the initial group losses, which
Algorithm 2 leaves unspecified), so round 0 is already reweighted; these evaluations are counted
in row 0. A loss is an evaluation of the kernel view's ``client_loss`` (the mean of the n_k
per-sample losses): the trace counts n_k ``function_queries`` per reported loss and one float up;
``floats_down`` counts the scalar c_k received by each client that trains in the row and, in exact
mode, the extra broadcast of θ̄_c (d floats per client) of the §3.3 round trip.

**Logs by argument** (the loop returns no step state; as the ffgb steps' diagnostics): arrays
``reported`` (R, T + 1, K), ``group_losses`` (R, T + 1, d) and ``ranks`` (R, T + 1, d) that the
kernels fill; index 0 is the initial evaluation, index c + 1 the values after round c, so round c
runs with the multipliers of index c.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._buffers import _one_vector
from fedtheory.algorithms._round_loop import server_state, server_update
from fedtheory.algorithms.server_steps import ModelAverage, ServerStep
from fedtheory.algorithms.trace import FLOATS_DOWN, FLOATS_UP, FUNCTION_QUERIES
from fedtheory.problems._oracle import client_loss, client_samples, sample_count

__all__ = ["R_MODES", "FairAggregation"]

#: How the clients' losses are reported: at the local end-of-round models (Algorithm 2 as
#: printed) or at the new global model (§3.3's remedy).
R_MODES: tuple[str, ...] = ("stale", "exact")


@njit
def _averaging_update(
    rule: _Averaging,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """The core ``ModelAverage`` step when ``rule.uniform``, the core ``ServerStep`` else."""
    if rule.uniform:
        server_update(rule.mean, problem, state, r, t, uploaders, wg, models, row)
    else:
        server_update(rule.weighted, problem, state, r, t, uploaders, wg, models, row)


class _AveragingFields(NamedTuple):
    weighted: ServerStep
    mean: ModelAverage
    uniform: bool


class _Averaging(_AveragingFields):
    """FedAvg's aggregation of the uploads, either core step chosen by a flag (private).

    One type for both aggregations, so that every kernel composing it (the round loop with
    :class:`FairAggregation` or Ditto's client step) is compiled once, not once per step type.
    Both core steps keep one vector of state (``_one_vector``).

    Attributes
    ----------
    weighted : ServerStep
        The p-weighted step (run when ``uniform`` is False).
    mean : ModelAverage
        The plain mean of the uploads (run when ``uniform`` is True).
    uniform : bool
        Which of the two runs.
    """

    __slots__ = ()

    server_state = _one_vector
    server_update = _averaging_update


@njit
def _reweight(
    lam: float,
    labels: np.ndarray,
    sizes: np.ndarray,
    weights: np.ndarray,
    scales: np.ndarray,
    reported_log: np.ndarray,
    group_log: np.ndarray,
    ranks_log: np.ndarray,
    r: int,
    index: int,
    reported: np.ndarray,
    group: np.ndarray,
    ranks: np.ndarray,
) -> None:
    """Group losses, signed ranks and the multipliers c_k from the reported losses; log them at
    ``index``. (The fields it uses, not the step: one specialisation for every aggregation.)"""
    groups = sizes.shape[0]
    m = labels.shape[0]
    for g in range(groups):
        group[g] = 0.0
    for i in range(m):
        group[labels[i]] += reported[i]
    for g in range(groups):
        group[g] /= sizes[g]
    for g in range(groups):
        rank = 0.0
        for h in range(groups):
            if group[g] > group[h]:
                rank += 1.0
            elif group[g] < group[h]:
                rank -= 1.0
        ranks[g] = rank
    for i in range(m):
        g = labels[i]
        scales[r, i] = 1.0 + lam * ranks[g] / (weights[i] * sizes[g])
    for i in range(m):
        reported_log[r, index, i] = reported[i]
    for g in range(groups):
        group_log[r, index, g] = group[g]
        ranks_log[r, index, g] = ranks[g]


@njit
def _fair_state(
    rule: FairAggregation, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The aggregation's state, the reported losses (F_k(θ_0) at first), two group buffers and
    the count of the initial evaluations (per-sample losses), then the multipliers of round 0."""
    inner = server_state(rule.aggregation, problem, r, m, d)
    reported = np.empty(m)
    initial = np.zeros(1, dtype=np.int64)
    start = rule.init[r]
    for i in range(m):
        samples = client_samples(problem, r, i)
        reported[i] = client_loss(samples, start)
        initial[0] += sample_count(samples)
    groups = rule.group_sizes.shape[0]
    group, ranks = np.empty(groups), np.empty(groups)
    first = np.int64(0)  # index 0 as an int64, not the literal 0 (one specialisation)
    _reweight(
        rule.lam, rule.labels, rule.group_sizes, rule.weights, rule.scales, rule.reported,
        rule.group_losses, rule.ranks, r, first, reported, group, ranks,
    )  # fmt: skip
    return (inner, reported, group, ranks, initial)


@njit
def _fair_update(
    rule: FairAggregation,
    problem: tuple[Any, ...],
    state: tuple[Any, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """Aggregate, collect the reported losses (stale or exact) and set the next multipliers."""
    inner, reported, group, ranks, initial = state
    server_update(rule.aggregation, problem, inner, r, t, uploaders, wg, models, row)
    m, d = models.shape
    if t == 0:  # the initial reports F_k(θ_0), made before round 0
        row[FUNCTION_QUERIES] += initial[0]
        row[FLOATS_UP] += m
    row[FLOATS_DOWN] += rule.listeners[r, t]
    if rule.stale:
        sent = uploaders.shape[0]
        for a in range(sent):
            i = uploaders[a]
            repeated = False
            for b in range(a):
                if uploaders[b] == i:
                    repeated = True
            if repeated:  # drawn twice (sampling with replacement): one report
                continue
            samples = client_samples(problem, r, i)
            reported[i] = client_loss(samples, models[i])
            row[FUNCTION_QUERIES] += sample_count(samples)
            row[FLOATS_UP] += 1
    else:
        for i in range(m):
            samples = client_samples(problem, r, i)
            reported[i] = client_loss(samples, wg)
            row[FUNCTION_QUERIES] += sample_count(samples)
        row[FLOATS_UP] += m
        row[FLOATS_DOWN] += d * m
    _reweight(
        rule.lam, rule.labels, rule.group_sizes, rule.weights, rule.scales, rule.reported,
        rule.group_losses, rule.ranks, r, t + 1, reported, group, ranks,
    )  # fmt: skip


class _FairAggregationFields(NamedTuple):
    aggregation: Any
    lam: float
    stale: bool
    labels: np.ndarray
    group_sizes: np.ndarray
    weights: np.ndarray
    scales: np.ndarray
    init: np.ndarray
    listeners: np.ndarray
    reported: np.ndarray
    group_losses: np.ndarray
    ranks: np.ndarray


class FairAggregation(_FairAggregationFields):
    """GIFAIR-FL's server step: an aggregation step, then the fairness multipliers.

    Attributes
    ----------
    aggregation : _Averaging
        The core aggregation step it composes (``ServerStep`` or ``ModelAverage``, see the
        module docstring), in the one type of both (:class:`_Averaging`).
    lam : float
        λ, 0 ≤ λ < λ_max (λ = 0: FedAvg, every multiplier exactly 1).
    stale : bool
        Report the losses at the local end-of-round models (Algorithm 2 as printed) instead of
        at the new global model (exact r).
    labels : numpy.ndarray
        ``(K,)`` int64 group s_k of each client, in [0, d).
    group_sizes : numpy.ndarray
        ``(d,)`` float64 ``|𝒜_i|``.
    weights : numpy.ndarray
        ``(K,)`` float64 client weights p_k.
    scales : numpy.ndarray
        ``(R, K)`` float64 multipliers c_k, written here and read by the client step: the *same
        array object* as the client step's ``scales``.
    init : numpy.ndarray
        ``(R, d_model)`` the initial model θ_0 (for the initial reports).
    listeners : numpy.ndarray
        ``(R, rows)`` int64 clients that receive their multiplier in row t (those that train).
    reported, group_losses, ranks : numpy.ndarray
        The logs, ``(R, rows + 1, K)``, ``(R, rows + 1, d)`` and ``(R, rows + 1, d)`` float64,
        filled by the kernels (see the module docstring).
    """

    __slots__ = ()

    server_state = _fair_state
    server_update = _fair_update
