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

import datetime as _dt
import hashlib
import math
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fedtheory._version import __version__
from fedtheory.errors import ParameterError
from fedtheory.verify.claim import ClaimResult, Measurement
from fedtheory.verify.discovery import LoadedClaim, discover, select
from fedtheory.verify.executors import Executor, make_executor
from fedtheory.verify.measurements import Measurements, PointMeasurements
from fedtheory.verify.store import DEFAULT_STORE, ResultStore, canonical_json, result_key
from fedtheory.verify.sweep import PROFILES
from fedtheory.verify.verdict import Verdict

__all__ = [
    "PlannedClaim",
    "Replicate",
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


def _check_profile(profile: str) -> None:
    if profile not in PROFILES:
        raise ParameterError(
            parameter="--profile", value=profile, rule=f"must be one of {', '.join(PROFILES)}"
        )


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ParameterError(parameter="--seed", value=seed, rule="must be an int >= 0")
    return int(seed)


def replicate_seed(
    base_seed: int, measurement_id: str, params: Mapping[str, Any], replicate: int
) -> int:
    """The seed of one replicate of a measurement (63 bits), from ``numpy.random.SeedSequence``.

    >>> seed = replicate_seed(0, "classic/x/y", {"T": 10}, 0)
    >>> seed == replicate_seed(0, "classic/x/y", {"T": 10}, 0), 0 <= seed < 2**63
    (True, True)
    """
    sequence = np.random.SeedSequence(
        _check_seed(base_seed),
        spawn_key=(
            *_hash_words(measurement_id),
            *_hash_words(canonical_json(dict(params))),
            replicate,
        ),
    )
    return int(sequence.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def judge_seed(base_seed: int, claim_id: str) -> int:
    """Seed of a claim's resampling (bootstrap) when it is judged."""
    sequence = np.random.SeedSequence(
        _check_seed(base_seed), spawn_key=(*_hash_words(claim_id), 0xFFFFFFFF)
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
    cached: int = 0
    computed: int = 0
    compute_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

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


def plan(claims: Sequence[LoadedClaim], profile: str, base_seed: int = 0) -> list[PlannedClaim]:
    """Expand claims into replicates with their seeds and keys (nothing runs).

    Seeds and keys come from the claim's measurement id, so the claims of one measurement get
    the same replicates (computed once by :func:`verify`).

    Raises
    ------
    ParameterError
        Unknown profile, bad seed, or two different measurements (another experiment or other
        sweeps) with the same id.
    """
    _check_profile(profile)
    base_seed = _check_seed(base_seed)
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
        replicates: list[Replicate] = []
        for index, params in enumerate(points):
            known = derived.setdefault(
                (measurement_id, loaded.fingerprint, canonical_json(params)), []
            )
            for r in range(len(known), sweep.replicates):
                seed = replicate_seed(base_seed, measurement_id, params, r)
                key = result_key(measurement_id, params, seed, loaded.fingerprint, __version__)
                known.append((seed, key))
            replicates.extend(Replicate(index, r, *known[r]) for r in range(sweep.replicates))
        block = sweep.block or sweep.replicates
        planned.append(PlannedClaim(loaded, profile, points, replicates, block))
    return planned


def _tasks(planned: PlannedClaim, missing: list[Replicate], workers: int) -> list[dict[str, Any]]:
    """Group a claim's missing replicates into tasks: one point, a block of replicates."""
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
            tasks.append(
                {
                    "file": str(planned.loaded.file),
                    "claim": planned.id,
                    "params": planned.points[index],
                    "replicates": [[r.replicate, r.seed] for r in chunk],
                }
            )
    return tasks


@dataclass(frozen=True)
class VerifyRun:
    """What ``fedtheory verify`` produced: the judged claims and how the run went."""

    results: tuple[ClaimResult, ...]
    seconds: float
    info: dict[str, Any]

    @property
    def exit_code(self) -> int:
        """0 when every claim's outcome equals its expectation, else 1 (DESIGN §6)."""
        return 0 if all(r.passed for r in self.results) else 1


def _measurements(planned: PlannedClaim, stored: Mapping[str, dict[str, float]]) -> Measurements:
    sweep = planned.loaded.claim.sweep(planned.profile)
    per_point: dict[int, list[tuple[Replicate, dict[str, float]]]] = {}
    for rep in planned.replicates:
        per_point.setdefault(rep.point, []).append((rep, stored[rep.key]))
    points = []
    for index, params in enumerate(planned.points):
        rows = per_point[index]
        names = list(rows[0][1])
        for rep, outputs in rows:
            if set(outputs) != set(names):
                raise ParameterError(
                    f"{planned.id}: replicate {rep.replicate} at {params} returned outputs "
                    f"{sorted(outputs)}, others {sorted(names)}"
                )
        points.append(
            PointMeasurements(
                params=dict(params),
                replicates=np.array([rep.replicate for rep, _ in rows]),
                seeds=np.array([rep.seed for rep, _ in rows], dtype=np.uint64),
                values={n: np.array([o[n] for _, o in rows], dtype=float) for n in names},
            )
        )
    return Measurements(planned.id, sweep.varied, tuple(points))


def _judge(
    planned: PlannedClaim, store: ResultStore, base_seed: int
) -> tuple[Verdict, Measurements | None]:
    if planned.errors:
        more = (
            f" (and {len(planned.errors) - 1} more failed task(s))"
            if len(planned.errors) > 1
            else ""
        )
        return Verdict.error(planned.errors[0] + more), None
    stored = store.existing(r.key for r in planned.replicates)
    missing = [r for r in planned.replicates if r.key not in stored]
    if missing:
        return Verdict.error(f"{len(missing)} replicate(s) missing from the store"), None
    data = None
    try:
        data = _measurements(planned, stored)
        verdict = planned.loaded.claim.criterion.judge(data, seed=judge_seed(base_seed, planned.id))
    except Exception as exc:
        verdict = Verdict.error(f"judging failed: {type(exc).__name__}: {exc}")
    return verdict, data


def verify(
    paths: Sequence[str | Path] = (),
    *,
    profile: str = "quick",
    claims: str | None = None,
    executor: str | Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    store: str | Path = DEFAULT_STORE,
    seed: int = 0,
    no_cache: bool = False,
    progress: ProgressCallback | None = None,
) -> VerifyRun:
    """Run the claim catalog and judge every claim.

    Parameters
    ----------
    paths
        Claim files or folders (default ``./verification``).
    profile
        ``smoke``, ``quick`` or ``full``.
    claims
        Glob on claim ids (``*`` also matches ``/``).
    executor, scheduler, workers
        Where tasks run (see :func:`fedtheory.verify.executors.make_executor`); an
        :class:`Executor` instance is used as is (and not closed).
    store
        SQLite result store.
    seed
        Base seed of every replicate seed.
    no_cache
        Recompute every replicate and overwrite the stored rows.
    progress
        Called as ``progress(done, total)`` with counts of replicates.

    Raises
    ------
    ParameterError
        Bad input: unknown profile, missing path, malformed claim file, glob matching no claim,
        unreachable scheduler, unusable store.
    KeyboardInterrupt
        Propagated after the finished tasks are stored.
    """
    start = time.perf_counter()
    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    _check_profile(profile)
    base_seed = _check_seed(seed)
    chosen = select(discover(paths), claims)
    planned = plan(chosen, profile, base_seed)
    owns_executor = not isinstance(executor, Executor)
    with ResultStore(store) as results_store:
        todo: list[tuple[PlannedClaim, list[Replicate]]] = []
        scheduled: set[str] = set()  # the claims of one measurement compute it once
        for p in planned:
            stored = {} if no_cache else results_store.existing(r.key for r in p.replicates)
            missing = [r for r in p.replicates if r.key not in stored and r.key not in scheduled]
            scheduled.update(r.key for r in missing)
            p.cached = len(p.replicates) - len(missing)
            todo.append((p, missing))
        total = sum(len(m) for _, m in todo)
        runner = executor if isinstance(executor, Executor) else None
        if total and runner is None:
            runner = make_executor(
                executor if isinstance(executor, str) else None,
                workers=workers,
                scheduler=scheduler,
            )
        description = runner.description if runner is not None else "none (all cached)"
        n_workers = runner.workers if runner is not None else None
        try:
            if total:
                assert runner is not None
                _execute(runner, todo, results_store, base_seed, no_cache, total, progress)
        finally:
            if runner is not None and owns_executor:
                runner.close()
        results = []
        for p in planned:
            verdict, measurements = _judge(p, results_store, base_seed)
            sweep = p.loaded.claim.sweep(profile)
            results.append(
                ClaimResult(
                    claim=p.loaded.claim,
                    profile=profile,
                    verdict=verdict,
                    n_points=len(p.points),
                    n_replicates=sweep.replicates,
                    n_cached=p.cached,
                    n_computed=p.computed,
                    compute_seconds=p.compute_seconds,
                    file=str(p.loaded.file),
                    measurements=measurements,
                )
            )
    seconds = time.perf_counter() - start
    info = {
        "profile": profile,
        "seed": base_seed,
        "executor": description,
        "workers": n_workers,
        "store": str(store),
        "paths": [str(p) for p in paths] or ["verification"],
        "claims": claims,
        "no_cache": no_cache,
        "started": started,
        "seconds": seconds,
        "replicates_computed": sum(p.computed for p in planned),
        "replicates_cached": sum(p.cached for p in planned),
        "command": " ".join(sys.argv),
        "fedtheory_version": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }
    return VerifyRun(tuple(results), seconds, info)


def _execute(
    runner: Executor,
    todo: list[tuple[PlannedClaim, list[Replicate]]],
    store: ResultStore,
    base_seed: int,
    replace: bool,
    total: int,
    progress: ProgressCallback | None,
) -> None:
    by_id = {p.id: p for p, _ in todo}
    tasks = [task for p, missing in todo if missing for task in _tasks(p, missing, runner.workers)]
    done = 0
    if progress is not None:
        progress(0, total)
    for outcome in runner.run(tasks):
        planned = by_id[outcome["claim"]]
        sweep_params = outcome["params"]
        records = []
        for result in outcome["results"]:
            measurement_id = planned.loaded.claim.measurement.id
            key = result_key(
                measurement_id,
                sweep_params,
                result["seed"],
                planned.loaded.fingerprint,
                __version__,
            )
            records.append(
                {
                    "key": key,
                    "claim": measurement_id,
                    "params": sweep_params,
                    "replicate": result["replicate"],
                    "seed": result["seed"],
                    "base_seed": base_seed,
                    "fingerprint": planned.loaded.fingerprint,
                    "version": __version__,
                    "outputs": result["outputs"],
                    "seconds": result["seconds"],
                }
            )
            planned.compute_seconds += result["seconds"]
        store.put(records, replace=replace)
        planned.computed += len(records)
        if outcome["error"]:
            where = ", ".join(f"{k}={v}" for k, v in sweep_params.items())
            if outcome.get("failed"):
                replicate, seed = outcome["failed"]
                where += f"; replicate {replicate}, seed {seed}"
            planned.errors.append(f"{outcome['error']} (at {where})")
        done += len(records)
        if progress is not None:
            progress(done, total)
