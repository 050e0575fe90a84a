"""The baselines' steps on the core round loop (private; reading guide §2.5, DESIGN §3).

The fairness baselines GIFAIR-FL is compared with, each a client step and a server step of the
one federated round loop (:mod:`fedtheory.algorithms._round_loop`), never a loop of their own.
The clients run the core :class:`~fedtheory.algorithms.client_steps.LocalSGD` (or
:class:`~fedtheory.algorithms.client_steps.FullGradientSum` for q-FedSGD); what differs is the
server step, plus Ditto's personal client step:

:class:`QFairAggregation` — q-FFL / q-FedAvg (Li, Sanjabi, Beirami & Smith 2020, Algorithm 2).
    With L̂ = 1/η, F_k = F_k(w^t) and ΔW_k = L̂(w^t − w̄_k) (q-FedSGD: ΔW_k = ∇F_k(w^t)):
    Δ_k = F_k^q ΔW_k, h_k = q F_k^{q−1}‖ΔW_k‖² + L̂ F_k^q and w ← w − Σ_a a_a Δ_a / Σ_a a_a h_a
    over the uploads a with aggregation weights a_a (1/|S| as printed: the weights cancel).
:class:`TiltedAggregation` — federated TERM (Li, Beirami, Sanjabi & Smith 2021): the models are
    averaged with the tilted weights ω_a ∝ a_a e^{t F_a(w^t)} (normalised over the uploads,
    computed with the largest loss subtracted so that no exponential overflows).
:class:`MixtureAggregation` — stochastic AFL (Mohri, Sivek & Suresh 2019): with the mixture
    λ^t, w ← w − Σ_a f_a λ_{k_a}(w − w̄_{k_a}) and λ ← Π_Δ(λ + γ_λ ĝ_λ), ĝ_λ[k] = Σ_{a: k_a = k}
    f_a F_k(w^t), where f_a is the inverse inclusion probability of the upload (1 with full
    participation: the exact gradients), and the running sums of w^t and λ^t (the averaged
    iterates) by argument.
:class:`MinNormAggregation` — FedMGDA+ (Hu, Shaloudegi, Zhang & Yu 2020): ĝ_a = (w − w̄_a)/‖·‖,
    λ* = argmin{‖Σ_a λ_a ĝ_a‖² : λ ∈ Δ, ‖λ − λ_0‖_∞ ≤ ε} solved in the kernel
    (:func:`_min_norm_weights`), w ← w − η_g Σ_a λ*_a ĝ_a.
:class:`DittoLocal` — Ditto (Li, Hu, Beirami & Smith 2021): the client runs a global
    :class:`LocalSGD` (FedAvg's local work, uploaded) and a personal one, warm-started from its
    personal model v_k, with the proximal pull λ_D(v − w^t) (the core step's ``lam``); v_k lives
    in an array passed by argument.

**Per-upload arrays.** The server steps read, for upload slot a of row t of replicate r, the
aggregation weight ``slot_weights[r, t, a]`` (a_a) or the inverse inclusion probability
``factors[r, t, a]`` (f_a), built by the wrapper from the sampling scheme; the slot is the
client ``uploaders[a]`` (with p-sampling with replacement a client may fill several slots).

**Losses.** F_k(w^t) is the client's empirical risk at the broadcast model
(:func:`fedtheory.problems._oracle.client_loss`, n_k loss evaluations counted as
``function_queries``, one float up). It is evaluated in the server step for the uploading
clients, before the model moves: the same numbers the clients would report with their update.

**Logs by argument** (as the ffgb steps' diagnostics): every server step writes the round's
losses and weights into preallocated (R, rows, m) arrays the wrapper initialises with NaN
(clients that did not upload stay NaN; duplicated slots add their weights).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._buffers import _two_vectors
from fedtheory.algorithms._round_loop import client_state, client_update
from fedtheory.algorithms.client_steps import LocalSGD
from fedtheory.algorithms.trace import FLOATS_UP, FUNCTION_QUERIES
from fedtheory.problems._oracle import client_loss, client_samples, sample_count

__all__: list[str] = []

#: Solver diagnostics slots of :class:`MinNormAggregation` (per replicate).
SOLVER_RESIDUAL = 0  # largest final KKT residual over the rounds
SOLVER_ITERATIONS = 1  # largest number of iterations
SOLVER_FAILURES = 2  # rounds whose residual stayed above the tolerance
SOLVER_SLOTS = 3


# ============================================================================== projections


@njit
def _project_capped_simplex(y: np.ndarray, lo: np.ndarray, hi: np.ndarray, out: np.ndarray) -> None:
    """out ← argmin ‖x − y‖ over {Σ x = 1, lo ≤ x ≤ hi} (needs Σ lo ≤ 1 ≤ Σ hi).

    The solution is x = clip(y − τ, lo, hi) with φ(τ) = Σ clip(y_i − τ, lo_i, hi_i) = 1; φ is
    continuous, non-increasing and linear between the breakpoints y_i − hi_i (coordinate i
    leaves its upper bound) and y_i − lo_i (it reaches its lower bound). The breakpoints are
    walked in increasing order until φ ≤ 1; on that segment the free set F is known and
    τ = (Σ_F y_i + Σ_{at hi} hi_i + Σ_{at lo} lo_i − 1)/|F| exactly (no bisection). The
    simplex is lo = 0, hi = 1.
    """
    n = y.shape[0]
    points = np.empty(2 * n)
    for i in range(n):
        points[i] = y[i] - hi[i]
        points[n + i] = y[i] - lo[i]
    order = np.argsort(points, kind="mergesort")
    fixed = 0.0
    for i in range(n):
        fixed += hi[i]
    free_sum = 0.0
    free = 0
    previous = -math.inf
    tau = points[order[2 * n - 1]]
    for s in range(2 * n):
        b = order[s]
        point = points[b]
        if fixed + free_sum - free * point <= 1.0:
            if free > 0:
                tau = (fixed + free_sum - 1.0) / free
                tau = min(max(tau, previous), point)
            else:
                tau = point
            break
        i = b if b < n else b - n
        if b < n:
            fixed -= hi[i]
            free_sum += y[i]
            free += 1
        else:
            fixed += lo[i]
            free_sum -= y[i]
            free -= 1
        previous = point
    for i in range(n):
        out[i] = min(max(y[i] - tau, lo[i]), hi[i])


@njit
def _project_simplex(y: np.ndarray, out: np.ndarray) -> None:
    """out ← the Euclidean projection of y onto the probability simplex."""
    n = y.shape[0]
    _project_capped_simplex(y, np.zeros(n), np.ones(n), out)


# ============================================================================== FedMGDA+'s QP


@njit
def _gram(directions: np.ndarray, count: int, gram: np.ndarray) -> None:
    """gram[:count, :count] ← the Gram matrix of the first ``count`` rows of ``directions``."""
    d = directions.shape[1]
    for a in range(count):
        for b in range(a, count):
            total = 0.0
            for k in range(d):
                total += directions[a, k] * directions[b, k]
            gram[a, b] = total
            gram[b, a] = total


@njit
def _qp_gradient(gram: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:
    """out ← ∇(xᵀGx) = 2Gx."""
    n = x.shape[0]
    for a in range(n):
        total = 0.0
        for b in range(n):
            total += gram[a, b] * x[b]
        out[a] = 2.0 * total


@njit
def _kkt_residual(
    gram: np.ndarray,
    x: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lipschitz: float,
    gradient: np.ndarray,
    trial: np.ndarray,
    projected: np.ndarray,
) -> float:
    """The gradient mapping L‖x − Π(x − ∇f(x)/L)‖_∞: zero exactly at the minimisers."""
    n = x.shape[0]
    _qp_gradient(gram, x, gradient)
    for a in range(n):
        trial[a] = x[a] - gradient[a] / lipschitz
    _project_capped_simplex(trial, lo, hi, projected)
    worst = 0.0
    for a in range(n):
        worst = max(worst, abs(x[a] - projected[a]))
    return lipschitz * worst


@njit
def _min_norm_weights(
    gram: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    start: np.ndarray,
    out: np.ndarray,
    tolerance: float,
    max_iterations: int,
) -> tuple[int, float]:
    """out ← argmin {xᵀGx : Σ x = 1, lo ≤ x ≤ hi}; returns (iterations, final KKT residual).

    Accelerated projected gradient (FISTA) with the exact projection
    :func:`_project_capped_simplex` and O'Donoghue–Candès gradient restarts, from the feasible
    ``start``, step 1/L with L = 2 min(tr G, max_a Σ_b |G_ab|) ≥ 2λ_max(G) (a safe bound), until
    the gradient mapping L‖x − Π(x − ∇f/L)‖_∞ is at most ``tolerance``. A quadratic over a
    polytope satisfies an error bound (Luo–Tseng), so the iteration converges linearly even when
    G is singular (the minimiser x may then not be unique; the minimal vector Σ x_a ĝ_a is).
    """
    n = start.shape[0]
    trace = 0.0
    rows = 0.0
    for a in range(n):
        trace += gram[a, a]
        total = 0.0
        for b in range(n):
            total += abs(gram[a, b])
        rows = max(rows, total)
    lipschitz = 2.0 * min(trace, rows)
    for a in range(n):
        out[a] = start[a]
    if lipschitz == 0.0:
        return 0, 0.0
    gradient = np.empty(n)
    trial = np.empty(n)
    projected = np.empty(n)
    y = start.copy()
    previous = start.copy()
    theta = 1.0
    residual = _kkt_residual(gram, out, lo, hi, lipschitz, gradient, trial, projected)
    iterations = 0
    while residual > tolerance and iterations < max_iterations:
        _qp_gradient(gram, y, gradient)
        for a in range(n):
            trial[a] = y[a] - gradient[a] / lipschitz
            previous[a] = out[a]
        _project_capped_simplex(trial, lo, hi, out)
        restart = 0.0
        for a in range(n):
            restart += (y[a] - out[a]) * (out[a] - previous[a])
        if restart > 0.0:
            theta = 1.0
            for a in range(n):
                y[a] = out[a]
        else:
            following = 0.5 * (1.0 + math.sqrt(1.0 + 4.0 * theta * theta))
            momentum = (theta - 1.0) / following
            theta = following
            for a in range(n):
                y[a] = out[a] + momentum * (out[a] - previous[a])
        iterations += 1
        residual = _kkt_residual(gram, out, lo, hi, lipschitz, gradient, trial, projected)
    return iterations, residual


# ============================================================================== shared helpers


@njit
def _report_loss(problem: Any, r: int, k: int, w: np.ndarray, row: np.ndarray) -> float:
    """F_k(w) as client k reports it: n_k loss evaluations, one float up."""
    samples = client_samples(problem, r, k)
    row[FUNCTION_QUERIES] += sample_count(samples)
    row[FLOATS_UP] += 1
    value: float = client_loss(samples, w)
    return value


@njit
def _clear_log(log: np.ndarray, r: int, t: int, uploaders: np.ndarray) -> None:
    """Zero the log entries of the uploading clients (duplicated slots then add up)."""
    if log.shape[0] == 0:
        return
    for a in range(uploaders.shape[0]):
        log[r, t, uploaders[a]] = 0.0


# ============================================================================== q-FFL


@njit
def _qffl_update(
    rule: QFairAggregation,
    problem: Any,
    state: tuple[np.ndarray, np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """w ← w − Σ_a a_a Δ_a / Σ_a a_a h_a (see :class:`QFairAggregation`)."""
    total, delta = state
    d = wg.shape[0]
    sent = uploaders.shape[0]
    q = rule.q
    lipschitz = rule.lipschitz[t]
    for k in range(d):
        total[k] = 0.0
    denominator = 0.0
    _clear_log(rule.losses, r, t, uploaders)
    for a in range(sent):
        i = uploaders[a]
        loss = _report_loss(problem, r, i, wg, row)
        rule.losses[r, t, i] = loss
        if rule.gradient_upload:
            n = sample_count(client_samples(problem, r, i))
            for k in range(d):
                delta[k] = models[i, k] / n
        else:
            for k in range(d):
                delta[k] = lipschitz * (wg[k] - models[i, k])
        squared = 0.0
        for k in range(d):
            squared += delta[k] * delta[k]
        if q == 0.0:
            power = 1.0
            slope = 0.0
        else:
            power = loss**q
            slope = q * loss ** (q - 1.0) if squared > 0.0 else 0.0
        weight = rule.slot_weights[r, t, a]
        for k in range(d):
            total[k] += weight * power * delta[k]
        denominator += weight * (slope * squared + lipschitz * power)
    for k in range(d):
        wg[k] -= total[k] / denominator
    row[FLOATS_UP] += d * sent


class _QFairAggregationFields(NamedTuple):
    q: float
    lipschitz: np.ndarray
    gradient_upload: bool
    slot_weights: np.ndarray
    losses: np.ndarray


class QFairAggregation(_QFairAggregationFields):
    """The q-FFL server update (q-FedAvg; q-FedSGD with ``gradient_upload``).

    Attributes
    ----------
    q : float
        q ≥ 0 (q = 0: the aggregation-weighted mean of the uploads, FedAvg/FedSGD).
    lipschitz : numpy.ndarray
        ``(rows,)`` L̂_t = 1/η_t.
    gradient_upload : bool
        The uploads are gradient sums Σ_j ∇ℓ(w^t; z_kj) (q-FedSGD, divided by n_k here) instead
        of local models.
    slot_weights : numpy.ndarray
        ``(R, rows, m)`` aggregation weight of upload slot a.
    losses : numpy.ndarray
        ``(R, rows, m)`` log of the reported F_k(w^t) (NaN-initialised by the wrapper).
    """

    __slots__ = ()

    server_state = _two_vectors
    server_update = _qffl_update


# ============================================================================== TERM


@njit
def _tilted_state(
    rule: Any, problem: Any, r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A vector of length d and two per-slot buffers (losses, weights)."""
    return np.empty(d), np.empty(m), np.empty(m)


