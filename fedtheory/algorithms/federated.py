"""FedAvg, FedProx, fine-tuning and local training: one round loop (DESIGN §3).

The algorithms of Chen, Zheng, Long & Su, *Minimax Estimation for Personalized Federated
Learning* (the ``minimax`` seed; reading guide §2):

- :func:`fedavg`: FedAvg, Algorithm 1, in the p-weighted form for the objective (8);
- :func:`fedprox`: FedProx, Algorithm 2 (joint training, then a final local stage), with the
  participation branch corrected by default (``participation="printed"`` runs the literal one);
- :func:`fine_tune`: local SGD from a global model (FedAvg + fine-tuning, §3.3, App. D);
- :func:`local_sgd`: pure local training by SGD (the algorithmic PureLocalTraining of App. D).

All four are thin wrappers around one numba kernel, the round loop
``_federated_rounds`` of :mod:`fedtheory.algorithms._federated_kernels`: a round lets the
training clients run local minibatch SGD (from the global model, or warm-started from their own
model for FedProx, with the proximal pull λ(w − w^g)), then the server moves
w^g ← w^g − s_t (m/|C_t|) Σ_{i∈C_t} p_i (w^g − w^(i)); a final local stage trains every client
once more. These wrappers validate the inputs, own the randomness (participation masks and one
stream seed per replicate), and raise :class:`~fedtheory.errors.DivergenceError` on non-finite
iterates.

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
from typing import Any, Literal

import numpy as np

from fedtheory._arrays import kernel_array, readonly
from fedtheory._checks import check_finite_trace, check_int, check_real, check_vector, check_weights
from fedtheory._seeds import Seed, generator
from fedtheory.algorithms._federated_kernels import _federated_rounds
from fedtheory.errors import ParameterError
from fedtheory.problems.dataset import LOSSES, FederatedDataset

__all__ = [
    "FederatedRun",
    "RoundTrace",
    "fedavg",
    "fedprox",
    "fine_tune",
    "local_sgd",
]

Participation = Literal["corrected", "printed"]


@dataclass(frozen=True, eq=False)
class RoundTrace:
    """What each round cost. Entry ``t < T`` is communication round t; entry ``T`` is the final
    local stage (FedProx Stage II, fine-tuning, local training; nothing for FedAvg).

    Arrays have shape ``(T + 1,)``, or ``(R, T + 1)`` for a batch of R replicates.

    Attributes
    ----------
    rounds : numpy.ndarray
        0, …, T, shape ``(T + 1,)``.
    participants : numpy.ndarray
        Clients that ran local training in the round.
    local_iterations : numpy.ndarray
        Local SGD iterations (minibatch steps), summed over clients.
    sample_gradients : numpy.ndarray
        Per-sample gradients ∇ℓ(w; z) evaluated, summed over clients.
    communication : numpy.ndarray
        Floats sent between server and clients: d per download of w^g by a training client
        and d per upload of a local model w^(i), i ∈ C_t; in the final stage, d per client
        when it downloads w_T^g (FedAvg's output, FedProx Stage II), else 0.
    """

    rounds: np.ndarray
    participants: np.ndarray
    local_iterations: np.ndarray
    sample_gradients: np.ndarray
    communication: np.ndarray


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
    trace : RoundTrace
        Per-round work and communication.
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
    trace: RoundTrace
    global_iterates: np.ndarray | None
    local_iterates: np.ndarray | None
    hyperparameters: dict[str, Any]
    replicates: int | None = None

    @property
    def rounds(self) -> int:
        """Number of communication rounds T."""
        return int(self.trace.rounds.shape[0] - 1)

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

        trace = self.trace
        return replace(
            self,
            global_model=readonly(self.global_model[index], None, copy=False),
            local_models=readonly(self.local_models[index], None, copy=False),
            trace=RoundTrace(
                rounds=trace.rounds,
                participants=readonly(trace.participants[index], None, copy=False),
                local_iterations=readonly(trace.local_iterations[index], None, copy=False),
                sample_gradients=readonly(trace.sample_gradients[index], None, copy=False),
                communication=readonly(trace.communication[index], None, copy=False),
            ),
            global_iterates=pick(self.global_iterates),
            local_iterates=pick(self.local_iterates),
            replicates=None,
        )


# --------------------------------------------------------------------------- input checks


@dataclass(frozen=True)
class _Data:
    features: np.ndarray  # (R, m, n_max, d)
    targets: np.ndarray  # (R, m, n_max)
    counts: np.ndarray  # (R, m)
    loss: str
    radius: float
    batched: bool

    @property
    def reps(self) -> int:
        return int(self.features.shape[0])

    @property
    def m(self) -> int:
        return int(self.features.shape[1])

    @property
    def d(self) -> int:
        return int(self.features.shape[3])


def _stack(data: Any) -> _Data:
    if isinstance(data, FederatedDataset):
        return _Data(
            data.features[None],
            data.targets[None],
            data.counts[None],
            data.loss,
            data.radius,
            batched=False,
        )
    if (
        not isinstance(data, Sequence)
        or isinstance(data, str)
        or not data
        or not all(isinstance(item, FederatedDataset) for item in data)
    ):
        raise ParameterError(
            parameter="data",
            value=type(data).__name__,
            rule="must be a FederatedDataset or a non-empty sequence of them",
        )
    first = data[0]
    for item in data[1:]:
        if (item.features.shape, item.loss, item.radius) != (
            first.features.shape,
            first.loss,
            first.radius,
        ):
            raise ParameterError(
                parameter="data",
                value=f"replicates with shapes {first.features.shape} and {item.features.shape}",
                rule="replicates must share the shape (m, n_max, d), the loss and the radius",
            )
    return _Data(
        np.stack([item.features for item in data]),
        np.stack([item.targets for item in data]),
        np.stack([item.counts for item in data]),
        first.loss,
        first.radius,
        batched=True,
    )


def _local_work(
    local_epochs: Any, local_steps: Any, length: int, *, sequences: bool
) -> tuple[np.ndarray, bool]:
    """K_t as an int64 array of ``length`` entries and the unit (True: epochs)."""
    if (local_epochs is None) == (local_steps is None):
        raise ParameterError(
            parameter="local_epochs",
            value=local_epochs,
            rule="give exactly one of local_epochs and local_steps",
        )
    name, value = (
        ("local_epochs", local_epochs) if local_epochs is not None else ("local_steps", local_steps)
    )
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        work = [check_int(name, value, minimum=0)] * length
    elif sequences and isinstance(value, Sequence | np.ndarray) and not isinstance(value, str):
        if len(value) != length:
            raise ParameterError(
                parameter=name,
                value=f"sequence of length {len(value)}",
                rule=f"must have one entry per round, {length} in all",
            )
        work = [check_int(f"{name}[{t}]", v, minimum=0) for t, v in enumerate(value)]
    else:
        kind = "an integer or a sequence of integers" if sequences else "an integer"
        raise ParameterError(parameter=name, value=value, rule=f"must be {kind}")
    return np.array(work, dtype=np.int64), local_epochs is not None


def _max_iterations(work: np.ndarray, epochs: bool, batch: int, counts: np.ndarray) -> int:
    if work.size == 0:
        return 0
    per_unit = int(np.max(-(-counts // batch))) if epochs else 1
    return int(work.max()) * per_unit


def _step_sequence(name: str, value: Any, needed: int) -> tuple[np.ndarray, Any]:
    """Local steps η_k as an array indexed by the local iteration k, and its record value."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        step = check_real(name, value, positive=True)
        return np.array([step]), step
    if isinstance(value, Sequence | np.ndarray) and not isinstance(value, str):
        try:
            steps = np.array(value, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ParameterError(
                parameter=name, value=value, rule="must be a positive number or a sequence"
            ) from None
        if steps.size == 0 or not np.all(np.isfinite(steps)) or not np.all(steps > 0):
            raise ParameterError(
                parameter=name, value="sequence", rule="must hold positive finite steps"
            )
        if steps.size < needed:
            raise ParameterError(
                parameter=name,
                value=f"sequence of length {steps.size}",
                rule=f"needs one step per local iteration of a round: at least {needed}",
            )
        return steps, tuple(float(s) for s in steps)
    raise ParameterError(
        parameter=name, value=value, rule="must be a positive number or a sequence of them"
    )


def _server_sequence(name: str, value: Any, rounds: int) -> np.ndarray:
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return np.full(rounds, check_real(name, value, positive=True))
    if isinstance(value, Sequence | np.ndarray) and not isinstance(value, str):
        steps = np.array(value, dtype=np.float64).reshape(-1)
        if steps.size != rounds:
            raise ParameterError(
                parameter=name,
                value=f"sequence of length {steps.size}",
                rule=f"must have one step per round, {rounds} in all",
            )
        if not np.all(np.isfinite(steps)) or not np.all(steps > 0):
            raise ParameterError(
                parameter=name, value="sequence", rule="must hold positive finite steps"
            )
        return steps
    raise ParameterError(
        parameter=name, value=value, rule="must be a positive number or a sequence of them"
    )


def _check_batch(batch: Any, data: _Data) -> int:
    batch = check_int("batch", batch, minimum=1)
    smallest = int(data.counts.min())
    if batch > smallest:
        raise ParameterError(
            parameter="batch", value=batch, rule=f"must be at most min n_i = {smallest}"
        )
    return batch


def _weights(weights: Any, data: _Data) -> np.ndarray:
    if weights is None:
        return data.counts / data.counts.sum(axis=1, keepdims=True)
    p = check_weights(weights, data.m)
    return np.ascontiguousarray(np.broadcast_to(p, (data.reps, data.m)))


def _model(name: str, value: Any, data: _Data, shape: tuple[int, ...]) -> np.ndarray:
    """A start of shape ``shape`` broadcast to every replicate, or one per replicate."""
    if value is None:
        return np.zeros((data.reps, *shape))
    try:
        given = np.shape(value)
    except ValueError:  # ragged nested sequences: check_vector names the problem
        given = ()
    if data.batched and given == (data.reps, *shape):
        return check_vector(name, value, shape=(data.reps, *shape))
    single = check_vector(name, value, shape=shape)
    return np.ascontiguousarray(np.broadcast_to(single, (data.reps, *shape)))


def _seeds(seed: Any, data: _Data) -> list[Seed]:
    if not data.batched:
        return [seed]
    if isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str):
        if len(seed) != data.reps:
            raise ParameterError(
                parameter="seed",
                value=f"sequence of length {len(seed)}",
                rule=f"must give one seed per replicate, {data.reps} in all",
            )
        return list(seed)
    generator(seed)  # validates
    if isinstance(seed, np.random.SeedSequence):
        return [
            np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, r))
            for r in range(data.reps)
        ]
    return [np.random.SeedSequence(int(seed), spawn_key=(r,)) for r in range(data.reps)]


