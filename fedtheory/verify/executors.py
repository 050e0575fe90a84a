"""Executors: where tasks run (DESIGN §6).

A *task* is plain data — ``{"task", "file", "claim", "code", "params", "replicates": [[index,
seed], ...]}`` — and so is its result, so the same task gives the same bits whether it runs in
a local process pool or on a Dask ``distributed`` cluster. :func:`run_task` is the one function
workers call. ``code`` is the fingerprint of the code the run planned with: a worker whose code
differs refuses the task (:func:`fedtheory.verify.discovery.claim_for_task`).

- :class:`LocalExecutor` (default): a process pool sized to the machine's cores.
- :class:`DaskExecutor`: an existing scheduler (``--scheduler ADDR`` or ``FEDTHEORY_SCHEDULER``),
  or a ``LocalCluster`` of worker processes when no address is given. Workers must see the claim
  files at the same path (a shared file system) and have fedtheory installed.

Both keep a bounded window of tasks in flight and yield results as they complete, so that the
runner stores each one at once. Workers also write every finished replicate to a spool
(:mod:`fedtheory.verify._spool`), so that :meth:`Executor.abort` (Ctrl-C) and a dying worker
lose nothing that was finished:

- a worker that dies (SIGKILL, segfault, the OOM killer) turns the task it was running into an
  error outcome naming the replicate and seed it was on; the other tasks in flight are run
  again on fresh workers, from their first unfinished replicate;
- workers ignore SIGINT: Ctrl-C reaches the runner only, which aborts the executor.
"""

from __future__ import annotations

import abc
import contextlib
import ctypes
import logging
import math
import multiprocessing
import os
import signal
import socket
import struct
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from fedtheory.bounds import mutation
from fedtheory.bounds._usage import recording
from fedtheory.errors import ParameterError
from fedtheory.verify._arguments import (
    check_executor_options,
    check_workers,
    scheduler_endpoint,
)
from fedtheory.verify._spool import Spool, SpoolContents, spool_begin, spool_replicate
from fedtheory.verify.claim import Claim
from fedtheory.verify.discovery import claim_for_task
from fedtheory.verify.fingerprint import CodeFingerprint
from fedtheory.verify.store import _outputs_json

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "available_cores",
    "check_executor_options",
    "error_location",
    "make_executor",
    "run_task",
]

_CONNECT_TIMEOUT_S = 5.0
# a scheduler greets at once: waiting 3 s for its handshake keeps every refusal under 5 s
_PROBE_TIMEOUT_S = 3.0
# a Dask handshake is a few hundred bytes; an endpoint announcing more is not a scheduler
_HANDSHAKE_MAX_BYTES = 1 << 20
# pool restarts in a row in which no task made progress before every lost task is an error
_MAX_BARREN_RESTARTS = 3


def available_cores() -> int:
    """Cores this process may run on (``sched_getaffinity`` where available)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


# --------------------------------------------------------------------------- the worker side


def _clean_outputs(raw: Any) -> dict[str, float]:
    """The experiment's outputs as floats, checked, in name order (as the store reads them
    back, so that the runner can judge them as they come)."""
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
    return {name: out[name] for name in sorted(out)}


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"SystemExit({exc.code!r}): the code called sys.exit; a claim never ends the run"
    return f"{type(exc).__name__}: {exc}"


def _outcome(
    task: Mapping[str, Any],
    results: list[dict[str, Any]],
    error: str | None = None,
    failed: list[int] | None = None,
    where: str | None = None,
    trace: str | None = None,
) -> dict[str, Any]:
    return {
        "task": task.get("task", -1),
        "claim": task["claim"],
        "params": task["params"],
        "results": results,
        "error": error,
        "failed": failed if error else None,
        "where": where if error else None,
        "traceback": trace if error else None,
    }


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def error_location(exc: BaseException, claim_file: str | None = None) -> str | None:
    """``file:line`` of where ``exc`` was raised, as a user wants to read it.

    The innermost frame in the claim's own file when the claim file is on the stack (its
    experiment or criterion code), else the innermost frame outside fedtheory's engine (the
    paper or library code that raised), else the innermost frame.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return None
    engine = os.path.join(_PACKAGE_DIR, "verify")
    claim = os.path.abspath(claim_file) if claim_file else None

    def text(frame: traceback.FrameSummary) -> str:
        return f"{frame.filename}:{frame.lineno}"

    if claim is not None:
        own = [f for f in frames if os.path.abspath(f.filename) == claim]
        if own:
            # the claim's innermost line, then where the call went on to raise (if elsewhere)
            innermost = frames[-1]
            if os.path.abspath(innermost.filename) == claim:
                return text(own[-1])
            return f"{text(own[-1])} → {text(innermost)}"
    outside = [f for f in frames if not os.path.abspath(f.filename).startswith(engine)]
    return text(outside[-1] if outside else frames[-1])


