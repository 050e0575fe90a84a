"""What the two asymptotic analyses of a bound share (:mod:`._analysis`: exponents,
:mod:`._crossover`: crossovers).

- :class:`BoundLike`: the part of a :class:`~fedtheory.bounds.Bound` they read. They take the
  bound as an argument and use only its public interface (``id``, ``expr``, ``info``,
  ``example``, ``hypotheses``, ...) and two of its checks; :mod:`._bound` imports them, never
  the reverse (not even for the type checker).
- sympy under a CPU-time limit (:func:`_sympy`): every way sympy gives up becomes
  ``NotImplementedError``, so that a caller falls back to its numeric path in one clause;
- a bound's expression with values substituted (:func:`_substituted`), sums done, fixed
  harmonic numbers as floats, an integer variable made continuous (:func:`_continuous`);
- the expression compiled to mpmath (:func:`_mp_function`).

Exact numbers and lambdify helpers come from :mod:`._expressions`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

import mpmath
import numpy as np
import sympy as sp

from fedtheory.bounds._expressions import (
    MPMATH_NAMESPACE,
    exact_number,
    mp_harmonic,
    prepare_for_lambdify,
    real_array,
)
from fedtheory.bounds._symbols import SymbolInfo
from fedtheory.errors import ParameterError

__all__ = ["SYMPY_TIME_LIMIT", "BoundLike"]


class BoundLike(Protocol):
    """What the analysis reads of a bound — the interface of :class:`~fedtheory.bounds.Bound`,
    stated here so that this module needs nothing from the Bound core (which imports it)."""

    id: str

    @property
    def expr(self) -> sp.Expr: ...

    example: dict[str, Any]
    hypotheses: tuple[Any, ...]

    @property
    def info(self) -> dict[str, SymbolInfo]: ...

    @property
    def parameters(self) -> list[str]: ...

    @property
    def sequences(self) -> dict[str, sp.IndexedBase]: ...

    @property
    def constants(self) -> list[str]: ...

    def _unknown_message(self, name: str) -> str: ...

    def _check_hypotheses(
        self, arrays: Mapping[str, np.ndarray], shape: tuple[int, ...]
    ) -> None: ...


_BRANCHING = (sp.Min, sp.Max, sp.Piecewise)
_NONSMOOTH = (sp.ceiling, sp.floor, sp.frac)
#: Decimal digits used by the numeric paths.
_DPS = 60
#: CPU seconds (user time of the process) a single sympy limit/solve may take before the numeric
#: path takes over. CPU time, not wall time: on a loaded machine a wall-clock limit cut sympy short
#: and turned an exact exponent into a numeric one (ffgb.limit.square-floor in K: −2 became
#: −2.00000 with 10 processes on 2 cores), so the answer depended on the load.
SYMPY_TIME_LIMIT = 5.0


#: Where a time-limit expiry may interrupt the running code: the source trees of sympy, mpmath
#: and fedtheory itself.
_INTERRUPTIBLE = tuple(
    os.path.dirname(os.path.abspath(path)) + os.sep
    for path in (sp.__file__, mpmath.__file__, os.path.dirname(os.path.abspath(__file__)))
)


class _SympyTimeout(BaseException):
    """sympy took longer than :data:`SYMPY_TIME_LIMIT`.

    A ``BaseException`` so that sympy's own ``except Exception`` fallbacks cannot swallow it.
    """


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt pure-Python sympy work after ``seconds`` of the process's user CPU time
    (``ITIMER_VIRTUAL``; main thread on POSIX only).

    Elsewhere (worker threads, Windows) no limit applies; sympy then simply runs to completion.
    """
    usable = (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGVTALRM) in (signal.SIG_DFL, signal.SIG_IGN, None)
    )
    if not usable:
        yield
        return

    def _expire(signum: int, frame: Any) -> None:
        # Raise only inside the computation (sympy, mpmath, fedtheory). A signal handled while a
        # garbage-collection callback or other foreign code runs (e.g. hypothesis' gc hooks)
        # would be swallowed there ("Exception ignored in ...") and the limit lost; the timer
        # repeats every 50 ms, so the next expiry lands in the computation instead.
        filename = frame.f_code.co_filename if frame is not None else ""
        if filename.startswith(_INTERRUPTIBLE):
            raise _SympyTimeout(f"sympy needed more than {seconds} s")

    previous = signal.signal(signal.SIGVTALRM, _expire)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds, 0.05)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


