"""FZooS (Algorithm 2) as a client step of the core round loop (private; guide §2.3–§2.6, §2.9).

Client i in round r (row index r − 1) starts from x = x_{r−1} and runs T local steps; step t:

1. query y = f_i(x) + σζ₀ and append (x, y) to the client's GP history (decision A2: the current
   point enters 𝒟 before ∇μ is computed, so round 1 moves from its first step);
2. draw ``n_cand`` candidates x + δ, δ ~ U[−box, box]^d, rank them by the trace of the posterior
   gradient covariance tr Σ(·) under the history including x (A4: the trace, not the spectral
   norm, which ties at 1/l² while n < d), query the top ``n_active`` (noises ζ₁…) and append them;
3. ĝ = ∇μ(x) + γ_{r,t−1}·∇φ(x)ᵀ(w_{r−1} − w_{r−1,T}^{(i)}) (eq. (8) in RFF form, guide §2.5; the
   local term is the exact GP posterior-mean gradient, A14); the correction is zero in round 1
   (A1: w_0 = w_{0,T}^{(i)} = 0); with ``anchored`` (Fig. 6b's "fixed vector", x′ = x″ = x_{r−1})
   it is ∇φ(x_{r−1})ᵀ(w_{r−1} − w_{r−1,T}^{(i)}), one vector per round;
4. the GD or Adam step and the optional clip of :func:`.steps._apply_direction`.

At the round end the client solves its RFF ridge weight w_{r,T}^{(i)} of (6) from its w history
(all queries, or the trajectory points only: decision A7, ``history_all``) by the cheaper exact
form (guide §2.4): Φ(ΦᵀΦ + σ²I)⁻¹y from scratch while n²M + n³/3 < M³/3, then the push-through
(ΦΦᵀ + σ²I)⁻¹Φy from M × M moments accumulated once per round (:func:`_client_weights`); it
writes it into ``weights_local[rep, i, :M]``; the server step averages those rows into
``weights_mean`` (w_r), which the clients read in the next round — the shared-array pattern of
the round loop.

**γ rules.** A table γ[r − 1, t − 1] ("1/t", a fixed number, Corollary 1), or Corollary C.1's
distance rule (``distance``): γ = G/(G + 2(ωκ − 4ωι k′(ι)²/(k(0)d + σ²d/n̄) + Nε)) with the SE
kernel k(ι) = exp(−ι/(2l²)), κ = 1/l², and ι = the mean squared distance from x to every
client's history (guide §3, Prop. C.1 with rT = n̄, the mean history size). The server knows the
histories only through per-client sums: every client keeps Σx_τ, Σ‖x_τ‖² and n in the columns
``M: M + d + 2`` of its ``weights_local`` row (the points of the w history), the server averages
them with w, and ι = (n̄‖x‖² − 2xᵀS̄ + Q̄)/n̄. In round 1 (no history) ι is undefined and γ is
G/(G + 2(ωκ + Nε)) (its correction is zero anyway).

**Randomness** (counter-based): step t of client i in round r uses the stream keys of
:func:`.steps._call_keys` (seed, client, round, step): candidate b's coordinate k is x_k +
box·(2u − 1) with u the uniform ``b·d + k`` of the first key; the query noises are the normals
``0`` (the iterate) and ``1 + a`` (active query a) of the second.

**Failures.** A non-positive Cholesky pivot of the GP update or of the RFF solve stops the
replicate (its model turns NaN) and records (code, round index, client, step) in ``status``;
the runner raises :class:`~fedtheory.errors.SolverError` (codes :data:`SOLVER_GP`,
:data:`SOLVER_RFF`). Queries counted: 1 + n_active per local step; floats down per round:
d (+ M, + d + 2 for the distance rule, from round 2 on).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._sampling import _standard_normal, _uniform
from fedtheory.algorithms.trace import FLOATS_DOWN, FUNCTION_QUERIES, LOCAL_STEPS
from fedtheory.papers.fzoos._gp_kernels import (
    STATUS_OK,
    gp_append,
    gp_client,
    gp_mean_gradient,
    gp_reset,
    gp_trace_uncertainty,
    gp_trace_uncertainty_local,
    top_k,
)
from fedtheory.papers.fzoos._oracle import global_gradient, zo_gradient, zo_value
from fedtheory.papers.fzoos._rff_kernels import (
    SYSTEM_SAMPLES,
    rff_accumulate,
    rff_gradient,
    rff_solve,
    rff_weights,
)
from fedtheory.papers.fzoos.steps import (
    FDSettings,
    RunLog,
    _apply_direction,
    _call_keys,
    _diverge,
    _drift,
    _log_direction,
)

__all__: list[str] = []

#: ``status[rep, 0]`` codes of a failed solve.
SOLVER_GP = 1
SOLVER_RFF = 2


class _SurrogateFields(NamedTuple):
    n_active: int
    n_cand: int
    box: float
    neighbours: int
    history_all: bool
    lengthscale: float
    noise: float
    gp: tuple[np.ndarray, ...]
    frequencies: np.ndarray
    phases: np.ndarray
    scale: float
    gram: np.ndarray
    moment: np.ndarray
    accumulated: np.ndarray
    points: np.ndarray
    values: np.ndarray
    status: np.ndarray


class Surrogate(_SurrogateFields):
    """The GP and RFF settings and buffers of the FZooS client step (module docstring).

    Attributes
    ----------
    n_active, n_cand, box : int, int, float
        Active queries per step, candidates, half-width of the candidate box (App. E: 5, 100,
        0.01).
    neighbours : int
        0: rank by the exact tr Σ; m > 0: by the approximation conditioned on the m history
        points nearest to x (``_gp_kernels.gp_trace_uncertainty_local``, an upper bound, exact
        while n ≤ m) — it never needs the dense K_σ⁻¹, so A and H are never synced.
    history_all : bool
        w from every query (A7) instead of the trajectory points only.
    lengthscale, noise : float
        l of the SE kernel and the GP noise variance σ².
    gp : tuple of numpy.ndarray
        The stacked GP states of the N clients (:func:`fedtheory.papers.fzoos.gp.gp_state`),
        reset per replicate.
    frequencies, phases : numpy.ndarray
        ``(R_rep, M, d)`` V and ``(R_rep, M)`` b, one shared draw per replicate.
    scale : float
        √(2/M).
    gram, moment : numpy.ndarray
        ``(N, M, M)`` ΦΦᵀ and ``(N, M)`` Φy of the first ``accumulated[i]`` points of each
        client's w history (``(N,)`` int64), reset per replicate.
    points, values : numpy.ndarray
        ``(N, capacity, d)`` and ``(N, capacity)``: each client's w history (A7).
    status : numpy.ndarray
        ``(R_rep, 4)`` int64: (code, round index, client, step) of a failed solve, −1 while fine.
    """

    __slots__ = ()


class _CorollaryC1Fields(NamedTuple):
    enabled: bool
    G: float
    omega: float
    epsilon: float


class DistanceRule(_CorollaryC1Fields):
    """Corollary C.1's γ (``enabled``) from G, ω and the RFF error ε (module docstring)."""

    __slots__ = ()


