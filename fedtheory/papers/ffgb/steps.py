"""The ffgb paper's client steps on the core round loop (reading guide §2; DESIGN §3).

Two client steps, each a :class:`typing.NamedTuple` subclass naming ``client_state`` and
``client_update`` (:mod:`fedtheory.algorithms._round_loop` states the contract); the server
step is the core :class:`~fedtheory.algorithms.server_steps.ModelAverage`, the plain average
f^{t+1} = (1/``|S^t|``) Σ_{i ∈ S^t} g_i^{K+1,t} of Algorithm 1. The model vector is a function on
the atoms, flat (P·c,).

:class:`FunctionalBoosting` — FFGB (Algorithm 2) and FFGB.C (Algorithms 3 and 5). Client i in
round t: g ← f^t (Algorithm 3 as printed: g ← Π_B(f^t)); Δ ← 0 (``residual="reset"``, the
paper), then for k = 1, …, K with s = tK + k and η = η0/(μ(s + k0)):

    φ = Δ + ∇R_i[g]           (``residual="none"``: φ = ∇R_i[g], the no-residual variant)
    h = WO(φ)
    g ← g − η(Π_{G²}(h) + μg)  (Algorithm 3 as printed: no μg; FFGB: no clipping)
    Δ ← Π_{G¹}(φ − h)          (FFGB: no clipping; ``"none"``: Δ stays 0)

``residual="persistent"`` [ours, guide §6.2] keeps each client's Δ across rounds (the state
holds one residual per client). Clipping is radial per atom; its activations are counted on
and off supp α_i (Lemma D.1: never on it).

:class:`LipschitzBoosting` — FFGB.L (Algorithm 4), μ = 1: g ← f^t, Δ ← 0; for k = 1, …, K with
η = η0/(tK + k + k0):

    h = WO(u_i − Δ)            (as printed: WO(Δ − u_i), the sign erratum of guide §6.7)
    g ← g − η(g − h)
    Δ ← Δ − u_i + h

and the client returns g^{K+1} (as printed: g^K, the iterate before the last update).

**What a step asks of the problem's kernel view** (the generic kernels below, the idiom of
:func:`fedtheory._jit.dispatch`): ``loss_gradient(view, i, g, out)`` writes ∇R_i[g] (flat)
with the extension convention off supp α_i (FFGB/FFGB.C); ``client_marginal(view, i)``
returns α_i (P,) (default: the view's field ``alpha``, row i); ``client_target(view, i)``
returns u_i (FFGB.L), and FFGB.L reads the view's fields ``pairs`` and ``pair_weights``
(:func:`fedtheory.papers.ffgb._norms.lipschitz_pairs`) for the Lipschitz diagnostics.

**Diagnostics by argument.** The round loop does not return a step's state, so each step
carries a preallocated float array ``diagnostics`` of shape (R, :data:`SLOTS`) that its update
fills (row r for replicate r; the wrapper initialises and reads it after the loop): the oracle's
worst ratio and the call (t, i, k) where it happened, the first call whose ratio exceeds
``threshold``·(1 + 1e-12) (1 − γ for an oracle that asserts γ; inf otherwise), the clip counts,
and for every logged quantity the largest value of its norms over all calls — the quantities
are :data:`QUANTITIES` (∇R_i[g], φ, h, the uploaded learner Π_{G²}(h), Δ, the local iterate g,
and the update direction ĥ = Π_{G²}(h) + μg, resp. g − h for FFGB.L) and the norms
:data:`NORMS` (L²(α_i), sup on supp α_i, sup over all atoms, and the Lipschitz constant over
the atoms' coordinates, FFGB.L only). A round's iterates can be logged the same way
(``log_round``; arrays (R, N, K + 1, P·c)): g^1..g^{K+1}, h^1..h^K, Δ^0..Δ^K and
∇R_i[g^1..g^K], the inputs of the telescoping identity (A3) and of Remark 3.1's one-shot form.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._jit import dispatch, njit
from fedtheory.algorithms.trace import FLOATS_DOWN, GRADIENT_CALLS, LOCAL_STEPS
from fedtheory.papers.ffgb._norms import _lipschitz
from fedtheory.papers.ffgb.oracles import weak_learner

__all__ = [
    "NORMS",
    "QUANTITIES",
    "RESIDUAL_MODES",
    "SLOTS",
    "FunctionalBoosting",
    "LipschitzBoosting",
    "client_marginal",
    "client_target",
    "loss_gradient",
]

#: Residual modes of :class:`FunctionalBoosting`: reset each round (Algorithm 2), none (the
#: no-residual variant of Fig. 2a), persistent across rounds [ours].
RESIDUAL_MODES: tuple[str, ...] = ("reset", "none", "persistent")
_RESET = 0
_NONE = 1
_PERSISTENT = 2

#: Quantities whose norms the diagnostics track, in slot order.
QUANTITIES: tuple[str, ...] = (
    "gradient",
    "query",
    "learner",
    "uploaded",
    "residual",
    "iterate",
    "direction",
)
#: Norms tracked per quantity: L²(α_i), sup on supp α_i, sup over all atoms, Lipschitz.
NORMS: tuple[str, ...] = ("l2", "sup", "sup_all", "lip")

_GRADIENT, _QUERY, _LEARNER, _UPLOADED, _RESIDUAL, _ITERATE, _DIRECTION = range(7)

# Diagnostics slots.
WORST_RATIO = 0
WORST_CALL = 1  # 1, 2, 3: t, i, k
FIRST_VIOLATION_RATIO = 4
FIRST_VIOLATION_CALL = 5  # 5, 6, 7: t, i, k
CLIP_LEARNER_ON = 8
CLIP_LEARNER_OFF = 9
CLIP_RESIDUAL_ON = 10
CLIP_RESIDUAL_OFF = 11
START_CLIPS = 12
NORM_BASE = 13
#: Number of diagnostics slots per replicate.
SLOTS = NORM_BASE + len(QUANTITIES) * len(NORMS)
#: Relative tolerance of the γ-condition in the L² and sup norms (guide §5: "to 1e-12").
RATIO_TOLERANCE = 1e-12
#: Relative tolerance of the γ-condition in the Lipschitz norm (19)–(20): the Lipschitz constant
#: is a largest difference quotient over pairs of atoms, whose rounding at close atoms reaches
#: ~1e-11 relative (the ``biased`` oracle sits on the boundary ‖h − φ‖ = (1 − γ)‖φ‖, and
#: ``scale(γ, norm="lip")`` with γ = 0.75 measured 1 − γ + 1e-11 at round 0), so 1e-12 raised on
#: exact oracles.
LIPSCHITZ_RATIO_TOLERANCE = 1e-9


def initial_diagnostics(replicates: int) -> np.ndarray:
    """A fresh diagnostics array: no call yet (locations −1, ratios −1), counts and norms 0."""
    out = np.zeros((replicates, SLOTS))
    out[:, WORST_RATIO] = -1.0
    out[:, WORST_CALL : WORST_CALL + 3] = -1.0
    out[:, FIRST_VIOLATION_RATIO] = np.nan
    out[:, FIRST_VIOLATION_CALL : FIRST_VIOLATION_CALL + 3] = -1.0
    return out


# ============================================================================== view kernels


@njit
def _alpha_row(view: Any, i: int) -> np.ndarray:
    row: np.ndarray = view.alpha[i]
    return row


loss_gradient = dispatch("loss_gradient", "i", "g", "out")
client_marginal = dispatch("client_marginal", "i", default=_alpha_row)
client_target = dispatch("client_target", "i")


# ============================================================================== bookkeeping


@njit
def _record_ratio(
    diagnostics: np.ndarray,
    ratio: float,
    threshold: float,
    tolerance: float,
    t: int,
    i: int,
    k: int,
) -> None:
    """Keep the worst ratio and its call, and the first call above the threshold (relative
    ``tolerance``)."""
    if ratio > diagnostics[WORST_RATIO]:
        diagnostics[WORST_RATIO] = ratio
        diagnostics[WORST_CALL] = t
        diagnostics[WORST_CALL + 1] = i
        diagnostics[WORST_CALL + 2] = k
    if ratio > threshold * (1.0 + tolerance) and diagnostics[FIRST_VIOLATION_CALL] < 0:
        diagnostics[FIRST_VIOLATION_RATIO] = ratio
        diagnostics[FIRST_VIOLATION_CALL] = t
        diagnostics[FIRST_VIOLATION_CALL + 1] = i
        diagnostics[FIRST_VIOLATION_CALL + 2] = k


@njit
def _track(diagnostics: np.ndarray, quantity: int, v: np.ndarray, weights: np.ndarray) -> None:
    """Raise the tracked L²(α_i), sup-on-support and sup-over-all norms of ``quantity``."""
    atoms = weights.shape[0]
    c = v.shape[0] // atoms
    l2 = 0.0
    sup = 0.0
    sup_all = 0.0
    for x in range(atoms):
        value = 0.0
        for j in range(x * c, x * c + c):
            value += v[j] * v[j]
        if weights[x] > 0.0:
            l2 += weights[x] * value
            sup = max(sup, value)
        sup_all = max(sup_all, value)
    base = NORM_BASE + quantity * len(NORMS)
    diagnostics[base] = max(diagnostics[base], math.sqrt(l2))
    diagnostics[base + 1] = max(diagnostics[base + 1], math.sqrt(sup))
    diagnostics[base + 2] = max(diagnostics[base + 2], math.sqrt(sup_all))


@njit
def _track_lipschitz(
    diagnostics: np.ndarray,
    quantity: int,
    v: np.ndarray,
    pairs: np.ndarray,
    pair_weights: np.ndarray,
    atoms: int,
) -> None:
    slot = NORM_BASE + quantity * len(NORMS) + 3
    diagnostics[slot] = max(diagnostics[slot], _lipschitz(v, pairs, pair_weights, atoms))


@njit
def _track_lipschitz_step(
    diagnostics: np.ndarray,
    vectors: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    pairs: np.ndarray,
    pair_weights: np.ndarray,
    atoms: int,
) -> None:
    """The Lipschitz constants of φ, h, g − h, Δ and g in one pass over the pairs."""
    query, learner, direction, delta, g = vectors
    c = g.shape[0] // atoms
    t0 = t1 = t2 = t3 = t4 = 0.0
    for p in range(pairs.shape[0]):
        x = pairs[p, 0] * c
        y = pairs[p, 1] * c
        s0 = s1 = s2 = s3 = s4 = 0.0
        for j in range(c):
            d0 = query[x + j] - query[y + j]
            d1 = learner[x + j] - learner[y + j]
            d2 = direction[x + j] - direction[y + j]
            d3 = delta[x + j] - delta[y + j]
            d4 = g[x + j] - g[y + j]
            s0 += d0 * d0
            s1 += d1 * d1
            s2 += d2 * d2
            s3 += d3 * d3
            s4 += d4 * d4
        weight = pair_weights[p]
        # a zero difference adds nothing (and 0·inf at coincident points would be NaN)
        t0 = max(t0, s0 * weight) if s0 > 0.0 else t0
        t1 = max(t1, s1 * weight) if s1 > 0.0 else t1
        t2 = max(t2, s2 * weight) if s2 > 0.0 else t2
        t3 = max(t3, s3 * weight) if s3 > 0.0 else t3
        t4 = max(t4, s4 * weight) if s4 > 0.0 else t4
    top = (t0, t1, t2, t3, t4)
    quantities = (_QUERY, _LEARNER, _DIRECTION, _RESIDUAL, _ITERATE)
    for index in range(5):
        slot = NORM_BASE + quantities[index] * len(NORMS) + 3
        diagnostics[slot] = max(diagnostics[slot], math.sqrt(top[index]))


@njit
def _clip(
    v: np.ndarray,
    level: float,
    weights: np.ndarray,
    diagnostics: np.ndarray,
    on_slot: int,
    off_slot: int,
) -> None:
    """Π_level radially at every atom, counting the atoms it changes on and off supp α_i."""
    atoms = weights.shape[0]
    c = v.shape[0] // atoms
    for x in range(atoms):
        value = 0.0
        for j in range(x * c, x * c + c):
            value += v[j] * v[j]
        size = math.sqrt(value)
        if size > level:
            factor = level / size
            for j in range(x * c, x * c + c):
                v[j] *= factor
            if weights[x] > 0.0:
                diagnostics[on_slot] += 1.0
            else:
                diagnostics[off_slot] += 1.0


@njit
def _copy(out: np.ndarray, v: np.ndarray) -> None:
    """out[:] = v, element by element (a slice assignment would compile numba's broadcasting
    and its shape-error formatting into every step)."""
    for j in range(v.shape[0]):
        out[j] = v[j]


@njit
def _support_size(weights: np.ndarray) -> int:
    count = 0
    for x in range(weights.shape[0]):
        if weights[x] > 0.0:
            count += 1
    return count


# ============================================================================== FFGB / FFGB.C


@njit
def _boosting_state(
    rule: FunctionalBoosting, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per replicate: one residual per client (carried across rounds only when persistent),
    and buffers for ∇R_i[g], φ, h and the update direction."""
    return np.zeros((m, d)), np.empty(d), np.empty(d), np.empty(d), np.empty(d)


