"""Executors: where tasks run (DESIGN §6).

A *task* is plain data — ``{"file", "claim", "params", "replicates": [[index, seed], ...]}`` —
and so is its result, so the same task gives the same bits whether it runs in a local process
pool or on a Dask ``distributed`` cluster. :func:`run_task` is the one function workers call.

- :class:`LocalExecutor` (default): a process pool sized to the machine's cores.
- :class:`DaskExecutor`: an existing scheduler (``--scheduler ADDR`` or ``FEDTHEORY_SCHEDULER``),
  or a ``LocalCluster`` of worker processes when no address is given. Workers must see the claim
  files at the same path (a shared file system) and have fedtheory installed.

Both keep a bounded window of tasks in flight and yield results as they complete, so that the
runner stores each one at once and an interruption loses only the tasks in flight.
"""

from __future__ import annotations

import abc
import contextlib
import ctypes
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from fedtheory.errors import ParameterError
from fedtheory.verify.claim import Experiment
from fedtheory.verify.discovery import load_claim_file

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "available_cores",
    "make_executor",
    "run_task",
]

#: Environment variable naming a Dask scheduler address (``--scheduler`` overrides it).
SCHEDULER_ENV = "FEDTHEORY_SCHEDULER"
_CONNECT_TIMEOUT_S = 5.0


def available_cores() -> int:
    """Cores this process may run on (``sched_getaffinity`` where available)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


# --------------------------------------------------------------------------- the worker side


def _experiment(file: str, claim_id: str) -> Experiment:
    for loaded in load_claim_file(file):
        if loaded.claim.id == claim_id:
            return loaded.claim.experiment
    raise ParameterError(parameter="claim", value=claim_id, rule=f"is not defined in {file}")


def _clean_outputs(raw: Any) -> dict[str, float]:
    if not isinstance(raw, Mapping) or not raw:
        raise TypeError(
            f"the experiment must return a non-empty dict of floats, got {type(raw).__name__}"
        )
    out: dict[str, float] = {}
    for name, value in raw.items():
        if not isinstance(name, str):
            raise TypeError(f"output names must be strings, got {name!r}")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise TypeError(
                f"output {name!r} must be a number, got {type(value).__name__}"
            ) from None
        if not math.isfinite(number):
            raise ArithmeticError(
                f"output {name!r} is {number} (non-finite values are never recorded; an "
                "algorithm that diverges should raise DivergenceError)"
            )
        out[name] = number
    return out


def run_task(task: Mapping[str, Any]) -> dict[str, Any]:
    """Run one task: the experiment at one point for a block of replicates.

    Returns ``{"claim", "params", "results": [{"replicate", "seed", "outputs", "seconds"}],
    "error": None | "<Type>: <message>", "failed": None | [replicate, seed]}``. An exception
    in the experiment stops the block; replicates finished before it are returned (and
    stored).
    """
    results: list[dict[str, Any]] = []
    error = None
    failed = None
    try:
        experiment = _experiment(task["file"], task["claim"])
        for replicate, seed in task["replicates"]:
            failed = [int(replicate), int(seed)]
            start = time.perf_counter()
            raw = experiment(dict(task["params"]), int(seed))
            seconds = time.perf_counter() - start
            results.append(
                {
                    "replicate": int(replicate),
                    "seed": int(seed),
                    "outputs": _clean_outputs(raw),
                    "seconds": seconds,
                }
            )
            failed = None
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    return {
        "claim": task["claim"],
        "params": task["params"],
        "results": results,
        "error": error,
        "failed": failed if error else None,
    }


def _die_with_parent() -> None:
    """Worker initializer: on Linux, ask for SIGTERM when the parent dies (e.g. SIGKILLed)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


# --------------------------------------------------------------------------- executors


