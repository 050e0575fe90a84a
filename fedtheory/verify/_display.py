"""What the HTML report and the notebook displays share: the summary categories of a claim's
status, their counts, colours and badges, the PNG of a claim's figure, and the small HTML frame
of the displays.

``index.html`` (:mod:`fedtheory.verify.report.html`) and the ``_repr_html_`` that Jupyter
shows for a :class:`~fedtheory.verify.verdict.Verdict`, a
:class:`~fedtheory.verify.claim.ClaimResult` and a :class:`~fedtheory.verify.runner.VerifyRun`
are drawn from these pieces, so that a status has one colour and one badge everywhere and a
claim's figure is the same PNG in the report and in a notebook. The module sits at the bottom of
:mod:`fedtheory.verify`: it imports nothing of it (its MathML comes from
:mod:`fedtheory.bounds._mathml`).
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from fedtheory.errors import ParameterError
from fedtheory.plotting import figure_from_spec, png_bytes
from fedtheory.plotting import stamp as add_stamp
from fedtheory.plotting.model import FigureSpec

__all__ = [
    "OUTCOME_STATUS",
    "STATUSES",
    "STATUS_COLOURS",
    "badge",
    "claim_figure_png",
    "display",
    "escape",
    "png_img",
    "rows_table",
    "shown_statuses",
    "status_css",
    "summarize",
]

#: Summary categories of :attr:`ClaimResult.status <fedtheory.verify.claim.ClaimResult.status>`,
#: in report order.
STATUSES: tuple[str, ...] = (
    "holds",
    "violated-as-expected",
    "failed",
    "reported",
    "inconclusive",
    "error",
)
#: The colour of each status (badges, counts, the left edge of a card).
STATUS_COLOURS: dict[str, str] = {
    "holds": "#1a7f37",
    "violated-as-expected": "#c2410c",
    "failed": "#cf222e",
    "reported": "#0969da",
    "inconclusive": "#6e7781",
    "error": "#8250df",
}
#: The status a verdict is shown with when there is no claim (hence no expectation) around it:
#: a violation is red, as a failed claim.
OUTCOME_STATUS: dict[str, str] = {
    "holds": "holds",
    "violated": "failed",
    "inconclusive": "inconclusive",
    "error": "error",
}


class _HasStatus(Protocol):
    @property
    def status(self) -> str: ...


def summarize(results: Iterable[_HasStatus]) -> dict[str, int]:
    """Number of claims per status, plus ``total``.

    Returns
    -------
    dict
        ``{"holds", "violated-as-expected", "failed", "reported", "inconclusive", "error",
        "total"}``
        (every key present, zero when no claim has that status).
    """
    counts = dict.fromkeys(STATUSES, 0)
    total = 0
    for result in results:
        status = result.status
        if status not in counts:
            raise ParameterError(
                parameter="status", value=status, rule=f"must be one of {', '.join(STATUSES)}"
            )
        counts[status] += 1
        total += 1
    counts["total"] = total
    return counts


def shown_statuses(counts: Mapping[str, int]) -> list[str]:
    """The statuses a summary lists: all, except ``reported`` when no claim has it."""
    return [s for s in STATUSES if s != "reported" or counts[s]]


def escape(value: Any) -> str:
    """``str(value)`` escaped for HTML text and attribute values."""
    return html.escape(str(value), quote=True)


def status_css(scope: str = "") -> str:
    """CSS of the status colours and the badges.

    Every status class (``.holds``, ``.failed``, …) sets ``--c`` to its colour, which the
    badge, and whatever else the page styles with ``var(--c)``, is drawn in. ``scope`` is a
    selector the rules are confined to (a notebook output's container); empty for a whole page,
    whose ``:root`` then holds the colour variables.
    """
    root = scope or ":root"
    inner = f"{scope} " if scope else ""
    colours = " ".join(f"--{status}: {colour};" for status, colour in STATUS_COLOURS.items())
    classes = "\n".join(f"{inner}.{status} {{ --c: var(--{status}); }}" for status in STATUSES)
    return (
        f"{root} {{ {colours} }}\n{classes}\n"
        f"{inner}.badge {{ display: inline-block; padding: 1px 8px; border-radius: 10px; "
        "font-size: 0.8em; font-weight: 600; color: #fff; vertical-align: middle; "
        "white-space: nowrap; background: var(--c); }\n"
        f"{inner}.muted-in-badge {{ font-weight: normal; }}\n"
        f"{inner}.badge.violated-as-expected {{ background: #fff4e5; color: var(--c); "
        "border: 1.5px solid var(--c); padding: 0 7px; }\n"
    )


def badge(status: str, outcome: str) -> str:
    """The outcome in the colour of the status; an erratum (violated as expected) says so and is
    not green."""
    text = escape(outcome)
    if status == "violated-as-expected":
        text += ' <span class="muted-in-badge">· erratum</span>'
    return f'<span class="badge {escape(status)}">{text}</span>'


def claim_figure_png(spec: FigureSpec, title: str, stamp: str) -> bytes:
    """A claim's figure as PNG bytes, drawn as the report draws it.

    :func:`fedtheory.plotting.figure_from_spec` at 6 × 4 inches and 110 dpi, titled ``title``
    (the claim id), with ``stamp`` in the lower right corner (:func:`fedtheory.plotting.stamp`).
    """
    fig = figure_from_spec(spec, title=title, figsize=(6.0, 4.0), dpi=110)
    add_stamp(fig, stamp)
    return png_bytes(fig)


def png_img(data: bytes, alt: str) -> str:
    """An ``<img>`` holding PNG bytes as a base64 ``data:`` URI (no file, no network)."""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{encoded}" alt="{escape(alt)}">'


def rows_table(rows: Sequence[tuple[str, str]]) -> str:
    """A two-column table of ``(label, HTML)`` rows; the labels are escaped, the cells not."""
    body = "".join(f"<tr><th>{escape(label)}</th><td>{cell}</td></tr>" for label, cell in rows)
    return f'<table class="ft-rows">{body}</table>'


# The notebook displays' own look, confined to their container (a notebook page has its own
# styles): a card per claim with the status colour on its left edge, compact tables.
_SCOPE = ".fedtheory-display"
_DISPLAY_CSS = status_css(_SCOPE) + (
    f"{_SCOPE} {{ font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, "
    "sans-serif; font-size: 14px; line-height: 1.45; color: #1d1f21; max-width: 1000px; }\n"
    f"{_SCOPE} .ft-card {{ background: #fafbfc; border: 1px solid #e2e4e8; "
    "border-left: 4px solid var(--c); border-radius: 6px; padding: 10px 14px; "
    "margin: 6px 0; }\n"
    f"{_SCOPE} .ft-head {{ display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }}\n"
    f"{_SCOPE} .ft-id {{ font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "
    "monospace; font-weight: 600; word-break: break-all; }\n"
    f"{_SCOPE} .ft-muted {{ color: #5f6368; font-size: 0.85em; }}\n"
    f"{_SCOPE} .ft-statement {{ margin: 6px 0 8px; }}\n"
    f"{_SCOPE} table {{ border-collapse: collapse; margin: 6px 0; font-size: 0.92em; }}\n"
    f"{_SCOPE} th, {_SCOPE} td {{ border: 1px solid #e2e4e8; padding: 3px 8px; "
    "text-align: left; vertical-align: top; background: transparent; }\n"
    f"{_SCOPE} th {{ background: #f0f2f4; font-weight: 600; white-space: nowrap; }}\n"
    f"{_SCOPE} table.ft-rows td {{ overflow-wrap: anywhere; }}\n"
    f"{_SCOPE} td.ft-num {{ font-variant-numeric: tabular-nums; white-space: nowrap; }}\n"
    f"{_SCOPE} .ft-pass {{ color: var(--holds); font-weight: 600; }}\n"
    f"{_SCOPE} .ft-fail {{ color: var(--failed); font-weight: 600; }}\n"
    f"{_SCOPE} .ft-count {{ color: var(--c); font-weight: 600; margin-right: 10px; "
    "white-space: nowrap; }\n"
    f"{_SCOPE} .ft-formula {{ overflow-x: auto; overflow-y: hidden; max-width: 100%; "
    "padding: 4px 0; }\n"
    f"{_SCOPE} .ft-formula math {{ display: inline math; font-size: 1.05em; }}\n"
    f"{_SCOPE} code {{ font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; "
    "font-size: 0.9em; }\n"
    f"{_SCOPE} figure {{ margin: 8px 0 2px; }}\n"
    f"{_SCOPE} figure img {{ max-width: 100%; height: auto; border: 1px solid #e2e4e8; "
    "border-radius: 4px; background: #fff; }\n"
)


def display(body: str) -> str:
    """``body`` in the displays' container, with their style sheet (scoped to it)."""
    return f'<div class="fedtheory-display"><style>{_DISPLAY_CSS}</style>{body}</div>'
