"""How loose is each deterministic bound of the catalog? bound / exact worst case, one bar each.

Every claim judged by ``WorstCaseHolds`` holds a registered bound against the exact worst case of
its method over the bound's whole function class (a PEP). The bar is the bound/worst-case ratio
over the claim's grid (the marker: the median; the whisker: least to largest); 1 means the bound
is the worst case, below 1 it fails (hatched bar, black ✕: the claim's verdict is violated; a
ratio a hair under 1 within the solver's accuracy is not a failure). Grouped by paper. Data:
every claim ``*/worstcase/*`` of the catalog. Make it with
``fedtheory figures make worstcase_tightness``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """One bar per worst-case claim: median bound/worst, whiskers least to largest."""
    rows = []
    for claim_id, result in sorted(results.items()):
        table = result.verdict.table or ()
        ratios = [float(r["tightness"]) for r in table if "tightness" in r]
        ratios = [r for r in ratios if np.isfinite(r) and r > 0]
        if ratios:
            rows.append((result.claim.paper, claim_id, ratios, result.verdict.outcome))
    height = max(4.0, 0.32 * len(rows) + 1.5)
    figure = Figure(figsize=(12, height))
    ax = figure.subplots()
    papers = sorted({paper for paper, *_ in rows})
    colors = {paper: PALETTE[i % len(PALETTE)] for i, paper in enumerate(papers)}
    for y, (paper, _claim_id, ratios, outcome) in enumerate(rows):
        low, mid, high = min(ratios), float(np.median(ratios)), max(ratios)
        violated = outcome == "violated"
        color = colors[paper]
        ax.barh(
            y,
            mid - 1.0,
            left=1.0,
            color=color,
            alpha=0.35,
            height=0.7,
            hatch="//" if violated else None,
            edgecolor="black" if violated else None,
        )
        ax.plot([low, high], [y, y], color=color, linewidth=2)
        ax.plot(
            [mid],
            [y],
            marker="X" if violated else "o",
            color="black" if violated else color,
            markersize=9 if violated else 6,
        )
        ax.text(high * 1.05, y, f"{outcome}", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), [claim_id for _, claim_id, *_ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    everything = [r for *_, ratios, _ in rows for r in ratios]
    if everything:
        ax.set_xlim(min(min(everything), 1.0) / 1.3, max(everything) * 2.0)
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xlabel("bound / exact worst case  (1: the bound is the worst case; < 1: it fails)")
    ax.grid(True, axis="x", alpha=0.25)
    handles = [ax.plot([], [], color=colors[p], linewidth=6, alpha=0.5)[0] for p in papers]
    ax.legend(handles, papers, title="paper", fontsize=8, frameon=False, loc="lower right")
    ax.set_title(
        "Deterministic bounds of the catalog against their exact worst cases (PEP)", fontsize=11
    )
    figure.subplots_adjust(left=0.3, right=0.97, top=1 - 0.5 / height, bottom=0.8 / height)
    return figure


FIGURE = FigureScript(
    name="worstcase_tightness",
    title="bound / exact worst case for every deterministic bound of the catalog, by paper",
    claims="*/worstcase/*",
    draw=draw,
    profile="quick",
    source="performance estimation (issue 16): every WorstCaseHolds claim",
)

if __name__ == "__main__":
    main(FIGURE)
