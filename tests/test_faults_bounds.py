"""Fault injection on the bounds and ``fedtheory bounds`` (issue 11, item 9).

Each test reproduces a fault a hostile tester found:

- underflow: ``bounds eval ... T=100000 --log`` printed "0 (log10 undefined)" for a positive
  value of 10^-4575.7, and ``evaluate`` returned 0.0 for a normal value (≈ 10^-229) whose
  intermediate term (1 − μ/L)^T underflowed;
- crossover: sympy's ``solve`` raised a raw ``TypeError`` ("cannot determine truth value of
  Relational") when a symbol was left free (the unknown constant C of an order bound), and
  ``mpmath.findroot`` a raw ``ValueError`` at a sign change that is a jump (a ceiling), not a
  root;
- Python API type checks: ``bounds.get(None)`` raised a raw ``TypeError``; ``evaluate``
  accepted ``"10"`` and ``True`` as numbers and reported ``None`` as ``nan``; the analysis
  entry points (exponent, local_exponent, crossover, subs) accepted strings or raised raw
  errors on ``inf``, booleans and non-bounds.
"""

from __future__ import annotations

import fractions
import re
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from test_cli import assert_one_line_error, run

from fedtheory import bounds
from fedtheory.bounds import _analysis
from fedtheory.errors import FedTheoryError, ParameterError

pytestmark = pytest.mark.faults

GD = bounds.get("classic.gd.strongly-convex")  # Delta0*(1 - mu/L)**T
INEXACT = bounds.get("classic.inexact-gd")  # has the sequence e2
THM3 = bounds.get("fedlrgd.thm3")  # order-upper: C*m*phi*(p/epsilon)**(3/4)
FEDGD = bounds.get("fedlrgd.fedgd")
GD_POINT = {"L": 10, "mu": 1, "T": 20, "Delta0": 1}


def gd_log10(L: float, mu: float, T: int, Delta0: float) -> mpmath.mpf:
    """log10 of Delta0*(1 − mu/L)**T from the closed form, in mpmath at 40 digits (independent
    of the bound's compiled functions)."""
    with mpmath.workdps(40):
        return mpmath.log10(mpmath.mpf(Delta0)) + T * mpmath.log10(1 - mpmath.mpf(mu) / L)


# ---------------------------------------------------------------------------- 1. underflow
@pytest.mark.parametrize(
    ("T", "Delta0"),
    [
        (100000, 1),  # 10^-4575.7: far below every float64
        (7000, 1),  # 10^-320.3: a subnormal float64 with 4 significant digits
        (1100, 1e-300),  # 10^-350.3: product of a normal power and a tiny Delta0
    ],
)
@pytest.mark.parametrize("log", [False, True])
def test_cli_eval_prints_an_underflowed_value_as_a_power_of_ten(
    T: int, Delta0: float, log: bool
) -> None:
    """`bounds eval ... T=100000 --log` said "0 (log10 undefined)" for a positive value."""
    args = ["bounds", "eval", GD.id, "L=10", "mu=1", f"T={T}", f"Delta0={Delta0}"]
    result = run(*args, *(["--log"] if log else []))
    assert result.exit_code == 0, result.output
    assert "undefined" not in result.stdout
    match = re.search(r"→\s+~10\^(\S+)", result.stdout)
    assert match is not None, result.stdout
    expected = gd_log10(10, 1, T, Delta0)
    assert float(match.group(1)) == pytest.approx(float(expected), rel=1e-9)


def test_the_exact_log10_of_the_reported_point() -> None:
    """The number of the report: log10 = 100000·log10(0.9) = −4575.749056067512540994..."""
    exact = GD.expr.subs(
        {GD.symbols[k]: v for k, v in {"L": 10, "mu": 1, "T": 100000, "Delta0": 1}.items()}
    )
    assert exact == sp.Rational(9, 10) ** 100000  # positive: its logarithm is defined
    expected = sp.N(sp.log(exact, 10), 30)
    assert float(expected) == pytest.approx(-4575.749056067512541, rel=1e-15)
    point = {"L": 10, "mu": 1, "T": 100000, "Delta0": 1}
    assert GD.log10_evaluate(**point) == pytest.approx(float(expected), rel=1e-14)
    result = run("bounds", "eval", GD.id, "L=10", "mu=1", "T=100000", "Delta0=1", "--log")
    assert "~10^-4575.749056" in result.stdout


