"""GIFAIR-FL's group structure: Lemma 3.2 and the derived facts D1–D4 (guide §1, V1, V2).

Theory asserted, on random instances (hypothesis) of which a share has *exact* ties between
group losses (integer client losses: equal sums over equal sizes give bit-equal means):
- Lemma 3.2: H = Σ p F + λR equals Σ q F with q = p + λ r/|A_s| (ties give sign(0) = 0);
- D1 Σ q = 1; D2 q within p ± λ(d−1)/|A_s|, inside [0, 2p] for λ ≤ λ_max, a group's total
  weight P_i + λ r_i; q ≥ 0 for every ordering iff λ ≤ λ_max;
- D3: pᵀF + λ Σ |g_ijᵀF| (the support function of Z_λ) equals H; D4's two ordered forms equal R;
- ε in the appendix form equals 1 − λ/λ_max; Example 3.3's printed weights equal q; the main
  text's individual-fairness formula differs from H (erratum);
- each validation rule raises ParameterError naming the rule.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory.errors import ParameterError
from fedtheory.papers.gifair import GroupStructure, example_3_3


def _naive_H(labels: np.ndarray, p: np.ndarray, F: np.ndarray, lam: float) -> float:
    """H by the definition with Python loops (independent of the vectorised code)."""
    d = int(labels.max()) + 1
    L = [sum(F[k] for k in range(len(F)) if labels[k] == i) / np.sum(labels == i) for i in range(d)]
    R = sum(abs(L[i] - L[j]) for i in range(d) for j in range(i + 1, d))
    return float(np.dot(p, F) + lam * R)


@st.composite
def instances(draw: st.DrawFn) -> tuple[GroupStructure, np.ndarray, float, bool]:
    d = draw(st.integers(2, 8))
    sizes = draw(st.lists(st.integers(1, 4), min_size=d, max_size=d))
    seed = draw(st.integers(0, 2**32 - 1))
    tied = draw(st.integers(0, 4)) == 0  # about 20% with forced ties
    rng = np.random.default_rng(seed)
    labels = rng.permutation(np.repeat(np.arange(d), sizes))
    p = rng.dirichlet(np.ones(labels.size))
    p = p / p.sum()
    groups = GroupStructure(labels, p)
    if tied:
        # integer losses from a small set: many group means coincide exactly
        F = rng.integers(0, 3, size=labels.size).astype(np.float64)
    else:
        F = rng.exponential(size=labels.size)
    lam = groups.lambda_max * draw(st.sampled_from([0.0, 0.3, 0.9, 1.0]))
    return groups, F, lam, tied


@settings(max_examples=300, deadline=None)
@given(instances())
def test_lemma_3_2_and_d1_to_d4(case: tuple[GroupStructure, np.ndarray, float, bool]) -> None:
    groups, F, lam, _ = case
    d, K = groups.num_groups, groups.num_clients
    q = groups.weights(lam, F)
    H = groups.objective(lam, F)
    scale = max(1.0, float(np.abs(F).max()))
    assert abs(H - _naive_H(groups.labels, groups.p, F, lam)) <= 1e-12 * scale
    assert abs(H - q @ F) <= 1e-12 * scale  # Lemma 3.2
    assert abs(q.sum() - 1.0) <= 1e-12  # D1
    half = lam * (d - 1) / groups.client_group_sizes
    assert np.all(q >= groups.p - half - 1e-15) and np.all(q <= groups.p + half + 1e-15)
    assert np.all(q >= -1e-15) and np.all(q <= 2 * groups.p + 1e-15)  # D2, λ ≤ λ_max
    r_groups = groups.group_ranks(F)
    totals = np.bincount(groups.labels, weights=q, minlength=d)
    np.testing.assert_allclose(totals, groups.group_weights + lam * r_groups, atol=1e-15)
    assert r_groups.sum() == 0
    R = groups.spread(F)
    assert abs(groups.ordered_spread(F) - R) <= 1e-12 * scale * d  # D4
    assert abs(groups.sum_largest_spread(F) - R) <= 1e-12 * scale * d
    assert abs(groups.zonotope_support(lam, F) - H) <= 1e-12 * scale  # D3
    L = groups.group_losses(F)
    if len(np.unique(L)) == d:  # no tie: ranks are −d+1, −d+3, …, d−1
        assert sorted(r_groups.tolist()) == list(range(-d + 1, d, 2))
    assert q.shape == (K,)


def test_forced_tie_uses_sign_zero() -> None:
    groups = GroupStructure(np.array([0, 1, 1, 2]), np.full(4, 0.25))
    F = np.array([5.0, 1.0, 3.0, 2.0])  # L = (5, 2, 2): groups 1 and 2 tie exactly
    assert groups.group_ranks(F).tolist() == [2, -1, -1]
    lam = 0.1
    q = groups.weights(lam, F)
    np.testing.assert_allclose(q, [0.25 + 0.2, 0.25 - 0.05, 0.25 - 0.05, 0.25 - 0.1], atol=1e-16)
    assert q.sum() == pytest.approx(1.0, abs=1e-15)
    assert groups.objective(lam, F) == pytest.approx(q @ F, abs=1e-15)
    # with sign(0) = ±1 instead, the identity would still hold but q would differ: check we use 0
    assert groups.ranks(F).tolist() == [2, -1, -1, -1]


def test_broadcasting_over_leading_axes() -> None:
    rng = np.random.default_rng(1)
    groups = GroupStructure(np.array([0, 0, 1, 2, 2, 2]), rng.dirichlet(np.ones(6)))
    F = rng.exponential(size=(3, 5, 6))
    lam = 0.5 * groups.lambda_max
    for method in ("spread", "ordered_spread", "sum_largest_spread"):
        batched = getattr(groups, method)(F)
        rows = np.array([[getattr(groups, method)(F[a, b]) for b in range(5)] for a in range(3)])
        np.testing.assert_allclose(batched, rows, rtol=1e-14)
    np.testing.assert_allclose(
        groups.weights(lam, F)[2, 4], groups.weights(lam, F[2, 4]), rtol=1e-15
    )
    assert groups.group_losses(F).shape == (3, 5, 3)
    np.testing.assert_allclose(
        groups.objective(lam, F), np.einsum("abk,abk->ab", groups.weights(lam, F), F), rtol=1e-13
    )


def test_lambda_max_is_the_positivity_threshold() -> None:
    rng = np.random.default_rng(2)
    labels = np.array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    groups = GroupStructure.from_counts(labels, rng.integers(20, 100, size=9))
    lam_max = groups.lambda_max
    worst = int(np.argmin(groups.p * groups.client_group_sizes))
    assert lam_max == pytest.approx(
        groups.p[worst] * groups.client_group_sizes[worst] / (groups.num_groups - 1), rel=1e-15
    )
    # every strict ordering of the groups: q ≥ 0 at λ_max, some q < 0 just above it
    d = groups.num_groups
    minimum_at, minimum_above = np.inf, np.inf
    for order in itertools.permutations(range(d)):
        L = np.empty(d)
        L[list(order)] = np.arange(d, dtype=np.float64)
        F = L[labels]
        minimum_at = min(minimum_at, groups.weights(lam_max, F).min())
        minimum_above = min(minimum_above, groups.weights(lam_max * (1 + 1e-6), F).min())
    assert minimum_at >= -1e-16 and minimum_at <= 1e-16  # attained by the worst client
    assert minimum_above < 0
    for frac in (0.0, 0.25, 0.9, 1.0):
        lam = frac * lam_max
        assert groups.epsilon(lam) == pytest.approx(1 - lam / lam_max, abs=1e-14)
    individual = GroupStructure.individual(np.array([0.1, 0.2, 0.3, 0.4]))
    assert individual.lambda_max == pytest.approx(0.1 / 3, rel=1e-15)
    assert individual.group_sizes.tolist() == [1, 1, 1, 1]


def test_check_lambda_states_lambda_max() -> None:
    groups = GroupStructure(np.array([0, 1, 1]), np.array([0.2, 0.3, 0.5]))
    lam_max = groups.lambda_max  # min(0.2, 0.6, 1.0)/1 = 0.2
    assert lam_max == pytest.approx(0.2)
    assert groups.check_lambda(0.1) == 0.1
    assert groups.check_lambda(lam_max, strict=False) == lam_max
    with pytest.raises(ParameterError, match=r"λ_max = .*= 0\.2 "):
        groups.check_lambda(lam_max)
    with pytest.raises(ParameterError, match="λ_max"):
        groups.check_lambda(lam_max * 1.01, strict=False)
    with pytest.raises(ParameterError, match="λ_max") as info:
        groups.check_lambda(-0.01)
    assert info.value.parameter == "lam" and info.value.value == -0.01


@pytest.mark.parametrize(
    ("labels", "p", "match"),
    [
        ([0], [1.0], "K ≥ 2"),
        ([0, 0, 0], [0.2, 0.3, 0.5], "d ≥ 2"),
        ([0, 2, 2], [0.2, 0.3, 0.5], "non-empty"),
        ([0, -1, 1], [0.2, 0.3, 0.5], r"\[0, d\)"),
        ([0.0, 1.0, 1.0], [0.2, 0.3, 0.5], "integer"),
        ([0, 1, 1], [0.2, 0.3, 0.6], "sum to 1"),
        ([0, 1, 1], [-0.2, 0.7, 0.5], "non-negative"),
        ([0, 1, 1], [0.5, 0.5], "shape"),
        ([0, 1, 1], [0.2, np.nan, 0.5], "finite"),
    ],
)
def test_bad_structures(labels: list[float], p: list[float], match: str) -> None:
    with pytest.raises(ParameterError, match=match):
        GroupStructure(np.array(labels), np.array(p))


def test_bad_counts_and_losses() -> None:
    with pytest.raises(ParameterError, match="positive integers"):
        GroupStructure.from_counts([0, 1], [0, 3])
    groups = GroupStructure.from_counts([0, 1, 1], [1, 2, 3])
    np.testing.assert_allclose(groups.p, [1 / 6, 2 / 6, 3 / 6], rtol=1e-15)
    with pytest.raises(ParameterError, match=r"\(\.\.\., K\)"):
        groups.spread(np.ones(4))
    with pytest.raises(ParameterError, match="non-negative"):
        groups.weights(-1.0, np.ones(3))
    with pytest.raises(ParameterError, match="d = K"):
        groups.printed_individual_weights(0.0, np.ones(3))


def test_example_3_3_weights_equal_lemma_3_2() -> None:
    rng = np.random.default_rng(3)
    for p in (None, rng.dirichlet(np.ones(40))):
        example = example_3_3(0.002, p)
        groups = example.groups
        assert groups.group_ranks(example.client_losses).tolist() == [3, 1, -1, -3]
        np.testing.assert_allclose(
            groups.weights(0.002, example.client_losses), example.weights, atol=1e-16
        )


def test_printed_individual_formula_is_an_erratum() -> None:
    rng = np.random.default_rng(4)
    groups = GroupStructure.individual(rng.dirichlet(np.ones(6)))
    F = rng.exponential(size=6)
    lam = 0.5 * groups.lambda_max
    H = groups.objective(lam, F)
    printed = groups.printed_individual_weights(lam, F) @ F
    corrected = (groups.p + lam * groups.ranks(F)) @ F
    assert corrected == pytest.approx(H, rel=1e-14)
    assert groups.p @ (groups.printed_individual_weights(lam, F) * F) == pytest.approx(H, rel=1e-14)
    assert abs(printed - H) > 0.1 * H  # Σ(1 + λr/p)F drops the p_k: about K times H


def test_zonotope_generators() -> None:
    groups = GroupStructure(np.array([0, 1, 1, 2]), np.full(4, 0.25))
    gen = groups.zonotope_generators()
    assert groups.pairs.tolist() == [[0, 1], [0, 2], [1, 2]]
    np.testing.assert_allclose(
        gen, [[1, -0.5, -0.5, 0], [1, 0, 0, -1], [0, 0.5, 0.5, -1]], atol=1e-16
    )
    np.testing.assert_allclose(gen.sum(axis=1), 0, atol=1e-16)  # moves mass, adds none (D1)
