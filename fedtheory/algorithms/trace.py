"""The one record of what a federated run did: :class:`Trace` (DESIGN §3).

A trace has one *row* per round of the algorithm (a communication round of FedAvg, an epoch of
Definition 1 of the fedlrgd paper, a final local stage, ...). Every count in it is made where the
work happens — the client step counts its local steps, oracle calls and the floats it receives,
the server step the floats it receives and its own oracle calls, the round loop who took part —
and never written in as the formula a paper predicts, so that a claim such as
Γ = r² + rs + rS + φmr compares a *count* with the formula.

Counters (integers, per row)
----------------------------
``participants``
    Clients whose client step ran in the row.
``uploads``
    Clients whose state the server aggregated in the row.
``local_steps``
    Local iterations (minibatch steps), summed over clients.
``gradient_calls``
    First-order oracle calls (per-sample gradients ∇ℓ(w; z)) by the clients, summed.
``max_client_gradient_calls``
    The largest number of gradient calls made by one client in the row: the row's parallel
    computation time (b_t of Definition 1 in the fedlrgd paper).
``server_gradient_calls``
    Gradient calls made by the server on its own data.
``function_queries``
    Zeroth-order oracle calls (function values) by the clients, summed.
``floats_up``, ``floats_down``
    Floats sent from clients to the server and from the server to clients.

``losses`` (float per row) holds the objective the algorithm minimises after the row where the
algorithm evaluated it, NaN elsewhere (evaluating it is diagnostics, not work: it is not
counted).

The kernels write counters into an int64 array ``counts[..., row, COUNTER]`` with the column
indices below; :meth:`Trace.from_counts` turns it into a trace. Algorithms that do not run on the
round loop build their trace with a :class:`TraceRecorder`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from fedtheory._arrays import readonly
from fedtheory._checks import check_int
from fedtheory.errors import ParameterError

__all__ = [
    "COUNTERS",
    "FLOATS_DOWN",
    "FLOATS_UP",
    "FUNCTION_QUERIES",
    "GRADIENT_CALLS",
    "LOCAL_STEPS",
    "MAX_CLIENT_GRADIENT_CALLS",
    "PARTICIPANTS",
    "SERVER_GRADIENT_CALLS",
    "UPLOADS",
    "Trace",
    "TraceRecorder",
]

#: The counters of a trace row, in the order of the kernels' count columns.
COUNTERS: tuple[str, ...] = (
    "participants",
    "uploads",
    "local_steps",
    "gradient_calls",
    "max_client_gradient_calls",
    "server_gradient_calls",
    "function_queries",
    "floats_up",
    "floats_down",
)
#: Column of ``participants`` in the kernels' count rows (index 0 of :data:`COUNTERS`).
PARTICIPANTS = 0
#: Column of ``uploads`` in the kernels' count rows (index 1 of :data:`COUNTERS`).
UPLOADS = 1
#: Column of ``local_steps`` in the kernels' count rows (index 2 of :data:`COUNTERS`).
LOCAL_STEPS = 2
#: Column of ``gradient_calls`` in the kernels' count rows (index 3 of :data:`COUNTERS`).
GRADIENT_CALLS = 3
#: Column of ``max_client_gradient_calls`` in the kernels' count rows (index 4 of :data:`COUNTERS`).
MAX_CLIENT_GRADIENT_CALLS = 4
#: Column of ``server_gradient_calls`` in the kernels' count rows (index 5 of :data:`COUNTERS`).
SERVER_GRADIENT_CALLS = 5
#: Column of ``function_queries`` in the kernels' count rows (index 6 of :data:`COUNTERS`).
FUNCTION_QUERIES = 6
#: Column of ``floats_up`` in the kernels' count rows (index 7 of :data:`COUNTERS`).
FLOATS_UP = 7
#: Column of ``floats_down`` in the kernels' count rows (index 8 of :data:`COUNTERS`).
FLOATS_DOWN = 8


@dataclass(frozen=True, eq=False)
class Trace:
    """What a federated run did, row by row (see the module docstring for each counter).

    Every array has shape ``(rows,)``, or ``(R, rows)`` for a batch of R replicates run
    together; counters are int64, ``losses`` float64 (NaN where not evaluated).

    Examples
    --------
    >>> counts = np.zeros((2, len(COUNTERS)), dtype=np.int64)
    >>> counts[:, GRADIENT_CALLS] = [8, 4]
    >>> Trace.from_counts(counts).gradient_calls.tolist()
    [8, 4]
    """

    participants: np.ndarray
    uploads: np.ndarray
    local_steps: np.ndarray
    gradient_calls: np.ndarray
    max_client_gradient_calls: np.ndarray
    server_gradient_calls: np.ndarray
    function_queries: np.ndarray
    floats_up: np.ndarray
    floats_down: np.ndarray
    losses: np.ndarray

    @classmethod
    def from_counts(cls, counts: np.ndarray, losses: np.ndarray | None = None) -> Trace:
        """The trace of a count array of shape ``(..., rows, len(COUNTERS))``."""
        counts = np.asarray(counts)
        if counts.ndim not in (2, 3) or counts.shape[-1] != len(COUNTERS):
            raise ParameterError(
                parameter="counts",
                value=f"array of shape {counts.shape}",
                rule=f"must have shape (rows, {len(COUNTERS)}) or (R, rows, {len(COUNTERS)})",
            )
        if losses is None:
            losses = np.full(counts.shape[:-1], np.nan)
        elif np.shape(losses) != counts.shape[:-1]:
            raise ParameterError(
                parameter="losses",
                value=f"array of shape {np.shape(losses)}",
                rule=f"must have the shape of the rows, {counts.shape[:-1]}",
            )
        columns = {
            name: readonly(counts[..., index], np.int64) for index, name in enumerate(COUNTERS)
        }
        return cls(**columns, losses=readonly(losses))

    @property
    def rows(self) -> int:
        """Number of rows."""
        return int(self.participants.shape[-1])

    @property
    def floats_communicated(self) -> np.ndarray:
        """Floats sent in either direction per row (``floats_up + floats_down``)."""
        return np.asarray(self.floats_up + self.floats_down)

    @property
    def oracle_calls(self) -> np.ndarray:
        """First-order oracle calls per row, clients and server together."""
        return np.asarray(self.gradient_calls + self.server_gradient_calls)

    def total(self, counter: str) -> int:
        """Sum of one counter over the rows (of one run; a batch gives the sum of all)."""
        if counter not in COUNTERS:
            raise ParameterError(
                parameter="counter", value=counter, rule=f"must be one of {', '.join(COUNTERS)}"
            )
        return int(np.sum(getattr(self, counter)))

    def replicate(self, index: int) -> Trace:
        """The trace of replicate ``index`` of a batch."""
        if self.participants.ndim != 2:
            raise ParameterError(
                parameter="index", value=index, rule="this trace holds a single run"
            )
        index = check_int("index", index, minimum=0)
        if index >= self.participants.shape[0]:
            raise ParameterError(
                parameter="index", value=index, rule=f"must be below {self.participants.shape[0]}"
            )
        return Trace(
            **{
                field.name: readonly(getattr(self, field.name)[index], None)
                for field in fields(self)
            }
        )


class TraceRecorder:
    """Builds a :class:`Trace` row by row, for algorithms that do not run on the round loop.

    The oracles and the algorithm's steps add to the open row as they work
    (:meth:`count_gradients`, :meth:`count_upload`, ...); :meth:`end_row` closes it.

    Examples
    --------
    >>> recorder = TraceRecorder(clients=2)
    >>> recorder.count_gradients(4, by="server")
    >>> recorder.end_row()
    >>> for client in (0, 1):
    ...     recorder.count_gradients(6, by=client)
    ...     recorder.count_upload(client, floats=3)
    >>> recorder.end_row()
    >>> trace = recorder.freeze()
    >>> trace.server_gradient_calls.tolist(), trace.max_client_gradient_calls.tolist()
    ([4, 0], [0, 6])
    >>> trace.uploads.tolist(), trace.floats_up.tolist()
    ([0, 2], [0, 6])
    """

    def __init__(self, clients: int) -> None:
        self._clients = check_int("clients", clients, minimum=1)
        self._rows: list[np.ndarray] = []
        self._losses: list[float] = []
        self._open()

    def _open(self) -> None:
        self._row = np.zeros(len(COUNTERS), dtype=np.int64)
        self._per_client = np.zeros(self._clients, dtype=np.int64)
        self._took_part = np.zeros(self._clients, dtype=bool)
        self._uploaded = np.zeros(self._clients, dtype=bool)

    def _client(self, client: Any) -> int:
        client = check_int("client", client, minimum=0)
        if client >= self._clients:
            raise ParameterError(
                parameter="client", value=client, rule=f"must be below {self._clients}"
            )
        return int(client)

    def count_gradients(self, calls: int, *, by: int | str) -> None:
        """``calls`` per-sample gradient evaluations by client ``by`` (or by ``"server"``)."""
        calls = check_int("calls", calls, minimum=0)
        if by == "server":
            self._row[SERVER_GRADIENT_CALLS] += calls
            return
        client = self._client(by)
        self._row[GRADIENT_CALLS] += calls
        self._per_client[client] += calls
        self._took_part[client] = True

    def count_local_steps(self, client: int, steps: int) -> None:
        """``steps`` local iterations by ``client``."""
        client = self._client(client)
        self._row[LOCAL_STEPS] += check_int("steps", steps, minimum=0)
        self._took_part[client] = True

    def count_upload(self, client: int, *, floats: int) -> None:
        """``client`` sends ``floats`` numbers to the server."""
        client = self._client(client)
        self._row[FLOATS_UP] += check_int("floats", floats, minimum=0)
        self._uploaded[client] = True
        self._took_part[client] = True

    def count_download(self, client: int, *, floats: int) -> None:
        """``client`` receives ``floats`` numbers from the server."""
        client = self._client(client)
        self._row[FLOATS_DOWN] += check_int("floats", floats, minimum=0)
        self._took_part[client] = True

    def end_row(self, loss: float = float("nan")) -> None:
        """Close the open row (with the objective value after it, if evaluated)."""
        row = self._row.copy()
        row[PARTICIPANTS] = int(self._took_part.sum())
        row[UPLOADS] = int(self._uploaded.sum())
        row[MAX_CLIENT_GRADIENT_CALLS] = int(self._per_client.max())
        self._rows.append(row)
        self._losses.append(float(loss))
        self._open()

    def freeze(self) -> Trace:
        """The trace of the closed rows (an open row with counts is an error)."""
        if self._row.any() or self._took_part.any():
            raise ParameterError(
                parameter="recorder", value="open row", rule="call end_row() before freeze()"
            )
        counts = np.array(self._rows, dtype=np.int64).reshape(len(self._rows), len(COUNTERS))
        return Trace.from_counts(counts, np.array(self._losses, dtype=np.float64))
