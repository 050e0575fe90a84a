"""Command-line interface: ``fedtheory bounds``, ``catalog``, ``results``, ``figures``;
``verify`` and ``replay`` (in :mod:`fedtheory._cli_verify`); ``runs`` (in
:mod:`fedtheory._cli_runs`); ``worstcase`` (in :mod:`fedtheory._cli_worstcase`); ``init`` (in
:mod:`fedtheory._cli_init`); ``explore`` (in :mod:`fedtheory._cli_explore`).

A thin layer over :mod:`fedtheory.bounds`: it parses arguments, calls the library and formats
the answers (rich tables on stdout). Every :class:`~fedtheory.errors.FedTheoryError` and every
usage error becomes one line ``error: <message>`` on stderr and exit code 2; ``--debug`` shows
the traceback instead.

Examples
--------
::

    fedtheory bounds list --paper classic
    fedtheory bounds show classic.gd.strongly-convex
    fedtheory bounds eval classic.gd.strongly-convex L=10 mu=1 T=20 Delta0=1
    fedtheory bounds eval classic.gd.strongly-convex L=10 mu=1 T=10,20,40 Delta0=1 --log
    fedtheory bounds eval classic.inexact-gd L=4 mu=1 S=3 Delta0=1 e2=0.1,0.05,0.02
    fedtheory bounds crossover classic.sgd.strongly-convex.distance \\
        classic.gd.strongly-convex.distance L G2=1 mu=1 T=2 D0=16
    fedtheory bounds check
    fedtheory worstcase fedavg m=2 K=4 T=3 L=1 mu=0.1 eta=0.5 zeta2=1 R2=1
    fedtheory init mypaper
    fedtheory explore minimax.gmq.plt minimax.gmq.fedavg --axis R --flat -o dichotomy.html
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from fedtheory._cli_explore import explore_command
from fedtheory._cli_init import init_command
from fedtheory._cli_runs import runs_group
from fedtheory._cli_verify import verify_commands
from fedtheory._cli_worstcase import worstcase_command
from fedtheory._version import __version__
from fedtheory.errors import (
    ConditionError,
    FedTheoryError,
    FloatRangeError,
    ParameterError,
    format_assignment,
)

# Parallelism comes from the executor running one task per core (DESIGN §4): one BLAS thread per
# process avoids oversubscribing the cores (a d = 100 Newton solve ran 10x slower with two
# OpenBLAS threads per worker on 2 cores). Set before numpy loads (nothing above imports it);
# the user's own setting wins.
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

if TYPE_CHECKING:
    from fedtheory.bounds import Bound, Exponent

__all__ = ["CliError", "cli", "main"]

#: Width used when stdout is not a terminal (pipes, files, tests): wide enough that ids,
#: formulas and messages are never wrapped in the middle of a token.
PIPE_WIDTH = 160
#: Exit status of ``fedtheory verify`` when the paths hold no claim (as pytest's "no tests").
NO_CLAIMS_EXIT = 5
#: Longest statement shown by ``bounds list`` before it is cut with an ellipsis.
STATEMENT_WIDTH = 70

#: Click's "no arguments: show the help" exception (click ≥ 8.2) is left alone: it prints help.
_HELP_ERRORS: tuple[type[BaseException], ...] = tuple(
    cls for cls in (getattr(click.exceptions, "NoArgsIsHelpError", None),) if isinstance(cls, type)
)


# ---------------------------------------------------------------------------- errors
class CliError(click.ClickException):
    """A user-facing error: shown as one line ``error: <message>`` on stderr, exit code 2.

    Parameters
    ----------
    message
        The message; line breaks are folded so that the output is a single line.
    """

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))

    def show(self, file: Any = None) -> None:
        """Print ``error: <message>`` (stderr unless ``file`` is given)."""
        click.echo(f"error: {self.format_message()}", file=file, err=file is None)


def _one_line(message: str) -> str:
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def _fail(message: str) -> NoReturn:
    raise CliError(message)


def _debug(ctx: click.Context) -> bool:
    return bool(ctx.find_root().params.get("debug"))


class FedTheoryGroup(click.Group):
    """Click group that turns library and usage errors into one-line messages (exit code 2).

    With the root option ``--debug`` the original exception propagates: a traceback for a
    :class:`~fedtheory.errors.FedTheoryError`, click's full usage message for a usage error.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the group's own options; a usage error becomes a :class:`CliError`."""
        with _one_line_errors(ctx):
            return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; library and usage errors become a :class:`CliError`."""
        with _one_line_errors(ctx):
            return super().invoke(ctx)


@contextlib.contextmanager
def _one_line_errors(ctx: click.Context) -> Iterator[None]:
    """Turn usage errors and library errors into :class:`CliError` (unless ``--debug``)."""
    try:
        yield
    except _HELP_ERRORS:
        raise
    except (click.UsageError, FedTheoryError) as exc:
        if _debug(ctx):
            raise
        message = exc.format_message() if isinstance(exc, click.UsageError) else str(exc)
        raise CliError(message) from exc


