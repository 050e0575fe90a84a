"""Where two bounds are equal: :func:`crossover` and its :class:`Crossover` items.

All points where two bounds are equal in one variable on the variable's domain, found per
regime: breakpoints of every Min/Max/Piecewise split the domain into intervals where both
bounds are smooth expressions; in each interval the equation is solved symbolically (sympy)
and, where that fails, numerically (sign changes on a fine logarithmic grid refined by bisection
in mpmath; a tangential touching point without a sign change is not found by the numeric path).

Like :mod:`._analysis`, it reads the bound through :class:`~._analysis_common.BoundLike` only.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import mpmath
import numpy as np
import sympy as sp

from fedtheory.bounds._analysis_common import (
    _BRANCHING,
    _DPS,
    _NONSMOOTH,
    BoundLike,
    _continuous,
    _mp_function,
    _simplified,
    _substituted,
    _sympy,
)
from fedtheory.errors import ParameterError

__all__ = ["Crossover", "crossover"]


@dataclass(frozen=True)
class Crossover:
    """A point (or an interval) where two bounds are equal: an item of :meth:`Bound.crossover`.

    Not to be confused with the criterion :class:`fedtheory.verify.Crossing`, which locates where
    two *measured* curves cross.

    Attributes
    ----------
    var : str
        The variable.
    value : float or None
        Location (``None`` when the location depends on symbols left free).
    exact : sympy expression or None
        Closed form when sympy found one.
    method : {"symbolic", "numeric"}
        How the point was found.
    lower_before, lower_after : str or None
        Id of the smaller bound just below and just above the crossing (``None`` if unknown).
    within_hypotheses : bool or None
        Whether the hypotheses of both bounds hold at the crossing.
    until : float or None
        For ``kind == "coincide"``: the end of the interval on which the bounds are identical.
    kind : {"crossing", "coincide"}
        A single point, or an interval ``[value, until]`` on which the bounds are equal.
    """

    var: str
    value: float | None
    exact: sp.Expr | None
    method: Literal["symbolic", "numeric"]
    lower_before: str | None = None
    lower_after: str | None = None
    within_hypotheses: bool | None = None
    until: float | None = None
    kind: Literal["crossing", "coincide"] = "crossing"

    def __float__(self) -> float:
        if self.value is None:
            raise TypeError(f"crossing in {self.var} depends on free symbols: {self.exact}")
        return self.value

    def __str__(self) -> str:
        if self.kind == "coincide":
            return f"bounds coincide for {self.var} in [{self.value:.6g}, {self.until:.6g}]"
        location = (
            f"{self.var} = {sp.sstr(self.exact)}"
            if self.exact is not None
            else f"{self.var} ≈ {self.value:.6g}"
        )
        if self.exact is not None and self.value is not None:
            location += f" ≈ {self.value:.6g}"
        if self.lower_before and self.lower_after:
            location += f" ({self.lower_before} is lower before, {self.lower_after} after)"
        return location


def _branch_boundaries(expr: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Equations (as expressions = 0) whose roots are where a Min/Max/Piecewise switches."""
    equations: list[sp.Expr] = []
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (sp.Min, sp.Max)) and node.has(x):
            args = node.args
            equations.extend(
                args[i] - args[j] for i in range(len(args)) for j in range(i + 1, len(args))
            )
        elif isinstance(node, sp.Piecewise) and node.has(x):
            for _, condition in node.args:
                for relation in condition.atoms(sp.core.relational.Relational):
                    equations.append(relation.lhs - relation.rhs)
    return equations


def _resolve_at(expr: sp.Expr, x: sp.Symbol, point: Any) -> sp.Expr:
    """Replace every Min/Max/Piecewise by the branch in force at ``x = point`` (numeric)."""
    if not expr.has(x) or not expr.has(*_BRANCHING):
        return expr
    if isinstance(expr, (sp.Min, sp.Max)):
        args = [_resolve_at(a, x, point) for a in expr.args]
        values = [_mp_function(a, x)(point) for a in args]
        pick = min if isinstance(expr, sp.Min) else max
        return args[values.index(pick(values))]
    if isinstance(expr, sp.Piecewise):
        for branch, condition in expr.args:
            truth = condition.subs(x, sp.Float(str(point), _DPS))
            if bool(truth):
                return _resolve_at(branch, x, point)
        raise ParameterError(f"no branch of {expr} applies at {x}={point}")
    return expr.func(*[_resolve_at(a, x, point) for a in expr.args])


