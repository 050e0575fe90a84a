"""Fault injection: the runner under stale code, exits, signals, dying workers (issue 11).

Every test reproduces one scenario of the hostile-tester report (the catalogue, with the outcome
of each, is ``docs/reliability.md``) and asserts what must happen instead. The store and the
bounds have their own fault suites (``test_faults_store.py``, ``test_faults_bounds.py``).
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import signal
import socket
import socketserver
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fedtheory.errors import ParameterError
from fedtheory.verify import discover, discovery, verify
from fedtheory.verify.executors import DaskExecutor, Executor, run_task
from fedtheory.verify.runner import plan

pytestmark = pytest.mark.faults

FEDTHEORY = [sys.executable, "-m", "fedtheory.cli"]

# A claim whose verdict depends on a value: x ≤ 1.5 holds for 1.0 and is violated for 2.0.
CLAIM = """
from __future__ import annotations

import os
import signal
import sys
import time

from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Sweep, UpperBoundHolds
{IMPORTS}

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(params, seed):
    time.sleep(float(params.get("sleep", 0.0)))
    action = params.get("action", "")
    if action and os.path.exists(os.path.join(HERE, "..", "armed")):
        if action == "exit0":
            sys.exit(0)
        if action == "exit3":
            sys.exit(3)
        if action == "sigkill" and params["n"] == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        if action == "segfault" and params["n"] == 2:
            import ctypes

            ctypes.string_at(0)
    return {{"x": {VALUE}, "bound": 1.5}}


def sweeps(**fixed):
    return {{
        p: Sweep(grid={{"n": [1, 2, 3]}}, fixed=fixed, replicates={REPLICATES}, block={BLOCK})
        for p in ("smoke", "quick", "full")
    }}


{NAME} = Claim(
    id="classic/faults/{NAME}",
    source=Citation("classic", "fault injection"),
    statement="x is at most the bound.",
    experiment=measure,
    sweeps=sweeps({FIXED}),
    criterion=UpperBoundHolds("x", "bound", over="mean"),
)
"""


def write_claim(
    folder: Path,
    name: str = "value",
    *,
    value: str = "1.0",
    imports: str = "",
    fixed: str = "",
    replicates: int = 3,
    block: int = 3,
    top: str = "",
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = CLAIM.format(
        IMPORTS=imports,
        VALUE=value,
        NAME=name,
        FIXED=fixed,
        REPLICATES=replicates,
        BLOCK=block,
    )
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(text) + top)
    return path


def cli(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300):
    return subprocess.run(
        [*FEDTHEORY, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def verify_args(tmp: Path, *extra: str, claims: str = "claims") -> list[str]:
    """``verify`` of the smoke profile with the test's own store and report folder."""
    store, report = str(tmp / "s.sqlite"), str(tmp / "report")
    return ["verify", claims, "--profile", "smoke", "--store", store, "--report", report, *extra]


def run_verify(tmp: Path, *extra: str, claims: str = "claims", **kwargs):
    return cli(*verify_args(tmp, *extra, claims=claims), cwd=tmp, **kwargs)


def outcomes(report: Path) -> dict[str, str]:
    document = json.loads((report / "verdicts.json").read_text())
    return {c["id"]: c["verdict"]["outcome"] for c in document["claims"]}


