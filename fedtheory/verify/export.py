"""Exporting stored replicates: CSV or JSON text, written safely (``fedtheory results export``).

- CSV cells that a spreadsheet would run as a formula — text starting with ``=``, ``+``, ``-``,
  ``@``, tab or carriage return (OWASP "CSV injection") — get a leading ``'``; numbers,
  negative ones included, are written unchanged (floats with ``repr`` precision).
- :func:`write_atomically` replaces a file only once the new content is complete, and
  :func:`is_store_file` tells the store (and its SQLite sidecar files) from any other target,
  so an export never overwrites the store it reads.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import secrets
import stat
from collections.abc import Mapping, Sequence
from typing import Any

from fedtheory.errors import ParameterError

__all__ = ["export_text", "is_store_file", "write_atomically"]

#: Characters that make a spreadsheet read a CSV cell as a formula (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Columns of a CSV export before the parameters (``param.*``) and outputs (``out.*``).
FIXED_COLUMNS = (
    "claim",
    "replicate",
    "seed",
    "base_seed",
    "fingerprint",
    "version",
    "seconds",
    "created",
    "key",
)


def _csv_cell(value: Any) -> Any:
    """A CSV cell: strings that a spreadsheet would run as a formula get a leading ``'``."""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, float):
        return repr(value)
    return value


def _csv_line(cells: Sequence[Any]) -> str:
    """One CSV row ending in ``\\n``; a cell holding ``\\r`` or ``\\n`` is quoted.

    (With ``lineterminator="\\n"`` the csv module leaves a lone ``\\r`` unquoted, which
    breaks the row for every reader; so the row is written with ``\\r\\n`` and that ending
    alone is replaced.)
    """
    line = io.StringIO()
    csv.writer(line, lineterminator="\r\n").writerow(cells)
    return line.getvalue()[:-2] + "\n"


def export_text(rows: Sequence[Mapping[str, Any]], fmt: str = "csv") -> str:
    """Rows of :meth:`~fedtheory.verify.store.ResultStore.rows` as CSV or JSON text.

    CSV has one line per replicate, with the parameters and outputs as ``param.*`` and
    ``out.*`` columns; JSON is the list of rows as they are.

    Raises
    ------
    ParameterError
        An unknown format.
    """
    if fmt == "json":
        return json.dumps(list(rows), indent=1, allow_nan=False) + "\n"
    if fmt != "csv":
        raise ParameterError(parameter="--format", value=fmt, rule="must be 'csv' or 'json'")
    params = sorted({k for r in rows for k in r["params"]})
    outputs = sorted({k for r in rows for k in r["outputs"]})
    header = [*FIXED_COLUMNS, *(f"param.{p}" for p in params), *(f"out.{o}" for o in outputs)]
    lines = [_csv_line(header)]
    for r in rows:
        lines.append(
            _csv_line(
                [_csv_cell(r[c]) for c in FIXED_COLUMNS]
                + [_csv_cell(r["params"].get(p, "")) for p in params]
                + [_csv_cell(r["outputs"][o]) if o in r["outputs"] else "" for o in outputs]
            )
        )
    return "".join(lines)


def is_store_file(output: str | os.PathLike[str], store: str | os.PathLike[str]) -> bool:
    """Whether ``output`` is the store or one of its SQLite sidecar files (any spelling,
    through links)."""
    target = os.path.realpath(output)
    for suffix in ("", "-wal", "-shm", "-journal"):
        candidate = os.fspath(store) + suffix
        if target == os.path.realpath(candidate):
            return True
        with contextlib.suppress(OSError):
            if os.path.samefile(output, candidate):
                return True
    return False


def write_atomically(output: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``output`` through a temporary file in the same folder.

    The temporary file replaces ``output`` only once it is complete, so a failure leaves
    ``output`` as it was (and no temporary file behind). A symbolic link is written through,
    as ``open(output, "w")`` would, and an overwritten file keeps its permissions.

    Raises
    ------
    ParameterError
        The file cannot be written there (parameter ``--output``).
    """
    target = os.path.realpath(output)
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        rule = f"cannot write there ({exc.strerror or exc})"
        raise ParameterError(parameter="--output", value=os.fspath(output), rule=rule) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(OSError):  # overwriting keeps the file's permissions
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        rule = f"cannot write there ({exc.strerror or exc})"
        raise ParameterError(parameter="--output", value=os.fspath(output), rule=rule) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
