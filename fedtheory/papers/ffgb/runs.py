"""The results of FFGB, FFGB.C and FFGB.L (:mod:`fedtheory.papers.ffgb.algorithms`).

:class:`FFGBRun` holds the output function, the iterates, the one :class:`~fedtheory.algorithms.
trace.Trace`, the :class:`BoostingDiagnostics` the client steps filled (the oracle's worst ratio
and where it happened, clip counts, the largest norms of the tracked quantities; slots of
:mod:`fedtheory.papers.ffgb.steps`) and an optional :class:`RoundLog` of one round's iterates.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb.steps import (
    CLIP_LEARNER_OFF,
    CLIP_LEARNER_ON,
    CLIP_RESIDUAL_OFF,
    CLIP_RESIDUAL_ON,
    FIRST_VIOLATION_CALL,
    FIRST_VIOLATION_RATIO,
    NORM_BASE,
    NORMS,
    QUANTITIES,
    START_CLIPS,
    WORST_CALL,
    WORST_RATIO,
)

__all__ = ["BoostingDiagnostics", "FFGBRun", "RoundLog"]


@dataclass(frozen=True, eq=False)
class BoostingDiagnostics:
    """What the client steps measured along a run (guide §5 A4, D1, D2).

    Scalars for one run; arrays with a leading replicate axis for a batch.

    Attributes
    ----------
    oracle : str
        The oracle (``describe()`` when it has one).
    gamma : float or None
        The γ the oracle asserts (None: a learned oracle, whose γ is only measured).
    values : numpy.ndarray
        The raw diagnostics slots (:mod:`fedtheory.papers.ffgb.steps`).
    """

    oracle: str
    gamma: float | None
    values: np.ndarray

    def _slot(self, index: int) -> Any:
        column = self.values[..., index]
        return float(column) if np.ndim(column) == 0 else readonly(column)

    @property
    def worst_ratio(self) -> Any:
        """max over calls of ‖h − φ‖/‖φ‖ in the oracle's norm (−1: no call)."""
        return self._slot(WORST_RATIO)

    @property
    def measured_gamma(self) -> Any:
        """1 − :attr:`worst_ratio`, the empirical γ of guide §1."""
        worst = self.worst_ratio
        return 1.0 - worst if self.values.ndim == 1 else readonly(1.0 - np.asarray(worst))

    @property
    def worst_call(self) -> Any:
        """(t, i, k) of the worst call ((R, 3) for a batch)."""
        calls = self.values[..., WORST_CALL : WORST_CALL + 3].astype(np.int64)
        return tuple(int(v) for v in calls) if calls.ndim == 1 else readonly(calls, None)

    @property
    def violation(self) -> Any:
        """(t, i, k, ratio) of the first call above 1 − γ, None if there is none (one run)."""
        if self.values.ndim > 1:
            raise ParameterError(
                parameter="violation", value="batch", rule="read it per replicate (replicate(r))"
            )
        if self.values[FIRST_VIOLATION_CALL] < 0:
            return None
        t, i, k = (int(v) for v in self.values[FIRST_VIOLATION_CALL : FIRST_VIOLATION_CALL + 3])
        return t, i, k, float(self.values[FIRST_VIOLATION_RATIO])

    @property
    def clips(self) -> dict[str, Any]:
        """Clip activations: ``learner_on``/``learner_off`` (Π_{G²}(h) on/off supp α_i),
        ``residual_on``/``residual_off`` (Π_{G¹}), ``start`` (Π_B(f^t), Algorithm 3 printed)."""
        return {
            "learner_on": self._slot(CLIP_LEARNER_ON),
            "learner_off": self._slot(CLIP_LEARNER_OFF),
            "residual_on": self._slot(CLIP_RESIDUAL_ON),
            "residual_off": self._slot(CLIP_RESIDUAL_OFF),
            "start": self._slot(START_CLIPS),
        }

    def norm(self, quantity: str, norm: str) -> Any:
        """The largest value of ``norm`` of ``quantity`` over the run.

        ``quantity`` in :data:`~fedtheory.papers.ffgb.steps.QUANTITIES` (``"gradient"``,
        ``"query"``, ``"learner"``, ``"uploaded"``, ``"residual"``, ``"iterate"``,
        ``"direction"``), ``norm`` in ``"l2"``, ``"sup"`` (on supp α_i), ``"sup_all"``,
        ``"lip"`` (FFGB.L).
        """
        if quantity not in QUANTITIES:
            raise ParameterError(
                parameter="quantity", value=quantity, rule=f"must be one of {', '.join(QUANTITIES)}"
            )
        if norm not in NORMS:
            raise ParameterError(
                parameter="norm", value=norm, rule=f"must be one of {', '.join(NORMS)}"
            )
        return self._slot(NORM_BASE + QUANTITIES.index(quantity) * len(NORMS) + NORMS.index(norm))

    def replicate(self, index: int) -> BoostingDiagnostics:
        """The diagnostics of replicate ``index`` of a batch."""
        return replace(self, values=readonly(self.values[index]))


