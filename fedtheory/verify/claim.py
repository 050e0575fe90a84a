"""Claims: a prediction of a theorem as a falsifiable check (DESIGN §5).

A :class:`Claim` ties a statement of a paper to an experiment (a top-level function
``(params: dict, seed: int) -> dict[str, float]``), one :class:`~fedtheory.verify.sweep.Sweep`
per profile (the grid of parameters and the number of replicates) and a criterion
(:mod:`fedtheory.verify.criteria`) that turns the
:class:`~fedtheory.verify.measurements.Measurements` into a
:class:`~fedtheory.verify.verdict.Verdict`. The claim *passes* when the verdict's outcome equals
the claim's ``expect`` — ``"holds"`` for a prediction the paper gets right, ``"violated"`` for a
reproduced erratum (DESIGN §5).

Everything that travels between processes or into the store is plain data (JSON-able dicts);
the objects here are only ever built in the process that loaded the claim files.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from fedtheory.bounds import Bound, Citation
from fedtheory.errors import ParameterError
from fedtheory.verify.criteria import Criterion
from fedtheory.verify.measurements import Measurements
from fedtheory.verify.sweep import PROFILES, Sweep
from fedtheory.verify.verdict import ERROR, HOLDS, INCONCLUSIVE, VIOLATED, Verdict

__all__ = ["Claim", "ClaimResult", "Experiment"]

#: The signature of an experiment: parameters and an integer seed in, named floats out.
Experiment = Callable[[dict[str, Any], int], Mapping[str, float]]

_CLAIM_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._+-]*){2,}$")


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