def rows(store: Path) -> int:
    if not store.exists():
        return 0
    with sqlite3.connect(store) as db:
        return int(db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


# --------------------------------------------------------------------------- 1. fingerprints


def test_editing_a_helper_module_is_never_served_from_the_cache(tmp_path: Path) -> None:
    """Stale cache: the experiment's value comes from a helper on PYTHONPATH; editing the
    helper must recompute (before: the rerun reused the old rows and said 'holds')."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "fault_helper_values.py").write_text("VALUE = 1.0\n")
    write_claim(
        tmp_path / "claims",
        value="fault_helper_values.VALUE",
        imports="import fault_helper_values",
    )
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(project), os.environ.get("PYTHONPATH")]))
    }
    first = run_verify(tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    assert outcomes(tmp_path / "report") == {"classic/faults/value": "holds"}
    (project / "fault_helper_values.py").write_text("VALUE = 2.0\n")
    second = run_verify(tmp_path, env=env)
    assert second.returncode == 1, second.stderr
    assert outcomes(tmp_path / "report") == {"classic/faults/value": "violated"}


def test_a_helper_imported_inside_the_experiment_and_its_imports_are_fingerprinted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Transitive, and imports inside functions count: claim → (in the experiment) pkg.values
    → pkg.deep; editing the deepest file changes the claim's fingerprint (and in-process, the
    changed modules are imported anew)."""
    project = tmp_path / "project"
    (project / "faultpkg").mkdir(parents=True)
    (project / "faultpkg" / "__init__.py").write_text("")
    (project / "faultpkg" / "values.py").write_text("from .deep import VALUE\n")
    (project / "faultpkg" / "deep.py").write_text("VALUE = 1.0\n")
    monkeypatch.syspath_prepend(str(project))
    path = write_claim(tmp_path / "claims", value="__import__('faultpkg.values').values.VALUE")
    text = path.read_text().replace(
        "def measure(params, seed):\n",
        "def measure(params, seed):\n    from faultpkg import values  # noqa: F401\n",
    )
    path.write_text(text)
    store = tmp_path / "s.sqlite"
    before = discover(tmp_path / "claims")[0].code
    assert str((project / "faultpkg" / "deep.py").resolve()) in dict(before.files)
    run = verify(tmp_path / "claims", profile="smoke", store=store, workers=1)
    assert run.results[0].verdict.outcome == "holds"
    (project / "faultpkg" / "deep.py").write_text("VALUE = 2.0  # edited\n")
    after = discover(tmp_path / "claims")[0].code
    assert after.differences(before) == [str((project / "faultpkg" / "deep.py").resolve())]
    rerun = verify(tmp_path / "claims", profile="smoke", store=store, workers=1)
    assert rerun.results[0].n_cached == 0
    assert rerun.results[0].verdict.outcome == "violated"


def test_an_edit_keeping_size_and_modification_time_is_fingerprinted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discovery keeps the import statements it parsed for the rest of the process (issue
    19), keyed by the file's bytes: an edit that leaves a file's size and modification time
    as they were still changes what is fingerprinted (and run)."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "fault_same_aa.py").write_text("VALUE = 1.0\n")
    (project / "fault_same_bb.py").write_text("VALUE = 2.0\n")
    monkeypatch.syspath_prepend(str(project))
    path = write_claim(
        tmp_path / "claims", value="fault_same_aa.VALUE", imports="import fault_same_aa"
    )
    before = discover(tmp_path / "claims")[0].code
    assert str((project / "fault_same_aa.py").resolve()) in dict(before.files)
    times = path.stat()
    edited = path.read_bytes().replace(b"fault_same_aa", b"fault_same_bb")
    path.write_bytes(edited)
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
    assert path.stat().st_size == times.st_size and path.stat().st_mtime_ns == times.st_mtime_ns
    after = discover(tmp_path / "claims")[0].code
    assert str((project / "fault_same_bb.py").resolve()) in dict(after.files)
    assert str((project / "fault_same_aa.py").resolve()) not in dict(after.files)
    run = verify(tmp_path / "claims", profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    assert run.results[0].verdict.outcome == "violated"  # x = 2.0 > 1.5: the edited code ran


def test_the_installed_fedtheory_source_is_part_of_every_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A library kernel is code that runs: another fedtheory source gives other keys."""
    from fedtheory.verify import fingerprint as fingerprints

    write_claim(tmp_path / "claims")
    keys = {r.key for p in plan(discover(tmp_path / "claims"), "smoke") for r in p.replicates}
    monkeypatch.setattr(fingerprints, "package_digest", lambda: "0" * 16)
    other = {r.key for p in plan(discover(tmp_path / "claims"), "smoke") for r in p.replicates}
    assert keys and not keys & other


def test_the_package_digest_covers_every_source_file(tmp_path: Path) -> None:
    """Editing any .py file of the package (a kernel module, say) changes the digest."""
    import shutil

    from fedtheory.verify import fingerprint as fingerprints

    copy = tmp_path / "fedtheory"
    shutil.copytree(fingerprints._PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert fingerprints.tree_digest(copy) == fingerprints.package_digest()
    kernel = copy / "algorithms" / "_round_loop.py"
    kernel.write_text(kernel.read_text() + "\n# edited\n")
    assert fingerprints.tree_digest(copy) != fingerprints.package_digest()


def test_a_worker_refuses_a_task_planned_with_other_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker whose code is not the task's fingerprint runs nothing and names the file."""
    path = write_claim(tmp_path / "claims")
    loaded = discover(tmp_path / "claims")[0]
    task = {
        "task": 0,
        "file": str(path),
        "claim": loaded.claim.id,
        "code": loaded.code.as_dict(),
        "params": {"n": 1},
        "replicates": [[0, 1], [1, 2]],
    }
    assert run_task(task)["error"] is None
    assert run_task(task)["results"][0]["outputs"]["x"] == 1.0
    path.write_text(path.read_text().replace('"x": 1.0', '"x": 2.0'))
    # this process loaded the planned code: it may still run it (and gives its results)
    assert run_task(task)["results"][0]["outputs"]["x"] == 1.0
    monkeypatch.setattr(discovery, "_MODULES", {})  # a worker that has loaded nothing yet
    refused = run_task(task)
    assert refused["results"] == []
    assert refused["error"].startswith("StaleCodeError: code changed since the run was planned")
    assert str(path.resolve()) in refused["error"]
    path.write_text(path.read_text().replace('"x": 2.0', '"x": 1.0'))
    assert run_task(task)["error"] is None  # the code is the task's again: reloaded, run


@pytest.mark.slow
def test_dask_worker_never_stores_edited_code_under_the_original_fingerprint(
    tmp_path: Path,
) -> None:
    """The claim file is edited after the run is planned, before a Dask worker loads it: the
    worker refuses (error naming the file) instead of storing the edited code's results under
    the original key; after reverting, the rerun computes and says 'holds' (before: a cached
    'violated')."""
    path = write_claim(tmp_path / "claims")
    original = path.read_text()
    store = tmp_path / "s.sqlite"

    def edit_once(done: int, total: int) -> None:
        if done == 0:  # tasks are planned, none submitted yet
            path.write_text(original.replace('"x": 1.0', '"x": 2.0'))

    with DaskExecutor(workers=1) as executor:
        edited = verify(
            tmp_path / "claims", profile="smoke", store=store, executor=executor, progress=edit_once
        )
        verdict = edited.results[0].verdict
        assert verdict.outcome == "error"
        assert "StaleCodeError" in verdict.reason and str(path.resolve()) in verdict.reason
        assert rows(store) == 0
        path.write_text(original)
        rerun = verify(tmp_path / "claims", profile="smoke", store=store, executor=executor)
        assert rerun.results[0].verdict.outcome == "holds"
        assert rerun.results[0].n_computed == 9
    with sqlite3.connect(store) as db:
        assert {json.loads(o)["x"] for (o,) in db.execute("SELECT outputs FROM results")} == {1.0}


# --------------------------------------------------------------------------- 2. SystemExit


@pytest.mark.parametrize("code", [0, 3])
def test_sys_exit_in_a_claim_file_is_a_one_line_load_error(tmp_path: Path, code: int) -> None:
    write_claim(tmp_path / "claims", top=f"\nimport sys\nsys.exit({code})\n")
    done = run_verify(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'claims' / 'value.py'}: cannot load claim file: SystemExit: {code}"
    ]
    assert not (tmp_path / "report").exists() or not any((tmp_path / "report").iterdir())


@pytest.mark.parametrize("action", ["exit0", "exit3"])
def test_sys_exit_in_an_experiment_is_an_error_verdict(tmp_path: Path, action: str) -> None:
    """Before: exit 0 (or 3) and no output, even next to a failing claim."""
    write_claim(tmp_path / "claims", "exits", fixed=f"action={action!r}")
    write_claim(tmp_path / "claims", "violated", value="2.0")
    write_claim(tmp_path / "claims", "fine")
    (tmp_path / "armed").touch()
    done = run_verify(tmp_path)
    assert done.returncode == 1, done.stderr
    assert outcomes(tmp_path / "report") == {
        "classic/faults/exits": "error",
        "classic/faults/fine": "holds",
        "classic/faults/violated": "violated",
    }
    assert f"SystemExit({int(action[-1])})" in done.stdout
    assert "the code called sys.exit" in done.stdout


# --------------------------------------------------------------------------- 3. arguments


def test_a_single_path_string_is_one_path_and_discovery_stays_inside(tmp_path: Path) -> None:
    """Before: a str was iterated character by character, reaching '/' and the whole disk."""
    write_claim(tmp_path / "claims")
    outside = tmp_path / "outside"
    write_claim(outside, "escaped")
    (tmp_path / "claims" / "link_to_outside").symlink_to(outside, target_is_directory=True)
    (tmp_path / "claims" / "linked_file.py").symlink_to(outside / "escaped.py")
    found = discover(str(tmp_path / "claims"))
    assert [c.claim.id for c in found] == ["classic/faults/value"]
    run = verify(str(tmp_path / "claims"), profile="smoke", store=tmp_path / "s.sqlite", workers=1)
    assert [r.claim.id for r in run.results] == ["classic/faults/value"]


@pytest.mark.parametrize(
    ("kwargs", "parameter"),
    [
        ({"paths": 3}, "paths"),
        ({"paths": [Path("a"), 3]}, "paths"),
        ({"paths": {"a": 1}}, "paths"),
        ({"claims": 3}, "claims"),
        ({"executor": 3}, "executor"),
        ({"store": None}, "store"),
        ({"no_cache": "yes"}, "no_cache"),
        ({"progress": 3}, "progress"),
        ({"workers": True}, "--workers"),
        ({"workers": 0}, "--workers"),
        ({"seed": 2**63}, "--seed"),
        ({"seed": -1}, "--seed"),
        ({"seed": "0"}, "--seed"),
        ({"scheduler": "http://x:1"}, "--scheduler"),
    ],
)
def test_verify_validates_every_argument_before_loading_anything(
    tmp_path: Path, kwargs: dict[str, object], parameter: str
) -> None:
    kwargs = {"paths": [tmp_path / "claims"], "store": tmp_path / "s.sqlite", **kwargs}
    paths = kwargs.pop("paths")
    with pytest.raises(ParameterError) as raised:
        verify(paths, profile="smoke", **kwargs)  # type: ignore[arg-type]
    assert str(raised.value).startswith(f"{parameter}=")
    assert not (tmp_path / "s.sqlite").exists()


# --------------------------------------------------------------------------- 4. stopping


def _wait_for(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


def _start(tmp: Path, *extra: str) -> subprocess.Popen[str]:
    (tmp / "tmp").mkdir(exist_ok=True)  # the run's spool folder goes there (TMPDIR)
    return subprocess.Popen(
        [*FEDTHEORY, *verify_args(tmp, *extra)],
        cwd=tmp,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp / "tmp")},
        start_new_session=True,  # its own process group: killpg is what Ctrl-C sends
    )


