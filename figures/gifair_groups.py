"""Per-group test accuracy against λ on a FEMNIST-3-groups-like substitute (Yue, Nouiehed &
Al Kontar, the analogue of Figs. 4–5; reading guide §4, §5 V15).

GIFAIR-FL-Global (100 rounds, E = 5, batch 10, η = 0.1, exact r) on ``femnist_groups_like``
draws (3 groups of 6/10/4 devices, 20 classes), λ = lam_frac·λ_max, lam_frac ∈ {0, ½, 0.9}: the
mean over draws of each group's test accuracy (bars: ±1 standard error), and on the right the
paired change of the group-accuracy variance (Definition 2.1) and of the discrepancy from λ = 0.

Data: the claims ``gifair/fairness/femnist-*`` of ``verification/gifair/fairness.py``, run
through the runner and cached in the store. Make it with ``fedtheory figures make
gifair_groups`` or ``python figures/gifair_groups.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult

CLAIM = "gifair/fairness/femnist-variance"


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    values = np.asarray(values, dtype=float)
    se = float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else 0.0
    return float(values.mean()), se


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Two panels: per-group accuracy vs λ/λ_max; paired variance / discrepancy change."""
    data = results[CLAIM].measurements
    assert data is not None
    points = sorted(data.points, key=lambda p: float(p.params["lam_frac"]))
    x = np.array([float(p.params["lam_frac"]) for p in points])
    figure = Figure(figsize=(12, 4.8))
    left, right = figure.subplots(1, 2)
    for i in range(3):
        stats = np.array([_mean_se(p[f"g{i}_fed"]) for p in points])
        left.errorbar(
            x,
            stats[:, 0],
            yerr=stats[:, 1],
            color=PALETTE[i],
            marker="o",
            capsize=3,
            label=f"group {i + 1}",
        )
    mean = np.array([_mean_se(p["acc_fed"])[0] for p in points])
    left.plot(x, mean, color="0.3", linestyle="--", label="mean over clients")
    left.set_xlabel("λ / λ_max")
    left.set_ylabel("test accuracy")
    left.legend(fontsize=8)
    left.set_title("per-group test accuracy (mean over draws)", fontsize=10)
    for name, label, color in (
        ("dvar_fed", "Δ group-accuracy variance", PALETTE[3]),
        ("ddisc_fed", "Δ discrepancy (max − min)", PALETTE[4]),
    ):
        stats = np.array([_mean_se(p[name]) for p in points])
        right.errorbar(
            x, stats[:, 0], yerr=stats[:, 1], color=color, marker="o", capsize=3, label=label
        )
    right.axhline(0.0, color="0.5", linewidth=0.8)
    right.set_xlabel("λ / λ_max")
    right.set_ylabel("paired change from λ = 0")
    right.legend(fontsize=8)
    right.set_title("Definition 2.1: fairness measures, paired over draws", fontsize=10)
    figure.suptitle(
        "GIFAIR-FL-Global on FEMNIST-3-groups-like data (analogue of Figs. 4–5)", fontsize=11
    )
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.12, top=0.86, wspace=0.25)
    return figure


FIGURE = FigureScript(
    name="gifair_groups",
    title="GIFAIR-FL: per-group test accuracy vs λ on a FEMNIST-3-groups-like substitute",
    claims="gifair/fairness/femnist-*",
    draw=draw,
    profile="quick",
    source="Yue et al., Definition 2.1, Figs. 4–5, Table 4 (guide §5 V15)",
)

if __name__ == "__main__":
    main(FIGURE)
