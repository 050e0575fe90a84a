"""The exact weak-learner oracles of the ffgb checks (reading guide §5): kernels against their
numpy twins, and the γ-conditions (9), (13), (19)–(20) on random queries.

Theory asserted:
- every oracle satisfies its condition in its norm on every random query (hypothesis), measured
  by independent numpy norms, and the kernel's reported ratio is that measured ratio;
- the scale, biased, random and adversarial oracles are exact: ratio = 1 − γ (the bias is as
  large as the condition allows), the top-k oracle keeps the fewest atoms that satisfy it;
- the Lipschitz oracles (scale, constant bias) satisfy (19), (20) and ‖h‖_lip ≤ ‖φ‖_lip;
- the random oracle's direction is a function of (seed, replicate, round, client, step) only.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ffgb as ref

from fedtheory.errors import ParameterError
from fedtheory.papers.ffgb import oracles
from fedtheory.papers.ffgb.oracles import weak_learner


def _call(oracle, phi, w, g, call=(3, 1, 2), r=0):
    out = np.empty_like(phi)
    t, i, k = call
    ratio = weak_learner(oracle, r, t, i, k, phi, w, g, out)
    return out, ratio


def _problem(seed: int, atoms: int, outputs: int, holes: int):
    rng = np.random.default_rng(seed)
    phi = rng.standard_normal(atoms * outputs) * rng.choice([1e-3, 1.0, 1e3])
    w = rng.random(atoms) + 0.05
    w[rng.choice(atoms, size=min(holes, atoms - 1), replace=False)] = 0.0
    w /= w.sum()
    g = rng.standard_normal(atoms * outputs)
    return phi, w, g, rng


def _twin(kind: str, norm: str, gamma: float, oracle, g):
    if kind == "scale":
        return ref.scale_oracle(gamma)
    if kind == "biased":
        return ref.biased_oracle(gamma, norm, oracle.direction)
    if kind == "topk":
        return ref.topk_oracle(gamma, norm)
    if kind == "random":
        return ref.random_oracle(gamma, norm, int(oracle.seeds[0]))
    return ref.adversarial_oracle(gamma, norm, oracle.target)


def _bound(kind: str, norm: str, gamma: float, dimension: int, seed: int):
    factory = oracles.ORACLES[kind]
    oracle = factory(gamma, norm=norm)
    rng = np.random.default_rng(seed + 1)
    return oracle.bind(
        dimension=dimension,
        points=None,
        target=rng.standard_normal(dimension),
        seeds=np.array([rng.integers(2**63)], dtype=np.uint64),
    )


CASES = [
    (kind, norm) for kind in ("scale", "biased", "topk", "random", "adv") for norm in ("l2", "sup")
]


@pytest.mark.parametrize(("kind", "norm"), CASES)
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    gamma=st.sampled_from([1.0, 0.9, 0.5, 0.3, 0.05]),
    atoms=st.integers(1, 12),
    outputs=st.integers(1, 3),
    holes=st.integers(0, 4),
)
def test_oracles_satisfy_their_condition_and_match_the_twin(
    kind: str, norm: str, seed: int, gamma: float, atoms: int, outputs: int, holes: int
) -> None:
    phi, w, g, _ = _problem(seed, atoms, outputs, holes)
    oracle = _bound(kind, norm, gamma, phi.size, seed)
    h, ratio = _call(oracle, phi, w, g)
    twin = _twin(kind, norm, gamma, oracle, g)(
        phi.reshape(atoms, outputs), w, g.reshape(atoms, outputs), (3, 1, 2)
    )
    scale = max(1.0, float(np.abs(phi).max()))
    np.testing.assert_allclose(h.reshape(atoms, outputs), twin, rtol=1e-12, atol=1e-13 * scale)
    measured = ref.ratio(
        norm, gamma, phi.reshape(atoms, outputs), h.reshape(atoms, outputs), w, None
    )
    assert ratio == pytest.approx(measured, rel=1e-10, abs=1e-14)
    assert measured <= (1.0 - gamma) * (1 + 1e-12) + 1e-15
    if kind != "topk" and ref.norm(norm, phi.reshape(atoms, outputs), w) > 0:
        exact = (
            kind != "adv"
            or ref.norm(norm, g.reshape(atoms, outputs) - oracle.target.reshape(atoms, outputs), w)
            > 0
        )
        if exact:
            assert measured == pytest.approx(1.0 - gamma, rel=1e-10, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), gamma=st.sampled_from([0.9, 0.5, 0.2]))
def test_topk_keeps_the_fewest_atoms(seed: int, gamma: float) -> None:
    """Dropping the smallest kept atom would break (9): the set is minimal."""
    phi, w, g, _ = _problem(seed, 10, 1, 2)
    h, _ = _call(oracles.topk(gamma), phi, w, g)
    kept = np.flatnonzero(h != 0.0)
    if kept.size == 0:
        return
    scores = w * phi**2
    smallest = kept[np.argmin(scores[kept])]
    fewer = h.copy()
    fewer[smallest] = 0.0
    assert ref.l2((fewer - phi)[:, None], w) > (1 - gamma) * ref.l2(phi[:, None], w)


@pytest.mark.parametrize("norm", ["l2", "sup"])
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    atoms=st.integers(2, 40),
    spread=st.sampled_from([0, 8, 12, 30]),
)
def test_topk_at_gamma_one_is_the_identity_on_the_support(
    norm: str, seed: int, atoms: int, spread: int
) -> None:
    """At γ = 1 condition (9)/(13) reads ‖h − φ‖ ≤ 0: the only admissible answer is h = φ on
    supp α, bit for bit, and the measured ratio is exactly 0 — also when the scores span more
    than the 16 digits of a double (entries 10^{-spread} next to 1), where total − kept
    cancels to 0 before the smallest atoms are in."""
    phi, w, g, rng = _problem(seed, atoms, 1, 2)
    phi = phi * 10.0 ** -rng.integers(0, spread + 1, size=atoms)
    h, ratio = _call(oracles.topk(1.0, norm=norm), phi, w, g)
    support = w > 0
    assert np.array_equal(h[support], phi[support])
    assert ratio == 0.0


def test_topk_at_gamma_one_keeps_atoms_below_the_total_s_rounding() -> None:
    """One unit atom and nine of score 1e-18 (< ulp(1)/2): 1 + 9e-18 rounds to 1, so the
    mass left after keeping the first atom computed as total − kept is 0 and the nine would be
    dropped (ratio 3e-9 > 0 = 1 − γ, the ConditionError FFGB raised at round 386, K = 4)."""
    phi = np.array([1.0] + [1e-9] * 9)
    w = np.full(10, 0.1)
    h, ratio = _call(oracles.topk(1.0), phi, w, np.zeros(10))
    assert np.array_equal(h, phi)
    assert ratio == 0.0


@pytest.mark.parametrize("kind", ["scale", "biased"])
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    gamma=st.sampled_from([1.0, 0.7, 0.4]),
    dim=st.sampled_from([1, 2]),
)
def test_lipschitz_oracles_satisfy_19_and_20(kind: str, seed: int, gamma: float, dim: int) -> None:
    rng = np.random.default_rng(seed)
    atoms = 9
    points = rng.random((atoms, dim))
    phi = np.sin(3 * points @ rng.standard_normal(dim)) + rng.standard_normal()
    w = np.where(rng.random(atoms) < 0.6, rng.random(atoms), 0.0)
    w[0] = 1.0
    w /= w.sum()
    oracle = oracles.ORACLES[kind](gamma, norm="lip").bind(dimension=atoms, points=points)
    h, ratio = _call(oracle, phi, w, np.zeros(atoms))
    twin = _twin(kind, "lip", gamma, oracle, None)(phi[:, None], w, None, (0, 0, 1))
    np.testing.assert_allclose(h, twin[:, 0], rtol=1e-12, atol=1e-14)
    phi2, h2 = phi[:, None], h[:, None]
    assert ref.sup(h2 - phi2, w) <= (1 - gamma) * ref.sup(phi2, w) * (1 + 1e-12) + 1e-15  # (19)
    slope = ref.lipschitz(phi2, points)
    assert ref.lipschitz(h2 - phi2, points) <= (1 - gamma) * slope * (1 + 1e-12) + 1e-14  # (20)
    assert ref.lipschitz(h2, points) <= slope * (1 + 1e-12)
    assert ratio == pytest.approx(
        ref.ratio("lip", gamma, phi2, h2, w, points), rel=1e-10, abs=1e-14
    )


def test_random_direction_depends_on_the_call_only() -> None:
    phi, w, g, _ = _problem(0, 8, 2, 1)
    seeds = np.array([11, 12], dtype=np.uint64)
    oracle = oracles.random_direction(0.5).bind(seeds=seeds)
    first, _ = _call(oracle, phi, w, g, (4, 2, 3), r=1)
    again, _ = _call(oracle, phi, w, g + 1.0, (4, 2, 3), r=1)  # g is not used
    np.testing.assert_array_equal(first, again)
    alone = oracles.random_direction(0.5).bind(seeds=seeds[1:])
    np.testing.assert_array_equal(first, _call(alone, phi, w, g, (4, 2, 3), r=0)[0])
    for other in ((4, 2, 4), (4, 3, 3), (5, 2, 3)):
        assert not np.array_equal(first, _call(oracle, phi, w, g, other, r=1)[0])
    assert not np.array_equal(first, _call(oracle, phi, w, g, (4, 2, 3), r=0)[0])


def test_the_random_directions_are_standard_normal() -> None:
    """Box–Muller on the counter stream: mean 0, variance 1, uncorrelated neighbours; the
    kernel's direction is the twin's draw, normalised."""
    draws = np.concatenate([ref.call_normals(7, t, 0, 1, 500) for t in range(4)])
    n = draws.size
    assert abs(draws.mean()) < 4 / np.sqrt(n)
    assert abs(draws.var() - 1.0) < 4 * np.sqrt(2 / n)
    assert abs(np.corrcoef(draws[:-1], draws[1:])[0, 1]) < 4 / np.sqrt(n)
    oracle = oracles.random_direction(0.5).bind(seeds=np.array([7], dtype=np.uint64))
    w = np.full(500, 1 / 500)
    phi = np.zeros(500)
    phi[0] = 1.0
    h, _ = _call(oracle, phi, w, np.zeros(500), (0, 0, 1))
    xi = ref.call_normals(7, 0, 0, 1, 500)
    expected = phi - 0.5 * ref.l2(phi[:, None], w) * xi / ref.l2(xi[:, None], w)
    np.testing.assert_allclose(h, expected, rtol=1e-12, atol=1e-15)


def test_oracle_bad_input() -> None:
    for gamma in (0.0, -0.1, 1.5, float("nan"), True):
        with pytest.raises(ParameterError, match="gamma"):
            oracles.scale(gamma)
    with pytest.raises(ParameterError, match=r"norm='lip'.*topk.*l2, sup"):
        oracles.topk(0.5, norm="lip")
    with pytest.raises(ParameterError, match="norm"):
        oracles.random_direction(0.5, norm="lip")
    with pytest.raises(ParameterError, match="direction"):
        oracles.biased(0.5, direction=np.zeros(3))
    with pytest.raises(ParameterError, match="points"):
        oracles.scale(0.5, norm="lip").bind(dimension=4, points=None)
    with pytest.raises(ParameterError, match="constant direction"):
        oracles.biased(0.5, norm="lip", direction=[1.0, 2.0]).bind(
            dimension=2, points=np.array([[0.0], [1.0]])
        )
    with pytest.raises(ParameterError, match="seeds"):
        oracles.random_direction(0.5).bind(dimension=3)
    with pytest.raises(ParameterError, match="target"):
        oracles.adversarial(0.5).bind(dimension=3, target=None)
    with pytest.raises(ParameterError, match="shape"):
        oracles.biased(0.5, direction=np.ones(3)).bind(dimension=4)
    assert oracles.oracle_gamma(oracles.scale(0.25)) == 0.25
    assert oracles.oracle_gamma(object()) is None
