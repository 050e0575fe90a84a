"""Errata of FFGB.C's and FFGB.L's step sizes and of Algorithm 4's query sign (guide §5 D1–D3, §6).

* D1  Lemma D.2 with Theorem 3.2's printed steps η = 4/(μ(tK + k + 1)): μη = 2 at the first
      step, so from f⁰ = −2G/(γμ)·1 the iterates overshoot the ball ‖g‖_∞ ≤ 2G/(γμ) (expect
      violated); with the offset k0 ≥ 3 (μη ≤ 1) they stay in it, and the least admissible
      radius B = 2G/(μγ) of Theorem D.1 is never cut by the server's projection.
* D1' The steps the runs actually take are the printed 4/(s + 1) and the corrected 4/(s + k0),
      s = tK + k (read from a logged round).
* D2  FFGB.L's Lipschitz feasibility (App. E, before Lemma E.1) with the printed steps: K = 1,
      γ = 1, η = 2 at the first step gives Lip(f¹) = 2L > L/γ (expect violated); with k0 ≥ 3
      every iterate stays L/γ-Lipschitz.
* D3  Algorithm 4's literal query WO(Δ − u_i) converges (Δ is reset every round) to the wrong
      point −(1/K)Σ_k((1 + γ)^k − 1)·ū (``ffgb.limit.alg4-literal``), and leaves the feasible
      set {‖f‖_lip ≤ L/γ} even with the corrected steps (expect violated).

Every experiment runs the library's algorithms on a fresh population drawn from the seed; the
bounds are evaluated by the criteria at the measured G, γ, μ, L and k0.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.papers.ffgb import ffgb_c, ffgb_l, oracles, semi_heterogeneous
from fedtheory.papers.ffgb.lipschitz import translated_supports
from fedtheory.verify import Identity, Measurement, Sweep, UpperBoundHolds

LEMMAD2 = bounds.get("ffgb.lemmad2")
LEMMAD2_CORRECTED = bounds.get("ffgb.lemmad2.corrected")
B_MIN = bounds.get("ffgb.thmd1.b-min")
STEP_PRINTED = bounds.get("ffgb.stepsize.ffgbc")
STEP_CORRECTED = bounds.get("ffgb.stepsize.ffgbc.corrected")
LIP_PRINTED = bounds.get("ffgb.lemmae1.g-lip")
LIP_CORRECTED = bounds.get("ffgb.lemmae1.g-lip.corrected")
ALG4_LITERAL = bounds.get("ffgb.limit.alg4-literal")


# ============================================================================ D1: Lemma D.2
def lemma_d2_run(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FFGB.C with the scale oracle from f⁰ = −2G/(γμ)·1 and B = 2G/(μγ).

    Outputs the largest |g| over every client iterate and every atom (``g_sup``), f⁰'s sup norm
    and the constants.
    """
    gamma, k0 = float(params["gamma"]), float(params["k0"])
    pop = semi_heterogeneous(num_atoms=int(params["P"]), num_clients=int(params["N"]), seed=seed)
    G, mu = pop.G, pop.mu
    radius = 2.0 * G / (gamma * mu)
    start = -radius * np.ones(pop.num_atoms)
    run = ffgb_c(
        pop,
        oracles.scale(gamma, norm="sup"),
        rounds=int(params["T"]),
        local_steps=int(params["K"]),
        k0=k0,
        init=start,
    )
    return {
        "g_sup": float(run.diagnostics.norm("iterate", "sup_all")),
        "f0_sup": float(np.max(np.abs(start))),
        "G": G,
        "mu": mu,
        "gamma": gamma,
        "k0": k0,
    }


