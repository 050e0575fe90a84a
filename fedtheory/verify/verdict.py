"""Verdicts and their outcomes: what a criterion concludes, with the numbers behind it.

A verdict's outcome is ``holds``, ``violated``, ``inconclusive`` (the data cannot decide) or
``error`` (DESIGN §5). Also the small plain-data helpers that everything leaving the process as
JSON goes through (:func:`plain_data`, :func:`format_number`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from fedtheory.errors import ParameterError
from fedtheory.plotting.model import FigureSpec
from fedtheory.verify import _display

__all__ = [
    "ERROR",
    "HOLDS",
    "INCONCLUSIVE",
    "OUTCOMES",
    "VIOLATED",
    "Outcome",
    "Verdict",
    "combine_outcomes",
    "format_ci",
    "format_number",
    "format_seconds",
    "format_value",
    "plain_data",
]

#: The outcome of a verdict whose statement held on the data.
HOLDS = "holds"
#: The outcome of a verdict whose statement the data contradict (with a counterexample).
VIOLATED = "violated"
#: The outcome of a verdict the data cannot decide (the verdict says why).
INCONCLUSIVE = "inconclusive"
#: The outcome of a claim whose experiment or criterion raised.
ERROR = "error"
#: Every possible outcome of a verdict.
OUTCOMES: tuple[str, ...] = (HOLDS, VIOLATED, INCONCLUSIVE, ERROR)
#: A verdict's outcome, one of :data:`OUTCOMES`.
Outcome = Literal["holds", "violated", "inconclusive", "error"]


def combine_outcomes(outcomes: Sequence[str]) -> str:
    """Outcome of a conjunction of checks.

    ``violated`` if any part is violated (one counterexample refutes a universal statement),
    else ``inconclusive`` if any part is, else ``holds``. ``error`` dominates everything.

    >>> combine_outcomes(["holds", "inconclusive", "holds"])
    'inconclusive'
    """
    for outcome in (ERROR, VIOLATED, INCONCLUSIVE):
        if outcome in outcomes:
            return outcome
    if not outcomes:
        raise ParameterError(parameter="outcomes", value=[], rule="needs at least one outcome")
    return HOLDS


@dataclass(frozen=True)
class Verdict:
    """The outcome of a criterion on the measurements, with the numbers behind it.

    Attributes
    ----------
    outcome
        ``holds``, ``violated``, ``inconclusive`` or ``error``.
    reason
        One sentence: why this outcome (for ``inconclusive``: what the data cannot decide).
    predicted, measured
        Short texts for the verdict table, e.g. ``"slope −1 ± 0.1"`` and ``"slope −1.004"``.
    ci
        The confidence interval of the headline number, if any.
    numbers
        Headline numbers (JSON-able floats), e.g. ``{"slope": -1.004, "max_slack": 12.5}``.
    table
        One row per grid point with the numbers behind the verdict.
    figure
        What to draw.
    counterexample
        For ``violated``: a reproducible point (parameters, replicate and seed, measured vs
        predicted).
    where
        For ``error``: ``file:line`` of the innermost frame of the claim's own code (or of the
        library when the claim file is not on the stack) where the exception was raised.
    traceback
        For ``error``: the full traceback, as Python prints it.
    """

    outcome: str
    reason: str
    predicted: str = ""
    measured: str = ""
    ci: tuple[float, float] | None = None
    numbers: dict[str, float] = field(default_factory=dict)
    table: tuple[dict[str, Any], ...] = ()
    figure: FigureSpec | None = None
    counterexample: dict[str, Any] | None = None
    where: str | None = None
    traceback: str | None = None

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ParameterError(
                parameter="outcome", value=self.outcome, rule=f"must be one of {OUTCOMES}"
            )

    @classmethod
    def error(
        cls, message: str, *, where: str | None = None, traceback: str | None = None
    ) -> Verdict:
        """The verdict of a claim whose experiment or criterion failed (``where`` the
        ``file:line`` it failed at, ``traceback`` the full traceback, when known)."""
        return cls(ERROR, message, measured="—", where=where, traceback=traceback)

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "predicted": self.predicted,
            "measured": self.measured,
            "ci": None if self.ci is None else [_json_float(self.ci[0]), _json_float(self.ci[1])],
            "numbers": {k: _json_float(v) for k, v in self.numbers.items()},
            "table": [{k: plain_data(v) for k, v in row.items()} for row in self.table],
            # figures may pad intervals with NaN (e.g. points a fit skipped): strict JSON too
            "figure": None if self.figure is None else plain_data(self.figure.to_dict()),
            "counterexample": plain_data(self.counterexample),
            "where": self.where,
            "traceback": self.traceback,
        }

    def html_rows(self) -> list[tuple[str, str]]:
        """``(label, HTML)`` rows of the verdict's numbers for a display table: predicted,
        measured, CI, reason, headline numbers, the counterexample and where an error was
        raised (texts escaped)."""
        e = _display.escape
        rows = [
            ("Predicted", e(self.predicted or "—")),
            ("Measured", e(self.measured or "—")),
            ("CI", e(format_ci(self.ci))),
            ("Reason", e(self.reason)),
        ]
        if self.numbers:
            numbers = ", ".join(
                f"{k} = {format_number(v, 4, nan='nan')}" for k, v in self.numbers.items()
            )
            rows.append(("Numbers", e(numbers)))
        if self.counterexample:
            example = plain_data(self.counterexample)
            cells = [(str(k), e(format_value(v))) for k, v in example.items()]
            rows.append(("Counterexample", _display.rows_table(cells)))
        if self.where:
            rows.append(("Raised at", f"<code>{e(self.where)}</code>"))
        return rows

    def _repr_html_(self) -> str:
        """What Jupyter shows: the outcome as a badge (a violation red: a verdict alone has no
        expectation) and :meth:`html_rows` in a compact table."""
        status = _display.OUTCOME_STATUS[self.outcome]
        body = (
            f'<div class="ft-card {status}"><div class="ft-head">'
            f'<span class="ft-muted">verdict</span> {_display.badge(status, self.outcome)}</div>'
            f"{_display.rows_table(self.html_rows())}</div>"
        )
        return _display.display(body)


def _json_float(value: Any) -> float | None:
    value = float(value)
    return value if math.isfinite(value) else None


def plain_data(value: Any) -> Any:
    """Strict-JSON data: non-finite floats → None, numpy scalars → Python, tuples → lists.

    Used for everything that leaves the process as JSON (verdicts.json, report tables).

    >>> plain_data({"a": (np.float64(1.5), float("nan")), "b": np.int64(2)})
    {'a': [1.5, None], 'b': 2}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return _json_float(value)
    if isinstance(value, Mapping):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain_data(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def format_ci(ci: Sequence[float] | None) -> str:
    """A confidence interval with 3 significant digits, ``—`` when absent.

    >>> format_ci((-1.0234, -0.98127)), format_ci((0.5, float("inf"))), format_ci(None)
    ('[−1.02, −0.981]', '[0.5, ∞]', '—')
    """
    if ci is None:
        return "—"
    return f"[{format_number(ci[0], nan='nan')}, {format_number(ci[1], nan='nan')}]"


def format_value(value: Any) -> str:
    """Plain text of a table value: numbers with 4 significant digits, mappings as
    ``k=v, …``, sequences as ``[…]``, None as ``—``.

    >>> format_value({"params": {"a": 0.123456, "n": 3}, "seed": None, "ok": True})
    'params=a=0.1235, n=3, seed=—, ok=true'
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return format_number(value, 4, nan="nan")
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={format_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)


def format_seconds(seconds: float | None) -> str:
    """Compact duration.

    >>> format_seconds(14.23), format_seconds(125), format_seconds(None)
    ('14.2 s', '2 min 5 s', '—')
    """
    if seconds is None or not math.isfinite(seconds):
        return "—"
    if seconds < 100:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def format_number(value: float | None, digits: int = 3, *, nan: str = "—") -> str:
    """A number with ``digits`` significant digits, a typographic minus, infinities as ∞.

    >>> format_number(-0.0012345), format_number(float("inf")), format_number(None)
    ('−0.00123', '∞', '—')
    """
    if value is None:
        return "—"
    value = float(value)
    if math.isnan(value):
        return nan
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}g}".replace("-", "−")
