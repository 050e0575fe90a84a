"""Federated oracle complexity along Proposition 1's scalings: FedLRGD, FedAve and the omitted
federated full-gradient GD (Jadbabaie, Makur & Shah, Theorems 2–3, Proposition 1; guide V15, D3).

Left: Γ against the number of clients m (log-log) — Theorem 2's exact cost r² + rs + rS + φmr of
FedLRGD at r = r(47), S = S(48); FedAve's optimized bound (79) (solid) inside Theorem 3's bracket
[(3/4), 8]·φτm(C/ε')^{3/4} (shaded; its upper end is Proposition 1's Γ+, dashed); and federated
GD's exact cost (r + s + φm)⌈log(Δ0/ε)/log(κ/(κ−1))⌉. Every curve is ≈ φm times a slowly
varying factor, so the right panel divides by φm and plots against p/ε: the factors are r(47)
∝ (p/ε)^{1/(2c1)} = (p/ε)^{1/8}, (C/ε')^{3/4} and κ log(p/ε). The crossover of FedLRGD with Γ+
is marked; federated GD is below both everywhere.

Constants (all explicit, see ``PATH`` in ``verification/fedlrgd/algebra.py``): ξ = 1/2, c1 = 4,
α = 1, η = 8d, β = 1/2 (ε = p·n^{−β}, n = ms + r), p = 1, s = 100, φ = 50, τ = 1, κ = 2,
L2 = B = μ = 1, F(θ⁰) − F_* = p, FedAve's C = 1; d = 1 (solid) and d = 2 (dashed FedLRGD).

Data: the claims ``fedlrgd/prop1/*`` (one shared measurement, ``fedlrgd/prop1/scaling-path``) run
through the runner and cached in the store. Make it with
``fedtheory figures make fedlrgd_oracle_complexity`` or
``python figures/fedlrgd_oracle_complexity.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE, REFERENCE_COLOR
from fedtheory.verify import ClaimResult

CLAIM = "fedlrgd/prop1/crossover"
COLORS = {"lrgd": PALETTE[0], "ave": PALETTE[1], "gd": PALETTE[2]}
LINESTYLES = {1: "-", 2: "--"}


def _curves(result: ClaimResult) -> dict[int, dict[str, np.ndarray]]:
    """Per data dimension d, the path's outputs (one deterministic replicate per point)."""
    data = result.measurements
    assert data is not None
    curves: dict[int, dict[str, np.ndarray]] = {}
    for key, curve in data.groups("p_over_eps"):
        points = sorted(curve.points, key=lambda p: p.params["p_over_eps"])
        columns = {name: np.array([float(p[name][0]) for p in points]) for name in points[0].values}
        columns["p_over_eps"] = np.array([p.params["p_over_eps"] for p in points], dtype=float)
        columns["phi_m"] = np.array([p.params["phi"] for p in points]) * columns["m"]
        curves[int(key["d"])] = columns
    return curves