_D1_FIXED = {"gamma": 0.5, "P": 30, "N": 4, "K": 4}
lemma_d2 = Measurement(
    id="ffgb/lemmad2/runs",
    experiment=lemma_d2_run,
    notes=(
        "FFGB.C (Algorithm 5 with the given step offset k0), scale oracle in the sup norm, "
        "logistic loss on P = 30 atoms with α_i = α, N = 4, μ = 0.1, G = 1, "
        "f⁰ = −2G/(γμ)·1 (on the sphere of the lemma's ball), B = 2G/(μγ) (the default)."
    ),
)
d2_printed = lemma_d2.claim(
    id="ffgb/lemmad2/printed-steps",
    statement=(
        "Lemma D.2 as printed: if ‖f⁰‖_∞ ≤ 2G/(γμ), the iterates of FFGB.C with "
        "η = 4/(μ(tK + k + 1)) satisfy ‖g^{k,t}‖_∞ ≤ 2G/(γμ)."
    ),
    bound=LEMMAD2,
    criterion=UpperBoundHolds("g_sup", LEMMAD2, over="every", x="T", rtol=1e-12),
    sweeps={
        "smoke": Sweep(grid={"T": [10, 20]}, fixed={**_D1_FIXED, "k0": 1.0}, replicates=2),
        "quick": Sweep(grid={"T": [10, 50]}, fixed={**_D1_FIXED, "k0": 1.0}, replicates=4),
    },
    expect="violated",
    notes=(
        "Erratum (guide §6, D1): μη = 4/(s + 1) is 2 at s = 1, so g¹ = f⁰ − η(h + μf⁰) "
        "extrapolates past the ball (guide prototype: 49.6 > 40 at γ = 0.5, μ = 0.1)."
    ),
)
d2_corrected = lemma_d2.claim(
    id="ffgb/lemmad2/corrected-steps",
    statement=(
        "Lemma D.2 with η = 4/(μ(tK + k + k0)), k0 ≥ 3 (μη ≤ 1): from ‖f⁰‖_∞ ≤ 2G/(γμ) every "
        "client iterate satisfies ‖g_i^{k,t}‖_∞ ≤ 2G/(γμ)."
    ),
    bound=LEMMAD2_CORRECTED,
    criterion=UpperBoundHolds("g_sup", LEMMAD2_CORRECTED, over="every", x="k0", rtol=1e-12),
    sweeps={
        "smoke": Sweep(grid={"k0": [3.0, 4.0]}, fixed={**_D1_FIXED, "T": 20}, replicates=2),
        "quick": Sweep(grid={"k0": [3.0, 4.0, 8.0]}, fixed={**_D1_FIXED, "T": 50}, replicates=4),
    },
    notes="The per-client iterates are measured, not only their average ḡ (guide §3.2).",
)
b_min_admissible = lemma_d2.claim(
    id="ffgb/thmd1/b-min-attained",
    statement=(
        "Theorem D.1's radius condition B ≥ 2G/(μγ) is sharp for the invariance it secures: "
        "from f⁰ on the sphere ‖f⁰‖_∞ = 2G/(μγ) the largest |g| over the corrected run equals "
        "2G/(μγ) — every smaller B would cut an iterate, and this one never is."
    ),
    bound=B_MIN,
    criterion=Identity("g_sup", B_MIN, rtol=1e-12, x="k0"),
    sweeps={
        "smoke": Sweep(grid={"k0": [3.0, 4.0]}, fixed={**_D1_FIXED, "T": 20}, replicates=2),
        "quick": Sweep(grid={"k0": [3.0, 4.0, 8.0]}, fixed={**_D1_FIXED, "T": 50}, replicates=4),
    },
    notes="The sup runs over every client iterate g_i^{k,t}, f⁰ = g^{1,0} included.",
)


# ====================================================================== D1': the step sizes
def logged_steps(params: dict[str, Any], seed: int) -> dict[str, float]:
    """μη^{k,t} that FFGB.C takes at local step k of round t (read from the logged round)."""
    pop = semi_heterogeneous(num_atoms=8, num_clients=2, seed=seed)
    t, k, K = int(params["t"]), int(params["k"]), int(params["K"])
    k0 = float(params["k0"])
    run = ffgb_c(
        pop,
        oracles.scale(0.5, norm="sup"),
        rounds=t + 1,
        local_steps=K,
        k0=k0,
        variant=str(params["variant"]),
        log_round=t,
        check=False,
    )
    assert run.log is not None
    return {"mu_eta": float(pop.mu * run.log.steps[k - 1]), "s": float(t * K + k), "k0": k0}


def _step_sweeps(variant: str, offsets: list[float]) -> dict[str, Sweep]:
    return {
        "smoke": Sweep(
            grid={"t": [0, 1], "k": [1, 2]},
            fixed={"K": 2, "k0": offsets[0], "variant": variant},
            replicates=1,
        ),
        "quick": Sweep(
            grid={"k0": offsets, "t": [0, 1, 5], "k": [1, 2, 4]},
            fixed={"K": 4, "variant": variant},
            replicates=1,
        ),
    }


