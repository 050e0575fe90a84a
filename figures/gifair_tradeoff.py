"""The fairness trade-off at the exact optima: the spread R = Σ_{i<j}|L_i − L_j| against FedAvg's
objective Σ_k p_kF_k (Yue, Nouiehed & Al Kontar, GIFAIR-FL, objective (1); reading guide §5 V4,
V18, §6 "λ_max throttles fairness").

GIFAIR-FL's curve runs along λ ∈ [0, λ_max] (λ/λ_max = 0, .1, …, 1), each point the exact
minimiser of H = Σp F + λR. On the same axes, each baseline's own exact trade-off: q-FFL over
q ∈ {0, .5, 1, 2}, TERM over t ∈ {1e-3, …, 1000} and the AFL point min_θ max_k F_k — on guide §7's
grouped quadratics (left) and on a grouped ridge-logistic problem (right), one replicate of the
measurement each (TERM and q-FFL by damped Newton, AFL by its cone program).
GIFAIR-FL's reweighting at most doubles a weight, so its curve stops far from min max fairness.
On the quadratics, GIFAIR-FL's federated outputs (R, Σp F) at θ̄_T are drawn on the curve as
open circles: GIFAIR-FL-Global with zero noise, E = 1, full participation, exact r and the
repaired schedule β/(t + γ), T = 4000, at λ/λ_max = 0, .3, .6, .9 (same draw as the curve;
``federated_outputs`` of the claim file, judged by ``gifair/tradeoff/federated-*``). The
logistic panel has none: its clients hold 20–40 samples, so no batch is full for all of them.

Data: the measurement ``gifair/tradeoff/exact`` behind the claims
``gifair/tradeoff/spread-non-increasing`` (and the V18 baseline claims) of
``verification/gifair/exact.py``, run through the runner and cached in the store. Make it with
``fedtheory figures make gifair_tradeoff`` or ``python figures/gifair_tradeoff.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import MEASURED_STYLE, PALETTE
from fedtheory.verify import ClaimResult
from fedtheory.verify.measurements import PointMeasurements

CLAIM = "gifair/tradeoff/spread-non-increasing"
QS = (0.0, 0.5, 1.0, 2.0)
TILTS = (1e-3, 1e-2, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 1000.0)
FED_FRACS = (0.0, 0.3, 0.6, 0.9)


def _series(point: PointMeasurements, prefix: str, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(Σp F, R) of the first replicate for keys ``{prefix}F_j``, ``{prefix}R_j``."""
    F = np.array([float(point[f"{prefix}F_{j}"][0]) for j in range(count)])
    R = np.array([float(point[f"{prefix}R_{j}"][0]) for j in range(count)])
    return F, R


def _panel(ax: Axes, point: PointMeasurements) -> None:
    count = int(point.params["lam_points"])
    F, R = _series(point, "", count)
    ax.plot(F, R, color=PALETTE[0], label="GIFAIR-FL, λ/λ_max = 0 … 1", **MEASURED_STYLE)
    for j, text, offset in ((0, "λ = 0", (6, 4)), (count - 1, "λ = λ_max", (-20, -14))):
        ax.annotate(
            text,
            (F[j], R[j]),
            textcoords="offset points",
            xytext=offset,
            fontsize=8,
            color=PALETTE[0],
        )
    if "fed_F_0" in point.values:
        Ff, Rf = _series(point, "fed_", len(FED_FRACS))
        ax.plot(
            Ff,
            Rf,
            color=PALETTE[0],
            marker="o",
            markersize=11,
            markerfacecolor="none",
            markeredgewidth=1.6,
            linestyle="none",
            label="GIFAIR-FL-Global federated θ̄_T, λ/λ_max = "
            + ", ".join(f"{f:g}" for f in FED_FRACS),
        )
    if "afl_F" in point.values:
        Fq, Rq = _series(point, "qffl_", len(QS))
        ax.plot(
            Fq,
            Rq,
            color=PALETTE[1],
            marker="s",
            linestyle="--",
            label="q-FFL, q = " + ", ".join(f"{q:g}" for q in QS),
        )
        Ft, Rt = _series(point, "term_", len(TILTS))
        ax.plot(Ft, Rt, color=PALETTE[2], marker="^", linestyle=":", label="TERM, t = 1e-3 … 1000")
        ax.annotate(
            "t = 1000",
            (Ft[-1], Rt[-1]),
            textcoords="offset points",
            xytext=(-6, 8),
            ha="right",
            fontsize=8,
            color=PALETTE[2],
        )
        ax.plot(
            [float(point["afl_F"][0])],
            [float(point["afl_R"][0])],
            color=PALETTE[3],
            marker="*",
            markersize=14,
            linestyle="none",
            label="AFL: min max_k F_k",
        )
    ax.set_xlabel("Σ_k p_k F_k(θ*)  (FedAvg's objective)")
    ax.set_ylabel("R(θ*) = Σ_{i<j} |L_i − L_j|")
    ax.grid(True, alpha=0.25)
    ax.legend(fontsize=8, loc="upper right")


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """One panel per problem of the measurement: R against Σp F at the exact optima."""
    data = results[CLAIM].measurements
    assert data is not None
    figure = Figure(figsize=(13.0, 5.2))
    axes = figure.subplots(1, len(data.points))
    for ax, point in zip(np.atleast_1d(axes), data.points, strict=True):
        _panel(ax, point)
        kind = str(point.params["problem"])
        title = {
            "quadratic": "grouped quadratics (guide §7: 3 groups × 3 clients, ℝ⁴)",
            "logistic": "grouped ridge-logistic (3/5/2 clients, 4 features)",
        }.get(kind, kind)
        ax.set_title(title + f", λ_max = {float(point['lambda_max'][0]):.3g}", fontsize=10)
    figure.suptitle(
        "Exact trade-off and GIFAIR-FL's federated θ̄_T (○, quadratics): λ ∈ [0, λ_max] moves "
        "along a short stretch (weights at most doubled)\nTERM (t → ∞) reaches min max (AFL); "
        "q-FFL (q ≤ 2) ends near GIFAIR-FL's end on the quadratics and barely moves on the "
        "logistic problem",
        fontsize=10.5,
    )
    figure.subplots_adjust(left=0.06, right=0.98, bottom=0.11, top=0.84, wspace=0.2)
    return figure


FIGURE = FigureScript(
    name="gifair_tradeoff",
    title="R against Σp F at the exact optima: GIFAIR-FL over λ, q-FFL over q, TERM over t, AFL",
    claims=CLAIM,
    draw=draw,
    profile="quick",
    source="Yue et al., objective (1) — the exact trade-off (guide V4, V18)",
)

if __name__ == "__main__":
    main(FIGURE)
