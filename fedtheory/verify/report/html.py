"""``index.html``: the self-contained report of a run."""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory._version import __version__
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    atomic_write,
    by_paper,
    format_ci,
    format_seconds,
    is_number,
    now_utc,
    paper_title,
    resolving_power,
    run_info_document,
    short_number,
    shown_statuses,
    summarize,
)
from fedtheory.verify.verdict import Verdict, plain_data

__all__ = ["write_html"]

# --------------------------------------------------------------------------- HTML

_CSS = """
:root { --fg: #1d1f21; --muted: #5f6368; --line: #e2e4e8; --bg: #ffffff; --card: #fafbfc;
  --holds: #1a7f37; --violated-as-expected: #1a7f37; --failed: #cf222e; --reported: #0969da;
  --inconclusive: #9a6700; --error: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 36px 0 12px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h2 .title { color: var(--muted); font-weight: normal; }
h3 { font-size: 1.05em; margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; word-break: break-all; }
.meta, .muted { color: var(--muted); }
.summary { font-size: 1.05em; margin: 12px 0; }
.count { font-weight: 600; margin-right: 10px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 0.8em;
  font-weight: 600; color: #fff; vertical-align: middle; white-space: nowrap; }
.holds { --c: var(--holds); } .violated-as-expected { --c: var(--violated-as-expected); }
.failed { --c: var(--failed); } .reported { --c: var(--reported); }
.inconclusive { --c: var(--inconclusive); }
.error { --c: var(--error); }
.badge { background: var(--c); } .count { color: var(--c); }
.expect { font-size: 0.85em; color: var(--muted); margin-left: 6px; }
nav ul { list-style: none; padding-left: 0; margin: 4px 0; }
nav ul ul { padding-left: 18px; font-size: 0.92em; }
nav a { color: inherit; text-decoration: none; } nav a:hover { text-decoration: underline; }
nav .badge { font-size: 0.7em; }
.card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--c);
  border-radius: 6px; padding: 14px 16px; margin: 14px 0; }
.card header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center;
  margin-bottom: 8px; }
.statement { font-size: 1.02em; margin: 6px 0 10px; }
dl { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 8px 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.88em; }
pre { background: #f0f2f4; padding: 6px 8px; border-radius: 4px; margin: 4px 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 0.85em; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 2px 8px; text-align: left;
  vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f2f4; font-weight: 600; }
details { margin: 8px 0; } summary { cursor: pointer; color: var(--muted); }
.scroll { overflow-x: auto; max-height: 480px; overflow-y: auto; }
figure { margin: 10px 0 4px; text-align: center; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px;
  background: #fff; }
.reason { margin: 6px 0; }
dd.warn { color: var(--inconclusive); font-weight: 600; }
.sweep { font-size: 0.85em; color: var(--muted); margin: 6px 0 0; }
footer { margin-top: 40px; font-size: 0.85em; color: var(--muted); }
"""

_MAX_TABLE_ROWS = 500


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _anchor(claim_id: str) -> str:
    return "claim-" + claim_id.replace("/", "__")


