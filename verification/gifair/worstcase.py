"""Worst-case (PEP) claims of gifair's deterministic optimization statements (issue 16, Deliver 3).

Lemma 8.5 (guide §3, §6.8) reads "if η^(t) ≤ 2/L then E H(θ̄^(t)) ≤ E H(θ̄^(0))". Its
deterministic federated special case is σ = 0 (full local gradients) and λ = 0 (then c_k = 1,
q_k = p_k and H = F = Σ_k p_k F_k): GIFAIR-FL-Global is FedAvg with E local GD steps per
client and p-weighted aggregation, exactly ``worst_case("fedavg", weights=p, K=E, ...)``. The
worst case of H(θ̄^(T)) − H* over L-smooth μ-strongly convex clients (μ = 0: smooth convex)
with H(θ̄^(0)) − H* ≤ Δ0 and heterogeneity Σ_k p_k‖∇F_k(θ*)‖² ≤ ζ² is exact (interpolation,
Taylor–Hendrickx–Glineur 2017); the lemma asks it to be ≤ H(θ̄^(0)) − H*, so the registered
bound ``gifair.lemma85`` is evaluated at H0 = Δ0 (both sides shifted by H*). A worst case above
Δ0 is an instance with H(θ̄^(0)) − H* ≤ Δ0 < H(θ̄^(T)) − H*: an exact counterexample. Its
server models are round ends; the lemma claims every t, so a round end suffices.

With E = 1 the round is one GD step on F (FedAvg with one local step averages to GD), and for
η < 2/L and μ > 0 the worst case is max((1 − ημ)², (1 − ηL)²)^T·Δ0 < Δ0 (Taylor, Hendrickx &
Glineur 2018): the lemma holds there (μ = 0 makes the worst case Δ0 itself, in the limit of a
flat start, which no strict inequality can resolve).

Theorem 3.7 at σ = 0, λ = 0 (ε = 1, H_k = F_k): GIFAIR-FL-Global with the decaying steps
η^(t) = β/(t + γ), β = 2/(εμ), γ = max(8(2 − ε)L/(εμ), E) (the smallest γ the hypotheses allow),
over L-smooth μ-strongly convex clients with ‖θ̄^(0) − θ*‖² ≤ D_0, A3 at every local iterate
(‖∇F_k(θ_k^(t))‖² ≤ G², the deterministic form of E‖g_k‖² ≤ G²) and Γ_max = Σ_kp_k|H* − H_k*| ≤
Γ (H_k* = min F_k; then Γ_K = H* − Σ_kp_kH_k* ≤ Γ_max ≤ Γ too, so every bound is evaluated at
Γ_K = Γ_max = Γ). ``build_pep`` has no step schedule, no gradient bound at the iterates and no
optimum-gap heterogeneity, so this PEP is written here with PEPit (client minimisers as
stationary points, one auxiliary scalar per client for |H* − H_k*|) and solved by the toolkit's
``solve_pep``; it is exact for that class. Judged:

- ``gifair.thm37.distance`` (the repair sketch, a hypothesis): ‖θ̄^(T) − θ*‖² at T = CE; at
  λ = 0 the repair's open gap (weights frozen within a round) does not arise, so this checks the
  rest of it (drift, Γ_max, the Jensen contraction);
- ``gifair.thm37`` as printed: H(θ̄^(T)) − H* (its ξ carries 2Γ_max/η^(T));
- ``gifair.thm37.recursion`` (printed, contraction 1 − η^(t)εμ/K with K clients) and
  ``.corrected`` (1 − η^(t)εμ): the one-step inequality of the proof at a step t inside a round,
  as max(Δ_{t+1} − cΔ_t) ≤ η^(t)²ξ over the class (the registered right side is affine in Δ_t:
  c and η^(t)²ξ are read off it), with ξ = 8(E − 1)²G² + 4LΓ_K + 2Γ_max/η^(t) (σ = 0) and
  no bound on Δ_0 beyond the one A3 implies (μ‖θ̄^(0) − θ*‖ ≤ ‖∇F(θ̄^(0))‖ ≤ G).
"""

