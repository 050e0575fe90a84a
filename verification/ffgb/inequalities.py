"""The comparison inequalities (12) (TV) and (15) (W1), with their equality cases (guide §3.1,
§5 A1–A2).

* A1  |⟨f,g⟩_{α_i} − ⟨f,g⟩_α| ≤ 2‖f‖_∞‖g‖_∞TV(α, α_i) over many random measures (Dirichlet on 30
      atoms) and bounded f, g — the worst draw of each replicate is judged — and equality for
      f ≡ c, g = b·sign(α_i − α) (a TV missing its ½ fails it).
* A2  |⟨f,g⟩_{α_i} − ⟨f,g⟩_α| ≤ (‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞})W1(α, α_i) for point
      clouds in ℝ² (α_i uniform on client i's 20 points, α uniform on their union), W1 exact
      (POT's transport LP), Lipschitz constants as the largest pairwise slope on supp α; equality
      for f ≡ c, g = b·φ* with φ* the Kantorovich potential of the single-potential dual LP,
      whose optimum equals the primal W1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.papers.ffgb import distances
from fedtheory.verify import Identity, Measurement, Sweep, UpperBoundHolds

EQ12 = bounds.get("ffgb.eq12")
EQ15 = bounds.get("ffgb.eq15")


# ================================================================================ A1: (12)
def tv_comparison(params: dict[str, Any], seed: int) -> dict[str, float]:
    """``draws`` random (α, α_i, f, g) on P atoms; the draw with the largest LHS/RHS of (12),
    and the equality case on the last draw's measures."""
    rng = np.random.default_rng(seed)
    atoms, draws = int(params["P"]), int(params["draws"])
    concentration = float(params["concentration"])
    alpha = rng.dirichlet(np.full(atoms, concentration), size=draws)
    alpha_i = rng.dirichlet(np.full(atoms, concentration), size=draws)
    scale_f = np.exp(rng.uniform(-3.0, 3.0, size=(draws, 1)))
    scale_g = np.exp(rng.uniform(-3.0, 3.0, size=(draws, 1)))
    f = scale_f * rng.uniform(-1.0, 1.0, size=(draws, atoms))
    g = scale_g * rng.uniform(-1.0, 1.0, size=(draws, atoms))
    lhs = np.abs(np.sum(f * g * (alpha_i - alpha), axis=1))
    tv = np.array([distances.total_variation(a, b) for a, b in zip(alpha, alpha_i, strict=True)])
    f_sup, g_sup = np.abs(f).max(axis=1), np.abs(g).max(axis=1)
    worst = int(np.argmax(lhs / (2.0 * f_sup * g_sup * tv)))
    c, b = float(scale_f[-1, 0]), float(scale_g[-1, 0])
    tight_g = b * np.sign(alpha_i[-1] - alpha[-1])
    return {
        "lhs": float(lhs[worst]),
        "TV": float(tv[worst]),
        "f_sup": float(f_sup[worst]),
        "g_sup": float(g_sup[worst]),
        "lhs_tight": float(abs(np.sum(c * tight_g * (alpha_i[-1] - alpha[-1])))),
        "TV_tight": float(tv[-1]),
        "f_sup_tight": c,
        "g_sup_tight": float(np.abs(tight_g).max()),
    }


tv = Measurement(
    id="ffgb/eq12/draws",
    experiment=tv_comparison,
    sweeps={
        "smoke": Sweep(
            grid={"concentration": [0.3, 3.0]}, fixed={"P": 30, "draws": 200}, replicates=2
        ),
        "quick": Sweep(
            grid={"concentration": [0.1, 0.3, 1.0, 3.0, 30.0]},
            fixed={"P": 30, "draws": 2000},
            replicates=5,
        ),
    },
    notes=(
        "Each replicate draws `draws` independent (α, α_i) ~ Dirichlet(concentration) on 30 "
        "atoms and f, g uniform in [−s, s] with log s ~ U(−3, 3); 10⁴ draws in quick."
    ),
)
eq12_holds = tv.claim(
    id="ffgb/eq12/holds",
    statement="(12): |⟨f,g⟩_{α_i} − ⟨f,g⟩_α| ≤ 2‖f‖_∞‖g‖_∞TV(α, α_i) for bounded f, g.",
    bound=EQ12,
    criterion=UpperBoundHolds("lhs", EQ12, over="every", x="concentration", rtol=1e-12),
    notes="The draw with the largest LHS/RHS of each replicate is judged.",
)
eq12_tight = tv.claim(
    id="ffgb/eq12/equality",
    statement="(12) is attained: equality for f ≡ c and g = b·sign(α_i − α).",
    bound=EQ12,
    criterion=Identity(
        "lhs_tight",
        EQ12,
        rtol=1e-10,
        bound_args={"TV": "TV_tight", "f_sup": "f_sup_tight", "g_sup": "g_sup_tight"},
        x="concentration",
    ),
    notes="TV = ½Σ|α_i − α|: a TV without its ½ makes the bound twice the attained value.",
)


