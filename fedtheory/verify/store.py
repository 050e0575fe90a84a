"""The result store: one SQLite file in WAL mode; replicates and runs (DESIGN §6).

Schema (``schema_version`` 2)::

    PRAGMA application_id = 0x46545253;  -- b"FTRS": this file is a fedtheory result store
    PRAGMA user_version = 2;             -- the schema version (also in the meta table)
    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- ('schema_version', '2'), ('created', ISO time)
    CREATE TABLE results (
        key         TEXT PRIMARY KEY, -- sha256 of (claim, params, seed, fingerprint, version)
        claim       TEXT NOT NULL,    -- claim id, or the shared measurement set of the claim
        params      TEXT NOT NULL,    -- canonical JSON of the parameter point (sorted keys)
        replicate   INTEGER NOT NULL, -- replicate index at that point
        seed        INTEGER NOT NULL, -- the replicate's seed (from SeedSequence, 63 bits)
        base_seed   INTEGER NOT NULL, -- the run's --seed
        fingerprint TEXT NOT NULL,    -- digest of the code that ran (verify.fingerprint, 16 hex)
        version     TEXT NOT NULL,    -- fedtheory version
        outputs     TEXT NOT NULL,    -- JSON object {output name: float}
        seconds     REAL NOT NULL,    -- wall time of the experiment call
        created     TEXT NOT NULL     -- ISO time (UTC) the row was written
    );
    CREATE INDEX results_by_claim ON results (claim);
    CREATE TABLE runs (                -- one row per `fedtheory verify` run (version 2)
        id      INTEGER PRIMARY KEY,   -- 1, 2, 3, ... in the order the runs were recorded
        started TEXT NOT NULL,         -- ISO time (UTC) the run started
        seconds REAL,                  -- its wall time
        info    TEXT NOT NULL,         -- JSON object: profile, seed, command, executor, ...
        summary TEXT NOT NULL          -- JSON object {status: number of claims, "total": n}
    );
    CREATE TABLE verdicts (            -- one row per claim judged in a run (version 2)
        run     INTEGER NOT NULL,      -- runs.id
        claim   TEXT NOT NULL,         -- claim id
        status  TEXT NOT NULL,         -- holds, violated-as-expected, failed, reported, ...
        record  TEXT NOT NULL,         -- JSON object (fedtheory.verify.runs.run_record)
        PRIMARY KEY (run, claim)
    );

Version 1 is the same without ``runs`` and ``verdicts``. The results table and the result keys
did not change between the versions, so cached replicates survive the upgrade.

Which files are opened (checked before anything is written):

- **New.** A path that does not exist, a 0-byte file or an SQLite file with no schema at all
  (application_id 0, user_version 0) becomes a new store (not when opened read-only).
- **Ours.** application_id :data:`APPLICATION_ID`: user_version and the meta table must both
  say :data:`SCHEMA_VERSION` and the schema must be exactly the one above.
- **Version 1.** application_id :data:`APPLICATION_ID`, user_version and meta both 1 and exactly
  the version-1 schema: read as it is when opened read-only (it has no runs:
  :meth:`ResultStore.runs` is empty); migrated when opened for writing, in one transaction
  (``runs`` and ``verdicts`` added, user_version and meta set to 2; its rows are kept).
- **Legacy.** Stores written by fedtheory before the application_id existed (application_id 0,
  user_version 0, exactly the version-1 schema, meta ``schema_version`` '1') are read as they
  are and adopted (stamped with application_id and migrated to version 2, in one transaction)
  the first time they are opened for writing.
- **Refused, untouched.** Anything else: a file that is not SQLite (a CSV file), another
  application's database (another application_id, or application_id 0 with other tables), a
  store with extra tables or another schema version (neither 1 nor 2, or user_version and meta
  disagreeing, or the tables of one version under the number of the other), and any store with
  a trigger or a view (a trigger can rewrite the outputs written by ``--no-cache``). The
  decision is taken from the file header and a read-only look at the schema, so a refused file
  is never modified: no table is added and its journal mode is not switched. The refusal is a
  :class:`~fedtheory.errors.ParameterError` on ``store``.

A file that cannot be read or written (damaged pages, a full or read-only disk, a lock held
past the busy timeout) raises :class:`~fedtheory.errors.StoreError` from any method, never a
raw :class:`sqlite3.DatabaseError`.

Properties the runner relies on:

- **Crash safety.** Each finished task is committed on its own, so killing a run loses only the
  tasks in flight; SQLite's journal keeps the file consistent.
- **Concurrency.** WAL lets readers and one writer proceed together; writers wait up to
  ``busy_timeout`` for each other; ``INSERT OR IGNORE`` on the primary key means two runs
  computing the same replicate store it once (both computed the same bits anyway). A new store
  gets its tables and application_id in one transaction before it switches to WAL, so processes
  opening a new store together all succeed (the switch is retried while another one reads).
- **Plain data.** Payloads are JSON; floats are written with ``repr`` precision, so a value read
  back is bit-identical to the one computed.
- **Read-only access.** ``ResultStore(path, readonly=True)`` (``fedtheory results list`` and
  ``export``, ``fedtheory runs``) never creates the file, a table or a sidecar file that
  outlives it, and never switches the journal mode (nor migrates a version-1 store); ``put``,
  ``clear``, ``record_run`` and ``clear_runs`` raise.
- **Runs are kept.** :meth:`ResultStore.record_run` writes a run and its verdicts in one
  transaction; :meth:`ResultStore.clear` deletes replicates only, never runs.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import fnmatch
import functools
import hashlib
import json
import math
import numbers
import os
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from fedtheory.errors import ParameterError, StoreError

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_STORE",
    "SCHEMA_VERSION",
    "ResultStore",
    "canonical_json",
    "result_key",
]

#: Where ``fedtheory verify`` keeps results unless ``--store`` says otherwise.
DEFAULT_STORE = Path(".fedtheory") / "results.sqlite"
#: Version of the table layout above; a store with another version is refused, except version 1
#: (migrated when opened for writing, read as it is when opened read-only).
SCHEMA_VERSION = 2
#: The versions this fedtheory opens (all but :data:`SCHEMA_VERSION` are migrated when written).
_READABLE_VERSIONS = (1, 2)
#: SQLite ``PRAGMA application_id`` of a result store (the bytes ``FTRS``).
APPLICATION_ID = int.from_bytes(b"FTRS", "big")
_BUSY_TIMEOUT_MS = 60_000
_CHUNK = 500  # SQLite's limit on bound variables is 999 in old builds
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100
_APPLICATION_ID_OFFSET = 68  # big-endian 4 bytes in the database header
_DAMAGED = "delete it (its results are recomputed on the next run) or pass another --store"

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
#: What version 2 adds to version 1 (also what a migration runs).
_SCHEMA_RUNS = """
CREATE TABLE IF NOT EXISTS runs (
    id      INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    seconds REAL,
    info    TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS verdicts (
    run     INTEGER NOT NULL,
    claim   TEXT NOT NULL,
    status  TEXT NOT NULL,
    record  TEXT NOT NULL,
    PRIMARY KEY (run, claim)
);
"""
#: The DDL of each schema version (the version-1 text is exactly what version 1 wrote).
_SCHEMAS = {1: _SCHEMA, 2: _SCHEMA + _SCHEMA_RUNS}

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

#: What :func:`_classify` found: a file to become a new store, a store of this version, a
#: version-1 store (application_id ours) or a legacy one (version 1 without application_id).
_Kind = Literal["empty", "ours", "v1", "legacy"]
_SchemaObject = tuple[str, str, str, str | None]


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


def _outputs_json(outputs: Mapping[str, float]) -> str:
    """The ``outputs`` column's text of a replicate: JSON with sorted keys, floats at ``repr``
    precision (what :meth:`ResultStore.put` writes; a worker writes it once, in parallel)."""
    return json.dumps(outputs, sort_keys=True, allow_nan=False)


def _result_keys(
    claim: str, params_json: str, seeds: Sequence[int], fingerprint: str, version: str
) -> list[str]:
    """:func:`result_key` of each seed at one parameter point, ``params_json`` being
    ``canonical_json(params)``: the same keys, with the identity's JSON put together once.

    The identity's keys are sorted (``claim``, ``fingerprint``, ``params``, ``seed``,
    ``version``) and a nested object is written as it is written alone, so the text is
    ``canonical_json`` of the identity exactly.
    """
    dumps = functools.partial(json.dumps, allow_nan=False)
    head = (
        f'{{"claim":{dumps(claim)},"fingerprint":{dumps(fingerprint)},'
        f'"params":{params_json},"seed":'
    ).encode()
    tail = f',"version":{dumps(version)}}}'.encode()
    sha256 = hashlib.sha256
    return [sha256(head + str(int(seed)).encode() + tail).hexdigest() for seed in seeds]


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------- file checks
def _refused(path: Path, rule: str) -> ParameterError:
    return ParameterError(parameter="store", value=str(path), rule=rule)


def _not_ours(path: Path, why: str) -> ParameterError:
    return _refused(
        path,
        f"is not a fedtheory result store ({why}; a result store has application_id "
        f"{APPLICATION_ID:#010x}); it was left untouched: pass another --store",
    )


def _store_error(path: Path, doing: str, exc: sqlite3.Error, *, ours: bool = True) -> StoreError:
    """A :class:`StoreError` for an SQLite failure, with advice that fits its cause."""
    text = str(exc)
    name = str(getattr(exc, "sqlite_errorname", "")).upper()
    lowered = text.lower()
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in lowered:
        hint = "another process holds it; retry later or pass another --store"
    elif name.startswith("SQLITE_READONLY") or "readonly" in lowered or "read-only" in lowered:
        hint = "make the file and its folder writable or pass another --store"
    elif name.startswith("SQLITE_FULL") or "full" in lowered:
        hint = "free some disk space or pass another --store"
    elif name.startswith("SQLITE_CANTOPEN") or "unable to open" in lowered:
        hint = "check the path and its permissions or pass another --store"
    elif isinstance(exc, sqlite3.IntegrityError):
        hint = "a record does not fit the table (please report this bug)"
    elif ours:
        hint = f"the file is damaged: {_DAMAGED}"
    else:
        hint = "check the file or pass another --store"
    return StoreError(path, f"cannot {doing} ({text})", hint=hint)


def _uri(path: Path, **query: str) -> str:
    """``file:`` URI of ``path`` (quoted, so ``?``, ``#`` and ``%`` in names are safe)."""
    return f"{path.absolute().as_uri()}?{urllib.parse.urlencode(query)}"


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


@functools.cache
def _reference_schema(version: int = SCHEMA_VERSION) -> frozenset[_SchemaObject]:
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(_SCHEMAS[version])
        return _schema_objects(db)
    finally:
        db.close()


def _schema_objects(db: sqlite3.Connection) -> frozenset[_SchemaObject]:
    """The schema as (type, name, table, SQL with whitespace folded); statistics left out."""
    return frozenset(
        (kind, name, table, None if sql is None else " ".join(sql.split()))
        for kind, name, table, sql in db.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
        )
        if not name.startswith("sqlite_stat")  # ANALYZE's tables only steer the planner
    )


