"""The report's figures drawn on forked processes (``fedtheory.verify.report._figures``)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_report import make_claim, result

from fedtheory.errors import ParameterError
from fedtheory.plotting import FigureSpec, Series
from fedtheory.verify import ClaimResult, Verdict, report
from fedtheory.verify.report import _figures

FIGURES = 2 * _figures.PARALLEL_MIN_FIGURES  # enough for the forked path
TESTS = Path(__file__).resolve().parent


def _results() -> list[ClaimResult]:
    """FIGURES claims with figures of assorted shapes, one that cannot be drawn (series of
    unequal lengths), and one without a figure."""
    out = []
    for k in range(FIGURES):
        x = tuple(float(10**j) for j in range(1, 3 + k % 4))
        y = tuple(1.0 / (v + k) for v in x)
        spec = FigureSpec(
            "n",
            "risk",
            (Series("measured", x, y, "measured"), Series("bound", x, tuple(2 * v for v in y))),
            x_log=k % 2 == 0,
            y_log=k % 3 == 0,
        )
        claim = make_claim(f"classic/figures/c{k:02d}", "Lemma 1", f"Figure {k}.")
        out.append(result(claim, Verdict("holds", "ok", figure=spec)))
    bad = FigureSpec("x", "y", (Series("s", (1.0, 2.0), (1.0,)),))
    out.insert(
        5,
        result(make_claim("classic/figures/bad", "L2", "Bad."), Verdict("holds", "ok", figure=bad)),
    )
    out.insert(
        9, result(make_claim("classic/figures/none", "L3", "No figure."), Verdict("holds", "ok"))
    )
    return out


def _pids_of_drawing(monkeypatch: pytest.MonkeyPatch, log: Path, die_on: str | None = None) -> None:
    """Make every drawing note its process in ``log``; a forked process drawing the claim
    ``die_on`` dies on the spot (as a crash in a native library would)."""
    parent = os.getpid()
    draw = _figures.write_figure

    def noting(result: ClaimResult, path: Any, *, stamp: str | None = None) -> Any:
        if result.claim.id == die_on and os.getpid() != parent:
            os._exit(3)
        with log.open("a") as f:
            f.write(f"{os.getpid()}\n")
        return draw(result, path, stamp=stamp)

    monkeypatch.setattr(_figures, "write_figure", noting)


def _write(results: list[ClaimResult], directory: Path, workers: int) -> dict[str, Path]:
    with pytest.warns(RuntimeWarning, match="classic/figures/bad: could not draw the figure"):
        return report.write_report(results, directory, run_info={"seed": 3}, workers=workers)


def _in_a_fresh_process(scenario: Callable[[Path], None], tmp_path: Path) -> None:
    """Run ``scenario(tmp_path)``, a function of this module, in a fresh interpreter.

    The figures are drawn on forked processes only by a process without other threads, and a
    test process may keep one from an earlier test (distributed's "Dask-Offload" thread lives
    as long as the process): there the drawing stays in the process, as it must, and a test of
    the forked path would test nothing. A fresh interpreter has no other thread.
    """
    code = (
        "import sys; from pathlib import Path; import test_report_figures as module; "
        f"module.{scenario.__name__}(Path(sys.argv[1]))"
    )
    path = os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-6000:]


def _forked_drawing(results: list[ClaimResult], directory: Path, log: Path, **kw: Any) -> Any:
    """Draw ``results`` with 2 workers, every drawing noted in ``log``; check that this
    process could fork (it has no other thread)."""
    assert threading.active_count() == 1, f"threads besides this one: {threading.enumerate()}"
    with pytest.MonkeyPatch.context() as monkeypatch:
        _pids_of_drawing(monkeypatch, log, **kw)
        return _write(results, directory, workers=2)


def _same_bytes_from_forked_processes(tmp_path: Path) -> None:
    results = _results()
    serial = _write(results, tmp_path / "serial", workers=1)
    forked = _forked_drawing(results, tmp_path / "forked", tmp_path / "pids")
    pids = set((tmp_path / "pids").read_text().split())
    assert len(pids) == 2 and str(os.getpid()) not in pids, pids  # two drawing processes
    figures = sorted(k for k in serial if k not in ("html", "json"))
    assert len(figures) == FIGURES, figures  # not the bad one, nor the one without a figure
    assert sorted(k for k in forked if k not in ("html", "json")) == figures
    for claim_id in figures:
        assert forked[claim_id].read_bytes() == serial[claim_id].read_bytes(), claim_id
    assert forked["html"].read_text("utf-8").count("data:image/png") == FIGURES


def test_figures_drawn_on_forked_processes_are_the_same_bytes(tmp_path: Path) -> None:
    _in_a_fresh_process(_same_bytes_from_forked_processes, tmp_path)


def _offsets_of_files_read(directory: Path) -> dict[int, tuple[str, int]]:
    """This process's descriptors of files open for reading only, with their offsets."""
    import fcntl  # Linux, as the tests that call this

    out = {}
    for entry in os.listdir("/proc/self/fd"):
        try:
            path = os.readlink(f"/proc/self/fd/{entry}")
            read_only = fcntl.fcntl(int(entry), fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
            if read_only and os.path.isfile(path) and not path.startswith(str(directory)):
                out[int(entry)] = (path, os.lseek(int(entry), 0, os.SEEK_CUR))
        except OSError:
            continue
    return out


def _no_offset_of_this_process_moved(tmp_path: Path) -> None:
    results = _results()
    _write(results, tmp_path / "serial", workers=1)
    before = _offsets_of_files_read(tmp_path)
    assert any(path.endswith(".ttf") for path, _ in before.values()), before  # fonts are held
    _forked_drawing(results, tmp_path / "forked", tmp_path / "pids")
    pids = (tmp_path / "pids").read_text().split()
    assert str(os.getpid()) not in pids, "drawn in this process"
    after = _offsets_of_files_read(tmp_path)
    kept = [fd for fd in before if fd in after]
    assert {fd: before[fd] for fd in kept} == {fd: after[fd] for fd in kept}, (before, after)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="lists open files on Linux")
