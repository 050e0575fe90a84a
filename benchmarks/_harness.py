"""The one timing harness of ``benchmarks/``: contenders, interleaved repeats, checked outputs.

Every comparison of the benchmarks goes through :func:`compare`:

1. **Warm-up outside timing.** Each contender runs once, untimed (numba compilation, JAX's
   ``jit``, torch's ``compile``, first-call imports, cvxpy's canonicalisation caches, a
   started process pool), and its output is checked against the reference's (step 4) before
   any clock starts. (``warmup=False`` skips it where a call caches nothing and the caller has
   warmed up the imports, e.g. a fresh semidefinite program per call.)
2. **Interleaved repeats.** ``repeats`` rounds follow; in each round every contender runs once,
   round-robin, the starting contender rotating by one per round (round r runs contenders
   r, r + 1, …, mod k). A drift of the machine's speed (another job starting, a frequency
   change) therefore hits every contender alike instead of the one that happened to run last,
   and no contender always runs right after the same neighbour.
3. **Medians.** Each contender's time is the median of its ``repeats`` wall times (robust to
   the odd slow run on a shared machine), with the spread max − min and the best (min) beside
   it; its *speed-up* is the reference's median over its own (> 1: faster than the
   reference), its *throughput* ``work / median`` for every unit of work given. The load
   average (``os.getloadavg()``) is recorded before and after.
4. **Checked outputs.** Each contender's output — of the warm-up call and of the last timed
   round — is compared with the reference's by the caller's :class:`Check`, a stated
   measure of difference with a tolerance the caller justifies (:func:`max_relative` for
   arrays, :func:`objective_values` for solvers). A difference above the tolerance (or NaN)
   raises :class:`OutputMismatch`: a wrong output is never printed as a speed.

The result, :class:`Comparison`, renders as a Markdown table (``str(result)``) with the machine
line (cores, CPU model, load before/after, library versions) above it, and as a JSON-ready dict
(:meth:`Comparison.to_dict`). :func:`measure` times a single callable the same way (warm-up,
median of repeats) for yardsticks that have no peer, such as a DGEMM rate.

This is a benchmark helper, not part of the package: scripts import it as ``_harness`` (the
folder of a script run as ``python benchmarks/x.py`` is on ``sys.path``);
``tests/test_bench_harness.py`` loads it from its file.
"""

from __future__ import annotations

import importlib.metadata
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "Check",
    "Comparison",
    "Contender",
    "Machine",
    "OutputMismatch",
    "Sample",
    "Timing",
    "compare",
    "machine",
    "markdown_table",
    "max_relative",
    "measure",
    "objective_values",
]

#: Libraries whose versions every machine line names (more per comparison: ``libraries=``).
BASE_LIBRARIES = ("numpy", "scipy", "numba")

Clock = Callable[[], float]


class OutputMismatch(AssertionError):
    """A contender's output differs from the reference's by more than the stated tolerance."""


@dataclass(frozen=True)
class Contender:
    """One implementation in a comparison.

    Parameters
    ----------
    name
        Row label (unique within a comparison).
    run
        Zero-argument callable doing the whole timed work and returning its output (the thing
        the :class:`Check` compares).
    note
        Free text shown in the table's last column (threads, variant, what is included).
    """

    name: str
    run: Callable[[], Any]
    note: str = ""


@dataclass(frozen=True)
class Check:
    """How a contender's output is compared with the reference's.

    Parameters
    ----------
    description
        What ``difference`` measures, e.g. ``"max |x − x_ref| / max |x_ref|"``.
    tolerance
        The largest accepted difference.
    why
        Why that tolerance: the rounding the comparison expects and what an error would cost.
    difference
        ``difference(output, reference_output) -> float`` (NaN counts as a mismatch).
    """

    description: str
    tolerance: float
    why: str
    difference: Callable[[Any, Any], float]

    def __post_init__(self) -> None:
        if not self.why.strip():
            raise ValueError("a Check states why its tolerance is right (why='...')")
        if not self.tolerance >= 0.0:
            raise ValueError(f"tolerance must be ≥ 0, got {self.tolerance}")

    def verify(self, name: str, output: Any, reference_name: str, reference: Any) -> float:
        """The difference of ``output`` from ``reference``; :class:`OutputMismatch` above it."""
        value = float(self.difference(output, reference))
        if not value <= self.tolerance:
            raise OutputMismatch(
                f"{name!r} differs from the reference {reference_name!r}: {self.description} = "
                f"{value:.3e} > tolerance {self.tolerance:.1e} ({self.why})"
            )
        return value


