"""FZooS's ablations at a reduced scale (Shu, Lin, Dai & Low, App. F.1, Figs. 5–6; Theorem 2;
reading guide §4.3, §5 checks 30–32).

Three panels, all FZooS on the synthetic quadratics (98) (d = 20, N = 5, R = 12, Adam η = 0.01):

* **T** — the normalised gap (F(x_r) − F*)/(F(x_0) − F*) (geometric mean over the replicates)
  against rounds for T ∈ {5, 10, 20} at C = 5; the dotted line is check 28's threshold 10⁻²;
* **M** — the final plateau (mean F − F* over the last rounds) against M ∈ {250, 1000, 4000} at
  C = 50, every replicate and the mean, with Theorem 2's M^{−1/2} through the mean at M = 1000;
* **γ** — the final plateau against C ∈ {0.5, 5, 50} for the adaptive correction (γ = 1/t,
  x′ = x″ = x_{r,t−1}), the fixed length γ = 1 and the fixed vector x′ = x″ = x_{r−1}, with
  Theorem 2's √G ∝ C through the adaptive mean at C = 5.

Panel titles give the outcomes of the (non-gating) claims ``fzoos/ablations/*``. Settings and
departures: ``verification/fzoos/ablations.py``. Data: the measurement ``fzoos/ablations/runs``
run through the runner and cached in the store. Make it with ``fedtheory figures make
fzoos_ablations`` or ``python figures/fzoos_ablations.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult
from fedtheory.verify.measurements import PointMeasurements

PREFIX = "fzoos/ablations/"
THRESHOLD = 1e-2
#: (fixed_length, fixed_vector) → label of the correction variant.
VARIANTS = {
    (0, 0): "adaptive (γ = 1/t)",
    (1, 0): "fixed length γ = 1",
    (0, 1): "fixed vector x_{r−1}",
}


def _outcome(results: Mapping[str, ClaimResult], slug: str) -> str:
    return str(results[PREFIX + slug].verdict.outcome)


def _points(results: Mapping[str, ClaimResult], *slugs: str) -> list[PointMeasurements]:
    """The distinct points (by parameters) of the claims' measurements, replicates merged."""
    seen: dict[str, PointMeasurements] = {}
    for slug in slugs:
        data = results[PREFIX + slug].measurements
        assert data is not None
        for point in data.points:
            key = repr(sorted(point.params.items()))
            if key not in seen or point.n > seen[key].n:
                seen[key] = point
    return list(seen.values())


def _gap_curve(point: PointMeasurements) -> np.ndarray:
    names = sorted(n for n in point.values if n.startswith("gap_r"))
    gaps = np.array([point[n] for n in names], dtype=float)  # (rounds + 1, replicates)
    return np.exp(np.log(np.maximum(gaps, 1e-300)).mean(axis=1))


def _panel_t(ax, results: Mapping[str, ClaimResult]) -> None:  # type: ignore[no-untyped-def]
    points = sorted(_points(results, "fig5-rounds-decrease-with-t"), key=lambda p: p.params["T"])
    for index, point in enumerate(points):
        gap = _gap_curve(point)
        rounds = float(np.mean(point["rounds"]))
        ax.plot(
            np.arange(gap.size), gap, color=PALETTE[index % len(PALETTE)], marker="o",
            markersize=3, label=f"T = {point.params['T']} (rounds to 10⁻²: {rounds:.1f})",
        )  # fmt: skip
    ax.axhline(THRESHOLD, color="0.4", linestyle=":", linewidth=1)
    ax.set_yscale("log")
    ax.set_xlabel("rounds r")
    ax.set_ylabel("(F(x_r) − F*) / (F(x_0) − F*)")
    ax.set_title(
        f"Fig. 5, C = 5: fewer rounds with T: {_outcome(results, 'fig5-rounds-decrease-with-t')}"
        f"\nsub-linear (T·rounds grows): {_outcome(results, 'fig5-sublinear-in-t')}",
        fontsize=9.5,
    )
    ax.legend(fontsize=8.5, frameon=False)


