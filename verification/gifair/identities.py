"""Lemma 3.2's reweighting and the derived facts D1, D2, D4 on random instances (guide §5 V1, V2).

* V1  Lemma 3.2 / eq. (2): on random group structures (d ∈ 2..8 groups of random sizes
      |𝒜_i| ∈ 1..4, p ~ Dirichlet(1), F_k ~ U(0, 10), λ ~ U(0, 1.5λ_max); 20% of the instances
      with an exact tie between two or more groups), the definition H = Σ_k p_kF_k + λR equals
      ``gifair.lemma32`` evaluated at the instance's ranks r_k (sign(0) = 0) to 1e-12·scale, and
      D4's ordered-weight forms (``gifair.d4``, ``gifair.d4.convex-program``) give R and H. For
      individual fairness (d = K) the corrected display ``gifair.lemma32.individual.corrected``
      equals H, the printed one ``gifair.lemma32.individual`` does not (the erratum, expect
      violated).
* V2  D1 (Σ_k q_k = ``gifair.weights.sum`` = Σ_k p_k), D2 (``gifair.weights.lower`` ≤ q_k ≤
      ``gifair.weights.upper``, q_k ≤ 2p_k, a group's mass is ``gifair.weights.group-mass``),
      positivity over *every* sign pattern (all weak orderings of the groups) for λ ≤ λ_max
      (``gifair.lambda-max``) and a negative weight just above it, and Example 3.3's weights.

``scale`` = Σ_k (p_k + λ(d−1)/|𝒜_{s_k}|)|F_k| bounds the magnitude of every term of both sides
(R ≤ (d−1)Σ_k|F_k|/|𝒜_{s_k}|); the experiments report the sides divided by it. A batch of
instances reports its *worst* instance (largest tolerance ratio) so that one replicate covers
many instances; the bounds are evaluated by the experiments on the instance's vectors (they are
sequences, which criteria cannot pass) and declared in ``uses``.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.papers.gifair import GroupStructure, example_3_3
from fedtheory.verify import Identity, LowerBoundHolds, Measurement, Sweep, UpperBoundHolds

LEMMA32 = bounds.get("gifair.lemma32")
INDIVIDUAL = bounds.get("gifair.lemma32.individual")
INDIVIDUAL_CORRECTED = bounds.get("gifair.lemma32.individual.corrected")
D4 = bounds.get("gifair.d4")
D4_PROGRAM = bounds.get("gifair.d4.convex-program")
WEIGHT_SUM = bounds.get("gifair.weights.sum")
WEIGHT_UPPER = bounds.get("gifair.weights.upper")
WEIGHT_LOWER = bounds.get("gifair.weights.lower")
GROUP_MASS = bounds.get("gifair.weights.group-mass")
LAMBDA_MAX = bounds.get("gifair.lambda-max")

#: Tolerance of the identities, relative to ``scale`` (guide V1: 1e-12·scale).
_TOL = 1e-12


# ============================================================================== instances
def _tied_group(rng: np.random.Generator, size: int, level: float) -> np.ndarray:
    """Client losses on the grid Z/64 whose mean is exactly ``level`` (a multiple of 1/64).

    All partial sums are exact in binary floating point, so the group's mean L_i = Σ/|𝒜_i| is
    ``level`` exactly and the tie holds without rounding.
    """
    losses = rng.integers(0, int(64 * level) + 1, size=size).astype(np.float64) / 64
    losses[-1] = level * size - losses[:-1].sum()  # ≥ level ≥ 0
    return losses


def _instance(rng: np.random.Generator, d: int, tie: bool) -> tuple[GroupStructure, np.ndarray]:
    """A random structure with d groups (sizes 1..4, p ~ Dirichlet(1)) and client losses F."""
    sizes = rng.integers(1, 5, size=d)
    labels = np.repeat(np.arange(d), sizes)
    groups = GroupStructure(labels, rng.dirichlet(np.ones(labels.size)))
    F = rng.uniform(0.0, 10.0, size=labels.size)
    if tie:
        tied = rng.choice(d, size=int(rng.integers(2, d + 1)), replace=False)
        level = float(rng.integers(64, 8 * 64)) / 64
        for i in tied:
            F[labels == i] = _tied_group(rng, int(sizes[i]), level)
    return groups, F


def _scale(groups: GroupStructure, lam: float, F: np.ndarray) -> float:
    d = groups.num_groups
    return float((groups.p + lam * (d - 1) / groups.client_group_sizes) @ np.abs(F))


def _vectors(groups: GroupStructure, F: np.ndarray) -> dict[str, Any]:
    return {"K": groups.num_clients, "p": groups.p, "A": groups.client_group_sizes, "F": F}


def _lambda_max(groups: GroupStructure) -> float:
    """λ_max from the registry (``gifair.lambda-max``) at the structure's min_k p_k|𝒜_{s_k}|."""
    pA_min = float(np.min(groups.p * groups.client_group_sizes))
    return float(LAMBDA_MAX.evaluate(pA_min=pA_min, d=groups.num_groups))


