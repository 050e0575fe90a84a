"""Lemma 8.5 of GIFAIR-FL ("if η^(t) ≤ 2/L then E H(θ̄^(t)) ≤ E H(θ̄^(0))") is false (reading
guide §3 "Lemma 8.5", §6.8, check V13).

Noisy case: guide §7's instance (σ_k = 1, S = 65536 noise rows), λ = 0.6λ_max, E = 5, exact r,
p-weighted aggregation, η^(t) = β/(t + γ) with β = 2/(εμ), γ = max(8(2 − ε)L/(εμ), E) (so
η^(t) ≤ η^(0) = 1/(4(2 − ε)L) < 2/L), started at θ̄^(0) = θ*. H(θ̄^(0)) = H* is the minimum, so any
positive E H(θ̄^(t)) − H* falsifies the lemma; the noise alone guarantees it. Also measured:
the fraction of rounds in which H(θ̄) increased (guide §7 pilot: 45%).

Deterministic case (σ = 0, full gradients, E = 5, constant η = 1.9/L ≤ 2/L, θ_0 = 0, started away
from θ*): a run of 100 rounds is scanned for the round c with the largest increase of H(θ̄), and
the algorithm is restarted at θ̄^(0) := θ̄_c for one round (with constant steps and exact r the
run from θ̄_c is a fresh run of the algorithm, r included). H(θ̄^(E)) > H(θ̄^(0)) in that restart
is an exact counterexample. At λ = 0.6λ_max the multipliers c_k (up to 1 + λ(d − 1)/(p_k|𝒜|))
make the effective step c_kη exceed 2/L — a condition the lemma omits — and H grows in round 1
already; at λ = 0 (FedAvg) the E > 1 client drift alone makes H increase in some rounds.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.gifair import decaying_steps, fair_optimum, gifair_global, grouped_quadratics
from fedtheory.verify import Measurement, Sweep, UpperBoundHolds

LEMMA85 = bounds.get("gifair.lemma85")
EPSILON = bounds.get("gifair.epsilon.lambda-max")

NOISE_ROWS = 65536


@functools.lru_cache(maxsize=4)
def _instance(problem_seed: int, noise: float) -> Any:
    """Guide §7's grouped quadratics: a long noise table (σ = 1) or none (σ = 0)."""
    if noise == 0.0:
        return grouped_quadratics(seed=problem_seed, noise=0.0, noise_rows=1)
    return grouped_quadratics(seed=problem_seed, noise_rows=NOISE_ROWS)


@functools.lru_cache(maxsize=8)
def _optimum(problem_seed: int, frac: float) -> tuple[float, np.ndarray, float]:
    """λ = frac·λ_max, θ* and H* (the noise does not change F_k, so σ = 1's instance serves)."""
    problem = _instance(problem_seed, 1.0)
    groups = problem.groups
    lam = frac * groups.lambda_max
    theta = np.asarray(problem.global_optimum() if lam == 0.0 else fair_optimum(problem, lam).theta)
    return lam, theta, float(groups.objective(lam, problem.client_values(theta)))


def _h_values(problem: Any, lam: float, models: np.ndarray) -> np.ndarray:
    """H(θ) for models of shape (..., n)."""
    flat = models.reshape(-1, problem.dimension)
    losses = np.array([problem.client_values(theta) for theta in flat])
    return np.asarray(problem.groups.objective(lam, losses)).reshape(models.shape[:-1])


def noisy_from_optimum(params: dict[str, Any], seed: int) -> dict[str, float]:
    """``runs`` runs of C rounds from θ̄^(0) = θ*: the mean H(θ̄_C) (``H_t``), H(θ̄^(0)) = H*
    (``H_0``), the fraction of rounds whose H(θ̄) increased, the largest step and L."""
    problem_seed = int(params.get("problem", 0))
    problem = _instance(problem_seed, 1.0)
    lam, theta_star, h_star = _optimum(problem_seed, float(params["frac"]))
    consts = problem.constants()
    L, mu = float(consts["smoothness"]), float(consts["strong_convexity"])
    eps = float(EPSILON.evaluate(lam=lam, lam_max=problem.groups.lambda_max))
    E, rounds = int(params["E"]), int(params["rounds"])
    beta, gamma = 2.0 / (eps * mu), max(8.0 * (2.0 - eps) * L / (eps * mu), float(E))
    run = gifair_global(
        problem,
        lam,
        rounds=rounds,
        local_steps=E,
        step_size=decaying_steps(beta, gamma),
        init=theta_star,
        seed=seed,
        replicates=int(params.get("runs", 1)),
        record=True,
    )
    h = _h_values(problem, lam, np.asarray(run.global_iterates))  # (runs, C + 1)
    return {
        "H_t": float(h[:, -1].mean()),
        "H_0": h_star,
        "gap_t": float(h[:, -1].mean()) - h_star,
        "frac_increase": float((np.diff(h, axis=1) > 0).mean()),
        "zero": 0.0,
        "eta": beta / gamma,
        "L": L,
    }


