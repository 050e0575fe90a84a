"""
Evaluate a bound and read its rate
==================================

A theorem is a :class:`~fedtheory.bounds.Bound`: a sympy expression with its hypotheses, the
meaning of each symbol and a citation. Here, gradient descent on an L-smooth, μ-strongly convex
function: f(x_T) − f* ≤ Δ0·(1 − μ/L)^T. We evaluate it on a grid of T,
ask for its rate as T grows, and compare it with SGD's O(1/T).
"""

# %%
# Look the bound up in the registry and evaluate it. ``evaluate`` broadcasts over arrays.

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory import bounds

gd = bounds.get("classic.gd.strongly-convex")
print(gd)
print(gd.source)
T = np.arange(1, 201)
values = gd.evaluate(L=10, mu=1, T=T, Delta0=1)
print(values[:3])

# %%
# The exponent: the leading power as T → ∞. Linear convergence decays faster than any power;
# SGD's distance bound decays like T⁻¹ exactly.
print(gd.exponent("T"))
sgd = bounds.get("classic.sgd.strongly-convex.distance")
print(sgd, "  exponent:", sgd.exponent("T").power)

# %%
# On log-log axes a power law is a straight line of slope equal to the exponent; the linear
# rate bends down and leaves it.
fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
ax.loglog(T, values, label=f"GD: {gd.expr}")
ax.loglog(T, sgd.evaluate(G2=1, mu=1, T=T), label="SGD: 4 G²/(μ² T), slope −1")
ax.set_xlabel("iterations T")
ax.set_ylabel("bound")
ax.set_ylim(1e-12, 10)
ax.legend()
ax.set_title("A linear rate against a power law")
plt.show()
