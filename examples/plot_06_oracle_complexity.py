"""
FedLRGD's oracle complexity against FedAve and federated GD
===========================================================

Jadbabaie, Makur & Shah count the cost of a federated method as its *federated oracle
complexity* Γ: the gradients computed plus φ per client per communication round (Definition 1).
Theorem 2 gives FedLRGD's Γ = r² + rs + rS + φmr at the rank r(47) and the iterations S(48) it
needs; Theorem 3 brackets FedAve's optimised Γ between (3/4)·φτm(C/ε)^{3/4} and 8·φτm(C/ε)^{3/4}.
Proposition 1 says FedLRGD wins along its scalings (n samples with ε = p·n^{−1/2}, s per client).
Everything below is an evaluation of registered bounds along that path — the constants are those
of the catalog's claims ``fedlrgd/prop1/*`` (ξ = 1/2, c1 = 4, α = 1, η = 8, d = 1, p = 1,
s = 100, φ = 50, τ = 1, κ = 2, L2 = B = μ = 1, F(θ⁰) − F* = p, FedAve's C = 1).
"""

# %%

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import math

import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds

rank = bounds.get("fedlrgd.thm2.rank")  # r(47)
iterations = bounds.get("fedlrgd.thm2.iterations")  # S(48)
fedlrgd = bounds.get("fedlrgd.thm2")  # Γ = r² + rs + rS + φmr
fedave_low, fedave_high = bounds.get("fedlrgd.thm3.lower"), bounds.get("fedlrgd.thm3.upper")
fedgd = bounds.get("fedlrgd.fedgd")  # federated full-gradient GD

d, alpha, eta, p, s, phi, tau, kappa = 1, 1.0, 8.0, 1, 100, 50.0, 1.0, 2.0
theory = {"kappa": kappa, "B": 1.0, "mu": 1.0, "p": p, "Delta0": float(p)}
p_over_eps = np.logspace(2, 30, 29)
gamma = {"FedLRGD": [], "FedAve, low": [], "FedAve, high": [], "federated GD": [], "m": []}
for q in p_over_eps:
    epsilon = p / q
    log_r = float(rank.log_evaluate(d=d, eta=eta, alpha=alpha, L2=1.0, epsilon=epsilon, **theory))
    r = float(round(math.exp(log_r)))
    S = float(math.ceil(float(iterations.evaluate(epsilon=epsilon, **theory))))
    m = float(round((q**2 - r) / s))  # n = (p/ε)² samples: r on the server, s per client
    gamma["m"].append(m)
    fedave = {"phi": phi, "tau": tau, "m": m, "C_A": 1.0, "epsilon": epsilon, "p": p}
    gamma["FedLRGD"].append(float(fedlrgd.evaluate(r=r, n=s, S=S, phi=phi, m=m)))
    gamma["FedAve, low"].append(float(fedave_low.evaluate(**fedave)))
    gamma["FedAve, high"].append(float(fedave_high.evaluate(**fedave)))
    gamma["federated GD"].append(
        float(fedgd.evaluate(r=r, n=s, phi=phi, m=m, Delta0=p, epsilon=epsilon, kappa=kappa))
    )

# %%
# Γ grows like φm (the communication) times a slowly varying factor; divided by φm the three
# methods separate: FedLRGD's factor grows like r(47) ∝ (p/ε)^{1/8}, FedAve's like (p/ε)^{3/4},
# and federated GD's — which the paper does not compare with — only like log(p/ε).
fig, ax = plt.subplots(figsize=(6.5, 4.2), layout="constrained")
scale = phi * np.array(gamma["m"])
ax.loglog(p_over_eps, np.array(gamma["FedLRGD"]) / scale, color="C0", label="FedLRGD (Theorem 2)")
ax.fill_between(
    p_over_eps,
    np.array(gamma["FedAve, low"]) / scale,
    np.array(gamma["FedAve, high"]) / scale,
    color="C1",
    alpha=0.3,
    label="FedAve (Theorem 3's bracket)",
)
ax.loglog(p_over_eps, np.array(gamma["federated GD"]) / scale, color="C2", label="federated GD")
ax.set_xlabel("p/ε")
ax.set_ylabel("Γ / (φm)")
ax.set_title("Federated oracle complexity per unit of communication")
ax.legend()
plt.show()
