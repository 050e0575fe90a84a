"""Asymptotic questions asked of a :class:`~fedtheory.bounds.Bound`: exponents and crossovers.

Definitions
-----------
*Exponent.* For a bound B(x) in one variable x (the others fixed), let B(a) be its limit as
x → a (a = ∞ or 0⁺). The exponent is the power p with which B approaches that limit:

    p = lim_{x→a} d log|B(x) − B(a)| / d log x        (B(a) finite)
    p = lim_{x→a} d log B(x) / d log x                (B(a) = ±∞)

Both equal ``p = lim 1 + x·B''(x)/B'(x)``, which needs no knowledge of B(a). Where the bound
is built from powers, logarithms and harmonic numbers, p and the log factors are read off the
leading monomial of B (of B' when B tends to a constant), computed structurally in exact
arithmetic (:mod:`._leading`); otherwise sympy takes the limit, under a CPU-time limit, and past
it the numeric path answers. A bound that
tends to a floor therefore reports the rate at which it reaches the floor (1/N + R² in N: −1), not
the trivial 0 of the floor itself. ``p = ±∞`` means faster than any power (exponential, as in the
linear rate (1 − μ/L)^T), and a bound that is exactly constant near ``a`` (a flat Min/Max regime)
has ``behaviour == "constant"``. Logarithmic factors do not change p; they are reported beside
it (``log_power``, ``loglog_power``: B − B(a) ~ x^p·log(x)^k·log(log(x))^j, see
:func:`_symbolic_log_powers`).

*Regimes.* ``Min``, ``Max`` and ``Piecewise`` are resolved before the limit: the branch active
near ``a`` is selected from the fixed values of the other symbols (e.g. ``Min(m/N, R**2) + 1/N`` in
R is in the ``R**2`` regime near 0, exponent 2, and in the ``m/N`` regime near ∞, constant).

*Crossover.* All points where two bounds are equal in one variable on the variable's domain,
found per regime: breakpoints of every Min/Max/Piecewise split the domain into intervals where both
bounds are smooth expressions; in each interval the equation is solved symbolically (sympy) and,
where that fails, numerically (sign changes on a fine logarithmic grid refined by bisection in
mpmath; a tangential touching point without a sign change is not found by the numeric path).

*Imports.* The functions here take the bound as an argument and use only its public interface
(``id``, ``expr``, ``info``, ``example``, ``hypotheses``, ...) and two of its checks, stated as the
protocol :class:`BoundLike`; :mod:`._bound` imports this module, never the reverse (not even for
the type checker); both draw exact numbers and lambdify helpers from :mod:`._expressions`.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import mpmath
import numpy as np
import sympy as sp

from fedtheory.bounds._expressions import (
    MPMATH_NAMESPACE,
    check_real,
    exact_number,
    mp_harmonic,
    prepare_for_lambdify,
    real_array,
)
from fedtheory.bounds._leading import Rate, Unsupported, leading_term, rate
from fedtheory.bounds._symbols import SymbolInfo
from fedtheory.errors import ParameterError

__all__ = ["BoundLike", "Crossover", "Exponent", "crossover", "exponent", "local_exponent"]


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


Behaviour = Literal["power", "exponential", "constant"]


@dataclass(frozen=True)
class Exponent:
    """The leading power of a bound in one variable at 0 or ∞.

    Attributes
    ----------
    var : str
        The variable.
    at : {"oo", "0"}
        Where the limit is taken.
    power : sympy expression
        Exact (``Rational``, ``±oo``) when ``method == "symbolic"``, a ``Float`` otherwise, or an
        expression in the symbols kept symbolic (``keep=``).
    behaviour : {"power", "exponential", "constant"}
        ``"exponential"`` when the power is ±∞ (faster than any power), ``"constant"`` when the
        bound does not depend on ``var`` near ``at``.
    method : {"symbolic", "numeric"}
        How ``power`` was obtained: exactly (leading terms, or a sympy limit), or the log-log
        slope of successive decades far out (arbitrary precision, until the slope is stable to
        1e-3).
    limit : sympy expression or None
        Limit of the bound itself at ``at`` (``None`` when unknown).
    regime : sympy expression
        The expression in force near ``at`` (Min/Max/Piecewise resolved, fixed values substituted).
    fixed : dict
        The values used for the other symbols.
    log_power : sympy expression or None
        The exponent k of the logarithmic factor: the bound approaches its limit like
        ``var^power · log(var)^k · log(log(var))^j`` (at 0 the factors are ``log(1/var)`` and
        ``log(log(1/var))``). Exact (``Rational``) with the symbolic method, ``0`` when there is no
        log factor (and for the exponential and constant behaviours); ``None`` when it is not
        determined (numeric method, or sympy could not take the limit) — ``power`` is then still
        right, but the bound may carry log factors that ``str`` cannot report.
    loglog_power : sympy expression or None
        The exponent j of the iterated-log factor, as ``log_power``.
    """

    var: str
    at: str
    power: sp.Expr
    behaviour: Behaviour
    method: Literal["symbolic", "numeric"]
    limit: sp.Expr | None
    regime: sp.Expr
    fixed: dict[str, Any] = field(default_factory=dict)
    log_power: sp.Expr | None = field(default=sp.S.Zero)
    loglog_power: sp.Expr | None = field(default=sp.S.Zero)

    def __float__(self) -> float:
        return float(self.power)

    @property
    def is_exact(self) -> bool:
        """True when ``power`` is an exact sympy number (not a numeric estimate)."""
        return self.method == "symbolic"

    @property
    def has_log_factor(self) -> bool | None:
        """Whether the rate carries a log or log-log factor (``None`` when not determined)."""
        if self.behaviour != "power":
            return False
        if self.log_power is None or self.loglog_power is None:
            return None
        return bool(self.log_power != 0 or self.loglog_power != 0)

    def __str__(self) -> str:
        where = "∞" if self.at == "oo" else "0"
        if self.behaviour == "constant":
            return f"constant in {self.var} as {self.var} → {where}"
        if self.behaviour == "exponential":
            speed = "decays" if self.power == -sp.oo else "grows"
            return f"{speed} faster than any power of {self.var} as {self.var} → {where}"
        tag = "" if self.method == "symbolic" else " (numeric"
        if self.log_power is None or self.loglog_power is None:
            tag += "; log factors not determined" if self.method == "symbolic" else ", log factors"
            tag += "" if self.method == "symbolic" else " not determined"
        tag += "" if self.method == "symbolic" else ")"
        return f"{self.rate_text()} as {self.var} → {where}{tag}"

    def rate_text(self) -> str:
        """The rate alone, e.g. ``T^-1``, ``epsilon^-2·log(1/epsilon)``, ``log(log(T))``.

        The power is shown unless it is 0 and a log factor carries the dependence; an exponent
        that is not an integer or a symbol is parenthesised (``T^(-1/2)``, ``log(T)^(1/2)``).
        """
        if self.behaviour == "constant":
            return "constant"
        if self.behaviour == "exponential":
            return "exp" if self.power == sp.oo else "exp-decay"
        inner = self.var if self.at == "oo" else f"1/{self.var}"
        factors = []
        logs = [
            (f"log({inner})", self.log_power),
            (f"log(log({inner}))", self.loglog_power),
        ]
        shown_logs = [(base, k) for base, k in logs if k is not None and k != 0]
        if self.power != 0 or not shown_logs:
            factors.append(f"{self.var}^{_power_string(self.power, self.method)}")
        for base, k in shown_logs:
            factors.append(base if k == 1 else f"{base}^{_power_string(k, self.method)}")
        return "·".join(factors)


def _power_string(power: sp.Expr, method: str) -> str:
    if method != "symbolic":
        return f"{float(power):.4g}"
    if power.is_Integer or power.is_Symbol:
        return str(sp.sstr(power))
    return f"({sp.sstr(power)})"


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


# ---------------------------------------------------------------------------- helpers
def _at_token(at: Any) -> str:
    if isinstance(at, (bool, np.bool_)):  # False == 0 to Python, but it is not a point
        raise ParameterError(parameter="at", value=at, rule='must be "oo" (∞) or 0, got bool')
    if isinstance(at, str) and at.lower() in ("oo", "inf", "infinity", "∞"):
        return "oo"
    if at is sp.oo or (isinstance(at, float) and at == float("inf")):
        return "oo"
    if at in (0, "0", 0.0):
        return "0"
    raise ParameterError(parameter="at", value=at, rule='must be "oo" (∞) or 0')


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


def _sample_points(at: str, x0: float) -> list[mpmath.mpf]:
    """Points approaching ``at`` geometrically (a factor 10 per step) from ``x0``."""
    x0 = mpmath.mpf(abs(x0) if x0 else 1)
    if at == "oo":
        return [x0 * mpmath.mpf(10) ** k for k in range(0, 241)]
    return [x0 * mpmath.mpf(10) ** (-k) for k in range(0, 241)]


@functools.lru_cache(maxsize=256)
def _decades(at: str, x0: float) -> tuple[tuple[mpmath.mpf, ...], tuple[float, ...]]:
    """The points of :func:`_numeric_power` (:func:`_sample_points` at its precision) and
    1/|log10 x_k| for each (``inf`` at x_k = 1), computed once per (at, x0) and process."""
    with mpmath.workdps(_DPS + 300):
        points = tuple(_sample_points(at, x0))
        inverse_logs = []
        for point in points:
            log_point = abs(float(mpmath.log10(point)))
            inverse_logs.append(1.0 / log_point if log_point > 0 else float(np.inf))
    return points, tuple(inverse_logs)


#: Bits to which :func:`_float_log10` first computes a logarithm, and the relative margin
#: (2^-100, far above that computation's error of a few 2^-113) within which the rounding
#: to a double must be decided.
_LOG_ESTIMATE_BITS = 113
_LOG_MARGIN_SHIFT = -100


@functools.cache
def _ln10(bits: int) -> tuple[Any, ...]:
    """log(10) as a raw mpmath value (``mpf._mpf_``) to ``bits`` bits."""
    value: tuple[Any, ...] = mpmath.libmp.mpf_log(mpmath.libmp.from_int(10), bits)
    return value


def _float_log10(value: mpmath.mpf) -> float:
    """``float(mpmath.log10(value))`` at the working precision, bit for bit, mostly from a
    logarithm to :data:`_LOG_ESTIMATE_BITS` bits (a fraction of the cost at 1200 bits).

    The estimate is within a relative few 2^-113 of the exact logarithm, and the logarithm at
    the working precision much closer still; when both ends of estimate·(1 ± 2^-100) round to
    the same double, so does every number between them (rounding is monotonic), the
    working-precision logarithm among them. Otherwise (the logarithm within 2^-100 of a
    rounding boundary, close to 0, or not finite) it is computed at the working precision.
    """
    libmp = mpmath.libmp
    raw = value._mpf_
    if raw[1] and not raw[0]:  # a finite positive number (sign 0, nonzero mantissa)
        bits = _LOG_ESTIMATE_BITS
        estimate = libmp.mpf_div(
            libmp.mpf_log(raw, bits + 20), _ln10(bits + 20), bits, libmp.round_nearest
        )
        margin = libmp.mpf_shift(libmp.mpf_abs(estimate), _LOG_MARGIN_SHIFT)
        low = libmp.to_float(libmp.mpf_sub(estimate, margin, bits), rnd=libmp.round_nearest)
        high = libmp.to_float(libmp.mpf_add(estimate, margin, bits), rnd=libmp.round_nearest)
        if low == high and abs(low) > 2.0**-20:
            return float(low)
    return float(mpmath.log10(value))


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


def _sign_near(h: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool) -> int:
    """Sign of h(x) as x → at (0 when h vanishes identically there).

    A pure function of its arguments (sympy expressions are immutable), computed once per
    process: ``exponent(..., method="auto")`` and ``method="numeric"`` test the same hypotheses
    and regimes (:func:`_check_path`, :func:`resolve_regime`), each test a simplify and a limit.
    A refusal (:class:`ParameterError`) is remembered as its message and raised again.
    """
    outcome = _cached_sign_near(h, x, at, allow_numeric)
    if isinstance(outcome, str):
        raise ParameterError(outcome)
    return outcome


@functools.lru_cache(maxsize=4096)
def _cached_sign_near(h: sp.Expr, x: sp.Symbol, at: str, allow_numeric: bool) -> int | str:
    try:
        return _computed_sign_near(h, x, at, allow_numeric=allow_numeric)
    except ParameterError as error:
        return str(error)


def _computed_sign_near(h: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool) -> int:
    structural = _structural_sign(h, x, at)
    if structural is not None:
        return structural
    h = _simplified(h) if h.count_ops() < 60 else h
    if h == 0:
        return 0
    try:
        value = _sympy(sp.limit, h, x, sp.oo if at == "oo" else 0, "+" if at == "0" else "-")
    except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
        value = None
    if value is not None and not value.has(sp.Limit) and not isinstance(value, sp.AccumBounds):
        if value.is_positive:
            return 1
        if value.is_negative:
            return -1
        if value.is_zero and allow_numeric:
            pass  # both sides tend to the same value: decide from the values near `at`
        elif value.is_zero:
            raise ParameterError(
                f"cannot decide which branch of a Min/Max is active as {x} → {at}: both sides "
                f"have the same limit; fix more symbols"
            )
    if not allow_numeric:
        raise ParameterError(
            f"cannot decide the sign of {h} as {x} → {at} with symbols left free; fix them"
        )
    function = _mp_function(h, x)
    signs = set()
    with mpmath.workdps(2 * _DPS):
        for k in (20, 40, 80):
            point = mpmath.mpf(10) ** (k if at == "oo" else -k)
            value = function(point)
            if mpmath.isnan(value):
                continue
            signs.add(0 if value == 0 else (1 if value > 0 else -1))
    if len(signs) != 1:
        raise ParameterError(f"cannot decide the sign of {h} as {x} → {'∞' if at == 'oo' else 0}")
    return signs.pop()


def _structural_sign(h: sp.Expr, x: sp.Symbol, at: str) -> int | None:
    """The sign of h near ``at`` from its leading term (:func:`._leading.leading_term`: exact,
    milliseconds), ``None`` when the rules cannot decide or h is the constant 0."""
    t = sp.Dummy("t", positive=True)
    try:
        lead = leading_term(h.xreplace({x: t if at == "oo" else 1 / t}), t)
        return None if lead is None else lead.sign()
    except Unsupported:
        return None


def _truth_near(condition: sp.Basic, x: sp.Symbol, at: str, *, allow_numeric: bool) -> bool:
    if condition in (sp.true, sp.false):
        return bool(condition)
    if isinstance(condition, sp.And):
        return all(_truth_near(c, x, at, allow_numeric=allow_numeric) for c in condition.args)
    if isinstance(condition, sp.Or):
        return any(_truth_near(c, x, at, allow_numeric=allow_numeric) for c in condition.args)
    if isinstance(condition, sp.Not):
        return not _truth_near(condition.args[0], x, at, allow_numeric=allow_numeric)
    if isinstance(condition, sp.core.relational.Relational):
        sign = _sign_near(condition.lhs - condition.rhs, x, at, allow_numeric=allow_numeric)
        op = condition.rel_op
        return {
            "<": sign < 0,
            "<=": sign <= 0,
            ">": sign > 0,
            ">=": sign >= 0,
            "==": sign == 0,
            "!=": sign != 0,
        }[op]
    raise ParameterError(f"cannot decide the condition {condition} as {x} → {at}")


def resolve_regime(expr: sp.Expr, x: sp.Symbol, at: str, *, allow_numeric: bool = True) -> sp.Expr:
    """Replace every Min/Max/Piecewise depending on ``x`` by its branch active as x → at."""
    if not expr.has(x) or not expr.has(*_BRANCHING):
        return expr
    if isinstance(expr, (sp.Min, sp.Max)):
        args = [resolve_regime(a, x, at, allow_numeric=allow_numeric) for a in expr.args]
        best = args[0]
        for candidate in args[1:]:
            sign = _sign_near(candidate - best, x, at, allow_numeric=allow_numeric)
            if (isinstance(expr, sp.Min) and sign < 0) or (isinstance(expr, sp.Max) and sign > 0):
                best = candidate
        return best
    if isinstance(expr, sp.Piecewise):
        for branch, condition in expr.args:
            if _truth_near(condition, x, at, allow_numeric=allow_numeric):
                return resolve_regime(branch, x, at, allow_numeric=allow_numeric)
        raise ParameterError(f"no branch of {expr} applies as {x} → {at}")
    return expr.func(*[resolve_regime(a, x, at, allow_numeric=allow_numeric) for a in expr.args])


def _symbolic_power(
    regime: sp.Expr, x: sp.Symbol, at: str
) -> tuple[sp.Expr, Behaviour, sp.Expr | None]:
    """The power (exact), its behaviour and the log-derivative ``d log|B'| / dx`` it was taken
    from (``None`` for a constant), which :func:`_symbolic_log_powers` reuses."""
    first = sp.diff(regime, x)
    if first == 0 or (not _nonzero_somewhere(first, x) and _sympy(sp.simplify, first) == 0):
        return sp.Integer(0), "constant", None
    point, direction = (sp.oo, "-") if at == "oo" else (sp.Integer(0), "+")
    # x·B''/B' as the derivative of log|B'| (expanded: products and powers become sums, which
    # keeps sympy's limit fast on expressions such as ((L - mu)/(L + mu))**40)
    factored = _sympy(sp.factor, first)
    log_derivative = sp.diff(sp.expand_log(sp.log(factored), force=True), x)
    power = _sympy(sp.limit, 1 + x * log_derivative, x, point, direction)
    if power.has(sp.Limit) or isinstance(power, sp.AccumBounds) or power.has(x) or power is sp.nan:
        raise NotImplementedError("sympy could not take the limit")
    if power.has(sp.zoo):
        raise NotImplementedError("sympy returned an undirected infinity")
    power = sp.nsimplify(power) if power.is_Float else power
    if power in (sp.oo, -sp.oo):
        return power, "exponential", log_derivative
    return power, "power", log_derivative


#: Where :func:`_nonzero_somewhere` evaluates a derivative (two points, in case one is a pole
#: or a root), with the sign the variable's assumptions require, and the CPU seconds each
#: evaluation may take (a probe that takes longer proves nothing; simplify then decides).
_PROBES = (sp.Rational(7, 3), sp.Rational(3, 11))
_PROBE_TIME_LIMIT = 0.5
#: What ends a probe without a proof (``PrecisionExhausted`` is an ``ArithmeticError``).
_PROBE_FAILURES: tuple[type[BaseException], ...] = (
    _SympyTimeout,
    NotImplementedError,
    ArithmeticError,
    *_SYMPY_FAILURES,
)


def _nonzero_somewhere(expr: sp.Expr, x: sp.Symbol) -> bool:
    """True when ``expr``, whose only free symbol is ``x``, is proved not identically zero: its
    exact value at a point of x's domain is a real number that evalf resolves to full accuracy
    and finds nonzero (``strict=True``: an unresolved cancellation is not taken for a value).

    Then ``simplify(expr) == 0`` is false (simplify keeps the value of the expression where the
    assumptions of x hold), so the test costs an evaluation instead of a simplify; ``False``
    ("not proved") leaves the decision to simplify.
    """
    if expr.free_symbols != {x}:
        return False
    sign = -1 if (x.is_negative or x.is_nonpositive) else 1
    for probe in _PROBES:
        try:
            with _time_limit(_PROBE_TIME_LIMIT):
                value = expr.xreplace({x: sign * probe}).evalf(30, strict=True)
        except _PROBE_FAILURES:
            continue
        if value.is_Float and value.is_finite and value != 0:
            return True
    return False


def _symbolic_log_powers(
    regime: sp.Expr, x: sp.Symbol, at: str, power: sp.Expr, log_derivative: sp.Expr
) -> tuple[sp.Expr | None, sp.Expr | None]:
    """Exponents ``(k, j)`` of ``log^k · (log log)^j`` in the rate ``x^power`` (exact; ``None``
    when sympy cannot take a limit).

    With D = B' ~ c·x^(p−1)·ℓ^a·(log ℓ)^b, ℓ = |log x|, the logarithmic derivative is
    r = x·D'/D = (p − 1) + a/log x + b/(log x · log ℓ) + o(·), so with s = ±1 the sign of
    log x (+1 at ∞, −1 at 0) and ℓ = log t for t = x or 1/x,
    a = s·lim ℓ·(r − (p − 1)) and b = lim log ℓ·(s·ℓ·(r − (p − 1)) − a).
    B − B(a) is then c′·x^p·ℓ^a·(log ℓ)^b when p ≠ 0; when p = 0, B = ∫D dx lifts the first
    non-vanishing power by one: ℓ^(a+1)·(log ℓ)^b if a ≠ −1, else (log ℓ)^(b+1).

    An algebraic expression in x (sums, products and constant powers only) has no log factor:
    its expansion is a Puiseux series, so ``(0, 0)`` is returned without a limit; so has an
    expression that is a (generalized) Puiseux series near ``at`` for another reason
    (:func:`_puiseux_at`: e.g. exp(−500·η) + (1 − 10·η)^50 as η → 0, log 2 / log(κ/(κ − 1)) as
    κ → ∞), where the two limits took seconds.
    """
    if _algebraic_in(regime, x) or _puiseux_at(regime, x, at):
        return sp.Integer(0), sp.Integer(0)
    try:
        return _log_power_limits(log_derivative, x, at, power)
    except NotImplementedError:  # sympy gave up: the power stands, the log factors are unknown
        return None, None


def _algebraic_in(expr: sp.Expr, x: sp.Symbol) -> bool:
    """Whether ``expr`` is built from x by sums, products and powers with x-free exponents."""
    for node in sp.preorder_traversal(expr):
        if not node.has(x) or node == x or isinstance(node, (sp.Add, sp.Mul)):
            continue
        if isinstance(node, sp.Pow) and not node.exp.has(x):
            continue
        return False
    return True


#: Functions analytic at every real point: applied to a Puiseux series with a finite limit,
#: they give a Puiseux series (the Taylor series of the function, composed).
_ANALYTIC = (sp.exp, sp.sin, sp.cos, sp.sinh, sp.cosh, sp.atan)


def _puiseux_at(expr: sp.Expr, x: sp.Symbol, at: str) -> bool:
    """Whether ``expr`` is, near ``at``, a convergent generalized Puiseux series: a sum of
    powers of x (of 1/x at ∞) with real exponents, without logarithmic factors.

    Proved structurally, in the variable t = x (at 0) or t = 1/x (at ∞), as t → 0⁺: constants
    and t itself; sums, products, and powers with t-free exponents of such series (as in
    :func:`_algebraic_in`); ``c**g`` for a positive constant c, ``exp``, ``sin``, ``cos``,
    ``sinh``, ``cosh`` and ``atan`` of a series g with a finite limit L (their Taylor series at
    L, composed with g); ``log(g)`` when L > 0; ``asin(g)`` and ``acos(g)`` when |L| ≤ 1
    (analytic inside; at L = ±1, asin(g) = ±(π/2 − √(2(1 ∓ g))·h(1 ∓ g)) with h analytic at 0,
    a series again). L is finite when every sub-expression has a finite value at t = 0
    (:func:`_value_at_zero`). The logarithmic derivative of such a series, hence its log
    factors, are then exactly 0. ``False`` means "not proved".
    """
    if at == "oo":
        t = sp.Dummy("t", positive=True)
        expr, x = expr.xreplace({x: 1 / t}), t
    return _puiseux_at_zero(expr, x)


def _puiseux_at_zero(expr: sp.Expr, x: sp.Symbol) -> bool:
    if not expr.has(x) or expr == x:
        return True
    if isinstance(expr, (sp.Add, sp.Mul)):
        return all(_puiseux_at_zero(a, x) for a in expr.args)
    if isinstance(expr, sp.Pow):
        base, power = expr.args
        if not power.has(x):
            return _puiseux_at_zero(base, x)
        return not base.has(x) and base.is_positive is True and _value_at_zero(power, x) is not None
    if isinstance(expr, _ANALYTIC):
        return _value_at_zero(expr.args[0], x) is not None
    if isinstance(expr, sp.log):
        value = _value_at_zero(expr.args[0], x)
        return value is not None and value.is_positive is True
    if isinstance(expr, (sp.asin, sp.acos)):
        value = _value_at_zero(expr.args[0], x)
        return value is not None and value.is_real is True and (sp.Abs(value) <= 1) == sp.true
    return False


def _value_at_zero(expr: sp.Expr, x: sp.Symbol) -> sp.Expr | None:
    """The limit of ``expr`` as x → 0⁺ when :func:`_puiseux_at_zero` holds and every
    sub-expression has a finite value at x = 0 (then each node is continuous at the values of
    its arguments, and the value is the limit); ``None`` otherwise."""
    if not expr.has(x):
        return expr if expr.is_finite is True else None
    if expr == x:
        return sp.Integer(0)
    if not _puiseux_at_zero(expr, x):
        return None
    values = []
    for argument in expr.args:
        value = _value_at_zero(argument, x)
        if value is None:
            break
        values.append(value)
    else:
        result = expr.func(*values)
        if result.is_finite is True:
            return result
    if expr.is_rational_function(x):  # a removable singularity, as in (1/x)/(1/x − 1) = 1/(1 − x)
        reduced = sp.cancel(expr)
        if reduced != expr:
            return _value_at_zero(reduced, x)
    return None


def _log_power_limits(
    log_derivative: sp.Expr, x: sp.Symbol, at: str, power: sp.Expr
) -> tuple[sp.Expr | None, sp.Expr | None]:
    t = sp.Dummy("t", positive=True)
    ratio = x * log_derivative - (power - 1)
    if at == "0":
        ratio, sign = ratio.xreplace({x: 1 / t}), -1
    else:
        ratio, sign = ratio.xreplace({x: t}), 1

    def _limit(expression: sp.Expr) -> sp.Expr | None:
        try:
            value = _sympy(sp.limit, expression, t, sp.oo)
        except NotImplementedError:
            return None
        if (
            value.has(sp.Limit, sp.zoo, sp.nan, t)
            or isinstance(value, sp.AccumBounds)
            or value in (sp.oo, -sp.oo)
        ):
            return None
        return sp.nsimplify(value) if value.is_Float else value

    ell = sp.log(t)
    a = _limit(sign * ell * ratio)
    if a is None:
        return None, None
    b = _limit(sp.log(ell) * (sign * ell * ratio - a))
    if b is None:
        return (None, None) if power == 0 else (a, None)
    if power != 0:
        return a, b
    if a != -1:
        return a + 1, b
    return sp.Integer(0), b + 1


class _LazyValues:
    """B(points[k]) at a given precision, computed on first access (some searches stop early),
    :data:`_CHUNK` points at a time: switching mpmath's precision costs more than evaluating a
    simple bound, and a value does not depend on when it is computed."""

    _CHUNK = 32

    def __init__(self, function: Any, points: list[Any], dps: int) -> None:
        self._function, self._points, self._dps = function, points, dps
        self._cache: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self._points)

    def __getitem__(self, k: int) -> Any:
        if k not in self._cache:
            with mpmath.workdps(self._dps):
                for j in range(k, min(k + self._CHUNK, len(self._points))):
                    if j not in self._cache:
                        self._cache[j] = self._function(self._points[j])
        return self._cache[k]


def _numeric_power(
    expr: sp.Expr, x: sp.Symbol, at: str, x0: float
) -> tuple[sp.Expr, Behaviour, Any]:
    """Log-log slope of successive differences over decades, in arbitrary precision.

    With D_k = B(x_{k+1}) − B(x_k) on points x_k = x0·10^{±k}, a bound approaching its limit as
    c·x^p has log10|D_{k+1}/D_k| = p exactly; logarithmic factors add a term in 1/log x, which is
    removed by extrapolating the slopes linearly and quadratically in u = 1/|log10 x_k| to u = 0.
    Differences that vanish after a steepening decay mean faster than any power.
    """
    function = _mp_function(expr, x)
    points, point_inverse_logs = _decades(at, x0)
    with mpmath.workdps(_DPS + 300):
        values = _LazyValues(function, list(points), _DPS + 300)
        # a second, lower precision detects cancellation
        check_values = _LazyValues(function, list(points), _DPS + 200)
        slopes: list[float] = []
        inverse_logs: list[float] = []
        zero_run = 0
        tolerance = mpmath.mpf(1e-9)  # the float 1e-9 exactly, converted once
        later = values[1] - values[0]
        for k in range(1, len(values) - 1):
            earlier = later  # values[k] − values[k − 1], computed in the previous step
            later = values[k + 1] - values[k]
            if mpmath.isnan(earlier) or mpmath.isnan(later) or mpmath.isinf(later):
                break
            if earlier == 0 and later == 0:
                zero_run += 1
                if zero_run >= 5:
                    if slopes and slopes[-1] < -2 and slopes[-1] <= slopes[0]:
                        # the differences fell below the working precision after a steepening
                        # decay: faster than any power
                        return -sp.oo, "exponential", values[k + 1]
                    if not slopes:
                        return sp.Integer(0), "constant", values[k + 1]
                    break
                continue
            zero_run = 0
            if earlier == 0 or later == 0:
                continue
            check = check_values[k + 1] - check_values[k]
            if mpmath.isnan(check) or abs(check - later) > tolerance * abs(later):
                break  # the difference is not resolved at the working precision: stop sampling
            slope = _float_log10(abs(later) / abs(earlier))
            slopes.append(-slope if at == "0" else slope)
            inverse_logs.append(point_inverse_logs[k])
            if len(slopes) >= 4:
                last = slopes[-4:]
                if all(v < -60 for v in last) and last[-1] < last[0]:
                    return -sp.oo, "exponential", values[k + 1]
                if all(v > 60 for v in last) and last[-1] > last[0]:
                    return sp.oo, "exponential", values[k + 1]
        last_value = values[min(len(slopes) + 1, len(values) - 1)]
    if len(slopes) >= 12:
        tail = np.array(slopes[len(slopes) // 2 :])
        u = np.array(inverse_logs[len(slopes) // 2 :])
        if np.ptp(tail[-10:]) < 1e-9:
            return sp.Float(float(tail[-1]), 6), "power", last_value
        if np.all(np.isfinite(u)):
            design = np.vstack([np.ones_like(u), u, u**2]).T
            coefficients, *_ = np.linalg.lstsq(design, tail, rcond=None)
            residual = float(np.sqrt(np.mean((design @ coefficients - tail) ** 2)))
            if residual < 1e-5:
                power = float(coefficients[0])
                return sp.Float(0.0 if abs(power) < 1e-6 else power, 6), "power", last_value
    raise ParameterError(
        f"the log-log slope of {expr} in {x} does not settle as {x} → "
        f"{'∞' if at == 'oo' else 0}; the exponent is not defined numerically"
    )


def exponent(
    bound: BoundLike,
    var: str,
    at: Any = "oo",
    *,
    keep: Iterable[str] = (),
    method: Literal["auto", "symbolic", "numeric"] = "auto",
    **fixed: Any,
) -> Exponent:
    """Leading power of ``bound`` in ``var`` as ``var`` → ∞ or → 0 (see the module docstring).

    Parameters
    ----------
    bound
        The bound.
    var
        Name of a scalar symbol of the bound.
    at
        ``"oo"`` (default) or ``0``.
    keep
        Names of symbols to keep symbolic: the power is then an expression in them (only the
        symbolic method can do this), e.g. ``exponent("r", keep=["eta", "d"])`` → ``-2*eta/d``.
    method
        ``"symbolic"`` (sympy limit only), ``"numeric"`` (decade slopes only) or ``"auto"``
        (symbolic, falling back to numeric).
    **fixed
        Values of the other symbols; those not given take their example values (unknown
        constants of order bounds take 1, which does not change any power).

    Returns
    -------
    Exponent

    Raises
    ------
    ParameterError
        Unknown names, ``var`` a sequence (or indexing one), an integer ``var`` at 0, or an
        exponent neither method can determine.
    """
    info = bound.info
    if var not in info:
        raise ParameterError(bound._unknown_message(var))
    if info[var].role == "sequence":
        raise ParameterError(parameter="var", value=var, rule="is a sequence, not a scalar symbol")
    token = _at_token(at)
    x = info[var].symbol
    if token == "0" and x.is_integer:
        raise ParameterError(
            parameter="at", value=at, rule=f"{var} is an integer; only at='oo' is meaningful"
        )
    if method not in ("auto", "symbolic", "numeric"):
        raise ParameterError(
            parameter="method", value=method, rule="must be 'auto', 'symbolic' or 'numeric'"
        )
    keep = list(keep)
    expr, used = _substituted(bound, var, fixed, keep, example_defaults=True)
    allow_numeric = not keep
    if method == "numeric" and keep:
        raise ParameterError(parameter="keep", value=keep, rule="needs the symbolic method")
    _check_path(bound, var, x, token, used, allow_numeric=allow_numeric)
    original, x = x, _continuous(x)
    regime = resolve_regime(expr.xreplace({original: x}), x, token, allow_numeric=allow_numeric)
    shown = regime.xreplace({x: original})
    nonsmooth = any(node.has(x) for node in regime.atoms(*_NONSMOOTH))
    if method in ("auto", "symbolic") and not nonsmooth:
        structural = _structural_rate(regime, x, token) if not keep else None
        if structural is not None:
            return Exponent(
                var,
                token,
                structural.power,
                "power",
                "symbolic",
                structural.limit,
                shown,
                used,
                structural.log_power,
                structural.loglog_power,
            )
        try:
            power, behaviour, log_derivative = _symbolic_power(regime, x, token)
            logs: tuple[sp.Expr | None, sp.Expr | None] = (sp.Integer(0), sp.Integer(0))
            if behaviour == "power" and log_derivative is not None:
                logs = _symbolic_log_powers(regime, x, token, power, log_derivative)
            point = sp.oo if token == "oo" else sp.Integer(0)
            try:
                limit = _sympy(sp.limit, regime, x, point, "+" if token == "0" else "-")
                limit = None if limit.has(sp.Limit) else limit
            except (NotImplementedError, ValueError, TypeError, RecursionError):
                limit = None
            return Exponent(var, token, power, behaviour, "symbolic", limit, shown, used, *logs)
        except (NotImplementedError, ValueError, TypeError, RecursionError, AttributeError):
            if method == "symbolic" or not allow_numeric:
                raise ParameterError(
                    f"sympy cannot determine the exponent of {bound.id} in {var} at {token}"
                    + ("" if allow_numeric else "; fix the kept symbols to allow a numeric answer")
                ) from None
    elif method == "symbolic" or not allow_numeric:
        raise ParameterError(
            f"{bound.id} contains ceiling/floor in {var}: only method='numeric' applies"
            + ("" if allow_numeric else ", which needs values for the kept symbols")
        )
    x0 = float(bound.example.get(var, 1) or 1)
    power, behaviour, last = _numeric_power(regime, x, token, x0)
    grows = behaviour == "power" and float(power) > 0
    limit = sp.oo if grows else (sp.Float(float(last), 15) if mpmath.isfinite(last) else None)
    logs = (None, None) if behaviour == "power" else (sp.Integer(0), sp.Integer(0))
    return Exponent(var, token, power, behaviour, "numeric", limit, shown, used, *logs)


def _structural_rate(regime: sp.Expr, x: sp.Symbol, at: str) -> Rate | None:
    """The rate from leading terms (:func:`._leading.rate`: exact, milliseconds), ``None``
    when its rules cannot decide or the regime is constant (sympy's limit then decides)."""
    try:
        return rate(regime, x, at)
    except Unsupported:
        return None


def _check_path(
    bound: BoundLike,
    var: str,
    x: sp.Symbol,
    at: str,
    used: Mapping[str, Any],
    *,
    allow_numeric: bool,
) -> None:
    """Refuse a limit that leaves the theorem's hypotheses (δ → ∞ when δ < 1 is assumed)."""
    substitutions = {
        bound.info[n].symbol: exact_number(v)
        for n, v in used.items()
        if bound.info[n].role != "sequence"
    }
    items = tuple(substitutions.items())
    for hypothesis in bound.hypotheses:
        relation = _with_values(hypothesis.relation, items, harmonics=False)
        if not relation.has(x) or relation.free_symbols - {x}:
            continue
        try:
            holds = _truth_near(relation, x, at, allow_numeric=allow_numeric)
        except ParameterError:
            continue
        if not holds:
            raise ParameterError(
                f"{bound.id}: {var} → {'∞' if at == 'oo' else 0} leaves the theorem's hypotheses "
                f"({hypothesis} fails there with the other values fixed at "
                f"{', '.join(f'{k}={v}' for k, v in used.items())})"
            )


def local_exponent(bound: BoundLike, var: str, at: float, **fixed: Any) -> float:
    """Local log-log slope ``d log B / d log var`` at ``var = at`` (arbitrary precision).

    Other symbols take ``fixed`` values or their example values. Min/Max regimes are those in
    force at ``at``; at a kink the numerical derivative averages the two sides.
    """
    info = bound.info
    if var not in info or info[var].role == "sequence":
        raise ParameterError(bound._unknown_message(var))
    check_real("at", at, arrays=False)
    if not 0 < float(at) < float("inf"):
        raise ParameterError(
            parameter="at", value=at, rule="must be positive and finite (log scale)"
        )
    expr, _ = _substituted(bound, var, fixed, (), example_defaults=True)
    function = _mp_function(expr, info[var].symbol)
    with mpmath.workdps(_DPS):
        point = mpmath.mpf(at)
        value = function(point)
        if not mpmath.isfinite(value) or value == 0:
            raise ParameterError(
                f"{bound.id} is zero or undefined at {var}={at}; no log-log slope there"
            )
        slope = mpmath.diff(lambda t: mpmath.log(abs(function(mpmath.exp(t)))), mpmath.log(point))
    return float(slope)


# ---------------------------------------------------------------------------- crossover
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
