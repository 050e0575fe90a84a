"""Reports of a verification run: terminal table, figures, ``verdicts.json`` and ``index.html``.

Everything here reads :class:`~fedtheory.verify.claim.ClaimResult` objects (DESIGN §6)::

    report/
      index.html          self-contained: inline CSS, figures embedded as data URIs, no JS
      verdicts.json       machine-readable verdicts, schema "fedtheory.verdicts" (see below)
      figures/<id>.png    one figure per claim that has one ('/' in the id becomes '__')

``verdicts.json`` schema
------------------------
The document is described by :data:`VERDICTS_SCHEMA` (JSON Schema, draft 2020-12) and checked by
:func:`validate_verdicts`::

    {
      "schema": "fedtheory.verdicts",
      "schema_version": 1,
      "fedtheory_version": "0.1.0",
      "created": "2025-01-31T12:00:00Z",           # UTC, ISO 8601
      "run": {"profile", "seed", "executor", "workers", "store", "seconds", "command", ...},
      "summary": {"holds", "violated-as-expected", "failed", "reported", "inconclusive",
                  "error", "total"},
      "claims": [ClaimResult.to_dict(), ...]
    }

Every key of ``run`` listed above is always present (``null`` when unknown). The document is
strict JSON: non-finite numbers are written as ``null``. Adding keys keeps the schema version;
removing, renaming or retyping a key increments it.
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
import shlex
import tempfile
import textwrap
import warnings
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fedtheory._version import __version__
from fedtheory.bounds import PAPERS
from fedtheory.errors import ParameterError
from fedtheory.plotting import figure_from_spec, png_bytes
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.verdict import Verdict, format_number, plain_data

__all__ = [
    "RUN_KEYS",
    "STATUSES",
    "VERDICTS_SCHEMA",
    "WIDE_TABLE",
    "check_report_dir",
    "figure_name",
    "format_ci",
    "format_seconds",
    "render_table",
    "resolving_power_note",
    "summarize",
    "summary_line",
    "validate_verdicts",
    "verdicts_document",
    "write_figure",
    "write_html",
    "write_report",
    "write_verdicts_json",
]

#: Summary categories of :attr:`ClaimResult.status`, in report order.
STATUSES: tuple[str, ...] = (
    "holds",
    "violated-as-expected",
    "failed",
    "reported",
    "inconclusive",
    "error",
)
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

#: Consoles at least this wide get a separate source column in :func:`render_table`.
WIDE_TABLE = 130

_STATUS_STYLE = {
    "holds": "green",
    "violated-as-expected": "green",
    "failed": "bold red",
    "reported": "cyan",
    "inconclusive": "yellow",
    "error": "magenta",
}

# --------------------------------------------------------------------------- summary


def summarize(results: Iterable[ClaimResult]) -> dict[str, int]:
    """Number of claims per status, plus ``total``.

    Returns
    -------
    dict
        ``{"holds", "violated-as-expected", "failed", "reported", "inconclusive", "error",
        "total"}``
        (every key present, zero when no claim has that status).
    """
    counts = dict.fromkeys(STATUSES, 0)
    total = 0
    for result in results:
        status = result.status
        if status not in counts:
            raise ParameterError(
                parameter="status", value=status, rule=f"must be one of {', '.join(STATUSES)}"
            )
        counts[status] += 1
        total += 1
    counts["total"] = total
    return counts


def format_seconds(seconds: float | None) -> str:
    """Compact duration.

    >>> format_seconds(14.23), format_seconds(125), format_seconds(None)
    ('14.2 s', '2 min 5 s', '—')
    """
    if seconds is None or not math.isfinite(seconds):
        return "—"
    if seconds < 100:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def summary_line(results: Sequence[ClaimResult], seconds: float | None = None) -> str:
    """One line: ``12 claims: 9 holds, 1 violated-as-expected, 0 failed, … — 14.2 s``.

    ``reported`` (non-gating claims whose outcome differs from their expectation) is listed
    only when there is one.
    """
    counts = summarize(results)
    parts = ", ".join(f"{counts[s]} {s}" for s in _shown(counts))
    noun = "claim" if counts["total"] == 1 else "claims"
    line = f"{counts['total']} {noun}: {parts}"
    return line if seconds is None else f"{line} — {format_seconds(seconds)}"


def _shown(counts: dict[str, int]) -> list[str]:
    """The statuses a summary lists: all, except ``reported`` when no claim has it."""
    return [s for s in STATUSES if s != "reported" or counts[s]]


def _num(value: Any, digits: int = 3) -> str:
    return format_number(value, digits, nan="nan")


def format_ci(ci: Sequence[float] | None) -> str:
    """A confidence interval with 3 significant digits, ``—`` when absent.

    >>> format_ci((-1.0234, -0.98127)), format_ci((0.5, float("inf"))), format_ci(None)
    ('[−1.02, −0.981]', '[0.5, ∞]', '—')
    """
    if ci is None:
        return "—"
    return f"[{_num(ci[0])}, {_num(ci[1])}]"


def _by_paper(results: Iterable[ClaimResult]) -> list[tuple[str, list[ClaimResult]]]:
    """Results grouped by paper: known papers in catalogue order, then others as they come."""
    groups: dict[str, list[ClaimResult]] = {}
    for result in results:
        groups.setdefault(result.claim.paper, []).append(result)
    order = [p for p in PAPERS if p in groups] + [p for p in groups if p not in PAPERS]
    return [(paper, groups[paper]) for paper in order]


def _paper_title(paper: str) -> str:
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


def _resolving_power(verdict: Verdict) -> tuple[str, bool] | None:
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
    power = _resolving_power(verdict)
    return power[0] if power is not None and power[1] else None


# --------------------------------------------------------------------------- terminal


def render_table(results: Sequence[ClaimResult], console: Console) -> None:
    """Print the verdict table, grouped by paper, then the reason of every claim that failed.

    Columns: claim, source, criterion, predicted, measured, CI, outcome (coloured by status)
    and pass (✓ when the outcome equals the claim's ``expect``). On a console narrower than
    :data:`WIDE_TABLE` characters the source is printed under the claim id instead of in a
    column of its own, so that the table fits 100 columns. Claim ids are never wrapped.
    User-supplied text is never interpreted as rich markup; on a console that is not a
    terminal no colour codes are written.
    """
    if not results:
        console.print("no claims")
        return
    wide = console.width >= WIDE_TABLE
    id_width = max(len(r.claim.id) for r in results)
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        show_edge=False,
        header_style="bold",
    )
    table.add_column("claim" if wide else "claim / source", no_wrap=True)
    if wide:
        table.add_column("source")
    table.add_column("criterion")
    table.add_column("predicted")
    table.add_column("measured")
    table.add_column("CI", no_wrap=True)
    table.add_column("outcome", no_wrap=True)
    table.add_column("pass", no_wrap=True, justify="center")
    for index, (paper, group) in enumerate(_by_paper(results)):
        if index:
            table.add_section()
        table.add_row(Text(paper, style="bold underline"))
        for result in group:
            info = result.claim.describe()
            source = str(info.get("source", ""))
            verdict = result.verdict
            cells = [Text(result.claim.id)]
            if wide:
                cells.append(Text(source))
            else:  # wrapped by hand to the id column, which must not wrap the ids
                wrapped = textwrap.fill(source, width=max(id_width, 18), break_on_hyphens=False)
                cells[0].append("\n" + wrapped, style="dim")
            cells += [
                Text(str(info.get("criterion", ""))),
                Text(verdict.predicted or "—"),
                _measured_cell(verdict),
                Text(format_ci(verdict.ci)),
                Text(verdict.outcome, style=_STATUS_STYLE.get(result.status, "")),
                _pass_cell(result),
            ]
            table.add_row(*cells)
    console.print(table)
    for result in results:
        if not result.acceptable:
            line = Text()
            line.append("✗ ", style="bold red")
            line.append(result.claim.id, style="bold")
            line.append(f" ({result.verdict.outcome}, expected {result.claim.expect}): ")
            line.append(result.verdict.reason)
            console.print(line)


def _pass_cell(result: ClaimResult) -> Text:
    """✓ / ✗ for a gating claim; for a claim with ``gating=False`` its mark in brackets, dim:
    reported, not counted in the exit status."""
    if result.claim.gating:
        return Text("✓", style="green") if result.passed else Text("✗", style="bold red")
    return Text("(✓)" if result.passed else "(✗)", style="dim") + Text("\nnot gating", style="dim")


def _measured_cell(verdict: Verdict) -> Text:
    cell = Text(verdict.measured or "—")
    note = resolving_power_note(verdict)
    if note is not None:
        cell.append(f"\n⚠ {note}", style="yellow")
    return cell


# --------------------------------------------------------------------------- files


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _atomic_write(path: Path, data: bytes) -> Path:
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


def write_figure(result: ClaimResult, path: str | os.PathLike[str]) -> Path | None:
    """Draw the verdict's :class:`~fedtheory.plotting.FigureSpec` to a PNG (atomically).

    The title is the claim id; the drawing is :func:`fedtheory.plotting.figure_from_spec`:
    measured series are markers joined by a line with a shaded CI band, bounds dashed, fits
    dotted, references thin gray; series of one group share a colour. Points that a log axis
    cannot show (non-positive) are masked and counted in a note on the figure; an axis with no
    positive value at all falls back to a linear scale.

    Returns
    -------
    pathlib.Path or None
        ``path``, or None when the verdict has no figure (nothing is written then).
    """
    spec = result.verdict.figure
    if spec is None:
        return None
    fig = figure_from_spec(spec, title=result.claim.id, figsize=(6.0, 4.0), dpi=110)
    return _atomic_write(Path(path), png_bytes(fig))


# --------------------------------------------------------------------------- verdicts.json


def _run_info(run_info: Mapping[str, Any] | None, results: Sequence[ClaimResult]) -> dict[str, Any]:
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


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


_NUM_OR_NULL: dict[str, Any] = {"type": ["number", "null"]}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}

#: JSON Schema (draft 2020-12) of ``verdicts.json``; :func:`validate_verdicts` enforces it.
VERDICTS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:fedtheory:verdicts:1",
    "title": "fedtheory verdicts",
    "description": "Verdicts of the claims of one `fedtheory verify` run.",
    "type": "object",
    "required": [
        "schema",
        "schema_version",
        "fedtheory_version",
        "created",
        "run",
        "summary",
        "claims",
    ],
    "properties": {
        "schema": {"const": "fedtheory.verdicts"},
        "schema_version": {"const": 1},
        "fedtheory_version": {"type": "string"},
        "created": {"type": "string", "description": "UTC time, ISO 8601 (YYYY-MM-DDTHH:MM:SSZ)"},
        "run": {"$ref": "#/$defs/run"},
        "summary": {"$ref": "#/$defs/summary"},
        "claims": {"type": "array", "items": {"$ref": "#/$defs/claim"}},
    },
    "$defs": {
        "run": {
            "type": "object",
            "required": list(RUN_KEYS),
            "properties": {
                "profile": {"enum": ["smoke", "quick", "full", None]},
                "seed": {"type": ["integer", "null"]},
                "executor": {"type": ["string", "null"]},
                "workers": {"type": ["integer", "null"], "minimum": 0},
                "store": {"type": ["string", "null"], "description": "path of the result store"},
                "seconds": {"type": ["number", "null"], "minimum": 0},
                "command": {"type": ["string", "null"], "description": "command line"},
            },
        },
        "summary": {
            "type": "object",
            "required": [*STATUSES, "total"],
            "properties": dict.fromkeys((*STATUSES, "total"), _COUNT),
        },
        "series": {
            "type": "object",
            "required": ["label", "role", "x", "y"],
            "properties": {
                "label": {"type": "string"},
                "role": {"enum": ["measured", "bound", "fit", "reference"]},
                "group": {"type": "string"},
                "x": {"type": "array", "items": _NUM_OR_NULL},
                "y": {"type": "array", "items": _NUM_OR_NULL},
                "low": {"type": ["array", "null"], "items": _NUM_OR_NULL},
                "high": {"type": ["array", "null"], "items": _NUM_OR_NULL},
            },
        },
        "figure": {
            "type": "object",
            "required": ["x_label", "y_label", "x_log", "y_log", "series"],
            "properties": {
                "x_label": {"type": "string"},
                "y_label": {"type": "string"},
                "x_log": {"type": "boolean"},
                "y_log": {"type": "boolean"},
                "title": {"type": "string"},
                "series": {"type": "array", "items": {"$ref": "#/$defs/series"}},
            },
        },
        "verdict": {
            "type": "object",
            "required": ["outcome", "reason", "predicted", "measured", "ci", "numbers", "table"],
            "properties": {
                "outcome": {"enum": ["holds", "violated", "inconclusive", "error"]},
                "reason": {"type": "string"},
                "predicted": {"type": "string"},
                "measured": {"type": "string"},
                "ci": {
                    "type": ["array", "null"],
                    "prefixItems": [_NUM_OR_NULL, _NUM_OR_NULL],
                    "minItems": 2,
                    "maxItems": 2,
                },
                "numbers": {"type": "object", "additionalProperties": _NUM_OR_NULL},
                "table": {"type": "array", "items": {"type": "object"}},
                "figure": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/figure"}]},
                "counterexample": {"type": ["object", "null"]},
            },
        },
        "claim": {
            "type": "object",
            "required": [
                "id",
                "paper",
                "source",
                "citation",
                "statement",
                "criterion",
                "bound",
                "expect",
                "gating",
                "profile",
                "sweep",
                "status",
                "passed",
                "verdict",
                "n_points",
                "n_replicates",
                "n_cached",
                "n_computed",
                "compute_seconds",
            ],
            "properties": {
                "id": {"type": "string"},
                "paper": {"type": "string"},
                "source": {"type": "string", "description": "short citation"},
                "citation": {"type": "string", "description": "full citation"},
                "statement": {"type": "string"},
                "criterion": {"type": "string", "description": "the criterion in words"},
                "criterion_spec": {"type": "object"},
                "bound": {"type": ["string", "null"], "description": "id of the bound"},
                "expect": {"enum": ["holds", "violated"]},
                "gating": {
                    "type": "boolean",
                    "description": "false: reported only, does not decide the exit status",
                },
                "profiles": {"type": "object"},
                "notes": {"type": "string"},
                "file": {"type": "string"},
                "profile": {"enum": ["smoke", "quick", "full"]},
                "sweep": {"type": "object"},
                "status": {"enum": list(STATUSES)},
                "passed": {"type": "boolean"},
                "verdict": {"$ref": "#/$defs/verdict"},
                "n_points": _COUNT,
                "n_replicates": _COUNT,
                "n_cached": _COUNT,
                "n_computed": _COUNT,
                "compute_seconds": {"type": ["number", "null"], "minimum": 0},
                "evaluated": {
                    "type": ["array", "null"],
                    "items": {"type": "string"},
                    "description": "ids of the bounds the experiment evaluated in the replicates "
                    "this run computed (null: none computed, all cached)",
                },
            },
        },
    },
}

_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: (
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    ),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


def _check(value: Any, schema: Mapping[str, Any], where: str, root: Mapping[str, Any]) -> None:
    """Check ``value`` against the subset of JSON Schema used by :data:`VERDICTS_SCHEMA`."""

    def fail(rule: str) -> None:
        shown = (
            value
            if isinstance(value, (str, int, float, bool)) or value is None
            else type(value).__name__
        )
        raise ParameterError(parameter=where, value=shown, rule=rule)

    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        _check(value, root["$defs"][name], where, root)
    if "oneOf" in schema:
        errors = []
        for option in schema["oneOf"]:
            try:
                _check(value, option, where, root)
            except ParameterError as exc:
                errors.append(str(exc))
        if len(errors) != len(schema["oneOf"]) - 1:
            fail("must match exactly one of: " + " | ".join(errors) if errors else "is ambiguous")
    if "const" in schema and (value != schema["const"] or type(value) is bool):
        fail(f"must be {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        fail(f"must be one of {schema['enum']}")
    if "type" in schema:
        types = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not any(_TYPES[t](value) for t in types):
            fail(f"must be of type {' or '.join(types)}")
    minimum = schema.get("minimum")
    if _is_number(value) and minimum is not None and value < minimum:
        fail(f"must be >= {minimum}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                raise ParameterError(
                    parameter=where, value=sorted(value), rule=f"is missing the key {key!r}"
                )
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                _check(item, properties[key], f"{where}.{key}", root)
            elif extra is False:
                fail(f"has the unknown key {key!r}")
            elif isinstance(extra, Mapping):
                _check(item, extra, f"{where}.{key}", root)
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            fail(f"needs at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            fail(f"allows at most {schema['maxItems']} items")
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items")
            if sub is not None:
                _check(item, sub, f"{where}[{i}]", root)


def validate_verdicts(doc: Any) -> None:
    """Check a verdicts document (parsed ``verdicts.json``) against :data:`VERDICTS_SCHEMA`.

    Checks required keys, types, enumerations and the consistency of ``summary`` with
    ``claims``. Does not need the ``jsonschema`` package.

    Raises
    ------
    ParameterError
        Naming the first offending place, e.g. ``verdicts.claims[2].verdict.outcome``.
    """
    _check(doc, VERDICTS_SCHEMA, "verdicts", VERDICTS_SCHEMA)
    counts = dict.fromkeys(STATUSES, 0)
    for claim in doc["claims"]:
        counts[claim["status"]] += 1
    counts["total"] = len(doc["claims"])
    for key, count in counts.items():
        if doc["summary"][key] != count:
            raise ParameterError(
                parameter=f"verdicts.summary.{key}",
                value=doc["summary"][key],
                rule=f"disagrees with the claims ({count})",
            )


def verdicts_document(
    results: Sequence[ClaimResult],
    *,
    run_info: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> dict[str, Any]:
    """The verdicts document as plain data (what :func:`write_verdicts_json` writes)."""
    doc = {
        "schema": "fedtheory.verdicts",
        "schema_version": 1,
        "fedtheory_version": __version__,
        "created": created or _now(),
        "run": _run_info(run_info, results),
        "summary": summarize(results),
        "claims": [plain_data(result.to_dict()) for result in results],
    }
    validate_verdicts(doc)
    return doc


def write_verdicts_json(
    results: Sequence[ClaimResult],
    path: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> Path:
    """Write ``verdicts.json`` atomically (strict JSON, see :data:`VERDICTS_SCHEMA`).

    Parameters
    ----------
    results
        The judged claims, in report order.
    path
        Target file; its folder is created.
    run_info
        ``profile, seed, executor, workers, store, seconds, command`` (a command given as a
        list of arguments is joined); missing keys are written as ``null``, extra keys kept.
    created
        Timestamp to record (default: now, UTC).

    Returns
    -------
    pathlib.Path
    """
    doc = verdicts_document(results, run_info=run_info, created=created)
    text = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return _atomic_write(Path(path), text.encode("utf-8"))


# --------------------------------------------------------------------------- HTML

_CSS = """
:root { --fg: #1d1f21; --muted: #5f6368; --line: #e2e4e8; --bg: #ffffff; --card: #fafbfc;
  --holds: #1a7f37; --violated-as-expected: #1a7f37; --failed: #cf222e; --reported: #0969da;
  --inconclusive: #9a6700; --error: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 36px 0 12px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h2 .title { color: var(--muted); font-weight: normal; }
h3 { font-size: 1.05em; margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas,
  monospace; word-break: break-all; }
.meta, .muted { color: var(--muted); }
.summary { font-size: 1.05em; margin: 12px 0; }
.count { font-weight: 600; margin-right: 10px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 0.8em;
  font-weight: 600; color: #fff; vertical-align: middle; white-space: nowrap; }
.holds { --c: var(--holds); } .violated-as-expected { --c: var(--violated-as-expected); }
.failed { --c: var(--failed); } .reported { --c: var(--reported); }
.inconclusive { --c: var(--inconclusive); }
.error { --c: var(--error); }
.badge { background: var(--c); } .count { color: var(--c); }
.expect { font-size: 0.85em; color: var(--muted); margin-left: 6px; }
nav ul { list-style: none; padding-left: 0; margin: 4px 0; }
nav ul ul { padding-left: 18px; font-size: 0.92em; }
nav a { color: inherit; text-decoration: none; } nav a:hover { text-decoration: underline; }
nav .badge { font-size: 0.7em; }
.card { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--c);
  border-radius: 6px; padding: 14px 16px; margin: 14px 0; }
.card header { display: flex; flex-wrap: wrap; gap: 8px; align-items: center;
  margin-bottom: 8px; }
.statement { font-size: 1.02em; margin: 6px 0 10px; }
dl { display: grid; grid-template-columns: 140px 1fr; gap: 4px 12px; margin: 8px 0; }
dt { color: var(--muted); } dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.88em; }
pre { background: #f0f2f4; padding: 6px 8px; border-radius: 4px; margin: 4px 0;
  white-space: pre-wrap; overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 0.85em; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 2px 8px; text-align: left;
  vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f2f4; font-weight: 600; }
details { margin: 8px 0; } summary { cursor: pointer; color: var(--muted); }
.scroll { overflow-x: auto; max-height: 480px; overflow-y: auto; }
figure { margin: 10px 0 4px; text-align: center; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px;
  background: #fff; }
.reason { margin: 6px 0; }
dd.warn { color: var(--inconclusive); font-weight: 600; }
.sweep { font-size: 0.85em; color: var(--muted); margin: 6px 0 0; }
footer { margin-top: 40px; font-size: 0.85em; color: var(--muted); }
"""

_MAX_TABLE_ROWS = 500


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _anchor(claim_id: str) -> str:
    return "claim-" + claim_id.replace("/", "__")


def _value(value: Any) -> str:
    """Plain text of a table value (numbers with 4 significant digits)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _num(value, 4)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kv_table(mapping: Mapping[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{_e(k)}</th><td{' class=num' if _is_number(v) else ''}>{_e(_value(v))}</td></tr>"
        for k, v in mapping.items()
    )
    return f"<table>{rows}</table>"


def _rows_table(rows: Sequence[Mapping[str, Any]]) -> str:
    columns: list[str] = []
    for row in rows:
        columns.extend(k for k in row if k not in columns)
    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = []
    for row in rows[:_MAX_TABLE_ROWS]:
        cells = []
        for c in columns:
            v = row.get(c)
            cls = " class=num" if _is_number(v) else ""
            cells.append(f"<td{cls}>{_e(_value(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = (
        f"<p class=muted>First {_MAX_TABLE_ROWS} of {len(rows)} rows; all are in verdicts.json.</p>"
        if len(rows) > _MAX_TABLE_ROWS
        else ""
    )
    return f"<div class=scroll><table><tr>{head}</tr>{''.join(body)}</table></div>{more}"


def _sweep_text(sweep: Mapping[str, Any]) -> str:
    parts = []
    if sweep.get("grid"):
        grid = "; ".join(
            f"{name} ∈ {{{', '.join(_value(v) for v in values)}}}"
            for name, values in sweep["grid"].items()
        )
        parts.append(f"grid {grid}")
    if sweep.get("points"):
        names = ", ".join(sweep["points"][0])
        parts.append(f"{len(sweep['points'])} points over ({names})")
    if sweep.get("fixed"):
        parts.append("fixed " + _value(sweep["fixed"]))
    if "replicates" in sweep:
        parts.append(f"{sweep['replicates']} replicates per point")
    return "; ".join(parts)


def _bound_html(result: ClaimResult) -> str:
    bound = result.claim.bound
    if bound is None:
        return ""
    try:
        latex = bound.statement_latex()
    except Exception as exc:  # a display problem must not lose the report
        latex = f"(LaTeX unavailable: {exc})"
    return f"<dt>Bound</dt><dd><code>{_e(bound.id)}</code><pre><code>{_e(latex)}</code></pre></dd>"


def _resolving_power_html(verdict: Verdict) -> str:
    power = _resolving_power(verdict)
    if power is None:
        return ""
    text, warn = power
    if warn:
        return f'<dt>Resolving power</dt><dd class="warn">⚠ {_e(text)}</dd>'
    return f"<dt>Resolving power</dt><dd>{_e(text)}</dd>"


def _card(result: ClaimResult, figure: str | os.PathLike[str] | None) -> str:
    claim = result.claim
    info = claim.describe()
    verdict = result.verdict
    status = result.status
    doc = result.to_dict()
    mark = "✓ passed" if result.passed else "✗ did not pass"
    if not claim.gating:
        mark += " · reported, not gating (does not decide the exit status)"
    out = [
        f'<article class="card {_e(status)}" id="{_e(_anchor(claim.id))}">',
        "<header>",
        f"<h3>{_e(claim.id)}</h3>",
        f'<span class="badge {_e(status)}">{_e(verdict.outcome)}</span>',
        f'<span class="expect">expected {_e(claim.expect)} · {mark}</span>',
        "</header>",
        f'<p class="statement">{_e(info.get("statement", ""))}</p>',
        "<dl>",
        f"<dt>Source</dt><dd>{_e(info.get('citation', ''))}</dd>",
        _bound_html(result),
        f"<dt>Criterion</dt><dd>{_e(info.get('criterion', ''))}</dd>",
        f"<dt>Predicted</dt><dd>{_e(verdict.predicted or '—')}</dd>",
        f"<dt>Measured</dt><dd>{_e(verdict.measured or '—')}</dd>",
        f"<dt>CI</dt><dd>{_e(format_ci(verdict.ci))}</dd>",
    ]
    if verdict.numbers:
        numbers = ", ".join(f"{k} = {_num(v, 4)}" for k, v in verdict.numbers.items())
        out.append(f"<dt>Numbers</dt><dd>{_e(numbers)}</dd>")
    out.append(_resolving_power_html(verdict))
    out.append(f"<dt>Reason</dt><dd>{_e(verdict.reason)}</dd>")
    if info.get("notes"):
        out.append(f"<dt>Notes</dt><dd>{_e(info['notes'])}</dd>")
    out.append("</dl>")
    if verdict.counterexample:
        out.append("<p><strong>Counterexample</strong></p>")
        out.append(_kv_table(plain_data(verdict.counterexample)))
    if figure is not None and Path(figure).is_file():
        data = base64.b64encode(Path(figure).read_bytes()).decode("ascii")
        out.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="figure of {_e(claim.id)}">'
            "</figure>"
        )
    table = doc["verdict"]["table"]
    if table:
        out.append(
            f"<details><summary>Per-point numbers ({len(table)} rows)</summary>"
            f"{_rows_table(plain_data(table))}</details>"
        )
    counters = (
        f"{result.n_points} points, {result.n_replicates} replicates "
        f"({result.n_cached} cached, {result.n_computed} computed), "
        f"{format_seconds(result.compute_seconds)} of compute"
    )
    sweep = _sweep_text(doc.get("sweep") or {})
    out.append(f'<p class="sweep">Profile {_e(result.profile)}: {_e(sweep)}<br>{_e(counters)}</p>')
    out.append("</article>")
    return "\n".join(part for part in out if part)


def write_html(
    results: Sequence[ClaimResult],
    path: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    figures: Mapping[str, str | os.PathLike[str]] | None = None,
    created: str | None = None,
) -> Path:
    """Write a self-contained HTML report atomically.

    Inline CSS, figures embedded as base64 ``data:`` URIs, no scripts and no external
    references: the file can be mailed or archived on its own.

    Parameters
    ----------
    results
        The judged claims.
    path
        Target file (``report/index.html``); its folder is created.
    run_info
        As for :func:`write_verdicts_json` (profile, seed, executor, seconds, ...).
    figures
        ``{claim id: PNG path}``, e.g. from :func:`write_figure`.
    created
        Timestamp to show (default: now, UTC).

    Returns
    -------
    pathlib.Path
    """
    figures = dict(figures or {})
    run = _run_info(run_info, results)
    counts = summarize(results)
    created = created or _now()
    meta = [f"fedtheory {__version__}", created]
    if run.get("profile"):
        meta.append(f"profile {run['profile']}")
    if run.get("seed") is not None:
        meta.append(f"seed {run['seed']}")
    if run.get("executor"):
        workers = f" ({run['workers']} workers)" if run.get("workers") else ""
        meta.append(f"executor {run['executor']}{workers}")
    if run.get("seconds") is not None:
        meta.append(format_seconds(run["seconds"]))
    noun = "claim" if counts["total"] == 1 else "claims"
    summary = "".join(
        f'<span class="count {_e(s)}">{counts[s]} {_e(s)}</span>' for s in _shown(counts)
    )
    groups = _by_paper(results)
    toc = []
    sections = []
    for paper, group in groups:
        title = _paper_title(paper)
        title_html = f' <span class="title">— {_e(title)}</span>' if title else ""
        items = "".join(
            f'<li><a href="#{_e(_anchor(r.claim.id))}">{_e(r.claim.id)}</a> '
            f'<span class="badge {_e(r.status)}">{_e(r.verdict.outcome)}</span></li>'
            for r in group
        )
        toc.append(
            f'<li><a href="#paper-{_e(paper)}"><strong>{_e(paper)}</strong></a>{title_html}'
            f"<ul>{items}</ul></li>"
        )
        cards = "\n".join(_card(r, figures.get(r.claim.id)) for r in group)
        sections.append(
            f'<section id="paper-{_e(paper)}"><h2>{_e(paper)}{title_html}</h2>\n{cards}</section>'
        )
    command = "".join(
        f"<p>{label}: <code>{_e(run[key])}</code></p>"
        for key, label in (("command", "Command"), ("store", "Result store"))
        if run.get(key)
    )
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fedtheory verification report</title>
<style>{_CSS}</style>
</head>
<body>
<main>
<header>
<h1>fedtheory verification report</h1>
<p class="meta">{_e(" · ".join(meta))}</p>
<p class="summary"><strong>{counts["total"]} {noun}:</strong> {summary}</p>
</header>
<nav><h2>Contents</h2><ul>{"".join(toc)}</ul></nav>
{"".join(sections)}
<footer>{command}<p>Machine-readable verdicts: <code>verdicts.json</code>
(schema fedtheory.verdicts, version 1).</p></footer>
</main>
</body>
</html>
"""
    return _atomic_write(Path(path), page.encode("utf-8"))


# --------------------------------------------------------------------------- all at once


def check_report_dir(directory: str | os.PathLike[str]) -> Path:
    """Make sure a report can be written into ``directory`` (before a run computes anything).

    The folder is created if needed and a probe file is written and removed.

    Raises
    ------
    ParameterError
        The path is a file, or the folder cannot be created or written.
    """
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".fedtheory-probe-"):
            pass
    except FileExistsError:
        raise ParameterError(
            parameter="--report", value=str(directory), rule="is a file, not a folder"
        ) from None
    except OSError as exc:
        rule = f"cannot write a report there ({exc.strerror or type(exc).__name__})"
        if isinstance(exc, NotADirectoryError):
            rule = "is inside a file, not a folder"
        raise ParameterError(parameter="--report", value=str(directory), rule=rule) from None
    return directory


def write_report(
    results: Sequence[ClaimResult],
    directory: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
) -> dict[str, Path]:
    """Write figures, ``verdicts.json`` and ``index.html`` into ``directory``.

    Files already in the folder are left alone except those written here (figures of the
    claims in ``results``, ``verdicts.json``, ``index.html``). A figure that cannot be drawn
    gives a :class:`RuntimeWarning` and is left out; the rest of the report is still written.

    Returns
    -------
    dict
        ``{"html": index.html, "json": verdicts.json}`` plus ``{claim id: PNG path}`` for
        every figure written.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    created = _now()
    figures: dict[str, Path] = {}
    for result in results:
        if result.verdict.figure is None:
            continue
        target = directory / "figures" / figure_name(result.claim.id)
        try:
            written = write_figure(result, target)
        except Exception as exc:  # one bad figure must not cost the whole report
            warnings.warn(
                f"{result.claim.id}: could not draw the figure ({type(exc).__name__}: {exc})",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        if written is not None:
            figures[result.claim.id] = written
    json_path = write_verdicts_json(
        results, directory / "verdicts.json", run_info=run_info, created=created
    )
    html_path = write_html(
        results, directory / "index.html", run_info=run_info, figures=figures, created=created
    )
    return {"html": html_path, "json": json_path, **figures}
