"""Reliability of the verification engine: runner, executors, store and CLI (issue 3).

These tests run real claim files (written to a temporary folder) through the real runner:
bit-identical results across executors, resumption after SIGKILL, concurrent runs on one store,
errors confined to their claim, and one-line exit-2 errors for bad input.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fedtheory.errors import ParameterError
from fedtheory.verify import ResultStore, discover, verify
from fedtheory.verify.executors import DaskExecutor
from fedtheory.verify.runner import plan, replicate_seed

FEDTHEORY = [sys.executable, "-m", "fedtheory.cli"]

CLAIMS = '''
from __future__ import annotations

import time

import numpy as np

from fedtheory.bounds import Citation
from fedtheory.errors import DivergenceError, ParameterError
from fedtheory.verify import Claim, RateExponent, Sweep, UpperBoundHolds


def squared_mean(params, seed):
    """Squared mean of n standard normals: E = 1/n exactly."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(int(params["n"]))
    time.sleep(float(params.get("sleep", 0.0)))
    return {"sq": float(x.mean() ** 2), "bound": 3.0 / params["n"]}


def diverging(params, seed):
    if params["n"] >= 100:
        raise DivergenceError("toy", 7, float("inf"), hint="step too large")
    return {"sq": 1.0 / params["n"]}


