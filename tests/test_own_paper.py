"""A paper of your own, as a user would do it: ``fedtheory init``, verify, mutate, edit, verify.

The end-to-end test runs the installed command line in subprocesses on a scaffold written to a
temporary folder, with no edit of the fedtheory package: the scaffolded claims hold, the
mutation analysis kills the mutants of the example theorem, and editing the user's bounds
module (a helper the claim file imports) changes the code fingerprint, so the next run
recomputes and judges the claims against the edited (now wrong) theorem. The other tests check
``register_paper`` and the discovery of helper modules in-process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import sympy as sp

import fedtheory
from fedtheory import bounds
from fedtheory.bounds import COMMON, Bound, Citation, Paper, register, register_paper
from fedtheory.bounds._bound import _REGISTERED_IN, _REGISTRY
from fedtheory.bounds._citation import _DECLARED_IN, PAPERS
from fedtheory.errors import ParameterError
from fedtheory.scaffold import scaffold, scaffold_files
from fedtheory.verify.discovery import discover

FEDTHEORY = [sys.executable, "-m", "fedtheory.cli"]
#: the subprocesses import this fedtheory (the checkout under test), whatever is installed
_ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(
        [str(Path(fedtheory.__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]
    ),
}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FEDTHEORY, *args], cwd=cwd, env=_ENV, capture_output=True, text=True, timeout=180
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_init_verify_mutate_and_an_edited_theorem(tmp_path: Path) -> None:
    project = tmp_path / "project"
    done = cli("init", "mypaper", "--dir", str(project), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    claims = project / "claims"
    for name in scaffold_files("mypaper"):
        assert (project / name).is_file(), name

    # bad input: one line, exit 2, nothing written
    assert "already holds" in one_line_error(
        cli("init", "mypaper", "--dir", str(project), cwd=tmp_path)
    )
    assert "built-in paper" in one_line_error(cli("init", "classic", "--dir", "x", cwd=tmp_path))
    assert "paper key" in one_line_error(cli("init", "My-Paper", "--dir", "y", cwd=tmp_path))
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()

    store, report = tmp_path / "results.sqlite", tmp_path / "report"
    verify = ("verify", "claims", "--profile", "smoke", "--store", str(store))
    done = cli(*verify, "--report", str(report), cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("mypaper/thm1/")]
    assert len(rows) == 2 and all("holds" in r and "✓" in r for r in rows), done.stdout
    first = json.loads((report / "verdicts.json").read_text())
    assert {c["status"] for c in first["claims"]} == {"holds"}
    assert first["run"]["replicates_computed"] > 0

    # the bounds command sees the user's bounds once it loads the claims
    done = cli("bounds", "--load", "claims", "list", "--paper", "mypaper", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "mypaper.thm1" in done.stdout and "1 bound" in done.stdout
    assert "unknown paper" in one_line_error(
        cli("bounds", "list", "--paper", "mypaper", cwd=project)
    )

    # mutation analysis of the user's bound: the tight claim kills every mutant
    done = cli(
        "mutate", "claims", "--paper", "mypaper", "--store", str(store),
        "--report", str(tmp_path / "mutation"), cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    mutation = json.loads((tmp_path / "mutation" / "mutation.json").read_text())
    [thm1] = mutation["bounds"]
    assert thm1["bound"] == "mypaper.thm1"
    fates = [m["fate"] for m in thm1["mutants"]]
    assert fates.count("killed") >= 8 and "survived" not in fates, fates
    labels = {m["label"]: m["fate"] for m in thm1["mutants"]}
    assert labels["constant 2 ÷2 (→ 1)"] == "killed", labels  # (1 − μ/L)^T: the general rate
    assert mutation["scores"]["mypaper"]["score"] == 1.0
    assert "unknown paper key" in one_line_error(
        cli("mutate", "claims", "--paper", "nopaper", "--store", str(store), cwd=project)
    )

    # a wrong theorem in the user's module: the fingerprint changes, the claims are judged anew
    module = claims / "mypaper_bounds.py"
    text = module.read_text()
    assert text.count("(1 - mu / L) ** (2 * T) * Delta0") == 1
    module.write_text(text.replace("(1 - mu / L) ** (2 * T)", "(1 - mu / L) ** (3 * T)"))
    done = cli(*verify, "--report", str(report), cwd=project)
    assert done.returncode == 1, done.stdout + done.stderr
    second = json.loads((report / "verdicts.json").read_text())
    assert {c["status"] for c in second["claims"]} == {"failed"}
    assert {c["verdict"]["outcome"] for c in second["claims"]} == {"violated"}
    assert second["run"]["replicates_computed"] == first["run"]["replicates_computed"]
    assert second["run"]["replicates_cached"] == 0


# ------------------------------------------------------------------------- in-process checks
@pytest.fixture
def forget_user_papers() -> Iterator[None]:
    """Remove the papers and bounds a test registers (the registry is process-wide)."""
    bounds.ids()  # the built-in papers' bounds first: they are imported on first need
    saved_state = [(d, dict(d)) for d in (PAPERS, _DECLARED_IN, _REGISTRY, _REGISTERED_IN)]
    yield
    for target, saved in saved_state:
        target.clear()
        target.update(saved)  # type: ignore[arg-type]


def _bound_of(key: str, power: int = 1) -> Bound:
    L, T = COMMON.symbol("L"), COMMON.symbol("T")
    return Bound(
        f"{key}.rate",
        L / (T + 1) ** power,
        kind="upper",
        source=Citation(key, "Theorem 1"),
        quantity="error",
        example={"L": 1, "T": 3},
    )


@pytest.mark.usefixtures("forget_user_papers")
def test_register_paper_rules() -> None:
    paper = register_paper("ownpaper1", authors="A. Author", title="A title", reference="2025")
    assert bounds.PAPERS["ownpaper1"] is paper
    # the same declaration again (a second load, a worker): the same object, no error
    assert (
        register_paper("ownpaper1", authors="A. Author", title="A title", reference="2025") is paper
    )
    assert register_paper(Paper("ownpaper1", "A. Author", "A title", "2025")) is paper
    assert str(Citation("ownpaper1", "Theorem 1").full).startswith("A. Author, “A title”")
    for key, rule in (
        ("classic", "built-in paper"),
        ("minimax", "built-in paper"),
        ("My", "lowercase letter"),
        ("my_paper", "lowercase letter"),
        ("2fast", "lowercase letter"),
        (3, "lowercase letter"),
    ):
        with pytest.raises(ParameterError, match=rule) as caught:
            register_paper(key, authors="A", title="T")  # type: ignore[arg-type]
        assert caught.value.parameter == "key" and caught.value.value == key
    with pytest.raises(ParameterError, match="authors"):
        register_paper("ownpaper2", authors="", title="T")
    with pytest.raises(ParameterError, match="unknown paper"):
        Citation("ownpaper3", "Theorem 1")


@pytest.mark.usefixtures("forget_user_papers")
def test_another_module_cannot_redeclare_a_paper_or_its_bounds(tmp_path: Path) -> None:
    # this module declares the paper and its bound; a re-declaration from here replaces them
    register_paper("ownpaper4", authors="A", title="T")
    first = register(_bound_of("ownpaper4"))
    assert register_paper("ownpaper4", authors="A", title="T, corrected").title == "T, corrected"
    second = register(_bound_of("ownpaper4", power=2))
    assert bounds.get("ownpaper4.rate") is second is not first
    # another module may neither declare the paper differently nor replace the bound
    other = tmp_path / "other_module.py"
    other.write_text(
        "from fedtheory.bounds import register, register_paper\n"
        "def paper():\n    register_paper('ownpaper4', authors='B', title='T')\n"
        "def bound(b):\n    register(b)\n"
    )
    namespace: dict[str, object] = {"__name__": "other_module", "__file__": str(other)}
    exec(compile(other.read_text(), str(other), "exec"), namespace)
    with pytest.raises(ParameterError, match="already declared"):
        namespace["paper"]()  # type: ignore[operator]
    with pytest.raises(ParameterError, match="already registered"):
        namespace["bound"](_bound_of("ownpaper4", power=3))  # type: ignore[operator]
    # a built-in paper's bound is never replaced
    with pytest.raises(ParameterError, match="already registered"):
        L = COMMON.symbol("L")
        register(
            Bound(
                "classic.gd.strongly-convex",
                L,
                kind="upper",
                source=Citation("classic", "x"),
                quantity="q",
                example={"L": 1},
            )
        )
    assert sp.srepr(bounds.get("classic.gd.strongly-convex").expr) != sp.srepr(COMMON.symbol("L"))


@pytest.mark.usefixtures("forget_user_papers")
def test_a_helper_module_next_to_the_claims_is_imported_not_collected(tmp_path: Path) -> None:
    written = scaffold("ownpaper5", tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in written] == list(
        scaffold_files("ownpaper5")
    )
    loaded = discover([tmp_path / "claims"])
    assert [c.claim.id for c in loaded] == ["ownpaper5/thm1/holds", "ownpaper5/thm1/tight"]
    assert {c.file.name for c in loaded} == {"ownpaper5_thm1.py"}  # the helper is no claim file
    helper = str((tmp_path / "claims" / "ownpaper5_bounds.py").resolve())
    assert helper in loaded[0].code.as_dict()  # the fingerprint covers it
    assert loaded[0].claim.bound is bounds.get("ownpaper5.thm1")
    with pytest.raises(ParameterError, match="already holds"):
        scaffold("ownpaper5", tmp_path)


def test_a_fresh_worker_runs_a_mutant_task_of_a_user_bound(tmp_path: Path) -> None:
    """A Dask worker imports nothing before its first task: the task's claim file must be
    loaded (registering the user's bound) before the mutant it names is remade."""
    scaffold("ownpaper6", tmp_path)
    code = f"""
import json
from fedtheory.bounds import get
from fedtheory.bounds.mutation import mutants
from fedtheory.verify.discovery import discover
[loaded, _] = discover([{str(tmp_path / "claims")!r}])
task = {{"file": str(loaded.file), "claim": loaded.claim.id, "code": loaded.code.as_dict(),
        "params": {{"L": 4.0, "T": 5, "mu": 0.5, "d": 5}}, "replicates": [[0, 123]],
        "mutant": mutants(get("ownpaper6.thm1"))[0].to_dict()}}
print(json.dumps(task))
"""
    planned = subprocess.run(
        [sys.executable, "-c", code], env=_ENV, capture_output=True, text=True, timeout=120
    )
    assert planned.returncode == 0, planned.stderr
    # a fresh interpreter that has loaded nothing: run_task alone
    worker = """
import json, sys
from fedtheory.verify.executors import run_task
print(json.dumps(run_task(json.loads(sys.argv[1]))))
"""
    done = subprocess.run(
        [sys.executable, "-c", worker, planned.stdout.strip()],
        env=_ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["error"] is None, outcome["error"]
    assert len(outcome["results"]) == 1 and outcome["results"][0]["outputs"]["gap"] > 0