def _spooled(tmp: Path) -> int:
    """Replicates the run's workers have finished (lines in its spool folder)."""
    count = 0
    for file in (tmp / "tmp").glob("fedtheory-spool-*/*.jsonl"):
        with contextlib.suppress(OSError):
            count += sum('"replicate"' in line for line in file.read_text().splitlines())
    return count


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "dask"])
def test_first_ctrl_c_stops_within_2s_and_keeps_every_finished_replicate(
    tmp_path: Path, executor: str
) -> None:
    """Before: one Ctrl-C waited for every task in flight (81 s with 20-s experiments) and then
    threw their results away; two gave worker tracebacks and a hang."""
    # two tasks of 6 replicates of 1 s each: nothing finishes as a task before the Ctrl-C
    write_claim(tmp_path / "claims", fixed="sleep=1.0", replicates=6, block=6)
    proc = _start(tmp_path, "--workers", "2", "--executor", executor)
    try:
        _wait_for(lambda: _spooled(tmp_path) >= 2, timeout=120)
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        stopped = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert stopped < 2.0, stopped
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err  # no tracebacks
    kept = rows(tmp_path / "s.sqlite")
    assert kept >= 2  # finished inside tasks that never completed
    assert lines[0].startswith(f"interrupted: {kept} finished replicates kept in ")


