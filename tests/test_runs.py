"""Runs are kept: the store's runs and verdicts tables, the v1 → v2 migration, run records,
``diff_runs``, ``resolve_run``, ``last_failed`` and ``fedtheory runs list|diff``."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from fedtheory.bounds import Citation
from fedtheory.cli import cli
from fedtheory.errors import ParameterError, StoreError
from fedtheory.verify import Claim, ClaimResult, Sweep, UpperBoundHolds, Verdict
from fedtheory.verify.runs import (
    Flip,
    Move,
    diff_runs,
    headlines,
    last_failed,
    resolve_run,
    run_record,
)
from fedtheory.verify.store import APPLICATION_ID, SCHEMA_VERSION, ResultStore

#: The schema exactly as fedtheory wrote it with schema version 1.
V1_SCHEMA = """
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
def rec(claim: str, status: str = "holds", **changes: Any) -> dict[str, Any]:
    """A run record as run_record writes it (only the fields the tests look at)."""
    outcome = {"violated-as-expected": "violated", "failed": "violated"}.get(status, status)
    base: dict[str, Any] = {
        "claim": claim,
        "paper": claim.split("/")[0],
        "status": status,
        "outcome": outcome,
        "acceptable": status not in ("failed", "error"),
        "ci": None,
        "numbers": {},
    }
    return {**base, **changes}


def rate(claim: str, slope: float, low: float, high: float, **changes: Any) -> dict[str, Any]:
    """The record of a RateExponent claim: the slope in numbers['exponent'], its CI in ci."""
    numbers = {"expected": -1.0, "exponent": slope, "ci_low": low, "ci_high": high}
    return rec(claim, **{"ci": [low, high], "numbers": numbers, **changes})


def info(n: int, **changes: Any) -> dict[str, Any]:
    return {
        "profile": "smoke",
        "seed": n,
        "started": f"2024-05-0{n}T12:00:00+00:00",
        "seconds": 1.5 * n,
        "command": "/home/me/.venv/bin/fedtheory verify --profile smoke " + "--workers 2 " * 10,
        "claims": None,
        **changes,
    }


def summary(records: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {"total": len(records)}
    for r in records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return counts


RUN_1 = [
    rec("classic/a/flip"),
    rate("classic/a/rate", -1.0, -1.1, -0.9),
    rate("classic/a/noise", -1.0, -1.1, -0.9),
    rec("classic/a/gone"),
    rec("classic/a/steady", "violated-as-expected"),
]
RUN_2 = [
    rec("classic/a/flip", "failed"),
    rate("classic/a/rate", -1.5, -1.6, -1.4),
    rate("classic/a/noise", -1.05, -1.15, -0.95),
    rec("classic/a/new", "error"),
    rec("classic/a/steady", "violated-as-expected"),
]


def filled_store(path: Path, runs: int = 2) -> Path:
    with ResultStore(path) as store:
        for n, records in enumerate([RUN_1, RUN_2, RUN_2][:runs], start=1):
            assert store.record_run(info(n), summary(records), records) == n
    return path


def cli_run(*args: str) -> Result:
    return CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None}).invoke(cli, list(args))


