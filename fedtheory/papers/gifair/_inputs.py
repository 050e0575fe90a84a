"""Input checks and randomness shared by the gifair runners (private): GIFAIR-FL and FedAvg as
printed (:mod:`~fedtheory.papers.gifair.algorithms`) and the fairness baselines
(:mod:`~fedtheory.papers.gifair.baselines`).

One place for the problem's kernel view, the step tables, the participation checks, the draws
of every replicate (the minibatch stream seed, then the clients of every round, then any extra
stream seeds) and the call of the core round loop with its divergence check, so that the
runners share their conventions (guide §2.1–§2.5) draw for draw. Every check raises
:class:`~fedtheory.errors.ParameterError` naming the parameter, the value and the rule.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import generator, replicate_seeds
from fedtheory.algorithms._federated_inputs import _clients_per_round
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.client_steps import LocalSGD
from fedtheory.algorithms.server_steps import ModelAverage, ServerStep
from fedtheory.errors import ParameterError
from fedtheory.papers.gifair._samples import ClassificationView, QuadraticView, kernel_view
from fedtheory.papers.gifair.groups import GroupStructure
from fedtheory.papers.gifair.problems import GroupedQuadratics
from fedtheory.papers.gifair.steps import _Averaging

__all__: list[str] = []

#: Aggregation rules: p-weighted (the objective (1)) or the printed unweighted mean.
AGGREGATIONS: tuple[str, ...] = ("weighted", "uniform")
#: Client sampling under partial participation.
SAMPLINGS: tuple[str, ...] = ("p_with_replacement", "uniform")


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ParameterError(
            parameter=name, value=value, rule=f"must be one of {', '.join(map(repr, choices))}"
        )
    return str(value)


def _step_table(
    step_size: Any, rounds: int, local_steps: int, *, name: str = "step_size"
) -> tuple[np.ndarray, Any]:
    """LocalSGD's step table: (1, 1) for a constant, (T, E) η^(cE + k) for a schedule.

    A schedule is called once with the array of the global steps t = 0, …, TE − 1 (a schedule
    of the round is the case E = 1). Returns the table and its record for the hyperparameters
    (the number, the fields of a dataclass schedule, or the callable's name).
    """
    if isinstance(step_size, numbers.Real) and not isinstance(step_size, bool):
        eta = check_real(name, step_size, positive=True)
        return np.array([[eta]]), eta
    if not callable(step_size):
        raise ParameterError(
            parameter=name,
            value=step_size,
            rule="must be a positive number or a schedule (decaying_steps, sqrt_steps, or a "
            "callable mapping global steps t to steps η^(t))",
        )
    t = np.arange(max(rounds, 1) * local_steps, dtype=np.float64)
    try:
        table = np.asarray(step_size(t), dtype=np.float64).reshape(max(rounds, 1), local_steps)
    except (TypeError, ValueError) as error:
        raise ParameterError(
            parameter=name,
            value=step_size,
            rule=f"a schedule must map an array of {t.size} global steps to as many steps "
            f"({error})",
        ) from None
    bad = ~(np.isfinite(table) & (table > 0))
    if bad.any():
        where = int(np.argmax(bad.reshape(-1)))
        raise ParameterError(
            parameter=name,
            value=f"η^({where}) = {table.reshape(-1)[where]}",
            rule="a schedule must give positive finite steps",
        )
    record = (
        dataclasses.asdict(step_size)
        if dataclasses.is_dataclass(step_size) and not isinstance(step_size, type)
        else getattr(step_size, "__name__", type(step_size).__name__)
    )
    return np.ascontiguousarray(table), record


@dataclass(frozen=True)
class _Problem:
    view: QuadraticView | ClassificationView
    groups: GroupStructure
    counts: np.ndarray
    dimension: int

    @property
    def clients(self) -> int:
        return self.groups.num_clients


def _problem(problem: Any) -> _Problem:
    """The kernel view, the groups, the clients' sample counts n_k and the dimension."""
    view = kernel_view(problem)  # refuses anything but the two gifair problems
    if isinstance(problem, GroupedQuadratics):
        counts = np.full(problem.num_clients, problem.noise.shape[1], dtype=np.int64)
    else:
        counts = np.asarray(problem.counts, dtype=np.int64)
    return _Problem(view, problem.groups, counts, problem.dimension)


def _init(init: Any, dimension: int) -> np.ndarray:
    if init is None:
        return np.zeros(dimension)
    return check_vector("init", init, shape=(dimension,))


def _batch(batch: Any, info: _Problem) -> int:
    batch = check_int("batch", batch, minimum=1)
    if batch > int(info.counts.min()):
        raise ParameterError(
            parameter="batch", value=batch, rule=f"must be at most min n_k = {info.counts.min()}"
        )
    return int(batch)


def _per_round(clients_per_round: Any, m: int) -> int | None:
    """None (every client) or S in [1, K] (the core's check)."""
    return None if clients_per_round is None else _clients_per_round(clients_per_round, m)


def _replicates(replicates: Any, record: Any) -> int | None:
    """The number of replicates (None: one run), after checking ``record`` too."""
    checked = None if replicates is None else check_int("replicates", replicates, minimum=1)
    if not isinstance(record, bool | np.bool_):
        raise ParameterError(parameter="record", value=record, rule="must be True or False")
    return checked


class _Schedule:
    """Who trains and whose models are averaged, per replicate and round, and the streams."""

    def __init__(self, reps: int, rounds: int, m: int, width: int, extra: int) -> None:
        self.streams = np.empty(reps, dtype=np.uint64)
        self.extra_streams = np.empty((extra, reps), dtype=np.uint64)
        self.trainers = np.zeros((reps, rounds, m), dtype=np.int64)
        self.trainer_counts = np.zeros((reps, rounds), dtype=np.int64)
        self.uploaders = np.zeros((reps, rounds, width), dtype=np.int64)
        self.uploader_counts = np.zeros((reps, rounds), dtype=np.int64)

    @property
    def reps(self) -> int:
        return int(self.streams.size)


def _randomness(
    seed: Any, replicates: int | None, info: _Problem, rounds: int, per_round: int | None,
    sampling: str, *, extra: int = 0,
) -> _Schedule:  # fmt: skip
    """Replicate r's generator (its seed spawned, or the seed itself for one run) draws the
    minibatch stream seed, then the clients of every round (none with full participation:
    p-sampling S i.i.d. draws from p, the uploads, training once each; uniform sampling S
    clients without replacement), then ``extra`` more stream seeds."""
    seeds = [seed] if replicates is None else replicate_seeds(seed, replicates)
    m = info.clients
    schedule = _Schedule(len(seeds), rounds, m, max(m, per_round or 0), extra)
    everyone = np.arange(m, dtype=np.int64)
    for r, seed_r in enumerate(seeds):
        rng = generator(seed_r)
        schedule.streams[r] = rng.integers(0, 2**64, dtype=np.uint64)
        if per_round is None:  # every client, every round (no draw)
            schedule.trainers[r] = schedule.uploaders[r] = everyone
            schedule.trainer_counts[r] = schedule.uploader_counts[r] = m
        else:
            for t in range(rounds):
                if sampling == "p_with_replacement":
                    uploaded = np.sort(rng.choice(m, size=per_round, replace=True, p=info.groups.p))
                    trained = np.unique(uploaded)
                else:
                    uploaded = trained = np.sort(rng.choice(m, size=per_round, replace=False))
                schedule.trainers[r, t, : trained.size] = trained
                schedule.trainer_counts[r, t] = trained.size
                schedule.uploaders[r, t, : uploaded.size] = uploaded
                schedule.uploader_counts[r, t] = uploaded.size
        for e in range(extra):
            schedule.extra_streams[e, r] = rng.integers(0, 2**64, dtype=np.uint64)
    return schedule


@dataclass(frozen=True)
class _Settings:
    """The checked inputs every gifair runner shares, and every replicate's draws."""

    info: _Problem
    rounds: int
    local_steps: int
    table: np.ndarray
    step_record: Any
    batch: int  # 0: no minibatches (q-FedSGD's full gradients)
    aggregation: str
    sampling: str
    per_round: int | None
    replicates: int | None
    record: bool
    init: np.ndarray
    schedule: _Schedule

    @property
    def batched(self) -> bool:
        return self.replicates is not None

    @property
    def reps(self) -> int:
        return self.schedule.reps

    @property
    def hyperparameters(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "local_steps": self.local_steps,
            "step_size": self.step_record,
            "batch": self.batch or None,
            "aggregation": self.aggregation,
            "clients_per_round": self.per_round,
            "sampling": self.sampling if self.per_round is not None else None,
        }


def _settings(
    info: _Problem,
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
    minibatch: bool = True,
    extra: int = 0,
) -> _Settings:
    """Check the shared inputs in one order, then draw (:func:`_randomness`)."""
    rounds = check_int("rounds", rounds, minimum=1)
    E = check_int("local_steps", local_steps, minimum=1)
    table, step_record = _step_table(step_size, rounds, E)
    checked_batch = _batch(batch, info) if minibatch else 0
    aggregation = _choice("aggregation", aggregation, AGGREGATIONS)
    sampling = _choice("sampling", sampling, SAMPLINGS)
    per_round = _per_round(clients_per_round, info.clients)
    replicates = _replicates(replicates, record)
    start = _init(init, info.dimension)
    schedule = _randomness(seed, replicates, info, rounds, per_round, sampling, extra=extra)
    return _Settings(
        info, rounds, E, table, step_record, checked_batch, aggregation, sampling, per_round,
        replicates, bool(record), start, schedule,
    )  # fmt: skip


def _local_sgd(
    rounds: int,
    local_steps: int,
    batch: int,
    table: np.ndarray,
    scales: np.ndarray,
    streams: np.ndarray,
    *,
    lam: float = 0.0,
    warm_start: bool = False,
    receives: bool = True,
) -> LocalSGD:
    """The core client step: ``local_steps`` minibatch steps η·scales[r, k] a round (steps,
    not epochs), from the broadcast model (``receives``) or warm-started from the client's own."""
    return LocalSGD(
        work=np.full(rounds, local_steps, dtype=np.int64),
        epochs=False,
        batch=int(batch),
        steps=kernel_array(table),
        scales=scales,
        lam=float(lam),
        radius=np.inf,
        warm_start=bool(warm_start),
        receives_server_model=bool(receives),
        seeds=kernel_array(streams, np.uint64),
    )


def _averaging(
    aggregation: str, per_round: int | None, sampling: str, p: np.ndarray, reps: int, rounds: int
) -> _Averaging:
    """FedAvg's aggregation of the uploads (guide §2.1): the core p-weighted step (full
    participation, or Li et al.'s scheme II under uniform sampling) for ``"weighted"``, the
    plain mean of the uploads otherwise and always under p-sampling (scheme I) — both in the
    one step type :class:`~fedtheory.papers.gifair.steps._Averaging` (one compilation)."""
    p_sampling = per_round is not None and sampling == "p_with_replacement"
    uniform = aggregation != "weighted" or p_sampling
    weighted = ServerStep(np.ones(rounds), np.tile(p, (reps, 1)), False, np.inf)
    return _Averaging(weighted, ModelAverage(), uniform)


def _loop(
    algorithm: str,
    info: _Problem,
    client: Any,
    server: Any,
    schedule: _Schedule,
    start: np.ndarray,
    record: bool,
    *,
    batched: bool,
    hint: str,
) -> tuple[np.ndarray, ...]:
    """The core round loop from ``start`` everywhere; DivergenceError on non-finite models.

    Returns the loop's (global model, local models, counts, squared sizes, global iterates,
    local iterates), each with the replicate axis; ``server`` keeps what its step wrote.
    """
    reps, m, n = schedule.reps, info.clients, info.dimension
    with np.errstate(all="ignore"):
        out = _round_loop(
            info.view,
            client,
            server,
            schedule.trainers,
            schedule.trainer_counts,
            schedule.uploaders,
            schedule.uploader_counts,
            np.ones(schedule.trainers.shape[1], dtype=np.bool_),
            kernel_array(np.broadcast_to(start, (reps, n))),
            kernel_array(np.broadcast_to(start, (reps, m, n))),
            bool(record),
        )
    sizes = out[3]
    worst = sizes.max(axis=0)
    if not np.all(np.isfinite(worst)):
        bad = int(np.argmax(~np.isfinite(worst)))
        replicate = int(np.argmax(~np.isfinite(sizes[:, bad])))
        where = f"replicate {replicate}; " if batched else ""
        check_finite_trace(algorithm, (worst,), hint=where + hint)
    return tuple(out)


def _shaped(array: np.ndarray, batched: bool) -> np.ndarray:
    """A read-only view of a run's array: the replicate axis kept for a batch, dropped else."""
    return readonly(array if batched else array[0], None, copy=False)
