"""``fedtheory verify`` and ``fedtheory replay``: run the claim catalog, rerun a counterexample.

Built by :func:`verify_commands` from the CLI's shared plumbing (passed in, so that this module
does not import :mod:`fedtheory.cli`, which registers it). What a pytest user expects::

    fedtheory verify                               # ./verification, quick profile
    fedtheory verify -x                            # stop at the first claim that does not pass
    fedtheory verify --maxfail 3 --timeout 120     # stop after 3; a claim gets 120 s at most
    fedtheory verify --lf                          # only the claims that failed last time
    fedtheory verify -k "minimax and not worstcase" --claims 'classic/*'
    fedtheory verify --format compact --junitxml out.xml
    fedtheory replay verification/classic/sgd.py classic/sgd/false-rate T=100 --seed 123

On a terminal a progress line names the claims under way and gives an ETA weighted by the costs
the store measured before; elsewhere (CI, ``tee``) one line per claim is printed on stderr as
each is judged. The time in the summary is the wall time of the command.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

__all__ = ["process_seconds", "verify_commands"]

_IMPORTED = time.monotonic()


def process_seconds() -> float:
    """Wall time since this process started (from ``/proc`` on Linux; elsewhere since the
    CLI module was imported): what the summary line reports as the command's time."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        started_ticks = int(fields[19])  # field 22, counted from the state (field 3)
        with open("/proc/uptime", "rb") as handle:
            uptime = float(handle.read().split()[0])
        seconds = uptime - started_ticks / os.sysconf("SC_CLK_TCK")
        if seconds >= 0:
            return seconds
    except (OSError, ValueError, IndexError):
        pass
    return time.monotonic() - _IMPORTED


