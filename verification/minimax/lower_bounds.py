"""The lower-bound machinery of Theorem 8 on the Assouad prior GM-P (Chen et al., App. A; guide V9).

Theorem 8's proof puts a uniform prior on the client optima w⋆^(i) = δ·v^(i), v^(i) ∈ {±1}^d,
with Rademacher features, and bounds the Bayes risk from below by Assouad's lemma. With the
sign-rounding step the chain gives, per client, E‖ŵ − w⋆‖² ≥ (d/2)δ²(1 − √2 c_X δ √n)
(``minimax.thm8.assouad``, constants as corrected in guide §6.3). The Bayes estimator — the
exact posterior mean, by enumerating the 2^d hypotheses — attains the Bayes risk, so it must sit
above that bound for every δ, and any other estimator (local training, the ERM) above it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.papers.minimax import assouad_clients, bayes_estimate
from fedtheory.verify import LowerBoundHolds, Measurement, Sweep

ASSOUAD = bounds.get("minimax.thm8.assouad")


def assouad_risks(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Squared errors of the Bayes posterior mean and of local training on one GM-P draw."""
    m, n, d = int(params["m"]), int(params["n"]), int(params["d"])
    delta = float(params["c"]) / np.sqrt(n)
    instance = assouad_clients(m, n, d, delta, seed)
    bayes = float(np.sum((bayes_estimate(instance) - instance.optima) ** 2, axis=1).mean())
    local = float(np.sum((instance.local_erm() - instance.optima) ** 2, axis=1).mean())
    return {"bayes_risk": bayes, "local_risk": local, "delta": delta}


_SWEEPS = {
    "smoke": Sweep(grid={"c": [0.1, 0.3, 0.6]}, fixed={"m": 4, "n": 50, "d": 4}, replicates=64),
    "quick": Sweep(
        grid={"c": [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]},
        fixed={"m": 4, "n": 50, "d": 4},
        replicates=200,
        block=50,
    ),
}
_ARGS = {"c_X": 1.0, "d": "d", "delta_i": "delta", "n_i": "n"}

thm8_assouad_prior = Measurement(
    id="minimax/thm8/assouad-prior",
    experiment=assouad_risks,
    sweeps=_SWEEPS,
)
bayes_above = thm8_assouad_prior.claim(
    id="minimax/thm8/bayes-risk-above-assouad-bound",
    statement=(
        "On the Assouad prior with δ = c/√n, the Bayes risk of estimating a client's optimum is "
        "at least (d/2)δ²(1 − √2 c_X δ√n) — the per-client step of Theorem 8's proof."
    ),
    criterion=LowerBoundHolds("bayes_risk", ASSOUAD, x="c", over="mean", bound_args=_ARGS),
    bound=ASSOUAD,
    notes="The Bayes risk is the exact posterior mean's squared error, averaged over the prior.",
)
local_above = thm8_assouad_prior.claim(
    id="minimax/thm8/local-training-above-bayes",
    source=ASSOUAD.source,
    statement=(
        "No estimator beats the Bayes risk on the prior: local training's squared error is at "
        "least the posterior mean's, for every δ."
    ),
    criterion=LowerBoundHolds("local_risk", "bayes_risk", x="c", over="mean"),
)


# ------------------------------------------------ Theorem 8's explicit constant, both regimes

THM8_EXPLICIT = bounds.get("minimax.thm8.explicit")
#: The proof's prior scale c = 1/(2√2 c_X), with c_X = 1 (Rademacher features): its choice of δ
#: makes the per-δ bound equal to min(dm/N, R²)/(32c_X²).
PRIOR_SCALE = 1 / (2 * np.sqrt(2))


def assouad_bayes_risk(params: dict[str, Any], seed: int) -> dict[str, float]:
    """The Bayes risk on the prior the proof of Theorem 8 uses at heterogeneity R.

    δ = c/√n when R² ≥ dm/N (local-training regime) and δ = cR/√d otherwise; the prior then
    satisfies B(a) at R. The Bayes risk is the exact posterior mean's squared error, averaged
    over the clients (balanced, so it is (1/N)Σ n_i‖ŵ^(i) − w⋆^(i)‖²).
    """
    m, n, d, R = int(params["m"]), int(params["n"]), int(params["d"]), float(params["R"])
    kink = d * m / (m * n)  # R² = dm/N
    delta = PRIOR_SCALE / np.sqrt(n) if kink <= R**2 else PRIOR_SCALE * R / np.sqrt(d)
    instance = assouad_clients(m, n, d, delta, seed)
    bayes = float(np.sum((bayes_estimate(instance) - instance.optima) ** 2, axis=1).mean())
    return {"bayes_risk": bayes, "N": float(m * n)}


_EXPLICIT_FIXED = {"m": 4, "n": 50, "d": 4}  # the kink R² = dm/N = 0.08, R = 0.28
thm8_explicit_prior = Measurement(
    id="minimax/thm8/explicit-prior",
    experiment=assouad_bayes_risk,
    sweeps={
        "smoke": Sweep(grid={"R": [0.1, 0.5]}, fixed=_EXPLICIT_FIXED, replicates=32),
        "quick": Sweep(
            grid={"R": [0.05, 0.1, 0.2, 0.3, 0.5, 1.0]},
            fixed=_EXPLICIT_FIXED,
            replicates=100,
            block=50,
        ),
    },
)
explicit_lower_bound = thm8_explicit_prior.claim(
    id="minimax/thm8/bayes-risk-above-explicit-bound",
    statement=(
        "On the prior of Theorem 8's proof (δ = c/√n or cR/√d, c = 1/(2√2c_X)), the Bayes risk "
        "of estimating the client optima is at least min(dm/N, R²)/(32c_X²) — the explicit "
        "heterogeneous part of the minimax lower bound (14), on both sides of its kink."
    ),
    criterion=LowerBoundHolds(
        "bayes_risk",
        THM8_EXPLICIT,
        x="R",
        over="mean",
        bound_args={"c_X": 1.0, "d": "d", "m": "m", "N": "N", "R": "R"},
    ),
    bound=THM8_EXPLICIT,
    notes="Rademacher features (c_X = 1); d = 4, m = 4, n = 50; exact posterior means.",
)
