"""The runner: claims → tasks → store → verdicts (DESIGN §6).

``verify`` discovers claim files, expands each selected claim's sweep for the profile into
replicates with deterministic seeds, skips the replicates the store already holds, runs the rest
as tasks (a point and a block of its replicates) on an executor, stores every result as it
arrives, then reads the measurements back from the store in sweep order and judges each claim.

Seeds (DESIGN §4): replicate ``r`` at parameter point ``p`` of measurement ``c`` (a claim's
:class:`~fedtheory.verify.claim.Measurement`, whose id is the claim id for a claim alone on its
data) under base seed ``s`` gets ``SeedSequence(s, spawn_key=(h(c), h(p), r))`` where ``h`` is a
128-bit hash, reduced to a 63-bit integer. It depends on nothing else — not the executor, the
worker count, the blocking, the order of points or the other claims — so the same seed gives the
same bits everywhere, and the claims of one measurement share every replicate (computed once).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import math
import os
import platform
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fedtheory._version import __version__
from fedtheory.bounds.mutation import Mutant
from fedtheory.errors import NoClaimsError, ParameterError
from fedtheory.verify import _display
from fedtheory.verify._arguments import (
    check_limits,
    check_profile,
    check_seed,
    check_timeout_executor,
)
from fedtheory.verify.claim import ClaimResult, Measurement
from fedtheory.verify.discovery import LoadedClaim, discover, paths_argument, select
from fedtheory.verify.executors import (
    Executor,
    check_executor_options,
    error_location,
    make_executor,
)
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.store import (
    DEFAULT_STORE,
    ResultStore,
    _result_keys,
    canonical_json,
    result_key,
)
from fedtheory.verify.sweep import PROFILES
from fedtheory.verify.verdict import Verdict, format_ci, format_seconds

__all__ = [
    "PlannedClaim",
    "Replicate",
    "RunInterrupted",
    "RunProgress",
    "VerifyRun",
    "judge_seed",
    "plan",
    "replicate_seed",
    "verify",
]

ProgressCallback = Callable[[int, int], None]


def _hash_words(text: str) -> tuple[int, ...]:
    digest = hashlib.sha256(text.encode()).digest()[:16]
    return tuple(int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4))


def replicate_seed(
    base_seed: int, measurement_id: str, params: Mapping[str, Any], replicate: int
) -> int:
    """The seed of one replicate of a measurement (63 bits), from ``numpy.random.SeedSequence``.

    >>> seed = replicate_seed(0, "classic/x/y", {"T": 10}, 0)
    >>> seed == replicate_seed(0, "classic/x/y", {"T": 10}, 0), 0 <= seed < 2**63
    (True, True)
    """
    base_seed = check_seed(base_seed)
    return _replicate_seeds(
        base_seed, measurement_id, canonical_json(dict(params)), replicate, replicate + 1
    )[0]


def _replicate_seeds(
    base_seed: int, measurement_id: str, params_json: str, start: int, stop: int
) -> list[int]:
    """:func:`replicate_seed` of replicates ``start, ..., stop - 1`` at one point (its
    ``canonical_json`` given), hashing the measurement id and the point once."""
    words = (*_hash_words(measurement_id), *_hash_words(params_json))
    seeds = []
    for replicate in range(start, stop):
        sequence = np.random.SeedSequence(base_seed, spawn_key=(*words, replicate))
        seeds.append(int(sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1)))
    return seeds


def judge_seed(base_seed: int, claim_id: str) -> int:
    """Seed of a claim's resampling (bootstrap) when it is judged."""
    sequence = np.random.SeedSequence(
        check_seed(base_seed), spawn_key=(*_hash_words(claim_id), 0xFFFFFFFF)
    )
    return int(sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class Replicate:
    """One replicate to measure: its point, index, seed and cache key."""

    point: int
    replicate: int
    seed: int
    key: str


@dataclass
class PlannedClaim:
    """A claim expanded for one profile."""

    loaded: LoadedClaim
    profile: str
    points: tuple[dict[str, Any], ...]
    replicates: list[Replicate]
    block: int
    #: the fingerprint in the data's cache keys: the code's, plus the mutant's id and digest
    #: when the experiment evaluates the mutated bound (else the data is the unmutated one's)
    data_fingerprint: str = ""
    #: ``Mutant.to_dict()`` for the tasks, when the experiment evaluates the mutated bound
    mutant: dict[str, str] | None = None
    cached: int = 0
    computed: int = 0
    compute_seconds: float = 0.0
    #: failures of the tasks its data needed: ``{message, where, traceback}``
    errors: list[dict[str, Any]] = field(default_factory=list)
    #: the registered bounds the experiment evaluated in the replicates computed for this
    #: claim's tasks (None until one is computed; see ``ClaimResult.evaluated``)
    evaluated: set[str] | None = None

    @property
    def id(self) -> str:
        return self.loaded.claim.id


def _sweeps_by_profile(measurement: Measurement) -> dict[str, dict[str, Any]] | None:
    if measurement.sweeps is None:
        return None
    return {p: measurement.sweep(p).to_dict() for p in PROFILES}


def _check_same_measurement(first: LoadedClaim, other: LoadedClaim) -> None:
    """Refuse two different measurements with one id (their seeds and store keys would mix)."""
    a, b = first.claim.measurement, other.claim.measurement
    if a is b:
        return
    experiments = [
        (str(loaded.file), loaded.claim.experiment.__qualname__) for loaded in (first, other)
    ]
    if experiments[0] != experiments[1]:
        why = (
            f"measured by {experiments[0][1]} in {experiments[0][0]} for {first.claim.id}, by "
            f"{experiments[1][1]} in {experiments[1][0]} for {other.claim.id}"
        )
    elif _sweeps_by_profile(a) != _sweeps_by_profile(b):
        why = f"with different sweeps for {first.claim.id} and {other.claim.id}"
    else:
        return  # two equal declarations of one measurement: same seeds, same data
    raise ParameterError(
        parameter="measurement",
        value=a.id,
        rule=f"names two different measurements, {why}; give one of them another id",
    )


def plan(
    claims: Sequence[LoadedClaim],
    profile: str,
    base_seed: int = 0,
    *,
    mutant: Mutant | None = None,
) -> list[PlannedClaim]:
    """Expand claims into replicates with their seeds and keys (nothing runs).

    Seeds and keys come from the claim's measurement id, so the claims of one measurement get
    the same replicates (computed once by :func:`verify`). With a ``mutant`` (mutation
    analysis), the measurements whose experiment evaluates the mutated bound (their ``uses``)
    get keys of their own, holding the mutant's id and digest; the others' data is the
    unmutated data (the experiment does not evaluate the bound), and so are their keys.

    Raises
    ------
    ParameterError
        Unknown profile, bad seed, or two different measurements (another experiment or other
        sweeps) with the same id.
    """
    check_profile(profile)
    base_seed = check_seed(base_seed)
    planned = []
    first_of: dict[str, LoadedClaim] = {}
    # (measurement, fingerprint, point) -> (seed, key) of replicates 0, 1, ...: the claims of
    # one measurement share them, so each is derived once
    derived: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
    for loaded in claims:
        claim = loaded.claim
        measurement_id = claim.measurement.id
        _check_same_measurement(first_of.setdefault(measurement_id, loaded), loaded)
        sweep = claim.sweep(profile)
        points = sweep.points()
        fingerprint, task_mutant = loaded.fingerprint, None
        if mutant is not None and mutant.bound in claim.measurement.bounds:
            fingerprint = f"{loaded.fingerprint}+{mutant.id}:{mutant.digest}"
            task_mutant = mutant.to_dict()
        replicates: list[Replicate] = []
        for index, params in enumerate(points):
            params_json = canonical_json(params)
            known = derived.setdefault((measurement_id, fingerprint, params_json), [])
            if len(known) < sweep.replicates:
                seeds = _replicate_seeds(
                    base_seed, measurement_id, params_json, len(known), sweep.replicates
                )
                keys = _result_keys(measurement_id, params_json, seeds, fingerprint, __version__)
                known.extend(zip(seeds, keys, strict=True))
            replicates.extend(Replicate(index, r, *known[r]) for r in range(sweep.replicates))
        block = sweep.block or sweep.replicates
        planned.append(
            PlannedClaim(loaded, profile, points, replicates, block, fingerprint, task_mutant)
        )
    return planned


def _tasks(
    planned: PlannedClaim, missing: list[Replicate], workers: int
) -> list[tuple[dict[str, Any], list[str]]]:
    """Group a claim's missing replicates into tasks (one point, a block of replicates), each
    with the store keys of its replicates."""
    by_point: dict[int, list[Replicate]] = {}
    for rep in missing:
        by_point.setdefault(rep.point, []).append(rep)
    block = planned.block
    if planned.loaded.claim.sweep(planned.profile).block is None and by_point:
        # few points with many replicates: split so that every worker gets work
        splits = max(1, math.ceil(2 * workers / len(by_point)))
        largest = max(len(v) for v in by_point.values())
        block = max(1, min(block, math.ceil(largest / splits)))
    tasks = []
    for index, reps in by_point.items():
        for start in range(0, len(reps), block):
            chunk = reps[start : start + block]
            task = (
                {
                    "file": str(planned.loaded.file),
                    "claim": planned.id,
                    "code": planned.loaded.code.as_dict(),
                    "params": planned.points[index],
                    "replicates": [[r.replicate, r.seed] for r in chunk],
                    "mutant": planned.mutant,
                },
                [r.key for r in chunk],
            )
            tasks.append(task)
    return tasks


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C: what was finished is in the store.

    Attributes
    ----------
    stored
        Replicates this run computed and stored (those of the cancelled tasks included).
    cancelled
        Tasks that were in flight or waiting when the run stopped.
    store
        The store that holds the finished replicates.
    """

    def __init__(self, stored: int, cancelled: int, store: str) -> None:
        super().__init__(f"interrupted: {stored} finished replicates kept in {store}")
        self.stored = stored
        self.cancelled = cancelled
        self.store = store


@contextlib.contextmanager
def _second_interrupt_exits() -> Iterator[None]:
    """While cleaning up after a first Ctrl-C, a second one ends the process at once.

    SIGINT gets its default action (the process ends by the signal; a shell shows 130): it
    works even while the main thread waits inside C (a store write), where a Python handler
    would not run until the call returns.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass(frozen=True)
class VerifyRun:
    """What ``fedtheory verify`` produced: the judged claims and how the run went."""

    results: tuple[ClaimResult, ...]
    seconds: float
    info: dict[str, Any]
    #: claims selected but never judged: the run stopped first (``maxfail``)
    not_judged: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """0 when every gating claim's outcome equals its expectation, else 1 (DESIGN §6);
        the outcomes of claims with ``gating=False`` are reported and never fail the run."""
        return 0 if all(r.acceptable for r in self.results) and not self.not_judged else 1

    def html(self, *, figures: bool | None = None) -> str:
        """The run as compact HTML, as Jupyter shows it (:meth:`_repr_html_`).

        The counts per status (coloured as in ``index.html``) and the wall time, then one row
        per claim: id, outcome badge, predicted, measured, CI and whether it passed. With
        ``figures`` (default: only when the run judged a single claim) every claim's card
        follows, with its figure (:meth:`ClaimResult.html`).
        """
        e = _display.escape
        counts = _display.summarize(self.results)
        noun = "claim" if counts["total"] == 1 else "claims"
        totals = " ".join(
            f'<span class="ft-count {e(s)}">{counts[s]} {e(s)}</span>'
            for s in _display.shown_statuses(counts)
        )
        parts = [
            f"<div><strong>{counts['total']} {noun}:</strong> {totals}"
            f'<span class="ft-muted">— {e(format_seconds(self.seconds))}</span></div>'
        ]
        if self.not_judged:
            parts.append(
                f'<div class="ft-muted">{len(self.not_judged)} not judged (the run stopped '
                f"first): {e(', '.join(self.not_judged))}</div>"
            )
        if self.results:
            head = "".join(
                f"<th>{h}</th>" for h in ("claim", "outcome", "predicted", "measured", "CI", "pass")
            )
            rows = []
            for r in self.results:
                mark = (
                    '<span class="ft-pass">✓</span>'
                    if r.passed
                    else '<span class="ft-fail">✗</span>'
                    + ("" if r.claim.gating else ' <span class="ft-muted">not gating</span>')
                )
                rows.append(
                    f"<tr><td><code>{e(r.claim.id)}</code></td>"
                    f"<td>{_display.badge(r.status, r.verdict.outcome)}</td>"
                    f"<td>{e(r.verdict.predicted or '—')}</td>"
                    f"<td>{e(r.verdict.measured or '—')}</td>"
                    f'<td class="ft-num">{e(format_ci(r.verdict.ci))}</td><td>{mark}</td></tr>'
                )
            parts.append(f"<table><tr>{head}</tr>{''.join(rows)}</table>")
        if figures is None:
            figures = len(self.results) == 1
        if figures:
            parts.extend(r._card(figure=True) for r in self.results)
        return _display.display("".join(parts))

    def _repr_html_(self) -> str:
        return self.html()


def _measurements(planned: PlannedClaim, stored: Mapping[str, dict[str, float]]) -> Measurements:
    sweep = planned.loaded.claim.sweep(planned.profile)
    per_point: dict[int, list[tuple[Replicate, dict[str, float]]]] = {}
    for rep in planned.replicates:
        per_point.setdefault(rep.point, []).append((rep, stored[rep.key]))
    points = []
    for index, params in enumerate(planned.points):
        rows = per_point[index]
        names = sorted(rows[0][1])  # the order the store gives
        first = rows[0][1].keys()
        in_order = True  # every replicate lists its outputs in that order
        for rep, outputs in rows:
            if outputs.keys() != first:
                raise ParameterError(
                    f"{planned.id}: replicate {rep.replicate} at {params} returned outputs "
                    f"{sorted(outputs)}, others {sorted(names)}"
                )
            in_order = in_order and list(outputs) == names
        if in_order:  # one table, then its columns
            table = np.array([list(o.values()) for _, o in rows], dtype=float)
            values = {n: table[:, j].copy() for j, n in enumerate(names)}
        else:
            values = {n: np.array([o[n] for _, o in rows], dtype=float) for n in names}
        points.append(
            PointMeasurements(
                params=dict(params),
                replicates=np.array([rep.replicate for rep, _ in rows]),
                seeds=np.array([rep.seed for rep, _ in rows], dtype=np.uint64),
                values=values,
            )
        )
    return Measurements(planned.id, sweep.varied, tuple(points))


def _error_verdict(errors: Sequence[Mapping[str, Any]]) -> Verdict:
    """The error verdict of a claim whose tasks failed: the first failure, where and its
    traceback, and how many more there were."""
    first = errors[0]
    more = f" (and {len(errors) - 1} more failed task(s))" if len(errors) > 1 else ""
    return Verdict.error(
        first["message"] + more, where=first.get("where"), traceback=first.get("traceback")
    )


def _judge(
    planned: PlannedClaim,
    store: ResultStore,
    base_seed: int,
    data_cache: dict[tuple[str, str, str], Measurements] | None = None,
    fresh: Mapping[str, dict[str, float]] | None = None,
) -> tuple[Verdict, Measurements | None]:
    """Judge a claim on its replicates: those in ``fresh`` (outputs this run has just stored,
    see :meth:`_Session.stored`) as they are, the others read from the store."""
    if planned.errors:
        return _error_verdict(planned.errors), None
    cache_key = (planned.id, planned.profile, planned.data_fingerprint)
    data = None if data_cache is None else data_cache.get(cache_key)
    if data is None:
        fresh = fresh or {}
        stored = {r.key: fresh[r.key] for r in planned.replicates if r.key in fresh}
        if len(stored) < len(planned.replicates):
            stored.update(store.existing(r.key for r in planned.replicates if r.key not in stored))
        missing = [r for r in planned.replicates if r.key not in stored]
        if missing:
            return Verdict.error(f"{len(missing)} replicate(s) missing from the store"), None
    try:
        if data is None:
            data = _measurements(planned, stored)
            if data_cache is not None:
                data_cache[cache_key] = data
        verdict = planned.loaded.claim.criterion.judge(data, seed=judge_seed(base_seed, planned.id))
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit from a criterion too: an error of this claim
        verdict = Verdict.error(
            f"judging failed: {type(exc).__name__}: {exc}",
            where=error_location(exc, str(planned.loaded.file)),
            traceback="".join(traceback.format_exception(exc)),
        )
    return verdict, data


def _check_arguments(claims: Any, executor: Any, store: Any, no_cache: Any, progress: Any) -> None:
    if claims is not None and not (
        isinstance(claims, str)
        or (isinstance(claims, Sequence) and claims and all(isinstance(c, str) for c in claims))
    ):
        raise ParameterError(
            parameter="claims", value=repr(claims), rule="must be a glob or a sequence of globs"
        )
    if executor is not None and not isinstance(executor, (str, Executor)):
        raise ParameterError(
            parameter="executor",
            value=repr(executor),
            rule="must be 'local', 'dask' or an Executor",
        )
    if not isinstance(store, (str, os.PathLike)):
        raise ParameterError(parameter="store", value=repr(store), rule="must be a path")
    if not isinstance(no_cache, bool):
        raise ParameterError(parameter="no_cache", value=repr(no_cache), rule="must be a bool")
    if progress is not None and not callable(progress):
        raise ParameterError(
            parameter="progress", value=repr(progress), rule="must be callable(done, total)"
        )


def verify(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] = (),
    *,
    profile: str = "quick",
    claims: str | Sequence[str] | None = None,
    keyword: str | None = None,
    executor: str | Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    store: str | os.PathLike[str] = DEFAULT_STORE,
    seed: int = 0,
    no_cache: bool = False,
    progress: ProgressCallback | None = None,
    on_claim: Callable[[ClaimResult], None] | None = None,
    on_progress: Callable[[RunProgress], None] | None = None,
    maxfail: int | None = None,
    timeout: float | None = None,
) -> VerifyRun:
    """Run the claim catalog and judge every claim.

    Every argument is checked before anything is loaded or run (whatever the store holds).

    Parameters
    ----------
    paths
        A claim file or folder, or a sequence of them (default ``./verification``).
        Discovery never leaves them.
    profile
        ``smoke``, ``quick`` or ``full``.
    claims
        Glob on claim ids (``*`` also matches ``/``), or several (a claim matching any).
    keyword
        A ``-k`` expression on claim ids (:func:`fedtheory.verify.selection.keyword_matcher`).
    executor, scheduler, workers
        Where tasks run (see :func:`fedtheory.verify.executors.make_executor`); an
        :class:`Executor` instance is used as is (and not closed).
    store
        SQLite result store.
    seed
        Base seed of every replicate seed, in ``[0, 2**63)``.
    no_cache
        Recompute every replicate and overwrite the stored rows.
    progress
        Called as ``progress(done, total)`` with counts of replicates.
    on_claim
        Called with each :class:`ClaimResult` as soon as the claim is judged — at once for a
        claim whose replicates are all stored, else when the last task its data needs has
        answered — so that a long run reports claim by claim.
    on_progress
        Called with a :class:`RunProgress` at the start and after every task (cost-weighted
        counts for an ETA, claims done, claims under way).
    maxfail
        Stop after this many claims did not pass (``-x`` is 1): tasks in flight are
        cancelled, finished replicates kept, the claims not judged are listed in
        :attr:`VerifyRun.not_judged`.
    timeout
        Seconds: a claim still computing that long after its first task started is stopped
        and judged ``error`` (``TimeoutError``); local executor only.

    Raises
    ------
    ParameterError
        Bad input: an argument of the wrong type or out of range, unknown profile, missing
        path, malformed claim file, glob matching no claim, an endpoint that is not a Dask
        scheduler, a file that is not a result store.
    NoClaimsError
        The paths hold no claim.
    StoreError
        The store is damaged, locked or cannot be written (a file that is not a result store
        is a ParameterError).
    RunInterrupted
        Ctrl-C (a :class:`KeyboardInterrupt`): raised once the tasks in flight are cancelled
        and every finished replicate is stored.
    """
    start = time.perf_counter()
    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    roots = paths_argument(paths)
    check_profile(profile)
    base_seed = check_seed(seed)
    _check_arguments(claims, executor, store, no_cache, progress)
    check_limits(maxfail, timeout, on_claim, on_progress)
    if not isinstance(executor, Executor):
        check_executor_options(executor, workers=workers, scheduler=scheduler)
        check_timeout_executor(timeout, executor, scheduler)
    found = discover(roots)
    if not found:
        shown = ", ".join(str(r) for r in roots) or "verification"
        raise NoClaimsError(f"no claims found under {shown}")
    chosen = select(found, claims, keyword)
    planned = plan(chosen, profile, base_seed)
    owns_executor = not isinstance(executor, Executor)
    stopped = False
    with ResultStore(Path(store)) as results_store:
        session = _Session(planned, results_store, base_seed, on_claim=on_claim, maxfail=maxfail)
        todo, total = missing_replicates(planned, results_store, no_cache=no_cache)
        runner = executor if isinstance(executor, Executor) else None
        description = "none (all cached)"
        n_workers = None
        try:
            if not total:
                session.wire([])
                session.judge_ready()
            else:
                if runner is None:
                    runner = make_executor(
                        executor if isinstance(executor, str) else None,
                        workers=workers,
                        scheduler=scheduler,
                    )
                description, n_workers = runner.description, runner.workers
                execute(
                    runner,
                    todo,
                    results_store,
                    base_seed,
                    no_cache,
                    total,
                    progress,
                    session=session,
                    timeout=timeout,
                    on_progress=on_progress,
                )
        except _Stop:
            stopped = True
        finally:
            if runner is not None and owns_executor:
                runner.close()
        results = session.ordered()
        not_judged = tuple(session.not_judged())
    seconds = time.perf_counter() - start
    info = {
        "profile": profile,
        "seed": base_seed,
        "executor": description,
        "workers": n_workers,
        "store": str(store),
        "paths": [str(p) for p in roots] or ["verification"],
        "claims": claims if claims is None or isinstance(claims, str) else list(claims),
        "keyword": keyword,
        "no_cache": no_cache,
        "started": started,
        "seconds": seconds,
        "replicates_computed": sum(p.computed for p in planned),
        "replicates_cached": sum(p.cached for p in planned),
        "maxfail": maxfail,
        "timeout": timeout,
        "stopped_after_failures": maxfail if stopped else None,
        "not_judged": list(not_judged),
        "command": " ".join(sys.argv),
        "fedtheory_version": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }
    return VerifyRun(tuple(results), seconds, info, not_judged)


