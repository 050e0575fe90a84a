"""Lemma 7's curvature constant μ0 of the logistic instance: printed vs corrected (guide V10, §6.1).

The Hessian of the logistic empirical risk is (1/n) Σ_j sig'(x_jᵀw) x_j x_jᵀ, so on the ball
{‖w‖ ≤ ρ} with |x_k| ≤ c_X its smallest eigenvalue is at least min_{|t| ≤ a} sig'(t) times
λ_min(XᵀX/n), with a = c_X √d ρ. That minimum is (e^{a/2} + e^{−a/2})^{−2} = 1/(4 cosh²(a/2)).
Eq. (12) prints (e^{a/2} + e^{−a})^{−2} instead, which exceeds 1/4 — the largest value sig' ever
takes — for small a, so it cannot be a curvature lower bound.

The experiment draws Rademacher features and a point w on the sphere of radius ρ and measures
the ratio λ_min(∇²L(w)) / λ_min(XᵀX/n) exactly (eigenvalues of d × d matrices).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit

from fedtheory import bounds
from fedtheory.verify import LowerBoundHolds, Measurement, Sweep


def curvature_ratio(params: dict[str, Any], seed: int) -> dict[str, float]:
    """λ_min of the logistic Hessian relative to λ_min(XᵀX/n), at a point w with ‖w‖ = a/√d.

    Half of the replicates put w along a sample's feature vector, where |x_jᵀw| = a is attained
    and the corrected constant is tight.
    """
    rng = np.random.default_rng(seed)
    d, n, a = int(params["d"]), int(params["n"]), float(params["a"])
    radius = a / np.sqrt(d)  # c_X = 1
    features = rng.choice([-1.0, 1.0], size=(n, d))
    direction = features[0].copy() if seed % 2 else rng.standard_normal(d)
    w = radius * direction / np.linalg.norm(direction)
    margins = features @ w
    weights = expit(margins) * expit(-margins)  # sig'(t) = sig(t) sig(−t)
    hessian = (features * weights[:, None]).T @ features / n
    gram = features.T @ features / n
    ratio = np.linalg.eigvalsh(hessian)[0] / np.linalg.eigvalsh(gram)[0]
    return {"curvature_ratio": float(ratio)}


_SWEEPS = {
    "smoke": Sweep(grid={"a": [0.5, 2.0]}, fixed={"d": 3, "n": 60}, replicates=20),
    "quick": Sweep(
        grid={"a": [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0]}, fixed={"d": 3, "n": 60}, replicates=200
    ),
}

lemma7_curvature = Measurement(
    id="minimax/lemma7/curvature",
    experiment=curvature_ratio,
    sweeps=_SWEEPS,
)
mu0_printed = lemma7_curvature.claim(
    id="minimax/lemma7/mu0-printed",
    statement=(
        "On the ball of radius ρ, the logistic empirical risk is μ0·λ_min(XᵀX/n)-strongly convex "
        "with μ0 = (e^{a/2} + e^{−a})^{−2}, a = c_X√d ρ (as printed)."
    ),
    criterion=LowerBoundHolds(
        "curvature_ratio", bounds.get("minimax.lemma7.mu0"), x="a", over="every"
    ),
    bound=bounds.get("minimax.lemma7.mu0"),
    expect="violated",
    notes="Erratum (guide §6.1): the printed constant exceeds 1/4 ≥ sig' for small a.",
)
mu0_corrected = lemma7_curvature.claim(
    id="minimax/lemma7/mu0-corrected",
    statement=(
        "On the ball of radius ρ, the logistic empirical risk is μ0·λ_min(XᵀX/n)-strongly convex "
        "with μ0 = (e^{a/2} + e^{−a/2})^{−2} = min_{|t|≤a} sig'(t), a = c_X√d ρ."
    ),
    criterion=LowerBoundHolds(
        "curvature_ratio", bounds.get("minimax.lemma7.mu0.corrected"), x="a", over="every"
    ),
    bound=bounds.get("minimax.lemma7.mu0.corrected"),
)