def _check_uses(claim: Claim, used: set[str]) -> None:
    """Refuse data from an experiment that evaluated a bound its measurement does not declare."""
    undeclared = sorted(used - set(claim.measurement.bounds))
    if undeclared:
        raise ParameterError(
            f"the experiment {claim.experiment.__qualname__} evaluated {', '.join(undeclared)}, "
            f"which its measurement {claim.measurement.id!r} does not declare: add "
            "uses=[bounds.get(...)] to it (coverage and mutation analysis depend on it)"
        )


def run_task(task: Mapping[str, Any]) -> dict[str, Any]:
    """Run one task: the experiment at one point for a block of replicates.

    Returns ``{"task", "claim", "params", "results": [{"replicate", "seed", "outputs",
    "outputs_json", "seconds", "evaluated"}], "error": None | "<Type>: <message>", "failed":
    None | [replicate, seed]}``, where ``outputs_json`` is the outputs' text as the store writes
    it (written here, in parallel, rather than in the runner) and ``evaluated`` lists (sorted)
    the registered bounds the replicate's experiment evaluated (:mod:`fedtheory.bounds._usage`):
    what the runner reports as :attr:`~fedtheory.verify.claim.ClaimResult.evaluated`.
    Anything the experiment raises — ``SystemExit`` included — stops the block and becomes the
    error; replicates finished before it are returned (and stored). A worker whose code is not
    the task's fingerprint refuses the task (the error names the files that differ). A task
    with a ``"mutant"`` (``Mutant.to_dict()``) runs with that mutant planted in the registry;
    an experiment that evaluates a bound its measurement does not declare (``uses=``) fails.
    """
    results: list[dict[str, Any]] = []
    error = None
    failed = None
    spool = task.get("spool")
    index = int(task.get("task", -1))
    try:
        spool_begin(spool, index)
        code = CodeFingerprint.from_mapping(task["code"])
        with contextlib.ExitStack() as planted:
            if task.get("mutant"):
                # the claim file first: the mutated bound may be one its folder registers (a
                # paper of the user's own), unknown to a fresh worker until the file is loaded
                claim_for_task(task["file"], task["claim"], code)
                planted.enter_context(mutation.applied(mutation.mutant_from_dict(task["mutant"])))
            claim = claim_for_task(task["file"], task["claim"], code)
            for replicate, seed in task["replicates"]:
                failed = [int(replicate), int(seed)]
                start = time.perf_counter()
                with recording() as used:
                    raw = claim.experiment(dict(task["params"]), int(seed))
                seconds = time.perf_counter() - start
                _check_uses(claim, used)
                outputs = _clean_outputs(raw)
                result = {
                    "replicate": int(replicate),
                    "seed": int(seed),
                    "outputs": outputs,
                    "outputs_json": _outputs_json(outputs),
                    "seconds": seconds,
                    "evaluated": sorted(used),
                }
                results.append(result)
                spool_replicate(spool, index, result)
                failed = None
    except BaseException as exc:  # SystemExit and friends: an error of this task, never an exit
        error = _describe(exc)
        where = error_location(exc, task.get("file"))
        trace = "".join(traceback.format_exception(exc))
        if failed is None and task["replicates"] and not results:
            failed = [int(v) for v in task["replicates"][0]]
        return _outcome(task, results, error, failed, where, trace)
    return _outcome(task, results, error, failed)


def _init_worker() -> None:
    """Worker initializer: Ctrl-C is the runner's to handle; die with the runner (Linux)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mutation.reset_after_fork()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _finished_replicates(
    spool: Spool | None, tasks: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Outcomes (without error) holding what the spool says the cancelled ``tasks`` finished."""
    if spool is None:
        return []
    contents = spool.read()
    outcomes = [_outcome(task, contents.results(int(task["task"]))) for task in tasks]
    return [o for o in outcomes if o["results"]]


