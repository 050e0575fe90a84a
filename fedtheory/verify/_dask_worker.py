"""Preload of the Dask ``LocalCluster`` workers fedtheory starts (see ``DaskExecutor``).

The worker processes share the terminal of the runner: Ctrl-C is the runner's to handle (it
cancels the tasks and closes the cluster), so the workers ignore SIGINT instead of printing
tracebacks.

A worker also imports what its tasks run (:func:`fedtheory.verify.executors.run_task`, the
claims, the bounds with sympy: ~2 s) before it takes a task, as the runner's own process did
when ``fedtheory.verify`` imported everything at once. Without it, a run whose worker dies
had the scheduler log errors with tracebacks on the runner's terminal in 3 of 6 runs of
``test_a_dying_dask_worker_is_an_error_verdict`` (0 of 8 with it; the workers then import
inside their first task, a restarted one holding the GIL through its heartbeats, we think).
"""

from __future__ import annotations

import contextlib
import signal
import threading

import fedtheory.verify.executors  # noqa: F401  (imported here, before the first task)


def dask_setup(worker: object) -> None:
    """Dask preload hook: ignore SIGINT in the worker process."""
    del worker
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