def missing_replicates(
    planned: Sequence[PlannedClaim], store: ResultStore, *, no_cache: bool = False
) -> tuple[list[tuple[PlannedClaim, list[Replicate]]], int]:
    """The replicates each planned claim still needs (once per measurement), and their total.

    Sets each claim's ``cached`` count.
    """
    todo: list[tuple[PlannedClaim, list[Replicate]]] = []
    scheduled: set[str] = set()  # the claims of one measurement compute it once
    for p in planned:
        stored = {} if no_cache else store.existing(r.key for r in p.replicates)
        missing = [r for r in p.replicates if r.key not in stored and r.key not in scheduled]
        scheduled.update(r.key for r in missing)
        p.cached = len(p.replicates) - len(missing)
        todo.append((p, missing))
    return todo, sum(len(m) for _, m in todo)


def judge_all(
    planned: Sequence[PlannedClaim],
    store: ResultStore,
    base_seed: int,
    data: dict[tuple[str, str, str], Measurements] | None = None,
) -> list[ClaimResult]:
    """Judge every planned claim on its stored replicates.

    ``data`` (optional) keeps the measurements read, by (claim, profile, data fingerprint), so
    that judging the same data again — as mutation analysis does, once per mutant — reads the
    store once.

    The claims of one measurement share what its experiment evaluated in this run
    (``ClaimResult.evaluated``), whichever of them its tasks were planned for.
    """
    evaluated = _evaluated_by_measurement(planned)
    return [_judged(p, store, base_seed, data, evaluated) for p in planned]


