"""Figure scripts: a reproduced paper figure drawn from claims run through the runner and store.

A figure script is a file ``figures/<name>.py`` that defines a module-level ``FIGURE``, a
:class:`FigureScript`. The script never computes data in a loop of its own: it names the claims
of the catalog whose measurements it draws (a glob on claim ids) and a ``draw`` function. Making
the figure runs those claims with :func:`fedtheory.verify.runner.verify` — so every replicate is
cached in the result store, shared with ``fedtheory verify`` and resumed after an interruption —
and hands the judged :class:`~fedtheory.verify.claim.ClaimResult` objects (verdicts *and*
measurements) to ``draw``.

Two ways to make one (the same code path)::

    fedtheory figures make minimax_dichotomy [--docs]
    python figures/minimax_dichotomy.py [--profile full] [--output path.png | --docs]

A figure goes to the report folder (``report/figures/<name>.png``) unless ``--docs`` asks for
the documentation's copy (``docs/figures/<name>.png``, what ``make figures`` refreshes) or
``--output`` names a path. Every PNG carries a small stamp in its lower right corner:
``fedtheory <version> · profile <p> · seed <s>``.

``fedtheory figures list`` shows the available scripts.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fedtheory.errors import FedTheoryError, ParameterError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from fedtheory.verify.claim import ClaimResult
    from fedtheory.verify.executors import Executor

__all__ = ["DEFAULT_FIGURES", "FigureScript", "discover_figures", "main", "make_figure"]

#: Where figure scripts are looked for, relative to the working directory.
DEFAULT_FIGURES = Path("figures")
#: Where made figures go unless told otherwise: beside the verification report.
DEFAULT_OUTPUT = Path("report") / "figures"
#: Where ``docs=True`` (``--docs``) writes them: the figures of the documentation.
DOCS_OUTPUT = Path("docs") / "figures"


@dataclass(frozen=True)
class FigureScript:
    """A figure drawn from the measurements of catalog claims.

    Parameters
    ----------
    name
        File stem of the script (``figures/<name>.py``) and of the PNG it writes.
    title
        One line shown by ``fedtheory figures list``.
    claims
        Glob on claim ids (``*`` also matches ``/``) selecting the claims whose results
        ``draw`` receives.
    draw
        ``draw(results) -> matplotlib Figure`` with ``results`` mapping claim id to its
        :class:`~fedtheory.verify.claim.ClaimResult` (verdict and measurements).
    profile
        Sweep profile used unless the caller chooses another one.
    catalog
        Claim files or folders the claims are discovered in.
    source
        Paper and figure reproduced (shown by ``figures list``).
    """

    name: str
    title: str
    claims: str
    draw: Callable[[Mapping[str, ClaimResult]], Figure] = field(repr=False)
    profile: str = "quick"
    catalog: tuple[str, ...] = ("verification",)
    source: str = ""


def _load(path: Path) -> FigureScript:
    spec = importlib.util.spec_from_file_location(f"_fedtheory_figure_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ParameterError(parameter="figure", value=str(path), rule="must be a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except FedTheoryError:
        raise
    except Exception as exc:
        raise ParameterError(
            f"{path}: loading the figure script failed: {type(exc).__name__}: {exc}"
        ) from exc
    script = getattr(module, "FIGURE", None)
    if not isinstance(script, FigureScript):
        raise ParameterError(f"{path}: a figure script must define FIGURE = FigureScript(...)")
    if script.name != path.stem:
        raise ParameterError(
            parameter="name", value=script.name, rule=f"must equal the file stem {path.stem!r}"
        )
    return script


def discover_figures(folder: str | Path = DEFAULT_FIGURES) -> dict[str, FigureScript]:
    """Load every figure script of ``folder`` (files not starting with ``_`` or ``.``).

    Raises
    ------
    ParameterError
        If the folder does not exist or a script is malformed.
    """
    root = Path(folder)
    if not root.is_dir():
        raise ParameterError(parameter="figures", value=str(root), rule="must be a folder")
    scripts = {}
    for path in sorted(root.glob("*.py")):
        if path.name.startswith(("_", ".")):
            continue
        script = _load(path)
        scripts[script.name] = script
    return scripts


def make_figure(
    script: FigureScript,
    *,
    output: str | Path | None = None,
    profile: str | None = None,
    store: str | Path | None = None,
    executor: str | Executor | None = None,
    workers: int | None = None,
    seed: int = 0,
    catalog: Sequence[str | Path] | None = None,
    docs: bool = False,
) -> Path:
    """Run the claims of ``script`` (cached in the store) and write its PNG.

    Parameters
    ----------
    script
        The figure.
    output
        PNG path (default ``report/figures/<name>.png``, or ``docs/figures/<name>.png`` with
        ``docs``).
    profile
        Sweep profile (default: the script's).
    store, executor, workers, seed
        As for :func:`fedtheory.verify.runner.verify`.
    catalog
        Claim files or folders (default: the script's).
    docs
        Write the documentation's copy, ``docs/figures/<name>.png`` (not with ``output``).

    Returns
    -------
    Path
        Where the figure was written.

    Raises
    ------
    FedTheoryError
        If a claim the figure needs errored: nothing is drawn from incomplete data.
    """
    from fedtheory.plotting import png_bytes, stamp, stamp_text
    from fedtheory.verify.runner import verify
    from fedtheory.verify.store import DEFAULT_STORE

    if docs and output is not None:
        raise ParameterError(
            parameter="output", value=str(output), rule="cannot be combined with docs/--docs"
        )
    profile = profile or script.profile
    run = verify(
        list(catalog if catalog is not None else script.catalog),
        profile=profile,
        claims=script.claims,
        executor=executor,
        workers=workers,
        store=store if store is not None else DEFAULT_STORE,
        seed=seed,
    )
    results = {r.claim.id: r for r in run.results}
    broken = [cid for cid, r in results.items() if r.measurements is None]
    if broken:
        reasons = "; ".join(f"{cid}: {results[cid].verdict.reason}" for cid in broken)
        raise FedTheoryError(f"figure {script.name}: claims without data ({reasons})")
    figure = script.draw(results)
    figure.set_dpi(150)
    stamp(figure, stamp_text(profile, seed))
    if output is not None:
        path = Path(output)
    else:
        path = (DOCS_OUTPUT if docs else DEFAULT_OUTPUT) / f"{script.name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    # the script owns its layout; the PNG is cropped to what is drawn (legends outside the axes
    # and the stamp included)
    path.write_bytes(png_bytes(figure, tight=False))
    return path


def main(script: FigureScript, argv: Sequence[str] | None = None) -> None:
    """Command line of ``python figures/<name>.py``: make the figure and say where it went."""
    parser = argparse.ArgumentParser(description=script.title)
    parser.add_argument("--profile", default=None, help=f"sweep profile (default {script.profile})")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--output", default=None, help="PNG path (default report/figures/NAME.png)")
    where.add_argument(
        "--docs", action="store_true", help="write docs/figures/NAME.png (the docs' copy)"
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--store", default=None, help="result store (default .fedtheory/…)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes")
    args = parser.parse_args(argv)
    try:
        path = make_figure(
            script,
            output=args.output,
            profile=args.profile,
            store=args.store,
            workers=args.workers,
            seed=args.seed,
            docs=args.docs,
        )
    except FedTheoryError as exc:
        sys.stderr.write(f"error: {exc}\n")
        raise SystemExit(2) from None
    sys.stdout.write(f"{path}\n")
