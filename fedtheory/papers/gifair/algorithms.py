"""GIFAIR-FL-Global, GIFAIR-FL-Per and FedAvg as printed, on the core round loop (guide §2).

Yue, Nouiehed & Al Kontar, *GIFAIR-FL* (the ``gifair`` seed). Every algorithm is the core client
step :class:`~fedtheory.algorithms.client_steps.LocalSGD` (E local minibatch steps from the global
model, the step of client k scaled by its multiplier c_k) composed with the server step
:class:`~fedtheory.papers.gifair.steps.FairAggregation` (a core aggregation step, then the reported
losses, the group ranks and the next multipliers) on the one round loop:

======================  ==========================================================================
algorithm               what it is
======================  ==========================================================================
:func:`gifair_global`   Algorithm 2: λ ∈ [0, λ_max); r from the losses at the local end-of-round
                        models (``r_mode="stale"``, as printed) or at the new global model
                        (``"exact"``, the §3.3 remedy the theorems assume; default)
:func:`gifair_per`      Algorithm 3: trains exactly as Algorithm 2 with stale r (guide §2.3:
                        "trains identically"); returns the personalised θ_k = the client's last
                        local iterate — θ̄_C for a client never sampled [our assumption: the paper
                        leaves its θ_k undefined]
:func:`fedavg_printed`  Algorithm 1: λ = 0 (every multiplier exactly 1)
======================  ==========================================================================

**Aggregation and participation** (guide §2.1, §2.2, Remark 3.4). With full participation
(``clients_per_round=None``) every client trains once per round and ``aggregation="weighted"``
(default; the guide's implementation warning, the objective (1)) is θ̄ = Σ_k p_k θ_k, while
``"uniform"`` is the printed (1/K) Σ_k θ_k, which minimises a different objective when p is not
uniform (V10). With ``clients_per_round = S``:

- ``sampling="p_with_replacement"`` (the theory, Thms 3.9/8.4: S i.i.d. draws from p): the
  drawn clients train once each and the server averages the S draws uniformly, repeats counted
  (Li et al.'s scheme I, unbiased for Σ p_k θ_k) — with either ``aggregation``;
- ``sampling="uniform"`` (S clients without replacement): ``"weighted"`` is the core
  p-weighted step θ̄ ← θ̄ − (K/S) Σ_{k∈S} p_k(θ̄ − θ_k) (Li et al.'s scheme II, unbiased;
  (K/S) Σ_{k∈S} p_k θ_k when Σ_{k∈S} p_k = S/K), ``"uniform"`` the printed plain mean.

**Step sizes.** E is a number of local *steps* (the theory's; the experiments' epochs are not
modelled). η^(t) at the global step t = cE + k (round c, local step k = 0, …, E − 1) is a constant,
:func:`decaying_steps` β/(t + γ) (Thm 3.7), :func:`sqrt_steps` c/√(t + 1) (Thm 3.11 with t counted
from 0), or any callable mapping an array of global steps to positive steps.

**Randomness** (as :func:`fedtheory.algorithms.federated.fedavg`): replicate r has the seed
``SeedSequence(seed, spawn_key=(r,))`` (the seed itself for one run); its generator draws the
minibatch stream seed (one uint64), then, with partial participation, the clients of every round.
Replicate r of a batch equals the single run with its seed, and λ = 0 with weighted aggregation
and full participation is the core FedAvg bit for bit.

References
----------
.. [1] X. Yue, M. Nouiehed & R. Al Kontar, GIFAIR-FL: a framework for group and individual
   fairness in federated learning, INFORMS J. Data Science (arXiv:2108.02741); Algorithms 1–3,
   Remarks 3.4–3.6, §3.3.
.. [2] X. Li, K. Huang, W. Yang, S. Wang & Z. Zhang, On the convergence of FedAvg on non-iid data,
   ICLR 2020 (sampling schemes I and II).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector
from fedtheory._seeds import Seed, generator, replicate_seeds
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.client_steps import LocalSGD
from fedtheory.algorithms.server_steps import ModelAverage, ServerStep
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.gifair._samples import LOGISTIC, QuadraticView, kernel_view
from fedtheory.papers.gifair.runs import FairnessLog, GifairRun
from fedtheory.papers.gifair.steps import R_MODES, FairAggregation

__all__ = [
    "AGGREGATIONS",
    "SAMPLINGS",
    "StepSchedule",
    "decaying_steps",
    "fedavg_printed",
    "gifair_global",
    "gifair_per",
    "sqrt_steps",
]

#: Aggregation rules: p-weighted (the objective (1)) or the printed unweighted mean.
AGGREGATIONS: tuple[str, ...] = ("weighted", "uniform")
#: Client sampling under partial participation.
SAMPLINGS: tuple[str, ...] = ("p_with_replacement", "uniform")

Aggregation = Literal["weighted", "uniform"]
RMode = Literal["stale", "exact"]
Sampling = Literal["p_with_replacement", "uniform"]
StepSize = float | Callable[[np.ndarray], np.ndarray]


# ============================================================================== step sizes


@dataclass(frozen=True)
class StepSchedule:
    """A step size η^(t) over the global step t = cE + k = 0, 1, … (guide §2.4).

    Attributes
    ----------
    kind : str
        ``"decaying"`` (β/(t + γ)) or ``"sqrt"`` (c/√(t + 1)).
    scale : float
        β or c.
    offset : float
        γ (``"decaying"``; 0 for ``"sqrt"``).
    """

    kind: str
    scale: float
    offset: float = 0.0

    def __call__(self, t: np.ndarray) -> np.ndarray:
        """η^(t) for an array of global steps."""
        steps = np.asarray(t, dtype=np.float64)
        if self.kind == "decaying":
            return np.asarray(self.scale / (steps + self.offset))
        return np.asarray(self.scale / np.sqrt(steps + 1.0))


def decaying_steps(beta: float, gamma: float) -> StepSchedule:
    """η^(t) = β/(t + γ), the strongly convex schedule of Thm 3.7 (appendix §8.3).

    The proofs also need η^(t) ≤ 2η^(t+E), which holds for γ ≥ E, and η^(0) = β/γ below
    1/(4(2 − ε)L); the guide's practical choice is β = 2/(εμ), γ = max(8(2 − ε)L/(εμ), E).

    Examples
    --------
    >>> decaying_steps(2.0, 4.0)(np.array([0, 4])).tolist()
    [0.5, 0.25]
    """
    return StepSchedule(
        "decaying",
        check_real("beta", beta, positive=True),
        check_real("gamma", gamma, positive=True),
    )


def sqrt_steps(c: float) -> StepSchedule:
    """η^(t) = c/√(t + 1), the non-convex schedule of Thm 3.11/8.6 (the paper's 1/√t with t
    counted from 1; c ≤ 1/(√(2K) L) reconciles its two step conditions, guide §2.4).

    Examples
    --------
    >>> sqrt_steps(0.5)(np.array([0, 3])).tolist()
    [0.5, 0.25]
    """
    return StepSchedule("sqrt", check_real("c", c, positive=True))


def _step_table(step_size: Any, rounds: int, local_steps: int) -> tuple[np.ndarray, Any]:
    """LocalSGD's step table: (1, 1) for a constant, (T, E) η^(cE + k) for a schedule."""
    if isinstance(step_size, numbers.Real) and not isinstance(step_size, bool):
        eta = check_real("step_size", step_size, positive=True)
        return np.array([[eta]]), eta
    if not callable(step_size):
        raise ParameterError(
            parameter="step_size",
            value=step_size,
            rule="must be a positive number or a schedule (decaying_steps, sqrt_steps, or a "
            "callable mapping global steps t to steps η^(t))",
        )
    t = np.arange(max(rounds, 1) * local_steps, dtype=np.float64)
    try:
        table = np.asarray(step_size(t), dtype=np.float64).reshape(max(rounds, 1), local_steps)
    except (TypeError, ValueError) as error:
        raise ParameterError(
            parameter="step_size",
            value=step_size,
            rule=f"a schedule must map an array of {t.size} global steps to as many steps "
            f"({error})",
        ) from None
    bad = ~(np.isfinite(table) & (table > 0))
    if bad.any():
        where = int(np.argmax(bad.reshape(-1)))
        raise ParameterError(
            parameter="step_size",
            value=f"η^({where}) = {table.reshape(-1)[where]}",
            rule="a schedule must give positive finite steps",
        )
    record = (
        {"kind": step_size.kind, "scale": step_size.scale, "offset": step_size.offset}
        if isinstance(step_size, StepSchedule)
        else getattr(step_size, "__name__", type(step_size).__name__)
    )
    return np.ascontiguousarray(table), record


