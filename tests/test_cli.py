"""Tests of the command-line interface (``fedtheory.cli``) through click's CliRunner."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sympy as sp
from click.testing import CliRunner, Result

from fedtheory import bounds
from fedtheory._version import __version__
from fedtheory.bounds import COMMON, Bound, Citation, register
from fedtheory.bounds._bound import _REGISTRY
from fedtheory.cli import cli, main
from fedtheory.errors import ConditionError

GD = "classic.gd.strongly-convex"
GD_DISTANCE = "classic.gd.strongly-convex.distance"
SGD_DISTANCE = "classic.sgd.strongly-convex.distance"
INEXACT = "classic.inexact-gd"
GD_POINT = ["L=10", "mu=1", "T=20", "Delta0=1"]


def run(*args: str) -> Result:
    """Invoke the CLI without colour forcing, so that the output is plain text."""
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    return runner.invoke(cli, list(args))


def assert_one_line_error(result: Result) -> str:
    """Exit code 2, nothing on stdout, exactly one line ``error: ...`` on stderr."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def values_of(result: Result) -> list[float]:
    """The numbers printed by ``bounds eval`` (one per point, after the arrow)."""
    assert result.exit_code == 0, result.output
    found = re.findall(r"→\s+(\S+)", result.stdout)
    return [float(v) for v in found]


def _temporary(bound_id: str, expr: sp.Expr, example: dict, **kwargs: Any) -> Iterator[Bound]:
    """Register a throwaway bound in the test variable ``x`` for one test."""
    bound = register(
        Bound(
            bound_id,
            expr,
            kind=kwargs.pop("kind", "upper"),
            quantity="test quantity",
            source=Citation("classic", "test"),
            example=example,
            meanings={"x": "test variable"},
            **kwargs,
        )
    )
    yield bound
    _REGISTRY.pop(bound.id, None)


X = sp.Symbol("x", positive=True)


@pytest.fixture
def overflow_bound() -> Iterator[Bound]:
    """A temporary bound exp(x), whose value leaves float64 for x ≳ 710."""
    yield from _temporary("classic.test-overflow", sp.exp(X), {"x": 1})


@pytest.fixture
def order_bound() -> Iterator[Bound]:
    """A temporary order bound C·x (its constant C is unknown)."""
    yield from _temporary(
        "classic.test-order", COMMON.symbol("C") * X, {"x": 3}, kind="order-upper"
    )


@pytest.fixture
def broken_bound() -> Iterator[Bound]:
    """A temporary bound whose example point violates its own hypothesis x < 1."""
    yield from _temporary("classic.test-broken", X, {"x": 2}, hypotheses=[sp.Lt(X, 1)])


# ---------------------------------------------------------------------------- global
def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"fedtheory {__version__}"


def test_main_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"fedtheory {__version__}"


def test_usage_errors_are_one_line() -> None:
    line = assert_one_line_error(run("bounds", "no-such-command"))
    assert "no-such-command" in line
    line = assert_one_line_error(run("--no-such-option"))
    assert "--no-such-option" in line


def test_debug_shows_the_exception() -> None:
    result = run("--debug", "bounds", "eval", GD, "L=10", "mu=20", "T=20", "Delta0=1")
    assert isinstance(result.exception, ConditionError)
    assert result.exit_code != 2


# ---------------------------------------------------------------------------- list
def test_list_shows_every_bound() -> None:
    result = run("bounds", "list")
    assert result.exit_code == 0
    for bound_id in bounds.ids():
        assert bound_id in result.stdout
    assert result.stdout.strip().splitlines()[-1] == f"{len(bounds.ids())} bounds"
    assert "≤" in result.stdout  # the statement column


def test_list_filters_by_paper() -> None:
    result = run("bounds", "list", "--paper", "classic")
    assert result.exit_code == 0
    classic = bounds.ids("classic")
    assert classic
    assert all(bound_id in result.stdout for bound_id in classic)
    assert f"{len(classic)} bounds" in result.stdout

    result = run("bounds", "list", "--paper", "minimax")
    assert result.exit_code == 0
    assert "classic." not in result.stdout
    assert result.stdout.strip().splitlines()[-1] == f"{len(bounds.ids('minimax'))} bounds"


def test_list_unknown_paper() -> None:
    line = assert_one_line_error(run("bounds", "list", "--paper", "nope"))
    assert "paper" in line
    assert "nope" in line