class Executor(abc.ABC):
    """Runs tasks and yields their results as they complete (in any order)."""

    #: Number of tasks that can run at once.
    workers: int
    #: One-line description for the report (e.g. ``"local, 2 processes"``).
    description: str

    @abc.abstractmethod
    def run(self, tasks: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
        """Yield the result of every task, as each completes."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release processes and connections."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """A pool of worker processes on this machine.

    Parameters
    ----------
    workers
        Number of processes (default: the available cores).

    Notes
    -----
    On Linux the pool forks, so workers inherit the claim files the runner has already loaded
    and start in milliseconds; workers exit if the runner is killed.
    """

    def __init__(self, workers: int | None = None) -> None:
        if workers is None:
            workers = available_cores()
        if not isinstance(workers, int) or workers < 1:
            raise ParameterError(parameter="--workers", value=workers, rule="must be an int >= 1")
        self.workers = workers
        self.description = f"local, {workers} process{'es' if workers > 1 else ''}"
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_die_with_parent,
        )

    def run(self, tasks: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
        window = 4 * self.workers
        pending: set[Future[dict[str, Any]]] = set()
        queue = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                task = next(queue, None)
                if task is None:
                    exhausted = True
                    break
                pending.add(self._pool.submit(run_task, task))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor(Executor):
    """Tasks on a Dask ``distributed`` cluster.

    Parameters
    ----------
    scheduler
        Address of a running scheduler (``tcp://host:8786``). Without one, a ``LocalCluster``
        with ``workers`` single-threaded worker processes is started on the loopback interface
        and closed afterwards.
    workers
        Size of the ``LocalCluster`` (ignored with ``scheduler``).
    connect_timeout
        Seconds to wait for the scheduler before giving up.

    Raises
    ------
    ParameterError
        ``distributed`` is not installed, or no scheduler answers at the address in time.
    """

    def __init__(
        self,
        scheduler: str | None = None,
        workers: int | None = None,
        *,
        connect_timeout: float = _CONNECT_TIMEOUT_S,
    ) -> None:
        try:  # lazily: distributed is an optional dependency (the "distributed" extra)
            import distributed
        except ImportError:
            raise ParameterError(
                parameter="--executor",
                value="dask",
                rule="needs the 'distributed' package: pip install 'fedtheory[distributed]'",
            ) from None
        self._cluster = None
        if scheduler:
            try:
                self._client = distributed.Client(
                    scheduler, timeout=connect_timeout, set_as_default=False
                )
            except (OSError, TimeoutError, ValueError) as exc:
                raise ParameterError(
                    parameter="--scheduler",
                    value=scheduler,
                    rule=f"no Dask scheduler answered within {connect_timeout:g} s "
                    f"({type(exc).__name__})",
                ) from None
            info = self._client.scheduler_info()
            self.workers = max(1, sum(w.get("nthreads", 1) for w in info["workers"].values()))
            self.description = f"dask at {scheduler}, {self.workers} threads"
        else:
            if workers is None:
                workers = available_cores()
            if not isinstance(workers, int) or workers < 1:
                raise ParameterError(
                    parameter="--workers", value=workers, rule="must be an int >= 1"
                )
            self._cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                protocol="tcp://",
                dashboard_address=None,
                silence_logs=40,  # logging.ERROR
            )
            self._client = distributed.Client(self._cluster, set_as_default=False)
            self.workers = workers
            self.description = f"dask LocalCluster, {workers} worker processes"
        scheduler_rpc = self._client.scheduler
        assert scheduler_rpc is not None  # set by a connected client
        self.address = scheduler_rpc.address

    def run(self, tasks: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
        import distributed  # optional dependency: present, since __init__ succeeded

        window = 4 * self.workers
        queue = iter(tasks)
        initial = [
            self._client.submit(run_task, dict(t), pure=False)
            for t in (next(queue, None) for _ in range(window))
            if t is not None
        ]
        if not initial:
            return
        completed = distributed.as_completed(initial, with_results=True, loop=self._client.loop)
        for _future, result in completed:
            task = next(queue, None)
            if task is not None:
                completed.add(self._client.submit(run_task, dict(task), pure=False))
            yield result

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close()


def make_executor(
    kind: str | None = None, *, workers: int | None = None, scheduler: str | None = None
) -> Executor:
    """The executor named on the command line.

    Parameters
    ----------
    kind
        ``"local"``, ``"dask"`` or None: ``dask`` when a scheduler is given (``scheduler`` or
        the ``FEDTHEORY_SCHEDULER`` environment variable), else ``local``.
    workers
        Local processes, or the size of a ``LocalCluster``.
    scheduler
        Dask scheduler address (overrides the environment variable).
    """
    if kind not in (None, "local", "dask"):
        raise ParameterError(parameter="--executor", value=kind, rule="must be 'local' or 'dask'")
    if kind == "local" and scheduler:
        raise ParameterError(
            parameter="--scheduler",
            value=scheduler,
            rule="needs --executor dask (or no --executor)",
        )
    if kind == "local":
        return LocalExecutor(workers)
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if kind == "dask" or scheduler:
        return DaskExecutor(scheduler, workers)
    return LocalExecutor(workers)
