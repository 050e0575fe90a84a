"""The ρ of FZooS's Lemma C.6 along a GP history (reading guide §0.4, §6.1; §5 check 16).

Left: the spectral norm ‖∂σ²_n(x)‖₂ of the GP posterior gradient covariance over κ = 1/l²
against the number n of queries, for d ∈ {1, 3, 10}: it stays exactly κ while n < d (the
covariance is κI minus a matrix of rank ≤ n), so Lemma C.6's ρ_i — a max of one-query ratios —
is 1 for every d ≥ 2 (and, measured, for d = 1: a query at x leaves ∂σ²(x) unchanged) and the
"exponential" decay κρ^n is no decay at all. Right: the trace over
dκ, which does decrease at every query (the uncertainty the active queries rank by, A4). Dotted
verticals: n = d. Mean over the replicates of the quick sweep (σ² = 0.01; the point at distance
l/2 from the start of the random-walk history). The title gives the outcomes of the claims
``fzoos/uncertainty/rho-*`` and ``…/decay``. Settings: ``verification/fzoos/uncertainty.py``.
Data: the measurement ``fzoos/uncertainty/histories`` cached in the store. Make it with
``fedtheory figures make fzoos_rho`` or ``python figures/fzoos_rho.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult

ONE = "fzoos/uncertainty/rho-is-one"
LOWER = "fzoos/uncertainty/rho-lower-bound"
DECAY = "fzoos/uncertainty/decay"
NOISE = 0.01


def _series(point: object, prefix: str) -> np.ndarray:
    names = sorted(n for n in point.values if n.startswith(prefix))  # type: ignore[attr-defined]
    return np.array([float(np.mean(point[n])) for n in names])  # type: ignore[index]


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Spectral norm and trace of ∂σ²_n(x) (normalised) against n, one curve per d."""
    data = results[ONE].measurements
    assert data is not None
    points = sorted(
        (p for p in data.points if float(p.params["noise"]) == NOISE),
        key=lambda p: int(p.params["d"]),
    )
    figure = Figure(figsize=(12, 5))
    left, right = figure.subplots(1, 2, sharex=True)
    for index, point in enumerate(points):
        d = int(point.params["d"])
        spectral, trace = _series(point, "spectral_n"), _series(point, "trace_n")
        n = np.arange(spectral.size)
        style = {"color": PALETTE[index % len(PALETTE)], "marker": "o", "markersize": 3}
        left.plot(n, spectral, label=f"d = {d}", **style)
        right.plot(n, trace, label=f"d = {d}", **style)
        for ax in (left, right):
            ax.axvline(d, color=style["color"], linestyle=":", linewidth=1)
    left.set_title("spectral norm ‖∂σ²_n(x)‖₂ / κ  (= 1 while n < d)", fontsize=10)
    right.set_title("trace tr ∂σ²_n(x) / (dκ)  (decreases at every query)", fontsize=10)
    for ax in (left, right):
        ax.set_xlabel("queries n in the history")
        ax.set_ylim(0.0, 1.05)
        ax.grid(True, alpha=0.25)
    left.set_ylabel("normalised posterior gradient uncertainty")
    right.legend(fontsize=9, frameon=False)
    rho_max = {int(p.params["d"]): float(np.max(p["rho_max"])) for p in points}
    rhos = ", ".join(f"{value:.3g} (d = {d})" for d, value in rho_max.items())
    figure.suptitle(
        f"Lemma C.6's ρ along a GP history (SE, l = 1, σ² = {NOISE}): worst ratio ρ_max = "
        f"{rhos}\nρ = 1 while n < d: {results[ONE].verdict.outcome}; ratios ≥ 1/(1 + 1/σ²): "
        f"{results[LOWER].verdict.outcome}; ‖∂σ²_n‖ ≤ κρ_max^n: {results[DECAY].verdict.outcome}",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.11, top=0.85, wspace=0.15)
    return figure


FIGURE = FigureScript(
    name="fzoos_rho",
    title="FZooS Lemma C.6: ‖∂σ²_n‖₂ stays κ while n < d (ρ = 1); the trace decays",
    claims="fzoos/uncertainty/[rd]*",
    draw=draw,
    profile="quick",
    source="Shu et al., App. C, Lemma C.6 (guide §0.4, §6.1, check 16)",
)

if __name__ == "__main__":
    main(FIGURE)