def one_line_error(result: Result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def make_v1_store(path: Path) -> Path:
    """A version-1 store built by hand, with two replicates in it."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.executescript("BEGIN IMMEDIATE;" + V1_SCHEMA + "COMMIT;")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO meta VALUES ('schema_version', '1'), ('created', '2024-01-01T00:00:00+00:00')"
    )
    for key, gap in (("k1", "0.5"), ("k2", "0.25")):
        db.execute(
            "INSERT INTO results VALUES (?, 'classic/a/b', '{\"T\":10}', 0, 7, 0, ?, '0.1.0', "
            "?, 0.01, '2024-01-01T00:00:00+00:00')",
            (key, "f" * 16, f'{{"gap": {gap}}}'),
        )
    db.close()
    return path


# --------------------------------------------------------------------------- the store
def test_runs_round_trip_with_ids_in_order(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite", runs=3)
    with ResultStore(path, readonly=True) as store:  # a read-only store lists runs
        runs = store.runs()
        assert [r["id"] for r in runs] == [1, 2, 3]
        first = runs[0]
        assert first["started"] == "2024-05-01T12:00:00+00:00" and first["seconds"] == 1.5
        assert first["info"]["profile"] == "smoke" and first["info"]["seed"] == 1
        assert first["summary"] == {"total": 5, "holds": 4, "violated-as-expected": 1}
        verdicts = store.run_verdicts(2)
        assert sorted(verdicts) == sorted(r["claim"] for r in RUN_2)
        assert verdicts["classic/a/rate"] == RUN_2[1]
        with pytest.raises(ParameterError, match=r"run=7: is not a run in .*\(runs 1 to 3\)"):
            store.run_verdicts(7)
        with pytest.raises(StoreError, match="read-only"):
            store.record_run(info(4), {}, [])
        with pytest.raises(StoreError, match="read-only"):
            store.clear_runs()


def test_record_run_keeps_strict_json_and_checks_its_records(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "s.sqlite") as store:
        odd = {"seconds": math.nan, "paths": (tmp_path,), "ratio": math.inf, "started": None}
        run_id = store.record_run(odd, {"total": 0}, [rec("classic/a/x", numbers={"r": math.inf})])
        run = store.runs()[0]
        assert run_id == 1 and run["seconds"] is None and run["started"]  # now, when not given
        assert run["info"]["paths"] == [str(tmp_path)] and run["info"]["ratio"] is None
        assert store.run_verdicts(1)["classic/a/x"]["numbers"] == {"r": None}
        with pytest.raises(
            ParameterError, match=r"records\[1\]=.*: needs a 'claim' and a 'status'"
        ):
            store.record_run({}, {}, [rec("classic/a/x"), {"claim": "classic/a/y"}])
        with pytest.raises(ParameterError, match=r"records\[1\]\.claim='classic/a/x': appears"):
            store.record_run({}, {}, [rec("classic/a/x"), rec("classic/a/x")])
        assert [r["id"] for r in store.runs()] == [1]  # nothing of the refused runs was written


def test_clearing_results_keeps_runs_and_clear_runs_keeps_results(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite")
    with ResultStore(path) as store:
        store.put([store_row()])
        assert store.clear() == 1
        assert [r["id"] for r in store.runs()] == [1, 2]
        store.put([{**store_row(), "key": "k2"}])
        assert store.clear_runs() == 2
        assert store.runs() == [] and store.count() == 1
        assert store.record_run(info(1), {}, []) >= 1


def store_row() -> dict[str, Any]:
    return {
        "key": "k",
        "claim": "classic/a/flip",
        "params": {},
        "replicate": 0,
        "seed": 1,
        "base_seed": 0,
        "fingerprint": "f" * 16,
        "version": "0.1.0",
        "outputs": {"y": 1.0},
        "seconds": 0.0,
    }


def test_a_version_1_store_with_rows_is_migrated_and_keeps_them(tmp_path: Path) -> None:
    path = make_v1_store(tmp_path / "v1.sqlite")
    before = path.read_bytes()
    with ResultStore(path, readonly=True) as store:  # read as it is
        assert store.schema_version == 1 and store.runs() == [] and store.count() == 2
        with pytest.raises(ParameterError, match="no runs recorded"):
            store.run_verdicts(1)
    assert path.read_bytes() == before
    with ResultStore(path) as store:  # migrated
        assert store.schema_version == SCHEMA_VERSION == 2
        assert store.existing(["k1", "k2"]) == {"k1": {"gap": 0.5}, "k2": {"gap": 0.25}}
        assert store.record_run(info(1), summary(RUN_1), RUN_1) == 1
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone() == (2,)
        assert db.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone() == ("2",)
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert tables == {"meta", "results", "runs", "verdicts"}
        assert db.execute("SELECT COUNT(*) FROM verdicts").fetchone() == (len(RUN_1),)
    finally:
        db.close()
    with ResultStore(path) as store:  # opened again: now a version-2 store, nothing re-done
        assert store.count() == 2 and [r["id"] for r in store.runs()] == [1]


# --------------------------------------------------------------------------- run records
def constant(params: dict[str, Any], seed: int) -> dict[str, float]:
    return {"y": 1.0, "bound": 2.0}


def test_run_record_is_plain_strict_json() -> None:
    sweep = Sweep(grid={"n": [1, 2]}, replicates=2)
    claim = Claim(
        id="classic/runs/record",
        source=Citation("classic", "runs test"),
        statement="1 <= 2.",
        experiment=constant,
        sweeps={"smoke": sweep, "quick": sweep},
        criterion=UpperBoundHolds("y", "bound", over="mean"),
        gating=False,
    )
    verdict = Verdict(
        "violated",
        "why",
        predicted="y <= bound",
        measured="y > bound",
        ci=(-math.inf, 1.0),
        numbers={"min_ratio": math.nan, "max_ratio": 2.0},
    )
    result = ClaimResult(claim, "smoke", verdict, 2, 4, 1, 3, 0.25, file="x_claims.py")
    record = run_record(result)
    assert json.loads(json.dumps(record, allow_nan=False)) == record
    assert record == {
        "claim": "classic/runs/record",
        "paper": "classic",
        "status": "reported",
        "outcome": "violated",
        "expect": "holds",
        "gating": False,
        "passed": False,
        "acceptable": True,
        "predicted": "y <= bound",
        "measured": "y > bound",
        "ci": [None, 1.0],
        "numbers": {"min_ratio": None, "max_ratio": 2.0},
        "reason": "why",
        "where": None,
        "file": "x_claims.py",
        "compute_seconds": 0.25,
        "n_computed": 3,
        "n_cached": 1,
    }


# --------------------------------------------------------------------------- diff_runs
def test_diff_reports_flips_moves_beyond_the_ci_added_and_removed() -> None:
    before = {r["claim"]: r for r in RUN_1}
    after = {r["claim"]: r for r in RUN_2}
    diff = diff_runs(before, after)
    assert diff.flipped == (Flip("classic/a/flip", "holds", "failed", "holds", "violated"),)
    # -1.5 is outside [-1.1, -0.9]; the noise claim moved by 0.05, inside both CIs
    assert diff.moved == (
        Move("classic/a/rate", "exponent", -1.0, -1.5, (-1.1, -0.9), (-1.6, -1.4)),
    )
    assert diff.added == ("classic/a/new",) and diff.removed == ("classic/a/gone",)
    assert diff.unchanged == 2 and diff.compared == 4  # noise and steady
    assert json.loads(json.dumps(diff.to_dict()))["moved"][0]["after_ci"] == [-1.6, -1.4]
    same = diff_runs(before, before)
    assert (same.flipped, same.moved, same.added, same.removed) == ((), (), (), ())
    assert same.unchanged == len(RUN_1)


def test_diff_moves_either_way_and_ignores_open_or_missing_intervals() -> None:
    # the old value outside the new (narrower) CI, the new value inside the old (wide) CI
    wide = {"c/a/b": rate("c/a/b", -1.0, -2.0, 0.0)}
    narrow = {"c/a/b": rate("c/a/b", -1.3, -1.35, -1.25)}
    assert [m.claim for m in diff_runs(wide, narrow).moved] == ["c/a/b"]
    assert [m.claim for m in diff_runs(narrow, wide).moved] == ["c/a/b"]
    open_ci = {"c/a/b": rate("c/a/b", -3.0, -3.1, -2.9, ci=[None, -2.9])}
    assert diff_runs(wide, open_ci).moved == ()
    no_ci = {"c/a/b": rec("c/a/b", numbers={"exponent": 5.0})}
    assert diff_runs(wide, no_ci).moved == () and diff_runs(wide, no_ci).unchanged == 1
    # a status that stays while the outcome changes is a flip too
    flip = diff_runs(
        {"c/a/b": rec("c/a/b", "reported", outcome="holds")},
        {"c/a/b": rec("c/a/b", "reported", outcome="violated")},
    )
    assert [f.claim for f in flip.flipped] == ["c/a/b"]


def test_headlines_of_a_crossing_with_a_scaling_law() -> None:
    record = rec(
        "c/a/x",
        ci=[0.5, 2.0],
        numbers={
            "crossing": 1.0,
            "ci_low": 0.5,
            "ci_high": 2.0,
            "scaling_slope": 0.5,
            "scaling_ci_low": 0.4,
            "scaling_ci_high": 0.6,
        },
    )
    assert headlines(record) == {"crossing": (1.0, (0.5, 2.0)), "scaling_slope": (0.5, (0.4, 0.6))}
    assert headlines(rec("c/a/y", numbers={"min_ratio": 2.0})) == {}


# --------------------------------------------------------------------------- resolve_run
def test_resolve_run_tokens_and_errors(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite", runs=3)
    with ResultStore(path, readonly=True) as store:
        assert [resolve_run(store, t) for t in (1, "2", "last", "previous", "-1", "-3", -2)] == [
            1,
            2,
            3,
            2,
            3,
            1,
            2,
        ]
        for token, match in (
            ("9", r"run='9': is not a run in .* \(runs 1 to 3\)"),
            (0, r"run=0: is not a run"),
            ("-4", r"run='-4': counts back past the oldest run \(3 recorded"),
            ("first", r"run='first': must be a run id, 'last', 'previous' or -N"),
        ):
            with pytest.raises(ParameterError, match=match) as caught:
                resolve_run(store, token)
            assert caught.value.parameter == "run" and caught.value.value == token
    with ResultStore(tmp_path / "empty.sqlite") as store:
        with pytest.raises(ParameterError, match=r"no runs recorded in .*run fedtheory verify"):
            resolve_run(store, "last")
        store.record_run(info(1), {}, [])
        with pytest.raises(ParameterError, match=r"needs two runs; .* has one \(run 1\)"):
            resolve_run(store, "previous")


def test_last_failed_is_the_newest_runs_unacceptable_claims(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert last_failed(store) is None
        store.record_run(info(1), {}, RUN_1)
        assert last_failed(store) == []
        store.record_run(info(2), {}, RUN_2)
        assert last_failed(store) == ["classic/a/flip", "classic/a/new"]


# --------------------------------------------------------------------------- the CLI
def test_runs_list_shows_every_run(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite")
    result = cli_run("runs", "list", "--store", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "2 runs" in lines[0]
    for column in ("id", "started", "profile", "seed", "claims", "holds", "errata", "command"):
        assert column in result.stdout
    row = next(line for line in lines if "2024-05-02 12:00:00" in line)
    assert "smoke" in row and "3.0" in row and "fedtheory verify --profile smoke" in row
    assert "/home/me" not in result.stdout and "…" in row  # program by name, command cut
    empty = ResultStore(tmp_path / "empty.sqlite")
    empty.close()
    none = cli_run("runs", "list", "--store", str(tmp_path / "empty.sqlite"))
    assert none.exit_code == 0 and "no runs recorded" in none.stdout


def test_runs_diff_defaults_to_previous_and_last(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite")
    result = cli_run("runs", "diff", "--store", str(path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.splitlines()[0].startswith(
        "run 1 (2024-05-01 12:00:00, profile smoke, seed 1) → run 2"
    )
    assert "classic/a/flip" in out and "holds → failed" in out
    assert "classic/a/rate  exponent −1 [−1.1, −0.9] → −1.5 [−1.6, −1.4]" in out
    assert "classic/a/noise" not in out
    assert "added: 1 (classic/a/new)" in out and "removed: 1 (classic/a/gone)" in out
    assert out.splitlines()[-1] == "1 flipped, 1 moved, 2 unchanged"
    for args in (["1", "2"], ["-2", "-1"], ["previous", "last"]):
        again = cli_run("runs", "diff", *args, "--store", str(path))
        assert again.exit_code == 0 and again.stdout == out, args
    same = cli_run("runs", "diff", "2", "2", "--store", str(path))
    assert same.exit_code == 0 and same.stdout.splitlines()[-1] == "0 flipped, 0 moved, 5 unchanged"


def test_runs_diff_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    path = filled_store(tmp_path / "s.sqlite")
    assert "run='7': is not a run in" in one_line_error(
        cli_run("runs", "diff", "1", "7", "--store", str(path))
    )
    assert "run='-5'" in one_line_error(cli_run("runs", "diff", "-5", "--store", str(path)))
    empty = tmp_path / "empty.sqlite"
    ResultStore(empty).close()
    line = one_line_error(cli_run("runs", "diff", "--store", str(empty)))
    assert line == f"error: no runs recorded in {empty}: run fedtheory verify first"
    one = filled_store(tmp_path / "one.sqlite", runs=1)
    assert "needs two runs" in one_line_error(cli_run("runs", "diff", "--store", str(one)))
    missing = tmp_path / "missing.sqlite"
    assert "no result store there" in one_line_error(
        cli_run("runs", "diff", "--store", str(missing))
    )
    assert not missing.exists()
    table = tmp_path / "data.csv"
    table.write_text("a,b\n1,2\n" * 100)
    assert "is not a fedtheory result store" in one_line_error(
        cli_run("runs", "list", "--store", str(table))
    )
