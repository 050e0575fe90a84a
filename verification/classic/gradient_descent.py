"""Claims on deterministic gradient descent for strongly convex quadratics.

Sources: the linear rates of GD with step 1/L (Karimi, Nutini & Schmidt 2016, Theorem 1) and
2/(μ + L) (Nesterov 2004, Theorem 2.1.15), and the inexact-gradient bound of Friedlander &
Schmidt (2012) — registered as ``classic.gd.strongly-convex``, ``...distance``,
``classic.inexact-gd`` and ``classic.inexact-gd.bounded-errors``.

Every experiment draws a random quadratic (``fedtheory.problems.random_quadratic``: Haar
eigenvectors, extreme eigenvalues exactly μ and L) and a random start, runs the numba GD kernel
and returns the measured quantity together with the instance's *computed* constants, from which
the criterion evaluates the registered bound.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.algorithms import gradient_descent, inexact_errors
from fedtheory.problems import random_quadratic, two_eigenvalue_quadratic
from fedtheory.verify import Claim, Identity, Sweep, UpperBoundHolds


def _instance_and_start(params: dict[str, Any], seed: int) -> tuple[Any, np.ndarray]:
    problem_seed, start_seed = np.random.SeedSequence(seed).spawn(2)
    instance = random_quadratic(
        int(params["d"]), L=float(params["kappa"]), mu=1.0, seed=problem_seed
    )
    x0 = np.random.default_rng(start_seed).standard_normal(instance.d)
    return instance, x0


def gd_gap(params: dict[str, Any], seed: int) -> dict[str, float]:
    """f(x_T) − f* of GD with step 1/L on a random quadratic with condition number κ."""
    instance, x0 = _instance_and_start(params, seed)
    run = gradient_descent(instance, step=1.0 / instance.L, rounds=int(params["T"]), x0=x0)
    return {
        "gap": float(run.gaps[-1]),
        "Delta0": float(run.gaps[0]),
        "L": instance.L,
        "mu": instance.mu,
    }


gd_linear_rate = Claim(
    id="classic/gd/linear-rate",
    statement=(
        "Gradient descent with step 1/L on an L-smooth, μ-strongly convex function satisfies "
        "f(x_T) − f* ≤ (1 − μ/L)^T (f(x_0) − f*) for every start and every T."
    ),
    bound=bounds.get("classic.gd.strongly-convex"),
    experiment=gd_gap,
    sweeps={
        "smoke": Sweep(grid={"kappa": [10], "T": [1, 10, 30]}, fixed={"d": 10}, replicates=3),
        "quick": Sweep(
            grid={"kappa": [2, 10, 100], "T": [1, 3, 10, 30, 100]},
            fixed={"d": 20},
            replicates=20,
        ),
        "full": Sweep(
            grid={"kappa": [2, 10, 100, 1000], "T": [1, 3, 10, 30, 100, 300]},
            fixed={"d": 50},
            replicates=200,
        ),
    },
    criterion=UpperBoundHolds("gap", bounds.get("classic.gd.strongly-convex"), x="T", over="every"),
    notes=(
        "A deterministic statement, checked replicate by replicate. The bound is never "
        "attained: the exact worst case of step 1/L decays like (1 − μ/L)^{2T} (Taylor, "
        "Hendrickx & Glineur 2018), so the slack bound/measured grows geometrically in T — the "
        "report shows it."
    ),
)


def gd_distance_worst_case(params: dict[str, Any], seed: int) -> dict[str, float]:
    """‖x_T − x*‖² of GD with step 2/(μ + L) on diag(μ, L) from a start on both eigenvectors."""
    del seed  # deterministic
    kappa = float(params["kappa"])
    instance = two_eigenvalue_quadratic(kappa, 1.0)
    x0 = np.array([1.0, 1.0])
    run = gradient_descent(
        instance, step=2.0 / (instance.mu + instance.L), rounds=int(params["T"]), x0=x0
    )
    return {
        "dist2": float(run.distances2[-1]),
        "D0": float(run.distances2[0]),
        "L": instance.L,
        "mu": instance.mu,
    }


gd_distance_attained = Claim(
    id="classic/gd/distance-rate-attained",
    statement=(
        "With step 2/(μ + L) the squared distance contracts by ((L − μ)/(L + μ))² per step, and "
        "the rate is exact: on diag(μ, L) from a start with both eigen-components it is attained "
        "with equality at every T."
    ),
    bound=bounds.get("classic.gd.strongly-convex.distance"),
    experiment=gd_distance_worst_case,
    sweeps={
        "smoke": Sweep(grid={"kappa": [10], "T": [1, 5, 20]}),
        "quick": Sweep(grid={"kappa": [2, 10, 100, 1000], "T": [1, 3, 10, 30, 100]}),
    },
    criterion=Identity(
        "dist2", bounds.get("classic.gd.strongly-convex.distance"), rtol=1e-9, x="T"
    ),
    notes="Tightness of Nesterov's Theorem 2.1.15: a bound that holds with equality.",
)


def inexact_gd_gap(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Inexact GD (step 1/L) with random gradient errors; the bound uses the measured ‖e_k‖²."""
    instance, x0 = _instance_and_start(params, seed)
    rounds = int(params["S"])
    errors = inexact_errors(
        instance.d,
        rounds,
        scale=float(params["error"]),
        decay=float(params["decay"]),
        seed=np.random.SeedSequence(seed).spawn(3)[2],
    )
    run = gradient_descent(instance, step=1.0 / instance.L, rounds=rounds, x0=x0, errors=errors)
    bound = bounds.get("classic.inexact-gd").evaluate(
        L=instance.L,
        mu=instance.mu,
        S=rounds,
        Delta0=float(run.gaps[0]),
        e2=np.asarray(run.error_norms2),
    )
    return {"gap": float(run.gaps[-1]), "bound": float(bound)}


