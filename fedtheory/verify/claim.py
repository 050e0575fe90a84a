"""Claims and measurements: a prediction of a theorem as a falsifiable check (DESIGN §5).

A :class:`Measurement` is an experiment (a top-level function
``(params: dict, seed: int) -> dict[str, float]``) with one :class:`~fedtheory.verify.sweep.Sweep`
per profile (the grid of parameters and the number of replicates). A :class:`Claim` ties a
statement of a paper to a measurement and a criterion (:mod:`fedtheory.verify.criteria`) that
turns the :class:`~fedtheory.verify.measurements.Measurements` into a
:class:`~fedtheory.verify.verdict.Verdict`. The claim *passes* when the verdict's outcome equals
the claim's ``expect`` — ``"holds"`` for a prediction the paper gets right, ``"violated"`` for a
reproduced erratum.

Several claims that judge one experiment in different ways share one :class:`Measurement`
(declared with :meth:`Measurement.claim`): each replicate is computed once and every claim is
judged on the same data. A claim alone on its data is built with ``experiment=`` and
``sweeps=``; it then has an implicit measurement whose id is the claim's id.

Everything that travels between processes or into the store is plain data (JSON-able dicts);
the objects here are only ever built in the process that loaded the claim files.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from fedtheory.bounds import Bound, Citation
from fedtheory.bounds._mathml import bound_mathml, statement_html
from fedtheory.errors import ParameterError
from fedtheory.plotting import stamp_text
from fedtheory.verify import _display
from fedtheory.verify.criteria import Criterion
from fedtheory.verify.measurements import Measurements
from fedtheory.verify.sweep import PROFILES, Sweep
from fedtheory.verify.verdict import (
    ERROR,
    HOLDS,
    INCONCLUSIVE,
    VIOLATED,
    Verdict,
    format_seconds,
)

__all__ = ["Claim", "ClaimResult", "Expectation", "Experiment", "Measurement"]

#: The signature of an experiment: parameters and an integer seed in, named floats out.
Experiment = Callable[[dict[str, Any], int], Mapping[str, float]]
#: What a claim expects of its verdict: the statement holds, or it is violated (an erratum).
Expectation = Literal["holds", "violated"]

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._+-]*){2,}$")


def _check_id(value: Any, parameter: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ParameterError(
            parameter=parameter,
            value=value,
            rule="must look like '<paper>/<theorem>/<slug>' (lowercase, digits, ._-)",
        )
    return value


def _check_experiment(fn: Any) -> Experiment:
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
    experiment: Experiment = fn
    return experiment


def _check_sweeps(sweeps: Any) -> dict[str, Sweep]:
    """A private copy of ``{profile: Sweep}`` with a ``smoke`` and a ``quick`` sweep."""
    if not isinstance(sweeps, Mapping):
        raise ParameterError(parameter="sweeps", value=sweeps, rule="must be a dict")
    for profile, sweep in sweeps.items():
        if profile not in PROFILES:
            raise ParameterError(
                parameter="sweeps", value=profile, rule=f"profiles are {', '.join(PROFILES)}"
            )
        if not isinstance(sweep, Sweep):
            raise ParameterError(
                parameter=f"sweeps[{profile!r}]", value=sweep, rule="must be a Sweep"
            )
    for profile in ("smoke", "quick"):
        if profile not in sweeps:
            raise ParameterError(
                parameter="sweeps", value=sorted(sweeps), rule=f"needs a {profile!r} sweep"
            )
    return dict(sweeps)


def _check_uses(uses: Any) -> tuple[Bound, ...]:
    if isinstance(uses, Bound):
        uses = (uses,)
    if isinstance(uses, (str, bytes)) or not isinstance(uses, Sequence):
        raise ParameterError(
            parameter="uses", value=repr(uses), rule="must be a sequence of Bound objects"
        )
    for item in uses:
        if not isinstance(item, Bound):
            raise ParameterError(
                parameter="uses",
                value=repr(item),
                rule="every item must be a Bound (from fedtheory.bounds.get)",
            )
    return tuple(uses)


def _bounds_in(value: Any, depth: int = 0) -> Iterator[Bound]:
    """The bounds a criterion holds, in attribute order (criteria nest a few levels)."""
    if isinstance(value, Bound):
        yield value
    elif depth > 4:
        return
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _bounds_in(item, depth + 1)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _bounds_in(item, depth + 1)
    elif type(value).__module__.startswith("fedtheory.verify.criteria") and hasattr(
        value, "__dict__"
    ):
        for item in vars(value).values():
            yield from _bounds_in(item, depth + 1)


def _sweep_of(sweeps: Mapping[str, Sweep], profile: str) -> Sweep:
    """The sweep of a profile (``full`` falls back to ``quick``)."""
    if profile not in PROFILES:
        raise ParameterError(
            parameter="profile", value=profile, rule=f"must be one of {', '.join(PROFILES)}"
        )
    if profile == "full" and "full" not in sweeps:
        return sweeps["quick"]
    return sweeps[profile]


@dataclass(frozen=True, init=False, eq=False)
class Measurement:
    """An experiment and its sweeps: data that one or more claims judge.

    The runner computes each replicate of a measurement once; every claim of the measurement is
    judged on the same replicates. Replicate seeds and store keys are derived from the
    measurement's ``id`` (with the parameter point and the replicate index), never from a claim
    id, so adding a claim to a measurement costs no computation.

    Parameters
    ----------
    id
        ``<paper>/<topic>/<slug>``, like a claim id of the same paper (its claims must belong to
        that paper). Two different measurements with one id are refused by the runner.
    experiment
        A module-level function ``(params: dict, seed: int) -> dict[str, float]`` (workers
        import it by name, so lambdas and nested functions are refused). It must be
        deterministic given the seed and return finite floats.
    sweeps
        ``{profile: Sweep}``; ``smoke`` and ``quick`` are required, ``full`` falls back to
        ``quick`` when absent. May be omitted when every claim of the measurement judges a slice
        of its own (``sweeps=`` of :meth:`claim`).
    notes
        What every claim of the measurement should say (set-up, chosen defaults, departures
        from the paper); a claim's own notes follow them.
    uses
        The registered bounds the experiment evaluates (e.g. to set a step size or a sample
        size from a theorem). The runner refuses a replicate whose experiment evaluates a
        bound not listed here, so ``fedtheory catalog --coverage`` and ``fedtheory mutate``
        know every bound the data depends on.

    Examples
    --------
    >>> from fedtheory.bounds import Citation
    >>> from fedtheory.verify import Monotone, RateExponent, Sweep
    >>> def inverse(params, seed):
    ...     return {"y": 1.0 / params["n"]}
    >>> grid = Sweep(grid={"n": [1, 10, 100]})
    >>> data = Measurement(
    ...     id="classic/demo/inverse",
    ...     experiment=inverse,
    ...     sweeps={"smoke": grid, "quick": grid},
    ...     notes="Deterministic.",
    ... )
    >>> rate = data.claim(
    ...     id="classic/demo/rate",
    ...     source=Citation("classic", "a demo"),
    ...     statement="y decays like 1/n.",
    ...     criterion=RateExponent("n", "y", expected=-1),
    ... )
    >>> trend = data.claim(
    ...     id="classic/demo/trend",
    ...     source=Citation("classic", "a demo"),
    ...     statement="y decreases in n.",
    ...     criterion=Monotone("n", "y", direction="decreasing"),
    ... )
    >>> rate.measurement is trend.measurement, rate.experiment is inverse
    (True, True)
    """

    id: str
    experiment: Experiment
    sweeps: Mapping[str, Sweep] | None = field(repr=False)
    notes: str = ""
    uses: tuple[Bound, ...] = ()

    def __init__(
        self,
        *,
        id: str,
        experiment: Experiment,
        sweeps: Mapping[str, Sweep] | None = None,
        notes: str = "",
        uses: Sequence[Bound] = (),
    ) -> None:
        object.__setattr__(self, "id", _check_id(id, "id"))
        object.__setattr__(self, "experiment", _check_experiment(experiment))
        object.__setattr__(self, "sweeps", None if sweeps is None else _check_sweeps(sweeps))
        if not isinstance(notes, str):
            raise ParameterError(parameter="notes", value=notes, rule="must be a str")
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "uses", _check_uses(uses))

    @property
    def bounds(self) -> tuple[str, ...]:
        """Ids of the registered bounds the experiment evaluates (``uses``)."""
        return tuple(dict.fromkeys(b.origin for b in self.uses))

    @property
    def paper(self) -> str:
        """Paper key (the first part of the id)."""
        return self.id.split("/")[0]

    def sweep(self, profile: str) -> Sweep:
        """The sweep of a profile (``full`` falls back to ``quick``).

        Raises
        ------
        ParameterError
            Unknown profile, or a measurement whose claims each judge their own sweeps.
        """
        if self.sweeps is None:
            raise ParameterError(
                parameter="sweeps",
                value=None,
                rule=f"measurement {self.id!r} has no sweeps of its own (its claims have theirs)",
            )
        return _sweep_of(self.sweeps, profile)

    def claim(
        self,
        *,
        id: str,
        statement: str,
        criterion: Criterion,
        source: Citation | None = None,
        bound: Bound | None = None,
        sweeps: Mapping[str, Sweep] | None = None,
        expect: Expectation = "holds",
        notes: str = "",
        uses: Sequence[Bound] = (),
        gating: bool = True,
    ) -> Claim:
        """A claim judged on this measurement: ``Claim(measurement=self, ...)``.

        The parameters are those of :class:`Claim`; ``sweeps`` (optional) makes the claim judge
        a slice of its own of the measurement — another grid of the same experiment under the
        same seeds, so the replicates it shares with the other claims (same parameters, same
        replicate index) are still computed once.
        """
        return Claim(
            id=id,
            statement=statement,
            criterion=criterion,
            source=source,
            bound=bound,
            measurement=self,
            sweeps=sweeps,
            expect=expect,
            notes=notes,
            uses=uses,
            gating=gating,
        )


@dataclass(frozen=True, init=False)
class Claim:
    """A prediction of a theorem, judged on a measurement by a criterion that can fail.

    Build it with ``measurement=`` (or :meth:`Measurement.claim`) when it shares its data with
    other claims, or with ``experiment=`` and ``sweeps=`` when it is alone on its data (it then
    has an implicit measurement whose id is the claim id).

    Parameters
    ----------
    id
        ``<paper>/<theorem>/<slug>``, e.g. ``"classic/sgd/rate"``; the first part is the paper key
        of ``source``.
    statement
        The prediction in one or two sentences, as the paper (or textbook) makes it.
    criterion
        A criterion from :mod:`fedtheory.verify.criteria`; it must be able to judge every
        profile's sweep.
    source
        :class:`~fedtheory.bounds.Citation` of the statement; by default ``bound.source``.
    bound
        The :class:`~fedtheory.bounds.Bound` behind the claim (cited in the report).
    measurement
        The :class:`Measurement` the claim judges (its paper must be the claim's).
    experiment
        For a claim alone on its data: a module-level function
        ``(params: dict, seed: int) -> dict[str, float]`` (see :class:`Measurement`).
    sweeps
        ``{profile: Sweep}``; ``smoke`` and ``quick`` are required, ``full`` falls back to
        ``quick`` when absent. With ``experiment``: required. With ``measurement``: optional,
        a slice of its own of the measurement (default: the measurement's sweeps).
    expect
        ``"holds"`` or ``"violated"`` (a reproduced erratum or a deliberately false statement).
    notes
        Anything a reader should know: chosen defaults, departures from the paper. They follow
        the measurement's notes in the report.
    uses
        Registered bounds the claim file evaluates to build this claim — an expected exponent
        or value computed at import (``RateExponent(..., expected=B.exponent("n").power)``).
        The bounds a criterion holds are found by themselves, and those the experiment
        evaluates are the measurement's ``uses`` (or, for a claim alone on its data, these).
        Loading a claim file that evaluates a bound none of its claims declares is refused.
    gating
        ``True`` (default): the claim's outcome decides ``fedtheory verify``'s exit status.
        ``False`` for an experiment-level reproduction judged by a loose, directional criterion
        (a paper's figure on a substitute data set): its verdict is computed, stored and shown
        like any other — marked "reported, not gating" in the table, the HTML report and
        ``verdicts.json`` — but a mismatch with ``expect`` does not fail the run.

    Raises
    ------
    ParameterError
        Naming the parameter, its value and the rule it breaks: a malformed id, no source and
        no bound, a measurement of another paper, both or neither of ``measurement`` and
        ``experiment``, sweeps the criterion cannot judge, ...
    """

    id: str
    source: Citation
    statement: str
    measurement: Measurement
    #: The sweeps the claim is judged on (its measurement's, or a slice of its own).
    sweeps: Mapping[str, Sweep] = field(repr=False)
    criterion: Criterion
    bound: Bound | None = None
    expect: Expectation = "holds"
    notes: str = ""
    uses: tuple[Bound, ...] = ()
    gating: bool = True

    def __init__(
        self,
        *,
        id: str,
        statement: str,
        criterion: Criterion,
        source: Citation | None = None,
        bound: Bound | None = None,
        measurement: Measurement | None = None,
        experiment: Experiment | None = None,
        sweeps: Mapping[str, Sweep] | None = None,
        expect: Expectation = "holds",
        notes: str = "",
        uses: Sequence[Bound] = (),
        gating: bool = True,
    ) -> None:
        _check_id(id, "id")
        uses = _check_uses(uses)
        paper = id.split("/")[0]
        if bound is not None and not isinstance(bound, Bound):
            raise ParameterError(parameter="bound", value=bound, rule="must be a Bound")
        if source is None:
            if bound is None:
                raise ParameterError(
                    parameter="source",
                    value=None,
                    rule="give source= (a Citation), or a bound= whose source is cited",
                )
            source = bound.source
        if not isinstance(source, Citation):
            raise ParameterError(parameter="source", value=source, rule="must be a Citation")
        if paper != source.paper:
            raise ParameterError(
                parameter="id",
                value=id,
                rule=f"must start with the source's paper key {source.paper!r}",
            )
        if not isinstance(statement, str) or not statement.strip():
            raise ParameterError(parameter="statement", value=statement, rule="is empty")
        if measurement is None:
            if experiment is None:
                raise ParameterError(
                    parameter="experiment",
                    value=None,
                    rule="give measurement=, or experiment= and sweeps=",
                )
            if sweeps is None:
                raise ParameterError(
                    parameter="sweeps", value=None, rule="experiment= needs sweeps= as well"
                )
            measurement = Measurement(id=id, experiment=experiment, sweeps=sweeps, uses=uses)
            assert measurement.sweeps is not None
            sweeps = measurement.sweeps
        else:
            if not isinstance(measurement, Measurement):
                raise ParameterError(
                    parameter="measurement", value=measurement, rule="must be a Measurement"
                )
            if experiment is not None:
                raise ParameterError(
                    parameter="experiment",
                    value=getattr(experiment, "__qualname__", experiment),
                    rule=f"comes from the measurement {measurement.id!r}; give either "
                    "measurement= or experiment=",
                )
            if measurement.paper != paper:
                raise ParameterError(
                    parameter="measurement",
                    value=measurement.id,
                    rule=f"must belong to the claim's paper {paper!r}",
                )
            if sweeps is not None:
                sweeps = _check_sweeps(sweeps)
            elif measurement.sweeps is None:
                raise ParameterError(
                    parameter="sweeps",
                    value=None,
                    rule=f"measurement {measurement.id!r} has no sweeps of its own: give the "
                    "claim's",
                )
            else:
                sweeps = measurement.sweeps
        if not isinstance(criterion, Criterion):
            raise ParameterError(parameter="criterion", value=criterion, rule="must be a Criterion")
        for profile, sweep in sweeps.items():
            criterion.check_sweep(sweep, where=f"{id}: sweeps[{profile!r}]")
        if expect not in (HOLDS, VIOLATED):
            raise ParameterError(
                parameter="expect", value=expect, rule="must be 'holds' or 'violated'"
            )
        if not isinstance(notes, str):
            raise ParameterError(parameter="notes", value=notes, rule="must be a str")
        if not isinstance(gating, bool):
            raise ParameterError(parameter="gating", value=gating, rule="must be True or False")
        for name, value in (
            ("id", id),
            ("source", source),
            ("statement", statement),
            ("measurement", measurement),
            ("sweeps", sweeps),
            ("criterion", criterion),
            ("bound", bound),
            ("expect", expect),
            ("notes", notes),
            ("uses", uses),
            ("gating", gating),
        ):
            object.__setattr__(self, name, value)

    @property
    def bounds(self) -> tuple[str, ...]:
        """Ids of the registered bounds this claim evaluates on data, in a fixed order: those
        its criterion holds, its own ``uses`` and its measurement's (the bound merely cited by
        ``bound=`` is not among them unless one of those evaluates it)."""
        found = [b.origin for b in _bounds_in(self.criterion)]
        found += [b.origin for b in self.uses]
        found += list(self.measurement.bounds)
        return tuple(dict.fromkeys(found))

    @property
    def paper(self) -> str:
        """Paper key (the first part of the id)."""
        return self.id.split("/")[0]

    @property
    def experiment(self) -> Experiment:
        """The experiment of the claim's measurement."""
        return self.measurement.experiment

    @property
    def all_notes(self) -> str:
        """The measurement's notes followed by the claim's own (as shown in the report)."""
        return " ".join(n for n in (self.measurement.notes, self.notes) if n)

    def sweep(self, profile: str) -> Sweep:
        """The sweep of a profile (``full`` falls back to ``quick``)."""
        return _sweep_of(self.sweeps, profile)

    def describe(self) -> dict[str, Any]:
        """Plain-data description of the claim (catalog, verdicts.json).

        ``measures`` is the id of the claim's measurement (the claim's own id when it is alone
        on its data).
        """
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
            "gating": self.gating,
            "profiles": {p: self.sweep(p).to_dict() for p in PROFILES},
            "notes": self.all_notes,
            "measures": self.measurement.id,
            "judges": list(self.bounds),
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
    #: Ids of the registered bounds its measurement's experiment evaluated in the replicates
    #: this run computed (:mod:`fedtheory.bounds._usage`; shared by the claims of one
    #: measurement); ``None`` when this run computed none of them (cached replicates do not
    #: run). With the bounds its claim file evaluated while loading
    #: (:attr:`~fedtheory.verify.discovery.LoadedClaim.evaluated_at_load`), this is what its
    #: declared ``uses=`` can be checked against.
    evaluated: frozenset[str] | None = field(default=None, compare=False)

    @property
    def passed(self) -> bool:
        """True when the outcome equals the claim's expectation."""
        return self.verdict.outcome == self.claim.expect

    @property
    def acceptable(self) -> bool:
        """True when the result does not fail the run: it passed, or its claim is not gating
        (an experiment-level reproduction whose outcome is reported only)."""
        return self.passed or not self.claim.gating

    @property
    def status(self) -> str:
        """Summary category: holds, violated-as-expected, failed, reported (a claim with
        ``gating=False`` whose outcome differs from its expectation), inconclusive or error."""
        outcome = self.verdict.outcome
        if outcome in (ERROR, INCONCLUSIVE):
            return outcome
        if self.passed:
            return "violated-as-expected" if outcome == VIOLATED else HOLDS
        return "failed" if self.claim.gating else "reported"

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
            "evaluated": None if self.evaluated is None else sorted(self.evaluated),
        }

    # ------------------------------------------------------------------ display
    def figure_png(self) -> bytes | None:
        """The claim's figure as PNG bytes, drawn as the report draws it (``report/figures/``,
        stamped with the profile), or None when the verdict has no figure."""
        spec = self.verdict.figure
        if spec is None:
            return None
        return _display.claim_figure_png(spec, self.claim.id, stamp_text(self.profile))

    def html(self, *, figure: bool = True) -> str:
        """The result as a compact HTML card, as Jupyter shows it (:meth:`_repr_html_`).

        The claim id with the outcome's badge (coloured by :attr:`status`, as in
        ``index.html``), what was expected and whether it passed; the statement; a table of
        the citation, the bound (as MathML), the criterion, predicted and measured values, the
        CI, the reason and the counterexample; the figure (with ``figure=True``, an inline PNG);
        the profile and the work done.
        """
        return _display.display(self._card(figure=figure))

    def _repr_html_(self) -> str:
        return self.html(figure=True)

    def _card(self, *, figure: bool) -> str:
        e = _display.escape
        claim, verdict, status = self.claim, self.verdict, self.status
        mark = "✓ passed" if self.passed else "✗ did not pass"
        if not claim.gating:
            mark += " · reported, not gating"
        try:
            statement = statement_html(claim.statement)
        except Exception:  # a display problem must not hide the result
            statement = e(claim.statement)
        rows = [("Source", e(claim.source.full))]
        if claim.bound is not None:
            try:
                formula = bound_mathml(claim.bound)
            except Exception:  # sympy cannot print it: the plain statement
                formula = f"<code>{e(claim.bound)}</code>"
            rows.append(
                (
                    "Bound",
                    f'<code>{e(claim.bound.id)}</code><div class="ft-formula">{formula}</div>',
                )
            )
        rows.append(("Criterion", e(claim.criterion.describe())))
        rows.extend(verdict.html_rows())
        parts = [
            f'<div class="ft-card {e(status)}"><div class="ft-head">',
            f'<span class="ft-id">{e(claim.id)}</span>',
            _display.badge(status, verdict.outcome),
            f'<span class="ft-muted">expected {e(claim.expect)} · {e(mark)}</span></div>',
            f'<div class="ft-statement">{statement}</div>',
            _display.rows_table(rows),
        ]
        png = self.figure_png() if figure else None
        if png is not None:
            parts.append(f"<figure>{_display.png_img(png, f'figure of {claim.id}')}</figure>")
        work = (
            f"profile {self.profile} · {self.n_points} points, {self.n_replicates} replicates "
            f"({self.n_cached} cached, {self.n_computed} computed) · "
            f"{format_seconds(self.compute_seconds)} of compute"
        )
        parts.append(f'<div class="ft-muted">{e(work)}</div></div>')
        return "".join(parts)
