"""The verdicts on the terminal: a table that fits the width, a compact list, one line per
claim for logs, and the lines that follow them (failures, where errors happened, the commands
that rerun counterexamples).

The table always shows the whole claim id (so it can be pasted into ``--claims``), the outcome
and the pass mark; the other columns are dropped, in the order of :data:`DROP_ORDER`, until
no cell has to break a word at the console's width.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    by_paper,
    format_ci,
    format_seconds,
    rerun_command,
    resolving_power_note,
)
from fedtheory.verify.verdict import Verdict

__all__ = [
    "COLUMNS",
    "DROP_ORDER",
    "FORMATS",
    "WIDE_TABLE",
    "claim_line",
    "render_compact",
    "render_notes",
    "render_table",
    "table_columns",
]

#: Consoles at least this wide get a separate source column in :func:`render_table`.
WIDE_TABLE = 130
#: Output formats of ``fedtheory verify --format``.
FORMATS: tuple[str, ...] = ("table", "compact", "json")
#: Every column of the table, left to right.
COLUMNS: tuple[str, ...] = (
    "claim",
    "source",
    "criterion",
    "predicted",
    "measured",
    "CI",
    "outcome",
    "pass",
)
#: The optional columns, in the order they are dropped when the console is too narrow
#: (claim, outcome and pass always show).
DROP_ORDER: tuple[str, ...] = ("source", "CI", "criterion", "predicted", "measured")

_STATUS_STYLE = {
    "holds": "green",
    "violated-as-expected": "dark_orange",  # an erratum: the paper is wrong, as expected
    "failed": "bold red",
    "reported": "cyan",
    "inconclusive": "yellow",
    "error": "magenta",
}


def _outcome_text(result: ClaimResult) -> Text:
    return Text(result.verdict.outcome, style=_STATUS_STYLE.get(result.status, ""))


def _pass_cell(result: ClaimResult) -> Text:
    """✓ / ✗ for a gating claim; for a claim with ``gating=False`` its mark in brackets, dim:
    reported, not counted in the exit status."""
    if result.claim.gating:
        return Text("✓", style="green") if result.passed else Text("✗", style="bold red")
    return Text("(✓)" if result.passed else "(✗)", style="dim") + Text("\nnot gating", style="dim")


def _measured_cell(verdict: Verdict) -> Text:
    cell = Text(verdict.measured or "—")
    if verdict.where:
        cell.append(f"\nat {verdict.where}", style="dim")
    note = resolving_power_note(verdict)
    if note is not None:
        cell.append(f"\n⚠ {note}", style="yellow")
    return cell


def _build(results: Sequence[ClaimResult], columns: Sequence[str], width: int) -> Table:
    """The table with these columns; the source goes under the id when it has no column and
    the console is narrower than :data:`WIDE_TABLE`."""
    id_width = max(len(r.claim.id) for r in results)
    source_below = "source" not in columns and width < WIDE_TABLE and "criterion" in columns
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        show_edge=False,
        header_style="bold",
    )
    for name in columns:
        heading = "claim / source" if name == "claim" and source_below else name
        no_wrap = name in ("claim", "CI", "outcome", "pass")
        table.add_column(heading, no_wrap=no_wrap, justify="center" if name == "pass" else "left")
    for index, (paper, group) in enumerate(by_paper(results)):
        if index:
            table.add_section()
        table.add_row(Text(paper, style="bold underline"))
        for result in group:
            info = result.claim.describe()
            verdict = result.verdict
            claim_cell = Text(result.claim.id)
            if source_below:  # wrapped by hand to the id column, which must not wrap the ids
                wrapped = textwrap.fill(
                    str(info.get("source", "")), width=max(id_width, 18), break_on_hyphens=False
                )
                claim_cell.append("\n" + wrapped, style="dim")
            cells: dict[str, Text] = {
                "claim": claim_cell,
                "source": Text(str(info.get("source", ""))),
                "criterion": Text(str(info.get("criterion", ""))),
                "predicted": Text(verdict.predicted or "—"),
                "measured": _measured_cell(verdict),
                "CI": Text(format_ci(verdict.ci)),
                "outcome": _outcome_text(result),
                "pass": _pass_cell(result),
            }
            table.add_row(*(cells[name] for name in columns))
    _lay_out(table, width)
    return table


def _column_lines(column: Column) -> list[str]:
    """Every line of the column's header and cells."""
    return [line for cell in (column.header, *column.cells) for line in str(cell).splitlines()]


def _column_natural(column: Column) -> int:
    """The column's width with every cell on its own lines, unwrapped."""
    return max((cell_len(line) for line in _column_lines(column)), default=0)


def _lay_out(table: Table, width: int) -> None:
    """Fix the column widths when the table is wider than ``width``: each column gets its
    longest word, and the room left is shared in proportion to what each column would need
    to show its cells on one line. (Rich's own shrinking may leave a table wider than the
    console, which it then crops.)"""
    minimum = [_column_minimum(c) for c in table.columns]
    natural = [max(n, m) for n, m in zip(map(_column_natural, table.columns), minimum, strict=True)]
    gaps = 2 * (len(table.columns) - 1)
    if sum(natural) + gaps <= width or sum(minimum) + gaps > width:
        for column, least in zip(table.columns, minimum, strict=True):
            column.min_width = least
        return
    room = width - gaps - sum(minimum)
    wants = [n - m for n, m in zip(natural, minimum, strict=True)]
    total = sum(wants)
    for column, least, want in zip(table.columns, minimum, wants, strict=True):
        column.width = least + (room * want) // total