@pytest.mark.slow
def test_a_second_ctrl_c_exits_at_once(tmp_path: Path) -> None:
    """While the first Ctrl-C stores what was finished (here: waiting for a store another
    process holds locked), a second one ends the process at once."""
    write_claim(tmp_path / "claims", fixed="sleep=1.0", replicates=6, block=6)
    proc = _start(tmp_path, "--workers", "2")
    store = tmp_path / "s.sqlite"
    try:
        _wait_for(lambda: _spooled(tmp_path) >= 2, timeout=120)
        lock = sqlite3.connect(store, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")  # the runner's store write now waits
        os.killpg(proc.pid, signal.SIGINT)
        time.sleep(1.0)
        assert proc.poll() is None  # still waiting for the store
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
        stopped = time.monotonic() - sent
        lock.execute("ROLLBACK")
        lock.close()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGINT  # ended by the signal: a shell shows 130
    assert stopped < 1.0
    assert "Traceback" not in err


# --------------------------------------------------------------------------- 5. schedulers


@pytest.fixture
def http_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _Talker(socketserver.BaseRequestHandler):
    """A proxy-like endpoint that speaks first, and not Dask."""

    def handle(self) -> None:
        self.request.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")


@pytest.fixture
def talking_proxy() -> Iterator[str]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Talker)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def refused_run_seconds(tmp_path_factory: pytest.TempPathFactory) -> float:
    """Wall time of a verify run refused before any connection (a scheduler address with the
    wrong scheme): the interpreter's start-up, the imports and the refusal, on this machine
    under its load (measured once per module)."""
    tmp = tmp_path_factory.mktemp("startup")
    write_claim(tmp / "claims")
    start = time.monotonic()
    done = run_verify(tmp, "--scheduler", "http://127.0.0.1:8786", timeout=60)
    assert done.returncode == 2
    return time.monotonic() - start


