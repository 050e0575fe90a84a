"""FFGB's Figs. 1–4 re-run on scikit-learn's 8×8 digits (Shen, Hassani, Kale & Karbasi, §4;
reading guide §4.2, checks X1–X3).

Four panels, each the mean over the replicates (one s-partition each) with the range of the
replicates shaded:

(a) Fig. 3 analogue — test accuracy against communication rounds, FFGB (K = 2, MLP oracle)
    and FedAvg (the App. B.1 MLP), s = 0.1 (solid) and s = 0.3 (dashed);
(b) Figs. 1/4 analogue — the same runs against models exchanged per client (FFGB N·K = 20 per
    round, FedAvg 2);
(c) Fig. 2a analogue — training accuracy against rounds of FFGB and of the variant without the
    residual (K = 10, η0 = 10, s = 0.1);
(d) Fig. 2b analogue — training accuracy against rounds for K ∈ {1, 5, 10, 20, 40}.

Each panel's title gives the outcome of the (non-gating) claim it illustrates. Settings and
departures: ``verification/ffgb/experiments.py``. Data: the claims ``ffgb/fig*`` run through the
runner and cached in the store. Make it with ``fedtheory figures make ffgb_digits`` or
``python figures/ffgb_digits.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from fedtheory.figures import FigureScript, main
from fedtheory.plotting import PALETTE
from fedtheory.verify import ClaimResult
from fedtheory.verify.measurements import PointMeasurements

X1 = "ffgb/fig2a/residual-beats-no-residual"
X2 = "ffgb/fig2b/more-local-steps"
X3_ROUNDS = "ffgb/fig3/beats-fedavg-per-round"
X3_MODELS = "ffgb/fig1/beats-fedavg-per-model"
CLIENTS = 10
FEDAVG_MODELS_PER_ROUND = 2
STYLES = {0.1: "-", 0.3: "--"}


def _curve(point: PointMeasurements, prefix: str) -> np.ndarray:
    """The per-round outputs ``prefix_rNN`` of one point, shape (replicates, rounds + 1)."""
    names = sorted(n for n in point.values if n.startswith(prefix + "_r"))
    return np.column_stack([point[n] for n in names])


def _band(ax: Axes, x: np.ndarray, runs: np.ndarray, color: str, style: str, label: str) -> None:
    ax.plot(x, runs.mean(axis=0), color=color, linestyle=style, linewidth=1.8, label=label)
    ax.fill_between(x, runs.min(axis=0), runs.max(axis=0), color=color, alpha=0.15, linewidth=0)


def _points(result: ClaimResult) -> Sequence[PointMeasurements]:
    data = result.measurements
    assert data is not None
    return data.points


def _title(ax: Axes, text: str, *results: ClaimResult) -> None:
    outcomes = ", ".join(f"{r.claim.id.split('/')[-1]}: {r.verdict.outcome}" for r in results)
    ax.set_title(f"{text}\n[{outcomes}]", fontsize=9.5)


def _fedavg_panels(rounds_ax: Axes, models_ax: Axes, result: ClaimResult) -> None:
    points = _points(result)
    horizon = max(int(p.params["rounds"]) for p in points)
    for point in points:
        if int(point.params["rounds"]) != horizon:
            continue
        s = float(point.params["s"])
        K = int(point.params["K"])
        style = STYLES.get(s, ":")
        ffgb = _curve(point, "ffgb_test")
        fedavg = _curve(point, "fedavg_test")
        t_ffgb = np.arange(ffgb.shape[1])
        t_fedavg = np.arange(fedavg.shape[1])
        label = f"FFGB (MLP learners, K = {K}), s = {s:g}"
        _band(rounds_ax, t_ffgb, ffgb, PALETTE[0], style, label)
        shown = t_fedavg <= horizon
        _band(
            rounds_ax,
            t_fedavg[shown],
            fedavg[:, shown],
            PALETTE[1],
            style,
            f"FedAvg (MLP), s = {s:g}",
        )
        _band(models_ax, t_ffgb * CLIENTS * K, ffgb, PALETTE[0], style, f"FFGB, s = {s:g}")
        _band(
            models_ax,
            t_fedavg * FEDAVG_MODELS_PER_ROUND,
            fedavg,
            PALETTE[1],
            style,
            f"FedAvg, s = {s:g}",
        )
    rounds_ax.set_xlabel("communication rounds")
    models_ax.set_xlabel("models exchanged per client (FFGB N·K per round, FedAvg 2)")
    for ax in (rounds_ax, models_ax):
        ax.set_ylabel("test accuracy")


def _residual_panel(ax: Axes, result: ClaimResult) -> None:
    (point,) = _points(result)
    for name, color, label in (
        ("train_ffgb", PALETTE[0], "FFGB (residual Δ, Algorithm 2)"),
        ("train_no_residual", PALETTE[2], "no residual (φ = ∇R_i[g])"),
    ):
        runs = _curve(point, name)
        _band(ax, np.arange(runs.shape[1]), runs, color, "-", label)
    gamma = float(np.min(point["gamma_ffgb"]))
    ax.set_xlabel(
        f"rounds (K = {point.params['K']}, η0 = {point.params['eta0']:g}, "
        f"s = {point.params['s']:g}; measured γ ≥ {gamma:.2f})"
    )
    ax.set_ylabel("training accuracy")


def _local_steps_panel(ax: Axes, result: ClaimResult) -> None:
    points = sorted(_points(result), key=lambda p: int(p.params["K"]))
    for index, point in enumerate(points):
        runs = _curve(point, "train")
        color = PALETTE[index % len(PALETTE)]
        _band(ax, np.arange(runs.shape[1]), runs, color, "-", f"K = {point.params['K']}")
    ax.set_xlabel(f"rounds (η0 = {points[0].params['eta0']:g}, s = {points[0].params['s']:g})")
    ax.set_ylabel("training accuracy")


def draw(results: Mapping[str, ClaimResult]) -> Figure:
    """The four panels (see the module docstring)."""
    figure = Figure(figsize=(13.0, 9.5))
    (a, b), (c, d) = figure.subplots(2, 2)
    _fedavg_panels(a, b, results[X3_ROUNDS])
    _title(a, "(a) Fig. 3: FFGB vs FedAvg at equal rounds", results[X3_ROUNDS])
    _title(b, "(b) Figs. 1/4: at equal models exchanged", results[X3_MODELS])
    _residual_panel(c, results[X1])
    _title(c, "(c) Fig. 2a: residual ablation", results[X1])
    _local_steps_panel(d, results[X2])
    _title(d, "(d) Fig. 2b: local steps K", results[X2])
    for ax in (a, b, c, d):
        ax.grid(True, alpha=0.25)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=8, loc="lower right")
    figure.suptitle(
        "FFGB on scikit-learn's 8×8 digits (N = 10, s-partition): paper's Figs. 1–4, "
        "directional claims reported, not gating",
        fontsize=11,
    )
    figure.subplots_adjust(top=0.9, bottom=0.07, left=0.06, right=0.98, hspace=0.35, wspace=0.18)
    return figure


FIGURE = FigureScript(
    name="ffgb_digits",
    title="FFGB vs FedAvg on the digits, residual ablation, K sweep (Figs. 1–4 analogues)",
    claims="ffgb/fig*",
    draw=draw,
    profile="quick",
    catalog=("verification/ffgb/experiments.py",),
    source="Shen, Hassani, Kale & Karbasi, §4, Figures 1–4 — on the digits substitute (X1–X3)",
)

if __name__ == "__main__":
    main(FIGURE)
