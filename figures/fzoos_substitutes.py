"""FZooS's attack and metric experiments on the offline substitutes (Shu, Lin, Dai & Low, §6.2–6.3,
Figs. 2, 3 and 11; reading guide §4.7, §5 check 34).

Four panels, mean ± 1 SE over the seeds (bands) of FedZO, FedProx-ZO, SCAFFOLD-ZO I/II and FZooS:
the black-box attack substitute's success rate (top) and the metric substitute's loss
1 − macro F1 (bottom), against communication rounds (left) and total function queries (right).
The title gives the outcomes of the (non-gating) claims ``fzoos/substitutes/*`` and the smallest
seed-win count over the baselines. Settings and departures (substitute data, reduced R, targets
and M): ``verification/fzoos/substitute_experiments.py``. Data: the measurements
``fzoos/substitutes/attack-runs`` and ``fzoos/substitutes/metric-runs`` run through the runner
and cached in the store. Make it with ``fedtheory figures make fzoos_substitutes`` or ``python
figures/fzoos_substitutes.py``.
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
    ("attack", "queries"): "fzoos/substitutes/attack-fewer-queries",
    ("attack", "rounds"): "fzoos/substitutes/attack-fewer-rounds",
    ("metric", "queries"): "fzoos/substitutes/metric-fewer-queries",
    ("metric", "rounds"): "fzoos/substitutes/metric-fewer-rounds",
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
ROWS = {"attack": ("success", "attack success rate"), "metric": ("loss", "1 − macro F1")}


def _curve(point: PointMeasurements, prefix: str) -> np.ndarray:
    """The per-round outputs ``prefix_rNN`` of the point (its only replicate)."""
    names = sorted(n for n in point.values if n.startswith(prefix + "_r") and n[-2:].isdigit())
    return np.array([float(np.mean(point[n])) for n in names])


def _value(point: PointMeasurements, name: str) -> float:
    return float(np.mean(point[name]))


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Success rate and metric loss against rounds (left) and queries (right)."""
    figure = Figure(figsize=(12, 8.5))
    axes = figure.subplots(2, 2, sharey="row")
    lines = []
    for row, (kind, (key, ylabel)) in enumerate(ROWS.items()):
        data = results[CLAIMS[kind, "queries"]].measurements
        assert data is not None
        point = data.points[0]
        for index, method in enumerate(LABELS):
            mean = _curve(point, f"{key}_{method}")
            se = _curve(point, f"{key}_se_{method}")
            rounds = np.arange(mean.size)
            queries = rounds * float(np.mean(point[f"queries_per_round_{method}"]))
            style = {
                "color": PALETTE[index % len(PALETTE)],
                "linewidth": 2.4 if method == "fzoos" else 1.4,
                "linestyle": STYLES[method],
                "marker": "o",
                "markersize": 3,
                "label": LABELS[method],
            }
            for ax, x in ((axes[row, 0], rounds), (axes[row, 1], queries)):
                ax.plot(x, mean, **style)
                ax.fill_between(x, mean - se, mean + se, color=style["color"], alpha=0.12, lw=0)
        seeds, needed = _value(point, "seeds"), _value(point, "required")
        for col, (unit, xlabel) in enumerate(
            (("rounds", "rounds r"), ("queries", "total queries"))
        ):
            ax = axes[row, col]
            ax.set_xlabel(xlabel)
            ax.grid(True, alpha=0.25)
            title = (
                f"{kind}, fewer {unit}: {results[CLAIMS[kind, unit]].verdict.outcome}\nFZooS "
                f"wins {_value(point, f'wins_{unit}_min'):.0f}/{seeds:.0f} seeds vs its worst "
                f"baseline (needed {needed:.0f})"
            )
            if unit == "queries":
                title += f"; equal budget: {_value(point, 'wins_budget_min'):.0f}/{seeds:.0f}"
            ax.set_title(title, fontsize=9.5)
        axes[row, 0].set_ylabel(ylabel)
        lines = axes[row, 0].get_legend_handles_labels()
    figure.legend(*lines, loc="lower center", ncol=5, fontsize=9, frameon=False)
    figure.suptitle(
        "FZooS vs FD baselines on the offline substitutes (check 34; mean ± SE over seeds)\n"
        "top: black-box attack (d = 64, N = 10); bottom: metric optimisation (d = 385, N = 7); "
        "T = 10, Adam η = 0.01",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.08, right=0.98, bottom=0.1, top=0.86, wspace=0.08, hspace=0.4)
    return figure


FIGURE = FigureScript(
    name="fzoos_substitutes",
    title="FZooS Figs. 2–3 (substitutes): attack success and 1 − F1 vs rounds and queries",
    claims="fzoos/substitutes/*",
    draw=draw,
    profile="quick",
    source="Shu et al., §6.2–6.3, Figures 2, 3 and 11 (guide §5 check 34)",
)

if __name__ == "__main__":
    main(FIGURE)
