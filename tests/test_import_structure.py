"""How the symbolic layer and the statistics are put together: circle-free imports, no numba.

DESIGN §1: dependencies point one way, downward, and ``bounds`` depend on sympy alone (never
numba). The module graph of ``fedtheory.bounds`` and ``fedtheory.stats`` is read from the source
(imports executed when a module is loaded; imports under ``if TYPE_CHECKING:`` are for the type
checker only) and must have no circle, without imports hidden inside functions to dodge one.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fedtheory

PACKAGE = Path(fedtheory.__file__).parent
LAYERS = ("bounds", "stats")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(layer: str) -> dict[str, ast.Module]:
    return {
        _module_name(path): ast.parse(path.read_text())
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    }


def _is_type_checking_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in (
        "TYPE_CHECKING",
        "typing.TYPE_CHECKING",
    )


def _load_time_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module is loaded: module level, outside ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, (ast.If, ast.Try)) and not _is_type_checking_block(node):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    pending.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
    return found


def _targets(node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The modules of ``known`` that an import statement loads (``from pkg import submodule``
    loads the submodule)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & known
    module = node.module or ""
    targets = {f"{module}.{alias.name}" for alias in node.names} & known
    return targets or ({module} & known)


def _graph(layer: str) -> dict[str, set[str]]:
    modules = _modules(layer)
    known = set(modules)
    return {
        name: set().union(*(_targets(node, known) for node in _load_time_imports(tree))) - {name}
        for name, tree in modules.items()
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    return cycles


def test_cycle_finder_finds_a_circle() -> None:
    """The checker below can fail: a two-module circle is reported."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x.y\nimport x.z\n"
    names = {ast.unparse(n) for n in _load_time_imports(ast.parse(source))}
    assert names == {"import x.z", "from typing import TYPE_CHECKING"}


@pytest.mark.parametrize("layer", LAYERS)
def test_module_graph_has_no_circle(layer: str) -> None:
    graph = _graph(layer)
    assert len(graph) > 3
    assert _cycles(graph) == []


def test_bound_core_imports_its_analysis_not_the_reverse() -> None:
    """The exponent (``_analysis``) and the crossover (``_crossover``) read a bound through the
    protocol of ``_analysis_common``; none of them, nor the leading terms, imports the core."""
    graph = _graph("bounds")
    for analysis in ("_analysis", "_crossover"):
        assert f"fedtheory.bounds.{analysis}" in graph["fedtheory.bounds._bound"]
        assert "fedtheory.bounds._analysis_common" in graph[f"fedtheory.bounds.{analysis}"]
    for module in ("_analysis", "_crossover", "_analysis_common", "_leading"):
        assert "fedtheory.bounds._bound" not in graph[f"fedtheory.bounds.{module}"]
    shared = "fedtheory.bounds._expressions"
    assert shared in graph["fedtheory.bounds._bound"]
    assert shared in graph["fedtheory.bounds._analysis_common"]


@pytest.mark.parametrize("layer", LAYERS)
def test_no_import_inside_functions(layer: str) -> None:
    """No fedtheory import is deferred into a function (the way a circle is usually dodged)."""
    offenders = []
    for name, tree in _modules(layer).items():
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fedtheory"):
                    offenders.append(f"{name}:{node.lineno}")
                if isinstance(node, ast.Import) and any(
                    alias.name.startswith("fedtheory") for alias in node.names
                ):
                    offenders.append(f"{name}:{node.lineno}")
    assert offenders == []


def _loaded_modules_after(code: str) -> set[str]:
    script = textwrap.dedent(code) + "\nimport sys\nprint('\\n'.join(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    )
    return set(done.stdout.split())


def test_bounds_never_import_numba() -> None:
    """Importing and using the symbolic layer (evaluation, exponents, crossovers) loads sympy and
    no numba (DESIGN §2: bounds are sympy only)."""
    loaded = _loaded_modules_after(
        """
        import fedtheory.bounds as bounds
        gd = bounds.get("classic.gd.strongly-convex")
        gd.evaluate(L=10, mu=1, T=[10, 20], Delta0=1)
        assert gd.exponent("Delta0").power == 1
        sgd = bounds.get("classic.sgd.strongly-convex.distance")
        sgd.crossover(bounds.get("classic.gd.strongly-convex.distance"), "T",
                      G2=1, mu=1, L=10, D0=100)
        """
    )
    assert "fedtheory.bounds" in loaded and "sympy" in loaded
    assert not {m for m in loaded if m == "numba" or m.startswith("numba.")}
    assert not {m for m in loaded if m.startswith(("fedtheory.algorithms", "fedtheory._jit"))}


def test_a_numba_import_would_be_seen() -> None:
    """The check above can fail: the same probe sees numba once the algorithms are imported."""
    assert "numba" in _loaded_modules_after("import fedtheory.bounds, fedtheory.algorithms")


