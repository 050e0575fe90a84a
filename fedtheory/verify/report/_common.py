"""What the parts of a report share: summary counts, number formats, the resolving-power note,
atomic writes and claim figures."""

from __future__ import annotations

import math
import os
import shlex
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from fedtheory.bounds import PAPERS
from fedtheory.errors import ParameterError
from fedtheory.plotting import stamp_text
from fedtheory.verify._display import STATUSES, claim_figure_png, shown_statuses, summarize
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.verdict import (
    Verdict,
    format_ci,
    format_number,
    format_seconds,
    plain_data,
)

__all__ = [
    "RUN_KEYS",
    "STATUSES",
    "atomic_write",
    "by_paper",
    "figure_name",
    "format_ci",
    "format_seconds",
    "is_number",
    "now_utc",
    "paper_title",
    "rerun_command",
    "resolving_power",
    "resolving_power_note",
    "run_info_document",
    "short_number",
    "shown_statuses",
    "summarize",
    "summary_line",
    "write_figure",
]

#: Keys of the ``run`` object of verdicts.json (always present, ``null`` when unknown).
RUN_KEYS: tuple[str, ...] = (
    "profile",
    "seed",
    "executor",
    "workers",
    "store",
    "seconds",
    "command",
)


# --------------------------------------------------------------------------- summary


def summary_line(results: Sequence[ClaimResult], seconds: float | None = None) -> str:
    """One line: ``12 claims: 9 holds, 1 violated-as-expected, 0 failed, … — 14.2 s``.

    ``reported`` (non-gating claims whose outcome differs from their expectation) is listed
    only when there is one.
    """
    counts = summarize(results)
    parts = ", ".join(f"{counts[s]} {s}" for s in shown_statuses(counts))
    noun = "claim" if counts["total"] == 1 else "claims"
    line = f"{counts['total']} {noun}: {parts}"
    return line if seconds is None else f"{line} — {format_seconds(seconds)}"


def short_number(value: Any, digits: int = 3) -> str:
    return format_number(value, digits, nan="nan")


def by_paper(results: Iterable[ClaimResult]) -> list[tuple[str, list[ClaimResult]]]:
    """Results grouped by paper: known papers in catalogue order, then others as they come."""
    groups: dict[str, list[ClaimResult]] = {}
    for result in results:
        groups.setdefault(result.claim.paper, []).append(result)
    order = [p for p in PAPERS if p in groups] + [p for p in groups if p not in PAPERS]
    return [(paper, groups[paper]) for paper in order]


def paper_title(paper: str) -> str:
    known = PAPERS.get(paper)
    return known.title if known is not None else ""


# --------------------------------------------------------------------------- resolving power

# from here the report warns that a holding claim is blind to errors of the bound (issue 12)
_POWER_WARNING = 100.0  # resolving power: bound/measured at the tightest point
_MARGIN_WARNING = 0.5  # exponent margin: bound − measured exponent at the tightest point
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _format_factor(value: float) -> str:
    """A factor for a sentence: ``×1.00``, ``×5.60``, ``×42.0``, ``×3.2·10³``, ``×∞``."""
    if not math.isfinite(value):
        return "×∞"
    if value < _POWER_WARNING:  # 3 digits: how close to 1 a tight claim is
        return "×" + f"{value:#.3g}".rstrip(".")
    exponent = math.floor(math.log10(value))
    mantissa = round(value / 10.0**exponent, 1)
    if mantissa >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"×{mantissa:.1f}·10{str(exponent).translate(_SUPERSCRIPTS)}"


def resolving_power(verdict: Verdict) -> tuple[str, bool] | None:
    """``(sentence, warn)`` about the errors of the bound a holding claim cannot see, or None.

    Reads ``numbers["resolving_power"]`` (a factor on the bound's constant) or
    ``numbers["exponent_margin"]`` (an additive error of an exponent), as the bound criteria
    set them (:class:`~fedtheory.verify.criteria.UpperBoundHolds`). ``warn`` from a factor of
    10² or a margin above 0.5.
    """
    power = verdict.numbers.get("resolving_power")
    margin = verdict.numbers.get("exponent_margin")
    if power is not None and not math.isnan(power):
        if math.isinf(power):
            return (
                "cannot see constant errors of any size (infinite slack at the tightest point)",
                True,
            )
        if power >= _POWER_WARNING:
            return (
                f"cannot see constant errors below {_format_factor(power)} "
                "(slack at the tightest point)",
                True,
            )
        return (
            f"{_format_factor(power)} (slack at the tightest point): a constant error of the "
            "bound smaller than this factor is invisible to this claim",
            False,
        )
    if margin is not None and math.isfinite(margin):
        delta = format_number(margin, 2)
        if margin > _MARGIN_WARNING:
            return (
                f"cannot see exponent errors below Δ={delta} (margin at the tightest point)",
                True,
            )
        return (
            f"Δ={delta} (margin at the tightest point): an exponent error smaller than this is "
            "invisible to this claim",
            False,
        )
    return None


