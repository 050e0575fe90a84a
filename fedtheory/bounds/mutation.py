"""Mutants of a registered bound: plausible encoding bugs, planted one at a time.

Mutation analysis measures how much a claim catalog can catch: each mutant is the bound with one
small, plausible error — the kind a careful reader makes when typing a theorem in — and a
catalog that still passes with the mutant in the registry cannot tell the two formulas apart.
``fedtheory mutate`` (:mod:`fedtheory.verify.mutate`) runs the claims of each mutant; this module
only makes the mutants and plants them.

Operators (each applied at every place it fits, in a fixed order, so that a mutant id means the
same expression in every process):

``scale``
    The whole bound ×2 and ÷2 — an error in its overall constant.
``constant``
    One numeric constant ×2 and ÷2 (``8 → 16``, ``1/2 → 1/4``). The implicit ±1 of a sum or
    difference is not a printed constant (``scale`` and ``drop`` cover it); exponents, sum
    limits and sequence indices are left to the other operators or alone.
``exponent``
    One numeric exponent +½, −½, +1, −1 (``(m/N)^{1/2} → (m/N)^1``; ``1/n → 1/n²``).
``swap``
    Two symbols of the same kind (same role and domain, e.g. ``n ↔ N``, ``mu ↔ L``) exchanged
    everywhere in the expression.
``drop``
    One term of a sum, or one branch of a ``Min``/``Max``, dropped.

A mutant whose expression equals the bound's at the example point and at two other points (50
digits) is *equivalent* (e.g. swapping two symbols of a symmetric expression): no claim could
kill it, and the analysis reports it apart. So is a mutant of an order statement (kind
``order-upper``/``order-lower``) that is a constant multiple of it at four points where every
symbol moves by its own factor: O(f) and O(2f) are the same statement.
Duplicate expressions are made once. The mutants of a bound are made once per process and
expression (a worker remakes the one a task names from its id, and making every mutant of a large
bound takes seconds of sympy work).

>>> from fedtheory import bounds
>>> from fedtheory.bounds.mutation import mutants
>>> found = mutants(bounds.get("classic.gd.strongly-convex"))
>>> [m.operator for m in found][:3]
['scale', 'scale', 'exponent']
>>> found[0].id, found[0].label
('classic.gd.strongly-convex~1', 'whole bound ×2')
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import mpmath
import sympy as sp

from fedtheory.bounds._bound import Bound, get
from fedtheory.bounds._expressions import MPMATH_NAMESPACE, prepare_for_lambdify
from fedtheory.errors import ParameterError

__all__ = [
    "OPERATORS",
    "Mutant",
    "Operator",
    "active",
    "applied",
    "change_factors",
    "mutant_from_dict",
    "mutants",
    "reset_after_fork",
]

#: A mutation operator's name (:data:`OPERATORS` says what each does).
Operator = Literal["scale", "constant", "exponent", "swap", "drop"]
#: The mutation operators, in the order mutants are made.
OPERATORS: tuple[Operator, ...] = ("scale", "constant", "exponent", "swap", "drop")

_EXPONENT_STEPS = (sp.Rational(1, 2), sp.Rational(-1, 2), sp.Integer(1), sp.Integer(-1))
_EQUIVALENCE_DIGITS = 50
_EQUIVALENCE_TOLERANCE = mpmath.mpf(10) ** -40


@dataclass(frozen=True)
class Mutant:
    """One mutant of a registered bound.

    Attributes
    ----------
    id
        ``"<bound id>~<k>"``, ``k`` = 1, 2, ... in the order of :func:`mutants`.
    bound
        Id of the mutated bound.
    operator
        One of :data:`OPERATORS`.
    label
        What changed, in words: ``"exponent of m/N: 1/2 → 1"``.
    expr
        The mutated expression.
    equivalent
        The mutant equals the bound at every point tried (no claim can kill it).
    """

    id: str
    bound: str
    operator: Operator
    label: str
    expr: sp.Expr
    equivalent: bool = False

    @property
    def digest(self) -> str:
        """sha256 of the mutated expression (16 hex digits): part of every cache key of a run
        with this mutant, so a changed mutant never reuses another's results."""
        return hashlib.sha256(sp.srepr(self.expr).encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, str]:
        """Plain data for a task: the worker remakes the mutant from it."""
        return {"id": self.id, "bound": self.bound, "digest": self.digest}


