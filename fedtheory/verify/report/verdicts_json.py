"""``verdicts.json``: the machine-readable verdicts of a run.

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

import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory._version import __version__
from fedtheory.errors import ParameterError
from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import (
    RUN_KEYS,
    STATUSES,
    atomic_write,
    is_number,
    now_utc,
    run_info_document,
    summarize,
)
from fedtheory.verify.verdict import plain_data

__all__ = [
    "RUN_KEYS",
    "VERDICTS_SCHEMA",
    "validate_verdicts",
    "verdicts_document",
    "write_verdicts_json",
]

# --------------------------------------------------------------------------- verdicts.json


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
                "where": {
                    "type": ["string", "null"],
                    "description": "error: file:line where the exception was raised",
                },
                "traceback": {"type": ["string", "null"], "description": "error: the traceback"},
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
    if is_number(value) and minimum is not None and value < minimum:
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
        "created": created or now_utc(),
        "run": run_info_document(run_info, results),
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
    return atomic_write(Path(path), text.encode("utf-8"))
