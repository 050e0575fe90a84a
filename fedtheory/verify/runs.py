"""Runs are kept: what one ``fedtheory verify`` run concluded, and what changed between two.

Each run of ``fedtheory verify`` is recorded in the result store
(:meth:`~fedtheory.verify.store.ResultStore.record_run`) with one plain-data record per claim
(:func:`run_record`). ``fedtheory runs list`` shows the runs; ``fedtheory runs diff A B`` compares
two of them (:func:`diff_runs`): the claims whose status or outcome flipped, those whose headline
number moved beyond its confidence interval, and the claims added or removed. ``fedtheory verify
--lf`` reruns the claims that were not acceptable in the newest run (:func:`last_failed`).

Run tokens (:func:`resolve_run`): an id (``3``), ``last`` (the newest run), ``previous`` (the one
before it), or a negative index counted from the newest as in Python (``-1`` is ``last``, ``-2``
is ``previous``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fedtheory.errors import ParameterError
from fedtheory.verify.verdict import plain_data

if TYPE_CHECKING:
    from fedtheory.verify.claim import ClaimResult
    from fedtheory.verify.store import ResultStore

__all__ = [
    "HEADLINES",
    "Flip",
    "Move",
    "RunDiff",
    "diff_runs",
    "headlines",
    "last_failed",
    "resolve_run",
    "run_record",
]

#: Keys of a verdict's ``numbers`` that hold the number its ``ci`` is the interval of, by
#: criterion: :class:`~fedtheory.verify.criteria.RateExponent` (``exponent``: the fitted slope,
#: or the exponent of the fit with a floor), :class:`~fedtheory.verify.criteria.Crossing`
#: (``crossing``: where the curves cross); ``slope`` for a criterion that names it so. The first
#: key present is the headline. The bound criteria (``UpperBoundHolds``, ``LowerBoundHolds``,
#: ``WorstCaseHolds``), ``Identity`` and ``Monotone`` give no CI, so they have no headline.
HEADLINES: tuple[str, ...] = ("exponent", "crossing", "slope")


def run_record(result: ClaimResult) -> dict[str, Any]:
    """What a run keeps of one judged claim: plain, strict-JSON data (non-finite floats → None).

    Keys: ``claim``, ``paper``, ``status``, ``outcome``, ``expect``, ``gating``, ``passed``,
    ``acceptable``, ``predicted``, ``measured``, ``ci`` (``[low, high]`` or None), ``numbers``,
    ``reason``, ``where`` (for an error), ``file``, ``compute_seconds``, ``n_computed``,
    ``n_cached``.
    """
    verdict = result.verdict
    record = {
        "claim": result.claim.id,
        "paper": result.claim.paper,
        "status": result.status,
        "outcome": verdict.outcome,
        "expect": result.claim.expect,
        "gating": result.claim.gating,
        "passed": result.passed,
        "acceptable": result.acceptable,
        "predicted": verdict.predicted,
        "measured": verdict.measured,
        "ci": None if verdict.ci is None else [verdict.ci[0], verdict.ci[1]],
        "numbers": dict(verdict.numbers),
        "reason": verdict.reason,
        "where": verdict.where,
        "file": result.file,
        "compute_seconds": result.compute_seconds,
        "n_computed": result.n_computed,
        "n_cached": result.n_cached,
    }
    plain: dict[str, Any] = plain_data(record)
    return plain


# --------------------------------------------------------------------------- choosing runs


def resolve_run(store: ResultStore, token: str | int) -> int:
    """The id of the run a token names (see the module docstring).

    Raises
    ------
    ParameterError
        On ``run``: the store has no runs, the token names none of them (the message gives
        the ids there are), or it is not an id, ``last``, ``previous`` or a negative index.
    """
    ids = [int(r["id"]) for r in store.runs()]
    if not ids:
        raise ParameterError(
            parameter="run",
            value=token,
            rule=f"no runs recorded in {store.path}: run fedtheory verify first",
        )
    text = str(token).strip().lower()
    known = (
        f"runs {ids[0]} to {ids[-1]}"
        if ids == list(range(ids[0], ids[-1] + 1))
        else f"runs {', '.join(map(str, ids))}"
    )
    if text == "last":
        return ids[-1]
    if text == "previous":
        if len(ids) < 2:
            raise ParameterError(
                parameter="run",
                value=token,
                rule=f"needs two runs; {store.path} has one (run {ids[0]})",
            )
        return ids[-2]
    try:
        number = int(text)
    except ValueError:
        raise ParameterError(
            parameter="run",
            value=token,
            rule=f"must be a run id, 'last', 'previous' or -N (N-th newest; {known})",
        ) from None
    if number < 0:
        if -number > len(ids):
            raise ParameterError(
                parameter="run",
                value=token,
                rule=f"counts back past the oldest run ({len(ids)} recorded: {known})",
            )
        return ids[number]
    if number not in ids:
        raise ParameterError(
            parameter="run", value=token, rule=f"is not a run in {store.path} ({known})"
        )
    return number


def last_failed(store: ResultStore) -> list[str] | None:
    """Ids of the claims not acceptable in the newest run (failed, error, or a gating claim
    inconclusive), sorted; None when the store has no run. ``fedtheory verify --lf`` runs
    these."""
    runs = store.runs()
    if not runs:
        return None
    records = store.run_verdicts(int(runs[-1]["id"]))
    return sorted(claim for claim, record in records.items() if not record.get("acceptable"))


# --------------------------------------------------------------------------- comparing runs


@dataclass(frozen=True)
class Flip:
    """A claim whose status or outcome differs between two runs."""

    claim: str
    before_status: str
    after_status: str
    before_outcome: str | None
    after_outcome: str | None


@dataclass(frozen=True)
class Move:
    """A claim whose headline number moved beyond its confidence interval (see
    :func:`diff_runs`): the number's name, both values and both intervals."""

    claim: str
    name: str
    before: float
    after: float
    before_ci: tuple[float, float]
    after_ci: tuple[float, float]