@njit
def _distance_gamma(
    rule: DistanceRule,
    lengthscale: float,
    noise: float,
    summary: np.ndarray,
    x: np.ndarray,
    clients: int,
) -> float:
    """Corollary C.1's γ at x from the averaged history sums ``summary`` = (S̄ (d), Q̄, n̄), the
    surrogate's lengthscale l and GP noise σ²."""
    d = x.shape[0]
    l2 = lengthscale * lengthscale
    kappa = 1.0 / l2
    count = summary[d + 1]
    bound = rule.omega * kappa
    if count > 0.0:
        total = 0.0
        for k in range(d):
            total += count * x[k] * x[k] - 2.0 * x[k] * summary[k]
        iota = max((total + summary[d]) / count, 0.0)
        derivative2 = math.exp(-iota / l2) / (4.0 * l2 * l2)  # k′(ι)² for the SE kernel
        bound -= 4.0 * rule.omega * iota * derivative2 / (d + noise * d / count)
    return rule.G / (rule.G + 2.0 * (bound + clients * rule.epsilon))


@njit
def _fzoos_state(
    rule: FZooSStep, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray, ...]:
    """Reset the N GP histories and RFF moments for replicate r; the step's scratch buffers."""
    surrogate = rule.surrogate
    for i in range(m):
        gp_reset(gp_client(surrogate.gp, i))
    surrogate.gram[:] = 0.0
    surrogate.moment[:] = 0.0
    surrogate.accumulated[:] = 0
    surrogate.status[r, :] = -1
    M = surrogate.phases.shape[1]
    active = max(surrogate.n_active, 1)
    return (
        np.empty((11, d)),  # g, corr, ĝ, ∇F, ∇f_i, scratch, Adam moments, anchor, spare
        np.empty(M),  # w_{r−1} − w_{r−1,T}^{(i)}
        np.empty((surrogate.n_cand, d)),
        np.empty(surrogate.n_cand),
        np.empty(active, dtype=np.int64),
        np.empty((active, d)),
        np.empty(active),
        np.empty((1, d)),
        np.empty(1),
    )


@njit
def _fail(status: np.ndarray, code: int, r: int, t: int, i: int, s: int, x: np.ndarray) -> None:
    """Record a failed solve (code, round index, client, step) in ``status`` (the surrogate's)
    unless one is recorded, and poison the model x."""
    if status[r, 0] < 0:
        status[r, 0] = code
        status[r, 1] = t
        status[r, 2] = i
        status[r, 3] = s
    for k in range(x.shape[0]):
        x[k] = math.nan


