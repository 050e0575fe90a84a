"""Mutation analysis of the bounds: how much can a paper's catalog catch? (``fedtheory mutate``)

For every registered bound of the chosen paper(s), each mutant of
:func:`fedtheory.bounds.mutation.mutants` — the bound with one plausible encoding bug — is
planted in the registry, and the claims that judge the bound on data
(:attr:`~fedtheory.verify.claim.Claim.bounds`) are judged again: first on the ``smoke`` sweeps,
then, for the mutants that survive, on ``quick``. A mutant is *killed* when a claim that passes
with the true bound fails with the mutant (an error counts: the catalog noticed). The
*mutation score* of a paper is killed / (killed + survived); equivalent mutants (equal to the
bound in value) and mutants of bounds no claim judges are reported apart.

Runs go through the executors and the result store like ``fedtheory verify``: the data of a
measurement whose experiment evaluates the mutated bound is computed anew under keys holding
the mutant's id and digest; every other measurement's data is the unmutated data (its
experiment does not read the bound), read once and judged again for each mutant.

A survivor is reported with the claims that should have caught it and, where it can be said,
why they could not: a bound made looser cannot be caught by a claim that it holds (only by one
that it is attained); a change smaller than the claims' slack is below their resolving power; a
dropped term may be negligible where the claims measure.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from fedtheory.bounds import PAPERS, Bound, get, iter_bounds
from fedtheory.bounds.mutation import Mutant, applied, change_factors, mutants
from fedtheory.errors import FedTheoryError, NoClaimsError, ParameterError
from fedtheory.verify._arguments import check_seed
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.discovery import LoadedClaim, discover, load_claim_file, paths_argument
from fedtheory.verify.executors import Executor, check_executor_options, make_executor
from fedtheory.verify.measurements import Measurements
from fedtheory.verify.runner import (
    execute,
    judge_all,
    missing_replicates,
    plan,
)
from fedtheory.verify.store import DEFAULT_STORE, ResultStore

__all__ = ["BoundMutation", "MutantResult", "MutationRun", "mutate"]

#: What happened to a mutant.
Fate = Literal["killed", "survived", "equivalent", "unjudged"]
#: The profiles a surviving mutant is tried on, in order.
PROFILES_TRIED = ("smoke", "quick")


@dataclass(frozen=True)
class MutantResult:
    """One mutant and what the catalog made of it."""

    mutant: Mutant
    fate: Fate
    #: the profile that killed it (``None`` unless killed)
    profile: str | None = None
    #: the claims that failed with it: ``{claim id: outcome}``
    killers: dict[str, str] = field(default_factory=dict)
    #: the claims that judge the bound (for a survivor: those that should have caught it)
    claims: tuple[str, ...] = ()
    #: why a survivor survived, when it can be said
    explanation: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.mutant.id,
            "bound": self.mutant.bound,
            "operator": self.mutant.operator,
            "label": self.mutant.label,
            "expression": str(self.mutant.expr),
            "fate": self.fate,
            "profile": self.profile,
            "killers": self.killers,
            "claims": list(self.claims),
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class BoundMutation:
    """The mutants of one bound."""

    bound: Bound
    claims: tuple[str, ...]
    results: tuple[MutantResult, ...]
    #: baseline failures: claims of the bound that fail with the true bound (not used as killers)
    failing: tuple[str, ...] = ()

    def count(self, fate: Fate) -> int:
        return sum(r.fate == fate for r in self.results)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bound": self.bound.id,
            "paper": self.bound.paper,
            "claims": list(self.claims),
            "failing_without_mutant": list(self.failing),
            "unjudged_reason": self.bound.unjudged_reason if not self.claims else None,
            "mutants": [r.to_dict() for r in self.results],
        }


@dataclass(frozen=True)
class MutationRun:
    """The outcome of :func:`mutate`."""

    bounds: tuple[BoundMutation, ...]
    seconds: float
    info: dict[str, Any]

    def score(self, paper: str | None = None) -> tuple[int, int, float]:
        """(killed, killed + survived, score) over the bounds of ``paper`` (or all)."""
        chosen = [b for b in self.bounds if paper is None or b.bound.paper == paper]
        killed = sum(b.count("killed") for b in chosen)
        total = killed + sum(b.count("survived") for b in chosen)
        return killed, total, (killed / total if total else math.nan)

    @property
    def papers(self) -> list[str]:
        return sorted({b.bound.paper for b in self.bounds})

    def to_dict(self) -> dict[str, Any]:
        return {
            "info": self.info,
            "seconds": self.seconds,
            "scores": {
                paper: dict(zip(("killed", "judged", "score"), self.score(paper), strict=True))
                for paper in self.papers
            },
            "bounds": [b.to_dict() for b in self.bounds],
        }


ProgressCallback = Callable[[str], None]


def _selected_bounds(paper: str | None, bound: str | None) -> list[Bound]:
    if paper is not None and paper not in PAPERS:
        raise ParameterError(
            parameter="--paper",
            value=paper,
            rule=f"unknown paper key (known: {', '.join(sorted(PAPERS))}; a paper of your own "
            "is known once a claim file under the paths imports the module that registers it)",
        )
    if bound is not None:
        chosen = get(bound)
        if paper is not None and chosen.paper != paper:
            raise ParameterError(
                parameter="--bound", value=bound, rule=f"is not a bound of --paper {paper}"
            )
        return [chosen]
    return list(iter_bounds(paper))


class _Session:
    """One executor, one store and the data read so far, shared by every mutant's run."""

    def __init__(self, runner: Executor, store: ResultStore, seed: int) -> None:
        self.runner = runner
        self.store = store
        self.seed = seed
        self.data: dict[tuple[str, str, str], Measurements] = {}
        self.computed = 0

    def judge(
        self, claims: Sequence[LoadedClaim], profile: str, mutant: Mutant | None
    ) -> list[ClaimResult]:
        planned = plan(claims, profile, self.seed, mutant=mutant)
        todo, total = missing_replicates(planned, self.store)
        if total:
            execute(self.runner, todo, self.store, self.seed, False, total, None)
            self.computed += total
        return judge_all(planned, self.store, self.seed, self.data)


