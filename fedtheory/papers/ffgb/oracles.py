"""The exact weak-learner oracles of the ffgb paper's checks (reading guide §1, §2.4, §5).

A weak-learner oracle WO answers a query φ (a function on the atoms) with a function h close to
it: with constant γ ∈ (0, 1],

- (9) in L²(α_i): ‖h − φ‖_{α_i} ≤ (1 − γ)‖φ‖_{α_i} (FFGB, Algorithm 2), norm ``"l2"``;
- (13) in L∞(α_i): ‖h − φ‖_{α_i,∞} ≤ (1 − γ)‖φ‖_{α_i,∞}, a sup on supp α_i (FFGB.C), ``"sup"``;
- (19)–(20) with ‖h‖_lip ≤ ‖φ‖_lip: the sup condition and ‖h − φ‖_lip ≤ (1 − γ)‖φ‖_lip
  (FFGB.L), ``"lip"``.

The oracles here satisfy their condition *exactly* by construction, which makes the paper's
statements sharp tests (guide §3.8, §5):

==============  ===================================================  =========================
oracle          h                                                    norms
==============  ===================================================  =========================
``scale``       γφ                                                   l2, sup, lip
``biased``      φ − (1 − γ)‖φ‖·v/‖v‖, v a fixed direction            l2, sup; lip with v ≡ 1
                                                                     (the constant-bias oracle)
``topk``        φ on the atoms of largest α(x)‖φ(x)‖² (sup: ‖φ(x)‖)  l2, sup
                kept until the condition holds, 0 elsewhere
``random``      φ − (1 − γ)‖φ‖·ξ/‖ξ‖, ξ a fresh Gaussian direction   l2, sup
                per call (counter-based stream, below)
``adv``         φ − (1 − γ)‖φ‖·(g − f*)/‖g − f*‖                     l2, sup
==============  ===================================================  =========================

(‖·‖ is the oracle's norm on the client's α_i; off supp α_i the sup-norm conditions say
nothing, and ``topk`` answers 0 there.)

**The oracle interface** (shared with the learned weak learners of
:mod:`fedtheory.papers.ffgb.learners`): an oracle is a subclass of a :class:`typing.NamedTuple`
of its parameters that names its kernel ``weak_learner`` (the idiom of
:func:`fedtheory._jit.dispatch`)::

    _x_kernel(oracle, r, t, i, k, query, weights, g, out) -> float

with ``query``, ``g`` (the client's current iterate) and ``out`` flat (P·c,) vectors,
``weights`` the client's α_i over the atoms (P,), r the replicate, t the round, i the client
and k the local step (1-based). It writes h into ``out`` and returns the measured ratio
‖h − φ‖/‖φ‖ in its norm (for ``"lip"`` the largest of the three ratios of (19), (20) and
(1 − γ)‖h‖_lip/‖φ‖_lip, so that every condition reads "ratio ≤ 1 − γ"). The oracles here set
the class attribute ``asserts_gamma = True``: the algorithms assert ratio ≤ 1 − γ on every call
(relative tolerance 1e-12) and raise :class:`~fedtheory.errors.ConditionError` at the first
violation; a learned oracle does not set it, and its worst ratio is reported instead. Before a
run the algorithm calls ``oracle.bind(...)`` (when the class has it) to fill the run's data:
the atoms' coordinates (``lip``), f* (``adv``), a default direction (``biased``) and one stream
seed per replicate (``random``).

**Random directions.** ``random`` draws ξ from the SplitMix64 stream of
:mod:`fedtheory.algorithms._sampling` keyed by the call: key = mix(mix(mix(s_r + (t+1)γ₆₄) +
(i+1)γ₆₄) + (k+1)γ₆₄) with s_r the replicate's seed and γ₆₄ = 0x9E3779B97F4A7C15; its j-th
normal is Box–Muller on u₁ = mix(key + (2j+1)γ₆₄), u₂ = mix(key + (2j+2)γ₆₄) as 53-bit
uniforms, (u₁ + ½)/2^53 and u₂/2^53: ξ_j = √(−2 log a)·cos(2πb). A call's direction depends on
(seed, replicate, round, client, step) only, so runs are identical for any worker count and any
batching of replicates.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._checks import check_int, check_real
from fedtheory._jit import dispatch, njit
from fedtheory.algorithms._sampling import GAMMA, _mix
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb._norms import (
    NORM_L2,
    NORM_LIP,
    NORM_NAMES,
    _l2,
    _l2_distance,
    _measured_ratio,
    _norm,
    _quotient,
    _sup,
    _sup_distance,
    lipschitz_pairs,
)

__all__ = [
    "ORACLES",
    "AdversarialOracle",
    "BiasedOracle",
    "RandomOracle",
    "ScaleOracle",
    "TopKOracle",
    "adversarial",
    "biased",
    "oracle_gamma",
    "random_direction",
    "scale",
    "topk",
    "weak_learner",
]

#: The generic oracle call of the kernels: ``weak_learner(oracle, r, t, i, k, query, weights,
#: g, out) -> ratio`` runs ``type(oracle).weak_learner``.
weak_learner = dispatch("weak_learner", "r", "t", "i", "k", "query", "weights", "g", "out")

_NO_PAIRS = np.empty((0, 2), dtype=np.int64)
_NO_WEIGHTS = np.empty(0)


def _norm_code(norm: Any, valid: tuple[str, ...], oracle: str) -> int:
    if norm not in valid:
        raise ParameterError(
            parameter="norm",
            value=norm,
            rule=f"the {oracle} oracle is exact in the norms {', '.join(valid)} "
            "('l2': (9), 'sup': (13), 'lip': (19)–(20))",
        )
    return NORM_NAMES.index(norm)


def _check_gamma(gamma: Any) -> float:
    value = check_real("gamma", gamma, positive=True)
    if value > 1.0:
        raise ParameterError(parameter="gamma", value=value, rule="must be in (0, 1]")
    return value


@njit
def _simple_ratio(norm: int, query: np.ndarray, out: np.ndarray, weights: np.ndarray) -> float:
    """‖h − φ‖/‖φ‖ in L²(α) or the sup on supp α."""
    if norm == NORM_L2:
        return _quotient(_l2_distance(out, query, weights), _l2(query, weights))
    return _quotient(_sup_distance(out, query, weights), _sup(query, weights))


def _bound_points(points: Any, dimension: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The Lipschitz pairs of the atoms' coordinates (P, dim), their weights and P."""
    if points is None:
        raise ParameterError(
            parameter="points",
            value=None,
            rule="a Lipschitz ('lip') oracle needs the atoms' coordinates",
        )
    array = np.asarray(points, dtype=np.float64)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2 or array.shape[0] == 0 or dimension % array.shape[0]:
        raise ParameterError(
            parameter="points",
            value=f"array of shape {np.shape(points)}",
            rule=f"must have shape (P, dim) with P dividing the dimension {dimension}",
        )
    pairs, weights = lipschitz_pairs(array)
    return kernel_array(pairs, np.int64), kernel_array(weights), int(array.shape[0])


