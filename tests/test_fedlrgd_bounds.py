"""The bounds of Jadbabaie, Makur & Shah (``fedtheory.bounds.fedlrgd``) against the theory.

Guide ``shared/theory/fedlrgd.md`` §5.2: V1 (Theorem 1's constant chain), V9 (the proof of
Theorem 2 closes with r from (47) and S from (48)), V10 (the exponent of r(47) in 1/ε), V12
(Theorem 3's algebra), V13 (Lemma 4, Proposition 2), the running-time erratum (§6.11), D1
(assumption (8) against smoothness) and D3 (federated GD). Astronomically large values are
checked in log space; hypotheses must fail with a ConditionError naming them.
"""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from click.testing import CliRunner
from scipy import stats

from fedtheory import bounds
from fedtheory.bounds.fedlrgd import assumption8_rank_limit, thm1_log_constant
from fedtheory.cli import cli
from fedtheory.errors import ConditionError, FloatRangeError, ParameterError

RANK = bounds.get("fedlrgd.thm2.rank")
#: The guide's calibration point (§3.2.3): α = L2 = B = μ = p = F(θ⁰) − F_* = 1, κ = 2.
BASE = {"alpha": 1, "L2": 1, "kappa": 2, "B": 1, "mu": 1, "p": 1, "Delta0": 1}
LN10 = math.log(10)


# ---------------------------------------------------------------------------- registry
EXPECTED = {
    "fedlrgd.lemma1": ("upper", "printed"),
    "fedlrgd.thm1": ("upper", "printed"),
    "fedlrgd.thm1.constant": ("exact", "printed"),
    "fedlrgd.thm1.rmin": ("exact", "printed"),
    "fedlrgd.thm1.rank-at-tolerance": ("upper", "derived"),
    "fedlrgd.thm2.rank": ("exact", "printed"),
    "fedlrgd.thm2.iterations": ("lower", "printed"),
    "fedlrgd.thm2": ("exact", "printed"),
    "fedlrgd.thm2.sufficient-rank": ("upper", "printed"),
    "fedlrgd.thm2.rank-exponent": ("exact", "derived"),
    "fedlrgd.thm3": ("order-upper", "printed"),
    "fedlrgd.thm3.upper": ("upper", "printed"),
    "fedlrgd.thm3.lower": ("lower", "printed"),
    "fedlrgd.thm3.b-star": ("exact", "printed"),
    "fedlrgd.thm3.b-star.lower": ("lower", "printed"),
    "fedlrgd.thm3.b-star.upper": ("upper", "printed"),
    "fedlrgd.lemma3": ("upper", "printed"),
    "fedlrgd.lemma4.lower": ("lower", "printed"),
    "fedlrgd.lemma4.upper": ("upper", "printed"),
    "fedlrgd.prop1": ("order-upper", "printed"),
    "fedlrgd.prop1.ratio": ("order-upper", "derived"),
    "fedlrgd.prop1.rank-exponent": ("upper", "printed"),
    "fedlrgd.prop2.lower": ("lower", "printed"),
    "fedlrgd.prop2.upper": ("upper", "printed"),
    "fedlrgd.eq18": ("exact", "printed"),
    "fedlrgd.eq18.corrected": ("upper", "derived"),
    "fedlrgd.eq19": ("exact", "printed"),
    "fedlrgd.eq19.corrected": ("upper", "derived"),
    "fedlrgd.fedgd": ("upper", "derived"),
    "fedlrgd.d1.conditioning": ("lower", "derived"),
}


def test_registered_ids_kinds_and_statuses() -> None:
    assert set(bounds.ids("fedlrgd")) == set(EXPECTED)
    for bound_id, (kind, status) in EXPECTED.items():
        bound = bounds.get(bound_id)
        assert (bound.kind, bound.status) == (kind, status), bound_id


def test_lemma2_is_the_classic_inexact_gd_bound() -> None:
    """Lemma 2 is Friedlander–Schmidt's, registered once as classic.inexact-gd."""
    classic = bounds.get("classic.inexact-gd")
    assert "FedLRGD" in classic.source.reference
    assert "fedlrgd.lemma2" not in bounds.ids()
    # (63): errors ≤ 9(B + 3)⁴δ²p give (1 − 1/κ)^S Δ0 + 9(B+3)⁴δ²p(1 − (1 − 1/κ)^S)/(2μ)
    uniform = bounds.get("classic.inexact-gd.bounded-errors")
    B, delta, p, mu, L, S = 1.0, 0.1, 3, 0.5, 2.0, 7
    value = uniform.evaluate(L=L, mu=mu, S=S, Delta0=1.0, eps2=9 * (B + 3) ** 4 * delta**2 * p)
    assert value <= (1 - mu / L) ** S + 9 * (B + 3) ** 4 * delta**2 * p / (2 * mu)


# ---------------------------------------------------------------------------- r(47)
def test_rank_47_is_422_at_the_guides_point() -> None:
    """The guide's sympy sketch (§3.4): 422 at d = 1, η = 10, ε = 0.1 with BASE (the second
    branch, 421.55…, is rounded up), 619 at ε = 1e-3; S(48) = 14 and 21."""
    assert RANK.evaluate(d=1, eta=10, epsilon=0.1, **BASE) == 422.0
    assert RANK.evaluate(d=1, eta=10, epsilon=1e-3, **BASE) == 619.0
    iterations = bounds.get("fedlrgd.thm2.iterations")
    point = {k: v for k, v in BASE.items() if k in iterations.symbols}
    assert math.ceil(iterations.evaluate(epsilon=0.1, **point)) == 14
    assert math.ceil(iterations.evaluate(epsilon=1e-3, **point)) == 21


