"""The verdicts as JUnit XML (``fedtheory verify --junitxml FILE``), for CI systems.

The layout is the one Jenkins, GitLab, GitHub test reporters and pytest use: ``<testsuites>``
with one ``<testsuite>`` per paper and one ``<testcase>`` per claim (``classname`` the paper,
``name`` the claim id, ``file`` its claim file, ``time`` its compute seconds). A claim that does
not pass is a ``<failure>`` (its outcome differs from its expectation: ``type`` is the
outcome) or an ``<error>`` (its experiment or criterion raised: the traceback is the text); a
non-gating claim whose outcome differs from its expectation is ``<skipped>`` (reported, never
failing the run). Every test case carries the predicted and measured values, the reason and,
for a violated claim, the command that reruns its counterexample in ``<system-out>``.
"""

from __future__ import annotations

import os
import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory.verify.claim import ClaimResult
from fedtheory.verify.report._common import atomic_write, by_paper, now_utc, rerun_command

__all__ = ["junit_document", "write_junit"]


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: Any) -> str:
    """Text XML 1.0 can carry (control characters, e.g. of colour codes, become U+FFFD)."""
    return _NOT_XML.sub("\ufffd", str(value))


def _seconds(value: float) -> str:
    return f"{max(float(value), 0.0):.3f}"


def _case(result: ClaimResult, run_info: Mapping[str, Any] | None) -> ET.Element:
    verdict = result.verdict
    case = ET.Element(
        "testcase",
        {
            "classname": result.claim.paper,
            "name": _text(result.claim.id),
            "file": _text(result.file),
            "time": _seconds(result.compute_seconds),
        },
    )
    status = result.status
    if verdict.outcome == "error":
        element = ET.SubElement(
            case, "error", {"type": "error", "message": _text(verdict.reason)}
        )
        element.text = _text(verdict.traceback or verdict.reason)
    elif not result.passed and result.claim.gating:
        message = _text(f"{verdict.outcome}, expected {result.claim.expect}: {verdict.reason}")
        element = ET.SubElement(case, "failure", {"type": verdict.outcome, "message": message})
        element.text = message
    elif not result.passed:
        ET.SubElement(
            case,
            "skipped",
            {"type": "reported", "message": f"{status}: not gating, reported only"},
        )
    lines = [
        f"outcome: {verdict.outcome} (expected {result.claim.expect}; status {status})",
        f"predicted: {verdict.predicted or '—'}",
        f"measured: {verdict.measured or '—'}",
        f"reason: {verdict.reason}",
    ]
    if verdict.where:
        lines.append(f"at: {verdict.where}")
    command = rerun_command(result, run_info)
    if command:
        lines.append(f"rerun the counterexample: {command}")
    ET.SubElement(case, "system-out").text = _text("\n".join(lines))
    return case


def _counts(results: Sequence[ClaimResult]) -> dict[str, str]:
    errors = sum(r.verdict.outcome == "error" for r in results)
    failures = sum(
        (not r.passed) and r.claim.gating and r.verdict.outcome != "error" for r in results
    )
    skipped = sum((not r.passed) and not r.claim.gating for r in results)
    time = sum(r.compute_seconds for r in results)
    return {
        "tests": str(len(results)),
        "failures": str(failures),
        "errors": str(errors),
        "skipped": str(skipped),
        "time": _seconds(time),
    }


def junit_document(
    results: Sequence[ClaimResult],
    *,
    run_info: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> ET.Element:
    """The ``<testsuites>`` element of the run (see the module docstring)."""
    info = dict(run_info or {})
    root = ET.Element("testsuites", {"name": "fedtheory verify"})
    totals = _counts(results)
    root.attrib.update({k: v for k, v in totals.items() if k != "skipped"})
    if info.get("seconds") is not None:
        root.set("time", _seconds(info["seconds"]))
    timestamp = (created or now_utc()).rstrip("Z")
    for index, (paper, group) in enumerate(by_paper(results)):
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": paper,
                "id": str(index),
                "timestamp": timestamp,
                "hostname": socket.gethostname(),
                **_counts(group),
            },
        )
        properties = ET.SubElement(suite, "properties")
        for key in ("profile", "seed", "executor", "run_id", "fedtheory_version", "command"):
            if info.get(key) is not None:
                ET.SubElement(properties, "property", {"name": key, "value": _text(info[key])})
        for result in group:
            suite.append(_case(result, info))
    return root


def write_junit(
    results: Sequence[ClaimResult],
    path: str | os.PathLike[str],
    *,
    run_info: Mapping[str, Any] | None = None,
    created: str | None = None,
) -> Path:
    """Write the JUnit XML file atomically; returns its path."""
    root = junit_document(results, run_info=run_info, created=created)
    ET.indent(root)
    data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return atomic_write(Path(path), data + b"\n")
