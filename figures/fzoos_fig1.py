"""FZooS's Fig. 1 at a reduced scale (Shu, Lin, Dai & Low, §6.1; reading guide §4.3, §5 check 28).

Six panels: the normalised optimality gap (F(x_r) − F*)/(F(x_0) − F*) (geometric mean over the
seeds) of FedZO, FedProx-ZO, SCAFFOLD-ZO I/II and FZooS on the synthetic quadratics (98) for
C ∈ {0.5, 5, 50}, against communication rounds (top) and total function queries (bottom); the
dotted line is check 28's threshold 10⁻². The title gives the outcomes of the (non-gating)
claims ``fzoos/fig1/*``. Settings and departures (d = 50, R = 20, M = 250, approximate active-query
ranking): ``verification/fzoos/experiments.py``. Data: the measurement ``fzoos/fig1/trends-runs``
run through the runner and cached in the store. Make it with ``fedtheory figures make
fzoos_fig1`` or ``python figures/fzoos_fig1.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult
from fedtheory.verify.measurements import PointMeasurements

CLAIMS = {
    "a": "fzoos/fig1/a-harder-with-c",
    "b": "fzoos/fig1/b-fewest-queries",
    "c": "fzoos/fig1/c-fewest-rounds",
    "d": "fzoos/fig1/d-scaffold2-beats-scaffold1",
    "e": "fzoos/fig1/e-fedzo-beats-prox-scaffold1",
}
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
THRESHOLD = 1e-2


def _curve(point: PointMeasurements, prefix: str) -> np.ndarray:
    """The per-round outputs ``prefix_rNN`` of the point (its only replicate)."""
    names = sorted(n for n in point.values if n.startswith(prefix + "_r"))
    return np.array([float(np.mean(point[n])) for n in names])


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Gap against rounds (top) and against queries (bottom), one column per C."""
    data = results[CLAIMS["c"]].measurements
    assert data is not None
    point = data.points[0]
    n_c = sum(1 for n in point.values if n.startswith("C") and n[1:].isdigit())
    figure = Figure(figsize=(14, 7.5))
    axes = figure.subplots(2, n_c, sharey=True)
    for k in range(n_c):
        C = float(np.mean(point[f"C{k}"]))
        for index, method in enumerate(LABELS):
            tag = f"{method}_C{k}"
            gap = _curve(point, f"gap_{tag}")
            rounds = np.arange(gap.size)
            per_round = float(np.mean(point[f"queries_per_round_{tag}"]))
            style = {
                "color": PALETTE[index % len(PALETTE)],
                "linewidth": 2.4 if method == "fzoos" else 1.4,
                "linestyle": STYLES[method],
                "label": LABELS[method],
            }
            axes[0, k].plot(rounds, gap, **style)
            axes[1, k].plot(rounds * per_round, gap, **style)
        for row, xlabel in ((0, "rounds r"), (1, "total function queries")):
            ax = axes[row, k]
            ax.set_yscale("log")
            ax.axhline(THRESHOLD, color="0.4", linestyle=":", linewidth=1)
            ax.set_xlabel(xlabel)
            ax.grid(True, which="major", alpha=0.25)
        axes[0, k].set_title(f"C = {C:g}")
    for row in (0, 1):
        axes[row, 0].set_ylabel("(F(x_r) − F*) / (F(x_0) − F*)")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=5, fontsize=9, frameon=False)
    outcomes = ", ".join(
        f"({letter}) {results[claim].verdict.outcome}" for letter, claim in CLAIMS.items()
    )
    figure.suptitle(
        "FZooS vs FD baselines on the synthetic quadratics (d = 50, N = 5, T = 10, Adam η = 0.01; "
        "geometric mean over seeds)\nclaims of check 28: " + outcomes,
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.13, top=0.88, wspace=0.08, hspace=0.3)
    return figure


FIGURE = FigureScript(
    name="fzoos_fig1",
    title="FZooS Fig. 1 (reduced): optimality gap vs rounds and queries for C ∈ {0.5, 5, 50}",
    claims="fzoos/fig1/*",
    draw=draw,
    profile="quick",
    source="Shu et al., §6.1, Figure 1 (guide §5 check 28)",
)

if __name__ == "__main__":
    main(FIGURE)
