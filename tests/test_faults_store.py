"""Fault injection on the result store and ``fedtheory results`` (issue 11, item 7).

Each test reproduces a fault a hostile tester found: a foreign SQLite file taken over by
``results list``, a planted trigger that flips a verdict, read-only commands that write,
raw ``sqlite3.DatabaseError`` tracebacks on a damaged store, ``results export`` overwriting the
store or any file, and spreadsheet formulas injected through CSV cells.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from fedtheory.cli import cli
from fedtheory.errors import FedTheoryError, ParameterError, StoreError
from fedtheory.verify import verify
from fedtheory.verify.store import APPLICATION_ID, SCHEMA_VERSION, ResultStore

pytestmark = pytest.mark.faults

#: The schema exactly as fedtheory wrote it before stores had an application_id.
LEGACY_SCHEMA = """
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


# --------------------------------------------------------------------------- helpers
def record(key: str, claim: str = "classic/a/b", **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "key": key,
        "claim": claim,
        "params": {"T": 10, "mu": 0.5},
        "replicate": 0,
        "seed": 12345,
        "base_seed": 0,
        "fingerprint": "f" * 16,
        "version": "0.1.0",
        "outputs": {"gap": 0.25},
        "seconds": 0.01,
    }
    return {**base, **changes}


def run(*args: str, input: str | None = None) -> Result:
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    return runner.invoke(cli, list(args), input=input)


def one_line_error(result: Result) -> str:
    """Exit code 2, exactly one line ``error: ...`` on stderr, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    return lines[0]


def snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    """The file's bytes, its mtime and the names in its folder (sidecar files show up)."""
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(os.listdir(path.parent))


def make_store(path: Path, n: int = 3) -> Path:
    with ResultStore(path) as store:
        store.put([record(f"k{i:05d}", f"classic/a/{i % 3}", replicate=i) for i in range(n)])
    return path


def make_legacy_store(path: Path, extra: str = "") -> Path:
    """A store as the previous fedtheory wrote it: WAL, our tables, no application_id."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript("BEGIN IMMEDIATE;" + LEGACY_SCHEMA + extra + "COMMIT;")
    db.execute(
        "INSERT INTO meta VALUES ('schema_version', '1'), ('created', '2024-01-01T00:00:00+00:00')"
    )
    db.execute(
        "INSERT INTO results VALUES ('k1', 'classic/a/b', '{\"T\":10}', 0, 7, 0, ?, '0.1.0', "
        "'{\"gap\": 0.5}', 0.01, '2024-01-01T00:00:00+00:00')",
        ("f" * 16,),
    )
    db.close()
    return path


def header_ids(path: Path) -> tuple[int, int]:
    """(application_id, user_version) read from the database header."""
    header = path.read_bytes()[:100]
    return int.from_bytes(header[68:72], "big"), int.from_bytes(header[60:64], "big")


def every_store_command(path: Path) -> list[Result]:
    store = str(path)
    return [
        run("results", "list", "--store", store),
        run("results", "export", "--store", store),
        run("results", "export", "--store", store, "--format", "json"),
        run("results", "clear", "--store", store, "--yes"),
    ]


# --------------------------------------------------------------------------- 1. not ours
def foreign_database(path: Path, journal: str, application_id: int = 0) -> Path:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA journal_mode = {journal}")
    db.execute(f"PRAGMA application_id = {application_id}")
    db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    db.execute("INSERT INTO contacts VALUES ('ada', '555')")
    db.close()
    return path


@pytest.mark.parametrize("journal", ["delete", "wal"])
@pytest.mark.parametrize("application_id", [0, 0x12345678])
def test_another_applications_database_is_refused_and_left_untouched(
    tmp_path: Path, journal: str, application_id: int
) -> None:
    other = foreign_database(tmp_path / "other.db", journal, application_id)
    before = snapshot(other)
    for result in every_store_command(other):
        line = one_line_error(result)
        assert "is not a fedtheory result store" in line and str(other) in line
        assert "store=" in line
    for readonly in (False, True):
        with pytest.raises(ParameterError, match="is not a fedtheory result store") as info:
            ResultStore(other, readonly=readonly)
        assert info.value.parameter == "store" and info.value.value == str(other)
    assert snapshot(other) == before  # same bytes, same mtime, no -wal/-shm/-journal left
    with sqlite3.connect(other) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("contacts",)]


def test_a_csv_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    table = tmp_path / "data.csv"
    table.write_text("claim,value\n" + "a,1\n" * 500)
    before = snapshot(table)
    for result in every_store_command(table):
        assert "is not a fedtheory result store (not an SQLite" in one_line_error(result)
    with pytest.raises(ParameterError, match="not an SQLite database file"):
        ResultStore(table)
    assert snapshot(table) == before


def test_our_tables_plus_another_table_is_refused_and_left_untouched(tmp_path: Path) -> None:
    mixed = make_legacy_store(
        tmp_path / "mixed.sqlite", extra="CREATE TABLE accounts (id INTEGER, owner TEXT);"
    )
    before = snapshot(mixed)
    for result in every_store_command(mixed):
        line = one_line_error(result)
        assert "is not a fedtheory result store" in line and "accounts" in line
    assert snapshot(mixed) == before


def test_our_schema_under_another_application_id_is_refused(tmp_path: Path) -> None:
    path = make_legacy_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA application_id = 1234")
    before = snapshot(path)
    with pytest.raises(ParameterError, match="application_id 0x000004d2"):
        ResultStore(path)
    assert snapshot(path) == before


CLAIM = """
from __future__ import annotations

