"""``index.html``: the self-contained report of a run.

One file, no network: inline CSS and script, figures as base64 ``data:`` URIs, mathematics as
MathML (rendered natively by current browsers). The page opens with a summary — failures and
errors, then the errata (claims violated as expected, with their own badge), inconclusive,
reported and holding claims, each failing or erratum claim with its reason and the command
that reruns its counterexample — and a table of counts per paper; then the contents, one
collapsed ``<details>`` per paper; then one card per claim. The inline script filters the
cards by text, status and paper and sorts them by id, status or compute time; the filter can
be set from the address (``index.html#status=failed,error&paper=minimax&q=rate&sort=time``)
and the page works without it. Every text from a claim (id, statement, reason, ...) is
escaped.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory._version import __version__
from fedtheory.verify._display import badge, escape, png_img, status_css
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    atomic_write,
    by_paper,
    format_ci,
    format_seconds,
    is_number,
    now_utc,
    paper_title,
    rerun_command,
    resolving_power,
    run_info_document,
    short_number,
    summarize,
)
from fedtheory.bounds._mathml import bound_mathml, statement_html
from fedtheory.verify.verdict import Verdict, format_value, plain_data

__all__ = ["write_html"]

#: Statuses in the order the page lists them: what needs attention first.
SUMMARY_ORDER: tuple[str, ...] = (
    "failed",
    "error",
    "violated-as-expected",
    "inconclusive",
    "reported",
    "holds",
)
_LABELS = {
    "failed": "failed",
    "error": "error",
    "violated-as-expected": "errata",
    "inconclusive": "inconclusive",
    "reported": "reported",
    "holds": "holds",
}

# --------------------------------------------------------------------------- HTML

_CSS = """
:root { --fg: #1d1f21; --muted: #5f6368; --line: #e2e4e8; --bg: #ffffff; --card: #fafbfc; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 32px 0 12px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h2 .title, .toc-paper .title { color: var(--muted); font-weight: normal; }
h3 { font-size: 1.05em; margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; word-break: break-all; }
h4 { font-size: 1em; margin: 18px 0 6px; }
.meta, .muted { color: var(--muted); }
.totals { font-size: 1.05em; margin: 12px 0; }
.count { font-weight: 600; margin-right: 10px; white-space: nowrap; }
.totals a { text-decoration: none; } .totals a:hover { text-decoration: underline; }
.count { color: var(--c); }
.expect { font-size: 0.85em; color: var(--muted); margin-left: 6px; }
table.papers td, table.papers th { padding: 3px 10px; }
table.papers td.zero { color: #b0b4b9; }
table.papers a { color: var(--c); font-weight: 600; text-decoration: none; }
table.papers a:hover { text-decoration: underline; }
table.papers th.status { color: var(--c); }
.group { border-left: 4px solid var(--c); padding: 2px 0 2px 12px; margin: 14px 0; }
.group > h4 { margin: 4px 0 6px; color: var(--c); }
.group ul { list-style: none; padding: 0; margin: 0; }
.group li { margin: 6px 0; }
.group li > a { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.92em; }
.group .reason { color: var(--fg); }
.ok { color: var(--holds); font-weight: 600; }
nav a, .group a { color: inherit; } nav a { text-decoration: none; }
nav a:hover { text-decoration: underline; }
nav ul { list-style: none; padding-left: 18px; margin: 4px 0 8px; font-size: 0.92em; }
nav .badge { font-size: 0.7em; }
.toc-paper { margin: 2px 0; }
.toc-paper > summary { color: var(--fg); padding: 2px 0; }
.tally { font-size: 0.85em; margin-left: 6px; }
.tally span { color: var(--c); font-weight: 600; margin-right: 6px; white-space: nowrap; }
.toolbar { position: sticky; top: 0; z-index: 2; background: var(--bg); display: flex;
  flex-wrap: wrap; gap: 6px 14px; align-items: center; padding: 8px 0;
  border-bottom: 1px solid var(--line); font-size: 0.9em; }
.toolbar[hidden] { display: none; }
.toolbar input[type=search] { flex: 1 1 220px; min-width: 160px; padding: 4px 8px;
  font: inherit; border: 1px solid #c9ccd1; border-radius: 4px; }
.toolbar label { white-space: nowrap; color: var(--c, var(--fg)); font-weight: 600; }
.toolbar select, .toolbar button { font: inherit; padding: 3px 6px; }
.statuses { display: flex; flex-wrap: wrap; gap: 4px 10px; }
#shown { color: var(--muted); white-space: nowrap; }
.card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--c);
  border-radius: 6px; padding: 14px 16px; margin: 14px 0; }
.card[hidden], section.paper[hidden], #sorted[hidden] { display: none; }
.card header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center;
  margin-bottom: 8px; }
