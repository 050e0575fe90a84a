"""Log and log-log factors of :meth:`Bound.exponent`: reported as such, not as power 0.

Each expected value is derived by hand in the comment of its case, from the definition: the bound
approaches its limit like x^p·log(x)^k·log(log(x))^j as x → ∞ (log(1/x), log(log(1/x)) at 0).
"""

from __future__ import annotations

import pytest
import sympy as sp

from fedtheory import bounds
from fedtheory.bounds import Bound, Citation
from fedtheory.verify.criteria import RateExponent

x = sp.Symbol("x", positive=True)
C = sp.Symbol("a", positive=True)


def _make(expr: sp.Expr) -> Bound:
    # not registered: a throwaway bound in x (and a coefficient a)
    meanings = {"x": "a variable", "a": "a coefficient"}
    names = {str(s) for s in expr.free_symbols}
    return Bound(
        "classic.unit-logs",
        expr,
        source=Citation("classic", "unit test"),
        quantity="q",
        kind="upper",
        example={k: v for k, v in {"x": 0.5, "a": 2}.items() if k in names},
        meanings={k: v for k, v in meanings.items() if k in names},
    )


CASES = [
    # a/x: pure power −1, no log factor
    (C / x, "oo", -1, 0, 0, "x^-1 as x → ∞"),
    # a·log(x)/x: power −1 (the log does not change it), log(x)^1
    (C * sp.log(x) / x, "oo", -1, 1, 0, "x^-1·log(x) as x → ∞"),
    # a·log(1/x) at 0: grows slower than any power (p = 0), like log(1/x)^1
    (C * sp.log(1 / x), "0", 0, 1, 0, "log(1/x) as x → 0"),
    # x^-2·log(1/x) at 0: p = −2 and one log factor (the ε^-2·log(1/ε) of an iteration count)
    (x**-2 * sp.log(1 / x), "0", -2, 1, 0, "x^-2·log(1/x) as x → 0"),
    # log(log(x)): p = 0, no plain log (k = 0), one iterated log
    (sp.log(sp.log(x)), "oo", 0, 0, 1, "log(log(x)) as x → ∞"),
    # √x·log(x)²: p = 1/2, k = 2
    (sp.sqrt(x) * sp.log(x) ** 2, "oo", sp.Rational(1, 2), 2, 0, "x^(1/2)·log(x)^2 as x → ∞"),
    # 1 + 1/log(x) tends to its floor 1 at the rate log(x)^-1 (p = 0, k = −1)
    (1 + 1 / sp.log(x), "oo", 0, -1, 0, "log(x)^-1 as x → ∞"),
    # x·log(x)·log(log(x)): p = 1, k = 1, j = 1
    (x * sp.log(x) * sp.log(sp.log(x)), "oo", 1, 1, 1, "x^1·log(x)·log(log(x)) as x → ∞"),
]


@pytest.mark.parametrize(("expr", "at", "power", "k", "j", "text"), CASES)
def test_log_powers_of_synthetic_bounds(expr, at, power, k, j, text) -> None:
    result = _make(expr).exponent("x", at=at)
    assert result.is_exact and result.behaviour == "power"
    assert (result.power, result.log_power, result.loglog_power) == (power, k, j)
    assert str(result) == text
    assert result.has_log_factor is (k != 0 or j != 0)


def test_exponential_decay_has_no_log_factor() -> None:
    # a·exp(−x): faster than any power; the log powers are 0 and the text is unchanged
    result = _make(C * sp.exp(-x)).exponent("x")
    assert result.behaviour == "exponential" and result.power == -sp.oo
    assert (result.log_power, result.loglog_power) == (0, 0)
    assert str(result) == "decays faster than any power of x as x → ∞"
    assert result.has_log_factor is False


def test_numeric_method_leaves_the_log_factor_undetermined() -> None:
    result = _make(C * sp.log(x) / x).exponent("x", method="numeric")
    assert result.log_power is None and result.has_log_factor is None
    assert "log factors not determined" in str(result)


def test_registered_bounds_with_logs() -> None:
    # fedlrgd.fedgd: iterations ~ κ·log(Δ0/ε): in ε at 0, p = 0 and one log(1/ε) — it used to
    # print "epsilon^0", as if it did not depend on ε
    fedgd = bounds.get("fedlrgd.fedgd").exponent("epsilon", at=0)
    assert (fedgd.power, fedgd.log_power, fedgd.loglog_power) == (0, 1, 0)
    assert str(fedgd) == "log(1/epsilon) as epsilon → 0"
    # ffgb.thm31: a log(T)/T term dominates as T → ∞: power −1 with one log factor
    thm31 = bounds.get("ffgb.thm31").exponent("T")
    assert (thm31.power, thm31.log_power) == (-1, 1)
    assert str(thm31) == "T^-1·log(T) as T → ∞"


def test_rate_exponent_names_the_log_factor() -> None:
    rate = bounds.get("ffgb.thm31").exponent("T")
    criterion = RateExponent("T", "err", expected=rate, band=0.25)
    assert criterion.expected == -1
    assert "T^-1·log(T)" in criterion.describe() and "pure power" in criterion.describe()
    assert criterion.to_dict()["expected_rate"] == "T^-1·log(T)"
    plain = RateExponent("T", "err", expected=_make(C / x).exponent("x"), band=0.25)
    assert "expected_rate" not in plain.to_dict() and "log" not in plain.describe()