class _Progress:
    """What the user sees while a run computes: a live line on a terminal, one line per
    judged claim elsewhere (both on stderr, so that stdout keeps the table or the JSON)."""

    def __init__(self, err_console: Console) -> None:
        self.console = err_console
        self.live = err_console.is_terminal
        self.bar: Any = None
        self.task: Any = None

    def claim(self, result: Any) -> None:
        from fedtheory.verify.report import claim_line

        if not self.live:
            self.console.print(claim_line(result), soft_wrap=True)
        elif self.bar is not None and not result.acceptable:
            self.bar.console.print(claim_line(result))  # above the live line, at once

    def update(self, progress: Any) -> None:
        if not self.live or progress.replicates_total == 0:
            return
        from rich.progress import (
            BarColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        if self.bar is None:
            self.bar = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(bar_width=16),
                TaskProgressColumn(),
                TextColumn("ETA", markup=False),
                TimeRemainingColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=max(progress.cost_total, 1e-9))
        running = progress.running[0] if progress.running else ""
        if len(progress.running) > 1:
            running += f" +{len(progress.running) - 1}"
        width = max(10, self.console.width - 58)
        if len(running) > width:
            running = "…" + running[-(width - 1) :]
        description = f"{progress.claims_done}/{progress.claims_total} claims {running}"
        self.bar.update(
            self.task,
            completed=progress.cost_done,
            total=max(progress.cost_total, 1e-9),
            description=description,
        )

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def verify_commands(
    *,
    console: Callable[[], Console],
    fail: Callable[[str], Any],
    debug: Callable[[click.Context], bool],
    executor_options: Callable[[Any], Any],
    no_claims_exit: int,
    parse_pairs: Callable[[Sequence[str]], Mapping[str, list[int | float]]],
) -> list[click.Command]:
    """The ``verify`` and ``replay`` commands, built on the CLI's plumbing."""

    @click.command("verify")
    @click.argument("paths", nargs=-1, type=click.Path(path_type=str))
    @click.option(
        "--profile",
        default="quick",
        show_default=True,
        help="smoke (plumbing, ~1 min), quick (decisive on 2 cores) or full (paper-grade).",
    )
    @click.option(
        "--claims",
        "patterns",
        metavar="GLOB",
        multiple=True,
        help="Only claims whose id matches the glob (repeat for several: any of them).",
    )
    @click.option(
        "-k",
        "keyword",
        metavar="EXPR",
        default=None,
        help="Only claims whose id matches the expression: words (substrings, or globs with "
        "*?[) combined with and, or, not and parentheses, as pytest -k.",
    )
    @click.option(
        "--lf",
        "--last-failed",
        "last_failed",
        is_flag=True,
        help="Only the claims that did not pass in the last run recorded in the store "
        "(all of them when none failed).",
    )
    @click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first claim that fails.")
    @click.option(
        "--maxfail", type=int, default=None, metavar="N", help="Stop after N claims fail."
    )
    @click.option(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="Stop a claim still computing this long after it started (verdict: error).",
    )
    @executor_options
    @click.option(
        "--store",
        type=click.Path(path_type=str),
        default=".fedtheory/results.sqlite",
        show_default=True,
        help="SQLite result store (finished replicates are reused; runs are recorded).",
    )
    @click.option(
        "--report",
        "report_dir",
        type=click.Path(path_type=str),
        default="report",
        show_default=True,
        help="Folder for index.html, verdicts.json and figures.",
    )
    @click.option(
        "--format",
        "output_format",
        type=click.Choice(["table", "compact", "json"]),
        default="table",
        show_default=True,
        help="table (fits the terminal's width), compact (a line per claim) or json "
        "(the verdicts document on stdout).",
    )
    @click.option(
        "--junitxml",
        type=click.Path(path_type=str, dir_okay=False),
        default=None,
        metavar="FILE",
        help="Also write the verdicts as JUnit XML (for CI systems).",
    )
    @click.option("--seed", type=int, default=0, show_default=True, help="Base seed.")
    @click.option(
        "--no-cache", is_flag=True, help="Recompute every replicate (overwrites the store)."
    )
    @click.pass_context
    def verify_command(
        ctx: click.Context,
        paths: tuple[str, ...],
        profile: str,
        patterns: tuple[str, ...],
        keyword: str | None,
        last_failed: bool,
        exitfirst: bool,
        maxfail: int | None,
        timeout: float | None,
        executor: str | None,
        scheduler: str | None,
        workers: int | None,
        store: str,
        report_dir: str,
        output_format: str,
        junitxml: str | None,
        seed: int,
        no_cache: bool,
    ) -> None:
        """Run the claim catalog (default ./verification) and report a verdict per claim.

        Exit code 0 when every claim's outcome equals its expectation, 1 otherwise (or when
        -x/--maxfail stopped the run), 2 for bad input (checked before anything runs), 5 when
        the paths hold no claim, 130 when interrupted (Ctrl-C: in-flight tasks are cancelled,
        finished replicates kept; a second Ctrl-C exits at once).
        """
        from fedtheory.errors import NoClaimsError
        from fedtheory.verify import _arguments

        out = console()
        err_console = Console(stderr=True, markup=False, highlight=False, emoji=False)
        if exitfirst:
            if maxfail is not None and maxfail != 1:
                fail(f"-x/--exitfirst and --maxfail={maxfail}: give one of them")
            maxfail = 1
        claims: list[str] | None = list(patterns) or None
        if last_failed:
            claims = _last_failed_claims(store, claims, err_console)
        if junitxml is not None:
            _check_writable(junitxml, fail)
        _arguments.check_report_dir(report_dir)
        # the runner's own checks of these options, before it is imported (about a second)
        _arguments.check_run(
            profile=profile,
            seed=seed,
            maxfail=maxfail,
            timeout=timeout,
            executor=executor,
            workers=workers,
            scheduler=scheduler,
        )
        from fedtheory.verify import report, runner
        from fedtheory.verify.executors import available_cores

        progress = _Progress(err_console)
        try:
            run = runner.verify(
                list(paths),
                profile=profile,
                claims=claims,
                keyword=keyword,
                executor=executor,
                scheduler=scheduler,
                workers=workers,
                store=store,
                seed=seed,
                no_cache=no_cache,
                on_claim=progress.claim,
                on_progress=progress.update,
                maxfail=maxfail,
                timeout=timeout,
            )
        except runner.RunInterrupted as stop:
            progress.stop()
            click.echo(
                f"interrupted: {stop.stored} finished replicates kept in {stop.store} "
                f"({stop.cancelled} tasks cancelled); rerun to resume",
                err=True,
            )
            raise SystemExit(130) from None
        except KeyboardInterrupt:  # outside the computation (loading, starting workers, judging)
            progress.stop()
            click.echo(f"interrupted: finished replicates are kept in {store}", err=True)
            raise SystemExit(130) from None
        except NoClaimsError as exc:
            progress.stop()
            if debug(ctx):
                raise
            click.echo(f"error: {exc}; the previous report is left alone", err=True)
            raise SystemExit(no_claims_exit) from None
        finally:
            progress.stop()
        results = list(run.results)
        info = dict(run.info)
        if output_format == "table":
            report.render_table(results, out, run_info=info, debug=debug(ctx))
        elif output_format == "compact":
            report.render_compact(results, out, run_info=info, debug=debug(ctx))
        try:
            # the figures are drawn on as many processes as the run's workers (forked here)
            figure_workers = workers if workers is not None else available_cores()
            paths_written = report.write_report(
                results, report_dir, run_info=info, workers=figure_workers
            )
            if junitxml is not None:
                from fedtheory.verify.report.junit import write_junit

                write_junit(results, junitxml, run_info=info)
        except OSError as exc:
            fail(
                f"cannot write the report ({exc.strerror or exc}); the results are in "
                f"{store}: rerun with another --report or --junitxml to judge them again"
            )
        seconds = process_seconds()  # the command's wall time, the report included
        run_id = _record_run(run, store, seconds)
        if output_format == "json":
            document = report.verdicts_document(
                results, run_info={**info, "seconds": seconds, "run_id": run_id}
            )
            click.echo(json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False))
            target = err_console
        else:
            target = out
        line = report.summary_line(results, seconds)
        if run.not_judged:
            line += (
                f" — stopped after {run.info['maxfail']} failure(s): "
                f"{len(run.not_judged)} claims not judged"
            )
        target.print(Text(line, style="bold" if run.exit_code == 0 else "bold red"))
        target.print(f"report: {paths_written['html']}  (verdicts: {paths_written['json']})")
        if junitxml is not None:
            target.print(f"junit: {junitxml}")
        if run_id is not None:
            target.print(f"run {run_id} recorded in {store} (fedtheory runs list | runs diff)")
        if run.exit_code:
            raise SystemExit(run.exit_code)

    @click.command("replay")
    @click.argument("path", type=click.Path(path_type=str, exists=True, dir_okay=True))
    @click.argument("claim_id", metavar="CLAIM")
    @click.argument("pairs", nargs=-1, metavar="NAME=VALUE...")
    @click.option("--seed", type=int, required=True, help="The replicate's seed.")
    def replay_command(path: str, claim_id: str, pairs: tuple[str, ...], seed: int) -> None:
        """Rerun one replicate of a claim's experiment: at the point NAME=VALUE... with the
        seed, exactly as the run computed it, and print its outputs.

        `fedtheory verify` prints this command for every violated claim (its counterexample).
        """
        from fedtheory.verify.discovery import discover, select

        loaded = select(discover([path]), [claim_id])
        claim = loaded[0].claim
        params: dict[str, Any] = {}
        for name, values in parse_pairs(pairs).items():
            params[name] = values[0] if len(values) == 1 else values
        outputs = claim.experiment(params, seed)
        out = console()
        out.print(f"{claim.id} at {_pairs_text(params)}, seed {seed}:")
        width = max((len(str(k)) for k in outputs), default=0)
        for name, value in outputs.items():
            out.print(f"  {name:<{width}} = {float(value)!r}")

    return [verify_command, replay_command]


