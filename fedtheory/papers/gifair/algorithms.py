"""GIFAIR-FL-Global, GIFAIR-FL-Per and FedAvg as printed, on the core round loop (guide §2).

Yue, Nouiehed & Al Kontar, *GIFAIR-FL* [1]_ (the ``gifair`` seed). Every algorithm is the core
client step :class:`~fedtheory.algorithms.client_steps.LocalSGD` (E local minibatch steps from the
global model, the step of client k scaled by its multiplier c_k) composed with the server step
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
  (Li et al.'s scheme I [2]_, unbiased for Σ p_k θ_k) — with either ``aggregation``;
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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array
from fedtheory._checks import check_real
from fedtheory._seeds import Seed
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.gifair._inputs import (
    AGGREGATIONS,
    SAMPLINGS,
    _averaging,
    _choice,
    _local_sgd,
    _loop,
    _Problem,
    _settings,
    _shaped,
)
from fedtheory.papers.gifair._inputs import _problem as _shared_problem
from fedtheory.papers.gifair.problems import GroupedClassification, GroupedQuadratics
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

Aggregation = Literal["weighted", "uniform"]
RMode = Literal["stale", "exact"]
Sampling = Literal["p_with_replacement", "uniform"]
StepSize = float | Callable[[np.ndarray], np.ndarray]
Problem = GroupedQuadratics | GroupedClassification


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


# ============================================================================== inputs


def _problem(problem: Problem) -> _Problem:
    """The shared problem view; GIFAIR-FL also needs every p_k > 0."""
    info = _shared_problem(problem)
    if np.any(problem.groups.p == 0):
        raise ParameterError(
            parameter="groups.p",
            value=problem.groups.p.tolist(),
            rule="GIFAIR-FL's multipliers c_k = 1 + λr_k/(p_k|𝒜_(s_k)|) need every p_k > 0",
        )
    return info


# ============================================================================== the runner


def _run(algorithm: str, problem: Any, lam: Any, *, r_mode: Any, **settings: Any) -> GifairRun:
    """Check (λ, r mode, then the shared inputs: :func:`._inputs._settings`), draw, run."""
    info = _problem(problem)
    lam = info.groups.check_lambda(lam)
    r_mode = _choice("r_mode", r_mode, R_MODES)
    s = _settings(info, **settings)
    rounds, E, batch, per_round = s.rounds, s.local_steps, s.batch, s.per_round
    m, start, replicates, record = info.clients, s.init, s.replicates, s.record
    schedule = s.schedule
    reps, n = schedule.streams.size, info.dimension
    groups = info.groups
    labels = kernel_array(groups.labels, np.int64)
    p = kernel_array(groups.p)

    scales = np.ones((reps, m))  # shared: FairAggregation writes, LocalSGD reads
    client = _local_sgd(rounds, E, batch, s.table, scales, schedule.streams)
    inner = _averaging(s.aggregation, per_round, s.sampling, p, reps, rounds)
    init_server = kernel_array(np.broadcast_to(start, (reps, n)))  # writable: one type
    server = FairAggregation(
        aggregation=inner,
        lam=lam,
        stale=r_mode == "stale",
        labels=labels,
        group_sizes=kernel_array(groups.group_sizes),
        weights=p,
        scales=scales,
        init=init_server,
        listeners=schedule.trainer_counts,
        reported=np.full((reps, rounds + 1, m), np.nan),
        group_losses=np.full((reps, rounds + 1, groups.num_groups), np.nan),
        ranks=np.full((reps, rounds + 1, groups.num_groups), np.nan),
    )
    global_model, local_models, counts, _, global_its, local_its = _loop(
        algorithm,
        info,
        client,
        server,
        schedule,
        start,
        record,
        batched=replicates is not None,
        hint="the squared norms of the models are not finite (is η·max_k c_k too large for "
        "the losses' smoothness?)",
    )
    listed = np.arange(m) < schedule.trainer_counts[..., None]  # the trainers of each row
    sampled = np.zeros((reps, m + 1), dtype=bool)  # column m: the padding of the lists
    for r in range(reps):
        sampled[r, np.where(listed[r], schedule.trainers[r], m)] = True
    sampled = sampled[:, :m]
    if algorithm == "gifair_per":  # never sampled: the global model θ̄_C (our assumption)
        local_models = np.where(sampled[:, :, None], local_models, global_model[:, None, :])
    # c_k of the logged ranks (the kernel wrote the same values into ``scales``, Alg. 2)
    multipliers = 1.0 + lam * server.ranks[:, :, labels] / (p * groups.client_group_sizes)
    losses = (  # H(θ̄_c) = Σ_k p_k F_k + λR (eq. (1)) from the exact reports
        np.asarray(groups.objective(lam, server.reported[:, 1:]))
        if r_mode == "exact"
        else np.full((reps, rounds), np.nan)
    )
    batched = replicates is not None

    def shaped(array: np.ndarray) -> np.ndarray:
        return _shaped(array, batched)

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
            "lambda_max": groups.lambda_max,
            **s.hyperparameters,
            "r_mode": r_mode,
        },
        replicates=replicates,
    )


# ============================================================================== public API


def gifair_global(
    problem: Problem,
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
    """GIFAIR-FL-Global, Algorithm 2 of Yue et al.: min_θ H(θ) = Σ_k p_k F_k(θ) + λR(θ).

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
    problem: Problem,
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
    """GIFAIR-FL-Per, Algorithm 3 of Yue et al. (personalised models, eq. (4)–(5)).

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
    problem: Problem,
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
    """FedAvg, Algorithm 1 of Yue et al.: GIFAIR-FL-Global with λ = 0.

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