def test_drawing_processes_read_no_file_through_a_descriptor_of_this_process(
    tmp_path: Path,
) -> None:
    """The fonts this process holds (its own drawing loaded them, and log-axis tick labels
    keep theirs) are not read by the drawing processes through descriptors they share with
    it: siblings moving one offset at once read each other's glyphs (matplotlib 3.11: "invalid
    outline" in one run of five)."""
    _in_a_fresh_process(_no_offset_of_this_process_moved, tmp_path)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="lists open files on Linux")
def test_a_forked_process_owns_the_offsets_of_the_files_it_inherited(tmp_path: Path) -> None:
    data = bytes(range(256)) * 4
    (tmp_path / "data").write_bytes(data)
    (tmp_path / "log").write_bytes(b"")
    reader = os.open(tmp_path / "data", os.O_RDONLY)
    appender = os.open(tmp_path / "log", os.O_WRONLY | os.O_APPEND)  # not read-only: kept shared
    os.lseek(reader, 100, os.SEEK_SET)
    try:
        child = os.fork()
        if child == 0:  # pragma: no cover - the child's report is its exit status
            ok = False
            try:
                _figures._own_inherited_files()
                ok = os.read(reader, 10) == data[100:110] and os.lseek(reader, 0, 1) == 110
                os.lseek(reader, 700, os.SEEK_SET)
                os.write(appender, b"child")
            finally:
                os._exit(0 if ok else 1)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0  # the child read its file from offset 100
        assert os.lseek(reader, 0, os.SEEK_CUR) == 100  # and moved no offset of this process
        assert os.read(reader, 3) == data[100:103]
        assert os.lseek(appender, 0, os.SEEK_CUR) == 5  # a file open for writing stays shared
    finally:
        os.close(reader)
        os.close(appender)


def _no_listing_no_fork(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(_figures, "_OPEN_FILES", tmp_path / "no-such-listing")

        def no_pool(*args: Any, **kwargs: Any) -> None:
            raise AssertionError("a pool of drawing processes was started")

        monkeypatch.setattr(_figures, "ProcessPoolExecutor", no_pool)
        _forked_drawing(_results(), tmp_path / "report", tmp_path / "pids")
    assert set((tmp_path / "pids").read_text().split()) == {str(os.getpid())}


def test_without_a_list_of_open_files_the_drawing_stays_here(tmp_path: Path) -> None:
    _in_a_fresh_process(_no_listing_no_fork, tmp_path)


def test_a_running_thread_keeps_the_drawing_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pids_of_drawing(monkeypatch, tmp_path / "pids")
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        paths = _write(_results(), tmp_path / "report", workers=2)
    finally:
        release.set()
        other.join()
    assert set((tmp_path / "pids").read_text().split()) == {str(os.getpid())}
    assert len(paths) == FIGURES + 2


def _a_dead_drawing_process_costs_no_figure(tmp_path: Path) -> None:
    results = _results()
    serial = _write(results, tmp_path / "serial", workers=1)
    paths = _forked_drawing(
        results, tmp_path / "report", tmp_path / "pids", die_on="classic/figures/c07"
    )
    pids = set((tmp_path / "pids").read_text().split())
    assert str(os.getpid()) in pids, pids  # this process drew what the dead one left
    assert pids - {str(os.getpid())}, pids  # and forked processes drew before
    assert sorted(paths) == sorted(serial)
    for claim_id in serial:
        if claim_id not in ("html", "json"):
            assert paths[claim_id].read_bytes() == serial[claim_id].read_bytes(), claim_id


def test_what_a_dead_drawing_process_left_is_drawn_here(tmp_path: Path) -> None:
    _in_a_fresh_process(_a_dead_drawing_process_costs_no_figure, tmp_path)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_write_report_refuses_bad_workers(tmp_path: Path, workers: Any) -> None:
    with pytest.raises(ParameterError, match="workers"):
        report.write_report(_results()[:1], tmp_path / "report", workers=workers)
    assert not (tmp_path / "report").exists()  # refused before anything is written
