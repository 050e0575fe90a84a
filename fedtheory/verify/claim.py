"""Claims, sweeps, measurements and verdicts: a prediction of a theorem as a falsifiable check.

A :class:`Claim` ties a statement of a paper to an experiment (a top-level function
``(params: dict, seed: int) -> dict[str, float]``), one :class:`Sweep` per profile (the grid of
parameters and the number of replicates) and a criterion (:mod:`fedtheory.verify.criteria`) that
turns the :class:`Measurements` into a :class:`Verdict`. The claim *passes* when the verdict's
outcome equals the claim's ``expect`` — ``"holds"`` for a prediction the paper gets right,
``"violated"`` for a reproduced erratum (DESIGN §5).

Everything that travels between processes or into the store is plain data (JSON-able dicts);
the objects here are only ever built in the process that loaded the claim files.
"""

from __future__ import annotations

import inspect
import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from fedtheory.errors import ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from fedtheory.bounds import Bound, Citation
    from fedtheory.verify.criteria import Criterion

__all__ = [
    "ERROR",
    "HOLDS",
    "INCONCLUSIVE",
    "OUTCOMES",
    "PROFILES",
    "VIOLATED",
    "Claim",
    "ClaimResult",
    "Experiment",
    "FigureSpec",
    "Measurements",
    "PointMeasurements",
    "Series",
    "Sweep",
    "Verdict",
    "combine_outcomes",
    "format_number",
    "plain_data",
]

#: Profiles, from the fastest to the most thorough (DESIGN §6).
PROFILES: tuple[str, ...] = ("smoke", "quick", "full")

HOLDS = "holds"
VIOLATED = "violated"
INCONCLUSIVE = "inconclusive"
ERROR = "error"
#: Every possible outcome of a verdict.
OUTCOMES: tuple[str, ...] = (HOLDS, VIOLATED, INCONCLUSIVE, ERROR)
Outcome = Literal["holds", "violated", "inconclusive", "error"]

#: The signature of an experiment: parameters and an integer seed in, named floats out.
Experiment = Callable[[dict[str, Any], int], Mapping[str, float]]

_CLAIM_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._+-]*){2,}$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


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


def _check_scalar(value: Any, where: str) -> Any:
    """Parameters must be plain JSON scalars so that tasks and store keys are plain data."""
    if isinstance(value, np.generic):  # before the float test: np.float64 subclasses float
        return _check_scalar(value.item(), where)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParameterError(parameter=where, value=value, rule="must be finite")
        return value
    raise ParameterError(
        parameter=where,
        value=value,
        rule=f"sweep values must be int, float, str or bool (got {type(value).__name__})",
    )


