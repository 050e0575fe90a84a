"""The :class:`Bound`: a theorem as an object (DESIGN §2).

A bound is a sympy expression together with everything needed to use it honestly: the meaning and
domain of each symbol, the theorem's hypotheses, what kind of statement it is (upper, lower,
exact, or an order statement "≲" whose constant is unknown), where it was printed and whether it
is the printed, a corrected or a derived form, and an example point of valid parameter values.

Numerical evaluation is vectorised (``lambdify`` compiled once per bound and cached, to the same
code in every process), checks every hypothesis elementwise, and escapes to arbitrary precision
(mpmath) where float64 overflows, underflows, or cannot hold the exact value of an integer-valued
bound (a ceiling or floor at the top of the expression).
Asymptotic questions live in :mod:`fedtheory.bounds._analysis` (:meth:`Bound.exponent`) and
:mod:`fedtheory.bounds._crossover` (:meth:`Bound.crossover`).
"""

from __future__ import annotations

import difflib
import functools
import importlib
import importlib.abc
import importlib.machinery
import numbers
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import mpmath
import numpy as np
import sympy as sp

from fedtheory.bounds import _analysis, _crossover
from fedtheory.bounds._analysis import Exponent
from fedtheory.bounds._citation import BUILTIN_PAPERS, Citation, check_paper, declaring_file
from fedtheory.bounds._crossover import Crossover
from fedtheory.bounds._expressions import (
    MPMATH_NAMESPACE,
    NUMPY_NAMESPACE,
    check_real,
    exact_number,
    lambdify,
    prepare_for_lambdify,
    real_array,
)
from fedtheory.bounds._symbols import COMMON, Role, SymbolInfo, Vocabulary
from fedtheory.bounds._usage import not_recording, record
from fedtheory.errors import ConditionError, FloatRangeError, ParameterError, format_assignment

__all__ = [
    "KINDS",
    "STATUSES",
    "Bound",
    "Hypothesis",
    "Kind",
    "Status",
    "get",
    "ids",
    "iter_bounds",
    "register",
]

#: The kind of a bound: an upper or lower bound, an exact value, or an order statement (≲, up to
#: an unknown constant) from above or below.
Kind = Literal["upper", "lower", "exact", "order-upper", "order-lower"]
#: Whether a bound is as the paper prints it, a corrected form of a printed one, or derived.
Status = Literal["printed", "corrected", "derived"]
#: Every :data:`Kind`, in order.
KINDS: tuple[str, ...] = ("upper", "lower", "exact", "order-upper", "order-lower")
#: Every :data:`Status`, in order.
STATUSES: tuple[str, ...] = ("printed", "corrected", "derived")

#: Relation between the bounded quantity and the expression, by kind.
RELATION_TEXT = {
    "upper": "≤",
    "lower": "≥",
    "exact": "=",
    "order-upper": "≲",
    "order-lower": "≳",
}
RELATION_LATEX = {
    "upper": r"\leq",
    "lower": r"\geq",
    "exact": "=",
    "order-upper": r"\lesssim",
    "order-lower": r"\gtrsim",
}

ArrayLike = float | int | Sequence[float] | np.ndarray
_ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(\.[a-z0-9][a-z0-9_-]*)+$")
_RESERVED = frozenset({"check"})
#: Working precision (decimal digits) of the arbitrary-precision fallback.
MP_DPS = 50
#: Integer-valued bounds (a ceiling or floor at the top of the expression): float64 values from
#: this size on are recomputed exactly (float64 rounding error can move the ceiling there), as
#: are values whose argument lies within a relative distance :data:`NEAR_INTEGER` of an integer.
EXACT_INTEGER_FROM = 2.0**40
NEAR_INTEGER = 2.0**-40
#: Integers above this are not all float64 numbers: such values are returned as Python ints.
FLOAT_INTEGER_LIMIT = 2**53
#: Largest working precision (decimal digits) tried to decide a ceiling or floor.
MP_MAX_DPS = 2000


@dataclass(frozen=True)
class Hypothesis:
    """A hypothesis of a theorem: a sympy relation that must hold for the bound to apply.

    Parameters
    ----------
    relation
        A sympy relational (``n >= 4*beta/mu``) or a boolean combination of relationals.
    note
        Optional short explanation shown in error messages (``"stability needs enough samples"``).
    """

    relation: sp.Basic
    note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.relation, sp.Basic) or not isinstance(
            self.relation, (sp.core.relational.Relational, sp.logic.boolalg.Boolean)
        ):
            raise ParameterError(
                parameter="hypothesis",
                value=self.relation,
                rule="must be a sympy relation such as sp.Le(mu, L)",
            )
        if self.relation in (sp.true, sp.false):
            raise ParameterError(
                parameter="hypothesis",
                value=self.relation,
                rule="is constant (always true or always false); state it with symbols",
            )

    @property
    def names(self) -> list[str]:
        """Names of the symbols the hypothesis involves, sorted."""
        return sorted(str(s) for s in self.relation.free_symbols)

    def __str__(self) -> str:
        return _relation_text(self.relation)

    def latex(self, symbol_names: Mapping[sp.Basic, str] | None = None) -> str:
        """LaTeX of the relation."""
        text: str = sp.latex(self.relation, symbol_names=dict(symbol_names or {}))
        return text


def _relation_text(relation: sp.Basic) -> str:
    text: str = sp.sstr(relation)
    return text.replace(">=", "≥").replace("<=", "≤").replace("!=", "≠")