def _reloaded(claims: Sequence[LoadedClaim]) -> list[LoadedClaim]:
    """The same claims, loaded again in the registry as it is now (under a planted mutant)."""
    wanted = {c.claim.id for c in claims}
    out: list[LoadedClaim] = []
    for file in dict.fromkeys(c.file for c in claims):
        out.extend(c for c in load_claim_file(file) if c.claim.id in wanted)
    return out


def _factors_where_judged(
    baseline: Sequence[ClaimResult], judged: dict[str, ClaimResult]
) -> list[float]:
    """mutant / bound at every point where a claim compared data with the bound: the rows of
    the claim's verdict table (``bound`` column) with the mutant and without."""
    factors: list[float] = []
    for base in baseline:
        mutated = judged.get(base.claim.id)
        if mutated is None or len(mutated.verdict.table) != len(base.verdict.table):
            continue
        for before, after in zip(base.verdict.table, mutated.verdict.table, strict=True):
            old, new = before.get("bound"), after.get("bound")
            if isinstance(old, (int, float)) and isinstance(new, (int, float)) and old != 0:
                ratio = float(new) / float(old)
                if math.isfinite(ratio):
                    factors.append(ratio)
    return factors


def _explain(
    bound: Bound,
    mutant: Mutant,
    baseline: Sequence[ClaimResult],
    judged: dict[str, ClaimResult] | None = None,
) -> str:
    """Why a mutant survived, as far as the numbers say.

    Where the claims compared data with the bound point by point (their verdict tables), the
    change is read there: the mutant / bound ratios at the points judged; otherwise at the
    bound's example point.
    """
    where = _factors_where_judged(baseline, judged or {})
    if where:
        ratios, place = where, "where the claims judge it"
    else:
        ratios, place = change_factors(mutant), "at the example point"
    if not ratios:
        return "the mutant is undefined at the bound's example point"
    low, high = min(ratios), max(ratios)
    change = f"×{low:.3g}" if math.isclose(low, high, rel_tol=1e-3) else f"×{low:.3g}–{high:.3g}"
    change += f" {place}"
    if all(abs(r - 1) < 1e-9 for r in ratios):
        if where:
            return (
                "equal to the bound at every point the claims judge (the changed symbols are "
                "held where the change vanishes, e.g. at 1): only a claim that varies them "
                "could see it"
            )
        return (
            "equal to the bound at the example point: the change vanishes where a changed "
            "symbol is 1 (or 0); claims that vary it would see it"
        )
    if low <= 0:
        return f"changes the sign of the bound ({change}): no claim evaluates it there"
    if where and len(where) > 1 and math.isclose(low, high, rel_tol=1e-9):
        # the same factor at every judged point: what the mutant changes never moves in the
        # claims' data (e.g. beta = mu = 1 on every instance), so it acts as a constant error
        return (
            f"a constant ×{low:.3g} at every point the claims judge: what it changes is held "
            "fixed in all their data (a symbol no claim varies), so it is a constant error"
            + _against_slack(bound, low, high, baseline)
        )
    upper = bound.kind in ("upper", "order-upper")
    lower = bound.kind in ("lower", "order-lower")
    if (upper and low >= 1) or (lower and high <= 1):
        return (
            f"looser ({change}): a claim that the bound holds cannot see a looser bound; only a "
            "claim that it is attained (or a rate claim) could"
        )
    if mutant.operator == "drop":
        return (
            f"the dropped term changes the bound {change}: negligible, or compensated, where "
            "the claims measure"
        )
    return change + _against_slack(bound, low, high, baseline)


