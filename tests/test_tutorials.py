"""The course notebooks of ``docs/tutorials/``: stored without outputs, and executed end to end.

Each notebook is a lesson whose ``assert`` lines state what it teaches (the FedAvg/local
crossing exists and scales like 1/√n, Theorem 1 holds on smooth kernels, the erratum of Lemma 7
is violated, …), so executing it is a test. It runs in a kernel of this very interpreter (the
native ipykernel spec, never a ``python3`` kernelspec found elsewhere on the machine), with the
notebook's folder as working directory, and must leave that folder as it found it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from traitlets import default

import fedtheory

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = ROOT / "docs" / "tutorials"
NOTEBOOKS = sorted(TUTORIALS.glob("*.ipynb"))
#: Seconds a cell may take (the longest takes a few seconds on 2 cores).
CELL_TIMEOUT = 120
PROBE = "import sys, fedtheory\nprint(sys.executable)\nprint(fedtheory.__file__)"


def test_the_three_lessons_are_there() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_fedavg_vs_local.ipynb",
        "02_smoothness_low_rank.ipynb",
        "03_checking_a_theorem.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    nbformat.validate(notebook)
    assert notebook.nbformat == 4
    assert notebook.metadata.kernelspec.name == "python3"
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.outputs == [] and cell.execution_count is None for cell in code)
    assert all("execution" not in cell.metadata for cell in notebook.cells)
    # a lesson: text to teach from, and at least one fact it asserts
    assert sum(cell.cell_type == "markdown" for cell in notebook.cells) >= len(code) // 2
    assert any("assert " in cell.source for cell in code)


class ThisInterpreter(AsyncKernelManager):
    """Kernels of this interpreter: only the native spec (ipykernel's own, whose argv is
    ``sys.executable -m ipykernel_launcher``), not the kernel folders on the search path, where
    a ``python3`` kernel of another environment may be found first."""

    @default("kernel_spec_manager")
    def _native_kernel_only(self) -> KernelSpecManager:
        return KernelSpecManager(kernel_dirs=[], ensure_native_kernel=True)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_end_to_end(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    before = sorted(p.relative_to(TUTORIALS) for p in TUTORIALS.rglob("*"))
    client = NotebookClient(
        notebook,
        kernel_manager_class=ThisInterpreter,
        kernel_name="python3",
        timeout=CELL_TIMEOUT,
        startup_timeout=60,
        resources={"metadata": {"path": str(TUTORIALS)}},
    )
    # the kernel imports the fedtheory under test, whatever the working folder (a relative
    # PYTHONPATH such as ``.`` would point into docs/tutorials there)
    package_root = str(Path(fedtheory.__file__).resolve().parents[1])
    path_entries = [package_root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path_entries)}
    client.execute(env=env)  # raises CellExecutionError, with the traceback, if a cell fails
    executable, package = notebook.cells[-1].outputs[0]["text"].split()
    assert Path(executable) == Path(sys.executable)
    assert Path(package).resolve() == Path(fedtheory.__file__).resolve()
    # every code cell ran, and the lesson wrote nothing next to itself (stores are temporary)
    assert all(cell.execution_count for cell in notebook.cells if cell.cell_type == "code")
    assert sorted(p.relative_to(TUTORIALS) for p in TUTORIALS.rglob("*")) == before
