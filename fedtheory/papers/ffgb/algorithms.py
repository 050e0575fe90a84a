"""FFGB, FFGB.C and FFGB.L: thin definitions over the core round loop (reading guide §2).

Shen, Hassani, Kale & Karbasi, *Federated Functional Gradient Boosting* [1]_ (the ``ffgb``
seed).
Each algorithm is a client step of :mod:`fedtheory.papers.ffgb.steps` composed with the core
round loop (:mod:`fedtheory.algorithms._round_loop`) and the core server step
:class:`~fedtheory.algorithms.server_steps.ModelAverage` (Algorithm 1's average of the sampled
clients' functions):

================  ========================================================  ==================
algorithm         client step                                               problem
================  ========================================================  ==================
:func:`ffgb`      :class:`~.steps.FunctionalBoosting`, no clipping          AtomPopulation
                  (Algorithm 2; residual reset / none / persistent)
:func:`ffgb_c`    :class:`~.steps.FunctionalBoosting` with the clip levels  AtomPopulation
                  G¹_γ, G²_γ (Algorithm 5, or 3 as printed)
:func:`ffgb_l`    :class:`~.steps.LipschitzBoosting` (Algorithm 4,          LipschitzData
                  corrected or as printed)
================  ========================================================  ==================

The wrappers validate the inputs, bind the oracle to the run (:mod:`~.oracles`), own the
randomness, run a batch of replicates in one kernel call, raise
:class:`~fedtheory.errors.ConditionError` when an oracle that asserts its γ violates its
condition on some call (naming the call and the measured ratio) and
:class:`~fedtheory.errors.DivergenceError` on non-finite iterates, and return an
:class:`FFGBRun`.

**Randomness** (as :func:`fedtheory.algorithms.federated.fedavg`): replicate r has the seed
``SeedSequence(seed, spawn_key=(r,))`` (the seed itself for a single run); its generator first
draws the random oracle's stream seed (one uint64), then, with partial participation, the
clients of every round: m of N uniformly without replacement (App. F), trained and averaged in
increasing order.

**Communication.** The trace counts what the atom representation sends: f^t (P·c floats) to
every participating client and its g^{K+1,t} back. The paper counts *models*: a client uploads
its K weak learners and downloads the other participants' (m − 1)K, i.e. m·K models per
participating client per round (N·K with full participation, Sec. 4.1) — which equals the
trace's ``local_steps`` of the round; :attr:`FFGBRun.models_per_client` reports it.

References
----------
.. [1] Z. Shen, H. Hassani, S. Kale & A. Karbasi, Federated functional gradient boosting,
   AISTATS 2022 (arXiv:2103.06972); Algorithms 1–5, Theorems 3.1–3.3, App. D–F.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real
from fedtheory._seeds import Seed, generator, replicate_seeds
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.server_steps import ModelAverage
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ConditionError, ParameterError
from fedtheory.papers.ffgb._norms import NORM_NAMES
from fedtheory.papers.ffgb.digits import DigitsFederation
from fedtheory.papers.ffgb.lipschitz import LipschitzData
from fedtheory.papers.ffgb.oracles import _kernel_form, oracle_gamma
from fedtheory.papers.ffgb.populations import AtomPopulation
from fedtheory.papers.ffgb.runs import BoostingDiagnostics, FFGBRun, RoundLog
from fedtheory.papers.ffgb.steps import (
    FIRST_VIOLATION_CALL,
    FIRST_VIOLATION_RATIO,
    LIPSCHITZ_RATIO_TOLERANCE,
    RATIO_TOLERANCE,
    RESIDUAL_MODES,
    FunctionalBoosting,
    LipschitzBoosting,
    initial_diagnostics,
)

__all__ = ["ffgb", "ffgb_c", "ffgb_l"]

_EQUATIONS = {"l2": "(9)", "sup": "(13)", "lip": "(19)–(20)"}


# ============================================================================== shared checks


def _check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ParameterError(
            parameter=name, value=value, rule=f"must be one of {', '.join(map(repr, choices))}"
        )
    return str(value)


def _check_oracle(oracle: Any, norm: str, algorithm: str) -> None:
    if not callable(getattr(type(oracle), "weak_learner", None)):
        raise ParameterError(
            parameter="oracle",
            value=type(oracle).__name__,
            rule="must be a weak-learner oracle (a NamedTuple whose class names the kernel "
            "'weak_learner'; see fedtheory.papers.ffgb.oracles)",
        )
    if oracle_gamma(oracle) is not None and NORM_NAMES[oracle.norm] != norm:
        raise ParameterError(
            parameter="oracle",
            value=_describe(oracle),
            rule=f"{algorithm} needs an oracle in the '{norm}' norm {_EQUATIONS[norm]}: build "
            f"it with norm='{norm}'",
        )


def _describe(oracle: Any) -> str:
    describe = getattr(oracle, "describe", None)
    return str(describe()) if callable(describe) else type(oracle).__name__


def _check_replicates(replicates: Any) -> int | None:
    if replicates is None:
        return None
    return check_int("replicates", replicates, minimum=1)


def _check_clients_per_round(value: Any, n: int) -> int:
    if value is None:
        return n
    value = check_int("clients_per_round", value, minimum=1)
    if value > n:
        raise ParameterError(
            parameter="clients_per_round", value=value, rule=f"must be at most N = {n}"
        )
    return int(value)


def _check_log_round(value: Any, rounds: int) -> int:
    if value is None:
        return -1
    value = check_int("log_round", value, minimum=0)
    if value >= rounds:
        raise ParameterError(parameter="log_round", value=value, rule=f"must be below T = {rounds}")
    return int(value)


def _randomness(
    seed: Any, replicates: int | None, n: int, rounds: int, per_round: int
) -> tuple[np.ndarray, np.ndarray]:
    """One uint64 stream seed per replicate, then its participation masks (R, T, N)."""
    seeds_r = [seed] if replicates is None else replicate_seeds(seed, replicates)
    reps = len(seeds_r)
    streams = np.empty(reps, dtype=np.uint64)
    masks = np.zeros((reps, rounds, n), dtype=np.bool_)
    for r, seed_r in enumerate(seeds_r):
        rng = generator(seed_r)
        streams[r] = rng.integers(0, 2**64, dtype=np.uint64)
        if per_round == n:
            masks[r] = True
            continue
        for t in range(rounds):
            masks[r, t, rng.choice(n, size=per_round, replace=False)] = True
    return streams, masks


def _bind(oracle: Any, *, dimension: int, points: Any, target: Any, seeds: np.ndarray) -> Any:
    bind = getattr(oracle, "bind", None)
    if not callable(bind):
        return oracle
    return bind(dimension=dimension, points=points, target=target, seeds=seeds)


def _log_arrays(reps: int, n: int, K: int, d: int, log_round: int) -> tuple[np.ndarray, ...]:
    if log_round < 0:
        empty = np.zeros((0, 0, 0, 0))
        return empty, empty, empty, empty
    return tuple(np.full((reps, n, K + 1, d), np.nan) for _ in range(4))


@dataclass(frozen=True)
class _LoopOutput:
    server: np.ndarray
    counts: np.ndarray
    iterates: np.ndarray | None


def _run_loop(
    algorithm: str,
    view: Any,
    step: Any,
    masks: np.ndarray,
    init: np.ndarray,
    n: int,
    record: bool,
    oracle: Any,
    check: bool,
) -> _LoopOutput:
    """Run the round loop with ``step`` and :class:`ModelAverage`; raise on a violated oracle
    condition, then on divergence."""
    reps, rounds, _ = masks.shape
    order = np.argsort(~masks, axis=-1, kind="stable").astype(np.int64)
    counts = masks.sum(axis=-1).astype(np.int64)
    d = init.shape[-1]
    init_server = np.ascontiguousarray(np.broadcast_to(init, (reps, d)))
    init_local = np.ascontiguousarray(np.broadcast_to(init, (reps, n, d)))
    with np.errstate(all="ignore"):
        server, _, tally, sizes, server_its, _ = _round_loop(
            view,
            step,
            ModelAverage(),
            order,
            counts,
            order,
            counts,
            np.ones(rounds, dtype=np.bool_),
            kernel_array(init_server),
            kernel_array(init_local),
            bool(record),
        )
    worst = sizes.max(axis=0)
    finite = np.isfinite(sizes)
    diverged = np.where(finite.all(axis=1), rounds, np.argmin(finite, axis=1))
    if check and oracle_gamma(oracle) is not None:
        _raise_violation(algorithm, oracle, step.diagnostics, diverged)
    if not np.all(np.isfinite(worst)):
        bad = int(np.argmax(~np.isfinite(worst)))
        replicate = int(np.argmax(~np.isfinite(sizes[:, bad])))
        where = f"replicate {replicate}; " if reps > 1 else ""
        check_finite_trace(
            algorithm,
            (worst,),
            hint=f"{where}the functions are not finite (is the oracle or the step unstable?)",
        )
    return _LoopOutput(server, tally, server_its if record else None)


def _raise_violation(
    algorithm: str, oracle: Any, diagnostics: np.ndarray, diverged: np.ndarray
) -> None:
    """ConditionError at the first violating call of the first replicate that has one, unless
    the iterates were already non-finite then (a ratio of non-finite queries is no evidence:
    the run's DivergenceError is raised instead). ``diverged``: per replicate, the first row
    whose models are not finite (T if none)."""
    gamma = float(oracle.gamma)
    for r in range(diagnostics.shape[0]):
        row = diagnostics[r]
        if row[FIRST_VIOLATION_CALL] < 0:
            continue
        t, i, k = (int(v) for v in row[FIRST_VIOLATION_CALL : FIRST_VIOLATION_CALL + 3])
        ratio = float(row[FIRST_VIOLATION_RATIO])
        if t > diverged[r] or (t == diverged[r] and not np.isfinite(ratio)):
            continue
        norm = NORM_NAMES[oracle.norm]
        values: dict[str, Any] = {"round": t, "client": i, "step": k}
        if diagnostics.shape[0] > 1:
            values = {"replicate": r, **values}
        values.update({"ratio": ratio, "1-gamma": 1.0 - gamma})
        raise ConditionError(
            f"{algorithm}: weak learner {_describe(oracle)}",
            f"‖h − φ‖ ≤ (1 − γ)‖φ‖ in the {norm} norm {_EQUATIONS[norm]}",
            values,
            note=(
                "checked on every call, relative tolerance "
                f"{LIPSCHITZ_RATIO_TOLERANCE if algorithm == 'ffgb_l' else RATIO_TOLERANCE:g}"
            ),
        )


def _finish(
    algorithm: str,
    output: _LoopOutput,
    step: Any,
    oracle: Any,
    replicates: int | None,
    shape: tuple[int, ...],
    function: np.ndarray,
    log_round: int,
    steps_of_round: np.ndarray | None,
    hyperparameters: dict[str, Any],
) -> FFGBRun:
    batched = replicates is not None

    def shaped(array: np.ndarray, lead: int) -> np.ndarray:
        out = array.reshape(*array.shape[:lead], *shape)
        return readonly(out if batched else out[0], None, copy=False)

    diagnostics = BoostingDiagnostics(
        oracle=_describe(oracle),
        gamma=oracle_gamma(oracle),
        values=readonly(step.diagnostics if batched else step.diagnostics[0]),
    )
    log = None
    if log_round >= 0:
        assert steps_of_round is not None
        K = steps_of_round.shape[0]
        gradients = getattr(step, "log_gradients", None)
        log = RoundLog(
            round=log_round,
            steps=readonly(steps_of_round),
            iterates=shaped(step.log_iterates, 3),
            learners=shaped(step.log_learners[:, :, :K], 3),
            residuals=shaped(step.log_residuals, 3),
            gradients=None if gradients is None else shaped(gradients[:, :, :K], 3),
        )
    counts = output.counts if batched else output.counts[0]
    return FFGBRun(
        algorithm=algorithm,
        function=shaped(function, 1),
        last_iterate=shaped(output.server, 1),
        iterates=None if output.iterates is None else shaped(output.iterates, 2),
        trace=Trace.from_counts(counts),
        diagnostics=diagnostics,
        log=log,
        hyperparameters=hyperparameters,
        replicates=replicates,
    )


def _population(population: Any) -> AtomPopulation:
    if not isinstance(population, AtomPopulation):
        raise ParameterError(
            parameter="population",
            value=type(population).__name__,
            rule="must be an AtomPopulation (fedtheory.papers.ffgb.populations)",
        )
    if population.mu <= 0.0:
        raise ParameterError(
            parameter="mu",
            value=population.mu,
            rule="FFGB and FFGB.C need μ > 0 (the population's regulariser; the step is "
            "η0/(μ(s + k0)))",
        )
    return population


@dataclass(frozen=True)
class _Functional:
    """What the boosting wrapper needs of a problem on atoms."""

    view: Any
    num_clients: int
    num_atoms: int
    shape: tuple[int, ...]
    mu: float
    target: np.ndarray | None
    family: str

    @property
    def dimension(self) -> int:
        return int(np.prod(self.shape))


def _functional(problem: Any, mu: Any) -> _Functional:
    """An AtomPopulation (μ its own) or the digits federation (μ given)."""
    if isinstance(problem, DigitsFederation):
        if mu is None:
            raise ParameterError(
                parameter="mu",
                value=None,
                rule="the digits federation has no regulariser of its own: give μ > 0",
            )
        mu = check_real("mu", mu, positive=True)
        return _Functional(
            view=problem.view(),
            num_clients=problem.clients,
            num_atoms=problem.atoms,
            shape=(problem.atoms, problem.classes),
            mu=mu,
            target=None,
            family=f"digits (s = {problem.s:g})",
        )
    population = _population(problem)
    if mu is not None:
        raise ParameterError(
            parameter="mu", value=mu, rule="an AtomPopulation carries its own μ (population.mu)"
        )
    return _Functional(
        view=population.kernel_view(),
        num_clients=population.num_clients,
        num_atoms=population.num_atoms,
        shape=population.function_shape,
        mu=float(population.mu),
        target=population.global_optimum(),
        family=population.family,
    )


def _init(init: Any, dimension: int, shape: tuple[int, ...]) -> np.ndarray:
    if init is None:
        return np.zeros(dimension)
    array = np.asarray(init, dtype=np.float64)
    if array.shape not in (shape, (dimension,)) or not np.all(np.isfinite(array)):
        raise ParameterError(
            parameter="init",
            value=f"array of shape {array.shape}",
            rule=f"must be a finite function of shape {shape}",
        )
    return np.ascontiguousarray(array.reshape(dimension))


def _boosting(
    algorithm: str,
    population: _Functional,
    oracle: Any,
    *,
    norm: str,
    rounds: Any,
    local_steps: Any,
    residual: str,
    eta0: Any,
    k0: Any,
    clip_learner: float,
    clip_residual: float,
    start_radius: float,
    regularise: bool,
    projection: float,
    clients_per_round: Any,
    init: Any,
    replicates: Any,
    seed: Seed,
    record: Any,
    log_round: Any,
    check: Any,
    hyperparameters: dict[str, Any],
) -> FFGBRun:
    _check_oracle(oracle, norm, algorithm)
    rounds = check_int("rounds", rounds, minimum=1)
    K = check_int("local_steps", local_steps, minimum=1)
    residual = _check_choice("residual", residual, RESIDUAL_MODES)
    eta0 = check_real("eta0", eta0, positive=True)
    k0 = check_real("k0", k0, nonnegative=True)
    n, d = population.num_clients, population.dimension
    per_round = _check_clients_per_round(clients_per_round, n)
    reps = _check_replicates(replicates)
    log = _check_log_round(log_round, rounds)
    for name, flag in (("record", record), ("check", check)):
        if not isinstance(flag, bool | np.bool_):
            raise ParameterError(parameter=name, value=flag, rule="must be True or False")
    start = _init(init, d, population.shape)
    streams, masks = _randomness(seed, reps, n, rounds, per_round)
    bound = _bind(oracle, dimension=d, points=None, target=population.target, seeds=streams)
    gamma = oracle_gamma(bound)
    logs = _log_arrays(masks.shape[0], n, K, d, log)
    step = FunctionalBoosting(
        oracle=_kernel_form(bound),
        local_steps=K,
        mu=float(population.mu),
        eta0=eta0,
        k0=k0,
        residual=RESIDUAL_MODES.index(residual),
        regularise=bool(regularise),
        clip_learner=float(clip_learner),
        clip_residual=float(clip_residual),
        start_radius=float(start_radius),
        threshold=np.inf if gamma is None else 1.0 - gamma,
        diagnostics=initial_diagnostics(masks.shape[0]),
        log_round=log,
        log_iterates=logs[0],
        log_learners=logs[1],
        log_residuals=logs[2],
        log_gradients=logs[3],
    )
    output = _run_loop(
        algorithm, population.view, step, masks, start, n, bool(record), bound, check
    )
    function = output.server
    if projection < np.inf:
        values = output.server.reshape(*output.server.shape[:-1], population.num_atoms, -1)
        sizes = np.sqrt((values**2).sum(axis=-1, keepdims=True))
        factor = np.minimum(1.0, projection / np.where(sizes > 0, sizes, 1.0))
        function = (values * factor).reshape(output.server.shape)
    steps_of_round = None
    if log >= 0:
        steps_of_round = eta0 / (population.mu * (log * K + np.arange(1, K + 1) + k0))
    return _finish(
        algorithm,
        output,
        step,
        bound,
        reps,
        population.shape,
        function,
        log,
        steps_of_round,
        {
            **hyperparameters,
            "oracle": _describe(bound),
            "gamma": gamma,
            "rounds": rounds,
            "local_steps": K,
            "residual": residual,
            "eta0": eta0,
            "k0": k0,
            "mu": float(population.mu),
            "clients_per_round": per_round,
            "problem": population.family,
        },
    )


# ============================================================================== public API


def ffgb(
    population: AtomPopulation | DigitsFederation,
    oracle: Any,
    *,
    rounds: int,
    local_steps: int,
    residual: str = "reset",
    eta0: float = 2.0,
    k0: float = 1.0,
    mu: float | None = None,
    clients_per_round: int | None = None,
    init: np.ndarray | None = None,
    replicates: int | None = None,
    seed: Seed = 0,
    record: bool = False,
    log_round: int | None = None,
    check: bool = True,
) -> FFGBRun:
    """FFGB: Algorithms 1 and 2 (Theorem 3.1), on a finite-atom population or the digits.

    Every round, each sampled client runs K steps of restricted functional gradient descent
    with the error-feedback residual Δ — φ = Δ + ∇R_i[g], h = WO(φ), g ← g − η(h + μg),
    Δ ← φ − h — from the server's f^t, and the server averages the clients' g^{K+1,t}. Step
    η^{k,t} = η0/(μ(tK + k + k0)); Theorem 3.1: η0 = 2, k0 = 1 (the defaults).

    Parameters
    ----------
    population
        The problem: an :class:`~fedtheory.papers.ffgb.populations.AtomPopulation` (Theorem
        3.1 assumes α_i = α; any population runs) or the digits federation of the experiments
        (:func:`~fedtheory.papers.ffgb.digits.digits_federation`; softmax cross-entropy,
        functions are (P, 10) values on its train and test atoms).
    oracle
        A weak learner in the L²(α_i) norm (9), e.g. ``oracles.scale(0.5)``; learned oracles
        (no asserted γ) run too, their γ is measured.
    rounds, local_steps
        T ≥ 1 and K ≥ 1.
    residual
        ``"reset"`` (Algorithm 2: Δ = 0 at every round), ``"none"`` (the no-residual variant,
        Fig. 2a: φ = ∇R_i[g]) or ``"persistent"`` (Δ carried across rounds [ours, guide
        §6.2]).
    eta0, k0
        η0 > 0 and k0 ≥ 0.
    mu
        μ > 0 for the digits federation (the paper does not state it; η0 = 2 with μ = 0.2 is
        App. B's η0 = 10 on η0/(tK + k + 1)); an AtomPopulation carries its own.
    clients_per_round
        m in [1, N] sampled uniformly without replacement per round (App. F); default N.
    init
        f^0 (default 0); Theorem 3.1 uses ‖f^0‖_α ≤ 2G/(γμ).
    replicates
        R: run a batch of R replicates (different randomness, same problem) in one kernel call;
        outputs gain a leading axis. None: one run.
    seed
        Integer or SeedSequence (the random oracle and partial participation).
    record
        Keep f^0, …, f^T.
    log_round
        Log every client's g, h, Δ and ∇R_i[g] in this round.
    check
        Raise :class:`~fedtheory.errors.ConditionError` when the oracle violates its
        γ-condition on some call (False: only report it in the diagnostics).

    Returns
    -------
    FFGBRun

    Raises
    ------
    ParameterError
        On invalid input (μ ≤ 0, K < 1, T < 1, m out of range, an oracle in another norm, ...).
    ConditionError
        If an oracle that asserts γ violates (9) on some call (the message names the call and
        the measured ratio).
    DivergenceError
        If an iterate is not finite.

    Examples
    --------
    >>> from fedtheory.papers.ffgb import oracles, populations
    >>> pop = populations.semi_heterogeneous(num_atoms=5, num_clients=3, seed=0)
    >>> run = ffgb(pop, oracles.scale(1.0), rounds=400, local_steps=1)
    >>> bool(pop.error(run.function) < 1e-10)
    True
    """
    problem = _functional(population, mu)
    return _boosting(
        "ffgb",
        problem,
        oracle,
        norm="l2",
        rounds=rounds,
        local_steps=local_steps,
        residual=residual,
        eta0=eta0,
        k0=k0,
        clip_learner=np.inf,
        clip_residual=np.inf,
        start_radius=np.inf,
        regularise=True,
        projection=np.inf,
        clients_per_round=clients_per_round,
        init=init,
        replicates=replicates,
        seed=seed,
        record=record,
        log_round=log_round,
        check=check,
        hyperparameters={},
    )


def ffgb_c(
    population: AtomPopulation,
    oracle: Any,
    *,
    rounds: int,
    local_steps: int,
    B: float | None = None,
    gamma: float | None = None,
    variant: str = "corrected",
    eta0: float = 4.0,
    k0: float | None = None,
    residual: str = "reset",
    clients_per_round: int | None = None,
    init: np.ndarray | None = None,
    replicates: int | None = None,
    seed: Seed = 0,
    record: bool = False,
    log_round: int | None = None,
    check: bool = True,
) -> FFGBRun:
    """FFGB.C: Algorithm 5 (corrected, default) or Algorithm 3 as printed (Theorem 3.2/D.1).

    Client step: φ = Δ + ∇R_i[g] (the population's extension convention off supp α_i),
    h = WO^∞(φ), g ← g − η(Π_{G²_γ}(h) + μg), Δ ← Π_{G¹_γ}(φ − h), with G¹_γ = (1 − γ)G/γ and
    G²_γ = (2 − γ)G/γ; the server returns Π_B(f^T). ``variant="printed"`` runs Algorithm 3:
    the client starts from Π_B(f^t) and the step omits μg (the typo acknowledged in App. D).
    Step η^{k,t} = η0/(μ(tK + k + k0)): Theorem 3.2 prints η0 = 4, k0 = 1, which gives μη = 2
    at the first step and breaks Lemma D.2 (guide §6.8, check D1); the corrected default is
    k0 = 3 (``variant="printed"``: k0 = 1).

    Parameters
    ----------
    population, oracle
        The problem and a weak learner in the sup-on-support norm (13).
    B
        The radius of 𝒞 = B^∞(B); default the minimal admissible 2G/(μγ). Theorem D.1 needs
        B ≥ 2G/(μγ) (checked unless ``check=False``).
    gamma
        γ of the clip levels (default: the oracle's asserted γ; required for a learned
        oracle).
    variant
        ``"corrected"`` (Algorithm 5) or ``"printed"`` (Algorithm 3).
    eta0, k0
        η0 > 0 and k0 ≥ 0 (default 3 corrected, 1 printed).
    residual, clients_per_round, init, replicates, seed, record, log_round, check
        As in :func:`ffgb`.

    Returns
    -------
    FFGBRun
        ``function`` = Π_B(f^T); ``diagnostics.clips`` counts the clip activations on and off
        supp α_i (Lemma D.1: none on it).

    Raises
    ------
    ParameterError, ConditionError, DivergenceError
        As in :func:`ffgb`; ConditionError also when B < 2G/(μγ).
    """
    population = _population(population)
    variant = _check_choice("variant", variant, ("corrected", "printed"))
    asserted = oracle_gamma(oracle)
    if gamma is None:
        if asserted is None:
            raise ParameterError(
                parameter="gamma",
                value=None,
                rule="is needed for the clip levels when the oracle does not assert one",
            )
        gamma = asserted
    gamma = check_real("gamma", gamma, positive=True)
    if gamma > 1.0:
        raise ParameterError(parameter="gamma", value=gamma, rule="must be in (0, 1]")
    if not isinstance(check, bool | np.bool_):
        raise ParameterError(parameter="check", value=check, rule="must be True or False")
    G = population.G
    mu = float(population.mu)
    minimal = 2.0 * G / (mu * gamma)
    B = minimal if B is None else check_real("B", B, positive=True)
    if check and minimal * (1.0 - 1e-12) > B:
        raise ConditionError(
            "ffgb_c (Theorem D.1)",
            "B ≥ 2G/(μγ)",
            {"B": B, "G": G, "mu": mu, "gamma": gamma, "2G/(mu*gamma)": minimal},
            note="the clipped iterates must stay in B^∞(B)",
        )
    if k0 is None:
        k0 = 3.0 if variant == "corrected" else 1.0
    printed = variant == "printed"
    return _boosting(
        "ffgb_c",
        _functional(population, None),
        oracle,
        norm="sup",
        rounds=rounds,
        local_steps=local_steps,
        residual=residual,
        eta0=eta0,
        k0=k0,
        clip_learner=(2.0 - gamma) * G / gamma,
        clip_residual=(1.0 - gamma) * G / gamma,
        start_radius=B if printed else np.inf,
        regularise=not printed,
        projection=B,
        clients_per_round=clients_per_round,
        init=init,
        replicates=replicates,
        seed=seed,
        record=record,
        log_round=log_round,
        check=check,
        hyperparameters={"B": B, "variant": variant, "G": G, "clip_gamma": gamma},
    )


def ffgb_l(
    data: LipschitzData,
    oracle: Any,
    *,
    rounds: int,
    local_steps: int,
    query: str = "corrected",
    return_index: str = "corrected",
    eta0: float = 4.0,
    k0: float = 3.0,
    clients_per_round: int | None = None,
    init: np.ndarray | None = None,
    replicates: int | None = None,
    seed: Seed = 0,
    record: bool = False,
    log_round: int | None = None,
    lipschitz_diagnostics: bool = True,
    check: bool = True,
) -> FFGBRun:
    """FFGB.L: Algorithm 4 (Theorem 3.3), square loss, with the McShane extensions u_i.

    Client step: h = WO^lip(u_i − Δ), g ← g − η(g − h), Δ ← Δ − u_i + h, returning g^{K+1};
    η^{k,t} = η0/(tK + k + k0) (μ = 1). As printed, the query is WO(Δ − u_i) (the sign erratum,
    check D3: ``query="printed"``), the client returns g^K (``return_index="printed"``) and
    the step is 4/(tK + k + 1) (``k0=1``: η = 2 at the first step breaks Lipschitz
    feasibility, check D2); the corrected default is k0 = 3 (η ≤ 1).

    Parameters
    ----------
    data
        The clients' points and labels (:func:`~fedtheory.papers.ffgb.lipschitz.
        translated_supports`); functions are values on ``data.points``.
    oracle
        A weak learner in the Lipschitz pair norm (19)–(20) (``norm="lip"``; the run binds it
        to the points).
    query, return_index
        ``"corrected"`` or ``"printed"``.
    eta0, k0
        η0 > 0 and k0 ≥ 0.
    lipschitz_diagnostics
        Track the Lipschitz constants of the iterates, learners and residuals (O(P) per call
        in one dimension, O(P²) in two).
    clients_per_round, init, replicates, seed, record, log_round, check
        As in :func:`ffgb`.

    Returns
    -------
    FFGBRun
    """
    if not isinstance(data, LipschitzData):
        raise ParameterError(
            parameter="data",
            value=type(data).__name__,
            rule="must be a LipschitzData (fedtheory.papers.ffgb.lipschitz)",
        )
    _check_oracle(oracle, "lip", "ffgb_l")
    query = _check_choice("query", query, ("corrected", "printed"))
    return_index = _check_choice("return_index", return_index, ("corrected", "printed"))
    rounds = check_int("rounds", rounds, minimum=1)
    K = check_int("local_steps", local_steps, minimum=1)
    eta0 = check_real("eta0", eta0, positive=True)
    k0 = check_real("k0", k0, nonnegative=True)
    n, d = data.num_clients, data.num_points
    per_round = _check_clients_per_round(clients_per_round, n)
    reps = _check_replicates(replicates)
    log = _check_log_round(log_round, rounds)
    for name, flag in (
        ("record", record),
        ("check", check),
        ("lipschitz_diagnostics", lipschitz_diagnostics),
    ):
        if not isinstance(flag, bool | np.bool_):
            raise ParameterError(parameter=name, value=flag, rule="must be True or False")
    start = _init(init, d, (d,))
    streams, masks = _randomness(seed, reps, n, rounds, per_round)
    bound = _bind(oracle, dimension=d, points=data.points, target=data.optimum, seeds=streams)
    gamma = oracle_gamma(bound)
    logs = _log_arrays(masks.shape[0], n, K, d, log)
    step = LipschitzBoosting(
        oracle=_kernel_form(bound),
        local_steps=K,
        eta0=eta0,
        k0=k0,
        query_sign=1.0 if query == "corrected" else -1.0,
        return_previous=return_index == "printed",
        lipschitz=bool(lipschitz_diagnostics),
        threshold=np.inf if gamma is None else 1.0 - gamma,
        diagnostics=initial_diagnostics(masks.shape[0]),
        log_round=log,
        log_iterates=logs[0],
        log_learners=logs[1],
        log_residuals=logs[2],
    )
    output = _run_loop(
        "ffgb_l", data.kernel_view(), step, masks, start, n, bool(record), bound, check
    )
    steps_of_round = None
    if log >= 0:
        steps_of_round = eta0 / (log * K + np.arange(1, K + 1) + k0)
    return _finish(
        "ffgb_l",
        output,
        step,
        bound,
        reps,
        (d,),
        output.server,
        log,
        steps_of_round,
        {
            "oracle": _describe(bound),
            "gamma": gamma,
            "rounds": rounds,
            "local_steps": K,
            "query": query,
            "return_index": return_index,
            "eta0": eta0,
            "k0": k0,
            "clients_per_round": per_round,
            "data": data.description,
        },
    )
