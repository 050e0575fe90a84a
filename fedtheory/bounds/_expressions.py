"""Low-level helpers on sympy expressions shared by the Bound core and its analysis.

:mod:`fedtheory.bounds._bound` (evaluation, substitution) and :mod:`fedtheory.bounds._analysis`
(exponents, crossovers) both turn user values into exact sympy numbers and compile expressions
with ``lambdify``; the pieces they share live here, below both, so that neither imports the
other's internals:

- :func:`check_real` and :func:`check_domain`: the validation of every parameter value a user
  passes (evaluation, substitution, exponents, crossovers): a real number (never a string, a
  boolean or ``None``), finite and inside the symbol's domain;
- :func:`exact_number`: a validated number as an exact sympy number (``0.1`` → ``1/10``);
- :func:`prepare_for_lambdify` with the namespaces :data:`NUMPY_NAMESPACE` and
  :data:`MPMATH_NAMESPACE`: ``Min``/``Max`` that broadcast under numpy and work under mpmath, and
  the generalized harmonic numbers (sympy prints them without parentheses);
- :func:`lambdify`: ``sympy.lambdify`` with placeholders whose names do not depend on the
  process's history, so that a bound compiles to the same code, and gives the same bits,
  in every process (DESIGN §4).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np
import scipy.special
import sympy as sp
from sympy.core.symbol import uniquely_named_symbol

from fedtheory.errors import ParameterError

__all__ = [
    "MPMATH_NAMESPACE",
    "NUMPY_NAMESPACE",
    "check_domain",
    "check_real",
    "exact_number",
    "lambdify",
    "lambdify_form",
    "mp_harmonic",
    "prepare_for_lambdify",
    "real_array",
]

# Min/Max are rewritten into these undefined functions before lambdify so that they broadcast
# (sympy's numpy printer emits numpy.amin((a, b), axis=0), which fails for mixed shapes).
_FMIN = sp.Function("fedtheory_min")
_FMAX = sp.Function("fedtheory_max")
# harmonic(n, s) likewise: sympy's numpy printer writes H_n as ``polygamma(0, n + 1) +
# euler_gamma`` without parentheses, so c·H_n/√n is printed as c·ψ(n + 1) + γ/√n (wrong by a
# factor 16 on gifair.thm86 at T = 1000), and its mpmath printer passes an order mpmath refuses.
_FHARMONIC = sp.Function("fedtheory_harmonic")


def _np_min(*args: Any) -> Any:
    return functools.reduce(np.minimum, args)


def _np_max(*args: Any) -> Any:
    return functools.reduce(np.maximum, args)


def _np_harmonic(n: Any, order: Any = 1) -> Any:
    """The generalized harmonic number H_n^{(s)} = Σ_{t≤n} t^{−s}, broadcasting over numpy
    arrays: ψ(n + 1) + γ for s = 1, ζ(s) − ζ(s, n + 1) for s > 1 (scipy), and the same through
    mpmath for s < 1, where scipy's Hurwitz ζ is not defined."""
    n = np.asarray(n, dtype=float)
    if np.all(np.asarray(order) == 1):
        return scipy.special.digamma(n + 1) + np.euler_gamma
    if np.all(np.asarray(order) > 1):
        return scipy.special.zeta(order, 1) - scipy.special.zeta(order, n + 1)
    harmonic_elementwise = np.vectorize(
        lambda k, s: float(mp_harmonic(mpmath.mpf(k), mpmath.mpf(s)))
    )
    return harmonic_elementwise(n, order)[()]


#: ``lambdify`` namespace (put before ``"numpy"``) giving the broadcasting Min/Max and the
#: generalized harmonic numbers.
NUMPY_NAMESPACE: dict[str, Any] = {
    "fedtheory_min": _np_min,
    "fedtheory_max": _np_max,
    "fedtheory_harmonic": _np_harmonic,
}


