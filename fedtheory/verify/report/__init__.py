"""Reports of a verification run: terminal table, figures, ``verdicts.json`` and ``index.html``.

Everything here reads :class:`~fedtheory.verify.claim.ClaimResult` objects (DESIGN §6)::

    report/
      index.html          self-contained: inline CSS and script, figures as data URIs
      verdicts.json       machine-readable verdicts, schema "fedtheory.verdicts"
      figures/<id>.png    one figure per claim that has one ('/' in the id becomes '__')

One module a job: :mod:`~fedtheory.verify.report.terminal` (the verdict table),
:mod:`~fedtheory.verify.report.verdicts_json` (the schema and its validator),
:mod:`~fedtheory.verify.report.html` (the page), ``_common`` (what they share).
"""

from __future__ import annotations

import numbers
import os
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory.errors import ParameterError
from fedtheory.verify._arguments import check_report_dir
from fedtheory.plotting import stamp_text
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    STATUSES,
    figure_name,
    format_ci,
    format_seconds,
    now_utc,
    rerun_command,
    resolving_power_note,
    summarize,
    summary_line,
    write_figure,
)
from fedtheory.verify.report._figures import FigureJob, draw_figures
from fedtheory.verify.report.html import write_html
from fedtheory.verify.report.terminal import (
    FORMATS,
    WIDE_TABLE,
    claim_line,
    render_compact,
    render_notes,
    render_table,
)
from fedtheory.verify.report.verdicts_json import (
    RUN_KEYS,
    VERDICTS_SCHEMA,
    validate_verdicts,
    verdicts_document,
    write_verdicts_json,
)

__all__ = [
    "FORMATS",
    "RUN_KEYS",
    "STATUSES",
    "VERDICTS_SCHEMA",
    "WIDE_TABLE",
    "check_report_dir",
    "claim_line",
    "figure_name",
    "format_ci",
    "format_seconds",
    "render_compact",
    "render_notes",
    "render_table",
    "rerun_command",
    "resolving_power_note",
    "summarize",
    "summary_line",
    "validate_verdicts",
    "verdicts_document",
    "write_figure",
    "write_html",
    "write_report",
    "write_verdicts_json",
]


def write_report(
    results: Sequence[ClaimResult],
    directory: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    workers: int = 1,
) -> dict[str, Path]:
    """Write figures, ``verdicts.json`` and ``index.html`` into ``directory``.

    Files already in the folder are left alone except those written here (figures of the
    claims in ``results``, ``verdicts.json``, ``index.html``). A figure that cannot be drawn
    gives a :class:`RuntimeWarning` and is left out; the rest of the report is still written.
    With ``workers`` > 1, that many processes forked from this one draw the figures (the same
    bytes; on Linux, and only while this process runs no other thread: otherwise, and for
    fewer than 16 figures, they are drawn here). ``fedtheory verify`` passes its workers.

    Returns
    -------
    dict
        ``{"html": index.html, "json": verdicts.json}`` plus ``{claim id: PNG path}`` for
        every figure written.
    """
    if isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 1:
        raise ParameterError(parameter="workers", value=workers, rule="must be an integer ≥ 1")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    created = now_utc()
    figures: dict[str, Path] = {}
    seed = (run_info or {}).get("seed")
    jobs = [
        FigureJob(
            result,
            directory / "figures" / figure_name(result.claim.id),
            stamp_text(result.profile, seed),
        )
        for result in results
        if result.verdict.figure is not None
    ]
    for job, outcome in zip(jobs, draw_figures(jobs, int(workers)), strict=True):
        if outcome.error is not None:  # one bad figure must not cost the whole report
            warnings.warn(
                f"{job.result.claim.id}: could not draw the figure ({outcome.error})",
                RuntimeWarning,
                stacklevel=2,
            )
        elif outcome.path is not None:
            figures[job.result.claim.id] = outcome.path
    json_path = write_verdicts_json(
        results, directory / "verdicts.json", run_info=run_info, created=created
    )
    html_path = write_html(
        results, directory / "index.html", run_info=run_info, figures=figures, created=created
    )
    return {"html": html_path, "json": json_path, **figures}