def _with_other_branches(solutions: list[sp.Expr]) -> list[sp.Expr]:
    """Add the W₋₁ branch for every principal-branch LambertW in a solution (sympy's ``solve``
    returns only the principal branch, losing the second root of x·e^x = c for c < 0)."""
    extended = list(solutions)
    for solution in solutions:
        for w in solution.atoms(sp.LambertW):
            if len(w.args) == 1:
                extended.append(solution.xreplace({w: sp.LambertW(w.args[0], -1)}))
    return extended


def _scan_grid(lo: Any, hi: Any, scale: float, count: int = 4000) -> list[Any]:
    """Grid for the numeric root search: logarithmic on each side of 0, within ±1e±15·scale."""
    low_abs, high_abs = mpmath.mpf(1e-15 * scale), mpmath.mpf(1e15 * scale)
    ratios = [(high_abs / low_abs) ** (mpmath.mpf(k) / count) for k in range(count + 1)]
    positive = [low_abs * r for r in ratios]
    grid = positive if lo >= 0 else [-v for v in reversed(positive)] + [mpmath.mpf(0)] + positive
    return [g for g in grid if lo < g < hi]


def _real_roots(
    h: sp.Expr, x: sp.Symbol, lo: Any, hi: Any, scale: float
) -> list[tuple[float, sp.Expr | None, str]]:
    """Roots of h in the open interval (lo, hi).

    Closed forms from sympy (with the other branches of LambertW) are kept when they are real, in
    the interval and verified numerically; a sign-change scan in arbitrary precision then adds any
    root sympy missed, so an empty or partial symbolic answer never hides a crossing.
    """
    roots: list[tuple[float, sp.Expr | None, str]] = []
    function = _mp_function(h, x)
    if not any(node.has(x) for node in h.atoms(*_NONSMOOTH)):
        try:
            solutions = _sympy(sp.solve, sp.Eq(h, 0), x, dict=False)
            if isinstance(solutions, list):
                for s in _with_other_branches([s for s in solutions if isinstance(s, sp.Expr)]):
                    value = complex(sp.N(s, 30))
                    if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
                        continue
                    if not lo < value.real < hi:
                        continue
                    with mpmath.workdps(_DPS):
                        residual = function(mpmath.mpf(value.real))
                    if mpmath.isnan(residual):
                        continue
                    roots.append((value.real, _simplified(s), "symbolic"))
        except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
            pass
    with mpmath.workdps(_DPS):
        grid = _scan_grid(lo, hi, scale)
        signs = [function(g) for g in grid]
        for (left, right), (f_left, f_right) in zip(
            itertools.pairwise(grid), itertools.pairwise(signs), strict=True
        ):
            if mpmath.isnan(f_left) or mpmath.isnan(f_right):
                continue
            if f_left == 0:
                root = left
            elif f_left * f_right < 0:
                try:
                    root = mpmath.findroot(function, (left, right), solver="anderson")
                except (ValueError, ZeroDivisionError):  # no convergence: bisect the bracket
                    root = _bisected_root(function, left, right, f_left, f_right)
                    if root is None:
                        continue  # a jump (ceiling/floor) or a pole changes the sign, no root
            else:
                continue
            value = float(root)
            if not any(abs(value - r[0]) <= 1e-9 * max(abs(value), 1e-300) for r in roots):
                roots.append((value, None, "numeric"))
    return sorted(roots, key=lambda r: r[0])