@njit
def _remember(
    history: np.ndarray,
    observed: np.ndarray,
    sums: np.ndarray,
    distance: bool,
    start: int,
    points: np.ndarray,
    values: np.ndarray,
    count: int,
) -> None:
    """Store the first ``count`` points at ``start`` of a client's w history (``history``
    (capacity, d), ``observed`` (capacity,)); with ``distance``, add them to the client's
    distance sums ``sums`` (Σx, Σ‖x‖², n)."""
    d = points.shape[1]
    for a in range(count):
        for k in range(d):
            history[start + a, k] = points[a, k]
        observed[start + a] = values[a]
    if distance:
        for a in range(count):
            norm = 0.0
            for k in range(d):
                sums[k] += points[a, k]
                norm += points[a, k] * points[a, k]
            sums[d] += norm
            sums[d + 1] += 1.0


@njit
def _client_weights(surrogate: Surrogate, r: int, i: int, n: int, out: np.ndarray) -> int:
    """w_{r,T}^{(i)} from the n points of client i's w history into ``out`` (M,).

    The cheaper exact form (guide §2.4): the n × n system Φ(ΦᵀΦ + σ²I)⁻¹y from scratch
    (n²M + n³/3 flops) while it beats the M × M one, (ΦΦᵀ + σ²I)⁻¹Φy from the moments ΦΦᵀ, Φy
    (M³/3, plus a rank-q update by the points not yet accumulated) afterwards.
    """
    V, b, scale = surrogate.frequencies[r], surrogate.phases[r], surrogate.scale
    M = V.shape[0]
    if float(n) * n * (M + n / 3.0) < M * M * (M / 3.0):
        return rff_weights(
            V, b, scale, surrogate.points[i, :n], surrogate.values[i, :n], surrogate.noise,
            SYSTEM_SAMPLES, out,
        )  # fmt: skip
    done = surrogate.accumulated[i]
    if n > done:
        rff_accumulate(
            V, b, scale, surrogate.points[i, done:n], surrogate.values[i, done:n],
            surrogate.gram[i], surrogate.moment[i],
        )  # fmt: skip
        surrogate.accumulated[i] = n
    return rff_solve(surrogate.gram[i], surrogate.moment[i], surrogate.noise, out)