.statement { font-size: 1.02em; margin: 6px 0 10px; }
.where { margin: 6px 0; font-weight: 600; color: var(--error); }
.where code { font-size: 0.95em; color: var(--fg); background: #f3effb; padding: 1px 5px;
  border-radius: 3px; }
dl { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 8px 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
@media (max-width: 640px) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 4px; } }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.88em; }
pre { background: #f0f2f4; padding: 6px 8px; border-radius: 4px; margin: 4px 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
math { font-family: "STIX Two Math", "Latin Modern Math", "Cambria Math", "Noto Sans Math",
  math; }
.formula { overflow-x: auto; overflow-y: hidden; max-width: 100%; padding: 4px 0; }
.formula math { display: inline math; math-style: normal; font-size: 1.1em; }
.rerun { margin: 6px 0; }
.rerun .label { color: var(--muted); font-size: 0.85em; }
.cmd { display: flex; gap: 6px; align-items: flex-start; }
.cmd pre { flex: 1; margin: 2px 0; user-select: all; -webkit-user-select: all; }
.cmd button { font: inherit; font-size: 0.8em; padding: 2px 8px; margin-top: 3px; }
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
dd.warn { color: #9a6700; font-weight: 600; }
.sweep { font-size: 0.85em; color: var(--muted); margin: 6px 0 0; }
footer { margin-top: 40px; font-size: 0.85em; color: var(--muted); }
"""

# The filter and sort of the cards. Reads only the page's own data-* attributes; the filter
# state lives in the address's fragment (#status=failed,error&paper=p&q=text&sort=time) so a
# filtered view can be linked and tested headless. Sets body[data-ready="1"] when wired up.
_JS = r"""
(function () {
  "use strict";
  var ORDER = ["failed", "error", "violated-as-expected", "inconclusive", "reported", "holds"];
  var bar = document.getElementById("toolbar");
  var cards = Array.prototype.slice.call(document.querySelectorAll("article.card"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.paper"));
  var sorted = document.getElementById("sorted");
  var text = document.getElementById("f-text");
  var paper = document.getElementById("f-paper");
  var sort = document.getElementById("f-sort");
  var shown = document.getElementById("shown");
  var boxes = Array.prototype.slice.call(bar.querySelectorAll("input[type=checkbox]"));
  var home = {};
  sections.forEach(function (s) { home[s.getAttribute("data-paper")] = s; });
  var haystack = cards.map(function (c) {
    var st = c.querySelector(".statement");
    return (c.getAttribute("data-id") + " " + (st ? st.textContent : "")).toLowerCase();
  });

  function rank(c) { return ORDER.indexOf(c.getAttribute("data-status")); }
  function num(c, name) { return parseFloat(c.getAttribute(name)) || 0; }
  function byId(a, b) {
    var x = a.getAttribute("data-id"), y = b.getAttribute("data-id");
    return x < y ? -1 : x > y ? 1 : 0;
  }
  var compare = {
    paper: function (a, b) { return num(a, "data-order") - num(b, "data-order"); },
    id: byId,
    status: function (a, b) { return rank(a) - rank(b) || compare.paper(a, b); },
    time: function (a, b) {
      return num(b, "data-seconds") - num(a, "data-seconds") || compare.paper(a, b);
    }
  };

  function state() {
    return {
      q: text.value.trim(),
      status: boxes.filter(function (b) { return b.checked; })
        .map(function (b) { return b.value; }),
      paper: paper.value,
      sort: sort.value
    };
  }

  function apply(updateHash) {
    var s = state(), wanted = {}, q = s.q.toLowerCase(), n = 0;
    s.status.forEach(function (v) { wanted[v] = true; });
    cards.forEach(function (c, i) {
      var ok = wanted[c.getAttribute("data-status")] === true &&
        (!s.paper || c.getAttribute("data-paper") === s.paper) &&
        (!q || haystack[i].indexOf(q) >= 0);
      c.hidden = !ok;
      if (ok) { n += 1; }
    });
    var order = cards.slice().sort(compare[s.sort] || compare.paper);
    if (s.sort === "paper") {
      order.forEach(function (c) { home[c.getAttribute("data-paper")].appendChild(c); });
      sorted.hidden = true;
      sections.forEach(function (sec) {
        sec.hidden = !sec.querySelector("article.card:not([hidden])");
      });
    } else {
      order.forEach(function (c) { sorted.appendChild(c); });
      sorted.hidden = false;
      sections.forEach(function (sec) { sec.hidden = true; });
    }
    shown.textContent = n + " of " + cards.length + " claims shown";
    document.body.setAttribute("data-shown", String(n));
    if (updateHash) {
      var parts = [];
      if (s.status.length !== boxes.length) { parts.push("status=" + s.status.join(",")); }
      if (s.paper) { parts.push("paper=" + encodeURIComponent(s.paper)); }
      if (s.q) { parts.push("q=" + encodeURIComponent(s.q)); }
      if (s.sort !== "paper") { parts.push("sort=" + s.sort); }
      try {
        history.replaceState(null, "", parts.length ? "#" + parts.join("&") : " ");
      } catch (e) { /* some file:// setups refuse; the filter still works */ }
    }
  }

  function fromHash() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("=") < 0) { return false; }
    var p = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* bad */ }
      }
    });
    var st = p.status ? p.status.split(",") : ORDER;
    boxes.forEach(function (b) { b.checked = st.indexOf(b.value) >= 0; });
    paper.value = p.paper || "";
    if (paper.value !== (p.paper || "")) { paper.value = ""; }
    text.value = p.q || "";
    sort.value = compare[p.sort] ? p.sort : "paper";
    apply(false);
    return true;
  }

  function reset() {
    boxes.forEach(function (b) { b.checked = true; });
    paper.value = ""; text.value = ""; sort.value = "paper";
    apply(false);
  }

  function reveal() {  // a link to a card the filter hides: show everything again
    var id = decodeURIComponent(location.hash.replace(/^#/, ""));
    var el = id && id.indexOf("=") < 0 ? document.getElementById(id) : null;
    if (el && (el.hidden || (el.closest && el.closest("[hidden]")))) {
      reset();
      el.scrollIntoView();
    }
  }

  text.addEventListener("input", function () { apply(true); });
  [paper, sort].concat(boxes).forEach(function (el) {
    el.addEventListener("change", function () { apply(true); });
  });
  document.getElementById("f-reset").addEventListener("click", function () {
    reset(); apply(true);
  });
  window.addEventListener("hashchange", function () {
    if (fromHash()) {
      var claims = document.getElementById("claims");
      if (claims) { claims.scrollIntoView(); }
    } else { reveal(); }
  });

  Array.prototype.forEach.call(document.querySelectorAll(".cmd"), function (box) {
    var pre = box.querySelector("pre");
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "copy";
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "copied"; };
      var select = function () {
        var range = document.createRange();
        range.selectNodeContents(pre);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        try { if (document.execCommand("copy")) { done(); } } catch (e) { /* selected */ }
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(pre.textContent).then(done, select);
      } else { select(); }
    });
    box.appendChild(button);
  });

  bar.hidden = false;
  if (!fromHash()) { apply(false); reveal(); }
  document.body.setAttribute("data-ready", "1");
})();
"""

_MAX_TABLE_ROWS = 500


_e = escape


def _kv_table(mapping: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{_e(k)}</th><td{' class=num' if is_number(v) else ''}>{_e(format_value(v))}</td></tr>"
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
            cells.append(f"<td{cls}>{_e(format_value(v))}</td>")
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
            f"{name} ∈ {{{', '.join(format_value(v) for v in values)}}}"
            for name, values in sweep["grid"].items()
        )
        parts.append(f"grid {grid}")
    if sweep.get("points"):
        names = ", ".join(sweep["points"][0])
        parts.append(f"{len(sweep['points'])} points over ({names})")
    if sweep.get("fixed"):
        parts.append("fixed " + format_value(sweep["fixed"]))
    if "replicates" in sweep:
        parts.append(f"{sweep['replicates']} replicates per point")
    return "; ".join(parts)


def _resolving_power_html(verdict: Verdict) -> str:
    power = resolving_power(verdict)
    if power is None:
        return ""
    text, warn = power
    if warn:
        return f'<dt>Resolving power</dt><dd class="warn">⚠ {_e(text)}</dd>'
    return f"<dt>Resolving power</dt><dd>{_e(text)}</dd>"


def _anchor(claim_id: str) -> str:
    return "claim-" + claim_id.replace("/", "__")


def _badge(result: ClaimResult) -> str:
    """The outcome in the status's colour; an erratum says so (and is not green)."""
    return badge(result.status, result.verdict.outcome)


