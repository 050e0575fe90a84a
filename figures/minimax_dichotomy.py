"""The FedAvg-vs-local-training dichotomy, drawn from measured risks (Chen, Zheng, Long & Su, §3.3).

One panel per local sample size n (m = 10 clients, GM-Q, d = 8, s = 1): the exact excess risk of
FedAvg, local training, the oracle dichotomy, optimally tuned FedProx and fine-tuning (the best
budget of full-batch GD steps from FedAvg, in expectation), as Monte-Carlo means with 95%
intervals over replicates, against the heterogeneity R on log-log axes. Marked: the measured
crossing R* of FedAvg and local training (with its bootstrap interval) and the predicted one
R*² = ds²(1/n − 1/N); dashed: the minimax envelope ½(min(ds²/n, R²) + ds²/N) of Theorem 8 /
Corollary 9 with its exact GM-Q constant.

Data: the claims ``minimax/dichotomy/gmq-*`` of ``verification/minimax/quadratic_model.py``, run
through the runner and cached in the store. Make it with ``fedtheory figures make
minimax_dichotomy`` or ``python figures/minimax_dichotomy.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory import stats
from fedtheory.figures import FigureScript, main
from fedtheory.papers.minimax import gmq_crossing_radius2, gmq_minimax_envelope
from fedtheory.plotting import MEASURED_STYLE, PALETTE, REFERENCE_COLOR, ci_band
from fedtheory.verify import ClaimResult

CLAIM = "minimax/dichotomy/gmq-crossing-scales-like-sqrt-m-over-n"
PANELS = (25, 100, 400)
STRATEGIES = {
    "fedavg": ("FedAvg (global ERM)", PALETTE[0]),
    "plt": ("local training", PALETTE[1]),
    "oracle": ("oracle dichotomy", PALETTE[3]),
    "tuned_fedprox": ("FedProx, tuned λ", PALETTE[2]),
    "fine_tune": ("fine-tuning, best budget", PALETTE[4]),
}


def _mean_curve(points: list, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    intervals = [stats.mean_ci(p[name]) for p in points]
    return (
        np.array([c.mean for c in intervals]),
        np.array([c.low for c in intervals]),
        np.array([c.high for c in intervals]),
    )


def _fine_tune_key(points: list) -> list[str]:
    """Per point, the fine-tuning budget with the lowest mean risk (best in expectation)."""
    keys = [k for k in points[0].values if k.startswith("fine_tune_")]
    return [min(keys, key=lambda k: float(np.mean(p[k]))) for p in points]


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Three log-log panels of excess risk against R, one per n."""
    data = results[CLAIM].measurements
    assert data is not None
    figure = Figure(figsize=(13.5, 4.6))
    axes = figure.subplots(1, len(PANELS), sharey=True)
    for ax, (key, curve) in zip(
        axes, [(k, c) for k, c in data.groups("R") if k["n"] in PANELS], strict=True
    ):
        points = list(curve.points)
        params = points[0].params
        m, n, d, s = params["m"], params["n"], params["d"], params["noise"]
        R = np.array([p.params["R"] for p in points])
        for name, (label, color) in STRATEGIES.items():
            if name == "fine_tune":
                best = _fine_tune_key(points)
                values = [p[k] for p, k in zip(points, best, strict=True)]
                intervals = [stats.mean_ci(v) for v in values]
                mean = np.array([c.mean for c in intervals])
                low = np.array([c.low for c in intervals])
                high = np.array([c.high for c in intervals])
            else:
                mean, low, high = _mean_curve(points, name)
            ci_band(ax, R, low, high, color, x_log=True, y_log=True)
            style = {**MEASURED_STYLE, "markersize": 3}
            if name == "oracle":
                style.update(linewidth=2.4, alpha=0.55, marker=None)
            ax.plot(R, mean, color=color, label=label, **style)
        envelope = 0.5 * gmq_minimax_envelope(d, s, n, m, R)
        ax.plot(
            R,
            envelope,
            color="black",
            linestyle="--",
            linewidth=1.4,
            label="½·(min(ds²/n, R²) + ds²/N)  minimax envelope",
        )
        crossing = stats.find_crossing(
            R, [p["plt"] for p in points], [p["fedavg"] for p in points], seed=0
        )
        predicted = np.sqrt(gmq_crossing_radius2(d, s, n, m * n))
        ax.axvline(
            predicted,
            color=REFERENCE_COLOR,
            linestyle=":",
            linewidth=1.5,
            label="predicted R* = √(ds²(1/n − 1/N))",
        )
        if crossing.found:
            ax.axvline(crossing.x, color=PALETTE[3], linewidth=1.0)
            if np.isfinite(crossing.low):
                ax.axvspan(crossing.low, crossing.high, color=PALETTE[3], alpha=0.15)
            ax.annotate(
                f"measured R* = {crossing.x:.3f}\npredicted R* = {predicted:.3f}",
                xy=(0.03, 0.97),
                xycoords="axes fraction",
                va="top",
                fontsize=8.5,
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("heterogeneity R")
        ax.set_title(f"n = {n} samples per client  (m = {m}, N = {m * n})", fontsize=10)
        ax.grid(True, which="major", alpha=0.25)
        del key
    axes[0].set_ylabel("client-averaged excess risk (GM-Q, exact)")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=4, fontsize=8.5, frameon=False)
    figure.suptitle(
        "FedAvg or local training? The better one switches at R*² ≍ m/N "
        "(Chen, Zheng, Long & Su, §3.3)",
        fontsize=11,
    )
    figure.subplots_adjust(bottom=0.27, top=0.87, wspace=0.06)
    return figure


FIGURE = FigureScript(
    name="minimax_dichotomy",
    title="FedAvg vs local training vs the dichotomy, FedProx and fine-tuning (log-log risk vs R)",
    claims="minimax/dichotomy/gmq-crossing-scales*",
    draw=draw,
    profile="quick",
    source="Chen et al. §3.3 — teaching figure",
)

if __name__ == "__main__":
    main(FIGURE)