def _lost_task_outcome(
    task: Mapping[str, Any], spool: SpoolContents, why: str
) -> tuple[dict[str, Any], list[list[int]]]:
    """An error outcome for a task lost with its worker, and its unfinished replicates."""
    finished = spool.results(int(task["task"]))
    done = {r["replicate"] for r in finished}
    remaining = [[int(r), int(s)] for r, s in task["replicates"] if int(r) not in done]
    error = f"{why} (rerun to retry it)" if remaining else None
    return _outcome(task, finished, error, remaining[0] if remaining else None), remaining


# --------------------------------------------------------------------------- timeouts


def _timeout_message(limit: float) -> str:
    return (
        f"TimeoutError: the claim ran for more than {limit:g} s (--timeout) and was stopped; "
        "its finished replicates are kept"
    )


class _ClaimClock:
    """Wall time of each claim since its first task started running (for ``--timeout``).

    A task counts as started when its future is running: the pool has handed it to a worker's
    call queue, which holds at most one task more than there are workers, so a claim's clock
    may start up to one task early — never late.
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.started: dict[str, float] = {}
        self.stopped: set[str] = set()
        #: how long to wait for a task before looking at the clocks again
        self.poll = None if limit is None else min(1.0, max(0.05, limit / 10))

    def saw_running(self, claims: Iterable[str]) -> None:
        now = time.monotonic()
        for claim in claims:
            self.started.setdefault(claim, now)

    def late(self) -> set[str]:
        if self.limit is None:
            return set()
        now = time.monotonic()
        late = {
            claim
            for claim, began in self.started.items()
            if claim not in self.stopped and now - began > self.limit
        }
        self.stopped |= late
        return late

    def message(self) -> str:
        assert self.limit is not None
        return _timeout_message(self.limit)


# --------------------------------------------------------------------------- executors


class Executor(abc.ABC):
    """Runs tasks and yields their results as they complete (in any order)."""

    #: Number of tasks that can run at once.
    workers: int
    #: One-line description for the report (e.g. ``"local, 2 processes"``).
    description: str

    @abc.abstractmethod
    def run(
        self, tasks: Sequence[Mapping[str, Any]], *, timeout: float | None = None
    ) -> Iterator[dict[str, Any]]:
        """Yield the result of every task, as each completes.

        A task lost with its worker yields an error outcome (with the replicates it finished);
        the executor goes on with the others. A task the executor runs again (its worker was
        lost, through no fault of its own) may first yield the replicates it finished, marked
        ``"partial": True``: the task has not answered yet, its other replicates follow.

        ``timeout`` (seconds): a claim (the tasks with one ``"claim"``) still running that long
        after its first task started is stopped, its tasks ending with a ``TimeoutError``
        outcome; an executor that cannot stop a running task raises
        :class:`~fedtheory.errors.ParameterError` for a ``timeout``.
        """

    @abc.abstractmethod
    def abort(self) -> list[dict[str, Any]]:
        """Stop at once (Ctrl-C): cancel every task in flight, stop the workers, and return the
        finished replicates of the cancelled tasks (outcomes without error). The executor cannot
        be used again."""

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
    and start in milliseconds; workers exit if the runner is killed. When a worker dies, the
    pool is broken as a whole: the task the dead worker was running becomes an error (the
    others were only collateral) and a fresh pool runs the rest.
    """

    def __init__(self, workers: int | None = None) -> None:
        workers = check_workers(workers) or available_cores()
        self.workers = workers
        self.description = f"local, {workers} process{'es' if workers > 1 else ''}"
        self._method = "fork" if sys.platform.startswith("linux") else "spawn"
        self._pool: ProcessPoolExecutor | None = None
        self._processes: dict[int, Any] = {}
        self._in_flight: dict[Future[dict[str, Any]], Mapping[str, Any]] = {}
        self._spool: Spool | None = None
        # claims stopped by --timeout (claim id -> the limit), and whether one was running
        self._late_claims: dict[str, float] = {}
        self._timed_out_running = False

    def _start_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context(self._method),
                initializer=_init_worker,
            )
            self._processes = {}
        return self._pool

    def _submit(self, task: Mapping[str, Any]) -> None:
        pool = self._start_pool()
        self._in_flight[pool.submit(run_task, task)] = task
        # the processes of the pool (private, stable since Python 3.2): to read exit codes
        self._processes.update(getattr(pool, "_processes", None) or {})

    def _stop_pool(self) -> dict[int, int | None]:
        """Shut the (broken) pool down; the exit code of each of its processes."""
        processes = dict(self._processes)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None
        for process in processes.values():
            process.join(timeout=5)
        return {pid: process.exitcode for pid, process in processes.items()}

    def run(
        self, tasks: Sequence[Mapping[str, Any]], *, timeout: float | None = None
    ) -> Iterator[dict[str, Any]]:
        if self._spool is None:
            self._spool = Spool()
        window = 4 * self.workers
        queue: deque[Mapping[str, Any]] = deque(
            {**task, "spool": self._spool.folder} for task in tasks
        )
        clock = _ClaimClock(timeout)
        barren = 0
        while queue or self._in_flight:
            broken = False
            while queue and len(self._in_flight) < window:
                try:
                    self._submit(queue[0])
                except BrokenProcessPool:
                    broken = True
                    break
                queue.popleft()
            lost: list[Mapping[str, Any]] = []
            if self._in_flight:
                done, _ = wait(
                    list(self._in_flight), timeout=clock.poll, return_when=FIRST_COMPLETED
                )
                for future in done:
                    task = self._in_flight.pop(future)
                    try:
                        outcome = future.result()
                    except BrokenProcessPool:
                        lost.append(task)
                        continue
                    except CancelledError:  # a task of a claim that timed out, never started
                        continue
                    barren = 0
                    yield outcome
                yield from self._stop_late_claims(clock, queue)
            if lost or broken or self._timed_out_running:
                lost.extend(self._in_flight.values())
                self._in_flight.clear()
                self._timed_out_running = False
                progress = False
                for outcome, retry in self._recover(lost, give_up=barren >= _MAX_BARREN_RESTARTS):
                    progress = progress or bool(outcome["results"]) or bool(outcome["error"])
                    if outcome["results"] or outcome["error"]:
                        yield outcome
                    if retry:
                        queue.appendleft(retry)
                barren = 0 if progress else barren + 1

    def _stop_late_claims(
        self, clock: _ClaimClock, queue: deque[Mapping[str, Any]]
    ) -> Iterator[dict[str, Any]]:
        """Stop the claims that have run for longer than the timeout (``--timeout``).

        Their waiting tasks are dropped and those not yet started are cancelled, each with a
        timeout error; the workers running their started tasks are killed (a numba kernel
        cannot be interrupted otherwise), and :meth:`_recover` turns those into timeout errors
        with the replicates they finished, and gives the other tasks of the broken pool back.
        """
        if clock.limit is None:
            return
        clock.saw_running(
            task["claim"] for future, task in self._in_flight.items() if future.running()
        )
        late = clock.late()
        if not late:
            return
        for claim in late:
            self._late_claims[claim] = clock.limit
        waiting = [t for t in queue if t["claim"] in late]
        for task in waiting:
            queue.remove(task)
            yield _outcome(task, [], clock.message(), list(task["replicates"][0]))
        running = []
        for future, task in list(self._in_flight.items()):
            if task["claim"] not in late:
                continue
            if future.cancel():
                del self._in_flight[future]
                yield _outcome(task, [], clock.message(), list(task["replicates"][0]))
            else:
                running.append(task)
        if running:
            assert self._spool is not None
            spool = self._spool.read()
            for task in running:
                pid = spool.began_by.get(int(task["task"]))
                if pid is not None and pid in self._processes:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            self._timed_out_running = True

    def _recover(
        self, lost: list[Mapping[str, Any]], *, give_up: bool
    ) -> Iterator[tuple[dict[str, Any], Mapping[str, Any] | None]]:
        """After a worker died: blame the task it ran, and give back the others to run again."""
        exit_codes = self._stop_pool()
        assert self._spool is not None
        spool = self._spool.read()
        # the pool terminates (SIGTERM) its other workers once one has died: the dead ones are
        # those that ended otherwise; if none did (a SIGTERM from outside), every running
        # task is suspect
        dead = {
            pid: code
            for pid, code in exit_codes.items()
            if code is not None and code != -signal.SIGTERM
        }
        for task in lost:
            index = int(task["task"])
            pid = spool.began_by.get(index)
            running = pid is not None and spool.last_task_of.get(pid) == index
            culprit = running and (pid in dead if dead else True)
            late = self._late_claims.get(str(task["claim"]))
            if late is not None:
                outcome, _ = _lost_task_outcome(task, spool, _timeout_message(late))
                yield outcome, None
                continue
            why = (
                f"the worker process running it died ({_exit_text(exit_codes.get(pid or 0))})"
                if culprit
                else "its worker pool broke repeatedly"
            )
            outcome, remaining = _lost_task_outcome(task, spool, why)
            if culprit or give_up:
                yield outcome, None
            else:
                outcome["error"] = outcome["failed"] = None
                outcome["partial"] = bool(remaining)
                yield outcome, ({**task, "replicates": remaining} if remaining else None)

    def abort(self) -> list[dict[str, Any]]:
        in_flight = list(self._in_flight.values())
        self._in_flight.clear()
        for process in self._processes.values():
            with contextlib.suppress(Exception):
                process.kill()
        if self._pool is not None:
            # Join the pool's manager thread (bounded): with the workers killed it ends at
            # once. Left running, it can close its wake-up pipe while the interpreter's exit
            # hook writes to it, and Python 3.11 then prints an OSError traceback after ours.
            closer = threading.Thread(
                target=self._pool.shutdown,
                kwargs={"wait": True, "cancel_futures": True},
                daemon=True,
            )
            closer.start()
            closer.join(timeout=10)
        for process in self._processes.values():
            process.join(timeout=1)
        self._pool = None
        return _finished_replicates(self._spool, in_flight)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._spool is not None:
            self._spool.close()
            self._spool = None


