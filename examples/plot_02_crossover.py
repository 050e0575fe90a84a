"""
Where two bounds cross
======================

Two theorems about the same quantity meet somewhere, and *where* is often the point of a paper.
Chen, Zheng, Long & Su bound the excess risk of FedAvg's global model (Theorem 6, eq. (11)) and
of local training (Theorem 4): FedAvg pays for the heterogeneity R, local training pays for its
small sample. :meth:`~fedtheory.bounds.Bound.crossover` finds where the two meet — in closed form
when sympy can solve it, numerically otherwise — and which bound is lower on each side.
"""

# %%
# The two bounds, and their crossing in R with every other symbol left free: sympy solves it.
# Both are order bounds (≲) with the same unknown constant C, which cancels.

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds

fedavg = bounds.get("minimax.thm6.aer")
local = bounds.get("minimax.thm4")
print(fedavg)
print(local)
(symbolic,) = fedavg.crossover(local, "R")
print("R* =", symbolic.exact)

# %%
# With numbers (m = 10 clients of n_i = 100 samples), the crossing is located and each side is
# named: FedAvg is lower below R*, local training above.
values = {"beta": 1, "mu": 1, "ell_inf": 1, "N": 1000, "n_i": 100}
(crossing,) = fedavg.crossover(local, "R", **values)
print(crossing)
print(f"R* = {crossing.exact} ≈ {crossing.value:.4f}; lower before: {crossing.lower_before}")

# %%
# Both bounds against R (C = 1), and the crossing.
R = np.logspace(-3, 0, 200)
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
common = {"C": 1, "beta": 1, "mu": 1, "ell_inf": 1}
ax.loglog(R, fedavg.evaluate(R=R, N=1000, **common), label="FedAvg (Theorem 6)")
ax.loglog(R, local.evaluate(n_i=100, **common) + 0 * R, label="local training (Theorem 4)")
ax.axvline(crossing.value, color="grey", linestyle=":", label=f"R* = {crossing.value:.3f}")
ax.set_xlabel("heterogeneity R")
ax.set_ylabel("excess-risk bound (C = 1)")
ax.set_title("FedAvg wins below R*, local training above")
ax.legend()
plt.show()