# ============================================================================== inputs


@dataclass(frozen=True)
class _Problem:
    view: Any
    labels: np.ndarray
    weights: np.ndarray
    group_sizes: np.ndarray
    counts: np.ndarray
    dimension: int
    lambda_max: float

    @property
    def clients(self) -> int:
        return int(self.labels.shape[0])


def _problem(problem: Any) -> _Problem:
    view = kernel_view(problem)
    groups = problem.groups
    labels = np.asarray(groups.labels, dtype=np.int64)
    # GroupStructure holds the shares as ``p`` (``weights`` is its method q(λ, F)); a plain
    # record may hold them as ``weights``
    shares = getattr(groups, "p", None)
    weights = np.asarray(groups.weights if shares is None else shares, dtype=np.float64)
    sizes = np.bincount(labels).astype(np.float64)
    if labels.min() < 0 or np.any(sizes == 0) or sizes.size < 2:
        raise ParameterError(
            parameter="groups.labels",
            value=labels.tolist(),
            rule="must cover the groups 0, …, d − 1 (d ≥ 2) with every group non-empty",
        )
    if isinstance(view, QuadraticView):
        counts = np.full(labels.size, view.noise.shape[1], dtype=np.int64)
        dimension = int(view.centres.shape[1])
    else:
        counts = np.asarray(view.counts, dtype=np.int64)
        p = int(view.features.shape[2])
        dimension = p if view.loss == LOGISTIC else view.classes * p
    lambda_max = getattr(groups, "lambda_max", None)
    if lambda_max is None:  # min_k p_k |A_{s_k}| / (d − 1)
        lambda_max = float(np.min(weights * sizes[labels]) / (sizes.size - 1))
    return _Problem(view, labels, weights, sizes, counts, dimension, float(lambda_max))