class Bound:
    """A theorem's bound: sympy expression, hypotheses, kind, status, citation, example.

    Parameters
    ----------
    id
        Registry identifier ``<paper>.<item>[.<detail>...]``, lowercase, e.g.
        ``"classic.gd.strongly-convex"``. The first component is a key of
        :data:`fedtheory.bounds.PAPERS`.
    expr
        The right-hand side, a sympy expression in the bound's symbols. Unknown constants of an
        order bound appear explicitly (``C*beta/(mu*n)``).
    kind
        ``"upper"`` (quantity ≤ expr), ``"lower"`` (≥), ``"exact"`` (=), ``"order-upper"`` (≲: up to
        an unknown constant, which must appear in ``expr`` as a symbol of role ``constant``) or
        ``"order-lower"`` (≳).
    source
        Where the statement is printed.
    quantity
        What is bounded, in plain text: ``"f(x_T) − f*"``.
    example
        A point of valid values for every parameter (not the unknown constants): used by the
        contract tests, ``fedtheory bounds show`` and as the default of unfixed symbols in
        :meth:`exponent`. Sequences are given as lists.
    hypotheses
        The theorem's hypotheses as sympy relations or :class:`Hypothesis`. Symbol domains
        (positivity, integrality) are assumptions of the symbols and are checked separately.
    status
        ``"printed"`` (as in the paper), ``"corrected"`` (an erratum fixed) or ``"derived"`` (a
        consequence worked out by us, e.g. explicit constants of an order statement).
    statement
        One or two sentences saying what the theorem states, in words.
    quantity_latex
        LaTeX of the bounded quantity.
    vocabulary
        Where meanings and LaTeX names of the symbols are looked up; :data:`COMMON` by default.
    meanings
        Per-bound meanings overriding (or adding to) the vocabulary, by symbol name.
    unjudged
        Why no claim judges this bound on data, when none does: ``"metadata: ..."``, ``"used
        only inside <id>"``, ... ``fedtheory catalog --coverage`` shows it, and the coverage
        test fails for a bound that no claim evaluates and that gives no reason (order
        statements have one by default), or that gives one while a claim does evaluate it.

    Attributes
    ----------
    origin
        The id of the registered bound this one comes from: its own id, or the id of the bound
        a :meth:`subs` result was made from (what :mod:`fedtheory.bounds._usage` records).

    Raises
    ------
    ParameterError
        On malformed ids, unknown kinds or statuses, symbols without meaning, reserved names,
        order bounds without a constant (or other bounds with one), or an incomplete example.

    Examples
    --------
    >>> import sympy as sp
    >>> from fedtheory.bounds import Bound, Citation
    >>> n = sp.Symbol("n", positive=True, integer=True)
    >>> b = Bound("classic.demo", 1 / n, kind="upper", quantity="error",
    ...           source=Citation("classic", "a demo"), example={"n": 10})
    >>> b.evaluate(n=4)
    0.25
    >>> b.exponent("n").power
    -1
    """

    def __init__(
        self,
        id: str,
        expr: sp.Expr,
        *,
        kind: Kind,
        source: Citation,
        quantity: str,
        example: Mapping[str, Any],
        hypotheses: Iterable[sp.Basic | Hypothesis] = (),
        status: Status = "printed",
        statement: str = "",
        quantity_latex: str | None = None,
        vocabulary: Vocabulary = COMMON,
        meanings: Mapping[str, str] | None = None,
        unjudged: str | None = None,
    ) -> None:
        if not isinstance(id, str) or not _ID_PATTERN.match(id):
            raise ParameterError(
                parameter="id",
                value=id,
                rule="must look like '<paper>.<item>[.<detail>]' (lowercase, digits, '-', '_')",
            )
        check_paper(id.split(".", 1)[0], parameter="id")
        if kind not in KINDS:
            raise ParameterError(parameter="kind", value=kind, rule=f"must be one of {KINDS}")
        if status not in STATUSES:
            raise ParameterError(
                parameter="status", value=status, rule=f"must be one of {STATUSES}"
            )
        if not isinstance(source, Citation):
            raise ParameterError(parameter="source", value=source, rule="must be a Citation")
        expr = sp.sympify(expr)
        if not isinstance(expr, sp.Expr):
            raise ParameterError(
                parameter="expr", value=expr, rule="must be a sympy expression (not a relation)"
            )
        if unjudged is not None and (not isinstance(unjudged, str) or not unjudged.strip()):
            raise ParameterError(
                parameter="unjudged", value=unjudged, rule="must be a non-empty reason (str)"
            )
        self.id = id
        self.origin = id
        self.unjudged = unjudged
        self._expr: sp.Expr = expr
        self.kind: Kind = kind
        self.status: Status = status
        self.source = source
        self.quantity = quantity
        self.quantity_latex = quantity_latex
        self.statement = statement
        self.hypotheses: tuple[Hypothesis, ...] = tuple(
            h if isinstance(h, Hypothesis) else Hypothesis(h) for h in hypotheses
        )
        self._vocabulary = vocabulary
        self._meanings = dict(meanings or {})
        self._infos = self._collect_symbols()
        self.example: dict[str, Any] = self._check_example(example)

    # ------------------------------------------------------------------ symbols
    def _collect_symbols(self) -> dict[str, SymbolInfo]:
        atoms: dict[str, Any] = {}
        for base in self.expr.atoms(sp.Indexed):
            atoms[str(base.base.label)] = base.base
        indexed_labels = {b.label for b in atoms.values()}
        for hyp in self.hypotheses:
            for base in hyp.relation.atoms(sp.Indexed):
                atoms[str(base.base.label)] = base.base
                indexed_labels.add(base.base.label)
        for sym in set(self.expr.free_symbols) | {
            s for h in self.hypotheses for s in h.relation.free_symbols
        }:
            if isinstance(sym, sp.Symbol) and sym not in indexed_labels:
                atoms[sym.name] = sym
        infos: dict[str, SymbolInfo] = {}
        for name in sorted(atoms, key=_natural_key):
            obj = atoms[name]
            if name in _RESERVED or not name.isidentifier():
                raise ParameterError(
                    parameter="symbol",
                    value=name,
                    rule="must be a Python identifier other than 'check'",
                )
            known = self._vocabulary.get(name)
            role: Role = "sequence" if isinstance(obj, sp.IndexedBase) else "parameter"
            if known is not None and known.symbol == obj:
                role = known.role
            elif known is not None and role == "parameter" and known.role == "constant":
                role = "constant"
            meaning = self._meanings.get(name) or (known.meaning if known else None)
            if meaning is None:
                raise ParameterError(
                    f"{self.id}: symbol {name!r} has no meaning; declare it in the vocabulary or "
                    f"pass meanings={{{name!r}: '...'}}"
                )
            latex = known.latex if known is not None else None
            infos[name] = SymbolInfo(name=name, symbol=obj, meaning=meaning, latex=latex, role=role)
        unused = set(self._meanings) - set(infos)
        if unused:
            raise ParameterError(
                f"{self.id}: meanings given for symbols not in the bound: {sorted(unused)}"
            )
        constants = [n for n, i in infos.items() if i.role == "constant"]
        if self.kind.startswith("order") and not constants:
            raise ParameterError(
                f"{self.id}: an order bound ({self.kind}) must keep its unknown constant explicit, "
                "e.g. C*beta/(mu*n) with C from the vocabulary"
            )
        if constants and not self.kind.startswith("order"):
            raise ParameterError(
                f"{self.id}: unknown constants {constants} only belong in order bounds; "
                f"kind is {self.kind!r}"
            )
        return infos

    @property
    def info(self) -> dict[str, SymbolInfo]:
        """Every symbol of the bound (parameters, constants, sequences) with its meaning."""
        return dict(self._infos)

    @property
    def symbols(self) -> dict[str, sp.Symbol]:
        """Scalar symbols (parameters and constants) by name."""
        return {n: i.symbol for n, i in self._infos.items() if i.role != "sequence"}

    @property
    def sequences(self) -> dict[str, sp.IndexedBase]:
        """Indexed symbols (given as 1-D arrays) by name."""
        return {n: i.symbol for n, i in self._infos.items() if i.role == "sequence"}

    @property
    def parameters(self) -> list[str]:
        """Names of the values a user supplies: scalar parameters and sequences (no constants)."""
        return [n for n, i in self._infos.items() if i.role != "constant"]

    @property
    def constants(self) -> list[str]:
        """Names of the unknown constants of an order bound (empty for other kinds)."""
        return [n for n, i in self._infos.items() if i.role == "constant"]

    @property
    def conditions(self) -> tuple[sp.Basic, ...]:
        """The hypotheses as bare sympy relations."""
        return tuple(h.relation for h in self.hypotheses)

    @property
    def paper(self) -> str:
        """Key of the paper the bound belongs to (first component of the id)."""
        return self.id.split(".", 1)[0]

    @property
    def unjudged_reason(self) -> str | None:
        """Why no claim judges this bound on data: the stated reason, or for an order
        statement (unknown constant) a default one; ``None`` when none is given."""
        if self.unjudged is not None:
            return self.unjudged
        if self.is_order:
            return "order statement: an unknown constant, judged only through its rates"
        return None

    @property
    def expr(self) -> sp.Expr:
        """The right-hand side (reading it counts as evaluating the bound, see
        :mod:`fedtheory.bounds._usage`)."""
        record(self.origin)
        return self._expr

    def _replace_expression(self, expr: sp.Expr) -> None:
        """Swap the expression in place (mutation analysis): every holder of this object —
        claim files, experiments, criteria — evaluates the new one. The symbols, hypotheses
        and example stay those of the theorem."""
        self._expr = expr
        for name, value in vars(Bound).items():  # every compiled form of the old expression
            if isinstance(value, functools.cached_property):
                self.__dict__.pop(name, None)

    @property
    def is_order(self) -> bool:
        """True for ≲ / ≳ statements, whose constant is unknown."""
        return self.kind.startswith("order")

    @property
    def relation(self) -> str:
        """The relation symbol between quantity and expression (≤, ≥, =, ≲, ≳)."""
        return RELATION_TEXT[self.kind]

    def meaning(self, name: str) -> str:
        """One-line meaning of symbol ``name``."""
        return self._info(name).meaning

    def _info(self, name: str) -> SymbolInfo:
        try:
            return self._infos[name]
        except (KeyError, TypeError):
            raise ParameterError(self._unknown_message(name)) from None

    def _unknown_message(self, name: str) -> str:
        if not isinstance(name, str):
            return (
                f"{self.id}: a parameter name must be a string, got {type(name).__name__} "
                f"{name!r} (parameters: {', '.join(self._infos) or 'none'})"
            )
        close = difflib.get_close_matches(name, list(self._infos), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        return (
            f"{self.id} has no parameter {name!r}{hint} "
            f"(parameters: {', '.join(self._infos) or 'none'})"
        )

    # ------------------------------------------------------------------ values
    def _check_example(self, example: Mapping[str, Any]) -> dict[str, Any]:
        example = dict(example)
        missing = [n for n in self.parameters if n not in example]
        if missing:
            raise ParameterError(f"{self.id}: example lacks values for {missing}")
        extra = [n for n in example if n not in self.parameters]
        if extra:
            raise ParameterError(
                f"{self.id}: example has values for {extra}, which are not parameters of the "
                "bound (unknown constants are never part of the example)"
            )
        for name in self.parameters:
            check_real(f"example[{name!r}]", example[name])
        return {
            n: (list(example[n]) if self._infos[n].role == "sequence" else example[n])
            for n in self.parameters
        }

    def _convert(
        self, values: Mapping[str, Any], *, require_constants: bool
    ) -> dict[str, np.ndarray]:
        """Validate names, presence, types, shapes and symbol domains; return float arrays.

        The one place where the values passed to :meth:`evaluate`, :meth:`log_evaluate` and
        :meth:`log10_evaluate` are converted (:func:`~._expressions.real_array`): strings,
        booleans, ``None`` and other objects that are not real numbers are refused here."""
        for name in values:
            if name not in self._infos:
                raise ParameterError(self._unknown_message(name))
        missing = [n for n in self.parameters if n not in values]
        if missing:
            raise ParameterError(
                f"{self.id}: missing value(s) for {', '.join(missing)} "
                f"({'; '.join(f'{n}: {self._infos[n].meaning}' for n in missing)})"
            )
        if require_constants:
            unset = [c for c in self.constants if c not in values]
            if unset:
                raise ParameterError(
                    f"{self.id} is an order bound ({self.relation}): its constant "
                    f"{', '.join(unset)} is unknown, so the bound has no value; pass "
                    f"{', '.join(f'{c}=...' for c in unset)} to evaluate it at a chosen constant, "
                    "or ask scaling questions (exponent, crossover)"
                )
        converted: dict[str, np.ndarray] = {}
        for name, raw in values.items():
            info = self._infos[name]
            if info.role == "sequence":
                converted[name] = real_array(name, raw, info.symbol.label, sequence=True)
            else:
                converted[name] = real_array(name, raw, info.symbol)
        return converted

    def _scalar_names(self) -> list[str]:
        return [n for n, i in self._infos.items() if i.role != "sequence"]

    def _broadcast_shape(self, arrays: Mapping[str, np.ndarray]) -> tuple[int, ...]:
        scalars = [arrays[n] for n in self._scalar_names() if n in arrays]
        try:
            return np.broadcast_shapes(*(a.shape for a in scalars)) if scalars else ()
        except ValueError:
            shapes = {n: arrays[n].shape for n in self._scalar_names() if n in arrays}
            raise ParameterError(
                f"{self.id}: parameter arrays do not broadcast together: {shapes}"
            ) from None

    @functools.cached_property
    def _arg_symbols(self) -> list[Any]:
        return [self._infos[n].symbol for n in self._infos]

    @functools.cached_property
    def _numpy_function(self) -> Any:
        return lambdify(
            self._arg_symbols,
            prepare_for_lambdify(self.expr),
            [NUMPY_NAMESPACE, "scipy", "numpy"],
        )

    @functools.cached_property
    def _mpmath_function(self) -> Any:
        return lambdify(
            self._arg_symbols,
            prepare_for_lambdify(self.expr),
            [MPMATH_NAMESPACE, "mpmath"],
        )

    @functools.cached_property
    def _rounding(self) -> Any:
        """``sp.ceiling`` or ``sp.floor`` when the expression is one at its top (the bound is
        integer-valued, and evaluated exactly where float64 cannot be trusted), else ``None``."""
        return type(self.expr) if isinstance(self.expr, (sp.ceiling, sp.floor)) else None

    @functools.cached_property
    def _numpy_argument_function(self) -> Any:
        """The argument x of ⌈x⌉ / ⌊x⌋ of an integer-valued bound, compiled for numpy."""
        return lambdify(
            self._arg_symbols,
            prepare_for_lambdify(self.expr.args[0]),
            [NUMPY_NAMESPACE, "scipy", "numpy"],
        )

    @functools.cached_property
    def _mpmath_argument_function(self) -> Any:
        """The argument x of ⌈x⌉ / ⌊x⌋ of an integer-valued bound, compiled for mpmath."""
        return lambdify(
            self._arg_symbols,
            prepare_for_lambdify(self.expr.args[0]),
            [MPMATH_NAMESPACE, "mpmath"],
        )

    @functools.cached_property
    def _hypothesis_functions(self) -> list[Any]:
        return [
            lambdify(
                self._arg_symbols,
                prepare_for_lambdify(h.relation),
                [NUMPY_NAMESPACE, "scipy", "numpy"],
            )
            for h in self.hypotheses
        ]

    def _ordered(self, arrays: Mapping[str, np.ndarray], *, python_scalars: bool) -> list[Any]:
        args = []
        for name, info in self._infos.items():
            value = arrays.get(name, np.float64(1.0))
            if python_scalars and info.role != "sequence":
                value = value.item() if isinstance(value, np.ndarray) else value
                if info.symbol.is_integer:
                    value = round(value)
            args.append(value)
        return args

    def _elementwise(
        self, function: Any, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...]
    ) -> np.ndarray:
        """Call a scalar function over the broadcast grid (used for sums over sequences)."""
        out = np.empty(shape, dtype=object)
        scalar_names = [n for n in self._scalar_names() if n in arrays]
        broadcast = {n: np.broadcast_to(arrays[n], shape) for n in scalar_names}
        for index in np.ndindex(*shape):
            point = {n: broadcast[n][index] for n in scalar_names}
            point.update({n: arrays[n] for n in self.sequences})
            out[index] = function(*self._ordered(point, python_scalars=True))
        return out

    @functools.cached_property
    def _has_sums(self) -> bool:
        return bool(self.expr.atoms(sp.Sum, sp.Product)) or any(
            h.relation.atoms(sp.Sum, sp.Product) for h in self.hypotheses
        )

    def _call_numpy(
        self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...], function: Any = None
    ) -> np.ndarray:
        """float64 values of the bound (or of ``function``, compiled like it) over the grid."""
        function = self._numpy_function if function is None else function
        if self._has_sums:
            try:
                raw = self._elementwise(function, arrays, shape)
            except IndexError:
                raise ParameterError(self._sequence_length_message(arrays)) from None
            return np.asarray(raw.astype(float), dtype=float)
        with np.errstate(all="ignore"):
            raw = function(*self._ordered(arrays, python_scalars=False))
        values: np.ndarray = np.broadcast_to(np.asarray(raw, dtype=float), shape).copy()
        return values

    def _sequence_length_message(self, arrays: Mapping[str, np.ndarray]) -> str:
        lengths = ", ".join(f"{n} has length {arrays[n].size}" for n in self.sequences)
        return (
            f"{self.id}: a sequence is too short for the requested index range ({lengths}); "
            "the bound reads one entry per iteration"
        )

    def _check_hypotheses(self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...]) -> None:
        failures: list[tuple[Hypothesis, np.ndarray]] = []
        for hyp, function in zip(self.hypotheses, self._hypothesis_functions, strict=True):
            if self._has_sums:
                holds = np.asarray(self._elementwise(function, arrays, shape).astype(bool))
            else:
                with np.errstate(all="ignore"):
                    raw = function(*self._ordered(arrays, python_scalars=False))
                holds = np.broadcast_to(np.asarray(raw, dtype=bool), shape)
            if not holds.all():
                failures.append((hyp, holds))
        if not failures:
            return
        hyp, holds = failures[0]
        index = tuple(np.argwhere(~holds)[0]) if holds.ndim else ()
        point = {
            name: float(np.broadcast_to(arrays[name], shape)[index])
            for name in hyp.names
            if name in arrays
        }
        note = hyp.note
        relation = hyp.relation
        if isinstance(relation, sp.core.relational.Relational):
            subs = {self._infos[n].symbol: sp.Float(v, 15) for n, v in point.items()}
            try:
                lhs = float(relation.lhs.subs(subs).evalf())
                rhs = float(relation.rhs.subs(subs).evalf())
                sides = f"left side {lhs:.6g}, right side {rhs:.6g}"
                note = f"{note}; {sides}" if note else sides
            except (TypeError, ValueError):
                pass
        raise ConditionError(
            self.id,
            str(hyp),
            point,
            failed=tuple(str(h) for h, _ in failures),
            note=note,
        )

    def _float_values(
        self, values: Mapping[str, Any], *, check: bool
    ) -> tuple[dict[str, np.ndarray], tuple[int, ...], np.ndarray]:
        """Validated inputs, their broadcast shape and the float64 values (hypotheses checked)."""
        if not isinstance(check, (bool, np.bool_)):
            raise ParameterError(
                parameter="check",
                value=check,
                rule=f"must be True or False, got {type(check).__name__}",
            )
        record(self.origin)
        arrays = self._convert(values, require_constants=True)
        shape = self._broadcast_shape(arrays)
        if check and self.hypotheses:
            self._check_hypotheses(arrays, shape)
        return arrays, shape, self._call_numpy(arrays, shape)

    def evaluate(self, *, check: bool = True, **values: ArrayLike) -> Any:
        """Value of the bound at the given parameters.

        Parameters
        ----------
        check
            Check the theorem's hypotheses (default). With ``check=False`` the expression is
            evaluated wherever it is defined; symbol domains are always checked.
        **values
            One value per parameter (floats or arrays broadcasting together; sequences as 1-D
            arrays). Order bounds also need their constant(s), e.g. ``C=1``. Ints, fractions
            (:class:`fractions.Fraction`) and sympy rationals are accepted; the float64 path
            uses their nearest floats, the arbitrary-precision path (below) their exact values.

        Returns
        -------
        float, int or numpy.ndarray
            A float when every scalar parameter is a scalar, else an array of the broadcast
            shape. Each entry is the float64 nearest to the exact value: entries that float64
            arithmetic leaves non-finite, zero or subnormal (an intermediate term overflowing
            or underflowing, as in Delta0*(1 − mu/L)**T with (1 − mu/L)**T below 1e-308) are
            recomputed in arbitrary precision (mpmath, 50 digits) and rounded once.

            An integer-valued bound (a ceiling or floor at the top of its expression, such as
            ``fedlrgd.thm2.rank``) is exact: entries of size 2**40 or more, and entries whose
            argument lies within a relative 2**-40 of an integer, are recomputed in arbitrary
            precision, with as many digits as it takes to decide the ceiling (or floor) for
            certain. Up to 2**53 they stay float64 (every integer there is one); a value above
            2**53 is returned as a Python ``int``, and an array holding one becomes an array of
            dtype ``object`` whose entries are all Python ints. Other results, including every
            value below 2**40 whose argument is not that close to an integer, are the float64
            ones.

        Raises
        ------
        ParameterError
            Unknown or missing parameter, a value that is not a real number (a string, a
            boolean, ``None``), value outside the symbol's domain, arrays that do not
            broadcast, an order bound's constant not given, or a value that is undefined; for
            an integer-valued bound, an argument that equals an integer to 2000 digits and is
            not found to be one exactly (the ceiling is then undecidable).
        ConditionError
            A hypothesis fails (the first failed one is named, with the offending values).
        FloatRangeError
            The value exceeds float64, which has no number near it; use :meth:`log_evaluate`.

        Notes
        -----
        Overflow and underflow are treated alike, by rounding the exact value to float64:
        beyond the largest float64 (≈ 1.8e308) there is no finite float to round to, so
        :class:`FloatRangeError` is raised (with the exact base-10 logarithm); below the
        smallest normal float64 (≈ 2.2e-308) the nearest float exists and is returned — a
        subnormal number with fewer significant digits, or ``0.0`` for a nonzero value below
        ≈ 4.9e-324 (IEEE 754 gradual underflow, absolute error under 2.5e-324). Whether such
        a value is truly zero, and its exact logarithm, are given by :meth:`log_evaluate` /
        :meth:`log10_evaluate` (``-inf`` only for a value that is exactly zero).

        The arbitrary-precision recomputation takes the inputs exactly as given: a float is
        its exact binary value (``4.6`` is 4.59999999999999964…, not 23/5), an int, a
        :class:`~fractions.Fraction` or a sympy rational is that number (carried to as many
        digits as the recomputation uses). The difference matters where the value is very
        sensitive to an input: the exact rank (47) is 1508389598809018 at ``eta=4.6`` (the
        float) and 1508389598808990 at ``eta=Fraction(23, 5)`` (with d = 1, ε = 0.1 and unit
        constants). Pass fractions for decimal values.

        Examples
        --------
        >>> from fractions import Fraction
        >>> from fedtheory import bounds
        >>> rank = bounds.get("fedlrgd.thm2.rank")
        >>> point = dict(d=1, alpha=1, L2=1, kappa=2, B=1, mu=1, p=1, Delta0=1)
        >>> rank.evaluate(eta=10, epsilon=0.1, **point)
        422.0
        >>> rank.evaluate(eta=4.6, epsilon=1e-3, **point)
        70013243185696121
        >>> rank.evaluate(eta=Fraction(23, 5), epsilon=Fraction(1, 1000), **point)
        70013243185694634
        """
        arrays, shape, result = self._float_values(values, check=check)
        with np.errstate(invalid="ignore"):
            redo = ~np.isfinite(result) | (np.abs(result) < np.finfo(float).tiny)
        if self._rounding is not None:
            redo |= self._rounding_in_doubt(arrays, shape, result)
        large: dict[tuple[int, ...], int] = {}
        indices = _indices(redo)
        raw = self._exact_inputs(values) if indices else {}
        for index in indices:
            if self._rounding is None:
                exact = self._mp_value(arrays, shape, index, raw=raw)
            else:
                exact = self._mp_integer(arrays, shape, index, raw=raw)
            if not mpmath.isfinite(exact):
                raise ParameterError(self._undefined_message(arrays, shape, index))
            if abs(exact) > np.finfo(float).max:
                raise FloatRangeError(
                    f"{self.id} at {self._point_text(arrays, shape, index)}",
                    float(mpmath.log10(abs(exact))),
                    hint="use log_evaluate() (or `fedtheory bounds eval --log`)",
                )
            if self._rounding is not None and abs(exact) > FLOAT_INTEGER_LIMIT:
                large[index] = int(exact)
            else:
                result[index] = float(exact)
        if large:
            # beyond 2**53 float64 skips integers: Python ints, in every entry of an array
            exact_ints = np.empty(shape, dtype=object)
            for index in np.ndindex(*shape):
                exact_ints[index] = large[index] if index in large else int(result[index])
            return exact_ints[()] if exact_ints.ndim == 0 else exact_ints
        return float(result) if result.ndim == 0 else result

    def log_evaluate(self, *, check: bool = True, **values: ArrayLike) -> Any:
        """Natural logarithm of the bound, exact where float64 overflows or underflows.

        Entries whose float64 value is not finite or not normal are recomputed in arbitrary
        precision (mpmath, 50 digits), so astronomically large or small bounds (r ≈ 10^18 and
        far beyond) have a finite logarithm. Same parameters and errors as :meth:`evaluate`;
        a negative value raises :class:`ParameterError`, zero gives ``-inf``.
        """
        arrays, shape, result = self._float_values(values, check=check)
        tiny = np.finfo(float).tiny
        with np.errstate(all="ignore"):
            out = np.array(np.log(np.where(result > 0, result, 1.0)), dtype=float)
        redo = ~np.isfinite(result) | (np.abs(result) < tiny) | (result < 0)
        indices = _indices(redo)
        raw = self._exact_inputs(values) if indices else {}
        for index in indices:
            exact = self._mp_value(arrays, shape, index, raw=raw)
            if mpmath.isnan(exact):
                raise ParameterError(self._undefined_message(arrays, shape, index))
            if exact < 0:
                raise ParameterError(
                    f"{self.id} is negative ({mpmath.nstr(exact, 6)}) at "
                    f"{self._point_text(arrays, shape, index)}; its logarithm is undefined"
                )
            out[index] = -np.inf if exact == 0 else float(mpmath.log(exact))
        return float(out) if out.ndim == 0 else out

    def log10_evaluate(self, *, check: bool = True, **values: ArrayLike) -> Any:
        """Base-10 logarithm of the bound; see :meth:`log_evaluate`."""
        return self.log_evaluate(check=check, **values) / np.log(10.0)

    def _mp_value(
        self,
        arrays: Mapping[str, np.ndarray],
        shape: tuple[int, ...],
        index: tuple[int, ...],
        *,
        raw: Mapping[str, Any] | None = None,
        function: Any = None,
        dps: int = MP_DPS,
    ) -> Any:
        """The bound (or ``function``, compiled like it) at entry ``index``, in mpmath at ``dps``
        digits; ``nan`` where it is undefined.

        Inputs are taken exactly: from ``raw`` (:meth:`_exact_inputs` of the values given) when
        given, else from the float arrays; a float is its binary value, an int, a Fraction or a
        sympy rational that number (rounded to ``dps`` digits only if it has more).
        """
        raw = raw if raw is not None else arrays
        with mpmath.workdps(dps):
            args = []
            for name, info in self._infos.items():
                if name not in arrays:
                    args.append(mpmath.mpf(1))
                elif info.role == "sequence":
                    args.append([_exact_mpf(v) for v in np.asarray(raw[name]).flat])
                else:
                    value = np.broadcast_to(raw[name], shape)[index]
                    args.append(_exact_int(value) if info.symbol.is_integer else _exact_mpf(value))
            try:
                return mpmath.mpf((self._mpmath_function if function is None else function)(*args))
            except (ZeroDivisionError, ValueError, TypeError):
                return mpmath.mpf("nan")

    def _exact_inputs(self, values: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """The values as given (validated by :meth:`_convert`), as arrays of Python numbers of
        dtype ``object``: ints, Fractions and sympy rationals keep their exact values."""
        return {name: np.asarray(value, dtype=object) for name, value in values.items()}

    def _rounding_in_doubt(
        self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...], result: np.ndarray
    ) -> np.ndarray:
        """Where the float64 ceiling (floor) of an integer-valued bound may be wrong: values of
        size 2**40 or more, and arguments within a relative 2**-40 of an integer (the float64
        argument's rounding error, some hundreds of ulps, can move the ceiling there)."""
        argument = self._call_numpy(arrays, shape, self._numpy_argument_function)
        with np.errstate(invalid="ignore"):
            distance = np.abs(argument - np.round(argument))
            near = distance <= np.maximum(np.abs(argument), 1.0) * NEAR_INTEGER
            doubt: np.ndarray = (np.abs(result) >= EXACT_INTEGER_FROM) | near
        return doubt

    def _mp_integer(
        self,
        arrays: Mapping[str, np.ndarray],
        shape: tuple[int, ...],
        index: tuple[int, ...],
        *,
        raw: Mapping[str, Any],
    ) -> Any:
        """The exact value ⌈x⌉ (⌊x⌋) of an integer-valued bound at entry ``index``, as an mpf.

        x is computed by :meth:`_mp_value` with at least 30 digits more than its integer part
        has, and again with 20 more; the ceiling is taken once x lies farther from the nearest
        integer than 100 times the difference of the two and than 10**-(digits − 10)·|x|.
        Otherwise the precision is doubled, up to :data:`MP_MAX_DPS` digits; an argument that
        is exactly an integer (rational inputs) is recognised by sympy. A value that is
        undefined (``nan``) or beyond float64 is returned as computed at :data:`MP_DPS`.
        """
        value = functools.partial(
            self._mp_value, arrays, shape, index, raw=raw, function=self._mpmath_argument_function
        )
        first = value(dps=MP_DPS)
        if not mpmath.isfinite(first) or abs(first) > np.finfo(float).max:
            return first
        ceiling = self._rounding is sp.ceiling
        digits = int(mpmath.log10(abs(first))) + 1 if first else 0
        dps = max(MP_DPS, digits + 30)
        tried_sympy = False
        nearest = mpmath.nint(first)
        while dps <= MP_MAX_DPS:
            coarse = first if dps == MP_DPS else value(dps=dps)
            fine = value(dps=dps + 20)
            with mpmath.workdps(dps + 20):
                nearest = mpmath.nint(fine)
                tolerance = max(100 * abs(coarse - fine), abs(fine) * mpmath.mpf(10) ** (10 - dps))
                if abs(fine - nearest) > tolerance:
                    return mpmath.ceil(fine) if ceiling else mpmath.floor(fine)
            if not tried_sympy:  # an argument that is exactly an integer never gets decided
                tried_sympy = True
                exact = self._sympy_argument(raw, arrays, shape, index)
                if exact is not None:
                    with mpmath.workdps(dps + 20):
                        return mpmath.mpf(int(sp.ceiling(exact) if ceiling else sp.floor(exact)))
            dps *= 2
        raise ParameterError(
            f"{self.id}: cannot decide the {'ceiling' if ceiling else 'floor'} at "
            f"{self._point_text(arrays, shape, index)}: its argument equals the integer "
            f"{int(nearest)} to {dps // 2} digits and sympy finds no exact rational for it"
        )

    def _sympy_argument(
        self,
        raw: Mapping[str, Any],
        arrays: Mapping[str, np.ndarray],
        shape: tuple[int, ...],
        index: tuple[int, ...],
    ) -> sp.Rational | None:
        """The argument of the ceiling (floor) at entry ``index`` when sympy evaluates it to an
        exact rational from the exact inputs (``ceiling(T/2)`` at T = 10), else ``None``."""
        if self.sequences:
            return None
        substitutions = {
            self._infos[name].symbol: _exact_sympy(np.broadcast_to(raw[name], shape)[index])
            for name in self._scalar_names()
            if name in arrays
        }
        argument = self.expr.args[0].xreplace(substitutions)
        return argument if isinstance(argument, sp.Rational) else None

    def _point_text(
        self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...], index: tuple[int, ...]
    ) -> str:
        point = {
            n: float(np.broadcast_to(arrays[n], shape)[index])
            for n in self._scalar_names()
            if n in arrays
        }
        return format_assignment(point)

    def _undefined_message(
        self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...], index: tuple[int, ...]
    ) -> str:
        return (
            f"{self.id} is undefined (not a finite number) at "
            f"{self._point_text(arrays, shape, index)}"
        )

    # ------------------------------------------------------------------ analysis
    def exponent(
        self,
        var: str,
        at: Literal["oo", 0] | str | int = "oo",
        *,
        keep: Iterable[str] = (),
        method: Literal["auto", "symbolic", "numeric"] = "auto",
        **fixed: Any,
    ) -> Exponent:
        """Leading power of the bound in ``var`` as ``var`` → ∞ (``at="oo"``) or → 0.

        See :func:`fedtheory.bounds._analysis.exponent` for the exact definition (the power at
        which the bound approaches its limit), the handling of Min/Max regimes, and the fields
        of the returned :class:`~fedtheory.bounds._analysis.Exponent`.
        """
        record(self.origin)
        return _analysis.exponent(self, var, at, keep=keep, method=method, **fixed)

    def local_exponent(self, var: str, at: float, **fixed: Any) -> float:
        """Local log-log slope d log B / d log ``var`` at ``var = at`` (others from ``fixed``
        or the example point). See :func:`fedtheory.bounds._analysis.local_exponent`."""
        record(self.origin)
        return _analysis.local_exponent(self, var, at, **fixed)

    def crossover(self, other: Bound, var: str, **fixed: Any) -> list[Crossover]:
        """Every point where this bound and ``other`` are equal as functions of ``var``.

        See :func:`fedtheory.bounds._crossover.crossover` and the fields of the returned
        :class:`~fedtheory.bounds.Crossover`.
        """
        if not isinstance(other, Bound):
            raise ParameterError(
                parameter="other", value=other, rule=f"must be a Bound, got {type(other).__name__}"
            )
        record(self.origin)
        record(other.origin)
        return _crossover.crossover(self, other, var, **fixed)

    # ------------------------------------------------------------------ transformations
    def subs(self, **values: Any) -> Bound:
        """A new (unregistered) bound with some symbols replaced by numbers or expressions.

        Hypotheses that become true are dropped; one that becomes false raises
        :class:`ConditionError`. The id records the substitution: ``"<id>[n=10]"`` is not a valid
        registry id, so substituted bounds are never registered by accident.

        Examples
        --------
        >>> from fedtheory import bounds
        >>> b = bounds.get("classic.gd.strongly-convex").subs(L=10, mu=1)
        >>> sorted(b.parameters)
        ['Delta0', 'T']
        """
        record(self.origin)
        substitutions: dict[Any, Any] = {}
        for name, value in values.items():
            info = self._info(name)
            if info.role == "sequence":
                raise ParameterError(
                    parameter=name, value=value, rule="sequences cannot be substituted"
                )
            substitutions[info.symbol] = exact_number(value, name, info.symbol)
        hypotheses = []
        for hyp in self.hypotheses:
            relation = hyp.relation.subs(substitutions)
            if relation == sp.true:
                continue
            if relation == sp.false:
                given = {n: values[n] for n in hyp.names if n in values}
                raise ConditionError(self.id, str(hyp), given, note=hyp.note)
            hypotheses.append(Hypothesis(relation, hyp.note))
        new = Bound.__new__(Bound)
        new.id = f"{self.id}[{format_assignment(values)}]"
        new.origin = self.origin
        new.unjudged = self.unjudged
        new._expr = self.expr.subs(substitutions)
        new.kind = self.kind
        new.status = self.status
        new.source = self.source
        new.quantity = self.quantity
        new.quantity_latex = self.quantity_latex
        new.statement = self.statement
        new.hypotheses = tuple(hypotheses)
        new._vocabulary = self._vocabulary
        remaining = {s.name for s in new.expr.free_symbols if isinstance(s, sp.Symbol)}
        remaining |= {s.name for h in hypotheses for s in h.relation.free_symbols}
        remaining |= {str(b.base.label) for b in new.expr.atoms(sp.Indexed)}
        new._meanings = {n: m for n, m in self._meanings.items() if n in remaining}
        new._meanings.update(
            {n: i.meaning for n, i in self._infos.items() if n in remaining and n not in values}
        )
        if self.is_order and not remaining & set(self.constants):
            # every unknown constant was given a value: an ordinary inequality at that constant
            new.kind = "upper" if self.kind == "order-upper" else "lower"
        new._infos = new._collect_symbols()
        new.example = {n: v for n, v in self.example.items() if n in new._infos and n not in values}
        missing = [n for n in new.parameters if n not in new.example]
        if missing:
            raise ParameterError(
                f"{self.id}: substitution introduced symbols without example values: {missing}"
            )
        return new

    # ------------------------------------------------------------------ display
    @property
    def symbol_names(self) -> dict[Any, str]:
        """LaTeX names of the symbols, for ``sympy.latex(..., symbol_names=...)``."""
        names: dict[Any, str] = {}
        for info in self._infos.values():
            if info.latex:
                key = info.symbol.label if info.role == "sequence" else info.symbol
                names[key] = info.latex
        return names

    def latex(self) -> str:
        """LaTeX of the expression."""
        text: str = sp.latex(self.expr, symbol_names=self.symbol_names)
        return text

    def statement_latex(self) -> str:
        """LaTeX of the full statement, ``quantity ≤ expression``."""
        lhs = self.quantity_latex or r"\text{" + _latex_escape(self.quantity) + "}"
        return f"{lhs} {RELATION_LATEX[self.kind]} {self.latex()}"

    def pretty(self, num_columns: int | None = None) -> str:
        """Two-dimensional unicode rendering of the expression (sympy's pretty printer).

        ``num_columns`` is the width the rendering must fit: a wider expression is broken into
        stacked chunks by sympy (default: sympy's, the terminal width or 80).
        """
        text: str = sp.pretty(self.expr, use_unicode=True, num_columns=num_columns)
        return text

    def hypotheses_latex(self) -> list[str]:
        """LaTeX of each hypothesis (its relation, symbols by their LaTeX names)."""
        return [str(sp.latex(h.relation, symbol_names=self.symbol_names)) for h in self.hypotheses]

    def _repr_latex_(self) -> str:
        r"""``$…$`` LaTeX of the statement and its hypotheses, ``Q ≤ f \quad \text{if } h_1,\;
        h_2``, that Jupyter (MathJax) and matplotlib's mathtext both render
        (``fig.text(x, y, bound._repr_latex_())``), via :func:`mathtext_latex`."""
        text = self.statement_latex()
        hypotheses = self.hypotheses_latex()
        if hypotheses:
            text += r" \quad \text{if } " + r",\; ".join(hypotheses)
        return f"${mathtext_latex(text)}$"

    def __str__(self) -> str:
        return f"{self.quantity} {self.relation} {sp.sstr(self.expr)}"

    def __repr__(self) -> str:
        return f"<Bound {self.id} ({self.kind}, {self.status}): {self}>"

    def describe(self) -> str:
        """Multi-line plain-text description (id, statement, hypotheses, source)."""
        lines = [f"{self.id} — {self.kind}, {self.status}", f"  {self}"]
        if self.statement:
            lines.append(f"  {self.statement}")
        lines.extend(f"  if {h}" + (f"  ({h.note})" if h.note else "") for h in self.hypotheses)
        lines.append(f"  source: {self.source}")
        return "\n".join(lines)