def deterministic_restart(params: dict[str, Any], seed: int) -> dict[str, float]:
    """σ = 0, constant η = ``eta_L``/L, θ_0 = 0: the round c of ``rounds`` with the largest
    increase of H(θ̄), then one round restarted from θ̄^(0) := θ̄_c: H at its start and end
    (see the module docstring). ``seed`` is unused (no randomness)."""
    del seed
    problem_seed = int(params.get("problem", 0))
    problem = _instance(problem_seed, 0.0)
    lam = float(params["frac"]) * problem.groups.lambda_max
    L = float(problem.constants()["smoothness"])
    eta = float(params["eta_L"]) / L
    common: dict[str, Any] = {"local_steps": int(params["E"]), "step_size": eta, "seed": 0}
    run = gifair_global(problem, lam, rounds=int(params["rounds"]), record=True, **common)
    iterates = np.asarray(run.global_iterates)
    h = _h_values(problem, lam, iterates)
    worst = int(np.argmax(np.diff(h)))
    restart = gifair_global(problem, lam, rounds=1, init=iterates[worst], **common)
    return {
        "H_start": float(h[worst]),
        "H_end": float(_h_values(problem, lam, np.asarray(restart.global_model))),
        "round": float(worst),
        "rounds_increasing": float((np.diff(h) > 0).sum()),
        "H_max_minus_H_0": float(h.max() - h[0]),
        "eta": eta,
        "L": L,
    }


noisy_runs = Measurement(
    id="gifair/lemma85/noisy-runs",
    experiment=noisy_from_optimum,
    sweeps={
        "smoke": Sweep(
            fixed={"problem": 0, "frac": 0.6, "E": 5, "rounds": 20, "runs": 4}, replicates=4
        ),
        "quick": Sweep(
            fixed={"problem": 0, "frac": 0.6, "E": 5, "rounds": 100, "runs": 4}, replicates=8
        ),
    },
    uses=[EPSILON],
    notes=(
        "Guide §7's grouped quadratics (σ = 1, S = 65536 noise rows), λ = 0.6λ_max, E = 5, "
        "exact r, p-weighted aggregation, θ̄^(0) = θ*, η = β/(t + γ) with β = 2/(εμ), "
        "γ = max(8(2 − ε)L/(εμ), E) ≤ 2/L; C = 100 rounds; each replicate the mean of 4 runs."
    ),
)
from_optimum = noisy_runs.claim(
    id="gifair/lemma85/noisy-from-optimum",
    source=Citation("gifair", "Lemma 8.5"),
    statement=(
        "If η^(t) ≤ 2/L then E H(θ̄^(t)) ≤ E H(θ̄^(0)): started at θ̄^(0) = θ*, E H(θ̄^(T)) ≤ H*."
    ),
    criterion=UpperBoundHolds("H_t", LEMMA85, over="mean", bound_args={"H0": "H_0"}),
    bound=LEMMA85,
    expect="violated",
    notes=(
        "V13, erratum (guide §6.8): the proof uses ‖g‖² where ⟨∇H, g⟩ belongs, assumes "
        "θ̄^(t) = θ_k^(t) and ignores the noise. From the minimiser the noise alone raises H."
    ),
)
rounds_increase = noisy_runs.claim(
    id="gifair/lemma85/rounds-increase",
    source=Citation("gifair", "Lemma 8.5 (its proof's one-round descent)"),
    statement=(
        "H(θ̄) never increases from one round to the next (the proof's descent step): the "
        "fraction of rounds with an increase is 0."
    ),
    criterion=UpperBoundHolds("frac_increase", "zero", over="every"),
    bound=LEMMA85,
    expect="violated",
    gating=False,
    notes=(
        "V13, reported: the lemma bounds an expectation, so a noisy increase of one trajectory "
        "is information, not a counterexample (gifair/lemma85/noisy-from-optimum and "
        "gifair/lemma85/deterministic-restart are). The table gives the fraction (pilot: 45%)."
    ),
)
deterministic = Measurement(
    id="gifair/lemma85/deterministic",
    experiment=deterministic_restart,
    sweeps={
        "smoke": Sweep(
            grid={"frac": [0.0, 0.6]},
            fixed={"problem": 0, "E": 5, "eta_L": 1.9, "rounds": 100},
            replicates=1,
        ),
        "quick": Sweep(
            grid={"frac": [0.0, 0.6]},
            fixed={"problem": 0, "E": 5, "eta_L": 1.9, "rounds": 100},
            replicates=1,
        ),
    },
    notes=(
        "Noise-free guide §7 instance (full gradients), E = 5, constant η = 1.9/L, θ_0 = 0, "
        "exact r, p-weighted aggregation, 100 rounds scanned; deterministic (one replicate)."
    ),
)
deterministic_restart_claim = deterministic.claim(
    id="gifair/lemma85/deterministic-restart",
    source=Citation("gifair", "Lemma 8.5"),
    statement=(
        "Without noise (E = 5, η = 1.9/L ≤ 2/L, started away from θ*), one round never raises "
        "H: H(θ̄^(E)) ≤ H(θ̄^(0)) for the run restarted at any iterate θ̄_c."
    ),
    criterion=UpperBoundHolds("H_end", LEMMA85, over="every", bound_args={"H0": "H_start"}),
    bound=LEMMA85,
    expect="violated",
    notes=(
        "V13's deterministic E > 1 case: an exact counterexample (the table gives the round, "
        "the number of increasing rounds of the scan and max_c H(θ̄_c) − H(θ_0)). At λ = 0 the "
        "client drift of E = 5 local steps, at λ = 0.6λ_max also c_kη > 2/L."
    ),
)