SLEEP = {SLEEP}
rate = Claim(
    id="classic/engine/rate",
    source=Citation("classic", "engine test"),
    statement="The squared mean of n standard normals decays like 1/n.",
    experiment=squared_mean,
    sweeps={
        "smoke": Sweep(grid={"n": [10, 100, 1000]}, fixed={"sleep": SLEEP}, replicates=8),
        "quick": Sweep(grid={"n": [10, 100, 1000, 10000]}, fixed={"sleep": SLEEP}, replicates=40),
    },
    criterion=RateExponent("n", "sq", expected=-1, band=0.35, n_resamples=500),
)
bound = Claim(
    id="classic/engine/bound",
    source=Citation("classic", "engine test"),
    statement="E[mean²] = 1/n ≤ 3/n.",
    experiment=squared_mean,
    sweeps={
        "smoke": Sweep(grid={"n": [10, 100]}, fixed={"sleep": SLEEP}, replicates=8, block=3),
        "quick": Sweep(grid={"n": [10, 100, 1000]}, fixed={"sleep": SLEEP}, replicates=30),
    },
    criterion=UpperBoundHolds("sq", "bound", over="mean"),
)
'''

DIVERGING = """
diverges = Claim(
    id="classic/engine/diverges",
    source=Citation("classic", "engine test"),
    statement="A toy algorithm that diverges for large n.",
    experiment=diverging,
    sweeps={
        "smoke": Sweep(grid={"n": [10, 100, 1000]}),
        "quick": Sweep(grid={"n": [10, 100, 1000]}),
    },
    criterion=RateExponent("n", "sq", expected=-1, band=0.1, n_resamples=500),
)
"""


def write_claims(folder: Path, *, sleep: float = 0.0, diverging: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = CLAIMS.replace("{SLEEP}", repr(sleep)) + (DIVERGING if diverging else "")
    (folder / "engine_claims.py").write_text(textwrap.dedent(text))
    return folder


def stored_rows(path: Path) -> list[tuple[str, str, int, int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT key, claim, replicate, seed, outputs FROM results ORDER BY key"
        ).fetchall()


def verdict_numbers(run) -> dict[str, tuple]:
    return {
        r.claim.id: (r.verdict.outcome, json.dumps(r.verdict.to_dict(), sort_keys=True))
        for r in run.results
    }


def verify_args(
    claims: str | Path, store: str | Path, report: str | Path, *extra: str
) -> list[str]:
    """``fedtheory verify`` on the smoke profile with its own store and report folder."""
    return [
        "verify",
        str(claims),
        "--profile",
        "smoke",
        "--store",
        str(store),
        "--report",
        str(report),
        *extra,
    ]


def cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FEDTHEORY, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


# --------------------------------------------------------------------------- determinism


@pytest.mark.slow
def test_bit_identical_across_local_1_local_2_and_dask(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    runs = {}
    runs["local1"] = verify([claims], profile="smoke", store=tmp_path / "l1.sqlite", workers=1)
    runs["local2"] = verify([claims], profile="smoke", store=tmp_path / "l2.sqlite", workers=2)
    with DaskExecutor(workers=2) as dask:
        assert dask.address.startswith("tcp://127.0.0.1:")
        runs["dask"] = verify(
            [claims], profile="smoke", store=tmp_path / "dask.sqlite", executor=dask
        )
    rows = {
        name: stored_rows(tmp_path / f"{file}.sqlite")
        for name, file in (("local1", "l1"), ("local2", "l2"), ("dask", "dask"))
    }
    assert len(rows["local1"]) == 3 * 8 + 2 * 8
    assert rows["local1"] == rows["local2"] == rows["dask"]
    assert verdict_numbers(runs["local1"]) == verdict_numbers(runs["local2"])
    assert verdict_numbers(runs["local1"]) == verdict_numbers(runs["dask"])
    assert all(r.verdict.outcome == "holds" for r in runs["local1"].results)


def test_second_run_uses_the_store_and_no_cache_recomputes(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    store = tmp_path / "s.sqlite"
    first = verify([claims], profile="smoke", store=store, workers=1)
    assert sum(r.n_computed for r in first.results) == 40
    second = verify([claims], profile="smoke", store=store, workers=1)
    assert sum(r.n_computed for r in second.results) == 0
    assert sum(r.n_cached for r in second.results) == 40
    assert second.info["executor"] == "none (all cached)"
    assert verdict_numbers(first) == verdict_numbers(second)
    again = verify([claims], profile="smoke", store=store, workers=1, no_cache=True)
    assert sum(r.n_computed for r in again.results) == 40
    assert verdict_numbers(again) == verdict_numbers(first)
    other_seed = verify([claims], profile="smoke", store=store, workers=1, seed=1)
    assert sum(r.n_computed for r in other_seed.results) == 40
    assert verdict_numbers(other_seed) != verdict_numbers(first)


def _measured(run) -> dict[str, list[tuple]]:
    """Each claim's measurements as plain data: output names in order, values as bytes."""
    return {
        r.claim.id: [
            (
                p.params,
                p.replicates.tolist(),
                p.seeds.tolist(),
                [(n, v.dtype.str, v.tobytes(), v.flags.c_contiguous) for n, v in p.values.items()],
            )
            for p in r.measurements.points
        ]
        for r in run.results
    }


def test_claims_judged_on_what_the_tasks_returned_see_what_the_store_holds(
    tmp_path: Path,
) -> None:
    """A claim judged as its tasks answer takes the outputs the run has just stored rather
    than reading them back (issue 19): its measurements are those a rerun reads from the
    store — output names in the store's (sorted) order, the same bits — whether a fresh
    run, a partly cached one or --no-cache (which overwrites) computed them."""
    claims = write_claims(tmp_path / "claims")
    store = tmp_path / "s.sqlite"
    first = verify([claims], profile="smoke", store=store, workers=2)
    cached = verify([claims], profile="smoke", store=store, workers=2)
    assert sum(r.n_computed for r in first.results) == 40
    assert sum(r.n_computed for r in cached.results) == 0
    assert _measured(first) == _measured(cached)
    names = {n for points in _measured(first).values() for p in points for n, *_ in p[3]}
    assert names == {"bound", "sq"}  # the experiment returns sq first: kept in sorted order
    assert all(
        [n for n, *_ in p[3]] == ["bound", "sq"] for ps in _measured(first).values() for p in ps
    )
    with sqlite3.connect(store) as db:
        db.execute("DELETE FROM results WHERE rowid % 3 = 0")
    partly = verify([claims], profile="smoke", store=store, workers=2)
    assert 0 < sum(r.n_computed for r in partly.results) < 40
    overwritten = verify([claims], profile="smoke", store=store, workers=1, no_cache=True)
    for run in (partly, overwritten):
        assert _measured(run) == _measured(cached)
        assert verdict_numbers(run) == verdict_numbers(cached)


def test_measurements_do_not_depend_on_the_order_of_the_outputs(tmp_path: Path) -> None:
    """Replicates whose outputs come in different orders give the measurements the store's
    order gives (sorted names, values by name)."""
    from fedtheory.verify.runner import _measurements

    planned = plan(discover(write_claims(tmp_path / "claims")), "smoke")[0]
    values = {
        r.key: {"sq": 1.0 / (r.replicate + 1), "bound": r.seed / 2**63} for r in planned.replicates
    }
    ordered = {k: dict(sorted(v.items())) for k, v in values.items()}
    mixed = {k: (v if i % 2 else ordered[k]) for i, (k, v) in enumerate(values.items())}
    expected = _measurements(planned, ordered)
    for stored in (values, mixed):
        got = _measurements(planned, stored)
        for p, q in zip(got.points, expected.points, strict=True):
            assert list(p.values) == list(q.values) == ["bound", "sq"]
            for name in q.values:
                assert p.values[name].tobytes() == q.values[name].tobytes()
    bad = dict(ordered)
    bad[planned.replicates[1].key] = {"sq": 1.0}
    with pytest.raises(ParameterError, match="returned outputs"):
        _measurements(planned, bad)


def test_editing_the_experiment_module_invalidates_its_results(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    store = tmp_path / "s.sqlite"
    verify([claims], profile="smoke", claims="*/rate", store=store, workers=1)
    file = claims / "engine_claims.py"
    file.write_text(file.read_text() + "\n# an edit\n")
    # a fresh interpreter sees the edited file (the runner caches loaded modules per process)
    done = cli(
        *verify_args(str(claims), str(store), str(tmp_path / "r"), "--claims", "*/rate"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    with ResultStore(store) as db:
        summary = {r["claim"]: r for r in db.summary()}
    assert summary["classic/engine/rate"]["rows"] == 2 * 24
    assert summary["classic/engine/rate"]["fingerprints"] == 2


# --------------------------------------------------------------------------- interruption


def _wait_for_rows(store: Path, minimum: int, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if store.exists():
            try:
                with sqlite3.connect(store, timeout=5) as db:
                    n = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
                if n >= minimum:
                    return int(n)
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)
    raise AssertionError(f"the run stored fewer than {minimum} rows in {timeout} s")


@pytest.mark.slow
def test_sigkill_then_resume_gives_the_uninterrupted_verdicts(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims", sleep=0.1)
    store = tmp_path / "killed.sqlite"
    args = [
        *FEDTHEORY,
        *verify_args(str(claims), str(store), str(tmp_path / "r1"), "--workers", "2"),
    ]
    proc = subprocess.Popen(
        args,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        kept = _wait_for_rows(store, 6, timeout=60)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    total = 40
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    assert 0 < kept < total, "the kill must land in the middle of the sweep"

    resumed = verify([claims], profile="smoke", store=store, workers=2)
    assert sum(r.n_cached for r in resumed.results) == kept
    assert sum(r.n_computed for r in resumed.results) == total - kept
    reference = verify([claims], profile="smoke", store=tmp_path / "whole.sqlite", workers=2)
    assert verdict_numbers(resumed) == verdict_numbers(reference)
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        n, distinct = db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM results").fetchone()
    assert n == distinct == total
    assert stored_rows(store) == stored_rows(tmp_path / "whole.sqlite")


@pytest.mark.slow
def test_two_concurrent_runs_on_one_store(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims", sleep=0.005)
    store = tmp_path / "shared.sqlite"
    procs = [
        subprocess.Popen(
            [
                *FEDTHEORY,
                *verify_args(str(claims), str(store), str(tmp_path / f"r{i}"), "--workers", "1"),
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    outputs = [p.communicate(timeout=180) for p in procs]
    for proc, (_out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
    with sqlite3.connect(store) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        n, distinct = db.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM results").fetchone()
    assert n == distinct == 40
    verdicts = [json.loads((tmp_path / f"r{i}" / "verdicts.json").read_text()) for i in range(2)]
    assert [c["verdict"] for c in verdicts[0]["claims"]] == [
        c["verdict"] for c in verdicts[1]["claims"]
    ]


# --------------------------------------------------------------------------- errors


def test_an_experiment_error_makes_only_its_claim_error(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims", diverging=True)
    run = verify([claims], profile="smoke", store=tmp_path / "s.sqlite", workers=2)
    outcomes = {r.claim.id: r.verdict.outcome for r in run.results}
    assert outcomes == {
        "classic/engine/rate": "holds",
        "classic/engine/bound": "holds",
        "classic/engine/diverges": "error",
    }
    message = next(r.verdict.reason for r in run.results if r.claim.id.endswith("diverges"))
    assert "DivergenceError" in message and "round 7" in message and "n=100" in message
    assert run.exit_code == 1
    # the finished replicate of the failing claim is kept; the failed ones are not stored
    with ResultStore(tmp_path / "s.sqlite") as db:
        rows = {r["claim"]: r["rows"] for r in db.summary()}
    assert rows["classic/engine/diverges"] == 1


def test_non_finite_output_is_an_error_not_a_value(tmp_path: Path) -> None:
    folder = tmp_path / "claims"
    folder.mkdir()
    (folder / "nan_claims.py").write_text(
        textwrap.dedent("""
        from __future__ import annotations
        from fedtheory.bounds import Citation
        from fedtheory.verify import Claim, Monotone, Sweep

        def nan_at_two(params, seed):
            return {"y": float("nan") if params["x"] == 2 else float(params["x"])}

        c = Claim(
            id="classic/engine/nan", source=Citation("classic", "engine test"),
            statement="y increases.", experiment=nan_at_two,
            sweeps={"smoke": Sweep(grid={"x": [1, 2, 3]}), "quick": Sweep(grid={"x": [1, 2, 3]})},
            criterion=Monotone("x", "y", direction="increasing"),
        )
    """)
    )
    run = verify([folder], profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    verdict = run.results[0].verdict
    assert verdict.outcome == "error"
    assert "'y' is nan" in verdict.reason and "x=2" in verdict.reason


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--profile", "huge"], "huge"),
        (["--claims", "nothing/*"], "--claims"),
        (["--workers", "0"], "--workers"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_bad_verify_options_exit_2_with_one_line(
    tmp_path: Path, args: list[str], fragment: str
) -> None:
    claims = write_claims(tmp_path / "claims")
    done = cli("verify", str(claims), "--store", str(tmp_path / "s.sqlite"), *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error:")
    assert fragment in done.stderr


def test_missing_path_and_malformed_claim_file_exit_2(tmp_path: Path) -> None:
    done = cli("verify", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 2 and "nowhere" in done.stderr and "does not exist" in done.stderr
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "broken.py").write_text("from __future__ import annotations\nx = (\n")
    done = cli("verify", str(bad), cwd=tmp_path)
    assert done.returncode == 2
    assert "broken.py" in done.stderr and "SyntaxError" in done.stderr
    assert done.stderr.count("\n") == 1
    (bad / "broken.py").write_text(
        textwrap.dedent("""
        from fedtheory.bounds import Citation
        from fedtheory.verify import Claim, Monotone, Sweep
        def f(params, seed):
            return {"y": 1.0}
        c = Claim(id="not an id", source=Citation("classic", "x"), statement="s",
                  experiment=f, sweeps={"smoke": Sweep(), "quick": Sweep()},
                  criterion=Monotone("x", "y", direction="increasing"))
    """)
    )
    done = cli("catalog", str(bad), cwd=tmp_path)
    assert done.returncode == 2
    assert "broken.py" in done.stderr and "id='not an id'" in done.stderr


def test_unreachable_scheduler_fails_fast(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    start = time.monotonic()
    done = cli(
        "verify",
        str(claims),
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--store",
        str(tmp_path / "s.sqlite"),
        cwd=tmp_path,
        timeout=60,
    )
    elapsed = time.monotonic() - start
    assert done.returncode == 2, done.stderr
    assert "--scheduler='tcp://127.0.0.1:9'" in done.stderr and done.stderr.count("\n") == 1
    assert elapsed < 15
    env_done = subprocess.run(
        [*FEDTHEORY, "verify", str(claims), "--store", str(tmp_path / "s.sqlite")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "FEDTHEORY_SCHEDULER": "tcp://127.0.0.1:9"},
    )
    assert env_done.returncode == 2 and "--scheduler" in env_done.stderr


# --------------------------------------------------------------------------- CLI end to end


def test_cli_verify_catalog_and_results(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    store = tmp_path / "s.sqlite"
    done = cli(
        *verify_args(str(claims), str(store), str(tmp_path / "report"), "--workers", "1"),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "classic/engine/rate" in done.stdout and "2 claims: 2 holds" in done.stdout
    assert (tmp_path / "report" / "index.html").is_file()
    doc = json.loads((tmp_path / "report" / "verdicts.json").read_text())
    assert {c["id"] for c in doc["claims"]} == {"classic/engine/rate", "classic/engine/bound"}

    catalog = cli("catalog", str(claims), cwd=tmp_path)
    assert catalog.returncode == 0
    assert "classic/engine/bound" in catalog.stdout and "3×8" in catalog.stdout

    listed = cli("results", "list", "--store", str(store), cwd=tmp_path)
    assert listed.returncode == 0 and "classic/engine/rate" in listed.stdout
    exported = cli(
        "results",
        "export",
        "--store",
        str(store),
        "--format",
        "csv",
        "--claims",
        "*/rate",
        "--catalog",
        str(claims),
        cwd=tmp_path,
    )
    lines = exported.stdout.strip().splitlines()
    assert lines[0].startswith("claim,replicate,seed") and "out.sq" in lines[0]
    assert len(lines) == 1 + 24
    as_json = json.loads(
        cli("results", "export", "--store", str(store), "--format", "json", cwd=tmp_path).stdout
    )
    assert len(as_json) == 40 and {"params", "outputs", "seed"} <= set(as_json[0])
    cleared = cli(
        "results",
        "clear",
        "--store",
        str(store),
        "--claims",
        "*/rate",
        "--catalog",
        str(claims),
        "--yes",
        cwd=tmp_path,
    )
    assert cleared.returncode == 0 and "deleted 24" in cleared.stdout
    with ResultStore(store) as db:
        assert db.count() == 16
    missing = cli("results", "list", "--store", str(tmp_path / "none.sqlite"), cwd=tmp_path)
    assert missing.returncode == 2 and "none.sqlite" in missing.stderr


def test_exit_code_1_when_a_claim_does_not_meet_its_expectation(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims")
    file = claims / "engine_claims.py"
    file.write_text(file.read_text().replace("expected=-1, band=0.35", "expected=-2, band=0.35"))
    done = cli(
        *verify_args(
            str(claims), str(tmp_path / "s.sqlite"), str(tmp_path / "r"), "--workers", "1"
        ),
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert "1 failed" in done.stdout


@pytest.mark.slow
def test_ctrl_c_keeps_finished_work_and_exits_130(tmp_path: Path) -> None:
    claims = write_claims(tmp_path / "claims", sleep=0.1)
    store = tmp_path / "s.sqlite"
    proc = subprocess.Popen(
        [
            *FEDTHEORY,
            *verify_args(str(claims), str(store), str(tmp_path / "r"), "--workers", "2"),
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for_rows(store, 6, timeout=60)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the foreground group
        _out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    said = re.fullmatch(
        rf"interrupted: (\d+) finished replicates kept in {re.escape(str(store))} "
        r"\((\d+) tasks cancelled\); rerun to resume",
        lines[0],
    )
    assert said is not None, lines[0]
    with ResultStore(store) as db:
        kept = db.count()
        assert int(said.group(1)) == kept
        assert db.integrity_check() == "ok"
    resumed = verify([claims], profile="smoke", store=store, workers=2)
    assert sum(r.n_cached for r in resumed.results) == kept
    assert sum(r.n_cached + r.n_computed for r in resumed.results) == 40


SHARED = """
import numpy as np

from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Identity, Measurement, RateExponent, Sweep


def squared_mean(params, seed):
    x = np.random.default_rng(seed).standard_normal(int(params["n"]))
    return {"sq": float(x.mean() ** 2), "inv": 1.0 / params["n"]}


def other(params, seed):
    return {"sq": 1.0, "inv": 1.0}


SWEEPS = {
    "smoke": Sweep(grid={"n": [10, 100, 1000]}, replicates=8),
    "quick": Sweep(grid={"n": [10, 100, 1000]}, replicates=8),
}
OTHER_SWEEPS = {
    "smoke": Sweep(grid={"n": [10, 100, 1000]}, replicates=9),
    "quick": Sweep(grid={"n": [10, 100, 1000]}, replicates=9),
}
squares = Measurement(id="classic/shared/squared-mean", experiment=squared_mean, sweeps=SWEEPS)
rate = squares.claim(
    id="classic/shared/rate",
    source=Citation("classic", "shared"),
    statement="rate",
    criterion=RateExponent(x="n", y="sq", expected=-1, band=0.5),
)
{SECOND} = Measurement(id="classic/shared/squared-mean", experiment={EXPERIMENT}, sweeps={SWEEPS})
mean = {SECOND}.claim(
    id="classic/shared/mean",
    source=Citation("classic", "shared"),
    statement="mean",
    criterion=Identity(a="sq", b="inv", rtol=10.0, over="mean"),
)
"""


def shared_file(
    tmp_path: Path,
    second: str = "squares",
    experiment: str = "squared_mean",
    sweeps: str = "SWEEPS",
) -> Path:
    """Two claims on the measurement ``classic/shared/squared-mean``; the second claim's
    measurement is ``squares`` itself, or another Measurement object with the same id."""
    text = SHARED.replace("{EXPERIMENT}", experiment).replace("{SWEEPS}", sweeps)
    if second == "squares":  # the second claim judges the first claim's measurement
        text = text.replace(
            '{SECOND} = Measurement(id="classic/shared/squared-mean", experiment='
            f"{experiment}, sweeps={sweeps})\n",
            "",
        )
    text = text.replace("{SECOND}", second)
    path = tmp_path / "shared.py"
    path.write_text(text)
    return path


def test_claims_of_one_measurement_share_seeds_and_keys_and_compute_it_once(tmp_path):
    path = shared_file(tmp_path)
    loaded = discover([path])
    rate, mean = (c.claim for c in loaded)
    assert rate.measurement is mean.measurement
    assert rate.describe()["measures"] == mean.describe()["measures"] == rate.measurement.id
    planned = plan(loaded, "smoke", base_seed=0)
    assert [(r.seed, r.key) for r in planned[0].replicates] == [
        (r.seed, r.key) for r in planned[1].replicates
    ]
    # seeds come from the measurement id (as the former measures="..." string), not a claim id
    first = planned[0].points[0]
    assert planned[0].replicates[0].seed == replicate_seed(
        0, "classic/shared/squared-mean", first, 0
    )
    assert planned[0].replicates[0].seed != replicate_seed(0, "classic/shared/rate", first, 0)

    store = tmp_path / "s.sqlite"
    run = verify([path], profile="smoke", store=store, workers=1)
    assert [r.n_computed for r in run.results] == [24, 0]
    assert [r.n_cached for r in run.results] == [0, 24]
    data = [r.measurements for r in run.results]
    assert data[0] is not None and data[1] is not None
    for a, b in zip(data[0].points, data[1].points, strict=True):
        assert a.seeds.tolist() == b.seeds.tolist()
        assert a.values["sq"].tolist() == b.values["sq"].tolist()
    with ResultStore(store) as results:
        summary = results.summary()
    assert [(row["claim"], row["rows"]) for row in summary] == [("classic/shared/squared-mean", 24)]


def test_an_equal_second_declaration_of_a_measurement_is_the_same_data(tmp_path):
    path = shared_file(tmp_path, second="again")
    run = verify([path], profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    assert run.results[0].claim.measurement is not run.results[1].claim.measurement
    assert [r.n_computed for r in run.results] == [24, 0]


@pytest.mark.parametrize(
    ("experiment", "sweeps", "match"),
    [
        ("other", "SWEEPS", "measured by squared_mean .* by other"),
        ("squared_mean", "OTHER_SWEEPS", "different sweeps"),
    ],
)
def test_two_different_measurements_with_one_id_are_refused(tmp_path, experiment, sweeps, match):
    path = shared_file(tmp_path, second="impostor", experiment=experiment, sweeps=sweeps)
    with pytest.raises(ParameterError, match=match) as info:
        verify([path], profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    assert info.value.parameter == "measurement"
    assert info.value.value == "classic/shared/squared-mean"
    assert "classic/shared/rate" in str(info.value) and "classic/shared/mean" in str(info.value)
    assert not (tmp_path / "s.sqlite").exists()  # refused while planning: nothing ran


def test_a_claim_alone_on_its_data_cannot_take_the_id_of_another_measurement(tmp_path):
    path = shared_file(tmp_path)
    path.write_text(
        path.read_text()
        + textwrap.dedent("""
        squared_mean_alone = Claim(
            id="classic/shared/squared-mean",
            source=Citation("classic", "shared"),
            statement="an implicit measurement with the id of the explicit one",
            experiment=other,
            sweeps=SWEEPS,
            criterion=Identity(a="sq", b="inv", rtol=10.0, over="mean"),
        )
        """)
    )
    with pytest.raises(ParameterError, match="names two different measurements"):
        verify([path], profile="smoke", store=tmp_path / "s.sqlite", workers=1)


SLICE = """
{SHARED}
tail = squares.claim(
    id="classic/shared/tail",
    source=Citation("classic", "shared"),
    statement="the rate on a slice of its own: n = 100, 1000 (shared) and 10000 (its own)",
    criterion=RateExponent(x="n", y="sq", expected=-1, band=0.5),
    sweeps={
        "smoke": Sweep(grid={"n": [100, 1000, 10000]}, replicates=8),
        "quick": Sweep(grid={"n": [100, 1000, 10000]}, replicates=8),
    },
)
"""


def test_a_claim_judging_a_slice_of_a_measurement_shares_the_common_points(tmp_path):
    path = shared_file(tmp_path)
    path.write_text(SLICE.replace("{SHARED}", path.read_text()))
    store = tmp_path / "s.sqlite"
    run = verify([path], profile="smoke", store=store, workers=1)
    by_id = {r.claim.id: r for r in run.results}
    # n = 100 and 1000 were measured for the other claims; only n = 10000 is new
    assert by_id["classic/shared/tail"].n_computed == 8
    assert by_id["classic/shared/tail"].n_cached == 16
    whole, tail = (
        by_id["classic/shared/rate"].measurements,
        by_id["classic/shared/tail"].measurements,
    )
    assert whole is not None and tail is not None
    assert [p.values["sq"].tolist() for p in whole.points[1:]] == [
        p.values["sq"].tolist() for p in tail.points[:2]
    ]
    with ResultStore(store) as results:
        assert [(r["claim"], r["rows"]) for r in results.summary()] == [
            ("classic/shared/squared-mean", 32)
        ]
