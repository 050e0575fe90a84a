"""Worst cases of Chen et al.'s FedProx optimization statements (Lemmas 14–15, Proposition 16).

The statements bound Algorithm 2 (reading guide ``minimax.md`` §2.5, App. B) in mean square over
its stochastic gradients; its deterministic special case — full-batch gradients, full
participation, the same step schedules — must satisfy them too, so the exact worst case of the
deterministic method over the statement's class (a PEP, ``fedtheory.worstcase`` method
``"fedprox-moreau"``) is a test: a bound below it is false.

Class (Assumption A(a, b) as the proofs use it): every client risk L_i μ-strongly convex and
β-smooth on ℝ^d; 𝒲 any closed convex set inside a ball of diameter D (PEPit's convex indicator
with radius D/2: a subclass of the sets of diameter D, so a violation found is a counterexample
to the statement); starts w_0^g, w_0^(i) ∈ 𝒲; the minimiser of every L_i in 𝒲 (hidden in the
proofs, guide §6 item 7: Lemma 18's βD bound uses a stationary point of L_i in 𝒲). With it,
L_i − min_𝒲 L_i ≤ βD²/2 on 𝒲, so Assumption A holds with ‖ℓ‖∞ = βD²/2 (each client one sample,
ℓ = L_i − min L_i); then 2λ‖ℓ‖∞ = λβD² ≥ min(β², λ²)D² and G_λ = min(β², λ²)D².

Lemma 14 is posed at β > μ (the inner loop alone: one round, one client). Lemma 15 and
Proposition 16 need K_τ + 1 ≥ (4τ + 20)λ²β²D²/(μ²G_λ) ≥ 20 local steps per round (38): at
β > μ that is ≥ 40 points per client and both free solvers stop at "optimal_inaccurate"
(measured: β = 1.05, K_0 = 22, one client, one round). They are posed at β = μ, where
L_i = (μ/2)‖w − c_i‖² + const: the local objective is then ((μ + λ)/2)‖w − c'‖² + const and
the first step 1/(μ + λ) lands on P_𝒲(c'), its exact minimiser over 𝒲, where every later step
stays (P_𝒲 of a point between P_𝒲(c') and c' is P_𝒲(c')). So for every K_τ ≥ 1 — in
particular the K_τ of (38) — and every K_T ≥ 1 the iterates are those of one local step, and
the PEP runs one (``tests/test_worstcase_minimax.py`` checks K = 1 against K = 3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.algorithms import fedprox
from fedtheory.bounds import Citation
from fedtheory.errors import ParameterError
from fedtheory.problems import FederatedDataset
from fedtheory.verify import Claim, Measurement, Sweep, UpperBoundHolds, WorstCaseHolds
from fedtheory.worstcase import worst_case

LEMMA14 = bounds.get("minimax.lemma14")
LEMMA15 = bounds.get("minimax.lemma15")
PROP16 = bounds.get("minimax.prop16")


def local_steps(mu: float, lam: float, count: int) -> list[float]:
    """Lemma 14's local steps η_k = 1/((μ + λ)(k + 1)), k = 0, …, count − 1."""
    return [1.0 / ((mu + lam) * (k + 1)) for k in range(count)]


def server_steps(mu: float, lam: float, rounds: int) -> list[float]:
    """Lemma 15's server steps η_t^g = 2(μ + λ)/(λμ(t + 1)), t = 0, …, rounds − 1."""
    return [2.0 * (mu + lam) / (lam * mu * (t + 1)) for t in range(rounds)]


