"""
FFGB's error floor and the local steps K
========================================

Federated functional gradient boosting (Shen, Hassani, Kale & Karbasi) lets each client take K
boosting steps with a weak learner of edge γ: the learner only gets the direction right up to a
factor 1 − γ. Theorem 3.1 says the error then stops at a floor 4(1 − γ)²G²/(Kμ²γ²), which
shrinks like 1/K — *if* the clients carry the residual of their weak learners from step to step
(error feedback). Without the residual more local steps do not help at all. Here FFGB on a small
logistic population (50 atoms, 8 clients, μ = 0.1) with a biased oracle of edge γ = 0.5.
"""

# %%

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds
from fedtheory.papers.ffgb import ffgb, oracles, semi_heterogeneous

population = semi_heterogeneous(num_atoms=50, num_clients=8, mu=0.1, seed=2022)
oracle = oracles.biased(0.5)
floor = bounds.get("ffgb.thm31.floor")
print(floor)

K = np.array([1, 2, 4, 8, 16, 32])
errors = {"reset": [], "none": []}
G = 0.0
for residual in errors:
    for k in K:
        run = ffgb(population, oracle, rounds=200, local_steps=int(k), residual=residual, seed=0)
        errors[residual].append(population.error(run.function))
        G = max(G, run.diagnostics.norm("gradient", "l2"))  # Assumption 3.1, measured on the run
print(f"largest gradient norm G = {G:.3f}")

# %%
# The error after 200 rounds (the floor is reached long before) against K, and the floor of
# Theorem 3.1 at the measured G.
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.loglog(K, errors["reset"], "o-", label="FFGB, residual reset every round (Algorithm 2)")
ax.loglog(K, errors["none"], "s--", label="without the residual")
ax.loglog(K, floor.evaluate(G=G, K=K, gamma=0.5, mu=0.1, f0_norm=0), "k:", label="Theorem 3.1")
ax.set_xlabel("local steps K")
ax.set_ylabel("‖f^T − f*‖²")
ax.set_title("The residual makes local steps count")
ax.legend(fontsize=8)
plt.show()

# %%
# With the residual the floor falls like 1/K² — faster than the theorem's 1/K, which is loose,
# not violated; without it the floor does not move (``ffgb/thm31/*`` in the catalog).