# ---------------------------------------------------------------------------- show
def test_show() -> None:
    result = run("bounds", "show", GD)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert GD in out
    assert r"\left(" in out
    assert r"\mu" in out
    assert "mu ≤ L" in out
    assert "Karimi" in out
    assert "strong-convexity constant" in out  # symbol table: meaning
    assert "nonnegative integer" in out  # symbol table: domain of T
    t_lines = [line for line in out.splitlines() if line.strip().startswith("T ")]
    assert any("at ∞" in line and "faster than any power" in line for line in t_lines)
    # T is an integer: its exponent at 0 is refused with the reason instead of failing
    assert any("at 0" in line and "—" in line and "integer" in line for line in t_lines)
    mu_lines = [line for line in out.splitlines() if line.strip().startswith("mu ")]
    assert any("at ∞" in line and "hypotheses" in line for line in mu_lines)


def test_show_unknown_id_suggests_close_match() -> None:
    line = assert_one_line_error(run("bounds", "show", "classic.gd.strongly-convx"))
    suggestions = line.split("close matches:", 1)[1].split(",")
    assert GD in [s.strip() for s in suggestions]


# ---------------------------------------------------------------------------- eval
def test_eval_value() -> None:
    (value,) = values_of(run("bounds", "eval", GD, *GD_POINT))
    assert value == pytest.approx(0.9**20, rel=1e-9)


def test_eval_log() -> None:
    result = run("bounds", "eval", GD, *GD_POINT, "--log")
    (log10,) = re.findall(r"log10 (\S+)\)", result.stdout)
    assert float(log10) == pytest.approx(20 * math.log10(0.9), rel=1e-9)


def test_eval_failed_hypothesis_and_no_check() -> None:
    point = ["L=10", "mu=20", "T=20", "Delta0=1"]
    line = assert_one_line_error(run("bounds", "eval", GD, *point))
    assert "mu ≤ L" in line
    assert "--no-check" in line
    (value,) = values_of(run("bounds", "eval", GD, *point, "--no-check"))
    assert value == pytest.approx((1 - 20 / 10) ** 20, rel=1e-12)


def test_eval_sequence_parameter() -> None:
    e2 = [0.1, 0.05, 0.02]
    result = run("bounds", "eval", INEXACT, "L=4", "mu=1", "S=3", "Delta0=1", "e2=0.1,0.05,0.02")
    (value,) = values_of(result)
    q = 1 - 1 / 4
    expected = q**3 + sum(q ** (3 - k) * e2[k - 1] for k in range(1, 4)) / (2 * 4)
    assert value == pytest.approx(expected, rel=1e-9)


def test_eval_several_points() -> None:
    result = run("bounds", "eval", GD, "L=10", "mu=1", "T=1,2,3", "Delta0=1")
    assert values_of(result) == pytest.approx([0.9, 0.81, 0.729], rel=1e-12)


def test_eval_uneven_lists() -> None:
    line = assert_one_line_error(run("bounds", "eval", GD, "L=10,20", "mu=1", "T=1,2,3"))
    assert "same length" in line


@pytest.mark.parametrize(
    ("pair", "fragment"),
    [("L10", "L10"), ("L=ten", "L=ten"), ("=3", "=3"), ("L=", "L=")],
)
def test_eval_malformed_pair(pair: str, fragment: str) -> None:
    line = assert_one_line_error(run("bounds", "eval", GD, pair, "mu=1", "T=2", "Delta0=1"))
    assert fragment in line


def test_eval_unknown_parameter() -> None:
    line = assert_one_line_error(run("bounds", "eval", GD, *GD_POINT, "kappa=3"))
    assert "kappa" in line


def test_eval_overflow_prints_power_of_ten(overflow_bound: Bound) -> None:
    result = run("bounds", "eval", overflow_bound.id, "x=1000")
    assert result.exit_code == 0, result.output
    assert "10^434.29" in result.stdout
    (log10,) = re.findall(r"~10\^(\S+)", result.stdout)
    assert float(log10) == pytest.approx(1000 / math.log(10), rel=1e-9)
    # below the overflow the ordinary value is printed
    (value,) = values_of(run("bounds", "eval", overflow_bound.id, "x=2"))
    assert value == pytest.approx(math.exp(2), rel=1e-9)


def test_eval_order_bound_needs_its_constant(order_bound: Bound) -> None:
    line = assert_one_line_error(run("bounds", "eval", order_bound.id, "x=3"))
    assert "constant" in line
    assert "C" in line
    (value,) = values_of(run("bounds", "eval", order_bound.id, "x=3", "C=2"))
    assert value == pytest.approx(6.0)


# ---------------------------------------------------------------------------- crossover
def _roots(function: Callable[[float], float], lo: float, hi: float) -> list[float]:
    """All sign changes of ``function`` on a log grid of [lo, hi], refined by bisection."""
    grid = [lo * (hi / lo) ** (k / 2000) for k in range(2001)]
    roots = []
    for left, right in itertools.pairwise(grid):
        if function(left) * function(right) < 0:
            for _ in range(200):
                middle = (left + right) / 2
                if function(left) * function(middle) <= 0:
                    right = middle
                else:
                    left = middle
            roots.append((left + right) / 2)
    return roots


