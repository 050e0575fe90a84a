"""``fedtheory init KEY``: scaffold a paper of your own (bounds, claims, a figure, a README).

Built by :func:`init_command` from the CLI's shared plumbing (passed in, so that this module
does not import :mod:`fedtheory.cli`, which registers it). The files are those of
:func:`fedtheory.scaffold.scaffold`. Examples::

    fedtheory init mypaper
    fedtheory init smith2024 --dir papers/smith
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

__all__ = ["init_command"]


def init_command(*, console: Callable[[], Any]) -> click.Command:
    """The ``init`` command (errors become one line and exit 2 through the CLI's group)."""

    @click.command("init")
    @click.argument("key")
    @click.option(
        "--dir",
        "directory",
        type=click.Path(path_type=str, file_okay=False),
        default=".",
        show_default=True,
        help="Folder to write into (created if missing).",
    )
    def init(key: str, directory: str) -> None:
        """Scaffold a paper of your own: claims/KEY_bounds.py (the theorems), claims/KEY_thm1.py
        (claims that check them), figures/KEY_thm1.py and a README with the next steps.

        KEY is a lowercase letter followed by lowercase letters or digits, and not the key of
        a paper fedtheory ships. Existing files are never overwritten.
        """
        from fedtheory.scaffold import scaffold  # sympy is slow to import: only when needed

        written = scaffold(key, directory)
        out = console()
        for path in written:
            out.print(f"wrote {path}")
        claims = written[1].parent
        out.print(f"next: fedtheory verify {claims} --profile smoke  (then see {written[0]})")

    return init
