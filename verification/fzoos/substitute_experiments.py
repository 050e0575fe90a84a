"""FZooS's attack and metric experiments (Secs. 6.2–6.3) on the offline substitutes, at a reduced
scale (reading guide §4.4, §4.5, §4.7, §5 E check 34).

Shu, Lin, Dai & Low run FZooS against FedZO, FedProx-ZO and SCAFFOLD-ZO I/II on a federated
black-box adversarial attack (Fig. 2: CIFAR-10 CNNs, N = 10, 15 targets, T = 10, R = 100) and on
a federated non-differentiable metric optimisation (Fig. 3, Figs. 9–12: a Covertype MLP, N = 7,
T = 10, R = 50, 5 runs), and state that FZooS is the most query- and communication-efficient.
Neither data set is available offline, so the runs use the substitutes of
:mod:`fedtheory.papers.fzoos.substitutes` (softmax models on synthetic 8 × 8 class templates,
d = 64; softmax regression on a 7-class, 54-feature Gaussian mixture, d = 385). These are claims
about figures on substitutes, not theorems: every claim here is **not gating** (``gating=False``)
and its outcome is reported.

Scale (the quick profile): P = 0.5, T = 10, Adam η = 0.01 (state reset per client per round, A3),
iterates clipped to the box [0, 1]^d, 5 seeds. Each seed draws its own substitute (data, client
models, targets) and its own algorithm randomness, shared by the five methods (common random
numbers). Attack: N = 10 clients, 3 targets per seed (the paper: 15), ε∞ = 0.5, R = 5 rounds (the
paper: 100; FZooS and the FD methods reach their first successes within 2–5 rounds at this ε∞).
Metric: N = 7 clients, f_i = 1 − macro F1 (Fig. 11's metric), θ* trained on 150 points per
class (300 steps), 60 held-out points per class shared out, R = 5 rounds (the paper: 50). FD
baselines: Q = 20, λ = 10⁻³, FedProx μ_prox = 0.1 (B3). FZooS: the GP surrogate (SE, l = 1,
σ² = 10⁻⁴), 5 active queries of 100 candidates ranked by the approximate uncertainty of the
``neighbours`` nearest history points (60; ∇μ stays exact), M = 250 random features, γ = 1/t,
adaptive correction. Queries per local step: FZooS 6, FD 21 (SCAFFOLD I: + 21 per round).

Rule (guide §5 check 34, made exact). Per seed, method m's curve is c_m(r) at the server
iterates x_0 … x_R: the attack's success rate (the fraction of the seed's targets whose attack
has succeeded at some x_s, s ≤ r — an attacker stops at its first success, App. E.2's criterion:
the averaged logits of the N models misclassify z + δ(x_s)), or the metric loss F(x_r) =
(1/N) Σ_i (1 − macro F1_i). A method *reaches* a level v at the first round r with c(r) ≥ v
(attack) or c(r) ≤ v (metric), at the cumulative queries of all its clients (summed over the
targets) up to round r. FZooS *beats* baseline b on a seed when it reaches b's final level
c_b(R) with strictly fewer queries than b itself first reached it (a baseline that made no
progress, c_b(R) = c_b(0), is reached by both at 0 queries: not a win). The claim holds when, for
every baseline, FZooS beats it on at least ⌈0.8·S⌉ of the S seeds (4 of 5). A FZooS that never
reaches c_b(R) within R rounds loses that seed. Rounds-efficiency is the same rule with rounds in
place of queries (a second claim per experiment). Reported beside them (``wins_budget_*``, not
judged): on how many seeds FZooS's final level is strictly better than b's level at b's last
round within FZooS's total query budget — an equal-budget reading, since with the same R FZooS
spends about 3.5 times fewer queries and the rule above asks it to reach, within R rounds, a
level b bought with its whole budget.
Figure ``fzoos_substitutes`` draws these measurements from the store.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fedtheory.bounds import Citation
from fedtheory.papers.fzoos.algorithms import fedprox_zo, fedzo, fzoos, scaffold_zo
from fedtheory.papers.fzoos.runs import ZerothOrderRun
from fedtheory.papers.fzoos.substitutes import attack_substitute, metric_substitute
from fedtheory.verify import LowerBoundHolds, Measurement, Sweep

#: The methods, in the paper's legend order; FZooS last.
METHODS = ("fedzo", "fedprox", "scaffold1", "scaffold2", "fzoos")
BASELINES = METHODS[:-1]
#: FedProx-ZO's proximal coefficient (B3: the paper gives none).
MU_PROX = 0.1
#: FD settings (guide §4.8: Q = 20, λ = 10⁻³).
FD_SETTINGS: dict[str, Any] = {"queries": 20, "smoothing": 1e-3}
#: The fraction of seeds FZooS must win (check 34: 4 of 5).
WIN_FRACTION = 0.8


def _run(method: str, problem: Any, seed: Any, params: dict[str, Any]) -> ZerothOrderRun:
    """One run of ``method`` from the problem's start x = 1/2, clipped to the box, recorded."""
    common: dict[str, Any] = {
        "rounds": int(params["R"]),
        "local_steps": int(params["T"]),
        "step_size": float(params["eta"]),
        "optimizer": "adam",
        "clip": True,
        "seed": seed,
        "record": True,
    }
    if method == "fzoos":
        return fzoos(
            problem,
            neighbours=int(params["neighbours"]),
            num_features=int(params["M"]),
            gamma="1/t",
            **common,
        )
    if method == "fedzo":
        return fedzo(problem, **FD_SETTINGS, **common)
    if method == "fedprox":
        return fedprox_zo(problem, MU_PROX, **FD_SETTINGS, **common)
    return scaffold_zo(problem, variant=int(method[-1]), **FD_SETTINGS, **common)  # type: ignore[arg-type]


