"""The explorer without a browser: the JavaScript printer, the page's data, bad input, the CLI.

What the generated JavaScript computes is checked in a real browser by
``tests/test_explore_browser.py``; here the printer's text, its coverage of the registry and
every refusal (one line, exit 2 on the command line).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sympy as sp
from click.testing import CliRunner, Result

from fedtheory import bounds
from fedtheory.cli import cli
from fedtheory.errors import ParameterError
from fedtheory.explore import explorer_html, javascript_code, write_explorer

x, y = sp.symbols("x y", positive=True)
k = sp.Symbol("k", integer=True)
n = sp.Symbol("n", positive=True, integer=True)
NAMES = {x: "x[0]", y: "x[1]", n: "x[2]"}
DICHOTOMY = ["minimax.gmq.plt", "minimax.gmq.fedavg", "minimax.gmq.fedprox.tuned"]


def js(expr: sp.Basic) -> str:
    return javascript_code(expr, NAMES, bound_id="test.bound")


# --------------------------------------------------------------------------- the printer
@pytest.mark.parametrize(
    ("expr", "code"),
    [
        (x ** sp.Rational(3, 4), "Math.pow(x[0], 3/4)"),
        (sp.sqrt(x), "Math.sqrt(x[0])"),
        (x ** sp.Rational(1, 3), "Math.pow(x[0], 1/3)"),  # as numpy: x**(1/3), not cbrt
        (1 / (x + y), "1/(x[0] + x[1])"),
        (x**-2, "Math.pow(x[0], -2)"),
        (sp.Min(x, y, 1), "Math.min(1, x[0], x[1])"),
        (sp.Max(x, 2 * y), "Math.max(x[0], 2*x[1])"),
        (sp.log(x, 2), "Math.log(x[0])/Math.log(2)"),
        (sp.exp(-x) * sp.pi, "Math.PI*Math.exp(-x[0])"),
        (sp.E * x, "Math.E*x[0]"),
        (sp.ceiling(x), "Math.ceil(x[0])"),
        (sp.EulerGamma * x, "0.5772156649015329*x[0]"),
        (sp.Integer(2) ** 60 * x, "1.152921504606847e+18*x[0]"),
        (sp.Rational(2**60 + 1, 3) * x, "(3.843071682022823e+17)*x[0]"),
        (sp.Rational(1, 3) * x, "(1/3)*x[0]"),
        (sp.Le(x, y), "(x[0] <= x[1])"),
        (sp.Lt(x, 1) & sp.Ge(y, 2), "((x[1] >= 2) && (x[0] < 1))"),
        (sp.harmonic(n), "F.harmonic(x[2])"),
        (sp.harmonic(n, sp.Rational(3, 2)), "F.harmonic(x[2], 3/2)"),
        (sp.factorial(n), "F.factorial(x[2])"),
        (sp.Piecewise((x, x < 1), (y, True)), "(((x[0] < 1)) ? (x[0]) : (x[1]))"),
        (sp.Piecewise((x, x < 1)), "(((x[0] < 1)) ? (x[0]) : NaN)"),
    ],
)
def test_printer_output(expr: sp.Basic, code: str) -> None:
    assert js(expr) == code


def test_sums_are_loops_with_their_own_indices() -> None:
    j = sp.Symbol("j", integer=True)
    inner = sp.Sum(1 / (j + k), (j, 1, k))
    code = js(sp.Sum(inner**2, (k, 1, n)) + sp.Sum(1 / k, (k, 1, n)))
    assert code.count("F.sum(") == 3
    indices = re.findall(r"\((i\d+_[jk])\) =>", code)
    assert len(indices) == len(set(indices)) == 3  # a fresh index per loop
    # the inner loop's upper limit is the outer index
    assert re.search(r"F\.sum\(1, (i\d+_k), \(i\d+_j\) =>", code)
    # a double sum: the last limit is the outer loop
    double = js(sp.Sum(x * k * j, (k, 1, 2), (j, 1, n)))
    assert re.fullmatch(r"F\.sum\(1, x\[2\], \(i0_j\) => F\.sum\(1, 2, \(i1_k\) => .*\)\)", double)


@pytest.mark.parametrize(
    ("expr", "construct"),
    [
        (sp.Sum(sp.IndexedBase("e2")[k], (k, 1, n)), "Sum over a sequence (e2)"),
        (sp.IndexedBase("a")[1] * x, "the sequence 'a' (an array input)"),
        (sp.besselj(1, x), "besselj"),
        (sp.Integer(10) ** 400 * x, "not a finite float64"),
        (sp.I * x, "the imaginary unit"),
        (sp.Symbol("z") * x, "the symbol 'z'"),
    ],
)
def test_printer_refusals_name_the_bound_and_the_construct(expr: sp.Basic, construct: str) -> None:
    with pytest.raises(ParameterError) as info:
        js(expr)
    message = str(info.value)
    assert message.startswith("bound 'test.bound' uses ")
    assert construct in message
    assert message.endswith("which the explorer cannot express in JavaScript")


def test_registry_coverage() -> None:
    """212 of the 230 bounds are expressible; the 18 others sum over a sequence."""
    expressible, refused = [], {}
    for bound in bounds.iter_bounds():
        names = {info.symbol: f"x[{i}]" for i, info in enumerate(bound.info.values())}
        try:
            for expr in (bound.expr, *bound.conditions):
                javascript_code(expr, names, bound_id=bound.id)
        except ParameterError as exc:
            refused[bound.id] = str(exc)
        else:
            expressible.append(bound.id)
    assert len(expressible) + len(refused) == len(bounds.ids()) == 230
    assert len(expressible) == 212
    assert all("uses Sum over a sequence" in m for m in refused.values()), refused
    assert set(refused) == {b.id for b in bounds.iter_bounds() if b.sequences}


# --------------------------------------------------------------------------- the page
def _data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', page)
    assert found is not None
    return json.loads(found[1])


def test_page_is_self_contained_and_generated() -> None:
    page = explorer_html(
        [*DICHOTOMY, "minimax.minimax-rate.ier"],
        "R",
        flat=True,
        tie={"N": "m*n"},
        values={"C": 0.5, "d": 10},
    )
    # nothing from the network: no external script, style, image or link
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}
    formulas = page[page.index("const FORMULAS") : page.index("const TIES")]
    # local training ds²/(2n) in the factor order of Bound.evaluate's compiled code
    # ("(1/2)*Dummy_0000*Dummy_0002/Dummy_0001"; x = [d, n, s2], the order of bound.info)
    assert "value: (x) => (1/2)*x[2]*x[0]/x[1]," in formulas
    data = _data(page)
    assert [b["id"] for b in data["bounds"]] == [*DICHOTOMY, "minimax.minimax-rate.ier"]
    keys = {v["key"]: v for v in data["variables"]}
    assert keys["C@minimax.minimax-rate.ier"]["value"] == 0.5
    assert keys["N"]["tie"] == "m*n" and keys["N"]["tieSymbols"] == ["m", "n"]
    assert keys["d"]["value"] == 10 and keys["d"]["integer"] and keys["d"]["positive"]
    assert data["axis"] == "R" and "R" in data["axes"]
    assert 'TIES = {\n  "N": (v) => v["m"]*v["n"],' in page
    assert "<math" in data["bounds"][0]["mathml"]


def test_default_axis_and_slider_ranges() -> None:
    data = _data(explorer_html(["fedlrgd.thm3", "fedlrgd.fedgd"]))
    assert data["axis"] == "m"  # the first preferred symbol both bounds have
    keys = {v["key"]: v for v in data["variables"]}
    # three decades either side, clipped to the hypothesis epsilon ≤ 1 of fedlrgd.thm3
    assert keys["epsilon"]["low"] == pytest.approx(1e-5) and keys["epsilon"]["high"] == 1
    assert keys["kappa"]["low"] == 1  # kappa > 1
    assert keys["m"]["low"] == 1 and keys["m"]["high"] == 1_000_000  # integers from 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: explorer_html(["minimax.gmq.pl"]), "close matches: minimax.gmq.plt"),
        (lambda: explorer_html(["classic.inexact-gd"]), "uses Sum over a sequence (e2)"),
        (lambda: explorer_html(DICHOTOMY, "R"), "axis 'R' is not a symbol of minimax.gmq.plt"),
        (lambda: explorer_html(DICHOTOMY, "Q"), "axis 'Q' is not a symbol of these bounds"),
        (
            lambda: explorer_html(["minimax.gmq.plt", "fedlrgd.thm3"]),
            "no symbol with a positive domain is shared",
        ),
        (lambda: explorer_html(["minimax.thm4"], "C"), "is an unknown constant"),
        (lambda: explorer_html(DICHOTOMY, "d", tie={"N": "m*n"}, values={"N": 5}), "is tied"),
        (lambda: explorer_html(DICHOTOMY, "d", tie={"N": "m*q"}), "uses q, not symbols"),
        (lambda: explorer_html(DICHOTOMY, "d", tie={"N": "m*n", "m": "n"}), "tied symbol"),
        (lambda: explorer_html(DICHOTOMY, "d", values={"n": 2.5}), "must be an integer"),
        (lambda: explorer_html(DICHOTOMY, "d", values={"s2": -1}), "must be positive"),
        (lambda: explorer_html(DICHOTOMY, "d", values={"nn": 1}), "did you mean n"),
        (lambda: explorer_html(DICHOTOMY, "d", ranges={"s2": (2, 1)}), "needs low < high"),
        (lambda: explorer_html([]), "must name a bound"),
        (lambda: explorer_html("minimax.gmq.plt"), "must be a list"),
        (lambda: explorer_html(["minimax.gmq.plt"] * 2), "each bound once"),
    ],
)
def test_bad_input_is_refused(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ParameterError, match=re.escape(message)):
        call()


# --------------------------------------------------------------------------- the CLI
def run(*args: str) -> Result:
    runner = CliRunner(env={"FORCE_COLOR": None, "TTY_COMPATIBLE": None})
    return runner.invoke(cli, list(args))


def test_cli_writes_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run(
        "explore", *DICHOTOMY, "--axis", "R", "--flat", "--tie", "N=m*n", "--value", "d=10"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == "wrote explore.html\n"
    data = _data((tmp_path / "explore.html").read_text(encoding="utf-8"))
    assert data["axis"] == "R" and {"key": "N"}.items() <= {"key": "N"}.items()
    assert {v["key"]: v["value"] for v in data["variables"]}["d"] == 10
    out = tmp_path / "sub" / "page.html"
    assert run("explore", "minimax.gmq.plt", "-o", str(out)).stdout == f"wrote {out}\n"
    assert out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["minimax.gmq.pl"], "error: no bound with id 'minimax.gmq.pl'; close matches: "),
        ([*DICHOTOMY, "--axis", "R"], "error: axis 'R' is not a symbol of minimax.gmq.plt"),
        (["classic.inexact-gd"], "error: bound 'classic.inexact-gd' uses Sum over a sequence"),
        (["minimax.gmq.plt", "--tie", "N"], "error: malformed --tie 'N'"),
        (["minimax.gmq.plt", "--value", "d=1,2"], "error: --value d takes one number"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("explore", *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr
    assert not (tmp_path / "explore.html").exists()


def test_write_explorer_returns_the_path(tmp_path: Path) -> None:
    path = write_explorer(tmp_path / "a" / "b.html", ["minimax.gmq.plt"])
    assert path == tmp_path / "a" / "b.html"
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Before: a FileNotFoundError traceback (``-o /proc/x.html``)."""
    (tmp_path / "a-file").write_text("not a folder")
    target = tmp_path / "a-file" / "page.html"
    result = run("explore", "minimax.gmq.plt", "-o", str(target))
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: path='{target}': must be a file")