@njit
def _tilted_update(
    rule: TiltedAggregation,
    problem: Any,
    state: tuple[np.ndarray, np.ndarray, np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """w ← w − Σ_a ω_a (w − w̄_a), ω_a = a_a e^{t(F_a − max F)} / Σ_b a_b e^{t(F_b − max F)}."""
    total, losses, weights = state
    d = wg.shape[0]
    sent = uploaders.shape[0]
    largest = -math.inf
    for a in range(sent):
        losses[a] = _report_loss(problem, r, uploaders[a], wg, row)
        largest = max(largest, losses[a])
    for a in range(sent):
        weights[a] = rule.slot_weights[r, t, a] * math.exp(rule.tilt * (losses[a] - largest))
    # summed in a loop of its own, which stores nothing: summed in the loop above, LLVM guarded
    # its vectorised (reassociated) sum by a run-time check that the weights do not overlap the
    # losses, and the scalar fallback summed in another order; which of the two ran depended on
    # where the buffers were allocated, so the same seed gave results 1 ulp apart
    norm = 0.0
    for a in range(sent):
        norm += weights[a]
    _clear_log(rule.weights, r, t, uploaders)
    for k in range(d):
        total[k] = 0.0
    for a in range(sent):
        i = uploaders[a]
        omega = weights[a] / norm
        rule.losses[r, t, i] = losses[a]
        rule.weights[r, t, i] += omega
        for k in range(d):
            total[k] += omega * (wg[k] - models[i, k])
    for k in range(d):
        wg[k] -= total[k]
    row[FLOATS_UP] += d * sent


class _TiltedAggregationFields(NamedTuple):
    tilt: float
    slot_weights: np.ndarray
    losses: np.ndarray
    weights: np.ndarray


class TiltedAggregation(_TiltedAggregationFields):
    """The federated TERM server update: a tilted average of the uploaded models.

    Attributes
    ----------
    tilt : float
        t > 0 (t → 0: the aggregation-weighted mean; t → ∞: the worst client's model).
    slot_weights : numpy.ndarray
        ``(R, rows, m)`` aggregation weight a_a of upload slot a (the untilted weights).
    losses, weights : numpy.ndarray
        ``(R, rows, m)`` logs of the reported F_k(w^t) and of the tilted weights ω_k.
    """

    __slots__ = ()

    server_state = _tilted_state
    server_update = _tilted_update


# ============================================================================== AFL


@njit
def _mixture_state(
    rule: Any, problem: Any, r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A vector of length d and two per-client buffers (the λ-gradient, its projection)."""
    return np.empty(d), np.empty(m), np.empty(m)


@njit
def _mixture_update(
    rule: MixtureAggregation,
    problem: Any,
    state: tuple[np.ndarray, np.ndarray, np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """Add w^t, λ^t to the running sums; w ← w − Σ_a f_a λ_a(w − w̄_a); λ ← Π_Δ(λ + γ_t ĝ_λ)."""
    total, ascent, projected = state
    m, d = models.shape
    sent = uploaders.shape[0]
    mixture = rule.mixture[r]
    for k in range(d):
        rule.model_sum[r, k] += wg[k]
        total[k] = 0.0
    for i in range(m):
        rule.mixture_sum[r, i] += mixture[i]
        rule.mixtures[r, t, i] = mixture[i]
        ascent[i] = 0.0
    for a in range(sent):
        i = uploaders[a]
        loss = _report_loss(problem, r, i, wg, row)
        rule.losses[r, t, i] = loss
        factor = rule.factors[r, t, a]
        ascent[i] += factor * loss
        weight = factor * mixture[i]
        for k in range(d):
            total[k] += weight * (wg[k] - models[i, k])
    for k in range(d):
        wg[k] -= total[k]
    step = rule.mixture_steps[t]
    for i in range(m):
        ascent[i] = mixture[i] + step * ascent[i]
    _project_simplex(ascent, projected)
    for i in range(m):
        mixture[i] = projected[i]
    row[FLOATS_UP] += d * sent


class _MixtureAggregationFields(NamedTuple):
    factors: np.ndarray
    mixture_steps: np.ndarray
    mixture: np.ndarray
    model_sum: np.ndarray
    mixture_sum: np.ndarray
    mixtures: np.ndarray
    losses: np.ndarray


class MixtureAggregation(_MixtureAggregationFields):
    """The stochastic-AFL server update: a w-step with the mixture λ, projected ascent on λ.

    Attributes
    ----------
    factors : numpy.ndarray
        ``(R, rows, m)`` inverse inclusion probability f_a of upload slot a.
    mixture_steps : numpy.ndarray
        ``(rows,)`` γ_λ,t.
    mixture : numpy.ndarray
        ``(R, m)`` the current λ (initialised by the wrapper; λ^T after the run).
    model_sum, mixture_sum : numpy.ndarray
        ``(R, d)``, ``(R, m)`` running sums of w^t and λ^t, t = 0, …, T − 1 (zeros at the start).
    mixtures, losses : numpy.ndarray
        ``(R, rows, m)`` logs of λ^t and of the reported F_k(w^t).
    """

    __slots__ = ()

    server_state = _mixture_state
    server_update = _mixture_update


# ============================================================================== FedMGDA+


@njit
def _min_norm_state(rule: Any, problem: Any, r: int, m: int, d: int) -> tuple[np.ndarray, ...]:
    """Per-slot buffers: the normalised directions (m, d), their Gram matrix (m, m), and
    λ_0, the bounds and the solution (m each)."""
    return (
        np.empty((m, d)),
        np.empty((m, m)),
        np.empty(m),
        np.empty(m),
        np.empty(m),
        np.empty(m),
    )


@njit
def _min_norm_update(
    rule: MinNormAggregation,
    problem: Any,
    state: tuple[np.ndarray, ...],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """ĝ_a = (w − w̄_a)/‖w − w̄_a‖ (0 for a zero update), λ* from the QP, w ← w − η_g Σ λ*_a ĝ_a."""
    directions, gram, start, lo, hi, solution = state
    d = wg.shape[0]
    sent = uploaders.shape[0]
    norm = 0.0
    for a in range(sent):
        norm += rule.slot_weights[r, t, a]
    eps = rule.eps
    for a in range(sent):
        i = uploaders[a]
        size = 0.0
        for k in range(d):
            directions[a, k] = wg[k] - models[i, k]
            size += directions[a, k] * directions[a, k]
        size = math.sqrt(size)
        for k in range(d):
            directions[a, k] = directions[a, k] / size if size > 0.0 else 0.0
        start[a] = rule.slot_weights[r, t, a] / norm
        lo[a] = max(0.0, start[a] - eps)
        hi[a] = min(1.0, start[a] + eps)
    _gram(directions, sent, gram)
    iterations, residual = _min_norm_weights(
        gram[:sent, :sent],
        lo[:sent],
        hi[:sent],
        start[:sent],
        solution[:sent],
        rule.tolerance,
        rule.max_iterations,
    )
    diagnostics = rule.solver[r]
    diagnostics[SOLVER_RESIDUAL] = max(diagnostics[SOLVER_RESIDUAL], residual)
    diagnostics[SOLVER_ITERATIONS] = max(diagnostics[SOLVER_ITERATIONS], iterations)
    if not residual <= rule.tolerance:
        diagnostics[SOLVER_FAILURES] += 1.0
    _clear_log(rule.weights, r, t, uploaders)
    step = rule.global_steps[t]
    for a in range(sent):
        rule.weights[r, t, uploaders[a]] += solution[a]
        for k in range(d):
            wg[k] -= step * solution[a] * directions[a, k]
    row[FLOATS_UP] += d * sent


class _MinNormAggregationFields(NamedTuple):
    eps: float
    global_steps: np.ndarray
    slot_weights: np.ndarray
    tolerance: float
    max_iterations: int
    weights: np.ndarray
    solver: np.ndarray


class MinNormAggregation(_MinNormAggregationFields):
    """The FedMGDA+ server update: the min-norm combination of normalised updates near λ_0.

    Attributes
    ----------
    eps : float
        ε ∈ [0, 1]: ‖λ − λ_0‖_∞ ≤ ε (0: λ = λ_0, FedAvg on normalised updates; 1: MGDA).
    global_steps : numpy.ndarray
        ``(rows,)`` η_g,t.
    slot_weights : numpy.ndarray
        ``(R, rows, m)`` aggregation weights; λ_0 is their normalisation over the uploads.
    tolerance, max_iterations
        The QP's KKT tolerance and iteration cap (:func:`_min_norm_weights`).
    weights : numpy.ndarray
        ``(R, rows, m)`` log of λ*.
    solver : numpy.ndarray
        ``(R, SOLVER_SLOTS)`` largest residual, largest iteration count, failed rounds.
    """

    __slots__ = ()

    server_state = _min_norm_state
    server_update = _min_norm_update


# ============================================================================== Ditto


@njit
def _ditto_state(rule: DittoLocal, problem: Any, r: int, m: int, d: int) -> tuple[Any, Any]:
    """The states of the two local SGD steps (their own sample streams)."""
    return (
        client_state(rule.global_step, problem, r, m, d),
        client_state(rule.personal_step, problem, r, m, d),
    )


@njit
def _ditto_update(
    rule: DittoLocal,
    problem: Any,
    state: tuple[Any, Any],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    model: np.ndarray,
    row: np.ndarray,
) -> None:
    """FedAvg's local work into ``model`` (uploaded), then the personal steps on v_i, both
    anchored at the broadcast w^t."""
    global_state, personal_state = state
    client_update(rule.global_step, problem, global_state, r, t, i, server_model, model, row)
    client_update(
        rule.personal_step,
        problem,
        personal_state,
        r,
        t,
        i,
        server_model,
        rule.personal[r, i],
        row,
    )


class _DittoLocalFields(NamedTuple):
    global_step: LocalSGD
    personal_step: LocalSGD
    personal: np.ndarray


class DittoLocal(_DittoLocalFields):
    """Ditto's client work: two core local SGD steps, the second on the personal model.

    Attributes
    ----------
    global_step : LocalSGD
        FedAvg's local work from w^t (``warm_start=False``, ``lam=0``).
    personal_step : LocalSGD
        s steps of v ← v − η(ĝ(v) + λ_D(v − w^t)) (``warm_start=True``, ``lam=λ_D``,
        ``receives_server_model=False``: w^t is counted once), with its own stream seeds.
    personal : numpy.ndarray
        ``(R, m, d)`` the personal models v_k, updated in place.
    """

    __slots__ = ()

    client_state = _ditto_state
    client_update = _ditto_update
