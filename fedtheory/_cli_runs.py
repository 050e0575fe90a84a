"""``fedtheory runs``: the ``fedtheory verify`` runs kept in the result store, and what changed.

Built by :func:`runs_group` from the CLI's shared plumbing (passed in, so that this module does
not import :mod:`fedtheory.cli`, which registers it). Examples::

    fedtheory runs list
    fedtheory runs diff                # the previous run against the last one
    fedtheory runs diff 3 last
    fedtheory runs diff -3 -1 --store other.sqlite

``runs diff`` is a report: its exit code is 0 whatever changed, 2 (one line on stderr) for bad
input — an unknown run, a store without runs, a file that is not a result store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

__all__ = ["runs_group"]

#: Longest command shown by ``runs list`` before it is cut with an ellipsis.
COMMAND_WIDTH = 56
#: Claim ids shown after the count of added or removed claims.
NAMES_SHOWN = 5

#: Summary columns of ``runs list``: (status, header).
_COUNTS = (
    ("holds", "holds"),
    ("violated-as-expected", "errata"),
    ("failed", "failed"),
    ("reported", "reported"),
    ("inconclusive", "inconcl."),
    ("error", "error"),
)
#: Colours of the statuses (as in the verdict table).
_STYLE = {
    "holds": "green",
    "violated-as-expected": "green",
    "failed": "bold red",
    "reported": "cyan",
    "inconclusive": "yellow",
    "error": "magenta",
}


def _started(text: Any) -> str:
    """``2024-05-01T12:00:03+00:00`` → ``2024-05-01 12:00:03`` (UTC is the only zone written)."""
    shown = str(text or "—").replace("T", " ")
    return shown.removesuffix("+00:00")


def _command(info: Mapping[str, Any], width: int = COMMAND_WIDTH) -> str:
    """The command line of a run, its program shown by name only, cut to ``width``."""
    words = str(info.get("command") or "").split(" ")
    if words and "/" in words[0]:
        words[0] = words[0].rsplit("/", 1)[-1]
    text = " ".join(words).strip() or "—"
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _seconds(value: Any) -> str:
    return "—" if not isinstance(value, (int, float)) else f"{value:.1f}"


def _claims(run: Mapping[str, Any]) -> str:
    summary = run["summary"] if isinstance(run["summary"], Mapping) else {}
    total = summary.get("total")
    if not isinstance(total, int):
        total = sum(v for k, v in summary.items() if k in _STYLE and isinstance(v, int))
    pattern = run["info"].get("claims") if isinstance(run["info"], Mapping) else None
    return f"{total}" + (f" ({pattern})" if pattern else "")


def _describe(run: Mapping[str, Any]) -> str:
    info = run["info"] if isinstance(run["info"], Mapping) else {}
    return (
        f"run {run['id']} ({_started(run['started'])}, profile {info.get('profile', '—')}, "
        f"seed {info.get('seed', '—')})"
    )


def _status(status: str, outcome: Any, other_outcome: Any, same_status: bool) -> Any:
    from rich.text import Text

    shown = status if not same_status or outcome == other_outcome else f"{status} ({outcome})"
    return Text(shown, style=_STYLE.get(status, ""))


def _names(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:NAMES_SHOWN])
    more = f", … ({len(ids) - NAMES_SHOWN} more)" if len(ids) > NAMES_SHOWN else ""
    return f" ({shown}{more})" if ids else ""


def runs_group(
    *,
    console: Callable[[], Any],
    fail: Callable[[str], Any],
    open_store: Callable[[str], Any],
    group_cls: type[click.Group] = click.Group,
) -> click.Group:
    """The ``runs`` group (``list``, ``diff``), built on the CLI's console, error path and
    read-only store opener."""
    from fedtheory.verify.store import DEFAULT_STORE

    store_option = click.option(
        "--store",
        type=click.Path(path_type=str),
        default=str(DEFAULT_STORE),
        show_default=True,
        help="SQLite result store.",
    )

    @click.group("runs", cls=group_cls)
    def group() -> None:
        """The verify runs kept in the result store: list them, diff two of them."""

    @group.command("list")
    @store_option
    def list_command(store: str) -> None:
        """Every recorded run: when, profile, seed, claims, counts per status, time, command."""
        from rich.table import Table
        from rich.text import Text

        with open_store(store) as db:
            runs = db.runs()
        out = console()
        if not runs:
            out.print(f"no runs recorded in {store}: run fedtheory verify first")
            return
        table = Table(title=f"{store}: {len(runs)} runs", title_justify="left")
        # every column but the command keeps its width; the command gives way on a narrow
        # terminal (cut with an ellipsis)
        headers = ["id", "started (UTC)", "profile", "seed", "claims"]
        headers += [header for _status, header in _COUNTS] + ["seconds"]
        for header in headers:
            right = header not in ("started (UTC)", "profile", "claims")
            table.add_column(
                header,
                justify="right" if right else "left",
                no_wrap=True,
                min_width=19 if header.startswith("started") else len(header),
            )
        table.add_column("command", overflow="ellipsis", no_wrap=True, min_width=10)
        for run in runs:
            info = run["info"] if isinstance(run["info"], Mapping) else {}
            summary = run["summary"] if isinstance(run["summary"], Mapping) else {}
            counts = []
            for status, _header in _COUNTS:
                n = summary.get(status, 0)
                counts.append(Text(str(n), style=_STYLE[status] if n else "dim"))
            table.add_row(
                str(run["id"]),
                _started(run["started"]),
                str(info.get("profile", "—")),
                str(info.get("seed", "—")),
                _claims(run),
                *counts,
                _seconds(run["seconds"]),
                _command(info),
            )
        out.print(table)

    # ignore_unknown_options: -1 and -2 are runs, not options
    @group.command("diff", context_settings={"ignore_unknown_options": True})
    @click.argument("first", metavar="[A]", required=False)
    @click.argument("second", metavar="[B]", required=False)
    @store_option
    def diff_command(first: str | None, second: str | None, store: str) -> None:
        """What changed from run A (default: previous) to run B (default: last).

        A run is an id, 'last', 'previous' or -N (the N-th newest). Shows the claims whose
        status flipped, the headline numbers (a rate's exponent, a crossing) that moved beyond
        their confidence interval, and the claims added or removed. Exit code 0 whatever
        changed: it is a report.
        """
        from rich.text import Text

        from fedtheory.verify.runs import diff_runs, resolve_run
        from fedtheory.verify.verdict import format_number

        with open_store(store) as db:
            runs = {r["id"]: r for r in db.runs()}
            if not runs:
                fail(f"no runs recorded in {store}: run fedtheory verify first")
            before_id = resolve_run(db, first if first is not None else "previous")
            after_id = resolve_run(db, second if second is not None else "last")
            before, after = db.run_verdicts(before_id), db.run_verdicts(after_id)
        diff = diff_runs(before, after)
        out = console()
        out.print(f"{_describe(runs[before_id])} → {_describe(runs[after_id])}")
        if diff.flipped:
            out.print(f"flipped ({len(diff.flipped)}):")
            width = max(len(f.claim) for f in diff.flipped)
            for flip in diff.flipped:
                same = flip.before_status == flip.after_status
                line = Text(f"  {flip.claim:<{width}}  ")
                line.append_text(
                    _status(flip.before_status, flip.before_outcome, flip.after_outcome, same)
                )
                line.append(" → ")
                line.append_text(
                    _status(flip.after_status, flip.after_outcome, flip.before_outcome, same)
                )
                out.print(line)
        if diff.moved:
            out.print(f"moved beyond the CI ({len(diff.moved)}):")
            width = max(len(m.claim) for m in diff.moved)

            def shown(value: float, ci: tuple[float, float]) -> str:
                low, high = (format_number(v, 4) for v in ci)
                return f"{format_number(value, 4)} [{low}, {high}]"

            for move in diff.moved:
                out.print(
                    f"  {move.claim:<{width}}  {move.name} {shown(move.before, move.before_ci)}"
                    f" → {shown(move.after, move.after_ci)}"
                )
        if diff.added:
            out.print(f"added: {len(diff.added)}{_names(diff.added)}")
        if diff.removed:
            out.print(f"removed: {len(diff.removed)}{_names(diff.removed)}")
        out.print(
            f"{len(diff.flipped)} flipped, {len(diff.moved)} moved, {diff.unchanged} unchanged"
        )

    return group
