"""Unit tests of the Bound core on hand-built expressions with known answers."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest
import scipy.optimize
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from fedtheory import bounds
from fedtheory.bounds import Bound, Citation, Hypothesis, Vocabulary
from fedtheory.bounds._bound import _REGISTRY
from fedtheory.errors import ConditionError, FloatRangeError, ParameterError

m, n, N = sp.symbols("m n N", positive=True, integer=True)
R = sp.Symbol("R", nonnegative=True)
x, y, a = sp.symbols("x y a", positive=True)
C = sp.Symbol("C", positive=True)
SOURCE = Citation("classic", "unit test")
MEANINGS = {"x": "a variable", "y": "another variable", "a": "a coefficient"}


def make(expr: sp.Expr, example: dict, **kwargs) -> Bound:
    """A throwaway bound over the symbols above."""
    kwargs.setdefault("kind", "upper")
    meanings = {
        k: v
        for k, v in MEANINGS.items()
        if sp.Symbol(k, positive=True)
        in expr.free_symbols
        | {s for h in kwargs.get("hypotheses", ()) for s in getattr(h, "free_symbols", set())}
    }
    return Bound(
        kwargs.pop("id", "classic.unit"),
        expr,
        source=SOURCE,
        quantity="q",
        example=example,
        meanings={**meanings, **kwargs.pop("meanings", {})},
        **kwargs,
    )


@pytest.fixture
def registry_guard() -> Iterator[None]:
    before = dict(_REGISTRY)
    yield
    _REGISTRY.clear()
    _REGISTRY.update(before)


# --------------------------------------------------------------------------- exponents
def test_exponent_of_one_over_n_is_minus_one() -> None:
    bound = make(1 / n, {"n": 10})
    result = bound.exponent("n")
    assert result.power == -1 and isinstance(result.power, sp.Integer)
    assert result.method == "symbolic" and result.behaviour == "power"
    assert result.limit == 0
    assert float(bound.exponent("n", method="numeric")) == pytest.approx(-1, abs=1e-6)


def test_min_regime_exponents_in_R() -> None:
    """Min(m/N, R²) + 1/N: the R² regime near 0 (power 2), the flat m/N regime near ∞."""
    bound = make(sp.Min(m / N, R**2) + 1 / N, {"m": 10, "N": 1000, "R": 0.05})
    small = bound.exponent("R", at=0)
    assert small.power == 2 and small.regime == R**2 + sp.Rational(1, 1000)
    assert small.limit == sp.Rational(1, 1000)
    large = bound.exponent("R", at="oo")
    assert large.behaviour == "constant"
    assert large.regime == sp.Rational(11, 1000)
    assert bound.exponent("R", at=0, method="numeric").power == pytest.approx(2, abs=1e-6)
    assert bound.exponent("R", method="numeric").behaviour == "constant"
    # the regime is decided by the fixed values: with m/N above any R², R² is always active
    assert bound.exponent("N", R=0.05).power == -1


def test_exponent_of_a_floor_reports_the_approach_rate() -> None:
    """1/N + R² in N approaches its floor R² like N^-1 (not the trivial 0 of the floor)."""
    bound = make(1 / N + R**2, {"N": 100, "R": 0.5})
    result = bound.exponent("N")
    assert result.power == -1 and result.limit == sp.Rational(1, 4)


def test_exponent_exponential_and_logarithmic() -> None:
    linear_rate = make((1 - x / (x + 1)) ** n, {"x": 0.5, "n": 3})
    assert linear_rate.exponent("n").behaviour == "exponential"
    assert linear_rate.exponent("n").power == -sp.oo
    assert linear_rate.exponent("n", method="numeric").power == -sp.oo
    logarithmic = make(sp.log(x) / x, {"x": 10})
    assert logarithmic.exponent("x").power == -1
    assert float(logarithmic.exponent("x", method="numeric").power) == pytest.approx(-1, abs=2e-3)


def test_exponent_keeps_symbols_symbolic() -> None:
    """Theorem-1-like tail bound K r^(-2η/d): the exponent in r is -2η/d exactly."""
    r, eta, d = sp.symbols("r eta d", positive=True)
    bound = make(
        a * r ** (-2 * eta / d),
        {"a": 2, "r": 10, "eta": 1, "d": 2},
        meanings={"r": "rank", "eta": "smoothness", "d": "dimension"},
    )
    assert bound.exponent("r", keep=["eta", "d"]).power == -2 * eta / d
    assert bound.exponent("r").power == -1
    with pytest.raises(ParameterError, match="symbolic"):
        bound.exponent("r", keep=["eta"], method="numeric")


def test_exponent_of_piecewise_step_size_rule() -> None:
    """A step-size rule min(1/L, 1/t)-style written as Piecewise: 1/t far out."""
    t = sp.Symbol("t", positive=True, integer=True)
    rule = sp.Piecewise((1 / t, t > 10), (sp.Rational(1, 10), True))
    bound = make(rule, {"t": 5}, meanings={"t": "iteration"})
    assert bound.evaluate(t=np.array([1, 10, 20])).tolist() == [0.1, 0.1, 0.05]
    assert bound.exponent("t").power == -1
    assert bound.exponent("t", method="numeric").power == pytest.approx(-1, abs=1e-6)


def test_exponent_refusals() -> None:
    bound = make(1 / n + x, {"n": 10, "x": 1}, hypotheses=[sp.Le(x, 5)])
    with pytest.raises(ParameterError, match="integer"):
        bound.exponent("n", at=0)
    with pytest.raises(ParameterError, match="hypotheses"):
        bound.exponent("x", at="oo")
    with pytest.raises(ParameterError, match="did you mean"):
        bound.exponent("nn")
    with pytest.raises(ParameterError, match="at"):
        bound.exponent("x", at=3)


# --------------------------------------------------------------------------- crossover
def test_crossover_of_m_over_N_and_R2_plus_one_over_N() -> None:
    """m/N = R² + 1/N at R = √((m−1)/N): symbolic with values, and in closed form."""
    local = make(m / N, {"m": 10, "N": 1000}, id="classic.local")
    fedavg = make(R**2 + 1 / N, {"N": 1000, "R": 0.05}, id="classic.fedavg")
    (crossover,) = local.crossover(fedavg, "R", m=10, N=1000)
    assert isinstance(crossover, bounds.Crossover)
    assert crossover.method == "symbolic"
    assert crossover.exact == sp.sqrt(sp.Rational(9, 1000))
    assert crossover.value == pytest.approx(math.sqrt(9 / 1000), rel=1e-15)
    assert (crossover.lower_before, crossover.lower_after) == ("classic.fedavg", "classic.local")
    (general,) = local.crossover(fedavg, "R")
    assert isinstance(general, bounds.Crossover)
    assert general.value is None
    assert sp.simplify(general.exact - sp.sqrt((m - 1) / N)) == 0


def test_crossover_result_is_not_named_like_the_crossing_criterion() -> None:
    """``Bound.crossover`` returns ``bounds.Crossover``; ``Crossing`` is the name of the
    criterion of :mod:`fedtheory.verify` (two measured curves), with no alias here."""
    assert "Crossover" in bounds.__all__
    assert bounds.Crossover.__name__ == "Crossover"
    assert "Crossing" not in bounds.__all__
    assert not hasattr(bounds, "Crossing")


def test_crossover_with_a_min_regime() -> None:
    """Min(m/N, R²) + 1/N meets 2/N only in the R² regime, at R = 1/√N."""
    envelope = make(sp.Min(m / N, R**2) + 1 / N, {"m": 10, "N": 1000, "R": 0.05})
    level = make(2 / N, {"N": 1000}, id="classic.level")
    crossings = envelope.crossover(level, "R", m=10, N=1000)
    assert [c.value for c in crossings] == pytest.approx([1 / math.sqrt(1000)], rel=1e-12)
    # above the kink the envelope is flat at 11/N: a level of 11/N coincides there
    flat = make(11 / N, {"N": 1000}, id="classic.flat")
    (coincide,) = envelope.crossover(flat, "R", m=10, N=1000)
    assert coincide.kind == "coincide" and coincide.value == pytest.approx(0.1, rel=1e-12)


def test_crossover_numeric_fallback_finds_all_roots() -> None:
    """sin(x)/10 + 1 = 1 + x/100 has three positive roots; sympy cannot solve it."""
    wave = make(sp.sin(x) / 10 + 1, {"x": 1})
    line = make(1 + x / 100, {"x": 1}, id="classic.line")
    crossings = wave.crossover(line, "x")
    assert all(c.method == "numeric" for c in crossings)

    def difference(t: float) -> float:
        return math.sin(t) / 10 - t / 100

    grid = np.linspace(0.5, 11, 2000)
    expected = [
        scipy.optimize.brentq(difference, lo, hi, xtol=1e-14)
        for lo, hi in itertools.pairwise(grid)
        if difference(lo) * difference(hi) < 0
    ]
    assert len(expected) == 3
    assert [c.value for c in crossings] == pytest.approx(expected, rel=1e-9)


def test_crossover_errors() -> None:
    first = make(x, {"x": 1})
    with pytest.raises(ParameterError, match="neither"):
        first.crossover(make(2 * x, {"x": 1}, id="classic.other"), "z")
    envelope = make(sp.Min(m / N, R**2), {"m": 10, "N": 1000, "R": 0.05})
    with pytest.raises(ParameterError, match="give values"):
        envelope.crossover(make(1 / N, {"N": 10}, id="classic.o2"), "R")


@settings(max_examples=30, deadline=None)
@given(
    st.floats(0.1, 10),
    st.floats(0.1, 10),
    st.sampled_from([-2, -1, sp.Rational(-1, 2), sp.Rational(1, 2), 1, 2, 3]),
    st.sampled_from([-3, -sp.Rational(3, 2), sp.Rational(2, 3), 4]),
)
def test_crossover_of_power_laws(c1: float, c2: float, p: sp.Rational, q: sp.Rational) -> None:
    """c1·x^p = c2·x^q exactly at x = (c2/c1)^(1/(p−q)), whichever path finds it."""
    first = make(a * x**p, {"a": c1, "x": 1}, id="classic.p1").subs(a=c1)
    second = make(a * x**q, {"a": c2, "x": 1}, id="classic.p2").subs(a=c2)
    crossings = first.crossover(second, "x")
    expected = (c2 / c1) ** (1 / float(p - q))
    assert [c.value for c in crossings] == pytest.approx([expected], rel=1e-9)


# --------------------------------------------------------------------------- evaluation
def test_compiled_code_does_not_depend_on_the_process_history() -> None:
    """sympy's lambdify names its placeholders Dummy_<n> after a count of every Dummy made so far
    in the process and orders a product's factors by those names as strings; Theorem 1 compiled
    while the count crossed a power of ten ("Dummy_999" > "Dummy_1000") multiplied its factors
    in another order and lost the last bits at this point (a replicate of the catalog's
    fedlrgd/thm1/constant-chain claim). The value is the one a fresh process computes."""
    point = {"L2": 8.40783195929901, "eta": 2.633419891433819, "d": 5, "r": 37185538}
    fresh, fresh_log = 1.364581626463257, 0.3108478808964466
    thm1 = bounds.get("fedlrgd.thm1")
    power = 10 ** (len(str(sp.Dummy._count)) + 1)  # the count only moves forward (unique Dummies)
    for offset in range(1, 13):  # the hypothesis compiles first: try every place of the straddle
        sp.Dummy._count = power - offset  # the next placeholders straddle a power of ten
        copy = thm1.subs()  # a new bound: compiled anew
        assert (copy.evaluate(**point), copy.log_evaluate(**point)) == (fresh, fresh_log)
        power *= 10


def test_evaluate_broadcasts_and_checks_elementwise() -> None:
    bound = make(x / y, {"x": 1, "y": 2}, hypotheses=[Hypothesis(sp.Le(x, y), "x below y")])
    values = bound.evaluate(x=np.array([[1.0], [2.0]]), y=np.array([2.0, 4.0]))
    assert values.shape == (2, 2)
    np.testing.assert_array_equal(values, [[0.5, 0.25], [1.0, 0.5]])
    with pytest.raises(ConditionError) as raised:
        bound.evaluate(x=np.array([1.0, 3.0]), y=2.0)
    error = raised.value
    assert error.hypothesis == "x ≤ y" and error.values == {"x": 3.0, "y": 2.0}
    assert "x below y" in str(error) and "left side 3" in str(error)
    assert bound.evaluate(x=3.0, y=2.0, check=False) == 1.5


def test_evaluate_rejects_bad_input() -> None:
    bound = make(x / n, {"x": 1, "n": 2})
    with pytest.raises(ParameterError, match=r"missing value.*n"):
        bound.evaluate(x=1)
    with pytest.raises(ParameterError, match="did you mean n"):
        bound.evaluate(x=1, nn=2)
    with pytest.raises(ParameterError, match="n=-1: must be positive"):
        bound.evaluate(x=1, n=-1)
    with pytest.raises(ParameterError, match=r"n=2\.5: must be an integer"):
        bound.evaluate(x=1, n=2.5)
    with pytest.raises(ParameterError, match="finite"):
        bound.evaluate(x=np.nan, n=2)
    with pytest.raises(ParameterError, match="broadcast"):
        bound.evaluate(x=[1.0, 2.0], n=[1, 2, 3])
    with pytest.raises(ParameterError, match="number"):
        bound.evaluate(x="one", n=2)


def test_order_bound_keeps_its_constant() -> None:
    order = make(C * x / n, {"x": 1, "n": 10}, kind="order-upper")
    assert order.constants == ["C"] and order.parameters == ["n", "x"]
    with pytest.raises(ParameterError, match=r"order bound.*C=") as raised:
        order.evaluate(x=1, n=10)
    assert "exponent" in str(raised.value)
    assert order.evaluate(x=1, n=10, C=3) == pytest.approx(0.3)
    assert order.exponent("n").power == -1
    assert "≲" in str(order)
    with pytest.raises(ParameterError, match="constant explicit"):
        make(x / n, {"x": 1, "n": 10}, kind="order-upper")
    with pytest.raises(ParameterError, match="only belong in order bounds"):
        make(C * x, {"x": 1}, kind="upper")


def test_overflow_escapes_to_log_space() -> None:
    bound = make(sp.exp(x) * sp.factorial(n), {"x": 1, "n": 3})
    assert bound.evaluate(x=1, n=3) == pytest.approx(6 * math.e, rel=1e-14)
    with pytest.raises(FloatRangeError) as raised:
        bound.evaluate(x=1000, n=3)
    assert raised.value.log10 == pytest.approx((1000 + math.log(6)) / math.log(10), rel=1e-12)
    assert bound.log_evaluate(x=1000, n=3) == pytest.approx(1000 + math.log(6), rel=1e-14)
    assert bound.log_evaluate(x=1, n=400) == pytest.approx(1 + math.lgamma(401), rel=1e-14)
    both = bound.log10_evaluate(x=np.array([1.0, 5000.0]), n=3)
    assert both[1] == pytest.approx((5000 + math.log(6)) / math.log(10), rel=1e-14)
    tiny = make(sp.exp(-x), {"x": 1})
    assert tiny.evaluate(x=1e4) == 0.0
    assert tiny.log_evaluate(x=1e4) == pytest.approx(-1e4, rel=1e-14)


def test_binomial_and_factorial_match_math() -> None:
    k = sp.Symbol("k", positive=True, integer=True)
    bound = make(
        sp.binomial(n + k, k) / sp.factorial(k), {"n": 5, "k": 3}, meanings={"k": "an order"}
    )
    assert bound.evaluate(n=5, k=3) == pytest.approx(math.comb(8, 3) / 6, rel=1e-14)


def test_sequences() -> None:
    e = sp.IndexedBase(sp.Symbol("e", nonnegative=True))
    j = sp.Symbol("j", integer=True)
    bound = make(
        sp.Sum(x**j * e[j - 1], (j, 1, n)),
        {"x": 0.5, "n": 2, "e": [1.0, 2.0]},
        meanings={"e": "a sequence"},
    )
    assert bound.sequences == {"e": e} and "e" in bound.parameters
    assert bound.evaluate(x=0.5, n=2, e=[1.0, 2.0]) == pytest.approx(0.5 + 0.25 * 2)
    np.testing.assert_allclose(
        bound.evaluate(x=np.array([0.5, 1.0]), n=np.array([1, 2]), e=[1.0, 2.0]), [0.5, 3.0]
    )
    with pytest.raises(ParameterError, match="too short"):
        bound.evaluate(x=0.5, n=3, e=[1.0, 2.0])
    with pytest.raises(ParameterError, match="1-D"):
        bound.evaluate(x=0.5, n=2, e=[[1.0]])
    with pytest.raises(ParameterError, match="nonnegative"):
        bound.evaluate(x=0.5, n=2, e=[1.0, -2.0])
    with pytest.raises(ParameterError, match="sequence"):
        bound.exponent("n")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0.01, 100), min_size=1, max_size=5),
    st.floats(0.01, 100),
)
def test_array_evaluation_equals_pointwise(xs: list[float], y_value: float) -> None:
    bound = make(sp.Max(x, y) * sp.log(1 + x / y) + sp.sqrt(x * y), {"x": 1, "y": 1})
    batch = bound.evaluate(x=np.array(xs), y=y_value)
    pointwise = [bound.evaluate(x=v, y=y_value) for v in xs]
    assert batch.tolist() == pointwise
    logs = bound.log_evaluate(x=np.array(xs), y=y_value)
    np.testing.assert_allclose(logs, np.log(pointwise), rtol=1e-14)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([-3, -1, sp.Rational(-1, 2), sp.Rational(1, 3), 2]),
    st.sampled_from([-2, sp.Rational(1, 2), 1, 3]),
    st.floats(0.1, 10),
)
def test_exponent_of_monomials(p: sp.Rational, q: sp.Rational, c: float) -> None:
    """c·x^p·y^q has exponent p in x (exact) and the numeric slope agrees."""
    bound = make(a * x**p * y**q, {"a": c, "x": 1, "y": 2})
    result = bound.exponent("x")
    assert result.power == p and result.method == "symbolic"
    assert float(bound.exponent("x", method="numeric").power) == pytest.approx(float(p), abs=1e-6)
    assert bound.local_exponent("x", 3.7) == pytest.approx(float(p), abs=1e-12)


# --------------------------------------------------------------------------- construction
def test_construction_validates() -> None:
    with pytest.raises(ParameterError, match="id"):
        make(x, {"x": 1}, id="Classic.X")
    with pytest.raises(ParameterError, match="paper"):
        make(x, {"x": 1}, id="nopaper.x")
    with pytest.raises(ParameterError, match="kind"):
        make(x, {"x": 1}, kind="bigger")
    with pytest.raises(ParameterError, match="status"):
        make(x, {"x": 1}, status="guessed")
    with pytest.raises(ParameterError, match="no meaning"):
        Bound(
            "classic.u",
            sp.Symbol("zeta", positive=True),
            kind="upper",
            source=SOURCE,
            quantity="q",
            example={"zeta": 1},
        )
    with pytest.raises(ParameterError, match="example lacks"):
        make(x * y, {"x": 1})
    with pytest.raises(ParameterError, match="not parameters"):
        make(x, {"x": 1, "y": 2})
    with pytest.raises(ParameterError, match="relation"):
        make(x, {"x": 1}, hypotheses=["x < 1"])
    with pytest.raises(ParameterError, match="constant"):
        make(x, {"x": 1}, hypotheses=[sp.Lt(1, 2)])
    with pytest.raises(ParameterError, match="sympy expression"):
        make(sp.Lt(x, 1), {"x": 1})


def test_vocabulary() -> None:
    vocabulary = Vocabulary("demo", parent=bounds.COMMON)
    rho2 = vocabulary.declare("rho2", "a squared constant", latex=r"\rho^2", positive=True)
    assert vocabulary["rho2"].symbol is rho2 and "n" in vocabulary
    assert vocabulary["m"].domain == "positive integer"
    with pytest.raises(ParameterError, match="already declared"):
        vocabulary.declare("rho2", "something else", positive=True)
    with pytest.raises(ParameterError, match="keyword"):
        vocabulary.declare("lambda", "a keyword", positive=True)
    with pytest.raises(ParameterError, match="role"):
        vocabulary.declare("z", "bad role", role="variable")
    bound = Bound(
        "classic.vocab",
        rho2 / n,
        kind="upper",
        source=SOURCE,
        quantity="q",
        example={"rho2": 1, "n": 2},
        vocabulary=vocabulary,
    )
    assert bound.meaning("rho2") == "a squared constant"
    assert r"\rho^2" in bound.latex()


def test_subs() -> None:
    bound = make(x / n + y, {"x": 1, "n": 2, "y": 3}, hypotheses=[sp.Le(x, y), sp.Ge(n, 2)])
    reduced = bound.subs(n=4, y=1)
    assert reduced.parameters == ["x"]
    assert reduced.evaluate(x=0.5) == pytest.approx(0.5 / 4 + 1)
    assert [str(h) for h in reduced.hypotheses] == ["x ≤ 1"]
    assert reduced.id.startswith("classic.unit[")
    with pytest.raises(ConditionError):
        bound.subs(n=1)
    with pytest.raises(ParameterError, match="must be positive"):
        bound.subs(x=-1.0)
    with pytest.raises(ParameterError):
        bounds.register(reduced)


def test_display() -> None:
    bound = make(x / n, {"x": 1, "n": 2}, quantity_latex="Q", statement="A statement.")
    assert str(bound) == "q ≤ x/n"
    assert bound.statement_latex() == r"Q \leq \frac{x}{n}"
    assert bound._repr_latex_().startswith("$") and "Q" in bound._repr_latex_()
    assert "A statement." in bound.describe() and "unit test" in bound.describe()
    assert "x" in bound.pretty() and repr(bound).startswith("<Bound classic.unit")


def test_registry(registry_guard: None) -> None:
    bound = make(x, {"x": 1}, id="classic.registry-test")
    assert bounds.register(bound) is bound
    assert bounds.get("classic.registry-test") is bound
    assert bounds.register(bound) is bound  # idempotent for the same object
    with pytest.raises(ParameterError, match="already registered"):
        bounds.register(make(x, {"x": 1}, id="classic.registry-test"))
    with pytest.raises(ParameterError, match=r"close matches: classic\.registry-test"):
        bounds.get("classic.registry-tst")
    assert "classic.registry-test" in bounds.ids(paper="classic")
    with pytest.raises(ParameterError, match="unknown paper"):
        bounds.ids(paper="nope")
    assert [b.id for b in bounds.iter_bounds("classic")] == bounds.ids("classic")


def test_sympy_time_limit_survives_foreign_code():
    """An expiry that lands outside sympy/fedtheory (e.g. in a gc callback) is not raised there,
    where it would be swallowed, but retried until the computation itself is interrupted."""
    import time

    from fedtheory.bounds._analysis import _SympyTimeout, _time_limit

    start = time.perf_counter()
    with pytest.raises(_SympyTimeout), _time_limit(0.05):
        while time.perf_counter() - start < 0.3:  # this test's frame: foreign, no raise
            pass
        foreign_done = time.perf_counter()
        sp.integrate(sp.exp(sp.Symbol("x") ** 7) * sp.sin(sp.Symbol("x")) ** 5, sp.Symbol("x"))
    assert foreign_done - start >= 0.3
    assert time.perf_counter() - foreign_done < 2.0  # interrupted soon after entering sympy


def test_integer_valued_bounds_are_exact() -> None:
    """A ceiling or floor at the top of the expression makes a bound integer-valued: values
    float64 cannot hold are Python ints, computed from the exact inputs; an argument that is
    exactly an integer is recognised (sympy), one that is not decidable raises."""
    half = make(sp.ceiling(n / 2), {"n": 3})
    assert half.evaluate(n=10) == 5.0 and type(half.evaluate(n=10)) is float
    np.testing.assert_array_equal(half.evaluate(n=[9, 10, 11]), [5.0, 5.0, 6.0])
    assert half.evaluate(n=2**60 + 1) == 2**59 + 1  # the int, not its float 2**60
    assert type(half.evaluate(n=2**60 + 1)) is int
    assert half.evaluate(n=float(2**60 + 1)) == 2**59  # the float given: 2**60 exactly
    third = make(sp.floor(x / 3), {"x": 1})
    values = third.evaluate(x=[3e20, 0.3, 3.0, 2.9999999999999996])
    assert values.dtype == object and values.tolist() == [10**20, 0, 1, 0]
    assert third.evaluate(x=Fraction(3 * 10**20 - 1)) == 10**20 - 1
    assert third.evaluate(x=3e20 - 2**16) == 10**20 - 2**16 // 3 - 1  # 3e20 − 65536 is a float
    # not at the top: an ordinary float64 bound
    shifted = make(sp.ceiling(x) + 1, {"x": 1})
    assert type(shifted.evaluate(x=1e20)) is float
    unity = make(sp.ceiling(sp.sin(sp.pi * x) ** 2 + sp.cos(sp.pi * x) ** 2), {"x": 1})
    assert unity.evaluate(x=Fraction(1, 3)) == 1.0  # sympy: 3/4 + 1/4
    with pytest.raises(ParameterError, match=r"cannot decide the ceiling at x=0\.1"):
        unity.evaluate(x=0.1)  # sin² + cos² = 1, which only an identity can tell