def _indices(mask: np.ndarray) -> list[tuple[int, ...]]:
    """Index tuples of the True entries of ``mask`` (``[()]`` for a true 0-d mask)."""
    return (
        [tuple(int(i) for i in index) for index in np.argwhere(mask)]
        if mask.ndim
        else ([()] if bool(mask) else [])
    )


def _exact_mpf(value: Any) -> Any:
    """A validated real number as an mpf at the working precision: a float (numpy or Python)
    is its binary value, exactly; an int, Fraction or sympy rational that number, rounded to
    the working precision only where it has no shorter binary form (1/10, 3**200)."""
    if isinstance(value, numbers.Integral):
        return mpmath.mpf(int(value))
    if isinstance(value, numbers.Rational):
        return mpmath.mpf(int(value.numerator)) / int(value.denominator)
    if isinstance(value, sp.Expr):  # a real sympy number that is not rational (pi, sqrt(2))
        return mpmath.mpf(value.evalf(mpmath.mp.dps + 10))
    return mpmath.mpf(float(value))


def _exact_int(value: Any) -> int:
    """The value of an integer symbol (integral by the domain check) as a Python int."""
    if isinstance(value, numbers.Rational):
        return int(value.numerator) // int(value.denominator)
    return round(float(value))


def _exact_sympy(value: Any) -> sp.Expr:
    """A validated real number as an exact sympy number (a float at its binary value)."""
    if isinstance(value, numbers.Rational):
        return sp.Rational(int(value.numerator), int(value.denominator))
    if isinstance(value, sp.Expr):
        return value
    return sp.Rational(float(value))


