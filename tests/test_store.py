"""The SQLite result store: schema, keys, bit-exact round trip, replace/ignore, clear, refusals."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from fedtheory.errors import ParameterError, StoreError
from fedtheory.verify.store import SCHEMA_VERSION, ResultStore, canonical_json, result_key


def record(key: str, claim: str = "classic/a/b", value: float = 0.1, **extra: object) -> dict:
    return {
        "key": key,
        "claim": claim,
        "params": {"T": 10, "mu": 0.5},
        "replicate": 0,
        "seed": 2**62 + 12345,
        "base_seed": 0,
        "fingerprint": "f" * 16,
        "version": "0.1.0",
        "outputs": {"gap": value},
        "seconds": 0.01,
        **extra,
    }


def test_wal_mode_schema_and_bit_exact_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "results.sqlite"
    values = np.random.default_rng(0).standard_normal(50) * 10.0 ** np.arange(-25, 25)
    with ResultStore(path) as store:
        written = store.put([record(f"k{i}", value=float(v)) for i, v in enumerate(values)])
        assert written == 50
        back = store.existing(f"k{i}" for i in range(60))
        assert store.integrity_check() == "ok"
    assert sorted(back) == sorted(f"k{i}" for i in range(50))
    assert [back[f"k{i}"]["gap"] for i in range(50)] == [float(v) for v in values]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()[
            0
        ] == str(SCHEMA_VERSION)
        seed = db.execute("SELECT seed FROM results LIMIT 1").fetchone()[0]
    assert seed == 2**62 + 12345


def test_insert_or_ignore_versus_replace(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert store.put([record("k", value=1.0)]) == 1
        assert store.put([record("k", value=2.0)]) == 0
        assert store.existing(["k"])["k"]["gap"] == 1.0
        assert store.put([record("k", value=3.0)], replace=True) == 1
        assert store.existing(["k"])["k"]["gap"] == 3.0
        assert store.count() == 1


def test_clear_by_glob_and_summary(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.put(
            [record("a1", "classic/a/x"), record("a2", "classic/a/x"), record("b1", "minimax/b/y")]
        )
        summary = {r["claim"]: r["rows"] for r in store.summary()}
        assert summary == {"classic/a/x": 2, "minimax/b/y": 1}
        assert store.clear("minimax/*") == 1
        assert [r["claim"] for r in store.rows()] == ["classic/a/x", "classic/a/x"]
        assert store.clear() == 2
        assert store.count() == 0


def test_non_finite_outputs_are_refused(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "s.sqlite") as store, pytest.raises(ValueError):
        store.put([record("k", value=float("nan"))])
    with ResultStore(tmp_path / "s.sqlite") as store:
        assert store.count() == 0  # the failed transaction was rolled back


def test_keys_depend_on_every_part_of_the_identity() -> None:
    base = result_key("classic/a/b", {"T": 1, "mu": 0.5}, 7, "f" * 16, "0.1.0")
    assert base == result_key("classic/a/b", {"mu": 0.5, "T": 1}, 7, "f" * 16, "0.1.0")
    others = {
        result_key("classic/a/c", {"T": 1, "mu": 0.5}, 7, "f" * 16, "0.1.0"),
        result_key("classic/a/b", {"T": 2, "mu": 0.5}, 7, "f" * 16, "0.1.0"),
        result_key("classic/a/b", {"T": 1, "mu": 0.5}, 8, "f" * 16, "0.1.0"),
        result_key("classic/a/b", {"T": 1, "mu": 0.5}, 7, "e" * 16, "0.1.0"),
        result_key("classic/a/b", {"T": 1, "mu": 0.5}, 7, "f" * 16, "0.2.0"),
    }
    assert base not in others and len(others) == 5
    assert canonical_json({"b": 1, "a": [1.5, "x"]}) == '{"a":[1.5,"x"],"b":1}'


@pytest.mark.parametrize(
    ("claim", "params", "fingerprint", "version"),
    [
        ("classic/a/b", {"T": 1, "mu": 0.5}, "f" * 16, "0.1.0"),
        ('ünï/"quoted"\\x', {"z": [1, 2.5, {"b": True, "a": None}], "é": "ŝ\n"}, "ab+m:1", "1.0"),
        ("m", {}, "0" * 16, "0.1.0.dev3"),
        ("m", {"big": 1e300, "neg": -0.0, "i": 2**70, "tiny": 5e-324}, "f" * 16, "0.1.0"),
    ],
)
def test_keys_of_a_point_are_result_key_of_each_seed(
    claim: str, params: dict, fingerprint: str, version: str
) -> None:
    """The runner keys a point's replicates with the identity's JSON put together once
    (issue 19): the same keys as result_key, seed by seed."""
    from fedtheory.verify.store import _result_keys

    seeds = [0, 1, 7, 2**62 + 12345, 2**63 - 1]
    keys = _result_keys(claim, canonical_json(params), seeds, fingerprint, version)
    assert keys == [result_key(claim, params, s, fingerprint, version) for s in seeds]


def test_refuses_other_schema_versions_and_non_databases(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    ResultStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='99' WHERE name='schema_version'")
    with pytest.raises(ParameterError, match="schema version 99"):
        ResultStore(path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(ParameterError, match=r"store=.*junk\.sqlite"):
        ResultStore(junk)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot open"):
        ResultStore(blocker / "inside" / "s.sqlite")