@njit
def _boosting_update(
    rule: FunctionalBoosting,
    problem: tuple[Any, ...],
    state: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    g: np.ndarray,
    row: np.ndarray,
) -> None:
    """Client i's round t of FFGB / FFGB.C (see the module docstring)."""
    residuals, gradient, query, learner, direction = state
    delta = residuals[i]
    d = g.shape[0]
    weights = client_marginal(problem, i)
    diagnostics = rule.diagnostics[r]
    K = rule.local_steps
    for j in range(d):
        g[j] = server_model[j]
    row[FLOATS_DOWN] += d
    if rule.start_radius < math.inf:
        _clip(
            g, rule.start_radius, weights, diagnostics, np.int64(START_CLIPS), np.int64(START_CLIPS)
        )
    if rule.residual != _PERSISTENT:
        for j in range(d):
            delta[j] = 0.0
    logging = t == rule.log_round
    if logging:
        _copy(rule.log_residuals[r, i, 0], delta)
    # slots and quantities are passed as int64, not as literals: one specialisation of
    # _track and _clip for every call site
    _track(diagnostics, np.int64(_ITERATE), g, weights)
    for k in range(1, K + 1):
        eta = rule.eta0 / (rule.mu * (t * K + k + rule.k0))
        loss_gradient(problem, i, g, gradient)
        if rule.residual == _NONE:
            for j in range(d):
                query[j] = gradient[j]
        else:
            for j in range(d):
                query[j] = delta[j] + gradient[j]
        ratio = weak_learner(rule.oracle, r, t, i, k, query, weights, g, learner)
        _record_ratio(diagnostics, ratio, rule.threshold, RATIO_TOLERANCE, t, i, k)
        if logging:
            _copy(rule.log_iterates[r, i, k - 1], g)
            _copy(rule.log_learners[r, i, k - 1], learner)
            _copy(rule.log_gradients[r, i, k - 1], gradient)
        _track(diagnostics, np.int64(_GRADIENT), gradient, weights)
        _track(diagnostics, np.int64(_QUERY), query, weights)
        _track(diagnostics, np.int64(_LEARNER), learner, weights)
        for j in range(d):
            direction[j] = learner[j]
        if rule.clip_learner < math.inf:
            _clip(
                direction,
                rule.clip_learner,
                weights,
                diagnostics,
                np.int64(CLIP_LEARNER_ON),
                np.int64(CLIP_LEARNER_OFF),
            )
        _track(diagnostics, np.int64(_UPLOADED), direction, weights)
        if rule.regularise:
            for j in range(d):
                direction[j] += rule.mu * g[j]
        _track(diagnostics, np.int64(_DIRECTION), direction, weights)
        for j in range(d):
            g[j] -= eta * direction[j]
        if rule.residual != _NONE:
            for j in range(d):
                delta[j] = query[j] - learner[j]
            if rule.clip_residual < math.inf:
                _clip(
                    delta,
                    rule.clip_residual,
                    weights,
                    diagnostics,
                    np.int64(CLIP_RESIDUAL_ON),
                    np.int64(CLIP_RESIDUAL_OFF),
                )
        _track(diagnostics, np.int64(_RESIDUAL), delta, weights)
        _track(diagnostics, np.int64(_ITERATE), g, weights)
        if logging:
            _copy(rule.log_residuals[r, i, k], delta)
    if logging:
        _copy(rule.log_iterates[r, i, K], g)
    row[LOCAL_STEPS] += K
    row[GRADIENT_CALLS] += K * _support_size(weights)


