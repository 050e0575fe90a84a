"""Leading terms of a bound at ∞ in the scale t^p·log(t)^a·log(log(t))^b, by exact arithmetic.

A bound is mostly built from powers, logarithms and harmonic numbers of its variable. Near ∞
such an expression behaves like one monomial c·t^p·ℓ^a·(log ℓ)^b (ℓ = log t): the leading term of
a product is the product of the leading terms, of a constant power the power, of a logarithm
p·ℓ (or a·log ℓ), of a sum the sum of the dominant terms — unless their coefficients cancel.
:func:`leading_term` computes it structurally, in exact arithmetic, and refuses
(:class:`Unsupported`) everything it cannot decide: a cancellation, an exponent that is not a
rational number, a function outside the list below, an argument tending to ∞ where only a finite
limit is understood. Refusing is always safe: :func:`~fedtheory.bounds._analysis.exponent` then
asks sympy's limit, as it did before this route existed.

Why it exists: sympy's Gruntz limit, asked for ``lim 1 + t·B''/B'`` and for the log factors,
takes seconds on bounds with nested radicals of logarithms (FZooS Lemma C.4) or harmonic numbers
(GIFAIR-FL Theorem 8.6), and past its CPU time limit the exponent became a numeric estimate whose
log factors were unknown — so the answer depended on the speed of the machine. On this class of
expressions the structural answer is exact, deterministic, and takes milliseconds.

Rules (t → ∞, every "limit" below is exact):

- a constant c ≠ 0 (no free symbol; its sign decided by ``evalf`` to 30 digits, ``strict``);
  ``t`` itself is 1·t¹;
- ``Add``: the terms of the largest (p, a, b) in lexicographic order, coefficients added; a sum
  that is not proved nonzero is refused (cancellation: the leading term is further down);
- ``Mul``: coefficients multiplied, exponents added; ``g**e`` with e a constant: c**e (c > 0 or
  e an integer), exponents times e;
- ``log(g)``: p·ℓ if p ≠ 0, a·log ℓ if p = 0 and a ≠ 0, log c if g → c ≠ 1 (refused otherwise);
- ``harmonic(g)``, ``harmonic(g, s)`` with g → ∞: log g (s = 1), ζ(s) (s > 1), g^(1−s)/(1−s)
  (s < 1); the Hurwitz ζ(s, g) of their derivatives with s > 1, g → ∞: g^(1−s)/(s − 1);
- ``exp``, ``sin``, ``cos``, ``tan``, ``sinh``, ``cosh``, ``tanh``, ``atan``, ``asin``,
  ``acos``, ``erf``, ``Abs`` of g → L finite: the constant f(L) if it is a nonzero real (f
  continuous at L); ``atan``, ``tanh`` and ``erf`` of g → ±∞: ±π/2, ±1, ±1; ``Abs(g)``: |c|·(…).

Floats (harmonic numbers of fixed arguments are substituted as 60-digit floats) may appear in
coefficients, where a sum counts as nonzero only above 1e-25 of its largest term; exponents must
be rational.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

__all__ = ["Monomial", "Rate", "Unsupported", "leading_term", "rate"]

#: Digits to which a coefficient's sign and nonzeroness are decided.
_DIGITS = 30
#: A sum with float coefficients counts as nonzero only above this fraction of its largest term.
_FLOAT_CANCELLATION = sp.Float("1e-25", _DIGITS)


class Unsupported(Exception):
    """The leading term cannot be decided by these rules (a cancellation, an unknown function,
    an irrational exponent, ...): ask sympy."""


@dataclass(frozen=True)
class Monomial:
    """``coefficient · t**power · log(t)**log_power · log(log(t))**loglog_power`` as t → ∞.

    ``coefficient`` is a nonzero real constant (exact, or a float where the bound held one),
    the three exponents are exact rationals.
    """

    coefficient: sp.Expr
    power: sp.Rational
    log_power: sp.Rational
    loglog_power: sp.Rational

    @property
    def scale(self) -> tuple[sp.Rational, sp.Rational, sp.Rational]:
        """(p, a, b): a monomial grows iff its scale is above (0, 0, 0) lexicographically."""
        return (self.power, self.log_power, self.loglog_power)

    @property
    def direction(self) -> int:
        """+1 when the monomial tends to ±∞, −1 when it tends to 0, 0 when it is a constant."""
        for exponent in self.scale:
            if exponent != 0:
                return 1 if exponent > 0 else -1
        return 0

    def limit(self) -> sp.Expr:
        """The limit of the expression the monomial leads: 0, ±∞ or the constant itself."""
        if self.direction < 0:
            return sp.Integer(0)
        if self.direction == 0:
            return self.coefficient
        return sp.oo if _sign(self.coefficient) > 0 else -sp.oo

    def sign(self) -> int:
        """The sign (±1) of the expression near ∞: that of the coefficient."""
        return _sign(self.coefficient)

    def times(self, other: Monomial) -> Monomial:
        return Monomial(
            self.coefficient * other.coefficient,
            self.power + other.power,
            self.log_power + other.log_power,
            self.loglog_power + other.loglog_power,
        )

    def to_the(self, exponent: sp.Rational) -> Monomial:
        if not exponent.is_integer and _sign(self.coefficient) < 0:
            raise Unsupported(f"{self.coefficient}**{exponent} is not real")
        return Monomial(
            self.coefficient**exponent,
            self.power * exponent,
            self.log_power * exponent,
            self.loglog_power * exponent,
        )


_ZERO = sp.Integer(0)


def _constant(value: sp.Expr) -> Monomial:
    return Monomial(value, _ZERO, _ZERO, _ZERO)


def _rational(value: sp.Expr) -> sp.Rational:
    if not value.is_Rational:
        raise Unsupported(f"the exponent {value} is not a rational number")
    return value


def _numeric(value: sp.Expr) -> sp.Float:
    """``value`` to :data:`_DIGITS` digits, proved to that accuracy (no unresolved cancellation)."""
    try:
        number = value.evalf(_DIGITS, strict=True)
    except Exception as exc:  # PrecisionExhausted, or a function evalf cannot evaluate
        raise Unsupported(f"cannot evaluate the constant {value}: {exc}") from None
    if not (number.is_Float or number.is_Integer) or not number.is_finite:
        raise Unsupported(f"the constant {value} is not a finite real number ({number})")
    return number


def _sign(value: sp.Expr) -> int:
    """The sign (±1) of a nonzero real constant; a constant not proved nonzero is refused."""
    number = _numeric(value)
    if number.is_zero:  # (sympy ≥ 1.13: a Float never == an Integer, Float(0) == 0 is False)
        raise Unsupported(f"{value} is not proved nonzero")
    return 1 if number > 0 else -1


def leading_term(expr: sp.Expr, t: sp.Symbol) -> Monomial | None:
    """The leading monomial of ``expr`` as ``t`` → ∞ (``t`` positive), ``None`` when ``expr`` is
    the constant 0; raises :class:`Unsupported` when the rules of the module cannot decide."""
    if not expr.has(t):
        if expr.free_symbols:
            raise Unsupported(f"{expr} holds free symbols {sorted(map(str, expr.free_symbols))}")
        if expr == 0:
            return None
        _sign(expr)  # proves it real and nonzero
        return _constant(expr)
    if expr == t:
        return Monomial(sp.Integer(1), sp.Integer(1), _ZERO, _ZERO)
    if isinstance(expr, sp.Add):
        return _sum(expr, t)
    if isinstance(expr, sp.Mul):
        result = _constant(sp.Integer(1))
        for factor in expr.args:
            term = leading_term(factor, t)
            if term is None:
                return None
            result = result.times(term)
        return result
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if exponent.has(t):
            return _function(sp.exp, exponent * sp.log(base), t)
        inner = leading_term(base, t)
        if inner is None:
            raise Unsupported(f"0**{exponent}")
        return inner.to_the(_rational(exponent))
    if isinstance(expr, sp.log):
        return _log(expr.args[0], t)
    if isinstance(expr, sp.harmonic):
        return _harmonic(expr, t)
    if isinstance(expr, sp.zeta) and len(expr.args) == 2:
        return _hurwitz_zeta(expr, t)
    if isinstance(expr, sp.Abs):
        inner = leading_term(expr.args[0], t)
        if inner is None:
            return None
        return Monomial(sp.Abs(inner.coefficient), *inner.scale)
    if isinstance(expr, _CONTINUOUS):
        return _function(type(expr), expr.args[0], t)
    raise Unsupported(f"no rule for {type(expr).__name__}")


def _sum(expr: sp.Add, t: sp.Symbol) -> Monomial | None:
    terms = [term for term in (leading_term(a, t) for a in expr.args) if term is not None]
    if not terms:
        return None
    top = max(term.scale for term in terms)
    dominant = [term.coefficient for term in terms if term.scale == top]
    total = sp.Add(*dominant)
    if len(dominant) > 1:
        if any(c.has(sp.Float) for c in dominant):
            largest = max(abs(_numeric(c)) for c in dominant)
            if abs(_numeric(total)) <= _FLOAT_CANCELLATION * largest:
                raise Unsupported(f"the leading coefficients of {expr} cancel")
        elif total == 0:
            raise Unsupported(f"the leading terms of {expr} cancel")
    _sign(total)  # not proved nonzero: a cancellation (or a coefficient evalf cannot resolve)
    return Monomial(total, *top)


def _log(argument: sp.Expr, t: sp.Symbol) -> Monomial:
    return _log_of(leading_term(argument, t), argument)


def _log_of(inner: Monomial | None, argument: sp.Expr) -> Monomial:
    """log of ``argument``, whose leading monomial is ``inner``."""
    if inner is None or _sign(inner.coefficient) < 0:
        raise Unsupported(f"log of {argument}, which is not positive near ∞")
    if inner.power != 0:
        return Monomial(inner.power, _ZERO, sp.Integer(1), _ZERO)
    if inner.log_power != 0:
        return Monomial(inner.log_power, _ZERO, _ZERO, sp.Integer(1))
    if inner.loglog_power != 0:
        raise Unsupported(f"log of {argument}: a log(log(log(t))) is outside the scale")
    value = sp.log(inner.coefficient)
    if value == 0 or _numeric(value).is_zero:
        raise Unsupported(f"log of {argument}, which tends to 1: the next term decides")
    return _constant(value)


def _harmonic(expr: sp.harmonic, t: sp.Symbol) -> Monomial:
    argument, *order = expr.args
    s = sp.Integer(1) if not order else order[0]
    if s.has(t):
        raise Unsupported(f"{expr}: the order depends on the variable")
    inner = leading_term(argument, t)
    if inner is None or inner.direction <= 0 or _sign(inner.coefficient) < 0:
        raise Unsupported(f"{expr}: only an argument tending to +∞ is understood")
    s = _rational(s)
    if s == 1:
        return _log_of(inner, argument)  # H_n = log n + γ + O(1/n)
    if s > 1:
        return _constant(sp.zeta(s))  # H_n^(s) → ζ(s)
    return inner.to_the(1 - s).times(_constant(1 / (1 - s)))  # Σ k^-s ~ n^(1−s)/(1−s)


def _hurwitz_zeta(expr: sp.zeta, t: sp.Symbol) -> Monomial:
    """ζ(s, g) = Σ_k (k + g)^−s ~ g^(1−s)/(s − 1) as g → ∞ (s > 1): the derivative of a
    harmonic number, d/dn H_n^(s) = s·ζ(s + 1, n + 1)."""
    s, argument = expr.args
    if s.has(t):
        raise Unsupported(f"{expr}: the order depends on the variable")
    s = _rational(s)
    inner = leading_term(argument, t)
    if s <= 1 or inner is None or inner.direction <= 0 or _sign(inner.coefficient) < 0:
        raise Unsupported(f"{expr}: only s > 1 and an argument tending to +∞ are understood")
    return inner.to_the(1 - s).times(_constant(1 / (s - 1)))


#: Functions continuous on their real domain whose value at a finite limit of their argument
#: is their limit (asin/acos: continuous on [−1, 1], checked below).
_CONTINUOUS = (
    sp.exp,
    sp.sin,
    sp.cos,
    sp.tan,
    sp.sinh,
    sp.cosh,
    sp.tanh,
    sp.atan,
    sp.asin,
    sp.acos,
    sp.erf,
)
#: Limits at ±∞ of the bounded monotone ones among them.
_AT_INFINITY = {sp.atan: sp.pi / 2, sp.tanh: sp.Integer(1), sp.erf: sp.Integer(1)}


def _function(function: type[sp.Function], argument: sp.Expr, t: sp.Symbol) -> Monomial:
    inner = leading_term(argument, t)
    if inner is not None and inner.direction > 0:
        if function not in _AT_INFINITY:
            raise Unsupported(f"{function.__name__} of {argument}, which tends to ±∞")
        return _constant(_sign(inner.coefficient) * _AT_INFINITY[function])
    limit = _ZERO if inner is None else inner.limit()
    if function in (sp.asin, sp.acos):
        _check_inside_unit_interval(function, argument, limit, t)
    value = function(limit)
    if value.has(function) and not value.is_number:
        raise Unsupported(f"{function.__name__}({limit}) does not evaluate")
    if value == 0:
        raise Unsupported(f"{function.__name__} of {argument} tends to 0: the next term decides")
    _sign(value)
    return _constant(value)


@dataclass(frozen=True)
class Rate:
    """How a bound B approaches its limit at 0 or ∞: B − B(a) ~ c·x^power·ℓ^log_power·
    (log ℓ)^loglog_power (ℓ = log x at ∞, log(1/x) at 0; B itself when the limit is 0 or ±∞)."""

    power: sp.Rational
    log_power: sp.Rational
    loglog_power: sp.Rational
    limit: sp.Expr


def rate(expr: sp.Expr, x: sp.Symbol, at: str) -> Rate | None:
    """The exponent of ``expr`` in ``x`` at ``at`` (``"oo"`` or ``"0"``) from leading terms, as
    :func:`~fedtheory.bounds._analysis.exponent` defines it (p = lim 1 + x·B''/B').

    With B's leading monomial c·t^p·ℓ^a·(log ℓ)^b not a constant, B tends to 0 or ±∞ and that is
    the rate. When B tends to the constant c, the rate is that of B − c: from the leading
    monomial c'·t^q·ℓ^a·(log ℓ)^b of B', it is t^(q+1)·ℓ^a·(log ℓ)^b if q ≠ −1, else
    ℓ^(a+1)·(log ℓ)^b if a ≠ −1, else (log ℓ)^(b+1) (B − c = −∫_t^∞ B'). At 0 the same
    is done in t = 1/x, and the power changes sign.

    ``None`` when ``expr`` is constant in ``x`` (the caller decides that case); raises
    :class:`Unsupported` when the rules cannot decide.
    """
    if not expr.has(x):
        return None
    if expr.free_symbols != {x}:
        raise Unsupported("only an expression in the variable alone")
    t = sp.Dummy("t", positive=True)
    inner = expr.xreplace({x: t if at == "oo" else 1 / t})
    lead = leading_term(inner, t)
    if lead is None:
        return None
    if lead.direction != 0:
        power, log_power, loglog_power = lead.scale
    else:
        slope = leading_term(sp.diff(inner, t), t)
        if slope is None:
            return None
        q, a, b = slope.scale
        if q != -1:
            power, log_power, loglog_power = q + 1, a, b
        elif a != -1:
            power, log_power, loglog_power = _ZERO, a + 1, b
        else:
            power, log_power, loglog_power = _ZERO, _ZERO, b + 1
        if Monomial(sp.Integer(1), power, log_power, loglog_power).direction >= 0:
            raise Unsupported(f"{expr} tends to {lead.coefficient} but B' does not vanish fast")
    return Rate(power if at == "oo" else -power, log_power, loglog_power, lead.limit())


def _check_inside_unit_interval(
    function: type[sp.Function], argument: sp.Expr, limit: sp.Expr, t: sp.Symbol
) -> None:
    """asin and acos are real (and continuous) on [−1, 1] only: the argument must tend to a
    point inside, or to ±1 from inside (its distance to the end point of the sign that keeps
    it in the interval)."""
    size = abs(_numeric(limit))
    if size < 1:
        return
    if (size - 1).is_zero:
        offset = leading_term(argument - limit, t)
        if offset is None or offset.sign() != _sign(limit):
            return
    raise Unsupported(f"{function.__name__} of {argument}, which leaves [−1, 1]")