def _against_slack(bound: Bound, low: float, high: float, baseline: Sequence[ClaimResult]) -> str:
    """How a change of the bound by ×low–high compares with the claims' resolving power."""
    slacks = [s for s in (_slack(r) for r in baseline) if s is not None]
    if not slacks:
        return "; no claim of the bound measures its slack"
    smallest = min(slacks)
    shown = f"{smallest:.3g}"
    upper = bound.kind in ("upper", "order-upper")
    lower = bound.kind in ("lower", "order-lower")
    tightened = low if upper else 1 / high if lower else min(low, 1 / high)
    if (upper and low >= 1) or (lower and high <= 1):
        return " that only loosens the bound"
    if smallest > 1 and tightened >= 1 / smallest:
        return f", within the claims' smallest slack ×{shown}: below their resolving power"
    return f"; the claims' smallest slack is ×{shown}"


def _slack(result: ClaimResult) -> float | None:
    """The slack at the tightest point of a bound claim (≥ 1): its resolving power."""
    numbers = result.verdict.numbers or {}
    value = numbers.get("resolving_power")
    if value is None:
        side = getattr(result.claim.criterion, "side", None)
        if side == 1.0:
            value = numbers.get("min_ratio")
        elif side == -1.0 and numbers.get("max_ratio"):
            value = 1.0 / numbers["max_ratio"]
    if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
        return float(value)
    return None