def test_cli_eval_of_an_exact_zero_still_has_no_log() -> None:
    """A value that is truly 0 (mu = L: (1 − 1)^T) keeps "log10 undefined"."""
    result = run("bounds", "eval", GD.id, "L=10", "mu=10", "T=100000", "Delta0=1", "--log")
    assert result.exit_code == 0, result.output
    assert re.search(r"→\s+0\s+\(log10 undefined: value ≤ 0\)", result.stdout), result.stdout
    assert GD.log10_evaluate(L=10, mu=10, T=100000, Delta0=1) == -np.inf


def test_evaluate_recomputes_an_intermediate_underflow() -> None:
    """Delta0*(1 − mu/L)**T with (0.9)^7200 ≈ 10^-329 (0 in float64) and Delta0 = 1e100: the
    value ≈ 10^-229 is a normal float64, but evaluate returned 0.0."""
    point = {"L": 10, "mu": 1, "T": 7200, "Delta0": 1e100}
    value = GD.evaluate(**point)
    expected = mpmath.power(10, gd_log10(**point))
    assert value == pytest.approx(float(expected), rel=1e-13, abs=0)
    array = GD.evaluate(L=10, mu=1, T=np.array([20, 7200]), Delta0=1e100)
    assert array[1] == value and array[0] == pytest.approx(1e100 * 0.9**20, rel=1e-13)
    result = run("bounds", "eval", GD.id, "L=10", "mu=1", "T=7200", "Delta0=1e100", "--log")
    shown = re.search(r"→\s+(\S+)\s+\(log10 (\S+)\)", result.stdout)
    assert shown is not None, result.stdout
    assert float(shown.group(1)) == pytest.approx(float(expected), rel=1e-9, abs=0)
    assert float(shown.group(2)) == pytest.approx(float(gd_log10(**point)), rel=1e-9)


def test_evaluate_rounds_an_underflow_to_the_nearest_float() -> None:
    """The documented design: evaluate returns the float64 nearest to the exact value (0.0
    below the subnormals, the correctly rounded subnormal above), log10_evaluate the exact
    logarithm; only overflow, which has no nearest float, raises FloatRangeError."""
    assert GD.evaluate(L=10, mu=1, T=100000, Delta0=1) == 0.0
    subnormal = GD.evaluate(L=10, mu=1, T=7000, Delta0=1)
    with mpmath.workdps(40):
        exact = mpmath.power(10, gd_log10(10, 1, 7000, 1))
    assert 0 < subnormal < np.finfo(float).tiny
    assert abs(subnormal - float(exact)) <= np.nextafter(0.0, 1.0)


# ---------------------------------------------------------------------------- 2. crossover
THM3_AND_FEDGD_EXAMPLES = {**FEDGD.example, **THM3.example}
THM3_AND_FEDGD_EXAMPLES.pop("epsilon")


def test_crossover_with_the_constant_of_an_order_bound_left_free_is_a_library_error() -> None:
    """thm3 (≲ C·m·φ·(p/ε)^{3/4}) against fedgd in ε at the example values without C: sympy's
    solve raised TypeError("cannot determine truth value of Relational: ...")."""
    with pytest.raises(ParameterError, match=r"no closed form.*give values for C") as raised:
        THM3.crossover(FEDGD, "epsilon", **THM3_AND_FEDGD_EXAMPLES)
    assert "unknown constant" in str(raised.value)
    pairs = [f"{k}={v}" for k, v in THM3_AND_FEDGD_EXAMPLES.items()]
    line = assert_one_line_error(run("bounds", "crossover", THM3.id, FEDGD.id, "epsilon", *pairs))
    assert "no closed form" in line and "C=1" in line


def test_crossover_symbolic_refusals_are_library_errors() -> None:
    """The same class without any values: eq18.corrected against prop2.upper in b."""
    first, second = bounds.get("fedlrgd.eq18.corrected"), bounds.get("fedlrgd.prop2.upper")
    with pytest.raises(FedTheoryError):
        first.crossover(second, "b")
    assert_one_line_error(run("bounds", "crossover", first.id, second.id, "b"))