def mp_harmonic(n: Any, order: Any = 1) -> Any:
    """The generalized harmonic number H_n^{(s)} = Σ_{t≤n} t^{−s} on mpmath numbers.

    ``mpmath.harmonic`` has the order s = 1 only; the others are ζ(s) − ζ(s, n + 1), with ζ(s)
    cached per precision and the Hurwitz ζ(s, n + 1) from its Euler–Maclaurin series when n is
    large (mpmath adds a few hundred terms first at every call: the exponent of gifair.thm86 in
    T, sampled at 10^0…10^240 with 360 digits, took 20 s).
    """
    if order == 1:
        return mpmath.harmonic(n)
    order = mpmath.mpf(order)
    return _mp_zeta(order, mpmath.mp.prec) - _hurwitz_zeta(order, mpmath.mpf(n) + 1)


@functools.lru_cache(maxsize=32)
def _mp_zeta(order: Any, precision: int) -> Any:
    with mpmath.workprec(precision):
        return +mpmath.zeta(order)


def _hurwitz_zeta(order: Any, a: Any) -> Any:
    """ζ(s, a) = a^{1−s}/(s − 1) + a^{−s}/2 + Σ_k B_{2k}/(2k)! · s(s + 1)⋯(s + 2k − 2) ·
    a^{−s−2k+1}, summed until a term falls below the working precision; ``mpmath.zeta`` when the
    asymptotic series stops decreasing first (small a)."""
    total = a ** (1 - order) / (order - 1) + a ** (-order) / 2
    tolerance = mpmath.eps * abs(total)
    previous = mpmath.inf
    power = a ** (-order - 1)
    rising = order  # s(s + 1)⋯(s + 2k − 2)
    for k in range(1, 400):
        term = mpmath.bernoulli(2 * k) / mpmath.factorial(2 * k) * rising * power
        if abs(term) < tolerance:
            return total + term
        if abs(term) >= previous:
            break
        total += term
        previous = abs(term)
        power /= a * a
        rising *= (order + 2 * k - 1) * (order + 2 * k)
    return mpmath.zeta(order, a)


#: ``lambdify`` namespace (put before ``"mpmath"``) giving Min/Max on mpmath numbers, and the
#: generalized harmonic numbers ``harmonic(n, s)`` that mpmath lacks.
MPMATH_NAMESPACE: dict[str, Any] = {
    "fedtheory_min": lambda *a: min(a),
    "fedtheory_max": lambda *a: max(a),
    "fedtheory_harmonic": mp_harmonic,
}


def prepare_for_lambdify(expr: sp.Basic) -> sp.Basic:
    """``expr`` with every ``Min``/``Max``/``harmonic`` replaced by the functions of the
    namespaces above."""
    return expr.replace(sp.Min, _FMIN).replace(sp.Max, _FMAX).replace(sp.harmonic, _FHARMONIC)