#: LaTeX that matplotlib's mathtext rejects, with a replacement both it and MathJax accept.
_MATHTEXT_REPLACEMENTS: tuple[tuple[str, str], ...] = (
    (r"\displaystyle", ""),
    (r"\textstyle", ""),
    (r"\limits", ""),
    (r"\tfrac", r"\frac"),
    (r"\textrm{", r"\text{"),
    (r"\lVert", r"\Vert"),
    (r"\rVert", r"\Vert"),
    (r"\lvert", "|"),
    (r"\rvert", "|"),
    (r"\textbackslash{}", r"\backslash{}"),
)
_CASES = re.compile(r"\\begin\{cases\}((?:(?!\\begin\{cases\}).)*?)\\end\{cases\}", re.S)


def _inline_cases(match: re.Match[str]) -> str:
    rows = [row.strip() for row in match.group(1).split(r"\\") if row.strip()]
    cells = [r"\quad ".join(cell.strip() for cell in row.split("&")) for row in rows]
    return r"\left\{ " + r";\quad ".join(cells) + r" \right."


def mathtext_latex(latex: str) -> str:
    r"""``latex`` rewritten into the subset matplotlib's mathtext parses (still valid LaTeX).

    sympy's LaTeX is nearly all accepted; the exceptions mapped here are ``\displaystyle``,
    ``\textstyle`` and ``\limits`` (dropped), ``\tfrac`` (→ ``\frac``), ``\textrm`` (→ ``\text``),
    ``\lVert``/``\rVert`` (→ ``\Vert``), ``\lvert``/``\rvert`` (→ ``|``) and the ``cases``
    environment of a ``Piecewise`` (→ its rows on one line in ``\left\{ … \right.``).

    Examples
    --------
    >>> mathtext_latex(r"\displaystyle \tfrac{1}{2} \lVert x \rVert")
    ' \\frac{1}{2} \\Vert x \\Vert'
    """
    for old, new in _MATHTEXT_REPLACEMENTS:
        latex = latex.replace(old, new)
    while True:  # innermost cases environment first
        latex, count = _CASES.subn(_inline_cases, latex)
        if not count:
            return latex