@pytest.mark.parametrize(
    ("d", "eta", "epsilon", "guide"),
    [
        (1, 4.5, 0.1, 9.2e17),
        (1, 4.5, 1e-3, 9.2e19),
        (1, 6, 0.1, 2.7e5),
        (1, 20, 0.1, 115),  # first branch, exact
        (2, 9, 0.1, 1.8e27),
        (2, 20, 0.1, 1.7e4),
        (3, 13, 0.1, 1.5e52),
        (3, 30, 0.1, 1.4e6),
        (5, 50, 0.1, 9.8e10),  # first branch
    ],
)
def test_rank_47_reproduces_the_guides_table(
    d: int, eta: float, epsilon: float, guide: float
) -> None:
    """The guide's table of (47) (§3.2.3), given there to two significant digits."""
    log10_r = RANK.log10_evaluate(d=d, eta=eta, epsilon=epsilon, **BASE)
    assert 10 ** (log10_r - math.floor(math.log10(guide))) == pytest.approx(
        guide / 10 ** math.floor(math.log10(guide)), abs=0.051
    )


def test_rank_47_beyond_float64_in_log_space() -> None:
    """Near η = (2α + 2)d the rank is far beyond float64: evaluate refuses with the exponent,
    log_evaluate answers (≈ 10^25093 at d = 2, η = 8.001; ≈ 10^8.66e9 at d = 5, η = 20 + 1e-7)."""
    point = {"d": 2, "eta": 8.001, "epsilon": 0.1, **BASE}
    with pytest.raises(FloatRangeError) as raised:
        RANK.evaluate(**point)
    assert raised.value.log10 == pytest.approx(25093.314, abs=1e-3)
    assert RANK.log10_evaluate(**point) == pytest.approx(25093.314141882, rel=1e-12)
    # exact in arbitrary precision: the second branch of (47), unrounded
    with mpmath.workdps(40):
        d, eta = 2, mpmath.mpf("8.001")
        X = 1 + mpmath.mpf(9 * 256) / 2
        log_a = (
            d * mpmath.log(eta)
            + eta * (d + 1)
            + eta / 2 * mpmath.log(d)
            + eta * d * mpmath.log(2 * eta + 2 * d)
            - eta * d * mpmath.log(eta - 1)
        )
        exact = (log_a + d / 2 * mpmath.log(2 * X / mpmath.mpf("0.1"))) / (eta - 4 * d)
    assert RANK.log_evaluate(**point) == pytest.approx(float(exact), rel=1e-12)
    huge = RANK.log10_evaluate(d=5, eta=20.0000001, epsilon=1e-300, **BASE)
    assert 8.6e9 < huge < 8.7e9
    # vectorised over ε, finite everywhere
    logs = RANK.log10_evaluate(d=1, eta=4.5, epsilon=np.logspace(-1, -300, 7), **BASE)
    assert np.all(np.isfinite(logs)) and np.all(np.diff(logs) > 0)


def test_cli_eval_rank_47_and_log() -> None:
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    pairs = [f"{k}={v}" for k, v in BASE.items()]
    result = runner.invoke(
        cli,
        ["bounds", "eval", "fedlrgd.thm2.rank", "d=1", "eta=10", "epsilon=0.1", *pairs, "--log"],
    )
    assert result.exit_code == 0, result.output
    assert re.search(r"→\s+422\s+\(log10 2\.6253", result.stdout)
    result = runner.invoke(
        cli,
        ["bounds", "eval", "fedlrgd.thm2.rank", "d=2", "eta=8.001", "epsilon=0.1", *pairs, "--log"],
    )
    assert result.exit_code == 0, result.output
    assert "~10^25093.314" in result.stdout


# ---------------------------------------------------------------------------- r(47) is exact
def _rank_47_reference(
    d: int, eta: float | Fraction, epsilon: float | Fraction, *, dps: int = 100
) -> int:
    """(47) transcribed from the paper, independently of the registry: the inputs taken exactly
    (a float at its binary value, through Fraction), the second branch through its logarithm,
    BASE's constants, ``dps`` digits; the argument must be decidably away from an integer."""
    with mpmath.workdps(dps):

        def exact(value: float | Fraction | int) -> mpmath.mpf:
            fraction = Fraction(value)
            return mpmath.mpf(fraction.numerator) / fraction.denominator

        eta_, eps_ = exact(eta), exact(epsilon)
        alpha, L2, kappa, B, mu, p, delta0 = (exact(BASE[k]) for k in BASE)
        first = mpmath.e * mpmath.sqrt(d) * 2**d * (eta_ + d) ** d
        log_a = (
            d * mpmath.log(L2)
            + d * mpmath.log(eta_)
            + eta_ * (d + 1)
            + eta_ / 2 * mpmath.log(d)
            + eta_ * d * (mpmath.log(2 * eta_ + 2 * d) - mpmath.log(eta_ - 1))
        )
        X = delta0 + 9 * (B + 3) ** 4 * p / (2 * mu)
        log_second = (log_a + mpmath.mpf(d) / 2 * mpmath.log(kappa * X / ((kappa - 1) * eps_))) / (
            eta_ - (2 * alpha + 2) * d
        )
        x = max(first, mpmath.exp(log_second))
        assert abs(x - mpmath.nint(x)) > mpmath.mpf(10) ** (mpmath.log10(x) + 30 - dps)
        return int(mpmath.ceil(x))