inexact_gd_measured = Claim(
    id="classic/inexact-gd/measured-errors",
    statement=(
        "Gradient descent with step 1/L and gradient errors e_k satisfies f(x_S) − f* ≤ "
        "(1 − μ/L)^S Δ0 + Σ_k (1 − μ/L)^{S−k} ‖e_k‖²/(2L), evaluated on the errors that "
        "actually occurred."
    ),
    bound=bounds.get("classic.inexact-gd"),
    experiment=inexact_gd_gap,
    uses=[bounds.get("classic.inexact-gd")],
    sweeps={
        "smoke": Sweep(
            grid={"S": [5, 20], "decay": [0.9]},
            fixed={"d": 10, "kappa": 10, "error": 0.3},
            replicates=3,
        ),
        "quick": Sweep(
            grid={"S": [1, 5, 20, 50, 100], "decay": [1.0, 0.9, 0.5]},
            fixed={"d": 20, "kappa": 10, "error": 0.3},
            replicates=20,
        ),
    },
    criterion=UpperBoundHolds("gap", "bound", x="S", over="every"),
    notes=(
        "The experiment evaluates classic.inexact-gd itself, because the bound takes the whole "
        "measured sequence ‖e_k‖² (a sequence parameter), not a scalar."
    ),
)


def inexact_gd_floor(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Inexact GD with errors of constant norm ε: the gap and the bounded-error bound's inputs."""
    instance, x0 = _instance_and_start(params, seed)
    rounds = int(params["S"])
    epsilon = float(params["error"])
    errors = inexact_errors(
        instance.d, rounds, scale=epsilon, seed=np.random.SeedSequence(seed).spawn(3)[2]
    )
    run = gradient_descent(instance, step=1.0 / instance.L, rounds=rounds, x0=x0, errors=errors)
    return {
        "gap": float(run.gaps[-1]),
        "Delta0": float(run.gaps[0]),
        "L": instance.L,
        "mu": instance.mu,
        "eps2": float(np.max(run.error_norms2)),
    }


inexact_gd_bounded = Claim(
    id="classic/inexact-gd/bounded-errors",
    statement=(
        "With every squared gradient error at most ε², inexact GD converges linearly to the "
        "floor ε²/(2μ): f(x_S) − f* ≤ (1 − μ/L)^S Δ0 + ε²(1 − (1 − μ/L)^S)/(2μ)."
    ),
    bound=bounds.get("classic.inexact-gd.bounded-errors"),
    experiment=inexact_gd_floor,
    sweeps={
        "smoke": Sweep(grid={"S": [5, 50]}, fixed={"d": 10, "kappa": 10, "error": 0.3}),
        "quick": Sweep(
            grid={"error": [0.01, 0.1, 1.0], "S": [1, 10, 30, 100, 300]},
            fixed={"d": 20, "kappa": 10},
            replicates=20,
        ),
    },
    criterion=UpperBoundHolds(
        "gap", bounds.get("classic.inexact-gd.bounded-errors"), x="S", over="every"
    ),
    notes="ε² is the largest squared error that occurred (all are equal up to rounding).",
)
