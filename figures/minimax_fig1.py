"""Figure 1 of Chen, Zheng, Long & Su, replicated on the App. D set-up (GM-A).

Left: average accuracy against the heterogeneity R for FedAvg, local training and FedAvg followed
by fine-tuning. Right: FedProx with λ ∈ {0, 0.44, 4} (FedAvg and local training faint, for
reference). Accuracies are the exact population accuracies of each client's model, averaged over
the m = 5 clients; lines are means over replicates with 95% intervals. Set-up and the defaults
for what App. D leaves open: ``verification/minimax/figure1.py``.

Data: the claims ``minimax/fig1/*`` run through the runner and cached in the store; the ``full``
profile is the paper's 100 replicates at R = 0, 1, …, 20. Make it with
``fedtheory figures make minimax_fig1`` or ``python figures/minimax_fig1.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory import stats
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE, REFERENCE_COLOR, ci_band
from fedtheory.verify import ClaimResult

CLAIM = "minimax/fig1/fedavg-degrades"
LEFT = {"fa": "FedAvg", "plt": "local training", "ft": "FedAvg + fine-tuning"}
RIGHT = {"fp0": "FedProx λ = 0", "fp044": "FedProx λ = 0.44", "fp4": "FedProx λ = 4"}
COLORS = {
    "fa": PALETTE[0],
    "plt": PALETTE[1],
    "ft": PALETTE[4],
    "fp0": PALETTE[5],
    "fp044": PALETTE[2],
    "fp4": PALETTE[3],
}


def _curve(points: list, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    intervals = [stats.mean_ci(p[name]) for p in points]
    return tuple(np.array([getattr(c, a) for c in intervals]) for a in ("mean", "low", "high"))  # type: ignore[return-value]


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Both panels of Figure 1."""
    result = results[CLAIM]
    data = result.measurements
    assert data is not None
    points = sorted(data.points, key=lambda p: p.params["R"])
    R = np.array([p.params["R"] for p in points], dtype=float)
    replicates = min(p.n for p in points)
    figure = Figure(figsize=(11.5, 4.4))
    left, right = figure.subplots(1, 2, sharey=True)
    for ax, names in ((left, LEFT), (right, RIGHT)):
        if ax is right:
            for name in ("fa", "plt"):
                mean, _, _ = _curve(points, name)
                ax.plot(
                    R,
                    mean,
                    color=COLORS[name],
                    linewidth=1.0,
                    alpha=0.35,
                    label=f"{LEFT[name]} (left)",
                )
        for name, label in names.items():
            mean, low, high = _curve(points, name)
            ci_band(ax, R, low, high, COLORS[name])
            ax.plot(R, mean, color=COLORS[name], label=label, **{**MEASURED_STYLE, "markersize": 3})
        bayes, _, _ = _curve(points, "bayes")
        ax.plot(
            R,
            bayes,
            color=REFERENCE_COLOR,
            linestyle=":",
            linewidth=1.2,
            label="Bayes (w⋆ of each client)",
        )
        ax.set_xlabel("heterogeneity R")
        ax.grid(True, alpha=0.25)
        ax.set_ylim(0.56, 0.99)
        ax.legend(fontsize=8, loc="lower left", ncol=2)
    crossing = stats.find_crossing(
        R, [p["fa"] for p in points], [p["plt"] for p in points], log_x=False, seed=0
    )
    if crossing.found:
        left.axvline(crossing.x, color=REFERENCE_COLOR, linewidth=1.0, linestyle="--")
        left.annotate(
            f"FedAvg = local at R ≈ {crossing.x:.1f}",
            xy=(crossing.x, 0.99),
            xycoords=("data", "axes fraction"),
            va="top",
            ha="left",
            fontsize=8.5,
            xytext=(4, 0),
            textcoords="offset points",
        )
    left.set_ylabel("average test accuracy (exact)")
    left.set_title("FedAvg, local training, fine-tuning", fontsize=10)
    right.set_title("FedProx with different λ", fontsize=10)
    figure.suptitle(
        f"Figure 1 replica (App. D: m = 5, n_i = 100, d = 100; {replicates} replicates per R)",
        fontsize=11,
    )
    figure.tight_layout()
    return figure


FIGURE = FigureScript(
    name="minimax_fig1",
    title="Accuracy vs R for FedAvg, local training, fine-tuning and FedProx (App. D replica)",
    claims="minimax/fig1/*",
    draw=draw,
    profile="full",
    source="Chen et al. Figure 1",
)

if __name__ == "__main__":
    main(FIGURE)