def _evaluated_by_measurement(planned: Sequence[PlannedClaim]) -> dict[tuple[str, str], set[str]]:
    evaluated: dict[tuple[str, str], set[str]] = {}
    for p in planned:
        if p.evaluated is not None:
            key = (p.loaded.claim.measurement.id, p.data_fingerprint)
            evaluated.setdefault(key, set()).update(p.evaluated)
    return evaluated


def _judged(
    p: PlannedClaim,
    store: ResultStore,
    base_seed: int,
    data: dict[tuple[str, str, str], Measurements] | None,
    evaluated: Mapping[tuple[str, str], set[str]],
    fresh: Mapping[str, dict[str, float]] | None = None,
) -> ClaimResult:
    verdict, measurements = _judge(p, store, base_seed, data, fresh)
    found = evaluated.get((p.loaded.claim.measurement.id, p.data_fingerprint))
    sweep = p.loaded.claim.sweep(p.profile)
    return ClaimResult(
        claim=p.loaded.claim,
        profile=p.profile,
        verdict=verdict,
        n_points=len(p.points),
        n_replicates=sweep.replicates,
        n_cached=p.cached,
        n_computed=p.computed,
        compute_seconds=p.compute_seconds,
        file=str(p.loaded.file),
        measurements=measurements,
        evaluated=None if found is None else frozenset(found),
    )


