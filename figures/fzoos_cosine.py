"""FZooS's Fig. 4 at a reduced scale (Shu, Lin, Dai & Low, §6.1; reading guide §4.3, §5 check 29).

Left: the per-step cosine cos(ĝ_{t−1}, ∇F(x_{t−1})) of every method during one round of T = 20
local steps on the synthetic quadratics (98) with C = 5 (mean over the 20 client-rounds of the
seeds); right: its cumulative average over t, the quantity the paper plots. The title gives the
outcomes of the (non-gating) claims ``fzoos/fig4/*`` and the queries per step (FZooS 6, FD 21).
Settings and departures (d = 50): ``verification/fzoos/experiments.py``. Data: the measurement
``fzoos/fig4/cosine-runs`` run through the runner and cached in the store. Make it with
``fedtheory figures make fzoos_cosine`` or ``python figures/fzoos_cosine.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult

BEATS = "fzoos/fig4/cosine-beats-fd"
DECAYS = "fzoos/fig4/cosine-decays"
#: Dashes tell apart curves that coincide (FedZO and FedProx-ZO with a small μ_prox; in round 1
#: SCAFFOLD-ZO II is FedZO: its control variates start at zero).
STYLES = {"fedzo": "-", "fedprox": "--", "scaffold1": "-", "scaffold2": ":", "fzoos": "-"}
LABELS = {
    "fedzo": "FedZO",
    "fedprox": "FedProx-ZO",
    "scaffold1": "SCAFFOLD-ZO I",
    "scaffold2": "SCAFFOLD-ZO II",
    "fzoos": "FZooS",
}


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Per-step and cumulative-average cosine against the local step t."""
    data = results[BEATS].measurements
    assert data is not None
    point = data.points[0]
    figure = Figure(figsize=(12, 5))
    left, right = figure.subplots(1, 2, sharey=True)
    for index, method in enumerate(LABELS):
        names = sorted(n for n in point.values if n.startswith(f"cos_{method}_t"))
        cosine = np.array([float(np.mean(point[n])) for n in names])
        t = np.arange(1, cosine.size + 1)
        style = {
            "color": PALETTE[index % len(PALETTE)],
            "linewidth": 2.4 if method == "fzoos" else 1.4,
            "linestyle": STYLES[method],
            "marker": "o",
            "markersize": 3,
            "label": LABELS[method],
        }
        left.plot(t, cosine, **style)
        right.plot(t, np.cumsum(cosine) / t, **style)
    left.set_title("per-step cos(ĝ, ∇F)", fontsize=10)
    right.set_title("cumulative average over t (the paper's Fig. 4)", fontsize=10)
    for ax in (left, right):
        ax.set_xlabel("local step t")
        ax.grid(True, alpha=0.25)
    left.set_ylabel("cosine with ∇F")
    right.legend(fontsize=9, frameon=False)
    rho = float(np.mean(point["spearman_fzoos"]))
    figure.suptitle(
        "One round, C = 5, d = 50, N = 5, T = 20 (Adam η = 0.01): FZooS 6 queries per step, FD 21"
        f"\nFZooS above every FD baseline: {results[BEATS].verdict.outcome}; FZooS decays with t "
        f"(Spearman {rho:.2f}): {results[DECAYS].verdict.outcome}",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.11, top=0.85, wspace=0.08)
    return figure


FIGURE = FigureScript(
    name="fzoos_cosine",
    title="FZooS Fig. 4 (reduced): cosine of the gradient estimates with ∇F over one round",
    claims="fzoos/fig4/*",
    draw=draw,
    profile="quick",
    source="Shu et al., §6.1, Figure 4 (guide §5 check 29)",
)

if __name__ == "__main__":
    main(FIGURE)
