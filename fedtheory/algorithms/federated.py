"""FedAvg, FedProx, fine-tuning and local training: thin definitions over the round loop.

The algorithms of Chen, Zheng, Long & Su, *Minimax Estimation for Personalized Federated
Learning* [1]_ (the ``minimax`` seed; reading guide §2), each a choice of client step and
server step for the one federated round loop (:mod:`fedtheory.algorithms._round_loop`):

==================  =======================================================  ======================
algorithm           client step (:mod:`~fedtheory.algorithms.client_steps`)  server step
==================  =======================================================  ======================
:func:`fedavg`      :class:`LocalSGD` from w^g                               :class:`ServerStep`
:func:`fedprox`     :class:`LocalSGD` warm-started, proximal pull λ          :class:`ServerStep`
                    (SoftLocalSGD)                                           (s_t = λη_t^g)
:func:`fine_tune`   :class:`LocalSGD` from a given model                     none (one local stage)
:func:`local_sgd`   :class:`LocalSGD` from a common start                    none (one local stage)
==================  =======================================================  ======================

- :func:`fedavg`: FedAvg [2]_, Algorithm 1, in the p-weighted form for the objective (8);
- :func:`fedprox`: FedProx, Algorithm 2 (joint training, then a final local stage), with the
  participation branch corrected by default (``participation="printed"`` runs the literal one);
- :func:`fine_tune`: local SGD from a global model (FedAvg + fine-tuning, §3.3, App. D);
- :func:`local_sgd`: pure local training by SGD (the algorithmic PureLocalTraining of App. D).

A run has T communication rounds and a final row: every client receives w_T^g (FedAvg's output)
or runs a final local stage (FedProx Stage II, fine-tuning, local training). These wrappers
validate the inputs, own the randomness (participation masks and one stream seed per
replicate), and raise :class:`~fedtheory.errors.DivergenceError` on non-finite iterates; the
run's :class:`~fedtheory.algorithms.trace.Trace` has the T + 1 rows, counted by the steps.

``data`` is a :class:`~fedtheory.problems.dataset.FederatedDataset` or a sequence of them with
identical shapes (a batch of replicates, run in one kernel call): the outputs then gain a leading
replicate axis, and replicate ``r`` equals the run on ``data[r]`` alone with seed
``numpy.random.SeedSequence(seed, spawn_key=(r,))`` (or ``seed[r]`` when a sequence of seeds is
given).

References
----------
.. [1] S. Chen, Q. Zheng, Q. Long & W. J. Su, Minimax estimation for personalized federated
   learning: an alternative between FedAvg and local training?, arXiv:2103.01901; Algorithms
   1 and 2, Theorem 11 (step sizes (26), (27)), Appendix D (experiment settings).
.. [2] B. McMahan, E. Moore, D. Ramage, S. Hampson & B. Agüera y Arcas (2017),
   Communication-efficient learning of deep networks from decentralized data, AISTATS.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real
from fedtheory._seeds import Seed
from fedtheory.algorithms._federated_inputs import (
    _check_batch,
    _check_record,
    _clients_per_round,
    _Data,
    _local_work,
    _max_iterations,
    _model,
    _randomness,
    _server_sequence,
    _stack,
    _step_sequence,
    _weights,
)
from fedtheory.algorithms._round_loop import _round_loop
from fedtheory.algorithms.client_steps import LocalSGD
from fedtheory.algorithms.server_steps import ServerStep
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.problems.dataset import FederatedDataset

__all__ = [
    "FederatedRun",
    "fedavg",
    "fedprox",
    "fine_tune",
    "local_sgd",
    "local_sgd_rounds",
]

Participation = Literal["corrected", "printed"]


@dataclass(frozen=True, eq=False)
class FederatedRun:
    """Result of :func:`fedavg`, :func:`fedprox`, :func:`fine_tune` or :func:`local_sgd`.

    Attributes
    ----------
    algorithm : str
        ``"fedavg"``, ``"fedprox"``, ``"fine_tune"`` or ``"local_sgd"``.
    global_model : numpy.ndarray
        w_T^g, shape ``(d,)`` (``(R, d)`` for R replicates). For :func:`fine_tune` the model the
        clients started from; for :func:`local_sgd` (no server) the common initialisation.
    local_models : numpy.ndarray
        The personalised models ŵ^(i), shape ``(m, d)`` (``(R, m, d)``). For FedAvg every client
        gets w_T^g (Algorithm 1's output).
    trace : Trace
        Rows 0, …, T − 1 are the communication rounds, row T the final row (FedAvg: every client
        receives w_T^g; FedProx Stage II, fine-tuning, local training: the local stage). Floats
        down: d per client that receives w^g; floats up: d per client whose model the server
        aggregates. ``losses`` are evaluated with ``record=True`` (the objective after each row:
        Σ p_i L_i(w^g) for FedAvg, the objective (20) for FedProx, Σ p_i L_i(ŵ^(i)) for the local
        stages), NaN otherwise.
    global_iterates : numpy.ndarray or None
        With ``record=True``: w_t^g for t = 0, …, T, shape ``(T + 1, d)`` (``(R, T + 1, d)``).
    local_iterates : numpy.ndarray or None
        With ``record=True``: the local models w_t^(i) after round t (t = 0: the start), shape
        ``(T + 1, m, d)`` (``(R, T + 1, m, d)``); clients that did not train keep their model.
    hyperparameters : dict[str, Any]
        The settings of the run (plain data: numbers, strings and tuples).
    replicates : int or None
        R for a batch of replicates, None for one dataset.
    """

    algorithm: str
    global_model: np.ndarray
    local_models: np.ndarray
    trace: Trace
    global_iterates: np.ndarray | None
    local_iterates: np.ndarray | None
    hyperparameters: dict[str, Any]
    replicates: int | None = None

    @property
    def rounds(self) -> int:
        """Number of communication rounds T."""
        return self.trace.rows - 1

    def replicate(self, index: int) -> FederatedRun:
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
            return None if array is None else readonly(array[index], None, copy=False)

        return replace(
            self,
            global_model=readonly(self.global_model[index], None, copy=False),
            local_models=readonly(self.local_models[index], None, copy=False),
            trace=self.trace.replicate(index),
            global_iterates=pick(self.global_iterates),
            local_iterates=pick(self.local_iterates),
            replicates=None,
        )


# --------------------------------------------------------------------------- the one entry


class _Participation(NamedTuple):
    """Who trains and whose model the server aggregates, row by row (the loop's schedule)."""

    trainers: np.ndarray
    trainer_counts: np.ndarray
    uploaders: np.ndarray
    uploader_counts: np.ndarray
    aggregate: np.ndarray


def _schedule(masks: np.ndarray, train_sampled: bool) -> _Participation:
    """Rows 0..T−1: the sampled clients C_t (or, for the printed branch of Algorithm 2, the
    others) train and C_t is aggregated, in increasing client order; row T: every client takes
    part and nothing is aggregated."""
    reps, rounds, m = masks.shape

    def listed(chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The chosen clients of every (replicate, row) first, in increasing order (a stable
        sort of "not chosen"), then the rest; and how many were chosen."""
        order = np.argsort(~chosen, axis=-1, kind="stable").astype(np.int64)
        return order, chosen.sum(axis=-1).astype(np.int64)

    every = np.ones((reps, 1, m), dtype=np.bool_)
    trainers, trainer_counts = listed(np.concatenate([masks == train_sampled, every], axis=1))
    none = np.zeros((reps, 1, m), dtype=np.bool_)
    uploaders, uploader_counts = listed(np.concatenate([masks, none], axis=1))
    aggregate = np.ones(rounds + 1, dtype=np.bool_)
    aggregate[rounds] = False
    return _Participation(trainers, trainer_counts, uploaders, uploader_counts, aggregate)


def _losses(
    algorithm: str,
    data: _Data,
    weights: np.ndarray,
    lam: float,
    global_iterates: np.ndarray,
    local_iterates: np.ndarray,
    local_models: np.ndarray,
) -> np.ndarray:
    """The objective after every row (``record=True``), shape (R, T + 1)."""
    reps, kept = global_iterates.shape[:2]
    out = np.empty((reps, kept))
    for r, dataset in enumerate(data.datasets):
        p = weights[r]
        for t in range(kept):
            final = t == kept - 1
            wg = global_iterates[r, t + 1] if not final else global_iterates[r, -1]
            models = local_models[r] if final else local_iterates[r, t + 1]
            if algorithm == "fedavg":
                out[r, t] = float(p @ dataset.empirical_risk(wg))
            elif algorithm == "fedprox":
                pull = 0.5 * lam * np.sum((models - wg) ** 2, axis=1)
                out[r, t] = float(p @ (dataset.empirical_risk(models) + pull))
            else:
                out[r, t] = float(p @ dataset.empirical_risk(models))
    return out


def local_sgd_rounds(
    samples: Any,
    *,
    radius: float,
    weights: np.ndarray,
    masks: np.ndarray,
    work: np.ndarray,
    epochs: bool,
    batch: int,
    local_steps: np.ndarray,
    server_steps: np.ndarray,
    lam: float,
    persistent: bool,
    train_sampled: bool,
    project_global: bool,
    final_download: bool,
    init_global: np.ndarray,
    init_local: np.ndarray,
    seeds: np.ndarray,
    record: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Algorithms 1 and 2 as the round loop with :class:`LocalSGD` and :class:`ServerStep`.

    The engine of :func:`fedavg` and :func:`fedprox`, public for problems that bring their own
    kernel view of the sample oracle (``samples``: any view of
    :mod:`fedtheory.problems._oracle`, e.g. a paper's network) instead of a
    :class:`~fedtheory.problems.FederatedDataset`: the caller then validates its inputs and
    owns the randomness as :func:`fedavg` does. Arrays are taken as given (no checks).

    ``masks`` (R, T, m) are the sampled clients C_t; ``work`` has T + 1 entries (the last for
    the final row); ``local_steps`` is ``(L,)`` (η_k by local iteration, every row) or
    ``(S, L)`` (row t uses row min(t, S − 1)); ``server_steps`` T entries; the local steps are
    not scaled (:class:`LocalSGD` ``scales`` of ones). Returns the loop's outputs (see
    :func:`~fedtheory.algorithms._round_loop._round_loop`).
    """
    client_step = LocalSGD(
        work=kernel_array(work, np.int64),
        epochs=bool(epochs),
        batch=int(batch),
        steps=kernel_array(np.atleast_2d(local_steps)),
        scales=kernel_array(np.ones(np.shape(weights))),
        lam=float(lam),
        radius=float(radius),
        warm_start=bool(persistent),
        receives_server_model=bool(final_download),
        seeds=kernel_array(seeds, np.uint64),
    )
    server_step = ServerStep(
        steps=kernel_array(np.append(server_steps, 0.0)),
        weights=kernel_array(weights),
        project=bool(project_global),
        radius=float(radius),
    )
    # errstate: with NUMBA_DISABLE_JIT the kernel runs on numpy scalars, which warn on overflow
    # (wrapping uint64 arithmetic is intended); compiled or not, a diverging run must reach
    # the divergence check of the caller.
    with np.errstate(all="ignore"):
        return _round_loop(
            samples,
            client_step,
            server_step,
            *_schedule(masks, train_sampled),
            kernel_array(init_global),
            kernel_array(init_local),
            bool(record),
        )


def _run(
    algorithm: str,
    data: _Data,
    *,
    work: np.ndarray,
    epochs: bool,
    batch: int,
    local_steps: np.ndarray,
    server_steps: np.ndarray,
    lam: float,
    weights: np.ndarray,
    clients_per_round: int,
    persistent: bool,
    train_sampled: bool,
    project_global: bool,
    final_download: bool,
    init_global: np.ndarray,
    init_local: np.ndarray,
    seed: Any,
    record: bool,
    hyperparameters: dict[str, Any],
) -> FederatedRun:
    rounds = work.shape[0] - 1
    seeds, masks = _randomness(seed, data, rounds, clients_per_round)
    out = local_sgd_rounds(
        data.samples,
        radius=data.radius,
        weights=weights,
        masks=masks,
        work=work,
        epochs=epochs,
        batch=batch,
        local_steps=local_steps,
        server_steps=server_steps,
        lam=lam,
        persistent=persistent,
        train_sampled=train_sampled,
        project_global=project_global,
        final_download=final_download,
        init_global=init_global,
        init_local=init_local,
        seeds=seeds,
        record=record,
    )
    global_model, local_models, counts, sizes, global_its, local_its = out
    worst = sizes.max(axis=0)
    if not np.all(np.isfinite(worst)):
        bad_round = int(np.argmax(~np.isfinite(worst)))
        replicate = int(np.argmax(~np.isfinite(sizes[:, bad_round])))
        where = f"replicate {replicate}; " if data.batched else ""
        check_finite_trace(
            algorithm,
            (worst,),
            hint=f"{where}the squared norms of the models are not finite "
            "(is the local or server step too large for the loss's smoothness?)",
        )
    losses = (
        _losses(algorithm, data, weights, lam, global_its, local_its, local_models)
        if record
        else None
    )

    def squeeze(array: np.ndarray) -> np.ndarray:
        return readonly(array if data.batched else array[0], None, copy=False)

    trace = Trace.from_counts(
        counts if data.batched else counts[0],
        None if losses is None else (losses if data.batched else losses[0]),
    )
    hyperparameters = {
        **hyperparameters,
        "loss": data.loss,
        "radius": data.radius,
        "unit": "epochs" if epochs else "steps",
        "batch": batch,
    }
    return FederatedRun(
        algorithm=algorithm,
        global_model=squeeze(global_model),
        local_models=squeeze(local_models),
        trace=trace,
        global_iterates=squeeze(global_its) if record else None,
        local_iterates=squeeze(local_its) if record else None,
        hyperparameters=hyperparameters,
        replicates=data.reps if data.batched else None,
    )


# --------------------------------------------------------------------------- public API


def fedavg(
    data: FederatedDataset | Sequence[FederatedDataset],
    *,
    rounds: int,
    local_epochs: int | Sequence[int] | None = None,
    local_steps: int | Sequence[int] | None = None,
    local_step: float | Sequence[float],
    server_step: float | Sequence[float] = 1.0,
    batch: int,
    weights: np.ndarray | Sequence[float] | None = None,
    clients_per_round: int | None = None,
    init: np.ndarray | None = None,
    seed: Seed | Sequence[Seed],
    record: bool = False,
) -> FederatedRun:
    """FedAvg with local minibatch SGD: Algorithm 1 of Chen et al. (McMahan et al. 2017).

    For t = 0, …, T − 1: sample C_t (``clients_per_round`` clients, uniformly without
    replacement; all clients by default, as in App. D); every i ∈ C_t runs K_t units of
    minibatch SGD on L_i(·, S_i) from w_t^g; then::

        w_{t+1}^g = w_t^g − η_t (m/|C_t|) Σ_{i∈C_t} p_i (w_t^g − w_{t+1}^(i)).

    This is the p-weighted form for the objective (8) (reading guide §2.2); Algorithm 1 as
    printed is the case p_i = n_i/N, the default. With η_t = 1 and full participation the
    update is the average Σ p_i w_{t+1}^(i). Every client outputs ŵ^(i) = w_T^g.

    App. D settings: ``rounds=20, local_epochs=5, local_step=0.2, server_step=0.8,
    batch=16``. With constant steps and K > 1 local steps FedAvg does not converge to the ERM
    of (8) when the clients' Hessians differ (client drift; guide V13): the theorems are about
    the ERM, not about this algorithm. Departure: the local iterates are projected onto 𝒲
    when ``data.radius`` is finite (Algorithm 1 has no projection).

    Parameters
    ----------
    data
        A :class:`FederatedDataset`, or a sequence of them with identical shapes (replicates).
    rounds
        Communication rounds T ≥ 0.
    local_epochs, local_steps
        Exactly one: local work per round, in epochs (passes over S_i in minibatches, the last
        one partial, reshuffled every pass) or in steps (minibatches of exactly ``batch``
        distinct samples); an integer K ≥ 0 or one value per round (length T).
    local_step
        Local step η > 0, or a sequence η_0, η_1, … indexed by the local iteration k within a
        round (k restarts every round; at least as long as the longest round).
    server_step
        Server step η_t > 0, constant or one per round (App. D: 0.8).
    batch
        Minibatch size B, 1 ≤ B ≤ min n_i.
    weights
        Client weights p on the simplex; default n_i/N.
    clients_per_round
        ``|C_t|`` in [1, m]; default m (full participation).
    init
        w_0^g, shape (d,) (or (R, d) per replicate); default 0.
    seed
        Integer or :class:`numpy.random.SeedSequence` (or one per replicate).
    record
        Keep w_t^g and the local models after every round.

    Returns
    -------
    FederatedRun
        ``global_model`` = w_T^g, ``local_models`` = w_T^g for every client.

    Raises
    ------
    ParameterError
        On any invalid input (the message names the parameter, the value and the rule).
    DivergenceError
        If an iterate is not finite (a step too large for the loss).

    Examples
    --------
    >>> z = np.array([[[0.0], [2.0]], [[4.0], [6.0]]])          # two clients, mean loss
    >>> data = FederatedDataset(z, np.zeros((2, 2)), [2, 2], "mean")
    >>> run = fedavg(data, rounds=1, local_steps=1, local_step=0.5, batch=2, seed=0)
    >>> run.global_model.round(12).tolist()    # one GD step: 0 − 0.5·(0 − 3)
    [1.5]
    """
    stacked = _stack(data)
    rounds = check_int("rounds", rounds, minimum=0)
    work, epochs = _local_work(local_epochs, local_steps, rounds, sequences=True)
    work = np.append(work, 0).astype(np.int64)
    batch = _check_batch(batch, stacked)
    steps, step_record = _step_sequence(
        "local_step", local_step, _max_iterations(work, epochs, batch, stacked.counts)
    )
    server = _server_sequence("server_step", server_step, rounds)
    p = _weights(weights, stacked)
    per_round = _clients_per_round(clients_per_round, stacked.m)
    init_global = _model("init", init, stacked, (stacked.d,))
    return _run(
        "fedavg",
        stacked,
        work=work,
        epochs=epochs,
        batch=batch,
        local_steps=steps,
        server_steps=server,
        lam=0.0,
        weights=p,
        clients_per_round=per_round,
        persistent=False,
        train_sampled=True,
        project_global=False,
        final_download=True,
        init_global=init_global,
        init_local=np.ascontiguousarray(
            np.broadcast_to(init_global[:, None, :], (stacked.reps, stacked.m, stacked.d))
        ),
        seed=seed,
        record=_check_record(record),
        hyperparameters={
            "rounds": rounds,
            "local_work": tuple(int(k) for k in work[:-1]),
            "local_step": step_record,
            "server_step": tuple(float(s) for s in server),
            "weights": "n_i/N" if weights is None else tuple(float(v) for v in p[0]),
            "clients_per_round": per_round,
        },
    )


def _final_stage(
    algorithm: str,
    data: FederatedDataset | Sequence[FederatedDataset],
    *,
    start: Any,
    start_name: str,
    local_epochs: Any,
    local_steps: Any,
    local_step: Any,
    batch: Any,
    seed: Any,
    download: bool,
) -> FederatedRun:
    """Local training only (T = 0): every client runs K units of SGD from ``start``."""
    stacked = _stack(data)
    work, epochs = _local_work(local_epochs, local_steps, 1, sequences=False)
    batch = _check_batch(batch, stacked)
    steps, step_record = _step_sequence(
        "local_step", local_step, _max_iterations(work, epochs, batch, stacked.counts)
    )
    init = _model(start_name, start, stacked, (stacked.d,))
    return _run(
        algorithm,
        stacked,
        work=work,
        epochs=epochs,
        batch=batch,
        local_steps=steps,
        server_steps=np.zeros(0),
        lam=0.0,
        weights=_weights(None, stacked),
        clients_per_round=stacked.m,
        persistent=False,
        train_sampled=True,
        project_global=False,
        final_download=download,
        init_global=init,
        init_local=np.ascontiguousarray(
            np.broadcast_to(init[:, None, :], (stacked.reps, stacked.m, stacked.d))
        ),
        seed=seed,
        record=False,
        hyperparameters={"local_work": int(work[0]), "local_step": step_record},
    )


def fine_tune(
    data: FederatedDataset | Sequence[FederatedDataset],
    *,
    start: np.ndarray | FederatedRun,
    local_epochs: int | None = None,
    local_steps: int | None = None,
    local_step: float | Sequence[float],
    batch: int,
    seed: Seed | Sequence[Seed],
) -> FederatedRun:
    """FedAvg followed by local fine-tuning (Chen et al., §3.3 and App. D; guide §2.3).

    Every client runs K_ft units of minibatch SGD on its own L_i(·, S_i) starting from the
    global model ``start`` (typically ``fedavg(...)``'s w_T^g). Along this path the local model
    moves from the FedAvg solution (k = 0) to the local ERM (k → ∞); §3.3 shows that some point
    on it is minimax optimal, at a stopping time that depends on R. App. D: 15 epochs at step
    0.2, batch 16.

    Parameters
    ----------
    data
        The clients' data (or replicates).
    start
        The global model, shape (d,) (or (R, d)), or a :class:`FederatedRun` whose
        ``global_model`` is used.
    local_epochs, local_steps
        Exactly one: K_ft ≥ 0, in epochs or steps (see :func:`fedavg`).
    local_step
        η > 0 or a sequence η_0, η_1, … over the local iterations.
    batch
        Minibatch size, 1 ≤ B ≤ min n_i.
    seed
        Integer or SeedSequence (or one per replicate).

    Returns
    -------
    FederatedRun
        ``local_models`` are the fine-tuned models; ``global_model`` is ``start``. The trace
        has the single final stage (T = 0); the FedAvg rounds are in the FedAvg run.
    """
    if isinstance(start, FederatedRun):
        start = start.global_model
    return _final_stage(
        "fine_tune",
        data,
        start=start,
        start_name="start",
        local_epochs=local_epochs,
        local_steps=local_steps,
        local_step=local_step,
        batch=batch,
        seed=seed,
        download=False,
    )


def local_sgd(
    data: FederatedDataset | Sequence[FederatedDataset],
    *,
    local_epochs: int | None = None,
    local_steps: int | None = None,
    local_step: float | Sequence[float],
    batch: int,
    init: np.ndarray | None = None,
    seed: Seed | Sequence[Seed],
) -> FederatedRun:
    """Pure local training by minibatch SGD (PureLocalTraining, eq. (3), as run in App. D).

    Every client minimises its own L_i(·, S_i) by K units of projected minibatch SGD from
    ``init``, with no communication. The theory (Theorem 4) is about the exact local ERM; with
    steps η_k = 1/(k + 1) on the mean loss, after whole epochs the iterate *is* the client mean
    (guide V13). App. D: 100 epochs at step 0.2, batch 16, initialisation unstated (0 here).

    Parameters
    ----------
    data
        The clients' data (or replicates).
    local_epochs, local_steps
        Exactly one: K ≥ 0, in epochs or steps (see :func:`fedavg`).
    local_step
        η > 0 or a sequence η_0, η_1, … over the local iterations.
    batch
        Minibatch size, 1 ≤ B ≤ min n_i.
    init
        Common start, shape (d,) (or (R, d)); default 0.
    seed
        Integer or SeedSequence (or one per replicate).

    Returns
    -------
    FederatedRun
        ``local_models`` are the trained models; ``global_model`` is the initialisation (there
        is no server).
    """
    return _final_stage(
        "local_sgd",
        data,
        start=init,
        start_name="init",
        local_epochs=local_epochs,
        local_steps=local_steps,
        local_step=local_step,
        batch=batch,
        seed=seed,
        download=False,
    )


def fedprox(
    data: FederatedDataset | Sequence[FederatedDataset],
    *,
    lam: float,
    rounds: int,
    local_epochs: int | Sequence[int] | None = None,
    local_steps: int | Sequence[int] | None = None,
    local_step: float | Sequence[float] | Literal["theory"],
    server_step: float | Sequence[float] | Literal["theory"],
    batch: int,
    weights: np.ndarray | Sequence[float] | None = None,
    clients_per_round: int | None = None,
    participation: Participation = "corrected",
    project_global: bool = True,
    mu: float | None = None,
    init_global: np.ndarray | None = None,
    init_local: np.ndarray | None = None,
    seed: Seed | Sequence[Seed],
    record: bool = False,
) -> FederatedRun:
    """FedProx for the personalised objective (20): Algorithm 2 of Chen et al.

    Objective (20): min over w^g, {w^(i)} ⊆ 𝒲 of Σ_i p_i [L_i(w^(i), S_i) + (λ/2)‖w^g − w^(i)‖²]
    (λ = 0: local training; λ → ∞: FedAvg). Stage I, t = 0, …, T − 1: sample C_t with
    ``|C_t|`` = B^g; every training client runs SoftLocalSGD — K_t units of
    w ← P_𝒲[w − η_{t,k}(ĝ + λ(w − w_t^g))] warm-started from its own w_t^(i) (local models
    persist across rounds) — the others keep w_t^(i); then

        w_{t+1}^g = P_𝒲[w_t^g − λ η_t^g (m/B^g) Σ_{i∈C_t} p_i (w_t^g − w_{t+1}^(i))].

    Stage II: every client runs K_T units of SoftLocalSGD from w_T^(i) towards w_T^g, and the
    output is the personalised models w_{T+1}^(i).

    Departures from the printed algorithm (reading guide §6, item 2): (a) the printed branch
    "if i ∈ C_t then keep w_t^(i), else train" is inverted — App. B's analysis has the
    *sampled* clients train, which is ``participation="corrected"`` (default);
    ``"printed"`` runs the literal branch (with full participation nothing trains in Stage I,
    an erratum the toolkit reproduces); (b) Algorithm 2 does not project w^g, although
    Lemma 18 assumes w^g ∈ 𝒲: ``project_global=True`` (default) projects it.

    Theory hyperparameters (Theorem 11, (26), (27)): ``local_step="theory"`` is
    η_{t,k} = 1/((μ + λ)(k + 1)) (k restarts every round) and ``server_step="theory"`` is
    η_t^g = 2(μ + λ)/(λμ(t + 1)); both need ``mu``. The server moves by λη_t^g, so the kernel
    uses s_t = λη_t^g = 2(μ + λ)/(μ(t + 1)), which stays finite at λ = 0. App. D:
    ``rounds=20, local_epochs=5, local_step=0.2, server_step=0.8, batch=16``, λ ∈ {0, 0.44, 4}.

    Parameters
    ----------
    data
        The clients' data (or replicates).
    lam
        Proximal weight λ ≥ 0.
    rounds
        Communication rounds T ≥ 0.
    local_epochs, local_steps
        Exactly one: K_t ≥ 0, an integer (every round and Stage II) or a sequence of T + 1
        values (K_0, …, K_{T−1}, then K_T for Stage II).
    local_step
        η > 0, a sequence over the local iterations k, or ``"theory"``.
    server_step
        η^g > 0, a sequence of T values, or ``"theory"``.
    batch
        Minibatch size, 1 ≤ B ≤ min n_i.
    weights
        Client weights p on the simplex; default n_i/N.
    clients_per_round
        B^g in [1, m]; default m.
    participation
        ``"corrected"`` (sampled clients train) or ``"printed"`` (the literal, inverted branch).
    project_global
        Project w^g onto 𝒲 after every server step (only matters for a finite radius).
    mu
        Strong-convexity modulus μ > 0, needed by the ``"theory"`` steps.
    init_global, init_local
        w_0^g (shape (d,)) and w_0^(i) (shape (m, d)); default 0 and copies of w_0^g.
    seed
        Integer or SeedSequence (or one per replicate).
    record
        Keep w_t^g and w_t^(i) after every round (for the optimisation checks, guide V12).

    Returns
    -------
    FederatedRun
        ``local_models`` = w_{T+1}^(i) (the personalised models), ``global_model`` = w_T^g.
    """
    stacked = _stack(data)
    lam = check_real("lam", lam, nonnegative=True)
    rounds = check_int("rounds", rounds, minimum=0)
    if participation not in ("corrected", "printed"):
        raise ParameterError(
            parameter="participation",
            value=participation,
            rule="must be 'corrected' (sampled clients train) or 'printed' (Algorithm 2 as "
            "printed: the others train)",
        )
    if not isinstance(project_global, bool | np.bool_):
        raise ParameterError(
            parameter="project_global", value=project_global, rule="must be True or False"
        )
    theory = "theory" in (
        local_step if isinstance(local_step, str) else None,
        server_step if isinstance(server_step, str) else None,
    )
    if mu is not None or theory:
        if mu is None:
            raise ParameterError(
                parameter="mu", value=None, rule="is needed by the 'theory' step sizes"
            )
        mu = check_real("mu", mu, positive=True)
    work, epochs = _local_work(local_epochs, local_steps, rounds + 1, sequences=True)
    batch = _check_batch(batch, stacked)
    needed = _max_iterations(work, epochs, batch, stacked.counts)
    if isinstance(local_step, str):
        if local_step != "theory":
            raise ParameterError(
                parameter="local_step",
                value=local_step,
                rule="must be a positive number, a sequence or 'theory'",
            )
        assert mu is not None
        steps = 1.0 / ((mu + lam) * np.arange(1, max(needed, 1) + 1))
        step_record: Any = "theory"
    else:
        steps, step_record = _step_sequence("local_step", local_step, needed)
    if isinstance(server_step, str):
        if server_step != "theory":
            raise ParameterError(
                parameter="server_step",
                value=server_step,
                rule="must be a positive number, a sequence or 'theory'",
            )
        assert mu is not None
        server = 2.0 * (mu + lam) / (mu * np.arange(1, rounds + 1))
        server_record: Any = "theory"
    else:
        eta = _server_sequence("server_step", server_step, rounds)
        server = lam * eta
        server_record = (
            float(server_step)
            if isinstance(server_step, numbers.Real)
            else tuple(float(v) for v in eta)
        )
    p = _weights(weights, stacked)
    per_round = _clients_per_round(clients_per_round, stacked.m)
    start_global = _model("init_global", init_global, stacked, (stacked.d,))
    if init_local is None:
        start_local = np.ascontiguousarray(
            np.broadcast_to(start_global[:, None, :], (stacked.reps, stacked.m, stacked.d))
        )
    else:
        start_local = _model("init_local", init_local, stacked, (stacked.m, stacked.d))
    return _run(
        "fedprox",
        stacked,
        work=work,
        epochs=epochs,
        batch=batch,
        local_steps=steps,
        server_steps=np.ascontiguousarray(server, dtype=np.float64),
        lam=lam,
        weights=p,
        clients_per_round=per_round,
        persistent=True,
        train_sampled=participation == "corrected",
        project_global=bool(project_global),
        final_download=True,
        init_global=start_global,
        init_local=start_local,
        seed=seed,
        record=_check_record(record),
        hyperparameters={
            "lam": lam,
            "rounds": rounds,
            "local_work": tuple(int(k) for k in work),
            "local_step": step_record,
            "server_step": server_record,
            "weights": "n_i/N" if weights is None else tuple(float(v) for v in p[0]),
            "clients_per_round": per_round,
            "participation": participation,
            "project_global": bool(project_global),
            "mu": mu,
        },
    )