def inner_loop(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst case of ‖w_k − Prox_{L/λ}(w^g)‖² after k projected steps η_k = 1/((μ+λ)(k+1)).

    One client, one round: the local objective L + (λ/2)‖· − w^g‖² with L μ-strongly convex and
    β-smooth, its minimiser in 𝒲, w^g and the warm start in 𝒲 (the setting of Algorithm 2's
    inner loop, guide §2.5).
    """
    del seed  # deterministic: one SDP
    mu, beta, lam, D, k = (float(params[n]) for n in ("mu", "beta", "lam", "D", "k"))
    result = worst_case(
        method="fedprox-moreau",
        m=1,
        T=1,
        K=int(k),
        L=beta,
        mu=mu,
        lam=lam,
        radius=D / 2,
        eta=local_steps(mu, lam, int(k)),
        interior_optima=True,
        measure="local",
    )
    return result.as_measurement()


def _points(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    return [dict(zip(names, row, strict=True)) for row in rows]


_INNER = ("beta", "lam", "k")
inner = Measurement(
    id="minimax/worstcase/inner-loop",
    experiment=inner_loop,
    sweeps={
        "smoke": Sweep(points=_points(_INNER, [(2.0, 1.0, 1)]), fixed={"mu": 1.0, "D": 1.0}),
        "quick": Sweep(
            points=_points(
                _INNER,
                [
                    (2.0, 1.0, 1),
                    (2.0, 1.0, 4),
                    (1.5, 0.1, 2),
                    (1.5, 1.0, 8),
                    (1.06, 0.1, 8),
                    (1.1, 0.1, 10),
                    (1.25, 1.0, 12),
                ],
            ),
            fixed={"mu": 1.0, "D": 1.0},
        ),
    },
    notes=(
        "One client, one round, μ = 1, D = 1. The bound 8β²D²/(μ²(k + 1)) is at least D² — "
        "which every distance in 𝒲 is below — unless k + 1 > 8β²/μ²; the last three points "
        "are in that regime (β close to μ). The worst cases measured are "
        "((β − μ)/(β + λ))²D²/k² (to the solver's accuracy), 10² to 10⁴ below the bound."
    ),
)
lemma14 = inner.claim(
    id="minimax/worstcase/lemma14",
    statement=(
        "Lemma 14, deterministic case: after k projected gradient steps "
        "η_k = 1/((μ + λ)(k + 1)) on the (μ + λ)-strongly convex local prox objective, a "
        "client's model is within 8β²D²/(μ²(k + 1)) of its proximal point, for every "
        "μ-strongly convex β-smooth risk, every 𝒲 of diameter D and every start in 𝒲."
    ),
    bound=LEMMA14,
    criterion=WorstCaseHolds("worst", LEMMA14, x="k"),
)


def outer_loop(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst case of Algorithm 2 at β = μ (exact local solves, see the module docstring).

    ``measure`` ``"distance"``: ‖w_T^g − w̃^g‖² (Lemma 15); ``"objective"``: ℰ_OPT, objective
    (20) after Stage II minus its minimum (Proposition 16). ``project`` says whether w^g is
    projected onto 𝒲 after each server step (the toolkit's default; Algorithm 2 as printed
    does not, guide §6 item 2).
    """
    del seed
    m, T = int(params["m"]), int(params["T"])
    mu, lam, D = float(params["mu"]), float(params["lam"]), float(params["D"])
    measure = str(params["measure"])
    result = worst_case(
        method="fedprox-moreau",
        m=m,
        T=T,
        K=1,
        K_final=1 if measure == "objective" else 0,
        L=mu,
        mu=mu,
        lam=lam,
        radius=D / 2,
        eta=local_steps(mu, lam, 1),
        eta_g=server_steps(mu, lam, T),
        project_global=bool(params["project"]),
        interior_optima=True,
        measure=measure,
    )
    return {
        **result.as_measurement(),
        "beta": mu,
        "ell_inf": mu * D**2 / 2,
        "p_norm2": 1.0 / m,
    }


_OUTER = ("m", "lam", "T")
_OUTER_FIXED = {"mu": 1.0, "D": 1.0}


def _outer(rows: list[tuple[Any, ...]], **fixed: Any) -> Sweep:
    return Sweep(points=_points(_OUTER, rows), fixed={**_OUTER_FIXED, **fixed})


_NOTE = (
    "β = μ = 1, D = 1, p_i = 1/m, full participation, exact gradients; every L_i = "
    "½‖w − c_i‖² with c_i ∈ 𝒲 (‖ℓ‖∞ = βD²/2, G_λ = min(β², λ²)D²). Local steps "
    "1/((μ+λ)(k+1)), server steps 2(μ+λ)/(λμ(t+1)); any K_τ ≥ 1 gives the same iterates "
    "(module docstring), so (38) holds."
)
outer_projected = Measurement(
    id="minimax/worstcase/outer-loop-projected",
    experiment=outer_loop,
    sweeps={
        "smoke": _outer([(1, 1.0, 1)], project=True, measure="distance"),
        "quick": _outer(
            [(1, 1.0, 1), (1, 10.0, 1), (1, 1.0, 3), (2, 1.0, 3), (2, 0.1, 4), (2, 3.0, 5)],
            project=True,
            measure="distance",
        ),
    },
    notes=_NOTE + " w^g is projected onto 𝒲 after each server step (the toolkit's Algorithm 2, "
    "project_global=True). On 𝒲 the objective Σp_iF_i is then exactly the quadratic "
    "(μ_F/2)‖w − w̃^g‖², so the step 1/μ_F of round 1 lands on w̃^g: the worst case is 0 "
    "from T = 2 on.",
)
lemma15 = outer_projected.claim(
    id="minimax/worstcase/lemma15",
    statement=(
        "Lemma 15, deterministic case, with w^g projected onto 𝒲: after T rounds "
        "‖w_T^g − w̃^g‖² ≤ 12(λ + μ)²m‖p‖²G_λ/(λ²μ²(T + 1))."
    ),
    bound=LEMMA15,
    criterion=WorstCaseHolds("worst", LEMMA15, x="T"),
)

outer_printed = Measurement(
    id="minimax/worstcase/outer-loop-unprojected",
    experiment=outer_loop,
    sweeps={
        "smoke": _outer([(1, 10.0, 2)], project=False, measure="distance"),
        "quick": _outer(
            [(1, 1.0, 3), (1, 10.0, 2), (2, 1.0, 3), (2, 10.0, 2), (2, 0.1, 4)],
            project=False,
            measure="distance",
        ),
    },
    notes=_NOTE + " w^g is not projected (Algorithm 2 as printed).",
)
lemma15_unprojected = outer_printed.claim(
    id="minimax/worstcase/lemma15-unprojected",
    statement=(
        "Lemma 15 for Algorithm 2 as printed (no projection of w^g): after T rounds "
        "‖w_T^g − w̃^g‖² ≤ 12(λ + μ)²m‖p‖²G_λ/(λ²μ²(T + 1))."
    ),
    bound=LEMMA15,
    criterion=WorstCaseHolds("worst", LEMMA15, x="T"),
    expect="violated",
    notes=(
        "Erratum (guide §6 item 2): the first server step 2(μ+λ)/μ reflects w^g through w̃^g "
        "and out of 𝒲, where Lemma 18's ‖∇F_i‖² ≤ G_λ no longer holds. Worst case λ²D² at "
        "T = 2 for λ > μ: 100 against the bound 4.84 at λ = 10. Instance (one client, d = 1): "
        "𝒲 = [−½, ½], L(w) = ½(w − ½)², w_0^g = −½; then w_1^g = 3/2, the local step is "
        "clipped at ½ and w_2^g = 3/2 − 11 = −9.5, ten units from w̃^g = ½."
    ),
)


def outer_loop_run(params: dict[str, Any], seed: int) -> dict[str, float]:
    """‖w_T^g − w̃^g‖² and ℰ_OPT of the toolkit's own FedProx (numba round loop, Algorithm 2 as
    printed: no projection of w^g) on the one-client instance of Lemma 15's erratum.

    d = 1, 𝒲 = [−D/2, D/2], one sample z = D/2 (L(w) = ½(w − z)², β = μ = 1, w̃^g = z),
    w_0^g = w_0 = −D/2, the theory's local and server steps. The instance is the PEP's
    worst case at T = 2 (λ²D², ``tests/test_worstcase_minimax.py``); at T = 3 the run goes
    further out.
    """
    del seed  # deterministic: full-batch gradients of one sample
    lam, T, D = float(params["lam"]), int(params["T"]), float(params["D"])
    if float(params["mu"]) != 1.0:
        raise ParameterError(
            parameter="mu", value=params["mu"], rule="must be 1 (the instance has β = μ = 1)"
        )
    z = D / 2
    data = FederatedDataset(np.array([[[z]]]), np.zeros((1, 1)), np.array([1]), "mean", D / 2)
    run = fedprox(
        data,
        lam=lam,
        rounds=T,
        local_steps=int(params["K"]),
        local_step="theory",
        server_step="theory",
        mu=1.0,
        batch=1,
        project_global=False,
        init_global=np.array([-z]),
        init_local=np.array([[-z]]),
        seed=0,
    )
    w_global, w_local = float(run.global_model[0]), float(run.local_models[0, 0])
    return {
        "run": float((w_global - z) ** 2),
        # ℰ_OPT after Stage II: objective (20) at (w_T^g, w_{T+1}) minus its minimum 0 (at
        # w^g = w = z); Stage II's first step already solves the 1-D local problem at β = μ
        "run_objective": 0.5 * (w_local - z) ** 2 + 0.5 * lam * (w_global - w_local) ** 2,
        "beta": 1.0,
        "ell_inf": D**2 / 2,
        "p_norm2": 1.0,
    }


_RUN_FIXED = {"m": 1, "mu": 1.0, "D": 1.0, "K": 4}
_RUN_SWEEPS = {
    "smoke": Sweep(grid={"lam": [10.0], "T": [2]}, fixed=_RUN_FIXED),
    "quick": Sweep(grid={"lam": [3.0, 10.0], "T": [2, 3]}, fixed=_RUN_FIXED),
}
lemma15_unprojected_run = Claim(
    id="minimax/worstcase/lemma15-unprojected-run",
    bound=LEMMA15,
    source=Citation("minimax", "Lemma 15 (Algorithm 2 as printed, deterministic case)"),
    statement=(
        "Lemma 15 for Algorithm 2 as printed (no projection of w^g), checked on the "
        "counterexample itself: the toolkit's own FedProx run on the one-client instance of "
        "minimax/worstcase/lemma15-unprojected stays within 12(λ + μ)²m‖p‖²G_λ/(λ²μ²(T + 1))."
    ),
    experiment=outer_loop_run,
    sweeps=_RUN_SWEEPS,
    criterion=UpperBoundHolds("run", LEMMA15, x="T", over="every"),
    expect="violated",
    notes=(
        "A counterexample that runs: 𝒲 = [−½, ½], L(w) = ½(w − ½)², w_0^g = −½, K = 4 local "
        "steps (every K ≥ 1 gives the same iterates at β = μ). At λ = 10 the run reaches "
        "λ²D² = 100 at T = 2 — the PEP's worst case — and 3136 at T = 3."
    ),
)

prop16_unprojected_run = Claim(
    id="minimax/worstcase/prop16-unprojected-run",
    bound=PROP16,
    source=Citation("minimax", "Proposition 16 (Algorithm 2 as printed, deterministic case)"),
    statement=(
        "Proposition 16 (corrected, T + 1) for Algorithm 2 as printed, checked on the "
        "counterexample itself: ℰ_OPT of the toolkit's own FedProx run (Stage I and Stage II) "
        "on the one-client instance of minimax/worstcase/lemma15-unprojected stays within "
        "4(β + λ)β²D²/(μ²(K_T + 1)) + 6(λ + μ)²m‖p‖²G_λ/(λμ²(T + 1))."
    ),
    experiment=outer_loop_run,
    sweeps=_RUN_SWEEPS,
    criterion=UpperBoundHolds(
        "run_objective", PROP16, x="T", over="every", bound_args={"K_T": 1_000_000.0}
    ),
    expect="violated",
    notes=(
        "The run of minimax/worstcase/lemma15-unprojected-run; ℰ_OPT = ½(w_{T+1} − ½)² + "
        "(λ/2)(w_T^g − w_{T+1})² (the minimum of (20) is 0). At λ = 10, T = 2: 405.5, the "
        "PEP's worst case, against 24.2. The bound is held at K_T = 10⁶, its smallest value "
        "in practice; the run's K_T = 4 steps already solve Stage II exactly (β = μ, d = 1)."
    ),
)

objective_projected = Measurement(
    id="minimax/worstcase/optimization-error-projected",
    experiment=outer_loop,
    sweeps={
        "smoke": _outer([(1, 1.0, 1)], project=True, measure="objective"),
        "quick": _outer(
            [(1, 1.0, 1), (1, 10.0, 1), (1, 1.0, 3), (2, 1.0, 3), (2, 0.1, 4), (2, 3.0, 5)],
            project=True,
            measure="objective",
        ),
    },
    notes=_NOTE + " w^g projected; Stage II runs K_T ≥ 1 local steps (the same output for "
    "every K_T ≥ 1), so the bound is held at K_T = 10⁶, its smallest value in practice.",
)
prop16 = objective_projected.claim(
    id="minimax/worstcase/prop16",
    statement=(
        "Proposition 16 (corrected, T + 1), deterministic case with w^g projected: "
        "ℰ_OPT ≤ 4(β + λ)β²D²/(μ²(K_T + 1)) + 6(λ + μ)²m‖p‖²G_λ/(λμ²(T + 1))."
    ),
    bound=PROP16,
    criterion=WorstCaseHolds("worst", PROP16, x="T", bound_args={"K_T": 1_000_000.0}),
)

objective_printed = Measurement(
    id="minimax/worstcase/optimization-error-unprojected",
    experiment=outer_loop,
    sweeps={
        "smoke": _outer([(1, 10.0, 2)], project=False, measure="objective"),
        "quick": _outer(
            [(1, 1.0, 3), (1, 10.0, 2), (2, 1.0, 3), (2, 0.1, 4)],
            project=False,
            measure="objective",
        ),
    },
    notes=_NOTE + " w^g not projected (Algorithm 2 as printed); the bound at K_T = 10⁶.",
)
prop16_unprojected = objective_printed.claim(
    id="minimax/worstcase/prop16-unprojected",
    statement=(
        "Proposition 16 (corrected, T + 1) for Algorithm 2 as printed (no projection of w^g): "
        "ℰ_OPT ≤ 4(β + λ)β²D²/(μ²(K_T + 1)) + 6(λ + μ)²m‖p‖²G_λ/(λμ²(T + 1))."
    ),
    bound=PROP16,
    criterion=WorstCaseHolds("worst", PROP16, x="T", bound_args={"K_T": 1_000_000.0}),
    expect="violated",
    notes=(
        "Follows Lemma 15's erratum: on the instance of minimax/worstcase/lemma15-unprojected "
        "w_2^g lies 10 units outside 𝒲 and ℰ_OPT is 405.5 against the bound 24.2 (λ = 10, "
        "T = 2)."
    ),
)