def _bisected_root(function: Any, left: Any, right: Any, f_left: Any, f_right: Any) -> Any:
    """Bisection of a bracket on whose ends ``function`` has opposite signs.

    Returns the root, or ``None`` when the sign change is not a root: a jump (a ceiling or
    floor in the variable) or a pole, where the values at the ends of the shrinking bracket
    do not shrink with it.
    """
    low, high, f_low = mpmath.mpf(left), mpmath.mpf(right), f_left
    f_high = f_right
    for _ in range(4 * mpmath.mp.prec):
        middle = (low + high) / 2
        if not low < middle < high:
            break
        f_middle = function(middle)
        if mpmath.isnan(f_middle):
            return None
        if f_middle == 0:
            return middle
        if f_low * f_middle < 0:
            high, f_high = middle, f_middle
        else:
            low, f_low = middle, f_middle
    scale = max(abs(f_left), abs(f_right))
    if min(abs(f_low), abs(f_high)) > mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)) * scale:
        return None
    return low if abs(f_low) <= abs(f_high) else high


def crossover(first: BoundLike, second: BoundLike, var: str, **fixed: Any) -> list[Crossover]:
    """All points where ``first`` and ``second`` are equal as functions of ``var``.

    Parameters
    ----------
    first, second
        The bounds. ``var`` must be a symbol of at least one of them.
    var
        The variable.
    **fixed
        Values of the other symbols. Symbols not given stay symbolic: the answer is then a
        closed form in them (possible only without Min/Max/Piecewise in ``var``).

    Returns
    -------
    list of Crossover
        Sorted by location; empty when the bounds never meet on the domain of ``var``.

    Raises
    ------
    ParameterError
        Unknown names, ``var`` absent from both bounds, or regimes that cannot be resolved with
        symbols left free.
    """
    info = {**second.info, **first.info}
    if var not in info:
        raise ParameterError(
            f"{var!r} is a symbol of neither {first.id} nor {second.id} "
            f"(symbols: {', '.join(sorted(info))})"
        )
    for name in fixed:
        if name not in info:
            raise ParameterError(
                f"{name!r} is a symbol of neither {first.id} nor {second.id} "
                f"(symbols: {', '.join(sorted(info))})"
            )
    original = info[var].symbol
    x = _continuous(original)
    exprs = []
    for bound in (first, second):
        own = {k: v for k, v in fixed.items() if k in bound.info}
        expr, _ = _substituted(
            bound, var if var in bound.info else None, own, (), example_defaults=False
        )
        exprs.append(expr.xreplace({original: x}))
    f, g = exprs
    # an unknown constant that multiplies both sides (the C of two order bounds) cancels out
    for constant in set(first.constants) & set(second.constants):
        c = info[constant].symbol
        if c in f.free_symbols and all(c not in _simplified(e / c).free_symbols for e in (f, g)):
            f, g = _simplified(f / c), _simplified(g / c)
    free = (f.free_symbols | g.free_symbols) - {x}
    if free:
        return _symbolic_crossover(first, second, var, x, f, g, free)
    lo = sp.Integer(0) if (x.is_nonnegative or x.is_positive) else -sp.oo
    scale = float(first.example.get(var, second.example.get(var, 1)) or 1)
    boundaries: list[float] = []
    for equation in _branch_boundaries(f, x) + _branch_boundaries(g, x):
        boundaries.extend(r[0] for r in _real_roots(equation, x, lo, sp.oo, scale))
    edges = sorted({b for b in boundaries if b > lo})
    cuts = [float(lo), *edges, float("inf")]
    results: list[Crossover] = []
    for left, right in itertools.pairwise(cuts):
        probe = _interior(left, right)
        f_piece = _resolve_at(f, x, probe)
        g_piece = _resolve_at(g, x, probe)
        difference = f_piece - g_piece
        if _simplified(difference) == 0:
            results.append(Crossover(var, left, None, "symbolic", kind="coincide", until=right))
            continue
        for value, exact, method in _real_roots(difference, x, left, right, scale):
            results.append(_annotate(first, second, var, x, f, g, value, exact, method, fixed))
    coincide_ends = {c.value for c in results if c.kind == "coincide"} | {
        c.until for c in results if c.kind == "coincide"
    }
    for edge in edges:  # a crossing exactly at a regime boundary
        if edge in coincide_ends:
            continue
        if abs(_mp_function(f - g, x)(mpmath.mpf(edge))) <= 1e-12 * abs(
            _mp_function(f, x)(mpmath.mpf(edge))
        ) and not any(
            c.value is not None and abs(c.value - edge) <= 1e-9 * abs(edge) for c in results
        ):
            results.append(_annotate(first, second, var, x, f, g, edge, None, "numeric", fixed))
    return sorted(results, key=lambda c: c.value if c.value is not None else 0.0)


