"""Theorem 3.7 (strongly convex, full participation) of GIFAIR-FL judged on grouped quadratics
(reading guide §3 "Theorem 3.7", "Repair sketch", §5 checks V5–V8, §6.2–6.3, §7).

Setup (guide §5): the quadratic instance of guide §7 (d = 3 groups of 3 clients, n = 4,
A_k diagonal with eigenvalues in [1, 4], σ_k = 1) with exact constants — L and μ the extreme
eigenvalues, σ_k² exact, F_k* = b_k — GIFAIR-FL-Global with full participation, p-weighted
aggregation and exact r, θ_0 = 0, η^(t) = β/(t + γ) with the repair's β = 2/(εμ) and
γ = max(8(2 − ε)L/(εμ), E) (the side conditions of gifair.thm37.distance), ε from
gifair.epsilon.lambda-max. θ* is the closed-form FedAvg optimum at λ = 0 and the cvxpy optimum
(:func:`~fedtheory.papers.gifair.exact.fair_optimum`) otherwise. One replicate per seed; T counts
global (local) steps, T = CE.

The instance has S = 65536 noise rows per client instead of the default 16: the core LocalSGD
draws minibatch rows *without replacement* in passes, and with 16 centred rows the noise of a
pass sums to 0 (random reshuffling), which is a variance-reduced oracle, not Assumption 2's —
the measured E‖θ̄_T − θ*‖² then decays like 1/T² at E = 1. With S ≫ T every draw is a fresh row.

Measured constants (V6): G² is the largest E‖g_k‖² = ‖∇F_k(θ)‖² + σ_k² over the recorded
trajectory (the global models θ̄_c, where every client starts its round, and the local
end-of-round models); Γ_max = Σ_k p_k|H* − H_k*| with H_k* = min c_kF_k = c_kb_k, both with r
frozen at θ* (``Gamma_max_frozen``) and in the worst case over the multipliers
c_k ∈ [1 − λ(d − 1)/(p_k|𝒜_{s_k}|), 1 + λ(d − 1)/(p_k|𝒜_{s_k}|)] (``Gamma_max``, an
envelope: each client's worst sign pattern separately). On this instance b_k = 0, so both equal
H* and Γ_K = Γ_max.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.gifair import decaying_steps, fair_optimum, gifair_global, grouped_quadratics
from fedtheory.verify import Measurement, RateExponent, Sweep, UpperBoundHolds

THM37 = bounds.get("gifair.thm37")
THM37_DIST = bounds.get("gifair.thm37.distance")
EPSILON = bounds.get("gifair.epsilon.lambda-max")

NOISE_ROWS = 65536
#: The repaired bound's power of 1/ε²: its local ε-exponent near 0 on the ξ-terms (D0 = 0 and
#: γ large, so that ε → 0 stays inside γ ≥ 8(2 − ε)L/(εμ)) is −2.
EPS_FACTOR_POWER = -float(THM37_DIST.local_exponent("eps", at=0.01, D0=0.0, gamma=1e6)) / 2
_TIMES = [160 * 2**j for j in range(5)]  # 160 … 2560
_SMOKE_TIMES = [160, 640, 2560]


@functools.lru_cache(maxsize=4)
def _instance(problem_seed: int) -> Any:
    """Guide §7's grouped quadratics with a long noise table (see the module docstring)."""
    return grouped_quadratics(seed=problem_seed, noise_rows=NOISE_ROWS)


@functools.lru_cache(maxsize=32)
def _optimum(problem_seed: int, frac: float) -> tuple[float, np.ndarray, float]:
    """λ = frac·λ_max, θ* (closed form at λ = 0, cvxpy otherwise) and H* = H(θ*)."""
    problem = _instance(problem_seed)
    groups = problem.groups
    lam = frac * groups.lambda_max
    exact = problem.global_optimum() if lam == 0.0 else fair_optimum(problem, lam).theta
    theta = np.asarray(exact)
    value = float(groups.objective(lam, problem.client_values(theta)))
    return lam, theta, value


def _schedule(rule: str, eps: float, mu: float, L: float, E: int) -> tuple[float, float]:
    """(β, γ): the repair's β = 2/(εμ), γ = max(8(2 − ε)L/(εμ), E) (``"theory"``), or the
    pilot's β = 2/μ, γ = max(8Lβ, E) (``"fixed"``, guide §5's alternative)."""
    if rule == "theory":
        return 2.0 / (eps * mu), max(8.0 * (2.0 - eps) * L / (eps * mu), float(E))
    beta = 2.0 / mu
    return beta, max(8.0 * L * beta, float(E))


