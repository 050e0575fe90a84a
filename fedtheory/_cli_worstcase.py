"""``fedtheory worstcase``: the exact worst case of a federated method from the command line.

Built by :func:`worstcase_command` from the CLI's shared plumbing (passed in, so that this module
does not import :mod:`fedtheory.cli`, which registers it). Examples::

    fedtheory worstcase list
    fedtheory worstcase fedavg m=2 K=4 T=3 L=1 mu=0.1 eta=0.5 zeta2=1 R2=1
    fedtheory worstcase gd T=5 L=1 mu=0 eta=1 --measure function
    fedtheory worstcase gd T=5 L=1 mu=0.1 eta=1 eps2=0.01 Delta0=1 --measure function
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import click

__all__ = ["worstcase_command"]

#: Parameters that take a sequence (one value per client or per local step).
_SEQUENCES = ("weights", "eps2")


def _parameters(
    values: Mapping[str, list[int | float]], fail: Callable[[str], Any]
) -> dict[str, Any]:
    parameters: dict[str, Any] = {}
    for name, numbers in values.items():
        if name in _SEQUENCES and len(numbers) > 1:
            parameters[name] = [float(v) for v in numbers]
        elif len(numbers) != 1:
            fail(f"{name} takes one number (got {len(numbers)}); only {_SEQUENCES} are lists")
        else:
            parameters[name] = numbers[0]
    return parameters


def _list_methods(console: Any) -> None:
    from rich.table import Table

    from fedtheory.worstcase import MEASURES, METHODS, PARAMETERS

    table = Table(title="methods (fedtheory worstcase METHOD NAME=VALUE ...)")
    table.add_column("method", no_wrap=True)
    table.add_column("what it does")
    table.add_column("required")
    table.add_column("optional")
    for method in METHODS.values():
        required = method.required()
        optional = [
            p
            for p in method.parameters
            if p not in required and p not in ("functions", "heterogeneity")
        ]
        table.add_row(method.name, method.description, " ".join(required), " ".join(optional))
    console.print(table)
    console.print("parameters:")
    for name, meaning in PARAMETERS.items():
        console.print(f"  {name:>13}  {meaning}")
    console.print(f"measures (--measure): {', '.join(MEASURES)}")


def worstcase_command(
    *,
    parse_pairs: Callable[[Sequence[str]], dict[str, list[int | float]]],
    console: Callable[[], Any],
    fail: Callable[[str], Any],
) -> click.Command:
    """The ``worstcase`` command, built on the CLI's argument parser, console and error path."""
    from fedtheory.worstcase._setting import FUNCTION_CLASSES, HETEROGENEITY, MEASURES

    @click.command("worstcase")
    @click.argument("method", metavar="METHOD|list")
    @click.argument("pairs", nargs=-1, metavar="NAME=VALUE...")
    @click.option(
        "--measure",
        type=click.Choice(MEASURES),
        default="distance",
        show_default=True,
        help="‖x_T − x*‖², F(x_T) − F*, min_t F(x_t) − F* or min_t ‖∇F(x_t)‖².",
    )
    @click.option(
        "--functions",
        type=click.Choice(FUNCTION_CLASSES),
        default="convex",
        show_default=True,
        help="Client class: L-smooth μ-strongly convex, quadratic, or L-smooth non-convex.",
    )
    @click.option(
        "--heterogeneity",
        type=click.Choice(HETEROGENEITY),
        default="optimum",
        show_default=True,
        help="How zeta2 bounds the clients' differences.",
    )
    @click.option(
        "--solver",
        type=click.Choice(("auto", "clarabel", "scs"), case_sensitive=False),
        default="auto",
        show_default=True,
        help="auto: Clarabel, then SCS if Clarabel does not reach optimal.",
    )
    def command(
        method: str,
        pairs: tuple[str, ...],
        measure: str,
        functions: str,
        heterogeneity: str,
        solver: str,
    ) -> None:
        """Exact worst case of METHOD (an SDP, PEPit + a free solver) at NAME=VALUE pairs.

        `fedtheory worstcase list` shows the methods and their parameters. eps2 (one budget per
        local step) and weights (one per client) take comma-separated lists.
        """
        from fedtheory.worstcase import worst_case

        out = console()
        if method == "list":
            if pairs:
                fail("'worstcase list' takes no NAME=VALUE arguments")
            _list_methods(out)
            return
        parameters = _parameters(parse_pairs(pairs), fail)
        if functions != "convex":
            parameters["functions"] = functions
        if heterogeneity != "optimum":
            parameters["heterogeneity"] = heterogeneity
        result = worst_case(
            method,
            measure=measure,
            solver=solver if solver == "auto" else solver.upper(),
            **parameters,
        )
        shown = ", ".join(f"{k}={v}" for k, v in result.parameters.items())
        out.print(f"{result.method} ({shown})")
        out.print(f"  worst-case {result.measure}: {result.value:.10g}")
        out.print(
            f"  solver {result.solver} ({result.status}), dual–primal gap {result.gap:.2g}, "
            f"{result.gram_size}×{result.gram_size} Gram matrix, {result.n_constraints} "
            f"constraints, {result.solve_seconds:.2f} s"
        )
        multipliers = ", ".join(f"{k} {v:.6g}" for k, v in result.dual.items())
        out.print(f"  dual certificate: {multipliers}")
        out.print(f"  worst-case instance: dimension {result.gram_rank} (rank of the Gram matrix)")

    return command