#: What sympy raises, besides ``NotImplementedError``, when an algorithm cannot go on: e.g.
#: ``solve`` compares two expressions inside ``_tsolve`` and raises ``TypeError("cannot determine
#: truth value of Relational: ...")`` when the comparison depends on a symbol left free (the
#: unknown constant C of an order bound in ``crossover(...)`` without ``C=``).
_SYMPY_FAILURES: tuple[type[Exception], ...] = (
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    KeyError,
    ZeroDivisionError,
    RecursionError,
)


def _sympy(function: Any, *args: Any, **kwargs: Any) -> Any:
    """Call a sympy routine under :data:`SYMPY_TIME_LIMIT`.

    Every way in which sympy gives up — a timeout, ``NotImplementedError`` or one of
    :data:`_SYMPY_FAILURES` raised from inside its algorithms — becomes ``NotImplementedError``
    (the original chained), so that a caller handles "sympy cannot do it" in one ``except``
    clause and falls back to its numeric path or refuses with a :class:`ParameterError`.
    """
    try:
        with _time_limit(SYMPY_TIME_LIMIT):
            return function(*args, **kwargs)
    except _SympyTimeout:
        raise NotImplementedError(f"sympy needed more than {SYMPY_TIME_LIMIT} s") from None
    except ParameterError:
        raise
    except _SYMPY_FAILURES as exc:
        name = getattr(function, "__name__", "sympy")
        raise NotImplementedError(f"sympy's {name} failed: {type(exc).__name__}: {exc}") from exc


def _simplified(expr: sp.Expr) -> sp.Expr:
    """``sympy.simplify(expr)`` under the time limit; ``expr`` itself when sympy gives up."""
    try:
        result: sp.Expr = _sympy(sp.simplify, expr)
    except NotImplementedError:
        return expr
    return result


def _substituted(
    bound: BoundLike,
    var: str | None,
    fixed: Mapping[str, Any],
    keep: Iterable[str],
    *,
    example_defaults: bool,
) -> tuple[sp.Expr, dict[str, Any]]:
    """The bound's expression with the fixed values substituted (sums expanded)."""
    info = bound.info
    keep = set(keep)
    for name in list(fixed) + list(keep):
        if name not in info:
            raise ParameterError(bound._unknown_message(name))
    if var is not None and var in fixed:
        raise ParameterError(parameter=var, value=fixed[var], rule="is the variable; do not fix it")
    used: dict[str, Any] = {}
    substitutions: dict[Any, Any] = {}
    for name, sinfo in info.items():
        if name == var or name in keep or sinfo.role == "sequence":
            continue
        if name in fixed:
            value = fixed[name]
        elif example_defaults and name in bound.example:
            value = bound.example[name]
        elif example_defaults and sinfo.role == "constant":
            value = 1
        else:
            continue
        used[name] = value
        substitutions[sinfo.symbol] = exact_number(value, name, sinfo.symbol)
    expr = _with_values(bound.expr, tuple(substitutions.items()))
    if expr.has(sp.Sum, sp.Product):
        x = info[var].symbol if var is not None else None
        for s in expr.atoms(sp.Sum, sp.Product):
            limits_free = set().union(*(lim.free_symbols for lim in s.limits)) - {
                lim[0] for lim in s.limits
            }
            if x is not None and x in limits_free:
                raise ParameterError(
                    parameter="var",
                    value=var,
                    rule="indexes a sequence of measured values; its asymptotics are undefined",
                )
        expr = _done(expr)
    sequences = bound.sequences
    if sequences:
        for name, base in sequences.items():
            if name in fixed:
                real_array(name, fixed[name], base.label, sequence=True)
            values = fixed.get(name, bound.example.get(name) if example_defaults else None)
            if values is None:
                if expr.has(base):
                    raise ParameterError(f"{bound.id}: sequence {name!r} must be given")
                continue
            used[name] = list(values)
            replacement = {}
            for item in expr.atoms(sp.Indexed):
                if item.base != base:
                    continue
                (index,) = item.indices
                if not index.is_Integer:
                    raise ParameterError(f"{bound.id}: cannot resolve {item} with a free index")
                if not 0 <= int(index) < len(values):
                    raise ParameterError(
                        f"{bound.id}: sequence {name!r} has length {len(values)} but entry "
                        f"{int(index)} is needed"
                    )
                replacement[item] = exact_number(values[int(index)])
            expr = expr.xreplace(replacement)
    return expr, used


