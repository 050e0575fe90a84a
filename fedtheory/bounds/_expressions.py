"""Low-level helpers on sympy expressions shared by the Bound core and its analysis.

:mod:`fedtheory.bounds._bound` (evaluation, substitution) and :mod:`fedtheory.bounds._analysis`
(exponents, crossovers) both turn user values into exact sympy numbers and compile expressions
with ``lambdify``; the pieces they share live here, below both, so that neither imports the
other's internals:

- :func:`exact_number`: a number as an exact sympy number (``0.1`` → ``1/10``);
- :func:`prepare_for_lambdify` with the namespaces :data:`NUMPY_NAMESPACE` and
  :data:`MPMATH_NAMESPACE`: ``Min``/``Max`` that broadcast under numpy and work under mpmath.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from fedtheory.errors import ParameterError

__all__ = ["MPMATH_NAMESPACE", "NUMPY_NAMESPACE", "exact_number", "prepare_for_lambdify"]

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