def constants(problem: Any, lam: float, theta_star: np.ndarray, h_star: float) -> dict[str, float]:
    """The instance's constants of Theorem 3.7 that do not depend on the run."""
    groups = problem.groups
    consts = problem.constants()
    p, b = groups.p, np.asarray(problem.offsets)
    sigma2 = np.asarray(problem.noise_variance)
    c_frozen = groups.multipliers(lam, problem.client_values(theta_star))
    return {
        "L": float(consts["smoothness"]),
        "mu": float(consts["strong_convexity"]),
        "sigma2_p2": float(p**2 @ sigma2),
        "D0": float(theta_star @ theta_star),
        "H_star": h_star,
        "Gamma_max": problem.gamma_max(lam, h_star),
        "Gamma_max_frozen": float(p @ np.abs(h_star - c_frozen * b)),
        "Gamma_K": float(h_star - p @ (c_frozen * b)),
    }


def trajectory_g2(problem: Any, run: Any) -> float:
    """max over the recorded models of max_k E‖g_k‖² = ‖∇F_k(θ)‖² + σ_k² (Assumption 3)."""
    sigma2 = np.asarray(problem.noise_variance)
    models = np.concatenate(
        [run.global_iterates.reshape(-1, problem.dimension),
         run.local_iterates.reshape(-1, problem.dimension)]
    )  # fmt: skip
    diff = models[:, None, :] - np.asarray(problem.centres)[None, :, :]
    grads = np.einsum("kij,mkj->mki", np.asarray(problem.curvature), diff)
    return float(((grads**2).sum(axis=2) + sigma2[None, :]).max())


def gifair_distance(params: dict[str, Any], seed: int) -> dict[str, float]:
    """One GIFAIR-FL-Global run of T = CE steps: ‖θ̄_T − θ*‖², H(θ̄_T) − H*, the measured
    constants of Theorem 3.7 and the step-size parameters (see the module docstring).

    ``frac`` (λ/λ_max) or ``inv_eps2`` (1/ε², then λ/λ_max = 1 − ε) sets λ; ``rule`` the
    schedule; ``aggregation`` and ``r_mode`` as in :func:`gifair_global`. With ``runs`` = R
    the replicate is one batch of R runs (seeds spawned from the replicate's seed) and the
    distance and the gap are their means (the expectations of Theorem 3.7, less noisy); G² is
    the largest over the batch.
    """
    problem_seed = int(params.get("problem", 0))
    problem = _instance(problem_seed)
    if "inv_eps2" in params:
        frac = 1.0 - 1.0 / float(np.sqrt(float(params["inv_eps2"])))
    else:
        frac = float(params["frac"])
    lam, theta_star, h_star = _optimum(problem_seed, frac)
    out = constants(problem, lam, theta_star, h_star)
    E, T = int(params["E"]), int(params["T"])
    eps = float(EPSILON.evaluate(lam=lam, lam_max=problem.groups.lambda_max))
    beta, gamma = _schedule(str(params.get("rule", "theory")), eps, out["mu"], out["L"], E)
    run = gifair_global(
        problem,
        lam,
        rounds=T // E,
        local_steps=E,
        step_size=decaying_steps(beta, gamma),
        aggregation=str(params.get("aggregation", "weighted")),
        r_mode=str(params.get("r_mode", "exact")),
        seed=seed,
        replicates=int(params.get("runs", 1)),
        record=True,
    )
    thetas = np.asarray(run.global_model)  # (runs, n)
    dist = float(((thetas - theta_star) ** 2).sum(axis=1).mean())
    objective = problem.groups.objective
    gap = float(np.mean([objective(lam, problem.client_values(t)) for t in thetas])) - h_star
    return {
        **out,
        "dist": dist,
        "gap": gap,
        "scaled": T * dist,
        "scaled_gap": T * gap,
        "G2": trajectory_g2(problem, run),
        "eps": eps,
        "beta": beta,
        "gamma": gamma,
    }