def _check_lambda(problem: Any, info: _Problem, lam: Any) -> float:
    check = getattr(problem.groups, "check_lambda", None)
    if callable(check):
        check(lam)
        return float(lam)
    lam = check_real("lam", lam, nonnegative=True)
    if lam >= info.lambda_max:
        raise ParameterError(
            parameter="lam",
            value=lam,
            rule=f"must lie in [0, λ_max) with λ_max = min_k p_k|A_(s_k)|/(d − 1) = "
            f"{info.lambda_max:.6g} for these groups (weights stay positive)",
        )
    return float(lam)


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ParameterError(
            parameter=name, value=value, rule=f"must be one of {', '.join(map(repr, choices))}"
        )
    return str(value)


def _init(init: Any, dimension: int) -> np.ndarray:
    if init is None:
        return np.zeros(dimension)
    return check_vector("init", init, shape=(dimension,))


class _Schedule:
    """Who trains and whose models are averaged, per replicate and round."""

    def __init__(self, reps: int, rounds: int, m: int, width: int) -> None:
        self.streams = np.empty(reps, dtype=np.uint64)
        self.trainers = np.zeros((reps, rounds, m), dtype=np.int64)
        self.trainer_counts = np.zeros((reps, rounds), dtype=np.int64)
        self.uploaders = np.zeros((reps, rounds, width), dtype=np.int64)
        self.uploader_counts = np.zeros((reps, rounds), dtype=np.int64)