def _panel_m(ax, results: Mapping[str, ClaimResult]) -> None:  # type: ignore[no-untyped-def]
    points = sorted(_points(results, "fig6a-gap-decreases-with-m"), key=lambda p: p.params["M"])
    M = np.array([float(p.params["M"]) for p in points])
    means = np.array([float(np.mean(p["plateau"])) for p in points])
    for m, point in zip(M, points, strict=True):
        ax.scatter(np.full(point.n, m), point["plateau"], color=PALETTE[0], alpha=0.45, s=14)
    ax.plot(M, means, color=PALETTE[0], marker="o", linewidth=2, label="mean over replicates")
    anchor = means[int(np.argmin(np.abs(M - 1000.0)))]
    ax.plot(M, anchor * (M / 1000.0) ** -0.5, color="0.3", linestyle="--", label="∝ M^(−1/2)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(M, [f"{m:g}" for m in M])
    ax.minorticks_off()
    ax.set_xlabel("random features M")
    ax.set_ylabel("final plateau F − F* (last rounds)")
    slope = results[PREFIX + "thm2-plateau-vs-m"].verdict.measured
    ax.set_title(
        f"Fig. 6a, C = 50: gap falls with M: {_outcome(results, 'fig6a-gap-decreases-with-m')}"
        f"\nThm 2 slope −1/2 ± 1/4 ({slope}): {_outcome(results, 'thm2-plateau-vs-m')}",
        fontsize=9.5,
    )
    ax.legend(fontsize=8.5, frameon=False)


def _panel_gamma(ax, results: Mapping[str, ClaimResult]) -> None:  # type: ignore[no-untyped-def]
    slugs = (
        "fig6b-adaptive-length-helps",
        "fig6b-adaptive-vector-helps",
        "fig6b-fixed-vector-wins-at-c50",
        "fig6b-fixed-length-wins-at-c50",
        "thm2-plateau-vs-c",
    )
    points = _points(results, *slugs)
    for index, (flags, label) in enumerate(VARIANTS.items()):
        chosen = sorted(
            (p for p in points if (p.params["fixed_length"], p.params["fixed_vector"]) == flags),
            key=lambda p: p.params["C"],
        )
        C = np.array([float(p.params["C"]) for p in chosen]) * (1.0 + 0.08 * (index - 1))
        mean = np.array([float(np.mean(p["plateau"])) for p in chosen])
        se = np.array([float(np.std(p["plateau"], ddof=1) / np.sqrt(p.n)) for p in chosen])
        ax.errorbar(
            C, mean, yerr=np.minimum(se, 0.95 * mean), color=PALETTE[index], marker="os^"[index],
            capsize=3, label=label,
        )  # fmt: skip
        if flags == (0, 0):
            anchor = float(np.interp(np.log(5.0), np.log(C), np.log(mean)))
            ax.plot(C, np.exp(anchor) * C / 5.0, color="0.3", linestyle="--", label="∝ C (√G)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("heterogeneity C")
    ax.set_ylabel("final plateau F − F* (mean ± SE)")
    ax.set_title(
        f"Fig. 6b, C ≤ 5 — adaptive γ: {_outcome(results, 'fig6b-adaptive-length-helps')}, "
        f"adaptive vector: {_outcome(results, 'fig6b-adaptive-vector-helps')}"
        f"\nC = 50: fixed vector better {_outcome(results, 'fig6b-fixed-vector-wins-at-c50')}, "
        f"γ = 1 better {_outcome(results, 'fig6b-fixed-length-wins-at-c50')}"
        f"\nThm 2 slope in C 1 ± 1/2: {_outcome(results, 'thm2-plateau-vs-c')}",
        fontsize=8.8,
    )
    ax.legend(fontsize=8.5, frameon=False)


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """The T, M and γ panels (module docstring)."""
    figure = Figure(figsize=(16, 5.4))
    axes = figure.subplots(1, 3)
    _panel_t(axes[0], results)
    _panel_m(axes[1], results)
    _panel_gamma(axes[2], results)
    for ax in axes:
        ax.grid(True, which="major", alpha=0.25)
    figure.suptitle(
        "FZooS ablations on the synthetic quadratics (d = 20, N = 5, R = 12, Adam η = 0.01, "
        "3 replicates per point; defaults T = 10, M = 1000, γ = 1/t, adaptive vector)",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.05, right=0.99, bottom=0.11, top=0.78, wspace=0.25)
    return figure


FIGURE = FigureScript(
    name="fzoos_ablations",
    title="FZooS Figs. 5–6 (reduced): T, M and correction ablations; Theorem 2's M and C trends",
    claims="fzoos/ablations/*",
    draw=draw,
    profile="quick",
    source="Shu et al., App. F.1, Figures 5–6, Theorem 2 (guide §5 checks 30–32)",
)

if __name__ == "__main__":
    main(FIGURE)
