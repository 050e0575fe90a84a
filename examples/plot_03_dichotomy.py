"""
FedAvg or local training? The dichotomy in twenty lines
=======================================================

The minimax paper's claim (Chen, Zheng, Long & Su) is a dichotomy: with m clients of n samples
and heterogeneity R, the minimax risk is of order min(R², 1/n) + 1/N. FedAvg attains R² + 1/N,
local training 1/n, and optimally tuned FedProx interpolates between the two. On the quadratic
model GM-Q (federated mean estimation) every one of these risks has a closed form, registered as
a bound; here they are next to a Monte-Carlo measurement of the estimators themselves.
"""

# %%
# The exact expected excess risks on GM-Q (d = 4, noise s² = 0.25, so d·s² = 1), the predicted
# crossing R*² = ds²(1/n − 1/N) and the minimax rate ½(min(R², ds²/n) + ds²/N).

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds
from fedtheory.papers.minimax import quadratic_clients

m, n, d, s2 = 10, 100, 4, 0.25
R = np.logspace(-2, 0, 40)
risk = {
    "FedAvg": bounds.get("minimax.gmq.fedavg").evaluate(R=R, d=d, s2=s2, N=m * n),
    "local training": bounds.get("minimax.gmq.plt").evaluate(d=d, s2=s2, n=n) + 0 * R,
    "FedProx, tuned λ": bounds.get("minimax.gmq.fedprox.tuned").evaluate(R=R, d=d, s2=s2, m=m, n=n),
}
rate = bounds.get("minimax.minimax-rate.aer").evaluate(C=0.5, R=R, m=m, N=m * n)
crossing = np.sqrt(bounds.get("minimax.gmq.crossing").evaluate(d=d, s2=s2, n=n, N=m * n))

# %%
# The estimators themselves, on 20 draws of the clients at a few values of R: FedAvg is the
# global empirical risk minimiser, local training each client's own.
R_measured = np.logspace(-2, 0, 7)
measured = {"FedAvg": [], "local training": []}
for r in R_measured:
    draws = [quadratic_clients(m, n, d, r, np.sqrt(s2), seed=seed) for seed in range(20)]
    measured["FedAvg"].append(np.mean([c.excess_risk(c.global_erm()).mean() for c in draws]))
    measured["local training"].append(np.mean([c.excess_risk(c.local_erm()).mean() for c in draws]))

fig, ax = plt.subplots(figsize=(6.5, 4.2), layout="constrained")
for (name, curve), color in zip(risk.items(), ["C0", "C1", "C2"], strict=True):
    ax.loglog(R, curve, color=color, label=name)
    if name in measured:
        ax.loglog(R_measured, measured[name], "o", color=color, label=f"{name}, measured")
ax.loglog(R, rate, "k--", label="minimax rate ½(min(R², m/N) + 1/N)")
ax.axvline(crossing, color="grey", linestyle=":", label=f"predicted R* = {crossing:.3f}")
ax.set_xlabel("heterogeneity R")
ax.set_ylabel("client-averaged excess risk")
ax.set_title(f"GM-Q, m = {m}, n = {n}: FedAvg below R*, local training above")
ax.legend(fontsize=8)
plt.show()
