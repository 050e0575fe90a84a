"""The results of GIFAIR-FL-Global, GIFAIR-FL-Per and FedAvg as printed
(:mod:`fedtheory.papers.gifair.algorithms`) and of the fairness baselines
(:mod:`fedtheory.papers.gifair.baselines`).

:class:`GifairRun` holds the models, the recorded iterates, the one
:class:`~fedtheory.algorithms.trace.Trace` and the :class:`FairnessLog` the server step filled
(the reported client losses, the group losses and the signed ranks of every round; guide §2.2).
:class:`BaselineRun` holds the same for a baseline, with its own logs (guide §2.5).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError

__all__ = ["BaselineRun", "FairnessLog", "GifairRun"]


def _replicate_index(index: Any, replicates: int | None) -> int:
    """``index`` checked against a batch of ``replicates`` runs."""
    if replicates is None:
        raise ParameterError(
            parameter="index", value=index, rule="this run holds a single replicate"
        )
    checked = check_int("index", index, minimum=0)
    if checked >= replicates:
        raise ParameterError(parameter="index", value=index, rule=f"must be below {replicates}")
    return checked


@dataclass(frozen=True, eq=False)
class FairnessLog:
    """What the fair aggregation step saw, round by round (guide §2.2, Algorithm 2).

    Index 0 is the initial evaluation at θ_0, index c + 1 the state after round c; round c runs
    with the multipliers of index c. A leading replicate axis for a batch.

    Attributes
    ----------
    reported : numpy.ndarray
        ``(T + 1, K)`` the client losses F_k the server holds (stale: at the local end-of-round
        models, unselected clients keeping their last report; exact: F_k(θ̄_c)).
    group_losses : numpy.ndarray
        ``(T + 1, d)`` L_i = (1/``|𝒜_i|``) Σ_{k∈𝒜_i} F_k.
    ranks : numpy.ndarray
        ``(T + 1, d)`` r_i = Σ_{j≠i} sign(L_i − L_j), sign(0) = 0.
    multipliers : numpy.ndarray
        ``(T + 1, K)`` c_k = 1 + λ r_{s_k}/(p_k|𝒜_{s_k}|).
    """

    reported: np.ndarray
    group_losses: np.ndarray
    ranks: np.ndarray
    multipliers: np.ndarray

    @property
    def spread(self) -> np.ndarray:
        """R = Σ_{i<j} ``|L_i − L_j|`` of the logged group losses, shape ``(T + 1,)``."""
        L = self.group_losses
        gaps = np.abs(L[..., :, None] - L[..., None, :])
        return np.asarray(0.5 * gaps.sum(axis=(-2, -1)))

    def pick(self, index: int) -> FairnessLog:
        """The log of replicate ``index`` of a batch."""
        return FairnessLog(
            *(readonly(getattr(self, name)[index], None) for name in self.__dataclass_fields__)
        )


@dataclass(frozen=True, eq=False)
class GifairRun:
    """Result of :func:`~fedtheory.papers.gifair.algorithms.gifair_global`,
    :func:`~fedtheory.papers.gifair.algorithms.gifair_per` or
    :func:`~fedtheory.papers.gifair.algorithms.fedavg_printed`.

    Attributes
    ----------
    algorithm : str
        ``"gifair_global"``, ``"gifair_per"`` or ``"fedavg_printed"``.
    global_model : numpy.ndarray
        θ̄_C, shape ``(n,)`` (``(R, n)`` for R replicates).
    local_models : numpy.ndarray
        ``(K, n)``: Global and FedAvg — each client's last local iterate θ_k^{((c+1)E)} of the
        last round it trained in (θ_0 if it never trained); Per — the personalised models:
        the last local iterate, or θ̄_C for a client never sampled (an assumption, guide §2.3).
    sampled : numpy.ndarray
        ``(K,)`` bool, whether the client trained in some round.
    trace : Trace
        One row per round (rows 0, …, T − 1); ``losses`` holds H(θ̄_c) = Σ p_k F_k + λR in exact
        mode (from the exact reports), NaN in stale mode.
    log : FairnessLog
        The reported losses, group losses, ranks and multipliers of every round.
    global_iterates : numpy.ndarray or None
        With ``record=True``: θ̄_c for c = 0, …, T (index 0: θ_0), ``(T + 1, n)``.
    local_iterates : numpy.ndarray or None
        With ``record=True``: the local models after each round, ``(T + 1, K, n)``.
    hyperparameters : dict[str, Any]
        The settings of the run (plain data).
    replicates : int or None
        R for a batch of replicates, None for one run.
    """

    algorithm: str
    global_model: np.ndarray
    local_models: np.ndarray
    sampled: np.ndarray
    trace: Trace
    log: FairnessLog
    global_iterates: np.ndarray | None
    local_iterates: np.ndarray | None
    hyperparameters: dict[str, Any]
    replicates: int | None = None

    @property
    def rounds(self) -> int:
        """Number of communication rounds T."""
        return self.trace.rows

    def replicate(self, index: int) -> GifairRun:
        """The run of replicate ``index`` of a batch, as if it had been run alone."""
        index = _replicate_index(index, self.replicates)

        def pick(array: np.ndarray | None) -> np.ndarray | None:
            return None if array is None else readonly(array[index], None, copy=False)

        return replace(
            self,
            global_model=readonly(self.global_model[index], None, copy=False),
            local_models=readonly(self.local_models[index], None, copy=False),
            sampled=readonly(self.sampled[index], None, copy=False),
            trace=self.trace.replicate(index),
            log=self.log.pick(index),
            global_iterates=pick(self.global_iterates),
            local_iterates=pick(self.local_iterates),
            replicates=None,
        )


@dataclass(frozen=True, eq=False)
class BaselineRun:
    """Result of a baseline of :mod:`fedtheory.papers.gifair.baselines` (``qffl``,
    ``qfedsgd``, ``term``, ``afl``, ``ditto``, ``fedmgda_plus``; guide §2.5).

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
        index = _replicate_index(index, self.replicates)

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