def test_sympy_failures_become_not_implemented() -> None:
    """The class fix: every way in which a sympy routine gives up reaches the callers as
    NotImplementedError, which each of them turns into its numeric path or a refusal."""

    def gives_up(*args: Any) -> None:
        raise TypeError("cannot determine truth value of Relational: x < 3")

    with pytest.raises(NotImplementedError, match="TypeError"):
        _analysis._sympy(gives_up)


def test_crossover_with_the_constant_given_is_located() -> None:
    """With C=1 both crossings are found, and the bounds are equal there."""
    fixed = {**THM3_AND_FEDGD_EXAMPLES, "C": 1}
    crossings = THM3.crossover(FEDGD, "epsilon", **fixed)
    assert [c.value for c in crossings] == pytest.approx([0.2008432639, 1.00746028], rel=1e-8)
    for crossing in crossings:
        point = {"epsilon": crossing.value}
        left = THM3.evaluate(check=False, **{k: fixed[k] for k in ("C", "m", "p", "phi")}, **point)
        right = FEDGD.evaluate(
            check=False, **{k: v for k, v in fixed.items() if k in FEDGD.parameters}, **point
        )
        assert left == pytest.approx(right, rel=1e-9)


def test_crossover_across_a_jump_is_not_a_root() -> None:
    """thm1.constant against thm1.rank-at-tolerance in η (ceiling(η) in both): the sign of the
    difference changes at a jump, where mpmath.findroot raised ValueError."""
    first = bounds.get("fedlrgd.thm1.constant")
    second = bounds.get("fedlrgd.thm1.rank-at-tolerance")
    fixed = {"d": 1, "L2": 1, "tol": 0.001}
    crossings = first.crossover(second, "eta", **fixed)
    assert crossings
    for crossing in crossings:
        eta = crossing.value
        left = first.evaluate(eta=eta, d=1, L2=1)
        right = second.evaluate(eta=eta, **fixed)
        assert left == pytest.approx(right, rel=1e-8)


# ---------------------------------------------------------------------------- 3. type checks
@pytest.mark.parametrize("bad", [None, 3, ["classic.gd.strongly-convex"], b"classic"])
def test_get_refuses_a_non_string_id(bad: Any) -> None:
    with pytest.raises(ParameterError, match="must be a string") as raised:
        bounds.get(bad)
    assert raised.value.parameter == "id"
    assert raised.value.value is bad
    assert type(bad).__name__ in str(raised.value)


NOT_NUMBERS = [
    pytest.param("10", "str", id="str"),
    pytest.param(True, "bool", id="bool"),
    pytest.param(np.bool_(True), "bool", id="numpy-bool"),
    pytest.param(None, "NoneType", id="None"),
    pytest.param(1 + 0j, "complex", id="complex"),
    pytest.param(object(), "object", id="object"),
    pytest.param([10, "11"], "str", id="list-with-str"),
    pytest.param(np.array(["10"]), "numpy array of <U2", id="str-array"),
    pytest.param(np.array([True, False]), "numpy array of bool", id="bool-array"),
]


@pytest.mark.parametrize(("bad", "kind"), NOT_NUMBERS)
@pytest.mark.parametrize("method", ["evaluate", "log_evaluate", "log10_evaluate"])
def test_evaluate_refuses_what_is_not_a_real_number(bad: Any, kind: str, method: str) -> None:
    """evaluate(L="10") gave 0.3487, L=True 0.0 and L=None "L=nan: must be finite"."""
    with pytest.raises(ParameterError) as raised:
        getattr(GD, method)(**{**GD_POINT, "L": bad})
    message = str(raised.value)
    assert raised.value.parameter == "L" and raised.value.value is bad
    assert message.startswith(f"L={bad!r}" if isinstance(bad, str) else f"L={bad}")
    assert "must be a real number (int, float or numpy number)" in message
    assert f"got {kind}" in message or f"containing {kind}" in message
    assert "nan" not in message


def test_a_sequence_refuses_non_numbers() -> None:
    point = {"L": 4, "mu": 1, "S": 2, "Delta0": 1}
    for bad in (["0.1", 0.2], [0.1, None], "0.1,0.2", [True, False]):
        with pytest.raises(ParameterError, match="must be a real number") as raised:
            INEXACT.evaluate(**point, e2=bad)
        assert raised.value.parameter == "e2"


