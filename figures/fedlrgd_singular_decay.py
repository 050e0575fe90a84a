"""Tail energy of Hölder latent variable models against Theorem 1 (Jadbabaie, Makur & Shah).

One panel per data dimension d ∈ {1, 2}: the normalised tail energy t(r) = (1/n²)Σ_{j>r}σ_j² of
n × n latent variable models M_ij = g(y_i; ϑ_j) (n = 1200, y, ϑ ∼ U[0,1]^d) against the rank r on
log-log axes — the ℓ1 power kernel ‖y − ϑ‖₁^η (LVM-P, η ∈ {0.3, 0.5, 0.9}) and the Matérn kernels
ν = 1/2, 3/2 (LVM-M, η = 2ν) — with Theorem 1's bound K(d, η, L2)·r^{−2η/d} (dashed, from
r_min on) in the same colour, and the non-Hölder indicator 1{‖y − ϑ‖₁ < 1/2} (grey), the
negative control of the slope test. Lines are the means of three seeds (the seeds differ by less
than the line width); the legend gives each fitted slope on the shaded window [8, n/8] next to
the theorem's −2η/d; the dotted black line is the tightness probe (a random Fourier series with
amplitudes |ω|^{−(η+d/2)}, η = 1), whose slope is the theorem's. The bound holds everywhere,
7·10² to 2·10¹³ times above the measurement (quick profile); the measured exponents are close to
(2η + d)/d, steeper than the theorem's minimax-order 2η/d. The Matérn ν = 3/2 bound starts at
r_min = 17 (d = 1) and 247 (d = 2).

Data: the claims ``fedlrgd/thm1/*`` of ``verification/fedlrgd/singular_values.py``, run through
the runner and cached in the store. Make it with ``fedtheory figures make
fedlrgd_singular_decay`` or ``python figures/fedlrgd_singular_decay.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure

from fedtheory import bounds
from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE, REFERENCE_COLOR
from fedtheory.verify import ClaimResult, PointMeasurements

CLAIM = "fedlrgd/thm1/tail-bound"
PROBE = "fedlrgd/thm1/tightness-probe"
CONTROLS = {
    1: "fedlrgd/thm1/indicator-fails-slope-test-d1",
    2: "fedlrgd/thm1/indicator-fails-slope-test-d2",
}
THM1 = bounds.get("fedlrgd.thm1")
RMIN = bounds.get("fedlrgd.thm1.rmin")
COLORS = {
    ("lvm-p", 0.3): PALETTE[0],
    ("lvm-p", 0.5): PALETTE[1],
    ("lvm-p", 0.9): PALETTE[2],
    ("lvm-m", 1.0): PALETTE[3],
    ("lvm-m", 3.0): PALETTE[4],
}
Y_LIMITS = (1e-17, 1e6)


def _tail_curve(points: Sequence[PointMeasurements]) -> tuple[np.ndarray, np.ndarray]:
    """Ranks and the mean over replicates of t(r) at the ranks the experiment returned."""
    names = sorted(
        (name for name in points[0].values if name.startswith("t_r")), key=lambda s: int(s[3:])
    )
    ranks = np.array([int(name[3:]) for name in names], dtype=float)
    tails = np.array([np.mean([np.mean(p[name]) for p in points]) for name in names])
    return ranks, tails


def _label(family: str, eta: float, slope: float, d: int) -> str:
    model = f"LVM-P η = {eta:g}" if family == "lvm-p" else f"Matérn ν = {eta / 2:g} (η = {eta:g})"
    return f"{model}: slope {slope:.2f}  (Thm 1: {-2 * eta / d:.2f})"


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """Two log-log panels of t(r) against r, d = 1 and d = 2, with Theorem 1's bound."""
    data = results[CLAIM].measurements
    assert data is not None
    figure = Figure(figsize=(13.0, 7.8))
    axes = figure.subplots(1, 2, sharey=True)
    for ax, d in zip(axes, (1, 2), strict=True):
        n = 0
        for point in data.points:
            params = point.params
            if params["d"] != d:
                continue
            family, eta, n = params["family"], float(params["eta"]), int(params["n"])
            color = COLORS.get((family, eta), REFERENCE_COLOR)
            ranks, tails = _tail_curve([point])
            slope = float(np.mean(point["slope"]))
            ax.plot(
                ranks,
                tails,
                color=color,
                marker="o",
                markersize=3.5,
                linewidth=1.4,
                label=_label(family, eta, slope, d),
            )
            L2 = float(np.mean(point["L2"]))
            rmin = float(RMIN.evaluate(eta=eta, d=d))
            r_bound = np.unique(np.round(np.geomspace(np.ceil(rmin), n - 1, 60)))
            bound = THM1.evaluate(L2=L2, eta=eta, d=d, r=r_bound)
            ax.plot(r_bound, bound, color=color, linestyle="--", linewidth=1.3)
        control = results.get(CONTROLS[d])
        if control is not None and control.measurements is not None:
            points = list(control.measurements.points)
            ranks, tails = _tail_curve(points)
            slope = float(np.mean([np.mean(p["slope"]) for p in points]))
            tested = float(points[0].params["eta"])
            ax.plot(
                ranks,
                tails,
                color=REFERENCE_COLOR,
                marker="s",
                markersize=3.0,
                linewidth=1.2,
                label=(
                    f"indicator 1{{‖y−ϑ‖₁<½}} (not Hölder): slope {slope:.2f}, "
                    f"fails the η = {tested:g} test (≤ {-2 * tested / d + 0.1:.1f})"
                ),
            )
        probe = results.get(PROBE)
        if probe is not None and probe.measurements is not None:
            points = [
                p for p in probe.measurements.points if p.params["d"] == d and p.params["eta"] == 1
            ]
            if points:
                ranks, tails = _tail_curve(points)
                slope = float(np.mean(points[0]["slope"]))
                ax.plot(
                    ranks,
                    tails,
                    color="black",
                    linestyle=":",
                    linewidth=1.6,
                    label=(
                        f"tightness probe (random Fourier series, η = 1): slope {slope:.2f}  "
                        f"(Thm 1: {-2 / d:.2f})"
                    ),
                )
        ax.axvspan(8, n // 8, color="#000000", alpha=0.05, linewidth=0)
        ax.annotate(
            "slope-fit window [8, n/8]",
            xy=(np.sqrt(8 * (n // 8)), Y_LIMITS[1] / 8),
            ha="center",
            fontsize=8,
            color="#555555",
        )
        ax.plot([], [], color="black", linestyle="--", linewidth=1.3, label="Theorem 1 bound")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(*Y_LIMITS)
        ax.set_xlim(0.8, n)
        ax.set_xlabel("rank r")
        ax.set_title(f"d = {d}  (n = k = {n}, 3 seeds)", fontsize=10.5)
        ax.grid(True, which="major", alpha=0.25)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.11), fontsize=8, frameon=False)
    axes[0].set_ylabel("tail energy  t(r) = ‖M − M_r‖²_F / n²")
    slack = [float(np.min(p["slack_min"])) for p in data.points]
    figure.suptitle(
        "Theorem 1: t(r) ≤ K(d, η, L2)·r^(−2η/d) for r ≥ r_min — holds, with bound/t(r) ≥ "
        f"{min(slack):.0f} (up to {max(slack):.1e}); measured slopes ≈ −(2η + d)/d",
        fontsize=11,
    )
    figure.subplots_adjust(left=0.07, right=0.985, bottom=0.31, top=0.92, wspace=0.05)
    return figure


FIGURE = FigureScript(
    name="fedlrgd_singular_decay",
    title="Tail energy t(r) of Hölder latent variable models against Theorem 1 (log-log)",
    claims="fedlrgd/thm1/*",
    draw=draw,
    profile="quick",
    catalog=("verification/fedlrgd/singular_values.py",),
    source="Jadbabaie, Makur & Shah, Theorem 1 — guide V3",
)

if __name__ == "__main__":
    main(FIGURE)