@pytest.mark.parametrize(
    ("d", "eta", "epsilon"),
    [
        (1, 4.6, 1e-3),  # 7.0e16: the float64 path gave 70013243185696072, 49 below
        (1, 4.5, 0.1),  # the guide's 9.2e17
        (1, 4.5, 1e-3),
        (1, 5, 1e-30),
        (1, 6, 1e-60),
        (1, 10, 1e-200),
        (2, 9, 1e-3),
        (3, 13, 0.1),  # the guide's 1.5e52
    ],
)
def test_rank_47_is_exact_above_2_to_the_53(d: int, eta: float, epsilon: float) -> None:
    """Above 2**53 float64 has no room for every integer (and the float64 path was off, by
    more the larger r): r is a Python int equal to (47) computed independently in 100 digits."""
    value = RANK.evaluate(d=d, eta=eta, epsilon=epsilon, **BASE)
    assert type(value) is int and value > 2**53
    assert value == _rank_47_reference(d, eta, epsilon)


def test_rank_47_is_exact_between_2_to_the_40_and_2_to_the_53() -> None:
    """Below 2**53 the exact integer is a float64: a float, but the exact one (the argument is
    1508389598809017.69; float64 computed it below …017 and gave …017)."""
    value = RANK.evaluate(d=1, eta=4.6, epsilon=0.1, **BASE)
    assert type(value) is float and value == 1508389598809018 == _rank_47_reference(1, 4.6, 0.1)


def test_rank_47_far_beyond_2_to_the_53_and_at_exact_inputs() -> None:
    """A 169-digit rank (d = 1, η = 4.05) is exact to the last digit; Fraction and sympy
    rational inputs are used exactly (η = 23/5 is not the float 4.6: 28 ranks apart)."""
    huge = RANK.evaluate(d=1, eta=4.05, epsilon=0.1, **BASE)
    assert type(huge) is int and len(str(huge)) == 169
    assert huge == _rank_47_reference(1, 4.05, 0.1, dps=250)
    decimal = {"d": 1, "eta": Fraction(23, 5), "epsilon": Fraction(1, 10), **BASE}
    assert (
        RANK.evaluate(**decimal)
        == 1508389598808990
        == _rank_47_reference(1, Fraction(23, 5), Fraction(1, 10))
    )
    assert RANK.evaluate(**{**decimal, "eta": sp.Rational(23, 5)}) == 1508389598808990
    thousandth = {**decimal, "epsilon": Fraction(1, 1000)}
    expected = _rank_47_reference(1, Fraction(23, 5), Fraction(1, 1000))
    assert RANK.evaluate(**thousandth) == expected == 70013243185694634


def test_rank_47_exact_over_arrays_and_monotone() -> None:
    """An array holding a value above 2**53 is an object array of Python ints (all entries),
    equal entry by entry to the scalar evaluations; r decreases in ε and in η, also between
    neighbouring floats (where float64, with an ulp of 16 at 7e16, moved it in steps of 16)."""
    epsilons = np.logspace(-1, -60, 13)
    values = RANK.evaluate(d=1, eta=4.6, epsilon=epsilons, **BASE)
    assert values.dtype == object and values.shape == (13,)
    assert all(type(v) is int for v in values)
    assert list(values) == [RANK.evaluate(d=1, eta=4.6, epsilon=e, **BASE) for e in epsilons]
    assert list(values) == [_rank_47_reference(1, 4.6, e) for e in epsilons]
    assert all(a < b for a, b in itertools.pairwise(values))
    mixed = RANK.evaluate(d=1, eta=np.array([10.0, 4.6]), epsilon=1e-3, **BASE)
    assert mixed.dtype == object and mixed.tolist() == [619, 70013243185696121]
    grid = RANK.evaluate(d=1, eta=np.array([[4.5], [4.6]]), epsilon=[0.1, 1e-3], **BASE)
    assert grid.shape == (2, 2) and grid[1, 1] == 70013243185696121
    neighbours = [1e-3]
    for _ in range(40):
        neighbours.append(float(np.nextafter(neighbours[-1], 1.0)))
    ranks = RANK.evaluate(d=1, eta=4.6, epsilon=neighbours, **BASE)
    assert all(a >= b for a, b in itertools.pairwise(ranks))
    assert ranks[0] - ranks[-1] > 100  # ~13 ranks per ulp of ε: the test has resolution
    etas = [4.6 + k * 2.0**-48 for k in range(20)]
    ranks_in_eta = RANK.evaluate(d=1, eta=etas, epsilon=1e-3, **BASE)
    assert all(a > b for a, b in itertools.pairwise(ranks_in_eta))


