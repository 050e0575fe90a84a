"""The house rules (docs/architecture.md): rooms, doors, no circle, no paper importing another.

The rules and the import graph are those of ``docs/architecture.py`` (which also draws the
picture); these tests apply them to the package and show, on a planted tree, that they catch an
upward arrow, a core module importing a paper, a paper importing another and a circle.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _architecture() -> ModuleType:
    spec = importlib.util.spec_from_file_location("architecture", ROOT / "docs" / "architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["architecture"] = module
    spec.loader.exec_module(module)
    return module


architecture = _architecture()

#: Imports placed inside a function on purpose, with the reason (none may dodge a circle).
LAZY_IMPORTS = {
    # the CLI starts in ~0.2 s: each command imports what it needs (sympy, numba, matplotlib)
    "fedtheory.cli": "start-up time",
    "fedtheory._cli_worstcase": "start-up time",
    "fedtheory._cli_runs": "start-up time",
    "fedtheory._cli_verify": "start-up time",
    "fedtheory._cli_init": "start-up time",
    "fedtheory._cli_explore": "start-up time",
    # a figure script's command imports the runner only when it draws
    "fedtheory.figures": "start-up time",
    # a worker loads claim files by path, once it runs a task
    "fedtheory.verify.executors": "worker start-up",
}


def test_every_module_has_a_room_and_every_room_doors() -> None:
    graph = architecture.import_graph()
    rooms = {architecture.room_of(edge.source) for edge in graph}
    assert rooms <= set(architecture.DOORS)
    assert {"base", "bounds", "problems", "algorithms", "verify", "papers"} <= rooms


def test_no_import_breaks_a_rule() -> None:
    assert architecture.violations(architecture.import_graph()) == []


def test_the_module_graph_has_no_circle() -> None:
    assert architecture.circles(architecture.import_graph()) == []


def test_no_core_module_imports_a_paper() -> None:
    core = {
        "base",
        "bounds",
        "stats",
        "exact",
        "plotting",
        "problems",
        "explore",
        "algorithms",
        "verify",
    }
    offenders = [
        edge
        for edge in architecture.import_graph()
        if architecture.room_of(edge.source) in core
        and architecture.room_of(edge.target) == "papers"
    ]
    assert offenders == []


def test_imports_inside_functions_are_deliberate() -> None:
    lazy = {edge.source for edge in architecture.import_graph() if edge.inside_function}
    assert lazy <= set(LAZY_IMPORTS), sorted(lazy - set(LAZY_IMPORTS))


def _plant(root: Path, files: dict[str, str]) -> Path:
    package = root / "fedtheory"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        for parent in path.parents:
            if parent == root:
                break
            (parent / "__init__.py").touch()
    return package


def test_the_rules_catch_planted_violations(tmp_path: Path) -> None:
    package = _plant(
        tmp_path,
        {
            "errors.py": "",
            "problems/dataset.py": "from fedtheory.verify import runner\n",  # upward
            "algorithms/loop.py": "import fedtheory.papers.minimax.models\n",  # core → paper
            # a paper imports another
            "papers/minimax/models.py": "from fedtheory.papers.fedlrgd import erm\n",
            "papers/fedlrgd/erm.py": "from fedtheory.problems import dataset\n",
            "verify/runner.py": "from fedtheory.verify import report\n",
            "verify/report.py": "from fedtheory.verify import runner\n",  # circle
            # a type-only import is still a door
            "bounds/_bound.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from fedtheory.verify import runner\n",
        },
    )
    graph = architecture.import_graph(package)
    found = architecture.violations(graph)
    assert any("fedtheory.problems.dataset" in v and "'verify'" in v for v in found)
    assert any("fedtheory.algorithms.loop" in v and "'papers'" in v for v in found)
    assert any("paper 'minimax' may not import paper 'fedlrgd'" in v for v in found)
    assert any("fedtheory.bounds._bound" in v and "'verify'" in v for v in found)
    assert architecture.circles(graph) == [["fedtheory.verify.report", "fedtheory.verify.runner"]]


@pytest.mark.parametrize(
    ("module", "room"),
    [
        ("fedtheory", "app"),
        ("fedtheory.papers", "app"),
        ("fedtheory.papers.minimax.clients", "papers"),
        ("fedtheory._jit", "base"),
        ("fedtheory.verify.criteria.rates", "verify"),
        ("fedtheory.problems", "problems"),
        ("fedtheory.explore.page", "explore"),
        ("fedtheory._cli_explore", "app"),
    ],
)
def test_rooms_of_modules(module: str, room: str) -> None:
    assert architecture.room_of(module) == room
