"""Definition 1 of Jadbabaie, Makur & Shah: epochs and the federated oracle complexity Γ.

An epoch has a type (§II-D of [1]_) — **A**: active clients compute b_t gradients each, then
communicate; **B**: only the server computes b_t gradients; **C**: clients only communicate — and
costs b_t + 1{clients communicate}·φτm, so that Γ(𝒜) = Σ_t [b_t + 1{comm}·φτm]. :class:`EpochLog`
reads the epochs off a run's :class:`~fedtheory.algorithms.trace.Trace`, whose counts were made
where the work happened: Γ is *measured*, never copied from a theorem.

References
----------
.. [1] A. Jadbabaie, A. Makur & D. Shah, Federated optimization of smooth loss functions,
   arXiv:2201.01954v2; Definition 1, §II-D, eq. (25).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_real
from fedtheory.algorithms.trace import Trace
from fedtheory.errors import ParameterError

__all__ = ["EpochLog"]


@dataclass(frozen=True, eq=False)
class EpochLog:
    """The epochs of a run, as Definition 1 counts them: a view of the run's :class:`Trace`.

    Epoch t has a type (§II-D): **A** — active clients compute b_t gradients each, then
    communicate; **B** — only the server computes b_t gradients; **C** — clients only
    communicate. ``active[t]`` is the number τm of clients that upload one vector in ℝ^p in
    epoch t (0 when nobody communicates).

    Attributes
    ----------
    kinds : tuple of str
        "A", "B" or "C" per epoch.
    gradients : numpy.ndarray
        b_t per epoch (int64): gradient evaluations per active client (or by the server).
    communicates : numpy.ndarray
        1{clients communicate in epoch t} (bool).
    active : numpy.ndarray
        τm per epoch (int64; 0 when nobody communicates).
    phi : float
        The communication-to-computation ratio φ.
    """

    kinds: tuple[str, ...]
    gradients: np.ndarray
    communicates: np.ndarray
    active: np.ndarray
    phi: float

    @classmethod
    def from_trace(cls, trace: Trace, phi: float) -> EpochLog:
        """Read Definition 1's epochs off a trace of one run, with the ratio φ ≥ 0.

        Row by row: a row in which nobody uploads is a type-B epoch whose b_t is the server's
        gradient count (possibly 0); a row with uploads is a type-A epoch (b_t = the largest
        per-client gradient count, τm = the uploading clients) when the clients computed, else
        a type-C epoch — preceded by a type-B epoch when the server also computed in that row
        (federated GD's iteration is such a row: the server's gradients, then the clients').

        Raises
        ------
        ParameterError
            For a batch of traces, or a row in which clients computed without communicating
            (Definition 1 has no such epoch).
        """
        phi = check_real("phi", phi, nonnegative=True)
        if trace.participants.ndim != 1:
            raise ParameterError(
                parameter="trace", value="a batch of traces", rule="must be the trace of one run"
            )
        kinds: list[str] = []
        gradients: list[int] = []
        active: list[int] = []
        for t in range(trace.rows):
            server = int(trace.server_gradient_calls[t])
            client = int(trace.max_client_gradient_calls[t])
            uploads = int(trace.uploads[t])
            if uploads == 0:
                if client > 0:
                    raise ParameterError(
                        parameter="trace",
                        value=f"row {t}",
                        rule="clients computed without communicating: not an epoch of Definition 1",
                    )
                kinds.append("B")
                gradients.append(server)
                active.append(0)
                continue
            if server > 0:
                kinds.append("B")
                gradients.append(server)
                active.append(0)
            kinds.append("A" if client > 0 else "C")
            gradients.append(client)
            active.append(uploads)
        counts = np.array(active, dtype=np.int64)
        return cls(
            kinds=tuple(kinds),
            gradients=readonly(np.array(gradients, dtype=np.int64), np.int64),
            communicates=readonly(counts > 0, np.bool_),
            active=readonly(counts, np.int64),
            phi=phi,
        )

    @property
    def epochs(self) -> int:
        """Number of epochs T."""
        return len(self.kinds)

    @property
    def computation(self) -> int:
        """Σ_t b_t (an exact integer)."""
        return int(self.gradients.sum())

    @property
    def uploads(self) -> int:
        """Σ_t 1{comm}·τm: vectors in ℝ^p received by the server (an exact integer)."""
        return int(self.active[self.communicates].sum())

    @property
    def gamma(self) -> float:
        """Γ of Definition 1: Σ_t b_t + φ·Σ_t 1{comm}·τm."""
        return float(self.computation) + self.phi * float(self.uploads)

    def costs(self) -> np.ndarray:
        """Per-epoch terms b_t + 1{comm}·φτm of Definition 1, shape (T,)."""
        return np.asarray(self.gradients + np.where(self.communicates, self.phi * self.active, 0))

    def expected_times(self) -> np.ndarray:
        """Per-epoch expected running times of (25): 2b + log(τm) + φτm (A), 2b (B), φτm (C).

        These are the paper's approximations;
        :func:`~fedtheory.papers.fedlrgd.running_time_monte_carlo` simulates the model they
        approximate.
        """
        out = np.empty(self.epochs)
        for t, kind in enumerate(self.kinds):
            b, k = float(self.gradients[t]), float(self.active[t])
            if kind == "A":
                out[t] = 2.0 * b + math.log(k) + self.phi * k
            elif kind == "B":
                out[t] = 2.0 * b
            else:
                out[t] = self.phi * k
        return out