def _records(
    planned: PlannedClaim,
    outcome: Mapping[str, Any],
    base_seed: int,
    keys: Mapping[int, tuple[int, str]] | None = None,
) -> list[dict[str, Any]]:
    """The store rows of a task's finished replicates.

    ``keys`` (optional) are the planned ``(seed, key)`` of the task's replicates by replicate
    index: a replicate that has its planned seed takes its planned key (the key of that seed
    at the task's point); any other is keyed from what the outcome says.
    """
    measurement_id = planned.loaded.claim.measurement.id
    params = outcome["params"]
    params_json = canonical_json(params)
    records = []
    for result in outcome["results"]:
        seed = result["seed"]
        known = None if keys is None else keys.get(result["replicate"])
        if known is not None and known[0] == seed:
            key = known[1]
        else:
            key = result_key(measurement_id, params, seed, planned.data_fingerprint, __version__)
        record = {
            "key": key,
            "claim": measurement_id,
            "params": params,
            "params_json": params_json,
            "replicate": result["replicate"],
            "seed": seed,
            "base_seed": base_seed,
            "fingerprint": planned.data_fingerprint,
            "version": __version__,
            "outputs": result["outputs"],
            "seconds": result["seconds"],
        }
        if "outputs_json" in result:
            record["outputs_json"] = result["outputs_json"]
        records.append(record)
    return records