def _describe(objects: Iterable[_SchemaObject]) -> str:
    return ", ".join(f"{kind} {name!r}" for kind, name, _table, _sql in sorted(objects))


def _classify(db: sqlite3.Connection, path: Path) -> _Kind:
    """What the database behind ``db`` is; raises :class:`ParameterError` for a foreign file.

    Only reads (the schema, two header fields and the meta table), so it may run on a
    read-only connection.
    """
    application_id = int(db.execute("PRAGMA application_id").fetchone()[0])
    user_version = int(db.execute("PRAGMA user_version").fetchone()[0])
    objects = _schema_objects(db)
    if application_id not in (0, APPLICATION_ID):
        raise _not_ours(path, f"application_id {application_id:#010x}")
    if application_id == 0:
        if not objects and user_version == 0:
            return "empty"
        tables = {name for kind, name, _, _ in objects if kind == "table"}
        if user_version != 0 or tables != {"meta", "results"}:  # legacy stores are version 1
            shown = ", ".join(sorted(tables)) or "none"
            raise _not_ours(path, f"application_id 0, user_version {user_version}, tables: {shown}")
    planted = [o for o in objects if o[0] in ("trigger", "view")]
    if planted:
        raise _refused(
            path,
            f"has {_describe(planted)}; a result store has no triggers or views (they can "
            "rewrite stored results), so it was left untouched: drop them or pass another "
            "--store",
        )
    if application_id == APPLICATION_ID and user_version not in _READABLE_VERSIONS:
        raise _refused(
            path,
            f"has schema version {user_version} (user_version); this fedtheory reads version "
            f"{SCHEMA_VERSION} (and upgrades version 1): use a matching fedtheory or pass "
            "another --store",
        )
    version = user_version if application_id == APPLICATION_ID else 1
    reference = _reference_schema(version)
    if objects != reference:
        parts = []
        if objects - reference:
            parts.append(f"unexpected {_describe(objects - reference)}")
        if reference - objects:
            parts.append(f"missing or different {_describe(reference - objects)}")
        if application_id == 0:
            raise _not_ours(path, f"application_id 0, {'; '.join(parts)}")
        raise _refused(
            path,
            f"does not have the result-store schema ({'; '.join(parts)}); it was left "
            "untouched: pass another --store",
        )
    row = db.execute("SELECT value FROM meta WHERE name = 'schema_version'").fetchone()
    meta_version = None if row is None else row[0]
    if meta_version != str(version):
        raise _refused(
            path,
            f"has schema version {meta_version} (meta table) but the file header says version "
            f"{version}; this fedtheory reads version {SCHEMA_VERSION} (and upgrades version 1): "
            "use a matching fedtheory or pass another --store",
        )
    if application_id != APPLICATION_ID:
        return "legacy"
    return "ours" if version == SCHEMA_VERSION else "v1"