def test_rank_47_below_2_to_the_40_is_unchanged_float64() -> None:
    """Values below 2**40 are the float64 ones as before exact integers were added (bit for
    bit: this grid is what the previous code returned), with dtype float64; a scalar is a
    float."""
    epsilons = np.array([0.1, 1e-3, 1e-10, 1e-20])
    values = RANK.evaluate(
        d=1, eta=np.array([[6.0], [8.0], [10.0], [20.0]]), epsilon=epsilons, **BASE
    )
    assert values.dtype == np.float64
    assert values.tolist() == [
        [267320, 845341, 47536964, 15032507749],
        [2132, 3791, 28423, 505426],
        [422, 619, 2371, 16151],
        [115, 115, 115, 213],
    ]
    higher = RANK.evaluate(
        d=np.array([[2], [3]]), eta=np.array([[20.0], [30.0]]), epsilon=epsilons, **BASE
    )
    assert higher.dtype == np.float64
    assert higher.tolist() == [[16536, 24271, 92984, 633487], [1353590, 1353590, 2744011, 18694726]]
    assert type(RANK.evaluate(d=1, eta=10, epsilon=0.1, **BASE)) is float


def test_rank_47_near_an_integer_below_2_to_the_40() -> None:
    """Below 2**40 too, an argument within float64's error of an integer is decided exactly:
    here (47)'s argument is 34471742699.9999985; float64 computed it above 34471742700 and
    gave 34471742701."""
    point = {"d": 1, "eta": 4.9, "epsilon": 0.09999999999832093, **BASE}
    value = RANK.evaluate(**point)
    assert type(value) is float and value == 34471742700 == _rank_47_reference(
        1, 4.9, point["epsilon"]
    )


# ---------------------------------------------------------------------------- hypotheses
@pytest.mark.parametrize(
    ("changes", "hypothesis", "fragment"),
    [
        ({"eta": 4}, "eta > d*(2*alpha + 2)", "η > (2α + 2)d"),
        ({"d": 3}, "eta > d*(2*alpha + 2)", "left side 10, right side 12"),
        ({"kappa": 1}, "kappa > 1", "κ = L1/μ > 1"),
        ({"epsilon": 300}, "epsilon ≤ 9*p*(B + 3)**4/(8*mu)", "9(B + 3)⁴p/(8μ)"),
        ({"alpha": 0.5}, "alpha ≥ 1", "α ≥ 1"),
    ],
)
def test_rank_47_hypotheses(changes: dict, hypothesis: str, fragment: str) -> None:
    point = {"d": 1, "eta": 10, "epsilon": 0.1, **BASE, **changes}
    with pytest.raises(ConditionError) as raised:
        RANK.evaluate(**point)
    assert raised.value.bound_id == "fedlrgd.thm2.rank"
    assert hypothesis in raised.value.failed
    assert fragment in str(raised.value)
    # check=False evaluates outside the hypotheses where the expression is defined
    if not {"kappa", "eta"} & set(changes):
        assert RANK.evaluate(check=False, **point) > 0


def test_other_hypotheses_name_the_rule() -> None:
    with pytest.raises(ConditionError, match="Theorem 1 holds for r ≥"):
        bounds.get("fedlrgd.thm1").evaluate(L2=1, eta=1.5, d=1, r=5)
    with pytest.raises(ConditionError, match=r"\(88\)"):
        bounds.get("fedlrgd.thm3.b-star").evaluate(phi=5, tau=1, m=100, C_A=1, epsilon=0.5, p=1)
    with pytest.raises(ConditionError, match=r"\(q − 1\)b ≥ 55"):
        bounds.get("fedlrgd.prop2.upper").evaluate(k=10, b=5)
    with pytest.raises(ConditionError, match="T ≥ T0"):
        bounds.get("fedlrgd.lemma3").evaluate(L=2, mu=1, m=100, tau=0.5, b=10, T=20, D0=1, sigma2=1)
    with pytest.raises(ConditionError, match="c1 ≥ 2/ξ"):
        bounds.get("fedlrgd.prop1").evaluate(
            C=1, phi=1, m=10, p=1, epsilon=0.1, xi=0.5, c1=3, eta=7, alpha=1, d=1
        )
    with pytest.raises(ConditionError, match="Theorem 1 applied with rank r − 1"):
        bounds.get("fedlrgd.d1.conditioning").evaluate(r=40, eta=10, d=1, alpha=1, L2=1)
    with pytest.raises(ParameterError, match=r"must exceed \(α \+ 1\)d"):
        assumption8_rank_limit(2, 3.0, 1.0, 1.0)


# ---------------------------------------------------------------------------- V1: Theorem 1
def _log_chain(d: int, eta: float, L2: float, r: float) -> float:
    """log of L2²/(l!)²·((r/(d!C(l+d, d)))^{1/d} − 1)^{−2η}, the proof's first expression."""
    level = math.ceil(eta) - 1
    log_dc = math.lgamma(level + d + 1) - math.lgamma(level + 1)
    log_x = (math.log(r) - log_dc) / d
    return 2 * math.log(L2) - 2 * math.lgamma(level + 1) - 2 * eta * math.log(math.expm1(log_x))


