"""Input checks of the federated algorithms (private): the data, the local work, the step
sequences, the weights, the starts and the randomness of :mod:`fedtheory.algorithms.federated`.

Every check raises :class:`~fedtheory.errors.ParameterError` naming the parameter, the value and
the rule.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._checks import check_int, check_real, check_vector, check_weights
from fedtheory._seeds import generator, replicate_seeds
from fedtheory.errors import ParameterError
from fedtheory.problems._linear_samples import LinearSamples, linear_samples
from fedtheory.problems.dataset import FederatedDataset

__all__: list[str] = []


@dataclass(frozen=True)
class _Data:
    """The clients' data of a run: one dataset or a batch of replicates of one shape."""

    datasets: tuple[FederatedDataset, ...]
    samples: LinearSamples
    batched: bool

    @property
    def loss(self) -> str:
        return self.datasets[0].loss

    @property
    def radius(self) -> float:
        return self.datasets[0].radius

    @property
    def counts(self) -> np.ndarray:
        return self.samples.counts

    @property
    def reps(self) -> int:
        return int(self.samples.features.shape[0])

    @property
    def m(self) -> int:
        return int(self.samples.features.shape[1])

    @property
    def d(self) -> int:
        return int(self.samples.features.shape[3])


def _stack(data: Any) -> _Data:
    if isinstance(data, FederatedDataset):
        return _Data((data,), linear_samples([data]), batched=False)
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
    return _Data(tuple(data), linear_samples(list(data)), batched=True)


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
    return int(batch)


def _weights(weights: Any, data: _Data) -> np.ndarray:
    if weights is None:
        return np.asarray(data.counts / data.counts.sum(axis=1, keepdims=True))
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


def _randomness(
    seed: Any, data: _Data, rounds: int, clients_per_round: int
) -> tuple[np.ndarray, np.ndarray]:
    """One uint64 stream seed per replicate, then its participation masks (T, m)."""
    seeds = np.empty(data.reps, dtype=np.uint64)
    masks = np.zeros((data.reps, rounds, data.m), dtype=np.bool_)
    for r, seed_r in enumerate(_replicate_seeds(seed, data)):
        rng = generator(seed_r)
        seeds[r] = rng.integers(0, 2**64, dtype=np.uint64)
        if clients_per_round == data.m:
            masks[r] = True
            continue
        for t in range(rounds):
            masks[r, t, rng.choice(data.m, size=clients_per_round, replace=False)] = True
    return seeds, masks


def _check_record(record: Any) -> bool:
    if not isinstance(record, bool | np.bool_):
        raise ParameterError(parameter="record", value=record, rule="must be True or False")
    return bool(record)


def _clients_per_round(value: Any, m: int) -> int:
    if value is None:
        return m
    value = check_int("clients_per_round", value, minimum=1)
    if value > m:
        raise ParameterError(
            parameter="clients_per_round", value=value, rule=f"must be at most m = {m}"
        )
    return int(value)


def _replicate_seeds(seed: Any, data: _Data) -> list[Any]:
    """One seed per replicate (a single dataset keeps the seed itself)."""
    if not data.batched:
        return [seed]
    return replicate_seeds(seed, data.reps)
