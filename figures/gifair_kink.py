"""GIFAIR-FL at a kink of H (Yue, Nouiehed & Al Kontar; reading guide §5 V12, §6.5).

Deterministic GIFAIR-FL-Global (E = 1, exact r, η_t = c/√t, c = 1/(√(2K)L)) on the guide's §7
quadratics at λ = 0.9λ_max, where the optimum ties two groups. Against the number of rounds T:
the distance max_{T/2≤t≤T}‖θ̄_t − θ*‖ goes to 0, the smallest active-piece gradient norm
min_{t≤T}‖Σ_k q_k(θ̄_t)∇F_k(θ̄_t)‖ (the "∇H" of Theorems 3.11/8.6) stays above
½·min_π‖∇f_π(θ*)‖ (dashed), while the Goldstein δ-stationarity of θ̄_T goes to 0 under its bound
L‖θ̄_T − θ*‖ (dotted).

Data: the claims ``gifair/thm311/kink-*`` of ``verification/gifair/kink.py``, run through the
runner and cached in the store. Make it with ``fedtheory figures make gifair_kink`` or
``python figures/gifair_kink.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE
from fedtheory.verify import ClaimResult

CLAIM = "gifair/thm311/kink-gradient"


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """One log-log panel: distance, active-piece gradient and Goldstein stationarity vs T."""
    data = results[CLAIM].measurements
    assert data is not None
    points = sorted(data.points, key=lambda p: float(p.params["T"]))
    T = np.array([float(p.params["T"]) for p in points])

    def series(name: str) -> np.ndarray:
        return np.array([float(np.mean(p[name])) for p in points])

    figure = Figure(figsize=(7.5, 5.2))
    ax = figure.subplots()
    ax.plot(
        T, series("dist_tail"), color=PALETTE[0], label="max_{T/2≤t≤T} ‖θ̄_t − θ*‖", **MEASURED_STYLE
    )
    ax.plot(
        T,
        series("grad_min"),
        color=PALETTE[1],
        label="min_{t≤T} ‖Σ_k q_k ∇F_k(θ̄_t)‖ (active piece)",
        **MEASURED_STYLE,
    )
    ax.plot(
        T,
        series("grad_floor"),
        color=PALETTE[1],
        linestyle="--",
        label="½·min over active pieces ‖∇f_π(θ*)‖",
    )
    ax.plot(
        T,
        series("goldstein"),
        color=PALETTE[2],
        label="Goldstein δ-stationarity at θ̄_T",
        **MEASURED_STYLE,
    )
    ax.plot(T, series("goldstein_bound"), color=PALETTE[2], linestyle=":", label="L‖θ̄_T − θ*‖")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("rounds T (E = 1)")
    ax.set_ylabel("value")
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title(
        "GIFAIR-FL at a tie (λ = 0.9λ_max): θ̄ → θ* but the active-piece gradient does not → 0;\n"
        "Goldstein stationarity does (Thms 3.11/8.6 erratum, guide V12)",
        fontsize=9.5,
    )
    figure.subplots_adjust(left=0.12, right=0.97, bottom=0.11, top=0.88)
    return figure


FIGURE = FigureScript(
    name="gifair_kink",
    title="GIFAIR-FL at a kink: distance → 0, active-piece gradient bounded away, Goldstein → 0",
    claims="gifair/thm311/kink-*",
    draw=draw,
    profile="quick",
    source="Yue et al., Theorems 3.11/8.6 at a tie (guide §5 V12, §6.5)",
)

if __name__ == "__main__":
    main(FIGURE)