def test_v1_constant_chain_on_a_log_grid() -> None:
    """V1: for d = 1..8, η ∈ (0, 30] and r from r_min to 10⁸·r_min (log grid), the chain
    Lemma 1 → (51) → q → (52) → x − 1 ≥ x/2 ends below K r^{−2η/d}; and (52) holds."""
    thm1 = bounds.get("fedlrgd.thm1")
    rmin = bounds.get("fedlrgd.thm1.rmin")
    checked = 0
    for d in range(1, 9):
        for eta in np.linspace(0.1, 30.0, 41):
            log_rmin = float(rmin.log_evaluate(eta=eta, d=d))
            level = math.ceil(eta) - 1
            lhs52 = math.lgamma(level + d + 1) - math.lgamma(level + 1)
            assert lhs52 <= 1 + 0.5 * math.log(d) + d * math.log(level + d)
            for decades in np.linspace(0.0, 8.0, 17):
                r = math.ceil(math.exp(log_rmin + decades * LN10) * (1 + 1e-12))
                bound = float(thm1.log_evaluate(L2=3.0, eta=eta, d=d, r=r))
                assert _log_chain(d, eta, 3.0, r) <= bound + 1e-9 * abs(bound)
                checked += 1
    assert checked == 8 * 41 * 17


def test_thm1_constant_and_exponent() -> None:
    constant = bounds.get("fedlrgd.thm1.constant")
    for d, eta, L2 in [(1, 0.5, 1.0), (2, 1.5, 1.5), (3, 7.2, 10.0), (8, 29.9, 0.01)]:
        assert thm1_log_constant(d, eta, L2) == pytest.approx(
            float(constant.log_evaluate(d=d, eta=eta, L2=L2)), rel=1e-12
        )
    assert bounds.get("fedlrgd.thm1.rmin").evaluate(eta=1.5, d=1) == pytest.approx(2 * math.e * 2)
    power = bounds.get("fedlrgd.thm1").exponent("r", keep=["eta", "d"]).power
    eta, d = (bounds.get("fedlrgd.thm1").symbols[n] for n in ("eta", "d"))
    assert power.equals(-2 * eta / d)
    # Lemma 1: a q^{−η} rate
    assert float(bounds.get("fedlrgd.lemma1").exponent("q").power) == pytest.approx(-2.5)


def test_rank_at_tolerance_covers_the_tail_bound() -> None:
    """D4: at r = r(tol) (rounded up, ≥ r_min), Theorem 1's bound is ≤ tol."""
    rank = bounds.get("fedlrgd.thm1.rank-at-tolerance")
    thm1 = bounds.get("fedlrgd.thm1")
    for d, eta, tol in [(1, 1.5, 1e-3), (2, 3.0, 1e-8), (3, 0.7, 1e-2)]:
        r = math.floor(rank.evaluate(L2=1, eta=eta, d=d, tol=tol))
        assert thm1.evaluate(L2=1, eta=eta, d=d, r=r) <= tol


# ---------------------------------------------------------------------------- V9: Theorem 2
def _log_sufficient(L2: float, eta: float, d: int, alpha: float, log_r: float) -> float:
    return (
        math.log(L2 * eta)
        + eta * math.log(2)
        + eta * (d + 1) / d
        + eta / (2 * d) * math.log(d)
        + eta * math.log(eta + d)
        - eta * math.log(eta - 1)
        - (eta / d - 2 * alpha - 2) * log_r
    )


def test_v9_formula_consistency_on_random_draws() -> None:
    """V9: with r = r(47), S = S(48): the proof's sufficient condition for (61) holds,
    (1 − 1/κ)^S X ≤ ε, and √((κ−1)ε/(κX)) ≤ δ = (1 − 1/κ)^{S/2} ≤ 1/2 — in log space."""
    rng = np.random.default_rng(20240601)
    sufficient = bounds.get("fedlrgd.thm2.sufficient-rank")
    iterations = bounds.get("fedlrgd.thm2.iterations")
    compared = 0
    for _ in range(400):
        d = int(rng.integers(1, 6))
        alpha = float(rng.uniform(1, 3))
        eta = (2 * alpha + 2) * d + 30 * (1 - rng.random())
        L2 = float(10 ** rng.uniform(-2, 3))
        kappa = 1 + float(10 ** rng.uniform(-2, 2))
        B, mu = float(10 ** rng.uniform(-1, 1)), float(10 ** rng.uniform(-2, 1))
        p = int(rng.integers(1, 1001))
        gap0 = float(10 ** rng.uniform(-3, 3))
        eps_max = 9 * (B + 3) ** 4 * p / (8 * mu)
        epsilon = eps_max * 10 ** (-12 * rng.random())
        common = {"kappa": kappa, "B": B, "mu": mu, "p": p, "Delta0": gap0, "epsilon": epsilon}
        log_r = float(RANK.log_evaluate(d=d, eta=eta, alpha=alpha, L2=L2, **common))
        X = gap0 + 9 * (B + 3) ** 4 * p / (2 * mu)
        log_rhs = 0.5 * math.log((kappa - 1) * epsilon / (kappa * X))
        log_lhs = _log_sufficient(L2, eta, d, alpha, log_r)
        if log_r < 650:  # the registered bound itself, where r fits a float
            registered = sufficient.log_evaluate(
                L2=L2, eta=eta, d=d, alpha=alpha, r=round(math.exp(log_r))
            )
            assert registered == pytest.approx(log_lhs, rel=1e-9, abs=1e-9)
            compared += 1
        assert log_lhs <= log_rhs + 1e-9 * abs(log_rhs)
        S = math.ceil(iterations.evaluate(**common))
        log_contraction = math.log1p(-1 / kappa)
        assert S * log_contraction + math.log(X) <= math.log(epsilon) + 1e-12
        log_delta = 0.5 * S * log_contraction
        assert log_delta <= math.log(0.5) + 1e-12
        assert log_delta >= log_rhs - 1e-9 * abs(log_rhs)
    assert compared > 100