@pytest.mark.parametrize("endpoint", ["http", "proxy", "closed", "garbage", "scheme"])
def test_an_endpoint_that_is_not_a_dask_scheduler_fails_within_5s_with_one_line(
    tmp_path: Path, endpoint: str, request: pytest.FixtureRequest, refused_run_seconds: float
) -> None:
    """Before: an HTTP server hung the run (> 300 s); a proxy gave 'Unable to allocate 3.07
    EiB'. The 5 s are the probe's; the start-up is measured next to the run (a fixed 3 s
    allowance failed on a fresh clone with a cold numba cache and a busy second worker: 8.35 s
    for the HTTP endpoint, whose probe takes the whole 5 s)."""
    startup = refused_run_seconds
    address = {
        "http": lambda: request.getfixturevalue("http_server"),
        "proxy": lambda: request.getfixturevalue("talking_proxy"),
        "closed": _closed_port,
        "garbage": lambda: "tcp://no such host:99999",
        "scheme": lambda: "http://127.0.0.1:8786",
    }[endpoint]()
    write_claim(tmp_path / "claims")
    start = time.monotonic()
    done = run_verify(tmp_path, "--scheduler", address, timeout=60)
    assert time.monotonic() - start < 5.0 + 1.5 * startup + 1.0
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: --scheduler="), (
        done.stderr
    )
    assert rows(tmp_path / "s.sqlite") == 0


