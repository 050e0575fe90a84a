"""Exact worst cases of FedAvg's local steps: when do they help, and with which step (issue 16).

FedAvg with ``m`` clients, ``K`` local gradient steps per round and averaging, over L-smooth
μ-strongly convex clients with heterogeneity at the optimum (1/m)Σ‖∇f_i(x*)‖² ≤ ζ² and
‖x_0 − x*‖² ≤ R² (``fedtheory.worstcase``; L = 1, μ = 0.1, R = 1, m = 2).

- Without heterogeneity FedAvg *is* gradient descent with K·T steps in the worst case, so local
  steps always help — a reduction of the classic exact worst case (gating).
- With heterogeneity there is no statement in the catalog: the toolkit's findings are reported
  (not gating) and drawn in ``figures/worstcase_fedavg.py`` — the best number of local steps
  falls as ζ/(μR) grows, and the worst-case-optimal local step shrinks with K and ζ.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Identity, Monotone, Sweep, WorstCaseHolds
from fedtheory.worstcase import optimal_step, worst_case

#: The function class and the federation of every experiment here.
CLASS = {"m": 2, "L": 1.0, "mu": 0.1, "R2": 1.0}
#: Local-step counts of the local-steps finding.
LOCAL_STEPS = (1, 2, 3, 4, 5)

_FINDING = Citation(
    "classic",
    "FedAvg's local steps in the worst case (a finding of this toolkit's PEPs)",
    reference=(
        "Performance estimation: Drori & Teboulle (2014); Taylor, Hendrickx & Glineur (2017); "
        "PEPit (Goujaud et al. 2024). No statement in the catalog covers heterogeneous clients."
    ),
)


def fedavg_distance(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst ‖x_T − x*‖² of FedAvg at ζ² = ``zeta2``; K·T for the GD reduction."""
    del seed  # an SDP: deterministic
    K, T = int(params["K"]), int(params["T"])
    result = worst_case(
        "fedavg", K=K, T=T, eta=float(params["eta"]), zeta2=float(params["zeta2"]), **CLASS
    )
    return {
        **result.as_measurement(),
        "KT": float(K * T),
        "L": CLASS["L"],
        "mu": CLASS["mu"],
        "D0": CLASS["R2"],
    }


homogeneous_is_gd = Claim(
    id="classic/worstcase/fedavg-homogeneous-is-gd",
    statement=(
        "FedAvg with K local steps over clients that share their minimiser (ζ = 0) has exactly "
        "the worst case of gradient descent with K·T steps, max(|1 − ηL|, |1 − ημ|)^{2KT} R²: "
        "in the worst case local steps are free progress."
    ),
    bound=bounds.get("classic.gd.distance.exact"),
    experiment=fedavg_distance,
    sweeps={
        "smoke": Sweep(grid={"K": [1, 2]}, fixed={"T": 1, "eta": 0.5, "zeta2": 0.0}),
        "quick": Sweep(grid={"T": [1, 2], "K": [1, 2, 4]}, fixed={"eta": 0.5, "zeta2": 0.0}),
    },
    criterion=WorstCaseHolds(
        "worst", bounds.get("classic.gd.distance.exact"), tight=True, x="K", bound_args={"T": "KT"}
    ),
    notes="ζ = 0 is imposed structurally (∇f_i(x*) = 0 for every client), not as ‖·‖² ≤ 0.",
)