@dataclass(frozen=True, init=False)
class Sweep:
    """The parameter points at which a claim's experiment runs, for one profile.

    Parameters
    ----------
    grid
        Varied parameters: ``{name: values}``; the sweep runs the Cartesian product, in the
        order given (the last name varies fastest).
    fixed
        Parameters held constant at every point.
    replicates
        Independent repetitions per point, each with its own seed (DESIGN §4).
    block
        Replicates per task (a scheduling choice only: results are stored per replicate, so it
        never changes a number). Default: all replicates of a point in one task.
    points
        Explicit list of varied-parameter dicts, instead of a Cartesian ``grid`` (e.g. to vary
        two parameters together). All dicts must have the same keys.

    Examples
    --------
    >>> s = Sweep(grid={"T": [10, 100]}, fixed={"d": 5}, replicates=3)
    >>> s.points()
    ({'d': 5, 'T': 10}, {'d': 5, 'T': 100})
    >>> s.varied
    ('T',)
    """

    grid: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    replicates: int = 1
    block: int | None = None
    points_: Sequence[Mapping[str, Any]] | None = field(default=None, repr=False)

    def __init__(
        self,
        grid: Mapping[str, Sequence[Any]] | None = None,
        fixed: Mapping[str, Any] | None = None,
        replicates: int = 1,
        block: int | None = None,
        points: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        grid = dict(grid or {})
        fixed = dict(fixed or {})
        if grid and points is not None:
            raise ParameterError(
                parameter="points", value="...", rule="give either grid or points, not both"
            )
        if not isinstance(replicates, (int, np.integer)) or isinstance(replicates, bool):
            raise ParameterError(parameter="replicates", value=replicates, rule="must be an int")
        if replicates < 1:
            raise ParameterError(parameter="replicates", value=replicates, rule="must be >= 1")
        if block is not None and (not isinstance(block, (int, np.integer)) or block < 1):
            raise ParameterError(parameter="block", value=block, rule="must be an int >= 1")
        for name, value in fixed.items():
            self._check_name(name, "fixed")
            fixed[name] = _check_scalar(value, f"fixed[{name!r}]")
        clean_grid: dict[str, tuple[Any, ...]] = {}
        for name, values in grid.items():
            self._check_name(name, "grid")
            if name in fixed:
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=name, rule="is also in fixed"
                )
            if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | np.ndarray):
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=values, rule="must be a list of values"
                )
            vals = tuple(_check_scalar(v, f"grid[{name!r}]") for v in values)
            if not vals:
                raise ParameterError(parameter=f"grid[{name!r}]", value=[], rule="is empty")
            if len(set(vals)) != len(vals):
                raise ParameterError(
                    parameter=f"grid[{name!r}]", value=list(vals), rule="has repeated values"
                )
            clean_grid[name] = vals
        clean_points: tuple[dict[str, Any], ...] | None = None
        if points is not None:
            if not points:
                raise ParameterError(parameter="points", value=[], rule="is empty")
            keys = set(points[0])
            rows = []
            for i, point in enumerate(points):
                if set(point) != keys:
                    raise ParameterError(
                        parameter=f"points[{i}]",
                        value=sorted(point),
                        rule=f"every point needs the same keys {sorted(keys)}",
                    )
                row = {}
                for name, value in point.items():
                    self._check_name(name, f"points[{i}]")
                    if name in fixed:
                        raise ParameterError(
                            parameter=f"points[{i}]", value=name, rule="is also in fixed"
                        )
                    row[name] = _check_scalar(value, f"points[{i}][{name!r}]")
                rows.append(row)
            canon = [json.dumps(r, sort_keys=True) for r in rows]
            if len(set(canon)) != len(canon):
                raise ParameterError(parameter="points", value="...", rule="has repeated points")
            clean_points = tuple(rows)
        object.__setattr__(self, "grid", clean_grid)
        object.__setattr__(self, "fixed", fixed)
        object.__setattr__(self, "replicates", int(replicates))
        object.__setattr__(self, "block", None if block is None else int(block))
        object.__setattr__(self, "points_", clean_points)

    @staticmethod
    def _check_name(name: Any, where: str) -> None:
        if not isinstance(name, str) or not _NAME.match(name):
            raise ParameterError(
                parameter=where, value=name, rule="parameter names must be Python identifiers"
            )

    @property
    def varied(self) -> tuple[str, ...]:
        """Names of the parameters that change across points."""
        if self.points_ is not None:
            return tuple(self.points_[0])
        return tuple(self.grid)

    def points(self) -> tuple[dict[str, Any], ...]:
        """Every parameter point (fixed and varied values merged), in a deterministic order."""
        if self.points_ is not None:
            varied: Iterator[Mapping[str, Any]] = iter(self.points_)
        else:
            names = list(self.grid)
            varied = (
                dict(zip(names, combo, strict=True))
                for combo in itertools.product(*self.grid.values())
            )
        return tuple({**self.fixed, **v} for v in varied)

    def to_dict(self) -> dict[str, Any]:
        """Plain-data description (for the catalog and verdicts.json)."""
        out: dict[str, Any] = {"fixed": dict(self.fixed), "replicates": self.replicates}
        if self.points_ is not None:
            out["points"] = [dict(p) for p in self.points_]
        else:
            out["grid"] = {k: list(v) for k, v in self.grid.items()}
        if self.block is not None:
            out["block"] = self.block
        return out