def _text(expr: sp.Basic) -> str:
    return str(sp.sstr(expr))


def _replace_at(expr: sp.Basic, path: tuple[int, ...], new: sp.Basic) -> sp.Basic:
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = _replace_at(args[path[0]], path[1:], new)
    return expr.func(*args)


_Path = tuple[int, ...]


def _nodes(expr: sp.Basic, path: _Path = ()) -> Iterator[tuple[_Path, sp.Basic]]:
    """Pre-order walk with paths, skipping what no operator may touch: sequence indices and
    the limits of sums and products."""
    yield path, expr
    if isinstance(expr, sp.Indexed):
        return
    children = expr.args[:1] if isinstance(expr, (sp.Sum, sp.Product)) else expr.args
    for i, child in enumerate(children):
        yield from _nodes(child, (*path, i))


def _is_exponent(path: tuple[int, ...], root: sp.Basic) -> bool:
    """Whether the node at ``path`` is the exponent of a power."""
    if not path:
        return False
    parent = root
    for i in path[:-1]:
        parent = parent.args[i]
    return isinstance(parent, sp.Pow) and path[-1] == 1


def _candidates(bound: Bound) -> Iterator[tuple[Operator, str, sp.Expr]]:
    expr = bound.expr
    yield "scale", "whole bound ×2", 2 * expr
    yield "scale", "whole bound ÷2", expr / 2
    nodes = list(_nodes(expr))
    for path, node in nodes:
        if isinstance(node, sp.Number) and abs(node) != 1 and node != 0:
            if _is_exponent(path, expr):
                continue
            for factor, sign in ((2, "×2"), (sp.Rational(1, 2), "÷2")):
                new = node * factor
                yield (
                    "constant",
                    f"constant {_text(node)} {sign} (→ {_text(new)})",
                    _replace_at(expr, path, new),
                )
    for path, node in nodes:
        if isinstance(node, sp.Pow) and node.exp.is_Rational:
            for step in _EXPONENT_STEPS:
                new_exp = node.exp + step
                label = f"exponent of {_text(node.base)}: {_text(node.exp)} → {_text(new_exp)}"
                yield "exponent", label, _replace_at(expr, path, sp.Pow(node.base, new_exp))
    symbols = sorted(
        (s for s in expr.free_symbols if isinstance(s, sp.Symbol)), key=lambda s: s.name
    )
    info = bound.info
    for i, a in enumerate(symbols):
        for b in symbols[i + 1 :]:
            if a.name in info and b.name in info and _same_kind(info[a.name], info[b.name]):
                yield "swap", f"symbols {a.name} ↔ {b.name}", expr.xreplace({a: b, b: a})
    for path, node in nodes:
        if isinstance(node, (sp.Add, sp.Min, sp.Max)) and len(node.args) >= 2:
            what = "term" if isinstance(node, sp.Add) else f"branch of {node.func.__name__}"
            for i, arg in enumerate(node.args):
                rest = node.args[:i] + node.args[i + 1 :]
                yield (
                    "drop",
                    f"{what} {_text(arg)} dropped",
                    _replace_at(expr, path, node.func(*rest)),
                )


def _same_kind(a: Any, b: Any) -> bool:
    if a.role != "parameter" or b.role != "parameter":
        return False
    return all(
        getattr(a.symbol, f"is_{p}") == getattr(b.symbol, f"is_{p}")
        for p in ("integer", "positive", "nonnegative")
    )