def _worst(rows: list[dict[str, float]], a: str, b: str) -> dict[str, float]:
    """The row with the largest |a − b| (the batch's worst instance)."""
    return max(rows, key=lambda row: abs(row[a] - row[b]))


# ============================================================================== V1: Lemma 3.2
def lemma32_batch(params: dict[str, Any], seed: int) -> dict[str, float]:
    """H from its definition and from Lemma 3.2 / D4 on a batch of instances with d groups.

    Each side is divided by the instance's ``scale``; each pair is the batch's worst instance.
    """
    rng = np.random.default_rng(seed)
    d, count = int(params["d"]), int(params["instances"])
    ties = rng.random(count) < float(params["tie_fraction"])
    lemma_rows, spread_rows, program_rows = [], [], []
    tied = 0
    for tie in ties:
        groups, F = _instance(rng, d, bool(tie))
        lam = float(rng.uniform(0.0, 1.5)) * _lambda_max(groups)
        scale = _scale(groups, lam, F)
        H = float(groups.objective(lam, F))
        r = groups.ranks(F)
        tied += int(np.unique(groups.group_losses(F)).size < d)
        ordered = np.sort(groups.group_losses(F))[::-1]
        vectors = _vectors(groups, F)
        # the lemma holds for every λ ≥ 0: check=False lets λ run beyond λ_max
        lemma = float(LEMMA32.evaluate(**vectors, r=r, lam=lam, check=False))
        program = float(D4_PROGRAM.evaluate(**vectors, lam=lam, d=d, Ls=ordered, check=False))
        spread = float(D4.evaluate(d=d, Ls=ordered))
        lemma_rows.append({"H_def": H / scale, "H_lemma": lemma / scale})
        program_rows.append({"H_def": H / scale, "H_program": program / scale})
        spread_rows.append({"R_def": float(groups.spread(F)) / scale, "R_d4": spread / scale})
    return {
        **_worst(lemma_rows, "H_def", "H_lemma"),
        "H_program": _worst(program_rows, "H_def", "H_program")["H_program"],
        "H_def_program": _worst(program_rows, "H_def", "H_program")["H_def"],
        **_worst(spread_rows, "R_def", "R_d4"),
        "tied_instances": float(tied),
    }