def _cumulative_queries(run: ZerothOrderRun) -> np.ndarray:
    """Queries of all clients up to x_0, …, x_R, shape (R + 1,)."""
    per_round = np.asarray(run.trace.function_queries, dtype=float)
    return np.concatenate([[0.0], np.cumsum(per_round)])


def _reach(curve: np.ndarray, level: float, higher: bool) -> int | None:
    """The first round at which ``curve`` reaches ``level`` (None: never)."""
    hit = np.flatnonzero(curve >= level) if higher else np.flatnonzero(curve <= level)
    return int(hit[0]) if hit.size else None


def _efficiency(
    curves: dict[str, list[np.ndarray]],
    queries: dict[str, list[np.ndarray]],
    higher: bool,
    out: dict[str, float],
) -> None:
    """Apply the module's rule seed by seed; write wins, losses and the summary numbers."""
    seeds = len(curves["fzoos"])
    required = math.ceil(WIN_FRACTION * seeds - 1e-12)
    out["seeds"], out["required"] = float(seeds), float(required)
    for b in BASELINES:
        wins_q = wins_r = wins_budget = degenerate = never = 0
        ratios = []
        for s in range(seeds):
            fz, base = curves["fzoos"][s], curves[b][s]
            # equal budget: b's level at its last round within FZooS's total queries
            within = int(np.flatnonzero(queries[b][s] <= queries["fzoos"][s][-1])[-1])
            wins_budget += int(fz[-1] > base[within] if higher else fz[-1] < base[within])
            level = float(base[-1])
            r_b = _reach(base, level, higher)
            assert r_b is not None  # a curve reaches its own final value
            degenerate += int(r_b == 0)
            r_fz = _reach(fz, level, higher)
            if r_fz is None:
                never += 1
                continue
            q_fz, q_b = queries["fzoos"][s][r_fz], queries[b][s][r_b]
            wins_q += int(q_fz < q_b)
            wins_r += int(r_fz < r_b)
            if q_b > 0:
                ratios.append(q_fz / q_b)
        out[f"wins_queries_{b}"] = float(wins_q)
        out[f"wins_rounds_{b}"] = float(wins_r)
        out[f"wins_budget_{b}"] = float(wins_budget)
        out[f"degenerate_{b}"] = float(degenerate)
        out[f"never_{b}"] = float(never)
        out[f"query_ratio_{b}"] = float(np.median(ratios)) if ratios else float("nan")
    out["wins_queries_min"] = min(out[f"wins_queries_{b}"] for b in BASELINES)
    out["wins_rounds_min"] = min(out[f"wins_rounds_{b}"] for b in BASELINES)
    out["wins_budget_min"] = min(out[f"wins_budget_{b}"] for b in BASELINES)
    for b in BASELINES:  # the store wants finite floats: an undefined ratio is reported as -1
        if not np.isfinite(out[f"query_ratio_{b}"]):
            out[f"query_ratio_{b}"] = -1.0


def _curves_out(
    name: str,
    curves: dict[str, list[np.ndarray]],
    queries: dict[str, list[np.ndarray]],
    out: dict[str, float],
) -> None:
    """Mean ± SE over the seeds of every method's curve, per round, and its queries per round."""
    for method in METHODS:
        array = np.asarray(curves[method])  # (S, R + 1)
        mean = array.mean(axis=0)
        se = array.std(axis=0, ddof=1) / np.sqrt(array.shape[0]) if array.shape[0] > 1 else 0 * mean
        for r in range(array.shape[1]):
            out[f"{name}_{method}_r{r:02d}"] = float(mean[r])
            out[f"{name}_se_{method}_r{r:02d}"] = float(se[r])
        out[f"final_{method}"] = float(mean[-1])
        out[f"queries_per_round_{method}"] = float(np.mean([q[-1] for q in queries[method]])) / (
            array.shape[1] - 1
        )