def _value(value: Any) -> str:
    """Plain text of a table value (numbers with 4 significant digits)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return short_number(value, 4)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _kv_table(mapping: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{_e(k)}</th><td{' class=num' if is_number(v) else ''}>{_e(_value(v))}</td></tr>"
        for k, v in mapping.items()
    )
    return f"<table>{rows}</table>"


def _rows_table(rows: Sequence[Mapping[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = []
    for row in rows[:_MAX_TABLE_ROWS]:
        cells = []
        for c in columns:
            v = row.get(c)
            cls = " class=num" if is_number(v) else ""
            cells.append(f"<td{cls}>{_e(_value(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = (
        f"<p class=muted>First {_MAX_TABLE_ROWS} of {len(rows)} rows; all are in verdicts.json.</p>"
        if len(rows) > _MAX_TABLE_ROWS
        else ""
    )
    return f"<div class=scroll><table><tr>{head}</tr>{''.join(body)}</table></div>{more}"


def _sweep_text(sweep: Mapping[str, Any]) -> str:
    parts = []
    if sweep.get("grid"):
        grid = "; ".join(
            f"{name} ∈ {{{', '.join(_value(v) for v in values)}}}"
            for name, values in sweep["grid"].items()
        )
        parts.append(f"grid {grid}")
    if sweep.get("points"):
        names = ", ".join(sweep["points"][0])
        parts.append(f"{len(sweep['points'])} points over ({names})")
    if sweep.get("fixed"):
        parts.append("fixed " + _value(sweep["fixed"]))
    if "replicates" in sweep:
        parts.append(f"{sweep['replicates']} replicates per point")
    return "; ".join(parts)


def _bound_html(result: ClaimResult) -> str:
    bound = result.claim.bound
    if bound is None:
        return ""
    try:
        latex = bound.statement_latex()
    except Exception as exc:  # a display problem must not lose the report
        latex = f"(LaTeX unavailable: {exc})"
    return f"<dt>Bound</dt><dd><code>{_e(bound.id)}</code><pre><code>{_e(latex)}</code></pre></dd>"


def _resolving_power_html(verdict: Verdict) -> str:
    power = resolving_power(verdict)
    if power is None:
        return ""
    text, warn = power
    if warn:
        return f'<dt>Resolving power</dt><dd class="warn">⚠ {_e(text)}</dd>'
    return f"<dt>Resolving power</dt><dd>{_e(text)}</dd>"


def _card(result: ClaimResult, figure: str | os.PathLike[str] | None) -> str:
    claim = result.claim
    info = claim.describe()
    verdict = result.verdict
    status = result.status
    doc = result.to_dict()
    mark = "✓ passed" if result.passed else "✗ did not pass"
    if not claim.gating:
        mark += " · reported, not gating (does not decide the exit status)"
    out = [
        f'<article class="card {_e(status)}" id="{_e(_anchor(claim.id))}">',
        "<header>",
        f"<h3>{_e(claim.id)}</h3>",
        f'<span class="badge {_e(status)}">{_e(verdict.outcome)}</span>',
        f'<span class="expect">expected {_e(claim.expect)} · {mark}</span>',
        "</header>",
        f'<p class="statement">{_e(info.get("statement", ""))}</p>',
        "<dl>",
        f"<dt>Source</dt><dd>{_e(info.get('citation', ''))}</dd>",
        _bound_html(result),
        f"<dt>Criterion</dt><dd>{_e(info.get('criterion', ''))}</dd>",
        f"<dt>Predicted</dt><dd>{_e(verdict.predicted or '—')}</dd>",
        f"<dt>Measured</dt><dd>{_e(verdict.measured or '—')}</dd>",
        f"<dt>CI</dt><dd>{_e(format_ci(verdict.ci))}</dd>",
    ]
    if verdict.numbers:
        numbers = ", ".join(f"{k} = {short_number(v, 4)}" for k, v in verdict.numbers.items())
        out.append(f"<dt>Numbers</dt><dd>{_e(numbers)}</dd>")
    out.append(_resolving_power_html(verdict))
    out.append(f"<dt>Reason</dt><dd>{_e(verdict.reason)}</dd>")
    if info.get("notes"):
        out.append(f"<dt>Notes</dt><dd>{_e(info['notes'])}</dd>")
    out.append("</dl>")
    if verdict.counterexample:
        out.append("<p><strong>Counterexample</strong></p>")
        out.append(_kv_table(plain_data(verdict.counterexample)))
    if figure is not None and Path(figure).is_file():
        data = base64.b64encode(Path(figure).read_bytes()).decode("ascii")
        out.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="figure of {_e(claim.id)}">'
            "</figure>"
        )
    table = doc["verdict"]["table"]
    if table:
        out.append(
            f"<details><summary>Per-point numbers ({len(table)} rows)</summary>"
            f"{_rows_table(plain_data(table))}</details>"
        )
    counters = (
        f"{result.n_points} points, {result.n_replicates} replicates "
        f"({result.n_cached} cached, {result.n_computed} computed), "
        f"{format_seconds(result.compute_seconds)} of compute"
    )
    sweep = _sweep_text(doc.get("sweep") or {})
    out.append(f'<p class="sweep">Profile {_e(result.profile)}: {_e(sweep)}<br>{_e(counters)}</p>')
    out.append("</article>")
    return "\n".join(part for part in out if part)


def write_html(
    results: Sequence[ClaimResult],
    path: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    figures: Mapping[str, str | os.PathLike[str]] | None = None,
    created: str | None = None,
) -> Path:
    """Write a self-contained HTML report atomically.

    Inline CSS, figures embedded as base64 ``data:`` URIs, no scripts and no external
    references: the file can be mailed or archived on its own.

    Parameters
    ----------
    results
        The judged claims.
    path
        Target file (``report/index.html``); its folder is created.
    run_info
        As for :func:`write_verdicts_json` (profile, seed, executor, seconds, ...).
    figures
        ``{claim id: PNG path}``, e.g. from :func:`write_figure`.
    created
        Timestamp to show (default: now, UTC).

    Returns
    -------
    pathlib.Path
    """
    figures = dict(figures or {})
    run = run_info_document(run_info, results)
    counts = summarize(results)
    created = created or now_utc()
    meta = [f"fedtheory {__version__}", created]
    if run.get("profile"):
        meta.append(f"profile {run['profile']}")
    if run.get("seed") is not None:
        meta.append(f"seed {run['seed']}")
    if run.get("executor"):
        workers = f" ({run['workers']} workers)" if run.get("workers") else ""
        meta.append(f"executor {run['executor']}{workers}")
    if run.get("seconds") is not None:
        meta.append(format_seconds(run["seconds"]))
    noun = "claim" if counts["total"] == 1 else "claims"
    summary = "".join(
        f'<span class="count {_e(s)}">{counts[s]} {_e(s)}</span>' for s in shown_statuses(counts)
    )
    groups = by_paper(results)
    toc = []
    sections = []
    for paper, group in groups:
        title = paper_title(paper)
        title_html = f' <span class="title">— {_e(title)}</span>' if title else ""
        items = "".join(
            f'<li><a href="#{_e(_anchor(r.claim.id))}">{_e(r.claim.id)}</a> '
            f'<span class="badge {_e(r.status)}">{_e(r.verdict.outcome)}</span></li>'
            for r in group
        )
        toc.append(
            f'<li><a href="#paper-{_e(paper)}"><strong>{_e(paper)}</strong></a>{title_html}'
            f"<ul>{items}</ul></li>"
        )
        cards = "\n".join(_card(r, figures.get(r.claim.id)) for r in group)
        sections.append(
            f'<section id="paper-{_e(paper)}"><h2>{_e(paper)}{title_html}</h2>\n{cards}</section>'
        )
    command = "".join(
        f"<p>{label}: <code>{_e(run[key])}</code></p>"
        for key, label in (("command", "Command"), ("store", "Result store"))
        if run.get(key)
    )
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fedtheory verification report</title>
<style>{_CSS}</style>
</head>
<body>
<main>
<header>
<h1>fedtheory verification report</h1>
<p class="meta">{_e(" · ".join(meta))}</p>
<p class="summary"><strong>{counts["total"]} {noun}:</strong> {summary}</p>
</header>
<nav><h2>Contents</h2><ul>{"".join(toc)}</ul></nav>
{"".join(sections)}
<footer>{command}<p>Machine-readable verdicts: <code>verdicts.json</code>
(schema fedtheory.verdicts, version 1).</p></footer>
</main>
</body>
</html>
"""
    return atomic_write(Path(path), page.encode("utf-8"))