class _BoostingFields(NamedTuple):
    oracle: Any
    local_steps: int
    mu: float
    eta0: float
    k0: float
    residual: int
    regularise: bool
    clip_learner: float
    clip_residual: float
    start_radius: float
    threshold: float
    diagnostics: np.ndarray
    log_round: int
    log_iterates: np.ndarray
    log_learners: np.ndarray
    log_residuals: np.ndarray
    log_gradients: np.ndarray


class FunctionalBoosting(_BoostingFields):
    """The client step of FFGB (Algorithm 2) and FFGB.C (Algorithms 3 and 5).

    Attributes
    ----------
    oracle : NamedTuple
        The weak learner (its class names the kernel ``weak_learner``).
    local_steps : int
        K ≥ 1.
    mu : float
        μ > 0 (regulariser and step size).
    eta0, k0 : float
        η^{k,t} = η0/(μ(tK + k + k0)) (Theorem 3.1: 2, 1; Theorem 3.2 as printed: 4, 1;
        corrected: 4, k0 ≥ 3).
    residual : int
        Index in :data:`RESIDUAL_MODES`.
    regularise : bool
        Add μg to the step (False only for Algorithm 3 as printed).
    clip_learner, clip_residual : float
        G²_γ and G¹_γ (inf: no clipping, FFGB).
    start_radius : float
        B when the client starts from Π_B(f^t) (Algorithm 3 as printed), inf otherwise.
    threshold : float
        1 − γ for an asserted oracle, inf for a measured one.
    diagnostics : numpy.ndarray
        ``(R, SLOTS)``, filled by the update (see the module docstring).
    log_round : int
        The round whose iterates are logged (−1: none).
    log_iterates, log_learners, log_residuals, log_gradients : numpy.ndarray
        ``(R, N, K + 1, P·c)`` (learners and gradients use the first K rows), or empty.
    """

    __slots__ = ()

    client_state = _boosting_state
    client_update = _boosting_update