def _crossing_values(result: Result, var: str) -> list[float]:
    assert result.exit_code == 0, result.output
    found = re.findall(rf"^\s+{var} = ([-+0-9.eE]+)(?:;|$)", result.stdout, flags=re.M)
    return [float(v) for v in found]


def test_crossover_in_L_matches_bisection() -> None:
    g2, mu, t, d0 = 1, 1, 2, 16

    def difference(L: float) -> float:
        return 4 * g2 / (mu**2 * t) - ((L - mu) / (L + mu)) ** (2 * t) * d0

    expected = _roots(difference, 1e-3, 1e3)
    assert len(expected) == 2
    result = run(
        "bounds", "crossover", SGD_DISTANCE, GD_DISTANCE, "L", "G2=1", "mu=1", "T=2", "D0=16"
    )
    found = _crossing_values(result, "L")
    assert found == pytest.approx(expected, rel=1e-6)
    # the crossing below mu violates mu ≤ L of the GD bound; the one above is valid
    assert "outside the hypotheses" in result.stdout
    assert "inside the hypotheses" in result.stdout


def test_crossover_in_T_matches_bisection() -> None:
    g2, mu, big_l, d0 = 1, 1, 10, 1000

    def difference(t: float) -> float:
        return 4 * g2 / (mu**2 * t) - ((big_l - mu) / (big_l + mu)) ** (2 * t) * d0

    expected = _roots(difference, 1e-4, 1e4)
    assert len(expected) == 2  # T ≈ 0.004 and T ≈ 21.39
    result = run(
        "bounds", "crossover", SGD_DISTANCE, GD_DISTANCE, "T", "G2=1", "mu=1", "L=10", "D0=1000"
    )
    assert _crossing_values(result, "T") == pytest.approx(expected, rel=1e-6)


def test_crossover_symbolic() -> None:
    result = run("bounds", "crossover", SGD_DISTANCE, GD_DISTANCE, "L", "G2=1", "mu=1", "T=1")
    assert result.exit_code == 0, result.output
    forms = re.findall(r"^\s+L = (.+)$", result.stdout, flags=re.M)
    assert len(forms) == 2
    assert "closed form in D0" in result.stdout
    d0 = sp.Symbol("D0", positive=True)
    # 4 = ((L − 1)/(L + 1))² · 16 at L = 3 and L = 1/3
    values = sorted(float(sp.sympify(f, locals={"D0": d0}).subs(d0, 16)) for f in forms)
    assert values == pytest.approx([1 / 3, 3], rel=1e-12)


def test_crossover_none() -> None:
    result = run(
        "bounds", "crossover", SGD_DISTANCE, GD_DISTANCE, "L", "G2=1", "mu=1", "T=1", "D0=1"
    )
    assert result.exit_code == 0, result.output
    assert "no crossing in the domain of L" in result.stdout


def test_crossover_unknown_variable() -> None:
    line = assert_one_line_error(run("bounds", "crossover", SGD_DISTANCE, GD_DISTANCE, "zz"))
    assert "'zz'" in line


# ---------------------------------------------------------------------------- check
def test_check(overflow_bound: Bound) -> None:
    # One paper: the command's path is the same for every paper, and every registered bound's
    # example point and exponents are exercised bound by bound in test_bound_contract.py
    # (checking the whole registry again here cost about 100 s of the suite).
    result = run("bounds", "check", "--paper", "classic")
    assert result.exit_code == 0, result.output
    ids = bounds.ids("classic")
    assert overflow_bound.id in ids
    for bound_id in ids:
        assert bound_id in result.stdout
    assert f"{len(ids)} bounds evaluated at their example points; 0 failed" in result.stdout
    rows = {line.split()[1]: line for line in result.stdout.splitlines() if "classic." in line}
    assert "0.1215766546" in rows[GD]  # 0.9**20
    assert "T: -∞" in rows[GD]
    assert "T: -1" in rows[SGD_DISTANCE]
    assert "mu: —" in rows[GD]  # mu → ∞ leaves mu ≤ L


def test_check_reports_failures(broken_bound: Bound) -> None:
    result = run("bounds", "check", "--paper", "classic")
    assert result.exit_code == 1
    classic = bounds.ids("classic")
    assert f"{len(classic)} bounds evaluated at their example points; 1 failed" in result.stdout
    (row,) = [line for line in result.stdout.splitlines() if broken_bound.id in line]
    assert "FAILED" in row
    other = [i for i in bounds.ids() if i not in classic]
    assert not [i for i in other if f" {i} " in result.stdout]


def test_check_refuses_an_unknown_paper() -> None:
    result = run("bounds", "check", "--paper", "nopaper")
    assert result.exit_code == 2
    assert "--paper=nopaper: unknown paper key" in result.output
    assert len(result.output.strip().splitlines()) == 1
