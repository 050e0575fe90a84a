"""
FZooS: the uncertainty that does not decay
==========================================

FZooS (Shu, Lin, Dai & Low) replaces finite differences by the gradient of a Gaussian-process
surrogate, and its analysis needs the surrogate's gradient uncertainty — the posterior gradient
covariance ∂σ²_n(x) after n queries — to shrink. Lemma C.6 bounds its spectral norm by κρ^n with
ρ the largest one-query ratio. But a query removes uncertainty in one direction only: while
n < d the covariance is κI minus a matrix of rank at most n, its largest eigenvalue stays exactly
κ = 1/l², ρ = 1, and the "exponential" decay is no decay at all. The trace does decrease at every
query. Here a random-walk history of queries (the scale of a gradient-descent path) in
d = 1, 3 and 10.
"""

# %%

# sphinx_gallery_start_ignore
from __future__ import annotations

# sphinx_gallery_end_ignore
import matplotlib.pyplot as plt
import numpy as np

from fedtheory.papers.fzoos.gp import GaussianProcessSurrogate, se_kappa

lengthscale, noise, queries = 1.0, 0.01, 25
kappa = se_kappa(lengthscale)
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), sharex=True, layout="constrained")
for d, color in [(1, "C0"), (3, "C1"), (10, "C2")]:
    rng = np.random.default_rng(0)
    start = rng.uniform(0.0, 1.0, d)
    direction = rng.standard_normal(d)
    x_eval = start + 0.5 * lengthscale * direction / np.linalg.norm(direction)
    surrogate = GaussianProcessSurrogate(d, lengthscale=lengthscale, noise=noise, capacity=queries)
    norms, traces = [kappa], [d * kappa]
    x = start.copy()
    for _ in range(queries):
        surrogate.add(x[None, :], [0.0])  # the covariance does not depend on the values
        covariance = surrogate.gradient_covariance(x_eval)
        norms.append(float(np.linalg.eigvalsh(covariance)[-1]))
        traces.append(float(np.trace(covariance)))
        x = x + 0.3 * lengthscale / np.sqrt(d) * rng.standard_normal(d)
    n = np.arange(queries + 1)
    left.plot(n, np.array(norms) / kappa, color=color, label=f"d = {d}")
    right.plot(n, np.array(traces) / (d * kappa), color=color, label=f"d = {d}")
    for ax in (left, right):
        ax.axvline(d, color=color, linestyle=":", linewidth=0.8)
left.set_title("largest eigenvalue ‖∂σ²_n(x)‖₂ / κ")
right.set_title("trace tr ∂σ²_n(x) / (dκ)")
left.set_xlabel("queries n")
right.set_xlabel("queries n")
left.set_yscale("log")
right.set_yscale("log")
left.legend()
plt.show()

# %%
# The dotted lines mark n = d. On the left the spectral norm stays at κ until n reaches d (and
# beyond, while the queries stay near the first ones): the bound κρ^n of Lemma C.6 is κ. The
# catalog records this as an erratum (``fzoos/uncertainty/*``).
