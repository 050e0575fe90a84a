"""The heterogeneity radii of FFGB.C (ω_TV, Theorem 3.2 / D.1) and FFGB.L (ω_W1, Theorem 3.3)
against the errors their constructions reach (Shen, Hassani, Kale & Karbasi; reading guide §3.5,
§3.6, checks C7 and C9).

Left: FFGB.C (Algorithm 5, γ = 1, K = 4, T = 1500, B = 2G/(μγ)) on three marginal families whose
ω_TV → 0 — Dirichlet mixtures, one private atom per client with zero extension, and with
adversarial extension — the error ‖Π_B(f^T) − f*‖²_α against the measured ω_TV, with the proof's
explicit radius 128·GBω_TV/(μγ) (dotted) and Theorem 3.2's radius at the minimal B,
2G²ω_TV/(μ²γ²) (C = 1, dashed). The private-atom families are linear in ω_TV like the radius;
the Dirichlet mixtures sit far below it (∝ ω²).

Right: FFGB.L (γ = 1, K = 4, T = 400) on translated supports x_{i,j} = z_j + iδ — TV stays
1 − 1/N for every δ > 0 — the error against the exact ω_W1, with Theorem 3.3's radius
(DL² + BL)ω_W1/(γ²μ) (C = 1, dashed; D grows with δ too).

Data: the claims ``ffgb/thm32/omega-explicit`` and ``ffgb/thm33/error-vanishes-with-w1`` of
``verification/ffgb/radius.py``, run through the runner and cached in the store. Make it with
``fedtheory figures make ffgb_radius`` or ``python figures/ffgb_radius.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from fedtheory import bounds
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE
from fedtheory.verify import ClaimResult

TV_CLAIM = "ffgb/thm32/omega-explicit"
W1_CLAIM = "ffgb/thm33/error-vanishes-with-w1"
OMEGA_EXPLICIT = bounds.get("ffgb.thm32.omega-explicit")
THM32_RADIUS = bounds.get("ffgb.thm32.radius")
FAMILIES = {
    "dirichlet": ("Dirichlet mixture", PALETTE[0]),
    "private-zero": ("private atoms, zero extension", PALETTE[1]),
    "private-adversarial": ("private atoms, adversarial extension", PALETTE[2]),
}


def _tv_panel(ax: Axes, result: ClaimResult) -> None:
    data = result.measurements
    assert data is not None
    for key, curve in data.groups("eps"):
        points = list(curve.points)
        label, color = FAMILIES[str(key["family"])]
        omega = np.array([float(np.mean(p["omega_TV"])) for p in points])
        errors = np.array([float(np.mean(p["err"])) for p in points])
        ax.plot(omega, errors, color=color, label=label, **MEASURED_STYLE)
    first = data.points[0]
    constants: dict[str, Any] = {name: float(first[name][0]) for name in ("G", "B", "mu")}
    gamma = float(first.params["gamma"])
    omegas = np.array([float(np.mean(p["omega_TV"])) for p in data.points])
    grid = np.geomspace(omegas[omegas > 0].min(), omegas.max(), 60)
    explicit = OMEGA_EXPLICIT.evaluate(
        omega_TV=grid, gamma=gamma, k0=float(first["k0"][0]), f0_sup=0.0, **constants
    )
    radius = THM32_RADIUS.evaluate(
        C=1.0,
        omega_TV=grid,
        gamma=gamma,
        K=int(first.params["K"]),
        G=constants["G"],
        mu=constants["mu"],
    )
    ax.plot(grid, explicit, color="black", linestyle=":", linewidth=1.5, label="128·GBω_TV/(μγ)")
    ax.plot(
        grid,
        radius,
        color="black",
        linestyle="--",
        linewidth=1.2,
        label="Thm 3.2 radius 2G²ω_TV/(μ²γ²) (C = 1)",
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ω_TV = (1/N) Σ TV(α, α_i)")
    ax.set_ylabel("error ‖Π_B(f^T) − f*‖²_α")
    ax.set_title(
        f"FFGB.C: error vs ω_TV  (γ = {gamma:g}, K = {first.params['K']}, "
        f"T = {first.params['T']}, B = {constants['B']:g})",
        fontsize=10,
    )
    ax.grid(True, which="major", alpha=0.25)
    ax.legend(fontsize=8, loc="lower right")


def _w1_panel(ax: Axes, result: ClaimResult) -> None:
    data = result.measurements
    assert data is not None
    count = sum(
        1 for name in data.points[0].values if name.startswith("err_") and name[4:].isdigit()
    )
    for index, point in enumerate(data.points):
        omega = np.array([float(point[f"omega_W1_{j}"][0]) for j in range(count)])
        errors = np.array([float(point[f"err_{j}"][0]) for j in range(count)])
        radius = np.array([float(point[f"radius_{j}"][0]) for j in range(count)])
        color = PALETTE[3 + index]
        population = point.params["population"]
        ax.plot(
            omega,
            errors,
            color=color,
            label=f"FFGB.L, population {population} (slope {float(point['slope'][0]):.2f})",
            **MEASURED_STYLE,
        )
        ax.plot(
            omega,
            radius,
            color=color,
            linestyle="--",
            linewidth=1.2,
            label=(
                f"Thm 3.3 radius (DL² + BL)ω_W1/(γ²μ), C = 1 "
                f"(slope {float(point['bound_slope'][0]):.2f})"
            ),
        )
    params = data.points[0].params
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("ω_W1 = (1/N) Σ W1(α, α_i)   (ω_TV = 1 − 1/N throughout)")
    ax.set_ylabel("error ‖f^T − f*‖²_α")
    ax.set_title(
        f"FFGB.L on translated supports: error vs ω_W1  (N = {params['N']}, M = {params['M']}, "
        f"L = {params['L']:g}, γ = {params['gamma']:g})",
        fontsize=10,
    )
    ax.grid(True, which="major", alpha=0.25)
    ax.legend(fontsize=8, loc="lower right")


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Two log-log panels: FFGB.C vs ω_TV, FFGB.L vs ω_W1, with the radii overlaid."""
    figure = Figure(figsize=(13.5, 5.4))
    left, right = figure.subplots(1, 2)
    _tv_panel(left, results[TV_CLAIM])
    _w1_panel(right, results[W1_CLAIM])
    figure.suptitle(
        "Heterogeneity radii: FFGB.C's error is at most linear in ω_TV (attained by private "
        "atoms); FFGB.L's vanishes with ω_W1 while TV stays maximal (Shen et al., Thms 3.2, 3.3)",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.06, right=0.98, bottom=0.12, top=0.86, wspace=0.2)
    return figure


FIGURE = FigureScript(
    name="ffgb_radius",
    title="FFGB.C error vs ω_TV (three families) and FFGB.L error vs ω_W1, radii overlaid",
    claims="ffgb/thm3[23]/*",
    draw=draw,
    profile="quick",
    source="Shen et al., Theorems 3.2 and 3.3 — the radii (guide C7, C9)",
)

if __name__ == "__main__":
    main(FIGURE)
