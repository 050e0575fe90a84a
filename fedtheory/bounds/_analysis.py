"""The exponent of a :class:`~fedtheory.bounds.Bound` in one variable at 0 or ∞.

Definitions
-----------
*Exponent.* For a bound B(x) in one variable x (the others fixed), let B(a) be its limit as
x → a (a = ∞ or 0⁺). The exponent is the power p with which B approaches that limit:

    p = lim_{x→a} d log|B(x) − B(a)| / d log x        (B(a) finite)
    p = lim_{x→a} d log B(x) / d log x                (B(a) = ±∞)

Both equal ``p = lim 1 + x·B''(x)/B'(x)``, which needs no knowledge of B(a). Where the bound
is built from powers, logarithms and harmonic numbers, p and the log factors are read off the
leading monomial of B (of B' when B tends to a constant), computed structurally in exact
arithmetic (:mod:`._leading`); otherwise sympy takes the limit, under a CPU-time limit, and past
it the numeric path answers. A bound that
tends to a floor therefore reports the rate at which it reaches the floor (1/N + R² in N: −1), not
the trivial 0 of the floor itself. ``p = ±∞`` means faster than any power (exponential, as in the
linear rate (1 − μ/L)^T), and a bound that is exactly constant near ``a`` (a flat Min/Max regime)
has ``behaviour == "constant"``. Logarithmic factors do not change p; they are reported beside
it (``log_power``, ``loglog_power``: B − B(a) ~ x^p·log(x)^k·log(log(x))^j, see
:func:`_symbolic_log_powers`).

*Regimes.* ``Min``, ``Max`` and ``Piecewise`` are resolved before the limit: the branch active
near ``a`` is selected from the fixed values of the other symbols (e.g. ``Min(m/N, R**2) + 1/N`` in
R is in the ``R**2`` regime near 0, exponent 2, and in the ``m/N`` regime near ∞, constant).

*Imports.* The functions here read the bound through the protocol
:class:`~._analysis_common.BoundLike` (with sympy under a time limit, substitution and the
mpmath compilation they share with :mod:`._crossover`); :mod:`._bound` imports this module,
never the reverse. Leading terms come from :mod:`._leading`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import mpmath
import numpy as np
import sympy as sp

from fedtheory.bounds._analysis_common import (
    _BRANCHING,
    _DPS,
    _NONSMOOTH,
    _SYMPY_FAILURES,
    BoundLike,
    _continuous,
    _mp_function,
    _simplified,
    _substituted,
    _sympy,
    _SympyTimeout,
    _time_limit,
    _with_values,
)
from fedtheory.bounds._expressions import check_real, exact_number
from fedtheory.bounds._leading import Rate, Unsupported, leading_term, rate
from fedtheory.errors import ParameterError

__all__ = ["BoundLike", "Exponent", "exponent", "local_exponent"]


Behaviour = Literal["power", "exponential", "constant"]


@dataclass(frozen=True)
class Exponent:
    """The leading power of a bound in one variable at 0 or ∞.

    Attributes
    ----------
    var : str
        The variable.
    at : {"oo", "0"}
        Where the limit is taken.
    power : sympy expression
        Exact (``Rational``, ``±oo``) when ``method == "symbolic"``, a ``Float`` otherwise, or an
        expression in the symbols kept symbolic (``keep=``).
    behaviour : {"power", "exponential", "constant"}
        ``"exponential"`` when the power is ±∞ (faster than any power), ``"constant"`` when the
        bound does not depend on ``var`` near ``at``.
    method : {"symbolic", "numeric"}
        How ``power`` was obtained: exactly (leading terms, or a sympy limit), or the log-log
        slope of successive decades far out (arbitrary precision, until the slope is stable to
        1e-3).
    limit : sympy expression or None
        Limit of the bound itself at ``at`` (``None`` when unknown).
    regime : sympy expression
        The expression in force near ``at`` (Min/Max/Piecewise resolved, fixed values substituted).
    fixed : dict
        The values used for the other symbols.
    log_power : sympy expression or None
        The exponent k of the logarithmic factor: the bound approaches its limit like
        ``var^power · log(var)^k · log(log(var))^j`` (at 0 the factors are ``log(1/var)`` and
        ``log(log(1/var))``). Exact (``Rational``) with the symbolic method, ``0`` when there is no
        log factor (and for the exponential and constant behaviours); ``None`` when it is not
        determined (numeric method, or sympy could not take the limit) — ``power`` is then still
        right, but the bound may carry log factors that ``str`` cannot report.
    loglog_power : sympy expression or None
        The exponent j of the iterated-log factor, as ``log_power``.
    """

    var: str
    at: str
    power: sp.Expr
    behaviour: Behaviour
    method: Literal["symbolic", "numeric"]
    limit: sp.Expr | None
    regime: sp.Expr
    fixed: dict[str, Any] = field(default_factory=dict)
    log_power: sp.Expr | None = field(default=sp.S.Zero)
    loglog_power: sp.Expr | None = field(default=sp.S.Zero)

    def __float__(self) -> float:
        return float(self.power)

    @property
    def is_exact(self) -> bool:
        """True when ``power`` is an exact sympy number (not a numeric estimate)."""
        return self.method == "symbolic"

    @property
    def has_log_factor(self) -> bool | None:
        """Whether the rate carries a log or log-log factor (``None`` when not determined)."""
        if self.behaviour != "power":
            return False
        if self.log_power is None or self.loglog_power is None:
            return None
        return bool(self.log_power != 0 or self.loglog_power != 0)

    def __str__(self) -> str:
        where = "∞" if self.at == "oo" else "0"
        if self.behaviour == "constant":
            return f"constant in {self.var} as {self.var} → {where}"
        if self.behaviour == "exponential":
            speed = "decays" if self.power == -sp.oo else "grows"
            return f"{speed} faster than any power of {self.var} as {self.var} → {where}"
        tag = "" if self.method == "symbolic" else " (numeric"
        if self.log_power is None or self.loglog_power is None:
            tag += "; log factors not determined" if self.method == "symbolic" else ", log factors"
            tag += "" if self.method == "symbolic" else " not determined"
        tag += "" if self.method == "symbolic" else ")"
        return f"{self.rate_text()} as {self.var} → {where}{tag}"

    def rate_text(self) -> str:
        """The rate alone, e.g. ``T^-1``, ``epsilon^-2·log(1/epsilon)``, ``log(log(T))``.

        The power is shown unless it is 0 and a log factor carries the dependence; an exponent
        that is not an integer or a symbol is parenthesised (``T^(-1/2)``, ``log(T)^(1/2)``).
        """
        if self.behaviour == "constant":
            return "constant"
        if self.behaviour == "exponential":
            return "exp" if self.power == sp.oo else "exp-decay"
        inner = self.var if self.at == "oo" else f"1/{self.var}"
        factors = []
        logs = [
            (f"log({inner})", self.log_power),
            (f"log(log({inner}))", self.loglog_power),
        ]
        shown_logs = [(base, k) for base, k in logs if k is not None and k != 0]
        if self.power != 0 or not shown_logs:
            factors.append(f"{self.var}^{_power_string(self.power, self.method)}")
        for base, k in shown_logs:
            factors.append(base if k == 1 else f"{base}^{_power_string(k, self.method)}")
        return "·".join(factors)


def _power_string(power: sp.Expr, method: str) -> str:
    if method != "symbolic":
        return f"{float(power):.4g}"
    if power.is_Integer or power.is_Symbol:
        return str(sp.sstr(power))
    return f"({sp.sstr(power)})"


def _at_token(at: Any) -> str:
    if isinstance(at, (bool, np.bool_)):  # False == 0 to Python, but it is not a point
        raise ParameterError(parameter="at", value=at, rule='must be "oo" (∞) or 0, got bool')
    if isinstance(at, str) and at.lower() in ("oo", "inf", "infinity", "∞"):
        return "oo"
    if at is sp.oo or (isinstance(at, float) and at == float("inf")):
        return "oo"
    if at in (0, "0", 0.0):
        return "0"
    raise ParameterError(parameter="at", value=at, rule='must be "oo" (∞) or 0')


def _sample_points(at: str, x0: float) -> list[mpmath.mpf]:
    """Points approaching ``at`` geometrically (a factor 10 per step) from ``x0``."""
    x0 = mpmath.mpf(abs(x0) if x0 else 1)
    if at == "oo":
        return [x0 * mpmath.mpf(10) ** k for k in range(0, 241)]
    return [x0 * mpmath.mpf(10) ** (-k) for k in range(0, 241)]


@functools.lru_cache(maxsize=256)
def _decades(at: str, x0: float) -> tuple[tuple[mpmath.mpf, ...], tuple[float, ...]]:
    """The points of :func:`_numeric_power` (:func:`_sample_points` at its precision) and
    1/|log10 x_k| for each (``inf`` at x_k = 1), computed once per (at, x0) and process."""
    with mpmath.workdps(_DPS + 300):
        points = tuple(_sample_points(at, x0))
        inverse_logs = []
        for point in points:
            log_point = abs(float(mpmath.log10(point)))
            inverse_logs.append(1.0 / log_point if log_point > 0 else float(np.inf))
    return points, tuple(inverse_logs)


#: Bits to which :func:`_float_log10` first computes a logarithm, and the relative margin
#: (2^-100, far above that computation's error of a few 2^-113) within which the rounding
#: to a double must be decided.
_LOG_ESTIMATE_BITS = 113
_LOG_MARGIN_SHIFT = -100


@functools.cache
def _ln10(bits: int) -> tuple[Any, ...]:
    """log(10) as a raw mpmath value (``mpf._mpf_``) to ``bits`` bits."""
    value: tuple[Any, ...] = mpmath.libmp.mpf_log(mpmath.libmp.from_int(10), bits)
    return value


def _float_log10(value: mpmath.mpf) -> float:
    """``float(mpmath.log10(value))`` at the working precision, bit for bit, mostly from a
    logarithm to :data:`_LOG_ESTIMATE_BITS` bits (a fraction of the cost at 1200 bits).

    The estimate is within a relative few 2^-113 of the exact logarithm, and the logarithm at
    the working precision much closer still; when both ends of estimate·(1 ± 2^-100) round to
    the same double, so does every number between them (rounding is monotonic), the
    working-precision logarithm among them. Otherwise (the logarithm within 2^-100 of a
    rounding boundary, close to 0, or not finite) it is computed at the working precision.
    """
    libmp = mpmath.libmp
    raw = value._mpf_
    if raw[1] and not raw[0]:  # a finite positive number (sign 0, nonzero mantissa)
        bits = _LOG_ESTIMATE_BITS
        estimate = libmp.mpf_div(
            libmp.mpf_log(raw, bits + 20), _ln10(bits + 20), bits, libmp.round_nearest
        )
        margin = libmp.mpf_shift(libmp.mpf_abs(estimate), _LOG_MARGIN_SHIFT)
        low = libmp.to_float(libmp.mpf_sub(estimate, margin, bits), rnd=libmp.round_nearest)
        high = libmp.to_float(libmp.mpf_add(estimate, margin, bits), rnd=libmp.round_nearest)
        if low == high and abs(low) > 2.0**-20:
            return float(low)
    return float(mpmath.log10(value))


def _sign_near(h: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool) -> int:
    """Sign of h(x) as x → at (0 when h vanishes identically there).

    A pure function of its arguments (sympy expressions are immutable), computed once per
    process: ``exponent(..., method="auto")`` and ``method="numeric"`` test the same hypotheses
    and regimes (:func:`_check_path`, :func:`resolve_regime`), each test a simplify and a limit.
    A refusal (:class:`ParameterError`) is remembered as its message and raised again.
    """
    outcome = _cached_sign_near(h, x, at, allow_numeric)
    if isinstance(outcome, str):
        raise ParameterError(outcome)
    return outcome


@functools.lru_cache(maxsize=4096)
def _cached_sign_near(h: sp.Expr, x: sp.Symbol, at: str, allow_numeric: bool) -> int | str:
    try:
        return _computed_sign_near(h, x, at, allow_numeric=allow_numeric)
    except ParameterError as error:
        return str(error)


def _computed_sign_near(h: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool) -> int:
    structural = _structural_sign(h, x, at)
    if structural is not None:
        return structural
    h = _simplified(h) if h.count_ops() < 60 else h
    if h == 0:
        return 0
    try:
        value = _sympy(sp.limit, h, x, sp.oo if at == "oo" else 0, "+" if at == "0" else "-")
    except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
        value = None
    if value is not None and not value.has(sp.Limit) and not isinstance(value, sp.AccumBounds):
        if value.is_positive:
            return 1
        if value.is_negative:
            return -1
        if value.is_zero and allow_numeric:
            pass  # both sides tend to the same value: decide from the values near `at`
        elif value.is_zero:
            raise ParameterError(
                f"cannot decide which branch of a Min/Max is active as {x} → {at}: both sides "
                f"have the same limit; fix more symbols"
            )
    if not allow_numeric:
        raise ParameterError(
            f"cannot decide the sign of {h} as {x} → {at} with symbols left free; fix them"
        )
    function = _mp_function(h, x)
    signs = set()
    with mpmath.workdps(2 * _DPS):
        for k in (20, 40, 80):
            point = mpmath.mpf(10) ** (k if at == "oo" else -k)
            value = function(point)
            if mpmath.isnan(value):
                continue
            signs.add(0 if value == 0 else (1 if value > 0 else -1))
    if len(signs) != 1:
        raise ParameterError(f"cannot decide the sign of {h} as {x} → {'∞' if at == 'oo' else 0}")
    return signs.pop()


def _structural_sign(h: sp.Expr, x: sp.Symbol, at: str) -> int | None:
    """The sign of h near ``at`` from its leading term (:func:`._leading.leading_term`: exact,
    milliseconds), ``None`` when the rules cannot decide or h is the constant 0."""
    t = sp.Dummy("t", positive=True)
    try:
        lead = leading_term(h.xreplace({x: t if at == "oo" else 1 / t}), t)
        return None if lead is None else lead.sign()
    except Unsupported:
        return None


def _truth_near(condition: sp.Basic, x: sp.Symbol, at: str, *, allow_numeric: bool) -> bool:
    if condition in (sp.true, sp.false):
        return bool(condition)
    if isinstance(condition, sp.And):
        return all(_truth_near(c, x, at, allow_numeric=allow_numeric) for c in condition.args)
    if isinstance(condition, sp.Or):
        return any(_truth_near(c, x, at, allow_numeric=allow_numeric) for c in condition.args)
    if isinstance(condition, sp.Not):
        return not _truth_near(condition.args[0], x, at, allow_numeric=allow_numeric)
    if isinstance(condition, sp.core.relational.Relational):
        sign = _sign_near(condition.lhs - condition.rhs, x, at, allow_numeric=allow_numeric)
        op = condition.rel_op
        return {
            "<": sign < 0,
            "<=": sign <= 0,
            ">": sign > 0,
            ">=": sign >= 0,
            "==": sign == 0,
            "!=": sign != 0,
        }[op]
    raise ParameterError(f"cannot decide the condition {condition} as {x} → {at}")


def resolve_regime(expr: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool = True) -> sp.Expr:
    """Replace every Min/Max/Piecewise depending on ``x`` by its branch active as x → at."""
    if not expr.has(x) or not expr.has(*_BRANCHING):
        return expr
    if isinstance(expr, (sp.Min, sp.Max)):
        args = [resolve_regime(a, x, at, allow_numeric=allow_numeric) for a in expr.args]
        best = args[0]
        for candidate in args[1:]:
            sign = _sign_near(candidate - best, x, at, allow_numeric=allow_numeric)
            if (isinstance(expr, sp.Min) and sign < 0) or (isinstance(expr, sp.Max) and sign > 0):
                best = candidate
        return best
    if isinstance(expr, sp.Piecewise):
        for branch, condition in expr.args:
            if _truth_near(condition, x, at, allow_numeric=allow_numeric):
                return resolve_regime(branch, x, at, allow_numeric=allow_numeric)
        raise ParameterError(f"no branch of {expr} applies as {x} → {at}")
    return expr.func(*[resolve_regime(a, x, at, allow_numeric=allow_numeric) for a in expr.args])


def _symbolic_power(
    regime: sp.Expr, x: sp.Symbol, at: str
) -> tuple[sp.Expr, Behaviour, sp.Expr | None]:
    """The power (exact), its behaviour and the log-derivative ``d log|B'| / dx`` it was taken
    from (``None`` for a constant), which :func:`_symbolic_log_powers` reuses."""
    first = sp.diff(regime, x)
    if first == 0 or (not _nonzero_somewhere(first, x) and _sympy(sp.simplify, first) == 0):
        return sp.Integer(0), "constant", None
    point, direction = (sp.oo, "-") if at == "oo" else (sp.Integer(0), "+")
    # x·B''/B' as the derivative of log|B'| (expanded: products and powers become sums, which
    # keeps sympy's limit fast on expressions such as ((L - mu)/(L + mu))**40)
    factored = _sympy(sp.factor, first)
    log_derivative = sp.diff(sp.expand_log(sp.log(factored), force=True), x)
    power = _sympy(sp.limit, 1 + x * log_derivative, x, point, direction)
    if power.has(sp.Limit) or isinstance(power, sp.AccumBounds) or power.has(x) or power is sp.nan:
        raise NotImplementedError("sympy could not take the limit")
    if power.has(sp.zoo):
        raise NotImplementedError("sympy returned an undirected infinity")
    power = sp.nsimplify(power) if power.is_Float else power
    if power in (sp.oo, -sp.oo):
        return power, "exponential", log_derivative
    return power, "power", log_derivative


#: Where :func:`_nonzero_somewhere` evaluates a derivative (two points, in case one is a pole
#: or a root), with the sign the variable's assumptions require, and the CPU seconds each
#: evaluation may take (a probe that takes longer proves nothing; simplify then decides).
_PROBES = (sp.Rational(7, 3), sp.Rational(3, 11))
_PROBE_TIME_LIMIT = 0.5
#: What ends a probe without a proof (``PrecisionExhausted`` is an ``ArithmeticError``).
_PROBE_FAILURES: tuple[type[BaseException], ...] = (
    _SympyTimeout,
    NotImplementedError,
    ArithmeticError,
    *_SYMPY_FAILURES,
)


def _nonzero_somewhere(expr: sp.Expr, x: sp.Symbol) -> bool:
    """True when ``expr``, whose only free symbol is ``x``, is proved not identically zero: its
    exact value at a point of x's domain is a real number that evalf resolves to full accuracy
    and finds nonzero (``strict=True``: an unresolved cancellation is not taken for a value).

    Then ``simplify(expr) == 0`` is false (simplify keeps the value of the expression where the
    assumptions of x hold), so the test costs an evaluation instead of a simplify; ``False``
    ("not proved") leaves the decision to simplify.
    """
    if expr.free_symbols != {x}:
        return False
    sign = -1 if (x.is_negative or x.is_nonpositive) else 1
    for probe in _PROBES:
        try:
            with _time_limit(_PROBE_TIME_LIMIT):
                value = expr.xreplace({x: sign * probe}).evalf(30, strict=True)
        except _PROBE_FAILURES:
            continue
        if value.is_Float and value.is_finite and value != 0:
            return True
    return False


def _symbolic_log_powers(
    regime: sp.Expr, x: sp.Symbol, at: str, power: sp.Expr, log_derivative: sp.Expr
) -> tuple[sp.Expr | None, sp.Expr | None]:
    """Exponents ``(k, j)`` of ``log^k · (log log)^j`` in the rate ``x^power`` (exact; ``None``
    when sympy cannot take a limit).

    With D = B' ~ c·x^(p−1)·ℓ^a·(log ℓ)^b, ℓ = |log x|, the logarithmic derivative is
    r = x·D'/D = (p − 1) + a/log x + b/(log x · log ℓ) + o(·), so with s = ±1 the sign of
    log x (+1 at ∞, −1 at 0) and ℓ = log t for t = x or 1/x,
    a = s·lim ℓ·(r − (p − 1)) and b = lim log ℓ·(s·ℓ·(r − (p − 1)) − a).
    B − B(a) is then c′·x^p·ℓ^a·(log ℓ)^b when p ≠ 0; when p = 0, B = ∫D dx lifts the first
    non-vanishing power by one: ℓ^(a+1)·(log ℓ)^b if a ≠ −1, else (log ℓ)^(b+1).

    An algebraic expression in x (sums, products and constant powers only) has no log factor:
    its expansion is a Puiseux series, so ``(0, 0)`` is returned without a limit; so has an
    expression that is a (generalized) Puiseux series near ``at`` for another reason
    (:func:`_puiseux_at`: e.g. exp(−500·η) + (1 − 10·η)^50 as η → 0, log 2 / log(κ/(κ − 1)) as
    κ → ∞), where the two limits took seconds.
    """
    if _algebraic_in(regime, x) or _puiseux_at(regime, x, at):
        return sp.Integer(0), sp.Integer(0)
    try:
        return _log_power_limits(log_derivative, x, at, power)
    except NotImplementedError:  # sympy gave up: the power stands, the log factors are unknown
        return None, None


def _algebraic_in(expr: sp.Expr, x: sp.Symbol) -> bool:
    """Whether ``expr`` is built from x by sums, products and powers with x-free exponents."""
    for node in sp.preorder_traversal(expr):
        if not node.has(x) or node == x or isinstance(node, (sp.Add, sp.Mul)):
            continue
        if isinstance(node, sp.Pow) and not node.exp.has(x):
            continue
        return False
    return True


#: Functions analytic at every real point: applied to a Puiseux series with a finite limit,
#: they give a Puiseux series (the Taylor series of the function, composed).
_ANALYTIC = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.atan)


def _puiseux_at(expr: sp.Expr, x: sp.Symbol, at: str) -> bool:
    """Whether ``expr`` is, near ``at``, a convergent generalized Puiseux series: a sum of
    powers of x (of 1/x at ∞) with real exponents, without logarithmic factors.

    Proved structurally, in the variable t = x (at 0) or t = 1/x (at ∞), as t → 0⁺: constants
    and t itself; sums, products, and powers with t-free exponents of such series (as in
    :func:`_algebraic_in`); ``c**g`` for a positive constant c, ``exp``, ``sin``, ``cos``,
    ``sinh``, ``cosh`` and ``atan`` of a series g with a finite limit L (their Taylor series at
    L, composed with g); ``log(g)`` when L > 0; ``asin(g)`` and ``acos(g)`` when |L| ≤ 1
    (analytic inside; at L = ±1, asin(g) = ±(π/2 − √(2(1 ∓ g))·h(1 ∓ g)) with h analytic at 0,
    a series again). L is finite when every sub-expression has a finite value at t = 0
    (:func:`_value_at_zero`). The logarithmic derivative of such a series, hence its log
    factors, are then exactly 0. ``False`` means "not proved".
    """
    if at == "oo":
        t = sp.Dummy("t", positive=True)
        expr, x = expr.xreplace({x: 1 / t}), t
    return _puiseux_at_zero(expr, x)


def _puiseux_at_zero(expr: sp.Expr, x: sp.Symbol) -> bool:
    if not expr.has(x) or expr == x:
        return True
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_puiseux_at_zero(a, x) for a in expr.args)
    if isinstance(expr, sp.Pow):
        base, power = expr.args
        if not power.has(x):
            return _puiseux_at_zero(base, x)
        return not base.has(x) and base.is_positive is True and _value_at_zero(power, x) is not None
    if isinstance(expr, _ANALYTIC):
        return _value_at_zero(expr.args[0], x) is not None
    if isinstance(expr, sp.log):
        value = _value_at_zero(expr.args[0], x)
        return value is not None and value.is_positive is True
    if isinstance(expr, (sp.asin, sp.acos)):
        value = _value_at_zero(expr.args[0], x)
        return value is not None and value.is_real is True and (sp.Abs(value) <= 1) == sp.true
    return False


def _value_at_zero(expr: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """The limit of ``expr`` as x → 0⁺ when :func:`_puiseux_at_zero` holds and every
    sub-expression has a finite value at x = 0 (then each node is continuous at the values of
    its arguments, and the value is the limit); ``None`` otherwise."""
    if not expr.has(x):
        return expr if expr.is_finite is True else None
    if expr == x:
        return sp.Integer(0)
    if not _puiseux_at_zero(expr, x):
        return None
    values = []
    for argument in expr.args:
        value = _value_at_zero(argument, x)
        if value is None:
            break
        values.append(value)
    else:
        result = expr.func(*values)
        if result.is_finite is True:
            return result
    if expr.is_rational_function(x):  # a removable singularity, as in (1/x)/(1/x − 1) = 1/(1 − x)
        reduced = sp.cancel(expr)
        if reduced != expr:
            return _value_at_zero(reduced, x)
    return None


def _log_power_limits(
    log_derivative: sp.Expr, x: sp.Symbol, at: str, power: sp.Expr
) -> tuple[sp.Expr | None, sp.Expr | None]:
    t = sp.Dummy("t", positive=True)
    ratio = x * log_derivative - (power - 1)
    if at == "0":
        ratio, sign = ratio.xreplace({x: 1 / t}), -1
    else:
        ratio, sign = ratio.xreplace({x: t}), 1

    def _limit(expression: sp.Expr) -> sp.Expr | None:
        try:
            value = _sympy(sp.limit, expression, t, sp.oo)
        except NotImplementedError:
            return None
        if (
            value.has(sp.Limit, sp.zoo, sp.nan, t)
            or isinstance(value, sp.AccumBounds)
            or value in (sp.oo, -sp.oo)
        ):
            return None
        return sp.nsimplify(value) if value.is_Float else value

    ell = sp.log(t)
    a = _limit(sign * ell * ratio)
    if a is None:
        return None, None
    b = _limit(sp.log(ell) * (sign * ell * ratio - a))
    if b is None:
        return (None, None) if power == 0 else (a, None)
    if power != 0:
        return a, b
    if a != -1:
        return a + 1, b
    return sp.Integer(0), b + 1


class _LazyValues:
    """B(points[k]) at a given precision, computed on first access (some searches stop early),
    :data:`_CHUNK` points at a time: switching mpmath's precision costs more than evaluating a
    simple bound, and a value does not depend on when it is computed."""

    _CHUNK = 32

    def __init__(self, function: Any, points: list[Any], dps: int) -> None:
        self._function, self._points, self._dps = function, points, dps
        self._cache: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self._points)

    def __getitem__(self, k: int) -> Any:
        if k not in self._cache:
            with mpmath.workdps(self._dps):
                for j in range(k, min(k + self._CHUNK, len(self._points))):
                    if j not in self._cache:
                        self._cache[j] = self._function(self._points[j])
        return self._cache[k]


def _numeric_power(
    expr: sp.Expr, x: sp.Symbol, at: str, x0: float
) -> tuple[sp.Expr, Behaviour, Any]:
    """Log-log slope of successive differences over decades, in arbitrary precision.

    With D_k = B(x_{k+1}) − B(x_k) on points x_k = x0·10^{±k}, a bound approaching its limit as
    c·x^p has log10|D_{k+1}/D_k| = p exactly; logarithmic factors add a term in 1/log x, which is
    removed by extrapolating the slopes linearly and quadratically in u = 1/|log10 x_k| to u = 0.
    Differences that vanish after a steepening decay mean faster than any power.
    """
    function = _mp_function(expr, x)
    points, point_inverse_logs = _decades(at, x0)
    with mpmath.workdps(_DPS + 300):
        values = _LazyValues(function, list(points), _DPS + 300)
        # a second, lower precision detects cancellation
        check_values = _LazyValues(function, list(points), _DPS + 200)
        slopes: list[float] = []
        inverse_logs: list[float] = []
        zero_run = 0
        tolerance = mpmath.mpf(1e-9)  # the float 1e-9 exactly, converted once
        later = values[1] - values[0]
        for k in range(1, len(values) - 1):
            earlier = later  # values[k] − values[k − 1], computed in the previous step
            later = values[k + 1] - values[k]
            if mpmath.isnan(earlier) or mpmath.isnan(later) or mpmath.isinf(later):
                break
            if earlier == 0 and later == 0:
                zero_run += 1
                if zero_run >= 5:
                    if slopes and slopes[-1] < -2 and slopes[-1] <= slopes[0]:
                        # the differences fell below the working precision after a steepening
                        # decay: faster than any power
                        return -sp.oo, "exponential", values[k + 1]
                    if not slopes:
                        return sp.Integer(0), "constant", values[k + 1]
                    break
                continue
            zero_run = 0
            if earlier == 0 or later == 0:
                continue
            check = check_values[k + 1] - check_values[k]
            if mpmath.isnan(check) or abs(check - later) > tolerance * abs(later):
                break  # the difference is not resolved at the working precision: stop sampling
            slope = _float_log10(abs(later) / abs(earlier))
            slopes.append(-slope if at == "0" else slope)
            inverse_logs.append(point_inverse_logs[k])
            if len(slopes) >= 4:
                last = slopes[-4:]
                if all(v < -60 for v in last) and last[-1] < last[0]:
                    return -sp.oo, "exponential", values[k + 1]
                if all(v > 60 for v in last) and last[-1] > last[0]:
                    return sp.oo, "exponential", values[k + 1]
        last_value = values[min(len(slopes) + 1, len(values) - 1)]
    if len(slopes) >= 12:
        tail = np.array(slopes[len(slopes) // 2 :])
        u = np.array(inverse_logs[len(slopes) // 2 :])
        if np.ptp(tail[-10:]) < 1e-9:
            return sp.Float(float(tail[-1]), 6), "power", last_value
        if np.all(np.isfinite(u)):
            design = np.vstack([np.ones_like(u), u, u**2]).T
            coefficients, *_ = np.linalg.lstsq(design, tail, rcond=None)
            residual = float(np.sqrt(np.mean((design @ coefficients - tail) ** 2)))
            if residual < 1e-5:
                power = float(coefficients[0])
                return sp.Float(0.0 if abs(power) < 1e-6 else power, 6), "power", last_value
    raise ParameterError(
        f"the log-log slope of {expr} in {x} does not settle as {x} → "
        f"{'∞' if at == 'oo' else 0}; the exponent is not defined numerically"
    )


def exponent(
    bound: BoundLike,
    var: str,
    at: Any = "oo",
    *,
    keep: Iterable[str] = (),
    method: Literal["auto", "symbolic", "numeric"] = "auto",
    **fixed: Any,
) -> Exponent:
    """Leading power of ``bound`` in ``var`` as ``var`` → ∞ or → 0 (see the module docstring).

    Parameters
    ----------
    bound
        The bound.
    var
        Name of a scalar symbol of the bound.
    at
        ``"oo"`` (default) or ``0``.
    keep
        Names of symbols to keep symbolic: the power is then an expression in them (only the
        symbolic method can do this), e.g. ``exponent("r", keep=["eta", "d"])`` → ``-2*eta/d``.
    method
        ``"symbolic"`` (sympy limit only), ``"numeric"`` (decade slopes only) or ``"auto"``
        (symbolic, falling back to numeric).
    **fixed
        Values of the other symbols; those not given take their example values (unknown
        constants of order bounds take 1, which does not change any power).

    Returns
    -------
    Exponent

    Raises
    ------
    ParameterError
        Unknown names, ``var`` a sequence (or indexing one), an integer ``var`` at 0, or an
        exponent neither method can determine.
    """
    info = bound.info
    if var not in info:
        raise ParameterError(bound._unknown_message(var))
    if info[var].role == "sequence":
        raise ParameterError(parameter="var", value=var, rule="is a sequence, not a scalar symbol")
    token = _at_token(at)
    x = info[var].symbol
    if token == "0" and x.is_integer:
        raise ParameterError(
            parameter="at", value=at, rule=f"{var} is an integer; only at='oo' is meaningful"
        )
    if method not in ("auto", "symbolic", "numeric"):
        raise ParameterError(
            parameter="method", value=method, rule="must be 'auto', 'symbolic' or 'numeric'"
        )
    keep = list(keep)
    expr, used = _substituted(bound, var, fixed, keep, example_defaults=True)
    allow_numeric = not keep
    if method == "numeric" and keep:
        raise ParameterError(parameter="keep", value=keep, rule="needs the symbolic method")
    _check_path(bound, var, x, token, used, allow_numeric=allow_numeric)
    original, x = x, _continuous(x)
    regime = resolve_regime(expr.xreplace({original: x}), x, token, allow_numeric=allow_numeric)
    shown = regime.xreplace({x: original})
    nonsmooth = any(node.has(x) for node in regime.atoms(*_NONSMOOTH))
    if method in ("auto", "symbolic") and not nonsmooth:
        structural = _structural_rate(regime, x, token) if not keep else None
        if structural is not None:
            return Exponent(
                var,
                token,
                structural.power,
                "power",
                "symbolic",
                structural.limit,
                shown,
                used,
                structural.log_power,
                structural.loglog_power,
            )
        try:
            power, behaviour, log_derivative = _symbolic_power(regime, x, token)
            logs: tuple[sp.Expr | None, sp.Expr | None] = (sp.Integer(0), sp.Integer(0))
            if behaviour == "power" and log_derivative is not None:
                logs = _symbolic_log_powers(regime, x, token, power, log_derivative)
            point = sp.oo if token == "oo" else sp.Integer(0)
            try:
                limit = _sympy(sp.limit, regime, x, point, "+" if token == "0" else "-")
                limit = None if limit.has(sp.Limit) else limit
            except (NotImplementedError, ValueError, TypeError, RecursionError):
                limit = None
            return Exponent(var, token, power, behaviour, "symbolic", limit, shown, used, *logs)
        except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
            if method == "symbolic" or not allow_numeric:
                raise ParameterError(
                    f"sympy cannot determine the exponent of {bound.id} in {var} at {token}"
                    + ("" if allow_numeric else "; fix the kept symbols to allow a numeric answer")
                ) from None
    elif method == "symbolic" or not allow_numeric:
        raise ParameterError(
            f"{bound.id} contains ceiling/floor in {var}: only method='numeric' applies"
            + ("" if allow_numeric else ", which needs values for the kept symbols")
        )
    x0 = float(bound.example.get(var, 1) or 1)
    power, behaviour, last = _numeric_power(regime, x, token, x0)
    grows = behaviour == "power" and float(power) > 0
    limit = sp.oo if grows else (sp.Float(float(last), 15) if mpmath.isfinite(last) else None)
    logs = (None, None) if behaviour == "power" else (sp.Integer(0), sp.Integer(0))
    return Exponent(var, token, power, behaviour, "numeric", limit, shown, used, *logs)


def _structural_rate(regime: sp.Expr, x: sp.Symbol, at: str) -> Rate | None:
    """The rate from leading terms (:func:`._leading.rate`: exact, milliseconds), ``None``
    when its rules cannot decide or the regime is constant (sympy's limit then decides)."""
    try:
        return rate(regime, x, at)
    except Unsupported:
        return None


def _check_path(
    bound: BoundLike,
    var: str,
    x: sp.Symbol,
    at: str,
    used: Mapping[str, Any],
    *,
    allow_numeric: bool,
) -> None:
    """Refuse a limit that leaves the theorem's hypotheses (δ → ∞ when δ < 1 is assumed)."""
    substitutions = {
        bound.info[n].symbol: exact_number(v)
        for n, v in used.items()
        if bound.info[n].role != "sequence"
    }
    items = tuple(substitutions.items())
    for hypothesis in bound.hypotheses:
        relation = _with_values(hypothesis.relation, items, harmonics=False)
        if not relation.has(x) or relation.free_symbols - {x}:
            continue
        try:
            holds = _truth_near(relation, x, at, allow_numeric=allow_numeric)
        except ParameterError:
            continue
        if not holds:
            raise ParameterError(
                f"{bound.id}: {var} → {'∞' if at == 'oo' else 0} leaves the theorem's hypotheses "
                f"({hypothesis} fails there with the other values fixed at "
                f"{', '.join(f'{k}={v}' for k, v in used.items())})"
            )


def local_exponent(bound: BoundLike, var: str, at: float, **fixed: Any) -> float:
    """Local log-log slope ``d log B / d log var`` at ``var = at`` (arbitrary precision).

    Other symbols take ``fixed`` values or their example values. Min/Max regimes are those in
    force at ``at``; at a kink the numerical derivative averages the two sides.
    """
    info = bound.info
    if var not in info or info[var].role == "sequence":
        raise ParameterError(bound._unknown_message(var))
    check_real("at", at, arrays=False)
    if not 0 < float(at) < float("inf"):
        raise ParameterError(
            parameter="at", value=at, rule="must be positive and finite (log scale)"
        )
    expr, _ = _substituted(bound, var, fixed, (), example_defaults=True)
    function = _mp_function(expr, info[var].symbol)
    with mpmath.workdps(_DPS):
        point = mpmath.mpf(at)
        value = function(point)
        if not mpmath.isfinite(value) or value == 0:
            raise ParameterError(
                f"{bound.id} is zero or undefined at {var}={at}; no log-log slope there"
            )
        slope = mpmath.diff(lambda t: mpmath.log(abs(function(mpmath.exp(t)))), mpmath.log(point))
    return float(slope)