# ---------------------------------------------------------------------------- helpers
def _console() -> Console:
    """A console on the current stdout (created per command so that test runners capture it).

    On a terminal it takes the terminal's width; elsewhere it is at least :data:`PIPE_WIDTH`
    wide. Markup, highlighting and emoji codes are off: ids, formulas and citations contain
    brackets and colons that must be printed verbatim.
    """
    options: dict[str, Any] = {
        "markup": False,
        "highlight": False,
        "emoji": False,
        "soft_wrap": True,
    }
    probe = Console(**options)
    if probe.is_terminal:
        return probe
    return Console(width=max(PIPE_WIDTH, probe.width), **options)


def _registry() -> Any:
    # imported lazily: sympy is slow to import and `fedtheory --version` does not need it
    from fedtheory import bounds

    return bounds


def _truncate(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _number(name: str, token: str, pair: str) -> int | float:
    token = token.strip()
    try:
        return int(token)
    except ValueError:
        pass
    try:
        return float(token)
    except ValueError:
        _fail(f"{pair!r}: value {token!r} of {name} is not a number")


def parse_pairs(pairs: Sequence[str]) -> dict[str, list[int | float]]:
    """Parse ``NAME=VALUE`` arguments; ``VALUE`` may be a comma-separated list of numbers.

    Parameters
    ----------
    pairs
        Arguments such as ``"L=10"``, ``"eps=1e-3"`` or ``"e2=0.1,0.05"``.

    Returns
    -------
    dict
        Name → list of numbers (ints where the text is an integer, floats otherwise).

    Raises
    ------
    CliError
        A pair without ``=``, an empty name or value, a value that is not a number, or a name
        given twice.
    """
    values: dict[str, list[int | float]] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name or not text.strip():
            _fail(f"malformed argument {pair!r}: expected NAME=VALUE, e.g. L=10 or e2=0.1,0.05")
        if not name.isidentifier():
            _fail(f"malformed argument {pair!r}: {name!r} is not a symbol name")
        if name in values:
            _fail(f"{name} is given twice ({pair!r})")
        values[name] = [_number(name, token, pair) for token in text.split(",")]
    return values


def _points(bound: Bound, values: Mapping[str, list[int | float]]) -> list[dict[str, Any]]:
    """Split parsed values into evaluation points: sequences whole, scalar lists pointwise."""
    sequences = set(bound.sequences)
    lengths = {n: len(v) for n, v in values.items() if n not in sequences and len(v) > 1}
    count = max(lengths.values(), default=1)
    uneven = {n: k for n, k in lengths.items() if k != count}
    if uneven:
        shown = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        _fail(f"lists of values must have the same length to be evaluated pointwise ({shown})")
    points = []
    for index in range(count):
        point: dict[str, Any] = {}
        for name, items in values.items():
            if name in sequences:
                point[name] = list(items)
            else:
                point[name] = items[index] if len(items) > 1 else items[0]
        points.append(point)
    return points


def _value_text(bound: Bound, point: Mapping[str, Any], *, check: bool, log: bool) -> str:
    """The bound's value at ``point`` and optionally its log10.

    A value outside the normal range of float64 — above ≈ 1.8e308 (overflow), or nonzero
    below ≈ 2.2e-308, where float64 keeps few digits or rounds to 0 (underflow) — is printed
    as ``~10^x`` (``~-10^x`` when negative) with x its exact base-10 logarithm, which is also
    what ``--log`` asks for. Only a value that is exactly zero or negative has no log10.
    """
    try:
        value = bound.evaluate(check=check, **point)
    except FloatRangeError as exc:
        try:
            return f"~10^{bound.log10_evaluate(check=check, **point):.10g}"
        except ParameterError:  # negative: no logarithm, but the magnitude is known
            return f"~-10^{exc.log10:.10g}"
    if abs(value) < sys.float_info.min and math.copysign(1.0, value) > 0:
        # 0 or subnormal in float64: exactly zero (log10 -inf), or a positive value that
        # underflowed, whose log10 is computed in arbitrary precision
        exponent = bound.log10_evaluate(check=check, **point)
        if math.isfinite(exponent):
            return f"~10^{exponent:.10g}"
    text = f"{value:.10g}"
    if log:
        if value > 0:
            text += f"  (log10 {bound.log10_evaluate(check=check, **point):.10g})"
        else:
            text += "  (log10 undefined: value ≤ 0)"
    return text


def _exponent_symbols(bound: Bound) -> list[str]:
    return [name for name, info in bound.info.items() if info.role == "parameter"]


def _reason(bound: Bound, exc: Exception) -> str:
    message = _one_line(str(exc))
    prefix = f"{bound.id}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def _power_text(result: Exponent) -> str:
    if result.behaviour == "exponential":
        return "-∞" if result.power.is_extended_negative else "∞"
    if result.behaviour == "constant":
        return "0"
    if result.has_log_factor:  # e.g. "T^-1·log(T)": a log factor is not a power
        return result.rate_text()
    if result.is_exact:
        import sympy as sp

        return str(sp.sstr(result.power))
    return f"≈{float(result.power):.4g}"


def _heading(console: Console, title: str) -> None:
    console.print()
    console.print(Text(title, style="bold"))


# ---------------------------------------------------------------------------- commands
@click.group(cls=FedTheoryGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "--version", prog_name="fedtheory", message="%(prog)s %(version)s"
)
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
def cli(debug: bool) -> None:
    """fedtheory: federated-learning theorems as executable, checkable objects."""


@cli.group("bounds", cls=FedTheoryGroup)
@click.option(
    "--load",
    "load",
    multiple=True,
    type=click.Path(path_type=str),
    metavar="PATH",
    help="Load the claims under PATH first (repeatable), so that the bounds of a paper of "
    "your own, registered by a module they import, are known too.",
)
def bounds_group(load: tuple[str, ...]) -> None:
    """Browse, evaluate and compare the registered bounds."""
    if load:
        from fedtheory.verify.discovery import discover

        discover(list(load))


@bounds_group.command("list")
@click.option("--paper", metavar="KEY", default=None, help="Only the bounds of this paper.")
def list_command(paper: str | None) -> None:
    """List the registered bounds (id, kind, status, statement, source)."""
    registry = _registry()
    selected = list(registry.iter_bounds(paper))
    console = _console()
    table = Table(title=None, show_lines=False)
    longest = max((len(b.id) for b in selected), default=2)
    table.add_column("id", no_wrap=True, min_width=longest)
    table.add_column("kind", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("statement", ratio=3)
    table.add_column("source", ratio=2)
    for bound in selected:
        table.add_row(
            bound.id,
            bound.kind,
            bound.status,
            _truncate(str(bound), STATEMENT_WIDTH),
            bound.source.short,
        )
    console.print(table)
    console.print(f"{len(selected)} bound{'' if len(selected) == 1 else 's'}")


@bounds_group.command("show")
@click.argument("bound_id", metavar="ID")
def show_command(bound_id: str) -> None:
    """Show everything about bound ID: statement, formula, hypotheses, source, symbols, rates."""
    _show_bound(_console(), _registry().get(bound_id))


def _show_bound(console: Console, bound: Bound) -> None:
    """``bounds show``: every paragraph wrapped at word boundaries to the console's width.

    The command console soft-wraps (long table cells and ids stay whole elsewhere), which on an
    80-column terminal let the terminal cut words and formulas mid-token; here each paragraph is
    wrapped by rich at spaces instead, and only a token longer than the width is folded.
    """
    import sympy as sp
    from rich.cells import cell_len

    width = console.width

    def sp_text(expr: sp.Expr) -> str:
        return str(sp.sstr(expr))

    def say(text: str | Text, style: str = "", indent: int = 0) -> None:
        body = text.copy() if isinstance(text, Text) else Text(text, style=style)
        body.overflow = "fold"
        if indent:
            # hanging indent: continuation lines line up with the first
            lines = body.wrap(console, max(width - indent, 20), overflow="fold")
            body = Text("\n").join(Text(" " * indent) + line for line in lines)
        console.print(body, soft_wrap=False, overflow="fold", crop=False)

    say(Text(bound.id, style="bold"))
    say(str(bound))
    say(f"kind: {bound.kind}    status: {bound.status}")
    if bound.statement:
        say(bound.statement)

    _heading(console, "Formula")
    drawing = bound.pretty(num_columns=10_000)
    if max(map(cell_len, drawing.splitlines()), default=0) <= width:
        console.print(drawing, soft_wrap=True, crop=False)
    else:
        # sympy would cut the 2-D drawing into column chunks, mid-token: the linear form
        # wrapped at spaces reads better
        say(Text("2-D form wider than the terminal; linear form:", style="dim"), indent=2)
        say(sp_text(bound.expr), indent=2)

    _heading(console, "LaTeX")
    say(bound.statement_latex())

    _heading(console, "Hypotheses")
    if not bound.hypotheses:
        say(Text("none (only the symbol domains)", style="dim"), indent=2)
    for hypothesis in bound.hypotheses:
        line = Text(str(hypothesis))
        if hypothesis.note:
            line.append(f"  ({hypothesis.note})", style="dim")
        say(line, indent=2)

    _heading(console, "Source")
    say(bound.source.full, indent=2)

    _heading(console, "Symbols")
    table = Table()
    table.add_column("name", no_wrap=True)
    table.add_column("role", no_wrap=True)
    table.add_column("domain")
    table.add_column("meaning", ratio=1)
    table.add_column("example")
    for name, info in bound.info.items():
        example = bound.example.get(name)
        table.add_row(
            name,
            info.role,
            info.domain,
            info.meaning,
            "—" if example is None else str(example),
        )
    console.print(table, soft_wrap=False)

    names = _exponent_symbols(bound)
    if names:
        _heading(console, "Exponents at the example point")
        name_width = max(len(n) for n in names)
        for name in names:
            for at, where in ((0, "0"), ("oo", "∞")):
                line = Text(f"{name:<{name_width}}  at {where}: ")
                try:
                    line.append(str(bound.exponent(name, at=at)))
                except FedTheoryError as exc:
                    line.append("—  ")
                    line.append(_reason(bound, exc), style="dim")
                say(line, indent=2)


@bounds_group.command("eval")
@click.argument("bound_id", metavar="ID")
@click.argument("pairs", nargs=-1, metavar="NAME=VALUE...")
@click.option(
    "--check/--no-check",
    default=True,
    help="Check the theorem's hypotheses (default) or evaluate the formula regardless.",
)
@click.option("--log", "log", is_flag=True, help="Also print the base-10 logarithm.")
def eval_command(bound_id: str, pairs: tuple[str, ...], check: bool, log: bool) -> None:
    """Evaluate bound ID at NAME=VALUE pairs.

    VALUE is a number (10, 0.5, 1e-3) or a comma-separated list: the whole sequence for a
    sequence parameter (e2=0.1,0.05), several points for a scalar (T=10,20,40; one line each).
    Order bounds (≲) need their constant, e.g. C=1. Values outside the range of float64
    (beyond 1.8e308, or positive below 2.2e-308) are printed as ~10^x with the exact x.
    """
    values = parse_pairs(pairs)
    bound = _registry().get(bound_id)
    points = _points(bound, values)
    try:
        texts = [_value_text(bound, point, check=check, log=log) for point in points]
    except ConditionError as exc:
        if _debug(click.get_current_context()):
            raise
        raise CliError(str(exc).replace("pass check=False", "pass --no-check")) from exc
    console = _console()
    console.print(f"{bound.id}: {bound}")
    for point, text in zip(points, texts, strict=True):
        console.print(f"  {format_assignment(point)}  →  {text}")


@bounds_group.command("crossover")
@click.argument("first_id", metavar="ID1")
@click.argument("second_id", metavar="ID2")
@click.argument("var")
@click.argument("pairs", nargs=-1, metavar="NAME=VALUE...")
def crossover_command(first_id: str, second_id: str, var: str, pairs: tuple[str, ...]) -> None:
    """Where bounds ID1 and ID2 are equal as functions of VAR.

    The other symbols take the NAME=VALUE values; symbols left out stay symbolic and the
    crossing is then a closed form in them.
    """
    values = parse_pairs(pairs)
    registry = _registry()
    first, second = registry.get(first_id), registry.get(second_id)
    sequences = set(first.sequences) | set(second.sequences)
    fixed: dict[str, Any] = {}
    for name, items in values.items():
        if name in sequences:
            fixed[name] = list(items)
        elif len(items) == 1:
            fixed[name] = items[0]
        else:
            _fail(f"{name}: crossover takes one value per scalar symbol, got {len(items)}")
    crossovers = first.crossover(second, var, **fixed)
    console = _console()
    where = f" at {format_assignment(fixed)}" if fixed else ""
    console.print(f"crossings of {first.id} and {second.id} in {var}{where}:")
    if not crossovers:
        console.print(f"no crossing in the domain of {var}")
    for crossover in crossovers:
        console.print(f"  {crossover}")
        if crossover.value is None and crossover.exact is not None:
            free = ", ".join(sorted(str(s) for s in crossover.exact.free_symbols))
            note = f"    closed form in {free}; give values to locate it"
        elif crossover.kind == "coincide":
            continue
        else:
            note = f"    {var} = {crossover.value:.10g}"
            if crossover.within_hypotheses is not None:
                note += (
                    "; inside the hypotheses of both bounds"
                    if crossover.within_hypotheses
                    else "; outside the hypotheses of at least one bound"
                )
        console.print(Text(note, style="dim"))


@bounds_group.command("check")
@click.option("--paper", metavar="KEY", default=None, help="Only the bounds of this paper.")
@click.pass_context
def check_command(ctx: click.Context, paper: str | None) -> None:
    """Evaluate every bound at its example point (order bounds with constants = 1).

    Exit status 1 when any evaluation fails. The exponents column gives, for each parameter,
    the power as it tends to ∞ at the example point ('—' where undefined).
    """
    _check_paper_option(paper)
    registry = _registry()
    console = _console()
    table = Table()
    table.add_column("id", no_wrap=True)
    table.add_column("value at example", no_wrap=True)
    table.add_column("hypotheses", justify="right")
    table.add_column("exponents at ∞", ratio=1)
    total = failed = 0
    for bound in registry.iter_bounds(paper):
        total += 1
        point = {**bound.example, **dict.fromkeys(bound.constants, 1)}
        ok = True
        try:
            value: Text | str = _value_text(bound, point, check=True, log=False)
        except Exception as exc:  # report every failure in the table instead of stopping
            ok = False
            value = Text(f"FAILED: {type(exc).__name__}: {_one_line(str(exc))}", style="red")
        powers = []
        for name in _exponent_symbols(bound):
            try:
                powers.append(f"{name}: {_power_text(bound.exponent(name, at='oo'))}")
            except FedTheoryError:
                powers.append(f"{name}: —")
            except Exception as exc:  # an unexpected library error is a failed check
                ok = False
                powers.append(f"{name}: FAILED ({type(exc).__name__})")
        failed += not ok
        table.add_row(bound.id, value, str(len(bound.hypotheses)), ", ".join(powers))
    console.print(table)
    console.print(f"{total} bounds evaluated at their example points; {failed} failed")
    if failed:
        ctx.exit(1)


# ---------------------------------------------------------------------------- verify
_PROFILE_CHOICE = click.Choice(["smoke", "quick", "full"])


def _executor_options(command: Any) -> Any:
    """--executor, --scheduler and --workers: where the tasks of a run go."""
    for option in reversed(
        (
            click.option(
                "--executor",
                type=click.Choice(["local", "dask"]),
                default=None,
                help="local process pool (default) or a Dask cluster.",
            ),
            click.option(
                "--scheduler",
                metavar="ADDR",
                default=None,
                help=(
                    "Dask scheduler address (default: $FEDTHEORY_SCHEDULER; implies "
                    "--executor dask)."
                ),
            ),
            click.option(
                "--workers", type=int, default=None, help="Worker processes (default: cores)."
            ),
        )
    ):
        command = option(command)
    return command


def _check_paper_option(paper: str | None) -> None:
    """Exit 2 with one line when --paper names no known paper."""
    from fedtheory.bounds import PAPERS

    if paper is not None and paper not in PAPERS:
        _fail(f"--paper={paper}: unknown paper key (known: {', '.join(sorted(PAPERS))})")


@cli.command("catalog")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--claims", "pattern", metavar="GLOB", help="Only claims whose id matches the glob.")
@click.option(
    "--coverage",
    is_flag=True,
    help="Per paper, every registered bound with the claims that judge it on data "
    "(exit 1 when a bound is judged by none and gives no reason).",
)
@click.option("--paper", metavar="KEY", default=None, help="With --coverage: only this paper.")
def catalog_command(
    paths: tuple[str, ...], pattern: str | None, coverage: bool, paper: str | None
) -> None:
    """List the claims under PATHS (default ./verification) without running them."""
    from fedtheory.verify.discovery import discover, select

    if paper is not None and not coverage:
        _fail("--paper: only meaningful with --coverage")
    loaded = select(discover(list(paths)), pattern)
    console = _console()
    if coverage:
        _print_coverage(loaded, paper, console)
        return
    table = Table(title=f"{len(loaded)} claims", title_justify="left")
    # ids are what users copy into --claims: never wrap them, let the other columns fold
    longest = max((len(item.claim.id) for item in loaded), default=5)
    table.add_column("claim", no_wrap=True, min_width=longest)
    for column in ("source", "criterion", "expect", "smoke", "quick", "full"):
        table.add_column(column, overflow="fold")
    for item in loaded:
        claim = item.claim
        sizes = []
        for profile in ("smoke", "quick", "full"):
            sweep = claim.sweep(profile)
            sizes.append(f"{len(sweep.points())}×{sweep.replicates}")
        table.add_row(
            claim.id, claim.source.short, claim.criterion.describe(), claim.expect, *sizes
        )
    console.print(table)
    console.print("profiles: points × replicates per point")


def _print_coverage(loaded: Sequence[Any], paper: str | None, console: Console) -> None:
    from fedtheory.verify.coverage import coverage

    _check_paper_option(paper)
    rows = coverage(loaded, paper)
    style = {"judged": "green", "reason": "yellow", "unexercised": "red", "stale-reason": "red"}
    for key in sorted({r.bound.paper for r in rows}):
        mine = [r for r in rows if r.bound.paper == key]
        table = Table(title=f"{key}: {len(mine)} bounds", title_justify="left")
        longest = max(len(r.bound.id) for r in mine)
        table.add_column("bound", no_wrap=True, min_width=longest)
        table.add_column("kind")
        table.add_column("judged by (claims that evaluate it on data) — or why none", ratio=1)
        for row in mine:
            if row.judged_by:
                shown = ", ".join(row.judged_by[:4])
                more = len(row.judged_by) - 4
                text = Text(f"{len(row.judged_by)}: {shown}" + (f", +{more}" if more > 0 else ""))
                if row.status == "stale-reason":
                    text.append(f"  (stale reason: {row.reason})", style="red")
            elif row.reason is not None:
                text = Text(f"none — {row.reason}", style=style["reason"])
            else:
                cited = (
                    f" (cited, not evaluated, by {', '.join(row.cited_by)})" if row.cited_by else ""
                )
                text = Text(f"none, and no reason given{cited}", style=style["unexercised"])
            table.add_row(row.bound.id, row.bound.kind, text)
        console.print(table)
    counts = {s: sum(r.status == s for r in rows) for s in style}
    console.print(
        f"{len(rows)} bounds: {counts['judged']} judged on data, {counts['reason']} unjudged with "
        f"a reason, {counts['unexercised']} unexercised without a reason, "
        f"{counts['stale-reason']} judged although a reason says otherwise"
    )
    if not all(r.ok for r in rows):
        raise SystemExit(1)


@cli.group("results", cls=FedTheoryGroup)
def results_group() -> None:
    """Inspect, export or clear the result store."""


_STORE_OPTION = click.option(
    "--store",
    type=click.Path(path_type=str),
    default=".fedtheory/results.sqlite",
    show_default=True,
    help="SQLite result store.",
)


@cli.command("mutate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--paper", metavar="KEY", default=None, help="Only the bounds of this paper.")
@click.option("--bound", "bound_id", metavar="ID", default=None, help="Only this bound.")
@_executor_options
@_STORE_OPTION
@click.option(
    "--report",
    "report_dir",
    type=click.Path(path_type=str),
    default="report",
    show_default=True,
    help="Folder for mutation.html and mutation.json.",
)
@click.option("--seed", type=int, default=0, show_default=True)
def mutate_command(
    paths: tuple[str, ...],
    paper: str | None,
    bound_id: str | None,
    executor: str | None,
    scheduler: str | None,
    workers: int | None,
    store: str,
    report_dir: str,
    seed: int,
) -> None:
    """Mutation analysis: plant plausible bugs in the bounds and see which the claims catch.

    Every mutant of every selected bound (a constant ×2 or ÷2, an exponent ±½ or ±1, two
    same-kind symbols swapped, a term dropped, the whole bound ×2 or ÷2) is put into the
    registry while the claims that judge the bound run again, on smoke and then quick sweeps.
    Prints killed/survived per bound, every survivor with the claims that should have caught
    it, and a mutation score per paper; writes mutation.html and mutation.json.
    """
    from fedtheory.verify.mutate import mutate
    from fedtheory.verify.mutation_report import render_mutation, write_mutation_report

    # --paper is checked by mutate() once the claims are loaded: they may register the paper
    console = _console()
    err_console = Console(stderr=True)
    run = mutate(
        list(paths),
        paper=paper,
        bound=bound_id,
        executor=executor,
        scheduler=scheduler,
        workers=workers,
        store=store,
        seed=seed,
        progress=lambda line: err_console.print(line, highlight=False),
    )
    render_mutation(run, console)
    written = write_mutation_report(run, report_dir)
    console.print(f"report: {written['html']}  (data: {written['json']})")


def _open_store(path: str, *, readonly: bool = True) -> Any:
    """Open an existing result store (read-only unless ``readonly=False``).

    The store refuses, without touching it, a file that is not a fedtheory result store
    (:class:`~fedtheory.errors.ParameterError`) and reports a damaged or unwritable one
    (:class:`~fedtheory.errors.StoreError`): both become one line and exit code 2.
    """
    from pathlib import Path

    from fedtheory.verify.store import ResultStore

    if not Path(path).exists():
        _fail(f"--store={path}: no result store there (run fedtheory verify first)")
    return ResultStore(path, readonly=readonly)


def _check_output(output: str, store: str, force: bool) -> None:
    """Refuse to overwrite the store; ask (terminal) or require --force for any other file."""
    import os

    from fedtheory.verify.export import is_store_file

    if is_store_file(output, store):
        _fail(
            f"--output={output}: is the result store {store} (or its journal); choose another file"
        )
    if os.path.isdir(output):
        _fail(f"--output={output}: is a folder; give a file name")
    if os.path.lexists(output) and not force:
        if not _stdin_is_terminal():
            _fail(f"--output={output}: exists; pass --force to overwrite")
        if not click.confirm(f"overwrite {output}?", default=False, err=True):
            raise SystemExit(1)


def _stdin_is_terminal() -> bool:
    """Whether a question can be asked (stdin is a terminal, not a pipe or a test runner)."""
    import sys

    stdin = sys.stdin
    return stdin is not None and stdin.isatty()


_CLAIMS_OPTION = click.option(
    "--claims",
    "pattern",
    metavar="GLOB",
    help="Only the data of the claims whose id matches the glob (claim ids from --catalog).",
)
_MEASUREMENTS_OPTION = click.option(
    "--measurements",
    "measurement_pattern",
    metavar="GLOB",
    help="Only the measurements (the stored data sets, shared by the claims that judge one "
    "experiment) whose name matches the glob.",
)
_CATALOG_OPTION = click.option(
    "--catalog",
    type=click.Path(path_type=str),
    default="verification",
    show_default=True,
    help="Claim files or folder that --claims ids are looked up in.",
)


def _data_filter(
    pattern: str | None, measurement_pattern: str | None, catalog: str
) -> tuple[Any, dict[str, list[str]]]:
    """Which stored measurements the options select, and the claims of each measurement.

    The store keeps data per measurement (a claim alone on its data has its own id as the
    measurement's name); ``--claims`` is translated through the catalog to the measurements
    of the matching claims. Returns ``(predicate on measurement names or None, {measurement:
    [claim ids]})``.
    """
    import fnmatch
    from pathlib import Path

    claims_of: dict[str, list[str]] = {}
    if pattern is not None:  # loading the catalog imports every claim file: only when needed
        from fedtheory.verify.discovery import discover

        if not Path(catalog).exists():
            _fail(f"--catalog={catalog}: no such file or folder (needed to look up --claims)")
        for loaded in discover([catalog]):
            claims_of.setdefault(loaded.claim.measurement.id, []).append(loaded.claim.id)
    wanted: set[str] | None = None
    if pattern is not None:
        from fedtheory.verify.selection import id_matcher

        matches = id_matcher([pattern])
        wanted = {measurement for measurement, ids in claims_of.items() if any(map(matches, ids))}
        if not wanted:
            _fail(f"--claims={pattern}: matches none of the claims under {catalog}")

    def keep(measurement: str) -> bool:
        if wanted is not None and measurement not in wanted:
            return False
        return measurement_pattern is None or fnmatch.fnmatchcase(measurement, measurement_pattern)

    selective = pattern is not None or measurement_pattern is not None
    return (keep if selective else None), claims_of


@results_group.command("list")
@_STORE_OPTION
@_CLAIMS_OPTION
@_MEASUREMENTS_OPTION
@_CATALOG_OPTION
def results_list_command(
    store: str, pattern: str | None, measurement_pattern: str | None, catalog: str
) -> None:
    """Per measurement (the data of one experiment): stored replicates, points, versions and
    last write; with --claims, also the claims it serves."""
    keep, claims_of = _data_filter(pattern, measurement_pattern, catalog)
    with _open_store(store) as db:
        rows = [r for r in db.summary() if keep is None or keep(r["claim"])]
    console = _console()
    table = Table(title=f"{store}: {sum(r['rows'] for r in rows)} replicates", title_justify="left")
    for column in (
        "measurement",
        *(["claims"] if claims_of else []),
        "replicates",
        "points",
        "versions",
        "code versions",
        "last written",
        "compute s",
    ):
        table.add_column(column)
    for r in rows:
        ids = claims_of.get(r["claim"], [])
        shown = "—" if not ids else ids[0] if len(ids) == 1 else f"{ids[0]} +{len(ids) - 1}"
        table.add_row(
            r["claim"],
            *([shown] if claims_of else []),
            str(r["rows"]),
            str(r["points"]),
            r["versions"],
            str(r["fingerprints"]),
            r["last_written"],
            f"{r['compute_seconds']:.2f}",
        )
    console.print(table)


@results_group.command("export")
@_STORE_OPTION
@click.option(
    "--format", "fmt", type=click.Choice(["csv", "json"]), default="csv", show_default=True
)
@_CLAIMS_OPTION
@_MEASUREMENTS_OPTION
@_CATALOG_OPTION
@click.option(
    "--output",
    "-o",
    type=click.Path(path_type=str),
    default="-",
    help="File to write (default: stdout); never the store itself.",
)
@click.option("--force", is_flag=True, help="Overwrite an existing output file without asking.")
def results_export_command(
    store: str,
    fmt: str,
    pattern: str | None,
    measurement_pattern: str | None,
    catalog: str,
    output: str,
    force: bool,
) -> None:
    """Export stored replicates: one row each (params and outputs as columns in CSV).

    The store is opened read-only. An existing output file is overwritten only after a
    confirmation on a terminal, or with --force; the file is replaced in one step, so a failed
    export leaves it as it was. CSV cells that a spreadsheet would run as a formula (text
    starting with =, +, -, @, tab or carriage return) are prefixed with a single quote.
    """
    from fedtheory.verify.export import export_text, write_atomically

    keep, _ = _data_filter(pattern, measurement_pattern, catalog)
    if output != "-":
        _check_output(output, store, force)
    with _open_store(store) as db:
        text = export_text([r for r in db.rows() if keep is None or keep(r["claim"])], fmt)
    if output == "-":
        click.echo(text, nl=False)
    else:
        write_atomically(output, text)


@results_group.command("clear")
@_STORE_OPTION
@_CLAIMS_OPTION
@_MEASUREMENTS_OPTION
@_CATALOG_OPTION
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def results_clear_command(
    store: str, pattern: str | None, measurement_pattern: str | None, catalog: str, yes: bool
) -> None:
    """Delete stored replicates (of the matching claims or measurements, or all).

    Deleting a claim's data deletes its measurement's, which the other claims judging the same
    experiment share: they are named before anything is deleted.
    """
    from fedtheory.verify.selection import escape_glob

    keep, claims_of = _data_filter(pattern, measurement_pattern, catalog)
    with _open_store(store, readonly=False) as db:
        summary = [r for r in db.summary() if keep is None or keep(r["claim"])]
        if keep is not None and not summary:
            shown = " ".join(
                f"--{name}={value}"
                for name, value in (("claims", pattern), ("measurements", measurement_pattern))
                if value is not None
            )
            _fail(f"{shown}: no data of the matching claims in {store}")
        count = sum(r["rows"] for r in summary)
        served = sorted({c for r in summary for c in claims_of.get(r["claim"], [])})
        what = f"{count} replicates of {len(summary)} measurements"
        if served:
            what += f" (the data of {len(served)} claims)"
        if not yes and not click.confirm(f"delete {what} from {store}?", default=False):
            raise SystemExit(1)
        if keep is None:
            removed = db.clear()
        else:
            removed = sum(db.clear(escape_glob(r["claim"])) for r in summary)
    click.echo(f"deleted {removed} replicates from {store}")


@cli.group("figures", cls=FedTheoryGroup)
def figures_group() -> None:
    """Reproduced paper figures, drawn from catalog claims run through the store."""


_FIGURES_OPTION = click.option(
    "--figures",
    "folder",
    type=click.Path(path_type=str),
    default="figures",
    show_default=True,
    help="Folder of figure scripts.",
)


@figures_group.command("list")
@_FIGURES_OPTION
def figures_list_command(folder: str) -> None:
    """List the figure scripts: name, profile, claims drawn and what they reproduce."""
    from rich.table import Table

    from fedtheory.figures import discover_figures

    scripts = discover_figures(folder)
    table = Table("figure", "profile", "claims", "title", box=None)
    for script in scripts.values():
        title = f"{script.title} ({script.source})" if script.source else script.title
        table.add_row(script.name, script.profile, script.claims, title)
    _console().print(table)


@figures_group.command("make")
@click.argument("name")
@_FIGURES_OPTION
@click.option("--profile", default=None, help="Sweep profile (default: the script's).")
@click.option(
    "--output",
    type=click.Path(path_type=str),
    default=None,
    help="PNG path (default report/figures/NAME.png).",
)
@click.option("--docs", is_flag=True, help="Write docs/figures/NAME.png, the docs' copy.")
@click.option(
    "--store",
    type=click.Path(path_type=str),
    default=".fedtheory/results.sqlite",
    show_default=True,
    help="SQLite result store (finished replicates are reused).",
)
@click.option("--workers", type=int, default=None, help="Worker processes (default: cores).")
@click.option("--seed", type=int, default=0, show_default=True, help="Base seed.")
def figures_make_command(
    name: str,
    folder: str,
    profile: str | None,
    output: str | None,
    store: str,
    workers: int | None,
    seed: int,
    docs: bool,
) -> None:
    """Make figure NAME: run its claims (cached) and write report/figures/NAME.png.

    With --docs it writes docs/figures/NAME.png instead (what `make figures` refreshes). The
    PNG is stamped with the fedtheory version, the profile and the seed.
    """
    from fedtheory.figures import discover_figures, make_figure

    scripts = discover_figures(folder)
    if name not in scripts:
        raise ParameterError(
            parameter="name", value=name, rule=f"one of {', '.join(sorted(scripts)) or '(none)'}"
        )
    try:
        path = make_figure(
            scripts[name],
            output=output,
            profile=profile,
            store=store,
            workers=workers,
            seed=seed,
            docs=docs,
        )
    except KeyboardInterrupt:
        click.echo(f"interrupted: finished replicates are kept in {store}", err=True)
        raise SystemExit(130) from None
    _console().print(f"figure: {path}")


cli.add_command(worstcase_command(parse_pairs=parse_pairs, console=_console, fail=_fail))
for _command in verify_commands(
    console=_console,
    fail=_fail,
    debug=_debug,
    executor_options=_executor_options,
    no_claims_exit=NO_CLAIMS_EXIT,
    parse_pairs=parse_pairs,
):
    cli.add_command(_command)
cli.add_command(
    runs_group(console=_console, fail=_fail, open_store=_open_store, group_cls=FedTheoryGroup)
)
cli.add_command(init_command(console=_console))
cli.add_command(explore_command(console=_console, fail=_fail, parse_pairs=parse_pairs))


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``fedtheory`` script.

    Parameters
    ----------
    argv
        Arguments (default: ``sys.argv[1:]``).
    """
    cli.main(args=list(argv) if argv is not None else None, prog_name="fedtheory")


if __name__ == "__main__":  # pragma: no cover
    main()