def resolving_power_note(verdict: Verdict) -> str | None:
    """The warning that a claim cannot see errors of its bound below its resolving power.

    A sentence such as ``"cannot see constant errors below ×3.2·10³ (slack at the tightest
    point)"`` when the verdict's resolving power (``numbers["resolving_power"]``, see
    :class:`~fedtheory.verify.criteria.UpperBoundHolds`) is at least 10², or ``"cannot see
    exponent errors below Δ=0.73 (margin at the tightest point)"`` when its
    ``numbers["exponent_margin"]`` exceeds 0.5; None otherwise (a sharper claim, or no
    resolving power: the claim does not hold or its criterion has none). The terminal table and
    ``index.html`` show it on the claim's row and card.
    """
    power = resolving_power(verdict)
    return power[0] if power is not None and power[1] else None


# --------------------------------------------------------------------------- files


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and os.replace."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; reports are ordinary files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def figure_name(claim_id: str) -> str:
    """File name of a claim's figure.

    >>> figure_name("minimax/thm4/local-rate")
    'minimax__thm4__local-rate.png'
    """
    return claim_id.replace("/", "__") + ".png"


def write_figure(
    result: ClaimResult, path: str | os.PathLike[str], *, stamp: str | None = None
) -> Path | None:
    """Draw the verdict's :class:`~fedtheory.plotting.FigureSpec` to a PNG (atomically).

    The title is the claim id; the drawing is :func:`fedtheory.plotting.figure_from_spec`:
    measured series are markers joined by a line with a shaded CI band, bounds dashed, fits
    dotted, references thin gray; series of one group share a colour. Points that a log axis
    cannot show (non-positive) are masked and counted in a note on the figure; an axis with no
    positive value at all falls back to a linear scale. The lower right corner carries
    ``stamp`` (default :func:`fedtheory.plotting.stamp_text` of the result's profile;
    :func:`fedtheory.verify.report.write_report` adds the run's seed).

    Returns
    -------
    pathlib.Path or None
        ``path``, or None when the verdict has no figure (nothing is written then).
    """
    spec = result.verdict.figure
    if spec is None:
        return None
    text = stamp if stamp is not None else stamp_text(result.profile)
    return atomic_write(Path(path), claim_figure_png(spec, result.claim.id, text))


def run_info_document(
    run_info: Mapping[str, Any] | None, results: Sequence[ClaimResult]
) -> dict[str, Any]:
    info: dict[str, Any] = dict.fromkeys(RUN_KEYS)
    profiles = {r.profile for r in results}
    if len(profiles) == 1:
        info["profile"] = profiles.pop()
    info.update(run_info or {})
    if isinstance(info["command"], (list, tuple)):
        info["command"] = shlex.join(str(a) for a in info["command"])
    if info["store"] is not None:
        info["store"] = os.fspath(info["store"])
    plain: dict[str, Any] = plain_data(info)
    return plain


def now_utc() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _argument(value: Any) -> str:
    """One ``NAME=VALUE`` value as the command line reads it back (repr of floats: exact)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _shown_path(path: str) -> str:
    """``path`` relative to the working folder when it lies inside it (shorter to paste)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith("..") else relative


def rerun_command(result: ClaimResult, run_info: Mapping[str, Any] | None = None) -> str | None:
    """The command that reruns a violated claim's counterexample, or None (not violated).

    A counterexample with a point and a seed (the criteria's ``params``, ``replicate`` and
    ``seed``) is replayed alone: ``fedtheory replay FILE ID NAME=VALUE ... --seed SEED`` runs
    the experiment at that point with that seed and prints its outputs, the very bits the run
    judged. A violation without one point (a rate, a crossing) reruns the claim:
    ``fedtheory verify FILE --claims ID --profile P --seed S``.

    >>> rerun_command(result)  # doctest: +SKIP
    "fedtheory replay verification/classic/sgd.py classic/sgd/false-rate T=100 --seed 1234"
    """
    if result.verdict.outcome != "violated":
        return None
    example = result.verdict.counterexample or {}
    file = _shown_path(result.file) if result.file else "verification"
    if isinstance(example.get("params"), Mapping) and "seed" in example:
        pairs = [f"{name}={_argument(value)}" for name, value in example["params"].items()]
        return shlex.join(
            ["fedtheory", "replay", file, result.claim.id, *pairs, "--seed", str(example["seed"])]
        )
    seed = (run_info or {}).get("seed") or 0
    return shlex.join(
        [
            "fedtheory",
            "verify",
            file,
            "--claims",
            result.claim.id,
            "--profile",
            result.profile,
            "--seed",
            str(seed),
        ]
    )