def _reason_line(verdict: Verdict) -> str:
    lines = (verdict.reason or "").strip().splitlines()
    return lines[0] if lines else ""


def _statement(text: str) -> str:
    try:
        return statement_html(text)
    except Exception:  # a display problem must not lose the report
        return f"<code>{_e(text)}</code>"


def _bound_html(result: ClaimResult) -> str:
    bound = result.claim.bound
    if bound is None:
        return ""
    try:
        shown = bound_mathml(bound)
    except Exception:  # a display problem must not lose the report: the plain statement
        try:
            shown = f"<code>{_e(bound)}</code>"
        except Exception as exc:
            shown = f"<code>(statement unavailable: {_e(exc)})</code>"
    return f'<dt>Bound</dt><dd><code>{_e(bound.id)}</code><div class="formula">{shown}</div></dd>'


def _rerun_html(command: str | None) -> str:
    if not command:
        return ""
    return f'<div class="cmd"><pre><code>{_e(command)}</code></pre></div>'


def _card(
    result: ClaimResult,
    figure: str | os.PathLike[str] | None,
    order: int,
    rerun: str | None,
) -> str:
    claim = result.claim
    info = claim.describe()
    verdict = result.verdict
    status = result.status
    doc = result.to_dict()
    mark = "✓ passed" if result.passed else "✗ did not pass"
    if not claim.gating:
        mark += " · reported, not gating (does not decide the exit status)"
    seconds = result.compute_seconds if is_number(result.compute_seconds) else 0.0
    out = [
        f'<article class="card {_e(status)}" id="{_e(_anchor(claim.id))}" '
        f'data-id="{_e(claim.id)}" data-paper="{_e(claim.paper)}" data-status="{_e(status)}" '
        f'data-seconds="{float(seconds):.6g}" data-order="{order}">',
        "<header>",
        f"<h3>{_e(claim.id)}</h3>",
        _badge(result),
        f'<span class="expect">expected {_e(claim.expect)} · {mark}</span>',
        "</header>",
        f'<p class="statement">{_statement(str(info.get("statement", "")))}</p>',
    ]
    if verdict.outcome == "error" and verdict.where:
        out.append(f'<p class="where">Raised at <code>{_e(verdict.where)}</code></p>')
    if rerun:
        out.append(
            '<div class="rerun"><span class="label">Rerun the counterexample:</span>'
            f"{_rerun_html(rerun)}</div>"
        )
    out += [
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
        out.append(f"<dt>Notes</dt><dd>{_statement(str(info['notes']))}</dd>")
    out.append("</dl>")
    if verdict.traceback:
        out.append(
            '<details class="traceback"><summary>Traceback</summary>'
            f"<pre>{_e(verdict.traceback)}</pre></details>"
        )
    if verdict.counterexample:
        out.append("<p><strong>Counterexample</strong></p>")
        out.append(_kv_table(plain_data(verdict.counterexample)))
    if figure is not None and Path(figure).is_file():
        image = png_img(Path(figure).read_bytes(), f"figure of {claim.id}")
        out.append(f"<figure>{image}</figure>")
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


# --------------------------------------------------------------------------- summary


def _statuses_shown(counts: Mapping[str, int]) -> list[str]:
    """The statuses of the summary, in its order (``reported`` only when a claim has it)."""
    return [s for s in SUMMARY_ORDER if s != "reported" or counts.get(s)]


def _filter_link(status: str, paper: str | None = None) -> str:
    target = f"#status={status}" + (f"&paper={paper}" if paper is not None else "")
    return _e(target)


def _summary_item(result: ClaimResult, rerun: str | None) -> str:
    verdict = result.verdict
    parts = [
        f'<li><a href="#{_e(_anchor(result.claim.id))}">{_e(result.claim.id)}</a> ',
        _badge(result),
        f' <span class="reason">{_e(_reason_line(verdict))}</span>',
    ]
    if verdict.outcome == "error" and verdict.where:
        parts.append(f' <span class="muted">at</span> <code>{_e(verdict.where)}</code>')
    parts.append(_rerun_html(rerun))
    parts.append("</li>")
    return "".join(parts)


def _summary_group(
    key: str,
    title: str,
    status: str,
    items: Sequence[ClaimResult],
    reruns: Mapping[str, str | None],
    *,
    collapsed: bool = False,
) -> str:
    lis = "".join(_summary_item(r, reruns.get(r.claim.id)) for r in items)
    if collapsed:
        return (
            f'<div class="group {_e(status)}" id="summary-{key}"><details>'
            f"<summary><strong>{len(items)} {_e(title)}</strong></summary>"
            f"<ul>{lis}</ul></details></div>"
        )
    return (
        f'<div class="group {_e(status)}" id="summary-{key}">'
        f"<h4>{len(items)} {_e(title)}</h4><ul>{lis}</ul></div>"
    )


def _papers_table(groups: Sequence[tuple[str, list[ClaimResult]]], statuses: Sequence[str]) -> str:
    head = "".join(f'<th class="status {_e(s)}">{_e(_LABELS[s])}</th>' for s in statuses)
    rows = []
    for paper, group in groups:
        counts = summarize(group)
        cells = []
        for s in statuses:
            n = counts[s]
            if n:
                cells.append(
                    f'<td class="num {_e(s)}" data-paper="{_e(paper)}" data-status="{_e(s)}">'
                    f'<a href="{_filter_link(s, paper)}">{n}</a></td>'
                )
            else:
                cells.append(
                    f'<td class="num zero" data-paper="{_e(paper)}" data-status="{_e(s)}">0</td>'
                )
        title = paper_title(paper)
        rows.append(
            f'<tr><th><a href="#paper-{_e(paper)}">{_e(paper)}</a></th>{"".join(cells)}'
            f'<td class="num" data-paper="{_e(paper)}" data-status="total">{counts["total"]}'
            f'</td><td class="muted">{_e(title)}</td></tr>'
        )
    return (
        f'<table class="papers"><tr><th>paper</th>{head}<th>total</th><th>title</th></tr>'
        f"{''.join(rows)}</table>"
    )


def _summary(
    results: Sequence[ClaimResult],
    groups: Sequence[tuple[str, list[ClaimResult]]],
    reruns: Mapping[str, str | None],
) -> str:
    counts = summarize(results)
    statuses = _statuses_shown(counts)
    noun = "claim" if counts["total"] == 1 else "claims"
    totals = "".join(
        f'<a href="{_filter_link(s)}"><span class="count {_e(s)}">{counts[s]} {_e(s)}</span></a>'
        for s in statuses
    )
    ordered = [r for _, group in groups for r in group]

    def having(*wanted: str) -> list[ClaimResult]:
        return sorted(
            (r for r in ordered if r.status in wanted),
            key=lambda r: SUMMARY_ORDER.index(r.status),
        )

    parts = [
        '<section id="summary"><h2>Summary</h2>',
        f'<p class="totals"><strong>{counts["total"]} {noun}:</strong> {totals}</p>',
        f'<div class="scroll">{_papers_table(groups, statuses)}</div>',
    ]
    failing = having("failed", "error")
    if failing:
        parts.append(
            _summary_group("failures", "failures and errors", failing[0].status, failing, reruns)
        )
    else:
        parts.append(
            '<div class="group holds" id="summary-failures">'
            '<p class="ok">No claim failed and none raised an error.</p></div>'
        )
    for key, status, title, collapsed in (
        ("errata", "violated-as-expected", "errata — violated as expected", False),
        ("inconclusive", "inconclusive", "inconclusive", False),
        ("reported", "reported", "reported, not gating", False),
        ("holds", "holds", "holds", True),
    ):
        items = having(status)
        if items:
            parts.append(_summary_group(key, title, status, items, reruns, collapsed=collapsed))
    parts.append("</section>")
    return "\n".join(parts)


def _tally_label(status: str, n: int) -> str:
    return "erratum" if status == "violated-as-expected" and n == 1 else _LABELS[status]


def _tally(group: Sequence[ClaimResult]) -> str:
    counts = summarize(group)
    spans = "".join(
        f'<span class="{_e(s)}">{counts[s]} {_e(_tally_label(s, counts[s]))}</span>'
        for s in SUMMARY_ORDER
        if counts[s]
    )
    return f'<span class="tally">{spans}</span>'


def _contents(groups: Sequence[tuple[str, list[ClaimResult]]]) -> str:
    items = []
    for paper, group in groups:
        title = paper_title(paper)
        title_html = f' <span class="title">— {_e(title)}</span>' if title else ""
        lis = "".join(
            f'<li><a href="#{_e(_anchor(r.claim.id))}">{_e(r.claim.id)}</a> {_badge(r)}</li>'
            for r in group
        )
        items.append(
            f'<details class="toc-paper"><summary><strong>{_e(paper)}</strong>{title_html}'
            f"{_tally(group)}</summary><ul>{lis}</ul></details>"
        )
    return f'<nav id="contents"><h2>Contents</h2>{"".join(items)}</nav>'


def _toolbar(counts: Mapping[str, int], groups: Sequence[tuple[str, list[ClaimResult]]]) -> str:
    boxes = "".join(
        f'<label class="{_e(s)}"><input type="checkbox" value="{_e(s)}" checked> '
        f"{_e(s)} ({counts[s]})</label>"
        for s in SUMMARY_ORDER
        if counts[s]
    )
    papers = "".join(
        f'<option value="{_e(paper)}">{_e(paper)} ({len(group)})</option>'
        for paper, group in groups
    )
    return (
        '<div class="toolbar" id="toolbar" hidden>'
        '<input type="search" id="f-text" placeholder="filter by id or statement"'
        ' aria-label="filter by id or statement">'
        f'<span class="statuses">{boxes}</span>'
        f'<select id="f-paper" aria-label="paper"><option value="">all papers</option>{papers}'
        "</select>"
        '<select id="f-sort" aria-label="sort"><option value="paper">sort: by paper</option>'
        '<option value="id">sort: by id</option><option value="status">sort: by status</option>'
        '<option value="time">sort: by compute time</option></select>'
        '<button type="button" id="f-reset">reset</button>'
        '<span id="shown"></span></div>'
    )


def write_html(
    results: Sequence[ClaimResult],
    path: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    figures: Mapping[str, str | os.PathLike[str]] | None = None,
    created: str | None = None,
) -> Path:
    """Write a self-contained HTML report atomically.

    Inline CSS and script, figures embedded as base64 ``data:`` URIs, mathematics as MathML,
    no external references: the file can be mailed or archived on its own and opened from
    ``file://``. The page opens with the summary (failures and errors, errata, inconclusive,
    reported, holds; counts per paper), then the contents collapsed per paper, then the cards,
    which the inline script filters and sorts.

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
    reruns: dict[str, str | None] = {}
    for r in results:
        try:
            reruns[r.claim.id] = rerun_command(r, run)
        except Exception:  # a display problem must not lose the report
            reruns[r.claim.id] = None
    groups = by_paper(results)
    sections = []
    order = 0
    for paper, group in groups:
        title = paper_title(paper)
        title_html = f' <span class="title">— {_e(title)}</span>' if title else ""
        cards = []
        for r in group:
            cards.append(_card(r, figures.get(r.claim.id), order, reruns.get(r.claim.id)))
            order += 1
        sections.append(
            f'<section class="paper" id="paper-{_e(paper)}" data-paper="{_e(paper)}">'
            f"<h2>{_e(paper)}{title_html}</h2>\n{chr(10).join(cards)}</section>"
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
<style>{status_css()}{_CSS}</style>
</head>
<body>
<main>
<header>
<h1>fedtheory verification report</h1>
<p class="meta">{_e(" · ".join(meta))}</p>
</header>
{_summary(results, groups, reruns)}
{_contents(groups)}
<section id="claims"><h2>Claims</h2>
{_toolbar(counts, groups)}
<div id="sorted" hidden></div>
{"".join(sections)}
</section>
<footer>{command}<p>Machine-readable verdicts: <code>verdicts.json</code>
(schema fedtheory.verdicts, version 1).</p></footer>
</main>
<script>{_JS}</script>
</body>
</html>
"""
    return atomic_write(Path(path), page.encode("utf-8"))
