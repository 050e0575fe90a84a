"""The lower-bound machinery of Theorem 8 on the Assouad prior GM-P (Chen et al., App. A; guide V9).

Theorem 8's proof puts a uniform prior on the client optima w⋆^(i) = δ·v^(i), v^(i) ∈ {±1}^d,
with Rademacher features, and bounds the Bayes risk from below by Assouad's lemma. With the
sign-rounding step the chain gives, per client, E‖ŵ − w⋆‖² ≥ (d/2)δ²(1 − √2 c_X δ √n)
(``minimax.thm8.assouad``, constants as corrected in guide §6.3). The Bayes estimator — the
exact posterior mean, by enumerating the 2^d hypotheses — attains the Bayes risk, so it must sit
above that bound for every δ, and any other estimator (local training, the ERM) above it.

Where the bounds are attained the data are also held to their rates: the Bayes risk scales like
δ² where the data are uninformative (the Assouad step), and like min(dm/N, R²)/(32c_X²) in R, in
N and in the feature scale c_X on the proof's prior (Theorem 8's explicit form).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.papers.minimax import assouad_clients, bayes_estimate
from fedtheory.verify import LowerBoundHolds, Measurement, RateExponent, Sweep

ASSOUAD = bounds.get("minimax.thm8.assouad")


def assouad_risks(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Squared errors of the Bayes posterior mean and of local training on one GM-P draw."""
    m, n, d = int(params["m"]), int(params["n"]), int(params["d"])
    delta = float(params["c"]) / np.sqrt(n)
    instance = assouad_clients(m, n, d, delta, seed)
    bayes = float(np.sum((bayes_estimate(instance) - instance.optima) ** 2, axis=1).mean())
    local = float(np.sum((instance.local_erm() - instance.optima) ** 2, axis=1).mean())
    return {"bayes_risk": bayes, "local_risk": local, "delta": delta}


