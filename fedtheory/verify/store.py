"""The result store: one SQLite file in WAL mode, one row per replicate (DESIGN §6).

Schema (``schema_version`` 1)::

    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- ('schema_version', '1'), ('created', ISO time)
    CREATE TABLE results (
        key         TEXT PRIMARY KEY, -- sha256 of (claim, params, seed, fingerprint, version)
        claim       TEXT NOT NULL,    -- claim id, or the shared measurement set of the claim
        params      TEXT NOT NULL,    -- canonical JSON of the parameter point (sorted keys)
        replicate   INTEGER NOT NULL, -- replicate index at that point
        seed        INTEGER NOT NULL, -- the replicate's seed (from SeedSequence, 63 bits)
        base_seed   INTEGER NOT NULL, -- the run's --seed
        fingerprint TEXT NOT NULL,    -- sha256 of the experiment's module source (16 hex)
        version     TEXT NOT NULL,    -- fedtheory version
        outputs     TEXT NOT NULL,    -- JSON object {output name: float}
        seconds     REAL NOT NULL,    -- wall time of the experiment call
        created     TEXT NOT NULL     -- ISO time (UTC) the row was written
    );

Properties the runner relies on:

- **Crash safety.** Each finished task is committed on its own, so killing a run loses only the
  tasks in flight; SQLite's journal keeps the file consistent.
- **Concurrency.** WAL lets readers and one writer proceed together; writers wait up to
  ``busy_timeout`` for each other; ``INSERT OR IGNORE`` on the primary key means two runs
  computing the same replicate store it once (both computed the same bits anyway).
- **Plain data.** Payloads are JSON; floats are written with ``repr`` precision, so a value read
  back is bit-identical to the one computed.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import fnmatch
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from fedtheory.errors import ParameterError

__all__ = ["DEFAULT_STORE", "SCHEMA_VERSION", "ResultStore", "canonical_json", "result_key"]

#: Where ``fedtheory verify`` keeps results unless ``--store`` says otherwise.
DEFAULT_STORE = Path(".fedtheory") / "results.sqlite"
#: Version of the table layout above; a store with another version is refused.
SCHEMA_VERSION = 1
_BUSY_TIMEOUT_MS = 60_000
_CHUNK = 500  # SQLite's limit on bound variables is 999 in old builds

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    key         TEXT PRIMARY KEY,
    claim       TEXT NOT NULL,
    params      TEXT NOT NULL,
    replicate   INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    base_seed   INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    version     TEXT NOT NULL,
    outputs     TEXT NOT NULL,
    seconds     REAL NOT NULL,
    created     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS results_by_claim ON results (claim);
"""

