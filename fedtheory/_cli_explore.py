"""``fedtheory explore ID [ID ...]``: write the bound explorer page (:mod:`fedtheory.explore`).

Built by :func:`explore_command` from the CLI's shared plumbing (passed in, so that this module
does not import :mod:`fedtheory.cli`, which registers it). Examples::

    fedtheory explore minimax.gmq.plt minimax.gmq.fedavg --axis R --flat
    fedtheory explore fedlrgd.thm3 fedlrgd.fedgd --axis epsilon -o fedlrgd.html
    fedtheory explore minimax.gmq.fedavg minimax.gmq.fedprox.tuned --tie N=m*n --value d=10
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

__all__ = ["DEFAULT_OUTPUT", "explore_command"]

#: Where the page goes without ``-o``: in the working directory.
DEFAULT_OUTPUT = "explore.html"


def explore_command(
    *,
    console: Callable[[], Any],
    fail: Callable[[str], NoReturn],
    parse_pairs: Callable[[Sequence[str]], dict[str, list[int | float]]],
) -> click.Command:
    """The ``explore`` command (errors become one line and exit 2 through the CLI's group)."""

    @click.command("explore")
    @click.argument("ids", nargs=-1, required=True, metavar="ID [ID ...]")
    @click.option("--axis", default=None, metavar="SYMBOL", help="Symbol along the x axis.")
    @click.option(
        "-o",
        "--output",
        type=click.Path(path_type=str, dir_okay=False),
        default=DEFAULT_OUTPUT,
        show_default=True,
        help="The HTML file to write.",
    )
    @click.option(
        "--flat",
        is_flag=True,
        help="Allow an axis some bounds do not depend on (drawn as horizontal lines).",
    )
    @click.option(
        "--tie",
        "ties",
        multiple=True,
        metavar="NAME=EXPR",
        help="Compute a symbol from others instead of a slider, e.g. N=m*n (repeatable).",
    )
    @click.option(
        "--value",
        "values",
        multiple=True,
        metavar="NAME=VALUE",
        help="Initial value of a symbol (repeatable; C sets every unknown constant C).",
    )
    @click.option("--title", default=None, help="Title of the page (default: the ids).")
    def explore(
        ids: tuple[str, ...],
        axis: str | None,
        output: str,
        flat: bool,
        ties: tuple[str, ...],
        values: tuple[str, ...],
        title: str | None,
    ) -> None:
        """Write an interactive page exploring the bounds ID ...: a slider per symbol and a
        log-log plot along --axis with the crossovers marked. The page is one HTML file that
        needs no network; every formula in it is printed from the bound's sympy expression.
        """
        tie: dict[str, str] = {}
        for pair in ties:
            name, sep, text = pair.partition("=")
            if not sep or not name.strip() or not text.strip():
                fail(f"malformed --tie {pair!r}: expected NAME=EXPR, e.g. N=m*n")
            tie[name.strip()] = text.strip()
        parsed = parse_pairs(values)
        initial: dict[str, float] = {}
        for name, numbers in parsed.items():
            if len(numbers) != 1:
                fail(f"--value {name} takes one number, got {len(numbers)}")
            initial[name] = numbers[0]
        # sympy is slow to import: only when the command runs
        from fedtheory.explore import write_explorer

        path = write_explorer(
            Path(output), list(ids), axis, values=initial, tie=tie, flat=flat, title=title
        )
        console().print(f"wrote {path}")

    return explore