@functools.lru_cache(maxsize=1024)
def _with_values(
    expr: sp.Basic, substitutions: tuple[tuple[Any, Any], ...], *, harmonics: bool = True
) -> sp.Basic:
    """``expr.subs(dict(substitutions))``, after :func:`_fixed_harmonics` when ``harmonics``,
    once per process for the same expression and values (``method="auto"`` and ``"numeric"``
    substitute the same values; sympy's ``subs`` of a dozen symbols costs milliseconds)."""
    values = dict(substitutions)
    return (_fixed_harmonics(expr, values) if harmonics else expr).subs(values)


@functools.lru_cache(maxsize=256)
def _done(expr: sp.Basic) -> sp.Basic:
    """``expr.doit()`` (sums and products expanded), once per process for the same expression."""
    return expr.doit()


def _fixed_harmonics(expr: sp.Expr, substitutions: Mapping[Any, Any]) -> sp.Expr:
    """``expr`` with every harmonic number H_n^{(s)} whose arguments are all fixed by
    ``substitutions`` replaced by its value as a :data:`_DPS`-digit float.

    sympy expands H_100^{(3/2)} into a sum of 100 radicals, on which its simplify and limit run
    into the time limit (gifair.thm86 in L took 6 s per call), and H_{10^9} does not expand at all
    in reasonable time; the exponent in another parameter does not depend on these digits.
    """
    replacements = {}
    for number in expr.atoms(sp.harmonic):
        if not number.free_symbols or not number.free_symbols <= set(substitutions):
            continue
        n, *order = (argument.xreplace(substitutions) for argument in number.args)
        order_value = order[0] if order else sp.Integer(1)
        with mpmath.workdps(_DPS):
            value = mp_harmonic(
                mpmath.mpf(sp.Float(n, _DPS + 10)), mpmath.mpf(sp.Float(order_value, _DPS + 10))
            )
        replacements[number] = sp.Float(value, _DPS)
    return expr.xreplace(replacements)


@functools.lru_cache(maxsize=1024)
def _continuous(symbol: sp.Symbol) -> sp.Symbol:
    """A real stand-in for ``symbol`` without the integer assumption (asymptotics and crossings
    treat counts as continuous; sympy's solve would otherwise drop non-integer roots).

    The same stand-in every time for the same symbol (cached), so that the expressions built
    from it, and the sign tests cached on them (:func:`_sign_near`), repeat exactly from one
    call to the next.
    """
    if not symbol.is_integer:
        return symbol
    if symbol.is_positive:
        return sp.Dummy(symbol.name, positive=True)
    if symbol.is_nonnegative:
        return sp.Dummy(symbol.name, nonnegative=True)
    return sp.Dummy(symbol.name, real=True)


#: The mpmath functions that :func:`_mp_function` memoizes (those the bounds apply to constants).
_MEMOIZED = ("sqrt", "log", "exp")


def _memoized(function: Any, cache: dict[tuple[Any, ...], Any]) -> Any:
    """``function`` (a one-argument mpmath function) remembering its value for each argument
    (a Python ``int`` or an ``mpf``) at each working precision and rounding.

    A compiled bound recomputes its constant subexpressions (``sqrt(5)``, ``log(15000)``, 1200
    bits each) at every point; mpmath's functions are deterministic in the argument, precision
    and rounding, so the remembered value is the very number the call would give.
    """

    def call(argument: Any) -> Any:
        if isinstance(argument, mpmath.mpf):
            key: tuple[Any, ...] = (argument._mpf_, *mpmath.mp._prec_rounding)
        elif type(argument) is int:
            key = (argument, *mpmath.mp._prec_rounding)
        else:
            return function(argument)
        value = cache.get(key)
        if value is None:
            value = cache[key] = function(argument)
        return value

    return call


def _mp_function(expr: sp.Expr, x: sp.Symbol) -> Any:
    """``expr`` compiled to a function of x on mpmath numbers (NaN where it is undefined).

    Each compiled function has its own memo of :data:`_MEMOIZED` calls (:func:`_memoized`),
    released with it.
    """
    namespace: dict[str, Any] = dict(MPMATH_NAMESPACE)
    for name in _MEMOIZED:
        namespace[name] = _memoized(getattr(mpmath, name), {})
    function = sp.lambdify([x], prepare_for_lambdify(expr), modules=[namespace, "mpmath"], cse=True)

    def evaluate(point: Any) -> Any:
        try:
            return mpmath.mpf(function(point))
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            return mpmath.mpf("nan")

    return evaluate