# ================================================================================ A2: (15)
def _lipschitz(values: np.ndarray, points: np.ndarray) -> float:
    distance = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    np.fill_diagonal(distance, np.inf)
    return float(np.max(np.abs(values[:, None] - values[None, :]) / distance))


def w1_comparison(params: dict[str, Any], seed: int) -> dict[str, float]:
    """N point clouds of M points in ℝ² (client i shifted by i·shift); α uniform on the union.

    For client 0: the W1 inequality with random smooth f, g (the worst of ``draws`` pairs) and
    its equality case f ≡ c, g = b·φ*, φ* the Kantorovich potential; the dual optimum next to
    the primal W1.
    """
    rng = np.random.default_rng(seed)
    n, m, draws = int(params["N"]), int(params["M"]), int(params["draws"])
    shift = float(params["shift"])
    clouds = [rng.standard_normal((m, 2)) + i * shift * np.array([1.0, 0.0]) for i in range(n)]
    points = np.concatenate(clouds)
    alpha = np.full(n * m, 1.0 / (n * m))
    alpha_i = np.zeros(n * m)
    alpha_i[:m] = 1.0 / m
    w1 = distances.wasserstein1(points, alpha, alpha_i)
    best: dict[str, float] = {}
    best_ratio = -1.0
    for _ in range(draws):
        w_f, w_g = rng.standard_normal((2, 2))
        f = np.exp(rng.uniform(-2, 2)) * np.sin(points @ w_f + rng.uniform(0, 6.3))
        g = np.exp(rng.uniform(-2, 2)) * np.cos(points @ w_g) + rng.uniform(-1, 1)
        lhs = abs(float(np.sum(f * g * (alpha_i - alpha))))
        f_lip, g_lip = _lipschitz(f, points), _lipschitz(g, points)
        f_sup, g_sup = float(np.abs(f).max()), float(np.abs(g).max())
        ratio = lhs / ((f_lip * g_sup + g_lip * f_sup) * w1)
        if ratio > best_ratio:
            best_ratio = ratio
            best = {"lhs": lhs, "f_lip": f_lip, "g_lip": g_lip, "f_sup": f_sup, "g_sup": g_sup}
    potential, dual = distances.kantorovich_potential(points, alpha_i, alpha)
    c, b = np.exp(rng.uniform(-2, 2, size=2))
    tight_g = b * potential
    return {
        **best,
        "W1": w1,
        "dual_W1": dual,
        "lhs_tight": abs(float(np.sum(c * tight_g * (alpha_i - alpha)))),
        "f_lip_tight": 0.0,
        "g_lip_tight": _lipschitz(tight_g, points),
        "f_sup_tight": float(c),
        "g_sup_tight": float(np.abs(tight_g).max()),
    }


w1 = Measurement(
    id="ffgb/eq15/clouds",
    experiment=w1_comparison,
    sweeps={
        "smoke": Sweep(
            grid={"shift": [0.5, 2.0]}, fixed={"N": 3, "M": 10, "draws": 20}, replicates=2
        ),
        "quick": Sweep(
            grid={"shift": [0.0, 0.5, 1.0, 3.0]},
            fixed={"N": 4, "M": 20, "draws": 100},
            replicates=4,
        ),
    },
    notes=(
        "α_i uniform on client 0's M points, α uniform on the union of N clouds (supp α_i ⊆ "
        "supp α); W1 by POT's exact LP; ‖·‖_{α,∞} and ‖·‖_lip on supp α."
    ),
)
eq15_holds = w1.claim(
    id="ffgb/eq15/holds",
    statement=("(15): |⟨f,g⟩_{α_i} − ⟨f,g⟩_α| ≤ (‖f‖_lip‖g‖_{α,∞} + ‖g‖_lip‖f‖_{α,∞})·W1(α, α_i)."),
    bound=EQ15,
    criterion=UpperBoundHolds(
        "lhs",
        EQ15,
        over="every",
        x="shift",
        rtol=1e-9,
        bound_args={"g_sup_alpha": "g_sup", "f_sup_alpha": "f_sup"},
    ),
)
eq15_tight = w1.claim(
    id="ffgb/eq15/equality",
    statement="(15) is attained for f ≡ c and g = b·φ*, φ* a Kantorovich potential of (α_i, α).",
    bound=EQ15,
    criterion=Identity(
        "lhs_tight",
        EQ15,
        rtol=1e-6,
        x="shift",
        bound_args={
            "W1": "W1",
            "f_lip": "f_lip_tight",
            "g_lip": "g_lip_tight",
            "f_sup_alpha": "f_sup_tight",
            "g_sup_alpha": "g_sup_tight",
        },
    ),
)
primal_dual = w1.claim(
    id="ffgb/eq15/primal-equals-dual",
    statement=(
        "The single-potential LP max Σφ(α_i − α) over 1-Lipschitz φ on supp α attains the "
        "primal W1 (Kantorovich–Rubinstein), the W1 that (15) uses."
    ),
    bound=EQ15,
    criterion=Identity("dual_W1", "W1", rtol=1e-6, x="shift"),
)