def _randomness(
    seed: Any, replicates: int | None, info: _Problem, rounds: int, per_round: int | None,
    sampling: str,
) -> _Schedule:  # fmt: skip
    seeds = [seed] if replicates is None else replicate_seeds(seed, replicates)
    m = info.clients
    schedule = _Schedule(len(seeds), rounds, m, max(m, per_round or 0))
    everyone = np.arange(m, dtype=np.int64)
    for r, seed_r in enumerate(seeds):
        rng = generator(seed_r)
        schedule.streams[r] = rng.integers(0, 2**64, dtype=np.uint64)
        for t in range(rounds):
            if per_round is None:
                trained = uploaded = everyone
            elif sampling == "p_with_replacement":
                uploaded = np.sort(rng.choice(m, size=per_round, replace=True, p=info.weights))
                trained = np.unique(uploaded)
            else:
                uploaded = trained = np.sort(rng.choice(m, size=per_round, replace=False))
            schedule.trainers[r, t, : trained.size] = trained
            schedule.trainer_counts[r, t] = trained.size
            schedule.uploaders[r, t, : uploaded.size] = uploaded
            schedule.uploader_counts[r, t] = uploaded.size
    return schedule


# ============================================================================== the runner


def _run(
    algorithm: str,
    problem: Any,
    lam: Any,
    *,
    rounds: Any,
    local_steps: Any,
    step_size: Any,
    batch: Any,
    aggregation: Any,
    r_mode: Any,
    clients_per_round: Any,
    sampling: Any,
    init: Any,
    seed: Seed,
    replicates: Any,
    record: Any,
) -> GifairRun:
    info = _problem(problem)
    lam = _check_lambda(problem, info, lam)
    rounds = check_int("rounds", rounds, minimum=1)
    E = check_int("local_steps", local_steps, minimum=1)
    table, step_record = _step_table(step_size, rounds, E)
    batch = check_int("batch", batch, minimum=1)
    if batch > int(info.counts.min()):
        raise ParameterError(
            parameter="batch", value=batch, rule=f"must be at most min n_k = {info.counts.min()}"
        )
    aggregation = _choice("aggregation", aggregation, AGGREGATIONS)
    r_mode = _choice("r_mode", r_mode, R_MODES)
    sampling = _choice("sampling", sampling, SAMPLINGS)
    m = info.clients
    per_round = None
    if clients_per_round is not None:
        per_round = check_int("clients_per_round", clients_per_round, minimum=1)
        if per_round > m:
            raise ParameterError(
                parameter="clients_per_round", value=per_round, rule=f"must be at most K = {m}"
            )
    if replicates is not None:
        replicates = check_int("replicates", replicates, minimum=1)
    if not isinstance(record, bool | np.bool_):
        raise ParameterError(parameter="record", value=record, rule="must be True or False")
    start = _init(init, info.dimension)
    schedule = _randomness(seed, replicates, info, rounds, per_round, sampling)
    reps, n, groups = schedule.streams.size, info.dimension, info.group_sizes.size

    scales = np.ones((reps, m))  # shared: FairAggregation writes, LocalSGD reads
    client = LocalSGD(
        work=np.full(rounds, E, dtype=np.int64),
        epochs=False,
        batch=int(batch),
        steps=kernel_array(table),
        scales=scales,
        lam=0.0,
        radius=np.inf,
        warm_start=False,
        receives_server_model=True,
        seeds=schedule.streams,
    )
    weighted = aggregation == "weighted" and not (
        per_round is not None and sampling == "p_with_replacement"
    )
    inner: Any = (
        ServerStep(np.ones(rounds), np.tile(info.weights, (reps, 1)), False, np.inf)
        if weighted
        else ModelAverage()
    )
    init_server = np.ascontiguousarray(np.broadcast_to(start, (reps, n)))
    server = FairAggregation(
        aggregation=inner,
        lam=lam,
        stale=r_mode == "stale",
        labels=info.labels,
        group_sizes=info.group_sizes,
        weights=info.weights,
        scales=scales,
        init=init_server,
        listeners=schedule.trainer_counts,
        reported=np.full((reps, rounds + 1, m), np.nan),
        group_losses=np.full((reps, rounds + 1, groups), np.nan),
        ranks=np.full((reps, rounds + 1, groups), np.nan),
    )
    with np.errstate(all="ignore"):
        global_model, local_models, counts, sizes, global_its, local_its = _round_loop(
            info.view,
            client,
            server,
            schedule.trainers,
            schedule.trainer_counts,
            schedule.uploaders,
            schedule.uploader_counts,
            np.ones(rounds, dtype=np.bool_),
            init_server,
            np.ascontiguousarray(np.broadcast_to(start, (reps, m, n))),
            bool(record),
        )
    worst = sizes.max(axis=0)
    if not np.all(np.isfinite(worst)):
        bad = int(np.argmax(~np.isfinite(worst)))
        replicate = int(np.argmax(~np.isfinite(sizes[:, bad])))
        where = f"replicate {replicate}; " if replicates is not None else ""
        check_finite_trace(
            algorithm,
            (worst,),
            hint=f"{where}the squared norms of the models are not finite (is η·max_k c_k too "
            "large for the losses' smoothness?)",
        )
    sampled = np.zeros((reps, m), dtype=bool)
    for r in range(reps):
        for t in range(rounds):
            sampled[r, schedule.trainers[r, t, : schedule.trainer_counts[r, t]]] = True
    if algorithm == "gifair_per":  # never sampled: the global model θ̄_C (our assumption)
        local_models = np.where(sampled[:, :, None], local_models, global_model[:, None, :])
    multipliers = 1.0 + lam * server.ranks[:, :, info.labels] / (
        info.weights * info.group_sizes[info.labels]
    )
    L = server.group_losses
    spread = 0.5 * np.abs(L[..., :, None] - L[..., None, :]).sum(axis=(-2, -1))
    losses = (
        server.reported[:, 1:] @ info.weights + lam * spread[:, 1:]
        if r_mode == "exact"
        else np.full((reps, rounds), np.nan)
    )
    batched = replicates is not None

    def shaped(array: np.ndarray) -> np.ndarray:
        return readonly(array if batched else array[0], None, copy=False)

    log = FairnessLog(
        reported=shaped(server.reported),
        group_losses=shaped(server.group_losses),
        ranks=shaped(server.ranks),
        multipliers=shaped(multipliers),
    )
    return GifairRun(
        algorithm=algorithm,
        global_model=shaped(global_model),
        local_models=shaped(np.ascontiguousarray(local_models)),
        sampled=shaped(sampled),
        trace=Trace.from_counts(counts if batched else counts[0], losses if batched else losses[0]),
        log=log,
        global_iterates=shaped(global_its) if record else None,
        local_iterates=shaped(local_its) if record else None,
        hyperparameters={
            "lam": lam,
            "lambda_max": info.lambda_max,
            "rounds": rounds,
            "local_steps": E,
            "step_size": step_record,
            "batch": batch,
            "aggregation": aggregation,
            "r_mode": r_mode,
            "clients_per_round": per_round,
            "sampling": sampling if per_round is not None else None,
        },
        replicates=replicates,
    )