def _column_minimum(column: Column) -> int:
    """The longest word of the column's cells (the whole line for a column that does not
    wrap): narrower, a cell would cut a word."""
    if column.no_wrap:
        return _column_natural(column)
    lines = _column_lines(column)
    return max((cell_len(word) for line in lines for word in line.split()), default=0)


def _minimum_width(table: Table) -> int:
    """The narrowest the table can be without cutting a word (columns at their minimum, plus
    the padding between them)."""
    return sum(_column_minimum(c) for c in table.columns) + 2 * (len(table.columns) - 1)


def table_columns(results: Sequence[ClaimResult], console: Console) -> list[str]:
    """The columns :func:`render_table` shows at the console's width.

    Optional columns are dropped in :data:`DROP_ORDER` until the table's minimum width (each
    cell at its longest word) fits; the source has a column of its own only from
    :data:`WIDE_TABLE` characters.
    """
    columns = list(COLUMNS)
    if console.width < WIDE_TABLE:
        columns.remove("source")
    for name in DROP_ORDER:
        if _minimum_width(_build(results, columns, console.width)) <= console.width:
            break
        if name in columns:
            columns.remove(name)
    return columns


def render_table(
    results: Sequence[ClaimResult],
    console: Console,
    *,
    run_info: Mapping[str, Any] | None = None,
    debug: bool = False,
) -> None:
    """Print the verdict table, grouped by paper (see the module docstring for the columns).

    Outcome coloured by status (errata — violated as expected — in orange, not the green of
    the holds), pass ✓ when the outcome equals the claim's ``expect``. Claim ids are never
    wrapped or cut. User-supplied text is never interpreted as rich markup; on a console that
    is not a terminal no colour codes are written. Then :func:`render_notes`.
    """
    if not results:
        console.print("no claims")
        return
    # never soft-wrapped: a soft-wrapping console would let the table grow past its width
    console.print(_build(results, table_columns(results, console), console.width), soft_wrap=False)
    render_notes(results, console, run_info=run_info, debug=debug)


def render_compact(
    results: Sequence[ClaimResult],
    console: Console,
    *,
    run_info: Mapping[str, Any] | None = None,
    debug: bool = False,
) -> None:
    """One line per claim (:func:`claim_line`), grouped by paper; then :func:`render_notes`."""
    if not results:
        console.print("no claims")
        return
    for paper, group in by_paper(results):
        console.print(Text(paper, style="bold underline"))
        for result in group:
            console.print(claim_line(result, seconds=False))
    render_notes(results, console, run_info=run_info, debug=debug)


def claim_line(result: ClaimResult, *, seconds: bool = True) -> Text:
    """``✓ holds  classic/gd/linear-rate  0.4 s``: the pass mark, the outcome, the id and the
    claim's compute time — what a log shows as each claim finishes."""
    line = Text()
    if result.claim.gating:
        line.append("✓ " if result.passed else "✗ ", style="green" if result.passed else "bold red")
    else:
        line.append("(✓) " if result.passed else "(✗) ", style="dim")
    outcome = result.verdict.outcome
    if result.status == "violated-as-expected":
        outcome = "erratum"
    line.append(f"{outcome:<12} ", style=_STATUS_STYLE.get(result.status, ""))
    line.append(result.claim.id)
    if seconds:
        cost = format_seconds(result.compute_seconds) if result.n_computed else "cached"
        line.append(f"  {cost}", style="dim")
    return line


def render_notes(
    results: Sequence[ClaimResult],
    console: Console,
    *,
    run_info: Mapping[str, Any] | None = None,
    debug: bool = False,
) -> None:
    """What follows the table: why each claim that did not pass did not (with the file and
    line of an error, its traceback under ``debug``), then the command that reruns each
    violated claim's counterexample."""
    for result in results:
        if result.acceptable:
            continue
        verdict = result.verdict
        line = Text()
        line.append("✗ ", style="bold red")
        line.append(result.claim.id, style="bold")
        line.append(f" ({verdict.outcome}, expected {result.claim.expect}): ")
        line.append(verdict.reason)
        if verdict.where:
            line.append(f"\n    at {verdict.where}", style="magenta")
        console.print(line)
        if debug and verdict.traceback:
            console.print(Text(verdict.traceback.rstrip(), style="dim"))
    reruns = [(r, rerun_command(r, run_info)) for r in results]
    reruns = [(r, command) for r, command in reruns if command]
    if reruns:
        console.print(Text("rerun a counterexample:", style="bold"))
        for result, command in reruns:
            line = Text("  ")
            line.append(result.claim.id, style=_STATUS_STYLE.get(result.status, ""))
            line.append("\n    " + str(command), style="dim")
            console.print(line, soft_wrap=True)