@dataclass(frozen=True)
class RunProgress:
    """Where a run stands, for progress displays (:func:`verify`'s ``on_progress``).

    ``cost_done`` is the compute seconds of the replicates finished; ``cost_total`` adds the
    estimated seconds of those left: per replicate, the mean the store measured for its claim
    in earlier runs, else the mean measured for it so far in this run, else the mean of every
    replicate so far — so an ETA from them accounts for replicates of very different cost and
    sharpens as the run goes.
    """

    replicates_done: int
    replicates_total: int
    cost_done: float
    cost_total: float
    claims_done: int
    claims_total: int
    #: ids of the claims whose tasks are under way and not all answered
    running: tuple[str, ...]


class _Stop(Exception):
    """Enough claims failed (``maxfail``): stop the run, keep what finished."""


class _Session:
    """One run's computing and judging: each claim is judged as soon as every task its data
    needs has answered (its own and those of the claims it shares a measurement with), so a
    long run reports claim by claim, and ``maxfail`` can stop it early.
    """

    def __init__(
        self,
        planned: Sequence[PlannedClaim],
        store: ResultStore,
        base_seed: int,
        *,
        data: dict[tuple[str, str, str], Measurements] | None = None,
        on_claim: Callable[[ClaimResult], None] | None = None,
        maxfail: int | None = None,
    ) -> None:
        self.planned = list(planned)
        self.store = store
        self.base_seed = base_seed
        self.data = data
        self.on_claim = on_claim
        self.maxfail = maxfail
        self.results: dict[int, ClaimResult] = {}
        self.failures = 0
        self.waiting: dict[int, set[int]] = {}  # planned index -> tasks not answered
        self.needs: dict[int, frozenset[int]] = {}  # planned index -> tasks its data needs
        self.needed_by: dict[int, list[int]] = {}  # task -> planned indices
        self.unjudged: dict[int, int] = {}  # task -> claims needing it not judged yet
        self.task_keys: dict[int, list[str]] = {}
        #: outputs this run stored, by key, until every claim that needs them is judged
        self.fresh: dict[str, dict[str, float]] = {}

    def wire(self, tasks: Sequence[tuple[dict[str, Any], list[str]]]) -> None:
        """Which tasks each claim's data needs (by the store keys of their replicates)."""
        task_of = {key: index for index, (_, keys) in enumerate(tasks) for key in keys}
        self.task_keys = {index: keys for index, (_, keys) in enumerate(tasks)}
        for position, p in enumerate(self.planned):
            needs = {task_of[r.key] for r in p.replicates if r.key in task_of}
            self.waiting[position] = needs
            self.needs[position] = frozenset(needs)
            for task in needs:
                self.needed_by.setdefault(task, []).append(position)
                self.unjudged[task] = self.unjudged.get(task, 0) + 1

    def stored(self, records: Sequence[Mapping[str, Any]]) -> None:
        """Keep the outputs of rows this run has just written: the claims judged on them then
        need not read and decode them again.

        Only rows known to hold these outputs are given: written by ``--no-cache`` (which
        overwrites) or new (not left as another run had written them).
        """
        for record in records:
            self.fresh[record["key"]] = record["outputs"]

    def judge_ready(self) -> None:
        """Judge every claim that waits for nothing (all cached, or every task answered)."""
        for position, needs in list(self.waiting.items()):
            if not needs:
                del self.waiting[position]
                self._judge(position)

    def answered(self, task: int, error: dict[str, Any] | None) -> None:
        for position in self.needed_by.get(task, ()):
            if error is not None and error not in self.planned[position].errors:
                self.planned[position].errors.append(error)
            self.waiting.get(position, set()).discard(task)
        self.judge_ready()

    def _judge(self, position: int) -> None:
        p = self.planned[position]
        evaluated = _evaluated_by_measurement(self.planned)
        result = _judged(p, self.store, self.base_seed, self.data, evaluated, self.fresh)
        self.results[position] = result
        for task in self.needs.get(position, ()):
            self.unjudged[task] -= 1
            if not self.unjudged[task]:  # no claim needs its outputs any more
                for key in self.task_keys.get(task, ()):
                    self.fresh.pop(key, None)
        if self.on_claim is not None:
            self.on_claim(result)
        if not result.acceptable:
            self.failures += 1
            if self.maxfail is not None and self.failures >= self.maxfail:
                raise _Stop

    def ordered(self) -> list[ClaimResult]:
        return [self.results[i] for i in sorted(self.results)]

    def not_judged(self) -> list[str]:
        return [p.id for i, p in enumerate(self.planned) if i not in self.results]