def test_the_command_line_starts_without_the_heavy_libraries() -> None:
    """``fedtheory --help`` (and every option check before a command runs) loads neither
    sympy, scipy, matplotlib nor numba: ``fedtheory.verify`` imports its names on first use
    (2.6 s -> 0.6 s to print the help, issue 19)."""
    loaded = _loaded_modules_after(
        """
        import fedtheory.cli
        from fedtheory.verify.store import ResultStore
        from fedtheory.verify.sweep import PROFILES
        """
    )
    heavy = {"sympy", "scipy", "matplotlib", "numba", "cvxpy"}
    assert not {m for m in loaded if m.split(".")[0] in heavy}
    assert "fedtheory.verify.claim" not in loaded


def test_the_public_names_of_the_engine_are_there_on_first_use() -> None:
    """The names ``fedtheory.verify`` exports come from their modules when first asked for."""
    loaded = _loaded_modules_after(
        """
        import fedtheory.verify as v
        assert set(v.__all__) <= set(dir(v))
        from fedtheory.verify import Claim, verify
        assert Claim.__module__ == "fedtheory.verify.claim" and verify is v.verify
        """
    )
    assert "fedtheory.verify.claim" in loaded and "fedtheory.verify.runner" in loaded


PAPERS = ("classic", "fedlrgd", "ffgb", "fzoos", "gifair", "minimax")
PAPER_MODULES = {f"fedtheory.bounds.{key}" for key in PAPERS}


def test_a_bound_lookup_imports_only_its_papers_module() -> None:
    """The registry imports a built-in paper's module, ``fedtheory.bounds.<key>``, when one of
    its bounds is first asked for (a claim file or a worker that needs one paper does not build
    the other papers' expressions: ``fedtheory verify`` of a one-claim file 2.7 -> 1.7 s of CPU,
    issue 19); a listing, an unknown id and a module attribute load what they need."""
    loaded = _loaded_modules_after(
        """
        import fedtheory.bounds as bounds
        from fedtheory.verify import Claim
        assert bounds.get("minimax.cor9.aer").paper == "minimax"
        assert all(i.startswith("minimax.") for i in bounds.ids("minimax"))
        """
    )
    assert PAPER_MODULES & loaded == {"fedtheory.bounds.minimax"}
    assert "scipy.stats" not in loaded
    everything = _loaded_modules_after(
        """
        import fedtheory.bounds as bounds
        assert {i.split(".")[0] for i in bounds.ids()} == set(bounds.BUILTIN_PAPERS)
        """
    )
    assert everything >= PAPER_MODULES
    hinted = _loaded_modules_after(
        """
        import fedtheory.bounds as bounds
        from fedtheory.errors import ParameterError
        try:
            bounds.get("gifair.thm8")
        except ParameterError as error:
            assert "gifair.thm86" in str(error), error
        else:
            raise AssertionError("no error")
        assert bounds.fzoos.__name__ == "fedtheory.bounds.fzoos"
        """
    )
    assert hinted >= PAPER_MODULES


def test_importing_a_papers_module_is_nobodys_use_of_its_bounds() -> None:
    """A paper's module evaluates its bounds while it builds them; imported on first need, it
    may be imported while a claim file is loaded (whose evaluations must be what its claims
    declare) — through the registry or directly: neither records anything."""
    loaded = _loaded_modules_after(
        """
        from fedtheory.bounds import get
        from fedtheory.bounds._usage import recording
        with recording() as used:
            from fedtheory.bounds.fzoos import theorem_c1_sequences
            gd = get("minimax.thm4")
        assert used == set(), used
        with recording() as used:
            gd.expr
        assert used == {"minimax.thm4"}, used
        """
    )
    assert {"fedtheory.bounds.fzoos", "fedtheory.bounds.minimax"} <= loaded


@pytest.mark.parametrize(
    "option",
    [
        ["--seed", "-1"],
        ["--workers", "0"],
        ["--profile", "nope"],
        ["--maxfail", "0"],
        ["--timeout", "5", "--executor", "dask"],
        ["--scheduler", "not an address"],
    ],
)
def test_a_bad_verify_option_is_refused_before_the_engine_is_imported(
    option: list[str], tmp_path: Path
) -> None:
    """``fedtheory verify`` checks the runner's options before importing the runner (claims,
    criteria, sympy, matplotlib, numba: about a second of CPU), so that a bad option costs a
    fifth of a second (1.1–1.4 s before); the message is the runner's own."""
    loaded = _loaded_modules_after(
        f"""
        from fedtheory.cli import main
        try:
            main(["verify", {str(tmp_path)!r}, "--report", {str(tmp_path / "r")!r}, *{option!r}])
        except SystemExit as exit:
            assert exit.code == 2, exit.code
        """
    )
    heavy = {"fedtheory.verify.runner", "fedtheory.verify.report", "sympy", "matplotlib", "numba"}
    assert not heavy & loaded