@njit
def _fzoos_update(
    rule: FZooSStep,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray, ...],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    x: np.ndarray,
    row: np.ndarray,
) -> None:
    """Client i's round t + 1 of Algorithm 2 (module docstring)."""
    buffers, delta, candidates, scores, picks, active, values, one, one_value = state
    g, corr, g_hat, grad_f, grad_i = buffers[0], buffers[1], buffers[2], buffers[3], buffers[4]
    scratch, first, second, anchor = buffers[5], buffers[6], buffers[7], buffers[8]
    surrogate, fd, log = rule.surrogate, rule.fd, rule.log
    d = x.shape[0]
    m = log.disparity.shape[2]
    T = rule.local_steps
    M = surrogate.phases.shape[1]
    V, b, scale = surrogate.frequencies[r], surrogate.phases[r], surrogate.scale
    n_active, n_cand, box = surrogate.n_active, surrogate.n_cand, surrogate.box
    if log.diverged[r, 0] >= 0 or surrogate.status[r, 0] >= 0:
        for k in range(d):
            x[k] = math.nan
        return
    gp = gp_client(surrogate.gp, i)
    for k in range(d):
        x[k] = server_model[k]
        anchor[k] = server_model[k]
        first[k] = 0.0
        second[k] = 0.0
    corrected = t > 0  # A1: no w_0
    for j in range(M):
        delta[j] = rule.weights_mean[r, j] - rule.weights_local[r, i, j]
    if corrected and rule.anchored:
        rff_gradient(V, b, scale, anchor, delta, corr)
    elif not corrected:
        for k in range(d):
            corr[k] = 0.0
    summary = rule.weights_mean[r, M:]
    history, observed = surrogate.points[i], surrogate.values[i]
    sums, distance = rule.weights_local[r, i, M:], rule.distance.enabled
    per_step = 1 + n_active if surrogate.history_all else 1
    stored = t * T * per_step
    queries = 0
    for s in range(T):
        directions, noise_key = _call_keys(fd, r, i, t, s)
        # 1. the iterate
        value = zo_value(problem, i, x)
        if fd.noise > 0.0:
            value += fd.noise * _standard_normal(noise_key, 0)
        if not math.isfinite(value):  # the iterate is finite but f_i overflowed: diverged
            _diverge(log, r, t, i, s, x)
            return
        for k in range(d):
            one[0, k] = x[k]
        one_value[0] = value
        if gp_append(gp, one, one_value) != STATUS_OK:
            _fail(surrogate.status, SOLVER_GP, r, t, i, s, x)
            return
        _remember(history, observed, sums, distance, stored, one, one_value, 1)
        stored += 1
        # 2. active queries: the top n_active of n_cand candidates by tr Σ
        if n_active > 0:
            for c in range(n_cand):
                for k in range(d):
                    u = _uniform(directions, c * d + k)
                    candidates[c, k] = x[k] + box * (2.0 * u - 1.0)
            if n_active == n_cand:  # every candidate is taken: no ranking (nor sync of K⁻¹)
                for a in range(n_active):
                    picks[a] = a
            elif surrogate.neighbours > 0:
                gp_trace_uncertainty_local(gp, candidates, x, surrogate.neighbours, scores)
                top_k(scores, n_active, picks)
            else:
                gp_trace_uncertainty(gp, candidates, scores)
                top_k(scores, n_active, picks)
            for a in range(n_active):
                for k in range(d):
                    active[a, k] = candidates[picks[a], k]
                value = zo_value(problem, i, active[a])
                if fd.noise > 0.0:
                    value += fd.noise * _standard_normal(noise_key, 1 + a)
                values[a] = value
                if not math.isfinite(value):
                    _diverge(log, r, t, i, s, x)
                    return
            if gp_append(gp, active, values) != STATUS_OK:
                _fail(surrogate.status, SOLVER_GP, r, t, i, s, x)
                return
            if surrogate.history_all:
                _remember(history, observed, sums, distance, stored, active, values, n_active)
                stored += n_active
        queries += 1 + n_active
        # 3. the direction (8)
        gp_mean_gradient(gp, x, g)
        if corrected and not rule.anchored:
            rff_gradient(V, b, scale, x, delta, corr)
        if rule.distance.enabled:
            gamma = _distance_gamma(
                rule.distance, surrogate.lengthscale, surrogate.noise, summary, x, m
            )
        else:
            gamma = rule.gammas[t, s]
        for k in range(d):
            g_hat[k] = g[k] + gamma * corr[k]
        if fd.gradients:
            global_gradient(problem, m, x, grad_f, scratch)
            zo_gradient(problem, i, x, grad_i)
        _log_direction(log, r, t, i, s, fd.gradients, g, corr, gamma, g_hat, grad_f, grad_i)
        # 4. the optimizer step
        finite = _apply_direction(
            rule.eta, rule.adam, rule.beta1, rule.beta2, rule.epsilon, rule.clip, s, x, g_hat,
            first, second,
        )  # fmt: skip
        log.drift[r, t, i, s] = _drift(x, anchor)
        if not finite:
            _diverge(log, r, t, i, s, x)
            return
    # w_{r,T}^{(i)} from the client's whole w history (A7), for the server to average.
    status = _client_weights(surrogate, r, i, stored, rule.weights_local[r, i, :M])
    if status != STATUS_OK:
        _fail(surrogate.status, SOLVER_RFF, r, t, i, T - 1, x)
        return
    row[LOCAL_STEPS] += T
    row[FLOATS_DOWN] += d
    if corrected:
        row[FLOATS_DOWN] += rule.weights_mean.shape[1]
    row[FUNCTION_QUERIES] += queries


class _FZooSStepFields(NamedTuple):
    local_steps: int
    eta: float
    adam: bool
    beta1: float
    beta2: float
    epsilon: float
    clip: bool
    gammas: np.ndarray
    distance: DistanceRule
    anchored: bool
    fd: FDSettings
    surrogate: Surrogate
    weights_local: np.ndarray
    weights_mean: np.ndarray
    log: RunLog


class FZooSStep(_FZooSStepFields):
    """The client step of FZooS with the GP surrogate (Algorithm 2; module docstring).

    Attributes
    ----------
    local_steps, eta, adam, beta1, beta2, epsilon, clip
        T and the optimizer (:class:`.steps.ZerothOrderStep`).
    gammas : numpy.ndarray
        ``(R, T)`` γ_{r,t−1} (unused with the distance rule).
    distance : DistanceRule
        Corollary C.1's γ when enabled.
    anchored : bool
        Fig. 6b's fixed vector: the correction at x_{r−1}.
    fd : FDSettings
        Only ``noise`` (σ of the queries), ``gradients`` and ``seeds`` are used.
    surrogate : Surrogate
    weights_local, weights_mean : numpy.ndarray
        The server step's arrays (the same objects): ``(R_rep, N, M [+ d + 2])`` and
        ``(R_rep, M [+ d + 2])``.
    log : RunLog
    """

    __slots__ = ()

    client_state = _fzoos_state
    client_update = _fzoos_update
