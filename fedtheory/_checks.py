"""Argument checks shared by every generator and algorithm wrapper (DESIGN §7).

Each check raises :class:`~fedtheory.errors.ParameterError` naming the parameter, the value and
the rule, and returns the value in its canonical type:

- :func:`check_int`, :func:`check_real`: counts and real parameters;
- :func:`check_vector`: a finite float64 array of a given shape (a copy);
- :func:`check_weights`: client weights on the probability simplex;
- :func:`check_finite_trace`: kernels return their trace and the wrapper raises
  :class:`~fedtheory.errors.DivergenceError` at the first round whose value is not finite.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from fedtheory.errors import DivergenceError, ParameterError

__all__ = [
    "check_finite_trace",
    "check_int",
    "check_real",
    "check_vector",
    "check_weights",
]


def check_int(name: str, value: Any, *, minimum: int) -> int:
    """Return ``value`` as an ``int`` after checking it is an integer ≥ ``minimum``.

    Booleans and integral floats (``3.0``) are refused: a count is an integer.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ParameterError(parameter=name, value=value, rule="must be an integer")
    if int(value) < minimum:
        raise ParameterError(parameter=name, value=value, rule=f"must be at least {minimum}")
    return int(value)


def check_real(
    name: str,
    value: Any,
    *,
    positive: bool = False,
    nonnegative: bool = False,
    below: float | None = None,
) -> float:
    """Return ``value`` as a finite ``float`` satisfying the requested sign and upper limit.

    Parameters
    ----------
    name
        Parameter name for the error message.
    value
        The value to check (a real number; booleans are refused).
    positive, nonnegative
        Require ``value > 0`` (resp. ``value ≥ 0``).
    below
        Require ``value < below``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterError(parameter=name, value=value, rule="must be a real number")
    number = float(value)
    if not math.isfinite(number):
        raise ParameterError(parameter=name, value=number, rule="must be finite")
    if positive and not number > 0:
        raise ParameterError(parameter=name, value=number, rule="must be positive")
    if nonnegative and not number >= 0:
        raise ParameterError(parameter=name, value=number, rule="must be non-negative")
    if below is not None and not number < below:
        raise ParameterError(parameter=name, value=number, rule=f"must be below {below:.6g}")
    return number


def check_vector(name: str, value: Any, *, shape: tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a contiguous finite float64 array of the given shape (a copy).

    Raises
    ------
    ParameterError
        If ``value`` is not numeric, has another shape, or holds NaN or inf.
    """
    try:
        array = np.array(value, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        raise ParameterError(
            parameter=name, value=value, rule="must be an array of real numbers"
        ) from None
    if array.shape != shape:
        raise ParameterError(
            parameter=name, value=f"array of shape {array.shape}", rule=f"must have shape {shape}"
        )
    if not np.isfinite(array).all():
        raise ParameterError(
            parameter=name, value="array with NaN or inf", rule="must hold finite numbers"
        )
    return np.ascontiguousarray(array)


def check_finite_trace(
    algorithm: str,
    traces: tuple[np.ndarray, ...],
    rounds: np.ndarray | None = None,
    *,
    hint: str = "",
) -> None:
    """Raise :class:`DivergenceError` at the first round where any trace is not finite.

    Parameters
    ----------
    algorithm
        Algorithm name for the message.
    traces
        One-dimensional arrays of equal length, entry ``i`` belonging to round ``rounds[i]``
        (or to round ``i`` when ``rounds`` is None).
    rounds
        Round number of each entry.
    hint
        Appended to the message (e.g. ``"step 0.3 exceeds 2/L = 0.2"``).
    """
    bad = np.zeros(traces[0].shape, dtype=bool)
    for trace in traces:
        bad |= ~np.isfinite(trace)
    if not bad.any():
        return
    index = int(np.argmax(bad))
    value = next(float(trace[index]) for trace in traces if not np.isfinite(trace[index]))
    round_ = int(rounds[index]) if rounds is not None else index
    raise DivergenceError(algorithm, round_, value, hint=hint)


def check_weights(weights: Any, m: int, *, parameter: str = "weights") -> np.ndarray:
    """Return ``weights`` as a float64 vector on the probability simplex of ℝ^m.

    Raises
    ------
    ParameterError
        If the shape is not ``(m,)``, an entry is negative or not finite, or the sum differs
        from 1 by more than 1e-9.
    """
    p = np.asarray(weights, dtype=np.float64)
    if p.shape != (m,):
        raise ParameterError(parameter=parameter, value=p.shape, rule=f"must have shape ({m},)")
    if not np.all(np.isfinite(p)) or p.min() < 0 or abs(p.sum() - 1.0) > 1e-9:
        raise ParameterError(
            parameter=parameter,
            value=np.round(p, 6).tolist(),
            rule="must lie on the simplex (p_i ≥ 0, Σ p_i = 1)",
        )
    return p