def _interior(left: float, right: float) -> mpmath.mpf:
    if np.isinf(right):
        return mpmath.mpf(max(2 * left, left + 1.0) if left >= 0 else 1.0)
    if left > 0:
        return mpmath.sqrt(mpmath.mpf(left) * mpmath.mpf(right))
    return (mpmath.mpf(left) + mpmath.mpf(right)) / 2


def _annotate(
    first: BoundLike,
    second: BoundLike,
    var: str,
    x: sp.Symbol,
    f: sp.Expr,
    g: sp.Expr,
    value: float,
    exact: sp.Expr | None,
    method: str,
    fixed: Mapping[str, Any],
) -> Crossover:
    f_mp, g_mp = _mp_function(f, x), _mp_function(g, x)
    step = mpmath.mpf("1e-6") * max(abs(mpmath.mpf(value)), mpmath.mpf("1e-12"))
    with mpmath.workdps(_DPS):
        before = mpmath.mpf(value) - step
        after = mpmath.mpf(value) + step
        lower_before = first.id if f_mp(before) < g_mp(before) else second.id
        lower_after = first.id if f_mp(after) < g_mp(after) else second.id
    within = True
    for bound in (first, second):
        point = {k: v for k, v in fixed.items() if k in bound.info}
        if var in bound.info:
            point[var] = value
        values = {**{k: bound.example[k] for k in bound.parameters if k not in point}, **point}
        arrays = {k: np.asarray(v, dtype=float) for k, v in values.items()}
        try:  # hypotheses only: a crossing at a non-integer count is still reported
            bound._check_hypotheses(arrays, ())
        except (ParameterError, ValueError):
            within = False
    return Crossover(
        var,
        float(value),
        exact,
        method,  # type: ignore[arg-type]
        lower_before=lower_before,
        lower_after=lower_after,
        within_hypotheses=within,
    )


def _symbolic_crossover(
    first: BoundLike,
    second: BoundLike,
    var: str,
    x: sp.Symbol,
    f: sp.Expr,
    g: sp.Expr,
    free: set[sp.Symbol],
) -> list[Crossover]:
    if f.has(*_BRANCHING) or g.has(*_BRANCHING):
        names = ", ".join(sorted(str(s) for s in free))
        raise ParameterError(
            f"the regimes (Min/Max/Piecewise) of {first.id} and {second.id} depend on "
            f"{names}; give values for them to locate the crossings"
        )
    refusal = (
        f"sympy finds no closed form for {first.id} = {second.id} in {var}; give values for "
        f"{', '.join(sorted(str(s) for s in free))} for a numeric search"
    )
    constants = sorted({str(s) for s in free} & (set(first.constants) | set(second.constants)))
    if constants:
        refusal += (
            f" ({', '.join(constants)}: the unknown constant of an order bound; "
            f"{', '.join(f'{c}=1' for c in constants)} compares the bounds at constant 1)"
        )
    try:
        solutions = _sympy(sp.solve, sp.Eq(f, g), x, dict=False)
    except NotImplementedError:
        raise ParameterError(refusal) from None
    if not solutions:  # an empty answer from solve is not a proof that no crossing exists
        raise ParameterError(refusal)
    results = []
    roots = [_simplified(s) for s in _with_other_branches(solutions)]
    for s in roots:
        if s.is_real is False:
            continue
        if (x.is_positive or x.is_nonnegative) and s.is_nonpositive and not s.is_zero:
            continue  # outside the domain of var (a nonpositive root that is not identically 0)
        if (
            (x.is_positive or x.is_nonnegative)
            and s.could_extract_minus_sign()
            and any(_simplified(s + r) == 0 for r in roots)
        ):
            continue  # of a pair ±r for a nonnegative variable, only +r can be in the domain
        results.append(Crossover(var, None, s, "symbolic"))
    return results
