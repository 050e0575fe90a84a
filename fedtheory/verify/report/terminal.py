"""The verdict table on the terminal."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    by_paper,
    format_ci,
    resolving_power_note,
)
from fedtheory.verify.verdict import Verdict

__all__ = ["WIDE_TABLE", "render_table"]

#: Consoles at least this wide get a separate source column in :func:`render_table`.
WIDE_TABLE = 130

_STATUS_STYLE = {
    "holds": "green",
    "violated-as-expected": "green",
    "failed": "bold red",
    "reported": "cyan",
    "inconclusive": "yellow",
    "error": "magenta",
}

# --------------------------------------------------------------------------- terminal


def render_table(results: Sequence[ClaimResult], console: Console) -> None:
    """Print the verdict table, grouped by paper, then the reason of every claim that failed.

    Columns: claim, source, criterion, predicted, measured, CI, outcome (coloured by status)
    and pass (✓ when the outcome equals the claim's ``expect``). On a console narrower than
    :data:`WIDE_TABLE` characters the source is printed under the claim id instead of in a
    column of its own, so that the table fits 100 columns. Claim ids are never wrapped.
    User-supplied text is never interpreted as rich markup; on a console that is not a
    terminal no colour codes are written.
    """
    if not results:
        console.print("no claims")
        return
    wide = console.width >= WIDE_TABLE
    id_width = max(len(r.claim.id) for r in results)
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        show_edge=False,
        header_style="bold",
    )
    table.add_column("claim" if wide else "claim / source", no_wrap=True)
    if wide:
        table.add_column("source")
    table.add_column("criterion")
    table.add_column("predicted")
    table.add_column("measured")
    table.add_column("CI", no_wrap=True)
    table.add_column("outcome", no_wrap=True)
    table.add_column("pass", no_wrap=True, justify="center")
    for index, (paper, group) in enumerate(by_paper(results)):
        if index:
            table.add_section()
        table.add_row(Text(paper, style="bold underline"))
        for result in group:
            info = result.claim.describe()
            source = str(info.get("source", ""))
            verdict = result.verdict
            cells = [Text(result.claim.id)]
            if wide:
                cells.append(Text(source))
            else:  # wrapped by hand to the id column, which must not wrap the ids
                wrapped = textwrap.fill(source, width=max(id_width, 18), break_on_hyphens=False)
                cells[0].append("\n" + wrapped, style="dim")
            cells += [
                Text(str(info.get("criterion", ""))),
                Text(verdict.predicted or "—"),
                _measured_cell(verdict),
                Text(format_ci(verdict.ci)),
                Text(verdict.outcome, style=_STATUS_STYLE.get(result.status, "")),
                _pass_cell(result),
            ]
            table.add_row(*cells)
    console.print(table)
    for result in results:
        if not result.acceptable:
            line = Text()
            line.append("✗ ", style="bold red")
            line.append(result.claim.id, style="bold")
            line.append(f" ({result.verdict.outcome}, expected {result.claim.expect}): ")
            line.append(result.verdict.reason)
            console.print(line)


def _pass_cell(result: ClaimResult) -> Text:
    """✓ / ✗ for a gating claim; for a claim with ``gating=False`` its mark in brackets, dim:
    reported, not counted in the exit status."""
    if result.claim.gating:
        return Text("✓", style="green") if result.passed else Text("✗", style="bold red")
    return Text("(✓)" if result.passed else "(✗)", style="dim") + Text("\nnot gating", style="dim")


def _measured_cell(verdict: Verdict) -> Text:
    cell = Text(verdict.measured or "—")
    note = resolving_power_note(verdict)
    if note is not None:
        cell.append(f"\n⚠ {note}", style="yellow")
    return cell
