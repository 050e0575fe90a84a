"""The arguments of a run, checked before anything heavy is imported.

:func:`~fedtheory.verify.runner.verify` checks every argument before it loads or runs
anything. ``fedtheory verify`` runs the same checks (:func:`check_run`, :func:`check_report_dir`)
before it imports the runner — the claims, the criteria, sympy, scipy, matplotlib and numba, about
a second of CPU — so that a bad option is refused in a fraction of that. This module imports only
the profiles (:mod:`.sweep`, numpy) and the errors.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.verify.sweep import PROFILES

__all__ = [
    "SCHEDULER_ENV",
    "SEED_LIMIT",
    "check_executor_options",
    "check_limits",
    "check_profile",
    "check_report_dir",
    "check_run",
    "check_seed",
    "check_timeout_executor",
    "check_workers",
    "scheduler_endpoint",
]

#: Environment variable naming a Dask scheduler address (``--scheduler`` overrides it).
SCHEDULER_ENV = "FEDTHEORY_SCHEDULER"
#: Seeds are stored as SQLite integers (signed 64 bits): the base seed is below 2**63.
SEED_LIMIT = 2**63
#: Address schemes of a Dask scheduler.
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def check_profile(profile: str) -> None:
    if profile not in PROFILES:
        raise ParameterError(
            parameter="--profile", value=profile, rule=f"must be one of {', '.join(PROFILES)}"
        )


def check_seed(seed: Any) -> int:
    if (
        isinstance(seed, bool)
        or not isinstance(seed, (int, np.integer))
        or not 0 <= seed < SEED_LIMIT
    ):
        raise ParameterError(parameter="--seed", value=seed, rule="must be an int in [0, 2**63)")
    return int(seed)


def check_limits(maxfail: Any, timeout: Any, on_claim: Any = None, on_progress: Any = None) -> None:
    if maxfail is not None and (
        isinstance(maxfail, bool) or not isinstance(maxfail, int) or maxfail < 1
    ):
        raise ParameterError(parameter="--maxfail", value=maxfail, rule="must be an int >= 1")
    if timeout is not None and (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ParameterError(
            parameter="--timeout", value=timeout, rule="must be a positive number of seconds"
        )
    for name, value in (("on_claim", on_claim), ("on_progress", on_progress)):
        if value is not None and not callable(value):
            raise ParameterError(parameter=name, value=repr(value), rule="must be callable")


def check_workers(workers: Any) -> int | None:
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ParameterError(parameter="--workers", value=workers, rule="must be an int >= 1")
    return workers


def scheduler_endpoint(address: str) -> tuple[str, str, int]:
    """``(scheme, host, port)`` of a scheduler address (``tcp://HOST:PORT``, ``HOST:PORT``).

    ``inproc://`` addresses (a scheduler in this process) have host and port ``("", 0)``.
    """
    rule = "must be tcp://HOST:PORT (or HOST:PORT, or another Dask scheme such as tls://)"
    if not isinstance(address, str) or not address.strip():
        raise ParameterError(parameter="--scheduler", value=address, rule=rule)
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    if scheme not in _SCHEMES:
        raise ParameterError(parameter="--scheduler", value=address, rule=rule)
    if scheme == "inproc":
        return scheme, "", 0
    if rest.startswith("["):  # [IPv6]:port
        host, _, port_text = rest[1:].partition("]")
        port_text = port_text[1:] if port_text.startswith(":") else ""
    else:
        host, _, port_text = rest.rpartition(":")
    bad = not host or any(c.isspace() or c in "/?#@[]" for c in host)
    if bad or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ParameterError(parameter="--scheduler", value=address, rule=rule)
    return scheme, host, int(port_text)


def check_executor_options(
    kind: str | None = None, *, workers: Any = None, scheduler: Any = None
) -> tuple[str, int | None, str | None]:
    """Validate the executor options without starting anything: ``(kind, workers, scheduler)``.

    ``kind`` is resolved (``dask`` when a scheduler is given, by argument or by the
    ``FEDTHEORY_SCHEDULER`` environment variable, else ``local``) and the scheduler address is
    checked for form (it is contacted only when tasks are to run).

    Raises
    ------
    ParameterError
        Unknown kind, workers that are not an int >= 1, a malformed scheduler address, or a
        scheduler with ``kind="local"``.
    """
    if kind not in (None, "local", "dask"):
        raise ParameterError(parameter="--executor", value=kind, rule="must be 'local' or 'dask'")
    workers = check_workers(workers)
    if scheduler is not None and not isinstance(scheduler, str):
        raise ParameterError(parameter="--scheduler", value=repr(scheduler), rule="must be a str")
    if kind == "local" and scheduler:
        raise ParameterError(
            parameter="--scheduler",
            value=scheduler,
            rule="needs --executor dask (or no --executor)",
        )
    if kind != "local":
        scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if scheduler:
        scheduler_endpoint(scheduler)
    resolved = "dask" if kind == "dask" or scheduler else "local"
    return resolved, workers, scheduler


def check_run(
    *,
    profile: str,
    seed: Any,
    maxfail: Any,
    timeout: Any,
    executor: str | None,
    workers: Any,
    scheduler: Any,
) -> None:
    """The checks :func:`~fedtheory.verify.runner.verify` makes of these arguments, in its order
    (the profile, the seed, the limits, the executor options, a timeout with Dask)."""
    check_profile(profile)
    check_seed(seed)
    check_limits(maxfail, timeout)
    check_executor_options(executor, workers=workers, scheduler=scheduler)
    check_timeout_executor(timeout, executor, scheduler)


def check_timeout_executor(timeout: Any, executor: Any, scheduler: Any) -> None:
    """``--timeout`` needs the local executor (a running Dask task cannot be stopped)."""
    if timeout is not None and (executor == "dask" or scheduler is not None):
        raise ParameterError(
            parameter="--timeout",
            value=timeout,
            rule="needs the local executor (a running Dask task cannot be stopped)",
        )


def check_report_dir(directory: str | os.PathLike[str]) -> Path:
    """Make sure a report can be written into ``directory`` (before a run computes anything).

    The folder is created if needed and a probe file is written and removed.

    Raises
    ------
    ParameterError
        The path is a file, or the folder cannot be created or written.
    """
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".fedtheory-probe-"):
            pass
    except FileExistsError:
        raise ParameterError(
            parameter="--report", value=str(directory), rule="is a file, not a folder"
        ) from None
    except OSError as exc:
        rule = f"cannot write a report there ({exc.strerror or type(exc).__name__})"
        if isinstance(exc, NotADirectoryError):
            rule = "is inside a file, not a folder"
        raise ParameterError(parameter="--report", value=str(directory), rule=rule) from None
    return directory