# ---------------------------------------------------------------------------- V10: exponent
@pytest.mark.parametrize(
    "point",
    [
        {"d": 1, "eta": 10.0, "alpha": 1.0, "L2": 1.0},
        {"d": 3, "eta": 17.3, "alpha": 1.5, "L2": 30.0},
        {"d": 2, "eta": 8.5, "alpha": 1.0, "L2": 0.1},
    ],
)
def test_v10_rank_exponent_in_one_over_epsilon(point: dict) -> None:
    """V10: d log r(47)/d log(1/ε) → d/(2(η − (2α + 2)d)), by the bound's exponent machinery
    (decade differences far out, ceiling included) and by mpmath at ε = 1e-40 … 1e-80."""
    predicted = point["d"] / (2 * (point["eta"] - (2 * point["alpha"] + 2) * point["d"]))
    fixed = {**BASE, **point}
    exponent = RANK.exponent("epsilon", at=0, **fixed)
    assert exponent.method == "numeric"
    assert float(exponent.power) == pytest.approx(-predicted, abs=1e-3)
    derived = bounds.get("fedlrgd.thm2.rank-exponent")
    assert derived.evaluate(d=point["d"], eta=point["eta"], alpha=point["alpha"]) == pytest.approx(
        predicted
    )
    logs = [float(RANK.log_evaluate(**fixed, epsilon=10.0**-k)) for k in (40, 60, 80)]
    slopes = np.diff(logs) / (20 * LN10)
    assert np.all(np.abs(slopes - predicted) < 1e-3)


def test_rank_exponent_in_regime_of_prop1() -> None:
    """App. E: in η ≥ (c1 + 2α + 2)d the exponent is ≤ 1/(2c1), with equality at the edge."""
    derived = bounds.get("fedlrgd.thm2.rank-exponent")
    upper = bounds.get("fedlrgd.prop1.rank-exponent")
    for d, c1, slack in [(1, 4, 0.0), (2, 6, 0.3), (3, 10, 5.0)]:
        eta = (c1 + 4) * d + slack
        assert (
            derived.evaluate(d=d, eta=eta, alpha=1)
            <= upper.evaluate(c1=c1, eta=eta, alpha=1, d=d) + 1e-15
        )


# ---------------------------------------------------------------------------- V12: Theorem 3
def _fedave_draws(count: int, seed: int) -> list[dict[str, float]]:
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(count):
        C = float(10 ** rng.uniform(-1, 2))
        tau = float(rng.uniform(0.1, 1))
        draws.append(
            {
                "m": int(10 ** rng.uniform(1, 6)),
                "C_A": C,
                "tau": tau,
                "epsilon": float(10 ** rng.uniform(-6, 0)),
                "p": 1,
                "phi": 40 / (C**0.25 * tau) * float(10 ** rng.uniform(0.01, 1)),
            }
        )
    return draws


def test_v12_viete_root_solves_the_cubic() -> None:
    """V12: b* (Viète) is the positive root of 2C1b³ + C1C3b² − C2C3 = 0 (86) to 1e-8, and it
    is within (89)."""
    b_star = bounds.get("fedlrgd.thm3.b-star")
    lower, upper = bounds.get("fedlrgd.thm3.b-star.lower"), bounds.get("fedlrgd.thm3.b-star.upper")
    for draw in _fedave_draws(300, 7):
        m, C, eps, c3 = (
            draw["m"],
            draw["C_A"],
            draw["epsilon"],
            draw["phi"] * draw["tau"] * draw["m"],
        )
        c1, c2 = C / (2 * m * eps), m * math.sqrt(C / eps)
        roots = np.roots([2 * c1, c1 * c3, 0.0, -c2 * c3])
        positive = [z.real for z in roots if abs(z.imag) < 1e-9 * abs(z) and z.real > 0]
        assert len(positive) == 1  # Descartes: exactly one positive root
        value = b_star.evaluate(**draw)
        assert value == pytest.approx(positive[0], rel=1e-8)
        assert lower.evaluate(**draw) <= value <= upper.evaluate(**draw)


def test_v12_optimum_inside_the_brackets() -> None:
    """(85) and Theorem 3: min g ≤ min_{b,T} T(b + φτm) ≤ 2 min g, and the optimum lies in
    [3/4, 8]·φτm(C/ε')^{3/4}; the exactly optimal b is ≈ 0.76 b*."""
    b_star = bounds.get("fedlrgd.thm3.b-star")
    lo, hi = bounds.get("fedlrgd.thm3.lower"), bounds.get("fedlrgd.thm3.upper")
    grid = np.exp(np.linspace(-12, 12, 24001))
    for draw in _fedave_draws(40, 11):
        m, C, eps, c3 = (
            draw["m"],
            draw["C_A"],
            draw["epsilon"],
            draw["phi"] * draw["tau"] * draw["m"],
        )
        b0 = b_star.evaluate(**draw)
        b = b0 * grid
        u = b * C / (2 * m * eps)
        cost = (u + np.sqrt(u * u + C * m * m / (eps * b * b))) * (b + c3)
        optimum = float(cost.min())
        min_g = (C / (2 * m * eps) * b0 + m * math.sqrt(C / eps) / b0) * (b0 + c3)
        assert min_g <= optimum * (1 + 1e-9) and optimum <= 2 * min_g
        assert lo.evaluate(**draw) <= optimum <= hi.evaluate(**draw)
        assert 0.7 < b[int(cost.argmin())] / b0 < 0.8