def _crossing(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> float | None:
    """First sign change of log a − log b, interpolated linearly in log x (None if none)."""
    gap = np.log(a) - np.log(b)
    for i in range(len(gap) - 1):
        if gap[i] > 0 >= gap[i + 1]:
            t = gap[i] / (gap[i] - gap[i + 1])
            return float(np.exp(np.log(x[i]) + t * (np.log(x[i + 1]) - np.log(x[i]))))
    return None


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Γ against m (left) and Γ/(φm) against p/ε (right) for FedLRGD, FedAve and FedGD."""
    curves = _curves(results[CLAIM])
    figure = Figure(figsize=(13.0, 5.2))
    left, right = figure.subplots(1, 2)
    for d, c in sorted(curves.items()):
        style = LINESTYLES.get(d, ":")
        m, scale = c["m"], c["phi_m"]
        for ax, x, norm in ((left, m, 1.0), (right, c["p_over_eps"], scale)):
            ax.plot(
                x,
                c["gamma_lrgd"] / norm,
                color=COLORS["lrgd"],
                linestyle=style,
                linewidth=2.0,
                label=f"FedLRGD, Thm 2 (d = {d}, η = {c['eta'][0]:g})",
            )
            if d != min(curves):
                continue  # FedAve and FedGD do not depend on d; draw them once
            ax.fill_between(
                x,
                c["gamma_ave_lower"] / norm,
                c["gamma_ave_plus"] / norm,
                color=COLORS["ave"],
                alpha=0.12,
                linewidth=0,
                label=r"Thm 3 bracket $[\frac{3}{4}, 8]\cdot\varphi\tau m\,(C/\varepsilon')^{3/4}$",
            )
            ax.plot(
                x,
                c["gamma_ave_plus"] / norm,
                color=COLORS["ave"],
                linestyle="--",
                linewidth=1.2,
                label=r"$\Gamma_+$(FedAve) $= 8\varphi\tau m\,(C/\varepsilon')^{3/4}$ (Prop. 1)",
            )
            ax.plot(
                x,
                c["gamma_ave_optimum"] / norm,
                color=COLORS["ave"],
                linewidth=1.6,
                label="FedAve: optimized bound (79)",
            )
            ax.plot(
                x,
                c["gamma_fedgd"] / norm,
                color=COLORS["gd"],
                linewidth=2.0,
                label="federated full-gradient GD (derived, D3)",
            )
        star = _crossing(c["p_over_eps"], c["gamma_lrgd"], c["gamma_ave_plus"])
        if star is not None:
            m_star = float(np.exp(np.interp(np.log(star), np.log(c["p_over_eps"]), np.log(m))))
            right.axvline(star, color=REFERENCE_COLOR, linestyle=style, linewidth=0.9)
            left.axvline(m_star, color=REFERENCE_COLOR, linestyle=style, linewidth=0.9)
            left.annotate(
                rf"d = {d}: FedLRGD = $\Gamma_+$ at $m^* \approx 10^{{{np.log10(m_star):.1f}}}$",
                xy=(m_star, 0.03 + 0.07 * (d - 1)),
                xycoords=("data", "axes fraction"),
                xytext=(4, 0),
                textcoords="offset points",
                fontsize=8.5,
            )
            right.annotate(
                rf"d = {d}: $(p/\varepsilon)^* \approx 10^{{{np.log10(star):.1f}}}$",
                xy=(star, 0.97 - 0.07 * (d - 1)),
                xycoords=("data", "axes fraction"),
                va="top",
                xytext=(4, 0),
                textcoords="offset points",
                fontsize=8.5,
            )
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.25)
    left.set_xlabel(r"number of clients $m$   ($n = ms + r$, $\varepsilon = p/\sqrt{n}$)")
    left.set_ylabel(r"federated oracle complexity $\Gamma$ (Definition 1)")
    left.set_title(r"$\Gamma$ against $m$ along Proposition 1's scalings", fontsize=10)
    right.set_xlabel(r"$p/\varepsilon$")
    right.set_ylabel(r"$\Gamma/(\varphi m)$")
    right.set_title(
        r"$\Gamma/(\varphi m)$ against $p/\varepsilon$: slopes 1/(2c$_1$) = 1/8, 3/4 and "
        r"$\approx 0$ ($\kappa\log(p/\varepsilon)$)",
        fontsize=10,
    )
    handles, labels = left.get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=3, fontsize=8.5, frameon=False)
    figure.suptitle(
        "FedLRGD beats FedAve's bound only beyond a crossover — and plain federated GD beats "
        "both (ξ = 1/2, c1 = 4, α = 1, s = 100, φ = 50, κ = 2)",
        fontsize=11,
    )
    figure.subplots_adjust(bottom=0.24, top=0.88, wspace=0.22, left=0.07, right=0.98)
    return figure


FIGURE = FigureScript(
    name="fedlrgd_oracle_complexity",
    title="Γ of FedLRGD, FedAve and federated GD along Proposition 1's scalings (log-log)",
    claims="fedlrgd/prop1/*",
    draw=draw,
    profile="quick",
    catalog=("verification/fedlrgd/algebra.py",),
    source="Jadbabaie, Makur & Shah, Theorems 2–3 and Proposition 1 — teaching figure (V15, D3)",
)

if __name__ == "__main__":
    main(FIGURE)