_V1_NOTES = (
    "Random structures: d groups of sizes U{1..4}, p ~ Dirichlet(1), F_k ~ U(0, 10), "
    "λ = U(0, 1.5)·λ_max (the identities hold for every λ ≥ 0); a fraction of the instances "
    "have two or more groups tied exactly (losses on the grid Z/64, so the tie survives "
    "rounding; r_k then takes values off the ±(d−1), ±(d−3), … lattice). Both sides are divided "
    "by scale = Σ_k (p_k + λ(d−1)/|𝒜_{s_k}|)|F_k|; each replicate is a batch of instances and "
    "reports its worst one."
)
lemma32_data = Measurement(
    id="gifair/lemma32/random-instances",
    experiment=lemma32_batch,
    sweeps={
        "smoke": Sweep(
            grid={"d": [2, 5]}, fixed={"instances": 20, "tie_fraction": 0.2}, replicates=1
        ),
        "quick": Sweep(
            grid={"d": list(range(2, 9))},
            fixed={"instances": 60, "tie_fraction": 0.2},
            replicates=2,
        ),
    },
    notes=_V1_NOTES,
    uses=[LEMMA32, D4, D4_PROGRAM, LAMBDA_MAX],
)
lemma32_identity = lemma32_data.claim(
    id="gifair/lemma32/reweighting",
    bound=LEMMA32,
    statement=(
        "Lemma 3.2, eq. (2): for every θ and λ, H = Σ_k p_kF_k + λΣ_{i<j}|L_i − L_j| equals "
        "Σ_k p_k(1 + λr_k/(p_k|𝒜_{s_k}|))F_k with r_k = Σ_{j≠s_k} sign(L_{s_k} − L_j), ties "
        "included (sign(0) = 0)."
    ),
    criterion=Identity("H_def", "H_lemma", rtol=0.0, atol=_TOL, x="d"),
    notes="Guide V1: |H_def − Σ_k q_kF_k| ≤ 1e-12·scale (catches a wrong sign, |𝒜| vs N, a "
    "dropped p_k).",
)
d4_ordered = lemma32_data.claim(
    id="gifair/d4/ordered-form",
    bound=D4,
    statement=(
        "D4: with the group losses sorted, L_(1) ≥ … ≥ L_(d), R = Σ_m (d − 2m + 1)L_(m), "
        "ties included."
    ),
    criterion=Identity("R_def", "R_d4", rtol=0.0, atol=_TOL, x="d"),
)
d4_program = lemma32_data.claim(
    id="gifair/d4/convex-program",
    bound=D4_PROGRAM,
    statement=(
        "D4: H = Σ_k (p_k − λ(d − 1)/|𝒜_{s_k}|)F_k + 2λΣ_{j<d} sum_largest(L, j), the form "
        "the exact solver minimises (an identity for every λ; DCP only when λ ≤ λ_max)."
    ),
    criterion=Identity("H_def_program", "H_program", rtol=0.0, atol=_TOL, x="d"),
)


# ====================================================================== V1: individual fairness
def individual_batch(params: dict[str, Any], seed: int) -> dict[str, float]:
    """d = K: H against the corrected (worst instance) and printed (closest instance) displays."""
    rng = np.random.default_rng(seed)
    K, count = int(params["K"]), int(params["instances"])
    corrected_rows, printed_rows = [], []
    for _ in range(count):
        groups = GroupStructure.individual(rng.dirichlet(np.ones(K)))
        F = rng.uniform(0.0, 10.0, size=K)
        if rng.random() < float(params["tie_fraction"]):
            F[1] = F[0]
        lam = float(rng.uniform(0.0, 1.0)) * _lambda_max(groups)
        scale = _scale(groups, lam, F)
        H = float(groups.objective(lam, F)) / scale
        values = {"K": K, "p": groups.p, "r": groups.ranks(F), "F": F, "lam": lam}
        corrected = float(INDIVIDUAL_CORRECTED.evaluate(**values)) / scale
        printed = float(INDIVIDUAL.evaluate(**values)) / scale
        corrected_rows.append({"H_def": H, "H_corrected": corrected})
        printed_rows.append({"H_def_printed": H, "H_printed": printed})
    closest = min(printed_rows, key=lambda row: abs(row["H_def_printed"] - row["H_printed"]))
    return {**_worst(corrected_rows, "H_def", "H_corrected"), **closest}


