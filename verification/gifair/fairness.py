"""Definition 2.1's fairness claim: λ > 0 spreads the group losses less and, the paper says, the
group test accuracies too (guide §5 V15, §3 "Which predictions are empirically checkable" 6).

Each replicate draws a data set from its seed and compares λ = ``lam_frac``·λ_max with λ = 0 on
the *same* draw (a paired difference, 0 at lam_frac = 0), for the exact optimum of (1) (cvxpy,
``tradeoff_curve``) and for the federated output of GIFAIR-FL-Global (E = 5, batch 10,
η = 0.1, exact r, full participation, p-weighted aggregation). A :class:`Monotone` criterion
along lam_frac ∈ {0, ½, 0.9} then demands that no step goes up and that the paired mean change
from 0 to 0.9 has its (Welch, Bonferroni) interval below 0.

* train R at the exact optimum decreases (gating): a theorem for any penalised problem —
  R(θ*_λ) is non-increasing in λ;
* train R of the federated output (approximately the same; reported, not gating);
* group test-accuracy variance (Definition 2.1) and discrepancy (max − min): the paper's
  empirical claim, an honest experiment that may fail (reported, not gating), on grouped
  logistic regression (guide §7 pilot: 20 clients split 6/10/4) and on the FEMNIST-3-groups-like
  substitute (federated output only: softmax over 20 classes has 340 parameters).
"""

from __future__ import annotations

from typing import Any

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.gifair import (
    femnist_groups_like,
    gifair_global,
    grouped_logistic,
    metrics,
    tradeoff_curve,
)
from fedtheory.verify import Measurement, Monotone, Sweep

LAMBDA_MAX = bounds.get("gifair.lambda-max")
_FED = {"local_steps": 5, "step_size": 0.1, "batch": 10}


def _lambda(problem: Any, frac: float) -> float:
    groups = problem.groups
    pA_min = float((groups.p * groups.client_group_sizes).min())
    return frac * float(LAMBDA_MAX.evaluate(pA_min=pA_min, d=groups.num_groups))


def _federated(problem: Any, lam: float, rounds: int, seed: int) -> dict[str, float]:
    theta = gifair_global(problem, lam, rounds=rounds, seed=seed, **_FED).global_model
    accuracy = problem.accuracy(theta)
    groups = metrics.group_means(problem.groups, accuracy)
    return {
        **{f"g{i}": float(value) for i, value in enumerate(groups)},
        "R": float(problem.groups.spread(problem.client_values(theta))),
        "var": float(metrics.group_variance(problem.groups, accuracy)),
        "disc": float(metrics.discrepancy(problem.groups, accuracy)),
        "acc": float(accuracy.mean()),
    }


def _paired(at: dict[str, float], base: dict[str, float], tag: str) -> dict[str, float]:
    out = {f"{name}_{tag}": value for name, value in at.items()}
    out.update({f"d{name}_{tag}": at[name] - base[name] for name in at})
    return out


