"""The constant ε of Theorems 3.7/3.9 on random group structures (guide §1, App. 8.3).

``GroupStructure.epsilon(λ)`` (the numerics, computed in the appendix's form) equals

* ``gifair.epsilon``: ε = 1 − (d − 1)λ/min_k p_k|𝒜_{s_k}| as printed (App. 8.3), and
* ``gifair.epsilon.lambda-max``: ε = 1 − λ/λ_max (derived), with λ_max from the registered
  ``gifair.lambda-max`` = min_k p_k|𝒜_{s_k}|/(d − 1) — not from the structure's own λ_max,
  so the second identity also ties the two registered forms together.

Instances: d groups (d ∈ 2..8) of sizes U{1..4}, p ~ Dirichlet(1) (so min_k p_k|𝒜_{s_k}| ranges
over orders of magnitude), λ = u·λ_max with u ~ U[0, 1) and, in every batch, one instance at λ = 0
(ε = 1). A replicate is a batch of instances and reports the one farthest from the bound being
compared (its inputs are outputs, so the criterion evaluates the bound itself). ε ∈ (0, 1] and
every term is O(1), so the tolerance is absolute: a few ulps of 1, 1e-12.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.gifair import GroupStructure
from fedtheory.verify import Identity, Measurement, Sweep

EPSILON = bounds.get("gifair.epsilon")
EPSILON_LAMBDA_MAX = bounds.get("gifair.epsilon.lambda-max")
LAMBDA_MAX = bounds.get("gifair.lambda-max")

#: Absolute tolerance on ε ∈ (0, 1].
_TOL = 1e-12


def epsilon_batch(params: dict[str, Any], seed: int) -> dict[str, float]:
    """``GroupStructure.epsilon`` against both registered forms on a batch of structures."""
    rng = np.random.default_rng(seed)
    d, count = int(params["d"]), int(params["instances"])
    worst: dict[str, tuple[float, dict[str, float]]] = {}
    for i in range(count):
        sizes = rng.integers(1, 5, size=d)
        labels = np.repeat(np.arange(d), sizes)
        groups = GroupStructure(labels, rng.dirichlet(np.ones(labels.size)))
        pA_min = float(np.min(groups.p * groups.client_group_sizes))
        lam_max = float(LAMBDA_MAX.evaluate(pA_min=pA_min, d=d))
        lam = 0.0 if i == 0 else float(rng.uniform(0.0, 1.0)) * lam_max
        eps = float(groups.epsilon(lam))
        row = {"eps": eps, "pA_min": pA_min, "lam": lam, "lam_max": lam_max}
        printed = float(EPSILON.evaluate(pA_min=pA_min, d=d, lam=lam))
        derived = float(EPSILON_LAMBDA_MAX.evaluate(lam_max=lam_max, lam=lam))
        for name, value in (("printed", printed), ("derived", derived)):
            error = abs(eps - value)
            if name not in worst or error > worst[name][0]:
                worst[name] = (error, row)
    out: dict[str, float] = {}
    for name, (_, row) in worst.items():
        out.update({f"{key}_{name}": value for key, value in row.items()})
    return out


_SWEEPS = {
    "smoke": Sweep(grid={"d": [2, 5]}, fixed={"instances": 50}, replicates=1),
    "quick": Sweep(grid={"d": [2, 3, 4, 5, 6, 7, 8]}, fixed={"instances": 500}, replicates=2),
    "full": Sweep(grid={"d": [2, 3, 4, 5, 6, 7, 8]}, fixed={"instances": 5000}, replicates=4),
}
runs = Measurement(
    id="gifair/epsilon/structures",
    experiment=epsilon_batch,
    sweeps=_SWEEPS,
    notes=(
        "Random structures: d groups of sizes U{1..4}, p ~ Dirichlet(1), λ = U[0, 1)·λ_max "
        "(one instance per batch at λ = 0); each replicate reports its worst instance per form."
    ),
    uses=[LAMBDA_MAX, EPSILON, EPSILON_LAMBDA_MAX],
)
printed = runs.claim(
    id="gifair/epsilon/printed",
    statement=(
        "ε of App. 8.3 as printed, 1 − (d − 1)λ/min_k p_k|𝒜_{s_k}|, is the toolkit's "
        "GroupStructure.epsilon on every structure."
    ),
    bound=EPSILON,
    criterion=Identity(
        "eps_printed",
        EPSILON,
        rtol=0.0,
        atol=_TOL,
        x="d",
        bound_args={"pA_min": "pA_min_printed", "lam": "lam_printed"},
    ),
)
derived = runs.claim(
    id="gifair/epsilon/lambda-max",
    source=Citation("gifair", "App. 8.3 with λ_max of §3.1 (guide §1)"),
    statement=(
        "ε = 1 − λ/λ_max with the registered λ_max = min_k p_k|𝒜_{s_k}|/(d − 1): equal to "
        "GroupStructure.epsilon (the appendix form) on every structure."
    ),
    bound=EPSILON_LAMBDA_MAX,
    criterion=Identity(
        "eps_derived",
        EPSILON_LAMBDA_MAX,
        rtol=0.0,
        atol=_TOL,
        x="d",
        bound_args={"lam_max": "lam_max_derived", "lam": "lam_derived"},
    ),
)
