"""FFGB's error floor against the number of local steps K (Shen, Hassani, Kale & Karbasi,
Theorem 3.1; reading guide §3.3, §3.8, checks C3 and C5).

One panel per population (logistic loss, P = 50 atoms, N = 8 clients, μ = 0.1, γ = 0.5,
T = 400 rounds, the floor reached by T/4): ‖f^T − f*‖²_α for the exact scale, biased and top-k
oracles, with the error-feedback residual reset every round (solid; Algorithm 2) and without
the residual (dashed; the no-residual variant of Fig. 2a). Overlaid: Theorem 3.1's explicit
floor 4(1 − γ)²G²/(Kμ²γ²) (its 1/K, dotted black) and a 1/K² guide through the scale oracle's
curve; the legend gives every curve's fitted slope over K ∈ [4, 32]. The residual floor decays
like 1/K² — faster than the bound's 1/K, which is loose, not violated — and without the residual
the floor does not move with K.

Data: the claims ``ffgb/thm31/floor-bound`` and ``ffgb/thm31/no-residual-floor`` of
``verification/ffgb/theorem31.py``, run through the runner and cached in the store. Make it with
``fedtheory figures make ffgb_floor_vs_k`` or ``python figures/ffgb_floor_vs_k.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory import bounds
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE, REFERENCE_COLOR
from fedtheory.verify import ClaimResult
from fedtheory.verify.measurements import PointMeasurements

RESET = "ffgb/thm31/floor-bound"
NO_RESIDUAL = "ffgb/thm31/no-residual-floor"
FLOOR = bounds.get("ffgb.thm31.floor")
ORACLES = {"scale": PALETTE[0], "biased": PALETTE[1], "topk": PALETTE[2]}
FIT_FROM = 4


def _curves(
    result: ClaimResult,
) -> dict[tuple[int, str], tuple[np.ndarray, np.ndarray, list[PointMeasurements]]]:
    """(population, oracle) -> (K, mean error, points)."""
    data = result.measurements
    assert data is not None
    out = {}
    for key, curve in data.groups("K"):
        points = list(curve.points)
        population = int(points[0].params["population"])
        ks = np.array([float(p.params["K"]) for p in points])
        errors = np.array([float(np.mean(p["err"])) for p in points])
        out[(population, str(key["oracle"]))] = (ks, errors, points)
    return out


def _slope(ks: np.ndarray, errors: np.ndarray) -> float:
    keep = ks >= FIT_FROM
    return float(np.polyfit(np.log(ks[keep]), np.log(errors[keep]), 1)[0])


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """One log-log panel per population: floor vs K, with and without the residual."""
    reset = _curves(results[RESET])
    none = _curves(results[NO_RESIDUAL])
    populations = sorted({population for population, _ in reset})
    figure = Figure(figsize=(12.5, 5.0))
    axes = figure.subplots(1, len(populations), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, population in zip(axes, populations, strict=True):
        biggest_g, mu, gamma = 0.0, 0.0, 0.0
        for oracle, color in ORACLES.items():
            ks, errors, points = reset[(population, oracle)]
            ax.plot(
                ks,
                errors,
                color=color,
                label=f"{oracle}, residual reset (slope {_slope(ks, errors):.2f})",
                **MEASURED_STYLE,
            )
            biggest_g = max(biggest_g, max(float(np.max(p["G"])) for p in points))
            mu = float(points[0]["mu"][0])
            gamma = float(points[0].params["gamma"])
            ks_n, errors_n, _ = none[(population, oracle)]
            ax.plot(
                ks_n,
                errors_n,
                color=color,
                linestyle="--",
                marker="s",
                markersize=4,
                alpha=0.8,
                label=f"{oracle}, no residual (slope {_slope(ks_n, errors_n):.2f})",
            )
        grid = np.arange(1.0, float(ks.max()) + 1.0)
        bound = FLOOR.evaluate(G=biggest_g, gamma=gamma, K=grid, mu=mu, f0_norm=0.0)
        ax.plot(
            grid,
            bound,
            color="black",
            linestyle=":",
            linewidth=1.5,
            label="Theorem 3.1 floor 4(1 − γ)²G²/(Kμ²γ²)  (slope −1)",
        )
        ks, errors, _ = reset[(population, "scale")]
        anchor = errors[ks == FIT_FROM][0] * FIT_FROM**2
        ax.plot(
            grid[grid >= 2],
            anchor / grid[grid >= 2] ** 2,
            color=REFERENCE_COLOR,
            linewidth=1.0,
            label="1/K² guide (the exact square-loss floor's rate)",
        )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("local steps K")
        ax.set_title(
            f"population {population}  (γ = {gamma:g}, μ = {mu:g}, T = {points[0].params['T']})",
            fontsize=10,
        )
        ax.grid(True, which="major", alpha=0.25)
    axes[0].set_ylabel("error floor ‖f^T − f*‖²_α")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=3, fontsize=8.5, frameon=False)
    figure.suptitle(
        "FFGB's floor decays like 1/K² (Theorem 3.1 says 1/K); without the residual it does "
        "not decay (Shen et al., Thm 3.1)",
        fontsize=11,
    )
    figure.subplots_adjust(bottom=0.3, top=0.88, wspace=0.06)
    return figure


FIGURE = FigureScript(
    name="ffgb_floor_vs_k",
    title="FFGB error floor vs K: scale/biased/top-k oracles, with and without the residual",
    claims="ffgb/thm31/*floor*",
    draw=draw,
    profile="quick",
    source="Shen et al., Theorem 3.1 — the floor's K-dependence (guide C3, C5)",
)

if __name__ == "__main__":
    main(FIGURE)