from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Sweep, UpperBoundHolds


def constant(params, seed):
    return {"y": 1.0, "bound": 2.0}


SWEEP = Sweep(grid={"n": [1, 2]}, replicates=4)
planted = Claim(
    id="classic/store/planted",
    source=Citation("classic", "store test"),
    statement="1 <= 2.",
    experiment=constant,
    sweeps={"smoke": SWEEP, "quick": SWEEP},
    criterion=UpperBoundHolds("y", "bound", over="mean"),
)
"""


def test_a_planted_trigger_cannot_flip_a_verdict_under_no_cache(tmp_path: Path) -> None:
    folder = tmp_path / "claims"
    folder.mkdir()
    (folder / "planted_claims.py").write_text(textwrap.dedent(CLAIM))
    store = tmp_path / "s.sqlite"
    first = verify([folder], profile="smoke", store=store, workers=1)
    assert [r.verdict.outcome for r in first.results] == ["holds"]
    with sqlite3.connect(store) as db:
        db.execute(
            "CREATE TRIGGER flip AFTER INSERT ON results BEGIN UPDATE results "
            'SET outputs = \'{"bound": 2.0, "y": 9.0}\' WHERE key = NEW.key; END'
        )
    with pytest.raises(ParameterError, match="trigger 'flip'") as info:
        verify([folder], profile="smoke", store=store, workers=1, no_cache=True)
    assert info.value.parameter == "store"
    report = str(tmp_path / "report")
    args = ["verify", str(folder), "--profile", "smoke", "--store", str(store), "--no-cache"]
    line = one_line_error(run(*args, "--report", report, "--workers", "1"))
    assert "trigger 'flip'" in line
    with sqlite3.connect(store) as db:  # nothing was written through the trigger
        outputs = {json.loads(o)["y"] for (o,) in db.execute("SELECT outputs FROM results")}
    assert outputs == {1.0}


@pytest.mark.parametrize("legacy", [False, True], ids=["ours", "legacy"])
@pytest.mark.parametrize(
    ("plant", "name"),
    [
        ("CREATE TRIGGER t1 BEFORE DELETE ON results BEGIN SELECT 1; END", "trigger 't1'"),
        ("CREATE VIEW v1 AS SELECT key FROM results", "view 'v1'"),
    ],
)
def test_any_trigger_or_view_is_refused_by_name(
    tmp_path: Path, legacy: bool, plant: str, name: str
) -> None:
    path = tmp_path / "s.sqlite"
    make_legacy_store(path) if legacy else make_store(path)
    with sqlite3.connect(path) as db:
        db.execute(plant)
    before = snapshot(path)
    for readonly in (False, True):
        with pytest.raises(ParameterError, match=name):
            ResultStore(path, readonly=readonly)
    for result in every_store_command(path):
        assert name in one_line_error(result)
    assert snapshot(path) == before


def test_a_new_store_carries_application_id_and_user_version(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.sqlite")
    assert header_ids(path) == (APPLICATION_ID, SCHEMA_VERSION)
    assert int.from_bytes(b"FTRS", "big") == APPLICATION_ID
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone() == (
            str(SCHEMA_VERSION),
        )
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_a_legacy_store_is_read_as_is_and_adopted_when_written(tmp_path: Path) -> None:
    path = make_legacy_store(tmp_path / "old.sqlite")
    before = snapshot(path)
    with ResultStore(path, readonly=True) as store:
        assert [r["key"] for r in store.rows()] == ["k1"]
    listed = run("results", "list", "--store", str(path))
    assert listed.exit_code == 0 and "classic/a/b" in listed.stdout
    with ResultStore(path, readonly=True) as store:
        assert store.schema_version == 1 and store.runs() == []
    assert snapshot(path) == before  # reading does not adopt (nor migrate)
    with ResultStore(path) as store:
        assert store.put([record("k2")]) == 1
        assert store.count() == 2
    assert header_ids(path) == (APPLICATION_ID, SCHEMA_VERSION)  # adopted and migrated
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone() == (
            str(SCHEMA_VERSION),
        )
    with ResultStore(path, readonly=True) as store:
        assert store.count() == 2
        assert store.schema_version == SCHEMA_VERSION and store.runs() == []


@pytest.mark.parametrize("version", [0, 3, 7, 99])
def test_another_user_version_is_refused_naming_both_versions(tmp_path: Path, version: int) -> None:
    path = make_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {version}")
    before = snapshot(path)
    for readonly in (False, True):
        with pytest.raises(
            ParameterError, match=rf"schema version {version} .*reads version {SCHEMA_VERSION}"
        ):
            ResultStore(path, readonly=readonly)
    assert snapshot(path) == before


def make_v1_store(path: Path) -> Path:
    """A store as fedtheory wrote it with schema version 1: a legacy store, stamped."""
    make_legacy_store(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.close()  # the last connection: checkpointed into the file, no -wal left
    return path


@pytest.mark.parametrize(
    ("change", "match"),
    [
        # the header says 1, the meta table says 2
        ("UPDATE meta SET value = '2' WHERE name = 'schema_version'", "schema version 2 .*meta"),
        # version-2 tables under the number 1
        (
            "CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL, seconds REAL, "
            "info TEXT NOT NULL, summary TEXT NOT NULL)",
            "unexpected table 'runs'",
        ),
        ("CREATE TABLE notes (text TEXT)", "unexpected table 'notes'"),
        ("CREATE VIEW v1 AS SELECT key FROM results", "view 'v1'"),
    ],
    ids=["meta-disagrees", "v2-table-under-v1", "extra-table", "view"],
)
def test_a_version_1_store_that_is_not_exactly_version_1_is_refused_untouched(
    tmp_path: Path, change: str, match: str
) -> None:
    path = make_v1_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute(change)
    before = snapshot(path)
    for readonly in (False, True):
        with pytest.raises(ParameterError, match=match):
            ResultStore(path, readonly=readonly)
    for result in every_store_command(path):
        assert "store=" in one_line_error(result)
    assert snapshot(path) == before


def test_a_version_2_header_on_version_1_tables_is_refused_untouched(tmp_path: Path) -> None:
    path = make_v1_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 2")
        db.execute("UPDATE meta SET value = '2' WHERE name = 'schema_version'")
    before = snapshot(path)
    for readonly in (False, True):
        with pytest.raises(ParameterError, match=r"missing or different .*table 'runs'"):
            ResultStore(path, readonly=readonly)
    assert snapshot(path) == before


def test_a_version_1_store_is_read_as_is_and_migrated_when_written(tmp_path: Path) -> None:
    path = make_v1_store(tmp_path / "v1.sqlite")
    assert header_ids(path) == (APPLICATION_ID, 1)
    before = snapshot(path)
    with ResultStore(path, readonly=True) as store:
        assert store.schema_version == 1
        assert [r["key"] for r in store.rows()] == ["k1"]
        assert store.runs() == []
        with pytest.raises(StoreError, match="read-only"):
            store.record_run({}, {}, [])
    listed = run("results", "list", "--store", str(path))
    assert listed.exit_code == 0 and "classic/a/b" in listed.stdout
    runs_listed = run("runs", "list", "--store", str(path))
    assert runs_listed.exit_code == 0 and "no runs recorded" in runs_listed.stdout
    assert snapshot(path) == before  # reading does not migrate
    with ResultStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert [r["key"] for r in store.rows()] == ["k1"]
        assert store.record_run({"profile": "smoke"}, {"total": 0}, []) == 1
    assert header_ids(path) == (APPLICATION_ID, SCHEMA_VERSION)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone() == (
            str(SCHEMA_VERSION),
        )
    with ResultStore(path, readonly=True) as store:
        assert store.count() == 1 and [r["id"] for r in store.runs()] == [1]


# --------------------------------------------------------------------------- 2. read-only
def test_read_only_commands_do_not_switch_the_journal_mode_or_write(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = DELETE")
    before = snapshot(path)
    assert run("results", "list", "--store", str(path)).exit_code == 0
    assert run("results", "export", "--store", str(path)).exit_code == 0
    with ResultStore(path, readonly=True) as store:
        assert store.count() == 3 and store.integrity_check() == "ok"
    assert snapshot(path) == before
    assert path.read_bytes()[18:20] == b"\x01\x01"  # still a rollback-journal file, not WAL


def test_read_only_commands_leave_an_empty_file_alone(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    before = snapshot(empty)
    for args in (["list"], ["export"], ["export", "--format", "json"]):
        line = one_line_error(run("results", *args, "--store", str(empty)))
        assert str(empty) in line and "no result store there" in line
    assert snapshot(empty) == before
    assert empty.stat().st_size == 0


def test_a_read_only_store_creates_nothing_and_refuses_writes(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "store.sqlite"
    with pytest.raises(StoreError, match="no result store there"):
        ResultStore(missing, readonly=True)
    assert not (tmp_path / "no").exists()
    # a WAL store closed cleanly: reading it leaves no -wal/-shm behind
    path = make_store(tmp_path / "we?ird #dir %41" / "s.sqlite")
    before = snapshot(path)
    with ResultStore(path, readonly=True) as store:
        assert store.count() == 3
        assert len(list(store.rows("classic/a/1"))) == 1
        with pytest.raises(StoreError, match="read-only"):
            store.put([record("new")])
        with pytest.raises(StoreError, match="read-only"):
            store.clear()
        assert store.count() == 3
    assert snapshot(path) == before
    assert run("results", "list", "--store", str(path)).exit_code == 0
    assert snapshot(path) == before


def test_writing_commands_still_work_on_a_store_being_read(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.sqlite")
    with ResultStore(path, readonly=True) as reader, ResultStore(path) as writer:
        assert writer.put([record("later")]) == 1
        assert reader.count() == 4
    cleared = run(
        "results", "clear", "--store", str(path), "--measurements", "classic/a/b", "--yes"
    )
    assert cleared.exit_code == 0 and "deleted 1" in cleared.stdout


# --------------------------------------------------------------------------- 3. damaged files
def corrupt(path: Path, start: int, length: int, seed: int = 0) -> None:
    data = bytearray(path.read_bytes())
    rng = random.Random(seed)
    for offset in range(start, min(start + length, len(data))):
        data[offset] = rng.randrange(256)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("start", "length"),
    [(4 * 4096, 3 * 4096), (100, 4096 - 100)],
    ids=["pages-5-to-7", "page-1-after-header"],
)
def test_a_damaged_store_is_one_line_exit_2_not_a_traceback(
    tmp_path: Path, start: int, length: int
) -> None:
    path = make_store(tmp_path / "s.sqlite", n=2000)
    assert path.stat().st_size > 20 * 4096
    corrupt(path, start, length)
    for result in every_store_command(path):
        line = one_line_error(result)
        assert str(path) in line and "pass another --store" in line
    with (
        pytest.raises(StoreError, match="delete it") as info,
        ResultStore(path, readonly=True) as store,
    ):
        store.summary()
        list(store.rows())
    assert isinstance(info.value, FedTheoryError) and info.value.path == str(path)
    assert not isinstance(info.value, sqlite3.Error)


def test_damaged_rows_and_failed_writes_are_store_errors(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET outputs = '{not json' WHERE key = 'k00001'")
    with ResultStore(path) as store:
        with pytest.raises(StoreError, match="malformed outputs"):
            list(store.rows())
        with pytest.raises(StoreError, match="malformed outputs"):
            store.existing(["k00001"])
        export = run("results", "export", "--store", str(path))
        assert "malformed outputs" in one_line_error(export)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
        try:
            store._db.execute("PRAGMA busy_timeout = 50")
            with pytest.raises(StoreError, match="another process holds it"):
                store.put([record("blocked")])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.put([record("blocked")]) == 1


# --------------------------------------------------------------------------- 4. export target
@pytest.mark.parametrize(
    "target",
    ["same", "other-spelling", "symlink", "wal", "shm"],
)
def test_export_refuses_to_overwrite_the_store(tmp_path: Path, target: str) -> None:
    path = make_store(tmp_path / "s.sqlite")
    output = {
        "same": str(path),
        "other-spelling": str(tmp_path / "." / "sub" / ".." / "s.sqlite"),
        "symlink": str(tmp_path / "link.csv"),
        "wal": f"{path}-wal",
        "shm": f"{path}-shm",
    }[target]
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.csv").symlink_to(path)
    before = snapshot(path)
    for extra in ([], ["--force"]):
        result = run("results", "export", "--store", str(path), "-o", output, *extra)
        assert "is the result store" in one_line_error(result)
    assert snapshot(path) == before
    with ResultStore(path, readonly=True) as store:
        assert store.count() == 3


def test_export_over_an_existing_file_needs_force_off_a_terminal(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.sqlite")
    target = tmp_path / "notes.txt"
    target.write_text("precious\n")
    refused = run("results", "export", "--store", str(path), "-o", str(target))
    assert "exists; pass --force to overwrite" in one_line_error(refused)
    assert target.read_text() == "precious\n"
    forced = run("results", "export", "--store", str(path), "-o", str(target), "--force")
    assert forced.exit_code == 0, forced.output
    assert target.read_text().startswith("claim,replicate,seed")
    real, link = tmp_path / "real.csv", tmp_path / "link.csv"
    real.write_text("old\n")
    link.symlink_to(real)
    through = run("results", "export", "--store", str(path), "-o", str(link), "--force")
    assert through.exit_code == 0 and link.is_symlink()  # written through the link
    assert real.read_text().startswith("claim,replicate,seed")
    fresh = tmp_path / "fresh.json"
    written = run("results", "export", "--store", str(path), "-o", str(fresh), "--format", "json")
    assert written.exit_code == 0 and len(json.loads(fresh.read_text())) == 3


def test_export_asks_before_overwriting_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fedtheory.cli

    monkeypatch.setattr(fedtheory.cli, "_stdin_is_terminal", lambda: True)
    path = make_store(tmp_path / "s.sqlite")
    target = tmp_path / "out.csv"
    target.write_text("old\n")
    declined = run("results", "export", "--store", str(path), "-o", str(target), input="\n")
    assert declined.exit_code == 1 and "overwrite" in declined.stderr
    assert target.read_text() == "old\n"
    accepted = run("results", "export", "--store", str(path), "-o", str(target), input="y\n")
    assert accepted.exit_code == 0
    assert target.read_text().startswith("claim,")


@pytest.mark.parametrize("where", ["missing-folder", "a-folder", "no-permission"])
def test_export_to_an_unwritable_place_is_one_line_exit_2(tmp_path: Path, where: str) -> None:
    path = make_store(tmp_path / "s.sqlite")
    if where == "missing-folder":
        output = tmp_path / "nope" / "out.csv"
    elif where == "a-folder":
        output = tmp_path / "folder"
        output.mkdir()
    else:
        if os.geteuid() == 0:
            pytest.skip("root ignores file permissions")
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        output = locked / "out.csv"
    line = one_line_error(run("results", "export", "--store", str(path), "-o", str(output)))
    assert str(output) in line
    assert not (output.is_file())


def test_a_failed_export_leaves_no_half_written_or_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_store(tmp_path / "s.sqlite")
    folder = tmp_path / "out"
    folder.mkdir()

    def disk_full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    fresh = folder / "fresh.csv"
    line = one_line_error(run("results", "export", "--store", str(path), "-o", str(fresh)))
    assert "cannot write there (No space left on device)" in line
    assert os.listdir(folder) == []
    kept = folder / "kept.csv"
    kept.write_text("previous export\n")
    result = run("results", "export", "--store", str(path), "-o", str(kept), "--force")
    assert "No space left" in one_line_error(result)
    assert os.listdir(folder) == ["kept.csv"]
    assert kept.read_text() == "previous export\n"


# --------------------------------------------------------------------------- 5. CSV formulas
def test_csv_export_neutralises_formulas_but_not_numbers(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    hostile = {
        "link": '=HYPERLINK("http://evil.example","click")',
        "plus": "+1+1",
        "minus": "-2+3",
        "at": "@SUM(A1)",
        "tab": "\t=1",
        "cr": "\r=1",
        "plain": "fine",
        "negative": -3,
        "small": -0.5,
    }
    with ResultStore(path) as store:
        store.put([record("k", claim="=cmd|'/c calc'!A1", params=hostile, outputs={"gap": -0.25})])
    csv_text = run("results", "export", "--store", str(path)).stdout
    row = next(csv.DictReader(io.StringIO(csv_text, newline="")))
    assert row["claim"] == "'=cmd|'/c calc'!A1"
    assert row["param.link"] == "'" + hostile["link"]
    assert row["param.plus"] == "'+1+1"
    assert row["param.minus"] == "'-2+3"
    assert row["param.at"] == "'@SUM(A1)"
    assert row["param.tab"] == "'\t=1"
    assert row["param.cr"] == "'\r=1"
    assert row["param.plain"] == "fine"
    assert row["param.negative"] == "-3"
    assert row["param.small"] == "-0.5"
    assert row["out.gap"] == "-0.25"
    assert row["seed"] == "12345" and row["seconds"] == "0.01"
    as_json = json.loads(run("results", "export", "--store", str(path), "--format", "json").stdout)
    assert as_json[0]["params"] == hostile and as_json[0]["claim"] == "=cmd|'/c calc'!A1"


# --------------------------------------------------------------------------- concurrency
OPEN_AND_PUT = """
import sys, time
from pathlib import Path
from fedtheory.verify.store import ResultStore
folder, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
(folder / f"ready-{name}").touch()
while not (folder / "go").exists():  # start together: the race is at creation
    time.sleep(0.001)
for i in range(count):
    with ResultStore(folder / f"s{i}" / "s.sqlite") as store:
        store.put([{"key": name, "claim": "c", "params": {}, "replicate": 0, "seed": 1,
                    "base_seed": 0, "fingerprint": "f", "version": "v", "outputs": {"y": 1.0},
                    "seconds": 0.0}])
"""


@pytest.mark.slow
def test_processes_creating_new_stores_at_once_all_succeed(tmp_path: Path) -> None:
    stores, workers = 15, 4
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", OPEN_AND_PUT, str(tmp_path), f"k{i}", str(stores)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(workers)
    ]
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("ready-*"))) < workers and time.monotonic() < deadline:
            time.sleep(0.01)
        (tmp_path / "go").touch()
        for proc in procs:
            _out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    for i in range(stores):
        path = tmp_path / f"s{i}" / "s.sqlite"
        assert header_ids(path) == (APPLICATION_ID, SCHEMA_VERSION)
        with ResultStore(path, readonly=True) as store:
            assert store.count() == workers and store.integrity_check() == "ok"