def _latex_escape(text: str) -> str:
    return text.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("%", r"\%")


def _natural_key(name: str) -> tuple[Any, ...]:
    """Natural, case-insensitive order; the name itself breaks ties (``N`` before ``n``), so the
    order never depends on the hash seed of the process."""
    parts = tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name))
    return (parts, name)


# ---------------------------------------------------------------------- registry
#: The registered bounds by id. The module of a built-in paper, ``fedtheory.bounds.<key>``
#: (DESIGN §1), fills it with that paper's bounds when it is imported; the functions below
#: import it on first need (:func:`_load_builtin`): a lookup of ``<key>.…`` imports paper
#: ``<key>``, a listing or a failed lookup every built-in paper. So the registry is complete
#: wherever it is read, and a process that needs one paper's bounds (a claim file, a worker,
#: the CLI) does not build the other papers' expressions (about 0.5 s of sympy at start-up).
_REGISTRY: dict[str, Bound] = {}
# the file of the module that registered each bound of a user paper
_REGISTERED_IN: dict[str, str | None] = {}


class _QuietPaperModules(importlib.abc.MetaPathFinder):
    """Imports the module of a built-in paper as Python would, but executes it without
    recording bound usage (:func:`~fedtheory.bounds._usage.not_recording`).

    Such a module evaluates its bounds while it builds and checks them. It is imported when
    first needed, maybe while a claim file is loaded or an experiment runs, whose recorded
    evaluations must be their own (what a claim declares in ``uses=``), whether the module came
    through :func:`get` or through a direct ``from fedtheory.bounds.<key> import …``.
    """

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, key = fullname.rpartition(".")
        if package != __package__ or key not in BUILTIN_PAPERS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _QuietLoader(spec.loader)
        return spec


