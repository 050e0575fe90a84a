"""The verify experience (issue 17): what a pytest user expects of ``fedtheory verify``.

End to end through the real command line on a small claims file: ``-x``/``--maxfail``,
``--lf``, ``-k``, ``--timeout``, ``--junitxml`` (validated against the JUnit schema CI systems
read), ``--format``, one line per claim outside a terminal, errors that name their file and
line, the command that reruns a counterexample, ``runs list``/``runs diff`` and ``results``
selecting by claim id.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shlex
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from fedtheory.cli import cli
from fedtheory.errors import ParameterError
from fedtheory.verify import report
from fedtheory.verify.selection import escape_glob, keyword_matcher

DATA = Path(__file__).parent / "data"

CLAIMS = """
from __future__ import annotations

import time

import numpy as np

from fedtheory.bounds import Citation
from fedtheory.verify import Claim, Sweep, UpperBoundHolds

FACTOR = {FACTOR}
SLOW = {SLOW}


def mean_square(params, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(int(params["n"]))
    n = params["n"]
    return {{"sq": float(x.mean() ** 2), "bound": FACTOR / n, "loose": 50.0 / n}}


def with_tiny(params, seed):
    return {{**mean_square(params, seed), "tiny": 1e-6 / params["n"]}}


def broken(params, seed):
    value = float(params["n"])
    raise ValueError(f"no good at n={{value}}")  # RAISES


def slow(params, seed):
    time.sleep(SLOW)
    return {{"sq": 0.0, "loose": 1.0}}


def sweeps(replicates=4):
    return {{p: Sweep(grid={{"n": [10, 100]}}, replicates=replicates) for p in ("smoke", "quick")}}


SOURCE = Citation("classic", "verify experience test")
holds = Claim(
    id="classic/toy/holds",
    source=SOURCE,
    statement="E[mean²] = 1/n ≤ 50/n.",
    experiment=mean_square,
    sweeps=sweeps(),
    criterion=UpperBoundHolds("sq", "loose", over="every"),
)
fails = Claim(
    id="classic/toy/fails",
    source=SOURCE,
    statement="E[mean²] ≤ FACTOR/n (false for FACTOR well below 1).",
    experiment=mean_square,
    sweeps=sweeps(8),
    criterion=UpperBoundHolds("sq", "bound", over="every"),
)
erratum = Claim(
    id="classic/toy/erratum",
    source=SOURCE,
    statement="A printed bound of 1e-6/n on mean², an erratum.",
    experiment=with_tiny,
    sweeps=sweeps(),
    criterion=UpperBoundHolds("sq", "tiny", over="every"),
    expect="violated",
)
crashes = Claim(
    id="classic/toy/crashes",
    source=SOURCE,
    statement="An experiment that raises.",
    experiment=broken,
    sweeps=sweeps(1),
    criterion=UpperBoundHolds("sq", "loose", over="every"),
)
sleeps = Claim(
    id="classic/toy/sleeps",
    source=SOURCE,
    statement="An experiment that takes SLOW seconds.",
    experiment=slow,
    sweeps={{p: Sweep(grid={{"n": [1]}}, replicates=1) for p in ("smoke", "quick")}},
    criterion=UpperBoundHolds("sq", "loose", over="every"),
)
"""


def write_claims(folder: Path, *, factor: float = 0.01, slow: float = 0.0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "toy_claims.py"
    path.write_text(textwrap.dedent(CLAIMS.format(FACTOR=repr(factor), SLOW=repr(slow))))
    return path


@dataclasses.dataclass
class Done:
    """What a command printed and returned (the fields of ``subprocess.CompletedProcess``)."""

    returncode: int
    stdout: str
    stderr: str


def run(tmp_path: Path, *args: str) -> Done:
    """``fedtheory ARGS`` in ``tmp_path``, in this process (click's runner: the real command,
    its exit code and both streams, without paying a Python start-up per call)."""
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "160"})
    with contextlib.chdir(tmp_path):
        result = runner.invoke(cli, list(args), catch_exceptions=False)
    return Done(result.exit_code, result.stdout, result.stderr)


def verify(tmp_path: Path, *extra: str, claims: str = "claims") -> Done:
    return run(
        tmp_path,
        "verify",
        claims,
        "--profile",
        "smoke",
        "--workers",
        "1",
        "--store",
        "store.sqlite",
        "--report",
        "report",
        *extra,
    )


def test_keyword_expressions_follow_pytest() -> None:
    match = keyword_matcher("toy and not (fails or crash)")
    assert match("classic/toy/holds") and not match("classic/toy/fails")
    assert not match("classic/toy/crashes") and not match("minimax/x/y")
    assert keyword_matcher("classic/*/holds")("classic/toy/holds")
    assert not keyword_matcher("classic/*/holds")("classic/toy/holds2")
    assert keyword_matcher("HOLDS")("classic/toy/holds")  # case-insensitive substrings
    for bad in ("", "toy and", "(toy", "toy)", "and toy", "not"):
        with pytest.raises(ParameterError, match="-k"):
            keyword_matcher(bad)
    assert escape_glob("a/[b]*") == "a/[[]b][*]"


@pytest.mark.slow
def test_lines_per_claim_junit_json_where_and_replay(tmp_path: Path) -> None:
    xmlschema = pytest.importorskip("xmlschema")
    claims_file = write_claims(tmp_path / "claims")
    done = verify(tmp_path, "--junitxml", "out.xml", "--claims", "classic/toy/[hfec]*")
    assert done.returncode == 1, done.stderr
    # outside a terminal: one line per judged claim on stderr (mark, outcome, id, time)
    lines = [line for line in done.stderr.splitlines() if "classic/toy/" in line]
    assert {line.split()[2] for line in lines} == {
        "classic/toy/holds",
        "classic/toy/fails",
        "classic/toy/erratum",
        "classic/toy/crashes",
    }
    assert any(line.startswith("✗ violated") and "toy/fails" in line for line in lines)
    assert any(line.startswith("✓ erratum") and "toy/erratum" in line for line in lines)
    # the error names the claim file and the line that raised
    line = 1 + claims_file.read_text().splitlines().index(
        '    raise ValueError(f"no good at n={value}")  # RAISES'
    )
    assert f"at {claims_file}:{line}" in done.stdout
    # the JUnit file validates against the schema of Jenkins' xUnit plug-in, as CI reads it
    schema = xmlschema.XMLSchema(str(DATA / "junit-ci.xsd"))
    schema.validate(str(tmp_path / "out.xml"))
    document = schema.to_dict(str(tmp_path / "out.xml"))
    suite = document["testsuite"][0]
    assert (suite["@tests"], suite["@failures"], suite["@errors"]) == (4, 1, 1)
    # every violated claim comes with the command that reruns its counterexample
    commands = [line.strip() for line in done.stdout.splitlines() if "fedtheory replay" in line]
    assert len(commands) == 2  # the failed claim and the erratum
    replay = next(c for c in commands if "classic/toy/fails" in c)
    argv = shlex.split(replay)[1:]  # without the leading `fedtheory`
    replayed = run(tmp_path, *argv)
    assert replayed.returncode == 0, replayed.stderr
    doc = json.loads((tmp_path / "report" / "verdicts.json").read_text())
    example = next(c for c in doc["claims"] if c["id"] == "classic/toy/fails")["verdict"]
    measured = example["counterexample"]
    assert f"sq    = {measured['measured']!r}" in replayed.stdout or repr(
        measured["measured"]
    ) in replayed.stdout.replace(" ", "")
    # --format json: stdout is the verdicts document, nothing else
    as_json = verify(tmp_path, "--format", "json", "-k", "holds")
    assert as_json.returncode == 0, as_json.stderr
    parsed = json.loads(as_json.stdout)
    assert [c["id"] for c in parsed["claims"]] == ["classic/toy/holds"]


@pytest.mark.slow
def test_exitfirst_maxfail_and_last_failed(tmp_path: Path) -> None:
    write_claims(tmp_path / "claims")
    first = verify(tmp_path, "-x", "-k", "not sleeps")
    assert first.returncode == 1
    assert "stopped after 1 failure(s)" in first.stdout
    judged = [line for line in first.stderr.splitlines() if "classic/toy/" in line]
    assert sum(line.startswith("✗") for line in judged) == 1  # nothing judged after it
    full = verify(tmp_path, "-k", "not sleeps", "--maxfail", "5")
    assert full.returncode == 1 and "stopped" not in full.stdout
    # --lf: only the two claims that failed in the last run
    again = verify(tmp_path, "--lf")
    assert "rerunning the 2 claim(s) that failed last time" in again.stderr
    ran = {line.split()[2] for line in again.stderr.splitlines() if "classic/toy/" in line}
    assert ran == {"classic/toy/fails", "classic/toy/crashes"}
    # bad input: one line, exit 2
    bad = verify(tmp_path, "-x", "--maxfail", "3")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


@pytest.mark.slow
def test_timeout_stops_a_claim_and_keeps_the_others(tmp_path: Path) -> None:
    write_claims(tmp_path / "claims", slow=30.0)
    start = time.monotonic()
    done = verify(tmp_path, "--timeout", "2", "-k", "sleeps or holds")
    elapsed = time.monotonic() - start
    assert elapsed < 25, elapsed
    assert done.returncode == 1
    doc = json.loads((tmp_path / "report" / "verdicts.json").read_text())
    outcomes = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert outcomes["classic/toy/holds"]["outcome"] == "holds"
    assert outcomes["classic/toy/sleeps"]["outcome"] == "error"
    assert "TimeoutError" in outcomes["classic/toy/sleeps"]["reason"]
    bad = verify(tmp_path, "--timeout", "-1")
    assert bad.returncode == 2 and "--timeout" in bad.stderr


@pytest.mark.slow
def test_runs_are_kept_and_diffed(tmp_path: Path) -> None:
    write_claims(tmp_path / "claims", factor=0.01)
    assert verify(tmp_path, "-k", "holds or fails").returncode == 1
    write_claims(tmp_path / "claims", factor=100.0)  # the false bound becomes true
    assert verify(tmp_path, "-k", "holds or fails").returncode == 0
    listed = run(tmp_path, "runs", "list", "--store", "store.sqlite")
    assert listed.returncode == 0, listed.stderr
    assert " 1 " in listed.stdout and " 2 " in listed.stdout
    diff = run(tmp_path, "runs", "diff", "1", "2", "--store", "store.sqlite")
    assert diff.returncode == 0, diff.stderr
    assert "classic/toy/fails" in diff.stdout and "1 flipped" in diff.stdout
    assert "classic/toy/holds" not in diff.stdout.split("flipped")[0]


@pytest.mark.slow
def test_results_select_by_claim_id(tmp_path: Path) -> None:
    write_claims(tmp_path / "claims")
    verify(tmp_path, "-k", "holds or erratum")
    args = ["--store", "store.sqlite", "--catalog", "claims"]
    listed = run(tmp_path, "results", "list", "--claims", "classic/toy/holds", *args)
    assert listed.returncode == 0, listed.stderr
    assert "classic/toy/holds" in listed.stdout and "erratum" not in listed.stdout
    cleared = run(tmp_path, "results", "clear", "--claims", "classic/toy/erratum", "--yes", *args)
    assert cleared.returncode == 0, cleared.stderr
    assert "deleted 8 replicates" in cleared.stdout
    missing = run(tmp_path, "results", "clear", "--claims", "classic/nope/*", "--yes", *args)
    assert missing.returncode == 2 and "matches none of the claims" in missing.stderr


def _toy_experiment(params: dict, seed: int) -> dict:
    return {"a": 1.0, "b": 2.0}


def _result(claim_id: str, outcome: str = "holds", expect: str = "holds") -> object:
    from fedtheory.bounds import Citation
    from fedtheory.verify import Claim, ClaimResult, Sweep, UpperBoundHolds, Verdict

    claim = Claim(
        id=claim_id,
        source=Citation("classic", "width test, a citation long enough to need wrapping " * 2),
        statement="s",
        experiment=_toy_experiment,
        sweeps={p: Sweep(grid={"n": [1]}, replicates=2) for p in ("smoke", "quick")},
        criterion=UpperBoundHolds("a", "b"),
        expect=expect,
    )
    verdict = Verdict(
        outcome,
        "because",
        predicted="a ≤ 0.5·n^{-1} for every n in the sweep " * 3,
        measured="max ratio 0.9133 at n = 1000 (slack ×1.09) " * 3,
        ci=(0.91, 0.95),
        numbers={"resolving_power": 880.0},  # a ⚠ line under the measured value
    )
    return ClaimResult(claim, "quick", verdict, 1, 1, 0, 1, 0.1)


@pytest.mark.parametrize("width", [80, 100, 200])
def test_the_table_fits_and_keeps_ids_outcome_and_pass(width: int) -> None:
    import io

    results = [
        _result("classic/a-rather-long-claim-identifier/sqrt-m-over-n-rate"),
        _result("classic/short/erratum", "violated", "violated"),
    ]
    out = io.StringIO()
    # as the CLI's console: soft wrap on (commands and ids are never broken)
    console = Console(file=out, width=width, force_terminal=False, soft_wrap=True)
    report.render_table(results, console)
    text = out.getvalue()
    table = text.split("rerun a counterexample:")[0]  # commands are never wrapped: copyable
    assert max(len(line) for line in table.splitlines()) <= width
    assert "…" not in table  # no cell cut
    assert table.splitlines()[0].rstrip().endswith("pass")  # not cropped at the right edge
    for result in results:
        assert result.claim.id in text  # whole, on one line: pasteable into --claims
    assert "holds" in text and "violated" in text and "✓" in text
    columns = report.terminal.table_columns(results, console)
    assert {"claim", "outcome", "pass"} <= set(columns)
    if width >= 200:
        assert set(columns) == set(report.terminal.COLUMNS)
    dropped = [c for c in report.terminal.DROP_ORDER if c not in columns]
    assert dropped == list(report.terminal.DROP_ORDER[: len(dropped)])  # in the stated order