def test_v12_exponent_three_quarters() -> None:
    """d log Γ/d log(1/ε') → 3/4 for the optimized bound, and exactly 3/4 for the bracket."""
    grid = np.exp(np.linspace(-12, 12, 48001))

    def optimum(eps: float) -> float:
        m, C, c3 = 1000.0, 1.0, 100.0 * 1000.0
        b = math.sqrt(2) * m * (eps / C) ** 0.25 * grid
        u = b * C / (2 * m * eps)
        return float(((u + np.sqrt(u * u + C * m * m / (eps * b * b))) * (b + c3)).min())

    slope = (math.log(optimum(1e-14)) - math.log(optimum(1e-12))) / (2 * LN10)
    assert slope == pytest.approx(0.75, abs=0.01)
    assert float(bounds.get("fedlrgd.thm3.upper").exponent("epsilon", at=0).power) == -0.75
    assert float(bounds.get("fedlrgd.thm3").exponent("p").power) == 0.75


def test_v12_negative_control_arcsin_leaves_its_domain_without_88() -> None:
    """Violating (88) (m = 100, φ = 5, ε' = 0.5, C = 1) puts the arcsin argument below −1."""
    point = {"phi": 5, "tau": 1, "m": 100, "C_A": 1, "epsilon": 0.5, "p": 1}
    argument = 1 - 108 * math.sqrt(0.5) / 5**2
    assert argument == pytest.approx(-2.0547, abs=1e-4) and argument < -1
    with pytest.raises(ConditionError, match=r"\(88\)"):
        bounds.get("fedlrgd.thm3.b-star").evaluate(**point)
    with pytest.raises(ParameterError, match="undefined"):
        bounds.get("fedlrgd.thm3.b-star").evaluate(check=False, **point)
    # under (88) the argument stays in [−1, 1]
    for draw in _fedave_draws(200, 3):
        value = (
            1 - 108 * math.sqrt(draw["epsilon"] / draw["C_A"]) / (draw["phi"] * draw["tau"]) ** 2
        )
        assert -1 <= value <= 1


def test_lemma3_decays_like_one_over_t() -> None:
    lemma3 = bounds.get("fedlrgd.lemma3")
    assert float(lemma3.exponent("T").power) == pytest.approx(-1)
    point = {"L": 2, "mu": 1, "m": 100, "tau": 1, "b": 10, "D0": 1, "sigma2": 1}
    assert lemma3.evaluate(T=2000, **point) < lemma3.evaluate(T=200, **point)


# ---------------------------------------------------------------------------- V13
def test_v13_lemma4_on_a_grid() -> None:
    t = np.linspace(0.0, 1.0, 100001)
    h = np.sin(np.arcsin(1 - t**2) / 3 + 2 * np.pi / 3)
    lower = bounds.get("fedlrgd.lemma4.lower").evaluate(t=t)
    upper = bounds.get("fedlrgd.lemma4.upper").evaluate(t=t)
    assert np.all(lower <= h + 1e-15) and np.all(h <= upper + 1e-15)
    assert h[0] == pytest.approx(0.5)


def test_v13_prop2_against_scipy() -> None:
    """Proposition 2 for b ≤ 60 and k ∈ {2, …, 1e9} with (k − 1)b ≥ 55 (scipy's gamma.ppf)."""
    lower, upper = bounds.get("fedlrgd.prop2.lower"), bounds.get("fedlrgd.prop2.upper")
    ks = np.unique(np.round(np.logspace(np.log10(2), 9, 40))).astype(int)
    checked = 0
    for b in range(1, 61):
        for k in ks[(ks - 1) * b >= 55]:
            quantile = stats.gamma.isf(1 / k, b)
            if k <= 10**6:
                assert quantile == pytest.approx(stats.gamma.ppf(1 - 1 / k, b), rel=1e-9)
            assert lower.evaluate(k=int(k), b=b) <= quantile <= upper.evaluate(k=int(k), b=b)
            checked += 1
    assert checked > 2000


