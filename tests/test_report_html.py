"""Tests of ``index.html`` (``fedtheory.verify.report.html``): summary order, errata badge,
counts per paper, MathML, statement scripts, escaping, error and violated cards, the filter
script, no external resources."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, ClassVar

import pytest

from fedtheory import bounds
from fedtheory.bounds import Citation
from fedtheory.verify import Claim, ClaimResult, Sweep, Verdict
from fedtheory.verify._math import (
    TexError,
    bound_mathml,
    statement_html,
    tex_to_mathml,
)
from fedtheory.verify.criteria import Criterion
from fedtheory.verify.report import write_html
from fedtheory.verify.report._common import rerun_command

EVIL = "<img src=x onerror=alert(1)>\"'&"


def experiment(params: dict[str, Any], seed: int) -> dict[str, float]:
    """Stand-in experiment (never run: the report only reads results)."""
    return {"y": float(seed)}


class StandIn(Criterion):
    def judge(self, data: Any, *, seed: int = 0) -> Verdict:
        raise NotImplementedError

    def describe(self) -> str:
        return "stand-in criterion"

    def to_dict(self) -> dict[str, Any]:
        return {"criterion": "StandIn"}


SWEEP = Sweep(grid={"T": [10, 100]}, replicates=2)


def make(
    id: str,
    outcome: str,
    *,
    statement: str = "A statement.",
    expect: str = "holds",
    reason: str | None = None,
    bound: Any = None,
    seconds: float = 1.0,
    **verdict: Any,
) -> ClaimResult:
    claim = Claim(
        id=id,
        source=Citation(id.split("/")[0], "Theorem 1"),
        statement=statement,
        experiment=experiment,
        sweeps={"smoke": SWEEP, "quick": SWEEP},
        criterion=StandIn(),
        bound=bound,
        expect=expect,  # type: ignore[arg-type]
        notes="a note with x_0 and `y_max`",
    )
    return ClaimResult(
        claim=claim,
        profile="smoke",
        verdict=Verdict(outcome, reason or f"reason of {id}", **verdict),
        n_points=2,
        n_replicates=4,
        n_cached=0,
        n_computed=4,
        compute_seconds=seconds,
        file="verification/demo.py",
    )


COUNTEREXAMPLE = {"params": {"T": 10}, "replicate": 0, "seed": 4242, "measured": 2.0}


@pytest.fixture(scope="module")
def results() -> list[ClaimResult]:
    gd = bounds.get("classic.gd.strongly-convex")
    return [
        make("classic/gd/rate", "holds", bound=gd, statement="(1 − μ/L)^{2T} D0 and e^{−a/2}."),
        make("classic/gd/other", "holds", seconds=9.0),
        make("classic/gd/erratum", "violated", expect="violated", counterexample=COUNTEREXAMPLE),
        make("classic/sgd/wrong", "violated", reason="slope −0.5 outside the band",
             counterexample=COUNTEREXAMPLE),
        make("minimax/thm4/unsure", "inconclusive", reason="the CI is too wide"),
        make("minimax/thm4/broken", "error", reason="ZeroDivisionError: division by zero",
             where="verification/minimax/thm4.py:42",
             traceback="Traceback (most recent call last):\n  File ...\nZeroDivisionError"),
        make("minimax/thm5/errata2", "violated", expect="violated", reason="exceeded at n=10"),
        make("minimax/thm5/evil", "holds", statement=EVIL, reason=EVIL),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def page(results: list[ClaimResult], tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("html") / "index.html"
    assert write_html(results, path, run_info={"seed": 7}, created="2025-01-01T00:00:00Z") == path
    return path.read_text("utf-8")


def card(page: str, claim_id: str) -> str:
    start = page.index(f'id="claim-{claim_id.replace("/", "__")}"')
    return page[start : page.index("</article>", start)]


def summary(page: str) -> str:
    return page[page.index('<section id="summary">') : page.index('<nav id="contents">')]


def test_summary_comes_first_in_order(page: str) -> None:
    assert page.index('id="summary"') < page.index('id="contents"') < page.index('id="claims"')
    assert page.index('id="summary"') < page.index("<article")
    text = summary(page)
    positions = [
        text.index(f'id="summary-{key}"') for key in ("failures", "errata", "inconclusive", "holds")
    ]
    assert positions == sorted(positions)
    # failed before error inside the first group; every failing claim links to its card
    failures = text[positions[0] : positions[1]]
    assert failures.index("classic/sgd/wrong") < failures.index("minimax/thm4/broken")
    assert 'href="#claim-classic__sgd__wrong"' in failures
    assert "slope −0.5 outside the band" in failures  # the one-line reason
    assert "verification/minimax/thm4.py:42" in failures  # where the error was raised
    errata = text[positions[1] : positions[2]]
    assert "classic/gd/erratum" in errata and "minimax/thm5/errata2" in errata
    assert "exceeded at n=10" in errata
    counts = re.findall(r'<span class="count ([a-z-]+)">(\d+) ', text)
    assert counts == [("failed", "1"), ("error", "1"), ("violated-as-expected", "2"),
                      ("inconclusive", "1"), ("holds", "3")]  # fmt: skip


def test_errata_have_their_own_badge(page: str) -> None:
    erratum = card(page, "classic/gd/erratum")
    holds = card(page, "classic/gd/rate")
    assert '<span class="badge violated-as-expected">violated' in erratum  # the outcome word
    assert "erratum" in erratum
    assert '<span class="badge holds">holds</span>' in holds
    colours = dict(re.findall(r"--(holds|violated-as-expected): (#[0-9a-f]{6})", page))
    assert colours["holds"] != colours["violated-as-expected"]


def test_counts_per_paper(page: str) -> None:
    cells = {
        (paper, status): int(n)
        for paper, status, n in re.findall(
            r'data-paper="([a-z]+)" data-status="([a-z-]+)">(?:<a [^>]*>)?(\d+)', summary(page)
        )
    }
    assert cells[("classic", "holds")] == 2
    assert cells[("classic", "violated-as-expected")] == 1
    assert cells[("classic", "failed")] == 1
    assert cells[("classic", "total")] == 4
    assert cells[("minimax", "holds")] == 1
    assert cells[("minimax", "error")] == 1
    assert cells[("minimax", "inconclusive")] == 1
    assert cells[("minimax", "violated-as-expected")] == 1
    assert cells[("minimax", "failed")] == 0
    assert cells[("minimax", "total")] == 4
    # the contents: one closed <details> per paper with its counts in the summary line
    contents = page[page.index('<nav id="contents">') : page.index("</nav>")]
    assert contents.count('<details class="toc-paper">') == 2
    assert "<details open" not in contents
    assert '<span class="holds">2 holds</span>' in contents
    assert '<span class="violated-as-expected">1 erratum</span>' in contents


def test_bound_as_mathml(page: str) -> None:
    rate = card(page, "classic/gd/rate")
    assert '<math display="block">' in rate and "</math>" in rate
    assert "<mfrac>" in rate and "<mo>≤</mo>" in rate
    assert "\\frac" not in page and "\\left" not in page and "\\leq" not in page


def test_statement_scripts(page: str) -> None:
    rate = card(page, "classic/gd/rate")
    assert "(1 − μ/L)<sup>2T</sup> D0 and e<sup>−a/2</sup>." in rate
    assert "<dt>Notes</dt><dd>a note with x<sub>0</sub> and <code>y_max</code></dd>" in rate
    assert statement_html("x_0, ρ_max^n, θ̄^(0), Σ_{k≤τ} v_k, `bound_ratio`") == (
        "x<sub>0</sub>, ρ<sub>max</sub><sup>n</sup>, θ̄<sup>(0)</sup>, Σ<sub>k≤τ</sub> "
        "v<sub>k</sub>, <code>bound_ratio</code>"
    )
    assert statement_html("sum_largest(L) & a^{b") == "sum_largest(L) &amp; a<code>^{b</code>"


def test_tex_subset_and_fallback() -> None:
    assert tex_to_mathml(r"\mathbf{p}") == "<mrow><mi>𝐩</mi></mrow>"
    assert tex_to_mathml(r"|\mathcal{A}|") == "<mo>|</mo><mrow><mi>𝒜</mi></mrow><mo>|</mo>"
    assert "<msqrt>" in tex_to_mathml(r"\sqrt{\Xi}")
    with pytest.raises(TexError):
        tex_to_mathml(r"\unknowncommand{x}")
    with pytest.raises(TexError):
        tex_to_mathml(r"x^{2")

    class Odd:  # a bound whose quantity is not in the subset: shown as text, not lost
        quantity = "error <b>"
        quantity_latex = r"\weird{x}"
        expr = bounds.get("classic.gd.strongly-convex").expr
        symbol_names: ClassVar[dict[Any, str]] = {}
        relation = "≤"

    shown = bound_mathml(Odd())
    assert "<mtext>error &lt;b&gt;</mtext>" in shown and "<mo>≤</mo>" in shown


def test_untrusted_text_is_escaped(page: str) -> None:
    assert "<img src=x" not in page and "onerror=alert(1)>" not in page
    assert page.count("<img") == 0  # no figures in this report
    evil = card(page, "minimax/thm5/evil")
    assert "&lt;img src=x onerror=alert(1)&gt;&quot;&#x27;&amp;" in evil
    assert page.count("<script") == 1


def test_malicious_id_is_escaped(tmp_path: Path) -> None:
    hostile = make(
        "classic/x/evil",
        "error",
        reason="</pre><script>alert(1)</script>",
        where="<b>f.py:1</b>",
        traceback="</pre></details><script>x</script>",
    )
    object.__setattr__(hostile.claim, "id", 'classic/x/"><script>alert(1)</script>')
    path = write_html([hostile], tmp_path / "index.html")
    text = path.read_text("utf-8")
    assert text.count("<script") == 1 and "<b>f.py" not in text
    assert "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_error_card_shows_where_and_traceback(page: str) -> None:
    broken = card(page, "minimax/thm4/broken")
    assert '<p class="where">Raised at <code>verification/minimax/thm4.py:42</code></p>' in broken
    assert '<details class="traceback"><summary>Traceback</summary><pre>Traceback' in broken
    assert "ZeroDivisionError</pre></details>" in broken


def test_violated_cards_show_the_rerun_command(results: list[ClaimResult], page: str) -> None:
    wrong = next(r for r in results if r.claim.id == "classic/sgd/wrong")
    command = rerun_command(wrong, {"seed": 7})
    assert command == "fedtheory replay verification/demo.py classic/sgd/wrong T=10 --seed 4242"
    assert f'<div class="cmd"><pre><code>{command}</code></pre></div>' in card(
        page, "classic/sgd/wrong"
    )
    failures = summary(page)
    assert command in failures
    erratum = rerun_command(next(r for r in results if r.claim.id == "minimax/thm5/errata2"))
    assert erratum is not None and "fedtheory verify verification/demo.py" in erratum
    assert "--seed 7" in card(page, "minimax/thm5/errata2")
    assert "<code>fedtheory" not in card(page, "classic/gd/rate")  # holds: nothing to rerun


def test_filter_script_and_attributes(page: str) -> None:
    assert '<div class="toolbar" id="toolbar" hidden>' in page  # shown by the script only
    assert 'data-ready", "1"' in page and "location.hash" in page
    other = card(page, "classic/gd/other")
    assert 'data-status="holds"' in other and 'data-paper="classic"' in other
    assert 'data-seconds="9"' in other
    for value in ("failed", "error", "violated-as-expected", "inconclusive", "holds"):
        assert f'<input type="checkbox" value="{value}" checked>' in page
    assert '<option value="time">' in page and '<option value="minimax">' in page


def test_no_external_resources(page: str) -> None:
    assert not re.search(r"""(src|href|action)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "http://" not in page and "https://" not in page
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert "fetch(" not in page and "XMLHttpRequest" not in page
    assert re.findall(r"<script[^>]*>", page) == ["<script>"]  # inline, no src


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs a headless Chromium")
def test_filter_runs_in_a_headless_browser(results: list[ClaimResult], tmp_path: Path) -> None:
    """The script wires up without errors (body[data-ready]) and a filter in the address
    (#status=failed) leaves only the failed card visible."""
    path = write_html(results, tmp_path / "index.html")
    command = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
        "--dump-dom", f"{path.as_uri()}#status=failed,error&sort=time",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    dom = done.stdout
    assert re.search(r'<body[^>]*data-ready="1"', dom), done.stderr[-2000:]
    assert 'data-shown="2"' in dom
    visible = re.findall(r'<article class="card [^"]*" id="[^"]*" data-id="([^"]*)"[^>]*>', dom)
    hidden = re.findall(r'<article [^>]*data-id="([^"]*)"[^>]*hidden', dom)
    assert sorted(set(visible) - set(hidden)) == ["classic/sgd/wrong", "minimax/thm4/broken"]
    assert not re.search(r"CONSOLE.*(Uncaught|Error)", done.stderr)
