"""Low-level helpers on sympy expressions shared by the Bound core and its analysis.

:mod:`fedtheory.bounds._bound` (evaluation, substitution) and :mod:`fedtheory.bounds._analysis`
(exponents, crossovers) both turn user values into exact sympy numbers and compile expressions
with ``lambdify``; the pieces they share live here, below both, so that neither imports the
other's internals:

- :func:`exact_number`: a number as an exact sympy number (``0.1`` → ``1/10``);
- :func:`prepare_for_lambdify` with the namespaces :data:`NUMPY_NAMESPACE` and
  :data:`MPMATH_NAMESPACE`: ``Min``/``Max`` that broadcast under numpy and work under mpmath;
- :func:`lambdify`: ``sympy.lambdify`` with placeholders whose names do not depend on the
  process's history, so that a bound compiles to the same code, and gives the same bits,
  in every process (DESIGN §4).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.symbol import uniquely_named_symbol

from fedtheory.errors import ParameterError

__all__ = [
    "MPMATH_NAMESPACE",
    "NUMPY_NAMESPACE",
    "exact_number",
    "lambdify",
    "prepare_for_lambdify",
]

# Min/Max are rewritten into these undefined functions before lambdify so that they broadcast
# (sympy's numpy printer emits numpy.amin((a, b), axis=0), which fails for mixed shapes).
_FMIN = sp.Function("fedtheory_min")
_FMAX = sp.Function("fedtheory_max")


def _np_min(*args: Any) -> Any:
    return functools.reduce(np.minimum, args)


def _np_max(*args: Any) -> Any:
    return functools.reduce(np.maximum, args)


#: ``lambdify`` namespace (put before ``"numpy"``) giving the broadcasting Min/Max.
NUMPY_NAMESPACE: dict[str, Any] = {"fedtheory_min": _np_min, "fedtheory_max": _np_max}
#: ``lambdify`` namespace (put before ``"mpmath"``) giving Min/Max on mpmath numbers.
MPMATH_NAMESPACE: dict[str, Any] = {
    "fedtheory_min": lambda *a: min(a),
    "fedtheory_max": lambda *a: max(a),
}


def prepare_for_lambdify(expr: sp.Basic) -> sp.Basic:
    """``expr`` with every ``Min``/``Max`` replaced by the functions of the namespaces above."""
    return expr.replace(sp.Min, _FMIN).replace(sp.Max, _FMAX)


def exact_number(value: Any) -> sp.Expr:
    """A number as an exact sympy number (floats via their shortest repr: 0.1 → 1/10).

    sympy objects are returned unchanged.

    Raises
    ------
    ParameterError
        If ``value`` is a boolean or not a number.

    Examples
    --------
    >>> exact_number(0.1), exact_number(3.0), exact_number(2)
    (1/10, 3, 2)
    """
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise ParameterError(parameter="value", value=value, rule="must be a number")
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter="value", value=value, rule="must be a number or a sympy expression"
        ) from None
    if number.is_integer():
        return sp.Integer(int(number))
    return sp.Rational(repr(number))


def lambdify(args: Sequence[Any], expr: sp.Basic, modules: list[Any]) -> Any:
    """``sympy.lambdify(args, expr, modules=modules, dummify=True)``, alike in every process.

    With ``dummify=True`` sympy replaces each argument by a placeholder named ``Dummy_<n>``,
    where n counts every Dummy created so far in the process, and prints the factors of a
    product in the *string* order of those names. The order, and so the last bits of the
    value, then depended on the process's history: a bound compiled while the count crossed
    a power of ten ("Dummy_999" sorts after "Dummy_1000") multiplied its factors in another
    order than in a fresh process. Here the placeholders are made as lambdify makes them, in
    the same sequence, but named ``Dummy_0000``, ``Dummy_0001``, ...: one width, so their order
    is that of a fresh process, and the generated code is the one a fresh process compiles.

    Parameters
    ----------
    args
        The arguments, symbols or indexed bases, in call order.
    expr
        The expression or relation to compile (prepared by :func:`prepare_for_lambdify`).
    modules
        As for :func:`sympy.lambdify`.
    """
    placeholders: dict[Any, sp.Basic] = {}
    parameters: dict[Any, sp.Symbol] = {}
    # the order in which lambdify's preprocessing numbers its placeholders
    numbered = reversed(list(sp.ordered(zip(args, range(len(args)), strict=True))))
    for rank, (arg, _) in enumerate(numbered):
        name = f"Dummy_{rank:04d}"
        if isinstance(expr, sp.Expr):
            # in an expression lambdify replaces the argument by a Symbol named like its Dummy
            symbol = uniquely_named_symbol(name, expr, modify=lambda s: "_" + s)
            placeholders[arg] = parameters[arg] = symbol
        else:
            # in a relation by the Dummy itself, which the code printers write "_Dummy_<n>";
            # the parameter is a Symbol of that name (a Dummy argument would be renamed again)
            placeholders[arg] = sp.Dummy(name)
            parameters[arg] = sp.Symbol("_" + name)
        expr = expr.xreplace(placeholders)
    return sp.lambdify([parameters[a] for a in args], expr, modules=modules, dummify=False)