def _probe_points(bound: Bound) -> list[dict[str, Any]]:
    """The example point and two others (scalars scaled by 1.37 and 0.73, kept in domain)."""
    points = []
    for factor in (1.0, 1.37, 0.73):
        point: dict[str, Any] = {}
        for name, value in bound.example.items():
            info = bound.info[name]
            if info.role == "sequence":
                point[name] = [mpmath.mpf(v) * mpmath.mpf(factor) for v in value]
            elif info.symbol.is_integer:
                point[name] = max(int(value), round(value * factor) + (factor != 1.0))
            else:
                point[name] = mpmath.mpf(value) * mpmath.mpf(factor)
        for name in bound.constants:
            point.setdefault(name, mpmath.mpf(1))
        points.append(point)
    return points


def _spread_points(bound: Bound) -> list[dict[str, Any]]:
    """Four points around the example with every symbol scaled by its own factor, so that a
    ratio of symbols (invariant under :func:`_probe_points`' common scaling) moves too."""
    points = []
    for power in (1, -1, 2, -2):
        point: dict[str, Any] = {}
        for j, (name, value) in enumerate(bound.example.items()):
            info = bound.info[name]
            factor = mpmath.mpf(1.13 + 0.19 * j) ** power
            if info.role == "sequence":
                point[name] = [mpmath.mpf(v) * factor for v in value]
            elif info.symbol.is_integer:
                point[name] = max(int(value), int(mpmath.ceil(value * factor)))
            else:
                point[name] = mpmath.mpf(value) * factor
        for name in bound.constants:
            point.setdefault(name, mpmath.mpf(1))
        points.append(point)
    return points


def _proportional(first: list[Any], second: list[Any]) -> bool:
    """Whether ``second`` is a constant multiple of ``first`` at every point (all finite)."""
    ratios = []
    for a, b in zip(first, second, strict=True):
        if a is None or b is None or a == 0 or not (mpmath.isfinite(a) and mpmath.isfinite(b)):
            return False
        ratios.append(b / a)
    return all(
        abs(r - ratios[0]) <= _EQUIVALENCE_TOLERANCE * max(abs(r), abs(ratios[0])) for r in ratios
    )


def _values(bound: Bound, expr: sp.Expr, points: list[dict[str, Any]]) -> list[Any]:
    args = [bound.info[n].symbol for n in bound.info]
    function = sp.lambdify(args, prepare_for_lambdify(expr), [MPMATH_NAMESPACE, "mpmath"])
    out = []
    with mpmath.workdps(_EQUIVALENCE_DIGITS):
        for point in points:
            try:
                out.append(mpmath.mpf(function(*(point.get(n, 1) for n in bound.info))))
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                out.append(None)
    return out


def _equal(first: list[Any], second: list[Any]) -> bool:
    for a, b in zip(first, second, strict=True):
        if a is None or b is None or not (mpmath.isfinite(a) and mpmath.isfinite(b)):
            return False
        if abs(a - b) > _EQUIVALENCE_TOLERANCE * max(abs(a), abs(b), 1):
            return False
    return True


def mutants(bound: Bound | str) -> list[Mutant]:
    """Every mutant of a bound (see the module docstring for the operators), in a fixed order.

    Parameters
    ----------
    bound
        A registered bound or its id.

    Returns
    -------
    list of Mutant
        Distinct expressions, none equal to the bound's expression; those that equal it in
        value at every probed point have ``equivalent=True``. They are made once per process
        for a bound and its current expression (a new list of the same :class:`Mutant`
        objects on later calls): :func:`mutant_from_dict`, which a worker calls for every task
        of a mutant's run, costs a lookup after the first.
    """
    if isinstance(bound, str):
        bound = get(bound)
    if not isinstance(bound, Bound):
        raise ParameterError(parameter="bound", value=bound, rule="must be a Bound or a bound id")
    key = sp.srepr(bound.expr)
    made = _MADE.setdefault(bound, {})
    if key not in made:
        made[key] = _make_mutants(bound)
    return list(made[key])


#: The mutants made in this process, per bound object and per expression (``srepr``) it had
#: then: a planted mutant replaces the expression of the registered object, and the mutants of
#: that expression are other ones. Symbols, example point and kind of a bound never change, so
#: they need not be in the key.
_MADE: weakref.WeakKeyDictionary[Bound, dict[str, tuple[Mutant, ...]]] = weakref.WeakKeyDictionary()