@dataclass(frozen=True)
class Claim:
    """A prediction of a theorem, with an experiment and a criterion that can fail.

    Parameters
    ----------
    id
        ``<paper>/<theorem>/<slug>``, e.g. ``"classic/sgd/rate"``; the first part is the paper key
        of ``source``.
    source
        :class:`~fedtheory.bounds.Citation` of the statement.
    statement
        The prediction in one or two sentences, as the paper (or textbook) makes it.
    experiment
        A module-level function ``(params: dict, seed: int) -> dict[str, float]`` (workers import
        it by name, so lambdas and nested functions are refused).
    sweeps
        ``{profile: Sweep}``; ``smoke`` and ``quick`` are required, ``full`` falls back to
        ``quick`` when absent.
    criterion
        A criterion from :mod:`fedtheory.verify.criteria`.
    bound
        The :class:`~fedtheory.bounds.Bound` behind the claim (cited in the report).
    expect
        ``"holds"`` or ``"violated"`` (a reproduced erratum or a deliberately false statement).
    notes
        Anything a reader should know: chosen defaults, departures from the paper.
    measures
        Name of a shared measurement set (default: the claim's own id). Claims that judge the
        same experiment on the same sweep in different ways (e.g. the six statements read off
        one figure) name one set: their replicates get the same seeds and store keys, so each
        replicate is computed once and every claim of the set is judged on the same data. The
        name looks like a claim id of the same paper; all claims of a set must use the same
        experiment (checked when the catalog is planned).
    """

    id: str
    source: Citation
    statement: str
    experiment: Experiment
    sweeps: Mapping[str, Sweep]
    criterion: Criterion
    bound: Bound | None = None
    expect: Literal["holds", "violated"] = "holds"
    notes: str = ""
    measures: str = ""

    def __post_init__(self) -> None:
        from fedtheory.bounds import Bound, Citation
        from fedtheory.verify.criteria import Criterion

        if not isinstance(self.id, str) or not _CLAIM_ID.match(self.id):
            raise ParameterError(
                parameter="id",
                value=self.id,
                rule="must look like '<paper>/<theorem>/<slug>' (lowercase, digits, ._-)",
            )
        if not isinstance(self.source, Citation):
            raise ParameterError(parameter="source", value=self.source, rule="must be a Citation")
        if self.id.split("/")[0] != self.source.paper:
            raise ParameterError(
                parameter="id",
                value=self.id,
                rule=f"must start with the source's paper key {self.source.paper!r}",
            )
        if not isinstance(self.statement, str) or not self.statement.strip():
            raise ParameterError(parameter="statement", value=self.statement, rule="is empty")
        self._check_experiment()
        if not isinstance(self.sweeps, Mapping):
            raise ParameterError(parameter="sweeps", value=self.sweeps, rule="must be a dict")
        for profile, sweep in self.sweeps.items():
            if profile not in PROFILES:
                raise ParameterError(
                    parameter="sweeps", value=profile, rule=f"profiles are {', '.join(PROFILES)}"
                )
            if not isinstance(sweep, Sweep):
                raise ParameterError(
                    parameter=f"sweeps[{profile!r}]", value=sweep, rule="must be a Sweep"
                )
        for profile in ("smoke", "quick"):
            if profile not in self.sweeps:
                raise ParameterError(
                    parameter="sweeps", value=sorted(self.sweeps), rule=f"needs a {profile!r} sweep"
                )
        object.__setattr__(self, "sweeps", dict(self.sweeps))
        if not isinstance(self.criterion, Criterion):
            raise ParameterError(
                parameter="criterion", value=self.criterion, rule="must be a Criterion"
            )
        for profile, sweep in self.sweeps.items():
            self.criterion.check_sweep(sweep, where=f"{self.id}: sweeps[{profile!r}]")
        if self.bound is not None and not isinstance(self.bound, Bound):
            raise ParameterError(parameter="bound", value=self.bound, rule="must be a Bound")
        if self.expect not in (HOLDS, VIOLATED):
            raise ParameterError(
                parameter="expect", value=self.expect, rule="must be 'holds' or 'violated'"
            )
        if self.measures == "":
            object.__setattr__(self, "measures", self.id)
        elif not isinstance(self.measures, str) or not _CLAIM_ID.match(self.measures):
            raise ParameterError(
                parameter="measures",
                value=self.measures,
                rule="must look like a claim id '<paper>/<theorem>/<slug>'",
            )
        elif self.measures.split("/")[0] != self.paper:
            raise ParameterError(
                parameter="measures",
                value=self.measures,
                rule=f"must belong to the claim's paper {self.paper!r}",
            )

    def _check_experiment(self) -> None:
        fn = self.experiment
        if not callable(fn) or not inspect.isfunction(fn):
            raise ParameterError(
                parameter="experiment", value=fn, rule="must be a module-level function"
            )
        if "<" in fn.__qualname__ or "." in fn.__qualname__:
            raise ParameterError(
                parameter="experiment",
                value=fn.__qualname__,
                rule="must be a module-level function (workers import it by name)",
            )
        try:
            inspect.signature(fn).bind({}, 0)
        except TypeError:
            raise ParameterError(
                parameter="experiment",
                value=fn.__qualname__,
                rule="must accept (params: dict, seed: int)",
            ) from None

    @property
    def paper(self) -> str:
        """Paper key (the first part of the id)."""
        return self.id.split("/")[0]

    def sweep(self, profile: str) -> Sweep:
        """The sweep of a profile (``full`` falls back to ``quick``)."""
        if profile not in PROFILES:
            raise ParameterError(
                parameter="profile", value=profile, rule=f"must be one of {', '.join(PROFILES)}"
            )
        if profile == "full" and "full" not in self.sweeps:
            return self.sweeps["quick"]
        return self.sweeps[profile]

    def describe(self) -> dict[str, Any]:
        """Plain-data description of the claim (catalog, verdicts.json)."""
        return {
            "id": self.id,
            "paper": self.paper,
            "source": self.source.short,
            "citation": self.source.full,
            "statement": self.statement,
            "criterion": self.criterion.describe(),
            "criterion_spec": self.criterion.to_dict(),
            "bound": None if self.bound is None else self.bound.id,
            "expect": self.expect,
            "profiles": {p: self.sweep(p).to_dict() for p in PROFILES},
            "notes": self.notes,
            "measures": self.measures,
        }


