"""The common part of the fairness baselines (private; :mod:`fedtheory.papers.gifair.baselines`,
reading guide §2.5): their inputs checked as GIFAIR-FL's (:mod:`._inputs`), the aggregation
weight a_a and inverse inclusion probability f_a of every upload slot, the round loop and the
result.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory.algorithms.client_steps import LocalSGD
from fedtheory.algorithms.trace import Trace
from fedtheory.papers.gifair._inputs import (
    _local_sgd,
    _loop,
    _problem,
    _Schedule,
    _Settings,
    _settings,
    _shaped,
    _step_table,
)
from fedtheory.papers.gifair.runs import BaselineRun
from fedtheory.problems._oracle import client_loss, client_samples

__all__: list[str] = []


# ============================================================================== the setup


@dataclass(frozen=True)
class _Setup(_Settings):
    """The checked common inputs of a baseline, every replicate's draws, and each upload
    slot's aggregation weight a_a and inverse inclusion probability f_a."""

    slot_weights: np.ndarray
    factors: np.ndarray

    @property
    def p(self) -> np.ndarray:
        return np.asarray(self.info.groups.p)

    @property
    def K(self) -> int:
        return self.info.clients

    @property
    def d(self) -> int:
        return self.info.dimension

    def local_sgd(self) -> LocalSGD:
        """The clients' E local minibatch steps from w^c (core ``LocalSGD``, unscaled)."""
        return _local_sgd(
            self.rounds,
            self.local_steps,
            self.batch,
            self.table,
            np.ones((self.reps, self.K)),
            self.schedule.streams,
        )

    def nan_log(self) -> np.ndarray:
        """A per-round, per-client log, NaN where a client did not upload."""
        return np.full((self.reps, self.rounds, self.K), np.nan)


def _slot_weights(
    schedule: _Schedule, p: np.ndarray, aggregation: str, per_round: int | None, sampling: str
) -> tuple[np.ndarray, np.ndarray]:
    """Each upload slot's aggregation weight a_a and inverse inclusion probability f_a.

    Full participation: a = p (``"weighted"``) or 1/K, f = 1; p-sampling: a = 1/S (the draws
    carry p), f = 1/(S p_k); uniform sampling: a = K p_k/S (``"weighted"``, scheme II) or 1/S,
    f = K/S. Padding slots get 0.
    """
    K = p.shape[0]
    draws = schedule.uploaders
    used = np.arange(draws.shape[2]) < schedule.uploader_counts[..., None]
    if per_round is None:
        weights = p[draws] if aggregation == "weighted" else np.full(draws.shape, 1.0 / K)
        inverse = np.ones(draws.shape)
    elif sampling == "p_with_replacement":
        weights = np.full(draws.shape, 1.0 / per_round)
        with np.errstate(divide="ignore"):  # a padding slot may name a client with p_k = 0
            inverse = 1.0 / (per_round * p[draws])
    else:
        weights = (
            K * p[draws] / per_round
            if aggregation == "weighted"
            else np.full(draws.shape, 1.0 / per_round)
        )
        inverse = np.full(draws.shape, K / per_round)
    return np.where(used, weights, 0.0), np.where(used, inverse, 0.0)


def _setup(problem: Any, *, extra_streams: int = 0, **settings: Any) -> _Setup:
    """Check the common inputs with GIFAIR-FL's own code (``settings``: the keywords of
    :func:`._inputs._settings`; ``batch=None``: no minibatch, q-FedSGD) and draw every
    replicate's streams and participation."""
    info = _problem(problem)
    minibatch = settings["batch"] is not None
    checked = _settings(info, minibatch=minibatch, extra=extra_streams, **settings)
    slot_weights, factors = _slot_weights(
        checked.schedule, np.asarray(info.groups.p), checked.aggregation, checked.per_round,
        checked.sampling,
    )  # fmt: skip
    fields = {field.name: getattr(checked, field.name) for field in dataclasses.fields(checked)}
    return _Setup(**fields, slot_weights=slot_weights, factors=factors)


def _round_steps(value: Any, name: str, rounds: int) -> tuple[np.ndarray, Any]:
    """A server-side step per round (a constant, or a callable on the array of rounds c)."""
    table, record = _step_table(value, rounds, 1, name=name)
    return np.ascontiguousarray(table[np.minimum(np.arange(rounds), table.shape[0] - 1), 0]), record


def _run(algorithm: str, s: _Setup, client: Any, server: Any) -> tuple[np.ndarray, ...]:
    """The round loop; DivergenceError on non-finite models."""
    return _loop(
        algorithm,
        s.info,
        client,
        server,
        s.schedule,
        s.init,
        s.record,
        batched=s.batched,
        hint="the squared norms of the models are not finite (step too large?)",
    )


def _objective(s: _Setup, iterates: np.ndarray) -> np.ndarray:
    """Σ_k p_k F_k(w) at the iterates after each round, shape (R, C)."""
    out = np.empty((s.reps, s.rounds))
    for r in range(s.reps):
        for c in range(s.rounds):
            w = iterates[r, c + 1]
            out[r, c] = sum(
                float(s.p[k]) * float(client_loss(client_samples(s.info.view, r, k), w))
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
        return None if array is None else _shaped(array, s.batched)

    trace = Trace.from_counts(
        counts if s.batched else counts[0],
        None if losses is None else (losses if s.batched else losses[0]),
    )
    return BaselineRun(
        algorithm=algorithm,
        global_model=_shaped(server, s.batched),
        local_models=_shaped(local, s.batched),
        personal_models=shaped(personal),
        averaged_model=None if averaged is None else shaped(averaged[0]),
        averaged_mixture=None if averaged is None else shaped(averaged[1]),
        trace=trace,
        global_iterates=shaped(server_its) if s.record else None,
        local_iterates=shaped(local_its) if s.record else None,
        logs={name: _shaped(value, s.batched) for name, value in logs.items()},
        hyperparameters={**s.hyperparameters, **hyperparameters},
        replicates=s.replicates,
    )