def test_the_scheduler_probe_itself_answers_within_its_timeout(http_server: str) -> None:
    from fedtheory.verify.executors import probe_scheduler

    start = time.monotonic()
    with pytest.raises(ParameterError, match="sent no Dask handshake"):
        probe_scheduler(http_server, timeout=1.0)
    assert time.monotonic() - start < 1.5


# --------------------------------------------------------------------------- 6. dying workers


@pytest.mark.slow
@pytest.mark.parametrize("action", ["sigkill", "segfault"])
def test_a_dying_worker_is_an_error_verdict_and_the_run_goes_on(
    tmp_path: Path, action: str
) -> None:
    """Before: a raw BrokenProcessPool traceback and no report."""
    write_claim(tmp_path / "claims", "dies", fixed=f"action={action!r}", replicates=4, block=4)
    write_claim(tmp_path / "claims", "fine", replicates=4, block=2)
    (tmp_path / "armed").touch()
    done = run_verify(tmp_path, "--workers", "2")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "BrokenProcessPool" not in done.stdout
    assert outcomes(tmp_path / "report") == {
        "classic/faults/dies": "error",
        "classic/faults/fine": "holds",
    }, done.stdout
    signal_name = {"sigkill": "SIGKILL", "segfault": "SIGSEGV"}[action]
    message = f"the worker process running it died (killed by {signal_name})"
    assert message in done.stdout
    assert "n=2; replicate 0, seed " in done.stdout
    # the rerun retries the lost task (and nothing else)
    (tmp_path / "armed").unlink()
    again = run_verify(tmp_path, "--workers", "2")
    assert again.returncode == 0, again.stdout
    assert outcomes(tmp_path / "report") == {
        "classic/faults/dies": "holds",
        "classic/faults/fine": "holds",
    }


class _RetryingExecutor(Executor):
    """Answers every task in two pieces, as the local executor does for a task that was lost
    with a broken pool through no fault of its own: first the replicates it finished, marked
    partial, then the others from the retry. Serial, in this process."""

    workers = 1
    description = "retrying, in process"

    def __init__(self) -> None:
        self.pieces: list[tuple[int, int, bool]] = []  # (task, replicates, partial)

    def run(self, tasks, *, timeout=None):
        for task in tasks:
            first, rest = task["replicates"][:1], task["replicates"][1:]
            for replicates, partial in ((first, bool(rest)), (rest, False)):
                if replicates:
                    outcome = run_task({**task, "replicates": replicates})
                    outcome["partial"] = partial
                    self.pieces.append((int(task["task"]), len(replicates), partial))
                    yield outcome

    def abort(self):
        return []


def test_a_claim_is_judged_only_when_its_retried_tasks_have_answered(tmp_path: Path) -> None:
    """Before: a task's partial answer (the replicates finished before its pool broke) counted
    as the task's answer, and the claim was judged before the retry brought the rest: 'error'
    for a claim that holds (seen once in CI, with a worker killed beside it)."""
    write_claim(tmp_path, "fine", replicates=4, block=2)
    executor = _RetryingExecutor()
    judged: list[tuple[str, int]] = []
    run = verify(
        tmp_path,
        profile="smoke",
        executor=executor,
        store=tmp_path / "s.sqlite",
        on_claim=lambda r: judged.append((r.claim.id, len(executor.pieces))),
    )
    assert any(partial for _, _, partial in executor.pieces)
    assert judged == [("classic/faults/fine", len(executor.pieces))]
    assert [r.verdict.outcome for r in run.results] == ["holds"]


