"""What every run on a :class:`~fedtheory.papers.fedlrgd.erm.LatentERM` shares: the run type
with its trajectory, gaps and trace, and the checks of the instance, the start and the step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fedtheory._checks import check_finite_trace, check_real, check_vector
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError
from fedtheory.papers.fedlrgd.epochs import EpochLog
from fedtheory.papers.fedlrgd.erm import LatentERM

__all__ = [
    "LatentRun",
    "check_instance",
    "checked_gaps",
    "gd_step",
    "start_point",
]

#: Rows of the trajectory evaluated at once when computing gaps (bounds memory to ~n·256 floats).
_GAP_CHUNK = 256


@dataclass(frozen=True, eq=False)
class LatentRun:
    """A run on a :class:`~fedtheory.papers.fedlrgd.erm.LatentERM` instance.

    Attributes
    ----------
    algorithm : str
        Name of the algorithm.
    trajectory : numpy.ndarray
        The server's iterates θ^{(0)}, …, θ^{(T)}, shape (T + 1, p).
    gaps : numpy.ndarray
        F(θ^{(t)}) − F_* for F of (3), shape (T + 1,).
    trace : Trace or None
        What the run did, one row per epoch or round, counted where it happened (None for the
        centralized :func:`~fedtheory.papers.fedlrgd.gradient_descent_exact`).
    hyperparameters : dict
        The settings of the run (plain data); ``phi`` is the communication-to-computation ratio
        φ of Definition 1 (it only enters Γ).
    """

    algorithm: str
    trajectory: np.ndarray
    gaps: np.ndarray
    trace: Trace | None
    hyperparameters: dict[str, Any]

    @property
    def theta(self) -> np.ndarray:
        """The output θ^{(T)}."""
        return np.asarray(self.trajectory[-1])

    @property
    def iterations(self) -> int:
        """T: the number of updates of θ."""
        return int(self.trajectory.shape[0] - 1)

    @property
    def log(self) -> EpochLog | None:
        """The epochs of Definition 1: a view of :attr:`trace` with φ (None without a trace)."""
        if self.trace is None:
            return None
        return EpochLog.from_trace(self.trace, float(self.hyperparameters["phi"]))

    @property
    def gamma(self) -> float | None:
        """Γ of Definition 1 (None without a trace)."""
        log = self.log
        return None if log is None else log.gamma


def check_instance(instance: Any) -> LatentERM:
    if not isinstance(instance, LatentERM):
        raise ParameterError(
            parameter="instance",
            value=type(instance).__name__,
            rule="must be a LatentERM (fedtheory.papers.fedlrgd.erm)",
        )
    return instance


def start_point(instance: LatentERM, theta0: Any) -> np.ndarray:
    if theta0 is None:
        return np.zeros(instance.p)
    return check_vector("theta0", theta0, shape=(instance.p,))


def gd_step(instance: LatentERM, step: Any) -> float:
    """1/L1 of (42) by default; an explicit step is a departure (used for negative controls)."""
    if step is None:
        return 1.0 / instance.L1
    return check_real("step", step, positive=True)


def checked_gaps(
    algorithm: str, instance: LatentERM, trajectory: np.ndarray, hint: str = ""
) -> np.ndarray:
    """F(θ^{(t)}) − F_* along ``trajectory``, after checking that the run did not diverge.

    Raises
    ------
    DivergenceError
        At the first iterate whose norm or gap is not finite (``hint`` joins the message).
    """
    gaps = np.empty(trajectory.shape[0])
    with np.errstate(all="ignore"):
        for start in range(0, trajectory.shape[0], _GAP_CHUNK):
            block = trajectory[start : start + _GAP_CHUNK]
            gaps[start : start + block.shape[0]] = (
                np.asarray(instance.objective(block)) - instance.F_star
            )
        norms = np.sqrt(np.einsum("tp,tp->t", trajectory, trajectory))
    check_finite_trace(algorithm, (norms, gaps), hint=hint)
    return gaps
