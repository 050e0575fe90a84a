"""Lemma 7's curvature constant μ0 of the logistic instance: printed vs corrected (guide V10, §6.1).

The Hessian of the logistic empirical risk is (1/n) Σ_j sig'(x_jᵀw) x_j x_jᵀ, so on the ball
{‖w‖ ≤ ρ} with |x_k| ≤ c_X its smallest eigenvalue is at least min_{|t| ≤ a} sig'(t) times
λ_min(XᵀX/n), with a = c_X √d ρ. That minimum is (e^{a/2} + e^{−a/2})^{−2} = 1/(4 cosh²(a/2)).
Eq. (12) prints (e^{a/2} + e^{−a})^{−2} instead, which exceeds 1/4 — the largest value sig' ever
takes — for small a, so it cannot be a curvature lower bound.

The experiment draws Rademacher features and a point w on the sphere of radius ρ and measures
the ratio λ_min(∇²L(w)) / λ_min(XᵀX/n) exactly (eigenvalues of d × d matrices).

Lemma 7's other two constants are judged on the same kind of data: the smoothness β = c_X²d/4
(the Hessian's largest eigenvalue, at most sig' ≤ 1/4 times ‖x‖² ≤ c_X²d, attained by a sample
of identical features at w = 0) and the loss bound ‖ℓ‖∞ (the largest logistic loss over the
ball, log(1 + e^a) at the margin −a: the printed value a omits the log 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit

from fedtheory import bounds
from fedtheory.verify import Identity, LowerBoundHolds, Measurement, Sweep, UpperBoundHolds


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
    # the least curvature sig'(x_jᵀw) of the per-sample losses at the point of the ball along
    # the first feature vector, where that sample's margin is exactly a
    along = radius * features[0] / np.linalg.norm(features[0])
    reached = features @ along
    least = float(np.min(expit(reached) * expit(-reached)))
    return {"curvature_ratio": float(ratio), "least_curvature": least}


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
mu0_attained = lemma7_curvature.claim(
    id="minimax/lemma7/mu0-corrected-attained",
    statement=(
        "The corrected μ0 = (e^{a/2} + e^{−a/2})^{−2} is the least curvature the logistic loss "
        "takes on the ball, not merely a lower bound: at the point w = ρx_j/‖x_j‖ the sample "
        "x_j has margin a and its curvature sig'(a) is the smallest of the sample, equal to μ0."
    ),
    criterion=Identity(
        "least_curvature", bounds.get("minimax.lemma7.mu0.corrected"), rtol=1e-12, x="a"
    ),
    bound=bounds.get("minimax.lemma7.mu0.corrected"),
    notes=(
        "Every |x_jᵀw| ≤ ‖x_j‖‖w‖ = a on the ball (c_X = 1, ‖x_j‖ = √d), so no sample is flatter "
        "than sig'(a); the identity is exact (to rounding) at every replicate."
    ),
)


# ----------------------------------------------------------------- smoothness and loss bound
BETA = bounds.get("minimax.lemma7.beta")
LOSS_PRINTED = bounds.get("minimax.lemma7.loss-bound")
LOSS_CORRECTED = bounds.get("minimax.lemma7.loss-bound.corrected")


def logistic_extremes(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Largest Hessian eigenvalue and largest loss of the logistic risk on the ball ‖w‖ ≤ ρ.

    Features ±c_X and labels ±1, w uniform on the sphere of radius ρ = a/(c_X√d):
    ``hessian_max`` and ``loss_max`` are those of the random sample at w; the ``*_worst``
    outputs are the sample the lemma's constants are attained by — n copies of one feature
    vector, at w = 0 for the Hessian (sig'(0) = 1/4, ‖x‖² = d) and at w = −ρx/‖x‖ (label +1,
    margin −a) for the loss.
    """
    rng = np.random.default_rng(seed)
    d, n, a, c_x = int(params["d"]), int(params["n"]), float(params["a"]), float(params["c_X"])
    radius = a / (c_x * np.sqrt(d))
    features = c_x * rng.choice([-1.0, 1.0], size=(n, d))
    labels = rng.choice([-1.0, 1.0], size=n)
    direction = rng.standard_normal(d)
    w = radius * direction / np.linalg.norm(direction)
    margins = labels * (features @ w)
    weights = expit(margins) * expit(-margins)
    hessian = (features * weights[:, None]).T @ features / n
    copies = np.repeat(features[:1], n, axis=0)
    worst_hessian = copies.T @ copies / (4.0 * n)
    worst_margin = -radius * np.linalg.norm(features[0])  # = −a: ‖x‖ = c_X√d
    return {
        "hessian_max": float(np.linalg.eigvalsh(hessian)[-1]),
        "hessian_max_worst": float(np.linalg.eigvalsh(worst_hessian)[-1]),
        "loss_max": float(np.max(np.logaddexp(0.0, -margins))),
        "loss_max_worst": float(np.logaddexp(0.0, -worst_margin)),
    }