def _is_real_number(value: Any) -> bool:
    """True for one real number: int, float, numpy integer or floating, Fraction, a real sympy
    number; never a boolean (``True`` is an ``int`` to Python, not a value of a parameter)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, numbers.Real):
        return True
    return isinstance(value, sp.Expr) and bool(value.is_number) and value.is_extended_real is True


def _kind(value: Any) -> str:
    """How a refused value is described: its type, or the dtype of an array."""
    if isinstance(value, np.ndarray):
        return f"numpy array of {value.dtype}"
    return type(value).__name__


def _first_non_real(value: Any) -> tuple[Any, str] | None:
    """The first entry of an array-like (or the value itself) that is not a real number, with
    its description; ``None`` when every entry is real."""
    if _is_real_number(value):
        return None
    if isinstance(value, (list, tuple)):
        for item in value:
            found = _first_non_real(item)
            if found is not None:
                return found
        return None
    if value is None or isinstance(value, (str, bytes, bool, np.generic, sp.Basic, dict, set)):
        return value, _kind(value)
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        return value, _kind(value)
    if array.dtype.kind in "iuf":
        return None
    if array.dtype.kind == "O" and array.ndim > 0:
        for item in array.flat:
            found = _first_non_real(item)
            if found is not None:
                return found
        return None
    return value, _kind(value)


def check_real(parameter: str, value: Any, *, arrays: bool = True) -> None:
    """Refuse a parameter value that is not a real number (or, with ``arrays``, an array-like
    of real numbers: list, tuple, numpy array).

    Strings (even ``"10"``), booleans, ``None``, complex numbers and other objects are refused
    instead of being converted by ``float()`` or numpy (``True`` → 1, ``None`` → nan). Real
    sympy numbers (``Integer``, ``Rational``, ``pi``) are accepted.

    Raises
    ------
    ParameterError
        Naming ``parameter``, the value passed and the rule.

    Examples
    --------
    >>> check_real("L", 10.0)
    >>> check_real("L", "10")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fedtheory.errors.ParameterError: L='10': must be a real number ... or an array ..., got str
    """
    if arrays:
        found = _first_non_real(value)
    else:
        found = None if _is_real_number(value) else (value, _kind(value))
    if found is None:
        return
    item, kind = found
    what = "a real number (int, float or numpy number)"
    if arrays:
        what += " or an array of real numbers"
    got = kind if item is value else f"{_kind(value)} containing {kind} {item!r}"
    raise ParameterError(parameter=parameter, value=value, rule=f"must be {what}, got {got}")


def check_domain(name: str, array: np.ndarray, symbol: sp.Symbol) -> None:
    """Raise ParameterError when values are not finite or violate the symbol's assumptions
    (positive, nonnegative, negative, integer)."""
    flat = np.atleast_1d(array).ravel()
    if not np.all(np.isfinite(flat)):
        bad = flat[~np.isfinite(flat)][0]
        raise ParameterError(parameter=name, value=float(bad), rule="must be finite")
    checks = []
    if symbol.is_positive:
        checks.append((flat > 0, "must be positive"))
    elif symbol.is_nonnegative:
        checks.append((flat >= 0, "must be nonnegative"))
    elif symbol.is_negative:
        checks.append((flat < 0, "must be negative"))
    if symbol.is_integer:
        checks.append((flat == np.round(flat), "must be an integer"))
    for ok, rule in checks:
        if not ok.all():
            value = flat[~ok][0]
            shown = int(value) if float(value).is_integer() else float(value)
            raise ParameterError(parameter=name, value=shown, rule=rule)


def real_array(
    parameter: str, value: Any, symbol: sp.Symbol, *, sequence: bool = False
) -> np.ndarray:
    """A parameter value as a float array, validated: real numbers only (:func:`check_real`),
    finite and in the domain of ``symbol`` (:func:`check_domain`); with ``sequence``, a
    non-empty 1-D array.

    This is where every value passed to :meth:`Bound.evaluate` (and its logarithms) and every
    sequence passed to the analysis is converted.

    Raises
    ------
    ParameterError
        Naming ``parameter``, the value passed and the rule it breaks.
    """
    check_real(parameter, value)
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter=parameter, value=value, rule="must be a number or an array of numbers"
        ) from None
    if sequence and (array.ndim != 1 or array.size == 0):
        raise ParameterError(
            parameter=parameter, value=value, rule="is a sequence: pass a non-empty 1-D array"
        )
    check_domain(parameter, array, symbol)
    return array


def exact_number(value: Any, parameter: str = "value", symbol: sp.Symbol | None = None) -> sp.Expr:
    """A number as an exact sympy number (floats via their shortest repr: 0.1 → 1/10).

    sympy expressions are returned unchanged (they may contain symbols).

    Parameters
    ----------
    value
        A real number (see :func:`check_real`) or a sympy expression.
    parameter
        Name shown in error messages.
    symbol
        When given, a number must also be finite and lie in the symbol's domain
        (:func:`check_domain`).

    Raises
    ------
    ParameterError
        If ``value`` is not a real number or a sympy expression (strings, booleans, ``None``,
        arrays are refused), or is outside the domain of ``symbol``.

    Examples
    --------
    >>> exact_number(0.1), exact_number(3.0), exact_number(2)
    (1/10, 3, 2)
    """
    if isinstance(value, sp.Expr) and not _is_real_number(value):
        return value
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Expr):
        raise ParameterError(
            parameter=parameter, value=value, rule="must be a number or a sympy expression"
        )
    check_real(parameter, value, arrays=False)
    if symbol is not None:
        if isinstance(value, (int, np.integer, sp.Integer)) and abs(int(value)) > 2**1000:
            # finite, integral, of known sign: its float would overflow, a stand-in does not
            probe = 1e300 if value > 0 else -1e300
        else:
            probe = float(value)
        check_domain(parameter, np.asarray(probe), symbol)
    if isinstance(value, sp.Expr):
        return value
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    number = float(value)
    if not np.isfinite(number):
        raise ParameterError(parameter=parameter, value=number, rule="must be finite")
    if number.is_integer():
        return sp.Integer(int(number))
    return sp.Rational(repr(number))


def lambdify_form(args: Sequence[Any], expr: sp.Basic) -> tuple[sp.Basic, list[sp.Basic]]:
    """``expr`` as :func:`lambdify` compiles it: each argument replaced by its placeholder.

    Returns the rewritten expression and the placeholder of each argument (in ``args``
    order): a Symbol ``Dummy_<n>`` in an expression, a Dummy of that name in a relation. The
    order in which code printers write the factors of a product depends on these names, and
    with it the rounding (and overflow) of float64 arithmetic: a printer that must compute
    what ``lambdify``'s code computes (the explorer's JavaScript) prints this form.
    """
    placeholders: dict[Any, sp.Basic] = {}
    # the order in which lambdify's preprocessing numbers its placeholders
    numbered = reversed(list(sp.ordered(zip(args, range(len(args)), strict=True))))
    for rank, (arg, _) in enumerate(numbered):
        name = f"Dummy_{rank:04d}"
        if isinstance(expr, sp.Expr):
            # in an expression lambdify replaces the argument by a Symbol named like its Dummy
            placeholders[arg] = uniquely_named_symbol(name, expr, modify=lambda s: "_" + s)
        else:
            # in a relation by the Dummy itself, which the code printers write "_Dummy_<n>"
            placeholders[arg] = sp.Dummy(name)
        expr = expr.xreplace({arg: placeholders[arg]})
    return expr, [placeholders[a] for a in args]


def lambdify(args: Sequence[Any], expr: sp.Basic, modules: list[Any]) -> Any:
    """``sympy.lambdify(args, expr, modules=modules, dummify=True)``, alike in every process.

    With ``dummify=True`` sympy replaces each argument by a placeholder named ``Dummy_<n>``,
    where n counts every Dummy created so far in the process, and prints the factors of a
    product in the *string* order of those names. The order, and so the last bits of the
    value, then depended on the process's history: a bound compiled while the count crossed
    a power of ten ("Dummy_999" sorts after "Dummy_1000") multiplied its factors in another
    order than in a fresh process. Here the placeholders are made as lambdify makes them, in
    the same sequence, but named ``Dummy_0000``, ``Dummy_0001``, ... (:func:`lambdify_form`):
    one width, so their order is that of a fresh process, and the generated code is the one a
    fresh process compiles.

    Parameters
    ----------
    args
        The arguments, symbols or indexed bases, in call order.
    expr
        The expression or relation to compile (prepared by :func:`prepare_for_lambdify`).
    modules
        As for :func:`sympy.lambdify`.
    """
    form, placeholders = lambdify_form(args, expr)
    # a Dummy placeholder (in a relation) is printed "_Dummy_<n>": the parameter is a Symbol
    # of that name (a Dummy argument would be renamed again)
    parameters = [sp.Symbol("_" + p.name) if isinstance(p, sp.Dummy) else p for p in placeholders]
    return sp.lambdify(parameters, form, modules=modules, dummify=False)