# ============================================================================== attack


def attack_runs(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Every method on every target of ``seeds`` attack substitutes: the success-rate curves
    (mean ± SE over the seeds), queries per round and the wins of the module's rule."""
    curves: dict[str, list[np.ndarray]] = {m: [] for m in METHODS}
    queries: dict[str, list[np.ndarray]] = {m: [] for m in METHODS}
    for child in np.random.SeedSequence(seed).spawn(int(params["seeds"])):
        data_seed, run_seed = child.spawn(2)
        targets = int(params["targets"])
        substitute = attack_substitute(
            float(params["P"]),
            clients=int(params["N"]),
            targets=targets,
            side=int(params["side"]),
            per_class=int(params["per_class"]),
            epsilon=float(params["epsilon"]),
            seed=data_seed,
        )
        target_seeds = run_seed.spawn(targets)
        for method in METHODS:
            success = []
            total = np.zeros(int(params["R"]) + 1)
            for k in range(targets):
                problem = substitute.problem(k)
                run = _run(method, problem, target_seeds[k], params)
                assert run.global_iterates is not None
                hit = np.array([problem.success(x) for x in run.global_iterates], dtype=float)
                success.append(np.maximum.accumulate(hit))
                total += _cumulative_queries(run)
            curves[method].append(np.mean(success, axis=0))
            queries[method].append(total)
    out: dict[str, float] = {}
    _curves_out("success", curves, queries, out)
    _efficiency(curves, queries, True, out)
    return out


_ATTACK = {"P": 0.5, "eta": 0.01, "epsilon": 0.5, "neighbours": 60, "M": 250}

attack = Measurement(
    id="fzoos/substitutes/attack-runs",
    experiment=attack_runs,
    sweeps={
        "smoke": Sweep(
            points=[
                {
                    **_ATTACK,
                    "N": 3,
                    "targets": 1,
                    "side": 4,
                    "per_class": 20,
                    "R": 3,
                    "T": 2,
                    "seeds": 2,
                    "epsilon": 5.0,
                    "neighbours": 10,
                    "M": 20,
                }
            ]
        ),
        "quick": Sweep(
            points=[
                {
                    **_ATTACK,
                    "N": 10,
                    "targets": 5,
                    "side": 8,
                    "per_class": 60,
                    "R": 10,
                    "T": 10,
                    "seeds": 5,
                }
            ]
        ),
        "full": Sweep(
            points=[
                {
                    **_ATTACK,
                    "N": 10,
                    "targets": 15,
                    "side": 8,
                    "per_class": 60,
                    "R": 10,
                    "T": 10,
                    "seeds": 5,
                }
            ]
        ),
    },
    notes="Attack substitute (guide §4.7): 10 classes of 8 × 8 templates (d = 64), N = 10 "
    "softmax clients on P = 0.5 of the classes plus a 10 % minority share of the others, "
    "ε∞ = 0.5, start x = 1/2 (the clean image); quick: 3 targets per seed (the paper: 15), "
    "R = 5 (the paper: 100), T = 10, Adam η = 0.01, clipped to [0, 1]^d, 5 seeds. FZooS: "
    "neighbours = 60, M = 250, γ = 1/t; FD: Q = 20, λ = 10⁻³, μ_prox = 0.1. Success is "
    "cumulative (the attack stops at its first success); queries are summed over the targets.",
)


# ============================================================================== metric


def metric_runs(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Every method on ``seeds`` metric substitutes: the curves of F = mean_i (1 − macro
    metric_i) (mean ± SE over the seeds), queries per round and the wins of the module's rule."""
    curves: dict[str, list[np.ndarray]] = {m: [] for m in METHODS}
    queries: dict[str, list[np.ndarray]] = {m: [] for m in METHODS}
    for child in np.random.SeedSequence(seed).spawn(int(params["seeds"])):
        data_seed, run_seed = child.spawn(2)
        problem = metric_substitute(
            float(params["P"]),
            metric=params["metric"],
            clients=int(params["N"]),
            train_per_class=int(params["train_per_class"]),
            test_per_class=int(params["test_per_class"]),
            steps=int(params["steps"]),
            seed=data_seed,
        )
        for method in METHODS:
            run = _run(method, problem, run_seed, params)
            curves[method].append(np.asarray(run.log.values, dtype=float))
            queries[method].append(_cumulative_queries(run))
    out: dict[str, float] = {}
    _curves_out("loss", curves, queries, out)
    _efficiency(curves, queries, False, out)
    return out


_METRIC = {"P": 0.5, "metric": "f1", "eta": 0.01, "neighbours": 60, "M": 250}

metric = Measurement(
    id="fzoos/substitutes/metric-runs",
    experiment=metric_runs,
    sweeps={
        "smoke": Sweep(
            points=[
                {
                    **_METRIC,
                    "N": 3,
                    "train_per_class": 30,
                    "test_per_class": 10,
                    "steps": 30,
                    "R": 2,
                    "T": 2,
                    "seeds": 2,
                    "neighbours": 10,
                    "M": 20,
                }
            ]
        ),
        "quick": Sweep(
            points=[
                {
                    **_METRIC,
                    "N": 7,
                    "train_per_class": 150,
                    "test_per_class": 60,
                    "steps": 300,
                    "R": 10,
                    "T": 10,
                    "seeds": 5,
                }
            ]
        ),
        "full": Sweep(
            points=[
                {
                    **_METRIC,
                    "N": 7,
                    "train_per_class": 300,
                    "test_per_class": 60,
                    "steps": 500,
                    "R": 20,
                    "T": 10,
                    "seeds": 5,
                }
            ]
        ),
    },
    notes="Metric substitute (guide §4.7): softmax regression θ* on a 7-class, 54-feature "
    "Gaussian mixture (d = 7·54 + 7 = 385), N = 7 clients holding the held-out points of "
    "P = 0.5 of the classes (round(3.5) = 4 classes), f_i = 1 − macro F1 of θ* + 0.5(2x − 1), "
    "start x = 1/2 (θ*); quick: 150 training points per class (300 GD steps), 60 held-out "
    "per class, R = 5 (the paper: 50), T = 10, Adam η = 0.01, clipped, 5 seeds. FZooS: "
    "neighbours = 60, M = 250, γ = 1/t; FD: Q = 20, λ = 10⁻³, μ_prox = 0.1. f_i is piecewise "
    "constant: FD differences are mostly 0 or jumps, and the GP (l = 1) smooths the jumps.",
)

# ============================================================================== claims

_RULE = (
    " Rule (module docstring): FZooS beats baseline b on a seed when it reaches b's final level "
    "c_b(R) with strictly fewer {unit} than b first reached it; the claim holds when FZooS beats "
    "every baseline on at least ⌈0.8·S⌉ of the S seeds (4 of 5). Judged: the smallest win count "
    "over the baselines (wins_{unit}_min) ≥ required."
)


def _claim(
    data: Measurement, kind: str, unit: str, statement: str, section: str, notes: str
) -> Any:
    return data.claim(
        id=f"fzoos/substitutes/{kind}-fewer-{unit}",
        source=Citation("fzoos", section),
        statement=statement,
        criterion=LowerBoundHolds(f"wins_{unit}_min", "required", over="every"),
        gating=False,
        notes=notes + _RULE.format(unit=unit),
    )


attack_queries = _claim(
    attack,
    "attack",
    "queries",
    "On the black-box attack substitute, FZooS reaches each FD baseline's final success rate "
    "with fewer total queries than the baseline, in at least 4 of 5 seeds.",
    "§6.2, Figure 2",
    "Guide §5 check 34. FZooS spends 6 queries per local step against the FD methods' 21.",
)
attack_rounds = _claim(
    attack,
    "attack",
    "rounds",
    "On the black-box attack substitute, FZooS reaches each FD baseline's final success rate "
    "in fewer communication rounds than the baseline, in at least 4 of 5 seeds.",
    "§6.2, Figure 2",
    "Guide §5 check 34 (rounds-efficiency, reported separately).",
)
metric_queries = _claim(
    metric,
    "metric",
    "queries",
    "On the metric-optimisation substitute (1 − macro F1), FZooS reaches each FD baseline's "
    "final loss with fewer total queries than the baseline, in at least 4 of 5 seeds.",
    "§6.3, Figures 3 and 11",
    "Guide §5 check 34. The loss is piecewise constant in x (no gradient exists).",
)
metric_rounds = _claim(
    metric,
    "metric",
    "rounds",
    "On the metric-optimisation substitute (1 − macro F1), FZooS reaches each FD baseline's "
    "final loss in fewer communication rounds than the baseline, in at least 4 of 5 seeds.",
    "§6.3, Figures 3 and 11",
    "Guide §5 check 34 (rounds-efficiency, reported separately).",
)