def _make_mutants(bound: Bound) -> tuple[Mutant, ...]:
    """The mutants of :func:`mutants`, made from the bound's current expression."""
    seen = {sp.srepr(bound.expr)}
    points = _probe_points(bound)
    original = _values(bound, bound.expr, points)
    # an order statement hides its constant: a mutant that only rescales it is the same
    # statement (judged through its rates, never through its value)
    order = bound.kind.startswith("order")
    spread = _spread_points(bound) if order else []
    original_spread = _values(bound, bound.expr, spread) if order else []
    out: list[Mutant] = []
    for operator, label, expr in _candidates(bound):
        key = sp.srepr(expr)
        if key in seen or expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            continue
        seen.add(key)
        equivalent = _equal(original, _values(bound, expr, points)) or (
            order and _proportional(original_spread, _values(bound, expr, spread))
        )
        out.append(
            Mutant(f"{bound.id}~{len(out) + 1}", bound.id, operator, label, expr, equivalent)
        )
    return tuple(out)


def change_factors(mutant: Mutant) -> list[float]:
    """mutant / bound at the bound's example point and the two other probe points (where both
    are finite and the bound is not 0): how much the mutant moves the bound."""
    bound = get(mutant.bound)
    points = _probe_points(bound)
    original = _values(bound, bound._expr, points)
    changed = _values(bound, mutant.expr, points)
    factors = []
    for a, b in zip(original, changed, strict=True):
        if a is None or b is None or a == 0 or not (mpmath.isfinite(a) and mpmath.isfinite(b)):
            continue
        factors.append(float(b / a))
    return factors


def mutant_from_dict(data: Mapping[str, Any]) -> Mutant:
    """The mutant a task names (``Mutant.to_dict``), remade from the registry.

    Raises
    ------
    ParameterError
        No such mutant, or its expression is not the one the run planned (another version of
        the bound or of this module).
    """
    bound_id = data.get("bound")
    found = {m.id: m for m in mutants(get(str(bound_id)))}
    mutant = found.get(str(data.get("id")))
    if mutant is None:
        raise ParameterError(parameter="mutant", value=data.get("id"), rule="no such mutant")
    if mutant.digest != data.get("digest"):
        raise ParameterError(
            parameter="mutant",
            value=data.get("id"),
            rule="is another expression in this process than in the run that planned it",
        )
    return mutant


_PLANTED = threading.RLock()
# the planted mutants, innermost last, with the expression each replaced
_ACTIVE: list[tuple[Mutant, sp.Expr]] = []


def active() -> Mutant | None:
    """The mutant planted in this process, if any."""
    return _ACTIVE[-1][0] if _ACTIVE else None


@contextlib.contextmanager
def applied(mutant: Mutant) -> Iterator[Mutant]:
    """Plant ``mutant`` in the registry for the duration of the block.

    The registered :class:`~fedtheory.bounds.Bound` object itself takes the mutated expression,
    so every holder of it — claim files, experiments, criteria, other threads — evaluates the
    mutant; the block holds a process-wide lock, so two mutants are never planted at once.
    Claim files loaded before the block keep what they computed at import: reload them inside
    (:mod:`fedtheory.verify.discovery` does, keyed on :func:`active`).
    """
    if not isinstance(mutant, Mutant):
        raise ParameterError(parameter="mutant", value=mutant, rule="must be a Mutant")
    bound = get(mutant.bound)
    with _PLANTED:
        _ACTIVE.append((mutant, bound._expr))
        bound._replace_expression(mutant.expr)
        try:
            yield mutant
        finally:
            _, original = _ACTIVE.pop()
            bound._replace_expression(original)


def reset_after_fork() -> None:
    """In a process forked while a mutant was planted: restore the registry and the lock.

    Worker pools call it first thing, so a worker forked during a mutant's run never computes
    an unmutated task with the mutant in place.
    """
    global _PLANTED
    while _ACTIVE:
        mutant, original = _ACTIVE.pop()
        get(mutant.bound)._replace_expression(original)
    _PLANTED = threading.RLock()
