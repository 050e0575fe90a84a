"""
FedAvg's exact worst case, by performance estimation
====================================================

A bound says "at most"; a performance estimation problem (PEP) says *exactly* how bad a method
can be over a whole function class, as a semidefinite program (Drori & Teboulle; Taylor,
Hendrickx & Glineur). :func:`fedtheory.worstcase.fedavg_worst_case` writes FedAvg's PEP: m
clients, each L-smooth and μ-strongly convex, their gradients at the common optimum spread by
ζ² = (1/m)Σ‖∇f_i(x*)‖², T rounds of K local steps. With identical clients (ζ = 0) FedAvg is
gradient descent with K·T steps, whose exact worst case is a registered bound; heterogeneity
makes more local steps *hurt*.
"""

# %%

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds
from fedtheory.worstcase import fedavg_worst_case

m, T, L, mu, eta = 2, 2, 1.0, 0.1, 0.5
K = np.arange(1, 6)
gd_exact = bounds.get("classic.gd.distance.exact")
fig, ax = plt.subplots(figsize=(6, 4.2), layout="constrained")
for zeta2, color in [(0.0, "C0"), (0.25, "C1"), (1.0, "C2")]:
    worst = [fedavg_worst_case(m, int(k), T, L, mu, eta, zeta2) for k in K]
    ax.semilogy(K, [w.value for w in worst], "o-", color=color, label=f"FedAvg, ζ² = {zeta2}")
print(f"last PEP: {worst[-1].solver}, status {worst[-1].status}, value {worst[-1].value:.6f}")
ax.semilogy(
    K, gd_exact.evaluate(eta=eta, L=L, mu=mu, T=K * T, D0=1), "k:", label="GD with K·T steps, exact"
)
ax.set_xticks(K)
ax.set_xlabel("local steps K per round")
ax.set_ylabel("worst-case ‖x_T − x*‖² (‖x_0 − x*‖² = 1)")
ax.set_title(f"m = {m} clients, T = {T} rounds, step {eta}, L = {L:g}, μ = {mu:g}")
ax.legend(fontsize=8)
plt.show()

# %%
# At ζ = 0 every point lies on GD's exact curve (the claim
# ``classic/worstcase/fedavg-homogeneous-is-gd``); with heterogeneous clients the worst case
# has a best K, and beyond it local steps drift towards the clients' own optima.
