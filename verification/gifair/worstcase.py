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

Theorem 3.7's σ = 0 case is not checked here: its right side is driven by G² (a bound on the
gradients along the trajectory, A3), Γ_K = H* − Σ_kp_kH_k* and Γ_max = Σ_kp_k|H* − H_k*|, with
the decaying steps η^(t) = β/(t + γ), γ ≥ 8(2 − ε)L/(εμ); a PEP of it needs a step schedule,
gradient bounds at every local iterate and the optimum gaps of every client, which the
worst-case layer does not describe (see the report of issue 16).
"""

from __future__ import annotations

from typing import Any

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.errors import SolverError
from fedtheory.verify import Measurement, Sweep, WorstCaseHolds
from fedtheory.worstcase import SOLVERS, WorstCase, worst_case

LEMMA85 = bounds.get("gifair.lemma85")

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

    first = str(params.get("solver", "CLARABEL"))
    try:  # the other free solver when the first does not reach "optimal"
        case = solve(first)
    except SolverError:
        case = solve(SOLVERS[first])
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