steps_printed = Measurement(
    id="ffgb/stepsize/printed-run",
    experiment=logged_steps,
    sweeps=_step_sweeps("printed", [1.0]),
    notes="Algorithm 3 as printed (variant='printed', k0 = 1); s = tK + k.",
).claim(
    id="ffgb/stepsize/printed",
    statement=(
        "Theorems 3.2 and 3.3 prescribe η^{k,t} = 4/(μ(tK + k + 1)): μη = 4/(s + 1), which is "
        "2 and 4/3 at s = 1, 2 — above the μη ≤ 1 that Lemma D.2's induction needs."
    ),
    bound=STEP_PRINTED,
    criterion=Identity("mu_eta", STEP_PRINTED, rtol=1e-13, x="t"),
)
steps_corrected = Measurement(
    id="ffgb/stepsize/corrected-run",
    experiment=logged_steps,
    sweeps=_step_sweeps("corrected", [3.0, 4.0]),
    notes="Algorithm 5 (variant='corrected') with the offset k0; s = tK + k.",
).claim(
    id="ffgb/stepsize/corrected",
    statement=(
        "The corrected steps are μη^{k,t} = 4/(tK + k + k0), ≤ 1 for every s ≥ 1 when k0 ≥ 3."
    ),
    bound=STEP_CORRECTED,
    criterion=Identity("mu_eta", STEP_CORRECTED, rtol=1e-13, x="t"),
)