@njit
def _away_along(
    norm: int,
    gamma: float,
    query: np.ndarray,
    direction: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> None:
    """out = φ − (1 − γ)‖φ‖·v/‖v‖ in the norm on α_i (out = φ when ‖v‖ = 0); ``out`` may be
    ``direction`` itself."""
    size = _norm(norm, direction, weights)
    shift = 0.0
    if size > 0.0:
        shift = (1.0 - gamma) * _norm(norm, query, weights) / size
    for j in range(query.shape[0]):
        out[j] = query[j] - shift * direction[j]


# ============================================================================== scale


@njit
def _scale_kernel(
    oracle: ScaleOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = γφ."""
    return _scale_call(
        oracle.gamma, oracle.norm, oracle.pairs, oracle.pair_weights, query, weights, out
    )


@njit
def _scale_call(
    gamma: float,
    norm: int,
    pairs: np.ndarray,
    pair_weights: np.ndarray,
    query: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> float:
    for j in range(query.shape[0]):
        out[j] = gamma * query[j]
    return _measured_ratio(norm, gamma, query, out, weights, pairs, pair_weights)


class _ScaleFields(NamedTuple):
    gamma: float
    norm: int
    pairs: np.ndarray
    pair_weights: np.ndarray


class ScaleOracle(_ScaleFields):
    """h = γφ: exact in every norm of the paper (build it with :func:`scale`).

    Attributes
    ----------
    gamma : float
        γ ∈ (0, 1].
    norm : int
        Index in ``("l2", "sup", "lip")``.
    pairs, pair_weights : numpy.ndarray
        The atom pairs of the Lipschitz constant and 1/‖x − y‖² (``lip`` only; filled by
        :meth:`bind` from the atoms' coordinates).
    """

    __slots__ = ()

    weak_learner = _scale_kernel
    asserts_gamma = True
    kind = "scale"

    def bind(self, *, dimension: int, points: Any = None, **_: Any) -> ScaleOracle:
        """The oracle with the run's atoms filled in (for the Lipschitz norm)."""
        if self.norm != NORM_LIP:
            return self
        pairs, weights, _atoms = _bound_points(points, dimension)
        return self._replace(pairs=pairs, pair_weights=weights)

    def describe(self) -> str:
        """e.g. ``"scale(γ=0.5, l2)"``."""
        return f"{self.kind}(γ={self.gamma:g}, {NORM_NAMES[self.norm]})"


def scale(gamma: float, *, norm: str = "l2") -> ScaleOracle:
    """The scale oracle h = γφ (guide §5), exact in (9), (13) and (19)–(20).

    Examples
    --------
    >>> oracle = scale(0.5)
    >>> out = np.empty(2)
    >>> ratio = weak_learner(oracle, 0, 0, 0, 1, np.array([1.0, -2.0]), np.ones(2) / 2,
    ...                      np.zeros(2), out)
    >>> out.tolist(), ratio
    ([0.5, -1.0], 0.5)
    """
    gamma = _check_gamma(gamma)
    code = _norm_code(norm, ("l2", "sup", "lip"), "scale")
    return ScaleOracle(gamma, code, _NO_PAIRS, _NO_WEIGHTS)


# ============================================================================== biased


@njit
def _biased_kernel(
    oracle: BiasedOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = φ − (1 − γ)‖φ‖·v/‖v‖ in the oracle's norm on α_i."""
    return _biased_call(
        oracle.gamma,
        oracle.norm,
        oracle.direction,
        oracle.pairs,
        oracle.pair_weights,
        query,
        weights,
        out,
    )


@njit
def _biased_call(
    gamma: float,
    norm: int,
    direction: np.ndarray,
    pairs: np.ndarray,
    pair_weights: np.ndarray,
    query: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> float:
    _away_along(norm, gamma, query, direction, weights, out)
    return _measured_ratio(norm, gamma, query, out, weights, pairs, pair_weights)


class _BiasedFields(NamedTuple):
    gamma: float
    norm: int
    direction: np.ndarray
    pairs: np.ndarray
    pair_weights: np.ndarray
    direction_seed: int


class BiasedOracle(_BiasedFields):
    """h = φ − (1 − γ)‖φ‖·v/‖v‖ with a fixed direction v (build it with :func:`biased`).

    The bias is as large as the condition allows, always along v: ‖h − φ‖ = (1 − γ)‖φ‖
    exactly. With ``norm="lip"`` v is constant (the constant-bias oracle of guide §2.4:
    h − φ is constant, so (20) holds with Lipschitz constant 0 and ‖h‖_lip = ‖φ‖_lip).

    Attributes
    ----------
    gamma : float
    norm : int
    direction : numpy.ndarray
        v, flat (P·c,) (empty until :meth:`bind` when not given).
    pairs, pair_weights : numpy.ndarray
        ``lip`` only.
    direction_seed : int
        Seed of the default v (a standard Gaussian vector) for ``l2`` and ``sup``.
    """

    __slots__ = ()

    weak_learner = _biased_kernel
    asserts_gamma = True
    kind = "biased"

    def bind(self, *, dimension: int, points: Any = None, **_: Any) -> BiasedOracle:
        """The oracle with the default direction and (``lip``) the atoms filled in."""
        oracle = self
        if self.norm == NORM_LIP:
            pairs, weights, atoms = _bound_points(points, dimension)
            outputs = dimension // atoms
            unit = np.zeros(outputs)
            unit[0] = 1.0
            oracle = oracle._replace(pairs=pairs, pair_weights=weights)
            if self.direction.size == 0:
                oracle = oracle._replace(direction=kernel_array(np.tile(unit, atoms)))
            else:
                values = self.direction.reshape(atoms, outputs)
                if not np.all(values == values[0]):
                    raise ParameterError(
                        parameter="direction",
                        value="non-constant vector",
                        rule="the Lipschitz biased oracle needs a constant direction (else (20) "
                        "can fail)",
                    )
        elif self.direction.size == 0:
            rng = np.random.default_rng(self.direction_seed)
            oracle = oracle._replace(direction=kernel_array(rng.standard_normal(dimension)))
        if oracle.direction.shape != (dimension,):
            raise ParameterError(
                parameter="direction",
                value=f"array of shape {oracle.direction.shape}",
                rule=f"must have shape ({dimension},): one value per atom and output",
            )
        return oracle

    def describe(self) -> str:
        return f"{self.kind}(γ={self.gamma:g}, {NORM_NAMES[self.norm]})"


def biased(
    gamma: float, *, norm: str = "l2", direction: Any = None, direction_seed: int = 0
) -> BiasedOracle:
    """The biased oracle h = φ − (1 − γ)‖φ‖v (guide §5), v a fixed unit vector in the norm.

    Parameters
    ----------
    gamma
        γ ∈ (0, 1].
    norm
        ``"l2"``, ``"sup"`` or ``"lip"`` (constant v: the constant-bias sup oracle of §2.4).
    direction
        v, flat (P·c,); default: ``norm="lip"``: the constant e₁ at every atom; otherwise a
        standard Gaussian vector drawn from ``direction_seed`` when the run binds the oracle.
    direction_seed
        Seed of the default direction.
    """
    gamma = _check_gamma(gamma)
    code = _norm_code(norm, ("l2", "sup", "lip"), "biased")
    direction_seed = check_int("direction_seed", direction_seed, minimum=0)
    vector = np.empty(0)
    if direction is not None:
        vector = np.array(direction, dtype=np.float64).reshape(-1)
        if vector.size == 0 or not np.all(np.isfinite(vector)) or not np.any(vector):
            raise ParameterError(
                parameter="direction", value="vector", rule="must be finite and non-zero"
            )
    return BiasedOracle(gamma, code, kernel_array(vector), _NO_PAIRS, _NO_WEIGHTS, direction_seed)


# ============================================================================== top-k


@njit
def _topk_kernel(
    oracle: TopKOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = φ on the atoms of largest score (α(x)‖φ(x)‖² for l2, ‖φ(x)‖ for sup), kept in
    decreasing order until the rest satisfies the condition; 0 elsewhere.

    The l2 rest ‖φ − h‖²_α is the suffix sum of the sorted scores, accumulated from the smallest
    up, not the total minus the kept scores: that subtraction cancels to ≤ 0 while atoms of mass
    ~ulp(total) are still out, so at γ = 1 (condition "rest ≤ 0") it dropped them and the
    measured ratio came out ~√ulp ≈ 1e-8 instead of 0. Summed directly, the rest is 0 only when
    every atom of positive score is kept, and h = φ on supp α exactly.
    """
    return _topk_call(oracle.gamma, oracle.norm, query, weights, out)


@njit
def _topk_call(
    gamma: float, norm: int, query: np.ndarray, weights: np.ndarray, out: np.ndarray
) -> float:
    atoms = weights.shape[0]
    c = query.shape[0] // atoms
    scores = np.zeros(atoms)
    for x in range(atoms):
        if weights[x] > 0.0:
            value = 0.0
            for j in range(x * c, x * c + c):
                value += query[j] * query[j]
            scores[x] = weights[x] * value if norm == NORM_L2 else math.sqrt(value)
    for j in range(query.shape[0]):
        out[j] = 0.0
    order = np.argsort(-scores, kind="mergesort")
    top = scores[order[0]] if atoms > 0 else 0.0
    # rest[s] = Σ_{s' ≥ s} scores[order[s']], summed from the smallest score up
    rest = np.zeros(atoms + 1)
    for s in range(atoms - 1, -1, -1):
        rest[s] = rest[s + 1] + scores[order[s]]
    total = rest[0]
    slack = 1.0 - gamma
    for s in range(atoms):
        x = order[s]
        if scores[x] <= 0.0:
            break
        if norm == NORM_L2:
            if rest[s] <= slack * slack * total:
                break
        elif scores[x] <= slack * top:
            break
        for j in range(x * c, x * c + c):
            out[j] = query[j]
    return _simple_ratio(norm, query, out, weights)


class _TopKFields(NamedTuple):
    gamma: float
    norm: int


class TopKOracle(_TopKFields):
    """The sparse top-k oracle (build it with :func:`topk`): φ on the fewest atoms of largest
    score that satisfy the condition (ties broken by atom index), 0 elsewhere."""

    __slots__ = ()

    weak_learner = _topk_kernel
    asserts_gamma = True
    kind = "topk"

    def bind(self, **_: Any) -> TopKOracle:
        return self

    def describe(self) -> str:
        return f"{self.kind}(γ={self.gamma:g}, {NORM_NAMES[self.norm]})"


def topk(gamma: float, *, norm: str = "l2") -> TopKOracle:
    """The top-k oracle (guide §5): keep the largest α(x)φ(x)² entries until
    ‖φ − h‖ ≤ (1 − γ)‖φ‖ (``"sup"``: the atoms with ‖φ(x)‖ > (1 − γ)‖φ‖_{α,∞})."""
    gamma = _check_gamma(gamma)
    return TopKOracle(gamma, _norm_code(norm, ("l2", "sup"), "topk"))


# ============================================================================== random


@njit
def _call_key(seed: np.uint64, t: int, i: int, k: int) -> np.uint64:
    """The stream key of one oracle call (see the module docstring)."""
    key = _mix(seed + np.uint64(t + 1) * GAMMA)
    key = _mix(key + np.uint64(i + 1) * GAMMA)
    return _mix(key + np.uint64(k + 1) * GAMMA)


@njit
def _standard_normal(key: np.uint64, j: int) -> float:
    """The j-th standard normal of a call (Box–Muller on two 53-bit uniforms)."""
    first = _mix(key + np.uint64(2 * j + 1) * GAMMA)
    second = _mix(key + np.uint64(2 * j + 2) * GAMMA)
    a = (float(first >> np.uint64(11)) + 0.5) * 1.1102230246251565e-16
    b = float(second >> np.uint64(11)) * 1.1102230246251565e-16
    return math.sqrt(-2.0 * math.log(a)) * math.cos(2.0 * math.pi * b)


@njit
def _random_kernel(
    oracle: RandomOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = φ − (1 − γ)‖φ‖·ξ/‖ξ‖ with ξ the call's Gaussian direction."""
    return _random_call(oracle.gamma, oracle.norm, oracle.seeds[r], t, i, k, query, weights, out)


@njit
def _random_call(
    gamma: float,
    norm: int,
    seed: np.uint64,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    out: np.ndarray,
) -> float:
    key = _call_key(seed, t, i, k)
    for j in range(query.shape[0]):
        out[j] = _standard_normal(key, j)
    _away_along(norm, gamma, query, out, weights, out)
    return _simple_ratio(norm, query, out, weights)


class _RandomFields(NamedTuple):
    gamma: float
    norm: int
    seeds: np.ndarray


class RandomOracle(_RandomFields):
    """h = φ − (1 − γ)‖φ‖ξ with a fresh random unit direction ξ per call (build it with
    :func:`random_direction`); ``seeds`` (R,) uint64 are filled by the run."""

    __slots__ = ()

    weak_learner = _random_kernel
    asserts_gamma = True
    kind = "random"

    def bind(self, *, seeds: Any = None, **_: Any) -> RandomOracle:
        """The oracle with one stream seed per replicate."""
        if seeds is None:
            raise ParameterError(
                parameter="seeds", value=None, rule="the random oracle needs one seed per replicate"
            )
        return self._replace(seeds=kernel_array(seeds, np.uint64))

    def describe(self) -> str:
        return f"{self.kind}(γ={self.gamma:g}, {NORM_NAMES[self.norm]})"


def random_direction(gamma: float, *, norm: str = "l2") -> RandomOracle:
    """The random oracle (guide §5): h = φ − (1 − γ)‖φ‖ξ, ξ a fresh random unit vector (in the
    oracle's norm on α_i) from the call's counter-based stream."""
    gamma = _check_gamma(gamma)
    code = _norm_code(norm, ("l2", "sup"), "random")
    return RandomOracle(gamma, code, np.zeros(0, dtype=np.uint64))


# ============================================================================== adversarial


@njit
def _adversarial_kernel(
    oracle: AdversarialOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """h = φ − (1 − γ)‖φ‖·(g − f*)/‖g − f*‖ (h = φ when g = f* on supp α_i)."""
    return _adversarial_call(oracle.gamma, oracle.norm, oracle.target, query, weights, g, out)


@njit
def _adversarial_call(
    gamma: float,
    norm: int,
    target: np.ndarray,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    for j in range(query.shape[0]):
        out[j] = g[j] - target[j]
    _away_along(norm, gamma, query, out, weights, out)
    return _simple_ratio(norm, query, out, weights)


class _AdversarialFields(NamedTuple):
    gamma: float
    norm: int
    target: np.ndarray


class AdversarialOracle(_AdversarialFields):
    """h = φ − (1 − γ)‖φ‖(g − f*)/‖g − f*‖: the error pushes the iterate away from f* (build
    it with :func:`adversarial`); ``target`` = f* is filled by the run."""

    __slots__ = ()

    weak_learner = _adversarial_kernel
    asserts_gamma = True
    kind = "adv"

    def bind(self, *, dimension: int, target: Any = None, **_: Any) -> AdversarialOracle:
        """The oracle with f* filled in."""
        if target is None:
            raise ParameterError(
                parameter="target", value=None, rule="the adversarial oracle needs f*"
            )
        vector = kernel_array(np.asarray(target, dtype=np.float64).reshape(-1))
        if vector.shape != (dimension,):
            raise ParameterError(
                parameter="target",
                value=f"array of shape {vector.shape}",
                rule=f"must have {dimension} entries",
            )
        return self._replace(target=vector)

    def describe(self) -> str:
        return f"{self.kind}(γ={self.gamma:g}, {NORM_NAMES[self.norm]})"


def adversarial(gamma: float, *, norm: str = "l2") -> AdversarialOracle:
    """The adversarial oracle (guide §5): the oracle error along (g − f*)/‖g − f*‖."""
    gamma = _check_gamma(gamma)
    return AdversarialOracle(gamma, _norm_code(norm, ("l2", "sup"), "adv"), np.empty(0))


# ============================================================================== one kernel type

_SCALE, _BIASED, _TOPK, _RANDOM, _ADVERSARIAL = range(5)
_NO_VECTOR = np.empty(0)
_NO_SEEDS = np.zeros(0, dtype=np.uint64)


@njit
def _exact_kernel(
    oracle: _ExactOracle,
    r: int,
    t: int,
    i: int,
    k: int,
    query: np.ndarray,
    weights: np.ndarray,
    g: np.ndarray,
    out: np.ndarray,
) -> float:
    """The kernel of the oracle ``oracle.kind`` (the same calls as its own kernel)."""
    kind = oracle.kind
    if kind == _TOPK:
        return _topk_call(oracle.gamma, oracle.norm, query, weights, out)
    if kind == _SCALE:
        return _scale_call(
            oracle.gamma, oracle.norm, oracle.pairs, oracle.pair_weights, query, weights, out
        )
    if kind == _BIASED:
        return _biased_call(
            oracle.gamma,
            oracle.norm,
            oracle.direction,
            oracle.pairs,
            oracle.pair_weights,
            query,
            weights,
            out,
        )
    if kind == _RANDOM:
        return _random_call(
            oracle.gamma, oracle.norm, oracle.seeds[r], t, i, k, query, weights, out
        )
    return _adversarial_call(oracle.gamma, oracle.norm, oracle.target, query, weights, g, out)


class _ExactFields(NamedTuple):
    kind: int
    gamma: float
    norm: int
    direction: np.ndarray
    pairs: np.ndarray
    pair_weights: np.ndarray
    seeds: np.ndarray
    target: np.ndarray


class _ExactOracle(_ExactFields):
    """Any exact oracle of this module as one kernel type (built by :func:`_kernel_form`).

    The algorithms run a bound exact oracle in this form: the round loop is then compiled once
    for all five oracles rather than once for each (a client step holds its oracle, so every
    oracle type is a new specialisation of the loop, cold in ~5 s of CPU). The kernel branches
    on ``kind`` to the very calls of the oracle's own kernel; fields the kind does not use are
    empty arrays.
    """

    __slots__ = ()

    weak_learner = _exact_kernel


def _kernel_form(oracle: Any) -> Any:
    """A bound exact oracle as an :class:`_ExactOracle` (any other oracle unchanged)."""
    kind = type(oracle)
    if kind is ScaleOracle:
        code, direction, seeds, target = _SCALE, _NO_VECTOR, _NO_SEEDS, _NO_VECTOR
    elif kind is BiasedOracle:
        code, direction, seeds, target = _BIASED, oracle.direction, _NO_SEEDS, _NO_VECTOR
    elif kind is TopKOracle:
        code, direction, seeds, target = _TOPK, _NO_VECTOR, _NO_SEEDS, _NO_VECTOR
    elif kind is RandomOracle:
        code, direction, seeds, target = _RANDOM, _NO_VECTOR, oracle.seeds, _NO_VECTOR
    elif kind is AdversarialOracle:
        code, direction, seeds, target = _ADVERSARIAL, _NO_VECTOR, _NO_SEEDS, oracle.target
    else:
        return oracle
    pairs = getattr(oracle, "pairs", _NO_PAIRS)
    pair_weights = getattr(oracle, "pair_weights", _NO_WEIGHTS)
    return _ExactOracle(
        code,
        float(oracle.gamma),
        int(oracle.norm),
        kernel_array(direction),
        kernel_array(pairs, np.int64),
        kernel_array(pair_weights),
        kernel_array(seeds, np.uint64),
        kernel_array(target),
    )


#: The exact oracles by name (factories).
ORACLES = {
    "scale": scale,
    "biased": biased,
    "topk": topk,
    "random": random_direction,
    "adv": adversarial,
}


def oracle_gamma(oracle: Any) -> float | None:
    """The γ an oracle asserts (None for an oracle that only measures it)."""
    if getattr(type(oracle), "asserts_gamma", False):
        return float(oracle.gamma)
    return None