class _CostModel:
    """Seconds per replicate of each measurement, for :class:`RunProgress` (see there)."""

    def __init__(self, store: ResultStore, left: Mapping[str, int]) -> None:
        self.history = store.mean_seconds()
        self.left = dict(left)  # measurement -> replicates still to compute
        self.seen: dict[str, list[float]] = {}  # measurement -> [seconds, replicates] this run
        self.done = 0.0
        self.replicates = 0

    def finished(self, measurement: str, seconds: float, replicates: int, answered: int) -> None:
        self.done += seconds
        self.replicates += replicates
        self.left[measurement] = max(0, self.left.get(measurement, 0) - answered)
        if replicates:
            seen = self.seen.setdefault(measurement, [0.0, 0])
            seen[0] += seconds
            seen[1] += replicates

    def _rate(self, measurement: str) -> float:
        if measurement in self.history:
            return self.history[measurement]
        seen = self.seen.get(measurement)
        if seen and seen[1]:
            return seen[0] / seen[1]
        if self.replicates:
            return self.done / self.replicates
        if self.history:
            return sum(self.history.values()) / len(self.history)
        return 1.0

    def total(self) -> float:
        return self.done + sum(n * self._rate(m) for m, n in self.left.items() if n)


def execute(
    runner: Executor,
    todo: list[tuple[PlannedClaim, list[Replicate]]],
    store: ResultStore,
    base_seed: int,
    replace: bool,
    total: int,
    progress: ProgressCallback | None,
    *,
    session: _Session | None = None,
    timeout: float | None = None,
    on_progress: Callable[[RunProgress], None] | None = None,
) -> None:
    """Run the missing replicates on ``runner``, storing each task's as it arrives.

    With a ``session``, claims are judged as their data completes (see :class:`_Session`); a
    ``_Stop`` from it (``maxfail``) aborts the executor, keeping what finished, and goes up.
    """
    by_id = {p.id: p for p, _ in todo}
    pairs = [pair for p, missing in todo if missing for pair in _tasks(p, missing, runner.workers)]
    tasks = [task for task, _ in pairs]
    planned_keys: list[dict[int, tuple[int, str]]] = []  # task -> replicate -> (seed, key)
    for index, (task, keys) in enumerate(pairs):
        task["task"] = index
        replicates = zip(task["replicates"], keys, strict=True)
        planned_keys.append({int(r): (int(seed), key) for (r, seed), key in replicates})
    if session is not None:
        session.wire(pairs)
        session.judge_ready()
    left: dict[str, int] = {}
    for task in tasks:
        measurement = by_id[task["claim"]].loaded.claim.measurement.id
        left[measurement] = left.get(measurement, 0) + len(task["replicates"])
    costs = _CostModel(store, left) if on_progress is not None else None
    claims_total = len(session.planned) if session is not None else len(todo)
    done = 0
    answered: set[int] = set()
    partly: dict[int, int] = {}  # task -> replicates it answered before a retry
    started: set[str] = set()

    def report() -> None:
        if progress is not None:
            progress(done, total)
        if on_progress is not None and costs is not None:
            claims_done = len(session.results) if session is not None else 0
            judged = _judged_ids(session) if session is not None else set()
            running = tuple(sorted(started - judged))
            on_progress(
                RunProgress(
                    done, total, costs.done, costs.total(), claims_done, claims_total, running
                )
            )

    def keep(outcome: Mapping[str, Any]) -> int:
        planned = by_id[outcome["claim"]]
        index = int(outcome.get("task", -1))
        keys = None
        if 0 <= index < len(tasks) and outcome["params"] == tasks[index]["params"]:
            keys = planned_keys[index]
        records = _records(planned, outcome, base_seed, keys)
        written = store.put(records, replace=replace)
        if session is not None and (replace or written == len(records)):
            session.stored(records)
        planned.computed += len(records)
        planned.compute_seconds += sum(r["seconds"] for r in records)
        if outcome["results"]:
            planned.evaluated = (planned.evaluated or set()).union(
                *(result.get("evaluated", ()) for result in outcome["results"])
            )
        return len(records)

    report()
    try:
        for outcome in runner.run(tasks, timeout=timeout):
            kept = keep(outcome)
            done += kept
            index = int(outcome["task"])
            partial = bool(outcome.get("partial"))
            # a partial outcome answers for its own replicates; the task's last for the rest
            counted = len(outcome["results"]) if partial else len(tasks[index]["replicates"])
            counted -= 0 if partial else partly.pop(index, 0)
            if partial:
                partly[index] = partly.get(index, 0) + counted
            if costs is not None:
                measurement = by_id[outcome["claim"]].loaded.claim.measurement.id
                seconds = sum(float(r["seconds"]) for r in outcome["results"])
                costs.finished(measurement, seconds, kept, counted)
            started.add(outcome["claim"])
            if partial:  # its worker pool broke: the other replicates are being run again
                report()
                continue
            error = None
            if outcome["error"]:
                planned = by_id[outcome["claim"]]
                where = ", ".join(f"{k}={v}" for k, v in outcome["params"].items())
                if outcome.get("failed"):
                    replicate, seed = outcome["failed"]
                    where += f"; replicate {replicate}, seed {seed}"
                error = {
                    "message": f"{outcome['error']} (at {where})",
                    "where": outcome.get("where"),
                    "traceback": outcome.get("traceback"),
                }
                if session is None:
                    planned.errors.append(error)
            answered.add(index)
            if session is not None:
                session.answered(index, error)
            report()
    except KeyboardInterrupt:
        with _second_interrupt_exits():
            for outcome in runner.abort():
                done += keep(outcome)
        cancelled = len({t["task"] for t in tasks} - answered)
        raise RunInterrupted(done, cancelled, str(store.path)) from None
    except _Stop:
        with _second_interrupt_exits():
            for outcome in runner.abort():
                keep(outcome)
        raise


def _judged_ids(session: _Session) -> set[str]:
    return {session.planned[i].id for i in session.results}
