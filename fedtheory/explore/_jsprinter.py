"""The code printer of the explorer: a bound's sympy expression (and hypotheses) as JavaScript.

Every formula the explorer page evaluates is generated here from the registered sympy objects;
none is written by hand. :class:`ExplorerPrinter` subclasses sympy's
:class:`~sympy.printing.jscode.JavascriptCodePrinter` where the page needs more than it gives:

- symbols are printed as the page's argument slots (``x[3]``), so that no name of a bound can
  collide with a JavaScript name;
- ``Rational`` and ``Integer`` keep the float64 value numpy uses: ``p/q`` (both parts exact
  in float64, so JavaScript's division rounds once, as Python's does), otherwise the float64
  nearest to the exact number as a literal;
- ``Piecewise`` is one nested conditional expression (``NaN`` where no branch applies, the
  value numpy gives);
- sympy's numeric constants other than π and e (Euler's γ, ...) are inlined as float64 literals;
- ``harmonic(n, s)``, ``factorial(x)`` and finite ``Sum``/``Product`` over an index call the
  page's runtime (``F.harmonic``, ``F.factorial``, ``F.sum``, ``F.product``: hand-written
  numerical primitives, like ``Math.log``; the formulas around them stay generated);
- what JavaScript cannot express here — an indexed sequence (an array input such as the
  measured errors ``e2[k]``), a function the printer does not know — raises
  :class:`~fedtheory.errors.ParameterError` naming the bound and the construct.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp
from sympy.printing.jscode import JavascriptCodePrinter
from sympy.printing.precedence import precedence

from fedtheory.errors import ParameterError

__all__ = ["ExplorerPrinter", "javascript_code"]

#: Largest integer every smaller one of which is a float64 number.
_EXACT_INTEGER = 2**53
#: Name of the page's runtime object in generated code.
RUNTIME = "F"


#: The functions :func:`~fedtheory.bounds._expressions.prepare_for_lambdify` puts in place of
#: Min, Max and harmonic (so that numpy broadcasts them), as JavaScript.
_PREPARED = {
    "fedtheory_min": "Math.min",
    "fedtheory_max": "Math.max",
    "fedtheory_harmonic": f"{RUNTIME}.harmonic",
}


def _cannot(bound_id: str, construct: str) -> ParameterError:
    return ParameterError(
        f"bound {bound_id!r} uses {construct}, which the explorer cannot express in JavaScript"
    )


def _float_literal(value: sp.Expr, bound_id: str, what: str) -> str:
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise _cannot(bound_id, f"the number {what}, which is not a finite float64")
    return repr(number)


class ExplorerPrinter(JavascriptCodePrinter):  # type: ignore[misc]
    """JavaScript printer for the explorer page (see the module docstring).

    Parameters
    ----------
    names
        The JavaScript text of each free symbol (``{mu: "x[2]"}``).
    bound_id
        Named in the error raised on a construct the printer cannot express.
    """

    def __init__(self, names: Mapping[sp.Symbol, str], bound_id: str) -> None:
        super().__init__({"strict": False, "human": False})
        self._names: dict[Any, str] = dict(names)
        self._bound_id: str = bound_id
        self._loop_names: dict[Any, str] = {}
        self._loops: int = 0

    # -------------------------------------------------------------- symbols and numbers
    def _print_Symbol(self, expr: sp.Symbol) -> str:
        name = self._loop_names.get(expr, self._names.get(expr))
        if name is not None:
            return name
        raise _cannot(self._bound_id, f"the symbol {expr.name!r} without a value on the page")

    def _print_Dummy(self, expr: sp.Dummy) -> str:
        return self._print_Symbol(expr)

    def _print_Integer(self, expr: sp.Integer) -> str:
        if abs(int(expr)) <= _EXACT_INTEGER:
            return str(int(expr))
        return _float_literal(expr, self._bound_id, str(expr))

    def _print_Rational(self, expr: sp.Rational) -> str:
        p, q = int(expr.p), int(expr.q)
        if abs(p) <= _EXACT_INTEGER and q <= _EXACT_INTEGER:
            return f"{p}/{q}"
        return _float_literal(expr, self._bound_id, str(expr))

    def _print_Float(self, expr: sp.Float) -> str:
        return _float_literal(expr, self._bound_id, str(expr))

    def _print_NumberSymbol(self, expr: sp.Expr) -> str:
        return _float_literal(expr.evalf(30), self._bound_id, str(expr))

    def _print_EulerGamma(self, expr: sp.Expr) -> str:
        return self._print_NumberSymbol(expr)

    def _print_Catalan(self, expr: sp.Expr) -> str:
        return self._print_NumberSymbol(expr)

    def _print_GoldenRatio(self, expr: sp.Expr) -> str:
        return self._print_NumberSymbol(expr)

    def _print_TribonacciConstant(self, expr: sp.Expr) -> str:
        return self._print_NumberSymbol(expr)

    def _print_ImaginaryUnit(self, expr: sp.Expr) -> str:
        raise _cannot(self._bound_id, "the imaginary unit (complex numbers)")

    # -------------------------------------------------------------- operators
    def _print_Pow(self, expr: sp.Pow) -> str:
        base, exponent = expr.base, expr.exp
        if exponent == sp.Rational(1, 2):
            return f"Math.sqrt({self._print(base)})"
        if exponent == -1:
            return f"1/{self.parenthesize(base, precedence(expr))}"
        return f"Math.pow({self._print(base)}, {self._print(exponent)})"

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:
        text = "NaN"
        for value, condition in reversed(expr.args):
            if condition == sp.true:
                text = f"({self._print(value)})"
            else:
                text = f"(({self._print(condition)}) ? ({self._print(value)}) : {text})"
        return text

    def _print_Relational(self, expr: sp.core.relational.Relational) -> str:
        operator = {"==": "===", "!=": "!=="}.get(expr.rel_op, expr.rel_op)
        return f"({self._print(expr.lhs)} {operator} {self._print(expr.rhs)})"

    def _print_And(self, expr: sp.And) -> str:
        return "(" + " && ".join(self._print(a) for a in expr.args) + ")"

    def _print_Or(self, expr: sp.Or) -> str:
        return "(" + " || ".join(self._print(a) for a in expr.args) + ")"

    def _print_Not(self, expr: sp.Not) -> str:
        return f"(!{self._print(expr.args[0])})"

    def _print_BooleanTrue(self, expr: Any) -> str:
        return "true"

    def _print_BooleanFalse(self, expr: Any) -> str:
        return "false"

    # -------------------------------------------------------------- special functions
    def _print_harmonic(self, expr: sp.harmonic) -> str:
        args = ", ".join(self._print(a) for a in expr.args)
        return f"{RUNTIME}.harmonic({args})"

    def _print_factorial(self, expr: sp.factorial) -> str:
        return f"{RUNTIME}.factorial({self._print(expr.args[0])})"

    def _loop(self, expr: sp.Sum | sp.Product, helper: str) -> str:
        indexed = sorted({str(i.base.label) for i in expr.atoms(sp.Indexed)})
        if indexed:
            what = "Sum" if isinstance(expr, sp.Sum) else "Product"
            raise _cannot(self._bound_id, f"{what} over a sequence ({', '.join(indexed)})")
        added: list[sp.Symbol] = []
        bounds: list[tuple[str, str, str]] = []
        # the last limit is the outermost loop; the ranges of inner ones may use outer indices
        for index, lower, upper in reversed(expr.limits):
            name = f"i{self._loops}_{index.name}"
            self._loops += 1
            bounds.append((name, self._print(lower), self._print(upper)))
            self._loop_names[index] = name
            added.append(index)
        text: str = self._print(expr.function)
        for name, lower, upper in reversed(bounds):
            text = f"{RUNTIME}.{helper}({lower}, {upper}, ({name}) => {text})"
        for index in added:
            del self._loop_names[index]
        return text

    def _print_Sum(self, expr: sp.Sum) -> str:
        return self._loop(expr, "sum")

    def _print_Product(self, expr: sp.Product) -> str:
        return self._loop(expr, "product")

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        raise _cannot(self._bound_id, f"the sequence {str(expr.base.label)!r} (an array input)")

    def _print_IndexedBase(self, expr: sp.IndexedBase) -> str:
        raise _cannot(self._bound_id, f"the sequence {str(expr.label)!r} (an array input)")

    def _print_not_supported(self, expr: Any) -> str:
        name = type(expr).__name__ if isinstance(expr, sp.Basic) else repr(expr)
        raise _cannot(self._bound_id, f"{name} ({sp.sstr(expr)})")

    def _print_Function(self, expr: Any) -> str:
        name = type(expr).__name__
        if name in _PREPARED:  # Min, Max and harmonic as prepared for lambdify
            args = ", ".join(self._print(a) for a in expr.args)
            return f"{_PREPARED[name]}({args})"
        if name not in self.known_functions:
            return self._print_not_supported(expr)
        text: str = super()._print_Function(expr)
        return text


def javascript_code(
    expr: sp.Basic, names: Mapping[sp.Symbol, str], *, bound_id: str = "expression"
) -> str:
    """One JavaScript expression computing ``expr`` (a sympy expression or relation).

    Parameters
    ----------
    expr
        The expression, or a relation (a hypothesis) which prints as a boolean expression.
    names
        JavaScript text for each free symbol, e.g. ``{mu: "x[0]"}``.
    bound_id
        The bound the expression belongs to, named in errors.

    Returns
    -------
    str
        The code, on one line. It calls ``Math`` and, for ``harmonic``, ``factorial``, ``Sum``
        and ``Product``, the page's runtime object ``F``.

    Raises
    ------
    ParameterError
        ``expr`` uses a construct the printer cannot express (a sequence, an unknown function,
        a complex number), or a symbol missing from ``names``; the message names ``bound_id``
        and the construct.

    Examples
    --------
    >>> import sympy as sp
    >>> mu, L, T = sp.symbols("mu L T", positive=True)
    >>> javascript_code((1 - mu / L) ** T, {mu: "x[0]", L: "x[1]", T: "x[2]"})
    'Math.pow(1 - x[0]/x[1], x[2])'
    >>> javascript_code(sp.Le(mu, L), {mu: "x[0]", L: "x[1]"})
    '(x[0] <= x[1])'
    """
    printer = ExplorerPrinter(names, bound_id)
    result = printer.doprint(expr)
    _, not_supported, code = result
    if not_supported:  # pragma: no cover - _print_not_supported raises first
        first = sorted(not_supported, key=str)[0]
        raise _cannot(bound_id, type(first).__name__)
    text: str = code
    return " ".join(line.strip() for line in text.splitlines())
