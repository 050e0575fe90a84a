"""Exceptions raised by fedtheory.

Every public entry point validates its inputs and raises one of these with a message that names
the parameter, the offending value and the rule (DESIGN §7). The CLI turns any
:class:`FedTheoryError` into one line on stderr and exit code 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "ConditionError",
    "DivergenceError",
    "FedTheoryError",
    "FloatRangeError",
    "MissingExtraError",
    "NoClaimsError",
    "ParameterError",
    "SolverError",
    "StaleCodeError",
    "StoreError",
]


def _format_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return repr(value) if isinstance(value, str) else str(value)


def format_assignment(values: Mapping[str, Any]) -> str:
    """Render ``{"n": 2, "mu": 0.1}`` as ``n=2, mu=0.1`` (used in error messages)."""
    return ", ".join(f"{name}={_format_value(value)}" for name, value in values.items())


class FedTheoryError(Exception):
    """Base class of every error raised on purpose by fedtheory."""


class ParameterError(FedTheoryError, ValueError):
    """An argument is missing, unknown, of the wrong shape or outside its allowed range.

    Parameters
    ----------
    message
        Full message. When omitted it is built from ``parameter``, ``value`` and ``rule``.
    parameter, value, rule
        The offending parameter, its value and the rule it breaks; kept as attributes so that
        callers can react programmatically.
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        parameter: str | None = None,
        value: Any = None,
        rule: str | None = None,
    ) -> None:
        if message is None:
            if parameter is None or rule is None:
                raise TypeError("ParameterError needs a message or both parameter and rule")
            message = f"{parameter}={_format_value(value)}: {rule}"
        super().__init__(message)
        self.parameter = parameter
        self.value = value
        self.rule = rule


class ConditionError(FedTheoryError, ValueError):
    """A hypothesis of a theorem does not hold for the given values.

    Attributes
    ----------
    bound_id : str
        Identifier of the bound whose hypothesis failed.
    hypothesis : str
        The first failed hypothesis, as text (e.g. ``"n_i >= 4*beta/mu"``).
    values : dict
        Values of the symbols of that hypothesis at the first offending point.
    failed : tuple of str
        Every failed hypothesis, in declaration order.
    """

    def __init__(
        self,
        bound_id: str,
        hypothesis: str,
        values: Mapping[str, Any],
        *,
        failed: tuple[str, ...] = (),
        note: str = "",
    ) -> None:
        self.bound_id = bound_id
        self.hypothesis = hypothesis
        self.values = dict(values)
        self.failed = failed or (hypothesis,)
        self.note = note
        where = f" at {format_assignment(self.values)}" if self.values else ""
        extra = f" ({note})" if note else ""
        more = f"; {len(self.failed) - 1} more hypothesis failed" if len(self.failed) > 1 else ""
        super().__init__(
            f"{bound_id}: hypothesis {hypothesis}{extra} fails{where}{more}"
            " (pass check=False to evaluate outside the theorem's hypotheses)"
        )


class DivergenceError(FedTheoryError, ArithmeticError):
    """An iterative algorithm produced a non-finite iterate.

    Parameters
    ----------
    algorithm
        Name of the algorithm.
    round
        Round (or iteration) at which the first non-finite value appeared.
    value
        The offending value (e.g. the norm of the iterate).
    """

    def __init__(self, algorithm: str, round: int, value: float, *, hint: str = "") -> None:
        self.algorithm = algorithm
        self.round = round
        self.value = value
        message = f"{algorithm} diverged at round {round} (value {_format_value(value)})"
        super().__init__(f"{message}; {hint}" if hint else message)


class SolverError(FedTheoryError, RuntimeError):
    """A numerical solver failed (status other than optimal, or a singular system)."""

    def __init__(self, solver: str, status: str, *, hint: str = "") -> None:
        self.solver = solver
        self.status = status
        message = f"{solver} failed with status {status!r}"
        super().__init__(f"{message}; {hint}" if hint else message)


class FloatRangeError(FedTheoryError, OverflowError):
    """A value is outside the range of float64; use log-space evaluation instead.

    Attributes
    ----------
    log10 : float
        Base-10 logarithm of the absolute value, computed in arbitrary precision.
    """

    def __init__(self, what: str, log10: float, *, hint: str = "") -> None:
        self.log10 = log10
        message = f"{what} is about 10^{log10:.6g}, outside the float64 range"
        super().__init__(f"{message}; {hint}" if hint else message)


class MissingExtraError(FedTheoryError, ImportError):
    """An optional dependency is not installed (the message names the extra to install)."""


class StaleCodeError(FedTheoryError, RuntimeError):
    """The code a task would run is not the code its run fingerprinted (a file changed).

    Raised by a worker that refuses such a task, so that no result is ever stored under the
    fingerprint of other code; the message names the files that differ.
    """


class NoClaimsError(FedTheoryError, LookupError):
    """The paths given hold no claim: nothing to verify (``fedtheory verify`` exits 5)."""


class StoreError(FedTheoryError):
    """The result store cannot be read or written: not ours, corrupted, unwritable.

    Raised for problems of the file itself: an SQLite file that cannot be read (damaged, or
    unreadable enough that it cannot be told apart from a foreign file), a folder that cannot be
    created, a disk that is full or read-only, a lock held past the busy timeout, a write to a
    store opened read-only. The message names the file and what to do. A file that *can* be
    read and is recognisably not a fedtheory result store (another application's database, a
    CSV file, a store with planted triggers or another schema version) is a bad ``store``
    argument instead: :class:`ParameterError`, raised before the file is touched.

    Parameters
    ----------
    path
        The store file.
    problem
        What went wrong (e.g. ``"cannot read it (database disk image is malformed)"``).
    hint
        What to do, e.g. ``"delete it or pass another --store"``.

    Attributes
    ----------
    path : str
        The store file, as given.
    problem : str
        What went wrong.
    """

    def __init__(self, path: Any, problem: str, *, hint: str = "") -> None:
        self.path = str(path)
        self.problem = problem
        message = f"result store {self.path}: {problem}"
        super().__init__(f"{message}; {hint}" if hint else message)