# ---------------------------------------------------------------------------- §6.11: (18), (19)
def test_eq18_understates_the_quantile_and_the_corrected_form_bounds_it() -> None:
    eq18, corrected = bounds.get("fedlrgd.eq18"), bounds.get("fedlrgd.eq18.corrected")
    # the guide's numbers (§3.2.7): 48.8 against 33.8 at b = 20, k = 1e6; 133.8 vs 106.9
    assert stats.gamma.isf(1e-6, 20) == pytest.approx(48.8, abs=0.05)
    assert eq18.evaluate(k=10**6, b=20) == pytest.approx(33.8, abs=0.05)
    assert stats.gamma.isf(1e-3, 100) == pytest.approx(133.8, abs=0.05)
    assert eq18.evaluate(k=1000, b=100) == pytest.approx(106.9, abs=0.05)
    # b = 1: the quantile is exactly log k, so (18) overstates by 1
    assert eq18.evaluate(k=1000, b=1) - stats.gamma.isf(1e-3, 1) == pytest.approx(1.0)
    for b in range(1, 101, 3):
        for k in (2, 10, 100, 10**3, 10**6, 10**9):
            quantile = stats.gamma.isf(1 / k, b)
            assert quantile <= corrected.evaluate(k=k, b=b)
            if b >= 3 and k >= 10:
                assert quantile > eq18.evaluate(k=k, b=b)


def _erlang_max_mean(b: int, k: int) -> float:
    """E[max of k Erlang(b, 1)] by quadrature of 1 − F^k."""
    from scipy import integrate

    def integrand(y: float) -> float:
        return float(-np.expm1(k * stats.gamma.logcdf(y, b)))

    knee = stats.gamma.isf(1 / k, b)
    head = integrate.quad(integrand, 0, knee, limit=200)[0]
    return head + integrate.quad(integrand, knee, stats.gamma.isf(1e-17 / k, b) + 1, limit=200)[0]


def test_eq19_understates_the_expected_maximum() -> None:
    eq19, corrected = bounds.get("fedlrgd.eq19"), bounds.get("fedlrgd.eq19.corrected")
    # b = 1: E max of k Exp(1) is the harmonic number H_k
    assert _erlang_max_mean(1, 1000) == pytest.approx(sum(1 / i for i in range(1, 1001)), rel=1e-9)
    for b in (1, 2, 5, 20):
        for k in (2, 10, 1000):
            epoch = b + _erlang_max_mean(b, k)
            assert epoch <= corrected.evaluate(tau=1, m=k, b=b)
            printed = eq19.evaluate(tau=1, m=k, b=b)
            assert (epoch > printed) if b >= 2 else (epoch < printed)
    ratio = (20 + _erlang_max_mean(20, 1000)) / eq19.evaluate(tau=1, m=1000, b=20)
    assert ratio == pytest.approx(1.23, abs=0.01)


# ---------------------------------------------------------------------------- D1, D3
def test_d1_conditioning_fails_at_the_prescribed_rank() -> None:
    """At r = r(47) = 422 (d = 1, η = 10) Theorem 1 forces ‖G^{-1}‖_op ≥ 1.6·10⁹ r^α."""
    conditioning = bounds.get("fedlrgd.d1.conditioning")
    ratio = conditioning.evaluate(r=422, eta=10, d=1, alpha=1, L2=1)
    assert ratio == pytest.approx(1.58e9, rel=0.01)
    log_rmax = assumption8_rank_limit(1, 10.0, 1.0, 1.0)
    assert (
        conditioning.evaluate(r=math.ceil(math.exp(log_rmax)) + 1, eta=10, d=1, alpha=1, L2=1) > 1
    )


@pytest.mark.parametrize(
    ("d", "eta", "L2", "log10_root"),
    [(1, 4.5, 1, 2.04), (1, 4.5, 1e3, 3.23), (2, 9, 1, 3.89), (3, 13, 1, 5.76)],
)
def test_d1_rank_limit_reproduces_the_guides_table(
    d: int, eta: float, L2: float, log10_root: float
) -> None:
    """Guide §3.3 D1 table (rows where the root r* exceeds r_min + 1); r(47) is far above it."""
    log_rmax = assumption8_rank_limit(d, eta, 1.0, L2)
    assert log_rmax / LN10 == pytest.approx(log10_root, abs=0.01)
    point = {**BASE, "L2": L2}
    assert RANK.log10_evaluate(d=d, eta=eta, epsilon=0.1, **point) > log_rmax / LN10 + 1


def test_d1_rank_limit_is_where_the_lower_bound_crosses_one() -> None:
    conditioning = bounds.get("fedlrgd.d1.conditioning")
    for d, eta, alpha, L2 in [(1, 4.5, 1.0, 1.0), (2, 9.0, 1.0, 1.0), (1, 8.0, 1.2, 50.0)]:
        r_max = math.exp(assumption8_rank_limit(d, eta, alpha, L2))
        above = conditioning.evaluate(r=math.ceil(r_max * 1.01), eta=eta, d=d, alpha=alpha, L2=L2)
        assert above > 1


def test_d3_fedgd_beats_fedlrgd_at_the_guides_point() -> None:
    """D3: with the same server data (r = 422) federated GD needs ⌈log(Δ0/ε)/log 2⌉ rounds of
    s + r + φm; FedLRGD r² + rs + rS + φmr, i.e. 422 rounds of φm."""
    fedgd, fedlrgd = bounds.get("fedlrgd.fedgd"), bounds.get("fedlrgd.thm2")
    point = {"r": 422, "n": 100, "phi": 50, "m": 1000}
    gd = fedgd.evaluate(**point, Delta0=1, epsilon=0.1, kappa=2)
    lrgd = fedlrgd.evaluate(**point, S=14)
    assert gd < lrgd / 50
    exact = (422 + 100 + 50 * 1000) * math.ceil(math.log(10) / math.log(2))
    assert exact <= gd