@dataclass(frozen=True)
class RunDiff:
    """What changed from one run to another (:func:`diff_runs`)."""

    flipped: tuple[Flip, ...] = ()
    moved: tuple[Move, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    #: Claims in both runs that neither flipped nor moved.
    unchanged: int = 0
    #: Claims in both runs (flipped, moved or unchanged).
    compared: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON)."""
        return {
            "flipped": [vars(f) for f in self.flipped],
            "moved": [
                {**vars(m), "before_ci": list(m.before_ci), "after_ci": list(m.after_ci)}
                for m in self.moved
            ],
            "added": list(self.added),
            "removed": list(self.removed),
            "unchanged": self.unchanged,
            "compared": self.compared,
        }


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _interval(value: Any) -> tuple[float, float] | None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    low, high = _finite(value[0]), _finite(value[1])
    if low is None or high is None or low > high:
        return None
    return low, high


def headlines(record: Mapping[str, Any]) -> dict[str, tuple[float, tuple[float, float]]]:
    """The numbers of a run record that come with a confidence interval: name → (value, CI).

    The verdict's headline (the first of :data:`HEADLINES` in ``numbers``) with the verdict's
    ``ci``; and any ``<prefix>slope`` with ``<prefix>ci_low`` and ``<prefix>ci_high`` in
    ``numbers`` (e.g. ``scaling_slope`` of a :class:`~fedtheory.verify.criteria.Crossing` with a
    scaling law). Values or bounds that are missing or not finite (an open interval) are left
    out: such a number cannot be compared.
    """
    numbers = record.get("numbers") or {}
    found: dict[str, tuple[float, tuple[float, float]]] = {}
    ci = _interval(record.get("ci"))
    if ci is not None:
        for name in HEADLINES:
            if name in numbers:
                value = _finite(numbers[name])
                if value is not None:
                    found[name] = (value, ci)
                break
    for name in numbers:
        if name.endswith("slope") and name not in found and name not in HEADLINES:
            prefix = name[: -len("slope")]
            interval = _interval([numbers.get(f"{prefix}ci_low"), numbers.get(f"{prefix}ci_high")])
            value = _finite(numbers[name])
            if interval is not None and value is not None:
                found[name] = (value, interval)
    return found


#: Relative slack of the CI rule: a value outside an interval by less is rounding, not a move
#: (a degenerate interval, lo = hi, of an exact fit would otherwise flag the last bit).
_ROUNDING = 1e-9


def _outside(value: float, interval: tuple[float, float]) -> bool:
    low, high = interval
    slack = _ROUNDING * max(1.0, abs(value), abs(low), abs(high))
    return value < low - slack or value > high + slack


def diff_runs(
    before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]
) -> RunDiff:
    """Compare the records of two runs (claim id → :func:`run_record`).

    - **flipped**: claims in both runs whose ``status`` or ``outcome`` differs;
    - **moved**: claims in both runs with a number that has a confidence interval in both
      (:func:`headlines`: a rate's fitted exponent, a crossing's location, a scaling slope)
      where the rule says it moved: *the new value lies outside the old CI, or the old value
      outside the new CI* (by more than a relative 10⁻⁹: rounding is not a move). A number
      that moved within both intervals is noise at the run's confidence level and is not
      reported; a claim may both flip and move;
    - **added** / **removed**: claims only in the second / only in the first run;
    - **unchanged**: the number of claims in both runs that neither flipped nor moved.

    Every list is sorted by claim id.
    """
    flipped: list[Flip] = []
    moved: list[Move] = []
    unchanged = 0
    common = sorted(set(before) & set(after))
    for claim in common:
        old, new = before[claim], after[claim]
        changed = False
        if old.get("status") != new.get("status") or old.get("outcome") != new.get("outcome"):
            flipped.append(
                Flip(
                    claim,
                    str(old.get("status")),
                    str(new.get("status")),
                    old.get("outcome"),
                    new.get("outcome"),
                )
            )
            changed = True
        old_numbers, new_numbers = headlines(old), headlines(new)
        for name in sorted(set(old_numbers) & set(new_numbers)):
            (old_value, old_ci), (new_value, new_ci) = old_numbers[name], new_numbers[name]
            if _outside(new_value, old_ci) or _outside(old_value, new_ci):
                moved.append(Move(claim, name, old_value, new_value, old_ci, new_ci))
                changed = True
        unchanged += not changed
    return RunDiff(
        flipped=tuple(flipped),
        moved=tuple(moved),
        added=tuple(sorted(set(after) - set(before))),
        removed=tuple(sorted(set(before) - set(after))),
        unchanged=unchanged,
        compared=len(common),
    )
