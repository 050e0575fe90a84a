"""Framework reductions of Algorithm 1 (reading guide §2.1, §5 check 3), judged against exact GD.

The local direction (2), ĝ = g + γ·c, with exact local gradients g = ∇f_i(x) and pure linear
heterogeneity f_i = F + ⟨b_i, x⟩, Σ_i b_i = 0 (``linear_heterogeneity``: ∇f_i − ∇F = b_i):

- SCAFFOLD I (c = ∇F(x_{r−1}) − ∇f_i(x_{r−1}) = −b_i, γ = 1) and the FZooS oracle (c =
  ∇F(x) − ∇f_i(x), γ = 1; adaptive at the current iterate, or the fixed vector of Fig. 6b at
  x_{r−1}) use ĝ = ∇F(x) exactly, so Ξ ≡ 0, and every client follows GD on F: the server
  iterate x_r equals centralized GD with step η after rT steps.
- FedZO with T = 1 averages one step of every client, x_r = x_{r−1} − η·mean_i∇f_i = GD on F,
  for any heterogeneity (here ``random_quadratics``, whose clients differ in curvature too).

The reference is GD computed here from the problem's exact ∇F (not from the runners' logs);
the tolerance 1e−12 is rounding. A control shows the comparison has teeth on the same data:
FedZO with T > 1 and no correction keeps Ξ = ‖b_i‖² > 0.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from fedtheory.bounds import Citation
from fedtheory.errors import ParameterError
from fedtheory.papers.fzoos.algorithms import fedzo, fzoos, scaffold_zo
from fedtheory.papers.fzoos.problems import linear_heterogeneity, random_quadratics
from fedtheory.verify import Identity, Measurement, Sweep

#: Rounding tolerance of the identities (guide check 3: 1e−12).
ATOL = 1e-12


@functools.lru_cache(maxsize=8)
def _problem(kind: str, d: int, N: int, seed: int) -> Any:
    if kind == "linear":
        return linear_heterogeneity(d, N, alpha=0.5, beta=2.0, spread=1.0, seed=seed)
    return random_quadratics(d, N, alpha=0.5, beta=2.0, C=1.0, seed=seed)


def _runner(case: str, T: int) -> tuple[str, Any, int]:
    """(problem kind, runner, local steps) of a case."""
    exact = {"estimator": "exact"}
    cases: dict[str, tuple[str, Any, int]] = {
        "scaffold1": ("linear", functools.partial(scaffold_zo, variant=1, **exact), T),
        "fzoos_oracle": ("linear", functools.partial(fzoos, gamma=1.0, **exact), T),
        "fzoos_oracle_fixed": (
            "linear",
            functools.partial(fzoos, gamma=1.0, correction="fixed_vector", **exact),
            T,
        ),
        "fedzo_T1": ("random", functools.partial(fedzo, **exact), 1),
        "fedzo": ("linear", functools.partial(fedzo, **exact), T),  # the control
    }
    if case not in cases:
        raise ParameterError(parameter="case", value=case, rule=f"one of {sorted(cases)}")
    return cases[case]


def reduction_run(params: dict[str, Any], seed: int) -> dict[str, float]:
    """One exact-gradient run from x_0 ~ U[0, 1]^d (the replicate's seed) with η =
    ``eta_frac``/(βT): max Ξ over all (r, i, t) and max_r‖x_r − x_r^{GD}‖/max(1, ‖x_r^{GD}‖),
    where x_r^{GD} is centralized GD on F after rT steps of size η."""
    kind, run_with, T = _runner(str(params["case"]), int(params["T"]))
    problem = _problem(kind, int(params["d"]), int(params["N"]), int(params.get("problem_seed", 0)))
    x0 = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[1]).uniform(
        size=problem.dimension
    )
    eta = float(params["eta_frac"]) / (float(problem.constants()["smoothness"]) * T)
    rounds = int(params["rounds"])
    run = run_with(
        problem, rounds=rounds, local_steps=T, step_size=eta, init=x0, seed=seed, record=True
    )
    reference = np.empty((rounds + 1, problem.dimension))
    x = x0.copy()
    for r in range(rounds + 1):
        reference[r] = x
        for _ in range(T):
            x = x - eta * problem.global_gradient(x)
    iterates = np.asarray(run.global_iterates)
    scale = np.maximum(1.0, np.linalg.norm(reference, axis=1))
    return {
        "xi_max": float(np.max(run.log.disparity)),
        "iterate_error": float(np.max(np.linalg.norm(iterates - reference, axis=1) / scale)),
        "zero": 0.0,
        "queries": float(run.queries),
    }


_FIXED = {"d": 6, "N": 5, "problem_seed": 0, "rounds": 10, "eta_frac": 0.5}
_CASES = ["scaffold1", "fzoos_oracle", "fzoos_oracle_fixed", "fedzo_T1"]
runs = Measurement(
    id="fzoos/reductions/runs",
    experiment=reduction_run,
    sweeps={
        "smoke": Sweep(grid={"T": [2, 3], "case": _CASES}, fixed=_FIXED),
        "quick": Sweep(grid={"case": _CASES, "T": [2, 5, 10]}, fixed=_FIXED, replicates=3),
    },
    notes=(
        "Exact local gradients (estimator='exact', no queries); linear heterogeneity "
        "f_i = F + ⟨b_i, x⟩ (d = 6, N = 5, α = 0.5, β = 2, spread 1) or, for FedZO with T = 1, "
        "random quadratics with heterogeneous curvature; η = 0.5/(βT), 10 rounds."
    ),
)
_LINEAR = {
    "smoke": Sweep(grid={"T": [2, 3], "case": _CASES[:3]}, fixed=_FIXED),
    "quick": Sweep(grid={"case": _CASES[:3], "T": [2, 5, 10]}, fixed=_FIXED, replicates=3),
}
corrections_exact = runs.claim(
    id="fzoos/reductions/corrections-exact",
    source=Citation("fzoos", "eq. (2), Sec. 3.1 and App. D (SCAFFOLD I, FZooS with γ = 1)"),
    statement=(
        "With exact local gradients and pure linear heterogeneity, SCAFFOLD I's and the FZooS "
        "oracle's corrected directions equal ∇F at every local step: Ξ ≡ 0 (to 1e−12)."
    ),
    criterion=Identity("xi_max", "zero", rtol=0.0, atol=ATOL, x="T"),
    sweeps=_LINEAR,
    notes="Check 3: fails if a correction's sign or anchor is wrong.",
)
centralized_gd = runs.claim(
    id="fzoos/reductions/centralized-gd",
    source=Citation("fzoos", "Algorithm 1 and eq. (2)"),
    statement=(
        "The server iterates of SCAFFOLD I and of the FZooS oracle (linear heterogeneity), and "
        "of FedZO with T = 1 (any heterogeneity), equal centralized GD on F with step η after "
        "rT steps, at every round (relative error ≤ 1e−12)."
    ),
    criterion=Identity("iterate_error", "zero", rtol=0.0, atol=ATOL, x="T"),
    notes="Check 3; the reference GD is computed from the problem's exact ∇F.",
)
control = runs.claim(
    id="fzoos/reductions/fedzo-control",
    source=Citation("fzoos", "eq. (87) (FedZO: no correction)"),
    statement=(
        "Control: FedZO with T > 1 and no correction also has Ξ ≡ 0 on linear heterogeneity "
        "(false: Ξ = ‖b_i‖²), so the Ξ identity can fail on these problems."
    ),
    criterion=Identity("xi_max", "zero", rtol=0.0, atol=ATOL, x="T"),
    expect="violated",
    gating=False,
    sweeps={
        "smoke": Sweep(grid={"T": [2, 3], "case": ["fedzo"]}, fixed=_FIXED),
        "quick": Sweep(grid={"case": ["fedzo"], "T": [2, 10]}, fixed=_FIXED),
    },
    notes="Check 3's teeth on the data (tests/test_fzoos_algorithms.py has the exact value).",
)
