"""Algorithm 1 of the fzoos paper as steps of the core round loop (guide §2.1, §2.7; DESIGN §3).

One row of the loop is one round r (row index r − 1). Every client i runs T local steps from the
broadcast x_{r−1} along the local direction (2),

    ĝ_{r,t−1}^{(i)} = g_{r,t−1}^{(i)} + γ_{r,t−1} · c_{r,t−1}^{(i)},

and the server averages the uploaded x_{r,T}^{(i)} (and, per method, the control variates or the
RFF weights). This module holds the pieces the FD baselines share with FZooS:

- :class:`FDSettings`: the local estimate g — the finite differences (3) (:mod:`.fd`) or, for the
  framework reductions of check 3, the exact ∇f_i (``exact``), with the query noise σ;
- :class:`Controls` and :class:`RunLog`: the shared arrays (the round loop's shared-array
  pattern) — SCAFFOLD's control variates and the logs every kernel writes;
- :class:`ZerothOrderStep`: the client step of FedZO, FedProx-ZO, SCAFFOLD I/II and the
  exact-gradient FZooS oracle;
- :class:`ZerothOrderServer`: the server step (averages; SCAFFOLD's c; FZooS's w; F(x_r) and
  ‖∇F(x_r)‖²);
- :func:`_apply_direction`: logs and the optimizer step, shared with the FZooS client step.

**Corrections c** (guide §2.1 table): FedZO none; FedProx-ZO x − x_{r−1} with γ = μ_prox (eq. (89),
anchor x_{r−1}); SCAFFOLD I c − c_i with c_i = Δ^{(i)}(x_{r−1}) computed at the round start (Q + 1
queries per client, one extra exchange; decision B4 and eq. (91)) and c their mean; SCAFFOLD II
c − c_i with c_i the mean of client i's T estimates of the previous round and c their mean, zero in
round 1 (eq. (93), B4); the FZooS *oracle* ∇F(z) − ∇f_i(z) at z = the current iterate (or z =
x_{r−1}, the "fixed vector" ablation), available from round 1 — the limit of the surrogate
correction with exact surrogates.

**SCAFFOLD I's exchange.** The round loop runs clients one after another, so c = mean_j c_j of
round r cannot be formed inside the clients' own updates. The server step computes every client's
c_j at x_{r−1} after aggregating round r − 1 (and before row 0 from x_0), from *that client's*
streams (key (client, round, call T)); the client step of round r counts those Q + 1 queries and
the d floats received, the server the d floats uploaded. The draws and counts are those of the
exchange "at the round start"; only the kernel that performs it differs.

**Optimizer** (guide §2.8, decision A3). Plain GD x ← x − ηĝ (the theory) or Adam (β₁, β₂, ε;
the experiments) whose moments and bias-correction counter are **reset for every client at every
round** (A3: Adam state is local to a round, never uploaded). ``clip`` projects onto [0, 1]^d after
each step (A5; the theory never projects).

**Logs** (arrays of the steps' :class:`RunLog`, shape (R_rep, R, N, T), entry [·, r − 1, i, t − 1]
for local step t of round r): Ξ = ‖ĝ − ∇F(x)‖², cos(ĝ, ∇F(x)), the drift ‖x_{r,t} − x_{r−1}‖²
(after the step), the local error ‖g − ∇f_i(x)‖² (FZooS: the GP error ‖∇μ − ∇f_i‖²), the
correction error ‖c − (∇F(x) − ∇f_i(x))‖², γ used, and Prop. 1's oracle γ* = (∇F − g)ᵀc/‖c‖² (NaN
when c = 0), with x = x_{r,t−1}^{(i)}; F(x_r) and ‖∇F(x_r)‖² for r = 0..R (R_rep, R + 1). ∇F and
∇f_i come from the problem's exact ``zo_gradient`` (not counted as queries); a problem without
exact gradients logs NaN. The first non-finite iterate is recorded as (round index, client, step)
in ``diverged``; the replicate then stops computing (its models stay NaN).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import njit
from fedtheory.algorithms._sampling import _client_key, _mix, _stream_key
from fedtheory.algorithms.trace import FLOATS_DOWN, FLOATS_UP, FUNCTION_QUERIES, LOCAL_STEPS
from fedtheory.papers.fzoos._oracle import global_gradient, global_value, zo_gradient
from fedtheory.papers.fzoos.fd import _fd_estimate

__all__ = ["METHODS", "Controls", "FDSettings", "RunLog", "ZerothOrderServer", "ZerothOrderStep"]

#: The methods of Algorithm 1 (guide §2.1): their codes are the positions.
METHODS: tuple[str, ...] = ("fedzo", "fedprox", "scaffold1", "scaffold2", "fzoos")
FEDZO, FEDPROX, SCAFFOLD1, SCAFFOLD2, FZOOS = range(5)


# ============================================================================== shared pieces


class _FDSettingsFields(NamedTuple):
    exact: bool
    gradients: bool
    queries: int
    smoothing: float
    noise: float
    shared_directions: bool
    seeds: np.ndarray


class FDSettings(_FDSettingsFields):
    """How a client estimates its local gradient g (guide §2.2) and what the problem offers.

    Attributes
    ----------
    exact : bool
        g = ∇f_i(x) exactly (check 3's reductions; no queries) instead of Δ^{(i)}(x).
    gradients : bool
        The problem has exact gradients (the logs of ∇F; False logs NaN).
    queries, smoothing, noise : int, float, float
        Q, λ and σ of (3) (σ is also the query noise of FZooS).
    shared_directions : bool
        One direction stream per replicate for every client, step and round (Prop. D.4).
    seeds : numpy.ndarray
        ``(R_rep,)`` uint64, the stream seed of every replicate.
    """

    __slots__ = ()


class _ControlsFields(NamedTuple):
    local: np.ndarray
    mean: np.ndarray
    pending: np.ndarray


class Controls(_ControlsFields):
    """SCAFFOLD's control variates, shared by the client and server steps (zero-size otherwise).

    Attributes
    ----------
    local : numpy.ndarray
        ``(R_rep, N, d)`` c_i of the running round.
    mean : numpy.ndarray
        ``(R_rep, d)`` c = mean_i c_i.
    pending : numpy.ndarray
        ``(R_rep, N, d)`` SCAFFOLD II: the running sum (1/T) Σ_τ Δ^{(i)}(x_{r,τ−1}^{(i)}) of the
        current round, moved to ``local`` by the server.
    """

    __slots__ = ()


class _RunLogFields(NamedTuple):
    disparity: np.ndarray
    cosine: np.ndarray
    drift: np.ndarray
    local_error: np.ndarray
    correction_error: np.ndarray
    gamma: np.ndarray
    gamma_oracle: np.ndarray
    values: np.ndarray
    grad_norm2: np.ndarray
    diverged: np.ndarray


class RunLog(_RunLogFields):
    """The arrays the kernels log into (see the module docstring for shapes and indices).

    ``diverged`` is ``(R_rep, 3)`` int64: (round index, client, step) of the first non-finite
    iterate, −1 while finite.
    """

    __slots__ = ()


@njit
def _call_keys(
    fd: FDSettings, rep: int, client: int, round_index: int, call: int
) -> tuple[np.uint64, np.uint64]:
    """The (directions, noise) stream keys of one call: (seed, client, round, call)."""
    key = _stream_key(_stream_key(_client_key(fd.seeds[rep], client), round_index), call)
    if fd.shared_directions:
        directions = _stream_key(_mix(fd.seeds[rep]), 0)
    else:
        directions = _stream_key(key, 0)
    return directions, _stream_key(key, 1)


@njit
def _dot(a: np.ndarray, b: np.ndarray) -> float:
    total = 0.0
    for k in range(a.shape[0]):
        total += a[k] * b[k]
    return total


@njit
def _log_direction(
    log: RunLog,
    rep: int,
    rt: int,
    i: int,
    s: int,
    gradients: bool,
    g: np.ndarray,
    correction: np.ndarray,
    gamma: float,
    g_hat: np.ndarray,
    grad_f: np.ndarray,
    grad_i: np.ndarray,
) -> None:
    """Ξ, cos, the local and correction errors, γ and γ* of one local step (module docstring)."""
    log.gamma[rep, rt, i, s] = gamma
    if not gradients:
        log.disparity[rep, rt, i, s] = math.nan
        log.cosine[rep, rt, i, s] = math.nan
        log.local_error[rep, rt, i, s] = math.nan
        log.correction_error[rep, rt, i, s] = math.nan
        log.gamma_oracle[rep, rt, i, s] = math.nan
        return
    xi = 0.0
    hat2 = 0.0
    f2 = 0.0
    cross = 0.0
    local = 0.0
    corr_err = 0.0
    corr2 = 0.0
    oracle = 0.0
    for k in range(g.shape[0]):
        e = g_hat[k] - grad_f[k]
        xi += e * e
        hat2 += g_hat[k] * g_hat[k]
        f2 += grad_f[k] * grad_f[k]
        cross += g_hat[k] * grad_f[k]
        e = g[k] - grad_i[k]
        local += e * e
        e = correction[k] - (grad_f[k] - grad_i[k])
        corr_err += e * e
        corr2 += correction[k] * correction[k]
        oracle += (grad_f[k] - g[k]) * correction[k]
    log.disparity[rep, rt, i, s] = xi
    log.cosine[rep, rt, i, s] = cross / math.sqrt(hat2 * f2) if hat2 * f2 > 0.0 else math.nan
    log.local_error[rep, rt, i, s] = local
    log.correction_error[rep, rt, i, s] = corr_err
    log.gamma_oracle[rep, rt, i, s] = oracle / corr2 if corr2 > 0.0 else math.nan


@njit
def _apply_direction(
    eta: float,
    adam: bool,
    beta1: float,
    beta2: float,
    epsilon: float,
    clip: bool,
    s: int,
    x: np.ndarray,
    g_hat: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
) -> bool:
    """x ← x − ηĝ (GD) or one Adam step (moments ``first``/``second``, bias correction with
    the round's step count s + 1), then the optional clip to [0, 1]^d; False if x is not finite."""
    d = x.shape[0]
    finite = True
    if adam:
        c1 = 1.0 - beta1 ** (s + 1)
        c2 = 1.0 - beta2 ** (s + 1)
        for k in range(d):
            first[k] = beta1 * first[k] + (1.0 - beta1) * g_hat[k]
            second[k] = beta2 * second[k] + (1.0 - beta2) * g_hat[k] * g_hat[k]
            x[k] -= eta * (first[k] / c1) / (math.sqrt(second[k] / c2) + epsilon)
    else:
        for k in range(d):
            x[k] -= eta * g_hat[k]
    for k in range(d):
        if clip:
            x[k] = min(max(x[k], 0.0), 1.0)
        if not math.isfinite(x[k]):
            finite = False
    return finite


@njit
def _diverge(log: RunLog, rep: int, rt: int, i: int, s: int, x: np.ndarray) -> None:
    """Record the first non-finite iterate and poison the model (the loop sees the NaN)."""
    if log.diverged[rep, 0] < 0:
        log.diverged[rep, 0] = rt
        log.diverged[rep, 1] = i
        log.diverged[rep, 2] = s
    for k in range(x.shape[0]):
        x[k] = math.nan


@njit
def _drift(x: np.ndarray, anchor: np.ndarray) -> float:
    total = 0.0
    for k in range(x.shape[0]):
        e = x[k] - anchor[k]
        total += e * e
    return total


# ============================================================================== client step


@njit
def _zo_state(
    rule: ZerothOrderStep, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per replicate: ten (d,) buffers (g, c, ĝ, ∇F, ∇f_i, scratch, u, point, Adam moments as
    rows of one array) and the anchor x_{r−1}."""
    return np.empty((10, d)), np.empty(d)


@njit
def _zo_update(
    rule: ZerothOrderStep,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray, np.ndarray],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    x: np.ndarray,
    row: np.ndarray,
) -> None:
    """Client i's round t + 1: T local steps along (2) from x_{r−1} (module docstring)."""
    buffers, anchor = state
    g, corr, g_hat, grad_f, grad_i = buffers[0], buffers[1], buffers[2], buffers[3], buffers[4]
    scratch, u, point, first, second = buffers[5], buffers[6], buffers[7], buffers[8], buffers[9]
    fd, log, controls = rule.fd, rule.log, rule.controls
    d = x.shape[0]
    m = log.disparity.shape[2]
    T = rule.local_steps
    method = rule.method
    if log.diverged[r, 0] >= 0:
        for k in range(d):
            x[k] = math.nan
        return
    for k in range(d):
        x[k] = server_model[k]
        anchor[k] = server_model[k]
        first[k] = 0.0
        second[k] = 0.0
    queries = 0
    for s in range(T):
        if fd.gradients:
            global_gradient(problem, m, x, grad_f, scratch)
            zo_gradient(problem, i, x, grad_i)
        if fd.exact:
            for k in range(d):
                g[k] = grad_i[k]
        else:
            directions, noise_key = _call_keys(fd, r, i, t, s)
            _fd_estimate(
                problem, i, x, fd.queries, fd.smoothing, fd.noise, directions, noise_key, g, u,
                point,
            )  # fmt: skip
            queries += fd.queries + 1
        if method == FEDPROX:
            for k in range(d):
                corr[k] = x[k] - anchor[k]
        elif method in (SCAFFOLD1, SCAFFOLD2):
            for k in range(d):
                corr[k] = controls.mean[r, k] - controls.local[r, i, k]
        elif method == FZOOS:  # the exact-gradient oracle of the surrogate correction
            if rule.anchored:
                global_gradient(problem, m, anchor, corr, scratch)
                zo_gradient(problem, i, anchor, point)
                for k in range(d):
                    corr[k] -= point[k]
            else:
                for k in range(d):
                    corr[k] = grad_f[k] - grad_i[k]
        else:
            for k in range(d):
                corr[k] = 0.0
        gamma = rule.gammas[t, s]
        for k in range(d):
            g_hat[k] = g[k] + gamma * corr[k]
        _log_direction(log, r, t, i, s, fd.gradients, g, corr, gamma, g_hat, grad_f, grad_i)
        if method == SCAFFOLD2:
            for k in range(d):
                controls.pending[r, i, k] += g[k] / T
        finite = _apply_direction(
            rule.eta, rule.adam, rule.beta1, rule.beta2, rule.epsilon, rule.clip, s, x, g_hat,
            first, second,
        )  # fmt: skip
        log.drift[r, t, i, s] = _drift(x, anchor)
        if not finite:
            _diverge(log, r, t, i, s, x)
            return
    row[LOCAL_STEPS] += T
    row[FLOATS_DOWN] += d
    if method == SCAFFOLD1:
        if not fd.exact:
            queries += fd.queries + 1
        row[FLOATS_DOWN] += d
    elif method == SCAFFOLD2 and t > 0:
        row[FLOATS_DOWN] += d
    row[FUNCTION_QUERIES] += queries


class _ZerothOrderStepFields(NamedTuple):
    method: int
    local_steps: int
    eta: float
    adam: bool
    beta1: float
    beta2: float
    epsilon: float
    clip: bool
    gammas: np.ndarray
    anchored: bool
    fd: FDSettings
    controls: Controls
    log: RunLog


class ZerothOrderStep(_ZerothOrderStepFields):
    """The client step of the FD baselines and the exact-gradient FZooS oracle (Algorithm 1).

    Attributes
    ----------
    method : int
        Index into :data:`METHODS` (not ``fzoos`` with a GP: that is the FZooS step).
    local_steps : int
        T.
    eta, adam, beta1, beta2, epsilon, clip
        The optimizer (module docstring).
    gammas : numpy.ndarray
        ``(R, T)`` γ_{r,t−1} (FedZO 0, FedProx μ_prox, SCAFFOLD 1, FZooS its rule).
    anchored : bool
        FZooS oracle: the correction at x_{r−1} (Fig. 6b's fixed vector) instead of x.
    fd : FDSettings
    controls : Controls
        The same object as the server step's.
    log : RunLog
        The same object as the server step's.
    """

    __slots__ = ()

    client_state = _zo_state
    client_update = _zo_update


# ============================================================================== server step


@njit(inline="always")
def _refresh_controls(
    fd: FDSettings,
    controls: Controls,
    call: int,
    problem: tuple[Any, ...],
    rep: int,
    round_index: int,
    x: np.ndarray,
    buffers: np.ndarray,
) -> None:
    """SCAFFOLD I: every client's c_i = Δ^{(i)}(x) for round ``round_index`` and c = mean c_i
    (the estimates use stream call ``call`` = T of the round)."""
    m, d = controls.local.shape[1], controls.local.shape[2]
    g, u, point = buffers[0], buffers[1], buffers[2]
    for k in range(d):
        controls.mean[rep, k] = 0.0
    for i in range(m):
        if fd.exact:
            zo_gradient(problem, i, x, g)
        else:
            directions, noise_key = _call_keys(fd, rep, i, round_index, call)
            _fd_estimate(
                problem, i, x, fd.queries, fd.smoothing, fd.noise, directions, noise_key, g, u,
                point,
            )  # fmt: skip
        for k in range(d):
            controls.local[rep, i, k] = g[k]
            controls.mean[rep, k] += g[k] / m


@njit(inline="always")
def _log_server(
    log: RunLog, gradients: bool, problem: tuple[Any, ...], rep: int, index: int, x: np.ndarray,
    buffers: np.ndarray,
) -> None:  # fmt: skip
    """F(x_r) and ‖∇F(x_r)‖² (NaN without exact ``gradients``) at log index ``index`` = r."""
    m = log.disparity.shape[2]
    log.values[rep, index] = global_value(problem, m, x)
    if gradients:
        global_gradient(problem, m, x, buffers[0], buffers[1])
        log.grad_norm2[rep, index] = _dot(buffers[0], buffers[0])
    else:
        log.grad_norm2[rep, index] = math.nan


@njit
def _server_state(
    rule: ZerothOrderServer, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray]:
    """Logs at x_0; SCAFFOLD I's controls of round 1; zero controls and weights."""
    buffers = np.empty((3, d))
    start = rule.init[r]
    first = np.int64(0)  # row 0 as an int64, not the literal 0 (one specialisation of callees)
    _log_server(rule.log, rule.fd.gradients, problem, r, first, start, buffers)
    controls = rule.controls
    if rule.method in (SCAFFOLD1, SCAFFOLD2):
        controls.local[r] = 0.0
        controls.mean[r] = 0.0
        controls.pending[r] = 0.0
    if rule.method == SCAFFOLD1:
        _refresh_controls(rule.fd, controls, rule.local_steps, problem, r, first, start, buffers)
    if rule.weights_mean.shape[1] > 0:
        rule.weights_local[r] = 0.0
        rule.weights_mean[r] = 0.0
    return (buffers,)


@njit
def _server_update(
    rule: ZerothOrderServer,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray],
    r: int,
    t: int,
    uploaders: np.ndarray,
    wg: np.ndarray,
    models: np.ndarray,
    row: np.ndarray,
) -> None:
    """x_r = mean of the uploads; SCAFFOLD's c; FZooS's w_r; the logs at x_r."""
    (buffers,) = state
    d = wg.shape[0]
    sent = uploaders.shape[0]
    for k in range(d):
        wg[k] = 0.0
    for a in range(sent):
        i = uploaders[a]
        for k in range(d):
            wg[k] += models[i, k]
    for k in range(d):
        wg[k] /= sent
    row[FLOATS_UP] += d * sent
    if rule.log.diverged[r, 0] >= 0:
        return
    controls = rule.controls
    rows = rule.log.values.shape[1] - 1
    if rule.method == SCAFFOLD2:
        for k in range(d):
            controls.mean[r, k] = 0.0
        for a in range(sent):
            i = uploaders[a]
            for k in range(d):
                controls.local[r, i, k] = controls.pending[r, i, k]
                controls.mean[r, k] += controls.pending[r, i, k] / sent
                controls.pending[r, i, k] = 0.0
        row[FLOATS_UP] += d * sent
    elif rule.method == SCAFFOLD1:
        row[FLOATS_UP] += d * sent  # the c_i this round started with
        if t + 1 < rows:
            _refresh_controls(rule.fd, controls, rule.local_steps, problem, r, t + 1, wg, buffers)
    features = rule.weights_mean.shape[1]
    if features > 0:
        for j in range(features):
            rule.weights_mean[r, j] = 0.0
        for a in range(sent):
            i = uploaders[a]
            for j in range(features):
                rule.weights_mean[r, j] += rule.weights_local[r, i, j] / sent
        row[FLOATS_UP] += features * sent
    _log_server(rule.log, rule.fd.gradients, problem, r, t + 1, wg, buffers)


class _ZerothOrderServerFields(NamedTuple):
    method: int
    local_steps: int
    init: np.ndarray
    fd: FDSettings
    controls: Controls
    weights_local: np.ndarray
    weights_mean: np.ndarray
    log: RunLog


class ZerothOrderServer(_ZerothOrderServerFields):
    """The server step of Algorithm 1 (guide §2.1, §2.6–§2.7).

    Attributes
    ----------
    method, local_steps : int
        As the client step's.
    init : numpy.ndarray
        ``(R_rep, d)`` x_0.
    fd : FDSettings
        The client step's (SCAFFOLD I's controls are Δ^{(i)}(x_{r−1}) from the clients' streams).
    controls : Controls
        The same object as the client step's.
    weights_local, weights_mean : numpy.ndarray
        FZooS: ``(R_rep, N, M)`` w_{r,T}^{(i)} written by the client step and ``(R_rep, M)`` their
        mean w_r (shared with the FZooS client step); M = 0 otherwise.
    log : RunLog
        The same object as the client step's.
    """

    __slots__ = ()

    server_state = _server_state
    server_update = _server_update
