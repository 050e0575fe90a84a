"""Dimensional analysis of bound expressions: the unit of every term, computed with sympy.

A bound on a physical quantity must have, term by term, the unit of that quantity. Assign a unit
to each symbol — a monomial in base-unit symbols such as ``F`` (the unit of a function value),
``L0`` (the unit of the loss) and ``X`` (the unit of the inputs) — and :func:`unit_of` computes
the unit of an expression by the rules of dimensional analysis:

- a number (``2``, ``EulerGamma``) is dimensionless; a symbol has the unit assigned to it;
- a product multiplies units, a power raises the unit to a numeric exponent (a symbolic exponent
  needs a dimensionless base);
- a sum, ``Min`` and ``Max`` need all their arguments in one unit, which is theirs;
- a function (``log``, ``exp``, ``polygamma``, ...) needs dimensionless arguments and is
  dimensionless;
- a ``Sum`` has the unit of its summand; its index and limits must be dimensionless.

:func:`audit_terms` applies this to the terms of a bound and reports, for each, its unit and
whether it is the unit of the bounded quantity (a term of another unit is a typo in a theorem:
guide ``shared/theory/ffgb.md`` §5 D4 finds one in Theorem 3.1 of ``ffgb``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import sympy as sp

from fedtheory.errors import ParameterError

__all__ = ["DimensionError", "TermUnit", "audit_terms", "unit_of"]


class DimensionError(ParameterError):
    """An expression is dimensionally inconsistent (a sum of different units, a function of a
    dimensional argument) or uses a symbol without a unit."""


@dataclass(frozen=True)
class TermUnit:
    """The unit of one term of a bound.

    Attributes
    ----------
    index : int
        Position of the term in the bound's sum, from 1.
    term : sympy.Expr
        The term.
    unit : sympy.Expr or None
        Its unit (a monomial in the base units); ``None`` when the term itself is inconsistent.
    expected : sympy.Expr
        The unit of the bounded quantity.
    problem : str
        Why the unit could not be computed (empty when it could).
    """

    index: int
    term: sp.Expr
    unit: sp.Expr | None
    expected: sp.Expr
    problem: str = ""

    @property
    def consistent(self) -> bool:
        """True when the term has the unit of the bounded quantity."""
        return self.unit is not None and sp.simplify(self.unit / self.expected) == 1

    def __str__(self) -> str:
        got = sp.sstr(self.unit) if self.unit is not None else f"inconsistent ({self.problem})"
        verdict = "ok" if self.consistent else f"expected {sp.sstr(self.expected)}"
        return f"term {self.index}: {sp.sstr(self.term)}  [{got}; {verdict}]"


def _same(first: sp.Expr, second: sp.Expr) -> bool:
    return bool(sp.simplify(first / second) == 1)


def unit_of(expr: sp.Basic, units: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    """The unit of ``expr`` given the unit of every symbol in it.

    Parameters
    ----------
    expr
        A sympy expression.
    units
        Unit (a monomial in base-unit symbols, ``1`` for dimensionless) of each free symbol.

    Raises
    ------
    DimensionError
        A symbol without a unit, a sum of terms of different units, a function of a dimensional
        argument, or a dimensional base raised to a symbolic power.

    Examples
    --------
    >>> F, L0 = sp.symbols("F L0", positive=True)
    >>> G, mu, K = sp.symbols("G mu K", positive=True)
    >>> unit_of(G**2 / (K * mu**2), {G: L0 / F, mu: L0 / F**2, K: sp.Integer(1)})
    F**2
    """
    if expr.is_number:
        return sp.Integer(1)
    if isinstance(expr, sp.Symbol):
        if expr not in units:
            raise DimensionError(parameter="symbol", value=str(expr), rule="has no unit assigned")
        return sp.sympify(units[expr])
    if isinstance(expr, sp.Mul):
        return sp.Mul(*(unit_of(a, units) for a in expr.args))
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if unit_of(exponent, units) != 1:
            raise DimensionError(f"the exponent of {expr} is not dimensionless")
        base_unit = unit_of(base, units)
        if base_unit == 1:
            return sp.Integer(1)
        if not exponent.is_number:
            raise DimensionError(f"{base} has unit {base_unit} but a symbolic exponent {exponent}")
        return base_unit**exponent
    if isinstance(expr, (sp.Add, sp.Min, sp.Max)):
        found = [unit_of(a, units) for a in expr.args]
        first = found[0]
        for arg, unit in zip(expr.args[1:], found[1:], strict=True):
            if not _same(unit, first):
                raise DimensionError(
                    f"{expr} adds {expr.args[0]} (unit {first}) and {arg} (unit {unit})"
                )
        return first
    if isinstance(expr, sp.Sum):
        local = dict(units)
        for limit in expr.limits:
            index, *ends = limit
            local[index] = sp.Integer(1)
            for end in ends:
                if unit_of(end, local) != 1:
                    raise DimensionError(f"the limit {end} of {expr} is not dimensionless")
        return unit_of(expr.function, local)
    if isinstance(expr, sp.Function):
        for arg in expr.args:
            if unit_of(arg, units) != 1:
                raise DimensionError(f"{expr.func} of the dimensional argument {arg}")
        return sp.Integer(1)
    raise DimensionError(f"cannot assign a unit to {expr} ({type(expr).__name__})")


def audit_terms(
    terms: Iterable[sp.Expr], units: Mapping[sp.Symbol, sp.Expr], expected: sp.Expr
) -> list[TermUnit]:
    """The unit of each term, compared with the unit ``expected`` of the bounded quantity.

    A term that is itself inconsistent is reported with ``unit=None`` and the reason.
    """
    report = []
    for index, term in enumerate(terms, start=1):
        try:
            report.append(TermUnit(index, term, unit_of(term, units), sp.sympify(expected)))
        except DimensionError as error:
            report.append(TermUnit(index, term, None, sp.sympify(expected), str(error)))
    return report
