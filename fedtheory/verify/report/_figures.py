"""The figures of a report, drawn one after the other or on forked processes (private).

Drawing is most of what a run whose results are all cached does (453 figures of the smoke
profile: ~50 s of the 61 s of a cached run on one core), and every figure is independent of the
others. With ``workers > 1`` the figures are drawn by that many processes forked from this one
— they inherit the results, so nothing is sent to them but index ranges — each writing its
PNGs itself (atomically, as the serial path does). A forked process draws exactly what this
process would: the same specification through the same code, so the same bytes.

Forking is used only where it is safe and available: a POSIX ``fork`` start method, no thread
but the main one (a fork while another thread holds a lock can deadlock the child; a run's
executor is closed before its report is written, and a Dask client keeps threads, so such a run
draws serially), and a process that can list its open files (``/proc/self/fd``). The last is
for the fonts: a matplotlib font reads its file through a descriptor, and a forked process
shares that descriptor's offset with its parent and its siblings, so two drawing processes
loading glyphs at once would read each other's bytes — FreeType's "invalid outline", or a wrong
glyph drawn without a word. matplotlib empties its own font cache in a forked process, but its
parsed mathematical text (the tick labels of a log axis) keeps fonts of the parent, and other
caches may too; so each drawing process first gives itself its own descriptor of every file it
inherited open for reading (:func:`_own_inherited_files`), whatever object holds it. A drawing
process that dies (a crash in a native library) ends the parallel drawing; what it had not
drawn is then drawn here, as before.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import stat
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import NamedTuple

from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import write_figure

__all__: list[str] = []

#: Fewer figures than this are drawn here: forking costs more than it saves.
PARALLEL_MIN_FIGURES = 16

#: This process's open file descriptors, one entry each (Linux).
_OPEN_FILES = Path("/proc/self/fd")


class FigureJob(NamedTuple):
    """One figure to draw: the result, the PNG's path and the stamp in its corner."""

    result: ClaimResult
    path: Path
    stamp: str


class FigureOutcome(NamedTuple):
    """What became of a job: the path written (None: nothing to draw), or the error's text."""

    job_index: int
    path: Path | None
    error: str | None


#: The jobs of the drawing in progress; forked processes read them from here.
_JOBS: Sequence[FigureJob] = ()


def _draw(index: int) -> FigureOutcome:
    job = _JOBS[index]
    try:
        return FigureOutcome(index, write_figure(job.result, job.path, stamp=job.stamp), None)
    except Exception as exc:  # one bad figure must not cost the others
        return FigureOutcome(index, None, f"{type(exc).__name__}: {exc}")


def _draw_share(indices: range) -> list[FigureOutcome]:
    return [_draw(index) for index in indices]


def _own_inherited_files() -> None:
    """Give this forked process its own open file description of every regular file it
    inherited open for reading only: the same file at the same offset, under the same number,
    but an offset no other process moves.

    A descriptor that cannot be reopened as the same file (a file deleted or replaced since it
    was opened) is left as it is.
    """
    import fcntl  # POSIX only, as forking is

    for entry in os.listdir(_OPEN_FILES):
        descriptor = int(entry)
        try:
            if fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE != os.O_RDONLY:
                continue
            inherited = os.fstat(descriptor)
            if not stat.S_ISREG(inherited.st_mode):
                continue
            own = os.open(os.readlink(_OPEN_FILES / entry), os.O_RDONLY)
        except OSError:  # the listing's own descriptor, closed since; a path that is gone
            continue
        try:
            reopened = os.fstat(own)
            if (reopened.st_dev, reopened.st_ino) == (inherited.st_dev, inherited.st_ino):
                os.lseek(own, os.lseek(descriptor, 0, os.SEEK_CUR), os.SEEK_SET)
                os.dup2(own, descriptor, inheritable=os.get_inheritable(descriptor))
        finally:
            os.close(own)


def _start_drawing_process() -> None:
    """Drawing process initializer: Ctrl-C is the parent's to handle; no file offset is shared."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _own_inherited_files()


def _can_fork() -> bool:
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and _OPEN_FILES.is_dir()
    )


def draw_figures(jobs: Sequence[FigureJob], workers: int = 1) -> list[FigureOutcome]:
    """Draw every job's figure; one outcome per job, in the jobs' order.

    ``workers`` processes draw them when there are at least :data:`PARALLEL_MIN_FIGURES` and
    forking is safe (see the module docstring); otherwise, and for whatever a dead drawing
    process left undone, this process does.
    """
    global _JOBS
    outcomes: dict[int, FigureOutcome] = {}
    _JOBS = jobs
    try:
        if workers > 1 and len(jobs) >= PARALLEL_MIN_FIGURES and _can_fork():
            # interleaved shares: neighbouring claims (one paper's) cost about the same
            shares = [range(k, len(jobs), workers) for k in range(workers)]
            context = multiprocessing.get_context("fork")
            try:
                with ProcessPoolExecutor(
                    workers, mp_context=context, initializer=_start_drawing_process
                ) as pool:
                    for share in pool.map(_draw_share, shares):
                        outcomes.update((outcome.job_index, outcome) for outcome in share)
            except BrokenProcessPool:
                pass  # drawn below, here, except what the finished shares returned
        for index in range(len(jobs)):
            if index not in outcomes:
                outcomes[index] = _draw(index)
    finally:
        _JOBS = ()
    return [outcomes[index] for index in range(len(jobs))]