individual_data = Measurement(
    id="gifair/lemma32/individual-fairness",
    experiment=individual_batch,
    sweeps={
        "smoke": Sweep(grid={"K": [2, 5]}, fixed={"instances": 20, "tie_fraction": 0.2}),
        "quick": Sweep(
            grid={"K": list(range(2, 9))},
            fixed={"instances": 40, "tie_fraction": 0.2},
            replicates=2,
        ),
    },
    notes=(
        "Individual fairness (each client its own group, d = K): p ~ Dirichlet(1), "
        "F_k ~ U(0, 10) (20% with F_1 = F_0, a tie), λ = U(0, 1)·λ_max; sides divided by "
        "scale as in V1. The corrected display reports the batch's worst instance, the printed "
        "one its *closest* instance (so a violation means no instance of the batch agrees)."
    ),
    uses=[INDIVIDUAL, INDIVIDUAL_CORRECTED, LAMBDA_MAX],
)
individual_corrected = individual_data.claim(
    id="gifair/lemma32/individual-corrected",
    bound=INDIVIDUAL_CORRECTED,
    statement="Lemma 3.2 at d = K: H = Σ_k (p_k + λr_k)F_k.",
    criterion=Identity("H_def", "H_corrected", rtol=0.0, atol=_TOL, x="K"),
)
individual_printed = individual_data.claim(
    id="gifair/lemma32/individual-printed",
    bound=INDIVIDUAL,
    statement=(
        "As printed in §3.1 for individual fairness: H = Σ_k (1 + λr_k/p_k)F_k (an erratum: the "
        "p_k of (2) is dropped, the weights sum to K)."
    ),
    criterion=Identity("H_def_printed", "H_printed", rtol=0.0, atol=_TOL, x="K"),
    expect="violated",
    notes="Guide §6.10: the correct form is Σ_k (p_k + λr_k)F_k (the claim above).",
)


# ================================================================================ V2: D1, D2
def weights_batch(params: dict[str, Any], seed: int) -> dict[str, float]:
    """D1 and D2 on a batch with λ = U(0, 1]·λ_max: each output pair is the worst instance."""
    rng = np.random.default_rng(seed)
    d, count = int(params["d"]), int(params["instances"])
    sums, uppers, lowers, doubles, masses = [], [], [], [], []
    for tie in rng.random(count) < float(params["tie_fraction"]):
        groups, F = _instance(rng, d, bool(tie))
        lam = float(1.0 - rng.uniform(0.0, 1.0)) * _lambda_max(groups)  # in (0, λ_max]
        q = groups.weights(lam, F)
        A = groups.client_group_sizes
        sums.append(
            {
                "q_sum": float(q.sum()),
                "q_sum_d1": float(WEIGHT_SUM.evaluate(K=groups.num_clients, p=groups.p)),
            }
        )
        upper = WEIGHT_UPPER.evaluate(p_k=groups.p, lam=lam, d=d, A_k=A)
        lower = WEIGHT_LOWER.evaluate(p_k=groups.p, lam=lam, d=d, A_k=A)
        k_up, k_low = int(np.argmax(q - upper)), int(np.argmin(q - lower))
        uppers.append({"q_top": float(q[k_up]), "q_top_d2": float(upper[k_up])})
        lowers.append({"q_bottom": float(q[k_low]), "q_bottom_d2": float(lower[k_low])})
        k_ratio = int(np.argmax(q / groups.p))
        doubles.append({"q_ratio": float(q[k_ratio] / groups.p[k_ratio]), "doubling": 2.0})
        r_group = groups.group_ranks(F)
        for i in range(d):
            members = groups.labels == i
            mass = float(GROUP_MASS.evaluate(P_i=groups.group_weights[i], lam=lam, r_i=r_group[i]))
            masses.append({"group_mass": float(q[members].sum()), "group_mass_d2": mass})
    return {
        **_worst(sums, "q_sum", "q_sum_d1"),
        **max(uppers, key=lambda row: row["q_top"] - row["q_top_d2"]),
        **min(lowers, key=lambda row: row["q_bottom"] - row["q_bottom_d2"]),
        **max(doubles, key=lambda row: row["q_ratio"]),
        **_worst(masses, "group_mass", "group_mass_d2"),
    }