# ======================================================================== V5, V6: T-sweeps
_RATE_FIXED = {"problem": 0, "rule": "theory", "runs": 4}
runs = Measurement(
    id="gifair/thm37/runs",
    experiment=gifair_distance,
    sweeps={
        "smoke": Sweep(
            grid={"frac": [0.0], "E": [1], "T": _SMOKE_TIMES}, fixed=_RATE_FIXED, replicates=8
        ),
        "quick": Sweep(
            grid={"frac": [0.0, 0.6], "E": [1], "T": _TIMES},
            fixed=_RATE_FIXED,
            replicates=8,
        ),
    },
    uses=[EPSILON],
    notes=(
        "Guide §7's grouped quadratics (S = 65536 noise rows), full participation, p-weighted "
        "aggregation, exact r, θ_0 = 0, η = β/(t + γ) with β = 2/(εμ), γ = max(8(2 − ε)L/(εμ), "
        "E); T = CE global steps; each replicate the mean of a batch of 4 runs."
    ),
)
distance_rate = runs.claim(
    id="gifair/thm37/distance-rate",
    source=Citation("gifair", "Theorem 3.7, Remark 3.8 (O(1/T)); guide §5 V5"),
    statement=(
        "In the strongly convex case with full participation GIFAIR-FL-Global converges at the "
        "rate O(1/T): E‖θ̄_T − θ*‖² scales in T like the repaired bound v/(γ + T)."
    ),
    criterion=RateExponent("T", "dist", expected=THM37_DIST, band=0.3),
    bound=THM37_DIST,
    notes=(
        "V5. The expected exponent is the log-log slope of gifair.thm37.distance at the "
        "measured constants along the sweep (≈ −0.8 … −1 over T ∈ [160, 2560], γ ≥ 32); band "
        "±0.3 (guide: [−1.3, −0.8]). E = 1: with E > 1 the O(η²) drift term makes the curve "
        "steeper than the bound at T ≤ 2560 (E = 5 at 0.6λ_max: −1.3, E = 20: −1.8, guide §7), "
        "judged one-sided by gifair/thm37/local-steps-bound. λ ∈ {0, 0.6λ_max}: at 0.9λ_max "
        "(a tie at θ*) γ = 608 and T ≤ 2560 is pre-asymptotic."
    ),
)
gap_rate = runs.claim(
    id="gifair/thm37/gap-rate",
    source=Citation("gifair", "Theorem 3.7, Remark 3.8; guide §5 V5"),
    statement=(
        "E[H(θ̄_T)] − H* decays like O(1/T) (Remark 3.8), the T-exponent of the repaired bound."
    ),
    criterion=RateExponent("T", "gap", expected=THM37_DIST, band=0.3),
    bound=THM37_DIST,
    notes=(
        "V5 on the H-gap (exact H, exact H*). Away from ties H − H* ≈ ½(θ − θ*)ᵀ∇²H(θ − θ*), so "
        "the gap follows the distance."
    ),
)
distance_bound = runs.claim(
    id="gifair/thm37/distance-bound",
    source=Citation("gifair", "Theorem 3.7 repaired (guide §3)"),
    statement=(
        "E‖θ̄_T − θ*‖² ≤ (4ξ_fix/(ε²μ²) + (γ + 1)‖θ̄_0 − θ*‖²)/(γ + T), ξ_fix = 32(E − 1)²G² + "
        "12LΓ_max + 4Σ_kp_k²σ_k², at every T, with the measured G², exact σ_k² and the "
        "worst-case Γ_max."
    ),
    criterion=UpperBoundHolds("dist", THM37_DIST, x="T", over="mean"),
    bound=THM37_DIST,
    notes=(
        "V6; the resolving power reports the looseness (orders of magnitude: 12LΓ_max/(ε²μ²) "
        "with Γ_max = H* ≈ 7.6 dominates)."
    ),
)
distance_bound_frozen = runs.claim(
    id="gifair/thm37/distance-bound-frozen-r",
    source=Citation("gifair", "Theorem 3.7 repaired (guide §3)"),
    statement=(
        "The repaired distance bound with Γ_max computed with r frozen at θ* (H_k* = "
        "c_k(θ*)F_k*) holds at every T."
    ),
    criterion=UpperBoundHolds(
        "dist", THM37_DIST, x="T", over="mean", bound_args={"Gamma_max": "Gamma_max_frozen"}
    ),
    bound=THM37_DIST,
    notes="V6, the other reading of the ill-defined H_k* (guide §6.6).",
)
printed_tracks = runs.claim(
    id="gifair/thm37/printed-tracks-decay",
    source=Citation("gifair", "Theorem 3.7 as printed, Remark 3.8"),
    statement=(
        "Theorem 3.7 as printed gives the O(E²/T) rate of Remark 3.8: the measured H-gap scales "
        "in T like the printed bound (L/2)(γ + T)^{-1}{4ξ/(ε²μ²) + (γ + 1)D_0}, ξ ∋ 2Γ_max/η^(T)."
    ),
    criterion=RateExponent("T", "gap", expected=THM37, band=0.3),
    bound=THM37,
    expect="violated",
    notes=(
        "Erratum (guide §6.2): 2Γ_max/η^(T) grows like T, so with the measured constants the "
        "printed bound is ≈ flat (it tends to 4LΓ_max/(βε²μ²) > 0; the symbolic limit is in "
        "tests/test_gifair_bounds.py) while the measured gap decays like 1/T. At Γ_max = 0 the "
        "printed bound would decay and this claim would hold."
    ),
)


