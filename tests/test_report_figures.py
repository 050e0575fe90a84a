"""The report's figures drawn on forked processes (``fedtheory.verify.report._figures``)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from test_report import make_claim, result

from fedtheory.errors import ParameterError
from fedtheory.plotting import FigureSpec, Series
from fedtheory.verify import ClaimResult, Verdict, report
from fedtheory.verify.report import _figures

FIGURES = 2 * _figures.PARALLEL_MIN_FIGURES  # enough for the forked path


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


def test_figures_drawn_on_forked_processes_are_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = _results()
    serial = _write(results, tmp_path / "serial", workers=1)
    _pids_of_drawing(monkeypatch, tmp_path / "pids")
    forked = _write(results, tmp_path / "forked", workers=2)
    pids = set((tmp_path / "pids").read_text().split())
    assert len(pids) == 2 and str(os.getpid()) not in pids  # two drawing processes, not this one
    figures = sorted(k for k in serial if k not in ("html", "json"))
    assert len(figures) == FIGURES  # the bad one and the one without a figure are not there
    assert sorted(k for k in forked if k not in ("html", "json")) == figures
    for claim_id in figures:
        assert forked[claim_id].read_bytes() == serial[claim_id].read_bytes(), claim_id
    assert forked["html"].read_text("utf-8").count("data:image/png") == FIGURES


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


def test_what_a_dead_drawing_process_left_is_drawn_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = _results()
    serial = _write(results, tmp_path / "serial", workers=1)
    _pids_of_drawing(monkeypatch, tmp_path / "pids", die_on="classic/figures/c07")
    paths = _write(results, tmp_path / "report", workers=2)
    assert str(os.getpid()) in set((tmp_path / "pids").read_text().split())
    assert sorted(paths) == sorted(serial)
    for claim_id in serial:
        if claim_id not in ("html", "json"):
            assert paths[claim_id].read_bytes() == serial[claim_id].read_bytes(), claim_id


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_write_report_refuses_bad_workers(tmp_path: Path, workers: Any) -> None:
    with pytest.raises(ParameterError, match="workers"):
        report.write_report(_results()[:1], tmp_path / "report", workers=workers)
    assert not (tmp_path / "report").exists()  # refused before anything is written
