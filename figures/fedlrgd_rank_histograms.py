"""Approximate ranks of per-sample gradient slices, with a Gaussian null (FedLRGD App. C, Fig. 1).

The digits analogue of Jadbabaie, Makur & Shah's App. C Figures 1(b),(e),(f) (sigmoid, hidden
width K ∈ {500, 784, 1000} on MNIST) and 1(i) (ReLU): for an MLP 64 → K → 10 trained by
minibatch SGD on scikit-learn's 8×8 digits, the histogram of the approximate rank (77) — the
fewest singular values holding 90% of ‖ℳ_q‖_F² — of 500 slices ℳ_q ∈ ℝ^{60×60} of the tensor
(76) ℳ_{i,j,q} = ∂f/∂θ_q(x^(i); θ^(j)) over k = 60 test images and k perturbations (75) of the
trained weights, for non-trivial weights |θ*_q| ≥ 0.005. One row per activation, one column
per width K (40, 64, 80: the paper's K/784 scaled to 64 inputs). Bars: share of the non-zero
slices at each rank, pooled over the replicates (independent splits, networks and slices);
gray: the same statistic for i.i.d. Gaussian 60 × 60 matrices (the null the paper does not
show). Lines: the median rank, the guide's threshold 0.4 × null median and the cutoff 10.
All-zero slices (no approximate rank) are excluded and their share is printed.

Data: the claims ``fedlrgd/app-c/*`` of ``verification/fedlrgd/app_c.py`` (outputs ``rank_00``
… ``rank_60``, ``null_01`` … ``null_60``). Make it with ``fedtheory figures make
fedlrgd_rank_histograms`` or ``python figures/fedlrgd_rank_histograms.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE, REFERENCE_COLOR
from fedtheory.verify import ClaimResult, PointMeasurements

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

ACTIVATIONS = {"sigmoid": ("sigmoid", PALETTE[0]), "relu": ("ReLU", PALETTE[1])}
MEDIAN_CLAIM = "fedlrgd/app-c/median-rank-below-null-{}"
FRACTION_CLAIM = "fedlrgd/app-c/almost-all-ranks-le-10-{}"
#: Top of the y axis (%): the null's spike near 0.52 k (~80%) is clipped and labelled.
Y_MAX = 25.0


def _counts(point: PointMeasurements, prefix: str, k: int, start: int) -> np.ndarray:
    """Counts per rank 0..k (``start`` = 1 when rank 0 is not an output), summed over replicates."""
    out = np.zeros(k + 1)
    for r in range(start, k + 1):
        out[r] = float(point[f"{prefix}_{r:02d}"].sum())
    return out


def _median(counts: np.ndarray) -> float:
    """Median of the pooled ranks 1..k given their counts (rank 0 ignored)."""
    values = np.repeat(np.arange(counts.size), counts.astype(int))
    values = values[values > 0]
    return float(np.median(values))


def _panel(ax: Axes, point: PointMeasurements, label: str, color: str) -> None:
    k = int(point.params["k"])
    ranks = np.arange(1, k + 1)
    real = _counts(point, "rank", k, 0)
    null = _counts(point, "null", k, 1)
    used, zero = real[1:].sum(), real[0]
    share = 100 * real[1:] / used
    null_share = 100 * null[1:] / null[1:].sum()
    ax.bar(ranks, null_share, width=1.0, color=REFERENCE_COLOR, alpha=0.45, edgecolor="none")
    peak = int(np.argmax(null_share))
    ax.annotate(
        f"null peak\n{null_share[peak]:.0f}% at {ranks[peak]} ↑",
        xy=(ranks[peak], Y_MAX),
        xytext=(ranks[peak] + 1.5, 0.45 * Y_MAX),
        fontsize=7.5,
        color="#555555",
    )
    ax.bar(ranks, share, width=1.0, color=color, alpha=0.9, edgecolor="white", linewidth=0.3)
    median, null_median = _median(real), _median(null)
    ax.axvline(median, color="black", linewidth=1.2)
    ax.axvline(0.4 * null_median, color="black", linestyle="--", linewidth=1.1)
    ax.axvline(10.5, color="black", linestyle=":", linewidth=1.1)
    le10 = real[1:11].sum() / used
    le5 = real[1:6].sum() / used
    accuracy = float(point["test_accuracy"].mean())
    ax.annotate(
        f"median {median:g}  (null {null_median:g})\n"
        f"rank ≤ 10: {le10:.0%}   ≤ 5: {le5:.0%}\n"
        f"zero slices excluded: {zero / (used + zero):.0%}\n"
        f"test accuracy {accuracy:.3f}, {point.n} networks",
        xy=(0.97, 0.96),
        xycoords="axes fraction",
        ha="right",
        va="top",
        fontsize=8,
    )
    p = int(point["n_params"][0])
    ax.set_title(f"{label}, K = {point.params['K']}  (p = {p})", fontsize=9.5)
    ax.set_xlim(0, k + 1)
    ax.set_ylim(0, Y_MAX)
    ax.grid(True, axis="y", alpha=0.25)


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Rows: activations; columns: hidden widths; histograms of ranks against the null."""
    columns = None
    verdicts: list[str] = []
    figure = Figure(figsize=(13.0, 6.6))
    axes = None
    for row, (activation, (label, color)) in enumerate(ACTIVATIONS.items()):
        data = results[MEDIAN_CLAIM.format(activation)].measurements
        assert data is not None
        curves = data.groups("K")
        points = sorted(
            (p for _, curve in curves for p in curve.points), key=lambda p: p.params["K"]
        )
        if axes is None:
            columns = len(points)
            axes = figure.subplots(
                len(ACTIVATIONS), columns, sharex=True, sharey=True, squeeze=False
            )
        for ax, point in zip(axes[row], points, strict=True):
            _panel(ax, point, label, color)
        axes[row][0].set_ylabel(f"{label}: % of non-zero slices", fontsize=9)
        verdicts.append(
            f"{label}: median ≤ 0.4 × null median — "
            f"{results[MEDIAN_CLAIM.format(activation)].verdict.outcome}; "
            f"≥ 70% of ranks ≤ 10 — {results[FRACTION_CLAIM.format(activation)].verdict.outcome}"
        )
    assert axes is not None and columns is not None
    for ax in axes[-1]:
        ax.set_xlabel("approximate rank (77) of the 60 × 60 slice ℳ_q")
    handles: list[Patch | Line2D] = [
        Patch(color=ACTIVATIONS["sigmoid"][1], label="gradient slices, sigmoid"),
        Patch(color=ACTIVATIONS["relu"][1], label="gradient slices, ReLU"),
        Patch(color=REFERENCE_COLOR, alpha=0.45, label="Gaussian null, i.i.d. N(0,1) 60 × 60"),
    ]
    handles += [
        _line("median rank", "-"),
        _line("0.4 × null median (criterion)", "--"),
        _line("rank 10 (criterion: ≥ 70% at or below)", ":"),
    ]
    figure.legend(
        handles=handles,
        loc="lower center",
        ncol=6,
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 0.035),
    )
    figure.text(
        0.5,
        0.012,
        "Verdicts (every network, guide V16):   " + "   |   ".join(verdicts),
        ha="center",
        fontsize=8,
        color="#333333",
    )
    figure.suptitle(
        "Per-sample gradient slices of trained networks are approximately low rank "
        "(FedLRGD App. C, Fig. 1(b),(e),(f),(i) on 8×8 digits; k = 60, 90% energy)",
        fontsize=11,
    )
    figure.subplots_adjust(left=0.085, right=0.99, bottom=0.17, top=0.9, wspace=0.06, hspace=0.2)
    return figure


def _line(label: str, style: str) -> Line2D:
    return Line2D([], [], color="black", linestyle=style, linewidth=1.1, label=label)


FIGURE = FigureScript(
    name="fedlrgd_rank_histograms",
    title="Histograms of approximate ranks of gradient slices vs a Gaussian null (App. C)",
    claims="fedlrgd/app-c/*",
    draw=draw,
    profile="quick",
    source="Jadbabaie, Makur & Shah, App. C Figures 1(b),(e),(f),(i) — digits analogue",
)

if __name__ == "__main__":
    main(FIGURE)
