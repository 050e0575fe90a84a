"""Shared machinery of problem generators and algorithm runs (DESIGN §3, §4, §7).

Three small things every generator and every algorithm wrapper needs, written once:

- :func:`generator`: the one way a wrapper turns a seed into a :class:`numpy.random.Generator`
  (an ``int`` or a :class:`numpy.random.SeedSequence`; ``None`` is refused, since a run must be
  reproducible);
- argument checks (:func:`check_int`, :func:`check_real`, :func:`check_vector`) that raise
  :class:`~fedtheory.errors.ParameterError` naming the parameter, the value and the rule;
- :func:`check_finite_trace`: kernels return their trace and the wrapper raises
  :class:`~fedtheory.errors.DivergenceError` at the first round whose value is not finite.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, TypeAlias

import numpy as np

from fedtheory.errors import DivergenceError, ParameterError

__all__ = [
    "SeedLike",
    "check_finite_trace",
    "check_int",
    "check_real",
    "check_vector",
    "generator",
]

#: What a seed may be: a non-negative integer or a :class:`numpy.random.SeedSequence`.
SeedLike: TypeAlias = "int | np.integer[Any] | np.random.SeedSequence"


def generator(seed: SeedLike, *, parameter: str = "seed") -> np.random.Generator:
    """Return ``numpy.random.default_rng(seed)`` after checking that ``seed`` is reproducible.

    Parameters
    ----------
    seed
        A non-negative integer or a :class:`numpy.random.SeedSequence` (the runner derives one
        per task, DESIGN §4). ``None``, floats and generators are refused: the same seed must
        give the same bits.
    parameter
        Name used in the error message.

    Raises
    ------
    ParameterError
        If ``seed`` is not a non-negative integer or a SeedSequence.

    Examples
    --------
    >>> float(generator(0).random()) == float(generator(0).random())
    True
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise ParameterError(
            parameter=parameter,
            value=seed,
            rule="must be a non-negative integer or a numpy.random.SeedSequence "
            "(runs are reproducible: None is not accepted)",
        )
    return np.random.default_rng(int(seed))


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