def mutate(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    *,
    paper: str | None = None,
    bound: str | None = None,
    executor: str | Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    store: str | os.PathLike[str] = DEFAULT_STORE,
    seed: int = 0,
    progress: ProgressCallback | None = None,
) -> MutationRun:
    """Run the mutation analysis of the registered bounds against the claim catalog.

    Parameters
    ----------
    paths
        Claim files or folders (default ``./verification``).
    paper, bound
        Only the bounds of this paper, or only this bound (by id).
    executor, scheduler, workers, store, seed
        As for :func:`fedtheory.verify.verify`.
    progress
        Called with one line of text per bound.

    Raises
    ------
    ParameterError
        Bad input (unknown paper or bound id, a bound of another paper than ``paper``, ...).
    NoClaimsError
        The paths hold no claim.
    """
    start = time.perf_counter()
    roots = paths_argument(paths)
    base_seed = check_seed(seed)
    if paper is not None and not isinstance(paper, str):
        raise ParameterError(parameter="--paper", value=paper, rule="must be a paper key")
    if not isinstance(executor, Executor):
        check_executor_options(executor, workers=workers, scheduler=scheduler)
    # the claims first: loading them registers the bounds of a paper of the user's own
    found = discover(roots)
    chosen = _selected_bounds(paper, bound)
    if not found:
        raise NoClaimsError(f"no claims found under {', '.join(map(str, roots)) or 'verification'}")
    owns = not isinstance(executor, Executor)
    runner = (
        executor
        if isinstance(executor, Executor)
        else make_executor(executor, workers=workers, scheduler=scheduler)
    )
    outcomes: list[BoundMutation] = []
    try:
        with ResultStore(Path(store)) as results_store:
            session = _Session(runner, results_store, base_seed)
            for target in chosen:
                outcomes.append(_mutate_bound(target, found, session))
                if progress is not None:
                    done = outcomes[-1]
                    progress(
                        f"{target.id}: {done.count('killed')} killed, {done.count('survived')} "
                        f"survived, {done.count('equivalent')} equivalent"
                        + ("" if done.claims else " (judged by no claim)")
                    )
    finally:
        if owns:
            runner.close()
    seconds = time.perf_counter() - start
    info = {
        "paper": paper,
        "bound": bound,
        "seed": base_seed,
        "store": str(store),
        "executor": runner.description,
        "workers": runner.workers,
        "replicates_computed": session.computed,
        "paths": [str(p) for p in roots] or ["verification"],
    }
    return MutationRun(tuple(outcomes), seconds, info)


def _mutate_bound(target: Bound, found: Sequence[LoadedClaim], session: _Session) -> BoundMutation:
    judging = [c for c in found if target.id in c.claim.bounds]
    claim_ids = tuple(c.claim.id for c in judging)
    candidates = mutants(target)
    if not judging:
        unjudged = tuple(
            MutantResult(m, "equivalent" if m.equivalent else "unjudged") for m in candidates
        )
        return BoundMutation(target, (), unjudged)
    baseline: dict[str, list[ClaimResult]] = {}

    def passing(profile: str) -> set[str]:
        # the unmutated verdicts, judged the first time a mutant gets this far
        if profile not in baseline:
            baseline[profile] = session.judge(judging, profile, None)
        return {r.claim.id for r in baseline[profile] if r.passed}

    failing = tuple(sorted({c.claim.id for c in judging} - passing("smoke")))
    # both baselines with the true bound in the registry: judged lazily inside a mutant's
    # block, the quick baseline would be the first survivor's verdicts (and a claim that
    # kills that mutant at quick would be dropped as "failing without a mutant")
    passing("quick")
    results: list[MutantResult] = []
    for mutant in candidates:
        if mutant.equivalent:
            results.append(MutantResult(mutant, "equivalent", claims=claim_ids))
            continue
        killers: dict[str, str] = {}
        killed_at = None
        judged: dict[str, ClaimResult] = {}
        # a mutant may make a formula NaN or overflow where the claims evaluate it: what
        # that does to the claims is the result; numpy's warnings about it are noise here
        with applied(mutant), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                claims = _reloaded(judging)
            except FedTheoryError as exc:  # a claim file refuses the mutant: caught at load
                claims = []
                killers = {c.claim.id: f"error: {exc}" for c in judging}
                killed_at = PROFILES_TRIED[0]
            # claims on unmutated data first (judging only), then one at a time: the first
            # failure kills the mutant; data the mutant changes is computed last
            ordered = sorted(claims, key=lambda c: mutant.bound in c.claim.measurement.bounds)
            for profile in PROFILES_TRIED if claims else ():
                expected = passing(profile)
                for claim in ordered:
                    if claim.claim.id not in expected:
                        continue
                    [result] = session.judge([claim], profile, mutant)
                    judged[result.claim.id] = result
                    if not result.passed:
                        killers[result.claim.id] = result.verdict.outcome
                        break
                if killers:
                    killed_at = profile
                    break
        if killers:
            results.append(MutantResult(mutant, "killed", killed_at, killers, claim_ids))
        else:
            passing("quick")
            why = _explain(target, mutant, baseline["quick"], judged)
            results.append(MutantResult(mutant, "survived", None, {}, claim_ids, why))
    return BoundMutation(target, claim_ids, tuple(results), failing)
