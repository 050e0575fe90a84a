"""Exponents of every registered bound: the answers and the CPU time they cost (issue 19).

Run from the repository root::

    .venv/bin/python benchmarks/bench_exponent.py snapshot OUT.json [--shard I/N] [--profile]
    .venv/bin/python benchmarks/bench_exponent.py compare BEFORE.json AFTER.json

``snapshot`` takes the cases of ``tests/test_bound_contract.py::
test_exponent_agrees_with_numeric_slope`` (every bound × scalar parameter × at ∈ {∞, 0}, at 0
only for non-integer parameters) and records, for each, the full answer of
``bound.exponent(name, at=at)`` and of ``bound.exponent(name, at=at, method="numeric")`` — every
field of the :class:`~fedtheory.bounds.Exponent` as ``sympy.srepr`` (exact: a Float keeps its
precision), or the type and message of the error raised — and the CPU time (user + system of
the process) of each call and of what the test runs (the numeric call is skipped there when
``auto`` already fell back to it). ``--shard I/N`` takes every N-th case from the I-th (0-based)
so that N processes can share the work; ``--profile`` also records the CPU time spent in each
kind of sympy call (``limit``, ``simplify``, ``factor``, ...) and how many calls hit the time
limit. The cases run in one process in collection order, as in the test (cold at the first
case of each bound, warm afterwards).

``compare`` reads two snapshots (or several shards each: ``A0.json,A1.json``) and prints every
case whose answers differ, then the total CPU time of the test's calls in each, the slowest
cases and the distribution (≥ 2 s, 0.5–2 s, < 0.5 s). Exit status 1 when an answer differs.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from typing import Any

import sympy as sp

from fedtheory import bounds
from fedtheory.bounds import _analysis, _analysis_common


def _cases() -> list[tuple[str, str, str]]:
    """The cases of test_exponent_agrees_with_numeric_slope, in its order."""
    cases = []
    for bound_id in bounds.ids():
        bound = bounds.get(bound_id)
        for name in bound.parameters:
            if name in bound.sequences:
                continue
            for at in ("oo", "0"):
                if at == "0" and bound.info[name].symbol.is_integer:
                    continue
                cases.append((bound_id, name, at))
    return cases


_DUMMY = re.compile(r"dummy_index=\d+")


def _srepr(value: Any) -> Any:
    if value is None:
        return None
    return _DUMMY.sub("dummy_index=?", sp.srepr(value))


def _answer(bound: Any, name: str, at: str, **options: Any) -> tuple[dict[str, Any], float]:
    start = time.process_time()
    try:
        result = bound.exponent(name, at=at, **options)
    except Exception as error:  # the error is part of the answer
        answer: dict[str, Any] = {"error": type(error).__name__, "message": str(error)}
    else:
        answer = {
            "var": result.var,
            "at": result.at,
            "power": _srepr(result.power),
            "behaviour": result.behaviour,
            "method": result.method,
            "limit": _srepr(result.limit),
            "regime": _srepr(result.regime),
            "fixed": repr(result.fixed),
            "log_power": _srepr(result.log_power),
            "loglog_power": _srepr(result.loglog_power),
            "str": str(result),
        }
    return answer, time.process_time() - start


class _SympyProfile:
    """Wraps ``_sympy`` (where :mod:`._analysis` and :mod:`._analysis_common` call it): CPU time
    and time-limit expiries per sympy function."""

    def __init__(self) -> None:
        self.seconds: collections.Counter[str] = collections.Counter()
        self.calls: collections.Counter[str] = collections.Counter()
        self.timeouts: collections.Counter[str] = collections.Counter()
        self._original = _analysis._sympy
        self._depth = 0

    def __call__(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(function, "__name__", repr(function))
        self._depth += 1
        start = time.process_time()
        try:
            return self._original(function, *args, **kwargs)
        except NotImplementedError as error:
            if "needed more than" in str(error):
                self.timeouts[name] += 1
            raise
        finally:
            self._depth -= 1
            if self._depth == 0:  # nested calls are counted in the outer one
                self.seconds[name] += time.process_time() - start
                self.calls[name] += 1

    def take(self) -> dict[str, Any]:
        taken = {
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
            "calls": dict(self.calls),
            "timeouts": dict(self.timeouts),
        }
        self.seconds.clear()
        self.calls.clear()
        self.timeouts.clear()
        return taken


def snapshot(out: str, shard: str, profile: bool) -> None:
    index, count = (int(v) for v in shard.split("/"))
    cases = _cases()[index::count]
    profiler = _SympyProfile() if profile else None
    if profiler is not None:
        _analysis._sympy = profiler  # type: ignore[assignment]
        _analysis_common._sympy = profiler  # type: ignore[assignment]  # simplify, by _simplified
    records = []
    for bound_id, name, at in cases:
        bound = bounds.get(bound_id)
        auto, auto_time = _answer(bound, name, at)
        auto_profile = profiler.take() if profiler else None
        numeric, numeric_time = _answer(bound, name, at, method="numeric")
        test_time = auto_time + (0.0 if auto.get("method") == "numeric" else numeric_time)
        records.append(
            {
                "case": [bound_id, name, at],
                "auto": auto,
                "numeric": numeric,
                "auto_time": round(auto_time, 4),
                "numeric_time": round(numeric_time, 4),
                "test_time": round(test_time, 4),
                **({"auto_profile": auto_profile} if profiler else {}),
            }
        )
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(records, handle, indent=1, ensure_ascii=False)


def _load(paths: str) -> dict[tuple[str, ...], dict[str, Any]]:
    records: dict[tuple[str, ...], dict[str, Any]] = {}
    for path in paths.split(","):
        with open(path, encoding="utf-8") as handle:
            for record in json.load(handle):
                records[tuple(record["case"])] = record
    return records


def _summary(label: str, records: dict[tuple[str, ...], dict[str, Any]]) -> None:
    times = [r["test_time"] for r in records.values()]
    slow = [t for t in times if t >= 2]
    middle = [t for t in times if 0.5 <= t < 2]
    fast = [t for t in times if t < 0.5]
    sys.stdout.write(
        f"{label}: {len(times)} cases, test CPU {sum(times):.1f} s "
        f"(auto {sum(r['auto_time'] for r in records.values()):.1f} s, numeric "
        f"{sum(r['numeric_time'] for r in records.values()):.1f} s); "
        f"≥2 s: {len(slow)} ({sum(slow):.1f} s), 0.5–2 s: {len(middle)} ({sum(middle):.1f} s), "
        f"<0.5 s: {len(fast)} ({sum(fast):.1f} s)\n"
    )


def compare(before_paths: str, after_paths: str, top: int) -> int:
    before, after = _load(before_paths), _load(after_paths)
    differing = 0
    for case in before.keys() | after.keys():
        if case not in before or case not in after:
            sys.stdout.write(f"{case}: only in {'after' if case in after else 'before'}\n")
            differing += 1
            continue
        for call in ("auto", "numeric"):
            if before[case][call] != after[case][call]:
                differing += 1
                sys.stdout.write(f"{case} {call}:\n  before {before[case][call]}\n")
                sys.stdout.write(f"  after  {after[case][call]}\n")
    sys.stdout.write(f"{differing} differing answers over {len(before)} cases\n")
    _summary("before", before)
    _summary("after", after)
    sys.stdout.write(f"slowest {top} cases (test CPU s, before → after):\n")
    ranked = sorted(before, key=lambda c: -before[c]["test_time"])[:top]
    for case in ranked:
        old, new = before[case]["test_time"], after.get(case, {}).get("test_time", float("nan"))
        sys.stdout.write(f"  {old:7.2f} → {new:7.2f}  {' '.join(case)}\n")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("snapshot")
    take.add_argument("out")
    take.add_argument("--shard", default="0/1")
    take.add_argument("--profile", action="store_true")
    diff = commands.add_parser("compare")
    diff.add_argument("before")
    diff.add_argument("after")
    diff.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if args.command == "snapshot":
        snapshot(args.out, args.shard, args.profile)
        return 0
    return compare(args.before, args.after, args.top)


if __name__ == "__main__":
    sys.exit(main())