@pytest.mark.parametrize(
    "value",
    [
        10,
        10.0,
        np.float32(10),
        np.float64(10),
        np.int64(10),
        np.uint8(10),
        fractions.Fraction(10),
        sp.Integer(10),
        sp.Float(10),
        np.array(10.0),
    ],
    ids=lambda v: type(v).__name__,
)
def test_real_numbers_of_every_kind_still_evaluate(value: Any) -> None:
    assert GD.evaluate(**{**GD_POINT, "L": value}) == pytest.approx(0.9**20, rel=1e-6)


def test_arrays_and_sequences_still_evaluate() -> None:
    values = GD.evaluate(**{**GD_POINT, "T": np.array([10, 20])})
    np.testing.assert_allclose(values, [0.9**10, 0.9**20])
    np.testing.assert_allclose(GD.evaluate(**{**GD_POINT, "T": [10, 20]}), values)
    point = {"L": 4, "mu": 1, "S": 2, "Delta0": 1}
    from_list = INEXACT.evaluate(**point, e2=[0.1, 0.05])
    assert INEXACT.evaluate(**point, e2=np.array([0.1, 0.05])) == from_list
    assert INEXACT.evaluate(**point, e2=(0.1, np.float32(0.05))) == pytest.approx(from_list)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        pytest.param(lambda: GD.exponent("T", L="10"), "L", id="exponent-str"),
        pytest.param(lambda: GD.exponent("T", L=True), "L", id="exponent-bool"),
        pytest.param(lambda: GD.exponent("T", L=None), "L", id="exponent-None"),
        pytest.param(lambda: GD.exponent("T", L=float("inf")), "L", id="exponent-inf"),
        pytest.param(lambda: GD.exponent("T", L=np.array([10, 20])), "L", id="exponent-array"),
        pytest.param(lambda: GD.exponent("Delta0", at=False), "at", id="exponent-at-False"),
        pytest.param(lambda: GD.exponent(None), None, id="exponent-var-None"),
        pytest.param(lambda: GD.local_exponent("T", at="20"), "at", id="local-exponent-str"),
        pytest.param(lambda: GD.local_exponent("T", at=True), "at", id="local-exponent-bool"),
        pytest.param(lambda: GD.subs(L="10"), "L", id="subs-str"),
        pytest.param(lambda: GD.subs(L=True), "L", id="subs-bool"),
        pytest.param(lambda: GD.meaning(["L"]), None, id="meaning-list"),
        pytest.param(lambda: GD.evaluate(check="no", **GD_POINT), "check", id="evaluate-check-str"),
        pytest.param(
            lambda: GD.crossover(None, "T"),  # type: ignore[arg-type]
            "other",
            id="crossover-other-None",
        ),
        pytest.param(
            lambda: GD.crossover(bounds.get("classic.sgd.strongly-convex.gap"), "T", L="10"),
            "L",
            id="crossover-str",
        ),
        pytest.param(
            lambda: INEXACT.crossover(GD, "L", e2=0.1, mu=1, S=3, Delta0=1),
            "e2",
            id="crossover-scalar-sequence",
        ),
    ],
)
def test_analysis_entry_points_refuse_bad_values(call: Any, parameter: str | None) -> None:
    """Strings were taken as numbers (exponent(L="10")), booleans as 0/1 (at=False is 0), and
    inf, None and non-bounds raised raw TypeError/AttributeError; refusals named "value"
    instead of the parameter."""
    with pytest.raises(ParameterError) as raised:
        call()
    assert raised.value.parameter == parameter


def test_analysis_messages_name_the_parameter_and_the_rule() -> None:
    with pytest.raises(ParameterError) as raised:
        GD.exponent("T", L="10")
    assert raised.value.parameter == "L" and raised.value.value == "10"
    assert str(raised.value) == (
        "L='10': must be a real number (int, float or numpy number), got str"
    )
    with pytest.raises(ParameterError, match="must be finite") as raised:
        GD.exponent("T", L=float("inf"))
    assert raised.value.parameter == "L"


def test_analysis_still_accepts_numbers_and_expressions() -> None:
    assert GD.exponent("Delta0", L=np.float32(10), mu=sp.Integer(1), T=np.int64(20)).power == 1
    substituted = GD.subs(L=2 * GD.symbols["mu"], Delta0=1.0)
    assert substituted.expr == sp.Rational(1, 2) ** GD.symbols["T"]
    assert GD.local_exponent("T", at=np.float64(20.0)) == pytest.approx(20 * np.log(0.9))