#: c = δ√n up to 0.7 at n = 50, where the bound is positive, and informative priors c = 3, 4 at
#: n = 200, where the data identify most signs: the bound is negative there, and a version of it
#: with a weaker dependence on n (a bracket 1 − √2c_Xδ or 1 − √2c_Xδ/√n) would exceed the
#: Bayes risk.
_C_GRID = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
_SWEEPS = {
    "smoke": Sweep(
        points=[{"n": 50, "c": c} for c in (0.1, 0.3, 0.6)] + [{"n": 200, "c": 3.0}],
        fixed={"m": 4, "d": 4},
        replicates=64,
    ),
    "quick": Sweep(
        points=[{"n": 50, "c": c} for c in _C_GRID] + [{"n": 200, "c": c} for c in (3.0, 4.0)],
        fixed={"m": 4, "d": 4},
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
bayes_rate_in_delta = thm8_assouad_prior.claim(
    id="minimax/thm8/assouad-bound-rate-in-delta",
    statement=(
        "Where the data carry almost no information on the signs (δ√n = 0.005 … 0.05, n = 50) "
        "the Bayes risk is the prior's dδ², and it scales in δ like the Assouad bound "
        "(d/2)δ²(1 − √2c_Xδ√n): the slope in δ is the slope of the registered bound."
    ),
    sweeps={
        profile: Sweep(
            grid={"c": [0.005, 0.01, 0.02, 0.05]}, fixed={"m": 4, "n": 50, "d": 4}, replicates=reps
        )
        for profile, reps in (("smoke", 16), ("quick", 50))
    },
    criterion=RateExponent("c", "bayes_risk", expected=ASSOUAD, bound_args=_ARGS, band=0.1),
    bound=ASSOUAD,
    notes=(
        "The bound's bracket is attained only to first order (the Bayes risk falls like "
        "1 − O(c²), the bracket like 1 − √2c), hence the small c; there its slope is 2 − 0.03."
    ),
)


# ------------------------------------------------ Theorem 8's explicit constant, both regimes

THM8_EXPLICIT = bounds.get("minimax.thm8.explicit")
#: The proof's prior scale c = 1/(2√2 c_X) at c_X = 1 (Rademacher features): its choice of δ
#: makes the per-δ bound equal to min(dm/N, R²)/(32c_X²).
PRIOR_SCALE = 1 / (2 * np.sqrt(2))


def assouad_bayes_risk(params: dict[str, Any], seed: int) -> dict[str, float]:
    """The Bayes risk on the prior the proof of Theorem 8 uses at heterogeneity R.

    δ = c/√n when R² ≥ dm/N (local-training regime) and δ = cR/√d otherwise, c = 1/(2√2c_X);
    the prior then satisfies B(a) at R. The Bayes risk is the exact posterior mean's squared
    error, averaged over the clients (balanced, so it is (1/N)Σ n_i‖ŵ^(i) − w⋆^(i)‖²).

    Features x ∈ {±c_X}^d (``c_X``, default 1: Rademacher): the labels depend on xᵀw only, so
    the data are those of Rademacher features with every w scaled by c_X — the posterior is
    computed on that twin (δ' = c_Xδ) and its error mapped back to w by 1/c_X.
    """
    m, n, d, R = int(params["m"]), int(params["n"]), int(params["d"]), float(params["R"])
    c_x = float(params.get("c_X", 1.0))
    scale = PRIOR_SCALE / c_x
    kink = d * m / (m * n)  # R² = dm/N
    delta = scale / np.sqrt(n) if kink <= R**2 else scale * R / np.sqrt(d)
    twin = assouad_clients(m, n, d, c_x * delta, seed)
    error = (bayes_estimate(twin) - twin.optima) / c_x
    bayes = float(np.sum(error**2, axis=1).mean())
    return {"bayes_risk": bayes, "N": float(m * n)}


_EXPLICIT_FIXED = {"m": 4, "n": 50, "d": 4}  # the kink R² = dm/N = 0.08, R = 0.28
thm8_explicit_prior = Measurement(
    id="minimax/thm8/explicit-prior",
    experiment=assouad_bayes_risk,
    sweeps={
        "smoke": Sweep(grid={"R": [0.1, 0.2, 0.5]}, fixed=_EXPLICIT_FIXED, replicates=32),
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

_EXPLICIT_ARGS: dict[str, str | float] = {"c_X": 1.0, "d": "d", "m": "m", "N": "N", "R": "R"}
explicit_rate_in_r = thm8_explicit_prior.claim(
    id="minimax/thm8/explicit-bound-rate-in-r",
    statement=(
        "On the proof's prior the Bayes risk follows min(dm/N, R²)/(32c_X²) in R: it grows like "
        "R² below the kink R² = dm/N and is flat above it — the slope in R over both regimes is "
        "that of the registered bound."
    ),
    criterion=RateExponent(
        "R", "bayes_risk", expected=THM8_EXPLICIT, bound_args=_EXPLICIT_ARGS, band=0.1
    ),
    bound=THM8_EXPLICIT,
    notes="The Bayes risk is 3.9–4.0 times the bound at every R of the grid.",
)
explicit_rate_in_n = thm8_explicit_prior.claim(
    id="minimax/thm8/explicit-bound-rate-in-n",
    statement=(
        "Above the kink (R = 1 ≥ √(dm/N)) the proof's prior has δ = c/√n, and the Bayes risk "
        "decays in N = mn like the bound's dm/N/(32c_X²) (n = 12 … 200, m = 4)."
    ),
    sweeps={
        profile: Sweep(grid={"n": grid}, fixed={"m": 4, "d": 4, "R": 1.0}, replicates=reps)
        for profile, grid, reps in (
            ("smoke", [12, 50, 200], 16),
            ("quick", [12, 25, 50, 100, 200], 50),
        )
    },
    criterion=RateExponent(
        "n", "bayes_risk", expected=THM8_EXPLICIT, bound_args=_EXPLICIT_ARGS, band=0.1
    ),
    bound=THM8_EXPLICIT,
)
explicit_in_feature_units = thm8_explicit_prior.claim(
    id="minimax/thm8/explicit-bound-in-feature-units",
    statement=(
        "Theorem 8's explicit bound has the units of the squared estimation error: with "
        "features x ∈ {±c_X}^d (c_X = 0.5 … 8) and the proof's prior (c = 1/(2√2c_X)), the Bayes "
        "risk scales in c_X like min(dm/N, R²)/(32c_X²), below (R = 0.1) and above (R = 1) the "
        "kink."
    ),
    sweeps={
        profile: Sweep(grid={"R": [0.1, 1.0], "c_X": grid}, fixed=_EXPLICIT_FIXED, replicates=reps)
        for profile, grid, reps in (
            ("smoke", [0.5, 2.0, 8.0], 16),
            ("quick", [0.5, 1.0, 2.0, 4.0, 8.0], 50),
        )
    },
    criterion=RateExponent(
        "c_X",
        "bayes_risk",
        expected=THM8_EXPLICIT,
        bound_args={**_EXPLICIT_ARGS, "c_X": "c_X"},
        band=0.1,
    ),
    bound=THM8_EXPLICIT,
    notes=(
        "The logistic labels depend on xᵀw only: features ±c_X with the parameter w are "
        "Rademacher features with c_X·w, so the exact posterior is computed on that twin."
    ),
)