@dataclass(frozen=True, eq=False)
class RoundLog:
    """Every client's iterates in one logged round t (guide §5 A3, A6).

    Arrays have a leading client axis (and a replicate axis before it for a batch); clients
    that did not take part hold NaN.

    Attributes
    ----------
    round : int
        t.
    steps : numpy.ndarray
        η^{k,t}, k = 1, …, K.
    iterates : numpy.ndarray
        g^{1..K+1}, shape (N, K + 1, ...function shape).
    learners : numpy.ndarray
        h^{1..K} (the raw oracle outputs), shape (N, K, ...).
    residuals : numpy.ndarray
        Δ^{0..K}, shape (N, K + 1, ...).
    gradients : numpy.ndarray or None
        ∇R_i[g^{1..K}], shape (N, K, ...) (None for FFGB.L).
    """

    round: int
    steps: np.ndarray
    iterates: np.ndarray
    learners: np.ndarray
    residuals: np.ndarray
    gradients: np.ndarray | None

    def replicate(self, index: int) -> RoundLog:
        return replace(
            self,
            iterates=readonly(self.iterates[index]),
            learners=readonly(self.learners[index]),
            residuals=readonly(self.residuals[index]),
            gradients=None if self.gradients is None else readonly(self.gradients[index]),
        )


@dataclass(frozen=True, eq=False)
class FFGBRun:
    """Result of :func:`ffgb`, :func:`ffgb_c` or :func:`ffgb_l`.

    Attributes
    ----------
    algorithm : str
        ``"ffgb"``, ``"ffgb_c"`` or ``"ffgb_l"``.
    function : numpy.ndarray
        The output: f^T (FFGB, FFGB.L) or Π_B(f^T) (FFGB.C), of the problem's function shape
        (a leading replicate axis for a batch).
    last_iterate : numpy.ndarray
        f^T before the server's projection (equal to ``function`` except for FFGB.C).
    iterates : numpy.ndarray or None
        With ``record=True``: f^0, …, f^T, shape (T + 1, ...).
    trace : Trace
        One row per round.
    diagnostics : BoostingDiagnostics
    log : RoundLog or None
        The logged round (``log_round``).
    hyperparameters : dict
    replicates : int or None
    """

    algorithm: str
    function: np.ndarray
    last_iterate: np.ndarray
    iterates: np.ndarray | None
    trace: Trace
    diagnostics: BoostingDiagnostics
    log: RoundLog | None
    hyperparameters: dict[str, Any]
    replicates: int | None = None

    @property
    def rounds(self) -> int:
        """T."""
        return self.trace.rows

    @property
    def models_per_client(self) -> np.ndarray:
        """Models exchanged per participating client in each round, as the paper counts them
        (Sec. 4.1): K uploaded and (m − 1)K downloaded, m·K = the round's local steps."""
        return np.asarray(self.trace.local_steps)

    def replicate(self, index: int) -> FFGBRun:
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
        return replace(
            self,
            function=readonly(self.function[index]),
            last_iterate=readonly(self.last_iterate[index]),
            iterates=None if self.iterates is None else readonly(self.iterates[index]),
            trace=self.trace.replicate(index),
            diagnostics=self.diagnostics.replicate(index),
            log=None if self.log is None else self.log.replicate(index),
            replicates=None,
        )