weights_data = Measurement(
    id="gifair/weights/random-instances",
    experiment=weights_batch,
    sweeps={
        "smoke": Sweep(
            grid={"d": [2, 5]}, fixed={"instances": 20, "tie_fraction": 0.2}, replicates=1
        ),
        "quick": Sweep(
            grid={"d": list(range(2, 9))},
            fixed={"instances": 60, "tie_fraction": 0.2},
            replicates=2,
        ),
    },
    notes=_V1_NOTES.replace(
        "λ = U(0, 1.5)·λ_max (the identities hold for every λ ≥ 0)", "λ = U(0, 1]·λ_max"
    ),
    uses=[WEIGHT_SUM, WEIGHT_UPPER, WEIGHT_LOWER, GROUP_MASS, LAMBDA_MAX],
)
weights_sum = weights_data.claim(
    id="gifair/weights/sum-one",
    bound=WEIGHT_SUM,
    statement="D1: Σ_k q_k(θ) = Σ_k p_k = 1 for every θ and λ, ties included.",
    criterion=Identity("q_sum", "q_sum_d1", rtol=0.0, atol=_TOL, x="d"),
)
weights_upper = weights_data.claim(
    id="gifair/weights/upper",
    bound=WEIGHT_UPPER,
    statement="D2: q_k ≤ p_k + λ(d − 1)/|𝒜_{s_k}|.",
    criterion=UpperBoundHolds("q_top", "q_top_d2", over="every", x="d", rtol=_TOL),
)
weights_lower = weights_data.claim(
    id="gifair/weights/lower",
    bound=WEIGHT_LOWER,
    statement="D2: q_k ≥ p_k − λ(d − 1)/|𝒜_{s_k}|.",
    criterion=LowerBoundHolds("q_bottom", "q_bottom_d2", over="every", x="d", rtol=_TOL),
)
weights_double = weights_data.claim(
    id="gifair/weights/at-most-double",
    bound=WEIGHT_UPPER,
    statement="D2: for λ ≤ λ_max every q_k ≤ 2p_k — GIFAIR at most doubles a client's weight.",
    criterion=UpperBoundHolds("q_ratio", "doubling", over="every", x="d", rtol=_TOL),
    notes="q_ratio is max_k q_k/p_k of the batch.",
)
weights_mass = weights_data.claim(
    id="gifair/weights/group-mass",
    bound=GROUP_MASS,
    statement="D2: a group's total weight is Σ_{k∈𝒜_i} q_k = P_i + λr_i.",
    criterion=Identity("group_mass", "group_mass_d2", rtol=0.0, atol=_TOL, x="d"),
)


# ==================================================================== V2: positivity iff λ_max
def sign_patterns(params: dict[str, Any], seed: int) -> dict[str, float]:
    """min q_k over every weak ordering of the d groups at λ = ``lam_frac``·λ_max (registry).

    Group losses run over {0, …, d−1}^d (every weak ordering, ties included); the weights of all
    patterns are computed at once. ``min_lower`` is D2's lower bound min_k p_k − λ(d−1)/|𝒜_{s_k}|
    (attained by the strict orderings that put client k's group last).
    """
    rng = np.random.default_rng(seed)
    d = int(params["d"])
    sizes = rng.integers(1, 5, size=d)
    labels = np.repeat(np.arange(d), sizes)
    groups = GroupStructure(labels, rng.dirichlet(np.ones(labels.size)))
    lam = float(params["lam_frac"]) * _lambda_max(groups)
    levels = np.array(list(itertools.product(range(d), repeat=d)), dtype=np.float64)
    q = groups.weights(lam, levels[:, labels])
    lower = WEIGHT_LOWER.evaluate(p_k=groups.p, lam=lam, d=d, A_k=groups.client_group_sizes)
    return {
        "min_q": float(q.min()),
        "min_lower": float(np.min(lower)),
        "rounding": float(-4 * np.finfo(np.float64).eps * groups.p.max()),
    }