_COLUMNS = (
    "key",
    "claim",
    "params",
    "replicate",
    "seed",
    "base_seed",
    "fingerprint",
    "version",
    "outputs",
    "seconds",
    "created",
)


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: the form hashed into keys and stored."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def result_key(
    claim: str, params: Mapping[str, Any], seed: int, fingerprint: str, version: str
) -> str:
    """Cache key of one replicate: sha256 of its identity (hex)."""
    identity = canonical_json(
        {
            "claim": claim,
            "params": params,
            "seed": seed,
            "fingerprint": fingerprint,
            "version": version,
        }
    )
    return hashlib.sha256(identity.encode()).hexdigest()


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class ResultStore:
    """A results database (see the module docstring for the schema).

    Parameters
    ----------
    path
        SQLite file; its folder is created if needed.

    Raises
    ------
    ParameterError
        The file cannot be created or opened, is not a fedtheory store, or has another schema
        version.
    """

    def __init__(self, path: str | Path = DEFAULT_STORE) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
            self._db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript("BEGIN IMMEDIATE;" + _SCHEMA + "COMMIT;")
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?), ('created', ?)",
                (str(SCHEMA_VERSION), _now()),
            )
            version = self._db.execute(
                "SELECT value FROM meta WHERE name = 'schema_version'"
            ).fetchone()[0]
        except (sqlite3.Error, OSError) as exc:
            raise ParameterError(
                parameter="store", value=str(path), rule=f"cannot open a result store there ({exc})"
            ) from None
        if str(mode).lower() != "wal":
            raise ParameterError(
                parameter="store",
                value=str(path),
                rule=f"the file system refuses WAL mode ({mode})",
            )
        if version != str(SCHEMA_VERSION):
            raise ParameterError(
                parameter="store",
                value=str(path),
                rule=f"has schema version {version}; this fedtheory reads version {SCHEMA_VERSION}",
            )

    # -- context manager ---------------------------------------------------------------------

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._db.close()

    # -- reading -----------------------------------------------------------------------------

    def existing(self, keys: Iterable[str]) -> dict[str, dict[str, float]]:
        """The stored outputs of those keys that are present."""
        keys = list(keys)
        found: dict[str, dict[str, float]] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for key, outputs in self._db.execute(
                f"SELECT key, outputs FROM results WHERE key IN ({marks})", chunk
            ):
                found[key] = json.loads(outputs)
        return found

    def rows(self, claims: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored row (as a dict with parsed params/outputs), optionally by claim glob."""
        cursor = self._db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM results ORDER BY claim, params, replicate, key"
        )
        for values in cursor:
            row = dict(zip(_COLUMNS, values, strict=True))
            if claims is not None and not fnmatch.fnmatchcase(row["claim"], claims):
                continue
            row["params"] = json.loads(row["params"])
            row["outputs"] = json.loads(row["outputs"])
            yield row

    def summary(self, claims: str | None = None) -> list[dict[str, Any]]:
        """Per claim: number of rows, distinct points, versions, fingerprints, last write."""
        out = []
        for claim, n, points, versions, fingerprints, last, seconds in self._db.execute(
            "SELECT claim, COUNT(*), COUNT(DISTINCT params), GROUP_CONCAT(DISTINCT version), "
            "COUNT(DISTINCT fingerprint), MAX(created), SUM(seconds) FROM results "
            "GROUP BY claim ORDER BY claim"
        ):
            if claims is None or fnmatch.fnmatchcase(claim, claims):
                out.append(
                    {
                        "claim": claim,
                        "rows": n,
                        "points": points,
                        "versions": versions,
                        "fingerprints": fingerprints,
                        "last_written": last,
                        "compute_seconds": seconds,
                    }
                )
        return out

    def count(self) -> int:
        """Number of stored rows."""
        return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` ("ok" for a sound file)."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    # -- writing -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Callable[[], int]]:
        """One write transaction (rolled back on any exception); yields a row-change counter."""
        self._db.execute("BEGIN IMMEDIATE")
        before = self._db.total_changes
        try:
            yield lambda: self._db.total_changes - before
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def put(self, records: Sequence[Mapping[str, Any]], *, replace: bool = False) -> int:
        """Store records (dicts with the columns above; params/outputs as objects).

        One transaction per call. ``replace=True`` overwrites rows with the same key (used by
        ``--no-cache``); otherwise existing rows are kept. Returns the number of rows written.
        """
        if not records:
            return 0
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        created = _now()
        values = [
            (
                r["key"],
                r["claim"],
                canonical_json(r["params"]),
                int(r["replicate"]),
                int(r["seed"]),
                int(r["base_seed"]),
                r["fingerprint"],
                r["version"],
                json.dumps(r["outputs"], sort_keys=True, allow_nan=False),
                float(r["seconds"]),
                created,
            )
            for r in records
        ]
        marks = ",".join("?" * len(_COLUMNS))
        with self._transaction() as changes:
            self._db.executemany(f"{verb} INTO results VALUES ({marks})", values)
        return changes()

    def clear(self, claims: str | None = None) -> int:
        """Delete the rows of claims matching the glob (all rows without one); returns the count."""
        ids = [row["claim"] for row in self.summary(claims)]
        with self._transaction() as changes:
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                self._db.execute(f"DELETE FROM results WHERE claim IN ({marks})", chunk)
        return changes()
