"""FedAvg's exact worst case against the number of local steps, for several heterogeneities.

Left: the worst-case ‖x_T − x*‖² of FedAvg (m = 2 clients, T = 2 rounds, step 0.5, L = 1,
μ = 0.1, R = 1) over every pair of L-smooth μ-strongly convex clients with (1/m)Σ‖∇f_i(x*)‖² ≤ ζ²,
against the local steps K, one curve per ζ² — each point one PEP (``fedtheory.worstcase``). The
dashed line is the registered bound ``classic.gd.distance.exact`` at K·T steps: the exact worst
case at ζ = 0 (the claim ``classic/worstcase/fedavg-homogeneous-is-gd``). Right: the
worst-case-optimal local step against K (a search over η, each point a PEP), with GD's
2/(μ + L) (``classic.gd.optimal-step``) at K = 1. Data: the claims
``classic/worstcase/fedavg-*`` (``verification/classic/worstcase_fedavg.py``). Make it with
``fedtheory figures make worstcase_fedavg``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from fedtheory import bounds
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult

BEST = "classic/worstcase/fedavg-best-local-steps"
STEP = "classic/worstcase/fedavg-optimal-step-shrinks"
GD = "classic/worstcase/fedavg-homogeneous-is-gd"


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Worst case against K per ζ² (left), optimal local step against K (right)."""
    best, step = results[BEST].measurements, results[STEP].measurements
    assert best is not None and step is not None
    figure = Figure(figsize=(12, 5))
    left, right = figure.subplots(1, 2)
    exact = bounds.get("classic.gd.distance.exact")
    levels = sorted({float(p.params["zeta2"]) for p in (*best.points, *step.points)})
    color_of = {z: PALETTE[i % len(PALETTE)] for i, z in enumerate(levels)}
    for point in sorted(best.points, key=lambda p: float(p.params["zeta2"])):
        names = sorted(
            (n for n in point.values if n.startswith("worst_K")), key=lambda n: int(n[7:])
        )
        ks = np.array([int(n[7:]) for n in names])
        values = np.array([float(np.mean(point[n])) for n in names])
        zeta2 = float(point.params["zeta2"])
        color = color_of[zeta2]
        left.plot(
            ks,
            values,
            marker="o",
            color=color,
            label=f"ζ² = {zeta2:g} (ζ/μR = {np.sqrt(zeta2) / 0.1:.3g})",
        )
        k_best = int(np.mean(point["best_K"]))
        left.plot(
            [k_best], [values[list(ks).index(k_best)]], marker="*", markersize=14, color=color
        )
        if zeta2 == 0.0:
            T, eta = int(point.params["T"]), float(point.params["eta"])
            gd = [float(exact.evaluate(L=1.0, mu=0.1, eta=eta, T=int(k) * T, D0=1.0)) for k in ks]
            left.plot(
                ks,
                gd,
                linestyle="--",
                color="black",
                linewidth=1,
                label="classic.gd.distance.exact at K·T steps",
            )
    left.set_xlabel("local steps K per round")
    left.set_ylabel("worst-case ‖x_T − x*‖²  (exact, SDP)")
    left.set_title("FedAvg, m = 2, T = 2, η = 0.5 (★: best K)", fontsize=10)
    left.legend(fontsize=8.5, frameon=False)
    for zeta2 in sorted({float(p.params["zeta2"]) for p in step.points}):
        points = sorted(
            (p for p in step.points if float(p.params["zeta2"]) == zeta2),
            key=lambda p: int(p.params["K"]),
        )
        ks = [int(p.params["K"]) for p in points]
        etas = [float(np.mean(p["eta_star"])) for p in points]
        right.plot(ks, etas, marker="o", color=color_of[zeta2], label=f"ζ² = {zeta2:g}")
    right.axhline(
        float(bounds.get("classic.gd.optimal-step").evaluate(L=1.0, mu=0.1)),
        color="black",
        linestyle="--",
        linewidth=1,
        label="2/(μ + L): GD's optimal step",
    )
    right.set_xlabel("local steps K per round")
    right.set_ylabel("worst-case-optimal local step η*")
    right.set_title("the step minimising the worst case (T = 2)", fontsize=10)
    right.legend(fontsize=8.5, frameon=False)
    for ax in (left, right):
        ax.grid(True, alpha=0.25)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    figure.suptitle(
        f"Exact worst cases of FedAvg's local steps — ζ = 0 is GD with K·T steps: "
        f"{results[GD].verdict.outcome}; best K falls with ζ: {results[BEST].verdict.outcome}; "
        f"η* shrinks with K: {results[STEP].verdict.outcome}",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.07, right=0.98, bottom=0.11, top=0.88, wspace=0.2)
    return figure


FIGURE = FigureScript(
    name="worstcase_fedavg",
    title="FedAvg's exact worst case vs local steps K (several ζ) and its optimal local step",
    claims="classic/worstcase/fedavg-*",
    draw=draw,
    profile="quick",
    source="performance estimation (issue 16); classic.gd.distance.exact, classic.gd.optimal-step",
)

if __name__ == "__main__":
    main(FIGURE)
