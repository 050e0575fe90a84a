"""Preload of the Dask ``LocalCluster`` workers fedtheory starts (see ``DaskExecutor``).

The worker processes share the terminal of the runner: Ctrl-C is the runner's to handle (it
cancels the tasks and closes the cluster), so the workers ignore SIGINT instead of printing
tracebacks.
"""

from __future__ import annotations

import contextlib
import signal
import threading


def dask_setup(worker: object) -> None:
    """Dask preload hook: ignore SIGINT in the worker process."""
    del worker
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