# --------------------------------------------------------------------------- measurements


@dataclass(frozen=True)
class PointMeasurements:
    """The replicates measured at one parameter point.

    Attributes
    ----------
    params
        The full parameter dict (fixed and varied).
    replicates, seeds
        Replicate indices (sorted) and the seed each replicate ran with.
    values
        ``{output name: array of one value per replicate}``.
    """

    params: dict[str, Any]
    replicates: np.ndarray
    seeds: np.ndarray
    values: dict[str, np.ndarray]

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.values[name]
        except KeyError:
            raise ParameterError(
                parameter="output",
                value=name,
                rule=f"the experiment returned only {', '.join(sorted(self.values))}",
            ) from None

    @property
    def n(self) -> int:
        """Number of replicates."""
        return len(self.replicates)


@dataclass(frozen=True)
class Measurements:
    """Everything measured for one claim under one profile, in sweep order.

    Criteria read it; the order of points and replicates is the sweep's, never the order in
    which results arrived, so verdicts do not depend on the executor.
    """

    claim_id: str
    varied: tuple[str, ...]
    points: tuple[PointMeasurements, ...]

    def __len__(self) -> int:
        return len(self.points)

    def param(self, name: str) -> np.ndarray:
        """The value of parameter ``name`` at each point."""
        return np.array([p.params[name] for p in self.points])

    def column(self, name: str) -> list[np.ndarray]:
        """Per-point arrays of output ``name`` (one array of replicates per point)."""
        return [p[name] for p in self.points]

    def value_or_param(self, name: str, point: PointMeasurements) -> np.ndarray:
        """Per-replicate values of an output, or a parameter broadcast to the replicates."""
        if name in point.values:
            return point.values[name]
        if name in point.params:
            return np.full(point.n, point.params[name], dtype=float)
        raise ParameterError(
            parameter="name",
            value=name,
            rule=(
                f"{self.claim_id}: neither an output ({', '.join(sorted(point.values))}) nor a "
                f"parameter ({', '.join(sorted(point.params))})"
            ),
        )

    def groups(self, x: str) -> list[tuple[dict[str, Any], Measurements]]:
        """Split into curves along ``x``: one group per combination of the other varied values.

        Each group's points are sorted by ``x``. The group key holds the other varied values
        (empty when ``x`` is the only varied parameter).
        """
        others = [name for name in self.varied if name != x]
        buckets: dict[str, tuple[dict[str, Any], list[PointMeasurements]]] = {}
        for point in self.points:
            key = {name: point.params[name] for name in others}
            tag = json.dumps(key, sort_keys=True)
            buckets.setdefault(tag, (key, []))[1].append(point)
        out = []
        for key, pts in buckets.values():
            pts_sorted = tuple(sorted(pts, key=lambda p: p.params[x]))
            out.append((key, Measurements(self.claim_id, (x,), pts_sorted)))
        return out