def max_relative(
    tolerance: float,
    why: str,
    *,
    select: Callable[[Any], Any] | None = None,
) -> Check:
    """Normwise relative difference of arrays: max |x − x_ref| / max |x_ref|.

    Normwise (one scale, the reference's largest magnitude) rather than entrywise, so that
    entries near zero do not turn rounding into large relative errors. Shapes must agree.

    Parameters
    ----------
    tolerance, why
        See :class:`Check`.
    select
        Applied to both outputs first (e.g. ``lambda r: r.matrix``); default: the output itself.
    """

    def difference(output: Any, reference: Any) -> float:
        a = np.asarray(output if select is None else select(output), dtype=np.float64)
        b = np.asarray(reference if select is None else select(reference), dtype=np.float64)
        if a.shape != b.shape:
            return math.inf
        scale = float(np.max(np.abs(b), initial=0.0))
        gap = float(np.max(np.abs(a - b), initial=0.0))
        if scale == 0.0:
            return gap  # an all-zero reference: absolute difference
        return gap / scale

    return Check("max |x − x_ref| / max |x_ref|", tolerance, why, difference)


def objective_values(
    tolerance: float,
    why: str,
    *,
    value: Callable[[Any], float] | None = None,
) -> Check:
    """Optimal values of solvers: |v − v_ref| / max(1, |v_ref|).

    Parameters
    ----------
    tolerance, why
        See :class:`Check`; the tolerance follows the solvers' stopping tolerances.
    value
        Extracts the optimal value from an output (default: ``float(output)``).
    """

    def difference(output: Any, reference: Any) -> float:
        get = float if value is None else value
        v, v_ref = float(get(output)), float(get(reference))
        return abs(v - v_ref) / max(1.0, abs(v_ref))

    return Check("|v − v_ref| / max(1, |v_ref|)", tolerance, why, difference)


# ============================================================================== the machine


@dataclass(frozen=True)
class Machine:
    """Where a comparison ran: cores, CPU model, library versions and BLAS threads."""

    cores: int
    cpu: str
    versions: Mapping[str, str]
    threads: str

    def line(self, load_before: float, load_after: float) -> str:
        """One line: cores, CPU, load average before → after, versions, threads."""
        versions = ", ".join(f"{name} {version}" for name, version in self.versions.items())
        return (
            f"machine: {self.cores} cores, {self.cpu}; load average {load_before:.2f} before, "
            f"{load_after:.2f} after; {versions}; {self.threads}"
        )


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def _threads() -> str:
    """BLAS/OpenMP thread pools as threadpoolctl sees them (it comes with scikit-learn)."""
    forced = {
        v: os.environ[v] for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS") if v in os.environ
    }
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        pools = "thread pools unknown (no threadpoolctl)"
    else:
        pools = ", ".join(
            f"{pool.get('prefix', '?')} {pool.get('num_threads', '?')} threads"
            for pool in threadpool_info()
        )
    if forced:
        pools += " (" + ", ".join(f"{k}={v}" for k, v in forced.items()) + ")"
    return pools or "no BLAS thread pool loaded"


def machine(libraries: Sequence[str] = ()) -> Machine:
    """The machine line's facts; versions of :data:`BASE_LIBRARIES` and of ``libraries``."""
    names = list(dict.fromkeys([*BASE_LIBRARIES, *libraries]))
    return Machine(
        cores=os.cpu_count() or 1,
        cpu=_cpu_model(),
        versions={name: _version(name) for name in names},
        threads=_threads(),
    )


# ============================================================================== timing


@dataclass(frozen=True)
class Sample:
    """Wall times of one callable: the median, spread (max − min), best, and the last output."""

    seconds: tuple[float, ...]
    output: Any = field(repr=False)

    @property
    def median(self) -> float:
        """Median of the times (s)."""
        return float(statistics.median(self.seconds))

    @property
    def spread(self) -> float:
        """max − min of the times (s)."""
        return max(self.seconds) - min(self.seconds)

    @property
    def best(self) -> float:
        """min of the times (s)."""
        return min(self.seconds)


def _check_repeats(repeats: int) -> int:
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be an integer ≥ 1, got {repeats!r}")
    return repeats


def measure(
    run: Callable[[], Any],
    repeats: int,
    *,
    warmup: bool = True,
    before: Callable[[], Any] | None = None,
    clock: Clock = time.perf_counter,
) -> Sample:
    """Time one callable: an untimed warm-up call, then the median of ``repeats`` calls.

    For yardsticks without a peer (a DGEMM rate, reading a matrix); comparisons use
    :func:`compare`, which also interleaves and checks outputs. ``before`` runs, untimed,
    before every timed call (e.g. evicting the caches).
    """
    repeats = _check_repeats(repeats)
    if warmup:
        run()
    seconds = []
    output: Any = None
    for _ in range(repeats):
        if before is not None:
            before()
        start = clock()
        output = run()
        seconds.append(clock() - start)
    return Sample(tuple(seconds), output)