@pytest.mark.slow
def test_a_dying_dask_worker_is_an_error_verdict(tmp_path: Path) -> None:
    """Before: a raw KilledWorker traceback and no report."""
    write_claim(tmp_path / "claims", "dies", fixed="action='sigkill'", replicates=2, block=2)
    write_claim(tmp_path / "claims", "fine", replicates=2, block=2)
    (tmp_path / "armed").touch()
    done = run_verify(tmp_path, "--executor", "dask", "--workers", "2", timeout=600)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert outcomes(tmp_path / "report") == {
        "classic/faults/dies": "error",
        "classic/faults/fine": "holds",
    }, done.stdout
    assert "died (KilledWorker)" in done.stdout


# --------------------------------------------------------------------------- 8. fail early


def test_a_report_path_that_is_a_file_fails_before_computing(tmp_path: Path) -> None:
    """Before: a traceback after the whole run, exit 1."""
    write_claim(tmp_path / "claims")
    (tmp_path / "report").write_text("not a folder")
    done = run_verify(tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: --report={str(tmp_path / 'report')!r}: is a file, not a folder"
    ]
    assert rows(tmp_path / "s.sqlite") == 0


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_report_folder_fails_before_computing(tmp_path: Path) -> None:
    write_claim(tmp_path / "claims")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        done = run_verify(tmp_path, "--report", str(locked / "report"))
    finally:
        locked.chmod(0o700)
    assert done.returncode == 2 and done.stderr.startswith("error: --report=")
    assert rows(tmp_path / "s.sqlite") == 0


def test_an_unwritable_report_folder_is_refused_by_the_check(tmp_path: Path) -> None:
    """The same rule without relying on permissions (root ignores them): a path inside a
    file cannot hold a report."""
    from fedtheory.verify.report import check_report_dir

    (tmp_path / "file").write_text("")
    with pytest.raises(ParameterError, match="is inside a file"):
        check_report_dir(tmp_path / "file" / "report")


def test_seed_2_pow_63_fails_before_computing(tmp_path: Path) -> None:
    """Before: everything computed, then OverflowError at the store write."""
    write_claim(tmp_path / "claims")
    done = run_verify(tmp_path, "--seed", str(2**63))
    assert done.returncode == 2
    assert done.stderr.strip() == (f"error: --seed={2**63}: must be an int in [0, 2**63)")
    assert rows(tmp_path / "s.sqlite") == 0


def test_option_validation_does_not_depend_on_what_is_cached(tmp_path: Path) -> None:
    write_claim(tmp_path / "claims")
    assert run_verify(tmp_path).returncode == 0  # everything is cached now
    for option in (["--workers", "0"], ["--scheduler", "not an address"]):
        done = run_verify(tmp_path, *option)
        assert done.returncode == 2 and done.stderr.startswith(f"error: {option[0]}="), option


def test_an_empty_claim_set_exits_5_and_leaves_the_report_alone(tmp_path: Path) -> None:
    (tmp_path / "claims").mkdir()
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "index.html").write_text("previous report")
    done = run_verify(tmp_path)
    assert done.returncode == 5
    assert done.stderr.strip() == (
        "error: no claims found under claims; the previous report is left alone"
    )
    assert (tmp_path / "report" / "index.html").read_text() == "previous report"
    from fedtheory.errors import NoClaimsError

    with pytest.raises(NoClaimsError):
        verify(tmp_path / "claims", store=tmp_path / "s.sqlite")


def test_the_spool_of_a_killed_runner_is_removed_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runner killed by SIGKILL cannot remove its spool folder: the next run does, and only
    the folders of runners that are gone."""
    import tempfile

    from fedtheory.verify._spool import Spool

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    orphan = tmp_path / f"fedtheory-spool-{int(gone.stdout)}-abc"
    orphan.mkdir()
    (orphan / "1.jsonl").write_text("{}\n")
    living = tmp_path / f"fedtheory-spool-{os.getpid()}-def"
    living.mkdir()
    spool = Spool()
    try:
        assert not orphan.exists() and living.exists()
        assert Path(spool.folder).parent == tmp_path
    finally:
        spool.close()
    assert not Path(spool.folder).exists()
