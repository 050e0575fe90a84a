"""The spool: what workers have finished, written as it happens (DESIGN §6).

A task is a block of replicates, and its result travels back to the runner only when the whole
block is done. So that an interrupted run or a dying worker loses no replicate that was
finished, each worker also appends a line to its own file in a spool folder (one file per
process: no locks, no interleaving) when it begins a task and when it finishes a replicate::

    {"task": 7, "begin": true}
    {"task": 7, "replicate": 0, "seed": 123, "outputs": {...}, "seconds": 0.01}

A line is written with one ``write`` call on a file opened for appending; a line cut short by a
killed process does not parse and is ignored. The runner reads the spool only for the tasks
whose result did not arrive (interrupted, or lost with their worker), stores the finished
replicates and names the replicate that was running. Workers that cannot see the folder (a
Dask worker on another machine) skip the spool: their tasks come back whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Spool", "SpoolContents", "spool_begin", "spool_replicate"]

# worker side: one descriptor per (folder, process)
_HANDLES: dict[tuple[str, int], int] = {}


def _write(folder: str | None, line: str) -> None:
    if not folder:
        return
    key = (folder, os.getpid())
    fd = _HANDLES.get(key)
    if fd is None:
        for old in [k for k in _HANDLES if k[1] == key[1]]:  # a previous run's folder
            old_fd = _HANDLES.pop(old)
            if old_fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(old_fd)
        if not os.path.isdir(folder):
            _HANDLES[key] = -1  # not visible from this worker: no spool
            return
        try:
            fd = os.open(
                os.path.join(folder, f"{os.getpid()}.jsonl"),
                os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                0o600,
            )
        except OSError:
            fd = -1
        _HANDLES[key] = fd
    if fd < 0:
        return
    with contextlib.suppress(OSError):  # a full disk loses the spool line, never the task
        os.write(fd, line.encode())


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n"


def spool_begin(folder: str | None, task: int) -> None:
    """Worker: note that this process begins ``task``."""
    if folder:
        _write(folder, _line({"task": task, "begin": True}))


def spool_replicate(folder: str | None, task: int, result: dict[str, Any]) -> None:
    """Worker: note a finished replicate of ``task`` (``result`` as returned in the task's).

    The outputs go in as their ``outputs_json`` text when the result has it (written once
    for the store), else encoded here.
    """
    if not folder:
        return
    text = result.get("outputs_json")
    if text is None:
        _write(folder, _line({"task": task, **result}))
        return
    rest = {k: v for k, v in result.items() if k not in ("outputs", "outputs_json")}
    head = json.dumps({"task": task, **rest}, separators=(",", ":"), allow_nan=False)
    _write(folder, f'{head[:-1]},"outputs":{text}}}\n')


@dataclass
class SpoolContents:
    """What the spool says: per task, the process that last began it and its finished replicates."""

    began_by: dict[int, int] = field(default_factory=dict)
    last_task_of: dict[int, int] = field(default_factory=dict)
    finished: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)

    def results(self, task: int) -> list[dict[str, Any]]:
        """The finished replicates of ``task`` (each once), in replicate order."""
        return [self.finished[task][r] for r in sorted(self.finished.get(task, {}))]


_PREFIX = "fedtheory-spool-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _remove_orphans() -> None:
    """Remove the spool folders of runners that died without closing them (SIGKILL)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_PREFIX}*-*"):
        pid_text = folder.name[len(_PREFIX) :].partition("-")[0]
        if pid_text.isdigit() and not _alive(int(pid_text)):
            shutil.rmtree(folder, ignore_errors=True)


class Spool:
    """A spool folder for one run (created empty, removed by :meth:`close`).

    The folder's name carries the runner's process id, so that the folders of runners killed
    before they could remove theirs are removed by the next run.
    """

    def __init__(self) -> None:
        _remove_orphans()
        self.folder = tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-")

    def read(self) -> SpoolContents:
        """Parse every worker's file (lines cut short are skipped)."""
        contents = SpoolContents()
        for path in sorted(Path(self.folder).glob("*.jsonl")):
            try:
                pid = int(path.stem)
                lines = path.read_bytes().splitlines()
            except (ValueError, OSError):
                continue
            for line in lines:
                try:
                    record = json.loads(line)
                    task = int(record["task"])
                    if record.get("begin"):
                        contents.began_by[task] = pid
                        contents.last_task_of[pid] = task
                    else:
                        replicate = int(record["replicate"])
                        result = {
                            "replicate": replicate,
                            "seed": int(record["seed"]),
                            "outputs": dict(record["outputs"]),
                            "seconds": float(record["seconds"]),
                            "evaluated": [str(b) for b in record.get("evaluated", ())],
                        }
                        contents.finished.setdefault(task, {})[replicate] = result
                except (ValueError, KeyError, TypeError):
                    continue
        return contents

    def close(self) -> None:
        """Remove the folder."""
        shutil.rmtree(self.folder, ignore_errors=True)