# ============================================================================== FFGB.L


@njit
def _lipschitz_state(
    rule: LipschitzBoosting, problem: tuple[Any, ...], r: int, m: int, d: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per replicate: the residual, φ, h, the previous iterate and the direction g − h."""
    return np.empty(d), np.empty(d), np.empty(d), np.empty(d), np.empty(d)


@njit
def _lipschitz_update(
    rule: LipschitzBoosting,
    problem: Any,
    state: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    r: int,
    t: int,
    i: int,
    server_model: np.ndarray,
    g: np.ndarray,
    row: np.ndarray,
) -> None:
    """Client i's round t of FFGB.L (see the module docstring)."""
    delta, query, learner, previous, direction = state
    d = g.shape[0]
    weights = client_marginal(problem, i)
    target = client_target(problem, i)
    pairs = problem.pairs
    pair_weights = problem.pair_weights
    atoms = weights.shape[0]
    diagnostics = rule.diagnostics[r]
    K = rule.local_steps
    sign = rule.query_sign
    lipschitz = rule.lipschitz
    for j in range(d):
        g[j] = server_model[j]
        delta[j] = 0.0
    row[FLOATS_DOWN] += d
    logging = t == rule.log_round
    if logging:
        _copy(rule.log_residuals[r, i, 0], delta)
    _track(diagnostics, np.int64(_ITERATE), g, weights)
    if lipschitz:
        _track_lipschitz(diagnostics, _ITERATE, g, pairs, pair_weights, atoms)
    for k in range(1, K + 1):
        eta = rule.eta0 / (t * K + k + rule.k0)
        for j in range(d):
            query[j] = sign * (target[j] - delta[j])
        ratio = weak_learner(rule.oracle, r, t, i, k, query, weights, g, learner)
        _record_ratio(diagnostics, ratio, rule.threshold, LIPSCHITZ_RATIO_TOLERANCE, t, i, k)
        if logging:
            _copy(rule.log_iterates[r, i, k - 1], g)
            _copy(rule.log_learners[r, i, k - 1], learner)
        for j in range(d):
            previous[j] = g[j]
            direction[j] = g[j] - learner[j]
            g[j] -= eta * direction[j]
            delta[j] = delta[j] - target[j] + learner[j]
        _track(diagnostics, np.int64(_QUERY), query, weights)
        _track(diagnostics, np.int64(_LEARNER), learner, weights)
        _track(diagnostics, np.int64(_UPLOADED), learner, weights)
        _track(diagnostics, np.int64(_DIRECTION), direction, weights)
        _track(diagnostics, np.int64(_RESIDUAL), delta, weights)
        _track(diagnostics, np.int64(_ITERATE), g, weights)
        if lipschitz:
            _track_lipschitz_step(
                diagnostics, (query, learner, direction, delta, g), pairs, pair_weights, atoms
            )
        if logging:
            _copy(rule.log_residuals[r, i, k], delta)
    if logging:
        _copy(rule.log_iterates[r, i, K], g)
    if rule.return_previous:
        for j in range(d):
            g[j] = previous[j]
    row[LOCAL_STEPS] += K
    row[GRADIENT_CALLS] += K * _support_size(weights)


class _LipschitzFields(NamedTuple):
    oracle: Any
    local_steps: int
    eta0: float
    k0: float
    query_sign: float
    return_previous: bool
    lipschitz: bool
    threshold: float
    diagnostics: np.ndarray
    log_round: int
    log_iterates: np.ndarray
    log_learners: np.ndarray
    log_residuals: np.ndarray


class LipschitzBoosting(_LipschitzFields):
    """The client step of FFGB.L (Algorithm 4).

    Attributes
    ----------
    oracle : NamedTuple
        The weak learner (a ``"lip"`` oracle for Theorem 3.3).
    local_steps : int
        K ≥ 1.
    eta0, k0 : float
        η^{k,t} = η0/(tK + k + k0) (μ = 1; as printed 4, 1; corrected k0 ≥ 3).
    query_sign : float
        +1: WO(u_i − Δ) (corrected); −1: WO(Δ − u_i) (as printed).
    return_previous : bool
        Return g^K (as printed) instead of g^{K+1}.
    lipschitz : bool
        Track the Lipschitz constants (O(P) per quantity in 1-D, O(P²) otherwise).
    threshold, diagnostics, log_round, log_iterates, log_learners, log_residuals
        As in :class:`FunctionalBoosting` (no gradient log).
    """

    __slots__ = ()

    client_state = _lipschitz_state
    client_update = _lipschitz_update