def logistic_pair(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Grouped logistic draw ``seed``: exact and federated models at λ and at 0, paired."""
    problem = grouped_logistic(seed=seed)
    frac, rounds = float(params["lam_frac"]), int(params["rounds"])
    lam = _lambda(problem, frac)
    curve = tradeoff_curve(problem, [0.0, lam])
    exact = []
    for optimum in curve.optima:
        accuracy = problem.accuracy(optimum.theta)
        exact.append(
            {
                "R": optimum.spread,
                "var": float(metrics.group_variance(problem.groups, accuracy)),
                "disc": float(metrics.discrepancy(problem.groups, accuracy)),
                "acc": float(accuracy.mean()),
            }
        )
    base = _federated(problem, 0.0, rounds, seed)
    fed = base if frac == 0 else _federated(problem, lam, rounds, seed)
    return {"lam": lam, **_paired(exact[1], exact[0], "exact"), **_paired(fed, base, "fed")}


def femnist_pair(params: dict[str, Any], seed: int) -> dict[str, float]:
    """FEMNIST-3-groups-like draw ``seed``: federated models at λ and at 0, paired."""
    problem = femnist_groups_like(seed=seed)
    frac, rounds = float(params["lam_frac"]), int(params["rounds"])
    lam = _lambda(problem, frac)
    base = _federated(problem, 0.0, rounds, seed)
    fed = base if frac == 0 else _federated(problem, lam, rounds, seed)
    return {"lam": lam, **_paired(fed, base, "fed")}


_GRID = {"lam_frac": [0.0, 0.5, 0.9]}


def _sweeps(rounds: int, replicates: tuple[int, int, int]) -> dict[str, Sweep]:
    return {
        profile: Sweep(grid=_GRID, fixed={"rounds": rounds}, replicates=count)
        for profile, count in zip(("smoke", "quick", "full"), replicates, strict=True)
    }


logistic = Measurement(
    id="gifair/fairness/grouped-logistic",
    experiment=logistic_pair,
    sweeps=_sweeps(200, (4, 16, 30)),
    notes=(
        "grouped_logistic (20 clients split 6/10/4, 10 features, N_k ~ U{50..150}, 25% test "
        "split, ridge 0.01), one draw per replicate; λ = lam_frac·λ_max (gifair.lambda-max). "
        "Outputs d*_exact / d*_fed are the paired changes from λ = 0 on the same draw. "
        "Federated: 200 rounds of GIFAIR-FL-Global, E = 5, batch 10, η = 0.1, exact r."
    ),
    uses=[LAMBDA_MAX],
)
_DEF21 = Citation("gifair", "Definition 2.1 and §5 (Tables 2–6)")
_EQ1 = Citation("gifair", "eq. (1): min Σ_k p_k F_k + λR (guide §3, checkable prediction 6)")

spread_exact = logistic.claim(
    id="gifair/fairness/spread-exact",
    source=_EQ1,
    statement=(
        "At the exact minimiser of H = Σ_kp_kF_k + λR the train spread R(θ*_λ) decreases as λ "
        "grows (penalised problem)."
    ),
    criterion=Monotone("lam_frac", "dR_exact", direction="decreasing"),
)
spread_federated = logistic.claim(
    id="gifair/fairness/spread-federated",
    source=_EQ1,
    statement="The train spread R of GIFAIR-FL-Global's output decreases as λ grows.",
    criterion=Monotone("lam_frac", "dR_fed", direction="decreasing"),
    gating=False,
    notes="Approximate: the federated output is within optimisation error of θ*_λ.",
)
variance_exact = logistic.claim(
    id="gifair/fairness/variance-exact",
    source=_DEF21,
    statement=(
        "Definition 2.1: the fair model is fairer — the variance of the group test accuracies "
        "at θ*_λ is below that at θ*_0 (paired over draws)."
    ),
    criterion=Monotone("lam_frac", "dvar_exact", direction="decreasing"),
    gating=False,
    notes="An empirical claim of the paper, not a theorem; it may fail (guide V15).",
)
variance_federated = logistic.claim(
    id="gifair/fairness/variance-federated",
    source=_DEF21,
    statement=(
        "Definition 2.1 for GIFAIR-FL-Global's output: the variance of the group test "
        "accuracies decreases with λ (paired over draws)."
    ),
    criterion=Monotone("lam_frac", "dvar_fed", direction="decreasing"),
    gating=False,
    notes="An empirical claim of the paper, not a theorem; it may fail (guide V15).",
)
discrepancy_federated = logistic.claim(
    id="gifair/fairness/discrepancy-federated",
    source=_DEF21,
    statement=(
        "GIFAIR-FL-Global's discrepancy (max − min group test accuracy) decreases with λ "
        "(paired over draws)."
    ),
    criterion=Monotone("lam_frac", "ddisc_fed", direction="decreasing"),
    gating=False,
)

femnist = Measurement(
    id="gifair/fairness/femnist-groups",
    experiment=femnist_pair,
    sweeps=_sweeps(100, (2, 40, 60)),
    notes=(
        "femnist_groups_like (3 groups of 6/10/4 devices, 20 classes, softmax + ridge on 16 "
        "features + 1; a substitute of FEMNIST-3-groups, Table 4), one draw per replicate; "
        "100 rounds of GIFAIR-FL-Global, E = 5, batch 10, η = 0.1, exact r; paired changes "
        "from λ = 0."
    ),
    uses=[LAMBDA_MAX],
)
femnist_variance = femnist.claim(
    id="gifair/fairness/femnist-variance",
    source=Citation("gifair", "Definition 2.1, Table 4 (FEMNIST-3-groups)"),
    statement=(
        "On FEMNIST-3-groups(-like) data GIFAIR-FL-Global's group test-accuracy variance "
        "decreases with λ (paired over draws)."
    ),
    criterion=Monotone("lam_frac", "dvar_fed", direction="decreasing"),
    gating=False,
    notes="An empirical claim on a substitute data set; it may fail.",
)
femnist_discrepancy = femnist.claim(
    id="gifair/fairness/femnist-discrepancy",
    source=Citation("gifair", "Table 4 (FEMNIST-3-groups): discrepancy"),
    statement=(
        "On FEMNIST-3-groups(-like) data GIFAIR-FL-Global's discrepancy decreases with λ "
        "(paired over draws)."
    ),
    criterion=Monotone("lam_frac", "ddisc_fed", direction="decreasing"),
    gating=False,
)
