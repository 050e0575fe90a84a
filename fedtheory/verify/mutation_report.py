"""The mutation analysis in the terminal and in the report folder (``mutation.html``/``.json``)."""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from rich.console import Console
from rich.table import Table

from fedtheory.verify.export import write_atomically
from fedtheory.verify.mutate import MutationRun

__all__ = ["render_mutation", "score_line", "write_mutation_report"]


def score_line(run: MutationRun) -> str:
    """One line per paper: killed / judged mutants and the score."""
    parts = []
    for paper in run.papers:
        killed, judged, score = run.score(paper)
        shown = f"{100 * score:.1f}%" if judged else "n/a"
        parts.append(f"{paper}: {killed}/{judged} killed ({shown})")
    return "mutation score — " + "; ".join(parts) + f" — {run.seconds:.0f} s"


def render_mutation(run: MutationRun, console: Console) -> None:
    """Per bound: mutants killed, survived, equivalent; then every survivor with its claims."""
    table = Table(title="mutants per bound", title_justify="left")
    longest = max((len(b.bound.id) for b in run.bounds), default=5)
    table.add_column("bound", no_wrap=True, min_width=longest)
    for column in ("claims", "killed", "survived", "equivalent"):
        table.add_column(column, justify="right")
    table.add_column("note", overflow="fold")
    for bound in run.bounds:
        note = "" if bound.claims else f"judged by no claim: {bound.bound.unjudged_reason or '—'}"
        if bound.failing:
            note = f"fails without a mutant: {', '.join(bound.failing)}"
        table.add_row(
            bound.bound.id,
            str(len(bound.claims)),
            str(bound.count("killed")),
            str(bound.count("survived")),
            str(bound.count("equivalent")),
            note,
        )
    console.print(table)
    survivors = [(b, r) for b in run.bounds for r in b.results if r.fate == "survived"]
    if survivors:
        detail = Table(title=f"{len(survivors)} surviving mutants", title_justify="left")
        detail.add_column("mutant", no_wrap=True)
        detail.add_column("change", overflow="fold")
        detail.add_column("should have been caught by", overflow="fold")
        detail.add_column("why not", overflow="fold")
        for _, result in survivors:
            detail.add_row(
                result.mutant.id,
                result.mutant.label,
                ", ".join(result.claims),
                result.explanation,
            )
        console.print(detail)
    console.print(score_line(run))


def _html(run: MutationRun) -> str:
    esc = html.escape
    rows = []
    for bound in run.bounds:
        for result in bound.results:
            killers = ", ".join(f"{k} ({v})" for k, v in result.killers.items())
            rows.append(
                "<tr class='{}'>{}</tr>".format(
                    esc(result.fate),
                    "".join(
                        f"<td>{cell}</td>"
                        for cell in (
                            esc(result.mutant.id),
                            esc(result.mutant.label),
                            esc(result.fate + (f" ({result.profile})" if result.profile else "")),
                            esc(killers or ", ".join(result.claims)),
                            esc(result.explanation),
                        )
                    ),
                )
            )
    scores = "".join(
        "<li>{}: {} of {} judged mutants killed ({})</li>".format(
            esc(paper),
            killed,
            judged,
            f"{100 * score:.1f}%" if judged else "n/a",
        )
        for paper in run.papers
        for killed, judged, score in [run.score(paper)]
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fedtheory mutation analysis</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 4px 8px; }}
tr.killed td:nth-child(4) {{ color: #2a7a2a; }} tr.survived td:nth-child(4) {{ color: #b02020; }}
tr.equivalent, tr.unjudged {{ color: #777; }}
</style></head><body>
<h1>Mutation analysis of the bounds</h1>
<p>Each mutant is a registered bound with one plausible encoding bug, planted in the registry
while the claims that judge the bound on data run again (smoke, then quick for survivors).
A survivor lists the claims that should have caught it and why they could not.</p>
<ul>{scores}</ul>
<p>{esc(score_line(run))}</p>
<table><tr><th>mutant</th><th>change</th><th>fate</th>
<th>killed by (or: should have been caught by)</th><th>why it survived</th></tr>
{"".join(rows)}
</table></body></html>
"""


def write_mutation_report(run: MutationRun, directory: str | os.PathLike[str]) -> dict[str, Path]:
    """Write ``mutation.json`` and ``mutation.html`` into ``directory`` (created if needed)."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"json": folder / "mutation.json", "html": folder / "mutation.html"}
    write_atomically(paths["json"], json.dumps(run.to_dict(), indent=1, default=str))
    write_atomically(paths["html"], _html(run))
    return paths