# ======================================================================== V7: the 1/ε² factor
_EPS_GRID = [1.0, 4.0, 16.0, 100.0, 10000.0]  # 1/ε² ↔ λ/λ_max = 0, ½, ¾, 0.9, 0.99
epsilon_runs = Measurement(
    id="gifair/thm37/epsilon-runs",
    experiment=gifair_distance,
    sweeps={
        "smoke": Sweep(
            grid={"inv_eps2": [1.0, 16.0, 10000.0]},
            fixed={"problem": 0, "rule": "fixed", "E": 1, "T": 640},
            replicates=8,
        ),
        "quick": Sweep(
            grid={"inv_eps2": _EPS_GRID},
            fixed={"problem": 0, "rule": "fixed", "E": 1, "T": 2560},
            replicates=8,
        ),
    },
    uses=[EPSILON],
    notes=(
        "The pilot's schedule β = 2/μ, γ = max(8Lβ, E) for every λ (the theory's β = 2/(εμ) "
        "would put T = 5120 far before the asymptotic regime at ε = 0.01); E = 1."
    ),
)
epsilon_factor = epsilon_runs.claim(
    id="gifair/thm37/epsilon-factor",
    source=Citation("gifair", "Theorem 3.7, the factor 4/(ε²μ²); guide §5 V7"),
    statement=(
        "The 1/ε² factor of Theorem 3.7 is seen in the data: T·E‖θ̄_T − θ*‖² grows with 1/ε² "
        "as λ → λ_max like the repaired bound does."
    ),
    criterion=RateExponent("inv_eps2", "scaled", expected=EPS_FACTOR_POWER, band=0.3),
    bound=THM37_DIST,
    expect="violated",
    gating=False,
    notes=(
        "V7, informational (a bound artefact, not an erratum): the pilot's T·dist is 0.27–0.32 "
        "across λ/λ_max ∈ {0, …, 0.99} while 1/ε² spans 1 to 10⁴. The expected exponent is "
        "the repaired bound's exponent in 1/ε² as ε → 0 (1, read from the registry); the "
        "data's is ≈ 0. The pilot's β = 2/μ is outside the bound's γ condition, so the "
        "exponent, not the bound's value, is compared."
    ),
)


# ======================================================================== V8: E-dependence
e_runs = Measurement(
    id="gifair/thm37/local-steps-runs",
    experiment=gifair_distance,
    sweeps={
        "smoke": Sweep(
            grid={"E": [1, 2, 5, 10]},
            fixed={**_RATE_FIXED, "frac": 0.6, "T": 320, "runs": 1},
            replicates=8,
        ),
        "quick": Sweep(
            grid={"E": [1, 2, 5, 10, 20]},
            fixed={**_RATE_FIXED, "frac": 0.6, "T": 2560, "runs": 1},
            replicates=8,
        ),
    },
    uses=[EPSILON],
    notes="T = 2560 global steps for every E (C = T/E rounds), λ = 0.6λ_max; theory schedule.",
)
e_bound = e_runs.claim(
    id="gifair/thm37/local-steps-bound",
    source=Citation("gifair", "Theorem 3.7 repaired, the (E − 1)² term; guide §5 V8"),
    statement=(
        "For every number of local steps E the measured E‖θ̄_T − θ*‖² stays below the repaired "
        "bound with its 32(E − 1)²G² drift term."
    ),
    criterion=UpperBoundHolds("dist", THM37_DIST, x="E", over="mean"),
    bound=THM37_DIST,
    notes="V8: measured ≤ bound for every E (the bound is an upper bound, not a prediction).",
)
e_exponent = e_runs.claim(
    id="gifair/thm37/local-steps-exponent",
    source=Citation("gifair", "Theorem 3.7, Remark 3.8 (O(E²/T)); guide §5 V8"),
    statement=(
        "T·E‖θ̄_T − θ*‖² grows with E like the repaired bound's (E − 1)² drift term (Remark "
        "3.8's E²)."
    ),
    criterion=RateExponent("E", "scaled", expected=THM37_DIST, band=0.3, x_min=2),
    bound=THM37_DIST,
    gating=False,
    notes=(
        "V8, reported only: the fitted exponent is the information (guide: nearly flat in E "
        "without a tie, about linear with one); the bound's slope along E ∈ [2, 20] is ≈ 2."
    ),
)