# ================================================================== D2: FFGB.L feasibility
def lipschitz_feasibility(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FFGB.L (scale oracle in the Lipschitz norm, f⁰ = 0) on 1-D translated supports.

    ``g_lip``: the largest Lipschitz constant over every client iterate and server model.
    """
    data = translated_supports(num_clients=4, points_per_client=15, delta=0.1, seed=seed)
    gamma = float(params["gamma"])
    run = ffgb_l(
        data,
        oracles.scale(gamma, norm="lip"),
        rounds=int(params["T"]),
        local_steps=int(params["K"]),
        k0=float(params["k0"]),
        query=str(params.get("query", "corrected")),
    )
    return {
        "g_lip": float(run.diagnostics.norm("iterate", "lip")),
        "L": float(data.lipschitz),
        "f0_lip": 0.0,
    }


lipschitz_printed = Measurement(
    id="ffgb/lemmae1/printed-steps-run",
    experiment=lipschitz_feasibility,
    sweeps={
        "smoke": Sweep(grid={"T": [1, 2]}, fixed={"K": 1, "gamma": 1.0, "k0": 1.0}, replicates=2),
        "quick": Sweep(
            grid={"T": [1, 5, 20]}, fixed={"K": 1, "gamma": 1.0, "k0": 1.0}, replicates=4
        ),
    },
    notes="K = 1, γ = 1, the printed η = 4/(tK + k + 1) (η = 2 at the first step).",
).claim(
    id="ffgb/lemmae1/g-lip-printed-steps",
    statement=(
        "App. E: with Theorem 3.3's steps η = 4/(tK + k + 1), ‖g^{k+1}‖_lip ≤ (1 − η)‖g^k‖_lip "
        "+ ηL/γ keeps every FFGB.L iterate in {‖f‖_lip ≤ L/γ}."
    ),
    bound=LIP_PRINTED,
    criterion=UpperBoundHolds("g_lip", LIP_PRINTED, over="every", x="T", rtol=1e-9),
    expect="violated",
    notes="Erratum (guide D2): η = 2 gives g² = 2h − g¹, Lip(f¹) = 2L at K = 1, γ = 1.",
)
lipschitz_corrected = Measurement(
    id="ffgb/lemmae1/corrected-steps-run",
    experiment=lipschitz_feasibility,
    sweeps={
        "smoke": Sweep(
            grid={"k0": [3.0, 4.0]}, fixed={"K": 4, "gamma": 0.5, "T": 10}, replicates=2
        ),
        "quick": Sweep(
            grid={"gamma": [0.5, 1.0], "k0": [3.0, 4.0]}, fixed={"K": 4, "T": 30}, replicates=4
        ),
    },
    notes="η = 4/(tK + k + k0) with k0 ≥ 3 (η ≤ 1: every iterate is a convex combination).",
).claim(
    id="ffgb/lemmae1/g-lip-corrected-steps",
    statement=(
        "With η = 4/(tK + k + k0), k0 ≥ 3, every FFGB.L iterate (client and server) is "
        "L/γ-Lipschitz: the feasible set {‖f‖_lip ≤ L/γ} of (14) is kept."
    ),
    bound=LIP_CORRECTED,
    criterion=UpperBoundHolds("g_lip", LIP_CORRECTED, over="every", x="k0", rtol=1e-9),
)


# ====================================================================== D3: Alg. 4's sign
def literal_query(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FFGB.L with Algorithm 4's literal query WO(Δ − u_i) and the corrected steps (k0 = 3).

    ``reversed_coefficient``: −c, with c from the least-squares fit f^T ≈ c·ū in L²(α)
    (ū = (1/N)Σ_i u_i on the points; the predicted c is negative); ``off_line``:
    ‖f^T − c·ū‖_α/‖f^T‖_α (0 when f^T lies on the line of ū);
    ``g_lip`` as in D2.
    """
    data = translated_supports(num_clients=4, points_per_client=15, delta=0.1, seed=seed)
    gamma, K = float(params["gamma"]), int(params["K"])
    run = ffgb_l(
        data,
        oracles.scale(gamma, norm="lip"),
        rounds=int(params["T"]),
        local_steps=K,
        query="printed",
    )
    weights = data.marginal
    mean = data.targets.mean(axis=0)
    f = run.function
    coefficient = float(weights @ (f * mean) / (weights @ (mean * mean)))
    off = f - coefficient * mean
    return {
        "reversed_coefficient": -coefficient,
        "off_line": float(np.sqrt(weights @ off**2 / (weights @ f**2))),
        "g_lip": float(run.diagnostics.norm("iterate", "lip")),
        "L": float(data.lipschitz),
        "f0_lip": 0.0,
    }


literal = Measurement(
    id="ffgb/alg4/literal-query",
    experiment=literal_query,
    sweeps={
        "smoke": Sweep(grid={"K": [1, 2]}, fixed={"gamma": 1.0, "T": 200, "k0": 3.0}, replicates=2),
        "quick": Sweep(
            grid={"gamma": [0.5, 1.0], "K": [1, 2, 4]}, fixed={"T": 400, "k0": 3.0}, replicates=3
        ),
    },
    notes=(
        "Algorithm 4 with its printed query h = WO(Δ − u_i), the scale oracle, corrected steps "
        "η = 4/(tK + k + 3), 1-D translated supports (N = 4, 15 points each, δ = 0.1, L = 2)."
    ),
)
literal_limit = literal.claim(
    id="ffgb/alg4/literal-wrong-limit",
    statement=(
        "Algorithm 4 as printed (query WO(Δ − u_i)) converges — Δ is reset every round — to "
        "the wrong point −(1/K)Σ_k((1 + γ)^k − 1)·ū, not to (1 − c_K/K)·ū."
    ),
    bound=ALG4_LITERAL,
    criterion=Identity("reversed_coefficient", ALG4_LITERAL, rtol=2e-2, x="K"),
    notes=(
        "ffgb.limit.alg4-literal registers a_K = (1/K)Σ_k((1 + γ)^k − 1), the limit being −a_K·ū: "
        "minus the coefficient of f^T along ū is compared (at T = 400 within O(1/T) of a_K)."
    ),
)
literal_line = literal.claim(
    id="ffgb/alg4/literal-leaves-feasible-set",
    statement=(
        "With the printed query the FFGB.L iterates leave the feasible set {‖f‖_lip ≤ L/γ} of "
        "(14), even with steps η ≤ 1 (k0 = 3)."
    ),
    bound=LIP_CORRECTED,
    criterion=UpperBoundHolds("g_lip", LIP_CORRECTED, over="every", x="K", rtol=1e-9),
    expect="violated",
    notes="Erratum D3 (guide §6): the literal sign makes h = −((1 + γ)^k − 1)u_i, which grows.",
)