def _inspect(path: Path) -> bool:
    """Look at ``path`` without writing anything; True when it is to become a new store.

    The header decides alone for a cleanly closed file (no ``-wal`` or ``-journal`` beside it)
    whose application_id is ours or foreign; otherwise the schema is read through a read-only
    connection that creates no sidecar file of its own where SQLite allows it.

    Raises
    ------
    ParameterError
        The file is not a fedtheory result store (see the module docstring).
    StoreError
        The file cannot be read.
    """
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return True  # (if its folder cannot be created either, opening it says so)
    except OSError as exc:
        raise StoreError(
            path, f"cannot read it ({exc.strerror or exc})", hint="pass another --store"
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise _refused(path, "is a folder, not a result store file: pass a file path")
    if info.st_size == 0:
        return True
    try:
        with path.open("rb") as handle:
            header = handle.read(_HEADER_BYTES)
    except OSError as exc:
        raise StoreError(
            path,
            f"cannot read it ({exc.strerror or exc})",
            hint="check its permissions or pass another --store",
        ) from None
    if len(header) < _HEADER_BYTES or not header.startswith(_SQLITE_MAGIC):
        raise _not_ours(path, "not an SQLite database file")
    offset = _APPLICATION_ID_OFFSET
    application_id = int.from_bytes(header[offset : offset + 4], "big")
    # with a -wal (or a hot -journal) beside it, the header on disk may be out of date
    sidecar = any(_sidecar(path, suffix).exists() for suffix in ("-wal", "-journal"))
    if not sidecar and application_id == APPLICATION_ID:
        return False  # ours: the full checks run on the connection that will be used
    if not sidecar and application_id != 0:
        raise _not_ours(path, f"application_id {application_id:#010x}")
    # A WAL file without a -wal beside it has no writer: its pages only change at a checkpoint,
    # so it is read as immutable (a ro connection would leave -wal/-shm files behind). A
    # rollback-journal file may be mid-write (e.g. a store being created): read it with locks,
    # which creates no file in that mode.
    wal_mode = header[18:20] == b"\x02\x02"
    query = {"mode": "ro", "immutable": "1"} if wal_mode and not sidecar else {"mode": "ro"}
    try:
        db = sqlite3.connect(_uri(path, **query), uri=True, timeout=_BUSY_TIMEOUT_MS / 1000)
        try:
            kind = _classify(db, path)
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        ours = application_id == APPLICATION_ID
        raise _store_error(path, "read it", exc, ours=ours) from exc
    return kind == "empty"


def _execute_script(db: sqlite3.Connection, script: str) -> None:
    """Run DDL statement by statement (``executescript`` would commit the open transaction)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _enter_wal(db: sqlite3.Connection) -> str:
    """Switch to WAL mode (a no-op when the file is in it already); returns the mode now.

    SQLite answers "database is locked" at once, without its busy handler, when another
    connection reads while the mode changes (two processes opening a new store together), so
    the switch is retried for up to the busy timeout.
    """
    deadline = time.monotonic() + _BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return str(db.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _load(path: Path, key: str, what: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StoreError(
            path, f"row {key[:16]} has malformed {what} ({exc})", hint=_DAMAGED
        ) from None


def _plain(value: Any) -> Any:
    """Strict-JSON data: non-finite floats → None, tuples → lists, paths and the rest → text."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def _json_text(value: Any) -> str:
    return json.dumps(_plain(value), sort_keys=True, allow_nan=False)


# ---------------------------------------------------------------------------- the store
class ResultStore:
    """A results database (see the module docstring for the schema and the refusal rules).

    Parameters
    ----------
    path
        SQLite file; when opened for writing, it and its folder are created if needed.
    readonly
        Open for reading only: the file must already be a result store (version-1 and legacy
        stores are read as they are, neither migrated nor adopted); nothing is created or
        modified; :meth:`put`, :meth:`clear`, :meth:`record_run` and :meth:`clear_runs` raise
        :class:`~fedtheory.errors.StoreError`.

    Attributes
    ----------
    schema_version
        The schema version of the file as opened: :data:`SCHEMA_VERSION`, or 1 for a version-1
        or legacy store opened read-only (which has no runs).

    Raises
    ------
    ParameterError
        The file is not a fedtheory result store, has another schema version, or has a trigger
        or a view; it is left untouched.
    StoreError
        The file cannot be created, read or written (damaged, read-only, locked, missing when
        ``readonly``), or the file system refuses WAL mode.
    """

    def __init__(self, path: str | Path = DEFAULT_STORE, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self.schema_version = SCHEMA_VERSION
        is_new = _inspect(self.path)
        if readonly:
            if is_new:
                raise StoreError(
                    self.path,
                    "no result store there (missing or empty file)",
                    hint="run fedtheory verify first or pass another --store",
                )
            self._db = self._connect_readonly()
        else:
            self._db = self._connect_readwrite()

    def _connect_readonly(self) -> sqlite3.Connection:
        """A connection that cannot write.

        ``mode=ro`` when a ``-wal`` or ``-journal`` file is already there. Otherwise a
        ``mode=rw`` connection (which never creates the file) with ``PRAGMA query_only``: on a
        WAL store, SQLite needs ``-wal``/``-shm`` files even to read; a ``mode=ro`` connection
        would leave them behind, this one removes them on close. If the read-write open is
        refused (read-only file or folder), ``mode=ro`` is used after all.
        """
        sidecar = any(_sidecar(self.path, s).exists() for s in ("-wal", "-journal"))
        modes = ["ro"] if sidecar else ["rw", "ro"]
        for mode in modes:
            db = sqlite3.connect(
                _uri(self.path, mode=mode),
                uri=True,
                timeout=_BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
            )
            try:
                db.execute("PRAGMA query_only = ON")
                db.execute("PRAGMA trusted_schema = OFF")
                db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
                kind = _classify(db, self.path)
            except sqlite3.OperationalError as exc:
                db.close()
                if mode != modes[-1]:
                    continue
                raise _store_error(self.path, "open it for reading", exc) from exc
            except sqlite3.DatabaseError as exc:
                db.close()
                raise _store_error(self.path, "read it", exc) from exc
            except BaseException:
                db.close()
                raise
            if kind == "empty":
                db.close()
                raise StoreError(
                    self.path,
                    "no result store there (an SQLite file without tables)",
                    hint="run fedtheory verify first or pass another --store",
                )
            self.schema_version = SCHEMA_VERSION if kind == "ours" else 1
            return db
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect_readwrite(self) -> sqlite3.Connection:
        """Open (creating, migrating or adopting the store if needed) in WAL mode after the checks.

        A new store gets its tables, application_id and user_version in one transaction while
        still in rollback-journal mode, and only then switches to WAL: another process never
        sees a WAL file of ours without its application_id. A version-1 or legacy store gets
        the tables of version 2, user_version and meta 2 (and the application_id) in one
        transaction: its rows are kept, and a failure leaves it as it was.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                self.path,
                f"cannot open a result store there ({exc.strerror or exc})",
                hint="pass another --store",
            ) from None
        try:
            db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except sqlite3.DatabaseError as exc:
            raise _store_error(self.path, "open a result store there", exc) from exc
        try:
            db.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA trusted_schema = OFF")
            db.execute("BEGIN IMMEDIATE")
            try:
                # checked again inside the write lock: another process may have created it
                kind = _classify(db, self.path)
                if kind == "empty":
                    _execute_script(db, _SCHEMAS[SCHEMA_VERSION])
                    db.execute(
                        "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?), ('created', ?)",
                        (str(SCHEMA_VERSION), _now()),
                    )
                elif kind in ("v1", "legacy"):  # migrated: the tables version 2 adds
                    _execute_script(db, _SCHEMA_RUNS)
                    db.execute(
                        "UPDATE meta SET value = ? WHERE name = 'schema_version'",
                        (str(SCHEMA_VERSION),),
                    )
                if kind != "ours":  # a new store, or a version-1 or legacy store migrated
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise
            mode = _enter_wal(db)
            if mode != "wal":
                raise StoreError(
                    self.path,
                    f"the file system refuses WAL mode ({mode})",
                    hint="put the store on a local disk or pass another --store",
                )
            db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.DatabaseError as exc:
            db.close()
            raise _store_error(self.path, "open it", exc) from exc
        except BaseException:
            db.close()
            raise
        return db

    # -- context manager ---------------------------------------------------------------------

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self._db.close()

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn SQLite failures into :class:`StoreError` (misuse of the API is left alone)."""
        try:
            yield
        except sqlite3.ProgrammingError:
            raise
        except sqlite3.DatabaseError as exc:
            raise _store_error(self.path, doing, exc) from exc

    # -- reading -----------------------------------------------------------------------------

    def existing(self, keys: Iterable[str]) -> dict[str, dict[str, float]]:
        """The stored outputs of those keys that are present."""
        keys = list(keys)
        found: dict[str, dict[str, float]] = {}
        with self._errors("read it"):
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, outputs in self._db.execute(
                    f"SELECT key, outputs FROM results WHERE key IN ({marks})", chunk
                ):
                    found[key] = _load(self.path, key, "outputs", outputs)
        return found

    def rows(self, claims: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored row (as a dict with parsed params/outputs), optionally by claim glob."""
        with self._errors("read it"):
            cursor = self._db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM results ORDER BY claim, params, replicate, key"
            )
            for values in cursor:
                row = dict(zip(_COLUMNS, values, strict=True))
                if claims is not None and not fnmatch.fnmatchcase(row["claim"], claims):
                    continue
                row["params"] = _load(self.path, row["key"], "params", row["params"])
                row["outputs"] = _load(self.path, row["key"], "outputs", row["outputs"])
                yield row

    def summary(self, claims: str | None = None) -> list[dict[str, Any]]:
        """Per claim: number of rows, distinct points, versions, fingerprints, last write."""
        out = []
        with self._errors("read it"):
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

    def mean_seconds(self) -> dict[str, float]:
        """Mean wall time of a replicate per claim (measurement), over every stored row — the
        cost estimates a run's progress and ETA are weighted by."""
        with self._errors("read it"):
            return {
                str(claim): float(mean)
                for claim, mean in self._db.execute(
                    "SELECT claim, AVG(seconds) FROM results GROUP BY claim"
                )
            }

    def count(self) -> int:
        """Number of stored rows."""
        with self._errors("read it"):
            return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` ("ok" for a sound file)."""
        with self._errors("check it"):
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    # -- writing -----------------------------------------------------------------------------

    def _writable(self) -> None:
        if self.readonly:
            raise StoreError(
                self.path,
                "opened read-only, so it cannot be written",
                hint="open it with ResultStore(path, readonly=False) to write",
            )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Callable[[], int]]:
        """One write transaction (rolled back on any exception); yields a row-change counter."""
        self._db.execute("BEGIN IMMEDIATE")
        before = self._db.total_changes
        try:
            yield lambda: self._db.total_changes - before
            self._db.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back (disk full, I/O error): never mask the cause
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    def put(self, records: Sequence[Mapping[str, Any]], *, replace: bool = False) -> int:
        """Store records (dicts with the columns above; params/outputs as objects).

        A record may also carry the text of its columns already written: ``params_json``
        (:func:`canonical_json` of ``params``) and ``outputs_json`` (``outputs`` as JSON with
        sorted keys); it is stored as given (the runner's workers write it, in parallel).

        One transaction per call. ``replace=True`` overwrites rows with the same key (used by
        ``--no-cache``); otherwise existing rows are kept. Returns the number of rows written.
        """
        self._writable()
        if not records:
            return 0
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        created = _now()
        values = [
            (
                r["key"],
                r["claim"],
                r.get("params_json") or canonical_json(r["params"]),
                int(r["replicate"]),
                int(r["seed"]),
                int(r["base_seed"]),
                r["fingerprint"],
                r["version"],
                r.get("outputs_json") or _outputs_json(r["outputs"]),
                float(r["seconds"]),
                created,
            )
            for r in records
        ]
        marks = ",".join("?" * len(_COLUMNS))
        with self._errors("write it"), self._transaction() as changes:
            self._db.executemany(f"{verb} INTO results VALUES ({marks})", values)
        return changes()

    def clear(self, claims: str | None = None) -> int:
        """Delete the rows of claims matching the glob (all rows without one); returns the count."""
        self._writable()
        ids = [row["claim"] for row in self.summary(claims)]
        with self._errors("write it"), self._transaction() as changes:
            for start in range(0, len(ids), _CHUNK):
                chunk = ids[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                self._db.execute(f"DELETE FROM results WHERE claim IN ({marks})", chunk)
        return changes()

    # -- runs --------------------------------------------------------------------------------

    def record_run(
        self,
        info: Mapping[str, Any],
        summary: Mapping[str, int],
        records: Sequence[Mapping[str, Any]],
    ) -> int:
        """Keep one ``fedtheory verify`` run: its description and one record per claim.

        Parameters
        ----------
        info
            What the run was (profile, seed, command, executor, ...; ``started`` and
            ``seconds`` also fill the columns of the same names). Stored as strict JSON:
            non-finite floats become ``null``, paths and other objects their text.
        summary
            Number of claims per status (``fedtheory.verify.report.summarize``).
        records
            One plain-data record per claim, each with at least ``claim`` and ``status``
            (:func:`fedtheory.verify.runs.run_record`); claim ids must be distinct.

        Returns
        -------
        int
            The new run's id: 1 for the first run of a store, then 2, 3, ...

        Raises
        ------
        ParameterError
            A record without ``claim`` or ``status``, or two records of one claim.
        StoreError
            Opened read-only, or the file cannot be written.
        """
        self._writable()
        rows = []
        seen: set[str] = set()
        for index, record in enumerate(records):
            claim, status = record.get("claim"), record.get("status")
            if not isinstance(claim, str) or not isinstance(status, str):
                raise ParameterError(
                    parameter=f"records[{index}]",
                    value={"claim": claim, "status": status},
                    rule="needs a 'claim' and a 'status' (strings)",
                )
            if claim in seen:
                raise ParameterError(
                    parameter=f"records[{index}].claim", value=claim, rule="appears twice"
                )
            seen.add(claim)
            rows.append((claim, status, _json_text(record)))
        started = info.get("started")
        seconds = _plain(info.get("seconds"))
        with self._errors("write it"), self._transaction():
            cursor = self._db.execute(
                "INSERT INTO runs (started, seconds, info, summary) VALUES (?, ?, ?, ?)",
                (
                    str(started) if started else _now(),
                    seconds if isinstance(seconds, (int, float)) else None,
                    _json_text(info),
                    _json_text(summary),
                ),
            )
            run_id = cursor.lastrowid
            assert run_id is not None
            self._db.executemany(
                "INSERT INTO verdicts (run, claim, status, record) VALUES (?, ?, ?, ?)",
                [(run_id, *row) for row in rows],
            )
        return int(run_id)

    def runs(self) -> list[dict[str, Any]]:
        """Every recorded run, oldest first: ``{id, started, seconds, info, summary}``.

        Empty for a store without runs, and for a version-1 store opened read-only.
        """
        if self.schema_version < 2:
            return []
        out = []
        with self._errors("read it"):
            for run_id, started, seconds, info, summary in self._db.execute(
                "SELECT id, started, seconds, info, summary FROM runs ORDER BY id"
            ):
                key = f"run {run_id}"
                out.append(
                    {
                        "id": int(run_id),
                        "started": started,
                        "seconds": seconds,
                        "info": _load(self.path, key, "info", info),
                        "summary": _load(self.path, key, "summary", summary),
                    }
                )
        return out

    def run_verdicts(self, run_id: int) -> dict[str, dict[str, Any]]:
        """The records of one run: claim id → record (as given to :meth:`record_run`).

        Raises
        ------
        ParameterError
            No run has that id (the message lists the ids there are).
        """
        with self._errors("read it"):
            known = (
                self._db.execute("SELECT 1 FROM runs WHERE id = ?", (int(run_id),)).fetchone()
                if self.schema_version >= 2
                else None
            )
            if known is None:
                raise ParameterError(parameter="run", value=run_id, rule=self._known_runs())
            return {
                claim: _load(self.path, f"run {run_id} claim {claim}", "record", record)
                for claim, record in self._db.execute(
                    "SELECT claim, record FROM verdicts WHERE run = ? ORDER BY claim",
                    (int(run_id),),
                )
            }

    def _known_runs(self) -> str:
        """A rule text naming the run ids there are (for an unknown id)."""
        ids = [r["id"] for r in self.runs()]
        if not ids:
            return f"no runs recorded in {self.path}: run fedtheory verify first"
        first, last = ids[0], ids[-1]
        if ids == list(range(first, last + 1)):
            return f"is not a run in {self.path} (runs {first} to {last})"
        return f"is not a run in {self.path} (runs {', '.join(map(str, ids))})"

    def clear_runs(self) -> int:
        """Delete every recorded run and its verdicts (replicates are kept); returns the count."""
        self._writable()
        with self._errors("write it"), self._transaction():
            n = int(self._db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
            self._db.execute("DELETE FROM verdicts")
            self._db.execute("DELETE FROM runs")
        return n