# ============================================================================== public API


def gifair_global(
    problem: Any,
    lam: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int = 1,
    aggregation: Aggregation = "weighted",
    r_mode: RMode = "exact",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> GifairRun:
    """GIFAIR-FL-Global, Algorithm 2 of Yue et al. [1]_: min_θ H(θ) = Σ_k p_k F_k(θ) + λR(θ).

    Each round the sampled clients run E local SGD steps from θ̄ with the step of client k
    scaled by c_k = 1 + λ r_k/(p_k|𝒜_{s_k}|) (r_k frozen in the round, Remark 3.6); the server
    aggregates, collects the clients' losses (``r_mode``) and sets the next r. Away from ties
    Σ_k p_k c_k ∇F_k = ∇H (Lemma 3.2), so with E = 1, full participation and exact r this is
    SGD on H.

    Parameters
    ----------
    problem
        A ``GroupedQuadratics`` or ``GroupedClassification``
        (:mod:`fedtheory.papers.gifair.problems`); its ``groups`` give s_k and p_k.
    lam
        λ ∈ [0, λ_max), λ_max = min_k p_k|𝒜_{s_k}|/(d − 1) (weights stay positive).
    rounds
        Communication rounds C ≥ 1.
    local_steps
        E ≥ 1 local SGD steps per round (steps, as in the theory).
    step_size
        η > 0, :func:`decaying_steps`, :func:`sqrt_steps` or a callable t ↦ η^(t) over the
        global steps t = cE + k.
    batch
        Minibatch size (distinct samples per step, drawn without replacement), at most min n_k.
    aggregation
        ``"weighted"`` (default, the objective (1)) or ``"uniform"`` (the printed mean); see the
        module docstring for how it combines with ``sampling``.
    r_mode
        ``"exact"`` (default: r from F_k(θ̄_c) of every client, §3.3) or ``"stale"``
        (Algorithm 2 as printed: the uploaders' losses at their local end-of-round models).
    clients_per_round
        None (every client, every round) or S in [1, K].
    sampling
        ``"p_with_replacement"`` (S i.i.d. draws from p, the theory) or ``"uniform"`` (S
        clients without replacement).
    init
        θ_0, shape (n,); default 0.
    seed
        Integer or :class:`numpy.random.SeedSequence` (or one per replicate).
    replicates
        None (one run) or R: a batch of R runs with spawned seeds, in one kernel call.
    record
        Keep θ̄_c and the local models after every round.

    Returns
    -------
    GifairRun
        ``global_model`` = θ̄_C; ``local_models`` the clients' last local iterates.

    Raises
    ------
    ParameterError
        On any invalid input, λ outside [0, λ_max) with λ_max stated.
    DivergenceError
        If an iterate is not finite.
    """
    return _run(
        "gifair_global",
        problem,
        lam,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        r_mode=r_mode,
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


def gifair_per(
    problem: Any,
    lam: float,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int = 1,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> GifairRun:
    """GIFAIR-FL-Per, Algorithm 3 of Yue et al. [1]_ (personalised models, eq. (4)–(5)).

    As printed it trains exactly as Algorithm 2 with stale r (guide §2.3): r from the losses
    L_i({θ_k}) at the clients' latest local models, which are the end-of-round iterates of the
    last round each client trained in. So the θ̄ sequence is :func:`gifair_global`'s with
    ``r_mode="stale"``, bit for bit (V11). The output is the personalised θ_k = the client's
    last local iterate (E reweighted local steps from the global model); a client never
    sampled gets θ̄_C — our assumption, the paper leaves its θ_k undefined. Algorithm 3 is
    printed with full gradients: pass ``batch = n_k`` for equal client sizes.

    Parameters
    ----------
    problem, lam, rounds, local_steps, step_size, batch, aggregation, clients_per_round, \
sampling, init, seed, replicates, record
        As in :func:`gifair_global` (r is always the stale one).

    Returns
    -------
    GifairRun
        ``local_models`` = the personalised θ_k, ``global_model`` = θ̄_C.
    """
    return _run(
        "gifair_per",
        problem,
        lam,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        r_mode="stale",
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )


def fedavg_printed(
    problem: Any,
    *,
    rounds: int,
    local_steps: int,
    step_size: StepSize,
    batch: int = 1,
    aggregation: Aggregation = "weighted",
    clients_per_round: int | None = None,
    sampling: Sampling = "p_with_replacement",
    init: np.ndarray | None = None,
    seed: Seed,
    replicates: int | None = None,
    record: bool = False,
) -> GifairRun:
    """FedAvg, Algorithm 1 of Yue et al. [1]_: GIFAIR-FL-Global with λ = 0.

    Every multiplier is exactly 1; the clients still report F_k(θ̄_c) (the log and the trace's
    losses F(θ̄_c) are the fairness diagnostics of the baseline). ``aggregation="uniform"``
    with full participation is the printed (1/K) Σ_k θ_k.

    Parameters
    ----------
    problem, rounds, local_steps, step_size, batch, aggregation, clients_per_round, sampling, \
init, seed, replicates, record
        As in :func:`gifair_global`.

    Returns
    -------
    GifairRun
        ``global_model`` = θ̄_C.
    """
    return _run(
        "fedavg_printed",
        problem,
        0.0,
        rounds=rounds,
        local_steps=local_steps,
        step_size=step_size,
        batch=batch,
        aggregation=aggregation,
        r_mode="exact",
        clients_per_round=clients_per_round,
        sampling=sampling,
        init=init,
        seed=seed,
        replicates=replicates,
        record=record,
    )