def _randomness(
    seed: Any, data: _Data, rounds: int, clients_per_round: int
) -> tuple[np.ndarray, np.ndarray]:
    """One uint64 stream seed per replicate, then its participation masks (T, m)."""
    seeds = np.empty(data.reps, dtype=np.uint64)
    masks = np.zeros((data.reps, rounds, data.m), dtype=np.bool_)
    for r, seed_r in enumerate(_seeds(seed, data)):
        rng = generator(seed_r)
        seeds[r] = rng.integers(0, 2**64, dtype=np.uint64)
        if clients_per_round == data.m:
            masks[r] = True
            continue
        for t in range(rounds):
            masks[r, t, rng.choice(data.m, size=clients_per_round, replace=False)] = True
    return seeds, masks


# --------------------------------------------------------------------------- the one entry


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
    # errstate: with NUMBA_DISABLE_JIT the kernel runs on numpy scalars, which warn on overflow
    # (wrapping uint64 arithmetic is intended); compiled or not, a diverging run must reach
    # check_finite_trace below.
    with np.errstate(all="ignore"):
        out = _federated_rounds(
            kernel_array(data.features),
            kernel_array(data.targets),
            kernel_array(data.counts, np.int64),
            int(LOSSES[data.loss]),
            float(data.radius),
            kernel_array(weights),
            kernel_array(masks, np.bool_),
            kernel_array(work, np.int64),
            bool(epochs),
            int(batch),
            kernel_array(local_steps),
            kernel_array(server_steps),
            float(lam),
            bool(persistent),
            bool(train_sampled),
            bool(project_global),
            kernel_array(init_global),
            kernel_array(init_local),
            kernel_array(seeds, np.uint64),
            bool(record),
        )
    global_model, local_models, sizes, iterations, gradients, global_its, local_its = out
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
    sampled = masks.sum(axis=2)
    trainers = sampled if train_sampled else data.m - sampled
    final_trainers = data.m if work[-1] > 0 else 0
    participants = np.concatenate([trainers, np.full((data.reps, 1), final_trainers)], axis=1)
    communication = np.concatenate(
        [data.d * (trainers + sampled), np.full((data.reps, 1), data.m * data.d * final_download)],
        axis=1,
    ).astype(np.int64)

    def squeeze(array: np.ndarray) -> np.ndarray:
        return readonly(array if data.batched else array[0], None, copy=False)

    trace = RoundTrace(
        rounds=readonly(np.arange(rounds + 1), None, copy=False),
        participants=squeeze(participants.astype(np.int64)),
        local_iterations=squeeze(iterations),
        sample_gradients=squeeze(gradients),
        communication=squeeze(communication),
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


def _check_record(record: Any) -> bool:
    if not isinstance(record, bool | np.bool_):
        raise ParameterError(parameter="record", value=record, rule="must be True or False")
    return bool(record)


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
    """FedAvg with local minibatch SGD: Algorithm 1 of Chen et al. [1]_ (McMahan et al. [2]_).

    For t = 0, …, T − 1: sample C_t (``clients_per_round`` clients, uniformly without
    replacement; all clients by default, as in App. D); every i ∈ C_t runs K_t units of
    minibatch SGD on L_i(·, S_i) from w_t^g; then

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
        |C_t| in [1, m]; default m (full participation).
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


def _clients_per_round(value: Any, m: int) -> int:
    if value is None:
        return m
    value = check_int("clients_per_round", value, minimum=1)
    if value > m:
        raise ParameterError(
            parameter="clients_per_round", value=value, rule=f"must be at most m = {m}"
        )
    return value


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
    """FedAvg followed by local fine-tuning (Chen et al. [1]_, §3.3 and App. D; guide §2.3).

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
    """FedProx for the personalised objective (20): Algorithm 2 of Chen et al. [1]_.

    Objective (20): min over w^g, {w^(i)} ⊆ 𝒲 of Σ_i p_i [L_i(w^(i), S_i) + (λ/2)‖w^g − w^(i)‖²]
    (λ = 0: local training; λ → ∞: FedAvg). Stage I, t = 0, …, T − 1: sample C_t with
    |C_t| = B^g; every training client runs SoftLocalSGD — K_t units of
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