# --------------------------------------------------------------------------- verdicts


@dataclass(frozen=True)
class Series:
    """One curve of a verdict's figure.

    ``role`` is ``"measured"`` (markers, with a CI band from ``low``/``high``), ``"bound"``
    (the theorem, dashed), ``"fit"`` (a fitted line, dotted) or ``"reference"``.
    """

    label: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    role: Literal["measured", "bound", "fit", "reference"] = "measured"
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "role": self.role,
            "group": self.group,
            "x": list(self.x),
            "y": list(self.y),
            "low": None if self.low is None else list(self.low),
            "high": None if self.high is None else list(self.high),
        }


@dataclass(frozen=True)
class FigureSpec:
    """What a criterion wants drawn: axes and curves (the report renders it)."""

    x_label: str
    y_label: str
    series: tuple[Series, ...]
    x_log: bool = False
    y_log: bool = False
    title: str = ""
    #: What the shaded bands around measured series are (legend text).
    band_label: str = "95% CI of the mean"

    def to_dict(self) -> dict[str, Any]:
        return {
            "band_label": self.band_label,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "x_log": self.x_log,
            "y_log": self.y_log,
            "title": self.title,
            "series": [s.to_dict() for s in self.series],
        }


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

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ParameterError(
                parameter="outcome", value=self.outcome, rule=f"must be one of {OUTCOMES}"
            )

    @classmethod
    def error(cls, message: str) -> Verdict:
        """The verdict of a claim whose experiment or criterion failed."""
        return cls(ERROR, message, measured="—")

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
        }


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


@dataclass(frozen=True)
class ClaimResult:
    """A claim judged under one profile: the verdict and how it was obtained."""

    claim: Claim
    profile: str
    verdict: Verdict
    n_points: int
    n_replicates: int
    n_cached: int
    n_computed: int
    compute_seconds: float
    file: str = ""
    #: The replicates the verdict was judged on (``None`` when the claim errored before).
    measurements: Measurements | None = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        """True when the outcome equals the claim's expectation."""
        return self.verdict.outcome == self.claim.expect

    @property
    def status(self) -> str:
        """Summary category: holds, violated-as-expected, failed, inconclusive or error."""
        outcome = self.verdict.outcome
        if outcome in (ERROR, INCONCLUSIVE):
            return outcome
        if self.passed:
            return "violated-as-expected" if outcome == VIOLATED else HOLDS
        return "failed"

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.claim.describe(),
            "file": self.file,
            "profile": self.profile,
            "sweep": self.claim.sweep(self.profile).to_dict(),
            "status": self.status,
            "passed": self.passed,
            "verdict": self.verdict.to_dict(),
            "n_points": self.n_points,
            "n_replicates": self.n_replicates,
            "n_cached": self.n_cached,
            "n_computed": self.n_computed,
            "compute_seconds": self.compute_seconds,
        }