patterns_data = Measurement(
    id="gifair/weights/all-sign-patterns",
    experiment=sign_patterns,
    sweeps={
        "smoke": Sweep(grid={"d": [3], "lam_frac": [0.9, 1.0, 1.01]}, replicates=2),
        "quick": Sweep(
            grid={"d": [2, 3, 4, 5], "lam_frac": [0.5, 0.9, 1.0, 1.01, 1.1]}, replicates=3
        ),
    },
    notes=(
        "One random structure per replicate (sizes U{1..4}, p ~ Dirichlet(1)); λ = lam_frac·λ_max "
        "with λ_max from gifair.lambda-max; all d^d group-loss patterns on {0, …, d−1}. "
        "'rounding' = −4·eps·max_k p_k, the floating-point slack of q_k = 0 at λ = λ_max."
    ),
    uses=[LAMBDA_MAX, WEIGHT_LOWER],
)
positive_below = patterns_data.claim(
    id="gifair/lambda-max/positive-weights",
    bound=LAMBDA_MAX,
    statement=(
        "§3.1: for 0 ≤ λ ≤ λ_max = min_k p_k|𝒜_{s_k}|/(d − 1) every weight q_k is ≥ 0, for every "
        "sign pattern of the group losses."
    ),
    criterion=LowerBoundHolds("min_q", "rounding", over="every", x="lam_frac"),
    sweeps={
        "smoke": Sweep(grid={"d": [3], "lam_frac": [0.9, 1.0]}, replicates=2),
        "quick": Sweep(grid={"d": [2, 3, 4, 5], "lam_frac": [0.5, 0.9, 1.0]}, replicates=3),
    },
    notes="λ = λ_max itself is included (q_k = 0 for the smallest p_k|𝒜_{s_k}|).",
)
negative_above = patterns_data.claim(
    id="gifair/lambda-max/negative-weight-beyond",
    bound=LAMBDA_MAX,
    statement=(
        "Conversely (the 'iff' of D2): just above λ_max some sign pattern gives a negative "
        "weight, so the positivity claim fails there."
    ),
    criterion=LowerBoundHolds("min_q", "rounding", over="every", x="lam_frac"),
    sweeps={
        "smoke": Sweep(grid={"d": [3], "lam_frac": [1.01]}, replicates=2),
        "quick": Sweep(grid={"d": [2, 3, 4, 5], "lam_frac": [1.01]}, replicates=3),
    },
    expect="violated",
    notes=(
        "A consequence, not an erratum: the positivity statement judged at λ = 1.01λ_max must "
        "fail. A λ_max too small by 1% flips this claim, one too large flips the claim above."
    ),
)
lower_attained = patterns_data.claim(
    id="gifair/weights/lower-attained",
    bound=WEIGHT_LOWER,
    statement=(
        "D2's lower bound is attained: the least weight over all sign patterns is "
        "min_k p_k − λ(d − 1)/|𝒜_{s_k}|."
    ),
    criterion=Identity("min_q", "min_lower", rtol=_TOL, atol=1e-15, x="lam_frac"),
)


# ========================================================================= V2: Example 3.3
def example33(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Example 3.3's printed weights against Lemma 3.2's q at λ = ``lam_frac``·λ_max."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(40)) if params["shares"] == "dirichlet" else None
    structure = example_3_3(0.0, p).groups
    lam = float(params["lam_frac"]) * _lambda_max(structure)
    example = example_3_3(lam, p)
    q = example.groups.weights(lam, example.client_losses)
    k = int(np.argmax(np.abs(q - example.weights)))
    return {"q_lemma": float(q[k]), "q_printed": float(example.weights[k])}


example33_claim = Measurement(
    id="gifair/example33/instances",
    experiment=example33,
    sweeps={
        "smoke": Sweep(grid={"lam_frac": [0.5, 1.0]}, fixed={"shares": "dirichlet"}),
        "quick": Sweep(
            grid={"shares": ["uniform", "dirichlet"], "lam_frac": [0.1, 0.5, 1.0]}, replicates=2
        ),
    },
    notes="4 groups × 10 clients with L_1 > L_2 > L_3 > L_4; p uniform or Dirichlet(1); the "
    "worst client.",
    uses=[LAMBDA_MAX],
).claim(
    id="gifair/example33/weights",
    source=Citation("gifair", "Example 3.3"),
    statement=(
        "Example 3.3: with 4 groups of 10 clients and L_1 > L_2 > L_3 > L_4 the weights are "
        "p_k(1 + 3λ/(10p_k)), p_k(1 + λ/(10p_k)), p_k(1 − λ/(10p_k)), p_k(1 − 3λ/(10p_k))."
    ),
    criterion=Identity("q_lemma", "q_printed", rtol=_TOL, atol=1e-15, x="lam_frac"),
)
