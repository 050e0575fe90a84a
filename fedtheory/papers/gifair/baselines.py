"""The fairness baselines of the gifair paper on the core round loop (reading guide §2.5, §5 V18).

The paper compares GIFAIR-FL with q-FFL, TERM, AFL, Ditto and FedMGDA+ but does not define them;
these are the algorithms of their own papers [general knowledge, guide §2.5], each a client step
and a server step (:mod:`fedtheory.papers.gifair._baseline_steps`) on the one federated round
loop (:mod:`fedtheory.algorithms._round_loop`):

======================  ============================================  ===========================
algorithm               client step                                   server step
======================  ============================================  ===========================
:func:`qffl`            core ``LocalSGD`` (E steps from w^t)          ``QFairAggregation``
:func:`qfedsgd`         core ``FullGradientSum`` (∇F_k(w^t))          ``QFairAggregation``
:func:`term`            core ``LocalSGD``                             ``TiltedAggregation``
:func:`afl`             core ``LocalSGD`` (E = 1: one gradient step)  ``MixtureAggregation``
:func:`ditto`           ``DittoLocal`` (two core ``LocalSGD``)        core ``ServerStep`` /
                                                                      ``ModelAverage``
:func:`fedmgda_plus`    core ``LocalSGD``                             ``MinNormAggregation``
======================  ============================================  ===========================

**Conventions** (those of GIFAIR-FL-Global): ``rounds`` C, ``local_steps`` E (steps, not
epochs), ``step_size`` a constant η or a schedule η(t) of the global step t = cE + k (row c of
the core ``LocalSGD``'s 2-D steps), minibatches of ``batch`` rows drawn without replacement
from the client's counter-based stream; ``clients_per_round`` (None: all K) with ``sampling``
``"p_with_replacement"`` (⌈αK⌉ i.i.d. draws from p, each draw an upload: Li et al.'s scheme I)
or ``"uniform"`` (without replacement); ``aggregation`` ``"weighted"`` (the uploads weighted by
p_k, times K/|S| under uniform sampling: scheme II) or ``"uniform"`` (the plain mean of the
uploads; with p-sampling the mean is always uniform, the p being in the draws).

**Randomness.** Replicate r has the seed ``SeedSequence(seed, spawn_key=(r,))`` (the seed itself
for a single run); its generator draws the clients' stream seed (one uint64), then the
participation of every round, then (Ditto) the personal steps' stream seed. Every replicate
runs on the same problem; replicate r of a batch equals the single run with its seed.

**Which aggregation the limits give** [derived]: q-FFL at q = 0 is w − Σ a_a L̂(w − w̄_a)/
(L̂ Σ a_a) = Σ a_a w̄_a / Σ a_a — the mean of the uploads normalised by their aggregation
weights: the printed q-FFL (a_a = 1/|S|) is the *uniform* mean (FedAvg with ``"uniform"``
aggregation; with p-sampling exactly scheme I), and ``aggregation="weighted"`` with full
participation the p-weighted average (the core FedAvg). Under uniform sampling with
``"weighted"`` it is the self-normalised Σ_S p_k w̄_k / Σ_S p_k, not scheme II's
(K/|S|) Σ_S p_k w̄_k. TERM as t → 0 gives the same normalised mean.

References
----------
.. [1] T. Li, M. Sanjabi, A. Beirami & V. Smith, Fair resource allocation in federated
   learning, ICLR 2020 (q-FFL, q-FedAvg, q-FedSGD).
.. [2] T. Li, A. Beirami, M. Sanjabi & V. Smith, Tilted empirical risk minimization, ICLR 2021.
.. [3] M. Mohri, G. Sivek & A. T. Suresh, Agnostic federated learning, ICML 2019.
.. [4] T. Li, S. Hu, A. Beirami & V. Smith, Ditto: fair and robust federated learning through
   personalization, ICML 2021.
.. [5] Z. Hu, K. Shaloudegi, G. Zhang & Y. Yu, Federated learning meets multi-objective
   optimization (FedMGDA+), arXiv:2006.11489, 2020.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import (
    check_finite_trace,
    check_int,
    check_real,
    check_vector,
    check_weights,
)
from fedtheory._seeds import Seed, generator, replicate_seeds
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.client_steps import FullGradientSum, LocalSGD
from fedtheory.algorithms.server_steps import ModelAverage, ServerStep
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ConditionError, ParameterError, SolverError
from fedtheory.papers.gifair._baseline_steps import (
    SOLVER_FAILURES,
    SOLVER_ITERATIONS,
    SOLVER_RESIDUAL,
    SOLVER_SLOTS,
    DittoLocal,
    MinNormAggregation,
    MixtureAggregation,
    QFairAggregation,
    TiltedAggregation,
)
from fedtheory.papers.gifair._samples import SOFTMAX, QuadraticView, kernel_view
from fedtheory.problems._oracle import client_loss, client_samples, sample_count

__all__ = ["BaselineRun", "afl", "ditto", "fedmgda_plus", "qfedsgd", "qffl", "term"]

Aggregation = Literal["weighted", "uniform"]
Sampling = Literal["p_with_replacement", "uniform"]
StepSize = float | Callable[[np.ndarray], Any]


@dataclass(frozen=True, eq=False)
class BaselineRun:
    """Result of a baseline (:func:`qffl`, :func:`qfedsgd`, :func:`term`, :func:`afl`,
    :func:`ditto`, :func:`fedmgda_plus`).

    Arrays have a leading replicate axis for a batch (``replicates`` given).

    Attributes
    ----------
    algorithm : str
        ``"qffl"``, ``"qfedsgd"``, ``"term"``, ``"afl"``, ``"ditto"`` or ``"fedmgda_plus"``.
    global_model : numpy.ndarray
        w^C, shape (d,).
    local_models : numpy.ndarray
        The clients' last uploads, shape (K, d) (local end-of-round models; q-FedSGD: gradient
        sums); a client that never took part holds ``init``.
    personal_models : numpy.ndarray or None
        Ditto's v_k, shape (K, d) (a client never sampled keeps ``init``).
    averaged_model, averaged_mixture : numpy.ndarray or None
        AFL's outputs: the averages (1/C) Σ_{c<C} w^c and (1/C) Σ_{c<C} λ^c.
    trace : Trace
        One row per round; ``losses`` (``record=True``) is Σ_k p_k F_k(w^c) after each round.
    global_iterates, local_iterates : numpy.ndarray or None
        With ``record=True``: w^0, …, w^C (C + 1, d) and the uploads after each round.
    logs : dict[str, numpy.ndarray]
        Per round (C, K), NaN for clients without an upload: ``"losses"`` (the reported
        F_k(w^c); q-FFL, TERM, AFL), ``"weights"`` (TERM's tilted weights, FedMGDA+'s λ*),
        ``"mixtures"`` (AFL's λ^c); FedMGDA+ adds ``"solver"`` (largest KKT residual, largest
        iteration count, failed rounds).
    hyperparameters : dict[str, Any]
    replicates : int or None
    """

    algorithm: str
    global_model: np.ndarray
    local_models: np.ndarray
    personal_models: np.ndarray | None
    averaged_model: np.ndarray | None
    averaged_mixture: np.ndarray | None
    trace: Trace
    global_iterates: np.ndarray | None
    local_iterates: np.ndarray | None
    logs: dict[str, np.ndarray]
    hyperparameters: dict[str, Any]
    replicates: int | None = None

    @property
    def rounds(self) -> int:
        """C."""
        return self.trace.rows

    def replicate(self, index: int) -> BaselineRun:
        """The run of replicate ``index`` of a batch, as if it had been run alone."""
        if self.replicates is None:
            raise ParameterError(
                parameter="index", value=index, rule="this run holds a single replicate"
            )
        index = check_int("index", index, minimum=0)
        if index >= self.replicates:
            raise ParameterError(
                parameter="index", value=index, rule=f"must be below {self.replicates}"
            )

        def pick(array: np.ndarray | None) -> np.ndarray | None:
            return None if array is None else readonly(array[index], None)

        return replace(
            self,
            global_model=readonly(self.global_model[index]),
            local_models=readonly(self.local_models[index]),
            personal_models=pick(self.personal_models),
            averaged_model=pick(self.averaged_model),
            averaged_mixture=pick(self.averaged_mixture),
            trace=self.trace.replicate(index),
            global_iterates=pick(self.global_iterates),
            local_iterates=pick(self.local_iterates),
            logs={name: readonly(value[index], None) for name, value in self.logs.items()},
            replicates=None,
        )


# ============================================================================== input checks


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ParameterError(
            parameter=name, value=value, rule=f"must be one of {', '.join(map(repr, choices))}"
        )
    return str(value)


def _schedule(name: str, value: Any, rounds: int, per_round: int) -> np.ndarray:
    """η at the global steps t = cE + k as a (rounds, per_round) array (one row if constant)."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        step = check_real(name, value, positive=True)
        return np.full((1, max(per_round, 1)), step)
    if not callable(value):
        raise ParameterError(
            parameter=name,
            value=value,
            rule="must be a positive number or a schedule η(t) of the global step t",
        )
    t = np.arange(max(rounds, 1) * max(per_round, 1), dtype=np.int64)
    try:
        steps = np.asarray([float(value(int(s))) for s in t], dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ParameterError(
            parameter=name, value=value, rule=f"a schedule must map t to a number ({error})"
        ) from None
    if not np.all(np.isfinite(steps)) or not np.all(steps > 0):
        bad = int(np.argmax(~(np.isfinite(steps) & (steps > 0))))
        raise ParameterError(
            parameter=name, value=f"η({bad}) = {steps[bad]}", rule="steps must be positive, finite"
        )
    return steps.reshape(max(rounds, 1), max(per_round, 1))


def _describe_step(value: Any) -> Any:
    return float(value) if isinstance(value, numbers.Real) else repr(value)


def _problem(problem: Any) -> tuple[Any, np.ndarray, np.ndarray, int]:
    """The kernel view, p, the clients' sample counts and the model dimension d."""
    view = kernel_view(problem)
    p = np.asarray(problem.groups.weights, dtype=np.float64)
    counts = np.array([int(sample_count(client_samples(view, 0, k))) for k in range(p.shape[0])])
    if isinstance(view, QuadraticView):
        d = int(view.centres.shape[1])
    else:
        d = int(view.features.shape[2]) * (int(view.classes) if view.loss == SOFTMAX else 1)
    return view, p, counts, d


def _per_round(steps: np.ndarray, rounds: int) -> np.ndarray:
    """The first step of every round's row of a (rows, E) step table, shape (rounds,)."""
    return np.ascontiguousarray(steps[np.minimum(np.arange(rounds), steps.shape[0] - 1), 0])


@dataclass(frozen=True)
class _Setup:
    view: Any
    p: np.ndarray
    counts: np.ndarray
    K: int
    d: int
    rounds: int
    reps: int
    batched: bool
    streams: np.ndarray
    extra_streams: np.ndarray
    trainers: np.ndarray
    trainer_counts: np.ndarray
    uploaders: np.ndarray
    uploader_counts: np.ndarray
    slot_weights: np.ndarray
    factors: np.ndarray
    init: np.ndarray
    record: bool
    hyperparameters: dict[str, Any]


def _setup(
    problem: Any,
    *,
    rounds: Any,
    aggregation: Any,
    clients_per_round: Any,
    sampling: Any,
    init: Any,
    seed: Any,
    replicates: Any,
    record: Any,
) -> _Setup:
    """Check the common inputs; draw every replicate's streams and participation."""
    view, p, counts, d = _problem(problem)
    K = int(p.shape[0])
    rounds = check_int("rounds", rounds, minimum=0)
    aggregation = _choice("aggregation", aggregation, ("weighted", "uniform"))
    sampling = _choice("sampling", sampling, ("p_with_replacement", "uniform"))
    if clients_per_round is None:
        per_round = K
    else:
        per_round = check_int("clients_per_round", clients_per_round, minimum=1)
        if per_round > K:
            raise ParameterError(
                parameter="clients_per_round", value=per_round, rule=f"must be at most K = {K}"
            )
    full = clients_per_round is None
    batched = replicates is not None
    reps = 1 if replicates is None else check_int("replicates", replicates, minimum=1)
    if not isinstance(record, bool | np.bool_):
        raise ParameterError(parameter="record", value=record, rule="must be True or False")
    start = np.zeros(d) if init is None else check_vector("init", init, shape=(d,))
    seeds = [seed] if not batched else replicate_seeds(seed, reps)
    streams = np.empty(reps, dtype=np.uint64)
    extra = np.empty(reps, dtype=np.uint64)
    trainers = np.zeros((reps, rounds, K), dtype=np.int64)
    trainer_counts = np.zeros((reps, rounds), dtype=np.int64)
    uploaders = np.zeros((reps, rounds, K), dtype=np.int64)
    uploader_counts = np.zeros((reps, rounds), dtype=np.int64)
    slot_weights = np.zeros((reps, rounds, K))
    factors = np.zeros((reps, rounds, K))
    everyone = np.arange(K, dtype=np.int64)
    for r, seed_r in enumerate(seeds):
        rng = generator(seed_r)
        streams[r] = rng.integers(0, 2**64, dtype=np.uint64)
        for c in range(rounds):
            if full:
                draws = everyone
                weights = p if aggregation == "weighted" else np.full(K, 1.0 / K)
                inverse = np.ones(K)
            elif sampling == "p_with_replacement":
                draws = np.sort(rng.choice(K, size=per_round, replace=True, p=p))
                weights = np.full(per_round, 1.0 / per_round)
                inverse = 1.0 / (per_round * p[draws])
            else:
                draws = np.sort(rng.choice(K, size=per_round, replace=False))
                weights = (
                    K * p[draws] / per_round
                    if aggregation == "weighted"
                    else np.full(per_round, 1.0 / per_round)
                )
                inverse = np.full(per_round, K / per_round)
            unique = np.unique(draws)
            trainers[r, c, : unique.size] = unique
            trainer_counts[r, c] = unique.size
            uploaders[r, c, : draws.size] = draws
            uploader_counts[r, c] = draws.size
            slot_weights[r, c, : draws.size] = weights
            factors[r, c, : draws.size] = inverse
        extra[r] = rng.integers(0, 2**64, dtype=np.uint64)
    return _Setup(
        view=view,
        p=p,
        counts=counts,
        K=K,
        d=d,
        rounds=rounds,
        reps=reps,
        batched=batched,
        streams=streams,
        extra_streams=extra,
        trainers=trainers,
        trainer_counts=trainer_counts,
        uploaders=uploaders,
        uploader_counts=uploader_counts,
        slot_weights=slot_weights,
        factors=factors,
        init=start,
        record=bool(record),
        hyperparameters={
            "rounds": rounds,
            "aggregation": aggregation,
            "clients_per_round": None if full else per_round,
            "sampling": sampling,
        },
    )


def _batch(batch: Any, s: _Setup) -> int:
    batch = check_int("batch", batch, minimum=1)
    smallest = int(s.counts.min())
    if batch > smallest:
        raise ParameterError(
            parameter="batch", value=batch, rule=f"must be at most min n_k = {smallest}"
        )
    return int(batch)


def _local_sgd(
    s: _Setup,
    *,
    local_steps: int,
    steps: np.ndarray,
    batch: int,
    lam: float = 0.0,
    warm_start: bool = False,
    receives: bool = True,
    streams: np.ndarray | None = None,
) -> LocalSGD:
    return LocalSGD(
        work=kernel_array(np.full(s.rounds, local_steps), np.int64),
        epochs=False,
        batch=int(batch),
        steps=kernel_array(steps),
        scales=kernel_array(np.ones((s.reps, s.K))),
        lam=float(lam),
        radius=math.inf,
        warm_start=bool(warm_start),
        receives_server_model=bool(receives),
        seeds=kernel_array(s.streams if streams is None else streams, np.uint64),
    )


def _nan_log(s: _Setup) -> np.ndarray:
    return np.full((s.reps, s.rounds, s.K), np.nan)


def _run(algorithm: str, s: _Setup, client: Any, server: Any) -> tuple[np.ndarray, ...]:
    """The round loop; DivergenceError on non-finite models."""
    init_server = np.ascontiguousarray(np.broadcast_to(s.init, (s.reps, s.d)))
    init_local = np.ascontiguousarray(np.broadcast_to(s.init, (s.reps, s.K, s.d)))
    with np.errstate(all="ignore"):
        out = _round_loop(
            s.view,
            client,
            server,
            s.trainers,
            s.trainer_counts,
            s.uploaders,
            s.uploader_counts,
            np.ones(s.rounds, dtype=np.bool_),
            kernel_array(init_server),
            kernel_array(init_local),
            s.record,
        )
    sizes = out[3]
    worst = sizes.max(axis=0) if s.rounds else np.zeros(0)
    if not np.all(np.isfinite(worst)):
        bad = int(np.argmax(~np.isfinite(worst)))
        replicate = int(np.argmax(~np.isfinite(sizes[:, bad])))
        where = f"replicate {replicate}; " if s.batched else ""
        check_finite_trace(
            algorithm,
            (worst,),
            hint=f"{where}the squared norms of the models are not finite (step too large?)",
        )
    return tuple(out)


def _objective(s: _Setup, iterates: np.ndarray) -> np.ndarray:
    """Σ_k p_k F_k(w) at the iterates after each round, shape (R, C)."""
    out = np.empty((s.reps, s.rounds))
    for r in range(s.reps):
        for c in range(s.rounds):
            w = iterates[r, c + 1]
            out[r, c] = sum(
                float(s.p[k]) * float(client_loss(client_samples(s.view, r, k), w))
                for k in range(s.K)
            )
    return out


def _finish(
    algorithm: str,
    s: _Setup,
    out: tuple[np.ndarray, ...],
    *,
    logs: dict[str, np.ndarray],
    hyperparameters: dict[str, Any],
    personal: np.ndarray | None = None,
    averaged: tuple[np.ndarray, np.ndarray] | None = None,
) -> BaselineRun:
    server, local, counts, _, server_its, local_its = out
    losses = _objective(s, server_its) if s.record else None

    def shaped(array: np.ndarray | None) -> np.ndarray | None:
        if array is None:
            return None
        return readonly(array if s.batched else array[0], None)

    trace = Trace.from_counts(
        counts if s.batched else counts[0],
        None if losses is None else (losses if s.batched else losses[0]),
    )
    return BaselineRun(
        algorithm=algorithm,
        global_model=shaped(server),  # type: ignore[arg-type]
        local_models=shaped(local),  # type: ignore[arg-type]
        personal_models=shaped(personal),
        averaged_model=None if averaged is None else shaped(averaged[0]),
        averaged_mixture=None if averaged is None else shaped(averaged[1]),
        trace=trace,
        global_iterates=shaped(server_its) if s.record else None,
        local_iterates=shaped(local_its) if s.record else None,
        logs={name: shaped(value) for name, value in logs.items()},  # type: ignore[misc]
        hyperparameters={**s.hyperparameters, **hyperparameters},
        replicates=s.reps if s.batched else None,
    )


def _check_losses(algorithm: str, q: float, losses: np.ndarray) -> None:
    """q-FFL needs F_k ≥ 0 (F^q), and F_k > 0 when 0 < q < 1 (q F^{q−1})."""
    if q == 0.0:
        return
    reported = losses[np.isfinite(losses)]
    if reported.size == 0:
        return
    smallest = float(reported.min())
    if smallest < 0.0 or (smallest == 0.0 and q < 1.0):
        raise ConditionError(
            f"{algorithm}: reported client loss",
            "F_k(w) > 0 (q-FFL raises the losses to the power q)",
            {"q": q, "smallest loss": smallest},
        )


# ============================================================================== q-FFL


def _qffl(
    algorithm: str,
    problem: Any,
    q: Any,
    *,
    rounds: Any,
    local_steps: Any,
    step_size: Any,
    batch: Any,
    aggregation: Any,
    clients_per_round: Any,
    sampling: Any,
    init: Any,
    seed: Any,
    replicates: Any,
    record: Any,
) -> BaselineRun:
    q = check_real("q", q, nonnegative=True)
    s = _setup(
        problem,
        rounds=rounds,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    gradient = algorithm == "qfedsgd"
    E = 1 if gradient else check_int("local_steps", local_steps, minimum=1)
    steps = _schedule("step_size", step_size, s.rounds, E)
    # L̂_c = 1/η at the round's first global step (the q-FFL papers use a constant η)
    lipschitz = 1.0 / _per_round(steps, s.rounds)
    client: Any
    if gradient:
        client = FullGradientSum()
    else:
        client = _local_sgd(s, local_steps=E, steps=steps, batch=_batch(batch, s))
    losses = _nan_log(s)
    server = QFairAggregation(
        q=q,
        lipschitz=kernel_array(lipschitz),
        gradient_upload=gradient,
        slot_weights=kernel_array(s.slot_weights),
        losses=losses,
    )
    try:
        out = _run(algorithm, s, client, server)
    except ArithmeticError:
        _check_losses(algorithm, q, losses)
        raise
    _check_losses(algorithm, q, losses)
    return _finish(
        algorithm,
        s,
        out,
        logs={"losses": losses},
        hyperparameters={
            "q": q,
            "local_steps": E,
            "step_size": _describe_step(step_size),
            "batch": None if gradient else int(batch),
        },
    )


def qffl(
    problem: Any,
    q: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """q-FFL trained by q-FedAvg (Li, Sanjabi, Beirami & Smith 2020; guide §2.5).

    Objective min_w Σ_k p_k F_k^{q+1}(w)/(q + 1). Each round the selected clients run E local
    SGD steps from w^t to w̄_k and report F_k(w^t); with L̂ = 1/η, ΔW_k = L̂(w^t − w̄_k),
    Δ_k = F_k^q ΔW_k and h_k = q F_k^{q−1}‖ΔW_k‖² + L̂ F_k^q, the server sets
    w^{t+1} = w^t − Σ_k a_k Δ_k / Σ_k a_k h_k. The default ``aggregation="uniform"`` is the
    printed algorithm (a_k equal: plain sums over the draws); q = 0 is then FedAvg with the
    uniform mean, and with ``"weighted"`` and full participation the p-weighted FedAvg (module
    docstring). L̂ is 1/η at the round's first global step.

    Parameters
    ----------
    problem
        A gifair problem (``GroupedQuadratics`` or ``GroupedClassification``).
    q
        q ≥ 0.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`~fedtheory.papers.gifair.algorithms.gifair_global` (module docstring).

    Returns
    -------
    BaselineRun
        ``logs["losses"]``: the reported F_k(w^t).

    Raises
    ------
    ParameterError
        On invalid input (q < 0 among them).
    ConditionError
        If a reported loss is negative (or zero with 0 < q < 1): F^q is undefined.
    DivergenceError
        On non-finite models.
    """
    return _qffl(
        "qffl",
        problem,
        q,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


def qfedsgd(
    problem: Any,
    q: float,
    *,
    rounds: int,
    step_size: StepSize,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """q-FedSGD: :func:`qffl` with ΔW_k = ∇F_k(w^t), the client's full gradient (Li et al.
    2020). The clients upload their exact gradient sums (core ``FullGradientSum``); q = 0 is
    FedSGD, w ← w − η Σ a_k ∇F_k / Σ a_k. Parameters and result as :func:`qffl`."""
    return _qffl(
        "qfedsgd",
        problem,
        q,
        rounds=rounds,
        local_steps=1,
        step_size=step_size,
        batch=1,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


# ============================================================================== TERM


def term(
    problem: Any,
    tilt: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Federated TERM (Li, Beirami, Sanjabi & Smith 2021; guide §2.5).

    Tilted risk R̃(t; w) = (1/t) log Σ_k p_k e^{t F_k(w)}, whose gradient is Σ_k ω_k ∇F_k with
    ω_k ∝ p_k e^{t F_k(w)}. Each round the selected clients run E local SGD steps and report
    F_k(w^t); the server averages the uploads with ω_a ∝ a_a e^{t F_a(w^t)} (a_a = p_k with full
    participation and ``"weighted"``). With E = 1 and exact gradients this is gradient descent on
    R̃; t → 0 gives FedAvg, t → ∞ the minimax min_w max_k F_k (the optimum of R̃ is within
    log(1/min p_k)/t of it in value).

    Parameters
    ----------
    tilt
        t > 0. A negative tilt (robustness to outliers) is a different method and refused.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``logs["losses"]`` and ``logs["weights"]`` (the ω_k).
    """
    tilt = check_real("tilt", tilt, positive=True)
    s = _setup(
        problem,
        rounds=rounds,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    E = check_int("local_steps", local_steps, minimum=1)
    steps = _schedule("step_size", step_size, s.rounds, E)
    client = _local_sgd(s, local_steps=E, steps=steps, batch=_batch(batch, s))
    losses, weights = _nan_log(s), _nan_log(s)
    server = TiltedAggregation(
        tilt=tilt, slot_weights=kernel_array(s.slot_weights), losses=losses, weights=weights
    )
    out = _run("term", s, client, server)
    return _finish(
        "term",
        s,
        out,
        logs={"losses": losses, "weights": weights},
        hyperparameters={
            "tilt": tilt,
            "local_steps": E,
            "step_size": _describe_step(step_size),
            "batch": int(batch),
        },
    )


# ============================================================================== AFL


def afl(
    problem: Any,
    *,
    rounds: int,
    local_steps: int = 1,
    step_size: StepSize,
    mixture_step: float | Callable[[int], float],
    batch: int,
    clients_per_round: int | None = None,
    sampling: Sampling = "uniform",
    mixture_init: np.ndarray | None = None,
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Stochastic AFL (Mohri, Sivek & Suresh 2019; guide §2.5): min_w max_{λ∈Δ} Σ_k λ_k F_k(w).

    Round c: the selected clients run E local SGD steps from w^c (E = 1, the theory: one
    stochastic gradient step, w̄_k = w^c − η g_k) and report F_k(w^c); the server sets
    w^{c+1} = w^c − Σ_a f_a λ^c_{k_a}(w^c − w̄_{k_a}) (= w^c − η Σ_k λ_k g_k with full
    participation) and λ^{c+1} = Π_Δ(λ^c + γ_c ĝ_λ), ĝ_λ[k] = Σ_{a: k_a = k} f_a F_k(w^c), with
    f_a the inverse inclusion probability of the draw (unbiased estimates; 1 with full
    participation) and Π_Δ the exact simplex projection. The outputs are the averaged iterates
    w̄ = (1/C) Σ_{c<C} w^c and λ̄ (with constant steps γ_w = η, γ_λ: gap
    O(D²/(γT) + γG²), the O(1/√T) rate for γ ∝ 1/√T). W is ℝ^d (no projection).

    Parameters
    ----------
    mixture_step
        γ_λ > 0, or a schedule γ(c) of the round.
    mixture_init
        λ^0 on the simplex; default p.
    sampling
        ``"uniform"`` (default) or ``"p_with_replacement"``; the estimator weights follow it.
    rounds, local_steps, step_size, batch, clients_per_round, init, seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``averaged_model``, ``averaged_mixture``; ``logs["mixtures"]`` (λ^c) and
        ``logs["losses"]``.
    """
    s = _setup(
        problem,
        rounds=rounds,
        aggregation="weighted",
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    E = check_int("local_steps", local_steps, minimum=1)
    steps = _schedule("step_size", step_size, s.rounds, E)
    gammas = _per_round(_schedule("mixture_step", mixture_step, s.rounds, 1), s.rounds)
    if mixture_init is None:
        start = s.p
    else:
        start = check_weights(mixture_init, s.K, parameter="mixture_init")
    client = _local_sgd(s, local_steps=E, steps=steps, batch=_batch(batch, s))
    mixture = np.array(np.broadcast_to(start, (s.reps, s.K)))
    model_sum = np.zeros((s.reps, s.d))
    mixture_sum = np.zeros((s.reps, s.K))
    mixtures, losses = _nan_log(s), _nan_log(s)
    server = MixtureAggregation(
        factors=kernel_array(s.factors),
        mixture_steps=kernel_array(gammas),
        mixture=mixture,
        model_sum=model_sum,
        mixture_sum=mixture_sum,
        mixtures=mixtures,
        losses=losses,
    )
    out = _run("afl", s, client, server)
    scale = 1.0 / max(s.rounds, 1)
    averaged = (model_sum * scale, mixture_sum * scale) if s.rounds else (out[0], mixture)
    return _finish(
        "afl",
        s,
        out,
        logs={"mixtures": mixtures, "losses": losses},
        hyperparameters={
            "local_steps": E,
            "step_size": _describe_step(step_size),
            "mixture_step": _describe_step(mixture_step),
            "batch": int(batch),
        },
        averaged=averaged,
    )


# ============================================================================== Ditto


def ditto(
    problem: Any,
    lam_d: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int,
    personal_steps: int | None = None,
    personal_step_size: StepSize | None = None,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
) -> BaselineRun:
    """Ditto (Li, Hu, Beirami & Smith 2021; guide §2.5): FedAvg plus personal models.

    min_{v_k} F_k(v_k) + (λ_D/2)‖v_k − w*‖² with w* FedAvg's solution. Round c: every selected
    client runs FedAvg's E local steps from w^c (uploaded; the server aggregates as FedAvg:
    core ``ServerStep`` with ``"weighted"``, ``ModelAverage`` otherwise) and s steps of
    v_k ← v_k − η(ĝ(v_k) + λ_D(v_k − w^c)) warm-started from its personal v_k (both core
    ``LocalSGD``, the personal one with its own sample stream). For quadratics with exact
    gradients v_k → (A_k + λ_D I)^{−1}(A_k c_k + λ_D w*); λ_D → ∞ gives w*, λ_D → 0 the local
    optima. A client never selected keeps v_k = ``init`` (an assumption: the paper evaluates
    every client with its v_k).

    Parameters
    ----------
    lam_d
        λ_D ≥ 0.
    personal_steps, personal_step_size
        s ≥ 0 and its step (default E and ``step_size``; a schedule is indexed by c·s + k).
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``personal_models`` (K, d).
    """
    lam_d = check_real("lam_d", lam_d, nonnegative=True)
    s = _setup(
        problem,
        rounds=rounds,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    E = check_int("local_steps", local_steps, minimum=1)
    S = E if personal_steps is None else check_int("personal_steps", personal_steps, minimum=0)
    batch = _batch(batch, s)
    steps = _schedule("step_size", step_size, s.rounds, E)
    personal_steps_array = _schedule(
        "personal_step_size",
        step_size if personal_step_size is None else personal_step_size,
        s.rounds,
        S,
    )
    personal = np.array(np.broadcast_to(s.init, (s.reps, s.K, s.d)))
    client = DittoLocal(
        global_step=_local_sgd(s, local_steps=E, steps=steps, batch=batch),
        personal_step=_local_sgd(
            s,
            local_steps=S,
            steps=personal_steps_array,
            batch=batch,
            lam=lam_d,
            warm_start=True,
            receives=False,
            streams=s.extra_streams,
        ),
        personal=personal,
    )
    server: Any
    if s.hyperparameters["aggregation"] == "weighted" and (
        s.hyperparameters["clients_per_round"] is None or s.hyperparameters["sampling"] == "uniform"
    ):
        server = ServerStep(
            steps=kernel_array(np.ones(s.rounds)),
            weights=kernel_array(np.broadcast_to(s.p, (s.reps, s.K))),
            project=False,
            radius=math.inf,
        )
    else:
        server = ModelAverage()
    out = _run("ditto", s, client, server)
    return _finish(
        "ditto",
        s,
        out,
        logs={},
        hyperparameters={
            "lam_d": lam_d,
            "local_steps": E,
            "personal_steps": S,
            "step_size": _describe_step(step_size),
            "personal_step_size": _describe_step(
                step_size if personal_step_size is None else personal_step_size
            ),
            "batch": batch,
        },
        personal=personal,
    )


# ============================================================================== FedMGDA+


def fedmgda_plus(
    problem: Any,
    eps: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    global_step: float | Callable[[int], float],
    batch: int,
    aggregation: Aggregation = "uniform",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed | list[Seed],
    replicates: int | None = None,
    record: bool = False,
    tolerance: float = 1e-12,
    max_iterations: int = 100_000,
) -> BaselineRun:
    """FedMGDA+ (Hu, Shaloudegi, Zhang & Yu 2020; guide §2.5).

    Round c: the selected clients run E local SGD steps from w^c to w̄_k; the server normalises
    the pseudo-gradients ĝ_k = (w^c − w̄_k)/‖w^c − w̄_k‖ (0 for a zero update), solves
    λ* = argmin{‖Σ_k λ_k ĝ_k‖² : λ ∈ Δ, ‖λ − λ_0‖_∞ ≤ ε} exactly (accelerated projected
    gradient with an exact projection onto simplex ∩ box, to the KKT ``tolerance``), and sets
    w^{c+1} = w^c − η_g Σ_k λ*_k ĝ_k. λ_0 is the uploads' aggregation weights normalised
    (uniform by default, as Hu et al.). ε = 0 is FedAvg on normalised updates; ε = 1 is MGDA.

    Parameters
    ----------
    eps
        ε ∈ [0, 1].
    global_step
        η_g > 0, or a schedule η_g(c) of the round.
    tolerance, max_iterations
        KKT tolerance of the QP and its iteration cap per round.
    rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, init,
    seed, replicates, record
        As :func:`qffl`.

    Returns
    -------
    BaselineRun
        ``logs["weights"]`` (λ*) and ``logs["solver"]`` (R, 3) or (3,).

    Raises
    ------
    SolverError
        If the QP did not reach the tolerance within ``max_iterations`` in some round.
    """
    eps = check_real("eps", eps, nonnegative=True)
    if eps > 1.0:
        raise ParameterError(parameter="eps", value=eps, rule="must lie in [0, 1]")
    tolerance = check_real("tolerance", tolerance, positive=True)
    max_iterations = check_int("max_iterations", max_iterations, minimum=1)
    s = _setup(
        problem,
        rounds=rounds,
        aggregation=aggregation,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
    E = check_int("local_steps", local_steps, minimum=1)
    steps = _schedule("step_size", step_size, s.rounds, E)
    server_steps = _per_round(_schedule("global_step", global_step, s.rounds, 1), s.rounds)
    client = _local_sgd(s, local_steps=E, steps=steps, batch=_batch(batch, s))
    weights = _nan_log(s)
    solver = np.zeros((s.reps, SOLVER_SLOTS))
    server = MinNormAggregation(
        eps=eps,
        global_steps=kernel_array(server_steps),
        slot_weights=kernel_array(s.slot_weights),
        tolerance=tolerance,
        max_iterations=max_iterations,
        weights=weights,
        solver=solver,
    )
    out = _run("fedmgda_plus", s, client, server)
    if np.any(solver[:, SOLVER_FAILURES] > 0):
        r = int(np.argmax(solver[:, SOLVER_FAILURES] > 0))
        raise SolverError(
            "fedmgda_plus QP (accelerated projected gradient)",
            f"KKT residual {solver[r, SOLVER_RESIDUAL]:.3g} > {tolerance:g} after "
            f"{int(solver[r, SOLVER_ITERATIONS])} iterations in "
            f"{int(solver[r, SOLVER_FAILURES])} round(s)",
            hint="raise max_iterations or the tolerance",
        )
    return _finish(
        "fedmgda_plus",
        s,
        out,
        logs={"weights": weights, "solver": solver},
        hyperparameters={
            "eps": eps,
            "local_steps": E,
            "step_size": _describe_step(step_size),
            "global_step": _describe_step(global_step),
            "batch": int(batch),
            "tolerance": tolerance,
        },
    )
