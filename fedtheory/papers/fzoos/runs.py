"""The result of a federated zeroth-order run (:mod:`fedtheory.papers.fzoos.algorithms`).

:class:`ZerothOrderRun` holds the models, the recorded iterates, the one
:class:`~fedtheory.algorithms.trace.Trace` (``function_queries`` per round, floats up and down)
and the :class:`ZerothOrderLog` the kernels filled: the gradient disparity Ξ of Sec. 3.2 at every
local step, the client drift, F(x_r) and ‖∇F(x_r)‖², cos(ĝ, ∇F), the local (GP) error, the
correction error and Prop. 1's oracle γ* — what the pathwise checks of the guide (§5-B) read.

**Indexing.** A run of R rounds logs per-step arrays of shape ``(R, N, T)``, entry
``[r − 1, i, t − 1]`` for local step t of round r (Ξ_{r,t}^{(i)} = ‖ĝ_{r,t−1}^{(i)} −
∇F(x_{r,t−1}^{(i)})‖²), and per-round arrays of shape ``(R + 1,)``, entry ``[r]`` at x_r (x_0 the
start). Theorem C.1 and Lemma C.11 (guide §3) index the other way: x_0 … x_{R'} with the
disparities of rounds 1 … R' + 1 in an ``(R' + 1, N, T)`` array, round r' + 1 at index r'. So the
run's array *is* the theorem's with R' = R − 1: :meth:`ZerothOrderLog.for_theorem` returns it with
R' and the per-round values at x_0 … x_{R'} (the last server iterate x_R is outside the theorem's
min over r ∈ {0, …, R'}).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError

__all__ = ["TheoremLog", "ZerothOrderLog", "ZerothOrderRun"]


@dataclass(frozen=True, eq=False)
class TheoremLog:
    """A run's log in the indexing of Theorem C.1 / Lemma C.11 (guide §3; module docstring).

    Attributes
    ----------
    disparity : numpy.ndarray
        ``(R' + 1, N, T)``, Ξ_{r'+1,t}^{(i)} at ``[r', i, t − 1]``.
    rounds : int
        R' = R − 1 (the theorem's R).
    values, grad_norm2 : numpy.ndarray
        ``(R' + 1,)`` F(x_r) and ‖∇F(x_r)‖² for r = 0, …, R'.
    drift : numpy.ndarray
        ``(R' + 1, N, T)`` ‖x_{r'+1,t}^{(i)} − x_{r'}‖² at ``[r', i, t − 1]``.
    """

    disparity: np.ndarray
    rounds: int
    values: np.ndarray
    grad_norm2: np.ndarray
    drift: np.ndarray


@dataclass(frozen=True, eq=False)
class ZerothOrderLog:
    """What the kernels logged (module docstring for the indices); a leading replicate axis for
    a batch. Entries that need exact gradients are NaN for a problem without them.

    Attributes
    ----------
    disparity : numpy.ndarray
        ``(R, N, T)`` Ξ = ‖ĝ − ∇F(x)‖² at the iterate the step starts from.
    cosine : numpy.ndarray
        ``(R, N, T)`` cos(ĝ, ∇F(x)) (Fig. 4).
    drift : numpy.ndarray
        ``(R, N, T)`` ‖x_{r,t}^{(i)} − x_{r−1}‖² after the step (Lemma C.11).
    local_error : numpy.ndarray
        ``(R, N, T)`` ‖g − ∇f_i(x)‖²: the FD error (Lemma D.1) or the GP error ‖∇μ − ∇f_i‖².
    correction_error : numpy.ndarray
        ``(R, N, T)`` ‖c − (∇F(x) − ∇f_i(x))‖² of the correction vector c.
    gamma : numpy.ndarray
        ``(R, N, T)`` the γ used (FedProx-ZO: μ_prox).
    gamma_oracle : numpy.ndarray
        ``(R, N, T)`` Prop. 1's γ* = (∇F − g)ᵀc/‖c‖² (NaN when c = 0): a diagnostic.
    values, grad_norm2 : numpy.ndarray
        ``(R + 1,)`` F(x_r) and ‖∇F(x_r)‖², r = 0, …, R.
    """

    disparity: np.ndarray
    cosine: np.ndarray
    drift: np.ndarray
    local_error: np.ndarray
    correction_error: np.ndarray
    gamma: np.ndarray
    gamma_oracle: np.ndarray
    values: np.ndarray
    grad_norm2: np.ndarray

    def mean_disparity(self) -> np.ndarray:
        """(1/N) Σ_i Ξ_{r,t}^{(i)}, shape ``(R, T)`` (Theorem 1's left side)."""
        return np.asarray(self.disparity.mean(axis=-2))

    def for_theorem(self) -> TheoremLog:
        """The log in the indexing of Theorem C.1 (one run; see the module docstring)."""
        if self.disparity.ndim != 3:
            raise ParameterError(
                parameter="log", value="a batch", rule="pick one replicate first (run.replicate)"
            )
        rounds = self.disparity.shape[0] - 1
        return TheoremLog(
            disparity=self.disparity,
            rounds=rounds,
            values=readonly(self.values[: rounds + 1], None),
            grad_norm2=readonly(self.grad_norm2[: rounds + 1], None),
            drift=self.drift,
        )

    def pick(self, index: int) -> ZerothOrderLog:
        """The log of replicate ``index`` of a batch."""
        return ZerothOrderLog(
            *(readonly(getattr(self, field.name)[index], None) for field in fields(self))
        )


@dataclass(frozen=True, eq=False)
class QueryHistory:
    """FZooS's query histories and random-feature draw, for rebuilding its surrogates.

    Kept by :func:`~fedtheory.papers.fzoos.algorithms.fzoos` with ``record=True`` for a single
    run (a batch keeps none: the buffers are reused per replicate). With them a caller rebuilds
    any client's GP surrogate μ_{r,t}^{(i)} of (4)–(5) after any number of queries (the first
    r·T·per_step rows are the history at the end of round r) and its RFF weights w of (6)
    (Shu et al., App. B; guide §2.3–2.4, decision A7).

    Attributes
    ----------
    points : numpy.ndarray
        ``(N, n, d)``: each client's queried points in query order (per local step the iterate,
        then the ``n_active`` active points when ``history="all"``).
    values : numpy.ndarray
        ``(N, n)``: the observed (noisy) values at ``points``.
    per_step : int
        Rows per local step: 1 + n_active (``history="all"``) or 1.
    frequencies, phases : numpy.ndarray
        The RFF draw V ``(M, d)`` and b ``(M,)`` shared by the clients.
    lengthscale, noise : float
        l of the SE kernel and the GP noise variance σ².
    """

    points: np.ndarray
    values: np.ndarray
    per_step: int
    frequencies: np.ndarray
    phases: np.ndarray
    lengthscale: float
    noise: float


@dataclass(frozen=True, eq=False)
class ZerothOrderRun:
    """Result of a runner of :mod:`fedtheory.papers.fzoos.algorithms`.

    Attributes
    ----------
    algorithm : str
        ``"fedzo"``, ``"fedprox_zo"``, ``"scaffold1_zo"``, ``"scaffold2_zo"`` or ``"fzoos"``.
    global_model : numpy.ndarray
        x_R, shape ``(d,)`` (``(R_rep, d)`` for a batch).
    local_models : numpy.ndarray
        ``(N, d)`` the clients' x_{R,T}^{(i)}.
    trace : Trace
        One row per round; ``losses`` holds F(x_r) after round r; ``function_queries`` the
        queries of the clients (FD: Q + 1 per local step; SCAFFOLD I: + Q + 1 per round;
        FZooS: 1 + n_active per local step).
    log : ZerothOrderLog
    global_iterates : numpy.ndarray or None
        With ``record=True``: x_0, …, x_R, ``(R + 1, d)``.
    local_iterates : numpy.ndarray or None
        With ``record=True``: the clients' models after every round, ``(R + 1, N, d)``.
    hyperparameters : dict[str, Any]
    replicates : int or None
    history : QueryHistory or None
        FZooS with ``record=True``, a single run: the query histories and the RFF draw.
    """

    algorithm: str
    global_model: np.ndarray
    local_models: np.ndarray
    trace: Trace
    log: ZerothOrderLog
    global_iterates: np.ndarray | None
    local_iterates: np.ndarray | None
    hyperparameters: dict[str, Any]
    replicates: int | None = None
    history: QueryHistory | None = None

    @property
    def rounds(self) -> int:
        """Number of rounds R."""
        return self.trace.rows

    @property
    def queries(self) -> int:
        """Total function queries (all clients, all rounds; a batch: all replicates)."""
        return self.trace.total("function_queries")

    def to_threshold(
        self, optimum: float, fraction: float = 1e-2
    ) -> tuple[float, float, np.ndarray]:
        """Rounds and queries until F(x_r) − F* ≤ ``fraction``·(F(x_0) − F*) (Fig. 1's measure).

        The rule of the reading guide's §5 check 28: the first round r whose global model
        meets the threshold and the queries spent by then; a run that never meets it within
        its R rounds counts R + 1 rounds and R + 1 rounds' worth of queries (censored: an
        optimistic value for the method that failed).

        Parameters
        ----------
        optimum : float
            F* of the problem.
        fraction : float
            The threshold as a fraction of the initial gap, in (0, 1).

        Returns
        -------
        rounds, queries : float
        gap : numpy.ndarray
            The normalised gap (F(x_r) − F*)/(F(x_0) − F*), r = 0, …, R.
        """
        if self.replicates is not None:
            raise ParameterError(
                parameter="run", value=f"{self.replicates} replicates",
                rule="to_threshold needs a single run: use run.replicate(i)",
            )  # fmt: skip
        if not 0.0 < fraction < 1.0:
            raise ParameterError(parameter="fraction", value=fraction, rule="must be in (0, 1)")
        values = np.asarray(self.log.values, dtype=float)
        gap = (values - optimum) / (values[0] - optimum)
        spent = np.cumsum(self.trace.function_queries).astype(float)
        queries = np.concatenate([[0.0], spent])
        rounds = len(values) - 1
        hit = np.flatnonzero(gap <= fraction)
        if hit.size:
            return float(hit[0]), float(queries[hit[0]]), gap
        return float(rounds + 1), float(queries[-1] / rounds * (rounds + 1)), gap

    def replicate(self, index: int) -> ZerothOrderRun:
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
            global_model=readonly(self.global_model[index], None),
            local_models=readonly(self.local_models[index], None),
            trace=self.trace.replicate(index),
            log=self.log.pick(index),
            global_iterates=pick(self.global_iterates),
            local_iterates=pick(self.local_iterates),
            replicates=None,
        )