class _QuietLoader(importlib.abc.Loader):
    """A module's own loader (source, code, file name: all asked of it) executing the module
    with recording off."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self._inner.create_module(spec)

    def exec_module(self, module: Any) -> None:
        with not_recording():
            self._inner.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


if not any(isinstance(finder, _QuietPaperModules) for finder in sys.meta_path):
    sys.meta_path.insert(0, _QuietPaperModules())


def _load_builtin(paper: str | None = None) -> None:
    """Import the bounds module of built-in ``paper`` (of every built-in paper for ``None``;
    nothing for a paper of your own, which registers its bounds itself). A module already
    imported, or being imported, is found in ``sys.modules``: nothing runs twice."""
    for key in sorted(BUILTIN_PAPERS) if paper is None else [paper]:
        if key in BUILTIN_PAPERS:
            importlib.import_module(f"{__package__}.{key}")


def register(bound: Bound) -> Bound:
    """Add ``bound`` to the registry and return it.

    A bound of a paper of your own (:func:`~fedtheory.bounds.register_paper`) may be
    registered again by the module that registered it: the new bound replaces the old one
    (``fedtheory verify`` imports a changed bounds module anew).

    Raises
    ------
    ParameterError
        If a different bound is already registered under the same id (by another module, or
        for a paper fedtheory ships).
    """
    if not isinstance(bound, Bound):
        raise ParameterError(parameter="bound", value=bound, rule="must be a Bound")
    if not _ID_PATTERN.match(bound.id):
        raise ParameterError(
            parameter="bound.id", value=bound.id, rule="substituted bounds cannot be registered"
        )
    _load_builtin(bound.paper)  # a built-in id is taken before its paper's module is imported
    existing = _REGISTRY.get(bound.id)
    origin = declaring_file() if bound.paper not in BUILTIN_PAPERS else None
    replaceable = bound.paper not in BUILTIN_PAPERS and _REGISTERED_IN.get(bound.id) == origin
    if existing is not None and existing is not bound and not replaceable:
        raise ParameterError(parameter="bound.id", value=bound.id, rule="is already registered")
    _REGISTRY[bound.id] = bound
    if bound.paper not in BUILTIN_PAPERS:
        _REGISTERED_IN[bound.id] = origin
    return bound


def get(id: str) -> Bound:
    """The registered bound with identifier ``id``.

    Raises
    ------
    ParameterError
        If ``id`` is not a string, or no bound has that id; the message lists close matches.
    """
    if not isinstance(id, str):
        raise ParameterError(
            parameter="id",
            value=id,
            rule=f"must be a string such as 'classic.gd.strongly-convex', got {type(id).__name__}",
        )
    if id not in _REGISTRY:
        _load_builtin(id.split(".", 1)[0])
    try:
        return _REGISTRY[id]
    except KeyError:
        pass
    _load_builtin()
    close = difflib.get_close_matches(id, list(_REGISTRY), n=5, cutoff=0.6)
    close += [i for i in _REGISTRY if i.startswith(id + ".") and i not in close][: 5 - len(close)]
    hint = f"; close matches: {', '.join(close)}" if close else "; see `fedtheory bounds list`"
    raise ParameterError(f"no bound with id {id!r}{hint}")


def ids(paper: str | None = None) -> list[str]:
    """Sorted ids of the registered bounds, optionally only those of ``paper``."""
    if paper is not None:
        check_paper(paper)
    _load_builtin(paper)
    return sorted(i for i in _REGISTRY if paper is None or _REGISTRY[i].paper == paper)


def iter_bounds(paper: str | None = None) -> Iterator[Bound]:
    """Registered bounds in id order, optionally only those of ``paper``."""
    return (_REGISTRY[i] for i in ids(paper))