def _receive(sock: socket.socket, size: int, deadline: float) -> bytes:
    data = b""
    while len(data) < size:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the connection was closed")
        data += chunk
    return data


def probe_scheduler(address: str, timeout: float = _CONNECT_TIMEOUT_S) -> None:
    """Check within ``timeout`` seconds that a Dask scheduler answers at ``address``.

    A Dask scheduler greets every connection with its handshake: an 8-byte frame length and a
    few hundred bytes of msgpack naming ``pickle-protocol``. An HTTP server waits for a request
    (a timeout here), a proxy answers something else; both are refused before ``distributed``
    would wait for (or try to allocate) a frame that never comes. With other schemes (``tls://``:
    the greeting is encrypted) only the connection is checked.

    Raises
    ------
    ParameterError
        A malformed address, nothing listening, or an endpoint that is not a Dask scheduler.
    """
    scheme, host, port = scheduler_endpoint(address)
    if scheme == "inproc":
        return
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise ParameterError(
            parameter="--scheduler", value=address, rule=f"cannot connect ({reason})"
        ) from None
    with sock:
        if scheme != "tcp":
            return
        try:
            (length,) = struct.unpack("<Q", _receive(sock, 8, deadline))
            if not 0 < length <= _HANDSHAKE_MAX_BYTES:
                raise ValueError(f"a first frame of {length} bytes")
            greeting = _receive(sock, length, deadline)
            if b"pickle-protocol" not in greeting:
                raise ValueError("a greeting without the Dask handshake")
        except TimeoutError:
            rule = (
                f"accepted the connection but sent no Dask handshake within {timeout:g} s "
                "(an HTTP server or a proxy?)"
            )
            raise ParameterError(parameter="--scheduler", value=address, rule=rule) from None
        except (OSError, ValueError) as exc:
            raise ParameterError(
                parameter="--scheduler",
                value=address,
                rule=f"is not a Dask scheduler (it answered with {exc})",
            ) from None


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
        ``distributed`` is not installed, or no scheduler answers at the address in time (an
        endpoint that is not a Dask scheduler is refused within ``connect_timeout``).
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
        self._aborted = False
        self._in_flight: dict[Any, Mapping[str, Any]] = {}
        self._spool: Spool | None = None
        if scheduler:
            probe_scheduler(scheduler, min(connect_timeout, _PROBE_TIMEOUT_S))
            try:
                self._client = distributed.Client(
                    scheduler, timeout=connect_timeout, set_as_default=False
                )
            except Exception as exc:
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
            workers = check_workers(workers) or available_cores()
            self._cluster = distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                protocol="tcp://",
                dashboard_address=None,
                # the scheduler's HTTP endpoints (/health, /metrics) on a free port: the
                # default 8787 is busy whenever another cluster runs, and Dask then warns
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                silence_logs=40,  # logging.ERROR
                preload=["fedtheory.verify._dask_worker"],
            )
            self._client = distributed.Client(self._cluster, set_as_default=False)
            self.workers = workers
            self.description = f"dask LocalCluster, {workers} worker processes"
        scheduler_rpc = self._client.scheduler
        assert scheduler_rpc is not None  # set by a connected client
        self.address = scheduler_rpc.address

    def _submit(self, task: Mapping[str, Any]) -> Any:
        future = self._client.submit(run_task, dict(task), pure=False)
        self._in_flight[future] = task
        return future

    def run(
        self, tasks: Sequence[Mapping[str, Any]], *, timeout: float | None = None
    ) -> Iterator[dict[str, Any]]:
        import distributed  # optional dependency: present, since __init__ succeeded

        if timeout is not None:
            raise ParameterError(
                parameter="--timeout",
                value=timeout,
                rule="needs the local executor (a running Dask task cannot be stopped)",
            )

        if self._spool is None:
            self._spool = Spool()
        window = 4 * self.workers
        queue = iter([{**task, "spool": self._spool.folder} for task in tasks])
        initial = [self._submit(t) for t in (next(queue, None) for _ in range(window)) if t]
        if not initial:
            return
        completed = distributed.as_completed(initial, loop=self._client.loop)
        for future in completed:
            task = self._in_flight.pop(future)
            following = next(queue, None)
            if following is not None:
                completed.add(self._submit(following))
            try:
                outcome = future.result()
            except Exception as exc:  # KilledWorker: the task's workers died (Dask retried it)
                spool = self._spool.read()
                index = int(task["task"])
                resubmitted = int(task.get("resubmitted", 0))
                if index not in spool.began_by and resubmitted < _MAX_BARREN_RESTARTS:
                    # it never ran: only suspected because it waited on a worker that died
                    completed.add(self._submit({**task, "resubmitted": resubmitted + 1}))
                    continue
                why = f"the worker process running it died ({type(exc).__name__})"
                outcome, _ = _lost_task_outcome(task, spool, why)
            yield outcome

    def _kill_local_workers(self) -> None:
        """SIGKILL the worker processes of our ``LocalCluster``: a busy worker would otherwise
        hold its close (a Python thread cannot be interrupted) for as long as its task runs."""
        if self._cluster is None:
            return
        for nanny in list(getattr(self._cluster, "workers", {}).values()):
            process = getattr(getattr(nanny, "process", None), "process", None)
            pid = getattr(process, "pid", None)
            if pid:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def abort(self) -> list[dict[str, Any]]:
        in_flight = list(self._in_flight.values())
        futures = list(self._in_flight)
        self._in_flight.clear()
        self._aborted = True
        if self._cluster is not None:
            # the in-process scheduler logs every comm its killed workers leave open, from its
            # own thread and after the cluster is closed: an aborted cluster says nothing more
            logging.getLogger("distributed").setLevel(logging.CRITICAL)
            self._kill_local_workers()  # our own workers: no need to ask the scheduler
        else:
            # a remote scheduler is asked to cancel, but never waited for more than a second
            canceller = threading.Thread(
                target=lambda: self._client.cancel(futures, force=True), daemon=True
            )
            canceller.start()
            canceller.join(timeout=1.0)
        finished = _finished_replicates(self._spool, in_flight)
        self.close()
        return finished

    def close(self) -> None:
        if self._cluster is not None and not self._aborted:
            # workers our cluster restarted after a death must finish starting: closing one
            # in the middle of its start-up makes it print a traceback
            with contextlib.suppress(Exception):
                self._client.wait_for_workers(self.workers, timeout=10)
                time.sleep(0.5)
        with contextlib.suppress(Exception):
            self._client.close(timeout=2)
        if self._cluster is not None:
            with contextlib.suppress(Exception):
                self._cluster.close(timeout=1 if self._aborted else 10)
            self._cluster = None
        if self._spool is not None:
            self._spool.close()
            self._spool = None


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
    kind, workers, scheduler = check_executor_options(kind, workers=workers, scheduler=scheduler)
    if kind == "local":
        return LocalExecutor(workers)
    return DaskExecutor(scheduler, workers)