def best_local_steps(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst case of FedAvg for each K of LOCAL_STEPS at ζ² = ``zeta2``; the best K."""
    del seed
    values = []
    for K in LOCAL_STEPS:
        result = worst_case(
            "fedavg",
            K=K,
            T=int(params["T"]),
            eta=float(params["eta"]),
            zeta2=float(params["zeta2"]),
            **CLASS,
        )
        values.append(result.value)
    best = int(np.argmin(values))
    return {
        "best_K": float(LOCAL_STEPS[best]),
        "zeta_over_mu_R": float(np.sqrt(float(params["zeta2"])) / CLASS["mu"]),
        **{f"worst_K{K}": value for K, value in zip(LOCAL_STEPS, values, strict=True)},
    }


local_steps_finding = Claim(
    id="classic/worstcase/fedavg-best-local-steps",
    statement=(
        "With heterogeneous clients the worst-case-best number of local steps falls as ζ/(μR) "
        "grows: local steps help while the clients' drift stays below the progress they make."
    ),
    source=_FINDING,
    experiment=best_local_steps,
    sweeps={
        "smoke": Sweep(grid={"zeta2": [0.0, 1.0]}, fixed={"T": 1, "eta": 0.5}),
        "quick": Sweep(grid={"zeta2": [0.0, 0.1, 0.3, 1.0]}, fixed={"T": 2, "eta": 0.5}),
    },
    criterion=Monotone("zeta2", "best_K", direction="decreasing"),
    gating=False,
    notes=(
        f"K ∈ {LOCAL_STEPS}, η = 0.5, m = 2, L = 1, μ = 0.1, R = 1; best_K is the K of the "
        "least worst case on that grid (ties: the smallest K)."
    ),
)


def step_search(params: dict[str, Any], seed: int) -> dict[str, float]:
    """The worst-case-optimal local step of FedAvg (K local steps, T rounds, ζ²)."""
    del seed
    K = int(params["K"])
    search = optimal_step(
        "fedavg",
        low=0.05,
        high=1.95 if K == 1 else 1.2,
        grid=int(params.get("grid", 9)),
        xatol=float(params.get("xatol", 1e-4)),
        K=K,
        T=int(params["T"]),
        zeta2=float(params["zeta2"]),
        solver="CLARABEL",
        **CLASS,
    )
    return {
        "eta_star": search.eta,
        "worst": search.worst_case.value,
        "failed_steps": float(len(search.failed)),
        "L": CLASS["L"],
        "mu": CLASS["mu"],
    }


gd_optimal_step = Claim(
    id="classic/worstcase/fedavg-one-step-optimal-step",
    statement=(
        "With one local step FedAvg is GD on the average, and the step minimising its exact "
        "worst case is 2/(μ + L) whatever the heterogeneity."
    ),
    bound=bounds.get("classic.gd.optimal-step"),
    experiment=step_search,
    sweeps={
        "smoke": Sweep(grid={"zeta2": [1.0]}, fixed={"K": 1, "T": 1}),
        "quick": Sweep(grid={"zeta2": [0.0, 1.0], "T": [1, 2]}, fixed={"K": 1}),
    },
    criterion=Identity("eta_star", bounds.get("classic.gd.optimal-step"), rtol=1e-3),
    notes=(
        "A search (9-point grid, then bounded Brent to |Δη| ≤ 1e-4 ≈ 5.5e-5 relative): the "
        "tolerance 1e-3 is the search's, not the theorem's."
    ),
)

optimal_step_finding = Claim(
    id="classic/worstcase/fedavg-optimal-step-shrinks",
    statement=(
        "With heterogeneous clients the worst-case-optimal local step shrinks as the number of "
        "local steps K grows."
    ),
    source=_FINDING,
    experiment=step_search,
    sweeps={
        "smoke": Sweep(grid={"K": [1, 2]}, fixed={"T": 1, "zeta2": 1.0, "grid": 5, "xatol": 1e-2}),
        "quick": Sweep(
            grid={"zeta2": [0.1, 1.0], "K": [1, 2, 3, 4]},
            fixed={"T": 2, "grid": 7, "xatol": 1e-3},
        ),
    },
    criterion=Monotone("K", "eta_star", direction="decreasing"),
    gating=False,
    notes=(
        "Each point is a 1-D search over η ∈ [0.05, 1.2] (K > 1; [0.05, 1.95] for K = 1): a "
        "7-point grid then Brent to |Δη| ≤ 1e-3, about 15 PEPs, with Clarabel; steps whose PEP "
        "it cannot solve are left out (failed_steps counts them)."
    ),
)


def client_count(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Worst case of the PEP of all m clients (``exploit_symmetry=False``) and the library's
    default, which solves two clients and lifts the instance (``solved_clients`` = 2)."""
    del seed
    common = {
        "m": int(params["m"]),
        "K": 2,
        "T": 2,
        "eta": 0.5,
        "zeta2": 1.0,
        "measure": str(params["measure"]),
        **{k: v for k, v in CLASS.items() if k != "m"},
    }
    method = str(params["method"])
    full = worst_case(method, exploit_symmetry=False, **common)
    reduced = worst_case(method, **common)
    return {
        "worst": full.value,
        "reduced": reduced.value,
        "solved_clients": float(reduced.solved_clients or common["m"]),
        "accuracy": full.as_measurement()["accuracy"] + reduced.as_measurement()["accuracy"],
    }


client_count_finding = Claim(
    id="classic/worstcase/client-count-free",
    statement=(
        "With uniform weights, the worst case of a method whose clients all take the same step "
        "(FedAvg, SCAFFOLD) is the same for every number of clients m ≥ 2: the PEP of m clients "
        "reduces exactly to the PEP of two."
    ),
    source=Citation(
        "classic",
        "Client-symmetric reduction of federated PEPs (fedtheory.worstcase._symmetry)",
        reference=(
            "A permutation-invariant SDP has a permutation-invariant optimum; the Gram matrix "
            "then splits into a mean block and a deviation block, neither depending on m "
            "(docs/worstcase.md)."
        ),
    ),
    experiment=client_count,
    sweeps={
        "smoke": Sweep(grid={"m": [3]}, fixed={"method": "fedavg", "measure": "distance"}),
        "quick": Sweep(
            grid={
                "method": ["fedavg", "scaffold"],
                "measure": ["distance", "function"],
                "m": [3, 4],
            }
        ),
    },
    criterion=WorstCaseHolds("worst", "reduced", tight=True, x="m"),
    notes=(
        "K = 2, T = 2, η = 0.5, ζ² = 1, L = 1, μ = 0.1, R = 1. worst: the PEP of all m clients; "
        "reduced: the library's default, the PEP of two clients (solved_clients). The tolerance "
        "is both SDPs' accuracies plus 1e-6 relative."
    ),
)