lemma7_extremes = Measurement(
    id="minimax/lemma7/extremes",
    experiment=logistic_extremes,
    sweeps={
        "smoke": Sweep(
            grid={"a": [0.5, 4.0], "c_X": [0.5, 2.0]}, fixed={"d": 3, "n": 60}, replicates=10
        ),
        "quick": Sweep(
            grid={"a": [0.1, 0.5, 1.0, 2.0, 4.0, 8.0], "d": [1, 3, 10], "c_X": [0.5, 1.0, 2.0]},
            fixed={"n": 60},
            replicates=20,
        ),
    },
)
beta_bounds_hessian = lemma7_extremes.claim(
    id="minimax/lemma7/beta-bounds-the-hessian",
    statement=(
        "The logistic empirical risk with |x_k| ≤ c_X is β-smooth with β = c_X²d/4: the "
        "Hessian's largest eigenvalue never exceeds it."
    ),
    criterion=UpperBoundHolds("hessian_max", BETA, x="a", over="every"),
    bound=BETA,
)
beta_attained = lemma7_extremes.claim(
    id="minimax/lemma7/beta-attained",
    statement=(
        "β = c_X²d/4 is the smallest smoothness constant the lemma's assumptions allow: a sample "
        "of identical features with |x_k| = c_X attains it at w = 0."
    ),
    criterion=Identity("hessian_max_worst", BETA, rtol=1e-12, x="a"),
    bound=BETA,
)
loss_bound_printed = lemma7_extremes.claim(
    id="minimax/lemma7/loss-bound-printed",
    statement=("As printed: the logistic loss on the ball is bounded by ‖ℓ‖∞ = c_X D√d = a."),
    criterion=UpperBoundHolds("loss_max_worst", LOSS_PRINTED, x="a", over="every"),
    bound=LOSS_PRINTED,
    expect="violated",
    notes=(
        "Erratum (guide §6.1): the loss at margin −a is log(1 + e^a) > a; already at w = 0 it "
        "is log 2."
    ),
)
loss_bound_corrected = lemma7_extremes.claim(
    id="minimax/lemma7/loss-bound-corrected",
    statement=(
        "Corrected: the largest logistic loss on the ball is exactly log(1 + e^a), attained at "
        "the margin −a (random samples stay below it)."
    ),
    criterion=Identity("loss_max_worst", LOSS_CORRECTED, rtol=1e-12, x="a"),
    bound=LOSS_CORRECTED,
)
loss_bound_corrected_random = lemma7_extremes.claim(
    id="minimax/lemma7/loss-bound-corrected-holds",
    statement="Every sample's largest logistic loss on the ball is at most log(1 + e^a).",
    criterion=UpperBoundHolds("loss_max", LOSS_CORRECTED, x="a", over="every"),
    bound=LOSS_CORRECTED,
)
