"""
GIFAIR-FL's fairness trade-off, at the exact optima
===================================================

GIFAIR-FL (Yue, Nouiehed & Al Kontar) adds λ Σ_{i<j} ``|L_i − L_j|`` — the spread R of the group
losses — to FedAvg's objective Σ_k p_k F_k, and shows that the sum is a reweighted FedAvg objective.
It is convex only up to λ_max, where a weight reaches zero. Solving the convex program exactly along
λ ∈ [0, λ_max] gives GIFAIR-FL's whole trade-off curve; next to it, the exact optima of TERM (tilted
risk) and AFL (min max), the baselines the paper compares with.
"""

# %%
# The reading guide's grouped quadratics (3 groups of 3 clients), λ_max and the curve.

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory.papers.gifair import exact, grouped_quadratics, tradeoff_curve

problem = grouped_quadratics(seed=0)
lam_max = problem.groups.lambda_max
print(f"λ_max = {lam_max:.4f}")
curve = tradeoff_curve(problem, lam_max * np.linspace(0.0, 1.0, 11))


def spread_and_average(theta: np.ndarray) -> tuple[float, float]:
    """(R, Σ_k p_k F_k) of a model θ."""
    losses = problem.client_values(theta)
    return float(problem.groups.spread(losses)), float(losses @ problem.groups.p)


term = np.array(
    [spread_and_average(exact.term_optimum(problem, t).theta) for t in np.logspace(-2, 3, 11)]
)
afl = spread_and_average(exact.afl_optimum(problem).theta)

# %%
fig, ax = plt.subplots(figsize=(6, 4.2), layout="constrained")
ax.plot(curve.spread, curve.average_loss, "o-", label="GIFAIR-FL, λ from 0 to λ_max")
ax.plot(term[:, 0], term[:, 1], "s--", label="TERM, tilt from 0.01 to 1000")
ax.plot(*afl, "k*", markersize=12, label="AFL (min max)")
ax.annotate(
    "FedAvg (λ = 0)",
    (curve.spread[0], curve.average_loss[0]),
    xytext=(-40, 25),
    textcoords="offset points",
    arrowprops={"arrowstyle": "->"},
    fontsize=8,
)
ax.set_xlabel("spread of the group losses R = Σ|L_i − L_j|")
ax.set_ylabel("FedAvg's objective Σ p_k F_k")
ax.set_title("GIFAIR-FL's reweighting stops at λ_max")
ax.legend(fontsize=8)
plt.show()

# %%
# A weight of the reweighted objective can at most double (from p_k to 2p_k), so GIFAIR-FL's
# curve ends far from the fairest models that TERM and AFL reach (``gifair/tradeoff/*``).