def _pairs_text(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items()) or "(no parameters)"


def _check_writable(path: str, fail: Callable[[str], Any]) -> None:
    target = Path(path)
    if target.is_dir():
        fail(f"--junitxml={path}: is a folder, not a file")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        fail(f"--junitxml={path}: its folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        fail(f"--junitxml={path}: its folder {parent} cannot be written")


def _last_failed_claims(
    store: str, claims: list[str] | None, err_console: Console
) -> list[str] | None:
    """``--lf``: the claims that did not pass in the last recorded run (as exact-id globs),
    within ``claims``; all of ``claims`` when the store has no run or none failed."""
    from fedtheory.verify.runs import last_failed
    from fedtheory.verify.selection import escape_glob, id_matcher
    from fedtheory.verify.store import ResultStore

    failed = None
    if Path(store).is_file():
        with ResultStore(store, readonly=True) as results:
            failed = last_failed(results)
    if not failed:
        why = "no run recorded" if failed is None else "no claim failed in the last run"
        err_console.print(f"--lf: {why} in {store}; running every selected claim")
        return claims
    if claims is not None:
        matches = id_matcher(claims)
        failed = [c for c in failed if matches(c)]
        if not failed:
            err_console.print("--lf: none of the failed claims matches --claims; running those")
            return claims
    err_console.print(f"--lf: rerunning the {len(failed)} claim(s) that failed last time")
    return [escape_glob(c) for c in failed]


def _record_run(run: Any, store: str, seconds: float) -> int | None:
    """Record the run's verdicts in the store (``fedtheory runs``), with the command's wall
    time; its id."""
    from fedtheory.verify.report import summarize
    from fedtheory.verify.runs import run_record
    from fedtheory.verify.store import ResultStore

    with ResultStore(store) as results:
        return results.record_run(
            {**run.info, "seconds": seconds},
            summarize(run.results),
            [run_record(r) for r in run.results],
        )