@dataclass(frozen=True)
class Timing:
    """One contender's row of a :class:`Comparison`."""

    name: str
    note: str
    sample: Sample
    speedup: float
    difference: float | None  # None for the reference itself
    throughput: Mapping[str, float]

    @property
    def median(self) -> float:
        """Median wall time (s)."""
        return self.sample.median


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`: one row per contender, and how the outputs were checked."""

    title: str
    reference: str
    rows: tuple[Timing, ...]
    check: Check
    repeats: int
    load_before: float
    load_after: float
    machine: Machine
    also_versus: tuple[str, ...] = ()
    yardstick: tuple[str, str, float] | None = None
    notes: tuple[str, ...] = ()
    warmup: bool = True

    def row(self, name: str) -> Timing:
        """The row of contender ``name``."""
        for timing in self.rows:
            if timing.name == name:
                return timing
        raise KeyError(name)

    def speedup(self, name: str, versus: str) -> float:
        """median(versus) / median(name): how many times faster ``name`` is than ``versus``."""
        return self.row(versus).median / self.row(name).median

    def markdown(self) -> str:
        """The Markdown table, the machine line and the check above it, notes below."""
        reference = self.row(self.reference)
        in_ms = reference.median < 1.0
        unit, factor = ("ms", 1e3) if in_ms else ("s", 1.0)
        header = [
            "contender",
            f"median ({unit})",
            f"spread ({unit})",
            f"best ({unit})",
            f"speed-up vs {self.reference}",
        ]
        header += [f"speed-up vs {other}" for other in self.also_versus]
        units = list(reference.throughput)
        header += [f"{u}/s" for u in units]
        if self.yardstick is not None:
            header.append(f"% of {self.yardstick[0]}")
        header += ["max difference", "note"]
        lines = [
            f"### {self.title}",
            "",
            self.machine.line(self.load_before, self.load_after),
            "",
            f"Median of {self.repeats} interleaved round{'s' if self.repeats != 1 else ''}"
            + (" after one untimed warm-up call per contender" if self.warmup else "")
            + f"; spread = max − min. Outputs checked against **{self.reference}**: "
            f"{self.check.description} ≤ {self.check.tolerance:.1e} ({self.check.why}).",
            "",
            "| " + " | ".join(header) + " |",
            "|" + "|".join(["---"] + ["---:"] * (len(header) - 2) + ["---"]) + "|",
        ]
        for timing in self.rows:
            cells = [
                timing.name,
                _number(factor * timing.median),
                _number(factor * timing.sample.spread),
                _number(factor * timing.sample.best),
                f"{timing.speedup:.2f}×",
            ]
            cells += [f"{self.speedup(timing.name, other):.2f}×" for other in self.also_versus]
            cells += [_number(timing.throughput[u]) for u in units]
            if self.yardstick is not None:
                _, rate_unit, rate = self.yardstick
                cells.append(f"{100 * timing.throughput[rate_unit] / rate:.1f}%")
            cells.append("(reference)" if timing.difference is None else f"{timing.difference:.1e}")
            cells.append(timing.note)
            lines.append("| " + " | ".join(cells) + " |")
        if self.notes:
            lines.append("")
            lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines)

    __str__ = markdown

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: every time, the check, the load and the machine."""
        return {
            "title": self.title,
            "reference": self.reference,
            "repeats": self.repeats,
            "warmup": self.warmup,
            "load_average": {"before": self.load_before, "after": self.load_after},
            "machine": {
                "cores": self.machine.cores,
                "cpu": self.machine.cpu,
                "versions": dict(self.machine.versions),
                "threads": self.machine.threads,
            },
            "check": {
                "description": self.check.description,
                "tolerance": self.check.tolerance,
                "why": self.check.why,
            },
            "yardstick": None
            if self.yardstick is None
            else dict(zip(("name", "unit", "rate"), self.yardstick, strict=True)),
            "notes": list(self.notes),
            "rows": [
                {
                    "name": t.name,
                    "note": t.note,
                    "seconds": list(t.sample.seconds),
                    "median": t.median,
                    "spread": t.sample.spread,
                    "best": t.sample.best,
                    "speedup": t.speedup,
                    "difference": t.difference,
                    "throughput": dict(t.throughput),
                }
                for t in self.rows
            ],
        }


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table; the first column left-aligned, the others right-aligned."""
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _number(value: float) -> str:
    """4 significant digits, no exponent for the usual range of a table."""
    if value == 0.0 or 1e-3 <= abs(value) < 1e6:
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
    return f"{value:.3e}"


def compare(
    title: str,
    contenders: Sequence[Contender],
    *,
    reference: str,
    repeats: int,
    check: Check,
    work: Mapping[str, float] | None = None,
    also_versus: Sequence[str] = (),
    yardstick: tuple[str, str, float] | None = None,
    libraries: Sequence[str] = (),
    notes: Sequence[str] = (),
    warmup: bool = True,
    clock: Clock = time.perf_counter,
) -> Comparison:
    """Time contenders against a reference: warm-up, interleaved repeats, medians, checks.

    Parameters
    ----------
    title
        Heading of the table.
    contenders
        The implementations (unique names); one of them is the reference.
    reference
        Name of the contender whose output the others must match and whose median the
        speed-ups divide.
    repeats
        Timed rounds (≥ 1); each contender runs once per round.
    check
        How outputs are compared (:func:`max_relative`, :func:`objective_values`, or a
        :class:`Check`); a difference above its tolerance raises :class:`OutputMismatch`.
    work
        Amount of work per call by unit, e.g. ``{"GFLOP": 2.0, "Mgrad": 5.0}``: a throughput
        column ``unit/s`` per entry.
    also_versus
        Names of further contenders to give a speed-up column against.
    yardstick
        ``(label, unit, rate)``: a "% of label" column, throughput in ``unit`` over ``rate``
        (e.g. ``("DGEMM", "GFLOP", 50.0)``); ``unit`` must be a key of ``work``.
    libraries
        Distribution names whose versions the machine line adds to numpy, scipy and numba.
    notes
        Lines printed under the table.
    warmup
        The untimed warm-up call per contender (default). Turn it off only where a call
        caches nothing and the caller has warmed up the imports (one large SDP per call):
        the timed outputs are still checked.
    clock
        The timer (tests pass a fake one).

    Returns
    -------
    Comparison

    Raises
    ------
    OutputMismatch
        If a contender's output differs from the reference's beyond the check's tolerance.
    ValueError
        On duplicate or unknown names, ``repeats`` < 1, or a yardstick unit not in ``work``.
    """
    repeats = _check_repeats(repeats)
    names = [c.name for c in contenders]
    if len(set(names)) != len(names):
        raise ValueError(f"contender names must be unique: {names}")
    for name in (reference, *also_versus):
        if name not in names:
            raise ValueError(f"{name!r} is not a contender ({names})")
    work = dict(work or {})
    if yardstick is not None and yardstick[1] not in work:
        raise ValueError(f"the yardstick's unit {yardstick[1]!r} is not a unit of work {work}")
    index = names.index(reference)
    load_before = os.getloadavg()[0]

    def check_all(outputs: list[Any]) -> list[float | None]:
        return [
            None if k == index else check.verify(names[k], outputs[k], reference, outputs[index])
            for k in range(len(contenders))
        ]

    differences: list[float | None] = [None] * len(contenders)
    last: list[Any] = [None] * len(contenders)
    if warmup:
        last = [contender.run() for contender in contenders]  # untimed
        differences = check_all(last)
    seconds: list[list[float]] = [[] for _ in contenders]
    count = len(contenders)
    for r in range(repeats):
        for offset in range(count):
            k = (r + offset) % count
            start = clock()
            last[k] = contenders[k].run()
            seconds[k].append(clock() - start)
    final = check_all(last)
    load_after = os.getloadavg()[0]
    samples = [Sample(tuple(s), out) for s, out in zip(seconds, last, strict=True)]
    reference_median = samples[index].median
    rows = tuple(
        Timing(
            name=contender.name,
            note=contender.note,
            sample=sample,
            speedup=reference_median / sample.median if sample.median > 0 else math.inf,
            difference=None if again is None else max(first or 0.0, again),
            throughput={
                unit: amount / sample.median if sample.median > 0 else math.inf
                for unit, amount in work.items()
            },
        )
        for contender, sample, first, again in zip(
            contenders, samples, differences, final, strict=True
        )
    )
    return Comparison(
        title=title,
        reference=reference,
        rows=rows,
        check=check,
        repeats=repeats,
        load_before=load_before,
        load_after=load_after,
        machine=machine(libraries),
        also_versus=tuple(also_versus),
        yardstick=yardstick,
        notes=tuple(notes),
        warmup=warmup,
    )