from __future__ import annotations

from typing import Any

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Measurement, Sweep, UpperBoundHolds, WorstCaseHolds
from fedtheory.worstcase import (
    WorstCase,
    quadratic_counterexample,
    with_solver_fallback,
    worst_case,
)
from fedtheory.worstcase._solve import solve_pep

LEMMA85 = bounds.get("gifair.lemma85")
THM37 = bounds.get("gifair.thm37")
THM37_DISTANCE = bounds.get("gifair.thm37.distance")
RECURSION = bounds.get("gifair.thm37.recursion")
RECURSION_FIX = bounds.get("gifair.thm37.recursion.corrected")

#: p: the data shares of two clients (λ = 0, so q = p)
WEIGHTS = (0.3, 0.7)


def lemma85_point(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst H(θ̄^(T)) − H* of deterministic GIFAIR-FL-Global at λ = 0 (FedAvg with E local GD
    steps of η = ``eta_L``/L, p-weighted aggregation) after ``rounds`` rounds, over L-smooth
    ``mu``-strongly convex clients with Σ_kp_k‖∇F_k(θ*)‖² ≤ ``zeta2`` and
    H(θ̄^(0)) − H* ≤ ``Delta0``; ``eta`` is returned for the bound's hypothesis η ≤ 2/L."""
    del seed  # deterministic: one SDP
    L = float(params["L"])
    eta = float(params["eta_L"]) / L

    def solve(solver: str) -> WorstCase:
        return worst_case(
            "fedavg",
            m=len(WEIGHTS),
            weights=WEIGHTS,
            K=int(params["E"]),
            T=int(params["rounds"]),
            L=L,
            mu=float(params["mu"]),
            eta=eta,
            zeta2=float(params["zeta2"]),
            Delta0=float(params["Delta0"]),
            measure="function",
            solver=solver,
        )

    case = with_solver_fallback(solve, str(params.get("solver", "auto")))
    return {**case.as_measurement(), "eta": eta}


_FIXED = {"L": 1.0, "Delta0": 1.0, "rounds": 1}
local_steps = Measurement(
    id="gifair/worstcase/lemma85-local-steps",
    experiment=lemma85_point,
    sweeps={
        "smoke": Sweep(grid={"E": [2]}, fixed={**_FIXED, "eta_L": 1.9, "mu": 0.1, "zeta2": 1.0}),
        "quick": Sweep(
            grid={"E": [2, 5], "eta_L": [1.0, 1.9], "mu": [0.0, 0.1], "zeta2": [0.0, 1.0]},
            fixed=_FIXED,
        ),
    },
    notes=(
        "Two clients, p = (0.3, 0.7), λ = 0, σ = 0, L = 1, one round of E ∈ {2, 5} local GD "
        "steps, η ∈ {1, 1.9}/L ≤ 2/L, μ ∈ {0, 0.1}, ζ² ∈ {0, 1}, Δ0 = 1."
    ),
)
local_steps_claim = local_steps.claim(
    id="gifair/worstcase/lemma85-local-steps",
    bound=LEMMA85,
    source=Citation("gifair", "Lemma 8.5, deterministic case (σ = 0, λ = 0)"),
    statement=(
        "If η ≤ 2/L then H(θ̄^(t)) ≤ H(θ̄^(0)) for deterministic GIFAIR-FL-Global with E > 1 "
        "local steps: the worst case of H(θ̄^(E)) − H* over L-smooth (strongly) convex "
        "clients with H(θ̄^(0)) − H* ≤ Δ0 is at most Δ0."
    ),
    criterion=WorstCaseHolds("worst", LEMMA85, x="E", bound_args={"H0": "Delta0"}),
    expect="violated",
    notes=(
        "Erratum (guide §6.8): the proof treats θ̄^(t) as if it were every θ_k^(t), which "
        "holds only at the start of a round. Local steps on different clients raise H even "
        "without noise: the worst case reaches 11.3Δ0 (E = 5, η = 1.9/L, μ = 0, ζ² = Δ0) and "
        "exceeds Δ0 already with a shared minimiser (ζ = 0, μ = 0, E = 2, η = 1/L: 1.07Δ0); "
        "with μ = 0.1 and ζ = 0 it stays below. The table shows every point; "
        "gifair/lemma85/deterministic-restart finds one instance by search."
    ),
)


def lemma85_run(params: dict[str, Any], seed: int) -> dict[str, float]:
    """H(θ̄^(E)) − H* of the toolkit's own FedAvg run (numba round loop) on explicit quadratic
    clients built from the quadratic-class PEP of :func:`lemma85_point`'s setting."""
    del seed  # deterministic: the SDP and the run
    L = float(params["L"])
    counterexample = quadratic_counterexample(
        "fedavg",
        measure="function",
        m=len(WEIGHTS),
        weights=WEIGHTS,
        K=int(params["E"]),
        T=int(params["rounds"]),
        L=L,
        mu=float(params["mu"]),
        eta=float(params["eta_L"]) / L,
        zeta2=float(params["zeta2"]),
        Delta0=float(params["Delta0"]),
    )
    return {
        "run": counterexample.measured,
        "pep_quadratic": counterexample.pep_value,
        "reproduced": float(counterexample.reproduced),
        "Delta0": float(params["Delta0"]),
        "eta": float(params["eta_L"]) / L,
    }


lemma85_run_claim = Claim(
    id="gifair/worstcase/lemma85-run",
    bound=LEMMA85,
    source=Citation("gifair", "Lemma 8.5, deterministic case (σ = 0, λ = 0)"),
    statement=(
        "If η ≤ 2/L then H(θ̄^(t)) ≤ H(θ̄^(0)): checked on the counterexample itself — "
        "explicit quadratic clients built from the PEP's primal solution, run by the toolkit's "
        "own FedAvg (numba round loop, E local GD steps, p-weighted averaging)."
    ),
    experiment=lemma85_run,
    sweeps={
        "smoke": Sweep(grid={"E": [2]}, fixed={**_FIXED, "eta_L": 1.9, "mu": 0.1, "zeta2": 1.0}),
        "quick": Sweep(grid={"E": [2, 5]}, fixed={**_FIXED, "eta_L": 1.9, "mu": 0.1, "zeta2": 1.0}),
    },
    criterion=UpperBoundHolds("run", LEMMA85, x="E", over="every", bound_args={"H0": "Delta0"}),
    expect="violated",
    notes=(
        "The run's instance is exactly feasible (quadratics with μ ⪯ ∇² ⪯ L, heterogeneity and "
        "initial gap met exactly), so its value is a certified lower bound on the worst case; "
        "it equals the quadratic-class PEP value to ~1e-8 (output 'reproduced'). Quadratics do "
        "not attain the smooth strongly convex worst case here (2.77 vs 3.06 at E = 2), but "
        "they already break the lemma."
    ),
)

one_step = Measurement(
    id="gifair/worstcase/lemma85-one-step",
    experiment=lemma85_point,
    sweeps={
        "smoke": Sweep(grid={"eta_L": [1.0]}, fixed={**_FIXED, "E": 1, "mu": 0.1, "zeta2": 1.0}),
        "quick": Sweep(
            grid={"eta_L": [0.5, 1.0, 1.5, 1.9], "mu": [0.05, 0.3], "rounds": [1, 3]},
            fixed={"L": 1.0, "Delta0": 1.0, "E": 1, "zeta2": 1.0},
        ),
    },
    notes=(
        "Two clients, p = (0.3, 0.7), λ = 0, σ = 0, L = 1, E = 1, η ∈ {0.5, 1, 1.5, 1.9}/L, "
        "μ ∈ {0.05, 0.3}, ζ² = 1, Δ0 = 1, 1 or 3 rounds."
    ),
)
one_step_claim = one_step.claim(
    id="gifair/worstcase/lemma85-one-step",
    bound=LEMMA85,
    source=Citation("gifair", "Lemma 8.5, deterministic case with E = 1 (σ = 0, λ = 0)"),
    statement=(
        "With one local step per round (E = 1) and η < 2/L the lemma holds: the worst case of "
        "H(θ̄^(T)) − H* over L-smooth μ-strongly convex clients with H(θ̄^(0)) − H* ≤ Δ0 is "
        "below Δ0."
    ),
    criterion=WorstCaseHolds("worst", LEMMA85, x="eta_L", bound_args={"H0": "Delta0"}),
    notes=(
        "E = 1 is GD on H with step η < 2/L; the worst case is max((1 − ημ)², (1 − ηL)²)^T·Δ0 "
        "(Taylor, Hendrickx & Glineur 2018), so the tightness column is its inverse (for μ = 0 "
        "the worst case is Δ0 itself, a limit the criterion would call inconclusive)."
    ),
)


# ================================================================ Theorem 3.7 (σ = 0, λ = 0)
def schedule(params: dict[str, Any]) -> tuple[float, float]:
    """β = 2/(εμ) and γ = max(8(2 − ε)L/(εμ), E) at ε = 1 (λ = 0)."""
    mu, L, E = float(params["mu"]), float(params["L"]), int(params["E"])
    return 2.0 / mu, max(8.0 * L / mu, float(E))


def _gifair_pep(params: dict[str, Any], solver: str, metric: str, c: float = 0.0) -> WorstCase:
    """The PEP of the module docstring: ``metric`` is "distance" (‖θ̄^(CE) − θ*‖²), "gap"
    (F(θ̄^(CE)) − F*) or "recursion" (‖θ̄^(t+1) − θ*‖² − c‖θ̄^(t) − θ*‖² at t = ``t``)."""
    from PEPit import PEP, Expression
    from PEPit.functions import SmoothStronglyConvexFunction

    mu, L, E, G2 = float(params["mu"]), float(params["L"]), int(params["E"]), float(params["G2"])
    beta, gamma = schedule(params)
    problem = PEP()
    clients = [problem.declare_function(SmoothStronglyConvexFunction, mu=mu, L=L) for _ in WEIGHTS]
    F = sum((w * f for w, f in zip(WEIGHTS[1:], clients[1:], strict=True)), WEIGHTS[0] * clients[0])
    x_star = F.stationary_point()
    f_star = F(x_star)
    spread = []
    for weight, client in zip(WEIGHTS, clients, strict=True):
        local = client(client.stationary_point())
        s = Expression()  # s ≥ |H* − H_k*|
        problem.add_constraint(s >= f_star - local)
        problem.add_constraint(s >= local - f_star)
        spread.append(weight * s)
    problem.add_constraint(sum(spread[1:], spread[0]) <= float(params["Gamma"]))
    x = problem.set_initial_point()
    problem.set_initial_condition((x - x_star) ** 2 <= float(params.get("D0", G2 / mu**2)))
    steps = int(params["t"]) + 1 if metric == "recursion" else E * int(params["rounds"])
    models, averages = [x] * len(WEIGHTS), [x]
    for t in range(steps):
        eta = beta / (t + gamma)
        moved = []
        for y, client in zip(models, clients, strict=True):
            g = client.gradient(y)
            problem.add_constraint(g**2 <= G2)
            moved.append(y - eta * g)
        average = sum(
            (w * y for w, y in zip(WEIGHTS[1:], moved[1:], strict=True)), WEIGHTS[0] * moved[0]
        )
        models = [average] * len(WEIGHTS) if (t + 1) % E == 0 else moved
        averages.append(average)
    last = averages[-1]
    if metric == "distance":
        problem.set_performance_metric((last - x_star) ** 2)
    elif metric == "gap":
        problem.set_performance_metric(F(last) - f_star)
    else:
        problem.set_performance_metric((last - x_star) ** 2 - c * (averages[-2] - x_star) ** 2)
    return solve_pep(
        problem,
        leaf_functions=clients,
        named={},
        solver=solver,
        method="gifair-global",
        measure=metric,
        parameters=dict(params),
    )


def _solved(params: dict[str, Any], metric: str, c: float = 0.0) -> WorstCase:
    first = str(params.get("solver", "auto"))
    return with_solver_fallback(lambda solver: _gifair_pep(params, solver, metric, c), first)


def thm37_point(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst ‖θ̄^(T) − θ*‖² and H(θ̄^(T)) − H* after ``rounds`` rounds of E local steps, and
    the repaired distance bound and the printed Theorem 3.7 at the budgets."""
    del seed
    beta, gamma = schedule(params)
    distance, gap = _solved(params, "distance"), _solved(params, "gap")
    Gamma = float(params["Gamma"])
    args = {
        "D0": float(params["D0"]), "E": int(params["E"]), "eps": 1.0, "G2": float(params["G2"]),
        "gamma": gamma, "Gamma_max": Gamma, "L": float(params["L"]), "mu": float(params["mu"]),
        "sigma2_p2": 0.0, "T": int(params["E"]) * int(params["rounds"]),
    }  # fmt: skip
    return {
        "worst_distance": distance.value,
        "accuracy_distance": distance.gap,
        "worst_gap": gap.value,
        "accuracy_gap": gap.gap,
        "bound_distance": float(THM37_DISTANCE.evaluate(**args)),
        "bound_printed": float(THM37.evaluate(**args, beta=beta, Gamma_K=Gamma)),
        "solve_seconds": distance.solve_seconds + gap.solve_seconds,
    }


def recursion_point(params: dict[str, Any], seed: int) -> dict[str, float]:
    """max(Δ_{t+1} − cΔ_t) at step ``t`` for the printed (c = 1 − η^(t)εμ/K, K = 2 clients)
    and the corrected (c = 1 − η^(t)εμ) recursion, and η^(t)²ξ at the budgets."""
    del seed
    beta, gamma = schedule(params)
    t, Gamma = int(params["t"]), float(params["Gamma"])
    xi = 8 * (int(params["E"]) - 1) ** 2 * float(params["G2"]) + 4 * float(params["L"]) * Gamma
    xi += 2 * Gamma * (t + gamma) / beta  # 2Γ_max/η^(t); σ = 0
    out: dict[str, float] = {}
    for name, bound, extra in (
        ("printed", RECURSION, {"K": len(WEIGHTS)}),
        ("corrected", RECURSION_FIX, {}),
    ):
        args = {"beta": beta, "eps": 1.0, "gamma": gamma, "L": float(params["L"]),
                "mu": float(params["mu"]), "t": t, **extra}  # fmt: skip
        one, two = (float(bound.evaluate(**args, Delta_t=d, xi=xi)) for d in (1.0, 2.0))
        c, rest = two - one, 2 * one - two  # the right side is c·Δ_t + rest
        case = _solved(params, "recursion", c)
        out.update({f"worst_{name}": case.value, f"accuracy_{name}": case.gap})
        out.update({f"bound_{name}": rest, f"c_{name}": c})
    return out


_THM37 = {"L": 1.0, "mu": 0.5, "D0": 1.0, "Gamma": 0.01}
thm37_runs = Measurement(
    id="gifair/worstcase/thm37",
    experiment=thm37_point,
    sweeps={
        "smoke": Sweep(grid={"E": [2]}, fixed={**_THM37, "rounds": 2, "G2": 1.0}),
        "quick": Sweep(
            points=[
                {"E": E, "rounds": 8 // E, "G2": g2, "Gamma": gam}
                for E in (1, 2, 4)
                for g2, gam in ((0.1, 0.01), (0.1, 0.5), (1.0, 0.01))
            ],
            fixed={k: v for k, v in _THM37.items() if k != "Gamma"},
        ),
    },
    uses=[THM37, THM37_DISTANCE],
    notes=(
        "Two clients, p = (0.3, 0.7), λ = 0 (ε = 1), σ = 0, L = 1, μ = 0.5, β = 2/μ = 4, "
        "γ = max(8L/μ, E) = 16, T = CE = 8 local steps (4 at smoke) with E ∈ {1, 2, 4}, "
        "D_0 = 1, (G², Γ) ∈ {(0.1, 0.01), (0.1, 0.5), (1, 0.01)}."
    ),
)
thm37_distance = thm37_runs.claim(
    id="gifair/worstcase/thm37-distance",
    bound=THM37_DISTANCE,
    statement=(
        "The repaired Theorem 3.7 at σ = 0, λ = 0: ‖θ̄^(T) − θ*‖² ≤ (4ξ_fix/(ε²μ²) + (γ + 1)"
        "‖θ̄^(0) − θ*‖²)/(γ + T), ξ_fix = 32(E − 1)²G² + 12LΓ_max, for every L-smooth "
        "μ-strongly convex clients meeting A3 along the trajectory."
    ),
    criterion=WorstCaseHolds(
        "worst_distance", "bound_distance", accuracy="accuracy_distance", x="E"
    ),
    notes=(
        "A check of the repair sketch (guide §3) where its frozen-weights gap cannot arise "
        "(λ = 0); it says nothing about λ > 0."
    ),
)
thm37_printed = thm37_runs.claim(
    id="gifair/worstcase/thm37",
    bound=THM37,
    statement=(
        "Theorem 3.7 as printed at σ = 0, λ = 0: H(θ̄^(T)) − H* ≤ (L/2)(4ξ/(ε²μ²) + (γ + 1)"
        "‖θ̄^(0) − θ*‖²)/(γ + T), ξ = 8(E − 1)²G² + 4LΓ_K + 2Γ_max/η^(T)."
    ),
    criterion=WorstCaseHolds("worst_gap", "bound_printed", accuracy="accuracy_gap", x="E"),
    notes=(
        "Deterministic special case of the printed bound (η^(T) = β/(T + γ) in its ξ, as "
        "registered); its non-decay as T → ∞ (guide §6.2) is a looseness, not a failure."
    ),
)
recursion_runs = Measurement(
    id="gifair/worstcase/thm37-recursion",
    experiment=recursion_point,
    sweeps={
        "smoke": Sweep(
            grid={"t": [1]}, fixed={"L": 1.0, "mu": 0.5, "Gamma": 0.01, "E": 2, "G2": 1.0}
        ),
        "quick": Sweep(
            grid={"E": [1, 2, 4], "t": [0, 1, 3], "Gamma": [0.01, 0.5]},
            fixed={k: v for k, v in {**_THM37, "G2": 1.0}.items() if k not in ("Gamma", "D0")},
        ),
    },
    uses=[RECURSION, RECURSION_FIX],
    notes=(
        "Two clients, p = (0.3, 0.7), λ = 0, σ = 0, L = 1, μ = 0.5, β = 4, γ = max(16, E), "
        "G² = 1, Γ ∈ {0.01, 0.5}, step t ∈ {0, 1, 3} of rounds of E ∈ {1, 2, 4} local steps "
        "(t + 1 inside or at the end of a round)."
    ),
)
recursion_printed = recursion_runs.claim(
    id="gifair/worstcase/thm37-recursion",
    bound=RECURSION,
    statement=(
        "The proof's recursion at σ = 0, λ = 0: Δ_{t+1} ≤ (1 − η^(t)εμ/K)Δ_t + η^(t)²ξ for "
        "the virtual average at every step t, ξ = 8(E − 1)²G² + 4LΓ_K + 2Γ_max/η^(t)."
    ),
    criterion=WorstCaseHolds("worst_printed", "bound_printed", accuracy="accuracy_printed", x="t"),
    notes="The stray K (guide §6.3) only weakens the contraction the recursion asks for.",
)
recursion_corrected = recursion_runs.claim(
    id="gifair/worstcase/thm37-recursion-corrected",
    bound=RECURSION_FIX,
    statement=(
        "The recursion with Jensen's contraction: Δ_{t+1} ≤ (1 − η^(t)εμ)Δ_t + η^(t)²ξ at "
        "σ = 0, λ = 0, for the virtual average at every step t."
    ),
    criterion=WorstCaseHolds(
        "worst_corrected", "bound_corrected", accuracy="accuracy_corrected", x="t"
    ),
    notes="Same PEPs as the printed recursion with the contraction c = 1 − η^(t)μ.",
)
